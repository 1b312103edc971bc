//! A scripted run: one JavaScript realm per app server, driven by the same
//! event loop (`Core`: clock, macrotask queue, latencies, pool, trace,
//! tally) as the built-in stories. After each macrotask, the event loop's
//! microtasks (lock hand-offs) and the realm's promise jobs drain, FIFO.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll, Waker};

use rquickjs::context::EvalOptions;
use rquickjs::function::{Rest, This};
use rquickjs::loader::{BuiltinLoader, ImportAttributes, Resolver};
use rquickjs::object::Filter;
use rquickjs::promise::PromiseState;
use rquickjs::{
    Context, Ctx, Exception, Function, Module, Object as JsObject, Persistent, Promise, Runtime,
    Value as JsValue,
};
use serde_json::{json, Value};

use crate::config::{Config, Micros, MS};
use crate::run::{script_headline, DataHarm, Headline, Observation, Positions, Run};
use crate::script_links::GLOBALS_HINT;
use crate::sim::choice::{choices, who};
use crate::sim::core::{Core, Op, TaskId};
use crate::sim::executor::describe;
use crate::sim::footprint::Object;
use crate::sim::metrics::Metrics;
use crate::sim::queue::{Macrotask, Pending};
use crate::sim::trace::{Outcome, Site, TraceEvent, TraceKey, What, NO_REQUEST};
use crate::sim::Footprint;
use crate::sim::{Choice, KeyNames, StepReport, TaskInfo};
use crate::sim::{Requests, Target};
use crate::world::locks::SlotId;

use super::call::{Call, SqlCall};
use super::context::JobContext;
use super::error::ScriptError;
use super::globals::{self, describe_error, from_json, log, Link};
use super::host::{
    Answer, Helper, Host, Loaded, Position, Seen, Settle, SqlWaiter, State, Unhandled, Waiter,
    FIRING,
};
use super::memory::{Budgeted, Meter};
use super::mirror::{exec_answer, Mirror};
use super::modules::{self, not_loaded};
use super::prelude;
use super::sql::store::TxnId;
use super::sql::store::{Ran, RowAccess};
use super::sql::{Landed, Plan, SqlError};
use super::world::{
    number, redis_range, CasReply, ExpiryChange, Found, HashWrite, LockScript, Only, ScriptCache,
};

/// The event budget of a script run that names none (`cli::run_to_json`,
/// the debugger): the CLI's default for a script run
/// (`DEFAULT_MAX_SCRIPT_EVENTS`).
pub const MAX_EVENTS: u64 = 1_000_000;

/// What one script macrotask costs in units of [`crate::Sim::work`]:
/// in the page's wasm a macrotask of `stampede.js` with 1,000 requests
/// (its promise jobs, its share of the GC) took about 200 µs, a built-in
/// story's unit well under 1 µs. At 25 the page's slices ran 60 to 100 ms.
pub const WORK_PER_STEP: u64 = 400;

/// The budgets of one server's engine: how long one macrotask's code may
/// run (in the engine's interrupt checks, one per 10,000 of its steps,
/// about 20 million loop iterations in all), how deep its native stack may
/// grow, and how much memory its heap may hold. Runaway code stops with a
/// `RuntimeLimitError` naming its line; deep recursion is a `RangeError`,
/// as in Node.
const TICK_BUDGET: u64 = 2_000;
/// The ids that footprints give the script's cache keys, tables and
/// rows (`Object::ScriptKey` and the like), by name.
pub type FootprintNames = Rc<RefCell<HashMap<String, u32>>>;

/// Explore's name for the set of live cache keys (`KEYS`, `SCAN`): no
/// script key starts with a NUL.
const KEYSPACE: &str = "\u{0}keys";
/// The macrotasks a module's top level may take before its server serves
/// ([`ScriptRun::boot`]).
const BOOT_EVENTS: u32 = 10_000;
const STACK_BUDGET: usize = 512 << 10;
const HEAP_BUDGET: usize = 512 << 20;

/// The message of a request stopped by [`HEAP_BUDGET`].
const OUT_OF_MEMORY: &str = "RuntimeLimitError: reached the memory budget on this execution";

/// The message of a macrotask stopped by [`TICK_BUDGET`].
const RAN_TOO_LONG: &str =
    "RuntimeLimitError: ran too long without an await (a loop that never ends?)";

/// The engine's collector runs after this much allocation, per expected
/// request (a run of many requests keeps many promises alive), within
/// bounds.
const GC_PER_REQUEST: usize = 12 << 10;
const GC_MIN: usize = 256 << 10;
const GC_MAX: usize = 64 << 20;

/// Every global a script can call (SCRIPTING.md §3), for the message of
/// an unknown one.
pub const GLOBALS: &str = "cache, db, lock, guard, singleflight, sleep, setTimeout, setInterval, \
setImmediate, clearTimeout, clearInterval, clearImmediate, queueMicrotask, Date, performance, \
Math, EventEmitter, console, count, config, require, module, exports, process, Buffer, \
TextEncoder, TextDecoder, structuredClone, AbortController, AbortSignal, URL, URLSearchParams, \
crypto, global, Intl, btoa, atob";

/// The built-in modules (the prelude's `require` table) and what each
/// exports by name to an `import`.
const MODULES: &[(&str, &str)] = &[
    (
        "assert",
        "ok, equal, notEqual, strictEqual, notStrictEqual, deepEqual, notDeepEqual, \
         deepStrictEqual, notDeepStrictEqual, throws, doesNotThrow, rejects, doesNotReject, \
         match, doesNotMatch, ifError, fail, strict, AssertionError",
    ),
    (
        "assert/strict",
        "ok, equal, notEqual, strictEqual, notStrictEqual, deepEqual, notDeepEqual, \
         deepStrictEqual, notDeepStrictEqual, throws, doesNotThrow, rejects, doesNotReject, \
         match, doesNotMatch, ifError, fail, strict, AssertionError",
    ),
    ("async-lock", ""),
    (
        "async-mutex",
        "Mutex, Semaphore, withTimeout, tryAcquire, E_TIMEOUT, E_ALREADY_LOCKED, E_CANCELED",
    ),
    (
        "async_hooks",
        "AsyncLocalStorage, AsyncResource, executionAsyncId, triggerAsyncId, \
         executionAsyncResource, createHook",
    ),
    ("buffer", "Buffer"),
    (
        "crypto",
        "randomUUID, randomInt, createHash, createHmac, randomBytes, timingSafeEqual, hash, \
         randomFillSync, randomFill, getRandomValues",
    ),
    ("dotenv", "config, configDotenv, parse, populate"),
    (
        "events",
        "EventEmitter, once, on, getEventListeners, getMaxListeners, setMaxListeners, \
         listenerCount, errorMonitor, captureRejectionSymbol",
    ),
    ("express", "Router, json, urlencoded"),
    ("fastify", "fastify"),
    (
        "fs",
        "constants, existsSync, exists, promises, readFileSync, readFile, readdirSync, readdir, \
         statSync, stat, lstatSync, lstat, accessSync, access, unlinkSync, unlink, rmSync, rm, \
         realpathSync, realpath, openSync, open, writeFileSync, writeFile, appendFileSync, \
         appendFile, mkdirSync, mkdir, copyFileSync, copyFile, renameSync, rename",
    ),
    (
        "fs/promises",
        "readFile, readdir, stat, lstat, access, unlink, rm, realpath, open, writeFile, \
         appendFile, mkdir, copyFile, rename",
    ),
    (
        "http",
        "createServer, Server, request, get, STATUS_CODES, METHODS",
    ),
    (
        "https",
        "createServer, Server, request, get, STATUS_CODES, METHODS",
    ),
    ("ioredis", "Redis, Cluster, ReplyError"),
    ("lru-cache", "LRUCache"),
    ("memcached", ""),
    ("memjs", "Client"),
    (
        "os",
        "EOL, devNull, hostname, platform, type, arch, machine, release, version, endianness, \
         cpus, availableParallelism, totalmem, freemem, loadavg, uptime, tmpdir, homedir, \
         userInfo, networkInterfaces",
    ),
    ("p-limit", ""),
    (
        "path",
        "resolve, normalize, isAbsolute, join, relative, toNamespacedPath, dirname, basename, \
         extname, format, parse, sep, delimiter, posix",
    ),
    (
        "perf_hooks",
        "performance, Performance, PerformanceEntry, PerformanceMark, PerformanceMeasure",
    ),
    ("pg", "Pool, Client, DatabaseError, types"),
    ("postgres", "PostgresError"),
    (
        "process",
        "env, nextTick, hrtime, uptime, stdout, stderr, exit",
    ),
    (
        "querystring",
        "parse, stringify, decode, encode, escape, unescape",
    ),
    (
        "redis",
        "createClient, createCluster, ErrorReply, SimpleError, WatchError, MultiErrorReply",
    ),
    (
        "redlock",
        "Redlock, Lock, LockError, ExecutionError, ResourceLockedError",
    ),
    (
        "timers",
        "setTimeout, setInterval, setImmediate, clearTimeout, clearInterval, clearImmediate, \
         promises",
    ),
    (
        "timers/promises",
        "setTimeout, setImmediate, setInterval, scheduler",
    ),
    (
        "url",
        "URL, URLSearchParams, parse, format, resolve, fileURLToPath, pathToFileURL",
    ),
    (
        "util",
        "promisify, callbackify, inspect, format, formatWithOptions, isDeepStrictEqual, inherits, \
         types, deprecate, debuglog, stripVTControlCharacters, toUSVString, TextEncoder, \
         TextDecoder",
    ),
    (
        "uuid",
        "v3, v4, v5, v7, NIL, MAX, validate, version, parse, stringify",
    ),
];

/// The built-in modules, each with its named exports, in the order of the
/// `require` table (read-only, for checks such as the editor's completion
/// data, `tests/editor_modules.rs`).
pub fn modules() -> impl Iterator<Item = (&'static str, Vec<&'static str>)> {
    MODULES.iter().map(|(name, exports)| {
        let exports = exports.split(", ").filter(|export| !export.is_empty());
        (*name, exports.collect())
    })
}

/// `import` finds the built-in modules, by name or as `node:NAME`; any
/// other name is an error that lists them.
struct BuiltinModules;

impl Resolver for BuiltinModules {
    fn resolve<'js>(
        &mut self,
        _: &Ctx<'js>,
        base: &str,
        name: &str,
        _: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<String> {
        let key = name.strip_prefix("node:").unwrap_or(name);
        if MODULES.iter().any(|(module, _)| *module == key) {
            return Ok(key.to_string());
        }
        // The engine cuts a resolving error's text at 256 bytes: the list
        // of modules follows in `error_text`.
        Err(rquickjs::Error::new_resolving_message(
            base,
            name,
            format!("Cannot find module '{name}'"),
        ))
    }
}

/// Each built-in module as an ES module: the `require` object, re-exported.
fn module_loader() -> BuiltinLoader {
    let mut loader = BuiltinLoader::default();
    for (name, exports) in MODULES {
        let mut source = format!("const m = require({name:?});\nexport default m;\n");
        for export in exports.split(", ").filter(|export| !export.is_empty()) {
            source.push_str(&format!("export const {export} = m.{export};\n"));
        }
        loader.add_module(*name, source);
    }
    loader
}

/// One server's engine: its own runtime (heap, collector, job queue and
/// budgets) and realm. The fields drop in order: the values kept across
/// calls before the realm, the realm before its runtime.
struct Realm {
    /// The handler, once the top level has finished.
    handle: Option<Persistent<Function<'static>>>,
    /// An ES module whose top level still awaits the event loop.
    booting: Option<Booting>,
    /// `Promise.prototype.then` as the realm made it (a script may replace
    /// the global one).
    then: Persistent<Function<'static>>,
    link: Rc<Link>,
    /// The global object's own property names before the script ran.
    before_script: Vec<String>,
    /// The script, for the budget's message.
    code: Rc<str>,
    /// Interrupt checks in the running macrotask (see [`TICK_BUDGET`]).
    ticks: Rc<Cell<u64>>,
    /// What the engine's heap holds (see [`HEAP_BUDGET`]).
    meter: Rc<Meter>,
    context: Context,
    runtime: Runtime,
    /// Which request a promise job runs as (after `runtime`: it lives as
    /// long).
    _jobs: JobContext,
}

/// An ES module whose top-level `await` waits on the event loop (a cache
/// or DB call, a timer): its evaluation's promise and its exports, read
/// for the handler once the promise settles ([`ScriptRun::boot`]).
struct Booting {
    done: Persistent<Promise<'static>>,
    exports: Persistent<JsObject<'static>>,
}

/// The names of the global object's own properties.
fn global_names(ctx: &Ctx<'_>) -> Vec<String> {
    ctx.globals()
        .own_keys::<String>(Filter::new().string().symbol())
        .filter_map(Result::ok)
        .collect()
}

/// How many own properties the global object has (explore compares it
/// when a run goes: counted as atoms, never turned into strings).
fn global_count(realm: &Realm) -> usize {
    realm.context.with(|ctx| {
        ctx.globals()
            .own_keys::<rquickjs::Atom>(Filter::new().string().symbol())
            .count()
    })
}

/// `config`'s requests, and an event loop with their arrivals queued.
fn planned(config: &Config, keep_trace: bool) -> (Requests, Rc<RefCell<Core>>) {
    let requests = crate::scenario::plan(config);
    let mut core = Core::new(config, keep_trace);
    core.set_arrivals(requests.arrivals());
    (requests, Rc::new(RefCell::new(core)))
}

/// A run's realms, taken out of it to start another run of the same
/// script and config (`ScriptRun::reuse`).
pub struct Realms(Vec<Realm>);

pub struct ScriptRun {
    host: Rc<Host>,
    realms: Vec<Realm>,
    requests: Requests,
    /// The event budget: the run stops after this many macrotasks, and
    /// the requests still pending count as hung (SCRIPTING.md §2).
    max_events: u64,
    /// The clock's limit: the run stops after its first step past it, and
    /// the requests still pending count as hung, as at the event budget
    /// (real mode, which plays each call at the model's pace).
    deadline: Micros,
    /// Trace events moved out so far (positions index the whole run).
    taken: usize,
    /// Explore mode: raised when a step breaks the no-module-state proof
    /// (only while it is assumed).
    watch: Option<Rc<Cell<bool>>>,
    /// Explore mode: where the realms go when the run ends, for the next
    /// run to reuse (only while they may be).
    give_back: Option<Rc<RefCell<Vec<Realms>>>>,
    /// Explore mode: the ids of the cache keys and tables footprints name,
    /// shared by every run of one search (`Self::track_footprints`).
    touched_names: FootprintNames,
    /// Whether a step's JavaScript may reach its server's module state
    /// (then every such step writes `Object::ScriptRealm`); false only
    /// when `analysis::module_state` proved otherwise.
    module_state: bool,
    /// The number of own properties of each realm's global object after
    /// load: a step that changes it broke the analysis's assumption.
    global_counts: Vec<usize>,
    /// A budget that stopped the top level's code after an `await`.
    top_level_failure: Option<String>,
}

impl ScriptRun {
    /// Loads `code` into one realm per server and runs its top level at
    /// time 0. `keep_trace`: keep every event (else only the hash).
    /// TypeScript runs with its types stripped (`typescript::javascript`).
    pub fn new(code: &str, config: &Config, keep_trace: bool) -> Result<ScriptRun, ScriptError> {
        ScriptRun::with_schema(code, None, config, keep_trace)
    }

    /// [`ScriptRun::new`] with the database's schema as SQL (docs/sql.md):
    /// its tables and seed rows exist before the top level runs.
    pub fn with_schema(
        code: &str,
        schema: Option<&str>,
        config: &Config,
        keep_trace: bool,
    ) -> Result<ScriptRun, ScriptError> {
        ScriptRun::with_route(code, schema, None, config, keep_trace)
    }

    /// [`ScriptRun::with_schema`] with the requests sent to `route` (`POST
    /// /orders/:id/pay`, `route=`) of the script's Express or Fastify app,
    /// instead of its first POST route (docs/scripting.md, "Routes"); a
    /// route the app does not register is a load error naming `route`.
    pub fn with_route(
        code: &str,
        schema: Option<&str>,
        route: Option<&str>,
        config: &Config,
        keep_trace: bool,
    ) -> Result<ScriptRun, ScriptError> {
        ScriptRun::load(code, schema, route, config, keep_trace).map(|(run, _)| run)
    }

    /// [`ScriptRun::with_route`], and the JavaScript it runs when that is
    /// not `code` itself (TypeScript, stripped): JavaScript loads as it is;
    /// only code the engine cannot parse is tried as TypeScript (so a
    /// JavaScript script never runs the stripper).
    pub fn load(
        code: &str,
        schema: Option<&str>,
        route: Option<&str>,
        config: &Config,
        keep_trace: bool,
    ) -> Result<(ScriptRun, Option<String>), ScriptError> {
        match ScriptRun::from_javascript(code, schema, route, config, keep_trace) {
            Err(error) if error.message.starts_with("SyntaxError") => {
                let at = error.line.zip(error.column);
                match super::typescript::after_javascript_error(code, at)? {
                    Some(stripped) => {
                        ScriptRun::from_javascript(&stripped, schema, route, config, keep_trace)
                            .map(|run| (run, Some(stripped)))
                    }
                    None => Err(error),
                }
            }
            other => other.map(|run| (run, None)),
        }
    }

