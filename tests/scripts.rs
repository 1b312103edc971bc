//! Scripted scenarios (SCRIPTING.md): the shipped examples against the
//! built-in stories, and hand-worked counts for the globals.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use interleave::config::url::parse_fragment;
use interleave::script::source::{self, example};
use interleave::script::ScriptRun;
use interleave::sim::{Metrics, Sim};

const BUDGET: u64 = 10_000_000;

fn run_script(code: &str, fragment: &str) -> (Metrics, ScriptRun) {
    let (config, _) = source::parse(fragment).expect("a good fragment");
    let mut run = ScriptRun::new(code, &config, true).expect("a good script");
    assert!(run.run(BUDGET), "the run ended by itself");
    (run.metrics(), run)
}

/// The normative metrics of DESIGN.md §5 that a script must reproduce.
fn normative(m: &Metrics) -> [(&'static str, u64); 11] {
    [
        ("db_reads", m.db_reads),
        ("db_writes", m.db_writes),
        ("orders", m.orders),
        ("duplicate_tickets", m.duplicate_tickets),
        ("cache_hits", m.cache_hits),
        ("cache_misses", m.cache_misses),
        ("stale_served", m.stale_served),
        ("timeouts", m.timeouts),
        ("errors", m.errors),
        ("lock_wakeups", m.lock_wakeups),
        ("max_in_critical_section", m.max_in_critical_section),
    ]
}

fn builtin(fragment: &str) -> Metrics {
    let config = parse_fragment(fragment).expect("a good fragment");
    Sim::new(&config).run()
}

#[test]
fn ticket_script_matches_the_builtin_ticket_on_one_fragment() {
    let fragment = "users=2&clicks=2&strategy=none";
    let (script, _) = run_script(
        example("ticket").unwrap(),
        &format!("scenario=script&{fragment}"),
    );
    let expected = builtin(&format!("scenario=ticket&{fragment}"));
    assert_eq!(normative(&script), normative(&expected));
}

/// The golden fragments of `tests/golden.rs` under the five strategies
/// SCRIPTING.md §5 names (sticky stampede routing excluded: the built-in
/// stampede routes by key, the script's requests by user).
const GOLDEN: &[&str] = &[
    "v=1&scenario=stampede&strategy=none&requests=50&seed=7",
    "v=1&scenario=stampede&strategy=get-set&requests=30&db_latency=uniform:1ms..30ms&seed=7",
    "v=1&scenario=stampede&strategy=add&requests=30&db_latency=exp:5ms&seed=7",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=40&arrival=poisson:500&servers=2&routing=random&seed=7",
    "v=1&scenario=stampede&strategy=single-flight&requests=40&keys=3&cache_latency=exp:1ms&seed=7",
    "v=1&scenario=ticket&strategy=none&users=3&db_latency=exp:5ms&seed=7",
    "v=1&scenario=ticket&strategy=add&users=4&clicks=3&click_gap=2ms&db_latency=uniform:1ms..30ms&seed=7",
    "v=1&scenario=ticket&strategy=keyed-mutex&users=2&servers=2&seed=7",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=200&keys=5&double_check=false&seed=3",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=100&db_pool=3&cache_latency=uniform:100us..2ms&seed=11",
    "v=1&scenario=stampede&strategy=none&requests=300&db_pool=4&db_latency=exp:10ms&arrival=gap:1ms&seed=5",
    "v=1&scenario=stampede&strategy=add&requests=60&cache=warm&expire_at=5ms&arrival=gap:1ms&grace=50ms&lock_ttl=30ms&wait_timeout=40ms&poll=3ms&db_latency=uniform:10ms..60ms&seed=9",
    "v=1&scenario=stampede&strategy=get-set&requests=60&cache=warm&expire_at=2ms&arrival=gap:300us&grace=1s&wait_timeout=15ms&poll=2ms&seed=4",
    "v=1&scenario=stampede&strategy=single-flight&requests=120&servers=4&routing=round-robin&keys=7&arrival=poisson:3000&db_latency=exp:15ms&seed=13",
    "v=1&scenario=stampede&strategy=none&requests=40&cache=warm&ttl=0&seed=2",
    "v=1&scenario=stampede&strategy=keyed-mutex&requests=50&cache=warm&expire_at=10ms&arrival=gap:500us&ttl=20ms&seed=6",
    "v=1&scenario=stampede&strategy=add&requests=50&lock_ttl=5ms&db_latency=const:30ms&poll=1ms&wait_timeout=100ms&seed=8",
    "v=1&scenario=stampede&strategy=add&requests=20&lock_ttl=0&wait_timeout=0&seed=8",
    "v=1&scenario=stampede&strategy=get-set&requests=25&arrival=at:0,1ms,1ms,2ms,3ms,5ms,8ms,13ms,21ms,34ms,0,0,0,1ms,2ms,3ms,4ms,5ms,6ms,7ms,8ms,9ms,10ms,11ms,12ms&seed=21",
    "v=1&scenario=ticket&strategy=none&users=20&clicks=3&await_insert=false&seed=14",
    "v=1&scenario=ticket&strategy=keyed-mutex&users=10&clicks=4&await_insert=false&db_write_latency=const:50ms&seed=15",
    "v=1&scenario=ticket&strategy=get-set&users=8&clicks=3&click_gap=1ms&db_latency=exp:8ms&cache_latency=exp:500us&servers=2&routing=random&seed=16",
    "v=1&scenario=ticket&strategy=single-flight&users=6&clicks=5&servers=3&routing=sticky&db_pool=2&seed=17",
    "v=1&scenario=ticket&strategy=add&users=5&clicks=2&lock_ttl=10ms&db_write_latency=uniform:5ms..40ms&wait_timeout=30ms&poll=5ms&seed=18",
    "v=1&scenario=ticket&strategy=keyed-mutex&users=30&clicks=2&arrival=poisson:100&db_pool=1&servers=2&seed=19",
    "v=1&scenario=ticket&strategy=add&users=3&clicks=3&arrival=at:0,5ms,7ms&await_insert=false&servers=2&routing=round-robin&seed=20",
    "v=1&scenario=stampede&strategy=single-flight&requests=500&arrival=gap:50us&keys=10&servers=5&routing=random&db_pool=2&cache_latency=exp:300us&db_latency=uniform:5ms..25ms&cache=warm&expire_at=3ms&grace=20ms&seed=22",
    "v=1&scenario=stampede&strategy=get-set&requests=200&keys=2&poll=1ms&wait_timeout=2s&lock_ttl=40ms&db_latency=exp:30ms&db_pool=5&seed=23",
    "v=1&scenario=ticket&strategy=get-set&users=50&clicks=2&click_gap=500us&poll=1ms&wait_timeout=1s&await_insert=false&seed=24",
];

/// The same run as a script: the example, and for a stampede
/// `users=requests&clicks=1`.
fn as_script(fragment: &str) -> (&'static str, String) {
    if fragment.contains("scenario=stampede") {
        let converted = fragment
            .replace("scenario=stampede", "scenario=script")
            .replace("requests=", "users=");
        (
            example("stampede").unwrap(),
            format!("{converted}&clicks=1"),
        )
    } else {
        let converted = fragment.replace("scenario=ticket", "scenario=script");
        (example("ticket").unwrap(), converted)
    }
}

#[test]
fn examples_match_the_builtin_stories_on_every_golden_fragment() {
    let mut mismatches = Vec::new();
    for fragment in GOLDEN {
        let expected = builtin(fragment);
        let (code, script_fragment) = as_script(fragment);
        let (got, _) = run_script(code, &script_fragment);
        let (want, have) = (normative(&expected), normative(&got));
        let differ: Vec<_> = want
            .iter()
            .zip(have.iter())
            .filter(|(a, b)| a != b)
            .map(|(a, b)| format!("{}: builtin {} script {}", a.0, a.1, b.1))
            .collect();
        if !differ.is_empty() {
            mismatches.push(format!("{fragment}\n    {}", differ.join("\n    ")));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
