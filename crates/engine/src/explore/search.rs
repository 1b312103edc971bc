//! The explorer: depth-first search with sleep sets, uniform random walks
//! and PCT, run in chunks so the browser can show progress and cancel.
//!
//! Every schedule is run by replay from the start (futures cannot be
//! cloned). DFS keeps one frame per choice point on the current path:
//! the enabled events there, the sleep set, and the choices still to try.

use std::collections::VecDeque;
use std::rc::Rc;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::config::schedule::Schedule;
use crate::config::url::to_fragment;
use crate::config::Config;
use crate::explore::check::{first_violation_step, violations, Check};
use crate::run::{Run, Scheduled};
use crate::sim::{Footprint, Sim};

/// What the explorer searches: it starts fresh runs of one config and
/// spells a counterexample.
pub trait Subject {
    /// A new run in the default order; `footprints`: record what each
    /// step touches.
    fn start(&self, footprints: bool) -> Box<dyn Run>;
    /// The config searched (its `schedule` ignored).
    fn config(&self) -> &Config;
    /// The fragment of `config` (with its schedule) that replays it.
    fn fragment(&self, config: &Config) -> String;
}

/// A built-in story.
struct SimSubject(Config);

/// What the explorer searches for a built-in story.
pub fn story_subject(config: &Config) -> Rc<dyn Subject> {
    let mut config = config.clone();
    config.schedule = Schedule::default();
    Rc::new(SimSubject(config))
}

impl Subject for SimSubject {
    fn start(&self, footprints: bool) -> Box<dyn Run> {
        let mut sim = Sim::metrics_only(&self.0);
        if footprints {
            sim.track_footprints();
        }
        Box::new(sim)
    }

    fn config(&self) -> &Config {
        &self.0
    }

