// Node's modules that are no global (assert, querystring, url, path, os) and the
// uuid package: a part of the prelude (prelude.js) that a realm compiles
// and runs the first time its script requires one of them (prelude.js,
// `modulesPart`). Its value is a function of what it takes from the
// prelude.
"use strict";
(function ({ host, nodePart, crypto, inspectPart }) {
  const inspect = (value) => inspectPart().inspect(value);

  // --- assert -------------------------------------------------------------
  // Node 20's messages: a diff of the two values, as `util.inspect` shows
  // them one property a line with sorted keys, for strictEqual and
  // deepStrictEqual; a falsy `assert(...)` quotes its call from the
  // script's source.

  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

  // One property a line, keys (and Map and Set entries) sorted: the form
  // assert's messages compare line by line.
  function inspectValue(value, indent = 0, seen = new Set()) {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) {
      return inspect(value);
    }
    if (typeof value === "function") return inspect(value);
    if (value instanceof Date) {
      return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
    }
    if (value instanceof RegExp || value instanceof Error) return inspect(value);
    if (seen.has(value)) return "[Circular *1]";
    seen.add(value);
    const inner = (item) => inspectValue(item, indent + 2, seen);
    const key = (name) =>
      typeof name === "symbol" ? `[${String(name)}]` : IDENTIFIER.test(name) ? name : inspect(name);
    const properties = (names) => names.map((name) => `${key(name)}: ${inner(value[name])}`);
    const ownKeys = Object.keys(value).concat(
      Object.getOwnPropertySymbols(value).filter((symbol) =>
        Object.prototype.propertyIsEnumerable.call(value, symbol)
      )
    );
    let prefix = "";
    let items;
    let brackets = "{}";
    if (Array.isArray(value)) {
      brackets = "[]";
      const extra = ownKeys.filter((name) => typeof name === "symbol" || !/^(0|[1-9]\d*)$/.test(name));
      items = Array.from(value, inner).concat(properties(extra).sort());
      if (Object.getPrototypeOf(value) !== Array.prototype) {
        prefix = `${value.constructor?.name ?? "Array"}(${value.length}) `;
      }
    } else if (value instanceof Map) {
      prefix = `Map(${value.size}) `;
      items = Array.from(value, ([k, v]) => `${inner(k)} => ${inner(v)}`).sort();
    } else if (value instanceof Set) {
      prefix = `Set(${value.size}) `;
      items = Array.from(value, inner).sort();
    } else {
      const prototype = Object.getPrototypeOf(value);
      if (prototype === null) prefix = "[Object: null prototype] ";
      else if (prototype !== Object.prototype) {
        prefix = `${prototype.constructor?.name || "Object"} `;
      }
      items = properties(ownKeys).sort();
    }
    seen.delete(value);
    if (items.length === 0) return `${prefix}${brackets}`;
    const pad = " ".repeat(indent + 2);
    return `${prefix}${brackets[0]}\n${items.map((item) => pad + item).join(",\n")}\n${" ".repeat(indent)}${brackets[1]}`;
  }

  const OPERATORS = {
    deepStrictEqual: "Expected values to be strictly deep-equal:",
    strictEqual: "Expected values to be strictly equal:",
    strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
    deepEqual: "Expected values to be loosely deep-equal:",
    notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
    notStrictEqual: 'Expected "actual" to be strictly unequal to:',
    notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
    notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
    notIdentical: "Values have same structure but are not reference-equal:",
    notDeepEqualUnequal: "Expected values not to be loosely deep-equal:",
  };
  // Two values on one line this short (both quoted, say) read as `a !== b`.
  const SHORT = 12;
  const isObject = (value) => typeof value === "object" && value !== null;

  // The lines that differ, `+` for actual and `-` for expected, with up to
  // two equal lines of context around them and `...` for more.
  function errorDiff(actual, expected, operator, header) {
    const actualText = inspectValue(actual);
    const actualLines = actualText.split("\n");
    const expectedLines = inspectValue(expected).split("\n");
    let other = "";
    let result = "";
    let end = "";
    let skipped = false;
    let indicator = "";
    let i = 0;
    if (
      operator === "strictEqual" &&
      ((isObject(actual) && isObject(expected)) ||
        (typeof actual === "function" && typeof expected === "function"))
    ) {
      operator = "strictEqualObject";
    }
    header ??= OPERATORS[operator];
    if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
      const length = actualLines[0].length + expectedLines[0].length;
      if (length <= SHORT) {
        if (!isObject(actual) && !isObject(expected) && (actual !== 0 || expected !== 0)) {
          return `${header}\n\n${actualLines[0]} !== ${expectedLines[0]}\n`;
        }
      } else if (operator !== "strictEqualObject" && length < 80) {
        while (actualLines[0][i] === expectedLines[0][i]) i += 1;
        if (i > 2) {
          indicator = `\n  ${" ".repeat(i)}^`;
        }
        i = 0;
      }
    }
    // Equal lines at the end: the last three are kept, the rest skipped.
    let a = actualLines[actualLines.length - 1];
    let b = expectedLines[expectedLines.length - 1];
    while (a === b) {
      if (i++ < 3) end = `\n  ${a}${end}`;
      else other = a;
      actualLines.pop();
      expectedLines.pop();
      if (actualLines.length === 0 || expectedLines.length === 0) break;
      a = actualLines[actualLines.length - 1];
      b = expectedLines[expectedLines.length - 1];
    }
    const most = Math.max(actualLines.length, expectedLines.length);
    if (most === 0) {
      const lines = actualText.split("\n");
      if (lines.length > 50) {
        lines[46] = "...";
        lines.length = 47;
      }
      return `${OPERATORS.notIdentical}\n\n${lines.join("\n")}\n`;
    }
    if (i >= 5) {
      end = `\n...${end}`;
      skipped = true;
    }
    if (other !== "") {
      end = `\n  ${other}${end}`;
      other = "";
    }
    let printed = 0;
    let identical = 0;
    const message = `${header}\n+ actual - expected`;
    const skippedMessage = " ... Lines skipped";
    let lines = actualLines;
    let sign = "+";
    let shorter = expectedLines.length;
    if (actualLines.length < most) {
      lines = expectedLines;
      sign = "-";
      shorter = actualLines.length;
    }
    // The equal lines before a difference: up to two, or the first, `...`
    // and the last two.
    const context = (at) => {
      if (identical > 2) {
        if (identical > 3) {
          if (identical > 4) {
            if (identical === 5) {
              result += `\n  ${lines[at - 3]}`;
              printed += 1;
            } else {
              result += "\n...";
              skipped = true;
            }
          }
          result += `\n  ${lines[at - 2]}`;
          printed += 1;
        }
        result += `\n  ${lines[at - 1]}`;
        printed += 1;
      }
      identical = 0;
    };
    for (i = 0; i < most; i += 1) {
      if (shorter < i + 1) {
        context(i);
        if (lines === actualLines) result += `\n${sign} ${lines[i]}`;
        else other += `\n${sign} ${lines[i]}`;
        printed += 1;
      } else {
        const expectedLine = expectedLines[i];
        let actualLine = actualLines[i];
        let diverging =
          actualLine !== expectedLine &&
          (!actualLine.endsWith(",") || actualLine.slice(0, -1) !== expectedLine);
        if (diverging && expectedLine.endsWith(",") && expectedLine.slice(0, -1) === actualLine) {
          diverging = false;
          actualLine += ",";
        }
        if (diverging) {
          context(i);
          result += `\n+ ${actualLine}`;
          other += `\n- ${expectedLine}`;
          printed += 2;
        } else {
          result += other;
          other = "";
          identical += 1;
          if (identical <= 2) {
            result += `\n  ${actualLine}`;
            printed += 1;
          }
        }
      }
      if (printed > 50 && i < most - 2) {
        return `${message}${skippedMessage}\n${result}\n...${other}\n...`;
      }
    }
    return `${message}${skipped ? skippedMessage : ""}\n${result}${other}${end}${indicator}`;
  }

  function generatedMessage(actual, expected, operator) {
    if (operator === "deepStrictEqual" || operator === "strictEqual") {
      return errorDiff(actual, expected, operator);
    }
    if (operator === "notDeepStrictEqual" || operator === "notStrictEqual") {
      let base = OPERATORS[operator];
      const lines = inspectValue(actual).split("\n");
      if (operator === "notStrictEqual" && (isObject(actual) || typeof actual === "function")) {
        base = OPERATORS.notStrictEqualObject;
      }
      if (lines.length > 50) {
        lines[46] = "...";
        lines.length = 47;
      }
      if (lines.length === 1) return `${base}${lines[0].length > 5 ? "\n\n" : " "}${lines[0]}`;
      return `${base}\n\n${lines.join("\n")}\n`;
    }
    let shown = inspectValue(actual);
    let other = inspectValue(expected);
    const known = OPERATORS[operator];
    if (operator === "notDeepEqual" && shown === other) {
      shown = `${known}\n\n${shown}`;
      return shown.length > 1024 ? `${shown.slice(0, 1021)}...` : shown;
    }
    if (shown.length > 512) shown = `${shown.slice(0, 509)}...`;
    if (other.length > 512) other = `${other.slice(0, 509)}...`;
    if (operator === "deepEqual") {
      shown = `${known}\n\n${shown}\n\nshould loosely deep-equal\n\n`;
    } else {
      const unequal = OPERATORS[`${operator}Unequal`];
      if (unequal) shown = `${unequal}\n\n${shown}\n\nshould not loosely deep-equal\n\n`;
      else other = ` ${operator} ${other}`;
    }
    return `${shown}${other}`;
  }

  class AssertionError extends Error {
    constructor(options) {
      if (!isObject(options)) {
        throw new TypeError(
          `The "options" argument must be of type object. Received ${inspect(options)}`
        );
      }
      const { message, operator, actual, expected } = options;
      let text;
      if (message != null) {
        text =
          operator === "deepStrictEqual" || operator === "strictEqual"
            ? errorDiff(actual, expected, operator, String(message))
            : String(message);
      } else {
        text = generatedMessage(actual, expected, operator);
      }
      super(text);
      this.generatedMessage = message == null;
      this.code = "ERR_ASSERTION";
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
    }
    toString() {
      return `${this.name} [${this.code}]: ${this.message}`;
    }
  }
  Object.defineProperty(AssertionError.prototype, "name", {
    value: "AssertionError",
    writable: true,
    configurable: true,
  });

  function fail(options) {
    if (options.message instanceof Error) throw options.message;
    throw new AssertionError(options);
  }

  // The call that failed, from the script's own lines: of the calls
  // around the innermost frame's position in the script (the engine's
  // column may be the callee's or an argument's), the innermost whose
  // callee names assert or ok.
  function callText() {
    const where = /code:(\d+):(\d+)/.exec(new Error().stack ?? "");
    if (!where) return null;
    const lines = String(host.code ?? "").split("\n");
    const line = Number(where[1]) - 1;
    if (lines[line] === undefined) return null;
    const first = Math.max(0, line - 5);
    const text = lines.slice(first, line + 20).join("\n");
    let offset = Number(where[2]) - 1;
    for (let at = first; at < line; at += 1) offset += lines[at].length + 1;
    const callee = /[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\(/g;
    let best = null;
    for (let match = callee.exec(text); match; match = callee.exec(text)) {
      if (match.index > offset) break;
      const name = match[0].slice(0, -1).trim();
      if (!/assert|(^|\.)\s*ok$/.test(name)) continue;
      const end = closing(text, match.index + match[0].length - 1);
      if (end !== -1 && end >= offset) best = [match.index, end];
    }
    if (!best) return null;
    const [start, end] = best;
    const column = start - (text.lastIndexOf("\n", start - 1) + 1);
    return normalize(text.slice(start, end + 1), column);
  }

  // Where the parenthesis at `open` closes (-1: not in `text`), skipping
  // strings.
  function closing(text, open) {
    let depth = 0;
    let quote = null;
    for (let at = open; at < text.length; at += 1) {
      const c = text[at];
      if (quote) {
        if (c === "\\") at += 1;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'" || c === "`") quote = c;
      else if (c === "(" || c === "[" || c === "{") depth += 1;
      else if (c === ")" || c === "]" || c === "}") {
        depth -= 1;
        if (depth === 0) return at;
      }
    }
    return -1;
  }

  // Node keeps a multi-line call's lines, indented under its first.
  function normalize(call, column) {
    const [first, ...rest] = call.split("\n");
    let text = first;
    for (const line of rest) {
      let at = 0;
      while (at < column && (line[at] === " " || line[at] === "\t")) at += 1;
      text += `\n  ${line.slice(at)}`;
    }
    return text;
  }

  function innerOk(count, value, message) {
    if (value) return;
    let generated = false;
    if (count === 0) {
      generated = true;
      message = "No value argument passed to `assert.ok()`";
    } else if (message == null) {
      generated = true;
      const call = callText();
      message = call === null ? undefined : `The expression evaluated to a falsy value:\n\n  ${call}\n`;
    } else if (message instanceof Error) {
      throw message;
    }
    const error = new AssertionError({ actual: value, expected: true, message, operator: "==" });
    error.generatedMessage = generated;
    throw error;
  }

  // Loose deep equality (assert.deepEqual): `==` between primitives, no
  // prototypes compared.
  function isDeepLooseEqual(a, b, comparing = new Map()) {
    if (a === b) return true;
    if (!isObject(a) || !isObject(b)) {
      if (isObject(a) || isObject(b)) return false;
      // eslint-disable-next-line eqeqeq
      return a == b || (Number.isNaN(a) && Number.isNaN(b));
    }
    if (comparing.get(a) === b) return true;
    comparing.set(a, b);
    const equal = (x, y) => isDeepLooseEqual(x, y, comparing);
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
    if (a instanceof Map || a instanceof Set) {
      if (!(b instanceof Map || b instanceof Set) || a.size !== b.size) return false;
      const entries = [...b];
      return [...a].every((x) => entries.some((y) => equal(x, y)));
    }
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && equal(a[key], b[key]));
  }
  const isDeepStrictEqual = (a, b) => nodePart().util.isDeepStrictEqual(a, b);

  const NO_EXCEPTION = Symbol("no exception");
  function thrownBy(fn) {
    if (typeof fn !== "function") {
      throw new TypeError(`The "fn" argument must be of type function. Received ${inspect(fn)}`);
    }
    try {
      fn();
    } catch (error) {
      return error;
    }
    return NO_EXCEPTION;
  }
  async function rejectionOf(promiseOrFn) {
    const promise = typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn;
    if (!promise || typeof promise.then !== "function") {
      throw new TypeError(
        `The "promiseFn" argument must be of type function or an instance of Promise. Received ${inspect(promise)}`
      );
    }
    try {
      await promise;
    } catch (error) {
      return error;
    }
    return NO_EXCEPTION;
  }

  // An object holding only the keys compared (Node shows it so).
  class Comparison {
    constructor(object, keys, actual) {
      for (const key of keys) {
        if (key in object) {
          this[key] =
            actual !== undefined && typeof actual[key] === "string" && object[key] instanceof RegExp &&
            object[key].exec(actual[key]) !== null
              ? actual[key]
              : object[key];
        }
      }
    }
  }

  function expectedException(actual, expected, message, operator) {
    let generated = false;
    let failed = false;
    if (typeof expected !== "function") {
      if (expected instanceof RegExp) {
        const text = String(actual);
        if (expected.exec(text) !== null) return;
        if (!message) {
          generated = true;
          message = `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(text)}\n`;
        }
        failed = true;
      } else if (!isObject(actual)) {
        const error = new AssertionError({ actual, expected, message, operator: "deepStrictEqual" });
        error.operator = operator;
        throw error;
      } else {
        const keys = Object.keys(expected);
        if (expected instanceof Error) keys.push("name", "message");
        for (const key of keys) {
          if (typeof actual[key] === "string" && expected[key] instanceof RegExp && expected[key].exec(actual[key]) !== null) {
            continue;
          }
          if (!(key in actual) || !isDeepStrictEqual(actual[key], expected[key])) {
            if (!message) {
              const a = new Comparison(actual, keys);
              const b = new Comparison(expected, keys, actual);
              const error = new AssertionError({ actual: a, expected: b, operator: "deepStrictEqual" });
              error.actual = actual;
              error.expected = expected;
              error.operator = operator;
              throw error;
            }
            fail({ actual, expected, message, operator });
          }
        }
        return;
      }
    } else if (expected.prototype !== undefined && actual instanceof expected) {
      return;
    } else if (Error.isPrototypeOf(expected)) {
      if (!message) {
        generated = true;
        message = `The error is expected to be an instance of "${expected.name}". Received `;
        if (actual instanceof Error) {
          const name = actual.constructor?.name || actual.name;
          message += expected.name === name ? "an error with identical name but a different prototype." : `"${name}"`;
          if (actual.message) message += `\n\nError message:\n\n${actual.message}`;
        } else {
          message += `"${inspect(actual)}"`;
        }
      }
      failed = true;
    } else {
      const result = Reflect.apply(expected, {}, [actual]);
      if (result !== true) {
        if (!message) {
          generated = true;
          const name = expected.name ? `"${expected.name}" ` : "";
          message = `The ${name}validation function is expected to return "true". Received ${inspect(result)}`;
          if (actual instanceof Error) message += `\n\nCaught error:\n\n${actual}`;
        }
        failed = true;
      }
    }
    if (failed) {
      const error = new AssertionError({ actual, expected, message, operator });
      error.generatedMessage = generated;
      throw error;
    }
  }

  function expectsError(operator, actual, error, message) {
    if (typeof error === "string") {
      message = error;
      error = undefined;
    } else if (error != null && typeof error !== "object" && typeof error !== "function") {
      throw new TypeError(
        `The "error" argument must be of type function or an instance of Error, RegExp, or Object. Received ${inspect(error)}`
      );
    }
    if (actual === NO_EXCEPTION) {
      let details = error?.name ? ` (${error.name})` : "";
      details += message ? `: ${message}` : ".";
      const kind = operator === "rejects" ? "rejection" : "exception";
      fail({ actual: undefined, expected: error, operator, message: `Missing expected ${kind}${details}` });
    }
    if (error) expectedException(actual, error, message, operator);
  }

  function matches(actual, error) {
    if (typeof error !== "function") {
      if (error instanceof RegExp) return error.exec(String(actual)) !== null;
      throw new TypeError(
        `The "expected" argument must be of type function or an instance of RegExp. Received ${inspect(error)}`
      );
    }
    if (error.prototype !== undefined && actual instanceof error) return true;
    if (Error.isPrototypeOf(error)) return false;
    return Reflect.apply(error, {}, [actual]) === true;
  }

  function expectsNoError(operator, actual, error, message) {
    if (actual === NO_EXCEPTION) return;
    if (typeof error === "string") {
      message = error;
      error = undefined;
    }
    if (!error || matches(actual, error)) {
      const details = message ? `: ${message}` : ".";
      const kind = operator === "doesNotReject" ? "rejection" : "exception";
      fail({
        actual,
        expected: error,
        operator,
        message: `Got unwanted ${kind}${details}\nActual message: "${actual?.message}"`,
      });
    }
    throw actual;
  }

  function match(string, regexp, message, operator) {
    if (!(regexp instanceof RegExp)) {
      throw new TypeError(`The "regexp" argument must be an instance of RegExp. Received ${inspect(regexp)}`);
    }
    const wanted = operator === "match";
    if (typeof string !== "string" || (regexp.exec(string) !== null) !== wanted) {
      if (message instanceof Error) throw message;
      const generated = !message;
      message ||=
        typeof string !== "string"
          ? `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})`
          : `${wanted ? "The input did not match the regular expression " : "The input was expected to not match the regular expression "}${inspect(regexp)}. Input:\n\n${inspect(string)}\n`;
      const error = new AssertionError({ actual: string, expected: regexp, message, operator });
      error.generatedMessage = generated;
      throw error;
    }
  }

  const checks = {
    fail(message) {
      if (message instanceof Error) throw message;
      const error = new AssertionError({ message: message ?? "Failed", operator: "fail" });
      error.generatedMessage = message === undefined;
      throw error;
    },
    equal(actual, expected, message) {
      // eslint-disable-next-line eqeqeq
      if (actual != expected && (!Number.isNaN(actual) || !Number.isNaN(expected))) {
        fail({ actual, expected, message, operator: "==" });
      }
    },
    notEqual(actual, expected, message) {
      // eslint-disable-next-line eqeqeq
      if (actual == expected || (Number.isNaN(actual) && Number.isNaN(expected))) {
        fail({ actual, expected, message, operator: "!=" });
      }
    },
    strictEqual(actual, expected, message) {
      if (!Object.is(actual, expected)) fail({ actual, expected, message, operator: "strictEqual" });
    },
    notStrictEqual(actual, expected, message) {
      if (Object.is(actual, expected)) fail({ actual, expected, message, operator: "notStrictEqual" });
    },
    deepEqual(actual, expected, message) {
      if (!isDeepLooseEqual(actual, expected)) fail({ actual, expected, message, operator: "deepEqual" });
    },
    notDeepEqual(actual, expected, message) {
      if (isDeepLooseEqual(actual, expected)) fail({ actual, expected, message, operator: "notDeepEqual" });
    },
    deepStrictEqual(actual, expected, message) {
      if (!isDeepStrictEqual(actual, expected)) {
        fail({ actual, expected, message, operator: "deepStrictEqual" });
      }
    },
    notDeepStrictEqual(actual, expected, message) {
      if (isDeepStrictEqual(actual, expected)) {
        fail({ actual, expected, message, operator: "notDeepStrictEqual" });
      }
    },
    throws(fn, error, message) {
      expectsError("throws", thrownBy(fn), error, message);
    },
    doesNotThrow(fn, error, message) {
      expectsNoError("doesNotThrow", thrownBy(fn), error, message);
    },
    async rejects(promiseOrFn, error, message) {
      expectsError("rejects", await rejectionOf(promiseOrFn), error, message);
    },
    async doesNotReject(promiseOrFn, error, message) {
      expectsNoError("doesNotReject", await rejectionOf(promiseOrFn), error, message);
    },
    ifError(value) {
      if (value === null || value === undefined) return;
      let message = "ifError got unwanted exception: ";
      if (isObject(value) && typeof value.message === "string") {
        message += value.message.length === 0 && value.constructor ? value.constructor.name : value.message;
      } else {
        message += inspect(value);
      }
      const error = new AssertionError({ actual: value, expected: null, operator: "ifError", message });
      error.generatedMessage = false;
      throw error;
    },
    match(string, regexp, message) {
      match(string, regexp, message, "match");
    },
    doesNotMatch(string, regexp, message) {
      match(string, regexp, message, "doesNotMatch");
    },
    AssertionError,
  };

  function assert(...args) {
    innerOk(args.length, ...args);
  }
  function ok(...args) {
    innerOk(args.length, ...args);
  }
  Object.assign(assert, checks, { ok });
  function strict(...args) {
    innerOk(args.length, ...args);
  }
  Object.assign(strict, checks, {
    ok,
    equal: checks.strictEqual,
    notEqual: checks.notStrictEqual,
    deepEqual: checks.deepStrictEqual,
    notDeepEqual: checks.notDeepStrictEqual,
  });
  strict.strict = strict;
  assert.strict = strict;

  // --- querystring ----------------------------------------------------------

  function unescape(text) {
    try {
      return decodeURIComponent(text);
    } catch {
      return text.replace(/%([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
    }
  }
  const escape = (text) => encodeURIComponent(text);

  function parse(text, separator = "&", equals = "=", options = {}) {
    const result = Object.create(null);
    if (typeof text !== "string" || text.length === 0) return result;
    const maxKeys = options.maxKeys ?? 1000;
    const decode = options.decodeURIComponent ?? unescape;
    let pairs = text.split(separator || "&");
    if (maxKeys > 0) pairs = pairs.slice(0, maxKeys);
    for (const pair of pairs) {
      if (pair === "") continue;
      const at = pair.indexOf(equals || "=");
      const rawKey = at >= 0 ? pair.slice(0, at) : pair;
      const rawValue = at >= 0 ? pair.slice(at + (equals || "=").length) : "";
      const key = decode(rawKey.replace(/\+/g, " "));
      const value = decode(rawValue.replace(/\+/g, " "));
      if (!(key in result)) result[key] = value;
      else if (Array.isArray(result[key])) result[key].push(value);
      else result[key] = [result[key], value];
    }
    return result;
  }

  function primitive(value) {
    if (typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    if (typeof value === "bigint" || typeof value === "boolean") return String(value);
    return "";
  }

  function stringify(object, separator = "&", equals = "=", options = {}) {
    if (object === null || typeof object !== "object") return "";
    const encode = options.encodeURIComponent ?? escape;
    const parts = [];
    for (const key of Object.keys(object)) {
      const value = object[key];
      const name = encode(primitive(key)) + equals;
      if (Array.isArray(value)) {
        for (const item of value) parts.push(name + encode(primitive(item)));
      } else {
        parts.push(name + encode(primitive(value)));
      }
    }
    return parts.join(separator);
  }
  const querystring = Object.freeze({
    parse,
    stringify,
    decode: parse,
    encode: stringify,
    escape,
    unescape,
  });

  // --- url ------------------------------------------------------------------
  // The WHATWG URL (the Node part's), and the legacy `url.parse` that older
  // handlers call on `req.url`.

  class Url {
    constructor() {
      this.protocol = null;
      this.slashes = null;
      this.auth = null;
      this.host = null;
      this.port = null;
      this.hostname = null;
      this.hash = null;
      this.search = null;
      this.query = null;
      this.pathname = null;
      this.path = null;
      this.href = null;
    }
  }
  const SLASHED = new Set(["http:", "https:", "ftp:", "gopher:", "file:", "ws:", "wss:"]);

  function urlParse(address, parseQuery = false, slashesDenoteHost = false) {
    if (typeof address !== "string") {
      throw new TypeError(`The "url" argument must be of type string. Received ${inspect(address)}`);
    }
    const url = new Url();
    let rest = address.trim();
    const hashAt = rest.indexOf("#");
    if (hashAt >= 0) {
      url.hash = rest.slice(hashAt);
      rest = rest.slice(0, hashAt);
    }
    const searchAt = rest.indexOf("?");
    let search = null;
    if (searchAt >= 0) {
      search = rest.slice(searchAt);
      rest = rest.slice(0, searchAt);
    }
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*:)/.exec(rest);
    if (scheme) {
      url.protocol = scheme[1].toLowerCase();
      rest = rest.slice(scheme[1].length);
    }
    if ((url.protocol || slashesDenoteHost) && rest.startsWith("//")) {
      url.slashes = true;
      rest = rest.slice(2);
      const end = rest.search(/[/\\]/);
      let authority = end >= 0 ? rest.slice(0, end) : rest;
      rest = end >= 0 ? rest.slice(end) : "";
      const at = authority.lastIndexOf("@");
      if (at >= 0) {
        url.auth = decodeURIComponent(authority.slice(0, at));
        authority = authority.slice(at + 1);
      }
      const port = /:(\d*)$/.exec(authority);
      if (port) {
        if (port[1] !== "") url.port = port[1];
        authority = authority.slice(0, port.index);
      }
      url.hostname = authority.toLowerCase();
      url.host = url.port ? `${url.hostname}:${url.port}` : url.hostname;
    }
    if (rest !== "" || url.slashes || url.protocol === null) url.pathname = rest;
    if (url.slashes && SLASHED.has(url.protocol) && !url.pathname) url.pathname = "/";
    if (search !== null) {
      url.search = search;
      url.query = search.slice(1);
    } else if (parseQuery) {
      url.search = "";
    }
    if (parseQuery) url.query = parse(url.query ?? "");
    url.path = (url.pathname ?? "") + (url.search ?? "") || null;
    url.href = urlFormat(url);
    return url;
  }

  function urlFormat(url) {
    if (typeof url === "string") url = urlParse(url);
    if (url instanceof nodePart().URL) return url.href;
    let auth = url.auth ? `${encodeURIComponent(url.auth).replace(/%3A/i, ":")}@` : "";
    const protocol = url.protocol ? (url.protocol.endsWith(":") ? url.protocol : `${url.protocol}:`) : "";
    let host = "";
    if (url.host) host = auth + url.host;
    else if (url.hostname) host = auth + url.hostname + (url.port ? `:${url.port}` : "");
    let pathname = url.pathname ?? "";
    let search =
      url.search ?? (url.query && typeof url.query === "object" && Object.keys(url.query).length
        ? `?${stringify(url.query)}`
        : "");
    if (search && !search.startsWith("?")) search = `?${search}`;
    let hash = url.hash ?? "";
    if (hash && !hash.startsWith("#")) hash = `#${hash}`;
    if (url.slashes || (SLASHED.has(protocol) && host)) {
      host = `//${host}`;
      if (pathname && !pathname.startsWith("/")) pathname = `/${pathname}`;
    }
    return protocol + host + pathname + search + hash;
  }

  function fileURLToPath(url) {
    const parsed = typeof url === "string" ? new (nodePart().URL)(url) : url;
    if (parsed.protocol !== "file:") {
      const error = new TypeError("The URL must be of scheme file");
      error.code = "ERR_INVALID_URL_SCHEME";
      throw error;
    }
    return decodeURIComponent(parsed.pathname);
  }

  const url = {
    parse: urlParse,
    format: urlFormat,
    resolve: (from, to) => {
      const URL = nodePart().URL;
      const resolved = new URL(to, new URL(from, "resolve://"));
      return resolved.protocol === "resolve:" ? resolved.pathname + resolved.search + resolved.hash : resolved.href;
    },
    fileURLToPath,
    pathToFileURL: (path) => new (nodePart().URL)(`file://${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}`),
    Url,
  };
  for (const name of ["URL", "URLSearchParams"]) {
    Object.defineProperty(url, name, { get: () => nodePart()[name], enumerable: true });
  }

  // --- uuid ------------------------------------------------------------------
  // The uuid package's functions, from the run's seeded randomness and its
  // simulated clock (v7), and from crypto's hashes (v3, v5).

  const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;
  const validate = (text) => typeof text === "string" && UUID.test(text);
  function version(text) {
    if (!validate(text)) throw new TypeError("Invalid UUID");
    return parseInt(text.slice(14, 15), 16);
  }
  function uuidParse(text) {
    if (!validate(text)) throw new TypeError("Invalid UUID");
    const hex = text.replace(/-/g, "");
    return Uint8Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
  }
  function uuidStringify(bytes, offset = 0) {
    const hex = Array.from({ length: 16 }, (_, i) => bytes[offset + i].toString(16).padStart(2, "0")).join("");
    const text = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    if (!validate(text)) throw new TypeError("Stringified UUID is invalid");
    return text;
  }
  // Bytes written to `buffer` at `offset` when one is given, as uuid does.
  function output(bytes, buffer, offset = 0) {
    if (!buffer) return uuidStringify(bytes);
    for (let i = 0; i < 16; i += 1) buffer[offset + i] = bytes[i];
    return buffer;
  }
  const randomBytes = () => Uint8Array.from({ length: 16 }, () => Math.floor(Math.random() * 256));
  function v4(options, buffer, offset) {
    const bytes = options?.random ?? options?.rng?.() ?? randomBytes();
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    return output(bytes, buffer, offset);
  }
  function v7(options, buffer, offset) {
    const bytes = options?.random ?? options?.rng?.() ?? randomBytes();
    let msecs = options?.msecs ?? Date.now();
    for (let i = 5; i >= 0; i -= 1) {
      bytes[i] = msecs % 256;
      msecs = Math.floor(msecs / 256);
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x70;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    return output(bytes, buffer, offset);
  }
  function named(versionNumber, algorithm) {
    const make = function (name, namespace, buffer, offset) {
      const space = typeof namespace === "string" ? uuidParse(namespace) : namespace;
      const text = typeof name === "string" ? nodePart().Buffer.from(name, "utf8") : name;
      const digest = crypto
        .createHash(algorithm)
        .update(nodePart().Buffer.concat([nodePart().Buffer.from(space), nodePart().Buffer.from(text)]))
        .digest();
      const bytes = Uint8Array.from(digest.subarray(0, 16));
      bytes[6] = (bytes[6] & 0x0f) | (versionNumber << 4);
      bytes[8] = (bytes[8] & 0x3f) | 0x80;
      return output(bytes, buffer, offset);
    };
    make.DNS = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";
    make.URL = "6ba7b811-9dad-11d1-80b4-00c04fd430c8";
    return make;
  }
  const uuid = Object.freeze({
    v3: named(3, "md5"),
    v4,
    v5: named(5, "sha1"),
    v7,
    NIL: "00000000-0000-0000-0000-000000000000",
    MAX: "ffffffff-ffff-ffff-ffff-ffffffffffff",
    validate,
    version,
    parse: uuidParse,
    stringify: uuidStringify,
  });

  // --- path -------------------------------------------------------------
  // Node 20's `path` on Linux (lib/path.js, posix), step for step: the
  // same answers for `..`, repeated and trailing slashes, dotfiles and
  // empty arguments. `process.cwd()` is "/", so `resolve` starts there.

  const SLASH = 47;
  const DOT = 46;
  const { received } = inspectPart();
  const mustBeString = (value, name) => {
    if (typeof value === "string") return;
    const error = new TypeError(`The "${name}" argument must be of type string.${received(value)}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  };

  // The path without `.` segments and with each `..` taken back, as
  // Node's normalizeString does it.
  function normalizeString(path, allowAboveRoot) {
    let res = "";
    let lastSegmentLength = 0;
    let lastSlash = -1;
    let dots = 0;
    let code = 0;
    for (let i = 0; i <= path.length; ++i) {
      if (i < path.length) code = path.charCodeAt(i);
      else if (code === SLASH) break;
      else code = SLASH;
      if (code === SLASH) {
        if (lastSlash === i - 1 || dots === 1) {
          // An empty segment or `.`: nothing.
        } else if (dots === 2) {
          if (
            res.length < 2 || lastSegmentLength !== 2 ||
            res.charCodeAt(res.length - 1) !== DOT || res.charCodeAt(res.length - 2) !== DOT
          ) {
            if (res.length > 2) {
              const lastSlashIndex = res.lastIndexOf("/");
              if (lastSlashIndex === -1) {
                res = "";
                lastSegmentLength = 0;
              } else {
                res = res.slice(0, lastSlashIndex);
                lastSegmentLength = res.length - 1 - res.lastIndexOf("/");
              }
              lastSlash = i;
              dots = 0;
              continue;
            } else if (res.length !== 0) {
              res = "";
              lastSegmentLength = 0;
              lastSlash = i;
              dots = 0;
              continue;
            }
          }
          if (allowAboveRoot) {
            res += res.length > 0 ? "/.." : "..";
            lastSegmentLength = 2;
          }
        } else {
          if (res.length > 0) res += `/${path.slice(lastSlash + 1, i)}`;
          else res = path.slice(lastSlash + 1, i);
          lastSegmentLength = i - lastSlash - 1;
        }
        lastSlash = i;
        dots = 0;
      } else if (code === DOT && dots !== -1) {
        ++dots;
      } else {
        dots = -1;
      }
    }
    return res;
  }

  // Where the last segment's extension starts and its name ends, scanning
  // back from the end (`extname` and `parse`): [startDot, startPart, end],
  // startDot -1 when the segment has no extension.
  function lastSegment(path, start) {
    let startDot = -1;
    let startPart = 0;
    let end = -1;
    let matchedSlash = true;
    let preDotState = 0;
    for (let i = path.length - 1; i >= start; --i) {
      const code = path.charCodeAt(i);
      if (code === SLASH) {
        if (!matchedSlash) {
          startPart = i + 1;
          break;
        }
        continue;
      }
      if (end === -1) {
        matchedSlash = false;
        end = i + 1;
      }
      if (code === DOT) {
        if (startDot === -1) startDot = i;
        else if (preDotState !== 1) preDotState = 1;
      } else if (startDot !== -1) {
        preDotState = -1;
      }
    }
    const noExtension =
      startDot === -1 || end === -1 || preDotState === 0 ||
      (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1);
    return [noExtension ? -1 : startDot, startPart, end];
  }

  const path = {
    resolve(...args) {
      let resolved = "";
      let absolute = false;
      for (let i = args.length - 1; i >= -1 && !absolute; i--) {
        const part = i >= 0 ? args[i] : "/";
        mustBeString(part, `paths[${i}]`);
        if (part.length === 0) continue;
        resolved = `${part}/${resolved}`;
        absolute = part.charCodeAt(0) === SLASH;
      }
      resolved = normalizeString(resolved, !absolute);
      if (absolute) return `/${resolved}`;
      return resolved.length > 0 ? resolved : ".";
    },
    normalize(value) {
      mustBeString(value, "path");
      if (value.length === 0) return ".";
      const absolute = value.charCodeAt(0) === SLASH;
      const trailing = value.charCodeAt(value.length - 1) === SLASH;
      let out = normalizeString(value, !absolute);
      if (out.length === 0) {
        if (absolute) return "/";
        return trailing ? "./" : ".";
      }
      if (trailing) out += "/";
      return absolute ? `/${out}` : out;
    },
    isAbsolute(value) {
      mustBeString(value, "path");
      return value.length > 0 && value.charCodeAt(0) === SLASH;
    },
    join(...args) {
      if (args.length === 0) return ".";
      let joined;
      for (const arg of args) {
        mustBeString(arg, "path");
        if (arg.length > 0) joined = joined === undefined ? arg : `${joined}/${arg}`;
      }
      return joined === undefined ? "." : path.normalize(joined);
    },
    relative(from, to) {
      mustBeString(from, "from");
      mustBeString(to, "to");
      if (from === to) return "";
      from = path.resolve(from);
      to = path.resolve(to);
      if (from === to) return "";
      const fromLen = from.length - 1;
      const toLen = to.length - 1;
      const length = fromLen < toLen ? fromLen : toLen;
      let lastCommonSep = -1;
      let i = 0;
      for (; i < length; i++) {
        const code = from.charCodeAt(1 + i);
        if (code !== to.charCodeAt(1 + i)) break;
        else if (code === SLASH) lastCommonSep = i;
      }
      if (i === length) {
        if (toLen > length) {
          if (to.charCodeAt(1 + i) === SLASH) return to.slice(1 + i + 1);
          if (i === 0) return to.slice(1 + i);
        } else if (fromLen > length) {
          if (from.charCodeAt(1 + i) === SLASH) lastCommonSep = i;
          else if (i === 0) lastCommonSep = 0;
        }
      }
      let out = "";
      for (i = 1 + lastCommonSep + 1; i <= from.length; ++i) {
        if (i === from.length || from.charCodeAt(i) === SLASH) out += out.length === 0 ? ".." : "/..";
      }
      return `${out}${to.slice(1 + lastCommonSep)}`;
    },
    toNamespacedPath(value) {
      return value;
    },
    dirname(value) {
      mustBeString(value, "path");
      if (value.length === 0) return ".";
      const hasRoot = value.charCodeAt(0) === SLASH;
      let end = -1;
      let matchedSlash = true;
      for (let i = value.length - 1; i >= 1; --i) {
        if (value.charCodeAt(i) === SLASH) {
          if (!matchedSlash) {
            end = i;
            break;
          }
        } else {
          matchedSlash = false;
        }
      }
      if (end === -1) return hasRoot ? "/" : ".";
      if (hasRoot && end === 1) return "//";
      return value.slice(0, end);
    },
    basename(value, suffix) {
      if (suffix !== undefined) mustBeString(suffix, "ext");
      mustBeString(value, "path");
      let start = 0;
      let end = -1;
      let matchedSlash = true;
      if (suffix !== undefined && suffix.length > 0 && suffix.length <= value.length) {
        if (suffix === value) return "";
        let extIdx = suffix.length - 1;
        let firstNonSlashEnd = -1;
        for (let i = value.length - 1; i >= 0; --i) {
          const code = value.charCodeAt(i);
          if (code === SLASH) {
            if (!matchedSlash) {
              start = i + 1;
              break;
            }
          } else {
            if (firstNonSlashEnd === -1) {
              matchedSlash = false;
              firstNonSlashEnd = i + 1;
            }
            if (extIdx >= 0) {
              if (code === suffix.charCodeAt(extIdx)) {
                if (--extIdx === -1) end = i;
              } else {
                extIdx = -1;
                end = firstNonSlashEnd;
              }
            }
          }
        }
        if (start === end) end = firstNonSlashEnd;
        else if (end === -1) end = value.length;
        return value.slice(start, end);
      }
      for (let i = value.length - 1; i >= 0; --i) {
        if (value.charCodeAt(i) === SLASH) {
          if (!matchedSlash) {
            start = i + 1;
            break;
          }
        } else if (end === -1) {
          matchedSlash = false;
          end = i + 1;
        }
      }
      return end === -1 ? "" : value.slice(start, end);
    },
    extname(value) {
      mustBeString(value, "path");
      const [startDot, , end] = lastSegment(value, 0);
      return startDot === -1 ? "" : value.slice(startDot, end);
    },
    format(pathObject) {
      if (pathObject === null || typeof pathObject !== "object") {
        const error = new TypeError(
          `The "pathObject" argument must be of type object.${received(pathObject)}`
        );
        error.code = "ERR_INVALID_ARG_TYPE";
        throw error;
      }
      const dir = pathObject.dir || pathObject.root;
      const ext = pathObject.ext ? `${pathObject.ext[0] === "." ? "" : "."}${pathObject.ext}` : "";
      const base = pathObject.base || `${pathObject.name || ""}${ext}`;
      if (!dir) return base;
      return dir === pathObject.root ? `${dir}${base}` : `${dir}/${base}`;
    },
    parse(value) {
      mustBeString(value, "path");
      const out = { root: "", dir: "", base: "", ext: "", name: "" };
      if (value.length === 0) return out;
      const absolute = value.charCodeAt(0) === SLASH;
      if (absolute) out.root = "/";
      const [startDot, startPart, end] = lastSegment(value, absolute ? 1 : 0);
      if (end !== -1) {
        const start = startPart === 0 && absolute ? 1 : startPart;
        if (startDot === -1) {
          out.base = out.name = value.slice(start, end);
        } else {
          out.name = value.slice(start, startDot);
          out.base = value.slice(start, end);
          out.ext = value.slice(startDot, end);
        }
      }
      if (startPart > 0) out.dir = value.slice(0, startPart - 1);
      else if (absolute) out.dir = "/";
      return out;
    },
    sep: "/",
    delimiter: ":",
  };
  path.posix = path;
  Object.freeze(path);

  // --- os -----------------------------------------------------------------
  // A Linux host per app server: each server is a process on a machine of
  // its own, so `os.hostname()` (like `process.pid`) differs between
  // servers, as a lock owner made from it does in production. The rest are
  // fixed values of one small x64 machine.

  const server = host.server ?? 0;
  const cpu = () => ({
    model: "Simulated CPU",
    speed: 2400,
    times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 },
  });
  const os = Object.freeze({
    EOL: "\n",
    devNull: "/dev/null",
    hostname: () => `server-${server + 1}`,
    platform: () => "linux",
    type: () => "Linux",
    arch: () => "x64",
    machine: () => "x86_64",
    release: () => "6.1.0",
    version: () => "#1 SMP Debian 6.1.0",
    endianness: () => "LE",
    cpus: () => [cpu()],
    availableParallelism: () => 1,
    totalmem: () => 2 ** 31,
    freemem: () => 2 ** 30,
    loadavg: () => [0, 0, 0],
    uptime: () => Math.floor(performance.now() / 1000),
    tmpdir: () => "/tmp",
    homedir: () => "/home/node",
    userInfo: () => ({ uid: 1000, gid: 1000, username: "node", homedir: "/home/node", shell: "/bin/sh" }),
    networkInterfaces: () => ({}),
  });

  // --- fs -----------------------------------------------------------------
  // The simulated machine's file system is empty and read-only (a
  // container's read-only root): every read finds no file (ENOENT) and
  // every write is refused (EROFS), with Node's errors, in the sync, the
  // callback and the promise APIs. `existsSync` is false. A module that
  // reads an optional config file at load goes on as it would without
  // the file.

  const fsError = (code, syscall, where) => {
    const text = code === "ENOENT" ? "no such file or directory" : "read-only file system";
    const error = new Error(`${code}: ${text}, ${syscall} '${where}'`);
    error.errno = code === "ENOENT" ? -2 : -30;
    error.code = code;
    error.syscall = syscall;
    error.path = String(where);
    return error;
  };
  // Each call: its name, the error it meets (by the first argument).
  const FS_CALLS = {
    readFile: ["ENOENT", "open"],
    readdir: ["ENOENT", "scandir"],
    stat: ["ENOENT", "stat"],
    lstat: ["ENOENT", "lstat"],
    access: ["ENOENT", "access"],
    unlink: ["ENOENT", "unlink"],
    rm: ["ENOENT", "lstat"],
    realpath: ["ENOENT", "lstat"],
    open: ["ENOENT", "open"],
    writeFile: ["EROFS", "open"],
    appendFile: ["EROFS", "open"],
    mkdir: ["EROFS", "mkdir"],
    copyFile: ["ENOENT", "copyfile"],
    rename: ["ENOENT", "rename"],
  };
  const fsPromises = {};
  const fs = {
    constants: Object.freeze({ F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 }),
    existsSync: () => false,
    exists: (where, callback) => setImmediate(() => callback(false)),
    promises: fsPromises,
  };
  for (const [name, [code, syscall]] of Object.entries(FS_CALLS)) {
    fs[`${name}Sync`] = {
      [`${name}Sync`](where) {
        throw fsError(code, syscall, where);
      },
    }[`${name}Sync`];
    fs[name] = {
      [name](where, ...rest) {
        const callback = rest.findLast((arg) => typeof arg === "function");
        const error = fsError(code, syscall, where);
        if (callback) setImmediate(() => callback(error));
      },
    }[name];
    fsPromises[name] = {
      async [name](where) {
        throw fsError(code, syscall, where);
      },
    }[name];
  }
  Object.freeze(fsPromises);
  Object.freeze(fs);

  // --- dotenv (the npm package, 16.x) -------------------------------------
  // `config()` finds no `.env` on the empty file system: it leaves
  // `process.env` as it is and returns `{ parsed: {}, error }`, silently,
  // as dotenv 16 does. `parse` reads KEY=value lines as dotenv does.

  const LINE = /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;
  function parseDotenv(source) {
    const parsed = {};
    const lines = String(source).replace(/\r\n?/gm, "\n");
    let match;
    while ((match = LINE.exec(lines)) != null) {
      let value = (match[2] || "").trim();
      const quote = value[0];
      value = value.replace(/^(['"`])([\s\S]*)\1$/gm, "$2");
      if (quote === '"') value = value.replace(/\\n/g, "\n").replace(/\\r/g, "\r");
      parsed[match[1]] = value;
    }
    return parsed;
  }
  const dotenv = Object.freeze({
    config(options) {
      const where = options?.path ?? "/.env";
      return { parsed: {}, error: fsError("ENOENT", "open", where) };
    },
    configDotenv(options) {
      return dotenv.config(options);
    },
    parse: parseDotenv,
    populate(target, parsed) {
      for (const key of Object.keys(parsed)) if (!Object.hasOwn(target, key)) target[key] = parsed[key];
    },
  });

  // --- async_hooks --------------------------------------------------------
  // AsyncLocalStorage and AsyncResource as Node 20 gives them: a store set
  // by `run` (or `enterWith`) is what `getStore` answers in the code it
  // runs and in every continuation of it (an `await`, a `then`, a timer,
  // a tick), and nowhere else. The running code's stores are a frame, an
  // index into `frames` (one Map of stores per `run`); the host keeps the
  // running frame (`host.frame`), and the engine gives each promise job,
  // timer and tick the frame it was registered in (src/script/context.rs).
  const frames = [new Map()];
  const enter = (storage, store) => {
    const stores = new Map(frames[host.frame()]);
    stores.set(storage, store);
    frames.push(stores);
    return frames.length - 1;
  };
  const inFrame = (frame, fn, thisArg, args) => {
    const outer = host.frame();
    host.setFrame(frame);
    try {
      return Reflect.apply(fn, thisArg, args);
    } finally {
      host.setFrame(outer);
    }
  };
  const checkFunction = (fn, name) => {
    if (typeof fn !== "function") {
      const error = new TypeError(
        `The "${name}" argument must be of type function. Received ${fn === null ? "null" : typeof fn}`
      );
      error.code = "ERR_INVALID_ARG_TYPE";
      throw error;
    }
  };
  class AsyncLocalStorage {
    #enabled = false;
    static bind(fn) {
      return AsyncResource.bind(fn);
    }
    static snapshot() {
      const resource = new AsyncResource("AsyncLocalStorageSnapshot");
      return function runInAsyncScope(fn, ...args) {
        return resource.runInAsyncScope(fn, this, ...args);
      };
    }
    disable() {
      this.#enabled = false;
    }
    getStore() {
      if (!this.#enabled) return undefined;
      return frames[host.frame()].get(this);
    }
    enterWith(store) {
      this.#enabled = true;
      host.setFrame(enter(this, store));
    }
    run(store, callback, ...args) {
      this.#enabled = true;
      return inFrame(enter(this, store), callback, null, args);
    }
    exit(callback, ...args) {
      if (!this.#enabled) return Reflect.apply(callback, null, args);
      return inFrame(enter(this, undefined), callback, null, args);
    }
  }
  class AsyncResource {
    #request = host.request();
    #frame = host.frame();
    constructor(type) {
      if (typeof type !== "string") {
        const error = new TypeError(`The "type" argument must be of type string. Received ${typeof type}`);
        error.code = "ERR_INVALID_ARG_TYPE";
        throw error;
      }
    }
    static bind(fn, type, thisArg) {
      checkFunction(fn, "fn");
      return new AsyncResource(type || fn.name || "bound-anonymous-fn").bind(fn, thisArg);
    }
    runInAsyncScope(fn, thisArg, ...args) {
      return host.runAs(this.#request, () => Reflect.apply(fn, thisArg, args), this.#frame);
    }
    bind(fn, thisArg) {
      checkFunction(fn, "fn");
      const resource = this;
      const bound = thisArg === undefined
        ? function (...args) { return resource.runInAsyncScope(fn, this, ...args); }
        : (...args) => resource.runInAsyncScope(fn, thisArg, ...args);
      Object.defineProperties(bound, {
        length: { value: fn.length, configurable: true },
        asyncResource: { value: resource, configurable: true, enumerable: true, writable: true },
      });
      return bound;
    }
    emitDestroy() {
      return this;
    }
    asyncId() {
      return unsimulated("AsyncResource.asyncId");
    }
    triggerAsyncId() {
      return unsimulated("AsyncResource.triggerAsyncId");
    }
  }
  function unsimulated(name) {
    throw new Error(
      `async_hooks ${name}: async ids and hooks are not simulated (AsyncLocalStorage and AsyncResource are)`
    );
  }
  const asyncHooks = Object.freeze({
    AsyncLocalStorage,
    AsyncResource,
    executionAsyncId: () => unsimulated("executionAsyncId"),
    triggerAsyncId: () => unsimulated("triggerAsyncId"),
    executionAsyncResource: () => unsimulated("executionAsyncResource"),
    createHook: () => unsimulated("createHook"),
  });

  return {
    assert, strict, querystring, url: Object.freeze(url), uuid, path, os, fs, fsPromises, dotenv,
    asyncHooks,
  };
});
