//! A data-modifying `WITH` query's writes, kept aside while the rest of
//! its statement runs: PostgreSQL runs every part of a statement on one
//! snapshot, so the statement's other parts read the table as it was
//! before the write (`WITH ins AS (INSERT … RETURNING id) SELECT id FROM
//! ins UNION ALL SELECT id FROM users WHERE …` does not find the row it
//! inserted in `users`).
//!
//! While the write runs, a journal keeps each slot it changes as it was
//! before its first change. Afterwards the stash holds one state of each
//! of those slots (and of the table's serials) and the table the other:
//! swapping the two puts either in place, the table as the statement
//! found it for the rest of the statement, or as its writes left it for
//! another write of the same table and when the statement ends. The work
//! is the slots the write touched, not the table's size.

use std::collections::{BTreeMap, HashSet};

use super::{Database, Plan, Reply, Slot, Stop, Table, TxnId};

/// What a data-modifying `WITH` query wrote to a table, or the table as
/// the statement found it: whichever the table does not hold now.
#[derive(Clone)]
pub(super) struct Stash {
    pub(super) table: String,
    /// Slot index, and that slot's other state.
    slots: Vec<(usize, Slot)>,
    serials: BTreeMap<String, i64>,
    /// The table as the statement found it, whole: a debug build checks
    /// the swaps against it.
    #[cfg(debug_assertions)]
    found: Box<Table>,
}

impl Stash {
    /// Puts the stashed state in place, and the table's in the stash.
    fn swap(&mut self, table: &mut Table) {
        for (index, slot) in &mut self.slots {
            std::mem::swap(&mut table.slots[*index], slot);
        }
        std::mem::swap(&mut table.serials, &mut self.serials);
    }

    /// Checks (in a debug build) that `table` is as the statement found
    /// it: its slots, and empty ones for the rows the statement added.
    fn check_found(&self, table: &Table) {
        #[cfg(debug_assertions)]
        {
            let found = &self.found;
            assert_eq!(table.serials, found.serials, "the stash's serials");
            for (index, slot) in table.slots.iter().enumerate() {
                match found.slots.get(index) {
                    Some(was) => assert_eq!(slot, was, "the stash's slot {index}"),
                    None => assert_eq!(slot, &Slot::default(), "the stash's new slot {index}"),
                }
            }
        }
        #[cfg(not(debug_assertions))]
        let _ = table;
    }
}

/// The slots of `table` a data-modifying `WITH` query has changed so far,
/// each as it was before the statement changed it.
#[derive(Clone)]
pub(super) struct Journal {
    table: String,
    before: Vec<(usize, Slot)>,
    /// Their indexes, with those an earlier write of the statement stashed.
    seen: HashSet<usize>,
}

impl Database {
    /// Keeps slot `index` of `table` as it is, before a write or a lock
    /// changes it, if a data-modifying `WITH` query writing that table is
    /// running and has not changed the slot before.
    pub(super) fn journal(&mut self, table: &str, index: usize) {
        let Some(journal) = &mut self.journal else {
            return;
        };
        if journal.table == table && journal.seen.insert(index) {
            let slot = self.tables[table].slots[index].clone();
            journal.before.push((index, slot));
        }
    }

    /// Runs a data-modifying `WITH` query on the statement's snapshot (or,
    /// for a join that runs again after a wait, on a new one: it cannot
    /// recheck its rows, [`Plan::can_keep_snapshot`]), then stashes what
    /// it wrote: the rest of the statement reads the table as it was.
    pub(super) fn write_in_with(
        &mut self,
        id: TxnId,
        snapshot: u64,
        write: &Plan,
    ) -> Result<Reply, Stop> {
        let snapshot = match write.can_keep_snapshot() {
            true => snapshot,
            false => self.snapshot(id),
        };
        let resolved = match write.has_subquery() {
            true => self
                .resolve(id, snapshot, write)
                .map_err(|stopped| stopped.0)?,
            false => write.clone(),
        };
        let table = resolved.written_table().expect("a write").to_string();
        let ctx = self.context(id, Some(&table));
        if !self.tables.contains_key(&table) {
            return self.run_plan(id, snapshot, &resolved, &ctx);
        }
        // Writes over what the statement's earlier writes made of it.
        let stash = match self.take_stash(&table) {
            Some(earlier) => earlier,
            None => {
                let found = &self.tables[&table];
                Stash {
                    table: table.clone(),
                    slots: Vec::new(),
                    serials: found.serials.clone(),
                    #[cfg(debug_assertions)]
                    found: Box::new(found.clone()),
                }
            }
        };
        debug_assert!(self.journal.is_none(), "one write at a time");
        self.journal = Some(Journal {
            table: table.clone(),
            before: Vec::new(),
            seen: stash.slots.iter().map(|(index, _)| *index).collect(),
        });
        let result = self.run_plan(id, snapshot, &resolved, &ctx);
        let journal = self.journal.take().expect("the write's journal");
        let mut stash = stash;
        stash.slots.extend(journal.before);
        let written = self.tables.get_mut(&table).expect("a table");
        stash.swap(written);
        stash.check_found(written);
        self.stashed.push(stash);
        result
    }

    /// Puts back what the statement wrote to `table` in a data-modifying
    /// `WITH` query, before it writes it again.
    pub(super) fn unstash(&mut self, table: &str) {
        self.take_stash(table);
    }

    /// Puts back what the statement's data-modifying `WITH` queries wrote,
    /// as it ends.
    pub(super) fn unstash_all(&mut self) {
        for mut stash in std::mem::take(&mut self.stashed) {
            if let Some(table) = self.tables.get_mut(&stash.table) {
                stash.swap(table);
            }
        }
    }

    /// Puts what the statement wrote to `table` in place, and returns the
    /// stash, which now holds the table as the statement found it.
    fn take_stash(&mut self, table: &str) -> Option<Stash> {
        let n = self.stashed.iter().position(|stash| stash.table == table)?;
        let mut stash = self.stashed.remove(n);
        stash.swap(self.tables.get_mut(table).expect("a table"));
        Some(stash)
    }
}
