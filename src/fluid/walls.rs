//! Colliders as fluid: the density a wall lends to the fluid particles near it.
//!
//! Without it, a fluid particle next to a wall misses the neighbours the wall stands
//! in for: it reads under-dense, the one-sided density constraint lets the fluid
//! behind it press it onto the wall, and particles pile up on the wall's surface, in
//! the lines where two walls meet and in corners. Pinned to a line, a particle can only
//! move along it, and the density correction of its pile-up shoots it along the edge
//! (tens of m/s in a dam break).
//!
//! Here every collider contact of a fluid particle (found per substep with the
//! fluid's wider reach, `Colliders::set_reach`) counts as the local tangent half-space
//! of the collider filled with fluid at rest, in the spirit of the boundary particles
//! of Akinci et al. 2012 ("Versatile Rigid-Fluid Coupling for Incompressible SPH") and
//! the density maps of Koschier & Bender 2017 ("Density Maps for Improved SPH Boundary
//! Handling"): the fluid's own lattice continued behind the surface, as planes (lines
//! in 2D) of spacing s parallel to it, the first half a spacing behind it, each
//! integrated over its plane in closed form. For a particle whose centre is δ from the
//! surface (negative inside), with u = δ / h, σ = s / h and t_k = u + (k + ½) σ the
//! planes' distances (k = 0, 1, ...; those with |t_k| < 1):
//!
//! ```text
//! ρ_wall(δ) = w Σ_k L(t_k)            (dimensionless)
//! ∇ρ_wall   = −A(δ) n,  A = −dρ_wall/dδ = (w / h) Σ_k −L'(t_k)   (1/m)
//! ```
//!
//! with `L(t) = (315/256) (1 − t²)⁴` (3D poly6 over a plane, times h) or
//! `L(t) = (128 / 35π) (1 − t²)^{7/2}` (2D poly6 over a line), and the weight
//! `w = σ c / S`: S the lattice sum of the bulk, by which the solver divides the
//! particles' own sum too ([`lattice_sums`]), and c the factor that makes a particle
//! of a lattice at rest, half a spacing off the wall, read exactly the planes of the
//! lattice the wall stands in for (0.990 in 3D, 1.006 in 2D at h = 2s). So a lattice
//! of the fluid's spacing laid on a floor reads ρ/ρ₀ = 1 in every row, and starts at
//! rest: the continuous integral of the half-space (the previous form) lent the first
//! row 2.6% too much (h = 2s, 3D), which the solver turned into a push of the whole
//! pool off the floor in one substep, a velocity growing as 1/h (a geyser at 16
//! substeps). Where two or three walls meet, their terms combine as
//! `1 − Π (1 − ρ_wall,k)` (the space behind several walls counts once; a lattice's
//! rows along an edge read 0.994, in a corner 0.986, at h = 2s). The walls
//! enter the particle's own density and gradient; they do not move and own no
//! constraint, so the particle's correction is `λ_i ∇ρ_wall` (the gradient of its
//! own constraint), never towards the wall (A ≥ 0). A particle deeper inside than h
//! reads the planes around it, with no gradient.
//!
//! One wall lends at most 1 (a whole half-space of fluid; its gradient stays as the
//! planes give it). The calibration c grows without bound as h comes down to s (the
//! lattice's missing planes and the planes' own sum both vanish there, the planes
//! faster: c is 63 at h = 1.01 s in 3D), and a particle less than s/2 off the wall,
//! or inside it, read up to 50 at h = 1.01 s, 5.6 at 1.1 s, 1.13 at 1.5 s, just over
//! 1 deep inside at h from 2.1 to 2.8 s (3D; 0.985 at most at h = 2s).
//! `1 − Π (1 − ρ_wall,k)` assumes each term is a fraction of the neighbourhood: two
//! walls over 2 each read negative (an edge at h = 1.05 s: −7), three far over 1.

/// 315/256: the 3D poly6 kernel integrated over a plane at distance δ, times h, at
/// δ = 0 (`A(δ) = K3 (1 − u²)⁴ / h`).
const K3: f64 = 315.0 / 256.0;

/// 128/35π: the 2D poly6 kernel integrated over a line at distance δ, times h, at
/// δ = 0 (`A(δ) = K2 (1 − u²)^{7/2} / h`).
const K2: f64 = 128.0 / (35.0 * std::f64::consts::PI);

