//! A table's definition as the schema gave it: its columns (type, default,
//! NOT NULL), its unique keys, its CHECK constraints, its foreign keys and
//! the uniqueness the code expects.

use serde::{Deserialize, Serialize};

use super::{Expr, Type};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Default {
    /// `serial`, `GENERATED … AS IDENTITY`, `nextval(…)`.
    Serial,
    /// `gen_random_uuid()`.
    Uuid,
    Expr(Expr),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    pub ty: Type,
    pub default: Option<Default>,
    pub not_null: bool,
    /// `varchar(n)`'s n: a longer value is refused (22001), unless what
    /// is past n is spaces, which go.
    #[serde(default)]
    pub max_chars: Option<u32>,
}

/// A unique key (a PRIMARY KEY, a UNIQUE constraint or a unique index).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Key {
    pub name: String,
    pub columns: Vec<String>,
    /// The PRIMARY KEY: grouped by it, a query may select the table's
    /// other columns (PostgreSQL's functional dependency).
    #[serde(default)]
    pub primary: bool,
    /// A partial unique index's `WHERE`: only the rows for which it is
    /// true are in the key (two soft-deleted rows may share an email that
    /// one live row holds alone).
    #[serde(default)]
    pub predicate: Option<Expr>,
    /// `NULLS NOT DISTINCT`: a NULL in the key is a value like any other,
    /// so two rows with the same NULLs conflict (PostgreSQL 15).
    #[serde(default)]
    pub nulls_not_distinct: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableSchema {
    pub name: String,
    pub columns: Vec<Column>,
    pub keys: Vec<Key>,
    /// Uniqueness the code expects and the schema does not declare.
    pub expect_unique: Vec<Vec<String>>,
    #[serde(default)]
    pub checks: Vec<Check>,
    #[serde(default)]
    pub foreign_keys: Vec<ForeignKey>,
}

/// A foreign key: a row's `columns`, when none is NULL, must match the
/// `referred` columns of a row of `table` (PostgreSQL's MATCH SIMPLE).
/// Under NO ACTION or RESTRICT (the default) a row referred to cannot be
/// deleted, or its key changed; the model runs no other action
/// (`CASCADE`, `SET NULL`, `SET DEFAULT`), so under one of those it lets
/// the row go and leaves the rows that referred to it as they are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForeignKey {
    pub name: String,
    pub columns: Vec<String>,
    pub table: String,
    /// The referred table's columns (its primary key if the schema names none).
    pub referred: Vec<String>,
    /// Deleting a row referred to fails (NO ACTION or RESTRICT).
    pub restricts_delete: bool,
    /// Changing the key of a row referred to fails (NO ACTION or RESTRICT).
    pub restricts_update: bool,
}

/// A CHECK constraint: a row for which its expression is false is refused
/// (23514); true or NULL lets it in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub name: String,
    pub expr: Expr,
}
