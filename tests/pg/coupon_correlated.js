// A coupon redeemed once per user, in a transaction: the insert reads
// the user's row and checks, in a correlated subquery, that the user has
// not redeemed it (tests/real.rs, tests/sql.rs). A double click redeems it
// twice: the second transaction does not see the first's row.
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const r = await c.query(
      `INSERT INTO redemptions (user_id, coupon)
       SELECT u.id, $2 FROM users u
       WHERE u.id = $1
         AND NOT EXISTS (SELECT 1 FROM redemptions r WHERE r.user_id = u.id AND r.coupon = $2)`,
      [req.user, 'WELCOME10']);
    const n = await c.query(
      'SELECT u.name, (SELECT count(*) FROM redemptions r WHERE r.user_id = u.id) AS n FROM users u WHERE u.id = $1', [req.user]);
    await c.query('COMMIT');
    return { redeemed: r.rowCount === 1, seen: Number(n.rows[0].n) };
  } finally { c.release(); }
}
module.exports = { handle };
