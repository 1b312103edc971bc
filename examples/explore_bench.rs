//! Explorer benchmark: DFS of `ticket` with 3 users x 2 clicks under each
//! strategy, unbounded and with a preemption bound, with schedules per
//! second (complete schedules) and runs per second (schedules plus runs cut
//! short by the sleep set).
//!
//!     cargo run --release --example explore_bench [-- MAX_SCHEDULES [MAX_PREEMPTIONS]]
//!
//! Three rows a strategy: the CLI's search (`StorySearch`: the three
//! users searched one at a time, docs/explore.md "Independent groups"),
//! the search of the whole, unbounded (stopped at MAX_SCHEDULES, default
//! 5000: `get-set`'s 26^3 schedules stop there), and the whole with at
//! most MAX_PREEMPTIONS non-default choices per schedule (default 2), no
//! schedule cap: `complete_within_bound`.

use std::time::Instant;

use interleave::config::url::parse_fragment;
use interleave::config::StrategyKind;
use interleave::explore::{Check, ExploreOptions, Explorer, StorySearch};

fn main() {
    let mut args = std::env::args().skip(1);
    let max_schedules = args
        .next()
        .and_then(|text| text.parse().ok())
        .unwrap_or(5_000);
    let max_preemptions: u32 = args.next().and_then(|text| text.parse().ok()).unwrap_or(2);
    let base = parse_fragment("v=1&scenario=ticket&users=3&clicks=2").expect("a good fragment");
    println!(
        "ticket, 3 users x 2 clicks, check duplicates, DFS with sleep sets, \
         unbounded runs stop at {max_schedules} schedules"
    );
    println!(
        "{:<22} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>20} {:>9} {:>12} {:>9}",
        "strategy",
        "preemptions",
        "explored",
        "violating",
        "complete",
        "in_bound",
        "pruned",
        "naive_estimate",
        "seconds",
        "schedules/s",
        "runs/s"
    );
    for strategy in StrategyKind::ALL {
        // The CLI's search (by independent groups where it may), then the
        // whole search, unbounded and bounded.
        for (grouped, bound) in [(true, None), (false, None), (false, Some(max_preemptions))] {
            let mut config = base.clone();
            config.strategy = strategy;
            let mut options = ExploreOptions::new(vec![Check::Duplicates]);
            // The bounded search runs to the end of its bound.
            options.max_schedules = if bound.is_some() {
                u64::MAX
            } else {
                max_schedules
            };
            options.max_preemptions = bound;
            let started = Instant::now();
            let result = match grouped {
                true => StorySearch::new(&config, options).run(),
                false => Explorer::new(&config, options).run(),
            };
            let seconds = started.elapsed().as_secs_f64();
            let per_second = |count: u64| count as f64 / seconds.max(1e-9);
            println!(
                "{:<22} {:>11} {:>9} {:>9} {:>9} {:>9} {:>9} {:>20} {:>9.3} {:>12.0} {:>9.0}",
                strategy.name(),
                match (grouped, bound) {
                    (true, _) => "by groups".to_string(),
                    (false, None) => "unbounded".to_string(),
                    (false, Some(k)) => format!("<= {k}"),
                },
                result.explored,
                result.violating,
                result.complete,
                result.complete_within_bound,
                result.pruned,
                result.naive_estimate,
                seconds,
                per_second(result.explored),
                per_second(result.explored + result.pruned)
            );
        }
    }
    println!("in_bound: complete_within_bound (every schedule with at most that many preemptions)");
}
