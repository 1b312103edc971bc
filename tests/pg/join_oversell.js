// The last seat, sold twice: a capacity check that reads the event and
// its orders in one LEFT JOIN, then inserts. Under READ COMMITTED two
// requests both see a free seat; under SERIALIZABLE one of them fails
// with 40001 (the JOIN read both tables).
const { Pool } = require("pg");
const pool = new Pool();
const ISOLATION = "READ COMMITTED";

module.exports.handle = async (req) => {
  const client = await pool.connect();
  let outcome;
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${ISOLATION}`);
    const { rows } = await client.query(
      "SELECT e.capacity, count(o.id) AS sold FROM events e LEFT JOIN orders o ON o.event_id = e.id WHERE e.id = $1 GROUP BY e.capacity",
      [1]
    );
    if (Number(rows[0].sold) >= rows[0].capacity) {
      await client.query("ROLLBACK");
      outcome = "sold out";
    } else {
      await client.query("INSERT INTO orders (user_id, event_id) VALUES ($1, $2)", [req.user, 1]);
      await client.query("COMMIT");
      outcome = "sold";
    }
  } catch (e) {
    await client.query("ROLLBACK");
    outcome = `error ${e.code}`;
  } finally {
    client.release();
  }
  console.log(outcome);
  count(outcome);
};
