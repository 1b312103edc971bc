// 400 random sorted-set commands (ZADD with every option, ZINCRBY, ZREM,
// ZREMRANGEBYSCORE/RANK, ZRANGE BYSCORE/REV/LIMIT/WITHSCORES, ZREVRANGE,
// ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZCOUNT, ZSCORE, ZMSCORE, ZRANK,
// ZREVRANK, ZCARD) on two keys, errors included. sorted_sets_random.out
// is what ioredis 5.8 printed for it on a real Redis 7.0 (Debian's), with
// `new Redis({ port })`: tests/scripts.rs runs it on the simulation.
import Redis from 'ioredis';
const show = (v) => JSON.stringify(v, (k, x) => (x instanceof Error ? `${x.name}: ${x.message}` : x));
const t = async (f) => { try { return show(await f()); } catch (e) { return `${e.constructor.name}: ${e.message}`; } };
export async function handle() {
const r = new Redis();
let seed = 7;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rnd() * a.length)];
const members = ['a', 'b', 'c', 'd', 'e', 'B', '10', '2'];
const scores = [0, 1, -1, 2.5, 0.1, 1e21, '+inf', '-inf', 3, 3, '1e3', 'x', 1.5, -0.25, 100];
const bounds = ['-inf', '+inf', '(1', 1, '(2.5', 3, 0, '(0', -1, 'z', 100, '(inf'];
const flags = [[], [], ['NX'], ['XX'], ['CH'], ['GT'], ['LT'], ['XX', 'CH'], ['GT', 'CH'], ['INCR'], ['NX', 'INCR'], ['XX', 'GT'], ['NX', 'XX']];
const lines = [];
for (let i = 0; i < 400; i++) {
  const k = pick(['z1', 'z2']);
  const op = pick(['zadd', 'zadd', 'zadd', 'zincrby', 'zrem', 'zremrangebyscore', 'zremrangebyrank', 'zrange', 'zrangews', 'zrangebyscore', 'zrevrangebyscore', 'zcount', 'zscore', 'zrank', 'zrevrank', 'zcard', 'zrangeby', 'zrevrange', 'zmscore']);
  let res;
  switch (op) {
    case 'zadd': { const f = pick(flags); const n = f.includes('INCR') ? 1 : 1 + Math.floor(rnd() * 3); const args = []; for (let j = 0; j < n; j++) args.push(pick(scores), pick(members)); res = await t(() => r.zadd(k, ...f, ...args)); break; }
    case 'zincrby': res = await t(() => r.zincrby(k, pick(scores), pick(members))); break;
    case 'zrem': res = await t(() => r.zrem(k, pick(members), pick(members))); break;
    case 'zremrangebyscore': res = await t(() => r.zremrangebyscore(k, pick(bounds), pick(bounds))); break;
    case 'zremrangebyrank': res = await t(() => r.zremrangebyrank(k, pick([0, 1, -1, -2, 5]), pick([0, 1, -1, 3, 10]))); break;
    case 'zrange': res = await t(() => r.zrange(k, pick([0, 1, -1, -3, 2]), pick([0, -1, 2, 5, -2]))); break;
    case 'zrangews': res = await t(() => r.zrange(k, pick([0, 1, -2]), pick([-1, 3]), 'WITHSCORES')); break;
    case 'zrevrange': res = await t(() => r.zrevrange(k, pick([0, 1]), pick([-1, 2]), ...pick([[], ['WITHSCORES']]))); break;
    case 'zrangebyscore': res = await t(() => r.zrangebyscore(k, pick(bounds), pick(bounds), ...pick([[], ['WITHSCORES'], ['LIMIT', 1, 2], ['WITHSCORES', 'LIMIT', 0, -1], ['LIMIT', -1, 2]]))); break;
    case 'zrevrangebyscore': res = await t(() => r.zrevrangebyscore(k, pick(bounds), pick(bounds), ...pick([[], ['WITHSCORES'], ['LIMIT', 1, 1]]))); break;
    case 'zrangeby': res = await t(() => r.zrange(k, pick(bounds), pick(bounds), ...pick([['BYSCORE'], ['BYSCORE', 'REV'], ['BYSCORE', 'LIMIT', 1, 2], ['REV'], ['LIMIT', 0, 1], ['BYSCORE', 'WITHSCORES', 'REV', 'LIMIT', 0, 2]]))); break;
    case 'zcount': res = await t(() => r.zcount(k, pick(bounds), pick(bounds))); break;
    case 'zscore': res = await t(() => r.zscore(k, pick(members))); break;
    case 'zmscore': res = await t(() => r.zmscore(k, pick(members), pick(members))); break;
    case 'zrank': res = await t(() => r.zrank(k, pick(members))); break;
    case 'zrevrank': res = await t(() => r.zrevrank(k, pick(members))); break;
    case 'zcard': res = await t(() => r.zcard(k)); break;
  }
  lines.push(i + ' ' + op + ' ' + res);
}
lines.push('final ' + await t(() => r.zrange('z1', 0, -1, 'WITHSCORES')) + ' ' + await t(() => r.zrange('z2', 0, -1, 'WITHSCORES')));
console.log(lines.join('\n'));
}
