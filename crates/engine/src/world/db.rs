//! The database: `products` (select by id) and `orders` (find by user and
//! event, insert), with an optional connection pool shared by all servers.

use std::collections::VecDeque;

use crate::config::TxMode;
use crate::world::locks::SlotId;
use crate::world::transactions::{Transactions, TxFailure, TxId};

/// What an insert did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertResult {
    Inserted,
    /// The unique constraint refused a second row.
    Conflict,
    /// Its fencing token was older than one already seen.
    Fenced,
}

/// How a transaction's COMMIT ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommitResult {
    /// Its rows are visible now; this many orders were added.
    Committed(u32),
    /// SERIALIZABLE refused it (SQLSTATE 40001); nothing was written.
    Failed(TxFailure),
    /// A deferred insert was refused (unique constraint, fencing); nothing
    /// was written.
    Refused(InsertResult),
}

/// The order table of the single event every ticket request is for.
#[derive(Default)]
pub struct Db {
    /// Order rows per user.
    orders: Vec<u32>,
    /// A unique constraint on (user, event).
    unique: bool,
    /// The highest fencing token an accepted write carried, per user row.
    fence: Vec<u64>,
    pool: Option<u32>,
    in_use: u32,
    /// Queries waiting for a connection, oldest first, with their drawn latency.
    queued: VecDeque<(usize, u64)>,
    /// How the ticket body uses transactions.
    mode: TxMode,
    /// Open transactions, their row locks and the commit log.
    pub transactions: Transactions,
}

impl Db {
    pub fn new(pool: Option<u32>) -> Self {
        Db {
            pool,
            ..Db::default()
        }
    }

    /// With a unique constraint on (user, event) in `orders`.
    pub fn with_unique(mut self, unique: bool) -> Self {
        self.unique = unique;
        self
    }

    /// With the ticket body's transactions run in `mode`.
    pub fn with_transactions(mut self, mode: TxMode) -> Self {
        self.mode = mode;
        self
    }

    pub fn tx_mode(&self) -> TxMode {
        self.mode
    }

    /// Whether `tx` is inside a transaction now.
    pub fn in_transaction(&self, tx: TxId) -> bool {
        self.transactions.is_open(tx)
    }

    /// A `find_order` of `tx` landed: committed rows only (both isolation
    /// levels see the same here: SERIALIZABLE's snapshot is taken by this
    /// very statement).
    pub fn find_order_in(&mut self, tx: TxId, user: u32) -> bool {
        let found = self.find_order(user);
        self.transactions.note_find(tx, user, found, self.mode);
        found
    }

    /// An insert of `tx` landed: kept for its commit, or a serialization
    /// failure (the transaction is rolled back; the slots are the row-lock
    /// waiters that get the lock now).
    pub fn insert_in(
        &mut self,
        tx: TxId,
        user: u32,
        token: Option<u64>,
    ) -> Result<(), (TxFailure, Vec<SlotId>)> {
        if self.transactions.read_is_stale(tx, self.mode) {
            let granted = self.transactions.rollback(tx);
            return Err((TxFailure::Serialization, granted));
        }
        self.transactions.buffer_insert(tx, user, token);
        Ok(())
    }

    /// COMMIT of `tx` landed: SERIALIZABLE's check, then its inserts as the
    /// DB checks them (all or nothing). Returns the row-lock waiters that
    /// get the lock now.
    pub fn commit(&mut self, tx: TxId) -> (CommitResult, Vec<SlotId>) {
        if self.transactions.read_is_stale(tx, self.mode) {
            let granted = self.transactions.rollback(tx);
            return (CommitResult::Failed(TxFailure::Serialization), granted);
        }
        let pending = self.transactions.pending(tx);
        let fence_before = self.fence.clone();
        let mut users = Vec::new();
        for (user, token) in pending {
            match self.insert_checked(user, token) {
                InsertResult::Inserted => users.push(user),
                refused => {
                    for &user in &users {
                        self.orders[user as usize] -= 1;
                    }
                    self.fence = fence_before;
                    let granted = self.transactions.rollback(tx);
                    return (CommitResult::Refused(refused), granted);
                }
            }
        }
        let granted = self.transactions.commit(tx, &users);
        (CommitResult::Committed(users.len() as u32), granted)
    }

