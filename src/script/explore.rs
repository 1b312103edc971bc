//! Explore mode on scripts: a depth-first search over the choice points of
//! a script run (which enabled event runs next), replaying each schedule
//! from the start. Two events of one server may interact through the
//! script's module state, so no pair of events is assumed independent:
//! this is the naive search (no sleep sets), bounded by a number of
//! schedules and, optionally, of preemptions (non-default choices).

use serde::Serialize;

use crate::config::{Config, Schedule};

use super::error::ScriptError;
use super::run::ScriptRun;

/// What a schedule must not do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptCheck {
    /// No `expectUnique` group has two rows.
    Duplicates,
    /// No two holders of one key's critical section at once.
    Exclusion,
    /// No request fails.
    Errors,
}

impl ScriptCheck {
    pub fn parse(name: &str) -> Option<ScriptCheck> {
        match name {
            "duplicates" => Some(ScriptCheck::Duplicates),
            "exclusion" => Some(ScriptCheck::Exclusion),
            "errors" => Some(ScriptCheck::Errors),
            _ => None,
        }
    }

    fn violated(self, run: &ScriptRun) -> bool {
        let metrics = run.metrics();
        match self {
            ScriptCheck::Duplicates => metrics.duplicate_tickets > 0,
            ScriptCheck::Exclusion => metrics.max_in_critical_section > 1,
            ScriptCheck::Errors => metrics.errors > 0,
        }
    }
}

#[derive(Clone, Debug)]
pub struct ScriptExploreOptions {
    pub checks: Vec<ScriptCheck>,
    pub max_schedules: u64,
    /// Most non-default choices per schedule (`None`: unbounded).
    pub max_preemptions: Option<u32>,
    /// Each run's macrotask budget (a timer that keeps firing).
    pub max_events: u64,
}

/// The search's answer, in the CLI's `explore` shape.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ScriptExploreResult {
    pub explored: u64,
    pub violating: u64,
    /// Every schedule was run (within the preemption bound, if any).
    pub complete: bool,
    /// The first violating schedule found (`schedule=` spelling), if any.
    pub counterexample: Option<String>,
    pub preemption_bound: Option<u32>,
    pub complete_within_bound: bool,
}

/// Runs the search on `code` under `config` (its own schedule ignored).
pub fn explore(
    code: &str,
    config: &Config,
    options: &ScriptExploreOptions,
) -> Result<ScriptExploreResult, ScriptError> {
    let mut prefix: Vec<u32> = Vec::new();
    let mut explored = 0;
    let mut violating = 0;
    let mut counterexample: Option<Vec<u32>> = None;
    let mut exhausted = false;
    let mut pruned = false;
    while explored < options.max_schedules {
        let mut config = config.clone();
        config.schedule = Schedule::new(prefix.clone());
        let mut run = ScriptRun::new(code, &config, false)?;
        run.record_points = true;
        run.run(options.max_events);
        explored += 1;
        // The choices this schedule took: the prefix, then the defaults.
        let mut taken = prefix.clone();
        taken.resize(run.points.len(), 0);
        if options.checks.iter().any(|check| check.violated(&run)) {
            violating += 1;
            let shorter = counterexample
                .as_ref()
                .is_none_or(|best| trimmed(&taken).len() < trimmed(best).len());
            if shorter {
                counterexample = Some(taken.clone());
            }
        }
        // Backtrack: the deepest point with an untried choice in bound.
        let preemptions = |choices: &[u32]| choices.iter().filter(|&&c| c != 0).count() as u32;
        let mut next = None;
        for depth in (0..run.points.len()).rev() {
            let choice = taken[depth] + 1;
            if choice >= run.points[depth] {
                continue;
            }
            let mut candidate = taken[..depth].to_vec();
            candidate.push(choice);
            if options
                .max_preemptions
                .is_some_and(|bound| preemptions(&candidate) > bound)
            {
                pruned = true;
                continue;
            }
            next = Some(candidate);
            break;
        }
        match next {
            Some(candidate) => prefix = candidate,
            None => {
                exhausted = true;
                break;
            }
        }
    }
    Ok(ScriptExploreResult {
        explored,
        violating,
        complete: exhausted && !pruned,
        counterexample: counterexample.map(|choices| Schedule::new(trimmed(&choices)).to_string()),
        preemption_bound: options.max_preemptions,
        complete_within_bound: exhausted,
    })
}

/// Trailing default choices add nothing to a schedule.
fn trimmed(choices: &[u32]) -> Vec<u32> {
    let end = choices.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
    choices[..end].to_vec()
}
