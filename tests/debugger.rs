//! The step debugger's model: positions, replay, violations, timeline and
//! the compare table, on scenarios worked out by hand (cache 1 ms, DB 20 ms).
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use interleave::config::{Config, ScenarioKind, StrategyKind, MS};
use interleave::debugger::shared_lanes::Tone;
use interleave::debugger::{
    Compare, Program, Recording, RequestState, Session, SpanKind, ViolationKind,
};
use interleave::scenario::listing::Listing;
use interleave::sim::trace::{Outcome, Site};
use interleave::Sim;

fn config(scenario: ScenarioKind, strategy: StrategyKind) -> Config {
    Config {
        strategy,
        ..Config::new(scenario)
    }
}

fn session(config: &Config) -> Session {
    Session::new(Rc::new(Recording::of(config).unwrap()))
}

#[test]
fn stepping_forward_then_back_returns_to_the_start() {
    let mut session = session(&config(ScenarioKind::Stampede, StrategyKind::KeyedMutex));
    let start = (session.metrics(), session.pending(), session.now());
    for _ in 0..7 {
        assert!(session.step());
    }
    assert_eq!(session.position(), 7);
    for _ in 0..7 {
        session.back();
    }
    assert_eq!(session.position(), 0);
    assert_eq!((session.metrics(), session.pending(), session.now()), start);
}

#[test]
fn running_to_the_end_gives_the_recorded_metrics() {
    let config = config(ScenarioKind::Ticket, StrategyKind::None);
    let mut session = session(&config);
    while !session.run_for(3) {}
    assert_eq!(session.metrics(), Sim::new(&config).run());
    assert_eq!(session.metrics(), session.recording().metrics);
    assert_eq!(session.position(), session.recording().steps);
    assert!(!session.step(), "nothing after the end");
}

#[test]
fn a_double_click_without_a_lock_violates_when_the_second_insert_lands() {
    // Both clicks arrive at 0 (steps 0, 1), find nothing at 20 ms (steps
    // 2, 3) and insert; the inserts land at 40 ms, in steps 4 and 5.
    let mut session = session(&config(ScenarioKind::Ticket, StrategyKind::None));
    let violations = session.recording().violations.clone();
    let duplicates: Vec<_> = violations
        .iter()
        .filter(|v| v.kind == ViolationKind::DuplicateTicket)
        .collect();
    assert_eq!(duplicates.len(), 1);
    assert_eq!((duplicates[0].step, duplicates[0].time), (5, 40 * MS));
    // The two bodies overlap from the second arrival on, but the jump goes
    // to the harm: right after the second insert lands.
    assert_eq!(violations[0].kind, ViolationKind::SecondHolder);
    assert_eq!(violations[0].step, 1);
    assert!(session.jump_to_first_violation());
    assert_eq!(session.position(), 6);
    assert_eq!(session.metrics().duplicate_tickets, 1);
}

#[test]
fn extra_db_reads_are_the_ones_after_the_first_per_load() {
    let count = |strategy, double_check| {
        let config = Config {
            double_check,
            ..config(ScenarioKind::Stampede, strategy)
        };
        Recording::of(&config)
            .unwrap()
            .violations
            .iter()
            .filter(|v| v.kind == ViolationKind::ExtraDbRead)
            .count()
    };
    // 10 concurrent misses: 9 reads while the first is loading.
    assert_eq!(count(StrategyKind::None, true), 9);
    // The mutex serializes them; without the second read each later one
    // reads a key that is already live again.
    assert_eq!(count(StrategyKind::KeyedMutex, false), 9);
    assert_eq!(count(StrategyKind::KeyedMutex, true), 0);
    assert_eq!(count(StrategyKind::SingleFlight, true), 0);
}

