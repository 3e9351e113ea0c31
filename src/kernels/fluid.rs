//! The inner loops of the density solver for a world of one fluid (no coupled
//! solids, the common case and the `dam_break` benchmark), eight neighbours at a time
//! with AVX where the CPU has it, and the scalar loops that define them.
//!
//! Every sum runs in eight lanes (neighbour `i` of a list adds into lane `i mod 8`,
//! the lanes past the list's end add exact zeros) and the lanes are added in one fixed
//! tree (`reduce8`), so the AVX loops and the scalar ones perform the same IEEE
//! operations in the same order and give the same bits on every CPU (unit tests below
//! compare them); no fused multiply-add.
//!
//! The neighbour-list build's distance test is in `kernels::scan::fluid`; the safe
//! entry points, loops over a chunk of slots whose lists are checked once per build,
//! are in `kernels::fluid_pass`.
//!
//! * [`density`]: Σ q³ (q = h² − r²), Σ ∇W and Σ |∇W|² over a list, with the spiky
//!   gradient `∇W(d) = grad (h − r)² d / r` (coincident particles: `± TIE grad h²`,
//!   the sign by slot order, see `fluid/solver.rs`).
//! * [`correction`]: Σ (λ_k + λ_j + s_corr) ∇W over a list, with the artificial
//!   pressure `s_corr = scorr · (q³ · poly6 / W(Δq))ⁿ`, from the records' positions
//!   (those [`density`] saw: the positions do not move in between). It takes each
//!   pair's distance, gradient factor and s_corr again rather than reading them from
//!   a buffer the density loop wrote: about 8 bytes per listed pair, some 10 MB per
//!   iteration at 32,768 particles, which outgrew the caches and cost more than the
//!   square root, division and multiplications (dam_break n = 32: 3-7% of a frame).
//! * [`spread`]: the weighted neighbourhood sums of the renderer's ellipsoids (Yu &
//!   Turk 2013, `fluid::render::anisotropy`): Σ w, Σ w d, Σ w d dᵀ over a list's live
//!   records (w ≠ 0), `w = 1 − (|d| / h)³`, d in units of h: summed in metres,
//!   `w = 1 − (r² r) / h³`, and the sums scaled by 1 / h and 1 / h² once at the end.

use crate::kernels::simd::Kernel;
use crate::math::Vec4;

/// The constants of the loops.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Consts {
    pub h: f32,
    pub h2: f32,
    /// Spiky gradient factor (negative).
    pub grad: f32,
    /// grad · h²: the gradient's magnitude at r → 0.
    pub tie: f32,
    /// s_corr: −k s² (m²), poly6 / W(Δq), n.
    pub scorr: f32,
    pub scorr_x: f32,
    pub scorr_n: u32,
}

/// The direction coincident particles separate in (as `solver::TIE`).
const TIE_X: f32 = 0.6;
const TIE_Y: f32 = 0.8;

/// The lanes added in a fixed tree: (l0 + l4, l1 + l5, l2 + l6, l3 + l7), then
/// (b0 + b2, b1 + b3), then c0 + c1.
#[inline(always)]
pub(crate) fn reduce8(a: [f32; 8]) -> f32 {
    let b = [a[0] + a[4], a[1] + a[5], a[2] + a[6], a[3] + a[7]];
    let c = [b[0] + b[2], b[1] + b[3]];
    c[0] + c[1]
}

/// Each accumulator of a list of `len` entries reduced by [`reduce8`], after the lanes
/// past the list's end add +0 (as the AVX loops' masked lanes do: the same bits, a
/// −0 lane included).
#[inline(always)]
fn lane_sums<const N: usize>(mut acc: [[f32; 8]; N], len: usize) -> [f32; N] {
    let rest = len % 8;
    if rest != 0 {
        for a in &mut acc {
            for lane in &mut a[rest..] {
                *lane += 0.0;
            }
        }
    }
    acc.map(reduce8)
}

/// What [`density`] sums (each reduced by [`reduce8`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Density {
    /// Σ q³, q = h² − r² (m⁶).
    pub q3: f32,
    /// Σ ∇W (unscaled by the volume).
    pub grad: [f32; 3],
    /// Σ |∇W|².
    pub grad2: f32,
    /// Whether a listed particle coincides with slot k (r = 0: the tie rule).
    pub tie: bool,
}

/// Records `(x, y, z, w)` of every slot.
pub(crate) type Records = [[f32; 4]];

/// The records of `v` as the loops read them.
#[inline(always)]
pub(crate) fn records(v: &[Vec4]) -> &Records {
    // SAFETY: Vec4 is four f32 (16 bytes, no padding, alignment at least that of
    // f32), so the slice is `v.len()` valid `[f32; 4]` for as long as `v` is borrowed.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const [f32; 4], v.len()) }
}

