//! The Jacobi kernels of the distance constraints: the projection of every slot from
//! the same positions (eight at a time with AVX where the CPU has it, detected at run
//! time) and the per-particle gather of the corrections.
//!
//! The projection is `distance.rs::project` with the Jacobi scale
//! k = (k' ω) w_j (stiffness, relaxation, averaging weight), lane by lane:
//! `len = √((dx² + dy²) + dz²)`, `q = (k (−C − α̃λ)) / ((w_a + w_b + α̃) len)`,
//! `Δλ = q len`, `g = d q` (one division per slot: the division of Δλ by len waited
//! on Δλ's, and the projection is bound by the square root and the divisions); an
//! inactive slot (coincident, overflowed or NaN separation, or
//! nothing movable) writes a zero correction and keeps its λ (0 in the first
//! iteration of a substep, which reads every λ as 0). The AVX and the scalar
//! versions perform the same IEEE-754 operations in the same order (no fused
//! multiply-add), so the results are bit for bit the same on every CPU and for any
//! split of the slots between threads (a unit test compares
//! them). Corrections are stored as 16-byte `Vec4`s (w = 0) so that both kernels move
//! them with single aligned loads and stores.

use std::ops::Range;

use super::distance::{unpack_softness, MIN_LENGTH};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::separation;
use crate::solver::parallel::DisjointSlice;

/// The per-slot arrays of a distance set, borrowed for one Jacobi projection; made by
/// [`JacobiSlots::new`], which checks that they have one length.
pub(crate) struct JacobiSlots<'a> {
    pub(super) pairs: &'a [[u32; 2]],
    pub(super) rest: &'a [f32],
    /// See `kernels::distance::pack_softness`.
    pub(super) softness: &'a [f32],
    /// The softness every slot has (bit for bit), if they share one: then `softness`
    /// is not read.
    pub(super) uniform: Option<f32>,
    /// Averaging weight 1 / max(n_a, n_b) of each slot.
    pub(super) weight: &'a [f32],
    pub(super) lambda: DisjointSlice<'a, f32>,
    /// The first iteration of a substep: λ is read as 0 (whatever is stored).
    pub(super) fresh: bool,
    /// 1 / h² (1/s²).
    pub(super) inv_h2: f32,
    /// Jacobi relaxation ω.
    pub(super) relaxation: f32,
}

impl<'a> JacobiSlots<'a> {
    /// The slot arrays of one iteration (`inv_h2` = 1 / h² in 1/s², `relaxation` = ω;
    /// `uniform`: the softness of every slot, when they share one bit for bit).
    /// Panics unless `rest`, `softness`, `weight` and `lambda` have the length of
    /// `pairs`, or if a slot's softness differs from `uniform`'s (debug builds).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        pairs: &'a [[u32; 2]],
        rest: &'a [f32],
        softness: &'a [f32],
        uniform: Option<f32>,
        weight: &'a [f32],
        lambda: DisjointSlice<'a, f32>,
        fresh: bool,
        inv_h2: f32,
        relaxation: f32,
    ) -> Self {
        let m = pairs.len();
        assert!(
            rest.len() == m && softness.len() == m && weight.len() == m && lambda.len() == m,
            "Jacobi kernel: slot arrays of different lengths"
        );
        debug_assert!(uniform.is_none_or(|u| softness.iter().all(|v| v.to_bits() == u.to_bits())));
        JacobiSlots {
            pairs,
            rest,
            softness,
            uniform,
            weight,
            lambda,
            fresh,
            inv_h2,
            relaxation,
        }
    }

    /// Number of slots.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.pairs.len()
    }
}

