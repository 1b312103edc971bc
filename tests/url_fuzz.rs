//! The URL parser against hostile input: proptests over arbitrary strings
//! and over key=value noise, a regression corpus of the nastiest inputs
//! (`tests/corpus/urls.txt`, one per line, each also run through the CLI),
//! and the documented maximum of every numeric key.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use percent_encoding::percent_decode_str;
use proptest::prelude::*;

use interleave::config::url::{
    parse_fragment, parse_fragment_lenient, to_fragment, ConfigError, MAX_CLICKS, MAX_DB_POOL,
    MAX_KEYS, MAX_REQUESTS, MAX_SERVERS, MAX_TICKET_REQUESTS, MAX_USERS,
};
use interleave::config::Config;
use interleave::Sim;

/// Every key of DESIGN.md §6.
const KNOWN_KEYS: [&str; 25] = [
    "v",
    "scenario",
    "strategy",
    "seed",
    "servers",
    "routing",
    "arrival",
    "cache_latency",
    "db_latency",
    "db_write_latency",
    "db_pool",
    "lock_ttl",
    "poll",
    "wait_timeout",
    "users",
    "clicks",
    "click_gap",
    "await_insert",
    "requests",
    "keys",
    "cache",
    "expire_at",
    "ttl",
    "grace",
    "double_check",
];

fn corpus() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/urls.txt");
    let text = std::fs::read_to_string(path).expect("the corpus is readable");
    text.lines().map(str::to_string).collect()
}

/// The error's key is one the input wrote (decoded) or a known key (the
/// missing `scenario`, `clicks` for the users * clicks bound).
fn names_its_key(input: &str, error: &ConfigError) -> bool {
    let decoded = percent_decode_str(input).decode_utf8_lossy();
    let known = KNOWN_KEYS.contains(&error.key.as_str());
    (known || decoded.contains(&error.key))
        && !error.message.is_empty()
        && error.to_string().starts_with(&format!("`{}`: ", error.key))
}

/// The checks every input must pass; panics say which input broke them.
fn check_parsers(input: &str) -> Result<(Config, Vec<ConfigError>), TestCaseError> {
    let (config, errors) = parse_fragment_lenient(input);
    for error in &errors {
        prop_assert!(names_its_key(input, error), "{input:?}: {error:?}");
    }
    match parse_fragment(input) {
        Ok(strict) => {
            prop_assert!(errors.is_empty(), "{input:?}");
            prop_assert_eq!(&strict, &config, "{:?}", input);
        }
        Err(first) => prop_assert_eq!(Some(&first), errors.first(), "{:?}", input),
    }
    // Usable: its canonical fragment parses back to it, and a small cut of
    // it runs.
    let canonical = to_fragment(&config);
    let reparsed = parse_fragment(&canonical);
    prop_assert_eq!(
        reparsed.as_ref(),
        Ok(&config),
        "{:?} -> {:?}",
        input,
        canonical
    );
    let small = Config {
        requests: config.requests.min(20),
        users: config.users.min(4),
        clicks: config.clicks.min(3),
        ..config.clone()
    };
    Sim::metrics_only(&small).run_for(20_000);
    Ok((config, errors))
}

#[test]
fn corpus_inputs_parse_without_panics_and_errors_name_their_keys() {
    let corpus = corpus();
    assert!(
        corpus.len() >= 100,
        "the corpus has {} inputs",
        corpus.len()
    );
    let mut rejected = 0;
    for input in &corpus {
        let (_, errors) = check_parsers(input).unwrap_or_else(|e| panic!("{e}"));
        rejected += usize::from(!errors.is_empty());
    }
    // The corpus is mostly bad input, with some valid but extreme runs.
    assert!(rejected > corpus.len() / 2, "{rejected} rejected");
    assert!(rejected < corpus.len(), "some inputs are valid");
}

#[test]
fn corpus_inputs_exit_0_or_2_from_the_cli_never_101() {
    for input in corpus() {
        let output = Command::new(env!("CARGO_BIN_EXE_interleave"))
            .args(["run", &input, "--max-events", "20000"])
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{input:?}: {stderr}");
        let code = output.status.code();
        match parse_fragment(&input) {
            Ok(_) => assert!(matches!(code, Some(0 | 2)), "{input:?}: {code:?} {stderr}"),
            Err(error) => {
                assert_eq!(code, Some(2), "{input:?}: {stderr}");
                assert!(stderr.contains(&format!("`{}`", error.key)), "{stderr}");
            }
        }
    }
}

#[test]
fn a_run_past_the_event_budget_exits_2_and_says_how_to_fix_it() {
    // 1,000 `add` waiters polling every microsecond for up to a day: about
    // 86,400,000,000 polls each. Only the budget ends it.
    let fragment = "scenario=stampede&strategy=add&requests=1000&poll=1us&wait_timeout=86400s";
    let output = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .args(["run", fragment, "--max-events", "50000"])
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--max-events 50000"), "{stderr}");
    assert!(output.stdout.is_empty());
}

