//! The gallery of handlers in `examples/scripts/` (docs/scripting.md,
//! "Examples"): each with its own schema, on a small fragment, with counts
//! worked out by hand. Latencies are the defaults: 1 ms a cache command,
//! 20 ms a SQL statement (BEGIN and COMMIT too); requests of one user's
//! clicks arrive together unless `click_gap` says otherwise.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use std::collections::BTreeMap;

use interleave::run::Run;
use interleave::script::cli::run_to_json;
use interleave::script::source::{self, shipped};
use interleave::script::ScriptRun;
use interleave::sim::Metrics;
use serde_json::Value;

const BUDGET: u64 = 10_000_000;

/// Runs `code` with `schema` on `fragment` to its end; its metrics, its
/// `count()` totals and its messages.
fn run_with(code: &str, schema: Option<&str>, fragment: &str) -> (Metrics, BTreeMap<String, f64>) {
    let (config, _) = source::parse(&format!("scenario=script&{fragment}")).unwrap();
    let mut run = ScriptRun::with_schema(code, schema, &config, true).expect("it loads");
    assert!(run.run(BUDGET), "the run ended by itself");
    let metrics = run.metrics();
    assert_eq!(metrics.hung, 0, "{:?}", run.messages());
    (metrics, run.custom())
}

/// A shipped example with its own schema.
fn run_example(name: &str, fragment: &str) -> (Metrics, BTreeMap<String, f64>) {
    let example = shipped(name).unwrap();
    run_with(example.code, example.schema, fragment)
}

/// A shipped example with one text of its code replaced (which must be
/// there).
fn run_changed(
    name: &str,
    from: &str,
    to: &str,
    fragment: &str,
) -> (Metrics, BTreeMap<String, f64>) {
    let example = shipped(name).unwrap();
    assert!(example.code.contains(from), "{name} has no {from:?}");
    run_with(&example.code.replace(from, to), example.schema, fragment)
}

fn custom(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// (orders, duplicate_tickets, errors)
fn harm(m: &Metrics) -> (u64, u64, u64) {
    (m.orders, m.duplicate_tickets, m.errors)
}

/// Both clicks SELECT at 0 ms and see no row at 20 ms; both INSERT (40 ms).
/// Clicks 50 ms apart: the second SELECT (70 ms) finds the first's row.
#[test]
fn ticket_pg_issues_two_tickets_on_a_double_click() {
    let (m, counts) = run_example("ticket_pg", "users=1&clicks=2");
    assert_eq!(harm(&m), (2, 1, 0));
    assert_eq!((m.db_reads, m.db_writes), (2, 2));
    assert_eq!(counts, custom(&[("issued", 2.0)]));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (40_000, 40_000));
    let (m, counts) = run_example("ticket_pg", "users=1&clicks=2&click_gap=50ms");
    assert_eq!(harm(&m), (1, 0, 0));
    assert_eq!(counts, custom(&[("already_issued", 1.0), ("issued", 1.0)]));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (20_000, 40_000));
}

/// One statement each at 0 ms: the first inserts, the second meets its row
/// and inserts nothing (rowCount 0, no error); both answer at 20 ms.
#[test]
fn on_conflict_do_nothing_issues_one_ticket() {
    let (m, counts) = run_example("ticket_pg_on_conflict", "users=1&clicks=2");
    assert_eq!(harm(&m), (1, 0, 0));
    assert_eq!((m.db_reads, m.db_writes), (0, 2));
    assert_eq!(counts, custom(&[("already_issued", 1.0), ("issued", 1.0)]));
    assert_eq!(m.latency_us.max, 20_000);
    // Three users, three clicks each: one ticket per user.
    let (m, counts) = run_example("ticket_pg_on_conflict", "users=3&clicks=3");
    assert_eq!(harm(&m), (3, 0, 0));
    assert_eq!(counts, custom(&[("already_issued", 6.0), ("issued", 3.0)]));
}

