// dam_break reference: an OpenMP C++ program of Position Based Fluids (Macklin & Müller
// 2013) on the bench example's `dam_break` scene. A yardstick built and run outside the
// crate (see build.sh); not a test.
//
// The scene (units m, kg, s): a block of n x n x n particles on a cubic lattice of
// spacing s = 0.02 m, lowest particle at (s/2, s/2, s/2), at rest, in the corner
// x, z in [0, a] (a = n s) of a tank of planes y = 0, x = 0, x = 4a, z = 0, z = a, open
// at the top; it collapses along +x. Gravity (0, -9.81, 0), frame dt 1/60 s, 2 substeps
// x 2 density iterations, 300 frames from rest (--frames).
//
// Fluid: h = 2s, rho0 = 1000 kg/m^3, m = rho0 s^3; poly6 W for the density, the spiky
// gradient for grad W. C_i = max(rho_i / rho0 - 1, 0), rho_i = sum_j m W_ij (i
// included); grad_j C_i = -(m / rho0) grad W_ij, grad_i C_i = (m / rho0) sum_j grad W_ij;
// lambda_i = -C_i / (sum_k |grad_k C_i|^2 + eps), eps = 100 m^-2;
// dx_i = (m / rho0) sum_j (lambda_i + lambda_j + s_corr) grad W_ij with
// s_corr = -k s^2 (W(r) / W(dq))^n (in lambda's units, m^2), k = 0.1, n = 4, dq = 0.2 h.
// XSPH viscosity once per substep: v_i += c (m / rho0) sum_j (v_j - v_i) W_ij, c = 0.01
// (every v_j the one before the pass). No vorticity.
//
// Each substep: v += dt g, x* = x + dt v, x* projected onto the tank's planes (centres
// clamped); then the neighbours of x*: a dense grid of cells of size h over the tank
// (up to the highest particle), counting-sorted by cell (stable), every array reordered
// by cell, and per particle a compact list of the others within h (each chunk of 512
// particles appends to its own buffer; no cap; the candidates of a row of three cells
// tested sixteen at a time with AVX-512, see scan_row); then 2 iterations, each one pass of
// rho and lambda for every particle, then one pass of dx for every particle (Jacobi:
// all from the same x*), x* += dx, projected onto the planes; then v = (x* - x) / dt,
// XSPH, x = x*. The inner loops over a list are `omp simd` reductions (vectorised, in
// an order fixed by the list alone), and every per-particle result is written by one
// thread, so 1 and 2 threads give the same bits.
//
// The walls lend no density (Sinew's do): particles at a wall read under-dense and the
// water piles onto the walls. At n = 16 it holds (mean / max rho / rho0 about 0.97 /
// 1.77 after 300 frames); at n = 24 and 32 it clumps along the tank's bottom edges from
// about frame 12 and blows up. `--wall-density 1` lets each plane within h lend the
// density of the lattice at rest continued behind it (see Walls; cruder than Sinew's:
// no calibration, the planes' densities added), which holds the water at n = 32.
//
// Prints one JSON line with the bench example's dam_break keys: ms_per_frame, mpi_per_s
// (million particle-iterations per second: N x substeps x iterations x frames / s),
// mean_density_ratio and max_density_ratio (rho / rho0 of the last density pass, as the
// bench example reads them), front_0_25s, front_0_5s, front_1s (m: the 99th percentile
// of x after frames 15, 30 and 60; null when the run is shorter), and mean_neighbours
// (list entries per particle at the last build). Only the frames are timed, not the
// set-up nor the front readings.
//
//   pbf_ref [--n 32] [--threads 2] [--frames 300] [--wall-density 0|1]

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// The list loops' square roots never see a negative operand: no errno to keep, so the
// loops vectorise (the flags are build.sh's, shared with the other programs).
#define NO_ERRNO __attribute__((optimize("no-math-errno")))

