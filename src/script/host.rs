//! The state a run's natives share: the event loop's `Core`, the script's
//! world, what each parked slot resolves, and the Rust futures (lock
//! strategies) that act for script calls.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use rquickjs::{Ctx as JsCtx, Function, Persistent, Value as JsValue};
// The host's maps are keyed by small ids and keys, and never iterated.
use rustc_hash::FxHashMap as HashMap;
use serde_json::Value;

use crate::config::{Config, Micros};
use crate::run::DataHarm;
use crate::sim::core::{Core, TaskId};
use crate::sim::rng::{SimRng, Stream};
use crate::sim::trace::{OpKind, ServerKind, TraceKey, What};
use crate::sim::Ctx;
use crate::world::locks::SlotId;

use super::mirror::Mirror;
use super::sql::store::{PredicateRead, TxnId};
use super::sql::{Database, Plan};
use super::world::{ScriptCache, Tables};

use super::call::Call;

/// Where a script's call was made: its line and column, and the frames of
/// the script's own code that called it (an id in [`State::callers`];
/// [`NO_CALLERS`] for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: u32,
    pub column: u32,
    pub callers: u32,
}

/// The `callers` of a position made in the script's outermost frame.
pub const NO_CALLERS: u32 = 0;

/// What the operations issued from one place in the code do: one kind of
/// operation (on one table, for SQL), or several (the place is a helper
/// that many calls go through, such as `const query = (text, values) =>
/// pool.query(text, values)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Issued {
    One(OpKind, Option<u32>),
    Many,
}

/// The resolving functions of a promise the host settles.
pub struct Settle {
    pub resolve: Persistent<Function<'static>>,
    pub reject: Persistent<Function<'static>>,
}

/// What a parked slot resolves when its macrotask runs.
pub enum Waiter {
    Call {
        call: Call,
        settle: Settle,
        server: u32,
        position: Option<Position>,
    },
    /// `sleep(ms)`.
    Sleep { settle: Settle, server: u32 },
    /// `setTimeout`, `setInterval` (re-armed `every` after it runs),
    /// `setImmediate`.
    Timer {
        id: u32,
        callback: Persistent<Function<'static>>,
        args: Vec<Persistent<JsValue<'static>>>,
        every: Option<Micros>,
        server: u32,
        /// The `AsyncLocalStorage` frame it was set in (`Host::frame`).
        frame: u32,
    },
    /// PostgreSQL's deadlock check of `session`'s waiting statement, the
    /// victim of a cycle of waits (`Database::check_deadlock`).
    DeadlockCheck { session: u64 },
    /// PostgreSQL's `lock_timeout` or `statement_timeout` of the waiting
    /// statement whose `SqlWaiter::timeout` is this slot: it is cancelled
    /// with `error` if it still waits.
    SqlTimeout {
        session: u64,
        error: super::sql::SqlError,
    },
}

/// A `process.nextTick` callback: it runs once the running macrotask's
/// code (or the microtask that queued it) is done, before the promise
/// jobs that wait (Node's `processTicksAndRejections`; `run::drain`).
pub struct NextTick {
    /// The request it belongs to: the one running when it was queued.
    pub request: TaskId,
    pub server: u32,
    pub callback: Persistent<Function<'static>>,
    pub args: Vec<Persistent<JsValue<'static>>>,
    /// The `AsyncLocalStorage` frame it was queued in (`Host::frame`).
    pub frame: u32,
}

/// What a lock strategy's future answers, as a JavaScript value.
pub enum Answer {
    Bool(bool),
    Number(f64),
    Undefined,
    /// A value copied in as JSON (a `pg` reply that waited for a lock).
    Json(Value),
}

