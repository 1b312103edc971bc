// Signing in by email on PostgreSQL, creating the account the first time,
// with the get-or-create idiom in one statement: a WITH query inserts the
// user unless the email is taken (ON CONFLICT DO NOTHING), and the SELECT
// after UNION ALL finds the user who is already there. One statement looks
// atomic; it is not. When two sign-ins of a new email overlap, the second
// one's INSERT waits for the first one's row, then does nothing, and its
// SELECT still reads the snapshot the statement took before the wait,
// which has no such user: the statement returns no row, `user.id` throws,
// and the second sign-in fails. `ON CONFLICT (email) DO UPDATE SET email =
// EXCLUDED.email` is a fix: after the wait it updates the first one's row
// and returns it. So is Django's way: INSERT under a SAVEPOINT, and on a
// unique violation (23505) ROLLBACK TO it and SELECT, a new statement that
// sees the first one's row.
//
// See it: `users=1&clicks=2` gives errors 1 (the second click finds no
// user); with DO UPDATE, `signed_in` 2 and no error.
const { Pool } = require("pg");

const pool = new Pool();

async function getOrCreateUser(client, email) {
  const { rows } = await client.query(
    `WITH ins AS (
       INSERT INTO users (email) VALUES ($1)
       ON CONFLICT (email) DO NOTHING
       RETURNING id
     )
     SELECT id FROM ins
     UNION ALL
     SELECT id FROM users WHERE email = $1`,
    [email]
  );
  return rows[0];
}

module.exports = {
  async handle(req) {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const user = await getOrCreateUser(client, `user${req.user}@example.com`);
      // Its first session, after 30 ms of other work.
      await new Promise((resolve) => setTimeout(resolve, 30));
      await client.query("INSERT INTO sessions (user_id) VALUES ($1)", [user.id]);
      await client.query("COMMIT");
      count("signed_in");
      return { status: 200 };
    } catch (err) {
      await client.query("ROLLBACK");
      throw err;
    } finally {
      client.release();
    }
  },
};
