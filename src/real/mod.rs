//! Reality check (issue 15): the same fragment played against real
//! PostgreSQL, Redis and memcached (`docs/real.md`), beside the model's
//! figures for it. Native only.
//!
//! Each request is a task on one thread (a tokio `LocalSet`, as one Node
//! process), arriving at its planned time on its planned server; each
//! simulated server has its own in-process locks. Every cache and DB
//! operation first sleeps the latency the fragment draws for it (delay
//! injection), plus a small seeded jitter, so real timing follows the
//! fragment. Each trial runs in a fresh PostgreSQL schema and under a fresh
//! cache key prefix.

pub mod cache;
pub mod db;
pub mod locks;
pub mod memcached;
pub mod replay;
pub mod request;
#[cfg(scripts)]
pub mod script;
pub mod world;

use std::future::Future;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::config::url::{parse_fragment, to_fragment};
use crate::config::{CacheStart, Config, Micros, ScenarioKind, MS};
use crate::explore::{Check, ExploreOptions, Explorer, Observation};
use crate::real::cache::{CacheConn, CacheServer, DataEntry};
use crate::real::db::{OrdersSummary, Statements};
use crate::real::memcached::Memcached;
use crate::real::request::Request;
use crate::real::world::{Delays, Reports, World};
use crate::scenario::{stampede, ticket};
use crate::sim::{Metrics, Ops, Outcome, Target};

/// Most requests a real trial plays.
pub const MAX_REAL_REQUESTS: u32 = 1_000;
/// Most PostgreSQL and memcached connections a trial opens: up to this
/// many requests each get their own; beyond it requests share them round
/// robin (statements outside a transaction pipeline on a shared
/// PostgreSQL connection; memcached commands take turns).
pub const MAX_CONNECTIONS: u32 = 100;
/// Most schedules each side-by-side exploration runs.
pub const EXPLORE_BUDGET: u64 = 20_000;
/// Most wall time each side-by-side exploration runs.
pub const EXPLORE_TIME: Duration = Duration::from_millis(2_500);

/// Environment variables `scripts/services.sh up` writes (in its env file).
pub const POSTGRES_ENV: &str = "INTERLEAVE_POSTGRES_URL";
pub const REDIS_ENV: &str = "INTERLEAVE_REDIS_URL";
pub const MEMCACHED_ENV: &str = "INTERLEAVE_MEMCACHED_URL";

#[derive(Clone, Debug)]
pub struct RealOptions {
    pub trials: u32,
    /// `None`: from the environment.
    pub postgres: Option<String>,
    pub redis: Option<String>,
    pub memcached: Option<String>,
    /// `None`: memcached unless the fragment needs Redis.
    pub cache: Option<CacheServer>,
    /// Most jitter added to each injected latency, in microseconds.
    pub max_jitter: Micros,
    /// A trial's requests that have not returned by then are `hung`.
    pub trial_timeout: Duration,
    /// Play on the real timing (injected latencies and jitter) instead of
    /// replaying the simulated order (`--free`).
    pub free: bool,
}

impl Default for RealOptions {
    fn default() -> Self {
        RealOptions {
            trials: 1,
            postgres: None,
            redis: None,
            memcached: None,
            cache: None,
            max_jitter: 200,
            trial_timeout: Duration::from_secs(30),
            free: false,
        }
    }
}

/// The JSON `interleave real` prints.
#[derive(Debug, Serialize)]
pub struct RealReport {
    pub fragment: String,
    /// `replayed`: every trial's cache and DB operations land in the
    /// simulated order (the fragment's `schedule=`, else the simulation's
    /// own), each no earlier than its simulated time; `free`: on the real
    /// timing, with injected latencies and jitter (`--free`).
    pub order: &'static str,
    pub cache_server: &'static str,
    pub cache_server_reason: &'static str,
    pub trials: Vec<TrialReport>,
    /// The model's normal run of the same fragment.
    pub simulation: Metrics,
    /// The scenario's headline check (duplicates or db-reads), then
    /// exclusion (and stale with `grace`): the model and the real servers
    /// side by side.
    pub comparisons: Vec<Comparison>,
    /// Whether they agree and, where not, which side is suspected.
    pub summary: Summary,
}

