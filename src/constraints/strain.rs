//! Strain-based dynamics (Müller, Chentanez, Kim, Macklin 2014, "Strain Based
//! Dynamics"; Nakagawa, "Position Based Dynamics Combo", CEDEC 2017): one constraint per component of the Green strain of a
//! triangle (D = 2, K = 3 particles) or a tetrahedron (D = 3, K = 4), each with its own
//! compliance, so stretch along each material axis and shear are set apart
//! (anisotropy).
//!
//! With rest shape matrix `Dm` (the rest edges x_k − x_0 in the material frame) and
//! `c_i` the i-th column of `Dm⁻¹`ᵀ (coefficients per edge), the deformed material axes
//! are `f_i = Σ_k c_ik (x_k − x_0)` (columns of F = Ds Dm⁻¹; F = I at rest, so
//! `|f_i| = 1` and `f_i·f_j = 0` there).
//!
//! * stretch along axis i: `C = |f_i| − 1` (= √S_ii − 1),
//!   `∇_k C = c_ik f̂_i` (k ≥ 1), `∇_0 C = −Σ_k ∇_k C`;
//! * shear between axes i, j: `C = f̂_i·f̂_j` (= S_ij / √(S_ii S_jj)),
//!   `∂C/∂f_i = (f̂_j − C f̂_i)/|f_i|`, `∂C/∂f_j = (f̂_i − C f̂_j)/|f_j|`,
//!   `∇_k C = c_ik ∂C/∂f_i + c_jk ∂C/∂f_j`.
//!
//! C is dimensionless: compliance in 1/(N·m) (for a Young's modulus E in Pa and element
//! rest area A or volume V, α ≈ 1/(E·A·thickness) or 1/(E·V)). Material axes: for a
//! triangle, axis x is the rest direction of edge x_0 → x_1 and axis y is perpendicular
//! to it in the triangle's plane; for a tet, the world axes of the rest shape.

use super::nary::Family;
use super::set::FamilyKind;
use crate::math::Vec3;
use crate::snapshot::codec::Plain;

/// Rest data of one strain component.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrainRest<const E: usize> {
    /// `coef[i][k]`: weight of edge k (x_{k+1} − x_0) in axis f_i.
    pub coef: [[f32; E]; 3],
    /// Axes: `(i, i)` = stretch along i, `(i, j)` with i ≠ j = shear.
    pub axes: (u8, u8),
}

/// Below this axis length (dimensionless) the element is degenerate.
const MIN_AXIS: f32 = 1.0e-6;

#[inline(always)]
fn axis<const E: usize>(coef: &[f32; E], r: &[Vec3]) -> Vec3 {
    let mut f = Vec3::ZERO;
    for k in 0..E {
        f += r[k + 1] * coef[k];
    }
    f
}

#[inline(always)]
fn evaluate<const E: usize, const K: usize>(
    r: &[Vec3; K],
    rest: &StrainRest<E>,
) -> Option<(f32, [Vec3; K])> {
    let (i, j) = (rest.axes.0 as usize, rest.axes.1 as usize);
    let fi = axis(&rest.coef[i], r);
    let li = fi.length();
    // Flat, inverted-to-a-line or overflowed elements (NaN compares false): skipped.
    if !(li > MIN_AXIS && li < f32::INFINITY) {
        return None;
    }
    let ni = fi / li;
    let mut g = [Vec3::ZERO; K];
    let c;
    if i == j {
        c = li - 1.0;
        for k in 0..E {
            g[k + 1] = ni * rest.coef[i][k];
        }
    } else {
        let fj = axis(&rest.coef[j], r);
        let lj = fj.length();
        if !(lj > MIN_AXIS && lj < f32::INFINITY) {
            return None;
        }
        let nj = fj / lj;
        c = ni.dot(nj);
        let di = (nj - ni * c) / li;
        let dj = (ni - nj * c) / lj;
        for k in 0..E {
            g[k + 1] = di * rest.coef[i][k] + dj * rest.coef[j][k];
        }
    }
    let mut sum = Vec3::ZERO;
    for v in &g[1..] {
        sum += *v;
    }
    g[0] = -sum;
    Some((c, g))
}

