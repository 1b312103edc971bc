//! The Yew app that Trunk builds. The step debugger comes with its own
//! issue; this page runs the scenario in the URL fragment and shows its
//! metrics, so the build, the engine in wasm and the URL format are real.

#[cfg(target_arch = "wasm32")]
fn main() {
    interleave::app::start();
}

/// Takes the app down, for web/boot.js to hand the page to the script
/// edition when a script scenario opens (no reload).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn stop() {
    interleave::app::stop();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("interleave-web is the browser app: build it with `trunk build`.");
    eprintln!("For the native CLI, run `cargo run --bin interleave -- run '<fragment>'`.");
    std::process::exit(2);
}
