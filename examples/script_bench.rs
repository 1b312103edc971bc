//! Throughput of the script engine: the 10,000-request stampede script
//! (`examples/scripts/stampede.js`, `users=10000&clicks=1`) under `none`,
//! `keyed-mutex` and `single-flight`, metrics only, in events (macrotasks)
//! per second, with the time to load the realm.
//!
//! `cargo run --release --example script_bench [-- REQUESTS [STRATEGY...]]`
//!
//! With the CLI's allocator (mimalloc), so the figures are the CLI's.

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(all(feature = "script", not(target_arch = "wasm32")))]
fn main() {
    use std::time::Instant;

    use interleave::run::Run;
    use interleave::script::source::{self, example};
    use interleave::script::ScriptRun;

    let requests: u32 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let mut strategies: Vec<String> = std::env::args().skip(2).collect();
    if strategies.is_empty() {
        strategies = ["none", "keyed-mutex", "single-flight"]
            .map(String::from)
            .to_vec();
    }
    for strategy in strategies {
        let fragment = format!("scenario=script&strategy={strategy}&users={requests}&clicks=1");
        let (config, _) = source::parse(&fragment).expect("a good fragment");
        let start = Instant::now();
        let cpu_start = cpu_ns();
        let mut run = ScriptRun::new(example("stampede").unwrap(), &config, false)
            .expect("the example loads");
        let loaded = start.elapsed();
        assert!(run.run(u64::MAX), "the run ends");
        let elapsed = start.elapsed();
        let cpu = cpu_ns()
            .zip(cpu_start)
            .map(|(end, start)| (end - start) as f64 / 1e9);
        let metrics = run.metrics();
        let run_time = (elapsed - loaded).as_secs_f64();
        let per_cpu = cpu.map_or(String::new(), |cpu| {
            format!(
                "; {:.3} s of CPU with load, {:.0} events per CPU second",
                cpu,
                metrics.events as f64 / cpu
            )
        });
        println!(
            "{strategy}: {} events in {:.3} s ({:.0} events/s; load {:.1} ms{per_cpu}), db_reads {}",
            metrics.events,
            run_time,
            metrics.events as f64 / run_time,
            loaded.as_secs_f64() * 1e3,
            metrics.db_reads,
        );
    }
}

/// This thread's CPU time in ns (Linux's schedstat), so that figures on a
/// shared machine do not count the time other processes ran.
#[cfg(all(feature = "script", not(target_arch = "wasm32")))]
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

#[cfg(not(all(feature = "script", not(target_arch = "wasm32"))))]
fn main() {}