fn nasty_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{0,25}",
        "-?[0-9]{1,6}(\\.[0-9]{0,30})?(us|ms|s|m|h|d|µs|ns|)",
        "(const|uniform|exp|poisson|gap|at|burst):[0-9a-z.,:e+-]{0,24}",
        "(unlimited|ttl|true|false|none|warm|cold|sticky|random|add|keyed-mutex)",
        ".{0,30}",
        proptest::collection::vec(any::<u8>(), 0..12)
            .prop_map(|bytes| { bytes.iter().map(|b| format!("%{b:02X}")).collect() }),
    ]
}

fn nasty_key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(KNOWN_KEYS.to_vec()).prop_map(str::to_string),
        1 => "[a-z_%0-9]{0,12}",
        1 => ".{0,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_strings_never_panic_and_errors_name_their_keys(input in any::<String>()) {
        check_parsers(&input)?;
    }

    #[test]
    fn key_value_noise_never_panics_and_errors_name_their_keys(
        prefix in prop_oneof!["", "#", "https://x.test/#", "https://x.test/?a=b#"],
        pairs in proptest::collection::vec((nasty_key(), nasty_value()), 0..10),
        separator in prop_oneof!["&", "&&", "=&"],
    ) {
        let body: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        check_parsers(&format!("{prefix}{}", body.join(&separator)))?;
    }
}

/// Each numeric key takes its maximum and refuses one more, naming the key
/// and the maximum.
#[test]
fn every_numeric_key_has_its_maximum() {
    let limits: [(&str, &str, u64); 6] = [
        ("stampede", "requests", MAX_REQUESTS.into()),
        ("stampede", "keys", MAX_KEYS.into()),
        ("stampede", "servers", MAX_SERVERS.into()),
        ("stampede", "db_pool", MAX_DB_POOL.into()),
        ("ticket", "users", MAX_USERS.into()),
        ("ticket", "clicks", MAX_CLICKS.into()),
    ];
    for (scenario, key, max) in limits {
        let base = format!("scenario={scenario}&users=1");
        assert!(
            parse_fragment(&format!("{base}&{key}={max}")).is_ok(),
            "{key}"
        );
        let error = parse_fragment(&format!("{base}&{key}={}", max + 1)).unwrap_err();
        assert_eq!(error.key, key);
        assert!(error.message.contains(&max.to_string()), "{error}");
    }
    let seed = parse_fragment("scenario=stampede&seed=18446744073709551616").unwrap_err();
    assert_eq!(seed.key, "seed");
    let product = parse_fragment("scenario=ticket&users=100000&clicks=11").unwrap_err();
    assert_eq!(product.key, "clicks");
    assert!(product.message.contains(&MAX_TICKET_REQUESTS.to_string()));
    for key in [
        "lock_ttl",
        "poll",
        "wait_timeout",
        "click_gap",
        "expire_at",
        "ttl",
        "grace",
    ] {
        assert!(parse_fragment(&format!("scenario=stampede&{key}=86400s")).is_ok());
        let error = parse_fragment(&format!("scenario=stampede&{key}=86400000001us")).unwrap_err();
        assert_eq!(error.key, key);
        assert!(error.message.contains("86400s"), "{error}");
    }
    for (key, value) in [
        ("db_latency", "const:86401s"),
        ("cache_latency", "uniform:0..86401s"),
        ("db_write_latency", "exp:86401s"),
        ("arrival", "gap:86401s"),
        ("arrival", "at:86401s"),
        ("arrival", "poisson:1000001"),
    ] {
        let error = parse_fragment(&format!("scenario=stampede&{key}={value}")).unwrap_err();
        assert_eq!(error.key, key, "{value}");
    }
}

/// The URL key table (docs/semantics.md) gives every numeric key's maximum.
#[test]
fn the_docs_document_every_maximum() {
    let semantics = include_str!("../docs/semantics.md");
    let row = |key: &str| {
        semantics
            .lines()
            .find(|line| line.starts_with('|') && line.contains(&format!("`{key}` |")))
            .unwrap_or_else(|| panic!("no row for {key} in docs/semantics.md"))
    };
    for (key, max) in [
        ("requests", MAX_REQUESTS),
        ("keys", MAX_KEYS),
        ("servers", MAX_SERVERS),
        ("db_pool", MAX_DB_POOL),
        ("users", MAX_USERS),
        ("clicks", MAX_CLICKS),
    ] {
        assert!(row(key).contains(&max.to_string()), "{key}: {}", row(key));
    }
    assert!(row("seed").contains(&u64::MAX.to_string()));
    assert!(row("arrival").contains("1000000"));
    assert!(semantics.contains("at most `86400s`"));
    assert!(semantics.contains("--max-events"));
}
