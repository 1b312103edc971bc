//! DB transactions on the `orders` table, as PostgreSQL runs them
//! (`docs/transactions.md`): buffered inserts that become visible at
//! commit, SERIALIZABLE's check of a "no order" read against the orders
//! committed since the snapshot (SSI's dangerous structure for this body),
//! and `SELECT ... FOR UPDATE` row locks on `users`, queued FIFO and held
//! until commit or rollback. Plain data: the core schedules.

use std::collections::VecDeque;

use rustc_hash::FxHashMap as HashMap;

use crate::config::TxMode;
use crate::world::locks::SlotId;

/// The transaction a request runs; requests run at most one at a time.
pub type TxId = u32;

/// One open transaction.
#[derive(Debug, Default)]
struct Tx {
    /// The commit sequence number its snapshot saw (SERIALIZABLE takes it
    /// at its first statement).
    snapshot: Option<u64>,
    /// Users whose `find_order` found no order (SSI's predicate reads).
    read_none: Vec<u32>,
    /// Inserted rows, visible to others only at commit, with their
    /// fencing tokens.
    pending: Vec<(u32, Option<u64>)>,
    /// `users` rows it locked FOR UPDATE.
    locked: Vec<u32>,
    /// It holds a DB connection, from its first statement to its end.
    connected: bool,
}

/// A `users` row lock: its holder and the FIFO of waiters (with the slot
/// each waits on).
#[derive(Debug, Default)]
struct RowLock {
    holder: Option<TxId>,
    waiters: VecDeque<(TxId, SlotId)>,
}

/// Why a transaction's statement or commit failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxFailure {
    /// SQLSTATE 40001: could not serialize access.
    Serialization,
}

#[derive(Debug, Default)]
pub struct Transactions {
    open: HashMap<TxId, Tx>,
    rows: HashMap<u32, RowLock>,
    /// Commits so far (the snapshot clock).
    commits: u64,
    /// Per user, the commit number that last added one of its orders.
    last_order_commit: HashMap<u32, u64>,
}

impl Transactions {
    pub fn begin(&mut self, tx: TxId) {
        self.open.insert(tx, Tx::default());
    }

    pub fn is_open(&self, tx: TxId) -> bool {
        // Most runs open none: skip hashing the id.
        !self.open.is_empty() && self.open.contains_key(&tx)
    }

    /// Whether `tx` holds a DB connection (its later statements need none).
    pub fn holds_connection(&self, tx: TxId) -> bool {
        !self.open.is_empty() && self.open.get(&tx).is_some_and(|open| open.connected)
    }

    /// `tx`'s first statement got a connection: it keeps it until it ends.
    pub fn keep_connection(&mut self, tx: TxId) {
        if let Some(open) = self.open.get_mut(&tx) {
            open.connected = true;
        }
    }

    /// A `find_order` inside `tx` landed with `found`; SERIALIZABLE takes
    /// its snapshot at this first statement.
    pub fn note_find(&mut self, tx: TxId, user: u32, found: bool, mode: TxMode) {
        let commits = self.commits;
        let Some(open) = self.open.get_mut(&tx) else {
            return;
        };
        if mode == TxMode::Serializable {
            open.snapshot.get_or_insert(commits);
        }
        if !found {
            open.read_none.push(user);
        }
    }

    /// SSI for this body: `tx` read "no order" for a user that another
    /// transaction has since given an order and committed. That one read
    /// nothing either and `tx` writes what it read, so one of the two must
    /// fail: the later one, `tx`.
    pub fn read_is_stale(&self, tx: TxId, mode: TxMode) -> bool {
        if mode != TxMode::Serializable {
            return false;
        }
        let Some(open) = self.open.get(&tx) else {
            return false;
        };
        let snapshot = open.snapshot.unwrap_or(self.commits);
        open.read_none.iter().any(|user| {
            self.last_order_commit
                .get(user)
                .is_some_and(|&commit| commit > snapshot)
        })
    }