/// The first click: BEGIN 20, FOR UPDATE 40, SELECT 60, INSERT 80, COMMIT
/// 100 ms. The second: BEGIN 20, its FOR UPDATE waits for the first's
/// COMMIT (100), SELECT finds the ticket (120), COMMIT 140 ms. FOR UPDATE
/// on the orders SELECT instead locks no row (there is none yet): both
/// insert, each in 100 ms.
#[test]
fn select_for_update_on_the_user_row_serialises_the_clicks() {
    let (m, counts) = run_example("ticket_pg_for_update", "users=1&clicks=2");
    assert_eq!(harm(&m), (1, 0, 0));
    assert_eq!((m.db_reads, m.db_writes), (4, 1));
    assert_eq!(counts, custom(&[("already_issued", 1.0), ("issued", 1.0)]));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (100_000, 140_000));
    let example = shipped("ticket_pg_for_update").unwrap();
    let on_orders = example
        .code
        .replace("WHERE id = $1 FOR UPDATE", "WHERE id = $1")
        .replace("AND event_id = $2\",", "AND event_id = $2 FOR UPDATE\",");
    assert_ne!(on_orders, example.code);
    let (m, counts) = run_with(&on_orders, example.schema, "users=1&clicks=2");
    assert_eq!(harm(&m), (2, 1, 0));
    assert_eq!(counts, custom(&[("issued", 2.0)]));
    assert_eq!(m.latency_us.max, 100_000);
}

/// TypeScript. Both SET NX at 0 ms; at 1 ms the first has the lock and the
/// second is `busy`. The first: SELECT 21, INSERT 41, release 42 ms. The
/// lock is in Redis, so two servers change nothing. Without NX both
/// "take" it and both insert.
#[test]
fn a_redis_lock_with_an_owner_token_stops_the_double_click() {
    assert_eq!(shipped("redis_lock").unwrap().file, "redis_lock.ts");
    for fragment in ["users=1&clicks=2", "users=1&clicks=2&servers=2"] {
        let (m, counts) = run_example("redis_lock", fragment);
        assert_eq!(harm(&m), (1, 0, 0), "{fragment}");
        assert_eq!(counts, custom(&[("busy", 1.0), ("issued", 1.0)]));
        assert_eq!((m.db_reads, m.db_writes), (1, 1));
        assert_eq!((m.latency_us.p50, m.latency_us.max), (1_000, 42_000));
    }
    let (m, counts) = run_changed("redis_lock", ", \"NX\"", "", "users=1&clicks=2");
    assert_eq!(harm(&m), (2, 1, 0));
    assert_eq!(counts, custom(&[("issued", 2.0)]));
}

/// One server: the second click waits on the mutex; the first SELECTs (20)
/// and INSERTs (40), the second SELECTs and finds it (60 ms). Two servers:
/// each click takes its own server's mutex, and both insert; sticky
/// routing sends both clicks to one server again.
#[test]
fn an_async_mutex_holds_on_one_server_only() {
    let (m, _) = run_example("async_mutex_servers", "users=1&clicks=2");
    assert_eq!(harm(&m), (1, 0, 0));
    assert_eq!((m.db_reads, m.db_writes), (2, 1));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (40_000, 60_000));
    let (m, _) = run_example("async_mutex_servers", "users=1&clicks=2&servers=2");
    assert_eq!(harm(&m), (2, 1, 0));
    let (m, _) = run_example(
        "async_mutex_servers",
        "users=1&clicks=2&servers=2&routing=sticky",
    );
    assert_eq!(harm(&m), (1, 0, 0));
}

/// Both clicks pass the SELECT (20 ms); the first INSERT lands, the second
/// breaks the UNIQUE constraint (23505), which the route turns into a 409
/// (40 ms each). Without the constraint both get a 201.
#[test]
fn an_express_route_turns_a_unique_violation_into_a_409() {
    let (m, counts) = run_example("express_tickets", "users=1&clicks=2");
    assert_eq!(harm(&m), (1, 0, 0));
    assert_eq!((m.db_reads, m.db_writes), (2, 2));
    assert_eq!(counts, custom(&[("status_201", 1.0), ("status_409", 1.0)]));
    assert_eq!(m.latency_us.max, 40_000);
    let example = shipped("express_tickets").unwrap();
    let schema = example.schema.unwrap().replace(
        ",\n  CONSTRAINT orders_user_event_key UNIQUE (user_id, event_id)",
        "",
    );
    assert_ne!(Some(schema.as_str()), example.schema);
    let (m, counts) = run_with(example.code, Some(&schema), "users=1&clicks=2");
    assert_eq!(harm(&m), (2, 1, 0));
    assert_eq!(counts, custom(&[("status_201", 2.0)]));
}