#[derive(Debug, Serialize)]
pub struct Comparison {
    pub check: &'static str,
    pub simulation_violates: bool,
    /// How many trials violated it on the real servers.
    pub real_violating_trials: u32,
    pub explore: ExploreSummary,
    /// `agree`, `timing` (some schedules violate, some do not: real timing
    /// picked another interleaving) or `disagree`.
    pub status: &'static str,
    /// With `disagree`, the side the evidence points at: `model` (reality
    /// did what no schedule of the model does) or `real-run` (every
    /// schedule of the model does what reality did not); else `none`.
    pub suspect: &'static str,
    /// The same in words.
    pub verdict: String,
}

/// Where the model and the real servers part, in one place.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// The worst status of the comparisons: `agree`, `timing` or `disagree`.
    pub status: &'static str,
    /// With `disagree`: `model`, `real-run`, or `both` when the checks
    /// point different ways; else `none`.
    pub suspect: &'static str,
    /// One sentence per comparison that does not agree (empty if all do).
    pub mismatches: Vec<String>,
    /// Outcome counts whose real value differed from the simulation's in
    /// some trial. Timing-bound counts (cache hits and misses, lock
    /// wake-ups, latencies) are left out: jitter moves them without
    /// changing what happened.
    pub differing_metrics: Vec<MetricDifference>,
}

#[derive(Debug, Serialize)]
pub struct MetricDifference {
    pub metric: &'static str,
    pub simulation: u64,
    /// Each trial's value.
    pub real: Vec<u64>,
}

#[derive(Debug, Serialize)]
pub struct TrialReport {
    pub trial: u32,
    /// The seed of this trial's latencies and jitter.
    pub seed: u64,
    pub metrics: RealMetrics,
    /// The real `orders` table at the end.
    pub tables: OrdersSummary,
    /// A replay's operations landed in the simulated order, out of all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replayed: Option<[usize; 2]>,
    /// Where a replay stopped following the simulation (the rest of the
    /// trial ran free), if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_the_simulation: Option<String>,
    /// Whether it violated the scenario's headline check.
    pub violates: bool,
    pub wall_ms: u64,
}

/// A trial's counters: the model's (`Metrics`, as `interleave run`
/// prints them; `events`, `peak_db_concurrency` and the trace hash are not
/// measured on real servers), then what only real servers report.
#[derive(Debug, Serialize)]
pub struct RealMetrics {
    #[serde(flatten, serialize_with = "without_trace_hash")]
    pub metrics: Metrics,
    #[serde(flatten)]
    pub reports: Reports,
}

/// A trial's counters without the trace hash, which real servers have not.
fn without_trace_hash<S: serde::Serializer>(metrics: &Metrics, to: S) -> Result<S::Ok, S::Error> {
    let mut value = serde_json::to_value(metrics).map_err(serde::ser::Error::custom)?;
    if let Some(fields) = value.as_object_mut() {
        fields.remove("trace_hash");
    }
    serde::Serialize::serialize(&value, to)
}

impl std::ops::Deref for RealMetrics {
    type Target = Metrics;

    fn deref(&self) -> &Metrics {
        &self.metrics
    }
}

#[derive(Debug, Serialize)]
pub struct ExploreSummary {
    pub explored: u64,
    pub violating: u64,
    /// `violating / explored`.
    pub share: f64,
    /// Every schedule ran (not cut by the 20,000 schedules or 2.5 s budget).
    pub complete: bool,
}