    fn fragment(&self, config: &Config) -> String {
        to_fragment(config)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Method {
    /// Exhaustive depth-first search (with sleep-set reduction unless
    /// `reduction` is off).
    Dfs,
    /// Uniformly random choice at each choice point, one walk per run.
    Random,
    /// Probabilistic concurrency testing: random request priorities with
    /// `pct_depth - 1` priority change points.
    Pct,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Dfs => "dfs",
            Method::Random => "random",
            Method::Pct => "pct",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        [Method::Dfs, Method::Random, Method::Pct]
            .into_iter()
            .find(|method| method.name() == text)
            .ok_or_else(|| format!("unknown method \"{text}\" (expected dfs, random or pct)"))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ExploreOptions {
    /// A schedule violates when any of these checks fails.
    pub checks: Vec<Check>,
    pub method: Method,
    /// Most complete schedules to run (DFS), or the run count (random, PCT).
    pub max_schedules: u64,
    /// DFS only: most non-default choices on one schedule; `None` unbounded.
    pub max_preemptions: Option<u32>,
    /// DFS with `max_preemptions`: first try this many schedules without
    /// the bound, and apply the bound only if that search does not finish.
    /// A small space then ends "complete" rather than "complete within
    /// k preemptions" (the bound also weakens the reduction, so the
    /// unbounded search can be the smaller one). 0 applies it at once.
    pub unbounded_first: u64,
    /// Seed of the random walks and PCT priorities.
    pub seed: u64,
    /// DFS only: prune with sleep sets (off gives the naive search).
    pub reduction: bool,
    /// DFS with `reduction` and no preemption bound in force: collapse
    /// the stutters of polling waits (see "Polling waits" in
    /// docs/explore.md); off leaves the plain sleep sets.
    pub collapse_polls: bool,
    /// PCT's bug depth d (at least 1).
    pub pct_depth: u32,
    /// Most macrotasks in one run; a longer run is cut off.
    pub max_steps: u32,
    /// Keep every explored schedule with its trace hash (for tests and
    /// tools; memory grows with the search).
    pub record: bool,
    /// Checks counted but not searched for: how many schedules violate
    /// each ([`ExploreResult::unchecked`]), so a search that finds none of
    /// its own checks violated can still say that some schedules made a
    /// request fail.
    #[serde(default)]
    pub watch: Vec<Check>,
}

impl ExploreOptions {
    pub fn new(checks: Vec<Check>) -> Self {
        ExploreOptions {
            checks,
            method: Method::Dfs,
            max_schedules: 100_000,
            max_preemptions: None,
            unbounded_first: 256,
            seed: 1,
            reduction: true,
            collapse_polls: true,
            pct_depth: 3,
            max_steps: 100_000,
            record: false,
            watch: Vec::new(),
        }
    }

    /// Also counts the schedules that violate each of `offered` that is
    /// not among the checks (`watch`).
    pub fn watching(mut self, offered: &[Check]) -> Self {
        self.watch = offered
            .iter()
            .copied()
            .filter(|check| !self.checks.contains(check))
            .collect();
        self
    }
}

/// How far a search has got, after each chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    /// Complete schedules run.
    pub explored: u64,
    /// Of those, schedules that violated a check.
    pub violating: u64,
    /// Runs abandoned because the sleep set showed them equivalent to one
    /// already explored.
    pub pruned: u64,
    /// Nothing more to run (finished or out of budget).
    pub done: bool,
}

/// The shortest violating schedule found.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Counterexample {
    /// The config with `schedule` set: opens in the debugger, replays with
    /// `interleave run`.
    pub config: Config,
    /// `to_fragment(config)`, including `schedule=`.
    pub fragment: String,
    /// Macrotasks up to the end of the run.
    pub steps: u32,
    /// The index of the macrotask after which the run first violates a
    /// check: where the debugger opens.
    pub violation_step: u32,
    /// Which of the checks it violates.
    pub violated: Vec<Check>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExploreResult {
    pub explored: u64,
    pub violating: u64,
    pub pruned: u64,
    /// True only for a DFS that ran every schedule, with nothing cut off by
    /// `max_schedules`, `max_preemptions` or `max_steps`.
    pub complete: bool,
    /// True for a DFS that finished with nothing cut off by `max_schedules`
    /// or `max_steps`: it ran every schedule with at most `max_preemptions`
    /// preemptions (up to sleep-set equivalence). Without a preemption
    /// bound it equals `complete`.
    pub complete_within_bound: bool,
    /// How much of the schedule space the search covered, for people.
    pub coverage: Coverage,
    /// Estimated schedules of the naive search under the same preemption
    /// bound (see `naive_estimate` in docs/explore.md).
    pub naive_estimate: u64,
    pub counterexample: Option<Counterexample>,
    /// Each of the options' `watch` checks, in order, with the schedules
    /// that violate it (counted as `violating` is).
    #[serde(default)]
    pub unchecked: Vec<(Check, u64)>,
}

/// How much of the schedule space a search covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Coverage {
    /// DFS: every schedule (up to sleep-set equivalence).
    Complete,
    /// DFS: every schedule with at most this many preemptions (up to
    /// sleep-set equivalence); the bound cut off some choices.
    WithinPreemptions(u32),
    /// DFS: stopped by `max_schedules` before it finished.
    StoppedAtMaxSchedules,
    /// DFS: finished, but some runs were cut off by `max_steps`.
    RunsCutAtMaxSteps,
    /// Random or PCT: a sample, never complete.
    Sampled,
    /// Still running (or cancelled).
    Unfinished,
}

impl Coverage {
    /// Such as "complete", "complete within 3 preemptions" or
    /// "incomplete (stopped at max schedules)".
    pub fn describe(self) -> String {
        match self {
            Coverage::Complete => "complete".to_string(),
            Coverage::WithinPreemptions(1) => "complete within 1 preemption".to_string(),
            Coverage::WithinPreemptions(bound) => format!("complete within {bound} preemptions"),
            Coverage::StoppedAtMaxSchedules => "incomplete (stopped at max schedules)".to_string(),
            Coverage::RunsCutAtMaxSteps => "incomplete (runs cut off at max steps)".to_string(),
            Coverage::Sampled => "incomplete (sampled)".to_string(),
            Coverage::Unfinished => "incomplete (not finished)".to_string(),
        }
    }
}

/// An explored event, with what it touched when it ran.
#[derive(Clone, Debug)]
struct Event {
    seq: u64,
    footprint: Footprint,
}

/// A choice point on the current DFS path.
struct Frame {
    /// The enabled events' sequence numbers, in (due, seq) order.
    events: Vec<u64>,
    /// What the current choice touched when it ran.
    current_footprint: Footprint,
    /// The sleep set here: inherited, plus every choice already explored
    /// in full (see `backtrack`).
    sleep: Vec<Event>,
    current: u32,
    /// `Explorer::bound_cuts` when the current choice started: if it grew,
    /// the bound cut something in that choice's subtree.
    cuts_before: u64,
    todo: VecDeque<u32>,
    /// Naive-size bookkeeping: the summed sizes of explored children,
    /// how many are known, and how many children were pruned or unknown.
    sum: f64,
    known: u64,
    unknown: u64,
}

impl Frame {
    /// The naive subtree size: explored children's sizes, with each pruned
    /// child counted as the mean of its explored siblings.
    fn size(sum: f64, known: u64, unknown: u64) -> Option<f64> {
        (known > 0).then(|| sum * (known + unknown) as f64 / known as f64)
    }
}

enum RunEnd {
    Leaf,
    Blocked,
    Cut,
}

pub struct Explorer {
    subject: Rc<dyn Subject>,
    config: Config,
    options: ExploreOptions,
    explored: u64,
    violating: u64,
    pruned: u64,
    runs: u64,
    /// DFS: the preemption bound removed an awake choice somewhere.
    cut_by_bound: bool,
    /// DFS: how many times the bound removed awake choices so far.
    bound_cuts: u64,
    /// DFS: `max_schedules` stopped the search before it finished.
    cut_by_max_schedules: bool,
    /// A run was cut off by `max_steps`.
    cut_by_max_steps: bool,
    /// DFS with a bound: still in the unbounded attempt (see
    /// `ExploreOptions::unbounded_first`).
    unbounded_attempt: bool,
    done: bool,
    best: Option<Counterexample>,
    stack: Vec<Frame>,
    root_size: Option<f64>,
    /// Random/PCT: summed products of branching factors (Knuth's estimator).
    walk_sizes: f64,
    /// PCT: choice points of the longest run so far.
    pct_length: u64,
    recorded: Vec<(Schedule, String)>,
    /// Schedules violating each of the options' `watch` checks.
    watched: Vec<u64>,
}

impl Explorer {
    /// A search of `config` (its own `schedule` is ignored), as one whole
    /// (`groups::StorySearch` splits a story into independent groups).
    pub fn new(config: &Config, options: ExploreOptions) -> Explorer {
        let mut config = config.clone();
        config.schedule = Schedule::default();
        Explorer::of(Rc::new(SimSubject(config)), options)
    }

