// timers/promises: a part of the prelude (prelude.js) that a realm compiles
// and runs the first time its script reaches for it (prelude.js,
// `timersPart`). Its value is a function of what it takes from the prelude.
"use strict";
(function ({
  setTimeout, clearTimeout, setImmediate, clearImmediate, setInterval, clearInterval,
  nodeTypeError, abortedBy, mustBeSignal, inspectPart,
}) {
  // timers/promises, as Node's (lib/timers/promises.js): the timer itself
  // resolves the promise (a delay below 1 ms is 1 ms, as for setTimeout),
  // and a `signal` clears it and rejects with an AbortError; with a signal
  // the promise is the `finally` that stops listening, as on Node.
  function timerPromise(start, clear, options) {
    if (options === null || typeof options !== "object") {
      return Promise.reject(
        nodeTypeError(
          "ERR_INVALID_ARG_TYPE",
          `The "options" argument must be of type object.${inspectPart().received(options)}`
        )
      );
    }
    try {
      mustBeSignal(options.signal);
    } catch (error) {
      return Promise.reject(error);
    }
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortedBy(signal));
    let oncancel;
    const ret = new Promise((resolve, reject) => {
      const id = start(resolve);
      if (signal) {
        oncancel = () => {
          clear(id);
          reject(abortedBy(signal));
        };
        signal.addEventListener("abort", oncancel);
      }
    });
    return oncancel === undefined
      ? ret
      : ret.finally(() => signal.removeEventListener("abort", oncancel));
  }
  const mustBeDelay = (after) => {
    if (after !== undefined && typeof after !== "number") {
      throw nodeTypeError(
        "ERR_INVALID_ARG_TYPE",
        `The "delay" argument must be of type number.${inspectPart().received(after)}`
      );
    }
  };
  function promisedTimeout(after, value, options = {}) {
    try {
      mustBeDelay(after);
    } catch (error) {
      return Promise.reject(error);
    }
    return timerPromise((resolve) => setTimeout(resolve, after, value), clearTimeout, options);
  }
  function promisedImmediate(value, options = {}) {
    return timerPromise((resolve) => setImmediate(resolve, value), clearImmediate, options);
  }
  async function* promisedInterval(after, value, options = {}) {
    mustBeDelay(after);
    if (options === null || typeof options !== "object") {
      throw nodeTypeError(
        "ERR_INVALID_ARG_TYPE",
        `The "options" argument must be of type object.${inspectPart().received(options)}`
      );
    }
    mustBeSignal(options.signal);
    const { signal } = options;
    if (signal?.aborted) throw abortedBy(signal);
    let onCancel;
    let interval;
    try {
      let notYielded = 0;
      let callback;
      interval = setInterval(() => {
        notYielded++;
        if (callback) {
          callback();
          callback = undefined;
        }
      }, after);
      if (signal) {
        onCancel = () => {
          clearInterval(interval);
          if (callback) {
            callback(Promise.reject(abortedBy(signal)));
            callback = undefined;
          }
        };
        signal.addEventListener("abort", onCancel, { once: true });
      }
      while (!signal?.aborted) {
        if (notYielded === 0) await new Promise((resolve) => (callback = resolve));
        for (; notYielded > 0; notYielded--) yield value;
      }
      throw abortedBy(signal);
    } finally {
      clearInterval(interval);
      signal?.removeEventListener("abort", onCancel);
    }
  }
  class Scheduler {
    wait(delay, options) {
      return promisedTimeout(delay, undefined, options);
    }
    yield() {
      return promisedImmediate();
    }
  }

  return {
    promises: Object.freeze({
      setTimeout: promisedTimeout,
      setImmediate: promisedImmediate,
      setInterval: promisedInterval,
      scheduler: new Scheduler(),
    }),
  };
});
