// Two queries in a Promise.all on one client: pg sends the second only
// when the first has its reply, so the SELECT, made first, reads the
// seats before the UPDATE takes one, though the UPDATE is the faster.
const { Pool } = require("pg");

const pool = new Pool();

module.exports = {
  async handle(req) {
    const c = await pool.connect();
    try {
      await c.query("BEGIN");
      const [before, after] = await Promise.all([
        c.query("SELECT seats FROM events WHERE id = 1"),
        c.query("UPDATE events SET seats = seats - 1 WHERE id = 1 RETURNING seats"),
      ]);
      await c.query("COMMIT");
      count(`before ${before.rows[0].seats} after ${after.rows[0].seats}`);
    } finally {
      c.release();
    }
  },
};
