//! The natives behind SCRIPTING.md §3: `cache`, `db`, timers, `sleep`,
//! `console.log`, `count`, `config`, `performance`, `Math.random`, and the
//! hidden `__host` the prelude builds `lock`, `guard`, `singleflight` on.

use std::rc::Rc;
use std::task::{Context as TaskContext, Poll, Waker};

use boa_engine::builtins::object::OrdinaryObject;
use boa_engine::object::builtins::JsPromise;
use boa_engine::object::ObjectInitializer;
use boa_engine::property::{Attribute, PropertyKey};
use boa_engine::vm::SourcePath;
use boa_engine::{
    js_string, Context, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue, JsVariant,
    NativeFunction,
};
use serde_json::{json, Value};

use crate::config::{CacheStart, Micros, MS};
use crate::sim::core::{Op, ScriptOp, TaskId};
use crate::sim::trace::{OpKind, Outcome, Site, TraceKey, What};
use crate::sim::{Ctx, Ops};
use crate::strategy;
use crate::world::LockKey;

use super::host::{Answer, Call, Helper, Host, Position, Waiter, FIRING};
use super::world::{Row, TableDef};

/// What every native of a realm finds in its context.
pub struct RealmData {
    pub host: Rc<Host>,
    pub server: u32,
}

fn realm(context: &Context) -> JsResult<(Rc<Host>, u32)> {
    context
        .get_data::<RealmData>()
        .map(|data| (data.host.clone(), data.server))
        .ok_or_else(|| JsNativeError::error().with_message("no host").into())
}

fn type_error(message: impl Into<String>) -> JsError {
    JsNativeError::typ().with_message(message.into()).into()
}

/// The line and column of the innermost frame of the script's own code
/// (only when the trace is kept: a metrics-only run has no use for it).
pub fn caller_position(context: &Context) -> Option<Position> {
    let keep = context
        .get_data::<RealmData>()
        .is_some_and(|data| data.host.keep_trace);
    if !keep {
        return None;
    }
    context.stack_trace().find_map(|frame| {
        let location = frame.position();
        let SourcePath::Path(path) = &location.path else {
            return None;
        };
        if path.to_str() != Some("code") {
            return None;
        }
        location
            .position
            .map(|p| (p.line_number(), p.column_number()))
    })
}

fn arg(args: &[JsValue], index: usize) -> JsValue {
    args.get(index).cloned().unwrap_or_default()
}

fn key_arg(args: &[JsValue], index: usize, context: &mut Context) -> JsResult<String> {
    let key = arg(args, index).to_string(context)?;
    // The escaped form differs only for a lone surrogate; the plain
    // conversion skips the formatter on every call.
    Ok(key
        .to_std_string()
        .unwrap_or_else(|_| key.to_std_string_escaped()))
}

/// How deep a value sent to the cache or the DB may nest (a cycle is
/// caught here).
const MAX_JSON_DEPTH: usize = 64;

/// How many objects and arrays one value sent to the cache or the DB may
/// hold: a small object reached through many paths (`a = [b, b]`, `b = [c,
/// c]`, ...) would otherwise be copied exponentially many times.
const MAX_JSON_OBJECTS: usize = 1_000_000;

fn not_json(message: impl std::fmt::Display) -> JsError {
    type_error(format!("values are JSON: {message}"))
}

/// A value copied out of the script, as over a network: JSON only, in one
/// walk. Plain objects (their own enumerable string keys, in
/// `Object.keys` order, each getter read once), arrays, strings, numbers,
/// booleans and null cross; an undefined field is dropped and an undefined
/// item becomes null, as with `JSON.stringify`. A function, a symbol, a
/// bigint, a `Map` or a class instance anywhere in the value is a
/// TypeError naming it, before anything is sent.
pub fn to_json(value: &JsValue, context: &mut Context) -> JsResult<Value> {
    let mut objects = 0;
    Ok(copy_json(value, 0, &mut objects, context)?.unwrap_or(Value::Null))
}

