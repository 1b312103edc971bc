//! The script panel (the script edition only): the shipped examples, and
//! the code editor (`<js-editor>`, web/editor/editor.js) whose text runs.
//! An edit reaches the state after a pause in typing; a script that does
//! not load keeps the last good run on screen, with the error underlined
//! at its line and column.

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::app::state::ScriptProblem;
use crate::script::source::EXAMPLES;

#[derive(Properties, PartialEq)]
pub struct ScriptPanelProps {
    pub code: AttrValue,
    /// The fragment's `example=NAME` or `code=…` piece.
    pub source_piece: AttrValue,
    pub problem: Option<ScriptProblem>,
    pub on_code: Callback<String>,
    pub on_example: Callback<String>,
}

#[component]
pub fn ScriptPanel(props: &ScriptPanelProps) -> Html {
    let editor = use_node_ref();
    {
        let (editor, on_code) = (editor.clone(), props.on_code.clone());
        use_effect_with((), move |_| {
            let listener = editor.get().map(|element| {
                EventListener::new(&element, "code-change", move |event| {
                    let code = event
                        .dyn_ref::<web_sys::CustomEvent>()
                        .map(|event| event.detail())
                        .and_then(|detail| {
                            js_sys::Reflect::get(&detail, &"code".into())
                                .ok()?
                                .as_string()
                        });
                    if let Some(code) = code {
                        on_code.emit(code);
                    }
                })
            });
            move || drop(listener)
        });
    }
    let example = props.source_piece.strip_prefix("example=").unwrap_or("");
    let on_pick = {
        let on_example = props.on_example.clone();
        Callback::from(move |event: Event| {
            let name = event
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if !name.is_empty() {
                on_example.emit(name);
            }
        })
    };
    // The editor shows the message at its place, without the place.
    let error = props.problem.as_ref().map(|problem| match problem.at {
        Some((line, column)) => {
            let short = problem.message.splitn(3, ": ").nth(2);
            format!("{line}:{column}:{}", short.unwrap_or(&problem.message))
        }
        None => format!("1:1:{}", problem.message),
    });
    html! {
        <section class="panel script-panel" aria-labelledby="script-title" data-testid="script-panel">
            <h2 id="script-title">{ "Your code" }</h2>
            <label class="param">
                <span>{ "example" }</span>
                <select data-testid="script-example" onchange={on_pick}>
                    <option value="" selected={example.is_empty()}>{ "(your own code)" }</option>
                    { for EXAMPLES.iter().map(|&(name, _)| html! {
                        <option value={name} selected={name == example}>{ format!("{name}.js") }</option>
                    }) }
                </select>
            </label>
            <p class="hint">{ "async function handle(req) runs once per request; edits run after a pause in typing." }</p>
            <js-editor ref={editor} class="script-editor" data-testid="script-editor"
                value={props.code.clone()} error={error} />
            if let Some(problem) = &props.problem {
                <p class="script-error" role="alert" data-testid="script-error">
                    { &problem.message }
                    if cfg!(scripts) { <span class="hint">{ " (the run shown is the last one that loaded)" }</span> }
                </p>
            }
        </section>
    }
}
