//! The scalar functions and operators of the model that are not
//! arithmetic or comparison: `lower`, `upper`, `length`, `abs`,
//! `greatest`, `least`, `nullif`, `round`, `LIKE` and `ILIKE`, and json's
//! `->` and `->>`. Each answers NULL for a NULL argument as PostgreSQL's
//! does, and PostgreSQL's error for an argument of a type it does not
//! take.

use std::cmp::Ordering;

use serde_json::Value;

use super::numeric::Decimal;
use super::parse::{Function, SqlError, Type};
use super::value::{cast, compare_as, decimal, error, kind, number, text};

/// `function(values…)`; `numeric`: the call is a `numeric`'s (a `numeric`
/// argument among numbers), so its answer is one too.
pub fn call(function: Function, values: Vec<Value>, numeric: bool) -> Result<Value, SqlError> {
    if let Function::Text(function) = function {
        return super::strings::call(function, values);
    }
    let name = match function {
        Function::Lower => "lower",
        Function::Upper => "upper",
        Function::Length => "length",
        Function::Abs => "abs",
        Function::Greatest => "greatest",
        Function::Least => "least",
        Function::NullIf => "nullif",
        Function::Round => "round",
        Function::HashText => "hashtext",
        Function::Ceil => "ceil",
        Function::Floor => "floor",
        // The store takes advisory locks; eval runs the array functions
        // (`array::call`).
        other => unreachable!("{other:?} is not a scalar function"),
    };
    let no_such = |value: &Value| {
        error(
            "42883",
            format!("function {name}({}) does not exist", kind(value)),
        )
    };
    let first = values.first().cloned().unwrap_or(Value::Null);
    let answer = match function {
        Function::Greatest | Function::Least => {
            let mut best: Option<Value> = None;
            for value in values.into_iter().filter(|v| !v.is_null()) {
                let better = match &best {
                    None => true,
                    Some(best) => {
                        let ordering = compare_as(&value, best, numeric)
                            .ok_or_else(|| mismatch(name, &value, best))?;
                        match function {
                            Function::Greatest => ordering == Ordering::Greater,
                            _ => ordering == Ordering::Less,
                        }
                    }
                };
                if better {
                    best = Some(value);
                }
            }
            best.unwrap_or(Value::Null)
        }
        Function::NullIf => {
            let other = values.get(1).cloned().unwrap_or(Value::Null);
            let same = !first.is_null()
                && !other.is_null()
                && compare_as(&first, &other, numeric)
                    .ok_or_else(|| mismatch(name, &first, &other))?
                    == Ordering::Equal;
            if same {
                Value::Null
            } else {
                first
            }
        }
        _ if first.is_null() => Value::Null,
        // Any stable hash serves as a lock's key; PostgreSQL's own values
        // differ.
        Function::HashText => match &first {
            Value::String(s) => {
                let mut hash: u32 = 0x811c_9dc5;
                for byte in s.bytes() {
                    hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
                }
                Value::from(hash as i32)
            }
            _ => return Err(no_such(&first)),
        },
        Function::Lower | Function::Upper | Function::Length => {
            let Value::String(s) = &first else {
                return Err(no_such(&first));
            };
            match function {
                Function::Lower => Value::String(s.to_lowercase()),
                Function::Upper => Value::String(s.to_uppercase()),
                _ => Value::from(s.chars().count()),
            }
        }
        Function::Abs => match &first {
            Value::Number(n) if n.is_i64() => {
                let i = n.as_i64().unwrap_or(0);
                Value::from(
                    i.checked_abs()
                        .ok_or_else(|| error("22003", "bigint out of range".into()))?,
                )
            }
            Value::Number(_) if !numeric => crate::script::world::number(number(&first)?.abs()),
            Value::Number(_) | Value::String(_) => match decimal(&first)? {
                Some(d) if d.is_negative() => Value::String(
                    d.checked_neg()
                        .ok_or_else(|| error("22003", "value overflows numeric format".into()))?
                        .to_string(),
                ),
                Some(d) => Value::String(d.to_string()),
                None => return Err(no_such(&first)),
            },
            _ => return Err(no_such(&first)),
        },
        // A numeric's to a whole numeric; anything else's as a double.
        Function::Ceil | Function::Floor => match decimal(&first)? {
            Some(d) if numeric => {
                let overflow = || error("22003", "value overflows numeric format".into());
                let rounded = d.round(0).ok_or_else(overflow)?;
                let one = Decimal::from_i64(1);
                let step = match (function, rounded.compare(&d)) {
                    (Function::Ceil, Ordering::Less) => rounded.checked_add(one),
                    (Function::Floor, Ordering::Greater) => rounded.checked_sub(one),
                    _ => Some(rounded),
                };
                Value::String(step.ok_or_else(overflow)?.to_string())
            }
            Some(_) => {
                let x = number(&first)?;
                crate::script::world::number(match function {
                    Function::Ceil => x.ceil(),
                    _ => x.floor(),
                })
            }
            None => return Err(no_such(&first)),
        },
        Function::Round => {
            let places = match values.get(1) {
                None => None,
                Some(Value::Null) => return Ok(Value::Null),
                Some(places) => Some(
                    places
                        .as_i64()
                        .ok_or_else(|| no_such(places))
                        .and_then(|p| i32::try_from(p).map_err(|_| no_such(places)))?,
                ),
            };
            match (places, numeric) {
                // `round(double precision)`: to the nearest, ties to even.
                (None, false) => crate::script::world::number(number(&first)?.round_ties_even()),
                (places, _) => {
                    let d = decimal(&first)?.ok_or_else(|| no_such(&first))?;
                    let rounded = d
                        .round(places.unwrap_or(0))
                        .ok_or_else(|| error("22003", "value overflows numeric format".into()))?;
                    Value::String(rounded.to_string())
                }
            }
        }
        other => unreachable!("{other:?} is not a scalar function"),
    };
    // A `numeric` call's answer is a `numeric`, though an integer won.
    Ok(match (&answer, numeric) {
        (Value::Number(_), true) => cast(answer, Type::Numeric(None))?,
        _ => answer,
    })
}

