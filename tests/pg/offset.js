// OFFSET with LIMIT, parameters, DISTINCT, GROUP BY, a join and a
// subquery, and the rows a FOR UPDATE with an OFFSET locks: the ones it
// skips too (tests/sql.rs pins the lines PostgreSQL 15 with pg 8 printed).
const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const c = await pool.connect();
  const d = await pool.connect();
  const q = (label, client, text, values) => client.query(text, values).then(
    (r) => console.log(label, r.command, r.rowCount, JSON.stringify(r.rows)),
    (e) => console.log(label, 'ERR', e.code, e.message));
  await q('page', c, 'SELECT id, name FROM items ORDER BY id LIMIT 2 OFFSET 2');
  await q('offset only', c, 'SELECT id FROM items ORDER BY id OFFSET 3');
  await q('params', c, 'SELECT id FROM items ORDER BY id LIMIT $1 OFFSET $2', [2, 1]);
  await q('past the end', c, 'SELECT id FROM items ORDER BY id LIMIT 2 OFFSET 10');
  await q('rows', c, 'SELECT id FROM items ORDER BY id OFFSET 1 ROWS LIMIT 1');
  await q('negative', c, 'SELECT id FROM items OFFSET -1');
  await q('null', c, 'SELECT id FROM items ORDER BY id LIMIT 1 OFFSET NULL');
  await q('text param', c, 'SELECT id FROM items ORDER BY id LIMIT 1 OFFSET $1', ['4']);
  await q('distinct', c, 'SELECT DISTINCT name FROM items ORDER BY name LIMIT 2 OFFSET 1');
  await q('group', c, 'SELECT name, count(*) AS n FROM items GROUP BY name ORDER BY name OFFSET 1 LIMIT 2');
  await q('aggregate', c, 'SELECT count(*) FROM items OFFSET 1');
  await q('join', c, 'SELECT a.id, b.id AS bid FROM items a JOIN items b ON a.name = b.name ORDER BY a.id, bid LIMIT 2 OFFSET 1');
  await q('subquery', c, 'SELECT id FROM items WHERE id IN (SELECT id FROM items ORDER BY id OFFSET 3) ORDER BY id');
  await q('begin', c, 'BEGIN');
  await q('lock page', c, 'SELECT id FROM items ORDER BY id LIMIT 1 OFFSET 1 FOR UPDATE');
  await q('skipped row', d, 'SELECT id FROM items WHERE id = 1 FOR UPDATE NOWAIT');
  await q('returned row', d, 'SELECT id FROM items WHERE id = 2 FOR UPDATE NOWAIT');
  await q('next row', d, 'SELECT id FROM items WHERE id = 3 FOR UPDATE NOWAIT');
  await q('skip locked', d, 'SELECT id FROM items ORDER BY id LIMIT 1 OFFSET 1 FOR UPDATE SKIP LOCKED');
  await q('commit', c, 'COMMIT');
  c.release(); d.release();
  return { ok: true };
}
module.exports = { handle };
