//! The simulated PostgreSQL behind the `pg` module (docs/sql.md): tables
//! of rows with their columns, keys and sequences; transactions with
//! READ COMMITTED, REPEATABLE READ and SERIALIZABLE; row locks that make a
//! statement wait for another transaction; and PostgreSQL's errors.
//!
//! Every statement lands atomically at its completion time, as every
//! other operation of the simulation does. It either completes, fails, or
//! waits for a transaction that holds a row it needs (the caller retries
//! it when that transaction ends).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::aggregate::{self, compare_keys, GroupTerm};
use super::analysis::{self, column_of};
use super::eval::{cast, eval, is_numeric, matches, sql_equal, type_of, Context, XMAX};
use super::fold;
use super::parse::{
    Delete, Expr, Function, Insert, Isolation, OnConflict, Plan, Projection, Select, SqlError,
    Update,
};
use super::parse::{Element, Type};
use super::settings::Settings;
use super::table_locks::TableLocks;
use super::types::Uuids;
use crate::script::split::{loaded, Loaded};
use crate::sql::Join;
use crate::sql::PerRow;
use crate::sql::{Column, Cte, Default, Key, Materialized, Op, TableSchema};

mod foreign_keys;
mod lookup;
mod savepoints;
mod stash;

pub use super::eval::Row;
pub type TxnId = u64;

/// A statement's result, as pg's `Result` has it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub command: &'static str,
    pub row_count: Option<u64>,
    pub rows: Vec<Row>,
    /// Each column's name and PostgreSQL type id.
    pub fields: Vec<(String, u32)>,
}

impl Reply {
    fn tag(command: &'static str) -> Self {
        Reply {
            command,
            row_count: None,
            rows: Vec::new(),
            fields: Vec::new(),
        }
    }

    pub fn to_json(&self) -> Value {
        let fields: Vec<Value> = self
            .fields
            .iter()
            .map(|(name, oid)| serde_json::json!({"name": name, "dataTypeID": oid}))
            .collect();
        // A bigint goes as PostgreSQL's text, as on the wire: a JavaScript
        // number would lose the digits past 2^53 before pg's parser sees it.
        // So does each element of a bigint[].
        let bigints: Vec<&str> = self
            .fields
            .iter()
            .filter(|(_, oid)| {
                [Type::BigInt, Type::Array(Element::BigInt)]
                    .iter()
                    .any(|ty| ty.oid() == *oid)
            })
            .map(|(name, _)| name.as_str())
            .collect();
        let as_text = |value: &mut Value| {
            if let Value::Number(n) = value {
                *value = Value::String(n.to_string());
            }
        };
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|row| {
                let mut row = row.clone();
                for name in &bigints {
                    match row.get_mut(*name) {
                        Some(Value::Array(items)) => items.iter_mut().for_each(as_text),
                        Some(value) => as_text(value),
                        None => {}
                    }
                }
                Value::Object(row)
            })
            .collect();
        serde_json::json!({
            "command": self.command,
            "rowCount": self.row_count,
            "rows": rows,
            "fields": fields,
        })
    }
}

/// A table at the end of a run (`Database::summaries`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSummary {
    pub name: String,
    pub rows: u64,
    /// The columns of each expected uniqueness (`-- expect unique`).
    pub expect_unique: Vec<Vec<String>>,
    pub duplicates: u64,
}

/// How a statement landed.
#[derive(Clone, Debug, PartialEq)]
pub enum Landed {
    Done(Reply),
    /// It waits for this transaction to end; nothing of it was applied.
    Waits(TxnId),
    Failed(SqlError),
}

/// What one statement did: how it landed, the transactions that ended
/// and the advisory holds it released (their waiters may go on), and the
/// session of a waiting transaction that a deadlock failed (its waiting
/// statement fails with the deadlock).
#[derive(Clone, Debug, PartialEq)]
pub struct Ran {
    pub landed: Landed,
    pub ended: Vec<TxnId>,
    pub victim: Option<(u64, SqlError)>,
}

#[derive(Clone, Debug, PartialEq)]
struct Version {
    seq: u64,
    writer: TxnId,
    row: Option<Row>,
    /// Where it is in the table's heap ([`Table::next_place`]).
    place: u64,
}

/// One row through time: its committed versions, the one write a running
/// transaction holds on it (and its place in the heap), a FOR UPDATE lock
/// and the FOR SHARE locks.
#[derive(Clone, Debug, Default, PartialEq)]
struct Slot {
    versions: Vec<Version>,
    pending: Option<(TxnId, Option<Row>)>,
    pending_place: u64,
    locker: Option<TxnId>,
    sharers: Vec<TxnId>,
}

impl Slot {
    fn latest(&self) -> Option<&Row> {
        self.versions.last().and_then(|v| v.row.as_ref())
    }

    /// The row as `id` writes over it: its own write, else the latest
    /// commit (whatever its snapshot saw).
    fn current(&self, id: TxnId) -> Option<&Row> {
        match &self.pending {
            Some((writer, row)) if *writer == id => row.as_ref(),
            _ => self.latest(),
        }
    }

    fn latest_seq(&self) -> u64 {
        self.versions.last().map_or(0, |v| v.seq)
    }

    /// Who else holds the row against a write or `FOR UPDATE` (its write
    /// or a lock of any strength), if anyone.
    fn holder(&self, me: TxnId) -> Option<TxnId> {
        self.exclusive_holder(me)
            .or_else(|| self.sharers.iter().copied().find(|&s| s != me))
    }

    /// Who else holds the row against `FOR SHARE` (its write or its `FOR
    /// UPDATE`), if anyone: shared locks do not exclude each other.
    fn exclusive_holder(&self, me: TxnId) -> Option<TxnId> {
        match (&self.pending, self.locker) {
            (Some((writer, _)), _) if *writer != me => Some(*writer),
            (_, Some(locker)) if locker != me => Some(locker),
            _ => None,
        }
    }

    /// Who else holds the row against a lock of this strength.
    fn blocker(&self, me: TxnId, share: bool) -> Option<TxnId> {
        match share {
            true => self.exclusive_holder(me),
            false => self.holder(me),
        }
    }
}

#[derive(Clone)]
struct Table {
    schema: TableSchema,
    slots: Vec<Slot>,
    serials: BTreeMap<String, i64>,
    /// Committed rows per group of each expected uniqueness, and the rows
    /// beyond the first of every group, kept as commits land.
    groups: Vec<HashMap<String, u64>>,
    duplicates: u64,
    /// The heap's next place. A scan with no ORDER BY reads rows in the
    /// order of their places, as PostgreSQL's sequential scan reads its
    /// heap: a new row, and an updated row's new version, go after every
    /// row there (an update moves its row last; a rolled-back one leaves
    /// it where it was).
    next_place: u64,
    /// Its equality lookups (`lookup.rs`); none for a table made whole (a
    /// `WITH` query's rows), which a scan reads through.
    lookup: Option<lookup::Lookup>,
}

impl Table {
    /// The slots whose row may hold `values` in `columns` (a foreign key's),
    /// through the table's lookup (`lookup.rs`); every slot where it keeps
    /// none of them, or without `look_up` (a debug build's check of it).
    fn slots_holding(&self, columns: &[String], values: &[Value], look_up: bool) -> Vec<usize> {
        (self.lookup.as_ref().filter(|_| look_up))
            .and_then(|lookup| lookup.holding(&self.schema.columns, columns.iter().zip(values)))
            .unwrap_or_else(|| (0..self.slots.len()).collect())
    }

    /// A row's group in expected uniqueness `g` (`None` if a key is NULL).
    fn group(&self, g: usize, row: &Row) -> Option<String> {
        let key = key_of(row, &self.schema.expect_unique[g])?;
        Some(
            key.iter()
                .map(super::eval::text)
                .collect::<Vec<_>>()
                .join("\u{0}"),
        )
    }

    /// A committed row leaves (`old`) and another arrives (`new`).
    fn regroup_row(&mut self, old: Option<&Row>, new: Option<&Row>) {
        for g in 0..self.schema.expect_unique.len() {
            if let Some(group) = old.and_then(|row| self.group(g, row)) {
                if let Some(n) = self.groups[g].get_mut(&group) {
                    if *n > 1 {
                        self.duplicates -= 1;
                    }
                    *n -= 1;
                }
            }
            if let Some(group) = new.and_then(|row| self.group(g, row)) {
                let n = self.groups[g].entry(group).or_insert(0);
                *n += 1;
                if *n > 1 {
                    self.duplicates += 1;
                }
            }
        }
    }

    fn regroup(&mut self) {
        self.groups = vec![HashMap::new(); self.schema.expect_unique.len()];
        self.duplicates = 0;
        let rows: Vec<Row> = self
            .slots
            .iter()
            .filter_map(Slot::latest)
            .cloned()
            .collect();
        for row in &rows {
            self.regroup_row(None, Some(row));
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    Active,
    Committed(u64),
    Aborted,
}

#[derive(Clone)]
struct Txn {
    isolation: Isolation,
    /// When it began, in ms: `now()` inside it, as in PostgreSQL, where it
    /// is the transaction's start, whatever statement asks.
    started_ms: f64,
    /// Taken by its first statement (REPEATABLE READ and SERIALIZABLE).
    snapshot: Option<u64>,
    /// The client session whose block it is (`None`: one statement's own).
    session: Option<u64>,
    /// The client session that runs it, in a block or not (an advisory
    /// lock's session).
    client: Option<u64>,
    /// When it began to wait for another transaction (a counter).
    waiting_since: Option<u64>,
    /// And when, in ms: its deadlock check runs `DEADLOCK_TIMEOUT_MS` later.
    waited_from_ms: f64,
    /// The table whose lock its statement waits for, if it waits for one.
    waits_on_table: Option<String>,
    status: Status,
    /// Slots it writes or locks, to settle at its end.
    held: BTreeSet<(String, usize)>,
    /// Its savepoints, oldest first.
    savepoints: Vec<savepoints::Savepoint>,
    /// SERIALIZABLE: the predicates it read, and its rw-conflicts.
    reads: Vec<(String, Option<Expr>)>,
    conflicts_in: BTreeSet<TxnId>,
    conflicts_out: BTreeSet<TxnId>,
}

impl Txn {
    fn new(isolation: Isolation, started_ms: f64) -> Self {
        Txn {
            isolation,
            started_ms,
            snapshot: None,
            session: None,
            client: None,
            waiting_since: None,
            waited_from_ms: 0.0,
            waits_on_table: None,
            status: Status::Active,
            held: BTreeSet::new(),
            savepoints: Vec::new(),
            reads: Vec::new(),
            conflicts_in: BTreeSet::new(),
            conflicts_out: BTreeSet::new(),
        }
    }
}

/// The database: one for every app server.
#[derive(Clone, Default)]
pub struct Database {
    tables: BTreeMap<String, Table>,
    txns: BTreeMap<TxnId, Txn>,
    /// Each client session's open transaction.
    sessions: BTreeMap<u64, TxnId>,
    /// Sessions whose block an error aborted: they refuse everything but
    /// COMMIT and ROLLBACK (both answer ROLLBACK).
    failed: BTreeSet<u64>,
    /// The transaction of each session's statement outside a block that
    /// waits: as PostgreSQL's, it keeps what the statement took before it
    /// waited (row locks, its `WITH` queries' writes), and the statement
    /// runs again in it, which ends with it.
    statements: BTreeMap<u64, TxnId>,
    /// Which transaction a waiting one waits for (deadlock detection).
    waits_for: BTreeMap<TxnId, TxnId>,
    /// Waits begun so far (which transaction of a deadlock waited first).
    waits: u64,
    /// The last commit's number; a snapshot sees commits up to it.
    seq: u64,
    next_txn: TxnId,
    uuids: Uuids,
    /// What the last statement read, wrote and committed (`take_access`).
    access: RowAccess,
    /// Advisory locks by key, and who holds each.
    advisory: BTreeMap<AdvisoryKey, Hold>,
    /// The id a session's session-level advisory holds are waited on by.
    holders: BTreeMap<u64, TxnId>,
    /// Session-level holds released by the statement running: their
    /// waiters go on (`Ran::ended`).
    released: Vec<TxnId>,
    /// The plan a statement that waits runs again (`take_retry`).
    retry: Option<Plan>,
    /// What the data-modifying `WITH` queries of the running statement
    /// wrote, kept aside: the rest of the statement reads each table as it
    /// was before, as PostgreSQL's parts of one statement read one
    /// snapshot. Put back when the statement ends (`stash.rs`).
    stashed: Vec<stash::Stash>,
    /// The slots the running data-modifying `WITH` query changed, as they
    /// were (`stash.rs`).
    journal: Option<stash::Journal>,
    /// The table locks each transaction holds.
    table_locks: TableLocks<TxnId>,
    /// The running statement's time, in ms.
    now_ms: f64,
    /// Deadlocks found, each failing its victim once its deadlock check
    /// runs (`take_deadlock`, `check_deadlock`).
    deadlocks: Vec<Deadlock>,
    /// The run-time parameters (`SET`, `SHOW`) of each session that set
    /// one.
    settings: Vec<(u64, Settings)>,
}

/// PostgreSQL's `deadlock_timeout` (1 s by default): a backend that has
/// waited this long for a lock checks for a deadlock, once.
pub const DEADLOCK_TIMEOUT_MS: f64 = 1_000.0;

/// A cycle of waits, found when a wait closed it: `victim` fails with
/// `error` at `at_ms`, when its deadlock check runs.
#[derive(Clone)]
struct Deadlock {
    victim: TxnId,
    at_ms: f64,
    error: SqlError,
    /// Whether the run has been told (`take_deadlock`).
    armed: bool,
}

/// An advisory lock's key: one bigint, or two ints (PostgreSQL keeps the
/// two kinds apart).
type AdvisoryKey = (u8, i64, i64);

/// Who holds an advisory lock, and how many times (it is re-entrant).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Hold {
    owner: Owner,
    count: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Owner {
    /// `pg_advisory_xact_lock`: until the transaction ends.
    Txn(TxnId),
    /// `pg_advisory_lock`: until the session unlocks it.
    Session(u64),
}

/// The committed rows a statement read, wrote and committed, each with its
/// commit number: a write of a row changed since the same request read it,
/// by a statement that does not check the row itself, loses that change
/// (a blind one) or acts on a stale read (a change in place).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowAccess {
    pub read: Vec<(String, usize, u64)>,
    /// Rows an UPDATE overwrote with values that do not read the row
    /// (`SET n = $1`), with the commit it wrote over.
    pub overwritten: Vec<(String, usize, u64)>,
    /// Rows an UPDATE changed in place (`SET n = n - 1`) with a WHERE that
    /// reads none of the columns it sets, with the commit it changed.
    pub changed: Vec<(String, usize, u64)>,
    /// The columns that change in place sets.
    pub changed_columns: Vec<String>,
    /// An UPDATE whose WHERE reads a column it sets (`SET n = n - 1 WHERE
    /// n > 0`, `… AND version = $2`) checks the row and writes it in one
    /// statement: its rows, with the commit it wrote over.
    pub checked: Vec<(String, usize, u64)>,
    /// Rows whose new versions this statement's commit made (an autocommit
    /// statement's own writes, a COMMIT's whole transaction's), with that
    /// commit's number.
    pub committed: Vec<(String, usize, u64)>,
    /// A SELECT of one table: what its WHERE asked, as of which commit.
    pub predicate: Option<PredicateRead>,
    /// Rows the statement inserted, updated or deleted (committed or
    /// not), by table and slot.
    pub written: Vec<(String, usize)>,
}

/// What a SELECT of one table asked: its WHERE (its parameters bound),
/// the last commit its snapshot saw, and the columns it answered with.
/// A later write of a row it matches (an insert into it, an update or a
/// delete of a row in it), after another commit changed what it matches,
/// acted on an answer that was no longer true
/// (`Database::predicate_changes`).
#[derive(Clone, Debug, PartialEq)]
pub struct PredicateRead {
    pub table: String,
    pub filter: Option<Expr>,
    pub as_of: u64,
    pub columns: Vec<String>,
}

/// How an UPDATE (or an upsert's `DO UPDATE`) writes the rows it found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rewrite {
    /// Its SET reads no column: it overwrites the row.
    Blind,
    /// Its SET reads the row, its WHERE none of the columns it sets.
    InPlace,
    /// Its WHERE reads a column its SET writes: a compare-and-set.
    Checked,
}

/// A column as its table names it (`daily.n`, `"n"`: `n`).
fn bare(column: &str) -> String {
    let column = column.rsplit('.').next().unwrap_or(column);
    column.trim_matches('"').to_string()
}

impl Rewrite {
    fn of(set: &[(String, Expr)], filter: Option<&Expr>) -> Rewrite {
        let mut compared = false;
        if let Some(filter) = filter {
            crate::sql::columns(filter, &mut |column| {
                let column = bare(column);
                compared |= set.iter().any(|(target, _)| bare(target) == column);
            });
        }
        if compared {
            Rewrite::Checked
        } else if set.iter().all(|(_, e)| !super::eval::has_column(e)) {
            Rewrite::Blind
        } else {
            Rewrite::InPlace
        }
    }
}

/// A row's key values, or `None` if one of them is NULL (NULLs never
/// conflict).
fn key_of(row: &Row, columns: &[String]) -> Option<Vec<Value>> {
    columns
        .iter()
        .map(|c| row.get(c).filter(|v| !v.is_null()).cloned())
        .collect()
}

/// A row's values in a unique key, or `None` if the row is not in it: a
/// value is NULL (NULLs never conflict, unless the key says `NULLS NOT
/// DISTINCT`), or the key is a partial index
/// whose `WHERE` is not true of the row. (PostgreSQL lets an index
/// predicate call only IMMUTABLE functions, so no statement's context
/// bears on it.)
fn entry(key: &Key, row: &Row) -> Option<Vec<Value>> {
    if let Some(predicate) = &key.predicate {
        let holds = eval(predicate, Some(row), None, &Context::default());
        if !matches!(holds, Ok(Value::Bool(true))) {
            return None;
        }
    }
    match key.nulls_not_distinct {
        true => Some(
            key.columns
                .iter()
                .map(|c| row.get(c).cloned().unwrap_or(Value::Null))
                .collect(),
        ),
        false => key_of(row, &key.columns),
    }
}

/// Whether an `ON CONFLICT` target's `WHERE` lets a key be its arbiter:
/// any key when the key is not partial; a partial one only when the target
/// says its predicate, alone or as one of the conditions it ANDs
/// (PostgreSQL proves implication more generally).
fn infers(key: &Key, target: Option<&Expr>) -> bool {
    fn implies(given: &Expr, predicate: &Expr) -> bool {
        given == predicate
            || matches!(given, Expr::Binary(a, Op::And, b) if implies(a, predicate) || implies(b, predicate))
    }
    match (&key.predicate, target) {
        (None, _) => true,
        (Some(predicate), Some(given)) => implies(given, predicate),
        (Some(_), None) => false,
    }
}

/// Two keys' values equal (a NULL is in a key only if its key says
/// `NULLS NOT DISTINCT`, where it equals a NULL).
fn same_key(a: &[Value], b: &[Value]) -> bool {
    (a.iter().zip(b)).all(|(x, y)| (x.is_null() && y.is_null()) || sql_equal(x, y))
}

