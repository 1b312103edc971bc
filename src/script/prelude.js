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
  // The prelude's own references to the natives. A script's top-level
  // `const { setTimeout: sleep } = require("timers/promises")` or `const
  // cache = new Redis()` binds the same name in the realm's global lexical
  // scope, which the prelude's functions would otherwise see too (and
  // `sleep` would call itself).
  const {
    cache, db, console, performance, sleep, setTimeout, setInterval,
    setImmediate, clearTimeout, clearInterval, clearImmediate, count,
  } = globalThis;
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

  // ---------------------------------------------------------------------
  // Built-in modules (SCRIPTING.md §7): `require(name)`, and `import` of the
  // same objects (run.rs gives each an ES module that re-exports them).

  // async-mutex's Mutex and Semaphore: FIFO waiters, a releaser function
  // that works once, `runExclusive`, `waitForUnlock`, `cancel`.
  const E_TIMEOUT = new Error("timeout while waiting for mutex to become available");
  const E_ALREADY_LOCKED = new Error("mutex already locked");
  const E_CANCELED = new Error("request for lock canceled");

  class Semaphore {
    constructor(value, cancelError = E_CANCELED) {
      this._value = value;
      this._cancelError = cancelError;
      this._waiters = [];
      this._unlockWaiters = [];
    }
    acquire(weight = 1) {
      if (weight <= 0) throw new Error(`invalid weight ${weight}: must be positive`);
      const request = host.request();
      return new Promise((resolve, reject) => {
        this._waiters.push({ resolve, reject, weight, request });
        this._dispatch();
      });
    }
    async runExclusive(callback, weight = 1) {
      const [value, release] = await this.acquire(weight);
      try {
        return await callback(value);
      } finally {
        release();
      }
    }
    waitForUnlock(weight = 1) {
      if (this._value >= weight) return Promise.resolve();
      return new Promise((resolve) => this._unlockWaiters.push({ resolve, weight }));
    }
    isLocked() {
      return this._value <= 0;
    }
    getValue() {
      return this._value;
    }
    setValue(value) {
      this._value = value;
      this._dispatch();
    }
    release(weight = 1) {
      this._value += weight;
      this._dispatch();
    }
    cancel() {
      const waiters = this._waiters;
      this._waiters = [];
      for (const waiter of waiters) waiter.reject(this._cancelError);
    }
    _dispatch() {
      while (this._waiters.length > 0 && this._waiters[0].weight <= this._value) {
        const { resolve, weight, request } = this._waiters.shift();
        const previous = this._value;
        this._value -= weight;
        let released = false;
        const ticket = [
          previous,
          () => {
            if (released) return;
            released = true;
            this.release(weight);
          },
        ];
        // A waiter another request hands the lock to resumes as itself
        // (its lane, its counts); a free lock is taken at once.
        if (request === host.request()) resolve(ticket);
        else host.defer(request, () => resolve(ticket));
      }
      const unlocked = this._unlockWaiters.filter((waiter) => waiter.weight <= this._value);
      this._unlockWaiters = this._unlockWaiters.filter((waiter) => waiter.weight > this._value);
      for (const waiter of unlocked) waiter.resolve();
    }
  }

  class Mutex {
    constructor(cancelError) {
      this._semaphore = new Semaphore(1, cancelError);
    }
    async acquire() {
      const [, release] = await this._semaphore.acquire();
      return release;
    }
    runExclusive(callback) {
      return this._semaphore.runExclusive(() => callback());
    }
    isLocked() {
      return this._semaphore.isLocked();
    }
    waitForUnlock() {
      return this._semaphore.waitForUnlock();
    }
    release() {
      if (this._semaphore.isLocked()) this._semaphore.release();
    }
    cancel() {
      return this._semaphore.cancel();
    }
  }

  // `withTimeout` and `tryAcquire`: the same lock, giving up after
  // `timeout` ms, or at once.
  function withTimeout(sync, timeout, timeoutError = E_TIMEOUT) {
    return {
      acquire(...args) {
        let timedOut = false;
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            timedOut = true;
            reject(timeoutError);
          }, timeout);
          sync.acquire(...args).then((ticket) => {
            if (timedOut) {
              const release = Array.isArray(ticket) ? ticket[1] : ticket;
              release();
            } else {
              clearTimeout(timer);
              resolve(ticket);
            }
          }, (error) => {
            if (!timedOut) {
              clearTimeout(timer);
              reject(error);
            }
          });
        });
      },
      async runExclusive(callback, ...args) {
        let release = () => {};
        try {
          const ticket = await this.acquire(...args);
          if (Array.isArray(ticket)) {
            release = ticket[1];
            return await callback(ticket[0]);
          }
          release = ticket;
          return await callback();
        } finally {
          release();
        }
      },
      release(...args) {
        sync.release(...args);
      },
      cancel() {
        return sync.cancel();
      },
      waitForUnlock(...args) {
        return sync.waitForUnlock(...args);
      },
      isLocked() {
        return sync.isLocked();
      },
    };
  }

  function tryAcquire(sync, alreadyAcquiredError = E_ALREADY_LOCKED) {
    return withTimeout(sync, 0, alreadyAcquiredError);
  }

  // events.once(emitter, name): a promise of the event's arguments.
  function once(emitter, name) {
    return new Promise((resolve, reject) => {
      const onEvent = (...args) => {
        if (name !== "error") emitter.off("error", onError);
        resolve(args);
      };
      const onError = (error) => {
        emitter.off(name, onEvent);
        reject(error);
      };
      emitter.once(name, onEvent);
      if (name !== "error") emitter.once("error", onError);
    });
  }

  const events = EventEmitter;
  Object.defineProperty(events, "EventEmitter", { value: EventEmitter });
  Object.defineProperty(events, "once", { value: once });

  // p-limit: run at most `concurrency` of the given functions at once,
  // the rest in call order (p-limit 5.0's queue and hand-off, step for step).
  function pLimit(concurrency) {
    if (!((Number.isInteger(concurrency) || concurrency === Infinity) && concurrency > 0)) {
      throw new TypeError("Expected `concurrency` to be a number from 1 and up");
    }
    const queue = [];
    let activeCount = 0;
    const next = () => {
      activeCount--;
      if (queue.length > 0) queue.shift()();
    };
    const run = async (fn, resolve, args) => {
      activeCount++;
      const result = (async () => fn(...args))();
      resolve(result);
      try {
        await result;
      } catch {}
      next();
    };
    const enqueue = (fn, resolve, args) => {
      queue.push(run.bind(undefined, fn, resolve, args));
      (async () => {
        // As p-limit: `activeCount` changes a microtask later.
        await Promise.resolve();
        if (activeCount < concurrency && queue.length > 0) queue.shift()();
      })();
    };
    const limit = (fn, ...args) =>
      new Promise((resolve) => {
        enqueue(fn, resolve, args);
      });
    Object.defineProperties(limit, {
      activeCount: { get: () => activeCount },
      pendingCount: { get: () => queue.length },
      clearQueue: {
        value() {
          queue.length = 0;
        },
      },
    });
    return limit;
  }
  pLimit.default = pLimit;

  // lru-cache's LRUCache: `max` entries (the least recently used goes
  // first), an optional `ttl` in ms on the simulated clock.
  // lru-cache 10: `max`, `ttl` (ms, on the simulated clock), `allowStale`,
  // and `fetch` with a `fetchMethod`, written after lru-cache 10.4's own
  // code (one background fetch per key at a time, which every caller of
  // that key shares; its promise sits in the cache while it runs), so its
  // promise jobs are the library's.
  class AbortSignalLike {
    constructor() {
      this.aborted = false;
      this.reason = undefined;
    }
    addEventListener() {}
  }
  class AbortControllerLike {
    constructor() {
      this.signal = new AbortSignalLike();
    }
    abort(reason) {
      this.signal.aborted = true;
      this.signal.reason = reason;
    }
  }
  class LRUCache {
    constructor(options = {}) {
      const { max = Infinity, ttl = 0, fetchMethod, allowStale = false } = options;
      if (!(max > 0)) throw new TypeError("max option must be a positive integer");
      if (fetchMethod !== undefined && typeof fetchMethod !== "function") {
        throw new TypeError("fetchMethod must be a function if specified");
      }
      this.max = max;
      this.ttl = ttl;
      this.allowStale = allowStale;
      this.noDeleteOnFetchRejection = !!options.noDeleteOnFetchRejection;
      this.allowStaleOnFetchRejection = !!options.allowStaleOnFetchRejection;
      this._fetchMethod = fetchMethod;
      this._map = new Map();
    }
    get size() {
      return this._map.size;
    }
    get fetchMethod() {
      return this._fetchMethod;
    }
    _stale(entry) {
      return entry.expires !== 0 && performance.now() >= entry.expires;
    }
    _fetching(value) {
      return (
        this._fetchMethod !== undefined &&
        value instanceof Promise &&
        Object.prototype.hasOwnProperty.call(value, "__staleWhileFetching")
      );
    }
    _touch(key, entry) {
      this._map.delete(key);
      this._map.set(key, entry);
    }
    get(key, options = {}) {
      const { allowStale = this.allowStale } = options;
      const entry = this._map.get(key);
      if (entry === undefined) return undefined;
      const fetching = this._fetching(entry.value);
      if (this._stale(entry)) {
        if (!fetching) {
          this._map.delete(key);
          return allowStale ? entry.value : undefined;
        }
        return allowStale ? entry.value.__staleWhileFetching : undefined;
      }
      if (fetching) return entry.value.__staleWhileFetching;
      this._touch(key, entry);
      return entry.value;
    }
    peek(key, options = {}) {
      const { allowStale = this.allowStale } = options;
      const entry = this._map.get(key);
      if (entry === undefined) return undefined;
      if (this._fetching(entry.value)) return entry.value.__staleWhileFetching;
      if (this._stale(entry)) return allowStale ? entry.value : undefined;
      return entry.value;
    }
    has(key) {
      const entry = this._map.get(key);
      if (entry === undefined) return false;
      if (this._fetching(entry.value) && entry.value.__staleWhileFetching === undefined) {
        return false;
      }
      return !this._stale(entry);
    }
    set(key, value, options = {}) {
      if (value === undefined) {
        this.delete(key);
        return this;
      }
      const ttl = options.ttl ?? this.ttl;
      const old = this._map.get(key);
      if (old !== undefined && old.value !== value && this._fetching(old.value)) {
        old.value.__abortController.abort(new Error("replaced"));
      }
      this._map.delete(key);
      this._map.set(key, { value, expires: ttl > 0 ? performance.now() + ttl : 0 });
      while (this._map.size > this.max) this._map.delete(this._map.keys().next().value);
      return this;
    }
    delete(key) {
      return this._map.delete(key);
    }
    clear() {
      this._map.clear();
    }
    keys() {
      return [...this._map.keys()].reverse()[Symbol.iterator]();
    }
    _backgroundFetch(k, entry, options, context) {
      const v = entry === undefined ? undefined : entry.value;
      if (this._fetching(v)) return v;
      const ac = new AbortControllerLike();
      const fetchOpts = { signal: ac.signal, options, context };
      const cb = (v) => {
        if (ac.signal.aborted) return fetchFail(ac.signal.reason);
        const bf = p;
        if (this._map.get(k)?.value === p) {
          if (v === undefined) {
            if (bf.__staleWhileFetching) this._map.get(k).value = bf.__staleWhileFetching;
            else this.delete(k);
          } else {
            this.set(k, v, fetchOpts.options);
          }
        }
        return v;
      };
      const eb = (er) => fetchFail(er);
      const fetchFail = (er) => {
        const allowStale = options.allowStaleOnFetchRejection;
        const noDelete = allowStale || options.noDeleteOnFetchRejection;
        const bf = p;
        if (this._map.get(k)?.value === p) {
          const del = !noDelete || bf.__staleWhileFetching === undefined;
          if (del) this.delete(k);
          else this._map.get(k).value = bf.__staleWhileFetching;
        }
        if (allowStale) return bf.__staleWhileFetching;
        else if (bf.__returned === bf) throw er;
      };
      const pcall = (res, rej) => {
        const fmp = this._fetchMethod?.(k, v, fetchOpts);
        if (fmp && fmp instanceof Promise) {
          fmp.then((v) => res(v === undefined ? undefined : v), rej);
        }
      };
      const p = new Promise(pcall).then(cb, eb);
      const bf = Object.assign(p, {
        __abortController: ac,
        __staleWhileFetching: v,
        __returned: undefined,
      });
      if (entry === undefined) {
        this.set(k, bf, { ...fetchOpts.options });
      } else {
        entry.value = bf;
      }
      return bf;
    }
    async fetch(k, fetchOptions = {}) {
      const {
        allowStale = this.allowStale,
        ttl = this.ttl,
        noDeleteOnFetchRejection = this.noDeleteOnFetchRejection,
        allowStaleOnFetchRejection = this.allowStaleOnFetchRejection,
        context,
        forceRefresh = false,
      } = fetchOptions;
      if (this._fetchMethod === undefined) return this.get(k, { allowStale });
      const options = { allowStale, ttl, noDeleteOnFetchRejection, allowStaleOnFetchRejection };
      const entry = this._map.get(k);
      if (entry === undefined) {
        const p = this._backgroundFetch(k, undefined, options, context);
        return (p.__returned = p);
      }
      const v = entry.value;
      if (this._fetching(v)) {
        const stale = allowStale && v.__staleWhileFetching !== undefined;
        return stale ? v.__staleWhileFetching : (v.__returned = v);
      }
      const isStale = this._stale(entry);
      if (!forceRefresh && !isStale) {
        this._touch(k, entry);
        return v;
      }
      const p = this._backgroundFetch(k, entry, options, context);
      const staleVal = p.__staleWhileFetching !== undefined && allowStale;
      return staleVal ? p.__staleWhileFetching : (p.__returned = p);
    }
  }

  // crypto: UUIDs and integers from the run's seeded `Math.random`.
  const hex = (n) => Math.floor(Math.random() * 16 ** n).toString(16).padStart(n, "0");
  const crypto = Object.freeze({
    randomUUID: () =>
      `${hex(8)}-${hex(4)}-4${hex(3)}-${((8 + Math.floor(Math.random() * 4)).toString(16))}${hex(3)}-${hex(6)}${hex(6)}`,
    randomInt(min, max) {
      if (max === undefined) [min, max] = [0, min];
      return min + Math.floor(Math.random() * (max - min));
    },
  });

  // process: an empty environment (no real one reaches the simulation),
  // `nextTick` (Node's order, run.rs `drain`), and the clocks, virtual:
  // `hrtime` and `uptime` count from the run's time 0. It is an
  // EventEmitter, as Node's, so a module's `process.on("SIGTERM", ...)`
  // loads; nothing emits its events (no signal, no exit).
  const nanoseconds = () => Math.round(performance.now() * 1e6);
  function hrtime(previous) {
    let ns = nanoseconds();
    if (previous !== undefined) {
      if (!Array.isArray(previous) || previous.length !== 2) {
        throw new TypeError('The "time" argument must be an array of two numbers');
      }
      ns -= previous[0] * 1e9 + previous[1];
    }
    return [Math.floor(ns / 1e9), ns % 1e9];
  }
  hrtime.bigint = () => BigInt(nanoseconds());
  const process = Object.defineProperties(new EventEmitter(), {
    env: { value: {}, enumerable: true },
    nextTick: { value: host.nextTick, enumerable: true },
    hrtime: { value: hrtime, enumerable: true },
    uptime: { value: () => performance.now() / 1000, enumerable: true },
    platform: { value: "linux", enumerable: true },
    pid: { value: 1, enumerable: true },
    argv: { value: ["node", "handler.js"], enumerable: true },
    cwd: { value: () => "/", enumerable: true },
  });
  define("process", process);

  // Node's timer objects: `setTimeout` and `setInterval` give a Timeout,
  // `setImmediate` an Immediate, and `clear*` take one or its number.
  // `unref` changes nothing here: the run ends once every request has
  // settled, whatever timers are left (SCRIPTING.md §2). `refresh` starts
  // the timer's delay again from now (a fired timeout fires again; a
  // cleared one stays cleared).
  const promisifyCustom = Symbol.for("nodejs.util.promisify.custom");
  const timerId = (timer) =>
    timer !== null && typeof timer === "object" ? timer[Symbol.toPrimitive]() : timer;
  class Timeout {
    #id;
    #start;
    #refed = true;
    #cleared = false;
    constructor(start) {
      this.#start = start;
      this.#id = start();
    }
    ref() {
      this.#refed = true;
      return this;
    }
    unref() {
      this.#refed = false;
      return this;
    }
    hasRef() {
      return this.#refed;
    }
    refresh() {
      if (!this.#cleared) {
        clearTimeout(this.#id);
        this.#id = this.#start();
      }
      return this;
    }
    close() {
      this.#cleared = true;
      clearTimeout(this.#id);
      return this;
    }
    [Symbol.toPrimitive]() {
      return this.#id;
    }
  }
  class Immediate {
    #id;
    #refed = true;
    constructor(id) {
      this.#id = id;
    }
    ref() {
      this.#refed = true;
      return this;
    }
    unref() {
      this.#refed = false;
      return this;
    }
    hasRef() {
      return this.#refed;
    }
    [Symbol.toPrimitive]() {
      return this.#id;
    }
  }
  const timers = {
    setTimeout(callback, ms, ...args) {
      return new Timeout(() => setTimeout(callback, ms, ...args));
    },
    setInterval(callback, ms, ...args) {
      return new Timeout(() => setInterval(callback, ms, ...args));
    },
    setImmediate(callback, ...args) {
      return new Immediate(setImmediate(callback, ...args));
    },
    clearTimeout(timer) {
      if (timer instanceof Timeout) timer.close();
      else clearTimeout(timerId(timer));
    },
    clearInterval(timer) {
      timers.clearTimeout(timer);
    },
    clearImmediate(timer) {
      clearImmediate(timerId(timer));
    },
  };
  timers.setTimeout[promisifyCustom] = (ms, value) => sleep(ms).then(() => value);
  timers.setImmediate[promisifyCustom] = (value) =>
    new Promise((resolve) => setImmediate(() => resolve(value)));
  for (const [name, fn] of Object.entries(timers)) define(name, fn);

  // Bytes: UTF-8 (TextEncoder, TextDecoder), and Node's Buffer with its
  // common encodings (utf8, hex, base64, base64url, latin1, ascii).
  function utf8Encode(text) {
    const bytes = [];
    for (let i = 0; i < text.length; i += 1) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c < 0xe000) {
        const next = text.charCodeAt(i + 1);
        if (c < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i += 1;
        } else {
          c = 0xfffd;
        }
      }
      if (c < 0x80) bytes.push(c);
      else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else {
        bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
    }
    return bytes;
  }
  // Each byte that does not start a well-formed sequence is U+FFFD.
  function utf8Decode(bytes) {
    let out = "";
    for (let i = 0; i < bytes.length; ) {
      const lead = bytes[i];
      const [length, bits, least] =
        lead < 0x80 ? [1, lead, 0] :
        lead >= 0xc2 && lead < 0xe0 ? [2, lead & 31, 0x80] :
        lead >= 0xe0 && lead < 0xf0 ? [3, lead & 15, 0x800] :
        lead >= 0xf0 && lead < 0xf5 ? [4, lead & 7, 0x10000] : [0, 0, 0];
      let c = bits;
      let ok = length > 0 && i + length <= bytes.length;
      for (let k = 1; ok && k < length; k += 1) {
        const more = bytes[i + k];
        ok = (more & 0xc0) === 0x80;
        c = (c << 6) | (more & 63);
      }
      if (!ok || c < least || (c >= 0xd800 && c < 0xe000) || c > 0x10ffff) {
        out += "\ufffd";
        i += 1;
      } else {
        out += String.fromCodePoint(c);
        i += length;
      }
    }
    return out;
  }
  class TextEncoder {
    get encoding() {
      return "utf-8";
    }
    encode(text = "") {
      return new Uint8Array(utf8Encode(String(text)));
    }
  }
  class TextDecoder {
    get encoding() {
      return "utf-8";
    }
    decode(bytes = new Uint8Array(0)) {
      const view = ArrayBuffer.isView(bytes)
        ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        : new Uint8Array(bytes);
      return utf8Decode(view);
    }
  }

  const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  function toBase64(bytes, url) {
    const alphabet = url ? BASE64.slice(0, 62) + "-_" : BASE64;
    let out = "";
    for (let i = 0; i < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
      const left = bytes.length - i;
      out += alphabet[n >> 18] + alphabet[(n >> 12) & 63];
      out += left > 1 ? alphabet[(n >> 6) & 63] : url ? "" : "=";
      out += left > 2 ? alphabet[n & 63] : url ? "" : "=";
    }
    return out;
  }
  // Node's decoder: both alphabets, and it stops at the first `=`,
  // skipping anything else that is not in them.
  function fromBase64(text) {
    const bytes = [];
    let bits = 0;
    let count = 0;
    for (const char of text) {
      if (char === "=") break;
      const at = char === "-" ? 62 : char === "_" ? 63 : BASE64.indexOf(char);
      if (at < 0) continue;
      bits = (bits << 6) | at;
      count += 6;
      if (count >= 8) {
        count -= 8;
        bytes.push((bits >> count) & 0xff);
      }
    }
    return bytes;
  }
  function encodingOf(encoding) {
    const name = String(encoding ?? "utf8").toLowerCase();
    const known = {
      utf8: "utf8", "utf-8": "utf8", hex: "hex", base64: "base64", base64url: "base64url",
      latin1: "latin1", binary: "latin1", ascii: "ascii",
    }[name];
    if (!known) throw new TypeError(`Unknown encoding: ${encoding}`);
    return known;
  }
  function encode(text, encoding) {
    switch (encodingOf(encoding)) {
      case "utf8":
        return utf8Encode(text);
      case "hex": {
        const bytes = [];
        for (let i = 0; i + 1 < text.length; i += 2) {
          const byte = parseInt(text.slice(i, i + 2), 16);
          if (Number.isNaN(byte)) break;
          bytes.push(byte);
        }
        return bytes;
      }
      case "base64":
      case "base64url":
        return fromBase64(text);
      default:
        return Array.from(text, (char) => char.charCodeAt(0) & 0xff);
    }
  }
  class Buffer extends Uint8Array {
    static from(value, encodingOrOffset, length) {
      if (typeof value === "string") return new Buffer(encode(value, encodingOrOffset));
      if (value instanceof ArrayBuffer) {
        const offset = encodingOrOffset ?? 0;
        return new Buffer(value, offset, length ?? value.byteLength - offset);
      }
      if (ArrayBuffer.isView(value) || Array.isArray(value)) return new Buffer(Array.from(value));
      if (value?.type === "Buffer" && Array.isArray(value.data)) return new Buffer(value.data);
      throw new TypeError(
        "The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array"
      );
    }
    static alloc(size, fill = 0, encoding) {
      const buffer = new Buffer(size);
      if (fill !== 0) buffer.fill(fill, 0, size, encoding);
      return buffer;
    }
    static allocUnsafe(size) {
      return new Buffer(size);
    }
    static byteLength(value, encoding) {
      if (typeof value !== "string") return value.byteLength;
      return encode(value, encoding).length;
    }
    static isBuffer(value) {
      return value instanceof Buffer;
    }
    static isEncoding(encoding) {
      try {
        encodingOf(encoding);
        return true;
      } catch {
        return false;
      }
    }
    static concat(list, total) {
      const length = total ?? list.reduce((sum, item) => sum + item.length, 0);
      const buffer = Buffer.alloc(length);
      let at = 0;
      for (const item of list) {
        if (at >= length) break;
        buffer.set(item.subarray(0, length - at), at);
        at += Math.min(item.length, length - at);
      }
      return buffer;
    }
    static compare(a, b) {
      return a.compare(b);
    }
    fill(value, start = 0, end = this.length, encoding) {
      if (typeof value !== "string") return super.fill(value, start, end);
      const bytes = encode(value, encoding);
      for (let i = start; i < end && bytes.length > 0; i += 1) this[i] = bytes[(i - start) % bytes.length];
      return this;
    }
    toString(encoding, start = 0, end = this.length) {
      const bytes = this.subarray(start, end);
      switch (encodingOf(encoding)) {
        case "utf8":
          return utf8Decode(bytes);
        case "hex":
          return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
        case "base64":
          return toBase64(bytes, false);
        case "base64url":
          return toBase64(bytes, true);
        case "ascii":
          return String.fromCharCode(...Array.from(bytes, (byte) => byte & 0x7f));
        default:
          return String.fromCharCode(...bytes);
      }
    }
    toJSON() {
      return { type: "Buffer", data: Array.from(this) };
    }
    equals(other) {
      return this.compare(other) === 0;
    }
    compare(other) {
      const length = Math.min(this.length, other.length);
      for (let i = 0; i < length; i += 1) {
        if (this[i] !== other[i]) return this[i] < other[i] ? -1 : 1;
      }
      return Math.sign(this.length - other.length);
    }
    slice(start, end) {
      return this.subarray(start, end);
    }
    write(text, offset = 0, length = this.length - offset, encoding = "utf8") {
      const bytes = encode(text, encoding).slice(0, Math.max(0, length));
      this.set(bytes.slice(0, this.length - offset), offset);
      return Math.min(bytes.length, this.length - offset);
    }
  }

  // structuredClone: the structured clone algorithm's values (primitives,
  // plain objects and arrays, Date, RegExp, Map, Set, typed arrays,
  // ArrayBuffer, errors), with cycles; a function or a symbol cannot be
  // cloned.
  function structuredClone(value) {
    const seen = new Map();
    const clone = (from) => {
      if (typeof from === "function" || typeof from === "symbol") {
        const error = new Error(`${String(from)} could not be cloned.`);
        error.name = "DataCloneError";
        throw error;
      }
      if (from === null || typeof from !== "object") return from;
      if (seen.has(from)) return seen.get(from);
      let to;
      if (from instanceof Date) to = new Date(from.getTime());
      else if (from instanceof RegExp) to = new RegExp(from.source, from.flags);
      else if (from instanceof ArrayBuffer) to = from.slice(0);
      else if (from instanceof DataView) {
        to = new DataView(from.buffer.slice(0), from.byteOffset, from.byteLength);
      } else if (ArrayBuffer.isView(from)) {
        // A Buffer is cloned as the Uint8Array it is, as in Node.
        to = from instanceof Buffer ? new Uint8Array(from) : new from.constructor(from);
      } else if (from instanceof Map) to = new Map();
      else if (from instanceof Set) to = new Set();
      else if (from instanceof Error) {
        to = new Error(from.message);
        to.name = from.name;
        to.stack = from.stack;
      } else to = Array.isArray(from) ? [] : {};
      seen.set(from, to);
      if (from instanceof Map) for (const [k, v] of from) to.set(clone(k), clone(v));
      else if (from instanceof Set) for (const v of from) to.add(clone(v));
      else if (Array.isArray(from) || Object.getPrototypeOf(to) === Object.prototype) {
        for (const key of Object.keys(from)) to[key] = clone(from[key]);
      }
      return to;
    };
    return clone(value);
  }

  // AbortController and AbortSignal: an `abort` event to the listeners of
  // `addEventListener` (and `onabort`), at once; `AbortSignal.timeout(ms)`
  // aborts on the simulated clock.
  const signalToken = Symbol("AbortSignal");
  const abortError = () => {
    const error = new Error("This operation was aborted");
    error.name = "AbortError";
    error.code = 20;
    return error;
  };
  class AbortSignal {
    #aborted = false;
    #reason = undefined;
    #listeners = [];
    onabort = null;
    constructor(token) {
      if (token !== signalToken) throw new TypeError("Illegal constructor");
    }
    get aborted() {
      return this.#aborted;
    }
    get reason() {
      return this.#reason;
    }
    throwIfAborted() {
      if (this.#aborted) throw this.#reason;
    }
    addEventListener(type, listener, options) {
      if (type !== "abort" || typeof listener !== "function") return;
      if (this.#listeners.some((entry) => entry.listener === listener)) return;
      this.#listeners.push({ listener, once: Boolean(options?.once) });
    }
    removeEventListener(type, listener) {
      this.#listeners = this.#listeners.filter((entry) => entry.listener !== listener);
    }
    static abort(reason) {
      const signal = new AbortSignal(signalToken);
      signal[signalToken](reason);
      return signal;
    }
    static timeout(ms) {
      const signal = new AbortSignal(signalToken);
      setTimeout(() => {
        const error = new Error("The operation was aborted due to timeout");
        error.name = "TimeoutError";
        error.code = 23;
        signal[signalToken](error);
      }, ms);
      return signal;
    }
    static any(signals) {
      const signal = new AbortSignal(signalToken);
      for (const from of signals) {
        if (from.aborted) {
          signal[signalToken](from.reason);
          break;
        }
        from.addEventListener("abort", () => signal[signalToken](from.reason), { once: true });
      }
      return signal;
    }
    [signalToken](reason = abortError()) {
      if (this.#aborted) return;
      this.#aborted = true;
      this.#reason = reason;
      const event = { type: "abort", target: this, currentTarget: this };
      if (typeof this.onabort === "function") this.onabort(event);
      const listeners = this.#listeners;
      this.#listeners = listeners.filter((entry) => !entry.once);
      for (const { listener } of listeners) listener.call(this, event);
    }
  }
  class AbortController {
    #signal = new AbortSignal(signalToken);
    get signal() {
      return this.#signal;
    }
    abort(reason) {
      this.#signal[signalToken](reason);
    }
  }
  // URL and URLSearchParams, WHATWG's: absolute and relative URLs, dot
  // segments, default ports, percent-encoding, and a `searchParams` that
  // follows its URL both ways.
  const DEFAULT_PORTS = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443", "ftp:": "21" };
  const FRAGMENT_SET = '"<>`';
  const QUERY_SET = '"#<>';
  const PATH_SET = QUERY_SET + "?`{}";
  const USERINFO_SET = PATH_SET + "/:;=@[\\]^|";
  const hex2 = (byte) => "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  function percentEncode(text, set) {
    let out = "";
    for (const char of text) {
      const code = char.codePointAt(0);
      if (code <= 0x20 || code > 0x7e || set.includes(char)) {
        for (const byte of utf8Encode(char)) out += hex2(byte);
      } else {
        out += char;
      }
    }
    return out;
  }
  function percentDecode(text) {
    const bytes = [];
    for (let i = 0; i < text.length; i += 1) {
      const byte = text[i] === "%" ? parseInt(text.slice(i + 1, i + 3), 16) : NaN;
      if (/^%[0-9a-fA-F]{2}/.test(text.slice(i, i + 3)) && !Number.isNaN(byte)) {
        bytes.push(byte);
        i += 2;
      } else {
        bytes.push(...utf8Encode(text[i]));
      }
    }
    return utf8Decode(bytes);
  }
  const invalidURL = (input) => {
    const error = new TypeError("Invalid URL");
    error.code = "ERR_INVALID_URL";
    error.input = input;
    return error;
  };
  // A path's segments with `.` and `..` taken out.
  function resolvePath(segments) {
    const out = [];
    segments.forEach((segment, i) => {
      const last = i === segments.length - 1;
      const dot = /^(\.|%2e)$/i.test(segment);
      const dots = /^(\.|%2e){2}$/i.test(segment);
      if (dots) {
        out.pop();
        if (last) out.push("");
      } else if (dot) {
        if (last) out.push("");
      } else {
        out.push(segment);
      }
    });
    return out;
  }
  function parseURL(input, base) {
    const text = String(input).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(text);
    const url = { protocol: "", username: "", password: "", hostname: "", port: "", path: "", query: null, fragment: null, opaque: false };
    let rest = text;
    if (scheme) {
      url.protocol = scheme[1].toLowerCase() + ":";
      rest = text.slice(scheme[0].length);
    } else if (base) {
      url.protocol = base.protocol;
    } else {
      throw invalidURL(input);
    }
    const special = url.protocol in DEFAULT_PORTS || url.protocol === "file:";
    const slash = special ? /[\/\\]/ : /\//;
    const hashAt = rest.indexOf("#");
    if (hashAt >= 0) {
      url.fragment = percentEncode(rest.slice(hashAt + 1), FRAGMENT_SET);
      rest = rest.slice(0, hashAt);
    }
    const queryAt = rest.indexOf("?");
    const query = queryAt >= 0 ? rest.slice(queryAt + 1) : null;
    if (queryAt >= 0) rest = rest.slice(0, queryAt);
    if (query !== null) url.query = percentEncode(query, special ? QUERY_SET + "'" : QUERY_SET);
    const authority = special
      ? scheme && (!base || base.protocol !== url.protocol || /^[\/\\]{2}/.test(rest))
      : /^\/\//.test(rest);
    if (authority || (!scheme && (special ? /^[\/\\]{2}/ : /^\/\//).test(rest))) {
      // (`http:///h` is `http://h/`; a file URL's host may be empty.)
      rest = url.protocol === "file:" ? rest.replace(/^[\/\\]{2}/, "") : special ? rest.replace(/^[\/\\]*/, "") : rest.slice(2);
      const end = rest.search(slash);
      const host = end < 0 ? rest : rest.slice(0, end);
      rest = end < 0 ? "" : rest.slice(end);
      const at = host.lastIndexOf("@");
      if (at >= 0) {
        const [username, ...password] = host.slice(0, at).split(":");
        url.username = percentEncode(username, USERINFO_SET);
        url.password = percentEncode(password.join(":"), USERINFO_SET);
      }
      const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(host.slice(at + 1));
      url.hostname = special ? percentDecode(hostPort[1]).toLowerCase() : hostPort[1];
      const port = hostPort[2] ?? "";
      if (!/^\d*$/.test(port) || Number(port) > 65535) throw invalidURL(input);
      url.port = port === "" || DEFAULT_PORTS[url.protocol] === String(Number(port)) ? "" : String(Number(port));
      if (/[\u0000-\u0020#%\/:<>?@[\\\]^|]/.test(url.hostname.replace(/^\[.*\]$/, "")) || (special && url.protocol !== "file:" && !url.hostname)) {
        throw invalidURL(input);
      }
    } else if (!scheme || (special && base && base.protocol === url.protocol)) {
      if (!base || base.opaque) throw invalidURL(input);
      Object.assign(url, { username: base.username, password: base.password, hostname: base.hostname, port: base.port });
      if (rest === "") {
        url.path = base.path;
        if (query === null) url.query = base.query;
        return url;
      }
      if (!slash.test(rest[0])) rest = base.path.slice(0, base.path.lastIndexOf("/") + 1) + rest;
    } else if (!special) {
      url.opaque = true;
      url.path = percentEncode(rest, "");
      return url;
    } else {
      throw invalidURL(input);
    }
    const segments = resolvePath(rest.split(slash).slice(1));
    url.path = "/" + segments.map((segment) => percentEncode(segment, PATH_SET)).join("/");
    return url;
  }
  const formEncode = (text) => {
    let out = "";
    for (const byte of utf8Encode(text)) {
      const char = String.fromCharCode(byte);
      out += /[A-Za-z0-9*\-._]/.test(char) ? char : byte === 0x20 ? "+" : hex2(byte);
    }
    return out;
  };
  const formDecode = (text) => percentDecode(text.replace(/\+/g, " "));
  const searchLink = Symbol("URLSearchParams's URL");
  class URLSearchParams {
    #list = [];
    #url = null;
    constructor(init = "") {
      if (init instanceof URLSearchParams) {
        this.#list = [...init];
      } else if (init !== null && typeof init === "object" && typeof init[Symbol.iterator] === "function") {
        for (const pair of init) {
          const items = [...pair];
          if (items.length !== 2) throw new TypeError("Each query pair must be an iterable [name, value] tuple");
          this.#list.push([String(items[0]), String(items[1])]);
        }
      } else if (init !== null && typeof init === "object") {
        for (const key of Object.keys(init)) this.#list.push([key, String(init[key])]);
      } else {
        this[searchLink](String(init).replace(/^\?/, ""));
      }
    }
    // The URL this one belongs to, or a new query from it.
    [searchLink](query, url) {
      if (url) this.#url = url;
      this.#list = query
        .split("&")
        .filter((part) => part !== "")
        .map((part) => {
          const at = part.indexOf("=");
          return at < 0 ? [formDecode(part), ""] : [formDecode(part.slice(0, at)), formDecode(part.slice(at + 1))];
        });
    }
    #update() {
      if (this.#url) this.#url[searchLink](this.toString());
    }
    get size() {
      return this.#list.length;
    }
    append(name, value) {
      this.#list.push([String(name), String(value)]);
      this.#update();
    }
    delete(name, value) {
      this.#list = this.#list.filter(([k, v]) => k !== String(name) || (value !== undefined && v !== String(value)));
      this.#update();
    }
    get(name) {
      const found = this.#list.find(([k]) => k === String(name));
      return found ? found[1] : null;
    }
    getAll(name) {
      return this.#list.filter(([k]) => k === String(name)).map(([, v]) => v);
    }
    has(name, value) {
      return this.#list.some(([k, v]) => k === String(name) && (value === undefined || v === String(value)));
    }
    set(name, value) {
      name = String(name);
      const at = this.#list.findIndex(([k]) => k === name);
      if (at < 0) this.#list.push([name, String(value)]);
      else {
        this.#list[at] = [name, String(value)];
        this.#list = this.#list.filter(([k], i) => k !== name || i === at);
      }
      this.#update();
    }
    sort() {
      this.#list = this.#list
        .map((pair, i) => [pair, i])
        .sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j))
        .map(([pair]) => pair);
      this.#update();
    }
    forEach(callback, thisArg) {
      for (const [k, v] of this.#list) callback.call(thisArg, v, k, this);
    }
    *entries() {
      for (const [k, v] of this.#list) yield [k, v];
    }
    *keys() {
      for (const [k] of this.#list) yield k;
    }
    *values() {
      for (const [, v] of this.#list) yield v;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    toString() {
      return this.#list.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join("&");
    }
  }
  class URL {
    #url;
    #params = new URLSearchParams();
    constructor(input, base) {
      const parent = base === undefined ? null : parseURL(base instanceof URL ? base.href : base);
      this.#url = parseURL(input, parent);
      this.#params[searchLink](this.#url.query ?? "", this);
    }
    static canParse(input, base) {
      try {
        new URL(input, base);
        return true;
      } catch {
        return false;
      }
    }
    [searchLink](query) {
      this.#url.query = query === "" ? null : query;
    }
    get protocol() {
      return this.#url.protocol;
    }
    get username() {
      return this.#url.username;
    }
    get password() {
      return this.#url.password;
    }
    get hostname() {
      return this.#url.hostname;
    }
    set hostname(value) {
      this.#url.hostname = String(value).toLowerCase();
    }
    get port() {
      return this.#url.port;
    }
    set port(value) {
      const port = String(value);
      if (/^\d*$/.test(port) && Number(port) <= 65535) {
        this.#url.port = port === "" || DEFAULT_PORTS[this.protocol] === String(Number(port)) ? "" : String(Number(port));
      }
    }
    get host() {
      return this.#url.hostname + (this.#url.port ? `:${this.#url.port}` : "");
    }
    get origin() {
      return this.protocol in DEFAULT_PORTS ? `${this.protocol}//${this.host}` : "null";
    }
    get pathname() {
      return this.#url.path;
    }
    set pathname(value) {
      if (this.#url.opaque) return;
      const path = String(value);
      this.#url.path = parseURL(path.startsWith("/") ? path : `/${path}`, this.#url).path;
    }
    get search() {
      return this.#url.query ? `?${this.#url.query}` : "";
    }
    set search(value) {
      const query = String(value).replace(/^\?/, "");
      this.#url.query = query === "" ? null : percentEncode(query, QUERY_SET + "'");
      this.#params[searchLink](query);
    }
    get searchParams() {
      return this.#params;
    }
    get hash() {
      return this.#url.fragment ? `#${this.#url.fragment}` : "";
    }
    set hash(value) {
      const fragment = String(value).replace(/^#/, "");
      this.#url.fragment = fragment === "" ? null : percentEncode(fragment, FRAGMENT_SET);
    }
    get href() {
      const url = this.#url;
      const user = url.username || url.password
        ? `${url.username}${url.password ? `:${url.password}` : ""}@`
        : "";
      const authority = url.opaque ? "" : `//${user}${this.host}`;
      return `${url.protocol}${authority}${url.path}${url.query !== null ? `?${url.query}` : ""}${url.fragment !== null ? `#${url.fragment}` : ""}`;
    }
    set href(value) {
      this.#url = parseURL(value);
      this.#params[searchLink](this.#url.query ?? "");
    }
    toString() {
      return this.href;
    }
    toJSON() {
      return this.href;
    }
  }

  for (const [name, value] of Object.entries({
    TextEncoder, TextDecoder, Buffer, structuredClone, AbortController, AbortSignal,
    URL, URLSearchParams,
  })) {
    define(name, value);
  }

  // util: what handlers take from it. `inspect` shows a value as
  // `console.log` does; `format` is `console.log`'s text.
  function promisify(original) {
    if (typeof original !== "function") {
      throw new TypeError('The "original" argument must be of type function');
    }
    if (typeof original[promisifyCustom] === "function") return original[promisifyCustom];
    function promisified(...args) {
      return new Promise((resolve, reject) => {
        Reflect.apply(original, this, [
          ...args,
          (error, ...values) => (error ? reject(error) : resolve(values[0])),
        ]);
      });
    }
    Object.setPrototypeOf(promisified, Object.getPrototypeOf(original));
    return Object.defineProperties(promisified, Object.getOwnPropertyDescriptors(original));
  }
  promisify.custom = promisifyCustom;
  function callbackify(original) {
    if (typeof original !== "function") {
      throw new TypeError('The "original" argument must be of type function');
    }
    return function callbackified(...args) {
      const callback = args.pop();
      if (typeof callback !== "function") {
        throw new TypeError('The last argument must be of type function');
      }
      Reflect.apply(original, this, args).then(
        (value) => process.nextTick(callback, null, value),
        (reason) => {
          if (!reason) {
            const error = new Error("Promise was rejected with a falsy value");
            error.reason = reason;
            reason = error;
          }
          process.nextTick(callback, reason);
        }
      );
    };
  }
  function isDeepStrictEqual(a, b) {
    if (Object.is(a, b)) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    if (a instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof Map || a instanceof Set) {
      if (a.size !== b.size) return false;
      const entries = [...b];
      return [...a].every((x) => entries.some((y) => isDeepStrictEqual(x, y)));
    }
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every(
      (key) => Object.prototype.hasOwnProperty.call(b, key) && isDeepStrictEqual(a[key], b[key])
    );
  }
  const util = Object.freeze({
    promisify,
    callbackify,
    inspect: host.inspect,
    format: host.format,
    isDeepStrictEqual,
    inherits(constructor, superConstructor) {
      Object.setPrototypeOf(constructor.prototype, superConstructor.prototype);
      Object.defineProperty(constructor, "super_", {
        value: superConstructor,
        writable: true,
        configurable: true,
      });
    },
    types: Object.freeze({
      isPromise: (value) => value instanceof Promise,
      isDate: (value) => value instanceof Date,
      isRegExp: (value) => value instanceof RegExp,
      isMap: (value) => value instanceof Map,
      isSet: (value) => value instanceof Set,
    }),
  });

  // Redis on the simulated cache, for ioredis and node-redis: each command
  // is one cache operation (its latency, counting and trace) with Redis's
  // reply: strings from GET, 'OK' or null from SET, counts from DEL,
  // numbers from INCR. Integer strings are kept as numbers so INCR reads
  // them, as Redis does.
  class ReplyError extends Error {
    constructor(message) {
      super(message);
      this.name = "ReplyError";
    }
  }
  const stored = (value) => {
    const text = String(value);
    return /^-?(0|[1-9][0-9]{0,14})$/.test(text) ? Number(text) : text;
  };
  const reply = (value) => (value === undefined || value === null ? null : String(value));
  // Lua is recognised, not run: the text without comments and whitespace
  // (and with one kind of quote) must be one the simulation knows.
  const luaShape = (script) =>
    String(script).replace(/--[^\n]*/g, "").replace(/\s+/g, "").replace(/'/g, '"');
  const CHECK_AND_DELETE = luaShape(
    'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end'
  );
  // redlock's scripts, the same text in v4.2 and v5.0.0-beta.2.
  const REDLOCK_ACQUIRE = `
    -- Return 0 if an entry already exists.
    for i, key in ipairs(KEYS) do
      if redis.call("exists", key) == 1 then
        return 0
      end
    end

    -- Create an entry for each provided key.
    for i, key in ipairs(KEYS) do
      redis.call("set", key, ARGV[1], "PX", ARGV[2])
    end

    -- Return the number of entries added.
    return #KEYS
  `;
  const REDLOCK_EXTEND = `
    -- Return 0 if an entry exists with a *different* lock value.
    for i, key in ipairs(KEYS) do
      if redis.call("get", key) ~= ARGV[1] then
        return 0
      end
    end

    -- Update the entry for each provided key.
    for i, key in ipairs(KEYS) do
      redis.call("set", key, ARGV[1], "PX", ARGV[2])
    end

    -- Return the number of entries updated.
    return #KEYS
  `;
  const REDLOCK_RELEASE = `
    local count = 0
    for i, key in ipairs(KEYS) do
      -- Only remove entries for *this* lock value.
      if redis.call("get", key) == ARGV[1] then
        redis.pcall("del", key)
        count = count + 1
      end
    end

    -- Return the number of entries removed.
    return count
  `;
  const LOCK_SCRIPTS = new Map([
    [luaShape(REDLOCK_ACQUIRE), "acquire"],
    [luaShape(REDLOCK_EXTEND), "extend"],
    [luaShape(REDLOCK_RELEASE), "release"],
  ]);
  const UNKNOWN_SCRIPT =
    "ERR this Lua script is not one the simulation recognises (it knows " +
    "check-and-delete: if redis.call(\"get\", KEYS[1]) == ARGV[1] then return " +
    "redis.call(\"del\", KEYS[1]) else return 0 end; and redlock's acquire, extend " +
    "and release scripts, as redlock 4 and 5 send them)";
  const integerArgument = (value) => {
    const n = Number(value);
    if (String(value).trim() === "" || !Number.isInteger(n)) {
      throw new ReplyError("ERR value is not an integer or out of range");
    }
    return n;
  };
  const notModelled = (what) => new ReplyError(`ERR ${what} is not modelled (EX, PX, NX, XX are)`);
  const redisCommands = {
    async get(key) {
      return reply(await cache.get(key));
    },
    // `ttl` in ms (0: none); `only`: "NX", or null.
    async set(key, value, ttl, only) {
      if (only === "XX") return (await host.replace(key, stored(value), ttl)) ? "OK" : null;
      if (only === "NX") return (await cache.add(key, stored(value), ttl)) ? "OK" : null;
      await cache.set(key, stored(value), ttl);
      return "OK";
    },
    async del(keys) {
      let deleted = 0;
      for (const key of keys.flat()) if (await cache.delete(key)) deleted += 1;
      return deleted;
    },
    async incrby(key, by) {
      try {
        return await cache.incr(key, Number(by));
      } catch (error) {
        throw new ReplyError("ERR value is not an integer or out of range");
      }
    },
    async eval(script, keys, args) {
      const shape = luaShape(script);
      if (keys.length === 1 && shape === CHECK_AND_DELETE) {
        return (await cache.deleteIf(keys[0], stored(args[0]))) ? 1 : 0;
      }
      const lockScript = LOCK_SCRIPTS.get(shape);
      if (lockScript !== undefined) {
        const ttl = lockScript === "release" ? 0 : integerArgument(args[1]);
        if (ttl <= 0 && lockScript !== "release") {
          throw new ReplyError("ERR invalid expire time in 'set' command");
        }
        return host.lockScript(lockScript, keys.map(String), stored(args[0]), ttl);
      }
      throw new ReplyError(UNKNOWN_SCRIPT);
    },
    // `EXISTS`: how many of the keys hold a value (a GET of each).
    async exists(keys) {
      let found = 0;
      for (const key of keys.flat()) if ((await cache.get(key)) != null) found += 1;
      return found;
    },
    // `PEXPIRE`: 1 if the key was live (a non-positive time deletes it).
    async pexpire(key, ms) {
      return (await host.expire(key, integerArgument(ms))) ? 1 : 0;
    },
  };
  const expiry = (unit, amount) => {
    const n = Number(amount);
    if (!Number.isInteger(n) || n <= 0) {
      throw new ReplyError("ERR invalid expire time in 'set' command");
    }
    return unit === "EX" ? n * 1000 : n;
  };

  // Redis commands the simulation does not model: a clear error naming
  // the command and what is modelled, not "not a function".
  const UNMODELLED = [
    "hget", "hset", "hgetall", "hdel", "hincrby", "hmget", "hmset", "mget", "mset",
    "lpush", "rpush", "lpop", "rpop", "lrange", "llen", "sadd", "srem", "smembers",
    "sismember", "scard", "zadd", "zrem", "zrange", "zscore", "zincrby", "publish",
    "subscribe", "multi", "pipeline", "exec", "watch", "unwatch", "getset", "getdel",
    "ttl", "pttl", "persist", "keys", "scan", "flushall", "flushdb", "rename", "append",
    "strlen", "evalsha", "script", "xadd", "xread",
  ];
  const MODELLED_REDIS =
    "GET, SET with EX/PX/NX/XX, SETEX, PSETEX, SETNX, DEL, EXISTS, INCR/DECR(BY), " +
    "EXPIRE, PEXPIRE, EVAL of check-and-delete and redlock's scripts, PING";
  const NODE_REDIS_UNMODELLED = [
    "hGet", "hSet", "hGetAll", "hDel", "hIncrBy", "hmGet", "mGet", "mSet", "lPush", "rPush",
    "lPop", "rPop", "lRange", "lLen", "sAdd", "sRem", "sMembers", "sIsMember", "sCard",
    "zAdd", "zRem", "zRange", "zScore", "zIncrBy", "publish", "subscribe", "multi", "exec",
    "watch", "unwatch", "getSet", "getDel", "ttl", "pTTL", "persist", "keys", "scan",
    "flushAll", "flushDb", "rename", "append", "strLen", "evalSha", "xAdd", "xRead",
  ];
  function unmodelled(prototype, library, names) {
    for (const name of names) {
      if (name in prototype) continue;
      Object.defineProperty(prototype, name, {
        configurable: true,
        writable: true,
        value() {
          throw new TypeError(
            `${library}: ${name.toUpperCase()} is not modelled by the simulated Redis ` +
              `(it has ${MODELLED_REDIS})`
          );
        },
      });
    }
  }

  // ioredis: `new Redis()`, variadic SET options.
  class Redis {
    constructor() {
      this.status = "ready";
    }
    get(key) {
      return redisCommands.get(key);
    }
    async set(key, value, ...options) {
      let ttl = 0;
      let only = null;
      for (let i = 0; i < options.length; i += 1) {
        const option = String(options[i]).toUpperCase();
        if (option === "EX" || option === "PX") {
          ttl = expiry(option, options[i + 1]);
          i += 1;
        } else if (option === "NX" || option === "XX") {
          only = option;
        } else {
          throw notModelled(`the SET option ${option}`);
        }
      }
      return redisCommands.set(key, value, ttl, only);
    }
    del(...keys) {
      return redisCommands.del(keys);
    }
    incr(key) {
      return redisCommands.incrby(key, 1);
    }
    decr(key) {
      return redisCommands.incrby(key, -1);
    }
    incrby(key, by) {
      return redisCommands.incrby(key, by);
    }
    decrby(key, by) {
      return redisCommands.incrby(key, -by);
    }
    eval(script, numkeys, ...args) {
      const n = Number(numkeys);
      args = args.flat();
      return redisCommands.eval(script, args.slice(0, n), args.slice(n));
    }
    async expire(key, seconds) {
      return redisCommands.pexpire(key, integerArgument(seconds) * 1000);
    }
    pexpire(key, ms) {
      return redisCommands.pexpire(key, ms);
    }
    // A Lua command, as ioredis defines it: the same recognised scripts as
    // `eval`; without `numberOfKeys` the first argument gives it.
    defineCommand(name, { numberOfKeys, lua } = {}) {
      const fixed = typeof numberOfKeys === "number";
      this[name] = (...args) => {
        args = args.flat();
        return fixed ? this.eval(lua, numberOfKeys, ...args) : this.eval(lua, ...args);
      };
    }
    setex(key, seconds, value) {
      return redisCommands.set(key, value, expiry("EX", seconds), null);
    }
    psetex(key, ms, value) {
      return redisCommands.set(key, value, expiry("PX", ms), null);
    }
    async setnx(key, value) {
      return (await redisCommands.set(key, value, 0, "NX")) === "OK" ? 1 : 0;
    }
    exists(...keys) {
      return redisCommands.exists(keys);
    }
    // Connection calls answer at once: the simulated Redis is always up.
    async connect() {
      this.status = "ready";
    }
    async ping(message) {
      return message === undefined ? "PONG" : String(message);
    }
    async quit() {
      this.status = "end";
      return "OK";
    }
    disconnect() {
      this.status = "end";
    }
    on() {
      return this;
    }
    once() {
      return this;
    }
  }
  unmodelled(Redis.prototype, "ioredis", UNMODELLED);

  // node-redis (v4 and v5): `createClient()`, `connect()`, SET options as
  // an object (`{ NX: true, PX: 100 }`, or v5's `{ expiration, condition }`).
  // Its errors are `SimpleError`s, a subclass of `ErrorReply` (named "Error", as
  // node-redis leaves them).
  class ErrorReply extends Error {}
  // node-redis 5 replies with its subclass `SimpleError` (`-ERR ...`).
  class SimpleError extends ErrorReply {}
  const asNodeRedis = async (command) => {
    try {
      return await command();
    } catch (error) {
      throw error instanceof ReplyError ? new SimpleError(error.message) : error;
    }
  };
  class RedisClient {
    constructor() {
      this.isOpen = false;
      this.isReady = false;
    }
    async connect() {
      this.isOpen = true;
      this.isReady = true;
      return this;
    }
    get(key) {
      return asNodeRedis(() => redisCommands.get(key));
    }
    set(key, value, options = {}) {
      return asNodeRedis(() => {
        let ttl = 0;
        for (const unit of ["EX", "PX"]) {
          if (options[unit] !== undefined) ttl = expiry(unit, options[unit]);
        }
        if (options.expiration) ttl = expiry(options.expiration.type, options.expiration.value);
        const only = options.NX ? "NX" : options.XX ? "XX" : options.condition || null;
        return redisCommands.set(key, value, ttl, only);
      });
    }
    del(keys) {
      return asNodeRedis(() => redisCommands.del([keys]));
    }
    incr(key) {
      return asNodeRedis(() => redisCommands.incrby(key, 1));
    }
    decr(key) {
      return asNodeRedis(() => redisCommands.incrby(key, -1));
    }
    incrBy(key, by) {
      return asNodeRedis(() => redisCommands.incrby(key, by));
    }
    decrBy(key, by) {
      return asNodeRedis(() => redisCommands.incrby(key, -by));
    }
    eval(script, options = {}) {
      return asNodeRedis(() =>
        redisCommands.eval(script, options.keys ?? [], options.arguments ?? [])
      );
    }
    expire(key, seconds) {
      return asNodeRedis(() => redisCommands.pexpire(key, integerArgument(seconds) * 1000));
    }
    pExpire(key, ms) {
      return asNodeRedis(() => redisCommands.pexpire(key, ms));
    }
    setEx(key, seconds, value) {
      return asNodeRedis(() => redisCommands.set(key, value, expiry("EX", seconds), null));
    }
    pSetEx(key, ms, value) {
      return asNodeRedis(() => redisCommands.set(key, value, expiry("PX", ms), null));
    }
    setNX(key, value) {
      return asNodeRedis(async () => ((await redisCommands.set(key, value, 0, "NX")) === "OK" ? 1 : 0));
    }
    exists(keys) {
      return asNodeRedis(() => redisCommands.exists([keys]));
    }
    async ping(message) {
      return message === undefined ? "PONG" : String(message);
    }
    async quit() {
      this.isOpen = false;
      this.isReady = false;
      return "OK";
    }
    async disconnect() {
      this.isOpen = false;
      this.isReady = false;
    }
    on() {
      return this;
    }
    once() {
      return this;
    }
  }
  unmodelled(RedisClient.prototype, "redis", NODE_REDIS_UNMODELLED);
  const nodeRedis = Object.freeze({
    createClient: () => new RedisClient(),
    ErrorReply,
    SimpleError,
  });

  Redis.Redis = Redis;
  Redis.default = Redis;
  Redis.ReplyError = ReplyError;

  // pg (node-postgres): `Pool`, `Client`, `query(text, values)` giving
  // `{ command, rowCount, rows, fields }`. Each query is one statement to
  // the simulated PostgreSQL (`src/script/sql/`, docs/sql.md): its round
  // trip, its counting and its trace. A client from `pool.connect()` keeps
  // its session (its transaction) until `release()`; a released client
  // goes back to its server's pool with whatever transaction it left
  // open, as a real connection does; `release(err)` closes it, which
  // rolls its transaction back. `pool.query` runs each statement on its
  // own (a BEGIN there opens nothing that the next query sees).
  class DatabaseError extends Error {
    constructor(fields) {
      super(fields.message);
      this.name = "error";
      this.length = fields.message.length;
      this.severity = "ERROR";
      this.code = fields.code;
      this.detail = fields.detail ?? undefined;
      this.hint = undefined;
      this.position = undefined;
      this.schema = fields.table ? "public" : undefined;
      this.table = fields.table ?? undefined;
      this.column = undefined;
      this.dataType = undefined;
      this.constraint = fields.constraint ?? undefined;
    }
  }
  // pg's default type parsers, by PostgreSQL type id.
  const pgParsers = {
    20: (value) => String(value),
    1700: (value) => String(value),
    1114: (value) => new Date(value),
    1184: (value) => new Date(value),
  };
  const pgParam = (value) => {
    if (value === null || value === undefined) return null;
    if (value instanceof Date) return value.toISOString();
    if (Array.isArray(value)) return value.map(pgParam);
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  };
  // `done`, if given, runs as the reply arrives (a pool's query gives its
  // connection back there, as pg does in the query's callback).
  const pgRun = async (session, text, values, rowMode, done) => {
    if (text !== null && typeof text === "object") {
      values = values ?? text.values;
      rowMode = text.rowMode;
      text = text.text;
    }
    if (typeof text !== "string") {
      done?.();
      throw new TypeError("Client was passed a null or undefined query");
    }
    const reply = await host.sql(text, (values ?? []).map(pgParam), session);
    done?.();
    if (reply.error) throw new DatabaseError(reply.error);
    const parsers = reply.fields.map((field) => pgParsers[field.dataTypeID]);
    const rows = reply.rows.map((row) => {
      const names = reply.fields.map((field) => field.name);
      const values = names.map((name, i) => {
        const value = row[name];
        return value === null || value === undefined || !parsers[i] ? value ?? null : parsers[i](value);
      });
      if (rowMode === "array") return values;
      const parsed = {};
      names.forEach((name, i) => {
        parsed[name] = values[i];
      });
      return parsed;
    });
    return {
      command: reply.command,
      rowCount: reply.rowCount,
      oid: reply.command === "INSERT" ? 0 : null,
      rows,
      fields: reply.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
      rowAsArray: rowMode === "array",
    };
  };
  // `query(text, values?, callback?)` as a promise, or with a callback;
  // `start(run)` may hold the statement back (a full pool).
  const pgQuery = (session, text, values, callback, start = (run) => run()) => {
    if (typeof values === "function") {
      callback = values;
      values = undefined;
    }
    const result = start((done) => pgRun(session, text, values, undefined, done));
    if (typeof callback !== "function") return result;
    result.then(
      (res) => callback(null, res),
      (error) => callback(error)
    );
    return undefined;
  };
  const idleSessions = [];
  class PgClient {
    constructor(options, session) {
      this.options = options;
      this.session = session ?? host.session();
      this._ending = false;
    }
    connect(callback) {
      if (typeof callback === "function") {
        callback(null);
        return undefined;
      }
      return Promise.resolve();
    }
    query(text, values, callback) {
      return pgQuery(this.session, text, values, callback);
    }
    end(callback) {
      this._ending = true;
      // Closing the connection ends its transaction.
      pgRun(this.session, "ROLLBACK").catch(() => {});
      if (typeof callback === "function") callback(null);
      return Promise.resolve();
    }
    on() {
      return this;
    }
  }
  // A pool hands out at most `max` connections (10 by default, as pg's)
  // at once, per server: `connect()` and `pool.query()` wait, first come
  // first served, for one to come back (`release()`, or the query's
  // reply), as pg-pool's queue does.
  class PgPool {
    constructor(options = {}) {
      this.options = options;
      this.max = options.max ?? 10;
      this._out = 0;
      this._waiting = [];
    }
    get totalCount() {
      return this._out;
    }
    get idleCount() {
      return 0;
    }
    get waitingCount() {
      return this._waiting.length;
    }
    // A connection now (null), or a promise of the one a release hands on
    // (its session, or null).
    _take() {
      if (this._out < this.max) {
        this._out += 1;
        return null;
      }
      return new Promise((resolve) => this._waiting.push(resolve));
    }
    // A connection comes back (with its session, or null when it closed):
    // to the first waiter, else to the pool.
    _give(session) {
      const next = this._waiting.shift();
      if (next) return next(session);
      this._out -= 1;
      if (session) idleSessions.push(session);
    }
    query(text, values, callback) {
      return pgQuery(undefined, text, values, callback, (run) => {
        const taken = this._take();
        const free = () => this._give(null);
        if (taken === null) return run(free);
        return taken.then((session) => {
          if (session) idleSessions.push(session);
          return run(free);
        });
      });
    }
    connect(callback) {
      const make = (session) => {
        const client = new PgClient(this.options, session ?? idleSessions.pop());
        let released = false;
        client.release = (error) => {
          if (released) {
            throw new Error(
              "Release called on client which has already been released to the pool."
            );
          }
          released = true;
          if (error) {
            pgRun(client.session, "ROLLBACK").catch(() => {});
            this._give(null);
          } else {
            this._give(client.session);
          }
        };
        return client;
      };
      const taken = this._take();
      const client = taken === null ? Promise.resolve(make(undefined)) : taken.then(make);
      if (typeof callback === "function") {
        client.then((client) => callback(null, client, client.release));
        return undefined;
      }
      return client;
    }
    end() {
      return Promise.resolve();
    }
    on() {
      return this;
    }
  }
  const pg = Object.freeze({
    Pool: PgPool,
    Client: PgClient,
    DatabaseError,
    types: Object.freeze({ setTypeParser: () => {}, getTypeParser: () => (value) => value }),
  });

  // ---------------------------------------------------------------------
  // memcached clients. Values are the cache's JSON values; a TTL is in
  // seconds, as memcached's (the simulated cache takes ms).

  // memjs hands back Buffers: a value is the Buffer of its text's UTF-8.
  const memjsFlags = () => Buffer.from([0, 0, 0, 0]);
  const memjsValue = (value) => {
    if (typeof value === "string") return value;
    if (value instanceof Buffer) return value.toString();
    const received =
      value === null || value === undefined
        ? `Received ${value}`
        : typeof value === "object"
          ? `Received an instance of ${value.constructor ? value.constructor.name : "Object"}`
          : `Received type ${typeof value} (${String(value)})`;
    throw new TypeError(
      "The first argument must be of type string or an instance of Buffer, ArrayBuffer, " +
        `or Array or an Array-like Object. ${received}`
    );
  };
  // memjs's two forms: a promise, or `callback(err, ...results)`.
  const memjsCall = (callback, run, spread) => {
    const promise = run();
    if (typeof callback !== "function") return promise;
    promise.then(
      (result) => callback(null, ...spread(result)),
      (error) => callback(error, null, null)
    );
    return undefined;
  };
  class MemjsClient {
    constructor(servers, options = {}) {
      this.servers = servers;
      // memjs logs a failed command's message with its `logger` (console).
      this.options = { expires: 0, logger: console, ...options };
    }
    static create(servers, options) {
      return new MemjsClient(servers, options);
    }
    _ttl(options) {
      const seconds = (options && options.expires) || this.options.expires || 0;
      return Number(seconds) * 1000;
    }
    get(key, callback) {
      return memjsCall(
        callback,
        async () => {
          const value = await cache.get(key);
          return value === undefined
            ? { value: null, flags: null }
            : { value: Buffer.from(String(value)), flags: memjsFlags() };
        },
        (result) => [result.value, result.flags]
      );
    }
    _store(kind, key, value, options, callback) {
      if (typeof options === "function") [options, callback] = [{}, options];
      return memjsCall(
        callback,
        async () => {
          const text = memjsValue(value);
          const ttl = this._ttl(options);
          if (kind === "set") return cache.set(key, text, ttl);
          if (kind === "add") return cache.add(key, text, ttl);
          return host.replace(key, text, ttl);
        },
        (stored) => [stored]
      );
    }
    set(key, value, options, callback) {
      return this._store("set", key, value, options, callback);
    }
    add(key, value, options, callback) {
      return this._store("add", key, value, options, callback);
    }
    replace(key, value, options, callback) {
      return this._store("replace", key, value, options, callback);
    }
    delete(key, callback) {
      return memjsCall(callback, () => cache.delete(key), (deleted) => [deleted]);
    }
    _counter(name, sign, key, amount, options, callback) {
      if (typeof options === "function") [options, callback] = [{}, options];
      return memjsCall(
        callback,
        async () => {
          // memjs 1.3 reads `options.initial` unguarded in `decrement`.
          if (options === undefined && name === "DECREMENT") {
            throw new TypeError("Cannot read properties of undefined (reading 'initial')");
          }
          options = options || {};
          try {
            const value = await host.counter(
              key,
              sign * Number(amount),
              Number(options.initial || 0),
              this._ttl(options)
            );
            return { success: true, value };
          } catch (error) {
            const message = `MemJS ${name}: Incr/Decr on non-numeric value`;
            this.options.logger.log(message);
            throw new Error(message);
          }
        },
        (result) => [result.success, result.value]
      );
    }
    increment(key, amount, options, callback) {
      return this._counter("INCREMENT", 1, key, amount, options, callback);
    }
    decrement(key, amount, options, callback) {
      return this._counter("DECREMENT", -1, key, amount, options, callback);
    }
    touch(key, expires, callback) {
      return memjsCall(
        callback,
        () => host.expire(key, Number(expires) * 1000 || 0),
        (touched) => [touched]
      );
    }
    close() {}
    quit() {}
  }
  const memjs = Object.freeze({ Client: MemjsClient });

  // The `memcached` package: callbacks only, `callback(err, data)` with
  // `err` undefined on success. Values keep their type (memcached's flags
  // carry it): a number comes back a number, an object as JSON.
  const notStored = () => {
    const error = new Error("Item is not stored");
    error.notStored = true;
    return error;
  };
  class Memcached extends EventEmitter {
    constructor(location, options = {}) {
      super();
      this.servers = location;
      this.options = options;
    }
    _call(callback, run) {
      const done = typeof callback === "function" ? callback : () => {};
      run().then(
        ([error, data]) => done(error, data),
        (error) => done(error, false)
      );
    }
    get(key, callback) {
      this._call(callback, async () => [undefined, await cache.get(key)]);
    }
    _store(kind, key, value, lifetime, callback) {
      this._call(callback, async () => {
        const ttl = Number(lifetime) * 1000 || 0;
        let stored;
        if (kind === "set") stored = await cache.set(key, value, ttl);
        else if (kind === "add") stored = await cache.add(key, value, ttl);
        else stored = await host.replace(key, value, ttl);
        return stored ? [undefined, true] : [notStored(), false];
      });
    }
    set(key, value, lifetime, callback) {
      this._store("set", key, value, lifetime, callback);
    }
    add(key, value, lifetime, callback) {
      this._store("add", key, value, lifetime, callback);
    }
    replace(key, value, lifetime, callback) {
      this._store("replace", key, value, lifetime, callback);
    }
    del(key, callback) {
      this._call(callback, async () => [undefined, await cache.delete(key)]);
    }
    _counter(sign, key, amount, callback) {
      this._call(callback, async () => {
        try {
          const value = await host.counter(key, sign * Number(amount));
          return [undefined, value === null ? false : value];
        } catch (error) {
          return [new Error("cannot increment or decrement non-numeric value"), false];
        }
      });
    }
    incr(key, amount, callback) {
      this._counter(1, key, amount, callback);
    }
    decr(key, amount, callback) {
      this._counter(-1, key, amount, callback);
    }
    touch(key, lifetime, callback) {
      this._call(callback, async () => [
        undefined,
        await host.expire(key, Number(lifetime) * 1000 || 0),
      ]);
    }
    end() {}
  }

  // ---------------------------------------------------------------------
  // redlock, on the client's Redis: each attempt is one run of redlock's
  // own Lua script per client (one cache operation), as its round trips
  // are (the script cache is taken as warm: no NOSCRIPT round trip).
  // `lock`/`unlock`, and `acquire` of one resource named by a string, are
  // redlock 4.2 (the npm `latest`): a failed attempt releases what it got
  // and retries; failure is a `LockError`. `acquire` of an array of
  // resources, `release`, `extend(lock, ms)` and `using` are redlock 5:
  // a failure after the retries is an `ExecutionError`.
  const lockValue = () => hex(8) + hex(8) + hex(8) + hex(8);
  const retryWait = (settings) =>
    Math.max(0, settings.retryDelay + Math.floor((Math.random() * 2 - 1) * settings.retryJitter));
  class LockError extends Error {
    constructor(message, attempts) {
      super(message || "Failed to lock the resource.");
      this.name = "LockError";
      this.attempts = attempts;
    }
  }
  class ResourceLockedError extends Error {
    constructor(message) {
      super(message);
      this.name = "ResourceLockedError";
    }
  }
  class ExecutionError extends Error {
    constructor(message, attempts) {
      super(message);
      this.name = "ExecutionError";
      this.attempts = attempts;
    }
  }
  class Lock {
    constructor(redlock, resources, value, attempts, expiration) {
      this.redlock = redlock;
      this.resources = resources;
      this.resource = resources;
      this.value = value;
      this.attempts = attempts;
      this.expiration = expiration;
    }
    // redlock 4: `extend` keeps this lock object; redlock 5 gives a new one.
    extend(duration) {
      return this._v4
        ? this.redlock._extendV4(this, duration)
        : this.redlock.extend(this, duration);
    }
    release() {
      return this._v4 ? this.redlock.unlock(this) : this.redlock.release(this);
    }
    unlock() {
      return this.redlock.unlock(this);
    }
  }
  const DEFAULTS = { driftFactor: 0.01, retryCount: 10, retryDelay: 200, retryJitter: 100,
    automaticExtensionThreshold: 500 };
  class Redlock extends EventEmitter {
    constructor(clients, settings = {}) {
      super();
      this.on("error", () => {});
      this.clients = [...new Set(clients)];
      if (this.clients.length === 0) {
        throw new Error("Redlock must be instantiated with at least one redis client.");
      }
      this.servers = this.clients;
      this.settings = {};
      for (const name of Object.keys(DEFAULTS)) {
        this.settings[name] = typeof settings[name] === "number" ? settings[name] : DEFAULTS[name];
        this[name] = this.settings[name];
      }
    }
    // One run of `script` on every client (all reach the one simulated
    // Redis): how many answered with the number of keys.
    async _round(script, keys, args) {
      const results = await Promise.all(
        this.clients.map((client) =>
          redisCommands.eval(script, keys, args).then(
            (n) => n,
            (error) => {
              this.emit("clientError", error);
              return -1;
            }
          )
        )
      );
      return results.filter((n) => n === keys.length).length;
    }
    _quorum() {
      return Math.floor(this.clients.length / 2) + 1;
    }
    // redlock 4's `_lock`: acquire (value null) or extend.
    _lockV4(resource, value, ttl, options = {}) {
      const resources = Array.isArray(resource) ? resource : [resource];
      const extending = value !== null;
      if (!extending) value = lockValue();
      const retryCount = options.retryCount || this.retryCount;
      const retryDelay = options.retryDelay || this.retryDelay;
      let attempts = 0;
      return new Promise((resolve, reject) => {
        const attempt = async () => {
          attempts += 1;
          const start = Date.now();
          const votes = await this._round(
            extending ? REDLOCK_EXTEND : REDLOCK_ACQUIRE,
            resources,
            [value, ttl]
          );
          const drift = Math.round(this.driftFactor * ttl) + 2;
          const lock = new Lock(this, resources, value, attempts, start + ttl - drift);
          lock._v4 = true;
          lock.attemptsRemaining = retryCount - attempts;
          if (votes >= this._quorum() && lock.expiration > Date.now()) return resolve(lock);
          await this.unlock(lock).catch(() => {});
          if (retryCount === -1 || attempts <= retryCount) {
            setTimeout(attempt, retryWait({ retryDelay, retryJitter: this.retryJitter }));
            return;
          }
          reject(
            new LockError(
              `Exceeded ${retryCount} attempts to lock the resource "${resources}".`,
              attempts
            )
          );
        };
        attempt();
      });
    }
    lock(resource, ttl) {
      return this._lockV4(resource, null, ttl);
    }
    lockWithOptions(resource, ttl, options) {
      return this._lockV4(resource, null, ttl, options);
    }
    acquireWithOptions(resource, ttl, options) {
      return this._lockV4(resource, null, ttl, options);
    }
    async unlock(lock) {
      const resources = Array.isArray(lock.resource) ? lock.resource : [lock.resource];
      lock.expiration = 0;
      const votes = await this._round(REDLOCK_RELEASE, resources, [lock.value]);
      if (votes >= this._quorum()) return undefined;
      throw new LockError(`Unable to fully release the lock on resource "${lock.resource}".`);
    }
    async _extendV4(lock, ttl) {
      if (lock.expiration < Date.now()) {
        throw new LockError(
          `Cannot extend lock on resource "${lock.resource}" because the lock has already expired.`,
          0
        );
      }
      const extension = await this._lockV4(lock.resource, lock.value, ttl);
      lock.value = extension.value;
      lock.expiration = extension.expiration;
      return lock;
    }
    quit() {
      return Promise.resolve();
    }
    // redlock 5.
    acquire(resources, duration, settings) {
      if (!Array.isArray(resources)) return this._lockV4(resources, null, duration);
      return this._acquire(resources, duration, settings);
    }
    async _acquire(resources, duration, settings) {
      if (Math.floor(duration) !== duration) {
        throw new Error("Duration must be an integer value in milliseconds.");
      }
      const start = Date.now();
      const value = lockValue();
      try {
        const { attempts } = await this._execute(REDLOCK_ACQUIRE, resources, [value, duration],
          settings);
        const drift = Math.round((settings?.driftFactor ?? this.settings.driftFactor) * duration) + 2;
        return new Lock(this, resources, value, attempts, start + duration - drift);
      } catch (error) {
        await this._execute(REDLOCK_RELEASE, resources, [value], { retryCount: 0 }).catch(() => {});
        throw error;
      }
    }
    async release(lock, settings) {
      if (lock._v4) return this.unlock(lock);
      lock.expiration = 0;
      return this._execute(REDLOCK_RELEASE, lock.resources, [lock.value], settings);
    }
    async extend(existing, duration, settings) {
      if (existing._v4) return this._extendV4(existing, duration);
      if (Math.floor(duration) !== duration) {
        throw new Error("Duration must be an integer value in milliseconds.");
      }
      const start = Date.now();
      if (existing.expiration < Date.now()) {
        throw new ExecutionError("Cannot extend an already-expired lock.", []);
      }
      const { attempts } = await this._execute(REDLOCK_EXTEND, existing.resources,
        [existing.value, duration], settings);
      existing.expiration = 0;
      const drift = Math.round((settings?.driftFactor ?? this.settings.driftFactor) * duration) + 2;
      return new Lock(this, existing.resources, existing.value, attempts, start + duration - drift);
    }
    async _execute(script, keys, args, overrides) {
      const settings = overrides ? { ...this.settings, ...overrides } : this.settings;
      const maxAttempts = settings.retryCount === -1 ? Infinity : settings.retryCount + 1;
      const attempts = [];
      for (;;) {
        const votes = await this._round(script, keys, args);
        const stats = {
          membershipSize: this.clients.length,
          quorumSize: this._quorum(),
          votesFor: votes,
          votesAgainst: this.clients.length - votes,
        };
        attempts.push(Promise.resolve(stats));
        if (votes >= stats.quorumSize) return { attempts };
        this.emit(
          "error",
          new ResourceLockedError(
            `The operation was applied to: 0 of the ${keys.length} requested resources.`
          )
        );
        if (attempts.length < maxAttempts) {
          await new Promise((resolve) => setTimeout(resolve, retryWait(settings)));
        } else {
          throw new ExecutionError(
            "The operation was unable to achieve a quorum during its retry window.",
            attempts
          );
        }
      }
    }
    async using(resources, duration, settingsOrRoutine, optionalRoutine) {
      if (Math.floor(duration) !== duration) {
        throw new Error("Duration must be an integer value in milliseconds.");
      }
      const settings =
        settingsOrRoutine && typeof settingsOrRoutine !== "function"
          ? { ...this.settings, ...settingsOrRoutine }
          : this.settings;
      const routine = optionalRoutine ?? settingsOrRoutine;
      if (typeof routine !== "function") throw new Error("INVARIANT: routine is not a function.");
      if (settings.automaticExtensionThreshold > duration - 100) {
        throw new Error(
          "A lock `duration` must be at least 100ms greater than the " +
            "`automaticExtensionThreshold` setting."
        );
      }
      // An AbortSignal's reading: `aborted`, and the extension's `error`.
      const signal = { aborted: false, error: undefined };
      let timeout;
      let extension;
      let lock;
      const queue = () => {
        timeout = setTimeout(
          () => (extension = extend()),
          lock.expiration - Date.now() - settings.automaticExtensionThreshold
        );
      };
      const extend = async () => {
        timeout = undefined;
        try {
          lock = await lock.extend(duration);
          queue();
        } catch (error) {
          if (lock.expiration > Date.now()) return (extension = extend());
          signal.error = error;
          signal.aborted = true;
        }
      };
      lock = await this._acquire(resources, duration, settings);
      queue();
      try {
        return await routine(signal);
      } finally {
        if (timeout) {
          clearTimeout(timeout);
          timeout = undefined;
        }
        if (extension) await extension.catch(() => {});
        await lock.release();
      }
    }
  }
  Redlock.default = Redlock;
  Redlock.Redlock = Redlock;
  Redlock.Lock = Lock;
  Redlock.LockError = LockError;
  Redlock.ExecutionError = ExecutionError;
  Redlock.ResourceLockedError = ResourceLockedError;


  // Express and Fastify routes as the handler (docs/scripting.md, "Routes"):
  // each app records its routes; when the script defines no `handle`, a
  // request goes to the app's first POST route (else its first route),
  // through the middlewares registered before it, with a `req`/`res` (or
  // `request`/`reply`) made from the simulated request. The request ends
  // when the response is sent; a status of 500 or more, or a throw, is
  // its error. Each response counts `status_NNN` and logs
  // `METHOD /path NNN`.
  const routeApps = [];
  const countNative = globalThis.count;
  const logNative = globalThis.console.log;
  const isThenable = (value) =>
    value !== null && (typeof value === "object" || typeof value === "function") &&
    typeof value.then === "function";

  // `/tickets/:user/:id` with the request's values: a parameter whose name
  // has `user` in it is the user, any other the request's key.
  function fillPath(path, plain) {
    const params = {};
    const url = String(path).replace(/:([A-Za-z0-9_]+)\??/g, (_, name) => {
      const value = String(/user/i.test(name) ? plain.user : plain.key);
      params[name] = value;
      return value;
    });
    return { url: url === "*" || url === "" ? "/" : url, params };
  }

  function incoming(plain, route) {
    const { url, params } = fillPath(route.path, plain);
    const headers = {
      host: "localhost",
      "content-type": "application/json",
      "x-request-id": String(plain.id),
      "x-user-id": String(plain.user),
    };
    const request = Object.assign({}, plain, {
      method: route.method,
      url,
      path: url,
      originalUrl: url,
      params,
      query: {},
      headers,
      body: { user: plain.user, click: plain.click, key: plain.key },
      ip: "127.0.0.1",
      hostname: "localhost",
      protocol: "http",
    });
    request.get = request.header = (name) => headers[String(name).toLowerCase()];
    return request;
  }

  function statusError(status, body) {
    const said =
      body && typeof body === "object"
        ? body.error ?? body.message
        : body;
    const text = said === undefined ? "" : `: ${typeof said === "string" ? said : JSON.stringify(said)}`;
    const error = new Error(`HTTP ${status}${text}`);
    error.statusCode = status;
    return error;
  }

  // One response: `finish(status, body)` answers the request once.
  function responder(route, request, done) {
    let sent = false;
    const line = `${request.method} ${request.url}`;
    return {
      get sent() {
        return sent;
      },
      finish(status, body) {
        if (sent) {
          const error = new Error("Cannot set headers after they are sent to the client");
          error.code = "ERR_HTTP_HEADERS_SENT";
          throw error;
        }
        sent = true;
        countNative(`status_${status}`);
        logNative(`${line} ${status}`);
        if (status >= 500) done.reject(statusError(status, body));
        else done.resolve();
      },
      // An error's response: its `statusCode`, else its `status`, of 400
      // to 599 (as Express and Fastify read it), else `otherwise`.
      fail(error, otherwise = 500) {
        if (sent) throw error;
        sent = true;
        const code = (value) => (value >= 400 && value <= 599 ? Number(value) : undefined);
        const status = code(error && error.statusCode) ?? code(error && error.status) ?? otherwise;
        countNative(`status_${status}`);
        logNative(`${line} ${status}`);
        if (status >= 500) done.reject(error);
        else done.resolve();
      },
    };
  }

  function deferred() {
    const done = {};
    done.promise = new Promise((resolve, reject) => {
      done.resolve = resolve;
      done.reject = reject;
    });
    return done;
  }

  const METHODS = ["get", "post", "put", "patch", "delete", "head", "options", "all"];

  // Express (4 and 5): an app or a Router records its stack of layers,
  // `{ use, path }` (a middleware or a mounted router, with its mount
  // path) and `{ route: { method, path, handlers } }`, which a request
  // walks in order as Express's router does (`expressHandle`).
  function expressRouter() {
    const router = { stack: [] };
    for (const method of METHODS) {
      router[method] = function (path, ...handlers) {
        if (method === "get" && handlers.length === 0) return undefined; // app.get(setting)
        router.stack.push({
          route: { method: method.toUpperCase(), path, handlers: handlers.flat() },
        });
        return router;
      };
    }
    router.route = (path) => {
      const chain = {};
      for (const method of METHODS) {
        chain[method] = (...handlers) => {
          router[method](path, ...handlers);
          return chain;
        };
      }
      return chain;
    };
    router.use = function (...args) {
      const path = typeof args[0] === "string" ? args.shift() : "/";
      for (const fn of args.flat()) {
        if (fn && (Array.isArray(fn.stack) || typeof fn === "function")) {
          router.stack.push({ use: fn, path });
        }
      }
      return router;
    };
    return router;
  }

  // The routes of an Express router in order (for choosing one), each
  // with its whole path and the app it belongs to.
  function expressRoutes(router, prefix, app, out) {
    for (const layer of router.stack) {
      if (layer.use && Array.isArray(layer.use.stack)) {
        expressRoutes(layer.use, joinPath(prefix, layer.path), app, out);
      } else if (layer.route) {
        const path = joinPath(prefix, layer.route.path);
        const method = layer.route.method === "ALL" ? "GET" : layer.route.method;
        out.push({ method, path, app, express: true, all: layer.route.method === "ALL" });
      }
    }
    return out;
  }

  function joinPath(prefix, path) {
    if (prefix === "" || prefix === "/") return String(path);
    return path === "/" ? prefix : prefix + path;
  }

  // A path pattern (`/orders/:id/pay`, `:id?`, `*`) against a path: its
  // params, or undefined. `end` false: a prefix up to a `/` matches (a
  // mount path). Case-insensitive and a trailing slash allowed, as
  // Express's defaults are.
  function matchPath(pattern, path, end) {
    if (pattern instanceof RegExp) {
      const found = pattern.exec(path);
      return found ? { params: Object.assign({}, found.slice(1)), matched: found[0] } : undefined;
    }
    if (!end && (pattern === "/" || pattern === "" || pattern === "*")) return { params: {}, matched: "" };
    const names = [];
    const source = String(pattern)
      .replace(/\/$/, "")
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/(\/)?:([A-Za-z0-9_]+)(\?)?/g, (_, slash, name, optional) => {
        names.push(name);
        const part = `${slash ? "\\/" : ""}([^\\/]+?)`;
        return optional ? `(?:${part})?` : part;
      })
      .replace(/\*/g, "(.*)");
    const found = new RegExp(`^${source}${end ? "\\/?$" : "(?=\\/|$)"}`, "i").exec(path);
    if (!found) return undefined;
    const params = {};
    names.forEach((name, i) => {
      if (found[i + 1] !== undefined) params[name] = found[i + 1];
    });
    return { params, matched: found[0] };
  }

  function express() {
    const app = expressRouter();
    const settings = {};
    app.locals = {};
    app.set = (name, value) => {
      settings[name] = value;
      return app;
    };
    const get = app.get;
    app.get = (name, ...rest) => (rest.length === 0 ? settings[name] : get(name, ...rest));
    app.enable = (name) => app.set(name, true);
    app.disable = (name) => app.set(name, false);
    app.listen = (...args) => {
      const callback = args.find((arg) => typeof arg === "function");
      if (callback) setImmediate(callback);
      return { close: (done) => done && setImmediate(done), address: () => ({ port: args[0] }) };
    };
    app.kind = "express";
    routeApps.push(app);
    return app;
  }
  const passThrough = () => (req, res, next) => next();
  // `express.json()` is what gives `req.body` (without it, as in Express,
  // `req.body` is undefined).
  express.json = () => function jsonParser(req, res, next) {
    if (req.body === undefined) req.body = req.rawBody;
    next();
  };
  express.urlencoded = passThrough;
  express.text = passThrough;
  express.raw = passThrough;
  express.static = passThrough;
  express.Router = () => expressRouter();
  express.default = express;

  function expressResponse(reply) {
    const res = {
      statusCode: 200,
      locals: {},
      get headersSent() {
        return reply.sent;
      },
      status(code) {
        res.statusCode = Number(code);
        return res;
      },
      set() {
        return res;
      },
      header() {
        return res;
      },
      setHeader() {
        return res;
      },
      type() {
        return res;
      },
      json(body) {
        reply.finish(res.statusCode, body);
        return res;
      },
      send(body) {
        reply.finish(res.statusCode, body);
        return res;
      },
      end(body) {
        reply.finish(res.statusCode, body);
        return res;
      },
      sendStatus(code) {
        res.statusCode = Number(code);
        reply.finish(res.statusCode, undefined);
        return res;
      },
    };
    return res;
  }

  // Calls one Express handler: a throw, or (Express 5's rule) a rejected
  // promise, goes to `next(error)`.
  function callLayer(fn, args, next) {
    try {
      const value = fn(...args);
      if (isThenable(value)) {
        value.then(undefined, (error) => next(error ?? new Error("Rejected promise")));
      }
    } catch (error) {
      next(error);
    }
  }

  // A request through an Express router's stack, as Express's router
  // walks it: each middleware whose mount path matches and each route
  // whose method and path match, in order, on `next()`; with an error
  // (`next(error)`, a throw), only error middlewares (four parameters);
  // `next('route')` leaves a route's handlers, `next('router')` the
  // router. `out(error)` when the stack is done.
  function expressHandle(router, req, res, out) {
    let index = 0;
    const base = req.baseUrl;
    const path = req.url;
    const next = (error) => {
      req.baseUrl = base;
      req.url = req.path = path;
      if (error === "router") return out(undefined);
      let pending = error === "route" ? undefined : error;
      while (index < router.stack.length) {
        const layer = router.stack[index++];
        if (layer.route) {
          if (pending !== undefined) continue;
          const { method, handlers } = layer.route;
          if (method !== "ALL" && method !== req.method) continue;
          const found = matchPath(layer.route.path, path, true);
          if (found === undefined) continue;
          req.params = found.params;
          return routeHandle(handlers, req, res, next);
        }
        const found = matchPath(layer.path, path, false);
        if (found === undefined) continue;
        const fn = layer.use;
        const mounted = found.matched;
        if (mounted !== "") {
          req.baseUrl = base + mounted;
          req.url = req.path = path.slice(mounted.length) || "/";
        }
        if (Array.isArray(fn.stack)) return expressHandle(fn, req, res, next);
        if (pending !== undefined) {
          if (fn.length >= 4) return callLayer(fn, [pending, req, res, next], next);
        } else if (fn.length < 4) {
          return callLayer(fn, [req, res, next], next);
        }
        req.baseUrl = base;
        req.url = req.path = path;
      }
      return out(pending);
    };
    next();
  }

  // A route's handlers, in order; an error goes to its own error
  // handlers, then out of the route.
  function routeHandle(handlers, req, res, out) {
    let index = 0;
    const next = (error) => {
      if (error === "route" || error === "router") return out(error);
      while (index < handlers.length) {
        const fn = handlers[index++];
        if (error !== undefined) {
          if (fn.length >= 4) return callLayer(fn, [error, req, res, next], next);
        } else if (fn.length < 4) {
          return callLayer(fn, [req, res, next], next);
        }
      }
      return out(error);
    };
    next();
  }

  function runExpress(route, plain) {
    const request = incoming(plain, route);
    request.rawBody = request.body;
    request.body = undefined;
    request.baseUrl = "";
    const done = deferred();
    const reply = responder(route, request, done);
    const res = expressResponse(reply);
    request.res = res;
    res.req = request;
    // Past the stack: Express's final handler, a 404 (`Cannot POST /x`),
    // or the error's status (its `status` or `statusCode` of 400 to 599,
    // else 500). An error after the response was sent ends nothing more.
    expressHandle(route.app, request, res, (error) => {
      if (reply.sent) return;
      if (error === undefined) {
        res.status(404).send(`Cannot ${request.method} ${request.originalUrl}`);
      } else {
        reply.fail(error);
      }
    });
    return done.promise;
  }

  // Fastify: `require('fastify')(options)` is an instance. Its routes go
  // to the root's list, each with the context (instance or plugin) it was
  // registered in; a route runs the hooks of its context and of the
  // contexts above it, whenever they were added (Fastify reads them when
  // it is ready), by phase: onRequest, preParsing, preValidation,
  // preHandler.
  const HOOK_PHASES = ["onRequest", "preParsing", "preValidation", "preHandler"];
  function fastify() {
    const root = { routes: [], kind: "fastify" };
    const context = (parent) => {
      const instance = parent ? Object.create(parent) : root;
      instance.parent = parent;
      instance.hooks = [];
      const add = (method, path, options, handler) => {
        if (typeof options === "function") handler = options;
        else if (options && typeof options.handler === "function") handler = options.handler;
        const prefix = instance.prefix ?? "";
        root.routes.push({ method, path: prefix + path, handler, context: instance });
        return instance;
      };
      for (const method of METHODS) {
        instance[method] = (path, options, handler) =>
          add(method === "all" ? "GET" : method.toUpperCase(), path, options, handler);
      }
      instance.route = (options) => {
        const method = [].concat(options.method)[0];
        return add(String(method).toUpperCase(), options.url ?? options.path, options);
      };
      instance.addHook = (name, fn) => {
        if (HOOK_PHASES.includes(name)) instance.hooks.push({ phase: HOOK_PHASES.indexOf(name), fn });
        return instance;
      };
      instance.register = (plugin, options) => {
        const plugged = typeof plugin === "function" ? plugin : plugin && plugin.default;
        if (typeof plugged === "function") {
          const child = context(instance);
          if (options && options.prefix) child.prefix = (instance.prefix ?? "") + options.prefix;
          const value = plugged(child, options ?? {}, () => {});
          if (isThenable(value)) value.then(undefined, () => {});
        }
        return instance;
      };
      instance.setErrorHandler = (fn) => {
        instance.errorHandler = fn;
        return instance;
      };
      return instance;
    };
    const instance = context(undefined);
    instance.errorHandler = undefined;
    instance.setNotFoundHandler = () => instance;
    instance.decorate = (name, value) => {
      instance[name] = value;
      return instance;
    };
    instance.decorateRequest = () => instance;
    instance.decorateReply = () => instance;
    instance.log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {} };
    instance.ready = () => Promise.resolve(instance);
    instance.close = () => Promise.resolve();
    instance.listen = (...args) => {
      const callback = args.find((arg) => typeof arg === "function");
      if (callback) {
        setImmediate(() => callback(null, "http://127.0.0.1:3000"));
        return undefined;
      }
      return Promise.resolve("http://127.0.0.1:3000");
    };
    routeApps.push(root);
    return instance;
  }
  fastify.fastify = fastify;
  fastify.default = fastify;

  // One request on a Fastify route: its hooks by phase, then the handler;
  // the value a handler returns (or resolves with) is sent, `undefined`
  // too (an empty 200) when nothing was sent. An error (a throw, a
  // rejection, `reply.send(error)`, a hook's `done(error)`) goes to the
  // nearest `setErrorHandler`, else answers the error's status (its
  // `statusCode` or `status` of 400 to 599, else the reply's 4xx or 5xx,
  // else 500). A send after the response is ignored (Fastify logs it).
  function runFastify(route, plain) {
    const request = incoming(plain, route);
    request.log = { info() {}, warn() {}, error() {}, debug() {} };
    const done = deferred();
    const response = responder(route, request, done);
    const handlers = [];
    for (let at = route.context; at; at = at.parent) {
      if (Object.prototype.hasOwnProperty.call(at, "errorHandler") && at.errorHandler) {
        handlers.push(at.errorHandler);
      }
    }
    let handling = 0;
    const reply = {
      statusCode: 200,
      request,
      get sent() {
        return response.sent;
      },
      code(code) {
        reply.statusCode = Number(code);
        return reply;
      },
      status(code) {
        return reply.code(code);
      },
      header() {
        return reply;
      },
      headers() {
        return reply;
      },
      type() {
        return reply;
      },
      send(payload) {
        if (response.sent) return reply;
        if (payload instanceof Error) fail(payload);
        else response.finish(reply.statusCode, payload);
        return reply;
      },
    };
    const fail = (error) => {
      if (response.sent) return;
      const status = reply.statusCode;
      const code = (value) => (value >= 400 && value <= 599 ? Number(value) : undefined);
      const handler = handlers[handling++];
      if (handler === undefined) {
        return response.fail(error, code(status) ?? 500);
      }
      try {
        const value = handler.call(route.context, error, request, reply);
        if (isThenable(value)) {
          value.then((value) => {
            if (value !== undefined && !response.sent) reply.send(value);
          }, fail);
        }
      } catch (thrown) {
        fail(thrown);
      }
    };
    const hooks = [];
    for (let at = route.context; at; at = at.parent) hooks.unshift(...at.hooks);
    hooks.sort((a, b) => a.phase - b.phase);
    (async () => {
      for (const { fn } of hooks) {
        if (response.sent) return;
        await new Promise((resolve, reject) => {
          const value = fn.call(route.context, request, reply, (error) => (error ? reject(error) : resolve()));
          if (isThenable(value)) value.then(resolve, reject);
          else if (response.sent) resolve(); // a hook that answered
        });
      }
      if (response.sent) return;
      const value = route.handler.call(route.context, request, reply);
      if (isThenable(value)) {
        const resolved = await value;
        if (!response.sent) reply.send(resolved);
      } else if (value !== undefined && !response.sent) {
        reply.send(value);
      }
    })().then(undefined, fail);
    return done.promise;
  }

  // The route a request goes to, as a `handle(req)`: the one `choice`
  // names (`route=`: "POST /orders/:id/pay", or a path alone: its POST
  // route, else its first), else the first POST route, else the first;
  // undefined if no app registered one. A choice that matches none
  // answers why, as a string (the load error).
  Object.defineProperty(globalThis, Symbol.for("interleave.route"), {
    value(choice) {
      const routes = [];
      for (const app of routeApps) {
        if (app.kind === "express") expressRoutes(app, "", app, routes);
        else routes.push(...app.routes);
      }
      let route = routes.find((route) => route.method === "POST") ?? routes[0];
      if (choice !== undefined) {
        const words = String(choice).trim().split(/\s+/);
        const path = words.pop();
        const method = words.length ? words[0].toUpperCase() : undefined;
        const on = routes.filter((route) => route.path === path);
        route = method === undefined
          ? on.find((route) => route.method === "POST") ?? on[0]
          : on.find((route) => route.method === method) ??
            on.filter((route) => route.all).map((route) => Object.assign({}, route, { method }))[0];
        if (route === undefined) {
          const names = routes.map((route) => `${route.all ? "ALL" : route.method} ${route.path}`);
          return `no route ${method ? method + " " : ""}${path}: ` + (names.length
            ? `the app registers ${names.join(", ")}`
            : "the script registers no Express or Fastify route");
        }
      }
      if (route === undefined) return undefined;
      const run = route.express ? runExpress : runFastify;
      return function handle(req) {
        return run(route, req);
      };
    },
    writable: false,
    configurable: false,
    enumerable: false,
  });

  const modules = {
    pg,
    memjs,
    memcached: Memcached,
    redlock: Redlock,
    ioredis: Redis,
    redis: nodeRedis,
    "async-mutex": Object.freeze({
      Mutex,
      Semaphore,
      withTimeout,
      tryAcquire,
      E_TIMEOUT,
      E_ALREADY_LOCKED,
      E_CANCELED,
    }),
    events,
    "p-limit": pLimit,
    "lru-cache": Object.freeze({ LRUCache }),
    crypto,
    process,
    express,
    fastify,
    "timers/promises": Object.freeze({
      setTimeout: timers.setTimeout[promisifyCustom],
      setImmediate: timers.setImmediate[promisifyCustom],
    }),
    timers: Object.freeze({ ...timers }),
    util,
  };
  const names = Object.keys(modules).sort().join(", ");

  define("require", function require(name) {
    const key = String(name).replace(/^node:/, "");
    if (Object.prototype.hasOwnProperty.call(modules, key)) return modules[key];
    const error = new Error(
      `Cannot find module '${name}': the built-in modules are ${names}`
    );
    error.code = "MODULE_NOT_FOUND";
    throw error;
  });

  // A CommonJS handler: `module.exports = { handle }`.
  const module = { exports: {} };
  define("module", module);
  define("exports", module.exports);
})(__host);
delete globalThis.__host;
// Nothing outside the simulation: no eval of other code.
delete globalThis.eval;
