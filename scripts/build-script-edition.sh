#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): the page's script edition, loaded
# only when a script scenario opens (web/boot.js). It is the same app built
# with the JavaScript engine (feature `script-wasm`, bin
# `interleave-script-web`), plus the <js-editor> component
# (scripts/build-editor.sh). Writes into Trunk's staging directory:
#   script/interleave-script-web.js, script/interleave-script-web_bg.wasm,
#   editor.js
# The wasm is always the `script-release` profile (opt-level "s": the
# engine runs about 1.4x faster than at "z" for 1.49 MB gzipped instead of
# 1.24; a debug build of the engine is tens of megabytes and slow);
# wasm-bindgen and wasm-opt run only when cargo's output changed (kept in
# target/script-web).

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${TRUNK_STAGING_DIR:?"run by trunk (Trunk.toml [[hooks]]), or set TRUNK_STAGING_DIR"}

scripts/build-editor.sh
cp web/editor/dist/editor.js "$out/editor.js"

cargo build --target wasm32-unknown-unknown --profile script-release \
  --features script-wasm --bin interleave-script-web
target_dir=${CARGO_TARGET_DIR:-target}
built=$target_dir/wasm32-unknown-unknown/script-release/interleave-script-web.wasm
cache=$target_dir/script-web
if [ ! -f "$cache/interleave-script-web_bg.wasm" ] || [ "$built" -nt "$cache/interleave-script-web_bg.wasm" ]; then
  rm -rf "$cache"
  wasm-bindgen --target web --no-typescript --out-dir "$cache" "$built"
  wasm-opt -Os "$cache/interleave-script-web_bg.wasm" -o "$cache/opt.wasm"
  mv "$cache/opt.wasm" "$cache/interleave-script-web_bg.wasm"
fi
mkdir -p "$out/script"
cp "$cache"/interleave-script-web.js "$cache"/interleave-script-web_bg.wasm "$out/script/"
