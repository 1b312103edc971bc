//! What holds the model for a page: it applies the page's actions and says
//! when there is a new frame to draw, a chunk of work to run, or a module
//! to load. The page's link holds one on the page's own thread
//! (`app/link.rs`); a worker holds one and sends its frames as bytes
//! ([`super::wire`]).

use std::rc::Rc;

use super::{Action, Busy, Debugger, Export, File, Frame};

/// The least time (ms) between two frames that only tell the progress of
/// work in the background (a recording's count, the compare table's rows,
/// a search): ten a second read as smooth as sixty, and each frame costs
/// the page a render and a layout, on a thread that also loads the page.
pub const PROGRESS_GAP_MS: f64 = 100.0;

pub struct Host {
    model: Rc<Debugger>,
    /// The version of the last frame handed out.
    shown: Option<u64>,
    /// The stage of the last frame handed out, and when it was (for a
    /// chunk's frame, the chunk's deadline; never, for another's).
    shown_stage: Option<(Stage, f64)>,
}

/// What a frame shows the model doing. A frame of the same stage as the
/// last one shown, while work goes on, only tells its progress.
#[derive(Clone, Copy, PartialEq)]
struct Stage {
    busy: Busy,
    drawn: u8,
    ready: bool,
}

impl Stage {
    fn of(model: &Debugger) -> Stage {
        Stage {
            busy: model.busy,
            drawn: model.drawn,
            ready: model.session.is_some(),
        }
    }
}

impl Host {
    /// The model of `hash` (a page's `location.hash`): nothing runs yet.
    pub fn open(hash: &str) -> Host {
        Host {
            model: Rc::new(Debugger::load(hash)),
            shown: None,
            shown_stage: None,
        }
    }

    /// The frame to draw now.
    pub fn frame(&mut self) -> Frame {
        self.frame_at(f64::NEG_INFINITY)
    }

    fn frame_at(&mut self, at: f64) -> Frame {
        self.shown = Some(self.model.version);
        self.shown_stage = Some((Stage::of(&self.model), at));
        self.model.frame()
    }

    /// Applies `action`: the new frame, if the model changed. A chunk of
    /// work that only moved the work's progress on, less than
    /// [`PROGRESS_GAP_MS`] after the last frame, has none: its change
    /// comes with a later chunk's frame, or with the last chunk's.
    pub fn act(&mut self, action: Action) -> Option<Frame> {
        let chunk = match action {
            Action::Work { deadline } => Some(deadline),
            _ => None,
        };
        self.model = self.model.clone().act(action);
        if self.shown == Some(self.model.version) {
            return None;
        }
        let Some(at) = chunk else {
            return Some(self.frame());
        };
        let progress_only = self.shown_stage.is_some_and(|(stage, since)| {
            stage == Stage::of(&self.model) && at - since < PROGRESS_GAP_MS
        });
        if progress_only && self.model.has_work() {
            return None;
        }
        Some(self.frame_at(at))
    }

    /// Whether a chunk of work (`Action::Work`) should follow.
    pub fn has_work(&self) -> bool {
        self.model.has_work()
    }

    /// The module the model waits for (`Action::ModuleLoaded` follows).
    pub fn fetching(&self) -> Option<&'static str> {
        match self.model.busy {
            Busy::Fetching(name, _) => Some(name),
            _ => None,
        }
    }

    /// A file of the recorded run, made now.
    pub fn export(&self, what: Export) -> Option<File> {
        self.model.export(what)
    }

    pub fn model(&self) -> &Debugger {
        &self.model
    }
}
