//! Per-particle ellipsoids for rendering (Yu & Turk 2013, "Reconstructing surfaces of
//! particle-based fluids using anisotropic kernels").
//!
//! For a live fluid particle i at x_i, over its neighbours j of the same fluid within
//! the smoothing radius h (and i itself, w_ii = 1), with the weight
//! `w_ij = 1 − (|x_ij| / h)³`:
//!
//! ```text
//! x_w = Σ w_ij x_j / Σ w_ij                            weighted mean
//! x̄_i = (1 − λ) x_i + λ x_w                            smoothed centre (λ = smoothing)
//! C_i = Σ w_ij (x_j − x_w)(x_j − x_w)ᵀ / Σ w_ij          covariance (m²)
//! C_i = R diag(σ₁, σ₂, σ₃) Rᵀ,  σ₁ ≥ σ₂ ≥ σ₃              eigen-decomposition
//! σ̃_k = max(σ_k, σ₁ / k_r)                               anisotropy clamp
//! a_k = r k_s σ̃_k / σ₀                                  radius along R's column k
//! ```
//!
//! Yu & Turk stretch the kernel in proportion to the clamped singular values, as here;
//! their k_s (1400 in their units) is written relative to σ₀, the covariance along any
//! axis of a neighbourhood filled with the fluid's rest lattice (a cube lattice of
//! the fluid's spacing, square in a planar world), so that a particle inside the
//! bulk is a sphere of radius r k_s whatever the units. A particle with fewer than
//! N_ε neighbours is a sphere of radius r k_n (their isolated case), and so is one
//! whose covariance is degenerate or not finite. In a planar world the axis across the
//! plane has the covariance σ₀ (the neighbourhood has no extent along it). A particle
//! whose covariance is nearly a multiple of the identity (its Gershgorin bounds within
//! a ratio of 1.2: most of the bulk) is a sphere of radius r k_s (tr C / 3) / σ₀
//! (the readback queues only the other particles for the eigen-decomposition).
//!
//! The particles are shaped [`BATCH`] at a time, each quantity a row of lanes, in one
//! function compiled with AVX where the CPU has it; every lane runs the same
//! operations in the same order as a particle alone, so the bits do not depend on
//! the batch, the lane or the thread count.

use crate::limits::{MAX_ELLIPSOID_RATIO, MAX_ELLIPSOID_SCALE, MAX_FLUID_SPACING};
use crate::math::{Vec3, Vec3A, Vec4};

use super::eigen::{symmetric_eigen_rows, Sym};
use super::GridView;
use crate::kernels::fluid::Spread;
use crate::kernels::simd::{with_avx, Kernel as Simd};

crate::settings! {
    /// How the anisotropy readback turns each fluid particle's neighbourhood into an
    /// ellipsoid (Yu & Turk 2013): smoothing of the centres, the stretch clamp, the
    /// scale and the isolated particles' size.
    pub struct AnisotropyDesc => SinewAnisotropyDesc, AnisotropySettings, cookie 0x5E1E_0404,
        path "crate::fluid::AnisotropyDesc" {
        /// The radius of a particle inside the bulk (k_s = 1); 0 takes half the fluid's
        /// spacing.
        radius: f32 = 0.0 => unit "m", min >= 0.0, max <= MAX_FLUID_SPACING,
            auto zero "spacing / 2";
        /// Laplacian smoothing λ of the centres: 0 draws each ellipsoid at its particle,
        /// 1 at the weighted mean of its neighbourhood (Yu & Turk use 0.9 to 1).
        smoothing: f32 = 0.9 => unit "", min >= 0.0, max <= 1.0;
        /// k_r: the largest ratio of the longest to the shortest axis.
        max_ratio: f32 = 4.0 => unit "", min >= 1.0, max <= MAX_ELLIPSOID_RATIO;
        /// k_s: scales every axis (1 draws the bulk's particles at `radius`).
        scale: f32 = 1.0 => unit "", min > 0.0, max <= MAX_ELLIPSOID_SCALE;
        /// k_n: the radius of an isolated particle (fewer than `min_neighbours`), as a
        /// fraction of `radius`.
        isolated_scale: f32 = 0.5 => unit "", min >= 0.0, max <= MAX_ELLIPSOID_SCALE;
        /// N_ε: neighbours (within the smoothing radius) below which a particle is drawn
        /// as a sphere. A particle in the bulk has about 33 at the default smoothing
        /// radius (2 spacings; 12 in a planar world), one on a flat surface about half.
        min_neighbours: u32 = 6 => unit "particles", max <= 1000;
    }
}