/// Whether every entry of `list` is below `len` (> 0): the AVX loops' contract,
/// checked in debug builds.
#[inline(always)]
#[cfg_attr(not(debug_assertions), allow(dead_code))]
fn slots_of(list: &[u32], len: usize) -> bool {
    (list.iter().fold(0u32, |a, &j| a.max(j)) as usize) < len
}

/// The gradient factor f of a pair at |d|² = r2 < h², r2 > 0: ∇W(d) = f d.
#[inline(always)]
fn factor(c: &Consts, r2: f32) -> f32 {
    let r = r2.sqrt();
    let t = c.h - r;
    ((c.grad * t) * t) / r
}

/// ∇W of a pair at d (|d|² = r2 < h²) with factor f (unused when r2 = 0).
#[inline(always)]
fn gradient(c: &Consts, d: [f32; 3], r2: f32, f: f32, k: usize, j: usize) -> [f32; 3] {
    if r2 == 0.0 {
        let s = if k > j { 1.0 } else { -1.0 };
        return [s * (TIE_X * c.tie), s * (TIE_Y * c.tie), 0.0];
    }
    [d[0] * f, d[1] * f, d[2] * f]
}

/// Σ q³, Σ ∇W, Σ |∇W|² of slot k over `list` (positions in `pos`).
///
/// # Safety
/// Every entry of `list` is a slot of `pos` (below `pos.len()`). The solver's lists
/// hold only slots of its grid, so it checks them once when it builds them rather
/// than on every pass (a pass over each list per call cost the density, correction and
/// viscosity loops 8-16%).
#[inline(always)]
pub(super) unsafe fn density(
    kernel: Kernel,
    c: &Consts,
    pos: &Records,
    k: usize,
    list: &[u32],
) -> Density {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Kernel::Avx is only chosen where the CPU has AVX; the list's entries
        // are slots of `pos` (the contract).
        Kernel::Avx => unsafe { avx::density(c, pos, k, list) },
        _ => density_scalar(c, pos, k, list),
    }
}

/// [`density`] one pair at a time, in eight lanes.
pub(crate) fn density_scalar(c: &Consts, pos: &Records, k: usize, list: &[u32]) -> Density {
    let p = pos[k];
    let (mut q3, mut gx, mut gy, mut gz, mut g2) =
        ([0.0f32; 8], [0.0; 8], [0.0; 8], [0.0; 8], [0.0; 8]);
    let mut tie = false;
    for (i, &j) in list.iter().enumerate() {
        let l = i % 8;
        let q = pos[j as usize];
        let d = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
        let r2 = (d[0] * d[0] + d[1] * d[1]) + d[2] * d[2];
        let (w, g) = if r2 < c.h2 {
            let qq = c.h2 - r2;
            let w = (qq * qq) * qq;
            let f = if r2 == 0.0 { 0.0 } else { factor(c, r2) };
            tie |= r2 == 0.0;
            (w, gradient(c, d, r2, f, k, j as usize))
        } else {
            (0.0, [0.0; 3])
        };
        q3[l] += w;
        gx[l] += g[0];
        gy[l] += g[1];
        gz[l] += g[2];
        g2[l] += (g[0] * g[0] + g[1] * g[1]) + g[2] * g[2];
    }
    let [q3, gx, gy, gz, g2] = lane_sums([q3, gx, gy, gz, g2], list.len());
    Density {
        q3,
        grad: [gx, gy, gz],
        grad2: g2,
        tie,
    }
}

/// s_corr of a pair with q = h² − r² (q³ given).
#[inline(always)]
fn scorr(c: &Consts, q3: f32) -> f32 {
    c.scorr * power(q3 * c.scorr_x, c.scorr_n)
}

/// `x` times itself `n − 1` times, left to right (`x` for n ≤ 1); the usual n
/// unrolled.
#[inline(always)]
fn power(x: f32, n: u32) -> f32 {
    match n {
        0 | 1 => x,
        2 => x * x,
        3 => (x * x) * x,
        4 => ((x * x) * x) * x,
        _ => {
            let mut p = x;
            for _ in 1..n {
                p *= x;
            }
            p
        }
    }
}

/// Σ (λ_k + λ_j + s_corr) ∇W of slot k over `list` (records `(x, y, z, λ)` at the
/// positions [`density`] saw, `tie` as it returned). Without a coincident pair, ∇W
/// is `f d` for every entry (the gradient factor f = 0 beyond h and at r = 0); with
/// one, the tie rule gives the coincident pairs' gradients. s_corr is 0 beyond h.
///
/// # Safety
/// Every entry of `list` is a slot of `rec`, as for [`density`].
#[inline(always)]
pub(super) unsafe fn correction(
    kernel: Kernel,
    c: &Consts,
    rec: &Records,
    k: usize,
    list: &[u32],
    tie: bool,
) -> [f32; 3] {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `density`.
        Kernel::Avx => unsafe {
            // The exponent of s_corr a constant of the loop where it is one of the
            // usual ones (no dispatch per block).
            match c.scorr_n {
                2 => avx::correction::<2>(c, rec, k, list, tie),
                3 => avx::correction::<3>(c, rec, k, list, tie),
                4 => avx::correction::<4>(c, rec, k, list, tie),
                _ => avx::correction::<0>(c, rec, k, list, tie),
            }
        },
        _ => correction_scalar(c, rec, k, list, tie),
    }
}

