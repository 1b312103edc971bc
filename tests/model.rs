//! The debugger's model (`interleave::debugger::model`) driven natively,
//! action by action, as the page drives it: it needs no page, no Yew and
//! no browser clock, so it can run wherever the runs are computed.

use std::rc::Rc;

use interleave::config::StrategyKind;
use interleave::debugger::model::{now_ms, Action, Busy, Debugger};
use interleave::explore::{Check, ExploreOptions};

/// Gives the model its chunks of work until it has none left (each chunk
/// with a generous deadline, as a worker with nothing else to do would).
fn settle(mut state: Rc<Debugger>) -> Rc<Debugger> {
    for _ in 0..100_000 {
        if !state.has_work() {
            return state;
        }
        state = state.act(Action::Work {
            deadline: now_ms() + 1_000.0,
        });
    }
    panic!("the model never settled: busy {:?}", state.busy);
}

fn open(hash: &str) -> Rc<Debugger> {
    settle(Rc::new(Debugger::load(hash)))
}

fn act(state: Rc<Debugger>, action: Action) -> Rc<Debugger> {
    settle(state.act(action))
}

#[test]
fn a_story_records_steps_and_runs_to_its_end() {
    // One user double-clicks under `none`: both clicks read "no order" and
    // both insert, so 2 reads, 2 writes and 1 duplicate ticket.
    let state = open("#v=1&scenario=ticket&strategy=none&users=1");
    assert_eq!(state.busy, Busy::Idle);
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    let steps = state.recording().expect("recorded").steps;
    assert!(steps > 2, "{steps} steps");
    assert_eq!(state.position(), 0);
    assert_eq!(state.metrics().orders, 0, "nothing has run yet");

    let state = act(state, Action::Step);
    assert_eq!(state.position(), 1);
    let state = act(state, Action::Step);
    let state = act(state, Action::Back);
    assert_eq!(state.position(), 1, "back replays to the step before");

    let state = act(state, Action::RunToEnd);
    assert!(state.at_end());
    assert_eq!(state.position(), steps);
    let metrics = state.metrics();
    assert_eq!(
        (
            metrics.db_reads,
            metrics.db_writes,
            metrics.orders,
            metrics.duplicate_tickets
        ),
        (2, 2, 2, 1)
    );
    assert!(
        state.explanation.is_some(),
        "the explanation follows the recording"
    );

    // The compare table ran every strategy on the same story.
    let row = |kind: StrategyKind| {
        state
            .compare_rows
            .iter()
            .find(|row| row.strategy == kind)
            .unwrap_or_else(|| panic!("a row for {kind:?}"))
            .metrics
            .clone()
    };
    assert_eq!(row(StrategyKind::None).duplicate_tickets, 1);
    assert_eq!(row(StrategyKind::KeyedMutex).duplicate_tickets, 0);
    assert_eq!(row(StrategyKind::KeyedMutex).orders, 1);

    let state = act(state, Action::Reset);
    assert_eq!(state.position(), 0);
}

#[test]
fn an_edit_runs_again_and_a_bad_value_says_why() {
    let state = open("#v=1&scenario=ticket&strategy=none&users=1");
    let before = state.fragment.clone();

    let state = act(state, Action::SetParam("users".into(), "many".into()));
    let (key, message) = state.param_error.clone().expect("a bad value is refused");
    assert_eq!(key, "users");
    assert!(!message.is_empty());
    assert_eq!(state.fragment, before, "the last good run stays");

    let state = act(
        state,
        Action::SetParam("strategy".into(), "keyed-mutex".into()),
    );
    assert_eq!(state.param_error, None);
    assert!(
        state.fragment.contains("strategy=keyed-mutex"),
        "{}",
        state.fragment
    );
    let state = act(state, Action::RunToEnd);
    let metrics = state.metrics();
    assert_eq!((metrics.orders, metrics.duplicate_tickets), (1, 0));

    // The page's own address update coming back changes nothing.
    let version = state.version;
    let hash = format!("#{}", state.fragment);
    let state = state.act(Action::Load(hash));
    assert_eq!(state.version, version);
}

#[test]
fn a_search_finds_the_race_and_opens_it_where_it_fails() {
    let state = open("#v=1&scenario=ticket&strategy=none&users=1");
    let state = act(
        state,
        Action::Explore {
            options: ExploreOptions::new(vec![Check::Duplicates]),
            every_strategy: false,
        },
    );
    let view = state.search_view.clone().expect("a search view");
    assert!(view.done());
    let row = &view.rows[0];
    assert_eq!(row.strategy, StrategyKind::None);
    assert!(row.result.complete);
    assert!(row.result.violating > 0);
    let counterexample = row.result.counterexample.clone().expect("a counterexample");

    let state = act(
        state,
        Action::OpenCounterexample {
            fragment: format!("#{}", counterexample.fragment),
            position: counterexample.violation_step + 1,
            violated: counterexample.violated.clone(),
        },
    );
    assert_eq!(state.busy, Busy::Idle);
    let state = act(state, Action::RunToEnd);
    assert!(state.metrics().duplicate_tickets > 0);
}

#[test]
fn a_script_records_and_an_edit_that_does_not_load_keeps_the_last_run() {
    // The shipped ticket script, one user double-clicking: the same counts
    // as the story's.
    let state = open("#v=1&scenario=script&example=ticket&strategy=none&users=1");
    assert!(state.program.is_script());
    assert_eq!(state.script_problem, None);
    let state = act(state, Action::RunToEnd);
    let metrics = state.metrics();
    assert_eq!((metrics.orders, metrics.duplicate_tickets), (2, 1));
    let fragment = state.fragment.clone();

    let state = act(
        state,
        Action::SetCode("async function handle(req) {\n  return (;\n}\n".into()),
    );
    let problem = state
        .script_problem
        .clone()
        .expect("the edit does not load");
    assert_eq!(
        problem.at.map(|(line, _)| line),
        Some(2),
        "{}",
        problem.message
    );
    assert_eq!(state.fragment, fragment, "the last good run stays");
    assert_eq!(state.metrics().duplicate_tickets, 1);

    // Back to a story: the script is left.
    let state = act(state, Action::SetParam("scenario".into(), "ticket".into()));
    assert!(!state.program.is_script());
    assert_eq!(state.script_problem, None);
}