    /// [`ScriptRun::with_route`] for code already known to be JavaScript
    /// (TypeScript stripped): explore's runs, which strip once.
    pub fn from_javascript(
        code: &str,
        schema: Option<&str>,
        route: Option<&str>,
        config: &Config,
        keep_trace: bool,
    ) -> Result<ScriptRun, ScriptError> {
        ScriptRun::start(code, schema, route, config, keep_trace, None)
    }

    /// [`ScriptRun::from_javascript`], every call of it also played on
    /// real servers as it lands (`interleave real --script`, see
    /// [`Mirror`]); the top level's too. Keeps no trace.
    pub fn mirrored(
        code: &str,
        schema: Option<&str>,
        route: Option<&str>,
        config: &Config,
        mirror: Box<dyn Mirror>,
    ) -> Result<ScriptRun, ScriptError> {
        ScriptRun::start(code, schema, route, config, false, Some(mirror))
    }

    fn start(
        code: &str,
        schema: Option<&str>,
        route: Option<&str>,
        config: &Config,
        keep_trace: bool,
        mirror: Option<Box<dyn Mirror>>,
    ) -> Result<ScriptRun, ScriptError> {
        if modules::needs_sql(code, schema) && !modules::loaded(modules::Module::Sql) {
            return Err(not_loaded(modules::Module::Sql));
        }
        let (requests, core) = planned(config, keep_trace);
        let host = Rc::new(Host::new(core, Rc::new(config.clone()), keep_trace));
        host.row_positions.set(acts_on_rows(code));
        *host.mirror.borrow_mut() = mirror;
        if let Some(schema) = schema {
            let mut state = host.state.borrow_mut();
            super::sql::schema::load(schema, &mut state.sql).map_err(|error| {
                ScriptError::schema(format!("{} (SQLSTATE {})", error.message, error.code))
            })?;
        }
        let gc = requests
            .len()
            .saturating_mul(GC_PER_REQUEST)
            .clamp(GC_MIN, GC_MAX);
        let mut realms = Vec::new();
        for server in 0..config.servers.max(1) {
            match load(&host, server, code, gc, route) {
                Ok(realm) => realms.push(realm),
                Err(error) => {
                    // The values the host keeps (a timer's callback, a call's
                    // promise) go before the engines that made them.
                    host.clear();
                    drop(realms);
                    return Err(error);
                }
            }
        }
        let mut run = ScriptRun::of(host, realms, requests);
        // Top-level promise jobs run before any request, and so does the
        // event loop while a module's top level awaits it.
        run.drain_ticks_first(!is_module(code));
        run.boot(route)?;
        run.host.state.borrow_mut().top_level = false;
        Ok(run)
    }

    /// Runs the event loop until every server's top level has finished,
    /// when an ES module's top-level `await` waits on it (`await
    /// client.connect()`, `await pool.query(...)`, a timer): each
    /// server's Node process loads its module before it serves, so the
    /// requests arrive once every server has loaded, as much later as the
    /// loading took (docs/scripting.md). No arrival runs meanwhile, and
    /// what the top level does is traced and counted like any call.
    fn boot(&mut self, route: Option<&str>) -> Result<(), ScriptError> {
        loop {
            for server in 0..self.realms.len() {
                self.booted(server, route)?;
            }
            if self.realms.iter().all(|realm| realm.booting.is_none()) {
                break;
            }
            if let Some(text) = self.top_level_failure.take() {
                return Err(ScriptError::new(text));
            }
            if self.realms.iter().any(|realm| realm.meter.exhausted()) {
                return Err(ScriptError::new(format!(
                    "{OUT_OF_MEMORY}, in the script's top level"
                )));
            }
            if self.host.core.borrow().steps >= BOOT_EVENTS {
                return Err(ScriptError::new(format!(
                    "the top level is still awaiting after {BOOT_EVENTS} events: it waits on \
                     something while timers keep the event loop busy"
                )));
            }
            let next = {
                let core = self.host.core.borrow();
                core.queue
                    .iter()
                    .filter(|pending| !matches!(pending.task, Macrotask::Arrival(_)))
                    .min_by_key(|pending| (pending.due, pending.seq))
            };
            let Some(next) = next else {
                return Err(ScriptError::new(
                    "the top level never finishes: it awaits a promise that nothing settles \
                     (Node would exit with \"unsettled top-level await\")",
                ));
            };
            self.run_pending(Some((next.due, next.seq)));
        }
        let loaded_at = self.host.core.borrow().now;
        if loaded_at > 0 {
            self.host.core.borrow_mut().delay_arrivals(loaded_at);
            self.requests.delay(loaded_at);
        }
        Ok(())
    }

    /// Reads server `server`'s handler once its module's top level has
    /// finished; its error if the top level threw.
    fn booted(&mut self, server: usize, route: Option<&str>) -> Result<(), ScriptError> {
        let realm = &self.realms[server];
        let Some(booting) = &realm.booting else {
            return Ok(());
        };
        let handle = realm.context.with(|ctx| -> Result<_, ScriptError> {
            let internal = |ctx: &Ctx<'_>, error| ScriptError::new(error_text(ctx, error));
            let done = booting
                .done
                .clone()
                .restore(&ctx)
                .map_err(|e| internal(&ctx, e))?;
            if done.state() == PromiseState::Pending {
                return Ok(None);
            }
            let handle = done.result::<()>().unwrap_or(Ok(())).and_then(|()| {
                let exports = booting.exports.clone().restore(&ctx)?;
                module_handler(&ctx, &exports, route)
            });
            match handle {
                Ok(handle) => Ok(Some(Persistent::save(&ctx, handler_function(handle)?))),
                Err(error) => Err(top_level_error(&ctx, error, &realm.code, &realm.ticks)),
            }
        })?;
        if let Some(handle) = handle {
            let realm = &mut self.realms[server];
            realm.handle = Some(handle);
            realm.booting = None;
        }
        Ok(())
    }

    /// What the top level left, if a run may start from it with these
    /// realms reused (see `host::Loaded`): only right after `new`.
    pub fn loaded(&self) -> Option<Loaded> {
        let core = self.host.core.borrow();
        let quiet = core.steps == 0
            && core.trace.is_empty()
            && core.queue.iter().count() == self.requests.len()
            && self
                .realms
                .iter()
                .all(|realm| !realm.runtime.is_job_pending());
        drop(core);
        if quiet {
            self.host.loaded()
        } else {
            None
        }
    }

    /// Takes the realms out of a finished run with no promise job left,
    /// for `reuse`.
    pub fn take_realms(&mut self) -> Realms {
        debug_assert!(!self.jobs_pending(), "a realm with jobs is not reused");
        self.host.clear();
        Realms(std::mem::take(&mut self.realms))
    }

    /// Whether a realm still has promise jobs queued (the run stopped at
    /// its event budget, or explore cut it).
    fn jobs_pending(&self) -> bool {
        self.realms
            .iter()
            .any(|realm| realm.runtime.is_job_pending())
    }

    /// A new run of the script `realms` were loaded with, under the same
    /// config (its schedule aside), starting from what its top level left
    /// (`loaded`) instead of loading it again. Only for a script without
    /// module state (`analysis::module_state`): the realms keep whatever
    /// JavaScript state the last run left.
    pub fn reuse(realms: Realms, loaded: &Loaded, config: &Config) -> ScriptRun {
        let (requests, core) = planned(config, false);
        let host = Rc::new(Host::after(core, Rc::new(config.clone()), loaded));
        let realms = realms.0;
        let code = realms.first().map(|realm| realm.code.clone());
        host.row_positions
            .set(code.is_some_and(|code| acts_on_rows(&code)));
        for realm in &realms {
            *realm.link.host.borrow_mut() = host.clone();
        }
        ScriptRun::of(host, realms, requests)
    }

    /// A run of `requests` on `host` and its loaded `realms`, not started.
    fn of(host: Rc<Host>, realms: Vec<Realm>, requests: Requests) -> ScriptRun {
        ScriptRun {
            host,
            realms,
            requests,
            max_events: MAX_EVENTS,
            deadline: Micros::MAX,
            taken: 0,
            watch: None,
            give_back: None,
            touched_names: FootprintNames::default(),
            module_state: true,
            global_counts: Vec::new(),
            top_level_failure: None,
        }
    }

    /// Runs with an event budget of `max_events` until the run is over;
    /// true if it ended by itself (every request answered and nothing in
    /// flight, or nothing left to run), false at the budget.
    pub fn run(&mut self, max_events: u64) -> bool {
        self.set_max_events(max_events);
        self.run_for(u64::MAX);
        self.ended()
    }

    /// Sets the event budget (SCRIPTING.md §2; [`MAX_EVENTS`] unless set).
    pub fn set_max_events(&mut self, max_events: u64) {
        self.max_events = max_events;
    }

    /// Whether the run ended by itself: every request has answered and no
    /// operation is in flight (pending timers do not keep it going), or
    /// nothing is left to run.
    pub fn ended(&self) -> bool {
        (self.unsettled() == 0 && !self.in_flight()) || self.host.core.borrow().queue.is_empty()
    }

    /// Stops the run after its first step past `deadline` on its clock
    /// (see [`ScriptRun::out_of_budget`]).
    pub fn set_deadline(&mut self, deadline: Micros) {
        self.deadline = deadline;
    }

    /// Whether the event budget is spent, or the clock has passed the
    /// deadline.
    pub fn out_of_budget(&self) -> bool {
        let core = self.host.core.borrow();
        u64::from(core.steps) >= self.max_events || core.now > self.deadline
    }

    /// Whether the clock has passed the deadline.
    pub fn past_deadline(&self) -> bool {
        self.host.core.borrow().now > self.deadline
    }

    /// Explore mode: raise `broken` when the run has added a global (or
    /// removed one), which breaks the no-module-state proof assumed
    /// (`assume_no_module_state`). Checked once, when the run goes: its
    /// realms are then not reused, and the search starts again without
    /// the proof.
    pub fn watch_globals(&mut self, broken: Rc<Cell<bool>>) {
        self.watch = Some(broken);
    }

    /// Explore mode: hand the realms to `spare` when the run ends (unless
    /// a step broke the proof), for the next run to reuse.
    pub fn give_realms_back(&mut self, spare: Rc<RefCell<Vec<Realms>>>) {
        self.give_back = Some(spare);
    }

    /// Runs the queued macrotask `(due, seq)` if it is queued, or with
    /// `None` the earliest one.
    fn run_pending(&mut self, pick: Option<(Micros, u64)>) -> Option<StepReport> {
        let start = self.host.core.borrow().trace.len() + self.taken;
        let index = self.host.core.borrow().steps;
        let next = {
            let mut core = self.host.core.borrow_mut();
            match pick {
                Some((due, seq)) => core.queue.take(due, seq),
                None => core.queue.pop(),
            }
        }?;
        self.deliver(next);
        let core = self.host.core.borrow();
        Some(StepReport {
            index,
            time: core.now,
            task: next.task,
            events: start..core.trace.len() + self.taken,
        })
    }

    /// Runs one macrotask and drains the microtasks it caused.
    fn deliver(&mut self, next: Pending) {
        {
            let mut core = self.host.core.borrow_mut();
            core.now = core.now.max(next.due);
        }
        for realm in &self.realms {
            realm.ticks.set(0);
        }
        if let Macrotask::Arrival(_) = next.task {
            self.touch(Object::Clock, false);
        }
        match next.task {
            Macrotask::Arrival(request) => self.arrive(request),
            Macrotask::Complete(slot) | Macrotask::Timer(slot) => self.complete(slot),
            // (A script's run has no cohorts: `Core::cohorts_on` is off.)
            Macrotask::Cohort(id) => self.host.core.borrow_mut().run_cohort_member(id),
        }
        for server in 0..self.realms.len() {
            self.check_memory(server);
        }
        self.drain();
        let mut core = self.host.core.borrow_mut();
        core.steps += 1;
        core.tally.events += 1;
    }

    /// Whether a cache or DB operation is still on its way (a write sent
    /// and not awaited lands even after every request has answered).
    fn in_flight(&self) -> bool {
        let core = self.host.core.borrow();
        let in_flight = core
            .queue
            .iter()
            .any(|pending| matches!(pending.task, Macrotask::Complete(_)));
        in_flight
    }

    /// Requests that have not answered yet.
    pub fn unsettled(&self) -> usize {
        let answered = self.host.core.borrow().tally.latencies.len();
        self.requests.len().saturating_sub(answered)
    }

    fn arrive(&mut self, request: TaskId) {
        let spec = self.requests.spec(request as usize);
        let server = spec.server;
        self.set_current(request);
        self.touch_js(server);
        self.host.core.borrow_mut().record(
            request,
            What::Arrive,
            TraceKey::None,
            Outcome::None,
            Site::None,
            u64::from(server),
        );
        let (user, click) = match spec.target {
            Target::Click { user, click } => (user, click),
            Target::Item(item) => (item, 0),
        };
        let keys = self.host.config.keys.max(1);
        let realm = &self.realms[server as usize];
        let outcome = realm.context.with(|ctx| -> Result<(), String> {
            let req = JsObject::new(ctx.clone()).map_err(|e| error_text(&ctx, e))?;
            let fields = [
                ("id", int(&ctx, u64::from(request))),
                ("user", int(&ctx, u64::from(user))),
                ("click", int(&ctx, u64::from(click))),
                ("key", int(&ctx, u64::from(user % keys))),
                ("server", int(&ctx, u64::from(server))),
                (
                    "at",
                    JsValue::new_number(ctx.clone(), spec.arrival as f64 / MS as f64),
                ),
            ];
            for (name, value) in fields {
                req.set(name, value).map_err(|e| error_text(&ctx, e))?;
            }
            let handle = realm
                .handle
                .clone()
                .ok_or_else(|| NO_HANDLER.to_string())?
                .restore(&ctx)
                .map_err(|e| error_text(&ctx, e))?;
            let value: JsValue = handle.call((req,)).map_err(|e| failure(realm, &ctx, e))?;
            match value.into_promise() {
                Some(promise) => watch(&ctx, realm, promise.into_value(), request)
                    .map_err(|e| error_text(&ctx, e)),
                None => Err(String::new()),
            }
        });
        match outcome {
            Ok(()) => {}
            // `handle` returned something other than a promise: answered.
            Err(text) if text.is_empty() => self.settle(request, Ok(())),
            Err(text) => self.settle(request, Err(text)),
        }
    }

    /// The request's promise settled (or `handle` threw): it answers now.
    fn settle(&mut self, request: TaskId, result: Result<(), String>) {
        settle_request(&self.host, request, result);
    }

    /// Code runs as `request`, with no `AsyncLocalStorage` store (a
    /// macrotask's start).
    fn set_current(&self, request: TaskId) {
        self.host.current.set(request);
        self.host.frame.set(0);
        self.host.core.borrow_mut().current = request;
    }