pub(crate) fn correction_scalar(
    c: &Consts,
    rec: &Records,
    k: usize,
    list: &[u32],
    tie: bool,
) -> [f32; 3] {
    let p = rec[k];
    let (mut ax, mut ay, mut az) = ([0.0f32; 8], [0.0; 8], [0.0; 8]);
    for (i, &j) in list.iter().enumerate() {
        let l = i % 8;
        let q = rec[j as usize];
        let d = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
        let r2 = (d[0] * d[0] + d[1] * d[1]) + d[2] * d[2];
        let (f, sc) = if r2 < c.h2 {
            let qq = c.h2 - r2;
            let f = if r2 == 0.0 { 0.0 } else { factor(c, r2) };
            (f, scorr(c, (qq * qq) * qq))
        } else {
            (0.0, 0.0)
        };
        let s = (p[3] + q[3]) + sc;
        let g = if tie {
            if r2 < c.h2 {
                gradient(c, d, r2, f, k, j as usize)
            } else {
                [0.0; 3]
            }
        } else {
            [d[0] * f, d[1] * f, d[2] * f]
        };
        ax[l] += g[0] * s;
        ay[l] += g[1] * s;
        az[l] += g[2] * s;
    }
    lane_sums([ax, ay, az], list.len())
}

/// Σ (v_j − v_k) q³ of slot k over `list` (q = h² − r², positions in `pos`,
/// velocities in `vel`): XSPH viscosity in one fluid.
///
/// # Safety
/// Every entry of `list` is a slot of both `pos` and `vel`, as for [`density`].
#[inline(always)]
pub(super) unsafe fn viscosity(
    kernel: Kernel,
    h2: f32,
    pos: &Records,
    vel: &Records,
    k: usize,
    list: &[u32],
) -> [f32; 3] {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `density`.
        Kernel::Avx => unsafe { avx::viscosity(h2, pos, vel, k, list) },
        _ => viscosity_scalar(h2, pos, vel, k, list),
    }
}

pub(crate) fn viscosity_scalar(
    h2: f32,
    pos: &Records,
    vel: &Records,
    k: usize,
    list: &[u32],
) -> [f32; 3] {
    let (p, v) = (pos[k], vel[k]);
    let (mut ax, mut ay, mut az) = ([0.0f32; 8], [0.0; 8], [0.0; 8]);
    for (i, &j) in list.iter().enumerate() {
        let l = i % 8;
        let (q, u) = (pos[j as usize], vel[j as usize]);
        let (dx, dy, dz) = (p[0] - q[0], p[1] - q[1], p[2] - q[2]);
        let r2 = (dx * dx + dy * dy) + dz * dz;
        let (x, y, z) = if r2 < h2 {
            let qq = h2 - r2;
            let w = (qq * qq) * qq;
            ((u[0] - v[0]) * w, (u[1] - v[1]) * w, (u[2] - v[2]) * w)
        } else {
            (0.0, 0.0, 0.0)
        };
        ax[l] += x;
        ay[l] += y;
        az[l] += z;
    }
    lane_sums([ax, ay, az], list.len())
}

/// What [`spread`] sums over a list (each reduced by [`reduce8`]): the neighbours
/// within h whose record has w ≠ 0, d = (x_j − x_k) / h, `w = 1 − |d|³`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Spread {
    /// How many neighbours counted.
    pub n: u32,
    /// Σ w.
    pub sw: f32,
    /// Σ w d.
    pub sd: [f32; 3],
    /// Σ w d dᵀ: xx, xy, xz, yy, yz, zz.
    pub dd: [f32; 6],
}

/// Σ w, Σ w d and Σ w d dᵀ of slot k over `list` ([`Spread`]; positions in `pos`,
/// `inv_h` = 1 / h).
///
/// # Safety
/// Every entry of `list` is a slot of `pos`, as for [`density`].
#[inline(always)]
pub(super) unsafe fn spread(
    kernel: Kernel,
    h2: f32,
    inv_h: f32,
    pos: &Records,
    k: usize,
    list: &[u32],
) -> Spread {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `density`.
        Kernel::Avx => unsafe { avx::spread(h2, inv_h, pos, k, list) },
        _ => spread_scalar(h2, inv_h, pos, k, list),
    }
}

