//! The debugger on scripts (`debugger::program`): a script's recording,
//! stepping, cursors, compare table and explorer, as for a story.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use std::rc::Rc;

use interleave::config::StrategyKind;
use interleave::debugger::program::parse_lenient;
use interleave::debugger::timeline::SpanKind;
use interleave::debugger::{Compare, Program, Recording, RequestState, SearchJob, Session};
use interleave::explore::{Check, ExploreOptions};
use interleave::script::cli::run_to_json;
use interleave::sim::Outcome;

fn open(fragment: &str) -> (interleave::Config, Program) {
    let (config, program, errors) = parse_lenient(fragment);
    assert!(errors.is_empty(), "{errors:?}");
    (config, program)
}

fn cli_metrics(fragment: &str) -> serde_json::Value {
    let mut json: serde_json::Value = serde_json::from_str(&run_to_json("", fragment)).unwrap();
    let fields = json.as_object_mut().unwrap();
    fields.remove("custom");
    fields.remove("error_messages");
    json
}

#[test]
fn a_recorded_script_has_the_clis_metrics_and_steps_back_exactly() {
    for fragment in [
        "#v=1&scenario=script&example=ticket&users=2",
        "#v=1&scenario=script&example=stampede&users=30&clicks=1&strategy=keyed-mutex",
        "#v=1&scenario=script&example=emitter_lock&users=3&clicks=1",
    ] {
        let (config, program) = open(fragment);
        let recording = Rc::new(Recording::of_program(&program, &config).unwrap());
        assert_eq!(
            serde_json::to_value(&recording.metrics).unwrap(),
            cli_metrics(fragment),
            "{fragment}"
        );
        let mut session = Session::of(recording.clone()).unwrap();
        session.run_for(u32::MAX);
        assert_eq!(session.metrics(), recording.metrics, "{fragment}");
        assert_eq!(session.position(), recording.steps);
        session.seek(3);
        let at_three = session.metrics();
        session.step();
        session.back();
        assert_eq!((session.position(), session.metrics()), (3, at_three));
    }
}

#[test]
fn cursors_sit_on_the_scripts_own_lines() {
    let (config, program) = open("#v=1&scenario=script&example=ticket&users=1&clicks=2");
    let Program::Script(script) = &program else {
        panic!("a script");
    };
    let recording = Rc::new(Recording::of_program(&program, &config).unwrap());
    let listing = program.listing(&config);
    let mut session = Session::of(recording).unwrap();
    session.seek(2);
    let cursors = session.cursors(&listing);
    assert!(!cursors.is_empty());
    let lines: Vec<&str> = script.code.lines().collect();
    for cursor in &cursors {
        let text = lines[cursor.line - 1];
        assert!(text.contains("await"), "line {}: {text}", cursor.line);
    }
    // Each waiting request awaits the findOne of participate.
    let find = lines.iter().position(|l| l.contains("db.findOne")).unwrap() + 1;
    assert_eq!(cursors[0].line, find);
    assert!(matches!(
        session.request_states()[0],
        RequestState::Awaiting(_, Some(_))
    ));
}

#[test]
fn the_compare_table_and_the_explorer_run_the_script() {
    let (config, program) = open("#v=1&scenario=script&example=ticket&users=1&clicks=2");
    let mut compare = Compare::of_program(&program, &config);
    while !compare.advance(10_000) {}
    assert_eq!(compare.rows.len(), StrategyKind::ALL.len());
    let none = &compare.rows[0];
    assert_eq!(
        (none.strategy, none.metrics.duplicate_tickets),
        (StrategyKind::None, 1)
    );
    let mut job = SearchJob::one(
        &program,
        &config,
        ExploreOptions::new(vec![Check::Duplicates]),
    );
    while !job.advance(1_000) {}
    let result = job.result().expect("one search");
    assert!(result.violating > 0);
    let example = result.counterexample.as_ref().expect("a counterexample");
    assert!(
        example.fragment.contains("scenario=script&example=ticket"),
        "{}",
        example.fragment
    );
}

#[test]
fn a_script_that_does_not_load_is_an_error_with_its_line() {
    let (config, _) = open("#v=1&scenario=script&example=ticket");
    let program = interleave::debugger::program::edited_script(
        "async function handle(req) {\n  const = 1;\n}\n",
        None,
        None,
    );
    let message = program.start(&config, false).err().expect("a syntax error");
    assert_eq!(
        interleave::debugger::program::error_position(&message).map(|p| p.0),
        Some(2),
        "{message}"
    );
}

#[test]
fn manual_mode_schedules_a_script_and_its_link_replays() {
    use interleave::explore::Session as Manual;
    let (config, program) = open("#v=1&scenario=script&example=ticket&users=1&clicks=2");
    let subject = program.subject(&config).unwrap();
    let mut manual = Manual::of(subject, &config.schedule, vec![]).unwrap();
    assert_eq!(manual.goal(), "make a user get two tickets");
    assert!(manual.enabled().len() > 1, "rests at a choice point");
    assert!(manual
        .enabled()
        .iter()
        .all(|choice| !choice.label.is_empty()));
    // The last enabled event first, each time, until the goal or the end.
    while !manual.won() && !manual.is_done() {
        let last = manual.enabled().len() - 1;
        assert!(manual.choose(last));
    }
    let link = manual.fragment();
    assert!(link.contains("scenario=script&example=ticket"), "{link}");
    let (replayed_config, replayed_program) = open(&link);
    let recording = Recording::of_program(&replayed_program, &replayed_config).unwrap();
    assert_eq!(recording.metrics.trace_hash, manual.trace_hash(), "{link}");
    assert_eq!(manual.won(), recording.metrics.duplicate_tickets > 0);
    while manual.undo() {}
    assert!(manual.schedule().is_empty());
}

/// A script's violations: two holders of one critical section (from the
/// trace), and each duplicate row (from its tables' expected uniqueness:
/// its DB keys are its tables, so rows per key say nothing).
#[test]
fn a_scripts_violations_are_its_critical_sections() {
    use interleave::debugger::ViolationKind;
    let (config, program) = open("#v=1&scenario=script&example=mutex_map&users=2&clicks=2");
    let recording = Recording::of_program(&program, &config).unwrap();
    assert_eq!(recording.metrics.duplicate_tickets, 0);
    assert!(
        recording.violations.is_empty(),
        "{:?}",
        recording.violations
    );
    let (config, program) = open("#v=1&scenario=script&example=ticket&strategy=get-set");
    let recording = Recording::of_program(&program, &config).unwrap();
    assert!(recording.metrics.max_in_critical_section > 1);
    assert!(!recording.violations.is_empty());
    // Two holders from the trace, duplicate rows from the data: one
    // violation per row beyond the first.
    let duplicates = recording
        .violations
        .iter()
        .filter(|v| v.kind == ViolationKind::DuplicateRow)
        .count() as u64;
    assert_eq!(duplicates, recording.metrics.duplicate_tickets);
    assert!(recording.violations.iter().all(|v| matches!(
        v.kind,
        ViolationKind::SecondHolder | ViolationKind::DuplicateRow
    )));
}

/// A harmed script's fix is a strategy, found by running the same script.
#[test]
fn a_harmed_scripts_fix_is_a_strategy_that_clears_the_harm() {
    use interleave::explain::script_fix;
    let (config, program) = open("#v=1&scenario=script&example=ticket&users=2&clicks=2");
    let recording = Recording::of_program(&program, &config).unwrap();
    assert!(recording.metrics.duplicate_tickets > 0);
    let fix = script_fix(&program, &config, &recording.metrics).expect("a fix");
    assert_eq!(
        (fix.key.as_str(), fix.value.as_str()),
        ("strategy", "keyed-mutex")
    );
    assert_eq!(fix.metrics.duplicate_tickets, 0);
    assert!(
        fix.fragment.contains("scenario=script&example=ticket"),
        "{}",
        fix.fragment
    );
    let (config, program) = open("#v=1&scenario=script&example=mutex_map&users=2&clicks=2");
    let recording = Recording::of_program(&program, &config).unwrap();
    assert_eq!(
        script_fix(&program, &config, &recording.metrics),
        None,
        "no harm, no fix"
    );
}

/// What happened, on a script: its story and its fix speak of its `guard`
/// and of the harm its run had, not of a built-in story's find and insert
/// or of duplicate rows it cannot have.
#[test]
fn a_scripts_story_and_fix_speak_of_its_own_harm() {
    use interleave::explain::{script_fix, story};
    let (config, program) = open("#v=1&scenario=script&example=stampede&users=20&clicks=1");
    let recording = Recording::of_program(&program, &config).unwrap();
    let violation = recording.first_violation().expect("two holders");
    let story = story(&recording, violation).expect("a story");
    assert!(
        story.text.ends_with(
            "With `strategy=none`, `guard` takes no lock: nothing makes #1 wait for #0."
        ),
        "{}",
        story.text
    );
    let fix = script_fix(&program, &config, &recording.metrics).expect("a fix");
    assert_eq!(
        fix.outcome,
        "at most 1 in the critical section (was 20), 1 DB read (was 20), 0 errors, \
         p99 42 ms (was 22 ms)"
    );
    let (config, program) = open("#v=1&scenario=script&example=ticket&users=2&clicks=2");
    let recording = Recording::of_program(&program, &config).unwrap();
    let fix = script_fix(&program, &config, &recording.metrics).expect("a fix");
    assert!(
        fix.outcome
            .starts_with("0 duplicate rows (was 2), at most 1 in the critical section"),
        "{}",
        fix.outcome
    );
}

/// A race in code that declares no critical section is found from the
/// data: the write that made a duplicate row is a violation ("first
/// violation" reaches it, the timeline marks it), and "What happened" tells
/// it in the script's own lines.
#[test]
fn a_duplicate_row_is_a_violation_told_in_the_scripts_lines() {
    use interleave::explain::story;
    use interleave::script::source::encode;
    let code = "const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const { rows } = await pool.query('SELECT id FROM orders WHERE user_id = $1', [req.user]);
  if (rows.length === 0) {
    await pool.query('INSERT INTO orders (user_id) VALUES ($1)', [req.user]);
  }
}
";
    let schema = "CREATE TABLE orders (id serial PRIMARY KEY, user_id int);
-- expect unique: orders (user_id)
";
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&schema={}&users=1&clicks=2",
        encode(code),
        encode(schema)
    ));
    let recording = Recording::of_program(&program, &config).unwrap();
    assert_eq!(recording.metrics.duplicate_tickets, 1);
    let violation = recording.first_violation().expect("the duplicate row");
    assert_eq!((violation.request, violation.time), (1, 40_000));
    let story = story(&recording, violation).expect("a story");
    assert_eq!(
        story.text,
        "#1 read orders (line 4) at 20 ms and found nothing; #0's row (line 6) landed at 40 ms, \
         after that read. #1 wrote (line 6) at 40 ms: a second row where the code expects one \
         (nothing made the read and the write one step)."
    );
}

/// A lost update is found from the data too: two reads of a key before
/// two writes of it. The second write is the violation, told in the
/// script's lines; `INCR` (one step) has none.
#[test]
fn a_lost_update_is_a_violation_told_in_the_scripts_lines() {
    use interleave::debugger::ViolationKind;
    use interleave::explain::story;
    use interleave::script::source::encode;
    let code = "const Redis = require('ioredis');
const redis = new Redis();
async function handle(req) {
  const visits = Number(await redis.get('visits')) || 0;
  await redis.set('visits', visits + 1);
}
";
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&users=1&clicks=2",
        encode(code)
    ));
    let recording = Recording::of_program(&program, &config).unwrap();
    let lost: Vec<_> = recording
        .violations
        .iter()
        .filter(|v| matches!(v.kind, ViolationKind::LostUpdate { .. }))
        .collect();
    assert_eq!(lost.len(), 1, "{:?}", recording.violations);
    let violation = recording.first_violation().expect("the lost update");
    assert_eq!(
        (violation.kind, violation.request),
        (ViolationKind::LostUpdate { in_place: false }, 1)
    );
    let story = story(&recording, violation).expect("a story");
    assert_eq!(
        story.text,
        "#1 read visits (line 4) at 1 ms; #0 wrote it (line 5) at 2 ms; #1 wrote it (line 5) at \
         2 ms from what it had read, so #0's update is lost (the read and the write are two \
         steps, and nothing keeps others out between them)."
    );
    let atomic = code.replace(
        "const visits = Number(await redis.get('visits')) || 0;\n  await redis.set('visits', visits + 1);",
        "await redis.incr('visits');",
    );
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&users=1&clicks=2",
        encode(&atomic)
    ));
    let recording = Recording::of_program(&program, &config).unwrap();
    assert!(
        recording.violations.is_empty(),
        "{:?}",
        recording.violations
    );
}

