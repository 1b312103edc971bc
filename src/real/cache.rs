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
//! | fencing token | `incr` | `INCR` |

use std::fmt;
use std::rc::Rc;

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

/// One request's connection to the cache server. A memcached connection
/// answers one command at a time, so requests sharing one (runs of more
/// than [`crate::real::MAX_CONNECTIONS`] requests) take turns on it; the
/// multiplexed Redis connection is cloned per command (a handle on the
/// same connection), so every command takes `&self`.
pub enum CacheConn {
    Memcached(Rc<tokio::sync::Mutex<Memcached>>),
    Redis(redis::aio::MultiplexedConnection),
}

/// A data key's value as stored: the row, when it stops being live (on the
/// trial's clock, microseconds; `None`: never), and how long it took to
/// recompute (XFetch's delta). The entry itself lives `grace` longer, so a
/// read between the two finds it stale (`stale-while-revalidate`, `grace`),
/// as the model's cache entry: memcached and Redis only know one expiry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataEntry {
    pub row: String,
    pub live_until: Option<Micros>,
    pub delta: Micros,
}

/// What a read of a data key found, as the model's `Lookup`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    Live(DataEntry),
    Stale(DataEntry),
    Miss,
}

impl DataEntry {
    /// `row:live_until:delta` (`live_until` empty: never expires).
    pub fn encode(&self) -> String {
        let until = self.live_until.map_or(String::new(), |at| at.to_string());
        format!("{}:{until}:{}", self.row, self.delta)
    }

    pub fn decode(text: &str) -> Option<DataEntry> {
        let mut parts = text.split(':');
        let row = parts.next()?.to_string();
        let until = parts.next()?;
        let live_until = if until.is_empty() {
            None
        } else {
            Some(until.parse().ok()?)
        };
        let delta = parts.next()?.parse().ok()?;
        Some(DataEntry {
            row,
            live_until,
            delta,
        })
    }

    /// Live before `live_until`, stale for `grace` after it, then gone.
    pub fn lookup(self, now: Micros, grace: Micros) -> Found {
        match self.live_until {
            None => Found::Live(self),
            Some(at) if now < at => Found::Live(self),
            Some(at) if now < at.saturating_add(grace) => Found::Stale(self),
            Some(_) => Found::Miss,
        }
    }