/// Five requests GET at 0 ms and miss (1 ms); each SELECTs (21 ms) and SETs
/// (22 ms): five loads of one row. Five arrivals and fifteen completions.
#[test]
fn cache_aside_with_redis_stampedes_the_database() {
    let (m, counts) = run_example("stampede_redis", "users=5&clicks=1");
    assert_eq!(counts, custom(&[("db_loads", 5.0)]));
    assert_eq!(
        (m.db_reads, m.cache_misses, m.cache_hits, m.errors),
        (5, 5, 0, 0)
    );
    assert_eq!((m.latency_us.p50, m.latency_us.max), (22_000, 22_000));
    assert_eq!(m.events, 20);
}

/// Two workers BEGIN (20 ms) and claim (40 ms). The first marks job 1
/// running, works 30 ms (70), records the run (90), marks the job done
/// (110) and commits (130 ms). The second's pick takes no lock, so it
/// picks job 1 too, and its UPDATE waits for the first's row until that
/// COMMIT; then it marks job 1 again and runs it a second time: 30 ms of
/// work and three statements after 130 ms, 220 ms. With `FOR UPDATE SKIP
/// LOCKED` the second skips job 1 and runs job 2 beside the first (130 ms
/// each); with a plain `FOR UPDATE` it waits at its pick, then takes job
/// 2 (220 ms).
#[test]
fn a_job_queue_whose_pick_takes_no_lock_runs_a_job_twice() {
    let (m, counts) = run_example("job_queue_pg", "users=2&clicks=1");
    assert_eq!(counts, custom(&[("ran", 2.0)]));
    assert_eq!((m.duplicate_tickets, m.errors, m.db_writes), (1, 0, 6));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (130_000, 220_000));
    let pick = "ORDER BY id LIMIT 1\n";
    for (lock, max) in [("FOR UPDATE SKIP LOCKED", 130_000), ("FOR UPDATE", 220_000)] {
        let locked = format!("ORDER BY id LIMIT 1 {lock}\n");
        let (m, counts) = run_changed("job_queue_pg", pick, &locked, "users=2&clicks=1");
        assert_eq!(counts, custom(&[("ran", 2.0)]), "{lock}");
        assert_eq!((m.duplicate_tickets, m.errors), (0, 0), "{lock}");
        assert_eq!(m.latency_us.max, max, "{lock}");
    }
    // Three workers, three jobs; a fourth finds none.
    let (m, counts) = run_changed(
        "job_queue_pg",
        pick,
        "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED\n",
        "users=4&clicks=1",
    );
    assert_eq!(counts, custom(&[("idle", 1.0), ("ran", 3.0)]));
    assert_eq!((m.duplicate_tickets, m.errors), (0, 0));
}

/// Two guests book room 101 for overlapping stays: each statement takes
/// 20 ms, so both check at 40 ms, find no booking, insert (60) and commit
/// (80 ms): the room is booked twice. With `LOCK TABLE … IN SHARE ROW
/// EXCLUSIVE MODE` after BEGIN, the second guest's LOCK (sent at 20 ms)
/// waits for the first's COMMIT (100 ms); its check then sees that
/// booking (120) and it rolls back (140 ms). Four guests: the locks pass
/// on at 100, 140 and 180 ms, so the last answers at 220 ms.
#[test]
fn a_room_booked_by_a_check_then_insert_is_booked_twice_unless_the_table_is_locked() {
    let (m, counts) = run_example("room_booking_pg", "users=2&clicks=1");
    assert_eq!(counts, custom(&[("booked", 2.0)]));
    assert_eq!((m.duplicate_tickets, m.errors, m.db_writes), (1, 0, 2));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (80_000, 80_000));
    let begin = "await client.query(\"BEGIN\");\n";
    let locked = format!(
        "{begin}      await client.query(\"LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE\");\n"
    );
    let (m, counts) = run_changed("room_booking_pg", begin, &locked, "users=2&clicks=1");
    assert_eq!(counts, custom(&[("booked", 1.0), ("taken", 1.0)]));
    assert_eq!((m.duplicate_tickets, m.errors, m.db_writes), (0, 0, 1));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (100_000, 140_000));
    let (m, counts) = run_changed("room_booking_pg", begin, &locked, "users=4&clicks=1");
    assert_eq!(counts, custom(&[("booked", 1.0), ("taken", 3.0)]));
    assert_eq!((m.duplicate_tickets, m.errors), (0, 0));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (140_000, 220_000));
}

