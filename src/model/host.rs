//! What holds the model for a page: it applies the page's actions and says
//! when there is a new frame to draw, a chunk of work to run, or a module
//! to load. The page's link holds one on the page's own thread
//! (`app/link.rs`); a worker holds one and sends its frames as bytes
//! ([`super::wire`]).

use std::rc::Rc;

use super::{Action, Busy, Debugger, Export, File, Frame};

pub struct Host {
    model: Rc<Debugger>,
    /// The version of the last frame handed out.
    shown: Option<u64>,
}

impl Host {
    /// The model of `hash` (a page's `location.hash`): nothing runs yet.
    pub fn open(hash: &str) -> Host {
        Host {
            model: Rc::new(Debugger::load(hash)),
            shown: None,
        }
    }

    /// The frame to draw now.
    pub fn frame(&mut self) -> Frame {
        self.shown = Some(self.model.version);
        self.model.frame()
    }

    /// Applies `action`: the new frame, if the model changed.
    pub fn act(&mut self, action: Action) -> Option<Frame> {
        self.model = self.model.clone().act(action);
        (self.shown != Some(self.model.version)).then(|| self.frame())
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
