import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';
const link = process.argv[2];
const server = await serve(resolve(process.env.DIST));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
const works = [];
let open = 0;
page.on('worker', (w) => w.on('console', (m) => { const t = m.text(); const k = t.match(/took (\d+)/); if (k) works.push(Number(k[1])); if (t.startsWith('T open')) open = Number(t.split(' ')[2]); }));
await page.addInitScript(() => {
  new MutationObserver(() => { if (!window.en && document.querySelector('[data-testid="btn-step"]:not([disabled])')) window.en = Math.round(performance.timeOrigin + performance.now()); })
    .observe(document, { subtree: true, childList: true, attributes: true });
  window.lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.lt.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
});
await page.goto(`${server.url}/${link}`);
await page.waitForSelector('[data-testid="btn-step"]:not([disabled])', { timeout: 20000 });
await page.waitForTimeout(800);
const [origin, en, lt] = await page.evaluate(() => [performance.timeOrigin, window.en, window.lt]);
console.log(process.env.DIST.slice(-2), 'open', open - Math.round(origin), 'enabled', en - Math.round(origin), 'works', works.slice(0, 10).join(','), 'lt', JSON.stringify(lt));
await browser.close(); await server.close();
