//! What crosses between the page's script worker and its parser modules
//! (`src/script/modules.rs`): plain serde values in postcard's bytes, as
//! the page and its worker talk (`src/model/wire.rs`). The modules answer
//! [`encode`]'s bytes; the worker reads them with [`decode`] (`None`: not
//! such an answer, which the bridges treat as a module not loaded).
//!
//! Postcard is not self-describing, so a JSON value inside a plan (a
//! literal) crosses as its JSON text ([`json_text`]). A compact format
//! keeps the worker's decoders small: each type the worker reads needs
//! one, and JSON's (field names, whitespace, escapes) cost the script's
//! runtime about 30 KB gzipped more.

use serde::de::DeserializeOwned;
use serde::Serialize;

pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).unwrap_or_default()
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    postcard::from_bytes(bytes).ok()
}

/// `#[serde(with = "crate::boundary::json_text")]`: a JSON value as its
/// JSON text, which any serde format carries.
pub mod json_text {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};
    use serde_json::Value;

    pub fn serialize<S: Serializer>(value: &Value, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&value.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        let text = String::deserialize(deserializer)?;
        serde_json::from_str(&text).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Literal(#[serde(with = "json_text")] serde_json::Value);

    #[test]
    fn a_json_value_crosses_as_its_text() {
        for value in [
            serde_json::json!(null),
            serde_json::json!(-7),
            serde_json::json!(u64::MAX),
            serde_json::json!(0.1),
            serde_json::json!("a \"quoted\" line\n"),
            serde_json::json!({"b": [1, true, {"c": null}], "a": "x"}),
        ] {
            let literal = Literal(value);
            assert_eq!(decode::<Literal>(&encode(&literal)), Some(literal));
        }
    }

    #[test]
    fn bytes_that_are_no_answer_decode_to_none() {
        assert_eq!(decode::<Literal>(b""), None);
        assert_eq!(decode::<Literal>(&[3, b'{', b'x', b'}']), None);
        assert_eq!(decode::<(String, u32)>(&[200]), None);
    }
}
