const AsyncLock = require("async-lock");
const lock = new AsyncLock();
db.table("orders", { expectUnique: ["user", "event"] });
module.exports.handle = (req) =>
  lock.acquire(`user:${req.user}`, async () => {
    const existing = await db.findOne("orders", { user: req.user, event: 1 });
    if (!existing) await db.insert("orders", { user: req.user, event: 1 });
  });
