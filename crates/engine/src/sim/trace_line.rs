//! A trace event as one JSON line, names instead of codes: what
//! `interleave run --trace` prints for a story or a script, and what the
//! page exports as `trace.json`. One shape for all three.

use std::fmt::Write;

use serde::Serialize;

use crate::sim::trace::{OpKind, Outcome, Site, TraceEvent};

/// A trace event as one JSON line. `line` and `column` place it in the
/// code (a story's listing line of its site, or a script's own position;
/// a story has no column); `message` is a script log's text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceLine {
    pub step: u32,
    pub time_us: u64,
    pub request: u32,
    pub what: &'static str,
    pub op: Option<OpKind>,
    pub key: String,
    pub outcome: Outcome,
    pub site: Site,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub detail: u64,
    pub message: Option<String>,
}

impl TraceLine {
    /// `event`, its key spelled `key`, placed nowhere yet.
    pub fn of(event: &TraceEvent, key: String) -> TraceLine {
        TraceLine {
            step: event.step,
            time_us: event.time,
            request: event.request,
            what: event.what.name(),
            op: event.what.op(),
            key,
            outcome: event.outcome,
            site: event.site,
            line: None,
            column: None,
            detail: event.detail,
            message: None,
        }
    }

    /// The line as JSON, as `serde_json` writes it, without `serde_json`
    /// (the page's wasm has a size budget): numbers, escaped strings, and
    /// the enums' serde names.
    pub fn to_json(&self) -> String {
        let optional = |value: Option<String>| value.unwrap_or_else(|| "null".to_string());
        let number = |value: Option<u32>| optional(value.map(|n| n.to_string()));
        format!(
            r#"{{"step":{},"time_us":{},"request":{},"what":"{}","op":{},"key":{},"outcome":"{}","site":"{}","line":{},"column":{},"detail":{},"message":{}}}"#,
            self.step,
            self.time_us,
            self.request,
            self.what,
            optional(self.op.map(|op| format!("\"{}\"", variant_name(&op)))),
            json_string(&self.key),
            variant_name(&self.outcome),
            variant_name(&self.site),
            number(self.line),
            number(self.column),
            self.detail,
            optional(self.message.as_deref().map(json_string)),
        )
    }
}

/// A string as a JSON string literal, escaped as `serde_json` escapes it.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        // The short escapes, then any other control character as \u00XX.
        let short = b"\"\\\x08\x0c\n\r\t"
            .iter()
            .position(|&b| u32::from(b) == c as u32);
        if let Some(at) = short {
            out.push('\\');
            out.push(char::from(b"\"\\bfnrt"[at]));
        } else if (c as u32) < 0x20 {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// The serde name of a unit enum variant (its `rename_all` applied).
fn variant_name<T: Serialize>(value: &T) -> &'static str {
    value.serialize(VariantName).unwrap_or("")
}

/// A serializer that only reads a unit variant's name.
struct VariantName;

impl serde::Serializer for VariantName {
    type Ok = &'static str;
    type Error = std::fmt::Error;
    type SerializeSeq = serde::ser::Impossible<&'static str, std::fmt::Error>;
    type SerializeTuple = serde::ser::Impossible<&'static str, std::fmt::Error>;
    type SerializeTupleStruct = serde::ser::Impossible<&'static str, std::fmt::Error>;
    type SerializeTupleVariant = serde::ser::Impossible<&'static str, std::fmt::Error>;
    type SerializeMap = serde::ser::Impossible<&'static str, std::fmt::Error>;
    type SerializeStruct = serde::ser::Impossible<&'static str, std::fmt::Error>;
    type SerializeStructVariant = serde::ser::Impossible<&'static str, std::fmt::Error>;

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<&'static str, Self::Error> {
        Ok(variant)
    }

    refuse_scalars!(
        serialize_bool: bool,
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_f32: f32,
        serialize_f64: f64,
        serialize_char: char,
        serialize_str: &str,
        serialize_bytes: &[u8],
        serialize_unit_struct: &'static str,
    );

    fn serialize_none(self) -> Result<&'static str, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<&'static str, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_unit(self) -> Result<&'static str, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<&'static str, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, Self::Error> {
        Err(std::fmt::Error)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Self::Error> {
        Err(std::fmt::Error)
    }
}

/// `VariantName` refuses every value that is not a unit variant.
macro_rules! refuse_scalars {
    ($($name:ident: $type:ty),* $(,)?) => {
        $(fn $name(self, _: $type) -> Result<&'static str, Self::Error> {
            Err(std::fmt::Error)
        })*
    };
}
use refuse_scalars;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::trace::{TraceKey, What};

    #[test]
    fn a_line_reads_as_json() {
        let event = TraceEvent {
            step: 3,
            time: 1_000,
            request: 2,
            what: What::Complete(OpKind::CacheGet),
            key: TraceKey::Data(0),
            outcome: Outcome::Miss,
            site: Site::Get,
            detail: 0,
        };
        let line = TraceLine {
            line: Some(3),
            message: Some("say \"hi\"\n".to_string()),
            ..TraceLine::of(&event, "item:0".to_string())
        };
        assert_eq!(
            line.to_json(),
            r#"{"step":3,"time_us":1000,"request":2,"what":"complete","op":"cache_get","key":"item:0","outcome":"miss","site":"get","line":3,"column":null,"detail":0,"message":"say \"hi\"\n"}"#
        );
    }
}
