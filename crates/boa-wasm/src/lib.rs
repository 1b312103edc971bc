//! boa_engine, re-exported whole with its `js` feature (getrandom's
//! `wasm_js` and web-time backends) for `wasm32-unknown-unknown`.

pub use boa_engine::*;