/// A WITH query's own columns and rows, then those of each query of its
/// UNION ([`Cte::union`], run before it): each column of the type
/// PostgreSQL resolves for it (the numbers' widest; other types must
/// agree), and after a UNION without ALL each row once.
fn union(cte: &Cte, own: Materialized, before: &[Cte]) -> Result<Materialized, SqlError> {
    let (mut columns, mut rows) = own;
    for (name, all) in &cte.union {
        let Some((theirs, their_rows)) = before
            .iter()
            .find(|query| &query.name == name)
            .and_then(|query| query.rows.as_ref())
        else {
            continue;
        };
        if theirs.len() != columns.len() {
            return Err(sql_error(
                "42601",
                "each UNION query must have the same number of columns".to_string(),
            ));
        }
        let ours: Vec<Type> = columns.iter().map(|(_, ty)| *ty).collect();
        for ((_, ty), (_, their)) in columns.iter_mut().zip(theirs) {
            *ty = union_type(*ty, *their)?;
        }
        // Each value as its column's type, where that is not its query's.
        let cast = |row: &mut Vec<Value>, was: &mut dyn Iterator<Item = Type>| {
            for ((value, (_, ty)), was) in row.iter_mut().zip(&columns).zip(was) {
                if was != *ty {
                    *value = super::value::cast(std::mem::take(value), *ty)?;
                }
            }
            Ok::<_, SqlError>(())
        };
        for row in &mut rows {
            cast(row, &mut ours.iter().copied())?;
        }
        for row in their_rows {
            let mut row = row.clone();
            cast(&mut row, &mut theirs.iter().map(|(_, ty)| *ty))?;
            rows.push(row);
        }
        if !all {
            let mut seen = Vec::<Vec<Value>>::new();
            rows.retain(|row| match seen.contains(row) {
                true => false,
                false => {
                    seen.push(row.clone());
                    true
                }
            });
        }
    }
    Ok((columns, rows))
}

/// The type of a UNION's column from two of its queries' types.
fn union_type(ours: Type, theirs: Type) -> Result<Type, SqlError> {
    let rank = |ty: Type| match ty {
        Type::Int => Some(0),
        Type::BigInt => Some(1),
        Type::Numeric(_) => Some(2),
        Type::Float => Some(3),
        _ => None,
    };
    match (rank(ours), rank(theirs)) {
        _ if ours == theirs => Ok(ours),
        (Some(a), Some(b)) => Ok(if a >= b { ours } else { theirs }),
        (Some(_), None) | (None, Some(_)) | (None, None) => Err(sql_error(
            "42804",
            format!(
                "UNION types {} and {} cannot be matched",
                ours.name(),
                theirs.name()
            ),
        )),
    }
}

pub(super) fn sql_error(code: &'static str, message: String) -> SqlError {
    SqlError::new(code, message)
}

fn serialization_failure(why: &str) -> SqlError {
    sql_error("40001", format!("could not serialize access due to {why}"))
}

impl Database {
    /// Creates a table (the schema's CREATE TABLE).
    pub fn create(&mut self, mut schema: TableSchema) -> Result<(), SqlError> {
        if self.tables.contains_key(&schema.name) {
            return Err(sql_error(
                "42P07",
                format!("relation \"{}\" already exists", schema.name),
            ));
        }
        self.resolve_foreign_keys(&mut schema)?;
        self.tables.insert(
            schema.name.clone(),
            Table {
                groups: vec![HashMap::new(); schema.expect_unique.len()],
                schema,
                slots: Vec::new(),
                serials: BTreeMap::new(),
                duplicates: 0,
                next_place: 0,
                lookup: Some(lookup::Lookup::default()),
            },
        );
        Ok(())
    }

    /// Adds a unique key to a table (CREATE UNIQUE INDEX), or an expected
    /// one (counted, not enforced).
    pub fn add_key(&mut self, table: &str, key: Key, enforced: bool) -> Result<(), SqlError> {
        let Some(table) = self.tables.get_mut(table) else {
            return Err(no_table(table));
        };
        for column in &key.columns {
            column_of(&table.schema, column)?;
        }
        if enforced {
            table.schema.keys.push(key);
        } else {
            table.schema.expect_unique.push(key.columns);
            table.regroup();
        }
        Ok(())
    }

    /// Adds a foreign key to a table (`ALTER TABLE … ADD … FOREIGN KEY`),
    /// checked as CREATE TABLE's are. The rows there already are not
    /// checked against it.
    pub fn add_foreign_key(
        &mut self,
        table: &str,
        key: crate::sql::ForeignKey,
    ) -> Result<(), SqlError> {
        let Some(found) = self.tables.get(table) else {
            return Err(no_table(table));
        };
        let mut schema = found.schema.clone();
        schema.foreign_keys = vec![key];
        self.resolve_foreign_keys(&mut schema)?;
        let found = self.tables.get_mut(table).expect("a table");
        found.schema.foreign_keys.extend(schema.foreign_keys);
        Ok(())
    }

    pub fn has_tables(&self) -> bool {
        !self.tables.is_empty()
    }

    /// Committed rows of a table (0 if there is none).
    pub fn rows(&self, table: &str) -> u64 {
        self.tables.get(table).map_or(0, |t| {
            t.slots.iter().filter(|s| s.latest().is_some()).count() as u64
        })
    }

    /// Each table's committed rows, expected uniquenesses and duplicates
    /// (a real run's check of the tables it mirrored), by name.
    pub fn summaries(&self) -> Vec<TableSummary> {
        self.tables
            .iter()
            .map(|(name, table)| TableSummary {
                name: name.clone(),
                rows: self.rows(name),
                expect_unique: table.schema.expect_unique.clone(),
                duplicates: table.duplicates,
            })
            .collect()
    }

    /// Committed rows beyond the first in each group of an expected
    /// uniqueness, over every table.
    pub fn duplicates(&self) -> u64 {
        self.tables.values().map(|table| table.duplicates).sum()
    }

    /// Whether a session is inside a transaction block.
    pub fn in_transaction(&self, session: u64) -> bool {
        self.sessions.contains_key(&session)
    }

    /// Whether a session is in a transaction block, open or failed.
    pub fn in_block(&self, session: u64) -> bool {
        self.sessions.contains_key(&session) || self.failed.contains(&session)
    }

    /// Whether closing a session's connection changes anything: it is in
    /// a transaction block (open or failed), or holds a session-level
    /// advisory lock.
    pub fn closing_matters(&self, session: u64) -> bool {
        self.in_block(session)
            || (self.advisory.values()).any(|hold| hold.owner == Owner::Session(session))
    }

    /// A session's connection has closed, once its ROLLBACK ran: its
    /// session-level advisory locks go and its settings with it. The
    /// holder that went (whose waiters go on), if it held any.
    pub fn close(&mut self, session: u64) -> Option<TxnId> {
        self.settings.retain(|(s, _)| *s != session);
        let before = self.advisory.len();
        self.advisory
            .retain(|_, hold| hold.owner != Owner::Session(session));
        (self.advisory.len() < before).then(|| self.holder(session))
    }

    /// Runs one statement for a client's session (`None`: no client, as
    /// the schema's rows are inserted: its own transaction). In the page's script worker, the code that runs
    /// statements is a module of its own ([`statement`]).
    pub fn run(&mut self, session: Option<u64>, plan: &Plan, now_ms: f64) -> Ran {
        loaded(statement(self, session, plan, now_ms))
    }

    fn execute(&mut self, session: Option<u64>, plan: &Plan, now_ms: f64) -> Ran {
        self.now_ms = now_ms;
        let done = |landed| Ran {
            landed,
            ended: Vec::new(),
            victim: None,
        };
        // An error ended the block: only its end is accepted, or a
        // ROLLBACK TO one of its savepoints, which keep it open.
        if let Some(s) = session.filter(|s| self.failed.contains(s)) {
            let open = self.sessions.get(&s).copied();
            return match (plan, open) {
                (Plan::Commit | Plan::Rollback, _) => {
                    self.failed.remove(&s);
                    let ended = open.into_iter().collect();
                    if let Some(id) = open {
                        self.sessions.remove(&s);
                        self.end(id, false);
                    }
                    Ran {
                        landed: Landed::Done(Reply::tag("ROLLBACK")),
                        ended,
                        victim: None,
                    }
                }
                (Plan::RollbackTo(name), Some(id)) => match self.rollback_to_savepoint(id, name) {
                    Ok(()) => {
                        self.failed.remove(&s);
                        Ran {
                            landed: Landed::Done(Reply::tag("ROLLBACK")),
                            ended: vec![id],
                            victim: None,
                        }
                    }
                    Err(error) => done(Landed::Failed(error)),
                },
                (Plan::RollbackTo(name), None) => {
                    done(Landed::Failed(savepoints::no_savepoint(name)))
                }
                _ => done(Landed::Failed(sql_error(
                    "25P02",
                    "current transaction is aborted, commands ignored until end of transaction block"
                        .into(),
                ))),
            };
        }
        let open = session.and_then(|s| self.sessions.get(&s).copied());
        match (plan, open) {
            (Plan::Begin(isolation), None) => {
                if let Some(session) = session {
                    let level = isolation.unwrap_or(self.default_isolation(Some(session)));
                    let id = self.begin(level, now_ms);
                    let txn = self.txns.get_mut(&id).expect("new");
                    txn.session = Some(session);
                    txn.client = Some(session);
                    self.sessions.insert(session, id);
                }
                return done(Landed::Done(Reply::tag("BEGIN")));
            }
            // PostgreSQL warns and goes on.
            (Plan::Begin(_), Some(_)) => return done(Landed::Done(Reply::tag("BEGIN"))),
            (Plan::Commit | Plan::Rollback, None) => {
                let tag = if *plan == Plan::Commit {
                    "COMMIT"
                } else {
                    "ROLLBACK"
                };
                return done(Landed::Done(Reply::tag(tag)));
            }
            (Plan::Commit, Some(id)) => {
                self.sessions.remove(&session.expect("a session"));
                let landed = match self.commit(id) {
                    Ok(()) => Landed::Done(Reply::tag("COMMIT")),
                    Err(error) => Landed::Failed(error),
                };
                return Ran {
                    landed,
                    ended: vec![id],
                    victim: None,
                };
            }
            (Plan::Rollback, Some(id)) => {
                self.sessions.remove(&session.expect("a session"));
                self.end(id, false);
                return Ran {
                    landed: Landed::Done(Reply::tag("ROLLBACK")),
                    ended: vec![id],
                    victim: None,
                };
            }
            // PostgreSQL warns (25P01, "SET TRANSACTION can only be used
            // in transaction blocks") and goes on: it sets nothing.
            (Plan::SetIsolation(_), None) => return done(Landed::Done(Reply::tag("SET"))),
            (Plan::SetIsolation(level), Some(id)) => {
                let txn = self.txns.get_mut(&id).expect("open");
                if txn.snapshot.is_none() {
                    txn.isolation = *level;
                    return done(Landed::Done(Reply::tag("SET")));
                }
                let error = sql_error(
                    "25001",
                    "SET TRANSACTION ISOLATION LEVEL must be called before any query".into(),
                );
                return self.fail(id, error);
            }
            (Plan::Set { .. } | Plan::Reset(_) | Plan::Show { .. }, open) => {
                let landed = self.parameter(session, plan, open);
                return match (landed, open) {
                    (Landed::Failed(error), Some(id)) => self.fail(id, error),
                    (landed, _) => done(landed),
                };
            }
            (Plan::Savepoint(_), None) => {
                return done(Landed::Failed(savepoints::outside_a_block("SAVEPOINT")))
            }
            (Plan::Release(_), None) => {
                return done(Landed::Failed(savepoints::outside_a_block(
                    "RELEASE SAVEPOINT",
                )))
            }
            (Plan::RollbackTo(_), None) => {
                return done(Landed::Failed(savepoints::outside_a_block(
                    "ROLLBACK TO SAVEPOINT",
                )))
            }
            (Plan::Savepoint(name), Some(id)) => {
                self.set_savepoint(id, name);
                return done(Landed::Done(Reply::tag("SAVEPOINT")));
            }
            (Plan::Release(name), Some(id)) => {
                return match self.release_savepoint(id, name) {
                    Ok(()) => done(Landed::Done(Reply::tag("RELEASE"))),
                    Err(error) => self.fail(id, error),
                };
            }
            (Plan::RollbackTo(name), Some(id)) => {
                return match self.rollback_to_savepoint(id, name) {
                    // Waiters for what it let go of go on.
                    Ok(()) => Ran {
                        landed: Landed::Done(Reply::tag("ROLLBACK")),
                        ended: vec![id],
                        victim: None,
                    },
                    Err(error) => self.fail(id, error),
                };
            }
            _ => {}
        }
        if let (Plan::Lock(_), None) = (plan, open) {
            return done(Landed::Failed(sql_error(
                "25P01",
                "LOCK TABLE can only be used in transaction blocks".into(),
            )));
        }
        let Some(id) = open else {
            // A statement outside a block is a transaction of its own; one
            // that waited runs again in the transaction it waited in.
            let kept = session.and_then(|s| self.statements.remove(&s));
            let id = kept.unwrap_or_else(|| {
                let id = self.begin(self.default_isolation(session), now_ms);
                self.txns.get_mut(&id).expect("new").client = session;
                id
            });
            let mut ran = match (self.statement(id, plan), session) {
                (Landed::Done(reply), _) => {
                    let landed = match self.commit(id) {
                        Ok(()) => Landed::Done(reply),
                        Err(error) => Landed::Failed(error),
                    };
                    Ran {
                        landed,
                        ended: vec![id],
                        victim: None,
                    }
                }
                (Landed::Waits(on), Some(session)) => {
                    self.statements.insert(session, id);
                    self.wait(id, on, plan)
                }
                (other, _) => {
                    self.end(id, false);
                    Ran {
                        landed: other,
                        ended: vec![id],
                        victim: None,
                    }
                }
            };
            ran.ended.append(&mut self.released);
            return ran;
        };
        let mut ran = match self.statement(id, plan) {
            Landed::Failed(error) => self.fail(id, error),
            Landed::Waits(on) => self.wait(id, on, plan),
            landed => {
                self.waits_for.remove(&id);
                done(landed)
            }
        };
        ran.ended.append(&mut self.released);
        ran
    }

    /// `SET`, `RESET` or `SHOW` of `session`'s parameter (`open`: its
    /// transaction block's transaction).
    fn parameter(&mut self, session: Option<u64>, plan: &Plan, open: Option<TxnId>) -> Landed {
        let mut none = Settings::default();
        let isolation = open
            .and_then(|id| self.txns.get(&id))
            .map(|txn| txn.isolation);
        // No client (the schema's rows): the settings of a session that
        // ends with the statement.
        let settings = match session {
            Some(session) => self.settings_of(session),
            None => &mut none,
        };
        let in_txn = open.is_some();
        let done = match plan {
            Plan::Set {
                name,
                value,
                local,
                ms,
            } => {
                let value = value.clone().map(|text| (text, *ms));
                settings.set(name, value, *local, in_txn);
                Ok(Reply::tag("SET"))
            }
            Plan::Reset(Some(name)) => {
                settings.set(name, None, false, in_txn);
                Ok(Reply::tag("RESET"))
            }
            Plan::Reset(None) => {
                settings.reset_all(in_txn);
                Ok(Reply::tag("RESET"))
            }
            Plan::Show {
                name,
                column,
                default,
            } => {
                let value = settings.show(name, default.as_ref(), isolation);
                value.map(|value| Reply {
                    command: "SHOW",
                    row_count: None,
                    rows: vec![Row::from_iter([(column.clone(), Value::String(value))])],
                    fields: vec![(column.clone(), Type::Text.oid())],
                })
            }
            _ => unreachable!("a parameter's statement"),
        };
        match done {
            Ok(reply) => Landed::Done(reply),
            Err(error) => Landed::Failed(error),
        }
    }

    /// A session's `lock_timeout` and `statement_timeout`, in ms (0: none).
    pub fn timeouts(&self, session: u64) -> (u64, u64) {
        (self.settings.iter())
            .find(|(s, _)| *s == session)
            .map_or((0, 0), |(_, settings)| {
                (
                    settings.millis("lock_timeout"),
                    settings.millis("statement_timeout"),
                )
            })
    }

    /// A statement of a transaction block failed: PostgreSQL aborts the
    /// transaction at once (its writes vanish, its locks go), and the block
    /// refuses everything but its end.
    fn fail(&mut self, id: TxnId, error: SqlError) -> Ran {
        let session = self.txns.get(&id).and_then(|t| t.session);
        // A statement outside a block that waited ends with its transaction.
        self.statements.retain(|_, waiting| *waiting != id);
        if let Some(session) = session {
            self.failed.insert(session);
        }
        match session.is_some() && self.has_savepoint(id) {
            // The block stays, for a ROLLBACK TO.
            true => {
                self.waits_for.remove(&id);
                self.abort_to_latest_savepoint(id);
            }
            false => {
                if let Some(session) = session {
                    self.sessions.remove(&session);
                }
                self.end(id, false);
            }
        }
        Ran {
            landed: Landed::Failed(error),
            ended: vec![id],
            victim: None,
        }
    }

