//! What the page draws: the model's state after an action, as plain data.
//!
//! The page holds a [`Frame`] and nothing of the engine's: the components
//! draw its fields and send [`super::Action`]s back. [`Debugger::frame`]
//! makes one after each change; a frame's big parts (the listing, the
//! timeline, the compare table, the explanation) are shared, not copied,
//! so making one costs what drawing the step's panes costs.

use std::rc::Rc;

use super::{Busy, Debugger, ManualView, ScriptProblem, SearchView, StepView};
use crate::config::Config;
use crate::debugger::{CompareRow, Grouping, RunView};
use crate::explain::{Explanation, Story};
use crate::run::Headline;
use crate::scenario::listing::Listing;
use crate::Metrics;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, Default)]
pub struct Frame {
    /// The model's version: bumped on every change.
    pub version: u64,
    /// The canonical fragment, without `#`: the address bar shows it.
    pub fragment: String,
    pub config: Config,
    /// The script that runs, when a script runs.
    pub script: Option<ScriptView>,
    /// The page's link is starting the JavaScript engine's worker for a
    /// script (the model leaves it false).
    pub needs_engine: bool,
    /// Bad keys of the loaded fragment (they fell back to defaults).
    pub errors: Vec<String>,
    /// The last rejected panel edit: key and message.
    pub param_error: Option<(String, String)>,
    pub notice: Option<String>,
    pub busy: Busy,
    /// Requests finished out of all, while recording or counting.
    pub progress: (u64, u64),
    pub playing: bool,
    pub speed: usize,
    pub grouping: Grouping,
    /// How much of the page is drawn ([`Debugger::drawn`]).
    pub drawn: u8,
    /// A recorded run is on screen and nothing else runs: the transport
    /// steps it.
    pub ready: bool,
    /// The run is too large to trace: only its counters.
    pub metrics_only: bool,
    pub position: u32,
    pub now: u64,
    pub at_end: bool,
    pub metrics: Part<Metrics>,
    pub headline: Headline,
    /// The recorded run's lanes, violations and key names.
    /// Sent apart, when it changed (`super::wire`).
    #[serde(skip)]
    pub run: Option<Rc<RunView>>,
    /// Sent apart, when it changed (`super::wire`).
    #[serde(skip)]
    pub listing: Rc<Listing>,
    /// The code and event-loop panes' step.
    pub step: Part<StepView>,
    /// Manual mode's pane, when it is on.
    pub manual: Option<Part<ManualView>>,
    /// The story of the violation the last step caused, if any.
    pub here: Option<Story>,
    /// Sent apart, when it changed (`super::wire`).
    #[serde(skip)]
    pub explanation: Option<Rc<Explanation>>,
    pub search: Option<Part<SearchView>>,
    /// Sent apart, when it changed (`super::wire`).
    #[serde(skip)]
    pub compare_rows: Rc<Vec<CompareRow>>,
    /// The compare table's rows are still being run.
    pub comparing: bool,
}

/// A part of a frame, compared by identity (each frame makes its own), so
/// comparing two costs nothing however large the part.
#[derive(Debug, Default)]
pub struct Part<T>(pub Rc<T>);

impl<T> Clone for Part<T> {
    fn clone(&self) -> Self {
        Part(self.0.clone())
    }
}

impl<T> PartialEq for Part<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// On the wire, a part is its value.
impl<T: serde::Serialize> serde::Serialize for Part<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Part<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer).map(|value| Part(Rc::new(value)))
    }
}

impl<T> std::ops::Deref for Part<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The script panel's part of a frame.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScriptView {
    pub code: String,
    /// How the link names the code (`example=ticket`, or `code=…`).
    pub source_piece: String,
    pub schema: Option<String>,
    /// Why the edited script does not run, and where.
    pub problem: Option<ScriptProblem>,
}

impl Frame {
    /// The requests of the story told: the one this step caused, else the
    /// run's first (their lanes and lines stand out).
    pub fn involved(&self) -> Vec<u32> {
        self.here
            .as_ref()
            .or_else(|| self.explanation.as_ref().and_then(|e| e.story.as_ref()))
            .map(|story| story.requests.clone())
            .unwrap_or_default()
    }

    pub fn is_script(&self) -> bool {
        self.script.is_some()
    }

    pub fn has_violation(&self) -> bool {
        self.run
            .as_ref()
            .is_some_and(|run| !run.violations.is_empty())
    }
}

impl Debugger {
    /// What the page draws now.
    pub fn frame(&self) -> Frame {
        let script = match &self.program {
            #[cfg(scripts)]
            crate::debugger::Program::Script(script) => Some(ScriptView {
                code: script.code.clone(),
                source_piece: script.source_piece.clone(),
                schema: script.schema.clone(),
                problem: self.script_problem.clone(),
            }),
            _ => None,
        };
        let recording = self.recording();
        Frame {
            version: self.version,
            fragment: self.fragment.clone(),
            config: self.config.clone(),
            script,
            needs_engine: false,
            errors: self.errors.clone(),
            param_error: self.param_error.clone(),
            notice: self.notice.clone(),
            busy: self.busy,
            progress: self.progress,
            playing: self.playing,
            speed: self.speed,
            grouping: self.grouping,
            drawn: self.drawn,
            ready: recording.is_some() && self.busy == Busy::Idle,
            metrics_only: self.is_metrics_only(),
            position: self.position(),
            now: self.now(),
            at_end: self.at_end(),
            metrics: Part(Rc::new(self.metrics())),
            headline: self.headline(),
            run: recording.map(|recording| Rc::new(recording.view())),
            listing: self.listing.clone(),
            step: Part(Rc::new(self.step_view())),
            manual: self.manual_view().map(|manual| Part(Rc::new(manual))),
            here: self.story_here(),
            explanation: self.explanation.clone(),
            search: self.search_view.clone().map(|view| Part(Rc::new(view))),
            compare_rows: self.compare_rows.clone(),
            comparing: self.comparing(),
        }
    }
}

/// A file of the recorded run that the page saves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Export {
    /// The trace, one JSON event a line.
    Trace,
    /// The timeline as it is drawn.
    Svg,
}

/// A file to save: its name, type and text.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct File {
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub name: crate::interned::Name,
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub mime: crate::interned::Name,
    pub text: String,
}

impl Debugger {
    /// The recorded run as `what`; none before a run is recorded.
    pub fn export(&self, what: Export) -> Option<File> {
        use crate::debugger::export::{timeline_svg, trace_json_lines};
        let recording = self.recording()?;
        Some(match what {
            Export::Trace => File {
                name: "interleave-trace.jsonl",
                mime: "application/x-ndjson",
                text: trace_json_lines(&recording),
            },
            Export::Svg => File {
                name: "interleave-timeline.svg",
                mime: "image/svg+xml",
                text: timeline_svg(&recording),
            },
        })
    }
}