    /// A macrotask for a parked slot: a script's call lands, a timer
    /// fires, or one of a strategy's operations completes.
    fn complete(&mut self, slot: SlotId) {
        let request = self.host.core.borrow().slot_request(slot);
        self.set_current(request);
        let waiter = self.host.state.borrow_mut().waiting.remove(&slot);
        match waiter {
            None => self.host.core.borrow_mut().complete(slot),
            Some(Waiter::Call {
                call,
                settle,
                server,
                position,
            }) => {
                self.touch_call(&call, server);
                if let Call::Sql(call) = call {
                    self.land_sql(slot, *call, settle, server, position);
                    return;
                }
                let before = self.host.duplicates();
                if matches!(call, Call::Find(..) | Call::FindOne(..)) {
                    *self
                        .host
                        .state
                        .borrow_mut()
                        .db_reads
                        .entry(request)
                        .or_insert(0) += 1;
                }
                let mirrored = self.host.mirror.borrow().is_some().then(|| call.clone());
                let live_before = self.liveness(&call);
                let counted: Vec<String> = match &call {
                    Call::Update(_, _, set) => set.keys().cloned().collect(),
                    _ => Vec::new(),
                };
                let (result, outcome, accesses) = self.apply(call);
                self.touch_keyspace(live_before);
                let result = match mirrored {
                    Some(call) => self.mirror_cache(&call, result),
                    None => result,
                };
                self.host.core.borrow_mut().complete_script(slot, outcome);
                self.host.mark_last_event(position);
                self.host.note_duplicates(before);
                for access in accesses {
                    self.note_cache_access(request, access, position, &counted);
                }
                let realm = &self.realms[server as usize];
                let failed = realm.context.with(|ctx| {
                    let settled = match result {
                        Ok(value) => value
                            .map_or(Ok(JsValue::new_undefined(ctx.clone())), |value| {
                                from_json(&ctx, &value)
                            })
                            .and_then(|value| resolve(&ctx, &settle, value)),
                        Err(error) => reject(&ctx, &settle, rejection(&ctx, error)),
                    };
                    settled.err().map(|error| error_text(&ctx, error))
                });
                if let Some(text) = failed {
                    log(&self.host, text, None);
                }
            }
            Some(Waiter::DeadlockCheck { session }) => {
                self.finish_timer(slot);
                // It fails a statement of the simulated PostgreSQL, whose
                // request's JavaScript then runs, as a statement's landing.
                if self.host.core.borrow().touches.on {
                    let id = self.touched_id("\u{0}pg".to_string());
                    self.touch(Object::ScriptTable(id), true);
                    let server = self
                        .host
                        .state
                        .borrow()
                        .sql_waiting
                        .iter()
                        .find(|w| w.session == session)
                        .map(|w| w.server);
                    if let Some(server) = server {
                        self.touch_js(server);
                    }
                }
                let checked = self.host.state.borrow_mut().sql.check_deadlock(session);
                if let Some((error, ended)) = checked {
                    self.after_sql(ended, Some((session, error)));
                }
            }
            Some(Waiter::SqlTimeout { session, error }) => self.timed_out(slot, session, error),
            Some(Waiter::Sleep { settle, server }) => {
                self.touch_js(server);
                self.finish_timer(slot);
                self.realms[server as usize].context.with(|ctx| {
                    let undefined = JsValue::new_undefined(ctx.clone());
                    if let Err(error) = resolve(&ctx, &settle, undefined) {
                        let _ = error_text(&ctx, error);
                    }
                });
            }
            Some(Waiter::Timer {
                id,
                callback,
                args,
                every,
                server,
                frame,
            }) => {
                self.host.frame.set(frame);
                self.touch_js(server);
                self.finish_timer(slot);
                {
                    // The slot is free now: while its callback runs, an
                    // interval is marked as firing (a `clearInterval` in
                    // the callback removes the mark; no slot to cancel).
                    let mut state = self.host.state.borrow_mut();
                    match every {
                        None => state.timers.remove(&id),
                        Some(_) => state.timers.insert(id, FIRING),
                    };
                }
                let realm = &self.realms[server as usize];
                let failed = call_kept(realm, callback.clone(), args.iter().cloned());
                if let Some(text) = failed {
                    // A stray error: logged, counted nowhere.
                    log(&self.host, format!("uncaught {text}"), None);
                }
                if let Some(every) = every {
                    let live = self.host.state.borrow().timers.contains_key(&id);
                    if live {
                        let slot = self.host.core.borrow_mut().issue(
                            request,
                            Op::Sleep(every),
                            Site::Script,
                        );
                        let mut state = self.host.state.borrow_mut();
                        state.timers.insert(id, slot);
                        let timer = Waiter::Timer {
                            id,
                            callback,
                            args,
                            every: Some(every),
                            server,
                            frame,
                        };
                        state.waiting.insert(slot, timer);
                    }
                }
            }
        }
    }

    /// Records from now on what each step touches (explore mode).
    /// Records from now on what each step touches, naming keys and tables
    /// with `names`: a search compares a footprint of one run with those
    /// of the next (its sleep sets), so its runs share one table, and an id
    /// means the same name in all of them.
    pub fn track_footprints(&mut self, names: FootprintNames) {
        self.touched_names = names;
        let mut core = self.host.core.borrow_mut();
        core.touches.on = true;
        core.touches.pool_bounded = self.host.config.db_pool.is_some();
    }

    fn touch(&self, object: Object, write: bool) {
        self.host.core.borrow_mut().touches.touch(object, write);
    }

    /// Explore mode: whether each key `call` names is live, before it
    /// lands (`None` outside explore mode).
    fn liveness(&self, call: &Call) -> Option<Vec<(String, bool)>> {
        if !self.host.core.borrow().touches.on {
            return None;
        }
        let now = self.host.core.borrow().now;
        let state = self.host.state.borrow();
        let live = |key: &str| (key.to_string(), state.cache.is_live(key, now));
        Some(match call {
            Call::Exec(_, calls) => calls
                .iter()
                .filter_map(|call| self.liveness(call))
                .flatten()
                .collect(),
            Call::Locks(_, keys, ..) => keys.iter().map(|key| live(key)).collect(),
            Call::Keys(_) | Call::Scan(_) | Call::Watch(..) => Vec::new(),
            call => call.keys().into_iter().map(live).collect(),
        })
    }

    /// A call that made a key come or go (a first write, a delete, an
    /// expiry of 0, a list's last pop) writes the set of live keys, which
    /// `KEYS` and `SCAN` read.
    fn touch_keyspace(&mut self, before: Option<Vec<(String, bool)>>) {
        let Some(before) = before else {
            return;
        };
        let now = self.host.core.borrow().now;
        let changed = {
            let state = self.host.state.borrow();
            before
                .iter()
                .any(|(key, live)| state.cache.is_live(key, now) != *live)
        };
        if changed {
            let id = self.touched_id(KEYSPACE.to_string());
            self.touch(Object::ScriptKey(id), true);
        }
    }

    /// JavaScript runs on `server` for the current request: it writes
    /// that request's own state, and the server's module state unless the
    /// script provably has none.
    fn touch_js(&self, server: u32) {
        let mut core = self.host.core.borrow_mut();
        if !core.touches.on {
            return;
        }
        if self.module_state {
            core.touches.touch(Object::ScriptRealm(server), true);
        }
        let request = self.host.current.get();
        core.touches.touch(Object::ScriptRequest(request), true);
    }

    /// Explore mode on a script `analysis::module_state` cleared: steps of
    /// one server no longer write its realm, only their request's state.
    pub fn assume_no_module_state(&mut self) {
        self.module_state = false;
        self.global_counts = self.realms.iter().map(global_count).collect();
    }

    /// Whether a realm's global object gained or lost a property since
    /// `assume_no_module_state` (a global the analysis did not see).
    pub fn globals_changed(&mut self) -> bool {
        let counts = &self.global_counts;
        self.realms
            .iter()
            .zip(counts)
            .any(|(realm, &count)| global_count(realm) != count)
    }

    /// The names of the global object's own properties in the first
    /// realm, and those the script's top level added to it.
    pub fn global_names(&mut self) -> (Vec<String>, Vec<String>) {
        let realm = &self.realms[0];
        let names = realm.context.with(|ctx| global_names(&ctx));
        let added = names
            .iter()
            .filter(|name| !realm.before_script.contains(name))
            .cloned()
            .collect();
        (realm.before_script.clone(), added)
    }

    /// The world a script's call reaches when it lands, and its server's
    /// module state (the call's promise resumes there).
    fn touch_call(&mut self, call: &Call, server: u32) {
        if !self.host.core.borrow().touches.on {
            return;
        }
        self.touch_js(server);
        if let Call::Sql(_) = call {
            // One object for the whole simulated PostgreSQL: its row locks,
            // transactions and predicate reads make any two statements
            // dependent.
            let id = self.touched_id("\u{0}pg".to_string());
            self.touch(Object::ScriptTable(id), true);
            return;
        }
        if let Call::Rename(..) | Call::ListMove(..) = call {
            // Both keys are read and may be written.
            for key in call.keys() {
                let id = self.touched_id(key.to_string());
                self.touch(Object::ScriptKey(id), true);
            }
            return;
        }
        if let Call::Publish(..) = call {
            // No one subscribes in the simulated world: it touches nothing.
            return;
        }
        if let Call::Keys(_) | Call::Scan(_) = call {
            // The set of live keys, which a key's coming or going changes
            // (`Self::touch_keyspace`).
            let id = self.touched_id(KEYSPACE.to_string());
            self.touch(Object::ScriptKey(id), false);
            return;
        }
        let (table, write) = match call {
            Call::Get(_) | Call::GetStale(_) | Call::Gets(_) | Call::Pttl(_) => (false, false),
            Call::Set(..)
            | Call::Add(..)
            | Call::Delete(_)
            | Call::DeleteIf(..)
            | Call::Incr(..)
            | Call::IncrFloat(..)
            | Call::Replace(..)
            | Call::Expire(..)
            | Call::Touch(..)
            | Call::Persist(_)
            | Call::GetDelete(_)
            | Call::SetWith(..)
            | Call::Counter(..)
            | Call::Cas(..)
            | Call::Attach(..) => (false, true),
            Call::GetEx(_, change) => (false, *change != ExpiryChange::Keep),
            Call::Locks(_, keys, ..) => {
                // Every key of a redlock script is read and may be written.
                for key in keys {
                    let id = self.touched_id(key.clone());
                    self.touch(Object::ScriptKey(id), true);
                }
                return;
            }
            Call::Watch(connection, keys) => {
                // The connection's watches change; the keys are read.
                self.touch_connection(*connection);
                for key in keys {
                    let id = self.touched_id(key.clone());
                    self.touch(Object::ScriptKey(id), false);
                }
                return;
            }
            Call::Exec(connection, calls) => {
                // The watched keys are read (and the watches end), the
                // queued calls' keys written.
                if let Some(connection) = *connection {
                    self.touch_connection(connection);
                    let watched: Vec<String> = {
                        let state = self.host.state.borrow();
                        state
                            .cache
                            .watched(connection)
                            .map(str::to_string)
                            .collect()
                    };
                    for key in watched {
                        let id = self.touched_id(key);
                        self.touch(Object::ScriptKey(id), false);
                    }
                }
                for call in calls {
                    let keys = match call {
                        // A KEYS or a SCAN reads the set of live keys.
                        Call::Keys(_) | Call::Scan(_) => {
                            let id = self.touched_id(KEYSPACE.to_string());
                            self.touch(Object::ScriptKey(id), false);
                            continue;
                        }
                        call => call.keys(),
                    };
                    for key in keys {
                        let id = self.touched_id(key.to_string());
                        self.touch(Object::ScriptKey(id), true);
                    }
                }
                return;
            }
            Call::HashRead(..) | Call::SetRead(..) | Call::ListRead(..) | Call::ZsetRead(_) => {
                (false, false)
            }
            Call::HashWrite(..)
            | Call::SetWrite(..)
            | Call::ListWrite(..)
            | Call::ZsetWrite(..) => (false, true),
            Call::Find(..) | Call::FindOne(..) => (true, false),
            Call::Insert(..) | Call::Update(..) | Call::Remove(..) => (true, true),
            Call::Type(_) | Call::Strlen(_) => (false, false),
            Call::Append(..) => (false, true),
            Call::Sql(_)
            | Call::Keys(_)
            | Call::Scan(_)
            | Call::Rename(..)
            | Call::ListMove(..)
            | Call::Publish(..) => {
                unreachable!("above")
            }
        };
        let id = self.touched_id(call.key().to_string());
        if !table {
            self.touch(Object::ScriptKey(id), write);
            return;
        }
        let part = {
            let state = self.host.state.borrow();
            match state.tables.partition_field(call.key()) {
                None => {
                    // Not partitioned: the whole table, read or written.
                    drop(state);
                    self.touch(Object::ScriptTable(id), write);
                    return;
                }
                Some((field, unique)) => partition(call, field, unique),
            }
        };
        match part {
            // A partitioned table's rows of one value: the whole table is
            // only read (so two partitions commute), the rows are touched.
            Some(value) => {
                let rows = self.touched_id(format!("{}\u{0}{value}", call.key()));
                self.touch(Object::ScriptTable(id), false);
                self.touch(Object::ScriptRows(rows), write);
            }
            // Any other call on a partitioned table may reach every row:
            // it writes the whole table, so it conflicts with every call.
            None => self.touch(Object::ScriptTable(id), true),
        }
    }

    /// A Redis connection's watches, written.
    fn touch_connection(&mut self, connection: u64) {
        let id = self.touched_id(format!("\u{0}redis connection {connection}"));
        self.touch(Object::ScriptKey(id), true);
    }

    /// The id of a footprint name (a cache key, a table, a table's rows).
    fn touched_id(&mut self, name: String) -> u32 {
        let mut names = self.touched_names.borrow_mut();
        let next = names.len() as u32;
        *names.entry(name).or_insert(next)
    }

    /// A timer's slot fires: recorded like a sleep, then freed.
    fn finish_timer(&self, slot: SlotId) {
        let mut core = self.host.core.borrow_mut();
        core.complete(slot);
        core.release_slot(slot);
    }

