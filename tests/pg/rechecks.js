const { Pool } = require('pg');
const pool = new Pool();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function handle(req) {
  const a = await pool.connect();
  const b = await pool.connect();
  // Each statement's answer as a line, printed in the handler's order.
  const q = (c, n) => async (label, text, values) => {
    try { const r = await c.query(text, values); return [n, label, r.command, r.rowCount, JSON.stringify(r.rows)].join(' '); }
    catch (e) { return [n, label, 'ERR', e.code, e.message].join(' '); }
  };
  const p = (c, n) => async (...args) => console.log(await q(c, n)(...args));
  const A = p(a, 'A'), B = p(b, 'B'), later = q(b, 'B');
  // B's statement waits for A's row; A commits; B goes on.
  const race = async (label, first, second) => {
    await A('begin', 'BEGIN');
    for (const text of first) await A(label, text);
    await B('begin', 'BEGIN');
    const waiting = later(label, second);
    await sleep(50);
    await A('commit', 'COMMIT');
    console.log(await waiting);
    await B('rollback', 'ROLLBACK');
  };
  await race('phantom', ['SELECT id FROM orders WHERE user_id = 1 FOR UPDATE', 'INSERT INTO orders VALUES (10, 1, 5)'],
    'SELECT id, total FROM orders WHERE user_id = 1 ORDER BY id FOR UPDATE');
  await race('moved away', ["UPDATE orders SET user_id = 2 WHERE id = 1"],
    'SELECT id FROM orders WHERE user_id = 1 ORDER BY id FOR UPDATE');
  await race('moved in', ['SELECT id FROM orders WHERE id = 2 FOR UPDATE', 'UPDATE orders SET user_id = 1 WHERE id = 3'],
    'SELECT id FROM orders WHERE user_id = 1 ORDER BY id FOR SHARE');
  await race('update values', ['UPDATE orders SET total = total + 5 WHERE id = 2'],
    'UPDATE orders SET total = total * 2 WHERE user_id = 1 RETURNING id, total');
  await race('delete phantom', ['SELECT id FROM orders WHERE user_id = 1 FOR UPDATE', 'INSERT INTO orders VALUES (11, 1, 5)'],
    'DELETE FROM orders WHERE user_id = 1 RETURNING id');
  await race('update phantom', ['SELECT id FROM orders WHERE user_id = 2 FOR UPDATE', 'INSERT INTO orders VALUES (12, 2, 1)'],
    'UPDATE orders SET total = 0 WHERE user_id = 2 RETURNING id');
  await race('limit skips', ["UPDATE orders SET user_id = 3 WHERE id = 1"],
    'SELECT id FROM orders WHERE user_id = 2 ORDER BY id LIMIT 1 FOR UPDATE');
  await A('after', 'SELECT id, user_id, total FROM orders ORDER BY id');
  a.release(); b.release();
  return { ok: true };
}
module.exports = { handle };
