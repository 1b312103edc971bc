//! The CLI's logic, kept in the library so it is tested like the engine.

use std::fmt;
use std::io::{self, Write};

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use serde::Serialize;

use crate::config::url::{parse_fragment, ConfigError};
use crate::explore::compare_strategies;
use crate::explore::{parse_checks, Check, ExploreOptions, ExploreResult, Method, StorySearch};
use crate::sim::trace_line::TraceLine;

/// The default `--max-events`: about ten seconds of a metrics-only run.
pub const DEFAULT_MAX_EVENTS: u64 = 100_000_000;
/// The default `--max-events` of a script run: a script's run may never
/// end by itself (a module-level `setInterval` while a request waits), and
/// it stops there with the unsettled requests counted as `hung`. About ten
/// seconds of script at 100,000 macrotasks per second.
pub const DEFAULT_MAX_SCRIPT_EVENTS: u64 = 1_000_000;
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
    /// A script command's bad input (its message is complete).
    Script(String),
    Io(io::Error),
    /// `real`: the servers could not be reached or the run failed.
    Real(String),
}

impl CliError {
    /// 2 for bad input, 1 for a failure to write the output.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_)
            | CliError::Config(_)
            | CliError::Budget { .. }
            | CliError::Script(_) => 2,
            CliError::Io(_) | CliError::Real(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => write!(f, "{}", message.trim_end()),
            CliError::Config(error) => write!(f, "bad scenario: {error}"),
            CliError::Budget { max_events } => write!(
                f,
                "the run did not finish within --max-events {max_events} macrotasks; \
                 raise --max-events, or make the scenario smaller (fewer requests or \
                 users, a longer poll, a shorter wait_timeout)"
            ),
            CliError::Script(message) => write!(f, "{message}"),
            CliError::Io(error) => write!(f, "cannot write output: {error}"),
            CliError::Real(message) => write!(f, "{message}"),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> Self {
        CliError::Io(error)
    }
}

/// `interleave`: simulate a scenario URL, or search its schedules.
#[derive(Parser, Debug)]
#[command(
    name = "interleave",
    about = "Simulate an async backend's race conditions from a scenario URL fragment",
    after_help = "examples:\n  interleave run 'v=1&scenario=stampede&strategy=keyed-mutex&requests=50'\n  interleave explore 'v=1&scenario=ticket&strategy=none' --check duplicates"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Simulate the scenario (following its schedule= if any) and print its
    /// metrics as one JSON object.
    Run(RunArgs),
    /// Search the schedules of the scenario and print {explored, violating,
    /// complete, naive_estimate, counterexample, preemption_bound,
    /// complete_within_bound}.
    Explore(ExploreFlags),
    /// Print the `code=` value of a script (lz-string's
    /// compressToEncodedURIComponent) for a `scenario=script` fragment.
    Encode(EncodeArgs),
    /// Play the scenario against real PostgreSQL, Redis and memcached (see
    /// docs/real.md; `scripts/services.sh up` starts them) and print one JSON
    /// object: each trial's metrics and tables beside the simulation's
    /// figures and the share of explored schedules that violate.
    Real(RealArgs),
    /// Explain the run of the scenario in words: the narration of the step
    /// of its first violation, the causal story, the fix with its outcome
    /// (computed by running it) and the minimal counterexample, as text or,
    /// with --json, as one JSON object. Exits 0 with or without a violation.
    Explain(ExplainArgs),
}

#[derive(Args, Debug)]
struct ExplainArgs {
    /// The scenario: a URL fragment or a whole URL.
    fragment: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    source: ScriptFlags,
}

#[derive(Args, Debug)]
struct EncodeArgs {
    /// The script, a JavaScript file.
    file: std::path::PathBuf,
}

