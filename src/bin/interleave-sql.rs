//! The page's SQL parser, a wasm module of its own: the script worker
//! leaves `sqlparser` out and loads this (`web/modules.js`) only for a script
//! that uses the `pg` module or a schema (`interleaveModules.sqlParse`
//! and `sqlSchema`). Built by `scripts/build-workers.sh`:
//!
//! ```text
//! cargo build --target wasm32-unknown-unknown --profile module-release \
//!     --no-default-features --features sql --bin interleave-sql
//! ```
//!
//! Natively the bin is an empty program (the CLI links the parser).

/// One query's plan, in `interleave::boundary::encode`'s bytes.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = sqlParse)]
pub fn sql_parse(text: &str) -> Vec<u8> {
    interleave::boundary::encode(&interleave::sql::parse::parse(text))
}

/// A schema's statements, in `interleave::boundary::encode`'s bytes.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = sqlSchema)]
pub fn sql_schema(text: &str) -> Vec<u8> {
    interleave::boundary::encode(&interleave::sql::parse::schema(text))
}

fn main() {}
