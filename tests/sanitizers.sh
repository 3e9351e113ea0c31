#!/usr/bin/env bash
# The Rust side under the sanitizers, with the nightly toolchain (run by tests/run-all.sh;
# each part skips with a message where its tools are missing):
#
#  * AddressSanitizer (-Zsanitizer=address): the library's unit tests (the unsafe
#    parallel helpers, task systems and SIMD kernels among them), the no-allocation
#    tests of the step and of
#    collisions, the heap-integrity regression test, every C function fed bad input,
#    the API-sequence fuzzer (SINEW_FUZZ_CALLS, default 30 000 here) and the same-world
#    stress test (10 s). A filter that selects no test fails the run.
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
#   SINEW_SANITIZERS_BUILD_ONLY=1 tests/sanitizers.sh   # only build ASan's test binaries
#                                  # (run-all.sh starts this early, beside the stable build)
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
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
run() { # name, then the command; fails when a test binary it ran selected no test
  local name="$1"; shift
  local t0=$SECONDS
  echo "== $name"
  if "$@" 2>&1 | tee "$log" && ! grep -q "^running 0 tests" "$log"; then
    echo "== $name: ok ($((SECONDS - t0)) s)"
  else
    grep -q "^running 0 tests" "$log" && echo "== $name: a filter selected no test"
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
    # The build is most of this part's time (the dependencies, dev-dependencies
    # included, are built again, instrumented, by the nightly compiler): as in every
    # test build (Cargo.toml's profile.test), Sinew gets line tables only (all a report
    # needs: file and line of each frame) and the dependencies no debug info (their
    # frames still name their functions); here they also get opt-level 1, except glam,
    # whose maths the tests run, at opt-level 3 as in every profile.
    asan() {
      RUSTFLAGS="-Zsanitizer=address" \
        RUSTDOCFLAGS="-Zsanitizer=address" \
        ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1" \
        CARGO_TARGET_DIR=target/sanitizers/asan \
        SINEW_FUZZ_CALLS="${SINEW_FUZZ_CALLS:-30000}" \
        SINEW_STRESS_SECONDS="${SINEW_ASAN_STRESS_SECONDS:-10}" \
        cargo +nightly test "${build_std[@]}" --target "$host" --locked \
        --config 'profile.test.package."*".opt-level = 1' \
        --config 'profile.test.package.glam.opt-level = 3' "$@"
    }
    if [ "${SINEW_SANITIZERS_BUILD_ONLY:-0}" = 1 ]; then
      # Every binary the runs below use, in one build (they then start at once).
      asan --no-run --lib --test alloc --test ffi
      exit $?
    fi
    run "asan: unit tests" asan --lib
    run "asan: no_alloc, no_alloc_collisions, heap_integrity, bad input, fuzz_api, threads" \
      asan --test alloc --test ffi -- --nocapture \
      no_alloc:: no_alloc_collisions:: heap_integrity:: bad_input:: fuzz_api:: threads::
  fi
fi

# Build-only (run-all.sh): the ASan binaries are all it prepares ahead.
[ "${SINEW_SANITIZERS_BUILD_ONLY:-0}" = 1 ] && exit 0

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
    run "tsan: same-world stress" tsan --test ffi -- --nocapture threads::
    run "tsan: parallel helpers" tsan --lib -- solver::parallel solver::disjoint
    run "tsan: host task systems" tsan --lib ffi::task_system
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
