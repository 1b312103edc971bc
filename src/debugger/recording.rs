//! A whole run recorded once: its trace, timeline and violations. The
//! debugger draws it, and replays the live run up to any step.

use std::rc::Rc;

use crate::config::{Config, Micros};
use crate::debugger::program::Program;
use crate::debugger::timeline::{Timeline, TimelineBuilder};
use crate::debugger::violations::{Violation, ViolationFinder, ViolationKind};
use crate::run::{Positions, Run, ScheduleError, Scheduled};
use crate::sim::{KeyNames, Metrics, Site, TraceEvent};
use crate::Sim;

/// The page records a run only up to limits (past them it drops the
/// recording and counts the metrics only; [`Recorder::too_long`]): this
/// many macrotasks (polling locks can take millions), so a long run stays
/// within memory;
pub const MAX_RECORDED_STEPS: u32 = 1_000_000;
/// this much engine work (macrotasks and microtask polls): an emitter lock's herd at 20,000 requests wakes 200
/// million listeners in a few thousand macrotasks, and the trace of each
/// wake-up would take gigabytes. (The page's notice, `count_instead`, writes
/// the limits out.)
pub const MAX_RECORDED_WORK: u64 = 4_000_000;
/// and this many trace events, so the trace's buffer (40 bytes an
/// event) never grows past 2^22 events: growing it again would copy its
/// 168 MB in one task, well over 100 ms. The margin below 2^22 covers one
/// slice of work (a slice stops after 8,000 units, and one macrotask can
/// wake a herd of 20,000). An emitter lock's herd of 2,000 requests
/// (4,020,004 events) still records.
pub const MAX_RECORDED_EVENTS: usize = (1 << 22) - 150_000;

/// A finished run of one config.
#[derive(Debug)]
pub struct Recording {
    pub config: Config,
    pub program: Program,
    pub events: Vec<TraceEvent>,
    /// A script's line and column of each event that has one.
    pub positions: Positions,
    /// How the trace's keys read.
    pub keys: KeyNames,
    /// The macrotasks the run took.
    pub steps: u32,
    pub end: Micros,
    pub metrics: Metrics,
    pub timeline: Rc<Timeline>,
    pub violations: Rc<Vec<Violation>>,
    /// `violations`' indexes by request (stable): a lane finds its own
    /// without reading them all (a 20,000-request stampede has 40,000).
    by_request: Rc<Vec<u32>>,
}

/// What the timeline draws of a recording (its lanes, violations and key
/// names), shared with it: the page holds this, not the trace.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RunView {
    pub end: Micros,
    pub steps: u32,
    pub keys: KeyNames,
    pub timeline: Rc<Timeline>,
    pub violations: Rc<Vec<Violation>>,
    by_request: Rc<Vec<u32>>,
}

/// Two views of one recording are equal (the UI's props compare them on
/// every render, so this must not walk 20,000 lanes).
impl PartialEq for RunView {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.timeline, &other.timeline)
            && Rc::ptr_eq(&self.violations, &other.violations)
    }
}

impl RunView {
    /// The violations marked on `request`'s lane, in run order.
    pub fn violations_of(&self, request: u32) -> impl Iterator<Item = &Violation> {
        violations_of(&self.violations, &self.by_request, request)
    }
}

/// The violations of `request`, found through their indexes by request.
fn violations_of<'a>(
    violations: &'a [Violation],
    by_request: &'a [u32],
    request: u32,
) -> impl Iterator<Item = &'a Violation> {
    let request_of = move |&index: &u32| violations[index as usize].request;
    let start = by_request.partition_point(|i| request_of(i) < request);
    by_request[start..]
        .iter()
        .take_while(move |i| request_of(i) == request)
        .map(move |&index| &violations[index as usize])
}

