//! One-dimensional arrays (`text[]`, `int[]`, …) as PostgreSQL's: held
//! as a JSON array of their elements, each as its type holds it (an
//! `int[]`'s are numbers, a `numeric[]`'s their text, NULL a JSON null;
//! read and written as PostgreSQL's text by `array_text`, cast by
//! `value::cast_array`); the operators and functions a handler uses on
//! them (`@>`, `<@`, `&&`, `||`, `[i]`, `= ANY`,
//! `array_length`, `cardinality`, `array_append`, `array_prepend`,
//! `array_remove`, `array_position`).

use serde_json::Value;

use super::parse::{Element, Function, SqlError};
use super::value::{cast, cast_array, sql_equal};

/// `a @> b`: every element of `b` is one of `a`'s (a NULL is none).
pub fn contains(a: &[Value], b: &[Value]) -> bool {
    b.iter()
        .all(|wanted| !wanted.is_null() && a.iter().any(|item| equal(item, wanted)))
}

/// `a && b`: an element is in both.
pub fn overlap(a: &[Value], b: &[Value]) -> bool {
    b.iter()
        .any(|wanted| !wanted.is_null() && a.iter().any(|item| equal(item, wanted)))
}

fn equal(a: &Value, b: &Value) -> bool {
    !a.is_null() && !b.is_null() && sql_equal(a, b)
}

/// jsonb's `@>`: an object holds each of the other's keys with a value
/// that contains the other's; an array holds, for each of the other's
/// elements, one that contains it (at the top, a scalar too, as its
/// element); two scalars are equal.
pub fn json_contains(a: &Value, b: &Value, top: bool) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => b.iter().all(|(key, wanted)| {
            a.get(key)
                .is_some_and(|have| json_contains(have, wanted, false))
        }),
        (Value::Array(a), Value::Array(b)) => b.iter().all(|wanted| {
            a.iter().any(|have| {
                !wanted.is_array() && !wanted.is_object() && have == wanted
                    || (have.is_array() && wanted.is_array()
                        || have.is_object() && wanted.is_object())
                        && json_contains(have, wanted, false)
            })
        }),
        (Value::Array(a), scalar) if top && !scalar.is_object() => a.contains(scalar),
        (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => false,
        (a, b) => a == b,
    }
}

/// An array function on its arguments' values; `element`: the type of
/// its array's elements.
pub fn call(function: Function, values: Vec<Value>, element: Element) -> Result<Value, SqlError> {
    let items = |value: Value| -> Result<Option<Vec<Value>>, SqlError> {
        match value {
            Value::Null => Ok(None),
            value => cast_array(value, element).map(Some),
        }
    };
    let one = |value: Value| cast(value, element.ty());
    if function == Function::Array {
        return values
            .into_iter()
            .map(one)
            .collect::<Result<_, _>>()
            .map(Value::Array);
    }
    let mut values = values.into_iter();
    let first = values.next().unwrap_or(Value::Null);
    let second = values.next().unwrap_or(Value::Null);
    Ok(match function {
        Function::ArrayLength => match (items(first)?, second.as_i64()) {
            (Some(items), Some(1)) if !items.is_empty() => Value::from(items.len() as u64),
            _ => Value::Null,
        },
        Function::Cardinality => {
            items(first)?.map_or(Value::Null, |items| Value::from(items.len() as u64))
        }
        Function::ArrayAppend => {
            let mut all = items(first)?.unwrap_or_default();
            all.push(one(second)?);
            Value::Array(all)
        }
        Function::ArrayPrepend => {
            let mut all = vec![one(first)?];
            all.extend(items(second)?.unwrap_or_default());
            Value::Array(all)
        }
        Function::ArrayRemove => match items(first)? {
            Some(items) => remove(items, &one(second)?),
            None => Value::Null,
        },
        Function::ArrayPosition => match items(first)? {
            Some(items) => position(&items, &one(second)?),
            None => Value::Null,
        },
        other => unreachable!("{other:?} is not an array function"),
    })
}

/// `array[index]`: 1-based; NULL past either end.
pub fn element(items: &[Value], index: &Value) -> Value {
    index
        .as_i64()
        .or_else(|| index.as_str().and_then(|s| s.trim().parse().ok()))
        .and_then(|i| usize::try_from(i.checked_sub(1)?).ok())
        .and_then(|i| items.get(i).cloned())
        .unwrap_or(Value::Null)
}

/// `array_position(items, wanted)`: the 1-based index of the first
/// element not distinct from `wanted` (a NULL finds a NULL).
pub fn position(items: &[Value], wanted: &Value) -> Value {
    items
        .iter()
        .position(|item| match wanted {
            Value::Null => item.is_null(),
            _ => equal(item, wanted),
        })
        .map_or(Value::Null, |i| Value::from(i as u64 + 1))
}

/// `array_remove(items, unwanted)`: without every element not distinct
/// from it.
pub fn remove(items: Vec<Value>, unwanted: &Value) -> Value {
    Value::Array(
        items
            .into_iter()
            .filter(|item| match unwanted {
                Value::Null => !item.is_null(),
                _ => !equal(item, unwanted),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn elements_cast_to_the_element_type() {
        assert_eq!(
            Value::Array(cast_array(json!("{1, 2,NULL}"), Element::Int).unwrap()),
            json!([1, 2, null])
        );
        assert_eq!(
            Value::Array(cast_array(json!(["3"]), Element::BigInt).unwrap()),
            json!([3])
        );
        assert_eq!(
            Value::Array(cast_array(json!("{t,false}"), Element::Bool).unwrap()),
            json!([true, false])
        );
        let refused = cast_array(json!("{1,x}"), Element::Int).unwrap_err();
        assert_eq!(
            refused.message,
            "invalid input syntax for type integer: \"x\""
        );
    }

    #[test]
    fn containment_overlap_and_lookups() {
        let tags = json!(["vip", "beta", null]);
        let tags = tags.as_array().unwrap();
        assert!(contains(tags, &[json!("vip")]));
        assert!(contains(tags, &[]));
        assert!(!contains(tags, &[json!(null)]));
        assert!(overlap(tags, &[json!("zz"), json!("beta")]));
        assert!(!overlap(tags, &[json!(null)]));
        assert_eq!(element(tags, &json!(2)), json!("beta"));
        assert_eq!(element(tags, &json!(0)), Value::Null);
        assert_eq!(element(tags, &json!(9)), Value::Null);
        assert_eq!(position(tags, &json!("beta")), json!(2));
        assert_eq!(position(tags, &Value::Null), json!(3));
        assert_eq!(remove(tags.clone(), &json!("vip")), json!(["beta", null]));
    }

    #[test]
    fn jsonb_containment_follows_postgresql() {
        let doc = json!({"a": 1, "tags": ["x", "y"], "o": {"b": [1, 2]}});
        assert!(json_contains(&doc, &json!({"a": 1}), true));
        assert!(json_contains(&doc, &json!({"tags": ["y"]}), true));
        assert!(json_contains(&doc, &json!({"o": {"b": [2]}}), true));
        assert!(!json_contains(&doc, &json!({"a": "1"}), true));
        assert!(!json_contains(&doc, &json!({"tags": "x"}), true));
        assert!(json_contains(&json!([1, [2, 3]]), &json!([[3]]), true));
        assert!(json_contains(&json!(["x"]), &json!("x"), true));
        assert!(!json_contains(&json!([["x"]]), &json!(["x"]), true));
    }
}
