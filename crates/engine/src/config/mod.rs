//! The scenario configuration: every key of DESIGN.md §6 with its default.
//! The ground floor that the engine, the scenarios, explore, the debugger
//! and the CLI all stand on.
//!
//! Parsing from and serializing to the URL fragment lives in `url.rs`, the
//! spelling of `schedule=` in `schedule.rs`.

pub mod number;
pub mod schedule;
pub mod url;

pub use schedule::Schedule;

/// Virtual time and durations, in integer microseconds.
pub type Micros = u64;

pub const MS: Micros = 1_000;
pub const SECOND: Micros = 1_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ScenarioKind {
    Ticket,
    Stampede,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum StrategyKind {
    None,
    GetSet,
    Add,
    KeyedMutex,
    SingleFlight,
    EmitterLock,
    TicketLock,
    StaleWhileRevalidate,
    Xfetch,
}

impl StrategyKind {
    /// Cache-only defences (no lock): on the ticket story they do nothing.
    pub fn is_cache_only(self) -> bool {
        matches!(
            self,
            StrategyKind::StaleWhileRevalidate | StrategyKind::Xfetch
        )
    }

    pub const ALL: [StrategyKind; 9] = [
        StrategyKind::None,
        StrategyKind::GetSet,
        StrategyKind::Add,
        StrategyKind::KeyedMutex,
        StrategyKind::SingleFlight,
        StrategyKind::EmitterLock,
        StrategyKind::TicketLock,
        StrategyKind::StaleWhileRevalidate,
        StrategyKind::Xfetch,
    ];

    /// The name used in URLs, the CLI and the UI.
    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::None => "none",
            StrategyKind::GetSet => "get-set",
            StrategyKind::Add => "add",
            StrategyKind::KeyedMutex => "keyed-mutex",
            StrategyKind::SingleFlight => "single-flight",
            StrategyKind::EmitterLock => "emitter-lock",
            StrategyKind::TicketLock => "ticket-lock",
            StrategyKind::StaleWhileRevalidate => "stale-while-revalidate",
            StrategyKind::Xfetch => "xfetch",
        }
    }

    /// Strategies that take a lock (and so can double-check under it).
    pub fn is_lock(self) -> bool {
        matches!(
            self,
            StrategyKind::GetSet
                | StrategyKind::Add
                | StrategyKind::KeyedMutex
                | StrategyKind::EmitterLock
                | StrategyKind::TicketLock
        )
    }
}

impl ScenarioKind {
    pub fn name(self) -> &'static str {
        match self {
            ScenarioKind::Ticket => "ticket",
            ScenarioKind::Stampede => "stampede",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Routing {
    RoundRobin,
    Sticky,
    Random,
}

/// A latency distribution; a value is drawn per operation at issue time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Latency {
    Const(Micros),
    /// Inclusive bounds, `low <= high`.
    Uniform(Micros, Micros),
    /// Exponential with this mean.
    Exp(Micros),
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Arrival {
    /// Everyone at time 0.
    Burst,
    /// The first at 0, then one every gap.
    Gap(Micros),
    /// A Poisson process with this rate per second.
    Poisson(f64),
    /// One time per request (stampede) or per user (ticket).
    At(Vec<Micros>),
}

/// How `get-set` and `add` release their lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ReleaseMode {
    /// An unconditional `delete`: a slow holder may delete the next one's lock.
    Delete,
    /// Delete only if the value is still this holder's token, atomically
    /// (Redis's check-and-delete script).
    Owner,
}

/// Request `request` stalls for `duration` right after entering its
/// critical section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pause {
    pub request: u32,
    pub duration: Micros,
}

/// How the ticket body uses DB transactions (`docs/transactions.md`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum TxMode {
    /// Each statement commits on its own (autocommit).
    #[default]
    None,
    /// Find and insert in one READ COMMITTED transaction: still duplicates.
    ReadCommitted,
    /// SERIALIZABLE (PostgreSQL's SSI): of two transactions that both read
    /// "no order" and inserted, the later committer fails.
    Serializable,
    /// `SELECT ... FOR UPDATE` on the user's row first: a lock in the DB,
    /// shared by every server, held until commit.
    ForUpdate,
}

