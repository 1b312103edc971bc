//! Issue 12: the race in words. Exact stories (requests, times, steps and
//! causes asserted) for the stories of DESIGN.md §1, the fix verified by
//! its own run, the minimal counterexample, and `interleave explain`.
#![cfg(not(target_arch = "wasm32"))]

use interleave::config::url::parse_fragment;
use interleave::debugger::Recording;
use interleave::explain::fix::shows;
use interleave::explain::{
    explain, explain_recording, narrate_step, Cause, Explanation, Moment, StoryKind,
};
use interleave::explore::Observation;
use interleave::run::replay;
use interleave::Config;
use proptest::prelude::*;

fn config(fragment: &str) -> Config {
    parse_fragment(fragment).unwrap_or_else(|e| panic!("{fragment}: {e}"))
}

fn explained(fragment: &str) -> Explanation {
    explain(&config(fragment))
}

fn at(request: u32, ms: u64, step: u32) -> Moment {
    Moment {
        request,
        time: ms * 1_000,
        step,
    }
}

fn observe(config: &Config) -> Option<Observation> {
    replay(config, false).ok().map(|sim| Observation::of(&sim))
}

#[test]
fn duplicate_under_none_is_the_issues_sentence() {
    let e = explained("v=1&scenario=ticket&strategy=none");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.kind, StoryKind::DuplicateTicket);
    assert_eq!(story.cause, Cause::NoLock);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.check, at(1, 20, 3));
    assert_eq!(story.act, at(1, 40, 5));
    assert_eq!(
        story.text,
        "#1 read 'no order' at 20 ms because #0's insert, sent at 20 ms, lands at 40 ms. \
         Both inserted. No lock guards the find and the insert: nothing makes #1 wait for #0."
    );
    assert_eq!(e.step, Some(5));
    assert_eq!(e.summary, "duplicate ticket at step 6 (40 ms): #0 and #1");
    assert_eq!(
        e.narration.as_deref(),
        Some(
            "At 40 ms, #1's db.insert(0, event) lands: an order is written; \
             #1 leaves the critical section; #1 returns after 40 ms."
        )
    );
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(
        (fix.key.as_str(), fix.value.as_str()),
        ("strategy", "keyed-mutex")
    );
    assert_eq!(fix.fragment, "v=1&scenario=ticket&strategy=keyed-mutex");
    assert_eq!(fix.metrics.duplicate_tickets, 0);
    assert_eq!(
        fix.text,
        "with `strategy=keyed-mutex` (a mutex in the server's memory): 0 duplicates, p99 60 ms (was 40 ms)"
    );
    // The fix's counters are those of running its fragment.
    let fixed = observe(&config(&fix.fragment)).unwrap();
    assert_eq!(fixed.metrics, fix.metrics);
    let minimal = e.minimal.as_ref().unwrap();
    assert_eq!(
        (minimal.users, minimal.clicks, minimal.preemptions),
        (1, 2, 0)
    );
    assert_eq!(minimal.fragment, "v=1&scenario=ticket&strategy=none");
}

#[test]
fn narration_of_a_check_step_speaks_the_code_pane() {
    let recording = Recording::of(&config("v=1&scenario=ticket&strategy=none")).unwrap();
    assert_eq!(
        narrate_step(&recording, 3),
        "At 20 ms, #1's db.findOrder(0, event) lands: no order yet; #1 sends db.insert(0, event)."
    );
    assert_eq!(narrate_step(&recording, 99), "");
}

