// Correlated subqueries: a subquery that reads the outer query's row, in
// WHERE, in the select list, in SET, in INSERT … SELECT and DELETE
// (tests/sql.rs pins the lines PostgreSQL 15 with pg 8 printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const q = (label, text, values) => pool.query(text, values).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('no orders', 'SELECT u.id, u.name FROM users u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id) ORDER BY u.id');
  await q('by table name', 'SELECT name FROM users WHERE EXISTS (SELECT 1 FROM orders WHERE orders.user_id = users.id) ORDER BY name');
  await q('unqualified', 'SELECT name FROM users WHERE EXISTS (SELECT 1 FROM orders WHERE user_id = id AND total > $1) ORDER BY name', [6]);
  await q('count each', 'SELECT u.name, (SELECT count(*) FROM orders o WHERE o.user_id = u.id) AS n FROM users u ORDER BY n DESC, u.name');
  await q('sum each', 'SELECT name, (SELECT sum(total) FROM orders WHERE user_id = users.id) AS spent FROM users ORDER BY id');
  await q('in', 'SELECT name FROM users u WHERE u.id IN (SELECT o.user_id FROM orders o WHERE o.total < 8 AND o.user_id = u.id) ORDER BY name');
  await q('tier', 'SELECT o.id FROM orders o WHERE (SELECT tier FROM users u WHERE u.id = o.user_id) = $1 ORDER BY o.id', ['gold']);
  await q('too many', 'SELECT name, (SELECT total FROM orders o WHERE o.user_id = u.id) FROM users u ORDER BY id');
  await q('too many filtered', 'SELECT name FROM users u WHERE u.id = 3 AND (SELECT total FROM orders o WHERE o.user_id = u.id) > 1');
  await q('update set', 'UPDATE users SET name = name || (SELECT count(*) FROM orders WHERE orders.user_id = users.id) RETURNING id, name');
  await q('update where', "UPDATE users u SET tier = 'buyer' WHERE tier IS NULL AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id) RETURNING id, tier");
  await q('insert select', "INSERT INTO orders (user_id, total) SELECT u.id, 1 FROM users u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id) RETURNING user_id, total");
  await q('delete', 'DELETE FROM orders o WHERE o.total < (SELECT max(total) FROM orders o2 WHERE o2.user_id = o.user_id) RETURNING id, user_id');
  await q('two out', 'SELECT name FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE EXISTS (SELECT 1 FROM users v WHERE v.id = o.user_id AND v.id = u.id)) ORDER BY name');
  await q('missing', 'SELECT name FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.nope)');
  await q('missing bare', 'SELECT name FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE nope = 1)');
  await q('final', 'SELECT id, user_id, total FROM orders ORDER BY id');
  return { ok: true };
}
module.exports = { handle };
