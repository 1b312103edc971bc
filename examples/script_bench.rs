//! Throughput of the script engine: the 10,000-request stampede script
//! (`examples/scripts/stampede.js`, `users=10000&clicks=1`) under `none`,
//! `keyed-mutex` and `single-flight`, metrics only, in events (macrotasks)
//! per second, with the time to load the realm.
//!
//! `cargo run --release --example script_bench [-- REQUESTS]`

#[cfg(all(feature = "script", not(target_arch = "wasm32")))]
fn main() {
    use std::time::Instant;

    use interleave::script::source::{self, example};
    use interleave::script::ScriptRun;

    let requests: u32 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    for strategy in ["none", "keyed-mutex", "single-flight"] {
        let fragment = format!("scenario=script&strategy={strategy}&users={requests}&clicks=1");
        let (config, _) = source::parse(&fragment).expect("a good fragment");
        let start = Instant::now();
        let mut run = ScriptRun::new(example("stampede").unwrap(), &config, false)
            .expect("the example loads");
        let loaded = start.elapsed();
        assert!(run.run(u64::MAX), "the run ends");
        let elapsed = start.elapsed();
        let metrics = run.metrics();
        let run_time = (elapsed - loaded).as_secs_f64();
        println!(
            "{strategy}: {} events in {:.3} s ({:.0} events/s; load {:.1} ms), db_reads {}",
            metrics.events,
            run_time,
            metrics.events as f64 / run_time,
            loaded.as_secs_f64() * 1e3,
            metrics.db_reads,
        );
    }
}

#[cfg(not(all(feature = "script", not(target_arch = "wasm32"))))]
fn main() {}