impl Answer {
    pub fn value<'js>(&self, ctx: &JsCtx<'js>) -> JsValue<'js> {
        match self {
            Answer::Bool(value) => JsValue::new_bool(ctx.clone(), *value),
            Answer::Number(value) => JsValue::new_number(ctx.clone(), *value),
            Answer::Undefined => JsValue::new_undefined(ctx.clone()),
            // Copied in by the run (`run::poll_helpers`), which has the
            // realm's JSON conversion.
            Answer::Json(_) => JsValue::new_undefined(ctx.clone()),
        }
    }
}

/// A Rust future acting for a script call (`lock.acquire` runs the
/// strategy's `acquire`); it resolves `promise` when it is ready.
pub struct Helper {
    pub future: Pin<Box<dyn Future<Output = Answer>>>,
    pub settle: Settle,
    pub server: u32,
}

/// The slot of an interval whose callback is running (it has none).
pub const FIRING: SlotId = SlotId::MAX;

/// The run's shared state; every realm's natives reach it.
pub struct Host {
    pub core: Rc<RefCell<Core>>,
    pub config: Rc<Config>,
    /// The request the running JavaScript belongs to.
    pub current: Rc<Cell<TaskId>>,
    /// The running JavaScript's `AsyncLocalStorage` frame: an index into
    /// the prelude's table of stores (`async_hooks`), 0 for none. A
    /// macrotask starts with none; a promise job, a timer and a tick get
    /// the one they were registered in (`super::context`).
    pub frame: Cell<u32>,
    /// Whether the trace's events are kept (then positions are too).
    pub keep_trace: bool,
    /// Whether positions of row reads and writes are kept in a run that
    /// keeps no trace: the code may change a row in place (`$inc`, an SQL
    /// `UPDATE`), and whether that acted on a stale check reads the code
    /// between the row's read and its write (`Run::note_row_access`).
    pub row_positions: Cell<bool>,
    pub state: RefCell<State>,
    /// The real servers the calls also go to (`interleave real --script`).
    pub mirror: RefCell<Option<Box<dyn Mirror>>>,
    /// Promises rejected with no handler yet, as the engines report them
    /// (a cell of its own: the engine reports from inside any call).
    pub unhandled: RefCell<Vec<Unhandled>>,
}

/// A promise rejected with no handler, and the request that was running.
pub struct Unhandled {
    pub server: u32,
    pub request: TaskId,
    pub promise: Persistent<JsValue<'static>>,
    pub reason: Persistent<JsValue<'static>>,
}

/// A `pg` statement waiting for a transaction to end (a row lock, or a
/// key another transaction is writing).
pub struct SqlWaiter {
    pub on: TxnId,
    pub plan: Plan,
    pub session: u64,
    pub settle: Settle,
    pub server: u32,
    pub request: TaskId,
    pub key: String,
    pub position: Option<Position>,
    /// Its id on the mirror's real PostgreSQL, if the run is mirrored.
    pub mirrored: Option<u64>,
    /// The slot of the timer that cancels it (its session's
    /// `lock_timeout` or `statement_timeout`), if it has one.
    pub timeout: Option<usize>,
}

