// A statement takes its rows one by one, in the order it reads them, and
// waits at the first another transaction holds, keeping those it took:
// request 0 locks row 2; request 1 locks rows 1 and 2 (`IN (1, 2) ...
// FOR UPDATE`), takes row 1 and waits for row 2; request 2's UPDATE of
// row 1 then waits for request 1, not for nothing. It runs when request 1
// has committed, and sees its write.
const { Pool } = require("pg");
const pool = new Pool();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    if (req.id === 0) {
      await client.query("SELECT id FROM accounts WHERE id = 2 FOR UPDATE");
      await sleep(100);
    } else if (req.id === 1) {
      await sleep(5);
      const { rows } = await client.query(
        "SELECT id, balance FROM accounts WHERE id IN (1, 2) ORDER BY id FOR UPDATE"
      );
      await client.query("UPDATE accounts SET balance = balance - 10 WHERE id = 1");
      count(`request${req.id}_left${rows[0].balance - 10}`);
    } else {
      await sleep(60);
      const { rows } = await client.query(
        "UPDATE accounts SET balance = balance - 10 WHERE id = 1 RETURNING balance"
      );
      count(`request${req.id}_left${rows[0].balance}_at${Date.now()}`);
    }
    await client.query("COMMIT");
  } finally {
    client.release();
  }
}
