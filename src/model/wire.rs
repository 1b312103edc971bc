//! The messages between a page and a worker that holds its model
//! ([`super::Host`]), as bytes (postcard): the page sends [`Request`]s and
//! reads each reply with an [`Inbox`]; the worker writes its replies with
//! an [`Outbox`]. A frame's large parts (the listing, the recorded run's
//! lanes, the explanation, the compare table) go only when they changed:
//! stepping a 20,000-request run sends the step, not its 20,000 lanes.

use std::borrow::Cow;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::{Action, Export, File, Frame};
use crate::debugger::{CompareRow, RunView};
use crate::explain::Explanation;
use crate::scenario::listing::Listing;

/// What the page asks of the worker.
#[derive(Serialize, Deserialize)]
pub enum Request {
    Act(Action),
    Export(Export),
}

impl Request {
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("a request encodes")
    }

    pub fn decode(bytes: &[u8]) -> Result<Request, String> {
        postcard::from_bytes(bytes)
            .map_err(|error| format!("a request that does not read: {error}"))
    }
}

/// A reply of the worker: a frame, or a file the page asked for.
#[derive(Serialize, Deserialize)]
enum Reply<'a> {
    Frame(Box<Delta<'a>>),
    File(Option<File>),
}

/// A frame (without its large parts) and those of its parts that changed
/// since the last frame sent (`None`: as before).
#[derive(Serialize, Deserialize)]
struct Delta<'a> {
    frame: Cow<'a, Frame>,
    listing: Option<Cow<'a, Listing>>,
    run: Option<Option<Cow<'a, RunView>>>,
    explanation: Option<Option<Cow<'a, Explanation>>>,
    compare_rows: Option<Cow<'a, [CompareRow]>>,
}

/// The worker's side: encodes replies, and remembers the parts it sent.
#[derive(Default)]
pub struct Outbox {
    sent: Option<Rc<Frame>>,
}

impl Outbox {
    /// `frame` as a reply.
    pub fn frame(&mut self, frame: Frame) -> Vec<u8> {
        let frame = Rc::new(frame);
        let last = self.sent.replace(frame.clone());
        let last = last.as_deref();
        let same = |changed: bool| last.is_some() && !changed;
        let delta = Delta {
            frame: Cow::Borrowed(&frame),
            listing: match last {
                Some(last) if Rc::ptr_eq(&last.listing, &frame.listing) => None,
                _ => Some(Cow::Borrowed(&*frame.listing)),
            },
            run: match same(last.is_some_and(|last| last.run != frame.run)) {
                true => None,
                false => Some(frame.run.as_deref().map(Cow::Borrowed)),
            },
            explanation: match same(
                last.is_some_and(|last| !option_ptr_eq(&last.explanation, &frame.explanation)),
            ) {
                true => None,
                false => Some(frame.explanation.as_deref().map(Cow::Borrowed)),
            },
            compare_rows: match last {
                Some(last) if Rc::ptr_eq(&last.compare_rows, &frame.compare_rows) => None,
                _ => Some(Cow::Borrowed(frame.compare_rows.as_slice())),
            },
        };
        encode(&Reply::Frame(Box::new(delta)))
    }

    /// A file the page asked for, as a reply.
    pub fn file(&self, file: Option<File>) -> Vec<u8> {
        encode(&Reply::File(file))
    }
}

fn option_ptr_eq<T>(a: &Option<Rc<T>>, b: &Option<Rc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Rc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

fn encode(reply: &Reply) -> Vec<u8> {
    postcard::to_allocvec(reply).expect("a reply encodes")
}

/// What a reply brought.
pub enum Received {
    Frame(Rc<Frame>),
    File(Option<File>),
}

/// The page's side: reads replies, and keeps the last frame's parts.
#[derive(Default)]
pub struct Inbox {
    last: Option<Rc<Frame>>,
}

impl Inbox {
    pub fn read(&mut self, bytes: &[u8]) -> Result<Received, String> {
        let reply: Reply = postcard::from_bytes(bytes).map_err(|error| {
            format!("a reply of the model's worker that does not read: {error}")
        })?;
        let delta = match reply {
            Reply::File(file) => return Ok(Received::File(file)),
            Reply::Frame(delta) => *delta,
        };
        let mut frame = delta.frame.into_owned();
        let last = self.last.as_deref();
        let missing = || "a frame of the model's worker without its parts".to_string();
        frame.listing = match (delta.listing, last) {
            (Some(listing), _) => Rc::new(listing.into_owned()),
            (None, Some(last)) => last.listing.clone(),
            (None, None) => return Err(missing()),
        };
        frame.run = match (delta.run, last) {
            (Some(run), _) => run.map(|run| Rc::new(run.into_owned())),
            (None, Some(last)) => last.run.clone(),
            (None, None) => return Err(missing()),
        };
        frame.explanation = match (delta.explanation, last) {
            (Some(explanation), _) => explanation.map(|e| Rc::new(e.into_owned())),
            (None, Some(last)) => last.explanation.clone(),
            (None, None) => return Err(missing()),
        };
        frame.compare_rows = match (delta.compare_rows, last) {
            (Some(rows), _) => Rc::new(rows.into_owned()),
            (None, Some(last)) => last.compare_rows.clone(),
            (None, None) => return Err(missing()),
        };
        let frame = Rc::new(frame);
        self.last = Some(frame.clone());
        Ok(Received::Frame(frame))
    }
}

/// The worker's side: the model's host and its outbox, answering requests
/// with replies (empty bytes: nothing to send).
pub struct Server {
    host: super::Host,
    outbox: Outbox,
}

impl Server {
    /// The model of `hash`, and its first frame.
    pub fn open(hash: &str) -> (Server, Vec<u8>) {
        let mut host = super::Host::open(hash);
        let mut outbox = Outbox::default();
        let first = outbox.frame(host.frame());
        (Server { host, outbox }, first)
    }

    /// The reply to one request from the page.
    pub fn request(&mut self, bytes: &[u8]) -> Vec<u8> {
        match Request::decode(bytes) {
            Ok(Request::Act(action)) => self.act(action),
            Ok(Request::Export(what)) => self.outbox.file(self.host.export(what)),
            // A page and a worker built together read each other: a
            // request that does not read is dropped.
            Err(_) => Vec::new(),
        }
    }

    /// Whether a chunk of work should follow ([`Server::work`]).
    pub fn has_work(&self) -> bool {
        self.host.has_work()
    }

    /// One chunk of work, until `deadline` (ms on the model's clock).
    pub fn work(&mut self, deadline: f64) -> Vec<u8> {
        self.act(Action::Work { deadline })
    }

    /// The module the model waits for, if any.
    pub fn fetching(&self) -> Option<&'static str> {
        self.host.fetching()
    }

    /// The module the model waited for loaded (or did not, and why).
    pub fn module_loaded(&mut self, loaded: Result<(), String>) -> Vec<u8> {
        self.act(Action::ModuleLoaded(loaded))
    }

    pub fn host(&mut self) -> &mut super::Host {
        &mut self.host
    }

    fn act(&mut self, action: Action) -> Vec<u8> {
        match self.host.act(action) {
            Some(frame) => self.outbox.frame(frame),
            None => Vec::new(),
        }
    }
}
