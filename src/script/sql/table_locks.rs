//! The table locks each transaction holds (`crate::sql::lock`): taken by
//! `LOCK TABLE` and by every statement on the tables it names, held until
//! the transaction ends, as in PostgreSQL.

use std::collections::BTreeMap;

use crate::sql::TableLock;

/// Per table, the modes each transaction (by its id, `Id`) holds on it,
/// as a set of [`TableLock::bit`]s.
#[derive(Clone)]
pub struct TableLocks<Id>(BTreeMap<String, BTreeMap<Id, u8>>);

impl<Id> Default for TableLocks<Id> {
    fn default() -> Self {
        TableLocks(BTreeMap::new())
    }
}

impl<Id: Ord + Copy> TableLocks<Id> {
    /// `id` takes `mode` on `table`, unless another transaction holds a
    /// mode that conflicts with it: then nothing is taken, and the
    /// answer is that transaction (the oldest, if several do).
    pub fn take(&mut self, id: Id, table: &str, mode: TableLock) -> Result<(), Id> {
        let holders = match self.0.get_mut(table) {
            Some(holders) => holders,
            None => self.0.entry(table.to_string()).or_default(),
        };
        let conflicts = mode.conflicts();
        if let Some((&holder, _)) = holders
            .iter()
            .find(|(&other, &held)| other != id && held & conflicts != 0)
        {
            return Err(holder);
        }
        *holders.entry(id).or_default() |= mode.bit();
        Ok(())
    }

    /// The transaction ended: its locks go.
    pub fn release(&mut self, id: Id) {
        for holders in self.0.values_mut() {
            holders.remove(&id);
        }
    }

    /// The modes `id` holds, by table.
    pub fn held_by(&self, id: Id) -> Vec<(String, u8)> {
        self.0
            .iter()
            .filter_map(|(table, holders)| Some((table.clone(), *holders.get(&id)?)))
            .collect()
    }

    /// `id` goes back to holding `held` ([`TableLocks::held_by`] before):
    /// the locks it took since go.
    pub fn restore(&mut self, id: Id, held: &[(String, u8)]) {
        for (table, holders) in &mut self.0 {
            match held.iter().find(|(t, _)| t == table) {
                Some(&(_, modes)) => {
                    holders.insert(id, modes);
                }
                None => {
                    holders.remove(&id);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_waits_for_the_holders_of_a_conflicting_mode_only() {
        let mut locks = TableLocks::<u64>::default();
        // Two writers share ROW EXCLUSIVE.
        assert_eq!(locks.take(1, "t", TableLock::RowExclusive), Ok(()));
        assert_eq!(locks.take(2, "t", TableLock::RowExclusive), Ok(()));
        // SHARE waits for the oldest writer, and takes nothing.
        assert_eq!(locks.take(3, "t", TableLock::Share), Err(1));
        locks.release(1);
        assert_eq!(locks.take(3, "t", TableLock::Share), Err(2));
        locks.release(2);
        assert_eq!(locks.take(3, "t", TableLock::Share), Ok(()));
        // Its own locks never stop a transaction; another table is free.
        assert_eq!(locks.take(3, "t", TableLock::RowExclusive), Ok(()));
        assert_eq!(locks.take(4, "u", TableLock::AccessExclusive), Ok(()));
        // A reader passes SHARE, a writer does not.
        assert_eq!(locks.take(5, "t", TableLock::AccessShare), Ok(()));
        assert_eq!(locks.take(5, "t", TableLock::RowExclusive), Err(3));
    }
}