/// `pool_begin_pg` with each order on a client of its own: `c =
/// pool.connect()` first, every query on `c`, `c.release()` before it
/// counts.
fn on_a_client(code: &str) -> String {
    code.replace(
        "const order = ++placed;",
        "const order = ++placed;\n    const c = await pool.connect();",
    )
    .replace("await pool.query(", "await c.query(")
    .replace("count(`", "c.release();\n    count(`")
}

/// Two orders sent through `pool.query` (`pool_begin_pg`): both BEGIN at
/// 0 on new connections (20 ms), INSERT on the same ones, since each
/// reply's continuation takes the connection it just gave back (40 ms),
/// and charge the card for 30 ms while both connections wait in the pool,
/// the second one's last. At 70 ms the paid order's COMMIT takes that one
/// and commits the declined order's row; the declined order's ROLLBACK
/// takes the other and undoes the paid order's row (90 ms); each then
/// counts its rows (110 ms). Node with pg-pool 3.14 on PostgreSQL 15
/// counted the same on 6 runs of 6. On a client of its own (`c =
/// pool.connect()`, `c.query`, `c.release()`) each order keeps its
/// transaction.
#[test]
fn begin_through_pool_query_lands_on_the_other_orders_transaction() {
    let (m, counts) = run_example("pool_begin_pg", "users=2&clicks=1");
    let mixed = [
        ("confirmed, order rows: 0", 1.0),
        ("declined, order rows: 1", 1.0),
    ];
    assert_eq!(counts, custom(&mixed));
    assert_eq!((m.orders, m.errors), (1, 0));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (110_000, 110_000));
    let example = shipped("pool_begin_pg").unwrap();
    let client = on_a_client(example.code);
    assert_eq!(client.matches("c.query(").count(), 4);
    let (m, counts) = run_with(&client, example.schema, "users=2&clicks=1");
    let own = [
        ("confirmed, order rows: 1", 1.0),
        ("declined, order rows: 0", 1.0),
    ];
    assert_eq!(counts, custom(&own));
    assert_eq!((m.orders, m.errors), (1, 0));
    // One order alone: its statements reuse the one connection.
    let (_, counts) = run_example("pool_begin_pg", "users=1&clicks=1");
    assert_eq!(counts, custom(&[("confirmed, order rows: 1", 1.0)]));
}

/// A double click signs in a new email with the get-or-create statement.
/// Both BEGIN (20 ms) and send it. The first inserts user 1 (40 ms),
/// works 30 ms (70), writes its session (90) and commits (110 ms). The
/// second's INSERT waits for the first's row; at that COMMIT it does
/// nothing, and its SELECT reads the snapshot from before the wait: no
/// row (110 ms). It works 30 ms (140), `user.id` throws, and it rolls
/// back (160 ms): one error. With `DO UPDATE` the second gets user 1 at
/// 110 ms, writes its session (160) and commits (180 ms). Two users,
/// two emails: no wait, both 110 ms.
#[test]
fn get_or_create_in_one_statement_finds_no_user_after_a_wait() {
    let (m, counts) = run_example("signup_pg", "users=1&clicks=2");
    assert_eq!(counts, custom(&[("signed_in", 1.0)]));
    assert_eq!((m.duplicate_tickets, m.errors), (0, 1));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (110_000, 160_000));
    let nothing = "ON CONFLICT (email) DO NOTHING";
    let update = "ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email";
    let (m, counts) = run_changed("signup_pg", nothing, update, "users=1&clicks=2");
    assert_eq!(counts, custom(&[("signed_in", 2.0)]));
    assert_eq!((m.duplicate_tickets, m.errors), (0, 0));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (110_000, 180_000));
    let (m, counts) = run_example("signup_pg", "users=2&clicks=1");
    assert_eq!(counts, custom(&[("signed_in", 2.0)]));
    assert_eq!((m.errors, m.latency_us.max), (0, 110_000));
}

/// Five GETs miss (1 ms); five `add`s (2 ms), one wins: it SELECTs (22),
/// SETs (23), deletes the lock (24 ms). The four others sleep 50 ms (52)
/// and GET the value (53 ms). With `set` in place of `add` every request
/// "wins" and loads.
#[test]
fn a_memjs_add_lock_lets_one_request_rebuild() {
    let (m, counts) = run_example("stampede_memjs", "users=5&clicks=1");
    assert_eq!(counts, custom(&[("db_loads", 1.0), ("waits", 4.0)]));
    assert_eq!(
        (m.db_reads, m.cache_misses, m.cache_hits, m.errors),
        (1, 5, 4, 0)
    );
    assert_eq!((m.latency_us.p50, m.latency_us.max), (53_000, 53_000));
    let (m, counts) = run_changed(
        "stampede_memjs",
        "memcached.add(lock,",
        "memcached.set(lock,",
        "users=5&clicks=1",
    );
    assert_eq!(counts, custom(&[("db_loads", 5.0)]));
    assert_eq!((m.db_reads, m.errors), (5, 0));
}

