//! Savepoints: `SAVEPOINT name`, `RELEASE [SAVEPOINT] name` and `ROLLBACK
//! TO [SAVEPOINT] name` in a transaction block, as PostgreSQL runs them.
//!
//! A savepoint keeps what its transaction held when it was set: each row
//! it had written or locked, as it had it, its table locks and its
//! transaction-level advisory locks. Going back to it undoes the writes
//! made since, and lets go of the locks taken since: another transaction
//! that waits for one goes on, as it does on PostgreSQL, where the
//! subtransaction that took it has aborted. Sequences are not rolled back
//! (a serial value stays used), nor are SERIALIZABLE's reads.
//!
//! An error in a block with a savepoint undoes the work since the latest
//! one at once (PostgreSQL aborts that subtransaction when the error
//! happens); the block then refuses everything but `ROLLBACK TO` a
//! savepoint, `ROLLBACK` and `COMMIT` (which rolls back), as without one.

use super::{sql_error, AdvisoryKey, Database, Hold, Owner, TxnId};
use crate::script::sql::value::Row;
use crate::script::sql::SqlError;

/// A savepoint of a transaction block.
#[derive(Clone)]
pub(super) struct Savepoint {
    name: String,
    /// Each row the transaction held, as it held it.
    rows: Vec<((String, usize), Held)>,
    table_locks: Vec<(String, u8)>,
    advisory: Vec<(AdvisoryKey, Hold)>,
}

/// How a transaction held a row: its own write (the row, or `None` for a
/// delete, and its place in the heap), a `FOR UPDATE` lock, a `FOR SHARE`
/// lock.
#[derive(Clone)]
struct Held {
    write: Option<(Option<Row>, u64)>,
    locker: bool,
    sharer: bool,
}

/// The command a savepoint statement names in PostgreSQL's 25P01.
pub(super) fn outside_a_block(command: &str) -> SqlError {
    sql_error(
        "25P01",
        format!("{command} can only be used in transaction blocks"),
    )
}

pub(super) fn no_savepoint(name: &str) -> SqlError {
    sql_error("3B001", format!("savepoint \"{name}\" does not exist"))
}

impl Database {
    /// `SAVEPOINT name`: a new savepoint, after any of the same name.
    pub(super) fn set_savepoint(&mut self, id: TxnId, name: &str) {
        let txn = &self.txns[&id];
        let rows = txn
            .held
            .iter()
            .map(|(table, index)| {
                let slot = &self.tables[table].slots[*index];
                let write = match &slot.pending {
                    Some((writer, row)) if *writer == id => Some((row.clone(), slot.pending_place)),
                    _ => None,
                };
                let held = Held {
                    write,
                    locker: slot.locker == Some(id),
                    sharer: slot.sharers.contains(&id),
                };
                ((table.clone(), *index), held)
            })
            .collect();
        let advisory = self
            .advisory
            .iter()
            .filter(|(_, hold)| hold.owner == Owner::Txn(id))
            .map(|(key, hold)| (*key, *hold))
            .collect();
        let savepoint = Savepoint {
            name: name.to_string(),
            rows,
            table_locks: self.table_locks.held_by(id),
            advisory,
        };
        let txn = self.txns.get_mut(&id).expect("a transaction");
        txn.savepoints.push(savepoint);
    }

    /// `RELEASE name`: forgets the latest savepoint of that name and every
    /// one after it, keeping their work.
    pub(super) fn release_savepoint(&mut self, id: TxnId, name: &str) -> Result<(), SqlError> {
        let at = self.savepoint(id, name)?;
        let txn = self.txns.get_mut(&id).expect("a transaction");
        txn.savepoints.truncate(at);
        Ok(())
    }

    /// `ROLLBACK TO name`: back to the latest savepoint of that name, which
    /// stays; the ones after it go.
    pub(super) fn rollback_to_savepoint(&mut self, id: TxnId, name: &str) -> Result<(), SqlError> {
        let at = self.savepoint(id, name)?;
        self.go_back(id, at);
        Ok(())
    }

    /// Whether the transaction has a savepoint to go back to when one of
    /// its statements fails.
    pub(super) fn has_savepoint(&self, id: TxnId) -> bool {
        self.txns
            .get(&id)
            .is_some_and(|txn| !txn.savepoints.is_empty())
    }

    /// A statement failed: the work since the latest savepoint is undone.
    pub(super) fn abort_to_latest_savepoint(&mut self, id: TxnId) {
        let latest = self.txns[&id].savepoints.len() - 1;
        self.go_back(id, latest);
    }

    fn savepoint(&self, id: TxnId, name: &str) -> Result<usize, SqlError> {
        self.txns[&id]
            .savepoints
            .iter()
            .rposition(|savepoint| savepoint.name == name)
            .ok_or_else(|| no_savepoint(name))
    }

    /// Undoes everything the transaction did after its savepoint `at`.
    fn go_back(&mut self, id: TxnId, at: usize) {
        let txn = self.txns.get_mut(&id).expect("a transaction");
        txn.savepoints.truncate(at + 1);
        let savepoint = txn.savepoints[at].clone();
        let held = std::mem::take(&mut txn.held);
        for (row, _) in &savepoint.rows {
            txn.held.insert(row.clone());
        }
        for row in held {
            let then = savepoint
                .rows
                .iter()
                .find_map(|(was, held)| (*was == row).then_some(held));
            let (table, index) = row;
            let slot = &mut self.tables.get_mut(&table).expect("a table").slots[index];
            if slot.locker == Some(id) && !then.is_some_and(|held| held.locker) {
                slot.locker = None;
            }
            if !then.is_some_and(|held| held.sharer) {
                slot.sharers.retain(|&s| s != id);
            }
            if slot
                .pending
                .as_ref()
                .is_some_and(|(writer, _)| *writer == id)
            {
                slot.pending = None;
            }
            if let Some((row, place)) = then.and_then(|held| held.write.clone()) {
                slot.pending = Some((id, row));
                slot.pending_place = place;
            }
        }
        self.table_locks.restore(id, &savepoint.table_locks);
        self.advisory.retain(|_, hold| hold.owner != Owner::Txn(id));
        self.advisory.extend(savepoint.advisory);
    }
}
