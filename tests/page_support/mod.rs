//! Shared by the page's browser tests (`tests/web.rs`,
//! `tests/web_script_page.rs`).

use std::rc::Rc;

use interleave::app::{Action, Debugger};

/// Works until the page has nothing left to do in the background.
pub fn settle(mut state: Rc<Debugger>) -> Rc<Debugger> {
    for _ in 0..100_000 {
        if !state.has_work() {
            return state;
        }
        state = state.act(Action::Work {
            deadline: js_sys::Date::now() + 50.0,
        });
    }
    panic!("the page kept working");
}
