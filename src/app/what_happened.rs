//! "What happened": the story of the violation the debugger is at (or of
//! the run's first one), the fix that would close it with its outcome, and
//! the smallest scenario that still shows it. The words come from
//! `crate::explain`; this only draws them.

use std::rc::Rc;

use yew::prelude::*;

use crate::explain::{Explanation, Fix, Story};

#[derive(Properties, PartialEq)]
pub struct WhatHappenedProps {
    /// `None` while it is being worked out.
    pub explanation: Option<Rc<Explanation>>,
    /// The story of the violation the last step caused, if it caused one.
    pub here: Option<Story>,
    /// Steps run so far.
    pub position: u32,
    pub on_jump: Callback<()>,
}

#[component]
pub fn WhatHappened(props: &WhatHappenedProps) -> Html {
    let body = match &props.explanation {
        None => html! { <p class="empty">{ "working out what happened…" }</p> },
        Some(explanation) => match (&props.here, &explanation.story) {
            (Some(story), _) => html! {
                <>
                    <p class="lead" data-testid="explain-here">{ format!("This step: {}", story.kind.name()) }</p>
                    <p class="story" data-testid="explain-story">{ story.text.clone() }</p>
                    <Remedies explanation={explanation.clone()} />
                </>
            },
            (None, Some(story)) => {
                let reached = props.position > story.step;
                html! {
                    <>
                        <p class="lead" data-testid="explain-summary">{ explanation.summary.clone() }</p>
                        if let Some(narration) = &explanation.narration {
                            <p class="narration">{ narration.clone() }</p>
                        }
                        <p class="story" data-testid="explain-story">{ story.text.clone() }</p>
                        if !reached {
                            <button class="link" data-testid="btn-explain-jump"
                                onclick={props.on_jump.reform(|_: MouseEvent| ())}>
                                { format!("go to step {}", story.step + 1) }
                            </button>
                        }
                        <Remedies explanation={explanation.clone()} />
                    </>
                }
            }
            (None, None) => html! {
                <>
                    <p class="lead" data-testid="explain-summary">{ explanation.summary.clone() }</p>
                    // A script's failed request: the step it failed at.
                    if let Some(narration) = &explanation.narration {
                        <p class="narration">{ narration.clone() }</p>
                    }
                    <Remedies explanation={explanation.clone()} />
                </>
            },
        },
    };
    html! {
        <section class="panel what-happened" data-testid="what-happened" aria-labelledby="what-title">
            <h2 id="what-title">{ "What happened" }</h2>
            { body }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct RemediesProps {
    explanation: Rc<Explanation>,
}

/// The fix with its outcome, and the minimal counterexample, as links.
#[component]
fn Remedies(props: &RemediesProps) -> Html {
    let explanation = &props.explanation;
    html! {
        <>
            if let Some(fix) = explanation.fix.as_ref().filter(|fix| is_code(fix)) {
                <CodeFix fix={fix.clone()} />
            } else if let Some(fix) = &explanation.fix {
                <p class="fix" data-testid="explain-fix">
                    <strong>{ "Fix: " }</strong>
                    <a href={format!("#{}", fix.fragment)} data-testid="explain-fix-link">
                        { format!("{}={}", fix.key, fix.value) }
                    </a>
                    { format!(" ({}): {}", fix.meaning, fix.outcome) }
                </p>
                if !explanation.other_fixes.is_empty() {
                    <details class="fix other-fixes" data-testid="explain-other-fixes">
                        <summary>{ match explanation.other_fixes.len() {
                            1 => "1 other fix removes it".to_string(),
                            n => format!("{n} other fixes remove it"),
                        } }</summary>
                        <ul>
                            { for explanation.other_fixes.iter().map(|other| html! {
                                <li>
                                    <a href={format!("#{}", other.fragment)}>{ format!("{}={}", other.key, other.value) }</a>
                                    { format!(" ({}): {}", other.meaning, other.outcome) }
                                </li>
                            }) }
                        </ul>
                    </details>
                }
            }
            if let Some(minimal) = &explanation.minimal {
                <p class="minimal" data-testid="explain-minimal">
                    <strong>{ "Smallest case: " }</strong>
                    <a href={format!("#{}", minimal.fragment)} data-testid="explain-minimal-link">
                        { minimal.text.clone() }
                    </a>
                </p>
            }
        </>
    }
}

/// Whether a fix is code to paste (a script's edited SQL), not a key.
fn is_code(fix: &Fix) -> bool {
    fix.key == "code"
}

#[derive(Properties, PartialEq)]
struct CodeFixProps {
    fix: Fix,
}

/// A script's fix as code: what it changes and its outcome, the edited
/// statements to paste, and a link to the edited script.
#[component]
fn CodeFix(props: &CodeFixProps) -> Html {
    let fix = &props.fix;
    html! {
        <div class="fix" data-testid="explain-fix">
            <p>
                <strong>{ "Fix: " }</strong>
                { format!("{}: {} ", fix.meaning, fix.outcome) }
                <a href={format!("#{}", fix.fragment)} data-testid="explain-fix-link">
                    { "run it" }
                </a>
            </p>
            <pre class="paste" data-testid="explain-fix-code"><code>{ fix.value.clone() }</code></pre>
        </div>
    }
}
