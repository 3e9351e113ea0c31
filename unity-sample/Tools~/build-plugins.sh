#!/usr/bin/env bash
# Builds the Sinew native library in release mode and copies it into this package's
# Plugins/ folder, next to the committed .meta files that hold its importer settings.
#
#   unity-sample/Tools~/build-plugins.sh                 # this machine's platform
#   unity-sample/Tools~/build-plugins.sh --target T ...  # cross targets you have set up
#
# Targets and where their binary goes:
#   x86_64-unknown-linux-gnu   libsinew.so     -> Plugins/Linux/x86_64/
#   x86_64-pc-windows-msvc     sinew.dll       -> Plugins/Windows/x86_64/
#   aarch64-apple-darwin,
#   x86_64-apple-darwin        libsinew.dylib  -> Plugins/macOS/ (lipo'd universal when both are given)
#   aarch64-apple-ios          libsinew.a      -> Plugins/iOS/
#   aarch64-linux-android      libsinew.so     -> Plugins/Android/arm64-v8a/ (needs the NDK linker)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(cd "$here/.." && pwd)"
cd "$repo"

targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --target) targets+=("$2"); shift 2 ;;
    -h|--help) sed -n 2,16p "$0"; exit 0 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  targets=("$(rustc -vV | sed -n 's/^host: //p')")
fi

mac_slices=()
for t in "${targets[@]}"; do
  echo "== cargo build --release --target $t"
  cargo build --release --locked --target "$t"
  out="target/$t/release"
  case "$t" in
    x86_64-unknown-linux-gnu) dst="Plugins/Linux/x86_64"; file="libsinew.so" ;;
    x86_64-pc-windows-msvc|x86_64-pc-windows-gnu) dst="Plugins/Windows/x86_64"; file="sinew.dll" ;;
    aarch64-apple-darwin|x86_64-apple-darwin) mac_slices+=("$out/libsinew.dylib"); continue ;;
    aarch64-apple-ios) dst="Plugins/iOS"; file="libsinew.a" ;;
    aarch64-linux-android) dst="Plugins/Android/arm64-v8a"; file="libsinew.so" ;;
    *) echo "no Plugins/ folder for target $t" >&2; exit 2 ;;
  esac
  mkdir -p "$here/$dst"
  cp "$out/$file" "$here/$dst/$file"
  echo "   -> unity-sample/$dst/$file"
done
if [ ${#mac_slices[@]} -gt 0 ]; then
  mkdir -p "$here/Plugins/macOS"
  if [ ${#mac_slices[@]} -gt 1 ]; then
    lipo -create "${mac_slices[@]}" -output "$here/Plugins/macOS/libsinew.dylib"
  else
    cp "${mac_slices[0]}" "$here/Plugins/macOS/libsinew.dylib"
  fi
  echo "   -> unity-sample/Plugins/macOS/libsinew.dylib"
fi
