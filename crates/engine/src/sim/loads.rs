//! Per-key DB loads and cache expiries, behind the explorer's `db-reads`
//! check.
//!
//! A `select` of key K is *redundant* when an earlier `select` of K was
//! issued and no expiry of K's cache entry fell in between: that is, no
//! instant `e` with `earlier < e <= now`, where the expiries of K are the
//! completion time + ttl of every data `set` of K with ttl > 0 (and a warm
//! entry's `expire_at`). So the DB reads a key at most once per expiry;
//! two loads running at once, and a load after a value was already set
//! (a lock without the double-check), are both redundant.

use rustc_hash::FxHashMap as HashMap;

use crate::config::Micros;

#[derive(Default)]
pub struct LoadLog {
    last_select: HashMap<u32, Micros>,
    expiries: HashMap<u32, Vec<Micros>>,
    redundant: u64,
    /// Nothing is logged (a run whose redundant count no one reads).
    off: bool,
}

impl LoadLog {
    /// Stops logging: a `run` prints no redundant count, and a burst of
    /// `set`s would log an expiry per request.
    pub fn turn_off(&mut self) {
        self.off = true;
    }

    pub fn select_issued(&mut self, key: u32, now: Micros) {
        if self.off {
            return;
        }
        if let Some(&earlier) = self.last_select.get(&key) {
            let expired_between = self
                .expiries
                .get(&key)
                .is_some_and(|all| all.iter().any(|&e| earlier < e && e <= now));
            if !expired_between {
                self.redundant += 1;
            }
        }
        self.last_select.insert(key, now);
    }

    /// K's cache entry stops being live at `at`.
    pub fn expires(&mut self, key: u32, at: Micros) {
        if self.off {
            return;
        }
        self.expiries.entry(key).or_default().push(at);
    }

    /// Selects that fell within the same expiry window as an earlier one.
    pub fn redundant(&self) -> u64 {
        self.redundant
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_select_is_redundant_unless_the_key_expired_in_between() {
        let mut log = LoadLog::default();
        log.select_issued(0, 0);
        log.select_issued(1, 5);
        assert_eq!(log.redundant(), 0, "different keys");
        log.expires(0, 100);
        log.select_issued(0, 50);
        assert_eq!(
            log.redundant(),
            1,
            "the value set by the first load is still live"
        );
        log.select_issued(0, 100);
        assert_eq!(log.redundant(), 1, "expired at 100, within (50, 100]");
        log.select_issued(0, 100);
        assert_eq!(log.redundant(), 2);
    }
}
