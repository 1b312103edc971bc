import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
import { cli } from './common.mjs';
import { writeFileSync } from 'node:fs';
const server = await serve(new URL('../dist', import.meta.url).pathname);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
const cases = {
  'string 100MB': 'async function handle(req) { const s = "x".repeat(100 * 1024 * 1024); count("len", s.length); }',
  'string 100MB top': 'const big = "x".repeat(100 * 1024 * 1024);\nasync function handle(req) { count("len", big.length); }',
  'recursion': 'function f(n) { return f(n + 1) + 1; }\nasync function handle(req) { f(0); }',
  'array growth': 'async function handle(req) { const a = []; for (;;) a.push({ x: a.length }); }',
};
for (const [name, code] of Object.entries(cases)) {
  writeFileSync('/tmp/h.js', code);
  const enc = cli('encode', '/tmp/h.js').trim();
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(() => { window.longTasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true }); });
  const t0 = Date.now();
  await page.goto(`${server.url}/#v=1&scenario=script&code=${enc}&users=2&clicks=1`);
  await page.waitForSelector('[data-testid="script-error"], [data-testid="btn-step"]:not([disabled])', { timeout: 120000 });
  const first = Date.now() - t0;
  await page.waitForTimeout(4000);
  const tasks = await page.evaluate(() => window.longTasks);
  const err = await page.$eval('[data-testid="script-error"]', (e) => e.textContent).catch(() => null);
  const errors = await page.$eval('[data-testid="metric-errors"]', (e) => e.textContent).catch(() => null);
  const logs = await page.$$eval('.loop-pane li, [data-testid="loop-pane"] li', (els) => els.map((e) => e.textContent).slice(0, 3)).catch(() => []);
  console.log(name, '| ready', first, 'ms | long tasks', JSON.stringify(tasks), '| error banner:', err?.slice(0, 120), '| errors metric:', errors);
  await page.close();
}
await browser.close(); await server.close();