/// Two recordings of one config are the same run: comparing them (as the
/// UI's props do on every render) must not walk the whole trace.
impl PartialEq for Recording {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
            || self.config == other.config
                && self.program == other.program
                && self.steps == other.steps
                && self.metrics == other.metrics
    }
}

impl Recording {
    /// Records `config` in one go (native callers and tests).
    pub fn of(config: &Config) -> Result<Recording, ScheduleError> {
        let mut recorder = Recorder::new(config);
        while !recorder.advance(u64::MAX)? {}
        Ok(recorder.finish())
    }

    /// Records `program` on `config` in one go; a script that does not
    /// load, or a schedule that does not fit, is an error.
    pub fn of_program(program: &Program, config: &Config) -> Result<Recording, String> {
        let mut recorder = Recorder::of_program(program, config)?;
        while !recorder.advance(u64::MAX).map_err(|e| e.to_string())? {}
        Ok(recorder.finish())
    }

    /// The 1-based code line of event `index`: its script position, or
    /// for a story the listing's line of its site.
    pub fn line_of(
        &self,
        index: usize,
        listing: &crate::scenario::listing::Listing,
    ) -> Option<usize> {
        if self.program.is_script() {
            return self.position_of(index).map(|(line, _)| line as usize);
        }
        let site = self.events.get(index)?.site;
        (site != Site::None)
            .then(|| listing.line_of(site))
            .flatten()
    }

    /// A script's line and column of event `index`, if it has them.
    pub fn position_of(&self, index: usize) -> Option<(u32, u32)> {
        let found = self.positions.binary_search_by_key(&index, |&(at, _)| at);
        found.ok().map(|at| self.positions[at].1)
    }

    /// The events of one step (the trace is in step order).
    pub fn events_of_step(&self, step: u32) -> &[TraceEvent] {
        let start = self.events.partition_point(|event| event.step < step);
        let end = self.events.partition_point(|event| event.step <= step);
        &self.events[start..end]
    }

    /// The violations marked on `request`'s lane, in run order.
    pub fn violations_of(&self, request: u32) -> impl Iterator<Item = &Violation> {
        violations_of(&self.violations, &self.by_request, request)
    }

    /// What the timeline draws of it.
    pub fn view(&self) -> RunView {
        RunView {
            end: self.end,
            steps: self.steps,
            keys: self.keys.clone(),
            timeline: self.timeline.clone(),
            violations: self.violations.clone(),
            by_request: self.by_request.clone(),
        }
    }

    /// Where "jump to the first violation" goes: the first duplicate
    /// ticket or extra DB read (the harm), else the first second holder of
    /// a critical section (a race that did no harm this time).
    pub fn first_violation(&self) -> Option<&Violation> {
        let harm = |v: &&Violation| v.kind != ViolationKind::SecondHolder;
        self.violations
            .iter()
            .find(harm)
            .or_else(|| self.violations.first())
    }
}

/// Records a run in chunks, so the browser can yield between them: first
/// the run, then its timeline and violations, built from the trace a slice
/// at a time.
pub struct Recorder {
    config: Config,
    program: Program,
    run: Scheduled<dyn Run>,
    /// Once the run is done: its trace and what is built from it.
    building: Option<Building>,
}

struct Building {
    events: Vec<TraceEvent>,
    positions: Positions,
    /// Events fed to the builders so far.
    fed: usize,
    timeline: TimelineBuilder,
    violations: ViolationFinder,
}

/// Trace events read per macrotask of a step's budget: reading an event
/// costs about what running a macrotask does.
const EVENTS_PER_BUDGET: u64 = 4;

impl Recorder {
    /// Records a built-in story.
    pub fn new(config: &Config) -> Recorder {
        Recorder {
            config: config.clone(),
            program: Program::Story,
            run: Scheduled::new(Box::new(Sim::new(config)), &config.schedule),
            building: None,
        }
    }

