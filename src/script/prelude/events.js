// Node 20's events module, and `process`, an EventEmitter: a part of the
// prelude (prelude.js) that a realm compiles and runs the first time its
// script reaches for `EventEmitter`, `process`, `events`, `http`, or a
// client that is an emitter (prelude.js, `eventsPart`). Its value is a
// function of what it takes from the prelude.
"use strict";
(function ({
  host, console, performance, nodeTypeError, abortedBy, mustBeSignal, inspectPart, nodePart,
}) {
  // Node 20's EventEmitter (lib/events.js), step for step: a constructor
  // function (so old-style `EventEmitter.call(this)` with `util.inherits`
  // works), the same own fields (`_events`, `_eventsCount`,
  // `_maxListeners`, and the two symbols `console.log` shows), one
  // listener kept bare and two or more in an array, `newListener` and
  // `removeListener` events, `once` wrappers that `listeners()` unwraps,
  // and the MaxListenersExceededWarning once per array of listeners (an
  // array that shrinks to one listener is dropped, so a lock's waiters
  // that come back warn again, as on Node).
  const kCapture = Symbol("kCapture");
  const kShapeMode = Symbol("shapeMode");
  const kErrorMonitor = Symbol("events.errorMonitor");
  const kRejection = Symbol.for("nodejs.rejection");
  let defaultMaxListeners = 10;
  const mustBeFunction = (value, name) => {
    if (typeof value !== "function") {
      throw nodeTypeError(
        "ERR_INVALID_ARG_TYPE",
        `The "${name}" argument must be of type function.${inspectPart().received(value)}`
      );
    }
  };
  // validateNumber(value, name, 0), with Node's two errors.
  const mustBeCount = (value, name) => {
    if (typeof value !== "number") {
      throw nodeTypeError(
        "ERR_INVALID_ARG_TYPE",
        `The "${name}" argument must be of type number.${inspectPart().received(value)}`
      );
    }
    if (!(value >= 0)) {
      const error = new RangeError(
        `The value of "${name}" is out of range. It must be >= 0. Received ${nodePart().numberShown(value)}`
      );
      error.code = "ERR_OUT_OF_RANGE";
      throw error;
    }
  };

  function EventEmitter(opts) {
    EventEmitter.init.call(this, opts);
  }
  // The module's own functions first, in Node's key order.
  EventEmitter.addAbortListener = addAbortListener;
  EventEmitter.once = once;
  EventEmitter.on = on;
  EventEmitter.getEventListeners = getEventListeners;
  EventEmitter.getMaxListeners = getMaxListeners;
  EventEmitter.EventEmitter = EventEmitter;
  EventEmitter.usingDomains = false;
  EventEmitter.captureRejectionSymbol = kRejection;
  Object.defineProperty(EventEmitter, "captureRejections", {
    get: () => EventEmitter.prototype[kCapture],
    set(value) {
      EventEmitter.prototype[kCapture] = Boolean(value);
    },
    enumerable: true,
  });
  EventEmitter.errorMonitor = kErrorMonitor;
  Object.defineProperty(EventEmitter.prototype, kCapture, { value: false, writable: true });
  EventEmitter.prototype._events = undefined;
  EventEmitter.prototype._eventsCount = 0;
  EventEmitter.prototype._maxListeners = undefined;
  Object.defineProperty(EventEmitter, "defaultMaxListeners", {
    enumerable: true,
    get: () => defaultMaxListeners,
    set(value) {
      mustBeCount(value, "defaultMaxListeners");
      defaultMaxListeners = value;
    },
  });
  const hasListener = (self, type) =>
    type === undefined
      ? self._events !== undefined
      : self._events !== undefined && self._events[type] !== undefined;
  EventEmitter.setMaxListeners = function (n = defaultMaxListeners, ...targets) {
    mustBeCount(n, "setMaxListeners");
    if (targets.length === 0) defaultMaxListeners = n;
    for (const target of targets) {
      if (typeof target?.setMaxListeners !== "function") {
        throw nodeTypeError(
          "ERR_INVALID_ARG_TYPE",
          `The "eventTargets" argument must be an instance of EventEmitter or EventTarget.${inspectPart().received(target)}`
        );
      }
      target.setMaxListeners(n);
    }
  };
  EventEmitter.init = function (opts) {
    if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
      this._events = { __proto__: null };
      this._eventsCount = 0;
      this[kShapeMode] = false;
    } else {
      this[kShapeMode] = true;
    }
    this._maxListeners = this._maxListeners || undefined;
    this[kCapture] = opts?.captureRejections
      ? Boolean(opts.captureRejections)
      : EventEmitter.prototype[kCapture];
  };
  // `captureRejections`: a listener's rejected promise becomes an 'error'.
  function addCatch(that, promise, type, args) {
    if (!that[kCapture]) return;
    try {
      const then = promise.then;
      if (typeof then === "function") {
        then.call(promise, undefined, (error) =>
          process.nextTick(() => {
            if (typeof that[kRejection] === "function") that[kRejection](error, type, ...args);
            else {
              const previous = that[kCapture];
              try {
                that[kCapture] = false;
                that.emit("error", error);
              } finally {
                that[kCapture] = previous;
              }
            }
          })
        );
      }
    } catch (error) {
      that.emit("error", error);
    }
  }
  EventEmitter.prototype.setMaxListeners = function setMaxListeners(n) {
    mustBeCount(n, "setMaxListeners");
    this._maxListeners = n;
    return this;
  };
  const maxListenersOf = (that) =>
    that._maxListeners === undefined ? EventEmitter.defaultMaxListeners : that._maxListeners;
  EventEmitter.prototype.getMaxListeners = function getMaxListeners() {
    return maxListenersOf(this);
  };
  EventEmitter.prototype.emit = function emit(type, ...args) {
    let doError = type === "error";
    const events = this._events;
    if (events !== undefined) {
      if (doError && events[kErrorMonitor] !== undefined) this.emit(kErrorMonitor, ...args);
      doError = doError && events.error === undefined;
    } else if (!doError) return false;
    if (doError) {
      const er = args.length > 0 ? args[0] : undefined;
      if (er instanceof Error) throw er; // Unhandled 'error' event
      let shown;
      try {
        shown = inspectPart().inspect(er);
      } catch {
        shown = er;
      }
      const error = new Error(`Unhandled error. (${shown})`);
      error.code = "ERR_UNHANDLED_ERROR";
      error.context = er;
      throw error; // Unhandled 'error' event
    }
    const handler = events[type];
    if (handler === undefined) return false;
    if (typeof handler === "function") {
      const result = handler.apply(this, args);
      if (result !== undefined && result !== null) addCatch(this, result, type, args);
    } else {
      const listeners = handler.slice();
      for (let i = 0; i < listeners.length; ++i) {
        const result = listeners[i].apply(this, args);
        if (result !== undefined && result !== null) addCatch(this, result, type, args);
      }
    }
    return true;
  };
  function _addListener(target, type, listener, prepend) {
    mustBeFunction(listener, "listener");
    let events = target._events;
    let existing;
    if (events === undefined) {
      events = target._events = { __proto__: null };
      target._eventsCount = 0;
    } else {
      if (events.newListener !== undefined) {
        target.emit("newListener", type, listener.listener ?? listener);
        events = target._events;
      }
      existing = events[type];
    }
    if (existing === undefined) {
      events[type] = listener;
      ++target._eventsCount;
    } else {
      if (typeof existing === "function") {
        existing = events[type] = prepend ? [listener, existing] : [existing, listener];
      } else if (prepend) existing.unshift(listener);
      else existing.push(listener);
      const max = maxListenersOf(target);
      if (max > 0 && existing.length > max && !existing.warned) {
        existing.warned = true;
        const warning = new Error(
          `Possible EventEmitter memory leak detected. ${existing.length} ${String(type)} listeners ` +
            `added to ${inspectPart().inspect(target, { depth: -1 })}. MaxListeners is ${max}. ` +
            "Use emitter.setMaxListeners() to increase limit"
        );
        warning.name = "MaxListenersExceededWarning";
        Object.assign(warning, { emitter: target, type, count: existing.length });
        process.emitWarning(warning);
      }
    }
    return target;
  }
  EventEmitter.prototype.addListener = function addListener(type, listener) {
    return _addListener(this, type, listener, false);
  };
  EventEmitter.prototype.on = EventEmitter.prototype.addListener;
  EventEmitter.prototype.prependListener = function prependListener(type, listener) {
    return _addListener(this, type, listener, true);
  };
  function onceWrapper() {
    if (!this.fired) {
      this.target.removeListener(this.type, this.wrapFn);
      this.fired = true;
      if (arguments.length === 0) return this.listener.call(this.target);
      return this.listener.apply(this.target, arguments);
    }
  }
  function onceWrap(target, type, listener) {
    const state = { fired: false, wrapFn: undefined, target, type, listener };
    const wrapped = onceWrapper.bind(state);
    wrapped.listener = listener;
    state.wrapFn = wrapped;
    return wrapped;
  }
  EventEmitter.prototype.once = function once(type, listener) {
    mustBeFunction(listener, "listener");
    this.on(type, onceWrap(this, type, listener));
    return this;
  };
  EventEmitter.prototype.prependOnceListener = function prependOnceListener(type, listener) {
    mustBeFunction(listener, "listener");
    this.prependListener(type, onceWrap(this, type, listener));
    return this;
  };
  EventEmitter.prototype.removeListener = function removeListener(type, listener) {
    mustBeFunction(listener, "listener");
    if (!hasListener(this, type)) return this;
    const events = this._events;
    const list = events[type];
    if (list === listener || list.listener === listener) {
      this._eventsCount -= 1;
      if (this[kShapeMode]) events[type] = undefined;
      else if (this._eventsCount === 0) this._events = { __proto__: null };
      else {
        delete events[type];
        if (events.removeListener) this.emit("removeListener", type, list.listener || listener);
      }
    } else if (typeof list !== "function") {
      let position = -1;
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i] === listener || list[i].listener === listener) {
          position = i;
          break;
        }
      }
      if (position < 0) return this;
      list.splice(position, 1);
      if (list.length === 1) events[type] = list[0];
      if (events.removeListener !== undefined) this.emit("removeListener", type, listener);
    }
    return this;
  };
  EventEmitter.prototype.off = EventEmitter.prototype.removeListener;
  EventEmitter.prototype.removeAllListeners = function removeAllListeners(type) {
    if (!hasListener(this)) return this;
    const events = this._events;
    if (events.removeListener === undefined) {
      if (arguments.length === 0) {
        this._events = { __proto__: null };
        this._eventsCount = 0;
      } else if (events[type] !== undefined) {
        if (--this._eventsCount === 0) this._events = { __proto__: null };
        else delete events[type];
      }
      this[kShapeMode] = false;
      return this;
    }
    if (arguments.length === 0) {
      for (const key of Reflect.ownKeys(events)) {
        if (key !== "removeListener") this.removeAllListeners(key);
      }
      this.removeAllListeners("removeListener");
      this._events = { __proto__: null };
      this._eventsCount = 0;
      this[kShapeMode] = false;
      return this;
    }
    const listeners = events[type];
    if (typeof listeners === "function") this.removeListener(type, listeners);
    else if (listeners !== undefined) {
      for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
    }
    return this;
  };
  function listenersOf(target, type, unwrap) {
    if (!hasListener(target, type)) return [];
    const list = target._events[type];
    if (typeof list === "function") return unwrap ? [list.listener || list] : [list];
    return unwrap
      ? list.map((listener) => (typeof listener.listener === "function" ? listener.listener : listener))
      : list.slice();
  }
  EventEmitter.prototype.listeners = function listeners(type) {
    return listenersOf(this, type, true);
  };
  EventEmitter.prototype.rawListeners = function rawListeners(type) {
    return listenersOf(this, type, false);
  };
  function listenerCount(type, listener) {
    const list = this._events?.[type];
    if (typeof list === "function") {
      if (listener != null) return listener === list || listener === list.listener ? 1 : 0;
      return 1;
    }
    if (list === undefined) return 0;
    if (listener == null) return list.length;
    return list.filter((each) => each === listener || each.listener === listener).length;
  }
  EventEmitter.prototype.listenerCount = listenerCount;
  EventEmitter.listenerCount = (emitter, type) =>
    typeof emitter.listenerCount === "function"
      ? emitter.listenerCount(type)
      : listenerCount.call(emitter, type);
  EventEmitter.prototype.eventNames = function eventNames() {
    return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
  };

  // events.once, events.on and the rest of the module's functions, as
  // lib/events.js has them (`once` an async function, so its promise
  // settles the ticks later Node's does).
  function removeAgnostic(emitter, name, listener, flags) {
    if (typeof emitter.removeListener === "function") emitter.removeListener(name, listener);
    else emitter.removeEventListener(name, listener, flags);
  }
  function addAgnostic(emitter, name, listener, flags) {
    if (typeof emitter.on === "function") {
      if (flags?.once) emitter.once(name, listener);
      else emitter.on(name, listener);
    } else if (typeof emitter.addEventListener === "function") {
      emitter.addEventListener(name, listener, flags);
    } else {
      throw nodeTypeError(
        "ERR_INVALID_ARG_TYPE",
        `The "emitter" argument must be an instance of EventEmitter.${inspectPart().received(emitter)}`
      );
    }
  }
  async function once(emitter, name, options = {}) {
    const signal = options?.signal;
    mustBeSignal(signal);
    if (signal?.aborted) throw abortedBy(signal);
    return new Promise((resolve, reject) => {
      const errorListener = (error) => {
        emitter.removeListener(name, resolver);
        if (signal != null) removeAgnostic(signal, "abort", abortListener);
        reject(error);
      };
      const resolver = (...args) => {
        if (typeof emitter.removeListener === "function") {
          emitter.removeListener("error", errorListener);
        }
        if (signal != null) removeAgnostic(signal, "abort", abortListener);
        resolve(args);
      };
      addAgnostic(emitter, name, resolver, { once: true });
      if (name !== "error" && typeof emitter.once === "function") {
        emitter.once("error", errorListener);
      }
      function abortListener() {
        removeAgnostic(emitter, name, resolver);
        removeAgnostic(emitter, "error", errorListener);
        reject(abortedBy(signal));
      }
      if (signal != null) addAgnostic(signal, "abort", abortListener, { once: true });
    });
  }
  const AsyncIteratorPrototype = Object.getPrototypeOf(
    Object.getPrototypeOf(async function* () {}).prototype
  );
  // events.on(emitter, name): an async iterator of the events' arguments
  // (no high and low watermarks: nothing here pauses).
  function on(emitter, event, options = {}) {
    const signal = options.signal;
    mustBeSignal(signal);
    if (signal?.aborted) throw abortedBy(signal);
    const unconsumedEvents = [];
    const unconsumedPromises = [];
    let error = null;
    let finished = false;
    const added = [];
    const listen = (name, handler) => {
      addAgnostic(emitter, name, handler);
      added.push([name, handler]);
    };
    const iterator = Object.setPrototypeOf(
      {
        next() {
          if (unconsumedEvents.length) {
            return Promise.resolve({ value: unconsumedEvents.shift(), done: false });
          }
          if (error) {
            const p = Promise.reject(error);
            error = null;
            return p;
          }
          if (finished) return closeHandler();
          return new Promise((resolve, reject) => unconsumedPromises.push({ resolve, reject }));
        },
        return() {
          return closeHandler();
        },
        throw(err) {
          if (!(err instanceof Error)) {
            throw nodeTypeError(
              "ERR_INVALID_ARG_TYPE",
              `The "EventEmitter.AsyncIterator" property must be an instance of Error.${inspectPart().received(err)}`
            );
          }
          errorHandler(err);
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      },
      AsyncIteratorPrototype
    );
    listen(event, (...args) => {
      if (unconsumedPromises.length === 0) unconsumedEvents.push(args);
      else unconsumedPromises.shift().resolve({ value: args, done: false });
    });
    if (event !== "error" && typeof emitter.on === "function") listen("error", errorHandler);
    for (const name of options?.close ?? []) listen(name, closeHandler);
    const abortListener = () => errorHandler(abortedBy(signal));
    if (signal) {
      if (signal.aborted) Promise.resolve().then(abortListener);
      else signal.addEventListener("abort", abortListener, { once: true });
    }
    return iterator;

    function errorHandler(err) {
      if (unconsumedPromises.length === 0) error = err;
      else unconsumedPromises.shift().reject(err);
      closeHandler();
    }
    function closeHandler() {
      signal?.removeEventListener("abort", abortListener);
      while (added.length > 0) removeAgnostic(emitter, ...added.pop());
      finished = true;
      const done = { value: undefined, done: true };
      while (unconsumedPromises.length) unconsumedPromises.shift().resolve(done);
      return Promise.resolve(done);
    }
  }
  function getEventListeners(emitter, type) {
    if (typeof emitter?.listeners === "function") return emitter.listeners(type);
    throw nodeTypeError(
      "ERR_INVALID_ARG_TYPE",
      `The "emitter" argument must be an instance of EventEmitter or EventTarget.${inspectPart().received(emitter)}`
    );
  }

  function getMaxListeners(emitter) {
    if (typeof emitter?.getMaxListeners === "function") return maxListenersOf(emitter);
    throw nodeTypeError(
      "ERR_INVALID_ARG_TYPE",
      `The "emitter" argument must be an instance of EventEmitter or EventTarget.${inspectPart().received(emitter)}`
    );
  }
  // The listener runs once the signal aborts (in a microtask if it has);
  // the answer's dispose stops that.
  function addAbortListener(signal, listener) {
    mustBeSignal(signal);
    mustBeFunction(listener, "listener");
    if (signal.aborted) Promise.resolve().then(() => listener());
    else signal.addEventListener("abort", listener, { once: true });
    const dispose = () => signal.removeEventListener("abort", listener);
    return { [Symbol.dispose ?? Symbol.for("nodejs.dispose")]: dispose };
  }

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
  // A small process's figures (the run has no real ones to give).
  const MEMORY = { rss: 50_331_648, heapTotal: 6_291_456, heapUsed: 4_718_592, external: 1_048_576, arrayBuffers: 16_384 };
  function memoryUsage() {
    return Object.assign({}, MEMORY);
  }
  memoryUsage.rss = () => MEMORY.rss;
  // Node's warning on stderr, a tick later, as `(node:PID) Type: message`;
  // the first one says how to trace it. Each is also a "warning" event.
  let warned = false;
  function emitWarning(warning, type, code) {
    if (type !== null && typeof type === "object") ({ type, code } = type);
    if (typeof warning === "string") {
      const made = new Error(warning);
      made.name = typeof type === "string" ? type : "Warning";
      if (code !== undefined) made.code = code;
      warning = made;
    }
    host.nextTick(() => {
      const tag = warning.code === undefined ? "" : `[${warning.code}] `;
      let text = `(node:${process.pid}) ${tag}${warning.name}: ${warning.message}`;
      if (!warned) {
        const flag = warning.name === "DeprecationWarning" ? "deprecation" : "warnings";
        text += `\n(Use \`node --trace-${flag} ...\` to show where the warning was created)`;
        warned = true;
      }
      console.error(text);
      process.emit("warning", warning);
    });
  }
  // process.stdout and process.stderr as pipes: each write is a line in
  // the trace, as console's are (its last newline dropped), its callback
  // a tick later, as Node's.
  function outputStream(fd) {
    const write = function write(chunk, encoding, callback) {
      if (typeof encoding === "function") callback = encoding;
      let text = chunk;
      if (typeof chunk !== "string") {
        if (!ArrayBuffer.isView(chunk)) {
          throw nodeTypeError(
            "ERR_INVALID_ARG_TYPE",
            "The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, " +
              `or DataView.${inspectPart().received(chunk)}`
          );
        }
        text = nodePart().Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString();
      }
      if (text !== "") host.log(text.endsWith("\n") ? text.slice(0, -1) : text);
      if (typeof callback === "function") process.nextTick(callback, null);
      return true;
    };
    const stream = new EventEmitter();
    return Object.defineProperties(stream, {
      fd: { value: fd, enumerable: true },
      writable: { value: true, writable: true, enumerable: true },
      writableLength: { value: 0 },
      writableHighWaterMark: { value: 16384 },
      _type: { value: "pipe" },
      write: { value: write, writable: true },
      end: {
        value(chunk, encoding, callback) {
          if (typeof chunk === "function") callback = chunk;
          else if (chunk !== undefined && chunk !== null) write(chunk, encoding);
          if (typeof callback === "function") process.nextTick(callback);
          return stream;
        },
        writable: true,
      },
      cork: { value: () => {}, writable: true },
      uncork: { value: () => {}, writable: true },
    });
  }
  // A simulated app server cannot end its process: `process.exit` stops
  // the code that called it with an error that says so (at the top level,
  // the script does not load).
  function exit(code) {
    throw new Error(
      `process.exit(${code === undefined ? "" : inspectPart().inspect(code)}) would end this app ` +
        "server's Node process; a simulated server does not exit, so the code that called it stops here"
    );
  }
  const process = Object.defineProperties(new EventEmitter(), {
    env: { value: {}, enumerable: true },
    nextTick: { value: host.nextTick, enumerable: true },
    hrtime: { value: hrtime, enumerable: true },
    uptime: { value: () => performance.now() / 1000, enumerable: true },
    platform: { value: "linux", enumerable: true },
    arch: { value: "x64", enumerable: true },
    // The Node the simulation follows (SCRIPTING.md: Node 20).
    version: { value: "v20.20.2", enumerable: true },
    versions: { value: Object.freeze({ node: "20.20.2", v8: "11.3.244.8-node.38" }), enumerable: true },
    release: { value: Object.freeze({ name: "node", lts: "Iron" }), enumerable: true },
    // Each app server is a Node process of its own, with its own pid (a
    // lock owner made from it differs from server to server, as it does
    // in production): 1 on the first server, 2 on the second, ….
    pid: { value: 1 + (host.server ?? 0), enumerable: true },
    argv: { value: ["node", "handler.js"], enumerable: true },
    memoryUsage: { value: memoryUsage, enumerable: true },
    emitWarning: { value: emitWarning, enumerable: true },
    cwd: { value: () => "/", enumerable: true },
    stdout: { value: outputStream(1), enumerable: true },
    stderr: { value: outputStream(2), enumerable: true },
    exit: { value: exit, enumerable: true, writable: true },
    exitCode: { value: undefined, enumerable: true, writable: true },
    title: { value: "node", enumerable: true, writable: true },
    argv0: { value: "node", enumerable: true },
    execArgv: { value: [], enumerable: true },
    execPath: { value: "/usr/local/bin/node", enumerable: true },
  });

  return { EventEmitter, process };
});
