//! The page's smaller pieces: the error banner, the counters, the compare
//! table and the story links. Every value goes into the DOM as text, never as markup.

use yew::prelude::*;

use std::rc::Rc;

use crate::config::{ScenarioKind, StrategyKind};
use crate::debugger::measured::{measured_for, Measured};
use crate::debugger::narrate::format_ms;
use crate::debugger::CompareRow;
use crate::model::Part;
use crate::run::Headline;
use crate::story_links::STORIES;
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
    pub metrics: Part<Metrics>,
    pub headline: Headline,
    /// A script's run: `duplicate_tickets` counts its rows beyond the
    /// first of a uniqueness it expects, in whatever table.
    #[prop_or_default]
    pub script: bool,
}

/// One counter: its §5 name (the value cell's test id is `metric-<name>`),
/// its name in words, its value and what it counts.
struct Counter {
    name: &'static str,
    words: &'static str,
    text: String,
    counts: &'static str,
    /// A value above zero (or above one, for holders) is harm.
    harm: bool,
}

fn counter(name: &'static str, words: &'static str, value: u64, counts: &'static str) -> Counter {
    let harm = match name {
        "duplicate_tickets" | "timeouts" | "errors" | "hung" => value > 0,
        "max_in_critical_section" => value > 1,
        _ => false,
    };
    Counter {
        name,
        words,
        text: value.to_string(),
        counts,
        harm,
    }
}

/// A latency in microseconds, shown in milliseconds.
fn millis(name: &'static str, words: &'static str, us: u64, counts: &'static str) -> Counter {
    Counter {
        text: format_ms(us),
        ..counter(name, words, us, counts)
    }
}

/// Every metric of DESIGN.md §5, in words, with what it counts.
fn counters(m: &Metrics, script: bool) -> Vec<Counter> {
    let latency = &m.latency_us;
    let duplicates = match script {
        true => counter("duplicate_tickets", "duplicate rows", m.duplicate_tickets,
            "rows beyond the first of a uniqueness the code expects (-- expect unique, expectUnique)"),
        false => counter("duplicate_tickets", "duplicate tickets", m.duplicate_tickets,
            "order rows beyond the first for one user and event"),
    };
    vec![
        duplicates,
        counter("orders", "order rows", m.orders, "order rows in the database"),
        counter("errors", "errors", m.errors,
            "requests that ended without their result (a timeout with no stale data, a refused insert, a crash)"),
        counter("db_reads", "DB reads", m.db_reads, "DB selects and finds sent"),
        counter("stale_served", "served stale", m.stale_served,
            "requests answered with stale data after giving up, or at once (stale-while-revalidate)"),
        millis("latency_p99", "p99 latency (ms)", latency.p99, "99th percentile of arrival to return"),
        counter("db_writes", "DB writes", m.db_writes, "DB inserts sent"),
        counter("cache_hits", "cache hits", m.cache_hits, "gets of a data key that found it live"),
        counter("cache_misses", "cache misses", m.cache_misses,
            "gets of a data key that found it absent, expired or stale"),
        counter("timeouts", "timeouts", m.timeouts, "lock waits that gave up after wait_timeout"),
        counter("lock_wakeups", "lock wake-ups", m.lock_wakeups,
            "acquire attempts that found the lock taken"),
        counter("max_in_critical_section", "most inside at once", m.max_in_critical_section,
            "peak requests inside the critical section of one key, across servers"),
        counter("peak_db_concurrency", "peak DB queries", m.peak_db_concurrency,
            "peak DB queries holding a connection at once"),
        counter("rejected_writes", "fenced writes", m.rejected_writes,
            "writes the DB refused for an old fencing token"),
        counter("early_refreshes", "early refreshes", m.early_refreshes, "XFetch refreshes before expiry"),
        counter("hung", "hung", m.hung, "requests left waiting forever behind a crashed holder"),
        millis("latency_p50", "p50 latency (ms)", latency.p50, "median of arrival to return"),
        millis("latency_max", "max latency (ms)", latency.max, "the slowest request"),
        counter("events", "macrotasks", m.events, "macrotasks run: arrivals, completions, timers"),
    ]
}

#[derive(Properties, PartialEq)]
struct CounterCellProps {
    name: &'static str,
    words: &'static str,
    text: String,
    counts: &'static str,
    harm: bool,
}

