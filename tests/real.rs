//! The stories on real PostgreSQL, Redis and memcached (`interleave real`),
//! each checked against the simulation of the same fragment. They need the
//! services: `scripts/services.sh up && source /tmp/interleave-services/env`
//! (`scripts/test.sh` does it). Without `INTERLEAVE_POSTGRES_URL` each test
//! prints a skip line and passes.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use interleave::real::cache::CacheServer;
use interleave::real::{self, Comparison, RealOptions, RealReport, POSTGRES_ENV};
use interleave::sim::trace::OpKind;
use interleave::sim::{Outcome, What};
use interleave::Sim;

/// The report of `trials` trials, or `None` (with a skip line) when the
/// services are not up.
fn play(fragment: &str, trials: u32) -> Option<RealReport> {
    play_with(fragment, trials, None)
}

/// `play` with the cache server forced (`--cache`).
fn play_with(fragment: &str, trials: u32, cache: Option<CacheServer>) -> Option<RealReport> {
    if std::env::var(POSTGRES_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!(
            "skipping real-server test of `{fragment}`: {POSTGRES_ENV} is not set \
             (run scripts/services.sh up and source /tmp/interleave-services/env)"
        );
        return None;
    }
    let options = RealOptions {
        trials,
        cache,
        ..RealOptions::default()
    };
    let report =
        real::run(fragment, &options).unwrap_or_else(|error| panic!("{fragment}: {error}"));
    assert_eq!(report.order, "replayed");
    for trial in &report.trials {
        // Every operation landed in the simulated order.
        assert_eq!(trial.left_the_simulation, None, "{fragment}");
        let [landed, all] = trial.replayed.expect("a replay");
        assert_eq!(landed, all, "{fragment}");
    }
    Some(report)
}

fn comparison<'a>(report: &'a RealReport, check: &str) -> &'a Comparison {
    report
        .comparisons
        .iter()
        .find(|c| c.check == check)
        .unwrap_or_else(|| panic!("no {check} comparison"))
}

/// Every trial of a check's comparison agrees with the simulation's run.
fn assert_agrees(report: &RealReport, check: &str) {
    let c = comparison(report, check);
    let real = c.real_violating_trials;
    let trials = report.trials.len() as u32;
    assert!(
        (c.simulation_violates && real == trials) || (!c.simulation_violates && real == 0),
        "{}: {check}: {}",
        report.fragment,
        c.verdict
    );
    assert!(c.verdict.starts_with("agree"), "{}", c.verdict);
}

/// For every trial: (orders, duplicate_tickets, errors, max_in_critical_section).
fn outcomes(report: &RealReport) -> Vec<[u64; 4]> {
    report
        .trials
        .iter()
        .map(|t| {
            let m = &t.metrics;
            [
                m.orders,
                m.duplicate_tickets,
                m.errors,
                m.max_in_critical_section,
            ]
        })
        .collect()
}

#[test]
fn no_lock_burst_double_click_writes_a_real_duplicate_row() {
    let Some(report) = play("scenario=ticket&strategy=none", 2) else {
        return;
    };
    assert_eq!(outcomes(&report), vec![[2, 1, 0, 2]; 2]);
    assert_eq!(report.trials[0].tables.users_with_duplicates, vec![[0, 2]]);
    assert_eq!(report.simulation.duplicate_tickets, 1);
    assert_agrees(&report, "duplicates");
    let explore = &comparison(&report, "duplicates").explore;
    assert!(explore.complete && explore.violating > 0 && explore.violating < explore.explored);
}

#[test]
fn a_unique_constraint_gives_a_real_unique_violation_and_one_row() {
    let Some(report) = play("scenario=ticket&strategy=none&db_unique=true", 1) else {
        return;
    };
    assert_eq!(outcomes(&report), vec![[1, 0, 1, 2]]);
    assert_eq!(report.trials[0].metrics.reports.unique_violations, 1);
    assert_eq!((report.simulation.orders, report.simulation.errors), (1, 1));
    assert_agrees(&report, "duplicates");
}

#[test]
fn a_keyed_mutex_holds_on_one_server_and_not_on_two() {
    let Some(one) = play("scenario=ticket&strategy=keyed-mutex", 1) else {
        return;
    };
    assert_eq!(outcomes(&one), vec![[1, 0, 0, 1]]);
    assert_agrees(&one, "duplicates");
    assert_agrees(&one, "exclusion");
    let two = play("scenario=ticket&strategy=keyed-mutex&servers=2", 1).unwrap();
    assert_eq!(outcomes(&two), vec![[2, 1, 0, 2]]);
    assert_agrees(&two, "duplicates");
    assert_agrees(&two, "exclusion");
}

#[test]
fn memcached_add_is_a_real_mutex() {
    let Some(report) = play("scenario=ticket&strategy=add", 1) else {
        return;
    };
    assert_eq!(report.cache_server, "memcached");
    assert_eq!(outcomes(&report), vec![[1, 0, 0, 1]]);
    assert_eq!(report.simulation.max_in_critical_section, 1);
    assert_agrees(&report, "duplicates");
    assert_agrees(&report, "exclusion");
}

#[test]
fn the_get_set_semaphore_lets_two_holders_in_under_a_burst() {
    let Some(report) = play("scenario=ticket&strategy=get-set", 1) else {
        return;
    };
    assert_eq!(report.cache_server, "memcached");
    assert_eq!(outcomes(&report), vec![[2, 1, 0, 2]]);
    assert_eq!(report.simulation.max_in_critical_section, 2);
    assert_agrees(&report, "exclusion");
    assert_agrees(&report, "duplicates");
}

/// Request 0 holds the Redis lock for its find and insert (300 ms each)
/// but its lease is 400 ms; request 1 clicks 50 ms later, polls every 10 ms,
/// takes the expired lock at 403 ms (its own lease runs to 803 ms) and
/// pauses inside for 300 ms; request 0 releases at 602 ms, while request 1
/// still holds. Replayed, the expiry falls between request 1's polls at
/// 392 and 403 ms on every trial.
const LEASE: &str = "scenario=ticket&strategy=add&click_gap=50ms&lock_ttl=400ms\
                     &db_latency=const:300ms&pause=1:300ms";

/// The model's count of lock deletes that removed another holder's lock:
/// a delete landing while another request is inside the section.
fn simulated_foreign_deletes(fragment: &str) -> u64 {
    let config = interleave::config::url::parse_fragment(fragment).unwrap();
    let mut sim = Sim::new(&config);
    sim.run();
    let mut inside = Vec::new();
    let mut foreign = 0;
    for event in sim.take_events() {
        match event.what {
            What::Enter => inside.push(event.request),
            What::Exit => inside.retain(|&r| r != event.request),
            What::Complete(OpKind::CacheDelete)
                if event.outcome == Outcome::Deleted
                    && inside.iter().any(|&r| r != event.request) =>
            {
                foreign += 1
            }
            _ => {}
        }
    }
    foreign
}

#[test]
fn a_redis_lease_shorter_than_the_holder_lets_a_second_holder_in() {
    let Some(report) = play(LEASE, 1) else {
        return;
    };
    assert_eq!(report.cache_server, "redis");
    let m = &report.trials[0].metrics;
    assert_eq!(m.max_in_critical_section, 2);
    assert_eq!(report.simulation.max_in_critical_section, 2);
    assert_agrees(&report, "exclusion");
    // The first holder's plain release deletes the second holder's lock.
    assert_eq!(m.reports.foreign_lock_deletes, 1);
    assert_eq!(simulated_foreign_deletes(LEASE), 1);
}

#[test]
fn release_owner_stops_the_first_holder_deleting_the_second_ones_lock() {
    let fragment = format!("{LEASE}&release=owner");
    let Some(report) = play(&fragment, 1) else {
        return;
    };
    assert_eq!(report.cache_server, "redis");
    let m = &report.trials[0].metrics;
    assert_eq!(m.max_in_critical_section, 2);
    assert_eq!(
        (
            m.reports.foreign_lock_deletes,
            m.reports.owner_release_refused
        ),
        (0, 1)
    );
    // The model: request 0's check-and-delete finds another token.
    let config = interleave::config::url::parse_fragment(&fragment).unwrap();
    let mut sim = Sim::new(&config);
    sim.run();
    let refused: Vec<_> = sim
        .take_events()
        .into_iter()
        .filter(|e| e.outcome == Outcome::NotOwner)
        .map(|e| e.request)
        .collect();
    assert_eq!(refused, vec![0]);
    assert_agrees(&report, "exclusion");
}

#[test]
fn read_committed_still_duplicates_on_postgres() {
    let Some(report) = play("scenario=ticket&tx=read-committed", 1) else {
        return;
    };
    assert_eq!(outcomes(&report), vec![[2, 1, 0, 2]]);
    assert_agrees(&report, "duplicates");
}

#[test]
fn serializable_gives_a_real_serialization_failure() {
    let Some(report) = play("scenario=ticket&tx=serializable", 2) else {
        return;
    };
    assert_eq!(outcomes(&report), vec![[1, 0, 1, 2]; 2]);
    for trial in &report.trials {
        assert_eq!(trial.metrics.reports.serialization_failures, 1);
    }
    assert_eq!((report.simulation.orders, report.simulation.errors), (1, 1));
    assert_agrees(&report, "duplicates");
    let retried = play("scenario=ticket&tx=serializable&tx_retries=1", 1).unwrap();
    assert_eq!(outcomes(&retried), vec![[1, 0, 0, 2]]);
    assert_eq!(retried.trials[0].metrics.db_reads, 3);
    assert_eq!(retried.simulation.db_reads, 3);
}