#[derive(Args, Debug)]
struct RealArgs {
    /// The scenario: a URL fragment or a whole URL.
    fragment: String,
    /// Trials, each with the next seed's latencies and jitter.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=100))]
    trials: u32,
    /// PostgreSQL URL [default: $INTERLEAVE_POSTGRES_URL].
    #[arg(long, value_name = "URL")]
    postgres: Option<String>,
    /// Redis URL [default: $INTERLEAVE_REDIS_URL].
    #[arg(long, value_name = "URL")]
    redis: Option<String>,
    /// memcached URL, memcache://host:port [default: $INTERLEAVE_MEMCACHED_URL].
    #[arg(long, value_name = "URL")]
    memcached: Option<String>,
    /// memcached or redis for the cache and cache locks [default: memcached,
    /// or redis when the fragment needs it: release=owner, sub-second TTLs].
    #[arg(long, value_name = "SERVER")]
    cache: Option<String>,
    /// Most jitter added to each injected latency, in microseconds.
    #[arg(long, value_name = "US", default_value_t = 200)]
    jitter_us: u64,
    /// Play on the real timing (injected latencies and jitter) instead of
    /// replaying the simulated order, the fragment's schedule= included
    /// (stories only: a script is always replayed).
    #[arg(long)]
    free: bool,
    /// With a script (`--script`, or a scenario=script fragment): its
    /// calls are replayed on the real servers in the simulated order
    /// (docs/real.md, "Your own handler").
    #[command(flatten)]
    source: ScriptFlags,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// The scenario: a URL fragment such as 'v=1&scenario=ticket', or a whole URL.
    fragment: String,
    /// First print every trace event as a JSON line.
    #[arg(long)]
    trace: bool,
    /// Give up (exit 2) if the run needs more than N macrotasks; default
    /// 100000000, or 10000000 with --trace.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_events: Option<u64>,
    #[command(flatten)]
    source: ScriptFlags,
}

/// The flags of `explore`, as given.
#[derive(Args, Debug, Default)]
struct ExploreFlags {
    /// The scenario: a URL fragment or a whole URL.
    fragment: String,
    /// duplicates, db-reads, exclusion, stale, or several comma-separated
    /// (default: duplicates for ticket, db-reads for stampede); a script:
    /// duplicates, exclusion, errors, lost-updates (default: duplicates
    /// and lost-updates).
    #[arg(long, value_name = "CHECKS")]
    check: Option<String>,
    /// dfs (exhaustive with sleep-set reduction), random or pct [default: dfs].
    #[arg(long)]
    method: Option<String>,
    /// Most schedules (dfs) or runs (random, pct); default 100000 for dfs,
    /// 1000 otherwise.
    #[arg(long, value_name = "N")]
    max_schedules: Option<String>,
    /// dfs: most non-default choices per schedule (default unbounded);
    /// get-set with several users finishes only with a bound (try 2 to 4).
    #[arg(long, value_name = "N")]
    max_preemptions: Option<String>,
    /// Seed of the random and pct searches [default: 1].
    #[arg(long, value_name = "S")]
    seed: Option<String>,
    /// dfs: the naive search, without sleep sets.
    #[arg(long)]
    no_reduction: bool,
    /// One JSON line per strategy, with a summary text.
    #[arg(long)]
    all_strategies: bool,
    #[command(flatten)]
    source: ScriptFlags,
}

/// A script's files, for `run`, `explore` and `explain` (scenario=script).
#[derive(Args, Debug, Default)]
struct ScriptFlags {
    /// This JavaScript file is the scenario's handler (scenario=script; the
    /// fragment's other keys keep their meaning); a `.ts` file runs with
    /// its types stripped.
    #[arg(long, value_name = "FILE.js")]
    script: Option<std::path::PathBuf>,
    /// The database's schema as SQL, for the script's `pg` (CREATE TABLE
    /// with PRIMARY KEY and UNIQUE, CREATE UNIQUE INDEX, INSERT seed rows).
    #[arg(long, value_name = "FILE.sql")]
    schema: Option<std::path::PathBuf>,
    /// The route of the script's Express or Fastify app the requests go
    /// to, as 'POST /orders/:id/pay', or a path it matches, as 'POST
    /// /orders/42/pay' (default: its first POST route, else its first
    /// route; the fragment's `route=` otherwise).
    #[arg(long, value_name = "'METHOD /PATH'")]
    route: Option<String>,
}

