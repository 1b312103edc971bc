// Free tickets on PostgreSQL, fixed with a row lock: in a transaction, the
// handler first locks the user's row with `SELECT … FOR UPDATE`, so a
// second request for the same user waits at that statement until the first
// one COMMITs, and then sees its ticket. Locking the *orders* query instead
// would lock nothing: before the first ticket there is no row to lock, and
// the double click is back (try it: put FOR UPDATE on the orders SELECT
// and drop the users one).
//
// See it: `users=1&clicks=2` gives orders 1, duplicate_tickets 0, `issued`
// 1 and `already_issued` 1; the second request's latency includes the
// first one's whole transaction.
const { Pool } = require("pg");

const pool = new Pool();
const EVENT_ID = 1;

async function claimTicket(userId, eventId) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT id FROM users WHERE id = $1 FOR UPDATE", [userId]);
    const existing = await client.query(
      "SELECT id FROM orders WHERE user_id = $1 AND event_id = $2",
      [userId, eventId]
    );
    if (existing.rowCount === 0) {
      await client.query(
        "INSERT INTO orders (user_id, event_id) VALUES ($1, $2)",
        [userId, eventId]
      );
      count("issued");
    } else {
      count("already_issued");
    }
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK");
    throw err;
  } finally {
    client.release();
  }
}

module.exports = {
  async handle(req) {
    await claimTicket(req.user, EVENT_ID);
  },
};