pub struct State {
    pub cache: ScriptCache,
    pub tables: Tables,
    /// The `pg` module's database (the schema's tables).
    pub sql: Database,
    /// The last `pg` client session handed out.
    pub sessions: u64,
    /// The last Redis connection handed out (a client's, for `WATCH`).
    pub connections: u64,
    /// `pg` statements waiting for a transaction, oldest first.
    pub sql_waiting: Vec<SqlWaiter>,
    keys: HashMap<String, u32>,
    /// The interned keys, by id.
    pub names: Vec<String>,
    pub waiting: HashMap<SlotId, Waiter>,
    /// Each live timer's slot, by the id `setTimeout` returned.
    pub timers: HashMap<u32, SlotId>,
    pub next_timer: u32,
    /// `process.nextTick` callbacks not run yet, in the order queued.
    pub next_ticks: std::collections::VecDeque<NextTick>,
    pub helpers: HashMap<TaskId, Vec<Helper>>,
    /// Each request's handle on the world, kept for its whole life: a
    /// ticket lock's `release` reads the ticket its `acquire` took.
    pub contexts: HashMap<TaskId, Rc<Ctx>>,
    /// `count(name, n)`.
    pub custom: BTreeMap<String, f64>,
    /// `console.log` lines and stray errors; a `Log` event's `detail`
    /// indexes them.
    pub messages: Vec<String>,
    /// A trace event's script position, by event index.
    pub positions: BTreeMap<usize, Position>,
    /// The calling frames of positions (innermost first), by id; id 0 is
    /// none.
    pub callers: Vec<Vec<(u32, u32)>>,
    /// Each list of calling frames' id.
    caller_ids: HashMap<Vec<(u32, u32)>, u32>,
    /// What the operations issued from each place in the code did (each
    /// frame of the call's, not only the innermost).
    issued: HashMap<(u32, u32), Issued>,
    /// Each failed request's error, in the order they failed.
    pub failures: Vec<(TaskId, String)>,
    /// The trace events that did harm found in the data, by index.
    pub harm: Vec<(usize, DataHarm)>,
    /// Lost updates so far (each also in `harm` when the trace is kept):
    /// what explore's `lost-updates` check reads.
    pub lost_updates: u64,
    /// The request that began each `pg` session's transaction block.
    pub blocks: HashMap<u64, TaskId>,
    /// Statements that ran in a block another request began (each also
    /// in `harm` when the trace is kept).
    pub shared_transactions: u64,
    /// Each cache key's writes so far, and the count each request last saw
    /// (read or wrote): a write from an older count loses an update.
    pub versions: HashMap<String, u64>,
    /// What each request last saw of a key (see [`Seen`]).
    pub seen: HashMap<(TaskId, String), Seen>,
    /// Each request's last SELECT of each table, with where it was sent:
    /// an insert into what it matched acts on its answer.
    pub predicates: HashMap<(TaskId, String), (PredicateRead, Option<Position>)>,
    /// Rows each request wrote and has not committed yet (by row key).
    pub writes: HashMap<(TaskId, String), ()>,
    /// Changes to any key so far, and the count when each key last
    /// changed.
    pub changes: u64,
    pub changed_at: HashMap<String, u64>,
    /// DB reads so far, per request.
    pub db_reads: HashMap<TaskId, u64>,
    pub random: SimRng,
    /// Whether the top level is running (preset and table are allowed).
    pub top_level: bool,
    /// `Math.random()` calls so far.
    pub draws: u64,
}

/// What a script's top level left in the host, when that is all it did
/// (no operation, timer, log, count or random draw): a run can start from
/// it with realms reused instead of loading the script again.
/// What a request last saw of a cache key (or of a row), for lost updates.
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    /// The key's write count then.
    pub version: u64,
    /// How many DB reads the request had made then: a write after a DB
    /// read is a cache fill, not a read-modify-write.
    pub reads: u64,
    /// Whether that was a read (`GET`, `ZCARD`): a change in place
    /// (`INCR`, `ZADD`) acts on it, where after the request's own write
    /// it acts on nothing it read.
    pub read: bool,
    /// The count of changes to any key then ([`State::changes`]): a
    /// field written since a read of its whole hash that found it absent
    /// was changed after this.
    pub at: u64,
    /// A row's: where the statement that read it was sent, from which a
    /// change in place looks for the code's use of what it changes.
    pub position: Option<Position>,
}

#[derive(Clone)]
pub struct Loaded {
    cache: ScriptCache,
    tables: Tables,
    sql: Database,
    keys: HashMap<String, u32>,
    names: Vec<String>,
}

impl Host {
    /// The code that runs from now on is `request`'s (a promise job it
    /// registered, a function a library runs for it): the running request
    /// here and in the world, and in explore a touch of its state. (The
    /// world is not borrowed while JavaScript runs.)
    pub fn run_as(&self, request: TaskId) {
        self.current.set(request);
        if let Ok(mut core) = self.core.try_borrow_mut() {
            core.current = request;
            if core.touches.on {
                core.touches
                    .touch(crate::sim::footprint::Object::ScriptRequest(request), true);
            }
        }
    }

