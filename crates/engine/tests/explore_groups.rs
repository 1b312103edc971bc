//! Explore by independent groups (`explore::groups`) against the search
//! of the whole: the same schedules, the same violating ones, the same
//! completeness, and a counterexample that replays to a violation.
#![cfg(not(target_arch = "wasm32"))]

use interleave_engine::config::url::parse_fragment;
use interleave_engine::explore::{Check, ExploreOptions, Explorer, Observation, StorySearch};
use interleave_engine::run::replay;

fn same_as_the_whole(fragment: &str, checks: &[Check]) {
    if std::env::var("GROUPS_SURVEY").is_ok() {
        let config = parse_fragment(fragment).expect("a good fragment");
        let options = ExploreOptions::new(checks.to_vec());
        let g = StorySearch::new(&config, options.clone()).run();
        let w = Explorer::new(&config, options).run();
        let same = (g.explored, g.violating, g.complete) == (w.explored, w.violating, w.complete);
        eprintln!(
            "{} {fragment}: grouped {:?} whole {:?}",
            if same { "SAME" } else { "DIFF" },
            (g.explored, g.violating, g.complete),
            (w.explored, w.violating, w.complete)
        );
        return;
    }
    let config = parse_fragment(fragment).expect("a good fragment");
    // The other checks are counted too, and add up across groups as the
    // violating schedules do.
    let options = ExploreOptions::new(checks.to_vec()).watching(&Check::ALL);
    let mut grouped = StorySearch::new(&config, options.clone());
    assert!(grouped.by_groups(), "{fragment} splits into groups");
    let grouped = grouped.run();
    let whole = Explorer::new(&config, options).run();
    assert!(whole.complete, "{fragment}: the whole search completes");
    assert_eq!(
        (grouped.explored, grouped.violating, grouped.complete),
        (whole.explored, whole.violating, whole.complete),
        "{fragment}"
    );
    assert_eq!(grouped.unchecked, whole.unchecked, "{fragment}");
    match &grouped.counterexample {
        None => assert_eq!(whole.violating, 0, "{fragment}: no counterexample"),
        Some(counterexample) => {
            let replayed = parse_fragment(&counterexample.fragment).expect("it parses");
            let seen = Observation::of(&replay(&replayed, false).expect("it fits"));
            assert!(
                checks.iter().any(|check| check.violated(&seen)),
                "{fragment}: {} does not violate",
                counterexample.fragment
            );
        }
    }
}

/// The strategies searched by groups (ticket-lock, xfetch and
/// stale-while-revalidate stay whole).
const GROUPED: [&str; 6] = [
    "none",
    "get-set",
    "add",
    "keyed-mutex",
    "single-flight",
    "emitter-lock",
];

/// Two users with two clicks under every grouped strategy, with and without
/// faults, transactions and fencing.
#[test]
fn ticket_by_users_equals_the_whole_search() {
    for strategy in GROUPED {
        for extra in [
            "",
            "&servers=2",
            "&crash=1",
            "&pause=0:50ms",
            "&fencing=true",
            "&await_insert=false",
            "&click_gap=5ms",
        ] {
            let fragment =
                format!("v=1&scenario=ticket&strategy={strategy}&users=2&clicks=2&wait_timeout=100ms{extra}");
            same_as_the_whole(&fragment, &[Check::Duplicates, Check::Exclusion]);
        }
    }
}

/// The checks a search was not asked for add up across groups as its own
/// do: get-set breaks exclusion in schedules of each user's group.
#[test]
fn unchecked_counts_by_groups_equal_the_whole_search() {
    for (fragment, check) in [
        (
            "v=1&scenario=ticket&strategy=get-set&users=2&clicks=2&wait_timeout=100ms",
            Check::Duplicates,
        ),
        (
            "v=1&scenario=ticket&strategy=none&users=2&clicks=2&servers=2",
            Check::Stale,
        ),
        (
            "v=1&scenario=stampede&strategy=none&requests=4&keys=2",
            Check::Exclusion,
        ),
    ] {
        same_as_the_whole(fragment, &[check]);
    }
    let config =
        parse_fragment("v=1&scenario=ticket&strategy=get-set&users=2&clicks=2&wait_timeout=100ms")
            .expect("a good fragment");
    let options = ExploreOptions::new(vec![Check::Duplicates]).watching(&Check::ALL);
    let grouped = StorySearch::new(&config, options).run();
    let exclusion = Explorer::new(&config, ExploreOptions::new(vec![Check::Exclusion])).run();
    assert!(exclusion.violating > 0);
    assert_eq!(
        grouped.unchecked[1],
        (Check::Exclusion, exclusion.violating)
    );
}

/// A stampede over two keys under every strategy.
#[test]
fn stampede_by_keys_equals_the_whole_search() {
    for strategy in GROUPED {
        let fragment = format!(
            "v=1&scenario=stampede&strategy={strategy}&requests=4&keys=2&wait_timeout=100ms"
        );
        same_as_the_whole(&fragment, &[Check::DbReads, Check::Exclusion, Check::Stale]);
    }
}

/// What couples the groups keeps the search whole: a lease no longer than
/// a wait (the whole search found 6,956 schedules of get-set, the groups
/// 2,704), the clock-driven strategies (xfetch: 40 and 36), the ticket
/// lock's polls (a stampede's: 52 and 36), a bounded DB pool.
#[test]
fn coupled_groups_keep_the_search_whole() {
    for fragment in [
        "v=1&scenario=ticket&strategy=get-set&users=2&clicks=2&wait_timeout=100ms&lock_ttl=30ms",
        "v=1&scenario=ticket&strategy=add&users=2&clicks=2&pause=0:6s",
        "v=1&scenario=stampede&strategy=xfetch&requests=4&keys=2",
        "v=1&scenario=stampede&strategy=stale-while-revalidate&requests=4&keys=2",
        "v=1&scenario=ticket&strategy=ticket-lock&users=2&clicks=2",
        "v=1&scenario=ticket&strategy=none&users=2&clicks=2&db_pool=1",
    ] {
        let config = parse_fragment(fragment).expect("a good fragment");
        let search = StorySearch::new(&config, ExploreOptions::new(vec![Check::Duplicates]));
        assert!(!search.by_groups(), "{fragment}");
    }
    // One user is one group: nothing to split.
    let config = parse_fragment("v=1&scenario=ticket&strategy=none&users=1&clicks=2").unwrap();
    assert!(!StorySearch::new(&config, ExploreOptions::new(vec![Check::Duplicates])).by_groups());
}

/// Three users: the product of three searches of one user. get-set's 26
/// classes a user (8 of them duplicate) give 26^3 = 17,576 schedules, of
/// which 17,576 - 18^3 = 11,744 duplicate, as the search of the whole
/// found (in about a minute; here three searches of 26).
#[test]
fn three_users_multiply() {
    let config = parse_fragment("v=1&scenario=ticket&strategy=get-set&users=3&clicks=2").unwrap();
    let result = StorySearch::new(&config, ExploreOptions::new(vec![Check::Duplicates])).run();
    assert_eq!(
        (result.explored, result.violating, result.complete),
        (17_576, 11_744, true)
    );
    let counterexample = result.counterexample.expect("a counterexample");
    let seen = Observation::of(&replay(&counterexample.config, false).unwrap());
    assert!(Check::Duplicates.violated(&seen));
    same_as_the_whole(
        "v=1&scenario=ticket&strategy=get-set&users=3&clicks=1",
        &[Check::Duplicates],
    );
}