    /// Applies a script's call at its completion time:
    /// its answer, its outcome, and how it read or wrote which cache keys
    /// (for lost updates, noted once its landing is in the trace).
    fn apply(&self, call: Call) -> (Result<Option<Value>, Rejection>, Outcome, Accesses) {
        let now = self.host.core.borrow().now;
        if let Call::Exec(connection, calls) = call {
            return self.apply_exec(connection, calls, now);
        }
        let accesses = cache_accesses(&call);
        let every_field = match &call {
            Call::HashRead(key, None) | Call::SetRead(key, None) => Some(key.clone()),
            _ => None,
        };
        // A set or a hash as a whole, as a sorted set is: SMEMBERS (and
        // SCARD, its length) or HGETALL (HLEN, HKEYS, HVALS) reads it, and
        // SADD or SREM changes it when it adds or removes a member, HSET,
        // HSETNX or HDEL when it adds or removes a field, so a count
        // checked and then a member or a field added is a change made from
        // that read. A hash's values stay its fields' own (`hash_field`):
        // HSET of a field already there changes no one's view of the hash.
        let whole = match &call {
            Call::SetRead(key, None) | Call::HashRead(key, None) => {
                Some((key.clone(), Access::Read))
            }
            Call::SetWrite(key, ..)
            | Call::HashWrite(key, HashWrite::Set(..) | HashWrite::Delete(_)) => {
                Some((key.clone(), Access::Change))
            }
            _ => None,
        };
        let rows = self.row_accesses(&call);
        let (result, outcome) = self.apply_one(call, now);
        let mut accesses: Accesses = accesses
            .into_iter()
            .map(|(key, access)| (key, access, outcome))
            .collect();
        if let (Some((key, access)), Ok(Some(answer))) = (whole, &result) {
            // SADD and SREM answer how many members they changed, HSET and
            // HDEL how many fields they added or removed (HSETNX: 1 or 0).
            let outcome = match answer.as_f64() {
                Some(changed) if access == Access::Change && changed <= 0.0 => Outcome::Unchanged,
                _ => outcome,
            };
            accesses.push((key, access, outcome));
        }
        // HGETALL (and HLEN, HKEYS, HVALS) read every field it found,
        // SMEMBERS every member.
        if let (Some(key), Ok(Some(found))) = (every_field, &result) {
            let names: Vec<&str> = match found {
                Value::Object(fields) => fields.keys().map(String::as_str).collect(),
                Value::Array(members) => members.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            accesses.extend(
                names
                    .into_iter()
                    .map(|name| (hash_field(&key, name), Access::Read, outcome)),
            );
        }
        if result.is_ok() {
            accesses.extend(rows.into_iter().map(|(key, access)| (key, access, outcome)));
        }
        (result, outcome, accesses)
    }

    /// How a `db` call reaches the rows its filter matches, each a key of
    /// its own (`row_key`), for lost updates: `find` reads them (`findOne`
    /// the first); `update` overwrites them with values computed in
    /// JavaScript, or changes them in place when every value is an
    /// `$inc`, and decides on what it finds when its filter tests a field
    /// (`{ stock: { $gt: 0 } }`): one step, as `SET NX` is; `remove` too.
    fn row_accesses(&self, call: &Call) -> Vec<(String, Access)> {
        let (table, filter, access, first) = match call {
            Call::Find(table, filter) => (table, filter, Access::Read, false),
            Call::FindOne(table, filter) => (table, filter, Access::Read, true),
            Call::Update(table, filter, set) => {
                let tested = filter.values().any(Value::is_object);
                let in_place = set.values().all(|value| {
                    value
                        .as_object()
                        .is_some_and(|ops| ops.contains_key("$inc"))
                });
                let access = match (tested, in_place) {
                    (true, _) => Access::Update,
                    (false, true) => Access::Change,
                    (false, false) => Access::Overwrite,
                };
                (table, filter, access, false)
            }
            Call::Remove(table, filter) => (table, filter, Access::Update, false),
            _ => return Vec::new(),
        };
        let ids = self
            .host
            .state
            .borrow_mut()
            .tables
            .matching(table, filter)
            .unwrap_or_default();
        let take = if first { 1 } else { ids.len() };
        ids.into_iter()
            .take(take)
            .map(|id| (row_key(table, id), access))
            .collect()
    }

    /// [`Self::apply`] of any call but an `EXEC`.
    fn apply_one(&self, call: Call, now: Micros) -> (Result<Option<Value>, Rejection>, Outcome) {
        let host = &self.host;
        let mut state = host.state.borrow_mut();
        let state = &mut *state;
        match call {
            Call::Get(key) => {
                let found = state.cache.get(&key, now);
                self.count_read(&found);
                match found {
                    Found::Live(value) => (Ok(Some(value)), Outcome::Hit),
                    Found::Stale(_) => (Ok(None), Outcome::Stale),
                    Found::Miss => (Ok(None), Outcome::Miss),
                }
            }
            Call::GetStale(key) => {
                let found = state.cache.get(&key, now);
                self.count_read(&found);
                match found {
                    Found::Live(value) => (
                        Ok(Some(json!({"value": value, "stale": false}))),
                        Outcome::Hit,
                    ),
                    Found::Stale(value) => (
                        Ok(Some(json!({"value": value, "stale": true}))),
                        Outcome::Stale,
                    ),
                    Found::Miss => (Ok(None), Outcome::Miss),
                }
            }
            Call::Set(key, value, ttl) => {
                state.cache.set(&key, value, ttl, now);
                (Ok(Some(Value::Bool(true))), Outcome::Stored)
            }
            Call::Add(key, value, ttl) => answered(
                state.cache.add(&key, value, ttl, now),
                Outcome::Stored,
                Outcome::NotStored,
            ),
            Call::Delete(key) => answered(
                state.cache.delete(&key, now),
                Outcome::Deleted,
                Outcome::NotFound,
            ),
            Call::DeleteIf(key, value) => answered(
                state.cache.delete_if(&key, &value, now),
                Outcome::Deleted,
                Outcome::NotOwner,
            ),
            Call::Incr(key, by) => match state.cache.incr(&key, by, now) {
                Ok(value) => (Ok(Some(number(value))), Outcome::Stored),
                Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
            },
            Call::IncrFloat(key, by) => match state.cache.incr_float(&key, &by, now) {
                Ok(value) => (Ok(Some(Value::String(value))), Outcome::Stored),
                Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
            },
            Call::Replace(key, value, ttl) => answered(
                state.cache.replace(&key, value, ttl, now),
                Outcome::Stored,
                Outcome::NotStored,
            ),
            Call::Expire(key, expiry, only) => answered(
                state.cache.expire(&key, expiry.ttl(now), only, now),
                Outcome::Stored,
                Outcome::NotFound,
            ),
            Call::Pttl(key) => {
                let ttl = state.cache.pttl(&key, now);
                let outcome = if ttl == -2 {
                    Outcome::Miss
                } else {
                    Outcome::Hit
                };
                (Ok(Some(Value::from(ttl))), outcome)
            }
            Call::Keys(pattern) => found_keys(state.cache.keys(&pattern, now), Value::from),
            Call::Type(key) => {
                let name = state.cache.type_name(&key, now);
                let outcome = match name {
                    "none" => Outcome::Miss,
                    _ => Outcome::Hit,
                };
                (Ok(Some(Value::from(name))), outcome)
            }
            Call::Strlen(key) => match state.cache.strlen(&key, now) {
                Ok(0) => (Ok(Some(Value::from(0))), Outcome::Miss),
                Ok(length) => (Ok(Some(Value::from(length))), Outcome::Hit),
                Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
            },
            Call::Append(key, more) => match state.cache.append(&key, &more, now) {
                Ok(length) => (Ok(Some(Value::from(length))), Outcome::Stored),
                Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
            },
            // No one subscribes in the simulated world.
            Call::Publish(..) => (Ok(Some(number(0.0))), Outcome::None),
            Call::ListMove(from, to, from_left, to_left) => {
                match state.cache.list_move(&from, &to, from_left, to_left, now) {
                    Ok(Some(item)) => (Ok(Some(item)), Outcome::Stored),
                    Ok(None) => (Ok(None), Outcome::NotFound),
                    Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
                }
            }
            Call::Rename(key, to, only_new) => match state.cache.rename(&key, &to, only_new, now) {
                Ok(moved) => answered(moved, Outcome::Stored, Outcome::NotStored),
                Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
            },
            Call::Scan(scan) => {
                let (cursor, keys) = state.cache.scan(&scan, now);
                found_keys(keys, |keys| json!([cursor.to_string(), keys]))
            }
            Call::Touch(key, ttl) => answered(
                state.cache.touch(&key, ttl, now),
                Outcome::Stored,
                Outcome::NotFound,
            ),
            Call::Persist(key) => answered(
                state.cache.persist(&key, now),
                Outcome::Stored,
                Outcome::NotStored,
            ),
            Call::GetDelete(key) => match state.cache.get_delete(&key, now) {
                Ok(Some(value)) => {
                    self.count_hit(true);
                    (Ok(Some(value)), Outcome::Deleted)
                }
                Ok(None) => {
                    self.count_hit(false);
                    (Ok(None), Outcome::NotFound)
                }
                Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
            },
            Call::GetEx(key, change) => match state.cache.get_ex(&key, change, now) {
                Ok(found) => {
                    self.count_hit(found.is_some());
                    let outcome = if found.is_some() {
                        Outcome::Hit
                    } else {
                        Outcome::Miss
                    };
                    (Ok(found), outcome)
                }
                Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
            },
            Call::SetWith(key, value, options) => {
                match state.cache.set_with(&key, value, options, now) {
                    Ok((stored, old)) => {
                        let outcome = if stored {
                            Outcome::Stored
                        } else {
                            Outcome::NotStored
                        };
                        match options.get {
                            false => (Ok(Some(Value::Bool(stored))), outcome),
                            true => {
                                self.count_hit(old.is_some());
                                (Ok(old), outcome)
                            }
                        }
                    }
                    Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
                }
            }
            // The new value's digits: each client reads the 64-bit
            // number its own way (clients.js).
            Call::Counter(key, by, initial) => match state.cache.counter(&key, by, initial, now) {
                Ok(Some(value)) => (Ok(Some(Value::String(value.to_string()))), Outcome::Stored),
                Ok(None) => (Ok(Some(Value::Null)), Outcome::NotFound),
                Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
            },
            // `{ value, cas }` (the unique as text, as the memcached
            // package gives it), or null on a miss.
            Call::Gets(key) => match state.cache.gets(&key, now) {
                Some((value, unique)) => (
                    Ok(Some(json!({"value": value, "cas": unique.to_string()}))),
                    Outcome::Hit,
                ),
                None => (Ok(None), Outcome::Miss),
            },
            Call::Cas(key, value, unique, ttl) => {
                match state.cache.cas(&key, value, unique, ttl, now) {
                    CasReply::Stored => (Ok(Some(json!("stored"))), Outcome::Stored),
                    CasReply::Exists => (Ok(Some(json!("exists"))), Outcome::NotStored),
                    CasReply::NotFound => (Ok(Some(json!("not_found"))), Outcome::NotFound),
                }
            }
            Call::Attach(key, more, front) => answered(
                state.cache.attach(&key, &more, front, now),
                Outcome::Stored,
                Outcome::NotStored,
            ),
            Call::Locks(script, keys, value, ttl) => {
                let done = state.cache.lock_script(script, &keys, &value, ttl, now);
                let outcome = match (script, done == keys.len()) {
                    (LockScript::Release, true) => Outcome::Deleted,
                    (LockScript::Release, false) => Outcome::NotOwner,
                    (_, true) => Outcome::Stored,
                    (_, false) => Outcome::NotStored,
                };
                (Ok(Some(Value::from(done))), outcome)
            }
            Call::Find(table, filter) => match state.tables.find(&table, &filter) {
                Ok(rows) => {
                    let rows = rows.into_iter().map(Value::Object).collect();
                    (Ok(Some(Value::Array(rows))), Outcome::Row)
                }
                Err(error) => (Err(error.into()), Outcome::Failed),
            },
            Call::FindOne(table, filter) => match state.tables.find(&table, &filter) {
                Ok(rows) => match rows.into_iter().next() {
                    Some(row) => (Ok(Some(Value::Object(row))), Outcome::Found),
                    None => (Ok(Some(Value::Null)), Outcome::NoOrder),
                },
                Err(error) => (Err(error.into()), Outcome::Failed),
            },
            Call::Insert(table, row) => match state.tables.insert(&table, row) {
                Ok(row) => (Ok(Some(Value::Object(row))), Outcome::Inserted),
                Err(error) => (Err(error.into()), Outcome::Conflict),
            },
            Call::Update(table, filter, set) => match state.tables.update(&table, &filter, &set) {
                Ok(count) => (Ok(Some(Value::from(count))), Outcome::Stored),
                Err(error) => (Err(error.into()), Outcome::Conflict),
            },
            Call::Remove(table, filter) => match state.tables.delete(&table, &filter) {
                Ok(count) => (Ok(Some(Value::from(count))), Outcome::Deleted),
                Err(error) => (Err(error.into()), Outcome::Failed),
            },
            Call::HashRead(key, fields) => match state.cache.hash(&key, now) {
                Ok(all) => {
                    let outcome = self.collection_read(all.is_empty());
                    let answer = match fields {
                        None => all,
                        Some(fields) => fields
                            .into_iter()
                            .map(|field| {
                                let value = all.get(&field).cloned().unwrap_or(Value::Null);
                                (field, value)
                            })
                            .collect(),
                    };
                    (Ok(Some(Value::Object(answer))), outcome)
                }
                Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
            },
            Call::HashWrite(key, write) => match state.cache.hash_write(&key, write, now) {
                Ok(answer) => (Ok(Some(answer)), Outcome::Stored),
                Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
            },
            Call::SetRead(key, asked) => match state.cache.members(&key, now) {
                Ok(all) => {
                    let outcome = self.collection_read(all.is_empty());
                    let answer = match asked {
                        None => all.into_iter().map(Value::String).collect(),
                        Some(asked) => asked
                            .iter()
                            .map(|member| Value::from(u8::from(all.contains(member))))
                            .collect(),
                    };
                    (Ok(Some(Value::Array(answer))), outcome)
                }
                Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
            },
            Call::ListRead(key, start, stop) => match state.cache.list(&key, now) {
                Ok(items) => {
                    let outcome = self.collection_read(items.is_empty());
                    let range = redis_range(items.len(), start, stop);
                    (Ok(Some(Value::Array(items[range].to_vec()))), outcome)
                }
                Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
            },
            Call::ListWrite(key, write) => {
                let before = state.cache.version(&key);
                match state.cache.list_write(&key, write, now) {
                    Ok(answer) => (Ok(Some(answer)), changed(&state.cache, &key, before)),
                    Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
                }
            }
            Call::ZsetRead(key) => match state.cache.zset(&key, now) {
                Ok(pairs) => {
                    let outcome = self.collection_read(pairs.is_empty());
                    let answer = pairs
                        .into_iter()
                        .map(|(member, score)| Value::from(vec![member, score.to_string()]))
                        .collect();
                    (Ok(Some(Value::Array(answer))), outcome)
                }
                Err(message) => (Err(Rejection::Type(message)), Outcome::Failed),
            },
            Call::ZsetWrite(key, write) => {
                let before = state.cache.version(&key);
                match state.cache.zset_write(&key, write, now) {
                    Ok(answer) => (Ok(Some(answer)), changed(&state.cache, &key, before)),
                    Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
                }
            }
            Call::SetWrite(key, add, members) => {
                match state.cache.set_write(&key, add, &members, now) {
                    Ok(changed) => (Ok(Some(number(changed))), Outcome::Stored),
                    Err(message) => (Err(Rejection::Type(message)), Outcome::NotStored),
                }
            }
            Call::Watch(connection, keys) => {
                match keys.is_empty() {
                    true => state.cache.unwatch(connection),
                    false => state.cache.watch(connection, &keys, now),
                }
                (Ok(Some(Value::Bool(true))), Outcome::None)
            }
            Call::Exec(..) => unreachable!("above"),
            Call::Sql(_) => unreachable!("a pg query lands in land_sql"),
        }
    }

    /// Redis's `EXEC` (on a connection) or a pipeline (none): nothing if a
    /// key the connection watches changed since its `WATCH` (null), else
    /// each queued call in turn, with no other call between them (each
    /// one's answer, `{ value }` or `{ error }`).
    fn apply_exec(
        &self,
        connection: Option<u64>,
        calls: Vec<Call>,
        now: Micros,
    ) -> (Result<Option<Value>, Rejection>, Outcome, Accesses) {
        let runs = connection.is_none_or(|connection| {
            self.host
                .state
                .borrow_mut()
                .cache
                .exec_allowed(connection, now)
        });
        if !runs {
            return (Ok(Some(Value::Null)), Outcome::NotStored, Vec::new());
        }
        let mut answers = Vec::with_capacity(calls.len());
        let mut accesses: Accesses = Vec::new();
        for call in calls {
            let (result, _, mine) = self.apply(call);
            // A read of a key this EXEC already wrote answers that write,
            // as INCR's answer does (ZADD then ZCARD: this request's place
            // in the window): nothing another request could make stale.
            let answers_own_write = |key: &String| {
                accesses
                    .iter()
                    .any(|(written, access, _)| written == key && *access != Access::Read)
            };
            let mine: Accesses = mine
                .into_iter()
                .filter(|(key, access, _)| *access != Access::Read || !answers_own_write(key))
                .collect();
            accesses.extend(mine);
            answers.push(match result {
                Ok(value) => exec_answer(value),
                Err(Rejection::Type(message) | Rejection::Unique(message)) => {
                    json!({ "error": message })
                }
            });
        }
        (Ok(Some(Value::Array(answers))), Outcome::Stored, accesses)
    }

    /// A cache call's answer, after the mirror (if any) played the call on
    /// the real server: the real answer where it differs.
    fn mirror_cache(
        &self,
        call: &Call,
        result: Result<Option<Value>, Rejection>,
    ) -> Result<Option<Value>, Rejection> {
        let now = self.host.core.borrow().now;
        let simulated = match &result {
            Ok(value) => Ok(value.clone()),
            Err(Rejection::Type(message) | Rejection::Unique(message)) => Err(message.clone()),
        };
        let mut mirror = self.host.mirror.borrow_mut();
        match mirror.as_mut().and_then(|m| m.cache(call, now, &simulated)) {
            None => result,
            Some(Ok(value)) => Ok(value),
            Some(Err(message)) => Err(Rejection::Type(message)),
        }
    }

    /// A `pg` reply, after the mirror's real PostgreSQL answered statement
    /// `id` (if the run is mirrored): the real reply where it differs.
    fn mirror_reply(&self, id: Option<u64>, reply: Value) -> Value {
        let Some(id) = id else {
            return reply;
        };
        let mut mirror = self.host.mirror.borrow_mut();
        mirror
            .as_mut()
            .and_then(|m| m.sql_answer(id, &reply))
            .unwrap_or(reply)
    }

    /// Follows who saw which write of a cache key: a read (or write) notes
    /// the key's write count; a write from an older count than the key's
    /// loses another request's update: a plain write whatever this request
    /// last saw of the key, a change in place only when that was a read
    /// (and, for a `db` row, when the code used a field it changes in
    /// between, as `note_row_access` asks of SQL: `fields`, the fields a
    /// `db.update` counts with `$inc`). `position` is the call's.
    fn note_cache_access(
        &self,
        request: TaskId,
        (key, access, outcome): (String, Access, Outcome),
        position: Option<Position>,
        fields: &[String],
    ) {
        if request == NO_REQUEST {
            return;
        }
        let changed = matches!(outcome, Outcome::Stored | Outcome::Deleted);
        let lost = {
            let mut state = self.host.state.borrow_mut();
            let version = state.versions.get(&key).copied().unwrap_or(0);
            let reads = state.db_reads.get(&request).copied().unwrap_or(0);
            // Whether another request wrote the key since this one saw
            // it, with no DB read in between (which would make this write
            // a cache fill), and whether that sight was a read (and where).
            // A hash's field this request never saw itself was seen absent
            // by a read of the whole hash (HGETALL), if it made one.
            let sight = match state.seen.get(&(request, key.clone())) {
                Some(seen) => Some((
                    seen.version < version && (seen.reads == reads || is_row(&key)),
                    seen.read,
                    seen.position,
                )),
                None => whole_hash(&key)
                    .and_then(|whole| state.seen.get(&(request, whole.to_string())))
                    .filter(|whole| whole.read && whole.reads == reads)
                    .map(|whole| {
                        let since = state.changed_at.get(&key);
                        (since.is_some_and(|&at| at > whole.at), true, None)
                    }),
            };
            let lost = changed
                && sight.is_some_and(|(stale, ..)| stale)
                && match access {
                    Access::Overwrite => true,
                    Access::Change => sight.is_some_and(|(_, read, seen_at)| {
                        read && (!is_row(&key)
                            || self.uses_between(&state, seen_at, position, fields))
                    }),
                    Access::Read | Access::Update => false,
                };
            let now = if access != Access::Read && changed {
                state.changes += 1;
                let at = state.changes;
                state.changed_at.insert(key.clone(), at);
                version + 1
            } else {
                version
            };
            state.versions.insert(key.clone(), now);
            let read = access == Access::Read;
            let at = state.changes;
            state.seen.insert(
                (request, key),
                Seen {
                    version: now,
                    reads,
                    read,
                    at,
                    position,
                },
            );
            lost
        };
        if lost {
            self.host.lost_update(access == Access::Change);
        }
    }

    /// Follows which committed version of a row each request last saw: a
    /// write of a row another commit changed since this request read it
    /// loses that change when it overwrites the row with values that do not
    /// read it (`SET n = $1`), and acts on a stale read when it changes the
    /// row in place (`SET n = n - 1`) after reading it, if the code used a
    /// column it changes in between (`if (rows[0].stock <= 0)`: a view
    /// counter that reads the page, then counts a view, decided nothing on
    /// the count). A statement that checks what it changes (`WHERE n > 0`,
    /// `AND version = $2`) decides on the row as it is. A request's own
    /// write is what it saw last: its commit moves what it saw on, with
    /// nothing read. `position` is the statement's.
    fn note_row_access(&self, request: TaskId, access: RowAccess, position: Option<Position>) {
        if request == NO_REQUEST {
            return;
        }
        let key = sql_row_key;
        let (mut lost, mut lost_in_place) = (false, false);
        let skew;
        {
            let mut state = self.host.state.borrow_mut();
            let saw = |state: &mut State, table: &str, index, version, read| {
                let seen = Seen {
                    version,
                    reads: 0,
                    read,
                    at: 0,
                    position,
                };
                state.seen.insert((request, key(table, index)), seen);
            };
            for (table, index, seq) in &access.read {
                saw(&mut state, table, *index, *seq, true);
            }
            let stale = |state: &State, table: &str, index, seq| {
                let seen = state.seen.get(&(request, key(table, index)));
                seen.filter(|seen| seen.version < seq).copied()
            };
            for (table, index, seq) in &access.overwritten {
                lost |= stale(&state, table, *index, *seq).is_some();
            }
            for (table, index, seq) in &access.changed {
                lost_in_place |= stale(&state, table, *index, *seq).is_some_and(|seen| {
                    seen.read
                        && self.uses_between(
                            &state,
                            seen.position,
                            position,
                            &access.changed_columns,
                        )
                });
            }
            skew = !(lost || lost_in_place)
                && self.writes_on_a_stale_answer(&mut state, request, &access, position);
            let written = access.overwritten.iter().chain(&access.changed);
            for (table, index, seq) in written.chain(&access.checked) {
                saw(&mut state, table, *index, *seq, false);
            }
            for (table, index, seq) in &access.committed {
                saw(&mut state, table, *index, *seq, false);
            }
            if let Some(read) = access.predicate {
                state
                    .predicates
                    .insert((request, read.table.clone()), (read, position));
            }
        }
        if lost || lost_in_place {
            self.host.lost_update(!lost);
        }
        if skew {
            self.host.write_skew();
        }
    }

    /// Whether a row the request wrote, committed now (by its autocommit
    /// statement, or by the `COMMIT` of its transaction), is in what its
    /// last SELECT of that table matched (inserted into it, or updated or
    /// deleted out of it), after another request's commit changed what
    /// that SELECT matches, and the code used its answer in between (`if
    /// (rows[0].n >= 2) return`, `if (rows.length) throw`): it acted on a
    /// count, a sum or an absence that no longer held (a coupon redeemed
    /// past its limit, a room booked twice with no constraint to refuse
    /// it, the last two admins each removing the other: write skew). Told
    /// once per SELECT.
    fn writes_on_a_stale_answer(
        &self,
        state: &mut State,
        request: TaskId,
        access: &RowAccess,
        position: Option<Position>,
    ) -> bool {
        for (table, index) in &access.written {
            state
                .writes
                .insert((request, sql_row_key(table, *index)), ());
        }
        for (table, index, _) in &access.committed {
            if state
                .writes
                .remove(&(request, sql_row_key(table, *index)))
                .is_none()
            {
                continue;
            }
            let Some((read, read_at)) = state.predicates.get(&(request, table.clone())) else {
                continue;
            };
            if !state
                .sql
                .commit_matches(table, *index, read.filter.as_ref())
            {
                continue;
            }
            let this_commit = |i: usize| {
                access
                    .committed
                    .iter()
                    .any(|(t, j, _)| t == table && *j == i)
            };
            let missed = state
                .sql
                .predicate_changes(read)
                .into_iter()
                .any(|(i, seq)| {
                    !this_commit(i)
                        && state
                            .seen
                            .get(&(request, sql_row_key(table, i)))
                            .is_none_or(|seen| seen.version < seq)
                });
            let mut answer = read.columns.clone();
            answer.extend(["length".to_string(), "rowCount".to_string()]);
            if missed && self.uses_between(state, *read_at, position, &answer) {
                state.predicates.remove(&(request, table.clone()));
                return true;
            }
        }
        false
    }

    /// Whether the script's code between the read at `read` and the write
    /// at `write` names one of `columns` outside its strings and comments
    /// (`rows[0].stock`, `{ stock }`): from the read's line to the write's
    /// call, and from the line of the read's outermost caller to the
    /// write's (a helper that reads, and
    /// the handler that checks what it returned before it calls the one
    /// that writes). True when it cannot tell (a position unknown, or each
    /// read after its write in the text: other functions).
    fn uses_between(
        &self,
        state: &State,
        read: Option<Position>,
        write: Option<Position>,
        columns: &[String],
    ) -> bool {
        let (Some(realm), Some(read), Some(write)) = (self.realms.first(), read, write) else {
            return true;
        };
        let outermost = |position: Position| {
            let callers = &state.callers[position.callers as usize];
            callers
                .last()
                .copied()
                .unwrap_or((position.line, position.column))
        };
        let ranges = [
            ((read.line, read.column), (write.line, write.column)),
            (outermost(read), outermost(write)),
        ];
        let mut told = false;
        for ((from, _), (to, column)) in ranges {
            if from == 0 || from > to {
                continue;
            }
            told = true;
            // From the read's line to the write's call, not its arguments
            // (a `db.update`'s fields name what it changes).
            let mut lines: Vec<&str> = realm
                .code
                .lines()
                .skip(from as usize - 1)
                .take((to - from) as usize + 1)
                .collect();
            if let Some(last) = lines.last_mut() {
                let cut = last
                    .char_indices()
                    .nth(column.saturating_sub(1) as usize)
                    .map_or(last.len(), |(at, _)| at);
                *last = &last[..cut];
            }
            let code = lines.join("\n");
            let words = code_words(&code);
            if columns
                .iter()
                .any(|column| words.contains(&column.as_str()))
            {
                return true;
            }
        }
        !told
    }

    /// A `pg` statement lands: it completes, fails, or waits for the
    /// transaction that holds a row it needs (docs/sql.md).
    fn land_sql(
        &mut self,
        slot: SlotId,
        call: SqlCall,
        settle: Settle,
        server: u32,
        position: Option<Position>,
    ) {
        let request = self.host.current.get();
        let now = self.host.core.borrow().now;
        let now_ms = now as f64 / MS as f64;
        let mirrored = call.sent.as_ref().and_then(|(text, values)| {
            let mut mirror = self.host.mirror.borrow_mut();
            let by = (request != NO_REQUEST).then_some(request);
            Some(
                mirror
                    .as_mut()?
                    .sql_send(by, call.session, text, values, now),
            )
        });
        let before = self.host.duplicates();
        *self
            .host
            .state
            .borrow_mut()
            .db_reads
            .entry(request)
            .or_insert(0) += 1;
        let shared = (!call.closes)
            .then(|| self.block_of_another(call.session, request))
            .flatten();
        let (ran, plan) = match call.plan {
            Err(error) => {
                let ran = self.host.state.borrow_mut().sql.refuse(call.session, error);
                (ran, None)
            }
            Ok(plan) => {
                let mut state = self.host.state.borrow_mut();
                let ran = state.sql.run(Some(call.session), &plan, now_ms);
                let plan = state.sql.take_retry().unwrap_or(plan);
                (ran, Some(plan))
            }
        };
        let access = self.host.state.borrow_mut().sql.take_access();
        let Ran {
            landed,
            mut ended,
            victim,
        } = ran;
        if let Landed::Waits(on) = landed {
            if let (Some(id), Some(mirror)) = (mirrored, self.host.mirror.borrow_mut().as_mut()) {
                mirror.sql_waits(id);
            }
            self.host
                .core
                .borrow_mut()
                .complete_script(slot, Outcome::LockWait);
            self.host.mark_last_event(position);
            self.note_shared(shared, call.session, request);
            let timeout = self.arm_sql_timeout(request, call.session);
            self.host.state.borrow_mut().sql_waiting.push(SqlWaiter {
                on,
                plan: plan.expect("a plan waits"),
                session: call.session,
                settle,
                server,
                request,
                key: call.key,
                position,
                mirrored,
                timeout,
            });
        } else {
            let in_txn = self.host.state.borrow().sql.in_transaction(call.session);
            let outcome = sql_outcome(plan.as_ref(), &landed, in_txn);
            self.host.core.borrow_mut().complete_script(slot, outcome);
            self.host.mark_last_event(position);
            self.note_shared(shared, call.session, request);
            self.host.note_duplicates(before);
            self.note_row_access(request, access, position);
            let reply = self.mirror_reply(mirrored, sql_reply(landed));
            if call.closes {
                ended.extend(self.host.state.borrow_mut().sql.close(call.session));
                if let Some(mirror) = self.host.mirror.borrow_mut().as_mut() {
                    mirror.sql_close(call.session);
                }
            }
            let realm = &self.realms[server as usize];
            let failed = realm.context.with(|ctx| {
                from_json(&ctx, &reply)
                    .and_then(|value| resolve(&ctx, &settle, value))
                    .err()
                    .map(|error| error_text(&ctx, error))
            });
            if let Some(text) = failed {
                log(&self.host, text, None);
            }
        }
        self.after_sql(ended, victim);
    }

    /// The request that began `session`'s transaction block, if another
    /// than `request` did: a statement of `request` that lands there runs
    /// in that request's transaction.
    fn block_of_another(&self, session: u64, request: TaskId) -> Option<TaskId> {
        let state = self.host.state.borrow();
        let began = *state.blocks.get(&session)?;
        (began != request && request != NO_REQUEST && state.sql.in_block(session)).then_some(began)
    }

    /// After a statement of `request` on `session` landed: a shared block
    /// is harm at its event; the request that began the session's block
    /// is kept until the block ends.
    fn note_shared(&self, shared: Option<TaskId>, session: u64, request: TaskId) {
        if let Some(began_by) = shared {
            self.host.state.borrow_mut().shared_transactions += 1;
            self.host
                .note_harm(DataHarm::SharedTransaction { began_by });
        }
        let mut state = self.host.state.borrow_mut();
        if state.sql.in_block(session) {
            state.blocks.entry(session).or_insert(request);
        } else {
            state.blocks.remove(&session);
        }
    }

    /// What a statement's end set off: a deadlock's victim fails its
    /// waiting statement; the statements that waited for a transaction that
    /// ended run again, oldest first.
    fn after_sql(&mut self, ended: Vec<TxnId>, victim: Option<(u64, SqlError)>) {
        self.answer_after_sql(ended, victim);
        self.arm_deadlock_checks();
    }

    /// A statement's `lock_timeout` or `statement_timeout` runs out: it is
    /// cancelled with `error` if it still waits.
    fn timed_out(&mut self, slot: SlotId, session: u64, error: SqlError) {
        self.finish_timer(slot);
        let waiter = {
            let waiting = &mut self.host.state.borrow_mut().sql_waiting;
            let found = waiting.iter().position(|w| w.timeout == Some(slot));
            found.map(|index| waiting.remove(index))
        };
        if let Some(mut waiter) = waiter {
            // It fails a statement of the simulated PostgreSQL, as
            // a deadlock check does.
            if self.host.core.borrow().touches.on {
                let id = self.touched_id("\u{0}pg".to_string());
                self.touch(Object::ScriptTable(id), true);
                self.touch_js(waiter.server);
            }
            waiter.timeout = None;
            let ended = self
                .host
                .state
                .borrow_mut()
                .sql
                .cancel(session, error.clone());
            self.answer_waiter(waiter, Landed::Failed(error));
            self.after_sql(ended, None);
        }
    }

    /// A statement that begins to wait, on a session with a `lock_timeout`
    /// or a `statement_timeout`, is cancelled after the shorter of them (the
    /// lock's on a tie, as PostgreSQL checks it first): a timer of its
    /// request, taken back if the statement is answered first. Both count
    /// from when it began to wait, which is when it landed (the model's
    /// statements otherwise take no time on the server).
    fn arm_sql_timeout(&mut self, request: TaskId, session: u64) -> Option<usize> {
        let (lock, statement) = self.host.state.borrow().sql.timeouts(session);
        let (ms, site, error) = match (lock, statement) {
            (0, 0) => return None,
            (lock, statement) if lock > 0 && (statement == 0 || lock <= statement) => (
                lock,
                Site::LockTimeout,
                SqlError::new("55P03", "canceling statement due to lock timeout"),
            ),
            (_, statement) => (
                statement,
                Site::StatementTimeout,
                SqlError::new("57014", "canceling statement due to statement timeout"),
            ),
        };
        let slot = self
            .host
            .core
            .borrow_mut()
            .issue(request, Op::Sleep(ms * MS), site);
        self.host
            .state
            .borrow_mut()
            .waiting
            .insert(slot, Waiter::SqlTimeout { session, error });
        Some(slot)
    }

    /// A deadlock's victim waits for its deadlock check: a timer of its
    /// request, `deadlock_timeout` after its wait began.
    fn arm_deadlock_checks(&mut self) {
        loop {
            let Some((session, at_ms)) = self.host.state.borrow_mut().sql.take_deadlock() else {
                break;
            };
            let request = self
                .host
                .state
                .borrow()
                .sql_waiting
                .iter()
                .find(|w| w.session == session)
                .map(|w| w.request);
            let Some(request) = request else {
                continue;
            };
            let mut core = self.host.core.borrow_mut();
            let at = (at_ms * MS as f64).round() as Micros;
            let delay = at.saturating_sub(core.now);
            let slot = core.issue(request, Op::Sleep(delay), Site::DeadlockTimeout);
            drop(core);
            self.host
                .state
                .borrow_mut()
                .waiting
                .insert(slot, Waiter::DeadlockCheck { session });
        }
    }

    fn answer_after_sql(&mut self, ended: Vec<TxnId>, victim: Option<(u64, SqlError)>) {
        let mut ends: Vec<TxnId> = ended;
        let mut victims: Vec<(u64, SqlError)> = victim.into_iter().collect();
        loop {
            if let Some((session, error)) = victims.pop() {
                let waiter = {
                    let waiting = &mut self.host.state.borrow_mut().sql_waiting;
                    let found = waiting.iter().position(|w| w.session == session);
                    found.map(|index| waiting.remove(index))
                };
                if let Some(waiter) = waiter {
                    self.answer_waiter(waiter, Landed::Failed(error));
                }
                continue;
            }
            let Some(ended) = ends.pop() else {
                break;
            };
            let waiting = std::mem::take(&mut self.host.state.borrow_mut().sql_waiting);
            let (mut woken, still): (Vec<SqlWaiter>, Vec<SqlWaiter>) =
                waiting.into_iter().partition(|waiter| waiter.on == ended);
            self.host.state.borrow_mut().sql_waiting = still;
            // Oldest first, unless the real server (a mirrored run) let
            // another go first.
            if let (Some(ids), Some(mirror)) = (
                woken
                    .iter()
                    .map(|waiter| waiter.mirrored)
                    .collect::<Option<Vec<u64>>>()
                    .filter(|ids| ids.len() > 1),
                self.host.mirror.borrow_mut().as_mut(),
            ) {
                if let Some(first) = mirror.sql_first(&ids) {
                    let waiter = woken.remove(first);
                    woken.insert(0, waiter);
                }
            }
            for mut waiter in woken {
                let now_ms = self.host.core.borrow().now as f64 / MS as f64;
                let before = self.host.duplicates();
                let (ran, access) = {
                    let mut state = self.host.state.borrow_mut();
                    state.sql.stop_waiting(waiter.session);
                    let ran = state.sql.run(Some(waiter.session), &waiter.plan, now_ms);
                    if let Some(plan) = state.sql.take_retry() {
                        waiter.plan = plan;
                    }
                    (ran, state.sql.take_access())
                };
                ends.extend(ran.ended);
                victims.extend(ran.victim);
                if let Landed::Waits(on) = ran.landed {
                    waiter.on = on;
                    self.host.state.borrow_mut().sql_waiting.push(waiter);
                    continue;
                }
                let (request, position) = (waiter.request, waiter.position);
                self.answer_waiter(waiter, ran.landed);
                self.host.note_duplicates(before);
                self.note_row_access(request, access, position);
            }
        }
    }

    /// A waiting statement is answered: recorded for its request, which
    /// resumes as a microtask (after the request that released it).
    fn answer_waiter(&mut self, waiter: SqlWaiter, landed: Landed) {
        if let Some(slot) = waiter.timeout {
            self.host.state.borrow_mut().waiting.remove(&slot);
            super::globals::cancel_slot(&self.host, slot);
        }
        let in_txn = self.host.state.borrow().sql.in_transaction(waiter.session);
        let outcome = sql_outcome(Some(&waiter.plan), &landed, in_txn);
        let key = TraceKey::Data(self.host.intern(&waiter.key));
        self.host.core.borrow_mut().record(
            waiter.request,
            What::RowLockGrant,
            key,
            outcome,
            Site::Script,
            0,
        );
        self.host.mark_last_event(waiter.position);
        let helper = Helper {
            future: Box::pin(std::future::ready(Answer::Json(
                self.mirror_reply(waiter.mirrored, sql_reply(landed)),
            ))),
            settle: waiter.settle,
            server: waiter.server,
        };
        self.host
            .state
            .borrow_mut()
            .helpers
            .entry(waiter.request)
            .or_default()
            .push(helper);
        self.host.core.borrow_mut().micro.push_back(waiter.request);
    }

    /// A read of a hash or a set: a hit if the key exists (counted), as a
    /// GET's.
    fn collection_read(&self, empty: bool) -> Outcome {
        self.count_hit(!empty);
        match empty {
            true => Outcome::Miss,
            false => Outcome::Hit,
        }
    }

    fn count_read(&self, found: &Found) {
        self.count_hit(matches!(found, Found::Live(_)));
    }

    /// A read of a value: a cache hit, or a miss.
    fn count_hit(&self, hit: bool) {
        let mut core = self.host.core.borrow_mut();
        match hit {
            true => core.tally.cache_hits += 1,
            false => core.tally.cache_misses += 1,
        }
    }

    /// Drains microtasks: the realms' promise jobs, FIFO, until none is
    /// left, then one of the event loop's own (a lock hand-off resumes a
    /// strategy's future, which may resolve a promise), and so on. A
    /// promise job runs as the request whose code registered it (its
    /// `await` or `then`; `super::context`).
    ///
    /// `process.nextTick` callbacks come first, as Node runs them after a
    /// macrotask's callback (`processTicksAndRejections`): every tick, then
    /// every microtask, and again while the microtasks queued ticks.
    fn drain(&mut self) {
        self.drain_ticks_first(true);
    }

    /// [`drain`](Self::drain), or with the microtasks first: Node evaluates
    /// an ES module's top level inside a microtask, so the promise jobs it
    /// queued run before its ticks (a CommonJS top level's ticks run first).
    fn drain_ticks_first(&mut self, ticks_first: bool) {
        let mut ticks_now = ticks_first;
        loop {
            loop {
                if ticks_now {
                    self.run_next_ticks();
                }
                ticks_now = true;
                self.drain_microtasks();
                if self.host.state.borrow().next_ticks.is_empty() {
                    break;
                }
            }
            // A listener's code may queue more.
            if !self.report_unhandled() {
                break;
            }
        }
    }

    /// The promises still rejected with no handler once the ticks and the
    /// microtasks are done, where Node 20 checks for them: each goes to
    /// the `process.on("unhandledRejection", (reason, promise) => …)`
    /// listeners of its server, as in Node, or with none (where Node 20
    /// exits) is a `log` event of the request that rejected it,
    /// `unhandled rejection (Node 20 exits on it): ...`, counted nowhere,
    /// as a timer's stray error is. True if a listener ran.
    fn report_unhandled(&mut self) -> bool {
        let unhandled = std::mem::take(&mut *self.host.unhandled.borrow_mut());
        let mut heard = false;
        for rejected in unhandled {
            let running = self.host.current.get();
            self.set_current(rejected.request);
            self.touch_js(rejected.server);
            let realm = &self.realms[rejected.server as usize];
            let (listened, text) = realm.context.with(|ctx| {
                let (reason, promise) = match (
                    rejected.reason.restore(&ctx),
                    rejected.promise.restore(&ctx),
                ) {
                    (Ok(reason), Ok(promise)) => (reason, promise),
                    (Err(error), _) | (_, Err(error)) => {
                        return (false, Some(error_text(&ctx, error)))
                    }
                };
                match emit_to_listeners(&ctx, "unhandledRejection", vec![reason.clone(), promise]) {
                    Ok(true) => (true, None),
                    Ok(false) => (
                        false,
                        Some(format!(
                            "unhandled rejection (Node 20 exits on it): {}",
                            describe_error(&ctx, &reason)
                        )),
                    ),
                    Err(error) => (
                        true,
                        Some(format!("uncaught {}", failure(realm, &ctx, error))),
                    ),
                }
            });
            heard |= listened;
            if let Some(text) = text {
                log(&self.host, text, None);
            }
            self.check_memory(rejected.server as usize);
            self.set_current(running);
        }
        heard
    }

    /// Runs the queued `process.nextTick` callbacks, and those they queue,
    /// in order. A callback's exception is a stray error (logged, counted
    /// nowhere), as a timer's is; a budget that stops one fails its
    /// request, as it does a promise job.
    fn run_next_ticks(&mut self) {
        loop {
            let tick = self.host.state.borrow_mut().next_ticks.pop_front();
            let Some(tick) = tick else {
                break;
            };
            self.set_current(tick.request);
            self.host.frame.set(tick.frame);
            self.touch_js(tick.server);
            let realm = &self.realms[tick.server as usize];
            let failed = call_kept(realm, tick.callback, tick.args);
            if let Some(text) = failed {
                if realm.ticks.get() > TICK_BUDGET {
                    if tick.request == NO_REQUEST {
                        self.top_level_failure.get_or_insert(text.clone());
                    }
                    settle_request(&self.host, tick.request, Err(text));
                } else {
                    log(&self.host, format!("uncaught {text}"), None);
                }
            }
            self.check_memory(tick.server as usize);
        }
    }

    /// The microtasks: promise jobs and the event loop's own, until none
    /// is left (see [`drain`](Self::drain)).
    fn drain_microtasks(&mut self) {
        loop {
            while let Some(server) = self
                .realms
                .iter()
                .position(|realm| realm.runtime.is_job_pending())
            {
                self.touch_js(server as u32);
                let realm = &self.realms[server];
                if let Err(exception) = realm.runtime.execute_pending_job() {
                    // Only an uncatchable error (a budget) escapes a promise
                    // job: the code it resumed is dead, so its request fails
                    // rather than hangs.
                    let text = exception.0.with(|ctx| {
                        let error = ctx.catch();
                        budget_text(realm, &ctx, &error)
                    });
                    let request = self.host.current.get();
                    if request == NO_REQUEST {
                        self.top_level_failure.get_or_insert(text.clone());
                    }
                    settle_request(&self.host, request, Err(text));
                }
                self.check_memory(server);
            }
            let task = self.host.core.borrow_mut().micro.pop_front();
            match task {
                Some(task) => self.poll_helpers(task),
                None => break,
            }
        }
    }

    /// A server's engine was refused memory: the running request fails
    /// with the budget's message (the engine may have had no memory left
    /// to reject its promise).
    fn check_memory(&self, server: usize) {
        if self.realms[server].meter.exhausted() {
            let request = self.host.current.get();
            settle_request(&self.host, request, Err(OUT_OF_MEMORY.to_string()));
        }
    }

    /// Resumes the strategy futures of `task`; each that is done resolves
    /// its promise.
    fn poll_helpers(&mut self, task: TaskId) {
        let helpers = self.host.state.borrow_mut().helpers.remove(&task);
        let Some(helpers) = helpers else {
            return;
        };
        self.set_current(task);
        let mut waker = TaskContext::from_waker(Waker::noop());
        let mut pending = Vec::new();
        let mut ready = Vec::new();
        for mut helper in helpers {
            match helper.future.as_mut().poll(&mut waker) {
                Poll::Ready(answer) => ready.push((helper.settle, helper.server, answer)),
                Poll::Pending => pending.push(helper),
            }
        }
        if !pending.is_empty() {
            let mut state = self.host.state.borrow_mut();
            let mut later = state.helpers.remove(&task).unwrap_or_default();
            pending.append(&mut later);
            state.helpers.insert(task, pending);
        }
        for (settle, server, answer) in ready {
            self.touch_js(server);
            self.realms[server as usize].context.with(|ctx| {
                let value = match &answer {
                    Answer::Json(value) => from_json(&ctx, value),
                    other => Ok(other.value(&ctx)),
                };
                if let Err(error) = value.and_then(|value| resolve(&ctx, &settle, value)) {
                    let _ = error_text(&ctx, error);
                }
            });
        }
    }

    /// The counters now, the requests not yet answered counted as hung.
    fn counters(&self) -> Metrics {
        let hung = self.hung();
        let state = self.host.state.borrow();
        let orders = state.tables.rows("orders") + state.sql.rows("orders");
        let duplicates = state.tables.duplicates() + state.sql.duplicates();
        let mut core = self.host.core.borrow_mut();
        let hash = core.trace.hash();
        core.tally.metrics(orders, duplicates, hung, hash)
    }

    /// The `pg` tables as the run leaves them.
    pub fn table_summaries(&self) -> Vec<super::sql::store::TableSummary> {
        self.host.state.borrow().sql.summaries()
    }

    /// Requests that never settled.
    pub fn hung(&self) -> u64 {
        self.unsettled() as u64
    }

    /// `count(name, n)` totals.
    pub fn custom(&self) -> BTreeMap<String, f64> {
        self.host.state.borrow().custom.clone()
    }

    /// `console.log` lines and logged errors; a `Log` event's `detail`
    /// indexes them.
    pub fn messages(&self) -> Vec<String> {
        self.host.state.borrow().messages.clone()
    }

    /// The trace events that did harm found in the data, by index.
    pub fn data_harm(&self) -> Vec<(usize, DataHarm)> {
        self.host.state.borrow().harm.clone()
    }

    /// Why each failed request failed: `request N: message`, in the order
    /// they failed (the CLI's `error_messages`).
    pub fn error_messages(&self) -> Vec<String> {
        self.host
            .state
            .borrow()
            .failures
            .iter()
            .map(|(request, message)| format!("request {request}: {message}"))
            .collect()
    }

    /// The script line and column of each event that has one, by index.
    pub fn positions(&self) -> BTreeMap<usize, (u32, u32)> {
        let positions = self.host.state.borrow().positions.clone();
        positions
            .into_iter()
            .map(|(index, position)| (index, self.host.told_at(position)))
            .collect()
    }

    /// The key an interned id stands for (a trace event's `key`).
    pub fn key_name(&self, id: u32) -> String {
        let state = self.host.state.borrow();
        state.names.get(id as usize).cloned().unwrap_or_default()
    }

    pub fn take_events(&mut self) -> Vec<TraceEvent> {
        self.host.core.borrow_mut().trace.take_events()
    }
}

/// A script's run, as every mode steps it: the same run the CLI makes,
/// stopped at its event budget.
impl Run for ScriptRun {
    fn steps(&self) -> u32 {
        self.host.core.borrow().steps
    }