#[test]
fn the_timeline_has_one_span_per_await() {
    let config = Config {
        requests: 2,
        ..config(ScenarioKind::Stampede, StrategyKind::None)
    };
    let recording = Recording::of(&config).unwrap();
    let lane = &recording.timeline.lanes[0];
    let spans: Vec<_> = lane
        .spans
        .iter()
        .map(|s| (s.kind, s.start / MS, s.end.map(|e| e / MS)))
        .collect();
    assert_eq!(
        spans,
        [
            (SpanKind::Cache, 0, Some(1)),
            (SpanKind::Critical, 1, Some(22)),
            (SpanKind::DbRead, 1, Some(21)),
            (SpanKind::Cache, 21, Some(22)),
        ]
    );
    assert_eq!(
        lane.returned.map(|(t, _, o)| (t / MS, o)),
        Some((22, Outcome::Ok))
    );
    // The hot key is live from the first set (22 ms), then again from the
    // second; two overlapping holders make a conflict.
    let cache = &recording.timeline.shared[0];
    let starts: Vec<_> = cache.segments.iter().map(|s| s.start / MS).collect();
    assert_eq!(starts, [22, 22]);
    let holders = recording.timeline.shared.last().unwrap();
    assert_eq!(holders.rows, 2);
    assert_eq!(holders.segments[0].tone, Tone::Inside);
    assert_eq!(holders.segments[1].tone, Tone::Conflict);
}

#[test]
fn many_holders_at_once_draw_as_a_count_with_the_peak() {
    // 20 requests miss at 1 ms and all enter at once; the selects land at
    // 21 ms and the sets at 22 ms, when all leave: one stretch of 20.
    let burst = Config {
        requests: 20,
        ..config(ScenarioKind::Stampede, StrategyKind::None)
    };
    let recording = Recording::of(&burst).unwrap();
    let holders = recording.timeline.shared.last().unwrap();
    assert_eq!(holders.label, "holders of item:0");
    assert_eq!(holders.peak_note, "peak 20 at 1 ms");
    assert_eq!((holders.rows, holders.peak), (1, 20));
    let stretches: Vec<_> = holders
        .segments
        .iter()
        .map(|s| (s.start / MS, s.end.map(|e| e / MS), s.level, s.tone))
        .collect();
    assert_eq!(stretches, [(1, Some(22), 20, Tone::Conflict)]);
    // Staggered arrivals: the count climbs one by one, then falls.
    let staggered = Config {
        requests: 6,
        arrival: interleave::config::Arrival::Gap(2 * MS),
        ..config(ScenarioKind::Stampede, StrategyKind::None)
    };
    let recording = Recording::of(&staggered).unwrap();
    let holders = recording.timeline.shared.last().unwrap();
    let levels: Vec<_> = holders
        .segments
        .iter()
        .map(|s| (s.start / MS, s.level))
        .collect();
    // Enter at 1, 3, 5, 7, 9, 11 ms; leave at 22, 24, ... 32 ms.
    assert_eq!(
        levels,
        [
            (1, 1),
            (3, 2),
            (5, 3),
            (7, 4),
            (9, 5),
            (11, 6),
            (22, 5),
            (24, 4),
            (26, 3),
            (28, 2),
            (30, 1)
        ]
    );
    assert_eq!(
        (holders.peak_note.as_str(), holders.peak_at),
        ("peak 6 at 11 ms", 11 * MS)
    );
}

#[test]
fn a_few_holders_keep_a_row_each_and_say_their_server() {
    let config = Config {
        servers: 2,
        ..config(ScenarioKind::Ticket, StrategyKind::KeyedMutex)
    };
    let recording = Recording::of(&config).unwrap();
    let holders = recording.timeline.shared.last().unwrap();
    let texts: Vec<_> = holders
        .segments
        .iter()
        .map(|s| (s.row, s.text.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            (0, "#0 holds user:0:event on server 0"),
            (1, "#1 holds user:0:event on server 1")
        ]
    );
}

