//! The natives behind SCRIPTING.md §3: `cache`, `db`, timers, `sleep`,
//! `console.log`, `count`, `config`, `performance`, `Math.random`, and the
//! hidden `__host` the prelude builds `lock`, `guard`, `singleflight` and
//! the virtual `Date` on.

use std::cell::RefCell;
use std::rc::Rc;
use std::task::{Context as TaskContext, Poll, Waker};

use rquickjs::function::Rest;
use rquickjs::promise::PromiseState;
use rquickjs::{
    Coerced, Ctx, Error, Exception, FromJs, Function, Object, Persistent, Promise, Result, Type,
    Value,
};
use serde_json::{json, Value as Json};

use crate::config::{CacheStart, Micros, MS};
use crate::sim::core::{Op, ScriptOp, TaskId};
use crate::sim::trace::{Outcome, ServerKind, Site, TraceKey, What};
use crate::sim::{Ctx as WorldCtx, Ops};
use crate::strategy;
use crate::world::LockKey;

use super::call::{Call, SqlCall};
use super::host::{Answer, Helper, Host, NextTick, Position, Settle, Waiter, FIRING};
use super::world::{
    number, text_of, ExpireIf, Expiry, ExpiryChange, HashWrite, ListWrite, LockScript, Only, Row,
    Scan, SetOptions, TableDef, ZsetWrite,
};

/// What every native of a realm reaches: the run's host (replaced when a
/// realm is reused for another run) and the realm's server.
pub struct Link {
    pub host: RefCell<Rc<Host>>,
    pub server: u32,
}

impl Link {
    pub fn new(host: Rc<Host>, server: u32) -> Rc<Link> {
        Rc::new(Link {
            host: RefCell::new(host),
            server,
        })
    }

    pub fn host(&self) -> Rc<Host> {
        self.host.borrow().clone()
    }
}

type Native = for<'js> fn(&Link, &Ctx<'js>, &[Value<'js>]) -> Result<Value<'js>>;

/// A native function of the realm, named and with its `length`.
fn native<'js>(
    ctx: &Ctx<'js>,
    link: &Rc<Link>,
    f: Native,
    name: &str,
    length: usize,
) -> Result<Function<'js>> {
    let link = link.clone();
    Function::new(ctx.clone(), move |ctx: Ctx<'js>, args: Rest<Value<'js>>| {
        f(&link, &ctx, &args.0)
    })?
    .with_name(name)?
    .with_length(length)
}

fn type_error(ctx: &Ctx<'_>, message: impl AsRef<str>) -> Error {
    Exception::throw_type(ctx, message.as_ref())
}

fn undefined<'js>(ctx: &Ctx<'js>) -> Value<'js> {
    Value::new_undefined(ctx.clone())
}

/// The first position of the script's own code (`code:LINE:COL`) in an
/// engine's stack text.
fn code_position(stack: &str) -> Option<(u32, u32)> {
    super::error::find_position(stack)
}

/// Every frame of the script's own code (`code:LINE:COL`) in an engine's
/// stack text, innermost first.
fn code_frames(stack: &str) -> Vec<(u32, u32)> {
    stack
        .match_indices("code:")
        .filter_map(|(at, _)| super::error::find_position(&stack[at..]))
        .collect()
}

/// Where the script's own code made the call under way: its innermost
/// frame and the frames that called it (only when the trace is kept: a
/// metrics-only run has no use for it).
pub fn caller_position(link: &Link, ctx: &Ctx<'_>) -> Option<Position> {
    if !link.host.borrow().keep_trace {
        return None;
    }
    position_here(link, ctx)
}

/// Where the script's own code read or wrote a row: in a run that keeps
/// no trace too, when the code may change a row in place
/// (`Host::row_positions`).
fn row_position(link: &Link, ctx: &Ctx<'_>) -> Option<Position> {
    let host = link.host();
    if !host.keep_trace && !host.row_positions.get() {
        return None;
    }
    position_here(link, ctx)
}

/// Where the script's own code made the call under way, in any run.
fn position_here(link: &Link, ctx: &Ctx<'_>) -> Option<Position> {
    let error = Exception::from_message(ctx.clone(), "").ok()?;
    link.host().position_of(&code_frames(&error.stack()?))
}

fn arg<'js>(ctx: &Ctx<'js>, args: &[Value<'js>], index: usize) -> Value<'js> {
    args.get(index).cloned().unwrap_or_else(|| undefined(ctx))
}

/// `String(value)`, as JavaScript converts it.
fn to_text<'js>(ctx: &Ctx<'js>, value: Value<'js>) -> Result<String> {
    if let Some(text) = value.as_string() {
        return text.to_string();
    }
    Ok(Coerced::<String>::from_js(ctx, value)?.0)
}

fn to_number<'js>(ctx: &Ctx<'js>, value: Value<'js>) -> Result<f64> {
    if let Some(number) = value.as_number() {
        return Ok(number);
    }
    Ok(Coerced::<f64>::from_js(ctx, value)?.0)
}

fn key_arg<'js>(ctx: &Ctx<'js>, args: &[Value<'js>], index: usize) -> Result<String> {
    to_text(ctx, arg(ctx, args, index))
}

/// How deep a value sent to the cache or the DB may nest (a cycle is
/// caught here).
const MAX_JSON_DEPTH: usize = 64;

/// How many objects and arrays one value sent to the cache or the DB may
/// hold: a small object reached through many paths (`a = [b, b]`, `b = [c,
/// c]`, ...) would otherwise be copied exponentially many times.
const MAX_JSON_OBJECTS: usize = 1_000_000;

fn not_json(ctx: &Ctx<'_>, message: impl std::fmt::Display) -> Error {
    type_error(ctx, format!("values are JSON: {message}"))
}

/// A value copied out of the script, as over a network: JSON only, in one
/// walk. Plain objects (their own enumerable string keys, in
/// `Object.keys` order, each getter read once), arrays, strings, numbers,
/// booleans and null cross; an undefined field is dropped and an undefined
/// item becomes null, as with `JSON.stringify`. A function, a symbol, a
/// bigint, a `Map` or a class instance anywhere in the value is a
/// TypeError naming it, before anything is sent.
pub fn to_json<'js>(ctx: &Ctx<'js>, value: &Value<'js>) -> Result<Json> {
    let mut objects = 0;
    let plain = Object::new(ctx.clone())?.get_prototype();
    let copy = JsonCopy {
        ctx,
        plain: plain.as_ref(),
    };
    Ok(copy.value(value, 0, &mut objects)?.unwrap_or(Json::Null))
}

struct JsonCopy<'a, 'js> {
    ctx: &'a Ctx<'js>,
    /// `Object.prototype`, as the realm made it.
    plain: Option<&'a Object<'js>>,
}

impl<'js> JsonCopy<'_, 'js> {
    fn value(&self, value: &Value<'js>, depth: usize, objects: &mut usize) -> Result<Option<Json>> {
        let ctx = self.ctx;
        match value.type_of() {
            Type::Null => return Ok(Some(Json::Null)),
            Type::Undefined | Type::Uninitialized => return Ok(None),
            Type::Bool => return Ok(value.as_bool().map(Json::from)),
            Type::Int => return Ok(value.as_int().map(Json::from)),
            Type::Float => return Ok(value.as_float().map(number)),
            Type::String => return Ok(Some(to_text(ctx, value.clone())?.into())),
            Type::BigInt => {
                return Err(not_json(
                    ctx,
                    "a bigint cannot be sent to the cache or the DB",
                ))
            }
            Type::Symbol => {
                return Err(not_json(
                    ctx,
                    "a symbol cannot be sent to the cache or the DB",
                ))
            }
            Type::Function | Type::Constructor => {
                return Err(not_json(
                    ctx,
                    "a function cannot be sent to the cache or the DB",
                ))
            }
            _ => {}
        }
        let Some(object) = value.as_object() else {
            return Ok(None);
        };
        if depth > MAX_JSON_DEPTH {
            return Err(not_json(ctx, "nested too deep (a cycle?)"));
        }
        *objects += 1;
        if *objects > MAX_JSON_OBJECTS {
            return Err(not_json(
                ctx,
                format!(
                    "more than {MAX_JSON_OBJECTS} objects (one object reached through many paths?)"
                ),
            ));
        }
        if let Some(array) = object.as_array() {
            let length = array.len();
            let mut items = Vec::with_capacity(length.min(1 << 16));
            for index in 0..length {
                let item: Value = array.get(index)?;
                items.push(self.value(&item, depth + 1, objects)?.unwrap_or(Json::Null));
            }
            return Ok(Some(Json::Array(items)));
        }
        let plain = match object.get_prototype() {
            None => true,
            Some(prototype) => Some(&prototype) == self.plain,
        };
        if !plain {
            return Err(not_json(
                ctx,
                format!(
                    "a {} cannot be sent to the cache or the DB",
                    constructor_name(ctx, object)?
                ),
            ));
        }
        let mut fields = serde_json::Map::new();
        for key in object.keys::<String>() {
            let key = key?;
            let field: Value = object.get(key.as_str())?;
            if let Some(field) = self.value(&field, depth + 1, objects)? {
                fields.insert(key, field);
            }
        }
        Ok(Some(Json::Object(fields)))
    }
}

