const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const a = await pool.connect();
  const b = await pool.connect();
  const q = (c, n) => async (label, text, values) => {
    try { const r = await c.query(text, values); console.log(n, label, r.command, JSON.stringify(r.rows)); }
    catch (e) { console.log(n, label, 'ERR', e.code, e.message); }
  };
  const A = q(a, 'A'), B = q(b, 'B');
  await A('begin', 'BEGIN');
  await A('dup', "INSERT INTO items VALUES (1, 'dup')");
  await A('to s', 'ROLLBACK TO s');
  await A('end', 'ROLLBACK');
  await A('begin', 'BEGIN');
  await A('lock', 'SELECT id FROM items WHERE id = 1 FOR UPDATE');
  await A('sp', 'SAVEPOINT s');
  await A('update', "UPDATE items SET name = 'x' WHERE id = 1");
  await A('to s', 'ROLLBACK TO s');
  await B('nowait', 'SELECT id FROM items WHERE id = 1 FOR UPDATE NOWAIT');
  await A('end', 'ROLLBACK');
  await A('begin', 'BEGIN');
  await A('sp', 'SAVEPOINT s');
  await A('lock', 'SELECT id FROM items WHERE id = 1 FOR UPDATE');
  await A('adv', 'SELECT pg_advisory_xact_lock(7)');
  await B('nowait locked', 'SELECT id FROM items WHERE id = 1 FOR UPDATE NOWAIT');
  await B('try adv', 'SELECT pg_try_advisory_xact_lock(7) AS got');
  await A('to s', 'ROLLBACK TO s');
  await B('nowait free', 'SELECT id FROM items WHERE id = 1 FOR UPDATE NOWAIT');
  await B('try adv free', 'SELECT pg_try_advisory_xact_lock(7) AS got');
  await A('update', "UPDATE items SET name = 'y' WHERE id = 1");
  await A('sp2', 'SAVEPOINT t');
  await A('bad', 'SELECT 1/0 AS x');
  await B('nowait after error', 'SELECT id FROM items WHERE id = 1 FOR UPDATE NOWAIT');
  await A('to t', 'ROLLBACK TO t');
  await A('commit', 'COMMIT');
  await B('seen', 'SELECT name FROM items WHERE id = 1');
  a.release(); b.release();
  return { ok: true };
}
module.exports = { handle };
