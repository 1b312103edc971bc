//! The scenario panel: scenario, strategy and every key of DESIGN.md §6.
//! An edit goes to the state as `(key, text)`; the state checks it as
//! strictly as a fragment and shows the message when it is rejected.

use gloo_timers::callback::Timeout;
use yew::prelude::*;

use crate::config::url::{params, Param};
use crate::Config;

#[derive(Properties, PartialEq)]
pub struct ScenarioPanelProps {
    pub config: Config,
    /// The last rejected edit: key and message.
    pub error: Option<(String, String)>,
    /// A script runs (the scenario list shows "script").
    #[prop_or_default]
    pub script: bool,
    pub on_set: Callback<(String, String)>,
}

#[component]
pub fn ScenarioPanel(props: &ScenarioPanelProps) -> Html {
    let mut all = params(&props.config);
    if let Some(scenario) = all.iter_mut().find(|param| param.key == "scenario") {
        scenario.choices.push("script");
        if props.script {
            scenario.value = "script".to_string();
        }
    }
    let (head, rest): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|param| matches!(param.key, "scenario" | "strategy"));
    html! {
        <section class="panel scenario-panel" aria-labelledby="scenario-title">
            <h2 id="scenario-title">{ "Scenario" }</h2>
            <div class="head-params">
                { for head.into_iter().map(|param| {
                    let (id, key) = (format!("{}-select", param.key), param.key);
                    html! { <ParamField {key} {param} testid={id}
                        error={None::<String>} on_set={props.on_set.clone()} /> }
                }) }
            </div>
            <div class="params">
                { for rest.into_iter().map(|param| {
                    let (testid, key) = (format!("param-{}", param.key), param.key);
                    let error = props.error.as_ref()
                        .filter(|(key, _)| key == param.key)
                        .map(|(_, message)| message.clone());
                    html! { <ParamField {key} {param} {testid} {error}
                        on_set={props.on_set.clone()} /> }
                }) }
            </div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct ParamFieldProps {
    pub param: Param,
    pub testid: String,
    pub error: Option<String>,
    pub on_set: Callback<(String, String)>,
}

/// How long typing must pause before a text field's edit applies.
const EDIT_PAUSE_MS: u32 = 700;

/// One key: a select for a closed set, else a text field whose edit applies
/// on Enter, on leaving the field, or after a pause in typing (never per
/// keystroke: `5ms` would pass through `5m`). The typed text stays in the
/// field until the applied value changes, so a rejected edit stays beside
/// its message.
#[component]
pub fn ParamField(props: &ParamFieldProps) -> Html {
    let draft = use_state(|| None::<String>);
    let pending = use_mut_ref(|| None::<Timeout>);
    {
        let draft = draft.clone();
        use_effect_with(props.param.value.clone(), move |_| draft.set(None));
    }
    let key = props.param.key;
    let id = format!("param-input-{key}");
    let input = if props.param.choices.is_empty() {
        let oninput = {
            let (draft, pending, on_set) = (draft.clone(), pending.clone(), props.on_set.clone());
            Callback::from(move |event: InputEvent| {
                let value = event
                    .target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value();
                draft.set(Some(value.clone()));
                let on_set = on_set.clone();
                let apply =
                    Timeout::new(EDIT_PAUSE_MS, move || on_set.emit((key.to_string(), value)));
                *pending.borrow_mut() = Some(apply);
            })
        };
        // `change` fires on Enter and when the field loses focus.
        let onchange = {
            let (pending, on_set) = (pending.clone(), props.on_set.clone());
            Callback::from(move |event: Event| {
                drop(pending.borrow_mut().take());
                let value = event
                    .target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value();
                on_set.emit((key.to_string(), value));
            })
        };
        let value = (*draft)
            .clone()
            .unwrap_or_else(|| props.param.value.clone());
        let placeholder = (key == "db_write_latency").then_some("same as db_latency");
        html! {
            <input {id} type="text" spellcheck="false" autocomplete="off" {value}
                {placeholder} data-testid={props.testid.clone()}
                aria-invalid={props.error.is_some().then_some("true")}
                {oninput} {onchange} />
        }
    } else {
        let onchange = {
            let on_set = props.on_set.clone();
            Callback::from(move |event: Event| {
                let value = event
                    .target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value();
                on_set.emit((key.to_string(), value));
            })
        };
        html! {
            <select {id} data-testid={props.testid.clone()} {onchange}>
                { for props.param.choices.iter().map(|&choice| html! {
                    <option value={choice} selected={choice == props.param.value}>{ choice }</option>
                }) }
            </select>
        }
    };
    html! {
        <div class={classes!("param", props.error.is_some().then_some("invalid"))}>
            <label for={format!("param-input-{key}")}>{ key }</label>
            { input }
            if let Some(error) = &props.error {
                <p class="param-error" role="alert">{ error }</p>
            }
        </div>
    }
}
