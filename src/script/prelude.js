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
  class LRUCache {
    constructor(options = {}) {
      const { max = Infinity, ttl = 0 } = options;
      if (!(max > 0)) throw new TypeError("max option must be a positive integer");
      this.max = max;
      this.ttl = ttl;
      this._map = new Map();
    }
    get size() {
      return this._map.size;
    }
    _live(key) {
      const entry = this._map.get(key);
      if (entry === undefined) return undefined;
      if (entry.expires !== 0 && performance.now() >= entry.expires) {
        this._map.delete(key);
        return undefined;
      }
      return entry;
    }
    get(key) {
      const entry = this._live(key);
      if (entry === undefined) return undefined;
      this._map.delete(key);
      this._map.set(key, entry);
      return entry.value;
    }
    peek(key) {
      const entry = this._live(key);
      return entry === undefined ? undefined : entry.value;
    }
    has(key) {
      return this._live(key) !== undefined;
    }
    set(key, value, options = {}) {
      const ttl = options.ttl ?? this.ttl;
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

  // process: an empty environment (no real one reaches the simulation).
  const process = Object.freeze({ env: {} });
  define("process", process);

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
  const CHECK_AND_DELETE =
    /^if redis\.call\(["']get["'], ?KEYS\[1\]\) ?== ?ARGV\[1\] then return redis\.call\(["']del["'], ?KEYS\[1\]\) else return 0 end$/;
  const notModelled = (what) => new ReplyError(`ERR ${what} is not modelled (EX, PX, NX are)`);
  const redisCommands = {
    async get(key) {
      return reply(await cache.get(key));
    },
    // `ttl` in ms (0: none); `only`: "NX", or null.
    async set(key, value, ttl, only) {
      if (only === "XX") throw notModelled("SET XX");
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
      const text = String(script).trim().replace(/\s+/g, " ");
      if (keys.length === 1 && CHECK_AND_DELETE.test(text)) {
        return (await cache.deleteIf(keys[0], stored(args[0]))) ? 1 : 0;
      }
      throw new ReplyError(
        "ERR this Lua script is not one the simulation recognises (it knows " +
          "check-and-delete: if redis.call(\"get\", KEYS[1]) == ARGV[1] then return " +
          "redis.call(\"del\", KEYS[1]) else return 0 end)"
      );
    },
  };
  const expiry = (unit, amount) => {
    const n = Number(amount);
    if (!Number.isInteger(n) || n <= 0) {
      throw new ReplyError("ERR invalid expire time in 'set' command");
    }
    return unit === "EX" ? n * 1000 : n;
  };

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
      return redisCommands.eval(script, args.slice(0, n), args.slice(n));
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
  }

  // node-redis (v4 and v5): `createClient()`, `connect()`, SET options as
  // an object (`{ NX: true, PX: 100 }`, or v5's `{ expiration, condition }`).
  // Its errors are `ErrorReply`s (named "Error", as node-redis leaves them).
  class ErrorReply extends Error {}
  const asNodeRedis = async (command) => {
    try {
      return await command();
    } catch (error) {
      throw error instanceof ReplyError ? new ErrorReply(error.message) : error;
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
  }
  const nodeRedis = Object.freeze({
    createClient: () => new RedisClient(),
    ErrorReply,
  });

  Redis.Redis = Redis;
  Redis.default = Redis;
  Redis.ReplyError = ReplyError;


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
        logNative(`${route.method} ${request.url} ${status}`);
        if (status >= 500) done.reject(statusError(status, body));
        else done.resolve();
      },
      fail(error) {
        if (sent) throw error;
        sent = true;
        const status = error && error.statusCode >= 400 ? error.statusCode : 500;
        countNative(`status_${status}`);
        logNative(`${route.method} ${request.url} ${status}`);
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

  // Express (4 and 5): an app or a Router records its stack.
  function expressRouter() {
    const router = { stack: [] };
    for (const method of METHODS) {
      router[method] = function (path, ...handlers) {
        if (method === "get" && handlers.length === 0) return undefined; // app.get(setting)
        router.stack.push({
          route: { method: method === "all" ? "GET" : method.toUpperCase(), path, handlers: handlers.flat() },
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
      const prefix = typeof args[0] === "string" ? args.shift() : "";
      for (const fn of args.flat()) {
        if (fn && Array.isArray(fn.stack)) router.stack.push({ mount: prefix, router: fn });
        else if (typeof fn === "function") router.stack.push({ use: fn });
      }
      return router;
    };
    return router;
  }

  // The routes of an Express router in order, each with the middlewares
  // registered before it.
  function expressRoutes(router, prefix, before, out) {
    let middlewares = before.slice();
    for (const layer of router.stack) {
      if (layer.use) middlewares.push(layer.use);
      else if (layer.router) expressRoutes(layer.router, prefix + layer.mount, middlewares, out);
      else {
        const path = prefix + (layer.route.path === "/" && prefix ? "" : layer.route.path);
        out.push({ method: layer.route.method, path, chain: middlewares.concat(layer.route.handlers), express: true });
      }
    }
    return out;
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
  express.json = passThrough;
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

  function runExpress(route, plain) {
    const request = incoming(plain, route);
    const done = deferred();
    const reply = responder(route, request, done);
    const res = expressResponse(reply);
    const fail = (error) => {
      if (!reply.sent) reply.fail(error);
    };
    let index = 0;
    const next = (error) => {
      if (error !== undefined && error !== "route" && error !== "router") return fail(error);
      const layer = route.chain[index++];
      if (layer === undefined) {
        if (!reply.sent) res.status(404).send(`Cannot ${route.method} ${request.url}`);
        return undefined;
      }
      if (layer.length >= 4) return next(); // an error handler: no error here
      try {
        const value = layer(request, res, next);
        if (isThenable(value)) value.then(undefined, fail);
      } catch (error) {
        fail(error);
      }
      return undefined;
    };
    next();
    return done.promise;
  }

  // Fastify: `require('fastify')(options)` is an instance.
  function fastify() {
    const instance = { routes: [], hooks: [], kind: "fastify" };
    const add = (method, path, options, handler) => {
      if (typeof options === "function") handler = options;
      else if (options && typeof options.handler === "function") handler = options.handler;
      instance.routes.push({ method, path, handler, hooks: instance.hooks.slice() });
      return instance;
    };
    for (const method of METHODS) {
      instance[method] = (path, options, handler) =>
        add(method === "all" ? "GET" : method.toUpperCase(), path, options, handler);
    }
    instance.route = (options) => {
      const method = [].concat(options.method)[0];
      return add(String(method).toUpperCase(), options.url ?? options.path, options.handler);
    };
    instance.addHook = (name, fn) => {
      if (["onRequest", "preParsing", "preValidation", "preHandler"].includes(name)) {
        instance.hooks.push(fn);
      }
      return instance;
    };
    instance.register = (plugin, options) => {
      if (typeof plugin === "function") {
        const value = plugin(instance, options ?? {}, () => {});
        if (isThenable(value)) value.then(undefined, () => {});
      }
      return instance;
    };
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
    routeApps.push(instance);
    return instance;
  }
  fastify.fastify = fastify;
  fastify.default = fastify;

  function runFastify(route, plain) {
    const request = incoming(plain, route);
    request.log = { info() {}, warn() {}, error() {}, debug() {} };
    const done = deferred();
    const response = responder(route, request, done);
    const reply = {
      statusCode: 200,
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
        if (payload instanceof Error) response.fail(payload);
        else response.finish(reply.statusCode, payload);
        return reply;
      },
    };
    const fail = (error) => {
      if (!response.sent) response.fail(error);
    };
    (async () => {
      for (const hook of route.hooks) {
        if (response.sent) return;
        await new Promise((resolve, reject) => {
          const value = hook(request, reply, (error) => (error ? reject(error) : resolve()));
          if (isThenable(value)) value.then(resolve, reject);
        });
      }
      if (response.sent) return;
      const value = await route.handler.call(route.instance, request, reply);
      if (value !== undefined && !response.sent) reply.send(value);
    })().then(undefined, fail);
    return done.promise;
  }

  // The route a request goes to, as a `handle(req)`; undefined if no app
  // registered one.
  Object.defineProperty(globalThis, Symbol.for("interleave.route"), {
    value() {
      const routes = [];
      for (const app of routeApps) {
        if (app.kind === "express") expressRoutes(app, "", [], routes);
        else for (const route of app.routes) routes.push(Object.assign({ instance: app }, route));
      }
      const route = routes.find((route) => route.method === "POST") ?? routes[0];
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
      setTimeout: (ms, value) => sleep(ms).then(() => value),
      setImmediate: (value) => new Promise((resolve) => setImmediate(() => resolve(value))),
    }),
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