/// Triangle Green-strain components (K = 3 particles, 2 edges).
pub struct TriangleStrain;

impl Family<3> for TriangleStrain {
    type Rest = StrainRest<2>;
    const NAME: &'static str = "triangle strain";
    const COMPLIANCE_UNIT: &'static str = "1/(N·m)";
    const KIND: Option<FamilyKind> = Some(FamilyKind::TriangleStrain);
    #[inline]
    fn evaluate(r: &[Vec3; 3], rest: &StrainRest<2>) -> Option<(f32, [Vec3; 3])> {
        evaluate(r, rest)
    }
}

/// Tetrahedron Green-strain components (K = 4 particles, 3 edges).
pub struct TetStrain;

impl Family<4> for TetStrain {
    type Rest = StrainRest<3>;
    const NAME: &'static str = "tet strain";
    const COMPLIANCE_UNIT: &'static str = "1/(N·m)";
    const KIND: Option<FamilyKind> = Some(FamilyKind::TetStrain);
    #[inline]
    fn evaluate(r: &[Vec3; 4], rest: &StrainRest<3>) -> Option<(f32, [Vec3; 4])> {
        evaluate(r, rest)
    }
}

/// The inverse rest matrix coefficients of a triangle (rest positions relative to
/// x_0): axis x along edge 0→1, axis y perpendicular in the plane. None if degenerate.
pub fn triangle_coefficients(r1: Vec3, r2: Vec3) -> Option<[[f32; 2]; 3]> {
    triangle_coefficients_along(r1, r2, r1)
}

/// As [`triangle_coefficients`], with axis x along `warp` projected onto the
/// triangle's plane (edge 0→1 when `warp` is (nearly) normal to it): cloth keeps one
/// warp direction across its triangles.
pub fn triangle_coefficients_along(r1: Vec3, r2: Vec3, warp: Vec3) -> Option<[[f32; 2]; 3]> {
    let l1 = r1.length();
    let n = r1.cross(r2);
    if l1 <= 0.0 || n.length() <= 1e-6 * l1 * r2.length() {
        return None;
    }
    let nn = n.normalize();
    let in_plane = warp - nn * warp.dot(nn);
    let ex = if in_plane.length() > 1e-3 * warp.length() {
        in_plane.normalize()
    } else {
        r1 / l1
    };
    let ey = nn.cross(ex);
    // Dm = [[r1·ex, r2·ex], [r1·ey, r2·ey]] (2x2), columns = edges in the frame.
    let (a, b, c, d) = (r1.dot(ex), r2.dot(ex), r1.dot(ey), r2.dot(ey));
    let det = a * d - b * c;
    // Dm⁻¹ = [[d, −b], [−c, a]] / det; f_i = Σ_k r_k (Dm⁻¹)_{k i}.
    let inv = [[d / det, -b / det], [-c / det, a / det]];
    Some([[inv[0][0], inv[1][0]], [inv[0][1], inv[1][1]], [0.0, 0.0]])
}

/// The inverse rest matrix coefficients of a tet (rest positions relative to x_0),
/// world axes. None if degenerate.
pub fn tet_coefficients(r1: Vec3, r2: Vec3, r3: Vec3) -> Option<[[f32; 3]; 3]> {
    let dm = glam::Mat3::from_cols(r1, r2, r3);
    let det = dm.determinant();
    if det.abs() <= 1e-12 {
        return None;
    }
    let inv = dm.inverse();
    // F = Ds Dm⁻¹: axis i = Σ_k r_k (Dm⁻¹)_{k i}; glam is column-major: inv.col(i)[k].
    Some(std::array::from_fn(|i| {
        let c = inv.col(i);
        [c.x, c.y, c.z]
    }))
}

