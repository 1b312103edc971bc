// End-to-end check of the <js-editor> web component in headless Chromium.
//
// Serves a tiny page (node http, 127.0.0.1, a free port) with the same
// Content-Security-Policy meta tag as index.html, the app's stylesheet and
// the bundle web/editor/dist/ (its entry element.js and its chunks), then checks: a new
// editor shows its code plain, with the run's marks and the error, and loads
// no CodeMirror until a click, which builds it with the focus at the place
// clicked; built (`eager`), it renders, styled, with
// line numbers and highlighting; typing fires one debounced code-change with
// the right text, and blur fires a pending one at once; setting the same
// `value` keeps the cursor; `error` underlines and shows its message under
// its line; Tab/Shift-Tab indent, Escape then Tab leaves; undo; bracket
// matching; completion (module names, a module's exports, members, globals:
// Enter accepts, Tab still indents, Escape closes the list); readonly; a
// `value` set before the element was defined; and no
// CSP violation, console error or page error. A control page shows that the
// CSP is in force (a <style> element is refused). Screenshots in light and
// dark go to test-artifacts/editor-{light,dark}.png, and of the completion
// list to test-artifacts/editor-completion-{light,dark}.png.
//
// Run from the repository root: scripts/build-editor.sh && node e2e/editor.mjs

import { createServer } from 'node:http';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

const CSP_META = /<meta\s+http-equiv="Content-Security-Policy"[^>]*>/i.exec(readFileSync('index.html', 'utf8'));
if (!CSP_META) throw new Error('no CSP meta tag in index.html');

const CODE = [
  'export default async function handler(req, ctx) {',
  '  const user = await ctx.db.get(req.id);',
  '  if (!user) return { status: 404 };',
  "  return { status: 200, body: 'hi ' + user.name };",
  '}',
].join('\n');

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');

const page = (body, head = '') => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    ${CSP_META[0]}
    <meta name="color-scheme" content="light dark" />
    <link rel="stylesheet" href="/app.css" />
    <link rel="stylesheet" href="/page.css" />
    ${head}
  </head>
  <body>
${body}
  </body>
