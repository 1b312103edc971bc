//! The seeds' own lock variants, lease faults and their fixes (issue 5),
//! with counts worked out by hand on `const` latencies: cache 1 ms, DB 20 ms,
//! poll 10 ms, unless a fragment says otherwise.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

use proptest::prelude::*;

use interleave::config::url::parse_fragment;
use interleave::config::{Config, Pause, Routing, ScenarioKind, StrategyKind, MS};
use interleave::sim::trace::{OpKind, Outcome, TraceKey};
use interleave::sim::{Sim, What};
use interleave::Metrics;

fn config(fragment: &str) -> Config {
    parse_fragment(fragment).unwrap_or_else(|e| panic!("{fragment}: {e}"))
}

fn run(fragment: &str) -> Metrics {
    Sim::new(&config(fragment)).run()
}

/// The (time, step) of the first `what` event of `request`.
fn first(sim: &Sim, request: u32, what: What) -> (u64, u32) {
    let event = sim
        .trace()
        .events()
        .iter()
        .find(|e| e.request == request && e.what == what)
        .copied()
        .unwrap_or_else(|| panic!("no {what:?} for request {request}"));
    (event.time, event.step)
}

mod emitter_lock {
    use super::*;

    #[test]
    fn release_wakes_every_waiter_a_thundering_herd() {
        // Ten requests miss at 1 ms; R0 takes the lock, R1..R9 listen.
        // R0: re-check 2, select 22, set 23, release: emit at 23 wakes all
        // nine; R1 wins, eight listen again. Each release wakes the rest:
        // 8 + 7 + ... + 0 = 36 vain wake-ups. The FIFO mutex wakes only
        // the next one: 0.
        let emitter = run("scenario=stampede&strategy=emitter-lock");
        let mutex = run("scenario=stampede&strategy=keyed-mutex");
        assert_eq!((emitter.lock_wakeups, mutex.lock_wakeups), (36, 0));
        assert_eq!((emitter.db_reads, emitter.max_in_critical_section), (1, 1));
        // setImmediate runs at the same virtual time, so the times match:
        // the winner re-checks (hit) 1 ms after each release.
        assert_eq!(emitter.latency_us, mutex.latency_us);
        assert_eq!(
            (emitter.latency_us.p50, emitter.latency_us.max),
            (27 * MS, 32 * MS)
        );
        // But every release costs one more macrotask: 32 + 10 emits.
        assert_eq!((emitter.events, mutex.events), (42, 32));
    }

    #[test]
    fn the_hand_off_is_a_macrotask_not_a_microtask() {
        let mut sim = Sim::new(&config(
            "scenario=stampede&strategy=emitter-lock&requests=2",
        ));
        sim.run();
        let (exit_time, exit_step) = first(&sim, 0, What::Exit);
        let (wake_time, wake_step) = first(&sim, 1, What::Wake);
        assert_eq!((exit_time, wake_time), (23 * MS, 23 * MS));
        assert_eq!(wake_step, exit_step + 1, "woken by the next macrotask");
        let mut sim = Sim::new(&config("scenario=stampede&strategy=keyed-mutex&requests=2"));
        sim.run();
        let (_, exit_step) = first(&sim, 0, What::Exit);
        let grants: Vec<_> = sim
            .trace()
            .events()
            .iter()
            .filter(|e| e.request == 1 && e.what == What::MutexGrant)
            .map(|e| e.step)
            .collect();
        assert_eq!(
            grants,
            [exit_step],
            "the mutex hands over in the same macrotask"
        );
    }
}

mod ticket_lock {
    use super::*;

    #[test]
    fn polling_adds_latency() {
        // R0 takes ticket 0 (free) and returns at 23 ms. R1..R9 take
        // tickets 1..9 and check at 1 ms, then every 10 ms: 11, 21, 31...
        // Ticket k is served at the first tick after k-1 releases:
        // R1 at 31 (re-check hit, releases at 32), R2 at 41, ..., R9 at 111,
        // returning at 32, 42, ..., 112 ms. Failed checks: Rk fails at
        // 1, 11, ..., 21 + 10(k-1): k + 2 times; sum over k=1..9 = 63.
        let m = run("scenario=stampede&strategy=ticket-lock");
        assert_eq!((m.db_reads, m.max_in_critical_section), (1, 1));
        assert_eq!(m.lock_wakeups, 63);
        assert_eq!((m.latency_us.p50, m.latency_us.max), (62 * MS, 112 * MS));
    }

