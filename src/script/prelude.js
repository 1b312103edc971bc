// The part of SCRIPTING.md §3 written in JavaScript, run in every server's
// realm before the script. It stands on the host's natives (`__host`), which
// it hides: a script sees only the globals of §3.
"use strict";
(function (host) {
  const define = (name, value) =>
    Object.defineProperty(globalThis, name, {
      value,
      writable: true,
      configurable: true,
      enumerable: false,
    });

  define("config", Object.freeze(host.config));
  // The strategy is fixed for the run (config is frozen).
  const STRATEGY = host.config.strategy;
  const isArray = Array.isArray;
  const getPrototypeOf = Object.getPrototypeOf;
  const objectKeys = Object.keys;
  const objectPrototype = Object.prototype;

  // Values cross to the cache and the DB as JSON, copied as over a
  // network: a function, a Map, a class instance, a symbol or a bigint
  // rejects the call (undefined fields are dropped).
  const checkJson = (value, depth) => {
    if (value === null) return;
    const type = typeof value;
    if (type === "string" || type === "number" || type === "boolean" || type === "undefined") {
      return;
    }
    if (type !== "object") {
      throw new TypeError(`values are JSON: a ${type} cannot be sent to the cache or the DB`);
    }
    if (depth > 64) throw new TypeError("values are JSON: nested too deep (a cycle?)");
    // Index loops, not for-of: the same values in the same order, without
    // an iterator object per value (this runs on every write).
    if (isArray(value)) {
      for (let i = 0, n = value.length; i < n; i++) checkJson(value[i], depth + 1);
      return;
    }
    const proto = getPrototypeOf(value);
    if (proto !== objectPrototype && proto !== null) {
      const name = (value.constructor && value.constructor.name) || "object";
      throw new TypeError(`values are JSON: a ${name} cannot be sent to the cache or the DB`);
    }
    const keys = objectKeys(value);
    for (let i = 0, n = keys.length; i < n; i++) checkJson(value[keys[i]], depth + 1);
  };
  const checked = [
    [cache, "set", [1]],
    [cache, "add", [1]],
    [cache, "deleteIf", [1]],
    [cache, "preset", [1, 2]],
    [db, "table", [1]],
    [db, "find", [1]],
    [db, "findOne", [1]],
    [db, "insert", [1]],
    [db, "update", [1, 2]],
    [db, "delete", [1]],
  ];
  // Every checked call takes at most three arguments and checks its second
  // (and third); the natives read a missing argument as undefined, so
  // passing three always changes nothing.
  for (const [target, name, positions] of checked) {
    const send = target[name];
    const second = positions.length > 1;
    target[name] = {
      [name](a, b, c) {
        checkJson(b, 0);
        if (second) checkJson(c, 0);
        return send(a, b, c);
      },
    }[name];
  }

  const lockTimeout = (key) => {
    const error = new Error(`the wait for the lock on ${key} gave up`);
    error.name = "LockTimeout";
    return error;
  };

  // Keys cross as strings, as they would over a network.
  const keyOf = (key) => String(key);

  const noLock = (strategy) =>
    strategy === "none" ||
    strategy === "stale-while-revalidate" ||
    strategy === "xfetch";

  // The critical section of a lock strategy: acquire, run, release in a
  // `finally`; `crash` and `pause` act at its start.
  async function lockedSection(key, fn) {
    if (!(await host.acquire(key))) throw lockTimeout(key);
    if (host.enter(key)) return host.crash();
    const pause = host.pause();
    if (pause !== undefined) await pause;
    try {
      return await fn();
    } finally {
      host.exit(key);
      await host.release(key);
    }
  }

  // Go's singleflight `Do` on this server, on the strategy's flight table.
  // A crashed leader leaves its joiners waiting forever.
  const flights = new Map();
  let flightSeq = 0;
  async function flight(key, fn, section) {
    const joined = host.flightJoin(key);
    if (joined !== undefined) {
      const outcome = flights.get(await joined);
      if (outcome.ok) return outcome.value;
      throw outcome.error;
    }
    if (section) {
      if (host.enter(key)) return host.crash();
      const pause = host.pause();
      if (pause !== undefined) await pause;
    }
    let outcome;
    try {
      outcome = { ok: true, value: await fn() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    if (section) host.exit(key);
    const handle = ++flightSeq;
    flights.set(handle, outcome);
    host.flightFinish(key, handle);
    if (outcome.ok) return outcome.value;
    throw outcome.error;
  }

  define("guard", function guard(key, fn) {
    key = keyOf(key);
    const strategy = STRATEGY;
    if (strategy === "single-flight") return flight(key, fn, true);
    if (noLock(strategy)) {
      return (async () => {
        if (host.enter(key)) return host.crash();
        const pause = host.pause();
        if (pause !== undefined) await pause;
        try {
          return await fn();
        } finally {
          host.exit(key);
        }
      })();
    }
    return lockedSection(key, fn);
  });

  define("singleflight", function singleflight(key, fn) {
    return flight(keyOf(key), fn, false);
  });

  define(
    "lock",
    Object.freeze({
      async acquire(key) {
        key = keyOf(key);
        const strategy = STRATEGY;
        if (strategy === "single-flight") {
          throw new Error(
            "lock.acquire: strategy=single-flight has no lock to take; use guard or singleflight"
          );
        }
        if (noLock(strategy)) {
          host.enter(key);
          return true;
        }
        const held = await host.acquire(key);
        if (held) host.enter(key);
        return held;
      },
      async release(key) {
        key = keyOf(key);
        const strategy = STRATEGY;
        if (strategy === "single-flight") {
          throw new Error(
            "lock.release: strategy=single-flight has no lock to release; use guard or singleflight"
          );
        }
        host.exit(key);
        if (!noLock(strategy)) await host.release(key);
      },
    })
  );

  define("queueMicrotask", function queueMicrotask(fn) {
    if (typeof fn !== "function") throw new TypeError("queueMicrotask takes a function");
    Promise.resolve().then(() => fn());
  });

  class EventEmitter {
    constructor() {
      this._events = new Map();
      this._maxListeners = 10;
    }
    _list(name) {
      let list = this._events.get(name);
      if (!list) {
        list = [];
        this._events.set(name, list);
      }
      return list;
    }
    on(name, listener) {
      if (typeof listener !== "function") {
        throw new TypeError('The "listener" argument must be of type function');
      }
      this._list(name).push({ listener, once: false });
      return this;
    }
    addListener(name, listener) {
      return this.on(name, listener);
    }
    prependListener(name, listener) {
      this._list(name).unshift({ listener, once: false });
      return this;
    }
    once(name, listener) {
      if (typeof listener !== "function") {
        throw new TypeError('The "listener" argument must be of type function');
      }
      this._list(name).push({ listener, once: true });
      return this;
    }
    off(name, listener) {
      const list = this._events.get(name);
      if (!list) return this;
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i].listener === listener) {
          list.splice(i, 1);
          break;
        }
      }
      if (list.length === 0) this._events.delete(name);
      return this;
    }
    removeListener(name, listener) {
      return this.off(name, listener);
    }
    removeAllListeners(name) {
      if (name === undefined) this._events.clear();
      else this._events.delete(name);
      return this;
    }
    emit(name, ...args) {
      const list = this._events.get(name);
      if (!list || list.length === 0) {
        if (name === "error") {
          throw args[0] instanceof Error ? args[0] : new Error("Unhandled error. (" + args[0] + ")");
        }
        return false;
      }
      for (const entry of list.slice()) {
        if (entry.once) this.off(name, entry.listener);
        entry.listener.apply(this, args);
      }
      return true;
    }
    listenerCount(name) {
      const list = this._events.get(name);
      return list ? list.length : 0;
    }
    listeners(name) {
      const list = this._events.get(name);
      return list ? list.map((entry) => entry.listener) : [];
    }
    setMaxListeners(n) {
      this._maxListeners = n;
      return this;
    }
    getMaxListeners() {
      return this._maxListeners;
    }
  }
  define("EventEmitter", EventEmitter);
})(__host);
delete globalThis.__host;
// Nothing outside the simulation: no eval of other code.
delete globalThis.eval;
