//! What the requests of one real trial share: the config, the clock, the
//! injected latencies, the counters, and each simulated app server's
//! in-process locks (keyed mutexes, single-flight calls). One thread runs
//! every request (a tokio `LocalSet`), as one Node process would.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{oneshot, Mutex, Semaphore};

use crate::config::{Config, Micros};
use crate::real::cache::CacheServer;
use crate::real::replay::{Replay, Turn};
use crate::sim::rng::{SimRng, Stream};
use crate::sim::trace::OpKind;
use crate::sim::{Latencies, Metrics};

/// The counters of a real trial: the model's own (`Metrics`, named as
/// `interleave run`'s, reached through `Deref`), what only real servers
/// report, and what counting needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    counts: Metrics,
    pub reports: Reports,
    pub in_section: HashMap<u32, u64>,
    pub latencies: Vec<Micros>,
}

impl std::ops::Deref for Tally {
    type Target = Metrics;

    fn deref(&self) -> &Metrics {
        &self.counts
    }
}

impl std::ops::DerefMut for Tally {
    fn deref_mut(&mut self) -> &mut Metrics {
        &mut self.counts
    }
}

/// What only real servers report, beside the model's counters.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Reports {
    /// SQLSTATE 40001 reports (each failed attempt, retried or not).
    pub serialization_failures: u64,
    /// SQLSTATE 23505 reports (the `db_unique` constraint).
    pub unique_violations: u64,
    /// `release=delete` (Redis): releases that deleted another holder's lock.
    pub foreign_lock_deletes: u64,
    /// `release=owner`: releases that found another holder's token and
    /// deleted nothing.
    pub owner_release_refused: u64,
}

impl Tally {
    pub fn count_failure(&mut self, failure: crate::real::db::DbFailure) {
        use crate::real::db::DbFailure;
        match failure {
            DbFailure::Serialization => self.reports.serialization_failures += 1,
            DbFailure::UniqueViolation => self.reports.unique_violations += 1,
            DbFailure::Fenced => self.rejected_writes += 1,
            DbFailure::Other => {}
        }
    }

    /// The counters at the end of the trial, with what the tally does not
    /// keep: the tables' rows and the requests still unanswered.
    pub fn metrics(&self, orders: u64, duplicate_tickets: u64, hung: u64) -> Metrics {
        Metrics {
            orders,
            duplicate_tickets,
            hung,
            latency_us: Latencies::of(&self.latencies),
            ..self.counts.clone()
        }
    }
}

/// Draws each operation's latency from the fragment's distribution (one
/// seeded stream, in issue order, like the model) plus a small seeded
/// jitter, and sleeps it before the operation.
pub struct Delays {
    rng: SimRng,
    jitter: SimRng,
    /// XFetch's early-refresh draws (the model's stream of them).
    xfetch: SimRng,
    max_jitter: Micros,
}

impl Delays {
    pub fn new(seed: u64, max_jitter: Micros) -> Self {
        Delays {
            rng: SimRng::new(seed, Stream::Latency),
            jitter: SimRng::new(seed, Stream::Routing),
            xfetch: SimRng::new(seed, Stream::Xfetch),
            max_jitter,
        }
    }

    /// One XFetch draw in `(0, 1]`.
    pub fn xfetch_draw(&mut self) -> f64 {
        1.0 - self.xfetch.unit()
    }

    pub fn draw(&mut self, latency: crate::config::Latency) -> Micros {
        let base = self.rng.latency(latency);
        let jitter = if self.max_jitter == 0 {
            0
        } else {
            self.jitter.below(self.max_jitter + 1)
        };
        base + jitter
    }
}

/// One simulated app server's in-process locks.
#[derive(Default)]
pub struct ServerLocks {
    pub mutexes: RefCell<HashMap<u32, Arc<Mutex<()>>>>,
    /// Running single-flight calls: the waiters of each, to share its result.
    pub flights: RefCell<HashMap<u32, Vec<oneshot::Sender<u64>>>>,
    /// Emitter lock: the locked keys, and the `once` listeners of each.
    pub emitter_locked: RefCell<HashSet<u32>>,
    pub emitter_listeners: RefCell<HashMap<u32, Vec<oneshot::Sender<()>>>>,
    /// Ticket lock: the model's own ticket counters and leases (plain data).
    pub tickets: RefCell<crate::world::ServerLocks>,
}

pub struct World {
    pub config: Config,
    pub cache_server: CacheServer,
    /// Prefix of every cache key this trial writes.
    pub run_id: String,
    start: Cell<Instant>,
    pub tally: RefCell<Tally>,
    pub delays: RefCell<Delays>,
    pub servers: Vec<ServerLocks>,
    /// `db_pool`: statements in flight at once, shared by all servers.
    pub pool: Option<Arc<Semaphore>>,
    /// The simulated order the trial replays (none with `--free`).
    pub replay: Option<Rc<Replay>>,
    /// A connection of the trial's own, to see a replayed statement wait
    /// for a lock (`pg_stat_activity`).
    pub watcher: Option<Rc<tokio_postgres::Client>>,
    /// In a replay, each lock key's simulated expiry ([`World::lease`]).
    leases: RefCell<HashMap<String, Micros>>,
}

