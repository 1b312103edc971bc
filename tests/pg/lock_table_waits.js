// Two sessions of one request: who waits for whose table lock, what the
// waiter then reads, NOWAIT, and a deadlock of two SHARE holders that both
// write (tests/sql.rs pins the lines PostgreSQL 15 with pg 8 printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const c = await pool.connect();
  const d = await pool.connect();
  const q = (label, client, text) => client.query(text).then(
    (r) => console.log(label, r.command, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  // SHARE lets reads through and stops writers until it ends.
  await q('c begin', c, 'BEGIN');
  await q('c share', c, 'LOCK TABLE bookings IN SHARE MODE');
  await q('d begin', d, 'BEGIN');
  await q('d read', d, 'SELECT count(*) FROM bookings');
  const insert = q('d insert', d, 'INSERT INTO bookings (room, night) VALUES (3, 3)');
  await q('c insert', c, 'INSERT INTO bookings (room, night) VALUES (2, 2)');
  await q('c commit', c, 'COMMIT');
  await insert;
  await q('d commit', d, 'COMMIT');
  // ACCESS EXCLUSIVE stops a read; the read then sees the commit it waited for.
  await q('c begin', c, 'BEGIN');
  await q('c lock', c, 'LOCK bookings');
  const read = q('d read', d, 'SELECT count(*) FROM bookings');
  await q('c insert', c, 'INSERT INTO bookings (room, night) VALUES (4, 4)');
  await q('c commit', c, 'COMMIT');
  await read;
  // A writer's ROW EXCLUSIVE stops LOCK … NOWAIT in SHARE ROW EXCLUSIVE.
  await q('c begin', c, 'BEGIN');
  await q('c delete', c, 'DELETE FROM bookings WHERE room = 4');
  await q('d begin', d, 'BEGIN');
  await q('d nowait', d, 'LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE NOWAIT');
  await q('d rollback', d, 'ROLLBACK');
  await q('c rollback', c, 'ROLLBACK');
  // Two SHARE holders that both write deadlock; the first to wait fails.
  await q('c begin', c, 'BEGIN');
  await q('c share', c, 'LOCK TABLE bookings IN SHARE MODE');
  await q('d begin', d, 'BEGIN');
  await q('d share', d, 'LOCK TABLE bookings IN SHARE MODE');
  const first = q('c insert', c, 'INSERT INTO bookings (room, night) VALUES (5, 5)');
  await new Promise((r) => setTimeout(r, 20));
  const second = q('d insert', d, 'INSERT INTO bookings (room, night) VALUES (6, 6)');
  await first;
  await second;
  await q('c rollback', c, 'ROLLBACK');
  await q('d commit', d, 'COMMIT');
  await q('count', c, 'SELECT count(*) FROM bookings');
  c.release(); d.release();
  return { ok: true };
}
module.exports = { handle };
