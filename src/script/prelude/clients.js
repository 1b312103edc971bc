// The clients of the simulated cache and database (ioredis, node-redis,
// pg, memjs, memcached, redlock): a part of the prelude (prelude.js) that
// a realm compiles and runs the first time its script asks for one of
// them (prelude.js, `clientsPart`). Its value is a function of what it
// takes from the prelude.
"use strict";
(function ({ cache, host, nodePart, console, eventsPart, lazy, hex, setTimeout, clearTimeout }) {
  // Redis on the simulated cache, for ioredis and node-redis: each command
  // is one cache operation (its latency, counting and trace) with Redis's
  // reply: strings from GET, 'OK' or null from SET, counts from DEL,
  // numbers from INCR. Integer strings are kept as numbers so INCR reads
  // them, as Redis does.
  // Its name is its class's, read on the prototype (redis-errors'), so
  // `JSON.stringify(error)` shows none of it.
  class ReplyError extends Error {
    get name() {
      return this.constructor.name;
    }
  }
  // An argument as the client sends it: ioredis sends null and undefined
  // as an empty string.
  const argument = (value) => (value === null || value === undefined ? "" : String(value));
  // A value as the simulated cache stores it: integer strings as numbers
  // (not "-0", which INCR refuses), as world.rs's `redis_string`.
  const stored = (value) => {
    const text = argument(value);
    return /^(0|-?[1-9][0-9]{0,14})$/.test(text) ? Number(text) : text;
  };
  const reply = (value) => (value === undefined || value === null ? null : String(value));
  const WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
  // A string command's value: a hash or a set is the wrong kind.
  const stringValue = (value) => {
    if (value !== null && typeof value === "object") throw new ReplyError(WRONGTYPE);
    return value;
  };
  // Redis's words for a refusal of the simulated cache (its own messages
  // already are; any other is INCR's of a value that is not a number).
  const redisMessage = (message) =>
    /^(WRONGTYPE|ERR) /.test(message) ? message : "ERR value is not an integer or out of range";
  // A hash command's arguments: `field, value, …`, or an object or a Map.
  const fieldPairs = (args) => {
    const [first] = args;
    if (first instanceof Map) return [...first].map(([f, v]) => [String(f), stored(v)]);
    if (args.length === 1 && first !== null && typeof first === "object" && !Array.isArray(first)) {
      return Object.entries(first).map(([f, v]) => [f, stored(v)]);
    }
    const flat = args.flat();
    if (flat.length === 0 || flat.length % 2 !== 0) {
      throw new ReplyError("ERR wrong number of arguments for 'hset' command");
    }
    const pairs = [];
    for (let i = 0; i < flat.length; i += 2) pairs.push([String(flat[i]), stored(flat[i + 1])]);
    return pairs;
  };
  // Each hash command: the read or write it sends and how its reply reads
  // (the same for a command alone and queued in a MULTI).
  const hashCommands = {
    hget: (key, field) => ["hashRead", key, [String(field)], (found) => reply(found[String(field)])],
    hmget: (key, fields) => [
      "hashRead",
      key,
      fields.flat().map(String),
      (found) => fields.flat().map((field) => reply(found[String(field)])),
    ],
    hgetall: (key, prototype) => [
      "hashRead",
      key,
      null,
      (found) => {
        const all = Object.create(prototype);
        for (const [field, value] of Object.entries(found)) all[field] = reply(value);
        return all;
      },
    ],
    hexists: (key, field) => ["hashRead", key, [String(field)], (found) => (found[String(field)] == null ? 0 : 1)],
    hlen: (key) => ["hashRead", key, null, (found) => Object.keys(found).length],
    hkeys: (key) => ["hashRead", key, null, (found) => Object.keys(found)],
    hvals: (key) => ["hashRead", key, null, (found) => Object.values(found).map(reply)],
    hset: (key, args) => ["hashWrite", key, { set: fieldPairs(args) }, (added) => added],
    hmset: (key, args) => ["hashWrite", key, { set: fieldPairs(args) }, () => "OK"],
    hsetnx: (key, field, value) => [
      "hashWrite",
      key,
      { set: [[String(field), stored(value)]], onlyNew: true },
      (added) => added,
    ],
    hdel: (key, fields) => ["hashWrite", key, { del: fields.flat().map(String) }, (gone) => gone],
    hincrby: (key, field, by) => [
      "hashWrite",
      key,
      { incr: [String(field), integerArgument(by)] },
      (value) => value,
    ],
    // Redis's long double arithmetic (src/script/long_double.rs), as
    // INCRBYFLOAT's: the stored text.
    hincrbyfloat: (key, field, by) => [
      "hashWrite",
      key,
      { incrFloat: [String(field), argument(by)] },
      (text) => text,
    ],
  };
  // Each set command, as `hashCommands`.
  const setCommands = {
    sadd: (key, members) => ["setWrite", key, { add: members.flat().map(String) }, (n) => n],
    srem: (key, members) => ["setWrite", key, { remove: members.flat().map(String) }, (n) => n],
    smembers: (key) => ["setRead", key, null, (all) => all],
    scard: (key) => ["setRead", key, null, (all) => all.length],
    sismember: (key, member) => ["setRead", key, [String(member)], ([found]) => found],
    smismember: (key, members) => ["setRead", key, members.flat().map(String), (found) => found],
  };
  // Each list command, as `hashCommands`: a pop of no count takes one
  // item (or null); of a count, a list of them (or null if none).
  // LPOP and RPOP, with a count as Redis 7.0's popGenericCommand reads
  // it: a count of 0 reads the list (no such key: null, else an empty
  // array), a negative one is refused.
  const pop = (left) => (key, count) => {
    const n = count === undefined ? 1 : integerArgument(count);
    if (n < 0) throw new ReplyError("ERR value is out of range, must be positive");
    if (n === 0) return ["listRead", key, [0, -1], (items) => (items.length === 0 ? null : [])];
    return [
      "listWrite",
      key,
      { pop: n, left },
      (items) =>
        count === undefined ? reply(items[0]) : items.length === 0 ? null : items.map(reply),
    ];
  };
  const listCommands = {
    lpush: (key, values) => ["listWrite", key, { push: values.flat().map(stored), left: true }, (n) => n],
    rpush: (key, values) => ["listWrite", key, { push: values.flat().map(stored), left: false }, (n) => n],
    lpop: pop(true),
    rpop: pop(false),
    lrange: (key, start, stop) => [
      "listRead",
      key,
      [integerArgument(start), integerArgument(stop)],
      (items) => items.map(reply),
    ],
    llen: (key) => ["listRead", key, [0, -1], (items) => items.length],
    lindex: (key, index) => {
      const at = integerArgument(index);
      return ["listRead", key, [at, at], (items) => reply(items[0])];
    },
    ltrim: (key, start, stop) => [
      "listWrite",
      key,
      { trim: [integerArgument(start), integerArgument(stop)] },
      (ok) => ok,
    ],
    lrem: (key, count, value) => [
      "listWrite",
      key,
      { remove: integerArgument(count), value: stored(value) },
      (n) => n,
    ],
    lset: (key, index, value) => [
      "listWrite",
      key,
      { set: integerArgument(index), value: stored(value) },
      (ok) => ok,
    ],
  };
  // A list's end as LMOVE reads it: LEFT or RIGHT, in any case.
  const listSide = (side) => {
    const word = String(side).toUpperCase();
    if (word !== "LEFT" && word !== "RIGHT") throw new ReplyError("ERR syntax error");
    return word === "LEFT";
  };
  const arity = (name) => new ReplyError(`ERR wrong number of arguments for '${name}' command`);
  // A key's expiry, and a value read as it is deleted or replaced: PTTL
  // (TTL rounds it to whole seconds, as Redis does), PERSIST, GETDEL and
  // GETSET (which leaves the key with no expiry), one cache operation each.
  const keyCommands = {
    pttl: (key) => ["pttl", key, null, (ms) => ms],
    ttl: (key) => ["pttl", key, null, (ms) => (ms < 0 ? ms : Math.floor((ms + 500) / 1000))],
    persist: (key) => ["persist", key, null, (done) => (done ? 1 : 0)],
    getdel: (key) => ["getDelete", key, null, (found) => reply(stringValue(found))],
    getset: (key, value) => ["setWith", key, [stored(value), 0, null, false, true], setReply(true)],
    getex: (key, change) => ["getEx", key, change, (found) => reply(stringValue(found))],
    // `KEYS` and `SCAN` (`[pattern, count, type]`, null for each not
    // given): the live keys in key order; a SCAN visits its COUNT keys on
    // from its cursor and answers those that match, with the next cursor.
    keys: (pattern) => ["keys", pattern, null, (found) => found],
    scan: (cursor, options, read = (page) => page) => ["scan", String(cursor), options, read],
    type: (key) => ["type", key, null, (name) => name],
    strlen: (key) => ["strlen", key, null, (length) => length],
    append: (key, value) => ["append", key, String(value), (length) => length],
    // LMOVE (RPOPLPUSH is RIGHT LEFT): the item moved from one list's end
    // to another's (the same list turns), or null for no list; one cache
    // operation on both keys.
    lmove: (key, to, from, where) => [
      "listMove",
      key,
      [String(to), listSide(from), listSide(where)],
      (item) => reply(stringValue(item)),
    ],
    rpoplpush: (key, to) => ["listMove", key, [String(to), false, true], (item) => reply(stringValue(item))],
    // PUBLISH (and SPUBLISH): how many subscribers got the message, 0, as
    // no one subscribes in the simulated world; one cache operation.
    publish: (channel, message) => ["publish", String(channel), String(message), (n) => n],
    rename: (key, to) => ["rename", key, [String(to), false], () => "OK"],
    renamenx: (key, to) => ["rename", key, [String(to), true], (moved) => (moved ? 1 : 0)],
  };
  // ioredis's SCAN options, as words (`MATCH`, `COUNT`, `TYPE`, any case,
  // any order, the last of each kept, as Redis reads them).
  function scanWords(words) {
    const options = [null, null, null];
    for (let i = 0; i < words.length; i += 2) {
      const at = ["MATCH", "COUNT", "TYPE"].indexOf(String(words[i]).toUpperCase());
      if (at < 0 || i + 1 >= words.length) throw new ReplyError("ERR syntax error");
      options[at] = at === 1 ? countArgument(words[i + 1]) : String(words[i + 1]);
    }
    return options;
  }
  // A SCAN's COUNT, as Redis reads it: an integer, at least 1.
  function countArgument(value) {
    const count = Number(value);
    if (String(value).trim() === "" || !Number.isInteger(count)) {
      throw new ReplyError("ERR value is not an integer or out of range");
    }
    if (count < 1) throw new ReplyError("ERR syntax error");
    return count;
  }
  // node-redis 5's SCAN: `{ MATCH, COUNT, TYPE }` (each sent only if
  // truthy), replying `{ cursor, keys }`.
  const nodeRedisScan = (cursor, options = {}) =>
    keyCommands.scan(
      cursor,
      [options?.MATCH || null, options?.COUNT ? countArgument(options.COUNT) : null, options?.TYPE || null],
      ([next, keys]) => ({ cursor: next, keys })
    );
  // Sorted sets. A read takes the whole set in one cache operation
  // (`zsetRead`: `[member, score]` pairs by score, then member) and
  // answers from it as Redis would, its errors after the round trip; a
  // write is one `zsetWrite` of the command's words, which the cache reads
  // as Redis reads them. Scores reply as Redis 7.0 writes them (C's %.17g:
  // "0.10000000000000001") to ioredis, as numbers to node-redis.
  const scoreOf = (text) => (text === "inf" ? Infinity : text === "-inf" ? -Infinity : Number(text));
  function redisScore(text) {
    const n = scoreOf(text);
    if (n === Infinity) return "inf";
    if (n === -Infinity) return "-inf";
    if (n === 0) return Object.is(n, -0) ? "-0" : "0";
    const [mantissa, exponentText] = n.toExponential(16).split("e");
    const exponent = Number(exponentText);
    if (exponent < -4 || exponent >= 17) {
      const digits = mantissa.replace(/\.?0+$/, "");
      return `${digits}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
    }
    const fixed = n.toFixed(16 - exponent);
    return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
  }
  const words = (args) => args.flat().map(String);
  // A range bound as Redis's zslParseRange reads it: a float, `(` before
  // it for an exclusive one, `inf` and `-inf` included.
  function bound(value) {
    const text = String(value);
    const exclusive = text.startsWith("(");
    const body = exclusive ? text.slice(1) : text;
    const n = /^[+-]?inf(inity)?$/i.test(body) ? (body.startsWith("-") ? -Infinity : Infinity) : Number(body);
    if (body.trim() === "" || Number.isNaN(n)) throw new ReplyError("ERR min or max is not a float");
    return [n, exclusive];
  }
  const within = (score, [min, minOpen], [max, maxOpen]) =>
    (minOpen ? score > min : score >= min) && (maxOpen ? score < max : score <= max);
  // ZRANGE's options after its two bounds (Redis 6.2's zrangeGenericCommand).
  function rangeOptions(options, byScoreCommand) {
    const asked = { byScore: byScoreCommand, rev: false, withScores: false, offset: 0, limit: -1 };
    for (let i = 0; i < options.length; i += 1) {
      const option = options[i].toUpperCase();
      if (option === "WITHSCORES") asked.withScores = true;
      else if (option === "LIMIT" && options.length - i > 2) {
        asked.offset = integerArgument(options[i + 1]);
        asked.limit = integerArgument(options[i + 2]);
        i += 2;
      } else if (option === "BYSCORE" && !byScoreCommand) asked.byScore = true;
      else if (option === "REV" && !byScoreCommand) asked.rev = true;
      else if (option === "BYLEX" && !byScoreCommand) throw new ReplyError("ERR BYLEX is not modelled");
      else throw new ReplyError("ERR syntax error");
    }
    if ((asked.offset !== 0 || asked.limit !== -1) && !asked.byScore) {
      throw new ReplyError("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
    }
    return asked;
  }
  // The members (with their scores) of a range of `pairs`: by rank
  // (`start`, `stop` as LRANGE's), or by score (`min`, `max`; with `rev`,
  // max first), then LIMIT.
  function zrange(pairs, start, stop, asked) {
    let picked;
    if (asked.byScore) {
      const [low, high] = asked.rev ? [bound(stop), bound(start)] : [bound(start), bound(stop)];
      picked = pairs.filter(([, score]) => within(scoreOf(score), low, high));
      if (asked.rev) picked.reverse();
      if (asked.offset < 0) return [];
      picked = picked.slice(asked.offset, asked.limit < 0 ? undefined : asked.offset + asked.limit);
    } else {
      const [from, to] = [integerArgument(start), integerArgument(stop)];
      const ordered = asked.rev ? pairs.slice().reverse() : pairs;
      // As LRANGE's (redis_range in world.rs): a stop before the first
      // member leaves none.
      const at = (i) => (i < 0 ? ordered.length + i : i);
      const [first, last] = [Math.max(0, at(from)), Math.min(at(to), ordered.length - 1)];
      picked = first <= last ? ordered.slice(first, last + 1) : [];
    }
    return picked;
  }
  // Each member's score in `pairs` (null if absent), as `show` writes it.
  const scoresOf = (pairs, members, show) =>
    members.map((member) => {
      const found = pairs.find(([m]) => m === String(member));
      return found ? show(found[1]) : null;
    });
  const rankOf = (pairs, member, rev) => {
    const at = pairs.findIndex(([m]) => m === String(member));
    return at < 0 ? null : rev ? pairs.length - 1 - at : at;
  };
  const zsetRead = (key, read) => ["zsetRead", key, null, read];
  const zsetWrite = (key, write, read = (answer) => answer) => ["zsetWrite", key, write, read];
  const flatScores = (picked) => picked.flatMap(([member, score]) => [member, redisScore(score)]);
  const ioredisZset = {
    zadd: (key, args) =>
      zsetWrite(key, { add: { args: words(args) } }, (answer) =>
        typeof answer === "string" ? redisScore(answer) : answer
      ),
    zincrby: (key, by, member) =>
      zsetWrite(key, { add: { args: ["INCR", String(by), String(member)] } }, (answer) =>
        answer === null ? null : redisScore(answer)
      ),
    zrem: (key, members) => zsetWrite(key, { remove: { members: words(members) } }),
    zremrangebyscore: (key, min, max) =>
      zsetWrite(key, { removeByScore: { min: String(min), max: String(max) } }),
    zremrangebyrank: (key, start, stop) =>
      zsetWrite(key, { removeByRank: { start: String(start), stop: String(stop) } }),
    // ZPOPMIN and ZPOPMAX: `[member, score, …]`, the lowest (or highest)
    // first.
    zpop: (key, max, count) =>
      zsetWrite(key, { pop: { max, count: count === undefined ? null : String(count) } }, (popped) =>
        popped.map((item, i) => (i % 2 ? redisScore(item) : item))
      ),
    zcard: (key) => zsetRead(key, (pairs) => pairs.length),
    zscore: (key, member) => zsetRead(key, (pairs) => scoresOf(pairs, [member], redisScore)[0]),
    zmscore: (key, members) => zsetRead(key, (pairs) => scoresOf(pairs, words(members), redisScore)),
    zrank: (key, member) => zsetRead(key, (pairs) => rankOf(pairs, member, false)),
    zrevrank: (key, member) => zsetRead(key, (pairs) => rankOf(pairs, member, true)),
    zcount: (key, min, max) =>
      zsetRead(key, (pairs) => {
        const [low, high] = [bound(min), bound(max)];
        return pairs.filter(([, score]) => within(scoreOf(score), low, high)).length;
      }),
    zrange: (key, start, stop, options, byScore = false, rev = false) =>
      zsetRead(key, (pairs) => {
        const asked = rangeOptions(words(options), byScore);
        asked.rev ||= rev;
        const picked = zrange(pairs, start, stop, asked);
        return asked.withScores ? flatScores(picked) : picked.map(([member]) => member);
      }),
  };
  // node-redis's spellings: members as `{ score, value }`, options as an
  // object, scores as numbers.
  const nodeScore = (score) => (score === Infinity ? "+inf" : score === -Infinity ? "-inf" : String(score));
  const nodeRange = (options = {}) => {
    const out = [];
    if (options.BY === "SCORE" || options.BY === "score") out.push("BYSCORE");
    else if (options.BY) out.push("BYLEX");
    if (options.REV) out.push("REV");
    if (options.LIMIT) out.push("LIMIT", String(options.LIMIT.offset), String(options.LIMIT.count));
    return out;
  };
  const nodeRedisZset = {
    zAdd: (key, members, options = {}) => {
      const args = [];
      const condition = options.condition ?? (options.NX ? "NX" : options.XX ? "XX" : undefined);
      const comparison = options.comparison ?? (options.GT ? "GT" : options.LT ? "LT" : undefined);
      if (condition) args.push(condition);
      if (comparison) args.push(comparison);
      if (options.CH) args.push("CH");
      for (const { score, value } of [members].flat()) args.push(nodeScore(score), String(value));
      return zsetWrite(key, { add: { args } });
    },
    // zPopMin and zPopMax: `{ value, score }` or null; their `…Count`
    // forms, a list of them.
    zPop: (key, max, count) =>
      zsetWrite(key, { pop: { max, count: count === undefined ? null : count.toString() } }, (popped) => {
        const members = [];
        for (let i = 0; i < popped.length; i += 2) members.push({ value: popped[i], score: scoreOf(popped[i + 1]) });
        return count === undefined ? (members[0] ?? null) : members;
      }),
    zIncrBy: (key, by, member) =>
      zsetWrite(key, { add: { args: ["INCR", nodeScore(by), String(member)] } }, (answer) =>
        answer === null ? null : scoreOf(answer)
      ),
    zScore: (key, member) => zsetRead(key, (pairs) => scoresOf(pairs, [member], scoreOf)[0]),
    zmScore: (key, members) => zsetRead(key, (pairs) => scoresOf(pairs, words([members]), scoreOf)),
    zRange: (key, min, max, options) =>
      zsetRead(key, (pairs) =>
        zrange(pairs, nodeScore(min), nodeScore(max), rangeOptions(nodeRange(options), false)).map(([m]) => m)
      ),
    zRangeWithScores: (key, min, max, options) =>
      zsetRead(key, (pairs) =>
        zrange(pairs, nodeScore(min), nodeScore(max), rangeOptions(nodeRange(options), false)).map(
          ([value, score]) => ({ value, score: scoreOf(score) })
        )
      ),
    zRangeByScore: (key, min, max, options) =>
      zsetRead(key, (pairs) =>
        zrange(pairs, nodeScore(min), nodeScore(max), rangeOptions(nodeRange(options), true)).map(([m]) => m)
      ),
    zCount: (key, min, max) => ioredisZset.zcount(key, nodeScore(min), nodeScore(max)),
    zRemRangeByScore: (key, min, max) => ioredisZset.zremrangebyscore(key, nodeScore(min), nodeScore(max)),
  };

  // A hash, set or list command on its own: one round trip.
  const hashCommand = async ([kind, key, what, read]) =>
    read(await redisCommands.collection(kind, key, what));
  // Lua is recognised, not run: the text without comments and whitespace
  // (and with one kind of quote) must be one the simulation knows.
  const luaShape = (script) =>
    String(script).replace(/--[^\n]*/g, "").replace(/\s+/g, "").replace(/'/g, '"');
  const CHECK_AND_DELETE = luaShape(
    'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end'
  );
  // redlock's scripts, the same text in v4.2 and v5.0.0-beta.2.
  const REDLOCK_ACQUIRE = `
    -- Return 0 if an entry already exists.
    for i, key in ipairs(KEYS) do
      if redis.call("exists", key) == 1 then
        return 0
      end
    end

    -- Create an entry for each provided key.
    for i, key in ipairs(KEYS) do
      redis.call("set", key, ARGV[1], "PX", ARGV[2])
    end

    -- Return the number of entries added.
    return #KEYS
  `;
  const REDLOCK_EXTEND = `
    -- Return 0 if an entry exists with a *different* lock value.
    for i, key in ipairs(KEYS) do
      if redis.call("get", key) ~= ARGV[1] then
        return 0
      end
    end

    -- Update the entry for each provided key.
    for i, key in ipairs(KEYS) do
      redis.call("set", key, ARGV[1], "PX", ARGV[2])
    end

    -- Return the number of entries updated.
    return #KEYS
  `;
  const REDLOCK_RELEASE = `
    local count = 0
    for i, key in ipairs(KEYS) do
      -- Only remove entries for *this* lock value.
      if redis.call("get", key) == ARGV[1] then
        redis.pcall("del", key)
        count = count + 1
      end
    end

    -- Return the number of entries removed.
    return count
  `;
  const LOCK_SCRIPTS = new Map([
    [luaShape(REDLOCK_ACQUIRE), "acquire"],
    [luaShape(REDLOCK_EXTEND), "extend"],
    [luaShape(REDLOCK_RELEASE), "release"],
  ]);
  // The fixed-window rate limiter's script: count the call, and give the
  // key its window when the count starts (`local c = redis.call("INCR",
  // KEYS[1]) if c == 1 then redis.call("EXPIRE", KEYS[1], ARGV[1]) end
  // return c`, with PEXPIRE, tonumber() or semicolons). Played as INCR
  // and an EXPIRE NX of the key in one step: the same unless the key was
  // there already with no expiry.
  const RATE_LIMIT =
    /^local(\w+)=redis\.call\("incr",KEYS\[1\]\);?if(?:\1|tonumber\(\1\))==1thenredis\.call\("(p?expire)",KEYS\[1\],(ARGV\[1\]|tonumber\(ARGV\[1\]\))\);?end;?return\1;?$/i;
  const UNKNOWN_SCRIPT =
    "ERR this Lua script is not one the simulation recognises (it knows " +
    "check-and-delete: if redis.call(\"get\", KEYS[1]) == ARGV[1] then return " +
    "redis.call(\"del\", KEYS[1]) else return 0 end; redlock's acquire, extend " +
    "and release scripts, as redlock 4 and 5 send them; and the rate limiter's " +
    "local c = redis.call(\"INCR\", KEYS[1]) if c == 1 then " +
    "redis.call(\"EXPIRE\", KEYS[1], ARGV[1]) end return c)";
  const integerArgument = (value) => {
    const n = Number(value);
    if (String(value).trim() === "" || !Number.isInteger(n)) {
      throw new ReplyError("ERR value is not an integer or out of range");
    }
    return n;
  };
  const notModelled = (what) =>
    new ReplyError(`ERR ${what} is not modelled (EX, PX, EXAT, PXAT, NX, XX, KEEPTTL, GET are)`);
  // SET's reply: with GET the value before, else "OK" or null.
  const setReply = (get) => (answer) => (get ? reply(stringValue(answer)) : answer ? "OK" : null);
  const redisCommands = {
    async get(key) {
      return reply(stringValue(await cache.get(key)));
    },
    // `ttl` in ms (0: none; with `at`, a time on the clock: EXAT, PXAT);
    // `only`: "NX", "XX" or null; `keep`: KEEPTTL; `get`: GET. With
    // KEEPTTL, GET or a time it is one `cache.setWith`.
    async set(key, value, ttl, only, keep = false, get = false, at = false) {
      if (keep || get || at) {
        let answer;
        try {
          answer = await host.setWith(key, [stored(value), ttl, only, keep, get, at]);
        } catch (error) {
          throw new ReplyError(redisMessage(error.message));
        }
        return setReply(get)(answer);
      }
      if (only === "XX") return (await host.replace(key, stored(value), ttl)) ? "OK" : null;
      if (only === "NX") return (await cache.add(key, stored(value), ttl)) ? "OK" : null;
      await cache.set(key, stored(value), ttl);
      return "OK";
    },
    // DEL and UNLINK: one round trip, whatever the number of keys.
    async del(keys, name = "del") {
      const all = keys.flat();
      if (all.length === 0) throw new ReplyError(`ERR wrong number of arguments for '${name}' command`);
      if (all.length === 1) return (await cache.delete(all[0])) ? 1 : 0;
      return batched(queueable.del(all));
    },
    async incrby(key, by) {
      const amount = integerArgument(by);
      try {
        return await cache.incr(key, amount);
      } catch (error) {
        throw new ReplyError(redisMessage(error.message));
      }
    },
    // Hashes, sets and lists: a read (`hashRead`, `setRead`, `listRead`)
    // or a write (`hashWrite`, `setWrite`, `listWrite`) of one key, each
    // one cache operation (`cache.hget`, `cache.hset`, `cache.smembers`,
    // `cache.sadd`, `cache.lrange`, `cache.lpush`).
    async collection(kind, key, what) {
      try {
        return await host[kind](key, what);
      } catch (error) {
        throw new ReplyError(redisMessage(error.message));
      }
    },
    async eval(script, keys, args) {
      const shape = luaShape(script);
      if (keys.length === 1 && shape === CHECK_AND_DELETE) {
        return (await cache.deleteIf(keys[0], stored(args[0]))) ? 1 : 0;
      }
      const lockScript = LOCK_SCRIPTS.get(shape);
      if (lockScript !== undefined) {
        const ttl = lockScript === "release" ? 0 : integerArgument(args[1]);
        if (ttl <= 0 && lockScript !== "release") {
          throw new ReplyError("ERR invalid expire time in 'set' command");
        }
        return host.lockScript(lockScript, keys.map(String), stored(args[0]), ttl);
      }
      const rateLimit = keys.length === 1 ? RATE_LIMIT.exec(shape) : null;
      if (rateLimit !== null) {
        const window = integerArgument(args[0]) * (rateLimit[2].toLowerCase() === "expire" ? 1000 : 1);
        const answers = await host.exec(null, [
          ["incr", keys[0], 1],
          ["expire", keys[0], window, ["NX"], false],
        ]);
        const failed = answers.find((answer) => answer.error !== undefined);
        if (failed) throw new ReplyError(redisMessage(failed.error));
        return answers[0].value;
      }
      throw new ReplyError(UNKNOWN_SCRIPT);
    },
    // `EXISTS`: how many of the keys hold a value (a GET of each, in one
    // round trip).
    async exists(keys) {
      const all = keys.flat();
      if (all.length === 0) throw new ReplyError("ERR wrong number of arguments for 'exists' command");
      if (all.length === 1) return (await cache.get(all[0])) != null ? 1 : 0;
      return batched(queueable.exists(all));
    },
    // `PEXPIRE`: 1 if the key was live (a non-positive time deletes it).
    // With Redis 7's options (`NX`, `XX`, `GT`, `LT`). `at`: `PEXPIREAT`,
    // a time on the run's clock (`Date.now()`'s); one passed deletes it.
    async pexpire(key, ms, options = [], at = false) {
      const time = integerArgument(ms);
      try {
        return (await host.expire(key, time, options.map(String), at)) ? 1 : 0;
      } catch (error) {
        throw new ReplyError(redisMessage(error.message));
      }
    },
  };
  // node-redis's own transforms of an EXAT and a PXAT time
  // (generic-transformers.js): a number as it is, a `Date` in seconds
  // (floored) or in milliseconds.
  const transformEXAT = (time) => (typeof time === "number" ? time : Math.floor(time.getTime() / 1000));
  const transformPXAT = (time) => (typeof time === "number" ? time : time.getTime());
  // node-redis's EXPIREAT and PEXPIREAT times: a number (seconds, or
  // milliseconds: `unit`) or a `Date`, in milliseconds.
  const unixMs = (time, unit) => {
    if (typeof time !== "number") return unit === 1 ? transformPXAT(time) : transformEXAT(time) * 1000;
    return integerArgument(time) * unit;
  };
  // An expiry's time as Redis reads it (getExpireMillisecondsOrReply), in
  // ms: from now (EX, PX), or a time on the clock (EXAT, PXAT).
  const TIME_UNITS = ["EX", "PX", "EXAT", "PXAT"];
  const expiry = (unit, amount, command = "set") => {
    const n = Number(amount);
    if (String(amount).trim() === "" || !Number.isInteger(n)) {
      throw new ReplyError("ERR value is not an integer or out of range");
    }
    if (n <= 0) throw new ReplyError(`ERR invalid expire time in '${command}' command`);
    return unit === "EX" || unit === "EXAT" ? n * 1000 : n;
  };
  const absolute = (unit) => unit === "EXAT" || unit === "PXAT";
  // GETEX's words as Redis reads them: EX, PX, EXAT or PXAT and a time, or
  // PERSIST. Redis checks the time only once it has found a string at the
  // key (getexCommand), so a bad one travels with the call, as its error.
  const getexChange = (words) => {
    let unit = null;
    let amount;
    let persist = false;
    for (let i = 0; i < words.length; i += 1) {
      const word = String(words[i]).toUpperCase();
      if (TIME_UNITS.includes(word) && !persist && (unit === null || unit === word) && i + 1 < words.length) {
        unit = word;
        amount = words[i + 1];
        i += 1;
      } else if (word === "PERSIST" && unit === null) {
        persist = true;
      } else {
        throw new ReplyError("ERR syntax error");
      }
    }
    if (persist) return "PERSIST";
    if (unit === null) return null;
    try {
      return { ms: expiry(unit, amount, "getex"), at: absolute(unit) };
    } catch (error) {
      return { error: error.message };
    }
  };
  // node-redis 5's GETEX options as its GETEX.js sends them (`type` and
  // `value`, or the older `{ EX }`, …, `{ PERSIST: true }`); an EXAT or a
  // PXAT given as a Date is sent in seconds, for both.
  const nodeRedisGetExWords = (options) => {
    if ("type" in options) {
      switch (options.type) {
        case "EX":
        case "PX":
          return [options.type, options.value.toString()];
        case "EXAT":
        case "PXAT":
          return [options.type, String(transformEXAT(options.value))];
        case "PERSIST":
          return ["PERSIST"];
      }
      return [];
    }
    if ("EX" in options) return ["EX", options.EX.toString()];
    if ("PX" in options) return ["PX", options.PX.toString()];
    if ("EXAT" in options) return ["EXAT", String(transformEXAT(options.EXAT))];
    if ("PXAT" in options) return ["PXAT", String(transformPXAT(options.PXAT))];
    return ["PERSIST"];
  };

  // Redis's commands as node-redis 5 names its methods (its admin
  // commands aside); ioredis names them in lower case, with a few of its
  // own. One the simulation does not model says so, not "not a function".
  const NODE_REDIS_UNMODELLED = (
    "append bitCount bitFieldRo bitField bitOp bitPos blMove blmPop blPop brPop brPopLPush" +
    " bzmPop bzPopMax bzPopMin copy dbSize decr decrBy del delEx digest dump echo evalRo eval" +
    " evalShaRo evalSha exists expire expireAt expireTime flushAll flushDb fCall fCallRo" +
    " geoAdd geoDist geoHash geoPos geoRadiusRoWith geoRadiusRo geoRadiusStore geoRadiusWith" +
    " geoRadius geoRadiusByMemberRoWith geoRadiusByMemberRo geoRadiusByMemberStore" +
    " geoRadiusByMemberWith geoRadiusByMember geoSearchWith geoSearch geoSearchStore get" +
    " getBit getDel getEx getRange getSet hDel hExists hExpire hExpireAt hExpireTime hGet" +
    " hGetAll hGetDel hGetEx hIncrBy hIncrByFloat hKeys hLen hmGet hPersist hpExpire" +
    " hpExpireAt hpExpireTime hpTTL hRandFieldCountWithValues hRandFieldCount hRandField hScan" +
    " hScanNoValues hSet hSetEx hSetNX hStrLen hTTL hVals hotkeysGet hotkeysReset hotkeysStart" +
    " hotkeysStop incr incrBy incrByFloat keys lcsIdxWithMatchLen lcsIdx lcsLen lcs lIndex" +
    " lInsert lLen lMove lmPop lPopCount lPop lPosCount lPos lPush lPushX lRange lRem lSet" +
    " lTrim mGet move mSet mSetEx mSetNX objectEncoding objectFreq objectIdleTime" +
    " objectRefCount persist pExpire pExpireAt pExpireTime pfAdd pfCount pfMerge pSetEx pTTL" +
    " publish pubSubChannels pubSubNumPat pubSubNumSub pubSubShardNumSub pubSubShardChannels" +
    " randomKey rename renameNX restoreAsking restore rPopCount rPop rPopLPush rPush rPushX" +
    " sAdd scan sCard scriptDebug scriptExists scriptFlush scriptKill scriptLoad sDiff" +
    " sDiffStore set setBit setEx setNX setRange sInter sInterCard sInterStore sIsMember" +
    " sMembers smIsMember sMove sortRo sortStore sort sPopCount sPop sPublish sRandMemberCount" +
    " sRandMember sRem sScan strLen sUnion sUnionStore time touch ttl type unlink xAck xAckDel" +
    " xAddNoMkStream xAdd xAutoClaimJustId xAutoClaim xClaimJustId xClaim xCfgSet xDel xDelEx" +
    " xGroupCreate xGroupCreateConsumer xGroupDelConsumer xGroupDestroy xGroupSetId" +
    " xInfoConsumers xInfoGroups xInfoStream xLen xPendingRange xPending xRange xRead" +
    " xReadGroup xRevRange xSetId xTrim zAddIncr zAdd zCard zCount zDiffWithScores zDiff" +
    " zDiffStore zIncrBy zInterWithScores zInter zInterCard zInterStore zLexCount zmPop" +
    " zmScore zPopMaxCount zPopMax zPopMinCount zPopMin zRandMemberCountWithScores" +
    " zRandMemberCount zRandMember zRangeWithScores zRange zRangeByLex zRangeByScoreWithScores" +
    " zRangeByScore zRangeStore zRankWithScore zRank zRem zRemRangeByLex zRemRangeByRank" +
    " zRemRangeByScore zRevRank zScan zScore zUnionWithScores zUnion zUnionStore"
  ).split(" ");
  const UNMODELLED = NODE_REDIS_UNMODELLED.map((name) => name.toLowerCase()).concat(
    (
      "bitfield_ro discard eval_ro evalsha_ro exec fcall_ro georadius_ro georadiusbymember_ro" +
      " hmset increx multi object psubscribe pubsub punsubscribe script sort_ro ssubscribe" +
      " subscribe substr sunsubscribe unsubscribe unwatch watch xgroup xinfo xnack zrevrange" +
      " zrevrangebylex zrevrangebyscore scanStream hscanStream sscanStream zscanStream"
    ).split(" ")
  );
  const MODELLED_REDIS =
    "GET, SET with EX/PX/EXAT/PXAT/NX/XX/KEEPTTL/GET, SETEX, PSETEX, SETNX, DEL, UNLINK, EXISTS, INCR/DECR(BY), INCRBYFLOAT, KEYS, SCAN, " +
    "TYPE, STRLEN, APPEND, RENAME, RENAMENX, " +
    "EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, TTL, PTTL, PERSIST, GETDEL, GETSET, GETEX, EVAL of check-and-delete and redlock's scripts, PING, MGET, MSET, " +
    "HSET, HSETNX, HMSET, HGET, HMGET, HGETALL, HDEL, HINCRBY, HINCRBYFLOAT, HEXISTS, HLEN, HKEYS, HVALS, " +
    "SADD, SREM, SMEMBERS, SCARD, SISMEMBER, SMISMEMBER, LPUSH, RPUSH, LPOP, RPOP, LRANGE, LLEN, " +
    "LINDEX, LTRIM, LREM, LSET, LMOVE, RPOPLPUSH, PUBLISH (no one subscribes), " +
    "ZADD, ZINCRBY, ZREM, ZREMRANGEBYSCORE, ZREMRANGEBYRANK, ZPOPMIN, ZPOPMAX, ZCARD, ZSCORE, ZMSCORE, ZRANK, " +
    "ZREVRANK, ZCOUNT, ZRANGE (BYSCORE, REV, LIMIT, WITHSCORES), ZREVRANGE, ZRANGEBYSCORE, " +
    "ZREVRANGEBYSCORE, " +
    "and WATCH, UNWATCH, MULTI/EXEC and pipelines of those";
  // Each of `names` the client's `prototype` lacks throws a TypeError
  // that says so (`message(name)`), not "not a function".
  function notModelledOn(prototype, names, message) {
    for (const name of names) {
      if (name in prototype) continue;
      Object.defineProperty(prototype, name, {
        configurable: true,
        writable: true,
        value() {
          throw new TypeError(message(name));
        },
      });
    }
  }
  function unmodelled(prototype, library, names) {
    notModelledOn(
      prototype,
      names,
      (name) =>
        `${library}: ${name.toUpperCase()} is not modelled by the simulated Redis ` +
        `(it has ${MODELLED_REDIS})`
    );
  }

  // MULTI/EXEC and pipelines: each queued command is the calls it makes
  // when the EXEC lands (`__host.exec`: one round trip, nothing else runs
  // between them) and how its reply reads from their answers. WATCH is per
  // connection, as in Redis: a client is one connection, shared by every
  // request on its server, so one request's EXEC (or UNWATCH) ends the
  // watches of all of them.
  const queueable = {
    get: (key) => [[["get", key]], ([found]) => reply(stringValue(found))],
    set: (key, value, ttl, only, keep = false, get = false, at = false) => {
      if (keep || get || at) {
        return [[["setWith", key, [stored(value), ttl, only, keep, get, at]]], ([answer]) => setReply(get)(answer)];
      }
      const write = only === "NX" ? "add" : only === "XX" ? "replace" : "set";
      return [[[write, key, stored(value), ttl]], ([done]) => (done ? "OK" : null)];
    },
    del: (keys) => [keys.flat().map((key) => ["delete", key]), (done) => done.filter(Boolean).length],
    incrby: (key, by) => [[["incr", key, integerArgument(by)]], ([value]) => value],
    pexpire: (key, ms, options = [], at = false) => [
      [["expire", key, integerArgument(ms), options.map(String), at]],
      ([done]) => (done ? 1 : 0),
    ],
    exists: (keys) => [
      keys.flat().map((key) => ["get", key]),
      (found) => found.filter((value) => value != null).length,
    ],
    hash: ([kind, key, what, read]) => [[[kind, key, what]], ([answer]) => read(answer)],
    // MGET and MSET: one round trip, applied at once (a hash reads null).
    mget: (keys) => [
      keys.flat().map((key) => ["get", key]),
      (found) => found.map((value) => (value !== null && typeof value === "object" ? null : reply(value))),
    ],
    mset: (args) => [fieldPairs(args).map(([key, value]) => ["set", key, value, 0]), () => "OK"],
  };
  // A command of several calls on its own: one round trip (a pipeline).
  const batched = async ([calls, read]) => {
    const answers = await host.exec(null, calls);
    return read(answers.map((answer) => answer.value));
  };
  // Sends the queued commands (`connection`: MULTI/EXEC on it; null: a
  // pipeline): null if a watched key changed, else each command's reply
  // or its error, as the library gives them (`ok`, `failed`).
  async function execute(connection, queued, failed, ok = (reply) => reply) {
    const answers = await host.exec(connection, queued.flatMap(([calls]) => calls));
    if (answers === null) return null;
    let at = 0;
    return queued.map(([calls, read]) => {
      const mine = answers.slice(at, (at += calls.length));
      const error = mine.find((answer) => answer.error !== undefined);
      if (error) return failed(redisMessage(error.error));
      let reply;
      try {
        reply = read(mine.map((answer) => answer.value));
      } catch (error) {
        return failed(error.message);
      }
      return ok(reply);
    });
  }
  // ioredis's `multi()` and `pipeline()`: chained commands, then `exec()`:
  // `[[error, reply], ...]` (`[error]` for a command that failed), or null
  // when a watched key changed.
  class IoredisQueue {
    constructor(client, atomic, commands = []) {
      this._client = client;
      this._atomic = atomic;
      this._queued = [];
      for (const [name, ...args] of commands) this[String(name).toLowerCase()](...args);
    }
    _queue([calls, read]) {
      this._queued.push([calls, read]);
      return this;
    }
    get(key) {
      return this._queue(queueable.get(key));
    }
    set(key, value, ...options) {
      const { ttl, only, keep, get, at } = ioredisSetOptions(options);
      return this._queue(queueable.set(key, value, ttl, only, keep, get, at));
    }
    setex(key, seconds, value) {
      return this._queue(queueable.set(key, value, expiry("EX", seconds, "setex"), null));
    }
    psetex(key, ms, value) {
      return this._queue(queueable.set(key, value, expiry("PX", ms, "psetex"), null));
    }
    setnx(key, value) {
      const [calls, read] = queueable.set(key, value, 0, "NX");
      return this._queue([calls, (done) => (read(done) === "OK" ? 1 : 0)]);
    }
    del(...keys) {
      return this._queue(queueable.del(keys));
    }
    unlink(...keys) {
      return this._queue(queueable.del(keys));
    }
    incr(key) {
      return this._queue(queueable.incrby(key, 1));
    }
    decr(key) {
      return this._queue(queueable.incrby(key, -1));
    }
    incrby(key, by) {
      return this._queue(queueable.incrby(key, by));
    }
    decrby(key, by) {
      return this._queue(queueable.incrby(key, -by));
    }
    expire(key, seconds, ...options) {
      return this._queue(queueable.pexpire(key, integerArgument(seconds) * 1000, options));
    }
    pexpire(key, ms, ...options) {
      return this._queue(queueable.pexpire(key, ms, options));
    }
    expireat(key, seconds, ...options) {
      return this._queue(queueable.pexpire(key, integerArgument(seconds) * 1000, options, true));
    }
    pexpireat(key, ms, ...options) {
      return this._queue(queueable.pexpire(key, ms, options, true));
    }
    exists(...keys) {
      return this._queue(queueable.exists(keys));
    }
    mget(...keys) {
      return this._queue(queueable.mget(keys));
    }
    mset(...args) {
      return this._queue(queueable.mset(args));
    }
    get length() {
      return this._queued.length;
    }
    async exec() {
      const connection = this._atomic ? this._client._connection() : null;
      return execute(
        connection,
        this._queued,
        (message) => [new ReplyError(message)],
        (reply) => [null, reply]
      );
    }
    // DISCARD, queued as ioredis queues it: nothing queued before it runs,
    // and (a MULTI's) EXEC then ends the connection's watches, as DISCARD
    // does.
    discard() {
      this._queued = [];
      return this;
    }
  }
  // SET's options as Redis reads them (t_string.c): NX and XX, or KEEPTTL
  // and a time, or two kinds of time, together are a syntax error; the
  // time is read once the words are.
  const ioredisSetOptions = (options) => {
    let unit = null;
    let amount;
    let only = null;
    let keep = false;
    let get = false;
    const syntaxError = () => new ReplyError("ERR syntax error");
    for (let i = 0; i < options.length; i += 1) {
      const option = String(options[i]).toUpperCase();
      if (TIME_UNITS.includes(option)) {
        if (keep || (unit !== null && unit !== option) || i + 1 >= options.length) throw syntaxError();
        amount = options[i + 1];
        unit = option;
        i += 1;
      } else if (option === "NX" || option === "XX") {
        if (only !== null && only !== option) throw syntaxError();
        only = option;
      } else if (option === "KEEPTTL") {
        if (unit !== null) throw syntaxError();
        keep = true;
      } else if (option === "GET") {
        get = true;
      } else {
        throw notModelled(`the SET option ${option}`);
      }
    }
    const ttl = unit === null ? 0 : expiry(unit, amount);
    return { ttl, only, keep, get, at: absolute(unit) };
  };

  // A client's listeners, as an EventEmitter keeps them (without the
  // events module, which a script loads only if it reaches for it).
  const listenerMethods = {
    on(event, listener) {
      if (typeof listener !== "function") {
        throw new TypeError(`The "listener" argument must be of type function. Received ${typeof listener}`);
      }
      ((this._listeners ??= {})[event] ??= []).push(listener);
      this._listened?.(event);
      return this;
    },
    once(event, listener) {
      const once = (...args) => {
        this.off(event, once);
        return listener.apply(this, args);
      };
      once.listener = listener;
      return this.on(event, once);
    },
    off(event, listener) {
      const listeners = this._listeners?.[event];
      const at = listeners?.findIndex((l) => l === listener || l.listener === listener) ?? -1;
      if (at >= 0) listeners.splice(at, 1);
      return this;
    },
    removeAllListeners(event) {
      if (event === undefined) this._listeners = {};
      else if (this._listeners) delete this._listeners[event];
      return this;
    },
    listenerCount(event) {
      return this._listeners?.[event]?.length ?? 0;
    },
    emit(event, ...args) {
      const listeners = this._listeners?.[event];
      if (!listeners?.length) return false;
      for (const listener of [...listeners]) listener.apply(this, args);
      return true;
    },
  };
  listenerMethods.addListener = listenerMethods.on;
  listenerMethods.removeListener = listenerMethods.off;
  // A Redis client's connection events. The simulated Redis is always up,
  // so a client announces 'connect' then 'ready' once, when it connects,
  // and never 'error', 'reconnecting' or 'end'. A listener added after the
  // client announced them is not called, as on Node.
  const connectionEvents = {
    ...listenerMethods,
    // Calls the listeners of 'connect', then those of 'ready' (ioredis's
    // `status` is "connect" between the two, as its ready check runs).
    _announce() {
      this._announced = true;
      for (const event of ["connect", "ready"]) {
        if (this.status !== undefined) this.status = event;
        for (const listener of [...(this._listeners?.[event] ?? [])]) listener.call(this);
      }
    },
    _awaited() {
      return !this._announced && (this.listenerCount("connect") > 0 || this.listenerCount("ready") > 0);
    },
  };

  // ioredis: `new Redis()`, variadic SET options.
  class Redis {
    constructor() {
      this.status = "ready";
      this._made = Date.now();
    }
    // ioredis connects as it is made: its 'connect' and 'ready' come in a
    // macrotask after the code that made it and added their listeners. Once
    // the clock has moved on, the client has long announced them.
    _listened(event) {
      if ((event === "connect" || event === "ready") && !this._announcing) {
        this._announcing = true;
        if (Date.now() > this._made) this._announced = true;
        else setTimeout(() => this._announce(), 0);
      }
    }
    get(key) {
      return redisCommands.get(key);
    }
    async set(key, value, ...options) {
      const { ttl, only, keep, get, at } = ioredisSetOptions(options);
      return redisCommands.set(key, value, ttl, only, keep, get, at);
    }
    // This client's connection, for WATCH and MULTI/EXEC.
    _connection() {
      if (this._id === undefined) this._id = host.connection();
      return this._id;
    }
    async watch(...keys) {
      await host.watch(this._connection(), keys.flat().map(String));
      return "OK";
    }
    async unwatch() {
      await host.watch(this._connection(), []);
      return "OK";
    }
    multi(commands) {
      return new IoredisQueue(this, true, commands);
    }
    // A client with a connection of its own (its WATCHes are its own).
    duplicate() {
      return new Redis();
    }
    pipeline(commands) {
      return new IoredisQueue(this, false, commands);
    }
    del(...keys) {
      return redisCommands.del(keys);
    }
    unlink(...keys) {
      return redisCommands.del(keys, "unlink");
    }
    incr(key) {
      return redisCommands.incrby(key, 1);
    }
    decr(key) {
      return redisCommands.incrby(key, -1);
    }
    incrby(key, by) {
      return redisCommands.incrby(key, by);
    }
    decrby(key, by) {
      return redisCommands.incrby(key, -by);
    }
    eval(script, numkeys, ...args) {
      const n = Number(numkeys);
      args = args.flat();
      return redisCommands.eval(script, args.slice(0, n), args.slice(n));
    }
    async expire(key, seconds, ...options) {
      return redisCommands.pexpire(key, integerArgument(seconds) * 1000, options);
    }
    pexpire(key, ms, ...options) {
      return redisCommands.pexpire(key, ms, options);
    }
    async expireat(key, seconds, ...options) {
      return redisCommands.pexpire(key, integerArgument(seconds) * 1000, options, true);
    }
    pexpireat(key, ms, ...options) {
      return redisCommands.pexpire(key, ms, options, true);
    }
    mget(...keys) {
      return batched(queueable.mget(keys));
    }
    mset(...args) {
      return batched(queueable.mset(args));
    }
    // A Lua command, as ioredis defines it: the same recognised scripts as
    // `eval`; without `numberOfKeys` the first argument gives it.
    defineCommand(name, { numberOfKeys, lua } = {}) {
      const fixed = typeof numberOfKeys === "number";
      this[name] = (...args) => {
        args = args.flat();
        return fixed ? this.eval(lua, numberOfKeys, ...args) : this.eval(lua, ...args);
      };
    }
    setex(key, seconds, value) {
      return redisCommands.set(key, value, expiry("EX", seconds, "setex"), null);
    }
    psetex(key, ms, value) {
      return redisCommands.set(key, value, expiry("PX", ms, "psetex"), null);
    }
    async setnx(key, value) {
      return (await redisCommands.set(key, value, 0, "NX")) === "OK" ? 1 : 0;
    }
    exists(...keys) {
      return redisCommands.exists(keys);
    }
    // Connection calls answer at once: the simulated Redis is always up.
    async connect() {
      this.status = "ready";
    }
    async ping(message) {
      return message === undefined ? "PONG" : String(message);
    }
    async quit() {
      this.status = "end";
      return "OK";
    }
    disconnect() {
      this.status = "end";
    }
  }
  Object.assign(Redis.prototype, connectionEvents);
  unmodelled(Redis.prototype, "ioredis", UNMODELLED);

  // node-redis (v4 and v5): `createClient()`, `connect()`, SET options as
  // an object (`{ NX: true, PX: 100 }`, or v5's `{ expiration, condition }`).
  // Its errors are `SimpleError`s, a subclass of `ErrorReply` (named "Error", as
  // node-redis leaves them).
  class ErrorReply extends Error {}
  // node-redis 5 replies with its subclass `SimpleError` (`-ERR ...`).
  class SimpleError extends ErrorReply {}
  const asNodeRedis = async (command) => {
    try {
      return await command();
    } catch (error) {
      throw error instanceof ReplyError ? new SimpleError(error.message) : error;
    }
  };
  // node-redis's WATCH failure: `exec()` throws it (named "Error", as
  // node-redis leaves it).
  class WatchError extends Error {
    constructor(message = "One (or more) of the watched keys has been changed") {
      super(message);
    }
  }
  // node-redis's `multi()`: chained commands, then `exec()` (the replies;
  // a changed watched key throws `WatchError`, a failed command
  // `MultiErrorReply` with them all) or `execAsPipeline()` (no MULTI, no
  // WATCH; a failed command throws its error), as node-redis 4.7 does.
  class NodeRedisMulti {
    constructor(client) {
      this._client = client;
      this._queued = [];
    }
    _queue([calls, read]) {
      this._queued.push([calls, read]);
      return this;
    }
    get(key) {
      return this._queue(queueable.get(key));
    }
    set(key, value, options = {}) {
      const { ttl, only, keep, get, at } = nodeRedisSetOptions(options);
      return this._queue(queueable.set(key, value, ttl, only, keep, get, at));
    }
    setEx(key, seconds, value) {
      return this._queue(queueable.set(key, value, expiry("EX", seconds, "setex"), null));
    }
    pSetEx(key, ms, value) {
      return this._queue(queueable.set(key, value, expiry("PX", ms, "psetex"), null));
    }
    setNX(key, value) {
      const [calls, read] = queueable.set(key, value, 0, "NX");
      return this._queue([calls, (done) => (read(done) === "OK" ? 1 : 0)]);
    }
    del(keys) {
      return this._queue(queueable.del([keys]));
    }
    unlink(keys) {
      return this._queue(queueable.del([keys]));
    }
    incr(key) {
      return this._queue(queueable.incrby(key, 1));
    }
    decr(key) {
      return this._queue(queueable.incrby(key, -1));
    }
    incrBy(key, by) {
      return this._queue(queueable.incrby(key, by));
    }
    decrBy(key, by) {
      return this._queue(queueable.incrby(key, -by));
    }
    expire(key, seconds, mode) {
      return this._queue(queueable.pexpire(key, integerArgument(seconds) * 1000, mode ? [mode] : []));
    }
    pExpire(key, ms, mode) {
      return this._queue(queueable.pexpire(key, ms, mode ? [mode] : []));
    }
    expireAt(key, timestamp, mode) {
      return this._queue(queueable.pexpire(key, unixMs(timestamp, 1000), mode ? [mode] : [], true));
    }
    pExpireAt(key, timestamp, mode) {
      return this._queue(queueable.pexpire(key, unixMs(timestamp, 1), mode ? [mode] : [], true));
    }
    exists(keys) {
      return this._queue(queueable.exists([keys]));
    }
    mGet(keys) {
      return this._queue(queueable.mget([keys]));
    }
    mSet(pairs) {
      return this._queue(queueable.mset([nodeRedisPairs(pairs)]));
    }
    async exec() {
      const replies = await execute(this._client._connection(), this._queued, failedCommand);
      if (replies === null) throw new WatchError();
      const errorIndexes = replies.flatMap((reply, i) => (reply instanceof ErrorReply ? [i] : []));
      if (errorIndexes.length) throw new MultiErrorReply(replies, errorIndexes);
      return replies;
    }
    async execAsPipeline() {
      const replies = await execute(null, this._queued, failedCommand);
      const failed = replies.find((reply) => reply instanceof ErrorReply);
      if (failed) throw failed;
      return replies;
    }
  }
  const failedCommand = (message) => new SimpleError(message);
  // node-redis 4's `exec()` when a queued command failed.
  class MultiErrorReply extends ErrorReply {
    constructor(replies, errorIndexes) {
      super(`${errorIndexes.length} commands failed, see .replies and .errorIndexes for more information`);
      this.replies = replies;
      this.errorIndexes = errorIndexes;
    }
  }
  // node-redis's SET options, read in the order its SET.js reads them.
  const nodeRedisSetOptions = (options) => {
    let ttl = 0;
    let keep = false;
    const { expiration } = options;
    let at = false;
    const timed = (type, value) => {
      if (type === "KEEPTTL") keep = true;
      else if (TIME_UNITS.includes(type)) {
        ttl = expiry(type, value.toString());
        at = absolute(type);
      } else throw notModelled(`the SET option ${type}`);
    };
    if (expiration) {
      if (typeof expiration === "string") timed(expiration);
      else timed(expiration.type, expiration.value);
    } else {
      const type = TIME_UNITS.find((unit) => options[unit] !== undefined);
      if (type !== undefined) timed(type, options[type]);
      else if (options.KEEPTTL) keep = true;
    }
    const only = options.condition ?? (options.NX ? "NX" : options.XX ? "XX" : null);
    if (only !== null && only !== "NX" && only !== "XX") throw notModelled(`the SET condition ${only}`);
    return { ttl, only, keep, get: Boolean(options.GET), at };
  };
  // node-redis's MSET argument: an object, `[[key, value], …]` or
  // `[key, value, …]`.
  const nodeRedisPairs = (pairs) => (Array.isArray(pairs) ? pairs.flat() : pairs);
  class RedisClient {
    constructor() {
      this.isOpen = false;
      this.isReady = false;
    }
    // This client's connection, for WATCH and MULTI/EXEC.
    _connection() {
      if (this._id === undefined) this._id = host.connection();
      return this._id;
    }
    watch(keys) {
      return asNodeRedis(async () => {
        await host.watch(this._connection(), [keys].flat().map(String));
        return "OK";
      });
    }
    unwatch() {
      return asNodeRedis(async () => {
        await host.watch(this._connection(), []);
        return "OK";
      });
    }
    multi() {
      return new NodeRedisMulti(this);
    }
    // A client with a connection of its own (its WATCHes are its own).
    duplicate() {
      return new RedisClient();
    }
    // node-redis 4: `fn` gets a client on a connection of its own.
    async executeIsolated(fn) {
      const isolated = new RedisClient();
      await isolated.connect();
      return fn(isolated);
    }
    // node-redis announces 'connect' and 'ready' before `connect()`'s
    // promise resolves, the first time (after the microtasks already
    // queued, as its socket's events come later).
    async connect() {
      this.isOpen = true;
      this.isReady = true;
      if (this._awaited()) {
        await null;
        this._announce();
      }
      this._announced = true;
      return this;
    }
    get(key) {
      return asNodeRedis(() => redisCommands.get(key));
    }
    set(key, value, options = {}) {
      return asNodeRedis(() => {
        const { ttl, only, keep, get, at } = nodeRedisSetOptions(options);
        return redisCommands.set(key, value, ttl, only, keep, get, at);
      });
    }
    del(keys) {
      return asNodeRedis(() => redisCommands.del([keys]));
    }
    unlink(keys) {
      return asNodeRedis(() => redisCommands.del([keys], "unlink"));
    }
    // node-redis 5's: each SCAN's page of keys, until the cursor is 0.
    async *scanIterator(options) {
      let cursor = options?.cursor ?? "0";
      do {
        const reply = await this.scan(cursor, options);
        cursor = reply.cursor;
        yield reply.keys;
      } while (cursor !== "0");
    }
    incr(key) {
      return asNodeRedis(() => redisCommands.incrby(key, 1));
    }
    decr(key) {
      return asNodeRedis(() => redisCommands.incrby(key, -1));
    }
    incrBy(key, by) {
      return asNodeRedis(() => redisCommands.incrby(key, by));
    }
    decrBy(key, by) {
      return asNodeRedis(() => redisCommands.incrby(key, -by));
    }
    eval(script, options = {}) {
      return asNodeRedis(() =>
        redisCommands.eval(script, options.keys ?? [], options.arguments ?? [])
      );
    }
    expire(key, seconds, mode) {
      return asNodeRedis(() => redisCommands.pexpire(key, integerArgument(seconds) * 1000, mode ? [mode] : []));
    }
    pExpire(key, ms, mode) {
      return asNodeRedis(() => redisCommands.pexpire(key, ms, mode ? [mode] : []));
    }
    expireAt(key, timestamp, mode) {
      return asNodeRedis(() => redisCommands.pexpire(key, unixMs(timestamp, 1000), mode ? [mode] : [], true));
    }
    pExpireAt(key, timestamp, mode) {
      return asNodeRedis(() => redisCommands.pexpire(key, unixMs(timestamp, 1), mode ? [mode] : [], true));
    }
    setEx(key, seconds, value) {
      return asNodeRedis(() => redisCommands.set(key, value, expiry("EX", seconds, "setex"), null));
    }
    pSetEx(key, ms, value) {
      return asNodeRedis(() => redisCommands.set(key, value, expiry("PX", ms, "psetex"), null));
    }
    setNX(key, value) {
      return asNodeRedis(async () => ((await redisCommands.set(key, value, 0, "NX")) === "OK" ? 1 : 0));
    }
    exists(keys) {
      return asNodeRedis(() => redisCommands.exists([keys]));
    }
    mGet(keys) {
      return asNodeRedis(() => batched(queueable.mget([keys])));
    }
    mSet(pairs) {
      return asNodeRedis(() => batched(queueable.mset([nodeRedisPairs(pairs)])));
    }
    async ping(message) {
      return message === undefined ? "PONG" : String(message);
    }
    async quit() {
      this.isOpen = false;
      this.isReady = false;
      return "OK";
    }
    async disconnect() {
      this.isOpen = false;
      this.isReady = false;
    }
  }
  Object.assign(RedisClient.prototype, connectionEvents);
  unmodelled(RedisClient.prototype, "redis", NODE_REDIS_UNMODELLED);
  // The key, hash, set and list commands as each library spells them: ioredis's name
  // (null: none), node-redis's, and the command, which takes either's
  // arguments (node-redis's lists are arrays, ioredis's spread). Each is a
  // method of the client (one round trip) and of its MULTI.
  const COLLECTION_COMMANDS = [
    ["ttl", "ttl", (key) => keyCommands.ttl(key)],
    ["pttl", "pTTL", (key) => keyCommands.pttl(key)],
    ["persist", "persist", (key) => keyCommands.persist(key)],
    ["getdel", "getDel", (key) => keyCommands.getdel(key)],
    ["getset", "getSet", (key, value) => keyCommands.getset(key, value)],
    ["getex", null, (key, ...words) => keyCommands.getex(key, getexChange(words))],
    [null, "getEx", (key, options) => keyCommands.getex(key, getexChange(nodeRedisGetExWords(options)))],
    ["keys", "keys", (pattern) => keyCommands.keys(pattern)],
    ["type", "type", (key) => keyCommands.type(key)],
    ["strlen", "strLen", (key) => keyCommands.strlen(key)],
    ["append", "append", (key, value) => keyCommands.append(key, value)],
    ["lmove", null, (key, to, ...sides) => {
      if (sides.length !== 2) throw arity("lmove");
      return keyCommands.lmove(key, to, ...sides);
    }],
    [null, "lMove", (key, to, from, where) => keyCommands.lmove(key, to, from, where)],
    ["rpoplpush", "rPopLPush", (key, to) => keyCommands.rpoplpush(key, to)],
    ["publish", "publish", (channel, message) => keyCommands.publish(channel, message)],
    ["spublish", "sPublish", (channel, message) => keyCommands.publish(channel, message)],
    ["rename", "rename", (key, to) => keyCommands.rename(key, to)],
    ["renamenx", "renameNX", (key, to) => keyCommands.renamenx(key, to)],
    ["scan", null, (cursor, ...options) => keyCommands.scan(cursor, scanWords(options))],
    [null, "scan", (cursor, options) => nodeRedisScan(cursor, options)],
    ["hget", "hGet", (key, field) => hashCommands.hget(key, field)],
    ["hmget", "hmGet", (key, ...fields) => hashCommands.hmget(key, fields)],
    ["hgetall", null, (key) => hashCommands.hgetall(key, Object.prototype)],
    [null, "hGetAll", (key) => hashCommands.hgetall(key, null)],
    ["hexists", "hExists", (key, field) => hashCommands.hexists(key, field)],
    ["hlen", "hLen", (key) => hashCommands.hlen(key)],
    ["hkeys", "hKeys", (key) => hashCommands.hkeys(key)],
    ["hvals", "hVals", (key) => hashCommands.hvals(key)],
    ["hset", "hSet", (key, ...args) => hashCommands.hset(key, args)],
    ["hmset", null, (key, ...args) => hashCommands.hmset(key, args)],
    ["hsetnx", "hSetNX", (key, field, value) => hashCommands.hsetnx(key, field, value)],
    ["hdel", "hDel", (key, ...fields) => hashCommands.hdel(key, fields)],
    ["hincrby", "hIncrBy", (key, field, by) => hashCommands.hincrby(key, field, by)],
    ["hincrbyfloat", "hIncrByFloat", (key, field, by) => hashCommands.hincrbyfloat(key, field, by)],
    ["incrbyfloat", "incrByFloat", (key, by) => ["incrFloat", key, argument(by), (text) => text]],
    ["sadd", "sAdd", (key, ...members) => setCommands.sadd(key, members)],
    ["srem", "sRem", (key, ...members) => setCommands.srem(key, members)],
    ["smembers", "sMembers", (key) => setCommands.smembers(key)],
    ["scard", "sCard", (key) => setCommands.scard(key)],
    ["sismember", "sIsMember", (key, member) => setCommands.sismember(key, member)],
    ["smismember", "smIsMember", (key, ...members) => setCommands.smismember(key, members)],
    ["lpush", "lPush", (key, ...values) => listCommands.lpush(key, values)],
    ["rpush", "rPush", (key, ...values) => listCommands.rpush(key, values)],
    ["lpop", null, (key, count) => listCommands.lpop(key, count)],
    ["rpop", null, (key, count) => listCommands.rpop(key, count)],
    [null, "lPop", (key) => listCommands.lpop(key)],
    [null, "rPop", (key) => listCommands.rpop(key)],
    [null, "lPopCount", (key, count) => listCommands.lpop(key, count)],
    [null, "rPopCount", (key, count) => listCommands.rpop(key, count)],
    ["lrange", "lRange", (key, start, stop) => listCommands.lrange(key, start, stop)],
    ["llen", "lLen", (key) => listCommands.llen(key)],
    ["lindex", "lIndex", (key, index) => listCommands.lindex(key, index)],
    ["ltrim", "lTrim", (key, start, stop) => listCommands.ltrim(key, start, stop)],
    ["lrem", "lRem", (key, count, value) => listCommands.lrem(key, count, value)],
    ["lset", "lSet", (key, index, value) => listCommands.lset(key, index, value)],
    ["zadd", null, (key, ...args) => ioredisZset.zadd(key, args)],
    [null, "zAdd", (key, members, options) => nodeRedisZset.zAdd(key, members, options)],
    ["zincrby", null, (key, by, member) => ioredisZset.zincrby(key, by, member)],
    [null, "zIncrBy", (key, by, member) => nodeRedisZset.zIncrBy(key, by, member)],
    ["zrem", "zRem", (key, ...members) => ioredisZset.zrem(key, members)],
    ["zremrangebyscore", null, (key, min, max) => ioredisZset.zremrangebyscore(key, min, max)],
    [null, "zRemRangeByScore", (key, min, max) => nodeRedisZset.zRemRangeByScore(key, min, max)],
    ["zremrangebyrank", "zRemRangeByRank", (key, start, stop) => ioredisZset.zremrangebyrank(key, start, stop)],
    ["zpopmin", null, (key, count) => ioredisZset.zpop(key, false, count)],
    ["zpopmax", null, (key, count) => ioredisZset.zpop(key, true, count)],
    [null, "zPopMin", (key) => nodeRedisZset.zPop(key, false)],
    [null, "zPopMax", (key) => nodeRedisZset.zPop(key, true)],
    [null, "zPopMinCount", (key, count) => nodeRedisZset.zPop(key, false, count)],
    [null, "zPopMaxCount", (key, count) => nodeRedisZset.zPop(key, true, count)],
    ["zcard", "zCard", (key) => ioredisZset.zcard(key)],
    ["zscore", null, (key, member) => ioredisZset.zscore(key, member)],
    [null, "zScore", (key, member) => nodeRedisZset.zScore(key, member)],
    ["zmscore", null, (key, ...members) => ioredisZset.zmscore(key, members)],
    [null, "zmScore", (key, members) => nodeRedisZset.zmScore(key, members)],
    ["zrank", "zRank", (key, member) => ioredisZset.zrank(key, member)],
    ["zrevrank", "zRevRank", (key, member) => ioredisZset.zrevrank(key, member)],
    ["zcount", null, (key, min, max) => ioredisZset.zcount(key, min, max)],
    [null, "zCount", (key, min, max) => nodeRedisZset.zCount(key, min, max)],
    ["zrange", null, (key, start, stop, ...options) => ioredisZset.zrange(key, start, stop, options)],
    ["zrevrange", null, (key, start, stop, ...options) => ioredisZset.zrange(key, start, stop, options, false, true)],
    ["zrangebyscore", null, (key, min, max, ...options) => ioredisZset.zrange(key, min, max, options, true)],
    ["zrevrangebyscore", null, (key, max, min, ...options) => ioredisZset.zrange(key, max, min, options, true, true)],
    [null, "zRange", (key, min, max, options) => nodeRedisZset.zRange(key, min, max, options)],
    [null, "zRangeWithScores", (key, min, max, options) => nodeRedisZset.zRangeWithScores(key, min, max, options)],
    [null, "zRangeByScore", (key, min, max, options) => nodeRedisZset.zRangeByScore(key, min, max, options)],
  ];
  const method = (prototype, name, call) => {
    Object.defineProperty(prototype, name, { configurable: true, writable: true, value: call });
  };
  for (const [ioredis, nodeRedis, command] of COLLECTION_COMMANDS) {
    if (ioredis) {
      method(Redis.prototype, ioredis, async (...args) => hashCommand(command(...args)));
      method(IoredisQueue.prototype, ioredis, function (...args) {
        return this._queue(queueable.hash(command(...args)));
      });
    }
    if (nodeRedis) {
      method(RedisClient.prototype, nodeRedis, (...args) => asNodeRedis(() => hashCommand(command(...args))));
      method(NodeRedisMulti.prototype, nodeRedis, function (...args) {
        return this._queue(queueable.hash(command(...args)));
      });
    }
  }
  // A queued command whose arguments Redis refuses (an increment that is
  // not an integer, a SET option out of place) still queues: Redis reads
  // a command's arguments when EXEC runs it, so its refusal is that
  // command's reply, and the others run. A command of the wrong arity is
  // refused as it is queued, as Redis does (and as the client's own
  // checks are).
  for (const prototype of [IoredisQueue.prototype, NodeRedisMulti.prototype]) {
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const { value: queue } = Object.getOwnPropertyDescriptor(prototype, name);
      if (typeof queue !== "function" || name === "constructor" || name.startsWith("_")) continue;
      if (["exec", "execAsPipeline", "discard"].includes(name)) continue;
      method(prototype, name, function (...args) {
        try {
          return queue.apply(this, args);
        } catch (error) {
          if (!(error instanceof ReplyError) || /wrong number of arguments/.test(error.message)) throw error;
          return this._queue([
            [],
            () => {
              throw error;
            },
          ]);
        }
      });
    }
  }
  // A command not modelled, queued in a MULTI, says so as the client's does.
  unmodelled(IoredisQueue.prototype, "ioredis", UNMODELLED);
  unmodelled(NodeRedisMulti.prototype, "redis", NODE_REDIS_UNMODELLED);

  const nodeRedis = Object.freeze({
    createClient: () => new RedisClient(),
    // A cluster is the one simulated Redis (its nodes and slots are not
    // modelled: keys of different slots in one call are not refused).
    createCluster: () => new RedisClient(),
    ErrorReply,
    SimpleError,
    WatchError,
    MultiErrorReply,
  });

  Redis.Redis = Redis;
  Redis.default = Redis;
  Redis.ReplyError = ReplyError;
  // `new Redis.Cluster(nodes, options)`: the one simulated Redis, as
  // `createCluster` (its nodes and slots are not modelled).
  Redis.Cluster = class Cluster extends Redis {};

  // pg (node-postgres): `Pool`, `Client`, `query(text, values)` giving
  // `{ command, rowCount, rows, fields }`. Each query is one statement to
  // the simulated PostgreSQL (`src/script/sql/`, docs/sql.md): its round
  // trip, its counting and its trace. A client from `pool.connect()` keeps
  // its session (its transaction) until `release()`; a released client
  // goes back to its server's pool with whatever transaction it left
  // open, as a real connection does; `release(err)` closes it, which
  // rolls its transaction back. `pool.query` runs its statement on a
  // connection of the pool as pg-pool does: the one released last (its
  // session, whatever it left open), or a new one.
  class DatabaseError extends Error {
    constructor(fields) {
      super(fields.message);
      this.name = "error";
      this.length = fields.message.length;
      this.severity = "ERROR";
      this.code = fields.code;
      this.detail = fields.detail ?? undefined;
      this.hint = undefined;
      this.position = undefined;
      this.schema = fields.table ? "public" : undefined;
      this.table = fields.table ?? undefined;
      // The real server names it; the model's NOT NULL refusal names it
      // in its message, as PostgreSQL's does.
      this.column =
        fields.column ??
        (fields.code === "23502" ? /^null value in column "([^"]+)"/.exec(fields.message)?.[1] : undefined);
      this.dataType = undefined;
      this.constraint = fields.constraint ?? undefined;
    }
  }
  // pg's default type parsers, by PostgreSQL type id.
  const pgParsers = {
    20: (value) => String(value),
    1700: (value) => String(value),
    1114: (value) => new Date(value),
    1184: (value) => new Date(value),
    // pg-types' parseDate: the day's local midnight.
    1082: (value) => new Date(`${value}T00:00:00`),
    // pg-types' parseFloatArray: a numeric[]'s elements as numbers.
    1231: (value) => value.map((item) => (item === null ? null : parseFloat(item))),
  };
  // pg.types: a parser set with `setTypeParser(oid, parse)` is handed each
  // value of that type as PostgreSQL's text, as pg-types does, and its
  // answer is the row's value (`setTypeParser(20, BigInt)`, a numeric as a
  // number, a timestamp kept as text).
  const pgUserParsers = new Map();
  const pad = (n, width = 2) => String(n).padStart(width, "0");
  const pgJsonText = (value) =>
    Array.isArray(value)
      ? `[${value.map(pgJsonText).join(", ")}]`
      : value !== null && typeof value === "object"
        ? `{${Object.entries(value)
            .map(([k, v]) => `${JSON.stringify(k)}: ${pgJsonText(v)}`)
            .join(", ")}}`
        : JSON.stringify(value);
  // An array element's text: quoted where PostgreSQL quotes it.
  const pgArrayItem = (text) =>
    text === "" || text.toUpperCase() === "NULL" || /[\s{}",\\]/.test(text)
      ? `"${text.replace(/["\\]/g, "\\$&")}"`
      : text;
  const pgText = (value, oid) => {
    if (Array.isArray(value) && oid !== 114 && oid !== 3802) {
      const items = value.map((item) =>
        item === null ? "NULL" : typeof item === "boolean" ? (item ? "t" : "f") : pgArrayItem(String(item)),
      );
      return `{${items.join(",")}}`;
    }
    switch (oid) {
      case 16:
        return value === true || value === "t" || value === "true" ? "t" : "f";
      case 114:
      case 3802:
        return typeof value === "string" ? value : pgJsonText(value);
      case 1114:
      case 1184: {
        const date = new Date(value);
        if (Number.isNaN(date.getTime())) return String(value);
        const ms = date.getUTCMilliseconds();
        const text =
          `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
          `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}` +
          (ms ? `.${pad(ms, 3).replace(/0+$/, "")}` : "");
        return oid === 1184 ? `${text}+00` : text;
      }
      default:
        return String(value);
    }
  };
  // pg-types' own parser of each type, as `getTypeParser` hands it out.
  const pgDefaultParser = (oid) => {
    switch (oid) {
      case 16:
        return (text) => text === "TRUE" || text === "t" || text === "true" || text === "y" || text === "yes" || text === "on" || text === "1";
      case 21:
      case 23:
      case 26:
        return (text) => parseInt(text, 10);
      case 700:
      case 701:
        return (text) => parseFloat(text);
      case 114:
      case 3802:
        return (text) => JSON.parse(text);
      case 1114:
      case 1184:
        return (text) => new Date(oid === 1114 ? `${text.replace(" ", "T")}Z` : text.replace(" ", "T").replace(/\+00$/, "Z"));
      default:
        return (text) => text;
    }
  };
  const pgTypes = Object.freeze({
    setTypeParser(oid, format, parse) {
      const parser = typeof format === "function" ? format : parse;
      if (typeof parser !== "function") throw new TypeError("The parser must be a function");
      pgUserParsers.set(Number(oid), parser);
    },
    getTypeParser(oid) {
      return pgUserParsers.get(Number(oid)) ?? pgDefaultParser(Number(oid));
    },
    builtins: Object.freeze({
      BOOL: 16, BYTEA: 17, CHAR: 18, INT8: 20, INT2: 21, INT4: 23, TEXT: 25, OID: 26, JSON: 114,
      FLOAT4: 700, FLOAT8: 701, VARCHAR: 1043, DATE: 1082, TIME: 1083, TIMESTAMP: 1114,
      TIMESTAMPTZ: 1184, INTERVAL: 1186, NUMERIC: 1700, UUID: 2950, JSONB: 3802,
    }),
  });
  // pg's arrayString: an array goes as PostgreSQL's text of one, each
  // element quoted (`[1, null]` is `{"1",NULL}`), so a column or a cast
  // reads it as the server does (and a jsonb column refuses it).
  const pgArrayParam = (value) =>
    `{${value
      .map((item) =>
        item === null || item === undefined
          ? "NULL"
          : Array.isArray(item)
            ? pgArrayParam(item)
            : `"${pgParam(item).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`,
      )
      .join(",")}}`;
  const pgParam = (value) => {
    if (value === null || value === undefined) return null;
    if (value instanceof Date) return value.toISOString();
    if (Array.isArray(value)) return pgArrayParam(value);
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  };
  // `done(error)`, if given, runs as the reply arrives (a pool's query
  // gives its connection back there, as pg-pool does in the query's
  // callback, closing it if the query failed).
  const pgRun = async (session, text, values, rowMode, done, origin) => {
    if (text !== null && typeof text === "object") {
      values = values ?? text.values;
      rowMode = text.rowMode;
      text = text.text;
    }
    if (typeof text !== "string") {
      const error = new TypeError("Client was passed a null or undefined query");
      done?.(error);
      throw error;
    }
    let reply;
    try {
      reply = await host.sql(text, (values ?? []).map(pgParam), session, origin);
    } catch (error) {
      done?.(error);
      throw error;
    }
    // One error for the caller and for `done` (pg-pool's release(err)).
    const error = reply.error && new DatabaseError(reply.error);
    done?.(error);
    if (error) throw error;
    const parsers = reply.fields.map((field) => {
      const user = pgUserParsers.get(field.dataTypeID);
      return user ? (value) => user(pgText(value, field.dataTypeID)) : pgParsers[field.dataTypeID];
    });
    const rows = reply.rows.map((row) => {
      const names = reply.fields.map((field) => field.name);
      const values = names.map((name, i) => {
        const value = row[name];
        return value === null || value === undefined || !parsers[i] ? value ?? null : parsers[i](value);
      });
      if (rowMode === "array") return values;
      const parsed = {};
      names.forEach((name, i) => {
        parsed[name] = values[i];
      });
      return parsed;
    });
    return {
      command: reply.command,
      rowCount: reply.rowCount,
      oid: reply.command === "INSERT" ? 0 : null,
      rows,
      fields: reply.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })),
      rowAsArray: rowMode === "array",
    };
  };
  // `query(text, values?, callback?)` as a promise, or with a callback;
  // `start(run)` may hold the statement back (a full pool) and name the
  // session it runs on (a pool's connection).
  const pgQuery = (session, text, values, callback, start = (run) => run()) => {
    if (typeof values === "function") {
      callback = values;
      values = undefined;
    }
    const result = start((done, origin, on = session) => pgRun(on, text, values, undefined, done, origin));
    if (typeof callback !== "function") return result;
    result.then(
      (res) => callback(null, res),
      (error) => callback(error)
    );
    return undefined;
  };
  // A connection closes: PostgreSQL rolls back its transaction and
  // releases its session-level advisory locks, one statement's round trip
  // later (a ROLLBACK that closes the session; nothing if it has neither).
  const pgClose = (session) =>
    host.closes(session)
      ? host.sql("ROLLBACK", [], session, undefined, true).then(
          () => undefined,
          () => undefined
        )
      : Promise.resolve();
  // A client is one connection and sends one query at a time, as pg's
  // does: a query made while another is in flight waits in the client's
  // queue and goes out as the one before it gets its reply (as a
  // microtask of the request that made it, placed at the line that made
  // it).
  class PgClient {
    constructor(options, session) {
      this.options = options;
      this.session = session ?? host.session();
      this._ending = false;
      this._busy = false;
      this._queue = [];
    }
    _send(run) {
      const next = () => this._next();
      if (!this._busy) {
        this._busy = true;
        return run(next);
      }
      const request = host.request();
      const origin = new Error();
      return new Promise((resolve, reject) => {
        this._queue.push([request, () => run(next, origin).then(resolve, reject)]);
      });
    }
    _next() {
      const queued = this._queue.shift();
      if (!queued) {
        this._busy = false;
        return;
      }
      const [request, send] = queued;
      host.runAs(request, send);
    }
    connect(callback) {
      if (typeof callback === "function") {
        callback(null);
        return undefined;
      }
      return Promise.resolve();
    }
    // `origin` (not pg's, and not in `query.length`): where a statement
    // sent later than its call was written (postgres.js sends when
    // awaited).
    query(text, values, callback, ...[origin]) {
      return pgQuery(this.session, text, values, callback, (run) =>
        this._send((next, queued) => run(next, queued ?? origin))
      );
    }
    // Resolves once the connection has closed.
    end(callback) {
      this._ending = true;
      this._closed ??= pgClose(this.session);
      if (typeof callback !== "function") return this._closed;
      this._closed.then(() => callback());
      return undefined;
    }
    on() {
      return this;
    }
  }
  // A pool hands out at most `max` connections (10 by default, as pg's)
  // at once, per server: `connect()` and `pool.query()` wait, first come
  // first served, for one to come back (`release()`, or the query's
  // reply), as pg-pool's queue does. A connection that comes back waits
  // in the pool with its session; the next to take one gets the one that
  // came back last (pg-pool's idle list), whatever transaction, settings
  // or session locks it kept.
  class PgPool {
    constructor(options = {}) {
      this.options = options;
      this.max = options.max ?? 10;
      this.ending = false;
      this.ended = false;
      this._out = 0;
      this._idle = [];
      this._waiting = [];
    }
    get totalCount() {
      return this._out + this._idle.length;
    }
    get idleCount() {
      return this._idle.length;
    }
    get waitingCount() {
      return this._waiting.length;
    }
    // A connection (its client): now, or a promise of it once a release
    // hands one on, which fails after `connectionTimeoutMillis` (a timer
    // of the request that waits), as pg-pool's does.
    _take() {
      if (this._out < this.max) {
        this._out += 1;
        return this._acquire(this._idle.pop());
      }
      return new Promise((resolve, reject) => {
        const ms = Number(this.options.connectionTimeoutMillis) || 0;
        let timer;
        const waiter = (client) => {
          clearTimeout(timer);
          resolve(client);
        };
        if (ms > 0) {
          timer = setTimeout(() => {
            this._waiting.splice(this._waiting.indexOf(waiter), 1);
            reject(new Error("timeout exceeded when trying to connect"));
          }, ms);
        }
        this._waiting.push(waiter);
      });
    }
    // pg-pool announces a new connection with 'connect' (a listener's
    // queries go first on it) and every checkout with 'acquire'.
    _acquire(client) {
      if (!client) {
        client = new PgClient(this.options);
        this.emit("connect", client);
      }
      this.emit("acquire", client);
      return client;
    }
    // A connection comes back, as pg-pool's `_release`: 'release', then
    // kept, or closed (an error, an ending pool or client, `maxUses`
    // reached) and replaced only once it has closed; then the first
    // waiter gets one.
    _release(client, error) {
      client._uses = (client._uses ?? 0) + 1;
      this.emit("release", error, client);
      this._out -= 1;
      const spent = client._uses >= (this.options.maxUses ?? Infinity);
      if (error || this.ending || client._ending || spent) {
        this._remove(client, () => this._pulse());
        return;
      }
      this._idle.push(client);
      this._pulse();
    }
    // A connection leaves the pool now; 'remove' once it has closed.
    _remove(client, then) {
      client.end().then(() => {
        this.emit("remove", client);
        then?.();
      });
    }
    // pg-pool's `_pulseQueue`: an ending pool closes its idle connections
    // and has ended once none is left; else the first waiter gets the
    // connection that came back last, or a new one if there is room.
    _pulse() {
      if (this.ended) return;
      if (this.ending) {
        for (const client of this._idle.splice(0)) this._remove(client);
        if (this.totalCount === 0) {
          this.ended = true;
          this._ended();
        }
        return;
      }
      if (!this._waiting.length || (!this._idle.length && this._out >= this.max)) return;
      this._out += 1;
      this._waiting.shift()(this._acquire(this._idle.pop()));
    }
    _refuse(callback, message) {
      const error = new Error(message);
      if (typeof callback !== "function") return Promise.reject(error);
      callback(error);
      return undefined;
    }
    // pg-pool's query: a connection, the statement on it (behind any
    // query a 'connect' or 'acquire' listener sent), and the connection
    // back as the reply arrives (closed if the statement failed).
    query(text, values, callback, ...[origin]) {
      if (this.ending) {
        return this._refuse(typeof values === "function" ? values : callback, ENDED_POOL);
      }
      return pgQuery(undefined, text, values, callback, (run) => {
        const go = (client) =>
          client._send((next, queued) =>
            run(
              (error) => {
                this._release(client, error);
                next();
              },
              queued ?? origin,
              client.session
            )
          );
        const taken = this._take();
        return taken instanceof PgClient ? go(taken) : taken.then(go);
      });
    }
    connect(callback) {
      if (this.ending) return this._refuse(callback, ENDED_POOL);
      const make = (client) => {
        let released = false;
        client.release = (error) => {
          if (released) {
            throw new Error(
              "Release called on client which has already been released to the pool."
            );
          }
          released = true;
          this._release(client, error);
        };
        return client;
      };
      const taken = this._take();
      const client = taken instanceof PgClient ? Promise.resolve(make(taken)) : taken.then(make);
      if (typeof callback === "function") {
        client.then((client) => callback(null, client, client.release), (error) => callback(error));
        return undefined;
      }
      return client;
    }
    // Closes the idle connections now and each checked-out one as it comes
    // back; resolves once none is left. Queries waiting for a connection
    // wait for ever, as on pg-pool.
    end(callback) {
      if (this.ending) return this._refuse(callback, "Called end on pool more than once");
      this.ending = true;
      const ended = new Promise((resolve) => {
        this._ended = resolve;
      });
      this._pulse();
      if (typeof callback !== "function") return ended;
      ended.then(() => callback());
      return undefined;
    }
  }
  const ENDED_POOL = "Cannot use a pool after calling end on the pool";
  Object.assign(PgPool.prototype, listenerMethods);
  const pg = Object.freeze({
    Pool: PgPool,
    Client: PgClient,
    DatabaseError,
    types: pgTypes,
  });

  // postgres (postgres.js 3): `postgres(url?, options?)` gives `sql`, a
  // tagged template. Each `sql`…`` is one statement, its interpolated
  // values its parameters ($1, $2, …), sent when it is first awaited (as
  // postgres.js does) on a connection of a pool of `max` (10), the pg
  // pool's above; placed at the line that wrote it. Its result is an
  // array of rows with `count`, `command` and `columns`; an error is a
  // `PostgresError` with postgres.js's fields (`code`, `detail`,
  // `constraint_name`, `table_name`, …). A nested `sql`…`` is a fragment;
  // `sql(value)` a helper read by the keyword before it, as postgres.js
  // reads it: after `insert` an object (or objects) gives `("a", "b")
  // values ($1, $2)`, after `update` (its `set`) `"a" = $1, "b" = $2`,
  // after `in` an array gives `($1, $2)`, after `values` rows of them,
  // and elsewhere a string or an array of strings gives quoted
  // identifiers. `sql.begin([mode,] fn)` runs `fn(sql)` in a transaction
  // on a connection of its own (`BEGIN mode`, then COMMIT, or ROLLBACK if
  // it throws, and its error); `sql.savepoint(fn)` inside it;
  // `sql.unsafe(text, params)`; `sql.json(value)`, `sql.array(value)`;
  // `sql.end()`.
  class PostgresError extends Error {
    constructor(fields, query, parameters) {
      super(fields.message);
      this.name = "PostgresError";
      this.severity_local = "ERROR";
      this.severity = "ERROR";
      this.code = fields.code;
      this.detail = fields.detail ?? undefined;
      this.schema_name = fields.table ? "public" : undefined;
      this.table_name = fields.table ?? undefined;
      this.column_name = fields.column ?? undefined;
      this.constraint_name = fields.constraint ?? undefined;
      this.query = query;
      this.parameters = parameters;
    }
  }
  const postgres = (() => {
    class Helper {
      constructor(value, columns) {
        this.value = value;
        this.columns = columns;
      }
    }
    class Parameter {
      constructor(value) {
        this.value = value;
      }
    }
    const ident = (name) => `"${String(name).replace(/"/g, '""')}"`;
    // The keyword a helper follows decides what it writes (postgres.js's
    // `builders`): the last of them in the text before it.
    const keyword = (before) => {
      const found = [...before.matchAll(/(?:^|[\s(])(values|in|select|as|returning|update|insert)(?=$|[\s(])|(\()\s*$/gi)];
      const last = found[found.length - 1];
      if (!last) return null;
      return last[2] ? "select" : last[1].toLowerCase();
    };
    const columnsOf = (rows, columns) =>
      columns.length > 0 ? columns.flat() : Object.keys(rows[0] ?? {});
    const render = (arg, before, params) => {
      const param = (value) => {
        if (value === undefined) {
          const error = new Error("UNDEFINED_VALUE: Undefined values are not allowed");
          error.code = "UNDEFINED_VALUE";
          throw error;
        }
        params.push(value instanceof Parameter ? value.value : value);
        // postgres.js types a boolean, a Date and a BigInt parameter
        // (bool, timestamptz, int8) and leaves the rest to the server,
        // whose type for it (from the statement) picks the serializer: an
        // array or an object goes as pg's does, an array's literal or
        // JSON, as postgres.js serializes them for an array or json
        // column (where the server types it text, postgres.js sends an
        // object as "[object Object]": not modelled).
        const type =
          value === true || value === false
            ? "::bool"
            : value instanceof Date
              ? "::timestamptz"
              : typeof value === "bigint"
                ? "::int8"
                : "";
        return `$${params.length}${type}`;
      };
      if (arg instanceof Query) return arg._build(params);
      if (!(arg instanceof Helper)) return param(arg);
      const { value, columns } = arg;
      const kind = keyword(before);
      const rows = Array.isArray(value) ? value : [value];
      const objects = rows.length > 0 && rows.every((row) => row !== null && typeof row === "object" && !Array.isArray(row) && !(row instanceof Parameter));
      if (kind === "insert" && objects) {
        const names = columnsOf(rows, columns);
        const tuples = rows.map((row) => `(${names.map((name) => param(row[name] ?? null)).join(",")})`);
        return `(${names.map(ident).join(",")})values${tuples.join(",")}`;
      }
      if (kind === "update" && objects) {
        const names = columnsOf(rows, columns);
        return names.map((name) => `${ident(name)}=${param(rows[0][name] ?? null)}`).join(",");
      }
      if (kind === "in") {
        return rows.length === 0 ? "(null)" : `(${rows.map(param).join(",")})`;
      }
      if (kind === "values") {
        const tuples = objects ? rows.map((row) => columnsOf([row], columns).map((name) => row[name])) : rows;
        return tuples.map((tuple) => `(${(Array.isArray(tuple) ? tuple : [tuple]).map(param).join(",")})`).join(",");
      }
      if (objects) {
        const names = columnsOf(rows, columns);
        return names.map(ident).join(",");
      }
      return rows.map(ident).join(",");
    };
    class Query {
      constructor(sql, strings, args, origin) {
        this._sql = sql;
        this._strings = strings;
        this._args = args;
        this._origin = origin;
        this._promise = null;
      }
      _build(params) {
        let text = this._strings[0];
        this._args.forEach((arg, i) => {
          text += render(arg, text, params) + this._strings[i + 1];
        });
        return text;
      }
      execute() {
        if (!this._promise) {
          const params = [];
          const text = this._unsafe ?? this._build(params);
          this._promise = this._sql._run(text, this._unsafe !== undefined ? this._args : params, this._origin);
        }
        return this;
      }
      then(resolve, reject) {
        return this.execute()._promise.then(resolve, reject);
      }
      catch(reject) {
        return this.then(undefined, reject);
      }
      finally(then) {
        return this.execute()._promise.finally(then);
      }
      get [Symbol.toStringTag]() {
        return "Query";
      }
    }
    const toResult = (reply, text) => {
      const rows = reply.rows;
      const result = Object.assign([], rows);
      result.count = reply.rowCount ?? rows.length;
      result.command = reply.command;
      result.columns = reply.fields.map((field) => ({ name: field.name, type: field.dataTypeID }));
      result.state = {};
      result.statement = { string: text };
      return result;
    };
    const make = (run, pool) => {
      const sql = (first, ...rest) => {
        if (Array.isArray(first) && Array.isArray(first.raw)) {
          return new Query(sql, first, rest, new Error());
        }
        return new Helper(first, rest);
      };
      sql._run = run;
      sql.unsafe = (text, params = []) => {
        const query = new Query(sql, [text], params, new Error());
        query._unsafe = String(text);
        return query;
      };
      sql.json = (value) => new Parameter(JSON.stringify(value));
      sql.array = (value) => new Parameter(value);
      sql.end = () => (pool ? pool.end() : Promise.resolve());
      sql.close = sql.end;
      sql.PostgresError = PostgresError;
      return sql;
    };
    const run = async (send, text, params, origin) => {
      try {
        return toResult(await send(text, params, origin), text);
      } catch (error) {
        if (error instanceof DatabaseError) {
          throw new PostgresError(error, text, params);
        }
        throw error;
      }
    };
    return function postgres(url, options) {
      if (url !== null && typeof url === "object") options = url;
      const pool = new PgPool({ max: options?.max ?? 10 });
      const pooled = (text, params, origin) => pool.query(text, params, undefined, origin);
      const sql = make((text, params, origin) => run(pooled, text, params, origin), pool);
      sql.begin = async (mode, fn) => {
        if (typeof mode === "function") [mode, fn] = ["", mode];
        const client = await pool.connect();
        const send = (text, params, origin) => client.query(text, params, undefined, origin);
        const inner = make((text, params, origin) => run(send, text, params, origin), null);
        let savepoints = 0;
        inner.savepoint = async (name, body) => {
          if (typeof name === "function") [name, body] = [`s${++savepoints}`, name];
          await inner.unsafe(`SAVEPOINT ${name}`);
          try {
            const result = await body(inner);
            await inner.unsafe(`RELEASE SAVEPOINT ${name}`);
            return result;
          } catch (error) {
            await inner.unsafe(`ROLLBACK TO SAVEPOINT ${name}`);
            throw error;
          }
        };
        try {
          await inner.unsafe(mode ? `BEGIN ${mode}` : "BEGIN");
          let result = await fn(inner);
          if (Array.isArray(result)) result = await Promise.all(result);
          await inner.unsafe("COMMIT");
          return result;
        } catch (error) {
          await inner.unsafe("ROLLBACK").catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      };
      return sql;
    };
  })();
  postgres.PostgresError = PostgresError;
  postgres.default = postgres;

  // ---------------------------------------------------------------------
  // memcached clients. Values are the cache's JSON values; a TTL is in
  // seconds, as memcached's (the simulated cache takes ms).

  // memjs hands back Buffers: a value is the Buffer of its text's UTF-8.
  const memjsFlags = () => nodePart().Buffer.from([0, 0, 0, 0]);
  const memjsValue = (value) => {
    if (typeof value === "string") return value;
    if (value instanceof nodePart().Buffer) return value.toString();
    const received =
      value === null || value === undefined
        ? `Received ${value}`
        : typeof value === "object"
          ? `Received an instance of ${value.constructor ? value.constructor.name : "Object"}`
          : `Received type ${typeof value} (${String(value)})`;
    throw new TypeError(
      "The first argument must be of type string or an instance of Buffer, ArrayBuffer, " +
        `or Array or an Array-like Object. ${received}`
    );
  };
  // memjs's two forms: a promise, or `callback(err, ...results)`.
  const memjsCall = (callback, run, spread) => {
    const promise = run();
    if (typeof callback !== "function") return promise;
    promise.then(
      (result) => callback(null, ...spread(result)),
      (error) => callback(error, null, null)
    );
    return undefined;
  };
  class MemjsClient {
    constructor(servers, options = {}) {
      this.servers = servers;
      // memjs logs a failed command's message with its `logger` (console).
      this.options = { expires: 0, logger: console, ...options };
    }
    static create(servers, options) {
      return new MemjsClient(servers, options);
    }
    _ttl(options) {
      const seconds = (options && options.expires) || this.options.expires || 0;
      return Number(seconds) * 1000;
    }
    get(key, callback) {
      return memjsCall(
        callback,
        async () => {
          const value = await cache.get(key);
          return value === undefined
            ? { value: null, flags: null }
            : { value: nodePart().Buffer.from(String(value)), flags: memjsFlags() };
        },
        (result) => [result.value, result.flags]
      );
    }
    _store(kind, key, value, options, callback) {
      if (typeof options === "function") [options, callback] = [{}, options];
      return memjsCall(
        callback,
        async () => {
          const text = memjsValue(value);
          const ttl = this._ttl(options);
          if (kind === "set") return cache.set(key, text, ttl);
          if (kind === "add") return cache.add(key, text, ttl);
          return host.replace(key, text, ttl);
        },
        (stored) => [stored]
      );
    }
    set(key, value, options, callback) {
      return this._store("set", key, value, options, callback);
    }
    add(key, value, options, callback) {
      return this._store("add", key, value, options, callback);
    }
    replace(key, value, options, callback) {
      return this._store("replace", key, value, options, callback);
    }
    delete(key, callback) {
      return memjsCall(callback, () => cache.delete(key), (deleted) => [deleted]);
    }
    _counter(name, sign, key, amount, options, callback) {
      if (typeof options === "function") [options, callback] = [{}, options];
      return memjsCall(
        callback,
        async () => {
          // memjs 1.3 reads `options.initial` unguarded in `decrement`.
          if (options === undefined && name === "DECREMENT") {
            throw new TypeError("Cannot read properties of undefined (reading 'initial')");
          }
          options = options || {};
          // memjs writes the amount, the initial value and the expiry as
          // unsigned 32-bit words (Node's range errors and truncation).
          const extras = nodePart().Buffer.alloc(20);
          extras.writeUInt32BE(amount, 4);
          extras.writeUInt32BE(options.initial || 0, 12);
          extras.writeUInt32BE(options.expires || this.options.expires || 0, 16);
          let digits;
          try {
            digits = await host.counter(
              key,
              sign * extras.readUInt32BE(4),
              extras.readUInt32BE(12),
              extras.readUInt32BE(16) * 1000
            );
          } catch (error) {
            const message = `MemJS ${name}: Incr/Decr on non-numeric value`;
            this.options.logger.log(message);
            throw new Error(message);
          }
          // memjs reads the 64-bit reply as `(high << 8) + low`, so a
          // value past 2^32 comes back as another number.
          const value = BigInt(digits);
          return { success: true, value: (Number(value >> 32n) << 8) + Number(value & 0xffffffffn) };
        },
        (result) => [result.success, result.value]
      );
    }
    increment(key, amount, options, callback) {
      return this._counter("INCREMENT", 1, key, amount, options, callback);
    }
    decrement(key, amount, options, callback) {
      return this._counter("DECREMENT", -1, key, amount, options, callback);
    }
    touch(key, expires, callback) {
      return memjsCall(
        callback,
        () => host.touch(key, Number(expires) * 1000 || 0),
        (touched) => [touched]
      );
    }
    // memjs 1.3.2 sends APPEND's opcode for `prepend` too: it appends.
    _attach(name, key, value, callback) {
      return memjsCall(
        callback,
        async () => {
          if (await host.attach(key, memjsValue(value), false)) return true;
          const message = `MemJS ${name}: Item not stored`;
          this.options.logger.log(message);
          throw new Error(message);
        },
        (stored) => [stored]
      );
    }
    append(key, value, callback) {
      return this._attach("APPEND", key, value, callback);
    }
    prepend(key, value, callback) {
      return this._attach("PREPEND", key, value, callback);
    }
    close() {}
    quit() {}
  }
  // A memcached command the simulation does not model says so, and lists
  // the client's commands it does, as the Redis clients' do.
  const unmodelledMemcached = (prototype, library, names) => {
    const has = Object.getOwnPropertyNames(prototype)
      .filter((name) => name !== "constructor" && !name.startsWith("_"))
      .join(", ");
    notModelledOn(
      prototype,
      names,
      (name) => `${library}: ${name} is not modelled by the simulated memcached (it has ${has})`
    );
  };
  unmodelledMemcached(MemjsClient.prototype, "memjs", [
    "flush", "stats", "statsWithKey", "resetStats", "version", "versionAll",
  ]);
  const memjs = Object.freeze({ Client: MemjsClient });

  // The `memcached` package: callbacks only, `callback(err, data)` with
  // `err` undefined on success. Values keep their type (memcached's flags
  // carry it): a number comes back a number, an object as JSON.
  const notStored = () => {
    const error = new Error("Item is not stored");
    error.notStored = true;
    return error;
  };
  // An EventEmitter (prelude/events.js, run when the class is first made).
  const memcached = lazy(() => {
    class Memcached extends eventsPart().EventEmitter {
      constructor(location, options = {}) {
        super();
        this.servers = location;
        this.options = options;
      }
      _call(callback, run) {
        const done = typeof callback === "function" ? callback : () => {};
        run().then(
          ([error, data]) => done(error, data),
          (error) => done(error, false)
        );
      }
      get(key, callback) {
        if (Array.isArray(key)) return this.getMulti(key, callback);
        this._call(callback, async () => [undefined, await cache.get(key)]);
      }
      // `{ [key]: value, cas }`, the CAS unique as text; undefined on a miss.
      gets(key, callback) {
        this._call(callback, async () => {
          const found = await host.gets(key);
          return [undefined, found === undefined ? undefined : { [key]: found.value, cas: found.cas }];
        });
      }
      // One `get` of every key (one round trip): the hits, by key.
      getMulti(keys, callback) {
        this._call(callback, async () => {
          const answers = await host.exec(null, keys.map((key) => ["get", key]));
          const found = {};
          keys.forEach((key, i) => {
            if (!answers[i].absent) found[key] = answers[i].value;
          });
          return [undefined, found];
        });
      }
      // true if the value was the one `gets` saw, false if another store
      // changed it since or it is gone (memcached's EXISTS and NOT_FOUND).
      cas(key, value, unique, lifetime, callback) {
        this._call(callback, async () => {
          if (!/^[0-9]+$/.test(String(unique))) return [new Error("bad command line format"), false];
          const ttl = Number(lifetime) * 1000 || 0;
          const reply = await host.cas(key, value, String(unique), ttl);
          return [undefined, reply === "stored"];
        });
      }
      // The text goes as the package's `set` would send it; the value
      // keeps the flags it had.
      _attach(key, value, front, callback) {
        this._call(callback, async () => {
          const text =
            typeof value === "string" ? value : typeof value === "number" ? String(value) : JSON.stringify(value);
          return (await host.attach(key, text, front)) ? [undefined, true] : [notStored(), false];
        });
      }
      append(key, value, callback) {
        this._attach(key, value, false, callback);
      }
      prepend(key, value, callback) {
        this._attach(key, value, true, callback);
      }
      _store(kind, key, value, lifetime, callback) {
        this._call(callback, async () => {
          const ttl = Number(lifetime) * 1000 || 0;
          let stored;
          if (kind === "set") stored = await cache.set(key, value, ttl);
          else if (kind === "add") stored = await cache.add(key, value, ttl);
          else stored = await host.replace(key, value, ttl);
          return stored ? [undefined, true] : [notStored(), false];
        });
      }
      set(key, value, lifetime, callback) {
        this._store("set", key, value, lifetime, callback);
      }
      add(key, value, lifetime, callback) {
        this._store("add", key, value, lifetime, callback);
      }
      replace(key, value, lifetime, callback) {
        this._store("replace", key, value, lifetime, callback);
      }
      del(key, callback) {
        this._call(callback, async () => [undefined, await cache.delete(key)]);
      }
      _counter(sign, key, amount, callback) {
        this._call(callback, async () => {
          try {
            const value = await host.counter(key, sign * Number(amount));
            return [undefined, value === null ? false : Number(value)];
          } catch (error) {
            return [new Error("cannot increment or decrement non-numeric value"), false];
          }
        });
      }
      incr(key, amount, callback) {
        this._counter(1, key, amount, callback);
      }
      decr(key, amount, callback) {
        this._counter(-1, key, amount, callback);
      }
      touch(key, lifetime, callback) {
        this._call(callback, async () => [
          undefined,
          await host.touch(key, Number(lifetime) * 1000 || 0),
        ]);
      }
      end() {}
    }
    unmodelledMemcached(Memcached.prototype, "memcached", [
      "flush", "stats", "items", "slabs",
      "cachedump", "version", "settings",
    ]);
    return Memcached;
  });

  // ---------------------------------------------------------------------
  // redlock, on the client's Redis: each attempt is one run of redlock's
  // own Lua script per client (one cache operation), as its round trips
  // are (the script cache is taken as warm: no NOSCRIPT round trip).
  // `lock`/`unlock`, and `acquire` of one resource named by a string, are
  // redlock 4.2 (the npm `latest`): a failed attempt releases what it got
  // and retries; failure is a `LockError`. `acquire` of an array of
  // resources, `release`, `extend(lock, ms)` and `using` are redlock 5:
  // a failure after the retries is an `ExecutionError`.
  const lockValue = () => hex(8) + hex(8) + hex(8) + hex(8);
  const retryWait = (settings) =>
    Math.max(0, settings.retryDelay + Math.floor((Math.random() * 2 - 1) * settings.retryJitter));
  class LockError extends Error {
    constructor(message, attempts) {
      super(message || "Failed to lock the resource.");
      this.name = "LockError";
      this.attempts = attempts;
    }
  }
  class ResourceLockedError extends Error {
    constructor(message) {
      super(message);
      this.name = "ResourceLockedError";
    }
  }
  class ExecutionError extends Error {
    constructor(message, attempts) {
      super(message);
      this.name = "ExecutionError";
      this.attempts = attempts;
    }
  }
  class Lock {
    constructor(redlock, resources, value, attempts, expiration) {
      this.redlock = redlock;
      this.resources = resources;
      this.resource = resources;
      this.value = value;
      this.attempts = attempts;
      this.expiration = expiration;
    }
    // redlock 4: `extend` keeps this lock object; redlock 5 gives a new one.
    extend(duration) {
      return this._v4
        ? this.redlock._extendV4(this, duration)
        : this.redlock.extend(this, duration);
    }
    release() {
      return this._v4 ? this.redlock.unlock(this) : this.redlock.release(this);
    }
    unlock() {
      return this.redlock.unlock(this);
    }
  }
  const DEFAULTS = { driftFactor: 0.01, retryCount: 10, retryDelay: 200, retryJitter: 100,
    automaticExtensionThreshold: 500 };
  // An EventEmitter (prelude/events.js, run when the class is first made).
  const redlock = lazy(() => {
    class Redlock extends eventsPart().EventEmitter {
      constructor(clients, settings = {}) {
        super();
        this.on("error", () => {});
        this.clients = [...new Set(clients)];
        if (this.clients.length === 0) {
          throw new Error("Redlock must be instantiated with at least one redis client.");
        }
        this.servers = this.clients;
        this.settings = {};
        for (const name of Object.keys(DEFAULTS)) {
          this.settings[name] = typeof settings[name] === "number" ? settings[name] : DEFAULTS[name];
          this[name] = this.settings[name];
        }
      }
      // One run of `script` on every client (all reach the one simulated
      // Redis): how many answered with the number of keys.
      async _round(script, keys, args) {
        const results = await Promise.all(
          this.clients.map((client) =>
            redisCommands.eval(script, keys, args).then(
              (n) => n,
              (error) => {
                this.emit("clientError", error);
                return -1;
              }
            )
          )
        );
        return results.filter((n) => n === keys.length).length;
      }
      _quorum() {
        return Math.floor(this.clients.length / 2) + 1;
      }
      // redlock 4's `_lock`: acquire (value null) or extend.
      _lockV4(resource, value, ttl, options = {}) {
        const resources = Array.isArray(resource) ? resource : [resource];
        const extending = value !== null;
        if (!extending) value = lockValue();
        const retryCount = options.retryCount || this.retryCount;
        const retryDelay = options.retryDelay || this.retryDelay;
        let attempts = 0;
        return new Promise((resolve, reject) => {
          const attempt = async () => {
            attempts += 1;
            const start = Date.now();
            const votes = await this._round(
              extending ? REDLOCK_EXTEND : REDLOCK_ACQUIRE,
              resources,
              [value, ttl]
            );
            const drift = Math.round(this.driftFactor * ttl) + 2;
            const lock = new Lock(this, resources, value, attempts, start + ttl - drift);
            lock._v4 = true;
            lock.attemptsRemaining = retryCount - attempts;
            if (votes >= this._quorum() && lock.expiration > Date.now()) return resolve(lock);
            await this.unlock(lock).catch(() => {});
            if (retryCount === -1 || attempts <= retryCount) {
              setTimeout(attempt, retryWait({ retryDelay, retryJitter: this.retryJitter }));
              return;
            }
            reject(
              new LockError(
                `Exceeded ${retryCount} attempts to lock the resource "${resources}".`,
                attempts
              )
            );
          };
          attempt();
        });
      }
      lock(resource, ttl) {
        return this._lockV4(resource, null, ttl);
      }
      lockWithOptions(resource, ttl, options) {
        return this._lockV4(resource, null, ttl, options);
      }
      acquireWithOptions(resource, ttl, options) {
        return this._lockV4(resource, null, ttl, options);
      }
      async unlock(lock) {
        const resources = Array.isArray(lock.resource) ? lock.resource : [lock.resource];
        lock.expiration = 0;
        const votes = await this._round(REDLOCK_RELEASE, resources, [lock.value]);
        if (votes >= this._quorum()) return undefined;
        throw new LockError(`Unable to fully release the lock on resource "${lock.resource}".`);
      }
      async _extendV4(lock, ttl) {
        if (lock.expiration < Date.now()) {
          throw new LockError(
            `Cannot extend lock on resource "${lock.resource}" because the lock has already expired.`,
            0
          );
        }
        const extension = await this._lockV4(lock.resource, lock.value, ttl);
        lock.value = extension.value;
        lock.expiration = extension.expiration;
        return lock;
      }
      quit() {
        return Promise.resolve();
      }
      // redlock 5.
      acquire(resources, duration, settings) {
        if (!Array.isArray(resources)) return this._lockV4(resources, null, duration);
        return this._acquire(resources, duration, settings);
      }
      async _acquire(resources, duration, settings) {
        if (Math.floor(duration) !== duration) {
          throw new Error("Duration must be an integer value in milliseconds.");
        }
        const start = Date.now();
        const value = lockValue();
        try {
          const { attempts } = await this._execute(REDLOCK_ACQUIRE, resources, [value, duration],
            settings);
          const drift = Math.round((settings?.driftFactor ?? this.settings.driftFactor) * duration) + 2;
          return new Lock(this, resources, value, attempts, start + duration - drift);
        } catch (error) {
          await this._execute(REDLOCK_RELEASE, resources, [value], { retryCount: 0 }).catch(() => {});
          throw error;
        }
      }
      async release(lock, settings) {
        if (lock._v4) return this.unlock(lock);
        lock.expiration = 0;
        return this._execute(REDLOCK_RELEASE, lock.resources, [lock.value], settings);
      }
      async extend(existing, duration, settings) {
        if (existing._v4) return this._extendV4(existing, duration);
        if (Math.floor(duration) !== duration) {
          throw new Error("Duration must be an integer value in milliseconds.");
        }
        const start = Date.now();
        if (existing.expiration < Date.now()) {
          throw new ExecutionError("Cannot extend an already-expired lock.", []);
        }
        const { attempts } = await this._execute(REDLOCK_EXTEND, existing.resources,
          [existing.value, duration], settings);
        existing.expiration = 0;
        const drift = Math.round((settings?.driftFactor ?? this.settings.driftFactor) * duration) + 2;
        return new Lock(this, existing.resources, existing.value, attempts, start + duration - drift);
      }
      async _execute(script, keys, args, overrides) {
        const settings = overrides ? { ...this.settings, ...overrides } : this.settings;
        const maxAttempts = settings.retryCount === -1 ? Infinity : settings.retryCount + 1;
        const attempts = [];
        for (;;) {
          const votes = await this._round(script, keys, args);
          const stats = {
            membershipSize: this.clients.length,
            quorumSize: this._quorum(),
            votesFor: votes,
            votesAgainst: this.clients.length - votes,
          };
          attempts.push(Promise.resolve(stats));
          if (votes >= stats.quorumSize) return { attempts };
          this.emit(
            "error",
            new ResourceLockedError(
              `The operation was applied to: 0 of the ${keys.length} requested resources.`
            )
          );
          if (attempts.length < maxAttempts) {
            await new Promise((resolve) => setTimeout(resolve, retryWait(settings)));
          } else {
            throw new ExecutionError(
              "The operation was unable to achieve a quorum during its retry window.",
              attempts
            );
          }
        }
      }
      async using(resources, duration, settingsOrRoutine, optionalRoutine) {
        if (Math.floor(duration) !== duration) {
          throw new Error("Duration must be an integer value in milliseconds.");
        }
        const settings =
          settingsOrRoutine && typeof settingsOrRoutine !== "function"
            ? { ...this.settings, ...settingsOrRoutine }
            : this.settings;
        const routine = optionalRoutine ?? settingsOrRoutine;
        if (typeof routine !== "function") throw new Error("INVARIANT: routine is not a function.");
        if (settings.automaticExtensionThreshold > duration - 100) {
          throw new Error(
            "A lock `duration` must be at least 100ms greater than the " +
              "`automaticExtensionThreshold` setting."
          );
        }
        // An AbortSignal's reading: `aborted`, and the extension's `error`.
        const signal = { aborted: false, error: undefined };
        let timeout;
        let extension;
        let lock;
        const queue = () => {
          timeout = setTimeout(
            () => (extension = extend()),
            lock.expiration - Date.now() - settings.automaticExtensionThreshold
          );
        };
        const extend = async () => {
          timeout = undefined;
          try {
            lock = await lock.extend(duration);
            queue();
          } catch (error) {
            if (lock.expiration > Date.now()) return (extension = extend());
            signal.error = error;
            signal.aborted = true;
          }
        };
        lock = await this._acquire(resources, duration, settings);
        queue();
        try {
          return await routine(signal);
        } finally {
          if (timeout) {
            clearTimeout(timeout);
            timeout = undefined;
          }
          if (extension) await extension.catch(() => {});
          await lock.release();
        }
      }
    }
    Redlock.default = Redlock;
    Redlock.Redlock = Redlock;
    Redlock.Lock = Lock;
    Redlock.LockError = LockError;
    Redlock.ExecutionError = ExecutionError;
    Redlock.ResourceLockedError = ResourceLockedError;
    return Redlock;
  });

  return {
    Redis,
    nodeRedis,
    pg,
    postgres,
    memjs,
    get Memcached() {
      return memcached();
    },
    get Redlock() {
      return redlock();
    },
  };
});
