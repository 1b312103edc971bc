#!/usr/bin/env bash
# Records the release CLI's execution profile, pgo/cli-llvmN.profdata (N:
# rustc's LLVM version, whose format it is written in), which every
# optimised native build then uses (scripts/rustc-release.sh; profile-guided
# optimisation, docs/architecture.md). Builds the CLI instrumented, in a
# target directory of its own; runs it on the benchmark's stampedes
# (scripts/stampede-shapes.sh: every strategy, on and off the burst, at
# REQUESTS requests, 20,000 by default) and on explore's ticket; and merges
# the counts, keeping only the code that ran (a sparse profile, ~120 KB).
#
# Run it after changing the engine or the CLI and commit the profile: the
# test command's release build fails while a function of the profile no
# longer matches the code. Installs Debian's llvm-N for llvm-profdata-N if
# it is missing, N being rustc's LLVM version.

set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/stampede-shapes.sh

requests=${REQUESTS:-20000}
llvm=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
profdata=llvm-profdata-$llvm
if ! command -v "$profdata" >/dev/null; then
    echo "pgo: installing llvm-$llvm (apt) for $profdata" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "llvm-$llvm"
fi

target=${CARGO_TARGET_DIR:-target}/pgo-generate
counts=$(mktemp -d)
trap 'rm -rf "$counts"' EXIT
RUSTFLAGS="-Cprofile-generate=$counts" CARGO_TARGET_DIR="$target" \
    cargo build --release --bin interleave >&2
# The build scripts ran instrumented too: only the CLI's runs count.
rm -f "$counts"/*
export LLVM_PROFILE_FILE="$counts/cli-%m.profraw"
bin=$target/release/interleave
for strategy in "${stampede_strategies[@]}"; do
    for shape in "$stampede_burst" "${stampede_off[@]}"; do
        IFS='|' read -r _ extra _ <<<"$shape"
        "$bin" run "v=1&scenario=stampede&strategy=$strategy&requests=$requests$extra" >/dev/null
    done
    "$bin" explore "v=1&scenario=ticket&strategy=$strategy&users=3&clicks=2" >/dev/null
done
out=pgo/cli-llvm$llvm.profdata
"$profdata" merge --sparse -o "$out" "$counts"/*.profraw
echo "pgo: wrote $out ($(wc -c <"$out") bytes)" >&2