    pub fn new(core: Rc<RefCell<Core>>, config: Rc<Config>, keep_trace: bool) -> Self {
        let state = State {
            cache: ScriptCache::new(config.grace),
            tables: Tables::default(),
            sql: Database::default(),
            sessions: 0,
            connections: 0,
            sql_waiting: Vec::new(),
            keys: HashMap::default(),
            names: Vec::new(),
            waiting: HashMap::default(),
            timers: HashMap::default(),
            next_timer: 1,
            next_ticks: Default::default(),
            helpers: HashMap::default(),
            contexts: HashMap::default(),
            custom: BTreeMap::new(),
            messages: Vec::new(),
            positions: BTreeMap::new(),
            callers: vec![Vec::new()],
            caller_ids: HashMap::default(),
            issued: HashMap::default(),
            failures: Vec::new(),
            harm: Vec::new(),
            lost_updates: 0,
            blocks: HashMap::default(),
            shared_transactions: 0,
            versions: HashMap::default(),
            seen: HashMap::default(),
            predicates: HashMap::default(),
            writes: HashMap::default(),
            changes: 0,
            changed_at: HashMap::default(),
            db_reads: HashMap::default(),
            random: SimRng::new(config.seed, Stream::Script),
            top_level: true,
            draws: 0,
        };
        Host {
            core,
            config,
            current: Rc::new(Cell::new(crate::sim::trace::NO_REQUEST)),
            frame: Cell::new(0),
            keep_trace,
            row_positions: Cell::new(false),
            state: RefCell::new(state),
            mirror: RefCell::new(None),
            unhandled: RefCell::new(Vec::new()),
        }
    }

    /// The top level's effects if they are only tables, presets and
    /// interned keys (see `Loaded`).
    pub fn loaded(&self) -> Option<Loaded> {
        let state = self.state.borrow();
        let quiet = state.waiting.is_empty()
            && state.timers.is_empty()
            && state.next_timer == 1
            && state.next_ticks.is_empty()
            && state.helpers.is_empty()
            && state.contexts.is_empty()
            && state.custom.is_empty()
            && state.messages.is_empty()
            && state.positions.is_empty()
            && state.failures.is_empty()
            && state.sessions == 0
            && state.connections == 0
            && state.draws == 0;
        quiet.then(|| Loaded {
            cache: state.cache.clone(),
            tables: state.tables.clone(),
            sql: state.sql.clone(),
            keys: state.keys.clone(),
            names: state.names.clone(),
        })
    }

    /// A host whose top level already ran and left `loaded`.
    pub fn after(core: Rc<RefCell<Core>>, config: Rc<Config>, loaded: &Loaded) -> Self {
        let host = Host::new(core, config, false);
        {
            let mut state = host.state.borrow_mut();
            state.cache = loaded.cache.clone();
            state.tables = loaded.tables.clone();
            state.sql = loaded.sql.clone();
            state.keys = loaded.keys.clone();
            state.names = loaded.names.clone();
            state.top_level = false;
        }
        host
    }

    /// The small id of a key (cache key, table or lock key), for the trace
    /// and the lock tables.
    pub fn intern(&self, key: &str) -> u32 {
        let mut state = self.state.borrow_mut();
        if let Some(&id) = state.keys.get(key) {
            return id;
        }
        let id = state.names.len() as u32;
        state.keys.insert(key.to_string(), id);
        state.names.push(key.to_string());
        id
    }

    /// The position of a call made at the frames `frames` of the script's
    /// own code (innermost first), if there are any.
    pub fn position_of(&self, frames: &[(u32, u32)]) -> Option<Position> {
        let (&(line, column), outer) = frames.split_first()?;
        let mut state = self.state.borrow_mut();
        let callers = match outer.is_empty() {
            true => NO_CALLERS,
            false => match state.caller_ids.get(outer) {
                Some(&id) => id,
                None => {
                    let id = state.callers.len() as u32;
                    state.callers.push(outer.to_vec());
                    state.caller_ids.insert(outer.to_vec(), id);
                    id
                }
            },
        };
        Some(Position {
            line,
            column,
            callers,
        })
    }

