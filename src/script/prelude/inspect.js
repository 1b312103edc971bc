// Node's `util.inspect` and `util.format`, as Node 20 writes values (what
// `console.log` prints): a part of the prelude (prelude.js) that a realm
// compiles and runs the first time its script logs more than one string
// or asks for `util` (prelude.js, `inspectPart`). Its value is a function
// of what it takes from the prelude. The rules, names and limits are
// Node's (lib/internal/util/inspect.js): depth 2, lines of at most 80
// characters, three inner levels on one line, arrays of more than six
// entries in columns, 100 entries and 10,000 characters at most.
"use strict";
(function ({ host }) {
  const custom = Symbol.for("nodejs.util.inspect.custom");
  const defaults = {
    showHidden: false,
    depth: 2,
    colors: false,
    customInspect: true,
    showProxy: false,
    maxArrayLength: 100,
    maxStringLength: 10000,
    breakLength: 80,
    compact: 3,
    sorted: false,
    getters: false,
    numericSeparator: false,
  };
  // What a property is: an object's, an array's element, or an array's
  // other key.
  const OBJECT = 0;
  const ELEMENT = 1;
  const ARRAY = 2;
  const AsyncFunction = (async () => {}).constructor;
  const GeneratorFunction = function* () {}.constructor;
  const AsyncGeneratorFunction = async function* () {}.constructor;
  const TypedArray = Object.getPrototypeOf(Uint8Array);
  const hasOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  const isEnumerable = (object, key) => Object.prototype.propertyIsEnumerable.call(object, key);

  function inspect(value, options, ...legacy) {
    const ctx = { ...defaults, budget: {}, indentationLvl: 0, seen: [], currentDepth: 0, circular: undefined };
    if (typeof options === "boolean") {
      ctx.showHidden = options;
      if (legacy.length > 0) ctx.depth = legacy[0];
    } else if (options !== null && typeof options === "object") {
      for (const key of Object.keys(options)) {
        if (hasOwn(defaults, key) || key === "stylize") ctx[key] = options[key];
      }
    }
    if (ctx.depth === Infinity) ctx.depth = null;
    if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
    if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
    return formatValue(ctx, value, 0);
  }
  inspect.custom = custom;
  inspect.defaultOptions = defaults;

  // --- primitives ---------------------------------------------------------

  const META = [];
  for (let code = 0; code < 0x20; code += 1) {
    META[code] = `\\x${code.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  Object.assign(META, { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" });
  META[0x7f] = "\\x7F";

  // A string in quotes, as Node picks them: single, else double, else
  // backticks, escaping what would not read back.
  function strEscape(text) {
    let quote = "'";
    if (text.includes("'")) {
      if (!text.includes('"')) quote = '"';
      else if (!text.includes("`") && !text.includes("${")) quote = "`";
    }
    let out = "";
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      if (code === quote.charCodeAt(0) || code === 92) out += `\\${text[i]}`;
      else if (code < 0x20 || code === 0x7f) out += META[code];
      else if (code >= 0xd800 && code <= 0xdfff) {
        const next = text.charCodeAt(i + 1);
        if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          out += text[i] + text[i + 1];
          i += 1;
        } else {
          out += `\\u${code.toString(16)}`;
        }
      } else out += text[i];
    }
    return quote + out + quote;
  }

  const formatNumber = (n) => (Object.is(n, -0) ? "-0" : `${n}`);
  const formatBigInt = (n) => `${n}n`;

  function formatPrimitive(value, ctx) {
    switch (typeof value) {
      case "string": {
        let trailer = "";
        if (value.length > ctx.maxStringLength) {
          const remaining = value.length - ctx.maxStringLength;
          value = value.slice(0, ctx.maxStringLength);
          trailer = `... ${remaining} more character${remaining > 1 ? "s" : ""}`;
        }
        if (
          ctx.compact !== true &&
          value.length > 16 &&
          value.length > ctx.breakLength - ctx.indentationLvl - 4
        ) {
          return (
            value
              .split(/(?<=\n)/)
              .map(strEscape)
              .join(` +\n${" ".repeat(ctx.indentationLvl + 2)}`) + trailer
          );
        }
        return strEscape(value) + trailer;
      }
      case "number":
        return formatNumber(value);
      case "bigint":
        return formatBigInt(value);
      case "boolean":
        return `${value}`;
      case "undefined":
        return "undefined";
      default:
        return String(value);
    }
  }

  // --- objects ------------------------------------------------------------

  function formatValue(ctx, value, recurseTimes, typedArray) {
    if (typeof value !== "object" && typeof value !== "function") return formatPrimitive(value, ctx);
    if (value === null) return "null";
    if (ctx.customInspect) {
      let maybeCustom;
      try {
        maybeCustom = value[custom];
      } catch {
        maybeCustom = undefined;
      }
      if (
        typeof maybeCustom === "function" &&
        maybeCustom !== inspect &&
        !(value.constructor && value.constructor.prototype === value)
      ) {
        const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
        const options = { ...ctx, budget: undefined, seen: undefined, circular: undefined };
        const result = maybeCustom.call(value, depth, options, inspect);
        if (result !== value) {
          if (typeof result !== "string") return formatValue(ctx, result, recurseTimes);
          return result.replaceAll("\n", `\n${" ".repeat(ctx.indentationLvl)}`);
        }
      }
    }
    if (ctx.seen.includes(value)) {
      let index = 1;
      if (ctx.circular === undefined) {
        ctx.circular = new Map([[value, index]]);
      } else {
        index = ctx.circular.get(value);
        if (index === undefined) {
          index = ctx.circular.size + 1;
          ctx.circular.set(value, index);
        }
      }
      return `[Circular *${index}]`;
    }
    return formatRaw(ctx, value, recurseTimes, typedArray);
  }

  function constructorName(object) {
    const start = object;
    let first;
    while (object) {
      const descriptor = Object.getOwnPropertyDescriptor(object, "constructor");
      if (
        descriptor !== undefined &&
        typeof descriptor.value === "function" &&
        descriptor.value.name !== "" &&
        start instanceof descriptor.value
      ) {
        return String(descriptor.value.name);
      }
      object = Object.getPrototypeOf(object);
      if (first === undefined) first = object;
    }
    return first === null ? null : "Object";
  }

  function prefixOf(constructor, tag, fallback, size = "") {
    if (constructor === null) {
      if (tag !== "" && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `;
      return `[${fallback}${size}: null prototype] `;
    }
    if (tag !== "" && constructor !== tag) return `${constructor}${size} [${tag}] `;
    return `${constructor}${size} `;
  }

  function keysOf(value, showHidden) {
    const symbols = Object.getOwnPropertySymbols(value);
    if (showHidden) return Object.getOwnPropertyNames(value).concat(symbols);
    return Object.keys(value).concat(symbols.filter((symbol) => isEnumerable(value, symbol)));
  }

  const isIndex = (key) => typeof key === "string" && /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
  const nonIndexKeys = (value, showHidden) => keysOf(value, showHidden).filter((key) => !isIndex(key));

  function isError(value) {
    return value instanceof Error || Object.prototype.toString.call(value) === "[object Error]";
  }

  function boxedPrimitive(value) {
    for (const [type, unbox] of [
      [Number, Number.prototype.valueOf],
      [String, String.prototype.valueOf],
      [Boolean, Boolean.prototype.valueOf],
      [BigInt, BigInt.prototype.valueOf],
      [Symbol, Symbol.prototype.valueOf],
    ]) {
      if (value instanceof type) {
        try {
          return { type: type.name, primitive: unbox.call(value) };
        } catch {
          return null;
        }
      }
    }
    return null;
  }

  function formatRaw(ctx, value, recurseTimes, typedArray) {
    let keys;
    const constructor = constructorName(value);
    let tag = value[Symbol.toStringTag];
    if (typeof tag !== "string" || (tag !== "" && (ctx.showHidden ? hasOwn : isEnumerable)(value, Symbol.toStringTag))) {
      tag = "";
    }
    let base = "";
    let formatter = () => [];
    let braces;
    let noIterator = true;
    let extrasType = OBJECT;
    if (value[Symbol.iterator] || constructor === null) {
      noIterator = false;
      if (Array.isArray(value)) {
        const prefix =
          constructor !== "Array" || tag !== "" ? prefixOf(constructor, tag, "Array", `(${value.length})`) : "";
        keys = nonIndexKeys(value, ctx.showHidden);
        braces = [`${prefix}[`, "]"];
        if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
        extrasType = ARRAY;
        formatter = formatArray;
      } else if (value instanceof Set) {
        const prefix = prefixOf(constructor, tag, "Set", `(${value.size})`);
        keys = keysOf(value, ctx.showHidden);
        formatter = (ctx2, v, depth) => formatSet(value, ctx2, depth);
        if (value.size === 0 && keys.length === 0) return `${prefix}{}`;
        braces = [`${prefix}{`, "}"];
      } else if (value instanceof Map) {
        const prefix = prefixOf(constructor, tag, "Map", `(${value.size})`);
        keys = keysOf(value, ctx.showHidden);
        formatter = (ctx2, v, depth) => formatMap(value, ctx2, depth);
        if (value.size === 0 && keys.length === 0) return `${prefix}{}`;
        braces = [`${prefix}{`, "}"];
      } else if (value instanceof TypedArray) {
        keys = nonIndexKeys(value, ctx.showHidden);
        const size = value.length;
        const prefix = prefixOf(constructor, tag, value[Symbol.toStringTag] ?? "TypedArray", `(${size})`);
        braces = [`${prefix}[`, "]"];
        if (value.length === 0 && keys.length === 0 && !ctx.showHidden) return `${braces[0]}]`;
        formatter = (ctx2) => formatTypedArray(value, size, ctx2);
        extrasType = ARRAY;
      } else {
        noIterator = true;
      }
    }
    if (noIterator) {
      keys = keysOf(value, ctx.showHidden);
      braces = ["{", "}"];
      const boxed = typeof value === "object" ? boxedPrimitive(value) : null;
      if (constructor === "Object" && !isError(value) && !(value instanceof Date) && !(value instanceof RegExp) && !boxed) {
        if (Object.prototype.toString.call(value) === "[object Arguments]") braces[0] = "[Arguments] [";
        else if (tag !== "") braces[0] = `${prefixOf(constructor, tag, "Object")}{`;
        if (keys.length === 0) return `${braces[0]}}`;
      } else if (typeof value === "function") {
        base = functionBase(value, constructor, tag);
        if (keys.length === 0) return base;
      } else if (value instanceof RegExp) {
        base = RegExp.prototype.toString.call(value);
        const prefix = prefixOf(constructor, tag, "RegExp");
        if (prefix !== "RegExp ") base = `${prefix}${base}`;
        if (keys.length === 0 || (recurseTimes > ctx.depth && ctx.depth !== null)) return base;
      } else if (value instanceof Date) {
        const time = value.getTime();
        base = Number.isNaN(time) ? "Invalid Date" : value.toISOString();
        const prefix = prefixOf(constructor, tag, "Date");
        if (prefix !== "Date ") base = `${prefix}${base}`;
        if (keys.length === 0) return base;
      } else if (isError(value)) {
        base = formatError(value, constructor, tag, ctx, keys);
        if (keys.length === 0) return base;
      } else if (value instanceof ArrayBuffer) {
        const prefix = prefixOf(constructor, tag, "ArrayBuffer");
        if (typedArray === undefined) {
          formatter = (ctx2) => formatArrayBuffer(ctx2, value);
        } else if (keys.length === 0) {
          return `${prefix}{ byteLength: ${formatNumber(value.byteLength)} }`;
        }
        braces[0] = `${prefix}{`;
        keys.unshift("byteLength");
      } else if (value instanceof Promise) {
        braces[0] = `${prefixOf(constructor, tag, "Promise")}{`;
        formatter = (ctx2, v, depth) => formatPromise(ctx2, value, depth);
      } else if (value instanceof WeakSet || value instanceof WeakMap) {
        braces[0] = `${prefixOf(constructor, tag, value instanceof WeakSet ? "WeakSet" : "WeakMap")}{`;
        formatter = () => ["<items unknown>"];
      } else if (boxed) {
        base = `[${boxed.type}`;
        if (boxed.type !== constructor) base += constructor === null ? " (null prototype)" : ` (${constructor})`;
        base += `: ${formatPrimitive(boxed.primitive, { ...ctx, compact: true })}]`;
        if (tag !== "" && tag !== constructor) base += ` [${tag}]`;
        if (boxed.type === "String") keys = keys.filter((key) => !isIndex(key) && key !== "length");
        if (keys.length === 0) return base;
      } else {
        if (keys.length === 0) return `${prefixOf(constructor, tag, "Object")}{}`;
        braces[0] = `${prefixOf(constructor, tag, "Object")}{`;
      }
    }
    if (recurseTimes > ctx.depth && ctx.depth !== null) {
      let name = prefixOf(constructor, tag, "Object").slice(0, -1);
      if (constructor !== null) name = `[${name}]`;
      return name;
    }
    recurseTimes += 1;
    ctx.seen.push(value);
    ctx.currentDepth = recurseTimes;
    let output;
    try {
      output = formatter(ctx, value, recurseTimes);
      for (const key of keys) output.push(formatProperty(ctx, value, recurseTimes, key, extrasType));
    } catch (error) {
      if (error instanceof RangeError || error?.name === "InternalError") {
        ctx.seen.pop();
        return `[${prefixOf(constructor, tag, "Object").slice(0, -1)}: Inspection interrupted prematurely. Maximum call stack size exceeded.]`;
      }
      throw error;
    }
    if (ctx.circular !== undefined) {
      const index = ctx.circular.get(value);
      if (index !== undefined) {
        const reference = `<ref *${index}>`;
        if (ctx.compact !== true) base = base === "" ? reference : `${reference} ${base}`;
        else braces[0] = `${reference} ${braces[0]}`;
      }
    }
    ctx.seen.pop();
    if (ctx.sorted) {
      const comparator = ctx.sorted === true ? undefined : ctx.sorted;
      if (extrasType === OBJECT) output = output.sort(comparator);
      else if (keys.length > 1) {
        const sorted = output.slice(output.length - keys.length).sort(comparator);
        output.splice(output.length - keys.length, keys.length, ...sorted);
      }
    }
    const result = reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
    const budget = (ctx.budget[ctx.indentationLvl] || 0) + result.length;
    ctx.budget[ctx.indentationLvl] = budget;
    if (budget > 2 ** 27) ctx.depth = -1;
    return result;
  }

  function functionBase(value, constructor, tag) {
    let source = "";
    try {
      source = Function.prototype.toString.call(value);
    } catch {
      source = "";
    }
    if (source.startsWith("class") && source.endsWith("}")) {
      const name = (hasOwn(value, "name") && value.name) || "(anonymous)";
      let base = `class ${name}`;
      if (constructor !== "Function" && constructor !== null) base += ` [${constructor}]`;
      if (tag !== "" && constructor !== tag) base += ` [${tag}]`;
      if (constructor !== null) {
        const superName = Object.getPrototypeOf(value).name;
        if (superName) base += ` extends ${superName}`;
      } else {
        base += " extends [null prototype]";
      }
      return `[${base}]`;
    }
    let type = "Function";
    if (value instanceof GeneratorFunction) type = `Generator${type}`;
    if (value instanceof AsyncGeneratorFunction) type = `AsyncGenerator${type}`;
    if (value instanceof AsyncFunction) type = `Async${type}`;
    let base = `[${type}`;
    if (constructor === null) base += " (null prototype)";
    base += value.name === "" || typeof value.name !== "string" ? " (anonymous)" : `: ${value.name}`;
    base += "]";
    if (constructor !== type && constructor !== null) base += ` ${constructor}`;
    if (tag !== "" && constructor !== tag) base += ` [${tag}]`;
    return base;
  }

  // An error as Node shows it: its stack, whose first line is `name:
  // message` (the engine's stack holds only the frames; `host.stackOf`
  // leaves out the prelude's and the constructors').
  function formatError(error, constructor, tag, ctx, keys) {
    const name = error.name != null ? String(error.name) : "Error";
    const message = error.message != null ? String(error.message) : "";
    const head = message === "" ? name : `${name}: ${message}`;
    const raw = host.stackOf(error);
    const frames = typeof raw === "string"
      ? raw.split("\n").filter((line) => line.trim() !== "")
      : [];
    let stack = frames.length === 0 ? head : `${head}\n${frames.join("\n")}`;
    for (const key of ["name", "message", "stack"]) {
      const index = keys.indexOf(key);
      if (index !== -1 && typeof error[key] === "string" && stack.includes(error[key])) keys.splice(index, 1);
    }
    if ("cause" in error && (keys.length === 0 || !keys.includes("cause"))) keys.push("cause");
    if (Array.isArray(error.errors) && (keys.length === 0 || !keys.includes("errors"))) keys.push("errors");
    stack = improveStack(stack, constructor, name, tag);
    if (frames.length === 0) stack = `[${stack}]`;
    if (ctx.indentationLvl !== 0) stack = stack.replaceAll("\n", `\n${" ".repeat(ctx.indentationLvl)}`);
    return stack;
  }

  function improveStack(stack, constructor, name, tag) {
    let length = name.length;
    if (
      constructor === null ||
      (name.endsWith("Error") &&
        stack.startsWith(name) &&
        (stack.length === length || stack[length] === ":" || stack[length] === "\n"))
    ) {
      let fallback = "Error";
      if (constructor === null) {
        const start =
          /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/.exec(stack) || /^([a-z_A-Z0-9-]*Error)$/.exec(stack);
        fallback = (start && start[1]) || "";
        length = fallback.length;
        fallback = fallback || "Error";
      }
      const prefix = prefixOf(constructor, tag, fallback).slice(0, -1);
      if (name !== prefix) {
        if (prefix.includes(name)) {
          stack = length === 0 ? `${prefix}: ${stack}` : `${prefix}${stack.slice(length)}`;
        } else {
          stack = `${prefix} [${name}]${stack.slice(length)}`;
        }
      }
    }
    return stack;
  }

  const remainingText = (remaining) => `... ${remaining} more item${remaining > 1 ? "s" : ""}`;

  function formatArray(ctx, value, recurseTimes) {
    const length = Math.min(Math.max(0, ctx.maxArrayLength), value.length);
    const output = [];
    let holes = 0;
    let index = 0;
    for (; index < value.length && output.length < length; index += 1) {
      if (!hasOwn(value, index)) {
        holes += 1;
        continue;
      }
      if (holes > 0) {
        output.push(`<${holes} empty item${holes > 1 ? "s" : ""}>`);
        holes = 0;
        if (output.length >= length) break;
      }
      output.push(formatProperty(ctx, value, recurseTimes, index, ELEMENT));
    }
    if (holes > 0 && output.length < length) {
      output.push(`<${holes} empty item${holes > 1 ? "s" : ""}>`);
    }
    const remaining = value.length - index;
    if (remaining > 0) output.push(remainingText(remaining));
    return output;
  }

  function formatTypedArray(value, length, ctx) {
    const max = Math.min(Math.max(0, ctx.maxArrayLength), length);
    const output = [];
    for (let i = 0; i < max; i += 1) {
      output.push(typeof value[i] === "bigint" ? formatBigInt(value[i]) : formatNumber(value[i]));
    }
    if (value.length - max > 0) output.push(remainingText(value.length - max));
    if (ctx.showHidden) {
      ctx.indentationLvl += 2;
      for (const key of ["BYTES_PER_ELEMENT", "length", "byteLength", "byteOffset", "buffer"]) {
        output.push(`[${key}]: ${formatValue(ctx, value[key], ctx.currentDepth, true)}`);
      }
      ctx.indentationLvl -= 2;
    }
    return output;
  }

  function formatArrayBuffer(ctx, value) {
    const bytes = new Uint8Array(value);
    const shown = Array.from(bytes.subarray(0, Math.min(ctx.maxArrayLength, bytes.length)), (byte) =>
      byte.toString(16).padStart(2, "0")
    ).join(" ");
    const remaining = bytes.length - ctx.maxArrayLength;
    const more = remaining > 0 ? ` ... ${remaining} more byte${remaining > 1 ? "s" : ""}` : "";
    return [`[Uint8Contents]: <${shown}${more}>`];
  }

  function formatSet(value, ctx, recurseTimes) {
    const max = Math.min(Math.max(0, ctx.maxArrayLength), value.size);
    const output = [];
    ctx.indentationLvl += 2;
    for (const item of value) {
      if (output.length >= max) break;
      output.push(formatValue(ctx, item, recurseTimes));
    }
    if (value.size - max > 0) output.push(remainingText(value.size - max));
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatMap(value, ctx, recurseTimes) {
    const max = Math.min(Math.max(0, ctx.maxArrayLength), value.size);
    const output = [];
    ctx.indentationLvl += 2;
    for (const [key, item] of value) {
      if (output.length >= max) break;
      output.push(`${formatValue(ctx, key, recurseTimes)} => ${formatValue(ctx, item, recurseTimes)}`);
    }
    if (value.size - max > 0) output.push(remainingText(value.size - max));
    ctx.indentationLvl -= 2;
    return output;
  }

  function formatPromise(ctx, value, recurseTimes) {
    const [state, result] = host.promiseState(value);
    if (state === "pending") return ["<pending>"];
    ctx.indentationLvl += 2;
    const shown = formatValue(ctx, result, recurseTimes);
    ctx.indentationLvl -= 2;
    return [state === "rejected" ? `<rejected> ${shown}` : shown];
  }

  const KEY = /^[a-zA-Z_][a-zA-Z_0-9]*$/;

  function formatProperty(ctx, value, recurseTimes, key, type) {
    let name;
    let shown;
    const descriptor = Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
    if (descriptor.value !== undefined) {
      const diff = ctx.compact !== true || type !== OBJECT ? 2 : 3;
      ctx.indentationLvl += diff;
      shown = formatValue(ctx, descriptor.value, recurseTimes);
      ctx.indentationLvl -= diff;
    } else if (descriptor.get !== undefined) {
      const label = descriptor.set !== undefined ? "Getter/Setter" : "Getter";
      if (ctx.getters && (ctx.getters === true || (ctx.getters === "get" && descriptor.set === undefined) ||
          (ctx.getters === "set" && descriptor.set !== undefined))) {
        try {
          const got = descriptor.get.call(value);
          ctx.indentationLvl += 2;
          shown = got === null ? `[${label}: null]` : typeof got === "object"
            ? `[${label}] ${formatValue(ctx, got, recurseTimes)}`
            : `[${label}: ${formatPrimitive(got, ctx)}]`;
          ctx.indentationLvl -= 2;
        } catch (error) {
          shown = `[${label}: <Inspection threw (${error?.message})>]`;
        }
      } else {
        shown = `[${label}]`;
      }
    } else if (descriptor.set !== undefined) {
      shown = "[Setter]";
    } else {
      shown = "undefined";
    }
    if (type === ELEMENT) return shown;
    if (typeof key === "symbol") name = `[${key.toString()}]`;
    else if (key === "__proto__") name = "['__proto__']";
    else if (descriptor.enumerable === false) name = `[${key}]`;
    else if (KEY.test(key)) name = key;
    else name = strEscape(key);
    return `${name}: ${shown}`;
  }

  function isBelowBreakLength(ctx, output, start, base) {
    let total = output.length + start;
    if (total + output.length > ctx.breakLength) return false;
    for (const entry of output) {
      total += entry.length;
      if (total > ctx.breakLength) return false;
    }
    return base === "" || !base.includes("\n");
  }

  function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
    if (ctx.compact !== true) {
      if (typeof ctx.compact === "number" && ctx.compact >= 1) {
        const entries = output.length;
        if (extrasType === ARRAY && entries > 6) output = groupArrayElements(ctx, output, value);
        if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
          const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
          if (isBelowBreakLength(ctx, output, start, base)) {
            const joined = output.join(", ");
            if (!joined.includes("\n")) {
              return `${base ? `${base} ` : ""}${braces[0]} ${joined} ${braces[1]}`;
            }
          }
        }
      }
      const indentation = `\n${" ".repeat(ctx.indentationLvl)}`;
      return `${base ? `${base} ` : ""}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
    }
    if (isBelowBreakLength(ctx, output, 0, base)) {
      return `${braces[0]}${base ? ` ${base}` : ""} ${output.join(", ")} ${braces[1]}`;
    }
    const indentation = " ".repeat(ctx.indentationLvl);
    const line = base === "" && braces[0].length === 1 ? " " : `${base ? ` ${base}` : ""}\n${indentation}  `;
    return `${braces[0]}${line}${output.join(`,\n${indentation}  `)} ${braces[1]}`;
  }

  // More than six short entries in columns, numbers to the right.
  function groupArrayElements(ctx, output, value) {
    let total = 0;
    let longest = 0;
    let count = output.length;
    if (ctx.maxArrayLength < output.length) count -= 1;
    const separator = 2;
    const lengths = [];
    for (let i = 0; i < count; i += 1) {
      const length = output[i].length;
      lengths.push(length);
      total += length + separator;
      if (longest < length) longest = length;
    }
    const actualMax = longest + separator;
    if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (total / actualMax > 5 || longest <= 6)) {
      const averageBias = Math.sqrt(actualMax - total / output.length);
      const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
      const columns = Math.min(
        Math.round(Math.sqrt(2.5 * biasedMax * count) / biasedMax),
        Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
        ctx.compact * 4,
        15
      );
      if (columns <= 1) return output;
      const grouped = [];
      const widths = [];
      for (let i = 0; i < columns; i += 1) {
        let width = 0;
        for (let j = i; j < output.length; j += columns) {
          if (lengths[j] > width) width = lengths[j];
        }
        widths.push(width + separator);
      }
      // Numbers line up on the right, anything else on the left.
      let right = true;
      if (value !== undefined) {
        for (let i = 0; i < output.length; i += 1) {
          if (typeof value[i] !== "number" && typeof value[i] !== "bigint") {
            right = false;
            break;
          }
        }
      }
      const pad = (text, width) => (right ? text.padStart(width, " ") : text.padEnd(width, " "));
      for (let i = 0; i < count; i += columns) {
        const max = Math.min(i + columns, count);
        let line = "";
        let j = i;
        for (; j < max - 1; j += 1) line += pad(`${output[j]}, `, widths[j - i]);
        line += right ? output[j].padStart(widths[j - i] - separator, " ") : output[j];
        grouped.push(line);
      }
      if (ctx.maxArrayLength < output.length) grouped.push(output[count]);
      return grouped;
    }
    return output;
  }

  // --- util.format ----------------------------------------------------------

  // Whether `%s` prints the object through inspect (its `toString` is a
  // built-in one) rather than its own `toString`.
  function hasBuiltInToString(value) {
    if (typeof value.toString !== "function") return true;
    if (hasOwn(value, "toString")) return false;
    let pointer = value;
    do {
      pointer = Object.getPrototypeOf(pointer);
    } while (pointer !== null && !hasOwn(pointer, "toString"));
    if (pointer === null) return true;
    const descriptor = Object.getOwnPropertyDescriptor(pointer, "constructor");
    return (
      descriptor !== undefined &&
      typeof descriptor.value === "function" &&
      /^[A-Z]/.test(descriptor.value.name) &&
      globalThis[descriptor.value.name] === descriptor.value
    );
  }

  function tryStringify(value) {
    try {
      return JSON.stringify(value);
    } catch (error) {
      if (String(error?.message).toLowerCase().includes("circular")) return "[Circular]";
      throw error;
    }
  }

  function format(...args) {
    return formatWith(undefined, args);
  }

  // Node's util.formatWithOptions: format, its inspections with these
  // options too.
  function formatWithOptions(options, ...args) {
    if (options === null || typeof options !== "object") {
      const error = new TypeError(
        `The "inspectOptions" argument must be of type object.${received(options)}`
      );
      error.code = "ERR_INVALID_ARG_TYPE";
      throw error;
    }
    return formatWith(options, args);
  }

  function formatWith(options, args) {
    const first = args[0];
    let a = 0;
    let out = "";
    let join = "";
    if (typeof first === "string") {
      if (args.length === 1) return first;
      let last = 0;
      for (let i = 0; i < first.length - 1; i += 1) {
        if (first.charCodeAt(i) !== 37) continue;
        const next = first[++i];
        if (a + 1 !== args.length) {
          let text;
          switch (next) {
            case "s": {
              const arg = args[++a];
              if (typeof arg === "number") text = formatNumber(arg);
              else if (typeof arg === "bigint") text = formatBigInt(arg);
              else if (typeof arg !== "object" || arg === null || !hasBuiltInToString(arg)) text = String(arg);
              else text = inspect(arg, { ...options, depth: 0, colors: false, compact: 3 });
              break;
            }
            case "j":
              text = tryStringify(args[++a]);
              break;
            case "d": {
              const arg = args[++a];
              if (typeof arg === "bigint") text = formatBigInt(arg);
              else if (typeof arg === "symbol") text = "NaN";
              else text = formatNumber(Number(arg));
              break;
            }
            case "O":
              text = inspect(args[++a], options);
              break;
            case "o":
              text = inspect(args[++a], { ...options, showHidden: true, showProxy: true, depth: 4 });
              break;
            case "i": {
              const arg = args[++a];
              if (typeof arg === "bigint") text = formatBigInt(arg);
              else if (typeof arg === "symbol") text = "NaN";
              else text = formatNumber(Number.parseInt(arg));
              break;
            }
            case "f": {
              const arg = args[++a];
              text = typeof arg === "symbol" ? "NaN" : formatNumber(Number.parseFloat(arg));
              break;
            }
            case "c":
              a += 1;
              text = "";
              break;
            case "%":
              out += first.slice(last, i);
              last = i + 1;
              continue;
            default:
              continue;
          }
          if (last !== i - 1) out += first.slice(last, i - 1);
          out += text;
          last = i + 1;
        } else if (next === "%") {
          out += first.slice(last, i);
          last = i + 1;
        }
      }
      if (last !== 0) {
        a += 1;
        join = " ";
        if (last < first.length) out += first.slice(last);
      }
    }
    while (a < args.length) {
      const value = args[a];
      out += join;
      out += typeof value !== "string" ? inspect(value, options) : value;
      join = " ";
      a += 1;
    }
    return out;
  }

  // --- console.table -----------------------------------------------------

  // Node's getStringWidth without ICU: a full-width code point counts two
  // columns, a control or combining one none.
  const isFullWidth = (code) =>
    code >= 0x1100 &&
    (code <= 0x115f || code === 0x2329 || code === 0x232a ||
      (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
      (code >= 0x3250 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0xa4c6) ||
      (code >= 0xa960 && code <= 0xa97c) || (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) || (code >= 0xfe10 && code <= 0xfe19) ||
      (code >= 0xfe30 && code <= 0xfe6b) || (code >= 0xff01 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) || (code >= 0x1b000 && code <= 0x1b001) ||
      (code >= 0x1f200 && code <= 0x1f251) || (code >= 0x1f300 && code <= 0x1f64f) ||
      (code >= 0x20000 && code <= 0x3fffd));
  const isZeroWidth = (code) =>
    code <= 0x1f || (code >= 0x7f && code <= 0x9f) || (code >= 0x300 && code <= 0x36f) ||
    (code >= 0x200b && code <= 0x200f) || (code >= 0x20d0 && code <= 0x20ff) ||
    (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xfe20 && code <= 0xfe2f) ||
    (code >= 0xe0100 && code <= 0xe01ef);
  function stringWidth(text) {
    let width = 0;
    for (const char of text.normalize("NFC")) {
      const code = char.codePointAt(0);
      if (isFullWidth(code)) width += 2;
      else if (!isZeroWidth(code)) width += 1;
    }
    return width;
  }

  // Node's lib/internal/cli_table.js: the head, then a row per index, each
  // cell left-aligned in a column as wide as its widest.
  function cliTable(head, columns) {
    const rows = [];
    const widths = head.map(stringWidth);
    const longest = Math.max(...columns.map((column) => column.length));
    for (let i = 0; i < head.length; i += 1) {
      for (let j = 0; j < longest; j += 1) {
        rows[j] ??= [];
        const value = (rows[j][i] = hasOwn(columns[i], j) ? columns[i][j] : "");
        widths[i] = Math.max(widths[i] || 0, stringWidth(value));
      }
    }
    const row = (cells) =>
      `│ ${cells.map((cell, i) => cell + " ".repeat(widths[i] - stringWidth(cell))).join(" │ ")} │`;
    const divider = widths.map((width) => "─".repeat(width + 2));
    let out = `┌${divider.join("┬")}┐\n${row(head)}\n├${divider.join("┼")}┤\n`;
    for (const cells of rows) out += `${row(cells)}\n`;
    return `${out}└${divider.join("┴")}┘`;
  }

  // What Node's ERR_INVALID_ARG_TYPE says it received.
  function received(value) {
    if (value === null || value === undefined) return ` Received ${value}`;
    if (typeof value === "function") return ` Received function ${value.name}`;
    if (typeof value === "object") {
      const name = value.constructor?.name;
      return name ? ` Received an instance of ${name}` : ` Received ${inspect(value, { depth: -1 })}`;
    }
    let shown = inspect(value, { colors: false });
    if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
    return ` Received type ${typeof value} (${shown})`;
  }

  // Node's console.table (lib/internal/console/constructor.js): the text
  // of its table, or undefined when `data` is no object (console.log
  // prints it then).
  function table(data, properties) {
    if (properties !== undefined && !Array.isArray(properties)) {
      const error = new TypeError(
        `The "properties" argument must be an instance of Array.${received(properties)}`
      );
      error.code = "ERR_INVALID_ARG_TYPE";
      throw error;
    }
    if (data === null || typeof data !== "object") return undefined;
    const show = (value) => {
      const depth =
        value !== null && typeof value === "object" && !Array.isArray(value) &&
        Object.keys(value).length > 2 ? -1 : 0;
      return inspect(value, { depth, maxArrayLength: 3, breakLength: Infinity });
    };
    const indexes = (length) => Array.from({ length }, (_, i) => show(i));
    if (data instanceof Map) {
      const keys = [];
      const values = [];
      for (const [key, value] of data) {
        keys.push(show(key));
        values.push(show(value));
      }
      return cliTable(["(iteration index)", "Key", "Values"], [indexes(keys.length), keys, values]);
    }
    if (data instanceof Set) {
      const values = [...data].map(show);
      return cliTable(["(iteration index)", "Values"], [indexes(values.length), values]);
    }
    const map = Object.create(null);
    let primitives = false;
    const primitiveValues = [];
    const indexKeys = Object.keys(data);
    for (let i = 0; i < indexKeys.length; i += 1) {
      const item = data[indexKeys[i]];
      const primitive = item === null || (typeof item !== "function" && typeof item !== "object");
      if (properties === undefined && primitive) {
        primitives = true;
        primitiveValues[i] = show(item);
      } else {
        for (const key of properties || Object.keys(item)) {
          map[key] ??= [];
          map[key][i] = (primitive && properties) || !hasOwn(item, key) ? "" : show(item[key]);
        }
      }
    }
    const head = Object.keys(map);
    const columns = Object.values(map);
    if (primitives) {
      head.push("Values");
      columns.push(primitiveValues);
    }
    head.unshift("(index)");
    columns.unshift(indexKeys);
    return cliTable(head, columns);
  }

  return { inspect, format, formatWithOptions, table, received };
});
