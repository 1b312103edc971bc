//! The native CLI: `interleave run '<fragment>' [--trace]`, `interleave
//! explore '<fragment>'`.
//!
//! Prints one JSON object of the metrics of DESIGN.md §5 (with `--trace`,
//! the trace as JSON lines first). Bad input: a message on stderr, exit 2.

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use std::io::{self, BufWriter, Write};
    use std::process::ExitCode;

    use interleave::cli;

    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match cli::main(&args, &mut out).and_then(|()| out.flush().map_err(cli::CliError::from)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("interleave: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

/// The CLI is native only; the browser app is `interleave-web`.
#[cfg(target_arch = "wasm32")]
fn main() {}
