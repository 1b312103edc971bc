//! The trace: what happened at every step, for the debugger to draw, and a
//! stable hash of it that is equal natively and in wasm.

use serde::Serialize;

use crate::scenario::config::{Micros, ScenarioKind};

/// No request (never used today: every event belongs to one).
pub const NO_REQUEST: u32 = u32::MAX;

/// An operation on the world, or a timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
        }
    }

    /// The operation an `Issue` or `Complete` is about.
    pub fn op(self) -> Option<OpKind> {
        match self {
            What::Issue(op) | What::Complete(op) => Some(op),
            _ => None,
        }
    }

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
        }
    }
}

/// The key an event touches, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
        let base = |id: u32| match scenario {
            ScenarioKind::Stampede => format!("item:{id}"),
            ScenarioKind::Ticket => format!("user:{id}:event"),
        };
        match self {
            TraceKey::None => String::new(),
            TraceKey::Data(id) => base(id),
            TraceKey::Lock(id) => format!("lock:{}", base(id)),
        }
    }

    fn code(self) -> [u64; 2] {
        match self {
            TraceKey::None => [0, 0],
            TraceKey::Data(id) => [1, u64::from(id)],
            TraceKey::Lock(id) => [2, u64::from(id)],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
}

/// The awaited line of the scenario (or lock) code a request is parked on;
/// `listing` maps it to a line of the code pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
    /// `Complete` of an insert (with `fencing`), the ticket for
    /// `TakeTicket` and the expired ticket for `LeaseExpired`.
    pub detail: u64,
}

impl TraceEvent {
    /// Folds the event into an FNV-1a hash over the little-endian bytes of
    /// its nine words: step, time, request, what, key space, key id,
    /// outcome, site, detail.
    fn hash_into(&self, hash: u64) -> u64 {
        let [space, id] = self.key.code();
        let mut hash = fnv_word(hash, u64::from(self.step));
        hash = fnv_word(hash, self.time);
        hash = fnv_word(hash, u64::from(self.request));
        hash = fnv_word(hash, self.what.code());
        hash = fnv_small_word(hash, space);
        hash = fnv_word(hash, id);
        hash = fnv_small_word(hash, self.outcome as u64);
        hash = fnv_small_word(hash, self.site as u64);
        fnv_word(hash, self.detail)
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
/// `FNV_PRIME` to the powers 0 to 8.
const FNV_PRIME_POWERS: [u64; 9] = {
    let mut powers = [1u64; 9];
    let mut k = 1;
    while k < 9 {
        powers[k] = powers[k - 1].wrapping_mul(FNV_PRIME);
        k += 1;
    }
    powers
};

/// FNV-1a over the 8 little-endian bytes of `word`. Equal to the plain byte
/// loop, but a zero byte only multiplies by the prime, so the high zero bytes
/// of a small word (most trace words) fold into one multiplication.
#[inline]
fn fnv_word(mut hash: u64, word: u64) -> u64 {
    let significant = (64 - word.leading_zeros() as usize).div_ceil(8).max(1);
    let mut rest = word;
    for _ in 1..significant {
        hash = (hash ^ (rest & 0xff)).wrapping_mul(FNV_PRIME);
        rest >>= 8;
    }
    (hash ^ rest).wrapping_mul(FNV_PRIME_POWERS[9 - significant])
}

/// `fnv_word` of a word below 256: one multiplication.
#[inline]
fn fnv_small_word(hash: u64, word: u64) -> u64 {
    debug_assert!(word < 0x100);
    (hash ^ word).wrapping_mul(FNV_PRIME_POWERS[8])
}

/// The events of a run, and an FNV-1a hash over all of them that is kept
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
            hash: FNV_OFFSET,
        }
    }

    pub fn push(&mut self, event: TraceEvent) {
        self.hash = event.hash_into(self.hash);
        if self.keep {
            self.events.push(event);
        }
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
        format!("{:016x}", self.hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fnv_bytes(mut hash: u64, word: u64) -> u64 {
        for byte in word.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME);
        }
        hash
    }

    #[test]
    fn word_hash_equals_the_byte_loop() {
        let mut words = vec![
            0,
            1,
            0xff,
            0x100,
            0x1_0000,
            0x80_0000_0000,
            u64::MAX,
            1 << 63,
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for shift in 0..64 {
            x = x.rotate_left(17).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ shift;
            words.extend([x, x >> shift, x & 0xff00_ff00, (x >> shift) << (shift / 2)]);
        }
        let mut fast = FNV_OFFSET;
        let mut plain = FNV_OFFSET;
        for word in words {
            assert_eq!(fnv_word(fast, word), fnv_bytes(fast, word), "{word:#x}");
            fast = fnv_word(fast, word);
            plain = fnv_bytes(plain, word);
        }
        assert_eq!(fast, plain);
    }
}
