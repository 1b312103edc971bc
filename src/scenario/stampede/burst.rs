//! A burst stampede in closed form: when every request arrives at one
//! instant, on one server, for one cold key, with constant latencies, the
//! requests move in lockstep. Each macrotask of a phase runs the next
//! request through the same lines, so the run is a few phases of `N`
//! identical steps, plus the leader's own steps under single-flight; under
//! a lock, a queue of such groups (`herd.rs`). A metrics-only run
//! (`interleave run` without `--trace`) writes those events straight into
//! the trace hash and counts them, instead of stepping 100,000 futures:
//! the same metrics and the same hash (`tests/burst.rs` compares both ways
//! for every case this takes).
//!
//! Only the shapes below, and only with nothing that could make one
//! request differ from the next (no fault, schedule, pool, fencing, owner
//! release, second server or key, and for `get-set` a lock that outlives
//! the run); anything else returns `None` and is stepped.

use crate::config::{
    Arrival, CacheStart, Config, Latency, Micros, ReleaseMode, ScenarioKind, StrategyKind,
};
use crate::sim::trace::{OpKind, TraceKey};
use crate::sim::{Latencies, Metrics, Outcome, Site, Trace, TraceEvent, What};

mod herd;

use herd::{Herd, Lock};

/// The metrics of the metrics-only run of `config` when it is a burst in
/// lockstep that takes fewer than `max_events` macrotasks; `None` when it
/// has to be stepped.
pub fn metrics(config: &Config, max_events: u64) -> Option<Metrics> {
    let shape = Shape::of(config)?;
    let start = one_instant(&config.arrival)?;
    let (Latency::Const(cache), Latency::Const(db)) = (config.cache_latency, config.db_latency)
    else {
        return None;
    };
    let requests = config.requests;
    if requests == 0 {
        return None;
    }
    let burst = Burst {
        trace: Trace::new(false),
        requests,
        step: 0,
        time: start,
        start,
    };
    let (burst, counts) = match shape {
        Shape::Herd(lock) => return Herd::new(lock, config, (cache, db), burst, max_events).run(),
        Shape::Load => burst.load(cache, db),
        Shape::Flight => burst.flight(cache, db),
        Shape::GetSet => {
            // The last holder's lock must still be there when the first
            // delete lands, `2c + d` (or `3c + d`) after it was set.
            let recheck = if config.double_check { cache } else { 0 };
            let held = cache
                .saturating_mul(2)
                .saturating_add(recheck)
                .saturating_add(db);
            if config.lock_ttl <= held {
                return None;
            }
            burst.get_set(cache, db, config.double_check)
        }
    };
    let events = u64::from(burst.step);
    if events >= max_events {
        return None;
    }
    let latency = burst.time - start;
    Some(Metrics {
        db_reads: counts.db_reads,
        cache_misses: counts.cache_misses,
        max_in_critical_section: counts.max_in_critical_section,
        peak_db_concurrency: counts.db_reads,
        latency_us: Latencies {
            p50: latency,
            p99: latency,
            max: latency,
        },
        events,
        trace_hash: burst.trace.hash(),
        ..Metrics::default()
    })
}

/// What every request does, by strategy.
#[derive(Clone, Copy)]
enum Shape {
    /// Miss, select, set: `none`, and `xfetch` (a miss recomputes).
    Load,
    /// The first miss loads, every other one joins its flight:
    /// `single-flight`, and `stale-while-revalidate` (nothing stale to serve).
    Flight,
    /// Everyone sees no lock, sets it and loads: `get-set`'s race.
    GetSet,
    /// One holds the lock, the others poll it together (`add`,
    /// `ticket-lock`) or queue for it (`keyed-mutex`).
    Herd(Lock),
}

impl Shape {
    fn of(config: &Config) -> Option<Shape> {
        let delete = config.release == ReleaseMode::Delete;
        let shape = match config.strategy {
            StrategyKind::None | StrategyKind::Xfetch => Shape::Load,
            StrategyKind::SingleFlight | StrategyKind::StaleWhileRevalidate => Shape::Flight,
            StrategyKind::GetSet if delete => Shape::GetSet,
            StrategyKind::Add if !delete => return None,
            strategy => Shape::Herd(Lock::of(strategy)?),
        };
        let alike = config.scenario == ScenarioKind::Stampede
            && config.servers == 1
            && config.keys.max(1) == 1
            && config.cache == CacheStart::Cold
            && config.crash.is_none()
            && config.pause.is_none()
            && config.db_pool.is_none()
            && !config.fencing
            && config.schedule.choices().is_empty();
        alike.then_some(shape)
    }
}

