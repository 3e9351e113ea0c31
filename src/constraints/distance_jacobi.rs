//! The Jacobi kernels of the distance constraints: the projection of every slot from
//! the same positions (eight at a time with AVX where the CPU has it, detected at run
//! time) and the per-particle gather of the corrections.
//!
//! The projection is `distance.rs::project` with the Jacobi scale
//! k = (k' ω) w_j (stiffness, relaxation, averaging weight), lane by lane:
//! `len = √((dx² + dy²) + dz²)`, `Δλ = (k (−C − α̃λ)) / (w_a + w_b + α̃)`,
//! `g = d (Δλ / len)`; an inactive slot (coincident, overflowed or NaN separation, or
//! nothing movable) writes a zero correction and keeps its λ. The AVX and the scalar
//! versions perform the same IEEE-754 operations in the same order (no fused
//! multiply-add), so the results are bit for bit those of the scalar Jacobi of before,
//! on every CPU and for any split of the slots between threads (a unit test compares
//! them). Corrections are stored as 16-byte `Vec4`s (w = 0) so that both kernels move
//! them with single aligned loads and stores.

use std::ops::Range;

use super::distance_kernel::{unpack_softness, MIN_LENGTH};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::separation;
use crate::solver::parallel::DisjointSlice;

/// The per-slot arrays of a distance set, borrowed for one Jacobi projection.
pub(crate) struct JacobiSlots<'a> {
    pub pairs: &'a [[u32; 2]],
    pub rest: &'a [f32],
    /// See `distance_kernel::pack_softness`.
    pub softness: &'a [f32],
    /// Averaging weight 1 / max(n_a, n_b) of each slot.
    pub weight: &'a [f32],
    pub lambda: DisjointSlice<'a, f32>,
    /// One correction per slot (xyz; w stays 0).
    pub corrections: DisjointSlice<'a, Vec4>,
}

/// Projects slots `range` from the positions `base` + `hot` (read only).
///
/// # Safety
/// `range` lies within the slot arrays (all of one length), every particle index of
/// those slots is below `base`'s and `hot`'s length, and no other thread touches the
/// λ and corrections of `range` during the call.
pub(crate) unsafe fn project_range(
    range: Range<usize>,
    slots: &JacobiSlots<'_>,
    base: &[Vec3A],
    hot: &[Vec4],
    inv_h2: f32,
    relaxation: f32,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::avx_available() {
            // SAFETY: the CPU has AVX (checked at run time); the other requirements are
            // this function's, passed on unchanged.
            unsafe { avx::project_range(range, slots, base, hot, inv_h2, relaxation) };
            return;
        }
    }
    // SAFETY: as above.
    unsafe { project_scalar(range, slots, base, hot, inv_h2, relaxation) }
}

/// One slot at a time: the reference the AVX kernel matches bit for bit.
///
/// # Safety
/// As [`project_range`].
pub(crate) unsafe fn project_scalar(
    range: Range<usize>,
    slots: &JacobiSlots<'_>,
    base: &[Vec3A],
    hot: &[Vec4],
    inv_h2: f32,
    relaxation: f32,
) {
    for s in range {
        let [a, b] = slots.pairs[s];
        let (a, b) = (a as usize, b as usize);
        let (pa, pb) = (hot[a], hot[b]);
        let d = separation(base[a], base[b], pa, pb);
        let (compliance, stiffness) = unpack_softness(slots.softness[s]);
        let k = stiffness * relaxation * slots.weight[s];
        // SAFETY: slot s is in bounds and this call's alone (safety section).
        unsafe {
            let l = slots.lambda.get(s);
            let at = compliance * inv_h2;
            let len = d.length();
            let denom = (pa.w + pb.w) + at;
            if !(len > MIN_LENGTH && len < f32::INFINITY) || denom <= 0.0 {
                slots.corrections.set(s, Vec4::ZERO);
                continue;
            }
            let c = len - slots.rest[s];
            let dl = k * (-c - at * l) / denom;
            let g: Vec3 = d * (dl / len);
            slots.corrections.set(s, g.extend(0.0));
            slots.lambda.set(s, l + dl);
        }
    }
}

