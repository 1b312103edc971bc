//! A cache server with memcached semantics (DESIGN.md §3).

use crate::config::Micros;
use crate::world::LockKey;

/// A key in the cache: a data key `item:K` or a lock key `lock:K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheKey {
    Data(u32),
    Lock(LockKey),
}

impl CacheKey {
    fn slot(self) -> usize {
        match self {
            CacheKey::Data(id) => id as usize * 2,
            CacheKey::Lock(LockKey(id)) => id as usize * 2 + 1,
        }
    }

    pub fn is_lock(self) -> bool {
        matches!(self, CacheKey::Lock(_))
    }
}

/// What a `get` finds at its linearization point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    Live(u64),
    /// Expired but within `grace`: a miss for the request, yet a value a
    /// waiter that gives up may serve.
    Stale(u64),
    Miss,
}

impl Lookup {
    pub fn live(self) -> Option<u64> {
        match self {
            Lookup::Live(value) => Some(value),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    value: u64,
    /// `None`: never expires (ttl 0).
    expires_at: Option<Micros>,
    grace: Micros,
    /// How long the value took to recompute (XFetch's delta); 0 if unknown.
    delta: Micros,
}

impl Entry {
    fn lookup(&self, now: Micros) -> Lookup {
        match self.expires_at {
            None => Lookup::Live(self.value),
            Some(at) if now < at => Lookup::Live(self.value),
            Some(at) if now < at.saturating_add(self.grace) => Lookup::Stale(self.value),
            Some(_) => Lookup::Miss,
        }
    }
}

#[derive(Default)]
pub struct Cache {
    entries: Vec<Option<Entry>>,
    /// Grace for data keys; lock keys never have grace.
    grace: Micros,
}

impl Cache {
    pub fn new(grace: Micros) -> Self {
        Cache {
            entries: Vec::new(),
            grace,
        }
    }

    fn entry(&self, key: CacheKey) -> Option<&Entry> {
        self.entries.get(key.slot()).and_then(Option::as_ref)
    }

    pub fn get(&self, key: CacheKey, now: Micros) -> Lookup {
        self.entry(key).map_or(Lookup::Miss, |e| e.lookup(now))
    }

    /// Stores `value`; `ttl == 0` never expires.
    pub fn set(&mut self, key: CacheKey, value: u64, ttl: Micros, now: Micros) {
        let expires_at = (ttl > 0).then(|| now.saturating_add(ttl));
        self.put(key, value, expires_at);
    }

    /// `set`, remembering how long the value took to recompute (XFetch).
    pub fn set_with_delta(
        &mut self,
        key: CacheKey,
        value: u64,
        ttl: Micros,
        delta: Micros,
        now: Micros,
    ) {
        self.set(key, value, ttl, now);
        self.note_delta(key, delta);
    }

    /// Records the recompute time of the entry stored at `key`.
    pub fn note_delta(&mut self, key: CacheKey, delta: Micros) {
        if let Some(Some(entry)) = self.entries.get_mut(key.slot()) {
            entry.delta = delta;
        }
    }

    /// The expiry and recompute time of a live entry, if it has an expiry.
    pub fn expiry_and_delta(&self, key: CacheKey, now: Micros) -> Option<(Micros, Micros)> {
        let entry = self.entry(key)?;
        match (entry.lookup(now), entry.expires_at) {
            (Lookup::Live(_), Some(at)) => Some((at, entry.delta)),
            _ => None,
        }
    }

    /// Stores an entry with an absolute expiry (a warm cache at time 0).
    pub fn put(&mut self, key: CacheKey, value: u64, expires_at: Option<Micros>) {
        let slot = key.slot();
        if slot >= self.entries.len() {
            self.entries.resize(slot + 1, None);
        }
        let grace = if key.is_lock() { 0 } else { self.grace };
        self.entries[slot] = Some(Entry {
            value,
            expires_at,
            grace,
            delta: 0,
        });
    }

    /// memcached `add`: stores only if the key holds no live value.
    pub fn add(&mut self, key: CacheKey, value: u64, ttl: Micros, now: Micros) -> bool {
        if let Lookup::Live(_) = self.get(key, now) {
            return false;
        }
        self.set(key, value, ttl, now);
        true
    }

    /// Redis's check-and-delete: removes the live entry only if it holds
    /// `token`. `Some(deleted)` if there was a live entry, `None` if not.
    pub fn delete_if_owner(&mut self, key: CacheKey, token: u64, now: Micros) -> Option<bool> {
        match self.get(key, now) {
            Lookup::Live(value) if value == token => {
                self.delete(key, now);
                Some(true)
            }
            Lookup::Live(_) => Some(false),
            _ => None,
        }
    }

    /// Returns whether a live or stale entry was removed.
    pub fn delete(&mut self, key: CacheKey, now: Micros) -> bool {
        let existed = self.get(key, now) != Lookup::Miss;
        if let Some(slot) = self.entries.get_mut(key.slot()) {
            *slot = None;
        }
        existed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_is_live_then_stale_then_gone() {
        let mut cache = Cache::new(5);
        let key = CacheKey::Data(3);
        cache.set(key, 7, 10, 100);
        assert_eq!(cache.get(key, 109), Lookup::Live(7));
        assert_eq!(cache.get(key, 110), Lookup::Stale(7));
        assert_eq!(cache.get(key, 114), Lookup::Stale(7));
        assert_eq!(cache.get(key, 115), Lookup::Miss);
    }

    #[test]
    fn ttl_zero_never_expires_and_locks_have_no_grace() {
        let mut cache = Cache::new(1_000);
        cache.set(CacheKey::Data(0), 1, 0, 5);
        assert_eq!(cache.get(CacheKey::Data(0), u64::MAX), Lookup::Live(1));
        let lock = CacheKey::Lock(LockKey(0));
        cache.set(lock, 9, 10, 0);
        assert_eq!(cache.get(lock, 10), Lookup::Miss);
    }

    #[test]
    fn add_stores_only_when_absent_or_expired() {
        let mut cache = Cache::new(0);
        let lock = CacheKey::Lock(LockKey(1));
        assert!(cache.add(lock, 1, 10, 0));
        assert!(!cache.add(lock, 2, 10, 9));
        assert!(cache.add(lock, 3, 10, 10));
        assert_eq!(cache.get(lock, 11), Lookup::Live(3));
        assert!(cache.delete(lock, 12));
        assert!(!cache.delete(lock, 12));
    }

    #[test]
    fn delete_if_owner_spares_another_holders_lock() {
        let mut cache = Cache::new(0);
        let lock = CacheKey::Lock(LockKey(1));
        cache.set(lock, 2, 10, 0);
        assert_eq!(cache.delete_if_owner(lock, 1, 5), Some(false));
        assert_eq!(cache.get(lock, 5), Lookup::Live(2));
        assert_eq!(cache.delete_if_owner(lock, 2, 5), Some(true));
        assert_eq!(cache.delete_if_owner(lock, 2, 5), None);
    }
}