/// One particle's ellipsoid: the (smoothed) centre and three orthogonal axes, each a
/// unit direction times the radius along it, longest first and right-handed, so that
/// `[axes[0] axes[1] axes[2] center]` is the affine transform of a unit sphere.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FluidEllipsoid {
    /// m
    pub center: Vec3,
    /// m (direction × radius)
    pub axes: [Vec3; 3],
}

/// Largest ratio of the Gershgorin bounds of the covariance's eigenvalues under which
/// a particle is drawn as a sphere of the mean radius without the eigen solve (each
/// radius then within about 10% of its exact value; a surface particle is far flatter).
const ISOTROPIC: f32 = 1.2;

/// Particles shaped together: four AVX registers per quantity, so that the square
/// roots and divisions of the eigen solves (a chain of nine rotations per lane) of four
/// registers overlap (two left the divider waiting on the chains' latency).
pub(crate) const BATCH: usize = 32;

/// The constants of one readback.
pub(crate) struct Kernel {
    h: f32,
    h2: f32,
    inv_h: f32,
    radius: f32,
    smoothing: f32,
    max_ratio: f32,
    /// k_s / σ₀ with σ₀ in units of h².
    stretch: f32,
    isolated: f32,
    min_neighbours: u32,
    /// The covariance across the plane of a planar world (units of h²), else None.
    planar: Option<f32>,
}

impl Kernel {
    /// The constants for a fluid of `spacing` and smoothing radius `h`.
    pub fn new(desc: &AnisotropyDesc, spacing: f32, h: f32, planar: bool) -> Kernel {
        let radius = if desc.radius == 0.0 {
            0.5 * spacing
        } else {
            desc.radius
        };
        let sigma0 = lattice_covariance(spacing / h, planar);
        Kernel {
            h,
            h2: h * h,
            inv_h: 1.0 / h,
            radius,
            smoothing: desc.smoothing,
            max_ratio: desc.max_ratio,
            stretch: desc.scale / sigma0,
            isolated: desc.isolated_scale,
            min_neighbours: desc.min_neighbours,
            planar: planar.then_some(sigma0),
        }
    }

    /// A sphere of radius `r` at `c`.
    pub fn sphere(c: Vec3, r: f32) -> FluidEllipsoid {
        FluidEllipsoid {
            center: c,
            axes: [Vec3::X * r, Vec3::Y * r, Vec3::Z * r],
        }
    }

    /// The ellipsoid of the particle `me` (world index) of grid slot `slot` (None: one
    /// the grid does not hold) at `x` (relative to the grid's origin) from the gathered
    /// positions `pos` of its fluid (w = 1 for the fluid's live particles): over its
    /// slot's neighbour list, or (a particle emitted since, or one whose list finds
    /// fewer than N_ε neighbours) over the 27 cells around it. The centre is absolute.
    pub fn ellipsoid(
        &self,
        grid: &GridView<'_>,
        pos: &[Vec4],
        (slot, me): (Option<usize>, u32),
        x: Vec3A,
    ) -> FluidEllipsoid {
        let mut s = Sums::default();
        if let Some(k) = slot {
            for &j in grid.list(k) {
                self.add(&mut s, pos[j as usize], x);
            }
        }
        if s.n < self.min_neighbours {
            return self.around(grid, pos, me, x);
        }
        self.one(grid.origin, x, &s)
    }

    /// The sums of a grid slot's list from [`crate::kernels::fluid_pass::spread_chunk`] (the
    /// neighbours in eight lanes: the same sums as [`Self::ellipsoid`]'s up to
    /// rounding, the order of the additions and where the scaling by 1 / h is done).
    /// A list that counts fewer than N_ε neighbours gives an isolated particle (a
    /// sphere of radius r k_n), centred by these sums.
    #[inline(always)]
    pub fn slot_sums(&self, spread: Spread) -> Sums {
        let [xx, xy, xz, yy, yz, zz] = spread.dd;
        Sums {
            sw: 1.0 + spread.sw,
            sd: Vec3A::from_array(spread.sd),
            n: spread.n,
            xx,
            xy,
            xz,
            yy,
            yz,
            zz,
        }
    }

    /// h² and 1 / h (m², 1/m), for [`crate::kernels::fluid_pass::spread_chunk`].
    pub fn reach(&self) -> (f32, f32) {
        (self.h2, self.inv_h)
    }

