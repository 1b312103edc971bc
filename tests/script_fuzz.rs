//! Scripts against hostile input: arbitrary text and mangled examples
//! never panic (natively), `code=` values that are not lz-string never
//! panic, and the same script and fragment always give the same trace.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use proptest::prelude::*;

use interleave::run::Run;
use interleave::script::source::{self, example, EXAMPLES};
use interleave::script::ScriptRun;

/// Loads and runs `code` on a small fragment; the outcome does not matter,
/// only that it returns.
fn run_any(code: &str) {
    let (config, _) = source::parse("scenario=script&users=2&clicks=2&servers=2").unwrap();
    if let Ok(mut run) = ScriptRun::new(code, &config, true) {
        run.run(10_000);
        let _ = run.metrics();
    }
}

/// Pieces of JavaScript and of our globals, to build plausible nonsense.
const PIECES: &[&str] = &[
    "async function handle(req) {",
    "}",
    "await ",
    "cache.get(",
    "cache.set('k', ",
    "db.find('t', {})",
    "db.table('t', {})",
    "sleep(1)",
    "setInterval(() => {",
    "guard('k', async () => {",
    "lock.acquire('k')",
    "new Promise((r) => {",
    "throw new Error('x')",
    ")",
    ";",
    "\n",
    "const x: number = 1",
    "for (;;) {",
    "{ $inc: 1 }",
    "Math.random()",
    "function f() { return f(); } f();",
    "queueMicrotask(",
    "console.log(",
    "'",
    "`${",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        run_any(&text);
    }

    #[test]
    fn plausible_nonsense_never_panics(picks in prop::collection::vec(0..PIECES.len(), 0..40)) {
        let code: String = picks.iter().map(|&i| PIECES[i]).collect();
        run_any(&code);
    }

    #[test]
    fn truncated_examples_never_panic(which in 0..EXAMPLES.len(), cut in 0usize..2000) {
        let code = EXAMPLES[which].code;
        let cut = code.char_indices().map(|(i, _)| i).nth(cut).unwrap_or(code.len());
        run_any(&code[..cut]);
    }

    #[test]
    fn code_values_that_are_not_lz_string_never_panic(text in "[A-Za-z0-9+$-]{0,64}") {
        let _ = source::decode(&text);
        let _ = source::parse(&format!("scenario=script&code={text}"));
    }

    #[test]
    fn same_script_and_fragment_same_trace(which in 0..EXAMPLES.len(), seed in 0u64..1000, users in 1u32..6) {
        let fragment = format!(
            "scenario=script&users={users}&clicks=2&servers=2&strategy=add&db_latency=exp:5ms&seed={seed}"
        );
        let (config, _) = source::parse(&fragment).unwrap();
        let code = example(EXAMPLES[which].name).unwrap();
        let schema = EXAMPLES[which].schema;
        let hash = |keep| {
            let mut run = ScriptRun::with_schema(code, schema, &config, keep).unwrap();
            run.run(1_000_000);
            run.metrics().trace_hash
        };
        prop_assert_eq!(hash(true), hash(false));
        prop_assert_eq!(hash(true), hash(true));
    }
}
