//! The page's state (the debugger, explain and explore together), with
//! no web dependency: one struct that takes [`Action`]s
//! ([`Debugger::act`]; the page's link, `app/link.rs`, calls it, and tests
//! drive it natively) and gives the [`Frame`] the page draws
//! ([`Debugger::frame`]). Long work (recording a run, running to the end,
//! the compare table, a search) advances in time-boxed chunks
//! (`Action::Work`), so the thread that holds it never freezes.

mod frame;
mod host;
pub mod wire;

pub use frame::{Export, File, Frame, Part, ScriptView};
pub use host::{Host, PROGRESS_GAP_MS};

use std::cell::RefCell;
use std::rc::Rc;

use crate::config::url::{with_param, ConfigError};
use crate::config::Config;
use crate::config::StrategyKind;
use crate::debugger::compare::compares;
use crate::debugger::narrate::choice_label;
use crate::debugger::program::{waits_for_module, Program};
use crate::debugger::recording::{MAX_RECORDED_EVENTS, MAX_RECORDED_STEPS, MAX_RECORDED_WORK};
use crate::debugger::{
    Compare, CompareRow, Grouping, LineCursor, Recorder, Recording, SearchJob, Session,
};
use crate::explain::{
    explain_recording, minimal_of_counterexample, stories, story_only, Explanation, Story,
};
use crate::explore::search::thousands;
use crate::explore::{
    Check, ExploreOptions, Progress, Reachability, Session as ManualSession, StrategyRow,
};
use crate::run::{story_headline, Headline, Run, ScheduleError, Scheduled};
use crate::scenario::listing::Listing;
use crate::sim::queue::Pending;
use crate::sim::{TaskInfo, TraceEvent};
use crate::Metrics;

/// Above this many requests the page keeps only metrics (no trace, no
/// stepping), so a huge run stays within memory.
pub const MAX_TRACED_REQUESTS: u64 = 20_000;
/// *Run to end* finishes at once when at most this many macrotasks are
/// left (a few milliseconds), else in chunks.
const RUN_AT_ONCE: u32 = 100_000;
/// Most macrotasks between two looks at the clock inside a chunk.
const SLICE: u64 = 2_000;
/// Most engine work (a unit per macrotask and per microtask poll, see
/// `Sim::work`) between two looks at the clock: a macrotask can cost one
/// unit, or 20,000 when it wakes a herd of waiters, so counting macrotasks
/// alone could hold the page for seconds.
const WORK_SLICE: u64 = 8_000;

/// Calls `advance()` (one macrotask, or a little building) until it is
/// done, or [`SLICE`] calls or [`WORK_SLICE`] units of `work()` went by.
fn run_slice<E>(
    mut advance: impl FnMut() -> Result<bool, E>,
    work: impl Fn() -> u64,
) -> Result<bool, E> {
    let start = work();
    for _ in 0..SLICE {
        if advance()? {
            return Ok(true);
        }
        if work().saturating_sub(start) >= WORK_SLICE {
            break;
        }
    }
    Ok(false)
}

/// Most schedules searched when manual mode starts, to say whether its
/// goal can be reached at all (small stories finish well within it).
const MANUAL_SEARCH: u64 = 2_000;
/// Most requests for that search.
const MANUAL_SEARCH_REQUESTS: u64 = 12;
/// Schedules per explorer call inside a chunk (each is a whole run).
const SEARCH_SLICE: u64 = 8;
/// How long one chunk may hold the main thread, in milliseconds (with the
/// redraw after it, well under the 50 ms of a long task: 25 ms plus the
/// redraw of a 20,000-request page came close).
pub const CHUNK_MS: f64 = 16.0;
/// The chunk run at once when an action starts new work (a load, an edit,
/// *run to end*): shorter, as building the run came first in that task.
const FIRST_CHUNK_MS: f64 = 10.0;
/// Past this many characters a link still opens, but the page warns that
/// it may not survive being shared.
const LONG_LINK: usize = 64 * 1024;
/// Play speeds, in steps per second.
pub const SPEEDS: [u32; 6] = [1, 2, 5, 10, 30, 100];

/// What the page is busy with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
pub enum Busy {
    #[default]
    Idle,
    /// Recording the run for the debugger.
    Recording,
    /// A metrics-only run of a large scenario.
    Counting,
    /// Running the debugger's position to the end.
    RunningToEnd,
    /// A script link just opened: its code loads into the engine in the
    /// next task, so the page draws first (a cold load of the engine and
    /// the script takes 100 to 200 ms in the browser).
    Loading,
    /// The script needs a module of the page's script worker, which is
    /// loading (its name and what it is; `Action::ModuleLoaded` follows,
    /// and no chunk of work runs meanwhile).
    Fetching(
        #[serde(deserialize_with = "crate::interned::static_str")] crate::interned::Name,
        #[serde(deserialize_with = "crate::interned::static_str")] crate::interned::Name,
    ),
}

