//! The particle–particle contact sum of one slot over its neighbour list, eight
//! neighbours at a time with AVX where the CPU has it (detected once at run time).
//!
//! Most listed neighbours do not touch in a given projection (the lists hold every
//! pair within the sum of the skins), so the kernel tests eight separations at once on
//! squared distances and computes the corrections only when one of the eight
//! overlaps. It performs the IEEE operations of the scalar [`push`] lane by lane —
//! `sep = (b_k − b_j) + (d_k − d_j)`, `|sep|² = (x² + y²) + z²`, the overlap test with
//! the same NaN behaviour, the share times the pair's mass-splitting factor
//! `f = (w_k + w_j) / (n_k w_k + n_j w_j)` (the push: times `min(ω f, 1)`), `sep · ((share · overlap) / dist)` — and adds the active
//! lanes to the sum in list order, so the result is bit-for-bit the scalar loop's (a
//! unit test compares them on random clouds).

use super::simd::Kernel;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::material::{cohesion_force, Grain};
use crate::particles::separation;

/// The per-slot arrays the contact sum reads (the neighbour search's copy of the
/// particles, in slot order); made by [`Cloud::new`], which checks that they have one
/// length.
#[derive(Clone, Copy)]
pub(crate) struct Cloud<'a> {
    /// Base positions and hot records (displacement, inverse mass).
    base: &'a [Vec3A],
    hot: &'a [Vec4],
    /// Radius (m) and unyielding factor of each slot.
    radius: &'a [f32],
    unyielding: &'a [f32],
    /// Each slot's mass-splitting count `n` (its active contacts in this projection,
    /// or 1 everywhere for a pass that only counts them): see [`split_of`].
    split: &'a [f32],
}

impl<'a> Cloud<'a> {
    /// Panics unless the five arrays have one length.
    #[inline]
    pub(crate) fn new(
        base: &'a [Vec3A],
        hot: &'a [Vec4],
        radius: &'a [f32],
        unyielding: &'a [f32],
        split: &'a [f32],
    ) -> Self {
        let m = base.len();
        assert!(
            hot.len() == m && radius.len() == m && unyielding.len() == m && split.len() == m,
            "contact kernel: slot arrays of different lengths"
        );
        Cloud {
            base,
            hot,
            radius,
            unyielding,
            split,
        }
    }
}

/// The squared separation (m²) at or below which a pair is coincident: its direction
/// is rounding noise (|sep| ≤ 1e-9 m), so [`coincident_normal`] stands for it.
pub(crate) const COINCIDENT: f32 = 1.0e-18;

/// The contact normal of slot k from slot j when the two are coincident (closer than
/// 1e-9 m, [`COINCIDENT`]): one of eight fixed unit directions chosen by a hash of
/// the unordered pair, negated for k > j, so the pair's two sides are pushed in
/// opposite directions (equal and opposite momenta, as every contact) and the same
/// state gives the same directions on every thread count and CPU. Each direction has
/// an xy part of length √3/2 and a z part of ±1/2, so a planar world's coincident
/// particles (z pushes dropped at the end of each substep) separate as well. Two
/// particles at one point then end a lone projection exactly one radii sum apart,
/// and a clump of N gets N − 1 directions per particle and spreads.
#[cold]
pub(crate) fn coincident_normal(k: usize, j: usize) -> Vec3 {
    // Azimuths 0°, 45°, ... 315° at elevations alternately +30° and −30°.
    const C: f32 = 0.866_025_4; // √3 / 2
    const D: f32 = 0.612_372_4; // √3 / 2 · √2 / 2
    const DIRECTIONS: [[f32; 3]; 8] = [
        [C, 0.0, 0.5],
        [D, D, -0.5],
        [0.0, C, 0.5],
        [-D, D, -0.5],
        [-C, 0.0, 0.5],
        [-D, -D, -0.5],
        [0.0, -C, 0.5],
        [D, -D, -0.5],
    ];
    let (a, b) = if k < j { (k, j) } else { (j, k) };
    let mut h = (a as u32).wrapping_mul(0x9E37_79B1) ^ (b as u32).wrapping_mul(0x85EB_CA77);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    let n = Vec3::from(DIRECTIONS[(h >> 29) as usize]);
    if k < j {
        n
    } else {
        -n
    }
}

/// The correction of slot k from neighbour j: `Some(share · overlap · n)` when they
/// overlap (the scalar definition the kernel follows), n along their separation, or
/// [`coincident_normal`] where they coincide.
#[inline(always)]
pub(crate) fn push(s: &Cloud<'_>, k: usize, j: usize, pk: Vec4, uk: f32, rk: f32) -> Option<Vec3> {
    let pj = s.hot[j];
    let sep = separation(s.base[k], s.base[j], pk, pj);
    let d2 = sep.length_squared();
    let rs = rk + s.radius[j];
    if d2 >= rs * rs {
        return None;
    }
    let dist = d2.sqrt();
    let overlap = rs - dist;
    let share = share_of(s, j, pk.w, pj.w, uk) * relaxed(split_of(s, k, j, pk.w, pj.w));
    if d2 <= COINCIDENT {
        return Some(coincident_normal(k, j) * (share * overlap));
    }
    Some(sep * (share * overlap / dist))
}

/// Whether a pair at squared separation `d2` (m²) is within `reach` (m): not
/// `d2 ≥ reach²`, so a NaN passes (as the AVX kernels' negated ordered compare) and
/// its correction carries it to the step's non-finite check.
#[inline(always)]
fn within(d2: f32, reach: f32) -> bool {
    d2.partial_cmp(&(reach * reach)).is_none_or(|o| o.is_lt())
}

/// Whether slot j touches slot k: the test of [`push`] (so [`rub`]'s when no slot is
/// cohesive), on the same operations, NaN passing it.
#[inline(always)]
fn touches(s: &Cloud<'_>, k: usize, j: usize, pk: Vec4, rk: f32) -> bool {
    let sep = separation(s.base[k], s.base[j], pk, s.hot[j]);
    let d2 = sep.length_squared();
    let rs = rk + s.radius[j];
    within(d2, rs)
}

/// Whether slot j touches or attracts slot k: the test of [`rub`] (its reach widened
/// by the cohesion band when the pair is cohesive), on the same operations.
#[inline(always)]
fn reaches(s: &Cloud<'_>, g: &Rough<'_>, k: usize, j: usize, pk: Vec4, rk: f32) -> bool {
    let sep = separation(s.base[k], s.base[j], pk, s.hot[j]);
    let d2 = sep.length_squared();
    let rs = rk + s.radius[j];
    let sigma = 0.5 * (g.grains[k].cohesion + g.grains[j].cohesion);
    let reach = if sigma > 0.0 { rs * g.scale } else { rs };
    within(d2, reach)
}

