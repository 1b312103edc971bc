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

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::config::{Config, Schedule, StrategyKind};
use crate::explore::check::Check;
use crate::explore::search::{ExploreOptions, ExploreResult, Explorer, StrategyRow};
use crate::explore::Subject;
use crate::run::Run;

use super::analysis::module_state;
use super::error::ScriptError;
use super::host::Loaded;
use super::run::{FootprintNames, Realms, ScriptRun};
use super::source;

/// Parses one of a script's checks (`Check::SCRIPT`).
pub fn parse_check(name: &str) -> Option<Check> {
    Check::SCRIPT.into_iter().find(|check| check.name() == name)
}

/// The checks a script accepts, for messages: "duplicates, exclusion, …".
pub fn script_checks() -> String {
    Check::SCRIPT.map(Check::name).join(", ")
}

/// A script under one config: what the explorer searches.
pub struct ScriptSubject {
    code: String,
    /// The database's schema as SQL, if the script has one.
    schema: Option<String>,
    /// The route of its app the requests go to (`route=`), if chosen.
    route: Option<String>,
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
    /// With the proof: what the top level left, when runs may reuse the
    /// realms of finished runs (`ScriptRun::reuse`) instead of loading the
    /// script again; and the realms waiting for a run.
    loaded: Option<Loaded>,
    spare: Rc<RefCell<Vec<Realms>>>,
    /// The footprints' names, one id each in every run of the search.
    names: FootprintNames,
}

impl ScriptSubject {
    /// Loads `code` once under `config` (its schedule ignored) so a bad
    /// script fails here, not mid-search.
    pub fn new(
        code: &str,
        config: &Config,
        source_piece: Option<String>,
    ) -> Result<ScriptSubject, ScriptError> {
        ScriptSubject::with_schema(code, None, config, source_piece)
    }

    /// [`ScriptSubject::new`] for a script with a schema (docs/sql.md).
    pub fn with_schema(
        code: &str,
        schema: Option<&str>,
        config: &Config,
        source_piece: Option<String>,
    ) -> Result<ScriptSubject, ScriptError> {
        ScriptSubject::with_route(code, schema, None, config, source_piece)
    }

    /// [`ScriptSubject::with_schema`] with the requests sent to `route` of
    /// the script's app (`ScriptRun::with_route`).
    pub fn with_route(
        code: &str,
        schema: Option<&str>,
        route: Option<&str>,
        config: &Config,
        source_piece: Option<String>,
    ) -> Result<ScriptSubject, ScriptError> {
        let analysed = Analysed::load(code, schema, route, config)?;
        let (mut run, config) = (analysed.run, analysed.config);
        let no_module_state = analysed.module_state.is_none();
        let loaded = if no_module_state { run.loaded() } else { None };
        let spare = Rc::new(RefCell::new(Vec::new()));
        if loaded.is_some() {
            spare.borrow_mut().push(run.take_realms());
        }
        Ok(ScriptSubject {
            code: analysed.code,
            schema: schema.map(str::to_string),
            route: route.map(str::to_string),
            config,
            source_piece,
            no_module_state,
            broken: Rc::new(Cell::new(false)),
            loaded,
            spare,
            names: FootprintNames::default(),
        })
    }

    /// Every run loads the script again (no realm reused), for tests.
    pub fn without_reuse(mut self) -> Self {
        self.loaded = None;
        self.spare.borrow_mut().clear();
        self
    }

    /// Why steps of one server stay dependent, or `None` when the script
    /// provably keeps no module state.
    pub fn module_state_reason(code: &str, config: &Config) -> Result<Option<String>, ScriptError> {
        Ok(Analysed::load(code, None, None, config)?.module_state)
    }

    fn run(&self) -> ScriptRun {
        // The script loaded under this config in `new`, and loading is
        // deterministic (virtual time, no I/O).
        let (schema, route) = (self.schema.as_deref(), self.route.as_deref());
        match ScriptRun::from_javascript(&self.code, schema, route, &self.config, false) {
            Ok(run) => run,
            Err(error) => panic!("the script loaded once, then failed: {error}"),
        }
    }
}

