//! The distance test of a neighbour build over one run of sorted slots, eight
//! candidates at a time with AVX where the CPU has it (detected once per build).
//!
//! A slow particle scans 25 runs of contiguous slots (see `neighbours.rs`); most of
//! the build is the test `|sep|² < (e_k + e_j)²` of each candidate j. The kernel loads
//! eight consecutive records, tests them at once and hands the candidates that pass,
//! in slot order, to the caller, which applies the rest of the test (self, fast split,
//! filter, row). It performs the scalar test's IEEE operations lane by lane —
//! `sep = (b_k − b_j) + (d_k − d_j)`, `(x² + y²) + z² < (e_k + e_j)²` — so it keeps
//! exactly the candidates the scalar test keeps (the brute-force tests of the search
//! and a unit test below compare them).

use crate::math::{Vec3A, Vec4};
use crate::simd::Kernel;

/// The data of the slot whose neighbours are searched.
#[derive(Clone, Copy)]
pub(super) struct Probe {
    pub base: Vec3A,
    pub hot: Vec4,
    pub extent: f32,
}

/// The scalar test of candidate j.
#[inline(always)]
fn hits(base: &[Vec3A], hot: &[Vec4], extent: &[f32], p: &Probe, j: usize) -> bool {
    let reach = p.extent + extent[j];
    let sep = crate::particles::separation(p.base, base[j], p.hot, hot[j]);
    sep.length_squared() < reach * reach
}

/// Calls `f(j)` for every slot j of `run`, in order, within the reach of `p`:
/// `|sep|² < (e_p + e_j)²`.
#[inline(always)]
pub(super) fn for_hits(
    kernel: Kernel,
    base: &[Vec3A],
    hot: &[Vec4],
    extent: &[f32],
    run: std::ops::Range<usize>,
    p: &Probe,
    mut f: impl FnMut(usize),
) {
    // Runs are short (a few particles in five cells): below eight candidates the
    // scalar loop, inlined into the caller, is the faster one.
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx && run.len() >= 8 {
        // SAFETY: Kernel::Avx is only chosen when the CPU has AVX.
        unsafe { avx::for_hits(base, hot, extent, run, p, &mut f) };
        return;
    }
    let _ = kernel;
    for j in run {
        if hits(base, hot, extent, p, j) {
            f(j);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::{hits, Probe};
    use crate::math::{Vec3A, Vec4};
    use crate::simd::avx::load_lanes as lanes;
    use std::arch::x86_64::*;

    /// See [`super::for_hits`].
    ///
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn for_hits(
        base: &[Vec3A],
        hot: &[Vec4],
        extent: &[f32],
        run: std::ops::Range<usize>,
        p: &Probe,
        f: &mut impl FnMut(usize),
    ) {
        let (start, end) = (run.start, run.end);
        assert!(end <= base.len() && end <= hot.len() && end <= extent.len());
        let bx = _mm256_set1_ps(p.base.x);
        let by = _mm256_set1_ps(p.base.y);
        let bz = _mm256_set1_ps(p.base.z);
        let hx = _mm256_set1_ps(p.hot.x);
        let hy = _mm256_set1_ps(p.hot.y);
        let hz = _mm256_set1_ps(p.hot.z);
        let e = _mm256_set1_ps(p.extent);
        let mut j = start;
        while j + 8 <= end {
            // SAFETY: j + 8 ≤ end ≤ every length (asserted above); Vec3A and Vec4
            // are 16-byte records of four floats.
            let (b, h, ej) = unsafe {
                let rb = base.as_ptr().add(j) as *const f32;
                let rh = hot.as_ptr().add(j) as *const f32;
                (
                    lanes(rb),
                    lanes(rh),
                    _mm256_loadu_ps(extent.as_ptr().add(j)),
                )
            };
            let sx = _mm256_add_ps(_mm256_sub_ps(bx, b[0]), _mm256_sub_ps(hx, h[0]));
            let sy = _mm256_add_ps(_mm256_sub_ps(by, b[1]), _mm256_sub_ps(hy, h[1]));
            let sz = _mm256_add_ps(_mm256_sub_ps(bz, b[2]), _mm256_sub_ps(hz, h[2]));
            let d2 = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(sx, sx), _mm256_mul_ps(sy, sy)),
                _mm256_mul_ps(sz, sz),
            );
            let reach = _mm256_add_ps(e, ej);
            let mut bits =
                _mm256_movemask_ps(_mm256_cmp_ps(d2, _mm256_mul_ps(reach, reach), _CMP_LT_OQ))
                    as u32;
            while bits != 0 {
                f(j + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
            j += 8;
        }
        while j < end {
            if hits(base, hot, extent, p, j) {
                f(j);
            }
            j += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random records around a probe: the kernel keeps exactly the candidates the
    /// scalar test keeps, over runs of every length and offset.
    #[test]
    fn kernel_hits_equal_the_scalar_test() {
        let mut seed = 3u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let n = 400;
        let base: Vec<Vec3A> = (0..n)
            .map(|_| Vec3A::new(next(), next(), next()) * 0.1 + Vec3A::new(3.0, 1.0, -2.0))
            .collect();
        let hot: Vec<Vec4> = (0..n)
            .map(|_| Vec4::new(next(), next(), next(), 1.0) * 1.0e-3)
            .collect();
        let extent: Vec<f32> = (0..n).map(|_| 0.02 + 0.01 * next()).collect();
        let kernel = Kernel::detect();
        let mut total = 0;
        for k in 0..40 {
            let p = Probe {
                base: base[k],
                hot: hot[k],
                extent: extent[k],
            };
            for (a, b) in [(0, n), (k, n - k), (3, 3 + k), (k, k + 7)] {
                let mut want = Vec::new();
                for_hits(Kernel::Scalar, &base, &hot, &extent, a..b, &p, |j| {
                    want.push(j)
                });
                let mut got = Vec::new();
                for_hits(kernel, &base, &hot, &extent, a..b, &p, |j| got.push(j));
                assert_eq!(got, want, "probe {k}, run {a}..{b}");
                total += want.len();
            }
        }
        assert!(total > 1000, "the runs must hold many hits");
    }
}
