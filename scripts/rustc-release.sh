#!/usr/bin/env bash
# Cargo's rustc wrapper (.cargo/config.toml) for an optimised native build
# (`-C opt-level=3`, no `--target`); anything else (the wasm builds, build
# scripts, debug builds, the profiling build itself) runs rustc unchanged.
# It adds:
# - to every crate, the CLI's execution profile, pgo/cli-llvmN.profdata
#   for rustc's LLVM version N (recorded by scripts/pgo.sh), if there is
#   one for that LLVM;
# - to the CLI's binary crate on Linux with glibc, a static,
#   position-dependent link: a user times the whole `interleave run`
#   process, and the dynamic loader's work (libc, libm, libgcc_s) was
#   0.65 ms of a one-request run's 2.2 ms. Per crate, since a static C
#   runtime in `rustflags` would reach the proc-macro crates too.
# docs/architecture.md, "Builds".
rustc=$1
shift
case " $* " in
*" --target "* | *" -Cprofile-"* | *" -C profile-"*) ;;
*" -C opt-level=3 "*)
    version=$("$rustc" -vV 2>/dev/null)
    flags=()
    llvm=$(sed -n 's/^LLVM version: \([0-9]*\).*/\1/p' <<<"$version")
    profile="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/pgo/cli-llvm$llvm.profdata"
    if [ -n "$llvm" ] && [ -f "$profile" ]; then
        flags+=("-Cprofile-use=$profile")
    fi
    case " $* " in
    *" --crate-name interleave "*" --crate-type bin "*)
        if [[ $(sed -n 's/^host: //p' <<<"$version") == *-linux-gnu ]]; then
            flags+=(-Ctarget-feature=+crt-static -Crelocation-model=static)
        fi
        ;;
    esac
    exec "$rustc" "$@" "${flags[@]}"
    ;;
esac
exec "$rustc" "$@"
