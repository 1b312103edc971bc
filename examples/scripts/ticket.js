// Duplicate free tickets (the built-in `ticket` story as a script).
// A user double-clicks: two requests both find no order and both insert
// one, unless a lock keeps them apart. `await_insert=false` reproduces the
// original bug: the insert is sent but not awaited, so the lock is
// released before the write lands.
db.table(
  "orders",
  config.db_unique
    ? { unique: ["user", "event"], expectUnique: ["user", "event"] }
    : { expectUnique: ["user", "event"] }
);

async function participate(user, event) {
  const order = await db.findOne("orders", { user, event });
  if (!order) {
    const insert = db.insert("orders", { user, event });
    if (config.await_insert) await insert;
  }
}

async function handle(req) {
  await guard(`user:${req.user}:event`, () => participate(req.user, 1));
}
