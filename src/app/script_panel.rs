//! The script panel (scripts only): the shipped examples, the script's
//! error, and "Schema (SQL)" (a disclosure, open when the script has a
//! schema) with the database's schema in a text field whose edits rerun
//! the script. And the code editor (`<js-editor>`, web/editor/editor.js)
//! that the code pane holds for a script ([`ScriptEditor`]): an edit
//! reaches the state after a pause in typing; a script that does not load
//! keeps the last good run on screen, with the error underlined at its
//! line and column.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::model::ScriptProblem;
use crate::script_links::EXAMPLE_FILES;

#[derive(Properties, PartialEq)]
pub struct ScriptPanelProps {
    pub code: AttrValue,
    /// The fragment's `example=NAME` or `code=…` piece.
    pub source_piece: AttrValue,
    /// The database's schema as SQL, if the script has one.
    pub schema: Option<AttrValue>,
    pub problem: Option<ScriptProblem>,
    /// Whether a run is on screen (the last one that loaded).
    pub shows_run: bool,
    /// The schema field's SQL, after a pause in typing (or on leaving it).
    pub on_schema: Callback<String>,
    pub on_example: Callback<String>,
}

/// How long the schema field waits after a keystroke, as the code editor.
const SCHEMA_PAUSE_MS: u32 = 400;

#[component]
pub fn ScriptPanel(props: &ScriptPanelProps) -> Html {
    // `example=NAME`, perhaps with an edited schema after it.
    let example = props
        .source_piece
        .strip_prefix("example=")
        .map_or("", |rest| rest.split('&').next().unwrap_or(rest));
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
    let schema_problem = props
        .problem
        .as_ref()
        .is_some_and(|problem| problem.message.starts_with("`schema`"));
    // The error under what it is about: the code editor, or the schema.
    let problem = props.problem.as_ref().map(|problem| {
        html! {
            <p class="script-error" role="alert" data-testid="script-error">
                { &problem.message }
                if props.shows_run {
                    <span class="hint">{ " (the run shown is the last one that loaded)" }</span>
                }
            </p>
        }
    });
    html! {
        <section class="panel script-panel" aria-labelledby="script-title" data-testid="script-panel">
            <h2 id="script-title">{ "Script" }</h2>
            <label class="param">
                <span>{ "example" }</span>
                <select data-testid="script-example" onchange={on_pick}>
                    <option value="" selected={example.is_empty()}>{ "(your own code)" }</option>
                    { for EXAMPLE_FILES.iter().map(|&(name, file)| html! {
                        <option value={name} selected={name == example}>{ file }</option>
                    }) }
                </select>
            </label>
            <p class="hint">{ "async function handle(req) runs once per request: edit it in the code pane, and it runs again after a pause in typing." }</p>
            if !schema_problem { { problem.clone() } }
            <SchemaField schema={props.schema.clone()} failed={schema_problem}
                on_schema={props.on_schema.clone()} />
            if schema_problem { { problem } }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct SchemaFieldProps {
    schema: Option<AttrValue>,
    /// The last schema edit did not load.
    failed: bool,
    on_schema: Callback<String>,
}

/// "Schema (SQL)": a disclosure with the schema in a text field, open when
/// there is a schema (or its edit failed); an edit is sent after a pause in
/// typing, or at once when the field loses focus.
#[component]
fn SchemaField(props: &SchemaFieldProps) -> Html {
    let pending: Rc<RefCell<Option<Timeout>>> = use_mut_ref(|| None);
    // What the person typed since the schema last changed. Yew writes a
    // textarea's `value` into the field on every render where the two
    // differ, and the page renders often (a run's chunks, an edit that
    // failed): the field shows this text, not the last good schema, so
    // typing and a schema that does not load stay as typed.
    let draft: Rc<RefCell<Option<String>>> = use_mut_ref(|| None);
    // A new schema (an edit that loaded, another example, a link), or a
    // failed edit left behind by one of the code that loaded: the field
    // shows the schema that runs again.
    let seen = use_mut_ref(|| (props.schema.clone(), props.failed));
    let recovered = seen.borrow().1 && !props.failed;
    if seen.borrow().0 != props.schema || recovered {
        *draft.borrow_mut() = None;
    }
    *seen.borrow_mut() = (props.schema.clone(), props.failed);
    let oninput = {
        let (pending, on_schema) = (pending.clone(), props.on_schema.clone());
        let draft = draft.clone();
        Callback::from(move |event: InputEvent| {
            let sql = event
                .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value();
            *draft.borrow_mut() = Some(sql.clone());
            let on_schema = on_schema.clone();
            let timeout = Timeout::new(SCHEMA_PAUSE_MS, move || on_schema.emit(sql));
            // Replacing the timeout cancels the one before.
            *pending.borrow_mut() = Some(timeout);
        })
    };
    let onchange = {
        let on_schema = props.on_schema.clone();
        Callback::from(move |event: Event| {
            if let Some(timeout) = pending.borrow_mut().take() {
                timeout.cancel();
            }
            on_schema.emit(
                event
                    .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                    .value(),
            );
        })
    };
    let open = props.schema.is_some() || props.failed;
    let value = match &*draft.borrow() {
        Some(typed) => AttrValue::from(typed.clone()),
        None => props.schema.clone().unwrap_or_default(),
    };
    html! {
        <details class="script-schema" data-testid="script-schema" {open}>
            <summary>{ "Schema (SQL)" }</summary>
            <p class="hint">{ "The tables pg's queries run on: CREATE TABLE with PRIMARY KEY, UNIQUE, CHECK and REFERENCES, INSERT for seed rows, and \"-- expect unique: TABLE (COLUMNS)\" comments for the duplicates to count. Edits rerun the script." }</p>
            <textarea class="schema-editor" data-testid="schema-editor" aria-label="Schema (SQL)"
                spellcheck="false" rows="10" {value} {oninput} {onchange} />
        </details>
    }
}

#[derive(Properties, PartialEq)]
pub struct ScriptEditorProps {
    pub code: AttrValue,
    pub problem: Option<ScriptProblem>,
    /// The run's marks on the code (`<js-editor marks>`): each request's
    /// cursor on the line it awaits, the lines the last step ran.
    pub marks: AttrValue,
    pub on_code: Callback<String>,
}

/// The script's code, editable, with the run's cursors in it.
#[component]
pub fn ScriptEditor(props: &ScriptEditorProps) -> Html {
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
    // The editor shows the message at its place, without the place: only
    // an error of the code itself (a schema's error is shown under the
    // schema; a module that did not load is no place in the code).
    let code_problem = props
        .problem
        .as_ref()
        .filter(|problem| problem.message.starts_with("`code`"));
    let error = code_problem.map(|problem| match problem.at {
        Some((line, column)) => {
            let short = problem.message.splitn(3, ": ").nth(2);
            format!("{line}:{column}:{}", short.unwrap_or(&problem.message))
        }
        None => format!("1:1:{}", problem.message),
    });
    html! {
        // The code shows at once, before the editor's module has defined
        // <js-editor>: its light DOM, which the element's own shadow root
        // then hides.
        <js-editor ref={editor} class="script-editor" data-testid="script-editor"
            value={props.code.clone()} error={error} marks={props.marks.clone()}>
            <pre class="editor-fallback">{ props.code.clone() }</pre>
        </js-editor>
    }
}
