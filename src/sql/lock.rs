//! Table-level locks: `LOCK TABLE`'s explicit modes and the weaker ones
//! every statement takes on the tables it names, PostgreSQL's eight modes
//! with PostgreSQL's conflict table ("Explicit Locking", "Table-Level
//! Locks"). The store (`script::sql::store`) holds them per transaction.

use serde::{Deserialize, Serialize};

use super::{Cte, Expr, Join, Plan, Projection, Select};

/// A table lock's mode, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TableLock {
    /// A plain `SELECT`'s.
    AccessShare,
    /// `SELECT … FOR UPDATE` or `FOR SHARE`'s.
    RowShare,
    /// `INSERT`, `UPDATE` and `DELETE`'s.
    RowExclusive,
    ShareUpdateExclusive,
    Share,
    ShareRowExclusive,
    Exclusive,
    /// `LOCK TABLE`'s default.
    AccessExclusive,
}

impl TableLock {
    /// Every mode, weakest first.
    pub const ALL: [TableLock; 8] = [
        TableLock::AccessShare,
        TableLock::RowShare,
        TableLock::RowExclusive,
        TableLock::ShareUpdateExclusive,
        TableLock::Share,
        TableLock::ShareRowExclusive,
        TableLock::Exclusive,
        TableLock::AccessExclusive,
    ];

    /// This mode as one bit of a set of modes.
    pub fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The modes another transaction's lock of this mode excludes, as a
    /// set of [`TableLock::bit`]s (the table is symmetric).
    pub fn conflicts(self) -> u8 {
        // Bits, weakest mode lowest: AccessShare is 0b0000_0001.
        match self {
            TableLock::AccessShare => 0b1000_0000,
            TableLock::RowShare => 0b1100_0000,
            TableLock::RowExclusive => 0b1111_0000,
            TableLock::ShareUpdateExclusive => 0b1111_1000,
            TableLock::Share => 0b1110_1100,
            TableLock::ShareRowExclusive => 0b1111_1100,
            TableLock::Exclusive => 0b1111_1110,
            TableLock::AccessExclusive => 0b1111_1111,
        }
    }

    /// Its name as `LOCK TABLE … IN … MODE` writes it.
    pub fn name(self) -> &'static str {
        match self {
            TableLock::AccessShare => "ACCESS SHARE",
            TableLock::RowShare => "ROW SHARE",
            TableLock::RowExclusive => "ROW EXCLUSIVE",
            TableLock::ShareUpdateExclusive => "SHARE UPDATE EXCLUSIVE",
            TableLock::Share => "SHARE",
            TableLock::ShareRowExclusive => "SHARE ROW EXCLUSIVE",
            TableLock::Exclusive => "EXCLUSIVE",
            TableLock::AccessExclusive => "ACCESS EXCLUSIVE",
        }
    }
}

/// `LOCK [TABLE] [ONLY] name [, …] [IN mode MODE] [NOWAIT]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LockTable {
    pub tables: Vec<String>,
    pub mode: TableLock,
    /// Fail at once (55P03) rather than wait for a conflicting lock.
    pub nowait: bool,
}

impl Plan {
    /// The table locks a statement takes before it runs, in the order it
    /// names its tables: `ROW EXCLUSIVE` on the table it writes, `ROW
    /// SHARE` on a table a `FOR UPDATE` or `FOR SHARE` locks rows of, and
    /// `ACCESS SHARE` on every other table it reads (subqueries and
    /// `WITH` queries included). A table named twice comes once, with the
    /// strongest of its modes. `LOCK TABLE`'s own are its tables and mode.
    pub fn table_locks(&self) -> Vec<(String, TableLock)> {
        let mut locks = Locks::default();
        for cte in self.with() {
            match &cte.write {
                Some(write) => locks.plan(write),
                None => locks.select(&cte.select),
            }
        }
        locks.plan(self);
        locks.0
    }
}

