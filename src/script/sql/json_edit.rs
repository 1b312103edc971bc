//! Reading and editing a JSON document in place, as PostgreSQL 15 does:
//! `#>` and `#>>` (the value at a path), `jsonb_set` (a value put at a
//! path, so `UPDATE … SET data = jsonb_set(data, '{count}', …)` changes
//! one field in one atomic statement rather than a read and a write),
//! jsonb's `-` (a key, an array's element, or several keys taken out) and
//! `json_array_length`/`jsonb_array_length`. A path is a `text[]` of
//! object keys and array indexes (negative from the end).

use serde_json::Value;

use super::functions::{json_field, json_text};
use super::value::{cast, error, jsonb, text};
use super::SqlError;
use crate::sql::{Element, Type};

/// `doc #> path` (`as_text`: `#>>`): the value at `path`, NULL where the
/// path leads nowhere; an empty path is the document itself.
pub fn at_path(doc: &Value, path: &Value, as_text: bool) -> Result<Value, SqlError> {
    if doc.is_null() || path.is_null() {
        return Ok(Value::Null);
    }
    let mut found = doc.clone();
    for step in steps(path)? {
        let key = match &found {
            Value::Array(_) => match step.parse::<i64>() {
                Ok(index) => Value::from(index),
                Err(_) => return Ok(Value::Null),
            },
            _ => Value::String(step),
        };
        found = json_field(&found, false, &key)?;
        if found.is_null() {
            return Ok(Value::Null);
        }
    }
    Ok(match (found, as_text) {
        (Value::String(s), true) => Value::String(s),
        (found, true) => Value::String(json_text(&found)),
        (found, false) => found,
    })
}

/// `doc - what` on a jsonb: a text takes that key out of an object (or
/// every such string out of an array), an integer the array's element at
/// that index (negative from the end), a `text[]` each of its keys.
pub fn minus(doc: Value, what: Value, what_type: Type) -> Result<Value, SqlError> {
    if doc.is_null() || what.is_null() {
        return Ok(Value::Null);
    }
    let keys = match (what, what_type) {
        (Value::Number(n), _) => {
            let index = n.as_i64().unwrap_or(0);
            return match doc {
                Value::Array(mut items) => {
                    let at = if index < 0 {
                        items.len() as i64 + index
                    } else {
                        index
                    };
                    if let Ok(at) = usize::try_from(at) {
                        if at < items.len() {
                            items.remove(at);
                        }
                    }
                    Ok(Value::Array(items))
                }
                Value::Object(_) => Err(error(
                    "22023",
                    "cannot delete from object using integer index".into(),
                )),
                _ => Err(error("22023", "cannot delete from scalar".into())),
            };
        }
        (value, Type::Array(_)) => steps(&value)?,
        (value, _) => vec![text(&value)],
    };
    Ok(match doc {
        Value::Object(mut fields) => {
            for key in &keys {
                fields.remove(key);
            }
            // Removing may move the last key into the gap: keep jsonb's order.
            jsonb(Value::Object(fields))
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .filter(|item| !item.as_str().is_some_and(|s| keys.iter().any(|k| k == s)))
                .collect(),
        ),
        _ => return Err(error("22023", "cannot delete from scalar".into())),
    })
}

/// `jsonb_set(doc, path, value [, create])`: `doc` with `value` at
/// `path`. The last step replaces what is there, or adds it where
/// `create` (the default) allows: a new key, or beyond an array's end
/// (before its start, for an index below it). A path whose earlier steps
/// lead nowhere leaves `doc` as it is. Strict: any NULL argument gives
/// NULL (so `jsonb_set(data, '{k}', NULL)` is NULL, as on PostgreSQL).
pub fn set(doc: Value, path: &Value, value: Value, create: &Value) -> Result<Value, SqlError> {
    if doc.is_null() || path.is_null() || value.is_null() || create.is_null() {
        return Ok(Value::Null);
    }
    let steps = steps(path)?;
    let create = create.as_bool().unwrap_or(true);
    let mut doc = doc;
    if let Value::Object(_) | Value::Array(_) = doc {
        put(&mut doc, &steps, 0, value, create)?;
    } else if !steps.is_empty() {
        return Err(error("22023", "cannot set path in scalar".into()));
    }
    Ok(jsonb(doc))
}

