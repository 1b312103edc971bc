// The in-process libraries (async-mutex, p-limit, lru-cache): a part of
// the prelude (prelude.js) that a realm compiles and runs the first time
// its script asks for one of them (prelude.js, `librariesPart`). Its value
// is a function of what it takes from the prelude.
"use strict";
(function ({ host, setTimeout, clearTimeout, performance, nodePart }) {
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
      // As p-limit's `AsyncResource.bind`, a function runs as the request
      // that queued it: started by another request's `next`, it is handed
      // over through the host (as async-mutex's waiters are), its place
      // taken at once.
      const request = host.request();
      queue.push(() => {
        if (request === host.request()) return run(fn, resolve, args);
        activeCount++;
        host.defer(request, () => {
          activeCount--;
          run(fn, resolve, args);
        });
      });
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

  // The request whose code started each background fetch, by its promise.
  const fetchers = new WeakMap();
  // `promise` for a caller from another request: settled through the host
  // (as async-mutex's hand-off), so the caller resumes as itself.
  function joined(promise) {
    const request = host.request();
    const settle = (done) => (outcome) => {
      if (request === host.request()) done(outcome);
      else host.defer(request, () => done(outcome));
    };
    return new Promise((resolve, reject) => promise.then(settle(resolve), settle(reject)));
  }

  // lru-cache's LRUCache: `max` entries (the least recently used goes
  // first), an optional `ttl` in ms on the simulated clock.
  // lru-cache 10: `max`, `ttl` (ms, on the simulated clock), `allowStale`,
  // and `fetch` with a `fetchMethod`, written after lru-cache 10.4's own
  // code (one background fetch per key at a time, which every caller of
  // that key shares; its promise sits in the cache while it runs), so its
  // promise jobs are the library's. A fetch's `signal` is a real
  // AbortSignal (the Node part's), aborted when a `set` replaces the
  // fetch it belongs to.
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
      const ac = new (nodePart().AbortController)();
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
      fetchers.set(bf, host.request());
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
        if (stale) return v.__staleWhileFetching;
        v.__returned = v;
        return fetchers.get(v) === host.request() ? v : joined(v);
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

  return {
    asyncMutex: Object.freeze({
      Mutex,
      Semaphore,
      withTimeout,
      tryAcquire,
      E_TIMEOUT,
      E_ALREADY_LOCKED,
      E_CANCELED,
    }),
    pLimit,
    lruCache: Object.freeze({ LRUCache }),
  };
});
