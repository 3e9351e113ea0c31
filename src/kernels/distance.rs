//! The Gauss-Seidel kernel of the distance constraints, several constraints at a time.
//!
//! On x86-64 the slots of one colour are loaded (two 16-byte `Vec4` loads per
//! constraint), transposed into lanes (`x[4]`, `y[4]`, ...), projected and transposed
//! back: eight at a time with AVX when the CPU has it (detected once at run time and
//! cached, so the shipped library needs no `target-cpu`), otherwise four at a time
//! with SSE2 (part of every x86-64 CPU). Elsewhere (arm64, ...) a portable version
//! gathers [`LANES`] slots into lane arrays that the compiler vectorises. Within a
//! colour no two slots share a particle, so loading a whole block before writing any
//! of it reads exactly what the one-at-a-time loop would.
//!
//! All versions perform the same IEEE-754 operations in the same order (no fused
//! multiply-add, exact `sqrt` and division; a unit test compares them bit for bit), so
//! the result is the same on every CPU and however a colour is split between threads.

use std::ops::Range;

use crate::math::{Vec3, Vec3A, Vec4};
use crate::solver::parallel::DisjointSlice;

/// Below this distance (m) two particles are treated as coincident: no direction.
pub(crate) const MIN_LENGTH: f32 = 1.0e-12;

/// Packs an XPBD compliance α (m/N, with k' = 1) or a PBD per-iteration stiffness k'
/// (with α = 0) into one `f32`: α itself, or −k' with the sign bit set (so k' = 0 is
/// −0.0). A PBD constraint with k' = 1 is stored as the rigid XPBD constraint α = 0,
/// which projects identically. A compliance of −0.0 (accepted as 0) is stored as +0.0,
/// so that it is not read as a PBD stiffness.
pub(crate) fn pack_softness(compliance: f32, stiffness: f32) -> f32 {
    if stiffness < 1.0 {
        debug_assert_eq!(compliance, 0.0);
        -stiffness
    } else {
        compliance.abs()
    }
}

/// (α in m/N, k') from [`pack_softness`]'s value.
#[inline(always)]
pub(crate) fn unpack_softness(v: f32) -> (f32, f32) {
    if v.is_sign_negative() {
        (0.0, -v)
    } else {
        (v, 1.0)
    }
}

/// Constraints projected together.
pub(crate) const LANES: usize = 8;

/// The per-slot arrays of a distance constraint set, borrowed for one sweep; made by
/// [`Slots::new`], which checks that they have one length.
pub(crate) struct Slots<'a> {
    pub(super) pairs: &'a [[u32; 2]],
    pub(super) rest: &'a [f32],
    /// See [`pack_softness`].
    pub(super) softness: &'a [f32],
    pub(super) lambda: DisjointSlice<'a, f32>,
    /// First iteration of a substep: λ is taken as 0 (not read), which resets it
    /// without a separate pass over the array.
    pub(super) fresh: bool,
    /// The one softness every slot has, when they all have the same (bit for bit):
    /// the AVX kernel then reads no softness per slot, and when that softness is +0
    /// (rigid XPBD) in a fresh sweep it leaves out the terms of α and k', which
    /// change no bit there (see `distance_avx::solve8`).
    pub(super) uniform: Option<f32>,
}

impl<'a> Slots<'a> {
    /// The slot arrays of one sweep. Panics unless `rest`, `softness` and `lambda` have
    /// the length of `pairs`.
    pub(crate) fn new(
        pairs: &'a [[u32; 2]],
        rest: &'a [f32],
        softness: &'a [f32],
        lambda: DisjointSlice<'a, f32>,
        fresh: bool,
    ) -> Self {
        let m = pairs.len();
        assert!(
            rest.len() == m && softness.len() == m && lambda.len() == m,
            "distance kernel: slot arrays of different lengths"
        );
        Slots {
            pairs,
            rest,
            softness,
            lambda,
            fresh,
            uniform: None,
        }
    }

    /// The same slots, all of softness `softness` (bit for bit; see [`Slots::uniform`]).
    /// Debug builds check the slots of `projected` (those the caller projects: checking
    /// every slot for each run made a set of one-slot colours, as around a particle
    /// with thousands of constraints, quadratic).
    pub(crate) fn with_uniform_softness(
        mut self,
        softness: Option<f32>,
        projected: Range<usize>,
    ) -> Self {
        debug_assert!(
            softness.is_none_or(|v| self.softness[projected]
                .iter()
                .all(|s| s.to_bits() == v.to_bits())),
            "distance kernel: softness not uniform"
        );
        self.uniform = softness;
        self
    }