/// How long a replay's servers keep a lock key: longer than any trial.
const KEPT: Micros = 120 * 1_000_000;

impl World {
    pub fn new(config: Config, cache_server: CacheServer, run_id: String, delays: Delays) -> Self {
        let servers = (0..config.servers.max(1))
            .map(|_| ServerLocks::default())
            .collect();
        let pool = config
            .db_pool
            .map(|size| Arc::new(Semaphore::new(size as usize)));
        World {
            config,
            cache_server,
            run_id,
            start: Cell::new(Instant::now()),
            tally: RefCell::new(Tally::default()),
            delays: RefCell::new(delays),
            servers,
            pool,
            replay: None,
            watcher: None,
            leases: RefCell::default(),
        }
    }

    /// Waits for `request`'s operation `kind` to be the next the replay
    /// lands, and for its simulated time; a free run (or a replay that has
    /// stopped following the simulation) goes at once.
    pub async fn turn(&self, request: u32, kind: OpKind) -> Turn {
        let Some(replay) = &self.replay else {
            return Turn::free();
        };
        match replay.turn(request, kind).await {
            Some((at, outcome)) => {
                sleep_us(at.saturating_sub(self.now())).await;
                Turn::held(replay.clone(), request, kind, outcome)
            }
            None => Turn::free(),
        }
    }

    /// The time the model's rules read (an entry's expiry, a ticket's
    /// lease): in a replay the simulated time of the operation that landed
    /// last, else the trial clock.
    pub fn clock(&self) -> Micros {
        self.replay
            .as_ref()
            .and_then(|replay| replay.clock())
            .unwrap_or_else(|| self.now())
    }

    /// Whether the trial replays the simulated order (and still follows it).
    fn replaying(&self) -> bool {
        self.replay
            .as_ref()
            .is_some_and(|replay| replay.clock().is_some())
    }

    /// The TTL to send with a lock key stored now for `ttl`: in a replay
    /// the server keeps the key for the whole trial, and its simulated
    /// expiry is noted once the store succeeds ([`World::leased`]): the
    /// first operation on the key at or after it deletes the key first
    /// ([`World::lapsed`]), so the expiry lands in the simulated order
    /// however late the real clock runs.
    pub fn kept(&self, ttl: Micros) -> Micros {
        match self.replaying() && ttl > 0 {
            true => KEPT,
            false => ttl,
        }
    }

    /// Lock key `name` was stored now for `ttl` (0: no expiry).
    pub fn leased(&self, name: &str, ttl: Micros) {
        if !self.replaying() {
            return;
        }
        let mut leases = self.leases.borrow_mut();
        match ttl {
            0 => leases.remove(name),
            _ => leases.insert(name.to_string(), self.clock().saturating_add(ttl)),
        };
    }

    /// Whether lock key `name`'s simulated lease ran out by now (once: the
    /// caller then deletes it on the server).
    pub fn lapsed(&self, name: &str) -> bool {
        if !self.replaying() {
            return false;
        }
        let mut leases = self.leases.borrow_mut();
        match leases.get(name) {
            Some(&until) if self.clock() >= until => {
                leases.remove(name);
                true
            }
            _ => false,
        }
    }

    /// Lock key `name` is gone from the server (deleted).
    pub fn unleased(&self, name: &str) {
        self.leases.borrow_mut().remove(name);
    }

    /// Whether backend `pid` waits for a lock now.
    pub async fn waits_for_lock(&self, pid: i32) -> bool {
        match &self.watcher {
            Some(watcher) => crate::real::db::waits_for_lock(watcher, pid).await,
            None => false,
        }
    }

    /// Microseconds since the trial started.
    pub fn now(&self) -> Micros {
        self.start.get().elapsed().as_micros() as Micros
    }

    /// The trial starts now (after its setup).
    pub fn restart_clock(&self) {
        self.start.set(Instant::now());
    }

    pub fn count(&self, add: impl FnOnce(&mut Tally)) {
        add(&mut self.tally.borrow_mut());
    }

    pub fn enter(&self, key: u32) {
        let mut tally = self.tally.borrow_mut();
        let holders = tally.in_section.entry(key).or_insert(0);
        *holders += 1;
        let holders = *holders;
        tally.max_in_critical_section = tally.max_in_critical_section.max(holders);
    }

    pub fn exit(&self, key: u32) {
        if let Some(holders) = self.tally.borrow_mut().in_section.get_mut(&key) {
            *holders = holders.saturating_sub(1);
        }
    }

    pub fn mutex(&self, server: u32, key: u32) -> Arc<Mutex<()>> {
        self.servers[server as usize]
            .mutexes
            .borrow_mut()
            .entry(key)
            .or_default()
            .clone()
    }

    pub fn data_key(&self, item: u32) -> String {
        format!("{}:item:{item}", self.run_id)
    }

    pub fn lock_key(&self, key: u32) -> String {
        format!("{}:lock:{key}", self.run_id)
    }

    /// Sleeps a freshly drawn `latency`.
    pub async fn delay(&self, latency: crate::config::Latency) {
        let micros = self.delays.borrow_mut().draw(latency);
        sleep_us(micros).await;
    }
}

pub async fn sleep_us(micros: Micros) {
    if micros > 0 {
        tokio::time::sleep(Duration::from_micros(micros)).await;
    }
}
