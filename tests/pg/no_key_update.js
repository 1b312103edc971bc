// Two sessions of one request: what FOR NO KEY UPDATE stops, and the
// errors that name it (tests/sql.rs pins the lines PostgreSQL 15 with pg 8
// printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const c = await pool.connect();
  const d = await pool.connect();
  const q = (label, client, text, values) => client.query(text, values).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('c begin', c, 'BEGIN');
  await q('c lock', c, 'SELECT balance FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [1]);
  await q('d read', d, 'SELECT balance FROM accounts WHERE id = 1');
  await q('d update nowait', d, 'SELECT id FROM accounts WHERE id = 1 FOR UPDATE NOWAIT');
  await q('d share nowait', d, 'SELECT id FROM accounts WHERE id = 1 FOR SHARE NOWAIT');
  await q('d no key nowait', d, 'SELECT id FROM accounts WHERE id = 1 for no key update nowait');
  await q('d skip', d, 'SELECT id FROM accounts ORDER BY id FOR NO KEY UPDATE SKIP LOCKED');
  const update = q('d update', d, 'UPDATE accounts SET balance = balance - 10 WHERE id = 1 RETURNING balance');
  await q('c update', c, 'UPDATE accounts SET balance = balance + 1 WHERE id = 1');
  await q('c commit', c, 'COMMIT');
  await update;
  await q('c distinct', c, 'SELECT DISTINCT balance FROM accounts FOR NO KEY UPDATE');
  await q('c count', c, 'SELECT count(*) FROM accounts FOR NO KEY UPDATE');
  await q('c group', c, 'SELECT balance FROM accounts GROUP BY balance FOR NO KEY UPDATE');
  await q('c final', c, 'SELECT id, balance FROM accounts ORDER BY id');
  c.release(); d.release();
  return { ok: true };
}
module.exports = { handle };
