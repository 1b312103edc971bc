//! The page's link to the model ([`crate::model`]): the components send
//! [`Action`]s through it and draw the [`Frame`]s it hands back.
//!
//! The model runs on the page's own thread here. An action applies at
//! once; long work goes on one time-boxed chunk per browser task (so no
//! task is long), and a run that waits for a module of the script edition
//! goes on once the module has loaded.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use yew::Callback;

use super::yielding::NextTask;
use crate::model::{now_ms, Action, Debugger, Export, File, Frame, CHUNK_MS};

#[derive(Clone)]
pub struct Link {
    inner: Rc<Inner>,
}

struct Inner {
    model: RefCell<Rc<Debugger>>,
    frame: RefCell<Rc<Frame>>,
    /// Told of every new frame, once the page listens.
    on_frame: RefCell<Option<Callback<Rc<Frame>>>>,
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
        let model = Rc::new(Debugger::load(hash));
        let frame = Rc::new(model.frame());
        Link {
            inner: Rc::new(Inner {
                model: RefCell::new(model),
                frame: RefCell::new(frame),
                on_frame: RefCell::new(None),
                next: RefCell::new(None),
                fetching: Cell::new(false),
            }),
        }
    }

    /// The frame to draw now.
    pub fn frame(&self) -> Rc<Frame> {
        self.inner.frame.borrow().clone()
    }

    /// Starts the work the model has, telling `on_frame` of each change.
    pub fn listen(&self, on_frame: Callback<Rc<Frame>>) {
        self.inner.on_frame.replace(Some(on_frame));
        self.go_on();
    }

    /// Stops: no more chunks, no more frames.
    pub fn close(&self) {
        self.inner.on_frame.replace(None);
        self.inner.next.replace(None);
    }

    pub fn send(&self, action: Action) {
        let model = self.inner.model.borrow().clone();
        let next = model.act(action);
        self.inner.model.replace(next);
        self.go_on();
    }

    /// A file of the recorded run, made now.
    pub fn export(&self, what: Export) -> Option<File> {
        self.inner.model.borrow().export(what)
    }

    /// Publishes the model's frame if it changed, and schedules what comes
    /// next: a chunk of work, or a module's fetch.
    fn go_on(&self) {
        let model = self.inner.model.borrow().clone();
        if model.version != self.inner.frame.borrow().version {
            let frame = Rc::new(model.frame());
            self.inner.frame.replace(frame.clone());
            let on_frame = self.inner.on_frame.borrow().clone();
            if let Some(on_frame) = on_frame {
                on_frame.emit(frame);
            }
        }
        if self.inner.on_frame.borrow().is_none() {
            return;
        }
        #[cfg(scripts)]
        self.fetch(&model);
        let wants_chunk = model.has_work();
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
    fn fetch(&self, model: &Debugger) {
        let crate::model::Busy::Fetching(name, _) = model.busy else {
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
