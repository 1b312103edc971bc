// The simulated Redis against the real one: random commands, one handler,
// both servers. A report of the commands whose replies differ, never a
// pass/fail.
//
//   scripts/services.sh up
//   node scripts/redis-differential.mjs [FROM [TO [COMMANDS]]]
//
// For each seed from FROM to TO (1 and 20 by default) it writes COMMANDS
// (60) random commands over a few keys (strings, counters, hashes, sets,
// lists and sorted sets, a key sometimes of the wrong type, MULTI/EXEC,
// with expiries long enough that no clock decides a reply) into one
// handler that prints each reply, or its error, as ioredis gives it. The
// handler runs in Node with ioredis (scripts/differential.mjs installs it
// into a cache directory of its own) against the Redis of
// `scripts/services.sh` (flushed for each seed), and under `interleave run
// --script` (the release CLI, built first); the replies are compared line
// by line. Replies Redis gives in no set order
// (SMEMBERS, KEYS, SUNION and the like) are sorted first.

import { compareCache, serviceUrl } from './differential.mjs';
import { xorshift } from '../tests/js/xorshift.mjs';

const [from = 1, to = 20, count = 60] = process.argv.slice(2).map(Number);

// Commands whose reply is a set: printed sorted.
const UNORDERED = new Set(['smembers', 'keys', 'sunion', 'sinter', 'sdiff', 'hkeys', 'hvals']);

export function commands(seed, n) {
  const below = xorshift(seed);
  const pick = (list) => list[below(list.length)];
  const chance = (p) => below(1000) < p * 1000;
  // Mostly a key of the command's type, now and then any.
  const key = (kind) => (chance(0.15) ? pick(['s1', 's2', 'n', 'h', 'set', 'l', 'z', 'gone']) : pick(kind));
  const str = ['s1', 's2', 'n', 'gone'];
  const value = () => pick(['a', 'b', '10', '-3', '3.5', '', 'x y', '0', '007', '1e3', '9223372036854775807']);
  const int = () => pick(['1', '2', '-1', '0', '5', '100', '-20', '1.5', 'x']);
  const float = () => pick(['1.5', '-0.25', '2', '1e2', '0.1', 'inf', 'x', '3.0']);
  const ttl = () => pick(['100', '3600', '86400']);
  const field = () => pick(['f1', 'f2', 'f3', 'n']);
  const member = () => pick(['m1', 'm2', 'm3', '1', '2', '10']);
  const score = () => pick(['1', '2', '2.5', '-1', '0', '10', '+inf', '-inf']);
  const bound = () => pick(['1', '2', '(1', '(2', '-inf', '+inf', '0', '2.5']);
  const index = () => pick(['0', '1', '-1', '-2', '2', '5', '-10']);
  const command = () => {
    switch (below(72)) {
      case 0: return ['set', key(str), value()];
      case 1: return ['set', key(str), value(), pick(['EX', 'PX']), pick(['100000', '3600']), ...(chance(0.5) ? [pick(['NX', 'XX'])] : [])];
      case 2: return ['set', key(str), value(), pick(['NX', 'XX', 'GET', 'KEEPTTL'])];
      case 3: return ['get', key(str)];
      case 4: return ['incr', key(str)];
      case 5: return ['incrby', key(str), int()];
      case 6: return ['decrby', key(str), int()];
      case 7: return ['incrbyfloat', key(str), float()];
      case 8: return ['append', key(str), value()];
      case 9: return ['strlen', key(str)];
      case 10: return ['exists', key(str), ...(chance(0.5) ? [key(str)] : [])];
      case 11: return ['del', key(str), ...(chance(0.3) ? [key(str)] : [])];
      case 12: return ['expire', key(str), ttl()];
      case 13: return ['ttl', key(str)];
      case 14: return ['persist', key(str)];
      case 15: return ['type', key(str)];
      case 16: return ['getset', key(str), value()];
      case 17: return ['getdel', key(str)];
      case 18: return ['setnx', key(str), value()];
      case 19: return ['mget', key(str), key(str), 'gone'];
      case 20: return ['mset', key(str), value(), key(str), value()];
      case 21: return ['rename', key(str), key(str)];
      case 22: return ['renamenx', key(str), key(str)];
      case 23: return ['hset', key(['h']), field(), value(), ...(chance(0.4) ? [field(), value()] : [])];
      case 24: return ['hget', key(['h']), field()];
      case 25: return ['hgetall', key(['h'])];
      case 26: return ['hincrby', key(['h']), field(), int()];
      case 27: return ['hincrbyfloat', key(['h']), field(), float()];
      case 28: return ['hdel', key(['h']), field(), ...(chance(0.3) ? [field()] : [])];
      case 29: return [pick(['hlen', 'hkeys', 'hvals']), key(['h'])];
      case 30: return chance(0.5) ? ['hexists', key(['h']), field()] : ['hsetnx', key(['h']), field(), value()];
      case 31: return ['hmget', key(['h']), field(), field()];
      case 32: return ['sadd', key(['set']), member(), ...(chance(0.5) ? [member()] : [])];
      case 33: return ['srem', key(['set']), member()];
      case 34: return [pick(['smembers', 'scard']), key(['set'])];
      case 35: return ['sismember', key(['set']), member()];
      case 36: return ['smismember', key(['set']), member(), member()];
      case 37: return [pick(['lpush', 'rpush']), key(['l']), value(), ...(chance(0.4) ? [value()] : [])];
      case 38: return [pick(['lpop', 'rpop']), key(['l']), ...(chance(0.3) ? [pick(['0', '1', '2', '5'])] : [])];
      case 39: return ['lrange', key(['l']), index(), index()];
      case 40: return ['llen', key(['l'])];
      case 41: return ['lindex', key(['l']), index()];
      case 42: return ['ltrim', key(['l']), index(), index()];
      case 43: return ['lrem', key(['l']), pick(['0', '1', '-1', '2']), value()];
      case 44: return ['lset', key(['l']), index(), value()];
      case 45: return ['lmove', key(['l']), key(['l', 'l2']), pick(['LEFT', 'RIGHT']), pick(['LEFT', 'RIGHT'])];
      case 46: return ['zadd', key(['z']), ...(chance(0.3) ? [pick(['NX', 'XX', 'GT', 'LT', 'CH'])] : []), score(), member(), ...(chance(0.4) ? [score(), member()] : [])];
      case 47: return ['zincrby', key(['z']), score(), member()];
      case 48: return ['zscore', key(['z']), member()];
      case 49: return [pick(['zrank', 'zrevrank']), key(['z']), member()];
      case 50: return ['zrange', key(['z']), index(), index(), ...(chance(0.5) ? ['WITHSCORES'] : [])];
      case 51: return ['zrange', key(['z']), bound(), bound(), 'BYSCORE', ...(chance(0.3) ? ['REV'] : []), ...(chance(0.3) ? ['LIMIT', '0', '2'] : []), ...(chance(0.5) ? ['WITHSCORES'] : [])];
      case 52: return ['zrangebyscore', key(['z']), bound(), bound(), ...(chance(0.5) ? ['WITHSCORES'] : [])];
      case 53: return ['zcount', key(['z']), bound(), bound()];
      case 54: return [pick(['zpopmin', 'zpopmax']), key(['z']), ...(chance(0.4) ? [pick(['1', '2', '5'])] : [])];
      case 55: return chance(0.5) ? ['zcard', key(['z'])] : ['zrem', key(['z']), member()];
      case 56: return [pick(['zremrangebyscore', 'zremrangebyrank']), key(['z']), index(), index()];
      case 57: return ['zmscore', key(['z']), member(), member()];
      case 58: return [pick(['expire', 'pexpire']), key(str), pick(['100', '200000', '0', '-1']), ...(chance(0.5) ? [pick(['NX', 'XX', 'GT', 'LT'])] : [])];
      case 59: return [pick(['setex', 'psetex']), key(str), pick(['100', '200000', '0', '-5', 'x']), value()];
      case 60: return ['getex', key(str), ...pick([[], ['EX', '100'], ['PX', '200000'], ['PERSIST']])];
      case 61: return ['unlink', key(str), key(['h', 'set', 'z'])];
      case 62: return ['rpoplpush', key(['l']), key(['l', 'l2'])];
      case 63: return ['zrevrange', key(['z']), index(), index(), ...(chance(0.5) ? ['WITHSCORES'] : [])];
      case 64: return ['zrevrangebyscore', key(['z']), bound(), bound(), ...(chance(0.5) ? ['WITHSCORES'] : []), ...(chance(0.4) ? ['LIMIT', pick(['0', '1']), pick(['1', '2', '-1'])] : [])];
      case 65: return ['hmset', key(['h']), field(), value(), field(), value()];
      case 66: return ['keys', pick(['*', 's*', 'h?', '[sz]*', 'gone'])];
      case 67: return ['zadd', key(['z']), 'INCR', score(), member()];
      case 68: return ['incrbyfloat', key(str), pick(['0.1', '0.2', '1e-5', '-3.3', '5.0e3', '1.5'])];
      case 69: return ['multi', Array.from({ length: 1 + below(3) }, () => pick([
        ['set', key(str), value()], ['incr', key(str)], ['get', key(str)], ['hincrby', key(['h']), field(), int()],
        ['lpush', key(['l']), value()], ['zadd', key(['z']), score(), member()], ['del', key(str)]]))];
      case 70: return ['exists', key(['h', 'set', 'l', 'z', 'gone']), key(str), key(str)];
      default: return ['type', key(['h', 'set', 'l', 'z', 'gone', 's1', 'n'])];
    }
  };
  return Array.from({ length: n }, command);
}