    /// `id` waits for `on`. If that closes a cycle of waits, one
    /// transaction of the cycle fails with a deadlock when its deadlock
    /// check runs: PostgreSQL's backend checks once, `deadlock_timeout`
    /// after it began to wait, so the victim is the one whose check comes
    /// first of those still to come (the one that closed the cycle always
    /// has one to come), and it fails then (`take_deadlock`,
    /// `check_deadlock`). Two that wait for each other's locks on one table
    /// are found at once, by the second, which fails (PostgreSQL's lock
    /// queue sees it as it queues).
    fn wait(&mut self, id: TxnId, on: TxnId, plan: &Plan) -> Ran {
        self.waits += 1;
        let since = self.waits;
        let now_ms = self.now_ms;
        if let Some(txn) = self.txns.get_mut(&id) {
            txn.waiting_since = Some(since);
            txn.waited_from_ms = now_ms;
        }
        self.waits_for.insert(id, on);
        let Some(cycle) = self.cycle(id) else {
            return Ran {
                landed: Landed::Waits(on),
                ended: Vec::new(),
                victim: None,
            };
        };
        let table = |t: &TxnId| self.txns.get(t).and_then(|t| t.waits_on_table.as_ref());
        let one_table = cycle.len() == 2 && table(&id).is_some() && table(&id) == table(&on);
        // Each member's check: when it runs, and which began first.
        let check = |t: &TxnId| {
            self.txns.get(t).map_or((f64::MAX, u64::MAX), |t| {
                (
                    t.waited_from_ms + DEADLOCK_TIMEOUT_MS,
                    t.waiting_since.unwrap_or(u64::MAX),
                )
            })
        };
        let (victim, (at_ms, _)) = cycle
            .into_iter()
            .filter(|_| !one_table)
            .map(|t| (t, check(&t)))
            .filter(|(_, (at_ms, _))| *at_ms > now_ms)
            .min_by(|(_, a), (_, b)| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal))
            .unwrap_or((id, (now_ms, since)));
        let mut error = sql_error("40P01", "deadlock detected".into());
        error.detail = Some(match one_table {
            true => format!(
                "Transactions wait for each other's locks on a table; the one that closed the cycle fails ({}).",
                describe(plan)
            ),
            false => format!(
                "Transactions wait for each other's rows; the one that waited longest fails ({} closed the cycle).",
                describe(plan)
            ),
        });
        let session = self.session_of(victim);
        // Found as it queues, or a victim with no session for the run to
        // wait with: it fails now.
        if one_table || session.is_none() {
            if victim == id {
                self.waits_for.remove(&id);
                return self.fail(id, error);
            }
            self.waits_for.remove(&victim);
            let failed = self.fail(victim, error.clone());
            return Ran {
                landed: Landed::Waits(on),
                ended: failed.ended,
                victim: session.map(|session| (session, error)),
            };
        }
        self.deadlocks.push(Deadlock {
            victim,
            at_ms,
            error,
            armed: false,
        });
        Ran {
            landed: Landed::Waits(on),
            ended: Vec::new(),
            victim: None,
        }
    }

    /// A deadlock found but not yet told: the session of its victim, and
    /// when its deadlock check runs (ms); the run then calls
    /// [`Database::check_deadlock`].
    pub fn take_deadlock(&mut self) -> Option<(u64, f64)> {
        let index = self.deadlocks.iter().position(|d| !d.armed)?;
        let deadlock = &mut self.deadlocks[index];
        deadlock.armed = true;
        let (victim, at_ms) = (deadlock.victim, deadlock.at_ms);
        Some((self.session_of(victim)?, at_ms))
    }

    /// `session`'s deadlock check runs: its transaction, the victim of a
    /// cycle found, fails with the deadlock if it still waits. The error,
    /// and the transactions that ended (whose waiters go on).
    pub fn check_deadlock(&mut self, session: u64) -> Option<(SqlError, Vec<TxnId>)> {
        let index = self
            .deadlocks
            .iter()
            .position(|d| self.session_of(d.victim) == Some(session))?;
        let Deadlock { victim, error, .. } = self.deadlocks.remove(index);
        self.waits_for.remove(&victim)?;
        let failed = self.fail(victim, error.clone());
        Some((error, failed.ended))
    }

    /// The session whose statement waits in transaction `id`: its block's,
    /// or that of a statement outside a block that waits.
    fn session_of(&self, id: TxnId) -> Option<u64> {
        let txn = self.txns.get(&id)?;
        txn.session.or_else(|| {
            (self.statements.iter())
                .find(|&(_, &waiting)| waiting == id)
                .map(|(&session, _)| session)
        })
    }

    /// The transaction a session's statement runs in: its block's, or the
    /// one a statement outside a block waits in.
    fn running(&self, session: u64) -> Option<TxnId> {
        (self.sessions.get(&session))
            .or_else(|| self.statements.get(&session))
            .copied()
    }

    /// The transactions of the cycle of waits through `id`, if there is one.
    fn cycle(&self, id: TxnId) -> Option<Vec<TxnId>> {
        let mut members = vec![id];
        let mut at = *self.waits_for.get(&id)?;
        for _ in 0..=self.waits_for.len() {
            if at == id {
                return Some(members);
            }
            members.push(at);
            at = *self.waits_for.get(&at)?;
        }
        None
    }

    /// A statement that failed before it ran (PostgreSQL's parse or bind
    /// refused it): as any error, it aborts the transaction block it was
    /// sent in.
    pub fn refuse(&mut self, session: u64, error: SqlError) -> Ran {
        let open = if self.failed.contains(&session) {
            None
        } else {
            self.sessions.get(&session).copied()
        };
        match open {
            Some(id) => {
                let mut ran = self.fail(id, error);
                ran.ended.append(&mut self.released);
                ran
            }
            None => Ran {
                landed: Landed::Failed(error),
                ended: Vec::new(),
                victim: None,
            },
        }
    }

    /// `session`'s waiting statement is cancelled with `error` (its
    /// `lock_timeout` or `statement_timeout`): a transaction block it
    /// waits in aborts, as any error there aborts it, and a statement
    /// outside a block ends its own. The transactions that ended (whose
    /// waiters go on).
    pub fn cancel(&mut self, session: u64, error: SqlError) -> Vec<TxnId> {
        self.stop_waiting(session);
        let Some(id) = self.running(session) else {
            return Vec::new();
        };
        self.waits_for.remove(&id);
        self.deadlocks.retain(|deadlock| deadlock.victim != id);
        self.fail(id, error).ended
    }

    /// What the last statement read, wrote and committed.
    pub fn take_access(&mut self) -> RowAccess {
        std::mem::take(&mut self.access)
    }

    /// The commits after `read`'s that changed what its WHERE matches: a
    /// version of a row that matches it, or that replaced one that did,
    /// as (slot, commit). Reads through the table's lookup (`lookup.rs`);
    /// a debug build checks that a scan of every row finds the same.
    pub fn predicate_changes(&self, read: &PredicateRead) -> Vec<(usize, u64)> {
        let Some(table) = self.tables.get(&read.table) else {
            return Vec::new();
        };
        let ctx = self.plain_context(&read.table);
        let hit = |row: Option<&Row>| {
            row.is_some_and(|row| pass(read.filter.as_ref(), row, &ctx).unwrap_or(false))
        };
        let changes = |look_up: bool| {
            // A version that matches holds the value the filter pins: its
            // slot is among the lookup's (which keeps every version's values).
            let slots = match (&table.lookup, read.filter.as_ref()) {
                (Some(lookup), Some(filter)) if look_up => {
                    lookup.candidates(&table.schema.columns, filter, &ctx)
                }
                _ => None,
            }
            .unwrap_or_else(|| (0..table.slots.len()).collect());
            let mut changes = Vec::new();
            for index in slots {
                let slot = &table.slots[index];
                for (k, version) in slot.versions.iter().enumerate() {
                    let before = k.checked_sub(1).and_then(|k| slot.versions[k].row.as_ref());
                    if version.seq > read.as_of && (hit(version.row.as_ref()) || hit(before)) {
                        changes.push((index, version.seq));
                    }
                }
            }
            changes
        };
        let found = changes(true);
        debug_assert_eq!(found, changes(false), "the lookup finds what a scan finds");
        found
    }

    /// Whether the last commit of the row in slot `index` of `table` wrote
    /// into what `filter` matches: its new version matches it, or the one
    /// it replaced did.
    pub fn commit_matches(&self, table: &str, index: usize, filter: Option<&Expr>) -> bool {
        let Some(slot) = self.tables.get(table).and_then(|t| t.slots.get(index)) else {
            return false;
        };
        let ctx = self.plain_context(table);
        let hit =
            |row: Option<&Row>| row.is_some_and(|row| pass(filter, row, &ctx).unwrap_or(false));
        let last = slot.versions.len();
        slot.versions[last.saturating_sub(2)..]
            .iter()
            .any(|version| hit(version.row.as_ref()))
    }

    /// What an expression over `table` knows outside any transaction: the
    /// clock and the column types (a UUID it draws comes from a copy of
    /// the counter).
    fn plain_context(&self, table: &str) -> Context {
        let types = (self.tables.get(table).into_iter())
            .flat_map(|table| &table.schema.columns)
            .map(|c| (c.name.clone(), c.ty))
            .collect();
        Context {
            now_ms: self.now_ms,
            types,
            uuids: self.uuids.clone(),
            ..Context::default()
        }
    }

    /// The plan to run again when the statement that just waited may go
    /// on: with its subqueries' values, which it keeps, as PostgreSQL
    /// keeps an InitPlan's (`INSERT … SELECT … WHERE NOT EXISTS` that waited
    /// on another transaction's key then fails with 23505, it does not
    /// look again). `None`: the statement as it was sent.
    pub fn take_retry(&mut self) -> Option<Plan> {
        self.retry.take()
    }

    /// Forgets that a session's transaction waits (its statement runs again).
    pub fn stop_waiting(&mut self, session: u64) {
        if let Some(id) = self.running(session) {
            self.waits_for.remove(&id);
        }
    }

    fn begin(&mut self, isolation: Isolation, now_ms: f64) -> TxnId {
        self.next_txn += 1;
        self.txns.insert(self.next_txn, Txn::new(isolation, now_ms));
        self.next_txn
    }

    fn commit(&mut self, id: TxnId) -> Result<(), SqlError> {
        if self.txns[&id].isolation == Isolation::Serializable && self.doomed(id) {
            self.end(id, false);
            return Err(serialization_failure(
                "read/write dependencies among transactions",
            ));
        }
        self.end(id, true);
        Ok(())
    }

    /// Ends a transaction: its writes become the rows' latest versions
    /// (commit) or vanish (rollback); its locks go.
    fn end(&mut self, id: TxnId, commit: bool) {
        let Some(txn) = self.txns.get_mut(&id) else {
            return;
        };
        let held = std::mem::take(&mut txn.held);
        let wrote = held.iter().any(|(table, slot)| {
            self.tables[table].slots[*slot]
                .pending
                .as_ref()
                .is_some_and(|(w, _)| *w == id)
        });
        let seq = if commit && wrote {
            self.seq += 1;
            self.seq
        } else {
            self.seq
        };
        for (name, index) in held {
            let table = self.tables.get_mut(&name).expect("a table");
            let slot = &mut table.slots[index];
            if slot.locker == Some(id) {
                slot.locker = None;
            }
            slot.sharers.retain(|&s| s != id);
            if slot.pending.as_ref().is_some_and(|(w, _)| *w == id) {
                let (_, row) = slot.pending.take().expect("pending");
                if commit {
                    self.access.committed.push((name.clone(), index, seq));
                    let old = slot.latest().cloned();
                    table.regroup_row(old.as_ref(), row.as_ref());
                    let place = table.slots[index].pending_place;
                    table.slots[index].versions.push(Version {
                        seq,
                        writer: id,
                        row,
                        place,
                    });
                }
            }
        }
        self.waits_for.remove(&id);
        self.table_locks.release(id);
        // Its transaction-level advisory locks go; their waiters wait on `id`.
        self.advisory.retain(|_, hold| hold.owner != Owner::Txn(id));
        let txn = self.txns.get_mut(&id).expect("a transaction");
        if let Some((_, settings)) =
            (self.settings.iter_mut()).find(|(s, _)| Some(*s) == txn.session)
        {
            settings.end_transaction(commit);
        }
        txn.status = if commit {
            Status::Committed(seq)
        } else {
            Status::Aborted
        };
        // Only SERIALIZABLE transactions are looked at after their end.
        if txn.isolation != Isolation::Serializable || !commit {
            self.txns.remove(&id);
        }
    }

    /// SSI's dangerous structure with `id` as its pivot: a conflict in,
    /// and a conflict out to a transaction that committed first.
    fn doomed(&self, id: TxnId) -> bool {
        let txn = &self.txns[&id];
        let live = |other: &TxnId| {
            self.txns
                .get(other)
                .is_some_and(|t| t.status != Status::Aborted)
        };
        let committed_out = txn.conflicts_out.iter().any(|other| {
            self.txns
                .get(other)
                .is_some_and(|t| matches!(t.status, Status::Committed(_)))
        });
        committed_out && txn.conflicts_in.iter().any(live)
    }

    /// The snapshot a statement of `id` reads: its own (REPEATABLE READ,
    /// SERIALIZABLE, taken now if it has none) or the latest commit.
    fn snapshot(&mut self, id: TxnId) -> u64 {
        let seq = self.seq;
        let txn = self.txns.get_mut(&id).expect("a transaction");
        match txn.isolation {
            Isolation::ReadCommitted => seq,
            _ => *txn.snapshot.get_or_insert(seq),
        }
    }

    fn statement(&mut self, id: TxnId, plan: &Plan) -> Landed {
        let landed = self.statement_with(id, plan);
        self.unstash_all();
        // The tables of its `WITH` queries last as long as it.
        if !plan.with().is_empty() {
            self.tables.retain(|name, _| !Cte::is_table(name));
            self.access.read.retain(|(table, ..)| !Cte::is_table(table));
        }
        landed
    }

    fn statement_with(&mut self, id: TxnId, plan: &Plan) -> Landed {
        // A SERIALIZABLE transaction another commit doomed fails at its
        // next statement, as PostgreSQL's does.
        if self.txns[&id].isolation == Isolation::Serializable && self.doomed(id) {
            return Landed::Failed(serialization_failure(
                "read/write dependencies among transactions",
            ));
        }
        // Its table locks come first, before it takes a snapshot, as
        // PostgreSQL takes them when it plans the statement.
        if let Err(stop) = self.lock_tables(id, plan) {
            return stop.into();
        }
        if let Plan::Lock(_) = plan {
            return Landed::Done(Reply::tag("LOCK"));
        }
        // Then it is planned: the constant parts of its expressions are
        // folded, and an error there comes before any row is read
        // (`fold.rs`), though after a name the statement gets wrong; a part
        // folding leaves unread is not run.
        let planned = match fold::check(plan, &self.context(id, plan.table())) {
            Ok(planned) => planned,
            Err(error) => return Landed::Failed(self.misnamed(plan).unwrap_or(error)),
        };
        let plan = planned.as_ref().unwrap_or(plan);
        // A statement that waited keeps the snapshot it read with: its own,
        // or the one its data-modifying WITH query waited with.
        let sent = plan;
        let kept = plan
            .waited()
            .or_else(|| plan.with().iter().find_map(|cte| cte.snapshot));
        let snapshot = kept.unwrap_or_else(|| self.snapshot(id));
        let resolved = match plan.has_subquery() {
            true => match self.resolve(id, snapshot, plan) {
                Ok(plan) => Some(plan),
                Err(stopped) => {
                    let (stop, partial) = *stopped;
                    let writes = partial.with().iter().any(|cte| cte.write.is_some());
                    if let (Stop::Wait(_), true) = (&stop, writes) {
                        self.keep_writes(partial, snapshot);
                    }
                    return stop.into();
                }
            },
            false => None,
        };
        let plan = resolved.as_ref().unwrap_or(plan);
        if let Some(table) = plan.written_table() {
            self.unstash(table);
        }
        let ctx = self.context(id, plan.table());
        let own = match kept.is_some() && !plan.can_keep_snapshot() {
            true => self.snapshot(id),
            false => snapshot,
        };
        let result = self.run_plan(id, own, plan, &ctx);
        if let Err(Stop::Wait(_)) = &result {
            // It runs again in its transaction, which keeps the rows its
            // subqueries locked.
            let mut again = resolved.unwrap_or_else(|| sent.clone());
            if again.with().iter().any(|cte| cte.write.is_some()) {
                self.keep_writes(again, snapshot);
            } else {
                again.keep_snapshot(snapshot);
                self.retry = Some(again);
            }
        }
        match result {
            Ok(reply) => Landed::Done(reply),
            Err(stop) => stop.into(),
        }
    }

    /// Runs a SELECT, INSERT, UPDATE or DELETE whose subqueries ran.
    fn run_plan(
        &mut self,
        id: TxnId,
        snapshot: u64,
        plan: &Plan,
        ctx: &Context,
    ) -> Result<Reply, Stop> {
        match plan {
            Plan::Select(select) => self.select(id, snapshot, select, ctx),
            Plan::Insert(insert) => self.insert(id, snapshot, insert, ctx),
            Plan::Update(update) => self.update(id, snapshot, update, ctx),
            Plan::Delete(delete) => self.delete(id, snapshot, delete, ctx),
            _ => unreachable!("handled by run"),
        }
    }

    /// Keeps, for the run again of a statement with a data-modifying
    /// `WITH` query that waited, the snapshot it read with and the rows of
    /// its `WITH` queries that ran: a write's stay in its transaction
    /// (a block's, or the statement's own), which goes on.
    fn keep_writes(&mut self, mut plan: Plan, snapshot: u64) {
        for cte in plan.with_mut().into_iter().flatten() {
            cte.snapshot = Some(snapshot);
        }
        self.retry = Some(plan);
    }

    /// The table locks `plan` takes (`Plan::table_locks`), in order. A
    /// conflicting lock of another transaction makes it wait for that
    /// one's end, holding those it took (`LOCK TABLE … NOWAIT` fails
    /// with 55P03 instead). A table `LOCK TABLE` names must exist (42P01);
    /// another statement's missing table is its own error, later.
    fn lock_tables(&mut self, id: TxnId, plan: &Plan) -> Result<(), Stop> {
        self.txns
            .get_mut(&id)
            .expect("a transaction")
            .waits_on_table = None;
        let lock = match plan {
            Plan::Lock(lock) => Some(lock),
            _ => None,
        };
        for (table, mode) in plan.table_locks() {
            if !self.tables.contains_key(&table) {
                match lock {
                    Some(_) => return Err(Stop::Fail(no_table(&table))),
                    None => continue,
                }
            }
            if let Err(holder) = self.table_locks.take(id, &table, mode) {
                if lock.is_some_and(|lock| lock.nowait) {
                    let message = format!("could not obtain lock on relation \"{table}\"");
                    return Err(Stop::Fail(sql_error("55P03", message)));
                }
                self.txns
                    .get_mut(&id)
                    .expect("a transaction")
                    .waits_on_table = Some(table);
                return Err(Stop::Wait(holder));
            }
        }
        Ok(())
    }

    /// What expressions of a statement of `id` over `table` know: the
    /// transaction's clock and the table's column types.
    fn context(&self, id: TxnId, table: Option<&str>) -> Context {
        let types = table
            .and_then(|name| self.tables.get(name))
            .map(|table| {
                table
                    .schema
                    .columns
                    .iter()
                    .map(|c| (c.name.clone(), c.ty))
                    .collect()
            })
            .unwrap_or_default();
        let txn = &self.txns[&id];
        let settings = (self.settings.iter())
            .find(|(s, _)| Some(*s) == txn.client)
            .map(|(_, settings)| settings.clone())
            .unwrap_or_default();
        Context {
            now_ms: txn.started_ms,
            types,
            uuids: self.uuids.shared(),
            settings,
            isolation: Some(txn.isolation),
        }
    }

    /// The plan with its subqueries run, on the statement's snapshot, and
    /// their values in their place: `EXISTS` a boolean, `IN (SELECT …)` a
    /// list, a scalar subquery its value as its type; `INSERT … SELECT`'s
    /// rows as `VALUES`. PostgreSQL runs an uncorrelated subquery once per
    /// statement too (an InitPlan). Its reads are not the statement's own
    /// (`RowAccess`). A subquery `FOR UPDATE` or `FOR SHARE` locks the rows
    /// it returns, for the transaction, as PostgreSQL's does. A stop comes
    /// with the plan as far as it ran (the rows of its `WITH` queries that
    /// did).
    fn resolve(
        &mut self,
        id: TxnId,
        snapshot: u64,
        plan: &Plan,
    ) -> Result<Plan, Box<(Stop, Plan)>> {
        let mut plan = plan.clone();
        self.name_outer_columns(&mut plan);
        let read = std::mem::take(&mut self.access.read);
        let mut failed = None;
        // The `WITH` queries first, in order, each a table for the rest;
        // out of the plan while its subqueries run, as they ran already.
        let mut with = plan.with_mut().map(std::mem::take).unwrap_or_default();
        for n in 0..with.len() {
            let (before, rest) = with.split_at_mut(n);
            if let Err(stop) = self.materialize(id, snapshot, &mut rest[0], before) {
                failed = Some(stop);
                break;
            }
        }
        super::parse::visit_mut(&mut plan, &mut |e| {
            // A correlated one runs for each row of the query around it
            // (`Database::bind_rows`), when that query runs.
            if failed.is_none() && !e.subquery().is_some_and(Select::is_correlated) {
                if let Err(stop) = self.run_subquery(id, snapshot, e) {
                    failed = Some(stop);
                }
            }
        });
        if let (None, Plan::Insert(insert)) = (&failed, &mut plan) {
            if let Some(select) = insert.select.take() {
                match self.query_rows(id, snapshot, &select, None) {
                    Ok((rows, _)) => {
                        insert.rows = rows
                            .into_iter()
                            .map(|row| row.into_iter().map(Expr::Value).collect())
                            .collect();
                    }
                    Err(stop) => failed = Some(stop),
                }
            }
        }
        self.access.read = read;
        if let Some(kept) = plan.with_mut() {
            *kept = with;
        }
        match failed {
            Some(stop) => Err(Box::new((stop, plan))),
            None => Ok(plan),
        }
    }

    /// Runs a `WITH` query, unless it ran already (a statement that waited
    /// keeps its rows), and puts its rows where the statement reads them:
    /// a table of its own ([`Cte::table`]), committed before every
    /// snapshot, until the statement ends. A `FOR UPDATE` in it locks the
    /// rows it returns, for the transaction, as a subquery's does.
    fn materialize(
        &mut self,
        id: TxnId,
        snapshot: u64,
        cte: &mut Cte,
        before: &[Cte],
    ) -> Result<(), Stop> {
        if cte.rows.is_none() {
            let reply = match &cte.write {
                Some(write) => self.write_in_with(id, snapshot, write)?,
                None => self.select_in_with(id, snapshot, &cte.select)?,
            };
            if cte.columns.len() > reply.fields.len() {
                // A subquery in FROM is a "table" to PostgreSQL's message.
                let what = match Cte::shown(&cte.name) {
                    shown if shown == cte.name => "WITH query",
                    _ => "table",
                };
                return Err(Stop::Fail(sql_error(
                    "42P10",
                    format!(
                        "{what} \"{}\" has {} columns available but {} columns specified",
                        Cte::shown(&cte.name),
                        reply.fields.len(),
                        cte.columns.len()
                    ),
                )));
            }
            let columns = reply
                .fields
                .iter()
                .enumerate()
                .map(|(n, (name, oid))| {
                    let name = cte.columns.get(n).unwrap_or(name);
                    (name.clone(), type_of_oid(*oid))
                })
                .collect();
            let rows = reply
                .rows
                .iter()
                .map(|row| {
                    reply
                        .fields
                        .iter()
                        .map(|(name, _)| row.get(name).cloned().unwrap_or(Value::Null))
                        .collect()
                })
                .collect();
            cte.rows = Some(union(cte, (columns, rows), before).map_err(Stop::Fail)?);
        }
        let (columns, rows) = cte.rows.as_ref().expect("run");
        let name = Cte::table(&cte.name);
        let slots = rows
            .iter()
            .zip(0..)
            .map(|(values, place): (&Vec<Value>, u64)| Slot {
                versions: vec![Version {
                    seq: 0,
                    writer: 0,
                    row: Some(
                        columns
                            .iter()
                            .zip(values)
                            .map(|((column, _), value)| (column.clone(), value.clone()))
                            .collect(),
                    ),
                    place,
                }],
                pending: None,
                pending_place: 0,
                locker: None,
                sharers: Vec::new(),
            })
            .collect();
        let schema = TableSchema {
            name: name.clone(),
            columns: columns
                .iter()
                .map(|(column, ty)| Column {
                    name: column.clone(),
                    ty: *ty,
                    default: None,
                    not_null: false,
                    max_chars: None,
                })
                .collect(),
            keys: Vec::new(),
            expect_unique: Vec::new(),
            checks: Vec::new(),
            foreign_keys: Vec::new(),
        };
        self.tables.insert(
            name,
            Table {
                schema,
                slots,
                serials: BTreeMap::new(),
                groups: Vec::new(),
                duplicates: 0,
                next_place: rows.len() as u64,
                lookup: None,
            },
        );
        Ok(())
    }

    /// Runs a `WITH` query's SELECT, its subqueries first.
    fn select_in_with(&mut self, id: TxnId, snapshot: u64, select: &Select) -> Result<Reply, Stop> {
        let mut select = select.clone();
        let mut failed = None;
        crate::sql::visit_select(&mut select, &mut |e| {
            if failed.is_none() && !e.subquery().is_some_and(Select::is_correlated) {
                if let Err(stop) = self.run_subquery(id, snapshot, e) {
                    failed = Some(stop);
                }
            }
        });
        if let Some(stop) = failed {
            return Err(stop);
        }
        let ctx = self.context(id, select.table.as_deref());
        self.select(id, snapshot, &select, &ctx)
    }

    /// Puts the value of `e`, if it is a subquery (its own subqueries
    /// already in place), where it is.
    fn run_subquery(&mut self, id: TxnId, snapshot: u64, e: &mut Expr) -> Result<(), Stop> {
        let one_column = match e {
            Expr::Exists(..) => None,
            Expr::InSelect(..) => Some("subquery has too many columns"),
            Expr::Scalar(_) => Some("subquery must return only one column"),
            _ => return Ok(()),
        };
        let select = e.subquery().expect("a subquery");
        let (rows, types) = self.query_rows(id, snapshot, select, one_column)?;
        let typed = |row: Vec<Value>| {
            let value = row.into_iter().next().unwrap_or(Value::Null);
            let ty = types.first().copied().unwrap_or(Type::Text);
            Expr::Cast(Box::new(Expr::Value(value)), ty)
        };
        *e = match std::mem::replace(e, Expr::Now) {
            Expr::Exists(_, negated) => Expr::Value(Value::Bool(rows.is_empty() == negated)),
            Expr::InSelect(inner, _, negated) => {
                Expr::InList(inner, rows.into_iter().map(typed).collect(), negated)
            }
            _ if rows.len() > 1 => {
                return Err(Stop::Fail(sql_error(
                    "21000",
                    "more than one row returned by a subquery used as an expression".into(),
                )))
            }
            _ => typed(rows.into_iter().next().unwrap_or_default()),
        };
        Ok(())
    }

    /// The rows of a subquery or of `INSERT … SELECT`'s query, each as its
    /// values in the order of its columns, and the columns' types; with
    /// `one_column`, PostgreSQL's error for a query of more columns.
    fn query_rows(
        &mut self,
        id: TxnId,
        snapshot: u64,
        select: &Select,
        one_column: Option<&'static str>,
    ) -> Result<(Vec<Vec<Value>>, Vec<Type>), Stop> {
        // Output names by position: `SELECT $1, $2` names both `?column?`.
        let mut select = select.clone();
        if let Projection::Items(items) = &mut select.projection {
            for (n, (name, _)) in items.iter_mut().enumerate() {
                *name = n.to_string();
            }
        }
        let ctx = self.context(id, select.table.as_deref());
        let reply = self.select(id, snapshot, &select, &ctx)?;
        if let Some(message) = one_column.filter(|_| reply.fields.len() > 1) {
            return Err(Stop::Fail(sql_error("42601", message.into())));
        }
        let types = reply
            .fields
            .iter()
            .map(|(_, oid)| type_of_oid(*oid))
            .collect();
        let rows = reply
            .rows
            .into_iter()
            .map(|mut row| {
                reply
                    .fields
                    .iter()
                    .map(|(name, _)| row.remove(name).unwrap_or(Value::Null))
                    .collect()
            })
            .collect();
        Ok((rows, types))
    }

    /// Each bare column of a subquery that none of its own tables has but
    /// a query around it has, as that query's row's ([`Expr::Outer`]):
    /// PostgreSQL reads a bare name from the innermost query that has it,
    /// so `WHERE user_id = id` in a subquery over `orders` reads
    /// `orders.id`, and `WHERE user_id = users_only` the outer row's. A
    /// query whose columns are not known yet (a `WITH` query's) ends the
    /// search.
    fn name_outer_columns(&self, plan: &mut Plan) {
        let columns = |tables: &[&str]| -> Option<Vec<String>> {
            let mut all = Vec::new();
            for name in tables {
                let table = self.tables.get(*name)?;
                all.extend(table.schema.columns.iter().map(|c| c.name.clone()));
            }
            Some(all)
        };
        let of_select = |select: &Select| {
            columns(&select.sources().iter().map(|(t, _)| *t).collect::<Vec<_>>())
        };
        let walk = |chain: &mut Vec<Option<Vec<String>>>, e: &mut Expr| {
            outer_names(e, chain, &of_select);
        };
        if let Some(with) = plan.with_mut() {
            for cte in with {
                let mut chain = vec![of_select(&cte.select)];
                for e in cte.select.own_exprs_mut() {
                    walk(&mut chain, e);
                }
            }
        }
        match plan {
            Plan::Select(select) => {
                let mut chain = vec![of_select(select)];
                for e in select.own_exprs_mut() {
                    walk(&mut chain, e);
                }
            }
            Plan::Insert(insert) => {
                if let Some(select) = &mut insert.select {
                    let mut chain = vec![of_select(select)];
                    for e in select.own_exprs_mut() {
                        walk(&mut chain, e);
                    }
                }
            }
            Plan::Update(update) => {
                let mut tables = vec![update.table.as_str()];
                tables.extend(update.from.iter().map(|j| j.table.as_str()));
                let mut chain = vec![columns(&tables)];
                let returning = returning_mut(&mut update.returning);
                for e in update
                    .set
                    .iter_mut()
                    .map(|(_, e)| e)
                    .chain(update.filter.as_mut())
                    .chain(returning)
                {
                    walk(&mut chain, e);
                }
            }
            Plan::Delete(delete) => {
                let mut tables = vec![delete.table.as_str()];
                tables.extend(delete.using.iter().map(|j| j.table.as_str()));
                let mut chain = vec![columns(&tables)];
                let returning = returning_mut(&mut delete.returning);
                for e in delete.filter.as_mut().into_iter().chain(returning) {
                    walk(&mut chain, e);
                }
            }
            _ => {}
        }
    }

    /// Runs the subqueries left in `exprs`, those of a query over `table`
    /// (none: no FROM): an uncorrelated one once; a correlated one once
    /// for each distinct set of the values it reads of `table`'s rows
    /// (every version of each, so that a SERIALIZABLE check of a version
    /// it cannot see finds its value too), as an [`Expr::PerRow`]. The
    /// reads of the subqueries are not the query's own.
    fn bind_rows(
        &mut self,
        id: TxnId,
        snapshot: u64,
        table: Option<&str>,
        exprs: Vec<&mut Expr>,
    ) -> Result<(), Stop> {
        let read = std::mem::take(&mut self.access.read);
        let mut result = Ok(());
        for e in exprs {
            result = self.bind_expr(id, snapshot, table, e);
            if result.is_err() {
                break;
            }
        }
        self.access.read = read;
        result
    }

    fn bind_expr(
        &mut self,
        id: TxnId,
        snapshot: u64,
        table: Option<&str>,
        e: &mut Expr,
    ) -> Result<(), Stop> {
        if let Expr::InSelect(operand, ..) = e {
            self.bind_expr(id, snapshot, table, operand)?;
        }
        let Some(select) = e.subquery() else {
            let mut result = Ok(());
            e.each_child_mut(&mut |child| {
                if result.is_ok() {
                    result = self.bind_expr(id, snapshot, table, child);
                }
            });
            return result;
        };
        let columns = select.outer_columns();
        if columns.is_empty() {
            return self.run_subquery(id, snapshot, e);
        }
        // (A query without FROM has no row a subquery could read: the
        // parser and `name_outer_columns` make no such reference.)
        let Some(name) = table else {
            return Err(Stop::Fail(sql_error(
                "0A000",
                "a correlated subquery of a query without FROM".into(),
            )));
        };
        let outer = self.table(name)?;
        // `u.id` names `id` of the one table of the query around it.
        let names: Vec<String> = columns
            .iter()
            .map(|c| c.rsplit_once('.').map_or(c.as_str(), |(_, name)| name))
            .map(str::to_string)
            .collect();
        let mut types = Vec::with_capacity(names.len());
        for (column, name) in columns.iter().zip(&names) {
            match column_of(&outer.schema, name) {
                Ok(found) => types.push(found.ty),
                Err(_) => return Err(Stop::Fail(analysis::missing(column))),
            }
        }
        let mut keys: Vec<Vec<Value>> = Vec::new();
        for slot in &outer.slots {
            let versions = slot.versions.iter().filter_map(|v| v.row.as_ref());
            for row in versions.chain(slot.pending.as_ref().and_then(|(_, row)| row.as_ref())) {
                let key: Vec<Value> = names
                    .iter()
                    .map(|c| row.get(c).cloned().unwrap_or(Value::Null))
                    .collect();
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
        let mut cases = Vec::with_capacity(keys.len());
        for key in keys {
            let mut case = e.clone();
            if let Expr::Exists(select, _) | Expr::InSelect(_, select, _) | Expr::Scalar(select) =
                &mut case
            {
                select.bind_outer(&|column| {
                    let n = columns.iter().position(|c| c == column).expect("read");
                    Expr::Cast(Box::new(Expr::Value(key[n].clone())), types[n])
                });
            }
            match self.run_subquery(id, snapshot, &mut case) {
                Ok(()) => cases.push((key, Ok(case))),
                Err(Stop::Fail(error)) => cases.push((key, Err(error))),
                Err(stop) => return Err(stop),
            }
        }
        *e = Expr::PerRow(Box::new(PerRow {
            columns: names,
            cases,
        }));
        Ok(())
    }

    /// The error of a table or a column `plan` names that does not exist,
    /// as the statement finds it when it runs (PostgreSQL's parse
    /// analysis, before its planner folds constants): for a statement on
    /// one table; a join's names are found as it runs.
    fn misnamed(&self, plan: &Plan) -> Option<SqlError> {
        let name = plan.table().filter(|name| !Cte::is_table(name))?;
        let Some(table) = self.tables.get(name) else {
            return Some(no_table(name));
        };
        let schema = &table.schema;
        match plan {
            Plan::Select(select) if select.joins.is_empty() => analysis::select(schema, select),
            Plan::Insert(insert) => analysis::insert(schema, insert),
            Plan::Update(update) if update.from.is_empty() => analysis::update(schema, update),
            Plan::Delete(delete) if delete.using.is_empty() => analysis::delete(schema, delete),
            _ => Ok(()),
        }
        .err()
    }

    fn table(&self, name: &str) -> Result<&Table, Stop> {
        self.tables
            .get(name)
            .ok_or_else(|| Stop::Fail(no_table(name)))
    }

    /// The version of a slot a statement of `id` sees.
    fn visible(slot: &Slot, id: TxnId, snapshot: u64) -> Option<&Row> {
        if let Some((writer, row)) = &slot.pending {
            if *writer == id {
                return row.as_ref();
            }
        }
        slot.versions
            .iter()
            .rev()
            .find(|v| v.seq <= snapshot)
            .and_then(|v| v.row.as_ref())
    }

    /// Where the version of a slot that a statement of `id` sees is in the
    /// heap (see [`Database::visible`]).
    fn visible_place(slot: &Slot, id: TxnId, snapshot: u64) -> u64 {
        if let Some((writer, Some(_))) = &slot.pending {
            if *writer == id {
                return slot.pending_place;
            }
        }
        slot.versions
            .iter()
            .rev()
            .find(|v| v.seq <= snapshot)
            .map_or(0, |v| v.place)
    }

    /// The slots with a row a statement of `id` sees, in the order a
    /// sequential scan reads them: their versions' places in the heap.
    fn scan(table: &Table, id: TxnId, snapshot: u64) -> Vec<(usize, &Row)> {
        let mut rows: Vec<(u64, usize, &Row)> = table
            .slots
            .iter()
            .enumerate()
            .filter_map(|(index, slot)| {
                let row = Self::visible(slot, id, snapshot)?;
                Some((Self::visible_place(slot, id, snapshot), index, row))
            })
            .collect();
        rows.sort_by_key(|&(place, ..)| place);
        rows.into_iter()
            .map(|(_, index, row)| (index, row))
            .collect()
    }

    /// Slots whose visible row matches `filter`, in heap order: read
    /// through the table's equality lookup where the filter pins a column
    /// to a value (`lookup.rs`), else by a scan of every row.
    fn matching(
        &self,
        table: &Table,
        id: TxnId,
        snapshot: u64,
        filter: Option<&Expr>,
        ctx: &Context,
    ) -> Result<Vec<usize>, Stop> {
        let candidates = match (&table.lookup, filter) {
            (Some(lookup), Some(filter)) => lookup.candidates(&table.schema.columns, filter, ctx),
            _ => None,
        };
        let Some(candidates) = candidates else {
            return Self::scan_matching(table, id, snapshot, filter, ctx);
        };
        let mut rows: Vec<(u64, usize, &Row)> = candidates
            .into_iter()
            .filter_map(|index| {
                let slot = &table.slots[index];
                let row = Self::visible(slot, id, snapshot)?;
                Some((Self::visible_place(slot, id, snapshot), index, row))
            })
            .collect();
        rows.sort_by_key(|&(place, ..)| place);
        let mut found = Vec::new();
        for (_, index, row) in rows {
            if pass(filter, row, ctx).map_err(Stop::Fail)? {
                found.push(index);
            }
        }
        #[cfg(debug_assertions)]
        if let Ok(scanned) = Self::scan_matching(table, id, snapshot, filter, ctx) {
            debug_assert_eq!(found, scanned, "the lookup finds what a scan finds");
        }
        Ok(found)
    }

    /// [`Database::matching`] by a scan of every row.
    fn scan_matching(
        table: &Table,
        id: TxnId,
        snapshot: u64,
        filter: Option<&Expr>,
        ctx: &Context,
    ) -> Result<Vec<usize>, Stop> {
        let mut found = Vec::new();
        for (index, row) in Self::scan(table, id, snapshot) {
            if pass(filter, row, ctx).map_err(Stop::Fail)? {
                found.push(index);
            }
        }
        Ok(found)
    }

    /// PostgreSQL's recheck of the rows a statement locks or writes under
    /// READ COMMITTED (EvalPlanQual): a row found on the statement's
    /// snapshot that a commit changed since is read as it is now, and
    /// kept only if it is still there and still matches `filter`. A row
    /// that came to match, or came to be, since the snapshot is not
    /// found: `FOR UPDATE` locks no row that does not exist yet. On a
    /// statement's first run nothing has changed since its snapshot; run
    /// again after a wait ([`Plan::waited`]), it finds what the
    /// transaction it waited for committed. Under REPEATABLE READ and
    /// SERIALIZABLE such a row fails the statement instead (`claim`).
    fn recheck(
        &self,
        table: &Table,
        id: TxnId,
        snapshot: u64,
        found: Vec<usize>,
        filter: Option<&Expr>,
        ctx: &Context,
    ) -> Result<Vec<usize>, Stop> {
        if self.txns[&id].isolation != Isolation::ReadCommitted {
            return Ok(found);
        }
        let mut kept = Vec::with_capacity(found.len());
        for index in found {
            let slot = &table.slots[index];
            let own = slot.pending.as_ref().is_some_and(|(w, _)| *w == id);
            let now = match own || slot.latest_seq() <= snapshot {
                true => true,
                false => match slot.latest() {
                    Some(row) => pass(filter, row, ctx).map_err(Stop::Fail)?,
                    None => false,
                },
            };
            if now {
                kept.push(index);
            }
        }
        Ok(kept)
    }

    /// The row a statement of `id` locks or writes: under READ COMMITTED
    /// as it is now ([`Database::recheck`]), else as its snapshot has it.
    fn target<'a>(&self, slot: &'a Slot, id: TxnId, snapshot: u64) -> Option<&'a Row> {
        match self.txns[&id].isolation {
            Isolation::ReadCommitted => slot.current(id),
            _ => Self::visible(slot, id, snapshot),
        }
    }

    /// SERIALIZABLE bookkeeping for a predicate read by `id`: conflicts out
    /// to the writers of matching versions it cannot see.
    fn note_read(
        &mut self,
        id: TxnId,
        snapshot: u64,
        table: &str,
        filter: Option<&Expr>,
        ctx: &Context,
    ) -> Result<(), Stop> {
        if self.txns[&id].isolation != Isolation::Serializable {
            return Ok(());
        }
        let mut writers = BTreeSet::new();
        for slot in &self.tables[table].slots {
            let unseen = slot
                .versions
                .iter()
                .filter(|v| v.seq > snapshot)
                .map(|v| (v.writer, v.row.as_ref()))
                .chain(
                    slot.pending
                        .iter()
                        .filter(|(w, _)| *w != id)
                        .map(|(w, row)| (*w, row.as_ref())),
                );
            for (writer, row) in unseen {
                let old = Self::visible(slot, id, snapshot);
                let hit = match (row, old) {
                    (Some(row), _) if pass(filter, row, ctx).map_err(Stop::Fail)? => true,
                    (_, Some(old)) => pass(filter, old, ctx).map_err(Stop::Fail)?,
                    _ => false,
                };
                if hit {
                    writers.insert(writer);
                }
            }
        }
        for writer in writers {
            self.conflict(id, writer);
        }
        self.txns
            .get_mut(&id)
            .expect("a transaction")
            .reads
            .push((table.to_string(), filter.cloned()));
        if self.doomed(id) {
            return Err(Stop::Fail(serialization_failure(
                "read/write dependencies among transactions",
            )));
        }
        Ok(())
    }

    /// An rw-conflict: `reader` read what `writer` writes, unseen.
    fn conflict(&mut self, reader: TxnId, writer: TxnId) {
        if reader == writer {
            return;
        }
        let serializable =
            |t: Option<&Txn>| t.is_some_and(|t| t.isolation == Isolation::Serializable);
        if !serializable(self.txns.get(&reader)) || !serializable(self.txns.get(&writer)) {
            return;
        }
        self.txns
            .get_mut(&reader)
            .expect("reader")
            .conflicts_out
            .insert(writer);
        self.txns
            .get_mut(&writer)
            .expect("writer")
            .conflicts_in
            .insert(reader);
    }

    /// SERIALIZABLE bookkeeping for a write by `id` of a row (its old and
    /// new values): conflicts in from the transactions whose predicate
    /// reads it changes.
    fn note_write(
        &mut self,
        id: TxnId,
        table: &str,
        rows: &[&Row],
        ctx: &Context,
    ) -> Result<(), Stop> {
        if self.txns[&id].isolation != Isolation::Serializable {
            return Ok(());
        }
        let snapshot = self.txns[&id].snapshot.unwrap_or(self.seq);
        let mut readers = Vec::new();
        for (other, txn) in &self.txns {
            let concurrent = match txn.status {
                Status::Active => true,
                Status::Committed(seq) => seq > snapshot,
                Status::Aborted => false,
            };
            if *other == id || !concurrent {
                continue;
            }
            for (read_table, filter) in &txn.reads {
                if read_table != table {
                    continue;
                }
                let mut hit = false;
                for row in rows {
                    hit |= pass(filter.as_ref(), row, ctx).map_err(Stop::Fail)?;
                }
                if hit {
                    readers.push(*other);
                    break;
                }
            }
        }
        for reader in readers {
            self.conflict(reader, id);
        }
        if self.doomed(id) {
            return Err(Stop::Fail(serialization_failure(
                "read/write dependencies among transactions",
            )));
        }
        Ok(())
    }

    /// Takes the rows of `name` a statement writes or locks, one by one
    /// in the order it reads them, as PostgreSQL does (`share`: `FOR
    /// SHARE`, which only an exclusive hold stops): at the first that
    /// another transaction holds against it, it waits for that one,
    /// keeping the rows it took before (`exclusive`: as an update, a
    /// delete or `FOR UPDATE` takes them), so a third transaction that
    /// wants one of those waits for it. REPEATABLE READ and SERIALIZABLE
    /// fail if one changed since the snapshot.
    fn claim(
        &mut self,
        id: TxnId,
        snapshot: u64,
        name: &str,
        slots: &[usize],
        (share, exclusive): (bool, bool),
    ) -> Result<(), Stop> {
        let table = self.table(name)?;
        let Some((taken, holder)) = self.first_held(id, snapshot, table, slots, share)? else {
            return Ok(());
        };
        for &index in &slots[..taken] {
            self.lock_row(id, name, index, exclusive);
        }
        Err(Stop::Wait(holder))
    }

    /// The first of `slots` another transaction holds against `id`: its
    /// position and holder. Each row before it must not have changed
    /// since the snapshot, under REPEATABLE READ and SERIALIZABLE.
    fn first_held(
        &self,
        id: TxnId,
        snapshot: u64,
        table: &Table,
        slots: &[usize],
        share: bool,
    ) -> Result<Option<(usize, TxnId)>, Stop> {
        for (position, &index) in slots.iter().enumerate() {
            if let Some(holder) = table.slots[index].blocker(id, share) {
                return Ok(Some((position, holder)));
            }
            self.unseen_conflict(id, snapshot, table, index)?;
        }
        Ok(None)
    }

    /// `FOR UPDATE` (or `FOR SHARE`) of a row it claimed, for the
    /// transaction.
    fn lock_row(&mut self, id: TxnId, table: &str, index: usize, for_update: bool) {
        self.journal(table, index);
        let slot = &mut self.tables.get_mut(table).expect("a table").slots[index];
        if for_update {
            slot.locker = Some(id);
        } else if !slot.sharers.contains(&id) {
            slot.sharers.push(id);
        }
        self.hold(id, table, index);
    }

    fn hold(&mut self, id: TxnId, table: &str, index: usize) {
        self.txns
            .get_mut(&id)
            .expect("a transaction")
            .held
            .insert((table.to_string(), index));
    }

    /// Writes a new version of a slot for `id` (`None`: deleted).
    fn write(&mut self, id: TxnId, table: &str, index: usize, row: Option<Row>) {
        self.journal(table, index);
        let table_ref = self.tables.get_mut(table).expect("a table");
        let place = table_ref.next_place;
        if let (Some(lookup), Some(row)) = (&mut table_ref.lookup, &row) {
            lookup.note(&table_ref.schema.columns, index, row);
        }
        let slot = &mut table_ref.slots[index];
        if row.is_some() {
            // The new version goes after every row in the heap.
            slot.pending_place = place;
            table_ref.next_place += 1;
        }
        slot.pending = Some((id, row));
        self.access.written.push((table.to_string(), index));
        self.hold(id, table, index);
    }

    fn select(
        &mut self,
        id: TxnId,
        snapshot: u64,
        select: &Select,
        ctx: &Context,
    ) -> Result<Reply, Stop> {
        // Its locks would fall on the table as it was, not as it is.
        let stashed = |(table, _): &(&str, &str)| self.stashed.iter().any(|s| s.table == *table);
        if select.locks() && select.sources().iter().any(stashed) {
            return Err(Stop::Fail(sql_error(
                "0A000",
                "FOR UPDATE or FOR SHARE of a table a data-modifying WITH query of the same statement writes is not supported by the simulation".into(),
            )));
        }
        // Subqueries the statement's first pass left: correlated ones, and
        // those inside one, which run with the outer row's values bound.
        if select.own_exprs().into_iter().any(Expr::has_subquery) {
            if !select.joins.is_empty() {
                return Err(correlated_join(select.table.as_deref().unwrap_or_default()));
            }
            let mut bound = select.clone();
            let table = bound.table.clone();
            self.bind_rows(id, snapshot, table.as_deref(), bound.own_exprs_mut())?;
            return self.select(id, snapshot, &bound, ctx);
        }
        let Some(name) = &select.table else {
            if let Projection::Items(items) = &select.projection {
                if let [(column, Expr::Call(function, args))] = items.as_slice() {
                    if function.is_advisory() {
                        return self.advisory(id, *function, args, column, ctx);
                    }
                    if *function == Function::SetConfig {
                        return self.set_config(id, args, column, ctx).map_err(Stop::Fail);
                    }
                }
            }
            if let (Some(seconds), Projection::Items(items)) = (select.sleep(), &select.projection)
            {
                // The sleep itself was the round trip's (`sleep::sleep_micros`).
                let value = match super::sleep::seconds_of(seconds, ctx).map_err(Stop::Fail)? {
                    None => Value::Null,
                    Some(_) => Value::String(String::new()),
                };
                let column = items[0].0.clone();
                let mut row = Row::new();
                row.insert(column.clone(), value);
                return Ok(Reply {
                    command: "SELECT",
                    row_count: Some(1),
                    rows: vec![row],
                    fields: vec![(column, Type::Void.oid())],
                });
            }
            // `SELECT 1`, `SELECT now()`, `SELECT $1 WHERE NOT EXISTS (…)`:
            // one row, if its WHERE holds.
            let row = Row::new();
            let one: Vec<&Row> = match pass(select.filter.as_ref(), &row, ctx) {
                Ok(true) => vec![&row],
                Ok(false) => Vec::new(),
                Err(error) => return Err(Stop::Fail(error)),
            };
            let (rows, fields) = match select.aggregated() {
                true => self.grouped("", select, &one, ctx)?,
                false => project(None, &select.projection, &one, ctx)?,
            };
            return Ok(Reply {
                command: "SELECT",
                row_count: Some(rows.len() as u64),
                rows,
                fields,
            });
        };
        if !select.distinct_on.is_empty() && (!select.joins.is_empty() || select.aggregated()) {
            return Err(Stop::Fail(sql_error(
                "0A000",
                "DISTINCT ON with a JOIN, GROUP BY or an aggregate is not supported by the \
                 simulation"
                    .into(),
            )));
        }
        if !select.joins.is_empty() {
            return self.select_joined(id, snapshot, select, ctx.now_ms);
        }
        let table = self.table(name)?;
        analysis::select(&table.schema, select).map_err(Stop::Fail)?;
        let mut found = self.matching(table, id, snapshot, select.filter.as_ref(), ctx)?;
        if select.aggregated() {
            let rows: Vec<&Row> = found
                .iter()
                .map(|&i| Self::visible(&table.slots[i], id, snapshot).expect("visible"))
                .collect();
            let (rows, fields) = self.grouped(name, select, &rows, ctx)?;
            self.note_read(id, snapshot, name, select.filter.as_ref(), ctx)?;
            let slots = &self.tables[name].slots;
            self.access.read = found
                .iter()
                .map(|&index| (name.clone(), index, slots[index].latest_seq()))
                .collect();
            self.access.predicate = Some(predicate_read(name, select, snapshot, &fields));
            return Ok(Reply {
                command: "SELECT",
                row_count: Some(rows.len() as u64),
                rows,
                fields,
            });
        }
        if !select.order.is_empty() {
            let rows: Vec<&Row> = found
                .iter()
                .map(|&i| Self::visible(&table.slots[i], id, snapshot).expect("visible"))
                .collect();
            let order = sorted(select, &rows, ctx)?;
            found = order.into_iter().map(|i| found[i]).collect();
        }
        if !select.distinct_on.is_empty() {
            found = self.distinct_on(table, id, snapshot, select, found, ctx)?;
        }
        if select.locks() {
            found = self.recheck(table, id, snapshot, found, select.filter.as_ref(), ctx)?;
        }
        let share = select.for_share;
        if select.skip_locked {
            found.retain(|&i| table.slots[i].blocker(id, share).is_none());
        }
        // A FOR UPDATE locks the rows its OFFSET skips too: PostgreSQL's
        // LockRows sits below its Limit.
        let window = Window::of(select, ctx)?;
        if let (Some(end), false) = (window.end(), select.distinct) {
            found.truncate(end);
        }
        if select.locks() {
            let held = |&i: &usize| table.slots[i].blocker(id, share).is_some();
            if select.nowait && found.iter().any(held) {
                return Err(Stop::Fail(sql_error(
                    "55P03",
                    format!("could not obtain lock on row in relation \"{name}\""),
                )));
            }
            self.claim(id, snapshot, name, &found, (share, select.for_update))?;
        }
        let table = &self.tables[name];
        let returned = match select.distinct {
            true => &found[..],
            false => &found[window.offset.min(found.len())..],
        };
        let rows: Vec<&Row> = returned
            .iter()
            .map(|&i| match select.locks() {
                true => self.target(&table.slots[i], id, snapshot),
                false => Self::visible(&table.slots[i], id, snapshot),
            })
            .map(|row| row.expect("visible"))
            .collect();
        let (mut rows, fields) = project(Some(&table.schema), &select.projection, &rows, ctx)?;
        if select.distinct {
            rows = distinct(rows, window);
        }
        self.note_read(id, snapshot, name, select.filter.as_ref(), ctx)?;
        let slots = &self.tables[name].slots;
        let read: Vec<(String, usize, u64)> = returned
            .iter()
            .map(|&index| (name.clone(), index, slots[index].latest_seq()))
            .collect();
        self.access.read = read;
        self.access.predicate = Some(predicate_read(name, select, snapshot, &fields));
        if select.locks() {
            for &index in &found {
                self.lock_row(id, name, index, select.for_update);
            }
        }
        Ok(Reply {
            command: "SELECT",
            row_count: Some(rows.len() as u64),
            rows,
            fields,
        })
    }

    /// `DISTINCT ON (columns)` over `found`, rows of `table` in ORDER BY's
    /// order: the first of each set of those columns' values (NULLs
    /// equal). With no ORDER BY, PostgreSQL sorts by those columns first.
    fn distinct_on(
        &self,
        table: &Table,
        id: TxnId,
        snapshot: u64,
        select: &Select,
        mut found: Vec<usize>,
        ctx: &Context,
    ) -> Result<Vec<usize>, Stop> {
        let row = |i: usize| Self::visible(&table.slots[i], id, snapshot).expect("visible");
        if select.order.is_empty() {
            let by_columns = Select {
                order: select
                    .distinct_on
                    .iter()
                    .map(|column| (column.clone(), false, false))
                    .collect(),
                projection: Projection::All,
                ..select.clone()
            };
            let rows: Vec<&Row> = found.iter().map(|&i| row(i)).collect();
            let order = sorted(&by_columns, &rows, ctx)?;
            found = order.into_iter().map(|i| found[i]).collect();
        }
        let mut seen: Vec<Vec<Value>> = Vec::new();
        found.retain(|&i| {
            let key: Vec<Value> = select
                .distinct_on
                .iter()
                .map(|column| row(i).get(column).cloned().unwrap_or(Value::Null))
                .collect();
            let first = !seen.contains(&key);
            if first {
                seen.push(key);
            }
            first
        });
        Ok(found)
    }

    /// A SELECT of joined tables (`Select::joins`). Each column is first
    /// resolved to its table (`name.column`: PostgreSQL's 42703 for none,
    /// 42702 for several); then the rows are every combination of the
    /// tables' visible rows, in FROM order, kept where each `ON` holds (a
    /// LEFT JOIN keeps a row that matched none, with the joined table's
    /// columns NULL), as PostgreSQL's nested loop gives them; then WHERE,
    /// grouping, ORDER BY, LIMIT and the projection, as for one table.
    /// Under SERIALIZABLE it reads each table whole. Its reads are the
    /// rows its answer came from.
    fn select_joined(
        &mut self,
        id: TxnId,
        snapshot: u64,
        select: &Select,
        now_ms: f64,
    ) -> Result<Reply, Stop> {
        let Joined {
            sources,
            ctx,
            select,
            mut kept,
        } = self.joined(id, snapshot, select, now_ms)?;
        let locked = select.locks();
        let (rows, fields) = if select.aggregated() {
            let rows: Vec<&Row> = kept.iter().map(|(row, _)| row).collect();
            self.grouped("", &select, &rows, &ctx)?
        } else {
            if !select.order.is_empty() {
                let rows: Vec<&Row> = kept.iter().map(|(row, _)| row).collect();
                let order = sorted(&select, &rows, &ctx)?;
                let mut taken: Vec<Option<_>> = kept.into_iter().map(Some).collect();
                kept = order.into_iter().filter_map(|i| taken[i].take()).collect();
            }
            let window = Window::of(&select, &ctx)?;
            if locked {
                kept = self.lock_joined(id, snapshot, &select, &sources, kept, &window)?;
            } else if !select.distinct {
                kept = window.apply(kept);
            }
            let rows: Vec<&Row> = kept.iter().map(|(row, _)| row).collect();
            let (rows, fields) = project(None, &select.projection, &rows, &ctx)?;
            match select.distinct {
                true => (distinct(rows, window), fields),
                false => (rows, fields),
            }
        };
        for (table, _) in &sources {
            self.note_read(id, snapshot, table, None, &ctx)?;
        }
        let mut read = BTreeSet::new();
        for (_, from) in &kept {
            for &(n, index) in from {
                let table = &sources[n].0;
                read.insert((
                    table.clone(),
                    index,
                    self.tables[table].slots[index].latest_seq(),
                ));
            }
        }
        self.access.read = read.into_iter().collect();
        Ok(Reply {
            command: "SELECT",
            row_count: Some(rows.len() as u64),
            rows,
            fields,
        })
    }

    /// A join's `FOR UPDATE` or `FOR SHARE` ([`Select::locked`]): the rows
    /// of its locked tables in the combinations it keeps, up to its LIMIT
    /// (those its OFFSET skips too, as PostgreSQL's LockRows sits below its
    /// Limit), with SKIP LOCKED leaving a combination with any row held
    /// and NOWAIT failing at once; the combinations after its OFFSET.
    fn lock_joined(
        &mut self,
        id: TxnId,
        snapshot: u64,
        select: &Select,
        sources: &[(String, String)],
        mut kept: Vec<Combination>,
        window: &Window,
    ) -> Result<Vec<Combination>, Stop> {
        let share = select.for_share;
        let slots = |from: &[(usize, usize)]| -> Vec<(usize, usize)> {
            from.iter()
                .copied()
                .filter(|(n, _)| select.locked.contains(n))
                .collect()
        };
        let held = |this: &Self, (n, index): (usize, usize)| {
            this.tables[&sources[n].0].slots[index]
                .blocker(id, share)
                .is_some()
        };
        if select.skip_locked {
            kept.retain(|(_, from)| !slots(from).into_iter().any(|slot| held(self, slot)));
        }
        if let Some(end) = window.end() {
            kept.truncate(end);
        }
        let mut rows: Vec<(usize, usize)> = Vec::new();
        for slot in kept.iter().flat_map(|(_, from)| slots(from)) {
            if !rows.contains(&slot) {
                rows.push(slot);
            }
        }
        if let (true, Some(&(n, _))) = (select.nowait, rows.iter().find(|&&slot| held(self, slot)))
        {
            return Err(Stop::Fail(sql_error(
                "55P03",
                format!(
                    "could not obtain lock on row in relation \"{}\"",
                    sources[n].0
                ),
            )));
        }
        for &n in &select.locked {
            let table = &self.tables[&sources[n].0];
            let indexes: Vec<usize> = rows
                .iter()
                .filter(|(m, _)| *m == n)
                .map(|&(_, i)| i)
                .collect();
            if let Some((_, holder)) = self.first_held(id, snapshot, table, &indexes, share)? {
                // It waits at the first row held, keeping those before it.
                let taken = rows.iter().position(|&slot| held(self, slot));
                for &(m, index) in &rows[..taken.unwrap_or(0)] {
                    self.lock_row(id, &sources[m].0, index, select.for_update);
                }
                return Err(Stop::Wait(holder));
            }
        }
        for (n, index) in rows {
            self.lock_row(id, &sources[n].0, index, select.for_update);
        }
        Ok(kept.split_off(window.offset.min(kept.len())))
    }

    /// `UPDATE … FROM`, as PostgreSQL runs it: the updated rows are
    /// those a join with FROM's tables keeps ([`Database::targets`]), each
    /// updated once, with its first combination, which its SET and
    /// RETURNING read. Under SERIALIZABLE it reads each table whole.
    fn update_from(
        &mut self,
        id: TxnId,
        snapshot: u64,
        update: &Update,
        now_ms: f64,
    ) -> Result<Reply, Stop> {
        let name = &update.table;
        let exprs = update.set.iter().map(|(_, e)| e.clone()).collect();
        let joined = (&update.alias, &update.from, &update.filter);
        let mut targets = self.targets(id, snapshot, name, joined, exprs, now_ms)?;
        let table = self.table(name)?;
        for (column, _) in &update.set {
            column_of(&table.schema, column).map_err(Stop::Fail)?;
        }
        let set: Vec<(String, Expr)> = update
            .set
            .iter()
            .zip(std::mem::take(&mut targets.exprs))
            .map(|((column, _), e)| (column.clone(), e))
            .collect();
        self.claim(id, snapshot, name, &targets.found, (false, true))?;
        let table = self.table(name)?;
        let ctx = &targets.ctx;
        let target = &targets.sources[0].1;
        let mut old_rows = Vec::new();
        let mut new_rows = Vec::new();
        for (&index, input) in targets.found.iter().zip(&mut targets.inputs) {
            let old = Self::visible(&table.slots[index], id, snapshot)
                .expect("visible")
                .clone();
            let new = assign(name, &table.schema, &old, &set, None, Some(input), ctx)?;
            // RETURNING reads the new row.
            for (column, value) in &new {
                input.insert(format!("{target}.{column}"), value.clone());
            }
            old_rows.push(old);
            new_rows.push(new);
        }
        let found = &targets.found;
        self.check_updates(id, name, found, &old_rows, &new_rows, snapshot, ctx)?;
        for (table, _) in &targets.sources {
            self.note_read(id, snapshot, table, None, ctx)?;
        }
        let rewrite = Rewrite::of(&set, update.filter.as_ref());
        self.note_changed_columns(rewrite, &set);
        let (rows, fields) = targets.returning(&update.returning)?;
        self.write_updates(id, name, found, new_rows, rewrite);
        Ok(Reply {
            command: "UPDATE",
            row_count: Some(found.len() as u64),
            rows,
            fields,
        })
    }

    /// `DELETE … USING`, as PostgreSQL runs it: the deleted rows are those
    /// a join with USING's tables keeps ([`Database::targets`]); RETURNING
    /// reads each with its first combination. Under SERIALIZABLE it reads
    /// each table whole.
    fn delete_using(
        &mut self,
        id: TxnId,
        snapshot: u64,
        delete: &Delete,
        now_ms: f64,
    ) -> Result<Reply, Stop> {
        let name = &delete.table;
        let joined = (&delete.alias, &delete.using, &delete.filter);
        let targets = self.targets(id, snapshot, name, joined, Vec::new(), now_ms)?;
        let (found, ctx) = (&targets.found, &targets.ctx);
        self.claim_deleted(id, snapshot, name, found, ctx)?;
        for (table, _) in &targets.sources {
            self.note_read(id, snapshot, table, None, ctx)?;
        }
        let (rows, fields) = targets.returning(&delete.returning)?;
        for &index in found {
            self.write(id, name, index, None);
        }
        Ok(Reply {
            command: "DELETE",
            row_count: Some(found.len() as u64),
            rows,
            fields,
        })
    }

    /// The rows an `UPDATE … FROM` or a `DELETE … USING` writes: `table`
    /// (going by `alias`) joined with the other tables, kept by the
    /// filter, as a joined SELECT's ([`Database::joined`]), each row of
    /// `table` once with its first combination; and `exprs` with their
    /// columns resolved.
    fn targets(
        &self,
        id: TxnId,
        snapshot: u64,
        table: &str,
        (alias, from, filter): (&Option<String>, &Vec<Join>, &Option<Expr>),
        exprs: Vec<Expr>,
        now_ms: f64,
    ) -> Result<Targets, Stop> {
        let items = exprs.into_iter().map(|e| (String::new(), e)).collect();
        let query = Select {
            filter: filter.clone(),
            joins: from.clone(),
            alias: alias.clone(),
            ..Select::plain(Some(table.to_string()), Projection::Items(items))
        };
        let Joined {
            sources,
            mut ctx,
            select,
            kept,
        } = self.joined(id, snapshot, &query, now_ms)?;
        let Projection::Items(resolved) = select.projection else {
            unreachable!("items")
        };
        // The table's own columns too, for its CHECKs.
        let columns = &self.table(table)?.schema.columns;
        ctx.types.extend(
            columns
                .iter()
                .map(|column| (column.name.clone(), column.ty)),
        );
        let mut found = Vec::new();
        let mut inputs = Vec::new();
        let mut seen = BTreeSet::new();
        for (row, from) in kept {
            let index = from.iter().find(|(n, _)| *n == 0).expect("the table").1;
            if seen.insert(index) {
                found.push(index);
                inputs.push(row);
            }
        }
        Ok(Targets {
            sources,
            ctx,
            query,
            exprs: resolved.into_iter().map(|(_, e)| e).collect(),
            found,
            inputs,
        })
    }

    /// A joined SELECT's rows: each column resolved to its table
    /// (`name.column`: PostgreSQL's 42703 for none, 42702 for several);
    /// then every combination of the tables' visible rows, in FROM order,
    /// kept where each `ON` holds (a LEFT JOIN keeps a row that matched
    /// none, with the joined table's columns NULL), as PostgreSQL's nested
    /// loop gives them; then those WHERE keeps.
    fn joined(
        &self,
        id: TxnId,
        snapshot: u64,
        select: &Select,
        now_ms: f64,
    ) -> Result<Joined, Stop> {
        let sources: Vec<(String, String)> = select
            .sources()
            .into_iter()
            .map(|(table, name)| (table.to_string(), name.to_string()))
            .collect();
        let mut types = Vec::new();
        for (table, name) in &sources {
            for column in &self.table(table)?.schema.columns {
                types.push((format!("{name}.{}", column.name), column.ty));
            }
        }
        let ctx = Context {
            now_ms,
            types,
            ..self.context(id, None)
        };
        let select = resolve_columns(select, &sources, &ctx)?;
        // Each combination: its row (`name.column` keys) and the slots it
        // came from, by table.
        let mut combos: Vec<(Row, Vec<(usize, usize)>)> = vec![(Row::new(), Vec::new())];
        for (n, (table, name)) in sources.iter().enumerate() {
            let table = &self.tables[table];
            let join = n.checked_sub(1).map(|j| &select.joins[j]);
            let on = join.and_then(|join| join.on.as_ref());
            let mut next = Vec::new();
            let rows = Self::scan(table, id, snapshot);
            // RIGHT and FULL JOIN: this table's rows that no combination
            // matched.
            let mut unmatched = vec![join.is_some_and(|join| join.right); rows.len()];
            for (row, from) in &combos {
                let mut matched = false;
                for (place, (index, visible)) in rows.iter().enumerate() {
                    let mut joined = row.clone();
                    put_columns(&mut joined, name, visible);
                    if pass(on, &joined, &ctx).map_err(Stop::Fail)? {
                        matched = true;
                        unmatched[place] = false;
                        let mut from = from.clone();
                        from.push((n, *index));
                        next.push((joined, from));
                    }
                }
                if !matched && join.is_some_and(|join| join.left) {
                    let mut joined = row.clone();
                    put_nulls(&mut joined, name, table);
                    next.push((joined, from.clone()));
                }
            }
            // After the matches, in the table's order, with every column
            // before it NULL.
            for ((index, visible), _) in rows.iter().zip(&unmatched).filter(|(_, &u)| u) {
                let mut joined = Row::new();
                for (before, earlier) in &sources[..n] {
                    put_nulls(&mut joined, earlier, &self.tables[before]);
                }
                put_columns(&mut joined, name, visible);
                next.push((joined, vec![(n, *index)]));
            }
            combos = next;
        }
        let mut kept = Vec::with_capacity(combos.len());
        for combo in combos {
            if pass(select.filter.as_ref(), &combo.0, &ctx).map_err(Stop::Fail)? {
                kept.push(combo);
            }
        }
        Ok(Joined {
            sources,
            ctx,
            select,
            kept,
        })
    }

    /// `SELECT pg_advisory_xact_lock(key)` and the other advisory lock
    /// functions, for transaction `id`: a lock another transaction or
    /// session holds makes it wait for that holder (the `pg_try_` forms
    /// answer false instead); the same transaction or session takes it
    /// again (it is re-entrant). A transaction's holds go at its end, a
    /// session's when it unlocks them.
    fn advisory(
        &mut self,
        id: TxnId,
        function: Function,
        args: &[Expr],
        column: &str,
        ctx: &Context,
    ) -> Result<Reply, Stop> {
        let client = self.txns[&id].client;
        let mut key = (args.len() as u8, 0, 0);
        for (i, arg) in args.iter().enumerate() {
            let ty = if args.len() == 1 {
                Type::BigInt
            } else {
                Type::Int
            };
            let value = eval(&Expr::Cast(Box::new(arg.clone()), ty), None, None, ctx)
                .map_err(Stop::Fail)?;
            let n = value.as_i64().unwrap_or(0);
            if i == 0 {
                key.1 = n;
            } else {
                key.2 = n;
            }
        }
        let mine = |owner: Owner| match owner {
            Owner::Txn(t) => t == id,
            Owner::Session(s) => Some(s) == client,
        };
        let answer = match function {
            Function::AdvisoryLock { transaction, wait } => {
                let owner = match (transaction, client) {
                    (true, _) => Owner::Txn(id),
                    (false, Some(session)) => Owner::Session(session),
                    (false, None) => {
                        return Err(Stop::Fail(sql_error(
                            "0A000",
                            "a session-level advisory lock needs a client's session".into(),
                        )))
                    }
                };
                match self.advisory.get_mut(&key) {
                    None => {
                        self.advisory.insert(key, Hold { owner, count: 1 });
                        true
                    }
                    Some(hold) if mine(hold.owner) => {
                        hold.count += 1;
                        true
                    }
                    Some(_) if !wait => false,
                    Some(hold) => {
                        let holder = match hold.owner {
                            Owner::Txn(t) => t,
                            Owner::Session(s) => self.holder(s),
                        };
                        return Err(Stop::Wait(holder));
                    }
                }
            }
            Function::AdvisoryUnlock => match (self.advisory.get_mut(&key), client) {
                (Some(hold), Some(session)) if hold.owner == Owner::Session(session) => {
                    hold.count -= 1;
                    if hold.count == 0 {
                        self.advisory.remove(&key);
                        let holder = self.holder(session);
                        self.released.push(holder);
                    }
                    true
                }
                // PostgreSQL also warns: "you don't own a lock of type ExclusiveLock".
                _ => false,
            },
            _ => {
                if let Some(session) = client {
                    let before = self.advisory.len();
                    self.advisory
                        .retain(|_, hold| hold.owner != Owner::Session(session));
                    if self.advisory.len() < before {
                        let holder = self.holder(session);
                        self.released.push(holder);
                    }
                }
                true
            }
        };
        let (value, ty) = match function {
            Function::AdvisoryLock { wait: true, .. } | Function::AdvisoryUnlockAll => {
                (Value::String(String::new()), Type::Void)
            }
            _ => (Value::Bool(answer), Type::Bool),
        };
        let mut row = Row::new();
        row.insert(column.to_string(), value);
        Ok(Reply {
            command: "SELECT",
            row_count: Some(1),
            rows: vec![row],
            fields: vec![(column.to_string(), ty.oid())],
        })
    }

    /// `SELECT set_config(name, value, is_local)` for transaction `id`:
    /// `SET [LOCAL] name = value` (a null value: back to its default),
    /// answering the value as `SHOW` would give it.
    fn set_config(
        &mut self,
        id: TxnId,
        args: &[Expr],
        column: &str,
        ctx: &Context,
    ) -> Result<Reply, SqlError> {
        let mut values = Vec::new();
        for (arg, ty) in args.iter().zip([Type::Text, Type::Text, Type::Bool]) {
            values.push(cast(eval(arg, None, None, ctx)?, ty)?);
        }
        let Value::String(name) = &values[0] else {
            return Err(sql_error("22004", "SET requires parameter name".into()));
        };
        let name = name.to_lowercase();
        let (shown, ms) = crate::sql::parameters::checked(&name, values[1].as_str())?;
        let local = values[2] == Value::Bool(true);
        let txn = &self.txns[&id];
        let in_txn = txn.session.is_some();
        // With no client (the schema's rows) the value ends with the
        // statement.
        if let Some(session) = txn.client {
            let value = shown.clone().map(|text| (text, ms));
            self.settings_of(session).set(&name, value, local, in_txn);
        }
        let mut row = Row::new();
        row.insert(column.to_string(), Value::String(shown.unwrap_or_default()));
        Ok(Reply {
            command: "SELECT",
            row_count: Some(1),
            rows: vec![row],
            fields: vec![(column.to_string(), Type::Text.oid())],
        })
    }

    /// The level of `session`'s transactions that name none.
    fn default_isolation(&self, session: Option<u64>) -> Isolation {
        let settings = self.settings.iter().find(|(s, _)| Some(*s) == session);
        settings.map_or(Isolation::ReadCommitted, |(_, settings)| {
            settings.default_isolation()
        })
    }

    /// A session's parameters, kept from its first `SET`.
    fn settings_of(&mut self, session: u64) -> &mut Settings {
        let at = match self.settings.iter().position(|(s, _)| *s == session) {
            Some(at) => at,
            None => {
                self.settings.push((session, Settings::default()));
                self.settings.len() - 1
            }
        };
        &mut self.settings[at].1
    }

    /// The id that waiters on `session`'s session-level holds wait on.
    fn holder(&mut self, session: u64) -> TxnId {
        if let Some(id) = self.holders.get(&session) {
            return *id;
        }
        self.next_txn += 1;
        self.holders.insert(session, self.next_txn);
        self.next_txn
    }

    /// A SELECT with aggregates or GROUP BY (`aggregate::grouped`), sorted
    /// and limited, with its fields.
    #[allow(clippy::type_complexity)]
    fn grouped(
        &self,
        name: &str,
        select: &Select,
        rows: &[&Row],
        ctx: &Context,
    ) -> Result<(Vec<Row>, Vec<(String, u32)>), Stop> {
        let dependent = self.dependent_groups(select);
        let grouping = dependent.as_ref().unwrap_or(select);
        let mut out = aggregate::grouped(name, grouping, rows, ctx).map_err(Stop::Fail)?;
        if !select.order.is_empty() {
            let numeric: Vec<bool> = select
                .order
                .iter()
                .map(|(column, ..)| match &select.projection {
                    Projection::Items(items) => items
                        .iter()
                        .find(|(n, _)| n == column)
                        .map_or(ctx.numeric(column), |(_, e)| is_numeric(e, ctx)),
                    Projection::All => ctx.numeric(column),
                })
                .collect();
            let terms = select.order_terms();
            out.sort_by(|(_, a), (_, b)| compare_keys(a, b, &terms, &numeric));
        }
        let mut rows: Vec<Row> = out.into_iter().map(|(row, _)| row).collect();
        let window = Window::of(select, ctx)?;
        rows = match select.distinct {
            true => distinct(rows, window),
            false => window.apply(rows),
        };
        let fields = match &select.projection {
            Projection::Items(items) => items
                .iter()
                .map(|(name, e)| (name.clone(), type_of(e, ctx).oid()))
                .collect(),
            Projection::All => ctx
                .types
                .iter()
                .map(|(n, ty)| (n.clone(), ty.oid()))
                .collect(),
        };
        Ok((rows, fields))
    }

    /// `select` with its GROUP BY also naming the columns its groups fix,
    /// if any: a table's other columns where it groups by the table's
    /// primary key (PostgreSQL's functional dependency: `GROUP BY e.id`
    /// may select `e.name`). The groups and their order stay the same.
    fn dependent_groups(&self, select: &Select) -> Option<Select> {
        if select.group_by.is_empty() {
            return None;
        }
        let joined = !select.joins.is_empty();
        let mut extra = Vec::new();
        for (table, name) in select.sources() {
            let Some(table) = self.tables.get(table) else {
                continue;
            };
            let column = |c: &str| match joined {
                true => format!("{name}.{c}"),
                false => c.to_string(),
            };
            let Some(key) = table.schema.keys.iter().find(|key| key.primary) else {
                continue;
            };
            if key
                .columns
                .iter()
                .all(|c| select.group_by.contains(&column(c)))
            {
                for c in &table.schema.columns {
                    let c = column(&c.name);
                    if !select.group_by.contains(&c) && !extra.contains(&c) {
                        extra.push(c);
                    }
                }
            }
        }
        if extra.is_empty() {
            return None;
        }
        let mut select = select.clone();
        select.group_by.extend(extra);
        Some(select)
    }

    /// The new row an INSERT builds from its values and the defaults.
    fn new_row(
        &mut self,
        table: &str,
        columns: &[String],
        values: &[Expr],
        ctx: &Context,
    ) -> Result<Row, Stop> {
        let schema = &self.tables[table].schema;
        let names: Vec<String> = if columns.is_empty() {
            schema.columns.iter().map(|c| c.name.clone()).collect()
        } else {
            columns.to_vec()
        };
        if values.len() > names.len() {
            return Err(Stop::Fail(sql_error(
                "42601",
                "INSERT has more expressions than target columns".into(),
            )));
        }
        if values.len() < names.len() && !columns.is_empty() {
            return Err(Stop::Fail(sql_error(
                "42601",
                "INSERT has more target columns than expressions".into(),
            )));
        }
        // The given values first, so one that fails its column's type
        // takes no serial (PostgreSQL reads them before nextval runs).
        let mut given = BTreeMap::new();
        for (name, value) in names.iter().zip(values) {
            let column = column_of(schema, name).map_err(Stop::Fail)?;
            // `DEFAULT`: as if the column were not named.
            if *value == Expr::Default {
                continue;
            }
            let evaluated = eval(value, None, None, ctx).map_err(Stop::Fail)?;
            let numeric = is_numeric(value, ctx);
            let coerced = coerce(table, column, evaluated, numeric).map_err(Stop::Fail)?;
            given.insert(name.clone(), coerced);
        }
        let columns = schema.columns.clone();
        let mut row = Row::new();
        for column in &columns {
            let value = match given.remove(&column.name) {
                Some(value) => value,
                None => match &column.default {
                    Some(Default::Serial) => {
                        let serial = self
                            .tables
                            .get_mut(table)
                            .expect("a table")
                            .serials
                            .entry(column.name.clone())
                            .or_insert(0);
                        *serial += 1;
                        Value::from(*serial)
                    }
                    Some(Default::Uuid) => Value::String(self.uuids.next()),
                    Some(Default::Expr(e)) => {
                        let value = eval(e, None, None, ctx).map_err(Stop::Fail)?;
                        coerce(table, column, value, is_numeric(e, ctx)).map_err(Stop::Fail)?
                    }
                    None => Value::Null,
                },
            };
            row.insert(column.name.clone(), value);
        }
        if let Some(column) = columns
            .iter()
            .find(|c| c.not_null && row[&c.name].is_null())
        {
            let values: Vec<Value> = row.values().cloned().collect();
            return Err(Stop::Fail(not_null(table, &column.name, &values)));
        }
        checked(table, &self.tables[table].schema, &row, ctx)?;
        Ok(row)
    }

    /// The first slot (and key) whose row conflicts with `row` on a unique
    /// key, among `keys`, skipping `except`. Waits for a transaction that
    /// holds a conflicting write. Reads through the table's lookup
    /// (`lookup.rs`); a debug build checks that a scan of every row finds
    /// the same.
    fn conflict_of(
        &self,
        id: TxnId,
        table: &Table,
        row: &Row,
        keys: &[usize],
        except: &[usize],
    ) -> Result<Option<(usize, usize)>, Stop> {
        let among = |look_up: bool| -> Result<Option<(usize, usize)>, Stop> {
            for &k in keys {
                let unique = &table.schema.keys[k];
                let Some(key) = entry(unique, row) else {
                    continue;
                };
                // A row that conflicts holds the same values: its slot is
                // among the lookup's for them (`lookup.rs`).
                let values = unique.columns.iter().filter_map(|c| Some((c, row.get(c)?)));
                let slots = (table.lookup.as_ref().filter(|_| look_up))
                    .and_then(|lookup| lookup.holding(&table.schema.columns, values))
                    .unwrap_or_else(|| (0..table.slots.len()).collect());
                for index in slots {
                    let slot = &table.slots[index];
                    if except.contains(&index) {
                        continue;
                    }
                    let hits = |r: Option<&Row>| {
                        r.and_then(|r| entry(unique, r))
                            .is_some_and(|k| same_key(&k, &key))
                    };
                    match &slot.pending {
                        Some((writer, pending)) if *writer == id => {
                            if hits(pending.as_ref()) {
                                return Ok(Some((index, k)));
                            }
                        }
                        Some((writer, pending)) => {
                            if hits(pending.as_ref()) || hits(slot.latest()) {
                                return Err(Stop::Wait(*writer));
                            }
                        }
                        None => {
                            if hits(slot.latest()) {
                                return Ok(Some((index, k)));
                            }
                        }
                    }
                }
            }
            Ok(None)
        };
        let found = among(true);
        #[cfg(debug_assertions)]
        {
            let seen = |result: &Result<Option<(usize, usize)>, Stop>| match result {
                Ok(found) => (*found, None),
                Err(Stop::Wait(writer)) => (None, Some(*writer)),
                Err(Stop::Fail(_)) => (None, None),
            };
            debug_assert_eq!(
                seen(&found),
                seen(&among(false)),
                "the lookup finds what a scan finds"
            );
        }
        found
    }

    fn insert(
        &mut self,
        id: TxnId,
        snapshot: u64,
        insert: &Insert,
        ctx: &Context,
    ) -> Result<Reply, Stop> {
        let name = &insert.table;
        analysis::insert(&self.table(name)?.schema, insert).map_err(Stop::Fail)?;
        let all: Vec<usize> = (0..self.tables[name].schema.keys.len()).collect();
        let target = match &insert.on_conflict {
            Some(
                OnConflict::Nothing(Some(columns))
                | OnConflict::Update {
                    target: columns, ..
                },
            ) => {
                let schema = &self.tables[name].schema;
                // `ON CONSTRAINT name` comes as the name after a NUL.
                let constraint = columns.first().and_then(|c| c.strip_prefix('\u{0}'));
                let k = schema
                    .keys
                    .iter()
                    .position(|key| match constraint {
                        Some(constraint) => key.name == constraint,
                        None => {
                            same_columns(&key.columns, columns)
                                && infers(key, insert.conflict_where.as_deref())
                        }
                    })
                    .ok_or_else(|| {
                        Stop::Fail(sql_error(
                            "42P10",
                            "there is no unique or exclusion constraint matching the ON CONFLICT specification".into(),
                        ))
                    })?;
                vec![k]
            }
            _ => all.clone(),
        };
        let mut fresh: Vec<Row> = Vec::new();
        let mut updates: Vec<(usize, Row)> = Vec::new();
        // RETURNING lists the rows in the order of VALUES: which list
        // (updated or not) each came from, in turn.
        let mut order: Vec<bool> = Vec::new();
        for values in &insert.rows {
            let row = self.new_row(name, &insert.columns, values, ctx)?;
            let table = &self.tables[name];
            // Rows of this statement conflict with each other too.
            for earlier in &fresh {
                for key in &table.schema.keys {
                    if let (Some(a), Some(b)) = (entry(key, &row), entry(key, earlier)) {
                        if same_key(&a, &b) {
                            return Err(Stop::Fail(unique(name, key, &row)));
                        }
                    }
                }
            }
            let hit = match &insert.on_conflict {
                Some(_) => self.conflict_of(id, table, &row, &target, &[])?,
                None => None,
            };
            match (hit, &insert.on_conflict) {
                (None, _) => {
                    if let Some((_, k)) = self.conflict_of(id, table, &row, &all, &[])? {
                        return Err(Stop::Fail(self.refused(id, snapshot, table, &row, k)));
                    }
                    fresh.push(row);
                    order.push(false);
                }
                (Some((index, _)), Some(OnConflict::Nothing(_))) => {
                    self.unseen_conflict(id, snapshot, table, index)?;
                }
                (Some((index, _)), Some(OnConflict::Update { set, filter, .. })) => {
                    self.unseen_conflict(id, snapshot, table, index)?;
                    if let Some((_, holder)) =
                        self.first_held(id, snapshot, table, &[index], false)?
                    {
                        return Err(Stop::Wait(holder));
                    }
                    let slot = &table.slots[index];
                    let old = slot.current(id).cloned().expect("a live row");
                    if !pass_with(filter.as_ref(), &old, Some(&row), ctx).map_err(Stop::Fail)? {
                        continue;
                    }
                    let new = assign(name, &table.schema, &old, set, Some(&row), None, ctx)?;
                    if let Some((_, k)) = self.conflict_of(id, table, &new, &all, &[index])? {
                        return Err(Stop::Fail(unique(name, &table.schema.keys[k], &new)));
                    }
                    updates.push((index, new));
                    order.push(true);
                }
                (Some(_), None) => unreachable!("no ON CONFLICT, no target"),
            }
        }
        let written: Vec<Row> = fresh
            .iter()
            .chain(updates.iter().map(|(_, r)| r))
            .cloned()
            .collect();
        let written: Vec<&Row> = written.iter().collect();
        self.check_references(id, name, &written)?;
        self.note_write(id, name, &written, ctx)?;
        // RETURNING's `xmax`: the updating transaction's id, or 0.
        let marked = |row: &Row, xmax: TxnId| {
            let mut row = row.clone();
            if matches!(insert.returning, Some(Projection::Items(_))) {
                row.insert(XMAX.into(), Value::from(xmax));
            }
            row
        };
        let (mut updated, mut inserted) = (updates.iter(), fresh.iter());
        let returned: Vec<Row> = order
            .iter()
            .filter_map(|&update| match update {
                true => updated.next().map(|(_, row)| marked(row, id)),
                false => inserted.next().map(|row| marked(row, 0)),
            })
            .collect();
        // A conflict's SET writes the row as an UPDATE's would: one that
        // reads no column of it (`SET n = EXCLUDED.n`) overwrites it.
        let rewrite = match &insert.on_conflict {
            Some(OnConflict::Update { set, filter, .. }) => {
                let rewrite = Rewrite::of(set, filter.as_ref());
                self.note_changed_columns(rewrite, set);
                rewrite
            }
            _ => Rewrite::Checked,
        };
        let (found, new_rows): (Vec<usize>, Vec<Row>) = updates.into_iter().unzip();
        self.write_updates(id, name, &found, new_rows, rewrite);
        for row in fresh {
            let table = self.tables.get_mut(name).expect("a table");
            table.slots.push(Slot::default());
            let index = table.slots.len() - 1;
            self.write(id, name, index, Some(row));
        }
        let count = returned.len() as u64;
        let (rows, fields) = self.returning(name, &insert.returning, &returned, ctx)?;
        Ok(Reply {
            command: "INSERT",
            row_count: Some(count),
            rows,
            fields,
        })
    }

    /// A unique violation, or under REPEATABLE READ and SERIALIZABLE, a
    /// serialization failure when the conflicting row is one the snapshot
    /// does not see (PostgreSQL does the same).
    fn refused(&self, id: TxnId, snapshot: u64, table: &Table, row: &Row, k: usize) -> SqlError {
        if self.txns[&id].isolation != Isolation::ReadCommitted {
            let key = &table.schema.keys[k];
            let unseen = table.slots.iter().any(|slot| {
                slot.latest_seq() > snapshot
                    && slot
                        .latest()
                        .and_then(|r| entry(key, r))
                        .zip(entry(key, row))
                        .is_some_and(|(a, b)| same_key(&a, &b))
            });
            if unseen {
                return serialization_failure("concurrent update");
            }
        }
        unique(&table.schema.name, &table.schema.keys[k], row)
    }

    /// ON CONFLICT on a row the snapshot does not see: REPEATABLE READ and
    /// SERIALIZABLE fail.
    fn unseen_conflict(
        &self,
        id: TxnId,
        snapshot: u64,
        table: &Table,
        index: usize,
    ) -> Result<(), Stop> {
        let slot = &table.slots[index];
        let own = slot.pending.as_ref().is_some_and(|(w, _)| *w == id);
        if !own
            && self.txns[&id].isolation != Isolation::ReadCommitted
            && slot.latest_seq() > snapshot
        {
            return Err(Stop::Fail(serialization_failure("concurrent update")));
        }
        Ok(())
    }

    fn update(
        &mut self,
        id: TxnId,
        snapshot: u64,
        update: &Update,
        ctx: &Context,
    ) -> Result<Reply, Stop> {
        let returning = |p: &Option<Projection>| match p {
            Some(Projection::Items(items)) => items.iter().any(|(_, e)| e.has_subquery()),
            _ => false,
        };
        let exprs = update.set.iter().map(|(_, e)| e).chain(&update.filter);
        if exprs.into_iter().any(Expr::has_subquery) || returning(&update.returning) {
            if !update.from.is_empty() {
                return Err(correlated_join(&update.table));
            }
            let mut bound = update.clone();
            let mut exprs: Vec<&mut Expr> = bound.set.iter_mut().map(|(_, e)| e).collect();
            exprs.extend(bound.filter.as_mut());
            exprs.extend(returning_mut(&mut bound.returning));
            self.bind_rows(id, snapshot, Some(&update.table), exprs)?;
            return self.update(id, snapshot, &bound, ctx);
        }
        if !update.from.is_empty() {
            return self.update_from(id, snapshot, update, ctx.now_ms);
        }
        let name = &update.table;
        let table = self.table(name)?;
        analysis::update(&table.schema, update).map_err(Stop::Fail)?;
        let found = self.matching(table, id, snapshot, update.filter.as_ref(), ctx)?;
        let found = self.recheck(table, id, snapshot, found, update.filter.as_ref(), ctx)?;
        self.claim(id, snapshot, name, &found, (false, true))?;
        let table = self.table(name)?;
        let mut new_rows = Vec::new();
        let mut old_rows = Vec::new();
        for &index in &found {
            let old = self
                .target(&table.slots[index], id, snapshot)
                .expect("visible")
                .clone();
            let new = assign(name, &table.schema, &old, &update.set, None, None, ctx)?;
            old_rows.push(old);
            new_rows.push(new);
        }
        self.check_updates(id, name, &found, &old_rows, &new_rows, snapshot, ctx)?;
        self.note_read(id, snapshot, name, update.filter.as_ref(), ctx)?;
        let rewrite = Rewrite::of(&update.set, update.filter.as_ref());
        self.note_changed_columns(rewrite, &update.set);
        let (rows, fields) = self.returning(name, &update.returning, &new_rows, ctx)?;
        self.write_updates(id, name, &found, new_rows, rewrite);
        Ok(Reply {
            command: "UPDATE",
            row_count: Some(found.len() as u64),
            rows,
            fields,
        })
    }

    /// An UPDATE's new rows against the table's unique keys (each other's
    /// too), then SERIALIZABLE's bookkeeping of its writes.
    #[allow(clippy::too_many_arguments)]
    fn check_updates(
        &mut self,
        id: TxnId,
        name: &str,
        found: &[usize],
        old_rows: &[Row],
        new_rows: &[Row],
        snapshot: u64,
        ctx: &Context,
    ) -> Result<(), Stop> {
        let table = self.table(name)?;
        let all: Vec<usize> = (0..table.schema.keys.len()).collect();
        for (i, new) in new_rows.iter().enumerate() {
            if let Some((_, k)) = self.conflict_of(id, table, new, &all, found)? {
                return Err(Stop::Fail(self.refused(id, snapshot, table, new, k)));
            }
            for other in &new_rows[..i] {
                for key in &table.schema.keys {
                    if let (Some(a), Some(b)) = (entry(key, new), entry(key, other)) {
                        if same_key(&a, &b) {
                            return Err(Stop::Fail(unique(name, key, new)));
                        }
                    }
                }
            }
        }
        self.check_rekeyed(id, name, found, old_rows, new_rows)?;
        let touched: Vec<&Row> = old_rows.iter().chain(new_rows).collect();
        self.note_write(id, name, &touched, ctx)
    }

    /// The columns a change in place sets, for the statement's access.
    fn note_changed_columns(&mut self, rewrite: Rewrite, set: &[(String, Expr)]) {
        if rewrite == Rewrite::InPlace {
            let columns = set.iter().map(|(column, _)| bare(column));
            self.access.changed_columns.extend(columns);
        }
    }

    /// Writes an UPDATE's new rows over `found`, noting them in the
    /// statement's access as `rewrite` says.
    fn write_updates(
        &mut self,
        id: TxnId,
        name: &str,
        found: &[usize],
        new_rows: Vec<Row>,
        rewrite: Rewrite,
    ) {
        let slots = &self.tables[name].slots;
        let rows = found
            .iter()
            .map(|&index| (name.to_string(), index, slots[index].latest_seq()));
        match rewrite {
            Rewrite::Blind => self.access.overwritten.extend(rows),
            Rewrite::InPlace => self.access.changed.extend(rows),
            Rewrite::Checked => self.access.checked.extend(rows),
        }
        for (&index, row) in found.iter().zip(new_rows) {
            self.write(id, name, index, Some(row));
        }
    }

    fn delete(
        &mut self,
        id: TxnId,
        snapshot: u64,
        delete: &Delete,
        ctx: &Context,
    ) -> Result<Reply, Stop> {
        let in_returning = match &delete.returning {
            Some(Projection::Items(items)) => items.iter().any(|(_, e)| e.has_subquery()),
            _ => false,
        };
        if delete.filter.as_ref().is_some_and(Expr::has_subquery) || in_returning {
            if !delete.using.is_empty() {
                return Err(correlated_join(&delete.table));
            }
            let mut bound = delete.clone();
            let mut exprs: Vec<&mut Expr> = bound.filter.iter_mut().collect();
            exprs.extend(returning_mut(&mut bound.returning));
            self.bind_rows(id, snapshot, Some(&delete.table), exprs)?;
            return self.delete(id, snapshot, &bound, ctx);
        }
        if !delete.using.is_empty() {
            return self.delete_using(id, snapshot, delete, ctx.now_ms);
        }
        let name = &delete.table;
        let table = self.table(name)?;
        analysis::delete(&table.schema, delete).map_err(Stop::Fail)?;
        let found = self.matching(table, id, snapshot, delete.filter.as_ref(), ctx)?;
        let found = self.recheck(table, id, snapshot, found, delete.filter.as_ref(), ctx)?;
        let old = self.claim_deleted(id, snapshot, name, &found, ctx)?;
        self.note_read(id, snapshot, name, delete.filter.as_ref(), ctx)?;
        for &index in &found {
            self.write(id, name, index, None);
        }
        let (rows, fields) = self.returning(name, &delete.returning, &old, ctx)?;
        Ok(Reply {
            command: "DELETE",
            row_count: Some(found.len() as u64),
            rows,
            fields,
        })
    }

    /// Takes the rows a DELETE removes (waiting for a holder), and notes
    /// their removal for SERIALIZABLE: their rows as they were.
    fn claim_deleted(
        &mut self,
        id: TxnId,
        snapshot: u64,
        name: &str,
        found: &[usize],
        ctx: &Context,
    ) -> Result<Vec<Row>, Stop> {
        self.claim(id, snapshot, name, found, (false, true))?;
        let table = self.table(name)?;
        let old: Vec<Row> = found
            .iter()
            .map(|&i| {
                self.target(&table.slots[i], id, snapshot)
                    .expect("visible")
                    .clone()
            })
            .collect();
        let old_refs: Vec<&Row> = old.iter().collect();
        self.check_referenced(id, name, &old_refs, found)?;
        self.note_write(id, name, &old_refs, ctx)?;
        Ok(old)
    }

    /// What a `RETURNING` gives back of the rows a statement wrote.
    #[allow(clippy::type_complexity)]
    fn returning(
        &self,
        name: &str,
        returning: &Option<Projection>,
        rows: &[Row],
        ctx: &Context,
    ) -> Result<(Vec<Row>, Vec<(String, u32)>), Stop> {
        match returning {
            Some(projection) => {
                let refs: Vec<&Row> = rows.iter().collect();
                project(Some(&self.tables[name].schema), projection, &refs, ctx)
            }
            None => Ok((Vec::new(), Vec::new())),
        }
    }

    /// Seeds a row at time 0 (the schema's INSERT): committed at once.
    pub fn seed(&mut self, insert: &Insert) -> Result<(), SqlError> {
        match self.run(None, &Plan::Insert(insert.clone()), 0.0).landed {
            Landed::Done(_) => Ok(()),
            Landed::Failed(error) => Err(error),
            Landed::Waits(_) => unreachable!("nothing runs at load"),
        }
    }
}

