// particles_N reference: a plain scalar OpenMP C++ program of the bench example's
// `particles` scene and contact rule. A yardstick built and run outside the crate (see
// build.sh); not a test.
//
// The scene: N particles of radius r = 1 cm, 1 kg, on a 50 x 50 grid per layer 2.1 r
// apart, layers stacked from y = 0.05 m with the scene's sideways jitter
// ((i * 7919) % 13 / 13 * 0.1 r, on x and -z), falling into a box of five frictionless
// planes (ground y = 0, walls x, z = +-0.6 m); gravity (0, -9.81, 0), frame dt 1/60 s,
// 10 substeps x 1 iteration, 50 frames from rest.
//
// Each substep: v += h g, x_prev = x, x += h v; then one Jacobi pass of the particle
// contacts (for every overlapping listed pair, d = x_i - x_j, overlap = 2r - |d|:
// particle i moves by the mass-weighted share w_i / (w_i + w_j) = 1/2 of
// overlap * d / |d|, the moves averaged over its active contacts), then the walls
// (positions clamped to r from each plane); v = (x - x_prev) / h; a wall that pushed a
// particle takes back the inward normal velocity, at most what its push added
// (restitution 0).
//
// Neighbour lists: a dense grid over the particles' box, counting-sorted by cell, the
// particles reordered by cell (all state moved), lists built in parallel (each chunk of
// 1024 particles into its own buffer; no cap) with the margin rule skin_i = max(r / 4, |v_i - mean v| * 4h): the pair
// (i, j) is listed when |x_i - x_j| < 2r + skin_i + skin_j. The lists are built once
// per frame, and again before a substep's contact pass if some particle has moved
// further than its skin relative to the mean motion since the build (so no touching
// pair is ever missing). `builds_per_frame` says how often. With `--rebuild 0` they
// are built once per frame only (the benchmark scene's definition of its reference:
// a pair that comes into contact within the frame without being listed is missed).
//
// Prints one JSON line: ms_per_frame, mproj_per_s (particles x substeps x frames / s),
// min_y, median_stretch (0: no constraints), builds_per_frame, mean_neighbours.
//
//   particles_ref [--n 30000] [--threads 2] [--frames 50] [--rebuild 1]

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

static inline V3 sub(V3 a, V3 b) { return V3{a.x - b.x, a.y - b.y, a.z - b.z}; }
static inline float dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

struct State {
    std::vector<V3> x, prev, v, anchor;
    std::vector<float> skin;
    std::vector<V3> scratch;
    void permute(const std::vector<uint32_t>& order) {
        auto gather = [&](std::vector<V3>& a) {
            scratch.resize(a.size());
            for (size_t k = 0; k < order.size(); ++k) scratch[k] = a[order[k]];
            a.swap(scratch);
        };
        gather(x);
        gather(prev);
        gather(v);
    }
};

