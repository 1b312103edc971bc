// Two clicks book the last seat, each in a block whose `SET LOCAL
// lock_timeout` gives up on a row another transaction holds: the second
// click's SELECT … FOR UPDATE is cancelled (55P03) after 50 ms, while the
// first holds the row for 200 ms. The setting ends with its block.
const { Pool } = require("pg");

const pool = new Pool();

module.exports = {
  async handle(req) {
    const c = await pool.connect();
    try {
      await c.query("BEGIN");
      await c.query("SET LOCAL lock_timeout = '50ms'");
      const shown = await c.query("SHOW lock_timeout");
      await c.query("SELECT seats FROM events WHERE id = 1 FOR UPDATE");
      await new Promise((resolve) => setTimeout(resolve, 200));
      await c.query("UPDATE events SET seats = seats - 1 WHERE id = 1");
      await c.query("COMMIT");
      count(`booked (lock_timeout ${shown.rows[0].lock_timeout})`);
    } catch (e) {
      await c.query("ROLLBACK");
      count(`${e.code} ${e.message}`);
    } finally {
      c.release();
    }
    const after = await pool.query("SHOW lock_timeout");
    count(`after: ${after.rows[0].lock_timeout}`);
  },
};
