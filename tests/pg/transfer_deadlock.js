// A transfer that takes two rows in opposite orders: on a double click
// each click's second UPDATE waits for the other's first row, and
// PostgreSQL's deadlock check fails one of them, deadlock_timeout (1 s)
// after its wait began. Click 1 waits PAUSE ms before its second UPDATE.
const { Pool } = require("pg");

const pool = new Pool();
const PAUSE = 20;

module.exports = {
  async handle(req) {
    const client = await pool.connect();
    const [a, b] = req.click === 0 ? [1, 2] : [2, 1];
    try {
      await client.query("BEGIN");
      await client.query("UPDATE accounts SET balance = balance - 10 WHERE id = $1", [a]);
      await new Promise((resolve) => setTimeout(resolve, req.click === 0 ? 20 : PAUSE));
      await client.query("UPDATE accounts SET balance = balance + 10 WHERE id = $1", [b]);
      await client.query("COMMIT");
      count("committed " + req.click);
    } catch (err) {
      count(err.code + " " + req.click);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
  },
};
