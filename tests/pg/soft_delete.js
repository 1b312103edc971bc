// Soft delete under a partial unique index: an email is unique among the
// live accounts only. Each step counts what PostgreSQL answered.
const { Pool } = require("pg");

const pool = new Pool();

const step = async (label, text, values) => {
  try {
    const r = await pool.query(text, values);
    count(`${label}: ${r.rowCount}`);
    return r;
  } catch (e) {
    count(`${label}: ${e.code}${e.constraint ? ` ${e.constraint}` : ""}`);
  }
};

module.exports = {
  async handle(req) {
    const email = "ada@example.com";
    const first = await step("sign up", "INSERT INTO accounts (email) VALUES ($1) RETURNING id", [email]);
    const id = first.rows[0].id;
    await step("delete", "UPDATE accounts SET deleted_at = now() WHERE id = $1", [id]);
    await step("sign up again", "INSERT INTO accounts (email) VALUES ($1)", [email]);
    await step("sign up twice", "INSERT INTO accounts (email) VALUES ($1)", [email]);
    await step("deleted twin", "INSERT INTO accounts (email, deleted_at) VALUES ($1, now())", [email]);
    await step("upsert without where", "INSERT INTO accounts (email) VALUES ($1) ON CONFLICT (email) DO NOTHING", [email]);
    await step("upsert where", "INSERT INTO accounts (email) VALUES ($1) ON CONFLICT (email) WHERE deleted_at IS NULL DO NOTHING", [email]);
    await step(
      "upsert where and",
      "INSERT INTO accounts (email, name) VALUES ($1, 'Ada') ON CONFLICT (email) WHERE deleted_at IS NULL AND email <> '' DO UPDATE SET name = excluded.name",
      [email],
    );
    await step("restore", "UPDATE accounts SET deleted_at = NULL WHERE id = $1", [id]);
    await step("live", "SELECT id FROM accounts WHERE deleted_at IS NULL", []);
  },
};
