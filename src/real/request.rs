//! One request's handle on the real servers: every cache and DB operation
//! first sleeps its injected latency, then runs for real and is counted
//! like the model counts it.

use std::rc::Rc;

use tokio::sync::{OwnedMutexGuard, OwnedSemaphorePermit};
use tokio_postgres::Client;

use crate::config::Micros;
use crate::real::cache::{CacheConn, CacheError, DataEntry, Found};
use crate::real::db::{classify, DbFailure, Statements, EVENT};
use crate::real::world::World;

pub struct Request {
    pub world: Rc<World>,
    pub index: u32,
    pub server: u32,
    pub pg: Rc<Client>,
    pub statements: Rc<Statements>,
    pub cache: CacheConn,
    /// A keyed mutex this request holds.
    pub guard: Option<OwnedMutexGuard<()>>,
    /// With `db_pool`: the connection its open transaction holds.
    pub connection: Option<OwnedSemaphorePermit>,
    /// The ticket-lock ticket it holds.
    pub ticket: Option<u64>,
    /// With `fencing`: the token its lock handed out on entering.
    pub fence: Option<i64>,
    /// When it arrived (trial clock).
    pub arrival: Micros,
    /// Whether it has answered (its latency and outcome are counted then;
    /// stale-while-revalidate answers before its background refresh).
    pub responded: bool,
}

/// How a request ended, as the model's outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    Ok,
    /// Answered with a stale value (`grace`).
    Stale,
    Failed,
    Crashed,
}

impl From<CacheError> for Ended {
    fn from(_: CacheError) -> Self {
        Ended::Failed
    }
}

/// A DB statement's failure, classified.
pub type DbResult<T> = Result<T, DbFailure>;

impl Request {
    /// This request's lock token.
    pub fn token(&self) -> String {
        format!("{}", self.index + 1)
    }

    pub fn now(&self) -> Micros {
        self.world.now()
    }

    async fn cache_delay(&self) {
        self.world.delay(self.world.config.cache_latency).await;
    }

    /// Waits for a pool connection (with `db_pool`), then the statement's
    /// latency; the permit is held until the statement returns.
    async fn db_statement<T>(
        &self,
        write: bool,
        run: impl std::future::Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> DbResult<T> {
        let config = &self.world.config;
        let latency = if write {
            config.write_latency()
        } else {
            config.db_latency
        };
        let micros = self.world.delays.borrow_mut().draw(latency);
        let _permit = match &self.world.pool {
            Some(pool) if self.connection.is_none() => {
                Some(pool.acquire().await.expect("the pool is never closed"))
            }
            _ => None,
        };
        crate::real::world::sleep_us(micros).await;
        run.await.map_err(|error| {
            let failure = classify(&error);
            self.world.count(|t| t.count_failure(failure));
            failure
        })
    }

    pub async fn find_order(&self, user: u32) -> DbResult<bool> {
        self.world.count(|t| t.db_reads += 1);
        let user = user as i32;
        let row = self
            .db_statement(
                false,
                self.pg
                    .query_one(&self.statements.find_order, &[&user, &EVENT]),
            )
            .await?;
        let count: i64 = row.get(0);
        Ok(count > 0)
    }

    pub async fn insert_order(&self, user: u32) -> DbResult<()> {
        self.world.count(|t| t.db_writes += 1);
        let user = user as i32;
        self.db_statement(
            true,
            self.pg
                .execute(&self.statements.insert_order, &[&user, &EVENT, &self.fence]),
        )
        .await
        .map(|_| ())
    }

    /// The original bug: the insert is sent but not awaited (its own task
    /// on the same connection, as an unawaited promise).
    pub fn insert_order_unawaited(&self, user: u32) {
        self.world.count(|t| t.db_writes += 1);
        let world = self.world.clone();
        let pg = self.pg.clone();
        let statements = self.statements.clone();
        let fence = self.fence;
        tokio::task::spawn_local(async move {
            world.delay(world.config.write_latency()).await;
            let user = user as i32;
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] = [&user, &EVENT, &fence];
            if let Err(error) = pg.execute(&statements.insert_order, &params).await {
                let failure = classify(&error);
                world.count(|t| {
                    t.count_failure(failure);
                    t.errors += 1;
                });
            }
        });
    }

    pub async fn lock_user(&self, user: u32) -> DbResult<()> {
        self.world.count(|t| t.db_reads += 1);
        let user = user as i32;
        self.db_statement(
            false,
            self.pg.query_one(&self.statements.lock_user, &[&user]),
        )
        .await
        .map(|_| ())
    }

    pub async fn select_product(&self, item: u32) -> DbResult<i64> {
        self.world.count(|t| t.db_reads += 1);
        let item = item as i32;
        let row = self
            .db_statement(
                false,
                self.pg.query_one(&self.statements.select_product, &[&item]),
            )
            .await?;
        Ok(row.get(0))
    }

    /// With `db_pool`: takes a connection for a whole transaction, as a
    /// pool checkout from BEGIN to COMMIT (the model's rule too).
    pub async fn check_out_connection(&mut self) {
        if let Some(pool) = &self.world.pool {
            let permit = pool.clone().acquire_owned().await;
            self.connection = Some(permit.expect("the pool is never closed"));
        }
    }

