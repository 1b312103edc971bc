//! The script engine as a wasm of its own, for the page to load on demand
//! (the page's `interleave-web` never links boa). Built with the
//! `script-wasm` feature:
//!
//! ```text
//! cargo build --target wasm32-unknown-unknown --profile wasm-release \
//!     --features script-wasm --bin interleave-script-web
//! wasm-bindgen --target web --out-dir dist-script \
//!     target/wasm32-unknown-unknown/wasm-release/interleave-script-web.wasm
//! ```
//!
//! Natively the bin is an empty program (the CLI runs scripts).

/// Runs `code` (or, when it is empty, the fragment's `code=`/`example=`)
/// on the scenario of `fragment` and answers the metrics JSON of
/// `interleave run --script` (`trace_hash` included), or
/// `{"error": "..."}`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn run_script(code: &str, fragment: &str) -> String {
    interleave::script::cli::run_to_json(code, fragment)
}

fn main() {}