    #[test]
    fn the_lease_lets_a_second_holder_in_and_fencing_rejects_the_late_write() {
        // R0 takes ticket 0 at 0 and pauses 30 ms. R1 takes ticket 1, fails
        // at 0 and polls: at 10 ms ticket 0 has been served 10 >= 5 ms, so
        // the lease skips it and R1 enters while R0 is still inside.
        // R1: find 10->30 (none), insert 30->50, releases, returns at 50.
        // R0: find 30->50 lands before R1's insert (queued earlier), so it
        // finds none and inserts 50->70: a duplicate. Its release does
        // nothing (ticket 0 is no longer served).
        let base = "scenario=ticket&strategy=ticket-lock&lock_ttl=5ms&pause=0:30ms";
        let m = run(base);
        assert_eq!((m.max_in_critical_section, m.duplicate_tickets), (2, 1));
        assert_eq!(m.lock_wakeups, 1);
        assert_eq!((m.latency_us.p50, m.latency_us.max), (50 * MS, 70 * MS));
        // Fencing: R0 entered with token 1, R1 with token 2. R1's write
        // (2) lands first; R0's (1) is older and refused.
        let m = run(&format!("{base}&fencing=true"));
        assert_eq!((m.max_in_critical_section, m.rejected_writes), (2, 1));
        assert_eq!((m.orders, m.duplicate_tickets, m.errors), (1, 0, 1));
    }

    #[test]
    fn a_crashed_holder_blocks_until_its_lease_runs_out() {
        // R0 enters at 0 and crashes (an error, 0 ms). R1 fails at 0, 10,
        // 20, 30, 40 (5 wake-ups); at 50 the lease (50 ms) skips ticket 0:
        // find 50->70, insert 70->90.
        let m = run("scenario=ticket&strategy=ticket-lock&lock_ttl=50ms&crash=0");
        assert_eq!((m.errors, m.hung, m.orders, m.lock_wakeups), (1, 0, 1, 5));
        assert_eq!((m.latency_us.p50, m.latency_us.max), (0, 90 * MS));
    }
}

mod lease_faults {
    use super::*;

    const ADD_PAUSE: &str = "scenario=ticket&strategy=add&lock_ttl=5ms&pause=0:30ms";

    #[test]
    fn add_with_a_short_lease_admits_two_holders() {
        // R0: add 0->1 stored (expires 6), pause 1->31, find 31->51 (none:
        // R1's insert lands at 52), insert 51->71, delete 71->72.
        // R1: add 0->1 refused, sleep 10, add 11->12 stored (the lease ran
        // out at 6), find 12->32, insert 32->52, delete 52->53.
        let m = run(ADD_PAUSE);
        assert_eq!((m.max_in_critical_section, m.duplicate_tickets), (2, 1));
        assert_eq!((m.lock_wakeups, m.db_writes), (1, 2));
        assert_eq!((m.latency_us.p50, m.latency_us.max), (53 * MS, 72 * MS));
    }

    #[test]
    fn fencing_rejects_the_late_write() {
        // Same run: R0 holds token 1, R1 token 2. R1's insert (2) lands at
        // 52; R0's (1) at 71 is older: refused, and R0's request fails.
        let mut sim = Sim::new(&config(&format!("{ADD_PAUSE}&fencing=true")));
        let m = sim.run();
        assert_eq!((m.rejected_writes, m.errors), (1, 1));
        assert_eq!((m.orders, m.duplicate_tickets), (1, 0));
        let inserts: Vec<_> = sim
            .trace()
            .events()
            .iter()
            .filter(|e| e.what == What::Complete(OpKind::DbInsert))
            .map(|e| (e.time, e.request, e.detail, e.outcome))
            .collect();
        assert_eq!(
            inserts,
            [
                (52 * MS, 1, 2, Outcome::Inserted),
                (71 * MS, 0, 1, Outcome::Fenced)
            ]
        );
    }

