// A CPU profile of the page's script edition, by function, for the long
// tasks of two moments: opening a script link (`example=ticket`: the engine
// loads, the first run starts, the first render) and switching it to the
// 1,000-user stampede script. For each long task over 90 ms it prints the
// self and inclusive time of the functions sampled inside it.
//
//   node e2e/profile.mjs DIST
//
// DIST is a built page (trunk's `dist/`). Its wasm has no function names
// (wasm-opt drops them); for names, copy DIST and replace its script
// edition with wasm-bindgen's output of the unoptimized build:
//
//   cargo build --target wasm32-unknown-unknown --profile script-release \
//     --features script-wasm --bin interleave-script-web
//   cp -r dist /tmp/named && wasm-bindgen --target web --no-typescript \
//     --out-dir /tmp/named/script \
//     target/wasm32-unknown-unknown/script-release/interleave-script-web.wasm
//   node e2e/profile.mjs /tmp/named
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const root = process.argv[2];
const server = await serve(root);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.addInitScript(() => {
  window.longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
  }).observe({ type: 'longtask', buffered: true });
});
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });

function windows(profile, tasks, origin) {
  // Per long task: self time by function within its window.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = profile.startTime;
  const stamps = profile.timeDeltas.map((d) => (t += d));
  for (const [start, dur] of tasks) {
    const from = origin + start * 1000, to = from + dur * 1000;
    const self = new Map(), incl = new Map();
    profile.samples.forEach((id, i) => {
      if (stamps[i] < from || stamps[i] > to) return;
      const us = profile.timeDeltas[i + 1] ?? 0;
      const n = byId.get(id);
      const name = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}`;
      self.set(name, (self.get(name) ?? 0) + us);
      const seen = new Set();
      for (let p = id; p !== undefined; p = parent.get(p)) {
        const m = byId.get(p);
        const nm = `${m.callFrame.functionName || '(anon)'} ${m.callFrame.url.split('/').pop()}`;
        if (seen.has(nm)) continue;
        seen.add(nm);
        incl.set(nm, (incl.get(nm) ?? 0) + us);
      }
    });
    console.log(`-- task at ${start} ms, ${dur} ms: self`);
    for (const [name, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
    console.log(`   inclusive`);
    for (const [name, us] of [...incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
  }
}

function summarize(profile, label) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const dt = profile.timeDeltas;
  const counts = new Map();
  profile.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
  for (const [id, us] of counts) {
    const n = byId.get(id);
    const name = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}`;
    self.set(name, (self.get(name) ?? 0) + us);
  }
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40);
  console.log(`== ${label}`);
  for (const [name, us] of top) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${name}`);
}

await cdp.send('Profiler.start');
await page.goto(`${server.url}/#v=1&scenario=script&example=ticket`);
await page.waitForSelector('[data-testid="btn-step"]:not([disabled])', { timeout: 60000 });
await page.waitForTimeout(300);
let { profile } = await cdp.send('Profiler.stop');
summarize(profile, 'open ticket link');
const origin = await page.evaluate(() => performance.timeOrigin);
const ticks = await page.evaluate(() => performance.now());
console.log('long tasks', JSON.stringify(await page.evaluate(() => window.longTasks)));
globalThis.ORIGIN = profile.endTime - ticks * 1000;
windows(profile, (await page.evaluate(() => window.longTasks)).filter(([, d]) => d > 90), globalThis.ORIGIN);
await page.evaluate(() => { window.longTasks = []; });
await cdp.send('Profiler.start');
await page.evaluate(() => { location.hash = '#v=1&scenario=script&example=stampede&users=1000&clicks=1'; });
await page.waitForTimeout(1500);
({ profile } = await cdp.send('Profiler.stop'));
summarize(profile, 'switch to stampede');
console.log('long tasks', JSON.stringify(await page.evaluate(() => window.longTasks)));
windows(profile, (await page.evaluate(() => window.longTasks)).filter(([, d]) => d > 90), globalThis.ORIGIN);
await browser.close();
await server.close();
