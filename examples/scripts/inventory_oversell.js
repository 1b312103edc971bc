// Inventory oversell: read the stock, check it, write it back. Concurrent
// buyers all read the same stock and all sell: more orders than items.
// inventory_atomic.js is the fix.
const STOCK = 3;
db.table("items", { rows: [{ id: 1, stock: STOCK }] });
db.table("orders", {});

async function handle(req) {
  const item = await db.findOne("items", { id: 1 });
  if (item.stock <= 0) {
    count("sold_out");
    return;
  }
  await db.update("items", { id: 1 }, { stock: item.stock - 1 });
  await db.insert("orders", { user: req.user, item: 1 });
}