fn copy_json(
    value: &JsValue,
    depth: usize,
    objects: &mut usize,
    context: &mut Context,
) -> JsResult<Option<Value>> {
    let object = match value.variant() {
        JsVariant::Null => return Ok(Some(Value::Null)),
        JsVariant::Undefined => return Ok(None),
        JsVariant::Boolean(b) => return Ok(Some(Value::from(b))),
        JsVariant::String(text) => return Ok(Some(text.to_std_string_escaped().into())),
        JsVariant::Float64(number) => return Ok(Some(Value::from(number))),
        JsVariant::Integer32(number) => return Ok(Some(Value::from(number))),
        JsVariant::BigInt(_) => {
            return Err(not_json("a bigint cannot be sent to the cache or the DB"))
        }
        JsVariant::Symbol(_) => {
            return Err(not_json("a symbol cannot be sent to the cache or the DB"))
        }
        JsVariant::Object(object) => object,
    };
    if object.is_callable() {
        return Err(not_json("a function cannot be sent to the cache or the DB"));
    }
    if depth > MAX_JSON_DEPTH {
        return Err(not_json("nested too deep (a cycle?)"));
    }
    *objects += 1;
    if *objects > MAX_JSON_OBJECTS {
        return Err(not_json(format!(
            "more than {MAX_JSON_OBJECTS} objects (one object reached through many paths?)"
        )));
    }
    if object.is_array() {
        let length = object
            .get(js_string!("length"), context)?
            .to_length(context)?;
        let mut items = Vec::with_capacity(length.min(1 << 16) as usize);
        for index in 0..length {
            let item = own_data(&object, &PropertyKey::from(index))
                .map_or_else(|| object.get(index, context), Ok)?;
            items.push(copy_json(&item, depth + 1, objects, context)?.unwrap_or(Value::Null));
        }
        return Ok(Some(Value::Array(items)));
    }
    let plain = match object.prototype() {
        None => true,
        Some(prototype) => prototype == context.intrinsics().constructors().object().prototype(),
    };
    if !plain {
        return Err(not_json(format!(
            "a {} cannot be sent to the cache or the DB",
            constructor_name(&object, context)?
        )));
    }
    let mut fields = serde_json::Map::new();
    for key in object.own_property_keys(context)? {
        let name = match &key {
            PropertyKey::String(name) => name.to_std_string_escaped(),
            PropertyKey::Index(index) => index.get().to_string(),
            PropertyKey::Symbol(_) => continue,
        };
        let Some(property) = object.borrow().properties().get(&key) else {
            continue;
        };
        if property.enumerable() != Some(true) {
            continue;
        }
        let field = match (object.is::<OrdinaryObject>(), property.value()) {
            (true, Some(value)) => value.clone(),
            _ => object.get(key, context)?,
        };
        if let Some(field) = copy_json(&field, depth + 1, objects, context)? {
            fields.insert(name, field);
        }
    }
    Ok(Some(Value::Object(fields)))
}

/// An ordinary object's or array's own data property, read without the
/// `[[Get]]` machinery (the same value); `None` when `[[Get]]` must run
/// (an accessor, a hole, an exotic object).
fn own_data(object: &JsObject, key: &PropertyKey) -> Option<JsValue> {
    if !(object.is::<OrdinaryObject>() || object.is_array()) {
        return None;
    }
    let property = object.borrow().properties().get(key)?;
    property.value().cloned()
}

/// `value.constructor && value.constructor.name || "object"`.
fn constructor_name(object: &JsObject, context: &mut Context) -> JsResult<String> {
    let constructor = object.get(js_string!("constructor"), context)?;
    let name = match constructor.as_object() {
        Some(constructor) => constructor.get(js_string!("name"), context)?,
        None => JsValue::undefined(),
    };
    Ok(if name.to_boolean() {
        name.to_string(context)?.to_std_string_escaped()
    } else {
        "object".to_string()
    })
}

fn row_arg(args: &[JsValue], index: usize, what: &str, context: &mut Context) -> JsResult<Row> {
    match to_json(&arg(args, index), context)? {
        Value::Object(row) => Ok(row),
        Value::Null => Ok(Row::new()),
        _ => Err(type_error(format!("{what} must be a plain object"))),
    }
}

/// A duration argument in ms, as whole microseconds (never negative).
fn ms_arg(args: &[JsValue], index: usize, context: &mut Context) -> JsResult<Micros> {
    let value = arg(args, index);
    if value.is_undefined() {
        return Ok(0);
    }
    let ms = value.to_number(context)?;
    Ok(to_micros(ms))
}

fn to_micros(ms: f64) -> Micros {
    if ms.is_nan() || ms <= 0.0 {
        0
    } else {
        (ms * 1000.0).min(86_400e6 * 365.0).round() as Micros
    }
}

fn function(f: fn(&JsValue, &[JsValue], &mut Context) -> JsResult<JsValue>) -> NativeFunction {
    NativeFunction::from_fn_ptr(f)
}

