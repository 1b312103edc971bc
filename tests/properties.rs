//! Invariants over many generated scenarios.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

use proptest::prelude::*;

use interleave::config::url::{parse_fragment, parse_fragment_lenient, to_fragment};
use interleave::config::{
    Arrival, CacheStart, Config, Latency, Pause, ReleaseMode, Routing, ScenarioKind, StrategyKind,
    MS,
};
use interleave::sim::What;
use interleave::Sim;

fn latency() -> impl Strategy<Value = Latency> {
    prop_oneof![
        (0u64..50).prop_map(|ms| Latency::Const(ms * MS)),
        (0u64..20, 0u64..30)
            .prop_map(|(low, extra)| Latency::Uniform(low * MS, (low + extra) * MS)),
        (1u64..20_000).prop_map(Latency::Exp),
    ]
}

fn arrival() -> impl Strategy<Value = Arrival> {
    prop_oneof![
        Just(Arrival::Burst),
        (1u64..30).prop_map(|ms| Arrival::Gap(ms * MS)),
        (1u32..2_000).prop_map(|rate| Arrival::Poisson(f64::from(rate))),
        proptest::collection::vec(0u64..100, 40)
            .prop_map(|ms| { Arrival::At(ms.into_iter().map(|t| t * MS).collect()) }),
    ]
}

fn strategy_kind() -> impl Strategy<Value = StrategyKind> {
    proptest::sample::select(StrategyKind::ALL.to_vec())
}

