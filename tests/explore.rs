//! Explore mode: schedules, replay, the exhaustive search and its
//! reduction, random and PCT search, manual mode.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use proptest::prelude::*;

use interleave::config::url::parse_fragment;
use interleave::config::{Latency, StrategyKind, MS};
use interleave::explore::{
    Check, Coverage, ExploreOptions, ExploreResult, Explorer, Method, Observation, Schedule,
    Session,
};
use interleave::run::{replay, ScheduleError};
use interleave::Config;

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
    assert!(counterexample.violation_step < counterexample.steps);
    assert_eq!(
        interleave::explore::first_violation_step(
            interleave::run::ScheduledSim::story_metrics_only(&config),
            &counterexample.violated
        ),
        Some(counterexample.violation_step)
    );
    assert!(
        checks.iter().any(|check| check.violated(&seen)),
        "{} does not violate {checks:?}",
        counterexample.fragment
    );
}

// A search counts the checks it was not asked for, each as a search for
// that check alone counts its violating schedules. get-set on two
// servers: 8 of 26 schedules duplicate, 16 break exclusion.
#[test]
fn a_search_counts_each_check_it_was_not_asked_for() {
    let fragment = "scenario=ticket&strategy=get-set&users=1&clicks=2&servers=2";
    let watched = Explorer::new(
        &config(fragment),
        options(&[Check::Duplicates]).watching(&Check::ALL),
    )
    .run();
    let alone = |check| explore(fragment, &[check]).violating;
    assert_eq!((watched.explored, watched.violating), (26, 8));
    assert_eq!(
        watched.unchecked,
        vec![
            (Check::DbReads, 0),
            (Check::Exclusion, 16),
            (Check::Stale, 0)
        ]
    );
    for (check, count) in &watched.unchecked {
        assert_eq!(*count, alone(*check), "{check}");
    }
    // The summary names the counts that are not 0.
    let row = interleave::explore::StrategyRow {
        strategy: StrategyKind::GetSet,
        result: watched,
    };
    assert_eq!(
        row.outcome(&[Check::Duplicates]),
        "8 of 26 schedules duplicate, complete; 16 break exclusion (not checked: exclusion)"
    );
}

// Ticket, 1 user, 2 clicks (the default). Under `none` both clicks can
// find no order before either insert lands: a duplicate. Under a keyed
// mutex on one server the second click waits for the first to insert, so
// no schedule duplicates; with two servers (round-robin) the clicks take
// different mutexes and the race is back.
#[test]
fn ticket_none_duplicates_and_a_keyed_mutex_on_one_server_never_does() {
    let none = explore("scenario=ticket&strategy=none", &[Check::Duplicates]);
    assert!(none.complete);
    assert!(
        none.violating > 0 && none.violating < none.explored,
        "{none:?}"
    );
    assert_replays_to_violation(&none, &[Check::Duplicates]);
    // The normal run already duplicates: steps 0-1 the two arrivals (each
    // sends find_order), 2-3 both finds land empty (each sends an insert),
    // 4 the first insert lands, 5 the second: the duplicate.
    let shortest = none.counterexample.as_ref().unwrap();
    assert_eq!(shortest.config.schedule, Schedule::default());
    assert_eq!((shortest.violation_step, shortest.steps), (5, 6));

    let mutex = explore("scenario=ticket&strategy=keyed-mutex", &[Check::Duplicates]);
    assert!(mutex.complete);
    assert_eq!(mutex.violating, 0);
    assert!(mutex.explored > 0);
    assert_eq!(mutex.counterexample, None);

    let two_servers = explore(
        "scenario=ticket&strategy=keyed-mutex&servers=2&routing=round-robin",
        &[Check::Duplicates],
    );
    assert!(two_servers.complete);
    assert!(two_servers.violating > 0);
    assert_replays_to_violation(&two_servers, &[Check::Duplicates]);
}

#[test]
fn ticket_with_a_forgotten_await_duplicates_even_under_the_mutex() {
    let result = explore(
        "scenario=ticket&strategy=keyed-mutex&await_insert=false",
        &[Check::Duplicates],
    );
    assert!(result.complete && result.violating > 0);
    assert_replays_to_violation(&result, &[Check::Duplicates]);
}

