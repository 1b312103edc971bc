//! A person's own handler on the real servers (`interleave real --script
//! FILE.js --schema FILE.sql`, docs/real.md): the unmodified script runs in
//! the simulation, and every cache call and `pg` statement is also played
//! on the real Redis (or memcached) and PostgreSQL as the simulated run
//! lands it ([`Mirror`]). The real side therefore sees the calls in the
//! simulated order, whatever the timing, and every trial is the same
//! replay: a race the simulation shows happens on the real servers too, or
//! the report names the call where they part, with both answers. Where the
//! real answer differs, the script goes on with the real one.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};
use tokio::runtime::Runtime;
use tokio::task::{JoinHandle, LocalSet};
use tokio_postgres::{Client, SimpleQueryMessage};

use crate::config::{Config, Micros, MS, SECOND};
use crate::real::cache::ZsetAnswer;
use crate::real::cache::{CacheConn, CacheServer};
use crate::real::memcached::Memcached;
use crate::real::{db, run_id, RealOptions, Urls};
use crate::run::{Run, ScheduleError, Scheduled};
use crate::script::call::Call;
use crate::script::mirror::{exec_answer, CacheAnswer, Mirror};
use crate::script::world::{
    redis_string, sort_members, text_of, Expiry, ExpiryChange, HashWrite, ListWrite, LockScript,
    Only, SetOptions, ZsetWrite,
};
use crate::script::ScriptRun;

/// The longest a real statement may take once the model has answered it:
/// past it, the real PostgreSQL waits where the model does not.
const STATEMENT_WAIT: Duration = Duration::from_secs(5);

/// The least real time between the start of one statement's wait for a
/// lock and the sending of the next statement. PostgreSQL's backend
/// checks for a deadlock once, `deadlock_timeout` after its wait began,
/// and the first to check in a cycle is its victim: two waits the model
/// begins at one instant, one after the other, must begin on the real
/// server far enough apart that their checks run in that order on a
/// loaded machine too (a few milliseconds apart, the second's ran first
/// about once in ten runs with both cores busy).
const WAIT_SPACING: Duration = Duration::from_millis(50);

/// The script and what it runs on.
pub struct ScriptInput<'a> {
    pub code: &'a str,
    pub schema: Option<&'a str>,
    pub route: Option<&'a str>,
    pub fragment: &'a str,
}

/// The JSON `interleave real --script` prints.
#[derive(Debug, Serialize)]
pub struct ScriptReport {
    pub fragment: String,
    pub cache_server: &'static str,
    pub cache_server_reason: &'static str,
    /// How the real side is ordered.
    pub order: &'static str,
    /// The model's run, as `interleave run --script` prints it.
    pub simulation: Value,
    pub trials: Vec<ScriptTrial>,
    pub summary: ScriptSummary,
}

