//! The distance test of a particle-contact neighbour build over runs of sorted slots,
//! eight candidates at a time with AVX where the CPU has it (detected once per
//! build), the short runs too.
//!
//! A slow particle scans 9 runs of contiguous slots (see `collision/neighbours`); most of
//! the build is the test `|sep|² < (e_k + e_j)²` of each candidate j. The build keeps
//! the records it tests in slot order, one array per coordinate ([`Records`]), so the
//! kernel loads eight consecutive candidates with one load per coordinate (no
//! transpose), tests them at once and hands the candidates that pass, in slot order,
//! to the caller, which applies the rest of the test (self, fast split, filter, row).
//! It performs the scalar test's IEEE operations lane by lane —
//! `sep = (b_k − b_j) + (d_k − d_j)`, `(x² + y²) + z² < (e_k + e_j)²` — so it keeps
//! exactly the candidates the scalar test keeps (the brute-force tests of the search
//! and a unit test below compare them).

use crate::kernels::simd::Kernel;
use crate::math::{Vec3A, Vec4};

/// The data of the slot whose neighbours are searched.
#[derive(Clone, Copy)]
pub(crate) struct Probe {
    pub base: Vec3A,
    pub hot: Vec4,
    pub extent: f32,
}

/// The records of the candidates in slot order, one array per coordinate: base
/// (`b`), hot displacement (`d`) and extent (`e`). Every array has the same length.
#[derive(Clone, Copy)]
pub(crate) struct Records<'a> {
    pub b: [&'a [f32]; 3],
    pub d: [&'a [f32]; 3],
    pub e: &'a [f32],
}

impl Records<'_> {
    /// The common length of the arrays (panics if they differ).
    #[inline(always)]
    fn len(&self) -> usize {
        let l = self.e.len();
        assert!(self.b.iter().chain(self.d.iter()).all(|a| a.len() == l));
        l
    }
}

/// The scalar test of candidate j.
#[inline(always)]
fn hits(r: &Records<'_>, p: &Probe, j: usize) -> bool {
    let reach = p.extent + r.e[j];
    let sx = (p.base.x - r.b[0][j]) + (p.hot.x - r.d[0][j]);
    let sy = (p.base.y - r.b[1][j]) + (p.hot.y - r.d[1][j]);
    let sz = (p.base.z - r.b[2][j]) + (p.hot.z - r.d[2][j]);
    (sx * sx + sy * sy) + sz * sz < reach * reach
}

/// Calls `f(j, q)` for every slot j of the runs `runs[q] = (start, end)`, run by run
/// and in slot order within each, that lies within the reach of `p`:
/// `|sep|² < (e_p + e_j)²`. One call tests every run of a probe.
#[inline(always)]
pub(crate) fn for_hits(
    kernel: Kernel,
    r: &Records<'_>,
    runs: &[(u32, u32)],
    p: &Probe,
    mut f: impl FnMut(usize, usize),
) {
    // Runs are short (a few particles in three cells): every run, however short, is
    // tested in blocks of eight records, the last one shifted back within the arrays
    // and masked to the run (no scalar tail).
    #[cfg(target_arch = "x86_64")]
    if kernel == Kernel::Avx && r.len() >= 8 {
        // SAFETY: Kernel::Avx is only chosen when the CPU has AVX.
        unsafe { avx::for_hits(r, runs, p, &mut f) };
        return;
    }
    let _ = kernel;
    for (q, &(a, b)) in runs.iter().enumerate() {
        for j in a as usize..b as usize {
            if hits(r, p, j) {
                f(j, q);
            }
        }
    }
}

