//! The page's pieces: the error banner, the metrics table and the example
//! links. Every value goes into the DOM as text, never as markup.

use yew::prelude::*;

use super::run::format_ms;
use crate::scenario::url::{parse_fragment_lenient, to_fragment};
use crate::Metrics;

#[derive(Properties, PartialEq)]
pub struct ErrorBannerProps {
    pub errors: Vec<String>,
}

/// Lists the fragment's bad keys; renders nothing when there are none.
#[component]
pub fn ErrorBanner(props: &ErrorBannerProps) -> Html {
    if props.errors.is_empty() {
        return html! {};
    }
    html! {
        <div class="error-banner" role="alert" data-testid="error-banner">
            <p>{ "Some of the URL fragment was not understood; those keys use their defaults:" }</p>
            <ul>
                { for props.errors.iter().map(|error| html! { <li>{ error }</li> }) }
            </ul>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct MetricsTableProps {
    pub metrics: Metrics,
}

/// One row of the metrics table.
struct Row {
    /// The metric's name in §5; the value cell's test id is `metric-<name>`.
    name: &'static str,
    label: &'static str,
    value: String,
    counts: &'static str,
}

/// A counter, shown as the number alone.
fn count(name: &'static str, value: u64, counts: &'static str) -> Row {
    let value = value.to_string();
    Row {
        name,
        label: name,
        value,
        counts,
    }
}

/// A latency in microseconds, shown in milliseconds.
fn millis(name: &'static str, label: &'static str, us: u64, counts: &'static str) -> Row {
    let value = format_ms(us);
    Row {
        name,
        label,
        value,
        counts,
    }
}

/// The metrics of DESIGN.md §5, each value cell with test id
/// `metric-<name>` (the trace hash: `trace-hash`); latencies in milliseconds.
#[component]
pub fn MetricsTable(props: &MetricsTableProps) -> Html {
    let m = &props.metrics;
    let latency = &m.latency_us;
    let rows = [
        count("db_reads", m.db_reads, "DB selects and finds"),
        count("db_writes", m.db_writes, "DB inserts"),
        count("orders", m.orders, "order rows"),
        count(
            "duplicate_tickets",
            m.duplicate_tickets,
            "extra orders for one user and event",
        ),
        count(
            "cache_hits",
            m.cache_hits,
            "gets of a data key that found it",
        ),
        count(
            "cache_misses",
            m.cache_misses,
            "gets of a data key that missed",
        ),
        count(
            "stale_served",
            m.stale_served,
            "answers with stale data after giving up",
        ),
        count("timeouts", m.timeouts, "lock waits that gave up"),
        count(
            "errors",
            m.errors,
            "requests that ended without their result",
        ),
        count(
            "lock_wakeups",
            m.lock_wakeups,
            "failed lock acquire attempts",
        ),
        count(
            "max_in_critical_section",
            m.max_in_critical_section,
            "peak holders of one key",
        ),
        count(
            "peak_db_concurrency",
            m.peak_db_concurrency,
            "peak DB queries holding a connection",
        ),
        millis(
            "latency_p50",
            "latency p50 (ms)",
            latency.p50,
            "median request time",
        ),
        millis(
            "latency_p99",
            "latency p99 (ms)",
            latency.p99,
            "99th percentile request time",
        ),
        millis(
            "latency_max",
            "latency max (ms)",
            latency.max,
            "slowest request",
        ),
        count("events", m.events, "macrotasks run"),
    ];
    html! {
        <section class="metrics" aria-labelledby="metrics-title">
            <h2 id="metrics-title">{ "Metrics" }</h2>
            <table>
                <thead>
                    <tr>
                        <th scope="col">{ "metric" }</th>
                        <th scope="col">{ "value" }</th>
                        <th scope="col">{ "counts" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for rows.into_iter().map(|row| html! {
                        <tr key={row.name}>
                            <th scope="row"><code>{ row.label }</code></th>
                            <td class="value" data-testid={format!("metric-{}", row.name)}>
                                { row.value }
                            </td>
                            <td class="counts">{ row.counts }</td>
                        </tr>
                    }) }
                    <tr key="trace_hash">
                        <th scope="row"><code>{ "trace_hash" }</code></th>
                        <td class="value" data-testid="trace-hash">{ m.trace_hash.clone() }</td>
                        <td class="counts">{ "a stable hash of the trace" }</td>
                    </tr>
                </tbody>
            </table>
        </section>
    }
}

/// A few runs worth comparing, as `(label, fragment)`.
pub const EXAMPLES: [(&str, &str); 8] = [
    (
        "stampede · none",
        "v=1&scenario=stampede&strategy=none&requests=50",
    ),
    (
        "stampede · get-set",
        "v=1&scenario=stampede&strategy=get-set&requests=50",
    ),
    (
        "stampede · add",
        "v=1&scenario=stampede&strategy=add&requests=50",
    ),
    (
        "stampede · keyed-mutex",
        "v=1&scenario=stampede&strategy=keyed-mutex&requests=50",
    ),
    (
        "stampede · single-flight",
        "v=1&scenario=stampede&strategy=single-flight&requests=50",
    ),
    (
        "ticket · none",
        "v=1&scenario=ticket&strategy=none&users=1&clicks=2",
    ),
    (
        "ticket · keyed-mutex",
        "v=1&scenario=ticket&strategy=keyed-mutex&users=1&clicks=2",
    ),
    (
        "ticket · keyed-mutex · 2 servers",
        "v=1&scenario=ticket&strategy=keyed-mutex&servers=2",
    ),
];

#[derive(Properties, PartialEq)]
pub struct ExampleLinksProps {
    /// The canonical fragment of the current run, to mark its link.
    pub current: String,
}

#[component]
pub fn ExampleLinks(props: &ExampleLinksProps) -> Html {
    html! {
        <nav class="examples" aria-labelledby="examples-title">
            <h2 id="examples-title">{ "Examples" }</h2>
            <ul>
                { for EXAMPLES.iter().map(|&(label, fragment)| {
                    let canonical = to_fragment(&parse_fragment_lenient(fragment).0);
                    let current = (canonical == props.current).then_some("page");
                    html! {
                        <li key={label}>
                            <a href={format!("#{fragment}")} aria-current={current}>{ label }</a>
                        </li>
                    }
                }) }
            </ul>
        </nav>
    }
}
