//! The explore panel: search every interleaving (DFS with sleep sets, with
//! an optional preemption bound) or sample them (random, PCT) for the
//! chosen checks, under this strategy or every strategy; the shortest
//! counterexample opens in the debugger.

use yew::prelude::*;

use crate::config::ScenarioKind;
use crate::explore::search::thousands;
use crate::explore::{Check, ExploreOptions, ExploreResult, Method, StrategyRow};
use crate::model::{Part, SearchView};

#[derive(Properties, PartialEq)]
pub struct ExplorePanelProps {
    pub scenario: ScenarioKind,
    /// A script runs: only the checks a script's run can be judged on.
    #[prop_or_default]
    pub script: bool,
    pub view: Option<Part<SearchView>>,
    /// The run is still being prepared: a search waits for it.
    #[prop_or_default]
    pub preparing: bool,
    pub on_start: Callback<(ExploreOptions, bool)>,
    pub on_cancel: Callback<()>,
    /// Opens a counterexample: its fragment, and the debugger position
    /// right after its violation.
    pub on_open: Callback<(String, u32, Vec<Check>)>,
}

/// Most schedules one search may run from the panel.
const MAX_SCHEDULES: u64 = 1_000_000;
/// The largest preemption bound the panel takes.
const MAX_PREEMPTIONS: u32 = 20;
/// The panel's defaults: enough for every strategy's search of a small
/// scenario to finish, complete or (the polling locks, whose unbounded
/// space is product-sized) complete within 2 preemptions, in a second or
/// two. The bound applies only when 256 unbounded schedules do not finish.
const DEFAULT_MAX_SCHEDULES: u64 = 20_000;
const DEFAULT_MAX_PREEMPTIONS: u32 = 2;

