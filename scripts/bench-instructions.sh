#!/usr/bin/env bash
# Instructions, not milliseconds: the whole `interleave run '<fragment>'`
# process under valgrind's callgrind, which counts every instruction it
# executes. A count does not move with the machine's load, so on a noisy
# 2-core machine it tells a 5% change in the engine apart where wall times
# cannot (scripts/bench-process.sh times the same processes). Prints, per
# shape, the instructions in all and per request (start-up included), then
# the functions that executed the most of them themselves. A report, never
# a pass/fail.
#
#   ./scripts/bench-instructions.sh                   none, get-set and keyed-mutex
#   ./scripts/bench-instructions.sh single-flight add only these strategies
#   REQUESTS=5000 ./scripts/bench-instructions.sh      another size (20,000 by default)
#   TOP=20 ./scripts/bench-instructions.sh             more functions (10 by default)
#
# Shapes: the burst (every request at 0, one key), and `keys=100` with a
# 2 us gap. Needs valgrind (Debian's `valgrind` package); builds the
# release CLI first.

set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null; then
    echo "bench-instructions: needs valgrind (apt-get install -y valgrind)" >&2
    exit 1
fi
requests=${REQUESTS:-20000}
top=${TOP:-10}
strategies=("$@")
if [ ${#strategies[@]} -eq 0 ]; then
    strategies=(none get-set keyed-mutex)
fi

cargo build --release --bin interleave >&2
bin=${CARGO_TARGET_DIR:-target}/release/interleave
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf "instructions of a whole process, stampede of %s requests\n" "$requests"
for strategy in "${strategies[@]}"; do
    for shape in "burst|" "keys=100,gap:2us|&keys=100&arrival=gap:2us"; do
        IFS='|' read -r label extra <<<"$shape"
        fragment="#v=1&scenario=stampede&strategy=$strategy&requests=$requests$extra"
        valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" run "$fragment" \
            >/dev/null 2>"$out/log"
        total=$(sed -n 's/.*Collected : //p' "$out/log")
        printf "\n%-16s %-18s %14s instructions, %6s per request\n" "$strategy" "$label" \
            "$total" "$((total / requests))"
        callgrind_annotate "$out/cg" 2>/dev/null |
            awk -v top="$top" '/file:function/ { on = 1; next } on && NF && !/^-+$/ && n < top {
                gsub(/\[.*\]/, ""); sub(/\?\?\?:/, ""); print "    " $0; n++ }'
    done
done
