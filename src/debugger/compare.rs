//! The compare table: the same scenario and seed under every strategy,
//! computed in chunks so a big scenario does not freeze the page.

use crate::config::{Config, StrategyKind};
use crate::sim::{Metrics, Sim};

/// Most macrotasks one strategy's run may take in the compare table (a
/// polling lock on a huge scenario can take billions).
pub const MAX_COMPARE_EVENTS: u64 = 2_000_000;

#[derive(Clone, Debug, PartialEq)]
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
    next: usize,
    running: Option<Sim>,
    /// Work of the strategies already run (see [`Sim::work`]).
    work_done: u64,
    pub rows: Vec<CompareRow>,
}

impl Compare {
    /// Each strategy runs in the default order: a manual or explored
    /// schedule belongs to one strategy's choice points.
    pub fn new(config: &Config) -> Compare {
        let mut config = config.clone();
        config.schedule = Default::default();
        Compare {
            config,
            next: 0,
            running: None,
            work_done: 0,
            rows: Vec::new(),
        }
    }

    /// Engine work so far, over every strategy (see [`Sim::work`]).
    pub fn work(&self) -> u64 {
        self.work_done + self.running.as_ref().map_or(0, Sim::work)
    }

    pub fn is_done(&self) -> bool {
        self.next >= StrategyKind::ALL.len() && self.running.is_none()
    }

    /// Runs at most `budget` macrotasks; true once every strategy has run.
    pub fn advance(&mut self, mut budget: u64) -> bool {
        while budget > 0 && !self.is_done() {
            let sim = self.running.get_or_insert_with(|| {
                let mut config = self.config.clone();
                config.strategy = StrategyKind::ALL[self.next];
                Sim::metrics_only(&config)
            });
            let before = u64::from(sim.steps());
            let left = MAX_COMPARE_EVENTS - before;
            let done = sim.run_for(budget.min(left));
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
