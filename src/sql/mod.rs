//! SQL as data: the plan of one statement that the simulated PostgreSQL
//! of the `pg` module runs (`script::sql`), the table definitions of a
//! schema, and PostgreSQL's errors (docs/sql.md). Parsing the text into
//! them is [`parse`] (`sqlparser`), behind one seam:
//!
//! - natively (feature `sql`, part of `script`), `parse` is linked;
//! - the page's script worker leaves `sqlparser` out. The parser is a
//!   wasm module of its own (`interleave-sql`, built by
//!   `scripts/build-workers.sh`) that the page loads only for a
//!   script that uses the `pg` module or a schema, and calls through
//!   `web/modules.js`'s `interleaveModules.sqlParse` and `sqlSchema`; they
//!   answer `crate::boundary::encode`'s bytes.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub mod lock;
pub mod parameters;
#[cfg(feature = "sql")]
pub mod parse;
pub mod table;

pub use lock::{LockTable, TableLock};
pub use table::{Check, Column, Default, ForeignKey, Key, TableSchema};

/// A column type, as far as the model tells types apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Type {
    Int,
    BigInt,
    /// `numeric`, with `numeric(precision, scale)`'s if given: a value is
    /// rounded to that scale (a bare `numeric` keeps each value's own).
    Numeric(Option<(u16, i16)>),
    Float,
    Text,
    Bool,
    /// `json`: the value as given, keys in their order.
    Json,
    /// `jsonb`: keys in PostgreSQL's order (shorter first), one per name.
    Jsonb,
    Timestamp,
    /// `date`: a day, without a time or a zone.
    Date,
    Uuid,
    /// `interval`: months, days and time (`script::sql::interval`).
    Interval,
    /// `void`: what `pg_advisory_lock()` gives back (pg's `''`).
    Void,
    /// A one-dimensional array (`text[]`, `int[]`, …): a JSON array of
    /// its elements, each as that type holds it (`script::sql::array`).
    Array(Element),
}

/// The types an array's elements may have in the model (an array of any
/// other type is kept as text, as any type the model does not know).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Element {
    Int,
    BigInt,
    Numeric,
    Float,
    Text,
    Bool,
    Uuid,
}

impl Element {
    pub const ALL: [Element; 7] = [
        Element::Int,
        Element::BigInt,
        Element::Numeric,
        Element::Float,
        Element::Text,
        Element::Bool,
        Element::Uuid,
    ];

    /// The element type of an array of `ty`, if the model keeps one.
    pub fn of(ty: Type) -> Option<Element> {
        Some(match ty {
            Type::Int => Element::Int,
            Type::BigInt => Element::BigInt,
            Type::Numeric(_) => Element::Numeric,
            Type::Float => Element::Float,
            Type::Text => Element::Text,
            Type::Bool => Element::Bool,
            Type::Uuid => Element::Uuid,
            _ => return None,
        })
    }

    pub fn ty(self) -> Type {
        match self {
            Element::Int => Type::Int,
            Element::BigInt => Type::BigInt,
            Element::Numeric => Type::Numeric(None),
            Element::Float => Type::Float,
            Element::Text => Type::Text,
            Element::Bool => Type::Bool,
            Element::Uuid => Type::Uuid,
        }
    }
}

impl Type {
    /// PostgreSQL's type id (pg's `dataTypeID`), which picks pg's parser:
    /// `bigint` and `numeric` come back as strings, timestamps as `Date`s.
    pub fn oid(self) -> u32 {
        match self {
            Type::Int => 23,
            Type::BigInt => 20,
            Type::Numeric(_) => 1700,
            Type::Float => 701,
            Type::Text => 25,
            Type::Bool => 16,
            Type::Json => 114,
            Type::Jsonb => 3802,
            Type::Timestamp => 1184,
            Type::Date => 1082,
            Type::Uuid => 2950,
            Type::Interval => 1186,
            Type::Void => 2278,
            Type::Array(element) => match element {
                Element::Int => 1007,
                Element::BigInt => 1016,
                Element::Numeric => 1231,
                Element::Float => 1022,
                Element::Text => 1009,
                Element::Bool => 1000,
                Element::Uuid => 2951,
            },
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "integer",
            Type::BigInt => "bigint",
            Type::Numeric(_) => "numeric",
            Type::Float => "double precision",
            Type::Text => "text",
            Type::Bool => "boolean",
            Type::Json => "json",
            Type::Jsonb => "jsonb",
            Type::Timestamp => "timestamp with time zone",
            Type::Date => "date",
            Type::Uuid => "uuid",
            Type::Interval => "interval",
            Type::Void => "void",
            Type::Array(element) => match element {
                Element::Int => "integer[]",
                Element::BigInt => "bigint[]",
                Element::Numeric => "numeric[]",
                Element::Float => "double precision[]",
                Element::Text => "text[]",
                Element::Bool => "boolean[]",
                Element::Uuid => "uuid[]",
            },
        }
    }
}

/// An isolation level the model runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Isolation {
    ReadCommitted,
    RepeatableRead,
    Serializable,
}

/// One statement, as the store runs it.
// A plan is one statement's, made per query and never kept in bulk: a
// SELECT's is the largest, and boxing it would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Plan {
    Select(Select),
    Insert(Insert),
    Update(Update),
    Delete(Delete),
    /// `LOCK TABLE`, inside a transaction block.
    Lock(LockTable),
    Begin(Option<Isolation>),
    SetIsolation(Isolation),
    Commit,
    Rollback,
    /// `SAVEPOINT name`, `RELEASE [SAVEPOINT] name` and `ROLLBACK TO
    /// [SAVEPOINT] name`, inside a transaction block.
    Savepoint(String),
    Release(String),
    RollbackTo(String),
    /// `SET [SESSION | LOCAL] name {= | TO} value` (`value` `None`: back to
    /// the default: the session's, or the `LOCAL` one named) and `SET TIME
    /// ZONE …` (`timezone`); the name in lower case, the value checked and
    /// as `SHOW` prints it (`crate::sql::parameters`).
    Set {
        name: String,
        value: Option<String>,
        local: bool,
        /// A time's milliseconds (0 otherwise).
        ms: u64,
    },
    /// `RESET name` (`None`: `RESET ALL`).
    Reset(Option<String>),
    /// `SHOW name`: the name in lower case, and its column's (PostgreSQL's
    /// own spelling: `TimeZone`).
    Show {
        name: String,
        column: String,
        /// What it shows when nothing set it (`None`: a custom name, which
        /// PostgreSQL does not know until it is set).
        default: Option<String>,
    },
}

impl Plan {
    /// The table it names first, if any (for a SELECT from a `WITH`
    /// query, [`Cte::table`]).
    pub fn table(&self) -> Option<&str> {
        match self {
            Plan::Select(select) => select.table.as_deref(),
            Plan::Insert(insert) => Some(&insert.table),
            Plan::Update(update) => Some(&update.table),
            Plan::Delete(delete) => Some(&delete.table),
            _ => None,
        }
    }

    /// The table a trace names it by: [`Plan::table`], but for a SELECT
    /// from a `WITH` query the table that query reads.
    pub fn reached(&self) -> Option<&str> {
        let mut table = self.table();
        for cte in self.with().iter().rev() {
            if table == Some(Cte::table(&cte.name).as_str()) {
                table = match &cte.write {
                    Some(write) => write.table(),
                    None => cte.select.table.as_deref(),
                };
            }
        }
        table
    }

    /// The snapshot a SELECT, UPDATE or DELETE of one table read with
    /// before it waited ([`Select::waited`]).
    pub fn waited(&self) -> Option<u64> {
        match self {
            Plan::Select(select) => select.waited,
            Plan::Update(update) => update.waited,
            Plan::Delete(delete) => delete.waited,
            _ => None,
        }
    }

    /// Whether, run again after a wait, it may keep the snapshot it read
    /// with: it reads only, or it locks or writes rows of one table, which
    /// it rechecks where they changed since (`Database::recheck`). A join
    /// that locks or writes runs again on a new snapshot.
    pub fn can_keep_snapshot(&self) -> bool {
        match self {
            Plan::Select(select) => !select.locks() || select.joins.is_empty(),
            Plan::Update(update) => update.from.is_empty(),
            Plan::Delete(delete) => delete.using.is_empty(),
            _ => true,
        }
    }

