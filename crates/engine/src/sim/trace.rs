//! The trace: what happened at every step, for the debugger to draw, and a
//! stable hash of it that is equal natively and in wasm.

use serde::Serialize;

use crate::config::{Micros, ScenarioKind};

/// No request (never used today: every event belongs to one).
pub const NO_REQUEST: u32 = u32::MAX;

/// An operation on the world, or a timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpKind {
    CacheGet = 1,
    CacheSet,
    CacheAdd,
    CacheDelete,
    DbSelect,
    DbFindOrder,
    DbInsert,
    Sleep,
    /// Redis's check-and-delete script: delete the lock if it holds our token.
    CacheDeleteIfOwner,
    /// A `setImmediate` callback (the emitter lock's `emit`).
    Immediate,
    /// `SELECT ... FOR UPDATE` on the user's row (`tx=for-update`).
    DbLockRow,
    /// A transaction's COMMIT.
    DbCommit,
    // Scripted scenarios (`src/script/`): the operations a script sends.
    CacheGetStale,
    CacheDeleteIf,
    CacheIncr,
    DbFind,
    DbFindOne,
    DbUpdate,
    DbDelete,
    /// memcached's `replace`, Redis's `SET XX`.
    CacheReplace,
    /// Redis's `EXPIRE`/`PEXPIRE`.
    CacheExpire,
    /// One of redlock's Lua scripts (acquire, extend, release).
    CacheLockScript,
    // A script's `pg` statements (`src/script/sql/`).
    SqlSelect,
    /// `SELECT … FOR UPDATE`.
    SqlSelectForUpdate,
    SqlInsert,
    SqlUpdate,
    SqlDelete,
    SqlBegin,
    SqlCommit,
    SqlRollback,
    /// Redis's `WATCH` or `UNWATCH` on a client's connection.
    CacheWatch,
    /// Redis's `MULTI`…`EXEC` (or a pipeline): queued commands applied
    /// together when it lands.
    CacheExec,
    /// A read of a Redis hash (`HGET`, `HGETALL`, …).
    CacheHashGet,
    /// A write of a Redis hash (`HSET`, `HSETNX`, `HDEL`).
    CacheHashSet,
    /// A read of a Redis set (`SMEMBERS`, `SISMEMBER`, …).
    CacheSetRead,
    /// `SADD` or `SREM`.
    CacheSetWrite,
    /// A read of a Redis list (`LRANGE`, `LLEN`).
    CacheListRead,
    /// A push to or a pop from a Redis list.
    CacheListWrite,
    /// A read of a Redis sorted set (`ZRANGE`, `ZSCORE`, …).
    CacheZsetRead,
    /// A write of a Redis sorted set (`ZADD`, `ZREM`, …).
    CacheZsetWrite,
    /// Redis's `PTTL` or `TTL`: a key's time to live.
    CacheTtl,
    /// Redis's `PERSIST`: a key loses its expiry.
    CachePersist,
    /// Redis's `GETDEL`.
    CacheGetDelete,
    /// Redis's `GETSET`.
    CacheGetSet,
    /// Redis's `KEYS`.
    CacheKeys,
    /// One call of Redis's `SCAN`.
    CacheScan,
    /// Redis's `TYPE`.
    CacheType,
    /// Redis's `STRLEN`.
    CacheStrlen,
    /// Redis's `APPEND`.
    CacheAppend,
    /// Redis's `RENAME` or `RENAMENX`.
    CacheRename,
    /// Redis's `GETEX`: a read that may set or clear the expiry.
    CacheGetEx,
    /// Redis's `LMOVE` or `RPOPLPUSH`.
    CacheListMove,
    /// Redis's `PUBLISH` or `SPUBLISH`.
    CachePublish,
    /// Redis's `HINCRBY`: a hash field's count, changed in place.
    CacheHashIncr,
    /// `LOCK TABLE`.
    SqlLock,
    /// `SAVEPOINT`, `RELEASE SAVEPOINT` and `ROLLBACK TO SAVEPOINT`.
    SqlSavepoint,
    SqlRelease,
    SqlRollbackTo,
    /// `SET`, `SET LOCAL` or `RESET` of a session's parameter.
    SqlSet,
    /// `SHOW` of a session's parameter.
    SqlShow,
    /// memcached's `cas`: a store only if the value is the one `gets` saw.
    CacheCas,
}