    /// Notes that the last trace event happened at `position`.
    pub fn mark_last_event(&self, position: Option<Position>) {
        let Some(position) = position else {
            return;
        };
        if !self.keep_trace {
            return;
        }
        let core = self.core.borrow();
        let Some(last) = core.trace.events().last() else {
            return;
        };
        let (len, what, key) = (core.trace.len(), last.what, last.key);
        drop(core);
        let mut state = self.state.borrow_mut();
        state.positions.insert(len - 1, position);
        // An operation's issue tells what the places it came through do.
        if let What::Issue(kind) = what {
            let table = match (kind.server(), key) {
                (Some(ServerKind::DbRead | ServerKind::DbWrite), TraceKey::Data(id)) => Some(id),
                _ => None,
            };
            let this = Issued::One(kind, table);
            let State {
                callers, issued, ..
            } = &mut *state;
            let frames = std::iter::once((position.line, position.column))
                .chain(callers[position.callers as usize].iter().copied());
            for frame in frames {
                let seen = issued.entry(frame).or_insert(this);
                if *seen != this {
                    *seen = Issued::Many;
                }
            }
        }
    }

    /// The line and column a trace event is told at: the innermost frame
    /// of the script's own code that made the call, unless calls that do
    /// different things all go through that place (a helper such as
    /// `query(text, values)` or a promise wrapper of a callback client's
    /// methods); then the frame that called it, and so on outwards.
    pub fn told_at(&self, position: Position) -> (u32, u32) {
        let state = self.state.borrow();
        let mut at = (position.line, position.column);
        for &outer in &state.callers[position.callers as usize] {
            if state.issued.get(&at) != Some(&Issued::Many) {
                break;
            }
            at = outer;
        }
        at
    }

    /// Duplicate rows in the script's tables and in its PostgreSQL.
    pub fn duplicates(&self) -> u64 {
        let state = self.state.borrow();
        state.tables.duplicates() + state.sql.duplicates()
    }

    /// Notes that the last trace event made a duplicate row, if there are
    /// more than `before` now.
    pub fn note_duplicates(&self, before: u64) {
        if self.keep_trace && self.duplicates() > before {
            self.note_harm(DataHarm::DuplicateRow);
        }
    }

    /// A request wrote over an update it never read (or, `in_place`,
    /// changed the key in place on a read that update made stale):
    /// counted, and noted at the trace's last event.
    pub fn lost_update(&self, in_place: bool) {
        self.state.borrow_mut().lost_updates += 1;
        self.note_harm(DataHarm::LostUpdate { in_place });
    }

    /// A request wrote into what its count or search had matched, after
    /// another's commit changed that answer. Counted with the lost updates
    /// (explore's `lost-updates` check: a write on a stale read).
    pub fn write_skew(&self) {
        self.state.borrow_mut().lost_updates += 1;
        self.note_harm(DataHarm::WriteSkew);
    }

    /// Notes that the last trace event did `harm`.
    pub fn note_harm(&self, harm: DataHarm) {
        let len = self.core.borrow().trace.len();
        if self.keep_trace && len > 0 {
            self.state.borrow_mut().harm.push((len - 1, harm));
        }
    }

    /// Drops every JavaScript value the host holds (the run is over).
    pub fn clear(&self) {
        let mut state = self.state.borrow_mut();
        state.waiting.clear();
        state.sql_waiting.clear();
        state.helpers.clear();
        state.contexts.clear();
        state.timers.clear();
        state.next_ticks.clear();
        drop(state);
        // A rejection not reported yet (a module whose top level threw).
        self.unhandled.borrow_mut().clear();
    }
}
