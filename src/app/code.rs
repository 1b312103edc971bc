//! The code pane: the scenario's async function as JavaScript, with the
//! strategy's lock calls in place, and each request's cursor on the line
//! it is awaiting. For a script, the pane is its editor, with the same
//! cursors in it.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::script_panel::ScriptEditor;
use crate::model::{Part, ScriptProblem, StepView};
use crate::scenario::listing::Listing;

/// A script's code, as the pane edits it.
#[derive(Clone, PartialEq)]
pub struct ScriptCode {
    pub code: AttrValue,
    pub problem: Option<ScriptProblem>,
    pub on_code: Callback<String>,
}

#[derive(Properties, PartialEq)]
pub struct CodePaneProps {
    pub listing: Rc<Listing>,
    /// The step: its cursors, and the lines it ran through.
    pub step: Part<StepView>,
    /// Requests of the story "What happened" tells.
    pub highlight: Rc<Vec<u32>>,
    /// A script: the pane is its editor.
    #[prop_or_default]
    pub script: Option<ScriptCode>,
}

/// One line's marks: whether the step ran it, and who awaits it (each
/// with whether "What happened" tells of it), of how many.
struct LineMarks<'a> {
    line: usize,
    touched: bool,
    awaiting: Option<&'a crate::debugger::LineCursor>,
}

impl LineMarks<'_> {
    /// The marks of `line` (1-based) at `step`.
    fn of(step: &StepView, line: usize) -> LineMarks<'_> {
        LineMarks {
            line,
            touched: step.touched.contains(&line),
            awaiting: step.cursors.iter().find(|c| c.line == line),
        }
    }
}

/// The marks of every line that has one, in line order.
fn marks<'a>(step: &'a StepView, lines: usize) -> impl Iterator<Item = LineMarks<'a>> + 'a {
    (1..=lines)
        .map(|line| LineMarks::of(step, line))
        .filter(|mark| mark.awaiting.is_some() || mark.touched)
}

/// The marks as `<js-editor marks>` reads them (web/editor/editor.js):
/// `[{"line":14,"touched":true,"count":2,"who":[[0,true],[1,false]]}]`.
fn marks_json(step: &StepView, lines: usize, highlight: &[u32]) -> String {
    let entries: Vec<String> = marks(step, lines)
        .map(|mark| {
            let (count, who) = match mark.awaiting {
                Some(cursor) => (
                    cursor.count,
                    cursor
                        .first
                        .iter()
                        .map(|r| format!("[{r},{}]", highlight.contains(r)))
                        .collect::<Vec<_>>()
                        .join(","),
                ),
                None => (0, String::new()),
            };
            format!(
                "{{\"line\":{},\"touched\":{},\"count\":{count},\"who\":[{who}]}}",
                mark.line, mark.touched
            )
        })
        .collect();
    format!("[{}]", entries.join(","))
}

#[component]
pub fn CodePane(props: &CodePaneProps) -> Html {
    if let Some(script) = &props.script {
        let lines = script.code.lines().count().max(1);
        let marks = marks_json(&props.step, lines, &props.highlight);
        return html! {
            <section class="panel code-pane script-code" data-testid="code-pane" aria-labelledby="code-title">
                <h2 id="code-title">{ "Your code" }</h2>
                <ScriptEditor code={script.code.clone()} problem={script.problem.clone()}
                    marks={AttrValue::from(marks)} on_code={script.on_code.clone()} />
            </section>
        };
    }
    html! {
        <section class="panel code-pane" data-testid="code-pane" aria-labelledby="code-title">
            <h2 id="code-title">{ "Code" }</h2>
            <ol class="code">
                { for props.listing.lines().enumerate().map(|(i, text)| {
                    let LineMarks { touched, awaiting: cursor, .. } = LineMarks::of(&props.step, i + 1);
                    html! {
                        <li class={classes!(cursor.map(|_| "awaited"), touched.then_some("touched"))}>
                            <code>{ text }</code>
                            if let Some(cursor) = cursor {
                                <span class="cursors" title={format!("{} request(s) await this line", cursor.count)}>
                                    { for cursor.first.iter().map(|r| html! {
                                        <span class={classes!("who", props.highlight.contains(r).then_some("involved"))}>{ format!("#{r}") }</span>
                                    }) }
                                    if cursor.count as usize > cursor.first.len() {
                                        <span class="more">{ format!("+{}", cursor.count as usize - cursor.first.len()) }</span>
                                    }
                                </span>
                            }
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}
