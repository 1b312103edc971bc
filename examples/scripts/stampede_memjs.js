// The memcached mutex of seeds/004, with memjs: on a miss, a request tries
// `add("lock:…")`, which memcached refuses when the key exists, so exactly
// one request rebuilds the value from PostgreSQL. The others wait (poll
// every 50 ms) and read the value it built; a waiter that gives up would
// serve old data (here the cache is cold, so it has none and counts
// `gave_up`). The lock has an expiry, so a rebuilder that dies does not
// block the key for ever. (The article's client-side "semaphore", a `get`
// then a `set` of the lock, lets several requests through: that race is
// stampede_redis.js with more steps.)
//
// See it: `users=5&clicks=1` gives `db_loads` 1 and `waits` 4: the four
// losers sleep 50 ms once and find the value.
const memjs = require("memjs");
const { Pool } = require("pg");
const { setTimeout: sleep } = require("timers/promises");

const memcached = memjs.Client.create(process.env.MEMCACHIER_SERVERS);
const pool = new Pool();
const LOCK_SECONDS = 10;
const WAIT_MS = 50;
const MAX_WAITS = 5;

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
  const { value } = await memcached.get(key);
  if (value) return JSON.parse(value.toString());
  const lock = `lock:${key}`;
  if (await memcached.add(lock, "1", { expires: LOCK_SECONDS })) {
    try {
      const product = await loadProduct(id);
      await memcached.set(key, JSON.stringify(product), { expires: 60 });
      return product;
    } finally {
      await memcached.delete(lock);
    }
  }
  for (let i = 0; i < MAX_WAITS; i++) {
    await sleep(WAIT_MS);
    count("waits");
    const { value } = await memcached.get(key);
    if (value) return JSON.parse(value.toString());
  }
  count("gave_up");
  return null;
}

module.exports.handle = async function handle(req) {
  await getProduct(1);
};