#[test]
fn per_server_mutex_on_two_servers() {
    let fragment = "v=1&scenario=ticket&strategy=keyed-mutex&servers=2";
    let e = explained(fragment);
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.kind, StoryKind::DuplicateTicket);
    assert_eq!(story.cause, Cause::PerServerMutex);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.check, at(1, 20, 3));
    assert_eq!(story.act, at(1, 40, 5));
    assert!(story.text.starts_with(
        "#1 read 'no order' at 20 ms because #0's insert, sent at 20 ms, lands at 40 ms. Both inserted. \
         #0 holds server 0's mutex and #1 server 1's"
    ));
    let recording = Recording::of(&config(fragment)).unwrap();
    assert_eq!(
        narrate_step(&recording, 1),
        "At 0 ms, #1 arrives at server 1; #1 takes server 1's mutex on lock:user:0:event; \
         #1 enters the critical section; #1 sends db.findOrder(0, event)."
    );
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(
        fix.text,
        "with `strategy=add` (a lock in the shared cache): 0 duplicates, \
         p99 66 ms (was 40 ms), 4 lock wake-ups (was 0)"
    );
    assert_eq!(fix.fragment, "v=1&scenario=ticket&strategy=add&servers=2");
    let minimal = e.minimal.as_ref().unwrap();
    assert_eq!(minimal.servers, 2, "one server would exclude");
}

#[test]
fn forgotten_await_with_slow_writes() {
    let e = explained(
        "v=1&scenario=ticket&strategy=keyed-mutex&await_insert=false&db_write_latency=const:50ms",
    );
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.cause, Cause::ForgottenAwait);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.check, at(1, 40, 3));
    assert_eq!(story.act, at(1, 90, 5));
    assert_eq!(
        story.text,
        "#1 read 'no order' at 40 ms because #0's insert, sent at 20 ms, lands at 70 ms. Both inserted. \
         #0's db.insert is not awaited: #0 released the lock at 20 ms, before its insert landed, \
         and #1 entered at 20 ms."
    );
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(
        (fix.key.as_str(), fix.value.as_str()),
        ("await_insert", "true")
    );
    assert_eq!(fix.metrics.duplicate_tickets, 0);
}

#[test]
fn get_set_both_saw_no_lock() {
    let e = explained("v=1&scenario=ticket&strategy=get-set");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.cause, Cause::GetSetRace);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.check, at(1, 22, 7));
    assert_eq!(story.act, at(1, 42, 9));
    assert!(story.text.contains(
        "#0 and #1 both read 'no lock' (at 1 ms and 1 ms) before #0's cache.set of the lock \
         landed at 2 ms: get then set is not atomic"
    ));
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(
        fix.text,
        "with `strategy=add` (an atomic lock in the shared cache): 0 duplicates, \
         p99 66 ms (was 43 ms), 4 lock wake-ups (was 0)"
    );
}

#[test]
fn lease_expiry_with_a_pause() {
    let e = explained("v=1&scenario=ticket&strategy=add&lock_ttl=5ms&pause=0:30ms");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.kind, StoryKind::DuplicateTicket);
    assert_eq!(story.cause, Cause::LeaseExpired);
    // #1 inserted first (at 52 ms); #0, paused, read 'no order' at 51 ms.
    assert_eq!(story.requests, vec![1, 0]);
    assert_eq!(story.check, at(0, 51, 8));
    assert_eq!(story.act, at(0, 71, 11));
    assert_eq!(
        story.text,
        "#0 read 'no order' at 51 ms because #1's insert, sent at 32 ms, lands at 52 ms. Both inserted. \
         #0 took the lock at 1 ms with a lock_ttl of 5 ms; the lease expired at 6 ms while #0 was \
         paused for 30 ms, so #1 took the lock at 12 ms."
    );
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(
        fix.text,
        "with `fencing=true` (the DB refuses the write of a lock whose lease expired): \
         0 duplicates, 1 error, 1 fenced write, p99 72 ms (was 72 ms), 1 lock wake-ups"
    );
}

