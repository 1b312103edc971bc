//! The page's link to the model ([`crate::model`]): the components send
//! [`Action`]s through it and draw the [`Frame`]s it hands back.
//!
//! The model runs on the page's own thread here (the script edition and
//! the wasm tests; the page's own build holds it in a worker,
//! `remote.rs`, which has the same interface). An action applies at
//! once; long work goes on one time-boxed chunk per browser task (so no
//! task is long), and a run that waits for a module of the script edition
//! goes on once the module has loaded.

use std::cell::{Cell, RefCell};
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
    /// A module is being fetched for the model.
    #[cfg_attr(not(scripts), allow(dead_code))]
    fetching: Cell<bool>,
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
                fetching: Cell::new(false),
            }),
        }
    }

    /// The frame to draw now (always one: the model is here).
    pub fn frame(&self) -> Option<Rc<Frame>> {
        Some(self.inner.frame.borrow().clone())
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

    /// Schedules what comes next: a chunk of work, or a module's fetch.
    fn go_on(&self) {
        if self.inner.on_frame.borrow().is_none() {
            return;
        }
        #[cfg(scripts)]
        self.fetch();
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

    /// A run that needs a module of the script edition waits for it.
    #[cfg(scripts)]
    fn fetch(&self) {
        let Some(name) = self.inner.host.borrow().fetching() else {
            return;
        };
        if self.inner.fetching.replace(true) {
            return;
        }
        let link = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let loaded = load(name).await;
            link.inner.fetching.set(false);
            link.send(Action::ModuleLoaded(loaded));
        });
    }
}

#[cfg(scripts)]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// web/boot.js: loads a module of the script edition (once).
    #[wasm_bindgen(catch, js_namespace = interleaveModules, js_name = load)]
    fn load_module(name: &str) -> Result<js_sys::Promise, wasm_bindgen::JsValue>;
}

/// Loads a module of the script edition; why not, if it fails.
#[cfg(scripts)]
async fn load(name: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let describe = |error: wasm_bindgen::JsValue| match error.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => error.as_string().unwrap_or_else(|| "unknown error".into()),
    };
    let promise = load_module(name).map_err(describe)?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(drop)
        .map_err(describe)
}