/// Reads a fragment, checks it can be played for real, plays `trials`
/// trials and sets the model's figures beside them.
pub fn run(fragment: &str, options: &RealOptions) -> Result<RealReport, String> {
    let config = parse_fragment(fragment).map_err(|error| format!("bad scenario: {error}"))?;
    check_playable(&config)?;
    let (cache_server, reason) = match options.cache {
        Some(server) => (server, "chosen with --cache"),
        None => CacheServer::for_config(&config),
    };
    let urls = Urls::resolve(options, cache_server)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start tokio: {error}"))?;
    let local = tokio::task::LocalSet::new();
    let mut scheduled = crate::run::ScheduledSim::story_metrics_only(&config);
    scheduled.finish().map_err(|error| {
        format!(
            "bad scenario: {}",
            crate::config::url::ConfigError::from(error)
        )
    })?;
    let sim = scheduled.into_inner();
    let simulation = sim.metrics();
    // A trial gets twice the model's run time plus 2 s (at most
    // `trial_timeout`); requests still waiting then are `hung`. A replay
    // goes on until `slack` after the last operation it landed: a slow
    // machine plays the same order later, and hangs no request for that.
    let simulated = Duration::from_micros(sim.now());
    let slack = simulated * 2 + Duration::from_secs(2);
    let timeout = Timeout {
        first: options.trial_timeout.min(slack),
        slack,
    };
    let mut trials = Vec::new();
    for trial in 0..options.trials.max(1) {
        let seed = config.seed.wrapping_add(u64::from(trial));
        let replay = match options.free {
            true => None,
            false => Some(Rc::new(replay::Replay::of(&config)?)),
        };
        let report = local.block_on(
            &runtime,
            play_trial(&config, options, &urls, cache_server, seed, timeout, replay),
        )?;
        trials.push(TrialReport { trial, ..report });
    }
    let headline = Check::default_for(config.scenario);
    for trial in &mut trials {
        trial.violates = real_violates(headline, &config, &trial.metrics);
    }
    let observed = Observation::of(&sim);
    let mut checks = vec![headline, Check::Exclusion];
    if config.grace > 0 {
        checks.push(Check::Stale);
    }
    let comparisons: Vec<Comparison> = checks
        .into_iter()
        .map(|check| {
            let simulation_violates = check.violated(&observed);
            let explore = explore_share(&config, check);
            let real_violating_trials = trials
                .iter()
                .filter(|t| real_violates(check, &config, &t.metrics))
                .count() as u32;
            let judged = verdict(
                simulation_violates,
                &explore,
                real_violating_trials,
                trials.len() as u32,
            );
            Comparison {
                check: check.name(),
                simulation_violates,
                real_violating_trials,
                explore,
                status: judged.status,
                suspect: judged.suspect,
                verdict: judged.text,
            }
        })
        .collect();
    let summary = summarize(&comparisons, &simulation, &trials);
    Ok(RealReport {
        fragment: to_fragment(&config),
        cache_server: cache_server.name(),
        cache_server_reason: reason,
        order: if options.free { "free" } else { "replayed" },
        trials,
        simulation,
        comparisons,
        summary,
    })
}

/// The comparisons' worst status and its suspect, and the outcome counts
/// that differ.
pub fn summarize(
    comparisons: &[Comparison],
    simulation: &Metrics,
    trials: &[TrialReport],
) -> Summary {
    let rank = |status: &str| match status {
        "disagree" => 2,
        "timing" => 1,
        _ => 0,
    };
    let status = comparisons
        .iter()
        .map(|c| c.status)
        .max_by_key(|status| rank(status))
        .unwrap_or("agree");
    let mut suspects: Vec<&'static str> = comparisons
        .iter()
        .filter(|c| c.status == "disagree")
        .map(|c| c.suspect)
        .collect();
    suspects.dedup();
    let suspect = match suspects.as_slice() {
        [] => "none",
        [one] => one,
        _ => "both",
    };
    let mut mismatches: Vec<String> = comparisons
        .iter()
        .filter(|c| c.status != "agree")
        .map(|c| format!("{}: {}", c.check, c.verdict))
        .collect();
    // A replay that left the simulation: the real servers answered an
    // operation otherwise, in the model's own order.
    let left: Vec<String> = trials
        .iter()
        .filter_map(|t| {
            let why = t.left_the_simulation.as_ref()?;
            Some(format!("trial {} left the simulated order: {why}", t.trial))
        })
        .collect();
    let (status, suspect) = match left.is_empty() {
        true => (status, suspect),
        false if status == "disagree" && suspect != "model" => ("disagree", "both"),
        false => ("disagree", "model"),
    };
    mismatches.extend(left);
    let counts = |m: &RealMetrics| {
        [
            ("orders", m.orders),
            ("duplicate_tickets", m.duplicate_tickets),
            ("db_reads", m.db_reads),
            ("db_writes", m.db_writes),
            ("errors", m.errors),
            ("timeouts", m.timeouts),
            ("max_in_critical_section", m.max_in_critical_section),
            ("stale_served", m.stale_served),
            ("rejected_writes", m.rejected_writes),
            ("early_refreshes", m.early_refreshes),
            ("hung", m.hung),
        ]
    };
    let simulated = [
        simulation.orders,
        simulation.duplicate_tickets,
        simulation.db_reads,
        simulation.db_writes,
        simulation.errors,
        simulation.timeouts,
        simulation.max_in_critical_section,
        simulation.stale_served,
        simulation.rejected_writes,
        simulation.early_refreshes,
        simulation.hung,
    ];
    let per_trial: Vec<_> = trials.iter().map(|t| counts(&t.metrics)).collect();
    let differing_metrics = simulated
        .iter()
        .enumerate()
        .filter_map(|(index, &simulation)| {
            let real: Vec<u64> = per_trial.iter().map(|c| c[index].1).collect();
            real.iter()
                .any(|&r| r != simulation)
                .then(|| MetricDifference {
                    metric: counts(&trials[0].metrics)[index].0,
                    simulation,
                    real,
                })
        })
        .collect();
    Summary {
        status,
        suspect,
        mismatches,
        differing_metrics,
    }
}