/// Five views `add` the count (1 ms, refused but the first), GET 0 (2 ms),
/// SET 1 (3 ms) and read back 1 (4 ms): four views lost. With
/// check-and-set, all five GETS 0 with one cas token (2 ms); one CAS
/// stores 1 (3 ms) and the four others retry: each round of GETS and CAS
/// takes 2 ms and lets one more through, so the winners read back 1 to 5
/// at 4, 6, 8, 10 and 12 ms, after 4 + 3 + 2 + 1 retries.
#[test]
fn a_memcached_counter_loses_views_and_check_and_set_keeps_them() {
    let (m, counts) = run_example("visits_memcached", "users=1&clicks=5");
    assert_eq!(counts, custom(&[("views 1", 5.0)]));
    assert_eq!(
        (m.errors, m.latency_us.p50, m.latency_us.max),
        (0, 4_000, 4_000)
    );
    let (m, counts) = run_changed(
        "visits_memcached",
        "const CHECK_AND_SET = false;",
        "const CHECK_AND_SET = true;",
        "users=1&clicks=5",
    );
    assert_eq!(
        counts,
        custom(&[
            ("retries", 10.0),
            ("views 1", 1.0),
            ("views 2", 1.0),
            ("views 3", 1.0),
            ("views 4", 1.0),
            ("views 5", 1.0)
        ])
    );
    assert_eq!(
        (m.errors, m.latency_us.p50, m.latency_us.max),
        (0, 8_000, 12_000)
    );
}

/// Four buyers WATCH the shared client's connection (1 ms), GET stock 3
/// (2 ms), and EXEC (3 ms): the first EXEC ends the connection's watches,
/// so all four sell. With a connection each (`duplicate()`), the first
/// EXEC's write aborts the three others.
#[test]
fn a_watch_on_the_shared_connection_sells_every_buyer() {
    let (m, counts) = run_example("redis_watch", "users=4&clicks=1");
    assert_eq!(counts, custom(&[("sold", 4.0)]));
    assert_eq!((m.cache_hits, m.errors), (4, 0));
    assert_eq!((m.latency_us.p50, m.latency_us.max), (3_000, 3_000));
    let (_, counts) = run_changed(
        "redis_watch",
        "  await redis.watch(\"stock\");\n  const stock = Number(await redis.get(\"stock\"));",
        "  const conn = redis.duplicate();\n  await conn.watch(\"stock\");\n  const stock = Number(await conn.get(\"stock\"));",
        "users=4&clicks=1",
    );
    assert_eq!(
        counts,
        custom(&[("sold", 4.0)]),
        "the MULTI still on the shared client"
    );
    let own = |code: &str| {
        code.replace("await redis.watch(", "await conn.watch(")
            .replace("await redis.get(", "await conn.get(")
            .replace("await redis.unwatch(", "await conn.unwatch(")
            .replace("await redis.multi(", "await conn.multi(")
            .replace(
                "export async function handle(req) {\n",
                "export async function handle(req) {\n  const conn = redis.duplicate();\n",
            )
    };
    let example = shipped("redis_watch").unwrap();
    let (_, counts) = run_with(&own(example.code), example.schema, "users=4&clicks=1");
    assert_eq!(counts, custom(&[("retry", 3.0), ("sold", 1.0)]));
}

/// `example=NAME` brings `NAME.sql` in the CLI's `run`; a `schema=` of the
/// link wins over it.
#[test]
fn an_example_link_carries_its_schema() {
    let json: Value = serde_json::from_str(&run_to_json(
        "",
        "scenario=script&example=ticket_pg&users=1&clicks=2",
    ))
    .unwrap();
    assert_eq!(
        (json["orders"].as_u64(), json["duplicate_tickets"].as_u64()),
        (Some(2), Some(1))
    );
    // The racy code on the on-conflict example's schema: the UNIQUE
    // constraint makes the second INSERT an error.
    let unique = shipped("ticket_pg_on_conflict").unwrap().schema.unwrap();
    let fragment = format!(
        "scenario=script&example=ticket_pg&users=1&clicks=2&schema={}",
        source::encode(unique)
    );
    let json: Value = serde_json::from_str(&run_to_json("", &fragment)).unwrap();
    assert_eq!(
        (
            json["orders"].as_u64(),
            json["duplicate_tickets"].as_u64(),
            json["errors"].as_u64()
        ),
        (Some(1), Some(0), Some(1))
    );
}

