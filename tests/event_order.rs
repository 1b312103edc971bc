//! Random event-loop programs print their lines in the order real Node
//! prints them (SCRIPTING.md §1: "the same text, run in Node.js, must
//! behave the same"; promise and microtask order is the language's).
//!
//! `tests/js/event_order.mjs` writes the programs (promise chains,
//! `await`, thenables, async generators, `queueMicrotask`, timers,
//! intervals, `setImmediate`, `EventEmitter`, nested four deep) and runs
//! each on Node; each runs here as a script's top level, with one request
//! that lasts past its last timer.
//!
//! Node's timers run on the wall clock. The generator spaces every timer's
//! firing 25 ms from every other, so a Node run whose lines each came
//! within 10 ms of their simulated time has the only order the event
//! loop's rules allow. A run that came later than that (a busy machine)
//! and disagrees is run again, alone; only a run that kept time can fail
//! the test.
#![cfg(all(feature = "script", not(target_arch = "wasm32")))]

use std::process::Command;

use interleave::run::Run;
use interleave::script::source;
use interleave::script::ScriptRun;
use interleave::sim::What;
use serde::Deserialize;

const SEEDS: (u32, u32) = (1, 150);
/// How far (ms) a Node run's line may be from its simulated time for the
/// run to count as one that kept time.
const KEPT_TIME_MS: f64 = 10.0;
/// Runs of one program on Node, at most, before a busy machine fails it.
const TRIES: usize = 5;

#[derive(Deserialize)]
struct Program {
    seed: u32,
    code: String,
    /// Each line with the milliseconds since the program started.
    node: Vec<(String, f64)>,
}

/// The programs of seeds `from` to `to`, with what Node printed.
fn on_node(from: u32, to: u32) -> Vec<Program> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js/event_order.mjs");
    let output = Command::new("node")
        .arg(script)
        .arg(from.to_string())
        .arg(to.to_string())
        .output()
        .expect("node (installed by scripts/setup.sh) runs the programs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("one program a line"))
        .collect()
}

/// What the program prints here, each line with its simulated time in ms.
fn here(code: &str) -> Vec<(String, f64)> {
    let (config, _) = source::parse("scenario=script&users=1&clicks=1").unwrap();
    let mut run = ScriptRun::new(code, &config, true).expect("a good script");
    assert!(run.run(10_000_000), "the run ended by itself");
    assert_eq!(run.metrics().errors, 0, "{:?}", run.error_messages());
    let messages = run.messages();
    run.take_events()
        .into_iter()
        .filter(|event| event.what == What::Log)
        .map(|event| {
            (
                messages[event.detail as usize].clone(),
                event.time as f64 / 1000.0,
            )
        })
        .collect()
}

fn lines(printed: &[(String, f64)]) -> Vec<&str> {
    printed.iter().map(|(line, _)| line.as_str()).collect()
}

/// How far (ms) Node's lines strayed from their simulated times: the
/// spread of the differences (a program that started late shifts them
/// all, which changes no order). The lines are unique within a program.
fn lateness(node: &[(String, f64)], here: &[(String, f64)]) -> f64 {
    let shifts: Vec<f64> = node
        .iter()
        .filter_map(|(line, ms)| {
            let (_, at) = here.iter().find(|(other, _)| other == line)?;
            Some(ms - at)
        })
        .collect();
    let least = shifts.iter().copied().fold(f64::INFINITY, f64::min);
    let most = shifts.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (most - least).max(0.0)
}

/// How Node's run of a program compares with the run here.
#[derive(Debug, PartialEq)]
enum Verdict {
    Same,
    /// Another order, from a Node run whose lines came later than
    /// `KEPT_TIME_MS` (ms): it proves nothing.
    Late(f64),
    /// Another order, from a Node run that kept time.
    Differs,
}

fn verdict(node: &[(String, f64)], here: &[(String, f64)]) -> Verdict {
    if lines(node) == lines(here) {
        return Verdict::Same;
    }
    match lateness(node, here) {
        late if late > KEPT_TIME_MS => Verdict::Late(late),
        _ => Verdict::Differs,
    }
}

#[test]
fn random_programs_print_in_nodes_order() {
    let programs = on_node(SEEDS.0, SEEDS.1);
    assert_eq!(programs.len(), (SEEDS.1 - SEEDS.0 + 1) as usize);
    for program in programs {
        let here = here(&program.code);
        let mut node = program.node;
        for tries in 1.. {
            match verdict(&node, &here) {
                Verdict::Same => break,
                Verdict::Late(_) if tries < TRIES => {
                    node = on_node(program.seed, program.seed).remove(0).node;
                }
                verdict => panic!(
                    "seed {} ({verdict:?}): Node printed\n{:?}\nand the script\n{:?}\nfor\n{}",
                    program.seed,
                    lines(&node),
                    lines(&here),
                    program.code
                ),
            }
        }
    }
}

/// The judge itself: the same order passes; another order fails, unless
/// Node's run came late, which is run again.
#[test]
fn another_order_fails_unless_node_ran_late() {
    let at = |line: &str, ms: f64| (line.to_string(), ms);
    let here = [at("a", 0.0), at("b", 0.0), at("t", 40.0), at("u", 70.0)];
    // Node started 6 ms late, and kept time.
    let node = [at("a", 6.0), at("b", 6.1), at("t", 47.0), at("u", 77.5)];
    assert_eq!(verdict(&node, &here), Verdict::Same);
    let swapped = [at("b", 6.0), at("a", 6.1), at("t", 47.0), at("u", 77.5)];
    assert_eq!(verdict(&swapped, &here), Verdict::Differs);
    // Its first timer's callback ran 35 ms late: a busy machine.
    let late = [at("a", 6.0), at("b", 6.1), at("u", 77.0), at("t", 81.0)];
    assert_eq!(verdict(&late, &here), Verdict::Late(35.0));
    let programs = on_node(SEEDS.0, SEEDS.0);
    assert_eq!(programs[0].seed, SEEDS.0);
}
