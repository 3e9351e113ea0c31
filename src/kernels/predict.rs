//! The integrator's per-particle passes: the predict of a step's first substep
//! ([`predict`], which also records where each particle started), the velocity update
//! of its last ([`update_velocities`], which also checks every particle), and between
//! two substeps both in one pass ([`update_and_predict`]), on its own or fused into the
//! first sweep of the next substep. One scalar loop is the definition of the three; the
//! AVX2 loop runs eight particles at a time with the same IEEE operations per particle
//! (the records transposed into rows of eight lanes and back, which moves values only),
//! so the bits are the same.

use crate::math::{two_sum3, Vec3, Vec3A, Vec4};
use crate::particles::{in_range, position_of};

/// The constants of the passes at one substep boundary.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Boundary {
    /// The substep (s).
    pub h: f32,
    /// 1 / h (1/s).
    pub inv_h: f32,
    /// The world's damping factor over the substep (dimensionless, the velocity
    /// update's).
    pub damping: f32,
    /// Gravity's velocity change over the substep, g h (m/s; the predict's).
    pub dv: Vec3A,
}

/// The predict of one particle at `base`, whose hot data is `p` (not pinned) and
/// velocity slot `u`: its new base, hot data and velocity slot. It rebases, then
/// predicts with symplectic Euler:
///
/// * `(base, d) = two_sum(base, d)`: what fits of the displacement moves into the base
///   position, exactly (`base + d` is the same real number, `d` is at most half an ulp
///   of `base`);
/// * `v' = v + h g`, `d += h v'`;
/// * the velocity slot keeps `u = v' − d / h` for the velocity update.
#[inline(always)]
pub(crate) fn predict_one(
    base: Vec3A,
    p: Vec4,
    u: Vec3,
    dv: Vec3A,
    h: f32,
    inv_h: f32,
) -> (Vec3A, Vec4, Vec3) {
    let (b, rest) = two_sum3(base, Vec3A::from_vec4(p));
    let v = Vec3A::from(u) + dv;
    let d = rest + v * h;
    (b, d.extend(p.w), (v - d * inv_h).into())
}

/// The velocity update (`v = u + d / h`, then damping) and the next predict
/// ([`predict_one`]) of every particle of the rows; pinned particles (`w = 0`) are left
/// as they are. Panics unless `base` and `velocity` are at least as long as `hot`.
pub(crate) fn update_and_predict(
    hot: &mut [Vec4],
    base: &mut [Vec3A],
    velocity: &mut [Vec3],
    s: &Boundary,
) {
    run::<true, true, false>(hot, base, velocity, None, s);
}

/// The predict ([`predict_one`]) of every particle of the rows but the pinned ones
/// (`w = 0`), after recording each one's position in `start` when given. Panics unless
/// the other slices are at least as long as `hot`.
pub(crate) fn predict(
    hot: &mut [Vec4],
    base: &mut [Vec3A],
    velocity: &mut [Vec3],
    start: Option<&mut [Vec3]>,
    s: &Boundary,
) {
    run::<false, true, false>(hot, base, velocity, start, s);
}

/// The positions of the particles of the rows recorded in `start` (and nothing else).
/// Panics unless the other slices are at least as long as `hot`.
pub(crate) fn record(
    hot: &mut [Vec4],
    base: &mut [Vec3A],
    velocity: &mut [Vec3],
    start: &mut [Vec3],
) {
    // No update nor predict: the constants are not read.
    let s = Boundary {
        h: 1.0,
        inv_h: 1.0,
        damping: 1.0,
        dv: Vec3A::ZERO,
    };
    run::<false, false, false>(hot, base, velocity, Some(start), &s);
}

/// The velocity update (`v = u + d / h`, then damping) of every particle of the rows
/// but the pinned ones; with `CHECK`, returns whether every particle's position and
/// velocity is finite and within the coordinate limit (`particles::in_range`), else
/// true. `hot` and `base` are only read. Panics unless the other slices are at least
/// as long as `hot`.
pub(crate) fn update_velocities<const CHECK: bool>(
    hot: &mut [Vec4],
    base: &mut [Vec3A],
    velocity: &mut [Vec3],
    s: &Boundary,
) -> bool {
    run::<true, false, CHECK>(hot, base, velocity, None, s)
}