/// A count checked after a read, then changed in place (`db.findOne`,
/// then an `$inc` under a cap) keeps every request's change: what the
/// later request lost is the read it acted on, and the story says so; it
/// never calls the other's update lost. A view counter that counts
/// whatever it read acted on nothing.
#[test]
fn a_change_in_place_after_a_stale_read_is_told_as_a_change_not_a_lost_write() {
    use interleave::debugger::ViolationKind;
    use interleave::explain::story;
    use interleave::script::source::encode;
    let code = "db.table(\"pages\", { rows: [{ id: 1, title: \"Home\", views: 0 }] });
async function handle(req) {
  const page = await db.findOne(\"pages\", { id: 1 });
  if (page.views < 1000) await db.update(\"pages\", { id: 1 }, { views: { $inc: 1 } });
  return page.title;
}
";
    let record = |code: &str| {
        let (config, program) = open(&format!(
            "#v=1&scenario=script&code={}&users=2&clicks=1",
            encode(code)
        ));
        Recording::of_program(&program, &config).unwrap()
    };
    // A view counter that counts whatever it read decided nothing on it
    // (the field its update names is not a use of it).
    let counter = code.replace("if (page.views < 1000) ", "");
    assert_ne!(counter, code);
    assert!(record(&counter).violations.is_empty());
    let recording = record(code);
    let violation = recording.first_violation().expect("the stale change");
    assert_eq!(
        (violation.kind, violation.request),
        (ViolationKind::LostUpdate { in_place: true }, 1)
    );
    let story = story(&recording, violation).expect("a story");
    assert_eq!(
        story.text,
        "#1 read pages (line 3) at 20 ms; #0 changed it (line 4) at 40 ms; #1 changed it (line \
         4) at 40 ms on what it had read, which missed #0's change (the check and the write are \
         two steps, and nothing keeps others out between them)."
    );
}

/// A lost update through MULTI/EXEC, watched on the one client every
/// request shares: the story says why the WATCH did not stop it (the first
/// EXEC ended the connection's watches). With a connection per request
/// (`duplicate()`) the second EXEC aborts and nothing is lost.
#[test]
fn a_watch_on_a_shared_connection_is_told_as_what_let_the_update_be_lost() {
    use interleave::debugger::ViolationKind;
    use interleave::explain::story;
    use interleave::script::source::encode;
    let code = "import Redis from 'ioredis';
const redis = new Redis();
export async function handle(req) {
  await redis.watch('stock');
  const stock = Number(await redis.get('stock')) || 10;
  await redis.multi().set('stock', stock - 1).exec();
}
";
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&users=1&clicks=2",
        encode(code)
    ));
    let recording = Recording::of_program(&program, &config).unwrap();
    let violation = recording.first_violation().expect("the lost update");
    assert_eq!(
        (violation.kind, violation.request),
        (ViolationKind::LostUpdate { in_place: false }, 1)
    );
    let story = story(&recording, violation).expect("a story");
    assert_eq!(
        story.text,
        "#1 read stock (line 5) at 2 ms; #0 wrote it (line 6) at 3 ms; #1 wrote it (line 6) at \
         3 ms from what it had read, so #0's update is lost (the read and the write are two \
         steps, and nothing keeps others out between them). #1's WATCH did not stop it: a watch \
         belongs to the client's connection, which every request on its server shares, and #0's \
         EXEC at 3 ms ended it (duplicate() gives each request a connection of its own)."
    );
    let own = code.replace(
        "  await redis.watch('stock');",
        "  const conn = redis.duplicate();\n  await conn.watch('stock');",
    );
    let own = own
        .replace("await redis.get(", "await conn.get(")
        .replace("await redis.multi(", "await conn.multi(");
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&users=1&clicks=2",
        encode(&own)
    ));
    let recording = Recording::of_program(&program, &config).unwrap();
    assert!(
        recording.violations.is_empty(),
        "{:?}",
        recording.violations
    );
}

/// A hash's fields are lost one by one: a field read, then written from
/// that read after another request wrote it, is a lost update; HINCRBY
/// (one step) is not, nor are writes of two different fields.
#[test]
fn a_hash_fields_update_is_lost_between_hget_and_hset() {
    use interleave::debugger::ViolationKind;
    use interleave::script::source::encode;
    let racy = r#"import Redis from "ioredis";
const redis = new Redis();
export async function handle(req) {
  const n = Number(await redis.hget("cart:1", "apples")) || 0;
  await redis.hset("cart:1", "apples", n + 1);
}
"#;
    let lost = |code: &str| {
        let (config, program) = open(&format!(
            "#v=1&scenario=script&code={}&users=1&clicks=2",
            encode(code)
        ));
        let recording = Recording::of_program(&program, &config).unwrap();
        recording
            .violations
            .iter()
            .filter(|v| matches!(v.kind, ViolationKind::LostUpdate { .. }))
            .count()
    };
    assert_eq!(lost(racy), 1);
    assert_eq!(
        lost(&racy.replace(
            "  const n = Number(await redis.hget(\"cart:1\", \"apples\")) || 0;\n  await redis.hset(\"cart:1\", \"apples\", n + 1);",
            "  await redis.hincrby(\"cart:1\", \"apples\", 1);"
        )),
        0
    );
    let fields = racy
        .replace(
            "redis.hget(\"cart:1\", \"apples\")",
            "redis.hget(\"cart:1\", `f${req.id}`)",
        )
        .replace(
            "redis.hset(\"cart:1\", \"apples\",",
            "redis.hset(\"cart:1\", `f${req.id}`,",
        );
    assert_eq!(lost(&fields), 0);
}

/// A sorted set or a list is one value: a request that read it whole
/// (`ZCARD`, `LRANGE`) and then changed it after another request had
/// changed it acted on a stale read, as the sliding-window rate limiter's
/// check does. A change with no read before it (a `ZREMRANGEBYSCORE`, a
/// push) loses nothing, nor do changes sent as one `MULTI`.
#[test]
fn a_sliding_windows_check_is_lost_between_zcard_and_zadd() {
    use interleave::explain::story;
    use interleave::script::source::encode;
    use interleave::sim::trace::{OpKind, Outcome};
    use interleave::sim::What;
    let record = |code: &str, clicks: u32| record_script(code, &format!("&clicks={clicks}"));
    let lost = lost_requests;
    let sliding = include_str!("../examples/scripts/rate_limiter_sliding.js");
    // Five clicks at once: each empties nothing (ZREMRANGEBYSCORE),
    // counts 0 at 2 ms, then adds at 3 ms. #0's add is the first change;
    // #1 to #4 each add from a count that missed it.
    let racy = record(sliding, 5);
    assert_eq!(lost(&racy), vec![1, 2, 3, 4]);
    // A trim that removed nothing changed nothing: it is no one's update.
    let writes: Vec<Outcome> = racy
        .events
        .iter()
        .filter(|e| e.what == What::Complete(OpKind::CacheZsetWrite))
        .map(|e| e.outcome)
        .collect();
    assert_eq!(
        writes,
        [[Outcome::Unchanged; 5], [Outcome::Stored; 5]].concat()
    );
    let violation = racy.first_violation().expect("the lost update");
    let told = story(&racy, violation).expect("a story");
    assert_eq!(
        told.text,
        "#1 read rate:0 (line 18) at 2 ms; #0 changed it (line 23) at 3 ms; #1 changed it \
         (line 23) at 3 ms on what it had read, which missed #0's change (the check and the \
         write are two steps, and nothing keeps others out between them)."
    );
    // The fix puts the check and the add under a Redis lock: two clicks
    // are refused by the limiter's own throw, which is the point.
    refused_under_a_redis_lock(&racy, "    const used = await redis.zcard(key);");
    // 100 ms apart, each count sees the adds before it: nothing lost.
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&users=1&clicks=5&click_gap=100ms",
        encode(sliding)
    ));
    let spaced = Recording::of_program(&program, &config).unwrap();
    assert_eq!(lost(&spaced), Vec::<u32>::new());
    // The documented fix: the three commands in one MULTI.
    let multi = sliding.replace(
        r#"  await redis.zremrangebyscore(key, "-inf", `(${now - WINDOW_MS}`);
  const used = await redis.zcard(key);
  if (used >= LIMIT) {
    count("limited");
    throw new Error("429 Too Many Requests");
  }
  await redis.zadd(key, now, `${now}:${req.id}`);"#,
        r#"  const [, , [, used]] = await redis
    .multi()
    .zremrangebyscore(key, "-inf", `(${now - WINDOW_MS}`)
    .zadd(key, now, `${now}:${req.id}`)
    .zcard(key)
    .exec();
  if (used > LIMIT) {
    count("limited");
    throw new Error("429 Too Many Requests");
  }"#,
    );
    assert_ne!(multi, sliding);
    let atomic = record(&multi, 5);
    assert_eq!((lost(&atomic), atomic.metrics.errors), (Vec::new(), 2));
    // Changes with no read: a log trimmed and pushed, a queue.
    let blind = r#"const Redis = require("ioredis");
const redis = new Redis();
async function handle(req) {
  await redis.zremrangebyscore("log", "-inf", 0);
  await redis.zadd("log", req.id, `e${req.id}`);
  await redis.lpush("jobs", req.id);
  await redis.rpop("jobs");
}
"#;
    assert_eq!(lost(&record(blind, 3)), Vec::<u32>::new());
    // A list read whole, then pushed to: the same check-then-act. All
    // three count an empty list; #0 pushes first, and the other two push
    // from their stale count.
    let list = r#"const Redis = require("ioredis");
const redis = new Redis();
async function handle(req) {
  if ((await redis.llen("jobs")) < 2) await redis.lpush("jobs", req.id);
}
"#;
    assert_eq!(lost(&record(list, 3)), vec![1, 2]);
}

/// The fix "What happened" offers for a limiter's stale check of five
/// clicks at once: the lines from the check (`check`, the first line
/// under the lock) to the write under a Redis lock, which explain offers
/// too, and whose run loses nothing and refuses two clicks with the
/// script's own throw.
fn refused_under_a_redis_lock(racy: &Recording, check: &str) {
    use interleave::explain::{data_fix, explain_recording, story};
    let told = story(racy, racy.first_violation().expect("a violation")).expect("a story");
    let fix = data_fix(racy, &told).expect("a fix");
    assert!(
        fix.value.contains(&format!("  try {{\n{check}")),
        "{}",
        fix.value
    );
    assert!(
        fix.outcome.starts_with("no lost update, 2 errors (was 0)")
            && fix
                .outcome
                .ends_with("2 request(s) now fail with the script's own throw"),
        "{}",
        fix.outcome
    );
    let (config, program) = open(&format!("#{}", fix.fragment));
    let fixed = Recording::of_program(&program, &config).unwrap();
    assert_eq!(
        (lost_requests(&fixed), fixed.metrics.errors),
        (Vec::new(), 2)
    );
    assert_eq!(explain_recording(racy).fix.as_ref(), Some(&fix));
}

/// The recording of `code` run by one user, with the rest of the fragment.
fn record_script(code: &str, rest: &str) -> Recording {
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&users=1{rest}",
        interleave::script::source::encode(code)
    ));
    Recording::of_program(&program, &config).unwrap()
}

/// The requests whose update `recording` lost, in trace order.
fn lost_requests(recording: &Recording) -> Vec<u32> {
    recording
        .violations
        .iter()
        .filter(|v| {
            matches!(
                v.kind,
                interleave::debugger::ViolationKind::LostUpdate { .. }
            )
        })
        .map(|v| v.request)
        .collect()
}

/// A `daily` counter's table: one row, at 0.
const DAILY: &str = "CREATE TABLE daily (day text PRIMARY KEY, n int NOT NULL);
INSERT INTO daily VALUES ('d', 0);
";

/// `code` on `schema`, recorded with `users` users clicking once each.
fn record_users(code: &str, schema: &str, users: u32) -> Recording {
    use interleave::script::source::encode;
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&schema={}&users={users}&clicks=1",
        encode(code),
        encode(schema)
    ));
    Recording::of_program(&program, &config).unwrap()
}

/// The first violation of a lost `daily` count: its story starts with
/// `told`, and its fix puts `FOR UPDATE` on the read.
fn daily_fixed_for_update(racy: &Recording, told: &str) -> interleave::explain::fix::Fix {
    let story = first_story(racy);
    assert!(story.text.starts_with(told), "{}", story.text);
    let fix = interleave::explain::data_fix(racy, &story).expect("a fix");
    assert!(
        fix.text
            .contains("\"SELECT n FROM daily WHERE day = $1 FOR UPDATE\""),
        "{}",
        fix.text
    );
    fix
}