#[test]
fn a_lane_with_a_segment_per_request_draws_a_bounded_number() {
    let config = Config {
        requests: 5_000,
        ..config(ScenarioKind::Stampede, StrategyKind::KeyedMutex)
    };
    let recording = Recording::of(&config).unwrap();
    let holders = recording.timeline.shared.last().unwrap();
    assert_eq!(holders.segments.len(), 5_000);
    let shown = holders.visible(0, recording.end, 400);
    assert!(!shown.is_empty() && shown.len() <= 400, "{}", shown.len());
    // Zoomed in on the first 100 ms, every holder there is drawn.
    let early = holders.visible(0, 100 * MS, 400);
    let expected = holders
        .segments
        .iter()
        .filter(|s| s.start <= 100 * MS)
        .count();
    assert_eq!(early.len(), expected);
}

#[test]
fn recording_in_small_chunks_builds_the_same_recording() {
    for fragment in [
        "scenario=stampede&strategy=none&requests=30&db_latency=uniform:1ms..30ms",
        "scenario=ticket&strategy=add&users=3&lock_ttl=5ms&pause=0:30ms",
    ] {
        let config = interleave::config::url::parse_fragment(fragment).unwrap();
        let whole = Recording::of(&config).unwrap();
        let mut recorder = interleave::debugger::Recorder::new(&config);
        let mut calls = 0;
        while !recorder.advance(3).unwrap() {
            calls += 1;
        }
        let chunked = recorder.finish();
        assert!(calls > 10, "{fragment}: {calls}");
        assert_eq!(chunked.timeline, whole.timeline, "{fragment}");
        assert_eq!(chunked.violations, whole.violations, "{fragment}");
        assert_eq!(chunked.events, whole.events, "{fragment}");
        assert_eq!(chunked.metrics, whole.metrics, "{fragment}");
    }
}

#[test]
fn the_lock_wait_spans_from_the_first_attempt_to_the_entry() {
    let config = Config {
        requests: 2,
        ..config(ScenarioKind::Stampede, StrategyKind::KeyedMutex)
    };
    let recording = Recording::of(&config).unwrap();
    // The second request waits from its miss (1 ms) until the first
    // releases after its set lands (1 + 1 + 20 + 1 = 23 ms).
    let wait = recording.timeline.lanes[1]
        .spans
        .iter()
        .find(|s| s.kind == SpanKind::LockWait)
        .unwrap();
    assert_eq!((wait.start / MS, wait.end.map(|e| e / MS)), (1, Some(23)));
}

#[test]
fn cursors_sit_on_the_awaited_line() {
    let config = config(ScenarioKind::Stampede, StrategyKind::None);
    let listing = Listing::of(&config);
    let mut session = session(&config);
    session.seek(10);
    // After the ten arrivals every request awaits its first cache read.
    let get_line = listing.line_of(Site::Get).unwrap();
    let cursors = session.cursors(&listing);
    assert_eq!(cursors.len(), 1);
    assert_eq!((cursors[0].line, cursors[0].count), (get_line, 10));
    assert_eq!(cursors[0].first, [0, 1, 2, 3, 4, 5]);
    session.seek(u32::MAX);
    assert!(session.cursors(&listing).is_empty());
    assert!(session
        .request_states()
        .iter()
        .all(|s| *s == RequestState::Returned(Outcome::Ok)));
}

#[test]
fn compare_runs_every_strategy_in_chunks() {
    let config = config(ScenarioKind::Stampede, StrategyKind::None);
    let mut compare = Compare::new(&config);
    while !compare.advance(7) {}
    assert_eq!(compare.rows.len(), StrategyKind::ALL.len());
    for row in &compare.rows {
        let alone = Config {
            strategy: row.strategy,
            ..config.clone()
        };
        assert_eq!(row.metrics, Sim::new(&alone).run(), "{:?}", row.strategy);
    }
}

#[test]
fn the_last_step_lists_the_events_it_caused() {
    // Step 10 is the first cache get landing at 1 ms: the miss, the
    // critical section (no lock) and the select it sends.
    let config = config(ScenarioKind::Stampede, StrategyKind::None);
    let mut session = session(&config);
    session.seek(11);
    let whats: Vec<_> = session
        .last_events()
        .iter()
        .map(|e| e.what.name())
        .collect();
    assert_eq!(whats, ["complete", "enter", "issue"]);
    assert!(session
        .last_events()
        .iter()
        .all(|e| e.step == 10 && e.request == 0));
}