/// Whether slot j counts in slot k's contacts: [`touches`], or [`reaches`] with the
/// materials `g` of a cloud where some slot is cohesive (where none is, the two tests
/// agree: a pair's reach is its radii sum).
#[inline(always)]
pub(crate) fn counts(s: &Cloud<'_>, g: Option<&Rough<'_>>, k: usize, j: usize) -> bool {
    let (pk, rk) = (s.hot[k], s.radius[k]);
    match g {
        Some(g) => reaches(s, g, k, j, pk, rk),
        None => touches(s, k, j, pk, rk),
    }
}

/// The number of slots of `list` that count in slot k's contacts (see [`counts`]):
/// the `active` count [`sum`] (without `g`) or [`sum_rough`] (with the materials of a
/// cohesive cloud) gives over the same list, found with the distance test alone (no
/// correction is computed). With `out`, the slots that count are appended to it in
/// list order: [`sum`] (or [`sum_rough`]) over them without `skip_roaming` adds the
/// same corrections in the same order as over `list`, so the same bits, without
/// testing again the slots that do not touch (it grows `out` unless the caller made
/// room for `list.len()` more entries). `skip_roaming`, `roaming` and
/// `plain`: as for [`sum`]. Panics if k or an entry of `list` is not a slot of `s`
/// (or of `g`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn count(
    kernel: Kernel,
    s: &Cloud<'_>,
    g: Option<&Rough<'_>>,
    k: usize,
    list: &[u32],
    skip_roaming: bool,
    roaming: impl Fn(usize) -> bool,
    plain: bool,
    out: Option<&mut Vec<u32>>,
) -> u32 {
    let counted =
        |&&j: &&u32| !(skip_roaming && roaming(j as usize)) && counts(s, g, k, j as usize);
    match (kernel, out) {
        (Kernel::Scalar, None) => list.iter().filter(counted).count() as u32,
        (Kernel::Scalar, Some(out)) => {
            let before = out.len();
            out.extend(list.iter().filter(counted).copied());
            (out.len() - before) as u32
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Kernel::Avx is only chosen when the CPU has AVX; `avx::count` checks
        // the indices it reads.
        (Kernel::Avx, None) => unsafe {
            let none = &mut Vec::new();
            match (plain, skip_roaming) {
                (true, false) => avx::count::<true, false, false>(s, g, k, list, roaming, none),
                (true, true) => avx::count::<true, true, false>(s, g, k, list, roaming, none),
                (false, false) => avx::count::<false, false, false>(s, g, k, list, roaming, none),
                (false, true) => avx::count::<false, true, false>(s, g, k, list, roaming, none),
            }
        },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        (Kernel::Avx, Some(out)) => unsafe {
            match (plain, skip_roaming) {
                (true, false) => avx::count::<true, false, true>(s, g, k, list, roaming, out),
                (true, true) => avx::count::<true, true, true>(s, g, k, list, roaming, out),
                (false, false) => avx::count::<false, false, true>(s, g, k, list, roaming, out),
                (false, true) => avx::count::<false, true, true>(s, g, k, list, roaming, out),
            }
        },
    }
}

/// Slot k's share of a contact's correction with slot j: `w_k / (w_k + w_j)`, moved
/// towards 1 by j's unyielding factor when k has none, towards 0 by k's when j has
/// none (before the pair's mass splitting, [`split_of`]).
#[inline(always)]
fn share_of(s: &Cloud<'_>, j: usize, wk: f32, wj: f32, uk: f32) -> f32 {
    let mut share = wk / (wk + wj);
    let uj = s.unyielding[j];
    if uj > 0.0 && uk == 0.0 {
        share += (1.0 - share) * uj;
    } else if uk > 0.0 && uj == 0.0 {
        share -= share * uk;
    }
    share
}

/// The over-relaxation of the mass-split normal push (Macklin et al. 2014, "Unified
/// particle physics for real-time applications", §4.2, ω ≈ 1.5 for averaged
/// constraints): a particle's n contacts each take `1/n` of it where the counts are
/// equal, so its corrections close only part of the overlaps per projection; ω makes
/// up part of that, capped per pair (see [`relaxed`]).
pub(crate) const OVER_RELAXATION: f32 = 1.5;

/// The mass-splitting factor of the pair (k, j) (Tonge, Benevolenskiy and Zhang
/// 2012, "Mass splitting for jitter-free parallel rigid body simulation"):
/// `(w_k + w_j) / (n_k w_k + n_j w_j)`, n the slots' contact counts. Each particle
/// of n contacts takes part in each with n times its inverse mass, so the Jacobi sum
/// needs no averaging afterwards and the two sides of a pair move by `w_k λ` and
/// `w_j λ` with one `λ = f / (w_k + w_j)` times the pair's correction: equal and
/// opposite momenta (what a collider under a pile feels is then the pile's weight,
/// not more). Equal counts n give `1 / n`, the old average; counts of 1 (a counting
/// pass) give 1, bit for bit. Symmetric in k and j. Friction and cohesion take it as
/// it is; the normal push takes [`relaxed`] of it.
#[inline(always)]
fn split_of(s: &Cloud<'_>, k: usize, j: usize, wk: f32, wj: f32) -> f32 {
    (wk + wj) / (s.split[k] * wk + s.split[j] * wj)
}

/// The normal push's factor: `min(ω f, 1)` for the splitting factor f and ω
/// [`OVER_RELAXATION`]. Symmetric like f, so momentum stays conserved; the cap keeps
/// a pair from being pushed past contact (a lone pair, n = 1 on both sides, closes
/// its overlap exactly, as without ω).
#[inline(always)]
fn relaxed(f: f32) -> f32 {
    let f = OVER_RELAXATION * f;
    if f < 1.0 {
        f
    } else {
        1.0
    }
}

/// The granular materials of the slots (`crate::particles::material`), for [`rub`].
#[derive(Clone, Copy)]
pub(crate) struct Rough<'a> {
    /// Per slot: friction (rolling folded in) and tensile strength.
    pub grains: &'a [Grain],
    /// `h² / iterations` (s²): the displacement per unit of inverse mass and force
    /// over one projection.
    pub h2: f32,
    /// The reach of a pair as a multiple of its radii sum: `1 + COHESION_BAND` when
    /// some slot is cohesive, else 1 (the kernel's prefilter).
    pub scale: f32,
}

