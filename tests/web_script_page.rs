// The script engine only: wasm with `script-wasm` (the page's own build
// has no script engine; its script worker has).
#![cfg(all(feature = "script-wasm", target_arch = "wasm32"))]
//! The page's state on script scenarios: a link's code is restored, an
//! edit runs and updates the link, and a script that does not load keeps
//! the last good run, with the error at its line and column.
//!
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown --no-default-features --features
//! script-wasm,sql,typescript --test web_script_page` (with the SQL
//! parser and TypeScript's stripper linked: no page loads their modules
//! here).

use std::rc::Rc;

use interleave::app::Busy;
use interleave::app::{Action, Debugger, MetricsTable, MetricsTableProps};
use interleave::debugger::Program;
use interleave::model::Part;
use interleave::run::Headline;
use interleave::script::source::encode;
use interleave::Metrics;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::Element;

mod page_support;
use page_support::settle;

wasm_bindgen_test_configure!(run_in_browser);

fn script_of(state: &Debugger) -> String {
    match &state.program {
        Program::Script(script) => script.code.clone(),
        Program::Story => panic!("a story runs, not a script"),
    }
}

const EDITED: &str = "async function handle(req) {\n  await cache.set(\"k\", 1);\n}\n";

#[wasm_bindgen_test]
fn a_link_restores_its_example_and_runs_it() {
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=script&example=ticket&users=2",
    )));
    assert!(script_of(&state).contains("async function handle"));
    assert_eq!(
        state.fragment,
        "v=1&scenario=script&example=ticket&strategy=none&users=2"
    );
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    assert!(state.script_problem.is_none());
    assert!(state.session().is_some());
    assert_eq!(state.position(), 0);
    assert_eq!(state.metrics().hung, 0, "at step 0 no request has hung yet");
}

/// Opening a script link only reads it: the engine loads the code in the
/// next task (`Busy::Loading`), so the page draws first; a script that
/// does not load says so then, with no compare table to fill.
#[wasm_bindgen_test]
fn a_script_link_loads_its_code_after_the_page_draws() {
    let opened = Debugger::load("#v=1&scenario=script&example=ticket&users=2");
    assert_eq!(opened.busy, Busy::Loading);
    assert!(opened.session().is_none() && opened.has_work());
    let state = settle(Rc::new(opened));
    assert_eq!(state.busy, Busy::Idle);
    assert!(state.session().is_some());
    let broken = format!(
        "#v=1&scenario=script&code={}",
        encode("async function handle(req) {\n  const x = ;\n}\n")
    );
    let opened = Debugger::load(&broken);
    assert!(
        opened.script_problem.is_none(),
        "not read before the next task"
    );
    let state = settle(Rc::new(opened));
    let problem = state.script_problem.clone().expect("the error is shown");
    assert_eq!(problem.at.map(|(line, _)| line), Some(2), "{problem:?}");
    assert!(state.session().is_none() && !state.has_work());
}

/// A browser compiles a wasm function on its first call: the engine's
/// first load (its realm, parser, compiler and VM) would be one long task.
/// After the page's first draw, it warms up in tasks of its own, even with
/// a minute to spare in each; then it loads the script in the next, and
/// records in the one after.
#[wasm_bindgen_test]
fn a_script_link_warms_the_engine_up_in_tasks_of_its_own() {
    let mut state = Rc::new(Debugger::load(
        "#v=1&scenario=script&example=ticket&users=2",
    ));
    let work = |state: Rc<Debugger>| {
        state.act(Action::Work {
            deadline: js_sys::Date::now() + 60_000.0,
        })
    };
    while state.drawn < interleave::model::DRAWN {
        state = work(state);
    }
    for stage in 1..=interleave::script::run::WARM_UP_STAGES {
        state = work(state);
        assert_eq!((state.busy, state.warmed), (Busy::Loading, stage));
    }
    state = work(state);
    assert_eq!(state.busy, Busy::Recording, "loaded, not recorded yet");
    assert!(state.session().is_none());
    state = work(state);
    assert!(state.session().is_some(), "recorded and shown");
}

#[wasm_bindgen_test]
fn a_code_link_restores_the_code() {
    let hash = format!("#v=1&scenario=script&code={}", encode(EDITED));
    let state = settle(Rc::new(Debugger::load(&hash)));
    assert_eq!(script_of(&state), EDITED);
    assert!(state.fragment.contains(&format!("code={}", encode(EDITED))));
}

#[wasm_bindgen_test]
fn an_edit_runs_and_updates_the_link() {
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=script&example=ticket",
    )));
    let state = settle(state.act(Action::SetCode(EDITED.to_string())));
    assert_eq!(script_of(&state), EDITED);
    assert_eq!(
        state.fragment,
        format!("v=1&scenario=script&code={}&strategy=none", encode(EDITED))
    );
    let state = settle(state.act(Action::RunToEnd));
    assert_eq!(state.metrics().db_writes, 0, "cache.set is no DB write");
    assert!(state.at_end());
}

#[wasm_bindgen_test]
fn a_syntax_error_keeps_the_last_good_run_and_names_its_line() {
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=script&example=ticket",
    )));
    let fragment = state.fragment.clone();
    let state = state.act(Action::SetCode(
        "async function handle(req) {\n  const x = ;\n}\n".to_string(),
    ));
    let problem = state.script_problem.clone().expect("the error is shown");
    assert_eq!(problem.at.map(|(line, _)| line), Some(2), "{problem:?}");
    assert_eq!(
        state.fragment, fragment,
        "the link keeps the last good code"
    );
    assert!(state.session().is_some(), "the last good run stays");
    // Typing it right again clears the error and runs the new code.
    let state = settle(state.act(Action::SetCode(EDITED.to_string())));
    assert!(state.script_problem.is_none());
    assert_eq!(script_of(&state), EDITED);
}