// Stampede, burst of 3, one key. `get-set` checks then sets, so two
// requests can both see no lock and both enter; `add` is atomic, so no
// schedule lets two in, with a short wait_timeout (3 polls) or the
// default one.
#[test]
fn stampede_get_set_breaks_exclusion_and_add_does_not() {
    let mut bounded = options(&[Check::Exclusion]);
    bounded.max_schedules = 500;
    let get_set = Explorer::new(
        &config("scenario=stampede&strategy=get-set&requests=3"),
        bounded.clone(),
    )
    .run();
    assert!(get_set.violating > 0, "{get_set:?}");
    assert_replays_to_violation(&get_set, &[Check::Exclusion]);

    let add = Explorer::new(
        &config("scenario=stampede&strategy=add&requests=3&wait_timeout=30ms"),
        options(&[Check::Exclusion]),
    )
    .run();
    assert!(add.complete, "{add:?}");
    assert_eq!(add.violating, 0);
    assert!(add.explored > 1);

    // At the default wait (500 polls) the waits' failed polls collapse
    // (docs/explore.md, "Polling waits"): the search still finishes.
    let add_default = Explorer::new(
        &config("scenario=stampede&strategy=add&requests=3"),
        bounded,
    )
    .run();
    assert_eq!(add_default.violating, 0);
    assert!(add_default.complete, "{add_default:?}");
}

// Single-flight shares one load per server: one select on one server, in
// every schedule; with two servers each runs its own flight.
#[test]
fn single_flight_never_reads_the_db_twice_on_one_server() {
    let one = explore(
        "scenario=stampede&strategy=single-flight&requests=3",
        &[Check::DbReads],
    );
    assert!(one.complete);
    assert_eq!(one.violating, 0);
    let two = explore(
        "scenario=stampede&strategy=single-flight&requests=3&servers=2",
        &[Check::DbReads],
    );
    assert!(two.complete && two.violating > 0);
    assert_replays_to_violation(&two, &[Check::DbReads]);
}

// Without the double-check the mutex only serializes the loads: a request
// that missed before the first load landed selects again after the value
// was set (still live): redundant. That includes the default order (all
// three miss at 1ms), but not the schedules where the others' first read
// lands after the first set.
#[test]
fn keyed_mutex_without_double_check_reloads_and_with_it_never_does() {
    let with = explore(
        "scenario=stampede&strategy=keyed-mutex&requests=3",
        &[Check::DbReads, Check::Exclusion],
    );
    assert!(with.complete);
    assert_eq!(with.violating, 0);
    let without = explore(
        "scenario=stampede&strategy=keyed-mutex&requests=3&double_check=false",
        &[Check::DbReads],
    );
    assert!(without.complete);
    assert!(without.violating > 0 && without.violating < without.explored);
    assert_eq!(
        without.counterexample.unwrap().config.schedule,
        Schedule::default(),
        "the normal run already reloads"
    );
}

#[test]
fn a_polling_lock_can_time_out_and_serve_stale_data() {
    // Warm and already expired (grace keeps it stale): the holder's loads
    // may be delayed past the waiters' 20ms timeout.
    let mut search = options(&[Check::Stale]);
    search.max_schedules = 5_000;
    let result = Explorer::new(
        &config(
            "scenario=stampede&strategy=add&requests=2&cache=warm&expire_at=0&grace=60s&wait_timeout=20ms",
        ),
        search,
    )
    .run();
    assert!(result.violating > 0, "{result:?}");
    assert_replays_to_violation(&result, &[Check::Stale]);
}

/// The distinct per-run outcomes that the checks can tell apart.
fn outcomes(fragment: &str, reduction: bool) -> (ExploreResult, BTreeSet<[u64; 5]>) {
    bounded_outcomes(fragment, reduction, None)
}

