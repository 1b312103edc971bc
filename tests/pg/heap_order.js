// The order a scan without ORDER BY returns rows in: PostgreSQL's heap
// order, where an updated row's new version comes after the rows already
// there (tests/sql.rs pins the lines PostgreSQL 15 with pg 8 printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const c = await pool.connect();
  const d = await pool.connect();
  const q = (label, client, text) => client.query(text).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows.map((row) => Object.values(row).join(':')))),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('start', c, 'SELECT id FROM items');
  await q('update 2', c, 'UPDATE items SET qty = qty + 1 WHERE id = 2');
  await q('after 2', c, 'SELECT id FROM items');
  await q('update 1 and 3', c, 'UPDATE items SET qty = qty WHERE id IN (3, 1) RETURNING id');
  await q('after 1 3', c, 'SELECT id FROM items');
  await q('lock 4', c, 'SELECT id FROM items WHERE id = 4 FOR UPDATE');
  await q('after lock', c, 'SELECT id FROM items');
  await q('begin', c, 'BEGIN');
  await q('update 4', c, 'UPDATE items SET qty = 41 WHERE id = 4');
  await q('own view', c, 'SELECT id FROM items');
  await q('other view', d, 'SELECT id FROM items');
  await q('rollback', c, 'ROLLBACK');
  await q('after rollback', c, 'SELECT id FROM items');
  await q('delete 2', c, 'DELETE FROM items WHERE id = 2');
  await q('insert 5', c, 'INSERT INTO items VALUES (5, 50)');
  await q('after insert', c, 'SELECT id FROM items');
  await q('upsert', c, 'INSERT INTO items VALUES (3, 0) ON CONFLICT (id) DO UPDATE SET qty = 33');
  await q('after upsert', c, 'SELECT id FROM items');
  await q('all', c, 'UPDATE items SET qty = qty + 1 RETURNING id');
  await q('after all', c, 'SELECT id, qty FROM items');
  await q('begin', c, 'BEGIN');
  await q('update 5', c, 'UPDATE items SET qty = 0 WHERE id = 5');
  await q('commit', c, 'COMMIT');
  await q('after commit', d, 'SELECT id FROM items');
  await q('limit', d, 'SELECT id FROM items LIMIT 2');
  c.release(); d.release();
  return { ok: true };
}
module.exports = { handle };
