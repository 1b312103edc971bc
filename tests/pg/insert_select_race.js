const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const r = await client.query(
      'INSERT INTO orders (user_id, event_id) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM orders WHERE user_id = $1 AND event_id = $2)',
      [req.user, 1]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await client.query('COMMIT');
    console.log(`inserted ${r.rowCount}`);
  } catch (e) {
    console.log(`error ${e.code}`);
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
}
module.exports = { handle };
