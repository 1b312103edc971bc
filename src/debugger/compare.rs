//! The compare table: the same scenario and seed under every strategy,
//! computed in chunks so a big scenario does not freeze the page.

use crate::config::{Config, StrategyKind};
use crate::debugger::program::Program;
use crate::run::{Run, Scheduled};
use crate::sim::Metrics;

/// Most macrotasks one strategy's run may take in the compare table (a
/// polling lock on a huge scenario can take billions).
pub const MAX_COMPARE_EVENTS: u64 = 2_000_000;

/// Most requests the compare table runs: a request is at least two
/// macrotasks (its arrival and its answer; single-flight's whole herd is
/// that and two more), so above this no strategy's run could finish within
/// [`MAX_COMPARE_EVENTS`], and every row would be a lower bound of little
/// use (a 1,000,000-request stampede's were all "≥ 0", after a minute of
/// work).
pub const MAX_COMPARE_REQUESTS: u64 = MAX_COMPARE_EVENTS / 2 - 1;

/// Whether the compare table runs `config`'s scenario.
pub fn compares(config: &Config) -> bool {
    config.total_requests() <= MAX_COMPARE_REQUESTS
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CompareRow {
    pub strategy: StrategyKind,
    pub metrics: Metrics,
    /// False when the run was cut at [`MAX_COMPARE_EVENTS`] (the metrics
    /// are partial).
    pub complete: bool,
}

/// Runs `config` under each strategy in turn, metrics only.
pub struct Compare {
    config: Config,
    program: Program,
    next: usize,
    running: Option<Scheduled<dyn Run>>,
    /// Work of the strategies already run (see [`crate::Sim::work`]).
    work_done: u64,
    pub rows: Vec<CompareRow>,
}

impl Compare {
    /// Each strategy runs in the default order: a manual or explored
    /// schedule belongs to one strategy's choice points.
    pub fn new(config: &Config) -> Compare {
        Compare::of_program(&Program::Story, config)
    }

    /// Runs `program` under each strategy (a script that fails to load
    /// under one gets no row).
    pub fn of_program(program: &Program, config: &Config) -> Compare {
        let mut config = config.clone();
        config.schedule = Default::default();
        Compare {
            config,
            program: program.clone(),
            next: 0,
            running: None,
            work_done: 0,
            rows: Vec::new(),
        }
    }

    /// Engine work so far, over every strategy (see [`crate::Sim::work`]).
    pub fn work(&self) -> u64 {
        self.work_done + self.running.as_ref().map_or(0, |run| run.work())
    }

    pub fn is_done(&self) -> bool {
        self.next >= StrategyKind::ALL.len() && self.running.is_none()
    }

    /// Runs at most `budget` macrotasks; true once every strategy has run.
    pub fn advance(&mut self, mut budget: u64) -> bool {
        while budget > 0 && !self.is_done() {
            if self.running.is_none() {
                let mut config = self.config.clone();
                config.strategy = StrategyKind::ALL[self.next];
                match self.program.start(&config, false) {
                    Ok(run) => self.running = Some(run),
                    Err(_) => {
                        self.next += 1;
                        continue;
                    }
                }
            }
            let sim = self.running.as_mut().expect("started above");
            let before = u64::from(sim.steps());
            let left = MAX_COMPARE_EVENTS - before;
            // The default order has no schedule to misfit.
            let done = sim.run_for(budget.min(left)).unwrap_or(true);
            let ran = u64::from(sim.steps()) - before;
            budget = budget.saturating_sub(ran);
            let cut = !done && ran == left;
            if done || cut {
                self.rows.push(CompareRow {
                    strategy: StrategyKind::ALL[self.next],
                    metrics: sim.metrics(),
                    complete: done,
                });
                self.work_done += sim.work();
                self.running = None;
                self.next += 1;
            }
        }
        self.is_done()
    }
}