#[test]
fn a_stampede_jumps_to_the_second_db_read() {
    // Ten arrivals (steps 0-9), then the gets land one per step from 1 ms:
    // request 0's miss sends the first select (step 10), request 1's the
    // second (step 11).
    let mut stampede = session(&config(ScenarioKind::Stampede, StrategyKind::None));
    assert!(stampede.jump_to_first_violation());
    assert_eq!(stampede.position(), 12);
    assert_eq!(stampede.metrics().db_reads, 2);
    // With single-flight there is only the harmless kind, or none at all.
    let mut flight = session(&config(ScenarioKind::Stampede, StrategyKind::SingleFlight));
    assert!(!flight.jump_to_first_violation());
    assert_eq!(flight.position(), 0);
}

#[test]
fn a_search_job_covers_every_strategy_in_chunks() {
    use interleave::debugger::SearchJob;
    use interleave::explore::{Check, ExploreOptions};
    let config = config(ScenarioKind::Ticket, StrategyKind::None);
    let mut job = SearchJob::every_strategy(
        &Program::Story,
        &config,
        ExploreOptions::new(vec![Check::Duplicates]),
    );
    let mut chunks = 0;
    while !job.advance(2) {
        chunks += 1;
        // Between chunks a search is always running until all are done.
        assert!(job.running().is_some());
    }
    assert!(chunks > StrategyKind::ALL.len());
    assert_eq!(job.rows.len(), StrategyKind::ALL.len());
    let none = &job.rows[0];
    assert_eq!(none.strategy, StrategyKind::None);
    assert!(none.result.complete && none.result.violating > 0);
    let mutex = job
        .rows
        .iter()
        .find(|r| r.strategy == StrategyKind::KeyedMutex)
        .unwrap();
    assert!(mutex.result.complete);
    assert_eq!(mutex.result.violating, 0, "one server: the mutex holds");
    assert!(job.result().is_none(), "several rows");
}

/// The "Ran" line of every step of a run, stepping from the start.
fn ran_lines(config: &Config) -> Vec<String> {
    let mut session = session(config);
    let mut lines = Vec::new();
    while session.step() {
        lines.push(session.ran_line().expect("a step ran"));
    }
    lines
}

#[test]
fn the_ran_line_names_the_macrotask_that_just_ran() {
    // Both clicks arrive at 0, each finds no order at 20 ms and inserts;
    // both inserts land at 40 ms. Steps count from 1, as the step index.
    let lines = ran_lines(&config(ScenarioKind::Ticket, StrategyKind::None));
    assert_eq!(
        lines,
        [
            "step 1 at 0 ms: #0 arrives",
            "step 2 at 0 ms: #1 arrives",
            "step 3 at 20 ms: #0 db.findOrder user:0:event completes",
            "step 4 at 20 ms: #1 db.findOrder user:0:event completes",
            "step 5 at 40 ms: #0 db.insert user:0:event completes",
            "step 6 at 40 ms: #1 db.insert user:0:event completes",
        ]
    );
}

#[test]
fn the_ran_line_agrees_with_the_trace_at_every_step() {
    let fragments = [
        "scenario=stampede&strategy=keyed-mutex&requests=4",
        "scenario=stampede&strategy=add&requests=3&poll=5ms",
        "scenario=ticket&strategy=emitter-lock&users=2",
        "scenario=ticket&strategy=ticket-lock&poll=7ms",
        "scenario=stampede&strategy=single-flight&requests=3&db_pool=1",
    ];
    for fragment in fragments {
        let config = interleave::config::url::parse_fragment(fragment).unwrap();
        let recording = Recording::of(&config).unwrap();
        let lines = ran_lines(&config);
        assert_eq!(lines.len() as u32, recording.steps, "{fragment}");
        for (index, line) in lines.iter().enumerate() {
            let first = &recording.events_of_step(index as u32)[0];
            let who = format!(": #{}", first.request);
            let after = line.split_once(&who).map(|(_, rest)| rest.chars().next());
            assert!(
                matches!(after, Some(Some(' ' | '\''))),
                "{fragment} step {index}: {line} vs {first:?}"
            );
            assert!(
                line.starts_with(&format!("step {} at ", index + 1)),
                "{fragment}: {line}"
            );
            assert!(
                line.contains(&who),
                "{fragment} step {index}: {line} vs {first:?}"
            );
            if first.what.op() == Some(interleave::sim::trace::OpKind::Sleep) {
                assert!(
                    line.ends_with("'s timer fires"),
                    "{fragment} step {index}: {line}"
                );
            } else if let Some(op) = first.what.op() {
                let label = interleave::debugger::narrate::op_label(op);
                assert!(
                    line.contains(label),
                    "{fragment} step {index}: {line} vs {first:?}"
                );
            }
        }
    }
}

