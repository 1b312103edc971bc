#!/usr/bin/env bash
# Engine benchmarks: events (macrotasks) per second on a 100,000-request
# stampede under none, keyed-mutex and single-flight, with the full trace
# and metrics-only (criterion, benches/engine.rs), then the heap such a run
# holds and peaks at (benches/memory.rs). Extra arguments go to criterion,
# such as a filter: ./scripts/bench.sh keyed-mutex
#
# For comparison, the same scenario on Node's event loop with fake timers
# was measured at about 70,000 events per second without a lock and 25,000
# with async-mutex; when `node` is installed, the end of this script runs a
# self-contained version of it (a fake clock and a FIFO mutex, no packages).
#
# Last, scripts/bench-process.sh times whole `interleave run` processes on
# the 100,000-request stampede under every strategy, beside the whole
# `node scripts/stampede.mjs` process where Node runs it quickly (a few
# minutes in all: the emitter lock's herd alone takes minutes).

set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# criterion's median and interval, as events per second.
summary() {
    awk '
        /^stampede_100k\// { name = $1 }
        /thrpt:/ && !/%/ {
            gsub(/[\[\]]/, "")
            n = split($0, f, " ")
            scale["elem/s"] = 1; scale["Kelem/s"] = 1e3; scale["Melem/s"] = 1e6; scale["Gelem/s"] = 1e9
            printf "  %-36s %6.2f M events/s  (%.2f .. %.2f)\n", name,
                f[4] * scale[f[5]] / 1e6, f[2] * scale[f[3]] / 1e6, f[6] * scale[f[7]] / 1e6
        }
    ' "$log"
}

# Each run builds a fresh Sim; glibc hands large freed blocks back to the
# kernel, so every run also pays for faulting in fresh pages, as a one-shot
# CLI run does.
cargo bench --bench engine -- "$@" | tee "$log" >&2
echo
echo "events per second, fresh pages every run (glibc defaults):"
summary

# An allocator that keeps its pages, as a long-lived process or the wasm
# page (whose memory never shrinks) does: the engine's own speed.
GLIBC_TUNABLES=glibc.malloc.trim_threshold=4000000000:glibc.malloc.mmap_threshold=33554432 \
    cargo bench --bench engine -- "$@" | tee "$log" >&2
echo
echo "events per second, allocator keeps its pages (GLIBC_TUNABLES):"
summary

echo
cargo bench --bench memory 2>/dev/null

if command -v node >/dev/null; then
    echo
    echo "the same stampede on Node's event loop, for comparison:"
    script=$(mktemp --suffix=.mjs)
    trap 'rm -f "$log" "$script"' EXIT
    cat >"$script" <<'JS'
// The stampede of benches/engine.rs on Node's own event loop: a fake clock
// (timers in a binary heap by (due, id), so equal due times run FIFO) whose
// every timer is one macrotask, after which Node drains the microtasks; and
// a FIFO mutex like async-mutex. Prints events (timers fired) per second.
const [strategy = "none", requests = "100000"] = process.argv.slice(2);
const N = Number(requests);
const CACHE = 1000, DB = 20000, TTL = 60e6; // us
let now = 0, nextId = 0, events = 0;
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
const cache = new Map();
const get = async (key) => {
  await sleep(CACHE);
  const entry = cache.get(key);
  return entry && now < entry.expires ? entry.value : undefined;
};
const set = async (key, value) => { await sleep(CACHE); cache.set(key, { value, expires: now + TTL }); };
const select = async (key) => { await sleep(DB); return key + 1; };
class Mutex { // FIFO hand-off, like async-mutex
  locked = false; waiters = [];
  acquire() {
    if (!this.locked) { this.locked = true; return Promise.resolve(); }
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  release() { const next = this.waiters.shift(); if (next) next(); else this.locked = false; }
}
const mutex = new Mutex();
async function getItem(key) {
  if (await get(key) !== undefined) return;
  if (strategy === "keyed-mutex") {
    await mutex.acquire();
    try {
      if (await get(key) === undefined) await set(key, await select(key));
    } finally { mutex.release(); }
  } else {
    await set(key, await select(key));
  }
}
for (let i = 0; i < N; i++) setTimer(0, () => getItem(0));
const start = process.hrtime.bigint();
while (heap.length) {
  const timer = pop();
  now = Math.max(now, timer.due);
  timer.fn();
  events++;
  await new Promise(setImmediate); // a real macrotask turn: every microtask drains
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
console.log(`node ${strategy}: ${events} events in ${seconds.toFixed(2)} s, ${(events / seconds / 1e3).toFixed(1)} thousand events/s`);
JS
    node "$script" none 100000
    node "$script" keyed-mutex 100000
fi

echo
./scripts/bench-process.sh
