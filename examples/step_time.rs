use interleave::config::url::parse_fragment;
use interleave::config::StrategyKind;
use interleave::Sim;
use std::time::{Duration, Instant};
fn main() {
    for strategy in StrategyKind::ALL {
        let mut config = parse_fragment("scenario=stampede&requests=20000").unwrap();
        config.strategy = strategy;
        let t = Instant::now();
        let mut sim = Sim::metrics_only(&config);
        let build = t.elapsed();
        let mut worst = Duration::ZERO;
        let total = Instant::now();
        let mut n = 0u64;
        while n < 2_000_000 {
            let t = Instant::now();
            if sim.step().is_none() {
                break;
            }
            worst = worst.max(t.elapsed());
            n += 1;
        }
        println!(
            "{:?}: build {build:?} steps {n} total {:?} worst step {worst:?}",
            strategy,
            total.elapsed()
        );
    }
}