/// What the real run can play; anything else is a clear error. Every
/// strategy, fault and key is played; only the size is bounded.
fn check_playable(config: &Config) -> Result<(), String> {
    let requests = match config.scenario {
        ScenarioKind::Ticket => config.users.saturating_mul(config.clicks),
        ScenarioKind::Stampede => config.requests,
    };
    if requests > MAX_REAL_REQUESTS {
        return Err(format!(
            "{requests} requests; a real run plays at most {MAX_REAL_REQUESTS}"
        ));
    }
    if config.tx != crate::config::TxMode::None && requests > MAX_CONNECTIONS {
        return Err(format!(
            "{requests} requests in transactions; a real run plays at most {MAX_CONNECTIONS} \
             (a transaction needs a PostgreSQL connection of its own)"
        ));
    }
    Ok(())
}

pub(crate) struct Urls {
    pub(crate) postgres: String,
    pub(crate) cache: String,
}

impl Urls {
    pub(crate) fn resolve(options: &RealOptions, cache: CacheServer) -> Result<Urls, String> {
        let written = services_env_file();
        let pick = |flag: &Option<String>, env: &str, name: &str| {
            flag.clone()
                .or_else(|| std::env::var(env).ok().filter(|url| !url.is_empty()))
                .or_else(|| written.get(env).cloned())
                .ok_or_else(|| {
                    format!(
                        "no {name} URL: pass --{name} URL or set {env} \
                         (`scripts/services.sh up` writes it to /tmp/interleave-services/env)"
                    )
                })
        };
        let postgres = pick(&options.postgres, POSTGRES_ENV, "postgres")?;
        let cache = match cache {
            CacheServer::Redis => pick(&options.redis, REDIS_ENV, "redis")?,
            CacheServer::Memcached => pick(&options.memcached, MEMCACHED_ENV, "memcached")?,
        };
        for url in [&postgres, &cache] {
            if !is_loopback(url) {
                return Err(format!(
                    "{url}: real runs only talk to servers on this machine (127.0.0.1 or localhost)"
                ));
            }
        }
        Ok(Urls { postgres, cache })
    }
}

/// The URLs `scripts/services.sh up` wrote to its env file
/// (`$INTERLEAVE_SERVICES_DIR/env`, default `/tmp/interleave-services/env`),
/// used when the variables are not set in the environment.
fn services_env_file() -> std::collections::HashMap<String, String> {
    let dir = std::env::var("INTERLEAVE_SERVICES_DIR")
        .unwrap_or_else(|_| "/tmp/interleave-services".to_string());
    let text = std::fs::read_to_string(format!("{dir}/env")).unwrap_or_default();
    parse_env_file(&text)
}

/// `export NAME=value` lines.
fn parse_env_file(text: &str) -> std::collections::HashMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim().trim_start_matches("export ").trim();
            let (name, value) = line.split_once('=')?;
            Some((name.to_string(), value.trim_matches('"').to_string()))
        })
        .collect()
}

/// Whether a URL's host is the loopback interface.
fn is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let host_port = rest.split(['/', '?']).next().unwrap_or("");
    let host_port = host_port.rsplit_once('@').map_or(host_port, |(_, h)| h);
    let host = host_port.rsplit_once(':').map_or(host_port, |(h, _)| h);
    matches!(host, "127.0.0.1" | "localhost" | "[::1]")
}

/// A fresh name per trial, so concurrent runs never share rows or keys.
pub(crate) fn run_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "interleave_real_{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed),
    )
}