    /// Number of slots.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.pairs.len()
    }
}

/// Particle arrays borrowed for one sweep; made by [`ParticleArrays::new`], which
/// checks that they have one length.
pub(crate) struct ParticleArrays<'a> {
    /// Read only, but a disjoint slice: a sweep that also predicts (a fused particle
    /// pass) writes the base positions of other blocks meanwhile.
    pub(super) base: DisjointSlice<'a, Vec3A>,
    pub(super) hot: DisjointSlice<'a, Vec4>,
}

impl<'a> ParticleArrays<'a> {
    /// Base positions and hot records of the particles. Panics unless they have one
    /// length.
    pub(crate) fn new(base: DisjointSlice<'a, Vec3A>, hot: DisjointSlice<'a, Vec4>) -> Self {
        assert_eq!(base.len(), hot.len(), "distance kernel: particle arrays");
        ParticleArrays { base, hot }
    }
}

/// Projects slots `range` (all of one colour): on x86-64 eight at a time with AVX
/// where the CPU has it, else four at a time with SSE2 (part of every x86-64 CPU),
/// elsewhere with the portable lane code. Panics unless `range` lies within the slots.
///
/// # Safety
/// The slots of `range` must not share a particle with each other nor with any slot
/// another thread projects at the same time (the colouring), and every particle index
/// of those slots must be below the particle arrays' length (checked when the
/// constraints were added).
#[inline]
pub(crate) unsafe fn project_range(
    range: Range<usize>,
    slots: &Slots<'_>,
    particles: &ParticleArrays<'_>,
    inv_h2: f32,
) {
    assert!(
        range.end <= slots.len(),
        "distance kernel: slot range out of bounds"
    );
    #[cfg(test)]
    if tests::FORCE_PORTABLE.load(std::sync::atomic::Ordering::Relaxed) {
        // SAFETY: the invariants of this function's safety section are those
        // `project_range_generic` requires.
        return unsafe { project_range_generic(range, slots, particles, inv_h2) };
    }
    #[cfg(target_arch = "x86_64")]
    {
        if super::simd::avx_available() {
            // SAFETY: the CPU has AVX (`avx_available` checked it at run time); the range,
            // slot and particle invariants of this function's safety section are exactly
            // those `avx::project_range` requires, passed on unchanged.
            unsafe { super::distance_avx::project_range(range, slots, particles, inv_h2) }
        } else {
            // SAFETY: SSE2 is part of x86-64; the range, slot and particle invariants of
            // this function's safety section are those `sse2::project_range` requires.
            unsafe { sse2::project_range(range, slots, particles, inv_h2) }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // SAFETY: the range, slot and particle invariants of this function's safety
        // section are those `project_range_generic` requires.
        unsafe { project_range_generic(range, slots, particles, inv_h2) }
    }
}

/// The portable version: blocks of [`LANES`] gathered into lane arrays.
///
/// # Safety
/// As [`project_range`], and `range` lies within the slots.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) unsafe fn project_range_generic(
    range: Range<usize>,
    slots: &Slots<'_>,
    particles: &ParticleArrays<'_>,
    inv_h2: f32,
) {
    let mut s = range.start;
    while s < range.end {
        let n = (range.end - s).min(LANES);
        // SAFETY: start..start+n lies in `range` (n is cut to range.end - s), whose slots
        // are in bounds and share no particle with any other thread's (this function's
        // safety section).
        unsafe {
            if slots.fresh {
                project_block::<LANES, true>(s, n, slots, particles, inv_h2)
            } else {
                project_block::<LANES, false>(s, n, slots, particles, inv_h2)
            }
        };
        s += n;
    }
}

