//! The page's link to its model in a Web Worker (web/model.js): the
//! components send [`Action`]s through it and draw the [`Frame`]s it hands
//! back, as with `link.rs`, whose interface this has. Requests and replies
//! are bytes (`crate::model::wire`); the worker runs the model's work in
//! chunks of its own, so nothing of a run holds the page's thread.
//!
//! Every page starts the stories' worker (`interleave-model`). A script,
//! opened by the page's address or by a later `hashchange`, starts the
//! script worker (`interleave-script-model`, the same model with the
//! JavaScript engine) in its place, which keeps the page from then on: the
//! page never reloads, and shows its last frame, with "Loading the
//! JavaScript engine…", until the new worker's first.
//!
//! The guard (docs/scripting.md, "Bad input and budgets"): a script
//! worker that owes an answer, or has said it has work, and stays silent
//! for [`SILENCE_MS`] is held by the script it runs. The page terminates it and
//! starts another on that script (the fragment the worker last said it
//! runs) refused, with the reason as the script's error; so does a worker
//! whose wasm failed under a script (a stack the worker's thread cannot
//! hold).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::Callback;

use crate::debugger::program::is_script_fragment;
use crate::model::wire::{Inbox, Received, Request};
use crate::model::{Action, Export, File, Frame};

/// web/boot.js's worker, started as the page loads on the model of its
/// address: its worker, the messages it sent before the page listened,
/// and its load error, if any.
struct EarlyWorker {
    worker: web_sys::Worker,
    messages: Vec<wasm_bindgen::JsValue>,
    error: Option<String>,
}

/// web/boot.js's worker (`interleaveEarlyWorker`, taken once), if it
/// opened the model the page wants: `kind`'s, on `hash`, refusing nothing.
fn early_worker(kind: Kind, hash: &str, refused: Option<&str>) -> Option<EarlyWorker> {
    let global = js_sys::global();
    let key = wasm_bindgen::JsValue::from_str("interleaveEarlyWorker");
    let early = js_sys::Reflect::get(&global, &key)
        .ok()
        .filter(|early| early.is_object())?;
    let _ = js_sys::Reflect::delete_property(&global, &key);
    let field = |name: &str| js_sys::Reflect::get(&early, &name.into()).ok();
    let worker: web_sys::Worker = field("worker")?.dyn_into().ok()?;
    let same = field("hash").and_then(|h| h.as_string()).as_deref() == Some(hash)
        && Kind::of(hash) == kind
        && refused.is_none();
    if !same {
        worker.terminate();
        return None;
    }
    let messages = field("messages")
        .and_then(|messages| messages.dyn_into::<js_sys::Array>().ok())
        .map(|messages| messages.iter().collect())
        .unwrap_or_default();
    let error = field("error").and_then(|error| error.as_string());
    Some(EarlyWorker {
        worker,
        messages,
        error,
    })
}

/// A reply this large (bytes) is read in one task and drawn in the next.
const LARGE_REPLY: u32 = 256 * 1024;
/// How long a worker at work may stay silent (it posts at least every
/// 250 ms between chunks; a budget's stop of a script holds it about
/// 500 ms).
pub const SILENCE_MS: u32 = 2_000;

type OnMessage = Closure<dyn FnMut(web_sys::MessageEvent)>;
type OnError = Closure<dyn FnMut(web_sys::ErrorEvent)>;

/// Which model a worker holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Stories,
    Scripts,
}

impl Kind {
    /// The worker's script, beside the page's files.
    fn url(self) -> &'static str {
        match self {
            Kind::Stories => "./model.js",
            Kind::Scripts => "./model.js?script",
        }
    }

    fn of(hash: &str) -> Kind {
        match is_script_fragment(hash) {
            true => Kind::Scripts,
            false => Kind::Stories,
        }
    }
}

#[derive(Clone)]
pub struct Link {
    inner: Rc<Inner>,
}