/// The poly6 kernel integrated over a plane (a line in 2D) at `t` = distance / h,
/// times h: `K3 (1 − t²)⁴` (3D) or `K2 (1 − t²)^{7/2}` (2D), 0 from |t| = 1 on.
fn layer(t: f64, planar: bool) -> f64 {
    let a = 1.0 - t * t;
    if a <= 0.0 {
        0.0
    } else if planar {
        K2 * a * a * a * a.sqrt()
    } else {
        K3 * (a * a) * (a * a)
    }
}

/// The sums of a cubic (square, in 2D) lattice of spacing `s` around one of its
/// points, each point of volume s³ (s²), with the poly6 kernel of radius `h`:
/// `(S, M)` where S is the whole lattice's Σ V W (the density a particle at rest in
/// the bulk reads, ρ/ρ₀ = S; 1.0098 in 3D and 1.0146 in 2D at h = 2s) and M the sum
/// of the points at least one spacing below it (a plane of the lattice and those
/// beyond: what a wall half a spacing below the particle takes the place of).
pub(crate) fn lattice_sums(h: f32, s: f32, planar: bool) -> (f64, f64) {
    let (h, s) = (h as f64, s as f64);
    let n = (h / s).ceil() as i64;
    let pi = std::f64::consts::PI;
    let (poly6, vol) = if planar {
        (4.0 / (pi * h.powi(8)), s * s)
    } else {
        (315.0 / (64.0 * pi * h.powi(9)), s * s * s)
    };
    let zs = if planar { 0..=0 } else { -n..=n };
    let (mut all, mut below) = (0.0f64, 0.0f64);
    for j in -n..=n {
        let mut plane = 0.0f64;
        for i in -n..=n {
            for k in zs.clone() {
                let r2 = ((i * i + j * j + k * k) as f64) * s * s;
                if r2 < h * h {
                    let q = h * h - r2;
                    plane += poly6 * q * q * q * vol;
                }
            }
        }
        all += plane;
        if j < 0 {
            below += plane;
        }
    }
    (all, below)
}

/// The wall terms of one fluid's kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WallKernel {
    /// 1 / h (1/m), h the smoothing radius.
    inv_h: f32,
    /// s / h: the spacing of the planes of fluid behind the wall, in units of h.
    sigma: f32,
    /// Each plane's weight: σ over the bulk's lattice sum S, times the calibration
    /// that makes a particle at rest half a spacing off the wall read the lattice's
    /// missing planes exactly (`M / S`, see [`lattice_sums`]).
    weight: f32,
    /// 2D kernels (a planar world).
    planar: bool,
}

impl WallKernel {
    /// The wall terms of a fluid of smoothing radius `h` and spacing `s` whose bulk
    /// reads the lattice sum `bulk` (S of [`lattice_sums`]), with `missing` (M) the
    /// planes a wall half a spacing away takes the place of.
    pub(crate) fn new(h: f32, s: f32, planar: bool, bulk: f64, missing: f64) -> WallKernel {
        let sigma = (s / h) as f64;
        // The planes behind a wall half a spacing below the particle lie at s, 2s, ...
        let mut planes = 0.0f64;
        let mut k = 1.0f64;
        while k * sigma < 1.0 {
            planes += sigma * layer(k * sigma, planar);
            k += 1.0;
        }
        let calibration = if planes > 0.0 { missing / planes } else { 1.0 };
        WallKernel {
            inv_h: 1.0 / h,
            sigma: sigma as f32,
            weight: (sigma * calibration / bulk) as f32,
            planar,
        }
    }

