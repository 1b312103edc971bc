const { Pool } = require('pg');
const pool = new Pool();
// Two workers each claim the next new job and run it.
async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claimed = await client.query(
      "UPDATE jobs SET state = 'running' WHERE id = (SELECT id FROM jobs WHERE state = 'new' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id");
    const job = claimed.rows[0];
    if (job) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      await client.query('INSERT INTO runs (job_id) VALUES ($1)', [job.id]);
    }
    await client.query('COMMIT');
    console.log(job ? `ran ${job.id}` : 'no job');
  } catch (e) {
    console.log(`error ${e.code}`);
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
}
module.exports = { handle };
