//! The code pane: the scenario's async function as JavaScript, with the
//! strategy's lock calls in place, and each request's cursor on the line
//! it is awaiting.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::{Part, StepView};
use crate::scenario::listing::Listing;

#[derive(Properties, PartialEq)]
pub struct CodePaneProps {
    pub listing: Rc<Listing>,
    /// The step: its cursors, and the lines it ran through.
    pub step: Part<StepView>,
    /// Requests of the story "What happened" tells.
    pub highlight: Rc<Vec<u32>>,
}

#[component]
pub fn CodePane(props: &CodePaneProps) -> Html {
    html! {
        <section class="panel code-pane" data-testid="code-pane" aria-labelledby="code-title">
            <h2 id="code-title">{ "Code" }</h2>
            <ol class="code">
                { for props.listing.lines().enumerate().map(|(i, text)| {
                    let line = i + 1;
                    let cursor = props.step.cursors.iter().find(|c| c.line == line);
                    let touched = props.step.touched.contains(&line);
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
