#!/usr/bin/env bash
# Runs every test of Sinew on a fresh machine: formatting, lints, the Rust unit and
# integration tests (physics, C ABI from a gcc-compiled C program, the C++ wrapper via
# g++ plain and under ASan/UBSan, the Unity and Unreal package checks, bad input, header
# and docs freshness, the showcase's numbers, the API fuzzer, the same-world thread stress
# test), the C# bindings on Mono, then the Rust side under ASan/TSan/Miri where the nightly
# toolchain has them (tests/sanitizers.sh). Installs what it needs first (Debian/Ubuntu: apt-get, needs root or sudo).
#
#   tests/run-all.sh
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
# C# bindings: compiled by Mono's mcs and run on Mono (Unity's runtime).
command -v mcs >/dev/null 2>&1 || need_apt+=(mono-mcs)
command -v mono >/dev/null 2>&1 || need_apt+=(mono-runtime)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "== installing ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy -D warnings"
cargo clippy --all-targets --locked -- -D warnings

echo "== cargo test (Rust, C via gcc, C++ via g++, packages, docs, showcase)"
cargo test --locked

echo "== C# bindings on Mono, Unity package scripts"
tests/csharp/run.sh

echo "== sanitizers on the Rust side (ASan, TSan, Miri; nightly only, else skipped)"
tests/sanitizers.sh

echo "== all tests passed"
