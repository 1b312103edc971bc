// A fixed-window rate limiter that checks before it counts, as it is often
// written: read the window's count, refuse if it is at the limit, else
// INCR. The read and the INCR are two round trips: a burst of requests all
// read 0 before any of them counts, and every one gets through. The fix
// counts first and checks what INCR answers (rate_limiter.js); "What
// happened" offers the check under a Redis lock.
const Redis = require("ioredis");
const redis = new Redis();

const LIMIT = 3;
const WINDOW_MS = 1000;

async function handle(req) {
  const window = Math.floor(Date.now() / WINDOW_MS);
  const key = `rate:${req.user}:${window}`;
  const used = Number(await redis.get(key));
  if (used >= LIMIT) {
    count("limited");
    throw new Error("429 Too Many Requests");
  }
  await redis.incr(key);
  await redis.pexpire(key, WINDOW_MS);
  count("allowed");
}
