//! Plane contacts of collider detection, eight particles at a time (AVX where the CPU
//! has it, detected once per world).
//!
//! A plane collider is a half-space, so the contact test of a particle of radius r is
//! one signed distance: with `rel = pos − b` (the plane's position relative to the
//! particle's base) and `v1 = d − rel` (the end of the particle's path relative to the
//! plane's position), the particle has a contact when
//! `(n_x v_x + n_y v_y) + n_z v_z − r < max(r, 10⁻⁴)` — within one radius of the
//! surface, or anywhere below it. A path that starts above and ends below is caught by
//! the same test (the half-space has no far side to tunnel out of), so the swept
//! guarantee needs no sweep. NaN never touches. [`mask8`] computes the test for eight
//! consecutive particles with the same IEEE operations lane by lane, so detection finds
//! the same contacts on any CPU (a unit test compares the masks with [`touches`]).

use super::simd::Kernel;
use crate::math::{Vec3, Vec3A, Vec4};

/// Whether a particle of radius `r` whose path ends at `d` (relative to its base) has a
/// contact with the plane of unit `normal` at `rel` (relative to the same base).
#[inline(always)]
pub(crate) fn touches(normal: Vec3, rel: Vec3, d: Vec3, r: f32) -> bool {
    let v1 = d - rel;
    normal.dot(v1) - r < r.max(1.0e-4)
}

/// The position and unit normal of a plane.
pub(crate) type Plane = (Vec3, Vec3);

/// For every plane k of `planes` (bit k set, k < 32): `out[k]` gets bit l set when
/// particle `first + l` (l < `len` ≤ 8, `first + len ≤` the lengths) has a contact
/// with the plane `params[k]`. Returns the union of the masks. The block's particles are
/// read once for all the planes.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn masks(
    kernel: Kernel,
    params: &[Plane; 32],
    planes: u32,
    base: &[Vec3A],
    hot: &[Vec4],
    radius: &[f32],
    first: usize,
    len: usize,
    out: &mut [u8; 32],
) -> u32 {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Kernel::Avx is only chosen when the CPU has AVX.
        Kernel::Avx if len == 8 => unsafe {
            avx::masks8(params, planes, base, hot, radius, first, out)
        },
        _ => {
            let mut any = 0;
            let mut bits = planes;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (pos, normal) = params[k];
                let mut m = 0;
                for l in 0..len {
                    let i = first + l;
                    let rel = pos - Vec3::from(base[i]);
                    m |= (touches(normal, rel, hot[i].truncate(), radius[i]) as u32) << l;
                }
                out[k] = m as u8;
                any |= m;
            }
            any
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::Plane;
    use crate::kernels::simd::avx::load_lanes as lanes;
    use crate::math::{Vec3A, Vec4};
    use std::arch::x86_64::*;

    /// See [`super::masks`] (eight lanes).
    ///
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn masks8(
        params: &[Plane; 32],
        planes: u32,
        base: &[Vec3A],
        hot: &[Vec4],
        radius: &[f32],
        first: usize,
        out: &mut [u8; 32],
    ) -> u32 {
        assert!(first + 8 <= base.len() && first + 8 <= hot.len() && first + 8 <= radius.len());
        // SAFETY: first + 8 ≤ every length (asserted); Vec3A and Vec4 are 16-byte
        // records of four floats.
        let (b, h, r) = unsafe {
            (
                lanes(base.as_ptr().add(first) as *const f32),
                lanes(hot.as_ptr().add(first) as *const f32),
                _mm256_loadu_ps(radius.as_ptr().add(first)),
            )
        };
        let rhs = _mm256_max_ps(r, _mm256_set1_ps(1.0e-4));
        let mut any = 0;
        let mut bits = planes;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (pos, normal) = params[k];
            let v = |a: usize, p: f32| {
                // rel = pos − b, v1 = d − rel
                let rel = _mm256_sub_ps(_mm256_set1_ps(p), b[a]);
                _mm256_sub_ps(h[a], rel)
            };
            let (vx, vy, vz) = (v(0, pos.x), v(1, pos.y), v(2, pos.z));
            let dot = _mm256_add_ps(
                _mm256_add_ps(
                    _mm256_mul_ps(_mm256_set1_ps(normal.x), vx),
                    _mm256_mul_ps(_mm256_set1_ps(normal.y), vy),
                ),
                _mm256_mul_ps(_mm256_set1_ps(normal.z), vz),
            );
            let lhs = _mm256_sub_ps(dot, r);
            let m = _mm256_movemask_ps(_mm256_cmp_ps(lhs, rhs, _CMP_LT_OQ)) as u32;
            out[k] = m as u8;
            any |= m;
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Particles on both sides of tilted planes and right at the contact's edge (and a
    /// NaN): the kernel's masks are the scalar test's.
    #[test]
    fn kernel_masks_equal_the_scalar_test() {
        let mut seed = 9u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let n = 800;
        let base: Vec<Vec3A> = (0..n)
            .map(|_| Vec3A::new(next(), next(), next()) * 0.2)
            .collect();
        let mut hot: Vec<Vec4> = (0..n)
            .map(|_| Vec4::new(next(), next(), next(), 1.0) * 1.0e-3)
            .collect();
        hot[17].y = f32::NAN;
        let radius: Vec<f32> = (0..n)
            .map(|i| {
                if i % 9 == 0 {
                    0.0
                } else {
                    0.02 + 0.01 * next()
                }
            })
            .collect();
        let kernel = Kernel::default();
        let (mut touched, mut free) = (0, 0);
        let planes = (1 << 1) | (1 << 6) | (1 << 30);
        for _ in 0..7 {
            let mut params = [(Vec3::ZERO, Vec3::ZERO); 32];
            for k in [1, 6, 30] {
                let normal = Vec3::new(next(), next() + 0.6, next()).normalize();
                params[k] = (Vec3::new(next(), next(), next()) * 0.1, normal);
            }
            for first in (0..n - 8).step_by(5) {
                for len in [8, 3] {
                    let (mut want, mut got) = ([0u8; 32], [0u8; 32]);
                    let scalar = Kernel::Scalar;
                    let (b, h, r) = (&base, &hot, &radius);
                    let want_any = masks(scalar, &params, planes, b, h, r, first, len, &mut want);
                    let got_any = masks(kernel, &params, planes, b, h, r, first, len, &mut got);
                    assert_eq!((got, got_any), (want, want_any), "first {first}, len {len}");
                    for k in [1, 6, 30] {
                        touched += want[k].count_ones();
                        free += len as u32 - want[k].count_ones();
                    }
                    assert_eq!(want[0] | want[2] | want[31], 0, "only the planes asked");
                }
            }
            // A NaN position never touches.
            let mut out = [0u8; 32];
            masks(
                kernel, &params, planes, &base, &hot, &radius, 16, 8, &mut out,
            );
            assert_eq!((out[1] | out[6] | out[30]) & 2, 0);
        }
        assert!(
            touched > 1000 && free > 1000,
            "{touched} touched, {free} free"
        );
    }

    /// The test against the signed distance it stands for: a particle of radius 0.1
    /// above the plane y = 0.5 touches from 0.2 down (and anywhere below).
    #[test]
    fn touches_within_one_radius_or_below() {
        let (n, rel) = (Vec3::Y, Vec3::new(0.0, 0.5, 0.0));
        for (y, want) in [(0.71, false), (0.69, true), (0.55, true), (-40.0, true)] {
            assert_eq!(touches(n, rel, Vec3::new(3.0, y, -2.0), 0.1), want, "y {y}");
        }
    }
}