/// `value.constructor && value.constructor.name || "object"`.
fn constructor_name<'js>(ctx: &Ctx<'js>, object: &Object<'js>) -> Result<String> {
    let constructor: Value = object.get("constructor")?;
    let name: Value = match constructor.as_object() {
        Some(constructor) => constructor.get("name")?,
        None => undefined(ctx),
    };
    let truthy = match name.type_of() {
        Type::String => name
            .as_string()
            .is_some_and(|s| s.to_string().is_ok_and(|s| !s.is_empty())),
        Type::Undefined | Type::Null => false,
        _ => true,
    };
    if truthy {
        to_text(ctx, name)
    } else {
        Ok("object".to_string())
    }
}

/// A JSON value made into the realm's JavaScript (a fresh copy).
pub fn from_json<'js>(ctx: &Ctx<'js>, value: &Json) -> Result<Value<'js>> {
    match value {
        Json::Null => Ok(Value::new_null(ctx.clone())),
        Json::Bool(b) => Ok(Value::new_bool(ctx.clone(), *b)),
        Json::Number(n) => Ok(match n.as_i64().and_then(|n| i32::try_from(n).ok()) {
            Some(n) => Value::new_int(ctx.clone(), n),
            None => Value::new_number(ctx.clone(), n.as_f64().unwrap_or(f64::NAN)),
        }),
        _ => ctx.json_parse(value.to_string()),
    }
}

fn row_arg<'js>(ctx: &Ctx<'js>, args: &[Value<'js>], index: usize, what: &str) -> Result<Row> {
    match to_json(ctx, &arg(ctx, args, index))? {
        Json::Object(row) => Ok(row),
        Json::Null => Ok(Row::new()),
        _ => Err(type_error(ctx, format!("{what} must be a plain object"))),
    }
}

/// A duration argument in ms, as whole microseconds (never negative).
fn ms_arg<'js>(ctx: &Ctx<'js>, args: &[Value<'js>], index: usize) -> Result<Micros> {
    let value = arg(ctx, args, index);
    if value.is_undefined() {
        return Ok(0);
    }
    Ok(to_micros(to_number(ctx, value)?))
}

fn to_micros(ms: f64) -> Micros {
    if ms.is_nan() || ms <= 0.0 {
        0
    } else {
        (ms * 1000.0).min(86_400e6 * 365.0).round() as Micros
    }
}

/// An object of natives.
fn object<'js>(
    ctx: &Ctx<'js>,
    link: &Rc<Link>,
    natives: &[(&str, Native, usize)],
) -> Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    for &(name, f, length) in natives {
        object.set(name, native(ctx, link, f, name, length)?)?;
    }
    Ok(object)
}

/// Registers every native global of a realm (the prelude makes them
/// non-enumerable, as Node's are).
pub fn register<'js>(ctx: &Ctx<'js>, link: &Rc<Link>) -> Result<()> {
    let globals = ctx.globals();
    let cache = object(ctx, link, &[])?;
    let db = object(ctx, link, &[("table", db_table, 2)])?;
    let hidden = object(
        ctx,
        link,
        &[
            ("acquire", host_acquire, 1),
            ("release", host_release, 1),
            ("enter", host_enter, 1),
            ("exit", host_exit, 1),
            ("crash", host_crash, 0),
            ("pause", host_pause, 0),
            ("flightJoin", host_flight_join, 1),
            ("flightFinish", host_flight_finish, 2),
            ("now", host_now, 0),
            ("nextTick", next_tick, 1),
            ("part", prelude_part, 1),
            ("digest", digest, 3),
            ("log", host_log, 1),
            ("promiseState", promise_state, 1),
            ("stackOf", stack_of, 1),
            ("request", host_request, 0),
            ("runAs", host_run_as, 3),
            ("frame", host_frame, 0),
            ("setFrame", host_set_frame, 1),
            ("lockScript", cache_lock_script, 4),
            ("connection", cache_connection, 0),
            ("watch", cache_watch, 2),
            ("exec", cache_exec, 2),
            ("sql", host_sql, 5),
            ("session", host_session, 0),
            ("closes", host_closes, 1),
        ],
    )?;
    // The calls that go as they are (`call_of`): the script's own `cache`
    // and `db`, and the client libraries' (the prelude's `__host`).
    for (object, calls) in [
        (
            &cache,
            &[
                ("get", 1),
                ("getStale", 1),
                ("set", 3),
                ("add", 3),
                ("delete", 1),
                ("deleteIf", 2),
                ("incr", 2),
            ][..],
        ),
        (
            &db,
            &[
                ("db.find", 2),
                ("db.findOne", 2),
                ("db.insert", 2),
                ("db.update", 3),
                ("db.delete", 2),
            ],
        ),
        (
            &hidden,
            &[
                ("replace", 3),
                ("expire", 2),
                ("pttl", 1),
                ("keys", 1),
                ("type", 1),
                ("strlen", 1),
                ("append", 2),
                ("rename", 2),
                ("scan", 2),
                ("persist", 1),
                ("touch", 2),
                ("getDelete", 1),
                ("getEx", 2),
                ("setWith", 2),
                ("incrFloat", 2),
                ("counter", 4),
                ("gets", 1),
                ("cas", 4),
                ("attach", 3),
                ("hashRead", 2),
                ("hashWrite", 2),
                ("setRead", 2),
                ("setWrite", 2),
                ("listRead", 2),
                ("listWrite", 2),
                ("listMove", 2),
                ("publish", 2),
                ("zsetRead", 1),
                ("zsetWrite", 2),
            ],
        ),
    ] {
        for &(name, length) in calls {
            let shown = name.strip_prefix("db.").unwrap_or(name);
            object.set(shown, call_native(ctx, link, name, length)?)?;
        }
    }
    cache.set("preset", native(ctx, link, cache_preset, "preset", 3)?)?;
    globals.set("cache", cache)?;
    globals.set("db", db)?;
    let performance = object(ctx, link, &[("now", performance_now, 0)])?;
    globals.set("performance", performance)?;
    for (name, f, length) in [
        ("sleep", sleep as Native, 1),
        ("setTimeout", set_timeout, 2),
        ("setInterval", set_interval, 2),
        ("setImmediate", set_immediate, 1),
        ("clearTimeout", clear_timer, 1),
        ("clearInterval", clear_timer, 1),
        ("clearImmediate", clear_timer, 1),
        ("count", count, 2),
    ] {
        globals.set(name, native(ctx, link, f, name, length)?)?;
    }
    let math: Object = globals.get("Math")?;
    math.set("random", native(ctx, link, math_random, "random", 0)?)?;
    let config = from_json(ctx, &config_json(&link.host()))?;
    hidden.set("config", config)?;
    // Which app server this realm is (0-based): its own Node process.
    hidden.set("server", link.server)?;
    globals.set("__host", hidden)?;
    Ok(())
}

