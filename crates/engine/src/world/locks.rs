//! One app server's in-process lock tables: keyed FIFO mutexes and
//! single-flight calls. They hold the waiters' slot ids; waking is the
//! executor's job.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::config::Micros;
use crate::world::LockKey;

/// The executor's handle to a parked waiter.
pub type SlotId = usize;

#[derive(Default)]
pub struct ServerLocks {
    /// A key is present while its mutex is held, with the waiters queued
    /// for it in order (the same map type as `listeners`, so the page's
    /// wasm carries one copy of its code).
    mutexes: FxHashMap<LockKey, VecDeque<SlotId>>,
    /// A key is present while its single-flight call runs; the value lists
    /// the callers waiting for its result.
    flights: FxHashMap<LockKey, Vec<SlotId>>,
    /// Emitter lock: the keys held, and the `once` listeners per key in
    /// registration order.
    emitter_locked: FxHashSet<LockKey>,
    listeners: FxHashMap<LockKey, VecDeque<SlotId>>,
    /// Ticket lock counters per key.
    tickets: FxHashMap<LockKey, Tickets>,
}

/// A ticket lock: `next` is the next ticket to hand out, `serving` the
/// ticket allowed in; it is held while `serving < next`.
/// One key's ticket lock: the next ticket to hand out, the one served and
/// since when (its lease).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tickets {
    next: u64,
    serving: u64,
    /// When `serving` last changed: the lease of the served ticket starts.
    served_since: Micros,
}

/// What a ticket-lock check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicketCheck {
    /// The caller's ticket is served.
    pub served: bool,
    /// A held ticket whose lease ran out was skipped first.
    pub expired: Option<u64>,
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
                self.mutexes.insert(key, VecDeque::new());
                Acquire::Free
            }
            Some(waiters) => {
                waiters.push_back(slot);
                Acquire::Queued
            }
        }
    }

    /// Hands the mutex to the oldest waiter (returned), or frees it.
    pub fn unlock(&mut self, key: LockKey) -> Option<SlotId> {
        let next = self.mutexes.get_mut(&key)?.pop_front();
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

    /// Whether a single-flight call for `key` is running.
    pub fn flight_running(&self, key: LockKey) -> bool {
        self.flights.contains_key(&key)
    }

    /// Emitter lock: takes `key` if free (true).
    pub fn emitter_try_lock(&mut self, key: LockKey) -> bool {
        self.emitter_locked.insert(key)
    }

    /// Emitter lock: whether `key` is held (`locked.has(key)`).
    pub fn emitter_held(&self, key: LockKey) -> bool {
        self.emitter_locked.contains(&key)
    }

    /// Emitter lock: `emitter.once(key, wake)`.
    pub fn emitter_listen(&mut self, key: LockKey, slot: SlotId) {
        self.emitter_listeners(key).push_back(slot);
    }

    /// Emitter lock: `key`'s `once` listeners, in registration order, for
    /// a caller that adds many at once.
    pub fn emitter_listeners(&mut self, key: LockKey) -> &mut VecDeque<SlotId> {
        self.listeners.entry(key).or_default()
    }

    /// Emitter lock: `locked.delete(key)`.
    pub fn emitter_unlock(&mut self, key: LockKey) {
        self.emitter_locked.remove(&key);
    }

    /// Emitter lock: `emit(key)` removes and returns every `once` listener,
    /// in registration order.
    pub fn emitter_emit(&mut self, key: LockKey) -> VecDeque<SlotId> {
        self.listeners.remove(&key).unwrap_or_default()
    }

    /// Ticket lock: hands out the next ticket of `key`.
    pub fn take_ticket(&mut self, key: LockKey, now: Micros) -> u64 {
        self.tickets.entry(key).or_default().take(now)
    }

    /// Ticket lock: see [`Tickets::check`].
    pub fn check_ticket(
        &mut self,
        key: LockKey,
        ticket: u64,
        ttl: Micros,
        now: Micros,
    ) -> TicketCheck {
        self.tickets.entry(key).or_default().check(ticket, ttl, now)
    }

    /// Ticket lock: `key`'s counters, if a ticket was taken.
    pub fn tickets(&self, key: LockKey) -> Option<&Tickets> {
        self.tickets.get(&key)
    }

    /// Ticket lock: see [`Tickets::release`].
    pub fn release_ticket(&mut self, key: LockKey, ticket: u64, now: Micros) -> bool {
        self.tickets.entry(key).or_default().release(ticket, now)
    }
}

impl Tickets {
    /// Hands out the next ticket.
    pub fn take(&mut self, now: Micros) -> u64 {
        if self.serving == self.next {
            // Free: the lease of the ticket about to be served starts now.
            self.served_since = now;
        }
        self.next += 1;
        self.next - 1
    }

    /// The ticket served (held if it was handed out).
    pub fn serving(&self) -> u64 {
        self.serving
    }

    /// Whether a check now would skip the held ticket: its lease (`ttl`,
    /// 0 for none) has run out.
    pub fn lease_runs_out(&self, ttl: Micros, now: Micros) -> bool {
        self.serving < self.next && ttl > 0 && now - self.served_since >= ttl
    }

    /// First skips a held ticket whose lease (`ttl`, 0 for none) has run
    /// out, then says whether `ticket` is served.
    #[inline]
    pub fn check(&mut self, ticket: u64, ttl: Micros, now: Micros) -> TicketCheck {
        let mut expired = None;
        if self.lease_runs_out(ttl, now) {
            expired = Some(self.serving);
            self.serving += 1;
            self.served_since = now;
        }
        TicketCheck {
            served: self.serving == ticket,
            expired,
        }
    }

    /// Release advances the counter only for the caller's own ticket; true
    /// if it did.
    pub fn release(&mut self, ticket: u64, now: Micros) -> bool {
        if self.serving != ticket {
            return false;
        }
        self.serving += 1;
        self.served_since = now;
        true
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
    fn ticket_lease_skips_a_ticket_held_too_long() {
        let mut locks = ServerLocks::default();
        let key = LockKey(0);
        assert_eq!(locks.take_ticket(key, 0), 0);
        assert_eq!(locks.take_ticket(key, 1), 1);
        let check = locks.check_ticket(key, 1, 10, 9);
        assert!(!check.served && check.expired.is_none());
        let check = locks.check_ticket(key, 1, 10, 10);
        assert_eq!((check.served, check.expired), (true, Some(0)));
        assert!(
            !locks.release_ticket(key, 0, 12),
            "an expired ticket releases nothing"
        );
        assert!(locks.release_ticket(key, 1, 12));
        assert_eq!(locks.take_ticket(key, 20), 2);
        assert!(locks.check_ticket(key, 2, 10, 20).served);
    }

    #[test]
    fn emitter_wakes_every_listener_in_order() {
        let mut locks = ServerLocks::default();
        let key = LockKey(2);
        assert!(locks.emitter_try_lock(key));
        assert!(!locks.emitter_try_lock(key));
        locks.emitter_listen(key, 7);
        locks.emitter_listen(key, 8);
        locks.emitter_unlock(key);
        assert_eq!(locks.emitter_emit(key), vec![7, 8]);
        assert!(locks.emitter_emit(key).is_empty());
        assert!(locks.emitter_try_lock(key));
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