/// When every request arrives, if they all arrive at once.
fn one_instant(arrival: &Arrival) -> Option<Micros> {
    match arrival {
        Arrival::Burst | Arrival::Gap(0) => Some(0),
        Arrival::At(times) => {
            let first = *times.first()?;
            times.iter().all(|&t| t == first).then_some(first)
        }
        _ => None,
    }
}

/// The counters a shape sets (every other one stays 0).
struct Counts {
    db_reads: u64,
    cache_misses: u64,
    max_in_critical_section: u64,
}

/// The run being written: its trace hash, and the current macrotask.
struct Burst {
    trace: Trace,
    requests: u32,
    step: u32,
    time: Micros,
    start: Micros,
}

const ITEM: TraceKey = TraceKey::Data(0);
const LOCK: TraceKey = TraceKey::Lock(0);

impl Burst {
    #[inline(always)]
    fn event(
        &mut self,
        request: u32,
        what: What,
        key: TraceKey,
        outcome: Outcome,
        site: Site,
        detail: u64,
    ) {
        self.trace.push(TraceEvent {
            step: self.step,
            time: self.time,
            request,
            what,
            key,
            outcome,
            site,
            detail,
        });
    }

    #[inline(always)]
    fn issue(&mut self, request: u32, op: OpKind, key: TraceKey, site: Site, latency: Micros) {
        self.event(request, What::Issue(op), key, Outcome::None, site, latency);
    }

    #[inline(always)]
    fn complete(&mut self, request: u32, op: OpKind, key: TraceKey, outcome: Outcome, site: Site) {
        self.event(request, What::Complete(op), key, outcome, site, 0);
    }

    #[inline(always)]
    fn mark(&mut self, request: u32, what: What, key: TraceKey, site: Site) {
        self.event(request, what, key, Outcome::None, site, 0);
    }

    fn respond(&mut self, request: u32, outcome: Outcome) {
        let elapsed = self.time - self.start;
        self.event(
            request,
            What::Return,
            TraceKey::None,
            outcome,
            Site::None,
            elapsed,
        );
    }

    /// One macrotask per request, in request order, `after` the last
    /// phase: each runs `each` for its request.
    fn phase(&mut self, after: Micros, mut each: impl FnMut(&mut Self, u32)) {
        self.time = self.time.saturating_add(after);
        for request in 0..self.requests {
            each(self, request);
            self.step += 1;
        }
    }

    /// One macrotask, `after` the last one.
    fn macrotask(&mut self, after: Micros, body: impl FnOnce(&mut Self)) {
        self.time = self.time.saturating_add(after);
        body(self);
        self.step += 1;
    }

    /// `const cached = await cache.get(key)` on arrival (server 0).
    fn arrive(&mut self, cache: Micros) {
        self.phase(0, |b, r| {
            b.mark(r, What::Arrive, TraceKey::None, Site::None);
            b.issue(r, OpKind::CacheGet, ITEM, Site::Get, cache);
        });
    }

    /// `none` and `xfetch`.
    fn load(mut self, cache: Micros, db: Micros) -> (Burst, Counts) {
        self.arrive(cache);
        self.phase(cache, |b, r| {
            b.complete(r, OpKind::CacheGet, ITEM, Outcome::Miss, Site::Get);
            b.mark(r, What::Enter, ITEM, Site::None);
            b.issue(r, OpKind::DbSelect, ITEM, Site::Select, db);
        });
        self.select_then_set(db, cache);
        self.phase(cache, |b, r| {
            b.complete(r, OpKind::CacheSet, ITEM, Outcome::Stored, Site::Set);
            b.mark(r, What::Exit, ITEM, Site::None);
            b.respond(r, Outcome::Ok);
        });
        let n = u64::from(self.requests);
        let counts = Counts {
            db_reads: n,
            cache_misses: n,
            max_in_critical_section: n,
        };
        (self, counts)
    }

