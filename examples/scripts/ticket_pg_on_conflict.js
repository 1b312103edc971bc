// Free tickets on PostgreSQL, fixed by the database: a UNIQUE constraint on
// (user_id, event_id) and one statement, `INSERT … ON CONFLICT DO
// NOTHING RETURNING id`. There is no window between a check and a write:
// the second click's INSERT meets the first one's row and inserts nothing
// (rowCount 0), with no error to handle.
//
// See it: `users=1&clicks=2` gives orders 1, duplicate_tickets 0, and
// `issued` 1, `already_issued` 1. (ticket_pg.js is the racy SELECT then
// INSERT.)
import pg from "pg";

const pool = new pg.Pool({ max: 10 });
const EVENT_ID = 1;

export async function handle(req) {
  const { rowCount } = await pool.query(
    `INSERT INTO orders (user_id, event_id)
     VALUES ($1, $2)
     ON CONFLICT (user_id, event_id) DO NOTHING
     RETURNING id`,
    [req.user, EVENT_ID]
  );
  count(rowCount === 1 ? "issued" : "already_issued");
}
