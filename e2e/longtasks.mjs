// The main thread's long tasks (over 50 ms) of fresh pages opening a link,
// in headless Chromium, with the time to the first step: one line a page,
//   FIRST_STEP_MS [LONG_TASK_MS, ...]
// This machine's timings vary from run to run, so compare two builds by
// alternating them page by page (swap dist/ files between runs), never by
// a run of one then a run of the other. index.html pins the stylesheet
// (and the page's wasm) with `integrity`: a swapped file fails that check
// and is not loaded, so strip those attributes from dist/index.html before
// swapping. Chromium's tracing slows some work far more than the rest, so
// it tells where the time goes, not how long it takes.
//
// With LOAF=1, each animation frame over 45 ms follows its page's line:
// its start, duration and the scripts that ran in it (long-animation-frame
// attribution: the invoker, the file and how long), which says whose work
// a long task was.
//
// Run from the repository root after `trunk build --release`:
//   [LOAF=1] node e2e/longtasks.mjs '#v=1&scenario=script&example=ticket' [PAGES]

import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { canStep } from './common.mjs';
import { serve } from './serve.mjs';

const link = process.argv[2] ?? '#v=1&scenario=script&example=ticket';
const pages = Number(process.argv[3] ?? 1);
const server = await serve(resolve('dist'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (let i = 0; i < pages; i += 1) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript(() => {
      window.longTasks = [];
      window.longFrames = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.longTasks.push(Math.round(entry.duration));
      }).observe({ type: 'longtask', buffered: true });
      new PerformanceObserver((list) => {
        for (const frame of list.getEntries()) {
          if (frame.duration <= 45) continue;
          const scripts = frame.scripts.map(
            (s) => `${s.invoker} ${(s.sourceURL || '').split('/').pop()} ${Math.round(s.duration)} ms`,
          );
          window.longFrames.push(`${Math.round(frame.startTime)} ms, ${Math.round(frame.duration)} ms: ${scripts.join('; ')}`);
        }
      }).observe({ type: 'long-animation-frame', buffered: true });
    });
    await page.goto(`${server.url}/${link}`);
    await canStep(page, 120000);
    const first = await page.evaluate(() => Math.round(performance.now()));
    await page.waitForTimeout(1500);
    console.log(first, JSON.stringify(await page.evaluate(() => window.longTasks)));
    if (process.env.LOAF === '1') {
      for (const frame of await page.evaluate(() => window.longFrames)) console.log(`  ${frame}`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
