//! PostgreSQL's parse analysis of a statement on one table: every column it
//! names exists. The check runs before any row is read, so a statement
//! that names a missing column fails whatever the table holds (an UPDATE
//! that matches no row, an upsert that meets no conflict). It reads the
//! clauses in the order PostgreSQL's analysis does (`transformSelectStmt`,
//! `transformInsertStmt`, `transformUpdateStmt`, `transformDeleteStmt`),
//! so that of two missing columns, the one reported is PostgreSQL's, in
//! its words.
//!
//! A statement that joins tables resolves its qualified names elsewhere
//! (`store::resolve_columns`); a subquery is analysed when it runs.

use serde_json::Value;

use super::parse::{
    Delete, Expr, Insert, OnConflict, Op, Projection, Select, SqlError, Type, Update,
};
use super::value::cast_as;
use crate::sql::{Column, TableSchema};

/// A SELECT: its output list, WHERE, HAVING, ORDER BY, GROUP BY, then
/// DISTINCT ON.
pub fn select(schema: &TableSchema, select: &Select) -> Result<(), SqlError> {
    let at = Names::new(schema, &select.written);
    at.projection(Some(&select.projection))?;
    at.expression(select.filter.as_ref())?;
    at.expression(select.having.as_ref())?;
    let output = |name: &str| match &select.projection {
        Projection::Items(items) => items.iter().any(|(n, _)| n == name),
        Projection::All => false,
    };
    // ORDER BY and GROUP BY may name an output column or a table's.
    for name in select.order.iter().map(|(name, ..)| name) {
        if !output(name) {
            at.named(name)?;
        }
    }
    for name in &select.group_by {
        if !output(name) {
            at.named(name)?;
        }
    }
    for e in &select.group_exprs {
        at.expression(Some(e))?;
    }
    for name in &select.distinct_on {
        at.named(name)?;
    }
    Ok(())
}

/// An INSERT: its target columns (each once), its VALUES (which cannot
/// read the table), then ON CONFLICT's target, its SET (the values, then
/// the columns), its WHERE, RETURNING, and last the SET's columns once
/// each.
pub fn insert(schema: &TableSchema, insert: &Insert) -> Result<(), SqlError> {
    let at = Names::new(schema, &insert.written);
    for (i, name) in insert.columns.iter().enumerate() {
        column_of(schema, name)?;
        if insert.columns[..i].contains(name) {
            let message = format!("column \"{name}\" specified more than once");
            return Err(SqlError::new("42701", message));
        }
    }
    for value in insert.rows.iter().flatten() {
        at.reads(false, value)?;
    }
    if let Some(OnConflict::Nothing(Some(target)) | OnConflict::Update { target, .. }) =
        &insert.on_conflict
    {
        // `ON CONSTRAINT name` comes as the name after a NUL.
        for name in target.iter().filter(|name| !name.starts_with('\u{0}')) {
            at.named(name)?;
        }
    }
    if let Some(OnConflict::Update { set, filter, .. }) = &insert.on_conflict {
        at.assignments(set)?;
        at.expression(filter.as_ref())?;
    }
    at.projection(insert.returning.as_ref())?;
    match &insert.on_conflict {
        Some(OnConflict::Update { set, .. }) => assigned_once(set),
        _ => Ok(()),
    }
}

/// An UPDATE: its WHERE, RETURNING, then SET (the values, then the
/// columns, then each column once).
pub fn update(schema: &TableSchema, update: &Update) -> Result<(), SqlError> {
    let at = Names::new(schema, &update.written);
    at.expression(update.filter.as_ref())?;
    at.projection(update.returning.as_ref())?;
    at.assignments(&update.set)?;
    assigned_once(&update.set)
}

/// A SET assigns each column once (PostgreSQL's rewriter checks it,
/// after the analysis).
fn assigned_once(set: &[(String, Expr)]) -> Result<(), SqlError> {
    for (i, (name, _)) in set.iter().enumerate() {
        if set[..i].iter().any(|(earlier, _)| earlier == name) {
            let message = format!("multiple assignments to same column \"{name}\"");
            return Err(SqlError::new("42601", message));
        }
    }
    Ok(())
}

/// A DELETE: its WHERE, then RETURNING.
pub fn delete(schema: &TableSchema, delete: &Delete) -> Result<(), SqlError> {
    let at = Names::new(schema, &delete.written);
    at.expression(delete.filter.as_ref())?;
    at.projection(delete.returning.as_ref())
}

/// Every column `e` reads (its subqueries' are theirs) and every
/// `EXCLUDED.column` is `schema`'s.
pub fn expression(schema: &TableSchema, e: Option<&Expr>) -> Result<(), SqlError> {
    Names::new(schema, &[]).expression(e)
}

/// The table a statement reads, and the names it wrote qualified
/// (`Select::written`).
struct Names<'a> {
    schema: &'a TableSchema,
    written: &'a [(String, String)],
}

