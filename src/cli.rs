//! The CLI's logic, kept in the library so it is tested like the engine.

use std::fmt;
use std::io::{self, Write};

use serde::Serialize;

use crate::scenario::url::{parse_fragment, ConfigError};
use crate::sim::trace::OpKind;
use crate::sim::{Outcome, Site, TraceEvent};
use crate::Sim;

pub const USAGE: &str = "usage: interleave run '<fragment or URL>' [--trace] [--max-events N]

  run             simulate the scenario and print its metrics as one JSON object
  --trace         first print every trace event as a JSON line
  --max-events N  give up (exit 2) if the run needs more than N macrotasks;
                  default 100000000, or 10000000 with --trace

example: interleave run 'v=1&scenario=stampede&strategy=keyed-mutex&requests=50'";

/// The default `--max-events`: about ten seconds of a metrics-only run.
pub const DEFAULT_MAX_EVENTS: u64 = 100_000_000;
/// The default `--max-events` with `--trace`, whose events are all kept in
/// memory (about 100 bytes per macrotask) before they are printed.
pub const DEFAULT_MAX_TRACE_EVENTS: u64 = 10_000_000;

#[derive(Debug)]
pub enum CliError {
    Usage(String),
    Config(ConfigError),
    /// The run needed more macrotasks than `--max-events` allows.
    Budget {
        max_events: u64,
    },
    Io(io::Error),
}

impl CliError {
    /// 2 for bad input, 1 for a failure to write the output.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::Config(_) | CliError::Budget { .. } => 2,
            CliError::Io(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => write!(f, "{message}\n{USAGE}"),
            CliError::Config(error) => write!(f, "bad scenario: {error}"),
            CliError::Budget { max_events } => write!(
                f,
                "the run did not finish within --max-events {max_events} macrotasks; \
                 raise --max-events, or make the scenario smaller (fewer requests or \
                 users, a longer poll, a shorter wait_timeout)"
            ),
            CliError::Io(error) => write!(f, "cannot write output: {error}"),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> Self {
        CliError::Io(error)
    }
}

/// A trace event as one JSON line: names instead of codes.
#[derive(Serialize)]
struct TraceLine {
    step: u32,
    time_us: u64,
    request: u32,
    what: &'static str,
    op: Option<OpKind>,
    key: String,
    outcome: Outcome,
    site: Site,
    line: Option<usize>,
    detail: u64,
}

pub fn main(args: &[String], out: &mut impl Write) -> Result<(), CliError> {
    let mut positional = Vec::new();
    let mut trace = false;
    let mut max_events = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--trace" => trace = true,
            "--max-events" => max_events = Some(parse_max_events(args.next().map(String::as_str))?),
            flag if flag.starts_with("--max-events=") => {
                max_events = Some(parse_max_events(flag.strip_prefix("--max-events="))?)
            }
            "-h" | "--help" => {
                writeln!(out, "{USAGE}")?;
                return Ok(());
            }
            flag if flag.starts_with("--") => {
                return Err(CliError::Usage(format!("unknown flag {flag}")))
            }
            _ => positional.push(arg.as_str()),
        }
    }
    match positional.as_slice() {
        ["run", fragment] => {
            let default = if trace {
                DEFAULT_MAX_TRACE_EVENTS
            } else {
                DEFAULT_MAX_EVENTS
            };
            run(fragment, trace, max_events.unwrap_or(default), out)
        }
        ["run"] => Err(CliError::Usage("run needs a scenario fragment".into())),
        [] => Err(CliError::Usage("no command".into())),
        [command, ..] if *command != "run" => {
            Err(CliError::Usage(format!("unknown command {command}")))
        }
        _ => Err(CliError::Usage("run takes one fragment".into())),
    }
}

fn parse_max_events(value: Option<&str>) -> Result<u64, CliError> {
    value
        .and_then(|value| value.parse::<u64>().ok())
        .filter(|&max| max > 0)
        .ok_or_else(|| CliError::Usage("--max-events needs a whole number above 0".into()))
}

fn run(fragment: &str, trace: bool, max_events: u64, out: &mut impl Write) -> Result<(), CliError> {
    let config = parse_fragment(fragment).map_err(CliError::Config)?;
    let mut sim = if trace {
        Sim::new(&config)
    } else {
        Sim::metrics_only(&config)
    };
    if !sim.run_for(max_events) {
        return Err(CliError::Budget { max_events });
    }
    let metrics = sim.metrics();
    if trace {
        let listing = crate::scenario::listing::Listing::of(&config);
        for event in sim.trace().events() {
            write_line(out, &trace_line(event, &config, &listing))?;
        }
    }
    write_line(out, &metrics)
}

fn trace_line(
    event: &TraceEvent,
    config: &crate::Config,
    listing: &crate::scenario::listing::Listing,
) -> TraceLine {
    TraceLine {
        step: event.step,
        time_us: event.time,
        request: event.request,
        what: event.what.name(),
        op: event.what.op(),
        key: event.key.describe(config.scenario),
        outcome: event.outcome,
        site: event.site,
        line: listing.line_of(event.site),
        detail: event.detail,
    }
}

fn write_line(out: &mut impl Write, value: &impl Serialize) -> Result<(), CliError> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    writeln!(out)?;
    Ok(())
}
