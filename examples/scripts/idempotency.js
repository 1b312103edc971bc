// An idempotency key taken with the cache's atomic `add`: of the retries
// of one payment, only the first to land is processed; the others see the
// key taken. (A get-then-set check would let concurrent retries through.)
db.table("payments", { expectUnique: ["user", "order"] });

async function handle(req) {
  const key = `idempotency:${req.user}:order-1`;
  const first = await cache.add(key, "processing", 60_000);
  if (!first) {
    count("deduplicated");
    return;
  }
  await db.insert("payments", { user: req.user, order: "order-1", amount: 10 });
  await cache.set(key, "done", 60_000);
}
