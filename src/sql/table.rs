//! A table's definition as the schema gave it: its columns (type, default,
//! NOT NULL), its unique keys, its CHECK constraints, and the uniqueness
//! the code expects.

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
}

/// A CHECK constraint: a row for which its expression is false is refused
/// (23514); true or NULL lets it in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub name: String,
    pub expr: Expr,
}
