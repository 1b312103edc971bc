// The seeds/000 fix with the real library: a per-user `Mutex` from
// async-mutex around the SELECT and INSERT. It works on one server: the
// second click waits for the first, then finds its ticket. But the Map of
// mutexes lives in one Node process; behind a load balancer with two app
// servers, the clicks land on different servers, each takes its own
// mutex, and the double ticket is back.
//
// See it: `users=1&clicks=2` gives orders 1, duplicate_tickets 0;
// `users=1&clicks=2&servers=2` gives orders 2, duplicate_tickets 1. A
// lock in Redis (redis_lock.ts) or in the database
// (ticket_pg_for_update.js) holds across servers.
import { Mutex } from "async-mutex";
import pg from "pg";

const pool = new pg.Pool();
const locks = new Map();
const EVENT_ID = 1;

function lockFor(userId) {
  if (!locks.has(userId)) locks.set(userId, new Mutex());
  return locks.get(userId);
}

export default async function handle(req) {
  await lockFor(req.user).runExclusive(async () => {
    const existing = await pool.query(
      "SELECT id FROM orders WHERE user_id = $1 AND event_id = $2",
      [req.user, EVENT_ID]
    );
    if (existing.rowCount === 0) {
      await pool.query(
        "INSERT INTO orders (user_id, event_id) VALUES ($1, $2)",
        [req.user, EVENT_ID]
      );
    }
  });
}
