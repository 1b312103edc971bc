//! Foreign keys: a written row's key must match a row of the table it
//! refers to, and under NO ACTION or RESTRICT (PostgreSQL's default) a
//! row that another one still refers to can be neither deleted nor given
//! another key (the model runs no `CASCADE` or `SET NULL`). Checked as PostgreSQL's checks read: the latest committed rows
//! and the transaction's own writes, whatever its snapshot. PostgreSQL
//! also takes a `FOR KEY SHARE` lock on the row referred to; the model
//! takes none (docs/sql.md says where that shows).

use serde_json::Value;

use super::{key_of, key_text, no_table, same_key, sql_error, violation, Database, Stop, TxnId};
use crate::script::sql::value::Row;
use crate::script::sql::SqlError;
use crate::sql::{ForeignKey, TableSchema};

impl Database {
    /// The schema's foreign keys against the tables there already (a
    /// table may refer to itself): PostgreSQL's errors for a table or a
    /// column that does not exist and for referred columns that are no
    /// unique key. A key that names no columns refers to the primary key.
    pub(super) fn resolve_foreign_keys(&self, schema: &mut TableSchema) -> Result<(), SqlError> {
        let own = schema.clone();
        for fk in &mut schema.foreign_keys {
            let parent = if fk.table == own.name {
                &own
            } else {
                match self.tables.get(&fk.table) {
                    Some(table) => &table.schema,
                    None => return Err(no_table(&fk.table)),
                }
            };
            for column in &fk.columns {
                if !own.columns.iter().any(|c| &c.name == column) {
                    return Err(sql_error(
                        "42703",
                        format!("column \"{column}\" referenced in foreign key constraint does not exist"),
                    ));
                }
            }
            if fk.referred.is_empty() {
                let Some(primary) = parent.keys.iter().find(|k| k.primary) else {
                    return Err(sql_error(
                        "42704",
                        format!(
                            "there is no primary key for referenced table \"{}\"",
                            fk.table
                        ),
                    ));
                };
                fk.referred = primary.columns.clone();
            }
            for column in &fk.referred {
                if !parent.columns.iter().any(|c| &c.name == column) {
                    return Err(sql_error(
                        "42703",
                        format!("column \"{column}\" referenced in foreign key constraint does not exist"),
                    ));
                }
            }
            // A partial unique index does not make a key a row can refer to.
            let unique = parent.keys.iter().any(|k| {
                k.predicate.is_none()
                    && k.columns.len() == fk.referred.len()
                    && k.columns.iter().all(|c| fk.referred.contains(c))
            });
            if !unique {
                return Err(sql_error(
                    "42830",
                    format!(
                        "there is no unique constraint matching given keys for referenced table \"{}\"",
                        fk.table
                    ),
                ));
            }
            if fk.referred.len() != fk.columns.len() {
                return Err(sql_error(
                    "42830",
                    "number of referencing and referenced columns for foreign key disagree".into(),
                ));
            }
        }
        Ok(())
    }

    /// 23503 for the first row written to `name` whose key (none of it
    /// NULL: MATCH SIMPLE) matches no row of the table it refers to, nor
    /// another row of the same statement.
    pub(super) fn check_references(
        &self,
        id: TxnId,
        name: &str,
        rows: &[&Row],
    ) -> Result<(), Stop> {
        self.check_references_where(id, name, rows, |_, _| true)
    }

    /// [`Database::check_references`] of the rows `checked` picks for
    /// each foreign key (by their index in `rows`).
    fn check_references_where(
        &self,
        id: TxnId,
        name: &str,
        rows: &[&Row],
        checked: impl Fn(&ForeignKey, usize) -> bool,
    ) -> Result<(), Stop> {
        let table = self.table(name)?;
        for fk in &table.schema.foreign_keys {
            let parent = self.table(&fk.table)?;
            for (i, row) in rows.iter().enumerate() {
                if !checked(fk, i) {
                    continue;
                }
                let Some(key) = key_of(row, &fk.columns) else {
                    continue;
                };
                let matches = |r: &Row| key_of(r, &fk.referred).is_some_and(|k| same_key(&k, &key));
                // Through the parent's lookup (`lookup.rs`): a debug build
                // checks it against every slot.
                let holds = |look_up| {
                    (parent
                        .slots_holding(&fk.referred, &key, look_up)
                        .into_iter())
                    .any(|index| parent.slots[index].current(id).is_some_and(matches))
                };
                let held = holds(true);
                debug_assert_eq!(held, holds(false), "the lookup finds what a scan finds");
                let found = held || (fk.table == name && rows.iter().any(|r| matches(r)));
                if !found {
                    return Err(Stop::Fail(not_present(name, fk, &key)));
                }
            }
        }
        Ok(())
    }