    /// The ellipsoid of the particle `me` at `x` over the 27 cells around it (the
    /// grid does not hold it, or its slot's list finds fewer than N_ε neighbours).
    fn around(&self, grid: &GridView<'_>, pos: &[Vec4], me: u32, x: Vec3A) -> FluidEllipsoid {
        let mut s = Sums::default();
        grid.for_candidates(x, |j| {
            if grid.particle[j] != me {
                self.add(&mut s, pos[j], x);
            }
        });
        self.one(grid.origin, x, &s)
    }

    /// [`Self::shapes`] of one particle.
    fn one(&self, origin: Vec3A, x: Vec3A, s: &Sums) -> FluidEllipsoid {
        let mut lanes = Lanes::<1>::default();
        lanes.set(0, x, s);
        let [e] = self.shapes(origin, &lanes);
        e
    }

    /// [`Self::shapes`] of [`BATCH`] particles, with AVX where `simd` says the CPU has it
    /// (the same bits: only the width of the registers differs).
    #[cfg(test)]
    fn shapes_batch(&self, simd: Simd, origin: Vec3A, s: &Lanes<BATCH>) -> [FluidEllipsoid; BATCH] {
        with_avx(
            simd,
            #[inline(always)]
            || self.shapes(origin, s),
        )
    }

    /// The ellipsoids of `L` particles from their sums (the centres absolute, `origin`
    /// the grid's): lane by lane the same operations, selects instead of branches
    /// where the lanes part, so the lanes vectorise; the eigen solve runs only where
    /// a lane needs it.
    #[inline(always)]
    fn shapes<const L: usize>(&self, origin: Vec3A, s: &Lanes<L>) -> [FluidEllipsoid; L] {
        let Prepared {
            center,
            radius,
            solve,
            m,
        } = self.prepare(origin, s);
        let shaped = if solve.iter().any(|&b| b) {
            self.shape_rows(
                &std::array::from_fn(|l| Vec3::new(center[0][l], center[1][l], center[2][l])),
                m,
            )
        } else {
            [FluidEllipsoid::default(); L]
        };
        let mut out = [FluidEllipsoid::default(); L];
        for (l, out) in out.iter_mut().enumerate() {
            let c = Vec3::new(center[0][l], center[1][l], center[2][l]);
            *out = if solve[l] {
                shaped[l]
            } else {
                Self::sphere(c, radius[l])
            };
        }
        out
    }

    /// [`Self::prepare`] of [`BATCH`] particles, with AVX where `simd` says the CPU
    /// has it.
    pub fn prepare_batch(&self, simd: Simd, origin: Vec3A, s: &Lanes<BATCH>) -> Prepared<BATCH> {
        with_avx(
            simd,
            #[inline(always)]
            || self.prepare(origin, s),
        )
    }

    /// The ellipsoids of [`BATCH`] covariances `m` (units of h²) centred at `center`
    /// that need the eigen solve (lanes that [`Self::prepare`] marks `solve`), with AVX
    /// where `simd` says the CPU has it: the same operations per lane as
    /// [`Self::shapes`], so the same bits whatever lanes they shared a batch with.
    pub fn solve_batch(
        &self,
        simd: Simd,
        center: &[Vec3; BATCH],
        m: &Sym<BATCH>,
    ) -> [FluidEllipsoid; BATCH] {
        with_avx(
            simd,
            #[inline(always)]
            || self.shape_rows(center, *m),
        )
    }

