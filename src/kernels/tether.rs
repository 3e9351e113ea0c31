//! The Gauss-Seidel kernel of tethers (`link::Tether`, `|x_1 − x_0| ≤ L`), eight slots
//! at a time with AVX where the CPU has it (detected at run time). It performs the
//! generic `NarySet` projection (`nary::project` over `link::Tether::evaluate`) lane by
//! lane with the same IEEE-754 operations in the same order (no fused multiply-add,
//! exact square root and divisions), so the result is the same bits as the generic
//! loop, which takes the last 0..=7 slots of a range and every slot elsewhere:
//!
//! * d = (base_1 − base_0) + (d_1 − d_0), len = √((dx² + dy²) + dz²), n = d / len
//!   (three divisions), C = len − L, active only for C > 0;
//! * denom = (α̃ + w_0 |n|²) + w_1 |n|², Δλ = (1 · (−C − α̃λ)) / denom;
//! * x_0 += (−n) (w_0 Δλ), x_1 += n (w_1 Δλ) (w + 0 in the fourth lane), λ += Δλ;
//! * a removed slot (α < 0), coincident, overflowed or NaN separations, a slack tether
//!   and any non-finite intermediate leave the slot's particles and λ untouched.

use std::ops::Range;

use crate::math::{Vec3A, Vec4};
use crate::solver::parallel::DisjointSlice;

/// The per-slot arrays of a tether set, borrowed for one sweep (read only by the AVX
/// kernel, so unread on other targets); made by [`TetherSlots::new`], which checks
/// that they have one length.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) struct TetherSlots<'a> {
    items: &'a [[u32; 2]],
    /// Max length L (m).
    rest: &'a [f32],
    /// m/N; negative for a removed constraint.
    compliance: &'a [f32],
    lambda: &'a DisjointSlice<'a, f32>,
}

impl<'a> TetherSlots<'a> {
    /// The slot arrays of one sweep. Panics unless `rest`, `compliance` and `lambda`
    /// have the length of `items`.
    pub(crate) fn new(
        items: &'a [[u32; 2]],
        rest: &'a [f32],
        compliance: &'a [f32],
        lambda: &'a DisjointSlice<'a, f32>,
    ) -> Self {
        let m = items.len();
        assert!(
            rest.len() == m && compliance.len() == m && lambda.len() == m,
            "tether kernel: slot arrays of different lengths"
        );
        TetherSlots {
            items,
            rest,
            compliance,
            lambda,
        }
    }
}

