// Node's globals for bytes, copies, cancelling and URLs, and its `util`: a
// part of the prelude (prelude.js) that a realm compiles and runs the first
// time its script reaches for one of them (prelude.js, `nodePart`). Its
// value is a function of what it takes from the prelude.
"use strict";
(function ({ host, setTimeout, setImmediate, eventsPart, promisifyCustom, inspectPart }) {
  // How console.log shows the classes below, as Node's own do: the class
  // name and the object of what it shows, one level deeper
  // (`util.inspect` hands each its depth, options and itself).
  const inspectCustom = Symbol.for("nodejs.util.inspect.custom");
  function showAs(self, shown, depth, options, inspect) {
    if (depth < 0) return self;
    const deeper = { ...options, depth: options.depth === null ? null : options.depth - 1 };
    return `${self.constructor.name} ${inspect(shown, deeper)}`;
  }
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
    if (!known) {
      const error = new TypeError(`Unknown encoding: ${encoding}`);
      error.code = "ERR_UNKNOWN_ENCODING";
      throw error;
    }
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
      if (value !== null && typeof value === "object") {
        // Node's fromObject: an array-like (a `length` that is no number
        // makes an empty buffer), or a buffer's JSON.
        if (value.length !== undefined) {
          return new Buffer(typeof value.length === "number" ? Array.from(value) : []);
        }
        if (value.type === "Buffer" && Array.isArray(value.data)) return new Buffer(value.data);
      }
      const error = new TypeError(
        "The first argument must be of type string or an instance of Buffer, ArrayBuffer, " +
          `or Array or an Array-like Object.${inspectPart().received(value)}`
      );
      error.code = "ERR_INVALID_ARG_TYPE";
      throw error;
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
    // How console.log shows it: `<Buffer 68 69>`, the first 50 bytes.
    [Symbol.for("nodejs.util.inspect.custom")]() {
      const shown = Array.from(this.subarray(0, 50), (byte) => byte.toString(16).padStart(2, "0"));
      const remaining = this.length - 50;
      const more = remaining > 0 ? ` ... ${remaining} more byte${remaining > 1 ? "s" : ""}` : "";
      return `<${this.constructor.name} ${shown.join(" ")}${more}>`;
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
    indexOf(value, byteOffset, encoding) {
      return indexOf(this, value, byteOffset, encoding, true);
    }
    lastIndexOf(value, byteOffset, encoding) {
      return indexOf(this, value, byteOffset, encoding, false);
    }
    includes(value, byteOffset, encoding) {
      return this.indexOf(value, byteOffset, encoding) !== -1;
    }
    readUIntLE(offset, byteLength) {
      return readBytes(this, offset, checkedLength(offset, byteLength), false, true);
    }
    readUIntBE(offset, byteLength) {
      return readBytes(this, offset, checkedLength(offset, byteLength), false, false);
    }
    readIntLE(offset, byteLength) {
      return readBytes(this, offset, checkedLength(offset, byteLength), true, true);
    }
    readIntBE(offset, byteLength) {
      return readBytes(this, offset, checkedLength(offset, byteLength), true, false);
    }
    writeUIntLE(value, offset, byteLength) {
      return writeBytes(this, value, offset, lengthOf(byteLength), false, true);
    }
    writeUIntBE(value, offset, byteLength) {
      return writeBytes(this, value, offset, lengthOf(byteLength), false, false);
    }
    writeIntLE(value, offset, byteLength) {
      return writeBytes(this, value, offset, lengthOf(byteLength), true, true);
    }
    writeIntBE(value, offset, byteLength) {
      return writeBytes(this, value, offset, lengthOf(byteLength), true, false);
    }
    swap16() {
      return swap(this, 2);
    }
    swap32() {
      return swap(this, 4);
    }
    swap64() {
      return swap(this, 8);
    }
  }
  Buffer.poolSize = 8192;

  // Node's numeric reads and writes (lib/internal/buffer.js): the same
  // byte orders, ranges and errors.
  // Node's addNumericalSeparator, quirks included ("1e+_300").
  function separated(text) {
    let out = "";
    let i = text.length;
    const start = text[0] === "-" ? 1 : 0;
    for (; i >= start + 4; i -= 3) out = `_${text.slice(i - 3, i)}${out}`;
    return `${text.slice(0, i)}${out}`;
  }
  const numberShown = (value) => {
    if (typeof value === "bigint") {
      const digits = String(value);
      return `${value > 2n ** 32n || value < -(2n ** 32n) ? separated(digits) : digits}n`;
    }
    if (Number.isInteger(value) && Math.abs(value) > 2 ** 32) return separated(String(value));
    return inspectPart().inspect(value);
  };
  const outOfRange = (name, range, value) => {
    const error = new RangeError(
      `The value of "${name}" is out of range. It must be ${range}. Received ${numberShown(value)}`
    );
    error.code = "ERR_OUT_OF_RANGE";
    return error;
  };
  const mustBeNumber = (value, name) => {
    if (typeof value === "number") return;
    const error = new TypeError(`The "${name}" argument must be of type number.${inspectPart().received(value)}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  };
  function boundsError(value, length, type) {
    if (Math.floor(value) !== value) {
      mustBeNumber(value, type || "offset");
      throw outOfRange(type || "offset", "an integer", value);
    }
    if (length < 0) {
      const error = new RangeError("Attempt to access memory outside buffer bounds");
      error.code = "ERR_BUFFER_OUT_OF_BOUNDS";
      throw error;
    }
    throw outOfRange(type || "offset", `>= ${type ? 1 : 0} and <= ${length}`, value);
  }
  function checkBounds(buffer, offset, size) {
    mustBeNumber(offset, "offset");
    if (buffer[offset] === undefined || buffer[offset + size - 1] === undefined) {
      boundsError(offset, buffer.length - size);
    }
  }
  // writeUIntLE(value, offset, byteLength) and the rest: 1 to 6 bytes.
  function lengthOf(byteLength) {
    if (!(byteLength >= 1 && byteLength <= 6 && Math.floor(byteLength) === byteLength)) {
      boundsError(byteLength, 6, "byteLength");
    }
    return byteLength;
  }
  // readUIntLE(offset, byteLength) and the rest: an offset first.
  function checkedLength(offset, byteLength) {
    if (offset === undefined) mustBeNumber(offset, "offset");
    return lengthOf(byteLength);
  }
  function readBytes(buffer, offset = 0, size, signed, little) {
    checkBounds(buffer, offset, size);
    let value = 0;
    for (let i = 0; i < size; i += 1) {
      value = value * 256 + buffer[offset + (little ? size - 1 - i : i)];
    }
    return signed && value >= 2 ** (size * 8 - 1) ? value - 2 ** (size * 8) : value;
  }
  function writeBytes(buffer, value, offset, size, signed, little) {
    value = +value;
    const bits = size * 8;
    const [min, max] = signed ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
    if (size === 1) mustBeNumber(offset, "offset");
    if (value > max || value < min) {
      let range = `>= ${min} and <= ${max}`;
      if (size > 4) {
        range = signed ? `>= -(2 ** ${bits - 1}) and < 2 ** ${bits - 1}` : `>= 0 and < 2 ** ${bits}`;
      }
      throw outOfRange("value", range, value);
    }
    checkBounds(buffer, offset, size);
    // Two's complement of the integer part (NaN writes zeros).
    let rest = ((Math.trunc(value) || 0) + 2 ** bits) % 2 ** bits;
    for (let i = 0; i < size; i += 1) {
      buffer[offset + (little ? i : size - 1 - i)] = rest % 256;
      rest = Math.floor(rest / 256);
    }
    return offset + size;
  }
  const viewOf = (buffer) => new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  // The fixed-size methods, each under Node's names (readUInt8 and
  // readUint8, …): integers of 1, 2 and 4 bytes, floats, doubles, BigInts.
  for (const [size, signed] of [[1, false], [1, true], [2, false], [2, true], [4, false], [4, true]]) {
    const kind = `${signed ? "Int" : "UInt"}${size * 8}`;
    for (const order of size === 1 ? [""] : ["LE", "BE"]) {
      const little = order === "LE";
      const methods = {
        [`read${kind}${order}`](offset = 0) {
          return readBytes(this, offset, size, signed, little);
        },
        [`write${kind}${order}`](value, offset = 0) {
          return writeBytes(this, value, offset, size, signed, little);
        },
      };
      for (const [name, method] of Object.entries(methods)) {
        Buffer.prototype[name] = method;
        if (!signed) Buffer.prototype[name.replace("UInt", "Uint")] = method;
      }
    }
  }
  const floats = [["Float", 4, "Float32"], ["Double", 8, "Float64"]];
  for (const [kind, size, view] of floats) {
    for (const order of ["LE", "BE"]) {
      const little = order === "LE";
      Buffer.prototype[`read${kind}${order}`] = function (offset = 0) {
        checkBounds(this, offset, size);
        return viewOf(this)[`get${view}`](offset, little);
      };
      Buffer.prototype[`write${kind}${order}`] = function (value, offset = 0) {
        value = +value;
        checkBounds(this, offset, size);
        viewOf(this)[`set${view}`](offset, value, little);
        return offset + size;
      };
    }
  }
  for (const signed of [false, true]) {
    const kind = signed ? "BigInt64" : "BigUInt64";
    const [min, max] = signed ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
    for (const order of ["LE", "BE"]) {
      const little = order === "LE";
      const read = function (offset = 0) {
        checkBounds(this, offset, 8);
        return viewOf(this)[signed ? "getBigInt64" : "getBigUint64"](offset, little);
      };
      const write = function (value, offset = 0) {
        if (value > max || value < min) {
          const range = signed ? ">= -(2n ** 63n) and < 2n ** 63n" : ">= 0n and < 2n ** 64n";
          throw outOfRange("value", range, value);
        }
        checkBounds(this, offset, 8);
        if (typeof value !== "bigint") {
          throw new TypeError("Cannot mix BigInt and other types, use explicit conversions");
        }
        viewOf(this)[signed ? "setBigInt64" : "setBigUint64"](offset, value, little);
        return offset + 8;
      };
      Buffer.prototype[`read${kind}${order}`] = read;
      Buffer.prototype[`write${kind}${order}`] = write;
      if (!signed) {
        Buffer.prototype[`readBigUint64${order}`] = read;
        Buffer.prototype[`writeBigUint64${order}`] = write;
      }
    }
  }
  function swap(buffer, size) {
    if (buffer.length % size !== 0) {
      const error = new RangeError(`Buffer size must be a multiple of ${size * 8}-bits`);
      error.code = "ERR_INVALID_BUFFER_SIZE";
      throw error;
    }
    for (let at = 0; at < buffer.length; at += size) buffer.subarray(at, at + size).reverse();
    return buffer;
  }
  // indexOf, lastIndexOf and includes of a byte, a string (in an encoding)
  // or bytes, from Node's offset rules (src/node_buffer.cc IndexOfOffset).
  function indexOf(buffer, value, byteOffset, encoding, forward) {
    if (typeof byteOffset === "string") {
      encoding = byteOffset;
      byteOffset = undefined;
    } else if (byteOffset > 0x7fffffff) byteOffset = 0x7fffffff;
    else if (byteOffset < -0x80000000) byteOffset = -0x80000000;
    byteOffset = +byteOffset;
    if (Number.isNaN(byteOffset)) byteOffset = forward ? 0 : buffer.length;
    byteOffset = Math.trunc(byteOffset);
    let needle;
    if (typeof value === "number") needle = [(value >>> 0) & 0xff];
    else if (typeof value === "string") needle = encode(value, encoding);
    else if (value instanceof Uint8Array) needle = value;
    else {
      const error = new TypeError(
        'The "value" argument must be one of type number or string or an instance of Buffer or ' +
          `Uint8Array.${inspectPart().received(value)}`
      );
      error.code = "ERR_INVALID_ARG_TYPE";
      throw error;
    }
    const length = buffer.length;
    const size = needle.length;
    let start;
    if (byteOffset < 0) {
      if (byteOffset + length >= 0) start = length + byteOffset;
      else if (forward || size === 0) start = 0;
      else start = -1;
    } else if (byteOffset + size <= length) start = byteOffset;
    else if (size === 0) start = length;
    else start = forward ? -1 : length - 1;
    if (size === 0) return start;
    if (length === 0 || start < 0 || size > length) return -1;
    const matches = (at) => {
      for (let k = 0; k < size; k += 1) if (buffer[at + k] !== needle[k]) return false;
      return true;
    };
    if (forward) {
      for (let at = start; at + size <= length; at += 1) if (matches(at)) return at;
    } else {
      for (let at = Math.min(start, length - size); at >= 0; at -= 1) if (matches(at)) return at;
    }
    return -1;
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
    [inspectCustom](depth, options, inspect) {
      return showAs(this, { aborted: this.aborted }, depth, options, inspect);
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
    [inspectCustom](depth, options, inspect) {
      return showAs(this, { signal: this.signal }, depth, options, inspect);
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
    [inspectCustom](depth, options, inspect) {
      if (typeof depth === "number" && depth < 0) return "[Object]";
      const inner = { ...options, depth: depth === null ? null : depth - 1 };
      const output = this.#list.map(([name, value]) => `${inspect(name, inner)} => ${inspect(value, inner)}`);
      const length = output.reduce((sum, entry) => sum + entry.length + 2, -2);
      if (length > options.breakLength) return `${this.constructor.name} {\n  ${output.join(",\n  ")} }`;
      if (output.length) return `${this.constructor.name} { ${output.join(", ")} }`;
      return `${this.constructor.name} {}`;
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
    [inspectCustom](depth, options, inspect) {
      if (typeof depth === "number" && depth < 0) return this;
      const shown = {};
      for (const name of [
        "href", "origin", "protocol", "username", "password", "host", "hostname", "port",
        "pathname", "search", "searchParams", "hash",
      ]) {
        shown[name] = this[name];
      }
      return `${this.constructor.name} ${inspect(shown, options)}`;
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
        (value) => eventsPart().process.nextTick(callback, null, value),
        (reason) => {
          if (!reason) {
            const error = new Error("Promise was rejected with a falsy value");
            error.reason = reason;
            reason = error;
          }
          eventsPart().process.nextTick(callback, reason);
        }
      );
    };
  }
  // Two values compared deeply; a pair already being compared counts as
  // equal, so cycles end (as Node's memos do).
  function isDeepStrictEqual(a, b, comparing = new Map()) {
    if (Object.is(a, b)) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    if (comparing.get(a) === b) return true;
    comparing.set(a, b);
    const equal = (x, y) => isDeepStrictEqual(x, y, comparing);
    if (a instanceof Date) return a.getTime() === b.getTime();
    if (a instanceof Map || a instanceof Set) {
      if (a.size !== b.size) return false;
      const entries = [...b];
      return [...a].every((x) => entries.some((y) => equal(x, y)));
    }
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every(
      (key) => Object.prototype.hasOwnProperty.call(b, key) && equal(a[key], b[key])
    );
  }
  // util.inspect and util.format are prelude/inspect.js's.
  function inspect(...args) {
    return inspectPart().inspect(...args);
  }
  inspect.custom = Symbol.for("nodejs.util.inspect.custom");
  // util.types: the engine's brands, read the way a script can (a
  // prototype method that throws on anything else, or the object's tag);
  // a Proxy is not told apart here.
  const tagOf = (value) => Object.prototype.toString.call(value);
  const branded = (method) => (value) => {
    if (value === null || typeof value !== "object") return false;
    try {
      method.call(value);
      return true;
    } catch {
      return false;
    }
  };
  const instanceOf = (Type) => (value) => typeof Type === "function" && value instanceof Type;
  const types = Object.freeze({
    isExternal: () => false,
    isDate: branded(Date.prototype.getTime),
    isArgumentsObject: (value) => tagOf(value) === "[object Arguments]",
    isBigIntObject: branded(BigInt.prototype.valueOf),
    isBooleanObject: branded(Boolean.prototype.valueOf),
    isNumberObject: branded(Number.prototype.valueOf),
    isStringObject: branded(String.prototype.valueOf),
    isSymbolObject: branded(Symbol.prototype.valueOf),
    isNativeError: (value) => value instanceof Error,
    isRegExp: branded(Object.getOwnPropertyDescriptor(RegExp.prototype, "source").get),
    isAsyncFunction: (value) =>
      typeof value === "function" &&
      ["[object AsyncFunction]", "[object AsyncGeneratorFunction]"].includes(tagOf(value)),
    isGeneratorFunction: (value) =>
      typeof value === "function" &&
      ["[object GeneratorFunction]", "[object AsyncGeneratorFunction]"].includes(tagOf(value)),
    isGeneratorObject: (value) => ["[object Generator]", "[object AsyncGenerator]"].includes(tagOf(value)),
    isPromise: instanceOf(Promise),
    isMap: instanceOf(Map),
    isSet: instanceOf(Set),
    isMapIterator: (value) => tagOf(value) === "[object Map Iterator]",
    isSetIterator: (value) => tagOf(value) === "[object Set Iterator]",
    isWeakMap: instanceOf(WeakMap),
    isWeakSet: instanceOf(WeakSet),
    isArrayBuffer: instanceOf(ArrayBuffer),
    isDataView: instanceOf(DataView),
    isSharedArrayBuffer: instanceOf(globalThis.SharedArrayBuffer),
    isProxy: () => false,
    isModuleNamespaceObject: (value) => tagOf(value) === "[object Module]",
    isAnyArrayBuffer: (value) => types.isArrayBuffer(value) || types.isSharedArrayBuffer(value),
    isBoxedPrimitive: (value) =>
      types.isNumberObject(value) || types.isStringObject(value) || types.isBooleanObject(value) ||
      types.isBigIntObject(value) || types.isSymbolObject(value),
    isArrayBufferView: (value) => ArrayBuffer.isView(value),
    isTypedArray: (value) => ArrayBuffer.isView(value) && !(value instanceof DataView),
    isUint8Array: instanceOf(Uint8Array),
    isUint8ClampedArray: instanceOf(Uint8ClampedArray),
    isUint16Array: instanceOf(Uint16Array),
    isUint32Array: instanceOf(Uint32Array),
    isInt8Array: instanceOf(Int8Array),
    isInt16Array: instanceOf(Int16Array),
    isInt32Array: instanceOf(Int32Array),
    isFloat32Array: instanceOf(Float32Array),
    isFloat64Array: instanceOf(Float64Array),
    isBigInt64Array: instanceOf(BigInt64Array),
    isBigUint64Array: instanceOf(BigUint64Array),
    isKeyObject: () => false,
    isCryptoKey: () => false,
  });
  // Node's ansi pattern (lib/internal/util/inspect.js).
  const VT_CONTROL = new RegExp(
    "[\\u001B\\u009B][[\\]()#;?]*" +
      "(?:(?:(?:(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]+)*" +
      "|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]*)*)?" +
      "(?:\\u0007|\\u001B\\u005C|\\u009C))" +
      "|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-nq-uy=><~]))",
    "g"
  );
  // NODE_DEBUG is empty: a section's log writes nothing.
  function debuglog() {
    const log = () => {};
    log.enabled = false;
    return log;
  }
  const util = Object.freeze({
    promisify,
    callbackify,
    inspect,
    format: (...args) => inspectPart().format(...args),
    isDeepStrictEqual,
    inherits(constructor, superConstructor) {
      Object.setPrototypeOf(constructor.prototype, superConstructor.prototype);
      Object.defineProperty(constructor, "super_", {
        value: superConstructor,
        writable: true,
        configurable: true,
      });
    },
    isArray: Array.isArray,
    // Node's once-only DeprecationWarning (prelude.js, process.emitWarning).
    deprecate(fn, message, code) {
      let warned = false;
      return function deprecated(...args) {
        if (!warned) {
          warned = true;
          eventsPart().process.emitWarning(message, "DeprecationWarning", code);
        }
        return new.target ? Reflect.construct(fn, args, new.target) : Reflect.apply(fn, this, args);
      };
    },
    debuglog,
    types,
    formatWithOptions: (...args) => inspectPart().formatWithOptions(...args),
    debug: debuglog,
    stripVTControlCharacters(text) {
      if (typeof text !== "string") {
        const error = new TypeError(`The "str" argument must be of type string.${inspectPart().received(text)}`);
        error.code = "ERR_INVALID_ARG_TYPE";
        throw error;
      }
      return text.replace(VT_CONTROL, "");
    },
    toUSVString: (text) => String(text).toWellFormed(),
    TextEncoder,
    TextDecoder,
    _extend(target, source) {
      if (source === null || typeof source !== "object") return target;
      for (const key of Object.keys(source)) target[key] = source[key];
      return target;
    },
    // The old type checks, documentation-deprecated on Node 20 (no
    // warning).
    isBoolean: (value) => typeof value === "boolean",
    isBuffer: (value) => value instanceof Buffer,
    isDate: (value) => types.isDate(value),
    isError: (value) => value instanceof Error,
    isFunction: (value) => typeof value === "function",
    isNull: (value) => value === null,
    isNullOrUndefined: (value) => value === null || value === undefined,
    isNumber: (value) => typeof value === "number",
    isObject: (value) => value !== null && typeof value === "object",
    isPrimitive: (value) => value === null || (typeof value !== "object" && typeof value !== "function"),
    isRegExp: (value) => types.isRegExp(value),
    isString: (value) => typeof value === "string",
    isSymbol: (value) => typeof value === "symbol",
    isUndefined: (value) => value === undefined,
  });

  // crypto's hashes: `createHash` and `createHmac` (md5, sha1, sha256,
  // sha384, sha512; the host computes them, `__host.digest`),
  // `randomBytes` from the run's seeded `Math.random`, `timingSafeEqual`.
  const bytesOf = (data, encoding) => {
    if (typeof data === "string") return Buffer.from(data, encoding);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    throw new TypeError(
      'The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView'
    );
  };
  class Hash {
    #algorithm;
    #key;
    #chunks = [];
    #done = false;
    constructor(algorithm, key) {
      this.#algorithm = String(algorithm).toLowerCase().replace(/^sha-/, "sha");
      this.#key = key;
      if (host.digest(this.#algorithm, new Uint8Array(0), key) === null) {
        throw new Error(key === undefined ? "Digest method not supported" : `Invalid digest: ${algorithm}`);
      }
    }
    update(data, encoding) {
      if (this.#done) throw new Error("Digest already called");
      this.#chunks.push(bytesOf(data, encoding));
      return this;
    }
    digest(encoding) {
      if (this.#done) throw new Error("Digest already called");
      this.#done = true;
      const out = Buffer.from(host.digest(this.#algorithm, Buffer.concat(this.#chunks), this.#key));
      return encoding === undefined || encoding === "buffer" ? out : out.toString(encoding);
    }
  }
  const crypto = {
    createHash: (algorithm) => new Hash(algorithm),
    createHmac: (algorithm, key) => new Hash(algorithm, bytesOf(key)),
    randomBytes(size, callback) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i += 1) bytes[i] = Math.floor(Math.random() * 256);
      if (typeof callback !== "function") return bytes;
      setImmediate(() => callback(null, bytes));
      return undefined;
    },
    timingSafeEqual(a, b) {
      if (a.byteLength !== b.byteLength) {
        throw new RangeError("Input buffers must have the same byte length");
      }
      return Buffer.from(bytesOf(a)).equals(Buffer.from(bytesOf(b)));
    },
    // Node 20.12's one-shot digest: hex unless asked otherwise.
    hash(algorithm, data, outputEncoding = "hex") {
      return new Hash(algorithm).update(data).digest(outputEncoding);
    },
    // Random bytes into `buffer` (seeded): Node's randomFillSync, its
    // offset and size counted in the array's elements.
    randomFillSync(buffer, offset = 0, size) {
      if (!(buffer instanceof ArrayBuffer) && !ArrayBuffer.isView(buffer)) {
        const error = new TypeError(
          `The "buf" argument must be an instance of ArrayBuffer or ArrayBufferView.${inspectPart().received(buffer)}`
        );
        error.code = "ERR_INVALID_ARG_TYPE";
        throw error;
      }
      const element = buffer.BYTES_PER_ELEMENT || 1;
      const length = buffer.byteLength;
      const MAX = 2 ** 31 - 1;
      mustBeNumber(offset, "offset");
      offset *= element;
      if (Number.isNaN(offset) || offset > Math.min(length, MAX) || offset < 0) {
        throw outOfRange("offset", `>= 0 && <= ${Math.min(length, MAX)}`, offset);
      }
      offset >>>= 0;
      if (size === undefined) size = length - offset;
      else {
        mustBeNumber(size, "size");
        size *= element;
        if (Number.isNaN(size) || size > MAX || size < 0) {
          throw outOfRange("size", `>= 0 && <= ${MAX}`, size);
        }
        if (size + offset > length) throw outOfRange("size + offset", `<= ${length}`, size + offset);
        size >>>= 0;
      }
      const bytes = ArrayBuffer.isView(buffer)
        ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
        : new Uint8Array(buffer);
      for (let i = offset; i < offset + size; i += 1) bytes[i] = Math.floor(Math.random() * 256);
      return buffer;
    },
    // The same, called back a macrotask later (Node's thread pool).
    randomFill(buffer, ...rest) {
      const callback = rest.pop();
      if (typeof callback !== "function") {
        const error = new TypeError(`The "callback" argument must be of type function.${inspectPart().received(callback)}`);
        error.code = "ERR_INVALID_ARG_TYPE";
        throw error;
      }
      crypto.randomFillSync(buffer, ...rest);
      setImmediate(() => callback(null, buffer));
    },
  };

  // Node 20's btoa and atob (lib/buffer.js): Latin-1 text to base64 and
  // back, atob forgiving as the WHATWG spec says (ASCII whitespace
  // skipped, `=` only at the end), with Node's DOMExceptions.
  const missingInput = () => {
    const error = new TypeError('The "input" argument must be specified');
    error.code = "ERR_MISSING_ARGS";
    return error;
  };
  const invalid = (message = "Invalid character") => new DOMException(message, "InvalidCharacterError");
  function btoa(input) {
    if (arguments.length === 0) throw missingInput();
    input = `${input}`;
    for (let n = 0; n < input.length; n++) if (input.charCodeAt(n) > 0xff) throw invalid();
    return Buffer.from(input, "latin1").toString("base64");
  }
  const BASE64_DIGIT = /[A-Za-z0-9+/]/;
  function atob(input) {
    if (arguments.length === 0) throw missingInput();
    input = `${input}`;
    let count = 0;
    let equals = 0;
    for (const char of input) {
      if (char === "\t" || char === "\n" || char === "\f" || char === "\r" || char === " ") continue;
      count++;
      if (char === "=") {
        equals++;
        if (equals > 2) throw invalid();
      } else if (!BASE64_DIGIT.test(char) || equals > 0) {
        throw invalid();
      }
    }
    let reminder = count % 4;
    if (!reminder) reminder = (count - equals) % 4;
    else if (equals) throw invalid();
    if (reminder === 1) throw invalid("The string to be decoded is not correctly encoded.");
    return Buffer.from(input.replace(/[\t\n\f\r =]/g, ""), "base64").toString("latin1");
  }

  return {
    numberShown,
    btoa,
    atob,
    crypto,
    TextEncoder,
    TextDecoder,
    Buffer,
    structuredClone,
    AbortController,
    AbortSignal,
    URL,
    URLSearchParams,
    util,
  };
});