/// The story of a recording's first violation.
fn first_story(recording: &Recording) -> interleave::explain::story::Story {
    let violation = recording.first_violation().expect("a violation");
    interleave::explain::story(recording, violation).expect("a story")
}

/// A count checked, then changed in place (`GET` then `INCR`, `HGET` then
/// `HINCRBY`): the change keeps every other request's, but acts on a count
/// that missed them, as a fixed-window rate limiter that checks before it
/// counts does. A change after the request's own change (`INCR` then
/// `DECR`, two `INCR`s) acts on nothing it read, and loses nothing.
#[test]
fn a_counters_check_is_lost_between_get_and_incr() {
    use interleave::debugger::narrate::op_label;
    use interleave::explain::story;
    use interleave::sim::trace::OpKind;
    use interleave::sim::What;
    let record = |code: &str, extra: &str| record_script(code, &format!("&clicks=5{extra}"));
    let lost = lost_requests;
    let limiter = r#"const Redis = require("ioredis");
const redis = new Redis();
const LIMIT = 3;
async function handle(req) {
  const key = `rate:${req.user}`;
  const used = Number(await redis.get(key));
  if (used >= LIMIT) {
    count("limited");
    throw new Error("429 Too Many Requests");
  }
  await redis.incr(key);
  count("allowed");
}
"#;
    // Five clicks at once: each reads 0 at 1 ms, then counts at 2 ms;
    // #0's INCR is the first change, and #1 to #4 count from a read that
    // missed it. Five get through a limit of three.
    let racy = record(limiter, "");
    assert_eq!(lost(&racy), vec![1, 2, 3, 4]);
    assert_eq!(racy.metrics.errors, 0);
    let violation = racy.first_violation().expect("a violation");
    let told = story(&racy, violation).expect("a story");
    assert_eq!(
        told.text,
        "#1 read rate:0 (line 6) at 1 ms; #0 changed it (line 11) at 2 ms; #1 changed it \
         (line 11) at 2 ms on what it had read, which missed #0's change (the check and the \
         write are two steps, and nothing keeps others out between them)."
    );
    // Under a Redis lock, the fourth and fifth clicks are refused by the
    // limiter's own throw.
    refused_under_a_redis_lock(&racy, "    const used = Number(await redis.get(key));");
    // 100 ms apart, each read sees the counts before it.
    let spaced = record(limiter, "&click_gap=100ms");
    assert_eq!((lost(&spaced), spaced.metrics.errors), (Vec::new(), 2));
    // A hash's field, checked and counted: the same race, and the step
    // names HINCRBY as itself.
    let hash = limiter
        .replace("redis.get(key)", "redis.hget(\"rate\", key)")
        .replace("redis.incr(key)", "redis.hincrby(\"rate\", key, 1)");
    assert_ne!(hash, limiter);
    let racy_hash = record(&hash, "");
    assert_eq!(lost(&racy_hash), vec![1, 2, 3, 4]);
    assert!(racy_hash
        .events
        .iter()
        .any(|e| e.what == What::Complete(OpKind::CacheHashIncr)));
    assert_eq!(op_label(OpKind::CacheHashIncr), "cache.hincrby");
    // Count first, then check what INCR answered (the shipped limiter),
    // and give the count back when over: no read to act on.
    let counted = r#"const Redis = require("ioredis");
const redis = new Redis();
async function handle(req) {
  const used = await redis.incr("rate");
  if (used > 3) {
    await redis.decr("rate");
    throw new Error("429 Too Many Requests");
  }
  await redis.incr("total");
  await redis.incr("total");
}
"#;
    let atomic = record(counted, "");
    assert_eq!((lost(&atomic), atomic.metrics.errors), (Vec::new(), 2));
    let shipped = include_str!("../examples/scripts/rate_limiter.js");
    assert_eq!(lost(&record(shipped, "")), Vec::<u32>::new());
    // A set's count (SCARD), checked before SADD: at most three seats.
    // All five count an empty set; #0 adds first, and #1 to #4 add from a
    // count that missed it. Adding and counting in one MULTI, then giving
    // the seat back when over, loses none (the count answers the add, as
    // INCR's answer does), nor does SISMEMBER then SADD of one member
    // (SADD of a member already there is no one's change).
    let seats = r#"const Redis = require("ioredis");
const redis = new Redis();
async function handle(req) {
  if ((await redis.scard("seats")) >= 3) throw new Error("full");
  await redis.sadd("seats", `u${req.id}`);
}
"#;
    let racy_set = record(seats, "");
    assert_eq!(lost(&racy_set), vec![1, 2, 3, 4]);
    let violation = racy_set.first_violation().expect("a violation");
    let told = story(&racy_set, violation).expect("a story");
    assert!(
        told.text.starts_with(
            "#1 read seats (line 4) at 1 ms; #0 changed it (line 5) at 2 ms; #1 changed it \
             (line 5) at 2 ms on what it had read"
        ),
        "{}",
        told.text
    );
    let check = "    if ((await redis.scard(\"seats\")) >= 3) throw new Error(\"full\");";
    refused_under_a_redis_lock(&racy_set, check);
    let add_first = r#"const Redis = require("ioredis");
const redis = new Redis();
async function handle(req) {
  const [, [, n]] = await redis.multi().sadd("seats", `u${req.id}`).scard("seats").exec();
  if (n > 3) {
    await redis.srem("seats", `u${req.id}`);
    throw new Error("full");
  }
  if (!(await redis.sismember("users", "u"))) await redis.sadd("users", "u");
}
"#;
    let atomic_set = record(add_first, "");
    assert_eq!(
        (lost(&atomic_set), atomic_set.metrics.errors),
        (Vec::new(), 2)
    );
}

/// A hash's size checked, then a field added (`HLEN` then `HSET`): the
/// write keeps every other field, but adds to a count that missed the
/// fields the others added, as a cart of at most three items that checks
/// before it adds does. A field seen absent by a read of the whole hash
/// (`HGETALL`), then written by another request, is stale as a field read
/// would be. Fields already there are the fields' own: a request that
/// writes its own field again after reading the hash loses nothing.
#[test]
fn a_hashs_size_checked_before_hset_is_lost() {
    use interleave::explain::story;
    let cart = r#"const Redis = require("ioredis");
const redis = new Redis();
async function handle(req) {
  if ((await redis.hlen("cart")) >= 3) throw new Error("full");
  await redis.hset("cart", `item${req.id}`, 1);
}
"#;
    let racy = record_script(cart, "&clicks=5");
    assert_eq!(lost_requests(&racy), vec![1, 2, 3, 4]);
    let told = story(&racy, racy.first_violation().expect("a violation")).expect("a story");
    assert_eq!(
        told.text,
        "#1 read cart (line 4) at 1 ms; #0 changed it (line 5) at 2 ms; #1 changed it (line 5) \
         at 2 ms on what it had read, which missed #0's change (the check and the write are two \
         steps, and nothing keeps others out between them)."
    );
    let check = "    if ((await redis.hlen(\"cart\")) >= 3) throw new Error(\"full\");";
    refused_under_a_redis_lock(&racy, check);
    // 100 ms apart, each count sees the fields before it.
    let spaced = record_script(cart, "&clicks=5&click_gap=100ms");
    assert_eq!(
        (lost_requests(&spaced), spaced.metrics.errors),
        (Vec::new(), 2)
    );
    // Each request adds its own field, reads the hash whole, then writes
    // its field again: a field already there changes no one's view of
    // the hash, and no one else wrote this one.
    let own = r#"const Redis = require("ioredis");
const redis = new Redis();
async function handle(req) {
  await redis.hset("sessions", `u${req.id}`, 0);
  const all = await redis.hgetall("sessions");
  await redis.hset("sessions", `u${req.id}`, Object.keys(all).length);
}
"#;
    assert_eq!(
        lost_requests(&record_script(own, "&clicks=5")),
        Vec::<u32>::new()
    );
    // HGETALL finds no `apples` field, then each request writes its count
    // plus one: the read of the whole hash saw the field absent, so #1's
    // and #2's writes lose #0's.
    let absent = r#"const Redis = require("ioredis");
const redis = new Redis();
async function handle(req) {
  const cart = await redis.hgetall("cart:1");
  await redis.hset("cart:1", "apples", String(Number(cart.apples ?? 0) + 1));
}
"#;
    assert_eq!(
        lost_requests(&record_script(absent, "&clicks=3")),
        vec![1, 2]
    );
}

/// The `db` global's rows are lost one by one: `findOne` then `update`
/// with a stock computed in JavaScript loses the other buyers' sales
/// (the oversell example), as does an `$inc` made from the read; an
/// `update` whose filter tests the stock decides in one step (the atomic
/// example), and one whose filter is the value read (compare and set)
/// changes nothing once it is stale.
#[test]
fn a_rows_update_is_lost_between_find_one_and_update() {
    use interleave::explain::story;
    let oversell = include_str!("../examples/scripts/inventory_oversell.js");
    let racy = record_script(oversell, "&users=4&clicks=1");
    assert_eq!(lost_requests(&racy), vec![1, 2, 3]);
    let told = story(&racy, racy.first_violation().expect("a violation")).expect("a story");
    assert_eq!(
        told.text,
        "#1 read items (line 9) at 20 ms; #0 wrote it (line 14) at 40 ms; #1 wrote it \
         (line 14) at 40 ms from what it had read, so #0's update is lost (the read and the \
         write are two steps, and nothing keeps others out between them)."
    );
    let atomic = include_str!("../examples/scripts/inventory_atomic.js");
    assert_eq!(
        lost_requests(&record_script(atomic, "&users=4&clicks=1")),
        Vec::<u32>::new()
    );
    let set = "await db.update(\"items\", { id: 1 }, { stock: item.stock - 1 });";
    assert!(oversell.contains(set));
    let inc = oversell.replace(
        set,
        "await db.update(\"items\", { id: 1 }, { stock: { $inc: -1 } });",
    );
    assert_eq!(
        lost_requests(&record_script(&inc, "&users=4&clicks=1")),
        vec![1, 2, 3]
    );
    let compare_and_set = oversell.replace(
        set,
        "await db.update(\"items\", { id: 1, stock: item.stock }, { stock: item.stock - 1 });",
    );
    let cas = record_script(&compare_and_set, "&users=4&clicks=1");
    assert_eq!(lost_requests(&cas), Vec::<u32>::new());
}

/// The lost update in SQL: `SELECT` a row, compute in JavaScript, `UPDATE
/// … SET seats = $1`. Under READ COMMITTED the second update overwrites
/// the first commit (a violation); under REPEATABLE READ it fails with
/// 40001 instead, and nothing is lost.
#[test]
fn a_lost_update_in_sql_is_found_from_the_data() {
    use interleave::debugger::ViolationKind;
    use interleave::explain::story;
    use interleave::script::source::encode;
    let code = |begin: &str| {
        format!(
            "const {{ Pool }} = require('pg');
const pool = new Pool();
async function handle(req) {{
  const c = await pool.connect();
  try {{
    await c.query('{begin}');
    const {{ rows }} = await c.query('SELECT seats FROM events WHERE id = 1');
    await c.query('UPDATE events SET seats = $1 WHERE id = 1', [rows[0].seats - 1]);
    await c.query('COMMIT');
  }} catch (e) {{
    count(e.code);
    await c.query('ROLLBACK');
  }} finally {{
    c.release();
  }}
}}
"
        )
    };
    let schema = "CREATE TABLE events (id int PRIMARY KEY, seats int);
INSERT INTO events VALUES (1, 10);
";
    let lost = |begin: &str| {
        let (config, program) = open(&format!(
            "#v=1&scenario=script&code={}&schema={}&users=1&clicks=2",
            encode(&code(begin)),
            encode(schema)
        ));
        let recording = Recording::of_program(&program, &config).unwrap();
        let lost: Vec<_> = recording
            .violations
            .iter()
            .filter(|v| matches!(v.kind, ViolationKind::LostUpdate { .. }))
            .copied()
            .collect();
        (recording, lost)
    };
    let (recording, found) = lost("BEGIN");
    assert_eq!(found.len(), 1, "{:?}", recording.violations);
    assert_eq!(found[0].request, 1);
    let story = story(&recording, &found[0]).expect("a story");
    assert!(
        story
            .text
            .starts_with("#1 read events (line 7) at 40 ms; #0 wrote it (line 8) at 60 ms;"),
        "{}",
        story.text
    );
    let (recording, found) = lost("BEGIN ISOLATION LEVEL REPEATABLE READ");
    assert!(found.is_empty(), "{:?}", recording.violations);
}