#[test]
fn for_update_gives_one_real_row_even_across_servers() {
    let Some(report) = play("scenario=ticket&tx=for-update&servers=2", 1) else {
        return;
    };
    assert_eq!(outcomes(&report), vec![[1, 0, 0, 2]]);
    assert_eq!(report.trials[0].metrics.db_reads, 4);
    assert_eq!(report.simulation.db_reads, 4);
    assert_agrees(&report, "duplicates");
}

#[test]
fn a_stampede_loads_once_under_a_keyed_mutex_and_every_time_without() {
    let Some(mutex) = play("scenario=stampede&strategy=keyed-mutex&requests=5", 1) else {
        return;
    };
    let m = &mutex.trials[0].metrics;
    assert_eq!((m.db_reads, m.cache_misses, m.cache_hits), (1, 6, 4));
    assert_eq!(mutex.simulation.db_reads, 1);
    assert_agrees(&mutex, "db-reads");
    let none = play("scenario=stampede&strategy=none&requests=5", 1).unwrap();
    assert_eq!(none.trials[0].metrics.db_reads, 5);
    assert_agrees(&none, "db-reads");
}

#[test]
fn the_cli_prints_one_json_object() {
    if std::env::var(POSTGRES_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!("skipping the real CLI test: {POSTGRES_ENV} is not set");
        return;
    }
    let output = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(["real", "scenario=ticket&strategy=none", "--trials", "2"])
        .output()
        .expect("the CLI runs");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(json["trials"].as_array().map(Vec::len), Some(2));
    assert_eq!(json["trials"][0]["metrics"]["duplicate_tickets"], 1);
    assert_eq!(json["simulation"]["duplicate_tickets"], 1);
    assert_eq!(json["comparisons"][0]["check"], "duplicates");
    assert_eq!(json["order"], "replayed");
    // On the real timing instead: the order is whatever it turns out.
    let free = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(["real", "scenario=ticket&strategy=none", "--free"])
        .output()
        .expect("the CLI runs");
    assert!(free.status.success(), "{free:?}");
    let json: serde_json::Value = serde_json::from_slice(&free.stdout).expect("one JSON object");
    assert_eq!(json["order"], "free");
    assert_eq!(json["trials"][0].get("replayed"), None);
    let bad = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args([
            "real",
            "scenario=ticket",
            "--postgres",
            "postgres://x@192.0.2.1/db",
        ])
        .output()
        .expect("the CLI runs");
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("only talk to servers on this machine"));
}

#[test]
fn the_in_process_emitter_and_ticket_locks_hold_on_one_server() {
    let Some(emitter) = play("scenario=stampede&strategy=emitter-lock&requests=5", 1) else {
        return;
    };
    let m = &emitter.trials[0].metrics;
    // One load; the thundering herd: 4 waiters wake, 1 wins, then 3 more wake...
    assert_eq!((m.db_reads, m.max_in_critical_section), (1, 1));
    assert_eq!(m.lock_wakeups, emitter.simulation.lock_wakeups);
    assert_agrees(&emitter, "db-reads");
    let two = play("scenario=ticket&strategy=emitter-lock&servers=2", 1).unwrap();
    assert_eq!(outcomes(&two), vec![[2, 1, 0, 2]]);
    assert_agrees(&two, "duplicates");
    let ticket = play("scenario=ticket&strategy=ticket-lock&clicks=3", 1).unwrap();
    assert_eq!(outcomes(&ticket), vec![[1, 0, 0, 1]]);
    assert_agrees(&ticket, "duplicates");
    assert_agrees(&ticket, "exclusion");
}

#[test]
fn explores_counterexamples_replay_on_real_servers_in_every_trial() {
    if std::env::var(POSTGRES_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!("skipping the counterexample replays: {POSTGRES_ENV} is not set");
        return;
    }
    for fragment in [
        "scenario=ticket&strategy=keyed-mutex&servers=2&users=2&clicks=2",
        "scenario=ticket&strategy=get-set&crash=0&users=2&clicks=2",
        "scenario=ticket&strategy=get-set&lock_ttl=300ms&pause=0:400ms",
        "scenario=ticket&strategy=add&lock_ttl=300ms&db_latency=const:200ms&pause=0:400ms",
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_interleave"))
            .args(["explore", fragment])
            .output()
            .expect("the CLI runs");
        let json: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("one JSON object");
        let counterexample = json["counterexample"]
            .as_str()
            .unwrap_or_else(|| panic!("{fragment}: no counterexample: {json}"));
        let report = play(counterexample, 5).unwrap();
        let s = &report.simulation;
        let simulated = [
            s.orders,
            s.duplicate_tickets,
            s.errors,
            s.max_in_critical_section,
        ];
        assert!(s.duplicate_tickets > 0, "{counterexample}: {simulated:?}");
        assert_eq!(outcomes(&report), vec![simulated; 5], "{counterexample}");
        assert_agrees(&report, "duplicates");
    }
}

/// The summary says everything agrees and no outcome count differs.
fn assert_summary_agrees(report: &RealReport) {
    let summary = &report.summary;
    assert_eq!(
        (summary.status, summary.suspect),
        ("agree", "none"),
        "{}: {:?}",
        report.fragment,
        summary.mismatches
    );
    assert!(
        summary.differing_metrics.is_empty(),
        "{}: {:?}",
        report.fragment,
        summary.differing_metrics
    );
}

/// Request 0 takes the Redis lock (lease 300 ms) and pauses 400 ms inside
/// (a GC pause); request 1 takes the expired lock at about 300 ms, finds no
/// order at about 500 ms and inserts at about 700 ms; request 0 wakes,
/// finds no order at about 600 ms and inserts at about 800 ms (margins of
/// about 100 ms). Without
/// fencing, two rows; with it, request 0's token 1 is older than the
/// token 2 the DB accepted, and the trigger refuses its insert.
const PAUSED_HOLDER: &str =
    "scenario=ticket&strategy=add&lock_ttl=300ms&db_latency=const:200ms&pause=0:400ms";

#[test]
fn fencing_tokens_make_postgres_refuse_the_paused_holders_late_write() {
    // Replayed: the same interleaving on every trial, no retry.
    let Some(unfenced) = play(PAUSED_HOLDER, 3) else {
        return;
    };
    assert_eq!(outcomes(&unfenced), vec![[2, 1, 0, 2]; 3]);
    assert_eq!(unfenced.simulation.duplicate_tickets, 1);
    assert_agrees(&unfenced, "duplicates");
    // The same with fencing: still two holders at once, but one row: the
    // late write is refused, in every trial.
    let fenced = play(&format!("{PAUSED_HOLDER}&fencing=true"), 3).unwrap();
    assert_eq!(fenced.cache_server, "redis");
    assert_eq!(outcomes(&fenced), vec![[1, 0, 1, 2]; 3]);
    for trial in &fenced.trials {
        assert_eq!(trial.metrics.rejected_writes, 1);
    }
    assert_eq!(
        (fenced.simulation.rejected_writes, fenced.simulation.orders),
        (1, 1)
    );
    assert_agrees(&fenced, "duplicates");
    assert_agrees(&fenced, "exclusion");
    assert_summary_agrees(&fenced);
}

#[test]
fn fencing_tokens_from_memcached_incr_under_a_ticket_lock() {
    let fragment = "scenario=ticket&strategy=ticket-lock&lock_ttl=300ms&db_latency=const:200ms\
                    &pause=0:400ms&fencing=true";
    let Some(report) = play_with(fragment, 1, Some(CacheServer::Memcached)) else {
        return;
    };
    assert_eq!(report.cache_server, "memcached");
    assert_eq!(outcomes(&report), vec![[1, 0, 1, 2]]);
    assert_eq!(report.trials[0].metrics.rejected_writes, 1);
    assert_eq!(report.simulation.rejected_writes, 1);
    assert_summary_agrees(&report);
}

#[test]
fn stale_while_revalidate_serves_stale_and_refreshes_once_per_server() {
    let fragment = "scenario=stampede&strategy=stale-while-revalidate&cache=warm&expire_at=0\
                    &grace=5s&requests=6&servers=2";
    let Some(report) = play(fragment, 1) else {
        return;
    };
    let m = &report.trials[0].metrics;
    // Every request answers with the stale value; one refresh per server.
    assert_eq!((m.stale_served, m.db_reads, m.errors), (6, 2, 0));
    assert_eq!(
        (report.simulation.stale_served, report.simulation.db_reads),
        (6, 2)
    );
    assert_agrees(&report, "db-reads");
    assert_agrees(&report, "stale");
    assert_summary_agrees(&report);
    // No grace: nothing to serve, so every request waits for its server's load.
    let cold = play(
        "scenario=stampede&strategy=stale-while-revalidate&cache=warm&expire_at=0&requests=6\
         &servers=2",
        1,
    )
    .unwrap();
    let m = &cold.trials[0].metrics;
    assert_eq!((m.stale_served, m.db_reads), (0, 2));
    assert_summary_agrees(&cold);
}

#[test]
fn grace_lets_lock_waiters_that_give_up_serve_the_stale_value() {
    let fragment = "scenario=stampede&strategy=add&cache=warm&expire_at=0&grace=5s&requests=5\
                    &wait_timeout=50ms&db_latency=const:200ms";
    let Some(report) = play(fragment, 1) else {
        return;
    };
    let m = &report.trials[0].metrics;
    // One holder loads for 200 ms; the four waiters give up after 50 ms
    // and answer with the stale value their first read found.
    assert_eq!((m.db_reads, m.stale_served, m.timeouts), (1, 4, 4));
    assert_eq!(
        (report.simulation.stale_served, report.simulation.timeouts),
        (4, 4)
    );
    assert_agrees(&report, "stale");
    assert_summary_agrees(&report);
}

