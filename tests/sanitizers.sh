#!/usr/bin/env bash
# The Rust side under the sanitizers, with the nightly toolchain (run by tests/run-all.sh;
# each part skips with a message where its tools are missing):
#
#  * AddressSanitizer (-Zsanitizer=address): the library's unit tests (the unsafe
#    parallel helpers and SIMD kernels), the no-allocation tests, the heap-integrity
#    regression test, every C function fed bad input, the API-sequence fuzzer
#    (SINEW_FUZZ_CALLS, default 30 000 here) and the same-world stress test (10 s).
#  * ThreadSanitizer (-Zsanitizer=thread, needs the rust-src component for -Zbuild-std):
#    the same-world stress test (SINEW_STRESS_SECONDS, default 60 s here) and the
#    parallel helpers' unit tests.
#  * Miri: the disjoint-write helpers (`DisjointSlice`, `Rows`) and the distance
#    kernel's portable code
#    (`cargo +nightly miri`, where the miri component is installed).
#
# The C, C++ and C# consumers run under ASan/UBSan in `cargo test` already (c_abi links a
# plain C program, so it is not part of the Rust-side runs: an instrumented libsinew.so
# needs the ASan runtime in the host program).
#
#   tests/sanitizers.sh            # all parts
#   SINEW_SANITIZERS="asan tsan" tests/sanitizers.sh
set -uo pipefail
cd "$(dirname "$0")/.."

parts="${SINEW_SANITIZERS:-asan tsan miri}"
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "== sanitizers: skipped (no nightly toolchain: rustup toolchain install nightly)"
  exit 0
fi
host="$(rustc +nightly -vV | sed -n 's/^host: //p')"
sysroot="$(rustc +nightly --print sysroot)"
build_std=()
if [ -d "$sysroot/lib/rustlib/src/rust/library" ]; then
  build_std=(-Zbuild-std)
fi
failed=0
run() { # name, then the command
  local name="$1"; shift
  local t0=$SECONDS
  echo "== $name"
  if "$@"; then
    echo "== $name: ok ($((SECONDS - t0)) s)"
  else
    echo "== $name: FAILED ($((SECONDS - t0)) s)"
    failed=1
  fi
}

if [[ " $parts " == *" asan "* ]]; then
  if [ "$host" != "x86_64-unknown-linux-gnu" ] && [ ${#build_std[@]} -eq 0 ]; then
    echo "== asan: skipped (needs rust-src on $host: rustup component add --toolchain nightly rust-src)"
  else
    # Without rust-src, ASan runs with the prebuilt (uninstrumented) std, which on
    # x86_64 Linux still checks every access made by Sinew's own code.
    asan() {
      RUSTFLAGS="-Zsanitizer=address" \
        RUSTDOCFLAGS="-Zsanitizer=address" \
        ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1" \
        CARGO_TARGET_DIR=target/sanitizers/asan \
        SINEW_FUZZ_CALLS="${SINEW_FUZZ_CALLS:-30000}" \
        SINEW_STRESS_SECONDS="${SINEW_ASAN_STRESS_SECONDS:-10}" \
        cargo +nightly test "${build_std[@]}" --target "$host" --locked "$@"
    }
    run "asan: unit tests" asan --lib
    run "asan: no_alloc, ffi_bad_input, heap_integrity, fuzz_api, threads" \
      asan --test no_alloc --test no_alloc_collisions --test ffi_bad_input --test heap_integrity \
      --test fuzz_api --test threads -- --nocapture
  fi
fi

if [[ " $parts " == *" tsan "* ]]; then
  if [ ${#build_std[@]} -eq 0 ]; then
    echo "== tsan: skipped (ThreadSanitizer needs an instrumented std: rustup component add --toolchain nightly rust-src)"
  else
    tsan() {
      # crossbeam (under rayon) uses fences that TSan does not model; its
      # `crossbeam_sanitize_thread` cfg switches them to what TSan understands.
      RUSTFLAGS="-Zsanitizer=thread --cfg crossbeam_sanitize_thread" \
        RUSTDOCFLAGS="-Zsanitizer=thread" \
        TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" \
        CARGO_TARGET_DIR=target/sanitizers/tsan \
        SINEW_STRESS_SECONDS="${SINEW_STRESS_SECONDS:-60}" \
        cargo +nightly test "${build_std[@]}" --target "$host" --locked "$@"
    }
    run "tsan: same-world stress" tsan --test threads -- --nocapture
    run "tsan: parallel helpers" tsan --lib -- solver::parallel solver::disjoint
    run "tsan: host task systems" tsan --lib solver::tasks
  fi
fi

if [[ " $parts " == *" miri "* ]]; then
  if ! cargo +nightly miri --version >/dev/null 2>&1; then
    echo "== miri: skipped (rustup component add --toolchain nightly miri)"
  else
    run "miri: disjoint writes, portable distance kernel" \
      env CARGO_TARGET_DIR=target/sanitizers/miri MIRIFLAGS="-Zmiri-disable-isolation" \
      cargo +nightly miri test --locked --lib -- \
      solver::disjoint::tests \
      kernels::distance::tests
  fi
fi

if [ "$failed" -ne 0 ]; then
  echo "== sanitizers: FAILED"
  exit 1
fi
echo "== sanitizers: all passed"
