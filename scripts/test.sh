#!/usr/bin/env bash
# Runs every check, failing fast: format, lints, the native tests (unit,
# integration, property and doc tests), the release CLI with a current
# execution profile, the real-server tests (with
# PostgreSQL, Redis and memcached from scripts/services.sh), the release
# build and its size
# budget, the wasm tests in headless Chrome, and the end-to-end smoke test.
# Ends with one line: "N passed, 0 failed".

set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

echo "disk: $(df -Ph . | awk 'NR == 2 { print $4 }') free"

BUDGET_KB=250  # gzip -9 size of the wasm, in KiB
MODULE_BUDGET_KB=400  # each wasm file beside it
logs=$(mktemp -d)
services_up=0
cleanup() {
  if [ "$services_up" = 1 ]; then scripts/services.sh down >/dev/null 2>&1 || true; fi
  rm -rf "$logs"
}
trap cleanup EXIT

step() { printf '\n==> %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (native)"
cargo clippy --all-targets -- -D warnings
# The engine on its own, with only its own features: the workspace build
# unifies features across crates and would hide one it forgot.
cargo clippy -p interleave-engine --all-targets -- -D warnings

step "cargo test (native)"
# The real-server tests skip here (no service URLs); the next step runs them.
env -u INTERLEAVE_POSTGRES_URL cargo test 2>&1 | tee "$logs/native.log"

step "release CLI, with its execution profile (scripts/pgo.sh)"
# Every optimised native build uses pgo/cli-llvmN.profdata (scripts/rustc-release.sh).
# A function whose code changed since the profile was recorded loses its
# counts, and rustc says so: the profile is then re-recorded, not ignored.
cargo build --release --bin interleave 2>&1 | tee "$logs/release.log"
if grep -q "hash mismatch" "$logs/release.log"; then
  echo "pgo/cli-llvmN.profdata no longer matches the code: run scripts/pgo.sh and commit it" >&2
  exit 1
fi

step "real servers: scripts/services.sh up, cargo test --test real, down"
services_start=$(date +%s)
services_up=1
scripts/services.sh up >/dev/null
# shellcheck disable=SC1091
source "${INTERLEAVE_SERVICES_DIR:-/tmp/interleave-services}/env"
# One test at a time: the trials keep real time, and a neighbour's explore
# or thousand-request trial on the same two cores can delay them by 100 ms.
cargo test --test real -- --test-threads=1 2>&1 | tee "$logs/real.log"
scripts/services.sh down
services_up=0
echo "real servers added $(( $(date +%s) - services_start )) s"

step "cargo clippy (wasm32)"
cargo clippy --target wasm32-unknown-unknown --lib --bins --tests -- -D warnings
# The page as index.html builds it (its model in a worker) and the stories'
# worker; then the script worker.
cargo clippy --target wasm32-unknown-unknown --no-default-features --features worker \
  --lib --bins -- -D warnings
cargo clippy --target wasm32-unknown-unknown --no-default-features --features script-wasm --lib --bins --tests -- -D warnings
# The script worker as the page loads it: the engine split off at its entry
# points (src/debugger/program/engine.rs).
cargo clippy --target wasm32-unknown-unknown --no-default-features --features engine-split --lib --bins -- -D warnings
# The script worker's parser modules (src/script/modules.rs), in one pass.
cargo clippy --target wasm32-unknown-unknown --no-default-features \
  --features typescript,sql,analysis --lib --bins -- -D warnings

step "trunk build --release"
trunk build --release --offline --skip-version-check

step "bundle budget"
# The page's own wasm (dist/*.wasm), and each file beside it (dist/script/:
# the model's workers, the JavaScript engine's modules, and the script
# worker's parser modules, loaded only for script scenarios) on its own.
bytes=$(cat dist/*.wasm | gzip -9 | wc -c)
kb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1024 }')
echo "wasm: $kb KB gzipped (budget $BUDGET_KB KB)"
over=0
for wasm in dist/script/*.wasm; do
  name=$(basename "$wasm" _bg.wasm)
  module_bytes=$(gzip -9 <"$wasm" | wc -c)
  [ "$module_bytes" -le $((MODULE_BUDGET_KB * 1024)) ] || over=1
  echo "beside the page: $name $((module_bytes / 1024)) KB gzipped (budget $MODULE_BUDGET_KB KB)"
done
echo "on demand: editor/ $(($(cat dist/editor/*.js | gzip -9 | wc -c) / 1024)) KB gzipped"
if [ "$bytes" -gt $((BUDGET_KB * 1024)) ] || [ "$over" = 1 ]; then
  echo "wasm over budget" >&2
  exit 1
fi

step "wasm tests in headless Chrome"
CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver} \
  cargo test --target wasm32-unknown-unknown --test web 2>&1 | tee "$logs/web.log"

step "wasm tests of the script engine in headless Chrome"
# With the parsers linked (features `sql`, `typescript` and `analysis`):
# the tests hold the model on their own thread, with no worker to load
# those modules, and they open pg examples and show syntax errors (which
# try the stripper).
CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver} \
  cargo test --target wasm32-unknown-unknown --no-default-features \
  --features script-wasm,sql,typescript,analysis \
  --test web_script --test web_script_page 2>&1 | tee "$logs/web-script.log"

step "end-to-end smoke test"
# The CLI the native tests built (e2e/common.mjs), rather than `cargo run`.
export INTERLEAVE_CLI="$PWD/target/debug/interleave"
node e2e/smoke.mjs | tee "$logs/e2e.log"

step "end-to-end: the code editor, and script scenarios in the page"
node e2e/editor.mjs | tee "$logs/e2e-editor.log"
node e2e/scripts.mjs | tee "$logs/e2e-scripts.log"

step "end-to-end: the page as a person meets it (axe-core, keyboard, phone, errors, history)"
node e2e/page.mjs | tee "$logs/e2e-page.log"

step "browser performance figures (reported, not enforced)"
node e2e/perf.mjs

# Every cargo "test result: ok. N passed" line, plus the e2e checks; the
# native run's skipped real-server tests are counted once, from their own step.
passed=$( (awk '/Running tests\/real\.rs/ { skip = 1; next } skip && /^test result/ { skip = 0; next } { print }' \
    "$logs/native.log"; cat "$logs"/real.log "$logs"/web.log "$logs"/web-script.log) |
  sed -nE 's/^test result: ok\. ([0-9]+) passed.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
e2e=$(cat "$logs"/e2e*.log | sed -nE 's/^(e2e|editor|e2e scripts|e2e page): ([0-9]+) passed.*/\2/p' | awk '{ n += $1 } END { print n + 0 }')
echo
echo "target/ holds $(du -sh target | cut -f1); $(df -Ph . | awk 'NR == 2 { print $4 }') free"
echo "$((passed + e2e)) passed, 0 failed"
