//! One name for "this build has the script engine": `cfg(scripts)`, true
//! natively with the `script` feature (the default) and in wasm only with
//! `script-wasm` (the page's script edition; the page's own wasm leaves
//! the engine out).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(scripts)");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    if (feature("SCRIPT") && !wasm) || (feature("SCRIPT_WASM") && wasm) {
        println!("cargo::rustc-cfg=scripts");
    }
}