/// Registers every native global of a realm.
pub fn register(context: &mut Context) -> JsResult<()> {
    let attributes = Attribute::WRITABLE | Attribute::CONFIGURABLE;
    let cache = ObjectInitializer::new(context)
        .function(function(cache_get), js_string!("get"), 1)
        .function(function(cache_get_stale), js_string!("getStale"), 1)
        .function(function(cache_set), js_string!("set"), 3)
        .function(function(cache_add), js_string!("add"), 3)
        .function(function(cache_delete), js_string!("delete"), 1)
        .function(function(cache_delete_if), js_string!("deleteIf"), 2)
        .function(function(cache_incr), js_string!("incr"), 2)
        .function(function(cache_preset), js_string!("preset"), 3)
        .build();
    context.register_global_property(js_string!("cache"), cache, attributes)?;
    let db = ObjectInitializer::new(context)
        .function(function(db_table), js_string!("table"), 2)
        .function(function(db_find), js_string!("find"), 2)
        .function(function(db_find_one), js_string!("findOne"), 2)
        .function(function(db_insert), js_string!("insert"), 2)
        .function(function(db_update), js_string!("update"), 3)
        .function(function(db_delete), js_string!("delete"), 2)
        .build();
    context.register_global_property(js_string!("db"), db, attributes)?;
    let console = ObjectInitializer::new(context)
        .function(function(console_log), js_string!("log"), 0)
        .function(function(console_log), js_string!("info"), 0)
        .function(function(console_log), js_string!("warn"), 0)
        .function(function(console_log), js_string!("error"), 0)
        .build();
    context.register_global_property(js_string!("console"), console, attributes)?;
    let performance = ObjectInitializer::new(context)
        .function(function(performance_now), js_string!("now"), 0)
        .build();
    context.register_global_property(js_string!("performance"), performance, attributes)?;
    for (name, f, length) in [
        ("sleep", sleep as NativeFn, 1),
        ("setTimeout", set_timeout, 2),
        ("setInterval", set_interval, 2),
        ("setImmediate", set_immediate, 1),
        ("clearTimeout", clear_timer, 1),
        ("clearInterval", clear_timer, 1),
        ("clearImmediate", clear_timer, 1),
        ("count", count, 2),
    ] {
        context.register_global_callable(JsString::from(name), length, function(f))?;
    }
    let math = context
        .global_object()
        .get(js_string!("Math"), context)?
        .as_object()
        .ok_or_else(|| type_error("no Math"))?;
    let random = function(math_random).to_js_function(context.realm());
    math.set(js_string!("random"), random, false, context)?;
    let (host_data, _) = realm(context)?;
    let config = JsValue::from_json(&config_json(&host_data), context)?;
    let hidden = ObjectInitializer::new(context)
        .function(function(host_acquire), js_string!("acquire"), 1)
        .function(function(host_release), js_string!("release"), 1)
        .function(function(host_enter), js_string!("enter"), 1)
        .function(function(host_exit), js_string!("exit"), 1)
        .function(function(host_crash), js_string!("crash"), 0)
        .function(function(host_pause), js_string!("pause"), 0)
        .function(function(host_flight_join), js_string!("flightJoin"), 1)
        .function(function(host_flight_finish), js_string!("flightFinish"), 2)
        .property(js_string!("config"), config, Attribute::all())
        .build();
    context.register_global_property(js_string!("__host"), hidden, attributes)?;
    Ok(())
}

type NativeFn = fn(&JsValue, &[JsValue], &mut Context) -> JsResult<JsValue>;