/// Projects the first slots of `range` (all of one colour) eight at a time and returns
/// the first slot it left for the generic loop (`range.start` without AVX). Panics
/// unless `range` lies within the slots and `base` and `hot` have one length.
///
/// # Safety
/// The slots of `range` must not share a particle with each other nor with any slot
/// another thread projects at the same time (the colouring), and every particle index
/// of those slots must be below `hot`'s length (checked when the constraints were
/// added).
pub(crate) unsafe fn project_range(
    range: Range<usize>,
    slots: &TetherSlots<'_>,
    base: &[Vec3A],
    hot: &DisjointSlice<'_, Vec4>,
    inv_h2: f32,
) -> usize {
    assert!(
        range.end <= slots.items.len() && base.len() == hot.len(),
        "tether kernel: slot range or particle arrays out of bounds"
    );
    #[cfg(target_arch = "x86_64")]
    {
        #[cfg(test)]
        if tests::FORCE_GENERIC.load(std::sync::atomic::Ordering::Relaxed) {
            return range.start;
        }
        if crate::kernels::simd::avx_available() {
            // SAFETY: the CPU has AVX (checked at run time); the other requirements are
            // this function's, passed on unchanged.
            return unsafe { avx::project_range(range, slots, base, hot, inv_h2) };
        }
    }
    let _ = (slots, base, hot, inv_h2);
    range.start
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::*;
    use std::ops::Range;

    use super::TetherSlots;
    use crate::kernels::distance::MIN_LENGTH;
    use crate::kernels::simd::avx::{to_lanes, to_records};
    use crate::math::{Vec3A, Vec4};
    use crate::solver::parallel::DisjointSlice;

    /// # Safety
    /// As [`super::project_range`]; the CPU must support AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn project_range(
        range: Range<usize>,
        slots: &TetherSlots<'_>,
        base: &[Vec3A],
        hot: &DisjointSlice<'_, Vec4>,
        inv_h2: f32,
    ) -> usize {
        let mut s = range.start;
        // One block of eight at a time: two in flight (both computed before either is
        // stored) hold sixteen records and their indices each, which spill out of the
        // registers; the core overlaps consecutive blocks by itself.
        while s + 8 <= range.end {
            // SAFETY: slots s..s+8 lie in `range`; the rest is the caller's promise.
            unsafe { store8(s, slots, hot, project8(s, slots, base, hot, inv_h2)) };
            s += 8;
        }
        s
    }

    /// Slots `s..s + 8` projected by [`project8`]: the records to store at each end and
    /// the new λ.
    struct Projected {
        i0: [usize; 8],
        i1: [usize; 8],
        r0: [__m128; 8],
        r1: [__m128; 8],
        lambda: __m256,
    }

    /// Stores what [`project8`] computed for slots `s..s + 8`.
    ///
    /// # Safety
    /// As [`project8`]; AVX is enabled in the caller.
    #[inline(always)]
    unsafe fn store8(
        s: usize,
        slots: &TetherSlots<'_>,
        hot: &DisjointSlice<'_, Vec4>,
        p: Projected,
    ) {
        let hp = hot.as_ptr() as *mut f32;
        // SAFETY: as in `project8`.
        unsafe {
            _mm256_storeu_ps(slots.lambda.as_ptr().add(s), p.lambda);
            for (&i, r) in p.i0.iter().zip(p.r0) {
                _mm_store_ps(hp.add(4 * i), r);
            }
            for (&i, r) in p.i1.iter().zip(p.r1) {
                _mm_store_ps(hp.add(4 * i), r);
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
        slots: &TetherSlots<'_>,
        base: &[Vec3A],
        hot: &DisjointSlice<'_, Vec4>,
        inv_h2: f32,
    ) -> Projected {
        let p = &slots.items[s..s + 8];
        let i0: [usize; 8] = std::array::from_fn(|k| p[k][0] as usize);
        let i1: [usize; 8] = std::array::from_fn(|k| p[k][1] as usize);
        debug_assert!(i0
            .iter()
            .chain(&i1)
            .all(|&i| i < hot.len() && i < base.len()));
        let hp = hot.as_ptr() as *const f32;
        let bp = base.as_ptr() as *const f32;
        // SAFETY: every particle index is in bounds (the caller's promise, asserted in
        // debug builds); `hot` and `base` are arrays of 16-byte aligned four-float
        // records, so each aligned load (and `store8`'s stores) stays inside one
        // element; no other thread touches these particles during the call (the
        // colouring); slots
        // s..s+8 lie in the slot arrays (`items[s..s + 8]` is bounds-checked and
        // `rest`, `compliance` and `lambda` have its length).
        unsafe {
            let r0 = i0.map(|i| _mm_load_ps(hp.add(4 * i)));
            let r1 = i1.map(|i| _mm_load_ps(hp.add(4 * i)));
            let [ax, ay, az, aw] = to_lanes(r0);
            let [bx, by, bz, bw] = to_lanes(r1);
            // base_1 − base_0 record by record (the same subtractions as lane by lane).
            let [qx, qy, qz, _] = to_lanes(std::array::from_fn(|k| {
                _mm_sub_ps(
                    _mm_load_ps(bp.add(4 * i1[k])),
                    _mm_load_ps(bp.add(4 * i0[k])),
                )
            }));
            // d = (base_1 − base_0) + (d_1 − d_0), as `particles::separation`.
            let dx = _mm256_add_ps(qx, _mm256_sub_ps(bx, ax));
            let dy = _mm256_add_ps(qy, _mm256_sub_ps(by, ay));
            let dz = _mm256_add_ps(qz, _mm256_sub_ps(bz, az));
            let len = _mm256_sqrt_ps(_mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
                _mm256_mul_ps(dz, dz),
            ));
            let zero = _mm256_setzero_ps();
            let inf = _mm256_set1_ps(f32::INFINITY);
            let valid = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GT_OQ>(len, _mm256_set1_ps(MIN_LENGTH)),
                _mm256_cmp_ps::<_CMP_LT_OQ>(len, inf),
            );
            let (nx, ny, nz) = (
                _mm256_div_ps(dx, len),
                _mm256_div_ps(dy, len),
                _mm256_div_ps(dz, len),
            );
            let c = _mm256_sub_ps(len, _mm256_loadu_ps(slots.rest.as_ptr().add(s)));
            let alpha = _mm256_loadu_ps(slots.compliance.as_ptr().add(s));
            let at = _mm256_mul_ps(alpha, _mm256_set1_ps(inv_h2));
            let lambda = _mm256_loadu_ps(slots.lambda.as_ptr().add(s));
            let nn = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(nx, nx), _mm256_mul_ps(ny, ny)),
                _mm256_mul_ps(nz, nz),
            );
            let denom = _mm256_add_ps(
                _mm256_add_ps(at, _mm256_mul_ps(aw, nn)),
                _mm256_mul_ps(bw, nn),
            );
            let sign = _mm256_set1_ps(-0.0);
            let t = _mm256_mul_ps(
                _mm256_set1_ps(1.0),
                _mm256_sub_ps(_mm256_xor_ps(c, sign), _mm256_mul_ps(at, lambda)),
            );
            let dl = _mm256_div_ps(t, denom);
            // |v| < ∞ is false for ±∞ and NaN: the finiteness tests of `nary::project`.
            let abs = |v: __m256| _mm256_andnot_ps(sign, v);
            let finite = |v: __m256| _mm256_cmp_ps::<_CMP_LT_OQ>(abs(v), inf);
            let mut active = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GE_OQ>(alpha, zero),
                _mm256_and_ps(valid, _mm256_cmp_ps::<_CMP_GT_OQ>(c, zero)),
            );
            for ok in [
                finite(denom),
                _mm256_cmp_ps::<_CMP_GT_OQ>(denom, _mm256_set1_ps(f32::MIN_POSITIVE)),
                finite(c),
                finite(nx),
                finite(ny),
                finite(nz),
                finite(dl),
            ] {
                active = _mm256_and_ps(active, ok);
            }
            // x_0 += (−n) (w_0 Δλ), x_1 += n (w_1 Δλ); the fourth lane gets w + 0.
            let (s0, s1) = (_mm256_mul_ps(aw, dl), _mm256_mul_ps(bw, dl));
            let a = [
                _mm256_add_ps(ax, _mm256_mul_ps(_mm256_xor_ps(nx, sign), s0)),
                _mm256_add_ps(ay, _mm256_mul_ps(_mm256_xor_ps(ny, sign), s0)),
                _mm256_add_ps(az, _mm256_mul_ps(_mm256_xor_ps(nz, sign), s0)),
                _mm256_add_ps(aw, zero),
            ];
            let b = [
                _mm256_add_ps(bx, _mm256_mul_ps(nx, s1)),
                _mm256_add_ps(by, _mm256_mul_ps(ny, s1)),
                _mm256_add_ps(bz, _mm256_mul_ps(nz, s1)),
                _mm256_add_ps(bw, zero),
            ];
            // Inactive lanes keep their records and λ unchanged.
            let mask = to_records([active, active, active, active]);
            let (a, b) = (to_records(a), to_records(b));
            Projected {
                i0,
                i1,
                r0: std::array::from_fn(|k| _mm_blendv_ps(r0[k], a[k], mask[k])),
                r1: std::array::from_fn(|k| _mm_blendv_ps(r1[k], b[k], mask[k])),
                lambda: _mm256_blendv_ps(lambda, _mm256_add_ps(lambda, dl), active),
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::sync::atomic::Ordering;

    use crate::constraints::set::FamilyKind;
    use crate::math::Vec3;
    use crate::{World, WorldDesc};

    /// Makes every tether sweep in this test process take the generic loop (results
    /// are the same bits either way, so tests running meanwhile are unaffected).
    pub(crate) static FORCE_GENERIC: std::sync::atomic::AtomicBool =
        std::sync::atomic::AtomicBool::new(false);

    /// A fan of tethers from pinned and free anchors over 120 particles (slack and taut,
    /// rigid and compliant, far from the origin, a coincident pair, a pinned end with
    /// inverse mass −0, removed tethers), stepped with the SIMD kernel and with the
    /// generic loop: the same bits every step, and the taut tethers did pull.
    #[test]
    fn simd_and_generic_tethers_are_bit_identical() {
        let run = |generic: bool| {
            FORCE_GENERIC.store(generic, Ordering::Relaxed);
            let mut w = World::new(WorldDesc {
                threads: 1,
                ..WorldDesc::default()
            })
            .unwrap();
            let n = 120u32;
            let positions: Vec<Vec3> = (0..n)
                .map(|i| {
                    let far = if i >= 100 { 1.0e4 } else { 0.0 };
                    Vec3::new(
                        far + (i % 10) as f32 * 0.13,
                        (i / 10) as f32 * -0.07,
                        ((i * 7) % 5) as f32 * 0.05,
                    )
                })
                .collect();
            let mut positions = positions;
            positions[41] = positions[40]; // coincident with its anchor
                                           // 30 anchors (every fourth particle; most pinned, some free), three tethers
                                           // each: every colour holds about 30 tethers, so most run eight at a time.
            let masses: Vec<f32> = (0..n)
                .map(|i| match i {
                    77 => -0.0,
                    _ if i % 4 == 0 && i % 12 != 4 => 0.0,
                    _ => 0.5 + (i % 3) as f32,
                })
                .collect();
            w.add_particles(&positions, Some(&masses)).unwrap();
            let pairs: Vec<[u32; 2]> = (0..n)
                .filter(|i| i % 4 != 0)
                .map(|i| [i / 4 * 4, i])
                .collect();
            // Some max lengths shorter than the start distance (taut), some longer.
            let lengths: Vec<f32> = pairs
                .iter()
                .enumerate()
                .map(|(j, &[a, b])| {
                    let d = positions[a as usize].distance(positions[b as usize]);
                    if j % 3 == 0 {
                        d * 1.5 + 0.01
                    } else {
                        d * 0.6
                    }
                })
                .collect();
            let first = w.add_tethers(&pairs, Some(&lengths), 0.0).unwrap();
            let soft = w.add_tethers(&[[40, 99], [0, 38], [4, 5]], Some(&[0.05; 3]), 1.0e-4);
            soft.unwrap();
            w.remove_constraints(FamilyKind::Tether, first + 5, 3)
                .unwrap();
            let mut hashes = Vec::new();
            for _ in 0..20 {
                w.step(1.0 / 60.0).unwrap();
                hashes.push(w.state_hash());
            }
            let moved = (0..n as usize)
                .filter(|&i| w.particles.position(i) != positions[i])
                .count();
            (hashes, moved)
        };
        let (simd, moved) = run(false);
        let (generic, _) = run(true);
        FORCE_GENERIC.store(false, Ordering::Relaxed);
        assert_eq!(simd, generic);
        assert!(moved > 80, "{moved} particles moved");
    }
}