    /// An insert inside `tx`: kept until commit.
    pub fn buffer_insert(&mut self, tx: TxId, user: u32, token: Option<u64>) {
        if let Some(open) = self.open.get_mut(&tx) {
            open.pending.push((user, token));
        }
    }

    /// The rows `tx` inserted, to apply at commit.
    pub fn pending(&self, tx: TxId) -> Vec<(u32, Option<u64>)> {
        self.open
            .get(&tx)
            .map(|open| open.pending.clone())
            .unwrap_or_default()
    }

    /// `tx` committed; `users` got an order from it. Ends it and returns
    /// the waiters its row locks pass to.
    pub fn commit(&mut self, tx: TxId, users: &[u32]) -> Vec<SlotId> {
        self.commits += 1;
        for &user in users {
            self.last_order_commit.insert(user, self.commits);
        }
        self.end(tx)
    }

    /// `tx` rolled back (or failed): its inserts vanish. Returns the
    /// waiters its row locks pass to.
    pub fn rollback(&mut self, tx: TxId) -> Vec<SlotId> {
        self.end(tx)
    }

    /// `SELECT ... FOR UPDATE` on `user`'s row landed: true if `tx` holds
    /// the lock now, else it waits on `slot`, behind earlier waiters.
    pub fn lock_row(&mut self, tx: TxId, user: u32, slot: SlotId) -> bool {
        let row = self.rows.entry(user).or_default();
        match row.holder {
            Some(holder) if holder != tx => {
                row.waiters.push_back((tx, slot));
                false
            }
            _ => {
                row.holder = Some(tx);
                if let Some(open) = self.open.get_mut(&tx) {
                    if !open.locked.contains(&user) {
                        open.locked.push(user);
                    }
                }
                true
            }
        }
    }

    fn end(&mut self, tx: TxId) -> Vec<SlotId> {
        let Some(open) = self.open.remove(&tx) else {
            return Vec::new();
        };
        let mut granted = Vec::new();
        for user in open.locked {
            let row = self.rows.entry(user).or_default();
            row.holder = None;
            if let Some((next, slot)) = row.waiters.pop_front() {
                row.holder = Some(next);
                if let Some(waiter) = self.open.get_mut(&next) {
                    waiter.locked.push(user);
                }
                granted.push(slot);
            }
        }
        granted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_later_of_two_none_readers_is_stale_once_the_first_commits() {
        let mut txs = Transactions::default();
        let mode = TxMode::Serializable;
        txs.begin(0);
        txs.begin(1);
        txs.note_find(0, 7, false, mode);
        txs.note_find(1, 7, false, mode);
        txs.buffer_insert(0, 7, None);
        assert!(!txs.read_is_stale(0, mode) && !txs.read_is_stale(1, mode));
        assert_eq!(txs.pending(0), vec![(7, None)]);
        txs.commit(0, &[7]);
        assert!(txs.read_is_stale(1, mode));
        assert!(!txs.read_is_stale(1, TxMode::ReadCommitted));
        // A transaction that starts after the commit reads a fresh snapshot.
        txs.rollback(1);
        txs.begin(2);
        txs.note_find(2, 7, false, mode);
        assert!(!txs.read_is_stale(2, mode));
    }

    #[test]
    fn row_locks_pass_fifo_at_commit_or_rollback() {
        let mut txs = Transactions::default();
        for tx in 0..3 {
            txs.begin(tx);
        }
        assert!(txs.lock_row(0, 5, 100));
        assert!(!txs.lock_row(1, 5, 101));
        assert!(!txs.lock_row(2, 5, 102));
        assert!(txs.lock_row(0, 5, 103), "a holder locks again at once");
        assert_eq!(txs.commit(0, &[]), vec![101]);
        assert_eq!(txs.rollback(1), vec![102]);
        assert_eq!(txs.commit(2, &[]), Vec::<SlotId>::new());
        txs.begin(3);
        assert!(txs.lock_row(3, 5, 104));
    }
}
