//! The explore panel's job: one search, or the same search under every
//! strategy (the per-strategy table), advanced in chunks by the browser.

use crate::config::{Config, StrategyKind};
use crate::debugger::program::Program;
use crate::explore::{ExploreOptions, ExploreResult, Explorer, Progress, StrategyRow};

pub struct SearchJob {
    config: Config,
    program: Program,
    options: ExploreOptions,
    /// Strategies still to search, in order.
    queue: Vec<StrategyKind>,
    current: Option<(StrategyKind, Explorer)>,
    pub rows: Vec<StrategyRow>,
}

impl SearchJob {
    /// Searches `config` as it is.
    pub fn one(program: &Program, config: &Config, options: ExploreOptions) -> SearchJob {
        SearchJob::of(program, config, options, vec![config.strategy])
    }

    /// Searches `config` under every strategy.
    pub fn every_strategy(
        program: &Program,
        config: &Config,
        options: ExploreOptions,
    ) -> SearchJob {
        SearchJob::of(program, config, options, StrategyKind::ALL.to_vec())
    }

    fn of(
        program: &Program,
        config: &Config,
        options: ExploreOptions,
        mut queue: Vec<StrategyKind>,
    ) -> SearchJob {
        queue.reverse();
        let mut job = SearchJob {
            config: config.clone(),
            program: program.clone(),
            options,
            queue,
            current: None,
            rows: Vec::new(),
        };
        job.start_next();
        job
    }

    pub fn options(&self) -> &ExploreOptions {
        &self.options
    }

    pub fn is_done(&self) -> bool {
        self.current.is_none() && self.queue.is_empty()
    }

    /// Runs at most `runs` more schedules; true once every search is done.
    /// The next strategy's search starts as soon as one ends, so a search
    /// is running until all are done.
    pub fn advance(&mut self, runs: u64) -> bool {
        self.start_next();
        let Some((strategy, explorer)) = self.current.as_mut() else {
            return true;
        };
        if explorer.run_for(runs).done {
            let row = StrategyRow {
                strategy: *strategy,
                result: explorer.result(),
            };
            self.rows.push(row);
            self.current = None;
            self.start_next();
        }
        self.is_done()
    }

    fn start_next(&mut self) {
        if self.current.is_some() {
            return;
        }
        while let Some(strategy) = self.queue.pop() {
            let mut config = self.config.clone();
            config.strategy = strategy;
            // A script that does not load under a strategy is not searched.
            if let Ok(subject) = self.program.subject(&config) {
                self.current = Some((strategy, Explorer::of(subject, self.options.clone())));
                return;
            }
        }
    }

    /// The running search's progress and strategy, if one is running.
    pub fn running(&self) -> Option<(StrategyKind, Progress, f64)> {
        let (strategy, explorer) = self.current.as_ref()?;
        Some((*strategy, explorer.progress(), explorer.fraction()))
    }

    /// Searches finished out of all.
    pub fn counts(&self) -> (usize, usize) {
        let total = self.rows.len() + self.queue.len() + usize::from(self.current.is_some());
        (self.rows.len(), total)
    }

    /// The result of a single search, once done.
    pub fn result(&self) -> Option<&ExploreResult> {
        match self.rows.as_slice() {
            [row] if self.is_done() => Some(&row.result),
            _ => None,
        }
    }
}
