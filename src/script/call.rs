//! A script's cache or DB call, as it travels from the natives that send
//! it to the host that lands it (and to a mirror's real servers).

use serde_json::Value;

use crate::config::Micros;
use crate::sim::trace::OpKind;

use super::sql::{Plan, SqlError};
use super::world::{
    ExpireIf, Expiry, ExpiryChange, HashWrite, ListWrite, LockScript, Only, Row, Scan, SetOptions,
    ZsetWrite,
};

/// What a script's cache or DB call does when it lands.
#[derive(Clone)]
pub enum Call {
    Get(String),
    GetStale(String),
    Set(String, Value, Micros),
    Add(String, Value, Micros),
    Delete(String),
    DeleteIf(String, Value),
    Incr(String, f64),
    /// Redis's `INCRBYFLOAT`, its increment as the client sends it.
    IncrFloat(String, String),
    /// memcached's `replace` (and Redis's `SET XX`).
    Replace(String, Value, Micros),
    /// Redis's `PEXPIRE` or `PEXPIREAT`: a new expiry for a live key (one
    /// due by the time it lands deletes it), if its option allows.
    Expire(String, Expiry, ExpireIf),
    /// memcached's `touch`: a new ttl for a live key (0: none, as
    /// memcached reads an expiry of 0).
    Touch(String, Micros),
    /// Redis's `PTTL` (and `TTL`, which rounds it to seconds).
    Pttl(String),
    /// Redis's `PERSIST`.
    Persist(String),
    /// Redis's `GETDEL`.
    GetDelete(String),
    /// Redis's `GETEX`.
    GetEx(String, ExpiryChange),
    /// Redis's `SET` with `KEEPTTL` or `GET` (and `GETSET`, which is
    /// `SET … GET`).
    SetWith(String, Value, SetOptions),
    /// memcached's `incr`/`decr`, with the binary protocol's initial value
    /// and its ttl for a missing key.
    Counter(String, f64, Option<(f64, Micros)>),
    /// memcached's `gets`: the value and its CAS unique.
    Gets(String),
    /// memcached's `cas` of the value, if the key's CAS unique is still
    /// this one, with its ttl.
    Cas(String, Value, u64, Micros),
    /// memcached's `append` of this text (`true`: `prepend`).
    Attach(String, String, bool),
    /// One of redlock's scripts on its keys, with the lock's value and ttl.
    Locks(LockScript, Vec<String>, Value, Micros),
    /// A read of a Redis hash: these fields (`HGET`, `HMGET`, `HEXISTS`),
    /// or all of them (`HGETALL`, `HLEN`, `HKEYS`, `HVALS`).
    HashRead(String, Option<Vec<String>>),
    /// A write of a Redis hash.
    HashWrite(String, HashWrite),
    /// A read of a Redis set: whether each of these is a member
    /// (`SISMEMBER`, `SMISMEMBER`), or every member (`SMEMBERS`, `SCARD`).
    SetRead(String, Option<Vec<String>>),
    /// `SADD` (true) or `SREM` of these members.
    SetWrite(String, bool, Vec<String>),
    /// `LRANGE key start stop` (`LLEN` reads it all).
    ListRead(String, i64, i64),
    /// A push or a pop.
    ListWrite(String, ListWrite),
    /// Redis's `LMOVE` from the first list to the second (`RPOPLPUSH`:
    /// from the right, to the left): whether it pops from the left, and
    /// whether it pushes there.
    ListMove(String, String, bool, bool),
    /// Redis's `PUBLISH` of the message on the channel (the first).
    Publish(String, String),
    /// A read of a Redis sorted set: every member with its score, in
    /// order (`ZRANGE`, `ZSCORE`, `ZCARD`, … each read it whole).
    ZsetRead(String),
    /// A write of a Redis sorted set (`ZADD`, `ZINCRBY`, `ZREM`, …).
    ZsetWrite(String, ZsetWrite),
    /// Redis's `KEYS pattern`.
    Keys(String),
    /// Redis's `TYPE`.
    Type(String),
    /// Redis's `STRLEN`.
    Strlen(String),
    /// Redis's `APPEND` of this text.
    Append(String, String),
    /// Redis's `RENAME` to the second key (`RENAMENX`: true).
    Rename(String, String, bool),
    /// One call of Redis's `SCAN`.
    Scan(Scan),
    /// Redis's `WATCH` of these keys on a client's connection (none:
    /// `UNWATCH`).
    Watch(u64, Vec<String>),
    /// Redis's `MULTI`…`EXEC` on a client's connection (`Some`: it aborts
    /// if a key the connection watches changed), or a pipeline (`None`):
    /// the queued calls, applied in order when it lands.
    Exec(Option<u64>, Vec<Call>),
    Find(String, Row),
    FindOne(String, Row),
    Insert(String, Row),
    Update(String, Row, Row),
    Remove(String, Row),
    /// A `pg` query: its plan (or why it has none), for a client session.
    Sql(Box<SqlCall>),
}

