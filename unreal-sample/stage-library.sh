#!/usr/bin/env bash
# Copies the Sinew headers and a built library into the Unreal plugin, where
# Source/ThirdParty/SinewLibrary/SinewLibrary.Build.cs looks for them:
#   include/           sinew.h + bindings/cpp/*.hpp
#   lib/<Platform>/    the library for this platform (Linux, Mac or Win64)
#   lib/Android/<abi>/ libsinew.a of aarch64-linux-android (arm64-v8a), x86_64-linux-android (x86_64)
#   lib/IOS/           libsinew.a of aarch64-apple-ios
#
#   unreal-sample/stage-library.sh [PLUGIN_DIR] [LIBRARY]
#
# PLUGIN_DIR defaults to unreal-sample/Plugins/Sinew; LIBRARY defaults to the release
# build of this machine's platform (run `cargo build --release` first):
# target/release/libsinew.so, target/release/libsinew.dylib or target/release/sinew.dll
# (with sinew.dll.lib next to it). A static library for Android or iOS is recognised by
# the cargo target in its path, target/<triple>/release/libsinew.a, built with
#   cargo rustc --release --lib --target <triple> --crate-type staticlib
# (the static library needs no NDK linker; aarch64-apple-ios needs macOS with Xcode).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
plugin="${1:-$repo/unreal-sample/Plugins/Sinew}"
case "$(uname -s)" in
  Linux) default_lib="$repo/target/release/libsinew.so" ;;
  Darwin) default_lib="$repo/target/release/libsinew.dylib" ;;
  MINGW* | MSYS* | CYGWIN*) default_lib="$repo/target/release/sinew.dll" ;;
  *) echo "stage-library.sh: unknown platform $(uname -s); pass the library path" >&2; exit 2 ;;
esac
lib="${2:-$default_lib}"

if [ ! -f "$plugin/Sinew.uplugin" ]; then
  echo "stage-library.sh: $plugin is not the Sinew plugin (no Sinew.uplugin)" >&2
  exit 2
fi
if [ ! -f "$lib" ]; then
  echo "stage-library.sh: $lib not found; run 'cargo build --release' first" >&2
  exit 2
fi

third="$plugin/Source/ThirdParty/SinewLibrary"
mkdir -p "$third/include"
cp "$repo/include/sinew.h" "$third/include/"
cp "$repo"/bindings/cpp/*.hpp "$third/include/"

case "$(basename "$lib")" in
  libsinew.so)
    mkdir -p "$third/lib/Linux"
    cp "$lib" "$third/lib/Linux/libsinew.so"
    echo "staged $lib -> $third/lib/Linux"
    ;;
  libsinew.dylib)
    mkdir -p "$third/lib/Mac"
    cp "$lib" "$third/lib/Mac/libsinew.dylib"
    # Unreal loads it from the binaries folder: give it an @rpath install name.
    if command -v install_name_tool >/dev/null 2>&1; then
      install_name_tool -id @rpath/libsinew.dylib "$third/lib/Mac/libsinew.dylib"
    fi
    echo "staged $lib -> $third/lib/Mac"
    ;;
  sinew.dll)
    mkdir -p "$third/lib/Win64"
    cp "$lib" "$third/lib/Win64/sinew.dll"
    if [ ! -f "$lib.lib" ]; then
      echo "stage-library.sh: import library $lib.lib not found next to the DLL" >&2
      exit 2
    fi
    cp "$lib.lib" "$third/lib/Win64/sinew.dll.lib"
    echo "staged $lib -> $third/lib/Win64"
    ;;
  libsinew.a)
    case "$lib" in
      */aarch64-linux-android/*) dst="$third/lib/Android/arm64-v8a" ;;
      */x86_64-linux-android/*) dst="$third/lib/Android/x86_64" ;;
      */aarch64-apple-ios/*) dst="$third/lib/IOS" ;;
      *)
        echo "stage-library.sh: $lib: a static library must come from target/<triple>/release/ with triple aarch64-linux-android, x86_64-linux-android or aarch64-apple-ios" >&2
        exit 2
        ;;
    esac
    mkdir -p "$dst"
    cp "$lib" "$dst/libsinew.a"
    echo "staged $lib -> $dst"
    ;;
  *)
    echo "stage-library.sh: $lib is not libsinew.so, libsinew.dylib, sinew.dll or libsinew.a" >&2
    exit 2
    ;;
esac
echo "staged headers -> $third/include"
