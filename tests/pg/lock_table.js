// LOCK TABLE's replies and errors, each printed (tests/sql.rs pins them as
// PostgreSQL 15 with pg 8 printed them).
const { Pool } = require('pg');
const pool = new Pool();
const show = (label, r) => console.log(label, JSON.stringify({ command: r.command, rowCount: r.rowCount, rows: r.rows, fields: r.fields.map((f) => [f.name, f.dataTypeID]) }));
async function handle(req) {
  const q = async (label, text, values, c = pool) => {
    try { show(label, await c.query(text, values)); }
    catch (e) { console.log(label, 'ERR', e.code, e.message); }
  };
  await q('outside', 'LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE');
  const c = await pool.connect();
  await q('begin', 'BEGIN', [], c);
  await q('lock', 'LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE', [], c);
  await q('lock bare', 'LOCK bookings', [], c);
  await q('lock nowait', 'LOCK TABLE bookings IN EXCLUSIVE MODE NOWAIT', [], c);
  await q('lock two', 'LOCK TABLE bookings, bookings IN ACCESS SHARE MODE', [], c);
  await q('lock only', 'LOCK TABLE ONLY bookings IN ROW SHARE MODE', [], c);
  await q('commit', 'COMMIT', [], c);
  await q('begin', 'BEGIN', [], c);
  await q('lock missing', 'LOCK TABLE nothere IN SHARE MODE', [], c);
  await q('rollback', 'ROLLBACK', [], c);
  const d = await pool.connect();
  await q('begin c', 'BEGIN', [], c);
  await q('c insert', 'INSERT INTO bookings (room, night) VALUES (2, 2)', [], c);
  await q('begin d', 'BEGIN', [], d);
  await q('d lock nowait', 'LOCK TABLE bookings IN SHARE MODE NOWAIT', [], d);
  await q('rollback d', 'ROLLBACK', [], d);
  await q('begin d', 'BEGIN', [], d);
  await q('d lock row excl nowait', 'LOCK TABLE bookings IN ROW EXCLUSIVE MODE NOWAIT', [], d);
  await q('d select', 'SELECT count(*) FROM bookings', [], d);
  await q('rollback d', 'ROLLBACK', [], d);
  await q('commit c', 'COMMIT', [], c);
  c.release(); d.release();
  return { ok: true };
}
module.exports = { handle };
