//! Scenarios (ticket, stampede), their code listings, and the plan of
//! requests a configuration makes: arrival times, numbering and routing.

pub mod listing;
pub mod stampede;
pub mod ticket;

use crate::config::{Arrival, CacheStart, Config, Latency, Micros, Routing, ScenarioKind};
use crate::sim::core::Core;
use crate::sim::executor::Handler;
use crate::sim::requests::{Arrivals, Requests, Route};
use crate::sim::rng::{SimRng, Stream};
use crate::sim::{Ctx, RequestSpec, Sim, Target};
use crate::world::CacheKey;

impl Sim {
    /// A run of `config`, keeping the whole trace for the debugger.
    pub fn new(config: &Config) -> Sim {
        build(config, true)
    }

    /// A run that keeps only metrics and the trace hash (large runs).
    pub fn metrics_only(config: &Config) -> Sim {
        build(config, false)
    }
}

fn build(config: &Config, keep_trace: bool) -> Sim {
    let mut core = Core::new(config, keep_trace);
    if config.scenario == ScenarioKind::Stampede && config.cache == CacheStart::Warm {
        let expires_at = match config.expire_at {
            Some(at) => Some(at),
            None => (config.ttl > 0).then_some(config.ttl),
        };
        for item in 0..config.keys {
            let row = core.db.select(item);
            core.cache.put(CacheKey::Data(item), row, expires_at);
            // XFetch's delta for a value no request loaded: a typical select.
            let delta = mean_latency(config.db_latency);
            core.cache.note_delta(CacheKey::Data(item), delta);
            if let Some(at) = expires_at {
                core.tally.loads.expires(item, at);
            }
        }
    }
    Sim::with_plan(config, plan(config), handler, core)
}

/// The handler owns its `Ctx` and lends it to the body: an `async fn`'s
/// by-value arguments are stored twice in its future, and a burst keeps one
/// future per request alive.
fn handler(cx: Ctx, target: Target) -> Handler {
    match target {
        Target::Item(item) => Box::pin(async move { stampede::get_item(&cx, item).await }),
        Target::Click { user, .. } => Box::pin(async move { ticket::participate(&cx, user).await }),
    }
}

/// The requests of a run, numbered in arrival order (ties by user, then
/// click; a stampede's by position in the arrival list) and routed. A
/// stampede in a burst or spaced by a gap, routed round robin or by key,
/// is computed from each request's number rather than listed.
pub fn plan(config: &Config) -> Requests {
    let servers = config.servers.max(1);
    if config.scenario == ScenarioKind::Stampede {
        let spaced = match config.arrival {
            Arrival::Burst => Arrivals::spaced(config.requests as usize, 0, 0),
            Arrival::Gap(gap) => Arrivals::spaced(config.requests as usize, 0, gap),
            _ => None,
        };
        let route = match config.routing {
            Routing::RoundRobin => Some(Route::RoundRobin),
            Routing::Sticky => Some(Route::ByKey),
            Routing::Random => None,
        };
        if let (Some(arrivals), Some(route)) = (spaced, route) {
            return Requests::Items {
                arrivals,
                keys: config.keys.max(1),
                servers,
                route,
            };
        }
    }
    Requests::Listed(listed(config))
}

/// A plan that is not computed: every request's arrival, target and server.
fn listed(config: &Config) -> Vec<RequestSpec> {
    let mut requests: Vec<RequestSpec> = match config.scenario {
        ScenarioKind::Stampede => {
            let keys = config.keys.max(1);
            arrival_times(config, config.requests)
                .into_iter()
                .zip(0..)
                .map(|(arrival, i)| unrouted(arrival, Target::Item(i % keys)))
                .collect()
        }
        ScenarioKind::Ticket => arrival_times(config, config.users)
            .into_iter()
            .zip(0..)
            .flat_map(|(at, user)| {
                (0..config.clicks).map(move |click| {
                    let time = at.saturating_add(u64::from(click) * config.click_gap);
                    unrouted(time, Target::Click { user, click })
                })
            })
            .collect(),
    };
    // Equal times keep user-then-click (or list) order.
    if !requests.is_sorted_by_key(|request| request.arrival) {
        let order = crate::order::by_rank(requests.iter().map(|request| request.arrival));
        requests = order.into_iter().map(|i| requests[i as usize]).collect();
    }
    let servers = config.servers.max(1);
    let mut routing = SimRng::new(config.seed, Stream::Routing);
    for (index, request) in requests.iter_mut().enumerate() {
        request.server = match config.routing {
            Routing::RoundRobin => index as u32 % servers,
            Routing::Sticky => match request.target {
                Target::Item(item) => item % servers,
                Target::Click { user, .. } => user % servers,
            },
            Routing::Random => routing.below(u64::from(servers)) as u32,
        };
    }
    requests
}

/// A request before routing gives it its server.
fn unrouted(arrival: Micros, target: Target) -> RequestSpec {
    RequestSpec {
        arrival,
        server: 0,
        target,
    }
}

/// The mean of a latency distribution (rounded down).
pub fn mean_latency(latency: Latency) -> Micros {
    match latency {
        Latency::Const(d) | Latency::Exp(d) => d,
        Latency::Uniform(low, high) => low + (high - low) / 2,
    }
}

/// One arrival time per request (stampede) or user (ticket). An `at:` list
/// shorter than that repeats its last time.
fn arrival_times(config: &Config, count: u32) -> Vec<Micros> {
    let count = count as usize;
    match &config.arrival {
        Arrival::Burst => vec![0; count],
        Arrival::Gap(gap) => (0..count as u64).map(|i| i.saturating_mul(*gap)).collect(),
        Arrival::Poisson(rate) => {
            let mut rng = SimRng::new(config.seed, Stream::Arrival);
            let mean = 1e6 / rate;
            let mut now = 0.0;
            (0..count)
                .map(|_| {
                    now += rng.exp(mean);
                    libm::round(now) as Micros
                })
                .collect()
        }
        Arrival::At(times) => (0..count)
            .map(|i| times.get(i).or(times.last()).copied().unwrap_or(0))
            .collect(),
    }
}
