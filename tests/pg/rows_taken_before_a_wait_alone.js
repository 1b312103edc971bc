// The same outside a transaction block: request 1's UPDATE of rows 1 and
// 2 is a transaction of its own, which updates row 1 and waits for row
// 2, keeping row 1: request 2's UPDATE of row 1 waits for it to end.
const { Pool } = require("pg");
const pool = new Pool();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function handle(req) {
  if (req.id === 0) {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT id FROM accounts WHERE id = 2 FOR UPDATE");
      await sleep(100);
      await client.query("COMMIT");
    } finally {
      client.release();
    }
  } else if (req.id === 1) {
    await sleep(45);
    const { rowCount } = await pool.query(
      "UPDATE accounts SET balance = balance - 10 WHERE id IN (1, 2)"
    );
    count(`request${req.id}_updated${rowCount}_at${Date.now()}`);
  } else {
    await sleep(60);
    const { rows } = await pool.query(
      "UPDATE accounts SET balance = balance - 10 WHERE id = 1 RETURNING balance"
    );
    count(`request${req.id}_left${rows[0].balance}_at${Date.now()}`);
  }
}