impl OpKind {
    /// Which latency an operation of this kind takes, if it goes to a server.
    pub fn server(self) -> Option<ServerKind> {
        match self {
            OpKind::CacheGet
            | OpKind::CacheSet
            | OpKind::CacheAdd
            | OpKind::CacheDelete
            | OpKind::CacheDeleteIfOwner
            | OpKind::CacheGetStale
            | OpKind::CacheDeleteIf
            | OpKind::CacheIncr
            | OpKind::CacheReplace
            | OpKind::CacheExpire
            | OpKind::CacheLockScript
            | OpKind::CacheWatch
            | OpKind::CacheExec
            | OpKind::CacheHashGet
            | OpKind::CacheHashSet
            | OpKind::CacheSetRead
            | OpKind::CacheSetWrite
            | OpKind::CacheListRead
            | OpKind::CacheListWrite
            | OpKind::CacheZsetRead
            | OpKind::CacheZsetWrite
            | OpKind::CacheTtl
            | OpKind::CachePersist
            | OpKind::CacheGetDelete
            | OpKind::CacheGetSet
            | OpKind::CacheKeys
            | OpKind::CacheScan
            | OpKind::CacheType
            | OpKind::CacheStrlen
            | OpKind::CacheAppend
            | OpKind::CacheRename
            | OpKind::CacheGetEx
            | OpKind::CacheListMove
            | OpKind::CachePublish
            | OpKind::CacheHashIncr
            | OpKind::CacheCas => Some(ServerKind::Cache),
            OpKind::DbSelect | OpKind::DbFindOrder | OpKind::DbFind | OpKind::DbFindOne => {
                Some(ServerKind::DbRead)
            }
            OpKind::DbInsert | OpKind::DbUpdate | OpKind::DbDelete => Some(ServerKind::DbWrite),
            OpKind::Sleep | OpKind::Immediate => None,
            OpKind::DbLockRow => Some(ServerKind::DbRead),
            OpKind::DbCommit => Some(ServerKind::DbWrite),
            OpKind::SqlSelect
            | OpKind::SqlSelectForUpdate
            | OpKind::SqlBegin
            | OpKind::SqlRollback
            | OpKind::SqlLock
            | OpKind::SqlSavepoint
            | OpKind::SqlRelease
            | OpKind::SqlRollbackTo
            | OpKind::SqlSet
            | OpKind::SqlShow => Some(ServerKind::DbRead),
            OpKind::SqlInsert | OpKind::SqlUpdate | OpKind::SqlDelete | OpKind::SqlCommit => {
                Some(ServerKind::DbWrite)
            }
        }
    }

    /// Whether a DB operation counts in `db_reads` or `db_writes`: a
    /// transaction's BEGIN, COMMIT and ROLLBACK are round trips but no
    /// query on a table (docs/transactions.md).
    pub fn is_query(self) -> bool {
        !matches!(
            self,
            OpKind::DbCommit
                | OpKind::SqlBegin
                | OpKind::SqlCommit
                | OpKind::SqlRollback
                | OpKind::SqlLock
                | OpKind::SqlSavepoint
                | OpKind::SqlRelease
                | OpKind::SqlRollbackTo
                | OpKind::SqlSet
                | OpKind::SqlShow
        )
    }
}

/// Where an operation goes: the cache, or the DB to read or to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerKind {
    Cache,
    DbRead,
    DbWrite,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum What {
    Arrive,
    /// An operation was sent; `outcome` is `None`, `detail` the latency.
    Issue(OpKind),
    /// An operation landed: its effect applied at this instant.
    Complete(OpKind),
    /// A DB query waits for a pool connection.
    PoolWait,
    /// A queued DB query got a connection; `detail` is its latency.
    PoolStart,
    /// Waits behind an in-process mutex holder.
    MutexWait,
    /// The mutex was handed over (or found free).
    MutexGrant,
    /// Joins a running single-flight call.
    FlightJoin,
    /// Receives the leader's single-flight result.
    FlightShare,
    /// Enters the critical section of `key`.
    Enter,
    /// Leaves it (the release call starts).
    Exit,
    /// Stops waiting for a lock.
    GiveUp,
    /// The request returns.
    Return,
    /// Registers an EventEmitter `once` listener for a lock (emitter lock).
    Listen,
    /// Its listener ran inside `emit`: the waiter wakes to retry.
    Wake,
    /// Takes a ticket; `detail` is its number (ticket lock).
    TakeTicket,
    /// The lock's lease ran out while held: the next ticket is served
    /// (ticket lock; `detail` is the expired ticket).
    LeaseExpired,
    /// Crashes inside its critical section: it never releases the lock.
    Crash,
    /// Stale data served at once while one request refreshes it.
    ServeStale,
    /// XFetch decided to recompute before expiry.
    EarlyRefresh,
    /// A script's `console.log`, or an error no request's promise caught
    /// (a timer or emitter callback); `detail` indexes the run's messages.
    Log,
    /// A `users` row lock (FOR UPDATE) passed to this waiting transaction.
    RowLockGrant,
}

