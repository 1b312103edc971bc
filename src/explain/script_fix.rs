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
            let outcome = outcome_text(metrics, &m);
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

/// The fixed run's outcome beside the harmed one's, in the script's terms:
/// duplicate rows only where the run had some (a script without
/// `expectUnique` has none to show), holders, DB reads where the fix saved
/// some (a stampede's), errors, and the p99 latency the lock costs.
fn outcome_text(before: &Metrics, after: &Metrics) -> String {
    let was = |now: u64, then: u64| match now == then {
        true => String::new(),
        false => format!(" (was {then})"),
    };
    let mut parts = Vec::new();
    if before.duplicate_tickets > 0 {
        parts.push(format!(
            "{} duplicate rows{}",
            after.duplicate_tickets,
            was(after.duplicate_tickets, before.duplicate_tickets)
        ));
    }
    parts.push(format!(
        "at most {} in the critical section{}",
        after.max_in_critical_section,
        was(
            after.max_in_critical_section,
            before.max_in_critical_section
        )
    ));
    if after.db_reads < before.db_reads {
        parts.push(format!(
            "{} DB {}{}",
            after.db_reads,
            if after.db_reads == 1 { "read" } else { "reads" },
            was(after.db_reads, before.db_reads)
        ));
    }
    let plural = if after.errors == 1 { "" } else { "s" };
    parts.push(format!("{} error{plural}", after.errors));
    parts.push(crate::explain::fix::cost_text(before, after));
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(holders: u64, duplicates: u64, db_reads: u64, p99: u64) -> Metrics {
        let mut m = Metrics {
            max_in_critical_section: holders,
            duplicate_tickets: duplicates,
            db_reads,
            ..Metrics::default()
        };
        m.latency_us.p99 = p99;
        m
    }

    #[test]
    fn the_outcome_names_only_the_harm_the_run_had() {
        // A stampede: no rows to duplicate, loads saved.
        assert_eq!(
            outcome_text(&metrics(20, 0, 20, 22_000), &metrics(1, 0, 1, 42_000)),
            "at most 1 in the critical section (was 20), 1 DB read (was 20), 0 errors, \
             p99 42 ms (was 22 ms)"
        );
        // A ticket: duplicate rows, the same reads.
        assert_eq!(
            outcome_text(&metrics(2, 2, 4, 40_000), &metrics(1, 0, 4, 60_500)),
            "0 duplicate rows (was 2), at most 1 in the critical section (was 2), 0 errors, \
             p99 60.5 ms (was 40 ms)"
        );
    }
}