#[derive(Debug, Serialize)]
pub struct ScriptTrial {
    pub trial: u32,
    /// The run with the real answers: `orders` and `duplicate_tickets` are
    /// counted in the real database at the end.
    pub metrics: Value,
    /// Calls played on the real servers.
    pub operations: u64,
    /// Where a real answer differed from the model's, in run order.
    pub disagreements: Vec<Disagreement>,
    /// Each `pg` table at the end: the model's rows and duplicates beside
    /// the real ones.
    pub tables: Vec<TableCheck>,
    /// Calls with no real server (the `db` module's), answered by the model.
    pub not_mirrored: Vec<String>,
    /// Why the trial was stopped before it ended: its clock passed
    /// [`REAL_TIME_LIMIT`] (the real answers kept it going).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    pub wall_ms: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Disagreement {
    /// Simulated time of the call, in ms.
    pub at_ms: f64,
    /// The call as the server saw it: a command, or the statement.
    pub call: String,
    pub simulation: Value,
    pub real: Value,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct TableCheck {
    pub table: String,
    pub simulation_rows: u64,
    pub real_rows: u64,
    pub simulation_duplicates: u64,
    pub real_duplicates: u64,
}

#[derive(Debug, Serialize)]
pub struct ScriptSummary {
    /// `agree` when every trial's every answer and table equals the model's,
    /// else `disagree`.
    pub status: &'static str,
    /// One sentence per place they part (empty if they agree).
    pub mismatches: Vec<String>,
}

/// Which cache server a script's clients talk to: memcached for a script
/// that imports `memjs` or `memcached`, else Redis (ioredis, node-redis,
/// and the prelude's own cache).
pub fn cache_server_for(code: &str) -> (CacheServer, &'static str) {
    let imports = |name| crate::script::source::names_module(code, name);
    if imports("memjs") || imports("memcached") {
        (
            CacheServer::Memcached,
            "the script imports a memcached client",
        )
    } else {
        (
            CacheServer::Redis,
            "the script's cache clients speak Redis (or it has none)",
        )
    }
}

/// The longest run real mode replays, on the simulated clock: each call
/// waits for its simulated time to come in real time, so a run that goes
/// on (a retry loop that never succeeds) would take as long for real. The
/// simulation's own run must end within it; a trial whose real answers
/// keep it going past it stops there.
pub const REAL_TIME_LIMIT: Micros = 30 * SECOND;

/// Runs the script in the simulation, then `trials` times mirrored to the
/// real servers, and sets them side by side.
pub fn run(input: &ScriptInput, options: &RealOptions) -> Result<ScriptReport, String> {
    let (config, _) = crate::script::source::parse(input.fragment)
        .map_err(|error| format!("bad scenario: {error}"))?;
    let bad = |error: crate::script::ScriptError| format!("bad script: {error}");
    // The model's own run; its JavaScript (TypeScript stripped) is the
    // one every trial runs.
    let (mut run, stripped) =
        ScriptRun::load(input.code, input.schema, input.route, &config, false).map_err(bad)?;
    let code = stripped.as_deref().unwrap_or(input.code);
    run.set_deadline(REAL_TIME_LIMIT);
    let (simulation, simulated) = finish(run, &config)?;
    if simulated.past_deadline() {
        return Err(format!(
            "the simulated run goes on past {} s (at {} ms of simulated time, {} had not \
             answered): real mode plays each call at the model's pace, so it replays runs of at \
             most {} s; make this one shorter (fewer requests, shorter sleeps, or a retry loop \
             that gives up)",
            REAL_TIME_LIMIT / SECOND,
            simulated.now() / MS,
            requests(simulated.hung()),
            REAL_TIME_LIMIT / SECOND
        ));
    }
    let simulated_ms = simulated.now() as f64 / MS as f64;
    drop(simulated);
    let (cache_server, reason) = match options.cache {
        Some(server) => (server, "chosen with --cache"),
        None => cache_server_for(code),
    };
    let urls = Urls::resolve(options, cache_server)?;
    let mut trials = Vec::new();
    for trial in 0..options.trials {
        let started = Instant::now();
        let real = Real::connect(&urls, cache_server, input.schema)?;
        let mirrored = Rc::new(RefCell::new(MirrorLog::default()));
        let mirror = Box::new(RealMirror {
            real: real.clone(),
            log: mirrored.clone(),
            started: Instant::now(),
            statements: HashMap::new(),
            next: 0,
            uniques: RefCell::new(HashMap::new()),
            last_sent: HashMap::new(),
            waited_at: None,
        });
        let mut run =
            ScriptRun::mirrored(code, input.schema, input.route, &config, mirror).map_err(bad)?;
        run.set_deadline(REAL_TIME_LIMIT);
        let (mut metrics, run) = finish(run, &config)?;
        let stopped = run.past_deadline().then(|| {
            format!(
                "stopped at {} ms of simulated time, past real mode's limit of {} s, with {} \
                 not answered; the simulation ended at {simulated_ms} ms, so the real answers \
                 kept this trial going (see its disagreements)",
                run.now() / MS,
                REAL_TIME_LIMIT / SECOND,
                requests(run.hung())
            )
        });
        let tables = real.check_tables(&run.table_summaries())?;
        let real_orders = tables
            .iter()
            .find(|t| t.table == "orders")
            .map_or(0, |t| t.real_rows);
        let sim_pg_orders = tables
            .iter()
            .find(|t| t.table == "orders")
            .map_or(0, |t| t.simulation_rows);
        if let Value::Object(fields) = &mut metrics {
            let orders = fields.get("orders").and_then(Value::as_u64).unwrap_or(0);
            let duplicates = fields
                .get("duplicate_tickets")
                .and_then(Value::as_u64)
                .unwrap_or(0);
            let sim_pg_duplicates: u64 = tables.iter().map(|t| t.simulation_duplicates).sum();
            let real_duplicates: u64 = tables.iter().map(|t| t.real_duplicates).sum();
            // The `db` module's rows stay the model's (no real server).
            fields.insert("orders".into(), json!(orders - sim_pg_orders + real_orders));
            fields.insert(
                "duplicate_tickets".into(),
                json!(duplicates - sim_pg_duplicates + real_duplicates),
            );
        }
        drop(run);
        real.finish();
        let log = std::mem::take(&mut *mirrored.borrow_mut());
        trials.push(ScriptTrial {
            trial,
            metrics,
            operations: log.operations,
            disagreements: log.disagreements,
            tables,
            not_mirrored: log.not_mirrored,
            stopped,
            wall_ms: started.elapsed().as_millis() as u64,
        });
    }
    let summary = summarize(&trials);
    Ok(ScriptReport {
        fragment: input.fragment.to_string(),
        cache_server: cache_server.name(),
        cache_server_reason: reason,
        order: "replayed: each call goes to the real servers when the simulated run lands it \
                (the fragment's schedule=, else the simulation's own order)",
        simulation,
        trials,
        summary,
    })
}

/// Runs `run` to the end under the config's schedule: the metrics JSON
/// (`custom` and `error_messages` included), and the run.
fn finish(run: ScriptRun, config: &Config) -> Result<(Value, ScriptRun), String> {
    let mut scheduled = Scheduled::new(Box::new(run), &config.schedule);
    match scheduled.finish() {
        // Cut at the event budget, as `run --script` is: the requests
        // still pending are hung.
        Err(ScheduleError::TooLong { .. }) if scheduled.out_of_budget() => {}
        Err(error) => {
            let error = crate::config::url::ConfigError::from(error);
            return Err(format!("bad scenario: {error}"));
        }
        Ok(()) => {}
    }
    let run = *scheduled.into_inner();
    Ok((crate::script::cli::metrics_json(&run), run))
}

/// "1 request", "2 requests".
fn requests(n: u64) -> String {
    format!("{n} request{}", if n == 1 { "" } else { "s" })
}

fn summarize(trials: &[ScriptTrial]) -> ScriptSummary {
    let mut mismatches = Vec::new();
    for trial in trials {
        if let Some(why) = &trial.stopped {
            mismatches.push(format!("trial {}: {why}", trial.trial));
        }
        if let Some(first) = trial.disagreements.first() {
            mismatches.push(format!(
                "trial {}: {} call(s) answered differently on the real servers; the first, at {} ms: \
                 {} (simulation {}, real {})",
                trial.trial,
                trial.disagreements.len(),
                first.at_ms,
                first.call,
                first.simulation,
                first.real
            ));
        }
        for table in &trial.tables {
            if table.simulation_rows != table.real_rows
                || table.simulation_duplicates != table.real_duplicates
            {
                mismatches.push(format!(
                    "trial {}: table {} ends with {} rows ({} duplicate) in the simulation and {} \
                     ({} duplicate) on PostgreSQL",
                    trial.trial,
                    table.table,
                    table.simulation_rows,
                    table.simulation_duplicates,
                    table.real_rows,
                    table.real_duplicates
                ));
            }
        }
    }
    ScriptSummary {
        status: if mismatches.is_empty() {
            "agree"
        } else {
            "disagree"
        },
        mismatches,
    }
}

/// What a trial's mirror saw.
#[derive(Default)]
struct MirrorLog {
    operations: u64,
    disagreements: Vec<Disagreement>,
    not_mirrored: Vec<String>,
}

/// One trial's connections: the cache server, and PostgreSQL in a schema
/// of the trial's own.
#[derive(Clone)]
struct Real {
    runtime: Rc<Runtime>,
    local: Rc<LocalSet>,
    url: String,
    schema: String,
    cache: Rc<CacheConn>,
    /// Keys are the script's with this prefix (the trial's own).
    prefix: String,
    admin: Rc<Client>,
    /// Each `pg` client session's connection (a client's, or a pool's
    /// connection that `pool.query` takes).
    sessions: Rc<RefCell<HashMap<u64, Connection>>>,
}

impl Real {
    fn connect(urls: &Urls, server: CacheServer, schema: Option<&str>) -> Result<Real, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| format!("cannot start tokio: {error}"))?;
        let local = LocalSet::new();
        let id = run_id();
        let (admin, cache) = local.block_on(&runtime, async {
            let admin = db::connect(&urls.postgres, None).await?;
            admin
                .batch_execute(&format!("CREATE SCHEMA {id}"))
                .await
                .map_err(|error| format!("PostgreSQL: {}", said(&error)))?;
            if let Some(sql) = schema {
                let setup = db::connect(&urls.postgres, Some(&id)).await?;
                setup
                    .batch_execute(sql)
                    .await
                    .map_err(|error| format!("PostgreSQL refused the schema: {}", said(&error)))?;
            }
            let cache = match server {
                CacheServer::Memcached => CacheConn::Memcached(Rc::new(tokio::sync::Mutex::new(
                    Memcached::connect(&urls.cache).await.map_err(|error| {
                        format!("cannot connect to memcached at {}: {error}", urls.cache)
                    })?,
                ))),
                CacheServer::Redis => CacheConn::Redis(
                    redis::Client::open(urls.cache.as_str())
                        .map_err(|error| format!("bad Redis URL {}: {error}", urls.cache))?
                        .get_multiplexed_async_connection()
                        .await
                        .map_err(|error| {
                            format!("cannot connect to Redis at {}: {error}", urls.cache)
                        })?,
                ),
            };
            Ok::<_, String>((admin, cache))
        })?;
        Ok(Real {
            runtime: Rc::new(runtime),
            local: Rc::new(local),
            url: urls.postgres.clone(),
            prefix: format!("{id}:"),
            schema: id,
            cache: Rc::new(cache),
            admin: Rc::new(admin),
            sessions: Rc::default(),
        })
    }

    fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.local.block_on(&self.runtime, future)
    }

    /// A session's connection, opened by its first statement.
    fn client(&self, session: u64) -> Result<Connection, String> {
        let existing = self.sessions.borrow().get(&session).cloned();
        if let Some(connection) = existing {
            return Ok(connection);
        }
        let (client, pid) = self.block_on(async {
            let client = db::connect(&self.url, Some(&self.schema)).await?;
            let row = client
                .query_one("SELECT pg_backend_pid()", &[])
                .await
                .map_err(|error| format!("PostgreSQL: {}", said(&error)))?;
            Ok::<_, String>((client, row.get::<_, i32>(0)))
        })?;
        let connection = Connection {
            client: Rc::new(client),
            pid,
        };
        self.sessions
            .borrow_mut()
            .insert(session, connection.clone());
        Ok(connection)
    }

    /// Whether backend `pid` is waiting for a lock (a row another
    /// transaction holds).
    fn waits_for_lock(&self, pid: i32) -> bool {
        self.block_on(db::waits_for_lock(&self.admin, pid))
    }

    fn blocked_by(&self, pid: i32) -> Vec<i32> {
        self.block_on(db::blocked_by(&self.admin, pid))
    }

    /// Each table the model has, with the real rows and duplicates.
    fn check_tables(
        &self,
        tables: &[crate::script::sql::store::TableSummary],
    ) -> Result<Vec<TableCheck>, String> {
        let admin = self.admin.clone();
        let schema = self.schema.clone();
        self.block_on(async move {
            let mut checks = Vec::new();
            for table in tables {
                let count = |sql: String| {
                    let admin = admin.clone();
                    async move {
                        let row = admin
                            .query_one(&sql, &[])
                            .await
                            .map_err(|error| format!("PostgreSQL: {}", said(&error)))?;
                        Ok::<u64, String>(row.get::<_, i64>(0).max(0) as u64)
                    }
                };
                let name = quote_ident(&table.name);
                let real_rows = count(format!("SELECT count(*) FROM {schema}.{name}")).await?;
                let mut real_duplicates = 0;
                for columns in &table.expect_unique {
                    let list: Vec<String> = columns.iter().map(|c| quote_ident(c)).collect();
                    let filled: Vec<String> =
                        list.iter().map(|c| format!("{c} IS NOT NULL")).collect();
                    real_duplicates += count(format!(
                        "SELECT count(*) - count(DISTINCT ROW({})) FROM {schema}.{name} WHERE {}",
                        list.join(", "),
                        filled.join(" AND ")
                    ))
                    .await?;
                }
                checks.push(TableCheck {
                    table: table.name.clone(),
                    simulation_rows: table.rows,
                    real_rows,
                    simulation_duplicates: table.duplicates,
                    real_duplicates,
                });
            }
            Ok(checks)
        })
    }

    /// Drops the trial's schema and its keys' connections.
    fn finish(&self) {
        self.sessions.borrow_mut().clear();
        let admin = self.admin.clone();
        let schema = self.schema.clone();
        self.block_on(async move { db::drop_schema(&admin, &schema).await });
    }
}

