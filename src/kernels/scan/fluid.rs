//! The fluid neighbour-list build's distance test: every slot j ≠ k of a run with
//! `(dx² + dy²) + dz² < h²` (d = x_k − x_j), candidates in slot order, eight at a
//! time with AVX (hits written one by one) or AVX2 (a block's hits written with one
//! store), and the scalar loop that defines them (the same IEEE operations: the same
//! lists on every CPU).
//!
//! The coordinates are one array per axis, each padded by 8 entries past the last
//! slot, so that a block of 8 loads from any slot of a run stays in bounds (checked by
//! the safe functions).

use crate::kernels::simd::Kernel;

/// Pushes onto `out` every slot j ≠ k of `start..end` with `(dx² + dy²) + dz² < h2`
/// (d = p − x_j, coordinates in `xs`, `ys`, `zs`, each padded by 8 entries past the
/// last slot), in slot order.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn scan(
    kernel: Kernel,
    p: [f32; 3],
    h2: f32,
    xs: &[f32],
    ys: &[f32],
    zs: &[f32],
    k: usize,
    start: usize,
    end: usize,
    out: &mut Vec<u32>,
) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx => {
            let len = xs.len().min(ys.len()).min(zs.len());
            assert!(start <= end && end + 8 <= len);
            // SAFETY: Kernel::Avx is only chosen where the CPU has AVX; the arrays
            // hold 8 entries past `end` (checked above).
            unsafe { avx::scan(p, h2, xs, ys, zs, k, start, end, out) }
        }
        _ => scan_scalar(p, h2, xs, ys, zs, k, start, end, out),
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn scan_scalar(
    p: [f32; 3],
    h2: f32,
    xs: &[f32],
    ys: &[f32],
    zs: &[f32],
    k: usize,
    start: usize,
    end: usize,
    out: &mut Vec<u32>,
) {
    for j in start..end {
        let (dx, dy, dz) = (p[0] - xs[j], p[1] - ys[j], p[2] - zs[j]);
        if (dx * dx + dy * dy) + dz * dz < h2 && j != k {
            out.push(j as u32);
        }
    }
}

/// Which loop the list build's scans run: [`Kernel`] refined by AVX2, whose integer
/// lanes write a block's hits with one store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScanKernel {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl ScanKernel {
    /// The scan of `kernel`: AVX2 where the CPU has it on top of AVX.
    pub(crate) fn of(kernel: Kernel) -> ScanKernel {
        match kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx if crate::kernels::simd::avx2_available() => ScanKernel::Avx2,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx => ScanKernel::Avx,
            Kernel::Scalar => ScanKernel::Scalar,
        }
    }
}

/// [`scan`] over several runs `[start, end)` in turn (the 9 runs of a slot's
/// 3 × 3 × 3 cells), in one call.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn scan_runs(
    kernel: ScanKernel,
    p: [f32; 3],
    h2: f32,
    xs: &[f32],
    ys: &[f32],
    zs: &[f32],
    k: usize,
    runs: &[[u32; 2]],
    out: &mut Vec<u32>,
) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        ScanKernel::Avx2 => {
            let len = xs.len().min(ys.len()).min(zs.len());
            assert!(runs
                .iter()
                .all(|r| r[0] <= r[1] && r[1] as usize + 8 <= len));
            // SAFETY: ScanKernel::Avx2 is only chosen where the CPU has AVX2 and
            // POPCNT; the arrays hold 8 entries past every run's end (checked above).
            unsafe { avx2::scan_runs(p, h2, xs, ys, zs, k, runs, out) }
        }
        #[cfg(target_arch = "x86_64")]
        ScanKernel::Avx => {
            for r in runs {
                scan(
                    Kernel::Avx,
                    p,
                    h2,
                    xs,
                    ys,
                    zs,
                    k,
                    r[0] as usize,
                    r[1] as usize,
                    out,
                );
            }
        }
        ScanKernel::Scalar => {
            for r in runs {
                scan_scalar(p, h2, xs, ys, zs, k, r[0] as usize, r[1] as usize, out);
            }
        }
    }
}

