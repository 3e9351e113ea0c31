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
//! of the collider filled with fluid at rest density, the continuous form of the
//! boundary particles of Akinci et al. 2012 ("Versatile Rigid-Fluid Coupling for
//! Incompressible SPH") and of the density maps of Koschier & Bender 2017 ("Density
//! Maps for Improved SPH Boundary Handling"), which for a plane integrate in closed
//! form. For a particle whose centre is δ from the surface (negative inside), with
//! u = δ / h:
//!
//! ```text
//! ρ_wall(δ) = ∫ W over the half-space beyond the surface   (dimensionless, ½ at δ = 0)
//! ∇ρ_wall   = −A(δ) n,  A(δ) = ∫ W over the plane at distance δ   (1/m)
//! ```
//!
//! poly6 in 3D: `A = (315/256) (1 − u²)⁴ / h`, `ρ_wall = ½ − (315/256) F(u)` with
//! `F(u) = u − 4u³/3 + 6u⁵/5 − 4u⁷/7 + u⁹/9`; 2D poly6 (planar worlds):
//! `A = (128 / 35π) (1 − u²)^{7/2} / h` and `ρ_wall = (128 / 35π) ∫_u^1 (1 − t²)^{7/2} dt`,
//! tabulated. Where two or three walls meet, their terms combine as
//! `1 − Π (1 − ρ_wall,k)` (the space behind several walls counts once; exact on an
//! edge line and at a corner, within 0.01 of the exact union elsewhere). The walls
//! enter the particle's own density and gradient; they do not move and own no
//! constraint, so the particle's correction is `λ_i ∇ρ_wall` (the gradient of its
//! own constraint). The fluid settles about half a spacing off a wall at rest
//! density, as a lattice continued behind the wall would.

use std::sync::OnceLock;

/// (128 / 35π): the 2D wall integral's constant (½ / ∫₀¹ (1 − t²)^{7/2} dt).
const C2: f64 = 128.0 / (35.0 * std::f64::consts::PI);

/// Intervals of the 2D table over u ∈ [0, 1].
const TABLE_2D: usize = 512;

/// `∫_u^1 (1 − t²)^{7/2} dt · 128 / 35π` at u = k / TABLE_2D (Simpson's rule in f64,
/// 16 panels per interval), computed once.
fn table_2d() -> &'static [f32; TABLE_2D + 1] {
    static TABLE: OnceLock<[f32; TABLE_2D + 1]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let f = |t: f64| {
            let a = (1.0 - t * t).max(0.0);
            a * a * a * a.sqrt()
        };
        let mut out = [0.0f32; TABLE_2D + 1];
        let mut acc = 0.0f64;
        let du = 1.0 / TABLE_2D as f64;
        // From u = 1 down, accumulating each interval's integral.
        for k in (0..TABLE_2D).rev() {
            let (a, b) = (k as f64 * du, (k + 1) as f64 * du);
            let panels = 16;
            let w = (b - a) / panels as f64;
            let mut s = f(a) + f(b);
            for p in 1..panels {
                s += f(a + p as f64 * w) * if p % 2 == 1 { 4.0 } else { 2.0 };
            }
            acc += s * w / 3.0;
            out[k] = (acc * C2) as f32;
        }
        out
    })
}

/// The wall terms of one fluid's kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct WallKernel {
    /// 1 / h (1/m), h the smoothing radius.
    inv_h: f32,
    /// 2D kernels (a planar world).
    planar: bool,
}

impl WallKernel {
    pub(crate) fn new(h: f32, planar: bool) -> WallKernel {
        if planar {
            // Built before the first step, not inside it.
            table_2d();
        }
        WallKernel {
            inv_h: 1.0 / h,
            planar,
        }
    }

