// End-to-end smoke test of the built app (dist/) in headless Chromium.
//
// Checks that the debugger, run to the end, shows the same metrics as the
// native CLI for the same fragment; that stepping back undoes stepping
// forward; the keyboard; that a parameter edit and a story link re-run it;
// that markup in the fragment stays text; and that nothing logs a console
// error, a page error or a CSP violation. Keeps a mid-run screenshot in
// test-artifacts/. Prints one line per check; exits 1 if any failed.
//
// Run from the repository root after `trunk build`: node e2e/smoke.mjs

import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import {
  ARGS, CHROMIUM, byId, check, checkMetrics, cli, finish, openPage as open, press, ready, runToEnd, settled, shownTexts,
} from './common.mjs';

const SCREENSHOT = 'test-artifacts/debugger-mid-run.png';

/** The test server's origin, once it is listening. */
const ORIGIN = { url: '' };

const openPage = (browser, problems) => open(browser, problems, ORIGIN.url);

const server = await serve(resolve('dist'));
ORIGIN.url = server.url;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
const problems = [];

const text = (page, id) => page.textContent(byId(id));

try {
  // 1. A stampede run to the end: every metric as the CLI prints it.
  const fragment = 'v=1&scenario=stampede&strategy=keyed-mutex&requests=20';
  const page = await openPage(browser, problems);
  await page.goto(`${server.url}/#${fragment}`);
  await ready(page);
  check('opens at step 0', (await text(page, 'step-index')) === '0');
  await runToEnd(page);
  await checkMetrics(page, fragment, 'stampede keyed-mutex, run to end');
  const title = await page.textContent('h1');
  check('header reads "Interleave"', title === 'Interleave', title);
  const hash = await page.evaluate(() => location.hash);
  check('address bar holds the canonical fragment', hash === `#${fragment}`, hash);
  check('no error banner for a good fragment', (await page.$(byId('error-banner'))) === null);

  // 2. Step forward, then back the same number of times: the start again.
  await press(page, byId('btn-reset'));
  const start = await shownTexts(page);
  const startClock = await text(page, 'clock');
  for (let i = 0; i < 9; i += 1) await press(page, byId('btn-step'));
  check('nine steps reach step 9', (await text(page, 'step-index')) === '9');
  mkdirSync('test-artifacts', { recursive: true });
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
  for (let i = 0; i < 9; i += 1) await press(page, byId('btn-back'));
  const back = await shownTexts(page);
  const same = JSON.stringify(back) === JSON.stringify(start) && (await text(page, 'clock')) === startClock;
  check('stepping back nine times restores the start', same, JSON.stringify(back));

  // 3. The keyboard: arrows step, space plays and pauses (with the focus
  // on the page, and on a button).
  await page.focus(byId('btn-step'));
  await page.keyboard.press('ArrowRight');
  await settled(page);
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('ArrowRight');
  await settled(page);
  await page.keyboard.press('ArrowLeft');
  await settled(page);
  check('arrow keys step', (await text(page, 'step-index')) === '1');
  await page.keyboard.press(' ');
  await settled(page);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="step-index"]').textContent) > 2);
  await page.keyboard.press(' ');
  await settled(page);
  check('space plays and pauses', (await page.getAttribute(byId('btn-play'), 'aria-pressed')) === 'false');

  // 4. Editing a parameter re-runs and updates the link.
  await page.fill(byId('param-requests'), '7');
  await page.waitForFunction(() => location.hash.includes('requests=7'));
  await ready(page);
  await runToEnd(page);
  await checkMetrics(page, 'v=1&scenario=stampede&strategy=keyed-mutex&requests=7', 'after editing requests');
  await press(page, byId('btn-share'));
  const copied = await page.textContent('.copied');
  check('share shows the link', copied.includes('requests=7'), copied);

  // 5. A story link changes the hash; the page re-runs without a reload.
  await press(page, 'text=ticket · keyed-mutex · 2 servers');
  await page.waitForFunction(() => document.querySelector('[data-testid="scenario-select"]')?.value === 'ticket');
  await ready(page);
  await runToEnd(page);
  await checkMetrics(page, 'v=1&scenario=ticket&strategy=keyed-mutex&servers=2', 'story link (hashchange)');
  await press(page, byId('btn-first-violation'));
  const violationStep = await text(page, 'step-index');
  check('first violation stops mid-run', Number(violationStep) > 0, violationStep);
  // The violation, replayed on real servers: the command to run.
  await press(page, byId('btn-real'));
  const command = await page.textContent('.copied');
  check(
    'the real-server command replays this run',
    command.includes("interleave real 'v=1&scenario=ticket&strategy=keyed-mutex&servers=2'"),
    command
  );

  // 6. The lease-expiry story (issue 5): `add` with a 5 ms lease and a
  // 30 ms pause lets a second holder in; the holders lane shows both.
  const lease = 'v=1&scenario=ticket&strategy=add&lock_ttl=5ms&pause=0:30ms';
  await page.goto(`${server.url}/#${lease}`);
  await ready(page);
  await runToEnd(page);
  await checkMetrics(page, lease, 'lease expiry');
  const conflicts = await page.$$eval('[data-testid="timeline"] .tone-conflict', (found) => found.length);
  check('two overlapping holders are drawn', conflicts > 0, `${conflicts} conflict segments`);
  await page.screenshot({ path: 'test-artifacts/lease-expiry.png', fullPage: true });

  // 7. A step that wakes thousands lists the first few and counts the rest
  // (single-flight's last step resolves 2,000 waiters: 4,001 events), and
  // the queue's heading counts every queued macrotask.
  const herd = 'v=1&scenario=stampede&strategy=single-flight&requests=2000';
  await page.goto(`${server.url}/#${herd}`);
  await ready(page);
  await press(page, byId('btn-step'));
  const queueHeading = await page.$eval('[data-testid="loop-pane"]', (pane) =>
    [...pane.querySelectorAll('h3')].map((h) => h.textContent).find((t) => t.startsWith('Macrotask queue')));
  check('the queue heading counts every queued macrotask', queueHeading === 'Macrotask queue (2000)', queueHeading);
  await runToEnd(page);
  const listed = await page.$$eval('[data-testid="loop-pane"] ol.micro li', (items) => items.length);
  const moreEvents = await page.$eval('[data-testid="loop-pane"] ol.micro + .more', (p) => p.textContent);
  check('a step of 4,001 events lists 40 and counts the rest', listed === 40 && moreEvents === '… and 3961 more',
    `${listed} listed, ${moreEvents}`);

  // 7. Manual mode: pick events until user 0 has two tickets; the address
  // bar then holds the schedule, and that link replays the same run.
  await page.goto(`${server.url}/#v=1&scenario=ticket&strategy=none`);
  await ready(page);
  await press(page, byId('btn-manual'));
  const goal = await text(page, 'manual-goal');
  check('manual mode shows the goal', goal.includes('two tickets'), goal);
  for (let i = 0; i < 20 && !(await page.$(byId('manual-win'))); i += 1) {
    await press(page, byId('choice-0'));
  }
  check('manual mode reaches a win', (await page.$(byId('manual-win'))) !== null);
  const manualLink = await page.evaluate(() => location.href);
  check('the link carries the schedule', manualLink.includes('schedule='), manualLink);
  const replay = await openPage(browser, problems);
  await replay.goto(manualLink);
  await ready(replay);
  await runToEnd(replay);
  const manualFragment = new URL(manualLink).hash.slice(1);
  await checkMetrics(replay, manualFragment, 'the shared manual link');
  check('the shared link replays the duplicate', (await text(replay, 'metric-duplicate_tickets')) === '1');
  await replay.close();
  await press(page, byId('btn-undo'));
  const undone = await page.evaluate(() => location.href);
  check('undo takes back a choice', undone !== manualLink, undone);

  // 8. Explore: the search finds the duplicate and opens it in the debugger.
  await page.goto(`${server.url}/#v=1&scenario=ticket&strategy=none`);
  await ready(page);
  await press(page, byId('btn-explore'));
  const summary = await (await page.waitForSelector(byId('explore-summary'))).textContent();
  check('explore reports violating schedules', /none: [1-9]\d* of \d+ schedules duplicate, complete/.test(summary), summary);
  await press(page, byId('btn-open-counterexample'));
  await page.waitForFunction(() => document.querySelector('[data-testid="metric-duplicate_tickets"]')?.textContent === '1');
  check('the counterexample opens at its duplicate', Number(await text(page, 'step-index')) > 0);
  // A long search (every strategy) shows progress and can be cancelled.
  await page.goto(`${server.url}/#v=1&scenario=stampede&strategy=none&requests=4`);
  await ready(page);
  // Unbounded (an empty bound), so the search is long enough to cancel.
  await page.fill(byId('explore-max-preemptions'), '');
  await press(page, byId('btn-explore-all'));
  await page.waitForSelector(byId('explore-progress'));
  await press(page, byId('btn-explore-cancel'));
  await page.waitForSelector('.search-results .notice');
  check('a running search can be cancelled', (await page.$(byId('explore-progress'))) === null);
  await page.screenshot({ path: 'test-artifacts/explore.png', fullPage: true });

  // 9. Markup in the fragment is shown as text, never parsed as HTML.
  const evil = await openPage(browser, problems);
  await evil.goto(`${server.url}/#scenario=<img src=x onerror=alert(1)>&seed=<script>alert(2)</script>`);
  const banner = await evil.waitForSelector(byId('error-banner'));
  const bannerText = await banner.textContent();
  check('error banner names `scenario`', bannerText.includes('`scenario`'), bannerText);
  check('markup in the fragment stays text', bannerText.includes('<img'), bannerText);
  const images = await evil.$$eval('img, main script', (found) => found.length);
  check('no img or script element created', images === 0, `${images} found`);
  await ready(evil);
  await runToEnd(evil);
  check('the defaults still run', (await text(evil, 'metric-db_reads')) === '10');
  await evil.screenshot({ path: 'test-artifacts/smoke-error.png', fullPage: true });

  // 10. Exports: the trace as the CLI's --trace lines, the timeline as SVG.
  const exported = await openPage(browser, problems);
  const exportFragment = 'v=1&scenario=ticket&strategy=none';
  await exported.goto(`${server.url}/#${exportFragment}`);
  await ready(exported);
  const saved = async (id) => {
    const [download] = await Promise.all([exported.waitForEvent('download'), exported.click(byId(id))]);
    const chunks = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk);
    return { name: download.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
  };
  const trace = await saved('btn-export-trace');
  const cliTrace = cli('run', exportFragment, '--trace').trim().split('\n').slice(0, -1).join('\n');
  check('the exported trace equals the CLI\'s --trace lines', trace.text.trim() === cliTrace, `${trace.name}: ${trace.text.slice(0, 200)}`);
  const svg = await saved('btn-export-svg');
  check('the exported timeline is an SVG file', svg.name.endsWith('.svg') && svg.text.startsWith('<svg xmlns=') && svg.text.includes('#1 user 0 click 1'), svg.text.slice(0, 200));

  // 11. What happened: the story at the first violation, and its fix opens
  // with the CLI's counters.
  const story = await openPage(browser, problems);
  await story.goto(`${server.url}/#v=1&scenario=ticket&strategy=none`);
  await ready(story);
  const told = await (await story.waitForSelector(byId('explain-story'))).textContent();
  check('the story names both clicks and the window', told.includes('#1') && told.includes('#0') && told.includes('40 ms'), told);
  await press(story, byId('btn-first-violation'));
  const here = await (await story.waitForSelector(byId('explain-here'))).textContent();
  check('stepping onto the violation tells its story', here.includes('duplicate ticket'), here);
  const fixHref = await story.getAttribute(byId('explain-fix-link'), 'href');
  await press(story, byId('explain-fix-link'));
  await story.waitForFunction((href) => location.hash === href, fixHref);
  await ready(story);
  await runToEnd(story);
  await checkMetrics(story, fixHref.slice(1), 'the fix link');
  const clean = await (await story.waitForSelector(byId('explain-summary'))).textContent();
  check('a fixed run says there is no duplicate', clean.includes('no duplicate'), clean);

  // 12. A pasted `interleave real` report shows in its strategy's row.
  const realReport = JSON.stringify({
    fragment: 'v=1&scenario=ticket&strategy=none',
    trials: [{ metrics: { duplicate_tickets: 1 }, violates: true }],
    summary: { status: 'agree' },
  });
  await story.goto(`${server.url}/#v=1&scenario=ticket&strategy=none`);
  await ready(story);
  await press(story, '.real-input summary');
  await story.fill(byId('real-json'), realReport);
  await story.locator(byId('real-json')).blur();
  const realCell = await (await story.waitForSelector('.compare td.real')).textContent();
  check('a pasted real report shows in the compare table', realCell.includes('violated in 1 of 1 trial; agree'), realCell);

  // 13. Layouts: nothing wider than a phone; the run visible on a laptop.
  for (const [width, height] of [[390, 844], [1280, 720], [1440, 900]]) {
    const sized = await browser.newPage({ viewport: { width, height } });
    await sized.goto(`${server.url}/#v=1&scenario=ticket&strategy=none`);
    await ready(sized);
    const scrollWidth = await sized.evaluate(() => document.documentElement.scrollWidth);
    check(`${width}x${height}: no sideways scroll`, scrollWidth <= width, `${scrollWidth}px wide`);
    if (width >= 1280) {
      // Both panes exist once drawn; wait for them rather than for luck
      // (a loaded machine draws the timeline after the step controls).
      for (const id of ['timeline', 'loop-pane']) await sized.waitForSelector(byId(id));
      const below = await sized.evaluate(() =>
        ['timeline', 'loop-pane'].filter((id) => document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect().top > innerHeight),
      );
      check(`${width}x${height}: timeline and event loop start on the first screen`, below.length === 0, below.join(', '));
    }
    await sized.close();
  }
  // A metrics-only run's readout (a long count) wraps on a phone.
  const counted = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await counted.goto(`${server.url}/#v=1&scenario=stampede&strategy=none&requests=20001`);
  await counted.waitForSelector(byId('metrics-only'));
  await counted.waitForSelector(byId('progress'), { state: 'detached' });
  const readout = await counted.locator(byId('metrics-only')).textContent();
  const countedWidth = await counted.evaluate(() => document.documentElement.scrollWidth);
  check('390x844, metrics only: no sideways scroll', countedWidth <= 390, `${countedWidth}px wide`);
  check('the metrics-only readout groups its count by thousands', /\d,\d{3} macrotasks/.test(readout), readout);
  await counted.close();

  // 14. Nothing went wrong along the way.
  check('no console errors, page errors, CSP violations or outside requests', problems.length === 0, problems.join(' | '));
  console.log(`screenshot: ${SCREENSHOT}`);
} catch (error) {
  check('smoke test ran to the end', false, error.stack ?? String(error));
} finally {
  await browser.close();
  await server.close();
}

finish('e2e');