#[test]
fn fencing_rejection() {
    let e = explained("v=1&scenario=ticket&strategy=add&lock_ttl=5ms&pause=0:30ms&fencing=true");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.kind, StoryKind::TwoHolders);
    assert_eq!(story.cause, Cause::LeaseExpired);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.act, at(1, 12, 5));
    let fenced = &e.incidents[0];
    assert_eq!(fenced.kind, StoryKind::FencedWrite);
    assert_eq!(fenced.cause, Cause::LeaseExpired);
    assert_eq!(fenced.requests, vec![0, 1]);
    assert_eq!(fenced.act, at(0, 71, 11));
    assert_eq!(
        fenced.text,
        "#0's insert was refused at 71 ms: it carries fencing token 1, older than one the DB has \
         seen (#1 entered with token 2 at 12 ms). #0 took the lock at 1 ms with a lock_ttl of \
         5 ms; the lease expired at 6 ms while #0 was paused for 30 ms, so #1 took the lock at \
         12 ms. #0 fails instead of writing a second order."
    );
    let fix = e.fix.as_ref().unwrap();
    assert_eq!((fix.key.as_str(), fix.value.as_str()), ("lock_ttl", "70ms"));
    assert_eq!(fix.metrics.max_in_critical_section, 1);
}

#[test]
fn stampede_extra_reads() {
    let e = explained("v=1&scenario=stampede&strategy=none&requests=3");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.kind, StoryKind::ExtraDbRead);
    assert_eq!(story.cause, Cause::NoLock);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.check, at(1, 1, 4));
    assert_eq!(story.act, at(1, 1, 4));
    assert_eq!(
        story.text,
        "#0 loaded item:0 first: its db.select was sent at 1 ms and its cache.set lands at 22 ms. \
         #1 missed the cache at 1 ms while that load was in flight, and sent its own db.select at \
         1 ms. No lock guards the load: nothing makes #1 wait for #0."
    );
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(fix.key, "strategy");
    assert_eq!(
        fix.outcome,
        "0 extra DB reads, 1 DB read, p99 25 ms (was 22 ms)"
    );
    let minimal = e.minimal.as_ref().unwrap();
    assert_eq!(minimal.requests, 2);
    assert_eq!(
        minimal.fragment,
        "v=1&scenario=stampede&strategy=none&requests=2"
    );
}

#[test]
fn stampede_without_double_check_reloads() {
    let e = explained("v=1&scenario=stampede&strategy=keyed-mutex&double_check=false&requests=3");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.cause, Cause::NoDoubleCheck);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.act.time, 22_000);
    assert_eq!(e.fix.as_ref().unwrap().key, "double_check");
}

#[test]
fn timeouts_serving_stale() {
    let e = explained(
        "v=1&scenario=stampede&strategy=add&cache=warm&expire_at=1ms&grace=1s&wait_timeout=5ms&requests=3",
    );
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.kind, StoryKind::StaleAnswer);
    assert_eq!(story.cause, Cause::WaitTimeout);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.act, at(1, 13, 12));
    assert_eq!(
        story.text,
        "#1 gave up waiting for the lock of item:0 at 13 ms (wait_timeout 5 ms): #0 had held it \
         since 2 ms; #1 answered with the stale value of item:0."
    );
    assert_eq!(e.incidents.len(), 2);
    assert_eq!(e.incidents[1].requests, vec![0, 2]);
    // Joining the running load answers sooner (p99 22 ms) than waiting
    // longer for the lock (48 ms, and more polls): offered first.
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(
        (fix.key.as_str(), fix.value.as_str()),
        ("strategy", "single-flight")
    );
    assert_eq!(fix.metrics.stale_served, 0);
    let longer = fixed_by(&e, "wait_timeout", "1s");
    assert_eq!(longer.metrics.stale_served, 0);
    assert_eq!(longer.metrics.latency_us.p99, 48_000);
}

/// The other fix of `e` that changes `key` to `value`.
fn fixed_by<'e>(
    e: &'e interleave::explain::Explanation,
    key: &str,
    value: &str,
) -> &'e interleave::explain::Fix {
    e.other_fixes
        .iter()
        .find(|fix| fix.key == key && fix.value == value)
        .unwrap_or_else(|| panic!("no other fix {key}={value} in {:?}", e.other_fixes))
}

