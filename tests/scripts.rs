//! Scripted scenarios (SCRIPTING.md): the shipped examples against the
//! built-in stories, and hand-worked counts for the globals.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use interleave::config::url::parse_fragment;
use interleave::script::source::{self, example};
use interleave::script::ScriptRun;
use interleave::sim::{Metrics, Sim};

const BUDGET: u64 = 10_000_000;

fn run_script(code: &str, fragment: &str) -> (Metrics, ScriptRun) {
    let (config, _) = source::parse(fragment).expect("a good fragment");
    let mut run = ScriptRun::new(code, &config, true).expect("a good script");
    assert!(run.run(BUDGET), "the run ended by itself");
    (run.metrics(), run)
}

/// The normative metrics of DESIGN.md §5 that a script must reproduce.
fn normative(m: &Metrics) -> [(&'static str, u64); 11] {
    [
        ("db_reads", m.db_reads),
        ("db_writes", m.db_writes),
        ("orders", m.orders),
        ("duplicate_tickets", m.duplicate_tickets),
        ("cache_hits", m.cache_hits),
        ("cache_misses", m.cache_misses),
        ("stale_served", m.stale_served),
        ("timeouts", m.timeouts),
        ("errors", m.errors),
        ("lock_wakeups", m.lock_wakeups),
        ("max_in_critical_section", m.max_in_critical_section),
    ]
}

fn builtin(fragment: &str) -> Metrics {
    let config = parse_fragment(fragment).expect("a good fragment");
    Sim::new(&config).run()
}

#[test]
fn ticket_script_matches_the_builtin_ticket_on_one_fragment() {
    let fragment = "users=2&clicks=2&strategy=none";
    let (script, _) = run_script(
        example("ticket").unwrap(),
        &format!("scenario=script&{fragment}"),
    );
    let expected = builtin(&format!("scenario=ticket&{fragment}"));
    assert_eq!(normative(&script), normative(&expected));
}