impl Locks {
    /// A statement's own locks (its `WITH` queries' aside).
    fn plan(&mut self, plan: &Plan) {
        let locks = self;
        match plan {
            Plan::Select(select) => locks.select(select),
            Plan::Insert(insert) => {
                locks.take(&insert.table, TableLock::RowExclusive);
                if let Some(select) = &insert.select {
                    locks.select(select);
                }
                insert.rows.iter().flatten().for_each(|e| locks.expr(e));
                if let Some(super::OnConflict::Update { set, filter, .. }) = &insert.on_conflict {
                    set.iter()
                        .map(|(_, e)| e)
                        .chain(filter)
                        .for_each(|e| locks.expr(e));
                }
                locks.projection(insert.returning.as_ref());
            }
            Plan::Update(update) => {
                let set = update.set.iter().map(|(_, e)| e);
                let exprs = set.chain(&update.filter);
                locks.written(&update.table, &update.from, exprs, &update.returning);
            }
            Plan::Delete(delete) => {
                let exprs = delete.filter.iter();
                locks.written(&delete.table, &delete.using, exprs, &delete.returning);
            }
            Plan::Lock(lock) => {
                for table in &lock.tables {
                    locks.take(table, lock.mode);
                }
            }
            Plan::Begin(_)
            | Plan::SetIsolation(_)
            | Plan::Commit
            | Plan::Rollback
            | Plan::Savepoint(_)
            | Plan::Release(_)
            | Plan::RollbackTo(_)
            | Plan::Set { .. }
            | Plan::Reset(_)
            | Plan::Show { .. } => {}
        }
    }
}

/// The locks of [`Plan::table_locks`] as they are found.
#[derive(Default)]
struct Locks(Vec<(String, TableLock)>);

impl Locks {
    /// `mode` on `table`, unless it is a `WITH` query's rows.
    fn take(&mut self, table: &str, mode: TableLock) {
        if Cte::is_table(table) {
            return;
        }
        match self.0.iter_mut().find(|(t, _)| *t == table) {
            Some((_, held)) => *held = (*held).max(mode),
            None => self.0.push((table.to_string(), mode)),
        }
    }

    /// An UPDATE's or a DELETE's: its table, the tables joined to it
    /// (`FROM`, `USING`), and the subqueries of its expressions.
    fn written<'a>(
        &mut self,
        table: &str,
        joins: &[Join],
        exprs: impl Iterator<Item = &'a Expr>,
        returning: &Option<Projection>,
    ) {
        self.take(table, TableLock::RowExclusive);
        for join in joins {
            self.take(&join.table, TableLock::AccessShare);
            join.on.iter().for_each(|e| self.expr(e));
        }
        exprs.for_each(|e| self.expr(e));
        self.projection(returning.as_ref());
    }

    fn select(&mut self, select: &Select) {
        for (n, (table, _)) in select.sources().into_iter().enumerate() {
            let locked = select.locks() && (select.joins.is_empty() || select.locked.contains(&n));
            let mode = match locked {
                true => TableLock::RowShare,
                false => TableLock::AccessShare,
            };
            self.take(table, mode);
        }
        self.projection(Some(&select.projection));
        for e in select
            .clauses()
            .into_iter()
            .flatten()
            .chain(select.joins.iter().filter_map(|j| j.on.as_ref()))
        {
            self.expr(e);
        }
    }

    fn projection(&mut self, projection: Option<&Projection>) {
        if let Some(Projection::Items(items)) = projection {
            items.iter().for_each(|(_, e)| self.expr(e));
        }
    }

    /// The tables of the subqueries in an expression.
    fn expr(&mut self, e: &Expr) {
        if let Some(select) = e.subquery() {
            self.select(select);
        }
        e.each_child(&mut |child| self.expr(child));
    }
}

#[cfg(test)]
mod tests {
    use super::TableLock;

    /// PostgreSQL's table of conflicting modes, row by row as its
    /// documentation prints it ("Conflicting Lock Modes"), X a conflict.
    #[test]
    fn the_conflicts_are_postgresqls() {
        let table = [
            ".......X", // ACCESS SHARE
            "......XX", // ROW SHARE
            "....XXXX", // ROW EXCLUSIVE
            "...XXXXX", // SHARE UPDATE EXCLUSIVE
            "..XX.XXX", // SHARE
            "..XXXXXX", // SHARE ROW EXCLUSIVE
            ".XXXXXXX", // EXCLUSIVE
            "XXXXXXXX", // ACCESS EXCLUSIVE
        ];
        for (mode, row) in TableLock::ALL.into_iter().zip(table) {
            for (other, mark) in TableLock::ALL.into_iter().zip(row.chars()) {
                let conflict = mode.conflicts() & other.bit() != 0;
                assert_eq!(
                    conflict,
                    mark == 'X',
                    "{} against {}",
                    mode.name(),
                    other.name()
                );
                let back = other.conflicts() & mode.bit() != 0;
                assert_eq!(conflict, back, "the table is symmetric");
            }
        }
    }
}