pub(crate) fn spread_scalar(h2: f32, inv_h: f32, pos: &Records, k: usize, list: &[u32]) -> Spread {
    let p = pos[k];
    let ih3 = (inv_h * inv_h) * inv_h;
    let mut acc = [[0.0f32; 8]; 10];
    let mut n = 0u32;
    for (i, &j) in list.iter().enumerate() {
        let l = i % 8;
        let q = pos[j as usize];
        let (dx, dy, dz) = (q[0] - p[0], q[1] - p[1], q[2] - p[2]);
        let r2 = (dx * dx + dy * dy) + dz * dz;
        let terms = if r2 < h2 && q[3] != 0.0 {
            n += 1;
            let w = 1.0 - (r2 * r2.sqrt()) * ih3;
            let (wx, wy, wz) = (w * dx, w * dy, w * dz);
            [
                w,
                wx,
                wy,
                wz,
                wx * dx,
                wx * dy,
                wx * dz,
                wy * dy,
                wy * dz,
                wz * dz,
            ]
        } else {
            [0.0; 10]
        };
        for (a, t) in acc.iter_mut().zip(terms) {
            a[l] += t;
        }
    }
    spread_of(n, lane_sums(acc, list.len()), inv_h)
}

/// The [`Spread`] of `n` neighbours from the reduced sums Σ w, Σ w d, Σ w d dᵀ of the
/// separations d in metres: d scaled to units of h once, on the sums.
#[inline(always)]
fn spread_of(n: u32, s: [f32; 10], inv_h: f32) -> Spread {
    let ih2 = inv_h * inv_h;
    Spread {
        n,
        sw: s[0],
        sd: [s[1] * inv_h, s[2] * inv_h, s[3] * inv_h],
        dd: [
            s[4] * ih2,
            s[5] * ih2,
            s[6] * ih2,
            s[7] * ih2,
            s[8] * ih2,
            s[9] * ih2,
        ],
    }
}

