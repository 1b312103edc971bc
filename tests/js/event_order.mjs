// Random event-loop programs whose order of `console.log` lines is the same
// on every run of real Node, and that order, for tests/event_order.rs.
//
//   node tests/js/event_order.mjs FROM TO
//
// prints one JSON line per seed from FROM to TO: `{ seed, code, node }`,
// where `node` is the lines the program printed when Node ran it (a child
// process each, a few at once), each as `[line, ms]`: the milliseconds
// since the program started, which tell a run that kept time from one
// that ran late. The programs mix what SCRIPTING.md §1 and
// §3 promise to order as Node does: promise chains, `await` of values,
// thenables, settled and pending promises, async functions, a promise
// resolved with a promise, `Promise.all`/`race`/`allSettled`,
// `queueMicrotask`, rejections caught with `catch` and `finally`,
// `Promise.any`, `finally` that waits, async generators with `for await`,
// an async function that returns a promise or a thenable, a thenable that
// resolves later, `await` in `finally`, a timer's extra arguments, `EventEmitter`'s `on`/`once`/`emit`,
// `setTimeout`/`setInterval` (cleared or not), `setImmediate`,
// `process.nextTick` (with arguments), `timers/promises`' `setTimeout`,
// a `Promise.race` that a timer loses, `events.once`, nested to four
// levels; every third program is an ES module, the others CommonJS.
//
// Real Node's timers run on the wall clock, so two timers due within a few
// milliseconds of each other may run in either order from one run to the
// next (a callback runs late, an interval re-arms late). The generator
// knows the simulated time at which each callback runs, and gives every
// timer a delay that makes it due at least GAP_MS apart from every other
// timer's firing: the order then depends only on the event loop's rules,
// never on how fast the machine is.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { xorshift } from './xorshift.mjs';

const GAP_MS = 25;
const STATEMENTS = 25;
const AT_ONCE = 4;