/// `config`: the fragment's keys after defaults, durations in ms.
fn config_json(host: &Host) -> Value {
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

/// Sends one operation: a promise that settles when it lands.
fn send(kind: OpKind, call: Call, context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let position = caller_position(context);
    let promise = JsPromise::new_pending_bare(context);
    let key = host.intern(call.key());
    let request = host.current.get();
    let op = Op::Script(ScriptOp { kind, key });
    let slot = host.core.borrow_mut().issue(request, op, Site::Script);
    host.mark_last_event(position);
    host.state.borrow_mut().waiting.insert(
        slot,
        Waiter::Call {
            call,
            promise: promise.clone(),
            server,
            position,
        },
    );
    Ok(promise.into())
}

fn cache_get(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let key = key_arg(args, 0, context)?;
    send(OpKind::CacheGet, Call::Get(key), context)
}

fn cache_get_stale(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let key = key_arg(args, 0, context)?;
    send(OpKind::CacheGetStale, Call::GetStale(key), context)
}

fn cache_set(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let value = to_json(&arg(args, 1), context)?;
    let key = key_arg(args, 0, context)?;
    let ttl = ms_arg(args, 2, context)?;
    send(OpKind::CacheSet, Call::Set(key, value, ttl), context)
}

fn cache_add(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let value = to_json(&arg(args, 1), context)?;
    let key = key_arg(args, 0, context)?;
    let ttl = ms_arg(args, 2, context)?;
    send(OpKind::CacheAdd, Call::Add(key, value, ttl), context)
}

fn cache_delete(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let key = key_arg(args, 0, context)?;
    send(OpKind::CacheDelete, Call::Delete(key), context)
}

fn cache_delete_if(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let value = to_json(&arg(args, 1), context)?;
    let key = key_arg(args, 0, context)?;
    send(OpKind::CacheDeleteIf, Call::DeleteIf(key, value), context)
}

fn cache_incr(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let key = key_arg(args, 0, context)?;
    let by = match arg(args, 1) {
        value if value.is_undefined() => 1.0,
        value => value.to_number(context)?,
    };
    send(OpKind::CacheIncr, Call::Incr(key, by), context)
}

fn top_level_only(host: &Host, what: &str) -> JsResult<()> {
    if host.state.borrow().top_level {
        Ok(())
    } else {
        Err(type_error(format!(
            "{what} is top-level only: call it outside handle()"
        )))
    }
}

fn cache_preset(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let value = to_json(&arg(args, 1), context)?;
    let options = row_arg(args, 2, "cache.preset's options", context)?;
    let (host, _) = realm(context)?;
    top_level_only(&host, "cache.preset")?;
    let key = key_arg(args, 0, context)?;
    let ms = |name: &str| options.get(name).and_then(Value::as_f64).map(to_micros);
    let expires_at = match (ms("expiresAt"), ms("ttl")) {
        (Some(at), _) => (at > 0).then_some(at),
        (None, Some(ttl)) => (ttl > 0).then_some(ttl),
        (None, None) => None,
    };
    host.state
        .borrow_mut()
        .cache
        .preset(&key, value, expires_at);
    Ok(JsValue::undefined())
}

fn fields(row: &Row, name: &str) -> JsResult<Vec<String>> {
    match row.get(name) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| type_error(format!("db.table: {name} lists field names")))
            })
            .collect(),
        Some(_) => Err(type_error(format!(
            "db.table: {name} is an array of field names"
        ))),
    }
}

fn db_table(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let options = row_arg(args, 1, "db.table's options", context)?;
    let (host, _) = realm(context)?;
    top_level_only(&host, "db.table")?;
    let name = key_arg(args, 0, context)?;
    let rows = match options.get("rows") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(rows)) => rows
            .iter()
            .map(|row| {
                row.as_object()
                    .cloned()
                    .ok_or_else(|| type_error("db.table: rows are plain objects"))
            })
            .collect::<JsResult<_>>()?,
        Some(_) => return Err(type_error("db.table: rows is an array")),
    };
    let def = TableDef {
        unique: fields(&options, "unique")?,
        expect_unique: fields(&options, "expectUnique")?,
        rows,
    };
    let defined = host.state.borrow_mut().tables.define(&name, def);
    defined.map_err(type_error)?;
    Ok(JsValue::undefined())
}

fn db_find(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let filter = row_arg(args, 1, "db.find's where", context)?;
    let table = key_arg(args, 0, context)?;
    send(OpKind::DbFind, Call::Find(table, filter), context)
}

fn db_find_one(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let filter = row_arg(args, 1, "db.findOne's where", context)?;
    let table = key_arg(args, 0, context)?;
    send(OpKind::DbFindOne, Call::FindOne(table, filter), context)
}

fn db_insert(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let row = row_arg(args, 1, "db.insert's row", context)?;
    let table = key_arg(args, 0, context)?;
    send(OpKind::DbInsert, Call::Insert(table, row), context)
}

fn db_update(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let filter = row_arg(args, 1, "db.update's where", context)?;
    let set = row_arg(args, 2, "db.update's set", context)?;
    let table = key_arg(args, 0, context)?;
    send(OpKind::DbUpdate, Call::Update(table, filter, set), context)
}