#[test]
fn xfetch_recomputes_early_only_as_its_draws_say() {
    // Expiry 300 ms away: reads at about 1 ms stay live even on a busy machine.
    let base = "scenario=stampede&strategy=xfetch&cache=warm&db_latency=const:20ms&requests=5";
    let Some(eager) = play(&format!("{base}&expire_at=300ms&beta=1000"), 1) else {
        return;
    };
    let m = &eager.trials[0].metrics;
    // A huge beta: every live read recomputes before expiry.
    assert_eq!((m.cache_hits, m.early_refreshes, m.db_reads), (5, 5, 5));
    assert_eq!(eager.simulation.early_refreshes, 5);
    assert_summary_agrees(&eager);
    let never = play(&format!("{base}&expire_at=300ms&beta=0"), 1).unwrap();
    let m = &never.trials[0].metrics;
    assert_eq!((m.cache_hits, m.early_refreshes, m.db_reads), (5, 0, 0));
    assert_summary_agrees(&never);
    // Expired: XFetch has no lock, so every request recomputes.
    let expired = play(&format!("{base}&expire_at=0"), 1).unwrap();
    assert_eq!(expired.trials[0].metrics.db_reads, 5);
    assert_agrees(&expired, "db-reads");
    assert_summary_agrees(&expired);
}

#[test]
fn a_thousand_requests_share_a_hundred_connections() {
    let Some(stampede) = play("scenario=stampede&strategy=keyed-mutex&requests=1000", 1) else {
        return;
    };
    let m = &stampede.trials[0].metrics;
    assert_eq!((m.db_reads, m.cache_hits), (1, 999));
    assert_summary_agrees(&stampede);
    let tickets = play("scenario=ticket&strategy=none&users=150&clicks=2", 1).unwrap();
    assert_eq!(outcomes(&tickets), vec![[300, 150, 0, 2]]);
    assert_eq!(tickets.simulation.duplicate_tickets, 150);
    assert_summary_agrees(&tickets);
}

#[test]
fn a_replay_past_its_first_deadline_lands_every_operation() {
    // A trial's first deadline passes before the replay lands anything
    // (1 ms): as on a slow or busy machine, the replay goes on while it
    // lands operations, so every one lands and no request is hung.
    let fragment = "scenario=stampede&strategy=keyed-mutex&requests=50";
    if std::env::var(POSTGRES_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!("skipping real-server test of `{fragment}`: {POSTGRES_ENV} is not set");
        return;
    }
    let options = RealOptions {
        trial_timeout: std::time::Duration::from_millis(1),
        ..RealOptions::default()
    };
    let report = real::run(fragment, &options).unwrap_or_else(|error| panic!("{error}"));
    let trial = &report.trials[0];
    assert_eq!(trial.left_the_simulation, None);
    let [landed, all] = trial.replayed.expect("a replay");
    assert_eq!((landed, all), (102, 102));
    assert_eq!(trial.metrics.metrics.hung, 0);
    assert_eq!(
        (
            trial.metrics.metrics.db_reads,
            trial.metrics.metrics.cache_hits
        ),
        (1, 49)
    );
}

// ---------------------------------------------------------------------------
// A person's own handler on the real servers (`interleave real --script`):
// its calls replayed in the simulated order, so every trial is the same.

use interleave::real::script::{self as real_script, ScriptInput, ScriptReport};

/// `trials` mirrored trials of `code` (with its schema), or `None` when
/// the services are not up.
fn play_script(
    code: &str,
    schema: Option<&str>,
    fragment: &str,
    trials: u32,
) -> Option<ScriptReport> {
    if std::env::var(POSTGRES_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!("skipping real-server script test of `{fragment}`: {POSTGRES_ENV} is not set");
        return None;
    }
    let input = ScriptInput {
        code,
        schema,
        route: None,
        fragment,
    };
    let options = RealOptions {
        trials,
        ..RealOptions::default()
    };
    Some(real_script::run(&input, &options).unwrap_or_else(|error| panic!("{fragment}: {error}")))
}

fn example(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/examples/scripts/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap_or_else(|error| panic!("{name}: {error}"))
}

/// A script played on real Redis, two trials, that must answer every call
/// as the model did: its counters, as the model counted them.
fn custom_on_redis(code: &str, fragment: &str) -> Option<serde_json::Value> {
    let report = play_script(code, None, fragment, 2)?;
    assert_eq!(report.cache_server, "redis");
    assert_script_agrees(&report);
    Some(report.simulation["custom"].clone())
}

/// Every trial answered every call as the model did, and ended with the
/// model's tables.
fn assert_every_call_agrees(report: &ScriptReport) {
    assert_eq!(
        report.summary.status, "agree",
        "{:?}",
        report.summary.mismatches
    );
    for trial in &report.trials {
        assert!(trial.disagreements.is_empty(), "{:?}", trial.disagreements);
        assert!(
            trial.operations > 0,
            "nothing was played on the real servers"
        );
    }
}

/// [`assert_every_call_agrees`], and each trial's duplicates, orders and
/// counters are the model's.
fn assert_script_agrees(report: &ScriptReport) -> u64 {
    assert_every_call_agrees(report);
    let simulated = report.simulation["duplicate_tickets"].as_u64().unwrap();
    for trial in &report.trials {
        assert_eq!(trial.metrics["duplicate_tickets"].as_u64(), Some(simulated));
        assert_eq!(trial.metrics["orders"], report.simulation["orders"]);
        assert_eq!(trial.metrics["custom"], report.simulation["custom"]);
    }
    simulated
}

#[test]
fn a_scripts_double_click_writes_a_real_duplicate_row_in_every_trial() {
    let (code, schema) = (example("ticket_pg.js"), example("ticket_pg.sql"));
    let fragment = "v=1&scenario=script&users=1&clicks=2";
    let Some(report) = play_script(&code, Some(&schema), fragment, 3) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 1);
    for trial in &report.trials {
        // The SELECT and INSERT of each click: four statements.
        assert_eq!(trial.operations, 4);
        assert_eq!(trial.tables.len(), 1);
        let orders = &trial.tables[0];
        assert_eq!((orders.real_rows, orders.real_duplicates), (2, 1));
    }
}

/// The oversell in autocommit (a SELECT that checks the stock, then a
/// decrement in place) and the fixes explain offers for it: on real
/// PostgreSQL as in the model, 5 users sell 5 of 2 items; with the check
/// moved into the UPDATE's WHERE, 2 orders and no error; with
/// compare-and-set (offered when the check is no comparison with a
/// number), 1 order and the 4 whose check went stale failing.
#[test]
fn an_oversell_and_its_fixes_agree_with_real_postgres() {
    let schema = "CREATE TABLE products (id int PRIMARY KEY, stock int NOT NULL);
CREATE TABLE orders (id serial PRIMARY KEY, product_id int NOT NULL, user_id int NOT NULL);
INSERT INTO products VALUES (1, 2);
";
    let racy = r#"const { Pool } = require("pg");
const pool = new Pool();
exports.handle = async function (req) {
  const { rows } = await pool.query("SELECT stock FROM products WHERE id = $1", [1]);
  if (rows[0].stock <= 0) return;
  await pool.query("UPDATE products SET stock = stock - 1 WHERE id = $1", [1]);
  await pool.query("INSERT INTO orders (product_id, user_id) VALUES ($1, $2)", [1, req.user]);
};
"#;
    let update =
        "  await pool.query(\"UPDATE products SET stock = stock - 1 WHERE id = $1\", [1]);";
    let checked = racy.replace(
        update,
        "  if ((await pool.query(\"UPDATE products SET stock = stock - 1 WHERE id = $1 AND stock > \
         0\", [1])).rowCount === 0) return;",
    );
    let compared = racy.replace(
        update,
        "  if ((await pool.query(\"UPDATE products SET stock = stock - 1 WHERE id = $1 AND stock = \
         $2\", [1, rows[0].stock])).rowCount === 0) throw new Error(\"the row changed since line 4 \
         read it: try again\");",
    );
    assert!(checked != racy && compared != racy);
    let fragment = "v=1&scenario=script&users=5&clicks=1";
    for (code, orders, errors) in [
        (racy, 5, 0),
        (checked.as_str(), 2, 0),
        (compared.as_str(), 1, 4),
    ] {
        let Some(report) = play_script(code, Some(schema), fragment, 2) else {
            return;
        };
        assert_every_call_agrees(&report);
        assert_eq!(report.simulation["errors"], errors);
        for trial in &report.trials {
            assert_eq!(trial.metrics["errors"], errors);
            let rows = |name: &str| {
                let table = trial.tables.iter().find(|t| t.table == name).unwrap();
                (table.simulation_rows, table.real_rows)
            };
            assert_eq!(rows("orders"), (orders, orders));
        }
    }
}

