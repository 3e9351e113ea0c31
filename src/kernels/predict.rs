//! The integrator's per-particle arithmetic at a substep boundary: the velocity update
//! of one substep and the predict of the next ([`update_and_predict`]), the pass that
//! runs between most substeps, on its own or fused into the first sweep of the next
//! one. The scalar loop is the definition; the AVX2 loop runs eight particles at a
//! time with the same IEEE operations per particle (the records transposed into rows
//! of eight lanes and back, which moves values only), so the bits are the same.

use crate::math::{two_sum3, Vec3, Vec3A, Vec4};

/// The constants of one substep boundary: the substep `h` (s), `1 / h`, the world's
/// damping factor of the substep and gravity's velocity change over it, `g h` (m/s).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Boundary {
    pub h: f32,
    pub inv_h: f32,
    pub damping: f32,
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
    let n = hot.len();
    let (base, velocity) = (&mut base[..n], &mut velocity[..n]);
    #[allow(unused_mut)]
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if super::simd::avx2_available() {
        // SAFETY: the CPU has AVX2 (checked just now); the three slices have `n`
        // elements each (cut above).
        done = unsafe { avx2::update_and_predict(hot, base, velocity, s) };
    }
    scalar(
        &mut hot[done..],
        &mut base[done..],
        &mut velocity[done..],
        s,
    );
}