/// `config`: the fragment's keys after defaults, durations in ms.
fn config_json(host: &Host) -> Json {
    let config = &host.config;
    let ms = |us: Micros| us as f64 / MS as f64;
    json!({
        "scenario": "script",
        "strategy": config.strategy.name(),
        "seed": config.seed,
        "servers": config.servers,
        "users": config.users,
        "clicks": config.clicks,
        "click_gap": ms(config.click_gap),
        "keys": config.keys,
        "requests": config.requests,
        "await_insert": config.await_insert,
        "double_check": config.double_check,
        "db_unique": config.db_unique,
        "fencing": config.fencing,
        "cache": match config.cache { CacheStart::Warm => "warm", CacheStart::Cold => "cold" },
        "ttl": ms(config.ttl),
        "grace": ms(config.grace),
        "expire_at": config.expire_at.map(ms),
        "lock_ttl": ms(config.lock_ttl),
        "poll": ms(config.poll),
        "wait_timeout": ms(config.wait_timeout),
    })
}

// ---------------------------------------------------------------------------
// cache and db

/// A pending promise the host settles later, and its resolving functions.
fn pending<'js>(ctx: &Ctx<'js>) -> Result<(Promise<'js>, Settle)> {
    let (promise, resolve, reject) = Promise::new(ctx)?;
    let settle = Settle {
        resolve: Persistent::save(ctx, resolve),
        reject: Persistent::save(ctx, reject),
    };
    Ok((promise, settle))
}

/// Sends one operation: a promise that settles when it lands.
fn send<'js>(link: &Link, ctx: &Ctx<'js>, call: Call) -> Result<Value<'js>> {
    // A `db` row's read and its change in place keep their place when the
    // code may change a row in place: whether the change acted on a stale
    // check reads the code between them (`Run::note_cache_access`).
    let position = match call {
        Call::Find(..) | Call::FindOne(..) | Call::Update(..) => row_position(link, ctx),
        _ => caller_position(link, ctx),
    };
    send_from(link, ctx, call, position)
}

/// [`send`] for a call the script made at `position` (a `pg` client's
/// query that waited in the client's queue goes out later, from the
/// prelude).
fn send_from<'js>(
    link: &Link,
    ctx: &Ctx<'js>,
    call: Call,
    position: Option<Position>,
) -> Result<Value<'js>> {
    let host = link.host();
    let kind = call.kind();
    let (promise, settle) = pending(ctx)?;
    let key = host.intern(call.key());
    let request = host.current.get();
    let op = Op::Script(ScriptOp { kind, key });
    let longer = call.sleep();
    let slot = host
        .core
        .borrow_mut()
        .issue_slower(request, op, Site::Script, longer);
    host.mark_last_event(position);
    host.state.borrow_mut().waiting.insert(
        slot,
        Waiter::Call {
            call,
            settle,
            server: link.server,
            position,
        },
    );
    Ok(promise.into_value())
}

/// A `GETEX`'s change to the expiry, as the prelude spells it.
fn expiry_change(change: Json) -> ExpiryChange {
    let ms = to_micros(change.get("ms").and_then(Json::as_f64).unwrap_or(0.0));
    match change {
        Json::Object(_) if change.get("error").is_some() => {
            ExpiryChange::Refused(text_of(&change["error"].clone()))
        }
        Json::Object(_) if change.get("at") == Some(&Json::Bool(true)) => {
            ExpiryChange::Set(Expiry::At(ms))
        }
        Json::Object(_) => ExpiryChange::Set(Expiry::In(ms)),
        Json::String(word) if word == "PERSIST" => ExpiryChange::Persist,
        _ => ExpiryChange::Keep,
    }
}

/// A `RENAME` from `[to, onlyNew]`.
fn rename_call(key: String, what: Json) -> Call {
    let to = text_of(&what.get(0).cloned().unwrap_or(Json::Null));
    let only_new = what.get(1).and_then(Json::as_bool).unwrap_or(false);
    Call::Rename(key, to, only_new)
}

/// A `SCAN`'s cursor (Redis's unsigned integer, as a string or a number)
/// and `[pattern, count, type]` (`*`, 10 and any type where null).
fn scan_call(cursor: Json, options: Json) -> std::result::Result<Scan, String> {
    let cursor = match cursor {
        Json::String(text) => text.parse::<u64>().ok(),
        Json::Number(n) => n.as_u64(),
        _ => None,
    }
    .ok_or("ERR invalid cursor")?;
    let option = |i: usize| options.get(i).filter(|value| !value.is_null());
    let count = match option(1) {
        None => 10,
        Some(count) => count
            .as_u64()
            .filter(|&count| count >= 1)
            .ok_or("ERR syntax error")? as usize,
    };
    Ok(Scan {
        cursor,
        pattern: option(0).map_or("*".to_string(), |p| text_of(&p.clone())),
        count,
        kind: option(2).map(|kind| text_of(&kind.clone()).to_lowercase()),
    })
}

/// A `setWith` as the prelude sends it: `[value, ms, only, keep, get,
/// at]` (`at`: `ms` is a time on the run's clock, `EXAT` or `PXAT`).
fn set_with(key: String, what: Json) -> std::result::Result<Call, String> {
    let Json::Array(what) = what else {
        return Err("cache.setWith: [value, ms, only, keep, get, at]".to_string());
    };
    let mut what = what.into_iter();
    let value = what.next().unwrap_or(Json::Null);
    let ms = to_micros(what.next().and_then(|ms| ms.as_f64()).unwrap_or(0.0));
    let only = match what.next().unwrap_or(Json::Null) {
        Json::Null => None,
        Json::String(only) if only == "NX" => Some(Only::Nx),
        Json::String(only) if only == "XX" => Some(Only::Xx),
        other => return Err(format!("cache.setWith: no condition {other}")),
    };
    let mut flag = || what.next() == Some(Json::Bool(true));
    let (keep, get, at) = (flag(), flag(), flag());
    let expiry = match at {
        true => Expiry::At(ms),
        false => Expiry::In(ms),
    };
    let options = SetOptions {
        ttl: (!keep).then_some(expiry),
        only,
        get,
    };
    Ok(Call::SetWith(key, value, options))
}

/// `lockScript("acquire" | "extend" | "release", keys, value, ms)`.
fn cache_lock_script<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let script = match to_text(ctx, arg(ctx, args, 0))?.as_str() {
        "acquire" => LockScript::Acquire,
        "extend" => LockScript::Extend,
        "release" => LockScript::Release,
        other => return Err(type_error(ctx, format!("no lock script {other}"))),
    };
    let keys = match to_json(ctx, &arg(ctx, args, 1))? {
        Json::Array(keys) => keys.iter().map(text_of).collect(),
        _ => return Err(type_error(ctx, "lock script keys must be an array")),
    };
    let value = to_json(ctx, &arg(ctx, args, 2))?;
    let ttl = ms_arg(ctx, args, 3)?;
    send(link, ctx, Call::Locks(script, keys, value, ttl))
}

/// `connection()`: a new Redis connection's id (a client's own: its
/// `WATCH`es and its `EXEC`s meet there).
fn cache_connection<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let mut state = host.state.borrow_mut();
    state.connections += 1;
    Ok(Value::new_number(ctx.clone(), state.connections as f64))
}

/// `watch(connection, keys)`: Redis's `WATCH` of `keys` (an empty list:
/// `UNWATCH`).
fn cache_watch<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let connection = to_number(ctx, arg(ctx, args, 0))? as u64;
    let keys = match to_json(ctx, &arg(ctx, args, 1))? {
        Json::Array(keys) => keys.iter().map(text_of).collect(),
        _ => return Err(type_error(ctx, "watch: the keys must be an array")),
    };
    send(link, ctx, Call::Watch(connection, keys))
}