    /// The centres of `L` particles from their sums (absolute, `origin` the grid's),
    /// and either the radius of the sphere a lane is drawn as or (`solve`) the
    /// covariance whose eigen solve shapes it: lane by lane the same operations,
    /// selects instead of branches where the lanes part, so the lanes vectorise.
    #[inline(always)]
    fn prepare<const L: usize>(&self, origin: Vec3A, s: &Lanes<L>) -> Prepared<L> {
        let o = origin.to_array();
        let pull = self.smoothing * self.h;
        let k = self.radius * self.stretch;
        let round = self.radius * self.isolated;
        let mut center = [[0.0f32; L]; 3];
        // The radius of a lane drawn as a sphere, and the lanes that wait for the
        // eigen solve of their covariance m.
        let mut radius = [0.0f32; L];
        let mut solve = [false; L];
        let mut m: Sym<L> = [[0.0; L]; 6];
        for l in 0..L {
            let sw = s.sw[l];
            let mean = [s.sd[0][l] / sw, s.sd[1][l] / sw, s.sd[2][l] / sw];
            let at = [o[0] + s.x[0][l], o[1] + s.x[1][l], o[2] + s.x[2][l]];
            let c = [
                at[0] + mean[0] * pull,
                at[1] + mean[1] * pull,
                at[2] + mean[2] * pull,
            ];
            let finite = c[0].is_finite() & c[1].is_finite() & c[2].is_finite();
            // + 0: a centre is never −0 (what the readback's shift by +0 at alpha 1
            // did on every particle, here in rows of lanes).
            for a in 0..3 {
                center[a][l] = (if finite { c[a] } else { at[a] }) + 0.0;
            }
            let isolated = (s.n[l] < self.min_neighbours) | !finite;
            let inv = 1.0 / sw;
            let [xx, xy, xz, yy, yz, zz] = [0, 1, 2, 3, 4, 5].map(|e| s.dd[e][l]);
            // (0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2).
            let mut c = [
                xx * inv - mean[0] * mean[0],
                yy * inv - mean[1] * mean[1],
                zz * inv - mean[2] * mean[2],
                xy * inv - mean[0] * mean[1],
                xz * inv - mean[0] * mean[2],
                yz * inv - mean[1] * mean[2],
            ];
            if let Some(across) = self.planar {
                c[4] = 0.0;
                c[5] = 0.0;
                c[2] = across;
            }
            // Nearly isotropic (most of the bulk): Gershgorin's discs hold every
            // eigenvalue in [lo, hi], hi ≤ ISOTROPIC lo, so a sphere of the mean σ
            // (trace / 3) is within ±ISOTROPIC/2 of each radius; the eigen solve is
            // skipped (where a whole batch is).
            let off = [
                c[3].abs() + c[4].abs(),
                c[3].abs() + c[5].abs(),
                c[4].abs() + c[5].abs(),
            ];
            let lo = (c[0] - off[0]).min(c[1] - off[1]).min(c[2] - off[2]);
            let hi = (c[0] + off[0]).max(c[1] + off[1]).max(c[2] + off[2]);
            let mean_sigma = (c[0] + c[1] + c[2]) / 3.0;
            let r = k * mean_sigma.max(hi / self.max_ratio);
            let isotropic = (lo > 1.0e-12) & (hi <= ISOTROPIC * lo) & r.is_finite();
            radius[l] = if isolated { round } else { r };
            solve[l] = !(isolated | isotropic);
            for (e, c) in c.into_iter().enumerate() {
                m[e][l] = c;
            }
        }
        Prepared {
            center,
            radius,
            solve,
            m,
        }
    }

    /// The ellipsoids at `center` of the `L` covariances `m` (units of h²) from their
    /// eigen-decompositions ([`symmetric_eigen_rows`]): the radius along each vector
    /// clamped to at least 1 / k_r of the largest; a sphere of radius r k_n where a
    /// decomposition or an axis is not finite, or the covariance is a point (every
    /// neighbour coincident: no direction to stretch along). Lane by lane the same
    /// operations, selects where the lanes part.
    #[inline(always)]
    fn shape_rows<const L: usize>(&self, center: &[Vec3; L], m: Sym<L>) -> [FluidEllipsoid; L] {
        let e = symmetric_eigen_rows(m);
        let k = self.radius * self.stretch;
        let round = self.radius * self.isolated;
        let mut axes = [[[0.0f32; L]; 3]; 3];
        let mut ok = [false; L];
        for l in 0..L {
            let top = e.values[0][l];
            let floor = top / self.max_ratio;
            // (A lane that is not finite is a sphere whatever `top` is.)
            let mut finite = e.finite[l] & (top > 1.0e-12);
            for (a, axis) in axes.iter_mut().enumerate() {
                let r = k * e.values[a][l].max(floor);
                for (c, row) in axis.iter_mut().enumerate() {
                    let v = e.vectors[a][c][l] * r;
                    finite &= v.is_finite();
                    row[l] = v;
                }
            }
            ok[l] = finite;
        }
        std::array::from_fn(|l| {
            if ok[l] {
                FluidEllipsoid {
                    center: center[l],
                    axes: std::array::from_fn(|a| {
                        Vec3::new(axes[a][0][l], axes[a][1][l], axes[a][2][l])
                    }),
                }
            } else {
                Self::sphere(center[l], round)
            }
        })
    }
}