/// The passes above: `UPDATE` the velocity update, `PREDICT` the predict, `CHECK` the
/// range check, and a record of the positions in `start` first when given.
fn run<const UPDATE: bool, const PREDICT: bool, const CHECK: bool>(
    hot: &mut [Vec4],
    base: &mut [Vec3A],
    velocity: &mut [Vec3],
    start: Option<&mut [Vec3]>,
    s: &Boundary,
) -> bool {
    let n = hot.len();
    let (base, velocity) = (&mut base[..n], &mut velocity[..n]);
    // (Mutated only where the AVX2 loop is compiled.)
    #[allow(unused_mut)]
    let mut start = start.map(|start| &mut start[..n]);
    #[allow(unused_mut)]
    let (mut done, mut ok) = (0, true);
    #[cfg(target_arch = "x86_64")]
    if super::simd::avx2_available() {
        let at = start
            .as_deref_mut()
            .map_or(std::ptr::null_mut(), |start| start.as_mut_ptr());
        // SAFETY: the CPU has AVX2 (checked just now); the slices, `start` among them
        // when given (`at` null otherwise), have `n` elements each (cut above).
        (done, ok) = unsafe { avx2::run::<UPDATE, PREDICT, CHECK>(hot, base, velocity, at, s) };
    }
    ok & scalar::<UPDATE, PREDICT, CHECK>(
        &mut hot[done..],
        &mut base[done..],
        &mut velocity[done..],
        start.map(|start| &mut start[done..]),
        s,
    )
}