/// Projects slots `start..start + n` (n ≤ L) as one block of L lanes; lanes n.. are
/// padding and never written.
///
/// # Safety
/// As [`project_range`] for the slots `start..start + n`.
#[inline(always)]
unsafe fn project_block<const L: usize, const FRESH: bool>(
    start: usize,
    n: usize,
    slots: &Slots<'_>,
    particles: &ParticleArrays<'_>,
    inv_h2: f32,
) {
    let mut ia = [0usize; L];
    let mut ib = [0usize; L];
    // Lane arrays: separation d, inverse masses, hot displacements of both ends, and
    // the constraint's own values. Padding lanes stay zero: length 0, so inactive.
    let (mut dx, mut dy, mut dz) = ([0f32; L], [0f32; L], [0f32; L]);
    let (mut wa, mut wb) = ([0f32; L], [0f32; L]);
    let (mut rest, mut alpha, mut k, mut lambda) = ([0f32; L], [0f32; L], [0f32; L], [0f32; L]);
    let mut ha = [Vec4::ZERO; L];
    let mut hb = [Vec4::ZERO; L];
    for l in 0..n {
        let s = start + l;
        let [a, b] = slots.pairs[s];
        let (a, b) = (a as usize, b as usize);
        ia[l] = a;
        ib[l] = b;
        // SAFETY: a and b are below `particles.hot`'s length (checked against the particle
        // count when the constraint was added; particles are never removed), and the
        // slots of this range own their particles during the pass (the colouring).
        let (pa, pb) = unsafe { (particles.hot.get(a), particles.hot.get(b)) };
        // SAFETY: as above, for the base positions.
        let (ba, bb) = unsafe { (particles.base.get(a), particles.base.get(b)) };
        let d = crate::particles::separation(ba, bb, pa, pb);
        dx[l] = d.x;
        dy[l] = d.y;
        dz[l] = d.z;
        wa[l] = pa.w;
        wb[l] = pb.w;
        ha[l] = pa;
        hb[l] = pb;
        rest[l] = slots.rest[s];
        let (compliance, stiffness) = unpack_softness(slots.softness[s]);
        alpha[l] = compliance * inv_h2;
        k[l] = stiffness;
        lambda[l] = if FRESH {
            0.0
        } else {
            // SAFETY: slot s belongs to this block only.
            unsafe { slots.lambda.get(s) }
        };
    }
    // The projection of distance.rs::project, lane by lane.
    let mut scale = [0f32; L];
    let mut dl = [0f32; L];
    let mut finite = [false; L];
    for l in 0..L {
        let len = (dx[l] * dx[l] + dy[l] * dy[l] + dz[l] * dz[l]).sqrt();
        let moves = wa[l] + wb[l];
        let denom = moves + alpha[l];
        let c = len - rest[l];
        // Δλ = k (−C − α̃λ) / denom; the correction scale Δλ / len is divided
        // separately so the two divisions do not wait on each other.
        let t = k[l] * (-c - alpha[l] * lambda[l]);
        // Coincident particles, overflowed (inf) or NaN separations and pairs of two
        // pinned (or masked) particles stay inactive; an inactive lane's correction
        // d · 0 is ±0, except for a non-finite d, whose correction is dropped (∞ · 0
        // is NaN). Two pinned ends move nothing, and their Δλ = −C / α̃ alone
        // overflows for a stiff enough compliance.
        finite[l] = len < f32::INFINITY;
        let active = len > MIN_LENGTH && finite[l] && moves > 0.0;
        dl[l] = if active { t / denom } else { 0.0 };
        scale[l] = if active { t / (denom * len) } else { 0.0 };
    }
    for l in 0..n {
        let g = if finite[l] {
            Vec3::new(dx[l], dy[l], dz[l]) * scale[l]
        } else {
            Vec3::ZERO
        };
        // SAFETY: as for the gather; slot start + l belongs to this block only.
        unsafe {
            particles.hot.set(ia[l], ha[l] + (g * wa[l]).extend(0.0));
            particles.hot.set(ib[l], hb[l] - (g * wb[l]).extend(0.0));
            slots.lambda.set(start + l, lambda[l] + dl[l]);
        }
    }
}

/// The x86-64 kernel: SSE2 intrinsics, four constraints per block.
#[cfg(target_arch = "x86_64")]
pub(super) mod sse2 {
    use std::arch::x86_64::*;
    use std::ops::Range;