/// The definition: [`update_and_predict`] one particle at a time (slices of one length).
fn scalar(hot: &mut [Vec4], base: &mut [Vec3A], velocity: &mut [Vec3], s: &Boundary) {
    for ((q, b), v) in hot.iter_mut().zip(base.iter_mut()).zip(velocity.iter_mut()) {
        let p = *q;
        if p.w == 0.0 {
            continue;
        }
        let u = Vec3A::from(*v) + Vec3A::from_vec4(p) * s.inv_h;
        let u: Vec3 = (u * s.damping).into();
        (*b, *q, *v) = predict_one(*b, p, u, s.dv, s.h, s.inv_h);
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::Boundary;
    use crate::kernels::simd::avx::{to_lanes, to_records};
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

    /// [`super::update_and_predict`] of the first multiple of eight particles, eight at
    /// a time; returns how many it ran.
    ///
    /// # Safety
    /// The CPU has AVX2; the three slices have one length.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update_and_predict(
        hot: &mut [Vec4],
        base: &mut [Vec3A],
        velocity: &mut [Vec3],
        s: &Boundary,
    ) -> usize {
        let whole = hot.len() / 8 * 8;
        let (q, b, v) = (
            hot.as_mut_ptr().cast::<f32>(),
            base.as_mut_ptr().cast::<f32>(),
            velocity.as_mut_ptr().cast::<f32>(),
        );
        let (h, inv_h, damping) = (
            _mm256_set1_ps(s.h),
            _mm256_set1_ps(s.inv_h),
            _mm256_set1_ps(s.damping),
        );
        let dv = [
            _mm256_set1_ps(s.dv.x),
            _mm256_set1_ps(s.dv.y),
            _mm256_set1_ps(s.dv.z),
        ];
        let mut i = 0;
        while i < whole {
            // SAFETY: particles i..i + 8 lie within the slices (i + 8 <= whole <= len):
            // 32 floats of `hot` and of `base` (16-byte records) and 24 of `velocity`
            // (12-byte records) from the record of particle i.
            unsafe {
                let (q, b, v) = (q.add(4 * i), b.add(4 * i), v.add(3 * i));
                let p = to_lanes([
                    _mm_loadu_ps(q),
                    _mm_loadu_ps(q.add(4)),
                    _mm_loadu_ps(q.add(8)),
                    _mm_loadu_ps(q.add(12)),
                    _mm_loadu_ps(q.add(16)),
                    _mm_loadu_ps(q.add(20)),
                    _mm_loadu_ps(q.add(24)),
                    _mm_loadu_ps(q.add(28)),
                ]);
                let a = to_lanes([
                    _mm_loadu_ps(b),
                    _mm_loadu_ps(b.add(4)),
                    _mm_loadu_ps(b.add(8)),
                    _mm_loadu_ps(b.add(12)),
                    _mm_loadu_ps(b.add(16)),
                    _mm_loadu_ps(b.add(20)),
                    _mm_loadu_ps(b.add(24)),
                    _mm_loadu_ps(b.add(28)),
                ]);
                let u = unpack3([
                    _mm256_loadu_ps(v),
                    _mm256_loadu_ps(v.add(8)),
                    _mm256_loadu_ps(v.add(16)),
                ]);
                // Lanes of pinned particles keep their values (the scalar loop skips them).
                let pinned = _mm256_cmp_ps::<_CMP_EQ_OQ>(p[3], _mm256_setzero_ps());
                let mut hot_out = p;
                let mut base_out = a;
                let mut vel_out = u;
                // The fourth lane of a base record is padding, which the scalar loop's
                // four-lane sum also writes: the same sum here keeps the bytes equal.
                base_out[3] = _mm256_blendv_ps(_mm256_add_ps(a[3], p[3]), a[3], pinned);
                for c in 0..3 {
                    // The velocity update: u + d / h, damped.
                    let w = _mm256_mul_ps(_mm256_add_ps(u[c], _mm256_mul_ps(p[c], inv_h)), damping);
                    // predict_one: the exact rebase (two_sum), then symplectic Euler.
                    let sum = _mm256_add_ps(a[c], p[c]);
                    let bb = _mm256_sub_ps(sum, a[c]);
                    let rest = _mm256_add_ps(
                        _mm256_sub_ps(a[c], _mm256_sub_ps(sum, bb)),
                        _mm256_sub_ps(p[c], bb),
                    );
                    let vel = _mm256_add_ps(w, dv[c]);
                    let d = _mm256_add_ps(rest, _mm256_mul_ps(vel, h));
                    hot_out[c] = _mm256_blendv_ps(d, p[c], pinned);
                    base_out[c] = _mm256_blendv_ps(sum, a[c], pinned);
                    let out = _mm256_sub_ps(vel, _mm256_mul_ps(d, inv_h));
                    vel_out[c] = _mm256_blendv_ps(out, u[c], pinned);
                }
                let r = to_records(hot_out);
                for (k, r) in r.into_iter().enumerate() {
                    _mm_storeu_ps(q.add(4 * k), r);
                }
                let r = to_records(base_out);
                for (k, r) in r.into_iter().enumerate() {
                    _mm_storeu_ps(b.add(4 * k), r);
                }
                let r = pack3(vel_out);
                _mm256_storeu_ps(v, r[0]);
                _mm256_storeu_ps(v.add(8), r[1]);
                _mm256_storeu_ps(v.add(16), r[2]);
            }
            i += 8;
        }
        whole
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

    /// The AVX2 loop (where the CPU has it) writes the scalar definition's bytes, for
    /// lengths that leave every remainder and with pinned particles (w = 0 and -0)
    /// between moving ones.
    #[test]
    fn the_eight_wide_pass_gives_the_scalar_bits() {
        let s = Boundary {
            h: 1.0 / 600.0,
            inv_h: 600.0,
            damping: 0.999,
            dv: Vec3A::new(0.01, -9.81 / 600.0, 0.0),
        };
        for n in [0, 1, 7, 8, 9, 16, 23, 64, 1001] {
            let (mut hot, mut base, mut velocity) = rows(n, n as u32 + 1);
            let (mut hot2, mut base2, mut velocity2) =
                (hot.clone(), base.clone(), velocity.clone());
            update_and_predict(&mut hot, &mut base, &mut velocity, &s);
            scalar(&mut hot2, &mut base2, &mut velocity2, &s);
            assert_eq!(
                bits(&hot, &base, &velocity),
                bits(&hot2, &base2, &velocity2),
                "n = {n}"
            );
            // Something moved (the comparison is not of two untouched arrays).
            if n > 0 {
                let (h0, b0, v0) = rows(n, n as u32 + 1);
                assert_ne!(bits(&hot, &base, &velocity), bits(&h0, &b0, &v0));
            }
        }
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