</html>`;

const FILES = {
  '/': [
    'text/html',
    page(`    <h1>js-editor</h1>
    <js-editor id="ed" eager value="${escapeAttr(CODE)}"></js-editor>
    <button id="after" type="button">after</button>
    <js-editor id="early" eager></js-editor>
    <script src="/early.js"></script>
    <script type="module" src="/editor/element.js"></script>`),
  ],
  // An editor as the page makes it: plain until the person reaches for it.
  '/plain.html': [
    'text/html',
    page(`    <js-editor id="plain" value="${escapeAttr(CODE)}" error="2:9:boom: bad"
      marks='[{"line":2,"touched":true,"count":3,"who":[[0,false],[1,true]]},{"line":4,"touched":true,"count":0,"who":[]}]'></js-editor>
    <button id="after" type="button">after</button>
    <js-editor id="typed" value="x"></js-editor>
    <script type="module" src="/editor/element.js"></script>`),
  ],
  '/control.html': ['text/html', page('    <p>control</p>', '<script src="/control.js"></script>')],
  // Runs before the module defines the element: a property set on the
  // not-yet-upgraded element must reach the editor.
  '/early.js': ['text/javascript', "document.getElementById('early').value = 'early text';\n"],
  // Breaks the CSP on purpose, to show the violation check can fail.
  '/control.js': [
    'text/javascript',
    "const s = document.createElement('style'); s.textContent = 'p { color: red }'; document.head.append(s);\n",
  ],
  '/page.css': [
    'text/css',
    'body { margin: 16px; background: var(--bg); color: var(--text); font-family: var(--sans); }\n' +
      '#ed, #early { max-width: 640px; margin-bottom: 12px; }\n',
  ],
  '/app.css': ['text/css', readFileSync('styles/app.css')],
};
for (const file of readdirSync('web/editor/dist')) {
  FILES[`/editor/${file}`] = ['text/javascript', readFileSync(`web/editor/dist/${file}`)];
}
// The element with CodeMirror's chunks missing (a network that fails):
// only the entry and the chunks it imports at once.
{
  const entry = readFileSync('web/editor/dist/element.js', 'utf8');
  FILES['/broken/element.js'] = ['text/javascript', entry];
  for (const [, file] of entry.matchAll(/from"\.\/([^"]+)"/g)) {
    FILES[`/broken/${file}`] = ['text/javascript', readFileSync(`web/editor/dist/${file}`)];
  }
  FILES['/broken.html'] = [
    'text/html',
    page(`    <js-editor id="broken" value="const a = 1;"></js-editor>
    <script type="module" src="/broken/element.js"></script>`),
  ];
}

const server = createServer((req, res) => {
  const f = FILES[new URL(req.url, 'http://x').pathname];
  if (!f) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': `${f[0]}; charset=utf-8`, 'cache-control': 'no-store' }).end(f[1]);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const ORIGIN = `http://127.0.0.1:${server.address().port}`;

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail !== '' ? `: ${detail}` : ''}`);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
try {
  const context = await browser.newContext({ viewport: { width: 720, height: 520 } });

  async function open(path) {
    const p = await context.newPage();
    const problems = { csp: [], console: [], errors: [] };
    await p.exposeFunction('reportCspViolation', (s) => problems.csp.push(s));
    await p.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        window.reportCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`),
      ),
    );
    p.on('console', (m) => m.type() === 'error' && problems.console.push(m.text()));
    p.on('pageerror', (e) => problems.errors.push(String(e)));
    await p.goto(ORIGIN + path);
    return { p, problems };
  }

  // CodeMirror that does not load: the message shows in the code, and
  // the code stays readable.
  {
    const { p: b } = await open('/broken.html');
    await b.waitForFunction(() => document.querySelector('#broken')?.shadowRoot?.querySelector('.je-row'));
    await b.click('#broken');
    await b.waitForFunction(() => document.querySelector('#broken').shadowRoot.querySelector('.je-msg'), null, { timeout: 10000 });
    const shown = await b.evaluate(() => {
      const root = document.querySelector('#broken').shadowRoot;
      return { message: root.querySelector('.je-msg').textContent, code: root.querySelector('.je-code').textContent };
    });
    check(
      'CodeMirror that does not load: the code says so and stays readable',
      shown.message.startsWith('The code editor did not load (') && shown.message.endsWith('click the code to try again.') &&
        shown.code === 'const a = 1;',
      JSON.stringify(shown),
    );
    await b.close();
  }

  // Keys typed before CodeMirror is built, held here until they all are:
  // characters go in at the caret, and the keys that edit or move it act
  // as they do in the editor.
  {
    const entry = readFileSync('web/editor/dist/element.js', 'utf8');
    const eager = new Set(['element.js', ...[...entry.matchAll(/from"\.\/([^"]+)"/g)].map(([, file]) => file)]);
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    const { p: k } = await open('/plain.html');
    await k.route((url) => url.pathname.startsWith('/editor/') && !eager.has(url.pathname.slice('/editor/'.length)), async (route) => {
      await held;
      await route.continue();
    });
    await k.waitForFunction(() => document.querySelector('#typed')?.shadowRoot?.querySelector('.je-row'));
    await k.focus('#typed');
    await k.keyboard.type('ab');
    for (const key of ['Backspace', 'ArrowRight']) await k.keyboard.press(key);
    await k.keyboard.type('Z');
    await k.keyboard.press('Enter');
    const before = await k.evaluate(() => document.querySelector('#typed').view === null);
    release();
    await k.waitForFunction(() => document.querySelector('#typed').view?.hasFocus, null, { timeout: 10000 });
    const after = await k.evaluate(() => document.querySelector('#typed').value);
    check('Backspace, arrows and Enter typed while the editor loads act once it is built', before && after === 'axZ\n',
      JSON.stringify({ before, after }));
    await k.close();
  }

  // The control: the same CSP refuses a <style> element.
  {
    const { p, problems } = await open('/control.html');
    await sleep(200);
    check('control: the CSP refuses a <style> element', problems.csp.some((s) => s.startsWith('style-src')), JSON.stringify(problems.csp));
    await p.close();
  }

  // The plain view: the code, the marks and the error, and no CodeMirror
  // until the person clicks; then the editor, focused where they clicked.
  {
    const { p: q, problems: plainProblems } = await open('/plain.html');
    await q.waitForFunction(() => document.querySelector('#plain')?.shadowRoot?.querySelector('.je-row'));
    await sleep(300);
    const seen = await q.evaluate(() => {
      const ed = document.querySelector('#plain');
      const root = ed.shadowRoot;
      const rows = [...root.querySelectorAll('.je-row')];
      return {
        view: ed.view,
        value: ed.value,
        numbers: rows.map((r) => r.querySelector('.je-num').textContent).join(','),
        code: rows.map((r) => r.querySelector('.je-code').textContent).join('\n'),
        awaited: rows.map((r, i) => (r.classList.contains('je-awaited') ? i + 1 : 0)).filter(Boolean),
        touched: rows.map((r, i) => (r.classList.contains('je-touched') ? i + 1 : 0)).filter(Boolean),
        badges: [...root.querySelectorAll('.je-who, .je-more')].map((b) => `${b.textContent}${b.classList.contains('je-involved') ? '!' : ''}`),
        word: root.querySelector('.je-error-word')?.textContent,
        message: root.querySelector('.je-msg')?.textContent,
        keyword: root.querySelector('.je-k')?.textContent,
        string: root.querySelector('.je-s')?.textContent,
        cm: !!root.querySelector('.cm-content'),
        chunks: performance.getEntriesByType('resource').map((r) => r.name).filter((n) => /\/editor\/(?!element|chunk)/.test(n)),
      };
    });
    check(
      'a new editor shows its code plain: line numbers, the marks, the error, highlighting',
      seen.view === null && seen.value === CODE && seen.code === CODE && seen.numbers === '1,2,3,4,5' &&
        JSON.stringify(seen.awaited) === '[2]' && JSON.stringify(seen.touched) === '[2,4]' &&
        seen.badges.join(' ') === '#0 #1! +1' && seen.word === 'user' && seen.message === 'boom: bad' &&
        seen.keyword === 'export' && seen.string === "'hi '",
      JSON.stringify(seen),
    );
    check('and loads no CodeMirror while the person only reads', !seen.cm && seen.chunks.length === 0, JSON.stringify(seen.chunks));
    await q.evaluate(() => document.querySelector('#plain').setAttribute('marks', '[{"line":3,"touched":false,"count":1,"who":[[4,false]]}]'));
    const moved = await q.evaluate(() => [...document.querySelector('#plain').shadowRoot.querySelectorAll('.je-row')]
      .map((r, i) => (r.classList.contains('je-awaited') ? `${i + 1}:${r.querySelector('.je-cursors').textContent}` : '')).filter(Boolean));
    check('new marks move the plain cursors', JSON.stringify(moved) === '["3:#4"]', JSON.stringify(moved));
    mkdirSync('test-artifacts', { recursive: true });
    await q.screenshot({ path: 'test-artifacts/editor-plain.png' });
    // A click on line 3, after `return`: CodeMirror builds, takes the
    // focus and puts the caret there.
    const box = await q.evaluate(() => {
      const code = document.querySelector('#plain').shadowRoot.querySelectorAll('.je-code')[2];
      const r = code.getBoundingClientRect();
      return { x: r.left + 6 + 1, y: r.top + r.height / 2 };
    });
    const width = await q.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(document.querySelector('#plain').shadowRoot.querySelector('.je-code')).font;
      probe.textContent = 'x';
      document.body.append(probe);
      const w = probe.getBoundingClientRect().width;
      probe.remove();
      return w;
    });
    await q.mouse.click(box.x + width * 21, box.y);
    await q.waitForFunction(() => document.querySelector('#plain').view?.hasFocus, null, { timeout: 10000 });
    const built = await q.evaluate(() => {
      const ed = document.querySelector('#plain');
      const view = ed.view;
      const head = view.state.selection.main.head;
      const line = view.state.doc.lineAt(head);
      return {
        line: line.number,
        column: head - line.from,
        plain: !!ed.shadowRoot.querySelector('.je-plain'),
        awaited: [...ed.shadowRoot.querySelectorAll('.cm-line')].findIndex((l) => l.classList.contains('je-awaited')) + 1,
        error: ed.shadowRoot.querySelector('.cm-js-error-msg')?.textContent,
      };
    });
    check(
      'a click builds CodeMirror with the focus where it was clicked, the marks and the error kept',
      built.line === 3 && Math.abs(built.column - 21) <= 1 && !built.plain && built.awaited === 3 && built.error === 'boom: bad',
      JSON.stringify(built),
    );
    await q.evaluate(() => {
      window.changes = [];
      document.addEventListener('code-change', (e) => window.changes.push(e.detail.code));
    });
    await q.keyboard.type('!');
    await q.focus('#after');
    const typed = await q.evaluate(() => window.changes);
    const lines = CODE.split('\n');
    lines[2] = `${lines[2].slice(0, built.column)}!${lines[2].slice(built.column)}`;
    check('and typing there edits the code', typed.length === 1 && typed[0] === lines.join('\n'), JSON.stringify(typed));
    // Keys typed as the focus arrives, before the editor is built, are kept.
    await q.focus('#typed');
    await q.keyboard.type('ab');
    await q.waitForFunction(() => document.querySelector('#typed').view?.hasFocus, null, { timeout: 10000 });
    await q.waitForFunction(() => document.querySelector('#typed').value === 'abx', null, { timeout: 2000 }).catch(() => {});
    const early = await q.evaluate(() => document.querySelector('#typed').value);
    check('characters typed while the editor loads go in', early === 'abx', JSON.stringify(early));
    check('the plain editor: no CSP violation, console or page error',
      plainProblems.csp.length + plainProblems.console.length + plainProblems.errors.length === 0, JSON.stringify(plainProblems));
    await q.close();
  }

  const { p, problems } = await open('/');
  await p.waitForFunction(() => document.querySelector('#ed')?.shadowRoot?.querySelector('.cm-content'));
  await p.evaluate(() => {
    window.changes = [];
    document.addEventListener('code-change', (e) => window.changes.push(e.detail.code));
  });
  const changes = () => p.evaluate(() => window.changes.slice());
  const value = () => p.evaluate(() => document.querySelector('#ed').value);
  const head = () => p.evaluate(() => document.querySelector('#ed').view.state.selection.main.head);
  const setCursor = (pos) =>
    p.evaluate((pos) => {
      const ed = document.querySelector('#ed');
      ed.view.dispatch({ selection: { anchor: pos } });
      ed.view.focus();
    }, pos);

  // Rendering and styles (under the CSP).
  const layout = await p.evaluate(() => {
    const root = document.querySelector('#ed').shadowRoot;
    const gutters = root.querySelector('.cm-gutters');
    const content = root.querySelector('.cm-content');
    const numbers = [...root.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].map((e) => e.textContent);
    return {
      numbers,
      guttersDisplay: gutters && getComputedStyle(gutters).display,
      gutterRight: gutters?.getBoundingClientRect().right,
      contentLeft: content.getBoundingClientRect().left,
      font: getComputedStyle(content).fontFamily,
      adopted: root.adoptedStyleSheets.length,
      styleTags: document.querySelectorAll('style').length + root.querySelectorAll('style').length,
    };
  });
  check('renders line numbers 1-5', ['1', '2', '3', '4', '5'].every((n) => layout.numbers.includes(n)), JSON.stringify(layout.numbers));
  check(
    'styled under the CSP: gutter is flex, left of the text, monospace font',
    layout.guttersDisplay === 'flex' && layout.gutterRight <= layout.contentLeft && /mono/i.test(layout.font),
    JSON.stringify(layout),
  );
  check('styles come from adopted stylesheets, no <style> elements', layout.adopted >= 2 && layout.styleTags === 0, JSON.stringify(layout));

  const keywordColor = () =>
    p.evaluate(() => {
      const root = document.querySelector('#ed').shadowRoot;
      const line = root.querySelector('.cm-line');
      const kw = [...line.querySelectorAll('span')].find((s) => s.textContent === 'function');
      return kw ? [getComputedStyle(kw).color, getComputedStyle(line).color] : null;
    });
  const lightColors = await keywordColor();
  check('keywords are highlighted', lightColors && lightColors[0] !== lightColors[1], JSON.stringify(lightColors));

  // A value set before the element was defined.
  check(
    'a value set before the definition is kept',
    (await p.evaluate(() => document.querySelector('#early').value)) === 'early text',
  );

  // A new editor shows its text at once and builds CodeMirror in later
  // tasks, so the task that made it (a page's first draw) stays short.
  const built = await p.evaluate(async () => {
    const ed = document.createElement('js-editor');
    ed.setAttribute('eager', '');
    ed.value = 'const a = 1;';
    document.body.append(ed);
    const plain = ed.shadowRoot.querySelector('.je-plain .je-code')?.textContent;
    const first = { view: ed.view, value: ed.value, plain, cm: !!ed.shadowRoot.querySelector('.cm-content') };
    ed.value = 'const b = 2;';
    for (let i = 0; i < 50 && !ed.view; i++) await new Promise((r) => setTimeout(r, 0));
    const line = ed.shadowRoot.querySelector('.cm-line')?.textContent;
    ed.remove();
    return { first, line, plain: !!ed.shadowRoot.querySelector('.je-plain') };
  });
  check(
    'a new editor shows its text plain, then builds CodeMirror in later tasks with the latest value',
    built.first.view === null && built.first.value === 'const a = 1;' && built.first.plain === 'const a = 1;' &&
      !built.first.cm && built.line === 'const b = 2;' && !built.plain,
    JSON.stringify(built),
  );

  // A long text: the plain view draws its first 1,000 lines and
  // CodeMirror builds at once (it draws only the lines in view).
  const long = await p.evaluate(async () => {
    const ed = document.createElement('js-editor');
    ed.value = Array.from({ length: 3000 }, (_, i) => `const line${i} = ${i};`).join('\n');
    document.body.append(ed);
    const rows = ed.shadowRoot.querySelectorAll('.je-row').length;
    for (let i = 0; i < 50 && !ed.view; i++) await new Promise((r) => setTimeout(r, 0));
    const lines = ed.view?.state.doc.lines;
    const drawn = ed.shadowRoot.querySelectorAll('.cm-line').length;
    ed.remove();
    return { rows, lines, drawn };
  });
  check(
    'a long text shows 1,000 lines plain and builds CodeMirror without a click',
    long.rows === 1000 && long.lines === 3000 && long.drawn < 1000,
    JSON.stringify(long),
  );

  // Typing: one code-change after the pause, with the text.
  await setCursor(CODE.length);
  await p.keyboard.type('\n// hi', { delay: 40 });
  const expected = `${CODE}\n// hi`;
  const early = (await changes()).length;
  await sleep(700);
  const after = await changes();
  check('no code-change while typing', early === 0, `${early} events`);
  check('exactly one code-change after the pause, with the text', after.length === 1 && after[0] === expected, JSON.stringify(after));

  // Blur flushes a pending change at once, and only once.
  await p.keyboard.type('!');
  await p.focus('#after');
  const onBlur = await changes();
  await sleep(600);
  const later = await changes();
  check('blur fires the pending code-change at once', onBlur.length === 2 && onBlur[1] === `${expected}!`, JSON.stringify(onBlur));
  check('and no second one after the pause', later.length === 2, `${later.length} events`);

  // The same value keeps the cursor; another replaces the text silently.
  await setCursor(20);
  await p.evaluate(() => {
    const ed = document.querySelector('#ed');
    ed.value = ed.value;
    ed.setAttribute('value', ed.value);
  });
  check('setting the same value keeps the cursor', (await head()) === 20, String(await head()));
  await p.evaluate((code) => {
    document.querySelector('#ed').value = code;
  }, CODE);
  await sleep(500);
  check('setting another value replaces the text without a code-change', (await value()) === CODE && (await changes()).length === 2);

  // The `value` attribute (the page's draw of another script) applies in
  // tasks of its own: `value` reads it at once; the new state is made in
  // the next task and the view takes it in the one after, with no
  // code-change, and undo cannot bring back the old.
  const viaAttribute = await p.evaluate(async () => {
    const ed = document.querySelector('#ed');
    ed.setAttribute('value', 'const other = 1;\n');
    const now = [ed.value, ed.view.state.doc.toString()];
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    const next = ed.view.state.doc.toString();
    return { now, next };
  });
  check(
    'the value attribute applies in tasks of its own',
    viaAttribute.now[0] === 'const other = 1;\n' && viaAttribute.now[1] === CODE && viaAttribute.next === 'const other = 1;\n',
    JSON.stringify(viaAttribute),
  );
  await p.focus('#ed');
  await p.keyboard.press('Control+z');
  check('undo cannot bring back the text it replaced', (await value()) === 'const other = 1;\n' && (await changes()).length === 2, JSON.stringify(await value()));
  await p.evaluate((code) => {
    const ed = document.querySelector('#ed');
    ed.value = code;
    ed.setAttribute('value', code);
  }, CODE);

  // The error.
  await p.evaluate(() => document.querySelector('#ed').setAttribute('error', '2:5:boom: bad'));
  const err = await p.evaluate(() => {
    const root = document.querySelector('#ed').shadowRoot;
    const lines = [...root.querySelectorAll('.cm-line')];
    const msg = root.querySelector('.cm-js-error-msg');
    const mark = root.querySelector('.cm-js-error');
    const r = (e) => e?.getBoundingClientRect();
    return {
      msg: msg?.textContent,
      msgTop: r(msg)?.top,
      msgHeight: r(msg)?.height,
      line2Bottom: r(lines[1])?.bottom,
      line3Top: r(lines[2])?.top,
      mark: mark?.textContent,
      markLine: lines.indexOf(mark?.closest('.cm-line')) + 1,
      decoration: mark && `${getComputedStyle(mark).textDecorationLine} ${getComputedStyle(mark).textDecorationStyle}`,
    };
  });
  check(
    'error: message shown below line 2',
    err.msg === 'boom: bad' && err.msgHeight > 0 && err.msgTop >= err.line2Bottom - 1 && err.msgTop < err.line3Top,
    JSON.stringify(err),
  );
  check(
    'error: wavy underline from line 2, column 5 to the end of the word',
    err.markLine === 2 && err.mark === 'nst' && /underline/.test(err.decoration) && /wavy/.test(err.decoration),
    JSON.stringify(err),
  );
  mkdirSync('test-artifacts', { recursive: true });
  await setCursor(CODE.indexOf('(req') + 1);
  await p.screenshot({ path: 'test-artifacts/editor-light.png' });
  await p.emulateMedia({ colorScheme: 'dark' });
  const darkColors = await keywordColor();
  check('dark scheme changes the colours', darkColors && darkColors[0] !== lightColors[0] && darkColors[1] !== lightColors[1], JSON.stringify([lightColors, darkColors]));
  await p.screenshot({ path: 'test-artifacts/editor-dark.png' });
  await p.emulateMedia({ colorScheme: 'light' });
  await p.evaluate(() => document.querySelector('#ed').removeAttribute('error'));
  const cleared = await p.evaluate(() => {
    const root = document.querySelector('#ed').shadowRoot;
    return root.querySelectorAll('.cm-js-error, .cm-js-error-msg, .cm-js-error-line').length;
  });
  check('removing error clears it', cleared === 0, `${cleared} left`);

  // Bracket matching.
  await setCursor(CODE.indexOf('(req') + 1);
  const brackets = await p.evaluate(() => document.querySelector('#ed').shadowRoot.querySelectorAll('.cm-matchingBracket').length);
  check('bracket matching marks both brackets', brackets === 2, `${brackets}`);

  // Tab, Shift-Tab, undo, and Escape then Tab to leave.
  const line3 = CODE.indexOf('  if');
  await setCursor(line3);
  await p.keyboard.press('Tab');
  const tabbed = (await value()).split('\n')[2];
  await p.keyboard.press('Shift+Tab');
  const untabbed = (await value()).split('\n')[2];
  check('Tab indents the line', tabbed === `    if (!user) return { status: 404 };`, JSON.stringify(tabbed));
  check('Shift-Tab dedents it', untabbed === `  if (!user) return { status: 404 };`, JSON.stringify(untabbed));
  await p.keyboard.type('x');
  const typed = await value();
  await p.keyboard.press('Control+z');
  const undone = await value();
  await p.keyboard.press('Control+y');
  const redone = await value();
  check('undo and redo', typed !== CODE && undone === CODE && redone === typed, JSON.stringify([typed.length, undone.length, redone.length]));
  for (let i = 0; i < 5; i += 1) await p.keyboard.press('Control+z');
  check('undo stops at the text the page set', (await value()) === CODE, JSON.stringify((await value()).length));
  await p.keyboard.press('Escape');
  await p.keyboard.press('Tab');
  const focused = await p.evaluate(() => document.activeElement?.id);
  check('Escape then Tab moves focus out', focused === 'after', String(focused));

  // Completion: module names in require()/import strings, a module's
  // exports in `import { … }`, members after `name.`, the globals; Enter
  // accepts, Tab still indents, Escape closes the list (and a second
  // Escape then Tab leaves, as above).
  // `|` marks the cursor (else at the end).
  const setDoc = async (marked) => {
    const pos = marked.includes('|') ? marked.indexOf('|') : marked.length;
    const text = marked.replace('|', '');
    await p.evaluate((text) => {
      document.querySelector('#ed').value = text;
    }, text);
    await setCursor(pos);
  };
  const options = () =>
    p.evaluate(() => {
      const list = document.querySelector('#ed').shadowRoot.querySelector('.cm-tooltip-autocomplete');
      if (!list) return null;
      return [...list.querySelectorAll('li')].map((li) => ({
        label: li.querySelector('.cm-completionLabel')?.textContent,
        detail: li.querySelector('.cm-completionDetail')?.textContent ?? '',
        selected: li.getAttribute('aria-selected') === 'true',
      }));
    });
  const waitOptions = async () => {
    await p
      .waitForFunction(() => document.querySelector('#ed').shadowRoot.querySelector('.cm-tooltip-autocomplete li'), null, { timeout: 3000 })
      .catch(() => null);
    // The list answers keys once it has been up for a moment
    // (autocompletion's interactionDelay, 75 ms): a person sees it first.
    await sleep(150);
    return options();
  };
  const labels = (list) => (list ?? []).map((o) => o.label);
  const MODULE_NAMES = JSON.parse(readFileSync('web/editor/completions.json', 'utf8')).modules.map((m) => m.name);

  await setDoc('');
  await p.keyboard.type("const Redis = require('io", { delay: 30 });
  let list = await waitOptions();
  check(
    "require('io offers ioredis, with its detail line",
    list?.some((o) => o.label === 'ioredis' && /Redis client/.test(o.detail)) && list[0].label === 'ioredis',
    JSON.stringify(list),
  );
  check(
    "require('io offers only module names",
    list?.every((o) => MODULE_NAMES.includes(o.label.replace(/^node:/, ''))),
    JSON.stringify(labels(list)),
  );
  await p.keyboard.press('Enter');
  check('Enter accepts it', (await value()) === "const Redis = require('ioredis", JSON.stringify(await value()));
  check('and closes the list', (await options()) === null);

  await p.keyboard.type("');\nconst redis = new Redis();\nredis.", { delay: 20 });
  list = await waitOptions();
  check('redis. offers the ioredis client methods', ['get', 'set', 'del', 'incr', 'expire', 'eval', 'defineCommand'].every((m) => labels(list).includes(m)), JSON.stringify(labels(list)));
  await p.keyboard.type('pexp', { delay: 30 });
  await waitOptions();
  await p.keyboard.press('Enter');
  check('typing narrows it and Enter inserts the method', (await value()).endsWith('\nredis.pexpire'), JSON.stringify(await value()));

  await setDoc("const pg = require('|');");
  await p.keyboard.type('pg', { delay: 30 });
  await waitOptions();
  await p.keyboard.press('Enter');
  check("in a closed string: require('pg') as it should be", (await value()) === "const pg = require('pg');", JSON.stringify(await value()));
  await setDoc("const x = require('|// not a module name");
  await p.keyboard.type('e', { delay: 30 });
  list = await waitOptions();
  await p.keyboard.press('Enter');
  check("before other text in an unclosed string: only the name is replaced", (await value()) === "const x = require('events// not a module name", JSON.stringify([await value(), labels(list)]));

  await setDoc("import { | } from 'async-mutex';");
  await p.keyboard.type('Mu', { delay: 30 });
  list = await waitOptions();
  check("import { Mu } from 'async-mutex' offers Mutex", labels(list)[0] === 'Mutex' && list.every((o) => o.detail === 'async-mutex'), JSON.stringify(list));
  await p.keyboard.press('Enter');
  check('accepting it completes the import', (await value()) === "import { Mutex } from 'async-mutex';", JSON.stringify(await value()));

  await setDoc('');
  await p.keyboard.type("import { once } from 'node:ev", { delay: 20 });
  list = await waitOptions();
  check("from 'node:ev offers node:events", labels(list)[0] === 'node:events', JSON.stringify(labels(list)));
  await p.keyboard.press('Escape');
  check('Escape closes the list', (await options()) === null && (await p.evaluate(() => document.activeElement?.id)) === 'ed');

  await setDoc("const { Pool } = require('pg');\nconst pool = new Pool();\nasync function handle(req) {\n  const client = await pool.connect();\n  |\n}");
  await p.keyboard.type('pool.', { delay: 30 });
  list = await waitOptions();
  check('pool. offers query and connect', ['query', 'connect'].every((m) => labels(list).includes(m)) && list.length <= 6, JSON.stringify(list));
  await p.keyboard.press('Escape');
  await p.keyboard.type("query('SELECT 1');\nclient.", { delay: 30 });
  list = await waitOptions();
  check('client = await pool.connect(): client. offers query and release', JSON.stringify(labels(list)) === '["query","release"]', JSON.stringify(labels(list)));
  await p.keyboard.press('Escape');

  await setDoc('async function handle(req) {\n  |\n}');
  await p.keyboard.type('await cac', { delay: 30 });
  list = await waitOptions();
  check('the globals are words: cac offers cache', labels(list)[0] === 'cache', JSON.stringify([await value(), labels(list)]));
  await p.keyboard.press('Enter');
  await p.keyboard.type('.ge', { delay: 30 });
  list = await waitOptions();
  check('cache. offers the cache methods', labels(list).includes('get') && labels(list).includes('getStale'), JSON.stringify(labels(list)));
  await p.keyboard.press('Escape');
  await setDoc('async function handle(req) {}\n');
  await p.keyboard.type('han', { delay: 30 });
  list = await waitOptions();
  check('a global the script defines is offered once', labels(list).filter((l) => l === 'handle').length === 1, JSON.stringify(labels(list)));
  await p.keyboard.press('Escape');
  await setDoc('async function f() {\n  const total = 1;\n  return to|\n}');
  await p.keyboard.type('t', { delay: 30 });
  list = await waitOptions();
  check('local names are still offered', labels(list).includes('total'), JSON.stringify(labels(list)));
  await p.keyboard.press('Escape');
  await setDoc('// requi');
  await p.keyboard.type('r', { delay: 30 });
  await sleep(300);
  check('nothing is offered in a comment', (await options()) === null);

  // Tab with the list open indents, as before; Escape, Escape, Tab leaves.
  await setDoc('ca');
  await p.keyboard.type('c', { delay: 30 });
  await waitOptions();
  await p.keyboard.press('Tab');
  check('Tab with the list open still indents', (await value()) === '  cac', JSON.stringify(await value()));
  await p.keyboard.type('h', { delay: 30 });
  await waitOptions();
  await p.keyboard.press('Escape');
  await p.keyboard.press('Escape');
  await p.keyboard.press('Tab');
  check('with the list open: Escape, Escape, Tab moves focus out', (await p.evaluate(() => document.activeElement?.id)) === 'after');

  // The popup, readable in light and dark.
  await setDoc('');
  await p.keyboard.type("const Redis = require('", { delay: 20 });
  await waitOptions();
  const popupColors = () =>
    p.evaluate(() => {
      const root = document.querySelector('#ed').shadowRoot;
      const tip = root.querySelector('.cm-tooltip-autocomplete');
      const sel = tip.querySelector('li[aria-selected]');
      const other = tip.querySelector('li:not([aria-selected]) .cm-completionDetail');
      const box = tip.getBoundingClientRect();
      return {
        bg: getComputedStyle(tip).backgroundColor,
        fg: getComputedStyle(tip).color,
        selBg: getComputedStyle(sel).backgroundColor,
        selFg: getComputedStyle(sel).color,
        detail: other && getComputedStyle(other).color,
        visible: box.width > 100 && box.height > 40 && box.bottom <= innerHeight,
      };
    });
  const lightPopup = await popupColors();
  await p.screenshot({ path: 'test-artifacts/editor-completion-light.png' });
  await p.emulateMedia({ colorScheme: 'dark' });
  await sleep(100);
  const darkPopup = await popupColors();
  await p.screenshot({ path: 'test-artifacts/editor-completion-dark.png' });
  await p.emulateMedia({ colorScheme: 'light' });
  const contrast = (a, b) => {
    const lum = (c) => {
      const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map((v) => {
        const x = Number(v) / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    };
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  for (const [scheme, c] of [['light', lightPopup], ['dark', darkPopup]]) {
    check(
      `popup (${scheme}): visible, text and chosen option readable (contrast >= 4.5)`,
      c.visible && contrast(c.fg, c.bg) >= 4.5 && contrast(c.selFg, c.selBg) >= 4.5 && contrast(c.detail, c.bg) >= 4.5,
      JSON.stringify(c),
    );
  }
  check('the popup follows the scheme', lightPopup.bg !== darkPopup.bg, JSON.stringify([lightPopup.bg, darkPopup.bg]));
  await p.keyboard.press('Escape');
  await p.evaluate((code) => {
    document.querySelector('#ed').value = code;
  }, CODE);

  // readonly.
  await p.evaluate(() => document.querySelector('#ed').setAttribute('readonly', ''));
  await setCursor(0);
  await p.keyboard.type('zz');
  const ro = await value();
  await p.evaluate(() => document.querySelector('#ed').removeAttribute('readonly'));
  await setCursor(0);
  await p.keyboard.type('z');
  const rw = await value();
  check('readonly blocks typing; removing it allows it', ro === CODE && rw === `z${CODE}`, JSON.stringify([ro.slice(0, 3), rw.slice(0, 3)]));

  await sleep(100);
  check('no CSP violations', problems.csp.length === 0, JSON.stringify(problems.csp));
  check('no console or page errors', problems.console.length + problems.errors.length === 0, JSON.stringify(problems));
} finally {
  await browser.close();
  server.close();
}

console.log(`editor: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
