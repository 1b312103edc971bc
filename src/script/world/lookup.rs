//! Equality lookups for the script's `db` tables: for a field a filter
//! has asked for by value (`db.findOne("orders", { user: 7 })`), the rows
//! that ever held each value there, by row id. A filter with such a field
//! reads only those rows, in table order, and checks the whole filter on
//! each, as the scan of every row does; so does the unique check of an
//! insert. A field's lookup is made the first time a filter names it and
//! kept as rows are written; it only grows (a row whose value moved away
//! or that was deleted stays listed, and the check of the filter drops
//! it), so it is never wrong, only sometimes longer than needed.

use std::collections::HashMap;

use serde_json::Value;

use super::Row;

/// A value as `===` compares it: numbers by value (`-0` as `0`), strings,
/// booleans, null. Arrays, objects and NaN equal nothing, and have none.
/// `strict_equal` compares two values by their keys, so `===` and the
/// lookups agree by construction. A lookup owns its keys (`Key`); a
/// comparison borrows the strings (`Key<&str>`).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(super) enum Key<S = String> {
    Null,
    Bool(bool),
    Number(u64),
    String(S),
}

impl<'a> Key<&'a str> {
    pub(super) fn of(value: &'a Value) -> Option<Self> {
        Some(match value {
            Value::Null => Key::Null,
            Value::Bool(b) => Key::Bool(*b),
            Value::Number(n) => {
                let n = n.as_f64()?;
                if n.is_nan() {
                    return None;
                }
                Key::Number((n + 0.0).to_bits())
            }
            Value::String(s) => Key::String(s),
            Value::Array(_) | Value::Object(_) => return None,
        })
    }

    pub(super) fn owned(self) -> Key {
        match self {
            Key::Null => Key::Null,
            Key::Bool(b) => Key::Bool(b),
            Key::Number(bits) => Key::Number(bits),
            Key::String(s) => Key::String(s.to_string()),
        }
    }
}

/// `Key::of`, owned.
pub(super) fn key_of(value: &Value) -> Option<Key> {
    Key::of(value).map(Key::owned)
}

/// A table's lookups, by field.
#[derive(Clone, Default)]
pub(super) struct Lookup {
    fields: HashMap<String, HashMap<Key, Vec<u64>>>,
}

impl Lookup {
    /// The ids of the rows that may hold `key` in `field` (ascending,
    /// each once); the field's lookup is made from `rows` (with their
    /// `ids`) if it has none yet.
    pub(super) fn ids(&mut self, field: &str, key: &Key, rows: &[Row], ids: &[u64]) -> Vec<u64> {
        let values = self.make(field, rows, ids);
        let mut found = values.get(key).cloned().unwrap_or_default();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// How many ids [`Lookup::ids`] lists at most for `key` in `field`
    /// (before it drops repeats), without listing them.
    pub(super) fn count(&mut self, field: &str, key: &Key, rows: &[Row], ids: &[u64]) -> usize {
        self.make(field, rows, ids).get(key).map_or(0, Vec::len)
    }

    /// The lookup of `field`, made from `rows` (with their `ids`) if there
    /// is none yet.
    pub(super) fn make(
        &mut self,
        field: &str,
        rows: &[Row],
        ids: &[u64],
    ) -> &mut HashMap<Key, Vec<u64>> {
        self.fields.entry(field.to_string()).or_insert_with(|| {
            let mut values: HashMap<Key, Vec<u64>> = HashMap::new();
            for (row, &id) in rows.iter().zip(ids) {
                if let Some(key) = row.get(field).and_then(key_of) {
                    values.entry(key).or_default().push(id);
                }
            }
            values
        })
    }

    /// Notes row `id`'s values in every field with a lookup (a row
    /// inserted, or its new values after an update).
    pub(super) fn note(&mut self, id: u64, row: &Row) {
        for (field, values) in &mut self.fields {
            if let Some(key) = row.get(field).and_then(key_of) {
                let ids = values.entry(key).or_default();
                if ids.last() != Some(&id) {
                    ids.push(id);
                }
            }
        }
    }
}