/// A statement run: reached from [`Database::run`] only, so that what it
/// runs (this file's statements, `eval`, the functions) splits off with it
/// in the page's script worker (`crate::script::split`).
#[cfg_attr(
    feature = "engine-split",
    wasm_split_helpers::wasm_split(statements, preload(load_statements), fallible)
)]
pub(crate) fn statement(
    db: &mut Database,
    session: Option<u64>,
    plan: &Plan,
    now_ms: f64,
) -> Loaded<Ran> {
    Ok(db.execute(session, plan, now_ms))
}

/// How a statement stopped before completing.
enum Stop {
    Wait(TxnId),
    Fail(SqlError),
}

impl From<Stop> for Landed {
    fn from(stop: Stop) -> Landed {
        match stop {
            Stop::Wait(on) => Landed::Waits(on),
            Stop::Fail(error) => Landed::Failed(error),
        }
    }
}

/// The type a reply's type id stands for.
fn type_of_oid(oid: u32) -> Type {
    [
        Type::Int,
        Type::BigInt,
        Type::Numeric(None),
        Type::Float,
        Type::Bool,
        Type::Json,
        Type::Jsonb,
        Type::Timestamp,
        Type::Date,
        Type::Uuid,
        Type::Interval,
    ]
    .into_iter()
    .find(|ty| ty.oid() == oid)
    .unwrap_or(Type::Text)
}