/// A `pg` query as it travels to the simulated PostgreSQL.
#[derive(Clone)]
pub struct SqlCall {
    /// The statement with its parameters bound, or the error the server
    /// answers (a syntax error comes back after the round trip too).
    pub plan: Result<Plan, SqlError>,
    /// The session of the client (or the pool's connection) that sends it.
    pub session: u64,
    /// The ROLLBACK that closes the session's connection: once it ran, the
    /// session's advisory locks go too (`Database::close`).
    pub closes: bool,
    /// The trace's key: the table, or `transaction`.
    pub key: String,
    /// Its text and values as the script sent them, kept only when the
    /// run is mirrored to real servers (`super::mirror`).
    pub sent: Option<(String, Vec<Value>)>,
}

impl Call {
    /// The key the trace shows (a cache key, or a table name).
    pub fn key(&self) -> &str {
        match self {
            Call::Get(key)
            | Call::GetStale(key)
            | Call::Set(key, ..)
            | Call::Add(key, ..)
            | Call::Delete(key)
            | Call::DeleteIf(key, _)
            | Call::Incr(key, _)
            | Call::IncrFloat(key, _)
            | Call::Replace(key, ..)
            | Call::Expire(key, ..)
            | Call::Touch(key, _)
            | Call::Pttl(key)
            | Call::Persist(key)
            | Call::GetDelete(key)
            | Call::GetEx(key, _)
            | Call::SetWith(key, ..)
            | Call::Counter(key, ..)
            | Call::Gets(key)
            | Call::Cas(key, ..)
            | Call::Attach(key, ..)
            | Call::Find(key, _)
            | Call::FindOne(key, _)
            | Call::Insert(key, _)
            | Call::Update(key, ..)
            | Call::Remove(key, _)
            | Call::HashRead(key, _)
            | Call::HashWrite(key, _)
            | Call::SetRead(key, _)
            | Call::SetWrite(key, ..)
            | Call::ListRead(key, ..)
            | Call::ListWrite(key, _)
            | Call::ListMove(key, ..)
            | Call::Publish(key, _)
            | Call::ZsetRead(key)
            | Call::ZsetWrite(key, _)
            | Call::Keys(key)
            | Call::Type(key)
            | Call::Strlen(key)
            | Call::Append(key, _)
            | Call::Rename(key, ..) => key,
            Call::Scan(scan) => &scan.pattern,
            Call::Locks(_, keys, ..) | Call::Watch(_, keys) => {
                keys.first().map_or("", String::as_str)
            }
            Call::Exec(_, calls) => calls.first().map_or("", Call::key),
            Call::Sql(call) => &call.key,
        }
    }

    /// Every cache key it reads or writes: its key, and the other key of
    /// a call on two (`RENAME`, `LMOVE`).
    pub fn keys(&self) -> Vec<&str> {
        match self {
            Call::Rename(key, to, _) | Call::ListMove(key, to, ..) => vec![key, to],
            // A channel is no key.
            Call::Publish(..) => Vec::new(),
            call => vec![call.key()],
        }
    }

    /// How much longer than its drawn latency it takes: a `SELECT
    /// pg_sleep(…)`'s sleep (`sql::sleep`), else 0.
    pub fn sleep(&self) -> Micros {
        match self {
            Call::Sql(call) => call
                .plan
                .as_ref()
                .map_or(0, super::sql::sleep::sleep_micros),
            _ => 0,
        }
    }