fn schema_of(state: &Debugger) -> Option<String> {
    match &state.program {
        Program::Script(script) => script.schema.clone(),
        Program::Story => panic!("a story runs, not a script"),
    }
}

/// An example brings its schema; an edit of the schema runs the script on
/// it and puts it in the link; a schema that does not load keeps the last
/// good run, with an error that names `schema`.
#[wasm_bindgen_test]
fn a_schema_edit_runs_and_updates_the_link() {
    use interleave::script::source::shipped;
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=script&example=ticket_pg&users=1&clicks=2",
    )));
    let own = shipped("ticket_pg").unwrap().schema.unwrap();
    assert_eq!(schema_of(&state).as_deref(), Some(own));
    assert!(!state.fragment.contains("schema="), "{}", state.fragment);
    let fragment = state.fragment.clone();
    let state = state.act(Action::SetSchema("CREATE TABLE orders (".to_string()));
    let problem = state.script_problem.clone().expect("the error is shown");
    assert!(problem.message.starts_with("`schema`"), "{problem:?}");
    assert_eq!(
        state.fragment, fragment,
        "the link keeps the last good schema"
    );
    assert!(state.session().is_some(), "the last good run stays");
    let unique = shipped("ticket_pg_on_conflict").unwrap().schema.unwrap();
    let state = settle(state.act(Action::SetSchema(unique.to_string())));
    assert!(state.script_problem.is_none());
    assert_eq!(schema_of(&state).as_deref(), Some(unique));
    assert!(state
        .fragment
        .contains(&format!("example=ticket_pg&schema={}", encode(unique))));
    // The racy code on a UNIQUE constraint: one row, the second INSERT fails.
    let state = settle(state.act(Action::RunToEnd));
    assert_eq!((state.metrics().orders, state.metrics().errors), (1, 1));
    // A code edit keeps the schema.
    let state = settle(state.act(Action::SetCode(EDITED.to_string())));
    assert_eq!(schema_of(&state).as_deref(), Some(unique));
    assert!(state.fragment.contains("&schema="));
}

#[wasm_bindgen_test]
fn a_story_link_leaves_the_script() {
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=script&example=ticket",
    )));
    let state = settle(state.act(Action::SetParam("scenario".into(), "ticket".into())));
    assert_eq!(state.program, Program::Story);
    assert_eq!(state.fragment, "v=1&scenario=ticket&strategy=none");
}

/// The page's large counters follow the script (its `expectUnique`
/// groups, its tables, its own `count()`s), not the default scenario its
/// config keeps.
#[wasm_bindgen_test]
fn a_scripts_headline_follows_the_script() {
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=script&example=inventory_atomic&users=5&clicks=1",
    )));
    let state = settle(state.act(Action::RunToEnd));
    let headline = state.headline();
    assert_eq!(
        headline.names,
        ["orders", "db_reads", "errors", "max_in_critical_section"]
    );
    assert_eq!(headline.own, [("sold_out".to_string(), 2.0)]);
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=script&example=stampede&users=5",
    )));
    assert_eq!(state.headline().names[0], "db_reads");
}

/// The large counters are the headline's names, in its order, then a
/// script's own `count()` counters (whole numbers without a point).
#[wasm_bindgen_test]
async fn the_headline_shows_its_counters_in_order_then_the_scripts_own() {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let props = MetricsTableProps {
        metrics: Part(Rc::new(Metrics {
            orders: 5,
            db_reads: 7,
            ..Metrics::default()
        })),
        headline: Headline {
            names: &["orders", "db_reads", "errors", "max_in_critical_section"],
            own: vec![("sold_out".to_string(), 2.0), ("ratio".to_string(), 0.5)],
        },
        script: true,
    };
    let handle = yew::Renderer::<MetricsTable>::with_root_and_props(root.clone(), props).render();
    yew::scheduler::flush().await;
    let cells = root
        .query_selector_all(".counters.headline [data-testid]")
        .unwrap();
    let shown: Vec<(String, String)> = (0..cells.length())
        .map(|i| {
            let cell = cells.item(i).unwrap().dyn_into::<Element>().unwrap();
            (
                cell.get_attribute("data-testid").unwrap(),
                cell.text_content().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("metric-orders", "5"),
        ("metric-db_reads", "7"),
        ("metric-errors", "0"),
        ("metric-max_in_critical_section", "0"),
        ("metric-custom-sold_out", "2"),
        ("metric-custom-ratio", "0.5"),
    ]
    .map(|(id, text)| (id.to_string(), text.to_string()));
    assert_eq!(shown, expected);
    // A script's duplicates are its rows, in whatever table it expects
    // unique.
    let duplicates = root
        .query_selector("[data-testid='metric-duplicate_tickets']")
        .unwrap()
        .and_then(|cell| cell.parent_element())
        .expect("the duplicates counter");
    assert_eq!(
        duplicates
            .query_selector("dt")
            .unwrap()
            .unwrap()
            .text_content()
            .unwrap(),
        "duplicate rows"
    );
    handle.destroy();
    root.remove();
}