#[component]
pub fn ExplorePanel(props: &ExplorePanelProps) -> Html {
    let checks = use_state(|| match props.script {
        true => Check::SCRIPT_DEFAULT.to_vec(),
        false => vec![Check::default_for(props.scenario)],
    });
    let offered: &[Check] = match props.script {
        true => &Check::SCRIPT,
        false => &Check::ALL,
    };
    let method = use_state(|| Method::Dfs);
    let max_schedules = use_state(|| DEFAULT_MAX_SCHEDULES);
    let seed = use_state(|| 1u64);
    let max_preemptions = use_state(|| Some(DEFAULT_MAX_PREEMPTIONS));

    let start = |every_strategy: bool| {
        let (checks, method, max_schedules, seed, max_preemptions) = (
            checks.clone(),
            method.clone(),
            max_schedules.clone(),
            seed.clone(),
            max_preemptions.clone(),
        );
        let on_start = props.on_start.clone();
        // A script's search also counts the checks left unticked, so "0
        // violating" can say that some schedules made a request fail.
        let watched: &'static [Check] = match props.script {
            true => &Check::SCRIPT,
            false => &[],
        };
        Callback::from(move |_: MouseEvent| {
            let mut options = ExploreOptions::new((*checks).clone()).watching(watched);
            options.method = *method;
            options.max_schedules = *max_schedules;
            options.max_preemptions = (*method == Method::Dfs)
                .then_some(*max_preemptions)
                .flatten();
            options.seed = *seed;
            on_start.emit((options, every_strategy));
        })
    };
    let on_bound = {
        let max_preemptions = max_preemptions.clone();
        Callback::from(move |bound: Option<u32>| max_preemptions.set(bound))
    };
    let toggle = |check: Check| {
        let checks = checks.clone();
        Callback::from(move |_: Event| {
            let mut next = (*checks).clone();
            match next.iter().position(|&c| c == check) {
                Some(at) if next.len() > 1 => {
                    next.remove(at);
                }
                Some(_) => {}
                None => next.push(check),
            }
            checks.set(next);
        })
    };
    let on_method = {
        let method = method.clone();
        Callback::from(move |event: Event| {
            let value = event
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            method.set(value.parse().unwrap_or(Method::Dfs));
        })
    };
    let number = |state: &UseStateHandle<u64>, max: u64| {
        let state = state.clone();
        Callback::from(move |event: InputEvent| {
            let value = event
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Ok(n) = value.trim().parse::<u64>() {
                state.set(n.clamp(1, max));
            }
        })
    };
    let running = props
        .view
        .as_ref()
        .is_some_and(|view| !view.done() && !view.cancelled);
    let on_cancel = props.on_cancel.reform(|_: MouseEvent| ());

    html! {
        <section class="panel explore" data-testid="explore-pane" aria-labelledby="explore-title">
            <h2 id="explore-title">{ "Explore every interleaving" }</h2>
            <div class="explore-form">
                <fieldset>
                    <legend>{ "checks" }</legend>
                    { for offered.iter().map(|&check| html! {
                        <label class="check">
                            <input type="checkbox" data-testid={format!("explore-check-{}", check.name())}
                                checked={checks.contains(&check)} onchange={toggle(check)} />
                            { check.name() }
                        </label>
                    }) }
                </fieldset>
                <label>{ "method " }
                    <select data-testid="explore-method" onchange={on_method}>
                        { for [Method::Dfs, Method::Random, Method::Pct].iter().map(|m| html! {
                            <option value={m.name()} selected={*m == *method}>{ m.name() }</option>
                        }) }
                    </select>
                </label>
                <label>{ "max schedules " }
                    <input type="text" inputmode="numeric" data-testid="explore-max" size="8"
                        value={max_schedules.to_string()} oninput={number(&max_schedules, MAX_SCHEDULES)} />
                </label>
                <BoundField bound={*max_preemptions} disabled={*method != Method::Dfs} on_set={on_bound} />
                <label>{ "seed " }
                    <input type="text" inputmode="numeric" data-testid="explore-seed" size="6"
                        value={seed.to_string()} oninput={number(&seed, u64::MAX)} />
                </label>
                <button class="primary" data-testid="btn-explore" disabled={running || props.preparing} onclick={start(false)}>
                    { "explore this strategy" }
                </button>
                <button data-testid="btn-explore-all" disabled={running || props.preparing} onclick={start(true)}>
                    { "every strategy" }
                </button>
            </div>
            if let Some(view) = &props.view {
                <SearchResults view={view.clone()} {running} {on_cancel} on_open={props.on_open.clone()} />
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct BoundFieldProps {
    /// `None`: unbounded.
    bound: Option<u32>,
    /// Random and PCT take no bound.
    disabled: bool,
    on_set: Callback<Option<u32>>,
}

/// The DFS's preemption bound: empty is unbounded.
#[component]
fn BoundField(props: &BoundFieldProps) -> Html {
    let oninput = {
        let on_set = props.on_set.clone();
        Callback::from(move |event: InputEvent| {
            let value = event
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Some(bound) = preemption_bound(&value) {
                on_set.emit(bound);
            }
        })
    };
    let value = props
        .bound
        .map(|bound| bound.to_string())
        .unwrap_or_default();
    html! {
        <label title="dfs only: most non-default choices per schedule, 0 to 20 (empty: unbounded); applied only if 256 unbounded schedules do not finish, it lets polling locks with several users finish">
            { "max preemptions " }
            <input type="text" inputmode="numeric" data-testid="explore-max-preemptions" size="4"
                placeholder="∞" {value} disabled={props.disabled} {oninput} />
        </label>
    }
}

/// The typed bound: empty is unbounded (`Some(None)`), a whole number is
/// clamped to `0..=MAX_PREEMPTIONS`, anything else is ignored (`None`).
fn preemption_bound(text: &str) -> Option<Option<u32>> {
    let text = text.trim();
    if text.is_empty() {
        return Some(None);
    }
    let bound = text.parse::<u64>().ok()?;
    Some(Some(bound.min(u64::from(MAX_PREEMPTIONS)) as u32))
}

#[derive(Properties, PartialEq)]
struct SearchResultsProps {
    view: Part<SearchView>,
    running: bool,
    on_cancel: Callback<MouseEvent>,
    on_open: Callback<(String, u32, Vec<Check>)>,
}

#[component]
fn SearchResults(props: &SearchResultsProps) -> Html {
    let view = &props.view;
    html! {
        <div class="search-results">
            if let Some((strategy, progress, fraction)) = view.running {
                <div class="progress" role="status" data-testid="explore-progress">
                    <span>{ format!("{}: {} schedules, {} violating", strategy.name(),
                        thousands(progress.explored), thousands(progress.violating)) }</span>
                    <progress max="1000" value={((fraction * 1000.0) as u32).to_string()} />
                    if view.every_strategy {
                        <span>{ format!("strategy {} of {}", view.counts.0 + 1, view.counts.1) }</span>
                    }
                    <button data-testid="btn-explore-cancel" onclick={props.on_cancel.clone()}>{ "cancel" }</button>
                </div>
            }
            if view.cancelled {
                <p class="notice" role="status">{ "cancelled: the counts below are for what ran" }</p>
            }
            if !view.every_strategy {
                if let Some(row) = view.rows.first() {
                    <ResultFacts row={row.clone()} checks={view.checks.clone()} on_open={props.on_open.clone()} />
                }
            } else if !view.rows.is_empty() {
                <table class="search-table" data-testid="explore-table">
                    <thead><tr>
                        <th scope="col">{ "strategy" }</th>
                        <th scope="col">{ "result" }</th>
                        <th scope="col" title={NAIVE_ESTIMATE}>{ "naive estimate" }</th>
                        <th scope="col">{ "shortest counterexample" }</th>
                    </tr></thead>
                    <tbody>
                        { for view.rows.iter().map(|row| html! {
                            <tr key={row.strategy.name()}>
                                <th scope="row">{ row.strategy.name() }</th>
                                <td>{ row.outcome(&view.checks) }</td>
                                <td title={NAIVE_ESTIMATE}>{ estimate(&row.result) }</td>
                                <td><OpenButton row={row.clone()} on_open={props.on_open.clone()} /></td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    row: StrategyRow,
    #[prop_or_default]
    checks: Vec<Check>,
    on_open: Callback<(String, u32, Vec<Check>)>,
}

#[component]
fn ResultFacts(props: &RowProps) -> Html {
    let result = &props.row.result;
    html! {
        <div class="result">
            <p class="summary" data-testid="explore-summary">{ props.row.summary(&props.checks) }</p>
            <dl class="facts">
                <dt>{ "explored" }</dt><dd data-testid="explore-explored">{ result.explored }</dd>
                <dt>{ "violating" }</dt><dd data-testid="explore-violating">{ result.violating }</dd>
                <dt>{ "coverage" }</dt><dd data-testid="explore-coverage">{ result.coverage.describe() }</dd>
                <dt title={NAIVE_ESTIMATE}>{ "naive estimate" }</dt>
                <dd data-testid="explore-naive" title={NAIVE_ESTIMATE}>{ estimate(result) }</dd>
                <dt>{ "pruned (equivalent)" }</dt><dd>{ result.pruned }</dd>
            </dl>
            <OpenButton row={props.row.clone()} on_open={props.on_open.clone()} />
        </div>
    }
}

#[component]
fn OpenButton(props: &RowProps) -> Html {
    match &props.row.result.counterexample {
        Some(found) => {
            let fragment = found.fragment.clone();
            let position = found.violation_step + 1;
            let checks = found.violated.clone();
            let onclick = props
                .on_open
                .reform(move |_: MouseEvent| (fragment.clone(), position, checks.clone()));
            let violated: Vec<_> = found.violated.iter().map(|c| c.name()).collect();
            html! {
                <button class="link" data-testid="btn-open-counterexample" {onclick}
                    title={found.fragment.clone()}>
                    { format!("open the smallest case in the debugger ({})", violated.join(", ")) }
                </button>
            }
        }
        None => html! { <span class="muted">{ "none found" }</span> },
    }
}

/// What the naive estimate is, for its tooltip.
const NAIVE_ESTIMATE: &str = "About how many schedules the search would run without its reduction \
    (which skips orders that only swap independent events); exact only for a complete search.";

/// The naive search's size: never below what was explored (the estimate
/// is rough); it saturates when it overflows.
fn estimate(result: &ExploreResult) -> String {
    match result.naive_estimate.max(result.explored) {
        u64::MAX => "more than 10^19".to_string(),
        count => thousands(count),
    }
}