/// A script loaded once under a config (its schedule ignored), and what
/// the analysis says of its module state.
struct Analysed {
    run: ScriptRun,
    config: Config,
    /// The JavaScript the analysis read (TypeScript is stripped once).
    code: String,
    /// Why steps of one server stay dependent; `None` when the script
    /// provably keeps no module state.
    module_state: Option<String>,
}

impl Analysed {
    fn load(
        code: &str,
        schema: Option<&str>,
        route: Option<&str>,
        config: &Config,
    ) -> Result<Analysed, ScriptError> {
        let mut config = config.clone();
        config.schedule = Schedule::default();
        let (mut run, stripped) = ScriptRun::load(code, schema, route, &config, false)?;
        let code = stripped.unwrap_or_else(|| code.to_string());
        let (globals, added) = run.global_names();
        let single_flight = config.strategy == StrategyKind::SingleFlight;
        let module_state = module_state(&code, single_flight, &globals, &added)?;
        Ok(Analysed {
            run,
            config,
            code,
            module_state,
        })
    }
}

impl Subject for ScriptSubject {
    fn start(&self, footprints: bool) -> Box<dyn Run> {
        // Realms are reused only under the proof and while the run-time
        // check (a global appearing) watches it.
        let reuse = footprints && self.no_module_state && !self.broken.get();
        let spare = match &self.loaded {
            Some(loaded) if reuse => self
                .spare
                .borrow_mut()
                .pop()
                .map(|realms| ScriptRun::reuse(realms, loaded, &self.config)),
            _ => None,
        };
        let mut run = spare.unwrap_or_else(|| self.run());
        if footprints {
            run.track_footprints(self.names.clone());
            if self.no_module_state {
                run.assume_no_module_state();
                run.watch_globals(self.broken.clone());
            }
        }
        if reuse && self.loaded.is_some() {
            run.give_realms_back(self.spare.clone());
        }
        Box::new(run)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn fragment(&self, config: &Config) -> String {
        let piece = self.source_piece.as_deref().unwrap_or_default();
        source::fragment(config, piece)
    }
}

/// Searches `code` under `config` (its own schedule ignored), its requests
/// sent to `route` of its app if given (`route=`).
pub fn explore(
    code: &str,
    schema: Option<&str>,
    route: Option<&str>,
    config: &Config,
    source_piece: Option<String>,
    options: &ExploreOptions,
) -> Result<ExploreResult, ScriptError> {
    explore_with(code, schema, route, config, source_piece, options, true)
}

/// `explore`, with `analysis`: whether to use the no-module-state proof
/// (false: every two steps of one server are dependent).
pub fn explore_with(
    code: &str,
    schema: Option<&str>,
    route: Option<&str>,
    config: &Config,
    source_piece: Option<String>,
    options: &ExploreOptions,
    analysis: bool,
) -> Result<ExploreResult, ScriptError> {
    let mut subject = ScriptSubject::with_route(code, schema, route, config, source_piece)?;
    if !analysis {
        subject.no_module_state = false;
        subject.loaded = None;
    }
    let broken = subject.broken.clone();
    let subject = Rc::new(subject);
    let result = Explorer::of(subject.clone(), options.clone()).run();
    if !broken.get() {
        return Ok(result);
    }
    // A global appeared mid-run: the proof's assumption failed, so the
    // search pruned on a wrong relation. Search again without it.
    let subject = ScriptSubject {
        code: subject.code.clone(),
        schema: subject.schema.clone(),
        route: subject.route.clone(),
        config: subject.config.clone(),
        source_piece: subject.source_piece.clone(),
        no_module_state: false,
        broken: Rc::new(Cell::new(false)),
        loaded: None,
        spare: Rc::new(RefCell::new(Vec::new())),
        names: FootprintNames::default(),
    };
    Ok(Explorer::of(Rc::new(subject), options.clone()).run())
}

/// Searches `code` under every strategy, one after another.
pub fn compare_strategies(
    code: &str,
    schema: Option<&str>,
    route: Option<&str>,
    config: &Config,
    source_piece: Option<String>,
    options: &ExploreOptions,
) -> Result<Vec<StrategyRow>, ScriptError> {
    StrategyKind::ALL
        .into_iter()
        .map(|strategy| {
            let mut config = config.clone();
            config.strategy = strategy;
            let result = explore(code, schema, route, &config, source_piece.clone(), options)?;
            Ok(StrategyRow { strategy, result })
        })
        .collect()
}
