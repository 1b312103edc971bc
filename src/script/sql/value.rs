//! Values as the simulated PostgreSQL holds them (JSON, a `numeric` as
//! its text, a timestamp as its canonical text): their casts to a type,
//! their order and equality, their text, and PostgreSQL's errors for them.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::interval::Interval;
use super::numeric::Decimal;
use super::parse::{Element, SqlError, Type};

/// A row: a JSON object of its columns.
pub type Row = Map<String, Value>;

pub fn error(code: &'static str, message: String) -> SqlError {
    SqlError::new(code, message)
}

pub fn overflow() -> SqlError {
    error("22003", "value overflows numeric format".into())
}

/// A value as a `numeric` (`None`: neither a number nor text).
pub fn decimal(value: &Value) -> Result<Option<Decimal>, SqlError> {
    let parsed = match value {
        Value::Number(n) => match n.as_i64() {
            Some(i) => Some(Decimal::from_i64(i)),
            None => Decimal::parse(&n.to_string()),
        },
        Value::String(s) => Decimal::parse(s),
        _ => return Ok(None),
    };
    match parsed {
        Some(d) => Ok(Some(d)),
        // A number PostgreSQL's numeric holds and the model's does not.
        None if text(value).trim().parse::<f64>().is_ok_and(f64::is_finite) => Err(error(
            "22003",
            format!(
                "value overflows numeric format: \"{}\" (the simulation's numeric holds 38 digits, PostgreSQL's thousands)",
                text(value)
            ),
        )),
        None => Err(error(
            "22P02",
            format!("invalid input syntax for type numeric: \"{}\"", text(value)),
        )),
    }
}

pub fn is_float(value: &Value) -> bool {
    matches!(value, Value::Number(n) if n.is_f64())
}

pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "unknown",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "numeric",
        Value::String(_) => "text",
        Value::Array(_) | Value::Object(_) => "jsonb",
    }
}

pub fn number(value: &Value) -> Result<f64, SqlError> {
    match value {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(0.0)),
        Value::String(s) => s.trim().parse::<f64>().map_err(|_| {
            error(
                "22P02",
                format!("invalid input syntax for type numeric: \"{s}\""),
            )
        }),
        other => Err(error(
            "42883",
            format!("operator does not exist: {} + integer", kind(other)),
        )),
    }
}

/// SQL's `=` on two non-NULL values (a parameter's text meets a number by
/// value, as PostgreSQL casts it to the column's type).
pub fn sql_equal(a: &Value, b: &Value) -> bool {
    compare(a, b) == Some(Ordering::Equal)
}

/// Orders two non-NULL values, as `numeric`s if `numeric` (a `numeric`
/// column beside a parameter's text, which otherwise orders as text).
pub fn compare_as(a: &Value, b: &Value, numeric: bool) -> Option<Ordering> {
    if numeric {
        if let (Ok(Some(x)), Ok(Some(y))) = (decimal(a), decimal(b)) {
            return Some(x.compare(&y));
        }
    }
    compare(a, b)
}

pub fn equal_as(a: &Value, b: &Value, numeric: bool) -> bool {
    compare_as(a, b, numeric) == Some(Ordering::Equal)
}

/// Orders two non-NULL values; `None` if they do not compare.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    // Integers compare exactly (a bigint past 2^53 is not a double).
    if let (Some(x), Some(y)) = (int_value(a), int_value(b)) {
        if matches!((a, b), (Value::Number(_), _) | (_, Value::Number(_))) {
            return Some(x.cmp(&y));
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::Number(x), Value::String(s)) => {
            x.as_f64()?.partial_cmp(&s.trim().parse::<f64>().ok()?)
        }
        (Value::String(s), Value::Number(y)) => {
            s.trim().parse::<f64>().ok()?.partial_cmp(&y.as_f64()?)
        }
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::String(s)) | (Value::String(s), Value::Bool(x)) => {
            let parsed = match s.to_lowercase().as_str() {
                "t" | "true" => true,
                "f" | "false" => false,
                _ => return None,
            };
            Some(if matches!(a, Value::Bool(_)) {
                x.cmp(&parsed)
            } else {
                parsed.cmp(x)
            })
        }
        // jsonb: equal as values (an object's keys in any order), else
        // ordered by their text.
        (Value::Object(_) | Value::Array(_), Value::String(s)) => {
            let b: Value = serde_json::from_str(s).ok()?;
            compare(a, &b)
        }
        (Value::String(s), Value::Object(_) | Value::Array(_)) => {
            let a: Value = serde_json::from_str(s).ok()?;
            compare(&a, b)
        }
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
            match a == b {
                true => Some(Ordering::Equal),
                false => Some(a.to_string().cmp(&b.to_string())),
            }
        }
        _ => None,
    }
}