fn mismatch(name: &str, a: &Value, b: &Value) -> SqlError {
    error(
        "42804",
        format!("{name} types {} and {} cannot be matched", kind(a), kind(b)),
    )
}

/// `value LIKE pattern` (`ILIKE`: either case): `%` is any run of
/// characters, `_` one, `\` takes the next one as itself. `None` when
/// either side is NULL.
pub fn like(value: &Value, pattern: &Value, insensitive: bool) -> Result<Option<bool>, SqlError> {
    if value.is_null() || pattern.is_null() {
        return Ok(None);
    }
    let (Value::String(value), Value::String(pattern)) = (value, pattern) else {
        let operator = if insensitive { "~~*" } else { "~~" };
        return Err(error(
            "42883",
            format!(
                "operator does not exist: {} {operator} {}",
                kind(value),
                kind(pattern)
            ),
        ));
    };
    let fold = |s: &str| -> Vec<char> {
        match insensitive {
            true => s.to_lowercase().chars().collect(),
            false => s.chars().collect(),
        }
    };
    let (value, pattern) = (fold(value), fold(pattern));
    let mut tokens = Vec::new();
    let mut chars = pattern.into_iter();
    while let Some(c) = chars.next() {
        tokens.push(match c {
            '%' => Token::Any,
            '_' => Token::One,
            '\\' => match chars.next() {
                Some(c) => Token::Char(c),
                None => {
                    return Err(error(
                        "22025",
                        "LIKE pattern must not end with escape character".into(),
                    ))
                }
            },
            c => Token::Char(c),
        });
    }
    Ok(Some(matches(&value, &tokens)))
}

#[derive(Clone, Copy, PartialEq)]
enum Token {
    Any,
    One,
    Char(char),
}

/// Whether `tokens` match all of `value`: the classic greedy match with
/// backtracking to the last `%` (linear in practice, never exponential).
fn matches(value: &[char], tokens: &[Token]) -> bool {
    let (mut v, mut t) = (0, 0);
    let mut retry: Option<(usize, usize)> = None;
    while v < value.len() {
        match tokens.get(t) {
            Some(Token::Any) => {
                retry = Some((t, v));
                t += 1;
            }
            Some(Token::One) => {
                v += 1;
                t += 1;
            }
            Some(Token::Char(c)) if *c == value[v] => {
                v += 1;
                t += 1;
            }
            _ => match retry {
                Some((at, from)) => {
                    t = at + 1;
                    v = from + 1;
                    retry = Some((at, from + 1));
                }
                None => return false,
            },
        }
    }
    tokens[t..].iter().all(|token| *token == Token::Any)
}

/// json's `a -> key` (`as_text`: `->>`): an object's field by name, an
/// array's element by index (from the end when negative); NULL when there
/// is none, or when `a` is a scalar.
pub fn json_field(a: &Value, as_text: bool, key: &Value) -> Result<Value, SqlError> {
    let found = match (a, key) {
        (Value::Object(object), Value::String(name)) => object.get(name),
        (Value::Array(items), Value::Number(n)) => n.as_i64().and_then(|i| {
            let index = if i < 0 { items.len() as i64 + i } else { i };
            usize::try_from(index).ok().and_then(|i| items.get(i))
        }),
        (Value::Object(_) | Value::Array(_), _) => None,
        // A json scalar (a json string is held as text) has no fields.
        (Value::String(_) | Value::Number(_) | Value::Bool(_), _) => None,
        (Value::Null, _) => None,
    };
    Ok(match (found, as_text) {
        (None | Some(Value::Null), true) => Value::Null,
        (None, false) => Value::Null,
        (Some(Value::String(s)), true) => Value::String(s.clone()),
        (Some(value), true) => Value::String(json_text(value)),
        (Some(value), false) => value.clone(),
    })
}