fn db_delete(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let filter = row_arg(args, 1, "db.delete's where", context)?;
    let table = key_arg(args, 0, context)?;
    send(OpKind::DbDelete, Call::Remove(table, filter), context)
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

fn sleep(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let delay = ms_arg(args, 0, context)?;
    let position = caller_position(context);
    let promise = JsPromise::new_pending_bare(context);
    let slot = park_timer(&host, delay, position);
    let waiter = Waiter::Sleep {
        promise: promise.clone(),
        server,
    };
    host.state.borrow_mut().waiting.insert(slot, waiter);
    Ok(promise.into())
}

/// `setTimeout`/`setInterval`/`setImmediate`: Node's rules (a delay below
/// 1 ms is 1 ms; an immediate is due now, after what is already due).
fn timer(
    args: &[JsValue],
    repeat: bool,
    immediate: bool,
    context: &mut Context,
) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let callback = arg(args, 0)
        .as_callable()
        .ok_or_else(|| type_error("the callback must be a function"))?;
    let (delay, rest) = if immediate {
        (0, args.get(1..).unwrap_or(&[]))
    } else {
        let delay = ms_arg(args, 1, context)?.max(MS);
        (delay, args.get(2..).unwrap_or(&[]))
    };
    let position = caller_position(context);
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
            callback,
            args: rest.to_vec(),
            every: repeat.then_some(delay),
            server,
        },
    );
    Ok(JsValue::from(id))
}

fn set_timeout(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    timer(args, false, false, context)
}

fn set_interval(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    timer(args, true, false, context)
}

fn set_immediate(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    timer(args, false, true, context)
}

/// `clear*`: the timer's macrotask leaves the queue.
fn clear_timer(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, _) = realm(context)?;
    let Some(id) = arg(args, 0).as_number() else {
        return Ok(JsValue::undefined());
    };
    let slot = host.state.borrow_mut().timers.remove(&(id as u32));
    if let Some(slot) = slot.filter(|&slot| slot != FIRING) {
        host.state.borrow_mut().waiting.remove(&slot);
        cancel_slot(&host, slot);
    }
    Ok(JsValue::undefined())
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

fn performance_now(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, _) = realm(context)?;
    let now = host.core.borrow().now;
    Ok(JsValue::from(now as f64 / MS as f64))
}

fn math_random(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, _) = realm(context)?;
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
    Ok(JsValue::from(draw))
}

// ---------------------------------------------------------------------------
// console.log and count

/// How `console.log` shows a value: strings as they are, the rest as JSON
/// where it can.
fn show(value: &JsValue, context: &mut Context) -> String {
    if let Some(text) = value.as_string() {
        return text.to_std_string_escaped();
    }
    if value.is_undefined() {
        return "undefined".to_string();
    }
    if value.as_number().is_some() || value.as_boolean().is_some() || value.is_null() {
        if let Ok(text) = value.to_string(context) {
            return text.to_std_string_escaped();
        }
    }
    if value.as_callable().is_none() {
        if let Ok(Some(json)) = value.to_json(context) {
            return json.to_string();
        }
    }
    value.display().to_string()
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

fn console_log(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, _) = realm(context)?;
    let text = args
        .iter()
        .map(|value| show(value, context))
        .collect::<Vec<_>>()
        .join(" ");
    let position = caller_position(context);
    log(&host, text, position);
    Ok(JsValue::undefined())
}

fn count(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, _) = realm(context)?;
    let name = key_arg(args, 0, context)?;
    let by = match arg(args, 1) {
        value if value.is_undefined() => 1.0,
        value => value.to_number(context)?,
    };
    if name == "stale_served" {
        let mut core = host.core.borrow_mut();
        core.tally.stale_served = core.tally.stale_served.saturating_add(by.max(0.0) as u64);
    } else {
        *host.state.borrow_mut().custom.entry(name).or_insert(0.0) += by;
    }
    Ok(JsValue::undefined())
}

// ---------------------------------------------------------------------------
// __host: the lock strategies, for the prelude's lock, guard, singleflight

