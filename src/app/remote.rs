//! The page's link to its model in a Web Worker (web/model.js running
//! `interleave-model`): the components send [`Action`]s through it and
//! draw the [`Frame`]s it hands back, as with `link.rs`, whose interface
//! this has. Requests and replies are bytes (`crate::model::wire`); the
//! worker runs the model's work in chunks of its own, so nothing of a run
//! holds the page's thread.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::Callback;

use crate::model::wire::{Inbox, Received, Request};
use crate::model::{Action, Export, File, Frame};

/// The worker's script, beside the page's files.
const WORKER: &str = "./model.js";
/// A reply this large (bytes) is read in one task and drawn in the next.
const LARGE_REPLY: u32 = 256 * 1024;

type OnMessage = Closure<dyn FnMut(web_sys::MessageEvent)>;
type OnError = Closure<dyn FnMut(web_sys::ErrorEvent)>;

#[derive(Clone)]
pub struct Link {
    inner: Rc<Inner>,
}

struct Inner {
    /// The worker, until the link closes.
    worker: RefCell<Option<web_sys::Worker>>,
    inbox: RefCell<Inbox>,
    frame: RefCell<Option<Rc<Frame>>>,
    on_frame: RefCell<Option<Callback<Rc<Frame>>>>,
    on_file: RefCell<Option<Callback<File>>>,
    /// The draw of the last frame, put off to the next task after a large
    /// reply (a 20,000-request run's lanes take their own task to read).
    deferred: RefCell<Option<super::yielding::NextTask>>,
    /// Requests the worker has not answered yet (`<html data-pending>`
    /// shows how many: 0 once the page shows the model's answer to all).
    pending: std::cell::Cell<u32>,
    /// The worker's message handler, kept while the link lives.
    on_message: RefCell<Option<OnMessage>>,
    on_error: RefCell<Option<OnError>>,
}

impl PartialEq for Link {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Link {
    /// Starts the worker on the model of `hash`; its first frame follows.
    pub fn open(hash: &str) -> Link {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(WORKER, &options).ok();
        let link = Link {
            inner: Rc::new(Inner {
                worker: RefCell::new(worker.clone()),
                inbox: RefCell::new(Inbox::default()),
                frame: RefCell::new(None),
                on_frame: RefCell::new(None),
                on_file: RefCell::new(None),
                on_message: RefCell::new(None),
                on_error: RefCell::new(None),
                pending: std::cell::Cell::new(0),
                deferred: RefCell::new(None),
            }),
        };
        match &worker {
            Some(worker) => {
                let weak = Rc::downgrade(&link.inner);
                let on_message =
                    Closure::<dyn FnMut(_)>::new(move |event: web_sys::MessageEvent| {
                        if let Some(inner) = weak.upgrade() {
                            Link { inner }.receive(event.data());
                        }
                    });
                worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                link.inner.on_message.replace(Some(on_message));
                let weak = Rc::downgrade(&link.inner);
                let on_error = Closure::<dyn FnMut(_)>::new(move |event: web_sys::ErrorEvent| {
                    event.prevent_default();
                    if let Some(inner) = weak.upgrade() {
                        let message = event.message();
                        let why = match message.is_empty() {
                            true => "it did not load".to_string(),
                            false => message,
                        };
                        Link { inner }.stopped(&why);
                    }
                });
                worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                link.inner.on_error.replace(Some(on_error));
                let open = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&open, &"open".into(), &hash.into());
                let _ = worker.post_message(&open);
            }
            None => super::show_panic("the browser did not start the model's worker"),
        }
        link
    }

    /// The frame to draw now: none until the worker's first.
    pub fn frame(&self) -> Option<Rc<Frame>> {
        self.inner.frame.borrow().clone()
    }

    /// Tells `on_frame` of each new frame and gives `on_file` each file
    /// asked for.
    pub fn listen(&self, on_frame: Callback<Rc<Frame>>, on_file: Callback<File>) {
        if let Some(frame) = self.frame() {
            on_frame.emit(frame);
        }
        self.inner.on_frame.replace(Some(on_frame));
        self.inner.on_file.replace(Some(on_file));
    }

    /// Stops: the worker goes, and with it whatever it was running.
    pub fn close(&self) {
        self.inner.on_frame.replace(None);
        self.inner.on_file.replace(None);
        if let Some(worker) = self.inner.worker.take() {
            worker.terminate();
        }
        // No answer comes from a terminated worker.
        self.count(-(self.inner.pending.get() as i32));
    }

    pub fn send(&self, action: Action) {
        self.post(&Request::Act(action));
    }

    /// Asks for a file of the recorded run (none before a run).
    pub fn export(&self, what: Export) {
        self.post(&Request::Export(what));
    }

    fn post(&self, request: &Request) {
        // A closed link sends nothing (and counts nothing in flight).
        if let Some(worker) = self.inner.worker.borrow().as_ref() {
            let bytes = js_sys::Uint8Array::from(request.encode().as_slice());
            if worker.post_message(&bytes).is_ok() {
                self.count(1);
            }
        }
    }

    /// Adds `change` to the requests in flight, and shows their number.
    fn count(&self, change: i32) {
        let pending = self.inner.pending.get().saturating_add_signed(change);
        self.inner.pending.set(pending);
        if let Some(root) = web_sys::window()
            .and_then(|window| window.document())
            .and_then(|document| document.document_element())
        {
            let _ = root.set_attribute("data-pending", &pending.to_string());
        }
    }

    /// The worker failed (a panic in the model, or a script that did not
    /// load): the page says so where the user looks, and keeps what it drew.
    fn stopped(&self, why: &str) {
        self.close();
        super::show_panic(&format!("the model's worker stopped ({why})"));
    }

    /// Draws the last frame.
    fn show(&self) {
        let frame = self.frame();
        let on_frame = self.inner.on_frame.borrow().clone();
        if let (Some(frame), Some(on_frame)) = (frame, on_frame) {
            on_frame.emit(frame);
        }
    }

    /// A message of the worker: a frame to draw or a file to give, and
    /// whether it answers a request.
    fn receive(&self, data: wasm_bindgen::JsValue) {
        if let Some(panic) = js_sys::Reflect::get(&data, &"panic".into())
            .ok()
            .and_then(|panic| panic.as_string())
        {
            self.stopped(&panic);
            return;
        }
        let answer = js_sys::Reflect::get(&data, &"answer".into())
            .ok()
            .filter(|a| !a.is_undefined());
        let data = match answer {
            Some(answer) => {
                self.count(-1);
                answer
            }
            None => data,
        };
        let Some(bytes) = data
            .dyn_ref::<js_sys::Uint8Array>()
            .filter(|b| b.length() > 0)
        else {
            return;
        };
        let large = bytes.length() > LARGE_REPLY;
        let read = self.inner.inbox.borrow_mut().read(&bytes.to_vec());
        match read {
            Ok(Received::Frame(frame)) => {
                self.inner.frame.replace(Some(frame));
                if large || self.inner.deferred.borrow().is_some() {
                    let link = self.clone();
                    let next = super::yielding::NextTask::new(move || {
                        link.inner.deferred.replace(None);
                        link.show();
                    });
                    self.inner.deferred.replace(Some(next));
                } else {
                    self.show();
                }
            }
            Ok(Received::File(file)) => {
                let on_file = self.inner.on_file.borrow().clone();
                if let (Some(file), Some(on_file)) = (file, on_file) {
                    on_file.emit(file);
                }
            }
            Err(error) => super::show_panic(&error),
        }
    }
}