/// The correction of slot k from neighbour j with friction and cohesion (the module
/// doc of `crate::particles::material`): overlapping, the normal push plus k's share of the
/// removed relative tangential displacement (static below `μ_s d`, kinetic
/// `min(μ_k d / |Δx_t|, 1)` of it above); within the cohesion band, k's share of the
/// pull `min(g, (w_k + w_j) F h² / iterations)`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn rub(
    s: &Cloud<'_>,
    g: &Rough<'_>,
    k: usize,
    j: usize,
    pk: Vec4,
    uk: f32,
    rk: f32,
) -> Option<Vec3> {
    let pj = s.hot[j];
    let sep = separation(s.base[k], s.base[j], pk, pj);
    let d2 = sep.length_squared();
    let rs = rk + s.radius[j];
    let (gk, gj) = (g.grains[k], g.grains[j]);
    let sigma = 0.5 * (gk.cohesion + gj.cohesion);
    let reach = if sigma > 0.0 { rs * g.scale } else { rs };
    if d2 >= reach * reach {
        return None;
    }
    let dist = d2.sqrt();
    let n = if d2 <= COINCIDENT {
        coincident_normal(k, j)
    } else {
        sep / dist
    };
    let base = share_of(s, j, pk.w, pj.w, uk);
    let f = split_of(s, k, j, pk.w, pj.w);
    // Friction and cohesion take the split share, the normal push the relaxed one.
    let share = base * f;
    let overlap = rs - dist;
    if overlap <= 0.0 {
        // The gap closes by min(g, (w_k + w_j) F h² / iterations), written as a
        // select (the AVX kernel's operations).
        let gap = -overlap;
        let most = (pk.w + pj.w) * cohesion_force(sigma, rs) * g.h2;
        let pull = if most < gap { most } else { gap };
        return Some(n * (-(share * pull)));
    }
    let r = relaxed(f);
    let corr = n * ((base * r) * overlap);
    let mu_s = 0.5 * (gk.static_friction + gj.static_friction);
    if mu_s > 0.0 {
        let mu_k = 0.5 * (gk.dynamic_friction + gj.dynamic_friction);
        let rel = (pk - pj).truncate();
        let dt = rel - n * rel.dot(n);
        let t2 = dt.length_squared();
        // Coulomb's bounds are μ times the normal push the pair gets, the overlap
        // times `r / f` of the split share (its over-relaxation).
        let normal = overlap * (r / f);
        let stick = mu_s * normal;
        // Static: all of it (× 1, the same bits); kinetic: min(μ_k d / |Δx_t|, 1).
        let slip = if t2 < stick * stick {
            1.0
        } else {
            let q = mu_k * normal / t2.sqrt();
            if q < 1.0 {
                q
            } else {
                1.0
            }
        };
        return Some(corr - (dt * slip) * share);
    }
    Some(corr)
}

/// [`sum`] with friction and cohesion: the corrections [`rub`] gives, in list order.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn sum_rough_scalar(
    s: &Cloud<'_>,
    g: &Rough<'_>,
    k: usize,
    list: &[u32],
    skip_roaming: bool,
    roaming: impl Fn(usize) -> bool,
    acc: &mut Vec3,
    active: &mut u32,
) {
    let (pk, uk, rk) = (s.hot[k], s.unyielding[k], s.radius[k]);
    for &j in list {
        if skip_roaming && roaming(j as usize) {
            continue;
        }
        if let Some(d) = rub(s, g, k, j as usize, pk, uk, rk) {
            *acc += d;
            *active += 1;
        }
    }
}

/// The granular contact sum of slot k (movable) over `list`: [`sum_rough_scalar`],
/// with AVX performing [`rub`]'s IEEE operations lane by lane (its branches as
/// selects: a static contact removes `Δx_t · 1`, the same bits as `Δx_t`) on eight
/// neighbours at a time and adding the lanes that pass its test in list order: the
/// same bits. `plain`: see [`sum`]. Panics if k or an entry of `list` is not a slot
/// of `s`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sum_rough(
    kernel: Kernel,
    s: &Cloud<'_>,
    g: &Rough<'_>,
    k: usize,
    list: &[u32],
    skip_roaming: bool,
    roaming: impl Fn(usize) -> bool,
    plain: bool,
    acc: &mut Vec3,
    active: &mut u32,
) {
    match kernel {
        Kernel::Scalar => sum_rough_scalar(s, g, k, list, skip_roaming, roaming, acc, active),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Kernel::Avx is only chosen when the CPU has AVX; `avx::sum_rough`
        // checks the indices it reads.
        Kernel::Avx => unsafe {
            match (plain, skip_roaming) {
                (true, false) => avx::sum_rough::<true, false>(s, g, k, list, roaming, acc, active),
                (true, true) => avx::sum_rough::<true, true>(s, g, k, list, roaming, acc, active),
                (false, false) => {
                    avx::sum_rough::<false, false>(s, g, k, list, roaming, acc, active)
                }
                (false, true) => avx::sum_rough::<false, true>(s, g, k, list, roaming, acc, active),
            }
        },
    }
}

/// Adds the corrections of slot k (movable) from the slots of `list` to `acc` and
/// counts them in `active`, in list order; with `skip_roaming`, entries j for which
/// `roaming(j)` holds are left out (they are seen through the side pairs).
#[inline(always)]
fn sum_scalar(
    s: &Cloud<'_>,
    k: usize,
    list: &[u32],
    skip_roaming: bool,
    roaming: impl Fn(usize) -> bool,
    acc: &mut Vec3,
    active: &mut u32,
) {
    let (pk, uk, rk) = (s.hot[k], s.unyielding[k], s.radius[k]);
    for &j in list {
        if skip_roaming && roaming(j as usize) {
            continue;
        }
        if let Some(d) = push(s, k, j as usize, pk, uk, rk) {
            *acc += d;
            *active += 1;
        }
    }
}