export function generate(seed) {
  const pick = xorshift(seed);
  let next = 0;
  let left = STATEMENTS;
  // Every time at which a timer fires (ms of simulated time).
  const firings = [];
  const free = (due) => firings.every((other) => Math.abs(other - due) >= GAP_MS);
  // A delay from `now` whose firings (`times` of them, each `delay` after
  // the last, as an interval re-arms) are all free; they are taken.
  const delay = (now, times = 1) => {
    let ms = 20 + pick(120);
    const dues = () => Array.from({ length: times }, (_, k) => now + ms * (k + 1));
    while (!dues().every(free)) ms += 7;
    firings.push(...dues());
    return ms;
  };

  // Statements that run at simulated time `now`, `depth` levels down.
  function block(now, depth) {
    const out = [];
    // The top level goes on until the program has its statements.
    const count = depth === 0 ? STATEMENTS : 1 + pick(3);
    for (let i = 0; i < count && left > 0; i += 1) out.push(statement(now, depth));
    return out.join('\n');
  }

  function statement(now, depth) {
    left -= 1;
    const label = `L${next}`;
    next += 1;
    const log = `console.log('${label}');`;
    if (depth > 3) return log;
    const inner = (at = now) => block(at, depth + 1);
    // A value to await from time `from`, and the time at which the await
    // resumes.
    const awaited = (from) => {
      const values = [
        'null',
        'Promise.resolve()',
        '{ then(resolve) { resolve(); } }',
        'new Promise((resolve) => setImmediate(resolve))',
        'new Promise((resolve) => resolve(Promise.resolve()))',
        'Promise.all([Promise.resolve(), null])',
        'Promise.race([new Promise(() => {}), Promise.resolve()])',
        'Promise.allSettled([Promise.reject(new Error("r"))])',
        '(async () => {})()',
      ];
      if (pick(4) === 0) {
        const ms = delay(from);
        return [`new Promise((resolve) => setTimeout(resolve, ${ms}))`, from + ms];
      }
      return [values[pick(values.length)], from];
    };
    switch (pick(28)) {
      case 0:
        return log;
      case 1: {
        const ms = delay(now);
        return `setTimeout(() => { ${log}\n${inner(now + ms)} }, ${ms});`;
      }
      case 2:
        return `setImmediate(() => { ${log}\n${inner()} });`;
      case 3:
        return `queueMicrotask(() => { ${log}\n${inner()} });`;
      case 4:
        return `Promise.resolve().then(() => { ${log}\n${inner()} });`;
      case 5:
        return `Promise.reject(new Error('x')).catch(() => { ${log}\n${inner()} }).finally(() => console.log('${label}f'));`;
      case 6: {
        const [first, at] = awaited(now);
        const body = inner(at);
        // The second await starts once the first has resumed.
        const [second] = awaited(at);
        return `(async () => { ${log}\nawait ${first};\nconsole.log('${label}b');\n${body}\nawait ${second};\nconsole.log('${label}c'); })();`;
      }
      case 7:
        return `new Promise((resolve) => resolve(Promise.resolve())).then(() => { ${log}\n${inner()} });`;
      case 8:
        return `Promise.all([Promise.resolve(1), new Promise((resolve) => queueMicrotask(resolve))]).then(() => { ${log}\n${inner()} });`;
      case 9: {
        // Cleared at once: it never fires, and takes no time.
        if (pick(2) === 0) {
          return `{ const t = setTimeout(() => console.log('${label}never'), ${20 + pick(100)}); clearTimeout(t); ${log} }`;
        }
        const ms = delay(now);
        return `{ setTimeout(() => console.log('${label}t'), ${ms}); ${log} }`;
      }
      case 10: {
        const times = 1 + pick(3);
        const ms = delay(now, times);
        return `{ let n = 0; const iv = setInterval(() => { console.log('${label}i' + n); if (++n === ${times}) clearInterval(iv); }, ${ms}); }`;
      }
      case 11:
        return `(async function () { try { ${log} await Promise.reject(new Error('e')); } catch { console.log('${label}catch'); } finally { console.log('${label}fin'); } })();`;
      case 12:
        return `Promise.resolve().then(() => console.log('${label}a')).then(() => { ${log}\n${inner()} }).then(() => console.log('${label}z'));`;
      case 14:
        return `(async () => { async function* gen() { yield 1; await null; yield 2; } for await (const v of gen()) { console.log('${label}g' + v); } ${log}\n${inner()} })();`;
      case 15:
        return `Promise.any([Promise.reject(new Error('a')), Promise.resolve()]).then(() => { ${log}\n${inner()} });`;
      case 16: {
        const value = ['Promise.resolve(1)', 'await Promise.resolve(1)', '{ then(resolve) { resolve(1); } }', '1'][pick(4)];
        return `(async () => { return ${value}; })().then(() => { ${log}\n${inner()} });`;
      }
      case 17:
        return `{ const e = new EventEmitter(); e.once('go', () => { ${log}\n${inner()} }); e.on('go', () => console.log('${label}on')); e.emit('go'); e.emit('go'); }`;
      case 18: {
        const ms = delay(now);
        return `setTimeout((first, second) => { console.log(first + second); ${log}\n${inner(now + ms)} }, ${ms}, '${label}', 'x');`;
      }
      case 19:
        return `Promise.resolve().finally(() => new Promise((resolve) => setImmediate(resolve))).then(() => { ${log}\n${inner()} });`;
      case 20:
        return `(async () => { try { await null; throw new Error('t'); } finally { await null; console.log('${label}fin'); } })().catch(() => { ${log}\n${inner()} });`;
      case 21:
        return `Promise.all([1, 2, 3].map(async (n) => { await null; console.log('${label}m' + n); })).then(() => { ${log}\n${inner()} });`;
      case 22:
        return `Promise.resolve({ then(resolve) { setImmediate(() => resolve()); } }).then(() => { ${log}\n${inner()} });`;
      case 23:
        return `process.nextTick(() => { ${log}\n${inner()} });`;
      case 24:
        return `process.nextTick((first, second) => { console.log(first + second); ${log}\n${inner()} }, '${label}', 'n');`;
      case 25: {
        const ms = delay(now);
        return `(async () => { ${log}\nawait delayed(${ms});\nconsole.log('${label}d');\n${inner(now + ms)} })();`;
      }
      case 26: {
        // The timer loses the race and still fires.
        const ms = delay(now);
        return `Promise.race([delayed(${ms}).then(() => console.log('${label}slow')), Promise.resolve().then(() => console.log('${label}fast'))]).then(() => { ${log}\n${inner()} });`;
      }
      case 27:
        return `{ const e = new EventEmitter(); once(e, 'go').then(([v]) => { console.log(v); ${log}\n${inner()} }); e.emit('go', '${label}v'); e.emit('go', '${label}w'); }`;
      default:
        return `{ const p = new Promise((resolve) => setImmediate(() => resolve('${label}v'))); p.then((v) => { console.log(v); ${inner()} }); }`;
    }
  }

  const body = block(0, 0);
  // The simulated run lasts while its one request does: past every timer.
  const end = Math.max(0, ...firings) + 1000;
  const wait = `async function handle(req) { await new Promise((resolve) => setTimeout(resolve, ${end})); }`;
  // Every third program is an ES module: Node runs its top level inside a
  // microtask, so its promise jobs run before its `process.nextTick`s.
  if (isModule(seed)) {
    return `import { EventEmitter, once } from 'node:events';\nimport { setTimeout as delayed } from 'node:timers/promises';\n${body}\nexport ${wait}\n`;
  }
  return `const { EventEmitter, once } = require('node:events');\nconst { setTimeout: delayed } = require('node:timers/promises');\n${body}\n${wait}\n`;
}

const isModule = (seed) => seed % 3 === 0;

// Node's lines for `code`.
// Each line with its time, kept until the program ends (writing to stdout
// as it runs would slow its first lines), on the program's first line (its
// lines keep their numbers). The modules a program takes load first.
// (An ES module's imports load before any of its code.)
const STAMPED =
  'const __lines = []; const __start = performance.now(); ' +
  'console.log = (...words) => __lines.push([words.join(" "), performance.now() - __start]); ' +
  'process.on("exit", () => process.stdout.write(JSON.stringify(__lines))); ';

function onNode(code, dir, seed) {
  const module = isModule(seed);
  const file = join(dir, `program-${seed}.${module ? 'mjs' : 'cjs'}`);
  writeFileSync(file, (module ? '' : 'require("node:events"); require("node:timers/promises"); ') + STAMPED + code);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], (error, stdout, stderr) => {
      if (error) reject(new Error(`seed ${seed}: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const from = Number(process.argv[2]);
  const to = Number(process.argv[3]);
  const dir = mkdtempSync(join(tmpdir(), 'event-order-'));
  try {
    const seeds = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const results = new Map();
    let at = 0;
    const worker = async () => {
      while (at < seeds.length) {
        const seed = seeds[at];
        at += 1;
        const code = generate(seed);
        results.set(seed, { seed, code, node: await onNode(code, dir, seed) });
      }
    };
    await Promise.all(Array.from({ length: AT_ONCE }, worker));
    for (const seed of seeds) console.log(JSON.stringify(results.get(seed)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
