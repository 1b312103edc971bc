const { Pool } = require('pg');
const pool = new Pool();
// Get or create in a transaction, Django's way: try the INSERT under a
// savepoint; on a unique violation, roll back to it and read the row.
async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SAVEPOINT get_or_create');
    let id;
    try {
      const r = await client.query('INSERT INTO users (email) VALUES ($1) RETURNING id', ['ada@example.com']);
      id = r.rows[0].id;
    } catch (e) {
      if (e.code !== '23505') throw e;
      await client.query('ROLLBACK TO SAVEPOINT get_or_create');
      const r = await client.query('SELECT id FROM users WHERE email = $1', ['ada@example.com']);
      id = r.rows[0].id;
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    await client.query('INSERT INTO sessions (user_id) VALUES ($1)', [id]);
    await client.query('COMMIT');
    console.log(`user ${id}`);
  } catch (e) {
    console.log(`error ${e.code}`);
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
}
module.exports = { handle };