/// Write skew: a coupon limited to two, counted and then redeemed by
/// three users at once. In autocommit and in a READ COMMITTED
/// transaction, real PostgreSQL keeps three redemptions as the model
/// does; with the fix explain offers in the transaction (the table locked
/// after BEGIN), two, and the third request's count sees them.
#[test]
fn a_coupon_redeemed_past_its_limit_agrees_with_real_postgres() {
    let schema =
        "CREATE TABLE redemptions (id serial PRIMARY KEY, coupon text NOT NULL, user_id int NOT NULL);\n";
    let autocommit = r#"const { Pool } = require("pg");
const pool = new Pool();
exports.handle = async function (req) {
  const { rows } = await pool.query("SELECT count(*)::int AS n FROM redemptions WHERE coupon = $1", ["SPRING"]);
  if (rows[0].n >= 2) return { status: 410 };
  await pool.query("INSERT INTO redemptions (coupon, user_id) VALUES ($1, $2)", ["SPRING", req.user]);
};
"#;
    let transaction = r#"const { Pool } = require("pg");
const pool = new Pool();
exports.handle = async function (req) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query("SELECT count(*)::int AS n FROM redemptions WHERE coupon = $1", ["SPRING"]);
    if (rows[0].n >= 2) {
      await client.query("ROLLBACK");
      return { status: 410 };
    }
    await client.query("INSERT INTO redemptions (coupon, user_id) VALUES ($1, $2)", ["SPRING", req.user]);
    await client.query("COMMIT");
  } finally {
    client.release();
  }
};
"#;
    let locked = transaction.replace(
        "    await client.query(\"BEGIN\");\n",
        "    await client.query(\"BEGIN\");\n    await client.query(\"LOCK TABLE redemptions IN SHARE \
         ROW EXCLUSIVE MODE\");\n",
    );
    assert_ne!(locked, transaction);
    // Explain's fix of the autocommit code: its lines in that transaction.
    let wrapped = autocommit.replace(
        r#"  const { rows } = await pool.query("SELECT count(*)::int AS n FROM redemptions WHERE coupon = $1", ["SPRING"]);
  if (rows[0].n >= 2) return { status: 410 };
  await pool.query("INSERT INTO redemptions (coupon, user_id) VALUES ($1, $2)", ["SPRING", req.user]);
"#,
        r#"  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("LOCK TABLE redemptions IN SHARE ROW EXCLUSIVE MODE");
    const { rows } = await client.query("SELECT count(*)::int AS n FROM redemptions WHERE coupon = $1", ["SPRING"]);
    if (rows[0].n >= 2) return { status: 410 };
    await client.query("INSERT INTO redemptions (coupon, user_id) VALUES ($1, $2)", ["SPRING", req.user]);
    await client.query("COMMIT");
  } finally {
    await client.query("ROLLBACK");
    client.release();
  }
"#,
    );
    assert_ne!(wrapped, autocommit);
    let fragment = "v=1&scenario=script&users=3&clicks=1";
    let cases = [
        (autocommit, 3),
        (transaction, 3),
        (locked.as_str(), 2),
        (wrapped.as_str(), 2),
    ];
    for (code, redeemed) in cases {
        let Some(report) = play_script(code, Some(schema), fragment, 2) else {
            return;
        };
        assert_every_call_agrees(&report);
        assert_eq!(report.simulation["errors"], 0);
        for trial in &report.trials {
            assert_eq!(trial.metrics["errors"], 0);
            let table = &trial.tables[0];
            assert_eq!(
                (table.simulation_rows, table.real_rows),
                (redeemed, redeemed)
            );
        }
    }
}

#[test]
fn explores_counterexample_replays_on_real_postgres() {
    // 50 ms apart, the second click finds the first one's row: no race in
    // the natural order; explore's counterexample (`schedule=1`) delivers
    // the second SELECT first, and the real database duplicates as the
    // model does, every trial.
    let (code, schema) = (example("ticket_pg.js"), example("ticket_pg.sql"));
    let natural = "v=1&scenario=script&users=1&clicks=2&click_gap=50ms";
    let Some(report) = play_script(&code, Some(&schema), natural, 2) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
    let counterexample = format!("{natural}&schedule=1");
    let report = play_script(&code, Some(&schema), &counterexample, 3).unwrap();
    assert_eq!(assert_script_agrees(&report), 1);
}

#[test]
fn the_databases_fixes_hold_on_real_postgres_across_servers() {
    let fragment = "v=1&scenario=script&users=3&clicks=2&servers=2";
    for name in ["ticket_pg_on_conflict", "ticket_pg_for_update"] {
        let (code, schema) = (
            example(&format!("{name}.js")),
            example(&format!("{name}.sql")),
        );
        let Some(report) = play_script(&code, Some(&schema), fragment, 2) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), 0, "{name}");
        assert_eq!(report.simulation["orders"], 3, "{name}");
    }
}

#[test]
fn an_in_process_mutex_holds_on_one_server_and_not_on_two_for_real() {
    let (code, schema) = (
        example("async_mutex_servers.js"),
        example("async_mutex_servers.sql"),
    );
    let Some(one) = play_script(
        &code,
        Some(&schema),
        "v=1&scenario=script&users=3&clicks=2",
        2,
    ) else {
        return;
    };
    assert_eq!(assert_script_agrees(&one), 0);
    let two = "v=1&scenario=script&users=3&clicks=2&servers=2";
    let two = play_script(&code, Some(&schema), two, 2).unwrap();
    assert_eq!(assert_script_agrees(&two), 3);
}

#[test]
fn redis_locks_from_ioredis_and_node_redis_hold_on_real_redis() {
    let fragment = "v=1&scenario=script&users=2&clicks=2&servers=2";
    let (code, schema) = (example("redis_lock.ts"), example("redis_lock.sql"));
    let Some(ioredis) = play_script(&code, Some(&schema), fragment, 2) else {
        return;
    };
    assert_eq!(ioredis.cache_server, "redis");
    assert_eq!(assert_script_agrees(&ioredis), 0);
    // node-redis, with the lock taken by a plain GET then SET: both
    // clicks take it, on the model and on Redis alike.
    let racy = r#"
        import { createClient } from "redis";
        import pg from "pg";
        const redis = createClient();
        await redis.connect();
        const pool = new pg.Pool();
        export async function handle(req) {
          const key = `lock:${req.user}`;
          if ((await redis.get(key)) !== null) { count("busy"); return; }
          await redis.set(key, "1", { PX: 5000 });
          try {
            const { rowCount } = await pool.query(
              "SELECT id FROM orders WHERE user_id = $1", [req.user]);
            if (rowCount === 0) {
              await pool.query("INSERT INTO orders (user_id, event_id) VALUES ($1, 1)", [req.user]);
            }
          } finally {
            await redis.del(key);
          }
        }
    "#;
    let report = play_script(racy, Some(&schema), fragment, 2).unwrap();
    assert_eq!(assert_script_agrees(&report), 2);
}

/// MULTI/EXEC on real Redis: the EXECs the model runs play their commands
/// there and answer the same; with one shared connection every buyer buys
/// the last item, with a connection each (`duplicate()`) one does, in the
/// model and in every trial.
#[test]
fn multi_exec_with_watch_agrees_with_real_redis() {
    let shared = r#"
        import Redis from "ioredis";
        const redis = new Redis();
        await redis.set("stock", 1);
        export async function handle(req) {
          await redis.watch("stock");
          const stock = Number(await redis.get("stock"));
          if (stock <= 0) { await redis.unwatch(); return count("sold out"); }
          const result = await redis.multi().set("stock", stock - 1).incr("sold").get("sold").exec();
          count(result ? "bought" : "retry");
        }
    "#;
    let fragment = "v=1&scenario=script&users=3&clicks=1";
    let Some(custom) = custom_on_redis(shared, fragment) else {
        return;
    };
    assert_eq!(custom, serde_json::json!({ "bought": 3 }));
    let own = shared
        .replace("const redis = new Redis();", "const base = new Redis();")
        .replace(
            "await redis.set(\"stock\", 1);",
            "await base.set(\"stock\", 1);",
        )
        .replace(
            "await redis.watch(\"stock\");",
            "const redis = base.duplicate();\n          await redis.watch(\"stock\");",
        );
    let custom = custom_on_redis(&own, fragment).expect("the servers are up");
    assert_eq!(custom, serde_json::json!({ "bought": 1, "retry": 2 }));
}

/// Hashes on real Redis: every HSET, HGET, HGETALL, HDEL and HINCRBY the
/// model lands answers the same there, a lost `pears` update included,
/// and so does a hash command on a string key (WRONGTYPE).
#[test]
fn hashes_agree_with_real_redis() {
    let code = r#"
        import Redis from "ioredis";
        const redis = new Redis();
        await redis.set("plain", "v");
        export async function handle(req) {
          await redis.hincrby("cart", "apples", 1);
          const n = Number(await redis.hget("cart", "pears")) || 0;
          await redis.hset("cart", "pears", n + 1, `u${req.id}`, req.id);
          const all = await redis.hgetall("cart");
          count(`pears_${all.pears}`);
          await redis.hdel("cart", `u${req.id}`);
          try { await redis.hget("plain", "f"); } catch (e) { count("wrongtype"); }
        }
    "#;
    let fragment = "v=1&scenario=script&users=2&clicks=2";
    let Some(custom) = custom_on_redis(code, fragment) else {
        return;
    };
    assert_eq!(custom["wrongtype"], 4);
    // All four read pears before any wrote it: each writes 1.
    assert_eq!(custom["pears_1"], 4, "{custom}");
}

/// Float increments on real Redis: every INCRBYFLOAT and HINCRBYFLOAT
/// the model lands answers the same text there, digit for digit (Redis
/// adds in the x87's 80-bit long double: `1000.1` is stored as
/// `1000.09999999999999998`), and so do its refusals.
#[test]
fn float_increments_agree_with_real_redis() {
    let code = r#"
        import Redis from "ioredis";
        const redis = new Redis();
        await redis.set("word", "abc");
        export async function handle(req) {
          for (const by of [1000.1, 0.1, -0.3, 123456.789, 1e21, 1e-7, "2.5e3", 5.01]) {
            await redis.incrbyfloat(`total${req.id % 2}`, by);
            await redis.hincrbyfloat("totals", `r${req.id}`, by);
          }
          try { await redis.incrbyfloat("word", 1); } catch (e) { count("not_a_float"); }
          try { await redis.hincrbyfloat("totals", "r0", "inf"); } catch (e) { count("infinite"); }
          count(`total0_${(await redis.get("total0")) !== null}`);
        }
    "#;
    let fragment = "v=1&scenario=script&users=2&clicks=2";
    let Some(custom) = custom_on_redis(code, fragment) else {
        return;
    };
    assert_eq!(custom["not_a_float"], 4, "{custom}");
    assert_eq!(custom["infinite"], 4, "{custom}");
}

