//! DB transactions in the ticket body (`tx=`, `docs/transactions.md`),
//! with counts and times worked out by hand on `const` latencies: DB reads
//! and writes 20 ms, one user, two clicks in a burst unless a test says
//! otherwise. BEGIN has no round trip; FOR UPDATE is a read, COMMIT a write.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use interleave::config::url::{parse_fragment, to_fragment};
use interleave::config::{TxMode, MS};
use interleave::explore::{Check, ExploreOptions, Explorer, Observation};
use interleave::run::replay;
use interleave::sim::{Outcome, What};
use interleave::{Config, Metrics, Sim};

fn config(fragment: &str) -> Config {
    parse_fragment(fragment).expect("a good fragment")
}

fn run(fragment: &str) -> Metrics {
    Sim::new(&config(fragment)).run()
}

fn ticket(tx: &str) -> String {
    format!("scenario=ticket&tx={tx}")
}

#[test]
fn without_a_transaction_both_clicks_insert() {
    let m = run(&ticket("none"));
    assert_eq!((m.orders, m.duplicate_tickets, m.errors), (2, 1, 0));
    // find 0..20 ms, insert 20..40 ms.
    assert_eq!(m.latency_us.max, 40 * MS);
}

// Both finds land at 20 ms seeing no committed order; both inserts are
// buffered at 40 ms; both commits land at 60 ms: two rows.
#[test]
fn read_committed_still_duplicates() {
    let m = run(&ticket("read-committed"));
    assert_eq!((m.orders, m.duplicate_tickets, m.errors), (2, 1, 0));
    assert_eq!((m.db_reads, m.db_writes), (2, 2));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (60 * MS, 60 * MS));
}

// As above until 60 ms: request 0's commit lands first (issued first) and
// commits; request 1's commit finds that its "no order" read is stale and
// fails with a serialization failure.
#[test]
fn serializable_fails_the_later_committer() {
    let m = run(&ticket("serializable"));
    assert_eq!((m.orders, m.duplicate_tickets, m.errors), (1, 0, 1));
    assert_eq!((m.db_reads, m.db_writes), (2, 2));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (60 * MS, 60 * MS));
    let mut sim = Sim::new(&config(&ticket("serializable")));
    sim.run();
    let failures: Vec<_> = sim
        .take_events()
        .into_iter()
        .filter(|e| e.outcome == Outcome::SerializationFailure)
        .map(|e| (e.request, e.time))
        .collect();
    assert_eq!(failures, vec![(1, 60 * MS)]);
}

// The failed request starts over at 60 ms: its find (60..80 ms) sees the
// committed order, so it inserts nothing and commits (80..100 ms).
#[test]
fn serializable_with_a_retry_ends_with_one_order_and_no_error() {
    let m = run(&format!("{}&tx_retries=1", ticket("serializable")));
    assert_eq!((m.orders, m.duplicate_tickets, m.errors), (1, 0, 0));
    assert_eq!((m.db_reads, m.db_writes), (3, 2));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (60 * MS, 100 * MS));
}

// The second click comes 30 ms later: its find (30..50 ms) sees no order
// (request 0 commits at 60 ms), and its insert lands at 70 ms, after that
// commit: the insert itself fails, as PostgreSQL reports it.
#[test]
fn serializable_fails_an_insert_that_lands_after_the_other_commit() {
    let fragment = format!("{}&click_gap=30ms", ticket("serializable"));
    let m = run(&fragment);
    assert_eq!((m.orders, m.errors), (1, 1));
    assert_eq!((m.db_reads, m.db_writes), (2, 2));
    // Request 0: 60 ms; request 1: 30 ms to 70 ms.
    assert_eq!((m.latency_us.p50, m.latency_us.max), (40 * MS, 60 * MS));
    let mut sim = Sim::new(&config(&fragment));
    sim.run();
    let failed = sim
        .take_events()
        .into_iter()
        .find(|e| e.outcome == Outcome::SerializationFailure)
        .expect("a serialization failure");
    assert_eq!((failed.request, failed.time), (1, 70 * MS));
    assert_eq!(
        failed.what,
        What::Complete(interleave::sim::trace::OpKind::DbInsert)
    );
}