/// `exec(connection, commands)`: Redis's `MULTI`…`EXEC` on `connection`
/// (null: a pipeline), each command `[name, key, ...]`, a cache call as
/// its native takes it (see [`call_of`]). Settles with each one's answer,
/// `{ value }` or `{ error }`, in order, or null if a watched key changed.
fn cache_exec<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let connection = match arg(ctx, args, 0) {
        value if value.is_null() || value.is_undefined() => None,
        value => Some(to_number(ctx, value)? as u64),
    };
    let Some(commands) = arg(ctx, args, 1).into_array() else {
        return Err(type_error(ctx, "exec: the commands must be an array"));
    };
    let mut calls = Vec::with_capacity(commands.len());
    for command in commands.iter::<Value>() {
        let Some(parts) = command?.into_array() else {
            return Err(type_error(ctx, "exec: each command is an array"));
        };
        let parts = parts.iter::<Value>().collect::<Result<Vec<_>>>()?;
        let name = to_text(ctx, arg(ctx, &parts, 0))?;
        let call = call_of(ctx, &name, parts.get(1..).unwrap_or_default())?;
        if call.kind().server() != Some(ServerKind::Cache) {
            return Err(type_error(ctx, format!("exec: no cache call {name}")));
        }
        calls.push(call);
    }
    send(link, ctx, Call::Exec(connection, calls))
}

/// A set write as the prelude spells it: whether it adds, and the members.
fn set_write(write: Json) -> (bool, Vec<String>) {
    let add = write.get("add").cloned();
    let members = add.clone().or_else(|| write.get("remove").cloned());
    (
        add.is_some(),
        members.and_then(hash_fields).unwrap_or_default(),
    )
}

fn zset_write(write: Json) -> std::result::Result<ZsetWrite, String> {
    serde_json::from_value(write).map_err(|error| format!("zsetWrite: {error}"))
}

/// `[start, stop]` (missing: the whole list).
fn list_range(range: Json) -> (i64, i64) {
    let at = |i: usize| range.get(i).and_then(Json::as_f64).map(|n| n as i64);
    (at(0).unwrap_or(0), at(1).unwrap_or(-1))
}

/// A list write as the prelude spells it (see `cache_list_write`).
fn list_write(write: Json) -> ListWrite {
    let left = write.get("left") == Some(&Json::Bool(true));
    let integer = |name: &str| write.get(name).and_then(Json::as_f64).unwrap_or(0.0) as i64;
    let value = || write.get("value").cloned().unwrap_or(Json::Null);
    if write.get("trim").is_some() {
        let (start, stop) = list_range(write["trim"].clone());
        return ListWrite::Trim { start, stop };
    }
    if write.get("remove").is_some() {
        return ListWrite::Remove {
            count: integer("remove"),
            value: value(),
        };
    }
    if write.get("set").is_some() {
        return ListWrite::Set {
            index: integer("set"),
            value: value(),
        };
    }
    match write.get("push") {
        Some(Json::Array(values)) => ListWrite::Push {
            left,
            values: values.clone(),
        },
        _ => ListWrite::Pop {
            left,
            count: write
                .get("pop")
                .and_then(Json::as_f64)
                .unwrap_or(0.0)
                .max(0.0) as usize,
        },
    }
}

/// Field names (null: every field).
fn hash_fields(fields: Json) -> Option<Vec<String>> {
    match fields {
        Json::Array(fields) => Some(fields.iter().map(text_of).collect()),
        _ => None,
    }
}

/// A hash write as the prelude spells it (see `cache_hash_write`).
fn hash_write(write: Json) -> std::result::Result<HashWrite, String> {
    let mut write = match write {
        Json::Object(write) => write,
        _ => return Err("hashWrite: the write must be an object".to_string()),
    };
    if let Some(Json::Array(pairs)) = write.remove("set") {
        let only_new = write
            .get("onlyNew")
            .is_some_and(|only| only == &Json::Bool(true));
        let pairs = pairs
            .into_iter()
            .map(|pair| match pair {
                Json::Array(mut pair) if pair.len() == 2 => {
                    let value = pair.pop().unwrap_or(Json::Null);
                    Ok((text_of(&pair.pop().unwrap_or(Json::Null)), value))
                }
                _ => Err("hashWrite: each field is [name, value]".to_string()),
            })
            .collect::<std::result::Result<_, _>>()?;
        return Ok(HashWrite::Set(pairs, only_new));
    }
    if let Some(fields) = write.remove("del") {
        return Ok(HashWrite::Delete(hash_fields(fields).unwrap_or_default()));
    }
    if let Some(Json::Array(incr)) = write.remove("incr") {
        let mut incr = incr.into_iter();
        let field = text_of(&incr.next().unwrap_or(Json::Null));
        let by = incr.next().and_then(|by| by.as_f64()).unwrap_or(0.0);
        return Ok(HashWrite::IncrBy(field, by));
    }
    if let Some(Json::Array(incr)) = write.remove("incrFloat") {
        let mut incr = incr.iter().map(text_of);
        let field = incr.next().unwrap_or_default();
        return Ok(HashWrite::IncrByFloat(
            field,
            incr.next().unwrap_or_default(),
        ));
    }
    Err("hashWrite: set, del, incr or incrFloat".to_string())
}

