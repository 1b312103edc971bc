//! The stories of DESIGN.md §1, with counts worked out by hand on `const`
//! latencies (cache 1 ms, DB 20 ms unless a test says otherwise).
#![cfg(not(target_arch = "wasm32"))]

use interleave::config::{Arrival, CacheStart, Config, Latency, ScenarioKind, StrategyKind, MS};
use interleave::{Metrics, Sim};

fn stampede(strategy: StrategyKind) -> Config {
    Config {
        strategy,
        ..Config::new(ScenarioKind::Stampede)
    }
}

fn ticket(strategy: StrategyKind) -> Config {
    Config {
        strategy,
        ..Config::new(ScenarioKind::Ticket)
    }
}

fn run(config: &Config) -> Metrics {
    Sim::new(config).run()
}

mod stampede {
    use super::*;

    #[test]
    fn no_lock_sends_every_request_to_the_db() {
        let m = run(&stampede(StrategyKind::None));
        assert_eq!((m.db_reads, m.cache_misses, m.cache_hits), (10, 10, 0));
        assert_eq!(m.max_in_critical_section, 10);
        assert_eq!(m.peak_db_concurrency, 10);
        // get 1 ms + select 20 ms + set 1 ms, for everyone.
        assert_eq!((m.latency_us.p50, m.latency_us.max), (22 * MS, 22 * MS));
        // 10 arrivals, 10 gets, 10 selects, 10 sets.
        assert_eq!(m.events, 40);
    }

    #[test]
    fn keyed_mutex_with_double_check_loads_once() {
        let m = run(&stampede(StrategyKind::KeyedMutex));
        assert_eq!(m.db_reads, 1);
        // 10 first reads miss; the leader's re-check misses, 9 re-checks hit.
        assert_eq!((m.cache_misses, m.cache_hits), (11, 9));
        assert_eq!(m.max_in_critical_section, 1);
        assert_eq!(m.lock_wakeups, 0, "a FIFO hand-off wakes no one in vain");
        // The leader returns at 23 ms, then one re-check (1 ms) per waiter.
        assert_eq!(m.latency_us.p50, 27 * MS);
        assert_eq!(m.latency_us.max, 32 * MS);
    }

    #[test]
    fn keyed_mutex_without_double_check_only_serializes() {
        let m = run(&Config {
            double_check: false,
            ..stampede(StrategyKind::KeyedMutex)
        });
        assert_eq!(m.db_reads, 10);
        assert_eq!(m.max_in_critical_section, 1);
        assert_eq!(m.peak_db_concurrency, 1);
        // Ten loads of 21 ms in a row after the 1 ms read.
        assert_eq!(m.latency_us.max, 211 * MS);
    }

    #[test]
    fn single_flight_shares_one_load() {
        let m = run(&stampede(StrategyKind::SingleFlight));
        assert_eq!(m.db_reads, 1);
        assert_eq!((m.cache_misses, m.cache_hits), (10, 0));
        assert_eq!(m.max_in_critical_section, 1);
        assert_eq!(m.latency_us.max, 22 * MS);
    }

    #[test]
    fn single_flight_is_per_server() {
        let m = run(&Config {
            servers: 2,
            ..stampede(StrategyKind::SingleFlight)
        });
        assert_eq!(m.db_reads, 2);
        assert_eq!(m.max_in_critical_section, 2);
    }

    #[test]
    fn client_side_get_set_lets_everyone_in() {
        let m = run(&stampede(StrategyKind::GetSet));
        assert_eq!(m.db_reads, 10);
        assert_eq!(m.max_in_critical_section, 10);
        assert_eq!(m.lock_wakeups, 0, "every get found no lock");
        assert_eq!(m.cache_misses, 20, "first reads and re-checks all miss");
    }

    #[test]
    fn atomic_add_admits_one_holder_at_a_time() {
        let m = run(&stampede(StrategyKind::Add));
        assert_eq!(m.db_reads, 1);
        assert_eq!(m.max_in_critical_section, 1);
        assert_eq!((m.cache_misses, m.cache_hits), (11, 9));
        // Rounds of 11 ms (add 1 ms + poll 10 ms): 9 fail at 2, 13 and 24 ms
        // while the leader holds the lock; then one waiter wins per round.
        assert_eq!(m.lock_wakeups, 27 + 8 + 7 + 6 + 5 + 4 + 3 + 2 + 1);
        assert_eq!(m.timeouts, 0);
    }

    #[test]
    fn waiters_that_give_up_serve_their_stale_read() {
        let m = run(&Config {
            requests: 3,
            cache: CacheStart::Warm,
            expire_at: Some(0),
            grace: 1_000 * MS,
            wait_timeout: 20 * MS,
            db_latency: Latency::Const(100 * MS),
            ..stampede(StrategyKind::Add)
        });
        // Attempts land at 2, 13 and 24 ms; 24 - 1 >= 20 gives up.
        assert_eq!(m.timeouts, 2);
        assert_eq!(m.stale_served, 2);
        assert_eq!(m.errors, 0);
        assert_eq!(m.lock_wakeups, 6);
        assert_eq!(m.db_reads, 1);
        assert_eq!(m.cache_misses, 4, "stale reads are misses");
    }

