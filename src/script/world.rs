//! The world a script sees (SCRIPTING.md §3): a cache of string keys and
//! JSON values with memcached semantics, and a database of tables of JSON
//! rows. Each operation here is applied atomically at its completion time;
//! the event loop (`Core`) gives it its latency, pool connection and trace.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value};

use crate::config::Micros;
use crate::script::long_double;

mod lookup;

use lookup::{Key, Lookup};

/// A row: a JSON object.
pub type Row = Map<String, Value>;

/// What a read of the cache finds.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    Live(Value),
    /// Expired but within `grace`.
    Stale(Value),
    Miss,
}

#[derive(Clone, Debug)]
struct Entry {
    /// A hash's fields are an object of field to value; a set's members
    /// an array of strings.
    value: Value,
    /// `None`: never expires.
    expires_at: Option<Micros>,
    kind: Kind,
}

/// What a cache entry holds: a value, or one of Redis's collections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Value,
    /// `HSET`.
    Hash,
    /// `SADD`.
    Set,
    /// `LPUSH`, `RPUSH`.
    List,
    /// `ZADD`: `[member, score]` pairs by score, then member.
    Zset,
}

impl Kind {
    /// Its name as Redis's `TYPE` gives it.
    fn name(self) -> &'static str {
        match self {
            Kind::Value => "string",
            Kind::Hash => "hash",
            Kind::Set => "set",
            Kind::List => "list",
            Kind::Zset => "zset",
        }
    }
}

/// A `SCAN` call: its cursor, and its `MATCH`, `COUNT` and `TYPE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scan {
    pub cursor: u64,
    pub pattern: String,
    pub count: usize,
    pub kind: Option<String>,
}

/// The items of a list of `len` that `LRANGE start stop` answers
/// (negative indexes count from the end; out of range: none), as
/// `listTypeRange` reads them: a start before the first item is the first,
/// a stop before it leaves nothing (`LRANGE l -9 -9` of a short list is
/// empty, `LRANGE l -9 0` is its first item).
pub fn redis_range(len: usize, start: i64, stop: i64) -> std::ops::Range<usize> {
    let len = len as i64;
    let from_end = |i: i64| if i < 0 { len + i } else { i };
    let (start, stop) = (from_end(start).max(0), from_end(stop).min(len - 1));
    match start <= stop && start < len {
        true => start as usize..stop as usize + 1,
        false => 0..0,
    }
}

/// A set's members in the order they read: integers ascending (Redis's
/// intset), else by bytes.
pub fn sort_members(members: &mut [String]) {
    let integer = |m: &String| m.parse::<i64>().ok().filter(|n| n.to_string() == *m);
    if members.iter().all(|m| integer(m).is_some()) {
        members.sort_by_key(|m| integer(m).unwrap_or(0));
    } else {
        members.sort();
    }
}

/// An `EXPIRE`'s new expiry: a time from when it lands (`EXPIRE`,
/// `PEXPIRE`), or a time on the run's clock (`EXPIREAT`, `PEXPIREAT`, as
/// `Date.now()` reads it), which may have passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    In(Micros),
    At(Micros),
}

/// What `GETEX` does to the key's expiry besides reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpiryChange {
    Keep,
    /// `PERSIST`.
    Persist,
    /// `EX`, `PX`, `EXAT` or `PXAT`.
    Set(Expiry),
    /// A time Redis refuses, with its error: answered once the key is
    /// found to hold a string (a missing key is still null).
    Refused(String),
}

impl Expiry {
    /// When it expires if it lands at `now` (`At` keeps its time, which
    /// may have passed).
    pub fn at(self, now: Micros) -> Micros {
        match self {
            Expiry::In(ttl) => now.saturating_add(ttl),
            Expiry::At(at) => at,
        }
    }

    /// Its time to live at `now` (0, which deletes the key, once passed).
    pub fn ttl(self, now: Micros) -> Micros {
        match self {
            Expiry::In(ttl) => ttl,
            Expiry::At(at) => at.saturating_sub(now),
        }
    }
}

/// When `EXPIRE` sets the new expiry (Redis 7.0's options; none: always):
/// only if the key has none (`NX`), has one (`XX`), or the new one is later
/// (`GT`) or earlier (`LT`) than the current one, where no expiry is
/// forever. `XX` goes with `GT` or `LT`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExpireIf {
    nx: bool,
    xx: bool,
    gt: bool,
    lt: bool,
}

impl ExpireIf {
    pub const ALWAYS: ExpireIf = ExpireIf {
        nx: false,
        xx: false,
        gt: false,
        lt: false,
    };

    /// The options as a client sends them, read as Redis 7.0 reads them
    /// (any case, any order), or Redis's error.
    pub fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<ExpireIf, String> {
        let mut only = ExpireIf::ALWAYS;
        for word in words {
            match word.to_ascii_uppercase().as_str() {
                "NX" => only.nx = true,
                "XX" => only.xx = true,
                "GT" => only.gt = true,
                "LT" => only.lt = true,
                _ => return Err(format!("ERR Unsupported option {word}")),
            }
        }
        if only.nx && (only.xx || only.gt || only.lt) {
            return Err(
                "ERR NX and XX, GT or LT options at the same time are not compatible".to_string(),
            );
        }
        if only.gt && only.lt {
            return Err("ERR GT and LT options at the same time are not compatible".to_string());
        }
        Ok(only)
    }

    /// Its words in a Redis command.
    pub fn words(self) -> Vec<&'static str> {
        [
            (self.nx, "NX"),
            (self.xx, "XX"),
            (self.gt, "GT"),
            (self.lt, "LT"),
        ]
        .into_iter()
        .filter_map(|(on, word)| on.then_some(word))
        .collect()
    }

    /// Whether a key whose expiry is `current` (none: forever) takes the
    /// expiry `when` (both in whole milliseconds), checked as Redis's
    /// `expireGenericCommand` checks.
    fn allows(self, current: Option<Micros>, when: Micros) -> bool {
        let refused = (self.nx && current.is_some())
            || (self.xx && current.is_none())
            || (self.gt && current.is_none_or(|at| when <= at))
            || (self.lt && current.is_some_and(|at| when >= at));
        !refused
    }
}

/// `SET`'s options beyond a value and a time to live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetOptions {
    /// The expiry (`In(0)`: none; `At`: `EXAT` or `PXAT`, which stores a
    /// key that has expired if it has passed); `None`: the key's own
    /// (`KEEPTTL`).
    pub ttl: Option<Expiry>,
    pub only: Option<Only>,
    /// `GET`: answer the value before.
    pub get: bool,
}

/// `SET`'s condition: only if the key is not live (`NX`) or is (`XX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Only {
    Nx,
    Xx,
}

/// Redis's answer to a command on a key of the other kind.
pub const WRONGTYPE: &str = "WRONGTYPE Operation against a key holding the wrong kind of value";

/// A write to a Redis list.
#[derive(Clone, Debug, PartialEq)]
pub enum ListWrite {
    /// `LPUSH` (`left`) or `RPUSH` of the values, in order.
    Push { left: bool, values: Vec<Value> },
    /// `LPOP` (`left`) or `RPOP` of at most `count` items.
    Pop { left: bool, count: usize },
    /// `LTRIM start stop`: keep only that range.
    Trim { start: i64, stop: i64 },
    /// `LREM count value`: remove up to `count` items equal to `value`
    /// from the head (from the tail if negative; 0: all of them).
    Remove { count: i64, value: Value },
    /// `LSET index value`.
    Set { index: i64, value: Value },
}

/// A write to a Redis hash (`HSET`, `HSETNX`, `HDEL`, `HINCRBY`).
#[derive(Clone, Debug, PartialEq)]
pub enum HashWrite {
    /// The fields and values; `only_new`: `HSETNX` (a field that exists
    /// keeps its value).
    Set(Vec<(String, Value)>, bool),
    Delete(Vec<String>),
    IncrBy(String, f64),
    /// `HINCRBYFLOAT field by`: `by` as the client sends it (text).
    IncrByFloat(String, String),
}

/// A write to a Redis sorted set, as the prelude sends it: the
/// command's arguments after the key, in Redis's words (`"NX"`, `"2.5"`,
/// `"-inf"`, `"(3"`), read here as Redis reads them.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ZsetWrite {
    /// `ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member …` (`ZINCRBY`
    /// is `ZADD INCR`).
    Add { args: Vec<String> },
    /// `ZREM key member …`.
    Remove { members: Vec<String> },
    /// `ZREMRANGEBYSCORE key min max`.
    RemoveByScore { min: String, max: String },
    /// `ZREMRANGEBYRANK key start stop`.
    RemoveByRank { start: String, stop: String },
    /// `ZPOPMIN key [count]` (`ZPOPMAX`: `max`).
    Pop { max: bool, count: Option<String> },
}

/// `ZADD`'s options and pairs, or Redis's error for them.
struct Zadd {
    nx: bool,
    xx: bool,
    gt: bool,
    lt: bool,
    ch: bool,
    incr: bool,
    pairs: Vec<(f64, String)>,
}

impl Zadd {
    /// Redis's `zaddGenericCommand`: options first (any case), then an
    /// even number of score-member arguments, each score a float.
    fn parse(args: &[String]) -> Result<Zadd, String> {
        if args.len() < 2 {
            return Err("ERR wrong number of arguments for 'zadd' command".to_string());
        }
        let mut zadd = Zadd {
            nx: false,
            xx: false,
            gt: false,
            lt: false,
            ch: false,
            incr: false,
            pairs: Vec::new(),
        };
        let mut at = 0;
        while let Some(option) = args.get(at) {
            let flag = match option.to_ascii_uppercase().as_str() {
                "NX" => &mut zadd.nx,
                "XX" => &mut zadd.xx,
                "GT" => &mut zadd.gt,
                "LT" => &mut zadd.lt,
                "CH" => &mut zadd.ch,
                "INCR" => &mut zadd.incr,
                _ => break,
            };
            *flag = true;
            at += 1;
        }
        let elements = &args[at..];
        if elements.is_empty() || elements.len() % 2 != 0 {
            return Err("ERR syntax error".to_string());
        }
        if zadd.nx && zadd.xx {
            return Err("ERR XX and NX options at the same time are not compatible".to_string());
        }
        if (zadd.gt || zadd.lt) && zadd.nx || (zadd.gt && zadd.lt) {
            return Err(
                "ERR GT, LT, and/or NX options at the same time are not compatible".to_string(),
            );
        }
        if zadd.incr && elements.len() > 2 {
            return Err("ERR INCR option supports a single increment-element pair".to_string());
        }
        for pair in elements.chunks(2) {
            let score = parse_score(&pair[0]).ok_or("ERR value is not a valid float")?;
            zadd.pairs.push((score, pair[1].clone()));
        }
        Ok(zadd)
    }
}

/// A value as memcached's `safe_strtoull` reads a counter: `strtoull`
/// (leading spaces, a sign, digits, at most 2^64 - 1), followed by a
/// space or nothing; a `-` is refused once the number it makes is past
/// 2^63 (so `"-3"` is refused and `"-0"` is 0).
fn memcached_u64(text: &str) -> Option<u64> {
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    let bytes = text.as_bytes();
    let mut at = bytes.iter().take_while(|b| space(b)).count();
    let negative = bytes.get(at) == Some(&b'-');
    if matches!(bytes.get(at), Some(b'+' | b'-')) {
        at += 1;
    }
    let digits = bytes[at..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let ends = bytes.get(at + digits).is_none_or(space);
    if digits == 0 || !ends {
        return None;
    }
    let magnitude: u64 = text[at..at + digits].parse().ok()?;
    let value = if negative {
        magnitude.wrapping_neg()
    } else {
        magnitude
    };
    (!negative || (value as i64) >= 0).then_some(value)
}

/// JavaScript's `Number(text)`, `None` for `NaN`: spaces around, `""` is
/// 0, `0x`, `0o` and `0b` integers, decimals with an exponent, `Infinity`.
fn js_number(text: &str) -> Option<f64> {
    let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if text.is_empty() {
        return Some(0.0);
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if text.len() > 2 && text[..2].eq_ignore_ascii_case(prefix) {
            let digits = &text[2..];
            return digits.chars().try_fold(0.0, |n, c| {
                Some(n * f64::from(radix) + f64::from(c.to_digit(radix)?))
            });
        }
    }
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    if unsigned == "Infinity" {
        return Some(if text.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    let decimal = unsigned.bytes().any(|b| b.is_ascii_digit())
        && unsigned
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    decimal.then(|| text.parse().ok()).flatten()
}

/// Redis's refusal of an `INCRBY` or `HINCRBY` past 64 bits.
const OVERFLOW: &str = "ERR increment or decrement would overflow";

/// A stored value as Redis's `string2ll` reads an integer: a number with
/// no fraction, or text of one (`-` the only sign, no leading zero, no
/// space), within 64 bits. `"007"`, `"1e3"` and `"3.5"` are not.
fn redis_integer_value(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().and_then(whole)),
        Value::String(text) => {
            let digits = text.strip_prefix('-').unwrap_or(text);
            let canonical = !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && (digits == "0" || !digits.starts_with('0'))
                && text != "-0";
            canonical.then(|| text.parse().ok()).flatten()
        }
        _ => None,
    }
}

/// A whole number within 64 bits, as an integer.
fn whole(n: f64) -> Option<i64> {
    // 2^63: the doubles from -2^63 up to it are exactly the i64s' range.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (n.fract() == 0.0 && (-LIMIT..LIMIT).contains(&n)).then_some(n as i64)
}

/// An integer as the clients store one: a number up to 15 digits (exact
/// in JavaScript), its text beyond, so `INCR` past 2^53 stays exact.
fn integer_value(n: i64) -> Value {
    if n.unsigned_abs() < 1_000_000_000_000_000 {
        Value::from(n)
    } else {
        Value::String(n.to_string())
    }
}

/// An integer argument as Redis reads it.
fn redis_integer(text: &str) -> Result<i64, String> {
    text.parse::<i64>()
        .map_err(|_| "ERR value is not an integer or out of range".to_string())
}

/// A score as Redis reads it: a number, or `inf`, `+inf`, `-inf`.
pub fn parse_score(text: &str) -> Option<f64> {
    match text.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => Some(f64::INFINITY),
        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
        _ => text.parse::<f64>().ok().filter(|n| n.is_finite()),
    }
}

