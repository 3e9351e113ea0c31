#!/bin/sh
# Builds the reference programs of the benchmark scenes (README, "Reference
# programs") into target/reference/. Needs g++ with OpenMP.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../target/reference"
mkdir -p "$out"
for prog in cloth particles pbf; do
    g++ -O3 -march=native -ffp-contract=off -fopenmp -std=c++17 -Wall -Wextra -o "$out/${prog}_ref" "$here/$prog.cpp"
done
echo "built $out/cloth_ref, $out/particles_ref and $out/pbf_ref"
