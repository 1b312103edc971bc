//! One-dimensional arrays (`text[]`, `int[]`, …) as PostgreSQL's: held
//! as a JSON array of their elements, each as its type holds it (an
//! `int[]`'s are numbers, a `numeric[]`'s their text, NULL a JSON null);
//! read from PostgreSQL's text (`'{vip,"b c",NULL}'`) or a parameter's
//! array; written back as that text; and the operators and functions a
//! handler uses on them (`@>`, `<@`, `&&`, `||`, `[i]`, `= ANY`,
//! `array_length`, `cardinality`, `array_append`, `array_prepend`,
//! `array_remove`, `array_position`).

use serde_json::Value;

use super::parse::{Element, Function, SqlError};
use super::value::{cast, error, sql_equal};

/// `value` as an array of `element`s: a parameter's array or PostgreSQL's
/// text of one, each element cast to the element type.
pub fn cast_array(value: Value, element: Element) -> Result<Value, SqlError> {
    let items = match value {
        Value::Array(items) => items,
        Value::String(text) => parse(&text)?,
        other => return Err(malformed(&super::value::text(&other))),
    };
    items
        .into_iter()
        .map(|item| cast(item, element.ty()))
        .collect::<Result<_, _>>()
        .map(Value::Array)
}

/// The elements of PostgreSQL's text of a one-dimensional array, each a
/// string, or null for an unquoted NULL.
pub fn parse(text: &str) -> Result<Vec<Value>, SqlError> {
    let inner = text.trim();
    let Some(inner) = inner.strip_prefix('{') else {
        return Err(malformed_because(
            text,
            "Array value must start with \"{\" or dimension information.",
        ));
    };
    let Some(inner) = inner.strip_suffix('}') else {
        return Err(malformed_because(text, "Unexpected end of input."));
    };
    if inner.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut items = Vec::new();
    let mut chars = inner.chars();
    loop {
        let mut item = String::new();
        // Quoted or escaped: taken as it is, never NULL.
        let (mut quoted, mut escaped, mut closed, mut ended) = (false, false, false, false);
        loop {
            match chars.next() {
                None if !quoted => {
                    ended = true;
                    break;
                }
                Some(',') if !quoted => break,
                None => return Err(malformed_because(text, "Unexpected end of input.")),
                Some(c) if c.is_whitespace() && !quoted && (closed || item.is_empty()) => {}
                Some(_) if closed => {
                    return Err(malformed_because(text, "Unexpected array element."))
                }
                Some('\\') => {
                    item.push(chars.next().ok_or_else(|| malformed(text))?);
                    escaped = true;
                }
                Some('"') if quoted => (quoted, closed) = (false, true),
                Some('"') if item.is_empty() && !escaped => (quoted, escaped) = (true, true),
                Some('"') => return Err(malformed_because(text, "Unexpected array element.")),
                Some('{' | '}') if !quoted => {
                    return Err(SqlError::new(
                        "0A000",
                        format!(
                            "the simulation keeps arrays of one dimension: \"{}\"",
                            text.trim()
                        ),
                    ))
                }
                Some(c) => item.push(c),
            }
        }
        let bare = item.trim_end();
        items.push(if escaped {
            Value::String(item)
        } else if bare.eq_ignore_ascii_case("NULL") {
            Value::Null
        } else if bare.is_empty() {
            let at = if ended { "}" } else { "," };
            return Err(malformed_because(
                text,
                &format!("Unexpected \"{at}\" character."),
            ));
        } else {
            Value::String(bare.to_string())
        });
        if ended {
            return Ok(items);
        }
    }
}

fn malformed(text: &str) -> SqlError {
    error("22P02", format!("malformed array literal: \"{text}\""))
}

/// [`malformed`], with PostgreSQL's detail of what was wrong.
fn malformed_because(text: &str, detail: &str) -> SqlError {
    let mut refused = malformed(text);
    refused.detail = Some(detail.into());
    refused
}

/// PostgreSQL's text of an array: `{vip,"b c",NULL,t}`.
pub fn literal(items: &[Value]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|item| match item {
            Value::Null => "NULL".into(),
            Value::Bool(b) => if *b { "t" } else { "f" }.into(),
            Value::String(s) => quote(s),
            other => quote(&other.to_string()),
        })
        .collect();
    format!("{{{}}}", items.join(","))
}

/// An element's text, in double quotes where it must be (empty, NULL,
/// or holding a space, a brace, a comma, a quote or a backslash).
fn quote(text: &str) -> String {
    let plain = !text.is_empty()
        && !text.eq_ignore_ascii_case("NULL")
        && !text
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '{' | '}' | ',' | '"' | '\\'));
    if plain {
        return text.to_string();
    }
    let mut quoted = String::from("\"");
    for c in text.chars() {
        if matches!(c, '"' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted
}

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
            value => match cast_array(value, element)? {
                Value::Array(items) => Ok(Some(items)),
                _ => unreachable!("cast_array gives an array"),
            },
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
    fn text_reads_and_writes_as_postgresql() {
        let items = parse(r#"{a, "b c" ,"\"q\"",NULL,"NULL","",x\,y}"#).unwrap();
        assert_eq!(
            items,
            json!(["a", "b c", "\"q\"", null, "NULL", "", "x,y"])
                .as_array()
                .unwrap()
                .clone()
        );
        assert_eq!(literal(&items), r#"{a,"b c","\"q\"",NULL,"NULL","","x,y"}"#);
        assert_eq!(parse("{}").unwrap(), Vec::<Value>::new());
        assert_eq!(parse(" { } ").unwrap(), Vec::<Value>::new());
        assert_eq!(literal(&[json!(true), json!(1), json!(null)]), "{t,1,NULL}");
    }

    // proptest is a native dev-dependency.
    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Any elements, written as PostgreSQL's text, read back the same
        /// (quotes, backslashes, braces, commas, spaces, "NULL", "").
        #[test]
        fn text_reads_back_what_it_wrote(
            items in proptest::collection::vec(
                proptest::option::of("[a-zA-Z0-9 ,{}\"\\\\]{0,6}|NULL|null"),
                0..6,
            )
        ) {
            let items: Vec<Value> = items
                .into_iter()
                .map(|item| item.map_or(Value::Null, Value::String))
                .collect();
            proptest::prop_assert_eq!(parse(&literal(&items)).unwrap(), items);
        }
    }

    #[test]
    fn malformed_text_is_refused_as_postgresql_refuses_it() {
        for text in ["w", "{a", "{a,,b}", "{a,}", "{\"a\"b}"] {
            let refused = parse(text).unwrap_err();
            assert_eq!(refused.code, "22P02", "{text}");
            assert_eq!(
                refused.message,
                format!("malformed array literal: \"{text}\"")
            );
        }
        assert_eq!(
            parse("w").unwrap_err().detail.as_deref(),
            Some("Array value must start with \"{\" or dimension information.")
        );
        assert_eq!(parse("{{1},{2}}").unwrap_err().code, "0A000");
    }

    #[test]
    fn elements_cast_to_the_element_type() {
        assert_eq!(
            cast_array(json!("{1, 2,NULL}"), Element::Int).unwrap(),
            json!([1, 2, null])
        );
        assert_eq!(
            cast_array(json!(["3"]), Element::BigInt).unwrap(),
            json!([3])
        );
        assert_eq!(
            cast_array(json!("{t,false}"), Element::Bool).unwrap(),
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