prop_compose! {
    /// Small scenarios of either kind, with random latencies and topology.
    fn config()(
        ticket in any::<bool>(),
        strategy in strategy_kind(),
        seed in any::<u64>(),
        servers in 1u32..4,
        routing in proptest::sample::select(vec![Routing::RoundRobin, Routing::Sticky, Routing::Random]),
        arrival in arrival(),
        cache_latency in latency(),
        db_latency in latency(),
        write_latency in proptest::option::of(latency()),
        db_pool in proptest::option::of(1u32..4),
        lock_ttl_ms in 0u64..200,
        poll_ms in 1u64..20,
        wait_timeout_ms in 0u64..300,
        users in 0u32..5,
        clicks in 1u32..4,
        click_gap_ms in 0u64..30,
        await_insert in any::<bool>(),
        requests in 0u32..30,
        keys in 1u32..4,
        warm in any::<bool>(),
        expire_at in proptest::option::of(0u64..50),
        ttl_ms in 0u64..100,
        grace_ms in 0u64..100,
        double_check in any::<bool>(),
    ) -> Config {
        let scenario = if ticket { ScenarioKind::Ticket } else { ScenarioKind::Stampede };
        Config {
            strategy,
            seed,
            servers,
            routing,
            arrival,
            cache_latency,
            db_latency,
            db_write_latency: write_latency,
            db_pool,
            lock_ttl: lock_ttl_ms * MS,
            poll: poll_ms * MS,
            wait_timeout: wait_timeout_ms * MS,
            users,
            clicks,
            click_gap: click_gap_ms * MS,
            await_insert,
            requests,
            keys,
            cache: if warm { CacheStart::Warm } else { CacheStart::Cold },
            expire_at: expire_at.map(|ms| ms * MS),
            ttl: ttl_ms * MS,
            grace: grace_ms * MS,
            double_check,
            ..Config::new(scenario)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn keyed_mutex_has_one_holder_per_key_per_server(config in config()) {
        let config = Config { strategy: StrategyKind::KeyedMutex, ..config };
        let mut sim = Sim::new(&config);
        let metrics = sim.run();
        let mut holders: HashMap<(u32, String), i32> = HashMap::new();
        for event in sim.trace().events() {
            let server = sim.requests().spec(event.request as usize).server;
            let slot = holders.entry((server, format!("{:?}", event.key))).or_default();
            match event.what {
                What::Enter => *slot += 1,
                What::Exit => *slot -= 1,
                _ => continue,
            }
            prop_assert!((0..=1).contains(slot), "two holders of {:?} on server {server}", event.key);
        }
        if config.servers == 1 {
            prop_assert!(metrics.max_in_critical_section <= 1);
        }
    }

    #[test]
    fn the_same_config_gives_the_same_trace(config in config()) {
        let first = Sim::new(&config).run();
        let again = Sim::new(&config).run();
        prop_assert_eq!(&first, &again);
        let metrics_only = Sim::metrics_only(&config).run();
        prop_assert_eq!(first, metrics_only, "keeping the trace changes nothing");
    }

    #[test]
    fn the_same_url_gives_the_same_trace(config in config()) {
        let fragment = to_fragment(&config);
        let parsed = parse_fragment(&fragment).expect("a serialized config parses");
        prop_assert_eq!(Sim::new(&parsed).run(), Sim::new(&config).run());
    }

    #[test]
    fn fragments_round_trip(config in config()) {
        let fragment = to_fragment(&config);
        let parsed = parse_fragment(&fragment).expect("a serialized config parses");
        prop_assert_eq!(&parsed, &config, "{}", fragment);
        prop_assert_eq!(to_fragment(&parsed), fragment);
    }

    #[test]
    fn every_request_returns_and_every_write_lands(config in config()) {
        let mut sim = Sim::new(&config);
        let metrics = sim.run();
        let requests = match config.scenario {
            ScenarioKind::Stampede => u64::from(config.requests),
            ScenarioKind::Ticket => u64::from(config.users * config.clicks),
        };
        let returned = sim.trace().events().iter().filter(|e| e.what == What::Return).count();
        prop_assert_eq!(returned as u64, requests);
        prop_assert!(sim.is_done());
        prop_assert_eq!(metrics.orders, metrics.db_writes);
        prop_assert!(metrics.errors <= metrics.timeouts);
        if config.strategy != StrategyKind::StaleWhileRevalidate {
            // Only stale-while-revalidate serves stale data without giving up.
            prop_assert!(metrics.stale_served <= metrics.timeouts);
        }
        prop_assert_eq!(metrics.hung, 0, "no faults: nothing waits forever");
        if config.scenario == ScenarioKind::Stampede {
            prop_assert!(metrics.cache_hits + metrics.cache_misses >= requests);
        }
        if config.strategy == StrategyKind::KeyedMutex && config.servers == 1 && config.await_insert {
            prop_assert_eq!(metrics.duplicate_tickets, 0);
        }
    }

    #[test]
    fn no_input_panics_the_parser(input in ".{0,200}") {
        let (_, errors) = parse_fragment_lenient(&input);
        for error in errors {
            prop_assert!(!error.key.is_empty() || !error.message.is_empty());
        }
    }

    #[test]
    fn key_value_noise_never_panics(
        pairs in proptest::collection::vec(("[a-z_]{1,14}", "[a-z0-9:.,_-]{0,16}"), 0..8)
    ) {
        let fragment: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let (config, _) = parse_fragment_lenient(&fragment.join("&"));
        // Whatever survived parsing is a valid run.
        let small = Config { requests: config.requests.min(50), users: config.users.min(5), ..config };
        Sim::metrics_only(&small).run();
    }
}

#[test]
fn a_different_seed_usually_gives_a_different_trace() {
    let base = "scenario=stampede&strategy=keyed-mutex&db_latency=uniform:1ms..30ms";
    let hash = |seed: u64| {
        let config = parse_fragment(&format!("{base}&seed={seed}")).unwrap();
        Sim::new(&config).run().trace_hash
    };
    let differing = (0..20).filter(|&s| hash(s) != hash(s + 1)).count();
    assert!(differing >= 19, "only {differing} of 20 seed pairs differ");
}

prop_compose! {
    /// A run under a polling lock (`get-set`, `add`, `ticket-lock`) of up
    /// to `max_requests` requests, with leases, timeouts, faults and fixes.
    fn polling(max_requests: u32)(
        config in config(),
        strategy in proptest::sample::select(vec![
            StrategyKind::Add,
            StrategyKind::GetSet,
            StrategyKind::TicketLock,
        ]),
        requests in 0..max_requests,
        crash in proptest::option::of(0u32..10),
        pause in proptest::option::of((0u32..10, 0u64..100)),
        owner in any::<bool>(),
        fencing in any::<bool>(),
    ) -> Config {
        Config {
            strategy,
            requests,
            crash,
            pause: pause.map(|(request, ms)| Pause { request, duration: ms * MS }),
            release: if owner { ReleaseMode::Owner } else { ReleaseMode::Delete },
            fencing,
            ..config
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A run that keeps no events queues the polling locks' waiters in
    /// cohorts and folds each round of plain failures (`sim::poll`); one
    /// that keeps them runs each attempt and timer on its own. Both are the
    /// same run: the same counters and trace hash, run whole or in chunks
    /// of any size, with leases, timeouts, faults and fixes.
    #[test]
    fn polling_cohorts_fold_to_the_same_run(
        config in polling(150),
        chunk in 1u64..40,
    ) {
        let stepped = Sim::new(&config).run();
        let mut folded = Sim::metrics_only(&config);
        folded.fold_polls();
        prop_assert_eq!(&stepped, &folded.run());
        let mut chunked = Sim::metrics_only(&config);
        chunked.fold_polls();
        while !chunked.run_for(chunk) {}
        prop_assert_eq!(&stepped, &chunked.metrics());
    }

    /// The engine's polling primitive (`sim::poll`) is the loop the real
    /// servers run (`sim::ops::poll_loop`), awaited operation by operation:
    /// the same events in the same order, the same counters.
    #[test]
    fn the_polling_primitive_is_the_real_servers_loop(
        config in polling(60),
    ) {
        let mut primitive = Sim::new(&config);
        let metrics = primitive.run();
        let mut looped = Sim::new(&config);
        looped.poll_by_loop();
        prop_assert_eq!(&metrics, &looped.run());
        prop_assert_eq!(primitive.take_events(), looped.take_events());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// A run that keeps no events folds each emitter-lock herd in one step
    /// (`Core::emit_folded`); one that keeps them wakes each listener. Both
    /// are the same run: the same counters, trace hash, queue and work
    /// after every step, barging, several servers and keys included.
    #[test]
    fn emitter_lock_herds_fold_to_the_same_run(config in config(), requests in 0u32..200) {
        let config = Config { strategy: StrategyKind::EmitterLock, requests, ..config };
        let mut woken = Sim::new(&config);
        let mut folded = Sim::metrics_only(&config);
        loop {
            let (a, b) = (woken.step(), folded.step());
            prop_assert_eq!(a.is_some(), b.is_some());
            if a.is_none() {
                break;
            }
            prop_assert_eq!(woken.metrics(), folded.metrics());
            prop_assert_eq!(woken.pending(), folded.pending());
            prop_assert_eq!(woken.work(), folded.work());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Stepping back replays to exactly the state of the previous step.
    #[test]
    fn stepping_back_is_exact(config in config(), forward in 0u32..60) {
        use interleave::debugger::{Recording, Session};
        let recording = std::rc::Rc::new(Recording::of(&config).unwrap());
        let forward = forward.min(recording.steps);
        let mut walked = Session::new(recording.clone());
        for _ in 0..forward {
            walked.step();
        }
        walked.back();
        let mut direct = Session::new(recording);
        direct.seek(forward.saturating_sub(1));
        prop_assert_eq!(walked.position(), direct.position());
        prop_assert_eq!(walked.metrics(), direct.metrics());
        prop_assert_eq!(walked.pending(), direct.pending());
        prop_assert_eq!(walked.request_states(), direct.request_states());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// The debugger marks exactly the DB reads the explorer's `db-reads`
    /// check counts as redundant.
    #[test]
    fn extra_db_read_marks_match_the_db_reads_check(config in config()) {
        use interleave::debugger::{Recording, ViolationKind};
        let recording = Recording::of(&config).unwrap();
        let marks = recording
            .violations
            .iter()
            .filter(|v| v.kind == ViolationKind::ExtraDbRead)
            .count() as u64;
        let sim = interleave::run::replay(&config, false).unwrap();
        prop_assert_eq!(marks, sim.redundant_db_reads());
    }
}

proptest! {
    /// Percentiles by selection equal the nearest ranks of the sorted times.
    #[test]
    fn latencies_equal_the_nearest_ranks_of_the_sorted_times(
        times in proptest::collection::vec(0u64..1_000, 1..300)
    ) {
        let mut sorted = times.clone();
        sorted.sort_unstable();
        let n = sorted.len();
        let rank = |p: usize| sorted[(p * n).div_ceil(100).clamp(1, n) - 1];
        let latencies = interleave::sim::metrics::Latencies::of(&times);
        prop_assert_eq!(latencies.p50, rank(50));
        prop_assert_eq!(latencies.p99, rank(99));
        prop_assert_eq!(latencies.max, sorted[n - 1]);
    }
}