/// A range bound of `ZRANGEBYSCORE` and the rest: a score, exclusive
/// after `(`.
fn score_bound(text: &str) -> Result<(f64, bool), String> {
    let (text, exclusive) = match text.strip_prefix('(') {
        Some(rest) => (rest, true),
        None => (text, false),
    };
    parse_score(text)
        .map(|score| (score, exclusive))
        .ok_or_else(|| "ERR min or max is not a float".to_string())
}

/// Whether `score` lies between the bounds.
fn within(score: f64, min: (f64, bool), max: (f64, bool)) -> bool {
    let above = if min.1 { score > min.0 } else { score >= min.0 };
    let below = if max.1 { score < max.0 } else { score <= max.0 };
    above && below
}

/// A score as the cache keeps it (Rust's shortest text; `inf`, `-inf`).
fn score_text(score: f64) -> String {
    score.to_string()
}

/// The script's cache: one for all servers; `grace` applies to every key.
#[derive(Clone, Default)]
pub struct ScriptCache {
    entries: BTreeMap<String, Entry>,
    grace: Micros,
    /// Each key's writes so far (Redis's `WATCH` compares them): kept when
    /// the key is deleted.
    versions: HashMap<String, u64>,
    /// The keys each Redis connection watches (`WATCH`), as they were.
    watches: HashMap<u64, Vec<(String, Watched)>>,
    /// The key each `SCAN` cursor visited last (cursor n is the n-th).
    scan_cursors: Vec<String>,
    /// memcached's CAS unique of each key's value (`gets`, `cas`), and
    /// the last one given: one counter for the server, as memcached's,
    /// taken by each value stored, not by a touch or a delete.
    cas: HashMap<String, u64>,
    cas_ids: u64,
    /// The keys whose value is text under the `memcached` package's
    /// numeric flag that is no number's own form: a number with text
    /// appended (`5` then `"x"`), or a counter memcached padded (`"9 "`).
    /// The value keeps the text, for the next append or counter; a read
    /// answers JavaScript's `Number(text)`, as the package does. Any other
    /// write of the key ends it.
    numeric_texts: HashSet<String>,
}

/// What memcached's `cas` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CasReply {
    /// `STORED`: the value was the one `gets` saw.
    Stored,
    /// `EXISTS`: another store changed it since.
    Exists,
    /// `NOT_FOUND`: no live value.
    NotFound,
}

/// A watched key as `WATCH` found it: its writes so far, and when it
/// expires if it was live with an expiry (Redis 6.0.9 on: an expiry
/// after `WATCH` aborts the `EXEC` too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watched {
    version: u64,
    expires_at: Option<Micros>,
}

impl ScriptCache {
    pub fn new(grace: Micros) -> Self {
        ScriptCache {
            entries: BTreeMap::new(),
            grace,
            versions: HashMap::new(),
            watches: HashMap::new(),
            scan_cursors: Vec::new(),
            cas: HashMap::new(),
            cas_ids: 0,
            numeric_texts: HashSet::new(),
        }
    }

    /// A write to `key`: a connection that watches it will not `EXEC`.
    fn wrote(&mut self, key: &str) {
        if self.is_numeric_text(key) {
            self.numeric_texts.remove(key);
        }
        match self.versions.get_mut(key) {
            Some(version) => *version += 1,
            None => {
                self.versions.insert(key.to_string(), 1);
            }
        }
    }

    /// A write of `key`'s expiry alone: its value, numeric text or not,
    /// stays.
    fn wrote_expiry(&mut self, key: &str) {
        let numeric = self.is_numeric_text(key);
        self.wrote(key);
        if numeric {
            self.numeric_texts.insert(key.to_string());
        }
    }

    /// A value stored at `key` takes the next CAS unique.
    fn stamp(&mut self, key: &str) {
        self.cas_ids += 1;
        match self.cas.get_mut(key) {
            Some(unique) => *unique = self.cas_ids,
            None => {
                self.cas.insert(key.to_string(), self.cas_ids);
            }
        }
    }

    /// memcached's `gets`: the live value and its CAS unique.
    pub fn gets(&self, key: &str, now: Micros) -> Option<(Value, u64)> {
        let entry = self.live(key, now)?;
        let unique = self.cas.get(key).copied().unwrap_or(0);
        Some((self.read(key, &entry.value), unique))
    }

    /// A value as a read answers it: a numeric text as the number
    /// JavaScript reads in it (`NaN`, which JSON lacks, as `null`).
    fn read(&self, key: &str, value: &Value) -> Value {
        match value {
            Value::String(text) if self.is_numeric_text(key) => {
                js_number(text).map_or(Value::Null, number)
            }
            _ => value.clone(),
        }
    }

    /// Whether `key` holds a numeric text: no hashing while none does
    /// (every cache write and read asks).
    fn is_numeric_text(&self, key: &str) -> bool {
        !self.numeric_texts.is_empty() && self.numeric_texts.contains(key)
    }

    /// Whether `key` holds a number under memcached's numeric flag: a
    /// JSON number, or a numeric text.
    fn numeric(&self, key: &str, value: &Value) -> bool {
        value.is_number() || self.is_numeric_text(key)
    }

    /// Stores `text` over `key`'s value (after its write is counted), as
    /// memcached's append and counters write text under the old flags:
    /// over a `numeric` value, the number when `text` is its own form,
    /// else the text marked numeric.
    fn store_text(&mut self, key: &str, text: String, numeric: bool) {
        let value = match numeric.then(|| js_number(&text)).flatten().map(number) {
            Some(value) if text_of(&value) == text => value,
            _ => {
                if numeric {
                    self.numeric_texts.insert(key.to_string());
                }
                Value::String(text)
            }
        };
        if let Some(entry) = self.entries.get_mut(key) {
            entry.value = value;
        }
    }

    /// memcached's `cas`: stores `value` only if the live value's CAS
    /// unique is still `unique`.
    pub fn cas(
        &mut self,
        key: &str,
        value: Value,
        unique: u64,
        ttl: Micros,
        now: Micros,
    ) -> CasReply {
        match self.gets(key, now) {
            None => CasReply::NotFound,
            Some((_, current)) if current != unique => CasReply::Exists,
            Some(_) => {
                self.set(key, value, ttl, now);
                CasReply::Stored
            }
        }
    }

    /// memcached's `append` (`front`: `prepend`) of `more` to a live
    /// value's text, keeping its expiry and its type (the client's flags):
    /// a number stays a number if the text still reads as one. Answers
    /// whether it stored (a missing key is `NOT_STORED`).
    pub fn attach(&mut self, key: &str, more: &str, front: bool, now: Micros) -> bool {
        let Some(entry) = self.live(key, now) else {
            return false;
        };
        let old = text_of(&entry.value);
        let text = match front {
            true => format!("{more}{old}"),
            false => format!("{old}{more}"),
        };
        let numeric = self.numeric(key, &entry.value);
        self.wrote(key);
        self.store_text(key, text, numeric);
        self.stamp(key);
        true
    }

    /// The writes of `key` so far: a write that changed nothing (a `ZREM`
    /// of no member, a pop of an empty list) leaves it as it was.
    pub fn version(&self, key: &str) -> u64 {
        self.versions.get(key).copied().unwrap_or(0)
    }

    /// `WATCH keys` on `connection`: each key as it is now.
    pub fn watch(&mut self, connection: u64, keys: &[String], now: Micros) {
        let marks: Vec<(String, Watched)> = keys
            .iter()
            .map(|key| {
                let watched = Watched {
                    version: self.versions.get(key).copied().unwrap_or(0),
                    expires_at: self.live(key, now).and_then(|entry| entry.expires_at),
                };
                (key.clone(), watched)
            })
            .collect();
        self.watches.entry(connection).or_default().extend(marks);
    }

    /// `UNWATCH` (and `EXEC`, `DISCARD`): `connection` watches nothing.
    pub fn unwatch(&mut self, connection: u64) {
        self.watches.remove(&connection);
    }

    /// `EXEC` on `connection`: whether it runs (no key it watches was
    /// written, or expired, since its `WATCH`); it watches nothing after.
    pub fn exec_allowed(&mut self, connection: u64, now: Micros) -> bool {
        let watched = self.watches.remove(&connection).unwrap_or_default();
        watched.iter().all(|(key, mark)| {
            self.versions.get(key).copied().unwrap_or(0) == mark.version
                && mark.expires_at.is_none_or(|at| now < at)
        })
    }

    /// The keys `connection` watches.
    pub fn watched(&self, connection: u64) -> impl Iterator<Item = &str> {
        self.watches
            .get(&connection)
            .into_iter()
            .flatten()
            .map(|(key, _)| key.as_str())
    }

    /// A live hash's fields (empty: no such key), or `WRONGTYPE`.
    pub fn hash(&self, key: &str, now: Micros) -> Result<Map<String, Value>, String> {
        Ok(match self.collection(key, Kind::Hash, now)? {
            Some(Value::Object(fields)) => fields.clone(),
            _ => Map::new(),
        })
    }

    /// A live entry's value if it is a collection of `kind` (`None`: no
    /// such key), or `WRONGTYPE` if the key holds anything else.
    fn collection(&self, key: &str, kind: Kind, now: Micros) -> Result<Option<&Value>, String> {
        match self.live(key, now) {
            None => Ok(None),
            Some(entry) if entry.kind == kind => Ok(Some(&entry.value)),
            Some(_) => Err(WRONGTYPE.to_string()),
        }
    }

    /// `HSET`, `HSETNX`, `HDEL`, `HINCRBY` or `HINCRBYFLOAT` on `key`: what
    /// Redis answers (fields added, fields deleted, the new value), or its
    /// error. A hash made here never expires; one left empty is deleted.
    pub fn hash_write(
        &mut self,
        key: &str,
        write: HashWrite,
        now: Micros,
    ) -> Result<Value, String> {
        if let HashWrite::IncrByFloat(_, by) = &write {
            // Redis reads the increment before it looks at the key.
            long_double::hash_increment(by)?;
        }
        let mut fields = self.hash(key, now)?;
        let (answer, changed) = match write {
            HashWrite::Set(pairs, only_new) => {
                let mut added = 0.0;
                let mut changed = false;
                for (field, value) in pairs {
                    let new = !fields.contains_key(&field);
                    if new || !only_new {
                        fields.insert(field, value);
                        changed = true;
                    }
                    added += f64::from(u8::from(new));
                }
                (number(added), changed)
            }
            HashWrite::Delete(names) => {
                let gone = names
                    .iter()
                    .filter(|name| fields.shift_remove(name.as_str()).is_some())
                    .count();
                (number(gone as f64), gone > 0)
            }
            HashWrite::IncrBy(field, by) => {
                let old = match fields.get(&field) {
                    None => 0,
                    Some(value) => {
                        redis_integer_value(value).ok_or("ERR hash value is not an integer")?
                    }
                };
                let by = whole(by).ok_or("ERR value is not an integer or out of range")?;
                let new = old.checked_add(by).ok_or(OVERFLOW)?;
                fields.insert(field, integer_value(new));
                (number(new as f64), true)
            }
            HashWrite::IncrByFloat(field, by) => {
                let old = fields.get(&field).map(text_of);
                let new = long_double::add(old.as_deref(), &by, true)?;
                fields.insert(field, redis_string(new.clone()));
                (Value::String(new), true)
            }
        };
        if changed {
            self.store_collection(key, Value::Object(fields), Kind::Hash, now);
        }
        Ok(answer)
    }