#[component]
fn CounterCell(props: &CounterCellProps) -> Html {
    html! {
        <div class={classes!("counter", props.harm.then_some("harm"))} title={props.counts}>
            <dt>{ props.words }</dt>
            <dd data-testid={format!("metric-{}", props.name)}>{ props.text.clone() }</dd>
        </div>
    }
}

fn cell(counter: Counter) -> Html {
    html! {
        <CounterCell key={counter.name} name={counter.name} words={counter.words}
            text={counter.text} counts={counter.counts} harm={counter.harm} />
    }
}

/// A script's own `count(name)` counters: test ids `metric-custom-<name>`.
fn own_cells(headline: &Headline) -> Html {
    let cell = |(name, value): &(String, f64)| {
        let text = if value.fract() == 0.0 && value.abs() < 1e15 {
            format!("{value:.0}")
        } else {
            format!("{value}")
        };
        // CounterCell's markup: its props are the page's own static names.
        html! {
            <div key={format!("custom-{name}")} class="counter"
                title={format!("the script's own count(\"{name}\")")}>
                <dt>{ name.clone() }</dt>
                <dd data-testid={format!("metric-custom-{name}")}>{ text }</dd>
            </div>
        }
    };
    headline.own.iter().map(cell).collect()
}

/// The scenario's headline counters, large, then every other metric of
/// DESIGN.md §5 folded under "all counters"; each value cell has test id
/// `metric-<name>` (the trace hash: `trace-hash`), latencies in ms, and a
/// tooltip saying what it counts.
#[component]
pub fn MetricsTable(props: &MetricsTableProps) -> Html {
    let m = &props.metrics;
    // The headline's counters in its order (a sort would cost the page's
    // size budget more than these few moves).
    let mut rest = counters(m, props.script);
    let mut top = Vec::new();
    for name in props.headline.names {
        if let Some(index) = rest.iter().position(|c| c.name == *name) {
            top.push(rest.remove(index));
        }
    }
    html! {
        <section class="panel metrics" aria-labelledby="metrics-title">
            <h2 id="metrics-title" class="visually-hidden">{ "Counters" }</h2>
            <dl class="counters headline">
                { for top.into_iter().map(cell) }
                { own_cells(&props.headline) }
            </dl>
            <details class="all-counters">
                <summary>{ "all counters" }</summary>
                <dl class="counters">
                    { for rest.into_iter().map(cell) }
                    <div key="trace_hash" class="counter hash" title="a stable hash of the trace: equal runs, equal hash">
                        <dt>{ "trace_hash" }</dt>
                        <dd data-testid="trace-hash">{ m.trace_hash.clone() }</dd>
                    </div>
                </dl>
            </details>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct CompareTableProps {
    pub rows: Rc<Vec<CompareRow>>,
    /// Whether the rows still to come are being run (not while a script
    /// that does not load, or a module it waits for, holds them back).
    pub running: bool,
    pub current: StrategyKind,
    pub scenario: ScenarioKind,
    /// The stampede's key count: more DB reads than keys is harm.
    pub keys: u32,
    /// The scenario's requests, above what the table runs
    /// (`compare::MAX_COMPARE_REQUESTS`): it says so instead.
    #[prop_or_default]
    pub too_large: Option<u64>,
    pub on_pick: Callback<StrategyKind>,
    /// Reports of `interleave real` the user pasted.
    pub measured: Rc<Vec<Measured>>,
    /// Why the last paste could not be read.
    pub measured_error: Option<String>,
    pub on_measured: Callback<String>,
}

/// A compare row's cells after its name, as (text, harm). A cut run's
/// counts are lower bounds ("≥ N"); its latencies mean nothing ("—").
fn cells(row: &CompareRow, ticket: bool, harm: Harm) -> Vec<(String, bool)> {
    let m = &row.metrics;
    let count = |value: u64, bad: bool| {
        let text = if row.complete {
            value.to_string()
        } else {
            format!("≥ {value}")
        };
        (text, bad)
    };
    let latency = |us: u64| {
        let text = if row.complete {
            format_ms(us)
        } else {
            "—".to_string()
        };
        (text, false)
    };
    let (first, second) = if ticket {
        (m.duplicate_tickets, m.rejected_writes)
    } else {
        (m.stale_served, m.early_refreshes)
    };
    vec![
        count(m.db_reads, harm.db_reads),
        count(first, ticket && first > 0),
        count(second, false),
        count(m.timeouts, m.timeouts > 0),
        count(m.errors, m.errors > 0),
        count(m.hung, m.hung > 0),
        count(m.lock_wakeups, false),
        count(m.max_in_critical_section, m.max_in_critical_section > 1),
        latency(m.latency_us.p50),
        latency(m.latency_us.p99),
    ]
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
    let pending = match props.running {
        true => StrategyKind::ALL.len().saturating_sub(props.rows.len()),
        false => 0,
    };
    let real = props.measured.iter().any(|m| m.scenario == props.scenario);
    // Every strategy ran the very same events: only a script can do that,
    // one that calls none of what `strategy` changes.
    let same = pending == 0
        && props
            .rows
            .first()
            .is_some_and(|row| !row.metrics.trace_hash.is_empty())
        && props
            .rows
            .iter()
            .all(|row| row.complete && row.metrics.trace_hash == props.rows[0].metrics.trace_hash);
    html! {
        <section class="panel compare" data-testid="compare" aria-labelledby="compare-title">
            <h2 id="compare-title">{ "Compare strategies" }</h2>
            if let Some(requests) = props.too_large {
                <p class="notice" data-testid="compare-too-large">{ format!(
                    "Not compared: {requests} requests are at least {} macrotasks, more than the {} \
                     each strategy runs here. `interleave run` runs them to the end.",
                    requests * 2, crate::debugger::compare::MAX_COMPARE_EVENTS
                ) }</p>
            }
            <div class="table-scroll">
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
                        if real {
                            <th scope="col">{ "measured on real servers" }</th>
                        }
                    </tr>
                </thead>
                <tbody>
                    { for props.rows.iter().map(|row| {
                        let strategy = row.strategy;
                        let harm = Harm::of(row, props.scenario, props.keys);
                        let onclick = props.on_pick.reform(move |_: MouseEvent| strategy);
                        let current = (strategy == props.current).then_some("current");
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
                                { for cells(row, ticket, harm).into_iter().map(|(text, bad)| html! {
                                    <td class={classes!(bad.then_some("bad"))}>{ text }</td>
                                }) }
                                if real {
                                    <td class="real" title={measured_for(&props.measured, props.scenario, strategy).map(|r| r.fragment.clone())}>
                                        { measured_for(&props.measured, props.scenario, strategy).map_or("—".to_string(), Measured::cell) }
                                    </td>
                                }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            </div>
            if pending > 0 {
                <p class="more" role="status">{ format!("running {pending} more…") }</p>
            }
            if same {
                <p class="hint" data-testid="compare-same">{ "Every strategy ran the same events: `strategy` \
                    picks what guard, lock and singleflight do, and this code calls none of them. Its race \
                    is in its own reads and writes (What happened tells it); the fix goes in the code." }</p>
            }
            <details class="real-input">
                <summary>{ "add what real servers measured" }</summary>
                <p class="hint">{ "Paste the JSON that interleave real prints (one report per line, any strategies); nothing leaves the page." }</p>
                <textarea data-testid="real-json" rows="3" spellcheck="false"
                    onchange={props.on_measured.reform(|event: Event| {
                        event.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()
                    })} />
                if let Some(error) = &props.measured_error {
                    <p class="param-error" role="alert">{ error.clone() }</p>
                }
            </details>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ExampleLinksProps {
    /// The canonical fragment of the current run, to mark its link.
    pub current: String,
}

#[component]
pub fn ExampleLinks(props: &ExampleLinksProps) -> Html {
    html! {
        <nav class="panel examples" aria-labelledby="examples-title">
            <h2 id="examples-title">{ "Stories" }</h2>
            <ul>
                { for STORIES.iter().map(|&(label, fragment, look_for)| {
                    let current = (fragment == props.current).then_some("page");
                    html! {
                        <li key={label}>
                            <a href={format!("#{fragment}")} aria-current={current}>{ label }</a>
                            <span class="look-for">{ look_for }</span>
                        </li>
                    }
                }) }
                <li key="script">
                    <a href="#v=1&scenario=script&example=ticket" data-testid="link-script">{ "your own code" }</a>
                    <span class="look-for">{ "paste your JavaScript handler and watch it race" }</span>
                </li>
            </ul>
        </nav>
    }
}