/// Adds to each particle of `particles` its gathered corrections, scaled by its
/// inverse mass: Σ ±g over `entries[offsets[i]..offsets[i + 1]]` (`(slot << 1) | end`,
/// end 1 subtracts), summed in entry order from zero.
///
/// # Safety
/// No other thread touches the particles of `particles` during the call, and every
/// index is in bounds (the adjacency was built over `hot`'s particles).
pub(crate) unsafe fn gather_range(
    particles: Range<usize>,
    offsets: &[u32],
    entries: &[u32],
    corrections: &[Vec4],
    hot: &DisjointSlice<'_, Vec4>,
) {
    for i in particles {
        let list = &entries[offsets[i] as usize..offsets[i + 1] as usize];
        if list.is_empty() {
            continue;
        }
        let mut sum = Vec4::ZERO;
        for &e in list {
            let g = corrections[(e >> 1) as usize];
            sum = if e & 1 == 0 { sum + g } else { sum - g };
        }
        // SAFETY: particle i is this call's alone and in bounds (safety section).
        unsafe {
            let p = hot.get(i);
            // w: p.w + 0 · p.w = p.w (sum.w is 0), as the scalar `p + (sum · w, 0)`.
            hot.set(i, p + sum * p.w);
        }
    }
}

/// The AVX projection: eight slots per block.
#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::*;
    use std::ops::Range;

    use super::super::distance_kernel::avx::gather_pairs;
    use super::{JacobiSlots, MIN_LENGTH};
    use crate::math::{Vec3A, Vec4};
    use crate::simd::avx::to_records;

    /// # Safety
    /// As [`super::project_range`]; the CPU must support AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn project_range(
        range: Range<usize>,
        slots: &JacobiSlots<'_>,
        base: &[Vec3A],
        hot: &[Vec4],
        inv_h2: f32,
        relaxation: f32,
    ) {
        let mut s = range.start;
        // Two blocks of eight at a time, both computed before either is stored, so
        // that one block's square root and divisions overlap the other's.
        while s + 16 <= range.end {
            // SAFETY: slots s..s+16 lie in `range` (loop condition); the rest is the
            // caller's promise.
            unsafe {
                let first = project8(s, slots, base, hot, inv_h2, relaxation);
                let second = project8(s + 8, slots, base, hot, inv_h2, relaxation);
                store8(s, slots, first);
                store8(s + 8, slots, second);
            }
            s += 16;
        }
        if s + 8 <= range.end {
            // SAFETY: slots s..s+8 lie in `range`; the rest is the caller's promise.
            unsafe { store8(s, slots, project8(s, slots, base, hot, inv_h2, relaxation)) };
            s += 8;
        }
        // SAFETY: as above, for the last 0..=7 slots.
        unsafe { super::project_scalar(s..range.end, slots, base, hot, inv_h2, relaxation) };
    }

    /// Slots `s..s + 8` projected: their new λ and their corrections, for
    /// [`store8`].
    struct Projected {
        lambda: __m256,
        g: [__m256; 4],
    }

    /// Stores what [`project8`] computed for slots `s..s + 8`.
    ///
    /// # Safety
    /// As [`project8`]; AVX is enabled in the caller.
    #[inline(always)]
    unsafe fn store8(s: usize, slots: &JacobiSlots<'_>, p: Projected) {
        // SAFETY: slots s..s+8 lie in the slot arrays and are this call's alone (the
        // caller's promise); `corrections` holds 16-byte aligned `Vec4`s.
        unsafe {
            _mm256_storeu_ps(slots.lambda.as_ptr().add(s), p.lambda);
            let out = slots.corrections.as_ptr().add(s) as *mut f32;
            for (k, r) in to_records(p.g).into_iter().enumerate() {
                _mm_store_ps(out.add(4 * k), r);
            }
        }
    }

    /// Projects slots `s..s + 8` (stored by [`store8`]).
    ///
    /// # Safety
    /// As [`super::project_range`] for these slots; AVX is enabled in the caller.
    #[inline(always)]
    unsafe fn project8(
        s: usize,
        slots: &JacobiSlots<'_>,
        base: &[Vec3A],
        hot: &[Vec4],
        inv_h2: f32,
        relaxation: f32,
    ) -> Projected {
        let p = &slots.pairs[s..s + 8];
        let ia: [usize; 8] = std::array::from_fn(|k| p[k][0] as usize);
        let ib: [usize; 8] = std::array::from_fn(|k| p[k][1] as usize);
        debug_assert!(ia
            .iter()
            .chain(&ib)
            .all(|&i| i < hot.len() && i < base.len()));
        let (hp, bp) = (hot.as_ptr() as *const f32, base.as_ptr() as *const f32);
        // SAFETY: every particle index is in bounds (the caller's promise, asserted in
        // debug builds); `hot` and `base`
        // are arrays of 16-byte aligned four-float records, so each aligned load stays
        // inside one element; slots s..s+8 lie in the slot arrays (`pairs[s..s + 8]` is
        // bounds-checked and `rest`, `softness`, `weight`, `lambda` and `corrections`
        // have its length) and are this call's alone; `corrections` holds 16-byte
        // aligned `Vec4`s.
        unsafe {
            let ([.., aw], [.., bw], [dx, dy, dz]) = gather_pairs(hp, bp, ia, ib);
            let rest = _mm256_loadu_ps(slots.rest.as_ptr().add(s));
            // softness ≥ +0: α = softness, k' = 1; sign bit set: α = 0, k' = −softness
            // (blendv selects by the sign bit).
            let softness = _mm256_loadu_ps(slots.softness.as_ptr().add(s));
            let sign = _mm256_set1_ps(-0.0);
            let at = _mm256_blendv_ps(
                _mm256_mul_ps(softness, _mm256_set1_ps(inv_h2)),
                _mm256_setzero_ps(),
                softness,
            );
            let stiffness =
                _mm256_blendv_ps(_mm256_set1_ps(1.0), _mm256_xor_ps(softness, sign), softness);
            let weight = _mm256_loadu_ps(slots.weight.as_ptr().add(s));
            let k = _mm256_mul_ps(_mm256_mul_ps(stiffness, _mm256_set1_ps(relaxation)), weight);
            let lambda = _mm256_loadu_ps(slots.lambda.as_ptr().add(s));
            let len2 = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
                _mm256_mul_ps(dz, dz),
            );
            let len = _mm256_sqrt_ps(len2);
            let denom = _mm256_add_ps(_mm256_add_ps(aw, bw), at);
            // Active: MIN_LENGTH < len < ∞ (false for NaN) and not denom ≤ 0 (true for
            // NaN), exactly the scalar test.
            let active = _mm256_and_ps(
                _mm256_and_ps(
                    _mm256_cmp_ps::<_CMP_GT_OQ>(len, _mm256_set1_ps(MIN_LENGTH)),
                    _mm256_cmp_ps::<_CMP_LT_OQ>(len, _mm256_set1_ps(f32::INFINITY)),
                ),
                _mm256_cmp_ps::<_CMP_NLE_UQ>(denom, _mm256_setzero_ps()),
            );
            let c = _mm256_sub_ps(len, rest);
            let t = _mm256_mul_ps(
                k,
                _mm256_sub_ps(_mm256_xor_ps(c, sign), _mm256_mul_ps(at, lambda)),
            );
            let dl = _mm256_div_ps(t, denom);
            let q = _mm256_div_ps(dl, len);
            let g = [
                _mm256_and_ps(active, _mm256_mul_ps(dx, q)),
                _mm256_and_ps(active, _mm256_mul_ps(dy, q)),
                _mm256_and_ps(active, _mm256_mul_ps(dz, q)),
                _mm256_setzero_ps(),
            ];
            Projected {
                lambda: _mm256_blendv_ps(lambda, _mm256_add_ps(lambda, dl), active),
                g,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);
    impl Rng {
        fn f(&mut self) -> f32 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32) / (1u64 << 24) as f32
        }
    }

    /// The dispatched (AVX where present) and the scalar projection give the same bits
    /// for XPBD (rigid and soft) and PBD slots, pinned and coincident ends, an
    /// overflowed separation and nonzero λ, split at odd places; and the gather adds
    /// exactly the scalar `p + (Σ ±g · w, 0)`.
    #[test]
    fn avx_and_scalar_jacobi_are_bit_identical() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let n = 90usize;
        let mut base: Vec<Vec3A> = (0..n)
            .map(|i| Vec3A::new(rng.f(), rng.f(), rng.f()) * if i % 5 == 0 { 1.0e3 } else { 1.0 })
            .collect();
        let mut hot: Vec<Vec4> = (0..n)
            .map(|i| {
                let w = if i % 7 == 0 { 0.0 } else { 0.5 + rng.f() };
                Vec4::new(rng.f() - 0.5, rng.f() - 0.5, rng.f() - 0.5, w) * 1e-2
                    + Vec4::new(0.0, 0.0, 0.0, w * 0.99)
            })
            .collect();
        base[9] = base[8];
        hot[8] = Vec4::new(0.0, 0.0, 0.0, 1.0);
        hot[9] = Vec4::new(0.0, 0.0, 0.0, 1.0);
        base[10] = Vec3A::new(3.0e38, 0.0, 0.0);
        base[11] = Vec3A::new(-3.0e38, 0.0, 0.0);
        // Jacobi slots may share particles: random pairs plus the special ones.
        let mut pairs: Vec<[u32; 2]> = (0..61)
            .map(|_| {
                let a = (rng.f() * n as f32) as u32 % n as u32;
                [a, (a + 1 + (rng.f() * 20.0) as u32) % n as u32]
            })
            .collect();
        pairs[3] = [0, 7];
        pairs[4] = [8, 9];
        pairs[5] = [10, 11];
        let m = pairs.len();
        let rest: Vec<f32> = (0..m).map(|_| rng.f()).collect();
        let softness: Vec<f32> = (0..m)
            .map(|j| match j % 6 {
                0 | 3 => 0.0,
                1 => -0.3,
                2 => -0.0,
                _ => rng.f() * 1e-3,
            })
            .collect();
        let weight: Vec<f32> = (0..m).map(|j| 1.0 / (1 + j % 4) as f32).collect();
        let lambda0: Vec<f32> = (0..m).map(|_| rng.f() - 0.5).collect();
        let run = |dispatched: bool| {
            let mut lambda = lambda0.clone();
            let mut corrections = vec![Vec4::splat(7.0); m];
            {
                let slots = JacobiSlots {
                    pairs: &pairs,
                    rest: &rest,
                    softness: &softness,
                    weight: &weight,
                    lambda: DisjointSlice::new(&mut lambda),
                    corrections: DisjointSlice::new(&mut corrections),
                };
                for r in [0..13, 13..22, 22..m] {
                    // SAFETY: in range, one thread.
                    unsafe {
                        if dispatched {
                            project_range(r, &slots, &base, &hot, 3600.0 * 64.0, 0.8)
                        } else {
                            project_scalar(r, &slots, &base, &hot, 3600.0 * 64.0, 0.8)
                        }
                    }
                }
            }
            (lambda, corrections)
        };
        let bits = |v: &[Vec4]| {
            v.iter()
                .flat_map(|p| p.to_array().map(f32::to_bits))
                .collect::<Vec<_>>()
        };
        let (la, ca) = run(true);
        let (lb, cb) = run(false);
        assert_eq!(bits(&ca), bits(&cb));
        assert_eq!(
            la.iter().map(|l| l.to_bits()).collect::<Vec<_>>(),
            lb.iter().map(|l| l.to_bits()).collect::<Vec<_>>()
        );
        for j in [3, 4, 5] {
            assert_eq!(ca[j], Vec4::ZERO, "slot {j} is inactive");
            assert_eq!(la[j], lambda0[j], "slot {j} keeps its λ");
        }
        assert!(ca.iter().filter(|c| **c != Vec4::ZERO).count() > 40);
        // The gather against the scalar formula of before.
        let adjacency = crate::solver::jacobi::Adjacency::build(&pairs, n).unwrap();
        let mut gathered = hot.clone();
        {
            let h = DisjointSlice::new(&mut gathered);
            // SAFETY: one thread, indices in range.
            unsafe { gather_range(0..n, &adjacency.offsets, &adjacency.entries, &ca, &h) };
        }
        for i in 0..n {
            let mut sum = Vec3::ZERO;
            for &e in adjacency.of(i) {
                let g = ca[(e >> 1) as usize].truncate();
                sum = if e & 1 == 0 { sum + g } else { sum - g };
            }
            let p = hot[i];
            let want = if adjacency.of(i).is_empty() {
                p
            } else {
                p + (sum * p.w).extend(0.0)
            };
            assert_eq!(
                gathered[i].to_array().map(f32::to_bits),
                want.to_array().map(f32::to_bits),
                "particle {i}"
            );
        }
    }
}
