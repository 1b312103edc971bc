//! Explore mode's collapse of polling waits (docs/explore.md, "Polling
//! waits") against the naive search.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use interleave_engine::config::url::parse_fragment;
use interleave_engine::config::Config;
use interleave_engine::explore::{Check, ExploreOptions, ExploreResult, Explorer, Observation};
use interleave_engine::run::replay;

fn config(fragment: &str) -> Config {
    parse_fragment(fragment).expect("a good fragment")
}

fn options(checks: &[Check]) -> ExploreOptions {
    ExploreOptions::new(checks.to_vec())
}

fn explore(fragment: &str, checks: &[Check]) -> ExploreResult {
    Explorer::new(&config(fragment), options(checks)).run()
}

/// The counterexample replays (from its fragment) to a run that violates.
fn assert_replays_to_violation(result: &ExploreResult, checks: &[Check]) {
    let counterexample = result.counterexample.as_ref().expect("a counterexample");
    let config = parse_fragment(&counterexample.fragment).expect("its fragment parses");
    assert_eq!(config, counterexample.config);
    let sim = replay(&config, false).expect("it fits its config");
    let seen = Observation::of(&sim);
    assert!(
        checks.iter().any(|check| check.violated(&seen)),
        "{} does not violate {checks:?}",
        counterexample.fragment
    );
}

/// The sets of checks the explored schedules violate (each run's set),
/// and the search's result.
fn violation_classes(
    fragment: &str,
    reduction: bool,
    collapse: bool,
) -> (ExploreResult, BTreeSet<Vec<&'static str>>) {
    let mut search = options(&Check::ALL);
    search.reduction = reduction;
    search.collapse_polls = collapse;
    search.record = true;
    search.max_schedules = 200_000;
    let config = config(fragment);
    let mut explorer = Explorer::new(&config, search);
    let result = explorer.run();
    let classes = explorer
        .recorded()
        .iter()
        .map(|(schedule, _)| {
            let mut replayed = config.clone();
            replayed.schedule = schedule.clone();
            let seen = Observation::of(&replay(&replayed, false).unwrap());
            // With whether a wait timed out: the class a slow holder adds.
            let timed_out = (seen.metrics.timeouts > 0).then_some("timed out");
            Check::ALL
                .into_iter()
                .filter(|check| check.violated(&seen))
                .map(Check::name)
                .chain(timed_out)
                .collect()
        })
        .collect();
    (result, classes)
}

/// Small polling-lock cases the naive search finishes: a short wait
/// (`wait_timeout` of a few polls), faults that hold the lock long.
const POLLING_CASES: &[&str] = &[
    "scenario=ticket&strategy=get-set&users=1&clicks=2&wait_timeout=30ms",
    "scenario=ticket&strategy=add&users=1&clicks=2&wait_timeout=30ms",
    "scenario=ticket&strategy=ticket-lock&users=1&clicks=2&wait_timeout=30ms",
    "scenario=ticket&strategy=get-set&users=2&clicks=1&wait_timeout=20ms",
    "scenario=ticket&strategy=add&users=2&clicks=1&wait_timeout=20ms",
    "scenario=ticket&strategy=add&users=1&clicks=2&wait_timeout=30ms&crash=0",
    "scenario=ticket&strategy=get-set&users=1&clicks=2&wait_timeout=30ms&pause=0:50ms",
    "scenario=ticket&strategy=ticket-lock&users=1&clicks=2&wait_timeout=30ms&crash=0",
    "scenario=ticket&strategy=ticket-lock&users=1&clicks=2&wait_timeout=30ms&pause=0:50ms&lock_ttl=20ms",
    "scenario=stampede&strategy=add&requests=2&wait_timeout=30ms",
    "scenario=stampede&strategy=get-set&requests=2&wait_timeout=30ms",
    "scenario=stampede&strategy=add&requests=2&wait_timeout=30ms&pause=0:60ms",
    "scenario=stampede&strategy=ticket-lock&requests=2&wait_timeout=30ms&crash=0",
    "scenario=stampede&strategy=add&requests=2&servers=2&wait_timeout=30ms",
    // A lease that runs out while its holder is paused: a second click enters.
    "scenario=ticket&strategy=add&users=1&clicks=2&wait_timeout=40ms&lock_ttl=20ms&pause=0:30ms",
    "scenario=ticket&strategy=get-set&users=1&clicks=2&wait_timeout=40ms&lock_ttl=20ms&pause=0:30ms",
    "scenario=ticket&strategy=ticket-lock&users=2&clicks=2&wait_timeout=20ms",
    // A waiter that times out serves its stale read.
    "scenario=stampede&strategy=add&requests=2&cache=warm&expire_at=0&grace=60s&wait_timeout=20ms",
    "scenario=stampede&strategy=get-set&requests=2&cache=warm&expire_at=0&grace=60s&wait_timeout=20ms",
    "scenario=stampede&strategy=ticket-lock&requests=2&cache=warm&expire_at=0&grace=60s&wait_timeout=20ms",
];

// The collapse of polling waits (see "Polling waits" in docs/explore.md)
// finds every class of violation the naive search finds, and no other.
#[test]
fn collapsed_polls_find_the_violations_of_the_naive_search() {
    for fragment in POLLING_CASES {
        let (naive, naive_classes) = violation_classes(fragment, false, false);
        let (collapsed, classes) = violation_classes(fragment, true, true);
        assert!(naive.complete && collapsed.complete, "{fragment}");
        assert!(collapsed.explored <= naive.explored, "{fragment}");
        assert_eq!(classes, naive_classes, "{fragment}");
        eprintln!(
            "{fragment}: naive {} collapsed {} classes {classes:?}",
            naive.explored, collapsed.explored
        );
    }
}

// By hand: two clicks of one user under `add`. Either click's `add` lands
// first (2); the other then polls, and either sees the release and enters
// (finding the order) or polls until it gives up (2): 4 schedules. The
// naive search runs one per poll the release can land after.
#[test]
fn collapsed_polls_of_one_user_under_add_are_four_schedules() {
    let add = explore("scenario=ticket&strategy=add", &[Check::Duplicates]);
    assert!(add.complete);
    assert_eq!((add.explored, add.violating), (4, 0));
    for strategy in ["add", "ticket-lock"] {
        let fragment = format!("v=1&scenario=ticket&strategy={strategy}&users=3&clicks=2");
        assert!(
            explore(&fragment, &[Check::Duplicates]).complete,
            "{strategy}"
        );
    }
    let get_set = explore(
        "v=1&scenario=ticket&strategy=get-set&users=2&clicks=2",
        &[Check::Duplicates],
    );
    assert!(get_set.complete);
    assert_replays_to_violation(&get_set, &[Check::Duplicates]);
}