/// The AVX2 scan: a block's hits as eight 32-bit lanes, written with one store.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::avx::hits;
    use std::arch::x86_64::*;

    /// [`super::scan_scalar`] over each run in turn, eight candidates at a time.
    ///
    /// # Safety
    /// AVX2 and POPCNT are available; the arrays hold 8 entries past every run's end.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn scan_runs(
        p: [f32; 3],
        h2: f32,
        xs: &[f32],
        ys: &[f32],
        zs: &[f32],
        k: usize,
        runs: &[[u32; 2]],
        out: &mut Vec<u32>,
    ) {
        // Room for every candidate and one block more: the hits of a block are
        // written as a block of 8 (branch-free) and the length advanced by their
        // count.
        let room = runs.iter().map(|r| (r[1] - r[0]) as usize).sum::<usize>() + 8;
        if out.capacity() - out.len() < room {
            out.reserve(room);
        }
        // SAFETY: AVX2 is enabled; every load of 8 from j < end is in bounds (the
        // contract); the stores stay within the room reserved above.
        unsafe {
            let (px, py, pz) = (
                _mm256_set1_ps(p[0]),
                _mm256_set1_ps(p[1]),
                _mm256_set1_ps(p[2]),
            );
            let h2 = _mm256_set1_ps(h2);
            let mut n = out.len();
            let dst = out.as_mut_ptr();
            let (x, y, z) = (xs.as_ptr(), ys.as_ptr(), zs.as_ptr());
            for r in runs {
                let (mut j, end) = (r[0] as usize, r[1] as usize);
                while j < end {
                    let bits = hits([px, py, pz], h2, [x, y, z], j, end, k);
                    // The lanes of the hits (then zeros), widened and offset by j.
                    let lanes = _mm_loadl_epi64(
                        super::avx::COMPRESS[bits as usize].as_ptr() as *const __m128i
                    );
                    let idx =
                        _mm256_add_epi32(_mm256_cvtepu8_epi32(lanes), _mm256_set1_epi32(j as i32));
                    _mm256_storeu_si256(dst.add(n) as *mut __m256i, idx);
                    n += bits.count_ones() as usize;
                    j += 8;
                }
            }
            out.set_len(n);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::*;

    /// [`super::scan_scalar`], eight candidates at a time.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn scan(
        p: [f32; 3],
        h2: f32,
        xs: &[f32],
        ys: &[f32],
        zs: &[f32],
        k: usize,
        start: usize,
        end: usize,
        out: &mut Vec<u32>,
    ) {
        // SAFETY: AVX is enabled; the arrays hold 8 entries past `end` (the caller's
        // contract), so every load of 8 from j < end is in bounds.
        unsafe {
            let (px, py, pz) = (
                _mm256_set1_ps(p[0]),
                _mm256_set1_ps(p[1]),
                _mm256_set1_ps(p[2]),
            );
            let h2 = _mm256_set1_ps(h2);
            // Room for every candidate and one block more: the hits of a block are
            // written as a block of 8 (branch-free) and the length advanced by their
            // count.
            let room = end.saturating_sub(start) + 8;
            if out.capacity() - out.len() < room {
                out.reserve(room);
            }
            let mut n = out.len();
            let dst = out.as_mut_ptr();
            let mut j = start;
            let coords = [xs.as_ptr(), ys.as_ptr(), zs.as_ptr()];
            while j < end {
                let bits = hits([px, py, pz], h2, coords, j, end, k);
                let lanes = &COMPRESS[bits as usize];
                for (l, &lane) in lanes.iter().enumerate() {
                    dst.add(n + l).write(j as u32 + lane as u32);
                }
                n += bits.count_ones() as usize;
                j += 8;
            }
            out.set_len(n);
        }
    }

    /// The hits of the scan's block at slot j: bit l set when slot j + l (< `end`,
    /// ≠ k) lies within `(dx² + dy²) + dz² < h2` of p (`x`: the coordinate arrays,
    /// 8 entries readable from j).
    #[inline(always)]
    pub(super) unsafe fn hits(
        p: [__m256; 3],
        h2: __m256,
        x: [*const f32; 3],
        j: usize,
        end: usize,
        k: usize,
    ) -> u32 {
        // SAFETY: AVX is enabled in every caller; 8 entries readable from j.
        unsafe {
            let dx = _mm256_sub_ps(p[0], _mm256_loadu_ps(x[0].add(j)));
            let dy = _mm256_sub_ps(p[1], _mm256_loadu_ps(x[1].add(j)));
            let dz = _mm256_sub_ps(p[2], _mm256_loadu_ps(x[2].add(j)));
            let r2 = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
                _mm256_mul_ps(dz, dz),
            );
            let mut bits = _mm256_movemask_ps(_mm256_cmp_ps(r2, h2, _CMP_LT_OQ)) as u32;
            let live = (end - j).min(8);
            bits &= (1u32 << live) - 1;
            let own = k.wrapping_sub(j);
            if own < 8 {
                bits &= !(1u32 << own);
            }
            bits
        }
    }

    /// For each 8-bit mask, the positions of its set bits in order (then zeros): the
    /// branch-free compress of the scan.
    pub(super) static COMPRESS: [[u8; 8]; 256] = {
        let mut t = [[0u8; 8]; 256];
        let mut m = 0;
        while m < 256 {
            let (mut b, mut n) = (0, 0);
            while b < 8 {
                if m & (1 << b) != 0 {
                    t[m][n] = b as u8;
                    n += 1;
                }
                b += 1;
            }
            m += 1;
        }
        t
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random coordinates around the origin (some coincident, some beyond h):
    /// every scan kernel gives the scalar lists, over single runs and batches.
    #[test]
    fn scan_kernels_give_the_scalar_lists() {
        let h = 0.04f32;
        let h2 = h * h;
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let n = 64;
        let mut rec: Vec<[f32; 3]> = (0..n)
            .map(|_| [rnd() * 0.1, rnd() * 0.1, rnd() * 0.1])
            .collect();
        rec[7] = rec[3];
        rec[9] = rec[3];
        let mut xs: Vec<f32> = rec.iter().map(|r| r[0]).collect();
        let mut ys: Vec<f32> = rec.iter().map(|r| r[1]).collect();
        let mut zs: Vec<f32> = rec.iter().map(|r| r[2]).collect();
        for v in [&mut xs, &mut ys, &mut zs] {
            v.extend([0.0; 8]);
        }
        for k in [3usize, 7, 20] {
            for (s, e) in [(0, 0), (0, 5), (3, 30), (10, 64)] {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let p = [rec[k][0], rec[k][1], rec[k][2]];
                scan(Kernel::detect(), p, h2, &xs, &ys, &zs, k, s, e, &mut a);
                scan_scalar(p, h2, &xs, &ys, &zs, k, s, e, &mut b);
                assert_eq!(a, b, "scan k {k} {s}..{e}");
            }
            // Several runs in one call (empty ones, overlapping ones, a run ending at
            // the last slot), after what a list already holds: every scan kernel
            // gives the scalar list.
            let runs: [&[[u32; 2]]; 4] = [
                &[],
                &[[0, 0], [5, 5]],
                &[[0, 3], [4, 13], [20, 29], [29, 30], [40, 64]],
                &[[60, 64], [0, 64], [7, 8], [30, 47]],
            ];
            let p = [rec[k][0], rec[k][1], rec[k][2]];
            for runs in runs {
                let mut want = vec![7u32];
                for r in runs {
                    scan_scalar(
                        p,
                        h2,
                        &xs,
                        &ys,
                        &zs,
                        k,
                        r[0] as usize,
                        r[1] as usize,
                        &mut want,
                    );
                }
                let mut kernels = vec![ScanKernel::Scalar, ScanKernel::of(Kernel::detect())];
                #[cfg(target_arch = "x86_64")]
                {
                    kernels.push(ScanKernel::Avx);
                    if crate::kernels::simd::avx2_available() {
                        kernels.push(ScanKernel::Avx2);
                    }
                }
                for sk in kernels {
                    let mut got = vec![7u32];
                    scan_runs(sk, p, h2, &xs, &ys, &zs, k, runs, &mut got);
                    assert_eq!(got, want, "{sk:?} k {k} {runs:?}");
                }
            }
        }
    }
}