async fn cache_connection(
    server: CacheServer,
    url: &str,
    redis: &Option<redis::aio::MultiplexedConnection>,
) -> Result<CacheConn, String> {
    match server {
        CacheServer::Memcached => Memcached::connect(url)
            .await
            .map(|conn| CacheConn::Memcached(Rc::new(tokio::sync::Mutex::new(conn))))
            .map_err(|error| format!("cannot connect to memcached at {url}: {error}")),
        CacheServer::Redis => Ok(CacheConn::Redis(
            redis
                .clone()
                .expect("a Redis connection when the cache is Redis"),
        )),
    }
}

/// How long a trial's requests have to return: `first`, and in a replay
/// also until `slack` after the last operation it landed.
#[derive(Clone, Copy)]
struct Timeout {
    first: Duration,
    slack: Duration,
}

async fn play_trial(
    config: &Config,
    options: &RealOptions,
    urls: &Urls,
    cache_server: CacheServer,
    seed: u64,
    timeout: Timeout,
    replay: Option<Rc<replay::Replay>>,
) -> Result<TrialReport, String> {
    let wall = Instant::now();
    let schema = run_id();
    let admin = db::connect(&urls.postgres, None).await?;
    db::create(&admin, &schema, config).await?;
    let redis = match cache_server {
        CacheServer::Redis => {
            let client = redis::Client::open(urls.cache.as_str())
                .map_err(|error| format!("bad Redis URL {}: {error}", urls.cache))?;
            let conn = client
                .get_multiplexed_async_connection()
                .await
                .map_err(|error| format!("cannot connect to Redis at {}: {error}", urls.cache))?;
            Some(conn)
        }
        CacheServer::Memcached => None,
    };
    let plan = crate::scenario::plan(config);
    // Every connection is opened before the clock starts; past
    // `MAX_CONNECTIONS` requests share them round robin.
    let opened = plan.len().clamp(1, MAX_CONNECTIONS as usize);
    let mut shared = Vec::with_capacity(opened);
    for _ in 0..opened {
        let pg = db::connect(&urls.postgres, Some(&schema)).await?;
        let statements = Statements::prepare(&pg).await?;
        let cache = cache_connection(cache_server, &urls.cache, &redis).await?;
        shared.push((Rc::new(pg), Rc::new(statements), cache));
    }
    let connections: Vec<_> = (0..plan.len())
        .map(|index| {
            let (pg, statements, cache) = &shared[index % opened];
            let cache = match cache {
                CacheConn::Memcached(conn) => CacheConn::Memcached(conn.clone()),
                CacheConn::Redis(conn) => CacheConn::Redis(conn.clone()),
            };
            (pg.clone(), statements.clone(), cache)
        })
        .collect();
    drop(shared);
    let mut world = World::new(
        config.clone(),
        cache_server,
        schema.clone(),
        Delays::new(seed, options.max_jitter),
    );
    if replay.is_some() {
        world.watcher = Some(Rc::new(db::connect(&urls.postgres, None).await?));
    }
    world.replay = replay.clone();
    let world = Rc::new(world);
    if config.scenario == ScenarioKind::Stampede && config.cache == CacheStart::Warm {
        warm_cache(&world, &urls.cache, &redis).await?;
    }
    world.restart_clock();
    let mut tasks = tokio::task::JoinSet::new();
    for (index, (spec, (pg, statements, cache))) in plan.iter().zip(connections).enumerate() {
        let connection = (pg, statements, cache);
        let request = Request::new(
            world.clone(),
            index as u32,
            spec.server,
            connection,
            spec.arrival,
        );
        let (arrival, target) = (spec.arrival, spec.target);
        tasks.spawn_local(async move {
            world::sleep_us(arrival.saturating_sub(request.now())).await;
            // The engine's own bodies, as the simulation runs them.
            let body = async {
                match target {
                    Target::Click { user, .. } => ticket::participate(&request, user).await,
                    Target::Item(item) => stampede::get_item(&request, item).await,
                }
            };
            let outcome = or_aborted(body, &request).await;
            request.respond(outcome);
            // A crashed holder's mutex guard and connections stay, as a
            // hung process's.
            if outcome == Outcome::Crashed {
                std::mem::forget(request);
            }
        });
    }
    let start = tokio::time::Instant::now();
    let mut deadline = start + timeout.first;
    let mut finished = 0;
    loop {
        match tokio::time::timeout_at(deadline, tasks.join_next()).await {
            Ok(Some(_)) => finished += 1,
            Ok(None) => break,
            Err(_) => {
                // Out of time, unless a replay landed an operation less
                // than `slack` ago.
                let Some(replay) = &replay else { break };
                let moved = replay.last_landed().unwrap_or(start) + timeout.slack;
                if moved <= tokio::time::Instant::now() {
                    break;
                }
                deadline = moved;
            }
        }
    }
    tasks.abort_all();
    let hung = plan.len() as u64 - finished;
    if !config.await_insert {
        // Unawaited inserts may still be in flight.
        let wait = 2 * longest(config.write_latency()) + 50 * MS;
        world::sleep_us(wait).await;
    }
    let tables = db::summarize(&admin, &schema).await?;
    db::drop_schema(&admin, &schema).await;
    let tally = world.tally.borrow();
    let metrics = RealMetrics {
        metrics: tally.metrics(tables.orders, tables.duplicate_tickets, hung),
        reports: tally.reports.clone(),
    };
    drop(tally);
    Ok(TrialReport {
        trial: 0,
        seed,
        metrics,
        tables,
        replayed: replay.as_ref().map(|r| {
            let (landed, all) = r.progress();
            [landed, all]
        }),
        left_the_simulation: replay.as_ref().and_then(|r| r.left()),
        violates: false,
        wall_ms: wall.elapsed().as_millis() as u64,
    })
}

