// Node's User Timing: a part of the prelude (prelude.js) that a realm
// compiles and runs the first time its script reaches for `performance` or
// perf_hooks (prelude.js, `performancePart`). Its value is a function of
// what it takes from the prelude.
"use strict";
(function ({ performance, nodeTypeError }) {
  // Node's User Timing (lib/internal/perf): `performance.mark` and
  // `measure` on the simulated clock, kept in the server's timeline until
  // cleared, with `getEntries*` sorted by start time; `timeOrigin` is 0,
  // where `Date.now()` starts. PerformanceObserver is not simulated.
  const performanceEntry = Symbol("PerformanceEntry");
  const missingArgument = (name) =>
    nodeTypeError("ERR_MISSING_ARGS", `The "${name}" argument must be specified`);
  class PerformanceEntry {
    constructor(token, fields) {
      if (token !== performanceEntry) throw nodeTypeError("ERR_ILLEGAL_CONSTRUCTOR", "Illegal constructor");
      this[performanceEntry] = fields;
    }
    get name() {
      return this[performanceEntry].name;
    }
    get entryType() {
      return this[performanceEntry].entryType;
    }
    get startTime() {
      return this[performanceEntry].startTime;
    }
    get duration() {
      return this[performanceEntry].duration;
    }
    get detail() {
      return this[performanceEntry].detail;
    }
    toJSON() {
      const { name, entryType, startTime, duration, detail } = this;
      return { name, entryType, startTime, duration, detail };
    }
    [Symbol.for("nodejs.util.inspect.custom")](depth, options, inspect) {
      if (depth < 0) return this;
      return `${this.constructor.name} ${inspect(this.toJSON(), { ...options, depth: options.depth === null ? null : options.depth - 1 })}`;
    }
  }
  Object.defineProperty(PerformanceEntry.prototype, performanceEntry, { writable: true, value: null });
  const timestamp = (value) => {
    if (typeof value !== "number" || !(value >= 0)) {
      throw nodeTypeError("ERR_PERFORMANCE_INVALID_TIMESTAMP", `${value} is not a valid timestamp`);
    }
    return value;
  };
  class PerformanceMark extends PerformanceEntry {
    constructor(name, options) {
      if (arguments.length === 0) throw missingArgument("name");
      const startTime = options?.startTime === undefined ? performance.now() : timestamp(options.startTime);
      const detail = options?.detail === undefined ? null : structuredClone(options.detail);
      super(performanceEntry, { name: `${name}`, entryType: "mark", startTime, duration: 0, detail });
    }
  }
  class PerformanceMeasure extends PerformanceEntry {
    constructor(token, fields) {
      super(token, fields);
    }
  }
  const timeline = [];
  const markTime = (name) => {
    if (typeof name === "number") return timestamp(name);
    for (let i = timeline.length - 1; i >= 0; i--) {
      const entry = timeline[i];
      if (entry.entryType === "mark" && entry.name === name) return entry.startTime;
    }
    throw new DOMException(`The "${name}" performance mark has not been set`, "SyntaxError");
  };
  const sorted = (entries) =>
    entries.map((entry, at) => [entry, at]).sort((a, b) => a[0].startTime - b[0].startTime || a[1] - b[1]).map(([entry]) => entry);
  const clear = (type, name) => {
    for (let i = timeline.length - 1; i >= 0; i--) {
      if (timeline[i].entryType === type && (name === undefined || timeline[i].name === `${name}`)) {
        timeline.splice(i, 1);
      }
    }
  };
  class Performance {
    get timeOrigin() {
      return 0;
    }
    mark(name, options) {
      if (arguments.length === 0) throw missingArgument("name");
      const mark = new PerformanceMark(name, options);
      timeline.push(mark);
      return mark;
    }
    measure(name, startOrOptions, endMark) {
      if (arguments.length === 0) throw missingArgument("name");
      let start;
      let end;
      let detail = null;
      if (startOrOptions !== null && typeof startOrOptions === "object") {
        const { start: from, end: to, duration } = startOrOptions;
        detail = startOrOptions.detail === undefined ? null : structuredClone(startOrOptions.detail);
        start = from === undefined ? undefined : markTime(from);
        if (to !== undefined) end = markTime(to);
        else if (duration !== undefined) end = (start ?? 0) + duration;
        if (start === undefined && duration !== undefined && end !== undefined) start = end - duration;
      } else if (startOrOptions !== undefined) {
        start = markTime(startOrOptions);
      }
      if (end === undefined) end = endMark === undefined ? performance.now() : markTime(endMark);
      start ??= 0;
      const measure = new PerformanceMeasure(performanceEntry, {
        name: `${name}`, entryType: "measure", startTime: start, duration: end - start, detail,
      });
      timeline.push(measure);
      return measure;
    }
    getEntries() {
      return sorted(timeline);
    }
    getEntriesByName(name, type) {
      return sorted(timeline.filter((entry) => entry.name === `${name}` && (type === undefined || entry.entryType === type)));
    }
    getEntriesByType(type) {
      return sorted(timeline.filter((entry) => entry.entryType === `${type}`));
    }
    clearMarks(name) {
      clear("mark", name);
    }
    clearMeasures(name) {
      clear("measure", name);
    }
    toJSON() {
      return { timeOrigin: 0 };
    }
  }
  Object.defineProperty(Performance.prototype, Symbol.toStringTag, { value: "Performance", configurable: true });
  Object.setPrototypeOf(performance, Performance.prototype);

  return {
    performance,
    perfHooks: Object.freeze({
      performance,
      Performance,
      PerformanceEntry,
      PerformanceMark,
      PerformanceMeasure,
    }),
  };
});
