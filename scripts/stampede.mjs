// A stampede on Node's own event loop, for comparing whole-process times
// with `interleave run 'scenario=stampede&strategy=S&requests=N'` (the
// defaults: burst arrival, const latencies cache 1 ms and DB 20 ms, ttl 60 s,
// lock_ttl 10 s, poll 10 ms, wait_timeout 5 s, double_check). A fake clock
// (timers in a binary heap by (due, id): equal due times run FIFO), whose
// every timer is one macrotask after which Node drains the microtasks.
// Prints events (timers fired), lock wake-ups and the time taken.
// Usage: node scripts/stampede.mjs STRATEGY [REQUESTS] [KEYS] [GAP_US] [SERVERS]
// (the fragment's `keys`, `arrival=gap:GAP_US` and `servers` with
// round-robin routing; defaults 1, 0 (a burst) and 1).
const [strategy = "none", requests = "100000", keysArg = "1", gapArg = "0", serversArg = "1"] =
  process.argv.slice(2);
const N = Number(requests), KEYS = Number(keysArg), GAP = Number(gapArg), SERVERS = Number(serversArg);
const CACHE = 1000, DB = 20000, TTL = 60e6, LOCK_TTL = 10e6, POLL = 10000, WAIT = 5e6; // us
let now = 0, nextId = 0, events = 0, wakeups = 0, timeouts = 0;
const heap = [];
const less = (a, b) => a.due < b.due || (a.due === b.due && a.id < b.id);
function push(t) {
  heap.push(t);
  for (let i = heap.length - 1; i > 0; ) {
    const p = (i - 1) >> 1;
    if (!less(heap[i], heap[p])) break;
    [heap[i], heap[p]] = [heap[p], heap[i]]; i = p;
  }
}
function pop() {
  const top = heap[0], last = heap.pop();
  if (heap.length) {
    heap[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1, r = l + 1; let m = i;
      if (l < heap.length && less(heap[l], heap[m])) m = l;
      if (r < heap.length && less(heap[r], heap[m])) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m], heap[i]]; i = m;
    }
  }
  return top;
}
const setTimer = (delay, fn) => push({ due: now + delay, id: nextId++, fn });
const sleep = (delay) => new Promise((resolve) => setTimer(delay, resolve));
// memcached: get, set, add (stores only if absent or expired), delete.
const cache = new Map();
const live = (entry) => entry && (entry.expires === 0 || now < entry.expires);
const get = async (key) => { await sleep(CACHE); const e = cache.get(key); return live(e) ? e.value : undefined; };
const set = async (key, value, ttl = TTL) => { await sleep(CACHE); cache.set(key, { value, expires: ttl ? now + ttl : 0 }); };
const add = async (key, value, ttl) => {
  await sleep(CACHE);
  if (live(cache.get(key))) return false;
  cache.set(key, { value, expires: now + ttl }); return true;
};
const del = async (key) => { await sleep(CACHE); cache.delete(key); };
const select = async (key) => { await sleep(DB); return key + 1; };
class Mutex { // FIFO hand-off, like async-mutex
  locked = false; waiters = [];
  acquire() {
    if (!this.locked) { this.locked = true; return Promise.resolve(); }
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  release() { const next = this.waiters.shift(); if (next) next(); else this.locked = false; }
}
// In-process state, per app server and key (a Map of keyed mutexes, of
// flights, of emitter locks, of ticket locks in each Node process).
const servers = Array.from({ length: SERVERS }, () => ({
  mutexes: new Map(), locked: new Set(), listeners: new Map(), tickets: new Map(), flights: new Map(),
}));
const keyed = (map, key, make) => { let v = map.get(key); if (!v) map.set(key, v = make()); return v; };
// A cache lock polled every POLL: get-then-set (racy) or atomic add.
async function cacheLock(key, token) {
  const start = now;
  for (;;) {
    if (strategy === "add") {
      if (await add(`lock:${key}`, token, LOCK_TTL)) return true;
    } else if (await get(`lock:${key}`) === undefined) {
      await set(`lock:${key}`, token, LOCK_TTL); return true;
    }
    wakeups++;
    if (now - start >= WAIT) { timeouts++; return false; }
    await sleep(POLL);
  }
}
// An EventEmitter lock: release wakes every waiter on the next macrotask.
const once = ({ listeners }, key, fn) => keyed(listeners, key, () => []).push(fn);
const emit = ({ listeners }, key) => { const l = listeners.get(key); listeners.delete(key); if (l) for (const fn of l) fn(); };
async function emitterLock(server, key) {
  const { locked } = server;
  if (!locked.has(key)) { locked.add(key); await null; return true; }
  for (;;) {
    await new Promise((resolve) => once(server, key, resolve));
    if (!locked.has(key)) { locked.add(key); return true; }
    wakeups++;
  }
}
const emitterUnlock = (server, key) => { server.locked.delete(key); setTimer(0, () => emit(server, key)); };
// A ticket lock polled by setInterval, with a lease of LOCK_TTL.
function check(tickets, ticket) {
  if (tickets.serving < tickets.next && now - tickets.since >= LOCK_TTL) { tickets.serving++; tickets.since = now; }
  return tickets.serving === ticket;
}
async function ticketLock(tickets) {
  if (tickets.serving === tickets.next) tickets.since = now;
  const ticket = tickets.next++;
  if (check(tickets, ticket)) { await null; return ticket; }
  const start = now;
  wakeups++;
  if (now - start >= WAIT) { timeouts++; return -1; }
  return new Promise((resolve) => {
    const tick = () => {
      if (check(tickets, ticket)) return resolve(ticket);
      wakeups++;
      if (now - start >= WAIT) { timeouts++; return resolve(-1); }
      setTimer(POLL, tick); // setInterval: re-armed after the tick
    };
    setTimer(POLL, tick);
  });
}
function singleFlight({ flights }, key, work) {
  let flight = flights.get(key);
  if (!flight) {
    flight = work().finally(() => flights.delete(key));
    flights.set(key, flight);
  }
  return flight;
}
const load = async (key) => { const row = await select(key); await set(key, row); return row; };
// stale-while-revalidate: an entry expired less than GRACE ago is served
// at once while one refresh runs; a miss joins the refresh (single-flight).
// xfetch: a live entry is recomputed early once now - delta * BETA *
// ln(random) reaches its expiry; a miss recomputes (no lock).
const GRACE = 0, BETA = 1;
const lookup = async (key) => { await sleep(CACHE); return cache.get(key); };
async function cacheOnly(server, key) {
  const entry = await lookup(key);
  if (strategy === "stale-while-revalidate") {
    if (live(entry)) return;
    if (entry && now < entry.expires + GRACE) {
      if (!server.flights.has(key)) singleFlight(server, key, () => load(key));
      return;
    }
    return void await singleFlight(server, key, () => load(key));
  }
  if (live(entry) && !(now - entry.delta * BETA * Math.log(Math.random()) >= entry.expires)) return;
  const start = now;
  const row = await select(key);
  const delta = now - start;
  await sleep(CACHE);
  cache.set(key, { value: row, expires: now + TTL, delta });
}
let nextToken = 0;
async function getItem(server, key) {
  if (strategy === "stale-while-revalidate" || strategy === "xfetch") return cacheOnly(server, key);
  if (await get(key) !== undefined) return;
  if (strategy === "none") return void await load(key);
  if (strategy === "single-flight") return void await singleFlight(server, key, () => load(key));
  let ticket;
  const mutex = strategy === "keyed-mutex" && keyed(server.mutexes, key, () => new Mutex());
  const tickets = strategy === "ticket-lock" && keyed(server.tickets, key, () => ({ next: 0, serving: 0, since: 0 }));
  if (strategy === "keyed-mutex") await mutex.acquire();
  else if (strategy === "emitter-lock") await emitterLock(server, key);
  else if (strategy === "ticket-lock") { ticket = await ticketLock(tickets); if (ticket < 0) return; }
  else if (!(await cacheLock(key, ++nextToken))) return; // get-set, add: gave up
  try {
    if (await get(key) === undefined) await load(key);
  } finally {
    if (strategy === "keyed-mutex") mutex.release();
    else if (strategy === "emitter-lock") emitterUnlock(server, key);
    else if (strategy === "ticket-lock") { if (tickets.serving === ticket) { tickets.serving++; tickets.since = now; } }
    else await del(`lock:${key}`);
  }
}
const known = ["none", "get-set", "add", "keyed-mutex", "single-flight", "emitter-lock", "ticket-lock",
  "stale-while-revalidate", "xfetch"];
if (!known.includes(strategy)) { console.error(`strategies: ${known.join(", ")}`); process.exit(2); }
// Request i arrives at i * GAP for key i mod KEYS, on server i mod SERVERS.
for (let i = 0; i < N; i++) setTimer(i * GAP, () => getItem(servers[i % SERVERS], i % KEYS));
const start = process.hrtime.bigint();
while (heap.length) {
  const timer = pop();
  now = Math.max(now, timer.due);
  timer.fn();
  events++;
  await new Promise(setImmediate); // a real macrotask turn: every microtask drains
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
console.log(`node ${strategy} ${N}: ${events} events, ${wakeups} lock wake-ups, ${timeouts} timeouts in ${seconds.toFixed(2)} s`);