function handler(list) {
  return `const Redis = require('ioredis');
const redis = new Redis(process.env.DIFFERENTIAL_REDIS_URL);
const commands = ${JSON.stringify(list)};
const unordered = new Set(${JSON.stringify([...UNORDERED])});
// An integer reply past 2^53: ioredis reads it digit by digit into a
// double, the model gives the nearest double (docs/scripting.md).
const bigIntegers = (key, value) =>
  Number.isInteger(value) && !Number.isSafeInteger(value) ? 'past 2^53' : value;
async function handle(req) {
  for (const [i, [name, ...args]] of commands.entries()) {
    try {
      let reply;
      if (name === 'multi') {
        const replies = await redis.multi(args[0]).exec();
        reply = replies.map(([error, value]) => (error ? 'ERR ' + error.message : value));
      } else {
        reply = await redis[name](...args);
      }
      if (unordered.has(name) && Array.isArray(reply)) reply = [...reply].sort();
      console.log(i + ' ' + JSON.stringify(reply, bigIntegers));
    } catch (e) {
      console.log(i + ' ERR ' + e.message);
    }
  }
}
module.exports = { handle };
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await compareCache({
    server: 'redis',
    from,
    to,
    write: (seed) => commands(seed, count),
    handler,
    // The real server, flushed before each seed's handler.
    prepare: "const prepared = new (require('ioredis'))(process.env.DIFFERENTIAL_REDIS_URL).flushall();",
    env: { DIFFERENTIAL_REDIS_URL: serviceUrl('REDIS') },
  });
}
