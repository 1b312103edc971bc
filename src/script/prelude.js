// The part of SCRIPTING.md §3 written in JavaScript, run in every server's
// realm before the script. It stands on the host's natives (`__host`), which
// it hides: a script sees only the globals of §3. Its larger pieces are
// parts of their own (prelude/*.js: Node's globals, EventEmitter and
// process, the clients, the in-process libraries, …), which a realm runs
// only when its script first reaches for them (`lazyPart` below).
"use strict";
(function (host) {
  const define = (name, value) =>
    Object.defineProperty(globalThis, name, {
      value,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  // A value made the first time it is asked for.
  const lazy = (make) => {
    let value = null;
    return () => (value ??= make());
  };
  // A part of the prelude (prelude/*.js), compiled and run in this realm
  // the first time it is asked for, with what `takes()` gives it from here.
  const lazyPart = (name, takes) => lazy(() => host.part(name)(takes()));
  // Globals that become their part's value when first read, or what the
  // script assigns to them.
  const lazyGlobals = (part, names) => {
    for (const name of names) {
      Object.defineProperty(globalThis, name, {
        get() {
          const value = part()[name];
          define(name, value);
          return value;
        },
        set(value) {
          define(name, value);
        },
        configurable: true,
        enumerable: false,
      });
    }
  };

  // The prelude's stand-ins for V8's natives read as natives
  // (`Function.prototype.toString`, below).
  const standIns = new WeakSet();

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
  standIns.add(VirtualDate).add(VirtualDate.now);
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  define("Date", VirtualDate);

  // Node's en-US texts (ICU's) where a handler asks for no other locale
  // and passes no options: `n.toLocaleString()`, `big.toLocaleString()`,
  // `date.toLocaleString()` and its date and time halves; and the zone's
  // name after `date.toString()` in UTC. Other locales and options go to
  // `Intl` (prelude/intl.js: Node's with small-icu, en-US only).
  const method = (object, name, fn) => {
    standIns.add(fn);
    return Object.defineProperty(object, name, { value: fn, writable: true, configurable: true, enumerable: false });
  };
  // A function's source as V8 writes it: a native's on one line
  // (`function max() { [native code] }`; QuickJS puts the body on lines of
  // its own), a bound function's with no name, and the prelude's
  // stand-ins for natives as natives, not their JavaScript.
  const functionSource = Function.prototype.toString;
  const NATIVE_SOURCE = /^function (.*)\(\) \{\n\s*\[native code\]\n\}$/;
  method(Function.prototype, "toString", function toString() {
    if (standIns.has(this)) return `function ${this.name}() { [native code] }`;
    const text = Reflect.apply(functionSource, this, []);
    const native = NATIVE_SOURCE.exec(text);
    if (native === null) return text;
    return native[1].startsWith("bound ") ? "function () { [native code] }" : `function ${native[1]}() { [native code] }`;
  });
  const plainLocale = (locales, options) =>
    options === undefined && (locales === undefined || locales === "en-US" || locales === "en");
  // `Intl`, and the locale methods given other locales or options, are a
  // part of their own (prelude/intl.js), run when first reached for.
  const intlPart = lazyPart("intl", () => ({ shortestDigits, plusOne, standIns }));
  Object.defineProperty(globalThis, "Intl", {
    get() {
      const { Intl } = intlPart();
      Object.defineProperty(globalThis, "Intl", { value: Intl, writable: true, configurable: true, enumerable: false });
      return Intl;
    },
    set(value) {
      Object.defineProperty(globalThis, "Intl", { value, writable: true, configurable: true, enumerable: false });
    },
    configurable: true,
    enumerable: false,
  });
  method(String.prototype, "localeCompare", function localeCompare(that) {
    if (this === null || this === undefined) {
      throw new TypeError("String.prototype.localeCompare called on null or undefined");
    }
    const [, locales, options] = arguments;
    if (locales === undefined && options === undefined) return intlPart().compareText(String(this), String(that));
    return intlPart().compare(String(this), String(that), locales, options);
  });
  const grouped = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // A decimal digit string plus one (`"0999"` -> `"1000"`, `"99"` -> `"100"`).
  const plusOne = (digits) => {
    const out = digits.split("");
    let i = out.length - 1;
    while (i >= 0 && out[i] === "9") out[i--] = "0";
    if (i < 0) out.unshift("1");
    else out[i] = String(Number(out[i]) + 1);
    return out.join("");
  };
  // ICU rounds the shortest digits that read back as the number (1.0005
  // is "1.001"), to three decimals, half away from zero, and groups the
  // integer part by thousands; a negative number that rounds to zero
  // stays "-0".
  // The shortest decimal digits that read back as `abs` (finite, not
  // negative), with the decimal point's place in them: [digits, point],
  // 0 <= point <= digits.length.
  const shortestDigits = (abs) => {
    const [mantissa, exponent = "0"] = String(abs).split("e");
    const [whole, fraction = ""] = mantissa.split(".");
    let digits = whole + fraction;
    let point = whole.length + Number(exponent);
    if (point < 0) {
      digits = "0".repeat(-point) + digits;
      point = 0;
    }
    if (point > digits.length) digits += "0".repeat(point - digits.length);
    return [digits, point];
  };
  const enNumber = (x) => {
    if (Number.isNaN(x)) return "NaN";
    const sign = x < 0 || Object.is(x, -0) ? "-" : "";
    if (!Number.isFinite(x)) return `${sign}∞`;
    let [digits, point] = shortestDigits(Math.abs(x));
    let kept = digits.slice(0, point + 3);
    if (digits.length > point + 3 && digits[point + 3] >= "5") {
      const more = plusOne(kept);
      if (more.length > kept.length) point += 1;
      kept = more;
    }
    const integer = (kept.slice(0, point) || "0").replace(/^0+(?=\d)/, "");
    const decimals = kept.slice(point).replace(/0+$/, "");
    return `${sign}${grouped(integer)}${decimals ? `.${decimals}` : ""}`;
  };
  method(Number.prototype, "toLocaleString", function toLocaleString() {
    const value = Number.prototype.valueOf.call(this);
    if (!plainLocale(arguments[0], arguments[1])) return intlPart().formatNumber(value, arguments[0], arguments[1]);
    return enNumber(value);
  });
  method(BigInt.prototype, "toLocaleString", function toLocaleString() {
    const value = BigInt.prototype.valueOf.call(this);
    if (!plainLocale(arguments[0], arguments[1])) return intlPart().formatNumber(value, arguments[0], arguments[1]);
    return `${value < 0n ? "-" : ""}${grouped(String(value < 0n ? -value : value))}`;
  });
  const dateProto = RealDate.prototype;
  const dateTime = dateProto.getTime;
  const enDate = (date) =>
    `${date.getMonth() + 1}/${date.getDate()}/${date.getFullYear() > 0 ? date.getFullYear() : 1 - date.getFullYear()}`;
  const enTime = (date) => {
    const hours = date.getHours();
    const two = (n) => String(n).padStart(2, "0");
    return `${hours % 12 || 12}:${two(date.getMinutes())}:${two(date.getSeconds())} ${hours < 12 ? "AM" : "PM"}`;
  };
  // Each with what ECMA-402's ToDateTimeOptions requires and defaults.
  for (const [name, text, required, defaults] of [
    ["toLocaleString", (date) => `${enDate(date)}, ${enTime(date)}`, "any", "all"],
    ["toLocaleDateString", enDate, "date", "date"],
    ["toLocaleTimeString", enTime, "time", "time"],
  ]) {
    method(dateProto, name, { [name]() {
      const time = Reflect.apply(dateTime, this, []);
      if (Number.isNaN(time)) return "Invalid Date";
      if (!plainLocale(arguments[0], arguments[1])) {
        return intlPart().formatDate(time, arguments[0], arguments[1], required, defaults);
      }
      return text(this);
    } }[name]);
  }
  // V8's JSON.parse error message for `source` (V8 11.3's JsonParser:
  // its scan, its positions and its texts), or undefined when it parses.
  function v8JsonError(source) {
    const length = source.length;
    let at = 0;
    const WS = (c) => c === " " || c === "\t" || c === "\n" || c === "\r";
    const skip = () => {
      while (at < length && WS(source[at])) at += 1;
    };
    // The token a character starts (V8's one_char_json_tokens).
    const token = (i) => {
      if (i >= length) return "EOS";
      const c = source[i];
      if (c === '"') return "STRING";
      if ((c >= "0" && c <= "9") || c === "-") return "NUMBER";
      if (c === "t") return "TRUE";
      if (c === "f") return "FALSE";
      if (c === "n") return "NULL";
      if (WS(c)) return "WHITESPACE";
      if (c === ":") return "COLON";
      if (c === ",") return "COMMA";
      if (c === "[") return "LBRACK";
      if (c === "{") return "LBRACE";
      if (c === "]") return "RBRACK";
      if (c === "}") return "RBRACE";
      return "ILLEGAL";
    };
    class Failure {
      constructor(message) {
        this.message = message;
      }
    }
    const SPECIAL = ["[object Object]", "undefined", "Infinity", "NaN"];
    const CONTEXT = 10;
    const unexpected = (kind, message) => {
      if (message !== undefined) throw new Failure(`${message} at position ${at}`);
      if (kind === "EOS") throw new Failure("Unexpected end of JSON input");
      if (kind === "NUMBER") throw new Failure(`Unexpected number in JSON at position ${at}`);
      if (kind === "STRING") throw new Failure(`Unexpected string in JSON at position ${at}`);
      if (SPECIAL.includes(source)) throw new Failure(`"${source}" is not valid JSON`);
      const char = source[at];
      if (length < 2 * CONTEXT + 1) {
        throw new Failure(`Unexpected token '${char}', "${source}" is not valid JSON`);
      }
      if (at < CONTEXT) {
        throw new Failure(`Unexpected token '${char}', "${source.slice(0, at + CONTEXT)}"... is not valid JSON`);
      }
      if (at < length - CONTEXT) {
        throw new Failure(
          `Unexpected token '${char}', ..."${source.slice(at - CONTEXT, at + CONTEXT)}"... is not valid JSON`
        );
      }
      throw new Failure(`Unexpected token '${char}', ..."${source.slice(at - CONTEXT)}" is not valid JSON`);
    };
    const check = (kind) => {
      skip();
      if (token(at) !== kind) return false;
      at += 1;
      return true;
    };
    const expect = (kind, message) => {
      if (token(at) === kind) at += 1;
      else unexpected(token(at), message);
    };
    const expectNext = (kind, message) => {
      skip();
      expect(kind, message);
    };
    const digit = (i) => i < length && source[i] >= "0" && source[i] <= "9";
    const scanString = () => {
      // at: after the opening quote.
      for (;;) {
        if (at >= length) unexpected("ILLEGAL", "Unterminated string in JSON");
        const c = source[at];
        if (c === '"') {
          at += 1;
          return;
        }
        if (c === "\\") {
          at += 1;
          const e = at < length ? source[at] : "";
          if ('"\\/bfnrt'.includes(e) && e !== "") {
            at += 1;
            continue;
          }
          if (e === "u") {
            for (let i = 0; i < 4; i += 1) {
              at += 1;
              if (!(at < length && /[0-9a-fA-F]/.test(source[at]))) unexpected("ILLEGAL", "Bad Unicode escape in JSON");
            }
            at += 1;
            continue;
          }
          // A character past Latin-1 after the backslash is V8's plain
          // unexpected token.
          if (at < length && source.charCodeAt(at) > 0xff) unexpected("ILLEGAL");
          unexpected("ILLEGAL", "Bad escaped character in JSON");
        }
        if (c < " ") unexpected("ILLEGAL", "Bad control character in string literal in JSON");
        at += 1;
      }
    };
    const scanNumber = () => {
      if (source[at] === "-") at += 1;
      if (at < length && source[at] === "0") {
        at += 1;
        if (digit(at)) unexpected("NUMBER");
      } else {
        const start = at;
        while (digit(at)) at += 1;
        if (start === at) unexpected("ILLEGAL", "No number after minus sign in JSON");
      }
      if (at < length && source[at] === ".") {
        at += 1;
        if (!digit(at)) unexpected("ILLEGAL", "Unterminated fractional number in JSON");
        while (digit(at)) at += 1;
      }
      if (at < length && (source[at] === "e" || source[at] === "E")) {
        at += 1;
        if (at < length && (source[at] === "-" || source[at] === "+")) at += 1;
        if (!digit(at)) unexpected("ILLEGAL", "Exponent part is missing a number in JSON");
        while (digit(at)) at += 1;
      }
    };
    const scanLiteral = (word) => {
      at += 1;
      for (let i = 1; i < word.length; i += 1) {
        if (at >= length) unexpected("EOS");
        if (source[at] !== word[i]) unexpected(token(at));
        at += 1;
      }
    };
    const stack = [];
    // `{` or `[`: empty (a value), or a container whose first entry follows.
    const open = (close, container) => {
      at += 1;
      if (check(close)) return true;
      stack.push(container);
      return false;
    };
    // A property's key and its colon.
    const propertyKey = (message) => {
      expectNext("STRING", message);
      scanString();
      expectNext("COLON", "Expected ':' after property name in JSON");
    };
    try {
      for (;;) {
        // Produce a value.
        let produced = false;
        while (!produced) {
          skip();
          const kind = token(at);
          switch (kind) {
            case "STRING":
              at += 1;
              scanString();
              produced = true;
              break;
            case "NUMBER":
              scanNumber();
              produced = true;
              break;
            case "LBRACE":
              produced = open("RBRACE", "object");
              if (!produced) propertyKey("Expected property name or '}' in JSON");
              break;
            case "LBRACK":
              produced = open("RBRACK", "array");
              break;
            case "TRUE":
              scanLiteral("true");
              produced = true;
              break;
            case "FALSE":
              scanLiteral("false");
              produced = true;
              break;
            case "NULL":
              scanLiteral("null");
              produced = true;
              break;
            default:
              unexpected(kind);
          }
        }
        // Consume it.
        let more = false;
        while (!more) {
          if (stack.length === 0) {
            if (!check("EOS")) unexpected(token(at), "Unexpected non-whitespace character after JSON");
            return undefined;
          }
          const container = stack[stack.length - 1];
          if (container === "object") {
            if (check("COMMA")) {
              propertyKey("Expected double-quoted property name in JSON");
              more = true;
              break;
            }
            stack.pop();
            expect("RBRACE", "Expected ',' or '}' after property value in JSON");
          } else {
            if (check("COMMA")) {
              more = true;
              break;
            }
            stack.pop();
            expect("RBRACK", "Expected ',' or ']' after array element in JSON");
          }
        }
      }
    } catch (failure) {
      if (failure instanceof Failure) return failure.message;
      throw failure;
    }
  }
  // JSON.parse's errors say what V8's say (QuickJS-ng's texts and
  // positions differ for about half of malformed inputs); what parses is
  // QuickJS's parse.
  const nativeParse = JSON.parse;
  method(JSON, "parse", function parse(text, reviver) {
    const source = String(text);
    try {
      return Reflect.apply(nativeParse, JSON, [source, reviver]);
    } catch (error) {
      if (error instanceof SyntaxError) {
        const message = v8JsonError(source);
        if (message !== undefined) error.message = message;
      }
      throw error;
    }
  });
  // JSON.stringify's circular-structure error is V8's: QuickJS-ng says
  // "circular reference"; V8 names the path around the circle (from its
  // json-stringifier: the object where the circle starts, at most two
  // steps after it and one before the end, with "..." between, and the
  // key that closes it). The path is found by walking the value again in
  // stringify's order, toJSON and the replacer applied as it applies them.
  const nativeStringify = JSON.stringify;
  const constructorName = (object) => {
    const name = Object.getPrototypeOf(object)?.constructor?.name;
    return typeof name === "string" && name !== "" ? name : "Object";
  };
  function circularMessage(value, replacer) {
    const list = Array.isArray(replacer) ? [...new Set(replacer.map(String))] : null;
    const replace = typeof replacer === "function" ? replacer : null;
    const stack = [];
    let closing = null;
    const prepare = (holder, key, item) => {
      if (item !== null && (typeof item === "object" || typeof item === "bigint") && typeof item.toJSON === "function") {
        item = item.toJSON(key);
      }
      return replace === null ? item : Reflect.apply(replace, holder, [key, item]);
    };
    const boxed = (item) =>
      item instanceof Number || item instanceof String || item instanceof Boolean || item instanceof BigInt;
    const walk = (key, item) => {
      if (item === null || typeof item !== "object" || boxed(item)) return false;
      const at = stack.findIndex((entry) => entry[1] === item);
      if (at >= 0) {
        closing = { at, key };
        return true;
      }
      stack.push([key, item]);
      if (Array.isArray(item)) {
        for (let i = 0; i < item.length; i += 1) {
          if (walk(i, prepare(item, String(i), item[i]))) return true;
        }
      } else {
        for (const name of list ?? Object.keys(item)) {
          const next = prepare(item, name, item[name]);
          if (next === undefined || typeof next === "function" || typeof next === "symbol") continue;
          if (walk(name, next)) return true;
        }
      }
      stack.pop();
      return false;
    };
    if (!walk("", prepare({ "": value }, "", value))) return undefined;
    const describe = (key) => (typeof key === "number" ? `index ${key}` : `property '${key}'`);
    const line = ([key, object]) => `\n    |     ${describe(key)} -> object with constructor '${constructorName(object)}'`;
    let text = `Converting circular structure to JSON\n    --> starting at object with constructor '${constructorName(stack[closing.at][1])}'`;
    let index = closing.at + 1;
    const prefixEnd = Math.min(stack.length, index + 2);
    for (; index < prefixEnd; index += 1) text += line(stack[index]);
    if (stack.length > index + 1) text += "\n    |     ...";
    for (index = Math.max(index, stack.length - 1); index < stack.length; index += 1) text += line(stack[index]);
    return `${text}\n    --- ${describe(closing.key)} closes the circle`;
  }
  method(JSON, "stringify", function stringify(value, replacer, space) {
    try {
      return Reflect.apply(nativeStringify, JSON, arguments);
    } catch (error) {
      if (error instanceof TypeError && error.message === "circular reference") {
        try {
          const message = circularMessage(value, replacer);
          if (message !== undefined) error.message = message;
        } catch {
          // The engine's own text stays.
        }
      }
      throw error;
    }
  });
  // The errors the engine throws say what V8's say (prelude/errors.js).
  // The engine calls `Error.prepareStackTrace`'s hook as it makes each
  // error, with its call sites: the hook words an engine text as V8
  // would, then hands the engine the call sites, which `stack` writes out
  // when first read (below), or returns what a script's own
  // `Error.prepareStackTrace` makes of them, as V8 would. Node's `Error`
  // has a default `prepareStackTrace` of its own, which a script sees
  // here too.
  const errorsPart = lazyPart("errors", () => ({ host }));
  const ENGINE_TEXT =
    /^(?:cannot (?:read|set) property '|not a (?:function|constructor)$|value is not iterable$|.* is not initialized$|'.*' is read-only$|class constructors must|cannot convert (?:BigInt|symbol)|BigInt are forbidden|invalid (?:array length$|number of digits$|value used as)|empty array$|Date value is NaN$|expecting (?:%|hex digit|surrogate pair)$|malformed UTF-8$|invalid character$)/s;
  const frameText = (site) => {
    if (site.isNative()) return `    at ${site.getFunctionName() ?? "<anonymous>"} (native)\n`;
    const line = site.getLineNumber();
    const where = line === null ? "" : `:${line}:${site.getColumnNumber()}`;
    const file = site.getFileName() ?? "<null>";
    if (site.getFunction() === null) return `    at ${file}${where}\n`;
    return `    at ${site.getFunctionName() ?? "<anonymous>"} (${file}${where})\n`;
  };
  // V8's first line of a stack: the error as `Error.prototype.toString`
  // reads it when `stack` is first read.
  const stackHead = (error) => {
    let name;
    let message;
    try {
      name = error?.name === undefined ? "Error" : String(error.name);
      message = error?.message === undefined ? "" : String(error.message);
    } catch {
      return "Error";
    }
    if (name === "") return message;
    return message === "" ? name : `${name}: ${message}`;
  };
  const ErrorPrepareStackTrace = {
    ErrorPrepareStackTrace(error, trace) {
      return Array.prototype.map.call(trace, frameText).join("");
    },
  }.ErrorPrepareStackTrace;
  // V8 writes a stack's text when it is first read, so its first line
  // names the error as it is then (a subclass's constructor sets `name`
  // after `super`). The engine keeps the frames it took (the hook hands
  // it the call sites themselves: most errors are caught and never
  // read, and writing each one's text cost more than making it);
  // `stack` writes them under that line when first read, once, for the
  // errors whose stack is the default one.
  const framesOnly = new WeakSet();
  const written = new WeakMap();
  const withHead = (error, sites) => {
    let text = written.get(error);
    if (text === undefined) {
      text = `${stackHead(error)}\n${ErrorPrepareStackTrace(error, sites)}`.trimEnd();
      written.set(error, text);
    }
    return text;
  };
  const stackAccessor = Object.getOwnPropertyDescriptor(Error.prototype, "stack");
  Object.defineProperty(Error.prototype, "stack", {
    get: {
      stack() {
        const sites = Reflect.apply(stackAccessor.get, this, []);
        return Array.isArray(sites) && framesOnly.has(this) ? withHead(this, sites) : sites;
      },
    }.stack,
    set: {
      stack(value) {
        framesOnly.delete(this);
        return Reflect.apply(stackAccessor.set, this, [value]);
      },
    }.stack,
    configurable: true,
    enumerable: false,
  });
  // `Error.captureStackTrace(target)` gives the target a `stack` of its
  // own, read the same way.
  const captureStackTrace = Error.captureStackTrace;
  method(Error, "captureStackTrace", function captureStackTrace_(target, constructorOpt) {
    Reflect.apply(captureStackTrace, Error, arguments);
    const own = Object.getOwnPropertyDescriptor(target, "stack");
    if (!Array.isArray(own?.value) || !framesOnly.has(target)) return;
    const sites = own.value;
    Object.defineProperty(target, "stack", {
      get: () => withHead(target, sites),
      set: (value) => Object.defineProperty(target, "stack", { value, writable: true, configurable: true, enumerable: false }),
      configurable: true,
      enumerable: false,
    });
  });
  Object.defineProperty(Error.captureStackTrace, "name", { value: "captureStackTrace" });
  const setPrepare = Object.getOwnPropertyDescriptor(Error, "prepareStackTrace").set;
  Reflect.apply(setPrepare, Error, [
    function prepare(error, sites) {
      // `Promise.any`'s AggregateError has no frames in V8.
      if (error instanceof AggregateError && scriptAggregates === 0) sites = [];
      if (error instanceof Error && ENGINE_TEXT.test(error.message)) {
        try {
          const message = errorsPart().v8Message(error, sites);
          if (message !== undefined) error.message = message;
        } catch {
          // The engine's own text stays.
        }
      }
      const own = Error.prepareStackTrace;
      if (typeof own === "function" && own !== ErrorPrepareStackTrace) return own(error, sites);
      framesOnly.add(error);
      return sites;
    },
  ]);
  Object.defineProperty(Error, "prepareStackTrace", {
    value: ErrorPrepareStackTrace,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  // The AggregateError `Promise.any` rejects with says "All promises were
  // rejected", as V8's does (QuickJS-ng's has no message): the message a
  // prototype getter gives an AggregateError the script did not make
  // (one made while no `new AggregateError` of the script runs; `prepare`
  // gives it no frames).
  let scriptAggregates = 0;
  {
    const RealAggregateError = AggregateError;
    const made = new WeakSet();
    const AggregateErrorOfScript = function AggregateError(errors, message, options) {
      scriptAggregates += 1;
      try {
        const error = Reflect.construct(RealAggregateError, arguments, new.target ?? AggregateErrorOfScript);
        made.add(error);
        return error;
      } finally {
        scriptAggregates -= 1;
      }
    };
    Object.defineProperty(AggregateErrorOfScript, "length", { value: 2 });
    Object.setPrototypeOf(AggregateErrorOfScript, Error);
    AggregateErrorOfScript.prototype = RealAggregateError.prototype;
    Object.defineProperty(RealAggregateError.prototype, "constructor", {
      value: AggregateErrorOfScript, writable: true, configurable: true, enumerable: false,
    });
    Object.defineProperty(RealAggregateError.prototype, "message", {
      get() {
        return this === RealAggregateError.prototype || made.has(this) ? "" : "All promises were rejected";
      },
      set(value) {
        Object.defineProperty(this, "message", { value, writable: true, configurable: true, enumerable: false });
      },
      configurable: true,
      enumerable: false,
    });
    standIns.add(AggregateErrorOfScript);
    define("AggregateError", AggregateErrorOfScript);
  }
  for (const name of ["toString", "toTimeString"]) {
    const own = dateProto[name];
    method(dateProto, name, { [name]() {
      const text = Reflect.apply(own, this, []);
      return text.endsWith("GMT+0000") ? `${text} (Coordinated Universal Time)` : text;
    } }[name]);
  }

  // console: each call one line, as Node's util.format writes it
  // (prelude/inspect.js, a part of its own: a lone string needs none),
  // logged at the script's line that called it (`host.log`).
  const inspectPart = lazyPart("inspect", () => ({ host }));
  const formatLine = (args) => {
    if (args.length === 0) return "";
    if (args.length === 1 && typeof args[0] === "string") return args[0];
    return inspectPart().format(...args);
  };
  // Node's console: its groups indent, its timers read the simulated
  // clock, its counters and timers are the server's.
  const consoleNow = globalThis.performance.now.bind(globalThis.performance);
  let consoleIndent = "";
  const consoleWrite = (text) => {
    if (consoleIndent !== "") text = consoleIndent + text.replaceAll("\n", `\n${consoleIndent}`);
    host.log(text);
  };
  const consoleCounts = new Map();
  const consoleTimers = new Map();
  // A duration as Node's console.timeEnd writes it.
  const consoleDuration = (ms) => {
    if (ms >= 60000) {
      const minutes = Math.floor(ms / 60000);
      const [seconds, millis] = ((ms % 60000) / 1000).toFixed(3).split(".");
      if (minutes >= 60) {
        const hours = Math.floor(minutes / 60);
        return `${hours}:${String(minutes % 60).padStart(2, "0")}:${seconds.padStart(2, "0")}.${millis} (h:mm:ss.mmm)`;
      }
      return `${minutes}:${seconds.padStart(2, "0")}.${millis} (m:ss.mmm)`;
    }
    if (ms >= 1000) return `${(ms / 1000).toFixed(3)}s`;
    return `${Number(ms.toFixed(3))}ms`;
  };
  const consoleElapsed = (label, method) => {
    const started = consoleTimers.get(label);
    if (started === undefined) {
      consoleWrite(`Warning: No such label '${label}' for console.${method}()`);
      return null;
    }
    return `${label}: ${consoleDuration(consoleNow() - started)}`;
  };
  const consoleMethods = {
    log(...args) {
      consoleWrite(formatLine(args));
    },
    dir(value, options) {
      consoleWrite(inspectPart().inspect(value, { customInspect: false, ...options }));
    },
    assert(value, ...args) {
      if (value) return;
      if (typeof args[0] === "string") args[0] = `Assertion failed: ${args[0]}`;
      else args.unshift("Assertion failed");
      consoleWrite(formatLine(args));
    },
    count(label = "default") {
      label = `${label}`;
      const count = (consoleCounts.get(label) ?? 0) + 1;
      consoleCounts.set(label, count);
      consoleWrite(`${label}: ${count}`);
    },
    countReset(label = "default") {
      consoleCounts.delete(`${label}`);
    },
    time(label = "default") {
      label = `${label}`;
      if (consoleTimers.has(label)) {
        consoleWrite(`Warning: Label '${label}' already exists for console.time()`);
        return;
      }
      consoleTimers.set(label, consoleNow());
    },
    timeEnd(label = "default") {
      label = `${label}`;
      const text = consoleElapsed(label, "timeEnd");
      if (text === null) return;
      consoleTimers.delete(label);
      consoleWrite(text);
    },
    timeLog(label = "default", ...data) {
      label = `${label}`;
      const text = consoleElapsed(label, "timeLog");
      if (text !== null) consoleWrite(data.length ? `${text} ${formatLine(data)}` : text);
    },
    group(...label) {
      if (label.length > 0) consoleWrite(formatLine(label));
      consoleIndent += "  ";
    },
    groupEnd() {
      consoleIndent = consoleIndent.slice(0, -2);
    },
    trace(...args) {
      const frames = (new Error().stack ?? "").split("\n").filter((line) => line.includes("(code:"));
      consoleWrite([`Trace${args.length ? `: ${formatLine(args)}` : ""}`, ...frames].join("\n"));
    },
  };
  consoleMethods.groupCollapsed = consoleMethods.group;
  consoleMethods.table = function table(data, properties) {
    const text = inspectPart().table(data, properties);
    consoleWrite(text === undefined ? formatLine([data]) : text);
  };
  for (const name of ["info", "warn", "error", "debug", "dirxml"]) {
    consoleMethods[name] = { [name]: (...args) => consoleWrite(formatLine(args)) }[name];
  }
  define("console", consoleMethods);

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

  // Node's User Timing (`performance.mark`, `measure`, …) is a part of its
  // own (prelude/performance.js), run when the script first reads
  // `performance`; the prelude's own clock reads are the native `now`.
  const performancePart = lazyPart("performance", () => ({ performance, nodeTypeError }));
  lazyGlobals(performancePart, ["performance"]);

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

  // WeakRef and FinalizationRegistry as V8 has them in a run without a
  // garbage collection are a part of their own (prelude/weak.js).
  lazyGlobals(lazyPart("weak", () => ({ standIns })), ["WeakRef", "FinalizationRegistry"]);

  define("queueMicrotask", function queueMicrotask(fn) {
    if (typeof fn !== "function") throw new TypeError("queueMicrotask takes a function");
    Promise.resolve().then(() => fn());
  });

  // Node's errors with a code (lib/internal/errors.js), and the
  // AbortSignal's error and check that events and timers/promises share.
  const nodeTypeError = (code, message) => {
    const error = new TypeError(message);
    error.code = code;
    return error;
  };
  const abortedBy = (signal) => {
    const error = new Error("The operation was aborted", { cause: signal?.reason });
    error.code = "ABORT_ERR";
    error.name = "AbortError";
    return error;
  };
  const mustBeSignal = (signal) => {
    if (signal !== undefined && (signal === null || typeof signal !== "object" || !("aborted" in signal))) {
      throw nodeTypeError(
        "ERR_INVALID_ARG_TYPE",
        `The "options.signal" property must be an instance of AbortSignal.${inspectPart().received(signal)}`
      );
    }
  };

  // Node's EventEmitter, the rest of the events module, and `process` (an
  // EventEmitter) are a part of their own (prelude/events.js).
  const eventsPart = lazyPart("events", () => ({
    host, console, performance, nodeTypeError, abortedBy, mustBeSignal, inspectPart, nodePart,
  }));
  lazyGlobals(eventsPart, ["EventEmitter", "process"]);

  // ---------------------------------------------------------------------
  // Built-in modules (SCRIPTING.md §7): `require(name)`, and `import` of the
  // same objects (run.rs gives each an ES module that re-exports them).

  // The in-process libraries are a part of their own
  // (prelude/libraries.js), compiled and run in this realm the first time
  // the script asks for one.
  const librariesPart = lazyPart("libraries", () => ({
    host, setTimeout, clearTimeout, performance, nodePart,
  }));

  // crypto: UUIDs and integers from the run's seeded `Math.random`.
  const hex = (n) => Math.floor(Math.random() * 16 ** n).toString(16).padStart(n, "0");
  const crypto = Object.freeze({
    randomUUID: () =>
      `${hex(8)}-${hex(4)}-4${hex(3)}-${((8 + Math.floor(Math.random() * 4)).toString(16))}${hex(3)}-${hex(6)}${hex(6)}`,
    randomInt(min, max) {
      if (max === undefined) [min, max] = [0, min];
      return min + Math.floor(Math.random() * (max - min));
    },
    // The rest is in the Node part (prelude/node.js).
    createHash: (...args) => nodePart().crypto.createHash(...args),
    createHmac: (...args) => nodePart().crypto.createHmac(...args),
    randomBytes: (...args) => nodePart().crypto.randomBytes(...args),
    timingSafeEqual: (...args) => nodePart().crypto.timingSafeEqual(...args),
    hash: (...args) => nodePart().crypto.hash(...args),
    randomFillSync: (...args) => nodePart().crypto.randomFillSync(...args),
    randomFill: (...args) => nodePart().crypto.randomFill(...args),
    // The Web Crypto object's, as on Node (below).
    getRandomValues: (array) => globalThis.crypto.getRandomValues(array),
  });

  // `globalThis.crypto`: Node 20's Web Crypto object (not the module):
  // `randomUUID` and `getRandomValues`, from the run's seeded
  // `Math.random`, with Node's errors. `subtle` is not simulated.
  const INTEGER_ARRAYS = [
    Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
    BigInt64Array, BigUint64Array,
  ];
  const Crypto = class Crypto {
    randomUUID() {
      return crypto.randomUUID();
    }
    getRandomValues(array) {
      if (arguments.length === 0) {
        const error = new TypeError(
          "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present."
        );
        error.code = "ERR_MISSING_ARGS";
        throw error;
      }
      if (!INTEGER_ARRAYS.some((Type) => array instanceof Type)) {
        throw new DOMException("The data argument must be an integer-type TypedArray", "TypeMismatchError");
      }
      if (array.byteLength > 65536) {
        throw new DOMException("The requested length exceeds 65,536 bytes", "QuotaExceededError");
      }
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
      return array;
    }
  };
  Object.defineProperty(Crypto.prototype, Symbol.toStringTag, { value: "Crypto", configurable: true });
  define("crypto", new Crypto());
  // Node's other name for the global object.
  define("global", globalThis);

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
  // timers/promises is a part of its own (prelude/timers.js).
  // `util.promisify(setTimeout)` is its `setTimeout`, through a getter
  // that loads it, as lib/timers.js's is.
  const timersPart = lazyPart("timers", () => ({
    setTimeout, clearTimeout, setImmediate, clearImmediate, setInterval, clearInterval,
    nodeTypeError, abortedBy, mustBeSignal, inspectPart,
  }));
  for (const [fn, name] of [[timers.setTimeout, "setTimeout"], [timers.setImmediate, "setImmediate"]]) {
    Object.defineProperty(fn, promisifyCustom, { get: () => timersPart().promises[name], enumerable: true });
  }
  for (const [name, fn] of Object.entries(timers)) define(name, fn);

  // Node's globals for bytes, copies, cancelling and URLs, and `util`, are
  // a part of their own (prelude/node.js), compiled and run in this realm
  // the first time the script reaches for one: most scripts never do, and
  // a realm then neither reads nor runs its code.
  const nodePart = lazyPart("node", () => ({
    host, setTimeout, setImmediate, eventsPart, promisifyCustom, inspectPart,
  }));
  lazyGlobals(nodePart, [
    "TextEncoder", "TextDecoder", "Buffer", "structuredClone", "AbortController", "AbortSignal",
    "URL", "URLSearchParams", "btoa", "atob",
  ]);

  // The clients of the simulated cache and database are a part of their
  // own (prelude/clients.js), compiled and run in this realm the first time
  // the script asks for one.
  const clientsPart = lazyPart("clients", () => ({
    cache, host, nodePart, console, eventsPart, lazy, hex, setTimeout, clearTimeout,
  }));

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
  // has `user` in it is the user, any other the request's key. A route
  // chosen by a concrete path (`route=POST /tickets/7/3`) takes that path
  // and its values instead.
  function fillPath(path, plain, concrete) {
    if (concrete !== undefined) {
      const found = matchPath(path, concrete, true);
      return { url: concrete, params: found === undefined ? {} : found.params };
    }
    const params = {};
    const url = String(path).replace(/:([A-Za-z0-9_]+)\??/g, (_, name) => {
      const value = String(/user/i.test(name) ? plain.user : plain.key);
      params[name] = value;
      return value;
    });
    return { url: url === "*" || url === "" ? "/" : url, params };
  }

  function incoming(plain, route) {
    const { url, params } = fillPath(route.path, plain, route.url);
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
    // Express's own: `http.createServer(app).listen(...)`, so the
    // callback runs on "listening", a tick later, and the server is
    // http's (the app's routes are registered already).
    app.listen = (...args) => modules.http.createServer().listen(...args);
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

  const REDIRECTS = {
    300: "Multiple Choices",
    301: "Moved Permanently",
    302: "Found",
    303: "See Other",
    307: "Temporary Redirect",
    308: "Permanent Redirect",
  };
  function expressResponse(reply) {
    let written;
    // The response's headers, by lower-case name, as Express keeps them
    // (a value, or an array of them); nothing but the handler reads them.
    const headers = Object.create(null);
    const setOne = (name, value) => {
      headers[String(name).toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
    };
    const append = (name, value) => {
      const key = String(name).toLowerCase();
      const before = headers[key];
      const added = Array.isArray(value) ? value.map(String) : [String(value)];
      headers[key] = before === undefined ? (added.length === 1 ? added[0] : added) : [].concat(before, added);
      return res;
    };
    const set = (name, value) => {
      if (name !== null && typeof name === "object") {
        for (const [key, each] of Object.entries(name)) setOne(key, each);
      } else {
        setOne(name, value);
      }
      return res;
    };
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
      set,
      header: set,
      setHeader(name, value) {
        setOne(name, value);
        return res;
      },
      append,
      get: (name) => headers[String(name).toLowerCase()],
      getHeader: (name) => headers[String(name).toLowerCase()],
      getHeaders: () => Object.assign(Object.create(null), headers),
      getHeaderNames: () => Object.keys(headers),
      hasHeader: (name) => String(name).toLowerCase() in headers,
      removeHeader(name) {
        delete headers[String(name).toLowerCase()];
      },
      type(value) {
        const type = String(value);
        return set("Content-Type", type.includes("/") ? type : `application/${type.replace(/^\./, "")}`);
      },
      contentType(value) {
        return res.type(value);
      },
      location(url) {
        return set("Location", url === "back" ? (res.req?.get("referrer") ?? "/") : url);
      },
      // `redirect(url)` or `redirect(status, url)`: 302 unless told.
      redirect(status, url) {
        if (url === undefined) [status, url] = [302, status];
        res.location(url);
        res.statusCode = Number(status);
        const said = REDIRECTS[res.statusCode] ?? String(res.statusCode);
        reply.finish(res.statusCode, `${said}. Redirecting to ${url}`);
        return res;
      },
      cookie(name, value, options = {}) {
        const text = typeof value === "object" ? `j:${JSON.stringify(value)}` : String(value);
        // The `cookie` module's order of attributes.
        const parts = [`${name}=${encodeURIComponent(text)}`];
        if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge / 1000)}`);
        parts.push(`Path=${options.path ?? "/"}`);
        if (options.maxAge !== undefined) {
          parts.push(`Expires=${new Date(Date.now() + options.maxAge).toUTCString()}`);
        }
        if (options.httpOnly) parts.push("HttpOnly");
        if (options.sameSite) {
          const same = options.sameSite === true ? "strict" : String(options.sameSite).toLowerCase();
          parts.push(`SameSite=${same[0].toUpperCase()}${same.slice(1)}`);
        }
        if (options.secure) parts.push("Secure");
        return append("Set-Cookie", parts.join("; "));
      },
      clearCookie(name, options = {}) {
        const expired = "Expires=Thu, 01 Jan 1970 00:00:00 GMT";
        return append("Set-Cookie", `${name}=; Path=${options.path ?? "/"}; ${expired}`);
      },
      vary(field) {
        return append("Vary", field);
      },
      attachment(filename) {
        const disposition = filename === undefined ? "attachment" : `attachment; filename="${filename}"`;
        return set("Content-Disposition", disposition);
      },
      links(links) {
        const text = Object.entries(links).map(([rel, url]) => `<${url}>; rel="${rel}"`);
        return append("Link", text.join(", "));
      },
      // No Accept header comes with a simulated request: the first type's
      // handler answers, as Express's content negotiation picks it.
      format(handlers) {
        const first = Object.keys(handlers).find((key) => key !== "default") ?? "default";
        handlers[first](res.req, res);
        return res;
      },
      json(body) {
        reply.finish(res.statusCode, body);
        return res;
      },
      jsonp(body) {
        return res.json(body);
      },
      send(body) {
        reply.finish(res.statusCode, body);
        return res;
      },
      // Node's own ServerResponse calls (a plain `http` listener's):
      // `writeHead` sets the status, `write` adds to the body `end` sends.
      writeHead(code) {
        res.statusCode = Number(code);
        return res;
      },
      write(chunk) {
        written = written === undefined ? chunk : `${written}${chunk}`;
        return true;
      },
      end(body) {
        if (written !== undefined) body = body === undefined ? written : `${written}${body}`;
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
    // Express's own request members: a plain http request from one client.
    request.secure = false;
    request.xhr = false;
    request.ips = [];
    request.subdomains = [];
    request.fresh = false;
    request.stale = true;
    request.is = (...types) =>
      types.flat().find((type) => type === "json" || type === "application/json" || type === "application/*") ??
      false;
    request.accepts = (...types) => types.flat()[0] ?? "*/*";
    request.param = (name, fallback) =>
      request.params?.[name] ?? request.body?.[name] ?? request.query?.[name] ?? fallback;
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
  // undefined if no app registered one. A concrete path ("POST
  // /orders/7/pay") chooses the route whose pattern matches it, as the
  // app's router would, and every request goes to that path. A choice
  // that matches none answers why, as a string (the load error).
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
        let on = routes.filter((route) => route.path === path);
        if (on.length === 0) {
          on = routes
            .filter((route) => matchPath(route.path, path, true) !== undefined)
            .map((route) => Object.assign({}, route, { url: path }));
        }
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

  // `http` and `https`: `createServer` around the request listener (an
  // Express app, registered already; a plain `(req, res)` listener
  // becomes an app of one route for every method and path), listening at
  // once and saying so a tick later, as Node's does. Outbound requests
  // leave the simulated world: an error that says so.
  const STATUS_CODES = Object.freeze({
    100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
    204: "No Content", 301: "Moved Permanently", 302: "Found", 304: "Not Modified",
    307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
    403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout",
    409: "Conflict", 410: "Gone", 413: "Payload Too Large", 415: "Unsupported Media Type",
    418: "I'm a Teapot", 422: "Unprocessable Entity", 423: "Locked", 425: "Too Early",
    429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
    502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
  });
  const HTTP_METHODS = Object.freeze([
    "ACL", "BIND", "CHECKOUT", "CONNECT", "COPY", "DELETE", "GET", "HEAD", "LINK", "LOCK",
    "M-SEARCH", "MERGE", "MKACTIVITY", "MKCALENDAR", "MKCOL", "MOVE", "NOTIFY", "OPTIONS", "PATCH",
    "POST", "PROPFIND", "PROPPATCH", "PURGE", "PUT", "QUERY", "REBIND", "REPORT", "SEARCH", "SOURCE",
    "SUBSCRIBE", "TRACE", "UNBIND", "UNLINK", "UNLOCK", "UNSUBSCRIBE",
  ]);
  function httpModule(protocol) {
    const { EventEmitter, process } = eventsPart();
    class Server extends EventEmitter {
      constructor(...args) {
        super();
        const listener = args.find((arg) => typeof arg === "function");
        if (listener !== undefined) express().all("*", listener);
        this.listening = false;
        this.keepAliveTimeout = 5000;
        this.headersTimeout = 60000;
        this.requestTimeout = 300000;
        this.timeout = 0;
        this._port = null;
      }
      listen(...args) {
        const callback = args.find((arg) => typeof arg === "function");
        const first = args[0];
        this._port = first !== null && typeof first === "object" ? Number(first.port ?? 0) : Number(first ?? 0);
        this.listening = true;
        if (callback) this.once("listening", callback);
        process.nextTick(() => this.emit("listening"));
        return this;
      }
      close(callback) {
        this.listening = false;
        process.nextTick(() => {
          if (callback) callback();
          this.emit("close");
        });
        return this;
      }
      address() {
        return this.listening ? { address: "::", family: "IPv6", port: this._port } : null;
      }
      setTimeout() {
        return this;
      }
    }
    const outbound = (name) => ({
      [name]() {
        throw new Error(`${protocol}.${name}: outbound HTTP is not simulated (the world here is the cache and the DB)`);
      },
    })[name];
    return Object.freeze({
      createServer: (...args) => new Server(...args),
      Server,
      request: outbound("request"),
      get: outbound("get"),
      STATUS_CODES,
      METHODS: HTTP_METHODS,
    });
  }

  const modules = {
    crypto,
    express,
    fastify,
    // In lib/timers.js's order.
    timers: Object.freeze(
      Object.defineProperty(
        Object.fromEntries(
          ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate", "setInterval", "clearInterval"]
            .map((name) => [name, timers[name]])
        ),
        "promises",
        { get: () => timersPart().promises, enumerable: true }
      )
    ),
  };
  // One object for each module, made when first required, as Node's is.
  const httpModules = lazy(() => ({ http: httpModule("http"), https: httpModule("https") }));
  const bufferModule = lazy(() => ({ buffer: Object.freeze({ Buffer: nodePart().Buffer }) }));
  // Node's modules that are no global (assert, querystring, url, path, os,
  // async_hooks) and uuid
  // are a part of their own (prelude/modules.js).
  const modulesPart = lazyPart("modules", () => ({ host, nodePart, crypto, inspectPart }));
  // The modules of the prelude's parts: each part runs on the first
  // `require` or `import` of one of its modules.
  for (const [name, part, key] of [
    ["events", eventsPart, "EventEmitter"],
    ["process", eventsPart, "process"],
    ["http", httpModules, "http"],
    ["https", httpModules, "https"],
    ["buffer", bufferModule, "buffer"],
    ["timers/promises", timersPart, "promises"],
    ["perf_hooks", performancePart, "perfHooks"],
    ["assert", modulesPart, "assert"],
    ["assert/strict", modulesPart, "strict"],
    ["querystring", modulesPart, "querystring"],
    ["url", modulesPart, "url"],
    ["path", modulesPart, "path"],
    ["os", modulesPart, "os"],
    ["fs", modulesPart, "fs"],
    ["fs/promises", modulesPart, "fsPromises"],
    ["dotenv", modulesPart, "dotenv"],
    ["async_hooks", modulesPart, "asyncHooks"],
    ["uuid", modulesPart, "uuid"],
    ["pg", clientsPart, "pg"],
    ["postgres", clientsPart, "postgres"],
    ["memjs", clientsPart, "memjs"],
    ["memcached", clientsPart, "Memcached"],
    ["redlock", clientsPart, "Redlock"],
    ["ioredis", clientsPart, "Redis"],
    ["redis", clientsPart, "nodeRedis"],
    ["async-mutex", librariesPart, "asyncMutex"],
    ["async-lock", librariesPart, "AsyncLock"],
    ["p-limit", librariesPart, "pLimit"],
    ["lru-cache", librariesPart, "lruCache"],
    ["util", nodePart, "util"],
  ]) {
    Object.defineProperty(modules, name, { get: () => part()[key], enumerable: true });
  }
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
// Node 20's language, not a newer one: what QuickJS-ng has and Node 20
// (V8 11.3) lacks goes, so a handler that reaches for it fails here as it
// fails there (`Object.groupBy is not a function`), instead of running
// code that crashes in production.
{
  // (Some are absent already: the browser's engine has no `Atomics`.)
  const remove = (object, names) => {
    if (object === undefined) return;
    for (const name of names) Reflect.deleteProperty(object, name);
  };
  remove(globalThis, [
    "Iterator", "DisposableStack", "AsyncDisposableStack", "SuppressedError", "Float16Array",
  ]);
  remove(Object, ["groupBy"]);
  remove(Map, ["groupBy"]);
  remove(Array, ["fromAsync"]);
  remove(Promise, ["try", "withResolvers"]);
  remove(Error, ["isError"]);
  remove(RegExp, ["escape"]);
  remove(JSON, ["rawJSON", "isRawJSON"]);
  remove(Math, ["f16round", "sumPrecise"]);
  remove(globalThis.Atomics, ["pause"]);
  remove(Set.prototype, [
    "union", "intersection", "difference", "symmetricDifference",
    "isSubsetOf", "isSupersetOf", "isDisjointFrom",
  ]);
  remove(Uint8Array, ["fromBase64", "fromHex"]);
  remove(Uint8Array.prototype, ["toBase64", "toHex", "setFromBase64", "setFromHex"]);
  remove(DataView.prototype, ["getFloat16", "setFloat16"]);
  remove(ArrayBuffer.prototype, [
    "detached", "immutable", "sliceToImmutable", "transfer", "transferToFixedLength",
    "transferToImmutable",
  ]);
  // The iterator helpers (`[].values().map(…)`): Node 20's
  // %IteratorPrototype% has only its [Symbol.iterator].
  const iterators = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
  remove(iterators, Reflect.ownKeys(iterators).filter((key) => key !== Symbol.iterator));
}
