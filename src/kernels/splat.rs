//! The field splat of the fluid's surface mesh (`fluid::render::surface`): the sum,
//! at the 8 × 8 × 8 nodes of one block, of the particles' separable kernels
//! `b((n − u) / r)` on each axis, with `b(t) = (1 − t²)³` inside a particle's reach
//! and +0 outside it.
//!
//! Each particle's factors are computed at the block's eight nodes on each axis; each
//! row of eight nodes along x within its reach on y and z adds `w_x · (w_y w_z)`. The
//! AVX version does this a row of eight lanes at a time, the scalar one four lanes at
//! a time: the same IEEE-754 operations in the same order for every node (no fused
//! multiply-add), so the same bits on every CPU (a unit test below compares them).

use crate::kernels::simd::Kernel;
use crate::math::Vec4;

/// Nodes along a block's edge.
const B: usize = 8;
/// Nodes per block.
pub(crate) const BLOCK_NODES: usize = B * B * B;

/// A particle as the splat reads it: the first and last node its kernel reaches on
/// each axis (global node coordinates) and its position in cells.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Foot {
    pub reach: [[i32; 2]; 3],
    pub u: [f32; 3],
}

/// Which side of the level a block's nodes lie on, as [`splat`] reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sides {
    /// Some node reads at least the level.
    pub some: bool,
    /// Every node does.
    pub all: bool,
}

