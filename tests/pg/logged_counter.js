const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const r = await client.query(
      `WITH logged AS (INSERT INTO visits (user_id) VALUES ($1) RETURNING id)
       UPDATE counters SET n = n + 1 WHERE id = 1 RETURNING n`,
      [req.user]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await client.query('COMMIT');
    const v = await pool.query('SELECT count(*)::int AS visits FROM visits');
    console.log(`n ${r.rows[0].n}, visits ${v.rows[0].visits}`);
  } catch (e) {
    console.log(`error ${e.code}`);
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
}
module.exports = { handle };