/// Appends to `out` the slots j of `runs` that [`for_hits`] finds within the reach of
/// `p` and that `keep(j, q)` accepts (q: the run's index), in its order. Each hit is
/// written at the end of the list, which grows only when it is kept (no branch on
/// `keep`); room for every candidate of the runs is made first (`Err` when that
/// allocation fails; callers reserve ahead, so it rarely allocates).
#[inline(always)]
pub(crate) fn collect_hits(
    kernel: Kernel,
    r: &Records<'_>,
    runs: &[(u32, u32)],
    p: &Probe,
    out: &mut Vec<u32>,
    mut keep: impl FnMut(usize, usize) -> bool,
) -> Result<(), ()> {
    let candidates: usize = runs
        .iter()
        .map(|&(a, b)| b.saturating_sub(a) as usize)
        .sum();
    if out.capacity() - out.len() < candidates {
        out.try_reserve(candidates).map_err(|_| ())?;
    }
    let mut len = out.len();
    let dst = out.as_mut_ptr();
    for_hits(kernel, r, runs, p, |j, q| {
        // SAFETY: for_hits reports each slot of a run at most once, so len ≤ the
        // starting length + hits so far < the starting length + candidates ≤ the
        // capacity.
        unsafe { dst.add(len).write(j as u32) };
        len += keep(j, q) as usize;
    });
    // SAFETY: the first len entries are written (len ≤ capacity).
    unsafe { out.set_len(len) };
    Ok(())
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::{Probe, Records};
    use std::arch::x86_64::*;

    /// See [`super::for_hits`].
    ///
    /// # Safety
    /// The CPU has AVX.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn for_hits(
        r: &Records<'_>,
        runs: &[(u32, u32)],
        p: &Probe,
        f: &mut impl FnMut(usize, usize),
    ) {
        let len = r.len();
        assert!(len >= 8);
        let [rbx, rby, rbz] = r.b.map(|a| a.as_ptr());
        let [rdx, rdy, rdz] = r.d.map(|a| a.as_ptr());
        let re = r.e.as_ptr();
        let bx = _mm256_set1_ps(p.base.x);
        let by = _mm256_set1_ps(p.base.y);
        let bz = _mm256_set1_ps(p.base.z);
        let hx = _mm256_set1_ps(p.hot.x);
        let hy = _mm256_set1_ps(p.hot.y);
        let hz = _mm256_set1_ps(p.hot.z);
        let e = _mm256_set1_ps(p.extent);
        for (q, &(start, end)) in runs.iter().enumerate() {
            let (start, end) = (start as usize, end as usize);
            assert!(end <= len);
            let mut j = start;
            while j < end {
                // The block of eight records from j0 (shifted back at the end of the
                // arrays); lanes outside j..end are masked off.
                let j0 = j.min(len - 8);
                let avail = end - j0;
                let upper = if avail >= 8 {
                    0xff
                } else {
                    (1u32 << avail) - 1
                };
                let valid = upper & !((1u32 << (j - j0)) - 1);
                // SAFETY: j0 + 8 ≤ len, the length of every array (asserted above).
                let ld = |a: *const f32| unsafe { _mm256_loadu_ps(a.add(j0)) };
                let sx = _mm256_add_ps(_mm256_sub_ps(bx, ld(rbx)), _mm256_sub_ps(hx, ld(rdx)));
                let sy = _mm256_add_ps(_mm256_sub_ps(by, ld(rby)), _mm256_sub_ps(hy, ld(rdy)));
                let sz = _mm256_add_ps(_mm256_sub_ps(bz, ld(rbz)), _mm256_sub_ps(hz, ld(rdz)));
                let d2 = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(sx, sx), _mm256_mul_ps(sy, sy)),
                    _mm256_mul_ps(sz, sz),
                );
                let reach = _mm256_add_ps(e, ld(re));
                let mut bits =
                    _mm256_movemask_ps(_mm256_cmp_ps(d2, _mm256_mul_ps(reach, reach), _CMP_LT_OQ))
                        as u32
                        & valid;
                while bits != 0 {
                    f(j0 + bits.trailing_zeros() as usize, q);
                    bits &= bits - 1;
                }
                j = j0 + 8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random records around a probe: the kernel keeps exactly the candidates the
    /// scalar test keeps, over runs of every length and offset, and the scalar test
    /// is the separation of the particle module (`(b_k − b_j) + (d_k − d_j)`).
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
        let b: [Vec<f32>; 3] = std::array::from_fn(|a| base.iter().map(|v| v[a]).collect());
        let d: [Vec<f32>; 3] = std::array::from_fn(|a| hot.iter().map(|v| v[a]).collect());
        let r = Records {
            b: [&b[0], &b[1], &b[2]],
            d: [&d[0], &d[1], &d[2]],
            e: &extent,
        };
        let kernel = Kernel::detect();
        let mut total = 0;
        for k in 0..40 {
            let p = Probe {
                base: base[k],
                hot: hot[k],
                extent: extent[k],
            };
            for (a, b) in [
                (0, n),
                (k, n - k),
                (3, 3 + k),
                (k, k + 7),
                (n - k, n),
                (n - 3, n),
            ] {
                let mut want = Vec::new();
                for j in a..b {
                    let reach = p.extent + extent[j];
                    let sep = crate::particles::separation(p.base, base[j], p.hot, hot[j]);
                    if sep.length_squared() < reach * reach {
                        want.push(j);
                    }
                }
                let run = [(a as u32, b as u32)];
                let mut scalar = Vec::new();
                for_hits(Kernel::Scalar, &r, &run, &p, |j, _| scalar.push(j));
                assert_eq!(scalar, want, "probe {k}, run {a}..{b}");
                let mut got = Vec::new();
                for_hits(kernel, &r, &run, &p, |j, _| got.push(j));
                assert_eq!(got, want, "probe {k}, run {a}..{b}");
                total += want.len();
            }
            // Several runs in one call: the hits of each run, run by run.
            let runs = [
                (5u32, 9u32),
                (0, 0),
                (30, 71),
                (k as u32, k as u32 + 3),
                (n as u32 - 6, n as u32),
            ];
            let mut want = Vec::new();
            for (q, &(a, b)) in runs.iter().enumerate() {
                for_hits(Kernel::Scalar, &r, &[(a, b)], &p, |j, _| want.push((j, q)));
            }
            let mut got = Vec::new();
            for_hits(kernel, &r, &runs, &p, |j, q| got.push((j, q)));
            assert_eq!(got, want, "probe {k}, batched runs");
        }
        assert!(total > 1000, "the runs must hold many hits");
    }
}