/// Sets and lists on real Redis: SADD as an idempotency guard (one of
/// each user's two clicks gets `1`), SISMEMBER, SMEMBERS (compared
/// sorted), SREM, RPUSH, LRANGE, LPOP, LREM, LSET, LTRIM and LINDEX answer
/// the same there.
#[test]
fn sets_and_lists_agree_with_real_redis() {
    let code = r#"
        import { createClient } from "redis";
        const redis = createClient();
        await redis.connect();
        export async function handle(req) {
          const added = await redis.sAdd("seen", [`u${req.user}`, "all"]);
          count(`added_${added}`);
          count(`member_${await redis.sIsMember("seen", `u${req.user}`)}`);
          count(`size_${(await redis.sMembers("seen")).length}`);
          if (req.id === 3) await redis.sRem("seen", ["all", "nobody"]);
          await redis.rPush("jobs", [`job${req.id}`, `extra${req.id}`]);
          count(`jobs_${(await redis.lRange("jobs", 0, -1)).length}`);
          if (req.id % 2 === 1) count(`took_${await redis.lPop("jobs")}`);
          count(`removed_${await redis.lRem("jobs", -1, `extra${req.id}`)}`);
          if ((await redis.lLen("jobs")) > 0) await redis.lSet("jobs", 0, `first${req.id}`);
          await redis.lTrim("jobs", 0, 2);
          count(`head_${await redis.lIndex("jobs", 0)}`);
        }
    "#;
    let fragment = "v=1&scenario=script&users=2&clicks=2";
    let Some(custom) = custom_on_redis(code, fragment) else {
        return;
    };
    assert_eq!(custom["member_1"], 4, "{custom}");
    // Every request set the list's head, and none failed.
    let heads: u64 = custom
        .as_object()
        .expect("counters")
        .iter()
        .filter(|(name, _)| name.starts_with("head_first"))
        .map(|(_, n)| n.as_u64().unwrap_or(0))
        .sum();
    assert_eq!(heads, 4, "{custom}");
}

/// Sorted sets on real Redis: a sliding-window rate limiter (ZREMRANGEBYSCORE,
/// ZCARD, then ZADD: check-then-act, so concurrent requests all pass), and
/// ZRANK, ZINCRBY and ZRANGE WITHSCORES answer the same there.
#[test]
fn sorted_sets_agree_with_real_redis() {
    let code = r#"
        const Redis = require("ioredis");
        const redis = new Redis();
        const WINDOW_MS = 1000;
        const LIMIT = 2;
        module.exports.handle = async (req) => {
          const key = `rate:${req.user}`;
          const now = Date.now();
          await redis.zremrangebyscore(key, "-inf", `(${now - WINDOW_MS}`);
          const used = await redis.zcard(key);
          if (used >= LIMIT) { count("limited"); return; }
          await redis.zadd(key, now, `r${req.id}`);
          count(`rank_${await redis.zrank(key, `r${req.id}`)}`);
          await redis.zincrby("scores", 1.5, `u${req.user}`);
          count(`range_${(await redis.zrange("scores", 0, -1, "WITHSCORES")).length}`);
          await redis.zadd("tasks", req.id, `t${req.id}`);
          const [task] = await redis.zpopmin("tasks");
          const [top] = await redis.zpopmax("tasks", 1);
          count(task === undefined ? "no_task" : "task");
          count(top === undefined ? "no_top" : "top");
        };
    "#;
    let fragment = "v=1&scenario=script&users=2&clicks=3";
    let Some(custom) = custom_on_redis(code, fragment) else {
        return;
    };
    // Every click reads the count before any adds: none is limited.
    assert_eq!(custom.get("limited"), None, "{}", custom);
    // Each task is popped at most once, by a ZPOPMIN or a ZPOPMAX (and
    // every pop's answer was the model's).
    let popped = |name: &str| custom.get(name).and_then(|n| n.as_u64()).unwrap_or(0);
    assert!(popped("task") >= 1, "{custom}");
    assert!(popped("task") + popped("top") <= 6, "{custom}");
}

/// A key's expiry and the values read as they go, on real Redis: a
/// one-time token taken with GETDEL (one request of each user's clicks
/// gets it, or more when they race), TTL and PTTL of a live and a missing
/// key, EXPIRE with GT and NX, PERSIST, SET with KEEPTTL and GET, and
/// GETSET, which leaves no expiry: each answers the same there (a PTTL's milliseconds are the real clock's, so only its
/// sign is compared).
#[test]
fn ttl_getdel_and_getset_agree_with_real_redis() {
    let code = r#"
        const Redis = require("ioredis");
        const redis = new Redis();
        module.exports.handle = async (req) => {
          const token = `token:${req.user}`;
          await redis.set(token, `t${req.id}`, "EX", 60);
          count(`ttl_${await redis.ttl(token)}`);
          count(`taken_${(await redis.getdel(token)) !== null}`);
          count(`gone_${await redis.pttl(token)}`);
          await redis.set(`seen:${req.id}`, req.id, "PX", 5000);
          count(`longer_${await redis.expire(`seen:${req.id}`, 10, "GT")}`);
          count(`persisted_${await redis.persist(`seen:${req.id}`)}`);
          count(`fresh_${await redis.expire(`seen:${req.id}`, 10, "NX")}`);
          await redis.set(`s:${req.id}`, "a", "EX", 60);
          count(`before_${await redis.set(`s:${req.id}`, "b", "KEEPTTL", "GET")}`);
          count(`kept_${await redis.ttl(`s:${req.id}`)}`);
          count(`px_${await redis.set(`s:${req.id}`, "c", "PX", 90000, "GET")}`);
          count(`px_ttl_${await redis.ttl(`s:${req.id}`)}`);
          await redis.set(`at:${req.id}`, 1);
          count(`at_${await redis.pexpireat(`at:${req.id}`, Date.now() + 30000)}`);
          count(`at_live_${(await redis.pttl(`at:${req.id}`)) > 0}`);
          count(`passed_${await redis.expireat(`at:${req.id}`, Math.floor(Date.now() / 1000) - 1)}`);
          count(`at_gone_${await redis.exists(`at:${req.id}`)}`);
          const last = await redis.getset("last", req.id);
          count(`first_${last === null}`);
          count(`last_ttl_${await redis.ttl("last")}`);
        };
    "#;
    let fragment = "v=1&scenario=script&users=2&clicks=2";
    let Some(custom) = custom_on_redis(code, fragment) else {
        return;
    };
    assert_eq!(custom["first_true"], 1, "{custom}");
    // Each request's own keys: every one of the four answers alike.
    for each in [
        "last_ttl_-1",
        "longer_1",
        "fresh_1",
        "before_a",
        "kept_60",
        "px_b",
        "px_ttl_90",
        "at_1",
        "at_live_true",
        "passed_1",
        "at_gone_0",
    ] {
        assert_eq!(custom[each], 4, "{custom}");
    }
}

/// KEYS, SCAN and UNLINK: each request stores a key of its own, lists
/// them, pages through them and removes its own; then APPEND, RENAME,
/// TYPE, STRLEN and RENAMENX (the first to it takes `first`). The real Redis answers
/// KEYS as the model does (in its own order, which is sorted before the
/// answers are compared); a SCAN's cursors are the server's, so its pages
/// are the model's.
#[test]
fn keys_and_unlink_agree_with_real_redis() {
    let code = r#"
        const Redis = require("ioredis");
        const redis = new Redis();
        module.exports.handle = async (req) => {
          await redis.set(`visit:${req.id}`, req.user);
          count(`keys_${(await redis.keys("visit:*")).length}`);
          const [cursor, page] = await redis.scan(0, "MATCH", "visit:*", "COUNT", 100);
          count(`scan_${cursor}_${page.length}`);
          count(`unlinked_${await redis.unlink(`visit:${req.id}`, "none")}`);
          count(`after_${(await redis.keys("visit:*")).length}`);
          await redis.set(`log:${req.id}`, req.user, "EX", 60);
          count(`appended_${await redis.append(`log:${req.id}`, "+seen")}`);
          count(`renamed_${await redis.rename(`log:${req.id}`, `done:${req.id}`)}`);
          count(`type_${await redis.type(`done:${req.id}`)}_${await redis.type(`log:${req.id}`)}`);
          count(`length_${await redis.strlen(`done:${req.id}`)}`);
          count(`taken_${await redis.renamenx(`done:${req.id}`, "first")}`);
        };
    "#;
    let fragment = "v=1&scenario=script&users=2&clicks=2";
    let Some(custom) = custom_on_redis(code, fragment) else {
        return;
    };
    assert_eq!(custom["unlinked_1"], 4, "{custom}");
    for each in ["appended_6", "renamed_OK", "type_string_none", "length_6"] {
        assert_eq!(custom[each], 4, "{custom}");
    }
    assert_eq!(
        (&custom["taken_1"], &custom["taken_0"]),
        (&1.into(), &3.into()),
        "{custom}"
    );
    let counted = |prefix: &str| -> u64 {
        custom
            .as_object()
            .unwrap()
            .iter()
            .filter(|(name, _)| name.starts_with(prefix))
            .map(|(_, n)| n.as_u64().unwrap())
            .sum()
    };
    assert_eq!(
        (counted("keys_"), counted("scan_0_"), counted("after_")),
        (4, 4, 4),
        "{custom}"
    );
}