    #[test]
    fn add_waiters_wait_for_a_crashed_holders_ttl() {
        // R0: add 0->1 stored (expires 51), crashes. R1 fails at 1, 12, 23,
        // 34, 45; its add 55->56 finds the lock expired: find 56->76,
        // insert 76->96, delete 96->97.
        let m = run("scenario=ticket&strategy=add&lock_ttl=50ms&crash=0");
        assert_eq!((m.errors, m.orders, m.lock_wakeups), (1, 1, 5));
        assert_eq!((m.latency_us.p50, m.latency_us.max), (MS, 97 * MS));
    }

    #[test]
    fn add_waiters_that_give_up_serve_stale_data() {
        // Warm but expired (stale within grace). All read stale at 1 ms.
        // R0: add 1->2 stored, crashes (2 ms). R1, R2: add 1->2 refused,
        // 12->13 refused, 23->24 refused: 24 - 1 >= 20 ms, give up, serve
        // the stale value. No DB read at all.
        let m = run(
            "scenario=stampede&strategy=add&requests=3&cache=warm&expire_at=0&grace=10s\
             &crash=0&wait_timeout=20ms",
        );
        assert_eq!((m.errors, m.timeouts, m.stale_served), (1, 2, 2));
        assert_eq!((m.db_reads, m.lock_wakeups), (0, 6));
        assert_eq!((m.latency_us.p50, m.latency_us.max), (24 * MS, 24 * MS));
    }

    #[test]
    fn in_process_waiters_behind_a_crash_hang_and_the_run_ends() {
        // R0 takes the mutex at 0 and crashes; R1 waits forever. Only the
        // two arrivals ever run.
        for strategy in ["keyed-mutex", "emitter-lock"] {
            let mut sim = Sim::new(&config(&format!(
                "scenario=ticket&strategy={strategy}&crash=0"
            )));
            let m = sim.run();
            assert!(sim.is_done());
            assert_eq!((m.errors, m.hung, m.events), (1, 1, 2), "{strategy}");
            assert_eq!(m.max_in_critical_section, 1, "{strategy}");
        }
        // A crashed single-flight leader strands its nine followers.
        let m = run("scenario=stampede&strategy=single-flight&crash=0");
        assert_eq!((m.errors, m.hung, m.db_reads), (1, 9, 0));
    }

    #[test]
    fn a_fault_on_a_request_that_never_enters_does_nothing() {
        // A warm cache: every request hits and none enters a section.
        let base = "scenario=stampede&strategy=add&cache=warm";
        let quiet = run(base);
        assert_eq!(run(&format!("{base}&crash=0&pause=1:1s")), quiet);
        // A request number beyond the run.
        let base = "scenario=ticket&strategy=add";
        assert_eq!(run(&format!("{base}&crash=7")), run(base));
    }
}

mod owner_release {
    use super::*;

    const SLOW_HOLDER: &str =
        "scenario=stampede&strategy=add&requests=3&lock_ttl=50ms&pause=0:40ms";

    /// (R1's exit, R2's enter) times.
    fn r1_exit_r2_enter(fragment: &str) -> (u64, u64) {
        let mut sim = Sim::new(&config(fragment));
        sim.run();
        (first(&sim, 1, What::Exit).0, first(&sim, 2, What::Enter).0)
    }