    /// A live list's items (empty: no such key), or `WRONGTYPE`.
    pub fn list(&self, key: &str, now: Micros) -> Result<Vec<Value>, String> {
        Ok(match self.collection(key, Kind::List, now)? {
            Some(Value::Array(items)) => items.clone(),
            _ => Vec::new(),
        })
    }

    /// `LPUSH`/`RPUSH` (Redis's answer: the new length) or `LPOP`/`RPOP`
    /// (the items taken, at most `count`), or `WRONGTYPE`. A list left
    /// empty is deleted.
    pub fn list_write(
        &mut self,
        key: &str,
        write: ListWrite,
        now: Micros,
    ) -> Result<Value, String> {
        let mut items = self.list(key, now)?;
        let (answer, changed) = match write {
            ListWrite::Push { left, values } => {
                let changed = !values.is_empty();
                for value in values {
                    match left {
                        true => items.insert(0, value),
                        false => items.push(value),
                    }
                }
                (number(items.len() as f64), changed)
            }
            ListWrite::Pop { left, count } => {
                let count = count.min(items.len());
                let taken: Vec<Value> = match left {
                    true => items.drain(..count).collect(),
                    false => items.drain(items.len() - count..).rev().collect(),
                };
                (Value::Array(taken), count > 0)
            }
            ListWrite::Trim { start, stop } => {
                let kept = redis_range(items.len(), start, stop);
                let changed = kept.len() < items.len();
                items = items[kept].to_vec();
                (Value::from("OK"), changed)
            }
            ListWrite::Remove { count, value } => {
                let limit = match count {
                    0 => usize::MAX,
                    n => n.unsigned_abs() as usize,
                };
                let mut at: Vec<usize> = (0..items.len())
                    .filter(|&i| strict_equal(&items[i], &value))
                    .collect();
                if count < 0 {
                    at.reverse();
                }
                at.truncate(limit);
                at.sort_unstable();
                for &i in at.iter().rev() {
                    items.remove(i);
                }
                (number(at.len() as f64), !at.is_empty())
            }
            ListWrite::Set { index, value } => {
                if items.is_empty() {
                    return Err("ERR no such key".to_string());
                }
                let len = items.len() as i64;
                let at = if index < 0 { len + index } else { index };
                if !(0..len).contains(&at) {
                    return Err("ERR index out of range".to_string());
                }
                items[at as usize] = value;
                (Value::from("OK"), true)
            }
        };
        if changed {
            self.store_collection(key, Value::Array(items), Kind::List, now);
        }
        Ok(answer)
    }

    /// Redis's `LMOVE` (`RPOPLPUSH` is `RIGHT LEFT`): the item popped from
    /// one end of `from` and pushed at one end of `to` (the same list
    /// turns), as `lmoveGenericCommand` runs: no such `from` is `None`
    /// whatever `to` holds; either of another kind is `WRONGTYPE`, and
    /// nothing moves. `to` keeps its expiry; a `from` left empty is
    /// deleted.
    pub fn list_move(
        &mut self,
        from: &str,
        to: &str,
        from_left: bool,
        to_left: bool,
        now: Micros,
    ) -> Result<Option<Value>, String> {
        let mut source = self.list(from, now)?;
        if source.is_empty() {
            return Ok(None);
        }
        let mut target = self.list(to, now)?;
        let item = match from_left {
            true => source.remove(0),
            false => source.pop().unwrap_or(Value::Null),
        };
        if from == to {
            target = source;
        } else {
            self.store_collection(from, Value::Array(source), Kind::List, now);
        }
        match to_left {
            true => target.insert(0, item.clone()),
            false => target.push(item.clone()),
        }
        self.store_collection(to, Value::Array(target), Kind::List, now);
        Ok(Some(item))
    }

    /// A live set's members (empty: no such key), in Redis's order for a
    /// set of integers (ascending), else in byte order (Redis leaves a
    /// set's order to its encoding); or `WRONGTYPE`.
    pub fn members(&self, key: &str, now: Micros) -> Result<Vec<String>, String> {
        Ok(match self.collection(key, Kind::Set, now)? {
            Some(Value::Array(members)) => members
                .iter()
                .filter_map(|member| member.as_str().map(str::to_string))
                .collect(),
            _ => Vec::new(),
        })
    }

    /// `SADD` (`add`) or `SREM` of `members`: how many it added or removed,
    /// or `WRONGTYPE`. A set left empty is deleted.
    pub fn set_write(
        &mut self,
        key: &str,
        add: bool,
        members: &[String],
        now: Micros,
    ) -> Result<f64, String> {
        let mut all = self.members(key, now)?;
        let mut changed = 0;
        for member in members {
            match (all.iter().position(|m| m == member), add) {
                (None, true) => {
                    all.push(member.clone());
                    changed += 1;
                }
                (Some(at), false) => {
                    all.remove(at);
                    changed += 1;
                }
                _ => {}
            }
        }
        if changed > 0 {
            sort_members(&mut all);
            let members = Value::Array(all.into_iter().map(Value::String).collect());
            self.store_collection(key, members, Kind::Set, now);
        }
        Ok(f64::from(changed))
    }

    /// A live sorted set's members and scores, by score then member
    /// (empty: no such key), or `WRONGTYPE`.
    pub fn zset(&self, key: &str, now: Micros) -> Result<Vec<(String, f64)>, String> {
        Ok(match self.collection(key, Kind::Zset, now)? {
            Some(Value::Array(pairs)) => pairs
                .iter()
                .filter_map(|pair| {
                    let member = pair.get(0)?.as_str()?.to_string();
                    let score = parse_score(pair.get(1)?.as_str()?)?;
                    Some((member, score))
                })
                .collect(),
            _ => Vec::new(),
        })
    }

    /// `ZADD`, `ZINCRBY`, `ZREM`, `ZREMRANGEBYSCORE` or `ZREMRANGEBYRANK`
    /// on `key`: Redis's answer (a count; with `INCR` the member's new
    /// score, or null if a condition kept it), or its error. A sorted set
    /// made here never expires; one left empty is deleted.
    pub fn zset_write(
        &mut self,
        key: &str,
        write: ZsetWrite,
        now: Micros,
    ) -> Result<Value, String> {
        let mut pairs = self.zset(key, now)?;
        let before = pairs.clone();
        let answer = match write {
            ZsetWrite::Add { args } => {
                let Zadd {
                    nx,
                    xx,
                    gt,
                    lt,
                    ch,
                    incr,
                    pairs: added,
                } = Zadd::parse(&args)?;
                let mut count = 0.0;
                let mut last = Value::Null;
                for (score, member) in added {
                    match pairs.iter().position(|(m, _)| *m == member) {
                        Some(at) => {
                            let old = pairs[at].1;
                            let new = if incr { old + score } else { score };
                            if new.is_nan() {
                                return Err("ERR resulting score is not a number (NaN)".to_string());
                            }
                            if nx || (gt && new <= old) || (lt && new >= old) {
                                last = Value::Null;
                                continue;
                            }
                            if new != old {
                                pairs[at].1 = new;
                                count += f64::from(u8::from(ch));
                            }
                            last = Value::String(score_text(new));
                        }
                        None if xx => last = Value::Null,
                        None => {
                            pairs.push((member, score));
                            count += 1.0;
                            last = Value::String(score_text(score));
                        }
                    }
                }
                match incr {
                    true => last,
                    false => Value::from(count as i64),
                }
            }
            ZsetWrite::Remove { members } => {
                if members.is_empty() {
                    return Err("ERR wrong number of arguments for 'zrem' command".to_string());
                }
                let size = pairs.len();
                pairs.retain(|(member, _)| !members.contains(member));
                Value::from((size - pairs.len()) as i64)
            }
            ZsetWrite::RemoveByScore { min, max } => {
                let (min, max) = (score_bound(&min)?, score_bound(&max)?);
                let size = pairs.len();
                pairs.retain(|(_, score)| !within(*score, min, max));
                Value::from((size - pairs.len()) as i64)
            }
            ZsetWrite::RemoveByRank { start, stop } => {
                let (start, stop) = (redis_integer(&start)?, redis_integer(&stop)?);
                let range = redis_range(pairs.len(), start, stop);
                let gone = range.len();
                pairs.drain(range);
                Value::from(gone as i64)
            }
            // The lowest scores first (ties by member), or the highest
            // (ties by member, from the last): `[member, score, …]`.
            ZsetWrite::Pop { max, count } => {
                let count = match count {
                    None => 1,
                    Some(count) => count
                        .parse::<usize>()
                        .map_err(|_| "ERR value is out of range, must be positive".to_string())?,
                }
                .min(pairs.len());
                let taken: Vec<(String, f64)> = match max {
                    false => pairs.drain(..count).collect(),
                    true => pairs.drain(pairs.len() - count..).rev().collect(),
                };
                Value::Array(
                    taken
                        .into_iter()
                        .flat_map(|(member, score)| {
                            [Value::String(member), Value::String(score_text(score))]
                        })
                        .collect(),
                )
            }
        };
        if pairs != before {
            pairs.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
            let value = Value::Array(
                pairs
                    .into_iter()
                    .map(|(member, score)| Value::from(vec![member, score_text(score)]))
                    .collect(),
            );
            self.store_collection(key, value, Kind::Zset, now);
        }
        Ok(answer)
    }

    /// A collection's new contents, keeping its expiry (an empty one
    /// deletes the key, as in Redis): a write of `key`.
    fn store_collection(&mut self, key: &str, value: Value, kind: Kind, now: Micros) {
        let expires_at = self.live(key, now).and_then(|entry| entry.expires_at);
        let empty = match &value {
            Value::Object(fields) => fields.is_empty(),
            Value::Array(items) => items.is_empty(),
            _ => false,
        };
        match empty {
            true => {
                self.entries.remove(key);
            }
            false => {
                let entry = Entry {
                    value,
                    expires_at,
                    kind,
                };
                self.entries.insert(key.to_string(), entry);
            }
        }
        self.wrote(key);
    }

    pub fn get(&self, key: &str, now: Micros) -> Found {
        let Some(entry) = self.entries.get(key) else {
            return Found::Miss;
        };
        match entry.expires_at {
            None => Found::Live(self.read(key, &entry.value)),
            Some(at) if now < at => Found::Live(self.read(key, &entry.value)),
            Some(at) if now < at.saturating_add(self.grace) => {
                Found::Stale(self.read(key, &entry.value))
            }
            Some(_) => Found::Miss,
        }
    }

    fn live(&self, key: &str, now: Micros) -> Option<&Entry> {
        self.entries
            .get(key)
            .filter(|entry| entry.expires_at.is_none_or(|at| now < at))
    }

    pub fn set(&mut self, key: &str, value: Value, ttl: Micros, now: Micros) {
        let expires_at = (ttl > 0).then(|| now.saturating_add(ttl));
        self.entries.insert(
            key.to_string(),
            Entry {
                value,
                expires_at,
                kind: Kind::Value,
            },
        );
        self.wrote(key);
        self.stamp(key);
    }

    /// An entry present from time 0, live until `expires_at` (`None`: ever).
    pub fn preset(&mut self, key: &str, value: Value, expires_at: Option<Micros>) {
        self.entries.insert(
            key.to_string(),
            Entry {
                value,
                expires_at,
                kind: Kind::Value,
            },
        );
        self.stamp(key);
    }

    /// Stores only if the key is not live; answers whether it stored.
    pub fn add(&mut self, key: &str, value: Value, ttl: Micros, now: Micros) -> bool {
        if self.live(key, now).is_some() {
            return false;
        }
        self.set(key, value, ttl, now);
        true
    }

    /// Whether a live entry existed (it is gone either way).
    pub fn delete(&mut self, key: &str, now: Micros) -> bool {
        let existed = self.live(key, now).is_some();
        self.entries.remove(key);
        if existed {
            self.wrote(key);
        }
        existed
    }

    /// Deletes only if the live value equals `value` (Redis's
    /// check-and-delete).
    pub fn delete_if(&mut self, key: &str, value: &Value, now: Micros) -> bool {
        let equal = self
            .live(key, now)
            .is_some_and(|entry| strict_equal(&entry.value, value));
        if equal {
            self.entries.remove(key);
            self.wrote(key);
        }
        equal
    }

    /// Adds `by`; a missing (or expired) key counts from 0 and gets no
    /// expiry, a live one keeps its expiry. `Err` if the value is not a
    /// number.
    pub fn incr(&mut self, key: &str, by: f64, now: Micros) -> Result<f64, String> {
        match self.entries.get_mut(key) {
            Some(entry) if entry.expires_at.is_none_or(|at| now < at) => {
                if entry.kind != Kind::Value {
                    return Err(WRONGTYPE.to_string());
                }
                let new = match (redis_integer_value(&entry.value), whole(by)) {
                    (Some(old), Some(by)) => {
                        let new = old.checked_add(by).ok_or(OVERFLOW)?;
                        entry.value = integer_value(new);
                        new as f64
                    }
                    _ => {
                        let Some(old) = entry.value.as_f64() else {
                            return Err(format!(
                                "cache.incr: the value of `{key}` is not a number"
                            ));
                        };
                        entry.value = number(old + by);
                        old + by
                    }
                };
                self.wrote(key);
                Ok(new)
            }
            _ => {
                self.entries.insert(
                    key.to_string(),
                    Entry {
                        value: number(by),
                        expires_at: None,
                        kind: Kind::Value,
                    },
                );
                self.wrote(key);
                Ok(by)
            }
        }
    }