    /// A product row; its value is the version the loader saw.
    pub fn select(&self, id: u32) -> u64 {
        u64::from(id) + 1
    }

    pub fn find_order(&self, user: u32) -> bool {
        self.orders.get(user as usize).is_some_and(|&rows| rows > 0)
    }

    pub fn insert_order(&mut self, user: u32) {
        let slot = user as usize;
        if slot >= self.orders.len() {
            self.orders.resize(slot + 1, 0);
        }
        self.orders[slot] += 1;
    }

    /// An insert as the DB checks it: a fencing token older than one an
    /// accepted write to this row carried is refused first, then the
    /// unique constraint; else the row is added.
    pub fn insert_checked(&mut self, user: u32, token: Option<u64>) -> InsertResult {
        let slot = user as usize;
        if let Some(token) = token {
            if slot >= self.fence.len() {
                self.fence.resize(slot + 1, 0);
            }
            if token < self.fence[slot] {
                return InsertResult::Fenced;
            }
            self.fence[slot] = token;
        }
        if self.unique && self.find_order(user) {
            return InsertResult::Conflict;
        }
        self.insert_order(user);
        InsertResult::Inserted
    }

    pub fn orders(&self) -> u64 {
        self.orders.iter().map(|&rows| u64::from(rows)).sum()
    }

    pub fn duplicate_tickets(&self) -> u64 {
        self.orders
            .iter()
            .map(|&rows| u64::from(rows.saturating_sub(1)))
            .sum()
    }

    /// Asks for a connection for query `op`: true if it got one now; else it
    /// waits in FIFO order with its already drawn latency.
    pub fn connect(&mut self, op: usize, latency: u64) -> bool {
        if self.pool.is_some_and(|size| self.in_use >= size) {
            self.queued.push_back((op, latency));
            return false;
        }
        self.in_use += 1;
        true
    }

    /// Returns a connection; the oldest queued query takes it at once.
    pub fn disconnect(&mut self) -> Option<(usize, u64)> {
        match self.queued.pop_front() {
            Some(next) => Some(next),
            None => {
                self.in_use -= 1;
                None
            }
        }
    }

    /// Queries holding a connection now.
    pub fn in_use(&self) -> u32 {
        self.in_use
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_queues_fifo_and_hands_over_on_completion() {
        let mut db = Db::new(Some(1));
        assert!(db.connect(1, 10));
        assert!(!db.connect(2, 20));
        assert!(!db.connect(3, 30));
        assert_eq!(db.in_use(), 1);
        assert_eq!(db.disconnect(), Some((2, 20)));
        assert_eq!(db.disconnect(), Some((3, 30)));
        assert_eq!(db.disconnect(), None);
        assert_eq!(db.in_use(), 0);
    }

    #[test]
    fn fencing_refuses_older_tokens_and_unique_refuses_a_second_row() {
        let mut db = Db::new(None);
        assert_eq!(db.insert_checked(0, Some(2)), InsertResult::Inserted);
        assert_eq!(db.insert_checked(0, Some(1)), InsertResult::Fenced);
        assert_eq!(db.insert_checked(0, Some(2)), InsertResult::Inserted);
        assert_eq!(db.orders(), 2);
        let mut db = Db::new(None).with_unique(true);
        assert_eq!(db.insert_checked(3, None), InsertResult::Inserted);
        assert_eq!(db.insert_checked(3, None), InsertResult::Conflict);
        assert_eq!(db.duplicate_tickets(), 0);
    }

    #[test]
    fn duplicates_count_rows_beyond_the_first_per_user() {
        let mut db = Db::new(None);
        for user in [0, 0, 0, 2, 5, 5] {
            db.insert_order(user);
        }
        assert_eq!(db.orders(), 6);
        assert_eq!(db.duplicate_tickets(), 3);
        assert!(db.find_order(2) && !db.find_order(1));
    }
}