    #[test]
    fn an_unconditional_delete_frees_the_next_holders_lock() {
        // R0: get 1, add 1->2 stored (expires 52), pause 2->42, re-check
        // 43 (miss), select 63, set 64, delete 64->65.
        // R1, R2 poll: adds land at 2, 13, 24, 35, 46 (refused); at 57 R1's
        // add finds the lease expired (R2's, just after, is refused).
        // R1: re-check 58 (miss), select 78, set 79, delete 80.
        // R0's delete at 65 removes R1's lock, so R2's add at 67->68 is
        // stored while R1 is still inside (exit at 79): R2 re-checks 69
        // (hit: R0's set) and deletes 70.
        let m = run(SLOW_HOLDER);
        assert_eq!(r1_exit_r2_enter(SLOW_HOLDER), (79 * MS, 68 * MS));
        assert_eq!((m.db_reads, m.cache_hits, m.cache_misses), (2, 1, 5));
        assert_eq!(m.lock_wakeups, 5 + 6);
        assert_eq!((m.latency_us.p50, m.latency_us.max), (70 * MS, 80 * MS));
    }

    #[test]
    fn an_owner_delete_spares_it() {
        // R0's check-and-delete at 65 finds R1's token: nothing deleted.
        // R2's adds at 68 and 79 are refused (R1's delete lands at 80);
        // its add 89->90 is stored, after R1 left.
        let fragment = format!("{SLOW_HOLDER}&release=owner");
        let mut sim = Sim::new(&config(&fragment));
        let m = sim.run();
        assert_eq!(r1_exit_r2_enter(&fragment), (79 * MS, 90 * MS));
        let owner_deletes: Vec<_> = sim
            .trace()
            .events()
            .iter()
            .filter(|e| e.what == What::Complete(OpKind::CacheDeleteIfOwner))
            .map(|e| (e.request, e.outcome))
            .collect();
        assert_eq!(
            owner_deletes,
            [
                (0, Outcome::NotOwner),
                (1, Outcome::Deleted),
                (2, Outcome::Deleted)
            ]
        );
        assert_eq!(m.lock_wakeups, 5 + 8);
        assert_eq!((m.latency_us.p50, m.latency_us.max), (80 * MS, 92 * MS));
    }
}

mod db_unique {
    use super::*;

    #[test]
    fn two_servers_cannot_duplicate() {
        // Round-robin: each click on its own server's mutex. Both find no
        // order at 20 ms and insert; at 40 the first lands, the second
        // breaks the constraint: an error, no duplicate.
        let base = "scenario=ticket&strategy=keyed-mutex&servers=2";
        assert_eq!(run(base).duplicate_tickets, 1);
        let m = run(&format!("{base}&db_unique=true"));
        assert_eq!((m.orders, m.duplicate_tickets, m.errors), (1, 0, 1));
        assert_eq!(m.latency_us.max, 40 * MS);
    }

    #[test]
    fn every_conflict_costs_an_error() {
        // No lock, 3 users x 3 clicks: per user one insert lands, two fail.
        let m = run("scenario=ticket&users=3&clicks=3&db_unique=true");
        assert_eq!((m.orders, m.duplicate_tickets, m.errors), (3, 0, 6));
        // A fire-and-forget insert fails after its request returned: still
        // counted.
        let m = run("scenario=ticket&await_insert=false&db_unique=true");
        assert_eq!((m.orders, m.errors), (1, 1));
        assert_eq!(m.latency_us.max, 20 * MS);
    }
}

mod stampede_defences {
    use super::*;

    const EXPIRED: &str = "scenario=stampede&cache=warm&expire_at=0&grace=10s";

    #[test]
    fn stale_while_revalidate_answers_at_once() {
        // All ten read the stale value at 1 ms and answer with it; R0 also
        // refreshes in the background (select 1->21, set 21->22).
        let m = run(&format!("{EXPIRED}&strategy=stale-while-revalidate"));
        assert_eq!((m.db_reads, m.stale_served, m.cache_misses), (1, 10, 10));
        assert_eq!((m.latency_us.p50, m.latency_us.max), (MS, MS));
        // 10 arrivals, 10 gets, select, set.
        assert_eq!(m.events, 22);
        // The locks load once too, but make everyone wait for it.
        let mutex = run(&format!("{EXPIRED}&strategy=keyed-mutex"));
        assert_eq!((mutex.db_reads, mutex.stale_served), (1, 0));
        assert_eq!(mutex.latency_us.max, 32 * MS);
        let none = run(&format!("{EXPIRED}&strategy=none"));
        assert_eq!((none.db_reads, none.latency_us.max), (10, 22 * MS));
    }

