//! The x86-64 kernel for CPUs with AVX (chosen once at run time): eight constraints
//! per block in 256-bit registers, the same operations as [`sse2`](super::distance::sse2) lane by lane (no
//! FMA), so the results are identical whichever kernel runs.

use std::arch::x86_64::*;
use std::ops::Range;

use super::distance::{ParticleArrays, Slots, MIN_LENGTH};
use super::simd::avx::{to_lanes, to_records};

/// # Safety
/// As [`super::distance::project_range`], and the CPU must support AVX.
#[target_feature(enable = "avx")]
pub(super) unsafe fn project_range(
    range: Range<usize>,
    slots: &Slots<'_>,
    particles: &ParticleArrays<'_>,
    inv_h2: f32,
) {
    // SAFETY: the range, slot and particle invariants of this function's safety
    // section are those `blocks` requires; the CPU has AVX.
    unsafe {
        if slots.fresh {
            blocks::<true>(range, slots, particles, inv_h2)
        } else {
            blocks::<false>(range, slots, particles, inv_h2)
        }
    }
}

/// Eight slots at a time, then the last 0..=7 with SSE2. One block of eight in flight:
/// with two (both loaded, then both projected) their twenty-odd live vectors no longer
/// fit the sixteen registers, and the spills cost more than the overlap of the two
/// blocks' divisions gains (the core overlaps consecutive blocks by itself).
///
/// A fresh sweep of slots that are all rigid XPBD constraints (softness +0, the
/// cloth's) runs [`solve8`] without the α and k' terms (`RIGID`): with λ = 0, α = 0
/// and k' = 1 they change no bit.
///
/// # Safety
/// As [`super::distance::project_range`]; the CPU must support AVX.
#[inline]
#[target_feature(enable = "avx")]
unsafe fn blocks<const FRESH: bool>(
    range: Range<usize>,
    slots: &Slots<'_>,
    particles: &ParticleArrays<'_>,
    inv_h2: f32,
) {
    // α = +0 · inv_h2 is +0 only for a finite inv_h2.
    let rigid = FRESH && slots.uniform.map(f32::to_bits) == Some(0) && inv_h2.is_finite();
    // SAFETY: as this function's safety section.
    let s = unsafe {
        if rigid {
            eights::<FRESH, true>(range.clone(), slots, particles, inv_h2)
        } else {
            eights::<FRESH, false>(range.clone(), slots, particles, inv_h2)
        }
    };
    // SAFETY: as above; the SSE2 kernel (same arithmetic) takes the last 0..=7.
    unsafe { super::distance::sse2::project_range(s..range.end, slots, particles, inv_h2) };
}

/// The blocks of eight of [`blocks`] over `range`; returns the first slot left (fewer
/// than eight remain). `RIGID`: every slot has softness +0 and the sweep is fresh.
///
/// # Safety
/// As [`super::distance::project_range`]; AVX is enabled in the caller.
#[inline(always)]
unsafe fn eights<const FRESH: bool, const RIGID: bool>(
    range: Range<usize>,
    slots: &Slots<'_>,
    particles: &ParticleArrays<'_>,
    inv_h2: f32,
) -> usize {
    let mut s = range.start;
    while s + 8 <= range.end {
        // SAFETY: s + 8 <= range.end, so slots s..s + 8 lie in the range, whose
        // slots are in bounds and own their particles (safety section).
        unsafe {
            let block = solve8::<RIGID>(load8::<FRESH, RIGID>(s, slots, particles, inv_h2));
            store8(s, block, slots, particles);
        }
        s += 8;
    }
    s
}

/// Eight slots loaded into lanes (see [`load8`]), then projected ([`solve8`]); also
/// the grid kernel's lanes (`distance_grid`, which leaves the indices zero).
pub(super) struct Block {
    pub(super) ia: [usize; 8],
    pub(super) ib: [usize; 8],
    /// Displacement rows (x, y, z) and inverse mass of the first and second ends.
    pub(super) a: [__m256; 4],
    pub(super) b: [__m256; 4],
    /// The separation x_a − x_b.
    pub(super) d: [__m256; 3],
    pub(super) rest: __m256,
    pub(super) alpha: __m256,
    pub(super) k: __m256,
    pub(super) lambda: __m256,
}