/// Projects slots `range` from the positions `base` + `hot` (read only), writing two
/// corrections per slot to `out` from index `at` on: +g (for the particle at end 0)
/// and −g (for end 1) of slot s at `at + 2 (s − range.start)` and the next index,
/// xyz (w stays 0).
///
/// Panics unless `range` lies within the slots, `at + 2 range.len()` within `out`,
/// and `base` and `hot` have one length.
///
/// # Safety
/// Every particle index of the slots of `range` is below `hot`'s length (checked when
/// the constraints were added), no other thread writes the particles of those slots,
/// and no other thread touches the λ of `range` or those elements of `out` during the
/// call.
pub(crate) unsafe fn project_range(
    range: Range<usize>,
    slots: &JacobiSlots<'_>,
    base: &DisjointSlice<'_, Vec3A>,
    hot: &DisjointSlice<'_, Vec4>,
    out: &DisjointSlice<'_, Vec4>,
    at: usize,
) {
    assert!(
        range.end <= slots.len() && at + 2 * range.len() <= out.len() && base.len() == hot.len(),
        "Jacobi kernel: range, output or particle arrays out of bounds"
    );
    #[cfg(target_arch = "x86_64")]
    {
        if super::simd::avx_available() {
            // SAFETY: the CPU has AVX (checked at run time); the other requirements are
            // this function's, passed on unchanged.
            unsafe { avx::project_range(range, slots, base, hot, out, at) };
            return;
        }
    }
    // SAFETY: as above.
    unsafe { project_scalar(range, slots, base, hot, out, at) }
}

/// One slot at a time: the reference the AVX kernel matches bit for bit.
///
/// # Safety
/// As [`project_range`], and the bounds it checks hold.
pub(crate) unsafe fn project_scalar(
    range: Range<usize>,
    slots: &JacobiSlots<'_>,
    base: &DisjointSlice<'_, Vec3A>,
    hot: &DisjointSlice<'_, Vec4>,
    out: &DisjointSlice<'_, Vec4>,
    at: usize,
) {
    let (inv_h2, relaxation) = (slots.inv_h2, slots.relaxation);
    for s in range.clone() {
        let o = at + 2 * (s - range.start);
        let [a, b] = slots.pairs[s];
        let (a, b) = (a as usize, b as usize);
        // SAFETY: a and b are in bounds, and nobody writes them during the call
        // (safety section).
        let (pa, pb, ba, bb) = unsafe { (hot.get(a), hot.get(b), base.get(a), base.get(b)) };
        let d = separation(ba, bb, pa, pb);
        let (compliance, stiffness) =
            unpack_softness(slots.uniform.unwrap_or_else(|| slots.softness[s]));
        let k = stiffness * relaxation * slots.weight[s];
        // SAFETY: slot s is in bounds and this call's alone (safety section).
        unsafe {
            let l = if slots.fresh {
                0.0
            } else {
                slots.lambda.get(s)
            };
            let at = compliance * inv_h2;
            let len = d.length();
            let moves = pa.w + pb.w;
            let denom = moves + at;
            if !(len > MIN_LENGTH && len < f32::INFINITY) || moves <= 0.0 {
                // +0 and −0 (the AVX kernel's sign flip of a zero correction).
                out.set(o, Vec4::ZERO);
                out.set(o + 1, Vec4::new(-0.0, -0.0, -0.0, 0.0));
                slots.lambda.set(s, l);
                continue;
            }
            let c = len - slots.rest[s];
            // One division: q = Δλ / len, Δλ = q len.
            let q = k * (-c - at * l) / (denom * len);
            let dl = q * len;
            let g: Vec3 = d * q;
            out.set(o, g.extend(0.0));
            out.set(o + 1, (-g).extend(0.0));
            slots.lambda.set(s, l + dl);
        }
    }
}

/// A gather entry of [`apply`]: the index of a correction (from the entry's first).
pub(super) trait Entry: Copy {
    fn index(self) -> usize;
}

impl Entry for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

impl Entry for u16 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

