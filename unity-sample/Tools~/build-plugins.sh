#!/usr/bin/env bash
# Builds the Sinew native library in release mode and copies it into this package's
# Plugins/ folder, next to the committed .meta files that hold its importer settings.
#
#   unity-sample/Tools~/build-plugins.sh                 # this machine's platform
#   unity-sample/Tools~/build-plugins.sh --target T ...  # the targets you name
#   unity-sample/Tools~/build-plugins.sh --all           # every target below
#
# Targets and where their binary goes (Plugins/...):
#   x86_64-unknown-linux-gnu     libsinew.so    -> Linux/x86_64/
#   x86_64-pc-windows-msvc       sinew.dll      -> Windows/x86_64/        (on Windows)
#   aarch64-apple-darwin,
#   x86_64-apple-darwin          libsinew.dylib -> macOS/ (lipo'd universal when both build)
#   aarch64-apple-ios            libsinew.a     -> iOS/ (device)            (on macOS, Xcode)
#   aarch64-apple-ios-sim,
#   x86_64-apple-ios             libsinew.a     -> iOS/Simulator/ (lipo'd)  (on macOS, Xcode)
#   aarch64-linux-android        libsinew.so    -> Android/arm64-v8a/       (Android NDK)
#   x86_64-linux-android         libsinew.so    -> Android/x86_64/          (Android NDK)
#   wasm32-unknown-emscripten    libsinew.a     -> WebGL/ (static)          (emscripten)
#
# A target whose toolchain is missing here (its Rust standard library, the NDK's linker,
# Xcode, emcc) is skipped with a message naming what to install; the other targets still
# build. The exit status is 1 when a build that could run failed, 0 otherwise; the
# summary lists what was built and what was skipped.
#
# Android: set ANDROID_NDK_HOME (or put the NDK's <triple><api>-clang on PATH, or set
# CARGO_TARGET_<TRIPLE>_LINKER); ANDROID_API picks the minimum API level (default 23).
# WebGL: emscripten's emcc on PATH. The static library is built with -C panic=abort, so
# it links into a player without WebAssembly exception handling (a panic inside Sinew,
# a bug, then aborts the player instead of returning SINEW_ERROR_INTERNAL); with
# SINEW_WEBGL_UNWIND=1 it keeps unwinding and the player must be linked with
# -fwasm-exceptions. The world runs on one thread there (docs/unity.md, "Platforms").
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/.." && pwd)"
cd "$repo"

all_targets=(
  x86_64-unknown-linux-gnu x86_64-pc-windows-msvc aarch64-apple-darwin x86_64-apple-darwin
  aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios
  aarch64-linux-android x86_64-linux-android wasm32-unknown-emscripten
)
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --target) targets+=("$2"); shift 2 ;;
    --all) targets+=("${all_targets[@]}"); shift ;;
    -h|--help) sed -n 2,34p "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  targets=("$(rustc -vV | sed -n 's/^host: //p')")
fi

host_os="$(uname -s)"
built=()
skipped=()
failed=()
mac_slices=()
sim_slices=()

skip() { # target, reason
  echo "-- skipping $1: $2"
  skipped+=("$1 ($2)")
}

# The Rust standard library of the target, when rustup manages the toolchain.
has_std() {
  if command -v rustup >/dev/null 2>&1; then
    rustup target list --installed 2>/dev/null | grep -qx "$1"
  else
    return 0 # not rustup: let cargo say
  fi
}