impl What {
    pub fn name(self) -> &'static str {
        match self {
            What::Arrive => "arrive",
            What::Issue(_) => "issue",
            What::Complete(_) => "complete",
            What::PoolWait => "pool_wait",
            What::PoolStart => "pool_start",
            What::MutexWait => "mutex_wait",
            What::MutexGrant => "mutex_grant",
            What::FlightJoin => "flight_join",
            What::FlightShare => "flight_share",
            What::Enter => "enter",
            What::Exit => "exit",
            What::GiveUp => "give_up",
            What::Return => "return",
            What::Listen => "listen",
            What::Wake => "wake",
            What::TakeTicket => "take_ticket",
            What::LeaseExpired => "lease_expired",
            What::Crash => "crash",
            What::ServeStale => "serve_stale",
            What::EarlyRefresh => "early_refresh",
            What::Log => "log",
            What::RowLockGrant => "row_lock_grant",
        }
    }

    /// The operation an `Issue` or `Complete` is about.
    pub fn op(self) -> Option<OpKind> {
        match self {
            What::Issue(op) | What::Complete(op) => Some(op),
            _ => None,
        }
    }

    #[inline(always)]
    fn code(self) -> u64 {
        match self {
            What::Arrive => 1,
            What::Issue(op) => 0x100 | op as u64,
            What::Complete(op) => 0x200 | op as u64,
            What::PoolWait => 3,
            What::PoolStart => 4,
            What::MutexWait => 5,
            What::MutexGrant => 6,
            What::FlightJoin => 7,
            What::FlightShare => 8,
            What::Enter => 9,
            What::Exit => 10,
            What::GiveUp => 11,
            What::Return => 12,
            What::Listen => 13,
            What::Wake => 14,
            What::TakeTicket => 15,
            What::LeaseExpired => 16,
            What::Crash => 17,
            What::ServeStale => 18,
            What::EarlyRefresh => 19,
            What::Log => 20,
            What::RowLockGrant => 21,
        }
    }
}

/// The key an event touches, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceKey {
    None,
    /// A data key: `item:K` (stampede) or the order row of `user:U:event`.
    Data(u32),
    /// The lock key guarding `K`.
    Lock(u32),
}

impl TraceKey {
    pub fn describe(self, scenario: ScenarioKind) -> String {
        KeyNames::Story(scenario).describe(self)
    }

    #[inline(always)]
    fn code(self) -> [u64; 2] {
        match self {
            TraceKey::None => [0, 0],
            TraceKey::Data(id) => [1, u64::from(id)],
            TraceKey::Lock(id) => [2, u64::from(id)],
        }
    }
}

/// How a run's keys and log lines read: a story's own spelling (`item:0`,
/// `user:0:event`; a story logs nothing), or the strings a script used
/// (its trace keys index `keys`, a `Log` event's detail its `messages`:
/// `console.log` lines and why each failed request failed).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum KeyNames {
    Story(ScenarioKind),
    Script {
        keys: std::rc::Rc<[String]>,
        messages: std::rc::Rc<[String]>,
    },
}

impl KeyNames {
    /// The text of a `Log` event whose detail is `detail`, if known.
    pub fn message(&self, detail: u64) -> Option<&str> {
        match self {
            KeyNames::Story(_) => None,
            KeyNames::Script { messages, .. } => messages
                .get(usize::try_from(detail).ok()?)
                .map(String::as_str),
        }
    }

