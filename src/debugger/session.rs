//! The step debugger's position in a recorded run: a live run advanced
//! to some step. Stepping back replays from the start, so every position
//! is exactly the state the run had there.

use std::rc::Rc;

use crate::debugger::narrate;
use crate::debugger::recording::Recording;
use crate::run::{Headline, Run, Scheduled};
use crate::scenario::listing::Listing;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::trace::{Outcome, Site};
use crate::sim::{Metrics, StepReport, TaskInfo, TraceEvent, What};

pub struct Session {
    recording: Rc<Recording>,
    /// The live run, following the config's schedule (if any).
    run: Scheduled<dyn Run>,
    last: Option<StepReport>,
}

/// Where a request is at the current step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestState {
    NotArrived,
    /// Parked on an await at this site (`event`: the trace event that
    /// put it there, if any).
    Awaiting(Site, Option<usize>),
    Returned(Outcome),
}

impl Session {
    /// A session at the start of a built-in story's recording.
    pub fn new(recording: Rc<Recording>) -> Session {
        Session::of(recording).expect("a built-in story always starts")
    }

    /// A session at the start of `recording`; an error only if its
    /// program no longer loads (it loaded to record it, and loading is
    /// deterministic).
    pub fn of(recording: Rc<Recording>) -> Result<Session, String> {
        // The live run needs no trace of its own: the recording has it.
        let run = recording.program.start(&recording.config, false)?;
        Ok(Session {
            recording,
            run,
            last: None,
        })
    }

    pub fn recording(&self) -> &Rc<Recording> {
        &self.recording
    }

    /// Engine work of the live run so far (see [`crate::Sim::work`]).
    pub fn work(&self) -> u64 {
        self.run.work()
    }

    /// Macrotasks run so far: the events of steps below it have happened.
    pub fn position(&self) -> u32 {
        self.run.steps()
    }

    pub fn now(&self) -> u64 {
        self.run.now()
    }

    pub fn at_end(&self) -> bool {
        self.run.is_done()
    }

    pub fn metrics(&self) -> Metrics {
        self.run.metrics()
    }

    /// The counters that tell this run's story.
    pub fn headline(&self) -> Headline {
        self.run.headline()
    }

    pub fn pending(&self) -> Vec<Pending> {
        self.run.pending()
    }

    /// What a queued macrotask belongs to.
    pub fn describe(&self, task: Macrotask) -> TaskInfo {
        self.run.describe(task)
    }

    /// The last step's report: its macrotask and the events it caused.
    pub fn last_step(&self) -> Option<&StepReport> {
        self.last.as_ref()
    }

    /// What the last step's macrotask was, read from its own first trace
    /// event: asking the run instead would name the request's next
    /// operation, since the step has already reused the slot.
    pub fn last_task(&self) -> Option<TaskInfo> {
        let first = self.last_events().first()?;
        Some(TaskInfo {
            request: first.request,
            op: first.what.op(),
            key: first.key,
            site: first.site,
        })
    }

    /// The event-loop pane's "Ran" line for the last step.
    pub fn ran_line(&self) -> Option<String> {
        let report = self.last.as_ref()?;
        let info = self.last_task()?;
        Some(narrate::ran_line(report, &info, &self.recording.keys))
    }

    /// The trace events of the last step.
    pub fn last_events(&self) -> &[TraceEvent] {
        match &self.last {
            Some(report) => self.recording.events_of_step(report.index),
            None => &[],
        }
    }

    /// The code lines the last step's events ran through.
    pub fn last_lines(&self, listing: &Listing) -> Vec<usize> {
        let Some(report) = &self.last else {
            return Vec::new();
        };
        let events = &self.recording.events;
        let start = events.partition_point(|event| event.step < report.index);
        let end = events.partition_point(|event| event.step <= report.index);
        (start..end)
            .filter_map(|index| self.recording.line_of(index, listing))
            .collect()
    }