    use super::{ParticleArrays, Slots, MIN_LENGTH};
    /// # Safety
    /// As [`super::project_range`], and `range` lies within the slots.
    #[inline]
    pub(crate) unsafe fn project_range(
        range: Range<usize>,
        slots: &Slots<'_>,
        particles: &ParticleArrays<'_>,
        inv_h2: f32,
    ) {
        // SAFETY: the range, slot and particle invariants of this function's safety
        // section are those `blocks` requires.
        unsafe {
            if slots.fresh {
                blocks::<true>(range, slots, particles, inv_h2)
            } else {
                blocks::<false>(range, slots, particles, inv_h2)
            }
        }
    }

    /// # Safety
    /// As [`super::project_range`].
    #[inline(always)]
    unsafe fn blocks<const FRESH: bool>(
        range: Range<usize>,
        slots: &Slots<'_>,
        particles: &ParticleArrays<'_>,
        inv_h2: f32,
    ) {
        let mut s = range.start;
        while s + 4 <= range.end {
            // SAFETY: s + 4 <= range.end (loop condition), so slots s..s+4 lie in the
            // range, whose slots are in bounds and own their particles (safety section).
            unsafe { project4::<FRESH>(s, slots, particles, inv_h2) };
            s += 4;
        }
        if s < range.end {
            // SAFETY: as above; the portable block handles the last 1..=3 slots with
            // the same arithmetic.
            unsafe { super::project_block::<4, FRESH>(s, range.end - s, slots, particles, inv_h2) };
        }
    }

