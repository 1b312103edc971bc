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

  // Virtual time: `Date.now()` and `new Date()` read the simulated clock.
  const RealDate = Date;
  const clock = host.now;
  function VirtualDate(...args) {
    if (new.target === undefined) return new RealDate(clock()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [clock()] : args, new.target);
  }
  Object.defineProperty(VirtualDate, "name", { value: "Date" });
  Object.defineProperty(VirtualDate, "length", { value: 7 });
  VirtualDate.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, "constructor", {
    value: VirtualDate,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  VirtualDate.now = function now() {
    return clock();
  };
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  define("Date", VirtualDate);

  // The natives are globals as Node's are: not enumerable.
  for (const name of [
    "cache", "db", "console", "performance", "sleep", "setTimeout", "setInterval",
    "setImmediate", "clearTimeout", "clearInterval", "clearImmediate", "count",
  ]) {
    Object.defineProperty(globalThis, name, { enumerable: false });
  }
  // The strategy is fixed for the run (config is frozen).
  const STRATEGY = host.config.strategy;
  // Values cross to the cache and the DB as JSON copies, checked and
  // copied by the natives in one walk (globals.rs, `to_json`).

  const lockTimeout = (key) => {
    const error = new Error(`the wait for the lock on ${key} gave up`);
    error.name = "LockTimeout";
    return error;
  };

  // Keys cross as strings, as they would over a network.
  const keyOf = (key) => String(key);

  // The strategies without a lock: `guard` only marks the section.
  const NO_LOCK =
    STRATEGY === "none" || STRATEGY === "stale-while-revalidate" || STRATEGY === "xfetch";

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

  // The critical section of a strategy without a lock: `crash` and
  // `pause` still act at its start.
  async function openSection(key, fn) {
    if (host.enter(key)) return host.crash();
    const pause = host.pause();
    if (pause !== undefined) await pause;
    try {
      return await fn();
    } finally {
      host.exit(key);
    }
  }

  define("guard", function guard(key, fn) {
    key = keyOf(key);
    if (STRATEGY === "single-flight") return flight(key, fn, true);
    if (NO_LOCK) return openSection(key, fn);
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
        if (STRATEGY === "single-flight") {
          throw new Error(
            "lock.acquire: strategy=single-flight has no lock to take; use guard or singleflight"
          );
        }
        if (NO_LOCK) {
          host.enter(key);
          return true;
        }
        const held = await host.acquire(key);
        if (held) host.enter(key);
        return held;
      },
      async release(key) {
        key = keyOf(key);
        if (STRATEGY === "single-flight") {
          throw new Error(
            "lock.release: strategy=single-flight has no lock to release; use guard or singleflight"
          );
        }
        host.exit(key);
        if (!NO_LOCK) await host.release(key);
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
