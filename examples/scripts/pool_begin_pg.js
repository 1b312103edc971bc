// Checkout on PostgreSQL with BEGIN sent through `pool.query`. Every
// `pool.query` takes one of the pool's connections, the one that came back
// last, and gives it back when its reply arrives, with whatever
// transaction it has open. So one order's BEGIN, INSERT and COMMIT run as
// one transaction only while nothing else uses the pool. Two orders placed
// together each BEGIN and INSERT on a connection of their own, then both
// connections wait in the pool while the cards are charged: the paid
// order's COMMIT takes the declined order's connection and commits its
// row, and the declined order's ROLLBACK takes the other one and undoes
// the paid order's row. A client of its own is the fix:
// `const c = await pool.connect()`, every query on `c`, then `c.release()`.
//
// See it: `users=2&clicks=1` gives `confirmed, order rows: 0` and
// `declined, order rows: 1`; with a client, `confirmed, order rows: 1` and
// `declined, order rows: 0`.
const { Pool } = require("pg");

const pool = new Pool();
let placed = 0;

// The payment provider answers in 30 ms; every second card is declined.
const charge = (order) =>
  new Promise((resolve) => setTimeout(() => resolve(order % 2 === 1), 30));

module.exports = {
  async handle(req) {
    const order = ++placed;
    await pool.query("BEGIN");
    await pool.query("INSERT INTO orders (id) VALUES ($1)", [order]);
    const paid = await charge(order);
    await pool.query(paid ? "COMMIT" : "ROLLBACK");
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM orders WHERE id = $1",
      [order]
    );
    count(`${paid ? "confirmed" : "declined"}, order rows: ${rows[0].n}`);
  },
};