    /// Keeps the snapshot it read with for its run after a wait
    /// ([`Plan::waited`]), if it can.
    pub fn keep_snapshot(&mut self, snapshot: u64) {
        if !self.can_keep_snapshot() {
            return;
        }
        match self {
            Plan::Select(select) => select.waited = Some(snapshot),
            Plan::Update(update) => update.waited = Some(snapshot),
            Plan::Delete(delete) => delete.waited = Some(snapshot),
            _ => {}
        }
    }

    /// The table an INSERT, UPDATE or DELETE writes.
    pub fn written_table(&self) -> Option<&str> {
        match self {
            Plan::Select(_) => None,
            plan => plan.table(),
        }
    }

    /// An INSERT's, UPDATE's or DELETE's RETURNING list.
    pub fn returning(&self) -> Option<&Projection> {
        match self {
            Plan::Insert(insert) => insert.returning.as_ref(),
            Plan::Update(update) => update.returning.as_ref(),
            Plan::Delete(delete) => delete.returning.as_ref(),
            _ => None,
        }
    }

    /// [`Select::sleep`]'s argument, for a SELECT.
    pub fn sleep(&self) -> Option<&Expr> {
        match self {
            Plan::Select(select) => select.sleep(),
            _ => None,
        }
    }

    /// Its `WITH` queries, in order.
    pub fn with(&self) -> &[Cte] {
        match self {
            Plan::Select(select) => &select.with,
            Plan::Insert(insert) => &insert.with,
            Plan::Update(update) => &update.with,
            Plan::Delete(delete) => &delete.with,
            _ => &[],
        }
    }

    pub fn with_mut(&mut self) -> Option<&mut Vec<Cte>> {
        match self {
            Plan::Select(select) => Some(&mut select.with),
            Plan::Insert(insert) => Some(&mut insert.with),
            Plan::Update(update) => Some(&mut update.with),
            Plan::Delete(delete) => Some(&mut delete.with),
            _ => None,
        }
    }

    /// Whether it has a query inside it: a `WITH` query, a subquery, or
    /// `INSERT … SELECT`'s rows (the store runs those first).
    pub fn has_subquery(&self) -> bool {
        !self.with().is_empty()
            || matches!(self, Plan::Insert(insert) if insert.select.is_some())
            || self.own_exprs().into_iter().any(Expr::has_subquery)
    }

