//! The page's state on long runs, in headless Chrome:
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown --test web_page_state`.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use interleave::app::{Action, Debugger};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use yew::Reducible;

wasm_bindgen_test_configure!(run_in_browser);

/// Works until the page has nothing left to do in the background.
fn settle(mut state: Rc<Debugger>) -> Rc<Debugger> {
    for _ in 0..100_000 {
        if !state.has_work() {
            return state;
        }
        state = state.reduce(Action::Work {
            deadline: js_sys::Date::now() + 50.0,
        });
    }
    panic!("the page kept working");
}

/// An emitter lock's herd at 3,000 requests wakes about 4.5 million
/// listeners in 12,000 macrotasks: past `MAX_RECORDED_WORK` the page drops
/// the recording (its trace would grow with every wake-up) and counts the
/// metrics only, and says so.
#[wasm_bindgen_test]
fn a_herd_too_large_to_record_runs_metrics_only() {
    let state = settle(Rc::new(Debugger::load(
        "#v=1&scenario=stampede&strategy=emitter-lock&requests=3000",
    )));
    assert!(state.session().is_none(), "no trace to step through");
    let notice = state.notice.clone().unwrap_or_default();
    assert!(notice.starts_with("too long to record"), "{notice}");
    assert_eq!(state.metrics().db_reads, 1);
    assert_eq!(state.metrics().events, 12_002);
}
