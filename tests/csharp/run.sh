#!/usr/bin/env bash
# Compiles the C# bindings and their tests with Mono's mcs (C# 7.2, as Unity's Mono
# profile accepts) and runs them on Mono against the library that `cargo build` has just
# built (or the one in SINEW_LIB_DIR), then twice more in separate processes: against a stand-in libsinew.so whose
# ABI version is 999 (must be refused, naming both versions) and with no library at all.
# Finally compiles the Unity package's scripts as Unity would, against the core package's
# assembly (bindings/csharp is the UPM package com.sinew.core, assembly Sinew.Core) and a
# compile-check stub of the few UnityEngine/UnityEditor types they use
# (tests/csharp/UnityStubs, never shipped), and runs two of them on Mono through that stub:
# the Unity jobs task system, and the components' edit-mode preview, motion vectors and
# MeshCollider distance fields.
#
#   tests/csharp/run.sh        (needs mcs, mono, gcc; tests/run-all.sh installs them)
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=target/csharp
MCS=(mcs -langversion:7.2 -unsafe -warnaserror -nologo)
rm -rf "$OUT" && mkdir -p "$OUT/abi999" "$OUT/nolib"

# The library under test: SINEW_LIB_DIR when set (tests/run-all.sh passes the one that
# its `cargo test` has just built, target/debug/deps, rather than compiling the library a
# second time with the features of a plain build), else a fresh `cargo build`.
if [ -n "${SINEW_LIB_DIR:-}" ]; then
  LIB="$SINEW_LIB_DIR"
else
  cargo build --locked --quiet
  LIB=target/debug
fi
[ -f "$LIB/libsinew.so" ] || { echo "no libsinew.so in $LIB" >&2; exit 1; }

echo "== C#: bindings + tests (mcs, Mono)"
"${MCS[@]}" -target:library -out:"$OUT/Sinew.Core.dll" -recurse:'bindings/csharp/*.cs'
# ColliderShapes (the Unity package's collider mapping) uses Sinew types only: it is
# compiled into the tests and checked against the library.
# So is SinewAuthoring, the engine-neutral half of SinewRope / SinewCloth (the options
# they build and edit their bodies with), SinewFluidAuthoring, SinewFluid's, and
# SinewSoftBodyAuthoring, SinewSoftBody's.
"${MCS[@]}" -target:exe -out:"$OUT/SinewTests.exe" -r:"$OUT/Sinew.Core.dll" tests/csharp/*.cs \
  unity-sample/Runtime/ColliderShapes.cs unity-sample/Runtime/SinewAuthoring.cs \
  unity-sample/Runtime/SinewFluidAuthoring.cs unity-sample/Runtime/SinewSoftBodyAuthoring.cs
LD_LIBRARY_PATH="$LIB" mono --debug "$OUT/SinewTests.exe"

echo "== C#: a binary with another ABI version is refused"
cat > "$OUT/abi999/fake.c" <<'C'
#include <stdint.h>
uint32_t sinew_abi_version(void) { return 999; }
C
gcc -shared -fPIC -o "$OUT/abi999/libsinew.so" "$OUT/abi999/fake.c"
LD_LIBRARY_PATH="$OUT/abi999" mono --debug "$OUT/SinewTests.exe" --abi-mismatch

echo "== C#: a missing library is a SinewLibraryException"
LD_LIBRARY_PATH="$OUT/nolib" mono --debug "$OUT/SinewTests.exe" --no-library

echo "== C#: Unity package scripts compile (against Sinew.Core.dll and tests/csharp/UnityStubs)"
# The stub twice: as the editor sees it (UnityEditor declared) and as a player build does
# (no UnityEditor: runtime code that uses it outside #if UNITY_EDITOR fails to compile).
STUB_DEFINES="UNITY_EDITOR;UNITY_2021_3_OR_NEWER"
PLAYER_DEFINES="UNITY_2021_3_OR_NEWER"
"${MCS[@]}" -target:library -nowarn:67,649 -define:"$STUB_DEFINES" -out:"$OUT/UnityEngineStub.dll" \
  -recurse:'tests/csharp/UnityStubs/*.cs'
mkdir -p "$OUT/player"
"${MCS[@]}" -target:library -nowarn:67,649 -define:"$PLAYER_DEFINES" -out:"$OUT/player/UnityEngineStub.dll" \
  -recurse:'tests/csharp/UnityStubs/*.cs'
"${MCS[@]}" -target:library -define:"$PLAYER_DEFINES" -r:"$OUT/player/UnityEngineStub.dll" \
  -r:"$OUT/Sinew.Core.dll" -out:"$OUT/player/Sinew.Runtime.dll" -recurse:'unity-sample/Runtime/*.cs'
"${MCS[@]}" -target:library -define:"$STUB_DEFINES" -r:"$OUT/UnityEngineStub.dll" \
  -r:"$OUT/Sinew.Core.dll" -out:"$OUT/Sinew.Runtime.dll" -recurse:'unity-sample/Runtime/*.cs'
# The editor assembly (Sinew.Editor: inspectors), editor-only like its asmdef, and each
# sample as its own assembly. Unity's compiler refuses unsafe code in an assembly whose
# asmdef does not set allowUnsafeCode, so these are compiled with -unsafe only where their
# asmdef allows it (Sinew.Core and Sinew.Runtime above allow it).
MCS_SAFE=(mcs -langversion:7.2 -warnaserror -nologo)
asmdef_unsafe() { if grep -q '"allowUnsafeCode": *true' "$1"/*.asmdef; then echo "-unsafe"; fi; }
"${MCS_SAFE[@]}" $(asmdef_unsafe unity-sample/Editor) -target:library -define:"$STUB_DEFINES" \
  -r:"$OUT/UnityEngineStub.dll" -r:"$OUT/Sinew.Core.dll" \
  -r:"$OUT/Sinew.Runtime.dll" -out:"$OUT/Sinew.Editor.dll" -recurse:'unity-sample/Editor/*.cs'
mkdir -p "$OUT/samples"
for sample in unity-sample/Samples~/*/; do
  sample="${sample%/}"
  "${MCS_SAFE[@]}" $(asmdef_unsafe "$sample") -target:library -r:"$OUT/UnityEngineStub.dll" -r:"$OUT/Sinew.Core.dll" \
    -r:"$OUT/Sinew.Runtime.dll" -out:"$OUT/samples/$(basename "$sample").dll" -recurse:"$sample/*.cs"
done
echo "unity-sample scripts compile"

echo "== C#: SinewJobsTaskSystem steps a world through the Unity.Jobs stub (Mono)"
"${MCS[@]}" -target:exe -r:"$OUT/UnityEngineStub.dll" -r:"$OUT/Sinew.Core.dll" -r:"$OUT/Sinew.Runtime.dll" \
  -out:"$OUT/JobsTaskSystemCheck.exe" tests/csharp/UnityJobs/JobsTaskSystemCheck.cs
LD_LIBRARY_PATH="$LIB" mono --debug "$OUT/JobsTaskSystemCheck.exe"

echo "== C#: the components through the stub's editor (Mono): edit-mode preview, motion vectors, MeshCollider fields"
"${MCS[@]}" -target:exe -define:"$STUB_DEFINES" -r:"$OUT/UnityEngineStub.dll" -r:"$OUT/Sinew.Core.dll" \
  -r:"$OUT/Sinew.Runtime.dll" -out:"$OUT/UnityComponentChecks.exe" -recurse:'tests/csharp/UnityComponents/*.cs'
LD_LIBRARY_PATH="$LIB" mono --debug "$OUT/UnityComponentChecks.exe"
