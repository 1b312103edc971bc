//! The event-loop pane: the macrotask that just ran with the microtasks it
//! caused, and the pending macrotasks in the order they will run.

use yew::prelude::*;

use crate::debugger::narrate::describe_task;
use crate::debugger::narrate::{describe_event, format_ms};
use crate::model::{ManualView, Part, StepView, MAX_LISTED};
use crate::sim::KeyNames;

#[derive(Properties, PartialEq)]
pub struct LoopPaneProps {
    /// How the run's keys read.
    pub keys: KeyNames,
    /// Manual mode, when on: the user picks the next event.
    pub manual: Option<Part<ManualView>>,
    /// The run is still being prepared: manual mode waits for it.
    #[prop_or_default]
    pub preparing: bool,
    pub on_manual: Callback<()>,
    pub on_choose: Callback<usize>,
    pub on_undo: Callback<()>,
    /// The step: what ran, its events and the queue.
    pub step: Part<StepView>,
    /// Too large to trace: the run keeps only its counters.
    #[prop_or_default]
    pub metrics_only: bool,
}

#[component]
pub fn LoopPane(props: &LoopPaneProps) -> Html {
    let step = &props.step;
    let more = step.queued.saturating_sub(MAX_LISTED);
    let more_events = step.events_total.saturating_sub(step.events.len());
    let manual_on = props.manual.is_some();
    html! {
        <section class="panel loop-pane" data-testid="loop-pane" aria-labelledby="loop-title">
            <div class="panel-head">
                <h2 id="loop-title">{ "Event loop" }</h2>
                <button data-testid="btn-manual" aria-pressed={manual_on.to_string()}
                    disabled={props.preparing && !manual_on}
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
            <p class="ran">{ match (&step.ran, props.metrics_only) {
                (Some(ran), _) => ran.clone(),
                (None, false) => "nothing yet: step to run the first macrotask".into(),
                (None, true) => "a metrics-only run keeps no steps to show".into(),
            } }</p>
            <h3>{ "Then, as microtasks" }</h3>
            if step.events.is_empty() {
                <p class="empty">{ "—" }</p>
            } else {
                <ol class="micro">
                    { for step.events.iter().map(|event| html! { <li>{ describe_event(event, &props.keys) }</li> }) }
                </ol>
                if more_events > 0 {
                    <p class="more">{ format!("… and {more_events} more") }</p>
                }
            }
            <h3>{ format!("Macrotask queue ({})", step.queued) }</h3>
            <ol class="queue">
                { for step.pending.iter().take(MAX_LISTED).map(|(pending, info, line)| html! {
                    <li>
                        <span class="due">{ format!("{} ms", format_ms(pending.due)) }</span>
                        { describe_task(pending.task, info, &props.keys) }
                        if let Some(line) = line {
                            <span class="at-line">{ format!(" (line {line})") }</span>
                        }
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
    manual: Part<ManualView>,
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
            if let Some(unreachable) = &manual.unreachable {
                <p class="notice" data-testid="manual-unreachable">{ unreachable.clone() }</p>
            }
            if manual.done {
                <p class="empty">{ "The run is over." }</p>
            } else {
                <h3>{ "Enabled events: pick the one that fires next" }</h3>
                <p class="hint">{ "The first is what the event loop would run next; a later pick delays the others (late, never early)." }</p>
                <ol class="choices">
                    { for manual.choices.iter().enumerate().map(|(i, (due, label))| html! {
                        <li>
                            <button data-testid={format!("choice-{i}")}
                                class={classes!((i == 0).then_some("default-choice"))}
                                onclick={props.on_choose.reform(move |_: MouseEvent| i)}>
                                <span class="due">{ format!("{} ms", format_ms(*due)) }</span>{ label.clone() }
                                if i == 0 {
                                    <span class="badge">{ "next in the normal order" }</span>
                                }
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