    pub fn describe(&self, key: TraceKey) -> String {
        let (id, lock) = match key {
            TraceKey::None => return String::new(),
            TraceKey::Data(id) => (id, false),
            TraceKey::Lock(id) => (id, true),
        };
        let name = match self {
            KeyNames::Story(ScenarioKind::Stampede) => format!("item:{id}"),
            KeyNames::Story(ScenarioKind::Ticket) => format!("user:{id}:event"),
            KeyNames::Script { keys, .. } => keys.get(id as usize).cloned().unwrap_or_default(),
        };
        match lock {
            true => "lock:".to_string() + &name,
            false => name,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    None = 0,
    Hit,
    Stale,
    Miss,
    Stored,
    NotStored,
    Deleted,
    NotFound,
    Row,
    Found,
    NoOrder,
    Inserted,
    Woke,
    /// The request returned what it came for.
    Ok,
    /// The request returned stale data after giving up.
    ServedStale,
    /// The request ended without its result.
    Failed,
    /// A conditional delete found another holder's token: nothing deleted.
    NotOwner,
    /// An insert broke the unique constraint on (user, event).
    Conflict,
    /// The DB refused a write whose fencing token is older than one seen.
    Fenced,
    /// The request crashed inside its critical section.
    Crashed,
    /// An insert inside a transaction: written, visible at commit.
    Buffered,
    /// A FOR UPDATE row lock was taken at once.
    Locked,
    /// A FOR UPDATE row lock is held by another transaction: it waits.
    LockWait,
    /// A COMMIT made the transaction's rows visible (`detail`: rows added).
    Committed,
    /// SERIALIZABLE refused the statement or commit (SQLSTATE 40001).
    SerializationFailure,
    /// A script's write of a sorted set or a list that changed nothing
    /// (a `ZREM` of no member, a pop of an empty list).
    Unchanged,
}

/// The awaited line of the scenario (or lock) code a request is parked on;
/// `listing` maps it to a line of the code pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Site {
    None = 0,
    /// `await cache.get(key)`, the first read.
    Get,
    /// `await cache.get(key)` again under the lock.
    Recheck,
    Select,
    Set,
    FindOrder,
    Insert,
    /// `await lock.acquire(key)` in the body.
    Acquire,
    /// `await lock.release(key)` in the body.
    Release,
    /// `await singleflight.do(key, work)` in the body.
    Flight,
    /// Inside a cache lock: `await cache.get(lockKey)`.
    LockGet,
    /// Inside a cache lock: `await cache.set(lockKey, token, LOCK_TTL)`.
    LockSet,
    /// Inside a cache lock: `await cache.add(lockKey, token, LOCK_TTL)`.
    LockAdd,
    /// Inside a cache lock: `await sleep(POLL)`.
    LockPoll,
    /// Inside a cache lock: `await cache.delete(lockKey)`.
    LockDelete,
    /// Inside a cache lock: the owner-only check-and-delete.
    LockDeleteIfOwner,
    /// Emitter lock: `await once(emitter, key)`.
    LockListen,
    /// Ticket lock: waiting for the next `setInterval` tick.
    LockTick,
    /// The injected pause inside the critical section.
    Pause,
    /// A line of a script: the run keeps its line and column beside the
    /// trace (`script::ScriptRun::positions`), so this enum stays one byte.
    Script,
    /// `await db.query("SELECT ... FOR UPDATE")` on the user's row.
    LockRow,
    /// `await db.query("COMMIT")`.
    Commit,
    /// PostgreSQL's `deadlock_timeout`: a script's statement whose wait
    /// closed a cycle of waits is checked once it has waited that long.
    DeadlockTimeout,
    /// PostgreSQL's `lock_timeout`: a script's statement that waits for a
    /// lock that long is cancelled.
    LockTimeout,
    /// PostgreSQL's `statement_timeout`: a script's statement that runs
    /// that long is cancelled.
    StatementTimeout,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct TraceEvent {
    /// Index of the macrotask during which it happened.
    pub step: u32,
    pub time: Micros,
    pub request: u32,
    pub what: What,
    pub key: TraceKey,
    pub outcome: Outcome,
    pub site: Site,
    /// A latency for `Issue` and `PoolStart`, the server for `Arrive`, the
    /// elapsed time for `Return`, the fencing token for `Enter` and for the
    /// `Complete` of an insert (with `fencing`), the rows a `Complete` of a
    /// commit added, the ticket for
    /// `TakeTicket` and the expired ticket for `LeaseExpired`.
    pub detail: u64,
}

impl TraceEvent {
    /// Folds the event into the running trace hash: `hash * CHAIN +
    /// word`, where the event's word is its request's word, plus its
    /// step's (the step times an odd constant), plus the word of its other
    /// fields. Those six other fields pack into four words (the small
    /// codes share one); each is spread by its own odd multiplier, and
    /// those products do not depend on the running hash, so the CPU
    /// computes them in parallel; one multiplication then chains the event
    /// in.
    ///
    /// The chain is linear in the words, and a word is linear in the
    /// request's word and in the step, so runs of events that differ only
    /// in their request and step fold in a few steps: an emitter lock's
    /// herd (every listener wakes, then listens again, in one step;
    /// [`Trace::fold_cohort`]), and a round of polling-lock waiters (each
    /// in a step of its own; [`Trace::fold_rounds`]), to the same hash.
    #[inline(always)]
    fn hash_into(&self, hash: u64) -> u64 {
        hash.wrapping_mul(CHAIN)
            .wrapping_add(request_word(self.request))
            .wrapping_add(self.shared_word())
    }

    /// The word of every field but the request: the step's, plus the
    /// other fields'.
    #[inline(always)]
    fn shared_word(&self) -> u64 {
        step_word(self.step).wrapping_add(self.fields_word())
    }

    /// The word of every field but the request and the step.
    #[inline(always)]
    fn fields_word(&self) -> u64 {
        let [space, id] = self.key.code();
        let codes =
            self.what.code() | space << 16 | (self.outcome as u64) << 24 | (self.site as u64) << 32;
        self.time.wrapping_mul(MULTIPLIERS[1]).rotate_left(13)
            ^ id.wrapping_mul(MULTIPLIERS[2]).rotate_left(26)
            ^ self.detail.wrapping_mul(MULTIPLIERS[3]).rotate_left(39)
            ^ codes.wrapping_mul(MULTIPLIERS[4]).rotate_left(52)
    }
}

/// A step's word in its events' hash words: linear in the step.
#[inline(always)]
fn step_word(step: u32) -> u64 {
    u64::from(step).wrapping_mul(STEP)
}

/// A request's word in its events' hash words.
#[inline(always)]
fn request_word(request: u32) -> u64 {
    u64::from(request)
        .wrapping_mul(MULTIPLIERS[0])
        .rotate_left(32)
}

/// The requests of a run of events, in order, as the trace hash sees
/// them: `sum` is the chain of their words from zero, `power` is `CHAIN`
/// to their number and `geometric` the sum of its lower powers. Folding
/// the events one by one, each with its request's word plus a shared
/// word `w`, turns `hash` into `hash * power + sum + w * geometric`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cohort {
    sum: u64,
    power: u64,
    geometric: u64,
}

impl Default for Cohort {
    fn default() -> Self {
        Cohort {
            sum: 0,
            power: 1,
            geometric: 0,
        }
    }
}

impl Cohort {
    /// Adds a request at the back.
    #[inline]
    pub fn push(&mut self, request: u32) {
        self.sum = self
            .sum
            .wrapping_mul(CHAIN)
            .wrapping_add(request_word(request));
        self.geometric = self.geometric.wrapping_mul(CHAIN).wrapping_add(1);
        self.power = self.power.wrapping_mul(CHAIN);
    }

