//! The stepwise API the debugger drives.
#![cfg(not(target_arch = "wasm32"))]

use interleave::config::url::parse_fragment;
use interleave::sim::{Macrotask, What};
use interleave::Sim;

fn sim(fragment: &str) -> Sim {
    Sim::new(&parse_fragment(fragment).unwrap())
}

#[test]
fn stepping_to_the_end_equals_running() {
    let fragment = "scenario=stampede&strategy=add&requests=6&db_latency=uniform:5ms..25ms&seed=3";
    let mut stepped = sim(fragment);
    let mut reports = Vec::new();
    while let Some(report) = stepped.step() {
        reports.push(report);
    }
    let metrics = stepped.metrics();
    assert_eq!(metrics, sim(fragment).run());
    assert_eq!(reports.len() as u64, metrics.events);
    // The reports tile the trace, in order, with their own step index.
    let trace = stepped.trace();
    let mut next = 0;
    for (index, report) in reports.iter().enumerate() {
        assert_eq!(report.index as usize, index);
        assert_eq!(report.events.start, next);
        next = report.events.end;
        for event in &trace.events()[report.events.clone()] {
            assert_eq!(event.step, report.index);
            assert_eq!(event.time, report.time);
        }
    }
    assert_eq!(next, trace.len());
}

#[test]
fn a_step_is_one_macrotask_and_its_microtasks() {
    // Ticket, keyed mutex: the first click's insert lands at 40 ms; in the
    // same step it releases and the second click, handed the mutex as a
    // microtask, sends its find.
    let mut sim = sim("scenario=ticket&strategy=keyed-mutex");
    let arrivals: Vec<_> = (0..2).map(|_| sim.step().unwrap().task).collect();
    assert_eq!(arrivals, [Macrotask::Arrival(0), Macrotask::Arrival(1)]);
    let find = sim.step().unwrap();
    assert_eq!(find.time, 20_000);
    let insert = sim.step().unwrap();
    assert_eq!(insert.time, 40_000);
    let trace = sim.trace();
    let whats: Vec<_> = trace.events()[insert.events.clone()]
        .iter()
        .map(|e| (e.request, e.what.name()))
        .collect();
    assert_eq!(
        whats,
        [
            (0, "complete"),
            (0, "exit"),
            (1, "mutex_grant"),
            (0, "return"),
            (1, "enter"),
            (1, "issue"),
        ]
    );
}

#[test]
fn pending_lists_the_queue_in_run_order() {
    let mut sim = sim("scenario=stampede&requests=3");
    assert_eq!(sim.pending().len(), 3, "all arrivals are queued up front");
    sim.step();
    let pending = sim.pending();
    assert_eq!(pending[0].task, Macrotask::Arrival(1));
    assert!(matches!(pending[2].task, Macrotask::Complete(_)));
    assert_eq!(pending[2].due, 1_000);
    assert!(pending
        .windows(2)
        .all(|w| (w[0].due, w[0].seq) < (w[1].due, w[1].seq)));
    assert!(!sim.is_done());
    sim.run();
    assert!(sim.is_done() && sim.pending().is_empty());
    let returns = sim
        .trace()
        .events()
        .iter()
        .filter(|e| e.what == What::Return)
        .count();
    assert_eq!(returns, 3);
}

#[test]
fn run_for_stops_at_its_budget_and_resumes() {
    let fragment = "scenario=stampede&strategy=add&requests=20";
    let mut bounded = sim(fragment);
    assert!(!bounded.run_for(10));
    assert_eq!(bounded.steps(), 10);
    assert!(bounded.run_for(u64::MAX));
    assert_eq!(bounded.metrics(), sim(fragment).run());
}