/// A cache or DB call, `name(key, ...args)`, as its native takes it and
/// as a MULTI or a pipeline queues it (`exec`'s `[name, key, ...args]`):
/// the one reading of each call's arguments. The DB's calls are named
/// `db.find`, `db.findOne`, `db.insert`, `db.update` and `db.delete`.
fn call_of<'js>(ctx: &Ctx<'js>, name: &str, args: &[Value<'js>]) -> Result<Call> {
    let key = key_arg(ctx, args, 0)?;
    let json = |index| to_json(ctx, &arg(ctx, args, index));
    let row = |index, what: &str| row_arg(ctx, args, index, &format!("{name}'s {what}"));
    let refused = |message: String| type_error(ctx, message);
    Ok(match name {
        "get" => Call::Get(key),
        "getStale" => Call::GetStale(key),
        "delete" => Call::Delete(key),
        "deleteIf" => Call::DeleteIf(key, json(1)?),
        "pttl" => Call::Pttl(key),
        "keys" => Call::Keys(key),
        "type" => Call::Type(key),
        "strlen" => Call::Strlen(key),
        "persist" => Call::Persist(key),
        // `touch(key, ms)`: memcached's, 0 for no expiry.
        "touch" => Call::Touch(key, ms_arg(ctx, args, 1)?),
        "getDelete" => Call::GetDelete(key),
        // `getEx(key, change)`: `change` null (the expiry stays),
        // `"PERSIST"`, or `{ ms, at }` (`at`: a time on the run's clock).
        "getEx" => Call::GetEx(key, expiry_change(json(1)?)),
        "zsetRead" => Call::ZsetRead(key),
        "set" => Call::Set(key, json(1)?, ms_arg(ctx, args, 2)?),
        "add" => Call::Add(key, json(1)?, ms_arg(ctx, args, 2)?),
        "replace" => Call::Replace(key, json(1)?, ms_arg(ctx, args, 2)?),
        "incr" => Call::Incr(
            key,
            match arg(ctx, args, 1) {
                by if by.is_undefined() => 1.0,
                by => to_number(ctx, by)?,
            },
        ),
        // `counter(key, by, initial, ms)`: `initial` undefined or null: a
        // missing key stays missing.
        "counter" => Call::Counter(
            key,
            to_number(ctx, arg(ctx, args, 1))?,
            match arg(ctx, args, 2) {
                initial if initial.is_undefined() || initial.is_null() => None,
                initial => Some((to_number(ctx, initial)?, ms_arg(ctx, args, 3)?)),
            },
        ),
        // `expire(key, ms, options, at)`: a non-positive `ms` deletes the
        // key (with `at`, `ms` is a time on the run's clock, and one passed
        // deletes it); the options (`"NX"`, `"XX"`, `"GT"`, `"LT"`) say when
        // it applies, and Redis's error for options it refuses is thrown.
        "expire" => {
            let ms = ms_arg(ctx, args, 1)?;
            let words: Vec<String> = match arg(ctx, args, 2).as_array() {
                Some(words) => words.iter().collect::<Result<_>>()?,
                None => Vec::new(),
            };
            let only = ExpireIf::parse(words.iter().map(String::as_str)).map_err(refused)?;
            let expiry = match arg(ctx, args, 3).as_bool() {
                Some(true) => Expiry::At(ms),
                _ => Expiry::In(ms),
            };
            Call::Expire(key, expiry, only)
        }
        "append" => Call::Append(key, text_of(&json(1)?)),
        "gets" => Call::Gets(key),
        // `cas(key, value, unique, ms)`: the unique as `gets` gave it (a
        // string of digits); any other is memcached's own refusal.
        "cas" => {
            let unique = text_of(&json(2)?);
            let unique = unique
                .parse::<u64>()
                .map_err(|_| refused("bad command line format".to_string()))?;
            Call::Cas(key, json(1)?, unique, ms_arg(ctx, args, 3)?)
        }
        // `attach(key, text, front)`: memcached's append (front: prepend).
        "attach" => Call::Attach(
            key,
            text_of(&json(1)?),
            arg(ctx, args, 2).as_bool() == Some(true),
        ),
        "rename" => rename_call(key, json(1)?),
        // `scan(cursor, [pattern, count, type])`.
        "scan" => Call::Scan(scan_call(Json::String(key), json(1)?).map_err(refused)?),
        "setWith" => set_with(key, json(1)?).map_err(refused)?,
        "incrFloat" => Call::IncrFloat(key, text_of(&json(1)?)),
        "hashRead" => Call::HashRead(key, hash_fields(json(1)?)),
        "hashWrite" => Call::HashWrite(key, hash_write(json(1)?).map_err(refused)?),
        "setRead" => Call::SetRead(key, hash_fields(json(1)?)),
        "setWrite" => {
            let (add, members) = set_write(json(1)?);
            Call::SetWrite(key, add, members)
        }
        "listRead" => {
            let (start, stop) = list_range(json(1)?);
            Call::ListRead(key, start, stop)
        }
        "listWrite" => Call::ListWrite(key, list_write(json(1)?)),
        // `publish(channel, message)`.
        "publish" => Call::Publish(key, text_of(&json(1)?)),
        // `listMove(key, [to, fromLeft, toLeft])`: `LMOVE`.
        "listMove" => {
            let what = json(1)?;
            let left = |i: usize| what.get(i) == Some(&Json::Bool(true));
            let to = text_of(&what.get(0).cloned().unwrap_or(Json::Null));
            Call::ListMove(key, to, left(1), left(2))
        }
        "zsetWrite" => Call::ZsetWrite(key, zset_write(json(1)?).map_err(refused)?),
        "db.find" => Call::Find(key, row(1, "where")?),
        "db.findOne" => Call::FindOne(key, row(1, "where")?),
        "db.insert" => Call::Insert(key, row(1, "row")?),
        "db.update" => Call::Update(key, row(1, "where")?, row(2, "set")?),
        "db.delete" => Call::Remove(key, row(1, "where")?),
        other => return Err(type_error(ctx, format!("no cache or DB call {other}"))),
    })
}

/// A native that sends the call `name` (see [`call_of`]), with its
/// `length`, named as its object's property (`find` for `db.find`).
fn call_native<'js>(
    ctx: &Ctx<'js>,
    link: &Rc<Link>,
    name: &'static str,
    length: usize,
) -> Result<Function<'js>> {
    let link = link.clone();
    let shown = name.strip_prefix("db.").unwrap_or(name);
    Function::new(ctx.clone(), move |ctx: Ctx<'js>, args: Rest<Value<'js>>| {
        send(&link, &ctx, call_of(&ctx, name, &args.0)?)
    })?
    .with_name(shown)?
    .with_length(length)
}

fn top_level_only(ctx: &Ctx<'_>, host: &Host, what: &str) -> Result<()> {
    if host.state.borrow().top_level {
        Ok(())
    } else {
        Err(type_error(
            ctx,
            format!("{what} is top-level only: call it outside handle()"),
        ))
    }
}

fn cache_preset<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let value = to_json(ctx, &arg(ctx, args, 1))?;
    let options = row_arg(ctx, args, 2, "cache.preset's options")?;
    let host = link.host();
    top_level_only(ctx, &host, "cache.preset")?;
    let key = key_arg(ctx, args, 0)?;
    let ms = |name: &str| options.get(name).and_then(Json::as_f64).map(to_micros);
    let expires_at = match (ms("expiresAt"), ms("ttl")) {
        (Some(at), _) => (at > 0).then_some(at),
        (None, Some(ttl)) => (ttl > 0).then_some(ttl),
        (None, None) => None,
    };
    host.state
        .borrow_mut()
        .cache
        .preset(&key, value, expires_at);
    Ok(undefined(ctx))
}

fn fields(ctx: &Ctx<'_>, row: &Row, name: &str) -> Result<Vec<String>> {
    match row.get(name) {
        None | Some(Json::Null) => Ok(Vec::new()),
        Some(Json::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| type_error(ctx, format!("db.table: {name} lists field names")))
            })
            .collect(),
        Some(_) => Err(type_error(
            ctx,
            format!("db.table: {name} is an array of field names"),
        )),
    }
}

fn db_table<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let options = row_arg(ctx, args, 1, "db.table's options")?;
    let host = link.host();
    top_level_only(ctx, &host, "db.table")?;
    let name = key_arg(ctx, args, 0)?;
    let rows = match options.get("rows") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Array(rows)) => rows
            .iter()
            .map(|row| {
                row.as_object()
                    .cloned()
                    .ok_or_else(|| type_error(ctx, "db.table: rows are plain objects"))
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(type_error(ctx, "db.table: rows is an array")),
    };
    let def = TableDef {
        unique: fields(ctx, &options, "unique")?,
        expect_unique: fields(ctx, &options, "expectUnique")?,
        rows,
    };
    let defined = host.state.borrow_mut().tables.define(&name, def);
    defined.map_err(|message| type_error(ctx, message))?;
    Ok(undefined(ctx))
}

// ---------------------------------------------------------------------------
// time

/// Parks a timer slot of `delay` for the running request.
fn park_timer(host: &Host, delay: Micros, position: Option<Position>) -> usize {
    let request = host.current.get();
    let slot = host
        .core
        .borrow_mut()
        .issue(request, Op::Sleep(delay), Site::Script);
    host.mark_last_event(position);
    slot
}

fn sleep<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let delay = ms_arg(ctx, args, 0)?;
    let position = caller_position(link, ctx);
    let (promise, settle) = pending(ctx)?;
    let slot = park_timer(&host, delay, position);
    let waiter = Waiter::Sleep {
        settle,
        server: link.server,
    };
    host.state.borrow_mut().waiting.insert(slot, waiter);
    Ok(promise.into_value())
}

/// `setTimeout`/`setInterval`/`setImmediate`: Node's rules (a delay below
/// 1 ms is 1 ms; an immediate is due now, after what is already due).
fn timer<'js>(
    link: &Link,
    ctx: &Ctx<'js>,
    args: &[Value<'js>],
    repeat: bool,
    immediate: bool,
) -> Result<Value<'js>> {
    let host = link.host();
    let callback = arg(ctx, args, 0)
        .into_function()
        .ok_or_else(|| type_error(ctx, "the callback must be a function"))?;
    let (delay, rest) = if immediate {
        (0, args.get(1..).unwrap_or(&[]))
    } else {
        let delay = ms_arg(ctx, args, 1)?.max(MS);
        (delay, args.get(2..).unwrap_or(&[]))
    };
    let position = caller_position(link, ctx);
    let slot = park_timer(&host, delay, position);
    // The ids count across the run: the order of `setTimeout`s is shared.
    host.core
        .borrow_mut()
        .touches
        .touch(crate::sim::footprint::Object::ScriptShared(1), true);
    let mut state = host.state.borrow_mut();
    let id = state.next_timer;
    state.next_timer += 1;
    state.timers.insert(id, slot);
    state.waiting.insert(
        slot,
        Waiter::Timer {
            id,
            callback: Persistent::save(ctx, callback),
            args: rest
                .iter()
                .map(|value| Persistent::save(ctx, value.clone()))
                .collect(),
            every: repeat.then_some(delay),
            server: link.server,
            frame: host.frame.get(),
        },
    );
    Ok(Value::new_int(ctx.clone(), id as i32))
}

