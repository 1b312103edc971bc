//! Equality lookups: what lets a statement whose `WHERE` pins a column to
//! one value (`WHERE id = $1`, `WHERE user_id = $1 AND event_id = 2`)
//! read the rows that may hold it instead of every row of the table, so a
//! run of 20,000 requests that each read their own row is not quadratic.
//!
//! For each column of a type whose values are equal exactly when their
//! JSON is (integers, text, uuids, booleans), a table keeps the slots
//! whose row held each value in some write (committed, pending or rolled
//! back since): more slots than match, never fewer. A scan through it
//! ([`Database::matching`](super::Database)) reads those slots in heap
//! order and checks each one's visible row against the whole filter, as
//! the full scan does; a debug build checks that both find the same rows.

use std::collections::HashMap;

use serde_json::Value;

use super::super::eval::{eval, has_column, Context, Row};
use crate::sql::{Column, Expr, Op, Type};

/// One column's value, as a lookup keys it.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub(super) enum Key {
    Int(i64),
    Text(String),
    Bool(bool),
}

impl Key {
    /// The key of a `ty` column's value, if the lookup keeps that type.
    fn of(ty: Type, value: &Value) -> Option<Key> {
        match (ty, value) {
            (Type::Int | Type::BigInt, Value::Number(n)) => n.as_i64().map(Key::Int),
            (Type::Text | Type::Uuid, Value::String(s)) => Some(Key::Text(s.clone())),
            (Type::Bool, Value::Bool(b)) => Some(Key::Bool(*b)),
            _ => None,
        }
    }
}

/// A table's lookups, by column name.
#[derive(Clone, Debug, Default)]
pub(super) struct Lookup(HashMap<String, HashMap<Key, Vec<usize>>>);

impl Lookup {
    /// Slot `index` holds `row` now (a write's new version).
    pub(super) fn note(&mut self, columns: &[Column], index: usize, row: &Row) {
        for column in columns {
            let Some(key) = row.get(&column.name).and_then(|v| Key::of(column.ty, v)) else {
                continue;
            };
            let by_value = match self.0.get_mut(&column.name) {
                Some(by_value) => by_value,
                None => self.0.entry(column.name.clone()).or_default(),
            };
            let slots = by_value.entry(key).or_default();
            if slots.last() != Some(&index) {
                slots.push(index);
            }
        }
    }

    /// The slots whose row ever held each of `values` in its column (a
    /// unique key's, or a foreign key's), read through the first of them
    /// the lookup keeps; `None` if it keeps none of them (a full scan
    /// then). Sorted, each once.
    pub(super) fn holding<'a>(
        &self,
        columns: &[Column],
        values: impl IntoIterator<Item = (&'a String, &'a Value)>,
    ) -> Option<Vec<usize>> {
        values.into_iter().find_map(|(name, value)| {
            let column = columns.iter().find(|c| c.name == *name)?;
            let key = Key::of(column.ty, value)?;
            let mut slots = (self.0.get(name).and_then(|by_value| by_value.get(&key)))
                .cloned()
                .unwrap_or_default();
            slots.sort_unstable();
            slots.dedup();
            Some(slots)
        })
    }

    /// The slots that may hold a row `filter` matches, if one of its
    /// conjuncts pins a kept column to a constant (the fewest such);
    /// `None` if none does (a full scan then). Sorted, each once.
    pub(super) fn candidates(
        &self,
        columns: &[Column],
        filter: &Expr,
        ctx: &Context,
    ) -> Option<Vec<usize>> {
        let mut best: Option<&[usize]> = None;
        let mut pinned = false;
        for (name, constant) in pins(filter) {
            let Some(column) = columns.iter().find(|c| c.name == *name) else {
                continue;
            };
            let Some(key) = constant_key(column, name, constant, ctx) else {
                continue;
            };
            pinned = true;
            let slots = self
                .0
                .get(name.as_str())
                .and_then(|by_value| by_value.get(&key))
                .map_or(&[][..], Vec::as_slice);
            if best.is_none_or(|best| slots.len() < best.len()) {
                best = Some(slots);
            }
        }
        if !pinned {
            return None;
        }
        let mut slots = best.unwrap_or_default().to_vec();
        slots.sort_unstable();
        slots.dedup();
        Some(slots)
    }
}

/// The conjuncts of `filter` that compare a column with `=` to a constant
/// (a value, or a cast of one): the column's name and the constant.
fn pins(filter: &Expr) -> Vec<(&String, &Expr)> {
    let mut found = Vec::new();
    let mut stack = vec![filter];
    while let Some(expr) = stack.pop() {
        match expr {
            Expr::Binary(left, Op::And, right) => {
                stack.push(right);
                stack.push(left);
            }
            Expr::Binary(left, Op::Eq, right) => match (&**left, &**right) {
                (Expr::Column(name), constant) | (constant, Expr::Column(name))
                    if is_constant(constant) =>
                {
                    found.push((name, constant));
                }
                _ => {}
            },
            _ => {}
        }
    }
    found
}

/// A value, or a cast of one: evaluated once, it is what every row's
/// comparison sees (nothing a row or a generator gives).
fn is_constant(expr: &Expr) -> bool {
    match expr {
        Expr::Value(_) => true,
        Expr::Cast(inner, _) => matches!(**inner, Expr::Value(_)) && !has_column(inner),
        _ => false,
    }
}

/// The key a row's `column` must have to equal `constant`, as the
/// comparison casts it (`Context::as_column`); `None` where that is not a
/// key the lookup keeps (or the cast fails: the full scan reports it).
fn constant_key(column: &Column, name: &str, constant: &Expr, ctx: &Context) -> Option<Key> {
    let value = eval(constant, None, None, ctx).ok()?;
    let column_expr = Expr::Column(name.to_string());
    let value = ctx.as_column(&column_expr, Some(constant), value).ok()?;
    Key::of(column.ty, &value)
}
