//! The plane cull of collider detection for eight particles at a time (AVX where the
//! CPU has it, detected once per world).
//!
//! `Collider::culls` drops a plane for a particle of radius r whose end point v1
//! (relative to the plane's position) lies beyond `r + max(r, 10⁻⁴) + tol`, with
//! `tol = 10⁻⁵ (|v1.x| + |v1.y| + |v1.z|) + 10⁻³⁰`. In a box of planes almost every
//! test is culled; this computes the same test for eight consecutive particles with
//! the same IEEE operations lane by lane (`rel = p − b`, `v1 = d − rel`,
//! `(n_x v_x + n_y v_y) + n_z v_z − r ≥ max(r, 10⁻⁴) + tol`, NaN never culled), so
//! detection keeps exactly the contacts it found without it (a unit test compares the
//! masks with `culls`).

use crate::math::{Vec3, Vec3A, Vec4};
use crate::simd::Kernel;

/// The scalar test (the one in `Collider::culls` for a plane).
#[inline(always)]
pub(super) fn culls(normal: Vec3, rel: Vec3, d: Vec3, r: f32) -> bool {
    let v1 = d - rel;
    let tol = 1.0e-5 * v1.abs().element_sum() + 1.0e-30;
    normal.dot(v1) - r >= r.max(1.0e-4) + tol
}

/// Bit l set when the plane (position `pos`, unit `normal`) surely has no contact with
/// particle `first + l`, l < 8, `first + 8 ≤` the lengths.
#[inline(always)]
pub(super) fn mask8(
    kernel: Kernel,
    pos: Vec3,
    normal: Vec3,
    base: &[Vec3A],
    hot: &[Vec4],
    radius: &[f32],
    first: usize,
) -> u32 {
    match kernel {
        Kernel::Scalar => {
            let mut m = 0;
            for l in 0..8 {
                let i = first + l;
                let rel = pos - Vec3::from(base[i]);
                m |= (culls(normal, rel, hot[i].truncate(), radius[i]) as u32) << l;
            }
            m
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Kernel::Avx is only chosen when the CPU has AVX.
        Kernel::Avx => unsafe { avx::mask8(pos, normal, base, hot, radius, first) },
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use crate::math::{Vec3, Vec3A, Vec4};
    use crate::simd::avx::load_lanes as lanes;
    use std::arch::x86_64::*;

    /// See [`super::mask8`].
    ///
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn mask8(
        pos: Vec3,
        normal: Vec3,
        base: &[Vec3A],
        hot: &[Vec4],
        radius: &[f32],
        first: usize,
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
        let abs = |v: __m256| _mm256_andnot_ps(_mm256_set1_ps(-0.0), v);
        let v = |a: usize, p: f32| {
            // rel = pos − b, v1 = d − rel
            let rel = _mm256_sub_ps(_mm256_set1_ps(p), b[a]);
            _mm256_sub_ps(h[a], rel)
        };
        let (vx, vy, vz) = (v(0, pos.x), v(1, pos.y), v(2, pos.z));
        let sum = _mm256_add_ps(_mm256_add_ps(abs(vx), abs(vy)), abs(vz));
        let tol = _mm256_add_ps(
            _mm256_mul_ps(_mm256_set1_ps(1.0e-5), sum),
            _mm256_set1_ps(1.0e-30),
        );
        let dot = _mm256_add_ps(
            _mm256_add_ps(
                _mm256_mul_ps(_mm256_set1_ps(normal.x), vx),
                _mm256_mul_ps(_mm256_set1_ps(normal.y), vy),
            ),
            _mm256_mul_ps(_mm256_set1_ps(normal.z), vz),
        );
        let lhs = _mm256_sub_ps(dot, r);
        let rhs = _mm256_add_ps(_mm256_max_ps(r, _mm256_set1_ps(1.0e-4)), tol);
        _mm256_movemask_ps(_mm256_cmp_ps(lhs, rhs, _CMP_GE_OQ)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Particles on both sides of tilted planes and right at the cull's edge: the
    /// kernel's masks are the scalar test's.
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
        let hot: Vec<Vec4> = (0..n)
            .map(|_| Vec4::new(next(), next(), next(), 1.0) * 1.0e-3)
            .collect();
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
        let (mut culled, mut kept) = (0, 0);
        for p in 0..20 {
            let normal = Vec3::new(next(), next() + 0.6, next()).normalize();
            let pos = Vec3::new(next(), next(), next()) * 0.1;
            for first in (0..n - 8).step_by(5) {
                let want = mask8(Kernel::Scalar, pos, normal, &base, &hot, &radius, first);
                let got = mask8(kernel, pos, normal, &base, &hot, &radius, first);
                assert_eq!(got, want, "plane {p}, first {first}");
                culled += want.count_ones();
                kept += 8 - want.count_ones();
            }
        }
        assert!(culled > 1000 && kept > 1000, "{culled} culled, {kept} kept");
    }
}