    fn now(&self) -> Micros {
        self.host.core.borrow().now
    }

    /// Over once it ended by itself or spent its event budget (the
    /// requests still pending then count as hung).
    fn is_done(&self) -> bool {
        self.ended() || self.out_of_budget()
    }

    /// The events that may run next (as `Sim::enabled_pending`): every
    /// operation completion, plus the earliest timer or arrival; none once
    /// the run is over, so a pending timer (an interval) does not keep it
    /// going.
    fn enabled_pending(&self) -> Vec<Pending> {
        if self.is_done() {
            return Vec::new();
        }
        self.host.core.borrow().enabled_pending()
    }

    fn step_pending(&mut self, due: Micros, seq: u64) -> Option<StepReport> {
        self.run_pending(Some((due, seq)))
    }

    fn step(&mut self) -> Option<StepReport> {
        if self.is_done() {
            return None;
        }
        self.run_pending(None)
    }

    /// The counters now; a request still running is not yet `hung`.
    fn metrics(&self) -> Metrics {
        let mut metrics = self.counters();
        if !self.is_done() {
            metrics.hung = 0;
        }
        metrics
    }

    /// What a script run is judged on (no per-key load log: `db-reads` is
    /// a built-in story's check).
    fn observation(&self) -> Observation {
        Observation {
            metrics: self.counters(),
            redundant_db_reads: 0,
            lost_updates: self.host.state.borrow().lost_updates,
            shared_transactions: self.host.state.borrow().shared_transactions,
        }
    }