/// `__host.part(name)`: a part of the prelude, run in this realm (its
/// value is the part's function; `prelude.js` calls it once).
fn prelude_part<'js>(_: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let name = key_arg(ctx, args, 0)?;
    super::prelude::part(ctx, &name)
}

/// `__host.digest(algorithm, bytes, key)`: the hash of `bytes` (a
/// `Uint8Array`), or with a `key` its HMAC, as a `Uint8Array`; `null` for
/// an algorithm it does not know (`crypto.createHash` in
/// `prelude/node.js` says which it knows).
fn digest<'js>(_: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    use hmac::digest::common::BlockSizeUser;
    use hmac::digest::Digest;
    use hmac::{KeyInit, Mac, SimpleHmac};
    use rquickjs::TypedArray;
    fn hashed<D: Digest + BlockSizeUser>(bytes: &[u8], key: Option<&[u8]>) -> Vec<u8> {
        match key {
            None => D::digest(bytes).to_vec(),
            Some(key) => {
                let mut mac = <SimpleHmac<D> as KeyInit>::new_from_slice(key)
                    .expect("HMAC takes a key of any length");
                mac.update(bytes);
                mac.finalize().into_bytes().to_vec()
            }
        }
    }
    let bytes_of = |value: Value<'js>| -> Result<Vec<u8>> {
        let array = TypedArray::<u8>::from_value(value)?;
        // SAFETY: the bytes are copied at once, before any JavaScript runs.
        Ok(unsafe { array.as_bytes() }.unwrap_or_default().to_vec())
    };
    let algorithm = key_arg(ctx, args, 0)?;
    let bytes = bytes_of(arg(ctx, args, 1))?;
    let key = match arg(ctx, args, 2) {
        value if value.is_undefined() => None,
        value => Some(bytes_of(value)?),
    };
    let key = key.as_deref();
    let out = match algorithm.as_str() {
        "md5" => hashed::<md5::Md5>(&bytes, key),
        "sha1" => hashed::<sha1::Sha1>(&bytes, key),
        "sha256" => hashed::<sha2::Sha256>(&bytes, key),
        "sha384" => hashed::<sha2::Sha384>(&bytes, key),
        "sha512" => hashed::<sha2::Sha512>(&bytes, key),
        _ => return Ok(Value::new_null(ctx.clone())),
    };
    Ok(TypedArray::<u8>::new(ctx.clone(), out)?.into_value())
}

/// `process.nextTick(callback, ...args)`: queued for the end of the running
/// macrotask's code, before its promise jobs (`run::drain`).
fn next_tick<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let callback = arg(ctx, args, 0).into_function().ok_or_else(|| {
        type_error(
            ctx,
            "The \"callback\" argument of process.nextTick must be of type function",
        )
    })?;
    let tick = NextTick {
        request: host.current.get(),
        frame: host.frame.get(),
        server: link.server,
        callback: Persistent::save(ctx, callback),
        args: args
            .get(1..)
            .unwrap_or(&[])
            .iter()
            .map(|value| Persistent::save(ctx, value.clone()))
            .collect(),
    };
    host.state.borrow_mut().next_ticks.push_back(tick);
    Ok(undefined(ctx))
}

fn set_timeout<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    timer(link, ctx, args, false, false)
}

fn set_interval<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    timer(link, ctx, args, true, false)
}

fn set_immediate<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    timer(link, ctx, args, false, true)
}

/// `clear*`: the timer's macrotask leaves the queue.
fn clear_timer<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let Some(id) = arg(ctx, args, 0).as_number() else {
        return Ok(undefined(ctx));
    };
    let slot = host.state.borrow_mut().timers.remove(&(id as u32));
    if let Some(slot) = slot.filter(|&slot| slot != FIRING) {
        host.state.borrow_mut().waiting.remove(&slot);
        cancel_slot(&host, slot);
    }
    Ok(undefined(ctx))
}

/// Takes a timer's macrotask out of the queue and frees its slot.
pub fn cancel_slot(host: &Host, slot: usize) {
    use crate::sim::queue::Macrotask;
    let mut core = host.core.borrow_mut();
    let pending = core.queue.iter().find(
        |pending| matches!(pending.task, Macrotask::Timer(s) | Macrotask::Complete(s) if s == slot),
    );
    if let Some(pending) = pending {
        core.queue.take(pending.due, pending.seq);
        core.release_slot(slot);
    }
}

fn performance_now<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    let now = link.host().core.borrow().now;
    Ok(Value::new_number(ctx.clone(), now as f64 / MS as f64))
}

/// `Date.now()` and `new Date()` (the prelude's `Date`): virtual time, in
/// whole milliseconds.
fn host_now<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    let now = link.host().core.borrow().now;
    Ok(Value::new_number(ctx.clone(), (now / MS) as f64))
}

fn math_random<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    // One stream for the whole run: the order of draws is shared state.
    host.core
        .borrow_mut()
        .touches
        .touch(crate::sim::footprint::Object::ScriptShared(0), true);
    let draw = {
        let mut state = host.state.borrow_mut();
        state.draws += 1;
        state.random.unit()
    };
    Ok(Value::new_float(ctx.clone(), draw))
}

// ---------------------------------------------------------------------------
// console.log and count

/// A thrown value's parts as an error message names them
/// ([`describe_error`]): strings as they are, the rest as JSON where it
/// can. (`console.log` is prelude.js's, with Node's `util.inspect`.)
fn thrown_text<'js>(ctx: &Ctx<'js>, value: &Value<'js>) -> String {
    match value.type_of() {
        Type::String => return to_text(ctx, value.clone()).unwrap_or_default(),
        Type::Undefined | Type::Uninitialized => return "undefined".to_string(),
        Type::Null | Type::Bool | Type::Int | Type::Float | Type::BigInt => {
            return to_text(ctx, value.clone()).unwrap_or_default()
        }
        Type::Symbol => {
            let description = value
                .as_symbol()
                .and_then(|symbol| symbol.description().ok())
                .and_then(|text| text.as_string().and_then(|s| s.to_string().ok()));
            return format!("Symbol({})", description.unwrap_or_default());
        }
        Type::Function | Type::Constructor => {
            let name = value
                .as_object()
                .and_then(|f| f.get::<_, Value>("name").ok())
                .and_then(|name| name.as_string().and_then(|s| s.to_string().ok()))
                .filter(|name| !name.is_empty());
            return match name {
                Some(name) => format!("[Function: {name}]"),
                None => "[Function (anonymous)]".to_string(),
            };
        }
        _ => {}
    }
    match ctx.json_stringify(value.clone()) {
        Ok(Some(text)) => text.to_string().unwrap_or_default(),
        Ok(None) => "undefined".to_string(),
        Err(_) => {
            let _ = ctx.catch();
            match to_text(ctx, value.clone()) {
                Ok(text) => text,
                Err(_) => {
                    let _ = ctx.catch();
                    "[object]".to_string()
                }
            }
        }
    }
}

/// Records a message as a `Log` event of the running request.
pub fn log(host: &Host, text: String, position: Option<Position>) {
    let index = {
        let mut state = host.state.borrow_mut();
        state.messages.push(text);
        state.messages.len() - 1
    };
    let request = host.current.get();
    host.core.borrow_mut().record(
        request,
        What::Log,
        TraceKey::None,
        Outcome::None,
        Site::Script,
        index as u64,
    );
    host.mark_last_event(position);
}

/// `console.log` and its kin (prelude.js), with their text: a `Log`
/// event at the script's line that called them.
fn host_log<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let text = to_text(ctx, arg(ctx, args, 0))?;
    let position = caller_position(link, ctx);
    log(&link.host(), text, position);
    Ok(undefined(ctx))
}

