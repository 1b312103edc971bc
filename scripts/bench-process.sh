#!/usr/bin/env bash
# Whole-process times, as a user measures them: the wall time of the whole
# `interleave run '<fragment>'` process (start-up, the run, the JSON, exit)
# on the 100,000-request stampede under each strategy, the median of
# RUNS runs (default 10), with the peak RSS; then, where `node` is
# installed, the whole `node scripts/stampede.mjs STRATEGY` process on the
# same scenario (one run each) and the ratio. A report, never a pass/fail.
#
#   ./scripts/bench-process.sh                  every strategy, on and off the burst
#   ./scripts/bench-process.sh none keyed-mutex only these strategies
#   NODE_SLOW=1 ./scripts/bench-process.sh add  also Node on add, ticket-lock and
#                                               emitter-lock (minutes to half an hour)
#   REQUESTS=20000 ./scripts/bench-process.sh   another size
#   SHAPES=burst ./scripts/bench-process.sh     only the bursts (or `off`: only the others)
#
# Shapes: the burst (every request at 0, one key, one server), and off it
# `keys=10&arrival=gap:1us`, `servers=2`, `keys=100&arrival=gap:2us` and
# `keys=4` (scripts/stampede-shapes.sh; the node model takes the same
# keys, gap and servers). Builds the release CLI first (it is what a user
# runs; with its execution profile, scripts/pgo.sh).

set -euo pipefail
cd "$(dirname "$0")/.."

requests=${REQUESTS:-100000}
runs=${RUNS:-10}
source scripts/stampede-shapes.sh
strategies=("$@")
if [ ${#strategies[@]} -eq 0 ]; then
    strategies=("${stampede_strategies[@]}")
fi
# Node's model of the strategies (scripts/stampede.mjs); the polling locks
# and the emitter herd are slow on Node too (their work grows with
# requests x polls, and requests squared), so they run on request only.
node_quick=" none get-set keyed-mutex single-flight stale-while-revalidate xfetch "
node_slow=" add ticket-lock emitter-lock "

cargo build --release --bin interleave >&2
bin=${CARGO_TARGET_DIR:-target}/release/interleave

# Wall milliseconds of one command, to 0.1 ms. The clock is bash's own
# (EPOCHREALTIME, microseconds): a forked `date` on each side would add
# about a millisecond to every run.
wall_ms() {
    local start end
    start=${EPOCHREALTIME/[.,]/}
    "$@" >/dev/null
    end=${EPOCHREALTIME/[.,]/}
    awk -v us=$((end - start)) 'BEGIN { printf "%.1f", us / 1e3 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] }'; }

# label, then the fragment's extra keys, then node's KEYS GAP_US SERVERS.
shapes=()
if [ "${SHAPES:-all}" != off ]; then shapes+=("$stampede_burst"); fi
if [ "${SHAPES:-all}" != burst ]; then shapes+=("${stampede_off[@]}"); fi

printf "whole process, stampede of %s requests, median of %s runs\n" "$requests" "$runs"
printf "%-24s %-18s %10s %10s %12s %12s %8s\n" strategy shape "ms" "min ms" "peak RSS" "node ms" "ratio"
for strategy in "${strategies[@]}"; do
for shape in "${shapes[@]}"; do
    IFS='|' read -r label extra node_shape <<<"$shape"
    fragment="#v=1&scenario=stampede&strategy=$strategy&requests=$requests$extra"
    # The first run also gives the peak RSS; a slow strategy (its run takes
    # seconds or minutes) runs fewer times, a very slow one only that once.
    rss_file=$(mktemp)
    first=$(wall_ms /usr/bin/time -o "$rss_file" -f "%M" "$bin" run "$fragment")
    rss=$(tail -1 "$rss_file")
    rm -f "$rss_file"
    n=$runs
    if awk -v ms="$first" 'BEGIN { exit !(ms > 2000) }'; then n=3; fi
    if awk -v ms="$first" 'BEGIN { exit !(ms > 30000) }'; then n=1; fi
    if [ "$n" -eq 1 ]; then
        times=$first
    else
        times=$(for _ in $(seq "$n"); do wall_ms "$bin" run "$fragment"; echo; done | grep .)
    fi
    ms=$(echo "$times" | median)
    min=$(echo "$times" | sort -n | head -1)
    node_ms="-"
    ratio="-"
    if command -v node >/dev/null && { [[ $node_quick == *" $strategy "* ]] ||
        { [ -n "${NODE_SLOW:-}" ] && [[ $node_slow == *" $strategy "* ]]; }; }; then
        # shellcheck disable=SC2086
        node_ms=$(wall_ms node scripts/stampede.mjs "$strategy" "$requests" $node_shape)
        ratio=$(awk -v n="$node_ms" -v r="$ms" 'BEGIN { printf "%.0fx", n / r }')
    fi
    printf "%-24s %-18s %10s %10s %9s MB %12s %8s\n" "$strategy" "$label" "$ms" "$min" \
        "$(awk -v kb="$rss" 'BEGIN { printf "%.1f", kb / 1024 }')" "$node_ms" "$ratio"
done
done
