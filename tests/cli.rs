//! The `interleave` binary, as scripts and the acceptance cases call it.
#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Output};

use serde_json::Value;

fn interleave(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn metrics(fragment: &str) -> Value {
    let output = interleave(&["run", fragment]);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1, "one JSON object: {stdout}");
    serde_json::from_str(&stdout).unwrap()
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
