//! A server's heap budget (docs/scripting.md, "Bad input and budgets"):
//! runaway allocation stops its request with the budget's message, and the
//! process lives on; the engine's own limits on one string are errors a
//! `catch` sees, as in Node.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use interleave::run::Run;
use interleave::script::source;
use interleave::script::ScriptRun;

/// The errors' messages, the (errors, hung) counts and the custom counters
/// of a run.
type Outcome = (Vec<String>, (u64, u64), Vec<(String, f64)>);

fn run(code: &str, users: u32) -> Outcome {
    let fragment = format!("scenario=script&users={users}&clicks=1");
    let (config, _) = source::parse(&fragment).expect("a good fragment");
    let mut run = ScriptRun::new(code, &config, false).expect("a good script");
    assert!(run.run(1_000_000), "the run ended by itself");
    let metrics = run.metrics();
    let custom = run.custom().into_iter().collect();
    (run.messages(), (metrics.errors, metrics.hung), custom)
}

#[test]
fn a_doubling_string_stops_at_the_engines_string_limit_and_can_be_caught() {
    // Node stops it at 2^29 - 24 code units with a RangeError a `catch`
    // sees; QuickJS at 2^30 - 1 with an InternalError. Each request's
    // string is garbage once it is caught.
    let code = "async function handle(req) {\n  let s = 'x';\n  try {\n    \
                while (true) s += s;\n  } catch (e) {\n    count('caught');\n  }\n}";
    let (messages, counts, custom) = run(code, 3);
    assert_eq!(counts, (0, 0), "{messages:?}");
    assert_eq!(custom, [("caught".to_string(), 3.0)]);
}

#[test]
fn objects_kept_in_module_state_stop_at_the_memory_budget() {
    // Module state keeps every 64 KB string alive (a leak, as in Node):
    // the request that reaches the budget fails, and so does the next one
    // on that server, which finds the heap still full.
    let code = "const kept = [];\nconst big = 'x'.repeat(1 << 16);\n\
                async function handle(req) {\n  await sleep(1);\n  \
                for (let i = 0; i >= 0; i++) kept.push(big + i);\n}";
    let (messages, counts, _) = run(code, 2);
    assert_eq!(counts, (2, 0));
    assert_eq!(
        messages,
        ["RuntimeLimitError: reached the memory budget on this execution"; 2]
    );
}

#[test]
fn an_overlong_string_is_a_range_error_as_in_node() {
    let code = "async function handle(req) {\n  try {\n    'x'.repeat(2 ** 30);\n  } \
                catch (e) {\n    count(e.name);\n    throw e;\n  }\n}";
    let (messages, counts, custom) = run(code, 1);
    assert_eq!(counts, (1, 0));
    assert_eq!(custom, [("RangeError".to_string(), 1.0)]);
    assert!(
        messages[0].starts_with("RangeError: invalid string length (line 3, column"),
        "{messages:?}"
    );
}
