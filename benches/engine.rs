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
//! Last, `floor_100k`: not the engine, but the least that any executor of
//! one future per request does (see [`floor`]), for a floor under
//! `stampede_100k`'s events per second.

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

/// The least an executor of one future per request does: each request is
/// a boxed future that awaits one operation, whose completion is queued
/// first in, first out (one latency), and records its latency. No world,
/// trace, RNG, tally or percentiles. Two macrotasks a request, its arrival
/// and its completion: the events `floor_100k` counts.
mod floor {
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use std::future::Future;
    use std::pin::Pin;
    use std::rc::Rc;
    use std::task::{Context, Poll, Waker};

    const LATENCY: u64 = 1_000;

    struct Loop {
        now: u64,
        /// Completions: (due, request).
        queue: VecDeque<(u64, u32)>,
        replies: Vec<bool>,
        latencies: Vec<u64>,
    }

    /// One operation: queued on its first poll, ready once completed.
    struct Operation {
        core: Rc<RefCell<Loop>>,
        request: u32,
        sent: bool,
    }

    impl Future for Operation {
        type Output = ();

        fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
            let request = self.request;
            let mut core = self.core.borrow_mut();
            if !self.sent {
                let due = core.now + LATENCY;
                core.queue.push_back((due, request));
                drop(core);
                self.sent = true;
                return Poll::Pending;
            }
            match std::mem::take(&mut core.replies[request as usize]) {
                true => Poll::Ready(()),
                false => Poll::Pending,
            }
        }
    }

    async fn handler(core: Rc<RefCell<Loop>>, request: u32) {
        let start = core.borrow().now;
        let operation = Operation {
            core: core.clone(),
            request,
            sent: false,
        };
        operation.await;
        let mut core = core.borrow_mut();
        let latency = core.now - start;
        core.latencies.push(latency);
    }

    /// Runs `requests` arriving `gap` apart; returns how many answered.
    pub fn run(requests: u32, gap: u64) -> usize {
        let core = Rc::new(RefCell::new(Loop {
            now: 0,
            queue: VecDeque::new(),
            replies: vec![false; requests as usize],
            latencies: Vec::with_capacity(requests as usize),
        }));
        type Handler = Pin<Box<dyn Future<Output = ()>>>;
        let mut handlers: Vec<Option<Handler>> = (0..requests).map(|_| None).collect();
        let mut cx = Context::from_waker(Waker::noop());
        let mut next = 0;
        loop {
            let arrival = (next < requests).then(|| u64::from(next) * gap);
            let completion = core.borrow().queue.front().copied();
            let arrives_first = match (arrival, completion) {
                (Some(at), Some((due, _))) => at <= due,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let request = if arrives_first {
                core.borrow_mut().now = arrival.expect("an arrival");
                let request = next;
                next += 1;
                handlers[request as usize] = Some(Box::pin(handler(core.clone(), request)));
                request
            } else {
                let mut core = core.borrow_mut();
                let (due, request) = core.queue.pop_front().expect("a completion");
                core.now = due;
                core.replies[request as usize] = true;
                request
            };
            let handler = handlers[request as usize].as_mut().expect("a handler");
            if handler.as_mut().poll(&mut cx).is_ready() {
                handlers[request as usize] = None;
            }
        }
        let answered = core.borrow().latencies.len();
        answered
    }
}

fn executor_floor(c: &mut Criterion) {
    let mut group = c.benchmark_group("floor_100k");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.throughput(Throughput::Elements(2 * u64::from(REQUESTS)));
    for (shape, gap) in [("burst", 0), ("gap", 2)] {
        group.bench_function(shape, |b| {
            b.iter(|| assert_eq!(floor::run(REQUESTS, gap), REQUESTS as usize))
        });
    }
    group.finish();
}

criterion_group!(benches, stampede, script_at_scale, executor_floor);
criterion_main!(benches);