int main(int argc, char** argv) {
    long n = 30000;
    int threads = 2, frames = 50, substeps = 10, rebuild = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        long v = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--n")) n = v;
        else if (!std::strcmp(argv[i], "--threads")) threads = int(v);
        else if (!std::strcmp(argv[i], "--frames")) frames = int(v);
        else if (!std::strcmp(argv[i], "--substeps")) substeps = int(v);
        else if (!std::strcmp(argv[i], "--rebuild")) rebuild = int(v);
        else {
            std::fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (n < 1 || n > 1000000 || threads < 1 || frames < 1 || substeps < 1 || rebuild < 0 ||
        rebuild > 1) {
        std::fprintf(stderr, "bad arguments\n");
        return 2;
    }
    omp_set_num_threads(threads);
    const float r = 0.01f, wall = 0.6f, g = -9.81f;
    const float h = (1.0f / 60.0f) / float(substeps), inv_h = 1.0f / h;
    const uint32_t side = 50;
    const float spacing = 2.1f * r;
    const float half = 0.5f * spacing * float(side - 1);

    State st;
    st.x.resize(n);
    st.prev.resize(n);
    st.v.assign(n, V3{0, 0, 0});
    st.anchor.resize(n);
    st.skin.resize(n);
    for (uint32_t i = 0; i < uint32_t(n); ++i) {
        uint32_t col = i % side, row = (i / side) % side, layer = i / (side * side);
        float jitter = float((i * 7919u) % 13u) / 13.0f * 0.1f * r;
        st.x[i] = V3{float(col) * spacing - half + jitter, 0.05f + float(layer) * spacing,
                     float(row) * spacing - half - jitter};
    }

    const long CHUNK = 1024, chunks = (n + CHUNK - 1) / CHUNK;
    std::vector<uint32_t> cell_of(n), order(n), cell_start, list_begin(n), list_end(n);
    std::vector<std::vector<uint32_t>> lists(chunks);
    std::vector<V3> delta(n), pushed(n);  // per particle: wall pushes along y, x, z
    std::vector<float> skin_scratch(n);
    V3 mean_v{0, 0, 0};
    long builds = 0, pairs_at_last_build = 0;

    auto build = [&]() {
        ++builds;
        double mx = 0, my = 0, mz = 0;
#pragma omp parallel for reduction(+ : mx, my, mz)
        for (long i = 0; i < n; ++i) {
            mx += st.v[i].x;
            my += st.v[i].y;
            mz += st.v[i].z;
        }
        mean_v = V3{float(mx / n), float(my / n), float(mz / n)};
        float smax = 0.0f;
        V3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
        for (long i = 0; i < n; ++i) {
            V3 dv = sub(st.v[i], mean_v);
            float s = std::max(0.25f * r, std::sqrt(dot(dv, dv)) * 4.0f * h);
            st.skin[i] = s;
            smax = std::max(smax, s);
            lo = V3{std::min(lo.x, st.x[i].x), std::min(lo.y, st.x[i].y), std::min(lo.z, st.x[i].z)};
            hi = V3{std::max(hi.x, st.x[i].x), std::max(hi.y, st.x[i].y), std::max(hi.z, st.x[i].z)};
        }
        const float cell = 2.0f * (r + smax);
        const long cx = long((hi.x - lo.x) / cell) + 1, cy = long((hi.y - lo.y) / cell) + 1,
                   cz = long((hi.z - lo.z) / cell) + 1;
        if (cx * cy * cz > 64L * 1024 * 1024) {
            std::fprintf(stderr, "grid too large\n");
            std::exit(1);
        }
        auto coord = [&](float p, float l, long c) {
            return std::min(c - 1, std::max(0L, long((p - l) / cell)));
        };
        // Counting sort by cell (stable), then every array reordered by cell.
        cell_start.assign(size_t(cx * cy * cz) + 1, 0);
        for (long i = 0; i < n; ++i) {
            long c = (coord(st.x[i].y, lo.y, cy) * cz + coord(st.x[i].z, lo.z, cz)) * cx +
                     coord(st.x[i].x, lo.x, cx);
            cell_of[i] = uint32_t(c);
            ++cell_start[c + 1];
        }
        for (size_t c = 0; c + 1 < cell_start.size(); ++c) cell_start[c + 1] += cell_start[c];
        {
            std::vector<uint32_t> at(cell_start.begin(), cell_start.end() - 1);
            for (long i = 0; i < n; ++i) order[at[cell_of[i]]++] = uint32_t(i);
        }
        for (long k = 0; k < n; ++k) skin_scratch[k] = st.skin[order[k]];
        st.skin.swap(skin_scratch);
        st.permute(order);
        // Lists: a scan of the 3 x 3 x 3 cells around each particle.
        auto scan = [&](long i, auto&& visit) {
            const V3 p = st.x[i];
            const long gx = coord(p.x, lo.x, cx), gy = coord(p.y, lo.y, cy), gz = coord(p.z, lo.z, cz);
            for (long y = std::max(0L, gy - 1); y <= std::min(cy - 1, gy + 1); ++y)
                for (long z = std::max(0L, gz - 1); z <= std::min(cz - 1, gz + 1); ++z) {
                    long row = (y * cz + z) * cx;
                    uint32_t a = cell_start[row + std::max(0L, gx - 1)];
                    uint32_t b = cell_start[row + std::min(cx - 1, gx + 1) + 1];
                    for (uint32_t j = a; j < b; ++j) {
                        if (long(j) == i) continue;
                        V3 d = sub(p, st.x[j]);
                        float reach = 2.0f * r + st.skin[i] + st.skin[j];
                        if (dot(d, d) < reach * reach) visit(j);
                    }
                }
        };
        // One pass: each chunk of CHUNK particles appends its lists to its own buffer
        // (kept between builds, so it stops allocating once it has grown).
#pragma omp parallel for schedule(static, 1)
        for (long c = 0; c < chunks; ++c) {
            std::vector<uint32_t>& buf = lists[c];
            buf.clear();
            for (long i = c * CHUNK; i < std::min(n, (c + 1) * CHUNK); ++i) {
                list_begin[i] = uint32_t(buf.size());
                scan(i, [&](uint32_t j) { buf.push_back(j); });
                list_end[i] = uint32_t(buf.size());
            }
        }
        pairs_at_last_build = 0;
        for (const auto& buf : lists) pairs_at_last_build += long(buf.size());
        for (long i = 0; i < n; ++i) st.anchor[i] = st.x[i];
    };

    auto begin = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) {
        build();
        for (int s = 0; s < substeps; ++s) {
            const float t = h * float(s + 1);  // time since the build at this contact pass
#pragma omp parallel for schedule(static, 1024)
            for (long i = 0; i < n; ++i) {
                st.prev[i] = st.x[i];
                st.v[i].y += h * g;
                st.x[i].x += h * st.v[i].x;
                st.x[i].y += h * st.v[i].y;
                st.x[i].z += h * st.v[i].z;
            }
            // Has a particle left its skin (relative to the mean motion since the build)?
            int escaped = 0;
            const long checked = rebuild ? n : 0;
#pragma omp parallel for schedule(static, 1024) reduction(| : escaped)
            for (long i = 0; i < checked; ++i) {
                V3 d = sub(st.x[i], st.anchor[i]);
                d = V3{d.x - mean_v.x * t, d.y - mean_v.y * t, d.z - mean_v.z * t};
                escaped |= dot(d, d) > st.skin[i] * st.skin[i];
            }
            if (escaped) build();
#pragma omp parallel for schedule(static, 1024)
            for (long i = 0; i < n; ++i) {
                float ax = 0, ay = 0, az = 0;
                uint32_t active = 0;
                const V3 p = st.x[i];
                const uint32_t* list = lists[i / CHUNK].data();
                for (uint32_t k = list_begin[i]; k < list_end[i]; ++k) {
                    V3 d = sub(p, st.x[list[k]]);
                    float d2 = dot(d, d);
                    if (d2 >= 4.0f * r * r || d2 <= 1e-18f) continue;
                    float dist = std::sqrt(d2);
                    float m = 0.5f * (2.0f * r - dist) / dist;
                    ax += d.x * m;
                    ay += d.y * m;
                    az += d.z * m;
                    ++active;
                }
                delta[i] = active ? V3{ax / active, ay / active, az / active} : V3{0, 0, 0};
            }
#pragma omp parallel for schedule(static, 1024)
            for (long i = 0; i < n; ++i) {
                V3 p{st.x[i].x + delta[i].x, st.x[i].y + delta[i].y, st.x[i].z + delta[i].z};
                V3 push{0, 0, 0};
                if (p.y < r) push.y = r - p.y;
                if (p.x < -wall + r) push.x = -wall + r - p.x;
                if (p.x > wall - r) push.x = wall - r - p.x;
                if (p.z < -wall + r) push.z = -wall + r - p.z;
                if (p.z > wall - r) push.z = wall - r - p.z;
                st.x[i] = V3{p.x + push.x, p.y + push.y, p.z + push.z};
                pushed[i] = push;
                V3 v{(st.x[i].x - st.prev[i].x) * inv_h, (st.x[i].y - st.prev[i].y) * inv_h,
                     (st.x[i].z - st.prev[i].z) * inv_h};
                // Restitution 0: take back the inward normal velocity, at most what the
                // push added (per axis: each wall's normal is an axis).
                auto settle = [&](float& vn_signed, float pushed_signed) {
                    if (pushed_signed == 0.0f) return;
                    float sign = pushed_signed > 0.0f ? 1.0f : -1.0f;
                    float vn = sign * vn_signed, added = sign * pushed_signed * inv_h;
                    vn_signed += sign * std::max(-vn, -added);
                };
                settle(v.x, push.x);
                settle(v.y, push.y);
                settle(v.z, push.z);
                st.v[i] = v;
            }
        }
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    float min_y = INFINITY;
    for (const V3& p : st.x) min_y = std::min(min_y, p.y);
    std::printf(
        "{\"scene\":\"particles\",\"impl\":\"cpp_omp\",\"n\":%ld,\"threads\":%d,\"substeps\":%d,"
        "\"iterations\":1,\"frames\":%d,\"ms_per_frame\":%.3f,\"mproj_per_s\":%.1f,"
        "\"min_y\":%.4f,\"median_stretch\":0.000000,\"builds_per_frame\":%.2f,"
        "\"mean_neighbours\":%.2f,\"rebuild\":%d}\n",
        n, threads, substeps, frames, seconds * 1e3 / frames, double(n) * substeps * frames / seconds / 1e6,
        min_y, double(builds) / frames, double(pairs_at_last_build) / n, rebuild);
    return 0;
}
