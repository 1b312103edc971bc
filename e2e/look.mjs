// Takes screenshots of the built app for a person to look at:
//   node e2e/look.mjs '<fragment>' out.png [clicks...]
// where each click is a data-testid (e.g. btn-step) clicked in order.
// SCHEME=dark for the dark theme; SIZE=390x844 for a phone (default
// 1440x900); FULL=0 for the viewport only. Prints the page's scroll width.
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const [fragment = '', out = 'test-artifacts/look.png', ...clicks] = process.argv.slice(2);
const server = await serve(new URL('../dist', import.meta.url).pathname);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const scheme = process.env.SCHEME ?? 'light';
const [width, height] = (process.env.SIZE ?? '1440x900').split('x').map(Number);
const page = await browser.newPage({ viewport: { width, height }, colorScheme: scheme });
page.on('console', (m) => console.log('console:', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await page.goto(`${server.url}/#${fragment}`);
await page.waitForSelector('[data-testid="btn-step"]:not([disabled]), [data-testid="metrics-only"], [data-testid="script-error"]', { timeout: 60000 });
for (const click of clicks) {
  await page.click(`[data-testid="${click}"]`);
}
await page.screenshot({ path: out, fullPage: process.env.FULL !== '0' });
console.log('scroll width', await page.evaluate(() => document.documentElement.scrollWidth), 'of', width);
await browser.close();
await server.close();