// Both FOR UPDATE statements land at 20 ms: request 0 locks the row,
// request 1 waits. Request 0 finds (20..40), inserts (40..60) and commits
// (60..80); the lock passes to request 1 at 80 ms; its find (80..100)
// sees the order and it commits (100..120).
#[test]
fn for_update_serializes_the_two_transactions() {
    let m = run(&ticket("for-update"));
    assert_eq!((m.orders, m.duplicate_tickets, m.errors), (1, 0, 0));
    assert_eq!((m.db_reads, m.db_writes), (4, 1));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (80 * MS, 120 * MS));
    let mut sim = Sim::new(&config(&ticket("for-update")));
    sim.run();
    let grants: Vec<_> = sim
        .take_events()
        .into_iter()
        .filter(|e| e.what == What::RowLockGrant)
        .map(|e| (e.request, e.time))
        .collect();
    assert_eq!(grants, vec![(1, 80 * MS)]);
}

// The row lock lives in the DB: two servers share it, unlike a keyed mutex.
#[test]
fn for_update_holds_across_servers() {
    let m = run(&format!("{}&servers=2", ticket("for-update")));
    assert_eq!((m.orders, m.duplicate_tickets, m.errors), (1, 0, 0));
    let mutex = run("scenario=ticket&strategy=keyed-mutex&servers=2");
    assert_eq!(mutex.duplicate_tickets, 1);
}

// A unique constraint checked at commit: the second commit (60 ms) is
// refused and nothing of it is written.
#[test]
fn read_committed_with_a_unique_constraint_refuses_the_second_commit() {
    let m = run(&format!("{}&db_unique=true", ticket("read-committed")));
    assert_eq!((m.orders, m.duplicate_tickets, m.errors), (1, 0, 1));
    assert_eq!(m.latency_us.max, 60 * MS);
}

// Three clicks, one retry: the third click's commit also fails at 60 ms;
// both failed requests retry, find the order (80 ms) and commit (100 ms).
#[test]
fn retries_apply_to_every_failed_transaction() {
    let m = run(&format!("{}&clicks=3&tx_retries=1", ticket("serializable")));
    assert_eq!((m.orders, m.errors), (1, 0));
    assert_eq!((m.db_reads, m.db_writes), (5, 3));
    assert_eq!(m.latency_us.max, 100 * MS);
}

// Different users never conflict: two users, one click each, serializable.
#[test]
fn serializable_lets_different_users_commit() {
    let m = run(&format!("{}&users=2&clicks=1", ticket("serializable")));
    assert_eq!((m.orders, m.errors), (2, 0));
}

#[test]
fn tx_keys_round_trip_and_bad_values_name_the_key() {
    let parsed = config("scenario=ticket&tx=serializable&tx_retries=3");
    assert_eq!((parsed.tx, parsed.tx_retries), (TxMode::Serializable, 3));
    let fragment = to_fragment(&parsed);
    assert_eq!(
        fragment,
        "v=1&scenario=ticket&strategy=none&tx=serializable&tx_retries=3"
    );
    assert_eq!(config(&fragment), parsed);
    for tx in ["none", "read-committed", "serializable", "for-update"] {
        let parsed = config(&ticket(tx));
        assert_eq!(config(&to_fragment(&parsed)), parsed, "{tx}");
    }
    let error = parse_fragment("scenario=ticket&tx=snapshot").unwrap_err();
    assert_eq!(error.key, "tx");
    assert!(
        error
            .message
            .contains("none, read-committed, serializable or for-update"),
        "{}",
        error.message
    );
    let error = parse_fragment("scenario=ticket&tx_retries=101").unwrap_err();
    assert_eq!(error.key, "tx_retries");
    assert!(error.message.contains("from 0 to 100"), "{}", error.message);
    let error = parse_fragment("scenario=ticket&tx=for-update&await_insert=false").unwrap_err();
    assert_eq!(error.key, "tx");
    assert!(
        error.message.contains("await_insert=true"),
        "{}",
        error.message
    );
}

