//! The page's smaller pieces: the error banner, the counters, the compare
//! table and the story links. Every value goes into the DOM as text, never as markup.

use yew::prelude::*;

use std::rc::Rc;

use crate::config::url::{parse_fragment_lenient, to_fragment};
use crate::config::{ScenarioKind, StrategyKind};
use crate::debugger::narrate::format_ms;
use crate::debugger::CompareRow;
use crate::Metrics;

/// Microseconds as milliseconds with at most 3 decimals and no trailing
/// zeros: `22000` is `22`, `500` is `0.5`, `1234` is `1.234`.

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
        count(
            "rejected_writes",
            m.rejected_writes,
            "writes the DB refused for an old fencing token",
        ),
        count(
            "early_refreshes",
            m.early_refreshes,
            "XFetch refreshes before expiry",
        ),
        count(
            "hung",
            m.hung,
            "requests left waiting forever (a crashed holder)",
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
        <section class="panel metrics" aria-labelledby="metrics-title">
            <h2 id="metrics-title">{ "Counters" }</h2>
            <dl class="counters">
                { for rows.into_iter().map(|row| html! {
                    <div key={row.name} class="counter" title={row.counts}>
                        <dt>{ row.label }</dt>
                        <dd data-testid={format!("metric-{}", row.name)}>{ row.value }</dd>
                    </div>
                }) }
                <div key="trace_hash" class="counter hash" title="a stable hash of the trace">
                    <dt>{ "trace_hash" }</dt>
                    <dd data-testid="trace-hash">{ m.trace_hash.clone() }</dd>
                </div>
            </dl>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct CompareTableProps {
    pub rows: Rc<Vec<CompareRow>>,
    pub current: StrategyKind,
    pub scenario: ScenarioKind,
    /// The stampede's key count: more DB reads than keys is harm.
    pub keys: u32,
    pub on_pick: Callback<StrategyKind>,
}

/// Which cells of a compare row show harm beyond the per-column rules.
struct Harm {
    db_reads: bool,
}

impl Harm {
    fn of(row: &CompareRow, scenario: ScenarioKind, keys: u32) -> Harm {
        Harm {
            db_reads: scenario == ScenarioKind::Stampede && row.metrics.db_reads > u64::from(keys),
        }
    }
}

/// The same scenario and seed under every strategy, side by side; a row
/// switches the debugger to that strategy.
#[component]
pub fn CompareTable(props: &CompareTableProps) -> Html {
    let ticket = props.scenario == ScenarioKind::Ticket;
    let pending = StrategyKind::ALL.len().saturating_sub(props.rows.len());
    html! {
        <section class="panel compare" data-testid="compare" aria-labelledby="compare-title">
            <h2 id="compare-title">{ "Compare strategies" }</h2>
            <table>
                <thead>
                    <tr>
                        <th scope="col">{ "strategy" }</th>
                        <th scope="col">{ "DB reads" }</th>
                        if ticket {
                            <th scope="col">{ "duplicates" }</th>
                            <th scope="col">{ "rejected writes" }</th>
                        } else {
                            <th scope="col">{ "stale served" }</th>
                            <th scope="col">{ "early refreshes" }</th>
                        }
                        <th scope="col">{ "timeouts" }</th>
                        <th scope="col">{ "errors" }</th>
                        <th scope="col">{ "hung" }</th>
                        <th scope="col">{ "wake-ups" }</th>
                        <th scope="col">{ "max in CS" }</th>
                        <th scope="col">{ "p50 ms" }</th>
                        <th scope="col">{ "p99 ms" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for props.rows.iter().map(|row| {
                        let m = &row.metrics;
                        let strategy = row.strategy;
                        let harm = Harm::of(row, props.scenario, props.keys);
                        // A cut run's counts are lower bounds; its latencies mean nothing.
                        let count = |value: u64| if row.complete { value.to_string() } else { format!("≥ {value}") };
                        let latency = |us: u64| if row.complete { format_ms(us) } else { "—".to_string() };
                        let onclick = props.on_pick.reform(move |_: MouseEvent| strategy);
                        let current = (strategy == props.current).then_some("current");
                        let (first, second) = if ticket {
                            (m.duplicate_tickets, m.rejected_writes)
                        } else {
                            (m.stale_served, m.early_refreshes)
                        };
                        let partial = (!row.complete).then_some("partial");
                        let lockless_here = ticket && strategy.is_cache_only();
                        html! {
                            <tr key={strategy.name()} class={classes!("pick", current, partial)} {onclick}
                                title={format!("Debug {}", strategy.name())}>
                                <th scope="row">
                                    <button class="link" title="Debug this strategy">{ strategy.name() }</button>
                                    if lockless_here {
                                        <span class="note">{ " no lock: same as none here" }</span>
                                    }
                                    if !row.complete {
                                        <span class="cut" title="stopped after 2,000,000 events: the counts are lower bounds, the latencies unknown">{ " (cut: partial)" }</span>
                                    }
                                </th>
                                <td class={classes!(harm.db_reads.then_some("bad"))}>{ count(m.db_reads) }</td>
                                <td class={classes!((ticket && first > 0).then_some("bad"))}>{ count(first) }</td>
                                <td>{ count(second) }</td>
                                <td class={classes!((m.timeouts > 0).then_some("bad"))}>{ count(m.timeouts) }</td>
                                <td class={classes!((m.errors > 0).then_some("bad"))}>{ count(m.errors) }</td>
                                <td class={classes!((m.hung > 0).then_some("bad"))}>{ count(m.hung) }</td>
                                <td>{ count(m.lock_wakeups) }</td>
                                <td class={classes!((m.max_in_critical_section > 1).then_some("bad"))}>
                                    { count(m.max_in_critical_section) }
                                </td>
                                <td>{ latency(m.latency_us.p50) }</td>
                                <td>{ latency(m.latency_us.p99) }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            if pending > 0 {
                <p class="more" role="status">{ format!("running {pending} more…") }</p>
            }
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
    // Each story's canonical fragment, worked out once, not on every step.
    let canonical = use_memo((), |_| {
        EXAMPLES.map(|(_, fragment)| to_fragment(&parse_fragment_lenient(fragment).0))
    });
    html! {
        <nav class="panel examples" aria-labelledby="examples-title">
            <h2 id="examples-title">{ "Stories" }</h2>
            <ul>
                { for EXAMPLES.iter().zip(canonical.iter()).map(|(&(label, fragment), canonical)| {
                    let current = (*canonical == props.current).then_some("page");
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