/// An upsert is a write of the row it conflicts on: `SELECT` the count,
/// add one in JavaScript, `INSERT … ON CONFLICT DO UPDATE SET n =
/// EXCLUDED.n` loses the other requests' counts as `UPDATE … SET n = $1`
/// does (three requests leave 1), with or without a transaction. One whose
/// SET reads the row (`n = daily.n + 1`) decides in one step and loses
/// nothing. In a transaction, the fix is `FOR UPDATE` on the read.
#[test]
fn an_upsert_from_a_read_loses_updates_as_an_update_does() {
    let upsert =
        "INSERT INTO daily (day, n) VALUES ($1, $2) ON CONFLICT (day) DO UPDATE SET n = EXCLUDED.n";
    let plain = format!(
        r#"const {{ Pool }} = require("pg");
const pool = new Pool();
async function handle(req) {{
  const {{ rows }} = await pool.query("SELECT n FROM daily WHERE day = $1", ["d"]);
  const n = rows.length ? rows[0].n : 0;
  await pool.query("{upsert}", ["d", n + 1]);
}}
"#
    );
    let in_transaction = format!(
        r#"const {{ Pool }} = require("pg");
const pool = new Pool();
async function handle(req) {{
  const c = await pool.connect();
  try {{
    await c.query("BEGIN");
    const {{ rows }} = await c.query("SELECT n FROM daily WHERE day = $1", ["d"]);
    const n = rows.length ? rows[0].n : 0;
    await c.query("{upsert}", ["d", n + 1]);
    await c.query("COMMIT");
  }} finally {{
    c.release();
  }}
}}
"#
    );
    let record = |code: &str| record_users(code, DAILY, 3);
    let racy = record(&plain);
    assert_eq!(lost_requests(&racy), vec![1, 2]);
    let told = first_story(&racy);
    assert_eq!(
        told.text,
        "#1 read daily (line 4) at 20 ms; #0 wrote it (line 6) at 40 ms; #1 wrote it (line 6) \
         at 40 ms from what it had read, so #0's update is lost (the read and the write are two \
         steps, and nothing keeps others out between them)."
    );
    // A conflict SET that reads the row keeps #0's change, but acts on
    // what #1 read before it, as an UPDATE in place does.
    let in_place = plain.replace("SET n = EXCLUDED.n", "SET n = daily.n + 1");
    assert_ne!(in_place, plain);
    let changed = record(&in_place);
    assert_eq!(lost_requests(&changed), vec![1, 2]);
    assert_eq!(
        first_story(&changed).text,
        "#1 read daily (line 4) at 20 ms; #0 changed it (line 6) at 40 ms; #1 changed it (line \
         6) at 40 ms on what it had read, which missed #0's change (the check and the write are \
         two steps, and nothing keeps others out between them)."
    );
    // One whose WHERE tests what it sets checks the row as it writes it.
    let checked = plain.replace(
        "SET n = EXCLUDED.n",
        "SET n = daily.n + 1 WHERE daily.n < 10",
    );
    assert_eq!(lost_requests(&record(&checked)), Vec::<u32>::new());

    let racy = record(&in_transaction);
    assert_eq!(lost_requests(&racy), vec![1, 2]);
    let fix = daily_fixed_for_update(
        &racy,
        "#1 read daily (line 7) at 40 ms; #0 wrote it (line 9) at 60 ms;",
    );
    assert!(
        fix.outcome.starts_with("no lost update, 0 errors"),
        "{}",
        fix.outcome
    );
}

/// Stock checked with a SELECT, then decremented in place: every
/// decrement lands, but each acts on a check that missed the others (the
/// oversell), so it is told as a change on a stale read. The same
/// decrement that tests the stock in its WHERE, and the check under `FOR
/// UPDATE` in a transaction, decide on the row as it is; a view counter
/// that never looks at the count decides nothing on it.
#[test]
fn a_decrement_after_a_stale_check_is_found_in_sql_and_a_checked_one_is_not() {
    const PRODUCTS: &str = "CREATE TABLE products (id int PRIMARY KEY, stock int NOT NULL);\n\
                            INSERT INTO products VALUES (1, 2);";
    let oversell = r#"const { Pool } = require("pg");
const pool = new Pool();
exports.handle = async function (req) {
  const { rows } = await pool.query("SELECT stock FROM products WHERE id = $1", [1]);
  if (rows[0].stock <= 0) return { status: 409 };
  await pool.query("UPDATE products SET stock = stock - 1 WHERE id = $1", [1]);
  return { status: 201 };
};
"#;
    let racy = record_users(oversell, PRODUCTS, 4);
    assert_eq!(lost_requests(&racy), vec![1, 2, 3]);
    let violation = racy.first_violation().expect("a violation");
    assert_eq!(
        violation.kind,
        interleave::debugger::ViolationKind::LostUpdate { in_place: true }
    );
    assert_eq!(
        first_story(&racy).text,
        "#1 read products (line 4) at 20 ms; #0 changed it (line 6) at 40 ms; #1 changed it \
         (line 6) at 40 ms on what it had read, which missed #0's change (the check and the \
         write are two steps, and nothing keeps others out between them)."
    );
    // In autocommit (where FOR UPDATE would hold nothing), the fix moves
    // the code's own check into the UPDATE's WHERE: the two sales the
    // stock allows go through, the others answer as the check does.
    let fix = interleave::explain::data_fix(&racy, &first_story(&racy)).expect("a fix");
    assert_eq!(
        fix.value,
        "if ((await pool.query(\"UPDATE products SET stock = stock - 1 WHERE id = $1 AND stock > \
         0\", [1])).rowCount === 0) return { status: 409 };"
    );
    assert!(
        fix.meaning
            .starts_with("the check on line 5 moves into the UPDATE on line 6 (`stock > 0` in"),
        "{}",
        fix.meaning
    );
    assert_eq!(
        fix.outcome,
        "no lost update, 0 errors, p99 40 ms (was 40 ms)"
    );
    // A check that is not a comparison with a number leaves the UPDATE
    // comparing what it changes with what was read.
    let unchecked = oversell.replace("rows[0].stock <= 0", "!rows[0].stock");
    let racy = record_users(&unchecked, PRODUCTS, 4);
    let fix = interleave::explain::data_fix(&racy, &first_story(&racy)).expect("a fix");
    assert_eq!(
        fix.value,
        "if ((await pool.query(\"UPDATE products SET stock = stock - 1 WHERE id = $1 AND stock = \
         $2\", [1, rows[0].stock])).rowCount === 0) throw new Error(\"the row changed since line 4 \
         read it: try again\");"
    );
    assert_eq!(
        fix.outcome,
        "no lost update, 3 errors (was 0), p99 40 ms (was 40 ms); 3 request(s) now fail with the \
         script's own throw"
    );
    // Alone, a request's check is never stale.
    assert_eq!(
        lost_requests(&record_users(oversell, PRODUCTS, 1)),
        Vec::<u32>::new()
    );
    let checked = oversell.replace("WHERE id = $1\", [1]", "WHERE id = $1 AND stock > 0\", [1]");
    assert_ne!(checked, oversell);
    assert_eq!(
        lost_requests(&record_users(&checked, PRODUCTS, 4)),
        Vec::<u32>::new()
    );
    let locked = r#"const { Pool } = require("pg");
const pool = new Pool();
exports.handle = async function (req) {
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    const { rows } = await c.query("SELECT stock FROM products WHERE id = 1 FOR UPDATE");
    if (rows[0].stock > 0) await c.query("UPDATE products SET stock = stock - 1 WHERE id = 1");
    await c.query("COMMIT");
  } finally {
    c.release();
  }
};
"#;
    assert_eq!(
        lost_requests(&record_users(locked, PRODUCTS, 4)),
        Vec::<u32>::new()
    );
    // A view counter reads the page, then counts a view: its code uses
    // nothing it changes in between (a column named only in its SQL, or
    // after the write, decides nothing), so no check went stale.
    const POSTS: &str = "CREATE TABLE posts (id int PRIMARY KEY, title text, views int);\n\
                         INSERT INTO posts VALUES (1, 'hello', 0);";
    let views = r#"const { Pool } = require("pg");
const pool = new Pool();
exports.handle = async function (req) {
  const { rows } = await pool.query("SELECT * FROM posts WHERE id = $1", [1]);
  if (rows.length === 0) return { status: 404 }; // no views yet?
  await pool.query("UPDATE posts SET views = views + 1 WHERE id = $1", [1]);
  return { status: 200, body: `${rows[0].title}: ${rows[0].views}` };
};
"#;
    assert_eq!(
        lost_requests(&record_users(views, POSTS, 4)),
        Vec::<u32>::new()
    );
    // Deciding on the count between the two is a stale check again.
    let capped = views.replace("rows.length === 0", "rows[0].views >= 1000");
    assert_eq!(
        lost_requests(&record_users(&capped, POSTS, 4)),
        vec![1, 2, 3]
    );
    // Through helpers, the handler that calls them is where the check is.
    let helpers = r#"const { Pool } = require("pg");
const pool = new Pool();
async function getPost(id) {
  const { rows } = await pool.query("SELECT * FROM posts WHERE id = $1", [id]);
  return rows[0];
}
async function countView(id) {
  await pool.query("UPDATE posts SET views = views + 1 WHERE id = $1", [id]);
}
exports.handle = async function (req) {
  const post = await getPost(1);
  if (post.views >= 1000) return { status: 429 };
  await countView(1);
};
"#;
    assert_eq!(
        lost_requests(&record_users(helpers, POSTS, 4)),
        vec![1, 2, 3]
    );
    let found = helpers.replace("post.views >= 1000", "!post");
    assert_eq!(
        lost_requests(&record_users(&found, POSTS, 4)),
        Vec::<u32>::new()
    );
}

/// What a request wrote itself is what it saw last: writing a row again
/// after its own write, in autocommit or after its transaction committed,
/// loses nothing, and an optimistic update (`… AND version = $2`) checks
/// the row as it writes it.
#[test]
fn a_request_that_writes_a_row_twice_loses_nothing_of_its_own() {
    const ACCOUNTS: &str = "CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL, \
                            version int NOT NULL);\nINSERT INTO accounts VALUES (1, 100, 0);";
    let twice = r#"const { Pool } = require("pg");
const pool = new Pool();
exports.handle = async function (req) {
  const { rows } = await pool.query("SELECT balance FROM accounts WHERE id = 1");
  await pool.query("UPDATE accounts SET balance = $1 WHERE id = 1", [rows[0].balance - 10]);
  await pool.query("UPDATE accounts SET balance = $1 WHERE id = 1", [rows[0].balance - 20]);
  const c = await pool.connect();
  await c.query("BEGIN");
  await c.query("UPDATE accounts SET balance = balance + 1 WHERE id = 1");
  await c.query("COMMIT");
  c.release();
  await pool.query("UPDATE accounts SET balance = $1 WHERE id = 1", [rows[0].balance]);
};
"#;
    assert_eq!(
        lost_requests(&record_users(twice, ACCOUNTS, 1)),
        Vec::<u32>::new()
    );
    // With two in step, each blind write lands over the other's last one
    // (#1's first over #0's first, #0's second over #1's first, ...); the
    // in-place change in the transaction reads nothing and loses nothing.
    assert_eq!(
        lost_requests(&record_users(twice, ACCOUNTS, 2)),
        vec![1, 0, 1, 0, 1]
    );
    let optimistic = r#"const { Pool } = require("pg");
const pool = new Pool();
exports.handle = async function (req) {
  const { rows } = await pool.query("SELECT balance, version FROM accounts WHERE id = 1");
  const { balance, version } = rows[0];
  const r = await pool.query(
    "UPDATE accounts SET balance = $1, version = version + 1 WHERE id = 1 AND version = $2",
    [balance - 10, version]
  );
  if (r.rowCount === 0) throw new Error("changed since read: try again");
};
"#;
    let optimistic = record_users(optimistic, ACCOUNTS, 3);
    assert_eq!(lost_requests(&optimistic), Vec::<u32>::new());
    assert_eq!(optimistic.metrics.errors, 2);
}

