//! Bending constraints over two triangles sharing an edge, particles ordered
//! `[x0, x1, x2, x3]`: (x0, x1) the shared edge, x2 the wing of triangle (x0, x1, x2),
//! x3 the wing of triangle (x1, x0, x3).
//!
//! * [`Dihedral`] (Müller et al. 2007, "Position Based Dynamics", section 4.2 and
//!   appendix; Nakagawa, "Position Based Dynamics Combo", CEDEC 2017): `C(x) = θ(x) − θ0`, θ the signed dihedral angle (rad), 0 for a
//!   flat pair. With `e = x1 − x0`, `n1 = e × (x2 − x0)`, `n2 = (x3 − x0) × e`:
//!   `θ = atan2((n1 × n2)·e/|e|, n1·n2)`. Gradients (Bridson et al. 2003):
//!   `∇_2 θ = −|e| n1/|n1|²`, `∇_3 θ = −|e| n2/|n2|²`,
//!   `∇_0 θ = −((1 − s2) ∇_2 θ + (1 − s3) ∇_3 θ)`, `∇_1 θ = −(s2 ∇_2 θ + s3 ∇_3 θ)`,
//!   `s_k = (x_k − x0)·e/|e|²` (the wing's position along the edge). The atan2 form has
//!   a finite gradient at the flat state, where Müller's arccos form is singular.
//!   Compliance in rad/(N·m) (C is an angle, λ/h² a torque in N·m).
//! * [`Isometric`] (Bergou et al. 2006, "A Quadratic Bending Model for Inextensible
//!   Surfaces"; the PBD form of Bender et al.): for near-flat rest shapes,
//!   `C(x) = ½ Σ_ij Q_ij x_i·x_j` with the constant rank-one `Q = c K Kᵀ`,
//!   `K = (c03 + c04, c01 + c02, −c01 − c03, −c02 − c04)` from the cotangents of the
//!   rest angles at x0 (c01 in triangle 1, c02 in triangle 2) and x1 (c03, c04), and
//!   `c = −3 / (2 (A1 + A2))` (A = rest triangle areas, m²). So
//!   `C = ½ c |Σ_j K_j x_j|²` (dimensionless; 0 when flat, < 0 when bent) and
//!   `∇_i C = c K_i Σ_j K_j x_j`. Compliance in 1/(N·m).

use std::f32::consts::PI;

use super::nary::Family;
use super::set::FamilyKind;
use crate::math::Vec3;
use crate::snapshot::codec::Plain;

/// Below this squared normal length (m⁴) a triangle is degenerate.
const MIN_NORMAL_SQ: f32 = 1.0e-24;

/// The signed dihedral angle θ (rad) of a hinge and its gradient, from positions
/// relative to x0.
pub fn dihedral_angle_and_gradient(r: &[Vec3; 4]) -> Option<(f32, [Vec3; 4])> {
    let e = r[1];
    let n1 = e.cross(r[2]);
    let n2 = r[3].cross(e);
    let (l1, l2, le2) = (n1.length_squared(), n2.length_squared(), e.length_squared());
    // Zero-area triangles, a zero-length edge, and overflowed (inf) or NaN geometry
    // have no angle: `!(x > MIN)` is also true for NaN.
    let ok = |v: f32| v > MIN_NORMAL_SQ && v < f32::INFINITY;
    if !(ok(l1) && ok(l2) && ok(le2)) {
        return None;
    }
    let le = le2.sqrt();
    let theta = (n1.cross(n2).dot(e) / le).atan2(n1.dot(n2));
    let g2 = n1 * (-le / l1);
    let g3 = n2 * (-le / l2);
    let s2 = r[2].dot(e) / le2;
    let s3 = r[3].dot(e) / le2;
    let g0 = -(g2 * (1.0 - s2) + g3 * (1.0 - s3));
    let g1 = -(g2 * s2 + g3 * s3);
    Some((theta, [g0, g1, g2, g3]))
}

/// Wraps an angle difference into (−π, π].
fn wrap(a: f32) -> f32 {
    let mut a = a % (2.0 * PI);
    if a > PI {
        a -= 2.0 * PI;
    } else if a <= -PI {
        a += 2.0 * PI;
    }
    a
}

/// Dihedral-angle bending; rest data: θ0 in rad.
pub struct Dihedral;

impl Family<4> for Dihedral {
    type Rest = f32;
    const NAME: &'static str = "dihedral bending";
    const KIND: Option<FamilyKind> = Some(FamilyKind::DihedralBending);
    const COMPLIANCE_UNIT: &'static str = "rad/(N·m)";
    const REST_UNIT: Option<&'static str> = Some("rest angle (rad)");
    fn rest_scalar(rest: &f32) -> Option<f32> {
        Some(*rest)
    }
    fn set_rest_scalar(rest: &mut f32, value: f32) {
        *rest = value;
    }
    fn check_rest_scalar(what: &str, a: f32) -> crate::error::Result<()> {
        if !(a.is_finite() && a.abs() <= std::f32::consts::PI) {
            return Err(crate::error::Error::invalid(format!(
                "{what} {a} must be finite and in [-pi, pi] (rad)"
            )));
        }
        Ok(())
    }
    #[inline]
    fn evaluate(r: &[Vec3; 4], rest: &f32) -> Option<(f32, [Vec3; 4])> {
        let (theta, g) = dihedral_angle_and_gradient(r)?;
        Some((wrap(theta - rest), g))
    }
}

