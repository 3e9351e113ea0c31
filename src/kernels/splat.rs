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
//!
//! Before the splat, [`place`] works out where each particle lies on the grid: its
//! home block, the nodes its kernel reaches and the neighbouring blocks it reaches,
//! the three axes at once in SSE2 lanes on x86-64 (the scalar version's truncations
//! and comparisons, so the same results; a unit test compares them).

use crate::kernels::simd::Kernel;
use crate::math::{Vec3A, Vec4};

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

/// Where a particle lies on the grid, as [`place`] works it out: its [`Foot`], its
/// home block (block coordinates) and its code: its span (bit 2a: its kernel reaches
/// the block below its home block on axis a, bit 2a + 1: the block above) and, from
/// bit 8, four bits per axis a (from bit 8 + 4a): its kernel and `margin` nodes
/// beyond reach one block below, two blocks below, one block above, two above.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Place {
    pub foot: Foot,
    pub home: [i32; 3],
    pub code: u32,
}

/// Places a particle at `u` (in cells; every coordinate in [2B, 2²⁴), so that the
/// truncations below are floors) with a kernel of `r ≤ B` cells: the nodes it reaches
/// on each axis (`ceil(u − r)..=trunc(u + r)`, within its home block and the next on
/// each side), its home block and its code ([`Place`]).
#[inline(always)]
pub(crate) fn place(u: Vec3A, r: f32, margin: i32) -> Place {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::place(u, r, margin)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        place_scalar(u, r, margin)
    }
}