    /// BEGIN: no injected latency (the model sends it with the next statement).
    pub async fn begin(&self, serializable: bool) -> DbResult<()> {
        let sql = if serializable {
            "BEGIN ISOLATION LEVEL SERIALIZABLE"
        } else {
            "BEGIN ISOLATION LEVEL READ COMMITTED"
        };
        self.pg.batch_execute(sql).await.map_err(|e| classify(&e))
    }

    /// COMMIT: a write round trip.
    pub async fn commit(&self) -> DbResult<()> {
        self.db_statement(true, self.pg.batch_execute("COMMIT"))
            .await
    }

    /// ROLLBACK after a failure: no injected latency.
    pub async fn rollback(&self) {
        let _ = self.pg.batch_execute("ROLLBACK").await;
    }

    /// A get of a data key: live, stale (expired, within `grace`) or a
    /// miss, read on the trial clock as the reply arrives; a hit only if live.
    pub async fn cache_get_data(&mut self, item: u32) -> Result<Found, CacheError> {
        self.cache_delay().await;
        let key = self.world.data_key(item);
        let stored = self.cache.get(&key).await?;
        let found = stored
            .as_deref()
            .and_then(DataEntry::decode)
            .map_or(Found::Miss, |entry| {
                entry.lookup(self.now(), self.world.config.grace)
            });
        self.world.count(|t| {
            if let Found::Live(_) = found {
                t.cache_hits += 1
            } else {
                t.cache_misses += 1
            }
        });
        Ok(found)
    }

    /// `set(key, row, ttl)`, remembering how long the row took to load
    /// (`delta`); live for `ttl` from when the set is sent.
    pub async fn cache_set_data(
        &mut self,
        item: u32,
        row: &str,
        delta: Micros,
    ) -> Result<(), CacheError> {
        self.cache_delay().await;
        let key = self.world.data_key(item);
        let (ttl, grace) = (self.world.config.ttl, self.world.config.grace);
        let now = self.now();
        let entry = DataEntry {
            row: row.to_string(),
            live_until: (ttl > 0).then(|| now + ttl),
            delta,
        };
        let storage = entry.storage_ttl(now, grace);
        self.cache.set(&key, &entry.encode(), storage).await
    }

    /// `fencing=true`: the lock hands out the next token of `key`, from a
    /// counter on the cache server (`incr` / `INCR`), with no injected
    /// latency (the model's token comes with the lock).
    pub async fn take_fence(&mut self, key: u32) -> Result<(), CacheError> {
        let key = format!("{}:fence:{key}", self.world.run_id);
        let token = self.cache.incr(&key).await?;
        self.fence = Some(token as i64);
        Ok(())
    }

    /// Answers: its latency and, unless it went well, an error are counted
    /// (once; a background refresh after the answer counts nothing more).
    pub fn respond(&mut self, ended: Ended) {
        if std::mem::replace(&mut self.responded, true) {
            return;
        }
        let elapsed = self.now().saturating_sub(self.arrival);
        self.world.count(|t| {
            t.latencies.push(elapsed);
            match ended {
                Ended::Ok => {}
                Ended::Stale => t.stale_served += 1,
                Ended::Failed | Ended::Crashed => t.errors += 1,
            }
        });
    }

    pub async fn lock_get(&mut self, key: u32) -> Result<Option<String>, CacheError> {
        self.cache_delay().await;
        let key = self.world.lock_key(key);
        self.cache.get(&key).await
    }

    pub async fn lock_set(&mut self, key: u32) -> Result<(), CacheError> {
        self.cache_delay().await;
        let (key, token) = (self.world.lock_key(key), self.token());
        let ttl = self.world.config.lock_ttl;
        self.cache.set(&key, &token, ttl).await
    }

    pub async fn lock_add(&mut self, key: u32) -> Result<bool, CacheError> {
        self.cache_delay().await;
        let (key, token) = (self.world.lock_key(key), self.token());
        let ttl = self.world.config.lock_ttl;
        self.cache.add(&key, &token, ttl).await
    }

    /// The unconditional release. On Redis it is `GETDEL`, one round trip
    /// with `DEL`'s effect, so the run can count deletes of another
    /// holder's lock.
    pub async fn lock_delete(&mut self, key: u32) -> Result<(), CacheError> {
        self.cache_delay().await;
        let key = self.world.lock_key(key);
        let token = self.token();
        match &mut self.cache {
            CacheConn::Redis(conn) => {
                let old: Option<String> = redis::cmd("GETDEL").arg(&key).query_async(conn).await?;
                if old.is_some_and(|old| old != token) {
                    self.world.count(|t| t.reports.foreign_lock_deletes += 1);
                }
            }
            CacheConn::Memcached(_) => {
                self.cache.delete(&key).await?;
            }
        }
        Ok(())
    }

    pub async fn lock_delete_if_owner(&mut self, key: u32) -> Result<(), CacheError> {
        self.cache_delay().await;
        let (key, token) = (self.world.lock_key(key), self.token());
        if !self.cache.delete_if_owner(&key, &token).await? {
            // Refused only if someone else's token is there (not if it expired).
            if self.cache.get(&key).await?.is_some() {
                self.world.count(|t| t.reports.owner_release_refused += 1);
            }
        }
        Ok(())
    }

    pub async fn sleep(&self, micros: Micros) {
        crate::real::world::sleep_us(micros).await;
    }
}
