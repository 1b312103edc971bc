//! The page's link to the model ([`crate::model`]): the components send
//! [`Action`]s through it and draw the [`Frame`]s it hands back.
//!
//! The model runs on the page's own thread here (the wasm tests, which
//! link the script worker's parser modules; the page's own build holds it
//! in a worker, `remote.rs`, which has the same interface). An action
//! applies at once; long work goes on one time-boxed chunk per browser
//! task (so no task is long).

use std::cell::RefCell;
use std::rc::Rc;

use yew::Callback;

use super::yielding::NextTask;
use crate::model::{now_ms, Action, Export, File, Frame, Host, CHUNK_MS};

#[derive(Clone)]
pub struct Link {
    inner: Rc<Inner>,
}

struct Inner {
    host: RefCell<Host>,
    frame: RefCell<Rc<Frame>>,
    /// Told of every new frame, once the page listens.
    on_frame: RefCell<Option<Callback<Rc<Frame>>>>,
    /// Given each file asked for.
    on_file: RefCell<Option<Callback<File>>>,
    /// The next chunk of work, while there is work (dropping it cancels).
    next: RefCell<Option<NextTask>>,
}

impl PartialEq for Link {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Link {
    /// The model of `hash`: nothing runs until the page listens.
    pub fn open(hash: &str) -> Link {
        let mut host = Host::open(hash);
        let frame = Rc::new(host.frame());
        Link {
            inner: Rc::new(Inner {
                host: RefCell::new(host),
                frame: RefCell::new(frame),
                on_frame: RefCell::new(None),
                on_file: RefCell::new(None),
                next: RefCell::new(None),
            }),
        }
    }

    /// The frame to draw now (always one: the model is here).
    pub fn frame(&self) -> Option<Rc<Frame>> {
        Some(self.inner.frame.borrow().clone())
    }

    /// Never: the engine, if this build has it, is here.
    pub fn loads_engine(&self) -> bool {
        false
    }

    /// Starts the work the model has, telling `on_frame` of each change
    /// and giving `on_file` each file asked for.
    pub fn listen(&self, on_frame: Callback<Rc<Frame>>, on_file: Callback<File>) {
        self.inner.on_frame.replace(Some(on_frame));
        self.inner.on_file.replace(Some(on_file));
        self.go_on();
    }

    /// Stops: no more chunks, no more frames.
    pub fn close(&self) {
        self.inner.on_frame.replace(None);
        self.inner.next.replace(None);
    }

    pub fn send(&self, action: Action) {
        let frame = self.inner.host.borrow_mut().act(action);
        if let Some(frame) = frame {
            let frame = Rc::new(frame);
            self.inner.frame.replace(frame.clone());
            let on_frame = self.inner.on_frame.borrow().clone();
            if let Some(on_frame) = on_frame {
                on_frame.emit(frame);
            }
        }
        self.go_on();
    }

    /// Asks for a file of the recorded run (none before a run).
    pub fn export(&self, what: Export) {
        let file = self.inner.host.borrow().export(what);
        let on_file = self.inner.on_file.borrow().clone();
        if let (Some(file), Some(on_file)) = (file, on_file) {
            on_file.emit(file);
        }
    }

    /// Schedules the next chunk of work, if any.
    fn go_on(&self) {
        if self.inner.on_frame.borrow().is_none() {
            return;
        }
        let wants_chunk = self.inner.host.borrow().has_work();
        let mut next = self.inner.next.borrow_mut();
        match (wants_chunk, next.is_some()) {
            (true, false) => {
                let link = self.clone();
                *next = Some(NextTask::new(move || {
                    link.inner.next.replace(None);
                    link.send(Action::Work {
                        deadline: now_ms() + CHUNK_MS,
                    });
                }));
            }
            (false, true) => *next = None,
            _ => {}
        }
    }
}