/// A lost update written through the globals (`db.findOne`, then
/// `db.update` of a value computed from what it read): the update writes
/// only over what was read (compare-and-set in its where) and the request
/// fails when it matched no row. A call over several lines and a where with
/// a trailing comma keep their shape; an update whose count the code keeps
/// is left alone.
#[test]
fn a_lost_update_through_the_globals_writes_only_over_what_it_read() {
    use interleave::explain::{data_fix, story};
    use interleave::script::source::encode;
    let fix_of = |fragment: &str| {
        let (config, program) = open(fragment);
        let recording = Recording::of_program(&program, &config).unwrap();
        let violation = recording.first_violation().expect("a violation");
        assert_eq!(
            violation.kind,
            interleave::debugger::ViolationKind::LostUpdate { in_place: false }
        );
        data_fix(&recording, &story(&recording, violation).expect("a story"))
    };
    let fix =
        fix_of("#v=1&scenario=script&example=inventory_oversell&users=2&clicks=1").expect("a fix");
    assert_eq!(
        fix.value,
        "if ((await db.update(\"items\", { id: 1, stock: item.stock }, { stock: item.stock - 1 })) \
         === 0) throw new Error(\"the row changed since line 9 read it: try again\");"
    );
    assert!(
        fix.meaning.starts_with(
            "the db.update on line 14 writes only if the row still holds what line 9 read \
             (`stock: item.stock` in its where)"
        ),
        "{}",
        fix.meaning
    );
    assert_eq!(
        fix.outcome,
        "no lost update, 1 error (was 0), p99 60 ms (was 60 ms); 1 request(s) now fail with the \
         script's own throw"
    );
    // The link runs the edited script: one request told to retry; writes
    // are both updates (the second matched no row) and the one order.
    let (config, program) = open(&format!("#{}", fix.fragment));
    let fixed = Recording::of_program(&program, &config).unwrap();
    assert!(fixed.violations.is_empty(), "{:?}", fixed.violations);
    assert_eq!((fixed.metrics.errors, fixed.metrics.db_writes), (1, 3));

    let counter = r#"db.table("pages", { rows: [{ id: 1, views: 0 }] });
async function handle(req) {
  const page = await db.findOne("pages", { id: 1 });
  await db.update(
    "pages",
    { id: 1, },
    { views: page.views + 1, seenBy: req.user } // the count
  );
}"#;
    let fragment = |code: &str| {
        format!(
            "#v=1&scenario=script&code={}&users=2&clicks=1",
            encode(code)
        )
    };
    let fix = fix_of(&fragment(counter)).expect("a fix");
    assert_eq!(
        fix.value,
        "if ((await db.update(\n  \"pages\",\n  { id: 1, views: page.views },\n  { views: \
         page.views + 1, seenBy: req.user } // the count\n)) === 0) throw new Error(\"the row \
         changed since line 3 read it: try again\");"
    );
    let kept = counter.replace("  await db.update(", "  const n = await db.update(");
    assert!(fix_of(&fragment(&kept)).is_none());
}

/// A duplicate row written through the globals (`db.findOne`, then
/// `db.insert`): the table's expected key is declared unique too, and the
/// insert catches the database's refusal; where the code goes on with the
/// inserted row, the key alone (the second request then fails). On one
/// server and on two (an in-process lock per server, async-lock's) alike.
#[test]
fn a_duplicate_through_the_globals_is_fixed_by_the_tables_own_key() {
    use interleave::explain::{data_fix, story};
    use interleave::script::source::encode;
    let fix_of = |code: &str, keys: &str| {
        let fragment = format!("#v=1&scenario=script&code={}&{keys}", encode(code));
        let (config, program) = open(&fragment);
        let recording = Recording::of_program(&program, &config).unwrap();
        assert_eq!(recording.metrics.duplicate_tickets, 1, "{code}");
        let violation = recording.first_violation().expect("a violation");
        let fix = data_fix(&recording, &story(&recording, violation).expect("a story"));
        let fix = fix.expect("a fix");
        // Its link runs the edited script: no duplicate there.
        let (config, program) = open(&format!("#{}", fix.fragment));
        let fixed = Recording::of_program(&program, &config).unwrap();
        assert_eq!(fixed.metrics.duplicate_tickets, 0);
        fix
    };
    let declared = "db.table(\"orders\", { unique: [\"user\", \"event\"], expectUnique: [\"user\", \"event\"] });";
    let caught = "if (!existing) await db.insert(\"orders\", { user: req.user, event: 1 })\
                  .catch((error) => { if (error.name !== \"UniqueViolation\") throw error; });";
    let plain = r#"db.table("orders", { expectUnique: ["user", "event"] });
async function handle(req) {
  const existing = await db.findOne("orders", { user: req.user, event: 1 });
  if (!existing) await db.insert("orders", { user: req.user, event: 1 });
}"#;
    let fix = fix_of(plain, "users=1&clicks=2");
    assert_eq!(fix.key, "code");
    assert_eq!(fix.value, format!("{declared}\n{caught}"));
    assert_eq!(
        fix.meaning,
        "the table declares its key unique (`unique: [\"user\", \"event\"]` on line 1), so the \
         database refuses a second row, and the db.insert on line 4 lets that refusal go"
    );
    assert_eq!(
        fix.outcome,
        "0 duplicate rows (was 1), 0 errors, p99 40 ms (was 40 ms)"
    );
    assert!(fix.same_schedule);
    let locked = include_str!("libraries/async_lock_orders.js");
    let fix = fix_of(locked, "users=1&clicks=2&servers=2");
    assert_eq!(fix.value, format!("{declared}\n{caught}"));
    assert!(
        fix.meaning
            .ends_with("the db.insert on line 7 lets that refusal go"),
        "{}",
        fix.meaning
    );
    // The code returns a field of the row it inserted: the catch would
    // leave it none, so the key alone, the second request failing.
    let uses_row = r#"db.table("orders", {
  expectUnique: ["user", "event"], // one per user
});
async function handle(req) {
  const existing = await db.findOne("orders", { user: req.user, event: 1 });
  if (existing) return existing.id;
  const row = await db.insert("orders", { user: req.user, event: 1, note: "a ) here" });
  return row.user;
}"#;
    let fix = fix_of(uses_row, "users=1&clicks=2");
    assert_eq!(
        fix.value,
        "unique: [\"user\", \"event\"], expectUnique: [\"user\", \"event\"], // one per user"
    );
    assert_eq!(
        fix.outcome,
        "0 duplicate rows (was 1), 1 error (was 0), p99 40 ms (was 40 ms)"
    );
}

/// The race found in a script's data comes with a fix in its own SQL,
/// checked by running the edited script: a duplicate row gets `ON
/// CONFLICT … DO NOTHING` and the unique index the schema expects; a lost
/// update gets `FOR UPDATE` on the read in a transaction, compare-and-set
/// in autocommit.
#[test]
fn a_race_in_the_data_is_fixed_in_the_scripts_own_sql() {
    use interleave::explain::{data_fix, story};
    let recording = |fragment: &str| {
        let (config, program) = open(fragment);
        Recording::of_program(&program, &config).unwrap()
    };
    let fix_of = |recording: &Recording| {
        let violation = recording.first_violation().expect("a violation");
        data_fix(recording, &story(recording, violation).expect("a story"))
    };
    // A lost update's fix: nothing lost and no new error, and its link
    // runs with no violation.
    let clears_the_lost_update = |fix: &interleave::explain::Fix| {
        assert!(
            fix.outcome.starts_with("no lost update, 0 errors"),
            "{}",
            fix.outcome
        );
        let fixed = recording(&format!("#{}", fix.fragment));
        assert!(fixed.violations.is_empty(), "{:?}", fixed.violations);
    };
    // A double click on `code` (with `schema`, if any).
    let double_click = |code: &str, schema: Option<&str>| {
        use interleave::script::source::encode;
        let schema = schema.map_or(String::new(), |sql| format!("&schema={}", encode(sql)));
        recording(&format!(
            "#v=1&scenario=script&code={}{schema}&users=1&clicks=2",
            encode(code)
        ))
    };
    // ticket_pg: SELECT, then INSERT … RETURNING id; a double click.
    let racy = recording("#v=1&scenario=script&example=ticket_pg&users=1&clicks=2");
    assert_eq!(racy.metrics.duplicate_tickets, 1);
    let fix = fix_of(&racy).expect("a fix");
    assert_eq!(fix.key, "code");
    assert_eq!(
        fix.value,
        "\"INSERT INTO orders (user_id, event_id) VALUES ($1, $2) ON CONFLICT (user_id, event_id) \
         DO NOTHING RETURNING id\"\n\
         CREATE UNIQUE INDEX orders_user_id_event_id_key ON orders (user_id, event_id);"
    );
    assert!(
        fix.meaning
            .starts_with("the INSERT on line 29 does nothing"),
        "{}",
        fix.meaning
    );
    assert_eq!(
        fix.outcome,
        "0 duplicate rows (was 1), 0 errors, p99 40 ms (was 40 ms)"
    );
    assert!(fix.same_schedule);
    // The link runs the edited script and schema: no duplicate there.
    let fixed = recording(&format!("#{}", fix.fragment));
    assert_eq!(fixed.metrics.duplicate_tickets, 0);
    assert!(fixed.violations.is_empty(), "{:?}", fixed.violations);
    assert!(fix_of(&racy).is_some());

    // room_booking_pg: a check for overlapping stays, then an INSERT, in a
    // transaction. The table is locked after BEGIN, so the code's own
    // check decides (with ON CONFLICT DO NOTHING the second guest would
    // be told it booked).
    let racy = recording("#v=1&scenario=script&example=room_booking_pg&users=2&clicks=1");
    assert_eq!(racy.metrics.duplicate_tickets, 1);
    let fix = fix_of(&racy).expect("a fix");
    assert_eq!(
        fix.value,
        "await client.query(\"LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE\");"
    );
    assert!(
        fix.meaning.starts_with(
            "LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE after the BEGIN on line 27:"
        ),
        "{}",
        fix.meaning
    );
    assert_eq!(
        fix.outcome,
        "0 duplicate rows (was 1), 0 errors, p99 140 ms (was 80 ms)"
    );
    let fixed = recording(&format!("#{}", fix.fragment));
    assert_eq!(fixed.metrics.duplicate_tickets, 0);
    assert!(fixed.violations.is_empty(), "{:?}", fixed.violations);

    // The lost update of a_lost_update_in_sql_is_found_from_the_data.
    let code = "const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const { rows } = await c.query('SELECT seats FROM events WHERE id = 1');
    await c.query('UPDATE events SET seats = $1 WHERE id = 1', [rows[0].seats - 1]);
    await c.query('COMMIT');
  } finally {
    c.release();
  }
  count('seats');
}
";
    let schema = "CREATE TABLE events (id int PRIMARY KEY, seats int);
INSERT INTO events VALUES (1, 10);
";
    let racy = double_click(code, Some(schema));
    let fix = fix_of(&racy).expect("a fix");
    assert_eq!(
        fix.value,
        "'SELECT seats FROM events WHERE id = 1 FOR UPDATE'"
    );
    assert!(
        fix.meaning.starts_with("the SELECT on line 7 locks"),
        "{}",
        fix.meaning
    );
    clears_the_lost_update(&fix);

    // Without a transaction FOR UPDATE holds nothing: the UPDATE compares
    // what it sets with what was read instead.
    let autocommit = code
        .replace("await c.query('BEGIN');", "")
        .replace("await c.query('COMMIT');", "");
    let racy = double_click(&autocommit, Some(schema));
    assert!(!racy.violations.is_empty());
    let fix = fix_of(&racy).expect("a fix");
    assert_eq!(
        fix.value,
        "if ((await c.query('UPDATE events SET seats = $1 WHERE id = 1 AND seats = $2', \
         [rows[0].seats - 1, rows[0].seats])).rowCount === 0) throw new Error(\"the row changed \
         since line 7 read it: try again\");"
    );
    assert_eq!(
        fix.outcome,
        "no lost update, 1 error (was 0), p99 40 ms (was 40 ms); 1 request(s) now fail with the \
         script's own throw"
    );
    let fixed = recording(&format!("#{}", fix.fragment));
    assert!(fixed.violations.is_empty(), "{:?}", fixed.violations);

    // A cache key's lost update: the lines from the read to the write go
    // under a Redis lock, released in a finally. They declare `visits`,
    // which the code after them reads, so `visits` is declared before the
    // try block and assigned in it.
    let code = "const Redis = require('ioredis');
