//! What crosses between the page's script worker and its parser modules
//! (`src/script/modules.rs`): plain serde values, as JSON text. The
//! modules answer [`to_json`]'s text; the worker reads it with
//! [`from_json`] (`None`: not such an answer, which the bridges treat as
//! a module not loaded).

use serde::de::DeserializeOwned;
use serde::Serialize;

pub fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

pub fn from_json<T: DeserializeOwned>(text: &str) -> Option<T> {
    serde_json::from_str(text).ok()
}
