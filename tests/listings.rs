//! Every code-pane listing, for every scenario, strategy and option that
//! changes it, is valid JavaScript: V8 (Node) parses each one.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Stdio};

use interleave::config::{
    CacheStart, Config, Pause, ReleaseMode, ScenarioKind, StrategyKind, TxMode,
};
use interleave::scenario::listing::Listing;
use serde_json::json;

/// Every option that changes a listing, on and off, for each story and
/// strategy.
fn every_listing() -> Vec<(String, String)> {
    let mut listings = Vec::new();
    for scenario in [ScenarioKind::Stampede, ScenarioKind::Ticket] {
        for strategy in StrategyKind::ALL {
            for variant in 0..128u32 {
                let bit = |n: u32| variant & (1 << n) != 0;
                let config = Config {
                    strategy,
                    await_insert: !bit(0),
                    double_check: !bit(1),
                    release: if bit(2) {
                        ReleaseMode::Owner
                    } else {
                        ReleaseMode::Delete
                    },
                    crash: bit(3).then_some(1),
                    pause: bit(3).then_some(Pause {
                        request: 0,
                        duration: 30_000,
                    }),
                    fencing: bit(4),
                    db_unique: bit(4),
                    cache: if bit(4) {
                        CacheStart::Warm
                    } else {
                        CacheStart::Cold
                    },
                    tx: [
                        TxMode::None,
                        TxMode::ReadCommitted,
                        TxMode::Serializable,
                        TxMode::ForUpdate,
                    ][(variant >> 5) as usize],
                    ..Config::new(scenario)
                };
                let code = Listing::of(&config).lines().collect::<Vec<_>>().join("\n");
                listings.push((format!("{scenario:?}-{strategy:?}-{variant}.js"), code));
            }
        }
    }
    listings
}

#[test]
fn every_listing_parses_as_javascript() {
    let listings: Vec<_> = every_listing()
        .into_iter()
        .map(|(name, code)| json!({ "name": name, "code": code }))
        .collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js/check_syntax.mjs");
    let mut node = Command::new("node")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node (installed by scripts/setup.sh) parses the listings");
    let input = serde_json::to_vec(&listings).unwrap();
    node.stdin.take().unwrap().write_all(&input).unwrap();
    let output = node.wait_with_output().unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{report}");
    assert!(
        report.contains(&format!("{} listings parsed, 0 with", listings.len())),
        "{report}"
    );
}

#[test]
fn a_syntax_error_is_caught() {
    // The checker itself: a listing with a stray brace fails.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js/check_syntax.mjs");
    let mut node = Command::new("node")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = json!([{ "name": "bad.js", "code": "async function f() { await x; }}" }]);
    node.stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let output = node.wait_with_output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("bad.js"));
}
