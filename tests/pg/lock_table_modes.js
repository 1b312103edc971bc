// Two sessions of one request: which statements an EXCLUSIVE, an ACCESS
// EXCLUSIVE and a SHARE lock stop, subqueries and WITH queries included
// (tests/sql.rs pins the lines PostgreSQL 15 with pg 8 printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const c = await pool.connect();
  const d = await pool.connect();
  const q = (label, client, text) => client.query(text).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('c begin', c, 'BEGIN');
  await q('c exclusive', c, 'LOCK TABLE bookings IN EXCLUSIVE MODE');
  await q('d read', d, 'SELECT count(*) FROM bookings');
  const forUpdate = q('d for update', d, 'SELECT room FROM bookings WHERE room = 1 FOR UPDATE');
  await q('c update', c, 'UPDATE bookings SET night = 9 WHERE room = 1');
  await q('c commit', c, 'COMMIT');
  await forUpdate;
  await q('c begin', c, 'BEGIN');
  await q('c access exclusive', c, 'LOCK TABLE bookings IN ACCESS EXCLUSIVE MODE');
  const sub = q('d subquery', d, 'SELECT 1 AS one WHERE EXISTS (SELECT 1 FROM bookings WHERE night = 9)');
  const cte = q('d with', d, 'WITH b AS (SELECT night FROM bookings) SELECT max(night) FROM b');
  await q('c delete', c, 'DELETE FROM bookings');
  await q('c commit', c, 'COMMIT');
  await sub; await cte;
  await q('c begin', c, 'BEGIN');
  await q('c share', c, 'LOCK TABLE bookings IN SHARE MODE');
  await q('d begin', d, 'BEGIN');
  await q('d share too', d, 'LOCK TABLE bookings IN SHARE MODE NOWAIT');
  await q('d row share', d, 'LOCK TABLE bookings IN ROW SHARE MODE NOWAIT');
  await q('d sue', d, 'LOCK TABLE bookings IN SHARE UPDATE EXCLUSIVE MODE NOWAIT');
  await q('d rollback', d, 'ROLLBACK');
  await q('c commit', c, 'COMMIT');
  c.release(); d.release();
  return { ok: true };
}
module.exports = { handle };
