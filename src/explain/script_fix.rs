//! A script's fix: the first lock strategy under which the same script,
//! run the same way, shows none of the harm (a duplicate row, two holders
//! of a critical section), found by running it. The built-in stories'
//! fixes (`fix.rs`) change keys their listings know; a script's code is
//! its own, so its fix is a strategy for its `guard`/`lock` calls.

use crate::config::{Config, Schedule, StrategyKind};
use crate::debugger::program::Program;
use crate::explain::fix::Fix;
use crate::sim::Metrics;

/// The strategies tried, best first, with what each means.
const CANDIDATES: [(StrategyKind, &str); 5] = [
    (
        StrategyKind::KeyedMutex,
        "an async mutex per key in each server",
    ),
    (
        StrategyKind::Add,
        "a lock taken with the cache's atomic add",
    ),
    (
        StrategyKind::SingleFlight,
        "one call per key, its result shared",
    ),
    (StrategyKind::TicketLock, "a polling ticket lock per key"),
    (StrategyKind::EmitterLock, "an EventEmitter lock per key"),
];

/// Most macrotasks a fix's run may take (a polling lock can take many).
const MAX_STEPS: u32 = 200_000;

/// Whether a finished run shows a script's harm.
pub fn harmed(metrics: &Metrics) -> bool {
    metrics.duplicate_tickets > 0 || metrics.max_in_critical_section > 1
}

/// The fix for a run of `program` on `config` with `metrics`, if it was
/// harmed and a strategy clears the harm without failing or hanging a
/// request.
pub fn script_fix(program: &Program, config: &Config, metrics: &Metrics) -> Option<Fix> {
    if !harmed(metrics) {
        return None;
    }
    CANDIDATES
        .iter()
        .filter(|(strategy, _)| *strategy != config.strategy)
        .find_map(|&(strategy, meaning)| {
            let mut fixed = config.clone();
            fixed.strategy = strategy;
            fixed.schedule = Schedule::default();
            let mut run = program.start(&fixed, false).ok()?;
            if !run.run_for(u64::from(MAX_STEPS)).ok()? {
                return None;
            }
            let m = run.metrics();
            if harmed(&m) || m.errors > metrics.errors || m.hung > 0 {
                return None;
            }
            let outcome = format!(
                "{} duplicate rows, at most {} in the critical section, {} errors",
                m.duplicate_tickets, m.max_in_critical_section, m.errors
            );
            Some(Fix {
                key: "strategy".to_string(),
                value: strategy.name().to_string(),
                meaning: meaning.to_string(),
                fragment: program.fragment(&fixed),
                same_schedule: false,
                text: format!("with `strategy={}` ({meaning}): {outcome}", strategy.name()),
                outcome,
                metrics: m,
            })
        })
}
