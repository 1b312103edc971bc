//! One request's handle on the real servers: the real implementation of
//! [`Ops`], the seam the engine's strategy and scenario bodies await
//! (`crates/engine/src/sim/ops.rs`). `interleave real` runs those bodies,
//! the simulation's own, with a `Request`: every cache and DB operation
//! first sleeps its injected latency, then runs for real (memcached or
//! Redis, PostgreSQL) and is counted like the model counts it; the
//! in-process primitives are each simulated server's tables in the
//! [`World`].
//!
//! A body holds `&Request` across its awaits, so what a request changes
//! (its mutex guard, ticket, fencing token, transaction) sits in cells.
//! A server error the model has no answer for (a cache command or a query
//! that fails for another reason than the model's refusals) ends the
//! request as failed at once: the operation never resolves and the
//! request's [`aborted`](Request::aborted) future does.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::rc::Rc;
use std::time::Duration;

use tokio::sync::{oneshot, Notify, OwnedMutexGuard, OwnedSemaphorePermit};
use tokio_postgres::types::ToSql;
use tokio_postgres::Client;

use crate::config::{Config, Micros, TxMode};
use crate::real::cache::{CacheConn, CacheError, DataEntry, Found};
use crate::real::db::{classify, DbFailure, Statements, EVENT};
use crate::real::locks::{self, Shared};
use crate::real::replay::Turn;
use crate::real::world::{sleep_us, World};
use crate::sim::trace::OpKind;
use crate::sim::{Ops, Outcome, Site, Written, XfetchDraw};
use crate::world::{CacheKey, LockKey, Lookup};

pub struct Request {
    pub world: Rc<World>,
    pub index: u32,
    pub server: u32,
    pg: Rc<Client>,
    statements: Rc<Statements>,
    cache: CacheConn,
    /// When it arrived (trial clock).
    pub arrival: Micros,
    /// A keyed mutex this request holds.
    guard: RefCell<Option<OwnedMutexGuard<()>>>,
    /// Its transaction, when `tx` is set.
    transaction: RefCell<Transaction>,
    /// The ticket-lock ticket it took.
    ticket: Cell<Option<u64>>,
    /// With `fencing`: the token its lock handed out on entering.
    fence: Cell<Option<i64>>,
    /// The live entry its last read of a data key found (XFetch's test).
    last_read: RefCell<Option<DataEntry>>,
    /// Whether it has answered (its latency and outcome are counted then;
    /// stale-while-revalidate answers before its background refresh).
    responded: Cell<bool>,
    /// Told when a server error ends the request.
    abort: Notify,
}

/// Where a request's transaction is (`docs/transactions.md`).
enum Transaction {
    None,
    /// `begin` was called: BEGIN goes with the next statement.
    Begun,
    /// BEGIN was sent; with `db_pool`, the connection it holds (given
    /// back as the state moves on).
    Open {
        _connection: Option<OwnedSemaphorePermit>,
    },
    /// A statement failed: the transaction was rolled back, later
    /// statements send nothing, and COMMIT reports this failure.
    Failed(DbFailure),
}

/// A DB statement's failure, classified.
pub type DbResult<T> = Result<T, DbFailure>;

/// How a write the DB refused ends, as the model says it.
fn written(failure: DbFailure) -> Written {
    match failure {
        DbFailure::Serialization => Written::SerializationFailure,
        DbFailure::UniqueViolation | DbFailure::Fenced | DbFailure::Other => Written::Refused,
    }
}

/// Waits a statement's drawn latency, holding a pool connection (with
/// `db_pool`, outside a transaction, which holds its own) from before the
/// wait until the statement returns; counts a failure.
async fn statement<T>(
    world: &World,
    pooled: bool,
    micros: Micros,
    (turn, pid): (&Turn, i32),
    run: impl Future<Output = Result<T, tokio_postgres::Error>>,
) -> DbResult<T> {
    let _permit = match &world.pool {
        Some(pool) if pooled => Some(pool.acquire().await.expect("the pool is never closed")),
        _ => None,
    };
    let answered = match turn.replaying() {
        false => {
            sleep_us(micros).await;
            run.await
        }
        true => watched(world, turn, pid, run).await,
    };
    answered.map_err(|error| {
        let failure = classify(&error);
        world.count(|t| t.count_failure(failure));
        failure
    })
}