/// Adds to particle `i` the sum of its corrections `src[at + e]` over the entries e of
/// `list` (±g, see [`project_range`]), scaled by its inverse mass: the even entries
/// summed in order from zero, the odd ones too, then the two sums added.
///
/// # Safety
/// No other thread touches particle `i` during the call, nobody writes the
/// corrections it reads, and every index is in bounds.
#[inline(always)]
pub(super) unsafe fn apply<E: Entry>(
    i: usize,
    list: &[E],
    src: &DisjointSlice<'_, Vec4>,
    at: usize,
    hot: &DisjointSlice<'_, Vec4>,
) {
    if list.is_empty() {
        return;
    }
    // SAFETY: in bounds, and nobody writes these corrections meanwhile (safety
    // section).
    let signed = |e: E| unsafe { src.get(at + e.index()) };
    // Two sums (even and odd entries), so that the additions overlap.
    let (mut even, mut odd) = (Vec4::ZERO, Vec4::ZERO);
    let mut pairs = list.chunks_exact(2);
    for pair in &mut pairs {
        even += signed(pair[0]);
        odd += signed(pair[1]);
    }
    if let [e] = pairs.remainder() {
        even += signed(*e);
    }
    let sum = even + odd;
    // SAFETY: particle i is this call's alone and in bounds (safety section).
    unsafe {
        let p = hot.get(i);
        // w: p.w + 0 · p.w = p.w (sum.w is 0), as the scalar `p + (sum · w, 0)`.
        hot.set(i, p + sum * p.w);
    }
}

