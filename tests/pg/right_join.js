// RIGHT and FULL joins (tests/sql.rs pins the lines PostgreSQL 15 with pg 8 printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const q = (label, text, values) => pool.query(text, values).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('right', 'SELECT u.name, o.id, o.total FROM users u RIGHT JOIN orders o ON o.user_id = u.id ORDER BY o.id');
  await q('right outer', 'SELECT u.id AS uid, o.id AS oid FROM users u RIGHT OUTER JOIN orders o ON o.user_id = u.id AND o.total > 7 ORDER BY o.id');
  await q('full', 'SELECT u.name, o.id FROM users u FULL JOIN orders o ON o.user_id = u.id ORDER BY u.name NULLS LAST, o.id NULLS FIRST');
  await q('full where', 'SELECT u.id, o.id AS oid FROM users u FULL OUTER JOIN orders o ON o.user_id = u.id WHERE u.id IS NULL OR o.id IS NULL ORDER BY 1, 2');
  await q('star', 'SELECT * FROM notes n RIGHT JOIN orders o ON o.id = n.order_id ORDER BY o.id');
  await q('chain', 'SELECT u.name, o.id, n.body FROM users u JOIN orders o ON o.user_id = u.id RIGHT JOIN notes n ON n.order_id = o.id ORDER BY n.id');
  await q('count', 'SELECT count(*), count(u.id) AS users FROM users u RIGHT JOIN orders o ON o.user_id = u.id');
  return { ok: true };
}
module.exports = { handle };
