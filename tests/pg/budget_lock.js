const { Pool } = require('pg');
const pool = new Pool();
// A spending limit of 100 per user, checked by summing the user's orders
// under FOR UPDATE, then a new order of 30 if the sum allows it.
async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const r = await client.query('SELECT id, total FROM orders WHERE user_id = 1 ORDER BY id FOR UPDATE');
    const spent = r.rows.reduce((sum, order) => sum + order.total, 0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    if (spent + 30 <= 100) {
      await client.query('INSERT INTO orders (id, user_id, total) VALUES ($1, 1, 30)', [10 + req.click]);
    }
    await client.query('COMMIT');
    console.log(`spent ${spent} (${r.rows.map((order) => order.id).join(',')})`);
  } finally {
    client.release();
  }
}
module.exports = { handle };
