//! Engine throughput: a 100,000-request stampede under three strategies,
//! keeping the full trace or only the metrics. Criterion's `thrpt` is in
//! events (macrotasks) per second; `scripts/bench.sh` prints it as such.
//! Then scripts at scale, with 5,000 and 20,000 users: the `ticket_pg`
//! example (each request reads its own row of `orders`, then inserts
//! one), whose statements read through the tables' equality lookups
//! rather than every row; and `signup_pg` (two clicks a user, each a
//! get-or-create in one statement with a data-modifying `WITH`), whose
//! write is set aside slot by slot rather than by copying its table; and
//! `mutex_map` (two clicks a user, each a `db.findOne` and an insert),
//! whose `db` table reads through its equality lookups too.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

use interleave::config::url::parse_fragment;
use interleave::Sim;

const REQUESTS: u32 = 100_000;

fn stampede(c: &mut Criterion) {
    let mut group = c.benchmark_group("stampede_100k");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for strategy in ["none", "keyed-mutex", "single-flight"] {
        let fragment = format!("scenario=stampede&strategy={strategy}&requests={REQUESTS}");
        let config = parse_fragment(&fragment).expect("a valid fragment");
        let events = Sim::metrics_only(&config).run().events;
        group.throughput(Throughput::Elements(events));
        for (mode, keep_trace) in [("full", true), ("metrics", false)] {
            let build = || {
                if keep_trace {
                    Sim::new(&config)
                } else {
                    Sim::metrics_only(&config)
                }
            };
            // Building the run (its plan of arrivals) is part of the cost,
            // as in the CLI; dropping it is not.
            group.bench_function(format!("{strategy}/{mode}"), |b| {
                b.iter_batched(
                    || (),
                    |()| {
                        let mut sim = build();
                        let metrics = sim.run();
                        (sim, metrics)
                    },
                    BatchSize::PerIteration,
                )
            });
        }
    }
    group.finish();
}

fn script_at_scale(c: &mut Criterion) {
    script_example(
        c,
        "script_ticket_pg",
        include_str!("../examples/scripts/ticket_pg.js"),
        Some(include_str!("../examples/scripts/ticket_pg.sql")),
        1,
    );
    script_example(
        c,
        "script_signup_pg",
        include_str!("../examples/scripts/signup_pg.js"),
        Some(include_str!("../examples/scripts/signup_pg.sql")),
        2,
    );
    script_example(
        c,
        "script_mutex_map",
        include_str!("../examples/scripts/mutex_map.js"),
        None,
        2,
    );
}

/// A benchmark group of the example `code` (over `schema`) with 5,000 and
/// 20,000 users, each clicking `clicks` times (its throughput in requests).
fn script_example(c: &mut Criterion, name: &str, code: &str, schema: Option<&str>, clicks: u32) {
    use interleave::run::Run;
    use interleave::script::source;
    use interleave::script::ScriptRun;
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for users in [5_000, 20_000] {
        let fragment = format!("scenario=script&users={users}&clicks={clicks}");
        let (config, _) = source::parse(&fragment).expect("a valid fragment");
        group.throughput(Throughput::Elements(users * u64::from(clicks)));
        group.bench_function(format!("users={users}"), |b| {
            b.iter_batched(
                || (),
                |()| {
                    let mut run = ScriptRun::with_schema(code, schema, &config, false)
                        .expect("the example loads");
                    assert!(run.run(100_000_000), "the run ends");
                    run.metrics()
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, stampede, script_at_scale);
criterion_main!(benches);
