//! The Yew app that Trunk builds (index.html): the page draws, and its
//! model runs in a Web Worker (`src/bin/interleave-model.rs`).

#[cfg(target_arch = "wasm32")]
fn main() {
    interleave::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("interleave-web is the browser app: build it with `trunk build`.");
    eprintln!("For the native CLI, run `cargo run --bin interleave -- run '<fragment>'`.");
    std::process::exit(2);
}
