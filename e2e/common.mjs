// What the end-to-end tests share: Chromium's flags, the pass/fail tally,
// the debug CLI (which `cargo test` has already built), the page's metrics
// against the CLI's, and a page that records every problem.

import { execFileSync } from 'node:child_process';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export const byId = (id) => `[data-testid="${id}"]`;

const tally = { passed: 0, failed: 0 };

/** Prints one check and counts it. */
export function check(name, ok, detail = '') {
  if (ok) tally.passed += 1;
  else tally.failed += 1;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? `: ${detail}` : ''}`);
}

/** Prints the tally as `LABEL: N passed, M failed` and exits 1 on a failure. */
export function finish(label) {
  console.log(`${label}: ${tally.passed} passed, ${tally.failed} failed`);
  process.exit(tally.failed === 0 ? 0 : 1);
}

/** The debug CLI's standard output for `args`: `$INTERLEAVE_CLI` where the
 * test command names the binary `cargo test` has just built, else `cargo run`
 * (which builds the bin with other features than the tests, a second copy). */
export function cli(...args) {
  const [command, prefix] = process.env.INTERLEAVE_CLI
    ? [process.env.INTERLEAVE_CLI, []]
    : ['cargo', ['run', '--quiet', '--bin', 'interleave', '--']];
  return execFileSync(command, [...prefix, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** What the page should show for the CLI's metrics, by test id (a
 * script's `custom` counters as `metric-custom-NAME`). */
export function expectedTexts(metrics) {
  const texts = {};
  for (const [name, value] of Object.entries(metrics)) {
    if (name === 'custom') {
      for (const [own, n] of Object.entries(value)) texts[`metric-custom-${own}`] = String(n);
    } else if (name === 'error_messages') {
      // Each failed request's message: the page tells them in its own
      // places (the event-loop pane, "What happened"), not as a metric.
    } else if (name === 'latency_us') {
      // The page shows milliseconds with at most 3 decimals: 22000us is "22".
      for (const [which, us] of Object.entries(value)) texts[`metric-latency_${which}`] = String(us / 1000);
    } else if (name === 'trace_hash') {
      texts['trace-hash'] = value;
    } else {
      texts[`metric-${name}`] = String(value);
    }
  }
  return texts;
}

/** Every `metric-*` cell and the trace hash on the page, by test id. */
export function shownTexts(page) {
  return page.$$eval('[data-testid^="metric-"], [data-testid="trace-hash"]', (cells) =>
    Object.fromEntries(cells.map((cell) => [cell.dataset.testid, cell.textContent])),
  );
}

/** Compares the page's metrics with `interleave run` on `fragment`. */
export async function checkMetrics(page, fragment, label) {
  await page.waitForSelector(byId('metric-db_reads'), { state: 'attached' });
  const expected = expectedTexts(JSON.parse(cli('run', `#${fragment}`)));
  const shown = await shownTexts(page);
  const wrong = Object.keys({ ...expected, ...shown })
    .filter((id) => expected[id] !== shown[id])
    .map((id) => `${id}: page ${shown[id]} vs cli ${expected[id]}`);
  check(`${label}: ${Object.keys(expected).length} metrics equal the CLI's`, wrong.length === 0, wrong.join('; '));
}

/** A new page that records console errors, page errors, failed requests,
 * requests to any other origin than `origin`, dialogs and CSP violations
 * into `problems`. */
export async function openPage(browser, problems, origin, viewport = { width: 1440, height: 900 }) {
  const page = await browser.newPage({ viewport });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A page closed by the test aborts what it was still loading.
    if (!request.failure()?.errorText.includes('ERR_ABORTED')) problems.push(`request failed: ${request.url()}`);
  });
  // Offline by design: only the page's own files, never another origin.
  page.on('request', (request) => {
    const url = request.url();
    const local = url.startsWith(origin) || url.startsWith('data:') || url.startsWith(`blob:${origin}`);
    if (!local) problems.push(`request to ${url}`);
  });
  page.on('dialog', async (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  await page.exposeFunction('reportCspViolation', (text) => problems.push(`CSP: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      window.reportCspViolation(`${event.violatedDirective} blocked ${event.blockedURI}`),
    );
  });
  return page;
}

/** Waits until the debugger has recorded the run and can step. */
export async function ready(page, timeout = 30_000) {
  // First the model of the page's address (after a `hashchange` the last
  // run stays on screen until the worker answers), then its recording.
  await page.waitForFunction(() => {
    const root = document.documentElement;
    return root.dataset.fragment !== undefined && `#${root.dataset.fragment}` === location.hash
      && (root.dataset.pending ?? '0') === '0';
  }, null, { timeout });
  await canStep(page, timeout);
}

/**
 * Waits until the step button is enabled, looking at every animation frame:
 * the moment a person sees it. (`waitForSelector` looks at 0, 20, 50, 100
 * and 100 ms, then every 500 ms: a button enabled just after a look is seen
 * up to half a second late, and a timed first step would count that.)
 */
export async function canStep(page, timeout = 30_000) {
  await page.waitForFunction(() => {
    const button = document.querySelector('[data-testid="btn-step"]');
    return button !== null && !button.disabled;
  }, null, { timeout, polling: 'raf' });
}

/**
 * Waits until the page shows the model's answer to every request it sent
 * (its model runs in a worker: `<html data-pending>` counts the requests
 * in flight).
 */
export async function settled(page) {
  await page.waitForSelector('html:not([data-pending]), html[data-pending="0"]', { state: 'attached' });
}

/** Clicks, then waits until the page shows the model's answer. */
export async function press(page, selector) {
  await page.click(selector);
  await settled(page);
}

/** Runs to the end and waits until the last step is shown. */
export async function runToEnd(page) {
  await page.click(byId('btn-run'));
  await page.waitForSelector(`${byId('btn-run')}[disabled]`);
}
