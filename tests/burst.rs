//! The burst stampede's closed form (`scenario::stampede::burst`) against
//! the stepped run: whenever it answers, it answers exactly what stepping
//! every macrotask gives, trace hash included.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;

use interleave::config::url::parse_fragment;
use interleave::config::{
    Arrival, Config, Latency, ReleaseMode, Routing, StrategyKind, MS, SECOND,
};
use interleave::scenario::stampede::burst;
use interleave::{Metrics, Sim};

fn stepped(config: &Config) -> Metrics {
    Sim::metrics_only(config).run()
}

/// The strategies it folds.
const FOLDED: [&str; 8] = [
    "none",
    "xfetch",
    "single-flight",
    "stale-while-revalidate",
    "get-set",
    "add",
    "ticket-lock",
    "keyed-mutex",
];

#[test]
fn the_benchmarks_burst_folds_for_every_lockstep_strategy() {
    for strategy in FOLDED {
        let fragment = format!("v=1&scenario=stampede&strategy={strategy}&requests=100000");
        let config = parse_fragment(&fragment).unwrap();
        assert!(
            burst::metrics(&config, u64::MAX).is_some(),
            "{strategy} at 100,000 requests is stepped"
        );
    }
}

#[test]
fn a_large_folded_burst_equals_its_stepped_run() {
    for strategy in FOLDED {
        // The polling herds wait 200 ms rather than 5 s: 20 rounds.
        let fragment =
            format!("v=1&scenario=stampede&strategy={strategy}&requests=20000&wait_timeout=200ms");
        let config = parse_fragment(&fragment).unwrap();
        let folded = burst::metrics(&config, u64::MAX).expect("folds");
        assert_eq!(folded, stepped(&config), "{strategy}");
    }
}

#[test]
fn every_small_burst_folds_to_its_stepped_run() {
    let latencies = [0, 1, MS, 20 * MS];
    let mut folded = 0;
    for strategy in FOLDED {
        for requests in 1..=24 {
            for double_check in [false, true] {
                for cache in latencies {
                    for db in latencies {
                        let mut config = parse_fragment(&format!(
                            "v=1&scenario=stampede&strategy={strategy}&requests={requests}"
                        ))
                        .unwrap();
                        config.double_check = double_check;
                        config.wait_timeout = 60 * MS;
                        config.cache_latency = Latency::Const(cache);
                        config.db_latency = Latency::Const(db);
                        let closed = burst::metrics(&config, u64::MAX).expect("folds");
                        assert_eq!(closed, stepped(&config), "{config:?}");
                        folded += 1;
                    }
                }
            }
        }
    }
    assert_eq!(folded, 8 * 24 * 2 * 16);
}

/// Locks, leases and cache entries that run out exactly when a poll, a
/// check or a delete lands (every millisecond of lock_ttl and ttl, with
/// 1 ms cache and 20 ms DB latencies and a 10 ms poll). `get-set` folds
/// only while its lock outlives the run.
#[test]
fn every_expiry_folds_to_its_stepped_run() {
    let mut folded = 0;
    for strategy in ["add", "ticket-lock", "get-set", "keyed-mutex"] {
        for requests in [2, 5] {
            for ms in 0..=60 {
                for (lock_ttl, ttl) in [(ms * MS, 60 * SECOND), (10 * SECOND, ms * MS)] {
                    let mut config = parse_fragment(&format!(
                        "v=1&scenario=stampede&strategy={strategy}&requests={requests}\
                         &wait_timeout=80ms&grace=5ms"
                    ))
                    .unwrap();
                    config.lock_ttl = lock_ttl;
                    config.ttl = ttl;
                    if let Some(closed) = burst::metrics(&config, u64::MAX) {
                        assert_eq!(closed, stepped(&config), "{config:?}");
                        folded += 1;
                    }
                }
            }
        }
    }
    // get-set's lock is held 23 ms: lock_ttl 0 to 23 ms is stepped.
    assert_eq!(folded, 4 * 2 * 61 * 2 - 2 * 24);
}