fn bounded_outcomes(
    fragment: &str,
    reduction: bool,
    bound: Option<u32>,
) -> (ExploreResult, BTreeSet<[u64; 5]>) {
    let mut search = options(&Check::ALL);
    search.reduction = reduction;
    search.max_preemptions = bound;
    search.unbounded_first = 0;
    search.record = true;
    let mut explorer = Explorer::new(&config(fragment), search);
    let result = explorer.run();
    let base = config(fragment);
    let seen = explorer
        .recorded()
        .iter()
        .map(|(schedule, _)| {
            let mut config = base.clone();
            config.schedule = schedule.clone();
            let o = Observation::of(&replay(&config, false).unwrap());
            let m = o.metrics;
            [
                m.duplicate_tickets,
                m.max_in_critical_section,
                m.db_reads,
                m.stale_served,
                o.redundant_db_reads,
            ]
        })
        .collect();
    (result, seen)
}

// Two independent keys: the reduced search runs strictly fewer schedules
// than the naive one and reaches the same outcomes (so the same
// violations).
#[test]
fn reduction_explores_fewer_schedules_and_finds_the_same_violations() {
    for fragment in [
        "scenario=stampede&strategy=none&requests=3&keys=2",
        "scenario=stampede&strategy=keyed-mutex&requests=3&keys=2&double_check=false",
        "scenario=ticket&strategy=none&users=2&clicks=2",
    ] {
        let (naive, naive_outcomes) = outcomes(fragment, false);
        let (reduced, reduced_outcomes) = outcomes(fragment, true);
        assert!(naive.complete && reduced.complete, "{fragment}");
        assert!(
            reduced.explored < naive.explored,
            "{fragment}: {} vs {}",
            reduced.explored,
            naive.explored
        );
        assert_eq!(reduced_outcomes, naive_outcomes, "{fragment}");
        assert_eq!(reduced.violating > 0, naive.violating > 0, "{fragment}");
        // A complete naive search knows its own size exactly.
        assert_eq!(naive.naive_estimate, naive.explored, "{fragment}");
        assert!(reduced.naive_estimate >= reduced.explored);
    }
}

#[test]
fn preemption_bound_cuts_the_search_and_says_so() {
    let fragment = "scenario=stampede&strategy=none&requests=3";
    let mut bounded = options(&[Check::DbReads]);
    bounded.max_preemptions = Some(0);
    bounded.unbounded_first = 0;
    let zero = Explorer::new(&config(fragment), bounded.clone()).run();
    assert_eq!(zero.explored, 1, "only the default order");
    assert!(!zero.complete);
    assert!(zero.complete_within_bound);
    assert_eq!(zero.coverage, Coverage::WithinPreemptions(0));
    bounded.max_preemptions = Some(1);
    let one = Explorer::new(&config(fragment), bounded).run();
    let full = explore(fragment, &[Check::DbReads]);
    assert!(one.explored > 1 && one.explored < full.explored);
    assert!(!one.complete && one.complete_within_bound);
    assert!(full.complete && full.complete_within_bound);
    assert_eq!(full.coverage, Coverage::Complete);
}

// Under a preemption bound, sleep sets alone would skip schedules within
// the bound (a sibling's subtree reaching, by commuting steps, a schedule
// the bound cut from the sleeping choice's subtree). A choice whose subtree
// the bound cut never goes to sleep, so the reduced bounded search reaches
// every outcome the naive bounded search does.
#[test]
fn a_bounded_reduced_search_reaches_every_outcome_of_the_naive_one() {
    for (fragment, bound) in [
        ("scenario=ticket&strategy=none&users=2&clicks=2", 1),
        ("scenario=ticket&strategy=none&users=2&clicks=2", 2),
        ("scenario=ticket&strategy=get-set&users=1&clicks=2", 2),
        (
            "scenario=stampede&strategy=keyed-mutex&requests=3&keys=2&double_check=false",
            2,
        ),
    ] {
        let (naive, naive_outcomes) = bounded_outcomes(fragment, false, Some(bound));
        let (reduced, reduced_outcomes) = bounded_outcomes(fragment, true, Some(bound));
        assert!(naive.complete_within_bound && reduced.complete_within_bound);
        assert!(reduced.explored <= naive.explored, "{fragment} <= {bound}");
        assert_eq!(reduced_outcomes, naive_outcomes, "{fragment} <= {bound}");
    }
    // The case that showed the gap: with 3 preemptions some schedules give
    // no duplicate, and the reduced search must run one of them.
    let none = ticket_3x2("none", Some(3), 1_000_000);
    assert!(none.complete_within_bound);
    assert!(
        0 < none.violating && none.violating < none.explored,
        "{none:?}"
    );
}

