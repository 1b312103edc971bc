// Cache breakdown (seeds/003): cache-aside with ioredis in front of
// PostgreSQL. When the hot key is missing (cold, or just expired), every
// request that arrives before the first one has refilled it misses too,
// and each runs the same heavy query: a stampede on the database.
//
// See it: `users=5&clicks=1` (five requests at once on a cold cache) gives
// `db_loads` 5 and `cache_misses` 5. stampede_memjs.js is the fix of
// seeds/004: one request rebuilds under a memcached `add` lock while the
// others wait for its value.
import Redis from "ioredis";
import pg from "pg";

const redis = new Redis();
const pool = new pg.Pool();
const TTL_SECONDS = 60;

async function loadProduct(id) {
  count("db_loads");
  const { rows } = await pool.query(
    "SELECT id, name, price FROM products WHERE id = $1",
    [id]
  );
  return rows[0];
}

async function getProduct(id) {
  const key = `product:${id}`;
  const cached = await redis.get(key);
  if (cached !== null) return JSON.parse(cached);
  const product = await loadProduct(id);
  await redis.set(key, JSON.stringify(product), "EX", TTL_SECONDS);
  return product;
}

export async function handle(req) {
  const product = await getProduct(1);
  if (!product) throw new Error("product 1 not found");
}