impl TxMode {
    pub fn name(self) -> &'static str {
        match self {
            TxMode::None => "none",
            TxMode::ReadCommitted => "read-committed",
            TxMode::Serializable => "serializable",
            TxMode::ForUpdate => "for-update",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CacheStart {
    Cold,
    Warm,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Config {
    pub version: u32,
    pub scenario: ScenarioKind,
    pub strategy: StrategyKind,
    pub seed: u64,
    pub servers: u32,
    pub routing: Routing,
    pub arrival: Arrival,
    pub cache_latency: Latency,
    pub db_latency: Latency,
    /// `None`: the same as `db_latency`.
    pub db_write_latency: Option<Latency>,
    /// `None`: unlimited connections.
    pub db_pool: Option<u32>,
    pub lock_ttl: Micros,
    pub poll: Micros,
    pub wait_timeout: Micros,
    /// `get-set`/`add` release.
    pub release: ReleaseMode,
    /// This request crashes on entering its critical section.
    pub crash: Option<u32>,
    pub pause: Option<Pause>,
    // ticket
    pub users: u32,
    pub clicks: u32,
    pub click_gap: Micros,
    pub await_insert: bool,
    /// Locks hand out fencing tokens; the DB rejects writes with an older one.
    pub fencing: bool,
    /// A unique constraint on (user, event) in `orders`.
    pub db_unique: bool,
    /// Whether and how find and insert run in a DB transaction.
    pub tx: TxMode,
    /// Serialization failures retried from the start of the transaction.
    pub tx_retries: u32,
    // stampede
    pub requests: u32,
    pub keys: u32,
    pub cache: CacheStart,
    /// `None`: warm entries expire at `ttl` (never when `ttl` is 0).
    pub expire_at: Option<Micros>,
    pub ttl: Micros,
    pub grace: Micros,
    pub double_check: bool,
    /// XFetch's eagerness (`beta`); 0 never refreshes early.
    pub beta: f64,
    /// Explore/manual mode: the choices to replay (empty: the normal run).
    pub schedule: Schedule,
}

impl Config {
    /// How many requests the scenario sends: a stampede's `requests`, a
    /// ticket's (or a script's) `users * clicks`.
    pub fn total_requests(&self) -> u64 {
        match self.scenario {
            ScenarioKind::Stampede => u64::from(self.requests),
            ScenarioKind::Ticket => u64::from(self.users) * u64::from(self.clicks),
        }
    }

    pub fn new(scenario: ScenarioKind) -> Self {
        Config {
            version: 1,
            scenario,
            strategy: StrategyKind::None,
            seed: 1,
            servers: 1,
            routing: Routing::RoundRobin,
            arrival: Arrival::Burst,
            cache_latency: Latency::Const(MS),
            db_latency: Latency::Const(20 * MS),
            db_write_latency: None,
            db_pool: None,
            lock_ttl: 10 * SECOND,
            poll: 10 * MS,
            wait_timeout: 5 * SECOND,
            release: ReleaseMode::Delete,
            crash: None,
            pause: None,
            users: 1,
            clicks: 2,
            click_gap: 0,
            await_insert: true,
            fencing: false,
            db_unique: false,
            tx: TxMode::None,
            tx_retries: 0,
            requests: 10,
            keys: 1,
            cache: CacheStart::Cold,
            expire_at: None,
            ttl: 60 * SECOND,
            grace: 0,
            double_check: true,
            beta: 1.0,
            schedule: Schedule::default(),
        }
    }

    pub fn write_latency(&self) -> Latency {
        self.db_write_latency.unwrap_or(self.db_latency)
    }
}

impl Default for Config {
    /// What a bare app URL opens.
    fn default() -> Self {
        Config::new(ScenarioKind::Stampede)
    }
}
