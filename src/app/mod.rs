//! The browser app. For now a page that runs the scenario in the URL
//! fragment and lists its metrics; the step debugger has its own issue.
//!
//! `start` mounts [`App`] into `<main id="app">`. The app reads
//! `location.hash` when it mounts and again on every `hashchange`, so the
//! example links (and the back button) re-run the simulation.

mod run;
mod view;

pub use run::{format_ms, Run};
pub use view::{ErrorBanner, ExampleLinks, MetricsTable, EXAMPLES};

use gloo_events::EventListener;
use yew::prelude::*;

/// The id of the element the app renders into (see `index.html`).
pub const ROOT_ID: &str = "app";

/// Renders [`App`] into `<main id="app">`, creating it if the page lacks it.
pub fn start() {
    let document = document();
    let root = document.get_element_by_id(ROOT_ID).unwrap_or_else(|| {
        let main = document
            .create_element("main")
            .expect("a document can create elements");
        main.set_id(ROOT_ID);
        document
            .body()
            .expect("the page has a body")
            .append_child(&main)
            .expect("the body takes a child");
        main
    });
    yew::Renderer::<App>::with_root(root).render();
}

/// The page's current fragment, with its `#`; empty when there is none.
pub fn current_hash() -> String {
    web_sys::window()
        .and_then(|window| window.location().hash().ok())
        .unwrap_or_default()
}

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|window| window.document())
        .expect("the app runs in a page")
}

/// The whole page: the scenario from the URL, its run, and example links.
#[component]
pub fn App() -> Html {
    let run = use_reducer(|| Run::of(&current_hash()));

    {
        // Re-run whenever the fragment changes; the listener is dropped
        // (and so removed) when the app unmounts.
        let run = run.dispatcher();
        use_effect_with((), move |_| {
            let window = web_sys::window().expect("the app runs in a window");
            let listener = EventListener::new(&window, "hashchange", move |_| {
                run.dispatch(current_hash());
            });
            move || drop(listener)
        });
    }

    html! {
        <div class="page">
            <header class="masthead">
                <h1>{ "Interleave" }</h1>
                <p class="tagline">
                    { "Why single-threaded async code still races: a deterministic event loop, \
                       a cache, a database and a few locking strategies." }
                </p>
            </header>
            <ErrorBanner errors={run.errors.clone()} />
            if let Some(notice) = &run.cut_short {
                <p class="notice" role="status" data-testid="run-notice">{ notice }</p>
            }
            <section class="scenario" aria-labelledby="scenario-title">
                <h2 id="scenario-title">{ "Scenario" }</h2>
                <dl class="facts">
                    <dt>{ "scenario" }</dt>
                    <dd data-testid="scenario">{ run.config.scenario.name() }</dd>
                    <dt>{ "strategy" }</dt>
                    <dd data-testid="strategy">{ run.config.strategy.name() }</dd>
                    <dt>{ "fragment" }</dt>
                    <dd><code data-testid="fragment">{ format!("#{}", run.fragment) }</code></dd>
                </dl>
            </section>
            <ExampleLinks current={run.fragment.clone()} />
            <MetricsTable metrics={run.metrics.clone()} />
            <footer class="footnote">
                { "The step debugger is coming. Until then: edit the URL fragment, or run the same \
                   fragment natively with " }
                <code>{ "interleave run '<fragment>'" }</code>
                { "." }
            </footer>
        </div>
    }
}
