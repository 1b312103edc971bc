// A sliding-window rate limiter on a Redis sorted set, as it is often
// written: drop the entries older than the window, count what is left, and
// add this request if it is under the limit. Three commands, three round
// trips: a burst of requests all count before any of them adds, and every
// one gets through. The fix sends the three as one MULTI (ZREMRANGEBYSCORE,
// ZADD, ZCARD) and refuses a request whose count, after adding, is over
// the limit.
const Redis = require("ioredis");
const redis = new Redis();

const LIMIT = 3;
const WINDOW_MS = 1000;

async function handle(req) {
  const key = `rate:${req.user}`;
  const now = Date.now();
  await redis.zremrangebyscore(key, "-inf", `(${now - WINDOW_MS}`);
  const used = await redis.zcard(key);
  if (used >= LIMIT) {
    count("limited");
    throw new Error("429 Too Many Requests");
  }
  await redis.zadd(key, now, `${now}:${req.id}`);
  count("allowed");
}
