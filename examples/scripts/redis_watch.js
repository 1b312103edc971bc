// Optimistic locking with Redis WATCH and MULTI/EXEC, on the one ioredis
// client that every request on the server shares, as a module-level
// `new Redis()` is in most apps. A watch belongs to the connection, not to
// the request: the first buyer's EXEC ends every watch on it, and the
// other buyers' EXECs then run unguarded. Each had read the same stock,
// so each sells: more sales than items (a lost update of `stock`).
//
// See it: `users=4&clicks=1` (four buyers of three items at once) gives
// `sold` 4, and "What happened" says whose EXEC ended the watch. The fix:
// a connection per request, `const conn = redis.duplicate()`, with the
// WATCH, the GET and the MULTI on it: the first EXEC sells, the three
// others answer null (`retry` 3), and nothing is lost.
import Redis from "ioredis";

const redis = new Redis();
await redis.set("stock", 3);

export async function handle(req) {
  await redis.watch("stock");
  const stock = Number(await redis.get("stock"));
  if (stock <= 0) {
    await redis.unwatch();
    count("sold_out");
    return;
  }
  const done = await redis.multi().set("stock", stock - 1).incr("sales").exec();
  count(done ? "sold" : "retry");
}
