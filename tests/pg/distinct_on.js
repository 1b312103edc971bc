// DISTINCT ON: the first row of each group in ORDER BY's order
// (tests/sql.rs pins the lines PostgreSQL 15 with pg 8 printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const q = (label, text, values) => pool.query(text, values).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('latest', 'SELECT DISTINCT ON (sensor) sensor, taken, value FROM readings ORDER BY sensor, taken DESC');
  await q('first', 'SELECT DISTINCT ON (sensor) sensor, value FROM readings ORDER BY sensor, taken');
  await q('no order', 'SELECT DISTINCT ON (taken) taken FROM readings');
  await q('two', 'SELECT DISTINCT ON (taken, sensor) taken, sensor FROM readings ORDER BY taken, sensor DESC NULLS LAST');
  await q('limit', 'SELECT DISTINCT ON (sensor) sensor, taken FROM readings ORDER BY sensor DESC, taken LIMIT 2 OFFSET 1');
  await q('hidden column', 'SELECT DISTINCT ON (sensor) id FROM readings WHERE value IS NOT NULL ORDER BY sensor, value DESC');
  await q('bad order', 'SELECT DISTINCT ON (sensor) sensor, taken FROM readings ORDER BY taken, sensor');
  await q('for update', 'SELECT DISTINCT ON (sensor) sensor FROM readings ORDER BY sensor FOR UPDATE');
  await q('missing', 'SELECT DISTINCT ON (nope) sensor FROM readings');
  return { ok: true };
}
module.exports = { handle };
