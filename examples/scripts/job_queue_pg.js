// A job queue on PostgreSQL. Each worker claims the next new job in one
// statement (a `WITH` query picks it, an UPDATE marks it running), runs it
// inside the transaction and records the run. The pick takes no row lock:
// two workers that poll together both pick job 1; the second's UPDATE waits
// for the first's row, then marks it again, and job 1 runs twice. Ending
// the pick with `FOR UPDATE SKIP LOCKED` is the fix: the second worker
// skips the first's job and claims the next (a plain `FOR UPDATE` works
// too, after a wait).
//
// See it: `users=2&clicks=1` gives duplicate_tickets 1 (job 1 runs twice)
// and `ran` 2; with `FOR UPDATE SKIP LOCKED`, jobs 1 and 2 run once each.
const { Pool } = require("pg");

const pool = new Pool();

async function claimNextJob(client) {
  const { rows } = await client.query(
    `WITH next AS (
       SELECT id FROM jobs WHERE state = 'new' ORDER BY id LIMIT 1
     )
     UPDATE jobs SET state = 'running'
     FROM next
     WHERE jobs.id = next.id
     RETURNING jobs.id, jobs.payload`
  );
  return rows[0];
}

module.exports = {
  async handle(req) {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const job = await claimNextJob(client);
      if (job) {
        // The work itself: 30 ms.
        await new Promise((resolve) => setTimeout(resolve, 30));
        await client.query("INSERT INTO runs (job_id) VALUES ($1)", [job.id]);
        await client.query("UPDATE jobs SET state = 'done' WHERE id = $1", [job.id]);
        count("ran");
      } else {
        count("idle");
      }
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK");
      throw err;
    } finally {
      client.release();
    }
  },
};