/// Ticket, 3 users x 2 clicks, duplicates, DFS with at most `bound`
/// preemptions (`None`: unbounded).
fn ticket_3x2(strategy: &str, bound: Option<u32>, max_schedules: u64) -> ExploreResult {
    let mut search = options(&[Check::Duplicates]);
    search.max_preemptions = bound;
    // A polling lock's bound at once (its unbounded collapsed search may
    // finish first; see `a_bound_applies_only_when...`).
    if bound.is_some() && strategy != "keyed-mutex" {
        search.unbounded_first = 0;
    }
    search.max_schedules = max_schedules;
    Explorer::new(
        &config(&format!(
            "v=1&scenario=ticket&users=3&clicks=2&strategy={strategy}"
        )),
        search,
    )
    .run()
}

// The polling lock's unbounded space is product-sized across users (every
// poll of every waiter is a point where a late completion can land), so
// only a preemption bound lets the search finish: it is then complete
// within the bound but not complete.
#[test]
fn a_polling_lock_finishes_within_a_preemption_bound() {
    let add = ticket_3x2("add", Some(2), 1_000_000);
    assert!(add.complete_within_bound, "{add:?}");
    assert!(!add.complete, "the bound cut choices");
    assert_eq!(add.coverage, Coverage::WithinPreemptions(2));
    assert_eq!(add.violating, 0);
    assert_eq!(add.counterexample, None);
    assert!(add.explored > 1 && add.explored < 1_000_000);

    let get_set = ticket_3x2("get-set", Some(2), 1_000_000);
    assert!(get_set.complete_within_bound && !get_set.complete);
    assert!(get_set.violating > 0, "{get_set:?}");
    assert_replays_to_violation(&get_set, &[Check::Duplicates]);
    let found = get_set.counterexample.as_ref().unwrap();
    assert!(found.config.schedule.preemptions() <= 2);
}

// With a bound, the search first tries a few hundred schedules without it:
// a space that small finishes "complete" (the bound also weakens the
// reduction, so the bounded search would be the bigger one); a larger one
// starts over under the bound.
#[test]
fn a_bound_applies_only_when_the_unbounded_search_does_not_finish() {
    let mutex = ticket_3x2("keyed-mutex", Some(2), 1_000_000);
    assert_eq!(mutex.coverage, Coverage::Complete);
    assert_eq!(
        mutex.explored,
        ticket_3x2("keyed-mutex", None, 1_000_000).explored
    );
    let mut at_once = options(&[Check::Duplicates]);
    at_once.max_preemptions = Some(2);
    at_once.unbounded_first = 0;
    let config = config("v=1&scenario=ticket&users=3&clicks=2&strategy=keyed-mutex");
    let bounded = Explorer::new(&config, at_once).run();
    assert_eq!(bounded.coverage, Coverage::WithinPreemptions(2));
    assert!(bounded.explored > mutex.explored);
    // `get-set` does not finish within 256 unbounded schedules: its counts
    // are those of the bounded search alone.
    let mut first = options(&[Check::Duplicates]);
    first.max_preemptions = Some(2);
    let get_set_config = config_with_strategy(&config, StrategyKind::GetSet);
    let get_set = Explorer::new(&get_set_config, first).run();
    assert_eq!(get_set.coverage, Coverage::WithinPreemptions(2));
    let mut get_set_at_once = options(&[Check::Duplicates]);
    get_set_at_once.max_preemptions = Some(2);
    get_set_at_once.unbounded_first = 0;
    assert_eq!(
        Explorer::new(&get_set_config, get_set_at_once).run(),
        get_set
    );
}