    /// A script's macrotask runs JavaScript: it weighs as much engine work
    /// as [`WORK_PER_STEP`] built-in ones, so the page's time slices (which
    /// count work) stay short.
    fn work(&self) -> u64 {
        u64::from(self.steps()) * WORK_PER_STEP
    }

    fn events(&self) -> usize {
        self.host.core.borrow().trace.len() + self.taken
    }

    fn pending(&self) -> Vec<Pending> {
        self.host.core.borrow().queue.iter().collect()
    }

    fn describe(&self, task: Macrotask) -> TaskInfo {
        describe(&self.host.core.borrow(), task)
    }

    fn choices(&self) -> Vec<Choice> {
        choices(
            &self.host.core.borrow(),
            &self.requests,
            self.enabled_pending(),
        )
    }

    fn requests(&self) -> &Requests {
        &self.requests
    }

    fn request_of(&self, task: Macrotask) -> u32 {
        crate::sim::choice::request_of(&self.host.core.borrow(), task)
    }

    fn describe_request(&self, request: u32) -> String {
        who(&self.requests, request)
    }

    fn finished_requests(&self) -> u64 {
        (self.requests.len() - self.unsettled()) as u64
    }

    fn take_footprint(&mut self) -> Footprint {
        self.host.core.borrow_mut().touches.take()
    }

    fn take_trace(&mut self) -> (Vec<TraceEvent>, Positions) {
        let events = self.take_events();
        self.taken += events.len();
        (events, self.positions().into_iter().collect())
    }

    fn key_names(&self) -> KeyNames {
        let state = self.host.state.borrow();
        KeyNames::Script {
            keys: state.names.clone().into(),
            messages: state.messages.clone().into(),
        }
    }

    fn data_harm(&self) -> Vec<(usize, DataHarm)> {
        ScriptRun::data_harm(self)
    }

    /// The counters that tell this script's story (see
    /// [`script_headline`]), then its own.
    fn headline(&self) -> Headline {
        let state = self.host.state.borrow();
        Headline {
            names: script_headline(state.tables.expects_unique(), state.tables.has("orders")),
            own: state
                .custom
                .iter()
                .map(|(name, &n)| (name.clone(), n))
                .collect(),
        }
    }
}

impl Drop for ScriptRun {
    fn drop(&mut self) {
        // A global that appeared during the run (checked once, as the run
        // goes: a search reads `broken` only after its runs, and redoes
        // itself without the proof if it is set).
        if self.watch.is_some() && self.globals_changed() {
            if let Some(broken) = &self.watch {
                broken.set(true);
            }
        }
        let broken = self.watch.as_ref().is_some_and(|broken| broken.get());
        if let Some(spare) = self.give_back.take() {
            if !broken && !self.jobs_pending() {
                let realms = self.take_realms();
                spare.borrow_mut().push(realms);
                return;
            }
        }
        // The host's engine values go first; each engine then frees its
        // realm and whatever jobs it still had queued.
        self.host.clear();
    }
}

/// Why a call was refused, made into a JavaScript error on rejection.
enum Rejection {
    Unique(String),
    Type(String),
}

impl From<super::world::DbError> for Rejection {
    fn from(error: super::world::DbError) -> Self {
        match error {
            super::world::DbError::Unique(message) => Rejection::Unique(message),
            super::world::DbError::Bad(message) => Rejection::Type(message),
        }
    }
}

fn rejection<'js>(ctx: &Ctx<'js>, error: Rejection) -> JsValue<'js> {
    match error {
        Rejection::Unique(message) => match Exception::from_message(ctx.clone(), &message) {
            Ok(error) => {
                let _ = error.set("name", "UniqueViolation");
                error.into_value()
            }
            Err(_) => ctx.catch(),
        },
        Rejection::Type(message) => {
            let _ = Exception::throw_type(ctx, &message);
            ctx.catch()
        }
    }
}

/// Settles a host promise.
fn resolve<'js>(ctx: &Ctx<'js>, settle: &Settle, value: JsValue<'js>) -> rquickjs::Result<()> {
    settle.resolve.clone().restore(ctx)?.call((value,))
}

fn reject<'js>(ctx: &Ctx<'js>, settle: &Settle, reason: JsValue<'js>) -> rquickjs::Result<()> {
    settle.reject.clone().restore(ctx)?.call((reason,))
}

/// A cache call that answers yes or no, with the outcome of each.
fn answered(
    yes: bool,
    if_yes: Outcome,
    if_no: Outcome,
) -> (Result<Option<Value>, Rejection>, Outcome) {
    (Ok(Some(Value::Bool(yes))), if yes { if_yes } else { if_no })
}

/// The keys a `KEYS` or a `SCAN` found, as `answer` words them: found
/// (`Outcome::Found`) if any.
fn found_keys(
    keys: Vec<String>,
    answer: impl FnOnce(Vec<String>) -> Value,
) -> (Result<Option<Value>, Rejection>, Outcome) {
    let outcome = match keys.is_empty() {
        true => Outcome::NotFound,
        false => Outcome::Found,
    };
    (Ok(Some(answer(keys))), outcome)
}

/// The cache keys a call read or wrote, how, and with what outcome.
type Accesses = Vec<(String, Access, Outcome)>;

/// How a call reaches a cache key, for lost updates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    /// A write of a value computed elsewhere (SET, replace).
    Overwrite,
    /// A write that reads the key itself and decides on what it finds
    /// (ADD, SET NX, DEL, EXPIRE, a lock script).
    Update,
    /// A change in place, which keeps what others wrote: a count (`INCR`,
    /// `DECRBY`, `HINCRBY`), an `APPEND`, a sorted set's or a list's
    /// (`ZADD`, `ZREMRANGEBYSCORE`, a push or a pop). Made from a stale
    /// read when this request last read the key (`GET`, `ZCARD`, `LRANGE`)
    /// and another request changed it since, as the check of a rate
    /// limiter that counts after it checks is.
    Change,
}