#[derive(serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// A new `location.hash`.
    Load(String),
    /// The script editor's text, after a pause in typing.
    SetCode(String),
    /// The schema field's SQL, after a pause in typing (blank: no schema).
    SetSchema(String),
    /// A scenario panel edit: key and value text.
    SetParam(String, String),
    Step,
    Back,
    Reset,
    RunToEnd,
    JumpToViolation,
    TogglePlay,
    /// A play timer tick.
    Tick,
    SetSpeed(usize),
    SetGrouping(Grouping),
    /// Manual mode on or off ("you are the scheduler").
    ToggleManual,
    /// Manual mode: fire enabled event `index` next, of the choices the
    /// page showed after `made` choices (a click on choices the model has
    /// moved past, such as a quick second click, is ignored).
    Choose {
        index: usize,
        made: usize,
    },
    /// Manual mode: take back the last choice.
    Undo,
    /// Starts a search of this strategy, or of every strategy.
    Explore {
        options: ExploreOptions,
        every_strategy: bool,
    },
    /// Opens a counterexample's fragment at the step where its check first
    /// fails (the state after that many macrotasks).
    /// Opens a search's counterexample in its minimal form (shrunk while
    /// it keeps violating `violated`), at the step its check first fails.
    OpenCounterexample {
        fragment: String,
        position: u32,
        violated: Vec<Check>,
    },
    /// Stops the running search (its results so far stay).
    CancelSearch,
    /// The module a run waited for loaded (or did not, and why).
    ModuleLoaded(Result<(), String>),
    /// One time-boxed chunk of whatever the page is busy with.
    Work {
        deadline: f64,
    },
    Cancel,
}

/// What the explore panel draws.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchView {
    pub checks: Vec<Check>,
    pub every_strategy: bool,
    /// The running search: its strategy, progress and fraction done.
    pub running: Option<(StrategyKind, Progress, f64)>,
    /// Searches finished out of all.
    pub counts: (usize, usize),
    pub rows: Vec<StrategyRow>,
    pub cancelled: bool,
}

impl SearchView {
    fn of(job: &SearchJob, every_strategy: bool) -> SearchView {
        SearchView {
            checks: job.options().checks.clone(),
            every_strategy,
            running: job.running(),
            counts: job.counts(),
            rows: job.rows.clone(),
            cancelled: false,
        }
    }

    pub fn done(&self) -> bool {
        self.counts.0 == self.counts.1
    }
}

/// What manual mode's pane draws.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ManualView {
    pub goal: String,
    pub won: bool,
    /// The enabled events, as labels in the code pane's words, in (due,
    /// seq) order: the first is the one the normal event loop fires next.
    pub choices: Vec<(u64, String)>,
    /// Why no order of events reaches the goal, when the explorer tried
    /// them all.
    pub unreachable: Option<String>,
    pub can_undo: bool,
    pub done: bool,
    /// Choices made so far (`Action::Choose` names it).
    pub made: usize,
}

/// Pending macrotasks, and a step's microtask events, listed before the
/// rest are counted (a step that wakes 20,000 waiters would otherwise lay
/// out 20,000 rows, seconds of work for the browser).
pub const MAX_LISTED: usize = 12;
pub const MAX_LISTED_EVENTS: usize = 40;

/// What the code and event-loop panes draw of the current step.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StepView {
    /// Where the requests await, on the code's lines.
    pub cursors: Vec<LineCursor>,
    /// The lines the last step ran (none once the run is over).
    pub touched: Vec<usize>,
    /// The last macrotask, described (a script's with its line), if a step
    /// has run.
    pub ran: Option<String>,
    /// The step's first [`MAX_LISTED_EVENTS`] events, and how many it had.
    pub events: Vec<TraceEvent>,
    pub events_total: usize,
    /// The first [`MAX_LISTED`] queued macrotasks, what each will do and
    /// the code line its request awaits (a script's); and how many are
    /// queued.
    pub pending: Vec<(Pending, TaskInfo, Option<usize>)>,
    pub queued: usize,
}

/// A script that does not load: its message, and where in the code.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScriptProblem {
    pub message: String,
    pub at: Option<(u32, u32)>,
}

/// The stage at which the page's first draw is whole
/// ([`Debugger::drawn`]): stage 0 is the page's first task, and each of
/// the stages 1 to `DRAWN` a chunk of work of its own.
pub const DRAWN: u8 = 5;

#[derive(Clone)]
pub struct Debugger {
    pub config: Config,
    /// What runs: the config's story, or a script.
    pub program: Program,
    /// The script that failed to load (the last good run stays on screen).
    pub script_problem: Option<ScriptProblem>,
    /// How many stages of the page's first draw are done, up to [`DRAWN`]
    /// (the page decides what each draws: `app::stage`). Each stage is a
    /// chunk of work of its own, before any other.
    pub drawn: u8,
    /// Stages of the script engine's warm-up done (script worker).
    pub warmed: u32,
    /// The canonical fragment, without `#`.
    pub fragment: String,
    /// Bad keys in the loaded fragment (they fell back to defaults).
    pub errors: Vec<String>,
    /// The last rejected panel edit: key and message.
    pub param_error: Option<(String, String)>,
    pub notice: Option<String>,
    pub listing: Rc<Listing>,
    pub busy: Busy,
    /// Requests finished out of all, while recording or counting.
    pub progress: (u64, u64),
    pub playing: bool,
    pub speed: usize,
    pub grouping: Grouping,
    pub compare_rows: Rc<Vec<CompareRow>>,
    /// Bumped on every change, so views compare cheaply.
    pub version: u64,
    recorder: Option<Rc<RefCell<Recorder>>>,
    counter: Option<Rc<RefCell<Scheduled<dyn Run>>>>,
    session: Option<Rc<RefCell<Session>>>,
    /// The recorded run's session, built in one chunk and shown in the
    /// next: its first draw (a timeline of up to 20,000 lanes) then has a
    /// task of its own. The page stays `Busy::Recording` until then.
    finished: Option<Rc<RefCell<Session>>>,
    compare: Option<Rc<RefCell<Compare>>>,
    manual: Option<Rc<RefCell<ManualSession>>>,
    /// What happened in the recorded run: its story, fix and smallest case
    /// (worked out in a chunk of its own once the recording is done).
    pub explanation: Option<Rc<Explanation>>,
    /// The story of every violation, to tell the one a step lands on.
    pub stories: Rc<Vec<Story>>,
    /// Whether manual mode's goal can be reached at all (searched once
    /// when manual mode starts).
    manual_reachable: Option<Reachability>,
    search: Option<Rc<RefCell<SearchJob>>>,
    pub search_view: Option<SearchView>,
    /// The step to go to once the new recording is ready.
    seek: Option<u32>,
    /// What waits for a module (`Busy::Fetching`), with the last good run
    /// still on screen: it goes on once the module has loaded.
    resume: Option<Resume>,
}