impl<const E: usize> Plain for StrainRest<E> {
    const SIZE: usize = 12 * E + 2;
    fn write(self, out: &mut [u8]) {
        (self.coef, [self.axes.0, self.axes.1]).write(out);
    }
    fn read(b: &[u8]) -> Self {
        let (coef, [a, b]) = <([[f32; E]; 3], [u8; 2])>::read(b);
        // Axes index 3-vectors: a forged value must not index past them.
        StrainRest {
            coef,
            axes: (a.min(2), b.min(2)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::nary::fd::check_gradient;

    #[test]
    fn triangle_strain_gradients_match_finite_differences() {
        let rest = [
            Vec3::ZERO,
            Vec3::new(1.0, 0.2, 0.1),
            Vec3::new(0.3, 0.9, -0.2),
        ];
        let coef = triangle_coefficients(rest[1], rest[2]).unwrap();
        let mut x = rest;
        x[1] += Vec3::new(0.2, -0.1, 0.05);
        x[2] += Vec3::new(-0.1, 0.3, 0.1);
        for axes in [(0u8, 0u8), (1, 1), (0, 1)] {
            let r = StrainRest { coef, axes };
            let at_rest: [Vec3; 3] = rest;
            let (c0, _) = TriangleStrain::evaluate(&at_rest, &r).unwrap();
            assert!(c0.abs() < 1e-5, "{axes:?}: C at rest = {c0}");
            check_gradient::<TriangleStrain, 3>(x, &r, 1e-3, 3e-3);
        }
        // A warp axis: stretching along it loads xx only.
        let warp = Vec3::new(1.0, 1.0, 0.0);
        let flat = [
            Vec3::ZERO,
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let coef = triangle_coefficients_along(flat[1], flat[2], warp).unwrap();
        let s: [Vec3; 3] = flat.map(|p| p + warp.normalize() * p.dot(warp.normalize()) * 0.1);
        let c = |axes| {
            TriangleStrain::evaluate(&s, &StrainRest { coef, axes })
                .unwrap()
                .0
        };
        assert!((c((0, 0)) - 0.1).abs() < 1e-5 && c((1, 1)).abs() < 1e-5 && c((0, 1)).abs() < 1e-5);
    }

    #[test]
    fn tet_strain_gradients_match_finite_differences() {
        let rest = [
            Vec3::ZERO,
            Vec3::new(1.0, 0.1, 0.0),
            Vec3::new(0.2, 0.9, 0.1),
            Vec3::new(0.1, 0.2, 1.1),
        ];
        let coef = tet_coefficients(rest[1], rest[2], rest[3]).unwrap();
        let mut x = rest;
        x[1] += Vec3::new(0.2, -0.1, 0.05);
        x[3] += Vec3::new(-0.1, 0.3, 0.1);
        for axes in [(0u8, 0u8), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)] {
            let r = StrainRest { coef, axes };
            let (c0, _) = TetStrain::evaluate(&rest, &r).unwrap();
            assert!(c0.abs() < 1e-5, "{axes:?}: C at rest = {c0}");
            check_gradient::<TetStrain, 4>(x, &r, 1e-3, 3e-3);
        }
        // Stretching along world x by 10% gives C_xx = 0.1 and leaves C_yy, shear 0.
        let s: [Vec3; 4] = rest.map(|p| p * Vec3::new(1.1, 1.0, 1.0));
        let cxx = TetStrain::evaluate(&s, &StrainRest { coef, axes: (0, 0) })
            .unwrap()
            .0;
        let cyy = TetStrain::evaluate(&s, &StrainRest { coef, axes: (1, 1) })
            .unwrap()
            .0;
        let cxy = TetStrain::evaluate(&s, &StrainRest { coef, axes: (0, 1) })
            .unwrap()
            .0;
        assert!((cxx - 0.1).abs() < 1e-5 && cyy.abs() < 1e-5 && cxy.abs() < 1e-5);
    }
}
