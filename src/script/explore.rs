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

use std::cell::Cell;
use std::rc::Rc;

use crate::config::url::to_fragment;
use crate::config::{Config, Micros, Schedule, StrategyKind};
use crate::explore::check::{violations, Check, Observation};
use crate::explore::search::{ExploreOptions, ExploreResult, ExploreRun, Explorer, StrategyRow};
use crate::explore::Subject;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::Footprint;

use super::analysis::module_state;
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
    /// `analysis::module_state` proved the script keeps no module state:
    /// steps of one server are dependent only through their footprints.
    no_module_state: bool,
    /// A run saw a global appear or vanish after load, which the proof
    /// excludes: the search must be done again without it.
    broken: Rc<Cell<bool>>,
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
        let mut run = ScriptRun::new(code, &config, false)?;
        let (globals, added) = run.global_names();
        let single_flight = config.strategy == StrategyKind::SingleFlight;
        let no_module_state = module_state(code, single_flight, &globals, &added).is_none();
        Ok(ScriptSubject {
            code: code.to_string(),
            config,
            source_piece,
            no_module_state,
            broken: Rc::new(Cell::new(false)),
        })
    }

    /// Why steps of one server stay dependent, or `None` when the script
    /// provably keeps no module state.
    pub fn module_state_reason(code: &str, config: &Config) -> Result<Option<String>, ScriptError> {
        let mut config = config.clone();
        config.schedule = Schedule::default();
        let mut run = ScriptRun::new(code, &config, false)?;
        let (globals, added) = run.global_names();
        let single_flight = config.strategy == StrategyKind::SingleFlight;
        Ok(module_state(code, single_flight, &globals, &added))
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
        let mut watch = None;
        if footprints {
            run.track_footprints();
            if self.no_module_state {
                run.assume_no_module_state();
                watch = Some(self.broken.clone());
            }
        }
        Box::new(Explored(run, watch))
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn fragment(&self, config: &Config) -> String {
        let mut pieces: Vec<String> = to_fragment(config)
            .split('&')
            .map(|piece| match piece.split_once('=') {
                Some(("scenario", _)) => "scenario=script".to_string(),
                _ => piece.to_string(),
            })
            .collect();
        if let Some(piece) = &self.source_piece {
            let at = pieces.len().min(2);
            pieces.insert(at, piece.clone());
        }
        pieces.join("&")
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

/// A script run as the explorer drives it, with the flag to raise when a
/// step breaks the no-module-state proof (only when it is assumed).
struct Explored(ScriptRun, Option<Rc<Cell<bool>>>);

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
        if let Some(broken) = &self.1 {
            if self.0.globals_changed() {
                broken.set(true);
            }
        }
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
}

/// Searches `code` under `config` (its own schedule ignored).
pub fn explore(
    code: &str,
    config: &Config,
    source_piece: Option<String>,
    options: &ExploreOptions,
) -> Result<ExploreResult, ScriptError> {
    explore_with(code, config, source_piece, options, true)
}

/// `explore`, with `analysis`: whether to use the no-module-state proof
/// (false: every two steps of one server are dependent).
pub fn explore_with(
    code: &str,
    config: &Config,
    source_piece: Option<String>,
    options: &ExploreOptions,
    analysis: bool,
) -> Result<ExploreResult, ScriptError> {
    let mut subject = ScriptSubject::new(code, config, source_piece)?;
    subject.no_module_state &= analysis;
    let broken = subject.broken.clone();
    let subject = Rc::new(subject);
    let result = Explorer::of(subject.clone(), options.clone()).run();
    if !broken.get() {
        return Ok(result);
    }
    // A global appeared mid-run: the proof's assumption failed, so the
    // search pruned on a wrong relation. Search again without it.
    let mut subject = Rc::try_unwrap(subject).unwrap_or_else(|subject| ScriptSubject {
        code: subject.code.clone(),
        config: subject.config.clone(),
        source_piece: subject.source_piece.clone(),
        no_module_state: false,
        broken: Rc::new(Cell::new(false)),
    });
    subject.no_module_state = false;
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