#[test]
fn crashed_holder_times_the_waiter_out() {
    let e = explained("v=1&scenario=ticket&strategy=add&crash=0&wait_timeout=50ms");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.kind, StoryKind::Timeout);
    assert_eq!(story.cause, Cause::CrashedHolder);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(story.act, at(1, 56, 13));
    let fix = e.fix.as_ref().unwrap();
    assert_eq!((fix.key.as_str(), fix.value.as_str()), ("lock_ttl", "25ms"));
    assert_eq!(fix.metrics.timeouts, 0);
}

#[test]
fn a_clean_run_says_so() {
    let e = explained("v=1&scenario=ticket&strategy=keyed-mutex");
    assert!(e.story.is_none() && e.fix.is_none() && e.minimal.is_none());
    assert_eq!(
        e.summary,
        "no duplicate in this run; explore to search every interleaving"
    );
}

#[test]
fn every_violation_of_the_recording_has_its_story() {
    let recording =
        Recording::of(&config("v=1&scenario=stampede&strategy=none&requests=4")).unwrap();
    let stories = interleave::explain::stories(&recording);
    assert_eq!(stories.len(), recording.violations.len());
    let reads: Vec<_> = stories
        .iter()
        .filter(|s| s.kind == StoryKind::ExtraDbRead)
        .collect();
    let later: Vec<u32> = reads.iter().map(|s| s.act.request).collect();
    assert_eq!(later, vec![1, 2, 3]);
    // Each later loader is told about the load just before its own.
    let first: Vec<u32> = reads.iter().map(|s| s.requests[0]).collect();
    assert_eq!(first, vec![0, 1, 2]);
    assert!(stories
        .iter()
        .any(|s| s.kind == StoryKind::TwoHolders && s.cause == Cause::NoLock));
}

fn cli(args: &[&str]) -> (Result<(), u8>, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let result = interleave::cli::main(&args, &mut out).map_err(|e| e.exit_code());
    (result, String::from_utf8(out).unwrap())
}

#[test]
fn cli_explains_in_text_and_json() {
    let (result, text) = cli(&["explain", "v=1&scenario=ticket&strategy=none"]);
    assert_eq!(result, Ok(()));
    assert!(text.starts_with("duplicate ticket at step 6 (40 ms): #0 and #1\n"));
    assert!(text.contains("why: #1 read 'no order' at 20 ms because #0's insert"));
    assert!(text.contains("fix: with `strategy=keyed-mutex`"));
    assert!(text.contains("minimal: 1 user, 2 clicks, 1 server, 0 preemptions"));

    let (result, json) = cli(&["explain", "--json", "v=1&scenario=ticket&strategy=none"]);
    assert_eq!(result, Ok(()));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["story"]["requests"], serde_json::json!([0, 1]));
    assert_eq!(value["story"]["kind"], "duplicate-ticket");
    assert_eq!(value["story"]["check"]["time"], 20_000);
    assert_eq!(value["fix"]["metrics"]["duplicate_tickets"], 0);
    assert_eq!(value["step"], 5);

    let (result, text) = cli(&["explain", "v=1&scenario=ticket&strategy=keyed-mutex"]);
    assert_eq!(result, Ok(()));
    assert_eq!(
        text,
        "no duplicate in this run; explore to search every interleaving\n"
    );
    assert_eq!(cli(&["explain", "v=1&scenario=nope"]).0, Err(2));
    assert_eq!(
        cli(&["explain", "v=1&scenario=ticket&schedule=9"]).0,
        Err(2)
    );
}

#[test]
fn explain_is_cheap_on_small_runs() {
    let config = config("v=1&scenario=stampede&strategy=none&requests=50");
    let start = std::time::Instant::now();
    let e = explain(&config);
    let took = start.elapsed();
    assert!(e.minimal.is_some());
    // 50 ms in release on the page; debug test builds are ~10x slower.
    assert!(took.as_millis() < 2_000, "explain took {took:?}");
}