    /// Redis's `INCRBYFLOAT`: the text it stores and answers (see
    /// [`long_double`]), or its error. A missing (or expired) key counts
    /// from 0 and gets no expiry, a live one keeps its expiry.
    pub fn incr_float(&mut self, key: &str, by: &str, now: Micros) -> Result<String, String> {
        let old = match self.live(key, now) {
            Some(entry) if entry.kind != Kind::Value => return Err(WRONGTYPE.to_string()),
            Some(entry) => Some(text_of(&entry.value)),
            None => None,
        };
        let new = long_double::add(old.as_deref(), by, false)?;
        match self.entries.get_mut(key) {
            Some(entry) if old.is_some() => entry.value = redis_string(new.clone()),
            _ => {
                self.entries.insert(
                    key.to_string(),
                    Entry {
                        value: redis_string(new.clone()),
                        expires_at: None,
                        kind: Kind::Value,
                    },
                );
            }
        }
        self.wrote(key);
        Ok(new)
    }

    /// Stores only if the key is live (memcached's `replace`, Redis's
    /// `SET XX`); answers whether it stored.
    pub fn replace(&mut self, key: &str, value: Value, ttl: Micros, now: Micros) -> bool {
        if self.live(key, now).is_none() {
            return false;
        }
        self.set(key, value, ttl, now);
        true
    }

    /// Gives a live key a new expiry, `ttl` from now, if `only` allows it
    /// (Redis's `PEXPIRE`; 0 deletes the key, as a non-positive expiry
    /// does in Redis); answers whether it did. The expiries compare on
    /// Redis's clock of whole milliseconds.
    pub fn expire(&mut self, key: &str, ttl: Micros, only: ExpireIf, now: Micros) -> bool {
        let Some(entry) = self.live(key, now) else {
            return false;
        };
        let ms = |at: Micros| at / 1_000;
        if !only.allows(entry.expires_at.map(ms), ms(now.saturating_add(ttl))) {
            return false;
        }
        if ttl == 0 {
            self.entries.remove(key);
        } else if let Some(entry) = self.entries.get_mut(key) {
            entry.expires_at = Some(now.saturating_add(ttl));
        }
        self.wrote_expiry(key);
        true
    }

    /// memcached's `touch`: a live key's new ttl from `now` (0: none, as
    /// memcached reads an expiry of 0, where Redis's `EXPIRE 0` deletes).
    /// Answers whether the key was live.
    pub fn touch(&mut self, key: &str, ttl: Micros, now: Micros) -> bool {
        if self.live(key, now).is_none() {
            return false;
        }
        if let Some(entry) = self.entries.get_mut(key) {
            entry.expires_at = (ttl > 0).then(|| now.saturating_add(ttl));
        }
        self.wrote_expiry(key);
        true
    }

    /// Whether `key` holds a live value (of any kind).
    pub fn is_live(&self, key: &str, now: Micros) -> bool {
        self.live(key, now).is_some()
    }

    /// Redis's `KEYS pattern`: the live keys that match, in key order.
    pub fn keys(&self, pattern: &str, now: Micros) -> Vec<String> {
        self.live_keys(None, now)
            .filter(|(key, _)| super::glob::matches(pattern, key))
            .map(|(key, _)| key.to_string())
            .collect()
    }

    /// One `SCAN` call from `cursor` (0: the start): it visits the next
    /// `count` live keys in key order and answers those that match
    /// `pattern` and `kind` (a `TYPE` name), and the cursor to go on from
    /// (0 once none is left). A cursor is the number of a key the scan
    /// visited last, so a key live throughout is answered once, whatever
    /// came or went meanwhile; one this run never gave visits nothing.
    pub fn scan(&mut self, scan: &Scan, now: Micros) -> (u64, Vec<String>) {
        let after = match scan.cursor {
            0 => None,
            cursor => match self.scan_cursors.get(cursor as usize - 1) {
                Some(last) => Some(last.clone()),
                None => return (0, Vec::new()),
            },
        };
        let mut found = Vec::new();
        let mut last = None;
        for (key, entry) in self
            .live_keys(after.as_deref(), now)
            .take(scan.count.max(1))
        {
            let kind_matches = scan
                .kind
                .as_deref()
                .is_none_or(|kind| entry.kind.name() == kind);
            if kind_matches && super::glob::matches(&scan.pattern, key) {
                found.push(key.to_string());
            }
            last = Some(key.to_string());
        }
        let more = last
            .as_deref()
            .is_some_and(|last| self.live_keys(Some(last), now).next().is_some());
        match (more, last) {
            (true, Some(last)) => {
                self.scan_cursors.push(last);
                (self.scan_cursors.len() as u64, found)
            }
            _ => (0, found),
        }
    }

    /// The live entries after `after` (all: `None`), in key order.
    fn live_keys<'a>(
        &'a self,
        after: Option<&str>,
        now: Micros,
    ) -> impl Iterator<Item = (&'a str, &'a Entry)> + 'a {
        use std::ops::Bound;
        let from = match after {
            Some(key) => Bound::Excluded(key.to_string()),
            None => Bound::Unbounded,
        };
        self.entries
            .range((from, Bound::Unbounded))
            .filter(move |(_, entry)| entry.expires_at.is_none_or(|at| now < at))
            .map(|(key, entry)| (key.as_str(), entry))
    }

    /// Redis's `PTTL`: a live key's time to live in milliseconds, as
    /// Redis's clock of whole milliseconds reads it; -1 for a key with no
    /// expiry, -2 for no such key.
    pub fn pttl(&self, key: &str, now: Micros) -> i64 {
        match self.live(key, now).map(|entry| entry.expires_at) {
            None => -2,
            Some(None) => -1,
            Some(Some(at)) => (at / 1_000) as i64 - (now / 1_000) as i64,
        }
    }

    /// Redis's `PERSIST`: a live key keeps its value and loses its
    /// expiry; answers whether it had one.
    pub fn persist(&mut self, key: &str, now: Micros) -> bool {
        let had = self
            .live(key, now)
            .is_some_and(|entry| entry.expires_at.is_some());
        if let (true, Some(entry)) = (had, self.entries.get_mut(key)) {
            entry.expires_at = None;
            self.wrote_expiry(key);
        }
        had
    }

    /// Redis's `TYPE`: what the live key holds (`none`: no such key).
    pub fn type_name(&self, key: &str, now: Micros) -> &'static str {
        self.live(key, now)
            .map_or("none", |entry| entry.kind.name())
    }

    /// A live string's text (`None`: no such key), or `WRONGTYPE`.
    fn text(&self, key: &str, now: Micros) -> Result<Option<String>, String> {
        match self.live(key, now) {
            None => Ok(None),
            Some(entry) => match (&entry.kind, &entry.value) {
                (Kind::Value, Value::String(text)) => Ok(Some(text.clone())),
                (Kind::Value, Value::Number(n)) => Ok(Some(n.to_string())),
                _ => Err(WRONGTYPE.to_string()),
            },
        }
    }

    /// Redis's `STRLEN`: the live string's length in bytes (0: none).
    pub fn strlen(&self, key: &str, now: Micros) -> Result<usize, String> {
        Ok(self.text(key, now)?.map_or(0, |text| text.len()))
    }

    /// Redis's `APPEND`: the live string (or an empty one) grows by
    /// `more`, keeping its expiry; answers its new length.
    pub fn append(&mut self, key: &str, more: &str, now: Micros) -> Result<usize, String> {
        let text = self.text(key, now)?.unwrap_or_default() + more;
        let length = text.len();
        let expires_at = self.live(key, now).and_then(|entry| entry.expires_at);
        self.entries.insert(
            key.to_string(),
            Entry {
                value: redis_string(text),
                expires_at,
                kind: Kind::Value,
            },
        );
        self.wrote(key);
        Ok(length)
    }

    /// Redis's `RENAME` (`only_new`: `RENAMENX`): the live key's value and
    /// expiry move to `to`, over whatever it held (with `only_new`, only
    /// if it holds nothing). Answers whether it moved; no such key is
    /// Redis's error. A key renamed to itself stays (and `RENAMENX`
    /// answers false).
    pub fn rename(
        &mut self,
        key: &str,
        to: &str,
        only_new: bool,
        now: Micros,
    ) -> Result<bool, String> {
        if self.live(key, now).is_none() {
            return Err("ERR no such key".to_string());
        }
        if key == to {
            return Ok(!only_new);
        }
        if only_new && self.live(to, now).is_some() {
            return Ok(false);
        }
        let numeric = self.is_numeric_text(key);
        if let Some(entry) = self.entries.remove(key) {
            self.entries.insert(to.to_string(), entry);
        }
        self.wrote(key);
        self.wrote(to);
        if numeric {
            self.numeric_texts.insert(to.to_string());
        }
        Ok(true)
    }

    /// Redis's `GETDEL`: a live value, deleted (`None`: no such key), or
    /// `WRONGTYPE` for a collection (which stays).
    pub fn get_delete(&mut self, key: &str, now: Micros) -> Result<Option<Value>, String> {
        let value = match self.live(key, now) {
            None => return Ok(None),
            Some(entry) if entry.kind != Kind::Value => return Err(WRONGTYPE.to_string()),
            Some(entry) => entry.value.clone(),
        };
        self.entries.remove(key);
        self.wrote(key);
        Ok(Some(value))
    }

    /// Redis's `GETEX`: the live string (`None`: no such key), or
    /// `WRONGTYPE`; then its expiry changes as `change` says (a time
    /// already passed deletes the key, as Redis 7.0's `getexCommand` does).
    pub fn get_ex(
        &mut self,
        key: &str,
        change: ExpiryChange,
        now: Micros,
    ) -> Result<Option<Value>, String> {
        let value = match self.live(key, now) {
            None => return Ok(None),
            Some(entry) if entry.kind != Kind::Value => return Err(WRONGTYPE.to_string()),
            Some(entry) => entry.value.clone(),
        };
        match change {
            ExpiryChange::Refused(message) => return Err(message),
            ExpiryChange::Keep => {}
            ExpiryChange::Persist => {
                self.persist(key, now);
            }
            ExpiryChange::Set(expiry) => {
                let at = expiry.at(now);
                if at <= now {
                    self.entries.remove(key);
                } else if let Some(entry) = self.entries.get_mut(key) {
                    entry.expires_at = Some(at);
                }
                self.wrote_expiry(key);
            }
        }
        Ok(Some(value))
    }

    /// Redis's `SET` with the options the plain writes lack (`KEEPTTL`,
    /// `GET`; `GETSET` is `SET … GET`), as its `setGenericCommand` runs:
    /// `GET` reads the live value first (`WRONGTYPE`, and nothing stored,
    /// for a collection), then `NX` or `XX` may refuse, then it stores.
    /// Answers whether it stored, and with `GET` the value before.
    pub fn set_with(
        &mut self,
        key: &str,
        value: Value,
        options: SetOptions,
        now: Micros,
    ) -> Result<(bool, Option<Value>), String> {
        let live = self.live(key, now);
        let old = match live {
            Some(entry) if options.get && entry.kind != Kind::Value => {
                return Err(WRONGTYPE.to_string())
            }
            Some(entry) if options.get => Some(entry.value.clone()),
            _ => None,
        };
        let refused = match options.only {
            Some(Only::Nx) => live.is_some(),
            Some(Only::Xx) => live.is_none(),
            None => false,
        };
        if refused {
            return Ok((false, old));
        }
        let expires_at = match options.ttl {
            None => live.and_then(|entry| entry.expires_at),
            Some(Expiry::In(0)) => None,
            Some(expiry) => Some(expiry.at(now)),
        };
        let entry = Entry {
            value,
            expires_at,
            kind: Kind::Value,
        };
        self.entries.insert(key.to_string(), entry);
        self.wrote(key);
        Ok((true, old))
    }

    /// memcached's `incr`/`decr` (`do_add_delta`), by `|by|` (`decr` when
    /// `by` is negative, -0 included): the new value. The value is read as
    /// `safe_strtoull` reads it (`" 5"` and `"007"` are numbers, `"-3"`,
    /// `"3.5"` and `""` are not: an `Err`); `incr` wraps at 2^64, `decr`
    /// stops at 0; a result no longer than the old text is written over
    /// it, padded with spaces (`"007"` plus 2 is `"9  "`), as memcached
    /// writes it in place. A missing key is stored as `initial`'s digits
    /// (with its ttl) when one is given (the binary protocol's initial
    /// value), else `Ok(None)` (NOT_FOUND).
    pub fn counter(
        &mut self,
        key: &str,
        by: f64,
        initial: Option<(f64, Micros)>,
        now: Micros,
    ) -> Result<Option<u64>, String> {
        let Some(entry) = self.live(key, now) else {
            return Ok(initial.map(|(value, ttl)| {
                let value = value as u64;
                self.set(key, Value::String(value.to_string()), ttl, now);
                value
            }));
        };
        let old = match &entry.value {
            Value::Number(n) => n.as_u64(),
            Value::String(text) => memcached_u64(text),
            _ => None,
        };
        let Some(old) = old else {
            return Err("cannot increment or decrement non-numeric value".to_string());
        };
        let delta = by.abs() as u64;
        let new = match by.is_sign_negative() {
            true => old.saturating_sub(delta),
            false => old.wrapping_add(delta),
        };
        let text = format!("{new:<width$}", width = text_of(&entry.value).len());
        let numeric = self.numeric(key, &entry.value);
        self.wrote(key);
        self.store_text(key, text, numeric);
        self.stamp(key);
        Ok(Some(new))
    }

    /// One of redlock's Lua scripts (v4 and v5 share them) on `keys`, as
    /// Redis runs it, atomically: the number it returns.
    pub fn lock_script(
        &mut self,
        script: LockScript,
        keys: &[String],
        value: &Value,
        ttl: Micros,
        now: Micros,
    ) -> usize {
        let owned = |cache: &Self, key: &String| {
            cache
                .live(key, now)
                .is_some_and(|entry| strict_equal(&entry.value, value))
        };
        match script {
            LockScript::Acquire | LockScript::Extend => {
                let refused = match script {
                    LockScript::Acquire => keys.iter().any(|key| self.live(key, now).is_some()),
                    _ => keys.iter().any(|key| !owned(self, key)),
                };
                if refused {
                    return 0;
                }
                for key in keys {
                    self.set(key, value.clone(), ttl, now);
                }
                keys.len()
            }
            LockScript::Release => {
                let mine: Vec<String> = keys
                    .iter()
                    .filter(|key| owned(self, key))
                    .cloned()
                    .collect();
                for key in &mine {
                    self.entries.remove(key.as_str());
                    self.wrote(key);
                }
                mine.len()
            }
        }
    }
}

