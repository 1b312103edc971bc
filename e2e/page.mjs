// End-to-end test of the page as a person meets it (issue 29), in the
// built app (dist/) in headless Chromium: axe-core finds no serious or
// critical violation on a story and a script page, light and dark; a step
// is announced through an aria-live region; Space on a focused button acts
// on it; the skip link reaches the run controls; a phone shows the
// scenario's inputs on its first screen; a failed request says why on the
// page; pasted code survives leaving for a story and coming back; a fix
// says what it costs, the cheaper first; the page draws no font strike
// that web/boot.js did not lay out at boot.
//
// Run from the repository root after `trunk build`: node e2e/page.mjs

import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { ARGS, CHROMIUM, byId, check, cli, finish, openPage as open, press, ready as readyWithin, runToEnd } from './common.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const problems = [];
const ORIGIN = { url: '' };
const openPage = (browser, viewport) => open(browser, problems, ORIGIN.url, viewport);
const ready = (page) => readyWithin(page, 60_000);

/** The `code=` value of `code`, from `interleave encode`. */
function encode(code) {
  const file = join(mkdtempSync(join(tmpdir(), 'interleave-e2e-')), 'script.js');
  writeFileSync(file, code);
  return cli('encode', file).trim();
}

/** axe-core's serious and critical violations on the page as it is. */
async function axeViolations(page) {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => await window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

/**
 * The font strikes (family, size, weight, style) of the text the page
 * shows that web/boot.js did not lay out at boot (`interleaveFontStrikes`):
 * each would cost a synchronous call to the browser process in a draw.
 */
async function unwarmedStrikes(page) {
  return page.evaluate(() => {
    const strike = (style) => `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const box = document.createElement('div');
    document.body.append(box);
    const warmed = new Set(globalThis.interleaveFontStrikes.map((font) => {
      const text = document.createElement('span');
      text.style.font = font;
      box.append(text);
      return strike(getComputedStyle(text));
    }));
    box.remove();
    const missing = new Map();
    const visit = (root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const element = node.parentElement;
        if (!node.textContent.trim() || !element || element.getClientRects().length === 0) continue;
        const drawn = strike(getComputedStyle(element));
        if (!warmed.has(drawn)) missing.set(drawn, `${element.localName}.${element.className?.baseVal ?? element.className}`);
      }
      for (const element of root.querySelectorAll('*')) {
        if (element.shadowRoot) visit(element.shadowRoot);
        // A list's numbers are text too.
        if (getComputedStyle(element).display === 'list-item' && element.getClientRects().length > 0) {
          const drawn = strike(getComputedStyle(element, '::marker'));
          if (!warmed.has(drawn)) missing.set(drawn, `${element.localName}::marker`);
        }
      }
    };
    visit(document.body);
    return [...missing].map(([drawn, where]) => `${drawn} (${where})`);
  });
}

const STORY = 'v=1&scenario=stampede&strategy=get-set&requests=50';
const SCRIPT = 'v=1&scenario=script&example=ticket';

/**
 * Waits for the whole first draw. The step button is ready before the rest
 * (counters, scenario, panes, then explore, a task each), so a check of the
 * page's layout waits for the last of them.
 */
async function drawn(page) {
  await ready(page);
  await page.waitForSelector(byId('explore-pane'), { state: 'attached' });
}

const server = await serve(new URL('../dist', import.meta.url).pathname);
ORIGIN.url = server.url;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
try {
  // 1. axe-core: a story and a script, light and dark, at the start and
  // at the end of the run.
  for (const fragment of [STORY, SCRIPT]) {
    for (const scheme of ['light', 'dark']) {
      const page = await openPage(browser);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${server.url}/#${fragment}`);
      await drawn(page);
      const start = await axeViolations(page);
      await runToEnd(page);
      const end = await axeViolations(page);
      const found = [...new Set([...start, ...end])];
      check(`axe: ${fragment} (${scheme}) has no serious or critical violation`, found.length === 0, found.join('; '));
      if (scheme === 'light') {
        if (fragment === SCRIPT) await page.waitForSelector('js-editor .je-row');
        const unwarmed = await unwarmedStrikes(page);
        check(`${fragment}: every font strike it draws was laid out at boot`, unwarmed.length === 0, unwarmed.join('; '));
      }
      await page.close();
    }
  }

  // 2. The keyboard and a screen reader.
  const page = await openPage(browser);
  await page.goto(`${server.url}/#${STORY}`);
  await ready(page);
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => document.activeElement.textContent);
  check('the first Tab stop is the skip link', first === 'Skip to the run controls', first);
  const hash = await page.evaluate(() => location.hash);
  await page.keyboard.press('Enter');
  const focused = await page.evaluate(() => document.activeElement.closest('#run-controls') !== null);
  check('... which moves the focus to the run controls, the address unchanged',
    focused && (await page.evaluate(() => location.hash)) === hash);
  const live = await page.$(`[aria-live] ${byId('step-announcer')}, ${byId('step-announcer')}[aria-live]`);
  check('a live region announces the step', live !== null);
  await press(page, byId('btn-step'));
  await press(page, byId('btn-step'));
  const said = await page.textContent(byId('step-announcer'));
  check('... which says the step and what ran', /^Step 2 of 400, at [0-9.]+ ms: /.test(said), said);
  await page.focus(byId('btn-step'));
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid="step-index"]').textContent === '3');
  check('Space on a focused "step" button steps, and does not play',
    (await page.getAttribute(byId('btn-play'), 'aria-pressed')) === 'false');
  await page.focus('.metrics summary');
  await page.keyboard.press(' ');
  const open = await page.evaluate(() => document.querySelector('.metrics details').open);
  check('Space on the "all counters" summary opens it, and does not play',
    open && (await page.getAttribute(byId('btn-play'), 'aria-pressed')) === 'false');
  const svgs = await page.$$eval('.timeline svg', (all) => all.filter((svg) => !svg.getAttribute('aria-label')).length);
  check('every timeline SVG has an accessible name', svgs === 0, `${svgs} without`);

  // 3. A fix says what it costs, the cheaper first (get-set's: single-flight
  // at p99 22 ms, then keyed-mutex, then add's 565 ms of polling).
  await runToEnd(page);
  const fix = await page.textContent(byId('explain-fix'));
  check('the fix offered is the cheaper one, with its p99', fix.includes('strategy=single-flight') && fix.includes('p99 22 ms (was 26 ms)'), fix);
  const others = await page.textContent(byId('explain-other-fixes'));
  check('... and the others say their cost', others.indexOf('keyed-mutex') < others.indexOf('strategy=add')
    && others.includes('p99 565 ms (was 26 ms), 1323 lock wake-ups'), others);
  await page.close();

  // 4. A phone: the scenario's inputs on the first screen, nothing wider.
  for (const fragment of [STORY, SCRIPT]) {
    const phone = await openPage(browser, { width: 390, height: 844 });
    await phone.goto(`${server.url}/#${fragment}`);
    await drawn(phone);
    const inputs = await phone.evaluate(() => [...document.querySelectorAll('.scenario-panel select, .scenario-panel input')]
      .slice(0, 2).map((input) => input.getBoundingClientRect().bottom));
    check(`390x844 ${fragment}: the scenario's first inputs are on the first screen`,
      inputs.length === 2 && inputs.every((bottom) => bottom <= 844), inputs.join(', '));
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    check(`390x844 ${fragment}: no sideways scroll`, width <= 390, `${width}px`);
    const unwarmed = await unwarmedStrikes(phone);
    check(`390x844 ${fragment}: every font strike it draws was laid out at boot`, unwarmed.length === 0, unwarmed.join('; '));
    await phone.close();
  }

  // 5. A request that throws says why: the event-loop pane, "What
  // happened" (with the line) and the lane's tooltip.
  const boom = 'async function handle(req) {\n  await sleep(5);\n  throw new Error("boom");\n}\n';
  const failing = await openPage(browser);
  await failing.goto(`${server.url}/#v=1&scenario=script&code=${encode(boom)}&users=1&clicks=1`);
  await ready(failing);
  await runToEnd(failing);
  const loop = await failing.textContent(byId('loop-pane'));
  check('a thrown error: the event-loop pane shows its message', loop.includes('#0 logs: Error: boom (line 3, column 13)'), loop);
  const happened = await failing.textContent('.what-happened');
  check('... and "What happened" names it with its line', happened.includes('#0 failed with Error: boom (line 3, column 13)'), happened);
  const tooltip = await failing.textContent('.lane circle.return title');
  check('... and so does the lane', tooltip.includes('failed: Error: boom'), tooltip);

  // 6. Pasted code survives a story and comes back with "script".
  await failing.selectOption(byId('scenario-select'), 'stampede');
  await failing.waitForFunction(() => location.hash.includes('scenario=stampede'));
  await ready(failing);
  await failing.selectOption(byId('scenario-select'), 'script');
  await failing.waitForFunction(() => location.hash.includes('scenario=script'));
  await ready(failing);
  check('"script" again brings back the last code', (await failing.evaluate(() => location.hash)).includes(`code=${encode(boom)}`));
  await failing.selectOption(byId('scenario-select'), 'ticket');
  await failing.waitForFunction(() => location.hash.includes('scenario=ticket'));
  await ready(failing);
  await failing.goBack();
  await failing.waitForFunction(() => location.hash.includes('scenario=script'));
  await ready(failing);
  check('... and so does Back', (await failing.evaluate(() => location.hash)).includes(`code=${encode(boom)}`));
  await failing.close();
  // A link whose scenario is not understood is replaced by what runs, not
  // pushed: else Back would lead to it, and from it here again.
  const lengths = [];
  for (const fragment of ['v=1&scenario=ticket&strategy=none', 'v=1&scenario=bogus&strategy=none']) {
    const fresh = await openPage(browser);
    await fresh.goto(`${server.url}/#${fragment}`);
    await ready(fresh);
    lengths.push(await fresh.evaluate(() => history.length));
    await fresh.close();
  }
  check('a link with an unknown scenario is replaced by its canonical form', lengths[0] === lengths[1], lengths.join(' vs '));

  // The page and the worker take turns: after a frame of its work, the
  // worker's next chunk waits for the page's `{ drawn }` (web/model.js),
  // or 100 ms when it does not come.
  const turns = async (drop) => {
    const page = await openPage(browser);
    await page.addInitScript((dropDrawn) => {
      window.turns = [];
      const Base = window.Worker;
      let workers = 0;
      window.Worker = class extends Base {
        constructor(...args) {
          super(...args);
          this.id = workers;
          workers += 1;
          // A frame or an answer at the time the worker posted it, with
          // its number; a `drawn` at the time the page posted it, with the
          // number it names: one clock for both.
          this.addEventListener('message', ({ data }) => {
            if (data?.frame) window.turns.push(['frame', data.at, this.id, data.n]);
            else if (data?.answer) window.turns.push(['answer', data.at, this.id, data.n]);
          });
        }
        postMessage(message, ...rest) {
          if (message?.drawn !== undefined) {
            window.turns.push(['drawn', performance.timeOrigin + performance.now(), this.id, message.drawn]);
            if (dropDrawn) return undefined;
          }
          return super.postMessage(message, ...rest);
        }
      };
    }, drop);
    await page.goto(`${server.url}/#${SCRIPT}`);
    await drawn(page);
    await runToEnd(page);
    const log = await page.evaluate(() => window.turns);
    await page.close();
    return log;
  };
  const taken = (await turns(false)).sort(([, a], [, b]) => a - b);
  const frames = taken.filter(([what]) => what === 'frame').length;
  // Each frame after the first was posted after a `drawn` that names the
  // post before it (or a later one), or 100 ms after that post. (Each
  // worker on its own: a page may start another. The two contexts'
  // coarsened clocks may disagree by a millisecond.)
  const early = [];
  for (const [what, at, worker, n] of taken) {
    if (what !== 'frame' || n === 1) continue;
    const before = taken.find(([w, , other, m]) => w !== 'drawn' && other === worker && m === n - 1);
    if (!before || at - before[1] >= 100) continue;
    const told = taken.some(([w, when, other, m]) => w === 'drawn' && other === worker && m >= n - 1 && when <= at + 1);
    if (!told) early.push(`frame ${n} of worker ${worker}, ${Math.round(at - before[1])} ms after post ${n - 1}, before a drawn for it`);
  }
  check('the worker sends its next frame only once the page drew the last', frames > 3 && early.length === 0,
    `${frames} frames; ${early.join('; ')}`);
  const untold = await turns(true);
  check('... and goes on without the page\'s word', untold.filter(([what]) => what === 'frame').length > 3);

  check('no console errors, page errors, CSP violations or outside requests', problems.length === 0, problems.join(' | '));
} catch (error) {
  check('page e2e ran to the end', false, error.stack ?? String(error));
} finally {
  await browser.close();
  await server.close();
}
finish('e2e page');