/// A value as a value of type `ty`, or PostgreSQL's error.
pub fn cast(value: Value, ty: Type) -> Result<Value, SqlError> {
    cast_as(value, ty, false)
}

/// [`cast`], where `numeric` says the value is a `numeric`'s text, which
/// an integer rounds (half away from zero), where untyped text must be an
/// integer's.
pub fn cast_as(value: Value, ty: Type, numeric: bool) -> Result<Value, SqlError> {
    let invalid = |name: &str, value: &Value| {
        error(
            "22P02",
            format!("invalid input syntax for type {name}: \"{}\"", text(value)),
        )
    };
    Ok(match (ty, value) {
        (_, Value::Null) => Value::Null,
        (Type::Array(element), value) => Value::Array(cast_array(value, element)?),
        // A number out of range, as PostgreSQL's int8-to-int4 cast says it;
        // a text, as its input function does.
        (Type::Int, Value::Number(n)) if n.as_i64().is_some_and(|i| i32::try_from(i).is_err()) => {
            return Err(error("22003", "integer out of range".into()));
        }
        (Type::Int, value) if int_value(&value).is_some_and(|i| i32::try_from(i).is_err()) => {
            return Err(error(
                "22003",
                format!(
                    "value \"{}\" is out of range for type integer",
                    text(&value)
                ),
            ));
        }
        (Type::Int | Type::BigInt, Value::Number(n)) => match n.as_i64() {
            Some(i) => Value::from(i),
            None => {
                let f = n.as_f64().unwrap_or(0.0).round();
                if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
                    return Err(error("22003", "bigint out of range".into()));
                }
                Value::from(f as i64)
            }
        },
        (Type::Int | Type::BigInt, Value::String(s)) if numeric => {
            match Decimal::parse(&s).and_then(Decimal::to_i64) {
                Some(i) => Value::from(i),
                None => return Err(error("22003", format!("{} out of range", ty.name()))),
            }
        }
        (Type::Int | Type::BigInt, Value::String(s)) => match s.trim().parse::<i64>() {
            Ok(i) => Value::from(i),
            Err(_) => return Err(invalid(ty.name(), &Value::String(s))),
        },
        (Type::Int | Type::BigInt, Value::Bool(b)) => Value::from(i64::from(b)),
        (Type::Numeric(typmod), value @ (Value::Number(_) | Value::String(_))) => {
            let Some(d) = decimal(&value)? else {
                return Err(invalid("numeric", &value));
            };
            Value::String(fit(d, typmod)?.to_string())
        }
        (Type::Float, Value::String(s)) => match s.trim().parse::<f64>() {
            Ok(f) => crate::script::world::number(f),
            Err(_) => return Err(invalid("double precision", &Value::String(s))),
        },
        (Type::Float, Value::Number(n)) => Value::Number(n),
        (Type::Bool, Value::Bool(b)) => Value::Bool(b),
        (Type::Bool, Value::String(s)) => match s.trim().to_lowercase().as_str() {
            "t" | "true" | "yes" | "on" | "1" | "y" => Value::Bool(true),
            "f" | "false" | "no" | "off" | "0" | "n" => Value::Bool(false),
            _ => return Err(invalid("boolean", &Value::String(s))),
        },
        (Type::Json | Type::Jsonb, Value::String(s)) => match serde_json::from_str(&s) {
            Ok(value) if ty == Type::Jsonb => jsonb(value),
            Ok(value) => value,
            // PostgreSQL names json for jsonb too, and quotes no value.
            Err(_) => return Err(error("22P02", "invalid input syntax for type json".into())),
        },
        (Type::Jsonb, value) => jsonb(value),
        (Type::Json, value) => value,
        (Type::Timestamp, value @ (Value::String(_) | Value::Number(_))) => Value::String(
            super::time::parse_timestamp(&text(&value), "timestamp with time zone")?,
        ),
        (Type::Date, value @ (Value::String(_) | Value::Number(_))) => {
            Value::String(super::time::parse_date(&text(&value))?)
        }
        (Type::Uuid, value @ (Value::String(_) | Value::Number(_))) => match uuid(&text(&value)) {
            Some(canonical) => Value::String(canonical),
            None => return Err(invalid("uuid", &value)),
        },
        (Type::Interval, value @ (Value::String(_) | Value::Number(_))) => {
            Value::String(Interval::parse(&text(&value), None)?.output())
        }
        (Type::Text, Value::String(s)) => Value::String(s),
        (Type::Text | Type::Uuid | Type::Timestamp | Type::Date, value) => {
            Value::String(text(&value))
        }
        (ty, value) => return Err(invalid(ty.name(), &value)),
    })
}