    /// One macrotask and its microtasks; false at the end.
    pub fn step(&mut self) -> bool {
        // The recording already checked that the schedule fits.
        match self.run.step() {
            Ok(Some(report)) => {
                self.last = Some(report);
                true
            }
            Ok(None) | Err(_) => false,
        }
    }

    /// Back to the state after `position - 1` steps.
    pub fn back(&mut self) {
        let target = self.position().saturating_sub(1);
        self.seek(target);
    }

    pub fn reset(&mut self) {
        if let Ok(run) = self.recording.program.start(&self.recording.config, false) {
            self.run = run;
            self.last = None;
        }
    }

    /// The state after exactly `target` steps (or the end, if sooner).
    pub fn seek(&mut self, target: u32) {
        if target < self.position() {
            self.reset();
        }
        while self.position() < target && self.step() {}
    }

    /// Runs at most `budget` steps towards the end; true once there.
    pub fn run_for(&mut self, budget: u32) -> bool {
        for _ in 0..budget {
            if !self.step() {
                return true;
            }
        }
        self.at_end()
    }

    /// Right after the step of the first violation, if the run has one.
    pub fn jump_to_first_violation(&mut self) -> bool {
        match self.recording.first_violation() {
            Some(violation) => {
                self.seek(violation.step + 1);
                true
            }
            None => false,
        }
    }

    /// Every request's state after the current step, read from the trace.
    pub fn request_states(&self) -> Vec<RequestState> {
        let mut states = vec![RequestState::NotArrived; self.run.requests().len()];
        let position = self.position();
        for (index, event) in self.recording.events.iter().enumerate() {
            if event.step >= position {
                break;
            }
            let Some(state) = states.get_mut(event.request as usize) else {
                continue;
            };
            match event.what {
                What::Return => *state = RequestState::Returned(event.outcome),
                What::Arrive => *state = RequestState::Awaiting(Site::None, None),
                _ if event.site != Site::None
                    && !is_fire_and_forget(event)
                    && !matches!(state, RequestState::Returned(_)) =>
                {
                    *state = RequestState::Awaiting(event.site, Some(index));
                }
                _ => {}
            }
        }
        states
    }

    /// The code line (1-based) each request awaits now, by request.
    pub fn await_lines(&self, listing: &Listing) -> Vec<Option<usize>> {
        self.request_states()
            .into_iter()
            .map(|state| match state {
                RequestState::Awaiting(_, Some(event)) => self.recording.line_of(event, listing),
                _ => None,
            })
            .collect()
    }

    /// For the code pane: how many requests await each line (1-based), and
    /// the first few of them.
    pub fn cursors(&self, listing: &Listing) -> Vec<LineCursor> {
        let mut cursors: Vec<LineCursor> = Vec::new();
        for (request, state) in self.request_states().into_iter().enumerate() {
            let RequestState::Awaiting(_, Some(event)) = state else {
                continue;
            };
            let Some(line) = self.recording.line_of(event, listing) else {
                continue;
            };
            match cursors.iter_mut().find(|c| c.line == line) {
                Some(cursor) => {
                    cursor.count += 1;
                    if cursor.first.len() < MAX_NAMED {
                        cursor.first.push(request as u32);
                    }
                }
                None => cursors.push(LineCursor {
                    line,
                    count: 1,
                    first: vec![request as u32],
                }),
            }
        }
        let order = crate::order::by_rank(cursors.iter().map(|cursor| cursor.line as u64));
        let mut cursors: Vec<_> = cursors.into_iter().map(Some).collect();
        order
            .into_iter()
            .filter_map(|i| cursors[i as usize].take())
            .collect()
    }
}

/// Requests named on a code line before the rest are counted.
const MAX_NAMED: usize = 6;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LineCursor {
    pub line: usize,
    pub count: u32,
    pub first: Vec<u32>,
}

/// The completion of an insert nobody awaits does not move its request.
fn is_fire_and_forget(event: &TraceEvent) -> bool {
    event.site == Site::Insert && matches!(event.what, What::Complete(_))
}