/// α (`softness · inv_h2` for an XPBD slot, 0 for a PBD one) and k' (1, or the PBD
/// stiffness) of eight packed softness values ([`super::distance::pack_softness`]):
/// `blendv` selects by the sign bit.
///
/// # Safety
/// AVX is enabled in the caller.
#[inline(always)]
pub(super) unsafe fn softness_terms(softness: __m256, inv_h2: f32) -> (__m256, __m256) {
    // SAFETY: AVX is enabled in the caller.
    unsafe {
        let alpha = _mm256_blendv_ps(
            _mm256_mul_ps(softness, _mm256_set1_ps(inv_h2)),
            _mm256_setzero_ps(),
            softness,
        );
        let k = _mm256_blendv_ps(
            _mm256_set1_ps(1.0),
            _mm256_xor_ps(softness, _mm256_set1_ps(-0.0)),
            softness,
        );
        (alpha, k)
    }
}

/// Loads slots `s..s + 8` into lanes (`RIGID`: see [`eights`]; α, k' and λ are then
/// left zero, unused).
///
/// # Safety
/// As [`super::distance::project_range`] for these eight slots; AVX is enabled in the caller.
#[inline(always)]
unsafe fn load8<const FRESH: bool, const RIGID: bool>(
    s: usize,
    slots: &Slots<'_>,
    particles: &ParticleArrays<'_>,
    inv_h2: f32,
) -> Block {
    let p = &slots.pairs[s..s + 8];
    let ia: [usize; 8] = std::array::from_fn(|k| p[k][0] as usize);
    let ib: [usize; 8] = std::array::from_fn(|k| p[k][1] as usize);
    let hot = particles.hot.as_ptr() as *const f32;
    let base = particles.base.as_ptr() as *const f32;
    // SAFETY: every index is below `hot`'s and `base`'s length (validated when the
    // constraint was added; particles are never removed); both are arrays of 16-byte
    // aligned four-float records, so each aligned load stays inside one element; no
    // other thread writes these particles during this call (the colouring); and
    // slots s..s+8 lie in the slot arrays (`pairs[s..s + 8]` above is
    // bounds-checked, and `rest`, `softness` and `lambda` have the length of
    // `pairs`).
    unsafe {
        let ([ax, ay, az, aw], [bx, by, bz, bw], [dx, dy, dz]) = gather_pairs(hot, base, ia, ib);
        let rest = _mm256_loadu_ps(slots.rest.as_ptr().add(s));
        let (alpha, k, lambda) = if RIGID {
            // Unused (see `solve8`).
            let z = _mm256_setzero_ps();
            (z, z, z)
        } else {
            // softness ≥ +0: α = softness, k' = 1; sign bit set: α = 0, k' = −softness
            // (blendv selects by the sign bit). One value for every slot: no load.
            let softness = match slots.uniform {
                Some(v) => _mm256_set1_ps(v),
                None => _mm256_loadu_ps(slots.softness.as_ptr().add(s)),
            };
            let (alpha, k) = softness_terms(softness, inv_h2);
            let lambda = if FRESH {
                _mm256_setzero_ps()
            } else {
                _mm256_loadu_ps(slots.lambda.as_ptr().add(s))
            };
            (alpha, k, lambda)
        };
        Block {
            ia,
            ib,
            a: [ax, ay, az, aw],
            b: [bx, by, bz, bw],
            d: [dx, dy, dz],
            rest,
            alpha,
            k,
            lambda,
        }
    }
}