/// A small config, maybe with a schedule of a few choices.
fn small_config() -> impl Strategy<Value = Config> {
    let ticket = (
        prop::sample::select(vec!["none", "get-set", "add", "keyed-mutex"]),
        1u32..=2,
        1u32..=3,
        1u32..=2,
        prop::collection::vec(0u32..=2, 0..5),
    )
        .prop_map(|(strategy, users, clicks, servers, choices)| {
            let mut c = config(&format!(
                "v=1&scenario=ticket&strategy={strategy}&users={users}&clicks={clicks}&servers={servers}"
            ));
            c.schedule = interleave::config::Schedule::new(choices);
            c
        });
    let stampede = (
        prop::sample::select(vec![
            "none",
            "keyed-mutex&double_check=false",
            "single-flight",
        ]),
        1u32..=4,
        1u32..=2,
        prop::collection::vec(0u32..=2, 0..5),
    )
        .prop_map(|(strategy, requests, servers, choices)| {
            let mut c = config(&format!(
                "v=1&scenario=stampede&strategy={strategy}&requests={requests}&servers={servers}"
            ));
            c.schedule = interleave::config::Schedule::new(choices);
            c
        });
    prop_oneof![ticket, stampede]
}

/// One user, click or request fewer, or one preemption fewer.
fn one_smaller(config: &Config) -> Vec<Config> {
    let mut out = Vec::new();
    let ticket = config.scenario == interleave::config::ScenarioKind::Ticket;
    if ticket && config.users > 1 {
        out.push(Config {
            users: config.users - 1,
            ..config.clone()
        });
    }
    if ticket && config.clicks > 1 {
        out.push(Config {
            clicks: config.clicks - 1,
            ..config.clone()
        });
    }
    if !ticket && config.requests > 1 {
        out.push(Config {
            requests: config.requests - 1,
            ..config.clone()
        });
    }
    for (i, &choice) in config.schedule.choices().iter().enumerate() {
        if choice != 0 {
            let mut choices = config.schedule.choices().to_vec();
            choices[i] = 0;
            out.push(Config {
                schedule: interleave::config::Schedule::new(choices),
                ..config.clone()
            });
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_minimal_counterexample_is_minimal(config in small_config()) {
        let recording = Recording::of(&config);
        prop_assume!(recording.is_ok());
        let e = explain_recording(&recording.unwrap());
        let Some(story) = e.story else { return Ok(()); };
        prop_assume!(story.kind.is_violation());
        let minimal = e.minimal.expect("a violating run has a minimal counterexample");
        prop_assert!(minimal.locally_minimal);
        let small = parse_fragment(&minimal.fragment).unwrap();
        let seen = observe(&small).expect("the minimal counterexample replays");
        prop_assert!(shows(story.kind, &seen), "{} does not violate", minimal.fragment);
        for smaller in one_smaller(&small) {
            let still = observe(&smaller).is_some_and(|seen| shows(story.kind, &seen));
            prop_assert!(!still, "{} is smaller and still violates", interleave::config::url::to_fragment(&smaller));
        }
    }
}

#[test]
fn in_process_locks_are_per_server() {
    for strategy in ["emitter-lock", "ticket-lock"] {
        let e = explained(&format!(
            "v=1&scenario=ticket&strategy={strategy}&servers=2"
        ));
        let story = e.story.as_ref().unwrap();
        assert_eq!(story.cause, Cause::PerServerMutex, "{strategy}");
        assert_eq!(story.requests, vec![0, 1]);
        assert_eq!(story.check, at(1, 20, 3));
        assert!(story.text.contains("#0 holds server 0's"), "{}", story.text);
        assert_eq!(
            e.fix.as_ref().unwrap().fragment,
            "v=1&scenario=ticket&strategy=add&servers=2"
        );
    }
    let e = explained("v=1&scenario=stampede&strategy=single-flight&requests=4&servers=2");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.cause, Cause::PerServerMutex);
    assert!(story
        .text
        .contains("#0 runs on server 0 and #1 on server 1"));
}

#[test]
fn ticket_lock_lease_runs_out_at_a_tick() {
    let e = explained("v=1&scenario=ticket&strategy=ticket-lock&lock_ttl=5ms&pause=0:30ms");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.cause, Cause::LeaseExpired);
    assert_eq!(story.requests, vec![1, 0]);
    assert_eq!(story.check.request, 0);
    assert_eq!(story.check.time, 50_000);
    assert!(story.text.contains(
        "#0's lease on ticket 0 (lock_ttl 5 ms) ran out while #0 was paused for 30 ms: at the \
         tick of 10 ms the next ticket was served, so #1 entered."
    ));
    assert_eq!(e.fix.as_ref().unwrap().key, "fencing");
}

