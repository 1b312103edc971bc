// FETCH FIRST … ROWS ONLY, the standard's LIMIT (tests/sql.rs pins the lines
// PostgreSQL 15 with pg 8 printed; on tests/pg/offset.sql).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const q = (label, text, values) => pool.query(text, values).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('fetch', 'SELECT id FROM items ORDER BY id FETCH FIRST 2 ROWS ONLY');
  await q('fetch one', 'SELECT id FROM items ORDER BY id FETCH FIRST ROW ONLY');
  await q('offset fetch', 'SELECT id FROM items ORDER BY id OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY');
  await q('fetch param', 'SELECT id FROM items ORDER BY id FETCH FIRST $1 ROWS ONLY', [3]);
  await q('both', 'SELECT id FROM items LIMIT 1 FETCH FIRST 1 ROWS ONLY');
  return { ok: true };
}
module.exports = { handle };
