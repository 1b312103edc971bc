// A fixed-window rate limiter on the cache's atomic `incr`: at most LIMIT
// requests per user per window; the rest are refused (they count as
// errors). `incr` is one atomic operation, so concurrent requests cannot
// both read the same count.
const LIMIT = 3;
const WINDOW_MS = 1000;

async function handle(req) {
  const window = Math.floor(Date.now() / WINDOW_MS);
  const key = `rate:${req.user}:${window}`;
  const used = await cache.incr(key);
  if (used > LIMIT) {
    count("limited");
    throw new Error("429 Too Many Requests");
  }
  count("allowed");
}