const redis = new Redis();
async function handle(req) {
  const visits = Number(await redis.get('visits')) || 0;
  await redis.set('visits', visits + 1);
  console.log(visits);
}
";
    let racy = double_click(code, None);
    let fix = fix_of(&racy).expect("a fix");
    assert_eq!(
        fix.value,
        r#"  let visits;
  const lockToken = Math.random().toString(36).slice(2);
  while ((await redis.set('lock:visits', lockToken, "PX", 5000, "NX")) !== "OK") {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  try {
    visits = Number(await redis.get('visits')) || 0;
    await redis.set('visits', visits + 1);
  } finally {
    await redis.eval('if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end', 1, 'lock:visits', lockToken);
  }"#
    );
    clears_the_lost_update(&fix);
    // An early return between the read and the write releases the lock
    // too: #1 returns holding it, and #2 takes it at once instead of
    // waiting out its 5 s expiry (#0 writes 1, so #1 reads an odd count).
    let early = code.replace(
        "  await redis.set('visits', visits + 1);\n",
        "  if (visits % 2 === 1) return;\n  await redis.set('visits', visits + 1);\n",
    );
    let racy = recording(&format!(
        "#v=1&scenario=script&code={}&users=1&clicks=3",
        interleave::script::source::encode(&early)
    ));
    let fix = fix_of(&racy).expect("a fix");
    assert!(
        fix.value.contains("    if (visits % 2 === 1) return;\n"),
        "{}",
        fix.value
    );
    clears_the_lost_update(&fix);
    let fixed = recording(&format!("#{}", fix.fragment));
    assert!(
        fixed.metrics.latency_us.max < 1_000_000,
        "{:?}",
        fixed.metrics
    );
    // A destructuring over two lines cannot be split: the lock is held to
    // the end of the block, and still released in a finally.
    let spread = "const Redis = require('ioredis');
const redis = new Redis();
async function handle(req) {
  const { visits } = { visits: Number(await redis.get('visits')) || 0,
  };
  await redis.set('visits', visits + 1);
  console.log(visits);
}
";
    let racy = double_click(spread, None);
    let fix = fix_of(&racy).expect("a fix");
    assert!(
        fix.value.ends_with("    console.log(visits);\n  } finally {\n    await redis.eval('if redis.call(\"get\", KEYS[1]) == ARGV[1] then return redis.call(\"del\", KEYS[1]) else return 0 end', 1, 'lock:visits', lockToken);\n  }"),
        "{}",
        fix.value
    );
    clears_the_lost_update(&fix);
    // Without the log, nothing after the lines needs `visits`: try/finally.
    let racy = double_click(&code.replace("  console.log(visits);\n", ""), None);
    let fix = fix_of(&racy).expect("a fix");
    assert!(
        fix.value.contains("  try {\n    const visits"),
        "{}",
        fix.value
    );
    assert!(fix.value.ends_with("lockToken);\n  }"), "{}", fix.value);

    // node-redis, one line that reads and writes: try/finally.
    let code = "import { createClient } from 'redis';
const client = createClient();
await client.connect();
export async function handle(req) {
  await client.set(`visits:${req.user}`, Number(await client.get(`visits:${req.user}`)) + 1);
}
";
    let racy = double_click(code, None);
    let fix = fix_of(&racy).expect("a fix");
    assert_eq!(
        fix.value,
        r#"  const lockToken = Math.random().toString(36).slice(2);
  while ((await client.set(`lock:visits:${req.user}`, lockToken, { NX: true, PX: 5000 })) !== "OK") {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  try {
    await client.set(`visits:${req.user}`, Number(await client.get(`visits:${req.user}`)) + 1);
  } finally {
    await client.eval('if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end', { keys: [`lock:visits:${req.user}`], arguments: [lockToken] });
  }"#
    );
    let fixed = recording(&format!("#{}", fix.fragment));
    assert!(fixed.violations.is_empty(), "{:?}", fixed.violations);

    // memjs: a memcached lock, `add` with an expiry (true once stored),
    // deleted in a finally.
    let code = "const memjs = require('memjs');
const mc = memjs.Client.create();
async function handle(req) {
  const { value } = await mc.get('visits');
  const visits = value ? Number(value.toString()) : 0;
  await mc.set('visits', String(visits + 1), { expires: 0 });
  console.log(visits);
}
";
    let racy = double_click(code, None);
    let fix = fix_of(&racy).expect("a fix");
    assert_eq!(
        fix.value,
        r#"  let visits;
  const lockToken = Math.random().toString(36).slice(2);
  while (!(await mc.add('lock:visits', lockToken, { expires: 5 }))) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  try {
    const { value } = await mc.get('visits');
    visits = value ? Number(value.toString()) : 0;
    await mc.set('visits', String(visits + 1), { expires: 0 });
  } finally {
    await mc.delete('lock:visits');
  }"#
    );
    assert!(
        fix.meaning
            .starts_with("lines 4 to 6 under a memcached lock: add with a 5 s expiry"),
        "{}",
        fix.meaning
    );
    clears_the_lost_update(&fix);
}

/// A request that throws: the page's trace export carries the message as
/// `interleave run --trace` prints it, the event-loop pane's words say it,
/// and explain names it with its line. A name that is not defined
/// (`fetch`) lists the globals (SCRIPTING.md §1) in the trace and the
/// narration; explain's headline stops before the list.
#[test]
fn a_thrown_error_says_why_in_the_export_the_pane_and_explain() {
    let undefined = "ReferenceError: fetch is not defined (line 2, column 21)";
    let cases = [
        (
            "async function handle(req) {\n  await sleep(5);\n  throw new Error(\"boom\");\n}\n",
            "Error: boom (line 3, column 13)".to_string(),
            "Error: boom (line 3, column 13)",
        ),
        (
            "async function handle(req) {\n  const res = await fetch(\"https://example.com\");\n}\n",
            format!(
                "{undefined}; the globals are {}",
                interleave::script::run::GLOBALS
            ),
            undefined,
        ),
    ];
    for (code, message, headline) in cases {
        let (config, _) = open("#v=1&scenario=script&example=ticket&users=1&clicks=1");
        let program = interleave::debugger::program::edited_script(code, None, None);
        let recording = Recording::of_program(&program, &config).unwrap();
        let exported = interleave::debugger::export::trace_json_lines(&recording);
        let fragment = program.fragment(&config);
        let mut printed = Vec::new();
        interleave::script::cli::run(None, None, None, &fragment, true, u64::MAX, &mut printed)
            .unwrap();
        let printed = String::from_utf8(printed).unwrap();
        let trace: Vec<&str> = printed.lines().collect();
        let (_, trace) = trace.split_last().unwrap();
        assert_eq!(exported.lines().collect::<Vec<_>>(), trace);
        assert!(
            exported.contains(&format!("\"message\":\"{message}\"")),
            "{exported}"
        );
        let log = recording
            .events
            .iter()
            .find(|event| event.what == interleave::sim::What::Log)
            .unwrap();
        assert_eq!(
            interleave::debugger::narrate::describe_event(log, &recording.keys),
            format!("#0 logs: {message}")
        );
        let explanation = interleave::explain::explain_recording(&recording);
        assert_eq!(
            explanation.summary,
            format!(
                "#0 failed with {headline}. Step through the run, or explore to find the \
                 interleavings that cause it"
            )
        );
        assert_eq!(explanation.step, Some(log.step));
        assert_eq!(explanation.fragment, fragment);
    }
}

/// What happened names a script's SQL statement as its SQL does: `#1's
/// COMMIT lands`, `#0's UPDATE jobs lands`, never the key's debug form.
#[test]
fn what_happened_names_sql_statements_as_sql() {
    let (config, program) = open("#v=1&scenario=script&example=job_queue_pg&users=2&clicks=1");
    let recording = Recording::of_program(&program, &config).unwrap();
    let explanation = interleave::explain::explain_recording(&recording);
    assert_eq!(
        explanation.narration.as_deref(),
        Some("At 220 ms, #1's COMMIT lands: committed; #1 returns after 220 ms.")
    );
    let steps: Vec<String> = (0..recording.steps)
        .map(|step| interleave::explain::narrate::narrate_step(&recording, step))
        .collect();
    assert!(
        steps
            .iter()
            .any(|text| text.contains("#0's UPDATE jobs lands")),
        "{steps:#?}"
    );
    assert!(steps.iter().all(|text| !text.contains("(\"")), "{steps:#?}");
}

/// BEGIN through `pool.query` (`pool_begin_pg`): each statement that runs
/// in the transaction block another request began is a violation, marked
/// where it lands: #0's COMMIT in #1's block and #1's ROLLBACK in #0's,
/// both at 90 ms. What happened tells the first in the script's lines and
/// offers the fix it ran: the handler's queries on a client of its own,
/// released in a finally; with such a client, nothing is found.
#[test]
fn what_happened_tells_a_transaction_shared_through_the_pool() {
    use interleave::debugger::ViolationKind::SharedTransaction;
    let fragment = "#v=1&scenario=script&example=pool_begin_pg&users=2&clicks=1";
    let (config, program) = open(fragment);
    let recording = Recording::of_program(&program, &config).unwrap();
    let found: Vec<_> = recording
        .violations
        .iter()
        .map(|v| (v.kind, v.request, v.time))
        .collect();
    assert_eq!(
        found,
        [
            (SharedTransaction { began_by: 1 }, 0, 90_000),
            (SharedTransaction { began_by: 0 }, 1, 90_000)
        ]
    );
    let explanation = interleave::explain::explain_recording(&recording);
    assert_eq!(explanation.summary, "shared transaction at step 9");
    let fix = explanation.fix.expect("a fix, found by running it");
    assert_eq!(
        fix.meaning,
        "the transaction on a client of its own: from line 27, `const client = await \
         pool.connect()`, every `pool.query` there on `client`, and `client.release()` in a \
         finally"
    );
    assert!(
        fix.outcome.starts_with("no shared transaction, 0 errors"),
        "{}",
        fix.outcome
    );
    let story = explanation.story.unwrap();
    assert_eq!(story.requests, [1, 0]);
    assert_eq!(
        story.text,
        "#0's COMMIT (line 31) at 90 ms ran in the transaction #1 began with its BEGIN (line \
         28) at 20 ms: `pool.query` sends each query on whichever of the pool's connections \
         came back last, and #1's came back with its transaction open. A transaction's queries \
         need one connection: take a client (`const c = await pool.connect()`), send them all \
         on it, then `c.release()`."
    );
    // The fix's link: the handler on a client of its own.
    let (config, program) = open(&format!("#{}", fix.fragment));
    let recording = Recording::of_program(&program, &config).unwrap();
    assert!(
        recording.violations.is_empty(),
        "{:?}",
        recording.violations
    );
}

/// A failure "What happened" can tell: in `signup_pg`, the second sign-in's
/// get-or-create statement waits for the first one's row, and goes on,
/// once the first commits, with the snapshot it took before the wait: no
/// rows, and `user.id` throws. The story says so in the script's lines;
/// the event-loop pane says what the statement got, in SQL's words. With
/// the `DO UPDATE` fix nothing fails and there is no story.
#[test]
fn a_failure_after_a_row_lock_wait_is_told_from_the_snapshot() {
    use interleave::debugger::narrate::describe_event;
    use interleave::explain::{explain_recording, StoryKind};
    use interleave::sim::What;
    let (config, program) = open("#v=1&scenario=script&example=signup_pg&users=1&clicks=2");
    let recording = Recording::of_program(&program, &config).unwrap();
    assert_eq!(recording.metrics.errors, 1);
    let explanation = explain_recording(&recording);
    let story = explanation.story.as_ref().expect("the failure's story");
    assert_eq!(story.kind, StoryKind::FailedRequest);
    // The story is told at the step the statement went on, 110 ms.
    assert_eq!((story.requests.as_slice(), story.step), (&[0, 1][..], 8));
    assert_eq!((story.check.time, story.act.time), (40_000, 110_000));
    assert_eq!(
        story.text,
        "#1's SELECT users (line 31) waited at 40 ms for a row lock #0 held. #0's COMMIT landed \
         at 110 ms, and the statement went on with the snapshot it had taken before the wait, \
         which has none of #0's new rows: it returned no rows. Then #1 failed: TypeError: Cannot \
         read properties of undefined (reading 'id') (line 44, column 73)."
    );
    assert!(
        explanation.summary.starts_with("#1 failed with TypeError"),
        "{}",
        explanation.summary
    );
    // The fix, found by running it: DO UPDATE returns the other's row.
    let fix = explanation.fix.as_ref().expect("a fix");
    assert_eq!(fix.outcome, "0 errors (was 1), p99 180 ms (was 160 ms)");
    assert!(
        fix.value
            .contains("ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email\n"),
        "{}",
        fix.value
    );
    let said: Vec<String> = recording
        .events
        .iter()
        .filter(|e| e.request == 1 && matches!(e.what, What::RowLockGrant | What::Complete(_)))
        .map(|e| describe_event(e, &recording.keys))
        .collect();
    assert_eq!(
        said[1..3],
        [
            "#1: SELECT users lands → waits for the row lock",
            "#1's statement on users goes on once the row lock it waited for is released → no rows",
        ]
    );

    let Program::Script(script) = &program else {
        panic!("a script");
    };
    let code = script.code.replace(
        "ON CONFLICT (email) DO NOTHING",
        "ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email",
    );
    assert_ne!(code, script.code);
    let fixed = interleave::debugger::program::edited_script(&code, script.schema.as_deref(), None);
    let recording = Recording::of_program(&fixed, &config).unwrap();
    assert_eq!(recording.metrics.errors, 0);
    assert_eq!(explain_recording(&recording).story, None);
}

/// The classic check-then-insert under a unique constraint: both clicks
/// find no row, the second INSERT breaks the constraint (23505) and the
/// request fails. The story says why, and the fix (run to check it) makes
/// the INSERT do nothing when the row exists.
#[test]
fn a_failure_on_a_unique_constraint_is_told_with_the_read_before_it() {
    use interleave::explain::{explain_recording, Cause, StoryKind};
    use interleave::script::source::encode;
    let code = "const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const { rows } = await pool.query('SELECT id FROM orders WHERE user_id = $1', [req.user]);
  if (rows.length === 0) {
    await pool.query('INSERT INTO orders (user_id) VALUES ($1)', [req.user]);
  }
}
";
    let schema = "CREATE TABLE orders (id serial PRIMARY KEY, user_id int UNIQUE);\n";
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&schema={}&users=3&clicks=2",
        encode(code),
        encode(schema)
    ));
    let recording = Recording::of_program(&program, &config).unwrap();
    assert_eq!(
        (
            recording.metrics.errors,
            recording.metrics.duplicate_tickets
        ),
        (3, 0)
    );
    let explanation = explain_recording(&recording);
    let story = explanation.story.as_ref().expect("the failure's story");
    assert_eq!(
        (story.kind, story.cause),
        (StoryKind::FailedRequest, Cause::DbDefence)
    );
    assert_eq!(
        story.text,
        "#1 read orders (line 4) at 20 ms and found nothing; #0's row (line 6) landed at 40 ms, \
         after that read. #1's INSERT orders (line 6) at 40 ms broke a unique constraint: the \
         database kept the second row out, and #1 failed: error: duplicate key value violates \
         unique constraint \"orders_user_id_key\"."
    );
    let fix = explanation.fix.as_ref().expect("a fix");
    assert_eq!(fix.outcome, "0 errors (was 3), p99 40 ms (was 40 ms)");
    // Shrunk by running the script: one user's double click is enough.
    let minimal = explanation.minimal.as_ref().expect("a smallest case");
    assert_eq!(
        (minimal.users, minimal.clicks, minimal.text.as_str()),
        (1, 2, "1 user, 2 clicks, 1 server, 0 preemptions")
    );
    assert!(minimal.fragment.starts_with("v=1&scenario=script&code="));
    let (config, program) = open(&format!("#{}", minimal.fragment));
    let smallest = Recording::of_program(&program, &config).unwrap();
    assert_eq!((config.users, smallest.metrics.errors), (1, 1));
    assert_eq!(
        fix.value,
        "'INSERT INTO orders (user_id) VALUES ($1) ON CONFLICT DO NOTHING'"
    );
}

