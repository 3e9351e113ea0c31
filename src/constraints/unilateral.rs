//! Unilateral area and volume (the "air mesh" of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017, Müller et al. 2015, "Air
//! Meshes for Robust Collision Handling"): the signed area of a triangle in the XY
//! plane, or the signed volume of a tetrahedron, is kept at or above a minimum;
//! the constraint acts only when violated (an inverted element means two objects
//! passed through each other).
//!
//! * [`UnilateralArea`] (K = 3, for 2D worlds): `A = ½ (r1 × r2)·z`, `r_k = x_k − x_0`;
//!   `C = A − A_min`, active when C < 0; `∇_1 A = ½ (r2.y, −r2.x, 0)`,
//!   `∇_2 A = ½ (−r1.y, r1.x, 0)`, `∇_0 A = −(∇_1 + ∇_2)`. Compliance in m³/N.
//! * [`UnilateralVolume`] (K = 4): `V = (1/6) r1·(r2 × r3)`; `C = V − V_min`, active
//!   when C < 0; ∇V as in [`super::volume::TetVolume`] (times V0). Compliance in m⁵/N.

use super::nary::Family;
use super::set::FamilyKind;
use super::volume::tet_volume;
use crate::math::Vec3;

/// Signed area (m²) of a triangle in the XY plane, from positions relative to x_0.
pub fn signed_area_xy(r1: Vec3, r2: Vec3) -> f32 {
    0.5 * (r1.x * r2.y - r1.y * r2.x)
}

/// Signed XY area ≥ minimum (rest data: A_min in m²).
pub struct UnilateralArea;

impl Family<3> for UnilateralArea {
    type Rest = f32;
    const NAME: &'static str = "unilateral area";
    const KIND: Option<FamilyKind> = Some(FamilyKind::UnilateralArea);
    const COMPLIANCE_UNIT: &'static str = "m³/N";
    const REST_UNIT: Option<&'static str> = Some("minimum area (m²)");
    fn rest_scalar(rest: &f32) -> Option<f32> {
        Some(*rest)
    }
    fn set_rest_scalar(rest: &mut f32, value: f32) {
        *rest = value;
    }
    fn check_rest_scalar(what: &str, v: f32) -> crate::error::Result<()> {
        crate::limits::check_measure(what, v, crate::limits::MAX_AREA, "m²", false)
    }
    #[inline]
    fn evaluate(r: &[Vec3; 3], rest: &f32) -> Option<(f32, [Vec3; 3])> {
        let c = signed_area_xy(r[1], r[2]) - rest;
        if c >= 0.0 {
            return None;
        }
        let g1 = Vec3::new(r[2].y, -r[2].x, 0.0) * 0.5;
        let g2 = Vec3::new(-r[1].y, r[1].x, 0.0) * 0.5;
        Some((c, [-(g1 + g2), g1, g2]))
    }
}

/// Signed tet volume ≥ minimum (rest data: V_min in m³).
pub struct UnilateralVolume;

impl Family<4> for UnilateralVolume {
    type Rest = f32;
    const NAME: &'static str = "unilateral volume";
    const KIND: Option<FamilyKind> = Some(FamilyKind::UnilateralVolume);
    const COMPLIANCE_UNIT: &'static str = "m⁵/N";
    const REST_UNIT: Option<&'static str> = Some("minimum volume (m³)");
    fn rest_scalar(rest: &f32) -> Option<f32> {
        Some(*rest)
    }
    fn set_rest_scalar(rest: &mut f32, value: f32) {
        *rest = value;
    }
    fn check_rest_scalar(what: &str, v: f32) -> crate::error::Result<()> {
        crate::limits::check_measure(what, v, crate::limits::MAX_VOLUME, "m³", false)
    }
    #[inline]
    fn evaluate(r: &[Vec3; 4], rest: &f32) -> Option<(f32, [Vec3; 4])> {
        let c = tet_volume(r) - rest;
        if c >= 0.0 {
            return None;
        }
        let g1 = r[2].cross(r[3]) / 6.0;
        let g2 = r[3].cross(r[1]) / 6.0;
        let g3 = r[1].cross(r[2]) / 6.0;
        Some((c, [-(g1 + g2 + g3), g1, g2, g3]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::nary::fd::check_gradient;

    #[test]
    fn unilateral_gradients_match_finite_differences_and_are_inactive_when_satisfied() {
        // Inverted triangle (clockwise): active.
        let tri = [
            Vec3::ZERO,
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(1.0, 0.2, 0.0),
        ];
        check_gradient::<UnilateralArea, 3>(tri, &0.0, 1e-3, 2e-3);
        let ccw = [
            Vec3::ZERO,
            Vec3::new(1.0, 0.2, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let r: [Vec3; 3] = std::array::from_fn(|k| ccw[k] - ccw[0]);
        assert!(UnilateralArea::evaluate(&r, &0.0).is_none());
        assert!(
            UnilateralArea::evaluate(&r, &1.0).is_some(),
            "below a 1 m² minimum"
        );
        let inverted = [Vec3::ZERO, Vec3::Y, Vec3::X, Vec3::new(0.1, 0.2, 1.0)];
        check_gradient::<UnilateralVolume, 4>(inverted, &0.0, 1e-3, 2e-3);
        let upright = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        assert!(UnilateralVolume::evaluate(&upright, &0.0).is_none());
    }
}
