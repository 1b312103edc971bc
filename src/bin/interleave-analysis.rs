//! Explore's analysis of module state, a wasm module of its own: the page's
//! script worker leaves boa's parser out, and loads this through
//! `web/modules.js` (`interleaveModules.moduleState`). Built by
//! `scripts/build-workers.sh`:
//!
//! ```text
//! cargo build --target wasm32-unknown-unknown --profile module-release \
//!     --no-default-features --features analysis --bin interleave-analysis
//! ```
//!
//! Natively the bin is an empty program (the CLI links the analysis).

/// The answer to a question, both in `interleave::boundary::encode`'s
/// bytes (`null` for a question that is not one).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = moduleState)]
pub fn module_state(question: &[u8]) -> Option<Vec<u8>> {
    interleave::analysis::answer(question)
}

fn main() {}