/// Parses `args` (without the program name) and runs the command, writing
/// its JSON to `out`. `--help` writes the help to `out`.
pub fn main(args: &[String], out: &mut impl Write) -> Result<(), CliError> {
    let cli = match Cli::try_parse_from(
        std::iter::once("interleave").chain(args.iter().map(String::as_str)),
    ) {
        Ok(cli) => cli,
        Err(error) => {
            return match error.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    write!(out, "{}", error.render())?;
                    Ok(())
                }
                _ => Err(CliError::Usage(error.render().to_string())),
            }
        }
    };
    match cli.command {
        Command::Run(args) => {
            let default = if args.trace {
                DEFAULT_MAX_TRACE_EVENTS
            } else {
                DEFAULT_MAX_EVENTS
            };
            if args.source.script.is_some() || is_script(&args.fragment) {
                let max_events = args.max_events.unwrap_or(DEFAULT_MAX_SCRIPT_EVENTS);
                return script_command::run(&args, max_events, out);
            }
            let max_events = args.max_events.unwrap_or(default);
            run(&args.fragment, args.trace, max_events, out)
        }
        Command::Explore(flags) => {
            if flags.source.script.is_some() || is_script(&flags.fragment) {
                return script_command::explore(&flags, out);
            }
            run_explore(&flags, out)
        }
        Command::Encode(args) => script_command::encode(&args.file, out),
        Command::Real(args) => run_real(&args, out),
        Command::Explain(args) => run_explain(&args, out),
    }
}

fn run_explain(args: &ExplainArgs, out: &mut impl Write) -> Result<(), CliError> {
    let recording = if args.source.script.is_some() || is_script(&args.fragment) {
        script_command::recording(args)?
    } else {
        let config = parse_fragment(&args.fragment).map_err(CliError::Config)?;
        crate::debugger::Recording::of(&config).map_err(|error| CliError::Config(error.into()))?
    };
    let explanation = crate::explain::explain_recording(&recording);
    if args.json {
        return write_line(out, &explanation);
    }
    writeln!(out, "{}", explanation.to_text())?;
    Ok(())
}

impl ExploreFlags {
    fn options(&self, config: &crate::Config) -> Result<ExploreOptions, CliError> {
        let bad = |flag: &str, message: String| CliError::Usage(format!("{flag}: {message}"));
        let checks = match &self.check {
            Some(text) => parse_checks(text).map_err(|message| bad("--check", message))?,
            None => vec![Check::default_for(config.scenario)],
        };
        self.options_with(checks)
    }

    /// The options with these checks (a script parses its own).
    fn options_with(&self, checks: Vec<Check>) -> Result<ExploreOptions, CliError> {
        let bad = |flag: &str, message: String| CliError::Usage(format!("{flag}: {message}"));
        let mut options = ExploreOptions::new(checks);
        if let Some(method) = &self.method {
            options.method = method.parse().map_err(|message| bad("--method", message))?;
        }
        let number = |flag: &str, text: &str| {
            text.parse::<u64>()
                .map_err(|_| bad(flag, format!("expected a whole number, got {text:?}")))
        };
        options.max_schedules = match &self.max_schedules {
            Some(text) => number("--max-schedules", text)?,
            None if options.method == Method::Dfs => 100_000,
            None => 1_000,
        };
        if let Some(text) = &self.max_preemptions {
            let max = number("--max-preemptions", text)?;
            options.max_preemptions = Some(u32::try_from(max).unwrap_or(u32::MAX));
        }
        if let Some(text) = &self.seed {
            options.seed = number("--seed", text)?;
        }
        options.reduction = !self.no_reduction;
        Ok(options)
    }
}

/// `explore`'s JSON: the fields of the issue, the counterexample as a
/// fragment; the keys added later come last.
#[derive(Serialize)]
struct ExploreLine {
    #[serde(skip_serializing_if = "Option::is_none")]
    strategy: Option<&'static str>,
    explored: u64,
    violating: u64,
    complete: bool,
    naive_estimate: u64,
    counterexample: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<String>,
    /// The DFS's `--max-preemptions`; null when unbounded (and for random
    /// and pct, which ignore it).
    preemption_bound: Option<u32>,
    complete_within_bound: bool,
    /// A script's checks that were not asked for, each with the schedules
    /// that violate it (`{"errors": 4, ...}`).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    unchecked: serde_json::Map<String, serde_json::Value>,
}

impl ExploreLine {
    fn of(result: &ExploreResult, options: &ExploreOptions) -> Self {
        ExploreLine {
            strategy: None,
            explored: result.explored,
            violating: result.violating,
            complete: result.complete,
            naive_estimate: result.naive_estimate,
            counterexample: result.counterexample.as_ref().map(|c| c.fragment.clone()),
            summary: None,
            preemption_bound: options
                .max_preemptions
                .filter(|_| options.method == Method::Dfs),
            complete_within_bound: result.complete_within_bound,
            unchecked: (result.unchecked.iter())
                .map(|&(check, count)| (check.name().to_string(), count.into()))
                .collect(),
        }
    }
}

