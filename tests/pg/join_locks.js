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
  await A('of unknown', 'SELECT o.id FROM orders o JOIN users u ON u.id = o.user_id FOR UPDATE OF x');
  await A('left all', 'SELECT u.id, o.id AS oid FROM users u LEFT JOIN orders o ON o.user_id = u.id FOR UPDATE');
  await A('left of o', 'SELECT u.id, o.id AS oid FROM users u LEFT JOIN orders o ON o.user_id = u.id FOR UPDATE OF o');
  await A('right of u', 'SELECT o.id FROM users u RIGHT JOIN orders o ON o.user_id = u.id FOR SHARE OF u');
  await A('begin', 'BEGIN');
  await A('lock of o', 'SELECT o.id, o.total FROM orders o JOIN users u ON u.id = o.user_id WHERE u.email = $1 ORDER BY o.id FOR UPDATE OF o', ['a@x']);
  await B('order held', 'SELECT id FROM orders WHERE id = 1 FOR UPDATE NOWAIT');
  await B('user free', 'SELECT id FROM users WHERE id = 1 FOR UPDATE NOWAIT');
  await B('other order', 'SELECT id FROM orders WHERE id = 3 FOR UPDATE NOWAIT');
  await B('skip', 'SELECT o.id FROM orders o JOIN users u ON u.id = o.user_id ORDER BY o.id FOR UPDATE OF o SKIP LOCKED');
  await B('nowait', 'SELECT o.id FROM orders o JOIN users u ON u.id = o.user_id ORDER BY o.id FOR UPDATE OF o NOWAIT');
  await A('end', 'ROLLBACK');
  await A('begin', 'BEGIN');
  await A('lock all', 'SELECT o.id, u.email FROM orders o JOIN users u ON u.id = o.user_id WHERE o.id = 3 FOR UPDATE');
  await B('user held', 'SELECT id FROM users WHERE id = 2 FOR UPDATE NOWAIT');
  await B('user share', 'SELECT id FROM users WHERE id = 2 FOR SHARE NOWAIT');
  await A('end', 'ROLLBACK');
  await A('begin', 'BEGIN');
  await A('limit offset', 'SELECT o.id FROM orders o JOIN users u ON u.id = o.user_id ORDER BY o.id LIMIT 1 OFFSET 1 FOR UPDATE OF o');
  await B('offset row held', 'SELECT id FROM orders WHERE id = 1 FOR UPDATE NOWAIT');
  await B('limit row held', 'SELECT id FROM orders WHERE id = 2 FOR UPDATE NOWAIT');
  await B('after free', 'SELECT id FROM orders WHERE id = 3 FOR UPDATE NOWAIT');
  await A('share', 'SELECT u.id FROM users u JOIN orders o ON o.user_id = u.id WHERE o.id = 3 FOR SHARE OF u');
  await B('shared too', 'SELECT u.id FROM users u JOIN orders o ON o.user_id = u.id WHERE o.id = 3 FOR SHARE OF u NOWAIT');
  await B('update held', 'SELECT id FROM users WHERE id = 2 FOR UPDATE NOWAIT');
  await A('end', 'ROLLBACK');
  await A('comma', 'SELECT o.id FROM orders o, users u WHERE u.id = o.user_id AND u.id = 2 FOR UPDATE OF o, u');
  a.release(); b.release();
  return { ok: true };
}
module.exports = { handle };
