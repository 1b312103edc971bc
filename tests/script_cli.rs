//! The CLI's script commands, through the binary: `run --script`,
//! `scenario=script&code=`/`example=`, `encode`, `explore --script`, and
//! bad scripts (exit 2, the message names `code`).
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use std::process::{Command, Output};

fn interleave(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(args)
        .output()
        .expect("the CLI runs")
}

fn json(output: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&output.stdout);
    let last = text.lines().last().expect("a JSON line");
    serde_json::from_str(last).expect("JSON")
}

fn write_script(name: &str, code: &str) -> String {
    let path = std::env::temp_dir().join(format!("interleave-{}-{name}", std::process::id()));
    std::fs::write(&path, code).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn run_script_file_and_the_same_code_in_the_url() {
    let file = "examples/scripts/ticket.js";
    let by_file = interleave(&["run", "--script", file, "users=3&clicks=2&strategy=none"]);
    assert!(by_file.status.success());
    let metrics = json(&by_file);
    assert_eq!(metrics["orders"], 6);
    assert_eq!(metrics["duplicate_tickets"], 3);
    assert_eq!(metrics["custom"], serde_json::json!({}));
    let encoded = interleave(&["encode", file]);
    assert!(encoded.status.success());
    let code = String::from_utf8(encoded.stdout).unwrap();
    let fragment = format!("v=1&scenario=script&code={}&users=3&clicks=2", code.trim());
    let by_url = interleave(&["run", &fragment]);
    assert_eq!(json(&by_url), metrics);
    let by_example = interleave(&["run", "scenario=script&example=ticket&users=3&clicks=2"]);
    assert_eq!(json(&by_example), metrics);
}

#[test]
fn trace_lines_carry_the_script_line() {
    let output = interleave(&[
        "run",
        "--trace",
        "scenario=script&example=ticket&users=1&clicks=1",
    ]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    let find = text
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|event| event["op"] == "db_find_one")
        .expect("a findOne");
    // `const order = await db.findOne(...)` is line 14 of ticket.js.
    assert_eq!(find["line"], 14);
}

#[test]
fn a_bad_script_exits_2_naming_code() {
    let path = write_script("bad.js", "async function handle(req) {\n  let x = ;\n}\n");
    let output = interleave(&["run", "--script", &path, "users=1"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`code`: line 2, column"), "{stderr}");
    let output = interleave(&["run", "scenario=script&code=%%%"]);
    assert_eq!(output.status.code(), Some(2));
    let output = interleave(&["run", "scenario=script&users=1"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`code`"), "{stderr}");
}

#[test]
fn a_run_kept_going_by_a_timer_stops_at_the_budget_with_hung_requests() {
    let path = write_script(
        "hang.js",
        "setInterval(() => {}, 1);\nasync function handle(req) {\n  if (req.id === 1) await new Promise(() => {});\n}\n",
    );
    let output = interleave(&[
        "run",
        "--script",
        &path,
        "users=2&clicks=1",
        "--max-events",
        "500",
    ]);
    assert!(output.status.success());
    let metrics = json(&output);
    assert_eq!(
        (metrics["hung"].as_u64(), metrics["events"].as_u64()),
        (Some(1), Some(500))
    );
}

#[test]
fn explore_a_script() {
    let output = interleave(&[
        "explore",
        "--script",
        "examples/scripts/ticket.js",
        "users=1&clicks=2&strategy=keyed-mutex&servers=2",
    ]);
    assert!(output.status.success());
    let result = json(&output);
    // Two servers: a click's find and the other's insert touch one table,
    // the rest commute (sleep sets); the naive search runs 10 schedules.
    assert_eq!(result["explored"], 5);
    assert_eq!(result["violating"], 2);
    assert_eq!(result["complete"], true);
    assert_eq!(result["naive_estimate"], 7);
    let output = interleave(&[
        "explore",
        "--script",
        "examples/scripts/ticket.js",
        "--no-reduction",
        "users=1&clicks=2&strategy=keyed-mutex&servers=2",
    ]);
    let result = json(&output);
    assert_eq!(
        (result["explored"].as_u64(), result["violating"].as_u64()),
        (Some(10), Some(6))
    );
}

#[test]
fn a_scripts_search_checks_lost_updates_unless_told() {
    // A counter's get then set: no row is duplicated, but 2 of the 4
    // reduced schedules lose an update, which the default checks find.
    let counter = write_script(
        "counter.js",
        "async function handle(req) {\n  const n = (await cache.get(\"count\")) ?? 0;\n  await cache.set(\"count\", n + 1);\n}\n",
    );
    let search = |check: &[&str]| {
        let args = [
            &["explore", "--script", &counter][..],
            check,
            &["users=2&clicks=1"],
        ]
        .concat();
        let result = json(&interleave(&args));
        (result["explored"].as_u64(), result["violating"].as_u64())
    };
    assert_eq!(search(&[]), (Some(4), Some(2)));
    assert_eq!(search(&["--check", "duplicates"]), (Some(4), Some(0)));
    assert_eq!(search(&["--check", "lost-updates"]), (Some(4), Some(2)));
}

#[test]
fn a_scripts_search_counts_the_checks_it_was_not_asked_for() {
    // signup_pg's get-or-create: no duplicate row (the email is unique) and
    // no lost update, but a schedule where both clicks find no user fails
    // the second insert (23505). The default search says so beside its "0
    // violating", with the count a search for errors finds.
    let search = |check: &[&str]| {
        let args = [
            &["explore"][..],
            check,
            &["v=1&scenario=script&example=signup_pg&users=1&clicks=2"],
        ]
        .concat();
        json(&interleave(&args))
    };
    let default = search(&[]);
    assert_eq!(
        (default["explored"].as_u64(), default["violating"].as_u64()),
        (Some(64), Some(0))
    );
    assert_eq!(
        default["unchecked"],
        serde_json::json!({"exclusion": 0, "errors": 42})
    );
    let errors = search(&["--check", "errors"]);
    assert_eq!(
        (errors["explored"].as_u64(), errors["violating"].as_u64()),
        (Some(64), Some(42))
    );
    assert_eq!(
        errors["unchecked"],
        serde_json::json!({"duplicates": 0, "exclusion": 0, "lost-updates": 0, "shared-transactions": 0})
    );
}

#[test]
fn explore_a_script_at_random_and_under_every_strategy() {
    let output = interleave(&[
        "explore",
        "--script",
        "examples/scripts/ticket.js",
        "--method",
        "pct",
        "--max-schedules",
        "20",
        "users=1&clicks=2",
    ]);
    assert!(output.status.success());
    let result = json(&output);
    assert_eq!(result["explored"], 20);
    assert_eq!(result["complete"], false);
    let output = interleave(&[
        "explore",
        "--script",
        "examples/scripts/ticket.js",
        "--all-strategies",
        "--max-schedules",
        "100",
        "users=1&clicks=2",
    ]);
    assert!(output.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert!(lines.len() > 5, "{lines:?}");
    let none = lines
        .iter()
        .find(|line| line["strategy"] == "none")
        .unwrap();
    assert!(none["violating"].as_u64() > Some(0));
    assert!(none["summary"].as_str().unwrap().starts_with("none: "));
}

#[test]
fn a_typescript_file_runs_with_its_types_stripped() {
    let ts = "db.table('orders', { expectUnique: ['user', 'event'] });\n\
              interface Req { user: number }\n\
              export async function handle(req: Req): Promise<void> {\n\
              \x20 const found = await db.findOne('orders', { user: req.user, event: 1 }) as object | null;\n\
              \x20 if (!found) await db.insert('orders', { user: req.user, event: 1 });\n\
              }\n";
    let path = write_script("handler.ts", ts);
    let output = interleave(&["run", "--script", &path, "users=1&clicks=2"]);
    assert!(output.status.success(), "{output:?}");
    let metrics = json(&output);
    assert_eq!(
        (
            metrics["orders"].as_u64(),
            metrics["duplicate_tickets"].as_u64()
        ),
        (Some(2), Some(1))
    );
    // What strip-only mode refuses names `code`, line and column.
    let path = write_script("enum.ts", "async function handle() {}\nenum E { A }\n");
    let output = interleave(&["run", "--script", &path, "users=1"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`code`: line 2, column 1: TypeScriptError: TypeScript enum"),
        "{stderr}"
    );
}

/// A failed request says why in `run`'s JSON: `error_messages`, in the
/// order the requests failed, with the line that threw.
#[test]
fn run_reports_why_each_request_failed() {
    let file = write_script(
        "boom.js",
        "async function handle(req) {\n  if (req.click === 1) throw new Error(\"boom\");\n  await fetch(\"https://example.com\");\n}\n",
    );
    let output = interleave(&["run", "--script", &file, "users=1&clicks=2"]);
    assert!(output.status.success());
    let metrics = json(&output);
    assert_eq!(metrics["errors"], 2);
    assert_eq!(
        metrics["error_messages"],
        serde_json::json!([
            format!(
                "request 0: ReferenceError: fetch is not defined (line 3, column 9); the globals \
                 are {}",
                interleave::script::run::GLOBALS
            ),
            "request 1: Error: boom (line 2, column 34)"
        ])
    );
}

/// `--schema` gives the `pg` module its tables; a bad schema names `schema`.
#[test]
fn run_with_a_schema() {
    let schema = write_script(
        "schema.sql",
        "CREATE TABLE orders (id serial PRIMARY KEY, user_id int NOT NULL);\n-- expect unique: orders (user_id)\n",
    );
    let file = write_script(
        "pg.js",
        "const { Pool } = require('pg');\nconst pool = new Pool();\nasync function handle(req) {\n  const { rowCount } = await pool.query('SELECT 1 FROM orders WHERE user_id = $1', [req.user]);\n  if (rowCount === 0) await pool.query('INSERT INTO orders (user_id) VALUES ($1)', [req.user]);\n}\n",
    );
    let output = interleave(&[
        "run",
        "--script",
        &file,
        "--schema",
        &schema,
        "users=2&clicks=2",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metrics = json(&output);
    assert_eq!(
        (
            metrics["orders"].as_u64(),
            metrics["duplicate_tickets"].as_u64()
        ),
        (Some(4), Some(2))
    );
    let bad = write_script(
        "bad.sql",
        "CREATE TABLE t (a int);\nCREATE VIEW v AS SELECT 1;\n",
    );
    let output = interleave(&["run", "--script", &file, "--schema", &bad, "users=1"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`schema`: ") && stderr.contains("CREATE VIEW"),
        "{stderr}"
    );
}

/// `--route` (or the fragment's `route=`) sends the requests to one route
/// of the script's app, for `run` and `explore`; a route the app lacks
/// exits 2 naming `route` and the routes it has.
#[test]
fn run_and_explore_on_a_chosen_route() {
    let file = write_script(
        "routes.js",
        r#"const app = require("express")();
app.use(require("express").json());
app.get("/health", (req, res) => res.send("ok"));
db.table("orders", { expectUnique: ["user", "event"] });
app.post("/orders/:id/pay", async (req, res) => {
  if (await db.findOne("orders", { user: req.body.user, event: 1 })) return res.status(409).end();
  await db.insert("orders", { user: req.body.user, event: 1 });
  res.status(201).end();
});
app.listen(3000);
"#,
    );
    let custom = |args: &[&str]| {
        let output = interleave(args);
        assert!(output.status.success(), "{output:?}");
        json(&output)["custom"].clone()
    };
    let by_default = custom(&["run", "--script", &file, "users=1&clicks=2"]);
    assert_eq!(by_default, serde_json::json!({ "status_201": 2 }));
    let by_flag = custom(&[
        "run",
        "--script",
        &file,
        "--route",
        "GET /health",
        "users=1&clicks=2",
    ]);
    assert_eq!(by_flag, serde_json::json!({ "status_200": 2 }));
    let by_fragment = custom(&[
        "run",
        "--script",
        &file,
        "users=1&clicks=2&route=GET%20/health",
    ]);
    assert_eq!(by_fragment, by_flag);
    // The flag wins over the fragment.
    let both = custom(&[
        "run",
        "--script",
        &file,
        "--route",
        "POST /orders/:id/pay",
        "users=1&clicks=2&route=GET%20/health",
    ]);
    assert_eq!(both, by_default);
    let bad = interleave(&["run", "--script", &file, "--route", "POST /x", "users=1"]);
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains(
            "`route`: no route POST /x: the app registers GET /health, POST /orders/:id/pay"
        ),
        "{stderr}"
    );
    // Explore: the pay route races (two clicks both insert), and its
    // counterexample's link keeps the route; the health route has nothing
    // to race on.
    let encoded = interleave(&["encode", &file]);
    let code = String::from_utf8(encoded.stdout).unwrap();
    let explore = |args: &[&str]| {
        let output = interleave(&[&["explore", "--check", "duplicates"], args].concat());
        assert!(output.status.success(), "{output:?}");
        json(&output)
    };
    let pay = explore(&[&format!(
        "scenario=script&code={}&users=1&clicks=2&route=POST%20/orders/:id/pay",
        code.trim()
    )]);
    assert!(pay["violating"].as_u64().unwrap() > 0, "{pay}");
    let link = pay["counterexample"].as_str().unwrap();
    assert!(link.contains("&route=POST%20/orders/:id/pay&"), "{link}");
    let health = explore(&[
        "--script",
        &file,
        "--route",
        "GET /health",
        "users=1&clicks=2",
    ]);
    assert_eq!(health["violating"], 0);
    let bad = interleave(&[
        "explore",
        "--script",
        &file,
        "--route",
        "PUT /health",
        "users=1",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `explain` tells a script's race and the fix found by running it: for
/// a file with its schema (`--script`, `--schema`) and for a fragment's
/// `example=`; `--json` gives the same explanation as one object.
#[test]
fn explain_a_scripts_race_and_its_fix() {
    let schema = write_script(
        "explain.sql",
        "CREATE TABLE orders (id serial PRIMARY KEY, user_id int NOT NULL);\n-- expect unique: orders (user_id)\n",
    );
    let file = write_script(
        "explain.js",
        "const { Pool } = require('pg');\nconst pool = new Pool();\nasync function handle(req) {\n  const { rowCount } = await pool.query('SELECT 1 FROM orders WHERE user_id = $1', [req.user]);\n  if (rowCount === 0) await pool.query('INSERT INTO orders (user_id) VALUES ($1)', [req.user]);\n}\n",
    );
    let output = interleave(&[
        "explain",
        "--script",
        &file,
        "--schema",
        &schema,
        "users=1&clicks=2",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "duplicate row at step 6", "{text}");
    assert!(
        lines[2].starts_with("why: #1 read orders (line 4) at 20 ms and found nothing"),
        "{text}"
    );
    assert_eq!(
        lines[3..6],
        [
            "fix: the INSERT on line 5 does nothing when the row exists, and the schema declares \
             the unique index: 0 duplicate rows (was 1), 0 errors, p99 40 ms (was 40 ms); paste:",
            "    'INSERT INTO orders (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING'",
            "    CREATE UNIQUE INDEX orders_user_id_key ON orders (user_id);",
        ],
        "{text}"
    );
    assert!(
        lines[6].starts_with("  #v=1&scenario=script&code="),
        "{text}"
    );
    let output = interleave(&[
        "explain",
        "--json",
        "v=1&scenario=script&example=ticket_pg&users=1&clicks=2",
    ]);
    let explanation = json(&output);
    assert_eq!(explanation["fix"]["key"], "code");
    assert_eq!(
        explanation["fix"]["outcome"],
        "0 duplicate rows (was 1), 0 errors, p99 40 ms (was 40 ms)"
    );
}
