// What the differential tools share (scripts/sql-differential.mjs,
// scripts/redis-differential.mjs, scripts/memcached-differential.mjs):
// each writes random operations into one handler, runs it on the model
// and on the real server of `scripts/services.sh`, and prints the
// operations whose replies differ. A report, never a pass/fail.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

// A real server's URL (`POSTGRES`, `REDIS` or `MEMCACHED`), as
// scripts/services.sh wrote it.
export function serviceUrl(name) {
  const variable = `INTERLEAVE_${name}_URL`;
  if (process.env[variable]) return process.env[variable];
  const dir = process.env.INTERLEAVE_SERVICES_DIR || '/tmp/interleave-services';
  const env = join(dir, 'env');
  if (existsSync(env)) {
    const found = readFileSync(env, 'utf8').match(new RegExp(`${variable}=(\\S+)`));
    if (found) return found[1];
  }
  throw new Error(`no ${name}: run scripts/services.sh up`);
}

// The client libraries the handlers use in Node (pg, ioredis, memjs,
// memcached), in
// a cache directory of their own, not the project's node_modules (the
// app's tools do not need them): that directory's node_modules.
export function clientModules() {
  const cache = join(process.env.XDG_CACHE_HOME || join(process.env.HOME, '.cache'), 'interleave-differential');
  const wanted = ['pg@8', 'ioredis@5', 'memjs@1', 'memcached@2'];
  if (!wanted.every((name) => existsSync(join(cache, 'node_modules', name.split('@')[0])))) {
    mkdirSync(cache, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--prefix', cache, ...wanted], { stdio: 'inherit' });
  }
  return join(cache, 'node_modules');
}

// The release CLI, built first (it is what a user runs).
export function releaseCli() {
  execFileSync('cargo', ['build', '--release', '--bin', 'interleave'], { cwd: root, stdio: 'inherit' });
  return join(process.env.CARGO_TARGET_DIR || join(root, 'target'), 'release', 'interleave');
}

// A scratch directory for the handler and its schema.
export function scratch(name) {
  const dir = join(process.env.TMPDIR || '/tmp', `interleave-${name}-differential`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

// The lines `code` logs as one request on the model (`schema`: its SQL).
export function onModel(cli, dir, code, schema = null) {
  const script = join(dir, 'handler.js');
  writeFileSync(script, code);
  const args = ['run', '--trace', '--script', script];
  if (schema !== null) {
    writeFileSync(join(dir, 'schema.sql'), schema);
    args.push('--schema', join(dir, 'schema.sql'));
  }
  args.push('v=1&scenario=script&users=1&clicks=1');
  const trace = execFileSync(cli, args, { maxBuffer: 1 << 28 }).toString();
  return trace.split('\n').filter(Boolean).map((line) => JSON.parse(line))
    .filter((event) => event.what === 'log' && event.message).map((event) => event.message);
}

// The lines `code` logs in Node, its `handle` called once after `prepare`
// (code run first, with the client libraries resolvable), `env` added.
export function onNode(dir, code, prepare, env) {
  const script = join(dir, 'handler.js');
  writeFileSync(script, code);
  const run = `${prepare}
Promise.resolve(prepared).then(() => require(${JSON.stringify(script)}).handle({}))
  .then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
  const out = execFileSync(process.execPath, ['-e', run], {
    env: { ...process.env, NODE_PATH: clientModules(), ...env },
    maxBuffer: 1 << 28,
  }).toString();
  return out.split('\n').filter(Boolean);
}

// Each line that starts with an operation's index (`3 …`), by index: a
// line a library logs by itself (memjs's logger) is no reply.
const byIndex = (lines) => {
  const replies = new Map();
  for (const line of lines) {
    const found = line.match(/^(\d+) /);
    if (found && !replies.has(Number(found[1]))) replies.set(Number(found[1]), line);
  }
  return replies;
};

// For each seed from `from` to `to`: its operations (`write(seed)`), the
// real server's lines and the model's (`run(seed, list)`), compared by
// operation; prints each operation whose reply differs, then the count.
// With `again(seed, list)` (the real server's lines once more), a seed
// that differs is run again on the server, up to four times: an
// operation the server itself answered two ways is counted apart, as the server's own
// nondeterminism, not the model's difference.
export async function compare(from, to, noun, write, run, again = null) {
  let differ = 0;
  let unstable = 0;
  let total = 0;
  for (let seed = from; seed <= to; seed += 1) {
    const list = write(seed);
    const replies = await run(seed, list);
    const [real, model] = [byIndex(replies.real), byIndex(replies.model)];
    const differing = list.map((_, i) => i).filter((i) => real.get(i) !== model.get(i));
    const reruns = [];
    const settled = () => differing.every((i) => reruns.some((rerun) => rerun.get(i) !== real.get(i)));
    while (differing.length && again && reruns.length < 4 && !settled()) reruns.push(byIndex(await again(seed, list)));
    for (const [i, operation] of list.entries()) {
      total += 1;
      if (!differing.includes(i)) continue;
      const shown = typeof operation === 'string' ? operation : JSON.stringify(operation);
      const other = reruns.map((rerun) => rerun.get(i)).find((reply) => reply !== real.get(i));
      if (other !== undefined) {
        unstable += 1;
        console.log(`seed ${seed} #${i}: ${shown}\n  real:  ${real.get(i)}\n  again: ${other}\n  model: ${model.get(i)}`);
      } else {
        differ += 1;
        console.log(`seed ${seed} #${i}: ${shown}\n  real:  ${real.get(i)}\n  model: ${model.get(i)}`);
      }
    }
  }
  const apart = again ? `, ${unstable} more the server answered two ways` : '';
  console.log(`${total} ${noun}, ${differ} with another reply${apart}`);
}

// The whole report for a cache: the real server's lines (Node, the
// handler after `prepare`, which empties the server) against the model's,
// seed by seed.
export async function compareCache({ server, from, to, write, handler, prepare, env }) {
  clientModules();
  const cli = releaseCli();
  const dir = scratch(server);
  const real = (seed, list) => onNode(dir, handler(list), prepare, env);
  await compare(from, to, 'commands', write, (seed, list) => ({
    real: real(seed, list),
    model: onModel(cli, dir, handler(list)),
  }), real);
}