/// Every distinct outcome of the explored schedules.
fn outcomes(fragment: &str, reduction: bool) -> (u64, u64, bool, BTreeSet<[u64; 4]>) {
    let mut search = ExploreOptions::new(vec![Check::Duplicates]);
    search.reduction = reduction;
    search.unbounded_first = 0;
    search.record = true;
    let base = config(fragment);
    let mut explorer = Explorer::new(&base, search);
    let result = explorer.run();
    let seen = explorer
        .recorded()
        .iter()
        .map(|(schedule, _)| {
            let mut config = base.clone();
            config.schedule = schedule.clone();
            let m = Observation::of(&replay(&config, false).unwrap()).metrics;
            [m.orders, m.duplicate_tickets, m.errors, m.db_reads]
        })
        .collect();
    (result.explored, result.violating, result.complete, seen)
}

// Across every schedule: read committed can duplicate, serializable and
// for-update never do; the reduced search reaches the same outcomes as
// the naive one (the new steps' footprints are sound).
#[test]
fn explore_agrees_and_the_reduction_keeps_every_outcome() {
    for (tx, duplicates) in [
        ("read-committed", true),
        ("serializable", false),
        ("for-update", false),
    ] {
        for fragment in [
            ticket(tx),
            format!("{}&clicks=3", ticket(tx)),
            format!("{}&db_pool=1", ticket(tx)),
            format!("{}&users=2&clicks=1&servers=2", ticket(tx)),
        ] {
            let (naive, naive_violating, naive_complete, naive_seen) = outcomes(&fragment, false);
            let (reduced, violating, complete, seen) = outcomes(&fragment, true);
            assert!(naive_complete && complete, "{fragment}");
            assert!(reduced <= naive, "{fragment}: {reduced} vs {naive}");
            assert_eq!(seen, naive_seen, "{fragment}");
            // One user click, or one connection (transactions one after
            // the other), cannot duplicate.
            let can_duplicate =
                duplicates && !fragment.contains("clicks=1") && !fragment.contains("db_pool=1");
            assert_eq!(violating > 0, can_duplicate, "{fragment}");
            assert_eq!(naive_violating > 0, can_duplicate, "{fragment}");
        }
    }
}

// One connection: a transaction keeps it from its first statement to its
// end. Request 0: FOR UPDATE 0..20, find 20..40, insert 40..60, commit
// 60..80, then the connection passes to request 1's queued FOR UPDATE
// (80..100, the row is free by then), find 100..120 (found), commit
// 120..140. No waiting for the row lock, no deadlock.
#[test]
fn a_transaction_keeps_its_connection_until_it_ends() {
    let m = run(&format!("{}&db_pool=1", ticket("for-update")));
    assert_eq!((m.orders, m.errors, m.hung), (1, 0, 0));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (80 * MS, 140 * MS));
    assert_eq!(m.peak_db_concurrency, 1);
    // Serializable on one connection: the transactions run one after the
    // other, so the second sees the first's order and nothing fails.
    let m = run(&format!("{}&db_pool=1", ticket("serializable")));
    assert_eq!((m.orders, m.errors), (1, 0));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (60 * MS, 100 * MS));
    // Two connections: both run at once, as without a pool.
    let m = run(&format!("{}&db_pool=2", ticket("serializable")));
    assert_eq!((m.orders, m.errors), (1, 1));
    assert_eq!(m.peak_db_concurrency, 2);
}

// The debugger's order-rows lane counts a transaction's row when its
// COMMIT lands: read committed, two commits at 60 ms, two rows.
#[test]
fn the_orders_lane_shows_rows_at_commit() {
    use interleave::debugger::shared_lanes::SharedLanes;
    let config = config(&ticket("read-committed"));
    let mut sim = Sim::new(&config);
    sim.run();
    let mut lanes = SharedLanes::new(&config, vec![0, 0]);
    for event in sim.take_events() {
        lanes.feed(&event);
    }
    let orders = lanes
        .finish()
        .into_iter()
        .find(|lane| lane.label.starts_with("orders of"))
        .expect("an orders lane");
    let last = orders.segments.last().expect("a segment");
    assert_eq!(last.start, 60 * MS);
    assert!(last.text.starts_with("2 order rows"), "{}", last.text);
}
