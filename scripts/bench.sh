#!/usr/bin/env bash
# Engine benchmarks: events (macrotasks) per second on a 100,000-request
# stampede under none, keyed-mutex and single-flight, with the full trace
# and metrics-only, and the ticket_pg, signup_pg and mutex_map scripts with
# 5,000 and 20,000 users (criterion, benches/engine.rs), beside the floor
# under them (`floor_100k`: the least an executor of one future per request
# does, no engine), then the heap such a run holds and peaks at
# (benches/memory.rs). Extra arguments go to criterion, such as a filter:
# ./scripts/bench.sh keyed-mutex
#
# For comparison, the same scenario on Node's event loop with fake timers
# was measured at about 70,000 events per second without a lock and 25,000
# with async-mutex; when `node` is installed, the end of this script runs
# scripts/stampede.mjs (a fake clock and a FIFO mutex, no packages).
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
        /^(stampede_100k|floor_100k|script_[a-z_]+)\// { name = $1 }
        /thrpt:/ && !/%/ {
            gsub(/[\[\]]/, "")
            n = split($0, f, " ")
            scale["elem/s"] = 1; scale["Kelem/s"] = 1e3; scale["Melem/s"] = 1e6; scale["Gelem/s"] = 1e9
            if (name ~ /^script/) {
                printf "  %-36s %6.2f K requests/s  (%.2f .. %.2f)\n", name,
                    f[4] * scale[f[5]] / 1e3, f[2] * scale[f[3]] / 1e3, f[6] * scale[f[7]] / 1e3
            } else {
                printf "  %-36s %6.2f M events/s  (%.2f .. %.2f)\n", name,
                    f[4] * scale[f[5]] / 1e6, f[2] * scale[f[3]] / 1e6, f[6] * scale[f[7]] / 1e6
            }
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
    echo "the same stampede on Node's event loop, for comparison (scripts/stampede.mjs):"
    node scripts/stampede.mjs none 100000
    node scripts/stampede.mjs keyed-mutex 100000
fi

echo
./scripts/bench-process.sh