/// [`Kernel::prepare`]'s lanes: each particle's centre (m, absolute), and either the
/// radius of the sphere it is drawn as or (`solve`) its covariance `m` (units of h²),
/// whose eigen solve shapes it.
pub(crate) struct Prepared<const L: usize> {
    pub center: [[f32; L]; 3],
    pub radius: [f32; L],
    pub solve: [bool; L],
    pub m: Sym<L>,
}

/// The sums of `L` particles, one row of lanes per quantity (eight compile to one AVX
/// register each): the particle's position relative to the grid's origin (m) and its
/// [`Sums`] (dimensionless: d = (x_j − x_k) / h; n a count).
#[derive(Clone, Copy)]
pub(crate) struct Lanes<const L: usize> {
    x: [[f32; L]; 3],
    sw: [f32; L],
    sd: [[f32; L]; 3],
    n: [u32; L],
    /// xx, xy, xz, yy, yz, zz.
    dd: [[f32; L]; 6],
}

impl<const L: usize> Default for Lanes<L> {
    fn default() -> Self {
        Lanes {
            x: [[0.0; L]; 3],
            sw: [1.0; L],
            sd: [[0.0; L]; 3],
            n: [0; L],
            dd: [[0.0; L]; 6],
        }
    }
}

impl<const L: usize> Lanes<L> {
    /// Lane `l`: the particle at `x` with the sums `s`.
    #[inline(always)]
    pub fn set(&mut self, l: usize, x: Vec3A, s: &Sums) {
        let (x, d) = (x.to_array(), s.sd.to_array());
        for a in 0..3 {
            self.x[a][l] = x[a];
            self.sd[a][l] = d[a];
        }
        self.sw[l] = s.sw;
        self.n[l] = s.n;
        for (e, v) in [s.xx, s.xy, s.xz, s.yy, s.yz, s.zz].into_iter().enumerate() {
            self.dd[e][l] = v;
        }
    }

    /// Copies lane `from` into lane `to`.
    #[inline(always)]
    pub fn copy_lane(&mut self, from: usize, to: usize) {
        for a in 0..3 {
            self.x[a][to] = self.x[a][from];
            self.sd[a][to] = self.sd[a][from];
        }
        self.sw[to] = self.sw[from];
        self.n[to] = self.n[from];
        for e in 0..6 {
            self.dd[e][to] = self.dd[e][from];
        }
    }
}

/// The weighted sums of one neighbourhood, relative to the particle, in units of h:
/// Σ w (the particle itself included), Σ w d, the count of neighbours, Σ w d dᵀ.
pub(crate) struct Sums {
    sw: f32,
    sd: Vec3A,
    n: u32,
    xx: f32,
    xy: f32,
    xz: f32,
    yy: f32,
    yz: f32,
    zz: f32,
}

impl Default for Sums {
    fn default() -> Self {
        Sums {
            sw: 1.0,
            sd: Vec3A::ZERO,
            n: 0,
            xx: 0.0,
            xy: 0.0,
            xz: 0.0,
            yy: 0.0,
            yz: 0.0,
            zz: 0.0,
        }
    }
}

impl Kernel {
    /// Adds the neighbour at `p` (w = 0: not one of the fluid's live particles) to the
    /// sums of the particle at `x`.
    #[inline(always)]
    fn add(&self, s: &mut Sums, p: Vec4, x: Vec3A) {
        if p.w == 0.0 {
            return;
        }
        let d = Vec3A::from_vec4(p) - x;
        let r2 = d.length_squared();
        if r2 >= self.h2 {
            return;
        }
        let q = r2.sqrt() * self.inv_h;
        let w = 1.0 - q * q * q;
        let d = d * self.inv_h;
        s.n += 1;
        s.sw += w;
        s.sd += d * w;
        s.xx += w * d.x * d.x;
        s.xy += w * d.x * d.y;
        s.xz += w * d.x * d.z;
        s.yy += w * d.y * d.y;
        s.yz += w * d.y * d.z;
        s.zz += w * d.z * d.z;
    }
}

/// σ₀: the weighted covariance along one axis, in units of h², of a particle inside a
/// cube (planar: square) lattice of spacing `s` = spacing / h, with Yu & Turk's
/// weight 1 − (r / h)³ and the particle itself counted (as [`Kernel::ellipsoid`]).
fn lattice_covariance(s: f32, planar: bool) -> f32 {
    let n = (1.0 / s).floor() as i32 + 1;
    let nz = if planar { 0 } else { n };
    let (mut sw, mut sxx) = (0.0f64, 0.0f64);
    for i in -n..=n {
        for j in -n..=n {
            for k in -nz..=nz {
                let d = [i, j, k].map(|c| f64::from(c) * f64::from(s));
                let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                if r2 >= 1.0 {
                    continue;
                }
                let w = 1.0 - r2.sqrt().powi(3);
                sw += w;
                sxx += w * d[0] * d[0];
            }
        }
    }
    (sxx / sw) as f32
}