fn run_explore(flags: &ExploreFlags, out: &mut impl Write) -> Result<(), CliError> {
    let config = parse_fragment(&flags.fragment).map_err(CliError::Config)?;
    let options = flags.options(&config)?;
    if flags.all_strategies {
        return write_rows(&compare_strategies(&config, &options), &options, out);
    }
    let result = StorySearch::new(&config, options.clone()).run();
    write_line(out, &ExploreLine::of(&result, &options))
}

/// `--all-strategies`: one line per strategy, with its summary.
fn write_rows(
    rows: &[crate::explore::StrategyRow],
    options: &ExploreOptions,
    out: &mut impl Write,
) -> Result<(), CliError> {
    for row in rows {
        let mut line = ExploreLine::of(&row.result, options);
        line.strategy = Some(row.strategy.name());
        line.summary = Some(row.summary(&options.checks));
        write_line(out, &line)?;
    }
    Ok(())
}

/// Whether a fragment names a script scenario.
fn is_script(fragment: &str) -> bool {
    fragment
        .split(['#', '&'])
        .any(|piece| piece == "scenario=script")
}

/// The script commands (`src/script/cli.rs`), or their absence in a build
/// without the `script` feature.
mod script_command {
    use std::io::Write;
    use std::path::Path;

    #[cfg(feature = "script")]
    use super::ScriptFlags;
    use super::{CliError, ExplainArgs, ExploreFlags, RealArgs, RunArgs};

    fn read(path: &Path) -> Result<String, CliError> {
        std::fs::read_to_string(path).map_err(|error| {
            CliError::Script(format!(
                "bad script: cannot read {}: {error}",
                path.display()
            ))
        })
    }

    /// A `--script` file: a `.ts` (`.mts`, `.cts`) one with its types
    /// stripped, whatever it would parse as (docs/scripting.md).
    #[cfg(feature = "script")]
    fn read_script(path: &Path) -> Result<String, CliError> {
        use crate::script::typescript;
        let code = read(path)?;
        if !typescript::is_typescript_file(&path.to_string_lossy()) {
            return Ok(code);
        }
        typescript::strip(&code).map_err(|error| CliError::Script(format!("bad script: {error}")))
    }

    #[cfg(feature = "script")]
    pub fn run(args: &RunArgs, max_events: u64, out: &mut impl Write) -> Result<(), CliError> {
        use crate::script::cli::{self, ScriptCliError};
        let code = args.source.script.as_deref().map(read_script).transpose()?;
        let schema = args.source.schema.as_deref().map(read).transpose()?;
        cli::run(
            code.as_deref(),
            schema.as_deref(),
            args.source.route.as_deref(),
            &args.fragment,
            args.trace,
            max_events,
            out,
        )
        .map_err(|error| match error {
            ScriptCliError::Io(error) => CliError::Io(error),
            other => CliError::Script(other.to_string()),
        })
    }

