// The EventEmitter lock of the cache-breakdown article (seeds/003): a
// `locked` object, `eventEmitter.on(key, tryAcquire)`, `removeListener`,
// and a release that wakes every waiter with `setImmediate(() => emit)`.
// Each release wakes the whole herd; all but one find the lock taken
// again (counted as `wakeups`).
const lock = () => {
  const locked = {};
  const eventEmitter = new EventEmitter();
  eventEmitter.setMaxListeners(0);

  return {
    acquire: (key) =>
      new Promise((resolve) => {
        if (!locked[key]) {
          locked[key] = true;
          resolve();
          return;
        }

        const tryAcquire = () => {
          if (!locked[key]) {
            locked[key] = true;
            eventEmitter.removeListener(key, tryAcquire);
            resolve();
          } else {
            count("wakeups");
          }
        };

        eventEmitter.on(key, tryAcquire);
      }),
    release: (key) => {
      delete locked[key];
      setImmediate(() => eventEmitter.emit(key));
    },
  };
};

const mutex = lock();
db.table("products", { rows: [{ id: 0, price: 100 }] });

async function handle(req) {
  const key = `item:${req.key}`;
  let value = await cache.get(key);
  if (value !== undefined) return value;
  await mutex.acquire(key);
  try {
    // The double check: another request may have filled it meanwhile.
    value = await cache.get(key);
    if (value !== undefined) return value;
    value = await db.findOne("products", { id: req.key });
    await cache.set(key, value, config.ttl);
    return value;
  } finally {
    mutex.release(key);
  }
}