/// How a call reaches cache keys, for lost updates: a hash's fields are
/// keys of their own (`hash_field`), so writes of two fields never lose
/// each other.
fn cache_accesses(call: &Call) -> Vec<(String, Access)> {
    let one = |key: &String, access| vec![(key.clone(), access)];
    match call {
        Call::Get(key)
        | Call::GetStale(key)
        | Call::Pttl(key)
        | Call::Type(key)
        | Call::Strlen(key) => one(key, Access::Read),
        Call::Append(key, _) | Call::Attach(key, ..) => one(key, Access::Change),
        Call::Gets(key) => one(key, Access::Read),
        // A check-and-set stores only over what this request read.
        Call::Cas(key, ..) => one(key, Access::Update),
        // GETEX reads the value; a new expiry or none is an update of it.
        Call::GetEx(key, change) => match change {
            ExpiryChange::Keep => one(key, Access::Read),
            _ => one(key, Access::Update),
        },
        // RENAME writes its target blind (RENAMENX reads it first) and
        // takes its source away.
        Call::Rename(key, to, only_new) => vec![
            (key.clone(), Access::Update),
            (
                to.clone(),
                match only_new {
                    true => Access::Update,
                    false => Access::Overwrite,
                },
            ),
        ],
        Call::Set(key, ..) | Call::Replace(key, ..) => one(key, Access::Overwrite),
        // A sorted set or a list is one value: a read reads it whole (its
        // count, a range, a score), a write changes it.
        Call::ZsetRead(key) | Call::ListRead(key, ..) => one(key, Access::Read),
        Call::ZsetWrite(key, _) | Call::ListWrite(key, _) => one(key, Access::Change),
        Call::ListMove(from, to, ..) => {
            vec![(from.clone(), Access::Change), (to.clone(), Access::Change)]
        }
        // A SET that only adds reads what it changes; any other writes
        // blind, whatever it reads back.
        Call::SetWith(key, _, options) => match options.only {
            Some(Only::Nx) => one(key, Access::Update),
            _ => one(key, Access::Overwrite),
        },
        Call::Incr(key, _) | Call::IncrFloat(key, _) | Call::Counter(key, ..) => {
            one(key, Access::Change)
        }
        Call::Add(key, ..)
        | Call::Delete(key)
        | Call::DeleteIf(key, _)
        | Call::Expire(key, ..)
        | Call::Touch(key, _)
        | Call::Persist(key)
        | Call::GetDelete(key) => one(key, Access::Update),
        Call::HashRead(key, Some(fields)) | Call::SetRead(key, Some(fields)) => fields
            .iter()
            .map(|field| (hash_field(key, field), Access::Read))
            .collect(),
        // SADD and SREM read what they change: they lose no update.
        Call::SetWrite(key, _, members) => members
            .iter()
            .map(|member| (hash_field(key, member), Access::Update))
            .collect(),
        Call::HashWrite(key, write) => match write {
            HashWrite::Set(pairs, false) => pairs
                .iter()
                .map(|(field, _)| (hash_field(key, field), Access::Overwrite))
                .collect(),
            HashWrite::Set(pairs, true) => pairs
                .iter()
                .map(|(field, _)| (hash_field(key, field), Access::Update))
                .collect(),
            HashWrite::Delete(fields) => fields
                .iter()
                .map(|field| (hash_field(key, field), Access::Update))
                .collect(),
            HashWrite::IncrBy(field, _) | HashWrite::IncrByFloat(field, _) => {
                vec![(hash_field(key, field), Access::Change)]
            }
        },
        _ => Vec::new(),
    }
}

/// A collection write's outcome: stored if it changed `key` (its writes
/// passed `before`), else unchanged (a `ZREM` of no member, a pop of an
/// empty list), so that it is no one's update.
fn changed(cache: &ScriptCache, key: &str, before: u64) -> Outcome {
    match cache.version(key) > before {
        true => Outcome::Stored,
        false => Outcome::Unchanged,
    }
}

/// A `db` table's row as a key of its own, for lost updates: no cache key
/// starts with a NUL, so a row never meets a cache key, and a DB read
/// before a row's write is no cache fill (`note_cache_access`).
fn row_key(table: &str, id: u64) -> String {
    format!("\u{0}db:{table}\u{0}{id}")
}

/// Whether `key` is a row's (`row_key`).
fn is_row(key: &str) -> bool {
    key.starts_with('\u{0}')
}

/// A hash's field as a key of its own, for lost updates.
fn hash_field(key: &str, field: &str) -> String {
    format!("{key}\u{0}{field}")
}

/// The hash (or set) whose field (or member) `key` is (`hash_field`).
fn whole_hash(key: &str) -> Option<&str> {
    match is_row(key) {
        true => None,
        false => key.split_once('\u{0}').map(|(whole, _)| whole),
    }
}

/// How a `pg` statement's landing shows in the trace.
fn sql_outcome(plan: Option<&Plan>, landed: &Landed, in_txn: bool) -> Outcome {
    match (landed, plan) {
        (Landed::Failed(error), _) => match &*error.code {
            "40001" | "40P01" => Outcome::SerializationFailure,
            "23505" => Outcome::Conflict,
            _ => Outcome::Failed,
        },
        (Landed::Waits(_), _) => Outcome::LockWait,
        (Landed::Done(reply), Some(plan)) => match plan {
            Plan::Select(select) if select.locks() => Outcome::Locked,
            Plan::Select(_) if reply.rows.is_empty() => Outcome::NoOrder,
            Plan::Select(_) => Outcome::Found,
            Plan::Insert(_) if reply.row_count == Some(0) => Outcome::NotStored,
            Plan::Insert(_) if in_txn => Outcome::Buffered,
            Plan::Insert(_) => Outcome::Inserted,
            Plan::Update(_) => Outcome::Stored,
            Plan::Delete(_) => Outcome::Deleted,
            Plan::Commit if reply.command == "COMMIT" => Outcome::Committed,
            _ => Outcome::None,
        },
        (Landed::Done(_), None) => Outcome::None,
    }
}

/// A `pg` statement's answer as the prelude reads it: the reply, or
/// `{ error }` with PostgreSQL's fields.
fn sql_reply(landed: Landed) -> Value {
    match landed {
        Landed::Done(reply) => reply.to_json(),
        Landed::Failed(SqlError {
            code,
            message,
            detail,
            constraint,
            table,
        }) => json!({"error": {
            "code": code,
            "message": message,
            "detail": detail,
            "constraint": constraint,
            "table": table,
        }}),
        Landed::Waits(_) => Value::Null,
    }
}

/// The partition a DB call stays inside (the canonical value of the
/// table's partition `field` it is confined to), or `None` if it may reach
/// rows of several values: its where has an operator or lacks a primitive
/// `field`; an insert's row lacks it; an update may move a row to another
/// value or, with a `unique` key, is checked against the whole table.
fn partition(call: &Call, field: &str, unique: bool) -> Option<String> {
    let confined = |filter: &super::world::Row| {
        let operators = filter.values().any(|condition| {
            matches!(condition, Value::Object(ops) if ops.keys().any(|k| k.starts_with('$')))
        });
        if operators {
            return None;
        }
        canonical(filter.get(field)?)
    };
    match call {
        Call::Find(_, filter) | Call::FindOne(_, filter) | Call::Remove(_, filter) => {
            confined(filter)
        }
        Call::Insert(_, row) => canonical(row.get(field)?),
        Call::Update(_, filter, set) if !unique && !set.contains_key(field) => confined(filter),
        _ => None,
    }
}

/// A primitive JSON value as a string equal for `===`-equal values
/// (numbers by value), or `None` for an object or an array.
fn canonical(value: &Value) -> Option<String> {
    match value {
        Value::Null => Some("null".into()),
        Value::Bool(b) => Some(format!("b{b}")),
        Value::Number(n) => n.as_f64().map(|n| format!("n{}", n + 0.0)),
        Value::String(s) => Some(format!("s{s}")),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// A whole number as JSON gives it: an int when it fits, else a float.
fn int<'js>(ctx: &Ctx<'js>, n: u64) -> JsValue<'js> {
    match i32::try_from(n) {
        Ok(n) => JsValue::new_int(ctx.clone(), n),
        Err(_) => JsValue::new_number(ctx.clone(), n as f64),
    }
}

/// Answers a request: `Ok` or `Failed` (its message logged).
fn settle_request(host: &Host, request: TaskId, result: Result<(), String>) {
    if request == NO_REQUEST || host.core.borrow().has_responded(request) {
        return;
    }
    host.state.borrow_mut().contexts.remove(&request);
    match result {
        Ok(()) => host.core.borrow_mut().respond(request, Outcome::Ok),
        Err(mut message) => {
            if unknown_name(&message).is_some() {
                message.push_str(&format!("{GLOBALS_HINT}{GLOBALS}"));
            }
            if message.starts_with("RuntimeLimitError") {
                super::guard::stopped(request, &message);
            }
            let running = host.current.replace(request);
            host.state
                .borrow_mut()
                .failures
                .push((request, message.clone()));
            log(host, message, None);
            host.current.set(running);
            host.core.borrow_mut().respond(request, Outcome::Failed);
        }
    }
}

/// Settles `request` when `promise` does: the realm's own
/// `Promise.prototype.then`, with natives as handlers (as a harness in
/// Node would await it; the job it adds comes after every job the
/// request's own code queued).
fn watch<'js>(
    ctx: &Ctx<'js>,
    realm: &Realm,
    promise: JsValue<'js>,
    request: TaskId,
) -> rquickjs::Result<()> {
    let link = realm.link.clone();
    let fulfilled = Function::new(ctx.clone(), move || {
        settle_request(&link.host(), request, Ok(()));
    })?;
    let link = realm.link.clone();
    let rejected = Function::new(ctx.clone(), move |ctx: Ctx<'js>, reason: JsValue<'js>| {
        let text = describe_error(&ctx, &reason);
        settle_request(&link.host(), request, Err(text));
    })?;
    let then = realm.then.clone().restore(ctx)?;
    then.call::<_, ()>((This(promise), fulfilled, rejected))
}

/// An engine error as text, with the script's line when it has one (a
/// thrown value is taken off the realm).
fn error_text(ctx: &Ctx<'_>, error: rquickjs::Error) -> String {
    let text = match error {
        rquickjs::Error::Exception => {
            let thrown = ctx.catch();
            describe_error(ctx, &thrown)
        }
        other => first_line(&other.to_string()),
    };
    listing_modules(text)
}

/// An `import` of a module we lack (`BuiltinModules`) says so as
/// `require` does, and lists ours.
fn listing_modules(text: String) -> String {
    if let Some(name) = unresolved_module(&text) {
        let names: Vec<&str> = MODULES.iter().map(|(module, _)| *module).collect();
        return format!(
            "Error: Cannot find module '{name}'{BUILT_IN}{}",
            names.join(", ")
        );
    }
    text
}

/// The module an engine's resolving error names (`ReferenceError: Error
/// resolving module 'knex' from 'code': …`).
fn unresolved_module(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("ReferenceError: Error resolving module '")?;
    rest.split_once('\'').map(|(name, _)| name)
}

/// The 1-based line and column of the first quoted `name` in `code` that an
/// `import` or `export … from` names (the module of a failed import).
fn imported_at(code: &str, name: &str) -> Option<(u32, u32)> {
    code.lines().enumerate().find_map(|(number, line)| {
        let at = ['\'', '"']
            .iter()
            .find_map(|quote| line.find(&format!("{quote}{name}{quote}")))?;
        let before = &line[..at];
        (before.contains("import") || before.contains("from"))
            .then(|| (number as u32 + 1, before.chars().count() as u32 + 1))
    })
}

/// `process.emit(event, ...args)` in `ctx`'s realm if `process` has
/// listeners for `event`: whether it had (a listener's throw is the error).
fn emit_to_listeners<'js>(
    ctx: &Ctx<'js>,
    event: &str,
    args: Vec<JsValue<'js>>,
) -> rquickjs::Result<bool> {
    let Ok(process) = ctx.globals().get::<_, JsObject>("process") else {
        return Ok(false);
    };
    let count: Function = process.get("listenerCount")?;
    let listeners: f64 = count.call((This(process.clone()), event))?;
    if listeners < 1.0 {
        return Ok(false);
    }
    let emit: Function = process.get("emit")?;
    emit.call::<_, ()>((This(process), event, Rest(args)))?;
    Ok(true)
}

/// The engine's report of a promise rejected with no handler (and of a
/// handler added to one later): the promises the run reports if they are
/// still unhandled once the microtasks are done ([`ScriptRun::report_unhandled`]).
fn track_rejections(host: Rc<Host>, server: u32) -> rquickjs::runtime::RejectionTracker {
    Box::new(move |ctx, promise, reason, handled| {
        let mut unhandled = host.unhandled.borrow_mut();
        if handled {
            unhandled.retain(|rejected| {
                rejected.server != server
                    || rejected
                        .promise
                        .clone()
                        .restore(&ctx)
                        .map_or(true, |known| known != promise)
            });
        } else {
            unhandled.push(Unhandled {
                server,
                request: host.current.get(),
                promise: Persistent::save(&ctx, promise),
                reason: Persistent::save(&ctx, reason),
            });
        }
    })
}

/// What follows "Cannot find module 'NAME'" (and prelude.js's `require`
/// says the same).
const BUILT_IN: &str = ": the built-in modules are ";

/// The text of an error that escaped a job or a call: the budget's own
/// message when the budget stopped it.
fn budget_text<'js>(realm: &Realm, ctx: &Ctx<'js>, error: &JsValue<'js>) -> String {
    if realm.ticks.get() > TICK_BUDGET {
        return stopped(ctx, error, &realm.code);
    }
    describe_error(ctx, error)
}

/// The budget's message, with the script's function that was running and
/// the loop that ran, found from the last position the engine kept in that
/// function (it keeps none inside `while (true) {}`; see [`next_loop`]),
/// else that position.
fn stopped<'js>(ctx: &Ctx<'js>, error: &JsValue<'js>, code: &str) -> String {
    let stack = error
        .as_object()
        .and_then(|error| error.get::<_, String>("stack").ok())
        .unwrap_or_else(|| {
            drop(ctx.catch());
            String::new()
        });
    let frame = stack.lines().find(|line| line.contains("(code:"));
    let Some(frame) = frame else {
        return RAN_TOO_LONG.to_string();
    };
    let name = frame
        .trim()
        .strip_prefix("at ")
        .and_then(|rest| rest.split(" (").next())
        .unwrap_or_default();
    let place = match name.starts_with('<') {
        true => ", in the script's top level".to_string(),
        false => format!(", in {name}"),
    };
    let kept = super::error::find_position(frame);
    match kept.map(|(line, column)| next_loop(code, line, column).unwrap_or((line, column))) {
        Some((line, column)) => format!("{RAN_TOO_LONG}{place} (line {line}, column {column})"),
        None => format!("{RAN_TOO_LONG}{place}"),
    }
}

/// The loop the engine was in at `line`:`column`: the last `for`, `while`
/// or `do` that starts on that line at or before it, else the first one
/// after it (outside `//` comments); 1-based.
fn next_loop(code: &str, line: u32, column: u32) -> Option<(u32, u32)> {
    let starts = |text: &str| -> Vec<u32> {
        let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
        let text = text.split("//").next().unwrap_or_default();
        let chars: Vec<char> = text.chars().collect();
        (0..chars.len())
            .filter(|&start| start == 0 || !is_ident(chars[start - 1]))
            .filter(|&start| {
                ["for", "while", "do"].iter().any(|keyword| {
                    let end = start + keyword.len();
                    end <= chars.len()
                        && chars[start..end].iter().copied().eq(keyword.chars())
                        && !chars.get(end).copied().is_some_and(is_ident)
                })
            })
            .map(|start| start as u32 + 1)
            .collect()
    };
    let lines: Vec<&str> = code.lines().collect();
    let here = starts(lines.get(line.checked_sub(1)? as usize)?);
    if let Some(&at) = here.iter().rev().find(|&&at| at <= column) {
        return Some((line, at));
    }
    if let Some(&at) = here.iter().find(|&&at| at > column) {
        return Some((line, at));
    }
    lines
        .iter()
        .enumerate()
        .skip(line as usize)
        .find_map(|(index, text)| starts(text).first().map(|&at| (index as u32 + 1, at)))
}

/// An error that escaped a call into the realm, as text (the budget's
/// message when the budget stopped it).
fn failure(realm: &Realm, ctx: &Ctx<'_>, error: rquickjs::Error) -> String {
    match error {
        rquickjs::Error::Exception => {
            let thrown = ctx.catch();
            budget_text(realm, ctx, &thrown)
        }
        other => first_line(&other.to_string()),
    }
}