// --wall-density 1: each plane within h of a particle lends the density of the lattice
// at rest continued behind it (layers at s/2, 3s/2, ... behind the plane, a square
// lattice of spacing s in each layer, lined up with the particle), tabulated over the
// distance d to the plane, with its derivative (the plane's term of grad_i C_i).
struct Walls {
    static constexpr int STEPS = 256;
    float reach = 0.0f, tank_x = 0.0f, tank_z = 0.0f;
    float rho[STEPS + 1], slope[STEPS + 1];  // rho / rho0 and d(rho / rho0)/dd at d
    Walls(float s, float h, float rho_scale, float tx, float tz) : reach(h), tank_x(tx), tank_z(tz) {
        const int side = int(h / s) + 1;
        for (int q = 0; q <= STEPS; ++q) {
            const double d = double(h) * q / STEPS;
            double sum = 0.0, dsum = 0.0;
            for (int layer = 0; layer <= side; ++layer)
                for (int u = -side; u <= side; ++u)
                    for (int v = -side; v <= side; ++v) {
                        const double dn = d + s * (0.5 + layer), r2 = dn * dn + double(s) * s * (u * u + v * v);
                        const double t = double(h) * h - r2;
                        if (t <= 0.0) continue;
                        sum += t * t * t;
                        dsum += -6.0 * dn * t * t;
                    }
            rho[q] = float(sum * rho_scale);
            slope[q] = float(dsum * rho_scale);
        }
    }
    // Adds the plane at distance d (>= 0) along the unit axis of sign `dir`.
    void add(float d, float dir, float& ratio, float& grad) const {
        if (d >= reach) return;
        const float f = d / reach * STEPS;
        const int q = std::min(int(f), STEPS - 1);
        const float w = f - float(q);
        ratio += rho[q] * (1.0f - w) + rho[q + 1] * w;
        grad += dir * (slope[q] * (1.0f - w) + slope[q + 1] * w);
    }
    // The planes' density at p and its gradient (x: 0 and tank_x, y: 0, z: 0 and tank_z).
    void at(float px, float py, float pz, float& ratio, float& gx, float& gy, float& gz) const {
        add(py, 1.0f, ratio, gy);
        add(px, 1.0f, ratio, gx);
        add(tank_x - px, -1.0f, ratio, gx);
        add(pz, 1.0f, ratio, gz);
        add(tank_z - pz, -1.0f, ratio, gz);
    }
};

// Appends to out[used..] the particles j in [b, e), j != i, within h of (px, py, pz)
// (r^2 < h2), in ascending order; returns the new count. With AVX-512, sixteen
// candidates per compare and one store of the kept indices (out has 16 entries to
// spare past used + e - b); otherwise a
// branchless scalar loop (each candidate written, the count advanced when kept).
inline uint32_t scan_row(uint32_t b, uint32_t e, uint32_t i, float px, float py, float pz, float h2,
                         const float* __restrict X, const float* __restrict Y, const float* __restrict Z,
                         uint32_t* __restrict out, uint32_t used) {
    uint32_t j = b;
#ifdef __AVX512F__
    const __m512 vx = _mm512_set1_ps(px), vy = _mm512_set1_ps(py), vz = _mm512_set1_ps(pz),
                 vh2 = _mm512_set1_ps(h2);
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                  vi = _mm512_set1_epi32(int(i));
    for (; j < e; j += 16) {
        const __mmask16 live = e - j >= 16 ? __mmask16(0xffff) : __mmask16((1u << (e - j)) - 1u);
        const __m512 dx = _mm512_sub_ps(vx, _mm512_maskz_loadu_ps(live, X + j));
        const __m512 dy = _mm512_sub_ps(vy, _mm512_maskz_loadu_ps(live, Y + j));
        const __m512 dz = _mm512_sub_ps(vz, _mm512_maskz_loadu_ps(live, Z + j));
        const __m512 r2 = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy)),
                                        _mm512_mul_ps(dz, dz));
        const __m512i idx = _mm512_add_epi32(_mm512_set1_epi32(int(j)), lane);
        const __mmask16 keep = _mm512_mask_cmp_ps_mask(live, r2, vh2, _CMP_LT_OQ) &
                               _mm512_cmpneq_epi32_mask(idx, vi);
        // Compressed in a register, stored whole (a masked compressing store to memory is
        // slow on some Intel cores); the lanes past the kept ones are overwritten later.
        _mm512_storeu_si512(out + used, _mm512_maskz_compress_epi32(keep, idx));
        used += uint32_t(__builtin_popcount(keep));
    }
