//! The JavaScript engine's entry points: everything that runs a script is
//! reached through [`get`] and [`warm_up`], and nothing else reaches it.
//!
//! In the page's script worker (feature `engine-split`),
//! `scripts/build-workers.sh` splits the engine off the worker's wasm, at
//! these two functions, with `wasm-split-cli` (`wasm_split_helpers` marks
//! them): QuickJS, which both reach, becomes a module of its own, and so
//! does the script's runtime around it, which only [`get`]'s entry
//! reaches; the SQL statements split off the runtime at a third point
//! (`crate::script::sql::store::statement`). The worker's own wasm keeps
//! the model; the worker loads the rest (`load`) before its model opens.
//! Elsewhere (natively, and in the wasm tests) they are plain calls
//! (`crate::script::split`).

use std::rc::Rc;

use super::ScriptProgram;
use crate::config::Config;
use crate::explore::Subject;
use crate::run::Run;
use crate::script::split::{loaded, Loaded};

/// A script's run, or why it did not load.
pub type Started = Result<Box<dyn Run>, String>;
/// What the explorer searches for a script, or why it did not load.
pub type Searched = Result<Rc<dyn Subject>, String>;

/// How a script runs and is explored: function pointers, so that the code
/// behind them is reached only through `entry`, and splits off with it.
#[derive(Clone, Copy)]
pub struct Engine {
    /// A fresh run of the script on a config; `keep_trace` as in
    /// [`super::Program::start`].
    pub start: fn(&ScriptProgram, &Config, bool) -> Started,
    /// What the explorer searches.
    pub subject: fn(&ScriptProgram, &Config) -> Searched,
}

/// The engine's entry points (its modules loaded).
pub fn get() -> Engine {
    loaded(entry())
}

/// A stage of the engine's warm-up (`crate::script::run::warm_up`).
pub fn warm_up(stage: u32) {
    loaded(warm_up_stage(stage))
}

/// Loads the engine's modules, all at once; the error says why one did
/// not load.
#[cfg(feature = "engine-split")]
pub async fn load() -> Result<(), String> {
    use std::future::Future;
    use std::pin::Pin;
    use std::task::Poll;
    type Load = Pin<Box<dyn Future<Output = Result<(), wasm_split_helpers::SplitLoaderError>>>>;
    let mut loads: Vec<Load> = vec![
        Box::pin(load_quickjs()),
        Box::pin(load_runtime()),
        Box::pin(crate::script::sql::store::load_statements()),
    ];
    let mut failed = None;
    std::future::poll_fn(|cx| {
        loads.retain_mut(|load| match load.as_mut().poll(cx) {
            Poll::Ready(done) => {
                failed = failed.take().or(done.err());
                false
            }
            Poll::Pending => true,
        });
        match loads.is_empty() {
            true => Poll::Ready(()),
            false => Poll::Pending,
        }
    })
    .await;
    match failed {
        Some(error) => Err(format!(
            "the JavaScript engine's modules did not load ({error})"
        )),
        None => Ok(()),
    }
}

/// The script's runtime: reached from here only.
#[cfg_attr(
    feature = "engine-split",
    wasm_split_helpers::wasm_split(runtime, preload(load_runtime), fallible)
)]
fn entry() -> Loaded<Engine> {
    Ok(Engine { start, subject })
}

/// QuickJS: reached from here and from the runtime.
#[cfg_attr(
    feature = "engine-split",
    wasm_split_helpers::wasm_split(quickjs, preload(load_quickjs), fallible)
)]
fn warm_up_stage(stage: u32) -> Loaded<()> {
    crate::script::run::warm_up(stage);
    Ok(())
}

fn start(script: &ScriptProgram, config: &Config, keep_trace: bool) -> Started {
    crate::script::ScriptRun::with_route(
        &script.code,
        script.schema.as_deref(),
        script.route.as_deref(),
        config,
        keep_trace,
    )
    .map(|run| Box::new(run) as Box<dyn Run>)
    .map_err(|error| error.to_string())
}

fn subject(script: &ScriptProgram, config: &Config) -> Searched {
    crate::script::explore::ScriptSubject::with_route(
        &script.code,
        script.schema.as_deref(),
        script.route.as_deref(),
        config,
        Some(script.pieces()),
    )
    .map(|subject| Rc::new(subject) as Rc<dyn Subject>)
    .map_err(|error| error.to_string())
}