/// The elements of `value` as an array of `element`s: a parameter's
/// array or PostgreSQL's text of one, each cast to the element type.
pub fn cast_array(value: Value, element: Element) -> Result<Vec<Value>, SqlError> {
    let items = match value {
        Value::Array(items) => items,
        other => super::array_text::parse(&text(&other))?,
    };
    items
        .into_iter()
        .map(|item| cast(item, element.ty()))
        .collect()
}

/// A uuid as PostgreSQL reads one (32 hex digits, in any case, with a
/// hyphen after any group of four or none, braces around them allowed),
/// in its canonical form: lowercase, 8-4-4-4-12.
fn uuid(text: &str) -> Option<String> {
    let inner = text.trim();
    let inner = match inner.strip_prefix('{') {
        Some(rest) => rest.strip_suffix('}')?,
        None => inner,
    };
    let mut digits = String::with_capacity(32);
    let mut previous = None;
    for c in inner.chars() {
        match c {
            '-' if digits.len() % 4 == 0 && previous.is_some_and(|p: char| p != '-') => {}
            c if c.is_ascii_hexdigit() => digits.push(c.to_ascii_lowercase()),
            _ => return None,
        }
        previous = Some(c);
    }
    if digits.len() != 32 || inner.ends_with('-') {
        return None;
    }
    Some(format!(
        "{}-{}-{}-{}-{}",
        &digits[..8],
        &digits[8..12],
        &digits[12..16],
        &digits[16..20],
        &digits[20..]
    ))
}

/// An integer's value, from a number or an integer's text.
fn int_value(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// jsonb's `||`: two objects merge (the right one's keys win), else both
/// sides are arrays (a value that is not one becomes its only element) and
/// they concatenate. A side that is text is read as jsonb.
pub fn jsonb_concat(a: &Value, b: &Value) -> Result<Value, SqlError> {
    let json = |value: &Value| match value {
        Value::String(s) => serde_json::from_str(s).map_err(|_| {
            error(
                "22P02",
                format!("invalid input syntax for type json: \"{s}\""),
            )
        }),
        other => Ok(other.clone()),
    };
    Ok(match (json(a)?, json(b)?) {
        (Value::Object(mut left), Value::Object(right)) => {
            left.extend(right);
            jsonb(Value::Object(left))
        }
        (left, right) => {
            let items = |value: Value| match value {
                Value::Array(items) => items,
                other => vec![other],
            };
            let mut all = items(left);
            all.extend(items(right));
            Value::Array(all)
        }
    })
}

/// A jsonb value as PostgreSQL keeps it: each object's keys shorter first,
/// then byte by byte (so they come back in that order).
pub fn jsonb(value: Value) -> Value {
    match value {
        Value::Object(object) => {
            let mut entries: Vec<(String, Value)> = object.into_iter().collect();
            entries.sort_by(|(a, _), (b, _)| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
            Value::Object(entries.into_iter().map(|(k, v)| (k, jsonb(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(jsonb).collect()),
        other => other,
    }
}

/// A `numeric(precision, scale)`'s value: rounded to its scale, or
/// PostgreSQL's error when more digits than `precision - scale` are left
/// before the point.
fn fit(value: Decimal, typmod: Option<(u16, i16)>) -> Result<Decimal, SqlError> {
    let Some((precision, scale)) = typmod else {
        return Ok(value);
    };
    let rounded = value.round(scale.into()).ok_or_else(overflow)?;
    let most = i32::from(precision) - i32::from(scale);
    if rounded.integer_digits().is_some_and(|digits| digits > most) {
        let bound = if most == 0 {
            "1".to_string()
        } else {
            format!("10^{most}")
        };
        return Err(SqlError {
            detail: Some(format!(
                "A field with precision {precision}, scale {scale} must round to an absolute value less than {bound}."
            )),
            ..SqlError::new("22003", "numeric field overflow")
        });
    }
    Ok(rounded)
}

/// A value as PostgreSQL prints it in text.
pub fn text(value: &Value) -> String {
    match value {
        Value::Null => "NULL".into(),
        Value::String(s) => s.clone(),
        Value::Bool(true) => "true".into(),
        Value::Bool(false) => "false".into(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}