/// Redlock's scripts: `acquire` sets every key (PX) if none exists,
/// `extend` resets them if all hold the value, `release` deletes those
/// that hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockScript {
    Acquire,
    Extend,
    Release,
}

/// A Redis string as the cache keeps it: an integer of up to 15 digits as
/// a number (so `INCR` reads it), any other text as a string; the
/// prelude's `stored` does the same for the values a script sends.
pub fn redis_string(text: String) -> Value {
    let digits = text.strip_prefix('-').unwrap_or(&text);
    let integer = (1..=15).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && text != "-0";
    match text.parse::<i64>() {
        Ok(n) if integer => Value::from(n),
        _ => Value::String(text),
    }
}

/// A cache value as a real server stores it (and `GET` answers it): a
/// string as it is, a number in its shortest form, anything else as JSON.
pub fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// A JSON number, integral when it can be (so `1` prints as `1`).
pub fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() < 9.007_199_254_740_992e15 {
        Value::from(value as i64)
    } else {
        serde_json::Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

/// JavaScript's `===` on JSON values: numbers by value, objects and arrays
/// never (they would be different objects). The lookups' keys say it.
pub fn strict_equal(a: &Value, b: &Value) -> bool {
    matches!((Key::of(a), Key::of(b)), (Some(a), Some(b)) if a == b)
}

/// A table's definition, as `db.table(name, { unique, expectUnique })` gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct TableDef {
    pub unique: Vec<String>,
    pub expect_unique: Vec<String>,
    pub rows: Vec<Row>,
}

#[derive(Clone)]
struct Table {
    def: TableDef,
    rows: Vec<Row>,
    /// Each row's id, beside it: its place among the rows the table ever
    /// held, kept as rows before it are removed (what lost updates follow).
    /// Ascending.
    ids: Vec<u64>,
    next_id: u64,
    /// Rows per `expectUnique` group, and the rows beyond the first of
    /// each, kept as rows change (so a run can tell which write made a
    /// duplicate).
    groups: HashMap<String, u64>,
    duplicates: u64,
    /// The rows by the values of the fields filters ask for (`lookup.rs`).
    lookup: Lookup,
    /// No two rows clash on the unique key: true unless the rows the table
    /// was defined with did (every write since was refused a clash), so a
    /// clash an update makes involves a row it changed.
    clash_free: bool,
}

impl Table {
    fn new(def: TableDef) -> Table {
        let rows = def.rows.clone();
        let clash_free = !has_clash(&def.unique, &rows);
        let mut table = Table {
            def,
            ids: (0..rows.len() as u64).collect(),
            next_id: rows.len() as u64,
            rows,
            groups: HashMap::new(),
            duplicates: 0,
            lookup: Lookup::default(),
            clash_free,
        };
        for row in table.rows.clone() {
            table.count(&row);
        }
        table
    }

    /// The `expectUnique` group of a row, if the table has one.
    fn group(&self, row: &Row) -> Option<String> {
        let fields = &self.def.expect_unique;
        if fields.is_empty() {
            return None;
        }
        let key: Vec<&Value> = fields
            .iter()
            .map(|field| row.get(field).unwrap_or(&Value::Null))
            .collect();
        Some(serde_json::to_string(&key).unwrap_or_default())
    }

    /// Counts a row in its group.
    fn count(&mut self, row: &Row) {
        if let Some(group) = self.group(row) {
            let n = self.groups.entry(group).or_insert(0);
            *n += 1;
            if *n > 1 {
                self.duplicates += 1;
            }
        }
    }

    /// Counts a row out of its group (it was removed, or changed).
    fn uncount(&mut self, row: &Row) {
        if let Some(group) = self.group(row) {
            let n = self.groups.entry(group).or_insert(1);
            if *n > 1 {
                self.duplicates -= 1;
            }
            *n -= 1;
        }
    }

    /// The positions of the rows `filter` matches, in table order: those
    /// that may hold the value of the field it asks for by value that the
    /// fewest rows may hold, through the lookup, each checked against the
    /// whole filter; else every row.
    /// A debug build checks the lookup against the scan.
    fn matched(&mut self, filter: &Row) -> Result<Vec<usize>, DbError> {
        let scan = |rows: &[Row]| -> Result<Vec<usize>, DbError> {
            let mut matched = Vec::new();
            for (at, row) in rows.iter().enumerate() {
                if matches(row, filter)? {
                    matched.push(at);
                }
            }
            Ok(matched)
        };
        let Some(asked) = looked_up(filter) else {
            return scan(&self.rows);
        };
        // The field asked for by value the fewest rows may hold.
        let (field, key) = asked
            .into_iter()
            .min_by_key(|(field, key)| self.lookup.count(field, key, &self.rows, &self.ids))
            .expect("a field asked for by value");
        let mut matched = Vec::new();
        for at in self.positions(field, &key) {
            if matches(&self.rows[at], filter)? {
                matched.push(at);
            }
        }
        debug_assert_eq!(
            Ok(&matched),
            scan(&self.rows).as_ref(),
            "the lookup of `{field}` finds the rows a scan finds"
        );
        Ok(matched)
    }

    /// The positions of the rows that may hold `key` in `field`.
    fn positions(&mut self, field: &str, key: &Key) -> Vec<usize> {
        let ids = self.lookup.ids(field, key, &self.rows, &self.ids);
        ids.iter()
            .filter_map(|id| self.ids.binary_search(id).ok())
            .collect()
    }

    /// The positions of the rows `row` may clash with on the unique key,
    /// through the lookup of the key's first field (none for a row
    /// without that field, or with a value `===` finds nothing equal to).
    fn clash_candidates(&mut self, row: &Row) -> Vec<usize> {
        let first = self.def.unique.first().cloned();
        match first.and_then(|first| Some((row.get(&first).and_then(lookup::key_of)?, first))) {
            Some((key, first)) => self.positions(&first, &key),
            None => Vec::new(),
        }
    }
}

/// Whether `row` clashes on the unique key with a row of `rows` among
/// `candidates` (but the one at `except`); a debug build checks every row.
fn clash_among<'a>(
    def: &TableDef,
    row: &Row,
    candidates: &[usize],
    except: Option<usize>,
    rows: impl Fn(usize) -> Option<&'a Row>,
) -> bool {
    let clash =
        |at: &usize| Some(*at) != except && rows(*at).is_some_and(|other| clashes(def, row, other));
    let found = candidates.iter().any(clash);
    debug_assert_eq!(
        found,
        (0..)
            .map_while(|at| rows(at).map(|_| at))
            .any(|at| clash(&at)),
        "the lookup finds the clashes a scan finds"
    );
    found
}

/// The fields `filter` asks for by a value `===` can find, with that
/// value's key, if every operator it uses is one `matches` knows (an
/// unknown one fails on any row a scan reaches, which a lookup might not).
fn looked_up(filter: &Row) -> Option<Vec<(&str, Key)>> {
    let mut asked = Vec::new();
    for (field, condition) in filter {
        match condition {
            Value::Object(ops) if ops.keys().any(|op| op.starts_with('$')) => {
                // `compare` knows the operators (an unknown one is its error).
                let known = |op: &String| compare(op, None, &Value::Null).is_ok();
                if !ops.keys().all(known) {
                    return None;
                }
            }
            value => asked.extend(lookup::key_of(value).map(|key| (field.as_str(), key))),
        }
    }
    (!asked.is_empty()).then_some(asked)
}

/// Removes the items at `positions` (ascending), in one pass.
fn remove_at<T>(items: &mut Vec<T>, positions: &[usize]) {
    let (mut at, mut next) = (0, 0);
    items.retain(|_| {
        let gone = positions.get(next) == Some(&at);
        next += usize::from(gone);
        at += 1;
        !gone
    });
}

/// Whether two of `rows` clash on the key `unique`.
fn has_clash(unique: &[String], rows: &[Row]) -> bool {
    if unique.is_empty() {
        return false;
    }
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        let key: Option<Vec<Key<&str>>> = unique
            .iter()
            .map(|field| row.get(field).and_then(Key::of))
            .collect();
        if let Some(key) = key {
            if !seen.insert(key) {
                return true;
            }
        }
    }
    false
}

/// Why a write was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum DbError {
    /// The error's `name` is `UniqueViolation`.
    Unique(String),
    /// Anything else: a missing table, a bad operator.
    Bad(String),
}

/// The script's database: named tables of rows.
#[derive(Clone, Default)]
pub struct Tables {
    tables: BTreeMap<String, Table>,
}

impl Tables {
    /// Defines a table once; the same definition again is a no-op, a
    /// different one an error.
    pub fn define(&mut self, name: &str, def: TableDef) -> Result<(), String> {
        if let Some(table) = self.tables.get(name) {
            if table.def == def {
                return Ok(());
            }
            return Err(format!(
                "db.table(\"{name}\") is defined twice, differently"
            ));
        }
        self.tables.insert(name.to_string(), Table::new(def));
        Ok(())
    }

    fn table(&mut self, name: &str) -> Result<&mut Table, DbError> {
        self.tables
            .get_mut(name)
            .ok_or_else(|| DbError::Bad(format!("no table `{name}`: define it with db.table")))
    }

    /// The ids of the rows `filter` matches, in table order.
    pub fn matching(&mut self, name: &str, filter: &Row) -> Result<Vec<u64>, DbError> {
        let table = self.table(name)?;
        let matched = table.matched(filter)?;
        Ok(matched.into_iter().map(|at| table.ids[at]).collect())
    }

    pub fn find(&mut self, name: &str, filter: &Row) -> Result<Vec<Row>, DbError> {
        let table = self.table(name)?;
        let matched = table.matched(filter)?;
        Ok(matched
            .into_iter()
            .map(|at| table.rows[at].clone())
            .collect())
    }

    pub fn insert(&mut self, name: &str, row: Row) -> Result<Row, DbError> {
        let table = self.table(name)?;
        let clash = match table.clash_free {
            true => {
                let candidates = table.clash_candidates(&row);
                clash_among(&table.def, &row, &candidates, None, |at| table.rows.get(at))
            }
            false => table
                .rows
                .iter()
                .any(|other| clashes(&table.def, &row, other)),
        };
        if clash {
            return Err(unique_violation(name, &table.def));
        }
        table.count(&row);
        table.lookup.note(table.next_id, &row);
        table.ids.push(table.next_id);
        table.next_id += 1;
        table.rows.push(row.clone());
        Ok(row)
    }