    /// `(ρ_wall, A)` of a particle at signed distance `delta` (m) from a wall:
    /// `(0, 0)` from h on; a particle deeper inside than h reads a full kernel (1) with
    /// no gradient.
    #[inline]
    pub(crate) fn eval(&self, delta: f32) -> (f32, f32) {
        let u = delta * self.inv_h;
        if u >= 1.0 || u.is_nan() {
            // Beyond the kernel's reach (or NaN: nothing).
            return (0.0, 0.0);
        }
        let u = u.max(-1.0);
        let u2 = u * u;
        let t = 1.0 - u2;
        if self.planar {
            let a = (C2 as f32) * (t * t * t * t.sqrt()) * self.inv_h;
            let table = table_2d();
            let x = u.abs() * TABLE_2D as f32;
            let k = (x as usize).min(TABLE_2D - 1);
            let f = x - k as f32;
            let g = table[k] + (table[k + 1] - table[k]) * f;
            // ∫ from |u|; below the surface (u < 0) the complement.
            let rho = if u < 0.0 { 1.0 - g } else { g };
            (rho, a)
        } else {
            const K: f32 = 315.0 / 256.0;
            let f = u * (1.0 + u2 * (-4.0 / 3.0 + u2 * (6.0 / 5.0 + u2 * (-4.0 / 7.0 + u2 / 9.0))));
            (0.5 - K * f, K * (t * t) * (t * t) * self.inv_h)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The half-space sum of a fine lattice of fluid (spacing s ≪ h, each point of
    /// volume s³ or s²) beyond a wall at distance δ, with the poly6 kernel.
    fn lattice_sum(h: f64, delta: f64, planar: bool) -> f64 {
        let s = h / 40.0;
        let n = 41i64;
        let (poly6, vol) = if planar {
            (4.0 / (std::f64::consts::PI * h.powi(8)), s * s)
        } else {
            (315.0 / (64.0 * std::f64::consts::PI * h.powi(9)), s * s * s)
        };
        let mut sum = 0.0;
        // The wall is the half-space y < −δ below a particle at the origin; lattice
        // points at cell centres.
        for i in -n..n {
            let x = (i as f64 + 0.5) * s;
            for j in -n..n {
                let y = (j as f64 + 0.5) * s;
                if y > -delta {
                    continue;
                }
                let zs: Vec<f64> = if planar {
                    vec![0.0]
                } else {
                    (-n..n).map(|k| (k as f64 + 0.5) * s).collect()
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

    #[test]
    fn the_wall_integral_matches_a_fine_lattice_of_fluid() {
        let h = 0.04f32;
        for planar in [false, true] {
            let w = WallKernel::new(h, planar);
            for delta in [-0.03f32, -0.01, 0.0, 0.005, 0.01, 0.02, 0.03, 0.039] {
                let (rho, _) = w.eval(delta);
                let want = lattice_sum(h as f64, delta as f64, planar);
                assert!(
                    (rho as f64 - want).abs() < 2e-3,
                    "planar {planar} δ {delta}: {rho} vs lattice {want}"
                );
            }
            assert_eq!(w.eval(h), (0.0, 0.0));
            assert_eq!(w.eval(f32::NAN), (0.0, 0.0));
            assert!((w.eval(0.0).0 - 0.5).abs() < 1e-6);
            assert!((w.eval(-h).0 - 1.0).abs() < 1e-6);
            assert_eq!(w.eval(-h).1, 0.0);
        }
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_wall_density() {
        let h = 0.04f32;
        for planar in [false, true] {
            let w = WallKernel::new(h, planar);
            for delta in [-0.025f32, -0.01, 0.0, 0.008, 0.016, 0.03] {
                let e = 1e-4f32;
                let slope = (w.eval(delta - e).0 - w.eval(delta + e).0) / (2.0 * e);
                let (_, a) = w.eval(delta);
                assert!(
                    (slope - a).abs() < 0.01 * a.max(1.0),
                    "planar {planar} δ {delta}: −dρ/dδ {slope} vs A {a}"
                );
            }
        }
    }
}
