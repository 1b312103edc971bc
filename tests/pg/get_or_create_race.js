const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const r = await client.query(
      `WITH ins AS (
         INSERT INTO users (email) VALUES ($1) ON CONFLICT (email) DO NOTHING RETURNING id
       )
       SELECT id FROM ins UNION ALL SELECT id FROM users WHERE email = $1`,
      ['ada@example.com']);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await client.query('COMMIT');
    console.log(r.rowCount ? `user ${r.rows[0].id}` : 'no user');
  } catch (e) {
    console.log(`error ${e.code}`);
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
}
module.exports = { handle };
