// Request 0 changes row 1 and request 1 locks row 2, longer. Request 2
// changes row 1 too; requests 3 and 4 lock both rows (`IN (1, 2) … FOR
// UPDATE`). When request 2 commits, 3 and 4 wake together: the first to
// lock row 1 goes on to wait for row 2, the other waits for it, and
// neither is answered until request 1 commits. Each counts the balance
// of row 1 it saw.
const { Pool } = require("pg");
const pool = new Pool();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    if (req.id === 0) {
      await client.query("UPDATE accounts SET balance = balance + 10 WHERE id = 1");
      await sleep(30);
    } else if (req.id === 1) {
      await client.query("SELECT id FROM accounts WHERE id = 2 FOR UPDATE");
      await sleep(300);
    } else if (req.id === 2) {
      await sleep(5);
      const { rows } = await client.query(
        "UPDATE accounts SET balance = balance - 10 WHERE id = 1 RETURNING balance"
      );
      count(`request${req.id}_left${rows[0].balance}`);
    } else {
      await sleep(10);
      const { rows } = await client.query(
        "SELECT id, balance FROM accounts WHERE id IN (1, 2) ORDER BY id FOR UPDATE"
      );
      await client.query("UPDATE accounts SET balance = balance - 10 WHERE id = 1");
      count(`request${req.id}_left${rows[0].balance - 10}`);
    }
    await client.query("COMMIT");
  } finally {
    client.release();
  }
}