#endif
    for (; j < e; ++j) {
        const float dx = px - X[j], dy = py - Y[j], dz = pz - Z[j];
        out[used] = j;
        used += (dx * dx + dy * dy + dz * dz < h2) & (j != i);
    }
    return used;
}

struct Consts {
    float h, h2, rho_scale, self_t3, grad_scale, inv_tdq, scorr_scale, xsph_scale;
};

// rho_i / rho0 and lambda_i of particles [b, e) from the predicted positions q.
NO_ERRNO void density_pass(const Consts& k, long b, long e, const uint32_t* __restrict list,
                  const uint32_t* __restrict lbeg, const uint32_t* __restrict lend,
                  const float* __restrict qx, const float* __restrict qy, const float* __restrict qz,
                  float* __restrict ratio, float* __restrict lambda, float eps, const Walls* walls) {
    const float h = k.h, h2 = k.h2;
    for (long i = b; i < e; ++i) {
        const float px = qx[i], py = qy[i], pz = qz[i];
        float t3 = 0.0f, gx = 0.0f, gy = 0.0f, gz = 0.0f, g2 = 0.0f;
        const uint32_t lb = lbeg[i], le = lend[i];
#pragma omp simd reduction(+ : t3, gx, gy, gz, g2)
        for (uint32_t m = lb; m < le; ++m) {
            const uint32_t j = list[m];
            const float dx = px - qx[j], dy = py - qy[j], dz = pz - qz[j];
            const float r2 = dx * dx + dy * dy + dz * dz;
            const bool in = r2 < h2 && r2 > 0.0f;
            const float t = in ? h2 - r2 : 0.0f;
            const float r = __builtin_sqrtf(in ? r2 : 1.0f);
            const float u = in ? h - r : 0.0f;
            const float w = u * u / r;  // |grad W| / (spiky r)
            t3 += t * t * t;
            gx += w * dx;
            gy += w * dy;
            gz += w * dz;
            g2 += u * u * u * u;
        }
        float rho = k.rho_scale * (k.self_t3 + t3);
        float sum_grad2 = k.grad_scale * k.grad_scale * (gx * gx + gy * gy + gz * gz + g2);
        if (walls) {
            float Gx = k.grad_scale * gx, Gy = k.grad_scale * gy, Gz = k.grad_scale * gz;
            walls->at(px, py, pz, rho, Gx, Gy, Gz);
            sum_grad2 = Gx * Gx + Gy * Gy + Gz * Gz + k.grad_scale * k.grad_scale * g2;
        }
        const float c = std::max(rho - 1.0f, 0.0f);
        ratio[i] = rho;
        lambda[i] = -c / (sum_grad2 + eps);
    }
}

