const { Pool } = require('pg');
const pool = new Pool();
async function handle(req) {
  const c = await pool.connect();
  const q = async (label, text, values) => {
    try { const r = await c.query(text, values); console.log(label, r.command, JSON.stringify(r.rows)); }
    catch (e) { console.log(label, 'ERR', e.code, e.message); }
  };
  await q('outside', 'SAVEPOINT s');
  await q('outside rollback', 'ROLLBACK TO SAVEPOINT s');
  await q('outside release', 'RELEASE SAVEPOINT s');
  await q('begin', 'BEGIN');
  await q('insert', "INSERT INTO items VALUES (2, 'two')");
  await q('savepoint', 'SAVEPOINT s');
  await q('insert b', "INSERT INTO items VALUES (3, 'three')");
  await q('update', "UPDATE items SET name = 'uno' WHERE id = 1");
  await q('seen', 'SELECT id, name FROM items ORDER BY id');
  await q('rollback to', 'ROLLBACK TO SAVEPOINT s');
  await q('after', 'SELECT id, name FROM items ORDER BY id');
  await q('again', 'ROLLBACK TO s');
  await q('duplicate', "INSERT INTO items VALUES (2, 'dup')");
  await q('aborted', 'SELECT 1 AS one');
  await q('recover', 'ROLLBACK TO SAVEPOINT s');
  await q('usable', 'SELECT count(*) AS n FROM items');
  await q('nested a', 'SAVEPOINT a');
  await q('x', "INSERT INTO items VALUES (4, 'x')");
  await q('nested b', 'SAVEPOINT b');
  await q('y', "INSERT INTO items VALUES (5, 'y')");
  await q('to a', 'ROLLBACK TO a');
  await q('gone', 'SELECT id FROM items ORDER BY id');
  await q('to b', 'ROLLBACK TO b');
  await q('after b', 'SELECT 1 AS one');
  await q('recover a', 'ROLLBACK TO a');
  await q('twice 1', 'SAVEPOINT t');
  await q('p', "INSERT INTO items VALUES (6, 'p')");
  await q('twice 2', 'SAVEPOINT t');
  await q('q', "INSERT INTO items VALUES (7, 'q')");
  await q('to t', 'ROLLBACK TO t');
  await q('release t', 'RELEASE SAVEPOINT t');
  await q('six', 'SELECT id FROM items ORDER BY id');
  await q('to first t', 'ROLLBACK TO t');
  await q('no six', 'SELECT id FROM items ORDER BY id');
  await q('release s', 'RELEASE s');
  await q('released', 'ROLLBACK TO s');
  await q('commit aborted', 'COMMIT');
  await q('nothing kept', 'SELECT id FROM items ORDER BY id');
  await q('begin 2', 'BEGIN');
  await q('keep', "INSERT INTO items VALUES (8, 'kept')");
  await q('sp', 'SAVEPOINT k');
  await q('kept too', "INSERT INTO items VALUES (9, 'kept too')");
  await q('release k', 'RELEASE k');
  await q('commit', 'COMMIT');
  await q('kept', 'SELECT id FROM items ORDER BY id');
  c.release();
  return { ok: true };
}
module.exports = { handle };