// cloth_N reference: plain scalar C++ Gauss-Seidel in colour order, and the same loop
// with OpenMP per colour (--threads 2 or more). A yardstick for the bench example's
// `cloth` scene, built and run outside the crate (see build.sh); not a test.
//
// The scene is the README's cloth_N: N x N particles, index = row*N + col, at
// (col*s, 0, row*s) with s = 1/(N-1); 1 kg each except particles 0 and N-1 (pinned);
// distance constraints of compliance 0, rest length = initial distance, in the order
// stretch (+x, +z), shear (both diagonals of every quad), bend (two apart in +x, +z);
// gravity (0, -9.81, 0), frame dt 1/60 s, 10 substeps x 1 iteration, 300 frames from
// rest. Each substep: v += h g, x_prev = x, x += h v (movable particles), one
// Gauss-Seidel sweep over the constraints colour by colour (greedy colouring in id
// order; ids in order within a colour), then v = (x - x_prev) / h. Set-up and the
// colouring are not timed.
//
// Prints one JSON line: ms_per_frame, mproj_per_s, min_y, median_stretch (the bench
// example's fields and sanity numbers).
//
//   cloth_ref [--n 256] [--threads 1] [--frames 300] [--substeps 10]

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct V3 {
    float x, y, z;
};

struct Constraint {
    uint32_t a, b;
    float rest;
};