fn config_with_strategy(config: &Config, strategy: StrategyKind) -> Config {
    let mut config = config.clone();
    config.strategy = strategy;
    config
}

#[test]
fn an_unbounded_search_that_finishes_is_complete_both_ways() {
    let mutex = ticket_3x2("keyed-mutex", None, 1_000_000);
    assert!(mutex.complete && mutex.complete_within_bound, "{mutex:?}");
    assert_eq!(mutex.coverage, Coverage::Complete);
    assert_eq!(mutex.violating, 0);
    // A bound it never needs cuts nothing: still complete.
    let roomy = ticket_3x2("keyed-mutex", Some(1_000), 1_000_000);
    assert!(roomy.complete && roomy.complete_within_bound);
    assert_eq!(roomy.explored, mutex.explored);
}

#[test]
fn a_search_stopped_by_max_schedules_is_neither() {
    for bound in [None, Some(2)] {
        let stopped = ticket_3x2("add", bound, 10);
        assert_eq!(stopped.explored, 10);
        assert!(!stopped.complete, "{bound:?}");
        assert!(!stopped.complete_within_bound, "{bound:?}");
        assert_eq!(stopped.coverage, Coverage::StoppedAtMaxSchedules);
    }
}

#[test]
fn max_schedules_stops_the_search_incomplete() {
    let mut search = options(&[Check::Duplicates]);
    search.max_schedules = 3;
    let result = Explorer::new(&config("scenario=ticket&users=2"), search).run();
    assert_eq!(result.explored, 3);
    assert!(!result.complete && !result.complete_within_bound);
    assert!(result.naive_estimate >= 3);
}

#[test]
fn chunks_add_up_to_the_whole_search() {
    let fragment = "scenario=ticket&users=2&strategy=none";
    let whole = explore(fragment, &[Check::Duplicates]);
    let mut explorer = Explorer::new(&config(fragment), options(&[Check::Duplicates]));
    let mut chunks = 0;
    while !explorer.run_for(2).done {
        chunks += 1;
        assert!(explorer.fraction() < 1.0);
    }
    assert!(chunks > 2);
    assert_eq!(explorer.result(), whole);
    assert_eq!(explorer.fraction(), 1.0);
}

#[test]
fn random_and_pct_report_runs_and_violations_deterministically() {
    for method in [Method::Random, Method::Pct] {
        let mut search = options(&[Check::Duplicates]);
        search.method = method;
        search.max_schedules = 200;
        search.seed = 9;
        let run = || {
            Explorer::new(
                &config("scenario=ticket&users=2&strategy=none"),
                search.clone(),
            )
            .run()
        };
        let result = run();
        assert_eq!(result.explored, 200);
        assert!(
            result.violating > 0 && result.violating <= 200,
            "{method:?}"
        );
        assert!(!result.complete && !result.complete_within_bound);
        assert_eq!(result.coverage, Coverage::Sampled);
        assert_eq!(run(), result, "same seed, same result");
        assert_replays_to_violation(&result, &[Check::Duplicates]);
        let safe = Explorer::new(
            &config("scenario=ticket&strategy=keyed-mutex"),
            search.clone(),
        )
        .run();
        assert_eq!(safe.violating, 0);
    }
}

#[test]
fn an_empty_schedule_is_the_normal_run() {
    let config = config("scenario=stampede&strategy=add&requests=5&db_latency=uniform:1ms..30ms");
    let normal = interleave::Sim::new(&config).run();
    assert_eq!(replay(&config, false).unwrap().metrics(), normal);
}

