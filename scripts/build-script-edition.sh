#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): the page's script edition, loaded
# only when a script scenario opens (web/boot.js). It is the same app built
# with the JavaScript engine (feature `script-wasm`, bin
# `interleave-script-web`), plus the <js-editor> component
# (scripts/build-editor.sh) and its modules (src/script/modules.rs):
# TypeScript's stripper (bin `interleave-typescript`), the SQL parser
# (`interleave-sql`) and explore's analysis (`interleave-analysis`).
# Writes into Trunk's staging directory:
#   script/interleave-{script-web,typescript,sql,analysis}.js and _bg.wasm,
#   editor/ (load.js, its entry, and its chunks)
# The edition is always the `script-release` profile (opt-level "s", and
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

# The edition without swc and sqlparser; TypeScript's stripper and the SQL
# parser are modules of their own, loaded only for a script that is not
# JavaScript (src/typescript/) or that uses `pg` or a schema (src/sql/).
module interleave-model script-release Os
module interleave-script-web script-release Os --features script-wasm
module interleave-typescript module-release Oz --features typescript
module interleave-sql module-release Oz --features sql
module interleave-analysis module-release Oz --features analysis