/// What goes on once the module it waited for has loaded (the script
/// worker's; the stories' worker has no modules).
#[derive(Clone)]
#[cfg_attr(not(scripts), allow(dead_code))]
enum Resume {
    /// An edited script (it needs TypeScript's stripper or the SQL parser).
    Edit(Program),
    /// A search, or manual mode (they need explore's analysis).
    Explore {
        options: ExploreOptions,
        every_strategy: bool,
    },
    Manual,
}

impl PartialEq for Debugger {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version
    }
}

impl Debugger {
    /// Parses `hash` leniently, for the page's start: nothing runs yet.
    /// The first draw has only the frame and the controls, and the work
    /// that follows, one browser task per chunk, draws the panes
    /// ([`Debugger::drawn`]) and then records (a script loads first, in
    /// `Busy::Loading`). So no task of the page's start is long: a pane's
    /// first draw also compiles its code.
    pub fn load(hash: &str) -> Debugger {
        let (config, program, errors) = parse_hash(hash);
        let errors = errors.iter().map(ToString::to_string).collect();
        let deferred = cfg!(scripts) && program.is_script();
        let mut started = Debugger::begin(config, program, errors, 0, deferred);
        started.drawn = 0;
        started
    }

    fn start(config: Config, program: Program, errors: Vec<String>, version: u64) -> Debugger {
        Debugger::begin(config, program, errors, version, false)
    }

    /// The deferred start of `Busy::Loading`.
    fn launch(&mut self) {
        let (config, program) = (self.config.clone(), self.program.clone());
        let errors = std::mem::take(&mut self.errors);
        *self = Debugger {
            warmed: self.warmed,
            // Manual mode and a search started while the script loaded.
            manual: self.manual.take(),
            manual_reachable: self.manual_reachable.take(),
            search: self.search.take(),
            search_view: self.search_view.take(),
            ..Debugger::start(config, program, errors, self.version)
        };
    }

    /// `start`, or with `deferred` only the state of `Busy::Loading`.
    fn begin(
        config: Config,
        program: Program,
        errors: Vec<String>,
        version: u64,
        deferred: bool,
    ) -> Debugger {
        let large = config.total_requests() > MAX_TRACED_REQUESTS;
        let mut script_problem = None;
        let checked = match deferred {
            true => Ok(()),
            false => program.admit(&config),
        };
        let (recorder, counter, busy, notice) = if deferred {
            (None, None, Busy::Loading, None)
        } else if let Err(message) = checked {
            match waits_for_module(&message) {
                Some(_) => (None, None, fetching(&message), None),
                None => {
                    script_problem = Some(ScriptProblem::of(message));
                    (None, None, Busy::Idle, None)
                }
            }
        } else if large {
            let notice = format!(
                "{} requests: the page keeps only the metrics of runs above {MAX_TRACED_REQUESTS} \
                 requests, so there is no trace to step through",
                config.total_requests()
            );
            match program.start(&config, false) {
                Ok(run) => (None, Some(shared(run)), Busy::Counting, Some(notice)),
                Err(message) if waits_for_module(&message).is_some() => {
                    (None, None, fetching(&message), None)
                }
                Err(message) => {
                    script_problem = Some(ScriptProblem::of(message));
                    (None, None, Busy::Idle, None)
                }
            }
        } else {
            match Recorder::of_program(&program, &config) {
                Ok(recorder) => (Some(shared(recorder)), None, Busy::Recording, None),
                Err(message) if waits_for_module(&message).is_some() => {
                    (None, None, fetching(&message), None)
                }
                Err(message) => {
                    script_problem = Some(ScriptProblem::of(message));
                    (None, None, Busy::Idle, None)
                }
            }
        };
        let compare =
            (script_problem.is_none() && !matches!(busy, Busy::Fetching(..)) && compares(&config))
                .then(|| shared(Compare::of_program(&program, &config)));
        let fragment = program.fragment(&config);
        // Only a script's code makes a link this long.
        let notice = match program.is_script() && fragment.len() > LONG_LINK {
            true => Some(format!(
                "this link is {} KB long: it opens here, but servers and chat tools often cut \
                 links past {} KB, so share the script as a file (interleave encode FILE.js \
                 makes its code= value)",
                fragment.len() / 1024,
                LONG_LINK / 1024
            )),
            false => notice,
        };
        Debugger {
            fragment,
            listing: Rc::new(program.listing(&config)),
            progress: (0, config.total_requests()),
            compare,
            config,
            program,
            script_problem,
            drawn: DRAWN,
            warmed: 0,
            errors,
            param_error: None,
            notice,
            busy,
            playing: false,
            speed: 3,
            grouping: Grouping::Owner,
            compare_rows: Rc::default(),
            explanation: None,
            stories: Rc::default(),
            version,
            recorder,
            counter,
            session: None,
            finished: None,
            manual: None,
            manual_reachable: None,
            search: None,
            search_view: None,
            seek: None,
            resume: None,
        }
    }

