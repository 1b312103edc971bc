// Takes screenshots of the built app for a person to look at:
//   node e2e/look.mjs '<fragment>' out.png [clicks...]
// where each click is a data-testid (e.g. btn-step) clicked in order.
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const [fragment = '', out = 'test-artifacts/look.png', ...clicks] = process.argv.slice(2);
const server = await serve(new URL('../dist', import.meta.url).pathname);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const scheme = process.env.SCHEME ?? 'light';
const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
page.on('console', (m) => console.log('console:', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await page.goto(`${server.url}/#${fragment}`);
await page.waitForSelector('[data-testid="btn-step"]:not([disabled])', { timeout: 20000 });
for (const click of clicks) {
  await page.click(`[data-testid="${click}"]`);
}
await page.screenshot({ path: out, fullPage: true });
await browser.close();
await server.close();