    /// Projects slots `s..s + 4`.
    ///
    /// # Safety
    /// As [`super::project_range`] for these four slots.
    #[inline(always)]
    pub(super) unsafe fn project4<const FRESH: bool>(
        s: usize,
        slots: &Slots<'_>,
        particles: &ParticleArrays<'_>,
        inv_h2: f32,
    ) {
        let p = &slots.pairs[s..s + 4];
        let ia = [p[0][0], p[1][0], p[2][0], p[3][0]].map(|i| i as usize);
        let ib = [p[0][1], p[1][1], p[2][1], p[3][1]].map(|i| i as usize);
        let hot = particles.hot.as_ptr();
        let base = &particles.base;
        // SAFETY: every index is below `hot`'s and `base`'s length (validated when the
        // constraint was added; particles are never removed); `hot` is an array of
        // 16-byte aligned `Vec4`s and `base` of 16-byte aligned `Vec3A`s, each four f32,
        // so the aligned loads and stores stay inside one element; no other thread
        // touches these particles during this call (the colouring); and slots s..s+4 lie
        // in the slot arrays (`pairs[s..s + 4]` above is bounds-checked, and `rest`,
        // `softness` and `lambda` have the length of `pairs`).
        unsafe {
            let load = |i: usize| _mm_load_ps(hot.add(i) as *const f32);
            let (mut a0, mut a1, mut a2, mut a3) =
                (load(ia[0]), load(ia[1]), load(ia[2]), load(ia[3]));
            let (mut b0, mut b1, mut b2, mut b3) =
                (load(ib[0]), load(ib[1]), load(ib[2]), load(ib[3]));
            _MM_TRANSPOSE4_PS(&mut a0, &mut a1, &mut a2, &mut a3);
            _MM_TRANSPOSE4_PS(&mut b0, &mut b1, &mut b2, &mut b3);
            // a0..a3 = x, y, z, w of the four a ends; b likewise.
            // Base positions are 16-byte aligned `Vec3A`s (lane 3 is padding).
            let base = |i: usize| _mm_load_ps(base.as_ptr().add(i) as *const f32);
            let (mut p0, mut p1, mut p2, mut p3) =
                (base(ia[0]), base(ia[1]), base(ia[2]), base(ia[3]));
            let (mut q0, mut q1, mut q2, mut q3) =
                (base(ib[0]), base(ib[1]), base(ib[2]), base(ib[3]));
            _MM_TRANSPOSE4_PS(&mut p0, &mut p1, &mut p2, &mut p3);
            _MM_TRANSPOSE4_PS(&mut q0, &mut q1, &mut q2, &mut q3);
            // d = (base_a − base_b) + (d_a − d_b), as `particles::separation`.
            let dx = _mm_add_ps(_mm_sub_ps(p0, q0), _mm_sub_ps(a0, b0));
            let dy = _mm_add_ps(_mm_sub_ps(p1, q1), _mm_sub_ps(a1, b1));
            let dz = _mm_add_ps(_mm_sub_ps(p2, q2), _mm_sub_ps(a2, b2));
            let rest = _mm_loadu_ps(slots.rest.as_ptr().add(s));
            // softness ≥ +0: α = softness, k' = 1; sign bit set: α = 0, k' = −softness.
            let softness = _mm_loadu_ps(slots.softness.as_ptr().add(s));
            let pbd = _mm_castsi128_ps(_mm_srai_epi32(_mm_castps_si128(softness), 31));
            let sign = _mm_set1_ps(-0.0);
            let alpha = _mm_mul_ps(_mm_andnot_ps(pbd, softness), _mm_set1_ps(inv_h2));
            let k = _mm_or_ps(
                _mm_and_ps(pbd, _mm_xor_ps(softness, sign)),
                _mm_andnot_ps(pbd, _mm_set1_ps(1.0)),
            );
            let lambda_ptr = slots.lambda.as_ptr().add(s);
            let lambda = if FRESH {
                _mm_setzero_ps()
            } else {
                _mm_loadu_ps(lambda_ptr)
            };
            // The projection of `project_block`, same operations in the same order.
            let len2 = _mm_add_ps(
                _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)),
                _mm_mul_ps(dz, dz),
            );
            let len = _mm_sqrt_ps(len2);
            let moves = _mm_add_ps(a3, b3);
            let denom = _mm_add_ps(moves, alpha);
            let c = _mm_sub_ps(len, rest);
            let neg_c = _mm_xor_ps(c, sign);
            let t = _mm_mul_ps(k, _mm_sub_ps(neg_c, _mm_mul_ps(alpha, lambda)));
            // As in `project_block`: inactive for coincident, overflowed (inf) or NaN
            // separations and two pinned ends, and a non-finite d's correction is
            // dropped (∞ · 0 is NaN).
            let finite = _mm_cmplt_ps(len, _mm_set1_ps(f32::INFINITY));
            let active = _mm_and_ps(
                _mm_and_ps(_mm_cmpgt_ps(len, _mm_set1_ps(MIN_LENGTH)), finite),
                _mm_cmpgt_ps(moves, _mm_setzero_ps()),
            );
            let dl = _mm_and_ps(active, _mm_div_ps(t, denom));
            let scale = _mm_and_ps(active, _mm_div_ps(t, _mm_mul_ps(denom, len)));
            let gx = _mm_and_ps(finite, _mm_mul_ps(dx, scale));
            let gy = _mm_and_ps(finite, _mm_mul_ps(dy, scale));
            let gz = _mm_and_ps(finite, _mm_mul_ps(dz, scale));
            a0 = _mm_add_ps(a0, _mm_mul_ps(gx, a3));
            a1 = _mm_add_ps(a1, _mm_mul_ps(gy, a3));
            a2 = _mm_add_ps(a2, _mm_mul_ps(gz, a3));
            b0 = _mm_sub_ps(b0, _mm_mul_ps(gx, b3));
            b1 = _mm_sub_ps(b1, _mm_mul_ps(gy, b3));
            b2 = _mm_sub_ps(b2, _mm_mul_ps(gz, b3));
            _mm_storeu_ps(lambda_ptr, _mm_add_ps(lambda, dl));
            _MM_TRANSPOSE4_PS(&mut a0, &mut a1, &mut a2, &mut a3);
            _MM_TRANSPOSE4_PS(&mut b0, &mut b1, &mut b2, &mut b3);
            let store = |i: usize, v: __m128| _mm_store_ps(hot.add(i) as *mut f32, v);
            store(ia[0], a0);
            store(ia[1], a1);
            store(ia[2], a2);
            store(ia[3], a3);
            store(ib[0], b0);
            store(ib[1], b1);
            store(ib[2], b2);
            store(ib[3], b3);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    /// Makes every world in this test process use the portable kernel (the state-hash
    /// test compares it with the SIMD one; results are the same bits either way, so
    /// tests running meanwhile are unaffected).
    pub(crate) static FORCE_PORTABLE: std::sync::atomic::AtomicBool =
        std::sync::atomic::AtomicBool::new(false);

    use super::*;

