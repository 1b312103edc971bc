// Cache breakdown (the built-in `stampede` story as a script; run it with
// `users=N&clicks=1`). When a hot key expires, every concurrent request
// misses and loads it from the DB, unless a lock or single-flight stops
// them. A waiter that gives up serves the stale value its first read got.
const LOCKS = ["get-set", "add", "keyed-mutex", "emitter-lock", "ticket-lock"];

db.table("products", {
  rows: Array.from({ length: config.keys }, (_, id) => ({ id, price: 100 + id })),
});
if (config.cache === "warm") {
  for (let id = 0; id < config.keys; id++) {
    const expiry =
      config.expire_at !== null ? { expiresAt: config.expire_at } : { ttl: config.ttl };
    cache.preset(`item:${id}`, { id, price: 100 + id }, expiry);
  }
}

async function load(id, key) {
  const row = await db.findOne("products", { id });
  await cache.set(key, row, config.ttl);
  return row;
}

async function handle(req) {
  const key = `item:${req.key}`;
  const cached = await cache.getStale(key);
  if (cached && !cached.stale) return cached.value;
  try {
    return await guard(key, async () => {
      if (config.double_check && LOCKS.includes(config.strategy)) {
        const again = await cache.get(key);
        if (again !== undefined) return again;
      }
      return load(req.key, key);
    });
  } catch (error) {
    if (error.name === "LockTimeout" && cached) {
      count("stale_served");
      return cached.value;
    }
    throw error;
  }
}
