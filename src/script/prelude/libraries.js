// The in-process libraries (async-mutex, async-lock, p-limit, lru-cache): a part of
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
      return new Promise((resolve, reject) => {
        this._waiters.push({ resolve, reject, weight });
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
        const { resolve, weight } = this._waiters.shift();
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
        // The waiter resumes as itself: its `await` keeps its request.
        resolve(ticket);
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
      // p-limit's `AsyncResource.bind`: the function runs as the request
      // that queued it, in its AsyncLocalStorage stores, even when another
      // request's `next` starts it.
      const request = host.request();
      const frame = host.frame();
      queue.push(() => host.runAs(request, () => run(fn, resolve, args), frame));
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

  // async-lock's AsyncLock, async-lock 1.4's code step for step (1.5 is
  // the same): a queue of waiting functions per key, a key held while
  // its queue exists; `acquire(key, fn, cb, opts)` in promise mode (`fn`
  // returns a value or a promise) or callback mode (`fn(done)`), and with
  // `cb` or returning a promise; an array of keys takes them one after
  // another (`_acquireBatch`); `timeout` gives up a wait, `maxPending`
  // refuses a longer queue, `maxOccupationTime` and `maxExecutionTime`
  // give up a holder (both on the simulated clock); `skipQueue`; `isBusy`.
  // There are no domains (`process.domain` is null, as in Node without the
  // domain module), so `domainReentrant` is never reentrant. A release
  // starts the next queued function inside itself, as the library does,
  // as the request that queued it (`host.runAs`).
  function AsyncLock(opts) {
    opts = opts || {};
    this.Promise = opts.Promise || Promise;
    this.queues = Object.create(null);
    this.domainReentrant = opts.domainReentrant || false;
    if (this.domainReentrant) this.domains = Object.create(null);
    this.timeout = opts.timeout || AsyncLock.DEFAULT_TIMEOUT;
    this.maxOccupationTime = opts.maxOccupationTime || AsyncLock.DEFAULT_MAX_OCCUPATION_TIME;
    this.maxExecutionTime = opts.maxExecutionTime || AsyncLock.DEFAULT_MAX_EXECUTION_TIME;
    if (opts.maxPending === Infinity || (Number.isInteger(opts.maxPending) && opts.maxPending >= 0)) {
      this.maxPending = opts.maxPending;
    } else {
      this.maxPending = AsyncLock.DEFAULT_MAX_PENDING;
    }
  }
  AsyncLock.DEFAULT_TIMEOUT = 0;
  AsyncLock.DEFAULT_MAX_OCCUPATION_TIME = 0;
  AsyncLock.DEFAULT_MAX_EXECUTION_TIME = 0;
  AsyncLock.DEFAULT_MAX_PENDING = 1000;

  AsyncLock.prototype.acquire = function (key, fn, cb, opts) {
    if (Array.isArray(key)) return this._acquireBatch(key, fn, cb, opts);
    if (typeof fn !== "function") throw new Error("You must pass a function to execute");
    let deferredResolve = null;
    let deferredReject = null;
    let deferred = null;
    if (typeof cb !== "function") {
      opts = cb;
      cb = null;
      deferred = new this.Promise((resolve, reject) => {
        deferredResolve = resolve;
        deferredReject = reject;
      });
    }
    opts = opts || {};
    let resolved = false;
    let timer = null;
    let occupationTimer = null;
    let executionTimer = null;
    const self = this;

    const done = function (locked, err, ret) {
      if (occupationTimer) {
        clearTimeout(occupationTimer);
        occupationTimer = null;
      }
      if (executionTimer) {
        clearTimeout(executionTimer);
        executionTimer = null;
      }
      if (locked) {
        if (!!self.queues[key] && self.queues[key].length === 0) delete self.queues[key];
        if (self.domainReentrant) delete self.domains[key];
      }
      if (!resolved) {
        if (!deferred) {
          if (typeof cb === "function") cb(err, ret);
        } else if (err) {
          deferredReject(err);
        } else {
          deferredResolve(ret);
        }
        resolved = true;
      }
      if (locked && !!self.queues[key] && self.queues[key].length > 0) {
        self.queues[key].shift()();
      }
    };

    const exec = function (locked) {
      if (resolved) return done(locked);
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      const maxExecutionTime = opts.maxExecutionTime || self.maxExecutionTime;
      if (maxExecutionTime) {
        executionTimer = setTimeout(() => {
          if (!!self.queues[key]) done(locked, new Error("Maximum execution time is exceeded " + key));
        }, maxExecutionTime);
      }
      if (fn.length === 1) {
        let called = false;
        try {
          fn((err, ret) => {
            if (!called) {
              called = true;
              done(locked, err, ret);
            }
          });
        } catch (err) {
          if (!called) {
            called = true;
            done(locked, err);
          }
        }
      } else {
        self._promiseTry(() => fn()).then(
          (ret) => done(locked, undefined, ret),
          (error) => done(locked, error)
        );
      }
    };

    const maxPending = opts.maxPending || self.maxPending;
    if (!self.queues[key]) {
      self.queues[key] = [];
      exec(true);
    } else if (self.queues[key].length >= maxPending) {
      done(false, new Error("Too many pending tasks in queue " + key));
    } else {
      // The release that starts it calls it, as the request that queued
      // it (as Node's async context would have it).
      const request = host.request();
      const taskFn = () => host.runAs(request, () => exec(true));
      if (opts.skipQueue) self.queues[key].unshift(taskFn);
      else self.queues[key].push(taskFn);
      const timeout = opts.timeout || self.timeout;
      if (timeout) {
        timer = setTimeout(() => {
          timer = null;
          done(false, new Error("async-lock timed out in queue " + key));
        }, timeout);
      }
    }
    const maxOccupationTime = opts.maxOccupationTime || self.maxOccupationTime;
    if (maxOccupationTime) {
      occupationTimer = setTimeout(() => {
        if (!!self.queues[key]) {
          done(false, new Error("Maximum occupation time is exceeded in queue " + key));
        }
      }, maxOccupationTime);
    }
    if (deferred) return deferred;
  };

  AsyncLock.prototype._acquireBatch = function (keys, fn, cb, opts) {
    const seen = Object.create(null);
    keys = keys.filter((key) => {
      if (seen[key]) return false;
      seen[key] = true;
      return true;
    });
    if (typeof cb !== "function") {
      opts = cb;
      cb = null;
    }
    const self = this;
    const getFn = (key, fn) =>
      function (cb) {
        self.acquire(key, fn, cb, opts);
      };
    const fnx = keys.reduceRight((prev, key) => getFn(key, prev), fn);
    if (typeof cb === "function") {
      fnx(cb);
    } else {
      return new this.Promise((resolve, reject) => {
        if (fnx.length === 1) {
          fnx((err, ret) => {
            if (err) reject(err);
            else resolve(ret);
          });
        } else {
          resolve(fnx());
        }
      });
    }
  };

  AsyncLock.prototype.isBusy = function (key) {
    if (!key) return Object.keys(this.queues).length > 0;
    return !!this.queues[key];
  };

  AsyncLock.prototype._promiseTry = function (fn) {
    try {
      return this.Promise.resolve(fn());
    } catch (e) {
      return this.Promise.reject(e);
    }
  };

  // lru-cache's LRUCache, written after lru-cache 10.4's own code: at
  // most `max` entries and, with `maxSize`, a total size (each entry's
  // from `sizeCalculation` or its `set`'s `size`) of at most `maxSize`,
  // the least recently used going first (`dispose`, `disposeAfter`); an
  // entry bigger than `maxEntrySize` (`maxSize` unless given) is not
  // stored. An optional `ttl` in ms on the simulated clock (a stale entry
  // is skipped, and dropped when read), `allowStale`, `updateAgeOnGet`
  // and `updateAgeOnHas`, `noUpdateTTL`; its iterators run from the most
  // recently used, as lru-cache's. `fetch` with a `fetchMethod`: one
  // background fetch per key at a time, which every caller of that key
  // shares; its promise sits in the cache while it runs, so its promise
  // jobs are the library's. A fetch's `signal` is a real AbortSignal (the
  // Node part's), aborted when a `set` replaces the fetch it belongs to
  // (or a `delete` or an eviction drops it). A Map in recency order (the
  // least recent first) stands for lru-cache's linked list; each entry is
  // `{ value, ttl, start, size }`.
  const isPosInt = (n) => n && n === Math.floor(n) && n > 0 && isFinite(n);
  class LRUCache {
    constructor(options = {}) {
      const {
        max = 0,
        ttl,
        updateAgeOnGet,
        updateAgeOnHas,
        allowStale,
        dispose,
        disposeAfter,
        noDisposeOnSet,
        noUpdateTTL,
        maxSize = 0,
        maxEntrySize = 0,
        sizeCalculation,
        fetchMethod,
        noDeleteOnFetchRejection,
        noDeleteOnStaleGet,
        allowStaleOnFetchRejection,
      } = options;
      if (max !== 0 && !isPosInt(max)) {
        throw new TypeError("max option must be a nonnegative integer");
      }
      this._max = max;
      this._maxSize = maxSize;
      this.maxEntrySize = maxEntrySize || maxSize;
      this.sizeCalculation = sizeCalculation;
      if (this.sizeCalculation) {
        if (!maxSize && !this.maxEntrySize) {
          throw new TypeError("cannot set sizeCalculation without setting maxSize or maxEntrySize");
        }
        if (typeof this.sizeCalculation !== "function") {
          throw new TypeError("sizeCalculation set to non-function");
        }
      }
      if (fetchMethod !== undefined && typeof fetchMethod !== "function") {
        throw new TypeError("fetchMethod must be a function if specified");
      }
      this._fetchMethod = fetchMethod;
      this._map = new Map();
      this._calculatedSize = 0;
      this._dispose = typeof dispose === "function" ? dispose : undefined;
      this._disposeAfter = typeof disposeAfter === "function" ? disposeAfter : undefined;
      this._disposed = this._disposeAfter === undefined ? undefined : [];
      this.noDisposeOnSet = !!noDisposeOnSet;
      this.noUpdateTTL = !!noUpdateTTL;
      this.noDeleteOnFetchRejection = !!noDeleteOnFetchRejection;
      this.allowStaleOnFetchRejection = !!allowStaleOnFetchRejection;
      // Sizes are kept with `maxSize` or `maxEntrySize`.
      this._sized = this.maxEntrySize !== 0;
      if (this._sized) {
        if (maxSize !== 0 && !isPosInt(maxSize)) {
          throw new TypeError("maxSize must be a positive integer if specified");
        }
        if (!isPosInt(this.maxEntrySize)) {
          throw new TypeError("maxEntrySize must be a positive integer if specified");
        }
      }
      this.allowStale = !!allowStale;
      this.noDeleteOnStaleGet = !!noDeleteOnStaleGet;
      this.updateAgeOnGet = !!updateAgeOnGet;
      this.updateAgeOnHas = !!updateAgeOnHas;
      this.ttl = ttl || 0;
      if (this.ttl && !isPosInt(this.ttl)) {
        throw new TypeError("ttl must be a positive integer if specified");
      }
      if (max === 0 && this.ttl === 0 && maxSize === 0) {
        throw new TypeError("At least one of max, maxSize, or ttl is required");
      }
    }
    get max() {
      return this._max;
    }
    get maxSize() {
      return this._maxSize;
    }
    get calculatedSize() {
      return this._calculatedSize;
    }
    get size() {
      return this._map.size;
    }
    get fetchMethod() {
      return this._fetchMethod;
    }
    get dispose() {
      return this._dispose;
    }
    get disposeAfter() {
      return this._disposeAfter;
    }
    getRemainingTTL(key) {
      const entry = this._map.get(key);
      if (entry === undefined) return 0;
      if (!entry.ttl) return Infinity;
      return entry.ttl - (performance.now() - entry.start);
    }
    _stale(entry) {
      return !!entry.ttl && performance.now() >= entry.start + entry.ttl;
    }
    _setTTL(entry, ttl) {
      entry.ttl = ttl;
      entry.start = ttl !== 0 ? performance.now() : 0;
    }
    _updateAge(entry) {
      if (entry.ttl) entry.start = performance.now();
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
    _requireSize(key, value, size, sizeCalculation) {
      if (!this._sized) {
        if (size || sizeCalculation) {
          throw new TypeError("cannot set size without setting maxSize or maxEntrySize on cache");
        }
        return 0;
      }
      // A background fetch counts when its value comes.
      if (this._fetching(value)) return 0;
      if (!isPosInt(size)) {
        if (!sizeCalculation) {
          throw new TypeError(
            "invalid size value (must be positive integer). " +
              "When maxSize or maxEntrySize is used, sizeCalculation " +
              "or size must be set."
          );
        }
        if (typeof sizeCalculation !== "function") {
          throw new TypeError("sizeCalculation must be a function");
        }
        size = sizeCalculation(value, key);
        if (!isPosInt(size)) {
          throw new TypeError("sizeCalculation return invalid (expect positive integer)");
        }
      }
      return size;
    }
    _addSize(entry, size) {
      entry.size = size;
      if (this._maxSize) {
        const room = this._maxSize - size;
        while (this._calculatedSize > room && this._map.size > 0) this._evict();
      }
      this._calculatedSize += entry.size;
    }
    _removeSize(entry) {
      this._calculatedSize -= entry.size;
      entry.size = 0;
    }
    _disposeOf(value, key, reason) {
      if (this._dispose !== undefined) this._dispose(value, key, reason);
      if (this._disposeAfter !== undefined) this._disposed.push([value, key, reason]);
    }
    _flushDisposed() {
      if (this._disposeAfter === undefined) return;
      let task;
      while ((task = this._disposed.shift())) this._disposeAfter(...task);
    }
    // The least recently used entry goes.
    _evict() {
      const [key, entry] = this._map.entries().next().value;
      const value = entry.value;
      if (this._fetching(value)) value.__abortController.abort(new Error("evicted"));
      else this._disposeOf(value, key, "evict");
      this._removeSize(entry);
      this._map.delete(key);
    }
    // `[key, entry]` from the most recently used (`_rentries`: from the
    // least), skipping stale entries unless `allowStale`.
    *_entries({ allowStale = this.allowStale } = {}) {
      for (const [key, entry] of [...this._map].reverse()) {
        if (this._map.get(key) !== entry) continue;
        if (allowStale || !this._stale(entry)) yield [key, entry];
      }
    }
    *_rentries({ allowStale = this.allowStale } = {}) {
      for (const [key, entry] of [...this._map]) {
        if (this._map.get(key) !== entry) continue;
        if (allowStale || !this._stale(entry)) yield [key, entry];
      }
    }
    *entries() {
      for (const [key, { value }] of this._entries()) {
        if (value !== undefined && key !== undefined && !this._fetching(value)) yield [key, value];
      }
    }
    *rentries() {
      for (const [key, { value }] of this._rentries()) {
        if (value !== undefined && key !== undefined && !this._fetching(value)) yield [key, value];
      }
    }
    *keys() {
      for (const [key, { value }] of this._entries()) {
        if (key !== undefined && !this._fetching(value)) yield key;
      }
    }
    *rkeys() {
      for (const [key, { value }] of this._rentries()) {
        if (key !== undefined && !this._fetching(value)) yield key;
      }
    }
    *values() {
      for (const [, { value }] of this._entries()) {
        if (value !== undefined && !this._fetching(value)) yield value;
      }
    }
    *rvalues() {
      for (const [, { value }] of this._rentries()) {
        if (value !== undefined && !this._fetching(value)) yield value;
      }
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    _shown(value) {
      return this._fetching(value) ? value.__staleWhileFetching : value;
    }
    find(fn, getOptions = {}) {
      for (const [key, entry] of this._entries()) {
        const value = this._shown(entry.value);
        if (value === undefined) continue;
        if (fn(value, key, this)) return this.get(key, getOptions);
      }
    }
    forEach(fn, thisp = this) {
      for (const [key, entry] of this._entries()) {
        const value = this._shown(entry.value);
        if (value !== undefined) fn.call(thisp, value, key, this);
      }
    }
    rforEach(fn, thisp = this) {
      for (const [key, entry] of this._rentries()) {
        const value = this._shown(entry.value);
        if (value !== undefined) fn.call(thisp, value, key, this);
      }
    }
    purgeStale() {
      let deleted = false;
      for (const [key, entry] of this._rentries({ allowStale: true })) {
        if (this._stale(entry)) {
          this._delete(key, "expire");
          deleted = true;
        }
      }
      return deleted;
    }
    get(key, options = {}) {
      const {
        allowStale = this.allowStale,
        updateAgeOnGet = this.updateAgeOnGet,
        noDeleteOnStaleGet = this.noDeleteOnStaleGet,
      } = options;
      const entry = this._map.get(key);
      if (entry === undefined) return undefined;
      const value = entry.value;
      const fetching = this._fetching(value);
      if (this._stale(entry)) {
        if (!fetching) {
          if (!noDeleteOnStaleGet) this._delete(key, "expire");
          return allowStale ? value : undefined;
        }
        return allowStale ? value.__staleWhileFetching : undefined;
      }
      if (fetching) return value.__staleWhileFetching;
      this._touch(key, entry);
      if (updateAgeOnGet) this._updateAge(entry);
      return value;
    }
    peek(key, options = {}) {
      const { allowStale = this.allowStale } = options;
      const entry = this._map.get(key);
      if (entry === undefined || (!allowStale && this._stale(entry))) return undefined;
      return this._shown(entry.value);
    }
    has(key, options = {}) {
      const { updateAgeOnHas = this.updateAgeOnHas } = options;
      const entry = this._map.get(key);
      if (entry === undefined) return false;
      if (this._fetching(entry.value) && entry.value.__staleWhileFetching === undefined) {
        return false;
      }
      if (this._stale(entry)) return false;
      if (updateAgeOnHas) this._updateAge(entry);
      return true;
    }
    set(key, value, options = {}) {
      if (value === undefined) {
        this.delete(key);
        return this;
      }
      const {
        ttl = this.ttl,
        noDisposeOnSet = this.noDisposeOnSet,
        sizeCalculation = this.sizeCalculation,
      } = options;
      let { noUpdateTTL = this.noUpdateTTL } = options;
      const size = this._requireSize(key, value, options.size || 0, sizeCalculation);
      // An entry too big to keep is not stored (nor is the one it replaces).
      if (this.maxEntrySize && size > this.maxEntrySize) {
        this._delete(key, "set");
        return this;
      }
      let entry = this._map.get(key);
      if (entry === undefined) {
        if (this._max !== 0 && this._map.size >= this._max) this._evict();
        entry = { value, ttl: 0, start: 0, size: 0 };
        this._map.set(key, entry);
        this._addSize(entry, size);
        noUpdateTTL = false;
      } else {
        this._touch(key, entry);
        const old = entry.value;
        if (value !== old) {
          if (this._fetching(old)) {
            old.__abortController.abort(new Error("replaced"));
            const stale = old.__staleWhileFetching;
            if (stale !== undefined && !noDisposeOnSet) this._disposeOf(stale, key, "set");
          } else if (!noDisposeOnSet) {
            this._disposeOf(old, key, "set");
          }
          this._removeSize(entry);
          this._addSize(entry, size);
          entry.value = value;
        }
      }
      if (!noUpdateTTL) this._setTTL(entry, ttl);
      if (!noDisposeOnSet) this._flushDisposed();
      return this;
    }
    // The least recently used value, taken out (stale or not).
    pop() {
      try {
        while (this._map.size > 0) {
          const value = this._map.values().next().value.value;
          this._evict();
          if (this._fetching(value)) {
            if (value.__staleWhileFetching) return value.__staleWhileFetching;
          } else if (value !== undefined) {
            return value;
          }
        }
      } finally {
        this._flushDisposed();
      }
    }
    delete(key) {
      return this._delete(key, "delete");
    }
    _delete(key, reason) {
      let deleted = false;
      const entry = this._map.get(key);
      if (entry !== undefined) {
        deleted = true;
        if (this._map.size === 1) {
          this._clear(reason);
        } else {
          this._removeSize(entry);
          const value = entry.value;
          if (this._fetching(value)) value.__abortController.abort(new Error("deleted"));
          else this._disposeOf(value, key, reason);
          this._map.delete(key);
        }
      }
      if (this._disposed?.length) this._flushDisposed();
      return deleted;
    }
    clear() {
      this._clear("delete");
    }
    _clear(reason) {
      for (const [key, { value }] of this._rentries({ allowStale: true })) {
        if (this._fetching(value)) value.__abortController.abort(new Error("deleted"));
        else this._disposeOf(value, key, reason);
      }
      this._map.clear();
      this._calculatedSize = 0;
      this._flushDisposed();
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
            else this._delete(k, "fetch");
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
          if (del) this._delete(k, "fetch");
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
        updateAgeOnGet = this.updateAgeOnGet,
        noDeleteOnStaleGet = this.noDeleteOnStaleGet,
        ttl = this.ttl,
        noDisposeOnSet = this.noDisposeOnSet,
        size = 0,
        sizeCalculation = this.sizeCalculation,
        noUpdateTTL = this.noUpdateTTL,
        noDeleteOnFetchRejection = this.noDeleteOnFetchRejection,
        allowStaleOnFetchRejection = this.allowStaleOnFetchRejection,
        context,
        forceRefresh = false,
      } = fetchOptions;
      if (this._fetchMethod === undefined) {
        return this.get(k, { allowStale, updateAgeOnGet, noDeleteOnStaleGet });
      }
      const options = {
        allowStale,
        updateAgeOnGet,
        noDeleteOnStaleGet,
        ttl,
        noDisposeOnSet,
        size,
        sizeCalculation,
        noUpdateTTL,
        noDeleteOnFetchRejection,
        allowStaleOnFetchRejection,
      };
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
        return v;
      }
      const isStale = this._stale(entry);
      if (!forceRefresh && !isStale) {
        this._touch(k, entry);
        if (updateAgeOnGet) this._updateAge(entry);
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
    AsyncLock,
    lruCache: Object.freeze({ LRUCache }),
  };
});