    #[test]
    fn stale_while_revalidate_without_stale_data_shares_one_load() {
        // A cold cache has nothing to serve: like single-flight.
        let m = run("scenario=stampede&strategy=stale-while-revalidate");
        assert_eq!(
            (m.db_reads, m.stale_served, m.latency_us.max),
            (1, 0, 22 * MS)
        );
    }

    const HOT: &str = "scenario=stampede&arrival=gap:10ms&cache=warm&expire_at=50ms&ttl=86400s";

    #[test]
    fn without_early_refresh_three_requests_meet_the_expired_key() {
        // Requests at 0, 10, ..., 90. R5 (get at 51), R6 (61) and R7 (71)
        // miss: R5's set lands at 72. R8, R9 hit.
        let m = run(&format!("{HOT}&strategy=none"));
        assert_eq!((m.db_reads, m.cache_misses, m.early_refreshes), (3, 3, 0));
        // beta=0 never refreshes early: the same run.
        let m = run(&format!("{HOT}&strategy=xfetch&beta=0"));
        assert_eq!((m.db_reads, m.cache_misses, m.early_refreshes), (3, 3, 0));
    }

    #[test]
    fn xfetch_with_a_high_beta_refreshes_before_expiry() {
        // delta is 20 ms (a warm entry's is the mean DB latency). With
        // beta=10000, R0 at 1 ms refreshes unless -ln(r) < 49/200000, a
        // 0.02% chance; so do R1 (11 ms) and R2 (21 ms), which still read
        // the warm entry (R0's set lands at 22). The new entry expires
        // 86400 s later, which no draw reaches. Nobody meets an expired key.
        let m = run(&format!("{HOT}&strategy=xfetch&beta=10000"));
        assert_eq!((m.early_refreshes, m.db_reads), (3, 3));
        assert_eq!((m.cache_misses, m.cache_hits), (0, 10));
        assert_eq!(m.latency_us.max, 22 * MS);
    }

    #[test]
    fn the_defences_against_the_locks_on_a_hot_key() {
        // (db_reads, cache_misses, stale_served, max latency) on HOT.
        let row = |strategy: &str, extra: &str| {
            let m = run(&format!("{HOT}&strategy={strategy}{extra}"));
            (m.db_reads, m.cache_misses, m.stale_served, m.latency_us.max)
        };
        // Keyed mutex: R5 misses at 51, re-checks 52 (miss), selects ->72,
        // sets ->73; R6 (miss 61) and R7 (miss 71) wait and re-check (hit)
        // at 74 and 75: R5 waits longest, 23 ms.
        assert_eq!(row("keyed-mutex", ""), (1, 4, 0, 23 * MS));
        // Stale-while-revalidate with 1 s of grace: R5, R6, R7 read the
        // stale value and answer at once; R5 refreshes (51->71->72).
        assert_eq!(row("stale-while-revalidate", "&grace=1s"), (1, 3, 3, MS));
        // XFetch refreshes ahead (see above): no miss, three loads, and
        // the refreshing requests take 22 ms.
        assert_eq!(row("xfetch", "&beta=10000"), (3, 0, 0, 22 * MS));
    }

    #[test]
    fn xfetch_draws_do_not_shift_latencies() {
        // Its own RNG stream: with random latencies, beta=0 (no early
        // refresh, but draws still made) gives the run `none` gives.
        let base = "scenario=stampede&cache=warm&expire_at=50ms&arrival=gap:5ms\
                    &db_latency=uniform:5ms..30ms&requests=30";
        let none = run(&format!("{base}&strategy=none"));
        let xfetch = run(&format!("{base}&strategy=xfetch&beta=0"));
        assert_eq!(
            (none.db_reads, none.cache_misses, none.latency_us),
            (xfetch.db_reads, xfetch.cache_misses, xfetch.latency_us)
        );
    }
}

