// Browser performance figures for the built app (dist/), in headless
// Chromium, with the Performance API:
//  - one debugger step (and one step back) with 1,000 requests on screen;
//  - a 100,000-request run: chunked, with progress; its events per second,
//    and the longest main-thread task while it runs (long-task observer);
//  - the largest traced run, a 20,000-request stampede under `none`: the
//    longest task while it loads, while stepping and while playing;
//  - a 1,000,000-request metrics-only run: the longest task;
//  - a fresh page per link (ticket, 1,000 and 20,000 requests): the longest
//    task from the page's very start until it has recorded;
//  - a script link (the script worker, loaded on demand): the time from
//    opening it to its first step, the longest task while it loads, and the
//    longest task while a 1,000-request stampede script records and runs
//    to the end.
// Prints JSON; with --check, exits 1 when a budget is missed:
// step < 16 ms, long tasks < 50 ms, >= 3M events/s.
//
// Run from the repository root after `trunk build --release`:
//   node e2e/perf.mjs [--check]

import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { canStep } from './common.mjs';
import { serve } from './serve.mjs';

const check = process.argv.includes('--check');
const server = await serve(resolve('dist'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const results = {};

/** Collects the page's long tasks (over 50 ms) in `window.longTasks`. */
function watchLongTasks(page) {
  return page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await watchLongTasks(page);

  // 1. Stepping with 1,000 requests.
  await page.goto(`${server.url}/#v=1&scenario=stampede&strategy=keyed-mutex&requests=1000`);
  await canStep(page, 60000);
  // The compare table fills in the background first.
  await page.waitForFunction(() => !document.querySelector('[data-testid="compare"] .more'), null, {
    timeout: 120000,
  });
  const timing = await page.evaluate(async () => {
    const button = (id) => document.querySelector(`[data-testid="${id}"]`);
    // The model answers from its worker (`<html data-pending>` counts the
    // requests in flight), and Yew renders in a microtask after each
    // answer; a message-channel task runs after that (setTimeout would add
    // its 4 ms nesting clamp to every sample).
    const nextTask = () =>
      new Promise((done) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done();
        channel.port2.postMessage(0);
      });
    const answered = () =>
      new Promise((done) => {
        const root = document.documentElement;
        if ((root.dataset.pending ?? '0') === '0') return done();
        new MutationObserver((_, observer) => {
          if (root.dataset.pending === '0') {
            observer.disconnect();
            done();
          }
        }).observe(root, { attributes: true, attributeFilter: ['data-pending'] });
      });
    const settle = async () => {
      await answered();
      await nextTask();
    };
    const time = async (id, times) => {
      const samples = [];
      for (let i = 0; i < times; i += 1) {
        const start = performance.now();
        button(id).click();
        await settle();
        samples.push(performance.now() - start);
      }
      samples.sort((a, b) => a - b);
      const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
      return { median: at(0.5), p95: at(0.95), max: samples[samples.length - 1] };
    };
    const step = await time('btn-step', 200);
    // Deep into the run, where a step back replays the most.
    for (let i = 0; i < 1500; i += 1) button('btn-step').click();
    await settle();
    const back = await time('btn-back', 20);
    return { step, back, position: button('step-index').textContent };
  });
  results.step_ms_1000_requests = timing.step;
  results.back_ms_1000_requests = { ...timing.back, at_step: Number(timing.position) };

  // 2. A 100,000-request run, chunked.
  await page.evaluate(() => { window.longTasks = []; });
  // Timed inside the page: from the hash change to the moment the last
  // chunk shows all 400,000 events.
  const seconds = await page.evaluate(
    () =>
      new Promise((done) => {
        const start = performance.now();
        const finished = () =>
          document.querySelector('[data-testid="metric-events"]')?.textContent === '400000';
        new MutationObserver((_, observer) => {
          if (finished()) {
            observer.disconnect();
            done((performance.now() - start) / 1000);
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
        location.hash = '#v=1&scenario=stampede&strategy=none&requests=100000';
      }),
  );
  const longTasks = await page.evaluate(() => window.longTasks);
  results.run_100k = {
    seconds,
    events: 400000,
    events_per_second: Math.round(400000 / seconds),
    long_tasks: longTasks.length,
    longest_task_ms: Math.max(0, ...longTasks),
  };

  // 3. The largest traced run: load, step and play 20,000 requests.
  const longest = async (during) => {
    await page.evaluate(() => { window.longTasks = []; });
    await during();
    // A task still running would be reported once it ends.
    await page.waitForTimeout(200);
    const tasks = await page.evaluate(() => window.longTasks);
    return { long_tasks: tasks.length, longest_task_ms: Math.round(Math.max(0, ...tasks)) };
  };
  const big = '#v=1&scenario=stampede&strategy=none&requests=20000';
  const load = Date.now();
  results.load_20k_none = await longest(async () => {
    await page.evaluate((hash) => { location.hash = hash; }, big);
    await canStep(page, 120000);
  });
  results.load_20k_none.seconds_to_first_step = (Date.now() - load) / 1000;
  results.step_20k_none = await longest(async () => {
    for (let i = 0; i < 30; i += 1) await page.click('[data-testid="btn-step"]');
    await page.click('[data-testid="btn-back"]');
  });
  results.play_20k_none = await longest(async () => {
    await page.click('[data-testid="btn-play"]');
    await page.waitForTimeout(2000);
    await page.click('[data-testid="btn-play"]');
  });

  // 4. A 1,000,000-request run keeps only metrics.
  results.run_1m_metrics_only = await longest(async () => {
    await page.evaluate(() => { location.hash = '#v=1&scenario=stampede&strategy=none&requests=1000000'; });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="metric-events"]')?.textContent === '4000000',
      null,
      { timeout: 180000 },
    );
  });

  // 5. A fresh page, as a link opens it: every task from the page's start
  // (the wasm's start and first draw included) until it has recorded and
  // filled the compare table. The sections above change the fragment of a
  // page that is already open, so they never see the start.
  results.fresh_page = {};
  for (const fragment of [
    'v=1&scenario=ticket&strategy=none',
    'v=1&scenario=stampede&strategy=none&requests=1000',
    'v=1&scenario=stampede&strategy=none&requests=20000',
  ]) {
    const fresh = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await watchLongTasks(fresh);
    await fresh.goto(`${server.url}/#${fragment}`);
    await canStep(fresh, 120000);
    await fresh.waitForFunction(() => !document.querySelector('[data-testid="compare"] .more'), null, {
      timeout: 120000,
    });
    await fresh.waitForTimeout(200);
    const tasks = await fresh.evaluate(() => window.longTasks);
    results.fresh_page[fragment] = { long_tasks: tasks.length, longest_task_ms: Math.round(Math.max(0, ...tasks)) };
    await fresh.close();
  }

  // 6. A script link: the engine loads on demand, then the run.
  const scripted = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await watchLongTasks(scripted);
  const opened = Date.now();
  await scripted.goto(`${server.url}/#v=1&scenario=script&example=ticket`);
  await canStep(scripted, 60000);
  const ms_to_first_step = Date.now() - opened;
  // The first chunks of the recording and the compare table, too.
  await scripted.waitForTimeout(1000);
  const loading = await scripted.evaluate(() => window.longTasks);
  results.script_link = {
    ms_to_first_step,
    engine_and_editor_ms: Math.round(await scripted.evaluate(() => window.interleaveEngineMs)),
    long_tasks: loading.length,
    longest_task_ms: Math.round(Math.max(0, ...loading)),
  };
  await scripted.evaluate(() => { window.longTasks = []; });
  const started = Date.now();
  await scripted.evaluate(() => { location.hash = '#v=1&scenario=script&example=stampede&users=1000&clicks=1'; });
  await canStep(scripted, 120000);
  await scripted.click('[data-testid="btn-run"]');
  await scripted.waitForSelector('[data-testid="btn-run"][disabled]', { timeout: 120000 });
  await scripted.waitForTimeout(200);
  const tasks = await scripted.evaluate(() => window.longTasks);
  results.script_stampede_1000 = {
    seconds_to_end: (Date.now() - started) / 1000,
    long_tasks: tasks.length,
    longest_task_ms: Math.round(Math.max(0, ...tasks)),
  };
} finally {
  await browser.close();
  await server.close();
}
console.log(JSON.stringify(results, null, 2));
if (check) {
  const misses = [];
  if (results.step_ms_1000_requests.max >= 16) misses.push('step >= 16 ms');
  for (const name of ['run_100k', 'load_20k_none', 'step_20k_none', 'play_20k_none', 'run_1m_metrics_only']) {
    if (results[name].longest_task_ms >= 50) misses.push(`${name}: a long task >= 50 ms`);
  }
  if (results.run_100k.events_per_second < 3e6) misses.push('< 3M events/s');
  if (misses.length) {
    console.error(`perf budgets missed: ${misses.join(', ')}`);
    process.exit(1);
  }
}
