// Every request spends 30 from one account of 100, its row locked with
// `SELECT … FOR UPDATE` first: the requests queue on the row, three pay
// and the rest find too little. Each counts the balance it saw.
const { Pool } = require("pg");
const pool = new Pool();

async function handle(req) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query(
      "SELECT balance FROM accounts WHERE id = 1 FOR UPDATE"
    );
    count(`request${req.id}_saw${rows[0].balance}`);
    if (rows[0].balance < 30) throw new Error("insufficient funds");
    await client.query("UPDATE accounts SET balance = $1 WHERE id = 1", [
      rows[0].balance - 30,
    ]);
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK");
    throw err;
  } finally {
    client.release();
  }
}
