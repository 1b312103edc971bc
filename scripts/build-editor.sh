#!/usr/bin/env bash
# Builds the <js-editor> web component with esbuild into web/editor/dist/:
# minified ES modules, whose entry, element.js (web/editor/element.js),
# defines the element with its plain view and nothing of CodeMirror. When
# the person reaches for the code, it evaluates what the editor takes from
# CodeMirror 6 in stages (web/editor/stages/), one task each, and then
# editor.js (with complete.js and its data completions.json); as one module
# they held the page's thread for 50 to 120 ms.
# Installs the node packages (npm ci, pinned by package-lock.json) only when
# one is missing or the lock file is newer than node_modules; rebuilds only
# when the bundle is older than a source (web/editor/*.js, *.json),
# package.json, package-lock.json or this script. A run with everything up to date is a quick no-op.
# FORCE=1 rebuilds anyway.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SRC=web/editor/element.js
SOURCES=(web/editor/*.js web/editor/stages/*.js web/editor/*.json)
OUT_DIR=web/editor/dist
OUT=$OUT_DIR/element.js
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

rm -rf "$OUT_DIR"
node_modules/.bin/esbuild "$SRC" --bundle --splitting --format=esm --minify --target=es2022 \
  --legal-comments=none --log-level=warning --outdir="$OUT_DIR"
echo "build-editor: $OUT_DIR/ $(cat "$OUT_DIR"/*.js | wc -c) bytes," \
  "$(cat "$OUT_DIR"/*.js | gzip -9 | wc -c) gzipped, in $(ls "$OUT_DIR" | wc -l) files" >&2
