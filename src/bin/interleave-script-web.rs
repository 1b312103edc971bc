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
//! It also exports `run_script` for callers that want the metrics alone,
//! and `vet_script`, the sandbox's check that web/sandbox.js runs in a
//! Web Worker before the page runs a script.
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

/// The sandbox's check of the script of `fragment` (web/sandbox.js, in a
/// Web Worker): `ok`, or why the page must not run it
/// (`interleave::script::sandbox`). `now` is the worker's clock, in ms.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn vet_script(fragment: &str, now: &js_sys::Function) -> String {
    let now_ms = || {
        now.call0(&wasm_bindgen::JsValue::NULL)
            .ok()
            .and_then(|ms| ms.as_f64())
            .unwrap_or(0.0)
    };
    interleave::script::sandbox::vet(fragment, now_ms)
}

/// Where the page files the check of the script of `fragment`
/// (`interleave::script::sandbox::key_of`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn vet_key(fragment: &str) -> String {
    interleave::script::sandbox::key_of(fragment)
}

/// The app, in a page; nothing in the sandbox's worker, which has none.
#[cfg(target_arch = "wasm32")]
fn main() {
    if web_sys::window().is_some() {
        interleave::app::start();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {}
