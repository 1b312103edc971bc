//! What one macrotask (with the microtasks it caused) read and wrote, for
//! the explorer's independence relation. Recorded only when a run asks for
//! it (`Sim::track_footprints`), so normal runs pay nothing.
//!
//! Two steps are independent when no object is touched by both with at
//! least one write. Not objects: the clock (swapping two steps may shift
//! timestamps and which latency draw each operation gets, not the
//! per-object order of effects) and commutative counters (hits, wake-ups,
//! errors, latencies).

use crate::world::{CacheKey, LockKey};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Object {
    /// A cache entry (data or lock key).
    Cache(CacheKey),
    /// The order rows of one user.
    Orders(u32),
    /// The DB load log of one item (the `db-reads` check).
    Loads(u32),
    /// The critical-section count of one key.
    Section(u32),
    /// One server's in-process mutex / single-flight entry for a key.
    ServerLock(u32, LockKey),
    /// XFetch's random draws (their order decides who refreshes early).
    EarlyDraws,
    /// One user's `users` row lock (FOR UPDATE) and its waiters.
    RowLock(u32),
    /// The DB connection pool (only when bounded).
    Pool,
    /// A script's module state on one server (its realm): every step that
    /// runs JavaScript there writes it.
    ScriptRealm(u32),
    /// The JavaScript of one request of a script (its closures and
    /// promises); `NO_REQUEST` for the top level's timers and callbacks.
    ScriptRequest(u32),
    /// A script's run-wide counters JavaScript can see: 0 is
    /// `Math.random`'s stream, 1 the timer ids.
    ScriptShared(u32),
    /// The rows of a script's DB table whose partition field (the first
    /// `unique` field, else the first `expectUnique` one) has one value
    /// (interned per run).
    ScriptRows(u32),
    /// A script's cache key (interned per run).
    ScriptKey(u32),
    /// A script's DB table (interned per run).
    ScriptTable(u32),
    /// The timer and arrival order: a clock event reads it (it runs as
    /// the earliest one); a new timer that becomes the earliest writes it.
    Clock,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Touch {
    pub object: Object,
    pub write: bool,
}

/// The touches of one step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint(pub Vec<Touch>);

impl Footprint {
    pub fn independent(&self, other: &Footprint) -> bool {
        !self.0.iter().any(|a| {
            other
                .0
                .iter()
                .any(|b| a.object == b.object && (a.write || b.write))
        })
    }
}

/// The recorder the core carries.
#[derive(Default)]
pub struct Touches {
    pub on: bool,
    /// The DB pool is bounded, so every query touches its queue.
    pub pool_bounded: bool,
    list: Vec<Touch>,
}

impl Touches {
    // Inlined natively, so a run that records nothing pays one test.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn touch(&mut self, object: Object, write: bool) {
        if self.on {
            self.record(Touch { object, write });
        }
    }

    #[cfg_attr(not(target_arch = "wasm32"), inline(never))]
    fn record(&mut self, touch: Touch) {
        if !self.list.contains(&touch) {
            self.list.push(touch);
        }
    }

    pub fn take(&mut self) -> Footprint {
        Footprint(std::mem::take(&mut self.list))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_write_conflicts() {
        let read = |object| {
            Footprint(vec![Touch {
                object,
                write: false,
            }])
        };
        let write = |object| {
            Footprint(vec![Touch {
                object,
                write: true,
            }])
        };
        let lock = Object::Cache(CacheKey::Lock(LockKey(0)));
        assert!(read(lock).independent(&read(lock)));
        assert!(!read(lock).independent(&write(lock)));
        assert!(!write(lock).independent(&write(lock)));
        assert!(write(lock).independent(&write(Object::Orders(0))));
    }
}