    /// Records `config` again, keeping manual mode and the search, and
    /// goes to `seek` once the recording is ready.
    fn restart(self: Rc<Self>, config: Config, seek: u32) -> Rc<Self> {
        let mut next = Debugger::start(config, self.program.clone(), Vec::new(), self.version + 1);
        next.manual = self.manual.clone();
        next.manual_reachable = self.manual_reachable.clone();
        next.search = self.search.clone();
        next.search_view = self.search_view.clone();
        next.seek = Some(seek);
        next.changed().work(now_ms() + FIRST_CHUNK_MS)
    }

    /// Manual mode's pane, when it is on.
    pub fn manual_view(&self) -> Option<ManualView> {
        let manual = self.manual.as_ref()?.borrow();
        let label = |choice: &crate::sim::Choice| {
            let info = manual.describe(choice.task);
            let who = manual.describe_request(choice.request);
            choice_label(choice.task, &info, &who, &self.listing)
        };
        let unreachable = match &self.manual_reachable {
            Some(Reachability::Unreachable { schedules, why }) => Some(format!(
                "No order of events can do it here: {why} (the explorer tried all {} schedules).",
                thousands(*schedules)
            )),
            _ => None,
        };
        Some(ManualView {
            goal: manual.goal(),
            won: manual.won(),
            choices: manual
                .enabled()
                .iter()
                .map(|choice| (choice.due, label(choice)))
                .collect(),
            unreachable,
            can_undo: !manual.schedule().is_empty(),
            done: manual.is_done(),
            made: manual.schedule().len(),
        })
    }

    /// Follows manual mode's choices: records its config and goes to the
    /// step where it rests.
    fn follow_manual(self: Rc<Self>) -> Rc<Self> {
        let Some(manual) = self.manual.clone() else {
            return self;
        };
        let (config, steps) = {
            let manual = manual.borrow();
            (manual.config(), manual.steps())
        };
        self.restart(config, steps)
    }