#[test]
fn a_schedule_that_does_not_fit_is_an_error_naming_the_choice() {
    // Ticket/none with 1 user: the first choice point has 2 enabled events.
    let mut config = config("scenario=ticket");
    config.schedule = "5".parse().unwrap();
    let error = replay(&config, false).err().unwrap();
    assert!(
        matches!(
            error,
            ScheduleError::OutOfRange {
                choice: 0,
                index: 5,
                enabled: 2,
                ..
            }
        ),
        "{error:?}"
    );
    let message = interleave::config::url::ConfigError::from(error).to_string();
    assert!(
        message.starts_with("`schedule`: choice 1 (at step "),
        "{message}"
    );
    assert!(message.contains("accepted: 0 to 1"), "{message}");

    config.schedule = Schedule::new(vec![0; 50]);
    let error = replay(&config, false).err().unwrap();
    assert!(
        matches!(error, ScheduleError::TooLong { len: 50, .. }),
        "{error:?}"
    );
    assert!(Session::new(&config, vec![]).is_err());
}

#[test]
fn manual_mode_reaches_the_goal_shares_it_and_undoes() {
    let config = config("scenario=ticket&strategy=none");
    let mut session = Session::new(&config, vec![]).unwrap();
    assert_eq!(session.goal(), "make a user get two tickets");
    let first = session.enabled();
    assert!(first.len() > 1, "rests at a choice point");
    assert!(first
        .windows(2)
        .all(|w| (w[0].due, w[0].seq) < (w[1].due, w[1].seq)));
    assert!(first.iter().all(|choice| !choice.label.is_empty()));
    // The default order already duplicates (both finds land before
    // either insert).
    while !session.won() && !session.is_done() {
        assert!(session.choose(0));
    }
    assert!(session.won(), "{}", session.fragment());
    assert_eq!(session.reached(), vec![Check::Duplicates]);
    let link = session.fragment();
    assert!(link.contains("schedule="), "{link}");

    // The link replays to the same place.
    let shared = Session::new(&parse_fragment(&link).unwrap(), vec![]).unwrap();
    assert!(shared.won());
    assert_eq!(shared.trace_hash(), session.trace_hash());
    assert_eq!(shared.steps(), session.steps());

    // Undo goes back to the first choice point.
    let choices = session.schedule().len();
    for _ in 0..choices {
        assert!(session.undo());
    }
    assert!(!session.undo());
    assert_eq!(session.enabled(), first);
    assert!(!session.won());
    assert!(!session.choose(99), "out of range changes nothing");
}

#[test]
fn every_check_has_a_goal_and_names_round_trip() {
    let ticket = config("scenario=ticket");
    for check in Check::ALL {
        assert_eq!(check.name().parse::<Check>(), Ok(check));
        assert!(!check.goal(&ticket).is_empty());
    }
    assert!("dupes"
        .parse::<Check>()
        .unwrap_err()
        .contains("duplicates, db-reads"));
}

#[test]
fn the_strategy_table_reads_like_the_issue() {
    let rows = interleave::explore::compare_strategies(&config("scenario=ticket"), &{
        let mut o = options(&[Check::Duplicates]);
        o.max_schedules = 50;
        o
    });
    assert_eq!(rows.len(), StrategyKind::ALL.len());
    let none = rows[0].summary(&[Check::Duplicates]);
    assert!(none.starts_with("none: "), "{none}");
    assert!(none.ends_with("schedules duplicate, complete"), "{none}");
    let mut bounded = options(&[Check::Duplicates]);
    bounded.max_preemptions = Some(2);
    let racy = interleave::explore::StrategyRow {
        strategy: StrategyKind::GetSet,
        result: Explorer::new(&config("scenario=ticket&users=3&strategy=get-set"), bounded).run(),
    };
    let text = racy.summary(&[Check::Duplicates]);
    assert!(
        text.starts_with("get-set: ")
            && text.ends_with("schedules duplicate, complete within 2 preemptions"),
        "{text}"
    );
    let mut short = options(&[Check::Duplicates]);
    short.max_schedules = 2;
    let stopped = interleave::explore::StrategyRow {
        strategy: StrategyKind::None,
        result: Explorer::new(&config("scenario=ticket&users=2"), short).run(),
    };
    assert_eq!(
        stopped.summary(&[Check::Duplicates]),
        format!(
            "none: {} of 2 schedules duplicate, incomplete (stopped at max schedules)",
            stopped.result.violating
        )
    );
    assert_eq!(interleave::explore::search::thousands(1_204), "1,204");
}

