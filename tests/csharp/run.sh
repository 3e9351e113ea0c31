#!/usr/bin/env bash
# Compiles the C# bindings and their tests with Mono's mcs (C# 7.2, as Unity's Mono
# profile accepts) and runs them on Mono against the library that `cargo build` has just
# built, then twice more in separate processes: against a stand-in libsinew.so whose
# ABI version is 999 (must be refused, naming both versions) and with no library at all.
# Finally compiles the Unity package's scripts as Unity would, against the core package's
# assembly (bindings/csharp is the UPM package com.sinew.core, assembly Sinew.Core) and a
# compile-check stub of the few UnityEngine/UnityEditor types they use
# (tests/csharp/UnityStubs, never shipped).
#
#   tests/csharp/run.sh        (needs mcs, mono, gcc; tests/run-all.sh installs them)
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=target/csharp
MCS=(mcs -langversion:7.2 -unsafe -warnaserror -nologo)
rm -rf "$OUT" && mkdir -p "$OUT/abi999" "$OUT/nolib"

cargo build --locked --quiet
LIB=target/debug

echo "== C#: bindings + tests (mcs, Mono)"
"${MCS[@]}" -target:library -out:"$OUT/Sinew.Core.dll" -recurse:'bindings/csharp/*.cs'
# ColliderShapes (the Unity package's collider mapping) uses Sinew types only: it is
# compiled into the tests and checked against the library.
"${MCS[@]}" -target:exe -out:"$OUT/SinewTests.exe" -r:"$OUT/Sinew.Core.dll" tests/csharp/*.cs \
  unity-sample/Runtime/ColliderShapes.cs
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
STUB_DEFINES="UNITY_EDITOR;UNITY_2021_3_OR_NEWER"
"${MCS[@]}" -target:library -nowarn:67,649 -define:"$STUB_DEFINES" -out:"$OUT/UnityEngineStub.dll" \
  tests/csharp/UnityStubs/*.cs
for defines in "$STUB_DEFINES" "UNITY_2021_3_OR_NEWER"; do
  "${MCS[@]}" -target:library -define:"$defines" -r:"$OUT/UnityEngineStub.dll" \
    -r:"$OUT/Sinew.Core.dll" -out:"$OUT/Sinew.Runtime.dll" -recurse:'unity-sample/Runtime/*.cs'
done
"${MCS[@]}" -target:library -r:"$OUT/UnityEngineStub.dll" -r:"$OUT/Sinew.Core.dll" -r:"$OUT/Sinew.Runtime.dll" \
  -out:"$OUT/Sinew.Samples.dll" -recurse:'unity-sample/Samples~/*.cs'
echo "unity-sample scripts compile"

echo "== C#: SinewJobsTaskSystem steps a world through the Unity.Jobs stub (Mono)"
"${MCS[@]}" -target:exe -r:"$OUT/UnityEngineStub.dll" -r:"$OUT/Sinew.Core.dll" -r:"$OUT/Sinew.Runtime.dll" \
  -out:"$OUT/JobsTaskSystemCheck.exe" tests/csharp/UnityJobs/JobsTaskSystemCheck.cs
LD_LIBRARY_PATH="$LIB" mono --debug "$OUT/JobsTaskSystemCheck.exe"