    /// `(ρ_wall, A)` of a particle at signed distance `delta` (m) from a wall, with
    /// ∇ρ_wall = −A n: `(0, 0)` from h − s/2 on (no plane within h); a particle deeper
    /// inside than h reads the planes around it with no gradient. ρ_wall is at most 1
    /// (a whole half-space; see the module's notes), A as the planes give it.
    #[inline]
    pub(crate) fn eval(&self, delta: f32) -> (f32, f32) {
        let u = delta * self.inv_h;
        let sigma = self.sigma;
        // The first plane, half a spacing behind the surface.
        let first = u + 0.5 * sigma;
        if first >= 1.0 || first.is_nan() {
            // Beyond the kernel's reach (or NaN: nothing).
            return (0.0, 0.0);
        }
        let deep = u <= -1.0;
        // Planes from the first one within reach (t > −1) to the last (t < 1): the
        // first unless the particle is inside the wall by more than h − s/2.
        let mut t = first;
        if t <= -1.0 {
            let u = u.max(-1.0);
            let skip = ((-1.0 - u) / sigma - 0.5).ceil().max(0.0);
            t = u + (skip + 0.5) * sigma;
        }
        let (mut rho, mut slope) = (0.0f32, 0.0f32);
        while t < 1.0 {
            let a = 1.0 - t * t;
            if a > 0.0 {
                if self.planar {
                    let r = a * a * a.sqrt();
                    rho += (K2 as f32) * r * a;
                    slope += (7.0 * K2 as f32) * t * r;
                } else {
                    let a3 = a * a * a;
                    rho += (K3 as f32) * a3 * a;
                    slope += (8.0 * K3 as f32) * t * a3;
                }
            }
            t += sigma;
        }
        let a = if deep {
            0.0
        } else {
            (slope * self.weight * self.inv_h).max(0.0)
        };
        ((rho * self.weight).min(1.0), a)
    }
}