fn lock_strategy() -> impl Strategy<Value = StrategyKind> {
    proptest::sample::select(vec![
        StrategyKind::GetSet,
        StrategyKind::Add,
        StrategyKind::KeyedMutex,
        StrategyKind::EmitterLock,
        StrategyKind::TicketLock,
    ])
}

prop_compose! {
    /// Small ticket runs with short leases and a pause, any topology.
    fn faulty_ticket()(
        strategy in lock_strategy(),
        seed in any::<u64>(),
        servers in 1u32..4,
        routing in proptest::sample::select(vec![Routing::RoundRobin, Routing::Sticky, Routing::Random]),
        users in 1u32..4,
        clicks in 1u32..4,
        click_gap_ms in 0u64..20,
        db_ms in 1u64..30,
        write_ms in 1u64..30,
        lock_ttl_ms in 1u64..40,
        poll_ms in 1u64..15,
        pause in proptest::option::of((0u32..8, 0u64..80)),
        crash in proptest::option::of(0u32..8),
        await_insert in any::<bool>(),
        db_unique in any::<bool>(),
    ) -> Config {
        let latency = |ms: u64| {
            interleave::config::Latency::Uniform(ms * MS / 2, ms * MS)
        };
        Config {
            strategy,
            seed,
            servers,
            routing,
            users,
            clicks,
            click_gap: click_gap_ms * MS,
            db_latency: latency(db_ms),
            db_write_latency: Some(latency(write_ms)),
            lock_ttl: lock_ttl_ms * MS,
            poll: poll_ms * MS,
            wait_timeout: 200 * MS,
            pause: pause.map(|(request, ms)| Pause { request, duration: ms * MS }),
            crash,
            await_insert,
            db_unique,
            fencing: true,
            ..Config::new(ScenarioKind::Ticket)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn fencing_accepts_no_write_older_than_an_accepted_one(config in faulty_ticket()) {
        let mut sim = Sim::new(&config);
        let metrics = sim.run();
        let mut newest: HashMap<u32, u64> = HashMap::new();
        let mut fenced = 0;
        for event in sim.trace().events() {
            if event.what != What::Complete(OpKind::DbInsert) {
                continue;
            }
            let TraceKey::Data(user) = event.key else { continue };
            prop_assert!(event.detail > 0, "every write under a lock carries a token");
            let seen = newest.entry(user).or_default();
            match event.outcome {
                Outcome::Fenced => {
                    prop_assert!(event.detail < *seen);
                    fenced += 1;
                }
                _ => {
                    prop_assert!(event.detail >= *seen, "accepted an older token");
                    *seen = event.detail;
                }
            }
        }
        prop_assert_eq!(metrics.rejected_writes, fenced);
    }

    #[test]
    fn a_unique_constraint_never_duplicates(
        config in faulty_ticket(),
        strategy in proptest::sample::select(StrategyKind::ALL.to_vec()),
    ) {
        let config = Config { strategy, db_unique: true, fencing: false, ..config };
        let metrics = Sim::new(&config).run();
        prop_assert_eq!(metrics.duplicate_tickets, 0);
    }

    #[test]
    fn every_request_answers_or_hangs_and_the_run_ends(
        config in faulty_ticket(),
        strategy in proptest::sample::select(StrategyKind::ALL.to_vec()),
        stampede in any::<bool>(),
    ) {
        let config = Config {
            strategy,
            scenario: if stampede { ScenarioKind::Stampede } else { ScenarioKind::Ticket },
            grace: if stampede { 50 * MS } else { 0 },
            ttl: 30 * MS,
            requests: 8,
            ..config
        };
        let mut sim = Sim::new(&config);
        let metrics = sim.run();
        prop_assert!(sim.is_done());
        let requests = sim.requests().len() as u64;
        let returned = sim.trace().events().iter().filter(|e| e.what == What::Return).count();
        prop_assert_eq!(returned as u64 + metrics.hung, requests);
        if config.crash.is_none_or(|r| u64::from(r) >= requests) {
            prop_assert_eq!(metrics.hung, 0);
        }
    }
}