/// The definition of [`run`], one particle at a time (slices of one length).
fn scalar<const UPDATE: bool, const PREDICT: bool, const CHECK: bool>(
    hot: &mut [Vec4],
    base: &mut [Vec3A],
    velocity: &mut [Vec3],
    mut start: Option<&mut [Vec3]>,
    s: &Boundary,
) -> bool {
    let mut ok = true;
    for i in 0..hot.len() {
        let p = hot[i];
        if let Some(start) = start.as_deref_mut() {
            start[i] = position_of(base[i], p);
        }
        if p.w != 0.0 {
            let mut u = velocity[i];
            if UPDATE {
                u = ((Vec3A::from(u) + Vec3A::from_vec4(p) * s.inv_h) * s.damping).into();
                velocity[i] = u;
            }
            if PREDICT {
                (base[i], hot[i], velocity[i]) = predict_one(base[i], p, u, s.dv, s.h, s.inv_h);
            }
        }
        if CHECK {
            ok &= in_range(position_of(base[i], hot[i]), velocity[i]);
        }
    }
    ok
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use super::Boundary;
    use crate::kernels::simd::avx::{load_lanes, store_lanes};
    use crate::math::{Vec3, Vec3A, Vec4};
    use std::arch::x86_64::*;

    /// Lane k of component c of eight packed `(x, y, z)` records sits in register
    /// `(3k + c) / 8` at position `(3k + c) mod 8`. `GATHER[c]`: the position whose
    /// value lane k takes after the blends below (`(3k + c) mod 8`); `SCATTER[c]`, its
    /// inverse, for the way back.
    const GATHER: [[i32; 8]; 3] = [
        [0, 3, 6, 1, 4, 7, 2, 5],
        [1, 4, 7, 2, 5, 0, 3, 6],
        [2, 5, 0, 3, 6, 1, 4, 7],
    ];
    const SCATTER: [[i32; 8]; 3] = [
        [0, 3, 6, 1, 4, 7, 2, 5],
        [5, 0, 3, 6, 1, 4, 7, 2],
        [2, 5, 0, 3, 6, 1, 4, 7],
    ];
    /// Blend masks (bit j: position j) of the positions holding component c in
    /// register r: `(3k + c) = 8 r + j` for some lane k.
    const X0: i32 = 0b0100_1001; // positions 0, 3, 6
    const X1: i32 = 0b1001_0010; // 1, 4, 7
    const X2: i32 = 0b0010_0100; // 2, 5

    /// Eight packed `(x, y, z)` records (three registers of 96 bytes) → `[x, y, z]` rows
    /// of eight lanes (lane k from record k).
    #[inline(always)]
    fn unpack3(r: [__m256; 3]) -> [__m256; 3] {
        // SAFETY: AVX2 is enabled in the caller (target_feature).
        unsafe {
            // Component x sits at positions X0 of r0, X1 of r1, X2 of r2; y one
            // position on (X1 of r0, X2 of r1, X0 of r2); z two (X2, X0, X1).
            let x = _mm256_blend_ps::<X2>(_mm256_blend_ps::<X1>(r[0], r[1]), r[2]);
            let y = _mm256_blend_ps::<X0>(_mm256_blend_ps::<X2>(r[0], r[1]), r[2]);
            let z = _mm256_blend_ps::<X1>(_mm256_blend_ps::<X0>(r[0], r[1]), r[2]);
            [
                _mm256_permutevar8x32_ps(x, _mm256_loadu_si256(GATHER[0].as_ptr().cast())),
                _mm256_permutevar8x32_ps(y, _mm256_loadu_si256(GATHER[1].as_ptr().cast())),
                _mm256_permutevar8x32_ps(z, _mm256_loadu_si256(GATHER[2].as_ptr().cast())),
            ]
        }
    }

    /// The inverse of [`unpack3`].
    #[inline(always)]
    fn pack3(v: [__m256; 3]) -> [__m256; 3] {
        // SAFETY: AVX2 is enabled in the caller (target_feature).
        unsafe {
            let x = _mm256_permutevar8x32_ps(v[0], _mm256_loadu_si256(SCATTER[0].as_ptr().cast()));
            let y = _mm256_permutevar8x32_ps(v[1], _mm256_loadu_si256(SCATTER[1].as_ptr().cast()));
            let z = _mm256_permutevar8x32_ps(v[2], _mm256_loadu_si256(SCATTER[2].as_ptr().cast()));
            // Register r takes x at positions X(r), y at X(r + 1), z at X(r + 2) (mod 3).
            [
                _mm256_blend_ps::<X2>(_mm256_blend_ps::<X1>(x, y), z),
                _mm256_blend_ps::<X1>(_mm256_blend_ps::<X0>(y, z), x),
                _mm256_blend_ps::<X2>(_mm256_blend_ps::<X1>(y, z), x),
            ]
        }
    }

    /// Eight packed 12-byte records from `r` as three rows of eight lanes.
    ///
    /// # Safety
    /// AVX2 is enabled in the caller; `r` points to 24 readable floats.
    #[inline(always)]
    unsafe fn load_packed(r: *const f32) -> [__m256; 3] {
        // SAFETY: the caller's promise.
        unsafe {
            unpack3([
                _mm256_loadu_ps(r),
                _mm256_loadu_ps(r.add(8)),
                _mm256_loadu_ps(r.add(16)),
            ])
        }
    }

    /// The inverse of [`load_packed`].
    ///
    /// # Safety
    /// AVX2 is enabled in the caller; `r` points to 24 writable floats.
    #[inline(always)]
    unsafe fn store_packed(r: *mut f32, v: [__m256; 3]) {
        let v = pack3(v);
        // SAFETY: the caller's promise.
        unsafe {
            _mm256_storeu_ps(r, v[0]);
            _mm256_storeu_ps(r.add(8), v[1]);
            _mm256_storeu_ps(r.add(16), v[2]);
        }
    }

    /// The constants of a pass ([`Boundary`]) and of the range check, in lanes.
    pub(crate) struct Lanes {
        h: __m256,
        inv_h: __m256,
        damping: __m256,
        dv: [__m256; 3],
        limit: __m256,
        infinity: __m256,
        magnitude: __m256,
    }

    impl Lanes {
        /// # Safety
        /// AVX is enabled in the caller.
        #[inline(always)]
        pub(crate) unsafe fn new(s: &Boundary) -> Self {
            // SAFETY: the caller's promise.
            unsafe {
                Lanes {
                    h: _mm256_set1_ps(s.h),
                    inv_h: _mm256_set1_ps(s.inv_h),
                    damping: _mm256_set1_ps(s.damping),
                    dv: [
                        _mm256_set1_ps(s.dv.x),
                        _mm256_set1_ps(s.dv.y),
                        _mm256_set1_ps(s.dv.z),
                    ],
                    limit: _mm256_set1_ps(crate::limits::MAX_COORDINATE),
                    infinity: _mm256_set1_ps(f32::INFINITY),
                    magnitude: _mm256_castsi256_ps(_mm256_set1_epi32(i32::MAX)),
                }
            }
        }
    }

    /// [`super::run`] of the eight particles whose hot records start at `q`, base
    /// records at `b` and velocity records at `v` (with the record at `x0` unless it is
    /// null; the check's answer and-ed into `ok`'s lanes): stores the base and velocity
    /// records it changes, the hot records only with `STORE_HOT`, and returns the hot
    /// and base records after the pass, in lanes.
    ///
    /// # Safety
    /// AVX2 is enabled in the caller; `q` and `b` point to 32 floats (eight 16-byte
    /// records) each, `v` and, unless null, `x0` to 24 (eight 12-byte records), all
    /// readable and writable.
    #[inline(always)]
    pub(crate) unsafe fn eight<
        const UPDATE: bool,
        const PREDICT: bool,
        const CHECK: bool,
        const STORE_HOT: bool,
    >(
        c: &Lanes,
        q: *mut f32,
        b: *mut f32,
        v: *mut f32,
        x0: *mut f32,
        ok: &mut __m256,
    ) -> ([__m256; 4], [__m256; 4]) {
        // SAFETY: the caller's promise.
        unsafe {
            let p = load_lanes(q);
            let a = load_lanes(b);
            let u = load_packed(v);
            if !x0.is_null() {
                // position_of: base + displacement.
                let x = [
                    _mm256_add_ps(a[0], p[0]),
                    _mm256_add_ps(a[1], p[1]),
                    _mm256_add_ps(a[2], p[2]),
                ];
                store_packed(x0, x);
            }
            // Lanes of pinned particles keep their values (the scalar loop skips them).
            let pinned = _mm256_cmp_ps::<_CMP_EQ_OQ>(p[3], _mm256_setzero_ps());
            let mut w = u;
            if UPDATE {
                for k in 0..3 {
                    // u + d / h, damped.
                    let new =
                        _mm256_mul_ps(_mm256_add_ps(u[k], _mm256_mul_ps(p[k], c.inv_h)), c.damping);
                    w[k] = _mm256_blendv_ps(new, u[k], pinned);
                }
            }
            let (mut hot_out, mut base_out, mut vel_out) = (p, a, w);
            if PREDICT {
                // The fourth lane of a base record is padding, which the scalar loop's
                // four-lane sum also writes: the same sum keeps the bytes equal.
                base_out[3] = _mm256_blendv_ps(_mm256_add_ps(a[3], p[3]), a[3], pinned);
                for k in 0..3 {
                    // predict_one: the exact rebase (two_sum), then symplectic Euler.
                    let sum = _mm256_add_ps(a[k], p[k]);
                    let bb = _mm256_sub_ps(sum, a[k]);
                    let rest = _mm256_add_ps(
                        _mm256_sub_ps(a[k], _mm256_sub_ps(sum, bb)),
                        _mm256_sub_ps(p[k], bb),
                    );
                    let vel = _mm256_add_ps(w[k], c.dv[k]);
                    let d = _mm256_add_ps(rest, _mm256_mul_ps(vel, c.h));
                    let out = _mm256_sub_ps(vel, _mm256_mul_ps(d, c.inv_h));
                    hot_out[k] = _mm256_blendv_ps(d, p[k], pinned);
                    base_out[k] = _mm256_blendv_ps(sum, a[k], pinned);
                    vel_out[k] = _mm256_blendv_ps(out, u[k], pinned);
                }
                if STORE_HOT {
                    store_lanes(q, hot_out);
                }
                store_lanes(b, base_out);
            }
            if UPDATE || PREDICT {
                store_packed(v, vel_out);
            }
            if CHECK {
                // in_range: |x| <= the limit (false for NaN), |v| finite.
                for k in 0..3 {
                    let x = _mm256_add_ps(base_out[k], hot_out[k]);
                    let x = _mm256_cmp_ps::<_CMP_LE_OQ>(_mm256_and_ps(x, c.magnitude), c.limit);
                    let v = _mm256_and_ps(vel_out[k], c.magnitude);
                    let v = _mm256_cmp_ps::<_CMP_LT_OQ>(v, c.infinity);
                    *ok = _mm256_and_ps(*ok, _mm256_and_ps(x, v));
                }
            }
            (hot_out, base_out)
        }
    }

    /// [`super::run`] of the first multiple of eight particles, eight at a time (with
    /// the record in `start` unless it is null); returns how many it ran and the check.
    ///
    /// # Safety
    /// The CPU has AVX2; the three slices have one length, and `start`, unless null,
    /// points to that many writable records.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn run<const UPDATE: bool, const PREDICT: bool, const CHECK: bool>(
        hot: &mut [Vec4],
        base: &mut [Vec3A],
        velocity: &mut [Vec3],
        start: *mut Vec3,
        s: &Boundary,
    ) -> (usize, bool) {
        let whole = hot.len() / 8 * 8;
        let (q, b, v, x0) = (
            hot.as_mut_ptr().cast::<f32>(),
            base.as_mut_ptr().cast::<f32>(),
            velocity.as_mut_ptr().cast::<f32>(),
            start.cast::<f32>(),
        );
        // SAFETY: AVX2 is enabled (target_feature).
        let c = unsafe { Lanes::new(s) };
        // All ones while every particle checked so far is in range.
        let mut ok = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
        let mut i = 0;
        while i < whole {
            // SAFETY: particles i..i + 8 lie within the slices (i + 8 <= whole <= len):
            // 32 floats of `hot` and of `base` (16-byte records) and 24 of `velocity`
            // and of `start` (12-byte records) from the record of particle i.
            unsafe {
                let x0 = if x0.is_null() { x0 } else { x0.add(3 * i) };
                eight::<UPDATE, PREDICT, CHECK, true>(
                    &c,
                    q.add(4 * i),
                    b.add(4 * i),
                    v.add(3 * i),
                    x0,
                    &mut ok,
                );
            }
            i += 8;
        }
        (whole, _mm256_movemask_ps(ok) == 0xFF)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic spread of values: positions far from and near the origin (so
    /// the rebase moves bits), small displacements, some pinned particles.
    fn rows(n: usize, seed: u32) -> (Vec<Vec4>, Vec<Vec3A>, Vec<Vec3>) {
        let mut state = seed.wrapping_mul(2_654_435_761).max(1);
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as f32 / u32::MAX as f32 - 0.5
        };
        let mut hot = Vec::new();
        let mut base = Vec::new();
        let mut velocity = Vec::new();
        for i in 0..n {
            let w = if i % 7 == 3 { 0.0 } else { 1.0 + next() };
            let w = if i % 11 == 5 { -0.0 } else { w };
            hot.push(Vec4::new(next() * 1e-2, next() * 1e-3, next() * 3e-2, w));
            let far = if i % 3 == 0 { 1000.0 } else { 1.0 };
            // The padding lane holds whatever a four-lane sum left there.
            let b = Vec4::new(next() * far, next() * far, next() * 5.0, next());
            base.push(Vec3A::from_vec4(b));
            velocity.push(Vec3::new(next() * 4.0, next() * 9.0, next()));
        }
        (hot, base, velocity)
    }

    /// The raw bytes of the three arrays (the base records' padding lane included).
    fn bits(hot: &[Vec4], base: &[Vec3A], velocity: &[Vec3]) -> Vec<u32> {
        let mut out = Vec::new();
        for (q, b) in hot.iter().zip(base) {
            out.extend(q.to_array().map(f32::to_bits));
            // SAFETY: a Vec3A is 16 bytes of four floats (the fourth its padding).
            let b: [f32; 4] = unsafe { std::mem::transmute(*b) };
            out.extend(b.map(f32::to_bits));
        }
        out.extend(velocity.iter().flat_map(|v| v.to_array().map(f32::to_bits)));
        out
    }

    /// The AVX2 loop (where the CPU has it) writes the scalar definition's bytes in
    /// each pass, for lengths that leave every remainder and with pinned particles (w =
    /// 0 and -0) between moving ones; the range check finds a bad particle in the eight-
    /// wide part and in the remainder.
    #[test]
    fn the_eight_wide_passes_give_the_scalar_bits() {
        let s = Boundary {
            h: 1.0 / 600.0,
            inv_h: 600.0,
            damping: 0.999,
            dv: Vec3A::new(0.01, -9.81 / 600.0, 0.0),
        };
        type Pass = fn(&mut [Vec4], &mut [Vec3A], &mut [Vec3], &mut [Vec3], &Boundary) -> bool;
        let passes: [(&str, Pass, Pass); 6] = [
            (
                "update and predict",
                |h, b, v, _, s| {
                    update_and_predict(h, b, v, s);
                    true
                },
                |h, b, v, _, s| scalar::<true, true, false>(h, b, v, None, s),
            ),
            (
                "predict",
                |h, b, v, _, s| {
                    predict(h, b, v, None, s);
                    true
                },
                |h, b, v, _, s| scalar::<false, true, false>(h, b, v, None, s),
            ),
            (
                "predict and record",
                |h, b, v, x, s| {
                    predict(h, b, v, Some(x), s);
                    true
                },
                |h, b, v, x, s| scalar::<false, true, false>(h, b, v, Some(x), s),
            ),
            (
                "record",
                |h, b, v, x, _| {
                    record(h, b, v, x);
                    true
                },
                |h, b, v, x, s| scalar::<false, false, false>(h, b, v, Some(x), s),
            ),
            (
                "update",
                |h, b, v, _, s| update_velocities::<false>(h, b, v, s),
                |h, b, v, _, s| scalar::<true, false, false>(h, b, v, None, s),
            ),
            (
                "update and check",
                |h, b, v, _, s| update_velocities::<true>(h, b, v, s),
                |h, b, v, _, s| scalar::<true, false, true>(h, b, v, None, s),
            ),
        ];
        for (name, pass, definition) in passes {
            for n in [0, 1, 7, 8, 9, 16, 23, 64, 1001] {
                let (mut hot, mut base, mut velocity) = rows(n, n as u32 + 1);
                let mut start = vec![Vec3::splat(7.0); n];
                let (mut hot2, mut base2, mut velocity2, mut start2) =
                    (hot.clone(), base.clone(), velocity.clone(), start.clone());
                let ok = pass(&mut hot, &mut base, &mut velocity, &mut start, &s);
                let ok2 = definition(&mut hot2, &mut base2, &mut velocity2, &mut start2, &s);
                assert_eq!(ok, ok2, "{name}, n = {n}");
                assert_eq!(
                    bits(&hot, &base, &velocity),
                    bits(&hot2, &base2, &velocity2),
                    "{name}, n = {n}"
                );
                let start_bits = |x: &[Vec3]| -> Vec<u32> {
                    x.iter()
                        .flat_map(|v| v.to_array().map(f32::to_bits))
                        .collect()
                };
                assert_eq!(start_bits(&start), start_bits(&start2), "{name}, n = {n}");
                // Something moved (the comparison is not of two untouched arrays).
                if n > 0 {
                    let (h0, b0, v0) = rows(n, n as u32 + 1);
                    let moved = bits(&hot, &base, &velocity) != bits(&h0, &b0, &v0);
                    let recorded = start.iter().all(|x| *x != Vec3::splat(7.0));
                    assert!(moved || recorded, "{name}, n = {n}");
                }
            }
        }
        // The check: a NaN velocity, an infinite one, a position past the limit, in the
        // eight-wide part (particle 3) and in the remainder (particle 9) of 12.
        for at in [3, 9] {
            for bad in 0..3 {
                let (mut hot, mut base, mut velocity) = rows(12, 5);
                hot[at].w = 1.0;
                match bad {
                    0 => velocity[at].y = f32::NAN,
                    1 => velocity[at].z = f32::INFINITY,
                    _ => base[at].x = -2e9,
                }
                let ok = update_velocities::<true>(&mut hot, &mut base, &mut velocity, &s);
                assert!(!ok, "particle {at}, case {bad}");
            }
        }
        let (mut hot, mut base, mut velocity) = rows(12, 5);
        assert!(update_velocities::<true>(
            &mut hot,
            &mut base,
            &mut velocity,
            &s
        ));
    }

    /// A pinned particle keeps its record; a free one at rest with no gravity keeps
    /// still; a free one falls by g h² in one substep from rest.
    #[test]
    fn the_pass_predicts_symplectic_euler() {
        let h = 0.01;
        let s = Boundary {
            h,
            inv_h: 1.0 / h,
            damping: 1.0,
            dv: Vec3A::new(0.0, -9.81 * h, 0.0),
        };
        let n = 9;
        let mut hot = vec![Vec4::new(0.0, 0.0, 0.0, 1.0); n];
        hot[2].w = 0.0;
        let mut base = vec![Vec3A::new(0.0, 10.0, 0.0); n];
        let mut velocity = vec![Vec3::ZERO; n];
        update_and_predict(&mut hot, &mut base, &mut velocity, &s);
        for i in 0..n {
            let y = base[i].y + hot[i].y;
            let v = velocity[i].y + hot[i].y / h;
            if i == 2 {
                assert_eq!(y, 10.0);
                assert_eq!(velocity[i], Vec3::ZERO);
            } else {
                assert!((y - (10.0 - 9.81 * h * h)).abs() < 1e-6, "y {y}");
                // The velocity slot plus the displacement over h is v' = g h.
                assert!((v + 9.81 * h).abs() < 1e-4, "v {v}");
            }
        }
    }
}