/// SET with EXAT and PXAT, and GETEX, played on the real Redis: each
/// time as the time it leaves (PXAT 1 for one passed), and each reply the
/// model's.
#[test]
fn exat_pxat_and_getex_agree_with_real_redis() {
    let code = r#"
        const Redis = require("ioredis");
        const redis = new Redis();
        module.exports.handle = async (req) => {
          const k = `session:${req.id}`;
          await redis.set(k, req.user, "EXAT", Math.floor(Date.now() / 1000) + 60);
          count(`read_${(await redis.getex(k, "EX", 120)) === String(req.user)}`);
          count(`longer_${(await redis.ttl(k)) > 60}`);
          count(`kept_${(await redis.getex(k, "PERSIST")) === String(req.user)}`);
          count(`forever_${await redis.ttl(k)}`);
          count(`again_${(await redis.getex(k, "PXAT", Date.now() + 30000)) === String(req.user)}`);
          await redis.set(k, "x", "PXAT", 1);
          count(`gone_${await redis.get(k)}`);
          count(`missing_${await redis.getex(k, "EX", 0)}`);
        };
    "#;
    let Some(custom) = custom_on_redis(code, "v=1&scenario=script&users=2&clicks=2") else {
        return;
    };
    for each in [
        "read_true",
        "longer_true",
        "kept_true",
        "forever_-1",
        "again_true",
        "gone_null",
        "missing_null",
    ] {
        assert_eq!(custom[each], 4, "{custom}");
    }
}

/// A reliable queue: each request takes a job with LMOVE (RPOPLPUSH) into
/// its own processing list and publishes that it is done, played on the
/// real Redis, each reply the model's; no job is taken twice or lost, and
/// no one hears the news.
#[test]
fn lmove_queues_agree_with_real_redis() {
    let code = r#"
        const Redis = require("ioredis");
        const redis = new Redis();
        let seeded = false;
        module.exports.handle = async (req) => {
          if (!seeded) {
            seeded = true;
            await redis.rpush("jobs", "j1", "j2", "j3");
          }
          const job = await redis.lmove("jobs", `working:${req.id}`, "LEFT", "RIGHT");
          count(job === null ? "no_job" : "took_job");
          if (job !== null) {
            count(`back_${await redis.rpoplpush(`working:${req.id}`, "done")}` === `back_${job}` ? "moved" : "lost");
          }
          count(`left_${await redis.llen("working:" + req.id)}`);
          count(`published_${await redis.publish("jobs:done", String(req.id))}`);
        };
    "#;
    let Some(custom) = custom_on_redis(code, "v=1&scenario=script&users=2&clicks=2") else {
        return;
    };
    assert_eq!(custom["took_job"], 3, "{custom}");
    assert_eq!(custom["no_job"], 1, "{custom}");
    assert_eq!(custom["moved"], 3, "{custom}");
    assert_eq!(custom["left_0"], 4, "{custom}");
    assert_eq!(custom["published_0"], 4, "{custom}");
}

#[test]
fn a_memcached_add_lock_from_memjs_holds_on_real_memcached() {
    let schema = example("ticket_pg.sql");
    let code = r#"
        const memjs = require("memjs");
        const { Pool } = require("pg");
        const cache = memjs.Client.create();
        const pool = new Pool();
        module.exports.handle = async (req) => {
          const key = `lock:${req.user}`;
          // add: stored only if absent, the lock of seed 004.
          const added = await cache.add(key, "1", { expires: 5 });
          if (!added) { count("busy"); return; }
          try {
            const existing = await pool.query(
              "SELECT id FROM orders WHERE user_id = $1 AND event_id = 1", [req.user]);
            if (existing.rowCount === 0) {
              await pool.query("INSERT INTO orders (user_id, event_id) VALUES ($1, 1)", [req.user]);
            }
          } finally {
            await cache.delete(key);
          }
        };
    "#;
    let fragment = "v=1&scenario=script&users=2&clicks=2&servers=2";
    let Some(report) = play_script(code, Some(&schema), fragment, 2) else {
        return;
    };
    assert_eq!(report.cache_server, "memcached");
    assert_eq!(assert_script_agrees(&report), 0);
    assert_eq!(report.simulation["custom"]["busy"], 2);
}

/// memcached's `gets` and `cas` (with the real server's own CAS uniques,
/// which the mirror maps to the model's), `append`, `prepend` and
/// `getMulti` answer on a real memcached as in the model; five visits at
/// once lose four through `get` then `set`, and none through `cas`.
#[test]
fn check_and_set_agrees_with_real_memcached() {
    let race = include_str!("memcached/visits.js");
    let fragment = "v=1&scenario=script&users=5&clicks=1";
    let Some(report) = play_script(race, None, fragment, 2) else {
        return;
    };
    assert_eq!(report.cache_server, "memcached");
    assert_script_agrees(&report);
    let custom = &report.simulation["custom"];
    assert_eq!(custom["retries"], 10, "{custom}");
    assert_eq!(custom["visits=1 safe=5"], 1, "{custom}");
    let calls = include_str!("memcached/check_and_set.js");
    let Some(report) = play_script(calls, None, "v=1&scenario=script&users=1&clicks=1", 2) else {
        return;
    };
    assert_script_agrees(&report);
}

#[test]
fn where_the_model_and_postgres_part_the_report_shows_the_statement_and_both_answers() {
    // A known gap of the model, found by this mode: a NATURAL JOIN is its
    // error 0A000, where PostgreSQL answers.
    let schema = example("stampede_redis.sql");
    let code = r#"
        const { Pool } = require("pg");
        const pool = new Pool();
        module.exports.handle = async (req) => {
          await pool.query(
            "SELECT p.name AS n FROM products p NATURAL JOIN products q WHERE p.id = $1", [1]);
        };
    "#;
    let Some(report) = play_script(code, Some(&schema), "v=1&scenario=script", 1) else {
        return;
    };
    assert_eq!(report.summary.status, "disagree");
    let first = &report.trials[0].disagreements[0];
    assert!(
        first.call.starts_with(
            "SELECT p.name AS n FROM products p NATURAL JOIN products q WHERE p.id = '1'"
        ),
        "{}",
        first.call
    );
    assert_eq!(first.simulation["error"]["code"], "0A000");
    assert_eq!(first.real["rows"][0]["n"], "concert ticket");
    assert!(report.summary.mismatches[0].contains("NATURAL JOIN products q"));
}

/// A double click's two `INSERT … SELECT … WHERE NOT EXISTS (…)` in
/// transactions: the second waits for the first's key, then fails with
/// 23505 on PostgreSQL too, which keeps its subquery's answer (the model
/// keeps it the same way, docs/sql.md "Transactions"); one row.
#[test]
fn a_waiting_insert_select_fails_on_the_key_on_real_postgres() {
    let code = include_str!("pg/insert_select_race.js");
    let schema = include_str!("pg/insert_select_race.sql");
    let Some(report) = play_script(
        code,
        Some(schema),
        "v=1&scenario=script&users=1&clicks=2",
        2,
    ) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
    for trial in &report.trials {
        assert_eq!(
            (trial.tables[0].real_rows, trial.tables[0].real_duplicates),
            (1, 0)
        );
    }
}

/// The sign-in example (`signup_pg.js`), a double click: the second's
/// get-or-create statement waits for the first's row, does nothing, and
/// its `UNION ALL SELECT` reads the statement's snapshot from before the
/// wait: no row, and an error, on PostgreSQL as in the model
/// (tests/examples.rs); one user row.
#[test]
fn get_or_create_finds_no_row_after_waiting_on_real_postgres() {
    let (code, schema) = (example("signup_pg.js"), example("signup_pg.sql"));
    let fragment = "v=1&scenario=script&users=1&clicks=2";
    let Some(report) = play_script(&code, Some(&schema), fragment, 2) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
    assert_eq!(report.simulation["errors"], 1);
    for trial in &report.trials {
        assert_eq!(trial.metrics["errors"], 1);
        let users = trial.tables.iter().find(|t| t.table == "users");
        assert_eq!(users.map(|t| t.real_rows), Some(1));
    }
}

/// Get-or-create under a savepoint (`tests/pg/savepoint_get_or_create.js`),
/// a double click: the second's INSERT fails with 23505 after the first
/// commits, it rolls back to its savepoint and reads the first's user, on
/// PostgreSQL as in the model (tests/sql.rs); one user, two sessions.
#[test]
fn get_or_create_under_a_savepoint_on_real_postgres() {
    let code = include_str!("pg/savepoint_get_or_create.js");
    let schema = include_str!("../examples/scripts/signup_pg.sql");
    let fragment = "v=1&scenario=script&users=1&clicks=2";
    let Some(report) = play_script(code, Some(schema), fragment, 2) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
    for trial in &report.trials {
        let rows = |name: &str| {
            let table = trial.tables.iter().find(|t| t.table == name);
            table.map(|t| t.real_rows)
        };
        assert_eq!((rows("users"), rows("sessions")), (Some(1), Some(2)));
    }
}

/// A spending limit checked under `FOR UPDATE` (`tests/pg/budget_lock.js`),
/// a double click: the second's sum, after its wait, does not see the
/// first's new order, and both add one (five orders); with the user's row
/// locked first, the second sees it and adds none (four). On PostgreSQL
/// as in the model (tests/sql.rs).
#[test]
fn for_update_locks_no_row_that_does_not_exist_yet_on_real_postgres() {
    let code = include_str!("pg/budget_lock.js");
    let schema = include_str!("pg/join_locks.sql");
    let parent = code.replace(
        "    await client.query('BEGIN');\n",
        "    await client.query('BEGIN');\n    await client.query('SELECT id FROM users WHERE id = 1 FOR UPDATE');\n",
    );
    for (code, orders) in [(code, 6), (parent.as_str(), 5)] {
        let fragment = "v=1&scenario=script&users=1&clicks=2";
        let Some(report) = play_script(code, Some(schema), fragment, 2) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), 0);
        for trial in &report.trials {
            let rows = trial.tables.iter().find(|t| t.table == "orders");
            assert_eq!(rows.map(|t| t.real_rows), Some(orders));
        }
    }
}