    /// Lowers `max_schedules` (a group's share of the whole's).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn limit_schedules(&mut self, max: u64) {
        self.options.max_schedules = max;
    }

    /// A search of `subject` (a script's runs, say).
    pub fn of(subject: Rc<dyn Subject>, options: ExploreOptions) -> Explorer {
        let mut config = subject.config().clone();
        config.schedule = Schedule::default();
        let unbounded_attempt = options.method == Method::Dfs
            && options.max_preemptions.is_some()
            && options.unbounded_first > 0;
        let watched = options.watch.len();
        Explorer {
            unbounded_attempt,
            subject,
            config,
            options,
            explored: 0,
            violating: 0,
            pruned: 0,
            runs: 0,
            cut_by_bound: false,
            bound_cuts: 0,
            cut_by_max_schedules: false,
            cut_by_max_steps: false,
            done: false,
            best: None,
            stack: Vec::new(),
            root_size: None,
            walk_sizes: 0.0,
            pct_length: 1,
            recorded: Vec::new(),
            watched: vec![0; watched],
        }
    }

    /// With `record`: every explored schedule and its run's trace hash.
    pub fn recorded(&self) -> &[(Schedule, String)] {
        &self.recorded
    }

    pub fn options(&self) -> &ExploreOptions {
        &self.options
    }