/// Every example that uses `pg` ships its schema, and every schema loads.
#[test]
fn every_pg_example_has_a_schema_that_loads() {
    for example in source::EXAMPLES {
        let uses_pg = example.code.contains("\"pg\"") || example.code.contains("'pg'");
        assert_eq!(uses_pg, example.schema.is_some(), "{}", example.name);
        assert!(example.file.starts_with(example.name));
        if uses_pg {
            let (m, _) = run_example(example.name, "users=1&clicks=1");
            assert_eq!(m.errors, 0, "{}", example.name);
        }
    }
}

/// Explore carries the example's schema too: every interleaving of a double
/// click (or of two servers) is searched; the racy handlers have some that
/// issue two tickets, the fixes none.
#[test]
fn explore_finds_the_races_and_clears_the_fixes() {
    use interleave::explore::{Check, ExploreOptions};
    use interleave::script::explore::explore;
    for (name, keys, racy) in [
        ("ticket_pg", "", true),
        ("ticket_pg_on_conflict", "", false),
        ("ticket_pg_for_update", "", false),
        ("redis_lock", "", false),
        ("express_tickets", "", false),
        ("async_mutex_servers", "", false),
        ("async_mutex_servers", "&servers=2", true),
        ("job_queue_pg", "", true),
        ("room_booking_pg", "", true),
    ] {
        let fragment = format!("scenario=script&example={name}&users=1&clicks=2{keys}");
        let (config, _) = source::parse(&fragment).unwrap();
        let schema = source::schema(&fragment).unwrap();
        assert_eq!(schema.as_deref(), shipped(name).unwrap().schema);
        let options = ExploreOptions::new(vec![Check::Duplicates]);
        let code = shipped(name).unwrap().code;
        let result = explore(code, schema.as_deref(), None, &config, None, &options).unwrap();
        assert!(result.complete, "{name}{keys}: {result:?}");
        assert_eq!(result.violating > 0, racy, "{name}{keys}: {result:?}");
    }
}

/// Explore's `shared-transactions` check finds the schedules of
/// `pool_begin_pg` in which a statement runs in the other order's
/// transaction (136 of its 334 with two orders), none for one order (one
/// schedule), and none of the same 334 once each order has a client of
/// its own.
#[test]
fn explore_finds_the_transactions_shared_through_the_pool() {
    use interleave::explore::{Check, ExploreOptions};
    use interleave::script::explore::explore;
    let example = shipped("pool_begin_pg").unwrap();
    let client = on_a_client(example.code);
    let options = ExploreOptions::new(vec![Check::SharedTransactions]);
    for (code, users, found) in [
        (example.code, 2, (334, 136)),
        (example.code, 1, (1, 0)),
        (client.as_str(), 2, (334, 0)),
    ] {
        let (config, _) =
            source::parse(&format!("scenario=script&users={users}&clicks=1")).unwrap();
        let result = explore(code, example.schema, None, &config, None, &options).unwrap();
        assert!(result.complete, "{result:?}");
        assert_eq!((result.explored, result.violating), found, "{users} users");
    }
}

/// Explore finds the schedules in which the get-or-create statement
/// returns no user (an error), and none once it is `DO UPDATE`.
#[test]
fn explore_finds_the_sign_in_that_gets_no_user() {
    use interleave::explore::{Check, ExploreOptions};
    use interleave::script::explore::explore;
    let example = shipped("signup_pg").unwrap();
    let fixed = example.code.replace(
        "ON CONFLICT (email) DO NOTHING",
        "ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email",
    );
    let (config, _) = source::parse("scenario=script&users=1&clicks=2").unwrap();
    for (code, racy) in [(example.code, true), (fixed.as_str(), false)] {
        let options = ExploreOptions::new(vec![Check::Errors]);
        let result = explore(code, example.schema, None, &config, None, &options).unwrap();
        assert!(result.complete, "{result:?}");
        assert_eq!(result.violating > 0, racy, "{result:?}");
    }
}
