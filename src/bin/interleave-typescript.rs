//! The page's TypeScript stripper, a wasm module of its own: the script
//! worker leaves swc out and loads this (`web/modules.js`) only when a script
//! does not parse as JavaScript (`interleaveModules.stripTypes`). Built by
//! `scripts/build-workers.sh`:
//!
//! ```text
//! cargo build --target wasm32-unknown-unknown --profile module-release \
//!     --no-default-features --features typescript --bin interleave-typescript
//! ```
//!
//! Natively the bin is an empty program (the CLI links the stripper).

/// `code` with its types stripped, in `interleave::boundary::encode`'s
/// bytes.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(js_name = stripTypes)]
pub fn strip_types(code: &str) -> Vec<u8> {
    interleave::boundary::encode(&interleave::typescript::strip(code))
}

fn main() {}