    /// The operation the trace and the debugger name it by.
    pub fn kind(&self) -> OpKind {
        match self {
            Call::Get(_) | Call::Gets(_) => OpKind::CacheGet,
            Call::Cas(..) => OpKind::CacheCas,
            Call::Attach(..) => OpKind::CacheAppend,
            Call::GetStale(_) => OpKind::CacheGetStale,
            Call::Set(..) => OpKind::CacheSet,
            Call::Add(..) => OpKind::CacheAdd,
            Call::Delete(_) => OpKind::CacheDelete,
            Call::DeleteIf(..) => OpKind::CacheDeleteIf,
            Call::Incr(..) | Call::IncrFloat(..) | Call::Counter(..) => OpKind::CacheIncr,
            Call::Replace(..) => OpKind::CacheReplace,
            Call::Expire(..) | Call::Touch(..) => OpKind::CacheExpire,
            Call::Pttl(_) => OpKind::CacheTtl,
            Call::Persist(_) => OpKind::CachePersist,
            Call::GetDelete(_) => OpKind::CacheGetDelete,
            Call::GetEx(..) => OpKind::CacheGetEx,
            Call::SetWith(_, _, options) => match (options.get, options.only) {
                (true, _) => OpKind::CacheGetSet,
                (false, Some(Only::Nx)) => OpKind::CacheAdd,
                (false, Some(Only::Xx)) => OpKind::CacheReplace,
                (false, None) => OpKind::CacheSet,
            },
            Call::Locks(..) => OpKind::CacheLockScript,
            Call::HashRead(..) => OpKind::CacheHashGet,
            Call::HashWrite(_, HashWrite::IncrBy(..) | HashWrite::IncrByFloat(..)) => {
                OpKind::CacheHashIncr
            }
            Call::HashWrite(..) => OpKind::CacheHashSet,
            Call::SetRead(..) => OpKind::CacheSetRead,
            Call::SetWrite(..) => OpKind::CacheSetWrite,
            Call::ListRead(..) => OpKind::CacheListRead,
            Call::ListWrite(..) => OpKind::CacheListWrite,
            Call::ListMove(..) => OpKind::CacheListMove,
            Call::Publish(..) => OpKind::CachePublish,
            Call::ZsetRead(_) => OpKind::CacheZsetRead,
            Call::ZsetWrite(..) => OpKind::CacheZsetWrite,
            Call::Keys(_) => OpKind::CacheKeys,
            Call::Type(_) => OpKind::CacheType,
            Call::Strlen(_) => OpKind::CacheStrlen,
            Call::Append(..) => OpKind::CacheAppend,
            Call::Rename(..) => OpKind::CacheRename,
            Call::Scan(_) => OpKind::CacheScan,
            Call::Watch(..) => OpKind::CacheWatch,
            Call::Exec(..) => OpKind::CacheExec,
            Call::Find(..) => OpKind::DbFind,
            Call::FindOne(..) => OpKind::DbFindOne,
            Call::Insert(..) => OpKind::DbInsert,
            Call::Update(..) => OpKind::DbUpdate,
            Call::Remove(..) => OpKind::DbDelete,
            Call::Sql(call) => match &call.plan {
                Ok(Plan::Select(select)) if select.locks() => OpKind::SqlSelectForUpdate,
                Ok(Plan::Select(_)) | Err(_) => OpKind::SqlSelect,
                Ok(Plan::Insert(_)) => OpKind::SqlInsert,
                Ok(Plan::Update(_)) => OpKind::SqlUpdate,
                Ok(Plan::Delete(_)) => OpKind::SqlDelete,
                Ok(Plan::Begin(_) | Plan::SetIsolation(_)) => OpKind::SqlBegin,
                Ok(Plan::Set { .. } | Plan::Reset(_)) => OpKind::SqlSet,
                Ok(Plan::Show { .. }) => OpKind::SqlShow,
                Ok(Plan::Lock(_)) => OpKind::SqlLock,
                Ok(Plan::Commit) => OpKind::SqlCommit,
                Ok(Plan::Rollback) => OpKind::SqlRollback,
                Ok(Plan::Savepoint(_)) => OpKind::SqlSavepoint,
                Ok(Plan::Release(_)) => OpKind::SqlRelease,
                Ok(Plan::RollbackTo(_)) => OpKind::SqlRollbackTo,
            },
        }
    }
}
