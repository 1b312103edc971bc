// Free tickets on PostgreSQL, racy (the double click of seeds/000, with
// node-postgres). The handler SELECTs the user's ticket and INSERTs one
// when there is none. A double click sends two requests that both SELECT
// before either INSERTs: two tickets. ticket_pg.sql declares no UNIQUE
// constraint, only what the code expects (`-- expect unique`), so the
// second row is counted in `duplicate_tickets`.
//
// See it: `users=1&clicks=2` gives orders 2, duplicate_tickets 1 (both
// requests count `issued`). With `click_gap=50ms` the second click finds
// the first one's row (`already_issued`).
// The fixes: ticket_pg_on_conflict.js (a UNIQUE constraint and INSERT …
// ON CONFLICT DO NOTHING) and ticket_pg_for_update.js (SELECT … FOR UPDATE
// in a transaction).
const { Pool } = require("pg");

const pool = new Pool({ connectionString: process.env.DATABASE_URL });
const EVENT_ID = 1;

async function claimTicket(userId, eventId) {
  const existing = await pool.query(
    "SELECT id FROM orders WHERE user_id = $1 AND event_id = $2",
    [userId, eventId]
  );
  if (existing.rowCount > 0) {
    count("already_issued");
    return existing.rows[0];
  }
  const { rows } = await pool.query(
    "INSERT INTO orders (user_id, event_id) VALUES ($1, $2) RETURNING id",
    [userId, eventId]
  );
  count("issued");
  return rows[0];
}

module.exports.handle = async (req) => {
  await claimTicket(req.user, EVENT_ID);
};