    pub fn session(&self) -> Option<std::cell::Ref<'_, Session>> {
        self.session.as_ref().map(|session| session.borrow())
    }

    pub fn recording(&self) -> Option<Rc<Recording>> {
        self.session().map(|session| session.recording().clone())
    }

    /// The metrics at the current position (of the metrics-only run for
    /// large scenarios).
    /// A run too large to trace: only its counters, no stepping.
    pub fn is_metrics_only(&self) -> bool {
        self.counter.is_some()
    }

    pub fn metrics(&self) -> Metrics {
        if let Some(session) = self.session() {
            return session.metrics();
        }
        match &self.counter {
            Some(run) => run.borrow().metrics(),
            None => Metrics::default(),
        }
    }

    /// The counters that tell the run's story, shown first.
    pub fn headline(&self) -> Headline {
        if let Some(session) = self.session() {
            return session.headline();
        }
        match &self.counter {
            Some(run) => run.borrow().headline(),
            None => Headline::of(story_headline(self.config.scenario)),
        }
    }

    pub fn position(&self) -> u32 {
        self.session().map_or(0, |session| session.position())
    }

    pub fn now(&self) -> u64 {
        match (self.session(), &self.counter) {
            (Some(session), _) => session.now(),
            (None, Some(run)) => run.borrow().now(),
            (None, None) => 0,
        }
    }

    pub fn at_end(&self) -> bool {
        self.session().is_some_and(|session| session.at_end())
    }

    /// Whether the compare table's rows are still being run.
    pub fn comparing(&self) -> bool {
        self.compare.is_some()
    }

    /// Whether there is chunked work left (the page schedules `Work`).
    pub fn has_work(&self) -> bool {
        // While a module loads nothing runs: `Action::ModuleLoaded` goes on.
        if matches!(self.busy, Busy::Fetching(..)) {
            return false;
        }
        self.drawn < DRAWN
            || self.busy != Busy::Idle
            || self.compare.is_some()
            || self.search.is_some()
            || self.needs_explanation()
    }

    fn needs_explanation(&self) -> bool {
        self.session.is_some() && self.explanation.is_none()
    }

    /// The story of the violation the last step caused, if any.
    pub fn story_here(&self) -> Option<Story> {
        let position = self.position();
        self.stories
            .iter()
            .find(|story| story.step + 1 == position)
            .cloned()
    }

    /// The current step, as the code and event-loop panes draw it
    /// (nothing before a run is recorded).
    pub fn step_view(&self) -> StepView {
        let Some(session) = self.session() else {
            return StepView::default();
        };
        let events = session.last_events();
        let lines = session.last_lines(&self.listing);
        let script = self.program.is_script();
        // On a script, each queued macrotask names the line its request
        // resumes at.
        let awaits = match script {
            true => session.await_lines(&self.listing),
            false => Vec::new(),
        };
        let queue = session.pending();
        StepView {
            cursors: session.cursors(&self.listing),
            ran: session.ran_line().map(|ran| match lines.first() {
                // A script's step names the line it ran.
                Some(line) if script => format!("{ran} (line {line})"),
                _ => ran,
            }),
            // Once the run is over no line is running.
            touched: match session.at_end() {
                true => Vec::new(),
                false => lines,
            },
            events: events[..events.len().min(MAX_LISTED_EVENTS)].to_vec(),
            events_total: events.len(),
            pending: queue
                .iter()
                .take(MAX_LISTED)
                .map(|&pending| {
                    let info = session.describe(pending.task);
                    let line = awaits.get(info.request as usize).copied().flatten();
                    (pending, info, line)
                })
                .collect(),
            queued: queue.len(),
        }
    }

    fn changed(mut self) -> Rc<Self> {
        self.version += 1;
        Rc::new(self)
    }

    /// An owned copy to change, with a fresh version (it shares the
    /// engine objects, which are behind `Rc`).
    fn owned(self: Rc<Self>) -> Debugger {
        let mut next = Rc::unwrap_or_clone(self);
        next.version += 1;
        next
    }

    fn with_session(self: Rc<Self>, act: impl FnOnce(&mut Session)) -> Rc<Self> {
        let Some(session) = &self.session else {
            return self;
        };
        act(&mut session.borrow_mut());
        Rc::new(self.owned())
    }

    /// The schedule does not fit: say so and run the default order instead.
    fn without_schedule(self, error: ScheduleError) -> Debugger {
        let mut errors = self.errors.clone();
        errors.push(ConfigError::from(error).to_string());
        let mut config = self.config.clone();
        config.schedule = Default::default();
        Debugger::start(config, self.program.clone(), errors, self.version)
    }

    /// Drops a recording that grew too long for a metrics-only run.
    fn count_instead(&mut self) {
        self.recorder = None;
        self.counter = self.program.start(&self.config, false).ok().map(shared);
        self.busy = match self.counter {
            Some(_) => Busy::Counting,
            None => Busy::Idle,
        };
        self.progress.0 = 0;
        // The limits' figures, written out (no formatting code for them).
        self.notice = Some(
            "too long to record (over 1,000,000 macrotasks or about 4,000,000 events): the \
             page keeps only the metrics"
                .to_string(),
        );
    }

    /// One time-boxed chunk: at the page's start a stage of its first draw
    /// (one a chunk), then recording, a run to the end, the explanation
    /// and the compare table.
    fn work(self: Rc<Self>, deadline: f64) -> Rc<Self> {
        let mut next = self.owned();
        if next.drawn < DRAWN {
            next.drawn += 1;
            return next.changed();
        }
        // Whether a slice of the recording already ran in this chunk.
        let mut recorded = false;
        while now_ms() < deadline {
            match next.busy {
                // Only a build with the engine defers (the stories' worker has none).
                // The engine's first calls are compiled on the spot: it
                // warms up in tasks of its own, then starts (its realm, the
                // script's parse and compile) in the next, and records in
                // the one after.
                #[cfg(scripts)]
                Busy::Loading if next.warmed < crate::script::run::WARM_UP_STAGES => {
                    crate::debugger::program::engine::warm_up(next.warmed);
                    next.warmed += 1;
                    break;
                }
                Busy::Loading if cfg!(scripts) => {
                    next.launch();
                    break;
                }
                Busy::Loading => next.busy = Busy::Idle,
                // Action::ModuleLoaded goes on.
                Busy::Fetching(..) => break,
                Busy::Recording if next.finished.is_some() => {
                    next.session = next.finished.take();
                    next.busy = Busy::Idle;
                    // The session's first draw ends this task; the
                    // explanation and the compare table follow in tasks of
                    // their own.
                    break;
                }
                Busy::Recording => {
                    let recorder = next.recorder.clone().expect("recording has a recorder");
                    let advanced = run_slice(
                        || recorder.borrow_mut().advance(1),
                        || recorder.borrow().work(),
                    );
                    let slices_before = std::mem::replace(&mut recorded, true);
                    next.progress = recorder.borrow().progress();
                    let done = match advanced {
                        Ok(done) => done,
                        Err(error) => {
                            next = next.without_schedule(error);
                            continue;
                        }
                    };
                    if !done
                        && recorder.borrow().too_long(
                            MAX_RECORDED_STEPS,
                            MAX_RECORDED_WORK,
                            MAX_RECORDED_EVENTS,
                        )
                    {
                        next.count_instead();
                        continue;
                    }
                    // A large run's finishing (the timeline's holders, the
                    // violations, a live run) takes a task of its own after
                    // the chunk's recording (the recorder, done, answers
                    // done again at once), and its first draw the next one.
                    if done && slices_before {
                        break;
                    }
                    if done {
                        next.recorder = None;
                        // A run recorded in one slice is small: it shows at
                        // once, as an edit's first chunk does.
                        let small = recorder.borrow().work() <= WORK_SLICE;
                        let recording = Rc::new(recorder.borrow_mut().finish());
                        match Session::of(recording) {
                            Ok(mut session) => {
                                if let Some(step) = next.seek.take() {
                                    session.seek(step);
                                }
                                if small {
                                    next.session = Some(shared(session));
                                    next.busy = Busy::Idle;
                                } else {
                                    next.finished = Some(shared(session));
                                }
                            }
                            Err(message) => {
                                next.script_problem = Some(ScriptProblem::of(message));
                                next.busy = Busy::Idle;
                            }
                        }
                        break;
                    }
                }
                Busy::Counting => {
                    let run = next.counter.clone().expect("counting has a run");
                    let advanced =
                        run_slice(|| run.borrow_mut().run_for(1), || run.borrow().work());
                    next.progress.0 = run.borrow().finished_requests();
                    match advanced {
                        Ok(true) => next.busy = Busy::Idle,
                        Ok(false) => {}
                        Err(error) => next = next.without_schedule(error),
                    }
                }
                Busy::RunningToEnd => {
                    let session = next.session.clone().expect("a session runs to the end");
                    let ran = run_slice(
                        || Ok::<_, ()>(session.borrow_mut().run_for(1)),
                        || session.borrow().work(),
                    );
                    if ran == Ok(true) {
                        next.busy = Busy::Idle;
                    }
                }
                Busy::Idle if next.search.is_some() => {
                    let job = next.search.clone().expect("checked");
                    let done = job.borrow_mut().advance(SEARCH_SLICE);
                    let every = next.search_view.as_ref().is_some_and(|v| v.every_strategy);
                    next.search_view = Some(SearchView::of(&job.borrow(), every));
                    if done {
                        next.search = None;
                    }
                }
                Busy::Idle if next.needs_explanation() => {
                    let recording = next.recording().expect("a session has a recording");
                    let explanation = explanation_of(&recording);
                    // Each story reads the trace, so a large run tells only
                    // its first (a 20,000-request stampede has 40,000
                    // violations).
                    next.stories = Rc::new(if is_small(&recording.config) {
                        stories(&recording)
                    } else {
                        explanation.story.iter().cloned().collect()
                    });
                    next.explanation = Some(Rc::new(explanation));
                }
                Busy::Idle => match next.compare.clone() {
                    Some(compare) => {
                        let done = run_slice(
                            || Ok::<_, ()>(compare.borrow_mut().advance(1)),
                            || compare.borrow().work(),
                        ) == Ok(true);
                        if compare.borrow().rows.len() != next.compare_rows.len() {
                            next.compare_rows = Rc::new(compare.borrow().rows.clone());
                        }
                        if done {
                            next.compare = None;
                        }
                    }
                    None => break,
                },
            }
        }
        // A budget stopped a request: the guard refuses the program
        // from now on, and the page shows why where its code is.
        if let Some(why) = next.program.stopped() {
            let mut refused = Debugger::start(
                next.config.clone(),
                next.program.clone(),
                Vec::new(),
                next.version + 1,
            );
            refused.script_problem = refused
                .script_problem
                .or_else(|| Some(ScriptProblem::of(why)));
            return refused.changed();
        }
        next.changed()
    }
}

