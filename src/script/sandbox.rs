//! The page's sandbox check (docs/scripting.md, "Bad input and budgets"):
//! before the page runs a person's script on its own thread, the same
//! engine runs it in a Web Worker (`web/sandbox.js`), where a runaway
//! script cannot freeze the tab, and the page terminates the worker when
//! it takes too long. The page then runs only a script whose load and
//! every step of its first [`STEPS`] took under [`STEP_MS`] there, and
//! that no budget stopped; anything else is the script's error, with its
//! line, and the page never runs it.
//!
//! The page checks a program once (by its code, schema and route), on the
//! config it first records or counts (`crate::model`); the runs derived from
//! it (the compare table, a fix, explore) are not checked again. Natively,
//! in the wasm tests and inside the worker there is no page, and
//! [`checked`] lets every script run.

use std::hash::{Hash, Hasher};

use crate::config::Config;

use super::error::ScriptError;
use super::modules::{not_loaded, Module};
use super::run::ScriptRun;
use super::source;

/// Steps of the run the worker times.
pub const STEPS: u64 = 2_000;
/// The longest a step may take in the worker, and its load (the engine
/// warmed up first, as the page warms it). Runaway code goes far past
/// them (a budget's stop takes about 500 ms, a 100 MB string as long,
/// filling the heap seconds); a busy machine's slow step stays under.
pub const STEP_MS: f64 = 400.0;
pub const LOAD_MS: f64 = 1_000.0;

/// Whether the page may run this program now: `Ok` once the worker found
/// it well-behaved (or when there is no page); its refusal as the load
/// error; else the error that waits for the check
/// (`Module::Sandbox`), after asking for it with `config`.
pub fn checked(
    code: &str,
    schema: Option<&str>,
    route: Option<&str>,
    config: &Config,
) -> Result<(), ScriptError> {
    let key = key(code, schema, route);
    match page::verdict(&key) {
        None => Ok(()),
        Some(verdict) if verdict == OK => Ok(()),
        Some(verdict) if !verdict.is_empty() => Err(refused(verdict)),
        Some(_) => {
            let mut pieces = format!("code={}", source::encode(code));
            if let Some(sql) = schema {
                pieces.push_str(&format!("&schema={}", source::encode(sql)));
            }
            if let Some(route) = route {
                pieces.push('&');
                pieces.push_str(&source::route_piece(route));
            }
            page::ask(&key, &source::fragment(config, &pieces));
            Err(not_loaded(Module::Sandbox))
        }
    }
}

/// A refusal as the script's error: the page's own load error for the
/// schema or the route names that input; anything else is the code's.
fn refused(verdict: String) -> ScriptError {
    if let Some(message) = verdict.strip_prefix("`schema`: ") {
        return ScriptError::schema(message);
    }
    if let Some(message) = verdict.strip_prefix("`route`: ") {
        return ScriptError::route(message);
    }
    ScriptError::new(verdict)
}

/// The worker's verdict that the page may run it.
const OK: &str = "ok";

fn key(code: &str, schema: Option<&str>, route: Option<&str>) -> String {
    // SipHash with its fixed keys: 64 bits on every target.
    let mut hasher = std::hash::DefaultHasher::new();
    (code, schema, route).hash(&mut hasher);
    format!("{:016x}{}", hasher.finish(), code.len())
}

/// The key [`checked`] files the program of `fragment` under (its code,
/// schema and route), for a check the page starts before it has a
/// program (web/boot.js checks a script link as the page loads).
pub fn key_of(fragment: &str) -> String {
    let Ok((_, from_fragment)) = source::parse(fragment) else {
        return String::new();
    };
    let code = from_fragment.text().ok().flatten().unwrap_or_default();
    let schema = source::schema(fragment).ok().flatten();
    key(&code, schema.as_deref(), source::route(fragment).as_deref())
}

/// The check itself, in the worker: [`OK`], or why the page must not run
/// the script of `fragment` (a load error as the page would show it, a
/// budget's stop, or a step too slow), worded for the script panel.
pub fn vet(fragment: &str, now_ms: impl Fn() -> f64) -> String {
    let Ok((config, from_fragment)) = source::parse(fragment) else {
        // The page reports a bad fragment itself.
        return OK.to_string();
    };
    let code = from_fragment.text().ok().flatten().unwrap_or_default();
    let schema = source::schema(fragment).ok().flatten();
    let route = source::route(fragment);
    warm_up();
    let started = now_ms();
    let mut run =
        match ScriptRun::with_route(&code, schema.as_deref(), route.as_deref(), &config, false) {
            Ok(run) => run,
            // The page's own load error, read back by `ScriptError::new` (a
            // module the worker has to load first ends the same way, and
            // web/sandbox.js asks again once it has).
            Err(error) if error.input != "code" => return error.to_string(),
            Err(error) => return positioned(&error.message, error.line.zip(error.column)),
        };
    let loaded = now_ms() - started;
    if loaded > LOAD_MS {
        return format!(
            "the script's top level took {loaded:.0} ms in the page's sandbox: the page runs \
             none whose load takes over {LOAD_MS:.0} ms, as it would freeze the tab \
             (interleave run --script runs it)"
        );
    }
    for _ in 0..STEPS {
        let before = now_ms();
        let stepped = crate::run::Run::step(&mut run).is_some();
        let took = now_ms() - before;
        if let Some(stop) = run
            .error_messages()
            .into_iter()
            .find(|message| message.contains("RuntimeLimitError"))
        {
            return refusal(&stop);
        }
        if took > STEP_MS {
            return format!(
                "a step of the script took {took:.0} ms in the page's sandbox: the page runs \
                 none whose step takes over {STEP_MS:.0} ms, as it would freeze the tab \
                 (interleave run --script runs it)"
            );
        }
        if !stepped {
            break;
        }
    }
    OK.to_string()
}

