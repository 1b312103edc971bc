//! The transport bar: step, back, play/pause with a speed, run to the end,
//! reset, jump to the first violation; the clock and the step index.

use yew::prelude::*;

use crate::debugger::narrate::format_ms;
use crate::explore::search::thousands;
use crate::model::SPEEDS;

#[derive(Properties, PartialEq)]
pub struct TransportProps {
    pub position: u32,
    pub steps: u32,
    pub now: u64,
    pub playing: bool,
    pub speed: usize,
    pub ready: bool,
    pub at_end: bool,
    pub has_violation: bool,
    /// Too large to trace: the readout counts macrotasks, there is no step.
    pub metrics_only: bool,
    pub events: u64,
    pub on_step: Callback<()>,
    pub on_back: Callback<()>,
    pub on_play: Callback<()>,
    pub on_run: Callback<()>,
    pub on_reset: Callback<()>,
    pub on_violation: Callback<()>,
    pub on_speed: Callback<usize>,
}

#[component]
pub fn Transport(props: &TransportProps) -> Html {
    let click = |callback: &Callback<()>| callback.reform(|_: MouseEvent| ());
    let on_speed = props.on_speed.reform(|event: Event| {
        let value = event
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        value.parse().unwrap_or(0)
    });
    let not_ready = !props.ready;
    html! {
        <div class="transport" id="run-controls" role="toolbar" aria-label="Run controls">
            <button data-testid="btn-reset" title="Reset to step 0"
                disabled={not_ready} onclick={click(&props.on_reset)}>{ "reset" }</button>
            <button data-testid="btn-back" title="Step back (←)"
                disabled={not_ready || props.position == 0} onclick={click(&props.on_back)}>{ "◀ back" }</button>
            <button data-testid="btn-play" class="primary" title="Play or pause (space)"
                disabled={not_ready} aria-pressed={props.playing.to_string()}
                onclick={click(&props.on_play)}>
                { if props.playing { "pause" } else { "play" } }
            </button>
            <button data-testid="btn-step" title="One macrotask and its microtasks (→)"
                disabled={not_ready || props.at_end} onclick={click(&props.on_step)}>{ "step ▶" }</button>
            <button data-testid="btn-run" title="Run to the end"
                disabled={not_ready || props.at_end} onclick={click(&props.on_run)}>{ "run to end ▶▶" }</button>
            <button data-testid="btn-first-violation" class="danger" title="Jump to the first violation"
                disabled={not_ready || !props.has_violation}
                onclick={click(&props.on_violation)}>{ "first violation" }</button>
            <label class="speed">
                <select aria-label="Play speed" onchange={on_speed}>
                    { for SPEEDS.iter().enumerate().map(|(i, steps)| html! {
                        <option value={i.to_string()} selected={i == props.speed}>
                            { format!("{steps} steps/s") }
                        </option>
                    }) }
                </select>
            </label>
            <span class="readout">
                { "t = " }<strong data-testid="clock">{ format_ms(props.now) }</strong>{ " ms" }
            </span>
            if props.metrics_only {
                <span class="readout metrics-only" data-testid="metrics-only"
                    title="Runs above 20,000 requests keep only their counters">
                    { "metrics-only run: " }<strong>{ thousands(props.events) }</strong>{ " macrotasks, no stepping" }
                </span>
            } else {
                <span class="readout">
                    { "step " }<strong data-testid="step-index">{ props.position }</strong>
                    { format!(" / {}", props.steps) }
                </span>
            }
        </div>
    }
}