fn describe(plan: &Plan) -> String {
    match plan.table() {
        Some(table) => format!("a statement on \"{table}\""),
        None => "a statement".into(),
    }
}

fn no_table(name: &str) -> SqlError {
    sql_error("42P01", format!("relation \"{name}\" does not exist"))
}

fn not_null(table: &str, column: &str, row: &[Value]) -> SqlError {
    let message = format!(
        "null value in column \"{column}\" of relation \"{table}\" violates not-null constraint"
    );
    failing_row(sql_error("23502", message), table, row)
}

/// `error` with PostgreSQL's "Failing row contains (…)." and the table.
fn failing_row(mut error: SqlError, table: &str, row: &[Value]) -> SqlError {
    let values: Vec<String> = row
        .iter()
        .map(|v| {
            match v {
                Value::Null => "null".into(),
                // A timestamp as PostgreSQL writes it in text.
                Value::String(kept) if super::time::is_kept(kept) => super::time::output(kept),
                v => super::eval::text(v),
            }
        })
        .collect();
    error.detail = Some(format!("Failing row contains ({}).", values.join(", ")));
    error.table = Some(table.to_string());
    error
}

fn unique(table: &str, key: &Key, row: &Row) -> SqlError {
    let values: Vec<Value> = key
        .columns
        .iter()
        .map(|c| row.get(c).cloned().unwrap_or(Value::Null))
        .collect();
    violation(
        sql_error(
            "23505",
            format!(
                "duplicate key value violates unique constraint \"{}\"",
                key.name
            ),
        ),
        format!("{} already exists.", key_text(&key.columns, &values)),
        &key.name,
        table,
    )
}