#[cfg(test)]
mod tests {
    use super::{lattice_covariance, AnisotropyDesc, Kernel, Lanes, Sums, BATCH};
    use crate::math::{Vec3, Vec3A};

    /// A batch (AVX where the CPU has it) gives each particle the bits it gets alone,
    /// whatever its lane: flat, stretched, round, isolated and coincident
    /// neighbourhoods, in a 3-D and a planar world.
    #[test]
    fn a_batch_gives_the_bits_of_one_at_a_time() {
        let mut seed = 4242u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        for planar in [false, true] {
            let kernel = Kernel::new(&AnisotropyDesc::default(), 0.1, 0.2, planar);
            let origin = Vec3A::new(1.0, -2.0, 0.5);
            let mut cases = Vec::new();
            for case in 0..3 * BATCH {
                let x = Vec3A::new(rnd(), rnd(), rnd());
                // Neighbours squeezed along some axes (a sheet, a filament, a ball),
                // few of them for some (isolated), all at one point for one.
                let squeeze = [[1.0, 1.0, 0.1], [1.0, 0.1, 0.1], [1.0, 1.0, 1.0]][case % 3];
                let n = if case % 5 == 0 { 3 } else { 30 };
                let mut s = Sums::default();
                for _ in 0..n {
                    let d = if case == 7 {
                        Vec3A::splat(0.01)
                    } else {
                        Vec3A::new(rnd() * squeeze[0], rnd() * squeeze[1], rnd() * squeeze[2])
                            * 0.35
                    };
                    kernel.add(&mut s, (x + d).extend(1.0), x);
                }
                cases.push((x, s));
            }
            for shift in [0, 5] {
                let mut lanes = Lanes::<BATCH>::default();
                for l in 0..BATCH {
                    let (x, s) = &cases[l + shift];
                    lanes.set(l, *x, s);
                }
                let batch =
                    kernel.shapes_batch(crate::kernels::simd::Kernel::detect(), origin, &lanes);
                for (l, e) in batch.iter().enumerate() {
                    let (x, s) = &cases[l + shift];
                    let one = kernel.one(origin, *x, s);
                    let bits = |e: &super::FluidEllipsoid| {
                        [e.center, e.axes[0], e.axes[1], e.axes[2]]
                            .map(|v| v.to_array().map(f32::to_bits))
                    };
                    assert_eq!(bits(e), bits(&one), "lane {l}, case {}", l + shift);
                    // Prepared, then (where it needs it) solved among other lanes.
                    let simd = crate::kernels::simd::Kernel::detect();
                    let p = kernel.prepare_batch(simd, origin, &lanes);
                    let c = Vec3::new(p.center[0][l], p.center[1][l], p.center[2][l]);
                    let split = if p.solve[l] {
                        let (mut center, mut m) = ([Vec3::ZERO; BATCH], [[0.0; BATCH]; 6]);
                        let q = (l + 3) % BATCH;
                        center[q] = c;
                        for (m, p) in m.iter_mut().zip(&p.m) {
                            m[q] = p[l];
                        }
                        kernel.solve_batch(simd, &center, &m)[q]
                    } else {
                        Kernel::sphere(c, p.radius[l])
                    };
                    assert_eq!(
                        bits(&split),
                        bits(&one),
                        "split lane {l}, case {}",
                        l + shift
                    );
                    // A sheet across z (not isolated) is flattened along z.
                    let case = l + shift;
                    if !planar && case % 3 == 0 && case % 5 != 0 {
                        let [a, _, c] = e.axes.map(|v| v.length());
                        assert!(e.axes[2].z.abs() > 0.9 * c && a > 2.0 * c, "{e:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_bulk_covariance_is_near_the_continuous_one() {
        // A ball filled evenly: (3/40) / (1/6) / 3 = 0.15 h² per axis (planar: 5/28).
        let c = lattice_covariance(0.1, false);
        assert!((c - 0.15).abs() < 0.01, "{c}");
        let p = lattice_covariance(0.1, true);
        assert!((p - 5.0 / 28.0).abs() < 0.01, "{p}");
        assert!(lattice_covariance(0.5, false) > 0.0);
    }
}