    /// Runs at most `budget` more runs (each one schedule, or one run cut
    /// short by the sleep set), so the browser can yield between chunks.
    pub fn run_for(&mut self, budget: u64) -> Progress {
        for _ in 0..budget {
            if self.unbounded_attempt && (self.done || self.explored >= self.schedule_cap()) {
                if self.done && self.coverage() == Coverage::Complete {
                    break;
                }
                self.start_bounded();
            }
            if self.done {
                break;
            }
            if self.explored >= self.schedule_cap() {
                self.done = true;
                self.cut_by_max_schedules |= self.options.method == Method::Dfs;
                break;
            }
            match self.options.method {
                Method::Dfs => self.dfs_run(),
                Method::Random | Method::Pct => self.walk_run(),
            }
            self.runs += 1;
        }
        if self.explored >= self.schedule_cap() && !self.done && !self.unbounded_attempt {
            self.done = true;
            self.cut_by_max_schedules |= self.options.method == Method::Dfs;
        }
        self.progress()
    }

    /// The unbounded attempt did not finish: start over with the bound.
    fn start_bounded(&mut self) {
        *self = Explorer::of(self.subject.clone(), self.options.clone());
        self.unbounded_attempt = false;
    }

    /// The preemption bound in force now.
    fn bound(&self) -> Option<u32> {
        self.options
            .max_preemptions
            .filter(|_| !self.unbounded_attempt)
    }

    /// The schedules this phase may run.
    fn schedule_cap(&self) -> u64 {
        if self.unbounded_attempt {
            self.options.unbounded_first.min(self.options.max_schedules)
        } else {
            self.options.max_schedules
        }
    }

    /// Runs to the end.
    pub fn run(&mut self) -> ExploreResult {
        while !self.run_for(1024).done {}
        self.result()
    }

    pub fn progress(&self) -> Progress {
        Progress {
            explored: self.explored,
            violating: self.violating,
            pruned: self.pruned,
            done: self.done,
        }
    }

    /// The fraction done, for a progress bar: of `max_schedules` for
    /// walks; for DFS, of the estimated naive tree (rough but monotone
    /// enough to show movement), 1 when done.
    pub fn fraction(&self) -> f64 {
        if self.done {
            return 1.0;
        }
        let total = match self.options.method {
            Method::Dfs => (self.naive_estimate() as f64).min(self.options.max_schedules as f64),
            _ => self.options.max_schedules as f64,
        };
        (self.explored as f64 / total.max(1.0)).min(1.0)
    }

    pub fn result(&self) -> ExploreResult {
        let coverage = self.coverage();
        ExploreResult {
            explored: self.explored,
            violating: self.violating,
            pruned: self.pruned,
            complete: coverage == Coverage::Complete,
            complete_within_bound: matches!(
                coverage,
                Coverage::Complete | Coverage::WithinPreemptions(_)
            ),
            coverage,
            naive_estimate: self.naive_estimate(),
            counterexample: self.best.clone(),
            unchecked: self
                .options
                .watch
                .iter()
                .copied()
                .zip(self.watched.iter().copied())
                .collect(),
        }
    }

    fn coverage(&self) -> Coverage {
        if self.options.method != Method::Dfs {
            return Coverage::Sampled;
        }
        if self.cut_by_max_schedules {
            return Coverage::StoppedAtMaxSchedules;
        }
        if !self.done || !self.stack.is_empty() {
            return Coverage::Unfinished;
        }
        if self.cut_by_max_steps {
            return Coverage::RunsCutAtMaxSteps;
        }
        match self.options.max_preemptions {
            Some(bound) if self.cut_by_bound => Coverage::WithinPreemptions(bound),
            _ => Coverage::Complete,
        }
    }

