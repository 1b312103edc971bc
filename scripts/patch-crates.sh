#!/usr/bin/env bash
# Makes patched/NAME-VERSION for each patches/NAME-VERSION/: the pristine
# release from crates.io with that folder's patches applied in order, which
# Cargo.toml's [patch.crates-io] builds instead of the release. Every cargo
# command in this checkout needs them, so scripts/setup.sh runs this first.
#
# The release comes through cargo itself: `cargo fetch` of
# patches/pristine/Cargo.toml (which names each release, pinned with `=`)
# downloads it into cargo's cache and checks its checksum against
# patches/pristine/Cargo.lock. A patch that no longer applies fails here,
# loudly, and so fails CI (scripts/test.sh sources setup.sh).
#
# A run with every patched/ copy up to date (same patches, same script) is
# a quick no-op.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

registry_cache() {
  local cache
  for cache in "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/; do
    if [ -f "$cache/$1.crate" ]; then
      echo "$cache/$1.crate"
      return
    fi
  done
}

mkdir -p patched
for dir in patches/*/; do
  release=$(basename "$dir")
  [ "$release" = pristine ] && continue
  stamp=$(cat "${BASH_SOURCE[0]}" "$dir"*.patch | sha256sum | cut -d' ' -f1)
  out=patched/$release
  if [ -f "$out/.patched" ] && [ "$(cat "$out/.patched")" = "$stamp" ]; then
    continue
  fi
  crate=$(registry_cache "$release")
  if [ -z "$crate" ]; then
    # A workspace of its own: cargo looks no further up for one.
    CARGO_TARGET_DIR=patched/.target cargo fetch --quiet --locked \
      --manifest-path patches/pristine/Cargo.toml
    crate=$(registry_cache "$release")
  fi
  if [ -z "$crate" ]; then
    echo "patch-crates: $release is not in patches/pristine/Cargo.toml" >&2
    exit 1
  fi
  echo "patch-crates: $release with $(ls "$dir"*.patch | wc -l) patch(es)" >&2
  rm -rf "$out" "$out.tmp"
  mkdir -p "$out.tmp"
  tar -xzf "$crate" -C "$out.tmp"
  for patch in "$dir"*.patch; do
    # Outside any repository (not this one, which holds patched/): git
    # apply then works as patch(1) does, and fails on a hunk that does not
    # apply.
    (cd "$out.tmp/$release" &&
      GIT_CEILING_DIRECTORIES="$OLDPWD/patched" git apply --verbose - < "$OLDPWD/$patch") >&2
  done
  mv "$out.tmp/$release" "$out"
  rmdir "$out.tmp"
  echo "$stamp" > "$out/.patched"
done
