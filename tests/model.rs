//! The page's model (`interleave::model`) driven natively,
//! action by action, as the page drives it: it needs no page, no Yew and
//! no browser clock, so it can run wherever the runs are computed.

use std::rc::Rc;

use interleave::config::StrategyKind;
use interleave::explore::{Check, ExploreOptions};
use interleave::model::wire::{Inbox, Outbox, Received, Request, Server};
use interleave::model::{now_ms, Action, Busy, Debugger, Export, Frame, StepView};
use interleave::Metrics;

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

/// A ticket run's DB reads, DB writes, orders and duplicate tickets.
fn ticket_counts(metrics: &Metrics) -> (u64, u64, u64, u64) {
    (
        metrics.db_reads,
        metrics.db_writes,
        metrics.orders,
        metrics.duplicate_tickets,
    )
}

/// Each cursor of a step's view: its line, and how many requests await it.
fn cursors(view: &StepView) -> Vec<(usize, u32)> {
    view.cursors.iter().map(|c| (c.line, c.count)).collect()
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
    assert_eq!(ticket_counts(&metrics), (2, 2, 2, 1));
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

/// A script link's fragment for `code`, one user clicking twice.
#[cfg(scripts)]
fn script_link(code: &str) -> String {
    format!(
        "#v=1&scenario=script&strategy=none&users=1&clicks=2&code={}",
        interleave::script::source::encode(code)
    )
}

#[cfg(scripts)]
#[test]
fn a_request_a_budget_stops_refuses_the_script_with_its_line() {
    // The loop never awaits: the engine's budget stops request 0 there,
    // and the page's model refuses the script from then on, at the loop.
    let code = "async function handle(req) {\n  await sleep(1);\n  for (;;) {}\n}\n";
    let state = open(&script_link(code));
    let problem = state.script_problem.clone().expect("refused");
    assert_eq!(problem.at, Some((3, 3)), "{}", problem.message);
    assert!(
        problem
            .message
            .contains("request 0: RuntimeLimitError: ran too long"),
        "{}",
        problem.message
    );
    assert!(
        problem.message.contains("interleave run --script"),
        "{}",
        problem.message
    );
    assert!(state.recording().is_none(), "nothing of it stays on screen");
    assert_eq!(state.busy, Busy::Idle);
    // Nor does explore or manual mode run it.
    let state = act(state, Action::ToggleManual);
    assert!(state.manual_view().is_none());
    let state = act(
        state,
        Action::Explore {
            options: ExploreOptions::new(vec![Check::Duplicates]),
            every_strategy: false,
        },
    );
    assert!(state.search_view.is_none());
    // The same script again is refused at once; an edit of it runs.
    let again = act(state, Action::Load(script_link(code)));
    assert!(again.script_problem.is_some());
    let fixed = act(
        again,
        Action::SetCode("async function handle(req) {\n  await sleep(1);\n}\n".into()),
    );
    assert_eq!(fixed.script_problem, None);
    assert!(fixed.recording().is_some());
}

#[cfg(scripts)]
#[test]
fn a_worker_opened_on_a_refused_script_shows_why_and_runs_nothing() {
    // The page's guard terminated a silent worker: the next one opens the
    // script refused, its code in the panel, the reason as its error.
    let code = "async function handle(req) {\n  count(\"ran\");\n}\n";
    let link = script_link(code);
    interleave::script::guard::refuse(&link, "the script held the page's worker");
    let (mut worker, first) = Server::open(&link);
    let mut inbox = Inbox::default();
    let mut frame = frame_of(inbox.read(&first).expect("the first frame reads"));
    for _ in 0..1_000 {
        if !worker.has_work() {
            break;
        }
        let bytes = worker.work(now_ms() + 1_000.0);
        if !bytes.is_empty() {
            frame = frame_of(inbox.read(&bytes).expect("a frame reads"));
        }
    }
    let script = frame.script.clone().expect("the script panel");
    assert_eq!(script.code, code);
    let problem = script.problem.expect("refused");
    assert_eq!(problem.message, "`code`: the script held the page's worker");
    assert!(frame.run.is_none(), "nothing ran");
    assert!(frame.compare_rows.is_empty());
}

#[test]
fn manual_mode_turned_on_while_a_script_loads_stays_on() {
    // A click that reaches the model before the script has loaded (its
    // worker answers a moment later): manual mode is on once the run is.
    let state = Rc::new(Debugger::load(
        "#v=1&scenario=script&example=ticket&strategy=none&users=1",
    ));
    assert_eq!(state.busy, Busy::Loading);
    let state = act(state, Action::ToggleManual);
    let manual = state.manual_view().expect("manual mode is on");
    assert_eq!(manual.choices.len(), 2, "both clicks arrive first");
    assert!(state.recording().is_some(), "and the run recorded");
}

#[test]
fn the_step_view_says_what_ran_and_what_waits() {
    use interleave::sim::trace::OpKind;
    use interleave::sim::Macrotask;

    // Before a step: both clicks' arrivals wait, nothing has run.
    let state = open("#v=1&scenario=ticket&strategy=none&users=1");
    let view = state.step_view();
    assert_eq!((view.ran.as_deref(), view.queued), (None, 2));
    assert!(view.cursors.is_empty() && view.touched.is_empty());

    // The first click arrives and sends its find: it awaits line 3 of the
    // listing, and the second arrival waits before the find's answer.
    let state = act(state, Action::Step);
    let view = state.step_view();
    assert_eq!(view.ran.as_deref(), Some("step 1 at 0 ms: #0 arrives"));
    assert_eq!(view.touched, vec![3]);
    assert_eq!(cursors(&view), vec![(3, 1)]);
    assert_eq!((view.events.len(), view.events_total), (3, 3));
    let queued: Vec<_> = view
        .pending
        .iter()
        .map(|(p, info, _)| (p.due, p.task, info.op))
        .collect();
    assert_eq!(
        queued,
        vec![
            (0, Macrotask::Arrival(1), None),
            (20_000, Macrotask::Complete(0), Some(OpKind::DbFindOrder)),
        ]
    );
    let state = act(state, Action::RunToEnd);
    assert!(
        state.step_view().touched.is_empty(),
        "no line runs after the end"
    );

    // A script's step and queued answers name the script's own line: both
    // clicks await `db.findOne` on line 14 of ticket.js.
    let state = open("#v=1&scenario=script&example=ticket&strategy=none&users=1");
    let view = act(act(state, Action::Step), Action::Step).step_view();
    assert_eq!(
        view.ran.as_deref(),
        Some("step 2 at 0 ms: #1 arrives (line 14)")
    );
    assert_eq!(cursors(&view), vec![(14, 2)]);
    let lines: Vec<_> = view
        .pending
        .iter()
        .map(|(_, info, line)| (info.request, *line))
        .collect();
    assert_eq!(lines, vec![(0, Some(14)), (1, Some(14))]);
}

#[test]
fn a_frame_holds_what_the_page_draws_and_the_run_exports() {
    // The page draws frames only: before the run, a frame with no run and
    // nothing to step; after it, the run's lanes (one per request of the
    // double click), its violation and the step, shared with the model.
    let state = Rc::new(Debugger::load("#v=1&scenario=ticket&strategy=none&users=1"));
    let first = state.frame();
    assert!(first.run.is_none() && !first.ready);
    assert_eq!(first.drawn, 0);
    assert!(
        state.export(Export::Trace).is_none(),
        "nothing to export yet"
    );

    let state = act(settle(state), Action::Step);
    let frame = state.frame();
    assert!(frame.ready && !frame.at_end);
    assert_eq!(frame.version, state.version);
    assert_eq!(
        frame.fragment, "v=1&scenario=ticket&strategy=none",
        "canonical"
    );
    assert_eq!((frame.position, frame.metrics.orders), (1, 0));
    let run = frame.run.as_ref().expect("a recorded run");
    let recording = state.recording().expect("recorded");
    assert_eq!(run.timeline.lanes.len(), 2, "one lane per click");
    assert!(
        Rc::ptr_eq(&run.timeline, &recording.timeline),
        "shared, not copied"
    );
    assert!(frame.has_violation());
    assert_eq!(
        frame.step.ran.as_deref(),
        Some("step 1 at 0 ms: #0 arrives")
    );
    assert_eq!(cursors(&frame.step), cursors(&state.step_view()));
    assert_eq!(frame.step.queued, state.step_view().queued);

    // The export is the recorded trace: one JSON line per event.
    let trace = state.export(Export::Trace).expect("a run to export");
    assert_eq!(trace.name, "interleave-trace.jsonl");
    assert_eq!(trace.text.lines().count(), recording.events.len());
    let svg = state.export(Export::Svg).expect("a run to export");
    assert!(svg.text.starts_with("<svg"), "{}", &svg.text[..40]);

    // An unchanged model makes an equal frame, parts aside (compared by
    // identity: a new frame makes its own).
    let again = state.frame();
    assert_eq!(
        (again.version, again.position),
        (frame.version, frame.position)
    );
    assert!(again.step != frame.step && *again.step == *frame.step);
}

/// A worker's side of the page's link, driven by encoded requests as
/// `web/model.js` drives it: each request, then its chunks of work.
struct Worker {
    server: Server,
}

impl Worker {
    fn open(hash: &str) -> (Worker, Vec<u8>) {
        let (server, first) = Server::open(hash);
        (Worker { server }, first)
    }

    /// The replies to one request, then to each chunk of work it started.
    fn request(&mut self, request: &[u8]) -> Vec<Vec<u8>> {
        let mut replies = vec![self.server.request(request)];
        replies.extend(self.settle());
        replies.retain(|reply| !reply.is_empty());
        replies
    }

    /// The frames of each chunk of work, until there is none.
    fn settle(&mut self) -> Vec<Vec<u8>> {
        let mut replies = Vec::new();
        while self.server.has_work() {
            replies.push(self.server.work(now_ms() + 1_000.0));
        }
        replies.retain(|reply| !reply.is_empty());
        replies
    }
}

/// A frame's whole content as bytes, its large parts included.
fn whole(frame: &Frame) -> Vec<u8> {
    Outbox::default().frame(frame.clone())
}

fn frame_of(received: Received) -> Rc<Frame> {
    match received {
        Received::Frame(frame) => frame,
        Received::File(_) => panic!("a file where a frame was due"),
    }
}

#[test]
fn a_worker_sends_frames_the_page_reads_back_and_large_parts_once() {
    let hash = "#v=1&scenario=ticket&strategy=none&users=1";
    let (mut worker, first) = Worker::open(hash);
    let mut inbox = Inbox::default();
    let frame = frame_of(inbox.read(&first).expect("the first frame reads"));
    assert_eq!(whole(&frame), whole(&Debugger::load(hash).frame()));

    // Its work (drawing, recording, explaining, the compare table) sends a
    // frame per chunk; the last is the settled model's, part for part.
    let mut replies = worker.settle();
    assert!(replies.len() > 2, "{} replies", replies.len());
    let own = format!("#{}", frame.fragment);
    let again = worker.request(&Request::Act(Action::Load(own)).encode());
    assert!(again.is_empty(), "the page's own address coming back");
    replies.extend(worker.request(&Request::Act(Action::Step).encode()));
    let mut last = None;
    for reply in &replies {
        last = Some(frame_of(inbox.read(reply).expect("a frame reads")));
    }
    let last = last.expect("frames");
    assert_eq!(whole(&last), whole(&worker.server.host().frame()));
    assert_eq!((last.position, last.metrics.orders), (1, 0));
    assert_eq!(last.run.as_ref().expect("recorded").timeline.lanes.len(), 2);
    assert_eq!(last.compare_rows.len(), StrategyKind::ALL.len());

    // A step sends the step: the lanes, listing, explanation and compare
    // table stay as the page has them.
    let replies = worker.request(&Request::Act(Action::Step).encode());
    assert_eq!(replies.len(), 1);
    let stepped = frame_of(inbox.read(&replies[0]).expect("a frame reads"));
    assert_eq!(stepped.position, last.position + 1);
    assert!(Rc::ptr_eq(
        stepped.run.as_ref().unwrap(),
        last.run.as_ref().unwrap()
    ));
    assert!(Rc::ptr_eq(&stepped.listing, &last.listing));
    assert!(Rc::ptr_eq(&stepped.compare_rows, &last.compare_rows));
    assert!(
        replies[0].len() * 4 < whole(&stepped).len(),
        "{} bytes",
        replies[0].len()
    );
    assert_eq!(whole(&stepped), whole(&worker.server.host().frame()));

    // Run to the end: the same counts as the model driven directly.
    let replies = worker.request(&Request::Act(Action::RunToEnd).encode());
    let end = frame_of(inbox.read(replies.last().unwrap()).expect("a frame reads"));
    assert!(end.at_end);
    let metrics = &end.metrics;
    assert_eq!(ticket_counts(metrics), (2, 2, 2, 1));

    // An export is a file.
    let replies = worker.request(&Request::Export(Export::Trace).encode());
    match inbox.read(&replies[0]).expect("a file reads") {
        Received::File(Some(file)) => {
            assert_eq!(file.name, "interleave-trace.jsonl");
            let recording = worker.server.host().model().recording().expect("recorded");
            assert_eq!(file.text.lines().count(), recording.events.len());
        }
        _ => panic!("a file was due"),
    }
}

#[test]
fn a_message_that_does_not_read_is_an_error_not_a_panic() {
    let mut inbox = Inbox::default();
    let error = inbox.read(&[7, 200, 1]).err().expect("an error");
    assert!(error.contains("does not read"), "{error}");
    assert!(Request::decode(&[255, 255]).is_err());
    // A frame that leans on parts the page never had.
    let (mut worker, _) = Worker::open("#v=1&scenario=ticket");
    worker.settle();
    let replies = worker.request(&Request::Act(Action::Step).encode());
    let error = Inbox::default().read(replies.last().unwrap()).err();
    assert!(error.expect("an error").contains("without its parts"));
}

#[test]
fn a_script_frame_reads_back_whole() {
    let (mut worker, first) = Worker::open("#v=1&scenario=script&example=ticket&users=2");
    let mut inbox = Inbox::default();
    inbox.read(&first).expect("the first frame reads");
    let mut replies = worker.settle();
    replies.extend(worker.request(&Request::Act(Action::Step).encode()));
    let mut last = None;
    for reply in &replies {
        last = Some(frame_of(inbox.read(reply).expect("a frame reads")));
    }
    let last = last.expect("frames");
    let script = last.script.as_ref().expect("a script's frame");
    assert_eq!(script.source_piece, "example=ticket");
    assert!(script.code.contains("async"), "{}", script.code);
    assert_eq!(last.position, 1);
    assert!(
        !last.step.cursors.is_empty(),
        "cursors on the script's lines"
    );
    assert_eq!(whole(&last), whole(&worker.server.host().frame()));
}

#[test]
fn a_link_written_another_way_gets_a_frame_with_the_canonical_link() {
    // `users=1` is the default: the same scenario, which the page shows
    // again, with the canonical link for its address bar.
    let (mut worker, first) = Server::open("#v=1&scenario=ticket&strategy=none");
    let mut inbox = Inbox::default();
    let frame = frame_of(inbox.read(&first).expect("the first frame reads"));
    let same = worker.request(&Request::Act(Action::Load(format!("#{}", frame.fragment))).encode());
    assert!(same.is_empty(), "its own link changes nothing");
    let other = worker.request(
        &Request::Act(Action::Load(
            "#v=1&scenario=ticket&strategy=none&users=1".into(),
        ))
        .encode(),
    );
    let again = frame_of(inbox.read(&other).expect("a frame"));
    assert!(again.version > frame.version);
    assert_eq!(again.fragment, frame.fragment);
}

#[test]
fn a_second_click_on_choices_already_passed_is_ignored() {
    // The page sends each choice with how many it had seen made: a quick
    // second click on the same list reaches a model that has moved on.
    let state = open("#v=1&scenario=ticket&strategy=none&users=1");
    let state = act(state, Action::ToggleManual);
    assert_eq!(state.manual_view().expect("manual mode").made, 0);
    let state = act(state, Action::Choose { index: 0, made: 0 });
    let view = state.manual_view().expect("manual mode");
    assert_eq!(view.made, 1);
    let state = act(state, Action::Choose { index: 0, made: 0 });
    assert_eq!(state.manual_view().expect("manual mode").made, 1, "ignored");
    let state = act(state, Action::Choose { index: 0, made: 1 });
    assert_eq!(state.manual_view().expect("manual mode").made, 2);
}

/// A run too large for any strategy to finish within the compare table's
/// events gets no table (its rows would all be lower bounds, "≥ 0", after
/// a minute of work); one that fits gets it.
#[test]
fn the_compare_table_runs_only_what_a_strategy_can_finish() {
    let huge = Debugger::load("#v=1&scenario=stampede&strategy=none&requests=1000000");
    assert!(!huge.comparing());
    assert!(huge.compare_rows.is_empty());
    let fits = Debugger::load("#v=1&scenario=stampede&strategy=none&requests=999999");
    assert!(fits.comparing());
}

/// What a frame shows the model doing: what it is busy with, how much of
/// the page is drawn, and whether a run is on screen.
fn stage_of(frame: &Frame) -> (Busy, u8, bool) {
    (frame.busy, frame.drawn, frame.run.is_some())
}

#[test]
fn frames_that_only_tell_progress_come_ten_a_second() {
    // Short chunks, as a busy worker runs them: a frame whose stage is the
    // last one's (the recording's count, the compare table's rows) comes
    // at least PROGRESS_GAP_MS after it; a new stage at once; and the last
    // frame shows the model as it ends.
    use interleave::model::{Host, PROGRESS_GAP_MS};
    let mut host = Host::open("#v=1&scenario=stampede&strategy=keyed-mutex&requests=3000");
    let (mut shown, mut since) = (host.frame(), f64::NEG_INFINITY);
    let (mut held, mut chunks) = (0, 0);
    while host.has_work() {
        chunks += 1;
        assert!(chunks < 1_000_000, "the model never settled");
        let deadline = now_ms() + 0.5;
        match host.act(Action::Work { deadline }) {
            Some(frame) => {
                if stage_of(&frame) == stage_of(&shown) && host.has_work() {
                    assert!(
                        deadline - since >= PROGRESS_GAP_MS,
                        "a progress frame too soon"
                    );
                }
                (shown, since) = (frame, deadline);
            }
            None => {
                let model = host.model();
                let now = (model.busy, model.drawn, model.recording().is_some());
                assert_eq!(now, stage_of(&shown), "a new stage was held back");
                held += usize::from(model.version != shown.version);
            }
        }
    }
    assert_eq!(
        shown.version,
        host.model().version,
        "the last frame is the model's end"
    );
    assert!(shown.ready && shown.run.is_some() && !shown.comparing);
    assert!(held > 0, "some progress was held back ({chunks} chunks)");
}