/// A replayed statement: if it waits on the server for a lock (a row
/// another transaction holds), its turn lands then, so the operations that
/// free the lock can go; it answers when it answers.
async fn watched<T>(world: &World, turn: &Turn, pid: i32, run: impl Future<Output = T>) -> T {
    let mut run = std::pin::pin!(run);
    loop {
        if let Ok(answer) = tokio::time::timeout(Duration::from_millis(2), run.as_mut()).await {
            return answer;
        }
        if world.waits_for_lock(pid).await {
            turn.land();
            return run.await;
        }
    }
}

impl Request {
    pub fn new(
        world: Rc<World>,
        index: u32,
        server: u32,
        (pg, statements, cache): (Rc<Client>, Rc<Statements>, CacheConn),
        arrival: Micros,
    ) -> Request {
        Request {
            world,
            index,
            server,
            pg,
            statements,
            cache,
            arrival,
            guard: RefCell::new(None),
            transaction: RefCell::new(Transaction::None),
            ticket: Cell::new(None),
            fence: Cell::new(None),
            last_read: RefCell::new(None),
            responded: Cell::new(false),
            abort: Notify::new(),
        }
    }

    /// Resolves once a server error has ended the request.
    pub async fn aborted(&self) {
        self.abort.notified().await
    }

    /// Ends the request after a server error: never resolves.
    async fn fail<T>(&self, _error: impl std::fmt::Debug) -> T {
        self.abort.notify_one();
        std::future::pending().await
    }

    /// A cache operation's turn: in a replay, its place in the simulated
    /// order; else its injected latency.
    async fn cache_turn(&self, kind: OpKind) -> Turn {
        let turn = self.world.turn(self.index, kind).await;
        if !turn.replaying() {
            self.world.delay(self.world.config.cache_latency).await;
        }
        turn
    }

    fn pid(&self) -> i32 {
        self.statements.pid
    }

    /// A lock key's name, after the key's simulated expiry if it is due (a
    /// replay's servers keep lock keys; see `World::lease`).
    async fn lock_name(&self, key: CacheKey) -> String {
        let name = self.cache_key(key);
        if matches!(key, CacheKey::Lock(_)) && self.world.lapsed(&name) {
            let deleted = self.cache.delete(&name).await;
            self.cache(deleted).await;
        }
        name
    }

    fn cache_key(&self, key: CacheKey) -> String {
        match key {
            CacheKey::Data(item) => self.world.data_key(item),
            CacheKey::Lock(LockKey(key)) => self.world.lock_key(key),
        }
    }

    /// The latency of a statement, drawn now (in issue order).
    fn draw(&self, write: bool) -> Micros {
        let config = &self.world.config;
        let latency = if write {
            config.write_latency()
        } else {
            config.db_latency
        };
        self.world.delays.borrow_mut().draw(latency)
    }

    fn in_transaction(&self) -> bool {
        !matches!(*self.transaction.borrow(), Transaction::None)
    }