#[test]
fn rows_that_land_at_one_instant_share_one_segment() {
    // Both inserts land at 40 ms: one segment, never a zero-length one.
    let recording = Recording::of(&config(ScenarioKind::Ticket, StrategyKind::None)).unwrap();
    let orders = &recording.timeline.shared[0];
    let segments: Vec<_> = orders
        .segments
        .iter()
        .map(|s| (s.start / MS, s.text.as_str(), s.tone))
        .collect();
    assert_eq!(segments, [(40, "2 order rows (#0, #1)", Tone::Conflict)]);
    // A refused insert adds no row.
    let unique = Config {
        db_unique: true,
        ..config(ScenarioKind::Ticket, StrategyKind::None)
    };
    let recording = Recording::of(&unique).unwrap();
    let texts: Vec<_> = recording.timeline.shared[0]
        .segments
        .iter()
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(texts, ["1 order row (#0)"]);
}

/// An emitter lock's herd of 2,500 requests is 6.3 million trace events,
/// yet only 3.1 million units of work: the page, which recorded it whole,
/// doubled the trace's buffer to 2^23 events, one copy of 168 MB in one
/// browser task. Recorded in the page's slices (8,000 units of work), the
/// recording now stops before the buffer outgrows 2^22 events.
#[test]
fn a_recording_stops_before_its_trace_outgrows_2_pow_22_events() {
    use interleave::debugger::recording::{
        MAX_RECORDED_EVENTS, MAX_RECORDED_STEPS, MAX_RECORDED_WORK,
    };
    let config = interleave::config::url::parse_fragment(
        "scenario=stampede&strategy=emitter-lock&requests=2500",
    )
    .unwrap();
    let mut recorder = interleave::debugger::Recorder::new(&config);
    loop {
        let start = recorder.work();
        while recorder.work() - start < 8_000 {
            assert!(!recorder.advance(1).unwrap(), "recorded to the end");
        }
        if recorder.too_long(MAX_RECORDED_STEPS, MAX_RECORDED_WORK, MAX_RECORDED_EVENTS) {
            break;
        }
    }
    assert!(recorder.events() > MAX_RECORDED_EVENTS);
    assert!(recorder.events() <= 1 << 22, "{} events", recorder.events());
}

/// A lane's violations, found through the index by request, are exactly
/// the recording's violations of that request, in run order.
#[test]
fn a_lanes_violations_are_found_by_request() {
    for fragment in [
        "scenario=stampede&strategy=none&requests=300&keys=3",
        "scenario=ticket&strategy=get-set&users=4&clicks=3",
    ] {
        let config = interleave::config::url::parse_fragment(fragment).unwrap();
        let recording = Recording::of(&config).unwrap();
        assert!(
            !recording.violations.is_empty(),
            "{fragment} has violations"
        );
        for lane in &recording.timeline.lanes {
            let indexed: Vec<_> = recording.violations_of(lane.request).collect();
            let scanned: Vec<_> = recording
                .violations
                .iter()
                .filter(|v| v.request == lane.request)
                .collect();
            assert_eq!(indexed, scanned, "{fragment}: request {}", lane.request);
        }
    }
}