#[test]
fn what_could_set_one_request_apart_is_stepped() {
    let cases = [
        "strategy=emitter-lock",
        "strategy=add&release=owner",
        "strategy=none&arrival=gap:1ms",
        "strategy=none&keys=2",
        "strategy=none&servers=2",
        "strategy=none&cache=warm",
        "strategy=none&cache_latency=uniform:1ms..2ms",
        "strategy=single-flight&crash=0",
        "strategy=get-set&release=owner",
        "strategy=get-set&lock_ttl=10ms",
        "strategy=none&db_pool=4",
    ];
    for case in cases {
        let config = parse_fragment(&format!("v=1&scenario=stampede&requests=50&{case}"))
            .unwrap_or_else(|error| panic!("{case}: {error}"));
        assert_eq!(burst::metrics(&config, u64::MAX), None, "{case}");
    }
}

#[test]
fn a_run_past_the_budget_is_left_to_the_stepped_run() {
    // `none` takes 4 macrotasks per request: the stepped run reports the
    // budget, not the closed form.
    let config = parse_fragment("v=1&scenario=stampede&strategy=none&requests=10").unwrap();
    assert_eq!(burst::metrics(&config, 40), None);
    assert!(burst::metrics(&config, 41).is_some());
}

fn latency() -> impl Strategy<Value = Latency> {
    prop_oneof![
        Just(Latency::Const(0)),
        (1u64..3).prop_map(Latency::Const),
        (0u64..60).prop_map(|ms| Latency::Const(ms * MS)),
        (0u64..4).prop_map(|ms| Latency::Uniform(ms * MS, ms * MS + 1)),
    ]
}

fn arrival() -> impl Strategy<Value = Arrival> {
    prop_oneof![
        Just(Arrival::Burst),
        Just(Arrival::Gap(0)),
        (0u64..50).prop_map(|ms| Arrival::At(vec![ms * MS])),
        (0u64..50).prop_map(|ms| Arrival::At(vec![ms * MS, ms * MS, ms * MS + 1])),
        (1u64..3).prop_map(|ms| Arrival::Gap(ms * MS)),
    ]
}

prop_compose! {
    /// Stampedes in and around the closed form's reach.
    fn config()(
        strategy in proptest::sample::select(StrategyKind::ALL.to_vec()),
        requests in prop_oneof![1u32..6, 1u32..300],
        arrival in arrival(),
        cache_latency in latency(),
        db_latency in latency(),
        double_check in any::<bool>(),
        lock_ttl in prop_oneof![Just(0), (1u64..80).prop_map(|ms| ms * MS), Just(10 * SECOND)],
        owner in proptest::bool::weighted(0.1),
        fencing in proptest::bool::weighted(0.1),
        keys in prop_oneof![4 => Just(1u32), 1 => 2u32..4],
        servers in prop_oneof![4 => Just(1u32), 1 => 2u32..4],
        crash in proptest::option::weighted(0.1, 0u32..4),
        poll in prop_oneof![(1u64..4), (1u64..30).prop_map(|ms| ms * MS)],
        wait_timeout in prop_oneof![Just(0), (0u64..150).prop_map(|ms| ms * MS)],
        ttl in prop_oneof![Just(0), (1u64..80).prop_map(|ms| ms * MS), Just(60 * SECOND)],
        grace in prop_oneof![Just(0), (1u64..50).prop_map(|ms| ms * MS)],
        seed in any::<u64>(),
        beta in prop_oneof![Just(0.0), 0.5f64..4.0],
        routing in proptest::sample::select(vec![Routing::RoundRobin, Routing::Sticky, Routing::Random]),
    ) -> Config {
        Config {
            strategy,
            requests,
            arrival,
            cache_latency,
            db_latency,
            double_check,
            lock_ttl,
            release: if owner { ReleaseMode::Owner } else { ReleaseMode::Delete },
            fencing,
            keys,
            servers,
            crash,
            poll,
            // At most 40 polls each: a 1 us poll for 150 ms would step
            // 150,000 rounds.
            wait_timeout: wait_timeout.min(40 * poll),
            ttl,
            grace,
            seed,
            beta,
            routing,
            ..Config::default()
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_closed_form_answers_what_stepping_gives(config in config()) {
        if let Some(folded) = burst::metrics(&config, u64::MAX) {
            prop_assert_eq!(folded, stepped(&config), "{:?}", config);
        }
    }
}