    /// Applies `set` to every row `filter` matches, atomically: a unique
    /// clash refuses the whole call. Answers the number matched.
    pub fn update(&mut self, name: &str, filter: &Row, set: &Row) -> Result<u64, DbError> {
        let table = self.table(name)?;
        let matched = match table.matched(filter) {
            Ok(matched) => matched,
            Err(error) => {
                // The error a walk of every row meets first: a matched
                // row's `$inc` of a non-number may come before it.
                for row in &table.rows {
                    if matches(row, filter)? {
                        apply_set(&mut row.clone(), set)?;
                    }
                }
                return Err(error);
            }
        };
        let mut updated = Vec::with_capacity(matched.len());
        for &at in &matched {
            let mut row = table.rows[at].clone();
            apply_set(&mut row, set)?;
            updated.push(row);
        }
        if !table.def.unique.is_empty() {
            if table.clash_free {
                // A clash involves a row the update changed: the lookup
                // of the key's first field, made from the rows before it,
                // notes their new values.
                let first = &table.def.unique[0];
                table.lookup.make(first, &table.rows, &table.ids);
                for (&at, row) in matched.iter().zip(&updated) {
                    table.lookup.note(table.ids[at], row);
                }
                let candidates: Vec<Vec<usize>> = updated
                    .iter()
                    .map(|row| table.clash_candidates(row))
                    .collect();
                let table = &*table;
                // The table as the update leaves it.
                let now = |at: usize| match matched.binary_search(&at) {
                    Ok(k) => updated.get(k),
                    Err(_) => table.rows.get(at),
                };
                let clash = (0..matched.len()).any(|k| {
                    clash_among(
                        &table.def,
                        &updated[k],
                        &candidates[k],
                        Some(matched[k]),
                        now,
                    )
                });
                if clash {
                    return Err(unique_violation(name, &table.def));
                }
            } else {
                let all: Vec<&Row> = (0..table.rows.len())
                    .map(|at| match matched.binary_search(&at) {
                        Ok(k) => &updated[k],
                        Err(_) => &table.rows[at],
                    })
                    .collect();
                let clash = (0..all.len())
                    .any(|i| all[i + 1..].iter().any(|b| clashes(&table.def, all[i], b)));
                if clash {
                    return Err(unique_violation(name, &table.def));
                }
            }
        }
        for (&at, row) in matched.iter().zip(updated) {
            let old = std::mem::replace(&mut table.rows[at], row);
            table.uncount(&old);
            let new = table.rows[at].clone();
            table.count(&new);
            table.lookup.note(table.ids[at], &new);
        }
        Ok(matched.len() as u64)
    }

    pub fn delete(&mut self, name: &str, filter: &Row) -> Result<u64, DbError> {
        let table = self.table(name)?;
        // Matched first, so a filter that fails leaves every row in place.
        let matched = table.matched(filter)?;
        for &at in &matched {
            let row = table.rows[at].clone();
            table.uncount(&row);
        }
        remove_at(&mut table.rows, &matched);
        remove_at(&mut table.ids, &matched);
        Ok(matched.len() as u64)
    }

    /// The field that partitions table `name` for explore's footprints:
    /// the first `unique` field, else the first `expectUnique` one; and
    /// whether the table has a `unique` key.
    pub fn partition_field(&self, name: &str) -> Option<(&str, bool)> {
        let def = &self.tables.get(name)?.def;
        let unique = !def.unique.is_empty();
        def.unique
            .first()
            .or(def.expect_unique.first())
            .map(|field| (field.as_str(), unique))
    }

    /// Whether table `name` is defined.
    pub fn has(&self, name: &str) -> bool {
        self.tables.contains_key(name)
    }

    /// Whether some table declares an `expectUnique` group.
    pub fn expects_unique(&self) -> bool {
        self.tables
            .values()
            .any(|table| !table.def.expect_unique.is_empty())
    }

    /// The rows of table `name` (0 if it does not exist).
    pub fn rows(&self, name: &str) -> u64 {
        self.tables.get(name).map_or(0, |t| t.rows.len() as u64)
    }

    /// Over every table's `expectUnique` group, the rows beyond the first.
    pub fn duplicates(&self) -> u64 {
        self.tables.values().map(|table| table.duplicates).sum()
    }
}

fn unique_violation(name: &str, def: &TableDef) -> DbError {
    DbError::Unique(format!(
        "unique constraint ({}) of table `{name}` violated",
        def.unique.join(", ")
    ))
}

/// Two rows that agree on every field of the unique key (all present).
fn clashes(def: &TableDef, a: &Row, b: &Row) -> bool {
    !def.unique.is_empty()
        && def
            .unique
            .iter()
            .all(|field| match (a.get(field), b.get(field)) {
                (Some(x), Some(y)) => strict_equal(x, y),
                _ => false,
            })
}