fn small_config() -> impl Strategy<Value = Config> {
    (
        any::<bool>(),
        proptest::sample::select(StrategyKind::ALL.to_vec()),
        1u32..3,
        0u64..1_000,
        any::<bool>(),
    )
        .prop_map(|(ticket, strategy, servers, seed, uniform)| {
            let mut config = if ticket {
                interleave::config::Config::new(interleave::config::ScenarioKind::Ticket)
            } else {
                let mut c =
                    interleave::config::Config::new(interleave::config::ScenarioKind::Stampede);
                c.requests = 3;
                c.keys = 2;
                c
            };
            config.strategy = strategy;
            config.servers = servers;
            config.seed = seed;
            config.wait_timeout = 30 * MS;
            if uniform {
                config.db_latency = Latency::Uniform(MS, 30 * MS);
            }
            config
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Replaying any explored schedule reproduces the run exactly.
    #[test]
    fn replaying_an_explored_schedule_reproduces_its_trace(
        config in small_config(),
        method in proptest::sample::select(vec![Method::Dfs, Method::Random, Method::Pct]),
        seed in 0u64..100,
    ) {
        let mut search = ExploreOptions::new(Check::ALL.to_vec());
        search.method = method;
        search.seed = seed;
        search.max_schedules = 40;
        search.record = true;
        let mut explorer = Explorer::new(&config, search);
        explorer.run();
        prop_assert!(!explorer.recorded().is_empty());
        for (schedule, hash) in explorer.recorded() {
            let mut replayed = config.clone();
            replayed.schedule = schedule.clone();
            let sim = replay(&replayed, false).unwrap();
            prop_assert_eq!(&sim.metrics().trace_hash, hash);
        }
    }
}

fn checks_violated(config: &Config, reduction: bool) -> (bool, BTreeSet<&'static str>) {
    let mut search = ExploreOptions::new(Check::ALL.to_vec());
    search.reduction = reduction;
    search.record = true;
    search.max_schedules = 3_000;
    let mut explorer = Explorer::new(config, search);
    let result = explorer.run();
    let mut violated = BTreeSet::new();
    for (schedule, _) in explorer.recorded() {
        let mut replayed = config.clone();
        replayed.schedule = schedule.clone();
        let seen = Observation::of(&replay(&replayed, false).unwrap());
        for check in Check::ALL {
            if check.violated(&seen) {
                violated.insert(check.name());
            }
        }
    }
    (result.complete, violated)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]

    /// The reduced search finds every kind of violation the naive one does.
    #[test]
    fn reduction_keeps_every_violation(
        config in small_config(),
    ) {
        let (naive_complete, naive) = checks_violated(&config, false);
        prop_assume!(naive_complete);
        let (reduced_complete, reduced) = checks_violated(&config, true);
        prop_assert!(reduced_complete);
        prop_assert_eq!(reduced, naive);
    }
}

#[test]
fn manual_mode_says_when_no_order_reaches_the_goal_and_why() {
    use interleave::explore::{Reachability, Session};
    let session = |fragment: &str| {
        let config = interleave::config::url::parse_fragment(fragment).unwrap();
        Session::new(&config, Vec::new()).unwrap()
    };
    let one_server = session("scenario=ticket&strategy=keyed-mutex");
    match one_server.reachable(5_000) {
        Some(Reachability::Unreachable { schedules, why }) => {
            assert!(schedules > 0);
            assert!(
                why.contains("keyed mutex") && why.contains("one app server"),
                "{why}"
            );
        }
        other => panic!("{other:?}"),
    }
    for fragment in [
        "scenario=ticket&strategy=none",
        "scenario=ticket&strategy=keyed-mutex&servers=2",
    ] {
        assert_eq!(
            session(fragment).reachable(5_000),
            Some(Reachability::Reachable),
            "{fragment}"
        );
    }
    let unique = session("scenario=ticket&strategy=none&db_unique=true");
    match unique.reachable(5_000) {
        Some(Reachability::Unreachable { why, .. }) => assert!(why.contains("unique"), "{why}"),
        other => panic!("{other:?}"),
    }
}