impl Debugger {
    /// The state after `action`.
    pub fn act(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Load(hash) => {
                let (config, program, errors) = parse_hash(&hash);
                if errors.is_empty() && program.fragment(&config) == self.fragment {
                    // Our own URL update coming back: nothing changes. The
                    // same scenario written another way gets a new frame,
                    // so that the page writes its canonical link back.
                    return match hash.trim_start_matches('#') == self.fragment {
                        true => self,
                        false => self.owned().changed(),
                    };
                }
                let errors = errors.iter().map(ToString::to_string).collect();
                let deferred = cfg!(scripts) && program.is_script();
                let next = Debugger::begin(config, program, errors, self.version + 1, deferred);
                match deferred {
                    true => next.changed(),
                    false => next.changed().work(now_ms() + FIRST_CHUNK_MS),
                }
            }
            #[cfg(scripts)]
            Action::SetCode(code) => self.set_code(&code),
            #[cfg(not(scripts))]
            Action::SetCode(_) => self,
            #[cfg(scripts)]
            Action::SetSchema(sql) => self.set_schema(&sql),
            #[cfg(not(scripts))]
            Action::SetSchema(_) => self,
            Action::SetParam(key, value) => {
                // Picking a story's scenario leaves the script, even when
                // its keys stay as they are.
                let leaves_script = key == "scenario" && self.program.is_script();
                match with_param(&self.config, &key, &value) {
                    Ok(config)
                        if config == self.config
                            && self.param_error.is_none()
                            && !leaves_script =>
                    {
                        self
                    }
                    Ok(config) if config == self.config && !leaves_script => {
                        // Typed back to the value that runs: the old message goes.
                        let mut next = self.owned();
                        next.param_error = None;
                        next.changed()
                    }
                    Ok(config) => {
                        // Picking a story's scenario leaves the script.
                        let program = match key.as_str() {
                            "scenario" => Program::Story,
                            _ => self.program.clone(),
                        };
                        Debugger::start(config, program, Vec::new(), self.version + 1)
                            .changed()
                            .work(now_ms() + FIRST_CHUNK_MS)
                    }
                    Err(error) => {
                        let mut next = self.owned();
                        next.param_error = Some((error.key, error.message));
                        next.changed()
                    }
                }
            }
            Action::Step | Action::Tick => {
                let tick = matches!(action, Action::Tick);
                let next = self.with_session(|session| {
                    session.step();
                });
                if tick && next.at_end() {
                    let mut next = next.owned();
                    next.playing = false;
                    return next.changed();
                }
                next
            }
            Action::Back => self.with_session(Session::back),
            Action::Reset => {
                let mut next = self.owned();
                next.playing = false;
                if next.busy == Busy::RunningToEnd {
                    next.busy = Busy::Idle;
                }
                Rc::new(next).with_session(Session::reset)
            }
            Action::RunToEnd => {
                if self.session.is_none() || self.at_end() || self.busy != Busy::Idle {
                    return self;
                }
                let mut next = self.owned();
                next.playing = false;
                let left = next.recording().map_or(0, |r| r.steps) - next.position();
                // A script's macrotask runs JavaScript: far fewer at once.
                let at_once = match next.program.is_script() {
                    true => RUN_AT_ONCE / 100,
                    false => RUN_AT_ONCE,
                };
                if left <= at_once {
                    let session = next.session.clone().expect("checked");
                    session.borrow_mut().run_for(left + 1);
                    return next.changed();
                }
                next.busy = Busy::RunningToEnd;
                next.changed().work(now_ms() + FIRST_CHUNK_MS)
            }
            Action::JumpToViolation => self.with_session(|session| {
                session.jump_to_first_violation();
            }),
            Action::TogglePlay => {
                if self.session.is_none() {
                    return self;
                }
                let mut next = self.owned();
                if next.at_end() && !next.playing {
                    next.session.as_ref().expect("checked").borrow_mut().reset();
                }
                next.playing = !next.playing;
                next.changed()
            }
            Action::SetSpeed(speed) => {
                let mut next = self.owned();
                next.speed = speed.min(SPEEDS.len() - 1);
                next.changed()
            }
            Action::SetGrouping(grouping) => {
                let mut next = self.owned();
                next.grouping = grouping;
                next.changed()
            }
            #[cfg(scripts)]
            Action::ModuleLoaded(loaded) => self.module_loaded(loaded),
            #[cfg(not(scripts))]
            Action::ModuleLoaded(_) => self,
            Action::Work { deadline } => self.work(deadline),
            // A script the page's guard refused does not run here either.
            Action::ToggleManual | Action::Explore { .. }
                if self.manual.is_none() && self.program.admit(&self.config).is_err() =>
            {
                self
            }
            Action::ToggleManual => {
                #[cfg(scripts)]
                if self.manual.is_none() {
                    if let Some(waiting) = self.clone().wait_for_analysis(Resume::Manual) {
                        return waiting;
                    }
                }
                let mut next = self.owned();
                next.playing = false;
                if next.manual.take().is_some() {
                    return next.changed();
                }
                let session = next
                    .program
                    .subject(&next.config)
                    .map_err(|e| e.to_string())
                    .and_then(|subject| {
                        ManualSession::of(subject, &next.config.schedule, Vec::new())
                            .map_err(|e| e.to_string())
                    });
                match session {
                    Ok(manual) => {
                        // Small stories only: each schedule is a whole run.
                        next.manual_reachable = (next.config.total_requests()
                            <= MANUAL_SEARCH_REQUESTS)
                            .then(|| manual.reachable(MANUAL_SEARCH))
                            .flatten();
                        next.manual = Some(shared(manual));
                        Rc::new(next).follow_manual()
                    }
                    Err(error) => {
                        next.param_error = Some(("schedule".into(), error));
                        next.changed()
                    }
                }
            }
            Action::Choose { index, made } => {
                let Some(manual) = &self.manual else {
                    return self;
                };
                if manual.borrow().schedule().len() != made {
                    return self;
                }
                manual.borrow_mut().choose(index);
                self.follow_manual()
            }
            Action::Undo => {
                if let Some(manual) = &self.manual {
                    manual.borrow_mut().undo();
                }
                self.follow_manual()
            }
            Action::Explore {
                options,
                every_strategy,
            } => {
                #[cfg(scripts)]
                {
                    let resume = Resume::Explore {
                        options: options.clone(),
                        every_strategy,
                    };
                    if let Some(waiting) = self.clone().wait_for_analysis(resume) {
                        return waiting;
                    }
                }
                let mut next = self.owned();
                let job = match every_strategy {
                    true => SearchJob::every_strategy(&next.program, &next.config, options),
                    false => SearchJob::one(&next.program, &next.config, options),
                };
                next.search_view = Some(SearchView::of(&job, every_strategy));
                next.search = Some(shared(job));
                next.changed().work(now_ms() + FIRST_CHUNK_MS)
            }
            Action::OpenCounterexample {
                fragment,
                position,
                violated,
            } => {
                let (config, program, errors) = parse_hash(&fragment);
                if !errors.is_empty() {
                    return self;
                }
                let minimal = match program.is_script() {
                    false => minimal_of_counterexample(&config, &violated),
                    true => None,
                };
                let (config, position) = match minimal {
                    Some((minimal, step)) => (minimal, step + 1),
                    None => (config, position),
                };
                let search_view = self.search_view.clone();
                let mut next = Debugger::start(config, program, Vec::new(), self.version + 1);
                next.search_view = search_view;
                next.seek = Some(position);
                next.changed().work(now_ms() + FIRST_CHUNK_MS)
            }
            Action::Cancel => {
                let mut next = self.owned();
                match next.busy {
                    Busy::RunningToEnd => next.busy = Busy::Idle,
                    Busy::Fetching(_, what) => {
                        next.busy = Busy::Idle;
                        next.resume = None;
                        next.notice = Some(format!(
                            "cancelled while {what} loaded: edit the script or reload to try \
                             again"
                        ));
                    }
                    Busy::Recording | Busy::Counting | Busy::Loading => {
                        next.busy = Busy::Idle;
                        next.recorder = None;
                        next.finished = None;
                        next.notice = Some(
                            "cancelled: the run was stopped before its end, so the counters \
                             are partial; change a parameter or reload to run again"
                                .to_string(),
                        );
                    }
                    Busy::Idle => {}
                }
                next.compare = None;
                next.changed()
            }
            Action::CancelSearch => {
                let mut next = self.owned();
                if next.search.take().is_some() {
                    if let Some(view) = &mut next.search_view {
                        view.cancelled = true;
                        view.running = None;
                    }
                }
                next.changed()
            }
        }
    }
}

