//! Explorer benchmark: exhaustive search of `ticket` with 3 users x 2 clicks
//! under each strategy, with schedules per second (complete schedules) and
//! runs per second (schedules plus runs cut short by the sleep set).
//!
//!     cargo run --release --example explore_bench [-- MAX_SCHEDULES]
//!
//! The polling strategies (`get-set`, `add`) have too many schedules to
//! finish (each poll is a point where a late completion can land), so
//! their search stops at MAX_SCHEDULES (default 5000) and says so.

use std::time::Instant;

use interleave::explore::{Check, ExploreOptions, Explorer};
use interleave::scenario::config::StrategyKind;
use interleave::scenario::url::parse_fragment;

fn main() {
    let max_schedules = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(5_000);
    let base = parse_fragment("v=1&scenario=ticket&users=3&clicks=2").expect("a good fragment");
    println!("ticket, 3 users x 2 clicks, check duplicates, DFS with sleep sets");
    println!(
        "{:<14} {:>9} {:>9} {:>9} {:>9} {:>16} {:>9} {:>12} {:>9}",
        "strategy",
        "explored",
        "violating",
        "complete",
        "pruned",
        "naive_estimate",
        "seconds",
        "schedules/s",
        "runs/s"
    );
    for strategy in StrategyKind::ALL {
        let mut config = base.clone();
        config.strategy = strategy;
        let mut options = ExploreOptions::new(vec![Check::Duplicates]);
        options.max_schedules = max_schedules;
        let started = Instant::now();
        let result = Explorer::new(&config, options).run();
        let seconds = started.elapsed().as_secs_f64();
        let per_second = |count: u64| count as f64 / seconds.max(1e-9);
        println!(
            "{:<14} {:>9} {:>9} {:>9} {:>9} {:>16} {:>9.3} {:>12.0} {:>9.0}",
            strategy.name(),
            result.explored,
            result.violating,
            result.complete,
            result.pruned,
            result.naive_estimate,
            seconds,
            per_second(result.explored),
            per_second(result.explored + result.pruned)
        );
    }
}