/// Projects a loaded block: its ends' new rows and its new λ (in `lambda`).
#[inline(always)]
pub(super) fn solve8<const RIGID: bool>(block: Block) -> Block {
    // SAFETY: AVX is enabled in every caller (target_feature).
    unsafe {
        let Block {
            a: [ax, ay, az, aw],
            b: [bx, by, bz, bw],
            d: [dx, dy, dz],
            rest,
            alpha,
            k,
            lambda,
            ..
        } = block;
        let sign = _mm256_set1_ps(-0.0);
        let len2 = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
            _mm256_mul_ps(dz, dz),
        );
        let len = _mm256_sqrt_ps(len2);
        let c = _mm256_sub_ps(len, rest);
        let neg_c = _mm256_xor_ps(c, sign);
        let moves = _mm256_add_ps(aw, bw);
        let (denom, t) = if RIGID {
            (moves, neg_c)
        } else {
            (
                _mm256_add_ps(moves, alpha),
                _mm256_mul_ps(k, _mm256_sub_ps(neg_c, _mm256_mul_ps(alpha, lambda))),
            )
        };
        // As in `project_block` (see sse2).
        let finite = _mm256_cmp_ps::<_CMP_LT_OQ>(len, _mm256_set1_ps(f32::INFINITY));
        let active = _mm256_and_ps(
            _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GT_OQ>(len, _mm256_set1_ps(MIN_LENGTH)),
                finite,
            ),
            _mm256_cmp_ps::<_CMP_GT_OQ>(moves, _mm256_setzero_ps()),
        );
        let dl = _mm256_and_ps(active, _mm256_div_ps(t, denom));
        let scale = _mm256_and_ps(active, _mm256_div_ps(t, _mm256_mul_ps(denom, len)));
        let gx = _mm256_and_ps(finite, _mm256_mul_ps(dx, scale));
        let gy = _mm256_and_ps(finite, _mm256_mul_ps(dy, scale));
        let gz = _mm256_and_ps(finite, _mm256_mul_ps(dz, scale));
        Block {
            a: [
                _mm256_add_ps(ax, _mm256_mul_ps(gx, aw)),
                _mm256_add_ps(ay, _mm256_mul_ps(gy, aw)),
                _mm256_add_ps(az, _mm256_mul_ps(gz, aw)),
                aw,
            ],
            b: [
                _mm256_sub_ps(bx, _mm256_mul_ps(gx, bw)),
                _mm256_sub_ps(by, _mm256_mul_ps(gy, bw)),
                _mm256_sub_ps(bz, _mm256_mul_ps(gz, bw)),
                bw,
            ],
            lambda: _mm256_add_ps(lambda, dl),
            ..block
        }
    }
}

/// Stores a solved block of slots `s..s + 8`.
///
/// # Safety
/// As [`load8`] for the same slots.
#[inline(always)]
unsafe fn store8(s: usize, block: Block, slots: &Slots<'_>, particles: &ParticleArrays<'_>) {
    let hot = particles.hot.as_ptr() as *mut f32;
    // SAFETY: as in `load8` (the block's indices, slots s..s + 8); no other thread
    // reads or writes these particles during this call (the colouring).
    unsafe {
        _mm256_storeu_ps(slots.lambda.as_ptr().add(s), block.lambda);
        for (&i, r) in block.ia.iter().zip(to_records(block.a)) {
            _mm_store_ps(hot.add(4 * i), r);
        }
        for (&i, r) in block.ib.iter().zip(to_records(block.b)) {
            _mm_store_ps(hot.add(4 * i), r);
        }
    }
}

/// The lanes of eight pairs' hot records (`a`, `b`: x, y, z, w of each end) and
/// their separations `d = (base_a − base_b) + (d_a − d_b)` (as
/// `particles::separation`): the base difference is taken record by record before
/// one transpose, the same subtractions as lane by lane. Shared by the AVX
/// Gauss-Seidel, Jacobi and tether kernels.
///
/// # Safety
/// AVX is enabled in the caller; `hot` and `base` point to arrays of 16-byte
/// aligned four-float records, and every index of `ia` and `ib` is below their
/// length (so each aligned load stays inside one record).
#[inline(always)]
pub(super) unsafe fn gather_pairs(
    hot: *const f32,
    base: *const f32,
    ia: [usize; 8],
    ib: [usize; 8],
) -> ([__m256; 4], [__m256; 4], [__m256; 3]) {
    // SAFETY: the caller's promise (above).
    unsafe {
        let a = to_lanes(ia.map(|i| _mm_load_ps(hot.add(4 * i))));
        let b = to_lanes(ib.map(|i| _mm_load_ps(hot.add(4 * i))));
        let [pqx, pqy, pqz, _] = to_lanes(std::array::from_fn(|k| {
            _mm_sub_ps(
                _mm_load_ps(base.add(4 * ia[k])),
                _mm_load_ps(base.add(4 * ib[k])),
            )
        }));
        let d = [
            _mm256_add_ps(pqx, _mm256_sub_ps(a[0], b[0])),
            _mm256_add_ps(pqy, _mm256_sub_ps(a[1], b[1])),
            _mm256_add_ps(pqz, _mm256_sub_ps(a[2], b[2])),
        ];
        (a, b, d)
    }
}