#[cfg(scripts)]
impl Debugger {
    /// The module the run waited for loaded: it starts again (and may
    /// wait for another); or it did not, which the script panel says.
    fn module_loaded(self: Rc<Self>, loaded: Result<(), String>) -> Rc<Self> {
        let Busy::Fetching(_, what) = self.busy else {
            return self;
        };
        let mut next = self.owned();
        next.busy = Busy::Idle;
        match (loaded, next.resume.take()) {
            (Ok(()), Some(resume)) => {
                let next = Rc::new(next);
                return match resume {
                    Resume::Edit(program) => next.run_edited(program),
                    Resume::Explore {
                        options,
                        every_strategy,
                    } => next.act(Action::Explore {
                        options,
                        every_strategy,
                    }),
                    Resume::Manual => next.act(Action::ToggleManual),
                };
            }
            (Ok(()), None) => next.launch(),
            // The run is fine: only the search could not start.
            (Err(error), Some(Resume::Explore { .. } | Resume::Manual)) => {
                next.notice = Some(format!(
                    "explore and manual mode need {what}, which did not load ({error}); reload \
                     the page to try again"
                ));
            }
            (Err(error), _) => {
                next.script_problem = Some(ScriptProblem::of(format!(
                    "this script needs {what}, which did not load ({error}); reload the page \
                     to try again"
                )));
            }
        }
        next.changed().work(now_ms() + FIRST_CHUNK_MS)
    }