/// [`place`], one axis at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn place_scalar(u: Vec3A, r: f32, margin: i32) -> Place {
    let b = B as i32;
    let u = u.to_array();
    let mut out = Place {
        foot: Foot {
            u,
            ..Foot::default()
        },
        ..Place::default()
    };
    for (a, &x) in u.iter().enumerate() {
        let h = (x as i32).div_euclid(b);
        out.home[a] = h;
        let first = h * b - b;
        let t = (x - r) as i32;
        let ceil = t + i32::from((t as f32) < x - r);
        let lo = ceil.max(first);
        let t1 = (x + r) as i32;
        let hi = t1.min(first + 3 * b - 1);
        out.foot.reach[a] = [lo, hi];
        out.code |=
            u32::from(lo < first + b) << (2 * a) | u32::from(hi >= first + 2 * b) << (2 * a + 1);
        let below = h - (t - margin).div_euclid(b);
        let above = (t1 + margin).div_euclid(b) - h;
        let sides = u32::from(below >= 1)
            | u32::from(below >= 2) << 1
            | u32::from(above >= 1) << 2
            | u32::from(above >= 2) << 3;
        out.code |= sides << (8 + 4 * a);
    }
    out
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::{Foot, Place, B};
    use crate::math::{Vec3A, Vec4};
    use std::arch::x86_64::*;

    /// The lanes of `v`.
    #[inline(always)]
    fn lanes(v: __m128i) -> [i32; 4] {
        // SAFETY: SSE2 is part of every x86-64 target.
        Vec4::from(unsafe { _mm_castsi128_ps(v) })
            .to_array()
            .map(|f| f.to_bits() as i32)
    }

    /// Bits 0, 1, 2 of `m` at bits 0, 4, 8.
    #[inline(always)]
    fn spread(m: i32) -> u32 {
        let m = m as u32;
        (m & 1) | (m & 2) << 3 | (m & 4) << 6
    }

    /// The bits of the first three lanes of a mask.
    #[inline(always)]
    fn bits(m: __m128i) -> i32 {
        // SAFETY: SSE2 is part of every x86-64 target.
        unsafe { _mm_movemask_ps(_mm_castsi128_ps(m)) & 7 }
    }

    /// [`super::place_scalar`], the three axes at once (SSE2, which every x86-64 CPU
    /// has): the same truncations and comparisons, so the same results.
    #[inline(always)]
    pub(super) fn place(u: Vec3A, r: f32, margin: i32) -> Place {
        // SAFETY: SSE2 is part of every x86-64 target; no pointer is read or written.
        unsafe {
            let b = B as i32;
            let uv: __m128 = u.into();
            let r4 = _mm_set1_ps(r);
            let home = _mm_srai_epi32::<3>(_mm_cvttps_epi32(uv));
            let first = _mm_sub_epi32(_mm_slli_epi32::<3>(home), _mm_set1_epi32(b));
            let down = _mm_sub_ps(uv, r4);
            let t = _mm_cvttps_epi32(down);
            // ceil: t + 1 where t < u − r (a mask of −1).
            let ceil = _mm_sub_epi32(t, _mm_castps_si128(_mm_cmplt_ps(_mm_cvtepi32_ps(t), down)));
            let above_first = _mm_cmpgt_epi32(ceil, first);
            let lo = _mm_or_si128(
                _mm_and_si128(above_first, ceil),
                _mm_andnot_si128(above_first, first),
            );
            let t1 = _mm_cvttps_epi32(_mm_add_ps(uv, r4));
            let last = _mm_add_epi32(first, _mm_set1_epi32(3 * b - 1));
            let past_last = _mm_cmpgt_epi32(t1, last);
            let hi = _mm_or_si128(
                _mm_and_si128(past_last, last),
                _mm_andnot_si128(past_last, t1),
            );
            let below_home = bits(_mm_cmplt_epi32(lo, _mm_add_epi32(first, _mm_set1_epi32(b))));
            let past_home = bits(_mm_cmpgt_epi32(
                hi,
                _mm_add_epi32(first, _mm_set1_epi32(2 * b - 1)),
            ));
            let m = _mm_set1_epi32(margin);
            let below = _mm_sub_epi32(home, _mm_srai_epi32::<3>(_mm_sub_epi32(t, m)));
            let above = _mm_sub_epi32(_mm_srai_epi32::<3>(_mm_add_epi32(t1, m)), home);
            let (zero, one) = (_mm_setzero_si128(), _mm_set1_epi32(1));
            let sides = spread(bits(_mm_cmpgt_epi32(below, zero)))
                | spread(bits(_mm_cmpgt_epi32(below, one))) << 1
                | spread(bits(_mm_cmpgt_epi32(above, zero))) << 2
                | spread(bits(_mm_cmpgt_epi32(above, one))) << 3;
            let span = (below_home & 1)
                | (past_home & 1) << 1
                | (below_home & 2) << 1
                | (past_home & 2) << 2
                | (below_home & 4) << 2
                | (past_home & 4) << 3;
            let (lo, hi, home) = (lanes(lo), lanes(hi), lanes(home));
            Place {
                foot: Foot {
                    reach: std::array::from_fn(|a| [lo[a], hi[a]]),
                    u: u.to_array(),
                },
                home: [home[0], home[1], home[2]],
                code: span as u32 | sides << 8,
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::{span, Foot, B, BLOCK_NODES};
    use std::arch::x86_64::*;

    /// [`super::factors`] at the eight nodes `n`, in one register.
    ///
    /// # Safety
    /// The CPU has AVX and the caller is compiled with it (no pointer is read or
    /// written).
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

    /// A linear congruential sequence from `seed`, uniform in [0, 1).
    fn uniform(mut seed: u32) -> impl FnMut() -> f32 {
        move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        }
    }

    /// Pseudo-random positions (and whole numbers of cells, where the roundings
    /// turn): the SSE2 placing gives the scalar one's results.
    #[test]
    fn placing_three_axes_at_once_gives_the_scalar_results() {
        let mut rnd = uniform(777);
        for r in [1.0f32, 2.0, 2.5, 5.0, 8.0] {
            for k in 0..20_000 {
                let c = |x: f32| {
                    if k % 3 == 0 {
                        (16.0 + 200.0 * x).floor()
                    } else {
                        16.0 + 4000.0 * x
                    }
                };
                let u = Vec3A::new(c(rnd()), c(rnd()), c(rnd()));
                let p = place(u, r, 2);
                assert_eq!(p, place_scalar(u, r, 2), "u = {u}, r = {r}");
                for a in 0..3 {
                    let [lo, hi] = p.foot.reach[a];
                    assert!(lo as f32 >= u[a] - r && (hi as f32) <= u[a] + r);
                    assert_eq!(p.home[a], (u[a] / 8.0).floor() as i32);
                }
            }
        }
    }

    /// Pseudo-random particles around a block (reaches clipped as the surface clips
    /// them, some missing the block): the AVX sums give the scalar sums' bits.
    #[test]
    fn avx_sums_give_the_scalar_bits() {
        let mut rnd = uniform(12345);
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
