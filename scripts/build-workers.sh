#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): what the page loads beside its own
# wasm. The model's workers (web/model.js): `interleave-model`, which every
# page starts, and `interleave-script-model`, the same worker with the
# JavaScript engine (feature `engine-split`), which the page starts when a
# script opens: its wasm holds the model, and the engine is split off it
# into modules of its own (QuickJS, and the script's runtime around it),
# which the worker loads before its model opens. The script worker's
# parser modules (src/script/modules.rs), loaded on first use: TypeScript's stripper (bin `interleave-typescript`),
# the SQL parser (`interleave-sql`) and explore's analysis
# (`interleave-analysis`). And the <js-editor> component
# (scripts/build-editor.sh), which the page loads with a script.
# Writes into Trunk's staging directory:
#   script/interleave-{model,script-model,typescript,sql,analysis}.js and
#   _bg.wasm, the engine's modules (script/__wasm_split.js, which loads
#   them, and their .wasm), editor/ (element.js, its entry, and its chunks)
# The workers are the `script-release` profile (opt-level "s", and
# `wasm-opt -Os`: the engine runs faster than at "z"; a debug build of the
# engine is tens of megabytes and slow). The parser modules, which parse a
# script once per edit, are `module-release` (opt-level "z", `wasm-opt -Oz`),
# for size. wasm-bindgen and wasm-opt run only when cargo's output changed
# (kept in target/script-web).

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${TRUNK_STAGING_DIR:?"run by trunk (Trunk.toml [[hooks]]), or set TRUNK_STAGING_DIR"}

scripts/build-editor.sh
rm -rf "$out/editor"
cp -r web/editor/dist "$out/editor"

target_dir=${CARGO_TARGET_DIR:-target}

# One wasm-bindgen bin: built, bound and optimised into $out/script/ (the
# last two steps only when cargo's output changed; kept in
# target/script-web/PROFILE-LEVEL/NAME, so a change of either rebuilds).
# NAME PROFILE WASM_OPT_LEVEL FEATURES...
module() {
  local name=$1 profile=$2 level=$3
  shift 3
  cargo build --target wasm32-unknown-unknown --profile "$profile" \
    --no-default-features "$@" --bin "$name"
  local built=$target_dir/wasm32-unknown-unknown/$profile/$name.wasm
  local cache=$target_dir/script-web/$profile-$level/$name
  if [ ! -f "$cache/${name}_bg.wasm" ] || [ "$built" -nt "$cache/${name}_bg.wasm" ]; then
    rm -rf "$cache"
    wasm-bindgen --target web --no-typescript --out-dir "$cache" "$built"
    wasm-opt "-$level" "$cache/${name}_bg.wasm" -o "$cache/opt.wasm"
    mv "$cache/opt.wasm" "$cache/${name}_bg.wasm"
  fi
  mkdir -p "$out/script"
  cp "$cache/$name.js" "$cache/${name}_bg.wasm" "$out/script/"
}

# A bin whose wasm `wasm-split-cli` splits at its `wasm_split_helpers`
# split points (the JavaScript engine's, src/debugger/program/engine.rs,
# and the SQL statements', src/script/sql/store.rs):
# the bin's own wasm, bound by wasm-bindgen, and the split modules and
# `__wasm_split.js`, which loads them, beside it; each optimised.
# NAME PROFILE WASM_OPT_LEVEL FEATURES...
split_module() {
  local name=$1 profile=$2 level=$3
  shift 3
  cargo rustc --target wasm32-unknown-unknown --profile "$profile" \
    --no-default-features "$@" --bin "$name" -- -C link-arg=--emit-relocs
  local built=$target_dir/wasm32-unknown-unknown/$profile/$name.wasm
  local cache=$target_dir/script-web/$profile-$level/$name
  if [ ! -f "$cache/built" ] || [ "$built" -nt "$cache/built" ]; then
    rm -rf "$cache"
    wasm-split-cli "$built" "$cache/split" --out-name "$name"
    # --keep-lld-exports: the split modules import the function table.
    wasm-bindgen --target web --no-typescript --keep-lld-exports --out-dir "$cache/out" \
      "$cache/split/$name.wasm"
    rm "$cache/split/$name.wasm"
    mv "$cache/split/"* "$cache/out/"
    for wasm in "$cache/out/"*.wasm; do
      wasm-opt "-$level" "$wasm" -o "$cache/opt.wasm"
      mv "$cache/opt.wasm" "$wasm"
    done
    touch "$cache/built"
  fi
  mkdir -p "$out/script"
  cp "$cache/out/"* "$out/script/"
}

# The script worker without swc and sqlparser; TypeScript's stripper and
# the SQL parser are modules of their own, loaded only for a script that is
# not JavaScript (src/typescript/) or that uses `pg` or a schema (src/sql/).
module interleave-model script-release Os
split_module interleave-script-model script-release Os --features engine-split
module interleave-typescript module-release Oz --features typescript
module interleave-sql module-release Oz --features sql
module interleave-analysis module-release Oz --features analysis
