// The simulated memcached against the real one: random commands, one
// handler, both servers. A report of the commands whose replies differ,
// never a pass/fail.
//
//   scripts/services.sh up
//   node scripts/memcached-differential.mjs [FROM [TO [COMMANDS [CLIENT]]]]
//
// For each seed from FROM to TO (1 and 20 by default) it writes COMMANDS
// (60) random memjs calls over a few keys (get, set, add, replace,
// delete, increment and decrement with an initial value, append,
// prepend, touch; numbers, text and missing keys, expiries long enough
// that no clock decides a reply) into one handler that prints each reply,
// or its error, as memjs gives it. The handler runs in Node with memjs
// (scripts/differential.mjs installs it) against the memcached of
// `scripts/services.sh` (flushed for each seed), and under `interleave
// run --script` (the release CLI, built first); the replies are compared
// call by call. CLIENT `memcached` drives the `memcached` package (2.2)
// instead of memjs: numbers, JSON and text through its flags, `gets`
// then `cas`, `getMulti`.
//
// Seeds 1 to 400 (24,000 calls) of each client reply alike on memcached
// 1.6.18, but
// for replies the server itself gives two ways from run to run (a seed
// that differs runs again: scripts/differential.mjs); docs/scripting.md
// tells what it found.

import { compareCache, serviceUrl } from './differential.mjs';
import { xorshift } from '../tests/js/xorshift.mjs';

const [from = 1, to = 20, count = 60] = process.argv.slice(2, 5).map(Number);
const client = process.argv[5] || 'memjs';

export function commands(seed, n) {
  const below = xorshift(seed);
  const pick = (list) => list[below(list.length)];
  const chance = (p) => below(1000) < p * 1000;
  const key = () => pick(['a', 'b', 'n', 'gone']);
  const value = () => pick(['x', '10', '0', '-3', '3.5', '007', ' 5', '18446744073709551615', '', 'hello world']);
  const amount = () => pick([1, 2, 5, 100, 0]);
  const options = () => ({ initial: pick([0, 7, 10]), expires: pick([0, 100, 3600]) });
  const expires = () => (chance(0.5) ? [] : [{ expires: pick([0, 100, 3600]) }]);
  const command = () => {
    switch (below(11)) {
      case 0: case 1: return ['get', key()];
      case 2: return ['set', key(), value(), ...expires()];
      case 3: return ['add', key(), value(), ...expires()];
      case 4: return ['replace', key(), value(), ...expires()];
      case 5: return ['delete', key()];
      case 6: return ['increment', key(), amount(), options()];
      case 7: return ['decrement', key(), amount(), options()];
      case 8: return ['append', key(), value()];
      case 9: return ['prepend', key(), value()];
      default: return ['touch', key(), pick([0, 100, 3600])];
    }
  };
  return Array.from({ length: n }, command);
}

export function handler(list) {
  return `const memjs = require('memjs');
const client = memjs.Client.create(process.env.DIFFERENTIAL_MEMCACHED);
const commands = ${JSON.stringify(list)};
async function handle(req) {
  for (const [i, [name, ...args]] of commands.entries()) {
    try {
      const reply = await client[name](...args);
      const shown = reply && typeof reply === 'object' && 'flags' in reply
        ? { value: reply.value === null ? null : reply.value.toString(), flags: reply.flags === null ? null : reply.flags.toString() }
        : reply;
      console.log(i + ' ' + JSON.stringify(shown));
    } catch (e) {
      console.log(i + ' ERR ' + e.message);
    }
  }
}
module.exports = { handle };
`;
}

// The `memcached` package's calls (callbacks, lifetimes in seconds, values
// that keep their type through its flags): numbers, objects and text, a
// `cas` with the unique its `gets` just read, `getMulti`.
export function packageCommands(seed, n) {
  const below = xorshift(seed);
  const pick = (list) => list[below(list.length)];
  // `j` holds JSON alone: text appended to JSON makes the package throw
  // from its parser, out of any callback, in Node as in the model.
  const key = () => pick(['a', 'b', 'n', 'j', 'gone']);
  const text = () => pick(['a', 'b', 'n', 'gone']);
  const scalars = ['x', '10', '007', ' 5', '', 5, 42, 0, 1.5, -3, '18446744073709551615'];
  const value = (k) => (k === 'j' ? pick([{ a: 1 }, [1, 'b'], { n: null }, true]) : pick(scalars));
  const stored = (name) => { const k = key(); return [name, k, value(k)]; };
  const lifetime = () => pick([0, 100, 3600]);
  const amount = () => pick([1, 2, 5, 100, 0]);
  const command = () => {
    switch (below(13)) {
      case 0: case 1: return ['get', key()];
      case 2: return [...stored('set'), lifetime()];
      case 3: return [...stored('add'), lifetime()];
      case 4: return [...stored('replace'), lifetime()];
      case 5: return ['del', key()];
      case 6: return ['incr', key(), amount()];
      case 7: return ['decr', key(), amount()];
      case 8: return ['append', text(), pick(['x', '5', 5])];
      case 9: return ['prepend', text(), pick(['x', '5', 5])];
      case 10: return ['touch', key(), lifetime()];
      case 11: return [...stored('cas'), lifetime()];
      default: return ['getMulti', [key(), key()]];
    }
  };
  return Array.from({ length: n }, command);
}

export function packageHandler(list) {
  return `const Memcached = require('memcached');
const memcached = new Memcached(process.env.DIFFERENTIAL_MEMCACHED, { retries: 0 });
const call = (method, ...args) =>
  new Promise((resolve) => memcached[method](...args, (err, data) => resolve([err, data])));
const commands = ${JSON.stringify(list)};
const shown = ([err, data]) => (err ? 'ERR ' + err.message + (err.notStored ? ' (notStored)' : '') + ' ' : '')
  + (data === undefined ? 'undefined' : JSON.stringify(data));
async function handle(req) {
  for (const [i, [name, ...args]] of commands.entries()) {
    if (name === 'cas') {
      const [err, read] = await call('gets', args[0]);
      const reply = await call('cas', args[0], args[1], read ? read.cas : '1', args[2]);
      console.log(i + ' ' + (read ? JSON.stringify(read[args[0]]) : 'miss') + ' ' + shown(reply));
    } else {
      console.log(i + ' ' + shown(await call(name, ...args)));
    }
  }
  memcached.end();
}
module.exports = { handle };
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await compareCache({
    server: 'memcached',
    from,
    to,
    write: (seed) => (client === 'memjs' ? commands : packageCommands)(seed, count),
    handler: client === 'memjs' ? handler : packageHandler,
    // The real server, flushed before each seed's handler.
    prepare: "const prepared = require('memjs').Client.create(process.env.DIFFERENTIAL_MEMCACHED).flush();",
    env: { DIFFERENTIAL_MEMCACHED: serviceUrl('MEMCACHED').replace(/^memcache:\/\//, '') },
  });
}