impl Names<'_> {
    fn new<'a>(schema: &'a TableSchema, written: &'a [(String, String)]) -> Names<'a> {
        Names { schema, written }
    }

    /// `SET column = value, …`: every value first, then each column and
    /// the value's literal read as its type, as `transformUpdateTargetList`
    /// does.
    fn assignments(&self, set: &[(String, Expr)]) -> Result<(), SqlError> {
        for (_, value) in set {
            self.expression(Some(value))?;
        }
        for (name, value) in set {
            literal_as(column_of(self.schema, name)?.ty, value)?;
        }
        Ok(())
    }

    /// The columns an output list (or RETURNING) reads.
    fn projection(&self, projection: Option<&Projection>) -> Result<(), SqlError> {
        match projection {
            Some(Projection::Items(items)) => {
                items.iter().try_for_each(|(_, e)| self.expression(Some(e)))
            }
            _ => Ok(()),
        }
    }

    fn expression(&self, e: Option<&Expr>) -> Result<(), SqlError> {
        e.map_or(Ok(()), |e| self.reads(true, e))
    }

    /// The first column `e` reads that the table lacks (or any, where the
    /// table cannot be read: VALUES), in the order written.
    fn reads(&self, table: bool, e: &Expr) -> Result<(), SqlError> {
        let has = |name: &str| table && find(self.schema, name).is_some();
        match e {
            Expr::Column(name) if !has(name) => return Err(self.missing(name)),
            Expr::Excluded(name) if !has(name) => return Err(missing_excluded(name)),
            // A literal compared with a column, or in arithmetic with it,
            // takes the column's type.
            Expr::Binary(left, op, right) if compares_or_computes(*op) => {
                for (column, other) in [(left, right), (right, left)] {
                    if let Expr::Column(name) = column.as_ref() {
                        if let Some(column) = find(self.schema, name) {
                            literal_as(column.ty, other)?;
                        }
                    }
                }
            }
            _ => {}
        }
        let mut first = Ok(());
        e.each_child(&mut |child| {
            if first.is_ok() {
                first = self.reads(table, child);
            }
        });
        first
    }

    /// A column named alone (ORDER BY, GROUP BY, ON CONFLICT's target).
    fn named(&self, name: &str) -> Result<(), SqlError> {
        match find(self.schema, name) {
            Some(_) => Ok(()),
            None => Err(self.missing(name)),
        }
    }

    /// PostgreSQL's 42703 for a column a clause reads, named as written.
    fn missing(&self, name: &str) -> SqlError {
        match self.written.iter().find(|(bare, _)| bare == name) {
            Some((_, written)) => missing(written),
            None => missing(name),
        }
    }
}

fn compares_or_computes(op: Op) -> bool {
    !matches!(
        op,
        Op::And
            | Op::Or
            | Op::Concat
            | Op::JsonGet
            | Op::JsonText
            | Op::JsonPath
            | Op::JsonPathText
            | Op::Contains
            | Op::ContainedBy
            | Op::Overlap
            | Op::Subscript
            | Op::HasKey
    )
}

/// A quoted literal read as an integer or a boolean column's type (the
/// `unknown` literal PostgreSQL's analysis coerces, so `'x'` fails as
/// `integer` before any row is read). Other types keep their reading
/// for when the statement runs.
fn literal_as(ty: Type, e: &Expr) -> Result<(), SqlError> {
    match (ty, e) {
        (Type::Int | Type::BigInt | Type::Bool, Expr::Value(text @ Value::String(_))) => {
            cast_as(text.clone(), ty, false).map(|_| ())
        }
        _ => Ok(()),
    }
}

fn find<'a>(schema: &'a TableSchema, name: &str) -> Option<&'a Column> {
    schema.columns.iter().find(|c| c.name == name)
}

/// PostgreSQL's 42703 for a column an expression reads: a bare name
/// quoted, a qualified one not.
pub fn missing(name: &str) -> SqlError {
    let message = match name.contains('.') {
        true => format!("column {name} does not exist"),
        false => format!("column \"{name}\" does not exist"),
    };
    SqlError::new("42703", message)
}

/// PostgreSQL's 42703 for `EXCLUDED.name` in an upsert.
pub fn missing_excluded(name: &str) -> SqlError {
    SqlError::new("42703", format!("column excluded.{name} does not exist"))
}

/// A column a statement writes (a SET's, an INSERT's target): PostgreSQL
/// names its table.
pub fn column_of<'a>(schema: &'a TableSchema, name: &str) -> Result<&'a Column, SqlError> {
    find(schema, name).ok_or_else(|| {
        SqlError::new(
            "42703",
            format!(
                "column \"{name}\" of relation \"{}\" does not exist",
                schema.name
            ),
        )
    })
}
