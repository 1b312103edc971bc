//! Explore mode on scripts: the built-in explorer (`explore::search`: DFS
//! with sleep sets, random walks, PCT, the preemption bound) driving script
//! runs, each replayed from the start.
//!
//! Independence: two enabled events commute only if they belong to
//! different app servers (a script's module state is per server, and every
//! step that runs JavaScript writes its server's realm) and their world
//! footprints are disjoint (the cache keys and DB tables the completion
//! they deliver reads or writes, the lock keys and sections of the
//! strategies, the DB pool when bounded, and the clock order). Otherwise
//! they are dependent. `reduction: false` gives the naive search, where
//! every pair is dependent.

use std::rc::Rc;

use crate::config::{Config, Micros, Schedule, StrategyKind};
use crate::explore::check::{violations, Check, Observation};
use crate::explore::search::{ExploreOptions, ExploreResult, ExploreRun, Explorer, StrategyRow};
use crate::explore::Subject;
use crate::sim::choice::{label, request_of, who};
use crate::sim::executor::describe;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::{Choice, Footprint, TaskInfo};

use super::error::ScriptError;
use super::run::ScriptRun;

/// The checks a script accepts: `duplicates`, `exclusion`, `errors`.
pub const SCRIPT_CHECKS: &str = "duplicates, exclusion, errors";

/// Parses one of a script's checks.
pub fn parse_check(name: &str) -> Option<Check> {
    match name {
        "duplicates" => Some(Check::Duplicates),
        "exclusion" => Some(Check::Exclusion),
        "errors" => Some(Check::Errors),
        _ => None,
    }
}

/// A script under one config: what the explorer searches.
pub struct ScriptSubject {
    code: String,
    config: Config,
    /// The fragment's `code=` or `example=` piece, kept in a
    /// counterexample's fragment (none for `--script FILE.js`).
    source_piece: Option<String>,
}

impl ScriptSubject {
    /// Loads `code` once under `config` (its schedule ignored) so a bad
    /// script fails here, not mid-search.
    pub fn new(
        code: &str,
        config: &Config,
        source_piece: Option<String>,
    ) -> Result<ScriptSubject, ScriptError> {
        let mut config = config.clone();
        config.schedule = Schedule::default();
        ScriptRun::new(code, &config, false)?;
        Ok(ScriptSubject {
            code: code.to_string(),
            config,
            source_piece,
        })
    }

    fn run(&self, config: &Config) -> ScriptRun {
        // The script loaded under this config in `new`, and loading is
        // deterministic (virtual time, no I/O).
        match ScriptRun::new(&self.code, config, false) {
            Ok(run) => run,
            Err(error) => panic!("the script loaded once, then failed: {error}"),
        }
    }
}

impl Subject for ScriptSubject {
    fn start(&self, footprints: bool) -> Box<dyn ExploreRun> {
        let mut run = self.run(&self.config);
        if footprints {
            run.track_footprints();
        }
        Box::new(Explored(run))
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn fragment(&self, config: &Config) -> String {
        let piece = self.source_piece.as_deref().unwrap_or_default();
        crate::debugger::program::script_fragment(config, piece)
    }

    fn violation_step(&self, config: &Config, violated: &[Check], steps: u32) -> u32 {
        let mut run = self.run(config);
        while !run.is_done() && run.steps() < steps {
            if !violations(violated, &observe(&run)).is_empty() || !run.step() {
                break;
            }
        }
        run.steps().min(steps)
    }
}

/// What a script run is judged on (no per-key load log: `db-reads` is a
/// built-in story's check).
fn observe(run: &ScriptRun) -> Observation {
    Observation {
        metrics: run.metrics(),
        redundant_db_reads: 0,
    }
}

/// A script run as the explorer drives it.
struct Explored(ScriptRun);

impl ExploreRun for Explored {
    fn steps(&self) -> u32 {
        self.0.steps()
    }

    /// Nothing once every request has answered and no operation is in
    /// flight: a pending timer (an interval) does not keep the run going.
    fn enabled_pending(&self) -> Vec<Pending> {
        if self.0.unsettled() == 0 && self.0.is_done() {
            return Vec::new();
        }
        self.0.enabled_pending()
    }

    fn step_pending(&mut self, due: Micros, seq: u64) {
        self.0.step_pending(due, seq);
    }

    fn take_footprint(&mut self) -> Footprint {
        self.0.take_footprint()
    }

    fn request_count(&self) -> usize {
        self.0.requests().len()
    }

    fn request_of(&self, task: Macrotask) -> u32 {
        self.0.request_of(task)
    }

    fn violations(&self, checks: &[Check]) -> Vec<Check> {
        violations(checks, &observe(&self.0))
    }

    fn trace_hash(&self) -> String {
        self.0.metrics().trace_hash
    }

    fn choices(&self) -> Vec<Choice> {
        let core = self.0.core();
        self.enabled_pending()
            .into_iter()
            .map(|pending| Choice {
                due: pending.due,
                seq: pending.seq,
                task: pending.task,
                request: request_of(&core, pending.task),
                label: label(&core, self.0.requests(), pending.task),
            })
            .collect()
    }

    fn describe(&self, task: Macrotask) -> TaskInfo {
        describe(&self.0.core(), task)
    }

    fn describe_request(&self, request: u32) -> String {
        who(self.0.requests(), request)
    }
}

/// Searches `code` under `config` (its own schedule ignored).
pub fn explore(
    code: &str,
    config: &Config,
    source_piece: Option<String>,
    options: &ExploreOptions,
) -> Result<ExploreResult, ScriptError> {
    let subject = ScriptSubject::new(code, config, source_piece)?;
    Ok(Explorer::of(Rc::new(subject), options.clone()).run())
}

/// Searches `code` under every strategy, one after another.
pub fn compare_strategies(
    code: &str,
    config: &Config,
    source_piece: Option<String>,
    options: &ExploreOptions,
) -> Result<Vec<StrategyRow>, ScriptError> {
    StrategyKind::ALL
        .into_iter()
        .map(|strategy| {
            let mut config = config.clone();
            config.strategy = strategy;
            let result = explore(code, &config, source_piece.clone(), options)?;
            Ok(StrategyRow { strategy, result })
        })
        .collect()
}