/// A promise's state and, once settled, its value or reason, for
/// `util.inspect` (`[state, result]`; JavaScript cannot read them).
fn promise_state<'js>(_: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let pair = rquickjs::Array::new(ctx.clone())?;
    let Some(promise) = arg(ctx, args, 0).into_promise() else {
        return Err(type_error(ctx, "not a promise"));
    };
    let (state, result) = match promise.state() {
        PromiseState::Pending => ("pending", None),
        PromiseState::Resolved => ("fulfilled", promise.result::<Value>()),
        PromiseState::Rejected => ("rejected", promise.result::<Value>()),
    };
    pair.set(0, state)?;
    if let Some(result) = result {
        let value = match result {
            Ok(value) => value,
            Err(rquickjs::Error::Exception) => ctx.catch(),
            Err(error) => return Err(error),
        };
        pair.set(1, value)?;
    }
    Ok(pair.into_value())
}

fn count<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let name = key_arg(ctx, args, 0)?;
    let by = match arg(ctx, args, 1) {
        value if value.is_undefined() => 1.0,
        value => to_number(ctx, value)?,
    };
    if name == "stale_served" {
        let mut core = host.core.borrow_mut();
        core.tally.stale_served = core.tally.stale_served.saturating_add(by.max(0.0) as u64);
    } else {
        *host.state.borrow_mut().custom.entry(name).or_insert(0.0) += by;
    }
    Ok(undefined(ctx))
}

// ---------------------------------------------------------------------------
// __host.sql: the `pg` module's queries

/// `__host.sql(text, values, session, origin?, closes?)`: one statement
/// to the simulated PostgreSQL, a promise of its reply as JSON (`{
/// command, rowCount, rows, fields }` or `{ error }`; the prelude makes
/// pg's shapes). The statement is parsed now; an error in it comes back
/// after the round trip, as PostgreSQL's would. `origin`, an `Error` made
/// where the script called `query`, places a statement sent later than
/// that (from its client's queue). `closes`: the ROLLBACK that closes the
/// session's connection (`SqlCall::closes`).
fn host_sql<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    use super::sql::parse as sql;
    let text = match arg(ctx, args, 0).as_string() {
        Some(text) => text.to_string()?,
        None => return Err(type_error(ctx, "pg: a query is a string")),
    };
    let values = match to_json(ctx, &arg(ctx, args, 1))? {
        Json::Array(values) => values,
        Json::Null => Vec::new(),
        _ => return Err(type_error(ctx, "pg: a query's values are an array")),
    };
    let Some(session) = arg(ctx, args, 2).as_number().map(|n| n as u64) else {
        return Err(type_error(ctx, "pg: a query goes on a client's session"));
    };
    let closes = arg(ctx, args, 4).as_bool() == Some(true);
    // Kept in a run with no trace too when the code may change a row in
    // place: whether that acted on a stale check reads the code between a
    // row's read and its write (`Run::note_row_access`), so explore counts
    // what the debugger shows.
    let keep = link.host.borrow().keep_trace || link.host().row_positions.get();
    let position = match arg(ctx, args, 3).into_object() {
        Some(origin) if keep => {
            let stack: Option<String> = origin.get("stack").ok();
            stack
                .as_deref()
                .and_then(|stack| link.host().position_of(&code_frames(stack)))
        }
        Some(_) => None,
        None => row_position(link, ctx),
    };
    let sent = link
        .host()
        .mirror
        .borrow()
        .is_some()
        .then(|| (text.clone(), values.clone()));
    let plan = sql::parse(&text).and_then(|mut plan| {
        let wanted = sql::params(&plan);
        if values.is_empty() && wanted > 0 {
            // pg sends a query without values as a simple query.
            return Err(super::sql::SqlError::new(
                "42P02",
                format!("there is no parameter ${}", sql::first_param(&plan)),
            ));
        }
        if values.len() != wanted {
            return Err(super::sql::SqlError::new(
                "08P01",
                format!(
                    "bind message supplies {} parameters, but prepared statement \"\" requires {wanted}",
                    values.len()
                ),
            ));
        }
        sql::bind(&mut plan, &values);
        Ok(plan)
    });
    let key = match &plan {
        // A sleep is named for what it does: the trace and the event loop
        // show `SELECT pg_sleep (70 ms)`.
        Ok(plan) if plan.sleep().is_some() => "pg_sleep".to_string(),
        // A savepoint's statements are named for it.
        Ok(sql::Plan::Savepoint(name) | sql::Plan::Release(name) | sql::Plan::RollbackTo(name)) => {
            name.clone()
        }
        // A parameter's statements are named for it.
        Ok(sql::Plan::Set { name, .. } | sql::Plan::Show { name, .. }) => name.clone(),
        Ok(sql::Plan::Reset(name)) => name.clone().unwrap_or_else(|| "all".to_string()),
        Ok(plan) => plan.reached().unwrap_or("transaction").to_string(),
        Err(_) => "sql".to_string(),
    };
    send_from(
        link,
        ctx,
        Call::Sql(Box::new(SqlCall {
            plan,
            session,
            closes,
            key,
            sent,
        })),
        position,
    )
}

/// `__host.session()`: a new `pg` client session (its transaction state).
fn host_session<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let mut state = host.state.borrow_mut();
    state.sessions += 1;
    Ok(Value::new_number(ctx.clone(), state.sessions as f64))
}

/// `__host.closes(session)`: whether the close of client session
/// `session`'s connection changes anything (a transaction block to roll
/// back, session-level advisory locks to release).
fn host_closes<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let session = arg(ctx, args, 0).as_number().map(|n| n as u64);
    let state = &link.host().state;
    let matters = session.is_some_and(|s| state.borrow().sql.closing_matters(s));
    Ok(Value::new_bool(ctx.clone(), matters))
}

// ---------------------------------------------------------------------------
// __host: the lock strategies, for the prelude's lock, guard, singleflight

/// The running request's handle on the world, as the built-in bodies
/// have: one per request for its whole life.
fn world_ctx(host: &Rc<Host>, server: u32) -> (Rc<WorldCtx>, TaskId) {
    let request = host.current.get();
    let mut state = host.state.borrow_mut();
    let cx = state.contexts.entry(request).or_insert_with(|| {
        Rc::new(WorldCtx::new(
            host.core.clone(),
            host.config.clone(),
            request,
            server,
        ))
    });
    (cx.clone(), request)
}

/// Runs a strategy's future for the running request: a promise of its
/// answer (settled now if it needs no wait).
fn spawn<'js>(
    link: &Link,
    ctx: &Ctx<'js>,
    request: TaskId,
    future: impl std::future::Future<Output = Answer> + 'static,
) -> Result<Value<'js>> {
    let host = link.host();
    let mut future = Box::pin(future);
    host.core.borrow_mut().current = request;
    let mut task = TaskContext::from_waker(Waker::noop());
    let (promise, settle) = pending(ctx)?;
    if let Poll::Ready(answer) = future.as_mut().poll(&mut task) {
        let resolve = settle.resolve.restore(ctx)?;
        resolve.call::<_, ()>((answer.value(ctx),))?;
        return Ok(promise.into_value());
    }
    let helper = Helper {
        future,
        settle,
        server: link.server,
    };
    host.state
        .borrow_mut()
        .helpers
        .entry(request)
        .or_default()
        .push(helper);
    Ok(promise.into_value())
}

fn lock_key<'js>(ctx: &Ctx<'js>, host: &Host, args: &[Value<'js>]) -> Result<LockKey> {
    let key = key_arg(ctx, args, 0)?;
    Ok(LockKey(host.intern(&key)))
}

fn host_acquire<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let key = lock_key(ctx, &host, args)?;
    let (cx, request) = world_ctx(&host, link.server);
    let future = async move { Answer::Bool(strategy::acquire(&*cx, key).await) };
    spawn(link, ctx, request, future)
}