/// PostgreSQL's own message for an error (tokio-postgres shows "db error").
fn said(error: &tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{} (SQLSTATE {})", db.message(), db.code().code()),
        None => error.to_string(),
    }
}

/// A connection to the trial's PostgreSQL, and its backend's pid.
#[derive(Clone)]
struct Connection {
    client: Rc<Client>,
    pid: i32,
}

fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A statement on its way: its connection, its text and the real
/// server's answer.
struct InFlight {
    connection: Option<Connection>,
    text: String,
    at: Micros,
    /// The real answer to come, or why no connection could send it.
    answer: Result<JoinHandle<Result<Vec<SimpleQueryMessage>, tokio_postgres::Error>>, String>,
}

struct RealMirror {
    real: Real,
    log: Rc<RefCell<MirrorLog>>,
    /// The trial's start: a call at simulated time t goes no earlier than
    /// t after it, so expiries on the real servers keep the model's pace.
    started: Instant,
    statements: HashMap<u64, InFlight>,
    next: u64,
    /// memcached's CAS uniques: the model's (a script's `gets` gave it)
    /// to the real server's for the same value, so a `cas` plays with the
    /// real one.
    uniques: RefCell<HashMap<u64, u64>>,
    /// The last statement each backend (by pid) was sent, and by which
    /// request: what a wait the model does not have waits for, in its
    /// report.
    last_sent: HashMap<i32, (Option<u32>, String)>,
    /// When the last statement seen waiting on the real server began to
    /// wait (near enough: when it was seen), for [`WAIT_SPACING`].
    waited_at: Option<Instant>,
}

impl RealMirror {
    fn pace(&self, now: Micros) {
        // The step that passes the limit is the trial's last.
        let due = self.started + Duration::from_micros(now.min(REAL_TIME_LIMIT));
        self.real
            .block_on(async move { tokio::time::sleep_until(due.into()).await });
    }

    /// Why a statement the model answered is not answered: the real
    /// server still waits for a lock, held by the transactions
    /// `pg_blocking_pids` names, told by their requests and the statement
    /// each sent last.
    fn still_waits(&self, pid: Option<i32>) -> String {
        let blockers = pid.map(|pid| self.real.blocked_by(pid)).unwrap_or_default();
        let held: Vec<String> = blockers
            .iter()
            .filter_map(|pid| self.last_sent.get(pid))
            .map(|(request, sql)| {
                let sql = sql.split_whitespace().collect::<Vec<_>>().join(" ");
                match request {
                    Some(request) => {
                        format!("#{request}'s transaction (its last statement: `{sql}`)")
                    }
                    None => format!("the top level's transaction (its last statement: `{sql}`)"),
                }
            })
            .collect();
        let by = match held.is_empty() {
            true => String::new(),
            false => format!(", for a lock held by {}", held.join(" and ")),
        };
        format!(
            "the real PostgreSQL still waits after {} s{by}; the model answered it",
            STATEMENT_WAIT.as_secs()
        )
    }

    fn disagree(&self, at: Micros, call: String, simulation: Value, real: Value) {
        self.log.borrow_mut().disagreements.push(Disagreement {
            at_ms: at as f64 / MS as f64,
            call,
            simulation,
            real,
        });
    }