/// The running request's handle on the world, as the built-in bodies
/// have: one per request for its whole life.
fn ctx(host: &Rc<Host>, server: u32) -> (Rc<Ctx>, TaskId) {
    let request = host.current.get();
    let mut state = host.state.borrow_mut();
    let cx = state.contexts.entry(request).or_insert_with(|| {
        Rc::new(Ctx::new(
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
fn spawn(
    host: &Rc<Host>,
    server: u32,
    request: TaskId,
    future: impl std::future::Future<Output = Answer> + 'static,
    context: &mut Context,
) -> JsResult<JsValue> {
    let mut future = Box::pin(future);
    host.core.borrow_mut().current = request;
    let mut task = TaskContext::from_waker(Waker::noop());
    if let Poll::Ready(answer) = future.as_mut().poll(&mut task) {
        return Ok(JsPromise::resolve(answer.value(), context)?.into());
    }
    let promise = JsPromise::new_pending_bare(context);
    let helper = Helper {
        future,
        promise: promise.clone(),
        server,
    };
    host.state
        .borrow_mut()
        .helpers
        .entry(request)
        .or_default()
        .push(helper);
    Ok(promise.into())
}

fn lock_key(host: &Host, args: &[JsValue], context: &mut Context) -> JsResult<LockKey> {
    let key = key_arg(args, 0, context)?;
    Ok(LockKey(host.intern(&key)))
}

fn host_acquire(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let key = lock_key(&host, args, context)?;
    let (cx, request) = ctx(&host, server);
    let future = async move { Answer::Bool(strategy::acquire(&*cx, key).await) };
    spawn(&host, server, request, future, context)
}

fn host_release(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let key = lock_key(&host, args, context)?;
    let (cx, request) = ctx(&host, server);
    let future = async move {
        strategy::release(&*cx, key).await;
        Answer::Undefined
    };
    spawn(&host, server, request, future, context)
}

/// Enters the critical section; true if the `crash` fault stops this
/// request here.
fn host_enter(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let key = lock_key(&host, args, context)?;
    let (cx, _) = ctx(&host, server);
    cx.enter(key);
    Ok(JsValue::from(cx.crashes(key)))
}

fn host_exit(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let key = lock_key(&host, args, context)?;
    let (cx, _) = ctx(&host, server);
    cx.exit(key);
    Ok(JsValue::undefined())
}

/// The request crashed: it answers `Crashed` now and never goes on.
fn host_crash(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, _) = realm(context)?;
    let request = host.current.get();
    if request != crate::sim::trace::NO_REQUEST {
        host.core.borrow_mut().respond(request, Outcome::Crashed);
    }
    let (promise, _) = JsPromise::new_pending(context);
    Ok(promise.into())
}

/// The `pause` fault's timer if it is due for this request, else undefined.
fn host_pause(_: &JsValue, _: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let (cx, request) = ctx(&host, server);
    let due = host
        .config
        .pause
        .is_some_and(|pause| pause.request == request && pause.duration > 0);
    if !due {
        return Ok(JsValue::undefined());
    }
    let future = async move {
        cx.pause_if_due().await;
        Answer::Undefined
    };
    spawn(&host, server, request, future, context)
}

/// Joins this server's flight for the key: a promise of the leader's
/// result handle, or undefined (the caller leads).
fn host_flight_join(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let key = lock_key(&host, args, context)?;
    let (cx, request) = ctx(&host, server);
    let Some(wait) = cx.flight_join(key, Site::Flight).map(|wait| wait.detach()) else {
        return Ok(JsValue::undefined());
    };
    let future = async move { Answer::Number(cx.resume(wait).await as f64) };
    spawn(&host, server, request, future, context)
}

/// The leader is done: every joiner gets `handle` as a microtask.
fn host_flight_finish(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let (host, server) = realm(context)?;
    let key = lock_key(&host, args, context)?;
    let handle = arg(args, 1).to_number(context)? as u64;
    let (cx, _) = ctx(&host, server);
    cx.flight_finish(key, handle);
    Ok(JsValue::undefined())
}

/// The message and the script position of a thrown value.
pub fn describe_error(error: &JsValue, context: &mut Context) -> String {
    let Some(object) = error.as_object() else {
        return show(error, context);
    };
    let get = |object: &JsObject, name: JsString, context: &mut Context| {
        object
            .get(name, context)
            .ok()
            .filter(|value| !value.is_undefined())
            .map(|value| show(&value, context))
    };
    let name = get(&object, js_string!("name"), context).unwrap_or_else(|| "Error".into());
    let message = get(&object, js_string!("message"), context).unwrap_or_default();
    let stack = get(&object, js_string!("stack"), context).unwrap_or_default();
    match super::error::find_position(&stack) {
        Some((line, column)) => format!("{name}: {message} (line {line}, column {column})"),
        None => format!("{name}: {message}"),
    }
}
