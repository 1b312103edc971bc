// End-to-end test of script scenarios in the built app (dist/) in headless
// Chromium: the script worker the page starts for a script (src/app/remote.rs), every shipped
// example run to the end with the same metrics as `interleave run` on the
// same fragment, an edit in the editor that runs and lands in the link, a
// `code=…&schema=…` link and an edit of its schema, the TypeScript and SQL
// modules fetched only by the scripts that need them, a
// syntax error shown at its line with the last good run kept, hostile code
// from a link, and the phone layout. Prints one line per check and the
// time from opening a script link to its first step; exits 1 on a failure.
//
// Run from the repository root after `trunk build`: node e2e/scripts.mjs

import { mkdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import {
  press,
  ARGS, CHROMIUM, byId, check, checkMetrics, cli, finish, openPage as open, ready as readyWithin, runToEnd,
} from './common.mjs';

/** The `code=` value of `code`, from `interleave encode`. */
function encode(code) {
  const dir = mkdtempSync(join(tmpdir(), 'interleave-e2e-'));
  const file = join(dir, 'script.js');
  writeFileSync(file, code);
  return cli('encode', file).trim();
}

const problems = [];
const ORIGIN = { url: '' };
const openPage = (browser, viewport) => open(browser, problems, ORIGIN.url, viewport);
// The first script link loads the engine: more time than a story.
const ready = (page) => readyWithin(page, 60_000);

/** Whether the page still answers within `ms` (its main thread is free). */
async function responsive(page, ms = 2000) {
  const answer = page.evaluate(() => new Promise((done) => setTimeout(() => done(true), 0)));
  const late = new Promise((done) => setTimeout(() => done(false), ms));
  return Promise.race([answer, late]);
}

/** Replaces the editor's text by typing, as a person would: a click on
 * the code builds the editor (it shows the code plain until then) and
 * gives it the focus. */
async function typeInEditor(page, code) {
  const editor = page.locator(byId('script-editor'));
  if (!(await editor.evaluate((element) => element.view !== null))) {
    await page.locator(`${byId('script-editor')} .je-plain`).click();
    await editor.evaluate((element) => element.edit());
  }
  await page.locator(`${byId('script-editor')} .cm-content`).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

const EXAMPLES = {
  ticket: 'strategy=none&users=2&clicks=2',
  stampede: 'strategy=none&users=20&clicks=1',
  emitter_lock: 'strategy=none&users=3&clicks=1',
  ticket_lock: 'strategy=none&users=3&clicks=1',
  mutex_map: 'strategy=none&users=2&clicks=2',
  inventory_oversell: 'strategy=none&users=4&clicks=1',
  inventory_atomic: 'strategy=none&users=4&clicks=1',
  idempotency: 'strategy=none&users=2&clicks=2',
  rate_limiter_check_first: 'strategy=none&users=1&clicks=5',
  rate_limiter: 'strategy=none&users=2&clicks=3',
  rate_limiter_sliding: 'strategy=none&users=1&clicks=5',
  // The gallery: each with the schema it carries (NAME.sql).
  ticket_pg: 'strategy=none&users=1&clicks=2',
  ticket_pg_on_conflict: 'strategy=none&users=1&clicks=2',
  ticket_pg_for_update: 'strategy=none&users=1&clicks=2',
  redis_lock: 'strategy=none&users=1&clicks=2',
  async_mutex_servers: 'strategy=none&users=1&clicks=2&servers=2',
  express_tickets: 'strategy=none&users=1&clicks=2',
  stampede_redis: 'strategy=none&users=5&clicks=1',
  stampede_memjs: 'strategy=none&users=5&clicks=1',
  visits_memcached: 'strategy=none&users=1&clicks=5',
  job_queue_pg: 'strategy=none&users=2&clicks=1',
  room_booking_pg: 'strategy=none&users=2&clicks=1',
  signup_pg: 'strategy=none&users=1&clicks=2',
  pool_begin_pg: 'strategy=none&users=2&clicks=1',
  redis_watch: 'strategy=none&users=4&clicks=1',
};

mkdirSync('test-artifacts', { recursive: true });
const server = await serve(resolve('dist'));
ORIGIN.url = server.url;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });

try {
  // 1. A script link loads the engine, then its first step: timed.
  const first = await openPage(browser);
  const analysisUrls = [];
  first.on('request', (request) => {
    if (request.url().includes('interleave-analysis')) analysisUrls.push(request.url());
  });
  const started = Date.now();
  await first.goto(`${server.url}/#v=1&scenario=script&example=ticket`);
  await ready(first);
  const loadMs = Date.now() - started;
  const engineMs = await first.evaluate(() => window.interleaveEngineMs);
  console.log(`script link to first step: ${loadMs} ms (engine and editor loaded in ${Math.round(engineMs)} ms)`);
  check('a script link opens on its first step', (await first.textContent(byId('step-index'))) === '0');
  check('the code pane shows the script', (await first.textContent(byId('code-pane'))).includes('async function handle'));

  // 2. Every shipped example, run to the end: the CLI's numbers.
  for (const [name, keys] of Object.entries(EXAMPLES)) {
    const fragment = `v=1&scenario=script&example=${name}&${keys}`;
    await first.goto(`${server.url}/#${fragment}`);
    await ready(first);
    await runToEnd(first);
    await checkMetrics(first, fragment, `example=${name}`);
    // A handler that calls no guard, lock or singleflight runs the same
    // under every strategy, and the compare table says so; one with a
    // guard (ticket) has no such note.
    if (name === 'ticket_pg' || name === 'ticket') {
      await first.waitForSelector(`${byId('compare')} .more`, { state: 'detached', timeout: 60_000 });
      const note = (await first.$(byId('compare-same'))) !== null;
      check(`example=${name}: the compare table ${name === 'ticket' ? 'has no' : 'has the'} same-events note`, note === (name === 'ticket_pg'));
    }
  }

  // 3. Stepping puts a request's cursor on a script line.
  await first.goto(`${server.url}/#v=1&scenario=script&example=ticket&strategy=none&users=1&clicks=2`);
  await ready(first);
  await press(first, byId('btn-step'));
  await press(first, byId('btn-step'));
  // The code pane is the script's editor, its cursors in it.
  await first.waitForSelector('.code-pane .je-awaited .je-who');
  const awaited = await first.$$eval('.code-pane .je-awaited', (lines) => lines.map((line) => line.textContent));
  check('after two steps a cursor sits on a script line, in the editor',
    awaited.length === 1 && awaited[0].includes('db.findOne') && awaited[0].endsWith('#0#1'), JSON.stringify(awaited));

  // 3b. Manual mode on the script: choose until the duplicate, then the
  // link (with its schedule) replays to the CLI's numbers. It needs
  // explore's analysis, a module fetched only now.
  check('running and stepping scripts never fetch explore\'s analysis', analysisUrls.length === 0, analysisUrls.join(' '));
  await press(first, byId('btn-manual'));
  const goal = await first.textContent(byId('manual-goal'));
  check('manual mode fetches the analysis, once', analysisUrls.length === 2, analysisUrls.join(' '));
  check('manual mode on a script shows the goal', goal.includes('two tickets'), goal);
  for (let i = 0; i < 20 && !(await first.$(byId('manual-win'))); i += 1) {
    await press(first, byId('choice-0'));
  }
  check('manual mode on a script reaches a win', (await first.$(byId('manual-win'))) !== null);
  const scheduled = await first.evaluate(() => location.hash.slice(1));
  check('the script link carries the schedule', scheduled.includes('schedule='), scheduled);
  await first.click(byId('btn-manual'));
  const replay = await openPage(browser);
  await replay.goto(`${server.url}/#${scheduled}`);
  await ready(replay);
  await runToEnd(replay);
  await checkMetrics(replay, scheduled, 'the scheduled script, opened from its link');
  await replay.close();

  // 4. An edit runs after a pause, and the link carries it.
  const edited = [
    'async function handle(req) {',
    '  const seen = await cache.get("k");',
    '  await cache.set("k", 1);',
    '  count("edited", 1);',
    '}',
    '',
  ].join('\n');
  await typeInEditor(first, edited);
  await first.waitForFunction(() => location.hash.includes('code='), null, { timeout: 10_000 });
  await ready(first);
  const link = await first.evaluate(() => location.hash.slice(1));
  check('the edit is in the link as code=', link.includes(`code=${encode(edited)}`), link);
  await runToEnd(first);
  await checkMetrics(first, link, 'the edited script');
  const reopened = await openPage(browser);
  await reopened.goto(`${server.url}/#${link}`);
  await ready(reopened);
  const shownCode = await reopened.textContent(byId('code-pane'));
  check('the link opens the same code', shownCode.includes('count("edited", 1);'));
  await reopened.close();

  // 4b. A code=…&schema=… link runs on its schema and shows it; an edit of
  // the schema reruns the script and lands in the link.
  const pgTicket = [
    "const { Pool } = require('pg');",
    'const pool = new Pool();',
    'async function handle(req) {',
    "  const found = await pool.query('SELECT id FROM orders WHERE user_id = $1', [req.user]);",
    "  if (found.rowCount === 0) await pool.query('INSERT INTO orders (user_id) VALUES ($1)', [req.user]);",
    '}',
    '',
  ].join('\n');
  const unique = 'CREATE TABLE orders (id serial PRIMARY KEY, user_id integer UNIQUE);\n';
  const racy = 'CREATE TABLE orders (id serial PRIMARY KEY, user_id integer);\n-- expect unique: orders (user_id)\n';
  const schemaLink = `v=1&scenario=script&code=${encode(pgTicket)}&schema=${encode(unique)}&strategy=none&users=1&clicks=2`;
  const withSchema = await openPage(browser);
  await withSchema.goto(`${server.url}/#${schemaLink}`);
  await ready(withSchema);
  const schemaOpen = await withSchema.$eval(byId('script-schema'), (details) => details.open);
  const schemaText = await withSchema.$eval(byId('schema-editor'), (field) => field.value);
  check('a schema= link shows its schema', schemaOpen && schemaText === unique, schemaText);
  await runToEnd(withSchema);
  await checkMetrics(withSchema, schemaLink, 'a code= and schema= link');
  // A schema that does not load: its error, the text as typed, the link
  // and the run kept.
  const goodLink = await withSchema.evaluate(() => location.hash.slice(1));
  await withSchema.fill(byId('schema-editor'), 'CREATE TABLE orders (');
  await withSchema.locator(byId('schema-editor')).blur();
  const schemaError = await withSchema.waitForSelector(byId('script-error'), { timeout: 10_000 });
  const schemaMessage = await schemaError.textContent();
  check('a schema that does not load is an error naming schema', schemaMessage.startsWith('`schema`'), schemaMessage);
  const typed = await withSchema.$eval(byId('schema-editor'), (field) => field.value);
  check('the schema field keeps what was typed', typed === 'CREATE TABLE orders (', typed);
  check('the link keeps the last good schema', (await withSchema.evaluate(() => location.hash.slice(1))) === goodLink);
  await withSchema.fill(byId('schema-editor'), racy);
  await withSchema.locator(byId('schema-editor')).blur();
  await withSchema.waitForFunction((piece) => location.hash.includes(piece), `schema=${encode(racy)}`, { timeout: 10_000 });
  await ready(withSchema);
  const racyLink = await withSchema.evaluate(() => location.hash.slice(1));
  await runToEnd(withSchema);
  await checkMetrics(withSchema, racyLink, 'the edited schema');
  // The duplicate row comes with a fix in the script's own SQL, checked by
  // running it: ON CONFLICT and the unique index, to paste; its link runs
  // the edited script to no duplicate.
  const fixCode = await withSchema.waitForSelector(byId('explain-fix-code'), { timeout: 30_000 });
  const pasted = await fixCode.textContent();
  check('a duplicate row offers ON CONFLICT and the unique index to paste',
    pasted.includes("INSERT INTO orders (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING'")
      && pasted.includes('CREATE UNIQUE INDEX orders_user_id_key ON orders (user_id);'), pasted);
  await withSchema.screenshot({ path: 'test-artifacts/script-data-fix.png', fullPage: true });
  await withSchema.click(byId('explain-fix-link'));
  await ready(withSchema);
  const fixedLink = await withSchema.evaluate(() => location.hash.slice(1));
  await runToEnd(withSchema);
  await checkMetrics(withSchema, fixedLink, 'the fix\'s link');
  check('the fix\'s link runs with no duplicate',
    (await withSchema.textContent(byId('metric-duplicate_tickets'))).trim() === '0');
  // An ES module whose top level awaits the event loop (connect, a seed
  // write) loads before the requests arrive: the CLI's numbers.
  const topLevel = [
    "import { createClient } from 'redis';",
    'const client = createClient();',
    'await client.connect();',
    "await client.set('stock', '1');",
    'export async function handle(req) {',
    "  const left = Number(await client.get('stock'));",
    "  if (left > 0) { await client.set('stock', String(left - 1)); count('sold'); }",
    '}',
    '',
  ].join('\n');
  const topLevelLink = `v=1&scenario=script&code=${encode(topLevel)}&strategy=none&users=2&clicks=1`;
  await withSchema.goto(`${server.url}/#${topLevelLink}`);
  await ready(withSchema);
  await runToEnd(withSchema);
  await checkMetrics(withSchema, topLevelLink, 'a top-level await on the event loop');
  await withSchema.close();

  // 4b. TypeScript: its stripper is a wasm module of its own, fetched only
  // for a script that is not JavaScript, and then the CLI's numbers.
  const typescript = [
    'interface Req { user: number }',
    'const seen: Map<number, number> = new Map();',
    'export async function handle(req: Req): Promise<void> {',
    '  const before = seen.get(req.user) ?? 0;',
    '  await sleep(1);',
    '  seen.set(req.user, before + 1);',
    "  count('visits');",
    '}',
    '',
  ].join('\n');
  const stripperUrls = [];
  const tsPage = await openPage(browser);
  tsPage.on('request', (request) => {
    if (request.url().includes('interleave-typescript')) stripperUrls.push(request.url());
  });
  await tsPage.goto(`${server.url}/#v=1&scenario=script&example=ticket&strategy=none&users=2&clicks=1`);
  await ready(tsPage);
  check('a JavaScript script does not fetch the TypeScript stripper', stripperUrls.length === 0, stripperUrls.join(' '));
  const tsLink = `v=1&scenario=script&code=${encode(typescript)}&strategy=none&users=2&clicks=2`;
  await tsPage.goto(`${server.url}/#${tsLink}`);
  await ready(tsPage);
  // Once, by the script worker, which runs the script.
  check('a TypeScript script fetches the stripper, once', stripperUrls.length === 2
    && new Set(stripperUrls).size === 2, stripperUrls.join(' '));
  await runToEnd(tsPage);
  await checkMetrics(tsPage, tsLink, 'a TypeScript link');
  // Typed into the editor: an enum, which strip-only mode refuses, at its line.
  await typeInEditor(tsPage, 'const a: number = 1;\nenum Color { Red }\nexport async function handle(req) {}\n');
  const tsError = await tsPage.waitForSelector(byId('script-error'), { timeout: 10_000 });
  const tsMessage = await tsError.textContent();
  check('TypeScript that strip-only mode refuses is an error at its line', /line 2/.test(tsMessage) && tsMessage.includes('enum'), tsMessage);
  await tsPage.close();

  // Explore on a script, from a page that has not fetched the analysis:
  // the search waits for it, then finds what the CLI finds.
  const searching = await openPage(browser);
  const exploreLink = 'v=1&scenario=script&example=ticket&strategy=none&users=1&clicks=2';
  await searching.goto(`${server.url}/#${exploreLink}`);
  await ready(searching);
  await searching.click(byId('btn-explore'));
  const found = await (await searching.waitForSelector(byId('explore-summary'), { timeout: 60_000 })).textContent();
  const expected = JSON.parse(cli('explore', `#${exploreLink}`));
  check('explore on a script waits for the analysis, then equals the CLI',
    found.includes(`${expected.violating} of ${expected.explored} schedules`), `${found} vs ${JSON.stringify(expected)}`);
  await searching.close();

  // signup_pg's get-or-create fails a click (23505) in some schedules, which
  // the default checks do not look for: the summary says how many, as the
  // CLI counts them.
  const failing = await openPage(browser);
  const signupLink = 'v=1&scenario=script&example=signup_pg&users=1&clicks=2';
  await failing.goto(`${server.url}/#${signupLink}`);
  await ready(failing);
  await failing.click(byId('btn-explore'));
  const failingFound = await (await failing.waitForSelector(byId('explore-summary'), { timeout: 60_000 })).textContent();
  const failingExpected = JSON.parse(cli('explore', `#${signupLink}`));
  check('explore on a script counts the failures it was not asked to check, as the CLI does',
    failingExpected.unchecked.errors > 0
      && failingFound.includes(`0 of ${failingExpected.explored} schedules`)
      && failingFound.includes(`${failingExpected.unchecked.errors} fail (not checked: errors)`),
    `${failingFound} vs ${JSON.stringify(failingExpected)}`);
  await failing.close();

  // A counter's read-modify-write: only `lost-updates` sees its race, as
  // the CLI does, and its counterexample opens on the lost update.
  const lost = await openPage(browser);
  const counter = 'async function handle(req) {\n  const n = (await cache.get("count")) ?? 0;\n  await cache.set("count", n + 1);\n}\n';
  const counterLink = `v=1&scenario=script&strategy=none&users=2&clicks=1&code=${encode(counter)}`;
  await lost.goto(`${server.url}/#${counterLink}`);
  await ready(lost);
  // Checked by default with duplicates (Check::SCRIPT_DEFAULT): alone here.
  await lost.click(byId('explore-check-duplicates'));
  await lost.click(byId('btn-explore'));
  const lostFound = await (await lost.waitForSelector(byId('explore-summary'), { timeout: 60_000 })).textContent();
  const lostExpected = JSON.parse(cli('explore', `#${counterLink}`, '--check', 'lost-updates'));
  check('explore on a script finds its lost updates, as the CLI does',
    lostExpected.violating > 0 && lostFound.includes(`${lostExpected.violating} of ${lostExpected.explored} schedules`),
    `${lostFound} vs ${JSON.stringify(lostExpected)}`);
  await lost.click(byId('btn-open-counterexample'));
  const here = await (await lost.waitForSelector(byId('explain-here'), { timeout: 60_000 })).textContent();
  check('a lost update\'s counterexample opens on the lost update', here.includes('lost update'), here);
  await lost.close();

  // A typo before the stripper has loaded (its download held back here):
  // the last good run stays on screen while it loads, then the error.
  const slow = await openPage(browser);
  let release;
  const held = new Promise((done) => { release = done; });
  await slow.route('**/interleave-typescript*', async (route) => {
    await held;
    await route.continue();
  });
  await slow.goto(`${server.url}/#v=1&scenario=script&example=ticket&strategy=none&users=2&clicks=1`);
  await ready(slow);
  await typeInEditor(slow, 'async function handle(req) {\n  const x = ;\n}\n');
  await slow.waitForSelector(byId('progress'), { timeout: 10_000 });
  const waiting = await slow.textContent(byId('progress'));
  // Code that does not parse as JavaScript may be TypeScript.
  check('a typo waits for the stripper with the last good run on screen',
    /TypeScript/.test(waiting) && (await slow.$(byId('timeline'))) !== null, waiting);
  release();
  const typo = await (await slow.waitForSelector(byId('script-error'), { timeout: 30_000 })).textContent();
  check('... then shows the syntax error at its line, the run still there',
    /line 2/.test(typo) && (await slow.$(byId('timeline'))) !== null, typo);
  await slow.close();

  // 4c. SQL: its parser is a wasm module of its own, fetched only for a
  // script that uses `pg` or a schema, once per file; then the CLI's numbers.
  const sqlUrls = [];
  const sqlPage = await openPage(browser);
  sqlPage.on('request', (request) => {
    if (request.url().includes('interleave-sql')) sqlUrls.push(request.url());
  });
  await sqlPage.goto(`${server.url}/#v=1&scenario=script&example=ticket&strategy=none&users=2&clicks=1`);
  await ready(sqlPage);
  check('a script without pg or a schema does not fetch the SQL parser', sqlUrls.length === 0, sqlUrls.join(' '));
  const pgLink = `v=1&scenario=script&example=ticket_pg&${EXAMPLES.ticket_pg}`;
  await sqlPage.goto(`${server.url}/#${pgLink}`);
  await ready(sqlPage);
  await runToEnd(sqlPage);
  await checkMetrics(sqlPage, pgLink, 'example=ticket_pg after the SQL parser loads');
  const otherPg = `v=1&scenario=script&example=ticket_pg_for_update&${EXAMPLES.ticket_pg_for_update}`;
  await sqlPage.goto(`${server.url}/#${otherPg}`);
  await ready(sqlPage);
  await runToEnd(sqlPage);
  const sqlFiles = sqlUrls.map((url) => new URL(url).pathname);
  check(
    'a pg example fetches the SQL parser, once per file (by the script worker)',
    sqlFiles.length === 2 && new Set(sqlFiles).size === 2
      && sqlFiles.some((file) => file.endsWith('interleave-sql.js'))
      && sqlFiles.some((file) => file.endsWith('interleave-sql_bg.wasm')),
    sqlUrls.join(' '),
  );
  await sqlPage.close();

  // 4d. A fresh pg link loads the SQL parser beside the engine's modules,
  // not after them: while an engine module is held, the worker has asked
  // for the parser already (its model cannot have opened yet).
  const early = await openPage(browser);
  let sqlAsked = null;
  const asked = new Promise((resolve) => { sqlAsked = resolve; });
  early.on('request', (request) => {
    if (request.url().includes('interleave-sql')) sqlAsked(true);
  });
  let heldUntilSql = false;
  await early.route('**/script/split_runtime.wasm', async (route) => {
    heldUntilSql = await Promise.race([asked, new Promise((r) => setTimeout(() => r(false), 10_000))]);
    await route.continue();
  });
  await early.goto(`${server.url}/#${pgLink}`);
  await ready(early);
  check('a fresh pg link asks for the SQL parser while the engine\'s modules still load', heldUntilSql === true);
  await early.close();

  // 5. A syntax error: shown at its line, the last good run kept.
  await typeInEditor(first, 'async function handle(req) {\n  const x = ;\n}\n');
  const error = await first.waitForSelector(byId('script-error'), { timeout: 10_000 });
  const message = await error.textContent();
  check('a syntax error is shown with its line', /line 2/.test(message), message);
  check('the last good run stays on screen', (await first.$(byId('metric-db_reads'))) !== null);
  const marked = await first.$eval(byId('script-editor'), (editor) => editor.getAttribute('error') ?? '');
  check('the editor underlines the error at line 2', marked.startsWith('2:'), marked);
  await first.screenshot({ path: 'test-artifacts/script-error.png' });

  // 6. Hostile code from a link: an error, and the page stays responsive.
  const hostile = {
    fetch: 'async function handle(req) { await fetch("http://example.com/"); }',
    document: 'async function handle(req) { document.body.innerHTML = "owned"; }',
    eval: 'async function handle(req) { eval("1 + 1"); }',
    import: 'async function handle(req) { await import("http://example.com/x.js"); }',
    loop: 'async function handle(req) { while (true) {} }',
    'loop after await': 'async function handle(req) { await sleep(1); for (;;) {} }',
    'top level awaiting for ever, a timer busy': 'setInterval(() => {}, 1);\nawait new Promise(() => {});\nexport async function handle(req) {}',
    '100 MB string': 'async function handle(req) { const s = "x".repeat(100 * 1024 * 1024); count("len", s.length); }',
    'heap filling': 'async function handle(req) { const a = []; for (;;) a.push({ x: a.length }); }',
    'deep recursion': 'function f(n) { return f(n + 1) + 1; }\nasync function handle(req) { f(0); }',
  };
  // The page's guard (src/script/guard.rs, src/app/remote.rs) refuses
  // these, with the reason: a budget's stop at its line, or a worker held
  // for over 2 s, which the page terminates.
  const heldWorker = /the script held the page's worker for over 2 s/;
  const refused = {
    loop: /line 1, column 30: request 0: RuntimeLimitError: ran too long/,
    'loop after await': /line 1, column 46: request 0: RuntimeLimitError/,
    '100 MB string': heldWorker,
    'heap filling': new RegExp(`${heldWorker.source}|RuntimeLimitError: reached the memory budget`),
  };
  // A 100 MB string is JavaScript that Node runs: in the worker's wasm it
  // takes about 2 s, so the guard's 2 s of silence stops it on one run and
  // not on the next. Either is right: refused with the guard's reason, or
  // run to the end with no error.
  const mayFinish = new Set(['100 MB string']);
  for (const [name, code] of Object.entries(hostile)) {
    const page = await openPage(browser);
    await page.addInitScript(() => {
      window.longestTask = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.longestTask = Math.max(window.longestTask, entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${server.url}/#v=1&scenario=script&code=${encode(code)}&users=1&clicks=1`);
    await page.waitForSelector(`${byId('script-error')}, ${byId('btn-step')}:not([disabled])`, { timeout: 60_000 });
    if (await page.$(`${byId('btn-step')}:not([disabled])`)) await runToEnd(page);
    const errors = await page.$eval(byId('metric-errors'), (cell) => cell.textContent).catch(() => null);
    const hung = await page.$eval(byId('metric-hung'), (cell) => cell.textContent).catch(() => null);
    const shown = await page.$(byId('script-error'));
    // The page is still the app: nothing replaced it.
    const intact = (await page.$(byId('script-panel'))) !== null;
    // A runaway loop fails its request, before an await and after one.
    const stopped = errors !== null && errors !== '0';
    const finished = mayFinish.has(name) && shown === null && errors === '0' && hung === '0';
    check(`hostile code (${name}): stopped with an error, the page responsive`,
      (shown !== null || stopped || finished) && (await responsive(page)) && intact,
      `errors=${errors} hung=${hung} banner=${shown !== null} intact=${intact}`);
    if (finished) console.log(`hostile code (${name}): ran to the end with no error`);
    else if (refused[name]) {
      const said = shown ? await shown.textContent() : '';
      check(`hostile code (${name}): the page refused it, saying why`, refused[name].test(said), said);
    }
    const longest = Math.round(await page.evaluate(() => window.longestTask));
    console.log(`hostile code (${name}): longest task ${longest} ms`);
    await page.close();
  }

  // 7. A phone: no sideways scroll on a script scenario.
  const phone = await openPage(browser, { width: 390, height: 844 });
  await phone.goto(`${server.url}/#v=1&scenario=script&example=ticket`);
  await ready(phone);
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  check('390x844: a script scenario has no sideways scroll', width <= 390, `${width}px`);
  await phone.screenshot({ path: 'test-artifacts/script-phone.png', fullPage: true });
  await first.screenshot({ path: 'test-artifacts/script-laptop.png' });

  // 8. From a story, the scenario list's "script" loads the engine.
  const story = await openPage(browser);
  await story.goto(`${server.url}/#v=1&scenario=ticket&strategy=none`);
  await ready(story);
  // A mark on the window: a reload would lose it.
  await story.evaluate(() => { window.interleaveNoReload = true; });
  await story.selectOption(byId('scenario-select'), 'script');
  await story.waitForSelector(byId('script-panel'), { timeout: 60_000 });
  await ready(story);
  check('picking "script" in a story loads the script worker', true);
  check('... without reloading the page', await story.evaluate(() => window.interleaveNoReload === true));
  check('... and one app on the page', (await story.$$('#app')).length === 1
    && (await story.$$('.transport')).length === 1);
  // Back to the story and forward to the script: no reload either way.
  await story.goBack();
  await story.waitForSelector(byId('script-panel'), { state: 'detached', timeout: 30_000 });
  await ready(story);
  await story.goForward();
  await story.waitForSelector(byId('script-panel'), { timeout: 30_000 });
  await ready(story);
  check('story and script, back and forward: still no reload', await story.evaluate(() => window.interleaveNoReload === true));

  // The engine's modules (src/debugger/program/engine.rs) that do not load:
  // the page says so, and why, where the user looks. A page of its own:
  // the failed fetch is an expected console error.
  const unloaded = await browser.newPage();
  await unloaded.route('**/script/split_runtime.wasm', (route) => route.fulfill({ status: 404, body: '' }));
  await unloaded.goto(`${server.url}/#v=1&scenario=script&example=ticket`);
  const banner = await unloaded
    .waitForSelector('#panic-banner', { timeout: 30_000 })
    .then((element) => element.textContent(), () => '');
  check('an engine module that does not load stops the page with the reason',
    banner.includes("the JavaScript engine's modules did not load"), banner);
  await unloaded.close();

  check('no console errors, page errors, CSP violations or outside requests', problems.length === 0, problems.join(' | '));
} catch (error) {
  check('script e2e ran to the end', false, error.stack ?? String(error));
} finally {
  await browser.close();
  await server.close();
}

finish('e2e scripts');