    /// A tiny deterministic generator (xorshift), so the test needs no dependency.
    struct Rng(u64);
    impl Rng {
        fn f(&mut self) -> f32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    /// 37 disjoint pairs over 80 particles (one colour), with the degenerate cases:
    /// coincident particles, both ends pinned and rigid, one end pinned, PBD stiffness,
    /// nonzero λ from an earlier iteration, large base coordinates, an overflowed
    /// (infinite) separation.
    #[allow(clippy::type_complexity)]
    fn scene() -> (Vec<Vec3A>, Vec<Vec4>, Vec<[u32; 2]>, [Vec<f32>; 3]) {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let n = 80;
        let base: Vec<Vec3A> = (0..n)
            .map(|i| Vec3A::new(rng.f(), rng.f(), rng.f()) * if i % 5 == 0 { 1.0e3 } else { 1.0 })
            .collect();
        let mut hot: Vec<Vec4> = (0..n)
            .map(|i| {
                let w = if i % 7 == 0 { 0.0 } else { 0.5 + rng.f() };
                Vec4::new(rng.f() - 0.5, rng.f() - 0.5, rng.f() - 0.5, w)
                    * Vec4::new(1e-2, 1e-2, 1e-2, 1.0)
            })
            .collect();
        let mut pairs: Vec<[u32; 2]> = (0..37).map(|j| [2 * j + 1, 2 * j + 2]).collect();
        pairs[3] = [0, 7]; // both pinned
        hot[8] = Vec4::new(0.0, 0.0, 0.0, hot[8].w);
        let mut base = base;
        base[8] = base[9];
        hot[9] = Vec4::new(0.0, 0.0, 0.0, hot[9].w); // 8 and 9 coincide
        pairs[4] = [8, 9];
        // 10 and 11 so far apart that their separation overflows to infinity (an
        // extreme state): the pair must stay inactive instead of writing NaN.
        base[10] = Vec3A::new(3.0e38, 0.0, 0.0);
        base[11] = Vec3A::new(-3.0e38, 0.0, 0.0);
        pairs[5] = [10, 11];
        let m = pairs.len();
        let rest = (0..m).map(|_| rng.f()).collect();
        // XPBD (rigid and compliant) and PBD (k' = 0.3 and k' = 0).
        let mut softness: Vec<f32> = (0..m)
            .map(|j| match j % 6 {
                0 => 0.0,
                1 => -0.3,
                2 => -0.0,
                _ => rng.f() * 1e-3,
            })
            .collect();
        softness[3] = 0.0; // pair 3 (both ends pinned) is rigid: nothing can move
                           // Pair 6, 13-14, both ends pinned too, with the smallest compliance: −C / α̃
                           // alone overflows to −∞, so the pair must stay inactive (λ kept).
        hot[13].w = 0.0;
        hot[14].w = 0.0;
        softness[6] = f32::from_bits(1);
        let lambda = (0..m).map(|_| rng.f() - 0.5).collect();
        (base, hot, pairs, [rest, softness, lambda])
    }

    #[derive(Clone, Copy, Debug)]
    enum Kernel {
        Portable,
        /// AVX where the CPU has it.
        Dispatched,
        #[cfg(target_arch = "x86_64")]
        Sse2,
    }

    fn run(kernel: Kernel) -> (Vec<Vec4>, Vec<f32>) {
        run_with(kernel, false, false)
    }

    /// `fresh`: the first sweep of a substep; `zero`: start from λ = 0.
    fn run_with(kernel: Kernel, fresh: bool, zero: bool) -> (Vec<Vec4>, Vec<f32>) {
        run_uniform(kernel, fresh, zero, None)
    }

    /// As [`run_with`]; `uniform`: every slot gets this softness, and the kernel is
    /// told so when `told`.
    fn run_uniform(
        kernel: Kernel,
        fresh: bool,
        zero: bool,
        uniform: Option<(f32, bool)>,
    ) -> (Vec<Vec4>, Vec<f32>) {
        let (mut base, mut hot, pairs, [rest, mut softness, mut lambda]) = scene();
        if zero {
            lambda.fill(0.0);
        }
        if let Some((v, _)) = uniform {
            softness.fill(v);
        }
        {
            let slots = Slots {
                pairs: &pairs,
                rest: &rest,
                softness: &softness,
                lambda: DisjointSlice::new(&mut lambda),
                fresh,
                uniform: uniform.filter(|u| u.1).map(|u| u.0),
            };
            let particles = ParticleArrays {
                base: DisjointSlice::new(&mut base),
                hot: DisjointSlice::new(&mut hot),
            };
            let inv_h2 = 3600.0 * 64.0;
            // Split like a thread would: 0..13 then 13..37.
            for r in [0..13, 13..pairs.len()] {
                // SAFETY: the pairs are disjoint and in range.
                unsafe {
                    match kernel {
                        Kernel::Portable => project_range_generic(r, &slots, &particles, inv_h2),
                        Kernel::Dispatched => project_range(r, &slots, &particles, inv_h2),
                        #[cfg(target_arch = "x86_64")]
                        Kernel::Sse2 => sse2::project_range(r, &slots, &particles, inv_h2),
                    }
                }
            }
        }
        (hot, lambda)
    }

