//! The `interleave` binary, as scripts and the acceptance cases call it.
#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Output};

use interleave::config::StrategyKind;
use serde_json::Value;

fn interleave(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The one JSON object a successful command prints.
fn json_of(args: &[&str]) -> Value {
    let output = interleave(args);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "one JSON object: {stdout}");
    serde_json::from_str(&stdout).unwrap()
}

fn metrics(fragment: &str) -> Value {
    json_of(&["run", fragment])
}

#[test]
fn run_prints_every_metric_of_the_design() {
    let json = metrics("v=1&scenario=ticket&strategy=none");
    let names = [
        "db_reads",
        "db_writes",
        "orders",
        "duplicate_tickets",
        "cache_hits",
        "cache_misses",
        "stale_served",
        "timeouts",
        "errors",
        "lock_wakeups",
        "max_in_critical_section",
        "peak_db_concurrency",
        "events",
    ];
    for name in names {
        assert!(json[name].is_u64(), "{name} in {json}");
    }
    for name in ["p50", "p99", "max"] {
        assert!(json["latency_us"][name].is_u64(), "latency_us.{name}");
    }
    assert_eq!(json["trace_hash"].as_str().map(str::len), Some(16));
    assert_eq!(json["duplicate_tickets"], 1);
}

#[test]
fn run_takes_the_fault_and_fix_keys() {
    // tests/lock_variants.rs works this run out by hand.
    let json = metrics("v=1&scenario=ticket&strategy=add&lock_ttl=5ms&pause=0:30ms&fencing=true");
    for name in ["rejected_writes", "early_refreshes", "hung"] {
        assert!(json[name].is_u64(), "{name} in {json}");
    }
    assert_eq!(json["rejected_writes"], 1);
    assert_eq!(json["max_in_critical_section"], 2);
    let json = metrics("scenario=stampede&strategy=emitter-lock");
    assert_eq!(json["lock_wakeups"], 36);
    let output = interleave(&["run", "scenario=ticket&pause=1"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("`pause`"), "{stderr}");
}

#[test]
fn a_fragment_a_hash_and_a_whole_url_are_the_same_run() {
    let fragment = "v=1&scenario=stampede&strategy=add&requests=5";
    let bare = metrics(fragment);
    assert_eq!(metrics(&format!("#{fragment}")), bare);
    assert_eq!(
        metrics(&format!("http://127.0.0.1:8080/?x=1#{fragment}")),
        bare
    );
    assert_eq!(bare["db_reads"], 1);
}

#[test]
fn bad_input_exits_2_with_a_message_naming_the_key() {
    let output = interleave(&["run", "scenario=stampede&db_latency=fast"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("db_latency"), "{stderr}");
    assert!(
        stderr.contains("const:D"),
        "lists the accepted forms: {stderr}"
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["run"][..],
        &["walk", "scenario=ticket"][..],
        &["run", "scenario=ticket", "--frobnicate"][..],
        &["run", "a", "b"][..],
    ] {
        let output = interleave(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty());
    }
}

#[test]
fn garbage_never_panics() {
    for input in [
        "",
        "#",
        "&&&",
        "=",
        "scenario",
        "scenario=%FF%FE",
        "v=99999999999999999999",
    ] {
        let output = interleave(&["run", input]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{input}: {stderr}");
        assert!(matches!(output.status.code(), Some(0 | 2)), "{input}");
    }
}

#[test]
fn trace_prints_json_lines_then_the_metrics() {
    let output = interleave(&["run", "scenario=ticket&strategy=keyed-mutex", "--trace"]);
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (metrics, events) = lines.split_last().unwrap();
    assert_eq!(metrics["duplicate_tickets"], 0);
    assert_eq!(events[0]["what"], "arrive");
    let find = events
        .iter()
        .find(|e| e["what"] == "issue" && e["op"] == "db_find_order")
        .expect("a find is issued");
    assert_eq!(find["key"], "user:0:event");
    assert!(find["line"].is_u64(), "the awaited source line: {find}");
    let returns = events.iter().filter(|e| e["what"] == "return").count();
    assert_eq!(returns, 2);
}

fn explore(args: &[&str]) -> Value {
    let mut all = vec!["explore"];
    all.extend_from_slice(args);
    json_of(&all)
}

/// The keys of a JSON line in the order printed (`Value` sorts them).
fn printed_keys(line: &str) -> Vec<String> {
    let json: Value = serde_json::from_str(line).unwrap();
    let mut keys: Vec<(usize, String)> = json
        .as_object()
        .unwrap()
        .keys()
        .map(|key| (line.find(&format!("\"{key}\":")).unwrap(), key.clone()))
        .collect();
    keys.sort_unstable();
    keys.into_iter().map(|(_, key)| key).collect()
}

#[test]
fn explore_prints_the_result_and_its_counterexample_replays_to_the_violation() {
    // Two servers, round-robin: the clicks take different mutexes.
    let args = [
        "explore",
        "v=1&scenario=ticket&strategy=keyed-mutex&servers=2",
        "--check",
        "duplicates",
    ];
    let json = json_of(&args);
    let stdout = String::from_utf8(interleave(&args).stdout).unwrap();
    // The keys first, in its order; the ones added later after.
    assert_eq!(
        printed_keys(stdout.trim()),
        [
            "explored",
            "violating",
            "complete",
            "naive_estimate",
            "counterexample",
            "preemption_bound",
            "complete_within_bound",
        ],
        "{stdout}"
    );
    assert_eq!(json["complete"], true);
    assert_eq!(json["preemption_bound"], Value::Null);
    assert_eq!(
        json["complete_within_bound"], true,
        "unbounded: as complete"
    );
    assert!(json["violating"].as_u64().unwrap() > 0);
    assert!(json["naive_estimate"].as_u64().unwrap() >= json["explored"].as_u64().unwrap());
    let counterexample = json["counterexample"].as_str().unwrap();
    assert!(
        counterexample.starts_with("v=1&scenario=ticket"),
        "{counterexample}"
    );
    assert!(
        metrics(counterexample)["duplicate_tickets"]
            .as_u64()
            .unwrap()
            > 0
    );

    let safe = explore(&[
        "v=1&scenario=ticket&strategy=keyed-mutex",
        "--check",
        "duplicates",
    ]);
    assert_eq!(safe["violating"], 0);
    assert_eq!(safe["complete"], true);
    assert_eq!(safe["complete_within_bound"], true);
    assert_eq!(safe["counterexample"], Value::Null);
}

#[test]
fn a_preemption_bounded_search_finishes_and_says_within_its_bound() {
    // get-set's unbounded space (each user's get-then-set race) is too
    // large to finish here; with at most 2 preemptions the search runs
    // everything in the bound.
    let fragment = "v=1&scenario=ticket&users=3&clicks=2&strategy=get-set";
    let args = [
        fragment,
        "--max-schedules",
        "100000",
        "--max-preemptions",
        "2",
    ];
    let json = explore(&args);
    assert_eq!(json["preemption_bound"], 2);
    assert_eq!(json["complete_within_bound"], true, "{json}");
    assert_eq!(json["complete"], false, "the bound cut choices: {json}");
    assert!(json["violating"].as_u64().unwrap() > 0, "{json}");
    assert!(json["explored"].as_u64().unwrap() < 100_000);

    // Stopped by max_schedules: neither.
    let args = [fragment, "--max-schedules", "5", "--max-preemptions", "2"];
    let stopped = explore(&args);
    assert_eq!(stopped["explored"], 5);
    assert_eq!(stopped["preemption_bound"], 2);
    assert_eq!(stopped["complete_within_bound"], false);
    assert_eq!(stopped["complete"], false);
}

#[test]
fn explore_finds_a_reordering_that_the_normal_run_does_not_show() {
    // The normal get-set run with gap arrivals never overlaps; some
    // schedule lets both requests see no lock.
    let fragment = "v=1&scenario=stampede&strategy=get-set&requests=2&arrival=gap:5ms";
    assert_eq!(metrics(fragment)["max_in_critical_section"], 1);
    let json = explore(&[fragment, "--check", "exclusion", "--max-schedules", "5000"]);
    let counterexample = json["counterexample"].as_str().unwrap();
    assert!(counterexample.contains("&schedule="), "{counterexample}");
    assert_eq!(metrics(counterexample)["max_in_critical_section"], 2);
}

#[test]
fn explore_takes_random_and_pct_with_a_seed() {
    for method in ["random", "pct"] {
        let args = [
            "v=1&scenario=ticket&users=2",
            "--method",
            method,
            "--max-schedules",
            "50",
            "--seed",
            "4",
        ];
        let json = explore(&args);
        assert_eq!(json["explored"], 50);
        assert_eq!(json["complete"], false);
        assert_eq!(json["complete_within_bound"], false);
        assert_eq!(json["preemption_bound"], Value::Null);
        assert_eq!(explore(&args), json, "same seed, same answer");
    }
}

#[test]
fn explore_all_strategies_prints_one_row_each() {
    let output = interleave(&[
        "explore",
        "v=1&scenario=ticket",
        "--all-strategies",
        "--max-schedules",
        "100",
    ]);
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let rows: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), StrategyKind::ALL.len());
    assert_eq!(rows[0]["strategy"], "none");
    assert!(rows[3]["summary"]
        .as_str()
        .unwrap()
        .starts_with("keyed-mutex: 0 of "));
    let keys = printed_keys(stdout.lines().next().unwrap());
    assert_eq!(keys.first().map(String::as_str), Some("strategy"));
    assert_eq!(
        keys[keys.len() - 3..],
        ["summary", "preemption_bound", "complete_within_bound"]
    );
    for row in &rows {
        assert_eq!(row["complete_within_bound"], row["complete"], "{row}");
    }
}

#[test]
fn a_schedule_that_does_not_fit_exits_2_naming_schedule() {
    for fragment in [
        "v=1&scenario=ticket&schedule=9",
        "v=1&scenario=ticket&schedule=00000000000000000000",
        "v=1&scenario=ticket&schedule=0Q",
    ] {
        let output = interleave(&["run", fragment]);
        assert_eq!(output.status.code(), Some(2), "{fragment}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("`schedule`"), "{stderr}");
    }
}

#[test]
fn explore_rejects_bad_flags_with_exit_2() {
    for args in [
        vec!["explore", "v=1&scenario=ticket", "--check", "dupes"],
        vec!["explore", "v=1&scenario=ticket", "--method", "bfs"],
        vec!["explore", "v=1&scenario=ticket", "--max-schedules", "many"],
        vec!["explore", "v=1&scenario=ticket", "--seed"],
    ] {
        let output = interleave(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("--"), "{stderr}");
    }
}

#[test]
fn max_events_bounds_the_run_exactly() {
    // 10 stampede requests under `none`: each is an arrival, a get, a
    // select and a set completing, so the run takes exactly 40 macrotasks.
    let fragment = "scenario=stampede&strategy=none&requests=10";
    let enough = interleave(&["run", fragment, "--max-events", "40"]);
    assert!(enough.status.success(), "{enough:?}");
    let json: Value = serde_json::from_slice(&enough.stdout).unwrap();
    assert_eq!(json["events"], 40);
    let short = interleave(&["run", fragment, "--max-events=39"]);
    assert_eq!(short.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&short.stderr).contains("--max-events 39"));
    assert!(short.stdout.is_empty());
    for bad in ["0", "-1", "x", ""] {
        let output = interleave(&["run", fragment, "--max-events", bad]);
        assert_eq!(output.status.code(), Some(2), "{bad}");
    }
    let missing = interleave(&["run", fragment, "--max-events"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn help_lists_each_subcommand_and_its_flags() {
    let top = interleave(&["--help"]);
    assert!(top.status.success());
    let text = String::from_utf8(top.stdout).unwrap();
    assert!(text.contains("run") && text.contains("explore"), "{text}");
    let explore = interleave(&["explore", "--help"]);
    assert!(explore.status.success());
    let text = String::from_utf8(explore.stdout).unwrap();
    for flag in [
        "--check",
        "--method",
        "--max-preemptions",
        "--all-strategies",
    ] {
        assert!(text.contains(flag), "{flag}: {text}");
    }
    let unknown = interleave(&["run", "scenario=ticket", "--trase"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("--trace"));
}
