#!/usr/bin/env bash
# Runs every check, failing fast: format, lints, the native tests (unit,
# integration, property and doc tests), the release build and its size
# budget, the wasm tests in headless Chrome, and the end-to-end smoke test.
# Ends with one line: "N passed, 0 failed".

set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

BUDGET_KB=250  # gzip -9 size of the wasm, in KiB
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (native)"
cargo clippy --all-targets -- -D warnings

step "cargo test (native)"
cargo test 2>&1 | tee "$logs/native.log"

step "cargo clippy (wasm32)"
cargo clippy --target wasm32-unknown-unknown --lib --bins --tests -- -D warnings

step "trunk build --release"
trunk build --release --offline --skip-version-check

step "bundle budget"
bytes=$(cat dist/*.wasm | gzip -9 | wc -c)
kb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1024 }')
echo "wasm: $kb KB gzipped (budget $BUDGET_KB KB)"
if [ "$bytes" -gt $((BUDGET_KB * 1024)) ]; then
  echo "wasm over budget" >&2
  exit 1
fi

step "wasm tests in headless Chrome"
CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver} \
  cargo test --target wasm32-unknown-unknown --test web 2>&1 | tee "$logs/web.log"

step "end-to-end smoke test"
node e2e/smoke.mjs | tee "$logs/e2e.log"

step "browser performance figures (reported, not enforced)"
node e2e/perf.mjs

# Every cargo "test result: ok. N passed" line, plus the e2e checks.
passed=$(cat "$logs"/native.log "$logs"/web.log |
  sed -nE 's/^test result: ok\. ([0-9]+) passed.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
e2e=$(sed -nE 's/^e2e: ([0-9]+) passed.*/\1/p' "$logs/e2e.log")
echo
echo "$((passed + e2e)) passed, 0 failed"