/// `Key (a, b)=(1, 2)`, as PostgreSQL's details write a key.
fn key_text(columns: &[String], key: &[Value]) -> String {
    // PostgreSQL writes a NULL in a key (`NULLS NOT DISTINCT`) as `null`.
    let text = |value: &Value| match value {
        Value::Null => "null".to_string(),
        value => super::eval::text(value),
    };
    let values: Vec<String> = key.iter().map(text).collect();
    format!("Key ({})=({})", columns.join(", "), values.join(", "))
}

/// A constraint's violation: `error` with its detail, the constraint's
/// name and the table, as PostgreSQL reports them.
fn violation(mut error: SqlError, detail: String, constraint: &str, table: &str) -> SqlError {
    error.detail = Some(detail);
    error.constraint = Some(constraint.to_string());
    error.table = Some(table.to_string());
    error
}

fn same_columns(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().all(|c| b.contains(c))
}

/// The expressions of a `RETURNING` list (none for `*` or none).
fn returning_mut(returning: &mut Option<Projection>) -> Vec<&mut Expr> {
    match returning {
        Some(Projection::Items(items)) => items.iter_mut().map(|(_, e)| e).collect(),
        _ => Vec::new(),
    }
}

/// A correlated subquery in a statement that joins `table` to others,
/// which the model does not run.
fn correlated_join(table: &str) -> Stop {
    Stop::Fail(sql_error(
        "0A000",
        format!(
            "a correlated subquery in a statement that joins \"{table}\" to other tables is not \
             supported by the simulation"
        ),
    ))
}