    fn naive_estimate(&self) -> u64 {
        let size = match self.options.method {
            Method::Dfs if self.stack.is_empty() => self.root_size,
            Method::Dfs => self.open_estimate(),
            _ if self.explored > 0 => Some(self.walk_sizes / self.explored as f64),
            _ => None,
        };
        (libm::round(size.unwrap_or(0.0)) as u64).max(self.explored)
    }

    /// The root's size with every open frame's untried choices estimated.
    fn open_estimate(&self) -> Option<f64> {
        let mut child: Option<Option<f64>> = None;
        for frame in self.stack.iter().rev() {
            let (mut sum, mut known) = (frame.sum, frame.known);
            let mut unknown = frame.unknown + frame.todo.len() as u64;
            match child {
                // The top frame's current choice is not run yet.
                None | Some(None) => unknown += 1,
                Some(Some(size)) => {
                    sum += size;
                    known += 1;
                }
            }
            child = Some(Frame::size(sum, known, unknown));
        }
        child.flatten()
    }

    fn record(&mut self, sim: &dyn Run, choices: Vec<u32>) {
        self.explored += 1;
        if self.options.record {
            let schedule = Schedule::new(choices.clone()).trimmed();
            self.recorded.push((schedule, sim.trace_hash()));
        }
        let seen = sim.observation();
        for (count, check) in self.watched.iter_mut().zip(&self.options.watch) {
            *count += u64::from(check.violated(&seen));
        }
        let violated = violations(&self.options.checks, &seen);
        if violated.is_empty() {
            return;
        }
        self.violating += 1;
        let schedule = Schedule::new(choices).trimmed();
        let steps = sim.steps();
        let better = match &self.best {
            None => true,
            Some(best) => {
                let rank =
                    |schedule: &Schedule, steps| (schedule.len(), schedule.preemptions(), steps);
                rank(&schedule, steps) < rank(&best.config.schedule, best.steps)
            }
        };
        if better {
            let mut config = self.config.clone();
            config.schedule = schedule;
            let replay = Scheduled::new(self.subject.start(false), &config.schedule);
            let violation_step =
                first_violation_step(replay, &violated).map_or(steps, |step| step.min(steps));
            self.best = Some(Counterexample {
                violation_step,
                fragment: self.subject.fragment(&config),
                config,
                steps,
                violated,
            });
        }
    }

    fn dfs_run(&mut self) {
        let reduction = self.options.reduction;
        // A preemption bound counts the choices the collapse makes for
        // the search, so a bounded search is the plain one.
        let collapse = reduction && self.options.collapse_polls && self.bound().is_none();
        let mut sim = self.subject.start(reduction);
        let mut depth = 0;
        let mut preemptions = 0;
        let mut sleep: Vec<Event> = Vec::new();
        let mut choices = Vec::new();
        let end = loop {
            if sim.steps() >= self.options.max_steps {
                break RunEnd::Cut;
            }
            let enabled = sim.enabled_pending();
            if enabled.is_empty() {
                break RunEnd::Leaf;
            }
            let mut frame_at = None;
            let asleep = |seq: u64| sleep.iter().any(|asleep| asleep.seq == seq);
            // Collapse: the earliest awake event, if a stutter, is the
            // only choice (it needs no frame).
            let forced = match collapse && enabled.len() > 1 {
                true => enabled
                    .iter()
                    .position(|pending| !asleep(pending.seq))
                    .filter(|&first| sim.stutters(enabled[first])),
                false => None,
            };
            let index = if enabled.len() == 1 {
                if asleep(enabled[0].seq) {
                    break RunEnd::Blocked;
                }
                0
            } else if let Some(first) = forced {
                choices.push(first as u32);
                if first > 0 {
                    preemptions += 1;
                }
                first
            } else {
                if depth == self.stack.len() {
                    let events = enabled.iter().map(|pending| pending.seq).collect();
                    let stutters = match collapse {
                        true => enabled.iter().map(|&p| sim.stutters(p)).collect(),
                        false => Vec::new(),
                    };
                    match self.new_frame(events, &sleep, preemptions, &stutters) {
                        Some(frame) => self.stack.push(frame),
                        None => break RunEnd::Blocked,
                    }
                }
                let frame = &self.stack[depth];
                debug_assert_eq!(frame.events.len(), enabled.len(), "replay diverged");
                sleep.clone_from(&frame.sleep);
                frame_at = Some(depth);
                depth += 1;
                choices.push(frame.current);
                if frame.current > 0 {
                    preemptions += 1;
                }
                frame.current as usize
            };
            let chosen = enabled[index];
            let stutter = forced.is_some() || collapse && sim.stutters(chosen);
            sim.step_pending(chosen.due, chosen.seq);
            if reduction {
                let mut footprint = sim.take_footprint();
                if stutter {
                    // A stutter wakes nothing: a sleeping event ran first
                    // is equivalent (see `new_frame`).
                    footprint = Footprint::default();
                }
                sleep.retain(|asleep| {
                    asleep.seq != chosen.seq && asleep.footprint.independent(&footprint)
                });
                if let Some(at) = frame_at {
                    self.stack[at].current_footprint = footprint;
                }
            }
        };
        let size = match end {
            RunEnd::Leaf => {
                self.record(sim.as_ref(), choices);
                Some(1.0)
            }
            RunEnd::Blocked => {
                self.pruned += 1;
                None
            }
            RunEnd::Cut => {
                self.cut_by_max_steps = true;
                None
            }
        };
        self.backtrack(size);
    }

