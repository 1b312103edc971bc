//! One name for "this build has the script engine": `cfg(scripts)`, true
//! natively with the `script` feature (the default) and in wasm only with
//! `script-wasm` (the page's script edition; the page's own wasm leaves
//! the engine out). And the CLI's link: position-dependent on Linux.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(scripts)");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    if (feature("SCRIPT") && !wasm) || (feature("SCRIPT_WASM") && wasm) {
        println!("cargo::rustc-cfg=scripts");
    }
    // The CLI as a position-dependent executable on Linux: a user times
    // the whole `interleave run` process, and a PIE's 22,000 relocations
    // took 1.2 ms of its start (2.6 ms against 1.4 ms for a one-request
    // run; a 100,000-request stampede takes 15 ms).
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bin=interleave=-no-pie");
    }
}
