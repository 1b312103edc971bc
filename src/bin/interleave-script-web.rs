//! The page's script edition: the same app as `interleave-web`, built with
//! the JavaScript engine (feature `script-wasm`), so a script scenario gets
//! the whole debugger. The page loads it only when a script scenario opens
//! (web/boot.js); `scripts/build-script-edition.sh` builds it:
//!
//! ```text
//! cargo build --target wasm32-unknown-unknown --profile script-release \
//!     --features script-wasm --bin interleave-script-web
//! ```
//!
//! It also exports `run_script` for callers that want the metrics alone.
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

#[cfg(target_arch = "wasm32")]
fn main() {
    interleave::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