# Exports the linker of an Android target found in the NDK; false when there is none.
android_linker() { # target
  local t="$1" api="${ANDROID_API:-23}" var clang
  var="CARGO_TARGET_$(echo "$t" | tr 'a-z-' 'A-Z_')_LINKER"
  if [ -n "${!var:-}" ]; then
    return 0
  fi
  clang="$t$api-clang"
  if command -v "$clang" >/dev/null 2>&1; then
    export "$var=$clang"
    return 0
  fi
  if [ -n "${ANDROID_NDK_HOME:-}" ]; then
    for bin in "$ANDROID_NDK_HOME"/toolchains/llvm/prebuilt/*/bin; do
      if [ -x "$bin/$clang" ]; then
        export "$var=$bin/$clang"
        export "AR_$(echo "$t" | tr '-' '_')=$bin/llvm-ar"
        return 0
      fi
    done
  fi
  return 1
}

# Why target $1 cannot build here (empty when it can).
missing_toolchain() {
  local t="$1"
  if ! has_std "$t"; then
    echo "its standard library is not installed (rustup target add $t)"
    return
  fi
  case "$t" in
    *-apple-ios|*-apple-ios-sim)
      if [ "$host_os" != Darwin ] || ! xcrun --sdk iphoneos --show-sdk-path >/dev/null 2>&1; then
        echo "needs macOS with Xcode (the iOS SDK)"
      fi ;;
    *-apple-darwin)
      if [ "$host_os" != Darwin ]; then echo "needs macOS (Xcode's linker)"; fi ;;
    *-pc-windows-msvc)
      case "$host_os" in MINGW*|MSYS*|CYGWIN*) ;; *) echo "needs Windows with the MSVC build tools" ;; esac ;;
    *-linux-android)
      local var="CARGO_TARGET_$(echo "$t" | tr 'a-z-' 'A-Z_')_LINKER"
      if [ -z "${!var:-}" ]; then
        echo "needs the Android NDK (set ANDROID_NDK_HOME, or $var)"
      fi ;;
    wasm32-unknown-emscripten)
      if ! command -v emcc >/dev/null 2>&1; then
        echo "needs emscripten's emcc on PATH (emsdk, or apt-get install emscripten)"
      fi ;;
  esac
}

for t in "${targets[@]}"; do
  case "$t" in
    x86_64-unknown-linux-gnu) dst="Linux/x86_64"; file="libsinew.so"; kind=cdylib ;;
    x86_64-pc-windows-msvc|x86_64-pc-windows-gnu) dst="Windows/x86_64"; file="sinew.dll"; kind=cdylib ;;
    aarch64-apple-darwin|x86_64-apple-darwin) dst=""; file="libsinew.dylib"; kind=cdylib ;;
    aarch64-apple-ios) dst="iOS"; file="libsinew.a"; kind=staticlib ;;
    aarch64-apple-ios-sim|x86_64-apple-ios) dst=""; file="libsinew.a"; kind=staticlib ;;
    aarch64-linux-android) dst="Android/arm64-v8a"; file="libsinew.so"; kind=cdylib ;;
    x86_64-linux-android) dst="Android/x86_64"; file="libsinew.so"; kind=cdylib ;;
    wasm32-unknown-emscripten) dst="WebGL"; file="libsinew.a"; kind=staticlib ;;
    *) echo "no Plugins/ folder for target $t" >&2; exit 2 ;;
  esac
  case "$t" in *-linux-android) android_linker "$t" || true ;; esac # exports the linker
  why="$(missing_toolchain "$t")"
  if [ -n "$why" ]; then
    skip "$t" "$why"
    continue
  fi
  if [ "$t" = wasm32-unknown-emscripten ] && [ "${SINEW_WEBGL_UNWIND:-0}" != 1 ]; then
    export CARGO_TARGET_WASM32_UNKNOWN_EMSCRIPTEN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_EMSCRIPTEN_RUSTFLAGS:-} -C panic=abort"
  fi
  echo "== cargo rustc --release --target $t --crate-type $kind"
  if ! cargo rustc --release --locked --lib --target "$t" --crate-type "$kind"; then
    echo "!! $t failed to build" >&2
    failed+=("$t")
    continue
  fi
  out="target/$t/release/$file"
  case "$t" in
    *-apple-darwin) mac_slices+=("$out"); built+=("$t"); continue ;;
    aarch64-apple-ios-sim|x86_64-apple-ios) sim_slices+=("$out"); built+=("$t"); continue ;;
  esac
  mkdir -p "$here/Plugins/$dst"
  cp "$out" "$here/Plugins/$dst/$file"
  echo "   -> unity-sample/Plugins/$dst/$file"
  built+=("$t")
done

# One universal file from the slices of a platform (lipo: macOS only).
universal() { # destination folder, file, slices...
  local dst="$1" file="$2"
  shift 2
  mkdir -p "$here/Plugins/$dst"
  if [ $# -gt 1 ]; then
    lipo -create "$@" -output "$here/Plugins/$dst/$file" || { failed+=("lipo $dst/$file"); return; }
  else
    cp "$1" "$here/Plugins/$dst/$file"
  fi
  echo "   -> unity-sample/Plugins/$dst/$file"
}
if [ ${#mac_slices[@]} -gt 0 ]; then
  universal macOS libsinew.dylib "${mac_slices[@]}"
fi
if [ ${#sim_slices[@]} -gt 0 ]; then
  universal iOS/Simulator libsinew.a "${sim_slices[@]}"
fi

echo
echo "built:   ${built[*]:-nothing}"
for s in ${skipped[@]+"${skipped[@]}"}; do echo "skipped: $s"; done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED:  ${failed[*]}" >&2
  exit 1
fi