struct Inner {
    /// The worker, until the link closes.
    worker: RefCell<Option<web_sys::Worker>>,
    kind: Cell<Kind>,
    inbox: RefCell<Inbox>,
    frame: RefCell<Option<Rc<Frame>>>,
    on_frame: RefCell<Option<Callback<Rc<Frame>>>>,
    on_file: RefCell<Option<Callback<File>>>,
    /// The draw of the last frame, put off to the next task after a large
    /// reply (a 20,000-request run's lanes take their own task to read).
    deferred: RefCell<Option<super::yielding::NextTask>>,
    /// Tells the worker, in the task after a frame's draw, that the page
    /// drew it (`{ drawn: n }`): the worker's next chunk waits for it
    /// (web/model.js), so the two do not share this machine's cores while
    /// the page draws.
    drawn: RefCell<Option<super::yielding::NextTask>>,
    /// The number (`n`) of the last frame or answer read: the one the
    /// page's `{ drawn }` names.
    read: Cell<f64>,
    /// Requests the worker has not answered yet (`<html data-pending>`
    /// shows how many: 0 once the page shows the model's answer to all).
    pending: Cell<u32>,
    /// The worker said more work follows.
    busy: Cell<bool>,
    /// The worker's first frame has come.
    started: Cell<bool>,
    /// When the script worker started (ms), until its first frame.
    engine_since: Cell<Option<f64>>,
    /// The script the worker last said it runs (its fragment).
    running: RefCell<Option<String>>,
    /// Fires when the worker stays silent for [`SILENCE_MS`] while it owes
    /// an answer or has work.
    watchdog: RefCell<Option<Timeout>>,
    /// The worker's handlers, kept while it lives.
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
        let link = Link {
            inner: Rc::new(Inner {
                worker: RefCell::new(None),
                kind: Cell::new(Kind::of(hash)),
                inbox: RefCell::new(Inbox::default()),
                frame: RefCell::new(None),
                on_frame: RefCell::new(None),
                on_file: RefCell::new(None),
                deferred: RefCell::new(None),
                drawn: RefCell::new(None),
                read: Cell::new(0.0),
                pending: Cell::new(0),
                busy: Cell::new(false),
                started: Cell::new(false),
                engine_since: Cell::new(None),
                running: RefCell::new(None),
                watchdog: RefCell::new(None),
                on_message: RefCell::new(None),
                on_error: RefCell::new(None),
            }),
        };
        link.start(Kind::of(hash), hash, None);
        link
    }

    /// The frame to draw now: none until the worker's first.
    pub fn frame(&self) -> Option<Rc<Frame>> {
        self.inner.frame.borrow().clone()
    }

    /// Whether the JavaScript engine's worker is starting (the page waits
    /// for its first frame).
    pub fn loads_engine(&self) -> bool {
        self.inner.engine_since.get().is_some()
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
        self.end_worker();
    }

    pub fn send(&self, action: Action) {
        // A script, from the stories' worker: the script worker takes over.
        if let Action::Load(hash) = &action {
            if self.inner.kind.get() == Kind::Stories && Kind::of(hash) == Kind::Scripts {
                if self.inner.worker.borrow().is_some() {
                    self.start(Kind::Scripts, hash, None);
                }
                return;
            }
        }
        self.post(&Request::Act(action));
    }

    /// Asks for a file of the recorded run (none before a run).
    pub fn export(&self, what: Export) {
        self.post(&Request::Export(what));
    }

    /// Starts a worker of `kind` on `hash` (its script refused for
    /// `refused`) in place of the one before.
    fn start(&self, kind: Kind, hash: &str, refused: Option<&str>) {
        self.end_worker();
        let inner = &self.inner;
        inner.kind.set(kind);
        inner.inbox.replace(Inbox::default());
        inner.read.set(0.0);
        inner.drawn.replace(None);
        inner.started.set(false);
        inner.running.replace(None);
        let early = early_worker(kind, hash, refused);
        let worker = match &early {
            Some(early) => early.worker.clone(),
            None => {
                let options = web_sys::WorkerOptions::new();
                options.set_type(web_sys::WorkerType::Module);
                let Ok(worker) = web_sys::Worker::new_with_options(kind.url(), &options) else {
                    super::show_panic("the browser did not start the model's worker");
                    return;
                };
                worker
            }
        };
        let weak = Rc::downgrade(&self.inner);
        let on_message = Closure::<dyn FnMut(_)>::new(move |event: web_sys::MessageEvent| {
            if let Some(inner) = weak.upgrade() {
                Link { inner }.receive(event.data());
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        inner.on_message.replace(Some(on_message));
        let weak = Rc::downgrade(&self.inner);
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
        inner.on_error.replace(Some(on_error));
        if early.is_none() {
            let open = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&open, &"open".into(), &hash.into());
            if let Some(why) = refused {
                let _ = js_sys::Reflect::set(&open, &"refused".into(), &why.into());
            }
            let _ = worker.post_message(&open);
        }
        inner.worker.replace(Some(worker));
        if kind == Kind::Scripts && inner.engine_since.get().is_none() && refused.is_none() {
            inner.engine_since.set(Some(js_sys::Date::now()));
            // The last frame stays, saying what the page waits for.
            let frame = self.frame();
            if let Some(frame) = frame {
                let mut waiting = (*frame).clone();
                waiting.needs_engine = true;
                inner.frame.replace(Some(Rc::new(waiting)));
                self.show();
            }
        }
        // What the early worker said before the page listened.
        if let Some(early) = early {
            if let Some(why) = early.error {
                self.stopped(&why);
                return;
            }
            for message in early.messages {
                if self.inner.worker.borrow().is_none() {
                    break;
                }
                self.receive(message);
            }
        }
    }

    /// Terminates the worker, if any: nothing it owed will come.
    fn end_worker(&self) {
        if let Some(worker) = self.inner.worker.take() {
            worker.terminate();
        }
        self.inner.watchdog.replace(None);
        self.inner.busy.set(false);
        self.count(-(self.inner.pending.get() as i32));
    }

    fn post(&self, request: &Request) {
        // A closed link sends nothing (and counts nothing in flight).
        let posted = match self.inner.worker.borrow().as_ref() {
            Some(worker) => {
                let bytes = js_sys::Uint8Array::from(request.encode().as_slice());
                worker.post_message(&bytes).is_ok()
            }
            None => false,
        };
        if posted {
            self.count(1);
            self.watch(false);
        }
    }

    /// Keeps the watchdog: (re)started when the worker was just heard
    /// from (`heard`), started if none runs, stopped when the worker owes
    /// nothing and has no work.
    fn watch(&self, heard: bool) {
        let inner = &self.inner;
        // Only a script can hold a worker: the stories' worker is never
        // stopped (a large run's explanation may take it seconds in one
        // go). Before its first frame a worker runs no script (its wasm
        // may take long to download): the browser's own error says if it
        // fails.
        let owes = inner.kind.get() == Kind::Scripts
            && inner.started.get()
            && (inner.pending.get() > 0 || inner.busy.get());
        if !owes || inner.worker.borrow().is_none() {
            inner.watchdog.replace(None);
            return;
        }
        if heard || inner.watchdog.borrow().is_none() {
            let weak = Rc::downgrade(&self.inner);
            let timeout = Timeout::new(SILENCE_MS, move || {
                if let Some(inner) = weak.upgrade() {
                    Link { inner }.silent();
                }
            });
            inner.watchdog.replace(Some(timeout));
        }
    }

    /// The worker stayed silent while at work.
    fn silent(&self) {
        self.inner.watchdog.replace(None);
        let seconds = SILENCE_MS / 1000;
        self.stop_script(&format!(
            "the script held the page's worker for over {seconds} s without a break (an endless \
             loop, or memory filling up?), so the page stopped it there and runs it no more; edit \
             it to run it again (interleave run --script runs it to the end, with its budgets)"
        ));
    }

    /// The worker is lost while it ran a script: another opens that script
    /// refused, for `why`. Without a script (or before its first frame)
    /// the page says the worker stopped.
    fn stop_script(&self, why: &str) {
        let script = self.inner.running.borrow().clone();
        match script {
            Some(fragment)
                if self.inner.started.get() && self.inner.kind.get() == Kind::Scripts =>
            {
                self.start(Kind::Scripts, &fragment, Some(why));
            }
            _ => self.stopped(why),
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
        self.inner.engine_since.set(None);
        super::show_panic(&format!("the model's worker stopped ({why})"));
    }

    /// Draws the last frame.
    fn show(&self) {
        let frame = self.frame();
        let on_frame = self.inner.on_frame.borrow().clone();
        if let (Some(frame), Some(on_frame)) = (frame, on_frame) {
            on_frame.emit(frame);
            let weak = Rc::downgrade(&self.inner);
            let shown = self.inner.read.get();
            let drawn = super::yielding::NextTask::new(move || {
                if let Some(inner) = weak.upgrade() {
                    inner.drawn.replace(None);
                    if let Some(worker) = inner.worker.borrow().as_ref() {
                        let drawn = js_sys::Object::new();
                        let _ = js_sys::Reflect::set(&drawn, &"drawn".into(), &shown.into());
                        let _ = worker.post_message(&drawn);
                    }
                }
            });
            self.inner.drawn.replace(Some(drawn));
        }
    }

    /// A message of the worker: a frame to draw or a file to give, whether
    /// it answers a request and whether more work follows; or the script
    /// it runs, or its failure.
    fn receive(&self, data: wasm_bindgen::JsValue) {
        let field = |name: &str| {
            js_sys::Reflect::get(&data, &name.into())
                .ok()
                .filter(|value| !value.is_undefined())
        };
        if let Some(panic) = field("panic").and_then(|panic| panic.as_string()) {
            self.stopped(&panic);
            return;
        }
        if let Some(crashed) = field("crashed").and_then(|crashed| crashed.as_string()) {
            self.stop_script(&format!(
                "the script stopped the page's worker ({crashed}: a recursion deeper than its \
                 thread's stack?), so the page runs it no more; edit it to run it again \
                 (interleave run --script runs it)"
            ));
            return;
        }
        if let Some(fragment) = field("running").and_then(|fragment| fragment.as_string()) {
            self.inner.running.replace(Some(fragment));
            self.watch(true);
            return;
        }
        self.inner
            .busy
            .set(field("busy").is_some_and(|busy| busy.is_truthy()));
        let bytes = match (field("answer"), field("frame")) {
            (Some(answer), _) => {
                self.count(-1);
                Some(answer)
            }
            (None, frame) => frame,
        };
        self.watch(true);
        let Some(bytes) = bytes
            .as_ref()
            .and_then(|bytes| bytes.dyn_ref::<js_sys::Uint8Array>())
            .filter(|bytes| bytes.length() > 0)
        else {
            return;
        };
        if let Some(n) = field("n").and_then(|n| n.as_f64()) {
            self.inner.read.set(n);
        }
        let large = bytes.length() > LARGE_REPLY;
        let read = self.inner.inbox.borrow_mut().read(&bytes.to_vec());
        match read {
            Ok(Received::Frame(frame)) => {
                if !self.inner.started.get() {
                    self.first_frame();
                    self.watch(true);
                }
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

    /// The worker's first frame: the engine, if it was loading, is up
    /// (`window.interleaveEngineMs` says how long it took, for the tests).
    fn first_frame(&self) {
        self.inner.started.set(true);
        if let Some(since) = self.inner.engine_since.take() {
            if let Some(window) = web_sys::window() {
                let took = js_sys::Date::now() - since;
                let _ = js_sys::Reflect::set(&window, &"interleaveEngineMs".into(), &took.into());
            }
        }
    }
}