/// The engine's first calls compiled once per thread, as the page's are
/// (`run::warm_up`), so the load is timed as the page would run it.
fn warm_up() {
    thread_local! {
        static WARM: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if !WARM.with(|warm| warm.replace(true)) {
        for stage in 0..super::run::WARM_UP_STAGES {
            super::run::warm_up(stage);
        }
    }
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
        Some((stop, at)) => positioned(&format!("{stop}; {why}"), Some(at)),
        None => format!("{stop}; {why}"),
    }
}

/// A message with its position at its end, where `ScriptError::new` finds
/// it.
fn positioned(message: &str, at: Option<(u32, u32)>) -> String {
    match at {
        Some((line, column)) => format!("{message} (line {line}, column {column})"),
        None => message.to_string(),
    }
}

/// web/boot.js's `interleaveModules.verdict(KEY)` and `ask(KEY, FRAGMENT)`.
mod page {
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen::prelude::wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = verdict)]
        fn page_verdict(key: &str) -> Result<Option<String>, wasm_bindgen::JsValue>;
        #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = ask)]
        fn page_ask(key: &str, fragment: &str) -> Result<(), wasm_bindgen::JsValue>;
    }

    /// `None` with no page (natively, in the wasm tests, in the worker);
    /// else the verdict, empty while there is none yet.
    #[cfg(target_arch = "wasm32")]
    pub fn verdict(key: &str) -> Option<String> {
        match page_verdict(key) {
            Ok(verdict) => Some(verdict.unwrap_or_default()),
            Err(_) => None,
        }
    }

    #[cfg(target_arch = "wasm32")]
    pub fn ask(key: &str, fragment: &str) {
        let _ = page_ask(key, fragment);
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn verdict(_: &str) -> Option<String> {
        None
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn ask(_: &str, _: &str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> impl Fn() -> f64 {
        let start = std::time::Instant::now();
        move || start.elapsed().as_secs_f64() * 1000.0
    }

    fn fragment(code: &str) -> String {
        format!(
            "v=1&scenario=script&users=1&clicks=2&code={}",
            source::encode(code)
        )
    }

    #[test]
    fn a_well_behaved_script_may_run() {
        let code = "async function handle(req) { await sleep(5); count(\"ok\"); }";
        assert_eq!(vet(&fragment(code), clock()), OK);
        // A link's check is filed where the page looks for its program's.
        assert_eq!(key_of(&fragment(code)), key(code, None, None));
        let (_, program, _) =
            crate::debugger::program::parse_lenient("#v=1&scenario=script&example=ticket_pg");
        let crate::debugger::Program::Script(script) = program else {
            panic!("a script");
        };
        assert_eq!(
            key_of("v=1&scenario=script&example=ticket_pg"),
            key(&script.code, script.schema.as_deref(), None)
        );
    }

    #[test]
    fn an_endless_loop_is_refused_with_its_line() {
        let code = "async function handle(req) {\n  await sleep(1);\n  for (;;) {}\n}";
        let verdict = vet(&fragment(code), clock());
        assert!(
            verdict.starts_with("request 0: RuntimeLimitError"),
            "{verdict}"
        );
        // As the page shows it: its line first, for the editor's mark.
        let error = ScriptError::new(verdict);
        assert_eq!((error.line, error.column), (Some(3), Some(3)));
        assert!(
            error
                .to_string()
                .starts_with("`code`: line 3, column 3: request 0: RuntimeLimitError"),
            "{error}"
        );
        assert!(
            error.to_string().ends_with("runs it to the end)"),
            "{error}"
        );
    }

    #[test]
    fn a_load_error_is_the_pages_own() {
        let verdict = vet(&fragment("async function handle(req) {"), clock());
        let error = ScriptError::new(verdict);
        assert!(error.line.is_some(), "{error}");
        assert!(
            error.to_string().starts_with("`code`: line 1, column"),
            "{error}"
        );
    }

    #[test]
    fn a_load_or_step_too_slow_is_refused() {
        // A fake clock whose readings come `gaps[0]` ms apart for the load,
        // then `gaps[1]` apart.
        let readings = std::cell::Cell::new(0);
        let clock = |gaps: [f64; 2]| {
            let readings = &readings;
            let time = std::cell::Cell::new(0.0);
            move || {
                readings.set(readings.get() + 1);
                time.set(
                    time.get()
                        + if readings.get() <= 2 {
                            gaps[0]
                        } else {
                            gaps[1]
                        },
                );
                time.get()
            }
        };
        let code = "async function handle(req) {}";
        let verdict = vet(&fragment(code), clock([1_500.0, 1.0]));
        assert!(
            verdict.starts_with("the script's top level took 1500 ms"),
            "{verdict}"
        );
        readings.set(0);
        let verdict = vet(&fragment(code), clock([900.0, 500.0]));
        assert!(
            verdict.starts_with("a step of the script took 500 ms"),
            "{verdict}"
        );
        readings.set(0);
        assert_eq!(vet(&fragment(code), clock([900.0, 300.0])), OK);
    }
}