    #[test]
    fn waiters_without_stale_data_fail() {
        let m = run(&Config {
            requests: 3,
            wait_timeout: 20 * MS,
            db_latency: Latency::Const(100 * MS),
            ..stampede(StrategyKind::Add)
        });
        assert_eq!((m.timeouts, m.errors, m.stale_served), (2, 2, 0));
    }

    #[test]
    fn a_warm_cache_serves_hits() {
        let m = run(&Config {
            cache: CacheStart::Warm,
            ..stampede(StrategyKind::None)
        });
        assert_eq!((m.cache_hits, m.db_reads), (10, 0));
        assert_eq!(m.latency_us.max, MS);
    }

    #[test]
    fn the_pool_queues_queries_fifo() {
        let m = run(&Config {
            requests: 4,
            db_pool: Some(1),
            ..stampede(StrategyKind::None)
        });
        assert_eq!(m.peak_db_concurrency, 1);
        assert_eq!(m.db_reads, 4);
        // Selects run 1-21, 21-41, 41-61, 61-81 ms, then a 1 ms set.
        assert_eq!(m.latency_us.max, 82 * MS);
    }

    #[test]
    fn gap_arrivals_after_the_load_hit() {
        let m = run(&Config {
            requests: 3,
            arrival: Arrival::Gap(30 * MS),
            ..stampede(StrategyKind::None)
        });
        assert_eq!((m.db_reads, m.cache_hits), (1, 2));
    }
}

mod ticket {
    use super::*;

    #[test]
    fn a_double_click_without_a_lock_issues_two_tickets() {
        let m = run(&ticket(StrategyKind::None));
        assert_eq!((m.orders, m.duplicate_tickets), (2, 1));
        assert_eq!((m.db_reads, m.db_writes), (2, 2));
        assert_eq!(m.max_in_critical_section, 2);
    }

    #[test]
    fn a_keyed_mutex_fixes_it_on_one_server() {
        let m = run(&ticket(StrategyKind::KeyedMutex));
        assert_eq!((m.orders, m.duplicate_tickets), (1, 0));
        assert_eq!((m.db_reads, m.db_writes), (2, 1));
        // find + insert, then the second click's find.
        assert_eq!(m.latency_us.max, 60 * MS);
    }

    #[test]
    fn the_keyed_mutex_breaks_again_on_two_servers() {
        let m = run(&Config {
            servers: 2,
            ..ticket(StrategyKind::KeyedMutex)
        });
        assert_eq!(m.duplicate_tickets, 1);
        assert_eq!(m.max_in_critical_section, 2);
    }

    #[test]
    fn sticky_routing_keeps_a_user_on_one_server() {
        let m = run(&Config {
            servers: 2,
            routing: interleave::config::Routing::Sticky,
            ..ticket(StrategyKind::KeyedMutex)
        });
        assert_eq!(m.duplicate_tickets, 0);
    }

    #[test]
    fn a_forgotten_await_duplicates_under_the_mutex_when_writes_are_slow() {
        let m = run(&Config {
            await_insert: false,
            db_write_latency: Some(Latency::Const(30 * MS)),
            ..ticket(StrategyKind::KeyedMutex)
        });
        assert_eq!((m.orders, m.duplicate_tickets), (2, 1));
        assert_eq!(m.max_in_critical_section, 1, "the lock itself held");
    }

    #[test]
    fn a_forgotten_await_is_hidden_when_the_write_lands_first() {
        // The insert (sent at 20 ms) and the second find (sent after it) both
        // land at 40 ms; the earlier-scheduled insert goes first.
        let m = run(&Config {
            await_insert: false,
            ..ticket(StrategyKind::KeyedMutex)
        });
        assert_eq!(m.duplicate_tickets, 0);
    }

    #[test]
    fn get_set_lets_both_clicks_in() {
        let m = run(&ticket(StrategyKind::GetSet));
        assert_eq!(m.duplicate_tickets, 1);
        assert_eq!(m.max_in_critical_section, 2);
        assert_eq!(m.cache_hits + m.cache_misses, 0, "lock keys are not data");
    }

    #[test]
    fn add_makes_the_second_click_wait() {
        let m = run(&ticket(StrategyKind::Add));
        assert_eq!(m.duplicate_tickets, 0);
        // The second click's adds land at 1, 12, 23 and 34 ms while the
        // first holds the lock (delete lands at 42), then at 45 ms it wins.
        assert_eq!(m.lock_wakeups, 4);
        assert_eq!((m.db_reads, m.db_writes), (2, 1));
    }

    #[test]
    fn add_waiters_time_out() {
        let m = run(&Config {
            wait_timeout: 20 * MS,
            ..ticket(StrategyKind::Add)
        });
        assert_eq!((m.timeouts, m.errors, m.lock_wakeups), (1, 1, 3));
        assert_eq!(m.orders, 1);
    }

    #[test]
    fn single_flight_shares_the_whole_body() {
        let m = run(&ticket(StrategyKind::SingleFlight));
        assert_eq!((m.db_reads, m.db_writes, m.duplicate_tickets), (1, 1, 0));
    }
}