    /// `const row = await db.select(key); await cache.set(key, row, TTL)`:
    /// every request's select lands and its set goes out.
    fn select_then_set(&mut self, db: Micros, cache: Micros) {
        self.phase(db, |b, r| {
            b.complete(r, OpKind::DbSelect, ITEM, Outcome::Row, Site::Select);
            b.issue(r, OpKind::CacheSet, ITEM, Site::Set, cache);
        });
    }

    /// `single-flight` and `stale-while-revalidate`.
    fn flight(mut self, cache: Micros, db: Micros) -> (Burst, Counts) {
        self.arrive(cache);
        self.phase(cache, |b, r| {
            b.complete(r, OpKind::CacheGet, ITEM, Outcome::Miss, Site::Get);
            if r == 0 {
                b.mark(r, What::Enter, ITEM, Site::None);
                b.issue(r, OpKind::DbSelect, ITEM, Site::Select, db);
            } else {
                b.mark(r, What::FlightJoin, ITEM, Site::Flight);
            }
        });
        self.macrotask(db, |b| {
            b.complete(0, OpKind::DbSelect, ITEM, Outcome::Row, Site::Select);
            b.issue(0, OpKind::CacheSet, ITEM, Site::Set, cache);
        });
        // The leader's set lands: it settles the flight, and every joiner's
        // await resumes in the microtasks after the leader's.
        self.macrotask(cache, |b| {
            b.complete(0, OpKind::CacheSet, ITEM, Outcome::Stored, Site::Set);
            b.mark(0, What::Exit, ITEM, Site::None);
            for r in 1..b.requests {
                b.mark(r, What::FlightShare, ITEM, Site::Flight);
            }
            for r in 0..b.requests {
                b.respond(r, Outcome::Ok);
            }
        });
        let counts = Counts {
            db_reads: 1,
            cache_misses: u64::from(self.requests),
            max_in_critical_section: 1,
        };
        (self, counts)
    }

    /// `get-set`: every lock read lands before the first lock write.
    fn get_set(mut self, cache: Micros, db: Micros, double_check: bool) -> (Burst, Counts) {
        self.arrive(cache);
        self.phase(cache, |b, r| {
            b.complete(r, OpKind::CacheGet, ITEM, Outcome::Miss, Site::Get);
            b.issue(r, OpKind::CacheGet, LOCK, Site::LockGet, cache);
        });
        self.phase(cache, |b, r| {
            b.complete(r, OpKind::CacheGet, LOCK, Outcome::Miss, Site::LockGet);
            b.issue(r, OpKind::CacheSet, LOCK, Site::LockSet, cache);
        });
        self.phase(cache, |b, r| {
            b.complete(r, OpKind::CacheSet, LOCK, Outcome::Stored, Site::LockSet);
            b.mark(r, What::Enter, ITEM, Site::None);
            if double_check {
                b.issue(r, OpKind::CacheGet, ITEM, Site::Recheck, cache);
            } else {
                b.issue(r, OpKind::DbSelect, ITEM, Site::Select, db);
            }
        });
        if double_check {
            self.phase(cache, |b, r| {
                b.complete(r, OpKind::CacheGet, ITEM, Outcome::Miss, Site::Recheck);
                b.issue(r, OpKind::DbSelect, ITEM, Site::Select, db);
            });
        }
        self.select_then_set(db, cache);
        self.phase(cache, |b, r| {
            b.complete(r, OpKind::CacheSet, ITEM, Outcome::Stored, Site::Set);
            b.mark(r, What::Exit, ITEM, Site::None);
            b.issue(r, OpKind::CacheDelete, LOCK, Site::LockDelete, cache);
        });
        // The first delete removes the lock; the others find none.
        self.phase(cache, |b, r| {
            let outcome = if r == 0 {
                Outcome::Deleted
            } else {
                Outcome::NotFound
            };
            b.complete(r, OpKind::CacheDelete, LOCK, outcome, Site::LockDelete);
            b.respond(r, Outcome::Ok);
        });
        let n = u64::from(self.requests);
        let counts = Counts {
            db_reads: n,
            cache_misses: n * (1 + u64::from(double_check)),
            max_in_critical_section: n,
        };
        (self, counts)
    }
}