/// The lock waits on a recording's timeline: (request, label, start, end,
/// outcome).
fn lock_waits(recording: &Recording) -> Vec<(u32, &'static str, u64, Option<u64>, Outcome)> {
    (recording.timeline.lanes.iter())
        .flat_map(|lane| lane.spans.iter().map(move |span| (lane.request, span)))
        .filter(|(_, span)| span.kind == SpanKind::LockWait)
        .map(|(request, span)| (request, span.label, span.start, span.end, span.outcome))
        .collect()
}

/// A double click on `SELECT … FOR UPDATE`: #1's statement lands at 40 ms
/// on the row #0 has just locked, and waits on the timeline until #0
/// commits at 100 ms.
#[test]
fn a_statement_waiting_for_a_row_lock_is_a_lock_wait_on_the_timeline() {
    let (config, program) =
        open("#v=1&scenario=script&example=ticket_pg_for_update&users=1&clicks=2");
    let recording = Recording::of_program(&program, &config).unwrap();
    assert_eq!(
        lock_waits(&recording),
        [(
            1,
            "waits for a row lock",
            40_000,
            Some(100_000),
            Outcome::Locked
        )]
    );
}

/// A transfer that takes two rows in opposite orders deadlocks on a
/// double click: each click's second UPDATE waits for the other's first
/// row. PostgreSQL's deadlock check for click 0, which waited first, runs
/// `deadlock_timeout` (1 s) after its wait began and fails it; "What
/// happened" tells the cycle and the check, and the event-loop pane says
/// when the check is due.
#[test]
fn a_deadlock_is_told_with_its_deadlock_check() {
    use interleave::debugger::narrate::describe_event;
    use interleave::explain::{explain_recording, Cause, StoryKind};
    use interleave::script::source::encode;
    use interleave::sim::Site;
    let code = "const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const client = await pool.connect();
  const [a, b] = req.click === 0 ? [1, 2] : [2, 1];
  try {
    await client.query('BEGIN');
    await client.query('UPDATE accounts SET balance = balance - 10 WHERE id = $1', [a]);
    await client.query('UPDATE accounts SET balance = balance + 10 WHERE id = $1', [b]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  } finally {
    client.release();
  }
}
";
    let schema = "CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL);
INSERT INTO accounts VALUES (1, 100), (2, 100);
";
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&schema={}&users=1&clicks=2",
        encode(code),
        encode(schema)
    ));
    let recording = Recording::of_program(&program, &config).unwrap();
    // Click 0 fails at 1,060 ms and rolls back (1,080); click 1 commits.
    assert_eq!(recording.metrics.errors, 1);
    assert_eq!(
        (
            recording.metrics.latency_us.p50,
            recording.metrics.latency_us.max
        ),
        (1_080_000, 1_080_000)
    );
    // The timeline: each click's second UPDATE waits for a row from 60 ms;
    // #0's wait ends at its deadlock check, failed, and #1's goes on then.
    assert_eq!(
        lock_waits(&recording),
        [
            (
                0,
                "waits for a row lock, until PostgreSQL's deadlock check",
                60_000,
                Some(1_060_000),
                Outcome::SerializationFailure
            ),
            (
                1,
                "waits for a row lock",
                60_000,
                Some(1_060_000),
                Outcome::Stored
            ),
        ]
    );
    let explanation = explain_recording(&recording);
    let story = explanation.story.as_ref().expect("the deadlock's story");
    assert_eq!(
        (story.kind, story.cause),
        (StoryKind::FailedRequest, Cause::Deadlock)
    );
    assert_eq!(story.requests, [1, 0]);
    assert_eq!(
        story.text,
        "#0's UPDATE accounts (line 9) waited at 60 ms for a row another transaction had locked; \
         #1's UPDATE accounts (line 9) at 60 ms closed a cycle of waits: each waited for a row \
         another had locked. PostgreSQL's deadlock check for #0 ran at 1060 ms, deadlock_timeout \
         after its wait began, and failed its statement (40P01); the others went on. Then #0 \
         failed: error: deadlock detected."
    );
    let said: Vec<String> = recording
        .events
        .iter()
        .filter(|e| e.site == Site::DeadlockTimeout)
        .map(|e| describe_event(e, &recording.keys))
        .collect();
    assert_eq!(
        said,
        [
            "#0 waits in a cycle of waits: PostgreSQL's deadlock check for it runs in 1000 ms \
             (deadlock_timeout)",
            "PostgreSQL's deadlock check for #0 runs",
        ]
    );
}

/// `SET LOCAL lock_timeout` (`tests/pg/lock_timeout.js`): the second
/// click's locking read waits for the first's row on the timeline until
/// its lock_timeout runs out 50 ms later, failed, and the event-loop pane
/// says when it is due. A timeout longer than the wait is taken back when
/// the row comes: the click books after the first, as without one.
#[test]
fn a_lock_timeout_ends_a_row_wait_on_the_timeline() {
    use interleave::debugger::narrate::describe_event;
    use interleave::script::source::encode;
    use interleave::sim::Site;
    let code = include_str!("pg/lock_timeout.js");
    let schema = include_str!("pg/lock_timeout.sql");
    let record = |code: &str| {
        let (config, program) = open(&format!(
            "#v=1&scenario=script&code={}&schema={}&users=2&clicks=1",
            encode(code),
            encode(schema)
        ));
        Recording::of_program(&program, &config).unwrap()
    };
    // #1's SELECT … FOR UPDATE lands at 80 ms on #0's row; cancelled at
    // 130 ms, it rolls back (150) and shows the setting gone (170).
    let recording = record(code);
    assert_eq!(
        lock_waits(&recording),
        [(
            1,
            "waits for a row lock, until its lock_timeout",
            80_000,
            Some(130_000),
            Outcome::Failed
        )]
    );
    let told: Vec<String> = (recording.events.iter())
        .filter(|e| e.site == Site::LockTimeout)
        .map(|e| describe_event(e, &recording.keys))
        .collect();
    assert_eq!(
        told,
        [
            "#1's statement waits for a lock: PostgreSQL cancels it in 50 ms unless it gets it (lock_timeout)",
            "#1's lock_timeout runs out: PostgreSQL cancels its statement"
        ]
    );
    assert_eq!(
        (
            recording.metrics.latency_us.p50,
            recording.metrics.latency_us.max
        ),
        (170_000, 340_000)
    );
    // With 5 s, #1 gets the row when #0 commits at 320 ms and books; its
    // timer goes, so it answers at 580 ms, not 5 s on.
    let patient = record(&code.replace("'50ms'", "'5s'"));
    assert_eq!(
        lock_waits(&patient),
        [(
            1,
            "waits for a row lock",
            80_000,
            Some(320_000),
            Outcome::Locked
        )]
    );
    assert_eq!(
        (patient.metrics.errors, patient.metrics.latency_us.max),
        (0, 580_000)
    );
}

/// A call made through a helper that many different calls go through (a
/// `query(client, text, values)` function, a promise wrapper of a callback
/// client's methods) is told at the line that called the helper: the
/// story names the handler's read and write, and the fix edits the
/// handler's own SELECT. A helper that always does the same thing (one
/// statement, one table) keeps its own line.
#[test]
fn a_call_through_a_shared_helper_is_told_at_the_line_that_called_it() {
    let code = r#"const { Pool } = require("pg");
const pool = new Pool();
async function query(client, text, values) {
  const result = await client.query(text, values);
  return result;
}
async function handle(req) {
  const c = await pool.connect();
  try {
    await query(c, "BEGIN");
    const { rows } = await query(c, "SELECT n FROM daily WHERE day = $1", ["d"]);
    await query(c, "UPDATE daily SET n = $2 WHERE day = $1", ["d", rows[0].n + 1]);
    await query(c, "COMMIT");
  } finally {
    c.release();
  }
}
"#;
    let racy = record_users(code, DAILY, 2);
    assert_eq!(lost_requests(&racy), vec![1]);
    let fix = daily_fixed_for_update(
        &racy,
        "#1 read daily (line 11) at 40 ms; #0 wrote it (line 12) at 60 ms;",
    );
    assert!(
        fix.text
            .starts_with("the SELECT on line 11 locks the row it reads"),
        "{}",
        fix.text
    );
    assert!(fix.outcome.starts_with("no lost update"), "{}", fix.outcome);

    // A helper of one statement keeps its line.
    let read = r#"const { Pool } = require("pg");
const pool = new Pool();
async function readN(client) {
  const { rows } = await client.query("SELECT n FROM daily WHERE day = $1", ["d"]);
  return rows[0].n;
}
async function handle(req) {
  const c = await pool.connect();
  try {
    await c.query("BEGIN");
    const n = await readN(c);
    await c.query("UPDATE daily SET n = $2 WHERE day = $1", ["d", n + 1]);
    await c.query("COMMIT");
  } finally {
    c.release();
  }
}
"#;
    let told = first_story(&record_users(read, DAILY, 2));
    assert!(
        told.text
            .starts_with("#1 read daily (line 4) at 40 ms; #0 wrote it (line 12) at 60 ms;"),
        "{}",
        told.text
    );

    // memcached's callback client behind one promise wrapper.
    let told = first_story(&record_users(include_str!("memcached/visits.js"), "", 2));
    assert!(
        told.text
            .starts_with("#1 read visits (line 11) at 2 ms; #0 wrote it (line 12) at 3 ms;"),
        "{}",
        told.text
    );
}

/// The coupon a handler counts, then redeems: `SELECT count(*)` of its
/// redemptions, `if (n >= 2) return 410`, `INSERT`.
const COUPON: &str = "CREATE TABLE redemptions (id serial PRIMARY KEY, coupon text NOT NULL, \
                      user_id int NOT NULL);";