    /// Records `program`; a script that does not load is an error.
    pub fn of_program(program: &Program, config: &Config) -> Result<Recorder, String> {
        Ok(Recorder {
            config: config.clone(),
            program: program.clone(),
            run: program.start(config, true)?,
            building: None,
        })
    }

    /// Runs at most `budget` more macrotasks, or builds from as many trace
    /// events once the run is done; true once everything is done. A
    /// schedule that does not fit the config is an error.
    pub fn advance(&mut self, budget: u64) -> Result<bool, ScheduleError> {
        let Some(building) = &mut self.building else {
            if self.run.run_for(budget)? {
                let (events, positions) = self.run.take_trace();
                self.building = Some(Building {
                    events,
                    positions,
                    fed: 0,
                    timeline: TimelineBuilder::new(&self.config, self.run.requests()),
                    violations: match self.program.is_script() {
                        true => ViolationFinder::new(&self.config)
                            .critical_sections_only()
                            .with_data_harm(self.run.data_harm()),
                        false => ViolationFinder::new(&self.config),
                    },
                });
            }
            return Ok(false);
        };
        let take = usize::try_from(budget.saturating_mul(EVENTS_PER_BUDGET)).unwrap_or(usize::MAX);
        let end = building.fed.saturating_add(take).min(building.events.len());
        let slice = &building.events[building.fed..end];
        building.timeline.feed(slice);
        building.violations.feed(slice);
        building.fed = end;
        Ok(end == building.events.len())
    }

    /// Engine work so far: the run's (see [`crate::Sim::work`]), then one
    /// unit per trace event built from.
    pub fn work(&self) -> u64 {
        let built = self.building.as_ref().map_or(0, |b| b.fed as u64);
        self.run.work() + built
    }

    /// Trace events recorded so far.
    pub fn events(&self) -> usize {
        self.run.events()
    }

    /// Whether the run, while it runs, has outgrown `steps` macrotasks,
    /// `work` units of engine work or `events` trace events.
    pub fn too_long(&self, steps: u32, work: u64, events: usize) -> bool {
        self.building.is_none()
            && (self.run.steps() > steps || self.run.work() > work || self.run.events() > events)
    }

    /// Macrotasks recorded so far.
    pub fn steps(&self) -> u32 {
        self.run.steps()
    }

    /// How far the run is: requests returned out of all requests.
    pub fn progress(&self) -> (u64, u64) {
        let done = self.run.finished_requests();
        (done, self.run.requests().len() as u64)
    }

    /// The finished recording (call once, when `advance` returns true).
    pub fn finish(&mut self) -> Recording {
        let building = self.building.take().expect("advance returned true");
        let mut timeline = building.timeline.finish();
        if self.program.is_script() {
            // The shared lanes draw a story's hot key (its cached value,
            // its order rows, its lock); a script's keys are its own.
            timeline.shared.clear();
        }
        let violations = building.violations.finish();
        Recording {
            steps: self.run.steps(),
            end: self.run.now(),
            config: self.config.clone(),
            program: self.program.clone(),
            positions: building.positions,
            keys: self.run.key_names(),
            metrics: self.run.metrics(),
            timeline: Rc::new(timeline),
            by_request: Rc::new(by_request(&violations)),
            violations: Rc::new(violations),
            events: building.events,
        }
    }
}

/// The violations' indexes ordered by request, each request's in run order
/// (a counting sort: one pass to count, one to place).
fn by_request(violations: &[Violation]) -> Vec<u32> {
    let requests = violations.iter().map(|v| v.request as usize + 1).max();
    let mut next = vec![0u32; requests.unwrap_or(0) + 1];
    for violation in violations {
        next[violation.request as usize + 1] += 1;
    }
    for i in 1..next.len() {
        next[i] += next[i - 1];
    }
    let mut order = vec![0; violations.len()];
    for (index, violation) in violations.iter().enumerate() {
        let at = &mut next[violation.request as usize];
        order[*at as usize] = index as u32;
        *at += 1;
    }
    order
}