    /// Removes the request at the front (`request` must be it).
    #[inline]
    pub fn pop_front(&mut self, request: u32) {
        self.power = self.power.wrapping_mul(CHAIN_INVERSE);
        self.sum = self
            .sum
            .wrapping_sub(request_word(request).wrapping_mul(self.power));
        self.geometric = self.geometric.wrapping_sub(self.power);
    }

    /// Adds `other`'s requests at the back, in their order.
    #[inline]
    pub fn append(&mut self, other: &Cohort) {
        self.sum = self.sum.wrapping_mul(other.power).wrapping_add(other.sum);
        self.geometric = self
            .geometric
            .wrapping_mul(other.power)
            .wrapping_add(other.geometric);
        self.power = self.power.wrapping_mul(other.power);
    }
}

/// The hash of an empty trace (FNV-1a's offset basis, kept from the first
/// version of the hash).
const HASH_SEED: u64 = 0xcbf2_9ce4_8422_2325;
/// Odd 64-bit constants (from SplitMix64, xxHash and Murmur3).
const MULTIPLIERS: [u64; 5] = [
    0x9e37_79b9_7f4a_7c15,
    0xbf58_476d_1ce4_e5b9,
    0x94d0_49bb_1331_11eb,
    0xc2b2_ae3d_27d4_eb4f,
    0x1656_67b1_9e37_79f9,
];
/// A step's multiplier (odd).
const STEP: u64 = 0xd1b5_4a32_d192_ed03;
/// The chain's multiplier (odd, so every event's word reaches the hash
/// and a single changed event always changes it), and its inverse modulo
/// 2^64, which takes a request off a [`Cohort`]'s front.
const CHAIN: u64 = 0xd6e8_feb8_6659_fd93;
const CHAIN_INVERSE: u64 = inverse(CHAIN);

/// The inverse of an odd number modulo 2^64, by Newton's iteration (each
/// step doubles the correct low bits; an odd `x` is its own inverse
/// modulo 8).
const fn inverse(odd: u64) -> u64 {
    let mut x = odd;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// MurmurHash3's 64-bit finalizer: every input bit reaches every output
/// bit, so the printed hash has no weak low digits.
fn finish(mut hash: u64) -> u64 {
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^ hash >> 33
}

/// The events of a run, and a hash over all of them that is kept
/// even when the events themselves are not (metrics-only runs).
pub struct Trace {
    events: Vec<TraceEvent>,
    keep: bool,
    hash: u64,
}

impl Trace {
    pub fn new(keep: bool) -> Self {
        Trace {
            events: Vec::new(),
            keep,
            hash: HASH_SEED,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, event: TraceEvent) {
        self.hash = event.hash_into(self.hash);
        if self.keep {
            self.events.push(event);
        }
    }

    /// Whether the events themselves are kept (not only their hash).
    pub fn keeps_events(&self) -> bool {
        self.keep
    }

    /// Folds one event per request of `cohort`, in its order: `event`
    /// with each one's request (the same hash as pushing them one by one).
    /// Only for a trace that keeps no events.
    pub fn fold_cohort(&mut self, event: &TraceEvent, cohort: &Cohort) {
        debug_assert!(!self.keep, "a kept trace needs every event");
        self.hash = self
            .hash
            .wrapping_mul(cohort.power)
            .wrapping_add(cohort.sum)
            .wrapping_add(event.shared_word().wrapping_mul(cohort.geometric));
    }

    /// Folds `requests.len()` steps, `step` and on, each one block of
    /// events: `block`'s, in order, with the step's request (the step and
    /// request in `block` are ignored). The same hash as pushing them one
    /// by one: a block moves the hash to `hash * D + (request word + step
    /// word) * P + F`, with `D` the chain's multiplier to the block's
    /// length, `P` the sum of its lower powers and `F` the block's other
    /// fields chained; over the steps that sums to one product per term.
    /// Only for a trace that keeps no events.
    pub fn fold_rounds(
        &mut self,
        requests: impl Iterator<Item = u32>,
        step: u32,
        block: &[TraceEvent],
    ) {
        debug_assert!(!self.keep, "a kept trace needs every event");
        let (mut block_power, mut lower, mut fields) = (1u64, 0u64, 0u64);
        for event in block {
            block_power = block_power.wrapping_mul(CHAIN);
            lower = lower.wrapping_mul(CHAIN).wrapping_add(1);
            fields = fields.wrapping_mul(CHAIN).wrapping_add(event.fields_word());
        }
        // Over the steps i = 0, 1, ...: the chain of the requests' words,
        // of ones (geometric) and of i, and the power of block_power.
        let (mut requests_sum, mut geometric, mut indexes, mut power) = (0u64, 0u64, 0u64, 1u64);
        for (i, request) in requests.enumerate() {
            requests_sum = requests_sum
                .wrapping_mul(block_power)
                .wrapping_add(request_word(request));
            geometric = geometric.wrapping_mul(block_power).wrapping_add(1);
            indexes = indexes.wrapping_mul(block_power).wrapping_add(i as u64);
            power = power.wrapping_mul(block_power);
        }
        let steps = u64::from(step)
            .wrapping_mul(geometric)
            .wrapping_add(indexes);
        self.hash = self
            .hash
            .wrapping_mul(power)
            .wrapping_add(lower.wrapping_mul(requests_sum.wrapping_add(STEP.wrapping_mul(steps))))
            .wrapping_add(fields.wrapping_mul(geometric));
    }

    /// The word of a block of events but for their requests and steps:
    /// their other fields' words, chained, as [`Trace::fold_rounds`]
    /// chains `block`'s.
    pub fn block_word(block: &[TraceEvent]) -> u64 {
        block.iter().fold(0u64, |word, event| {
            word.wrapping_mul(CHAIN).wrapping_add(event.fields_word())
        })
    }

    /// [`Trace::fold_rounds`] where each step's block has a word of its
    /// own ([`Trace::block_word`]; each request's own lock): one
    /// `(request, block word)` a step, every block `block_len` events
    /// long. The blocks' words add up as the requests' do, each times
    /// the chain's multiplier to the blocks after it.
    pub fn fold_keyed_rounds(
        &mut self,
        rounds: impl Iterator<Item = (u32, u64)>,
        step: u32,
        block_len: usize,
    ) {
        debug_assert!(!self.keep, "a kept trace needs every event");
        let (mut block_power, mut lower) = (1u64, 0u64);
        for _ in 0..block_len {
            block_power = block_power.wrapping_mul(CHAIN);
            lower = lower.wrapping_mul(CHAIN).wrapping_add(1);
        }
        let (mut requests_sum, mut blocks_sum) = (0u64, 0u64);
        let (mut geometric, mut indexes, mut power) = (0u64, 0u64, 1u64);
        for (i, (request, block)) in rounds.enumerate() {
            requests_sum = requests_sum
                .wrapping_mul(block_power)
                .wrapping_add(request_word(request));
            blocks_sum = blocks_sum.wrapping_mul(block_power).wrapping_add(block);
            geometric = geometric.wrapping_mul(block_power).wrapping_add(1);
            indexes = indexes.wrapping_mul(block_power).wrapping_add(i as u64);
            power = power.wrapping_mul(block_power);
        }
        let steps = u64::from(step)
            .wrapping_mul(geometric)
            .wrapping_add(indexes);
        self.hash = self
            .hash
            .wrapping_mul(power)
            .wrapping_add(lower.wrapping_mul(requests_sum.wrapping_add(STEP.wrapping_mul(steps))))
            .wrapping_add(blocks_sum);
    }

    /// Moves the kept events out (the hash stays): for a caller that is
    /// done with the run, without copying them.
    pub fn take_events(&mut self) -> Vec<TraceEvent> {
        std::mem::take(&mut self.events)
    }

    pub fn events(&self) -> &[TraceEvent] {
        &self.events
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The heap the kept events take (none in a metrics-only run).
    pub fn heap_bytes(&self) -> usize {
        self.events.capacity() * std::mem::size_of::<TraceEvent>()
    }

    /// The hash as 16 hex digits (a string, so JSON readers keep every bit).
    pub fn hash(&self) -> String {
        format!("{:016x}", finish(self.hash))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn hash_of(events: &[TraceEvent]) -> String {
        let mut trace = Trace::new(false);
        for &event in events {
            trace.push(event);
        }
        trace.hash()
    }

    fn event() -> TraceEvent {
        TraceEvent {
            step: 7,
            time: 20_000,
            request: 3,
            what: What::Complete(OpKind::DbSelect),
            key: TraceKey::Data(2),
            outcome: Outcome::Row,
            site: Site::Select,
            detail: 1_000,
        }
    }

    /// Every one-bit change of every field, and every other code of the
    /// enum fields, gives a hash of its own.
    #[test]
    fn every_field_and_bit_changes_the_hash() {
        let base = event();
        let mut variants = vec![base];
        for bit in 0..64 {
            if bit < 32 {
                variants.push(TraceEvent {
                    step: base.step ^ 1 << bit,
                    ..base
                });
                variants.push(TraceEvent {
                    request: base.request ^ 1 << bit,
                    ..base
                });
                variants.push(TraceEvent {
                    key: TraceKey::Data(2 ^ 1 << bit),
                    ..base
                });
                variants.push(TraceEvent {
                    key: TraceKey::Lock(2 ^ 1 << bit),
                    ..base
                });
            }
            variants.push(TraceEvent {
                time: base.time ^ 1 << bit,
                ..base
            });
            variants.push(TraceEvent {
                detail: base.detail ^ 1 << bit,
                ..base
            });
        }
        let whats = [What::Arrive, What::Issue(OpKind::DbSelect), What::Return];
        variants.extend(whats.map(|what| TraceEvent { what, ..base }));
        variants.push(TraceEvent {
            key: TraceKey::None,
            ..base
        });
        variants.push(TraceEvent {
            outcome: Outcome::Hit,
            ..base
        });
        variants.push(TraceEvent {
            site: Site::Get,
            ..base
        });
        let hashes: HashSet<String> = variants.iter().map(|e| hash_of(&[*e])).collect();
        assert_eq!(hashes.len(), variants.len());
    }

    #[test]
    fn order_and_length_change_the_hash() {
        let first = event();
        let second = TraceEvent { step: 8, ..first };
        let hashes: HashSet<String> = [
            hash_of(&[]),
            hash_of(&[first]),
            hash_of(&[first, second]),
            hash_of(&[second, first]),
            hash_of(&[first, first]),
        ]
        .into_iter()
        .collect();
        assert_eq!(hashes.len(), 5);
    }

    #[test]
    fn kept_and_metrics_only_traces_hash_alike() {
        let mut kept = Trace::new(true);
        let mut counted = Trace::new(false);
        for step in 0..100 {
            kept.push(TraceEvent { step, ..event() });
            counted.push(TraceEvent { step, ..event() });
        }
        assert_eq!(kept.hash(), counted.hash());
        assert_eq!((kept.len(), counted.len()), (100, 0));
    }

    #[test]
    fn the_chains_inverse_is_its_inverse() {
        assert_eq!(CHAIN.wrapping_mul(CHAIN_INVERSE), 1);
        assert_eq!(inverse(3).wrapping_mul(3), 1);
    }

    /// Rounds of blocks, each its own step and request, fold to the same
    /// hash as their events one by one.
    #[test]
    fn rounds_fold_like_their_events() {
        let requests: Vec<u32> = (0..37).map(|i| (i * 7919) % 1000).collect();
        let block = [
            event(),
            TraceEvent {
                what: What::Issue(OpKind::Sleep),
                key: TraceKey::None,
                detail: 10_000,
                ..event()
            },
        ];
        let mut one_by_one = Trace::new(false);
        let mut folded = Trace::new(false);
        for trace in [&mut one_by_one, &mut folded] {
            trace.push(event());
        }
        for (i, &request) in requests.iter().enumerate() {
            for e in &block {
                one_by_one.push(TraceEvent {
                    request,
                    step: 40 + i as u32,
                    ..*e
                });
            }
        }
        folded.fold_rounds(requests.iter().copied(), 40, &block);
        assert_eq!(one_by_one.hash(), folded.hash());
        // No steps fold to nothing.
        folded.fold_rounds(std::iter::empty(), 7, &block);
        assert_eq!(one_by_one.hash(), folded.hash());
        // Blocks that differ from step to step (each request's own lock).
        let keyed = |i: usize| {
            block.map(|e| TraceEvent {
                key: TraceKey::Lock(i as u32 % 3),
                ..e
            })
        };
        for (i, &request) in requests.iter().enumerate() {
            for e in &keyed(i) {
                one_by_one.push(TraceEvent {
                    request,
                    step: 90 + i as u32,
                    ..*e
                });
            }
        }
        let rounds = requests.iter().enumerate();
        folded.fold_keyed_rounds(
            rounds.map(|(i, &r)| (r, Trace::block_word(&keyed(i)))),
            90,
            2,
        );
        assert_eq!(one_by_one.hash(), folded.hash());
    }

    /// A cohort folds to the same hash as its events one by one, after it
    /// lost requests at its front and gained others at its back.
    #[test]
    fn a_cohort_folds_like_its_events() {
        let requests: Vec<u32> = (0..40).map(|i| (i * 7919) % 1000).collect();
        let mut cohort = Cohort::default();
        requests.iter().for_each(|&r| cohort.push(r));
        let mut tail = Cohort::default();
        [5, 900].iter().for_each(|&r| tail.push(r));
        cohort.pop_front(requests[0]);
        cohort.pop_front(requests[1]);
        cohort.append(&tail);
        let order: Vec<u32> = requests[2..].iter().chain(&[5, 900]).copied().collect();
        let wake = TraceEvent {
            what: What::Wake,
            key: TraceKey::Lock(4),
            ..event()
        };
        let mut one_by_one = Trace::new(false);
        let mut folded = Trace::new(false);
        for trace in [&mut one_by_one, &mut folded] {
            trace.push(event());
        }
        for &request in &order {
            one_by_one.push(TraceEvent { request, ..wake });
        }
        folded.fold_cohort(&wake, &cohort);
        assert_eq!(one_by_one.hash(), folded.hash());
        // And an empty cohort folds nothing.
        folded.fold_cohort(&wake, &Cohort::default());
        assert_eq!(one_by_one.hash(), folded.hash());
    }
}
