//! The script engine's heap budget (docs/scripting.md, "Bad input and
//! budgets"): runaway allocation stops its request with an error naming
//! the line, and the process lives on. This test binary allocates through
//! `Metered`, as the CLI and the script edition's wasm do.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use interleave::run::Run;
use interleave::script::metered::Metered;
use interleave::script::source;
use interleave::script::ScriptRun;

#[global_allocator]
static ALLOCATOR: Metered<std::alloc::System> = Metered(std::alloc::System);

/// The errors' messages and the (errors, hung) counts of a run.
fn run(code: &str, users: u32) -> (Vec<String>, (u64, u64)) {
    let fragment = format!("scenario=script&users={users}&clicks=1");
    let (config, _) = source::parse(&fragment).expect("a good fragment");
    let mut run = ScriptRun::new(code, &config, false).expect("a good script");
    assert!(run.run(1_000_000), "the run ended by itself");
    let metrics = run.metrics();
    (run.messages(), (metrics.errors, metrics.hung))
}

#[test]
fn a_doubling_string_stops_at_the_memory_budget_uncaught() {
    // Each request builds up to half a gigabyte; a `catch` cannot keep it
    // going, and the memory of one request is freed for the next.
    let code = "async function handle(req) {\n  let s = 'x';\n  try {\n    \
                while (true) s += s;\n  } catch (e) {\n    count('caught');\n  }\n}";
    let (messages, counts) = run(code, 3);
    assert_eq!(counts, (3, 0));
    assert_eq!(messages.len(), 3, "{messages:?}");
    for message in &messages {
        assert_eq!(
            message,
            "RuntimeLimitError: reached the memory budget on this execution \
             (line 4, column 18)"
        );
    }
}

#[test]
fn objects_kept_in_an_array_stop_at_the_memory_budget() {
    // Module state keeps every 64 KB string alive (a leak, as in Node).
    let code = "const kept = [];\nconst big = 'x'.repeat(1 << 16);\n\
                async function handle(req) {\n  await sleep(1);\n  \
                for (let i = 0; i >= 0; i++) kept.push(big + i);\n}";
    let (messages, counts) = run(code, 1);
    assert_eq!(counts, (1, 0));
    assert!(
        messages[0].starts_with("RuntimeLimitError: reached the memory budget")
            && messages[0].ends_with("(line 5, column 41)"),
        "{messages:?}"
    );
}

#[test]
fn an_overlong_string_is_a_range_error_as_in_node() {
    // V8's limit is 2^29 - 24 code units; the error is catchable there too.
    let code = "async function handle(req) {\n  try {\n    'x'.repeat(2 ** 30);\n  } \
                catch (e) {\n    count(e.name + ': ' + e.message);\n    throw e;\n  }\n}";
    let (messages, counts) = run(code, 1);
    assert_eq!(counts, (1, 0));
    assert!(
        messages[0].starts_with("RangeError: Invalid string length"),
        "{messages:?}"
    );
    let joined = "async function handle(req) {\n  new Array(2 ** 32 - 1).join('ab');\n}";
    let (messages, counts) = run(joined, 1);
    assert_eq!(counts, (1, 0));
    assert!(messages[0].starts_with("RuntimeLimitError"), "{messages:?}");
}
