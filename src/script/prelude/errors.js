// The messages of the errors the engine throws, as V8 (Node 20) words
// them: a part of the prelude (prelude.js) that a realm runs the first
// time the engine throws one of the errors below. QuickJS-ng says
// "cannot read property 'x' of undefined" and "not a function" where
// Node says "Cannot read properties of undefined (reading 'x')" and
// "o.run is not a function"; a handler that logs or returns `e.message`
// shows Node's text here too.
//
// Most texts map one to one. Those that name an expression (what was
// called, what was iterated) read it from the script's source, at the
// position the engine gives the error (its first frame), and print it as
// V8's CallPrinter does: `o.a.b`, `o[k]`, `o[0]`, `fn(...).x`, `this.x`,
// a string key as `.key`. An expression this printer does not know keeps
// the engine's text.
"use strict";
(function ({ host }) {
  const source = String(host.code ?? "");
  // Where each line starts in the source.
  let lineStarts = null;
  function offsetOf(line, column) {
    if (lineStarts === null) {
      lineStarts = [0];
      for (let i = 0; i < source.length; i += 1) {
        if (source.charCodeAt(i) === 10) lineStarts.push(i + 1);
      }
    }
    if (!(line >= 1 && line <= lineStarts.length && column >= 1)) return -1;
    const offset = lineStarts[line - 1] + column - 1;
    return offset < source.length ? offset : -1;
  }

  const isIdentifierChar = (c) => c !== undefined && /[\p{ID_Continue}$\u200c\u200d]/u.test(c);
  const isSpace = (c) => c !== undefined && /\s/u.test(c);
  const KEYWORDS = new Set([
    "new", "await", "return", "typeof", "void", "delete", "in", "of", "instanceof", "case",
    "throw", "yield", "else", "do", "if", "while", "for", "switch", "catch", "with",
  ]);
  const CLOSERS = { "]": "[", ")": "(", "}": "{" };
  const OPENERS = { "[": "]", "(": ")", "{": "}" };

  // The end of the string literal opening at `at` (its quote), or -1.
  function stringEnd(at) {
    const quote = source[at];
    for (let i = at + 1; i < source.length; i += 1) {
      if (source[i] === "\\") i += 1;
      else if (source[i] === quote) return i;
      else if (source[i] === "\n" && quote !== "`") return -1;
    }
    return -1;
  }

  // The bracket matching the opener at `at`, forward, or -1.
  function matchForward(at) {
    const depth = [OPENERS[source[at]]];
    for (let i = at + 1; i < source.length; i += 1) {
      const c = source[i];
      if (c === '"' || c === "'" || c === "`") {
        i = stringEnd(i);
        if (i < 0) return -1;
      } else if (OPENERS[c]) depth.push(OPENERS[c]);
      else if (CLOSERS[c]) {
        if (depth.pop() !== c) return -1;
        if (depth.length === 0) return i;
      }
    }
    return -1;
  }

  // The bracket matching the closer at `at`, backward, or -1 (strings
  // inside are skipped when they hold no bracket of their own).
  function matchBackward(at) {
    const depth = [CLOSERS[source[at]]];
    for (let i = at - 1; i >= 0; i -= 1) {
      const c = source[i];
      if (c === '"' || c === "'" || c === "`") {
        const open = source.lastIndexOf(c, i - 1);
        if (open < 0) return -1;
        i = open;
      } else if (CLOSERS[c]) depth.push(CLOSERS[c]);
      else if (OPENERS[c]) {
        if (depth.pop() !== c) return -1;
        if (depth.length === 0) return i;
      }
    }
    return -1;
  }

  // From the error's position, inside a callee or an operand, forward to
  // the end of the expression it is part of: past the rest of its names,
  // dots and keys, and past the closers of groups it opened before the
  // position. The offset just after it.
  function expressionEnd(at) {
    let i = at;
    while (i < source.length) {
      const c = source[i];
      if (isIdentifierChar(c) || c === "." || isSpace(c)) i += 1;
      else if (c === "?" && source[i + 1] === ".") i += 2;
      else if (c === "[") {
        const end = matchForward(i);
        if (end < 0) return -1;
        i = end + 1;
      } else if (c === "]" || c === ")") {
        // A group or key opened before the position closes here; what
        // follows goes on with the expression, or this is not its closer.
        if (!/[([.?]/.test(source[skipSpace(i + 1)] ?? "")) break;
        i += 1;
      } else if (c === '"' || c === "'") {
        const end = stringEnd(i);
        if (end < 0) return -1;
        i = end + 1;
      } else break;
    }
    while (i > at && isSpace(source[i - 1])) i -= 1;
    return i;
  }

  // Backward from `end` (exclusive), the start of the member expression
  // ending there, and whether `new` stands before it.
  function expressionStart(end) {
    let i = end;
    for (;;) {
      i = skipSpaceBack(i);
      const c = source[i - 1];
      if (c === "]" || c === ")") {
        const open = matchBackward(i - 1);
        if (open < 0) return null;
        const before = skipSpaceBack(open);
        const prev = source[before - 1];
        const callOrKey = isIdentifierChar(prev) || prev === "]" || prev === ")" || prev === ".";
        if (c === "]" ? callOrKey : callOrKey && !keywordEndsAt(before)) {
          i = before;
          continue;
        }
        return { start: open, isNew: keywordEndsAt(before) === "new" };
      }
      if (!isIdentifierChar(c)) return null;
      let start = i - 1;
      while (start > 0 && isIdentifierChar(source[start - 1])) start -= 1;
      const before = skipSpaceBack(start);
      if (source[before - 1] === "." && source[before - 2] !== ".") {
        i = source[before - 2] === "?" ? before - 2 : before - 1;
        continue;
      }
      return { start, isNew: keywordEndsAt(before) === "new" };
    }
  }

  // The keyword that ends at `end`, if one does.
  function keywordEndsAt(end) {
    let start = end;
    while (start > 0 && isIdentifierChar(source[start - 1])) start -= 1;
    const word = source.slice(start, end);
    return KEYWORDS.has(word) ? word : undefined;
  }

  // V8's CallPrinter on the member expression `text`, or undefined if it
  // is not one this printer knows.
  function print(text) {
    const tokens = text.match(/\?\.|[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*|\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\S/gu);
    if (tokens === null) return undefined;
    let at = 0;
    const peek = () => tokens[at];
    const next = () => tokens[at++];
    function primary() {
      const token = next();
      if (token === undefined) return undefined;
      if (token === "(") {
        const inner = chain();
        return next() === ")" ? inner : undefined;
      }
      if (/^[\p{ID_Start}$_]/u.test(token) && !KEYWORDS.has(token)) return token;
      return undefined;
    }
    function key() {
      const token = next();
      if (token === undefined) return undefined;
      if (/^["']/.test(token)) {
        return next() === "]" ? `.${token.slice(1, -1)}` : undefined;
      }
      if (/^\d/.test(token)) return next() === "]" ? `[${token}]` : undefined;
      at -= 1;
      const inner = chain();
      return inner !== undefined && next() === "]" ? `[${inner}]` : undefined;
    }
    function chain() {
      let out = primary();
      while (out !== undefined) {
        const token = peek();
        if (token === "." || token === "?.") {
          next();
          if (token === "?." && peek() === "(") {
            next();
            if (!skipArguments()) return undefined;
            out += "?.(...)";
            continue;
          }
          const name = next();
          if (name === undefined || !/^[\p{ID_Start}$_]/u.test(name)) return undefined;
          out += `${token}${name}`;
        } else if (token === "[") {
          next();
          const k = key();
          if (k === undefined) return undefined;
          out += k;
        } else if (token === "(") {
          next();
          if (!skipArguments()) return undefined;
          out += "(...)";
        } else break;
      }
      return out;
    }
    function skipArguments() {
      let depth = 1;
      while (depth > 0) {
        const token = next();
        if (token === undefined) return false;
        if (token === "(" || token === "[" || token === "{") depth += 1;
        else if (token === ")" || token === "]" || token === "}") depth -= 1;
      }
      return true;
    }
    const printed = chain();
    return at === tokens.length ? printed : undefined;
  }

  // The member expression at the error's first frame, printed: the one
  // the position is in, or undefined.
  function expressionAt(site) {
    if (site === undefined || site.isNative() || site.getFileName() !== "code") return undefined;
    const at = offsetOf(site.getLineNumber(), site.getColumnNumber());
    if (at < 0) return undefined;
    const end = expressionEnd(at);
    if (end < 0) return undefined;
    const found = expressionStart(end);
    if (found === null || found.start > at) return undefined;
    const printed = print(source.slice(found.start, end));
    return printed === undefined ? undefined : { printed, start: found.start, end, isNew: found.isNew };
  }

  // What was called: the callee before the call's `(` the position
  // belongs to.
  function callee(site) {
    const found = expressionAt(site);
    if (found === undefined) return undefined;
    const after = skipSpace(found.end);
    if (source[after] === "(") return unambiguous({ ...found, open: after }, after);
    if (found.isNew && !/[.[]/.test(source[after])) return found;
    // The position is on an argument (the last operand the call
    // evaluated): the call is the one whose parentheses hold it.
    const open = enclosingCall(found.start, true);
    if (open < 0) return undefined;
    const end = skipSpaceBack(open);
    const start = expressionStart(end);
    if (start === null) return undefined;
    const printed = print(source.slice(start.start, end));
    if (printed === undefined) return undefined;
    return unambiguous({ printed, start: start.start, end, isNew: start.isNew, open }, open);
  }

  // Whether the call `found` makes is itself what is iterated (`for (… of
  // f())`, `[...f()]`, `[a] = f()`): V8 then says the callee "is not a
  // function or its return value is not iterable".
  function iteratesCall(found) {
    if (found.open === undefined) return false;
    const close = matchForward(found.open);
    if (close < 0 || /[.[(?]/.test(source[skipSpace(close + 1)] ?? "")) return false;
    return ["of", "spread", "pattern"].includes(operandOf(found.start));
  }

  // `found` called by the parentheses opening at `open`, unless the
  // position cannot tell that call from another: one that follows it
  // (`f()()`), or one it is an argument of with nothing after it that
  // the engine would mark (`o.run(f(x))`: had `o.run` failed, the
  // position would still be on `x`), unless that one is a global's
  // function, which did not fail (`console.log(o.get(x))`).
  function unambiguous(found, open) {
    let close = matchForward(open);
    if (close < 0 || source[skipSpace(close + 1)] === "(") return undefined;
    for (let outer = enclosingCall(open, true); outer >= 0; outer = enclosingCall(outer, true)) {
      const outerClose = matchForward(outer);
      if (outerClose < 0) return undefined;
      const after = source
        .slice(close + 1, outerClose)
        .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, "")
        .match(/[\p{ID_Start}$_][\p{ID_Continue}$]*/gu);
      if ((after ?? []).some((word) => !LITERALS.has(word))) return found;
      const start = expressionStart(skipSpaceBack(outer));
      if (start === null || !isGlobalFunction(source.slice(start.start, skipSpaceBack(outer)))) return undefined;
      close = outerClose;
    }
    return found;
  }
  const LITERALS = new Set(["true", "false", "null"]);

  // Whether the callee `text` is a function of the globals (`console.log`,
  // `JSON.stringify`, `String`) the script does not bind a name over:
  // its first name stands only before a `.`, `?.` or `(` (not in `const
  // console =`, `{ console }`, `(console) =>`).
  function isGlobalFunction(text) {
    const path = text.split(".");
    if (!path.every((name) => /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name))) return false;
    const root = path[0];
    for (let at = source.indexOf(root); at >= 0; at = source.indexOf(root, at + 1)) {
      const end = at + root.length;
      if (isIdentifierChar(source[at - 1]) || isIdentifierChar(source[end]) || (source[at - 1] === "." && source[at - 2] !== ".")) continue;
      if (!/^(?:\.|\?\.|\()/.test(source.slice(skipSpace(end), skipSpace(end) + 2))) return false;
    }
    let value = globalThis;
    for (const name of path) {
      if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
      let property;
      for (let o = value; o !== null && property === undefined; o = Object.getPrototypeOf(o)) {
        property = Object.getOwnPropertyDescriptor(o, name);
      }
      if (property === undefined || !("value" in property)) return false;
      value = property.value;
    }
    return typeof value === "function";
  }

  // The `(` of the call whose arguments hold `at`, or -1; through array
  // and object literals too when `throughLiterals` (not through a
  // function's body, whose code runs in a call of its own).
  function enclosingCall(at, throughLiterals = false) {
    for (let i = at - 1; i >= 0; i -= 1) {
      const c = source[i];
      if (CLOSERS[c]) {
        i = matchBackward(i);
        if (i < 0) return -1;
      } else if (c === ";") return -1;
      else if (c === "{" && source[i - 1] === "$") {
        // A template's substitution: on before the template.
        i = source.lastIndexOf("`", i);
        if (i < 0) return -1;
      } else if (c === "[" || c === "{") {
        const before = skipSpaceBack(i);
        const literal = c === "[" || /[(,:[=]/.test(source[before - 1] ?? "");
        if (!throughLiterals || !literal) return -1;
      } else if (c === "(") {
        const before = skipSpaceBack(i);
        const prev = source[before - 1];
        const call = (isIdentifierChar(prev) && !keywordEndsAt(before)) || prev === ")" || prev === "]";
        return call ? i : -1;
      }
    }
    return -1;
  }

  const skipSpace = (at) => {
    let i = at;
    while (isSpace(source[i])) i += 1;
    return i;
  };
  // Back from `at` past the spaces before it.
  function skipSpaceBack(at) {
    let i = at;
    while (i > 0 && isSpace(source[i - 1])) i -= 1;
    return i;
  }

  // What stands before an operand starting at `start`: `of` (`for (… of
  // X)`), a spread (`...X`, in a call's arguments or not), or an
  // assignment (`= X`, `[a] = X` when `pattern`), else undefined.
  function operandOf(start) {
    const before = skipSpaceBack(start);
    if (keywordEndsAt(before) === "of") return "of";
    if (source.slice(before - 3, before) === "...") return enclosingCall(before - 3) >= 0 ? "call spread" : "spread";
    if (source[before - 1] !== "=" || /[=!<>+\-*/%&|^]/.test(source[before - 2])) return undefined;
    return source[skipSpaceBack(before - 1) - 1] === "]" ? "pattern" : "assigned";
  }

  // What was iterated: the operand of `for (… of X)`, a spread `...X` or
  // an array pattern's value (`[a] = X`), where the position is on it.
  function iterated(site) {
    const found = expressionAt(site);
    const operand = found && operandOf(found.start);
    if (operand === undefined) return undefined;
    return { printed: found.printed, inCall: operand === "call spread" };
  }

  const BY_TEXT = new Map([
    ["BigInt are forbidden in JSON.stringify", "Do not know how to serialize a BigInt"],
    ["cannot convert symbol to string", "Cannot convert a Symbol value to a string"],
    ["invalid array length", "Invalid array length"],
    ["empty array", "Reduce of empty array with no initial value"],
    ["invalid value used as WeakMap key", "Invalid value used as weak map key"],
    ["invalid value used as WeakSet key", "Invalid value used in weak set"],
    ["Date value is NaN", "Invalid time value"],
  ]);
  const URI_TEXT = /^(?:expecting (?:%|hex digit|surrogate pair)|malformed UTF-8|invalid character)$/;
  const DIGITS = {
    toFixed: "toFixed() digits argument must be between 0 and 100",
    toPrecision: "toPrecision() argument must be between 1 and 100",
    toExponential: "toExponential() argument must be between 0 and 100",
  };

  // V8's message for `error`, thrown at `sites` (its frames), or
  // undefined to keep the engine's.
  function v8Message(error, sites) {
    const message = error.message;
    const top = sites[0];
    const fromCode = top !== undefined && !top.isNative();
    let match;
    if ((match = /^cannot read property '(.*)' of (undefined|null)$/s.exec(message))) {
      const [, name, value] = match;
      if (name === "Symbol.iterator") {
        if (!fromCode) return `${value} is not iterable (cannot read property Symbol(Symbol.iterator))`;
        const found = iterated(top);
        if (found === undefined) return `${value} is not iterable`;
        return `${found.printed} is not iterable${found.inCall ? ` (cannot read property ${value})` : ""}`;
      }
      return `Cannot read properties of ${value} (reading '${name}')`;
    }
    if ((match = /^cannot set property '(.*)' of (undefined|null)$/s.exec(message))) {
      return `Cannot set properties of ${match[2]} (setting '${match[1]}')`;
    }
    if (message === "not a function" || message === "not a constructor") {
      const found = callee(top);
      if (found === undefined) return undefined;
      if (found.isNew) return `${found.printed} is not a constructor`;
      const iterable = iteratesCall(found) ? " or its return value is not iterable" : "";
      return `${found.printed} is not a function${iterable}`;
    }
    if (message === "value is not iterable" && fromCode) {
      const found = iterated(top);
      if (found === undefined) return undefined;
      return found.inCall ? "Spread syntax requires ...iterable[Symbol.iterator] to be a function" : `${found.printed} is not iterable`;
    }
    if ((match = /^(.*) is not initialized$/s.exec(message)) && error instanceof ReferenceError) {
      return `Cannot access '${match[1]}' before initialization`;
    }
    if ((match = /^'(.*)' is read-only$/s.exec(message)) && fromCode) {
      // A binding (`c = 2` to a const) rather than a property.
      const at = offsetOf(top.getLineNumber(), top.getColumnNumber());
      const before = skipSpaceBack(at);
      const name = match[1];
      if (at >= 0 && source.startsWith(name, at) && source[before - 1] !== "." && !isIdentifierChar(source[at + name.length])) {
        return "Assignment to constant variable.";
      }
      return undefined;
    }
    if (message === "class constructors must be invoked with 'new'") {
      return `Class constructor ${top?.getFunctionName() ?? ""} cannot be invoked without 'new'`;
    }
    if (message === "cannot convert BigInt to number") {
      return fromCode ? "Cannot mix BigInt and other types, use explicit conversions" : "Cannot convert a BigInt value to a number";
    }
    if (message === "invalid number of digits") return DIGITS[top?.getFunctionName()];
    if (error instanceof URIError && URI_TEXT.test(message)) return "URI malformed";
    return BY_TEXT.get(message);
  }

  return { v8Message };
});