/// φ at the nodes of the block whose first node is `base` (x fastest, then y, then
/// z): the particles `feet[list[..]]` in the list's order (each node's sum in that
/// order), kernel radius `1 / inv_r` cells, then scaled by `inv_bulk`; and whether
/// its nodes reach `level`. Panics if an entry of `list` is not an index of `feet`.
pub(crate) fn splat(
    kernel: Kernel,
    base: [i32; 3],
    inv_r: f32,
    feet: &[Foot],
    list: &[u32],
    (inv_bulk, level): (f32, f32),
    out: &mut [f32; BLOCK_NODES],
) -> Sides {
    out.fill(0.0);
    if list.is_empty() {
        return Sides::default();
    }
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx` is only chosen where the CPU has AVX.
        Kernel::Avx => unsafe { avx::splat(base, inv_r, feet, list, out) },
        _ => splat_scalar(base, inv_r, feet, list, out),
    }
    let (mut some, mut all) = (false, true);
    for f in out.iter_mut() {
        *f *= inv_bulk;
        let inside = *f >= level;
        some |= inside;
        all &= inside;
    }
    Sides { some, all }
}

/// The nodes `[lo, hi]` of `reach` within the block's eight from `base` on one axis,
/// relative to `base` (empty where they miss it).
#[inline(always)]
fn span(base: i32, [r0, r1]: [i32; 2]) -> std::ops::Range<usize> {
    let l = r0.max(base) - base;
    let h = r1.min(base + B as i32 - 1) - base;
    l as usize..(h + 1).max(l) as usize
}

/// A particle's kernel factors b((n − u) / r) at the eight nodes `n` of a block's
/// row along one axis (whole numbers, exact as f32), four lanes at a time; +0 outside
/// its reach `[r0, r1]`.
#[inline(always)]
fn factors(n: &[Vec4; 2], u: f32, [r0, r1]: [i32; 2], inv_r: Vec4) -> [Vec4; 2] {
    let (r0, r1, u) = (
        Vec4::splat(r0 as f32),
        Vec4::splat(r1 as f32),
        Vec4::splat(u),
    );
    n.map(|n| {
        let t = (n - u) * inv_r;
        let q = (Vec4::ONE - t * t).max(Vec4::ZERO);
        Vec4::select(n.cmpge(r0) & n.cmple(r1), q * q * q, Vec4::ZERO)
    })
}

/// The sums of [`splat`], four lanes at a time.
fn splat_scalar(
    base: [i32; 3],
    inv_r: f32,
    feet: &[Foot],
    list: &[u32],
    out: &mut [f32; BLOCK_NODES],
) {
    let inv_r = Vec4::splat(inv_r);
    // The block's nodes on each axis.
    let nodes = base.map(|c| {
        let c = Vec4::splat(c as f32);
        [
            c + Vec4::new(0.0, 1.0, 2.0, 3.0),
            c + Vec4::new(4.0, 5.0, 6.0, 7.0),
        ]
    });
    for &i in list {
        let foot = &feet[i as usize];
        let w =
            std::array::from_fn::<_, 3, _>(|a| factors(&nodes[a], foot.u[a], foot.reach[a], inv_r));
        let wx = w[0];
        let [wy, wz] = [w[1], w[2]].map(|[a, b]| {
            let mut f = [0.0f32; B];
            a.write_to_slice(&mut f[..4]);
            b.write_to_slice(&mut f[4..]);
            f
        });
        for z in span(base[2], foot.reach[2]) {
            let wz = wz[z & (B - 1)];
            for y in span(base[1], foot.reach[1]) {
                let wyz = wy[y & (B - 1)] * wz;
                // z and y lie in 0..8: the masks only spare the bounds checks.
                let at = ((z * B + y) & (B * B - 1)) * B;
                let (o0, o1) = out[at..at + B].split_at_mut(4);
                (Vec4::from_slice(o0) + wx[0] * wyz).write_to_slice(o0);
                (Vec4::from_slice(o1) + wx[1] * wyz).write_to_slice(o1);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::{span, Foot, B, BLOCK_NODES};
    use std::arch::x86_64::*;

    /// [`super::factors`] at the eight nodes `n`, in one register.
    #[inline(always)]
    unsafe fn factors(n: __m256, u: &f32, [r0, r1]: [i32; 2], inv_r: __m256) -> __m256 {
        // SAFETY: AVX is enabled in every caller.
        unsafe {
            let t = _mm256_mul_ps(_mm256_sub_ps(n, _mm256_broadcast_ss(u)), inv_r);
            let q = _mm256_max_ps(
                _mm256_sub_ps(_mm256_set1_ps(1.0), _mm256_mul_ps(t, t)),
                _mm256_setzero_ps(),
            );
            let w = _mm256_mul_ps(_mm256_mul_ps(q, q), q);
            let inside = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GE_OQ>(n, _mm256_set1_ps(r0 as f32)),
                _mm256_cmp_ps::<_CMP_LE_OQ>(n, _mm256_set1_ps(r1 as f32)),
            );
            _mm256_and_ps(w, inside)
        }
    }

    /// [`super::splat_scalar`], a row of eight nodes at a time.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn splat(
        base: [i32; 3],
        inv_r: f32,
        feet: &[Foot],
        list: &[u32],
        out: &mut [f32; BLOCK_NODES],
    ) {
        // SAFETY: AVX is enabled; every load and store is of a checked slice of eight.
        unsafe {
            let lanes = _mm256_setr_ps(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
            let nodes = base.map(|c| _mm256_add_ps(_mm256_set1_ps(c as f32), lanes));
            let inv_r = _mm256_set1_ps(inv_r);
            for &i in list {
                let foot = &feet[i as usize];
                let wx = factors(nodes[0], &foot.u[0], foot.reach[0], inv_r);
                let wy = factors(nodes[1], &foot.u[1], foot.reach[1], inv_r);
                let mut wz = [0.0f32; B];
                _mm256_storeu_ps(
                    wz.as_mut_ptr(),
                    factors(nodes[2], &foot.u[2], foot.reach[2], inv_r),
                );
                for z in span(base[2], foot.reach[2]) {
                    // w_y w_z of every row of this z at once (the same products).
                    let mut wyz = [0.0f32; B];
                    _mm256_storeu_ps(
                        wyz.as_mut_ptr(),
                        _mm256_mul_ps(wy, _mm256_broadcast_ss(&wz[z & (B - 1)])),
                    );
                    for y in span(base[1], foot.reach[1]) {
                        let wyz = _mm256_broadcast_ss(&wyz[y & (B - 1)]);
                        let at = ((z * B + y) & (B * B - 1)) * B;
                        let row = &mut out[at..at + B];
                        let sum =
                            _mm256_add_ps(_mm256_loadu_ps(row.as_ptr()), _mm256_mul_ps(wx, wyz));
                        _mm256_storeu_ps(row.as_mut_ptr(), sum);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random particles around a block (reaches clipped as the surface clips
    /// them, some missing the block): the AVX sums give the scalar sums' bits.
    #[test]
    fn avx_sums_give_the_scalar_bits() {
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let base = [16, 24, 8];
        for r in [1.0f32, 2.0, 2.5, 5.0, 8.0] {
            let feet: Vec<Foot> = (0..300)
                .map(|_| {
                    let u: [f32; 3] = std::array::from_fn(|a| base[a] as f32 - 6.0 + 20.0 * rnd());
                    let reach = std::array::from_fn(|a| {
                        let home = (u[a] as i32).div_euclid(8) * 8;
                        let lo = ((u[a] - r).ceil() as i32).max(home - 8);
                        let hi = ((u[a] + r) as i32).min(home + 15);
                        [lo, hi]
                    });
                    Foot { reach, u }
                })
                .collect();
            let list: Vec<u32> = (0..feet.len() as u32).rev().collect();
            let (mut a, mut b) = ([0.0f32; BLOCK_NODES], [0.0f32; BLOCK_NODES]);
            let scale = (0.37, 0.5);
            let sa = splat(Kernel::detect(), base, 1.0 / r, &feet, &list, scale, &mut a);
            let sb = splat(Kernel::Scalar, base, 1.0 / r, &feet, &list, scale, &mut b);
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits), "r = {r}");
            assert_eq!(sa, sb);
            assert!(
                b.iter().any(|&f| f > 0.0),
                "some particle reaches the block"
            );
        }
    }
}
