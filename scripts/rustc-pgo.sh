#!/usr/bin/env bash
# Cargo's rustc wrapper (.cargo/config.toml): an optimised native build
# (`-C opt-level=3`, no `--target`) of any crate is compiled with the CLI's
# execution profile, pgo/cli-llvmN.profdata for rustc's LLVM version N,
# recorded from the CLI's stampede runs by scripts/pgo.sh. Anything else
# (the wasm builds, build scripts, debug builds, the profiling build
# itself, a rustc whose LLVM has no profile here) runs rustc unchanged.
rustc=$1
shift
case " $* " in
*" --target "* | *" -Cprofile-"* | *" -C profile-"*) ;;
*" -C opt-level=3 "*)
    llvm=$("$rustc" -vV 2>/dev/null | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
    profile="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/pgo/cli-llvm$llvm.profdata"
    if [ -n "$llvm" ] && [ -f "$profile" ]; then
        exec "$rustc" "$@" -Cprofile-use="$profile"
    fi
    ;;
esac
exec "$rustc" "$@"