/// The contact sum of slot k (movable) over `list` (see [`sum_scalar`]). With
/// `plain` (every slot has the same radius and none is unyielding, as
/// `Neighbours::plain` tells) the kernel reads neither radius nor unyielding factor of
/// the neighbours: `r_k + r_j` is `r_k + r_k` and the share is `w_k / (w_k + w_j)`,
/// the same operations on the same values, so the same bits. Panics if k or an entry
/// of `list` is not a slot of `s`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sum(
    kernel: Kernel,
    s: &Cloud<'_>,
    k: usize,
    list: &[u32],
    skip_roaming: bool,
    roaming: impl Fn(usize) -> bool,
    plain: bool,
    acc: &mut Vec3,
    active: &mut u32,
) {
    match kernel {
        Kernel::Scalar => sum_scalar(s, k, list, skip_roaming, roaming, acc, active),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Kernel::Avx is only chosen when the CPU has AVX; `avx::sum` checks
        // the indices it reads.
        Kernel::Avx => unsafe {
            match (plain, skip_roaming) {
                (true, false) => avx::sum::<true, false>(s, k, list, roaming, acc, active),
                (true, true) => avx::sum::<true, true>(s, k, list, roaming, acc, active),
                (false, false) => avx::sum::<false, false>(s, k, list, roaming, acc, active),
                (false, true) => avx::sum::<false, true>(s, k, list, roaming, acc, active),
            }
        },
    }
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use super::{Cloud, Rough};
    use crate::kernels::simd::avx::to_lanes;
    use crate::math::Vec3;
    use std::arch::x86_64::*;

    /// A block of up to eight neighbour slots as lanes (unused lanes hold `k`) and the
    /// mask of the lanes that take part (`roaming` neighbours left out when
    /// `skip_roaming`). Panics if an entry is not below `m`.
    #[inline(always)]
    fn block_lanes(
        block: &[u32],
        k: usize,
        m: usize,
        skip_roaming: bool,
        roaming: &impl Fn(usize) -> bool,
    ) -> ([usize; 8], u32) {
        let mut idx = [k; 8];
        let mut valid = (1u32 << block.len()) - 1;
        let mut outside = false;
        for (l, &j) in block.iter().enumerate() {
            let j = j as usize;
            idx[l] = j;
            outside |= j >= m;
            if skip_roaming && roaming(j) {
                valid &= !(1 << l);
            }
        }
        assert!(!outside, "contact kernel: neighbour out of bounds");
        (idx, valid)
    }

    /// The values of a per-slot array (radius, splitting count) at the eight lanes'
    /// slots.
    ///
    /// # Safety
    /// The CPU has AVX; every entry of `idx` is below `a.len()`.
    #[target_feature(enable = "avx")]
    #[inline]
    unsafe fn gather(a: &[f32], idx: &[usize; 8]) -> __m256 {
        // SAFETY: every entry of `idx` is in bounds (this function's safety section).
        unsafe {
            _mm256_setr_ps(
                *a.get_unchecked(idx[0]),
                *a.get_unchecked(idx[1]),
                *a.get_unchecked(idx[2]),
                *a.get_unchecked(idx[3]),
                *a.get_unchecked(idx[4]),
                *a.get_unchecked(idx[5]),
                *a.get_unchecked(idx[6]),
                *a.get_unchecked(idx[7]),
            )
        }
    }

    /// Slot k's base and displacement, each coordinate in every lane.
    #[target_feature(enable = "avx")]
    #[inline]
    fn broadcast(bk: crate::math::Vec3A, pk: crate::math::Vec4) -> ([__m256; 3], [__m256; 3]) {
        (
            [bk.x, bk.y, bk.z].map(|v| _mm256_set1_ps(v)),
            [pk.x, pk.y, pk.z].map(|v| _mm256_set1_ps(v)),
        )
    }

    /// The records of the eight lanes' slots: base and hot as `[x, y, z, w]` rows, and
    /// the radii (`rk` in every lane when `PLAIN`: see [`super::sum`]).
    ///
    /// # Safety
    /// The CPU has AVX; every entry of `idx` is a slot of `s`.
    #[target_feature(enable = "avx")]
    #[inline]
    unsafe fn records<const PLAIN: bool>(
        s: &Cloud<'_>,
        idx: &[usize; 8],
        rk: __m256,
    ) -> ([__m256; 4], [__m256; 4], __m256) {
        // SAFETY: every entry of `idx` is in bounds of every array of `s` (one length:
        // `Cloud::new`), this function's safety section.
        unsafe {
            (
                to_lanes(idx.map(|j| (*s.base.get_unchecked(j)).into())),
                to_lanes(idx.map(|j| (*s.hot.get_unchecked(j)).into())),
                if PLAIN { rk } else { gather(s.radius, idx) },
            )
        }
    }

    /// The mass-splitting factor of each lane's pair, [`super::split_of`]'s
    /// operations: `(w_k + w_j) / (n_k w_k + n_j w_j)`.
    #[target_feature(enable = "avx")]
    #[inline]
    fn split(wk: __m256, wj: __m256, nk: __m256, nj: __m256) -> __m256 {
        _mm256_div_ps(
            _mm256_add_ps(wk, wj),
            _mm256_add_ps(_mm256_mul_ps(nk, wk), _mm256_mul_ps(nj, wj)),
        )
    }

    /// [`super::relaxed`]: `min(ω f, 1)`, as the scalar `if x < 1 { x } else { 1 }`
    /// (NaN gives 1, like `_mm256_min_ps` with 1 second).
    #[target_feature(enable = "avx")]
    #[inline]
    fn relaxed(f: __m256) -> __m256 {
        _mm256_min_ps(
            _mm256_mul_ps(_mm256_set1_ps(super::OVER_RELAXATION), f),
            _mm256_set1_ps(1.0),
        )
    }

    /// The separation s = (base_k - base_j) + (hot_k - hot_j) of particle k from each
    /// lane's particle (m; the position split in two parts, as the scalar loop adds
    /// them) and its squared length d² (m²): `[sx, sy, sz, d2]`.
    #[target_feature(enable = "avx")]
    #[inline]
    fn separation(
        bk: [__m256; 3],
        hk: [__m256; 3],
        b: &[__m256; 4],
        h: &[__m256; 4],
    ) -> [__m256; 4] {
        let sx = _mm256_add_ps(_mm256_sub_ps(bk[0], b[0]), _mm256_sub_ps(hk[0], h[0]));
        let sy = _mm256_add_ps(_mm256_sub_ps(bk[1], b[1]), _mm256_sub_ps(hk[1], h[1]));
        let sz = _mm256_add_ps(_mm256_sub_ps(bk[2], b[2]), _mm256_sub_ps(hk[2], h[2]));
        let d2 = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(sx, sx), _mm256_mul_ps(sy, sy)),
            _mm256_mul_ps(sz, sz),
        );
        [sx, sy, sz, d2]
    }

    /// See [`super::count`]: [`separation`] and the overlap test of [`sum`] (of
    /// [`sum_rough`] with `g`) on eight neighbours per block, the lanes that pass it
    /// counted (and appended to `kept` with `KEEP`).
    ///
    /// Panics if k or an entry of `list` is not a slot of `s` (or of `g`). Inlined into
    /// its caller, whose loop is compiled with AVX (`simd::with_avx`, the counting
    /// pass's chunk loop): no call per slot (elsewhere each intrinsic is a call).
    ///
    /// # Safety
    /// The CPU has AVX.
    #[inline(always)]
    pub(super) unsafe fn count<const PLAIN: bool, const SKIP_ROAMING: bool, const KEEP: bool>(
        s: &Cloud<'_>,
        g: Option<&Rough<'_>>,
        k: usize,
        list: &[u32],
        roaming: impl Fn(usize) -> bool,
        kept: &mut Vec<u32>,
    ) -> u32 {
        let (base, hot, radius) = (s.base, s.hot, s.radius);
        // Every array has the length m (`Cloud::new`).
        let m = base.len();
        assert!(
            k < m && g.is_none_or(|g| g.grains.len() == m),
            "contact kernel: slot out of bounds"
        );
        let (bk, pk) = (base[k], hot[k]);
        let ([bkx, bky, bkz], [hkx, hky, hkz]) = broadcast(bk, pk);
        let rkv = _mm256_set1_ps(radius[k]);
        let half = _mm256_set1_ps(0.5);
        let zero = _mm256_setzero_ps();
        let gkc = _mm256_set1_ps(g.map_or(0.0, |g| g.grains[k].cohesion));
        let scale = _mm256_set1_ps(g.map_or(1.0, |g| g.scale));
        if KEEP {
            kept.reserve(list.len());
        }
        let mut n = 0u32;
        for block in list.chunks(8) {
            let (idx, valid) = block_lanes(block, k, m, SKIP_ROAMING, &roaming);
            // SAFETY: every entry of `idx` is below m, the length of every array: the
            // list's entries (checked just above) and k (checked on entry).
            let (b, h, rj) = unsafe { records::<PLAIN>(s, &idx, rkv) };
            let [_, _, _, d2] = separation([bkx, bky, bkz], [hkx, hky, hkz], &b, &h);
            let rs = _mm256_add_ps(rkv, rj);
            let reach = match g {
                None => rs,
                Some(g) => {
                    // SAFETY: as above, every entry of `idx` is below m, the length
                    // of `g.grains` (checked on entry).
                    let gjc = unsafe {
                        let c = |l: usize| g.grains.get_unchecked(idx[l]).cohesion;
                        _mm256_setr_ps(c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7))
                    };
                    let sigma = _mm256_mul_ps(half, _mm256_add_ps(gkc, gjc));
                    let cohesive = _mm256_cmp_ps(sigma, zero, _CMP_GT_OQ);
                    _mm256_blendv_ps(rs, _mm256_mul_ps(rs, scale), cohesive)
                }
            };
            // Not d2 ≥ reach²: NaN passes, like the scalar test.
            let out = _mm256_cmp_ps(d2, _mm256_mul_ps(reach, reach), _CMP_GE_OQ);
            let hit = !(_mm256_movemask_ps(out) as u32) & valid;
            n += hit.count_ones();
            if KEEP {
                // Every lane's slot written at the end, the end moved past the lanes
                // that count (no branch per lane).
                let (dst, mut len) = (kept.as_mut_ptr(), kept.len());
                for (l, &j) in block.iter().enumerate() {
                    // SAFETY: len ≤ the starting length + the entries of `list` before
                    // this one < the starting length + list.len() ≤ the capacity
                    // (reserved on entry).
                    unsafe { dst.add(len).write(j) };
                    len += ((hit >> l) & 1) as usize;
                }
                // SAFETY: the first len entries are written (len ≤ capacity).
                unsafe { kept.set_len(len) };
            }
        }
        n
    }

    /// See [`super::sum_scalar`]: the same operations, eight neighbours per block;
    /// `PLAIN`: see [`super::sum`].
    ///
    /// Panics if k or an entry of `list` is not a slot of `s`. Inlined as [`count`] is
    /// (the sum's range loop).
    ///
    /// # Safety
    /// The CPU has AVX.
    #[inline(always)]
    pub(super) unsafe fn sum<const PLAIN: bool, const SKIP_ROAMING: bool>(
        s: &Cloud<'_>,
        k: usize,
        list: &[u32],
        roaming: impl Fn(usize) -> bool,
        acc: &mut Vec3,
        active: &mut u32,
    ) {
        let (base, hot, radius, unyielding, counts) =
            (s.base, s.hot, s.radius, s.unyielding, s.split);
        // Every array has the length m (`Cloud::new`).
        let m = base.len();
        assert!(k < m, "contact kernel: slot out of bounds");
        let (bk, pk) = (base[k], hot[k]);
        let nk = _mm256_set1_ps(counts[k]);
        let (uk, rk) = (unyielding[k], radius[k]);
        let ([bkx, bky, bkz], [hkx, hky, hkz]) = broadcast(bk, pk);
        let wk = _mm256_set1_ps(pk.w);
        let rkv = _mm256_set1_ps(rk);
        let tiny = _mm256_set1_ps(super::COINCIDENT);
        let one = _mm256_set1_ps(1.0);
        let zero = _mm256_setzero_ps();
        let ukv = _mm256_set1_ps(uk);
        let (a, mut n) = (*acc, *active);
        let (mut ax, mut ay, mut az) = (a.x, a.y, a.z);
        for block in list.chunks(8) {
            let (idx, valid) = block_lanes(block, k, m, SKIP_ROAMING, &roaming);
            // SAFETY: every entry of `idx` is below m, the length of every array: the
            // list's entries (checked just above) and k (checked on entry).
            let (b, h, rj) = unsafe { records::<PLAIN>(s, &idx, rkv) };
            let [sx, sy, sz, d2] = separation([bkx, bky, bkz], [hkx, hky, hkz], &b, &h);
            let rs = _mm256_add_ps(rkv, rj);
            // Not d2 ≥ rs²: NaN passes, like the scalar test.
            let out = _mm256_cmp_ps(d2, _mm256_mul_ps(rs, rs), _CMP_GE_OQ);
            let hit = !(_mm256_movemask_ps(out) as u32) & valid;
            if hit == 0 {
                continue;
            }
            if _mm256_movemask_ps(_mm256_cmp_ps(d2, tiny, _CMP_LE_OQ)) as u32 & hit != 0 {
                // A coincident pair (rare): the block by the scalar rule, lane by
                // lane in list order (the same bits for the other lanes).
                for (l, &j) in idx.iter().enumerate() {
                    if (hit >> l) & 1 != 0 {
                        if let Some(d) = super::push(s, k, j, pk, uk, rk) {
                            (ax, ay, az) = (ax + d.x, ay + d.y, az + d.z);
                            n += 1;
                        }
                    }
                }
                continue;
            }
            let dist = _mm256_sqrt_ps(d2);
            let overlap = _mm256_sub_ps(rs, dist);
            let share = _mm256_div_ps(wk, _mm256_add_ps(wk, h[3]));
            let share = if PLAIN {
                share
            } else {
                let uj = _mm256_setr_ps(
                    unyielding[idx[0]],
                    unyielding[idx[1]],
                    unyielding[idx[2]],
                    unyielding[idx[3]],
                    unyielding[idx[4]],
                    unyielding[idx[5]],
                    unyielding[idx[6]],
                    unyielding[idx[7]],
                );
                // uj > 0 and uk = 0: share + (1 − share) uj; uk > 0 and uj = 0:
                // share − share uk (exclusive: they disagree on uk).
                let pushed = _mm256_and_ps(
                    _mm256_cmp_ps(uj, zero, _CMP_GT_OQ),
                    _mm256_cmp_ps(ukv, zero, _CMP_EQ_OQ),
                );
                let held = _mm256_and_ps(
                    _mm256_cmp_ps(ukv, zero, _CMP_GT_OQ),
                    _mm256_cmp_ps(uj, zero, _CMP_EQ_OQ),
                );
                let s1 = _mm256_add_ps(share, _mm256_mul_ps(_mm256_sub_ps(one, share), uj));
                let s2 = _mm256_sub_ps(share, _mm256_mul_ps(share, ukv));
                _mm256_blendv_ps(_mm256_blendv_ps(share, s2, held), s1, pushed)
            };
            // SAFETY: as above, every entry of `idx` is below m.
            let nj = unsafe { gather(counts, &idx) };
            let share = _mm256_mul_ps(share, relaxed(split(wk, h[3], nk, nj)));
            let f = _mm256_div_ps(_mm256_mul_ps(share, overlap), dist);
            let mut dx = [0.0f32; 8];
            let mut dy = [0.0f32; 8];
            let mut dz = [0.0f32; 8];
            _mm256_storeu_ps(dx.as_mut_ptr(), _mm256_mul_ps(sx, f));
            _mm256_storeu_ps(dy.as_mut_ptr(), _mm256_mul_ps(sy, f));
            _mm256_storeu_ps(dz.as_mut_ptr(), _mm256_mul_ps(sz, f));
            let mut bits = hit;
            while bits != 0 {
                let l = bits.trailing_zeros() as usize;
                ax += dx[l];
                ay += dy[l];
                az += dz[l];
                n += 1;
                bits &= bits - 1;
            }
        }
        *acc = Vec3::new(ax, ay, az);
        *active = n;
    }

    /// See [`super::sum_rough`]: [`super::rub`]'s operations on eight neighbours per
    /// block, the lanes that touch (or attract) added in list order; `PLAIN`: see
    /// [`super::sum`].
    ///
    /// Panics if k or an entry of `list` is not a slot of `s` or of `g`. Inlined as
    /// [`count`] is.
    ///
    /// # Safety
    /// The CPU has AVX.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn sum_rough<const PLAIN: bool, const SKIP_ROAMING: bool>(
        s: &Cloud<'_>,
        g: &Rough<'_>,
        k: usize,
        list: &[u32],
        roaming: impl Fn(usize) -> bool,
        acc: &mut Vec3,
        active: &mut u32,
    ) {
        let (base, hot, radius, unyielding, counts, grains) =
            (s.base, s.hot, s.radius, s.unyielding, s.split, g.grains);
        let m = base.len();
        assert!(
            k < m && grains.len() == m,
            "contact kernel: slot out of bounds"
        );
        let (bk, pk, gk) = (base[k], hot[k], grains[k]);
        let nk = _mm256_set1_ps(counts[k]);
        let (uk, rk) = (unyielding[k], radius[k]);
        let ([bkx, bky, bkz], [hkx, hky, hkz]) = broadcast(bk, pk);
        let wk = _mm256_set1_ps(pk.w);
        let rkv = _mm256_set1_ps(rk);
        let ukv = _mm256_set1_ps(uk);
        let gks = _mm256_set1_ps(gk.static_friction);
        let gkd = _mm256_set1_ps(gk.dynamic_friction);
        let gkc = _mm256_set1_ps(gk.cohesion);
        let scale = _mm256_set1_ps(g.scale);
        let h2 = _mm256_set1_ps(g.h2);
        let rumpf = _mm256_set1_ps(super::cohesion_force(1.0, 1.0));
        let half = _mm256_set1_ps(0.5);
        let tiny = _mm256_set1_ps(super::COINCIDENT);
        let one = _mm256_set1_ps(1.0);
        let zero = _mm256_setzero_ps();
        let sign = _mm256_set1_ps(-0.0);
        let (a, mut n) = (*acc, *active);
        let (mut ax, mut ay, mut az) = (a.x, a.y, a.z);
        for block in list.chunks(8) {
            let (idx, valid) = block_lanes(block, k, m, SKIP_ROAMING, &roaming);
            // SAFETY: every entry of `idx` is below m, the length of every array: the
            // list's entries (checked just above) and k (checked on entry); a `Grain`
            // is 16 bytes (four floats, `repr(C)`), read unaligned.
            let (b, h, gj, rj) = unsafe {
                (
                    to_lanes(idx.map(|j| (*base.get_unchecked(j)).into())),
                    to_lanes(idx.map(|j| (*hot.get_unchecked(j)).into())),
                    to_lanes(idx.map(|j| _mm_loadu_ps(grains.as_ptr().add(j) as *const f32))),
                    if PLAIN { rkv } else { gather(radius, &idx) },
                )
            };
            let [sx, sy, sz, d2] = separation([bkx, bky, bkz], [hkx, hky, hkz], &b, &h);
            let rs = _mm256_add_ps(rkv, rj);
            let sigma = _mm256_mul_ps(half, _mm256_add_ps(gkc, gj[2]));
            let cohesive = _mm256_cmp_ps(sigma, zero, _CMP_GT_OQ);
            let reach = _mm256_blendv_ps(rs, _mm256_mul_ps(rs, scale), cohesive);
            // Not d2 ≥ reach²: NaN passes, like the scalar test.
            let out = _mm256_cmp_ps(d2, _mm256_mul_ps(reach, reach), _CMP_GE_OQ);
            let hit = !(_mm256_movemask_ps(out) as u32) & valid;
            if hit == 0 {
                continue;
            }
            if _mm256_movemask_ps(_mm256_cmp_ps(d2, tiny, _CMP_LE_OQ)) as u32 & hit != 0 {
                // A coincident pair (rare): as in [`sum`].
                for (l, &j) in idx.iter().enumerate() {
                    if (hit >> l) & 1 != 0 {
                        if let Some(d) = super::rub(s, g, k, j, pk, uk, rk) {
                            (ax, ay, az) = (ax + d.x, ay + d.y, az + d.z);
                            n += 1;
                        }
                    }
                }
                continue;
            }
            let dist = _mm256_sqrt_ps(d2);
            let nx = _mm256_div_ps(sx, dist);
            let ny = _mm256_div_ps(sy, dist);
            let nz = _mm256_div_ps(sz, dist);
            let share = _mm256_div_ps(wk, _mm256_add_ps(wk, h[3]));
            let share = if PLAIN {
                share
            } else {
                // SAFETY: as above, every entry of `idx` is below m.
                let uj = unsafe {
                    _mm256_setr_ps(
                        *unyielding.get_unchecked(idx[0]),
                        *unyielding.get_unchecked(idx[1]),
                        *unyielding.get_unchecked(idx[2]),
                        *unyielding.get_unchecked(idx[3]),
                        *unyielding.get_unchecked(idx[4]),
                        *unyielding.get_unchecked(idx[5]),
                        *unyielding.get_unchecked(idx[6]),
                        *unyielding.get_unchecked(idx[7]),
                    )
                };
                let pushed = _mm256_and_ps(
                    _mm256_cmp_ps(uj, zero, _CMP_GT_OQ),
                    _mm256_cmp_ps(ukv, zero, _CMP_EQ_OQ),
                );
                let held = _mm256_and_ps(
                    _mm256_cmp_ps(ukv, zero, _CMP_GT_OQ),
                    _mm256_cmp_ps(uj, zero, _CMP_EQ_OQ),
                );
                let s1 = _mm256_add_ps(share, _mm256_mul_ps(_mm256_sub_ps(one, share), uj));
                let s2 = _mm256_sub_ps(share, _mm256_mul_ps(share, ukv));
                _mm256_blendv_ps(_mm256_blendv_ps(share, s2, held), s1, pushed)
            };
            // SAFETY: as above, every entry of `idx` is below m.
            let nj = unsafe { gather(counts, &idx) };
            let split = split(wk, h[3], nk, nj);
            let (base, share) = (share, _mm256_mul_ps(share, split));
            let overlap = _mm256_sub_ps(rs, dist);
            // Cohesion (overlap ≤ 0): n · −(share · min(g, (w_k + w_j) F h²)).
            let gap = _mm256_xor_ps(overlap, sign);
            let force = _mm256_mul_ps(_mm256_mul_ps(sigma, _mm256_mul_ps(rs, rs)), rumpf);
            let most = _mm256_mul_ps(_mm256_mul_ps(_mm256_add_ps(wk, h[3]), force), h2);
            let pull = _mm256_blendv_ps(gap, most, _mm256_cmp_ps(most, gap, _CMP_LT_OQ));
            let p = _mm256_xor_ps(_mm256_mul_ps(share, pull), sign);
            // Contact: n · (share · overlap) − (Δx_t · f) · share where μ_s > 0.
            let r = relaxed(split);
            let push = _mm256_mul_ps(_mm256_mul_ps(base, r), overlap);
            let normal = _mm256_mul_ps(overlap, _mm256_div_ps(r, split));
            let (cx, cy, cz) = (
                _mm256_mul_ps(nx, push),
                _mm256_mul_ps(ny, push),
                _mm256_mul_ps(nz, push),
            );
            let mu_s = _mm256_mul_ps(half, _mm256_add_ps(gks, gj[0]));
            let mu_k = _mm256_mul_ps(half, _mm256_add_ps(gkd, gj[1]));
            let rx = _mm256_sub_ps(hkx, h[0]);
            let ry = _mm256_sub_ps(hky, h[1]);
            let rz = _mm256_sub_ps(hkz, h[2]);
            let rn = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(rx, nx), _mm256_mul_ps(ry, ny)),
                _mm256_mul_ps(rz, nz),
            );
            let tx = _mm256_sub_ps(rx, _mm256_mul_ps(nx, rn));
            let ty = _mm256_sub_ps(ry, _mm256_mul_ps(ny, rn));
            let tz = _mm256_sub_ps(rz, _mm256_mul_ps(nz, rn));
            let t2 = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(tx, tx), _mm256_mul_ps(ty, ty)),
                _mm256_mul_ps(tz, tz),
            );
            let stick = _mm256_mul_ps(mu_s, normal);
            let q = _mm256_div_ps(_mm256_mul_ps(mu_k, normal), _mm256_sqrt_ps(t2));
            let q = _mm256_blendv_ps(one, q, _mm256_cmp_ps(q, one, _CMP_LT_OQ));
            let f = _mm256_blendv_ps(
                q,
                one,
                _mm256_cmp_ps(t2, _mm256_mul_ps(stick, stick), _CMP_LT_OQ),
            );
            let rough = _mm256_cmp_ps(mu_s, zero, _CMP_GT_OQ);
            let fric = |c: __m256, t: __m256| {
                _mm256_blendv_ps(
                    c,
                    _mm256_sub_ps(c, _mm256_mul_ps(_mm256_mul_ps(t, f), share)),
                    rough,
                )
            };
            let (cx, cy, cz) = (fric(cx, tx), fric(cy, ty), fric(cz, tz));
            let apart = _mm256_cmp_ps(overlap, zero, _CMP_LE_OQ);
            let mut dx = [0.0f32; 8];
            let mut dy = [0.0f32; 8];
            let mut dz = [0.0f32; 8];
            _mm256_storeu_ps(
                dx.as_mut_ptr(),
                _mm256_blendv_ps(cx, _mm256_mul_ps(nx, p), apart),
            );
            _mm256_storeu_ps(
                dy.as_mut_ptr(),
                _mm256_blendv_ps(cy, _mm256_mul_ps(ny, p), apart),
            );
            _mm256_storeu_ps(
                dz.as_mut_ptr(),
                _mm256_blendv_ps(cz, _mm256_mul_ps(nz, p), apart),
            );
            let mut bits = hit;
            while bits != 0 {
                let l = bits.trailing_zeros() as usize;
                ax += dx[l];
                ay += dy[l];
                az += dz[l];
                n += 1;
                bits &= bits - 1;
            }
        }
        *acc = Vec3::new(ax, ay, az);
        *active = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::neighbours::Neighbours;
    use crate::particles::Particles;
    use crate::solver::parallel::Executor;

    /// On a random packed cloud (many overlaps, coincident pairs, pinned and
    /// unyielding particles, mixed radii, masses and splitting counts), the kernel's sum is the scalar loop's, bit for bit;
    /// on the same cloud with one radius and no unyielding particle, the plain kernel
    /// too; and the granular sum (random friction and cohesion) is its scalar loop's.
    #[test]
    fn kernel_sums_equal_the_scalar_loop() {
        for plain in [false, true] {
            kernel_sums_case(plain);
        }
    }

    fn kernel_sums_case(plain: bool) {
        let mut seed = 5u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        let n = 6000;
        let mut p = Particles::default();
        p.reserve(n).unwrap();
        let mut last = (Vec3::ZERO, Vec3::ZERO);
        for i in 0..n {
            let mut x = Vec3::new(next(), next(), next()) * 0.3 + Vec3::new(2.0, -1.0, 0.5);
            let w = if i % 13 == 0 { 0.0 } else { 0.5 + next() };
            // A displacement within the substep (the relative motion friction acts on).
            let mut d = Vec3::new(next(), next(), next()) * 0.004 - Vec3::splat(0.002);
            if i % 10 == 9 {
                // Every tenth particle exactly on the one before (a coincident pair).
                (x, d) = last;
            }
            last = (x, d);
            p.push(x, w);
            p.hot[i] = d.extend(w);
            p.radius[i] = 0.01 * (0.5 + next());
            p.unyielding[i] = match i % 7 {
                0 => 1.0,
                1 => next(),
                _ => 0.0,
            };
            if plain {
                p.radius[i] = 0.011;
                p.unyielding[i] = 0.0;
            }
        }
        let mut s = Neighbours::default();
        s.begin_step(&p, 1.0 / 600.0, &Executor::new(1).unwrap())
            .unwrap();
        assert_eq!(s.plain(), plain);
        let kernel = Kernel::detect();
        // Mass-splitting counts of 1 to 6 (a counting pass's ones among them).
        let split: Vec<f32> = (0..s.len()).map(|k| (1 + k % 6) as f32).collect();
        let cloud = Cloud::new(&s.base, &s.hot, &s.radius, &s.unyielding, &split);
        let roaming = |j: usize| s.is_roaming(j);
        // The slots of slot k's list that the counting pass keeps (with the materials
        // `g` where the cloud is cohesive), its count checked against them.
        let kept_slots = |kernel: Kernel,
                          g: Option<&Rough<'_>>,
                          k: usize,
                          skip: bool,
                          use_plain: bool|
         -> (u32, Vec<u32>) {
            let mut kept = Vec::new();
            let c = count(
                kernel,
                &cloud,
                g,
                k,
                s.list(k),
                skip,
                roaming,
                use_plain,
                Some(&mut kept),
            );
            assert_eq!(kept.len(), c as usize);
            (c, kept)
        };
        let mut touched = 0;
        for k in 0..s.len() {
            if s.hot[k].w == 0.0 {
                continue;
            }
            for skip in [false, true] {
                let (mut a, mut na) = (Vec3::ZERO, 0u32);
                sum_scalar(&cloud, k, s.list(k), skip, roaming, &mut a, &mut na);
                let mut kinds = vec![false];
                if plain {
                    kinds.push(true);
                }
                for use_plain in kinds {
                    let (mut b, mut nb) = (Vec3::ZERO, 0u32);
                    let list = s.list(k);
                    sum(
                        kernel, &cloud, k, list, skip, roaming, use_plain, &mut b, &mut nb,
                    );
                    assert_eq!(na, nb, "slot {k}");
                    assert_eq!(
                        a.to_array().map(f32::to_bits),
                        b.to_array().map(f32::to_bits)
                    );
                    // The counting pass's kernel counts the same contacts, on either
                    // implementation, and the sum over the slots it keeps is the same
                    // bits.
                    for kernel in [Kernel::Scalar, kernel] {
                        let (c, kept) = kept_slots(kernel, None, k, skip, use_plain);
                        assert_eq!(c, na, "slot {k}");
                        let (mut d, mut nd) = (Vec3::ZERO, 0u32);
                        sum(
                            kernel, &cloud, k, &kept, false, roaming, use_plain, &mut d, &mut nd,
                        );
                        assert_eq!(nd, na, "slot {k}");
                        assert_eq!(
                            a.to_array().map(f32::to_bits),
                            d.to_array().map(f32::to_bits)
                        );
                    }
                }
                touched += (na > 1) as usize;
            }
        }
        assert!(touched > 100, "the cloud must hold many multiple contacts");
        let coincident = (0..s.len())
            .filter(|&k| {
                s.list(k).iter().any(|&j| {
                    let j = j as usize;
                    separation(s.base[k], s.base[j], s.hot[k], s.hot[j]).length_squared()
                        <= COINCIDENT
                })
            })
            .count();
        assert!(
            coincident > 500,
            "the cloud must hold coincident pairs: {coincident}"
        );
        // The granular sum: random materials (some frictionless, some cohesive),
        // against the scalar loop, with and without cohesion in the cloud.
        for cohesive in [false, true] {
            let grains: Vec<Grain> = (0..s.len())
                .map(|k| Grain {
                    static_friction: if k % 5 == 0 { 0.0 } else { next() },
                    dynamic_friction: 0.5 * next(),
                    cohesion: if cohesive && k % 3 == 0 {
                        1.0e4 * next()
                    } else {
                        0.0
                    },
                    pad: 0.0,
                })
                .collect();
            let g = Rough {
                grains: &grains,
                h2: 1.0e-5,
                scale: if cohesive { 1.1 } else { 1.0 },
            };
            let (mut pulled, mut kinetic) = (0, 0);
            for k in 0..s.len() {
                if s.hot[k].w == 0.0 {
                    continue;
                }
                for skip in [false, true] {
                    let (mut a, mut na) = (Vec3::ZERO, 0u32);
                    sum_rough_scalar(&cloud, &g, k, s.list(k), skip, roaming, &mut a, &mut na);
                    for use_plain in [false, plain] {
                        let (mut b, mut nb) = (Vec3::ZERO, 0u32);
                        let list = s.list(k);
                        let (acc, active) = (&mut b, &mut nb);
                        sum_rough(
                            kernel, &cloud, &g, k, list, skip, roaming, use_plain, acc, active,
                        );
                        assert_eq!(na, nb, "slot {k}");
                        assert_eq!(
                            a.to_array().map(f32::to_bits),
                            b.to_array().map(f32::to_bits)
                        );
                        // The count, with the materials where some slot is cohesive
                        // (as the contact pass calls it).
                        let gc = cohesive.then_some(&g);
                        for kernel in [Kernel::Scalar, kernel] {
                            let (c, kept) = kept_slots(kernel, gc, k, skip, use_plain);
                            assert_eq!(c, na, "slot {k}");
                            // The granular sum over the kept slots: the same bits.
                            let (mut d, mut nd) = (Vec3::ZERO, 0u32);
                            let (acc, active) = (&mut d, &mut nd);
                            sum_rough(
                                kernel, &cloud, &g, k, &kept, false, roaming, use_plain, acc,
                                active,
                            );
                            assert_eq!(nd, na, "slot {k}");
                            assert_eq!(
                                a.to_array().map(f32::to_bits),
                                d.to_array().map(f32::to_bits)
                            );
                        }
                    }
                    let (mut c, mut nc) = (Vec3::ZERO, 0u32);
                    sum_scalar(&cloud, k, s.list(k), skip, roaming, &mut c, &mut nc);
                    pulled += (na > nc) as usize;
                    kinetic += (a != c) as usize;
                }
            }
            assert_eq!(pulled > 0, cohesive, "cohesive pairs reach past contact");
            assert!(kinetic > 100, "friction must change many sums");
        }
    }
}