// dx of particles [b, e): out = q + dx (Jacobi: every q read is the pass's input).
NO_ERRNO void correction_pass(const Consts& k, long b, long e, const uint32_t* __restrict list,
                     const uint32_t* __restrict lbeg, const uint32_t* __restrict lend,
                     const float* __restrict qx, const float* __restrict qy, const float* __restrict qz,
                     const float* __restrict lambda, float* __restrict ox, float* __restrict oy,
                     float* __restrict oz, const Walls* walls) {
    const float h = k.h, h2 = k.h2, inv_tdq = k.inv_tdq, scorr = k.scorr_scale;
    for (long i = b; i < e; ++i) {
        const float px = qx[i], py = qy[i], pz = qz[i], li = lambda[i];
        float sx = 0.0f, sy = 0.0f, sz = 0.0f;
        const uint32_t lb = lbeg[i], le = lend[i];
#pragma omp simd reduction(+ : sx, sy, sz)
        for (uint32_t m = lb; m < le; ++m) {
            const uint32_t j = list[m];
            const float dx = px - qx[j], dy = py - qy[j], dz = pz - qz[j];
            const float r2 = dx * dx + dy * dy + dz * dz;
            const bool in = r2 < h2 && r2 > 0.0f;
            const float t = in ? (h2 - r2) * inv_tdq : 0.0f;  // W(r) / W(dq)
            const float t3 = t * t * t, t6 = t3 * t3;
            const float r = __builtin_sqrtf(in ? r2 : 1.0f);
            const float u = in ? h - r : 0.0f;
            // (lambda_i + lambda_j + s_corr) |grad W| / (spiky r)
            const float f = (li + lambda[j] + scorr * (t6 * t6)) * (u * u / r);
            sx += f * dx;
            sy += f * dy;
            sz += f * dz;
        }
        // grad W_ij = -spiky (h - r)^2 (q_i - q_j) / r; the walls' term lambda_i grad rho_wall.
        float wr = 0.0f, wx = 0.0f, wy = 0.0f, wz = 0.0f;
        if (walls) walls->at(px, py, pz, wr, wx, wy, wz);
        ox[i] = px - k.grad_scale * sx + li * wx;
        oy[i] = py - k.grad_scale * sy + li * wy;
        oz[i] = pz - k.grad_scale * sz + li * wz;
    }
}

// XSPH of particles [b, e): o = v + c (m / rho0) sum_j (v_j - v_i) W_ij.
void xsph_pass(const Consts& k, long b, long e, const uint32_t* __restrict list,
               const uint32_t* __restrict lbeg, const uint32_t* __restrict lend,
               const float* __restrict qx, const float* __restrict qy, const float* __restrict qz,
               const float* __restrict vx, const float* __restrict vy, const float* __restrict vz,
               float* __restrict ox, float* __restrict oy, float* __restrict oz) {
    const float h2 = k.h2;
    for (long i = b; i < e; ++i) {
        const float px = qx[i], py = qy[i], pz = qz[i], ux = vx[i], uy = vy[i], uz = vz[i];
        float sx = 0.0f, sy = 0.0f, sz = 0.0f;
        const uint32_t lb = lbeg[i], le = lend[i];
#pragma omp simd reduction(+ : sx, sy, sz)
        for (uint32_t m = lb; m < le; ++m) {
            const uint32_t j = list[m];
            const float dx = px - qx[j], dy = py - qy[j], dz = pz - qz[j];
            const float r2 = dx * dx + dy * dy + dz * dz;
            const float t = r2 < h2 ? h2 - r2 : 0.0f;
            const float w = t * t * t;
            sx += (vx[j] - ux) * w;
            sy += (vy[j] - uy) * w;
            sz += (vz[j] - uz) * w;
        }
        ox[i] = ux + k.xsph_scale * sx;
        oy[i] = uy + k.xsph_scale * sy;
        oz[i] = uz + k.xsph_scale * sz;
    }
}

}  // namespace

