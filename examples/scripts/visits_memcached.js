// A page's view counter on memcached (the `memcached` package): read the
// count, add one, write it back. Views that come together all read the
// same count and write the same next one, so all but one are lost:
// `users=1&clicks=5` ends with `views` 1, read back by every request.
// memcached's check-and-set is the fix (set `CHECK_AND_SET` to true):
// `gets` reads the count with its cas token, `cas` stores only if no one
// wrote the key since, and a request that lost reads again and retries;
// the count ends at 5.
const Memcached = require("memcached");
const memcached = new Memcached(process.env.MEMCACHED || "localhost:11211");

const CHECK_AND_SET = false;

// The client's callbacks as promises. An `add` of a key that is there
// already is not an error here: it only makes sure the count starts at 0.
const call = (method, ...args) =>
  new Promise((resolve, reject) =>
    memcached[method](...args, (err, data) => (err && !err.notStored ? reject(err) : resolve(data)))
  );

async function handle(req) {
  await call("add", "views", 0, 0);
  if (CHECK_AND_SET) {
    for (;;) {
      const found = await call("gets", "views");
      if (await call("cas", "views", found.views + 1, found.cas, 0)) break;
      count("retries");
    }
  } else {
    const views = await call("get", "views");
    await call("set", "views", views + 1, 0);
  }
  const views = await call("get", "views");
  count(`views ${views}`);
}

module.exports = { handle };
