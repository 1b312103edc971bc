//! The CLI's script commands: `run --script FILE.js`, `run` on a
//! `scenario=script` fragment, and `encode FILE.js`. The CLI module only
//! wires its flags to these.

use std::fmt;
use std::io::Write;

use serde::Serialize;
use serde_json::Value;

use crate::config::url::ConfigError;
use crate::run::{Run, ScheduleError, Scheduled};
use crate::sim::trace::TraceKey;
use crate::sim::trace_line::TraceLine;

use super::error::ScriptError;
use super::run::{ScriptRun, MAX_EVENTS};
use super::source::{self, ScriptSource};

/// Why a script command failed; every kind but `Io` is bad input (exit 2).
#[derive(Debug)]
pub enum ScriptCliError {
    Config(ConfigError),
    Script(ScriptError),
    /// No script: neither `--script` nor `code=`/`example=`.
    Missing,
    Io(std::io::Error),
}

impl fmt::Display for ScriptCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptCliError::Config(error) => write!(f, "bad scenario: {error}"),
            ScriptCliError::Script(error) => write!(f, "bad script: {error}"),
            ScriptCliError::Missing => write!(
                f,
                "bad scenario: `code`: no script; give --script FILE.js, code=<lz-string> or example=NAME"
            ),
            ScriptCliError::Io(error) => write!(f, "{error}"),
        }
    }
}

/// Runs a script scenario: the script is `file_code` (`--script`) or the
/// fragment's `code=`/`example=`; its schema `file_schema` (`--schema`)
/// or the fragment's, and its route `flag_route` (`--route`) or the
/// fragment's `route=`. Writes the trace (if asked) as JSON
/// lines, then the metrics with the script's `custom` counters.
pub fn run(
    file_code: Option<&str>,
    file_schema: Option<&str>,
    flag_route: Option<&str>,
    fragment: &str,
    trace: bool,
    max_events: u64,
    out: &mut impl Write,
) -> Result<(), ScriptCliError> {
    let (config, from_fragment) = source::parse(fragment).map_err(ScriptCliError::Config)?;
    let code = match (file_code, &from_fragment) {
        (Some(code), _) => code.to_string(),
        (None, ScriptSource::None) => return Err(ScriptCliError::Missing),
        (None, source) => source
            .text()
            .map_err(ScriptCliError::Config)?
            .unwrap_or_default(),
    };
    let schema = match file_schema {
        Some(schema) => Some(schema.to_string()),
        None => source::schema(fragment).map_err(ScriptCliError::Config)?,
    };
    let route = flag_route
        .map(str::to_string)
        .or_else(|| source::route(fragment));
    let mut run = ScriptRun::with_route(&code, schema.as_deref(), route.as_deref(), &config, trace)
        .map_err(ScriptCliError::Script)?;
    // At the budget the run stops (SCRIPTING.md §2): the requests still
    // pending are `hung`.
    run.set_max_events(max_events);
    let mut run = Scheduled::new(Box::new(run), &config.schedule);
    match run.finish() {
        // Cut at the budget, with choices left: the run did not end.
        Err(ScheduleError::TooLong { .. }) if run.out_of_budget() => {}
        Err(error) => return Err(ScriptCliError::Config(error.into())),
        Ok(()) => {}
    }
    let mut run = run.into_inner();
    // Before the trace moves out (the metrics carry its hash).
    let json = metrics_json(&run);
    if trace {
        let positions = run.positions();
        let messages = run.messages();
        let events = run.take_events();
        for (index, event) in events.iter().enumerate() {
            let position = positions.get(&index);
            let key = match event.key {
                TraceKey::None => String::new(),
                TraceKey::Data(id) => run.key_name(id),
                TraceKey::Lock(id) => format!("lock:{}", run.key_name(id)),
            };
            let message = (event.what == crate::sim::What::Log)
                .then(|| messages.get(event.detail as usize).cloned())
                .flatten();
            let line = TraceLine {
                line: position.map(|p| p.0),
                column: position.map(|p| p.1),
                message,
                ..TraceLine::of(event, key)
            };
            writeln!(out, "{}", line.to_json()).map_err(ScriptCliError::Io)?;
        }
    }
    write_json(out, &json)
}

/// A script run's figures as `run --script` prints them: the metrics, then
/// the script's own counters (`custom`) and the messages of its failed
/// requests (`error_messages`).
pub fn metrics_json(run: &ScriptRun) -> Value {
    let mut json = serde_json::to_value(run.metrics()).unwrap_or(Value::Null);
    if let Value::Object(fields) = &mut json {
        let custom = run
            .custom()
            .into_iter()
            .map(|(name, n)| (name, super::world::number(n)))
            .collect();
        fields.insert("custom".to_string(), Value::Object(custom));
        let errors = run
            .error_messages()
            .into_iter()
            .map(Value::String)
            .collect();
        fields.insert("error_messages".to_string(), Value::Array(errors));
    }
    json
}

/// A script run for a caller without a terminal (the engine's wasm,
/// `interleave-script-web`): `code` is the script, or empty to take the
/// fragment's `code=`/`example=`. Answers the metrics JSON that
/// `interleave run --script` prints (one object, `custom` included), or
/// `{"error": "..."}` with the CLI's message for bad input.
pub fn run_to_json(code: &str, fragment: &str) -> String {
    let mut out = Vec::new();
    let file_code = (!code.is_empty()).then_some(code);
    match run(file_code, None, None, fragment, false, MAX_EVENTS, &mut out) {
        Ok(()) => String::from_utf8_lossy(&out).trim_end().to_string(),
        Err(error) => serde_json::json!({ "error": error.to_string() }).to_string(),
    }
}

/// `interleave encode FILE.js`: the `code=` value of a script.
pub fn encode(code: &str, out: &mut impl Write) -> Result<(), ScriptCliError> {
    writeln!(out, "{}", source::encode(code)).map_err(ScriptCliError::Io)
}

fn write_json(out: &mut impl Write, value: &impl Serialize) -> Result<(), ScriptCliError> {
    serde_json::to_writer(&mut *out, value)
        .map_err(std::io::Error::from)
        .map_err(ScriptCliError::Io)?;
    writeln!(out).map_err(ScriptCliError::Io)
}