    /// Plays a cache call on the real server: its answer as the model
    /// words it, and the call as the server saw it.
    fn play(&self, call: &Call, now: Micros) -> Option<(String, CacheAnswer)> {
        let key = |key: &str| format!("{}{key}", self.real.prefix);
        let cache = &self.real.cache;
        let failed = |error: crate::real::cache::CacheError| Err(format!("real server: {error}"));
        let integer = |n: Result<Result<i64, String>, crate::real::cache::CacheError>| match n {
            Ok(Ok(n)) => Ok(Some(json!(n))),
            Ok(Err(message)) => Err(message),
            Err(error) => failed(error),
        };
        let yes = |done: Result<bool, crate::real::cache::CacheError>| match done {
            Ok(yes) => Ok(Some(Value::Bool(yes))),
            Err(error) => failed(error),
        };
        let played = self.real.block_on(async {
            Some(match call {
                Call::Get(k) => (
                    format!("GET {k}"),
                    match cache.get(&key(k)).await {
                        Ok(found) => Ok(found.map(redis_string)),
                        Err(error) => failed(error),
                    },
                ),
                Call::Set(k, value, ttl) => (
                    format!("SET {k} {}", text_of(value)),
                    match cache.set(&key(k), &text_of(value), *ttl).await {
                        Ok(()) => Ok(Some(Value::Bool(true))),
                        Err(error) => failed(error),
                    },
                ),
                Call::Add(k, value, ttl) => (
                    format!("ADD {k} {}", text_of(value)),
                    yes(cache.add(&key(k), &text_of(value), *ttl).await),
                ),
                Call::Replace(k, value, ttl) => (
                    format!("REPLACE {k} {}", text_of(value)),
                    yes(cache.replace(&key(k), &text_of(value), *ttl).await),
                ),
                Call::Delete(k) => (format!("DELETE {k}"), yes(cache.delete(&key(k)).await)),
                Call::Expire(k, expiry, only) => {
                    let ttl = expiry.ttl(now);
                    (
                        format!(
                            "EXPIRE {k} {} ms{}",
                            ttl / MS,
                            only.words()
                                .iter()
                                .map(|w| format!(" {w}"))
                                .collect::<String>()
                        ),
                        yes(cache.expire(&key(k), ttl, &only.words()).await),
                    )
                }
                Call::Pttl(k) => (
                    format!("PTTL {k}"),
                    match cache.key_integer("PTTL", &key(k)).await {
                        Ok(ttl) => Ok(Some(json!(ttl))),
                        Err(error) => failed(error),
                    },
                ),
                Call::Touch(k, ttl) => (
                    format!("TOUCH {k} {} ms", ttl / MS),
                    yes(cache.touch(&key(k), *ttl).await),
                ),
                Call::Persist(k) => (
                    format!("PERSIST {k}"),
                    yes(cache.key_integer("PERSIST", &key(k)).await.map(|n| n == 1)),
                ),
                Call::GetDelete(k) => (
                    format!("GETDEL {k}"),
                    match cache.string_reply("GETDEL", &key(k), &[]).await {
                        Ok(Ok(found)) => Ok(found.map(redis_string)),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::SetWith(k, value, options) => {
                    let mut args = vec![text_of(value)];
                    args.extend(set_words(options, now));
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    (
                        format!("SET {k} {}", args.join(" ")),
                        match cache.string_reply("SET", &key(k), &args).await {
                            Ok(Ok(reply)) if options.get => Ok(reply.map(redis_string)),
                            Ok(Ok(reply)) => Ok(Some(Value::Bool(reply.is_some()))),
                            Ok(Err(message)) => Err(message),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::GetEx(k, change) => {
                    let args = match change {
                        ExpiryChange::Keep => Vec::new(),
                        ExpiryChange::Persist => vec!["PERSIST".to_string()],
                        ExpiryChange::Set(expiry) => expiry_words(*expiry, now),
                        // Redis's own refusal of a time that is not one.
                        ExpiryChange::Refused(_) => vec!["PX".to_string(), "0".to_string()],
                    };
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    (
                        format!("GETEX {k} {}", args.join(" ")),
                        match cache.string_reply("GETEX", &key(k), &args).await {
                            Ok(Ok(found)) => Ok(found.map(redis_string)),
                            Ok(Err(message)) => Err(message),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::DeleteIf(k, value) => (
                    format!("DELETE {k} IF {}", text_of(value)),
                    match cache.get(&key(k)).await {
                        Ok(Some(text)) if text == text_of(value) => {
                            yes(cache.delete(&key(k)).await)
                        }
                        Ok(_) => Ok(Some(Value::Bool(false))),
                        Err(error) => failed(error),
                    },
                ),
                Call::Incr(k, by) => (
                    format!("INCRBY {k} {by}"),
                    // The new value's digits, as the model answers.
                    match cache.count(&key(k), *by as i64).await {
                        Ok(Ok(Some(n))) => Ok(Some(json!(n.to_string()))),
                        // memcached: a missing counter starts at 0, as
                        // Redis's INCR does.
                        Ok(Ok(None)) => {
                            match cache.add(&key(k), &(*by as i64).to_string(), 0).await {
                                Ok(_) => Ok(Some(json!(*by as i64))),
                                Err(error) => failed(error),
                            }
                        }
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::IncrFloat(k, by) => (
                    format!("INCRBYFLOAT {k} {by}"),
                    match cache
                        .text_write(&key(k), "INCRBYFLOAT", std::slice::from_ref(by))
                        .await
                    {
                        Ok(Ok(text)) => Ok(Some(Value::String(text))),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::Gets(k) => (
                    format!("GETS {k}"),
                    match cache.gets(&key(k)).await {
                        Ok(found) => Ok(found.map(|(value, unique)| {
                            json!({"value": redis_string(value), "cas": unique.to_string()})
                        })),
                        Err(error) => failed(error),
                    },
                ),
                Call::Cas(k, value, unique, ttl) => {
                    let real = self.uniques.borrow().get(unique).copied().unwrap_or(0);
                    (
                        format!("CAS {k} {} {unique}", text_of(value)),
                        match cache.cas(&key(k), &text_of(value), *ttl, real).await {
                            Ok(reply) => Ok(Some(Value::String(reply))),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::Attach(k, more, front) => (
                    format!("{} {k} {more}", if *front { "PREPEND" } else { "APPEND" }),
                    yes(cache.attach(&key(k), more, *front).await),
                ),
                Call::Counter(k, by, initial) => (
                    format!(
                        "{} {k} {}",
                        if *by < 0.0 { "DECR" } else { "INCR" },
                        by.abs()
                    ),
                    match cache.count(&key(k), *by as i64).await {
                        Ok(Ok(Some(n))) => Ok(Some(json!(n))),
                        Ok(Ok(None)) => match initial {
                            Some((start, ttl)) => {
                                match cache.add(&key(k), &(*start as i64).to_string(), *ttl).await {
                                    Ok(_) => Ok(Some(json!((*start as i64).to_string()))),
                                    Err(error) => failed(error),
                                }
                            }
                            None => Ok(Some(Value::Null)),
                        },
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::Locks(script, keys, value, ttl) => {
                    // Redlock's script on the keys, read then written:
                    // nothing else runs between (the replay is one call
                    // at a time).
                    let text = text_of(value);
                    let played = async {
                        let mut found = Vec::new();
                        for k in keys {
                            found.push(cache.get(&key(k)).await?);
                        }
                        let ours = |f: &Option<String>| f.as_deref() == Some(text.as_str());
                        let mut done = 0u64;
                        match script {
                            LockScript::Acquire | LockScript::Extend => {
                                let take = match script {
                                    LockScript::Acquire => found.iter().all(Option::is_none),
                                    _ => found.iter().all(ours),
                                };
                                for k in keys.iter().filter(|_| take) {
                                    cache.set(&key(k), &text, *ttl).await?;
                                    done += 1;
                                }
                            }
                            LockScript::Release => {
                                for (k, f) in keys.iter().zip(&found) {
                                    if ours(f) {
                                        cache.delete(&key(k)).await?;
                                        done += 1;
                                    }
                                }
                            }
                        }
                        Ok::<u64, crate::real::cache::CacheError>(done)
                    };
                    (
                        format!("redlock {script:?} {}", keys.join(" ")),
                        match played.await {
                            Ok(done) => Ok(Some(json!(done))),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::HashRead(k, fields) => (
                    match fields {
                        None => format!("HGETALL {k}"),
                        Some(fields) => format!("HMGET {k} {}", fields.join(" ")),
                    },
                    match cache.hash_read(&key(k), fields.as_deref()).await {
                        Ok(Ok(read)) => Ok(Some(Value::Object(
                            read.into_iter()
                                .map(|(field, value)| {
                                    (field, value.map_or(Value::Null, redis_string))
                                })
                                .collect(),
                        ))),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::HashWrite(k, write) => {
                    let (command, args): (&str, Vec<String>) = match write {
                        HashWrite::Set(pairs, false) => (
                            "HSET",
                            pairs
                                .iter()
                                .flat_map(|(f, v)| [f.clone(), text_of(v)])
                                .collect(),
                        ),
                        HashWrite::Set(pairs, true) => (
                            "HSETNX",
                            pairs
                                .iter()
                                .flat_map(|(f, v)| [f.clone(), text_of(v)])
                                .collect(),
                        ),
                        HashWrite::Delete(fields) => ("HDEL", fields.clone()),
                        HashWrite::IncrBy(field, by) => {
                            ("HINCRBY", vec![field.clone(), (*by as i64).to_string()])
                        }
                        HashWrite::IncrByFloat(field, by) => {
                            ("HINCRBYFLOAT", vec![field.clone(), by.clone()])
                        }
                    };
                    (
                        format!("{command} {k} {}", args.join(" ")),
                        match command {
                            "HINCRBYFLOAT" => cache
                                .text_write(&key(k), command, &args)
                                .await
                                .map(|reply| reply.map(Value::String)),
                            _ => cache
                                .count_write(&key(k), command, &args)
                                .await
                                .map(|reply| reply.map(|n| json!(n))),
                        }
                        .map_or_else(failed, |reply| reply.map(Some)),
                    )
                }
                Call::SetRead(k, asked) => (
                    match asked {
                        None => format!("SMEMBERS {k}"),
                        Some(asked) => format!("SMISMEMBER {k} {}", asked.join(" ")),
                    },
                    match cache.set_read(&key(k), asked.as_deref()).await {
                        Ok(Ok(mut read)) => {
                            if asked.is_none() {
                                sort_members(&mut read);
                            }
                            Ok(Some(Value::Array(
                                read.into_iter()
                                    .map(|text| match asked {
                                        None => Value::String(text),
                                        Some(_) => redis_string(text),
                                    })
                                    .collect(),
                            )))
                        }
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::SetWrite(k, add, members) => {
                    let command = if *add { "SADD" } else { "SREM" };
                    (
                        format!("{command} {k} {}", members.join(" ")),
                        match cache.count_write(&key(k), command, members).await {
                            Ok(Ok(n)) => Ok(Some(json!(n))),
                            Ok(Err(message)) => Err(message),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::ListRead(k, start, stop) => (
                    format!("LRANGE {k} {start} {stop}"),
                    match cache.list_items(&key(k), None, (*start, *stop)).await {
                        Ok(Ok(items)) => Ok(Some(Value::Array(
                            items.iter().cloned().map(redis_string).collect(),
                        ))),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::ListWrite(k, ListWrite::Push { left, values }) => {
                    let command = if *left { "LPUSH" } else { "RPUSH" };
                    let values: Vec<String> = values.iter().map(text_of).collect();
                    (
                        format!("{command} {k} {}", values.join(" ")),
                        match cache.count_write(&key(k), command, &values).await {
                            Ok(Ok(n)) => Ok(Some(json!(n))),
                            Ok(Err(message)) => Err(message),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::ListWrite(k, ListWrite::Pop { left, count }) => (
                    format!("{} {k} {count}", if *left { "LPOP" } else { "RPOP" }),
                    match cache
                        .list_items(&key(k), Some(*left), (*count as i64, 0))
                        .await
                    {
                        Ok(Ok(items)) => Ok(Some(Value::Array(
                            items.iter().cloned().map(redis_string).collect(),
                        ))),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::ListWrite(k, ListWrite::Remove { count, value }) => (
                    format!("LREM {k} {count} {}", text_of(value)),
                    match cache
                        .count_write(&key(k), "LREM", &[count.to_string(), text_of(value)])
                        .await
                    {
                        Ok(Ok(n)) => Ok(Some(json!(n))),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::ListWrite(k, write @ (ListWrite::Trim { .. } | ListWrite::Set { .. })) => {
                    let (command, args) = match write {
                        ListWrite::Trim { start, stop } => {
                            ("LTRIM", [start.to_string(), stop.to_string()])
                        }
                        ListWrite::Set { index, value } => {
                            ("LSET", [index.to_string(), text_of(value)])
                        }
                        _ => unreachable!("matched above"),
                    };
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    (
                        format!("{command} {k} {}", args.join(" ")),
                        match cache.string_reply(command, &key(k), &args).await {
                            Ok(Ok(reply)) => Ok(reply.map(Value::String)),
                            Ok(Err(message)) => Err(message),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::ZsetRead(k) => (
                    format!("ZRANGE {k} 0 -1 WITHSCORES"),
                    match cache.zset_read(&key(k)).await {
                        Ok(Ok(pairs)) => Ok(Some(Value::Array(
                            pairs
                                .into_iter()
                                .map(|(member, score)| json!([member, score.to_string()]))
                                .collect(),
                        ))),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::ZsetWrite(k, write) => {
                    let (command, args) = zset_command(write);
                    (
                        format!("{command} {k} {}", args.join(" ")),
                        match cache.zset_write(&key(k), command, &args).await {
                            Ok(Ok(ZsetAnswer::Count(n))) => Ok(Some(json!(n))),
                            Ok(Ok(ZsetAnswer::Score(score))) => {
                                Ok(Some(score.map_or(Value::Null, |s| json!(s.to_string()))))
                            }
                            Ok(Ok(ZsetAnswer::Popped(items))) => Ok(Some(json!(items))),
                            Ok(Err(message)) => Err(message),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::Keys(pattern) => (
                    format!("KEYS {pattern}"),
                    match cache.keys(&key(pattern)).await {
                        Ok(found) => {
                            let prefix = &self.real.prefix;
                            let mut found: Vec<&str> = found
                                .iter()
                                .filter_map(|k| k.strip_prefix(prefix.as_str()))
                                .collect();
                            // The model answers in key order; the server, in
                            // its hash table's.
                            found.sort_unstable();
                            Ok(Some(json!(found)))
                        }
                        Err(error) => failed(error),
                    },
                ),
                Call::Type(k) => (
                    format!("TYPE {k}"),
                    match cache.string_reply("TYPE", &key(k), &[]).await {
                        Ok(Ok(name)) => Ok(name.map(Value::String)),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::Strlen(k) => (
                    format!("STRLEN {k}"),
                    integer(cache.count_write(&key(k), "STRLEN", &[]).await),
                ),
                Call::Append(k, more) => (
                    format!("APPEND {k} {more}"),
                    integer(
                        cache
                            .count_write(&key(k), "APPEND", std::slice::from_ref(more))
                            .await,
                    ),
                ),
                // On the trial's own channel, to which no one listens.
                Call::Publish(channel, message) => (
                    format!("PUBLISH {channel} {message}"),
                    integer(
                        cache
                            .count_write(&key(channel), "PUBLISH", std::slice::from_ref(message))
                            .await,
                    ),
                ),
                Call::ListMove(k, to, from_left, to_left) => {
                    let side = |left: bool| if left { "LEFT" } else { "RIGHT" };
                    let (from_side, to_side) = (side(*from_left), side(*to_left));
                    (
                        format!("LMOVE {k} {to} {from_side} {to_side}"),
                        match cache
                            .string_reply("LMOVE", &key(k), &[&key(to), from_side, to_side])
                            .await
                        {
                            Ok(Ok(moved)) => Ok(moved.map(redis_string)),
                            Ok(Err(message)) => Err(message),
                            Err(error) => failed(error),
                        },
                    )
                }
                Call::Rename(k, to, false) => (
                    format!("RENAME {k} {to}"),
                    match cache.string_reply("RENAME", &key(k), &[&key(to)]).await {
                        Ok(Ok(_)) => Ok(Some(Value::Bool(true))),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                Call::Rename(k, to, true) => (
                    format!("RENAMENX {k} {to}"),
                    match cache.count_write(&key(k), "RENAMENX", &[key(to)]).await {
                        Ok(Ok(moved)) => Ok(Some(Value::Bool(moved == 1))),
                        Ok(Err(message)) => Err(message),
                        Err(error) => failed(error),
                    },
                ),
                // A SCAN's cursors are the server's own: the model's pages
                // stand (it reads nothing the model does not).
                Call::Scan(_)
                | Call::GetStale(_)
                | Call::Find(..)
                | Call::FindOne(..)
                | Call::Insert(..)
                | Call::Update(..)
                | Call::Remove(..)
                | Call::Watch(..)
                | Call::Exec(..)
                | Call::Sql(_) => return None,
            })
        });
        played
    }

    /// A `gets` answered by both: the real CAS unique is noted for the
    /// model's, and the answer carries the model's (each server numbers
    /// its own stores), and the model's value when their texts agree (as
    /// a `get`'s answers are compared).
    fn own_unique(&self, call: &Call, simulated: &CacheAnswer, real: &mut CacheAnswer) {
        let (Call::Gets(_), Ok(Some(model)), Ok(Some(server))) = (call, simulated, real) else {
            return;
        };
        let unique = |found: &Value| found["cas"].as_str().and_then(|n| n.parse::<u64>().ok());
        if let (Some(mine), Some(theirs)) = (unique(model), unique(server)) {
            self.uniques.borrow_mut().insert(mine, theirs);
            server["cas"] = model["cas"].clone();
        }
        if text_of(&model["value"]) == text_of(&server["value"]) {
            server["value"] = model["value"].clone();
        }
    }

    /// An `EXEC` the model ran (or a pipeline): its calls played one after
    /// another (nothing else plays between them), each one's answer as
    /// `{ value }` or `{ error }`. One the model aborted plays nothing: the
    /// model decides which `WATCH` fails (the replay is one call at a time,
    /// on one connection).
    fn play_exec(
        &self,
        calls: &[Call],
        simulated: &CacheAnswer,
        now: Micros,
    ) -> Option<(String, CacheAnswer)> {
        if matches!(simulated, Ok(Some(Value::Null))) {
            return None;
        }
        let mut texts = Vec::new();
        let mut answers = Vec::new();
        for call in calls {
            let (text, answer) = self.play(call, now)?;
            texts.push(text);
            answers.push(match answer {
                Ok(value) => exec_answer(value),
                Err(message) => json!({ "error": message }),
            });
        }
        Some((
            format!("MULTI {} EXEC", texts.join("; ")),
            Ok(Some(Value::Array(answers))),
        ))
    }
}

/// Two `EXEC` answers agree when each call's does (an error agrees with an
/// error, whatever its text).
fn same_exec_answer(simulated: &CacheAnswer, real: &CacheAnswer) -> bool {
    // A null and no answer agree (a model's null and a server's miss); a
    // value agrees with one of the same text (a memcached `null` stored
    // as JSON comes back as the text "null").
    let one = |answer: &Value| match answer.get("error") {
        Some(message) => Err(message.to_string()),
        None if answer.get("absent").is_some() => Ok(None),
        None => Ok(answer.get("value").cloned()),
    };
    let same = |a: &CacheAnswer, b: &CacheAnswer| match (a, b) {
        (Ok(None | Some(Value::Null)), Ok(None | Some(Value::Null))) => true,
        _ => same_cache_answer(a, b),
    };
    match (simulated, real) {
        (Ok(Some(Value::Array(a))), Ok(Some(Value::Array(b)))) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(&one(a), &one(b)))
        }
        _ => same_cache_answer(simulated, real),
    }
}

impl Mirror for RealMirror {
    fn cache(&mut self, call: &Call, now: Micros, simulated: &CacheAnswer) -> Option<CacheAnswer> {
        self.pace(now);
        let played = match call {
            Call::Exec(_, calls) => self.play_exec(calls, simulated, now),
            _ => self.play(call, now),
        };
        let Some((text, mut real)) = played else {
            let name = match call {
                Call::GetStale(_) => "a stale-serving read (the real servers keep no stale value)",
                Call::Scan(_) => "Redis's SCAN (its cursors are the server's; its pages are the model's)",
                Call::Watch(..) | Call::Exec(..) => {
                    "Redis's WATCH (the simulation decides which EXEC aborts; an EXEC it runs plays its commands)"
                }
                _ => "the `db` module (no real server)",
            };
            let mut log = self.log.borrow_mut();
            if !log.not_mirrored.iter().any(|n| n == name) {
                log.not_mirrored.push(name.to_string());
            }
            return None;
        };
        self.log.borrow_mut().operations += 1;
        self.own_unique(call, simulated, &mut real);
        if same_exec_answer(simulated, &real) || same_expiry(call, simulated, &real) {
            return None;
        }
        let shown = |answer: &CacheAnswer| match answer {
            Ok(value) => value.clone().unwrap_or(Value::Null),
            Err(message) => json!({ "error": message }),
        };
        self.disagree(now, text, shown(simulated), shown(&real));
        Some(real)
    }

    fn sql_send(
        &mut self,
        request: Option<u32>,
        session: u64,
        text: &str,
        values: &[Value],
        now: Micros,
    ) -> u64 {
        self.pace(now);
        if let Some(due) = self.waited_at.take().map(|at| at + WAIT_SPACING) {
            self.real
                .block_on(async move { tokio::time::sleep_until(due.into()).await });
        }
        self.log.borrow_mut().operations += 1;
        let id = self.next;
        self.next += 1;
        let sql = bind(text, values);
        let (connection, answer) = match self.real.client(session) {
            Ok(connection) => {
                self.last_sent
                    .insert(connection.pid, (request, sql.clone()));
                let running = connection.client.clone();
                let statement = sql.clone();
                // Sent now; answered (or seen waiting) before the next call.
                let answer = self
                    .real
                    .local
                    .spawn_local(async move { running.simple_query(&statement).await });
                (Some(connection), Ok(answer))
            }
            Err(error) => (None, Err(error)),
        };
        self.statements.insert(
            id,
            InFlight {
                connection,
                text: sql,
                at: now,
                answer,
            },
        );
        id
    }

    fn sql_close(&mut self, session: u64) {
        let Some(connection) = self.real.sessions.borrow_mut().remove(&session) else {
            return;
        };
        // The last handle on the client goes: its connection ends, and the
        // server ends the session (its locks go) a moment later.
        let pid = connection.pid;
        drop(connection);
        let until = Instant::now() + STATEMENT_WAIT;
        while self.real.block_on(db::is_alive(&self.real.admin, pid)) && Instant::now() < until {
            self.real
                .block_on(async { tokio::time::sleep(Duration::from_millis(1)).await });
        }
    }

    fn sql_waits(&mut self, id: u64) {
        let Some(InFlight {
            connection: Some(connection),
            answer: Ok(answer),
            ..
        }) = self.statements.get(&id)
        else {
            return;
        };
        // The next call may be the one that ends the wait: it goes only
        // once this statement has reached the server and waits there (or
        // has been answered: then `sql_answer` tells the difference).
        let until = Instant::now() + STATEMENT_WAIT;
        while !answer.is_finished() && Instant::now() < until {
            if self.real.waits_for_lock(connection.pid) {
                self.waited_at = Some(Instant::now());
                return;
            }
            self.real
                .block_on(async { tokio::time::sleep(Duration::from_millis(1)).await });
        }
    }

    fn sql_first(&mut self, ids: &[u64]) -> Option<usize> {
        let in_flight = |id: &u64| match self.statements.get(id) {
            Some(InFlight {
                connection: Some(connection),
                answer: Ok(answer),
                ..
            }) => Some((connection.pid, answer)),
            _ => None,
        };
        let (oldest, answer) = in_flight(&ids[0])?;
        let pids: Vec<Option<i32>> = ids
            .iter()
            .map(|id| in_flight(id).map(|(pid, _)| pid))
            .collect();
        let woken = |pid: &i32| pids.contains(&Some(*pid));
        // Right after the end, none may have woken yet: asked again until
        // one of these tells.
        let until = Instant::now() + STATEMENT_WAIT;
        while !answer.is_finished() && Instant::now() < until {
            let blockers = self.real.blocked_by(oldest);
            if !blockers.is_empty() {
                // The oldest waits: for another of them that was answered
                // (it took the row), or that waits itself for a lock none
                // of them holds (it took the row, then met another's); or
                // for none of them (nothing went ahead of it).
                let answered = ids[1..]
                    .iter()
                    .position(|id| in_flight(id).is_some_and(|(_, answer)| answer.is_finished()));
                if let Some(index) = answered {
                    return Some(index + 1);
                }
                if !blockers.iter().any(woken) {
                    return None;
                }
                let ahead = pids[1..].iter().position(|pid| {
                    pid.is_some_and(|pid| {
                        blockers.contains(&pid) && {
                            let its = self.real.blocked_by(pid);
                            !its.is_empty() && !its.iter().any(woken)
                        }
                    })
                });
                if let Some(index) = ahead {
                    return Some(index + 1);
                }
            }
            self.real
                .block_on(async { tokio::time::sleep(Duration::from_millis(1)).await });
        }
        if !answer.is_finished() {
            let oldest = &self.statements[&ids[0]];
            self.disagree(
                oldest.at,
                oldest.text.clone(),
                json!("runs first of the statements that woke together"),
                json!({"error": {
                    "code": "waiting",
                    "message": format!(
                        "after {} s the real PostgreSQL had answered none of the {} statements \
                         that woke together, nor shown which went first; the replay goes on \
                         with the oldest",
                        STATEMENT_WAIT.as_secs(),
                        ids.len()
                    ),
                }}),
            );
        }
        None
    }

    fn sql_answer(&mut self, id: u64, simulated: &Value) -> Option<Value> {
        let statement = self.statements.remove(&id)?;
        let pid = statement
            .connection
            .as_ref()
            .map(|connection| connection.pid);
        let real = match statement.answer {
            Err(error) => json!({"error": {"code": "08006", "message": error}}),
            Ok(answer) => {
                let answered = self
                    .real
                    .block_on(async { tokio::time::timeout(STATEMENT_WAIT, answer).await });
                match answered {
                    Err(_) => json!({"error": {
                        "code": "waiting",
                        "message": self.still_waits(pid),
                    }}),
                    Ok(Err(join)) => {
                        json!({"error": {"code": "XX000", "message": join.to_string()}})
                    }
                    Ok(Ok(Err(error))) => pg_error(&error),
                    Ok(Ok(Ok(messages))) => pg_reply(&messages, simulated),
                }
            }
        };
        if same_reply(simulated, &real) {
            return None;
        }
        self.disagree(
            statement.at,
            statement.text,
            simulated.clone(),
            real.clone(),
        );
        Some(real)
    }
}

/// The options of a `SET` as Redis's words, its expiry the time left at
/// `now` (see [`expiry_words`]).
fn set_words(options: &SetOptions, now: Micros) -> Vec<String> {
    let mut words = Vec::new();
    match options.only {
        Some(Only::Nx) => words.push("NX".to_string()),
        Some(Only::Xx) => words.push("XX".to_string()),
        None => {}
    }
    if options.get {
        words.push("GET".to_string());
    }
    match options.ttl {
        None => words.push("KEEPTTL".to_string()),
        Some(Expiry::In(0)) => {}
        Some(expiry) => words.extend(expiry_words(expiry, now)),
    }
    words
}

/// An expiry as Redis's words: `PX` of the time left at `now`, in whole
/// milliseconds rounded up (the real server's clock is not the run's, so
/// an `EXAT` or `PXAT` goes as the time it leaves), or `PXAT 1`, long
/// passed, for a time that has passed.
fn expiry_words(expiry: Expiry, now: Micros) -> Vec<String> {
    match expiry.ttl(now) {
        0 => vec!["PXAT".to_string(), "1".to_string()],
        ttl => vec!["PX".to_string(), ttl.div_ceil(MS).max(1).to_string()],
    }
}

/// A PTTL's answers agree when both find the key with an expiry (its
/// milliseconds left are the real clock's, which runs behind the model's
/// by however long the calls took), or both say the same -1 or -2.
fn same_expiry(call: &Call, simulated: &CacheAnswer, real: &CacheAnswer) -> bool {
    let expires = |answer: &CacheAnswer| matches!(answer, Ok(Some(value)) if value.as_i64().is_some_and(|ms| ms >= 0));
    matches!(call, Call::Pttl(_)) && expires(simulated) && expires(real)
}

/// A sorted-set write as the Redis command that makes it.
fn zset_command(write: &ZsetWrite) -> (&'static str, Vec<String>) {
    match write {
        ZsetWrite::Add { args } => ("ZADD", args.clone()),
        ZsetWrite::Remove { members } => ("ZREM", members.clone()),
        ZsetWrite::RemoveByScore { min, max } => {
            ("ZREMRANGEBYSCORE", vec![min.clone(), max.clone()])
        }
        ZsetWrite::RemoveByRank { start, stop } => {
            ("ZREMRANGEBYRANK", vec![start.clone(), stop.clone()])
        }
        ZsetWrite::Pop { max, count } => (
            if *max { "ZPOPMAX" } else { "ZPOPMIN" },
            count.iter().cloned().collect(),
        ),
    }
}

/// Two cache answers agree when they store and read the same bytes, or
/// both refuse.
fn same_cache_answer(simulated: &CacheAnswer, real: &CacheAnswer) -> bool {
    match (simulated, real) {
        (Ok(a), Ok(b)) => a.as_ref().map(text_of) == b.as_ref().map(text_of),
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

/// A statement with its `$n` parameters written in as literals of unknown
/// type, as PostgreSQL infers `pg`'s untyped text parameters. Quoted text,
/// quoted names and comments are left alone.
pub fn bind(text: &str, values: &[Value]) -> String {
    if values.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                out.push(c);
                for inner in chars.by_ref() {
                    out.push(inner);
                    if inner == c {
                        break;
                    }
                }
            }
            '-' if chars.peek() == Some(&'-') => {
                out.push(c);
                for inner in chars.by_ref() {
                    out.push(inner);
                    if inner == '\n' {
                        break;
                    }
                }
            }
            '$' if chars.peek().is_some_and(char::is_ascii_digit) => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                match digits
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| values.get(n.wrapping_sub(1)))
                {
                    Some(value) => out.push_str(&literal(value)),
                    None => {
                        out.push('$');
                        out.push_str(&digits);
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// A value as `pg` sends it (its `prepareValue`), as a quoted literal.
fn literal(value: &Value) -> String {
    let text = match value {
        Value::Null => return "NULL".to_string(),
        Value::Bool(yes) => yes.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(text) => text.clone(),
        Value::Array(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|item| match item {
                    Value::Null => "NULL".to_string(),
                    other => format!(
                        "\"{}\"",
                        text_of(other).replace('\\', "\\\\").replace('"', "\\\"")
                    ),
                })
                .collect();
            format!("{{{}}}", items.join(","))
        }
        Value::Object(_) => value.to_string(),
    };
    format!("'{}'", text.replace('\'', "''"))
}

/// PostgreSQL's error as the prelude reads one.
fn pg_error(error: &tokio_postgres::Error) -> Value {
    match error.as_db_error() {
        Some(db) => json!({"error": {
            "code": db.code().code(),
            "message": db.message(),
            "detail": db.detail(),
            "constraint": db.constraint(),
            "table": db.table(),
            "column": db.column(),
        }}),
        None => json!({"error": {"code": "08006", "message": error.to_string()}}),
    }
}

/// The type ids whose values are compared: dates and times are the real
/// clock's, never the model's.
fn compared(oid: u64) -> bool {
    !matches!(oid, 1082 | 1083 | 1114 | 1184 | 1266)
}

/// A real reply as `pg` reads it, each column typed as the model typed it
/// (`pg`'s default parsers: integers up to int4 and floats are numbers,
/// int8 and numeric strings, json parsed, booleans).
fn pg_reply(messages: &[SimpleQueryMessage], simulated: &Value) -> Value {
    let types: HashMap<String, u64> = simulated["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|field| {
            Some((
                field["name"].as_str()?.to_string(),
                field["dataTypeID"].as_u64()?,
            ))
        })
        .collect();
    let mut rows = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut row_count = None;
    for message in messages {
        match message {
            SimpleQueryMessage::Row(row) => {
                names = row.columns().iter().map(|c| c.name().to_string()).collect();
                let mut object = serde_json::Map::new();
                for (index, name) in names.iter().enumerate() {
                    let oid = types.get(name).copied().unwrap_or(25);
                    object.insert(name.clone(), typed(row.get(index), oid));
                }
                rows.push(Value::Object(object));
            }
            SimpleQueryMessage::CommandComplete(n) => row_count = Some(*n),
            _ => {}
        }
    }
    let fields: Vec<Value> = names
        .iter()
        .map(|name| json!({"name": name, "dataTypeID": types.get(name).copied().unwrap_or(25)}))
        .collect();
    json!({
        "command": simulated["command"].clone(),
        "rowCount": row_count,
        "rows": rows,
        "fields": fields,
    })
}

fn typed(text: Option<&str>, oid: u64) -> Value {
    let Some(text) = text else {
        return Value::Null;
    };
    match oid {
        16 => Value::Bool(text == "t"),
        21 | 23 | 26 => text
            .parse::<i64>()
            .map_or_else(|_| json!(text), |n| json!(n)),
        // A whole double as the model writes one (`2`, not `2.0`): the
        // same JavaScript number.
        700 | 701 => text
            .parse::<f64>()
            .map_or_else(|_| json!(text), crate::script::world::number),
        114 | 3802 => serde_json::from_str(text).unwrap_or_else(|_| json!(text)),
        _ => match array_element_oid(oid) {
            Some(element) => match crate::script::sql::array_text::parse(text) {
                Ok(items) => Value::Array(
                    items
                        .iter()
                        .map(|item| typed(item.as_str(), element))
                        .collect(),
                ),
                Err(_) => json!(text),
            },
            None => json!(text),
        },
    }
}

/// The element type id of an array type id the model keeps.
fn array_element_oid(oid: u64) -> Option<u64> {
    crate::sql::Element::ALL
        .into_iter()
        .find(|element| u64::from(crate::sql::Type::Array(*element).oid()) == oid)
        .map(|element| u64::from(element.ty().oid()))
}

/// Two `pg` answers agree: both errors with one SQLSTATE, or the same rows
/// (dates and times aside) and the same row count where the model gives one.
fn same_reply(simulated: &Value, real: &Value) -> bool {
    match (simulated.get("error"), real.get("error")) {
        (Some(a), Some(b)) => return a["code"] == b["code"],
        (None, None) => {}
        _ => return false,
    }
    if !simulated["rowCount"].is_null() && simulated["rowCount"] != real["rowCount"] {
        return false;
    }
    let types: HashMap<&str, u64> = simulated["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|field| Some((field["name"].as_str()?, field["dataTypeID"].as_u64()?)))
        .collect();
    let comparable = |rows: &Value| -> Vec<Value> {
        rows.as_array()
            .into_iter()
            .flatten()
            .map(|row| match row {
                Value::Object(fields) => Value::Object(
                    fields
                        .iter()
                        .filter(|(name, _)| {
                            types.get(name.as_str()).is_none_or(|&oid| compared(oid))
                        })
                        .map(|(name, value)| (name.clone(), value.clone()))
                        .collect(),
                ),
                other => other.clone(),
            })
            .collect()
    };
    comparable(&simulated["rows"]) == comparable(&real["rows"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_parameters_as_literals_outside_quotes() {
        let values = [json!(7), json!("o'k"), json!(null), json!([1, 2])];
        assert_eq!(
            bind(
                "SELECT '$1', \"$2\", $1, $2 -- $3\nWHERE a = $3 AND b = ANY($4)",
                &values
            ),
            "SELECT '$1', \"$2\", '7', 'o''k' -- $3\nWHERE a = NULL AND b = ANY('{\"1\",\"2\"}')"
        );
        assert_eq!(bind("SELECT $1", &[]), "SELECT $1");
        assert_eq!(bind("SELECT $9", &values), "SELECT $9");
    }

    #[test]
    fn exec_answers_agree_on_nulls_misses_and_texts() {
        let exec = |answers: Vec<Value>| -> CacheAnswer { Ok(Some(Value::Array(answers))) };
        let model = exec(vec![
            exec_answer(Some(json!(null))),
            exec_answer(None),
            exec_answer(Some(json!(5))),
        ]);
        let server = exec(vec![
            exec_answer(Some(json!("null"))),
            exec_answer(None),
            exec_answer(Some(json!("5"))),
        ]);
        assert!(same_exec_answer(&model, &server));
        let nulls = exec(vec![
            exec_answer(Some(json!("null"))),
            exec_answer(Some(json!(null))),
            exec_answer(Some(json!(5))),
        ]);
        assert!(same_exec_answer(&model, &nulls));
        let other = exec(vec![
            exec_answer(Some(json!("null"))),
            exec_answer(None),
            exec_answer(Some(json!(6))),
        ]);
        assert!(!same_exec_answer(&model, &other));
    }

    #[test]
    fn cache_values_go_to_the_wire_and_back_as_the_prelude_keeps_them() {
        assert_eq!(text_of(&json!("a b")), "a b");
        assert_eq!(text_of(&json!(12)), "12");
        assert_eq!(text_of(&json!({"a": 1})), "{\"a\":1}");
        assert_eq!(redis_string("12".into()), json!(12));
        assert_eq!(redis_string("-3".into()), json!(-3));
        assert_eq!(redis_string("012".into()), json!("012"));
        assert_eq!(redis_string("1.5".into()), json!("1.5"));
        assert!(same_cache_answer(
            &Ok(Some(json!(12))),
            &Ok(Some(json!("12")))
        ));
        assert!(!same_cache_answer(&Ok(None), &Ok(Some(json!("x")))));
        assert!(same_cache_answer(&Err("a".into()), &Err("b".into())));
    }

    #[test]
    fn replies_agree_on_rows_and_codes_not_on_clocks() {
        let fields = json!([{"name": "id", "dataTypeID": 23}, {"name": "at", "dataTypeID": 1184}]);
        let sim = json!({"command": "SELECT", "rowCount": 1, "rows": [{"id": 1, "at": "x"}], "fields": fields});
        let real = json!({"command": "SELECT", "rowCount": 1, "rows": [{"id": 1, "at": "y"}], "fields": fields});
        assert!(same_reply(&sim, &real));
        let other = json!({"command": "SELECT", "rowCount": 1, "rows": [{"id": 2, "at": "x"}], "fields": fields});
        assert!(!same_reply(&sim, &other));
        let a = json!({"error": {"code": "23505", "message": "a"}});
        let b = json!({"error": {"code": "23505", "message": "b"}});
        assert!(same_reply(&a, &b));
        assert!(!same_reply(&a, &sim));
        assert_eq!(typed(Some("t"), 16), json!(true));
        assert_eq!(typed(Some("5"), 23), json!(5));
        assert_eq!(typed(Some("5"), 20), json!("5"));
        assert_eq!(typed(None, 23), Value::Null);
    }
}