/// Calls a callback the host kept (a timer's, a `process.nextTick`'s)
/// with the arguments it kept for it: the text of an error that escaped
/// it ([`stray_error`]), if one did.
fn call_kept(
    realm: &Realm,
    callback: Persistent<Function<'static>>,
    args: impl IntoIterator<Item = Persistent<JsValue<'static>>>,
) -> Option<String> {
    realm.context.with(|ctx| {
        let called = callback.restore(&ctx).and_then(|callback| {
            let args = args
                .into_iter()
                .map(|arg| arg.restore(&ctx))
                .collect::<rquickjs::Result<Vec<_>>>()?;
            callback.call::<_, ()>((Rest(args),))
        });
        called
            .err()
            .and_then(|error| stray_error(realm, &ctx, error))
    })
}

/// An error a timer's or a tick's callback threw, outside any request's
/// chain: Node 20 hands it to the `process.on("uncaughtException", (error,
/// origin) => …)` listeners, else exits. None if listeners took it (a
/// listener's own throw is the error); else its text, which the run logs
/// as `uncaught …`. A budget's stop goes to no listener.
fn stray_error(realm: &Realm, ctx: &Ctx<'_>, error: rquickjs::Error) -> Option<String> {
    if !matches!(error, rquickjs::Error::Exception) || realm.ticks.get() > TICK_BUDGET {
        return Some(failure(realm, ctx, error));
    }
    let thrown = ctx.catch();
    let origin = rquickjs::String::from_str(ctx.clone(), "uncaughtException").ok()?;
    match emit_to_listeners(
        ctx,
        "uncaughtException",
        vec![thrown.clone(), origin.into_value()],
    ) {
        Ok(true) => None,
        Ok(false) => Some(budget_text(realm, ctx, &thrown)),
        Err(error) => Some(failure(realm, ctx, error)),
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().to_string()
}

/// Builds a server's realm: the globals, the prelude, then the script's
/// top level; finds its `handle`.
fn load(
    host: &Rc<Host>,
    server: u32,
    code: &str,
    gc: usize,
    route: Option<&str>,
) -> Result<Realm, ScriptError> {
    let fail = |error: rquickjs::Error| ScriptError::new(error.to_string());
    let meter = Meter::new(HEAP_BUDGET);
    let runtime = Runtime::new_with_alloc(Budgeted(meter.clone())).map_err(fail)?;
    // Before the first evaluation: the engine measures its stack from here.
    runtime.set_max_stack_size(STACK_BUDGET);
    runtime.set_gc_threshold(gc);
    let ticks = Rc::new(Cell::new(0));
    let counted = ticks.clone();
    runtime.set_interrupt_handler(Some(Box::new(move || {
        let n = counted.get() + 1;
        counted.set(n);
        n > TICK_BUDGET
    })));
    runtime.set_loader(BuiltinModules, module_loader());
    runtime.set_host_promise_rejection_tracker(Some(track_rejections(host.clone(), server)));
    let context = Context::full(&runtime).map_err(fail)?;
    let jobs = context.with(|ctx| JobContext::install(&ctx, host));
    let link = Link::new(host.clone(), server);
    let loaded = context.with(|ctx| -> Result<_, ScriptError> {
        let internal = |ctx: &Ctx<'_>, error| ScriptError::new(error_text(ctx, error));
        globals::register(&ctx, &link).map_err(|e| internal(&ctx, e))?;
        // The script's own lines, which `assert` quotes, and which name a
        // deep recursion's line (`globals::describe_error`).
        ctx.globals()
            .get::<_, JsObject>("__host")
            .and_then(|hidden| hidden.set("code", code))
            .map_err(|e| internal(&ctx, e))?;
        let _ = ctx.store_userdata(globals::ScriptCode(code.into()));
        prelude::eval(&ctx).map_err(|e| internal(&ctx, e))?;
        let then = ctx
            .eval::<Function, _>("Promise.prototype.then")
            .map_err(|e| internal(&ctx, e))?;
        let before_script = global_names(&ctx);
        host.current.set(NO_REQUEST);
        ticks.set(0);
        let loaded = match is_module(code) {
            true => evaluate_module(&ctx, code, route),
            false => ctx
                .eval_with_options::<(), _>(code, options("code"))
                .and_then(|()| match route {
                    Some(route) => chosen_route(&ctx, route),
                    None => ctx.eval::<JsValue, _>(SCRIPT_HANDLER),
                })
                .map(TopLevel::Ready),
        };
        let (handle, booting) = match loaded {
            Ok(TopLevel::Ready(handle)) => (
                Some(Persistent::save(&ctx, handler_function(handle)?)),
                None,
            ),
            Ok(TopLevel::Waiting { done, exports }) => {
                let booting = Booting {
                    done: Persistent::save(&ctx, done),
                    exports: Persistent::save(&ctx, exports),
                };
                (None, Some(booting))
            }
            Err(error) => {
                if meter.exhausted() {
                    drop(ctx.catch());
                    return Err(ScriptError::new(format!(
                        "{OUT_OF_MEMORY}, in the script's top level"
                    )));
                }
                return Err(top_level_error(&ctx, error, code, &ticks));
            }
        };
        Ok((handle, booting, Persistent::save(&ctx, then), before_script))
    });
    let (handle, booting, then, before_script) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            // What the top level left in the host goes before its engine.
            host.clear();
            return Err(error);
        }
    };
    Ok(Realm {
        handle,
        booting,
        then,
        link,
        before_script,
        code: Rc::from(code),
        ticks,
        meter,
        context,
        runtime,
        _jobs: jobs,
    })
}

const NO_HANDLER: &str = "the script must define `async function handle(req)`, or export it \
    (`module.exports = { handle }`, `export async function handle`, `export default`; \
    `handler` works too), or register an Express or Fastify route";

/// A handler found after the top level: a function, else the error (a
/// string is why `route=` chose none, see `chosen_route`).
fn handler_function(handle: JsValue<'_>) -> Result<Function<'_>, ScriptError> {
    if let Some(reason) = handle.as_string() {
        let reason = reason.to_string().unwrap_or_default();
        return Err(ScriptError::route(reason));
    }
    handle
        .into_function()
        .ok_or_else(|| ScriptError::new(NO_HANDLER))
}

/// The route `route=` (`--route`) chose: the handler of the Express or
/// Fastify route registered with that method and path, which wins over a
/// `handle`; else a string saying which routes the app registers.
fn chosen_route<'js>(ctx: &Ctx<'js>, route: &str) -> rquickjs::Result<JsValue<'js>> {
    let pick: Function = ctx.eval("globalThis[Symbol.for('interleave.route')]")?;
    pick.call((route,))
}

/// A top level that ran: its handler (a function, if the script has one),
/// or an ES module still awaiting the event loop.
enum TopLevel<'js> {
    Ready(JsValue<'js>),
    Waiting {
        done: Promise<'js>,
        exports: JsObject<'js>,
    },
}

/// A script's handler: a global `handle`, or CommonJS's `module.exports`
/// (`{ handle }`, or the function itself).
/// Else the route registered on an Express or Fastify app (the prelude's
/// `Symbol.for("interleave.route")`).
const SCRIPT_HANDLER: &str = "typeof handle === 'function' ? handle \
    : module.exports && typeof module.exports.handle === 'function' ? module.exports.handle \
    : module.exports && typeof module.exports.handler === 'function' ? module.exports.handler \
    : typeof handler === 'function' ? handler \
    : globalThis[Symbol.for('interleave.route')]() \
    ?? (typeof module.exports === 'function' ? module.exports : undefined)";

/// Whether `code` is an ES module: a line of it starts with an `import` or
/// `export` statement (as top-level ones do; `import(` and `import.meta`
/// are not statements).
fn is_module(code: &str) -> bool {
    code.lines().any(|line| {
        let line = line.trim_start();
        let statement = |keyword: &str| {
            line.strip_prefix(keyword)
                .and_then(|rest| rest.chars().next())
                .is_some_and(|next| matches!(next, ' ' | '\t' | '{' | '*' | '"' | '\''))
        };
        statement("import") || statement("export")
    })
}

/// Evaluates `code` as the ES module `code`: its top-level `await`s
/// settled by the promise jobs alone give its handler; one that waits on
/// the event loop leaves it `Waiting`.
fn evaluate_module<'js>(
    ctx: &Ctx<'js>,
    code: &str,
    route: Option<&str>,
) -> rquickjs::Result<TopLevel<'js>> {
    let (module, done) = Module::declare(ctx.clone(), "code", code)?.eval()?;
    let exports = module.namespace()?;
    match done.finish::<()>() {
        Ok(()) => module_handler(ctx, &exports, route).map(TopLevel::Ready),
        Err(rquickjs::Error::WouldBlock) => Ok(TopLevel::Waiting { done, exports }),
        Err(error) => Err(error),
    }
}

/// An evaluated module's handler: the export `handle`, or the default
/// export (the function, or an object with `handle`), or the route of an
/// Express or Fastify app; the route `route` names, if given.
fn module_handler<'js>(
    ctx: &Ctx<'js>,
    exports: &JsObject<'js>,
    route: Option<&str>,
) -> rquickjs::Result<JsValue<'js>> {
    if let Some(route) = route {
        return chosen_route(ctx, route);
    }
    // `handle`, else `handler` (a Lambda-style export).
    for name in ["handle", "handler"] {
        let handle: JsValue = exports.get(name)?;
        if handle.is_function() {
            return Ok(handle);
        }
    }
    let default: JsValue = exports.get("default")?;
    if let Some(handle) = default
        .as_object()
        .filter(|_| !default.is_function())
        .map(|object| object.get::<_, JsValue>("handle"))
        .transpose()?
        .filter(JsValue::is_function)
    {
        return Ok(handle);
    }
    // A route of an Express or Fastify app, before a default export that
    // is a function (`export default app`).
    let route: JsValue = ctx.eval("globalThis[Symbol.for('interleave.route')]()")?;
    if route.is_function() || !default.is_function() {
        return Ok(route);
    }
    Ok(default)
}

/// Evaluation as a script of its own file name (`code`, `prelude`), so
/// positions in stacks name it.
fn options(file: &str) -> EvalOptions {
    let mut options = EvalOptions::default();
    options.filename = Some(file.to_string());
    options.strict = false;
    options.global = true;
    options.backtrace_barrier = true;
    options
}

/// The character at a 1-based line and column.
fn char_at(code: &str, line: u32, column: u32) -> Option<char> {
    let text = code.lines().nth(line.checked_sub(1)? as usize)?;
    text.chars().nth(column.checked_sub(1)? as usize)
}

fn top_level_error(
    ctx: &Ctx<'_>,
    error: rquickjs::Error,
    code: &str,
    ticks: &Cell<u64>,
) -> ScriptError {
    let text = match error {
        rquickjs::Error::Exception => {
            let thrown = ctx.catch();
            if ticks.get() > TICK_BUDGET {
                stopped(ctx, &thrown, code)
            } else {
                describe_error(ctx, &thrown)
            }
        }
        other => first_line(&other.to_string()),
    };
    let text = listing_modules(text);
    if text.starts_with("SyntaxError") {
        let mut error = ScriptError::new(text);
        // The engine resolves private names once the script is parsed,
        // and says of one no class declares (`#n in c`) no position.
        if error.line.is_none() {
            let private = error
                .message
                .strip_prefix("SyntaxError: undefined private field '")
                .and_then(|rest| rest.strip_suffix('\''));
            if let Some((line, column)) =
                private.and_then(|name| super::error::undeclared_private(code, name))
            {
                error.line = Some(line);
                error.column = Some(column);
            }
        }
        if let (Some(line), Some(column)) = (error.line, error.column) {
            if char_at(code, line, column) == Some(':') {
                error
                    .message
                    .push_str(" (a type annotation? this is TypeScript, not JavaScript)");
            }
        }
        return error;
    }
    let unknown = unknown_name(&text).map(str::to_string);
    let missing = text
        .strip_prefix("Error: Cannot find module '")
        .and_then(|rest| rest.split_once('\''))
        .and_then(|(name, _)| imported_at(code, name));
    let mut found = ScriptError::new(text);
    if let (None, Some((line, column))) = (found.line, missing) {
        found.line = Some(line);
        found.column = Some(column);
    }
    if let Some(name) = unknown {
        found.message.push_str(&format!("{GLOBALS_HINT}{GLOBALS}"));
        // The engine gives no position for the script's top level: the
        // name's first use is where it failed.
        if found.line.is_none() {
            if let Some((line, column)) = first_use(code, &name) {
                found.line = Some(line);
                found.column = Some(column);
            }
        }
    }
    found
}

/// The name an error says is not defined (`ReferenceError: x is not
/// defined`).
fn unknown_name(error: &str) -> Option<&str> {
    error
        .strip_prefix("ReferenceError: ")
        .and_then(|rest| rest.split_once(" is not defined"))
        .map(|(name, _)| name)
}

/// An SQL table's row as a key of its own among those whose versions
/// `State::seen` follows (beside `row_key`'s `db` rows).
fn sql_row_key(table: &str, index: usize) -> String {
    format!("\u{0}{table}\u{0}{index}")
}

/// Whether `code` may act on a row it read: change it in place (a
/// `db.update` with `$inc`, SQL's `UPDATE …` or `DO UPDATE`) or write
/// into what a SELECT counted (`INSERT …`, `UPDATE …`, `DELETE …`). A
/// rough test of its text: a false yes only costs a stack capture per row
/// read and write.
fn acts_on_rows(code: &str) -> bool {
    let bytes = code.as_bytes();
    let word = |word: &[u8]| {
        bytes
            .windows(word.len())
            .any(|found| found.eq_ignore_ascii_case(word))
    };
    code.contains("$inc")
        || [&b"update "[..], b"insert ", b"delete "]
            .into_iter()
            .any(word)
}

/// The identifiers of `code`, its strings' and comments' text left out
/// (a template's `${…}` too: a rough cut, for `uses_between`).
fn code_words(code: &str) -> Vec<&str> {
    let bytes = code.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'\'' | b'"' | b'`') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = code[i..].find('\n').map_or(bytes.len(), |at| i + at);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = code[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |at| i + 2 + at + 2);
            }
            b if b.is_ascii_alphabetic() || b == b'_' || b == b'$' => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'$'))
                {
                    i += 1;
                }
                words.push(&code[start..i]);
            }
            _ => i += 1,
        }
    }
    words
}

/// The 1-based line and column of the first use of identifier `name`.
fn first_use(code: &str, name: &str) -> Option<(u32, u32)> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    for (number, line) in code.lines().enumerate() {
        let mut from = 0;
        while let Some(at) = line[from..].find(name) {
            let start = from + at;
            let end = start + name.len();
            let before = line[..start].chars().next_back();
            let after = line[end..].chars().next();
            if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) && before != Some('.')
            {
                let column = line[..start].chars().count() + 1;
                return Some((number as u32 + 1, column as u32));
            }
            from = end;
        }
    }
    None
}

/// Stages of [`warm_up`].
pub const WARM_UP_STAGES: u32 = 3;

/// A small script that calls what a handler's first run calls: an async
/// function, awaits, objects, strings, a class and a thrown error.
const WARM_UP: &str = "
class Store { constructor() { this.rows = new Map(); } get(key) { return this.rows.get(key); } }
async function handle(req) {
  const store = new Store();
  const row = await Promise.resolve({ id: req.id, name: `user:${req.id}` });
  store.rows.set(row.name, [row.id, ...Object.keys(row)]);
  try { JSON.parse('{'); } catch (error) { row.error = String(error); }
  for (const key of ['a', 'b']) { await null; row[key] = key.length; }
  return store.get(row.name).length;
}
handle({ id: 1 });
";

/// Runs the engine once, thrown away, so that its code is compiled before
/// the run that counts. A browser compiles a wasm function on its first
/// call, and a script's first load calls thousands (the realm, the
/// parser, the compiler, the VM): in one task, that is a long one. The page
/// calls the stages in tasks of their own (`Debugger::warmed`): 0 builds a
/// realm; 1 also compiles the prelude (its bytecode, kept for every realm
/// after); 2 also runs a small async script to its end. Each builds its
/// own realm, a few milliseconds once compiled.
pub fn warm_up(stage: u32) {
    let Ok(runtime) = Runtime::new() else {
        return;
    };
    runtime.set_max_stack_size(STACK_BUDGET);
    let Ok(context) = Context::full(&runtime) else {
        return;
    };
    if stage == 0 {
        return;
    }
    context.with(|ctx| {
        let done = match stage {
            1 => prelude::compiled(&ctx),
            _ => ctx.eval::<(), _>(WARM_UP),
        };
        if done.is_err() {
            drop(ctx.catch());
        }
    });
    while runtime.is_job_pending() {
        if let Err(exception) = runtime.execute_pending_job() {
            exception.0.with(|ctx| drop(ctx.catch()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::next_loop;

    #[test]
    fn the_loop_after_a_position_is_found_by_its_keyword() {
        let code = "function f() {\n  doSomething(); // for a while\n  let before = 1;\n  \
                    while (before) {}\n}";
        assert_eq!(next_loop(code, 1, 1), Some((4, 3)));
        // On the loop's own line, the loop that starts before the position.
        assert_eq!(next_loop(code, 4, 12), Some((4, 3)));
        assert_eq!(next_loop(code, 5, 1), None);
        assert_eq!(next_loop("do { x++ } while (1)", 1, 1), Some((1, 1)));
        assert_eq!(next_loop("for(;;);", 1, 1), Some((1, 1)));
    }
}