    /// The script editor's text: runs it if it loads (the last good run
    /// stays on screen otherwise, with the error).
    fn set_code(self: Rc<Self>, code: &str) -> Rc<Self> {
        let (schema, route) = match &self.program {
            crate::debugger::Program::Script(script) => {
                (script.schema.clone(), script.route.clone())
            }
            _ => (None, None),
        };
        let program =
            crate::debugger::program::edited_script(code, schema.as_deref(), route.as_deref());
        self.run_edited(program)
    }

    /// The schema field's SQL: runs the script on it if it loads (the last
    /// good run stays on screen otherwise, with the error, which names
    /// `schema`).
    fn set_schema(self: Rc<Self>, sql: &str) -> Rc<Self> {
        let crate::debugger::Program::Script(script) = &self.program else {
            return self;
        };
        let program = crate::debugger::program::edited_schema(script, sql);
        self.run_edited(program)
    }

    /// An edited script: the new run if it loads, else the error beside the
    /// last good run.
    fn run_edited(self: Rc<Self>, program: Program) -> Rc<Self> {
        if program == self.program && self.script_problem.is_none() {
            return self;
        }
        // The guard first: a refused script does not run.
        let loads = program
            .admit(&self.config)
            .and_then(|()| program.start(&self.config, false).map(drop));
        if let Err(message) = loads {
            let mut next = self.owned();
            match waits_for_module(&message) {
                // The last good run stays on screen while the module loads.
                Some(_) => {
                    next.busy = fetching(&message);
                    next.resume = Some(Resume::Edit(program));
                }
                None => next.script_problem = Some(ScriptProblem::of(message)),
            }
            return next.changed();
        }
        Debugger::start(self.config.clone(), program, Vec::new(), self.version + 1)
            .changed()
            .work(now_ms() + FIRST_CHUNK_MS)
    }
}

impl ScriptProblem {
    fn of(message: String) -> ScriptProblem {
        #[cfg(scripts)]
        let at = crate::debugger::program::error_position(&message);
        #[cfg(not(scripts))]
        let at = None;
        ScriptProblem { at, message }
    }
}

#[cfg(scripts)]
impl Debugger {
    /// A script's search or manual mode needs explore's analysis: while
    /// its module loads, the action waits (`resume`), the run on screen.
    fn wait_for_analysis(self: Rc<Self>, resume: Resume) -> Option<Rc<Self>> {
        use crate::script::modules::{loaded, Module};
        if !self.program.is_script() || loaded(Module::Analysis) {
            return None;
        }
        // Not while the run is prepared: its state would be lost (the page
        // disables these buttons meanwhile).
        if self.busy != Busy::Idle {
            return Some(self);
        }
        let mut next = self.owned();
        next.busy = Busy::Fetching(Module::Analysis.name(), Module::Analysis.what());
        next.resume = Some(resume);
        Some(next.changed())
    }
}

/// The wait for the module a load error names.
fn fetching(message: &str) -> Busy {
    let (name, what) = waits_for_module(message).unwrap_or(("", ""));
    Busy::Fetching(name, what)
}

/// A fragment as this build reads it (scripts only with the engine).
#[cfg(scripts)]
fn parse_hash(hash: &str) -> (Config, Program, Vec<ConfigError>) {
    crate::debugger::program::parse_lenient(hash)
}

#[cfg(not(scripts))]
fn parse_hash(hash: &str) -> (Config, Program, Vec<ConfigError>) {
    if crate::debugger::program::is_script_fragment(hash) {
        return (Config::default(), Program::Story, Vec::new());
    }
    let (config, errors) = crate::config::url::parse_fragment_lenient(hash);
    (config, Program::Story, errors)
}

fn shared<T>(value: T) -> Rc<RefCell<T>> {
    Rc::new(RefCell::new(value))
}

/// Most requests for which the page works out the fix and the smallest
/// case (each a few more runs of the scenario); larger runs get the story.
const MAX_EXPLAINED_REQUESTS: u64 = 100;

/// Whether a run is small enough for the whole explanation.
fn is_small(config: &Config) -> bool {
    config.total_requests() <= MAX_EXPLAINED_REQUESTS
}

/// The explanation of a recorded run: all of it for a small story (a
/// script's, from `explain`, with its fix for a small run), the story and
/// narration alone for a large one.
fn explanation_of(recording: &Recording) -> Explanation {
    if is_small(&recording.config) || recording.program.is_script() {
        return explain_recording(recording);
    }
    story_only(recording)
}

/// Milliseconds on the wall clock, which only the chunks' deadlines read
/// (the runs' own clocks are simulated).
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Milliseconds on the wall clock, which only the chunks' deadlines read
/// (the runs' own clocks are simulated).
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}