    /// The expressions it reads itself: not its `WITH` queries', nor
    /// those of `INSERT … SELECT`'s query (a SELECT's:
    /// [`Select::own_exprs`]).
    pub fn own_exprs(&self) -> Vec<&Expr> {
        fn items(p: &Option<Projection>) -> Vec<&Expr> {
            match p {
                Some(Projection::Items(items)) => items.iter().map(|(_, e)| e).collect(),
                _ => Vec::new(),
            }
        }
        match self {
            Plan::Select(select) => select.own_exprs(),
            Plan::Insert(insert) => {
                let mut exprs: Vec<&Expr> = insert.rows.iter().flatten().collect();
                if let Some(OnConflict::Update { set, filter, .. }) = &insert.on_conflict {
                    exprs.extend(set.iter().map(|(_, e)| e).chain(filter));
                }
                exprs.extend(items(&insert.returning));
                exprs
            }
            Plan::Update(update) => update
                .set
                .iter()
                .map(|(_, e)| e)
                .chain(&update.filter)
                .chain(update.from.iter().filter_map(|j| j.on.as_ref()))
                .chain(items(&update.returning))
                .collect(),
            Plan::Delete(delete) => delete
                .using
                .iter()
                .filter_map(|j| j.on.as_ref())
                .chain(&delete.filter)
                .chain(items(&delete.returning))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// What a SELECT (or RETURNING) gives back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Projection {
    /// `*`
    All,
    /// Named expressions (an aggregate among them makes the SELECT one).
    Items(Vec<(String, Expr)>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Select {
    /// `None`: `SELECT 1` with no FROM.
    pub table: Option<String>,
    pub projection: Projection,
    pub filter: Option<Expr>,
    /// `GROUP BY` columns (or output columns, by their names).
    #[serde(default)]
    pub group_by: Vec<String>,
    /// `GROUP BY` terms that are expressions (`to_char(at, 'YYYY-MM')`,
    /// or `GROUP BY 1` of one): a group's rows have equal values of each.
    #[serde(default)]
    pub group_exprs: Vec<Expr>,
    #[serde(default)]
    pub having: Option<Expr>,
    /// Output or table columns: descending? nulls first? (`NULLS FIRST`
    /// or `LAST`, else PostgreSQL's default: first when descending.)
    pub order: Vec<(String, bool, bool)>,
    pub limit: Option<Expr>,
    /// `OFFSET`: rows skipped before the LIMIT's (a `FOR UPDATE` locks
    /// them too, as PostgreSQL's does).
    #[serde(default)]
    pub offset: Option<Expr>,
    /// `FOR UPDATE`: its rows locked against every other lock and write
    /// (`FOR NO KEY UPDATE` too, read as it: the same here, where no
    /// foreign key takes `FOR KEY SHARE`).
    pub for_update: bool,
    /// `FOR SHARE`: its rows locked against writes and `FOR UPDATE`, not
    /// against each other.
    #[serde(default)]
    pub for_share: bool,
    /// `NOWAIT` (fail at once) or `SKIP LOCKED` (leave them).
    pub nowait: bool,
    pub skip_locked: bool,
    /// In a SELECT that joins tables, the ones whose rows its `FOR UPDATE`
    /// or `FOR SHARE` locks, by their place in its FROM (0 the first, n
    /// its n-th join): those `OF` names, else all. Empty without a join.
    #[serde(default)]
    pub locked: Vec<usize>,
    /// The tables joined to `table` (`JOIN … ON`, `LEFT JOIN`, `CROSS
    /// JOIN`, `FROM a, b`), in order. With any, the columns of its
    /// expressions, `GROUP BY` and `ORDER BY` are written as the query
    /// wrote them: `o.user_id` keeps its qualifier, and the store resolves
    /// an unqualified name to the one table that has it.
    #[serde(default)]
    pub joins: Vec<Join>,
    /// `table`'s alias (`FROM events e`), which its qualified columns use.
    #[serde(default)]
    pub alias: Option<String>,
    /// `SELECT DISTINCT`: equal output rows once (NULLs equal), before
    /// the LIMIT.
    #[serde(default)]
    pub distinct: bool,
    /// `SELECT DISTINCT ON (a, b)`: the first row, in ORDER BY's order
    /// (else these columns'), of each set of their values, before the
    /// LIMIT.
    #[serde(default)]
    pub distinct_on: Vec<String>,
    /// Its `WITH` queries (a statement's own; a subquery has none).
    #[serde(default)]
    pub with: Vec<Cte>,
    /// The columns the statement names by its one table's name or alias
    /// (`s.nope`), which it reads by their bare names: each bare name and
    /// the name as written, so that a missing one is reported as
    /// PostgreSQL words it (`column s.nope does not exist`).
    #[serde(default)]
    pub written: Vec<(String, String)>,
    /// The snapshot it read with before it waited for a row: run again,
    /// it keeps it, as PostgreSQL's statement keeps its snapshot while it
    /// waits (the rows it finds changed since, it reads as they are then:
    /// `Database::recheck`). Run state.
    #[serde(skip)]
    pub waited: Option<u64>,
}

/// A `WITH` query. The store runs it first, on the statement's snapshot,
/// and the statement reads its rows as a table's: PostgreSQL's
/// materialized CTE, which for a SELECT read once gives the same rows as
/// the inlined one. A FROM names it by [`Cte::table`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cte {
    pub name: String,
    /// `WITH n(a, b) AS …`: its first columns renamed, in order.
    pub columns: Vec<String>,
    pub select: Select,
    /// A data-modifying `WITH` query: this INSERT, UPDATE or DELETE runs
    /// (and `select` is empty), its RETURNING rows the query's rows. The
    /// rest of the statement reads the tables as they were before it
    /// (PostgreSQL runs every part on one snapshot).
    #[serde(default)]
    pub write: Option<Box<Plan>>,
    /// `select UNION [ALL] …`: the WITH queries (run before this one)
    /// whose rows follow its own, in order, each with ALL or not. A
    /// UNION without ALL keeps each row once (NULLs equal) of all the
    /// rows before it, as PostgreSQL reads `A UNION ALL B UNION C` as
    /// `(A UNION ALL B) UNION C`.
    #[serde(default)]
    pub union: Vec<(String, bool)>,
    /// Its columns and rows once run: a statement that waits and runs
    /// again keeps them, as PostgreSQL keeps a CTE's rows while it
    /// rechecks a row it waited for. Run state, as `Expr::PerRow`: it
    /// does not cross from the parser.
    #[serde(skip)]
    pub rows: Option<Materialized>,
    /// The snapshot its statement read with before a data-modifying
    /// `WITH` query waited: the statement that runs again keeps it, as
    /// PostgreSQL's statement keeps its snapshot while it waits. Run
    /// state.
    #[serde(skip)]
    pub snapshot: Option<u64>,
}

/// A `WITH` query's columns (name and type) and rows, once run.
pub type Materialized = (Vec<(String, Type)>, Vec<Vec<Value>>);

impl Cte {
    /// A `WITH` query that reads: `select`, then its UNION's queries.
    pub fn new(
        name: String,
        columns: Vec<String>,
        select: Select,
        union: Vec<(String, bool)>,
    ) -> Cte {
        Cte {
            name,
            columns,
            select,
            write: None,
            union,
            rows: None,
            snapshot: None,
        }
    }

    /// The name of the table a FROM reads it as: its own, marked so that
    /// no table of the schema has it (a `WITH` query hides a table of
    /// its name).
    pub fn table(name: &str) -> String {
        format!("{name} (WITH)")
    }

    /// Whether a FROM's table is a `WITH` query.
    pub fn is_table(table: &str) -> bool {
        table.ends_with(" (WITH)")
    }

    /// The name of the `n`-th subquery in a statement's FROM, read as a
    /// `WITH` query by its alias: a name no query can give.
    pub fn derived(alias: &str, n: u32) -> String {
        format!("{alias} (FROM {n})")
    }

    /// The name a query gave it: a subquery in FROM's alias, or the `WITH`
    /// query's own name.
    pub fn shown(name: &str) -> &str {
        match name.rfind(" (FROM ") {
            Some(at) if name.ends_with(')') => &name[..at],
            _ => name,
        }
    }
}

/// A table joined in a SELECT's FROM.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Join {
    pub table: String,
    pub alias: Option<String>,
    /// `LEFT JOIN`: a row with no match is kept, with this table's
    /// columns NULL.
    pub left: bool,
    /// `RIGHT JOIN` (with `left`, `FULL JOIN`): a row of this table that
    /// matches none is kept, with the columns of the tables before it
    /// NULL.
    #[serde(default)]
    pub right: bool,
    /// `ON`; `None` for `CROSS JOIN`, `FROM a, b` (every pair) and
    /// `USING`.
    pub on: Option<Expr>,
    /// `USING (columns)`: each equal on both sides, and one column of
    /// the output (the store writes the `ON`).
    #[serde(default)]
    pub using: Vec<String>,
    /// The first table of a FROM item of its own (`FROM a, b`: `b`), so
    /// not a side of the joins before it.
    #[serde(default)]
    pub new_item: bool,
}

impl Select {
    /// `SELECT projection FROM table`, and nothing else.
    pub fn plain(table: Option<String>, projection: Projection) -> Select {
        Select {
            table,
            projection,
            filter: None,
            group_by: Vec::new(),
            group_exprs: Vec::new(),
            having: None,
            order: Vec::new(),
            limit: None,
            offset: None,
            for_update: false,
            for_share: false,
            nowait: false,
            skip_locked: false,
            locked: Vec::new(),
            joins: Vec::new(),
            alias: None,
            distinct: false,
            distinct_on: Vec::new(),
            with: Vec::new(),
            written: Vec::new(),
            waited: None,
        }
    }

    /// The name each table of its FROM goes by (its alias, else its own),
    /// with the table: `table` first, then the joined ones.
    pub fn sources(&self) -> Vec<(&str, &str)> {
        let first = self
            .table
            .as_deref()
            .map(|table| (table, self.alias.as_deref().unwrap_or(table)));
        first
            .into_iter()
            .chain(
                self.joins
                    .iter()
                    .map(|j| (j.table.as_str(), j.alias.as_deref().unwrap_or(&j.table))),
            )
            .collect()
    }

    /// `SELECT pg_sleep(seconds)` (one column, no FROM, WHERE or other
    /// clause): its argument. The statement's round trip takes that many
    /// seconds longer, as the server sleeps before it answers.
    pub fn sleep(&self) -> Option<&Expr> {
        let Projection::Items(items) = &self.projection else {
            return None;
        };
        match items.as_slice() {
            [(_, Expr::Call(Function::Sleep, args))]
                if self.table.is_none() && self.clauses().iter().all(|c| c.is_none()) =>
            {
                args.first()
            }
            _ => None,
        }
    }

    /// Its expressions besides the select list and the joins: WHERE,
    /// HAVING, LIMIT and OFFSET.
    pub fn clauses(&self) -> [&Option<Expr>; 4] {
        [&self.filter, &self.having, &self.limit, &self.offset]
    }

    /// The expressions it reads itself, not those of its subqueries: its
    /// output, its clauses and its joins' `ON`.
    pub fn own_exprs(&self) -> Vec<&Expr> {
        let items = match &self.projection {
            Projection::Items(items) => items.iter().map(|(_, e)| e).collect(),
            Projection::All => Vec::new(),
        };
        items
            .into_iter()
            .chain(self.clauses().into_iter().flatten())
            .chain(self.joins.iter().filter_map(|j| j.on.as_ref()))
            .chain(&self.group_exprs)
            .collect()
    }

    /// [`Select::own_exprs`], to change.
    pub fn own_exprs_mut(&mut self) -> Vec<&mut Expr> {
        let items = match &mut self.projection {
            Projection::Items(items) => items.iter_mut().map(|(_, e)| e).collect(),
            Projection::All => Vec::new(),
        };
        let [filter, having, limit, offset] = [
            &mut self.filter,
            &mut self.having,
            &mut self.limit,
            &mut self.offset,
        ];
        items
            .into_iter()
            .chain([filter, having, limit, offset].into_iter().flatten())
            .chain(self.joins.iter_mut().filter_map(|j| j.on.as_mut()))
            .chain(&mut self.group_exprs)
            .collect()
    }

    /// The columns of the query right around it that it reads (as
    /// [`Expr::Outer`], in its subqueries too), each once.
    pub fn outer_columns(&self) -> Vec<String> {
        let mut columns: Vec<String> = Vec::new();
        for e in self.own_exprs() {
            outer_reads(e, 0, &mut |out, column| {
                if out == 1 && !columns.iter().any(|c| c == column) {
                    columns.push(column.to_string());
                }
            });
        }
        columns
    }

    /// Whether it reads a row of a query around it: a correlated
    /// subquery.
    pub fn is_correlated(&self) -> bool {
        let mut found = false;
        for e in self.own_exprs() {
            outer_reads(e, 0, &mut |_, _| found = true);
        }
        found
    }

    /// Puts `value(column)` in place of each column of the query right
    /// around it that it reads, in its subqueries too.
    pub fn bind_outer(&mut self, value: &dyn Fn(&str) -> Expr) {
        for e in self.own_exprs_mut() {
            bind_outer(e, 0, value);
        }
    }

    /// [`Select::clauses`], to change.
    pub fn clauses_mut(&mut self) -> [&mut Option<Expr>; 4] {
        [
            &mut self.filter,
            &mut self.having,
            &mut self.limit,
            &mut self.offset,
        ]
    }

    /// Its ORDER BY's terms: descending, nulls first.
    pub fn order_terms(&self) -> Vec<(bool, bool)> {
        self.order.iter().map(|&(_, d, n)| (d, n)).collect()
    }

    /// Whether it locks the rows it returns (`FOR UPDATE` or `FOR SHARE`).
    pub fn locks(&self) -> bool {
        self.for_update || self.for_share
    }

    /// Whether it computes over groups of rows: an aggregate, GROUP BY or
    /// HAVING (one output row per group, all rows one group without GROUP
    /// BY).
    pub fn aggregated(&self) -> bool {
        !self.group_by.is_empty()
            || !self.group_exprs.is_empty()
            || self.having.is_some()
            || matches!(&self.projection, Projection::Items(items) if items.iter().any(|(_, e)| e.has_aggregate()))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Insert {
    pub table: String,
    /// Empty: every column in table order.
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Expr>>,
    /// `INSERT … SELECT`: the rows come from this query (`rows` is empty).
    #[serde(default)]
    pub select: Option<Box<Select>>,
    pub on_conflict: Option<OnConflict>,
    /// `ON CONFLICT (columns) WHERE …`: the predicate that lets a partial
    /// unique index on those columns be the arbiter (its own `WHERE`, or
    /// one that implies it).
    #[serde(default)]
    pub conflict_where: Option<Box<Expr>>,
    pub returning: Option<Projection>,
    #[serde(default)]
    pub with: Vec<Cte>,
    /// The columns the statement names by its one table's name or alias
    /// (`s.nope`), which it reads by their bare names: each bare name and
    /// the name as written, so that a missing one is reported as
    /// PostgreSQL words it (`column s.nope does not exist`).
    #[serde(default)]
    pub written: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OnConflict {
    /// `ON CONFLICT [(columns)] DO NOTHING`
    Nothing(Option<Vec<String>>),
    /// `ON CONFLICT (columns) DO UPDATE SET … [WHERE …]`
    Update {
        target: Vec<String>,
        set: Vec<(String, Expr)>,
        filter: Option<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Update {
    pub table: String,
    pub set: Vec<(String, Expr)>,
    pub filter: Option<Expr>,
    pub returning: Option<Projection>,
    #[serde(default)]
    pub with: Vec<Cte>,
    /// `UPDATE … FROM`: the tables joined to the updated one, as a
    /// SELECT's (the first starts a FROM item). With any, the columns of
    /// its expressions keep their qualifiers, as a joined SELECT's.
    #[serde(default)]
    pub from: Vec<Join>,
    /// The updated table's alias (`UPDATE jobs j`), with `from`.
    #[serde(default)]
    pub alias: Option<String>,
    /// The columns the statement names by its one table's name or alias
    /// (`s.nope`), which it reads by their bare names: each bare name and
    /// the name as written, so that a missing one is reported as
    /// PostgreSQL words it (`column s.nope does not exist`).
    #[serde(default)]
    pub written: Vec<(String, String)>,
    /// The snapshot it read with before it waited for a row: run again,
    /// it keeps it, as PostgreSQL's statement keeps its snapshot while it
    /// waits (the rows it finds changed since, it reads as they are then:
    /// `Database::recheck`). Run state.
    #[serde(skip)]
    pub waited: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Delete {
    pub table: String,
    pub filter: Option<Expr>,
    pub returning: Option<Projection>,
    #[serde(default)]
    pub with: Vec<Cte>,
    /// `DELETE … USING`: the tables joined to the table deleted from, as
    /// `Update::from`.
    #[serde(default)]
    pub using: Vec<Join>,
    /// The table's alias (`DELETE FROM runs r`), with `using`.
    #[serde(default)]
    pub alias: Option<String>,
    /// The columns the statement names by its one table's name or alias
    /// (`s.nope`), which it reads by their bare names: each bare name and
    /// the name as written, so that a missing one is reported as
    /// PostgreSQL words it (`column s.nope does not exist`).
    #[serde(default)]
    pub written: Vec<(String, String)>,
    /// The snapshot it read with before it waited for a row: run again,
    /// it keeps it, as PostgreSQL's statement keeps its snapshot while it
    /// waits (the rows it finds changed since, it reads as they are then:
    /// `Database::recheck`). Run state.
    #[serde(skip)]
    pub waited: Option<u64>,
}

/// An expression over one row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    Column(String),
    /// `DEFAULT` as a value of an INSERT's VALUES: the column's default.
    Default,
    /// `EXCLUDED.column` in `ON CONFLICT DO UPDATE`.
    Excluded(String),
    Value(#[serde(with = "crate::boundary::json_text")] Value),
    /// `$n`, 1-based, before binding.
    Param(usize),
    Binary(Box<Expr>, Op, Box<Expr>),
    Not(Box<Expr>),
    Negate(Box<Expr>),
    /// `IS NULL` (`true`) or `IS NOT NULL` (`false`).
    IsNull(Box<Expr>, bool),
    /// `x [NOT] IN (a, b)`.
    InList(Box<Expr>, Vec<Expr>, bool),
    /// `x = ANY(array)`.
    Any(Box<Expr>, Box<Expr>),
    /// `now()`, `CURRENT_TIMESTAMP`: the simulated clock.
    Now,
    /// `gen_random_uuid()`.
    Uuid,
    /// PostgreSQL's system column `xmax`, read in an INSERT's RETURNING:
    /// 0 for a row it inserted, the transaction's id for one its
    /// `ON CONFLICT DO UPDATE` updated (so `RETURNING (xmax = 0) AS
    /// inserted` tells the two apart, as on PostgreSQL).
    Xmax,
    /// `COALESCE(a, b, …)`.
    Coalesce(Vec<Expr>),
    /// `x::type`.
    Cast(Box<Expr>, Type),
    /// An aggregate over a SELECT's rows or group: its arguments (none
    /// for `count(*)`; `string_agg`'s value and delimiter), whether it is
    /// `DISTINCT`, and the order it reads the rows in (`ORDER BY` inside
    /// the call: each expression, descending, nulls first).
    Aggregate(Aggregate, Vec<Expr>, bool, Vec<(Expr, bool, bool)>),
    /// A scalar function of the model.
    Call(Function, Vec<Expr>),
    /// `x [NOT] LIKE pattern` (`ILIKE`: case-insensitive).
    Like {
        expr: Box<Expr>,
        pattern: Box<Expr>,
        insensitive: bool,
        negated: bool,
    },
    /// `CASE [operand] WHEN … THEN … [ELSE …] END`.
    Case {
        operand: Option<Box<Expr>>,
        branches: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    /// `[NOT] EXISTS (SELECT …)`, run on the statement's snapshot: once
    /// per statement, or once per outer row if it is correlated (`NOT`:
    /// `true`).
    Exists(Box<Select>, bool),
    /// `x [NOT] IN (SELECT …)`, the same way.
    InSelect(Box<Expr>, Box<Select>, bool),
    /// `(SELECT …)` as a value: its one column of at most one row.
    Scalar(Box<Select>),
    /// A column of an enclosing query's row, read by a correlated
    /// subquery: how many queries out it is (1: the query right around
    /// the subquery), and the column as written (`u.id`), or alone for a
    /// bare name the store found there (`Database::name_outer_columns`).
    /// The store puts the row's value in its place before it runs the
    /// subquery.
    Outer(u32, String),
    /// A correlated subquery after the store ran it for each row of the
    /// query around it (`Database::bind_rows`): its value for the row
    /// being read. Run state: no plan that crosses from the parser
    /// (`crate::boundary`) holds one.
    #[serde(skip)]
    PerRow(Box<PerRow>),
}

/// A correlated subquery's value for each row of the query around it, by
/// the values of the columns of that row it reads: PostgreSQL's SubPlan,
/// run for every distinct set of those values before the rows are read.
/// An error is the row's: raised only if that row's value is read, as
/// PostgreSQL raises it only for a row the subquery runs for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerRow {
    /// The outer row's columns the subquery reads.
    pub columns: Vec<String>,
    /// Each set of their values, and the subquery's value for it (an
    /// expression over the outer row: `x IN (…)` reads its `x`).
    pub cases: Vec<(Vec<Value>, Result<Expr, SqlError>)>,
}

/// The expressions directly inside `$expr`, each passed to `$f`, read
/// with `$iter` (`iter` or `iter_mut`): one walk for both borrows.
macro_rules! each_child {
    ($expr:expr, $f:ident, $iter:ident) => {
        match $expr {
            Expr::Binary(a, _, b) | Expr::Any(a, b) => {
                $f(a);
                $f(b);
            }
            Expr::Not(a)
            | Expr::Negate(a)
            | Expr::IsNull(a, _)
            | Expr::Cast(a, _)
            | Expr::InSelect(a, ..) => $f(a),
            Expr::Aggregate(_, args, _, order) => {
                args.$iter().for_each(|a| $f(a));
                order.$iter().for_each(|(e, ..)| $f(e));
            }
            Expr::InList(a, list, _) => {
                $f(a);
                list.$iter().for_each($f);
            }
            Expr::Coalesce(list) | Expr::Call(_, list) => list.$iter().for_each($f),
            Expr::PerRow(per_row) => {
                for (_, case) in per_row.cases.$iter() {
                    case.$iter().for_each(|e| $f(e));
                }
            }
            Expr::Like { expr, pattern, .. } => {
                $f(expr);
                $f(pattern);
            }
            Expr::Case {
                operand,
                branches,
                otherwise,
            } => {
                operand.$iter().for_each(|e| $f(e));
                for (when, then) in branches {
                    $f(when);
                    $f(then);
                }
                otherwise.$iter().for_each(|e| $f(e));
            }
            // A subquery's expressions read its own table: they are not
            // this expression's children (`Expr::subquery`).
            Expr::Column(_)
            | Expr::Default
            | Expr::Excluded(_)
            | Expr::Value(_)
            | Expr::Param(_)
            | Expr::Now
            | Expr::Uuid
            | Expr::Xmax
            | Expr::Exists(..)
            | Expr::Scalar(_)
            | Expr::Outer(..) => {}
        }
    };
}

impl Expr {
    /// Calls `f` with each expression directly inside this one.
    pub fn each_child(&self, f: &mut dyn FnMut(&Expr)) {
        each_child!(self, f, iter)
    }

    /// Calls `f` with each expression directly inside this one, to change.
    pub fn each_child_mut(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        each_child!(self, f, iter_mut)
    }

    /// The subquery this expression is, if it is one.
    pub fn subquery(&self) -> Option<&Select> {
        match self {
            Expr::Exists(select, _) | Expr::InSelect(_, select, _) | Expr::Scalar(select) => {
                Some(select)
            }
            _ => None,
        }
    }

    /// Whether a subquery is in it.
    pub fn has_subquery(&self) -> bool {
        let mut found = self.subquery().is_some();
        self.each_child(&mut |e| found |= e.has_subquery());
        found
    }

    /// Whether an aggregate is in it (a subquery's are its own).
    pub fn has_aggregate(&self) -> bool {
        let mut found = matches!(self, Expr::Aggregate(..));
        self.each_child(&mut |e| found |= e.has_aggregate());
        found
    }
}

/// Calls `f` with each column that `e` reads from outside the query it
/// is in, `depth` subqueries down: how many queries out of that query it
/// is, and its name.
fn outer_reads(e: &Expr, depth: u32, f: &mut dyn FnMut(u32, &str)) {
    if let Expr::Outer(out, column) = e {
        if *out > depth {
            f(out - depth, column);
        }
    }
    e.each_child(&mut |child| outer_reads(child, depth, f));
    if let Some(select) = e.subquery() {
        for inner in select.own_exprs() {
            outer_reads(inner, depth + 1, f);
        }
    }
}

/// [`Select::bind_outer`] for an expression `depth` subqueries down.
fn bind_outer(e: &mut Expr, depth: u32, value: &dyn Fn(&str) -> Expr) {
    if let Expr::Outer(out, column) = e {
        if *out == depth + 1 {
            *e = value(column);
            return;
        }
    }
    e.each_child_mut(&mut |child| bind_outer(child, depth, value));
    if let Expr::Exists(select, _) | Expr::InSelect(_, select, _) | Expr::Scalar(select) = e {
        for inner in select.own_exprs_mut() {
            bind_outer(inner, depth + 1, value);
        }
    }
}

/// An aggregate function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aggregate {
    Count,
    Sum,
    Min,
    Max,
    Avg,
    /// `array_agg(x)`: every value, NULLs too, as an array.
    ArrayAgg,
    /// `json_agg(x)`: every value, NULLs too, as a JSON array of their
    /// JSON.
    JsonAgg,
    /// `jsonb_agg(x)`: the same as a jsonb.
    JsonbAgg,
    /// `string_agg(text, delimiter)`: the texts that are not NULL, each
    /// after the first preceded by its row's delimiter.
    StringAgg,
    /// `bool_and(b)` (and `every(b)`): whether every value that is not
    /// NULL is true.
    BoolAnd,
    /// `bool_or(b)`: whether any value is true.
    BoolOr,
}

impl Aggregate {
    /// Whether it keeps NULL values (so `FILTER` is no CASE in it).
    pub fn keeps_nulls(self) -> bool {
        matches!(
            self,
            Aggregate::ArrayAgg | Aggregate::JsonAgg | Aggregate::JsonbAgg
        )
    }
}

/// A scalar function the model computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Function {
    Lower,
    Upper,
    /// `length`, `char_length`: characters.
    Length,
    Abs,
    Greatest,
    Least,
    NullIf,
    /// `round(x)` or `round(x, places)`.
    Round,
    /// `hashtext(text)`: an int4 hash of a text (an advisory lock's key).
    HashText,
    /// `pg_advisory_lock(key)` and its forms: held by the transaction
    /// (`pg_advisory_xact_lock`) or the session; `wait`: waits for the
    /// holder (the `pg_try_` forms answer false at once).
    AdvisoryLock {
        transaction: bool,
        wait: bool,
    },
    /// `pg_advisory_unlock(key)`: a session-level hold released.
    AdvisoryUnlock,
    /// `pg_advisory_unlock_all()`.
    AdvisoryUnlockAll,
    /// `current_setting(name [, missing_ok])`: a run-time parameter's
    /// value, as `SHOW` gives it.
    CurrentSetting,
    /// `set_config(name, value, is_local)`: `SET` as a function, and a
    /// statement of its own (`SELECT set_config(…)`).
    SetConfig,
    /// `pg_sleep(seconds)`: a statement of its own
    /// ([`Plan::sleep`]), which takes that much longer.
    Sleep,
    /// `ARRAY[a, b, …]`.
    Array,
    /// `array_length(array, dimension)`.
    ArrayLength,
    Cardinality,
    ArrayAppend,
    ArrayPrepend,
    /// `array_remove(array, value)`: without every element equal to it.
    ArrayRemove,
    /// `array_position(array, value)`: the first such element's index.
    ArrayPosition,
    /// A text function (`script::sql::strings`).
    Text(TextFunction),
    Ceil,
    Floor,
    /// `date_trunc(unit, t)` (`script::sql::dates`).
    DateTrunc,
    /// `to_timestamp(seconds)`: that many seconds after 1970 began.
    ToTimestamp,
    /// `to_char(t, template)` (`script::sql::to_char`).
    ToChar,
    /// `extract(field FROM t)`, a numeric; the field is the first
    /// argument, as a text.
    Extract,
    /// `date_part(field, t)`: the same as a double.
    DatePart,
    /// A function that builds JSON (`script::sql::json`).
    Json(JsonFunction),
    /// `jsonb_set(target, path, value [, create_if_missing])`
    /// (`script::sql::json_edit`).
    JsonbSet,
    /// `json_array_length(json)`.
    JsonArrayLength,
    /// `jsonb_array_length(jsonb)`.
    JsonbArrayLength,
}

/// The functions that build JSON, each in its `json` and `jsonb` form
/// (unit variants: the plan crosses from the SQL module as serde data,
/// and a struct variant's deserializer costs the script's runtime more).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JsonFunction {
    /// `json_build_object(key, value, …)`.
    JsonBuildObject,
    JsonbBuildObject,
    /// `json_build_array(value, …)`.
    JsonBuildArray,
    JsonbBuildArray,
    /// `to_json(value)`.
    ToJson,
    ToJsonb,
}

impl JsonFunction {
    /// Whether it gives a `jsonb` (else a `json`).
    pub fn is_binary(self) -> bool {
        matches!(
            self,
            JsonFunction::JsonbBuildObject | JsonFunction::JsonbBuildArray | JsonFunction::ToJsonb
        )
    }
}

/// The text functions the model computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TextFunction {
    /// `btrim`, `trim(…)`: the characters given (spaces) off both ends.
    Trim,
    LTrim,
    RTrim,
    Replace,
    SplitPart,
    /// `substring(s FROM a FOR n)`, `substr(s, a, n)`.
    Substring,
    Concat,
    Left,
    Right,
    /// `strpos(s, sub)`, `position(sub IN s)`.
    Position,
    /// `lpad(s, n [, fill])`, `rpad(…)`: to `n` characters, filled on
    /// the left (right), or cut to the first `n`.
    LPad,
    RPad,
}

impl Function {
    /// `ARRAY[…]` and the functions of arrays (`script::sql::array`).
    pub fn is_array(self) -> bool {
        matches!(
            self,
            Function::Array
                | Function::ArrayLength
                | Function::Cardinality
                | Function::ArrayAppend
                | Function::ArrayPrepend
                | Function::ArrayRemove
                | Function::ArrayPosition
        )
    }

    /// Whether it takes or gives back an advisory lock: a statement of its
    /// own (`SELECT pg_advisory_xact_lock($1)`), which the store runs.
    pub fn is_advisory(self) -> bool {
        matches!(
            self,
            Function::AdvisoryLock { .. } | Function::AdvisoryUnlock | Function::AdvisoryUnlockAll
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    And,
    Or,
    Plus,
    Minus,
    Multiply,
    Divide,
    /// `%`
    Modulo,
    Concat,
    /// `->`: a json object's field or an array's element, as json.
    JsonGet,
    /// `->>`: the same, as text.
    JsonText,
    /// `#>`: the value at a path (a `text[]` of keys and indexes), as json.
    JsonPath,
    /// `#>>`: the same, as text.
    JsonPathText,
    /// `@>`: an array holds every element of the other (or a jsonb value
    /// contains the other).
    Contains,
    /// `<@`: `@>` the other way round.
    ContainedBy,
    /// `&&`: two arrays share an element.
    Overlap,
    /// `array[i]`: the element at 1-based `i`.
    Subscript,
    /// jsonb's `?`: an object has the key, or an array the string.
    HasKey,
    /// `IS DISTINCT FROM`: `<>`, with NULL the same as NULL, never NULL.
    DistinctFrom,
    NotDistinctFrom,
}

/// The functions the model computes (`parse.rs`'s `call`; `count`, `sum`,
/// `min`, `max`, `avg`, `bool_and`, `bool_or` are aggregates).
const FUNCTIONS: &str = "now(), gen_random_uuid(), coalesce(), count(), sum(), min(), max(), \
     avg(), bool_and() (every()), bool_or(), lower(), upper(), length(), abs(), greatest(), least(), nullif(), round(), \
     hashtext(), btrim() (trim(), ltrim(), rtrim()), replace(), split_part(), substring() \
     (substr()), concat(), left(), right(), strpos() (position()), lpad(), rpad(), ceil(), floor(), mod(), \
     date_trunc(), date_part() (extract()), to_timestamp(), to_char(), json_build_object(), json_build_array(), to_json() \
     (and their jsonb_ forms), jsonb_set(), json_array_length() (jsonb_array_length()), \
     array_length(), cardinality(), array_append(), array_prepend(), \
     array_remove(), array_position(), pg_advisory_lock(), pg_advisory_xact_lock(), their pg_try_ forms, \
     pg_advisory_unlock(), pg_advisory_unlock_all() and pg_sleep()";

/// Where a parser's message says what runs, and which functions.
const SUPPORTED_MARK: char = '\u{1}';
pub const FUNCTIONS_MARK: char = '\u{2}';

const SUPPORTED: &str =
    "the SQL the simulation runs is SELECT (a table, or tables joined by [INNER] JOIN, \
     LEFT [OUTER] JOIN (ON or USING), RIGHT and FULL [OUTER] JOIN ON, and CROSS JOIN; DISTINCT, DISTINCT ON (columns), WHERE, GROUP BY, HAVING, ORDER BY, LIMIT, OFFSET, \
     FOR UPDATE | NO KEY UPDATE | SHARE [OF tables] [NOWAIT | SKIP LOCKED]; count, sum, min, max, avg, bool_and (every), bool_or, string_agg [FILTER (WHERE …)], array_agg, json_agg, jsonb_agg, each with DISTINCT and ORDER BY inside; CASE, LIKE, BETWEEN, (a, b) < (x, y); \
     subqueries: EXISTS, IN (SELECT …), (SELECT …), correlated unless the outer query joins tables), SELECT … UNION [ALL] SELECT … (not in a subquery), INSERT … VALUES, SELECT or DEFAULT VALUES (ON CONFLICT DO NOTHING | DO UPDATE, RETURNING), \
     UPDATE … SET (FROM, RETURNING), DELETE (USING, RETURNING), WITH … AS (SELECT …, or INSERT, UPDATE or DELETE … RETURNING …) before any of them, \
     (SELECT …) AS name in their FROM, \
     BEGIN / START TRANSACTION [ISOLATION LEVEL …], \
     SET TRANSACTION ISOLATION LEVEL, LOCK TABLE … [IN … MODE] [NOWAIT], \
     SAVEPOINT, RELEASE [SAVEPOINT] and ROLLBACK TO [SAVEPOINT], COMMIT and ROLLBACK";

/// Why a statement cannot run: PostgreSQL's SQLSTATE and message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SqlError {
    pub code: Cow<'static, str>,
    pub message: String,
    /// pg's `detail`, `constraint` and `table`, when PostgreSQL gives them.
    pub detail: Option<String>,
    pub constraint: Option<String>,
    pub table: Option<String>,
}

impl SqlError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        SqlError {
            code: Cow::Borrowed(code),
            message: message.into(),
            detail: None,
            constraint: None,
            table: None,
        }
    }

    pub fn syntax(message: impl Into<String>) -> Self {
        SqlError::new("42601", message)
    }

    /// Valid SQL the model does not run: the message ends with what
    /// runs ([`SqlError::explained`] writes it).
    pub fn unsupported(statement: &str, what: &str) -> Self {
        SqlError::new(
            "0A000",
            format!(
                "{what} is not supported by the simulation, in \"{}\"{SUPPORTED_MARK}",
                quote(statement)
            ),
        )
    }

    /// The message with the lists of what runs ([`SUPPORTED`]) and of the
    /// functions ([`FUNCTIONS`]) in place of their marks. The parser
    /// leaves the marks, and the model's side of it
    /// (`script::sql::parse`) writes the lists, so that the parser's own
    /// wasm module does not carry them.
    pub fn explained(mut self) -> Self {
        if self.message.contains([SUPPORTED_MARK, FUNCTIONS_MARK]) {
            self.message = self
                .message
                .replace(SUPPORTED_MARK, &format!(": {SUPPORTED}"))
                .replace(FUNCTIONS_MARK, FUNCTIONS);
        }
        self
    }
}

/// A statement as an error message quotes it: on one line, cut at 200
/// characters.
pub fn quote(statement: &str) -> String {
    let line: String = statement.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > 200 {
        let cut: String = line.chars().take(200).collect();
        format!("{cut}…")
    } else {
        line
    }
}

/// The highest `$n` a plan uses.
pub fn params(plan: &Plan) -> usize {
    let mut most = 0;
    visit(plan, &mut |e| {
        if let Expr::Param(n) = e {
            most = most.max(*n);
        }
    });
    most
}

/// The lowest `$n` a plan uses (0 if none).
pub fn first_param(plan: &Plan) -> usize {
    let mut least = usize::MAX;
    visit(plan, &mut |e| {
        if let Expr::Param(n) = e {
            least = least.min(*n);
        }
    });
    if least == usize::MAX {
        0
    } else {
        least
    }
}

/// Replaces every `$n` with `values[n - 1]`.
pub fn bind(plan: &mut Plan, values: &[Value]) {
    visit_mut(plan, &mut |e| {
        if let Expr::Param(n) = e {
            *e = Expr::Value(values.get(*n - 1).cloned().unwrap_or(Value::Null));
        }
    });
}

/// Calls `f` with every column an expression names.
pub fn columns(expr: &Expr, f: &mut dyn FnMut(&str)) {
    if let Expr::Column(name) = expr {
        f(name);
    }
    expr.each_child(&mut |e| columns(e, f));
}

fn visit(plan: &Plan, f: &mut dyn FnMut(&Expr)) {
    let mut plan = plan.clone();
    visit_mut(&mut plan, &mut |e| f(e));
}

/// Every expression of a plan, its subqueries' included, innermost first.
pub fn visit_mut(plan: &mut Plan, f: &mut dyn FnMut(&mut Expr)) {
    if let Some(with) = plan.with_mut() {
        for cte in with.iter_mut() {
            match &mut cte.write {
                Some(write) => visit_mut(write, f),
                None => visit_select(&mut cte.select, f),
            }
        }
    }
    match plan {
        Plan::Select(select) => visit_select(select, f),
        Plan::Insert(insert) => {
            insert
                .rows
                .iter_mut()
                .flatten()
                .for_each(|e| visit_expr(e, f));
            if let Some(select) = &mut insert.select {
                visit_select(select, f);
            }
            if let Some(OnConflict::Update { set, filter, .. }) = &mut insert.on_conflict {
                set.iter_mut().for_each(|(_, e)| visit_expr(e, f));
                filter.iter_mut().for_each(|e| visit_expr(e, f));
            }
            visit_projection(&mut insert.returning, f);
        }
        Plan::Update(update) => {
            update.set.iter_mut().for_each(|(_, e)| visit_expr(e, f));
            update.filter.iter_mut().for_each(|e| visit_expr(e, f));
            for join in &mut update.from {
                join.on.iter_mut().for_each(|e| visit_expr(e, f));
            }
            visit_projection(&mut update.returning, f);
        }
        Plan::Delete(delete) => {
            for join in &mut delete.using {
                join.on.iter_mut().for_each(|e| visit_expr(e, f));
            }
            delete.filter.iter_mut().for_each(|e| visit_expr(e, f));
            visit_projection(&mut delete.returning, f);
        }
        _ => {}
    }
}

/// Every expression of a SELECT, its subqueries' included.
pub fn visit_select(select: &mut Select, f: &mut dyn FnMut(&mut Expr)) {
    let mut projection = Some(std::mem::replace(&mut select.projection, Projection::All));
    visit_projection(&mut projection, f);
    select.projection = projection.expect("kept");
    for e in select.clauses_mut() {
        e.iter_mut().for_each(|e| visit_expr(e, f));
    }
    for join in &mut select.joins {
        join.on.iter_mut().for_each(|e| visit_expr(e, f));
    }
}

/// An expression and everything in it, subqueries included, innermost
/// first.
fn visit_expr(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    e.each_child_mut(&mut |child| visit_expr(child, f));
    if let Expr::Exists(select, _) | Expr::InSelect(_, select, _) | Expr::Scalar(select) = e {
        visit_select(select, f);
    }
    f(e);
}

fn visit_projection(p: &mut Option<Projection>, f: &mut dyn FnMut(&mut Expr)) {
    if let Some(Projection::Items(items)) = p {
        items.iter_mut().for_each(|(_, e)| visit_expr(e, f));
    }
}

/// A schema's statements as data (`parse::schema`), in their order: the
/// steps up to its first error, then that error. Applied in order, with
/// `error` last, a schema's errors come in the order of its statements.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SchemaPlan {
    pub steps: Vec<SchemaStep>,
    pub error: Option<SqlError>,
}

/// One statement of a schema.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SchemaStep {
    /// `CREATE TABLE`.
    Create(TableSchema),
    /// `CREATE UNIQUE INDEX`.
    UniqueIndex { table: String, key: Key },
    /// `INSERT`: seed rows; `shown` is the statement as its errors quote it.
    Seed { insert: Insert, shown: String },
    /// `ALTER TABLE … ADD … FOREIGN KEY`, after the tables it names.
    ForeignKey { table: String, key: ForeignKey },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::{decode, encode};

    fn plans() -> Vec<Result<Plan, SqlError>> {
        let filter = Expr::Binary(
            Box::new(Expr::Column("user_id".into())),
            Op::Eq,
            Box::new(Expr::Param(1)),
        );
        let inner = Select {
            filter: Some(filter.clone()),
            ..Select::plain(
                Some("orders".into()),
                Projection::Items(vec![("user_id".into(), Expr::Column("user_id".into()))]),
            )
        };
        let joined = Plan::Select(Select {
            table: Some("events".into()),
            alias: Some("e".into()),
            joins: vec![Join {
                table: "orders".into(),
                alias: None,
                left: true,
                right: false,
                on: Some(Expr::Binary(
                    Box::new(Expr::Column("orders.event_id".into())),
                    Op::Eq,
                    Box::new(Expr::Column("e.id".into())),
                )),
                using: Vec::new(),
                new_item: false,
            }],
            ..inner.clone()
        });
        let mut plans = vec![
            Ok(Plan::Select(Select {
                table: Some("orders".into()),
                projection: Projection::Items(vec![
                    ("id".into(), Expr::Column("id".into())),
                    (
                        "count".into(),
                        Expr::Cast(
                            Box::new(Expr::Aggregate(
                                Aggregate::Count,
                                Vec::new(),
                                false,
                                Vec::new(),
                            )),
                            Type::Int,
                        ),
                    ),
                    (
                        "k".into(),
                        Expr::Case {
                            operand: None,
                            branches: vec![(
                                Expr::Like {
                                    expr: Box::new(Expr::Call(
                                        Function::Lower,
                                        vec![Expr::Column("a".into())],
                                    )),
                                    pattern: Box::new(Expr::Value("x%".into())),
                                    insensitive: true,
                                    negated: false,
                                },
                                Expr::Binary(
                                    Box::new(Expr::Column("j".into())),
                                    Op::JsonText,
                                    Box::new(Expr::Value("k".into())),
                                ),
                            )],
                            otherwise: None,
                        },
                    ),
                ]),
                filter: Some(filter.clone()),
                group_by: vec!["id".into()],
                group_exprs: Vec::new(),
                having: Some(Expr::Aggregate(
                    Aggregate::Sum,
                    vec![Expr::Column("n".into())],
                    true,
                    Vec::new(),
                )),
                order: vec![("id".into(), true, true)],
                limit: Some(Expr::Value(Value::from(10))),
                offset: None,
                for_update: true,
                for_share: false,
                nowait: false,
                skip_locked: true,
                locked: Vec::new(),
                joins: Vec::new(),
                alias: None,
                distinct: true,
                distinct_on: Vec::new(),
                with: vec![Cte::new(
                    "n".into(),
                    vec!["k".into()],
                    inner.clone(),
                    Vec::new(),
                )],
                written: vec![("n".into(), "o.n".into())],
                waited: None,
            })),
            Ok(Plan::Insert(Insert {
                table: "t".into(),
                columns: vec!["a".into(), "b".into()],
                rows: vec![vec![
                    Expr::Value(Value::from(0.1)),
                    Expr::Cast(Box::new(Expr::Value("x".into())), Type::Timestamp),
                    Expr::Coalesce(vec![Expr::Now, Expr::Uuid, Expr::Value(Value::Null)]),
                ]],
                select: None,
                on_conflict: Some(OnConflict::Update {
                    target: vec!["a".into()],
                    set: vec![("b".into(), Expr::Excluded("b".into()))],
                    filter: Some(Expr::InList(
                        Box::new(Expr::Negate(Box::new(Expr::Param(2)))),
                        vec![Expr::Value(Value::Bool(true))],
                        true,
                    )),
                }),
                conflict_where: None,
                returning: Some(Projection::All),
                with: Vec::new(),
                written: Vec::new(),
            })),
            Ok(Plan::Update(Update {
                table: "t".into(),
                set: vec![("n".into(), Expr::Value(Value::from(-1.5e300)))],
                filter: Some(Expr::IsNull(Box::new(Expr::Not(Box::new(filter))), false)),
                returning: None,
                with: Vec::new(),
                from: vec![Join {
                    table: Cte::table("n"),
                    alias: Some("n".into()),
                    left: false,
                    right: false,
                    on: None,
                    using: Vec::new(),
                    new_item: true,
                }],
                alias: Some("j".into()),
                written: Vec::new(),
                waited: None,
            })),
            Ok(Plan::Insert(Insert {
                table: "t".into(),
                columns: Vec::new(),
                rows: Vec::new(),
                select: Some(Box::new(Select {
                    table: None,
                    projection: Projection::Items(vec![("?column?".into(), Expr::Param(1))]),
                    filter: Some(Expr::Exists(Box::new(inner.clone()), true)),
                    ..inner.clone()
                })),
                on_conflict: None,
                conflict_where: None,
                returning: None,
                with: Vec::new(),
                written: Vec::new(),
            })),
            Ok(Plan::Delete(Delete {
                table: "t".into(),
                filter: Some(Expr::Binary(
                    Box::new(Expr::InSelect(
                        Box::new(Expr::Column("id".into())),
                        Box::new(inner.clone()),
                        false,
                    )),
                    Op::Or,
                    Box::new(Expr::Scalar(Box::new(inner))),
                )),
                returning: None,
                with: Vec::new(),
                using: Vec::new(),
                alias: None,
                written: Vec::new(),
                waited: None,
            })),
            Ok(Plan::Delete(Delete {
                table: "t".into(),
                filter: Some(Expr::Any(
                    Box::new(Expr::Column("id".into())),
                    Box::new(Expr::Param(1)),
                )),
                returning: None,
                with: Vec::new(),
                using: Vec::new(),
                alias: None,
                written: Vec::new(),
                waited: None,
            })),
            Ok(Plan::Begin(Some(Isolation::RepeatableRead))),
            Ok(Plan::Begin(None)),
            Ok(Plan::SetIsolation(Isolation::Serializable)),
            Ok(Plan::Commit),
            Ok(Plan::Rollback),
            Err(SqlError::unsupported("SELECT * FROM a JOIN b", "JOIN")),
            Err(SqlError {
                detail: Some("Key (a)=(1) already exists.".into()),
                constraint: Some("t_pkey".into()),
                table: Some("t".into()),
                ..SqlError::new("23505", "duplicate key")
            }),
        ];
        plans.push(Ok(joined));
        plans
    }

    #[test]
    fn a_plan_crosses_the_module_boundary_unchanged() {
        for plan in plans() {
            assert_eq!(decode::<Result<Plan, SqlError>>(&encode(&plan)), Some(plan));
        }
        assert_eq!(decode::<Result<Plan, SqlError>>(b"not a plan"), None);
    }

    /// Real statements, as the parser plans them: every literal, operator
    /// and clause kind a pasted handler's SQL uses comes back the same.
    #[cfg(feature = "sql")]
    #[test]
    fn parsed_statements_cross_the_module_boundary_unchanged() {
        let statements = [
            "SELECT 1, -2.5, 1e300, 'it''s', TRUE, NULL, 9223372036854775807, $1::text[]",
            "SELECT id, count(*) FILTER (WHERE n > 0)::int AS c FROM orders o \
             LEFT JOIN users u ON u.id = o.user_id WHERE o.at >= now() - interval '1 day' \
             GROUP BY id HAVING count(*) > 1 ORDER BY c DESC NULLS LAST LIMIT 10 OFFSET $2",
            "WITH n(k) AS (SELECT DISTINCT user_id FROM orders) SELECT k FROM n \
             WHERE k = ANY($1) AND EXISTS (SELECT 1 FROM users WHERE users.id = n.k)",
            "INSERT INTO orders (user_id, event_id, doc) VALUES ($1, 1, '{\"a\": [1, 2]}') \
             ON CONFLICT (user_id, event_id) DO UPDATE SET n = orders.n + EXCLUDED.n \
             RETURNING id, (xmax = 0) AS inserted",
            "UPDATE items SET stock = stock - 1, doc = jsonb_set(doc, '{n}', to_jsonb(3)) \
             WHERE id = $1 AND stock > 0 AND doc #>> '{a,0}' IS DISTINCT FROM 'x' RETURNING stock",
            "DELETE FROM sessions WHERE expires_at < now() RETURNING id",
            "WITH ins AS (INSERT INTO users (email) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id) \
             SELECT id FROM ins UNION ALL SELECT id FROM users WHERE email = $1",
            "SELECT string_agg(name, ', ' ORDER BY name), array_agg(DISTINCT n), \
             json_agg(n ORDER BY at) FROM t",
            "SELECT id FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
            "SELECT pg_advisory_xact_lock(hashtext($1))",
            "SELECT pg_sleep(0.05)",
            "BEGIN ISOLATION LEVEL SERIALIZABLE",
            "LOCK TABLE orders IN SHARE ROW EXCLUSIVE MODE",
            "SELECT CASE WHEN n BETWEEN 1 AND 3 THEN lpad(x, 5, '0') ELSE upper(x) END FROM t",
            "SELEC nothing",
            "CREATE TABLE t (id int)",
        ];
        for text in statements {
            let plan = parse::parse(text);
            let refused = text.starts_with("SELEC ") || text.starts_with("CREATE");
            assert_eq!(plan.is_err(), refused, "{text}: {plan:?}");
            assert_eq!(
                decode::<Result<Plan, SqlError>>(&encode(&plan)),
                Some(plan),
                "{text}"
            );
        }
    }

    /// What a run adds to a plan (a WITH query's rows, a correlated
    /// subquery's values) is its own state: the parser never sends it.
    #[test]
    fn a_plans_run_state_does_not_cross() {
        let mut select = plans()
            .into_iter()
            .find_map(|plan| match plan {
                Ok(Plan::Select(select)) if !select.with.is_empty() => Some(select),
                _ => None,
            })
            .expect("a select with a WITH query");
        let sent = Ok::<_, SqlError>(Plan::Select(select.clone()));
        select.with[0].rows = Some((vec![("k".into(), Type::Int)], vec![vec![Value::from(1)]]));
        let ran = Ok::<_, SqlError>(Plan::Select(select.clone()));
        assert_eq!(decode::<Result<Plan, SqlError>>(&encode(&ran)), Some(sent));
        select.filter = Some(Expr::PerRow(Box::new(PerRow {
            columns: vec!["k".into()],
            cases: vec![(vec![Value::from(1)], Ok(Expr::Value(Value::Null)))],
        })));
        assert!(encode(&Ok::<_, SqlError>(Plan::Select(select))).is_empty());
    }

    #[test]
    fn a_schema_crosses_the_module_boundary_unchanged() {
        let Ok(Plan::Insert(insert)) = plans().swap_remove(1) else {
            panic!("an insert")
        };
        let schema = SchemaPlan {
            steps: vec![
                SchemaStep::Create(TableSchema {
                    name: "t".into(),
                    columns: vec![
                        Column {
                            name: "id".into(),
                            ty: Type::BigInt,
                            default: Some(Default::Serial),
                            not_null: true,
                            max_chars: None,
                        },
                        Column {
                            name: "token".into(),
                            ty: Type::Uuid,
                            default: Some(Default::Uuid),
                            not_null: false,
                            max_chars: None,
                        },
                        Column {
                            name: "n".into(),
                            ty: Type::Numeric(Some((12, 2))),
                            default: Some(Default::Expr(Expr::Value(Value::from(0)))),
                            not_null: false,
                            max_chars: None,
                        },
                    ],
                    keys: vec![Key {
                        name: "t_pkey".into(),
                        columns: vec!["id".into()],
                        primary: true,
                        predicate: None,
                        nulls_not_distinct: false,
                    }],
                    expect_unique: vec![vec!["n".into()]],
                    checks: Vec::new(),
                    foreign_keys: Vec::new(),
                }),
                SchemaStep::UniqueIndex {
                    table: "t".into(),
                    key: Key {
                        name: "t_n_idx".into(),
                        columns: vec!["n".into()],
                        primary: false,
                        predicate: None,
                        nulls_not_distinct: false,
                    },
                },
                SchemaStep::Seed {
                    insert,
                    shown: "INSERT INTO t (a, b) VALUES (0.1, 'x')".into(),
                },
            ],
            error: Some(SqlError::syntax("Expected: an expression, found: EOF")),
        };
        assert_eq!(decode(&encode(&schema)), Some(schema));
        let empty = SchemaPlan {
            steps: Vec::new(),
            error: None,
        };
        assert_eq!(decode(&encode(&empty)), Some(empty));
    }
}