/// [`Database::name_outer_columns`] in `e`, read by the query at the end
/// of `chain` (each query's columns around it, outermost first; `None`:
/// not known). A subquery's bare column that its own query lacks and an
/// outer one has becomes that one's.
fn outer_names(
    e: &mut Expr,
    chain: &mut Vec<Option<Vec<String>>>,
    columns: &dyn Fn(&Select) -> Option<Vec<String>>,
) {
    if chain.len() > 1 {
        if let Expr::Column(name) = e {
            let mut out = 0;
            for level in chain.iter().rev() {
                match level {
                    Some(columns) if columns.contains(name) => break,
                    Some(_) => out += 1,
                    None => {
                        out = 0;
                        break;
                    }
                }
            }
            if out > 0 && out < chain.len() && !name.contains('.') {
                *e = Expr::Outer(out as u32, name.clone());
            }
            return;
        }
    }
    e.each_child_mut(&mut |child| outer_names(child, chain, columns));
    if let Expr::Exists(select, _) | Expr::InSelect(_, select, _) | Expr::Scalar(select) = e {
        chain.push(columns(select));
        for inner in select.own_exprs_mut() {
            outer_names(inner, chain, columns);
        }
        chain.pop();
    }
}

/// Every column `e` reads exists (`analysis::expression`).
fn check_columns(schema: &TableSchema, e: Option<&Expr>) -> Result<(), Stop> {
    analysis::expression(schema, e).map_err(Stop::Fail)
}

