#!/usr/bin/env bash
# Installs, only when missing, what building and testing the web app needs:
#   the wasm32 target, clippy and rustfmt, trunk, wasm-bindgen-cli (the
#   version in Cargo.lock), wasm-split-cli (which splits the JavaScript
#   engine off the script worker's wasm), node packages (wasm-opt from
#   `binaryen`, `playwright-core`), clang (the script engine, QuickJS-ng, is C: clang
#   builds it for wasm32), and Chromium with chromedriver (skipped when
#   SETUP_BROWSER=0).
# Source it (`source scripts/setup.sh`) to also get the tools on PATH; a run
# with everything present is a quick no-op.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TRUNK_VERSION=0.21.14
# The splitter for `wasm_split_helpers`' split points (scripts/build-workers.sh).
WASM_SPLIT_VERSION=0.2.4
# wasm-bindgen-cli must match the wasm-bindgen crate the app links.
BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print }' Cargo.lock)

export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

installing() { echo "setup: installing $*" >&2; }

# Runs a command as root: directly, or through sudo when there is one.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else echo "setup: need root to run: $*" >&2; return 1
  fi
}

# Debian packages for Chromium and node, if absent.
packages=()
if [ "${SETUP_BROWSER:-1}" != 0 ]; then
  [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || packages+=(chromium chromium-driver)
fi
command -v npm >/dev/null || packages+=(nodejs npm)
command -v clang >/dev/null || packages+=(clang)
if [ ${#packages[@]} -gt 0 ]; then
  installing "${packages[*]} (apt)"
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${packages[@]}"
fi

# Rust: the wasm target and the lint tools.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  installing "the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in clippy rustfmt; do
  if ! rustup component list --installed | grep -q "^$component"; then
    installing "$component"
    rustup component add "$component"
  fi
done

# trunk, and wasm-bindgen-cli (which also gives wasm-bindgen-test-runner).
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  installing "trunk $TRUNK_VERSION"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $BINDGEN_VERSION" ]; then
  installing "wasm-bindgen-cli $BINDGEN_VERSION"
  cargo install wasm-bindgen-cli --version "$BINDGEN_VERSION"
fi

if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  installing "wasm-split-cli $WASM_SPLIT_VERSION"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary
fi

# node_modules, when missing or older than package-lock.json.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  installing "node packages (npm ci)"
  npm ci --no-audit --no-fund
fi

# The patched releases Cargo.toml's [patch.crates-io] names (every cargo
# command in this checkout needs them), then the crates, so the builds
# after this need no network.
scripts/patch-crates.sh
cargo fetch --quiet