/// The body's outcome, or `Failed` once a server error has ended the
/// request (`Request::aborted`).
async fn or_aborted(body: impl Future<Output = Outcome>, request: &Request) -> Outcome {
    let mut body = std::pin::pin!(body);
    let mut aborted = std::pin::pin!(request.aborted());
    std::future::poll_fn(|cx| {
        if let Poll::Ready(outcome) = body.as_mut().poll(cx) {
            return Poll::Ready(outcome);
        }
        aborted.as_mut().poll(cx).map(|()| Outcome::Failed)
    })
    .await
}

/// A generous bound on one drawn latency.
fn longest(latency: crate::config::Latency) -> Micros {
    match latency {
        crate::config::Latency::Const(d) => d,
        crate::config::Latency::Uniform(_, high) => high,
        crate::config::Latency::Exp(mean) => mean.saturating_mul(10),
    }
}

/// Every key live at 0, expiring at `expire_at` (or `ttl`).
async fn warm_cache(
    world: &World,
    url: &str,
    redis: &Option<redis::aio::MultiplexedConnection>,
) -> Result<(), String> {
    let config = &world.config;
    let cache = cache_connection(world.cache_server, url, redis).await?;
    // As the model: live until `expire_at` (or `ttl`; never when 0), stale
    // for `grace` after, with a typical select as XFetch's delta.
    let live_until = match config.expire_at {
        Some(at) => Some(at),
        None => (config.ttl > 0).then_some(config.ttl),
    };
    for item in 0..config.keys.max(1) {
        let entry = DataEntry {
            row: (u64::from(item) + 1).to_string(),
            live_until,
            delta: crate::scenario::mean_latency(config.db_latency),
        };
        let ttl = entry.storage_ttl(0, config.grace);
        cache
            .set(&world.data_key(item), &entry.encode(), ttl)
            .await
            .map_err(|error| error.to_string())?;
    }
    Ok(())
}

/// The check on real metrics: duplicates, a second holder, or for the
/// stampede's db-reads more loads than keys (the real run cannot tell a
/// reload after expiry from a redundant one, so it counts loads).
fn real_violates(check: Check, config: &Config, metrics: &RealMetrics) -> bool {
    match check {
        Check::Duplicates => metrics.duplicate_tickets > 0,
        Check::Exclusion => metrics.max_in_critical_section > 1,
        Check::Stale => metrics.stale_served > 0,
        Check::Errors => metrics.errors > 0,
        Check::DbReads => metrics.db_reads > u64::from(config.keys.max(1)),
        // A script's check: the stories the real servers run are never
        // judged on it.
        Check::LostUpdates | Check::SharedTransactions => false,
    }
}