    /// A statement outside a transaction; a failure the model has no
    /// answer for ends the request.
    async fn read<T>(
        &self,
        turn: &Turn,
        run: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> T {
        self.world.count(|t| t.db_reads += 1);
        let micros = self.draw(false);
        match statement(&self.world, true, micros, (turn, self.pid()), run).await {
            Ok(value) => value,
            Err(failure) => self.fail(failure).await,
        }
    }

    /// A statement inside the transaction: BEGIN first if it has not been
    /// sent (with `db_pool`, after taking the connection the transaction
    /// holds to its end). A failure rolls the transaction back at once; an
    /// aborted transaction sends nothing more.
    async fn in_open_transaction<T>(
        &self,
        turn: &Turn,
        write: bool,
        run: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> DbResult<T> {
        let begun = match *self.transaction.borrow() {
            Transaction::Failed(failure) => return Err(failure),
            Transaction::Begun => true,
            _ => false,
        };
        if begun {
            let permit = match &self.world.pool {
                Some(pool) => Some(
                    pool.clone()
                        .acquire_owned()
                        .await
                        .expect("the pool is never closed"),
                ),
                None => None,
            };
            *self.transaction.borrow_mut() = Transaction::Open {
                _connection: permit,
            };
            let sql = if self.world.config.tx == TxMode::Serializable {
                "BEGIN ISOLATION LEVEL SERIALIZABLE"
            } else {
                "BEGIN ISOLATION LEVEL READ COMMITTED"
            };
            // No injected latency: the model sends it with this statement.
            if let Err(error) = self.pg.batch_execute(sql).await {
                let failure = classify(&error);
                self.roll_back(failure).await;
                return Err(failure);
            }
        }
        if write {
            self.world.count(|t| t.db_writes += 1);
        } else {
            self.world.count(|t| t.db_reads += 1);
        }
        let micros = self.draw(write);
        let result = statement(&self.world, false, micros, (turn, self.pid()), run).await;
        if let Err(failure) = result {
            self.roll_back(failure).await;
        }
        result
    }

    /// ROLLBACK after a failure (no injected latency); the connection goes
    /// back to the pool.
    async fn roll_back(&self, failure: DbFailure) {
        let _ = self.pg.batch_execute("ROLLBACK").await;
        *self.transaction.borrow_mut() = Transaction::Failed(failure);
    }

    /// Answers: its latency and, unless it went well, an error are counted
    /// (once; a background refresh after the answer counts nothing more).
    fn answer(&self, outcome: Outcome) {
        if self.responded.replace(true) {
            return;
        }
        let elapsed = self.world.now().saturating_sub(self.arrival);
        self.world.count(|t| {
            t.latencies.push(elapsed);
            match outcome {
                Outcome::Failed | Outcome::Crashed => t.errors += 1,
                Outcome::ServedStale => t.stale_served += 1,
                _ => {}
            }
        });
    }

    /// `set` of a data key: the row, live for `ttl` from when the set is
    /// sent, and how long it took to recompute (`delta`), kept by the
    /// server `grace` longer; of a lock key: the token.
    async fn set(&self, key: CacheKey, value: u64, ttl: Micros, delta: Micros) {
        let _turn = self.cache_turn(OpKind::CacheSet).await;
        let name = self.lock_name(key).await;
        let result = match key {
            CacheKey::Data(_) => {
                let now = self.world.clock();
                let entry = DataEntry {
                    row: value.to_string(),
                    live_until: (ttl > 0).then(|| now + ttl),
                    delta,
                };
                let storage = entry.storage_ttl(now, self.world.config.grace);
                self.cache.set(&name, &entry.encode(), storage).await
            }
            CacheKey::Lock(_) => {
                let value = value.to_string();
                let stored = self.cache.set(&name, &value, self.world.kept(ttl)).await;
                self.world.leased(&name, ttl);
                stored
            }
        };
        if let Err(error) = result {
            self.fail(error).await
        }
    }

    async fn cache<T>(&self, result: Result<T, CacheError>) -> T {
        match result {
            Ok(value) => value,
            Err(error) => self.fail(error).await,
        }
    }
}

#[allow(refining_impl_trait)]
impl Ops for Request {
    fn config(&self) -> &Config {
        &self.world.config
    }

    fn now(&self) -> Micros {
        self.world.clock()
    }

    fn token(&self) -> u64 {
        u64::from(self.index) + 1
    }

    fn ticket(&self) -> Option<u64> {
        self.ticket.get()
    }

    async fn yield_now(&self) {
        tokio::task::yield_now().await
    }

    /// In a replay, ends at its simulated time (its turn).
    async fn sleep(&self, duration: Micros, _: Site) {
        let turn = self.world.turn(self.index, OpKind::Sleep).await;
        if !turn.replaying() {
            sleep_us(duration).await
        }
    }

    /// A data key's value is read on the trial clock as the reply arrives
    /// (live, stale within `grace`, or a miss; a hit only if live; in a
    /// replay, at the simulated time); a lock's is its holder's token.
    async fn cache_get(&self, key: CacheKey, _: Site) -> Lookup {
        let turn = self.cache_turn(OpKind::CacheGet).await;
        let stored = self.cache.get(&self.lock_name(key).await).await;
        let stored = self.cache(stored).await;
        if let CacheKey::Lock(_) = key {
            turn.came_back(match stored {
                Some(_) => Outcome::Hit,
                None => Outcome::Miss,
            });
            return stored.map_or(Lookup::Miss, |token| {
                Lookup::Live(token.parse().unwrap_or(0))
            });
        }
        let found = stored
            .as_deref()
            .and_then(DataEntry::decode)
            .map_or(Found::Miss, |entry| {
                entry.lookup(self.world.clock(), self.world.config.grace)
            });
        turn.came_back(match found {
            Found::Live(_) => Outcome::Hit,
            Found::Stale(_) => Outcome::Stale,
            Found::Miss => Outcome::Miss,
        });
        self.world.count(|t| {
            if let Found::Live(_) = found {
                t.cache_hits += 1
            } else {
                t.cache_misses += 1
            }
        });
        let row = |entry: &DataEntry| entry.row.parse().unwrap_or(0);
        match found {
            Found::Live(entry) => {
                let lookup = Lookup::Live(row(&entry));
                *self.last_read.borrow_mut() = Some(entry);
                lookup
            }
            Found::Stale(entry) => Lookup::Stale(row(&entry)),
            Found::Miss => Lookup::Miss,
        }
    }

    async fn cache_set(&self, key: CacheKey, value: u64, ttl: Micros, _: Site) {
        self.set(key, value, ttl, 0).await
    }

    async fn cache_set_with_delta(
        &self,
        key: CacheKey,
        value: u64,
        ttl: Micros,
        delta: Micros,
        _: Site,
    ) {
        self.set(key, value, ttl, delta).await
    }

    async fn cache_add(&self, key: CacheKey, value: u64, ttl: Micros, _: Site) -> bool {
        let turn = self.cache_turn(OpKind::CacheAdd).await;
        let name = self.lock_name(key).await;
        let kept = self.world.kept(ttl);
        let added = self.cache.add(&name, &value.to_string(), kept).await;
        let added = self.cache(added).await;
        if added {
            self.world.leased(&name, ttl);
        }
        turn.came_back(match added {
            true => Outcome::Stored,
            false => Outcome::NotStored,
        });
        added
    }

    /// On Redis `GETDEL`, one round trip with `DEL`'s effect, so the run
    /// can count deletes of another holder's lock (`foreign_lock_deletes`).
    async fn cache_delete(&self, key: CacheKey, _: Site) -> bool {
        let turn = self.cache_turn(OpKind::CacheDelete).await;
        let name = self.lock_name(key).await;
        let deleted = match &self.cache {
            CacheConn::Redis(conn) => {
                let old: Result<Option<String>, _> = redis::cmd("GETDEL")
                    .arg(&name)
                    .query_async(&mut conn.clone())
                    .await;
                let old = self.cache(old.map_err(CacheError::from)).await;
                let token = self.token().to_string();
                if matches!(key, CacheKey::Lock(_)) && old.as_ref().is_some_and(|old| *old != token)
                {
                    self.world.count(|t| t.reports.foreign_lock_deletes += 1);
                }
                Ok(old.is_some())
            }
            CacheConn::Memcached(_) => self.cache.delete(&name).await,
        };
        let deleted = self.cache(deleted).await;
        if deleted {
            self.world.unleased(&name);
        }
        turn.came_back(match deleted {
            true => Outcome::Deleted,
            false => Outcome::NotFound,
        });
        deleted
    }

    /// A refusal counts in `owner_release_refused` when a follow-up `GET`
    /// (made only for that count) finds another holder's token, not when
    /// the lock had expired.
    async fn cache_delete_if_owner(&self, key: CacheKey, token: u64, _: Site) -> bool {
        let turn = self.cache_turn(OpKind::CacheDeleteIfOwner).await;
        let name = self.lock_name(key).await;
        let deleted = self.cache.delete_if_owner(&name, &token.to_string()).await;
        let deleted = self.cache(deleted).await;
        if deleted {
            self.world.unleased(&name);
        }
        let mut outcome = Outcome::Deleted;
        if !deleted {
            let holder = self.cache.get(&name).await;
            outcome = Outcome::NotFound;
            if self.cache(holder).await.is_some() {
                outcome = Outcome::NotOwner;
                self.world.count(|t| t.reports.owner_release_refused += 1);
            }
        }
        turn.came_back(outcome);
        deleted
    }

    async fn select(&self, item: u32, _: Site) -> u64 {
        let turn = self.world.turn(self.index, OpKind::DbSelect).await;
        let id = item as i32;
        let row = self
            .read(
                &turn,
                self.pg.query_one(&self.statements.select_product, &[&id]),
            )
            .await;
        row.get::<_, i64>(0) as u64
    }

    /// Inside a transaction that failed, sends nothing and says there is
    /// an order (so the body goes on to COMMIT, which reports the failure).
    async fn find_order(&self, user: u32, _: Site) -> bool {
        let turn = self.world.turn(self.index, OpKind::DbFindOrder).await;
        let user = user as i32;
        let params: [&(dyn ToSql + Sync); 2] = [&user, &EVENT];
        let run = self.pg.query_one(&self.statements.find_order, &params);
        let row = if self.in_transaction() {
            match self.in_open_transaction(&turn, false, run).await {
                Ok(row) => row,
                Err(_) => return true,
            }
        } else {
            self.read(&turn, run).await
        };
        turn.came_back(match row.get::<_, i64>(0) > 0 {
            true => Outcome::Found,
            false => Outcome::NoOrder,
        });
        row.get::<_, i64>(0) > 0
    }

    /// Sent now, on a task of its own (as calling an async function sends
    /// its first statement): unawaited (`await_insert=false`) it still
    /// lands, and a refusal then counts one error.
    fn insert_order(&self, user: u32, _: Site) -> impl Future<Output = bool> {
        self.world.count(|t| t.db_writes += 1);
        let micros = self.draw(true);
        let (world, pg, statements) =
            (self.world.clone(), self.pg.clone(), self.statements.clone());
        let (fence, index) = (self.fence.get(), self.index);
        let (send, receive) = oneshot::channel();
        tokio::task::spawn_local(async move {
            let turn = world.turn(index, OpKind::DbInsert).await;
            let user = user as i32;
            let params: [&(dyn ToSql + Sync); 3] = [&user, &EVENT, &fence];
            let run = pg.execute(&statements.insert_order, &params);
            let watch = (&turn, statements.pid);
            let result = statement(&world, true, micros, watch, run).await;
            turn.came_back(match result {
                Ok(_) => Outcome::Inserted,
                Err(DbFailure::Fenced) => Outcome::Fenced,
                Err(_) => Outcome::Conflict,
            });
            let inserted = result.is_ok();
            if send.send(inserted).is_err() && !inserted {
                world.count(|t| t.errors += 1);
            }
            // After the answer: the request it answers resumes before the
            // next operation's, as the simulation's microtask runs first.
            drop(turn);
        });
        async move { receive.await.unwrap_or(false) }
    }

    fn begin(&self) {
        *self.transaction.borrow_mut() = Transaction::Begun;
    }

    async fn lock_row(&self, user: u32, _: Site) {
        let turn = self.world.turn(self.index, OpKind::DbLockRow).await;
        let user = user as i32;
        let params: [&(dyn ToSql + Sync); 1] = [&user];
        let run = self.pg.query_one(&self.statements.lock_user, &params);
        let _ = self.in_open_transaction(&turn, false, run).await;
    }

    async fn insert_in_transaction(&self, user: u32, _: Site) -> Written {
        let turn = self.world.turn(self.index, OpKind::DbInsert).await;
        let (user, fence) = (user as i32, self.fence.get());
        let params: [&(dyn ToSql + Sync); 3] = [&user, &EVENT, &fence];
        let run = self.pg.execute(&self.statements.insert_order, &params);
        match self.in_open_transaction(&turn, true, run).await {
            Ok(_) => Written::Done,
            Err(failure) => written(failure),
        }
    }

    /// A write round trip; the connection goes back to the pool after it.
    async fn commit(&self, _: u32, _: Site) -> Written {
        let turn = self.world.turn(self.index, OpKind::DbCommit).await;
        let failed = match *self.transaction.borrow() {
            Transaction::Failed(failure) => Some(failure),
            Transaction::Open { .. } => None,
            // Nothing was sent: nothing to commit.
            Transaction::None | Transaction::Begun => return Written::Done,
        };
        if let Some(failure) = failed {
            *self.transaction.borrow_mut() = Transaction::None;
            return written(failure);
        }
        let micros = self.draw(true);
        let commit = self.pg.batch_execute("COMMIT");
        let result = statement(&self.world, false, micros, (&turn, self.pid()), commit).await;
        if let Err(failure) = result {
            self.roll_back(failure).await;
        }
        *self.transaction.borrow_mut() = Transaction::None;
        result.map_or_else(written, |()| Written::Done)
    }

    /// A FIFO `tokio::sync::Mutex` per key in the server's table.
    async fn mutex_lock(&self, key: LockKey, _: Site) {
        let mutex = self.world.mutex(self.server, key.0);
        let guard = mutex.lock_owned().await;
        *self.guard.borrow_mut() = Some(guard);
    }

    fn mutex_unlock(&self, _: LockKey) {
        let guard = self.guard.borrow_mut().take();
        drop(guard);
    }

    async fn emitter_lock(&self, key: LockKey, _: Site) {
        locks::emitter_lock(&self.world, self.server, key.0).await
    }

    fn emitter_unlock(&self, key: LockKey) {
        locks::emitter_unlock(&self.world, self.server, key.0)
    }

    /// The model's own ticket counters and lease, on the wall clock.
    fn take_ticket(&self, key: LockKey) -> u64 {
        let now = self.world.clock();
        let tickets = &self.world.servers[self.server as usize].tickets;
        let ticket = tickets.borrow_mut().take_ticket(key, now);
        self.ticket.set(Some(ticket));
        ticket
    }

    fn check_ticket(&self, key: LockKey, ticket: u64) -> bool {
        let (now, ttl) = (self.world.clock(), self.world.config.lock_ttl);
        let tickets = &self.world.servers[self.server as usize].tickets;
        let check = tickets.borrow_mut().check_ticket(key, ticket, ttl, now);
        check.served
    }

    fn release_ticket(&self, key: LockKey, ticket: u64) {
        let now = self.world.clock();
        let tickets = &self.world.servers[self.server as usize].tickets;
        tickets.borrow_mut().release_ticket(key, ticket, now);
    }

    fn flight_join(&self, key: LockKey, _: Site) -> Option<Shared> {
        locks::join_flight(&self.world, self.server, key.0)
    }

    fn flight_finish(&self, key: LockKey, result: u64) {
        locks::finish_flight(&self.world, self.server, key.0, result)
    }

    fn flight_running(&self, key: LockKey) -> bool {
        let flights = self.world.servers[self.server as usize].flights.borrow();
        flights.contains_key(&key.0)
    }

    /// With `fencing` (a lock strategy), the next token of `key` from a
    /// counter on the cache server (`incr` / `INCR`), with no injected
    /// latency (the model's token comes with the lock).
    async fn enter(&self, key: LockKey) {
        self.world.enter(key.0);
        let config = &self.world.config;
        if config.fencing && config.strategy.is_lock() {
            let name = format!("{}:fence:{}", self.world.run_id, key.0);
            let token = self.cache.incr(&name).await;
            let token = self.cache(token).await;
            self.fence.set(Some(token as i64));
        }
    }

    fn exit(&self, key: LockKey) {
        self.world.exit(key.0);
    }

    fn crashes(&self, key: LockKey) -> bool {
        if self.world.config.crash != Some(self.index) {
            return false;
        }
        self.world.exit(key.0);
        true
    }

    async fn pause_if_due(&self) {
        if let Some(pause) = self.world.config.pause {
            if pause.request == self.index && pause.duration > 0 {
                self.sleep(pause.duration, Site::Pause).await;
            }
        }
    }

    fn respond(&self, outcome: Outcome) {
        self.answer(outcome);
    }

    /// Counted by the answer (`stale_served`).
    fn serve_stale(&self, _: u32) {}

    /// One draw of the trial's XFetch stream, on the live entry this
    /// request just read; never for an entry with no expiry.
    fn xfetch_draw(&self, _: CacheKey) -> Option<XfetchDraw> {
        let last = self.last_read.borrow();
        let entry = last.as_ref()?;
        let expiry = entry.live_until?;
        let world = &self.world;
        let draw = world.delays.borrow_mut().xfetch_draw();
        Some(XfetchDraw {
            now: world.clock(),
            expiry,
            delta: entry.delta,
            draw,
        })
    }

    fn early_refresh(&self, _: CacheKey) {
        self.world.count(|t| t.early_refreshes += 1);
    }

    fn lock_wakeup(&self) {
        self.world.count(|t| t.lock_wakeups += 1);
    }

    fn give_up(&self, _: LockKey) {
        self.world.count(|t| t.timeouts += 1);
    }
}