int main(int argc, char** argv) {
    int n = 256, threads = 1, frames = 300, substeps = 10;
    for (int i = 1; i + 1 < argc; i += 2) {
        int v = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--n")) n = v;
        else if (!std::strcmp(argv[i], "--threads")) threads = v;
        else if (!std::strcmp(argv[i], "--frames")) frames = v;
        else if (!std::strcmp(argv[i], "--substeps")) substeps = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (n < 3 || threads < 1 || frames < 1 || substeps < 1) {
        std::fprintf(stderr, "bad arguments\n");
        return 2;
    }
    const size_t count = size_t(n) * n;
    const float s = 1.0f / float(n - 1);
    std::vector<V3> x(count), prev(count), v(count, V3{0, 0, 0});
    std::vector<float> w(count, 1.0f);
    for (int row = 0; row < n; ++row)
        for (int col = 0; col < n; ++col) x[size_t(row) * n + col] = V3{col * s, 0.0f, row * s};
    w[0] = 0.0f;
    w[n - 1] = 0.0f;

    // Constraints in id order: stretch, shear, bend.
    std::vector<std::pair<uint32_t, uint32_t>> stretch, shear, bend;
    auto id = [n](int row, int col) { return uint32_t(row * n + col); };
    for (int row = 0; row < n; ++row)
        for (int col = 0; col < n; ++col) {
            if (col + 1 < n) stretch.push_back({id(row, col), id(row, col + 1)});
            if (row + 1 < n) stretch.push_back({id(row, col), id(row + 1, col)});
            if (row + 1 < n && col + 1 < n) {
                shear.push_back({id(row, col), id(row + 1, col + 1)});
                shear.push_back({id(row, col + 1), id(row + 1, col)});
            }
            if (col + 2 < n) bend.push_back({id(row, col), id(row, col + 2)});
            if (row + 2 < n) bend.push_back({id(row, col), id(row + 2, col)});
        }
    const size_t stretch_count = stretch.size();
    std::vector<std::pair<uint32_t, uint32_t>> pairs = stretch;
    pairs.insert(pairs.end(), shear.begin(), shear.end());
    pairs.insert(pairs.end(), bend.begin(), bend.end());
    auto distance = [&](uint32_t a, uint32_t b) {
        float dx = x[a].x - x[b].x, dy = x[a].y - x[b].y, dz = x[a].z - x[b].z;
        return std::sqrt(dx * dx + dy * dy + dz * dz);
    };

    // Greedy colouring in id order: the smallest colour none of its particles has.
    std::vector<uint64_t> used(count, 0);  // colour bits per particle (cloth: < 64)
    std::vector<int> colour(pairs.size());
    int colours = 0;
    for (size_t c = 0; c < pairs.size(); ++c) {
        uint64_t taken = used[pairs[c].first] | used[pairs[c].second];
        int k = 0;
        while (taken >> k & 1) ++k;
        if (k >= 64) {
            std::fprintf(stderr, "more than 64 colours\n");
            return 1;
        }
        colour[c] = k;
        used[pairs[c].first] |= uint64_t(1) << k;
        used[pairs[c].second] |= uint64_t(1) << k;
        colours = std::max(colours, k + 1);
    }
    // Constraints stored in colour order (ids ascending within a colour).
    std::vector<size_t> start(colours + 1, 0);
    for (int k : colour) ++start[k + 1];
    for (int k = 0; k < colours; ++k) start[k + 1] += start[k];
    std::vector<Constraint> cs(pairs.size());
    std::vector<size_t> slot_of(pairs.size());
    {
        std::vector<size_t> at(start.begin(), start.end() - 1);
        for (size_t c = 0; c < pairs.size(); ++c) {
            size_t k = at[colour[c]]++;
            slot_of[c] = k;
            cs[k] = Constraint{pairs[c].first, pairs[c].second, distance(pairs[c].first, pairs[c].second)};
        }
    }

    const float h = (1.0f / 60.0f) / float(substeps);
    const float inv_h = 1.0f / h;
    const float g = -9.81f;
    const long np = long(count);

    auto project = [&](const Constraint& c) {
        V3& pa = x[c.a];
        V3& pb = x[c.b];
        float wa = w[c.a], wb = w[c.b];
        float dx = pa.x - pb.x, dy = pa.y - pb.y, dz = pa.z - pb.z;
        float len = std::sqrt(dx * dx + dy * dy + dz * dz);
        float wsum = wa + wb;
        if (!(len > 1e-9f) || wsum <= 0.0f) return;
        float scale = -(len - c.rest) / (wsum * len);
        pa.x += wa * scale * dx;
        pa.y += wa * scale * dy;
        pa.z += wa * scale * dz;
        pb.x -= wb * scale * dx;
        pb.y -= wb * scale * dy;
        pb.z -= wb * scale * dz;
    };

    // Predict: v += h g, x_prev = x, x += h v (pinned particles stay).
    auto predict = [&](long i) {
        prev[i] = x[i];
        if (w[i] == 0.0f) return;
        v[i].y += h * g;
        x[i].x += h * v[i].x;
        x[i].y += h * v[i].y;
        x[i].z += h * v[i].z;
    };
    // Velocity update: v = (x - x_prev) / h.
    auto update = [&](long i) {
        if (w[i] == 0.0f) return;
        v[i] = V3{(x[i].x - prev[i].x) * inv_h, (x[i].y - prev[i].y) * inv_h, (x[i].z - prev[i].z) * inv_h};
    };

    auto begin = std::chrono::steady_clock::now();
    if (threads == 1) {
        // Plain scalar loop, no OpenMP region at all.
        for (int f = 0; f < frames; ++f)
            for (int sub = 0; sub < substeps; ++sub) {
                for (long i = 0; i < np; ++i) predict(i);
                for (const Constraint& c : cs) project(c);
                for (long i = 0; i < np; ++i) update(i);
            }
    } else {
        omp_set_num_threads(threads);
        // One parallel region for the whole run; a barrier after every colour.
#pragma omp parallel
        for (int f = 0; f < frames; ++f)
            for (int sub = 0; sub < substeps; ++sub) {
#pragma omp for schedule(static)
                for (long i = 0; i < np; ++i) predict(i);
                for (int k = 0; k < colours; ++k) {
                    const long lo = long(start[k]), hi = long(start[k + 1]);
#pragma omp for schedule(static)
                    for (long c = lo; c < hi; ++c) project(cs[c]);
                }
#pragma omp for schedule(static)
                for (long i = 0; i < np; ++i) update(i);
            }
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();

    float min_y = INFINITY;
    for (const V3& p : x) min_y = std::min(min_y, p.y);
    std::vector<float> rel;
    rel.reserve(stretch_count);
    for (size_t c = 0; c < stretch_count; ++c) {
        const Constraint& k = cs[slot_of[c]];
        rel.push_back(distance(k.a, k.b) / k.rest - 1.0f);
    }
    std::sort(rel.begin(), rel.end());
    double projections = double(pairs.size()) * substeps * frames;
    std::printf(
        "{\"scene\":\"cloth\",\"impl\":\"cpp_%s\",\"n\":%d,\"threads\":%d,\"solver\":\"gs\","
        "\"substeps\":%d,\"iterations\":1,\"frames\":%d,\"constraints\":%zu,\"colours\":%d,"
        "\"ms_per_frame\":%.3f,\"mproj_per_s\":%.1f,\"min_y\":%.4f,\"median_stretch\":%.6f}\n",
        threads == 1 ? "scalar_colour" : "omp_colour", n, threads, substeps, frames, pairs.size(),
        colours, seconds * 1e3 / frames, projections / seconds / 1e6, min_y, rel[rel.size() / 2]);
    return 0;
}