    #[test]
    fn simd_and_portable_kernels_are_bit_identical() {
        let (hot_a, lambda_a) = run(Kernel::Dispatched);
        #[cfg(target_arch = "x86_64")]
        {
            let (hot_s, lambda_s) = run(Kernel::Sse2);
            let same = |x: &Vec4, y: &Vec4| {
                x.to_array().map(f32::to_bits) == y.to_array().map(f32::to_bits)
            };
            assert!(
                hot_s.iter().zip(&hot_a).all(|(x, y)| same(x, y)),
                "SSE2 vs AVX"
            );
            assert!(lambda_s
                .iter()
                .zip(&lambda_a)
                .all(|(x, y)| x.to_bits() == y.to_bits()));
        }
        let (hot_b, lambda_b) = run(Kernel::Portable);
        let bits = |v: &[Vec4]| {
            v.iter()
                .flat_map(|p| p.to_array().map(f32::to_bits))
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&hot_a), bits(&hot_b));
        assert_eq!(
            lambda_a.iter().map(|l| l.to_bits()).collect::<Vec<_>>(),
            lambda_b.iter().map(|l| l.to_bits()).collect::<Vec<_>>()
        );
        let hot0 = scene().1;
        // The kernel moved the movable particles and left the pinned and the
        // coincident ones where they were.
        let moved = hot_a.iter().zip(&hot0).filter(|(a, b)| a != b).count();
        assert!(moved > 40, "{moved} particles moved");
        for i in [0, 7, 8, 9, 10, 11, 13, 14] {
            assert_eq!(hot_a[i], hot0[i], "particle {i} must not move");
        }
        let lambda0 = scene().3[2].clone();
        for s in [3, 6] {
            assert_eq!(
                lambda_a[s], lambda0[s],
                "two pinned ends: slot {s} inactive"
            );
        }
        assert!(hot_a.iter().all(|p| p.is_finite()) && lambda_a.iter().all(|l| l.is_finite()));
    }

    /// Slots that all share one softness give the same bits whether or not the kernel
    /// is told (it then reads no softness, and a fresh sweep of rigid slots leaves out
    /// the α and k' terms), in every kernel, fresh or not, rigid, compliant or PBD.
    #[test]
    fn uniform_softness_changes_no_bit() {
        let bits = |(h, l): (Vec<Vec4>, Vec<f32>)| {
            let h: Vec<u32> = h
                .iter()
                .flat_map(|p| p.to_array().map(f32::to_bits))
                .collect();
            (h, l.iter().map(|l| l.to_bits()).collect::<Vec<_>>())
        };
        for kernel in [Kernel::Portable, Kernel::Dispatched] {
            for v in [0.0, 2.5e-4, -0.3] {
                for fresh in [true, false] {
                    let told = run_uniform(kernel, fresh, false, Some((v, true)));
                    let not = run_uniform(kernel, fresh, false, Some((v, false)));
                    assert_eq!(
                        bits(told),
                        bits(not),
                        "{kernel:?} softness {v} fresh {fresh}"
                    );
                }
            }
        }
    }

    /// The first sweep of a substep ignores the λ left from the last substep: the same
    /// as starting from λ = 0, in every kernel.
    #[test]
    fn a_fresh_sweep_starts_lambda_from_zero() {
        for kernel in [Kernel::Portable, Kernel::Dispatched] {
            let fresh = run_with(kernel, true, false);
            let zeroed = run_with(kernel, false, true);
            let stale = run_with(kernel, false, false);
            assert_eq!(fresh, zeroed, "{kernel:?}");
            assert_ne!(fresh.1, stale.1, "{kernel:?}: the old λ must have mattered");
        }
    }
}
