const { Pool } = require('pg');
const pool = new Pool();
// Two buyers read the stock under a shared lock, then take one.
async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query('SELECT qty FROM stock WHERE id = 1 FOR SHARE');
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (rows[0].qty > 0) await client.query('UPDATE stock SET qty = qty - 1 WHERE id = 1');
    await client.query('COMMIT');
    console.log('bought');
  } catch (e) {
    console.log(`error ${e.code}`);
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
}
module.exports = { handle };