/// Puts `value` at `steps[at..]` under `node`.
fn put(
    node: &mut Value,
    steps: &[String],
    at: usize,
    value: Value,
    create: bool,
) -> Result<(), SqlError> {
    let Some(step) = steps.get(at) else {
        return Ok(());
    };
    let last = at + 1 == steps.len();
    match node {
        Value::Object(fields) => {
            if last {
                if create || fields.contains_key(step) {
                    fields.insert(step.clone(), value);
                }
            } else if let Some(child) = fields.get_mut(step) {
                put(child, steps, at + 1, value, create)?;
            }
        }
        Value::Array(items) => {
            let Ok(index) = step.parse::<i64>() else {
                return Err(error(
                    "22P02",
                    format!(
                        "path element at position {} is not an integer: \"{step}\"",
                        at + 1
                    ),
                ));
            };
            let len = items.len() as i64;
            let at_index = if index < 0 { len + index } else { index };
            match usize::try_from(at_index) {
                Ok(i) if at_index < len => {
                    if last {
                        items[i] = value;
                    } else {
                        put(&mut items[i], steps, at + 1, value, create)?;
                    }
                }
                _ if last && create => match at_index < 0 {
                    true => items.insert(0, value),
                    false => items.push(value),
                },
                _ => {}
            }
        }
        // A scalar on the way: nothing is set.
        _ => {}
    }
    Ok(())
}

/// `json_array_length(doc)` and `jsonb_array_length(doc)`: its elements;
/// NULL for NULL, and PostgreSQL's 22023 for anything but an array.
pub fn array_length(doc: &Value) -> Result<Value, SqlError> {
    match doc {
        Value::Null => Ok(Value::Null),
        Value::Array(items) => Ok(Value::from(items.len() as u64)),
        Value::Object(_) => Err(error(
            "22023",
            "cannot get array length of a non-array".into(),
        )),
        _ => Err(error("22023", "cannot get array length of a scalar".into())),
    }
}

/// A path's steps: a `text[]`, or its text (`'{nested,y}'`).
fn steps(path: &Value) -> Result<Vec<String>, SqlError> {
    let items = match path {
        Value::Array(items) => items.clone(),
        other => match cast(other.clone(), Type::Array(Element::Text))? {
            Value::Array(items) => items,
            _ => Vec::new(),
        },
    };
    Ok(items.iter().map(text).collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_path_reads_through_objects_and_arrays() {
        let doc = json!({"a": {"b": [1, {"c": "d"}]}});
        assert_eq!(
            at_path(&doc, &json!("{a,b,1,c}"), true).unwrap(),
            json!("d")
        );
        assert_eq!(
            at_path(&doc, &json!("{a,b,-1}"), false).unwrap(),
            json!({"c": "d"})
        );
        assert_eq!(at_path(&doc, &json!("{a,x}"), false).unwrap(), Value::Null);
        assert_eq!(
            at_path(&doc, &json!("{a,b,z}"), false).unwrap(),
            Value::Null
        );
    }

    #[test]
    fn set_adds_replaces_and_keeps() {
        let doc = json!({"list": [10, 20, 30], "n": 1});
        let put = |path: &str, create: bool| {
            set(doc.clone(), &json!(path), json!(5), &json!(create)).unwrap()
        };
        assert_eq!(put("{n}", true), json!({"n": 5, "list": [10, 20, 30]}));
        assert_eq!(put("{list,-10}", true)["list"], json!([5, 10, 20, 30]));
        assert_eq!(put("{list,10}", true)["list"], json!([10, 20, 30, 5]));
        assert_eq!(put("{m}", false), jsonb(doc.clone()));
        assert_eq!(put("{x,y}", true), jsonb(doc.clone()));
        let error = set(doc.clone(), &json!("{list,a}"), json!(1), &json!(true)).unwrap_err();
        assert_eq!(error.code, "22P02");
        assert_eq!(
            set(doc, &json!("{n}"), Value::Null, &json!(true)).unwrap(),
            Value::Null
        );
    }

    #[test]
    fn minus_takes_keys_and_elements_out() {
        let list = json!(["a", "b", "a", 3]);
        assert_eq!(
            minus(list.clone(), json!("a"), Type::Text).unwrap(),
            json!(["b", 3])
        );
        assert_eq!(
            minus(list.clone(), json!(-1), Type::Int).unwrap(),
            json!(["a", "b", "a"])
        );
        assert_eq!(
            minus(list, json!(9), Type::Int).unwrap(),
            json!(["a", "b", "a", 3])
        );
        let doc = json!({"a": 1, "b": 2, "c": 3});
        let taken = minus(doc.clone(), json!("{a,c}"), Type::Array(Element::Text)).unwrap();
        assert_eq!(taken, json!({"b": 2}));
        assert_eq!(minus(doc, json!(0), Type::Int).unwrap_err().code, "22023");
    }
}
