#!/usr/bin/env bash
# Builds the <js-editor> web component (web/editor/editor.js, CodeMirror 6,
# with complete.js and its data completions.json) into one minified ES
# module, web/editor/dist/editor.js, with esbuild.
# Installs the node packages (npm ci, pinned by package-lock.json) only when
# one is missing or the lock file is newer than node_modules; rebuilds only
# when the bundle is older than a source (web/editor/*.js, *.json),
# package.json, package-lock.json or this script. A run with everything up to date is a quick no-op.
# FORCE=1 rebuilds anyway.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SRC=web/editor/editor.js
SOURCES=(web/editor/*.js web/editor/*.json)
OUT=web/editor/dist/editor.js
PACKAGES=(@codemirror/state @codemirror/view @codemirror/commands @codemirror/language
  @codemirror/lang-javascript @codemirror/autocomplete @lezer/highlight esbuild)

need_install=0
for p in "${PACKAGES[@]}"; do
  [ -f "node_modules/$p/package.json" ] || need_install=1
done
[ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ] || need_install=1
if [ "$need_install" = 1 ]; then
  echo "build-editor: installing node packages (npm ci)" >&2
  npm ci --no-audit --no-fund
fi

if [ "${FORCE:-0}" != 1 ] && [ -f "$OUT" ] &&
  [ "$OUT" -nt package.json ] && [ "$OUT" -nt package-lock.json ] &&
  [ "$OUT" -nt "${BASH_SOURCE[0]}" ]; then
  stale=0
  for f in "${SOURCES[@]}"; do
    [ "$OUT" -nt "$f" ] || stale=1
  done
  [ "$stale" = 1 ] || exit 0
fi

mkdir -p "$(dirname "$OUT")"
node_modules/.bin/esbuild "$SRC" --bundle --format=esm --minify --target=es2020 \
  --legal-comments=none --log-level=warning --outfile="$OUT"
echo "build-editor: $OUT $(wc -c <"$OUT") bytes, $(gzip -9c "$OUT" | wc -c) gzipped" >&2
