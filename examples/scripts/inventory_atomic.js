// The oversell fixed: one atomic, conditional decrement. The check and the
// write are a single DB call, so no other request can come between them.
const STOCK = 3;
db.table("items", { rows: [{ id: 1, stock: STOCK }] });
db.table("orders", {});

async function handle(req) {
  const sold = await db.update(
    "items",
    { id: 1, stock: { $gt: 0 } },
    { stock: { $inc: -1 } }
  );
  if (sold === 0) {
    count("sold_out");
    return;
  }
  await db.insert("orders", { user: req.user, item: 1 });
}