/// A visit logged by a data-modifying `WITH` query of an UPDATE that
/// waits for the other click's row (`tests/pg/logged_counter.js`): each
/// click's insert is made once, on PostgreSQL as in the model; two
/// visits, and the counter at 2.
#[test]
fn a_waiting_statement_writes_its_with_query_once_on_real_postgres() {
    let code = include_str!("pg/logged_counter.js");
    let schema = include_str!("pg/logged_counter.sql");
    let fragment = "v=1&scenario=script&users=1&clicks=2";
    let Some(report) = play_script(code, Some(schema), fragment, 2) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
    for trial in &report.trials {
        let visits = trial.tables.iter().find(|t| t.table == "visits");
        assert_eq!(visits.map(|t| t.real_rows), Some(2));
    }
}

/// The last seat, checked by a LEFT JOIN of the event and its orders and
/// taken by two users: both are sold under READ COMMITTED, and under
/// SERIALIZABLE the second commit fails with 40001, on PostgreSQL as in
/// the model (tests/sql.rs).
#[test]
fn a_join_capacity_check_races_as_on_real_postgres() {
    let code = include_str!("pg/join_oversell.js");
    let schema = include_str!("pg/join_oversell.sql");
    let serializable = code.replace("\"READ COMMITTED\"", "\"SERIALIZABLE\"");
    for (code, rows) in [(code, 2), (serializable.as_str(), 1)] {
        let fragment = "v=1&scenario=script&users=2&clicks=1";
        let Some(report) = play_script(code, Some(schema), fragment, 2) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), 0);
        for trial in &report.trials {
            let orders = trial.tables.iter().find(|t| t.table == "orders");
            assert_eq!(orders.map(|t| t.real_rows), Some(rows));
        }
    }
}

/// Two workers claim the next new job (`tests/pg/job_claim.js`): with
/// `FOR UPDATE SKIP LOCKED` in the claim's subquery, or a plain `FOR
/// UPDATE`, each job runs once on PostgreSQL as in the model; without a
/// lock, the second worker waits on the first's row, keeps its subquery's
/// answer and runs job 1 again, on PostgreSQL as in the model
/// (tests/sql.rs).
#[test]
fn a_job_queue_claim_races_without_a_locking_subquery_on_real_postgres() {
    let code = include_str!("pg/job_claim.js");
    let schema = include_str!("pg/job_claim.sql");
    let waits = code.replace(" SKIP LOCKED", "");
    let unlocked = code.replace(" FOR UPDATE SKIP LOCKED", "");
    for (code, duplicates) in [(code, 0), (waits.as_str(), 0), (unlocked.as_str(), 1)] {
        let fragment = "v=1&scenario=script&users=2&clicks=1";
        let Some(report) = play_script(code, Some(schema), fragment, 2) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), duplicates, "{code}");
        for trial in &report.trials {
            let runs = trial.tables.iter().find(|t| t.table == "runs");
            assert_eq!(
                runs.map(|t| (t.real_rows, t.real_duplicates)),
                Some((2, duplicates))
            );
        }
    }
}

/// Eight requests spend from one account under `FOR UPDATE`
/// (`tests/pg/balance_queue.js`): three pay, five find too little, on
/// PostgreSQL as in the model. PostgreSQL does not keep the waiters for a
/// row that changes again in a queue (they wake together and the first to
/// lock it goes first), so with eight of them it often lets a later one
/// through (in two of three runs of this test, before the replay followed
/// it, a trial hung 5 s there); the replay follows its choice instead of
/// waiting for the model's (tests/sql.rs).
#[test]
fn a_row_lock_queue_agrees_with_real_postgres_in_whatever_order_it_wakes() {
    let code = include_str!("pg/balance_queue.js");
    let schema = include_str!("pg/balance_queue.sql");
    let fragment = "v=1&scenario=script&users=8&clicks=1";
    let Some(report) = play_script(code, Some(schema), fragment, 3) else {
        return;
    };
    assert_every_call_agrees(&report);
    for trial in &report.trials {
        assert_eq!(trial.metrics["errors"].as_u64(), Some(5));
        assert_balances_seen(trial, "saw", &[("100", 1), ("70", 1), ("40", 1), ("10", 5)]);
    }
}

/// Counters name requests (`request3_saw70`), and which request saw which
/// balance is PostgreSQL's choice: each balance was seen by as many
/// requests as in the model, and no other was.
fn assert_balances_seen(trial: &real_script::ScriptTrial, verb: &str, seen: &[(&str, usize)]) {
    let counters: Vec<&String> = trial.metrics["custom"]
        .as_object()
        .expect("counters")
        .keys()
        .collect();
    let requests: usize = seen.iter().map(|(_, requests)| requests).sum();
    assert_eq!(counters.len(), requests, "{counters:?}");
    for (balance, requests) in seen {
        let named = format!("_{verb}{balance}");
        let saw = counters.iter().filter(|k| k.ends_with(&named));
        assert_eq!(saw.count(), *requests, "{balance}: {counters:?}");
    }
}

/// Two requests lock two rows while others hold each
/// (`tests/pg/two_rows_queue.js`): when row 1's last holder commits, the
/// two wake together, the first to lock row 1 then waits for row 2's
/// holder, and the replay tells which went first from what the oldest
/// waits for (neither is answered until row 2's holder commits), at once
/// rather than after 5 s of asking (which the report would list).
#[test]
fn waiters_that_wake_and_wait_again_agree_with_real_postgres() {
    let code = include_str!("pg/two_rows_queue.js");
    let schema = include_str!("pg/two_rows_queue.sql");
    let fragment = "v=1&scenario=script&users=5&clicks=1";
    let Some(report) = play_script(code, Some(schema), fragment, 3) else {
        return;
    };
    assert_every_call_agrees(&report);
    for trial in &report.trials {
        assert_eq!(trial.metrics["errors"].as_u64(), Some(0));
        assert_balances_seen(trial, "left", &[("100", 1), ("90", 1), ("80", 1)]);
    }
}

/// A statement that waits keeps the rows it took before
/// (`tests/pg/rows_taken_before_a_wait*.js`, in a block and alone): a
/// third request's UPDATE of such a row waits on PostgreSQL as in the
/// model, and sees the write of the statement it waited for
/// (tests/sql.rs). Each statement waits for a transaction that sleeps, so
/// the order does not depend on the servers' speed.
#[test]
fn a_waiting_statement_keeps_the_rows_it_took_on_real_postgres() {
    let schema = include_str!("pg/two_rows_queue.sql");
    let fragment = "v=1&scenario=script&users=3&clicks=1";
    for (code, seen) in [
        (
            include_str!("pg/rows_taken_before_a_wait.js"),
            [("left90", 1), ("left80_at200", 1)],
        ),
        (
            include_str!("pg/rows_taken_before_a_wait_alone.js"),
            [("updated2_at160", 1), ("left80_at160", 1)],
        ),
    ] {
        let Some(report) = play_script(code, Some(schema), fragment, 2) else {
            return;
        };
        assert_every_call_agrees(&report);
        for trial in &report.trials {
            assert_eq!(trial.metrics["errors"].as_u64(), Some(0));
            assert_balances_seen(trial, "", &seen);
        }
    }
}

/// The job queue example (`job_queue_pg.js`, a `WITH` query's pick and
/// `UPDATE … FROM`): its pick takes no lock, and job 1 runs twice on
/// PostgreSQL as in the model; with `FOR UPDATE SKIP LOCKED` each job
/// runs once (tests/examples.rs).
#[test]
fn a_job_queue_pick_without_a_lock_runs_a_job_twice_on_real_postgres() {
    let (code, schema) = (example("job_queue_pg.js"), example("job_queue_pg.sql"));
    let fixed = code.replace(
        "ORDER BY id LIMIT 1\n",
        "ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED\n",
    );
    assert_ne!(fixed, code);
    for (code, duplicates) in [(code.as_str(), 1), (fixed.as_str(), 0)] {
        let fragment = "v=1&scenario=script&users=2&clicks=1";
        let Some(report) = play_script(code, Some(&schema), fragment, 2) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), duplicates, "{code}");
    }
}

/// The room booking example (`room_booking_pg.js`): two guests' check
/// then insert books the room twice on PostgreSQL as in the model; with
/// `LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE` after BEGIN the
/// second waits for the first's commit and finds the room taken
/// (tests/examples.rs).
#[test]
fn a_room_booking_double_books_unless_the_table_is_locked_on_real_postgres() {
    let (code, schema) = (
        example("room_booking_pg.js"),
        example("room_booking_pg.sql"),
    );
    let begin = "await client.query(\"BEGIN\");\n";
    let locked = code.replace(
        begin,
        &format!("{begin}      await client.query(\"LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE\");\n"),
    );
    assert_ne!(locked, code);
    for (code, users, duplicates) in [(&code, 2, 1), (&locked, 2, 0), (&locked, 4, 0)] {
        let fragment = format!("v=1&scenario=script&users={users}&clicks=1");
        let Some(report) = play_script(code, Some(&schema), &fragment, 2) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), duplicates, "{code}");
    }
}

/// A coupon's correlated `NOT EXISTS` check in a transaction lets both
/// clicks of a double click redeem it on PostgreSQL as in the model, and
/// the correlated count in the select list reads each transaction's own
/// row (tests/sql.rs).
#[test]
fn a_correlated_check_redeems_a_coupon_twice_on_real_postgres() {
    let code = include_str!("pg/coupon_correlated.js");
    let schema = include_str!("pg/coupon_correlated.sql");
    let fragment = "v=1&scenario=script&users=2&clicks=2&click_gap=0";
    let Some(report) = play_script(code, Some(schema), fragment, 2) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 2);
}