    /// 23503 for the first of `rows` of `name` (deleted, or given another
    /// key) that a row of a table with a foreign key to `name` still
    /// refers to. `gone` are the slots of `name` the statement removes
    /// or rewrites (a row may refer to another of them).
    pub(super) fn check_referenced(
        &self,
        id: TxnId,
        name: &str,
        rows: &[&Row],
        gone: &[usize],
    ) -> Result<(), Stop> {
        self.check_referenced_where(id, name, rows, gone, |fk, _| fk.restricts_delete)
    }

    /// [`Database::check_referenced`] of the rows `checked` picks for
    /// each foreign key (by their index in `rows`).
    fn check_referenced_where(
        &self,
        id: TxnId,
        name: &str,
        rows: &[&Row],
        gone: &[usize],
        checked: impl Fn(&ForeignKey, usize) -> bool,
    ) -> Result<(), Stop> {
        for (child_name, child) in &self.tables {
            for fk in child
                .schema
                .foreign_keys
                .iter()
                .filter(|fk| fk.table == name)
            {
                for (i, row) in rows.iter().enumerate() {
                    if !checked(fk, i) {
                        continue;
                    }
                    let Some(key) = key_of(row, &fk.referred) else {
                        continue;
                    };
                    let refers = |look_up| {
                        (child.slots_holding(&fk.columns, &key, look_up).into_iter()).any(|index| {
                            !(child_name == name && gone.contains(&index))
                                && child.slots[index]
                                    .current(id)
                                    .and_then(|r| key_of(r, &fk.columns))
                                    .is_some_and(|k| same_key(&k, &key))
                        })
                    };
                    let referred = refers(true);
                    debug_assert_eq!(
                        referred,
                        refers(false),
                        "the lookup finds what a scan finds"
                    );
                    if referred {
                        return Err(Stop::Fail(still_referenced(name, child_name, fk, &key)));
                    }
                }
            }
        }
        Ok(())
    }

    /// An UPDATE's rows against the foreign keys: new keys must refer to
    /// a row, and a row whose key changes must not be referred to.
    pub(super) fn check_rekeyed(
        &self,
        id: TxnId,
        name: &str,
        found: &[usize],
        old_rows: &[Row],
        new_rows: &[Row],
    ) -> Result<(), Stop> {
        let changed = |columns: &[String], i: usize| {
            columns
                .iter()
                .any(|c| old_rows[i].get(c) != new_rows[i].get(c))
        };
        let new: Vec<&Row> = new_rows.iter().collect();
        self.check_references_where(id, name, &new, |fk, i| changed(&fk.columns, i))?;
        let old: Vec<&Row> = old_rows.iter().collect();
        self.check_referenced_where(id, name, &old, found, |fk, i| {
            fk.restricts_update && changed(&fk.referred, i)
        })
    }
}

fn not_present(table: &str, fk: &ForeignKey, key: &[Value]) -> SqlError {
    let message = format!(
        "insert or update on table \"{table}\" violates foreign key constraint \"{}\"",
        fk.name
    );
    let detail = format!(
        "{} is not present in table \"{}\".",
        key_text(&fk.columns, key),
        fk.table
    );
    violation(sql_error("23503", message), detail, &fk.name, table)
}

fn still_referenced(table: &str, child: &str, fk: &ForeignKey, key: &[Value]) -> SqlError {
    let message = format!(
        "update or delete on table \"{table}\" violates foreign key constraint \"{}\" on table \"{child}\"",
        fk.name
    );
    let detail = format!(
        "{} is still referenced from table \"{child}\".",
        key_text(&fk.referred, key)
    );
    violation(sql_error("23503", message), detail, &fk.name, child)
}