fn coupon_handler(coupon_counted: &str) -> String {
    format!(
        r#"const {{ Pool }} = require("pg");
const pool = new Pool();
async function handle(req) {{
  const {{ rows }} = await pool.query("SELECT count(*)::int AS n FROM redemptions WHERE coupon = $1", ["{coupon_counted}"]);
  if (rows[0].n >= 2) return {{ status: 410 }};
  await pool.query("INSERT INTO redemptions (coupon, user_id) VALUES ($1, $2)", ["SPRING", req.user]);
  return {{ status: 201 }};
}}
"#
    )
}

fn skewed_requests(recording: &Recording) -> Vec<u32> {
    recording
        .violations
        .iter()
        .filter(|v| v.kind == interleave::debugger::ViolationKind::WriteSkew)
        .map(|v| v.request)
        .collect()
}

/// Three users redeem a coupon limited to two: each counts 0 at 20 ms,
/// each inserts at 40 ms, and three rows land. #0's insert is the first
/// commit since the reads; #1's and #2's land in what their counts had
/// matched after #0's (and #1's) row did: write skew, twice. No
/// uniqueness is broken and no row was changed, so before it was found
/// nothing was told. Counting another coupon than the one inserted, or
/// not using the count, is no check of what it inserts.
#[test]
fn a_count_checked_before_an_insert_is_write_skew() {
    let racy = record_users(&coupon_handler("SPRING"), COUPON, 3);
    assert_eq!(racy.metrics.db_writes, 3);
    assert_eq!(skewed_requests(&racy), vec![1, 2]);
    assert_eq!(lost_requests(&racy), Vec::<u32>::new());
    let story = first_story(&racy);
    assert_eq!(story.kind, interleave::explain::story::StoryKind::WriteSkew);
    assert_eq!(
        story.text,
        "#1 read redemptions (line 4) at 20 ms; #0 inserted into it (line 6) at 40 ms; #1 \
         inserted into it (line 6) at 40 ms on what it had read, which missed #0's row (the \
         check and the insert are two steps, and nothing keeps others out between them)."
    );
    // The fix: the lines from the count to the insert in one transaction
    // that locks the table first; two redemptions, the third answers 410.
    let fix = interleave::explain::data_fix(&racy, &story).expect("a fix");
    assert!(
        fix.text.starts_with(
            "lines 4 to 6 in one transaction on a client of their own, with LOCK TABLE \
             redemptions IN SHARE ROW EXCLUSIVE MODE first"
        ),
        "{}",
        fix.text
    );
    assert!(fix.text.contains("no write skew, 0 errors"), "{}", fix.text);
    assert_eq!(fix.metrics.db_writes, 2);
    assert_eq!(
        fix.value,
        r#"  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("LOCK TABLE redemptions IN SHARE ROW EXCLUSIVE MODE");
    const { rows } = await client.query("SELECT count(*)::int AS n FROM redemptions WHERE coupon = $1", ["SPRING"]);
    if (rows[0].n >= 2) return { status: 410 };
    await client.query("INSERT INTO redemptions (coupon, user_id) VALUES ($1, $2)", ["SPRING", req.user]);
    await client.query("COMMIT");
  } finally {
    await client.query("ROLLBACK"); // ends what a return or a throw left open; after COMMIT, a no-op
    client.release();
  }"#
    );
    // Another coupon's count checks nothing this insert changes.
    let other = record_users(&coupon_handler("WINTER"), COUPON, 3);
    assert_eq!(other.metrics.db_writes, 3);
    assert_eq!(skewed_requests(&other), Vec::<u32>::new());
    // A count the code never looks at decides nothing.
    let unused =
        coupon_handler("SPRING").replace("  if (rows[0].n >= 2) return { status: 410 };\n", "");
    assert_ne!(unused, coupon_handler("SPRING"));
    assert_eq!(
        skewed_requests(&record_users(&unused, COUPON, 3)),
        Vec::<u32>::new()
    );
    // One user alone never races.
    assert_eq!(
        skewed_requests(&record_users(&coupon_handler("SPRING"), COUPON, 1)),
        Vec::<u32>::new()
    );
}

/// The same check in a READ COMMITTED transaction: the three count 0 at
/// 40 ms and insert at 60 ms, unseen by each other until their commits at
/// 80 ms; #1's and #2's commits publish rows their counts missed. It is
/// told at the INSERT, and the fix locks the table after BEGIN (`FOR
/// UPDATE` is refused beside an aggregate, and locks no row not there
/// yet): two redemptions, the third request's count sees them and it
/// answers 410. An advisory lock taken first, or SERIALIZABLE (which fails
/// the third with 40001), leaves no skew.
#[test]
fn a_count_checked_in_a_transaction_is_write_skew_at_commit_and_the_table_lock_fixes_it() {
    let code = r#"const { Pool } = require("pg");
const pool = new Pool();
async function handle(req) {
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
}
"#;
    let racy = record_users(code, COUPON, 3);
    assert_eq!(skewed_requests(&racy), vec![1, 2]);
    let story = first_story(&racy);
    assert_eq!(
        story.text,
        "#1 read redemptions (line 7) at 40 ms; #0 inserted into it (line 12) at 60 ms; #1 \
         inserted into it (line 12) at 60 ms, committed (line 13) at 80 ms on what it had read, \
         which missed #0's row (the check and the insert are two steps, and nothing keeps \
         others out between them)."
    );
    let fix = interleave::explain::data_fix(&racy, &story).expect("a fix");
    assert!(
        fix.text.starts_with(
            "LOCK TABLE redemptions IN SHARE ROW EXCLUSIVE MODE after the BEGIN on line 6"
        ),
        "{}",
        fix.text
    );
    assert!(fix.text.contains("no write skew, 0 errors"), "{}", fix.text);
    assert_eq!(fix.metrics.db_writes, 2);
    let advisory = code.replace(
        "    await client.query(\"BEGIN\");\n",
        "    await client.query(\"BEGIN\");\n    await client.query(\"SELECT pg_advisory_xact_lock(42)\");\n",
    );
    assert_ne!(advisory, code);
    let locked = record_users(&advisory, COUPON, 3);
    assert_eq!(skewed_requests(&locked), Vec::<u32>::new());
    assert_eq!(locked.metrics.db_writes, 2);
    let serializable = code.replace("\"BEGIN\"", "\"BEGIN ISOLATION LEVEL SERIALIZABLE\"");
    let refused = record_users(&serializable, COUPON, 3);
    assert_eq!(skewed_requests(&refused), Vec::<u32>::new());
    assert_eq!(refused.metrics.errors, 2);
}

/// The last admin: three admins each demote themselves unless they are
/// the last one (`SELECT count(*)`, then an `UPDATE` of the request's own
/// row). Each counts 3 at 20 ms and each writes its own row at 40 ms, so
/// no row another request changed is written (no lost update), yet none
/// is left: #1's and #2's updates land in what their counts matched after
/// #0's update changed it. A `DELETE` is told as one. The fix runs the
/// lines in one transaction that locks the table first: one admin stays.
#[test]
fn a_count_checked_before_an_update_or_a_delete_is_write_skew() {
    let schema = "CREATE TABLE members (id int PRIMARY KEY, role text NOT NULL);\n\
                  INSERT INTO members VALUES (1, 'admin'), (2, 'admin'), (3, 'admin');";
    let demote = r#"const { Pool } = require("pg");
const pool = new Pool();
async function handle(req) {
  const { rows } = await pool.query("SELECT count(*)::int AS admins FROM members WHERE role = 'admin'");
  if (rows[0].admins <= 1) return { status: 409 };
  await pool.query("UPDATE members SET role = 'member' WHERE id = $1", [req.user + 1]);
}
"#;
    let racy = record_users(demote, schema, 3);
    assert_eq!(skewed_requests(&racy), vec![1, 2]);
    assert_eq!(lost_requests(&racy), Vec::<u32>::new());
    let story = first_story(&racy);
    assert_eq!(
        story.text,
        "#1 read members (line 4) at 20 ms; #0 updated it (line 6) at 40 ms; #1 updated it (line \
         6) at 40 ms on what it had read, which missed #0's update (the check and the update are \
         two steps, and nothing keeps others out between them)."
    );
    let fix = interleave::explain::data_fix(&racy, &story).expect("a fix");
    assert!(fix.text.contains("no write skew, 0 errors"), "{}", fix.text);
    // Two demotions; the third request's count finds one admin and stops.
    assert_eq!(fix.metrics.db_writes, 2);
    let remove = demote.replace(
        "UPDATE members SET role = 'member' WHERE id = $1",
        "DELETE FROM members WHERE id = $1",
    );
    assert_ne!(remove, demote);
    let removed = record_users(&remove, schema, 3);
    assert_eq!(skewed_requests(&removed), vec![1, 2]);
    assert!(
        first_story(&removed)
            .text
            .contains("#0 deleted from it (line 6) at 40 ms; #1 deleted from it (line 6)"),
        "{}",
        first_story(&removed).text
    );
}

/// The coupon written with postgres.js (an ES module, tagged templates):
/// the same write skew, told at the template's lines; in `sql.begin`, at
/// its INSERT's line, published by the COMMIT postgres.js sends.
#[test]
fn a_count_checked_with_postgres_js_is_write_skew() {
    let code = r#"import postgres from "postgres";
const sql = postgres();
export async function handle(req) {
  const [{ n }] = await sql`SELECT count(*)::int AS n FROM redemptions WHERE coupon = ${"SPRING"}`;
  if (n >= 2) return { status: 410 };
  await sql`INSERT INTO redemptions (coupon, user_id) VALUES (${"SPRING"}, ${req.user})`;
}
"#;
    let racy = record_users(code, COUPON, 3);
    assert_eq!(racy.metrics.db_writes, 3);
    assert_eq!(skewed_requests(&racy), vec![1, 2]);
    assert_eq!(
        first_story(&racy).text,
        "#1 read redemptions (line 4) at 20 ms; #0 inserted into it (line 6) at 40 ms; #1 \
         inserted into it (line 6) at 40 ms on what it had read, which missed #0's row (the \
         check and the insert are two steps, and nothing keeps others out between them)."
    );
    let in_begin = code
        .replace(
            "export async function handle(req) {\n",
            "export async function handle(req) {\n  return sql.begin(async (sql) => {\n",
        )
        .replace("\n}\n", "\n  });\n}\n");
    assert_ne!(in_begin, code);
    let racy = record_users(&in_begin, COUPON, 3);
    assert_eq!(skewed_requests(&racy), vec![1, 2]);
    let story = first_story(&racy);
    assert!(
        story
            .text
            .contains("#1 inserted into it (line 7) at 60 ms, committed at 80 ms"),
        "{}",
        story.text
    );
    // The fix locks the table first in the `sql.begin` callback.
    let fix = interleave::explain::data_fix(&racy, &story).expect("a fix");
    assert_eq!(
        fix.value,
        "await sql`LOCK TABLE redemptions IN SHARE ROW EXCLUSIVE MODE`;"
    );
    assert!(fix.text.contains("no write skew, 0 errors"), "{}", fix.text);
    assert_eq!(fix.metrics.db_writes, 2);
}

/// An EXEC's landing says whether it ran or a WATCHed key aborted it
/// (not "stored", which a read-only batch such as getMulti never did):
/// `examples/scripts/redis_watch.js` fixed with a connection per request,
/// two buyers at once. The first EXEC runs; the second's watched `stock`
/// changed, so it answers null.
#[test]
fn an_exec_lands_as_ran_or_aborted() {
    use interleave::debugger::narrate::describe_event;
    use interleave::script::source::encode;
    use interleave::sim::trace::OpKind;
    use interleave::sim::What;
    let code = include_str!("../examples/scripts/redis_watch.js")
        .replace(
            "export async function handle(req) {\n",
            "export async function handle(req) {\n  const redis = base.duplicate();\n",
        )
        .replace(
            "const redis = new Redis();\nawait redis.set",
            "const base = new Redis();\nawait base.set",
        );
    assert!(code.contains("base.duplicate()") && code.contains("await base.set"));
    let (config, program) = open(&format!(
        "#v=1&scenario=script&code={}&users=2&clicks=1",
        encode(&code)
    ));
    let recording = Recording::of_program(&program, &config).unwrap();
    let said: Vec<String> = recording
        .events
        .iter()
        .filter(|e| e.what == What::Complete(OpKind::CacheExec))
        .map(|e| describe_event(e, &recording.keys))
        .collect();
    assert_eq!(
        said,
        [
            "#0: cache.exec stock lands → ran",
            "#1: cache.exec stock lands → aborted: a watched key changed",
        ]
    );
}
