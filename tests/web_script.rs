// Natively with `script` (the default), in wasm only with `script-wasm`
// (the page's build has no script engine).
#![cfg(any(
    all(feature = "script", not(target_arch = "wasm32")),
    all(feature = "script-wasm", target_arch = "wasm32")
))]
//! The script engine in wasm gives the native engine's runs: the same
//! `trace_hash` and event count for scripts on a few fragments.
//!
//! In headless Chrome (docs/scripting.md):
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --no-default-features --features script-wasm --test web_script`.
//! Natively (`cargo test --test web_script`) the same table checks that
//! `run_to_json` still answers what the CLI printed.

use interleave::script::cli::run_to_json;
use serde_json::Value;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test_configure!(run_in_browser);

const TICKET: &str = include_str!("../examples/scripts/ticket.js");
const STAMPEDE: &str = include_str!("../examples/scripts/stampede.js");

/// `Math.random`, `Date.now`, `performance.now`, `console.log`, `count`,
/// timers and the cache: the parts of a script run the host supplies.
const HOST: &str = r#"let seen = 0;
async function handle(req) {
  const r = Math.random();
  await sleep(Math.floor(r * 20));
  seen++;
  count("late", Date.now() > 10 ? 1 : 0);
  console.log("req", req.id, seen, performance.now());
  const v = await cache.get(`k:${req.key}`);
  if (v === undefined) await cache.set(`k:${req.key}`, { at: Date.now(), r }, 50);
}
"#;

/// Script, fragment, and the `trace_hash` and `events` the native CLI
/// prints (`cargo run --bin interleave -- run --script FILE.js '<fragment>'`;
/// an empty script takes the fragment's `example=`).
const NATIVE: [(&str, &str, &str, u64); 8] = [
    (
        TICKET,
        "v=1&scenario=script&strategy=none&users=3&clicks=2&db_latency=exp:5ms&seed=7",
        "8b78eac1095cdd19",
        17,
    ),
    (
        TICKET,
        "v=1&scenario=script&strategy=keyed-mutex&users=3&clicks=2&servers=2&seed=7",
        "faaceaf0fa807e5e",
        18,
    ),
    (
        TICKET,
        "v=1&scenario=script&strategy=ticket-lock&users=4&clicks=2&await_insert=false&db_latency=uniform:1ms..30ms&seed=3",
        "e2c143c618a23aba",
        29,
    ),
    (
        STAMPEDE,
        "v=1&scenario=script&strategy=none&users=30&clicks=1&db_latency=exp:5ms&seed=7",
        "2b7b4f1bf3875dd2",
        120,
    ),
    (
        STAMPEDE,
        "v=1&scenario=script&strategy=single-flight&users=40&clicks=1&keys=3&seed=7",
        "13fea832d2be0b3f",
        86,
    ),
    (
        STAMPEDE,
        "v=1&scenario=script&strategy=get-set&users=20&clicks=1&servers=2&arrival=poisson:500&seed=11",
        "1b05fec79a1f1ebe",
        116,
    ),
    (
        HOST,
        "v=1&scenario=script&strategy=none&users=6&clicks=2&keys=2&seed=5",
        "2106cd6ff0f5f4a1",
        38,
    ),
    (
        "",
        "v=1&scenario=script&example=ticket&strategy=add&users=3&clicks=2&seed=9",
        "917d639ceabacc43",
        51,
    ),
];

fn run(code: &str, fragment: &str) -> Value {
    let json = run_to_json(code, fragment);
    serde_json::from_str(&json).unwrap_or_else(|error| panic!("{fragment}: {error}: {json}"))
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn script_runs_give_the_native_trace_hashes() {
    for (code, fragment, hash, events) in NATIVE {
        let metrics = run(code, fragment);
        assert_eq!(metrics["trace_hash"], hash, "{fragment}: {metrics}");
        assert_eq!(metrics["events"], events, "{fragment}: {metrics}");
    }
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn the_host_parts_match_natively() {
    let metrics = run(HOST, NATIVE[6].1);
    assert_eq!(metrics["custom"]["late"], 9, "{metrics}");
    assert_eq!(metrics["cache_hits"], 10, "{metrics}");
}

#[cfg_attr(not(target_arch = "wasm32"), test)]
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
fn bad_input_is_an_error_object() {
    let metrics = run("function handle( {", "v=1&scenario=script&users=1");
    let error = metrics["error"].as_str().expect("an error");
    assert!(error.starts_with("bad script:"), "{error}");
    let metrics = run("", "v=1&scenario=script&users=1");
    assert!(metrics["error"]
        .as_str()
        .expect("an error")
        .contains("no script"));
}

/// Runaway code in the browser: the loop budget after an `await`, and the
/// heap budget (this wasm allocates through `Metered`, as the script
/// worker does), each fail their request and leave the module alive.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen_test]
fn runaway_code_fails_its_request_in_wasm() {
    let looping = "async function handle(req) {\n  await sleep(1);\n  while (true) {}\n}";
    let metrics = run(looping, "v=1&scenario=script&users=1&clicks=1");
    assert_eq!(
        (&metrics["errors"], &metrics["hung"]),
        (&1.into(), &0.into()),
        "{metrics}"
    );
    let doubling = "async function handle(req) {\n  let s = 'x';\n  while (true) s += s;\n}";
    let metrics = run(doubling, "v=1&scenario=script&users=2&clicks=1");
    assert_eq!(
        (&metrics["errors"], &metrics["hung"]),
        (&2.into(), &0.into()),
        "{metrics}"
    );
    let metrics = run(TICKET, NATIVE[0].1);
    assert_eq!(metrics["trace_hash"], NATIVE[0].2, "{metrics}");
}