int main(int argc, char** argv) {
    long side = 32;
    int threads = 2, frames = 300, wall_density = 0;
    const int substeps = 2, iterations = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        long v = std::atol(argv[i + 1]);
        if (!std::strcmp(argv[i], "--n")) side = v;
        else if (!std::strcmp(argv[i], "--threads")) threads = int(v);
        else if (!std::strcmp(argv[i], "--frames")) frames = int(v);
        else if (!std::strcmp(argv[i], "--wall-density")) wall_density = int(v);
        else {
            std::fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (side < 1 || side > 128 || threads < 1 || frames < 1) {
        std::fprintf(stderr, "bad arguments\n");
        return 2;
    }
    omp_set_num_threads(threads);
    const long n = side * side * side;
    const float s = 0.02f, a = float(side) * s, tank_x = 4.0f * a;
    const float h = 2.0f * s, h2 = h * h, rho0 = 1000.0f, mass = rho0 * s * s * s;
    const float dt = (1.0f / 60.0f) / float(substeps), inv_dt = 1.0f / dt, g = -9.81f;
    const float eps = 100.0f, scorr_k = 0.1f, dq = 0.2f * h, xsph = 0.01f;
    const float pi = 3.14159265358979f;
    const float poly6 = 315.0f / (64.0f * pi * std::pow(h, 9.0f));
    const float spiky = 45.0f / (pi * std::pow(h, 6.0f));  // |grad W| = spiky (h - r)^2
    const float vol = mass / rho0;
    // rho_i = m poly6 (h^6 + sum_j (h^2 - r^2)^3): the self term is W(0).
    const float rho_scale = mass * poly6 / rho0, self_t3 = h2 * h2 * h2;
    const float grad_scale = vol * spiky;  // |grad_j C_i| = grad_scale (h - r)^2
    const float inv_tdq = 1.0f / (h2 - dq * dq);
    const float scorr_scale = -scorr_k * s * s;
    const float xsph_scale = xsph * vol * poly6;
    const Consts K{h, h2, rho_scale, self_t3, grad_scale, inv_tdq, scorr_scale, xsph_scale};
    const Walls wall_table(s, h, rho_scale, tank_x, a);
    const Walls* walls = wall_density ? &wall_table : nullptr;

    std::vector<float> x(n), y(n), z(n), qx(n), qy(n), qz(n), vx(n, 0.0f), vy(n, 0.0f),
        vz(n, 0.0f);
    for (long i = 0; i < n; ++i) {
        x[i] = (float(i % side) + 0.5f) * s;
        y[i] = (float((i / side) % side) + 0.5f) * s;
        z[i] = (float(i / (side * side)) + 0.5f) * s;
    }
    std::vector<float> rho(n), lambda(n), px(n), py(n), pz(n);  // px..: Jacobi outputs
    std::vector<uint32_t> cell_of(n), order(n), cell_start, list_begin(n), list_end(n);
    const long CHUNK = 512, chunks = (n + CHUNK - 1) / CHUNK;
    std::vector<std::vector<uint32_t>> lists(chunks);
    for (auto& l : lists) l.resize(size_t(CHUNK) * 64);
    std::vector<float> tmp(9 * n);

    auto project = [&](float& px_, float& py_, float& pz_) {
        py_ = std::max(py_, 0.0f);
        px_ = std::min(std::max(px_, 0.0f), tank_x);
        pz_ = std::min(std::max(pz_, 0.0f), a);
    };
    const long cx = long(tank_x / h) + 1, cz = long(a / h) + 1;
    long cy = 1;

    auto substep = [&]() {
        float ymax = 0.0f;  // the highest predicted particle: the grid's top
#pragma omp parallel
        {
            // Predict and project.
#pragma omp for schedule(static) reduction(max : ymax)
            for (long i = 0; i < n; ++i) {
                vy[i] += dt * g;
                qx[i] = x[i] + dt * vx[i];
                qy[i] = y[i] + dt * vy[i];
                qz[i] = z[i] + dt * vz[i];
                project(qx[i], qy[i], qz[i]);
                ymax = std::max(ymax, qy[i]);
            }
#pragma omp single
            {
                cy = long(ymax / h) + 1;
                cell_start.assign(size_t(cx * cy * cz) + 1, 0);
            }
            // Cells (x fastest, so the three cells of a row are one range).
#pragma omp for schedule(static)
            for (long i = 0; i < n; ++i) {
                long gx = std::min(cx - 1, long(qx[i] / h)), gy = std::min(cy - 1, long(qy[i] / h)),
                     gz = std::min(cz - 1, long(qz[i] / h));
                cell_of[i] = uint32_t((gy * cz + gz) * cx + gx);
            }
            // Counting sort by cell (stable).
#pragma omp single
            {
                for (long i = 0; i < n; ++i) ++cell_start[cell_of[i] + 1];
                for (size_t c = 0; c + 1 < cell_start.size(); ++c) cell_start[c + 1] += cell_start[c];
                std::vector<uint32_t> at(cell_start.begin(), cell_start.end() - 1);
                for (long i = 0; i < n; ++i) order[at[cell_of[i]]++] = uint32_t(i);
            }
            // Every array reordered by cell.
#pragma omp for schedule(static)
            for (long k = 0; k < n; ++k) {
                const uint32_t o = order[k];
                tmp[k] = x[o];
                tmp[n + k] = y[o];
                tmp[2 * n + k] = z[o];
                tmp[3 * n + k] = qx[o];
                tmp[4 * n + k] = qy[o];
                tmp[5 * n + k] = qz[o];
                tmp[6 * n + k] = vx[o];
                tmp[7 * n + k] = vy[o];
                tmp[8 * n + k] = vz[o];
            }
#pragma omp for schedule(static)
            for (long k = 0; k < n; ++k) {
                x[k] = tmp[k];
                y[k] = tmp[n + k];
                z[k] = tmp[2 * n + k];
                qx[k] = tmp[3 * n + k];
                qy[k] = tmp[4 * n + k];
                qz[k] = tmp[5 * n + k];
                vx[k] = tmp[6 * n + k];
                vy[k] = tmp[7 * n + k];
                vz[k] = tmp[8 * n + k];
            }
            // Lists: the others within h, scanning the 3 x 3 rows of 3 cells around each
            // particle (cells hold sorted particles, so a row is one range); each
            // candidate is written and kept when it is within h (no branch).
#pragma omp for schedule(static, 1)
            for (long c = 0; c < chunks; ++c) {
                std::vector<uint32_t>& buf = lists[c];
                uint32_t used = 0;
                const float* __restrict X = qx.data();
                const float* __restrict Y = qy.data();
                const float* __restrict Z = qz.data();
                for (long i = c * CHUNK; i < std::min(n, (c + 1) * CHUNK); ++i) {
                    list_begin[i] = used;
                    const float pxi = X[i], pyi = Y[i], pzi = Z[i];
                    const long gx = std::min(cx - 1, long(pxi / h)), gy = std::min(cy - 1, long(pyi / h)),
                               gz = std::min(cz - 1, long(pzi / h));
                    uint32_t rb[9], re[9], rows = 0, total = 0;
                    for (long yy = std::max(0L, gy - 1); yy <= std::min(cy - 1, gy + 1); ++yy)
                        for (long zz = std::max(0L, gz - 1); zz <= std::min(cz - 1, gz + 1); ++zz) {
                            const long row = (yy * cz + zz) * cx;
                            rb[rows] = cell_start[row + std::max(0L, gx - 1)];
                            re[rows] = cell_start[row + std::min(cx - 1, gx + 1) + 1];
                            total += re[rows] - rb[rows];
                            ++rows;
                        }
                    if (buf.size() < size_t(used) + total + 16) buf.resize(2 * (size_t(used) + total + 16));
                    uint32_t* __restrict out = buf.data();
                    for (uint32_t r = 0; r < rows; ++r) used = scan_row(rb[r], re[r], uint32_t(i), pxi, pyi, pzi, h2, X, Y, Z, out, used);
                    list_end[i] = used;
                }
            }
            for (int it = 0; it < iterations; ++it) {
                // rho and lambda of every particle, then dx of every particle into
                // px..pz (Jacobi), projected onto the planes.
#pragma omp for schedule(static, 1)
                for (long c = 0; c < chunks; ++c)
                    density_pass(K, c * CHUNK, std::min(n, (c + 1) * CHUNK), lists[c].data(),
                                 list_begin.data(), list_end.data(), qx.data(), qy.data(), qz.data(),
                                 rho.data(), lambda.data(), eps, walls);
#pragma omp for schedule(static, 1)
                for (long c = 0; c < chunks; ++c) {
                    const long b = c * CHUNK, e = std::min(n, (c + 1) * CHUNK);
                    correction_pass(K, b, e, lists[c].data(), list_begin.data(), list_end.data(),
                                    qx.data(), qy.data(), qz.data(), lambda.data(), px.data(), py.data(),
                                    pz.data(), walls);
                    for (long i = b; i < e; ++i) project(px[i], py[i], pz[i]);
                }
#pragma omp single
                {
                    qx.swap(px);
                    qy.swap(py);
                    qz.swap(pz);
                }
            }
            // Velocities, then XSPH (into px..pz, Jacobi), then x = x*.
#pragma omp for schedule(static)
            for (long i = 0; i < n; ++i) {
                vx[i] = (qx[i] - x[i]) * inv_dt;
                vy[i] = (qy[i] - y[i]) * inv_dt;
                vz[i] = (qz[i] - z[i]) * inv_dt;
            }
#pragma omp for schedule(static, 1)
            for (long c = 0; c < chunks; ++c)
                xsph_pass(K, c * CHUNK, std::min(n, (c + 1) * CHUNK), lists[c].data(), list_begin.data(),
                          list_end.data(), qx.data(), qy.data(), qz.data(), vx.data(), vy.data(), vz.data(),
                          px.data(), py.data(), pz.data());
#pragma omp single
            {
                vx.swap(px);
                vy.swap(py);
                vz.swap(pz);
                x.swap(qx);
                y.swap(qy);
                z.swap(qz);
            }
        }
    };

    const int marks[3] = {15, 30, 60};
    std::string fronts[3] = {"null", "null", "null"};
    std::vector<float> xs(n);
    double seconds = 0.0;
    for (int f = 1; f <= frames; ++f) {
        auto begin = std::chrono::steady_clock::now();
        for (int st = 0; st < substeps; ++st) substep();
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        for (int m = 0; m < 3; ++m)
            if (marks[m] == f) {
                xs = x;
                std::sort(xs.begin(), xs.end());
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.4f", xs[size_t(std::lround(double(n - 1) * 0.99))]);
                fronts[m] = buf;
            }
    }
    long listed = 0;
    for (long i = 0; i < n; ++i) listed += long(list_end[i] - list_begin[i]);
    double sum = 0.0;
    float max_ratio = 0.0f;
    for (long i = 0; i < n; ++i) {
        sum += rho[i];
        max_ratio = std::max(max_ratio, rho[i]);
    }
    std::printf(
        "{\"scene\":\"dam_break\",\"impl\":\"cpp_omp\",\"wall_density\":%d,\"n\":%ld,\"particles\":%ld,\"threads\":%d,"
        "\"substeps\":%d,\"iterations\":%d,\"frames\":%d,\"ms_per_frame\":%.3f,\"mpi_per_s\":%.2f,"
        "\"mean_density_ratio\":%.4f,\"max_density_ratio\":%.4f,\"front_0_25s\":%s,"
        "\"front_0_5s\":%s,\"front_1s\":%s,\"mean_neighbours\":%.2f}\n",
        wall_density, side, n, threads, substeps, iterations, frames, seconds * 1e3 / frames,
        double(n) * substeps * iterations * frames / seconds / 1e6, sum / double(n), max_ratio,
        fronts[0].c_str(), fronts[1].c_str(), fronts[2].c_str(), double(listed) / double(n));
    return 0;
}
