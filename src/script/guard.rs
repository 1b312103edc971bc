//! The page's guard against runaway scripts (docs/scripting.md, "Bad
//! input and budgets"). The page's model runs scripts in a Web Worker of
//! its own (`web/model.js`), so a script never holds the page's thread;
//! the page still has to stop one that holds the worker, and say why.
//!
//! - Before a program runs, the guard tells the page its fragment
//!   ([`admit`]: `interleaveGuard.running(FRAGMENT)` in the worker). A
//!   worker that goes silent for too long while it runs (an endless loop
//!   that the engine's budgets do not reach, memory filling up, a stack
//!   the worker's thread cannot hold) is terminated by the page, which
//!   starts another on that fragment with the program [`refuse`]d: its
//!   code is in the editor, with the page's reason as its error.
//! - A request that a budget stops (`RuntimeLimitError`: too long without
//!   an await, the memory budget) is reported here ([`stopped`]); the
//!   page's model then refuses the program the same way, with the stop's
//!   message and line, instead of running the rest of it (each stop costs
//!   the worker about half a second; `interleave run --script` runs it to
//!   the end).
//!
//! Natively and in the wasm tests nothing goes silent and nothing is
//! refused unless the model asks.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::config::Config;

use super::error::ScriptError;
use super::source;

thread_local! {
    /// Programs the page must not run, by [`key`]: why.
    static REFUSED: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
    /// The first budget stop since the last [`admit`].
    static STOPPED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Whether the page may run this program: its refusal as the load error
/// if it was refused; else it may, and the page hears its fragment (on
/// `config`), which it reopens refused if the worker goes silent.
pub fn admit(
    code: &str,
    schema: Option<&str>,
    route: Option<&str>,
    config: &Config,
) -> Result<(), ScriptError> {
    STOPPED.with(|stopped| stopped.take());
    if let Some(why) =
        REFUSED.with(|refused| refused.borrow().get(&key(code, schema, route)).cloned())
    {
        return Err(refused(why));
    }
    let mut pieces = format!("code={}", source::encode(code));
    if let Some(sql) = schema {
        pieces.push_str(&format!("&schema={}", source::encode(sql)));
    }
    if let Some(route) = route {
        pieces.push('&');
        pieces.push_str(&source::route_piece(route));
    }
    page::running(&source::fragment(config, &pieces));
    Ok(())
}

/// Refuses the program of `fragment` (its code, schema and route) from
/// now on, for `why`.
pub fn refuse(fragment: &str, why: &str) {
    let key = key_of(fragment);
    REFUSED.with(|refused| refused.borrow_mut().insert(key, why.to_string()));
}

/// Refuses this program from now on, for `why`.
pub fn refuse_program(code: &str, schema: Option<&str>, route: Option<&str>, why: &str) {
    let key = key(code, schema, route);
    REFUSED.with(|refused| refused.borrow_mut().insert(key, why.to_string()));
}

/// A budget stopped `request`'s code with `message` (the run keeps it
/// among its failures too).
pub fn stopped(request: impl std::fmt::Display, message: &str) {
    STOPPED.with(|stopped| {
        stopped
            .borrow_mut()
            .get_or_insert_with(|| refusal(&format!("request {request}: {message}")));
    });
}

/// The first budget stop since the program was admitted, as the reason
/// to refuse it (once).
pub fn take_stop() -> Option<String> {
    STOPPED.with(|stopped| stopped.take())
}

/// A refusal as the script's error: the page's own load error for the
/// schema or the route names that input; anything else is the code's.
fn refused(why: String) -> ScriptError {
    if let Some(message) = why.strip_prefix("`schema`: ") {
        return ScriptError::schema(message);
    }
    if let Some(message) = why.strip_prefix("`route`: ") {
        return ScriptError::route(message);
    }
    ScriptError::new(why)
}

fn key(code: &str, schema: Option<&str>, route: Option<&str>) -> String {
    // SipHash with its fixed keys: 64 bits on every target.
    let mut hasher = std::hash::DefaultHasher::new();
    (code, schema, route).hash(&mut hasher);
    format!("{:016x}{}", hasher.finish(), code.len())
}

/// The key of the program of `fragment` (its code, schema and route).
fn key_of(fragment: &str) -> String {
    let Ok((_, from_fragment)) = source::parse(fragment) else {
        return String::new();
    };
    let code = from_fragment.text().ok().flatten().unwrap_or_default();
    let schema = source::schema(fragment).ok().flatten();
    key(&code, schema.as_deref(), source::route(fragment).as_deref())
}

/// A budget's stop of a request, as the script's error (its line read
/// back by `ScriptError::new`, which the editor marks).
fn refusal(stop: &str) -> String {
    let why = "the page runs no script that a budget stops (interleave run --script runs it \
               to the end)";
    let position = stop.rsplit_once(" (line ").and_then(|(stop, rest)| {
        let (line, rest) = rest.split_once(", column ")?;
        let column = rest.strip_suffix(')')?;
        Some((
            stop,
            (line.parse::<u32>().ok()?, column.parse::<u32>().ok()?),
        ))
    });
    match position {
        Some((stop, (line, column))) => format!("{stop}; {why} (line {line}, column {column})"),
        None => format!("{stop}; {why}"),
    }
}

/// web/model.js's `interleaveGuard.running(FRAGMENT)`.
mod page {
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen::prelude::wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(catch, js_namespace = interleaveGuard, js_name = running)]
        fn page_running(fragment: &str) -> Result<(), wasm_bindgen::JsValue>;
    }

    /// Nothing with no page (natively, in the wasm tests).
    #[cfg(target_arch = "wasm32")]
    pub fn running(fragment: &str) {
        let _ = page_running(fragment);
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn running(_: &str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fragment(code: &str) -> String {
        format!(
            "v=1&scenario=script&users=1&clicks=2&code={}",
            source::encode(code)
        )
    }

    #[test]
    fn a_refused_program_is_refused_with_the_reason_and_no_other() {
        let code = "async function handle(req) { for (;;) {} }";
        let config = Config::default();
        assert!(admit(code, None, None, &config).is_ok());
        refuse(&fragment(code), "the worker went silent");
        let error = admit(code, None, None, &config).unwrap_err();
        assert_eq!(error.to_string(), "`code`: the worker went silent");
        // Another program, or the same code with a schema, still runs.
        assert!(admit("async function handle(req) {}", None, None, &config).is_ok());
        assert!(admit(code, Some("CREATE TABLE t (id int);"), None, &config).is_ok());
        // A refusal that names the schema is the schema's error.
        refuse_program(code, Some("x"), None, "`schema`: no such table");
        let error = admit(code, Some("x"), None, &config).unwrap_err();
        assert_eq!(error.input, "schema");
    }

    #[test]
    fn a_budget_stop_is_the_reason_at_its_line_once() {
        admit(
            "async function handle(req) {}",
            None,
            None,
            &Config::default(),
        )
        .unwrap();
        stopped(
            0,
            "RuntimeLimitError: ran too long without an await (line 3, column 3)",
        );
        stopped(1, "RuntimeLimitError: a later stop");
        let why = take_stop().expect("the first stop");
        let error = ScriptError::new(why);
        assert_eq!((error.line, error.column), (Some(3), Some(3)));
        assert!(
            error.to_string().starts_with(
                "`code`: line 3, column 3: request 0: RuntimeLimitError: ran too long"
            ),
            "{error}"
        );
        assert!(
            error.to_string().ends_with("runs it to the end)"),
            "{error}"
        );
        assert_eq!(take_stop(), None);
        // Admitting a program forgets an earlier program's stop.
        stopped(0, "RuntimeLimitError: x");
        admit(
            "async function handle(req) {}",
            None,
            None,
            &Config::default(),
        )
        .unwrap();
        assert_eq!(take_stop(), None);
    }
}