fn predicate_read(
    table: &str,
    select: &Select,
    as_of: u64,
    fields: &[(String, u32)],
) -> PredicateRead {
    PredicateRead {
        table: table.to_string(),
        filter: select.filter.clone(),
        as_of,
        columns: fields.iter().map(|(name, _)| name.clone()).collect(),
    }
}

fn pass(filter: Option<&Expr>, row: &Row, ctx: &Context) -> Result<bool, SqlError> {
    pass_with(filter, row, None, ctx)
}

fn pass_with(
    filter: Option<&Expr>,
    row: &Row,
    excluded: Option<&Row>,
    ctx: &Context,
) -> Result<bool, SqlError> {
    match filter {
        None => Ok(true),
        Some(filter) => matches(filter, row, excluded, ctx),
    }
}

/// A row with `set` applied (its expressions read the old row).
fn assign(
    table: &str,
    schema: &TableSchema,
    old: &Row,
    set: &[(String, Expr)],
    excluded: Option<&Row>,
    read: Option<&Row>,
    ctx: &Context,
) -> Result<Row, Stop> {
    let mut new = old.clone();
    for (name, expression) in set {
        let column = column_of(schema, name).map_err(Stop::Fail)?;
        let input = read.unwrap_or(old);
        let value = eval(expression, Some(input), excluded, ctx).map_err(Stop::Fail)?;
        let numeric = is_numeric(expression, ctx);
        let value = coerce(table, column, value, numeric).map_err(Stop::Fail)?;
        new.insert(name.clone(), value);
    }
    if let Some(column) = schema
        .columns
        .iter()
        .find(|c| c.not_null && new[&c.name].is_null())
    {
        let values: Vec<Value> = new.values().cloned().collect();
        return Err(Stop::Fail(not_null(table, &column.name, &values)));
    }
    checked(table, schema, &new, ctx)?;
    Ok(new)
}

/// PostgreSQL's 23514 for the first CHECK constraint `row` fails (its
/// expression false; NULL passes). One the model cannot evaluate passes.
fn checked(table: &str, schema: &TableSchema, row: &Row, ctx: &Context) -> Result<(), Stop> {
    let fails = |check: &&crate::sql::Check| {
        eval(&check.expr, Some(row), None, ctx).is_ok_and(|value| value == Value::Bool(false))
    };
    let Some(check) = schema.checks.iter().find(fails) else {
        return Ok(());
    };
    let values: Vec<Value> = row.values().cloned().collect();
    let message = format!(
        "new row for relation \"{table}\" violates check constraint \"{}\"",
        check.name
    );
    let mut error = failing_row(sql_error("23514", message), table, &values);
    error.constraint = Some(check.name.clone());
    Err(Stop::Fail(error))
}

/// A value as a column of this type stores it, or PostgreSQL's error
/// (`numeric`: the value is a `numeric`'s text, which an integer rounds).
pub fn coerce(
    _table: &str,
    column: &Column,
    value: Value,
    numeric: bool,
) -> Result<Value, SqlError> {
    let value = super::eval::cast_as(value, column.ty, numeric)?;
    match (column.max_chars, value) {
        (Some(most), Value::String(text)) => fit_chars(text, most).map(Value::String),
        (_, value) => Ok(value),
    }
}

/// A text for a `varchar(most)`: as it is if it fits; cut to `most`
/// characters if what is past them is spaces; else PostgreSQL's 22001.
fn fit_chars(text: String, most: u32) -> Result<String, SqlError> {
    let most = most as usize;
    match text.char_indices().nth(most) {
        None => Ok(text),
        Some((end, _)) if text[end..].chars().all(|c| c == ' ') => Ok(text[..end].to_string()),
        Some(_) => Err(sql_error(
            "22001",
            format!("value too long for type character varying({most})"),
        )),
    }
}

/// The rows a SELECT's OFFSET skips and the most its LIMIT keeps.
#[derive(Clone, Copy)]
struct Window {
    offset: usize,
    limit: Option<usize>,
}

impl Window {
    /// PostgreSQL reads each as a bigint (a parameter's text, a numeric
    /// rounded); NULL is no limit, or no offset.
    fn of(select: &Select, ctx: &Context) -> Result<Window, Stop> {
        let count = |e: &Option<Expr>, code, what: &str| -> Result<Option<usize>, Stop> {
            let Some(e) = e else {
                return Ok(None);
            };
            let count = Expr::Cast(Box::new(e.clone()), Type::BigInt);
            let value = eval(&count, None, None, ctx).map_err(Stop::Fail)?;
            let n = match &value {
                Value::String(text) => text.parse::<f64>().ok(),
                other => other.as_f64(),
            };
            match n {
                Some(n) if n < 0.0 => Err(Stop::Fail(sql_error(
                    code,
                    format!("{what} must not be negative"),
                ))),
                n => Ok(n.map(|n| n as usize)),
            }
        };
        Ok(Window {
            limit: count(&select.limit, "2201W", "LIMIT")?,
            offset: count(&select.offset, "2201X", "OFFSET")?.unwrap_or(0),
        })
    }

    /// How many rows from the first it reaches: the skipped ones and the
    /// kept ones.
    fn end(self) -> Option<usize> {
        self.limit.map(|limit| self.offset.saturating_add(limit))
    }

    /// The rows it keeps.
    fn apply<T>(self, rows: Vec<T>) -> Vec<T> {
        let kept = rows.into_iter().skip(self.offset);
        match self.limit {
            Some(limit) => kept.take(limit).collect(),
            None => kept.collect(),
        }
    }
}

/// `SELECT DISTINCT`'s rows: each the first of its equals (NULL equals
/// NULL here), then the window of them.
fn distinct(rows: Vec<Row>, window: Window) -> Vec<Row> {
    let mut kept: Vec<Row> = Vec::new();
    for row in rows {
        if window.end().is_some_and(|end| kept.len() >= end) {
            break;
        }
        if !kept.contains(&row) {
            kept.push(row);
        }
    }
    window.apply(kept)
}

/// The output column named `name` (an alias comes before a table's
/// column of the same name), if any.
fn output_column<'a>(projection: &'a Projection, name: &str) -> Option<&'a Expr> {
    match projection {
        Projection::Items(items) => items.iter().find(|(n, _)| n == name).map(|(_, e)| e),
        Projection::All => None,
    }
}

/// The order of `rows` by the SELECT's ORDER BY (an output column's
/// value, else the row's column), as indexes into `rows`.
fn sorted(select: &Select, rows: &[&Row], ctx: &Context) -> Result<Vec<usize>, Stop> {
    let numeric: Vec<bool> = select
        .order
        .iter()
        .map(
            |(column, ..)| match output_column(&select.projection, column) {
                Some(expr) => is_numeric(expr, ctx),
                None => ctx.numeric(column),
            },
        )
        .collect();
    let mut keys = Vec::with_capacity(rows.len());
    for row in rows {
        let mut key = Vec::with_capacity(select.order.len());
        for (column, ..) in &select.order {
            key.push(match output_column(&select.projection, column) {
                Some(expr) => eval(expr, Some(row), None, ctx).map_err(Stop::Fail)?,
                None => row.get(column).cloned().unwrap_or(Value::Null),
            });
        }
        keys.push(key);
    }
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let terms = select.order_terms();
    order.sort_by(|&a, &b| compare_keys(&keys[a], &keys[b], &terms, &numeric));
    Ok(order)
}

/// One item of a FROM (`FROM a JOIN b USING (id), c`: `a JOIN b` and
/// `c`): its tables by name, its output columns in the order `*` gives
/// them (each by its name, with the qualified column it reads), and the
/// columns its `USING` joins merged (each read from its left side, as
/// PostgreSQL's inner and left joins give it).
#[derive(Default)]
struct FromItem {
    tables: Vec<String>,
    columns: Vec<(String, String)>,
    merged: Vec<(String, String)>,
}

impl FromItem {
    /// The qualified columns an unqualified `column` may name here.
    fn candidates(&self, column: &str, ctx: &Context) -> Vec<String> {
        if let Some((_, qualified)) = self.merged.iter().find(|(name, _)| name == column) {
            return vec![qualified.clone()];
        }
        self.tables
            .iter()
            .map(|table| format!("{table}.{column}"))
            .filter(|qualified| ctx.column_type(qualified).is_some())
            .collect()
    }
}

/// The rows an `UPDATE … FROM` or `DELETE … USING` writes
/// ([`Database::targets`]).
struct Targets {
    sources: Vec<(String, String)>,
    ctx: Context,
    /// The join as a SELECT, its columns as written.
    query: Select,
    /// The expressions asked for, their columns resolved.
    exprs: Vec<Expr>,
    /// The slots of the table written, in order, and the combination each
    /// goes with.
    found: Vec<usize>,
    inputs: Vec<Row>,
}

impl Targets {
    /// What RETURNING gives of each row with its combination (`*`: every
    /// table's columns).
    #[allow(clippy::type_complexity)]
    fn returning(
        &self,
        returning: &Option<Projection>,
    ) -> Result<(Vec<Row>, Vec<(String, u32)>), Stop> {
        let Some(projection) = returning else {
            return Ok((Vec::new(), Vec::new()));
        };
        let query = Select {
            projection: projection.clone(),
            ..self.query.clone()
        };
        let select = resolve_columns(&query, &self.sources, &self.ctx)?;
        let rows: Vec<&Row> = self.inputs.iter().collect();
        project(None, &select.projection, &rows, &self.ctx)
    }
}

/// A joined SELECT's rows, before grouping, order and projection
/// ([`Database::joined`]).
/// A join's row (`name.column` keys), and the slot it came from in each
/// table (by the table's place in the FROM).
type Combination = (Row, Vec<(usize, usize)>);

struct Joined {
    /// Each table, and the name it goes by.
    sources: Vec<(String, String)>,
    /// The types of every table's columns, as `name.column`.
    ctx: Context,
    /// The SELECT with its columns resolved (`resolve_columns`).
    select: Select,
    /// Each combination kept: its row (`name.column` keys), and the slot
    /// it came from in each table (by the table's place in `sources`).
    kept: Vec<Combination>,
}

/// Adds a joined table's row to a combination, as `name.column`.
fn put_columns(joined: &mut Row, name: &str, values: &Row) {
    for (column, value) in values {
        joined.insert(format!("{name}.{column}"), value.clone());
    }
}

/// Adds a joined table's columns to a combination as NULL: the side of
/// an outer join that matched nothing.
fn put_nulls(joined: &mut Row, name: &str, table: &Table) {
    for column in &table.schema.columns {
        joined.insert(format!("{name}.{}", column.name), Value::Null);
    }
}

/// The items of a joined SELECT's FROM, with each `USING` join's `ON`
/// written: its columns equal on both sides. PostgreSQL's errors: 42703
/// for a USING column missing on a side, 42702 for one on several tables
/// of the left side.
fn from_items(
    select: &mut Select,
    sources: &[(String, String)],
    ctx: &Context,
) -> Result<Vec<FromItem>, Stop> {
    let columns_of = |name: &str| -> Vec<(String, String)> {
        let prefix = format!("{name}.");
        ctx.types
            .iter()
            .filter_map(|(qualified, _)| {
                let column = qualified.strip_prefix(&prefix)?;
                Some((column.to_string(), qualified.clone()))
            })
            .collect()
    };
    let mut items = Vec::new();
    let mut item = FromItem::default();
    for (n, (_, name)) in sources.iter().enumerate() {
        let join = n.checked_sub(1).map(|j| &mut select.joins[j]);
        let using = match join {
            Some(join) if join.new_item => {
                items.push(std::mem::take(&mut item));
                Vec::new()
            }
            Some(join) => {
                let mut on: Option<Expr> = None;
                for column in &join.using {
                    let left = match item.candidates(column, ctx).as_slice() {
                        [one] => one.clone(),
                        [] => return Err(using_error("42703", column, "does not exist in left table")),
                        _ => {
                            return Err(Stop::Fail(sql_error(
                                "42702",
                                format!("common column name \"{column}\" appears more than once in left table"),
                            )))
                        }
                    };
                    let right = format!("{name}.{column}");
                    if ctx.column_type(&right).is_none() {
                        return Err(using_error(
                            "42703",
                            column,
                            "does not exist in right table",
                        ));
                    }
                    let equal = Expr::Binary(
                        Box::new(Expr::Column(left.clone())),
                        crate::sql::Op::Eq,
                        Box::new(Expr::Column(right)),
                    );
                    on = Some(match on {
                        Some(on) => {
                            Expr::Binary(Box::new(on), crate::sql::Op::And, Box::new(equal))
                        }
                        None => equal,
                    });
                    item.merged.retain(|(merged, _)| merged != column);
                    item.merged.push((column.clone(), left));
                }
                if on.is_some() {
                    join.on = on;
                }
                join.using.clone()
            }
            None => Vec::new(),
        };
        // `USING` columns first, then the left side's others, then the
        // right side's others.
        let mut columns: Vec<(String, String)> = using
            .iter()
            .map(|column| {
                let (_, left) = item
                    .merged
                    .iter()
                    .find(|(m, _)| m == column)
                    .expect("merged");
                (column.clone(), left.clone())
            })
            .collect();
        let rest = std::mem::take(&mut item.columns)
            .into_iter()
            .chain(columns_of(name));
        columns.extend(rest.filter(|(column, _)| !using.contains(column)));
        item.columns = columns;
        item.tables.push(name.clone());
    }
    items.push(item);
    Ok(items)
}

fn using_error(code: &'static str, column: &str, what: &str) -> Stop {
    Stop::Fail(sql_error(
        code,
        format!("column \"{column}\" specified in USING clause {what}"),
    ))
}

/// A joined SELECT with each column named as its table's (`name.column`),
/// its `*` as every table's columns, in FROM order (a `USING` column
/// once, first).
fn resolve_columns(
    select: &Select,
    sources: &[(String, String)],
    ctx: &Context,
) -> Result<Select, Stop> {
    let mut select = select.clone();
    let items = from_items(&mut select, sources, ctx)?;
    let resolve = |column: &str| -> Result<String, Stop> {
        if column.contains('.') {
            return match ctx.column_type(column) {
                Some(_) => Ok(column.to_string()),
                None => Err(Stop::Fail(analysis::missing(column))),
            };
        }
        let mut names = items.iter().flat_map(|item| item.candidates(column, ctx));
        match (names.next(), names.next()) {
            (Some(qualified), None) => Ok(qualified),
            (None, _) => Err(Stop::Fail(analysis::missing(column))),
            _ => Err(Stop::Fail(sql_error(
                "42702",
                format!("column reference \"{column}\" is ambiguous"),
            ))),
        }
    };
    fn rewrite(e: &mut Expr, resolve: &dyn Fn(&str) -> Result<String, Stop>) -> Result<(), Stop> {
        if let Expr::Column(column) = e {
            *column = resolve(column)?;
        }
        let mut failed = Ok(());
        e.each_child_mut(&mut |child| {
            if failed.is_ok() {
                failed = rewrite(child, resolve);
            }
        });
        failed
    }
    if select.projection == Projection::All {
        select.projection = Projection::Items(
            items
                .iter()
                .flat_map(|item| &item.columns)
                .map(|(column, qualified)| (column.clone(), Expr::Column(qualified.clone())))
                .collect(),
        );
    }
    if let Projection::Items(items) = &mut select.projection {
        // `e.*`: the table's columns, in place.
        let mut expanded = Vec::with_capacity(items.len());
        for (name, e) in std::mem::take(items) {
            match name.strip_suffix(".*") {
                Some(table) if e == Expr::Column(name.clone()) => {
                    let prefix = format!("{table}.");
                    expanded.extend(ctx.types.iter().filter_map(|(qualified, _)| {
                        let column = qualified.strip_prefix(&prefix)?;
                        Some((column.to_string(), Expr::Column(qualified.clone())))
                    }));
                }
                _ => expanded.push((name, e)),
            }
        }
        *items = expanded;
        for (_, e) in items {
            rewrite(e, &resolve)?;
        }
    }
    for e in select.clauses_mut().into_iter().flatten() {
        rewrite(e, &resolve)?;
    }
    for e in &mut select.group_exprs {
        rewrite(e, &resolve)?;
    }
    for join in &mut select.joins {
        if let Some(on) = &mut join.on {
            rewrite(on, &resolve)?;
        }
    }
    let output = |name: &str| output_column(&select.projection, name).cloned();
    let mut group_by = Vec::with_capacity(select.group_by.len());
    let mut group_exprs = Vec::new();
    for column in &select.group_by {
        let (resolved, missing) = match resolve(column) {
            Ok(column) => (Some(column), None),
            Err(error) => (None, Some(error)),
        };
        // An output column's expression was rewritten above.
        match (
            aggregate::group_term(resolved, output(column).as_ref()),
            missing,
        ) {
            (Some(GroupTerm::Column(column)), _) => group_by.push(column),
            (Some(GroupTerm::Expr(e)), _) => group_exprs.push(e),
            (None, Some(error)) => return Err(error),
            (None, None) => unreachable!("a resolved column is a term"),
        }
    }
    select.group_by = group_by;
    select.group_exprs.extend(group_exprs);
    let mut order = Vec::with_capacity(select.order.len());
    for (column, descending, nulls_first) in &select.order {
        let column = match output(column) {
            Some(_) => column.clone(),
            None => resolve(column)?,
        };
        order.push((column, *descending, *nulls_first));
    }
    select.order = order;
    Ok(select)
}

/// Rows as a SELECT (without aggregates) or RETURNING gives them, with
/// their fields.
#[allow(clippy::type_complexity)]
fn project(
    schema: Option<&TableSchema>,
    projection: &Projection,
    rows: &[&Row],
    ctx: &Context,
) -> Result<(Vec<Row>, Vec<(String, u32)>), Stop> {
    match projection {
        Projection::All => {
            let Some(schema) = schema else {
                return Err(Stop::Fail(sql_error(
                    "42601",
                    "SELECT * with no tables specified is not valid".into(),
                )));
            };
            let fields = schema
                .columns
                .iter()
                .map(|c| (c.name.clone(), c.ty.oid()))
                .collect();
            Ok((rows.iter().map(|r| (*r).clone()).collect(), fields))
        }
        Projection::Items(items) => {
            if let Some(schema) = schema {
                for (_, e) in items {
                    check_columns(schema, Some(e))?;
                }
            }
            let fields: Vec<(String, u32)> = items
                .iter()
                .map(|(name, e)| (name.clone(), type_of(e, ctx).oid()))
                .collect();
            let mut out = Vec::new();
            for row in rows {
                let mut projected = Row::new();
                for (name, e) in items {
                    projected.insert(
                        name.clone(),
                        eval(e, Some(row), None, ctx).map_err(Stop::Fail)?,
                    );
                }
                out.push(projected);
            }
            Ok((out, fields))
        }
    }
}