    #[cfg(feature = "script")]
    pub fn explore(flags: &ExploreFlags, out: &mut impl Write) -> Result<(), CliError> {
        use crate::script::explore::{compare_strategies, explore, parse_check, script_checks};
        use crate::script::source;
        let bad = |key: &str, message: String| {
            CliError::Script(format!("bad scenario: `{key}`: {message}"))
        };
        let checks = match flags.check.as_deref() {
            None => crate::explore::Check::SCRIPT_DEFAULT.to_vec(),
            Some(list) => list
                .split(',')
                .map(|name| {
                    parse_check(name.trim()).ok_or_else(|| {
                        bad(
                            "check",
                            format!("unknown check `{name}`; scripts accept {}", script_checks()),
                        )
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        let options = flags
            .options_with(checks)?
            .watching(&crate::explore::Check::SCRIPT);
        let (config, from_fragment) = source::parse(&flags.fragment)
            .map_err(|error| CliError::Script(format!("bad scenario: {error}")))?;
        let (code, source_piece) = match &flags.source.script {
            Some(path) => (read_script(path)?, None),
            None => {
                let code = from_fragment
                    .text()
                    .map_err(|error| CliError::Script(format!("bad scenario: {error}")))?
                    .ok_or_else(|| {
                        bad(
                            "code",
                            "no script; give --script FILE.js, code= or example=".into(),
                        )
                    })?;
                let piece = flags
                    .fragment
                    .rsplit('#')
                    .next()
                    .unwrap_or_default()
                    .split('&')
                    .find(|piece| piece.starts_with("code=") || piece.starts_with("example="))
                    .map(str::to_string);
                (code, piece)
            }
        };
        let schema = match &flags.source.schema {
            Some(path) => Some(read(path)?),
            None => source::schema(&flags.fragment)
                .map_err(|error| CliError::Script(format!("bad scenario: {error}")))?,
        };
        let route = flags
            .source
            .route
            .clone()
            .or_else(|| source::route(&flags.fragment));
        // A counterexample's fragment keeps the route.
        let source_piece = source_piece.map(|piece| match &route {
            Some(route) => format!("{piece}&{}", source::route_piece(route)),
            None => piece,
        });
        let script_error = |error: crate::script::error::ScriptError| {
            CliError::Script(format!("bad script: {error}"))
        };
        let (schema, route) = (schema.as_deref(), route.as_deref());
        if flags.all_strategies {
            let rows = compare_strategies(&code, schema, route, &config, source_piece, &options)
                .map_err(script_error)?;
            return super::write_rows(&rows, &options, out);
        }
        let result =
            explore(&code, schema, route, &config, source_piece, &options).map_err(script_error)?;
        super::write_line(out, &super::ExploreLine::of(&result, &options))
    }

    /// A script's code, schema and route: the flags' files and route, else
    /// the fragment's `code=`/`example=`, `schema=` (or the example's) and
    /// `route=`.
    #[cfg(feature = "script")]
    fn parts(
        flags: &ScriptFlags,
        fragment: &str,
    ) -> Result<(String, Option<String>, Option<String>), CliError> {
        use crate::script::source;
        let bad = |error: String| CliError::Script(format!("bad scenario: {error}"));
        let (_, from_fragment) = source::parse(fragment).map_err(|e| bad(e.to_string()))?;
        let code = match &flags.script {
            Some(path) => read_script(path)?,
            None => from_fragment
                .text()
                .map_err(|e| bad(e.to_string()))?
                .ok_or_else(|| {
                    bad(
                        "`code`: no script; give --script FILE.js, code=<lz-string> or \
                         example=NAME"
                            .to_string(),
                    )
                })?,
        };
        let schema = match &flags.schema {
            Some(path) => Some(read(path)?),
            None => source::schema(fragment).map_err(|e| bad(e.to_string()))?,
        };
        let route = flags.route.clone().or_else(|| source::route(fragment));
        Ok((code, schema, route))
    }

    /// `interleave real` with a script: replayed on the real servers.
    #[cfg(all(feature = "script", scripts))]
    pub fn real(
        args: &RealArgs,
        options: &crate::real::RealOptions,
        out: &mut impl Write,
    ) -> Result<(), CliError> {
        let (code, schema, route) = parts(&args.source, &args.fragment)?;
        let input = crate::real::script::ScriptInput {
            code: &code,
            schema: schema.as_deref(),
            route: route.as_deref(),
            fragment: &args.fragment,
        };
        let report = crate::real::script::run(&input, options).map_err(|error| {
            match error.starts_with("bad ") {
                true => CliError::Script(error),
                false => CliError::Real(error),
            }
        })?;
        serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
        writeln!(out)?;
        Ok(())
    }

    #[cfg(not(all(feature = "script", scripts)))]
    pub fn real(
        _: &RealArgs,
        _: &crate::real::RealOptions,
        _: &mut impl Write,
    ) -> Result<(), CliError> {
        Err(CliError::Script(
            "this build has no script engine (cargo feature `script`)".into(),
        ))
    }

    /// The recording `interleave explain` tells, for a script: `--script`
    /// (with `--schema` and `--route`, else the fragment's), or the
    /// fragment's `code=`/`example=`.
    #[cfg(feature = "script")]
    pub fn recording(args: &ExplainArgs) -> Result<crate::debugger::Recording, CliError> {
        use crate::debugger::program::{edited_script, parse_lenient};
        use crate::script::source;
        let bad = |error: String| CliError::Script(format!("bad scenario: {error}"));
        let (config, program) = match &args.source.script {
            Some(_) => {
                let (code, schema, route) = parts(&args.source, &args.fragment)?;
                let (config, _) = source::parse(&args.fragment).map_err(|e| bad(e.to_string()))?;
                let program = edited_script(&code, schema.as_deref(), route.as_deref());
                (config, program)
            }
            None => {
                let (config, program, errors) = parse_lenient(&args.fragment);
                if let Some(error) = errors.first() {
                    return Err(bad(error.to_string()));
                }
                (config, program)
            }
        };
        crate::debugger::Recording::of_program(&program, &config)
            .map_err(|error| CliError::Script(format!("bad script: {error}")))
    }

    #[cfg(not(feature = "script"))]
    pub fn recording(_: &ExplainArgs) -> Result<crate::debugger::Recording, CliError> {
        Err(CliError::Script(
            "this build has no script engine (cargo feature `script`)".into(),
        ))
    }

    #[cfg(not(feature = "script"))]
    pub fn explore(_: &ExploreFlags, _: &mut impl Write) -> Result<(), CliError> {
        Err(CliError::Script(
            "this build has no script engine (cargo feature `script`)".into(),
        ))
    }

    #[cfg(feature = "script")]
    pub fn encode(path: &Path, out: &mut impl Write) -> Result<(), CliError> {
        let code = read(path)?;
        crate::script::cli::encode(&code, out).map_err(|error| CliError::Script(error.to_string()))
    }

    #[cfg(not(feature = "script"))]
    pub fn run(_: &RunArgs, _: u64, _: &mut impl Write) -> Result<(), CliError> {
        Err(CliError::Script(
            "this build has no script engine (cargo feature `script`)".into(),
        ))
    }

    #[cfg(not(feature = "script"))]
    pub fn encode(path: &Path, _: &mut impl Write) -> Result<(), CliError> {
        read(path).and(Err(CliError::Script(
            "this build has no script engine (cargo feature `script`)".into(),
        )))
    }
}

fn run(fragment: &str, trace: bool, max_events: u64, out: &mut impl Write) -> Result<(), CliError> {
    let config = parse_fragment(fragment).map_err(CliError::Config)?;
    let mut run = if trace {
        crate::run::ScheduledSim::story(&config)
    } else {
        crate::run::ScheduledSim::story_metrics_only(&config)
    };
    run.skip_load_log();
    run.fold_polls();
    let done = run
        .run_for(max_events)
        .map_err(|error| CliError::Config(error.into()))?;
    if !done {
        return Err(CliError::Budget { max_events });
    }
    let sim = run.into_sim();
    let metrics = sim.metrics();
    if trace {
        let listing = crate::scenario::listing::Listing::of(&config);
        for event in sim.trace().events() {
            let line = TraceLine {
                line: listing.line_of(event.site).map(|line| line as u32),
                ..TraceLine::of(event, event.key.describe(config.scenario))
            };
            writeln!(out, "{}", line.to_json())?;
        }
    }
    // A one-shot process: the OS takes the run's memory back at exit, so
    // freeing 100,000 requests' state one by one first is wasted time.
    std::mem::forget(sim);
    write_line(out, &metrics)
}

fn write_line(out: &mut impl Write, value: &impl Serialize) -> Result<(), CliError> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

fn run_real(args: &RealArgs, out: &mut impl Write) -> Result<(), CliError> {
    use crate::real::cache::CacheServer;
    let script = args.source.script.is_some() || is_script(&args.fragment);
    if !script {
        parse_fragment(&args.fragment).map_err(CliError::Config)?;
    }
    let cache = match args.cache.as_deref() {
        None => None,
        Some("memcached") => Some(CacheServer::Memcached),
        Some("redis") => Some(CacheServer::Redis),
        Some(other) => {
            return Err(CliError::Usage(format!(
                "--cache: expected memcached or redis, got {other:?}"
            )))
        }
    };
    let options = crate::real::RealOptions {
        trials: args.trials,
        postgres: args.postgres.clone(),
        redis: args.redis.clone(),
        memcached: args.memcached.clone(),
        cache,
        max_jitter: args.jitter_us,
        free: args.free,
        ..crate::real::RealOptions::default()
    };
    if script {
        return script_command::real(args, &options, out);
    }
    let report = crate::real::run(&args.fragment, &options).map_err(CliError::Real)?;
    serde_json::to_writer(&mut *out, &report).map_err(io::Error::from)?;
    writeln!(out)?;
    Ok(())
}