fn explore_share(config: &Config, check: Check) -> ExploreSummary {
    let mut options = ExploreOptions::new(vec![check]);
    options.max_schedules = EXPLORE_BUDGET;
    let mut explorer = Explorer::new(config, options);
    let started = Instant::now();
    // One schedule at a time: a schedule of a 1,000-request run is long,
    // and the time budget is looked at between schedules.
    while !explorer.run_for(1).done {
        if started.elapsed() >= EXPLORE_TIME {
            break;
        }
    }
    let result = explorer.result();
    let share = if result.explored == 0 {
        0.0
    } else {
        result.violating as f64 / result.explored as f64
    };
    ExploreSummary {
        explored: result.explored,
        violating: result.violating,
        share,
        complete: result.complete,
    }
}

/// A comparison's judgement.
pub struct Judgement {
    pub status: &'static str,
    pub suspect: &'static str,
    pub text: String,
}

/// Agree when the model's normal run and every real trial say the same;
/// timing when the model's schedules are split (real timing picked another
/// interleaving); disagree, naming the suspect, when the model's schedules
/// all say one thing and reality the other. An unfinished exploration is
/// said so: the suspect is then the likely one, not a proof.
pub fn verdict(simulated: bool, explore: &ExploreSummary, real: u32, trials: u32) -> Judgement {
    let real_any = real > 0;
    let said = |violates: bool| {
        if violates {
            "violates"
        } else {
            "does not violate"
        }
    };
    if real_any == simulated && (real == 0 || real == trials) {
        return Judgement {
            status: "agree",
            suspect: "none",
            text: format!(
                "agree: the simulation {} and {real} of {trials} real trials did",
                said(simulated)
            ),
        };
    }
    let explored = if explore.complete {
        "no schedule".to_string()
    } else {
        format!(
            "none of the {} schedules explored (not all: the budget ran out)",
            explore.explored
        )
    };
    if real_any && explore.violating == 0 {
        return Judgement {
            status: "disagree",
            suspect: "model",
            text: format!(
                "disagree: {real} of {trials} real trials violated but {explored} of the \
                 model does; suspect the model (a bug, or a real-world effect it leaves out)"
            ),
        };
    }
    if real < trials && explore.violating == explore.explored && explore.explored > 0 {
        let every = if explore.complete {
            "every schedule".to_string()
        } else {
            format!("all {} schedules explored", explore.explored)
        };
        return Judgement {
            status: "disagree",
            suspect: "real-run",
            text: format!(
                "disagree: {every} of the model violates but {} of {trials} real trials did \
                 not; suspect the real run (a bug in how it plays the fragment)",
                trials - real
            ),
        };
    }
    Judgement {
        status: "timing",
        suspect: "none",
        text: format!(
            "timing: the model's normal run {} but {real} of {trials} real trials did; \
             {} of {} explored schedules violate, so the outcome depends on the interleaving \
             (widen the race window or use const latencies to compare exactly)",
            said(simulated),
            explore.violating,
            explore.explored
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_services_env_file_is_read() {
        let urls = parse_env_file(
            "export INTERLEAVE_POSTGRES_URL=postgres://interleave@127.0.0.1:55432/postgres\n\
             export INTERLEAVE_REDIS_URL=redis://127.0.0.1:56379/\n",
        );
        assert_eq!(
            urls.get(POSTGRES_ENV).map(String::as_str),
            Some("postgres://interleave@127.0.0.1:55432/postgres")
        );
        assert_eq!(
            urls.get(REDIS_ENV).map(String::as_str),
            Some("redis://127.0.0.1:56379/")
        );
        assert_eq!(urls.get(MEMCACHED_ENV), None);
    }

    #[test]
    fn only_loopback_urls_are_accepted() {
        assert!(is_loopback(
            "postgres://interleave@127.0.0.1:55432/postgres"
        ));
        assert!(is_loopback("redis://localhost:6379/"));
        assert!(is_loopback("memcache://127.0.0.1:11211"));
        assert!(!is_loopback("postgres://user@db.example.com:5432/x"));
        assert!(!is_loopback("redis://10.0.0.1:6379"));
    }

    #[test]
    fn unplayable_fragments_are_clear_errors() {
        let error = run(
            "scenario=ticket&users=1001&clicks=1",
            &RealOptions::default(),
        )
        .unwrap_err();
        assert!(error.contains("at most 1000"), "{error}");
        let error = run(
            "scenario=ticket&users=101&clicks=1&tx=serializable",
            &RealOptions::default(),
        )
        .unwrap_err();
        assert!(error.contains("at most 100"), "{error}");
    }

    fn explored(explored: u64, violating: u64, complete: bool) -> ExploreSummary {
        ExploreSummary {
            explored,
            violating,
            share: 0.0,
            complete,
        }
    }

    #[test]
    fn verdicts_name_the_suspect() {
        let v = verdict(true, &explored(4, 2, true), 3, 3);
        assert_eq!((v.status, v.suspect), ("agree", "none"));
        let v = verdict(false, &explored(4, 2, true), 1, 3);
        assert_eq!((v.status, v.suspect), ("timing", "none"));
        // Some trials violate and some do not, the model's run violates.
        let v = verdict(true, &explored(4, 2, true), 2, 3);
        assert_eq!((v.status, v.suspect), ("timing", "none"));
        let v = verdict(false, &explored(6, 0, true), 2, 3);
        assert_eq!((v.status, v.suspect), ("disagree", "model"));
        assert!(v.text.contains("no schedule"), "{}", v.text);
        let v = verdict(false, &explored(900, 0, false), 1, 1);
        assert_eq!((v.status, v.suspect), ("disagree", "model"));
        assert!(v.text.contains("900 schedules explored"), "{}", v.text);
        let v = verdict(true, &explored(6, 6, true), 0, 2);
        assert_eq!((v.status, v.suspect), ("disagree", "real-run"));
        let v = verdict(true, &explored(6, 6, true), 1, 2);
        assert_eq!((v.status, v.suspect), ("disagree", "real-run"));
    }

    #[test]
    fn the_summary_takes_the_worst_status_and_lists_differing_counts() {
        let comparison = |check, status, suspect| Comparison {
            check,
            simulation_violates: false,
            real_violating_trials: 0,
            explore: explored(1, 0, true),
            status,
            suspect,
            verdict: String::new(),
        };
        let simulation = Metrics {
            orders: 1,
            ..Metrics::default()
        };
        let trial = |orders| TrialReport {
            trial: 0,
            seed: 1,
            metrics: RealMetrics {
                metrics: Metrics {
                    orders,
                    ..Metrics::default()
                },
                reports: Reports::default(),
            },
            tables: OrdersSummary::default(),
            replayed: None,
            left_the_simulation: None,
            violates: false,
            wall_ms: 0,
        };
        let agreeing = summarize(
            &[comparison("duplicates", "agree", "none")],
            &simulation,
            &[trial(1)],
        );
        assert_eq!((agreeing.status, agreeing.suspect), ("agree", "none"));
        assert!(agreeing.mismatches.is_empty() && agreeing.differing_metrics.is_empty());
        let split = summarize(
            &[
                comparison("duplicates", "timing", "none"),
                comparison("exclusion", "disagree", "model"),
            ],
            &simulation,
            &[trial(1), trial(2)],
        );
        assert_eq!((split.status, split.suspect), ("disagree", "model"));
        assert_eq!(split.mismatches.len(), 2);
        assert_eq!(split.differing_metrics.len(), 1);
        assert_eq!(split.differing_metrics[0].metric, "orders");
        assert_eq!(split.differing_metrics[0].real, vec![1, 2]);
        let both = summarize(
            &[
                comparison("duplicates", "disagree", "real-run"),
                comparison("exclusion", "disagree", "model"),
            ],
            &simulation,
            &[trial(1)],
        );
        assert_eq!(both.suspect, "both");
        // A replay that left the simulated order is the model's to answer
        // for, even where the counts agree.
        let left = TrialReport {
            left_the_simulation: Some("request 1's CacheAdd came back NotStored".into()),
            ..trial(1)
        };
        let parted = summarize(
            &[comparison("duplicates", "agree", "none")],
            &simulation,
            &[left],
        );
        assert_eq!((parted.status, parted.suspect), ("disagree", "model"));
        assert_eq!(
            parted.mismatches,
            vec!["trial 0 left the simulated order: request 1's CacheAdd came back NotStored"]
        );
    }

    #[test]
    fn memcached_unless_the_fragment_needs_redis() {
        let config = |fragment| parse_fragment(fragment).unwrap();
        let pick = |fragment| CacheServer::for_config(&config(fragment)).0;
        assert_eq!(pick("scenario=ticket&strategy=add"), CacheServer::Memcached);
        assert_eq!(
            pick("scenario=ticket&strategy=add&release=owner"),
            CacheServer::Redis
        );
        assert_eq!(
            pick("scenario=ticket&strategy=add&lock_ttl=50ms"),
            CacheServer::Redis
        );
    }
}
