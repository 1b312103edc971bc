//! Values made into JSON, as PostgreSQL's `to_json` makes them: numbers
//! stay numbers, a `timestamptz` becomes its ISO 8601 text with its
//! offset, an array a JSON array, a json value itself; and the functions
//! that build JSON from them: `json_build_object` and
//! `jsonb_build_object`, `json_build_array` and `jsonb_build_array`,
//! `to_json` and `to_jsonb` (a `jsonb` with its keys in PostgreSQL's
//! order, one per name).

use serde_json::{Map, Value};

use super::parse::{JsonFunction, SqlError, Type};
use super::value::{error, jsonb, text};

/// `value`, of type `ty`, as JSON.
pub fn to_json(value: Value, ty: Type) -> Value {
    match (value, ty) {
        (Value::Null, _) => Value::Null,
        // A numeric is kept as its text.
        (Value::String(text), Type::Numeric(_)) => match text.parse::<f64>() {
            Ok(n) if n.is_finite() => crate::script::world::number(n),
            _ => Value::String(text),
        },
        (Value::String(kept), Type::Timestamp) => Value::String(iso(&kept)),
        // A json value given as its text (a literal, a parameter).
        (Value::String(text), Type::Json | Type::Jsonb) => {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        }
        (Value::Array(items), Type::Array(element)) => Value::Array(
            items
                .into_iter()
                .map(|item| to_json(item, element.ty()))
                .collect(),
        ),
        (value, _) => value,
    }
}

/// A kept timestamp (`2024-03-05T10:00:00.120Z`) as PostgreSQL's JSON
/// writes a `timestamptz` in a UTC session: `2024-03-05T10:00:00.12+00:00`.
fn iso(kept: &str) -> String {
    let Some(time) = kept.strip_suffix('Z') else {
        return kept.to_string();
    };
    let time = match time.split_once('.') {
        Some((whole, fraction)) => match fraction.trim_end_matches('0') {
            "" => whole.to_string(),
            fraction => format!("{whole}.{fraction}"),
        },
        None => time.to_string(),
    };
    format!("{time}+00:00")
}

/// `function(values…)`, each value with its type.
pub fn call(function: JsonFunction, values: Vec<(Value, Type)>) -> Result<Value, SqlError> {
    let binary = function.is_binary();
    let built = match function {
        JsonFunction::JsonBuildObject | JsonFunction::JsonbBuildObject => {
            if values.len() % 2 == 1 {
                return Err(error(
                    "22023",
                    "argument list must have even number of elements".into(),
                ));
            }
            let mut object = Map::new();
            let mut pairs = values.into_iter();
            let mut n = 1;
            while let (Some((key, _)), Some((value, ty))) = (pairs.next(), pairs.next()) {
                if key.is_null() {
                    return Err(error(
                        "22023",
                        format!("argument {n}: key must not be null"),
                    ));
                }
                object.insert(text(&key), to_json(value, ty));
                n += 2;
            }
            Value::Object(object)
        }
        JsonFunction::JsonBuildArray | JsonFunction::JsonbBuildArray => Value::Array(
            values
                .into_iter()
                .map(|(value, ty)| to_json(value, ty))
                .collect(),
        ),
        JsonFunction::ToJson | JsonFunction::ToJsonb => {
            let Some((value, ty)) = values.into_iter().next() else {
                return Ok(Value::Null);
            };
            if value.is_null() {
                return Ok(Value::Null);
            }
            to_json(value, ty)
        }
    };
    Ok(match binary {
        true => jsonb(built),
        false => built,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timestamp_is_its_iso_text_with_its_offset() {
        assert_eq!(iso("2024-03-05T10:00:00.000Z"), "2024-03-05T10:00:00+00:00");
        assert_eq!(
            iso("2024-03-05T10:00:00.120Z"),
            "2024-03-05T10:00:00.12+00:00"
        );
        assert_eq!(iso("infinity"), "infinity");
    }
}