/// A json value as PostgreSQL's jsonb prints it: `{"a": 1, "b": [1, 2]}`.
pub fn json_text(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(json_text).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(object) => {
            let fields: Vec<String> = object
                .iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), json_text(v)))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        other => text_or_json(other),
    }
}

fn text_or_json(value: &Value) -> String {
    match value {
        Value::String(_) => value.to_string(),
        other => text(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn like_text(value: &str, pattern: &str, insensitive: bool) -> bool {
        like(&value.into(), &pattern.into(), insensitive)
            .expect("text")
            .expect("not null")
    }

    #[test]
    fn like_takes_percent_underscore_and_escapes() {
        assert!(like_text("alice@example.com", "%@example.com", false));
        assert!(like_text("alice@example.com", "a_ice%", false));
        assert!(!like_text("alice@example.com", "A%", false));
        assert!(like_text("alice@example.com", "A%", true));
        assert!(like_text("100%", "100\\%", false));
        assert!(!like_text("1000", "100\\%", false));
        assert!(like_text("", "%", false));
        assert!(!like_text("", "_", false));
        assert!(like_text("abcabd", "%ab_", false));
        assert!(!like_text("abcabx", "%abd", false));
        assert_eq!(like(&Value::Null, &"%".into(), false), Ok(None));
        assert_eq!(
            like(&Value::from(1), &"1%".into(), false).map_err(|e| e.code),
            Err("42883".into())
        );
    }

    #[test]
    fn greatest_and_least_skip_nulls() {
        let values = vec![Value::from(3), Value::Null, Value::from(-1)];
        assert_eq!(
            call(Function::Greatest, values.clone(), false),
            Ok(Value::from(3))
        );
        assert_eq!(call(Function::Least, values, false), Ok(Value::from(-1)));
        assert_eq!(
            call(Function::Least, vec![Value::Null], false),
            Ok(Value::Null)
        );
        // A numeric beside an integer: the integer answers as a numeric.
        let mixed = vec![Value::from("-2.50"), Value::from(0)];
        assert_eq!(call(Function::Greatest, mixed, true), Ok(Value::from("0")));
    }

    #[test]
    fn round_is_half_away_for_numeric_and_to_even_for_double() {
        let round = |v: Value, p: Option<i64>, numeric| {
            let mut values = vec![v];
            values.extend(p.map(Value::from));
            call(Function::Round, values, numeric)
        };
        assert_eq!(round("2.345".into(), Some(2), true), Ok("2.35".into()));
        assert_eq!(round("2.5".into(), None, true), Ok("3".into()));
        assert_eq!(round(Value::from(2.5), None, false), Ok(Value::from(2)));
        assert_eq!(round(Value::from(3.5), None, false), Ok(Value::from(4)));
    }

    #[test]
    fn text_functions_count_characters() {
        assert_eq!(
            call(Function::Length, vec!["héllo".into()], false),
            Ok(Value::from(5))
        );
        assert_eq!(
            call(Function::Lower, vec!["ÀB".into()], false),
            Ok("àb".into())
        );
        assert_eq!(
            call(Function::Upper, vec![Value::from(1)], false).map_err(|e| e.code),
            Err("42883".into())
        );
        assert_eq!(
            call(Function::Abs, vec![Value::from(-4)], false),
            Ok(Value::from(4))
        );
        assert_eq!(
            call(Function::Abs, vec!["-4.50".into()], true),
            Ok("4.50".into())
        );
        assert_eq!(
            call(Function::NullIf, vec!["".into(), "".into()], false),
            Ok(Value::Null)
        );
    }

    #[test]
    fn json_arrows_read_fields_and_elements() {
        let doc: Value = serde_json::json!({"a": {"b": [1, 2]}, "s": "x", "n": null});
        assert_eq!(
            json_field(&doc, false, &"a".into()),
            Ok(serde_json::json!({"b": [1, 2]}))
        );
        assert_eq!(
            json_field(&doc, true, &"a".into()),
            Ok(r#"{"b": [1, 2]}"#.into())
        );
        assert_eq!(json_field(&doc, true, &"s".into()), Ok("x".into()));
        assert_eq!(json_field(&doc, false, &"s".into()), Ok("x".into()));
        assert_eq!(json_field(&doc, true, &"n".into()), Ok(Value::Null));
        assert_eq!(json_field(&doc, true, &"missing".into()), Ok(Value::Null));
        let list = serde_json::json!([10, 20, 30]);
        assert_eq!(json_field(&list, true, &Value::from(-1)), Ok("30".into()));
        assert_eq!(json_field(&list, false, &Value::from(5)), Ok(Value::Null));
    }
}
