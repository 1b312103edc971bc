const Memcached = require("memcached");
const memcached = new Memcached(process.env.MEMCACHED);
const call = (method, ...args) =>
  new Promise((resolve, reject) =>
    memcached[method](...args, (err, data) => (err && !err.notStored ? reject(err) : resolve(data)))
  );

// A page's visit counter: read it, add one, write it back.
async function handle(req) {
  await call("add", "visits", 0, 0);
  const visits = await call("get", "visits");
  await call("set", "visits", visits + 1, 0);
  // The same with check-and-set: retry until no one wrote in between.
  await call("add", "safe", 0, 0);
  for (;;) {
    const found = await call("gets", "safe");
    if (await call("cas", "safe", found.safe + 1, found.cas, 0)) break;
    count("retries");
  }
  const [v, s] = [await call("get", "visits"), await call("get", "safe")];
  count(`visits=${v} safe=${s}`);
}
module.exports = { handle };