/// Rest data of an isometric bending constraint: `c K` and `K` (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsometricRest {
    /// K (dimensionless cotangent weights).
    pub k: [f32; 4],
    /// c = −3 / (2 (A1 + A2)), 1/m².
    pub c: f32,
}

fn cot(a: Vec3, b: Vec3) -> f32 {
    a.dot(b) / a.cross(b).length()
}

impl IsometricRest {
    /// The rest data of a hinge at rest positions `x` (ordered as the module doc), or
    /// None when a triangle is degenerate.
    pub fn new(x: &[Vec3; 4]) -> Option<Self> {
        let e0 = x[1] - x[0];
        let e1 = x[2] - x[0];
        let e2 = x[3] - x[0];
        let e3 = x[2] - x[1];
        let e4 = x[3] - x[1];
        let a1 = 0.5 * e0.cross(e1).length();
        let a2 = 0.5 * e0.cross(e2).length();
        if !(a1 > 1e-12 && a2 > 1e-12) {
            return None;
        }
        let (c01, c02, c03, c04) = (cot(e0, e1), cot(e0, e2), cot(-e0, e3), cot(-e0, e4));
        let k = [c03 + c04, c01 + c02, -c01 - c03, -c02 - c04];
        let c = -3.0 / (2.0 * (a1 + a2));
        k.iter()
            .all(|v| v.is_finite())
            .then_some(IsometricRest { k, c })
    }
}

/// Isometric (quadratic) bending for near-flat cloth.
pub struct Isometric;

impl Family<4> for Isometric {
    type Rest = IsometricRest;
    const NAME: &'static str = "isometric bending";
    const COMPLIANCE_UNIT: &'static str = "1/(N·m)";
    const KIND: Option<FamilyKind> = Some(FamilyKind::IsometricBending);
    #[inline]
    fn evaluate(r: &[Vec3; 4], rest: &IsometricRest) -> Option<(f32, [Vec3; 4])> {
        let k = rest.k;
        let s = r[1] * k[1] + r[2] * k[2] + r[3] * k[3]; // r[0] = 0
        let c = 0.5 * rest.c * s.length_squared();
        Some((c, std::array::from_fn(|i| s * (rest.c * k[i]))))
    }
}

impl Plain for IsometricRest {
    const SIZE: usize = 20;
    fn write(self, out: &mut [u8]) {
        (self.k, self.c).write(out);
    }
    fn read(b: &[u8]) -> Self {
        let (k, c) = <([f32; 4], f32)>::read(b);
        IsometricRest { k, c }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::nary::fd::check_gradient;

    fn hinge(fold: f32) -> [Vec3; 4] {
        // Edge along x; wing 2 at +y, wing 3 folded by `fold` rad out of the plane.
        [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.05, 0.0),
            Vec3::new(0.4, 0.8, 0.1),
            Vec3::new(0.6, -0.9 * fold.cos(), 0.9 * fold.sin()),
        ]
    }

    #[test]
    fn dihedral_gradient_matches_finite_differences() {
        for fold in [0.0f32, 0.3, -0.7, 1.5, 2.8] {
            check_gradient::<Dihedral, 4>(hinge(fold), &0.2, 1e-3, 3e-3);
        }
    }

    #[test]
    fn dihedral_angle_of_a_right_angle_fold() {
        let x = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(0.5, 1.0, 0.0),
            Vec3::new(0.5, 0.0, 1.0),
        ];
        let r: [Vec3; 4] = std::array::from_fn(|k| x[k] - x[0]);
        let (theta, _) = dihedral_angle_and_gradient(&r).unwrap();
        assert!((theta.abs() - PI / 2.0).abs() < 1e-6, "{theta}");
        let flat = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(0.5, 1.0, 0.0),
            Vec3::new(0.3, -1.0, 0.0),
        ];
        let (theta, _) = dihedral_angle_and_gradient(&flat).unwrap();
        assert!(theta.abs() < 1e-6);
    }

    #[test]
    fn isometric_gradient_matches_finite_differences_and_is_zero_when_flat() {
        let flat = [
            Vec3::ZERO,
            Vec3::new(1.0, 0.1, 0.0),
            Vec3::new(0.3, 0.9, 0.0),
            Vec3::new(0.7, -0.8, 0.0),
        ];
        let rest = IsometricRest::new(&flat).unwrap();
        let r: [Vec3; 4] = std::array::from_fn(|k| flat[k] - flat[0]);
        let (c, g) = Isometric::evaluate(&r, &rest).unwrap();
        assert!(c.abs() < 1e-10, "C at the flat rest shape is {c}");
        assert!(g.iter().all(|v| v.length() < 1e-5), "{g:?}");
        let mut bent = flat;
        bent[2].z = 0.3;
        bent[3].z = 0.2;
        check_gradient::<Isometric, 4>(bent, &rest, 1e-3, 3e-3);
        // Bending a flat rest shape costs: C < 0.
        let rb: [Vec3; 4] = std::array::from_fn(|k| bent[k] - bent[0]);
        assert!(Isometric::evaluate(&rb, &rest).unwrap().0 < -1e-3);
    }
}