/// Whether `row` passes `filter`: `===` per field, or the operators
/// `$gt $gte $lt $lte $ne`.
pub fn matches(row: &Row, filter: &Row) -> Result<bool, DbError> {
    for (field, condition) in filter {
        let value = row.get(field);
        let ok = match condition {
            Value::Object(ops) if ops.keys().any(|k| k.starts_with('$')) => {
                let mut all = true;
                for (op, operand) in ops {
                    all &= compare(op, value, operand)?;
                }
                all
            }
            _ => value.is_some_and(|value| strict_equal(value, condition)),
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

fn compare(op: &str, value: Option<&Value>, operand: &Value) -> Result<bool, DbError> {
    use std::cmp::Ordering;
    if op == "$ne" {
        return Ok(!value.is_some_and(|value| strict_equal(value, operand)));
    }
    let order = match (value, operand) {
        (Some(Value::Number(a)), Value::Number(b)) => a.as_f64().partial_cmp(&b.as_f64()),
        (Some(Value::String(a)), Value::String(b)) => Some(a.cmp(b)),
        _ => None,
    };
    let test = |want: fn(Ordering) -> bool| order.is_some_and(want);
    match op {
        "$gt" => Ok(test(|o| o == Ordering::Greater)),
        "$gte" => Ok(test(|o| o != Ordering::Less)),
        "$lt" => Ok(test(|o| o == Ordering::Less)),
        "$lte" => Ok(test(|o| o != Ordering::Greater)),
        _ => Err(DbError::Bad(format!(
            "unknown operator `{op}`: use $gt, $gte, $lt, $lte or $ne"
        ))),
    }
}

/// `set` values replace fields; `{ $inc: n }` adds to a number (a missing
/// field counts from 0).
fn apply_set(row: &mut Row, set: &Row) -> Result<(), DbError> {
    for (field, value) in set {
        match value {
            Value::Object(ops) if ops.contains_key("$inc") => {
                let by = ops["$inc"]
                    .as_f64()
                    .ok_or_else(|| DbError::Bad("$inc takes a number".to_string()))?;
                let old = match row.get(field) {
                    None | Some(Value::Null) => 0.0,
                    Some(value) => value.as_f64().ok_or_else(|| {
                        DbError::Bad(format!("$inc on `{field}`, which is not a number"))
                    })?,
                };
                row.insert(field.clone(), number(old + by));
            }
            _ => {
                row.insert(field.clone(), value.clone());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(value: Value) -> Row {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn incr_counts_a_missing_key_from_zero_and_keeps_an_expiry() {
        let mut cache = ScriptCache::new(0);
        assert_eq!(cache.incr("n", 1.0, 0), Ok(1.0));
        cache.set("t", json!(5), 100, 0);
        assert_eq!(cache.incr("t", 2.0, 10), Ok(7.0));
        assert_eq!(cache.get("t", 99), Found::Live(json!(7)));
        assert_eq!(cache.get("t", 100), Found::Miss);
        cache.set("s", json!("x"), 0, 0);
        assert!(cache.incr("s", 1.0, 0).is_err());
    }

    /// Redis 7.0: `SET n 9223372036854775807`, `DECRBY n 0` answers it,
    /// `INCR n` is refused; `SET m 1000000000000000` (16 digits, past the
    /// numbers the clients store), `INCR m` is exact.
    #[test]
    fn incr_adds_64_bit_integers_and_refuses_overflow_as_redis() {
        let mut cache = ScriptCache::new(0);
        cache.set("n", json!("9223372036854775807"), 0, 0);
        // The reply is the nearest double, as node-redis 5 reads it
        // (ioredis reads it digit by digit: 9223372036854777856).
        assert_eq!(cache.incr("n", 0.0, 0), Ok(9_223_372_036_854_775_807.0));
        assert_eq!(cache.incr("n", 1.0, 0), Err(OVERFLOW.to_string()));
        assert_eq!(cache.get("n", 0), Found::Live(json!("9223372036854775807")));
        cache.set("m", json!("1000000000000000"), 0, 0);
        cache.incr("m", 1.0, 0).unwrap();
        assert_eq!(cache.get("m", 0), Found::Live(json!("1000000000000001")));
        cache.incr("m", -2.0, 0).unwrap();
        assert_eq!(
            cache.get("m", 0),
            Found::Live(json!(999_999_999_999_999i64))
        );
        for text in ["007", "1e3", "3.5", "-0", " 1", "+1", ""] {
            cache.set("t", json!(text), 0, 0);
            assert!(cache.incr("t", 1.0, 0).is_err(), "{text}");
        }
    }

    #[test]
    fn grace_keeps_a_stale_value_then_drops_it() {
        let mut cache = ScriptCache::new(50);
        cache.set("k", json!(1), 100, 0);
        assert_eq!(cache.get("k", 120), Found::Stale(json!(1)));
        assert_eq!(cache.get("k", 150), Found::Miss);
        // add treats a stale entry as absent
        assert!(cache.add("k", json!(2), 0, 120));
    }

    #[test]
    fn delete_if_needs_the_live_value() {
        let mut cache = ScriptCache::new(0);
        cache.set("lock", json!("a"), 0, 0);
        assert!(!cache.delete_if("lock", &json!("b"), 0));
        assert!(cache.delete_if("lock", &json!("a"), 0));
        assert!(!cache.delete_if("lock", &json!("a"), 0));
    }

    #[test]
    fn replace_and_expire_need_a_live_key() {
        let mut cache = ScriptCache::new(0);
        assert!(!cache.replace("k", json!(1), 0, 0));
        assert_eq!(cache.get("k", 0), Found::Miss);
        cache.set("k", json!(1), 0, 0);
        assert!(cache.replace("k", json!(2), 100, 0));
        assert_eq!(cache.get("k", 99), Found::Live(json!(2)));
        assert!(cache.expire("k", 200, ExpireIf::ALWAYS, 50));
        assert_eq!(cache.get("k", 249), Found::Live(json!(2)));
        assert_eq!(cache.get("k", 250), Found::Miss);
        assert!(!cache.expire("k", 10, ExpireIf::ALWAYS, 250));
        cache.set("d", json!(1), 0, 0);
        assert!(cache.expire("d", 0, ExpireIf::ALWAYS, 0));
        assert_eq!(cache.get("d", 0), Found::Miss);
    }

    /// EXPIRE's options against a key with no expiry and one with an
    /// expiry 10 s away, on Redis's whole-millisecond clock; PTTL and
    /// PERSIST read and clear it.
    /// A SCAN's pages, two keys each: a key live from the first call to
    /// the last is answered exactly once, whatever is added or deleted
    /// between the calls; expired keys are not visited; MATCH and TYPE
    /// filter a page after it is visited (a page may then be empty).
    #[test]
    fn scan_pages_answer_every_key_live_throughout_once() {
        let mut cache = ScriptCache::new(0);
        for key in ["a", "b", "c", "d", "e"] {
            cache.set(key, json!(1), 0, 0);
        }
        cache.set("bb", json!(1), 5, 0);
        let page = |cache: &mut ScriptCache, cursor, pattern: &str, kind: Option<&str>| {
            let scan = Scan {
                cursor,
                pattern: pattern.to_string(),
                count: 2,
                kind: kind.map(str::to_string),
            };
            cache.scan(&scan, 10)
        };
        let (cursor, first) = page(&mut cache, 0, "*", None);
        assert_eq!((cursor, first), (1, vec!["a".to_string(), "b".to_string()]));
        // "a" goes and "ab" comes, before the cursor; "c" goes after it.
        cache.delete("a", 10);
        cache.set("ab", json!(1), 0, 10);
        cache.delete("c", 10);
        let (cursor, second) = page(&mut cache, cursor, "*", None);
        assert_eq!(
            (cursor, second),
            (0, vec!["d".to_string(), "e".to_string()])
        );
        // A pattern or a type filters what a page visited.
        assert_eq!(page(&mut cache, 0, "d*", None), (2, vec![]));
        assert_eq!(page(&mut cache, 2, "d*", None), (0, vec!["d".to_string()]));
        cache
            .hash_write("h", HashWrite::IncrBy("f".to_string(), 1.0), 10)
            .unwrap();
        assert_eq!(cache.keys("*", 10), ["ab", "b", "d", "e", "h"]);
        assert_eq!(cache.keys("?", 10), ["b", "d", "e", "h"]);
        assert_eq!(page(&mut cache, 0, "*", Some("hash")), (3, vec![]));
        assert_eq!(page(&mut cache, 3, "*", Some("hash")), (4, vec![]));
        assert_eq!(
            page(&mut cache, 4, "*", Some("hash")),
            (0, vec!["h".to_string()])
        );
        // A cursor this run never gave visits nothing.
        assert_eq!(page(&mut cache, 99, "*", None), (0, vec![]));
    }

    #[test]
    fn expire_options_compare_expiries_as_redis_does() {
        let s = 1_000_000;
        let only = |word: &str| ExpireIf::parse([word]).unwrap();
        let mut cache = ScriptCache::new(0);
        cache.set("forever", json!(1), 0, 0);
        cache.set("ten", json!(1), 10 * s, 0);
        assert_eq!(
            (cache.pttl("forever", 0), cache.pttl("ten", 400)),
            (-1, 10_000)
        );
        assert_eq!(cache.pttl("none", 0), -2);
        // NX: only a key with no expiry; XX: only one with an expiry.
        assert!(!cache.expire("ten", 20 * s, only("NX"), 0));
        assert!(!cache.expire("forever", 20 * s, only("XX"), 0));
        // GT: later only (no expiry is forever, so never); within the
        // same millisecond is not later.
        assert!(!cache.expire("forever", 20 * s, only("GT"), 0));
        assert!(!cache.expire("ten", 10 * s, only("GT"), 900));
        assert!(cache.expire("ten", 10 * s, only("GT"), 1_000));
        assert_eq!(cache.pttl("ten", 1_000), 10_000);
        // LT: earlier only, and a key with no expiry always.
        assert!(!cache.expire("ten", 20 * s, only("LT"), 1_000));
        assert!(cache.expire("ten", 5 * s, only("LT"), 1_000));
        assert!(cache.expire("forever", 20 * s, only("LT"), 0));
        assert_eq!(cache.pttl("forever", 0), 20_000);
        // A non-positive time an option allows deletes the key.
        assert!(cache.expire("ten", 0, only("XX"), 2_000));
        assert_eq!(cache.pttl("ten", 2_000), -2);
        assert!(cache.persist("forever", 0));
        assert!(!cache.persist("forever", 0));
        assert_eq!(cache.pttl("forever", 0), -1);
        assert!(!cache.expire("none", s, only("LT"), 0));
        // XX goes with LT: an earlier expiry, and only over one.
        let xx_lt = ExpireIf::parse(["xx", "lt"]).unwrap();
        assert!(!cache.expire("forever", s, xx_lt, 0));
        assert_eq!(ExpireIf::parse(["Gt", "XX"]).unwrap().words(), ["XX", "GT"]);
        assert_eq!(
            ExpireIf::parse(["NX", "GT"]),
            Err("ERR NX and XX, GT or LT options at the same time are not compatible".into())
        );
        assert_eq!(
            ExpireIf::parse(["GT", "LT"]),
            Err("ERR GT and LT options at the same time are not compatible".into())
        );
        assert_eq!(
            ExpireIf::parse(["soon"]),
            Err("ERR Unsupported option soon".into())
        );
    }

    #[test]
    fn memcached_counters_start_at_initial_and_stop_at_zero() {
        let mut cache = ScriptCache::new(0);
        assert_eq!(cache.counter("n", 5.0, None, 0), Ok(None));
        assert_eq!(cache.counter("n", 5.0, Some((10.0, 100)), 0), Ok(Some(10)));
        assert_eq!(cache.get("n", 0), Found::Live(json!("10")));
        assert_eq!(cache.counter("n", 5.0, None, 0), Ok(Some(15)));
        assert_eq!(cache.counter("n", -100.0, None, 0), Ok(Some(0)));
        assert_eq!(cache.get("n", 0), Found::Live(json!("0 ")));
        assert_eq!(cache.get("n", 100), Found::Miss);
        cache.set("s", json!("42"), 0, 0);
        assert_eq!(cache.counter("s", 1.0, None, 0), Ok(Some(43)));
        cache.set("x", json!("abc"), 0, 0);
        assert!(cache.counter("x", 1.0, None, 0).is_err());
        cache.set("f", json!(1.5), 0, 0);
        assert!(cache.counter("f", 1.0, None, 0).is_err());
    }

    #[test]
    fn memcached_counters_read_as_strtoull_pad_and_wrap() {
        for (text, read) in [
            ("007", Some(7)),
            (" 5", Some(5)),
            ("\t5 ", Some(5)),
            ("+5", Some(5)),
            ("-0", Some(0)),
            ("18446744073709551615", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("-3", None),
            ("3.5", None),
            ("5x", None),
            ("5 x", Some(5)),
            ("", None),
            (" ", None),
            ("-", None),
        ] {
            assert_eq!(memcached_u64(text), read, "{text:?}");
        }
        let mut cache = ScriptCache::new(0);
        cache.set("c", json!("007"), 0, 0);
        assert_eq!(cache.counter("c", 2.0, None, 0), Ok(Some(9)));
        assert_eq!(cache.get("c", 0), Found::Live(json!("9  ")));
        assert_eq!(cache.counter("c", 991.0, None, 0), Ok(Some(1000)));
        assert_eq!(cache.get("c", 0), Found::Live(json!("1000")));
        cache.set("c", json!(u64::MAX.to_string()), 0, 0);
        assert_eq!(cache.counter("c", 2.0, None, 0), Ok(Some(1)));
        assert_eq!(cache.counter("c", -5.0, None, 0), Ok(Some(0)));
        assert_eq!(cache.get("c", 0), Found::Live(json!(format!("{:<20}", 0))));
        cache.set("c", json!("9"), 0, 0);
        assert_eq!(cache.counter("c", -0.0, None, 0), Ok(Some(9)));
    }

    #[test]
    fn numeric_texts_read_as_javascripts_number() {
        for (text, read) in [
            ("05", Some(5.0)),
            (" 9 ", Some(9.0)),
            ("", Some(0.0)),
            ("1.5e3", Some(1500.0)),
            ("0x1A", Some(26.0)),
            ("0b101", Some(5.0)),
            ("-Infinity", Some(f64::NEG_INFINITY)),
            ("0x", None),
            ("5x", None),
            ("5-3", None),
            ("-0x10", None),
            ("inf", None),
            ("NaN", None),
        ] {
            assert_eq!(js_number(text), read, "{text:?}");
        }
        let mut cache = ScriptCache::new(0);
        cache.set("n", json!(0), 0, 0);
        assert!(cache.attach("n", "5", false, 0));
        assert_eq!(cache.get("n", 0), Found::Live(json!(5)));
        assert!(cache.attach("n", "5", true, 0));
        assert_eq!(cache.get("n", 0), Found::Live(json!(505)));
        assert!(cache.touch("n", 100, 0));
        assert!(cache.attach("n", "x", false, 0));
        assert_eq!(cache.get("n", 0), Found::Live(Value::Null));
        cache.set("m", json!(10), 0, 0);
        assert_eq!(cache.counter("m", -1.0, None, 0), Ok(Some(9)));
        assert_eq!(cache.get("m", 0), Found::Live(json!(9)));
        assert_eq!(cache.counter("m", 1.0, None, 0), Ok(Some(10)));
        assert_eq!(cache.get("m", 0), Found::Live(json!(10)));
        cache.set("m", json!("05"), 0, 0);
        assert_eq!(cache.get("m", 0), Found::Live(json!("05")));
    }

    #[test]
    fn memcached_touch_sets_a_live_keys_ttl_and_zero_keeps_it() {
        let mut cache = ScriptCache::new(0);
        cache.set("k", json!("v"), 10, 0);
        assert!(cache.touch("k", 0, 5));
        assert_eq!(cache.get("k", 1_000_000), Found::Live(json!("v")));
        assert!(cache.touch("k", 20, 100));
        assert_eq!(cache.get("k", 119), Found::Live(json!("v")));
        assert_eq!(cache.get("k", 120), Found::Miss);
        assert!(!cache.touch("k", 0, 120));
        assert!(!cache.touch("none", 10, 0));
    }

    #[test]
    fn redlock_scripts_act_on_every_key_or_none() {
        let mut cache = ScriptCache::new(0);
        let keys = ["a".to_string(), "b".to_string()];
        let me = json!("me");
        cache.set("b", json!("you"), 50, 0);
        assert_eq!(
            cache.lock_script(LockScript::Acquire, &keys, &me, 100, 0),
            0
        );
        assert_eq!(cache.get("a", 0), Found::Miss);
        assert_eq!(
            cache.lock_script(LockScript::Acquire, &keys, &me, 100, 50),
            2
        );
        assert_eq!(
            cache.lock_script(LockScript::Extend, &keys, &me, 100, 100),
            2
        );
        assert_eq!(cache.get("a", 199), Found::Live(me.clone()));
        cache.set("b", json!("you"), 0, 150);
        assert_eq!(
            cache.lock_script(LockScript::Extend, &keys, &me, 100, 150),
            0
        );
        assert_eq!(
            cache.lock_script(LockScript::Release, &keys, &me, 0, 150),
            1
        );
        assert_eq!(cache.get("b", 150), Found::Live(json!("you")));
    }

    #[test]
    fn hashes_keep_fields_and_refuse_the_other_kind() {
        let mut cache = ScriptCache::new(0);
        let pairs = |p: &[(&str, Value)]| {
            p.iter()
                .map(|(f, v)| (f.to_string(), v.clone()))
                .collect::<Vec<_>>()
        };
        let set = |p| HashWrite::Set(p, false);
        assert_eq!(
            cache.hash_write("h", set(pairs(&[("a", json!(1))])), 0),
            Ok(json!(1))
        );
        let two = pairs(&[("a", json!(2)), ("b", json!("x"))]);
        assert_eq!(cache.hash_write("h", set(two), 0), Ok(json!(1)));
        let only_new = HashWrite::Set(pairs(&[("a", json!(9)), ("c", json!(3))]), true);
        assert_eq!(cache.hash_write("h", only_new, 0), Ok(json!(1)));
        let all = cache.hash("h", 0).unwrap();
        assert_eq!(Value::Object(all), json!({ "a": 2, "b": "x", "c": 3 }));
        let incr = |field: &str, by| HashWrite::IncrBy(field.to_string(), by);
        assert_eq!(cache.hash_write("h", incr("a", 5.0), 0), Ok(json!(7)));
        assert_eq!(cache.hash_write("h", incr("new", 2.0), 0), Ok(json!(2)));
        let refused = cache.hash_write("h", incr("b", 1.0), 0);
        assert_eq!(refused, Err("ERR hash value is not an integer".to_string()));
        // A string command on a hash, a hash command on a string.
        assert!(cache
            .incr("h", 1.0, 0)
            .unwrap_err()
            .starts_with("WRONGTYPE"));
        cache.set("s", json!("v"), 0, 0);
        assert_eq!(cache.hash("s", 0), Err(WRONGTYPE.to_string()));
        // A deleted field leaves the others in the order they were set
        // (Redis's listpack; seen on Redis 7.0: HSET f3, f1, f2, HDEL f3,
        // HGETALL is f1, f2).
        let gone = HashWrite::Delete(vec!["a".to_string()]);
        assert_eq!(cache.hash_write("h", gone, 0), Ok(json!(1)));
        let order: Vec<String> = cache.hash("h", 0).unwrap().keys().cloned().collect();
        assert_eq!(order, ["b", "c", "new"]);
        // Deleting every field deletes the key; a missing key reads empty.
        let fields = ["a", "b", "c", "new", "zz"].map(String::from).to_vec();
        assert_eq!(
            cache.hash_write("h", HashWrite::Delete(fields), 0),
            Ok(json!(3))
        );
        assert_eq!(cache.get("h", 0), Found::Miss);
        assert_eq!(cache.hash("h", 0), Ok(Map::new()));
        // An expiry set on a hash ends it.
        cache
            .hash_write("e", set(pairs(&[("f", json!(1))])), 0)
            .unwrap();
        assert!(cache.expire("e", 10, ExpireIf::ALWAYS, 0));
        assert_eq!(cache.hash("e", 10), Ok(Map::new()));
    }

    #[test]
    fn sets_count_changes_list_integers_in_order_and_go_when_empty() {
        let mut cache = ScriptCache::new(0);
        let members = |m: &[&str]| m.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        assert_eq!(
            cache.set_write("n", true, &members(&["10", "9", "2"]), 0),
            Ok(3.0)
        );
        assert_eq!(
            cache.set_write("n", true, &members(&["9", "1"]), 0),
            Ok(1.0)
        );
        assert_eq!(cache.members("n", 0), Ok(members(&["1", "2", "9", "10"])));
        assert_eq!(
            cache.set_write("w", true, &members(&["b", "a", "10"]), 0),
            Ok(3.0)
        );
        assert_eq!(cache.members("w", 0), Ok(members(&["10", "a", "b"])));
        assert_eq!(
            cache.set_write("w", false, &members(&["a", "b", "10", "z"]), 0),
            Ok(3.0)
        );
        assert_eq!(cache.get("w", 0), Found::Miss);
        cache.set("s", json!("v"), 0, 0);
        assert_eq!(cache.members("s", 0), Err(WRONGTYPE.to_string()));
        assert_eq!(cache.hash("n", 0), Err(WRONGTYPE.to_string()));
        assert!(cache.incr("n", 1.0, 0).is_err());
    }

    #[test]
    fn lists_push_pop_and_range_as_redis_does() {
        let mut cache = ScriptCache::new(0);
        let push = |left, values: &[i64]| ListWrite::Push {
            left,
            values: values.iter().map(|v| json!(v)).collect(),
        };
        assert_eq!(cache.list_write("q", push(true, &[1, 2]), 0), Ok(json!(2)));
        assert_eq!(cache.list_write("q", push(false, &[3, 4]), 0), Ok(json!(4)));
        assert_eq!(
            cache.list("q", 0),
            Ok(vec![json!(2), json!(1), json!(3), json!(4)])
        );
        let pop = |left, count| ListWrite::Pop { left, count };
        assert_eq!(cache.list_write("q", pop(false, 2), 0), Ok(json!([4, 3])));
        assert_eq!(cache.list_write("q", pop(true, 9), 0), Ok(json!([2, 1])));
        assert_eq!(cache.get("q", 0), Found::Miss);
        assert_eq!(cache.list_write("q", pop(true, 1), 0), Ok(json!([])));
        assert_eq!(redis_range(4, 0, -1), 0..4);
        assert_eq!(redis_range(4, -2, -1), 2..4);
        assert_eq!(redis_range(4, 1, 9), 1..4);
        assert_eq!(redis_range(4, 5, 9), 0..0);
        assert_eq!(redis_range(4, -9, 0), 0..1);
        assert_eq!(redis_range(0, 0, -1), 0..0);
        // Redis 7.0: `RPUSH l x`, then `LRANGE l -2 -2` is empty, as is
        // `LRANGE l -1 -10`.
        assert_eq!(redis_range(1, -2, -2), 0..0);
        assert_eq!(redis_range(1, -1, -10), 0..0);
        assert_eq!(redis_range(1, -10, -1), 0..1);
        cache.set("s", json!("v"), 0, 0);
        assert_eq!(cache.list("s", 0), Err(WRONGTYPE.to_string()));
    }

    #[test]
    fn exec_runs_unless_a_watched_key_was_written_or_expired() {
        let mut cache = ScriptCache::new(0);
        let keys = |names: &[&str]| names.iter().map(|k| k.to_string()).collect::<Vec<_>>();
        // Untouched: EXEC runs, and the watches end with it.
        cache.set("a", json!(1), 0, 0);
        cache.watch(1, &keys(&["a"]), 0);
        assert!(cache.exec_allowed(1, 5));
        cache.set("a", json!(2), 0, 6);
        assert!(cache.exec_allowed(1, 7));
        // Written by anyone (even with the same value): EXEC aborts.
        cache.watch(1, &keys(&["a"]), 10);
        cache.set("a", json!(2), 0, 11);
        assert!(!cache.exec_allowed(1, 12));
        // Another connection's watches are its own.
        cache.watch(2, &keys(&["a"]), 20);
        cache.unwatch(1);
        assert!(cache.exec_allowed(2, 21));
        // A live key that expires after WATCH (Redis 6.0.9 on) aborts; a
        // missing key that stays missing, through a DEL of nothing, does
        // not; one set and deleted again does.
        cache.set("e", json!(1), 50, 100);
        cache.watch(3, &keys(&["e"]), 110);
        assert!(!cache.exec_allowed(3, 160));
        cache.watch(3, &keys(&["gone"]), 200);
        assert!(!cache.delete("gone", 201));
        assert!(cache.exec_allowed(3, 202));
        cache.watch(3, &keys(&["gone"]), 210);
        cache.add("gone", json!(1), 0, 211);
        cache.delete("gone", 212);
        assert!(!cache.exec_allowed(3, 213));
        // An INCR, an EXPIRE and a refused ADD: two writes and no write.
        cache.watch(4, &keys(&["a"]), 300);
        assert!(!cache.add("a", json!(9), 0, 301));
        assert!(cache.exec_allowed(4, 302));
        cache.watch(4, &keys(&["a"]), 310);
        cache.incr("a", 1.0, 311).unwrap();
        assert!(!cache.exec_allowed(4, 312));
        cache.watch(4, &keys(&["a"]), 320);
        cache.expire("a", 1_000, ExpireIf::ALWAYS, 321);
        assert!(!cache.exec_allowed(4, 322));
        assert_eq!(cache.watched(4).count(), 0);
    }

    #[test]
    fn atomic_update_with_inc_and_operators() {
        let mut db = Tables::default();
        let def = TableDef {
            unique: vec![],
            expect_unique: vec![],
            rows: vec![row(json!({"id": 1, "stock": 1}))],
        };
        db.define("items", def).unwrap();
        let filter = row(json!({"id": 1, "stock": {"$gt": 0}}));
        let set = row(json!({"stock": {"$inc": -1}}));
        assert_eq!(db.update("items", &filter, &set), Ok(1));
        assert_eq!(db.update("items", &filter, &set), Ok(0));
        let all = db.find("items", &Row::new()).unwrap();
        assert_eq!(all, vec![row(json!({"id": 1, "stock": 0}))]);
    }

    #[test]
    fn unique_refuses_and_expect_unique_counts() {
        let mut db = Tables::default();
        let unique = TableDef {
            unique: vec!["user".into()],
            expect_unique: vec![],
            rows: vec![],
        };
        db.define("u", unique).unwrap();
        assert!(db.insert("u", row(json!({"user": 1}))).is_ok());
        assert!(matches!(
            db.insert("u", row(json!({"user": 1.0}))),
            Err(DbError::Unique(_))
        ));
        let expect = TableDef {
            unique: vec![],
            expect_unique: vec!["user".into(), "event".into()],
            rows: vec![],
        };
        db.define("orders", expect.clone()).unwrap();
        assert!(db.define("orders", expect).is_ok());
        for _ in 0..3 {
            db.insert("orders", row(json!({"user": 1, "event": 1})))
                .unwrap();
        }
        db.insert("orders", row(json!({"user": 2, "event": 1})))
            .unwrap();
        assert_eq!(db.duplicates(), 2);
        assert_eq!(db.rows("orders"), 4);
    }

    /// The tables as they were before their lookups: every call a scan of
    /// every row, an update checked pair by pair, the groups recounted.
    #[cfg(not(target_arch = "wasm32"))]
    #[derive(Default)]
    struct Scanned {
        rows: Vec<Row>,
        ids: Vec<u64>,
        next: u64,
    }

    #[cfg(not(target_arch = "wasm32"))]
    impl Scanned {
        fn matched(&self, filter: &Row) -> Result<Vec<usize>, DbError> {
            let mut out = Vec::new();
            for (at, row) in self.rows.iter().enumerate() {
                if matches(row, filter)? {
                    out.push(at);
                }
            }
            Ok(out)
        }

        fn insert(&mut self, def: &TableDef, row: Row) -> Result<(), ()> {
            if self.rows.iter().any(|other| clashes(def, &row, other)) {
                return Err(());
            }
            self.rows.push(row);
            self.ids.push(self.next);
            self.next += 1;
            Ok(())
        }

        fn update(&mut self, def: &TableDef, filter: &Row, set: &Row) -> Result<u64, DbError> {
            let mut updated = self.rows.clone();
            let mut count = 0;
            for row in &mut updated {
                if matches(row, filter)? {
                    apply_set(row, set)?;
                    count += 1;
                }
            }
            for (i, a) in updated.iter().enumerate() {
                if updated[i + 1..].iter().any(|b| clashes(def, a, b)) {
                    return Err(DbError::Unique(String::new()));
                }
            }
            self.rows = updated;
            Ok(count)
        }

        fn duplicates(&self, def: &TableDef) -> u64 {
            let mut groups: HashMap<String, u64> = HashMap::new();
            for row in &self.rows {
                let key: Vec<&Value> = def
                    .expect_unique
                    .iter()
                    .map(|field| row.get(field).unwrap_or(&Value::Null))
                    .collect();
                *groups
                    .entry(serde_json::to_string(&key).unwrap())
                    .or_default() += 1;
            }
            groups.values().map(|n| n - 1).sum()
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod lookups {
        use super::*;
        use proptest::prelude::*;

        /// Values `===` tells apart, or not (1 and 1.0, -0 and 0), and ones
        /// it finds nothing equal to (an array, an object).
        fn value() -> impl Strategy<Value = Value> {
            prop_oneof![
                Just(json!(1)),
                Just(json!(1.0)),
                Just(json!(2)),
                Just(json!(-0.0)),
                Just(json!(0)),
                Just(json!("1")),
                Just(json!("a")),
                Just(json!(true)),
                Just(json!(null)),
                Just(json!([1])),
                Just(json!({"a": 1})),
            ]
        }

        fn fields() -> impl Strategy<Value = Row> {
            prop::collection::btree_map(prop_oneof![Just("a"), Just("b"), Just("c")], value(), 0..3)
                .prop_map(|map| map.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
        }

        /// A filter: values, and sometimes an operator (`$bad` is unknown).
        fn filter() -> impl Strategy<Value = Row> {
            (
                fields(),
                prop::option::of((prop_oneof![Just("$gt"), Just("$ne"), Just("$bad")], value())),
            )
                .prop_map(|(mut filter, op)| {
                    if let Some((op, operand)) = op {
                        filter.insert("c".into(), json!({ op: operand }));
                    }
                    filter
                })
        }

        #[derive(Clone, Debug)]
        enum Call {
            Insert(Row),
            Update(Row, Row),
            Delete(Row),
            Find(Row),
        }

        fn call() -> impl Strategy<Value = Call> {
            prop_oneof![
                3 => fields().prop_map(Call::Insert),
                2 => (filter(), fields()).prop_map(|(f, s)| Call::Update(f, s)),
                1 => (filter(), Just(json!({"b": {"$inc": 1}}))).prop_map(|(f, s)| Call::Update(f, row(s))),
                1 => filter().prop_map(Call::Delete),
                3 => filter().prop_map(Call::Find),
            ]
        }

        proptest! {
            /// The tables' lookups change nothing a script sees: every
            /// call answers, and the rows, their ids and the duplicates
            /// are, what a scan of every row gives (with and without a
            /// unique key, from rows that clash or not).
            #[test]
            fn tables_read_through_their_lookups_as_by_a_scan(
                unique in prop::option::of(Just(vec!["a".to_string()])),
                start in prop::collection::vec(fields(), 0..4),
                calls in prop::collection::vec(call(), 1..40),
            ) {
                let def = TableDef {
                    unique: unique.unwrap_or_default(),
                    expect_unique: vec!["b".into()],
                    rows: start.clone(),
                };
                let mut db = Tables::default();
                db.define("t", def.clone()).unwrap();
                let mut scanned = Scanned {
                    ids: (0..start.len() as u64).collect(),
                    next: start.len() as u64,
                    rows: start,
                };
                for call in calls {
                    match call {
                        Call::Insert(row) => {
                            let got = db.insert("t", row.clone()).map(|_| ()).map_err(|_| ());
                            prop_assert_eq!(got, scanned.insert(&def, row));
                        }
                        Call::Update(filter, set) => {
                            let got = db.update("t", &filter, &set);
                            let want = scanned.update(&def, &filter, &set);
                            match (&got, &want) {
                                (Err(DbError::Unique(_)), Err(DbError::Unique(_))) => {}
                                _ => prop_assert_eq!(got, want),
                            }
                        }
                        Call::Delete(filter) => {
                            let got = db.delete("t", &filter);
                            let want = scanned.matched(&filter).map(|matched| {
                                for &at in matched.iter().rev() {
                                    scanned.rows.remove(at);
                                    scanned.ids.remove(at);
                                }
                                matched.len() as u64
                            });
                            prop_assert_eq!(got, want);
                        }
                        Call::Find(filter) => {
                            let want = scanned.matched(&filter);
                            let rows = want.clone().map(|m| m.iter().map(|&at| scanned.rows[at].clone()).collect());
                            prop_assert_eq!(db.find("t", &filter), rows);
                            let ids = want.map(|m| m.iter().map(|&at| scanned.ids[at]).collect());
                            prop_assert_eq!(db.matching("t", &filter), ids);
                        }
                    }
                    prop_assert_eq!(db.find("t", &Row::new()).unwrap(), scanned.rows.clone());
                    prop_assert_eq!(db.matching("t", &Row::new()).unwrap(), scanned.ids.clone());
                    prop_assert_eq!(db.duplicates(), scanned.duplicates(&def));
                }
            }
        }
    }
}