    /// A frame for a new choice point, or `None` when every allowed choice
    /// is asleep (the path is equivalent to one already explored).
    ///
    /// Collapse (`stutters` not empty, one flag per event): the stutters
    /// are no choices of their own, but for the first one, tried last:
    /// run with every other choice asleep, it lets the waiters poll on
    /// until one gives up (a give-up reads the lock, which wakes a
    /// sleeping release) while the rest of the run waits.
    fn new_frame(
        &mut self,
        events: Vec<u64>,
        sleep: &[Event],
        preemptions: u32,
        stutters: &[bool],
    ) -> Option<Frame> {
        let asleep = |seq: u64| sleep.iter().any(|s| s.seq == seq);
        let mut awake: Vec<u32> = (0..events.len() as u32)
            .filter(|&i| !asleep(events[i as usize]))
            .collect();
        if !stutters.is_empty() {
            let stutter = |i: &u32| stutters[*i as usize];
            let starve = awake.iter().copied().find(stutter);
            awake.retain(|i| !stutter(i));
            awake.extend(starve);
        }
        let unknown = (events.len() - awake.len()) as u64;
        let bounded = self.bound().is_some_and(|max| preemptions >= max);
        let allowed: VecDeque<u32> = if bounded {
            if awake.iter().any(|&i| i > 0) {
                self.cut_by_bound = true;
                self.bound_cuts += 1;
            }
            awake.into_iter().filter(|&i| i == 0).collect()
        } else {
            awake.into()
        };
        let mut todo = allowed;
        let current = todo.pop_front()?;
        Some(Frame {
            events,
            current_footprint: Footprint::default(),
            sleep: sleep.to_vec(),
            current,
            cuts_before: self.bound_cuts,
            todo,
            sum: 0.0,
            known: 0,
            unknown,
        })
    }

    fn backtrack(&mut self, size: Option<f64>) {
        let reduction = self.options.reduction;
        let mut size = size;
        while let Some(top) = self.stack.last_mut() {
            match size {
                Some(size) => {
                    top.sum += size;
                    top.known += 1;
                }
                None => top.unknown += 1,
            }
            // A choice goes to sleep for its later siblings only if its
            // own subtree was explored in full. Under a preemption bound a
            // sibling's subtree may reach, by commuting steps, a schedule
            // that this subtree cut off; sleeping it there would skip
            // schedules within the bound.
            if reduction && self.bound_cuts == top.cuts_before {
                let explored = Event {
                    seq: top.events[top.current as usize],
                    footprint: std::mem::take(&mut top.current_footprint),
                };
                top.sleep.push(explored);
            }
            if let Some(next) = top.todo.pop_front() {
                top.current = next;
                top.cuts_before = self.bound_cuts;
                return;
            }
            size = Frame::size(top.sum, top.known, top.unknown);
            self.stack.pop();
        }
        self.root_size = size;
        self.done = true;
    }

