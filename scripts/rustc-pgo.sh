#!/usr/bin/env bash
# Cargo's rustc wrapper (.cargo/config.toml): an optimised native build
# (`-C opt-level=3`, no `--target`) of any crate is compiled with the
# execution profile pgo/cli.profdata, recorded from the CLI's stampede runs
# by scripts/pgo.sh. Anything else (the wasm builds, build scripts,
# debug builds, the profiling build itself) runs rustc unchanged.
rustc=$1
shift
profile="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/pgo/cli.profdata"
case " $* " in
*" --target "* | *" -Cprofile-"* | *" -C profile-"*) ;;
*" -C opt-level=3 "*)
    if [ -f "$profile" ]; then
        exec "$rustc" "$@" -Cprofile-use="$profile"
    fi
    ;;
esac
exec "$rustc" "$@"