/// Each wall's part of the gradient of `1 − Π (1 − ρ_wall,k)` (the walls `near` a
/// fluid particle at `x`, slot frame, as the solver combines them): `f(k, g_k)` with
/// `g_k = −n_k A_k Π_{j≠k} (1 − ρ_wall,j)` (1/m), which sum to the whole gradient.
/// The fluid's correction from wall k is `λ g_k`; the equal and opposite impulse is
/// the pressure the fluid puts on that collider (a dynamic one takes it:
/// `collision::colliders::dynamics`).
pub(crate) fn wall_parts(
    kernel: &WallKernel,
    near: &[glam::Vec4],
    x: glam::Vec3A,
    mut f: impl FnMut(usize, glam::Vec3A),
) {
    const K: usize = crate::collision::MAX_COLLIDER_CONTACTS;
    let mut terms = [(0.0f32, 0.0f32); K];
    for (t, w) in terms.iter_mut().zip(near) {
        let n = glam::Vec3A::from_vec4(*w);
        *t = kernel.eval(n.dot(x) - w.w);
    }
    let k = near.len().min(K);
    for (j, w) in near[..k].iter().enumerate() {
        let (_, a) = terms[j];
        if a == 0.0 {
            continue;
        }
        let others: f32 = (0..k)
            .filter(|&o| o != j)
            .map(|o| 1.0 - terms[o].0)
            .product();
        f(j, -glam::Vec3A::from_vec4(*w) * (a * others));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Σ V W of the lattice of spacing `s` (each point of volume s³ or s²) over the
    /// points below the plane y = −`delta` (the wall), for a particle at the origin
    /// whose lattice's points lie at integer multiples of s plus `offset` (x, z).
    fn behind(h: f64, s: f64, delta: f64, offset: f64, planar: bool) -> f64 {
        let n = (h / s).ceil() as i64 + 2;
        let pi = std::f64::consts::PI;
        let (poly6, vol) = if planar {
            (4.0 / (pi * h.powi(8)), s * s)
        } else {
            (315.0 / (64.0 * pi * h.powi(9)), s * s * s)
        };
        let mut sum = 0.0;
        for j in -3 * n..n {
            // The planes behind the wall, half a spacing apart from it and each other.
            let y = -delta - (j + 3 * n) as f64 * s - 0.5 * s;
            for i in -n..=n {
                let x = (i as f64 + offset) * s;
                let zs: Vec<f64> = if planar {
                    vec![0.0]
                } else {
                    (-n..=n).map(|k| (k as f64 + offset) * s).collect()
                };
                for z in zs {
                    let r2 = x * x + y * y + z * z;
                    if r2 < h * h {
                        let q = h * h - r2;
                        sum += poly6 * q * q * q * vol;
                    }
                }
            }
        }
        sum
    }

    fn kernel(h: f32, s: f32, planar: bool) -> (WallKernel, f64) {
        let (bulk, missing) = lattice_sums(h, s, planar);
        (WallKernel::new(h, s, planar, bulk, missing), bulk)
    }

    /// A particle of a lattice at rest half a spacing off the wall reads exactly the
    /// lattice's planes behind the wall (over the bulk's sum), for every ratio h / s;
    /// and the bulk's sum is the lattice's.
    #[test]
    fn a_particle_at_rest_by_a_wall_reads_the_lattice_behind_it() {
        let s = 0.02f32;
        for planar in [false, true] {
            for ratio in [1.5f32, 2.0, 2.5, 3.0, 4.0] {
                let h = ratio * s;
                let (w, bulk) = kernel(h, s, planar);
                let want = behind(h as f64, s as f64, 0.5 * s as f64, 0.0, planar) / bulk;
                let (rho, _) = w.eval(0.5 * s);
                assert!(
                    (rho as f64 - want).abs() < 1e-5,
                    "planar {planar} h/s {ratio}: {rho} vs {want}"
                );
            }
        }
        let (bulk, _) = lattice_sums(0.04, 0.02, false);
        assert!((bulk - 1.00978).abs() < 1e-4, "3D h = 2s: {bulk}");
        let (bulk, _) = lattice_sums(0.04, 0.02, true);
        assert!((bulk - 1.01461).abs() < 1e-4, "2D h = 2s: {bulk}");
    }

    /// Anywhere off the wall, and for a lattice shifted along it, the planes read
    /// the lattice behind the wall within 1.5% of the bulk (the planes are integrated
    /// along the wall, the lattice summed); nothing from h − s/2 on, nothing for NaN.
    #[test]
    fn the_planes_follow_the_lattice_behind_the_wall() {
        let (h, s) = (0.04f32, 0.02f32);
        for planar in [false, true] {
            let (w, bulk) = kernel(h, s, planar);
            for delta in [-0.03f32, -0.01, 0.0, 0.005, 0.01, 0.02, 0.025, 0.029] {
                for offset in [0.0, 0.25, 0.5] {
                    let (rho, _) = w.eval(delta);
                    let want = behind(h as f64, s as f64, delta as f64, offset, planar) / bulk;
                    assert!(
                        (rho as f64 - want).abs() < 0.015,
                        "planar {planar} δ {delta} offset {offset}: {rho} vs {want}"
                    );
                }
            }
            assert_eq!(w.eval(h - 0.5 * s), (0.0, 0.0));
            assert_eq!(w.eval(f32::NAN), (0.0, 0.0));
            assert_eq!(w.eval(-2.0 * h).1, 0.0);
        }
    }

    /// One wall lends at most a whole half-space (1) at any depth, for every h / s
    /// the desc accepts, so that walls combined as `1 − Π (1 − ρ_wall,k)` read in
    /// [0, 1]: at h = 1.01 s one wall lent 16 on its surface, and two walls meeting
    /// there read 1 − 15.5² = −239.
    #[test]
    fn no_wall_lends_more_than_a_half_space() {
        let s = 0.02f32;
        for planar in [false, true] {
            for ratio in [1.0f32, 1.01, 1.05, 1.1, 1.2, 1.5, 2.0, 2.3, 3.0, 4.0] {
                let (w, _) = kernel(ratio * s, s, planar);
                for i in 0..=400 {
                    let delta = (i as f32 / 100.0 - 3.0) * s;
                    let (rho, a) = w.eval(delta);
                    assert!(
                        (0.0..=1.0).contains(&rho) && a >= 0.0,
                        "planar {planar} h/s {ratio} δ {delta}: ρ_wall {rho}, A {a}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_wall_density() {
        let (h, s) = (0.04f32, 0.02f32);
        for planar in [false, true] {
            let (w, _) = kernel(h, s, planar);
            for delta in [-0.025f32, -0.01, 0.0, 0.008, 0.016, 0.025] {
                let e = 1e-4f32;
                let slope = (w.eval(delta - e).0 - w.eval(delta + e).0) / (2.0 * e);
                let (_, a) = w.eval(delta);
                assert!(
                    (slope.max(0.0) - a).abs() < 0.01 * a.max(1.0),
                    "planar {planar} δ {delta}: −dρ/dδ {slope} vs A {a}"
                );
            }
        }
    }
}
