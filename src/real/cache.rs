//! The cache server a real run uses, and the commands each strategy's
//! cache operation becomes (`docs/real.md`):
//!
//! | model | memcached | Redis |
//! |---|---|---|
//! | `get` | `get` | `GET` |
//! | `set(ttl)` | `set` (expiry in whole seconds, rounded up) | `SET key value PX ttl` |
//! | `add(ttl)` | `add` | `SET key value NX PX ttl` |
//! | `delete` | `delete` | `DEL` |
//! | check-and-delete | - | `EVAL` of the GET-compare-DEL script |

use std::fmt;

use crate::config::{Config, Micros, ReleaseMode, SECOND};
use crate::real::memcached::Memcached;

/// Which server holds the cache and the cache locks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheServer {
    Memcached,
    Redis,
}

impl CacheServer {
    pub fn name(self) -> &'static str {
        match self {
            CacheServer::Memcached => "memcached",
            CacheServer::Redis => "redis",
        }
    }

    /// memcached unless the fragment needs Redis: `release=owner` (memcached
    /// has no atomic check-and-delete) or a TTL that is not whole seconds
    /// (memcached's expiry unit). Returns the choice and why.
    pub fn for_config(config: &Config) -> (CacheServer, &'static str) {
        if config.release == ReleaseMode::Owner {
            return (
                CacheServer::Redis,
                "release=owner needs Redis's atomic check-and-delete",
            );
        }
        let whole = |ttl: Micros| ttl % SECOND == 0;
        if !whole(config.lock_ttl) || !whole(config.ttl) {
            return (
                CacheServer::Redis,
                "a TTL below whole seconds needs Redis's PX (memcached expires in seconds)",
            );
        }
        (CacheServer::Memcached, "memcached get/set/add, as seed 004")
    }
}

/// Redis's check-and-delete: delete the lock only if it still holds our token.
const DELETE_IF_OWNER: &str =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/// One request's connection to the cache server.
pub enum CacheConn {
    Memcached(Memcached),
    Redis(redis::aio::MultiplexedConnection),
}

#[derive(Debug)]
pub struct CacheError(pub String);

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cache: {}", self.0)
    }
}

impl From<std::io::Error> for CacheError {
    fn from(error: std::io::Error) -> Self {
        CacheError(error.to_string())
    }
}

impl From<redis::RedisError> for CacheError {
    fn from(error: redis::RedisError) -> Self {
        CacheError(error.to_string())
    }
}

/// memcached's expiry: whole seconds, rounded up; 0 never expires.
fn seconds(ttl: Micros) -> u64 {
    ttl.div_ceil(SECOND)
}

/// Redis's PX: whole milliseconds, rounded up, at least 1.
fn millis(ttl: Micros) -> u64 {
    ttl.div_ceil(1_000).max(1)
}

impl CacheConn {
    pub async fn get(&mut self, key: &str) -> Result<Option<String>, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn.get(key).await?),
            CacheConn::Redis(conn) => Ok(redis::cmd("GET").arg(key).query_async(conn).await?),
        }
    }

    pub async fn set(&mut self, key: &str, value: &str, ttl: Micros) -> Result<(), CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn.set(key, value, seconds(ttl)).await?),
            CacheConn::Redis(conn) => {
                let mut command = redis::cmd("SET");
                command.arg(key).arg(value);
                if ttl > 0 {
                    command.arg("PX").arg(millis(ttl));
                }
                let _: Option<String> = command.query_async(conn).await?;
                Ok(())
            }
        }
    }

    /// Stores only if absent; true if stored.
    pub async fn add(&mut self, key: &str, value: &str, ttl: Micros) -> Result<bool, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn.add(key, value, seconds(ttl)).await?),
            CacheConn::Redis(conn) => {
                let mut command = redis::cmd("SET");
                command.arg(key).arg(value).arg("NX");
                if ttl > 0 {
                    command.arg("PX").arg(millis(ttl));
                }
                let stored: Option<String> = command.query_async(conn).await?;
                Ok(stored.is_some())
            }
        }
    }

    pub async fn delete(&mut self, key: &str) -> Result<bool, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn.delete(key).await?),
            CacheConn::Redis(conn) => {
                let deleted: i64 = redis::cmd("DEL").arg(key).query_async(conn).await?;
                Ok(deleted > 0)
            }
        }
    }

    /// Deletes `key` only if it holds `token`, atomically (Redis only; the
    /// run picks Redis whenever `release=owner`).
    pub async fn delete_if_owner(&mut self, key: &str, token: &str) -> Result<bool, CacheError> {
        match self {
            CacheConn::Memcached(_) => Err(CacheError(
                "memcached has no atomic check-and-delete; release=owner runs on Redis".into(),
            )),
            CacheConn::Redis(conn) => {
                let deleted: i64 = redis::cmd("EVAL")
                    .arg(DELETE_IF_OWNER)
                    .arg(1)
                    .arg(key)
                    .arg(token)
                    .query_async(conn)
                    .await?;
                Ok(deleted > 0)
            }
        }
    }
}