#[test]
fn stampede_lease_shorter_than_the_load() {
    let e = explained("v=1&scenario=stampede&strategy=add&lock_ttl=5ms&requests=3");
    let story = e.story.as_ref().unwrap();
    assert_eq!(story.cause, Cause::LeaseExpired);
    assert_eq!(story.requests, vec![0, 1]);
    assert_eq!(
        story.act,
        Moment {
            request: 1,
            time: 14_000,
            step: story.act.step
        }
    );
    // A longer lease fixes it too, but polls longer (p99 48 ms) than an
    // in-process mutex on this one server (25 ms), offered first.
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(
        (fix.key.as_str(), fix.value.as_str()),
        ("strategy", "keyed-mutex")
    );
    assert_eq!(fix.metrics.latency_us.p99, 25_000);
    let longer = fixed_by(&e, "lock_ttl", "10s");
    assert_eq!(longer.metrics.max_in_critical_section, 1);
    assert_eq!(longer.metrics.latency_us.p99, 48_000);
}

/// Two fixes remove get-set's extra reads: `add` polls the shared cache
/// (p99 565 ms, 1,323 wake-ups) where single-flight joins the running load
/// (22 ms). The cheaper is offered first, and each says what it costs.
#[test]
fn the_cheaper_fix_comes_first_with_its_cost() {
    let e = explained("v=1&scenario=stampede&strategy=get-set&requests=50");
    let fix = e.fix.as_ref().unwrap();
    assert_eq!(
        (fix.key.as_str(), fix.value.as_str()),
        ("strategy", "single-flight")
    );
    assert_eq!(
        fix.outcome,
        "0 extra DB reads, 1 DB read, p99 22 ms (was 26 ms)"
    );
    let add = fixed_by(&e, "strategy", "add");
    assert_eq!(
        add.outcome,
        "0 extra DB reads, 1 DB read, p99 565 ms (was 26 ms), 1323 lock wake-ups (was 0)"
    );
    // The others, cheapest first: keyed-mutex (72 ms) before add.
    let order: Vec<&str> = e.other_fixes.iter().map(|fix| fix.value.as_str()).collect();
    assert_eq!(order, ["keyed-mutex", "add"]);
    assert!(e.to_text().contains("other fix: with `strategy=add`"));
}

#[test]
fn an_explored_counterexample_opens_in_its_minimal_form() {
    use interleave::explore::{Check, ExploreOptions, Explorer};
    // Explore finds a duplicate for 2 users x 2 clicks; the smallest case
    // that keeps it is 1 user with 2 clicks.
    let config = parse_fragment("v=1&scenario=ticket&strategy=none&users=2&clicks=2").unwrap();
    let checks = vec![Check::Duplicates];
    let found = Explorer::new(&config, ExploreOptions::new(checks.clone()))
        .run()
        .counterexample
        .expect("none duplicates");
    let explored = parse_fragment(&found.fragment).unwrap();
    let (minimal, step) =
        interleave::explain::minimal_of_counterexample(&explored, &checks).unwrap();
    assert_eq!((minimal.users, minimal.clicks, minimal.servers), (1, 2, 1));
    assert_eq!(
        interleave::explore::first_violation_step(
            interleave::run::ScheduledSim::story_metrics_only(&minimal),
            &checks
        ),
        Some(step)
    );
    let mut sim = interleave::run::ScheduledSim::story_metrics_only(&minimal);
    while !sim.run_for(1_000).unwrap() {}
    assert!(sim.metrics().duplicate_tickets > 0);
}