fn host_release<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let key = lock_key(ctx, &host, args)?;
    let (cx, request) = world_ctx(&host, link.server);
    let future = async move {
        strategy::release(&*cx, key).await;
        Answer::Undefined
    };
    spawn(link, ctx, request, future)
}

/// Enters the critical section; true if the `crash` fault stops this
/// request here.
fn host_enter<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let key = lock_key(ctx, &host, args)?;
    let (cx, _) = world_ctx(&host, link.server);
    cx.enter(key);
    Ok(Value::new_bool(ctx.clone(), cx.crashes(key)))
}

fn host_exit<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let key = lock_key(ctx, &host, args)?;
    let (cx, _) = world_ctx(&host, link.server);
    cx.exit(key);
    Ok(undefined(ctx))
}

/// The request crashed: it answers `Crashed` now and never goes on.
fn host_crash<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let request = host.current.get();
    if request != crate::sim::trace::NO_REQUEST {
        host.core.borrow_mut().respond(request, Outcome::Crashed);
    }
    let (promise, _, _) = Promise::new(ctx)?;
    Ok(promise.into_value())
}

/// The `pause` fault's timer if it is due for this request, else undefined.
fn host_pause<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let (cx, request) = world_ctx(&host, link.server);
    let due = host
        .config
        .pause
        .is_some_and(|pause| pause.request == request && pause.duration > 0);
    if !due {
        return Ok(undefined(ctx));
    }
    let future = async move {
        cx.pause_if_due().await;
        Answer::Undefined
    };
    spawn(link, ctx, request, future)
}

/// Joins this server's flight for the key: a promise of the leader's
/// result handle, or undefined (the caller leads).
fn host_flight_join<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let key = lock_key(ctx, &host, args)?;
    let (cx, request) = world_ctx(&host, link.server);
    let Some(wait) = cx.flight_join(key, Site::Flight).map(|wait| wait.detach()) else {
        return Ok(undefined(ctx));
    };
    let future = async move { Answer::Number(cx.resume(wait).await as f64) };
    spawn(link, ctx, request, future)
}

/// The leader is done: every joiner gets `handle` as a microtask.
fn host_flight_finish<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let key = lock_key(ctx, &host, args)?;
    let handle = to_number(ctx, arg(ctx, args, 1))? as u64;
    let (cx, _) = world_ctx(&host, link.server);
    cx.flight_finish(key, handle);
    Ok(undefined(ctx))
}

/// The request whose code is running (`runAs`'s first argument).
fn host_request<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    let request = link.host().current.get();
    Ok(Value::new_number(ctx.clone(), f64::from(request)))
}

/// `runAs(request, fn, frame)`: calls `fn` now as `request` (its lane,
/// its counts, the request its own `await`s resume as), in `frame` if it
/// is given (else the caller's `AsyncLocalStorage` frame), then goes on as
/// the caller: Node's `AsyncResource.runInAsyncScope`, for a library that
/// starts a function another request queued inside its own call
/// (async-lock and p-limit starting the next waiter, a `pg` client its
/// next query).
fn host_run_as<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let host = link.host();
    let request = to_number(ctx, arg(ctx, args, 0))? as TaskId;
    let callback = arg(ctx, args, 1)
        .into_function()
        .ok_or_else(|| type_error(ctx, "runAs takes a function"))?;
    let frame = match arg(ctx, args, 2).as_number() {
        Some(frame) => frame as u32,
        None => host.frame.get(),
    };
    let (outer, running) = (host.frame.replace(frame), host.current.get());
    host.run_as(request);
    let result = callback.call::<_, Value>(());
    host.frame.set(outer);
    host.run_as(running);
    result
}

/// `frame()`: the running code's `AsyncLocalStorage` frame
/// (`Host::frame`).
fn host_frame<'js>(link: &Link, ctx: &Ctx<'js>, _: &[Value<'js>]) -> Result<Value<'js>> {
    Ok(Value::new_number(
        ctx.clone(),
        f64::from(link.host().frame.get()),
    ))
}

/// `setFrame(frame)`: the running code's `AsyncLocalStorage` frame from
/// now on (`AsyncLocalStorage.run` and `enterWith`).
fn host_set_frame<'js>(link: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let frame = to_number(ctx, arg(ctx, args, 0))?;
    link.host().frame.set(frame as u32);
    Ok(undefined(ctx))
}

/// The message and the script position of a thrown value.
/// An error's stack as V8 writes it, from the line that made it: the
/// engine also lists the constructors it was made in (a subclass's
/// `constructor` calling `super`), which V8 leaves out, so an error made
/// by `new HttpError(...)` points at that line, not into the class; and
/// without the prelude's frames.
fn own_stack<'js>(stack: String, error: &Object<'js>) -> String {
    let mut constructors = Vec::new();
    let mut prototype = error.get_prototype();
    while let Some(object) = prototype {
        let name = object
            .get::<_, Object>("constructor")
            .and_then(|constructor| constructor.get::<_, String>("name"));
        if let Ok(name) = name {
            constructors.push(name);
        }
        prototype = object.get_prototype();
    }
    let made_in = |line: &&str| {
        line.trim_start()
            .strip_prefix("at ")
            .and_then(|rest| rest.split(" (").next())
            .is_some_and(|name| constructors.iter().any(|constructor| constructor == name))
    };
    // The stack's first lines are the error's `name: message` (see
    // prelude.js, `stackHead`); the prelude's own frames are the
    // simulation's, not the script's.
    let is_frame = |line: &&str| line.trim_start().starts_with("at ");
    let lines: Vec<&str> = stack
        .lines()
        .skip_while(|line| !is_frame(line))
        .skip_while(made_in)
        .filter(|line| !line.contains("(prelude"))
        .collect();
    lines.join("\n")
}

/// `error.stack` without the frames of the constructors that made it
/// ([`own_stack`]), for `util.inspect` (prelude/inspect.js).
fn stack_of<'js>(_: &Link, ctx: &Ctx<'js>, args: &[Value<'js>]) -> Result<Value<'js>> {
    let error = arg(ctx, args, 0);
    let Some(object) = error.as_object() else {
        return Ok(undefined(ctx));
    };
    let Some(stack) = object.get::<_, Option<String>>("stack").ok().flatten() else {
        drop(ctx.catch());
        return Ok(undefined(ctx));
    };
    let text = own_stack(stack, object);
    Ok(rquickjs::String::from_str(ctx.clone(), &text)?.into_value())
}

pub fn describe_error<'js>(ctx: &Ctx<'js>, error: &Value<'js>) -> String {
    let Some(object) = error.as_object() else {
        return thrown_text(ctx, error);
    };
    let get = |name: &str| {
        let value = object.get::<_, Value>(name);
        match value {
            Ok(value) if !value.is_undefined() => Some(thrown_text(ctx, &value)),
            Ok(_) => None,
            Err(_) => {
                let _ = ctx.catch();
                None
            }
        }
    };
    let name = get("name").unwrap_or_else(|| "Error".into());
    let message = get("message").unwrap_or_default();
    let stack = own_stack(get("stack").unwrap_or_default(), object);
    match code_position(&stack).or_else(|| recursion_position(ctx, &name, &message)) {
        Some((line, column)) => format!("{name}: {message} (line {line}, column {column})"),
        None => format!("{name}: {message}"),
    }
}

/// The script's code, kept with its realm's context.
pub struct ScriptCode(pub Rc<str>);

// SAFETY: it holds no JavaScript value.
unsafe impl<'js> rquickjs::JsLifetime<'js> for ScriptCode {
    type Changed<'to> = ScriptCode;
}

/// An error made where the native stack was full could not call the
/// prelude's `Error.prepareStackTrace` hook, and the engine kept no stack
/// for it: its line is the script's first call of a function from inside
/// its own body, if there is one.
fn recursion_position(ctx: &Ctx<'_>, name: &str, message: &str) -> Option<(u32, u32)> {
    if name != "RangeError" || message != "Maximum call stack size exceeded" {
        return None;
    }
    let code = ctx.userdata::<ScriptCode>()?;
    super::error::recursive_call(&code.0)
}
