#!/usr/bin/env bash
# Runs every test of Sinew on a fresh machine (CI runs it through .ci/run): formatting,
# lints, then `cargo test`: the library's unit and doc tests and the five integration
# binaries, one per area (tests/<area>/main.rs):
#   physics   closed forms, families, bodies, collisions, edits, tearing, wind, skinning,
#             snapshots, the showcase's numbers, the trajectory hashes
#   fluids    the fluid solver, boundaries, lifecycle, bodies in fluids
#   ffi       the C ABI from gcc-compiled C, bad input, accepted ranges, header and docs
#             freshness, the API fuzzer, the same-world thread stress test, task systems
#   bindings  the C++ wrapper and Unreal plugin via g++ (plain and under ASan/UBSan),
#             the generated C# layer, the Unity package, the plugin build scripts
#   alloc     the no-allocation tests, heap integrity, the single-threaded world
# then the C# bindings on Mono (tests/csharp/run.sh), then the Rust side under ASan (and
# TSan and Miri where installed) with the nightly toolchain (tests/sanitizers.sh).
# Installs what it needs first (Debian/Ubuntu: apt-get, needs root or sudo). Each part
# prints its time; README ("Testing") says what runs here and what runs on demand.
#
#   tests/run-all.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# A one-shot build gains nothing from incremental compilation (it only writes its caches).
export CARGO_INCREMENTAL=0

need_apt=()
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
# C# bindings: compiled by Mono's mcs and run on Mono (Unity's runtime).
command -v mcs >/dev/null 2>&1 || need_apt+=(mono-mcs)
command -v mono >/dev/null 2>&1 || need_apt+=(mono-runtime)
# Wanted, not needed: the Unreal Niagara data interface's generated HLSL is compiled by
# glslang's HLSL front end and executed on Mesa's CPU Vulkan driver (lavapipe) by
# tests/cpp/unreal_niagara_test.cpp, which skips those checks (saying so) without them; a
# failed install of these is reported and the run goes on.
want_apt=()
command -v glslangValidator >/dev/null 2>&1 || want_apt+=(glslang-tools)
[ -f /usr/include/vulkan/vulkan.h ] || want_apt+=(libvulkan-dev)
ls /usr/share/vulkan/icd.d/lvp_icd.*.json >/dev/null 2>&1 || want_apt+=(mesa-vulkan-drivers)

start=$SECONDS
bg_pids=()
logs="$(mktemp -d)"
# Background parts run in their own process groups: a failure stops them, children too.
trap 'for p in "${bg_pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done; rm -rf "$logs"' EXIT

# The package install waits on the network: it runs while clippy compiles, and the
# parts that need its tools wait for it.
apt_pid=""
# The needed packages must install; the wanted ones may fail (no such package, no
# network when nothing is needed), which is reported and skips their checks.
install_packages() {
  local sudo="" install
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  install="$sudo apt-get install -y -qq"
  if ! $sudo apt-get update -qq; then
    [ -n "$NEED_APT" ] && return 1
  fi
  if [ -n "$NEED_APT" ]; then
    DEBIAN_FRONTEND=noninteractive $install $NEED_APT || return 1
  fi
  if [ -n "$WANT_APT" ] && ! DEBIAN_FRONTEND=noninteractive $install $WANT_APT; then
    echo "== optional packages ($WANT_APT) not installed: the checks that use them skip"
  fi
  return 0
}
if [ $((${#need_apt[@]} + ${#want_apt[@]})) -gt 0 ]; then
  echo "== installing ${need_apt[*]} ${want_apt[*]} (in the background)"
  export NEED_APT="${need_apt[*]}" WANT_APT="${want_apt[*]}"
  export -f install_packages
  setsid bash -c install_packages >"$logs/apt.log" 2>&1 &
  apt_pid=$!
  bg_pids+=("$apt_pid")
fi
wait_apt() {
  [ -z "$apt_pid" ] && return 0
  if ! wait "$apt_pid"; then
    cat "$logs/apt.log"; echo "== installing ${need_apt[*]}: FAILED"; exit 1
  fi
  grep '^== optional' "$logs/apt.log" || true
  echo "== installed ${need_apt[*]} ${want_apt[*]}"
  apt_pid=""
}

part() { # title, then the command
  local title="$1" t0=$SECONDS; shift
  echo "== $title"
  "$@"
  echo "== $title: $((SECONDS - t0)) s"
}

part "cargo fmt --check" cargo fmt --all -- --check
# The sanitizers' instrumented build (nightly; the longest build here) starts now and
# shares the two cores with clippy and `cargo test`, filling the time their serial
# phases (the front end of each crate, linking, the last long test) leave idle.
SINEW_SANITIZERS_BUILD_ONLY=1 setsid tests/sanitizers.sh >"$logs/sanitizers-build.log" 2>&1 &
san_build=$!
bg_pids+=("$san_build")
part "cargo clippy -D warnings" cargo clippy --all-targets --locked -- -D warnings
wait_apt
part "cargo test (unit, doc, physics, fluids, ffi, bindings, alloc)" cargo test --locked
# The C# tests load the library that `cargo test` has just built (no second build).
part "C# bindings on Mono, Unity package scripts" env SINEW_LIB_DIR=target/debug/deps tests/csharp/run.sh
t0=$SECONDS
if ! wait "$san_build"; then
  cat "$logs/sanitizers-build.log"; echo "== sanitizers' build: FAILED"; exit 1
fi
echo "== sanitizers' build (in the background; waited $((SECONDS - t0)) s for it)"
tail -n 3 "$logs/sanitizers-build.log"
part "sanitizers on the Rust side (ASan; TSan, Miri where installed; nightly only)" \
  tests/sanitizers.sh

echo "== all tests passed ($((SECONDS - start)) s)"
