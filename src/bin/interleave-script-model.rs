//! The page's script worker: the model's worker (`interleave-model.rs`)
//! built with the JavaScript engine (feature `script-wasm`). The page
//! starts it when a script opens, and keeps it for stories from then on.
//! `scripts/build-workers.sh` builds it:
//!
//! ```text
//! cargo build --target wasm32-unknown-unknown --profile script-release \
//!     --no-default-features --features script-wasm --bin interleave-script-model
//! ```

#[path = "interleave-model.rs"]
mod model_worker;

fn main() {
    model_worker::main()
}