/// Two buyers read the stock `FOR SHARE`, then update it: the first to
/// wait fails with 40P01 on PostgreSQL as in the model; with `FOR UPDATE`
/// both buy (tests/sql.rs).
#[test]
fn shared_locks_then_updates_deadlock_on_real_postgres() {
    let code = include_str!("pg/share_then_update.js");
    let schema = include_str!("pg/share_then_update.sql");
    let exclusive = code.replace("FOR SHARE", "FOR UPDATE");
    for code in [code, exclusive.as_str()] {
        let fragment = "v=1&scenario=script&users=2&clicks=1";
        let Some(report) = play_script(code, Some(schema), fragment, 2) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), 0, "{code}");
    }
}

/// A transfer's two UPDATEs in opposite orders under a double click: the
/// first to wait is the deadlock's victim when its check runs, 1 s after
/// its wait began; if its partner sleeps 1.5 s first, its check finds no
/// cycle yet, and the partner, which closes it, is the victim 1 s later.
/// Each call answers on PostgreSQL as in the model.
#[test]
fn a_deadlock_fails_the_same_click_on_real_postgres() {
    let code = include_str!("pg/transfer_deadlock.js");
    let schema = include_str!("pg/transfer_deadlock.sql");
    let late = code.replace("const PAUSE = 20;", "const PAUSE = 1500;");
    for (code, victim) in [(code, "40P01 0"), (late.as_str(), "40P01 1")] {
        let Some(report) = play_script(
            code,
            Some(schema),
            "v=1&scenario=script&users=1&clicks=2",
            1,
        ) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), 0, "{code}");
        assert_eq!(report.simulation["custom"][victim], 1.0, "{code}");
    }
}

/// Two queries in a `Promise.all` on one client go out one at a time, as
/// pg sends them (tests/sql.rs `a_client_sends_one_query_at_a_time`): each
/// click's SELECT reads the seats before its own UPDATE takes one (click
/// 1's reads 5, as click 0 has not committed yet, and its UPDATE waits for
/// click 0's row), on PostgreSQL as in the model, with writes faster than
/// reads.
#[test]
fn a_clients_queries_go_out_one_at_a_time_on_real_postgres() {
    let Some(report) = play_script(
        include_str!("pg/one_client.js"),
        Some(include_str!("pg/one_client.sql")),
        "v=1&scenario=script&users=1&clicks=2&db_write_latency=const:5ms",
        1,
    ) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
    let custom = &report.simulation["custom"];
    assert_eq!(
        (
            custom["before 5 after 4"].as_f64(),
            custom["before 5 after 3"].as_f64()
        ),
        (Some(1.0), Some(1.0)),
        "{custom}"
    );
}

/// A `numeric` column keeps its scale ("49.90"), as PostgreSQL's does: the
/// cache-aside example answers every call as PostgreSQL does.
#[test]
fn a_numeric_column_comes_back_with_its_scale_as_from_postgres() {
    let (code, schema) = (example("stampede_redis.js"), example("stampede_redis.sql"));
    let Some(report) = play_script(&code, Some(&schema), "v=1&scenario=script", 1) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
}

#[test]
fn the_cli_replays_a_script_and_refuses_a_bad_one() {
    if std::env::var(POSTGRES_ENV).map_or(true, |url| url.is_empty()) {
        eprintln!("skipping the real script CLI test: {POSTGRES_ENV} is not set");
        return;
    }
    let dir = format!("{}/examples/scripts", env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(["real", "--script", &format!("{dir}/ticket_pg.js")])
        .args(["--schema", &format!("{dir}/ticket_pg.sql")])
        .args(["v=1&scenario=script&users=1&clicks=2", "--trials", "2"])
        .output()
        .expect("the CLI runs");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(json["summary"]["status"], "agree");
    assert_eq!(json["trials"][1]["metrics"]["duplicate_tickets"], 1);
    // An example by name, from the fragment alone.
    let output = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args([
            "real",
            "v=1&scenario=script&example=ticket_pg_on_conflict&users=1&clicks=2",
        ])
        .output()
        .expect("the CLI runs");
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON object");
    assert_eq!(json["trials"][0]["metrics"]["orders"], 1);
    let bad = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(["real", "v=1&scenario=script&code=abc"])
        .output()
        .expect("the CLI runs");
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("bad script"),
        "{bad:?}"
    );
}

/// Soft delete under a partial unique index (`tests/pg/soft_delete.js`,
/// tests/sql.rs): every statement, the refused ones too (23505 naming the
/// index, 42P10 for an `ON CONFLICT` without the index's `WHERE`), is
/// answered on PostgreSQL as in the model.
#[test]
fn a_partial_unique_index_answers_as_on_real_postgres() {
    let Some(report) = play_script(
        include_str!("pg/soft_delete.js"),
        Some(include_str!("pg/soft_delete.sql")),
        "v=1&scenario=script&users=1&clicks=1",
        1,
    ) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
    let custom = &report.simulation["custom"];
    assert_eq!(custom["sign up again: 1"].as_f64(), Some(1.0), "{custom}");
    assert_eq!(
        custom["upsert without where: 42P10"].as_f64(),
        Some(1.0),
        "{custom}"
    );
}

/// BEGIN through `pool.query` (`pool_begin_pg.js`, tests/examples.rs):
/// each pool connection of the model is a real connection, so the real
/// PostgreSQL, played in the simulated order, also commits the declined
/// order's row and rolls back the confirmed one's; on a client of its
/// own, each order keeps its transaction there too.
#[test]
fn begin_through_pool_query_mixes_transactions_on_real_postgres() {
    let code = example("pool_begin_pg.js");
    let client = code
        .replace(
            "const order = ++placed;",
            "const order = ++placed;\n    const c = await pool.connect();",
        )
        .replace("await pool.query(", "await c.query(")
        .replace("count(`", "c.release();\n    count(`");
    for (code, rows) in [(&code, (0, 1)), (&client, (1, 0))] {
        let Some(report) = play_script(
            code,
            Some(&example("pool_begin_pg.sql")),
            "v=1&scenario=script&users=2&clicks=1",
            2,
        ) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), 0);
        let custom = &report.simulation["custom"];
        let confirmed = format!("confirmed, order rows: {}", rows.0);
        let declined = format!("declined, order rows: {}", rows.1);
        assert_eq!(custom[&confirmed].as_f64(), Some(1.0), "{custom}");
        assert_eq!(custom[&declined].as_f64(), Some(1.0), "{custom}");
    }
}

/// A failed `pool.query` closes its connection (pg-pool's `release(err)`):
/// PostgreSQL rolls back its transaction and ends its session, so the
/// session-level advisory lock it held goes with it, in the model as on
/// the real server (which the mirror closes too), and the next client
/// gets the lock (tests/sql.rs
/// `a_pool_query_runs_on_the_connection_released_last`).
#[test]
fn a_failed_pool_query_closes_its_connection_and_its_locks_on_real_postgres() {
    let code = r#"const { Pool } = require("pg");
const pool = new Pool();
module.exports.handle = async () => {
  await pool.query("SELECT pg_advisory_lock(7)");
  await pool.query("BEGIN");
  await pool.query("INSERT INTO t VALUES (1)");
  try { await pool.query("SELECT 1/0"); } catch (e) { count(e.code); }
  const other = await pool.connect();
  const { rows } = await other.query("SELECT pg_try_advisory_lock(7) AS got");
  count(`got: ${rows[0].got}`);
  const left = await other.query("SELECT count(*)::int AS n FROM t");
  count(`rows: ${left.rows[0].n}`);
  other.release();
};"#;
    let Some(report) = play_script(
        code,
        Some("CREATE TABLE t (id int PRIMARY KEY);"),
        "v=1&scenario=script&users=1&clicks=1",
        2,
    ) else {
        return;
    };
    assert_eq!(assert_script_agrees(&report), 0);
    let custom = &report.simulation["custom"];
    for name in ["22012", "got: true", "rows: 0"] {
        assert_eq!(custom[name].as_f64(), Some(1.0), "{custom}");
    }
}

/// `SET LOCAL lock_timeout` (`tests/pg/lock_timeout.js`, tests/sql.rs):
/// the second click's locking read is cancelled with 55P03 on PostgreSQL
/// as in the model, and the setting ends with its block; under a
/// `statement_timeout` instead, with 57014.
#[test]
fn a_lock_timeout_cancels_the_waiting_click_on_real_postgres() {
    let code = include_str!("pg/lock_timeout.js");
    let statement = code.replace(
        "SET LOCAL lock_timeout = '50ms'",
        "SET LOCAL statement_timeout = '50ms'",
    );
    for (code, error) in [
        (code, "55P03 canceling statement due to lock timeout"),
        (
            statement.as_str(),
            "57014 canceling statement due to statement timeout",
        ),
    ] {
        let Some(report) = play_script(
            code,
            Some(include_str!("pg/lock_timeout.sql")),
            "v=1&scenario=script&users=2&clicks=1",
            2,
        ) else {
            return;
        };
        assert_eq!(assert_script_agrees(&report), 0);
        let custom = &report.simulation["custom"];
        assert_eq!(custom[error].as_f64(), Some(1.0), "{custom}");
    }
}

/// A run that goes on past real mode's limit in the simulation (a retry
/// loop that never succeeds runs to its event budget, hours of simulated
/// time) is refused at once, before any server is asked, saying why.
#[test]
fn a_script_that_runs_past_the_real_time_limit_is_refused_at_once() {
    let code = r#"
        const Redis = require("ioredis");
        const redis = new Redis();
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        async function handle(req) {
          while (!(await redis.get("ready"))) await sleep(50);
        }
        module.exports = { handle };
    "#;
    let input = ScriptInput {
        code,
        schema: None,
        route: None,
        fragment: "v=1&scenario=script&users=1&clicks=1",
    };
    let error = real_script::run(&input, &RealOptions::default()).expect_err("refused");
    assert!(
        error.starts_with("the simulated run goes on past 30 s (at 30")
            && error.contains("1 request had not answered")
            && error.contains("a retry loop that gives up"),
        "{error}"
    );
}