    /// One random or PCT walk.
    fn walk_run(&mut self) {
        let mut rng = ChaCha8Rng::seed_from_u64(self.options.seed);
        rng.set_stream(self.runs);
        let below = |rng: &mut ChaCha8Rng, bound: u64| {
            ((u128::from(rng.next_u64()) * u128::from(bound)) >> 64) as u64
        };
        let mut sim = self.subject.start(false);
        // PCT: priorities d.. for the requests in random order; at the
        // j-th change point the request about to run drops to priority j.
        let depth = u64::from(self.options.pct_depth.max(1));
        let requests = sim.requests().len() as u64;
        let mut priority: Vec<u64> = (0..requests).map(|i| depth + i).collect();
        for i in (1..priority.len()).rev() {
            let j = below(&mut rng, i as u64 + 1) as usize;
            priority.swap(i, j);
        }
        let change_points: Vec<u64> = (1..depth)
            .map(|_| 1 + below(&mut rng, self.pct_length))
            .collect();
        let mut choices = Vec::new();
        let mut size = 1.0;
        let finished = loop {
            if sim.steps() >= self.options.max_steps {
                break false;
            }
            let enabled = sim.enabled_pending();
            if enabled.is_empty() {
                break true;
            }
            let mut index = 0;
            if enabled.len() > 1 {
                size *= enabled.len() as f64;
                index = match self.options.method {
                    Method::Pct => {
                        let point = choices.len() as u64 + 1;
                        let top = |priority: &[u64]| {
                            (0..enabled.len())
                                .max_by_key(|&i| {
                                    let request = sim.request_of(enabled[i].task) as usize;
                                    (priority[request], std::cmp::Reverse(i))
                                })
                                .unwrap_or(0)
                        };
                        let mut index = top(&priority);
                        if let Some(j) = change_points.iter().position(|&at| at == point) {
                            priority[sim.request_of(enabled[index].task) as usize] = j as u64;
                            index = top(&priority);
                        }
                        index
                    }
                    _ => below(&mut rng, enabled.len() as u64) as usize,
                };
                choices.push(index as u32);
            }
            sim.step_pending(enabled[index].due, enabled[index].seq);
        };
        self.pct_length = self.pct_length.max(choices.len() as u64);
        if finished {
            self.walk_sizes += size;
            self.record(sim.as_ref(), choices);
        } else {
            self.cut_by_max_steps = true;
            self.explored += 1;
        }
    }
}

/// One row of the per-strategy table.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StrategyRow {
    pub strategy: crate::config::StrategyKind,
    pub result: ExploreResult,
}

impl StrategyRow {
    /// Such as "none: 1,204 of 1,680 schedules duplicate, incomplete
    /// (stopped at max schedules)", "keyed-mutex: 0 of 312 schedules
    /// duplicate, complete" or "add: 0 of 45 schedules duplicate, complete
    /// within 2 preemptions".
    pub fn summary(&self, checks: &[Check]) -> String {
        format!("{}: {}", self.strategy.name(), self.outcome(checks))
    }

    /// The summary without the strategy's name, for a table whose row
    /// already names it: "0 of 8 schedules duplicate, complete".
    pub fn outcome(&self, checks: &[Check]) -> String {
        let verb = match checks {
            [check] => check.verb(),
            _ => "violate",
        };
        let mut outcome = format!(
            "{} of {} schedules {verb}, {}",
            thousands(self.result.violating),
            thousands(self.result.explored),
            self.result.coverage.describe()
        );
        for &(check, count) in &self.result.unchecked {
            if count > 0 {
                outcome += &format!(
                    "; {} {} (not checked: {check})",
                    thousands(count),
                    check.verb()
                );
            }
        }
        outcome
    }
}

/// 1204 -> "1,204".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
