// Subqueries in FROM (tests/sql.rs pins the lines PostgreSQL 15 with pg 8 printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const q = (label, text, values) => pool.query(text, values).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('count', 'SELECT s.n FROM (SELECT count(*) AS n FROM users) s');
  await q('renamed', 'SELECT * FROM (SELECT id, name FROM users WHERE id > 1) AS u(uid, uname) ORDER BY uid DESC');
  await q('join', 'SELECT u.name, t.total FROM users u JOIN (SELECT user_id, sum(total) AS total FROM orders GROUP BY user_id) t ON t.user_id = u.id ORDER BY t.total DESC');
  await q('left', 'SELECT u.name, t.n FROM users u LEFT JOIN (SELECT user_id, count(*) AS n FROM orders WHERE total > 7 GROUP BY user_id) t ON t.user_id = u.id ORDER BY u.id');
  await q('nested agg', 'SELECT max(n) AS most, min(n) AS least FROM (SELECT count(*) AS n FROM orders GROUP BY user_id) c');
  await q('param', 'SELECT b.id FROM (SELECT id FROM orders WHERE total >= $1) b ORDER BY b.id', [8]);
  await q('with', 'WITH big AS (SELECT * FROM orders WHERE total > 6) SELECT count(*) FROM (SELECT user_id FROM big GROUP BY user_id) g');
  await q('where sub', 'SELECT name FROM (SELECT * FROM users) u WHERE u.id IN (SELECT user_id FROM orders WHERE total > 9)');
  await q('no alias', 'SELECT * FROM (SELECT 1 AS x)');
  await q('too many', 'SELECT * FROM (SELECT id FROM users) s(a, b)');
  await q('same name', 'SELECT * FROM (SELECT id FROM users) users WHERE id = 2');
  await q('twice', 'SELECT * FROM (SELECT 1) s, (SELECT 2) s');
  await q('update from', 'UPDATE users SET name = name || t.n FROM (SELECT user_id, count(*)::text AS n FROM orders GROUP BY user_id) t WHERE t.user_id = users.id RETURNING users.id, users.name');
  await q('delete using', 'DELETE FROM orders o USING (SELECT user_id, max(total) AS top FROM orders GROUP BY user_id) m WHERE o.user_id = m.user_id AND o.total < m.top RETURNING o.id');
  await q('after', 'SELECT id, user_id, total FROM orders ORDER BY id');
  await q('outer ref', 'SELECT * FROM users u, (SELECT * FROM orders WHERE user_id = u.id) o');
  return { ok: true };
}
module.exports = { handle };