/// Asks the CPU to fetch the cache line of `at` (the record of a particle a pass
/// reads a few slots later: the slots run in cell order, the particles in world
/// order). A hint only: `at` is never dereferenced, so any address is allowed.
#[inline(always)]
pub(crate) fn prefetch<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing the program sees.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(at as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::{Consts, Density, Records, TIE_X, TIE_Y};
    use std::arch::x86_64::*;

    /// The lanes of `v` in the tree of [`super::reduce8`].
    #[inline(always)]
    unsafe fn reduce(v: __m256) -> f32 {
        // SAFETY: AVX is enabled in every caller.
        unsafe {
            let b = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
            let c = _mm_add_ps(b, _mm_movehl_ps(b, b));
            let d = _mm_add_ss(c, _mm_shuffle_ps(c, c, 0b01));
            _mm_cvtss_f32(d)
        }
    }

    /// Eight records `rec[idx[l]]` as lanes `[x, y, z, w]`.
    ///
    /// # Safety
    /// AVX is available; every index is a slot of `rec`.
    #[inline(always)]
    unsafe fn gather(rec: &Records, idx: [usize; 8]) -> [__m256; 4] {
        let base = rec.as_ptr() as *const f32;
        // SAFETY: per the contract (the safe callers check the lists' indices, and
        // slot k's, which fills the lanes past a list's end).
        unsafe {
            crate::kernels::simd::avx::to_lanes(std::array::from_fn(|l| {
                _mm_loadu_ps(base.add(4 * idx[l]))
            }))
        }
    }

    /// The indices of block `b` of `list` (the lanes past its end point at slot k)
    /// and the mask of the lanes within it.
    #[inline(always)]
    unsafe fn block(list: &[u32], b: usize, k: usize) -> ([usize; 8], __m256) {
        let n = (list.len() - 8 * b).min(8);
        // SAFETY: AVX is enabled in every caller.
        unsafe {
            if n == 8 {
                let s = &list[8 * b..8 * b + 8];
                let all = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
                return (std::array::from_fn(|l| s[l] as usize), all);
            }
            let mut idx = [k; 8];
            for l in 0..n {
                idx[l] = list[8 * b + l] as usize;
            }
            // The lane mask from a compare (no store-to-load round trip).
            let lanes = _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
            let live = _mm256_cmp_ps(lanes, _mm256_set1_ps(n as f32), _CMP_LT_OQ);
            (idx, live)
        }
    }

    /// The gradient lanes (masked by `inside`) for separations d with |d|² = r2 and
    /// factors f (any value where r2 = 0: those lanes take the tie rule), and whether
    /// a lane did.
    #[inline(always)]
    unsafe fn gradient(
        c: &Consts,
        d: [__m256; 3],
        r2: __m256,
        f: __m256,
        inside: __m256,
        k: usize,
        idx: &[usize; 8],
    ) -> ([__m256; 3], bool) {
        // SAFETY: AVX is enabled in every caller.
        unsafe {
            let mut g = [
                _mm256_and_ps(_mm256_mul_ps(d[0], f), inside),
                _mm256_and_ps(_mm256_mul_ps(d[1], f), inside),
                _mm256_and_ps(_mm256_mul_ps(d[2], f), inside),
            ];
            let zero = _mm256_and_ps(_mm256_cmp_ps(r2, _mm256_setzero_ps(), _CMP_EQ_OQ), inside);
            let tie = _mm256_movemask_ps(zero) != 0;
            if tie {
                // Coincident particles (rare): the scalar rule lane by lane.
                let mut z = [0.0f32; 8];
                _mm256_storeu_ps(z.as_mut_ptr(), zero);
                let mut parts = [[0.0f32; 8]; 3];
                for (a, p) in parts.iter_mut().enumerate() {
                    _mm256_storeu_ps(p.as_mut_ptr(), g[a]);
                }
                for l in 0..8 {
                    if z[l].to_bits() != 0 {
                        let s = if k > idx[l] { 1.0 } else { -1.0 };
                        parts[0][l] = s * (TIE_X * c.tie);
                        parts[1][l] = s * (TIE_Y * c.tie);
                        parts[2][l] = 0.0;
                    }
                }
                for (a, p) in parts.iter().enumerate() {
                    g[a] = _mm256_loadu_ps(p.as_ptr());
                }
            }
            (g, tie)
        }
    }

    /// `x` times itself `n − 1` times, left to right ([`super::power`]).
    #[inline(always)]
    unsafe fn power(x: __m256, n: u32) -> __m256 {
        // SAFETY: AVX is enabled in every caller.
        unsafe {
            let m = |a, b| _mm256_mul_ps(a, b);
            match n {
                0 | 1 => x,
                2 => m(x, x),
                3 => m(m(x, x), x),
                4 => m(m(m(x, x), x), x),
                _ => {
                    let mut p = x;
                    for _ in 1..n {
                        p = m(p, x);
                    }
                    p
                }
            }
        }
    }

    /// The gradient factors `((grad (h − r)) (h − r)) / r`, zero outside `inside` and
    /// where r2 = 0.
    #[inline(always)]
    unsafe fn factor(c: &Consts, r2: __m256, inside: __m256) -> __m256 {
        // SAFETY: AVX is enabled in every caller.
        unsafe {
            let r = _mm256_sqrt_ps(r2);
            let t = _mm256_sub_ps(_mm256_set1_ps(c.h), r);
            let f = _mm256_div_ps(
                _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(c.grad), t), t),
                r,
            );
            let nonzero = _mm256_cmp_ps(r2, _mm256_setzero_ps(), _CMP_NEQ_UQ);
            _mm256_and_ps(f, _mm256_and_ps(inside, nonzero))
        }
    }

    /// [`super::density_scalar`], eight lanes at a time.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn density(c: &Consts, pos: &Records, k: usize, list: &[u32]) -> Density {
        assert!(k < pos.len());
        debug_assert!(super::slots_of(list, pos.len()));
        // SAFETY: AVX is enabled; indices are slots of `pos` (the contract, checked in
        // debug builds).
        unsafe {
            let p = pos[k];
            let (px, py, pz) = (
                _mm256_set1_ps(p[0]),
                _mm256_set1_ps(p[1]),
                _mm256_set1_ps(p[2]),
            );
            let h2 = _mm256_set1_ps(c.h2);
            let z = _mm256_setzero_ps();
            let (mut q3, mut gx, mut gy, mut gz, mut g2) = (z, z, z, z, z);
            let mut tie = false;
            for b in 0..list.len().div_ceil(8) {
                let (idx, live) = block(list, b, k);
                let [x, y, zz, _] = gather(pos, idx);
                let d = [
                    _mm256_sub_ps(px, x),
                    _mm256_sub_ps(py, y),
                    _mm256_sub_ps(pz, zz),
                ];
                let r2 = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(d[0], d[0]), _mm256_mul_ps(d[1], d[1])),
                    _mm256_mul_ps(d[2], d[2]),
                );
                let inside = _mm256_and_ps(_mm256_cmp_ps(r2, h2, _CMP_LT_OQ), live);
                let q = _mm256_sub_ps(h2, r2);
                let cube = _mm256_mul_ps(_mm256_mul_ps(q, q), q);
                let w = _mm256_and_ps(cube, inside);
                let f = factor(c, r2, inside);
                let (g, t) = gradient(c, d, r2, f, inside, k, &idx);
                tie |= t;
                q3 = _mm256_add_ps(q3, w);
                gx = _mm256_add_ps(gx, g[0]);
                gy = _mm256_add_ps(gy, g[1]);
                gz = _mm256_add_ps(gz, g[2]);
                let s = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(g[0], g[0]), _mm256_mul_ps(g[1], g[1])),
                    _mm256_mul_ps(g[2], g[2]),
                );
                g2 = _mm256_add_ps(g2, s);
            }
            Density {
                q3: reduce(q3),
                grad: [reduce(gx), reduce(gy), reduce(gz)],
                grad2: reduce(g2),
                tie,
            }
        }
    }

    /// [`super::correction_scalar`], eight lanes at a time; `N`: s_corr's exponent
    /// (0: `c.scorr_n`).
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn correction<const N: u32>(
        c: &Consts,
        rec: &Records,
        k: usize,
        list: &[u32],
        tie: bool,
    ) -> [f32; 3] {
        assert!(k < rec.len());
        debug_assert!(super::slots_of(list, rec.len()));
        // SAFETY: AVX is enabled; indices are slots of `rec` (the contract, checked
        // in debug builds).
        unsafe {
            let p = rec[k];
            let (px, py, pz) = (
                _mm256_set1_ps(p[0]),
                _mm256_set1_ps(p[1]),
                _mm256_set1_ps(p[2]),
            );
            let lk = _mm256_set1_ps(p[3]);
            let h2 = _mm256_set1_ps(c.h2);
            let (sx, scorr) = (_mm256_set1_ps(c.scorr_x), _mm256_set1_ps(c.scorr));
            let z = _mm256_setzero_ps();
            let (mut ax, mut ay, mut az) = (z, z, z);
            for b in 0..list.len().div_ceil(8) {
                let (idx, live) = block(list, b, k);
                let [x, y, zz, lj] = gather(rec, idx);
                let d = [
                    _mm256_sub_ps(px, x),
                    _mm256_sub_ps(py, y),
                    _mm256_sub_ps(pz, zz),
                ];
                let r2 = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(d[0], d[0]), _mm256_mul_ps(d[1], d[1])),
                    _mm256_mul_ps(d[2], d[2]),
                );
                let inside = _mm256_and_ps(_mm256_cmp_ps(r2, h2, _CMP_LT_OQ), live);
                let f = factor(c, r2, inside);
                let q = _mm256_sub_ps(h2, r2);
                let cube = _mm256_mul_ps(_mm256_mul_ps(q, q), q);
                let n = if N == 0 { c.scorr_n } else { N };
                let pw = power(_mm256_mul_ps(cube, sx), n);
                let sc = _mm256_and_ps(_mm256_mul_ps(scorr, pw), inside);
                let s = _mm256_add_ps(_mm256_add_ps(lk, lj), sc);
                let g = if tie {
                    gradient(c, d, r2, f, inside, k, &idx).0
                } else {
                    [
                        _mm256_mul_ps(d[0], f),
                        _mm256_mul_ps(d[1], f),
                        _mm256_mul_ps(d[2], f),
                    ]
                };
                // Masked after the product: the lanes past the end add +0 exactly.
                ax = _mm256_add_ps(ax, _mm256_and_ps(_mm256_mul_ps(g[0], s), live));
                ay = _mm256_add_ps(ay, _mm256_and_ps(_mm256_mul_ps(g[1], s), live));
                az = _mm256_add_ps(az, _mm256_and_ps(_mm256_mul_ps(g[2], s), live));
            }
            [reduce(ax), reduce(ay), reduce(az)]
        }
    }

    /// [`super::viscosity_scalar`], eight lanes at a time.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn viscosity(
        h2: f32,
        pos: &Records,
        vel: &Records,
        k: usize,
        list: &[u32],
    ) -> [f32; 3] {
        let len = pos.len().min(vel.len());
        assert!(k < len);
        debug_assert!(super::slots_of(list, len));
        // SAFETY: AVX is enabled; indices are slots of `pos` and `vel` (the contract,
        // checked in debug builds).
        unsafe {
            let (p, v) = (pos[k], vel[k]);
            let (px, py, pz) = (
                _mm256_set1_ps(p[0]),
                _mm256_set1_ps(p[1]),
                _mm256_set1_ps(p[2]),
            );
            let (vx, vy, vz) = (
                _mm256_set1_ps(v[0]),
                _mm256_set1_ps(v[1]),
                _mm256_set1_ps(v[2]),
            );
            let h2 = _mm256_set1_ps(h2);
            let z = _mm256_setzero_ps();
            let (mut ax, mut ay, mut az) = (z, z, z);
            for b in 0..list.len().div_ceil(8) {
                let (idx, live) = block(list, b, k);
                let [x, y, zz, _] = gather(pos, idx);
                let [ux, uy, uz, _] = gather(vel, idx);
                let (dx, dy, dz) = (
                    _mm256_sub_ps(px, x),
                    _mm256_sub_ps(py, y),
                    _mm256_sub_ps(pz, zz),
                );
                let r2 = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
                    _mm256_mul_ps(dz, dz),
                );
                let inside = _mm256_and_ps(_mm256_cmp_ps(r2, h2, _CMP_LT_OQ), live);
                let q = _mm256_sub_ps(h2, r2);
                let w = _mm256_mul_ps(_mm256_mul_ps(q, q), q);
                let tx = _mm256_and_ps(_mm256_mul_ps(_mm256_sub_ps(ux, vx), w), inside);
                let ty = _mm256_and_ps(_mm256_mul_ps(_mm256_sub_ps(uy, vy), w), inside);
                let tz = _mm256_and_ps(_mm256_mul_ps(_mm256_sub_ps(uz, vz), w), inside);
                ax = _mm256_add_ps(ax, tx);
                ay = _mm256_add_ps(ay, ty);
                az = _mm256_add_ps(az, tz);
            }
            [reduce(ax), reduce(ay), reduce(az)]
        }
    }
    /// [`super::spread_scalar`], eight lanes at a time.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn spread(
        h2: f32,
        inv_h: f32,
        pos: &Records,
        k: usize,
        list: &[u32],
    ) -> super::Spread {
        assert!(k < pos.len());
        debug_assert!(super::slots_of(list, pos.len()));
        // SAFETY: AVX is enabled; indices are slots of `pos` (the contract, checked in
        // debug builds).
        unsafe {
            let p = pos[k];
            let (px, py, pz) = (
                _mm256_set1_ps(p[0]),
                _mm256_set1_ps(p[1]),
                _mm256_set1_ps(p[2]),
            );
            let h2 = _mm256_set1_ps(h2);
            let ih3 = _mm256_set1_ps((inv_h * inv_h) * inv_h);
            let one = _mm256_set1_ps(1.0);
            let z = _mm256_setzero_ps();
            let mut acc = [z; 10];
            let mut n = 0u32;
            for b in 0..list.len().div_ceil(8) {
                let (idx, live) = block(list, b, k);
                let [x, y, zz, lw] = gather(pos, idx);
                let (dx, dy, dz) = (
                    _mm256_sub_ps(x, px),
                    _mm256_sub_ps(y, py),
                    _mm256_sub_ps(zz, pz),
                );
                let r2 = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
                    _mm256_mul_ps(dz, dz),
                );
                let inside = _mm256_and_ps(
                    _mm256_and_ps(_mm256_cmp_ps(r2, h2, _CMP_LT_OQ), live),
                    _mm256_cmp_ps(lw, z, _CMP_NEQ_UQ),
                );
                n += (_mm256_movemask_ps(inside) as u32).count_ones();
                let cube = _mm256_mul_ps(_mm256_mul_ps(r2, _mm256_sqrt_ps(r2)), ih3);
                // w and d masked (the lanes outside multiply +0 by +0): every term of
                // a lane outside is +0 exactly, as the scalar loop's.
                let w = _mm256_and_ps(_mm256_sub_ps(one, cube), inside);
                let (ex, ey, ez) = (
                    _mm256_and_ps(dx, inside),
                    _mm256_and_ps(dy, inside),
                    _mm256_and_ps(dz, inside),
                );
                let (wx, wy, wz) = (
                    _mm256_mul_ps(w, ex),
                    _mm256_mul_ps(w, ey),
                    _mm256_mul_ps(w, ez),
                );
                let terms = [
                    w,
                    wx,
                    wy,
                    wz,
                    _mm256_mul_ps(wx, ex),
                    _mm256_mul_ps(wx, ey),
                    _mm256_mul_ps(wx, ez),
                    _mm256_mul_ps(wy, ey),
                    _mm256_mul_ps(wy, ez),
                    _mm256_mul_ps(wz, ez),
                ];
                for (a, t) in acc.iter_mut().zip(terms) {
                    *a = _mm256_add_ps(*a, t);
                }
            }
            super::spread_of(n, reduce10(acc), inv_h)
        }
    }

    /// [`reduce`] of ten registers, two at a time in the same tree (the same
    /// additions with the same operands, so the same bits).
    #[inline(always)]
    unsafe fn reduce10(acc: [__m256; 10]) -> [f32; 10] {
        // SAFETY: AVX is enabled in every caller.
        unsafe {
            let mut out = [0.0f32; 10];
            for p in 0..5 {
                let (a, b) = (acc[2 * p], acc[2 * p + 1]);
                // [a_lo + a_hi | b_lo + b_hi]
                let s = _mm256_add_ps(
                    _mm256_permute2f128_ps(a, b, 0x20),
                    _mm256_permute2f128_ps(a, b, 0x31),
                );
                // Per half: (s0 + s2, s1 + s3, ..).
                let c = _mm256_add_ps(s, _mm256_permute_ps(s, 0b11_10_11_10));
                // Per half: c0 + c1 in lane 0.
                let d = _mm256_add_ps(c, _mm256_permute_ps(c, 0b01_01_01_01));
                out[2 * p] = _mm_cvtss_f32(_mm256_castps256_ps128(d));
                out[2 * p + 1] = _mm_cvtss_f32(_mm256_extractf128_ps(d, 1));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consts() -> Consts {
        let h = 0.04f32;
        let pi = std::f32::consts::PI;
        let poly6 = 315.0 / (64.0 * pi * h.powi(9));
        let grad = -45.0 / (pi * h.powi(6));
        let dq = 0.2 * h;
        let q = h * h - dq * dq;
        Consts {
            h,
            h2: h * h,
            grad,
            tie: grad * h * h,
            scorr: -0.1 * 0.02 * 0.02,
            scorr_x: poly6 / (poly6 * q * q * q),
            scorr_n: 4,
        }
    }

    /// 64 pseudo-random records `(x, y, z, λ)` around the origin, 7 and 9 coincident
    /// with 3, and their count.
    fn records_for_test() -> (Vec<[f32; 4]>, usize) {
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let n = 64;
        let mut rec: Vec<[f32; 4]> = (0..n)
            .map(|_| [rnd() * 0.1, rnd() * 0.1, rnd() * 0.1, rnd() * -1e-5])
            .collect();
        rec[7] = rec[3];
        rec[9] = rec[3];
        (rec, n)
    }

    /// Pseudo-random records around the origin (some coincident, some beyond h) and
    /// lists of every length 0..40: the AVX loops give the scalar loops' bits.
    #[test]
    fn avx_loops_give_the_scalar_bits() {
        if Kernel::detect() == Kernel::Scalar {
            return;
        }
        let c = consts();
        let (rec, n) = records_for_test();
        let mut xs: Vec<f32> = rec.iter().map(|r| r[0]).collect();
        let mut ys: Vec<f32> = rec.iter().map(|r| r[1]).collect();
        let mut zs: Vec<f32> = rec.iter().map(|r| r[2]).collect();
        for v in [&mut xs, &mut ys, &mut zs] {
            v.extend([0.0; 8]);
        }
        // The renderer's records: w = 1 for a live particle, 0 for every third one.
        let live: Vec<[f32; 4]> = (rec.iter().enumerate())
            .map(|(i, r)| [r[0], r[1], r[2], f32::from(i % 3 != 0)])
            .collect();
        let mut spread_counts = 0;
        for k in [3usize, 7, 20] {
            for len in 0..40usize {
                let list: Vec<u32> = (0..len as u32).map(|i| (i * 7 + 1) % n as u32).collect();
                // SAFETY: every entry is `% n`, a slot of `rec`.
                let a = unsafe { density(Kernel::detect(), &c, &rec, k, &list) };
                let b = density_scalar(&c, &rec, k, &list);
                assert_eq!(
                    (
                        a.q3.to_bits(),
                        a.grad.map(f32::to_bits),
                        a.grad2.to_bits(),
                        a.tie
                    ),
                    (
                        b.q3.to_bits(),
                        b.grad.map(f32::to_bits),
                        b.grad2.to_bits(),
                        b.tie
                    ),
                    "density k {k} len {len}"
                );
                let tie = a.tie;
                // Every exponent of s_corr (the AVX loop has constant ones).
                for scorr_n in 0..6 {
                    let c = Consts { scorr_n, ..c };
                    // SAFETY: as above.
                    let a = unsafe { correction(Kernel::detect(), &c, &rec, k, &list, tie) };
                    let b = correction_scalar(&c, &rec, k, &list, tie);
                    assert_eq!(
                        a.map(f32::to_bits),
                        b.map(f32::to_bits),
                        "correction k {k} len {len} n {scorr_n}"
                    );
                }
                let vel: Vec<[f32; 4]> =
                    rec.iter().map(|r| [r[1], -r[0], r[2] * 3.0, 0.0]).collect();
                // SAFETY: as above (`vel` has a record per slot of `rec`).
                let a = unsafe { viscosity(Kernel::detect(), c.h2, &rec, &vel, k, &list) };
                let b = viscosity_scalar(c.h2, &rec, &vel, k, &list);
                assert_eq!(
                    a.map(f32::to_bits),
                    b.map(f32::to_bits),
                    "viscosity k {k} len {len}"
                );
                // SAFETY: as above.
                let a = unsafe { spread(Kernel::detect(), c.h2, 1.0 / c.h, &live, k, &list) };
                let b = spread_scalar(c.h2, 1.0 / c.h, &live, k, &list);
                let bits = |s: Spread| {
                    (
                        s.n,
                        s.sw.to_bits(),
                        s.sd.map(f32::to_bits),
                        s.dd.map(f32::to_bits),
                    )
                };
                assert_eq!(bits(a), bits(b), "spread k {k} len {len}");
                if len == 39 {
                    spread_counts += a.n;
                }
            }
        }
        // Some neighbours count, some are beyond h or not live.
        assert!(
            spread_counts > 0 && spread_counts < 3 * 39,
            "{spread_counts}"
        );
    }
}
