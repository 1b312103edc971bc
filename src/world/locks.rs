//! One app server's in-process lock tables: keyed FIFO mutexes and
//! single-flight calls. They hold the waiters' slot ids; waking is the
//! executor's job.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::world::LockKey;

/// The executor's handle to a parked waiter.
pub type SlotId = usize;

#[derive(Default)]
struct Mutex {
    waiters: VecDeque<SlotId>,
}

#[derive(Default)]
pub struct ServerLocks {
    /// A key is present while its mutex is held.
    mutexes: FxHashMap<LockKey, Mutex>,
    /// A key is present while its single-flight call runs; the value lists
    /// the callers waiting for its result.
    flights: FxHashMap<LockKey, Vec<SlotId>>,
}

/// Whether `lock` took a free mutex or joined the queue.
#[derive(Debug, PartialEq, Eq)]
pub enum Acquire {
    Free,
    Queued,
}

impl ServerLocks {
    /// Takes the mutex if free; else parks `slot` at the back of its queue.
    pub fn lock(&mut self, key: LockKey, slot: SlotId) -> Acquire {
        match self.mutexes.get_mut(&key) {
            None => {
                self.mutexes.insert(key, Mutex::default());
                Acquire::Free
            }
            Some(mutex) => {
                mutex.waiters.push_back(slot);
                Acquire::Queued
            }
        }
    }

    /// Hands the mutex to the oldest waiter (returned), or frees it.
    pub fn unlock(&mut self, key: LockKey) -> Option<SlotId> {
        let mutex = self.mutexes.get_mut(&key)?;
        let next = mutex.waiters.pop_front();
        if next.is_none() {
            self.mutexes.remove(&key);
        }
        next
    }

    /// Joins the running call for `key` (true), or starts one (false).
    pub fn join_flight(&mut self, key: LockKey, slot: SlotId) -> bool {
        match self.flights.get_mut(&key) {
            Some(waiters) => {
                waiters.push(slot);
                true
            }
            None => {
                self.flights.insert(key, Vec::new());
                false
            }
        }
    }

    /// Ends the call for `key`, keeping nothing; returns its waiters in order.
    pub fn finish_flight(&mut self, key: LockKey) -> Vec<SlotId> {
        self.flights.remove(&key).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutex_hands_off_in_fifo_order_then_frees() {
        let mut locks = ServerLocks::default();
        let key = LockKey(4);
        assert_eq!(locks.lock(key, 1), Acquire::Free);
        assert_eq!(locks.lock(key, 2), Acquire::Queued);
        assert_eq!(locks.lock(key, 3), Acquire::Queued);
        assert_eq!(locks.unlock(key), Some(2));
        assert_eq!(locks.unlock(key), Some(3));
        assert_eq!(locks.unlock(key), None);
        assert_eq!(locks.lock(key, 5), Acquire::Free);
    }

    #[test]
    fn flight_is_forgotten_when_it_finishes() {
        let mut locks = ServerLocks::default();
        let key = LockKey(0);
        assert!(!locks.join_flight(key, 1));
        assert!(locks.join_flight(key, 2));
        assert!(locks.join_flight(key, 3));
        assert_eq!(locks.finish_flight(key), vec![2, 3]);
        assert!(!locks.join_flight(key, 4));
    }
}
