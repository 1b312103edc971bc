//! One request's handle on the real servers: every cache and DB operation
//! first sleeps its injected latency, then runs for real and is counted
//! like the model counts it.

use std::rc::Rc;

use tokio::sync::{OwnedMutexGuard, OwnedSemaphorePermit};
use tokio_postgres::Client;

use crate::config::Micros;
use crate::real::cache::{CacheConn, CacheError};
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
            self.world.count(|t| match failure {
                DbFailure::Serialization => t.serialization_failures += 1,
                DbFailure::UniqueViolation => t.unique_violations += 1,
                DbFailure::Other => {}
            });
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
                .execute(&self.statements.insert_order, &[&user, &EVENT]),
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
        tokio::task::spawn_local(async move {
            world.delay(world.config.write_latency()).await;
            let user = user as i32;
            if let Err(error) = pg.execute(&statements.insert_order, &[&user, &EVENT]).await {
                if classify(&error) == DbFailure::UniqueViolation {
                    world.count(|t| t.unique_violations += 1);
                }
                world.count(|t| t.errors += 1);
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

    /// A get of a data key: counted as a hit or a miss.
    pub async fn cache_get_data(&mut self, item: u32) -> Result<Option<String>, CacheError> {
        self.cache_delay().await;
        let key = self.world.data_key(item);
        let found = self.cache.get(&key).await?;
        self.world.count(|t| {
            if found.is_some() {
                t.cache_hits += 1
            } else {
                t.cache_misses += 1
            }
        });
        Ok(found)
    }

    pub async fn cache_set_data(&mut self, item: u32, value: &str) -> Result<(), CacheError> {
        self.cache_delay().await;
        let key = self.world.data_key(item);
        let ttl = self.world.config.ttl;
        self.cache.set(&key, value, ttl).await
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
                    self.world.count(|t| t.foreign_lock_deletes += 1);
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
                self.world.count(|t| t.owner_release_refused += 1);
            }
        }
        Ok(())
    }

    pub async fn sleep(&self, micros: Micros) {
        crate::real::world::sleep_us(micros).await;
    }
}