    /// The server-side expiry of an entry stored at `now`: past the stale
    /// window, plus a second so memcached's whole seconds never cut it
    /// short (the value's own `live_until` decides); 0 never expires.
    pub fn storage_ttl(&self, now: Micros, grace: Micros) -> Micros {
        match self.live_until {
            None => 0,
            Some(at) => at.saturating_sub(now) + grace + SECOND,
        }
    }
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

/// What a sorted-set write answers: a count, a score (`None`: nil), or a
/// pop's `[member, score, …]`.
#[derive(Clone, Debug, PartialEq)]
pub enum ZsetAnswer {
    Count(i64),
    Score(Option<f64>),
    Popped(Vec<String>),
}

/// A Redis reply, with the server's own refusal (`ERR value is not an
/// integer`, `WRONGTYPE …`) as an answer inside, and any other failure (the
/// connection's) as the call's error.
fn refusal<T>(reply: Result<T, redis::RedisError>) -> Result<Result<T, String>, CacheError> {
    match reply {
        Ok(reply) => Ok(Ok(reply)),
        Err(error) if error.code().is_some() => Ok(Err(error.to_string())),
        Err(error) => Err(error.into()),
    }
}

/// Redis's PX: whole milliseconds, rounded up, at least 1.
fn millis(ttl: Micros) -> u64 {
    ttl.div_ceil(1_000).max(1)
}

impl CacheConn {
    pub async fn get(&self, key: &str) -> Result<Option<String>, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn.lock().await.get(key).await?),
            CacheConn::Redis(conn) => Ok(redis::cmd("GET")
                .arg(key)
                .query_async(&mut conn.clone())
                .await?),
        }
    }

    pub async fn set(&self, key: &str, value: &str, ttl: Micros) -> Result<(), CacheError> {
        match self {
            CacheConn::Memcached(conn) => {
                Ok(conn.lock().await.set(key, value, seconds(ttl)).await?)
            }
            CacheConn::Redis(conn) => {
                let mut command = redis::cmd("SET");
                command.arg(key).arg(value);
                if ttl > 0 {
                    command.arg("PX").arg(millis(ttl));
                }
                let _: Option<String> = command.query_async(&mut conn.clone()).await?;
                Ok(())
            }
        }
    }

    /// Stores only if absent (memcached `add`, Redis `SET NX`); true if
    /// stored.
    pub async fn add(&self, key: &str, value: &str, ttl: Micros) -> Result<bool, CacheError> {
        self.store_if("add", "NX", key, value, ttl).await
    }

    pub async fn delete(&self, key: &str) -> Result<bool, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn.lock().await.delete(key).await?),
            CacheConn::Redis(conn) => {
                let deleted: i64 = redis::cmd("DEL")
                    .arg(key)
                    .query_async(&mut conn.clone())
                    .await?;
                Ok(deleted > 0)
            }
        }
    }

    /// Increments `key` (a counter created at 0): memcached `incr`, Redis
    /// `INCR`. The next fencing token.
    pub async fn incr(&self, key: &str) -> Result<u64, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn.lock().await.incr(key).await?),
            CacheConn::Redis(conn) => Ok(redis::cmd("INCR")
                .arg(key)
                .query_async(&mut conn.clone())
                .await?),
        }
    }

    /// memcached's `gets`: the value and its CAS unique (Redis has none).
    pub async fn gets(&self, key: &str) -> Result<Option<(String, u64)>, CacheError> {
        Ok(self.memcached("gets")?.lock().await.gets(key).await?)
    }

    /// memcached's `cas`: its reply, lower-case (`stored`, `exists`,
    /// `not_found`), as the model words it.
    pub async fn cas(
        &self,
        key: &str,
        value: &str,
        ttl: Micros,
        unique: u64,
    ) -> Result<String, CacheError> {
        let mut conn = self.memcached("cas")?.lock().await;
        let reply = conn.cas(key, value, seconds(ttl), unique).await?;
        Ok(reply.to_lowercase())
    }

    /// memcached's `append` (`front`: `prepend`); true if stored.
    pub async fn attach(&self, key: &str, more: &str, front: bool) -> Result<bool, CacheError> {
        let verb = if front { "prepend" } else { "append" };
        let mut conn = self.memcached(verb)?.lock().await;
        Ok(conn.store(verb, key, more, 0).await?)
    }

    /// The memcached connection, for a command Redis does not have.
    fn memcached(&self, command: &str) -> Result<&Rc<tokio::sync::Mutex<Memcached>>, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn),
            CacheConn::Redis(_) => Err(CacheError(format!(
                "memcached's {command} has no Redis counterpart"
            ))),
        }
    }

    /// Stores only if present (memcached `replace`, Redis `SET XX`); true
    /// if stored.
    pub async fn replace(&self, key: &str, value: &str, ttl: Micros) -> Result<bool, CacheError> {
        self.store_if("replace", "XX", key, value, ttl).await
    }

    /// A conditional store: memcached's `verb`, Redis's `SET` with `only`.
    async fn store_if(
        &self,
        verb: &str,
        only: &str,
        key: &str,
        value: &str,
        ttl: Micros,
    ) -> Result<bool, CacheError> {
        match self {
            CacheConn::Memcached(conn) => {
                let mut conn = conn.lock().await;
                Ok(conn.store(verb, key, value, seconds(ttl)).await?)
            }
            CacheConn::Redis(conn) => {
                let mut command = redis::cmd("SET");
                command.arg(key).arg(value).arg(only);
                if ttl > 0 {
                    command.arg("PX").arg(millis(ttl));
                }
                let stored: Option<String> = command.query_async(&mut conn.clone()).await?;
                Ok(stored.is_some())
            }
        }
    }

    /// A new expiry for a present key (memcached `touch`, Redis `PEXPIRE`;
    /// 0 deletes it); true if it was present.
    /// A new expiry for a live key (0 deletes it): Redis's `PEXPIRE`, with
    /// its options (`NX`, `XX`, `GT`, `LT`); memcached's `touch`, which
    /// takes none.
    pub async fn expire(
        &self,
        key: &str,
        ttl: Micros,
        options: &[&str],
    ) -> Result<bool, CacheError> {
        match self {
            CacheConn::Memcached(_) if !options.is_empty() => Err(CacheError(format!(
                "memcached has no expire option {}",
                options.join(" ")
            ))),
            CacheConn::Memcached(_) if ttl == 0 => self.delete(key).await,
            CacheConn::Memcached(conn) => Ok(conn.lock().await.touch(key, seconds(ttl)).await?),
            CacheConn::Redis(conn) => {
                let live: i64 = redis::cmd("PEXPIRE")
                    .arg(key)
                    .arg(ttl / 1_000)
                    .arg(options)
                    .query_async(&mut conn.clone())
                    .await?;
                Ok(live == 1)
            }
        }
    }

    /// memcached's `touch`: a live key's new ttl (0: none); on Redis,
    /// `PEXPIRE`, or `PERSIST` for 0. Answers whether the key was live.
    pub async fn touch(&self, key: &str, ttl: Micros) -> Result<bool, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn.lock().await.touch(key, seconds(ttl)).await?),
            CacheConn::Redis(conn) if ttl == 0 => {
                let mut conn = conn.clone();
                let _: i64 = redis::cmd("PERSIST")
                    .arg(key)
                    .query_async(&mut conn)
                    .await?;
                let live: i64 = redis::cmd("EXISTS").arg(key).query_async(&mut conn).await?;
                Ok(live == 1)
            }
            CacheConn::Redis(_) => self.expire(key, ttl, &[]).await,
        }
    }

    /// Adds `by` to a counter: memcached `incr`/`decr` (`None` for a
    /// missing key), Redis `INCRBY` (a missing key counts from 0). `Err`
    /// inside: the server's refusal of a value that is not a number.
    pub async fn count(
        &self,
        key: &str,
        by: i64,
    ) -> Result<Result<Option<i64>, String>, CacheError> {
        match self {
            CacheConn::Memcached(conn) => Ok(conn
                .lock()
                .await
                .count(key, by)
                .await?
                .map(|n| n.map(|n| n as i64))),
            CacheConn::Redis(conn) => {
                let counted: Result<i64, redis::RedisError> = redis::cmd("INCRBY")
                    .arg(key)
                    .arg(by)
                    .query_async(&mut conn.clone())
                    .await;
                refusal(counted.map(Some))
            }
        }
    }

    /// A Redis hash's fields (`HMGET`; a missing one `None`), or all of them
    /// (`HGETALL`). `Err` inside: the server's refusal (`WRONGTYPE`).
    /// memcached has no hashes.
    pub async fn hash_read(
        &self,
        key: &str,
        fields: Option<&[String]>,
    ) -> Result<Result<Vec<(String, Option<String>)>, String>, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError("memcached has no hashes".into()));
        };
        let read: Result<Vec<(String, Option<String>)>, redis::RedisError> = match fields {
            None => redis::cmd("HGETALL")
                .arg(key)
                .query_async::<Vec<(String, String)>>(&mut conn.clone())
                .await
                .map(|all| all.into_iter().map(|(f, v)| (f, Some(v))).collect()),
            Some(fields) => redis::cmd("HMGET")
                .arg(key)
                .arg(fields)
                .query_async::<Vec<Option<String>>>(&mut conn.clone())
                .await
                .map(|values| fields.iter().cloned().zip(values).collect()),
        };
        refusal(read)
    }

    /// A Redis set's members (`SMEMBERS`), or whether each of `asked` is
    /// one (`SMISMEMBER`, `1`/`0`). `Err` inside: the server's refusal.
    pub async fn set_read(
        &self,
        key: &str,
        asked: Option<&[String]>,
    ) -> Result<Result<Vec<String>, String>, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError("memcached has no sets".into()));
        };
        let read: Result<Vec<String>, redis::RedisError> = match asked {
            None => {
                redis::cmd("SMEMBERS")
                    .arg(key)
                    .query_async(&mut conn.clone())
                    .await
            }
            Some(asked) => redis::cmd("SMISMEMBER")
                .arg(key)
                .arg(asked)
                .query_async::<Vec<i64>>(&mut conn.clone())
                .await
                .map(|found| found.into_iter().map(|n| n.to_string()).collect()),
        };
        refusal(read)
    }

    /// `LRANGE key start stop`, or (`pop`: `Some(left)`) `LPOP`/`RPOP key
    /// count` (a missing key: no item). `Err` inside: the server's refusal.
    pub async fn list_items(
        &self,
        key: &str,
        pop: Option<bool>,
        range: (i64, i64),
    ) -> Result<Result<Vec<String>, String>, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError("memcached has no lists".into()));
        };
        let mut command = match pop {
            None => redis::cmd("LRANGE"),
            Some(true) => redis::cmd("LPOP"),
            Some(false) => redis::cmd("RPOP"),
        };
        command.arg(key).arg(range.0);
        if pop.is_none() {
            command.arg(range.1);
        }
        let read: Result<Option<Vec<String>>, redis::RedisError> =
            command.query_async(&mut conn.clone()).await;
        refusal(read.map(|items| items.unwrap_or_default()))
    }

    /// A write of a hash or a set that Redis answers with a number:
    /// `HSET`, `HSETNX`, `HDEL`, `HINCRBY`, `SADD`, `SREM`. `Err` inside:
    /// its refusal.
    pub async fn count_write(
        &self,
        key: &str,
        command: &str,
        args: &[String],
    ) -> Result<Result<i64, String>, CacheError> {
        self.redis_write(key, command, args).await
    }

    /// A write that Redis answers with text: `INCRBYFLOAT`,
    /// `HINCRBYFLOAT`. `Err` inside: its refusal.
    pub async fn text_write(
        &self,
        key: &str,
        command: &str,
        args: &[String],
    ) -> Result<Result<String, String>, CacheError> {
        self.redis_write(key, command, args).await
    }

    async fn redis_write<T: redis::FromRedisValue>(
        &self,
        key: &str,
        command: &str,
        args: &[String],
    ) -> Result<Result<T, String>, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError(format!("memcached has no {command}")));
        };
        let written: Result<T, redis::RedisError> = redis::cmd(command)
            .arg(key)
            .arg(args)
            .query_async(&mut conn.clone())
            .await;
        refusal(written)
    }

    /// Redis's `KEYS pattern`: the keys that match, in the server's order.
    pub async fn keys(&self, pattern: &str) -> Result<Vec<String>, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError("memcached has no KEYS".into()));
        };
        Ok(redis::cmd("KEYS")
            .arg(pattern)
            .query_async(&mut conn.clone())
            .await?)
    }

    /// Redis's `PTTL` or `PERSIST` of a key: its integer answer.
    pub async fn key_integer(&self, command: &str, key: &str) -> Result<i64, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError(format!("memcached has no {command}")));
        };
        Ok(redis::cmd(command)
            .arg(key)
            .query_async(&mut conn.clone())
            .await?)
    }

    /// A Redis command on a key (`GETDEL`, a `SET` with options) and its
    /// other arguments: its reply (`None`: nil). `Err` inside: the
    /// server's refusal.
    pub async fn string_reply(
        &self,
        command: &str,
        key: &str,
        args: &[&str],
    ) -> Result<Result<Option<String>, String>, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError(format!(
                "memcached has no {command} {}",
                args.join(" ")
            )));
        };
        let reply: Result<Option<String>, redis::RedisError> = redis::cmd(command)
            .arg(key)
            .arg(args)
            .query_async(&mut conn.clone())
            .await;
        refusal(reply)
    }

    /// A Redis sorted set's members with their scores, in order (`ZRANGE
    /// key 0 -1 WITHSCORES`). `Err` inside: the server's refusal.
    pub async fn zset_read(
        &self,
        key: &str,
    ) -> Result<Result<Vec<(String, f64)>, String>, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError("memcached has no sorted sets".into()));
        };
        let read: Result<Vec<(String, f64)>, redis::RedisError> = redis::cmd("ZRANGE")
            .arg(key)
            .arg(0)
            .arg(-1)
            .arg("WITHSCORES")
            .query_async(&mut conn.clone())
            .await;
        refusal(read)
    }

    /// A write of a sorted set (`ZADD`, `ZREM`, `ZREMRANGEBYSCORE`,
    /// `ZREMRANGEBYRANK`): a count, or with `ZADD INCR` the new score
    /// (`None`: nil). `Err` inside: its refusal.
    pub async fn zset_write(
        &self,
        key: &str,
        command: &str,
        args: &[String],
    ) -> Result<Result<ZsetAnswer, String>, CacheError> {
        let CacheConn::Redis(conn) = self else {
            return Err(CacheError("memcached has no sorted sets".into()));
        };
        let written: Result<redis::Value, redis::RedisError> = redis::cmd(command)
            .arg(key)
            .arg(args)
            .query_async(&mut conn.clone())
            .await;
        refusal(written.map(|reply| {
            match reply {
                redis::Value::Int(n) => ZsetAnswer::Count(n),
                redis::Value::BulkString(bytes) => {
                    ZsetAnswer::Score(String::from_utf8_lossy(&bytes).parse().ok())
                }
                redis::Value::Double(score) => ZsetAnswer::Score(Some(score)),
                redis::Value::Array(items) => ZsetAnswer::Popped(
                    items
                        .into_iter()
                        .map(|item| match item {
                            redis::Value::BulkString(bytes) => {
                                String::from_utf8_lossy(&bytes).into()
                            }
                            other => format!("{other:?}"),
                        })
                        .collect(),
                ),
                _ => ZsetAnswer::Score(None),
            }
        }))
    }

    /// Deletes `key` only if it holds `token`, atomically (Redis only; the
    /// run picks Redis whenever `release=owner`).
    pub async fn delete_if_owner(&self, key: &str, token: &str) -> Result<bool, CacheError> {
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
                    .query_async(&mut conn.clone())
                    .await?;
                Ok(deleted > 0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_entry_is_live_then_stale_for_grace_then_gone() {
        let entry = DataEntry {
            row: "7".into(),
            live_until: Some(100),
            delta: 20,
        };
        let text = entry.encode();
        assert_eq!(text, "7:100:20");
        let back = DataEntry::decode(&text).unwrap();
        assert_eq!(back, entry);
        assert_eq!(back.clone().lookup(99, 15), Found::Live(entry.clone()));
        assert_eq!(back.clone().lookup(100, 15), Found::Stale(entry.clone()));
        assert_eq!(back.clone().lookup(114, 15), Found::Stale(entry.clone()));
        assert_eq!(back.clone().lookup(115, 15), Found::Miss);
        assert_eq!(back.lookup(100, 0), Found::Miss);
        // Kept by the server a second past the stale window.
        assert_eq!(entry.storage_ttl(40, 15), 60 + 15 + SECOND);
        let forever = DataEntry {
            live_until: None,
            ..entry
        };
        assert_eq!(DataEntry::decode(&forever.encode()).unwrap(), forever);
        assert_eq!(forever.storage_ttl(40, 15), 0);
        assert!(matches!(forever.lookup(u64::MAX, 0), Found::Live(_)));
        assert_eq!(DataEntry::decode("garbage"), None);
    }
}