/// The AVX projection: eight slots per block.
#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::*;
    use std::ops::Range;

    use super::{JacobiSlots, MIN_LENGTH};
    use crate::kernels::distance_avx::gather_pairs;
    use crate::math::{Vec3A, Vec4};
    use crate::solver::parallel::DisjointSlice;

    /// # Safety
    /// As [`super::project_range`]; the CPU must support AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn project_range(
        range: Range<usize>,
        slots: &JacobiSlots<'_>,
        base: &DisjointSlice<'_, Vec3A>,
        hot: &DisjointSlice<'_, Vec4>,
        out: &DisjointSlice<'_, Vec4>,
        at: usize,
    ) {
        let (inv_h2, relaxation) = (slots.inv_h2, slots.relaxation);
        // A softness every slot shares gives every block the same α̃ and k' ω.
        let mut shared = None;
        if let Some(u) = slots.uniform {
            // SAFETY: AVX is enabled in this function.
            shared = Some(unsafe { coefficients(_mm256_set1_ps(u), inv_h2, relaxation) });
        }
        // Slot s's corrections: `out[at + 2 (s − range.start)..]`.
        let o = |s: usize| at + 2 * (s - range.start);
        let mut s = range.start;
        // Two blocks of eight at a time, both computed before either is stored, so
        // that one block's square root and divisions overlap the other's.
        while s + 16 <= range.end {
            // SAFETY: slots s..s+16 lie in `range` (loop condition); the rest is the
            // caller's promise.
            unsafe {
                let first = project8(s, slots, base, hot, shared, inv_h2, relaxation);
                let second = project8(s + 8, slots, base, hot, shared, inv_h2, relaxation);
                store8(s, slots, out, o(s), first);
                store8(s + 8, slots, out, o(s + 8), second);
            }
            s += 16;
        }
        if s + 8 <= range.end {
            // SAFETY: slots s..s+8 lie in `range`; the rest is the caller's promise.
            unsafe {
                let p = project8(s, slots, base, hot, shared, inv_h2, relaxation);
                store8(s, slots, out, o(s), p);
            }
            s += 8;
        }
        // SAFETY: as above, for the last 0..=7 slots.
        unsafe { super::project_scalar(s..range.end, slots, base, hot, out, o(s)) };
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
    unsafe fn store8(
        s: usize,
        slots: &JacobiSlots<'_>,
        out: &DisjointSlice<'_, Vec4>,
        at: usize,
        p: Projected,
    ) {
        debug_assert!(at + 16 <= out.len());
        // SAFETY: slots s..s+8 lie in the slot arrays and are this call's alone, and
        // so are `out[at..at + 16]` (the caller's promise).
        unsafe {
            _mm256_storeu_ps(slots.lambda.as_ptr().add(s), p.lambda);
            let out = out.as_ptr().add(at) as *mut f32;
            // −g: the sign of x, y and z flipped (w stays +0).
            let flip = _mm256_setr_ps(-0.0, -0.0, -0.0, 0.0, -0.0, -0.0, -0.0, 0.0);
            // `to_records`' transpose, before its halves are split: r[k] = [g_k | g_k+4].
            let t0 = _mm256_unpacklo_ps(p.g[0], p.g[1]);
            let t1 = _mm256_unpackhi_ps(p.g[0], p.g[1]);
            let t2 = _mm256_unpacklo_ps(p.g[2], p.g[3]);
            let t3 = _mm256_unpackhi_ps(p.g[2], p.g[3]);
            let r = [
                _mm256_shuffle_ps(t0, t2, 0x44),
                _mm256_shuffle_ps(t0, t2, 0xEE),
                _mm256_shuffle_ps(t1, t3, 0x44),
                _mm256_shuffle_ps(t1, t3, 0xEE),
            ];
            for (k, rk) in r.into_iter().enumerate() {
                // Slot s + k: [g_k | −g_k]; slot s + k + 4: [g_k+4 | −g_k+4].
                let nk = _mm256_xor_ps(rk, flip);
                _mm256_storeu_ps(out.add(8 * k), _mm256_permute2f128_ps(rk, nk, 0x20));
                _mm256_storeu_ps(out.add(8 * (k + 4)), _mm256_permute2f128_ps(rk, nk, 0x31));
            }
        }
    }

    /// α̃ = α / h² and k' ω of eight packed softness values (see
    /// `kernels::distance::pack_softness`).
    ///
    /// # Safety
    /// AVX is enabled in the caller.
    #[inline(always)]
    unsafe fn coefficients(softness: __m256, inv_h2: f32, relaxation: f32) -> (__m256, __m256) {
        // softness ≥ +0: α = softness, k' = 1; sign bit set: α = 0, k' = −softness
        // (blendv selects by the sign bit).
        let sign = _mm256_set1_ps(-0.0);
        let at = _mm256_blendv_ps(
            _mm256_mul_ps(softness, _mm256_set1_ps(inv_h2)),
            _mm256_setzero_ps(),
            softness,
        );
        let stiffness =
            _mm256_blendv_ps(_mm256_set1_ps(1.0), _mm256_xor_ps(softness, sign), softness);
        (at, _mm256_mul_ps(stiffness, _mm256_set1_ps(relaxation)))
    }

    /// Projects slots `s..s + 8` (stored by [`store8`]); `shared`: the
    /// [`coefficients`] of a softness every slot shares.
    ///
    /// # Safety
    /// As [`super::project_range`] for these slots; AVX is enabled in the caller.
    #[inline(always)]
    unsafe fn project8(
        s: usize,
        slots: &JacobiSlots<'_>,
        base: &DisjointSlice<'_, Vec3A>,
        hot: &DisjointSlice<'_, Vec4>,
        shared: Option<(__m256, __m256)>,
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
            let (at, kw) = match shared {
                Some(c) => c,
                None => coefficients(
                    _mm256_loadu_ps(slots.softness.as_ptr().add(s)),
                    inv_h2,
                    relaxation,
                ),
            };
            let sign = _mm256_set1_ps(-0.0);
            let weight = _mm256_loadu_ps(slots.weight.as_ptr().add(s));
            let k = _mm256_mul_ps(kw, weight);
            let lambda = if slots.fresh {
                _mm256_setzero_ps()
            } else {
                _mm256_loadu_ps(slots.lambda.as_ptr().add(s))
            };
            let len2 = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
                _mm256_mul_ps(dz, dz),
            );
            let len = _mm256_sqrt_ps(len2);
            let moves = _mm256_add_ps(aw, bw);
            let denom = _mm256_add_ps(moves, at);
            // Active: MIN_LENGTH < len < ∞ (false for NaN) and not w_a + w_b ≤ 0, exactly
            // the scalar test (two pinned ends move nothing; their Δλ = −C / α̃ alone
            // overflows for a stiff enough compliance).
            let active = _mm256_and_ps(
                _mm256_and_ps(
                    _mm256_cmp_ps::<_CMP_GT_OQ>(len, _mm256_set1_ps(MIN_LENGTH)),
                    _mm256_cmp_ps::<_CMP_LT_OQ>(len, _mm256_set1_ps(f32::INFINITY)),
                ),
                _mm256_cmp_ps::<_CMP_NLE_UQ>(moves, _mm256_setzero_ps()),
            );
            let c = _mm256_sub_ps(len, rest);
            let t = _mm256_mul_ps(
                k,
                _mm256_sub_ps(_mm256_xor_ps(c, sign), _mm256_mul_ps(at, lambda)),
            );
            let q = _mm256_div_ps(t, _mm256_mul_ps(denom, len));
            let dl = _mm256_mul_ps(q, len);
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

    /// A softness shared by every slot, passed as `uniform` (not streamed), gives the
    /// bits of the same softness read slot by slot, in both kernels.
    #[test]
    fn uniform_softness_projects_as_the_slot_array() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let n = 50usize;
        let base: Vec<Vec3A> = (0..n)
            .map(|i| Vec3A::new(i as f32 * 0.01, rng.f() * 0.01, rng.f() * 0.01))
            .collect();
        let hot: Vec<Vec4> = (0..n)
            .map(|i| {
                let w = if i % 9 == 0 { 0.0 } else { 0.5 + rng.f() };
                Vec4::new(rng.f() * 1e-3, rng.f() * 1e-3, rng.f() * 1e-3, w)
            })
            .collect();
        let pairs: Vec<[u32; 2]> = (0..n as u32 - 2)
            .flat_map(|i| [[i, i + 1], [i + 2, i]])
            .collect();
        let m = pairs.len();
        let rest: Vec<f32> = (0..m).map(|_| 0.01 + rng.f() * 0.01).collect();
        let weight: Vec<f32> = (0..m).map(|j| 1.0 / (1 + j % 4) as f32).collect();
        let lambda0: Vec<f32> = (0..m).map(|_| rng.f() - 0.5).collect();
        for softness in [0.0, -0.0, -0.5, 2e-6] {
            let soft = vec![softness; m];
            let run = |dispatched: bool, uniform: Option<f32>, fresh: bool| {
                let (mut lambda, mut out) = (lambda0.clone(), vec![Vec4::splat(7.0); 2 * m]);
                let mut positions = hot.clone();
                let mut base = base.clone();
                let b = DisjointSlice::new(&mut base);
                let slots = JacobiSlots::new(
                    &pairs,
                    &rest,
                    &soft,
                    uniform,
                    &weight,
                    DisjointSlice::new(&mut lambda),
                    fresh,
                    3600.0,
                    0.9,
                );
                let h = DisjointSlice::new(&mut positions);
                let o = DisjointSlice::new(&mut out);
                // SAFETY: in range, one thread.
                unsafe {
                    if dispatched {
                        project_range(0..m, &slots, &b, &h, &o, 0)
                    } else {
                        project_scalar(0..m, &slots, &b, &h, &o, 0)
                    }
                }
                out.iter()
                    .flat_map(|p| p.to_array().map(f32::to_bits))
                    .chain(lambda.iter().map(|l| l.to_bits()))
                    .collect::<Vec<u32>>()
            };
            for fresh in [true, false] {
                let want = run(false, None, fresh);
                for dispatched in [true, false] {
                    let got = run(dispatched, Some(softness), fresh);
                    assert_eq!(got, want, "softness {softness}, fresh {fresh}");
                }
            }
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
        let run = |dispatched: bool, fresh: bool, lambda0: &[f32]| {
            let mut lambda = lambda0.to_vec();
            let mut corrections = vec![Vec4::splat(7.0); 2 * m];
            let mut positions = hot.clone();
            let mut base = base.clone();
            {
                let b = DisjointSlice::new(&mut base);
                let slots = JacobiSlots {
                    pairs: &pairs,
                    rest: &rest,
                    softness: &softness,
                    uniform: None,
                    weight: &weight,
                    lambda: DisjointSlice::new(&mut lambda),
                    fresh,
                    inv_h2: 3600.0 * 64.0,
                    relaxation: 0.8,
                };
                let h = DisjointSlice::new(&mut positions);
                let out = DisjointSlice::new(&mut corrections);
                for r in [0..13, 13..22, 22..m] {
                    // SAFETY: in range, one thread.
                    unsafe {
                        if dispatched {
                            project_range(r.clone(), &slots, &b, &h, &out, 2 * r.start)
                        } else {
                            project_scalar(r.clone(), &slots, &b, &h, &out, 2 * r.start)
                        }
                    }
                }
            }
            assert_eq!(positions, hot, "the projection moves no particle");
            (lambda, corrections)
        };
        let bits = |v: &[Vec4]| {
            v.iter()
                .flat_map(|p| p.to_array().map(f32::to_bits))
                .collect::<Vec<_>>()
        };
        let lambda_bits = |v: &[f32]| v.iter().map(|l| l.to_bits()).collect::<Vec<_>>();
        let (la, ca) = run(true, false, &lambda0);
        let (lb, cb) = run(false, false, &lambda0);
        assert_eq!(bits(&ca), bits(&cb));
        assert_eq!(lambda_bits(&la), lambda_bits(&lb));
        // A fresh iteration reads every λ as 0, and leaves 0 in inactive slots.
        let zero = vec![0.0; m];
        for dispatched in [true, false] {
            let (lz, cz) = run(dispatched, false, &zero);
            let (lf, cf) = run(dispatched, true, &lambda0);
            assert_eq!(bits(&cz), bits(&cf), "dispatched {dispatched}");
            assert_eq!(
                lambda_bits(&lz),
                lambda_bits(&lf),
                "dispatched {dispatched}"
            );
            assert_ne!(bits(&cz), bits(&ca));
        }
        for j in 0..m {
            let (g, minus) = (ca[2 * j], ca[2 * j + 1]);
            assert_eq!(
                minus.to_array(),
                (-g.truncate()).extend(0.0).to_array(),
                "slot {j}"
            );
            assert_eq!(g.w.to_bits(), 0, "slot {j}");
        }
        for j in [3, 4, 5] {
            assert_eq!(ca[2 * j], Vec4::ZERO, "slot {j} is inactive");
            assert_eq!(la[j], lambda0[j], "slot {j} keeps its λ");
        }
        assert!(ca.iter().filter(|c| **c != Vec4::ZERO).count() > 40);
        // The gather against the scalar formula of before.
        let adjacency = crate::solver::jacobi::Adjacency::build(&pairs, n).unwrap();
        let mut gathered = hot.clone();
        {
            let h = DisjointSlice::new(&mut gathered);
            // SAFETY: one thread, indices in range.
            let mut ca = ca.clone();
            let c = DisjointSlice::new(&mut ca);
            for i in 0..n {
                // SAFETY: one thread, indices in range.
                unsafe { apply(i, adjacency.of(i), &c, 0, &h) };
            }
        }
        for i in 0..n {
            let mut sums = [Vec3::ZERO; 2];
            for (k, &e) in adjacency.of(i).iter().enumerate() {
                let g = ca[2 * (e >> 1) as usize].truncate();
                sums[k % 2] = if e & 1 == 0 {
                    sums[k % 2] + g
                } else {
                    sums[k % 2] - g
                };
            }
            let sum = sums[0] + sums[1];
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
