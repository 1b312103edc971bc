//! The event-loop pane: the macrotask that just ran with the microtasks it
//! caused, and the pending macrotasks in the order they will run.

use yew::prelude::*;

use super::state::ManualView;
use super::timeline::outcome_name;
use super::view::format_ms;
use crate::config::ScenarioKind;
use crate::debugger::timeline::op_label;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::trace::Outcome;
use crate::sim::{TaskInfo, TraceEvent, What};

/// Pending macrotasks listed before the rest are counted.
const MAX_LISTED: usize = 12;

#[derive(Properties, PartialEq)]
pub struct LoopPaneProps {
    pub scenario: ScenarioKind,
    /// Manual mode, when on: the user picks the next event.
    pub manual: Option<ManualView>,
    pub on_manual: Callback<()>,
    pub on_choose: Callback<usize>,
    pub on_undo: Callback<()>,
    /// The last macrotask, described, if a step has run.
    pub ran: Option<String>,
    pub events: Vec<TraceEvent>,
    pub pending: Vec<(Pending, TaskInfo)>,
}

#[component]
pub fn LoopPane(props: &LoopPaneProps) -> Html {
    let more = props.pending.len().saturating_sub(MAX_LISTED);
    let manual_on = props.manual.is_some();
    html! {
        <section class="panel loop-pane" data-testid="loop-pane" aria-labelledby="loop-title">
            <div class="panel-head">
                <h2 id="loop-title">{ "Event loop" }</h2>
                <button data-testid="btn-manual" aria-pressed={manual_on.to_string()}
                    title="Pick which enabled event fires next"
                    onclick={props.on_manual.reform(|_: MouseEvent| ())}>
                    { "you are the scheduler" }
                </button>
            </div>
            if let Some(manual) = &props.manual {
                <ManualPane manual={manual.clone()} on_choose={props.on_choose.clone()}
                    on_undo={props.on_undo.clone()} />
            }
            <h3>{ "Ran" }</h3>
            <p class="ran">{ props.ran.clone().unwrap_or_else(|| "nothing yet: step to run the first macrotask".into()) }</p>
            <h3>{ "Then, as microtasks" }</h3>
            if props.events.is_empty() {
                <p class="empty">{ "—" }</p>
            } else {
                <ol class="micro">
                    { for props.events.iter().map(|event| html! { <li>{ describe_event(event, props.scenario) }</li> }) }
                </ol>
            }
            <h3>{ format!("Macrotask queue ({})", props.pending.len()) }</h3>
            <ol class="queue">
                { for props.pending.iter().take(MAX_LISTED).map(|(pending, info)| html! {
                    <li>
                        <span class="due">{ format!("{} ms", format_ms(pending.due)) }</span>
                        { describe_task(pending.task, info, props.scenario) }
                    </li>
                }) }
            </ol>
            if more > 0 {
                <p class="more">{ format!("… and {more} more") }</p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct ManualPaneProps {
    manual: ManualView,
    on_choose: Callback<usize>,
    on_undo: Callback<()>,
}

/// Manual mode: the goal, the enabled events as buttons, undo, and the win.
#[component]
fn ManualPane(props: &ManualPaneProps) -> Html {
    let manual = &props.manual;
    html! {
        <div class="manual" data-testid="manual-pane">
            <p class="goal"><strong>{ "Goal: " }</strong><span data-testid="manual-goal">{ manual.goal.clone() }</span></p>
            if manual.won {
                <p class="win" role="status" data-testid="manual-win">
                    { "You made it happen. The address bar now holds this exact schedule: share it." }
                </p>
            }
            if manual.done {
                <p class="empty">{ "The run is over." }</p>
            } else {
                <h3>{ "Enabled events: pick the one that fires next" }</h3>
                <ol class="choices">
                    { for manual.choices.iter().enumerate().map(|(i, (due, label))| html! {
                        <li>
                            <button data-testid={format!("choice-{i}")}
                                onclick={props.on_choose.reform(move |_: MouseEvent| i)}>
                                <span class="due">{ format!("{} ms", format_ms(*due)) }</span>{ label.clone() }
                            </button>
                        </li>
                    }) }
                </ol>
            }
            <button data-testid="btn-undo" disabled={!manual.can_undo}
                onclick={props.on_undo.reform(|_: MouseEvent| ())}>{ "undo last choice" }</button>
        </div>
    }
}

pub fn describe_task(task: Macrotask, info: &TaskInfo, scenario: ScenarioKind) -> String {
    let key = info.key.describe(scenario);
    match (task, info.op) {
        (Macrotask::Arrival(request), _) => format!("#{request} arrives"),
        (Macrotask::Timer(_), _) => format!("#{}'s timer fires", info.request),
        (Macrotask::Complete(_), Some(op)) => {
            format!("#{} {} {key} completes", info.request, op_label(op))
        }
        (Macrotask::Complete(_), None) => format!("#{} completes", info.request),
    }
}

fn describe_event(event: &TraceEvent, scenario: ScenarioKind) -> String {
    let who = format!("#{}", event.request);
    let key = event.key.describe(scenario);
    let result = match event.outcome {
        Outcome::None => String::new(),
        outcome => format!(" → {}", outcome_name(outcome)),
    };
    match event.what {
        What::Arrive => format!("{who} arrives at server {}", event.detail),
        What::Issue(op) => format!(
            "{who} sends {} {key} ({} ms)",
            op_label(op),
            format_ms(event.detail)
        ),
        What::Complete(op) => format!("{who}: {} {key} lands{result}", op_label(op)),
        What::PoolWait => format!("{who} queues for a DB connection"),
        What::PoolStart => format!("{who} gets a DB connection"),
        What::MutexWait => format!("{who} waits for the mutex on {key}"),
        What::MutexGrant => format!("{who} is granted the mutex on {key}"),
        What::FlightJoin => format!("{who} joins the single-flight for {key}"),
        What::FlightShare => format!("{who} gets the single-flight result"),
        What::Enter => format!("{who} enters the critical section of {key}"),
        What::Exit => format!("{who} leaves the critical section of {key}"),
        What::GiveUp => format!("{who} gives up waiting for {key}"),
        What::Return => format!("{who} returns{result} after {} ms", format_ms(event.detail)),
        What::Listen => format!("{who} listens for the release of {key}"),
        What::Wake => format!("{who} wakes up to retry {key}"),
        What::TakeTicket => format!("{who} takes ticket {} for {key}", event.detail),
        What::LeaseExpired => format!("the lease of ticket {} on {key} expires", event.detail),
        What::Crash => format!("{who} crashes holding {key}"),
        What::ServeStale => format!("{who} serves the stale {key} at once"),
        What::EarlyRefresh => format!("{who} refreshes {key} early (XFetch)"),
        What::RowLockGrant => format!("{who} gets the row lock on {key} (FOR UPDATE)"),
    }
}
