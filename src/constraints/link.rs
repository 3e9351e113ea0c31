//! Two-particle length constraints on the generic machinery ([`super::nary`]):
//!
//! * [`Link`]: bilateral distance. `C(x) = |x_1 − x_0| − L`, `∇_1 C = n`,
//!   `∇_0 C = −n`, `n = (x_1 − x_0)/|x_1 − x_0|`; compliance in m/N (Macklin et al.
//!   2016). The stretch/shear/bend edges of bodies run this same C and ∇C on the
//!   distance set's SIMD kernel (`ConstraintSets::link` is a `DistanceConstraints`);
//!   `Link` is the generic-path form of it, whose gradient the unit test checks.
//! * [`Tether`]: long-range attachment (Kim, Chentanez, Müller 2012, "Long Range
//!   Attachments"): particle 1 may be at most L from the anchor particle 0 (usually
//!   pinned). Unilateral: `C(x) = |x_1 − x_0| − L`, active only when C > 0; same ∇C;
//!   compliance in m/N. L is the rest distance (geodesic or Euclidean) from the anchor,
//!   so cloth and ropes cannot stretch beyond it under their own weight.

use super::nary::Family;
use super::set::FamilyKind;
use crate::math::Vec3;

/// Below this length (m) the direction is undefined.
const MIN_LENGTH: f32 = 1.0e-12;

#[inline(always)]
fn length_and_gradient(r: &[Vec3; 2], rest: f32) -> Option<(f32, [Vec3; 2])> {
    let d = r[1];
    let len = d.length();
    // Coincident particles and overflowed or NaN separations have no direction.
    if !(len > MIN_LENGTH && len < f32::INFINITY) {
        return None;
    }
    let n = d / len;
    Some((len - rest, [-n, n]))
}

/// Bilateral distance `|x_1 − x_0| = L` (rest data: L in m).
pub struct Link;

impl Family<2> for Link {
    type Rest = f32;
    const NAME: &'static str = "link";
    const COMPLIANCE_UNIT: &'static str = "m/N";
    #[inline(always)]
    fn evaluate(r: &[Vec3; 2], rest: &f32) -> Option<(f32, [Vec3; 2])> {
        length_and_gradient(r, *rest)
    }
}

/// Unilateral maximum distance `|x_1 − x_0| ≤ L` from anchor particle 0 (rest data: L
/// in m).
pub struct Tether;

impl Family<2> for Tether {
    type Rest = f32;
    const NAME: &'static str = "tether";
    const KIND: Option<FamilyKind> = Some(FamilyKind::Tether);
    const COMPLIANCE_UNIT: &'static str = "m/N";
    const REST_UNIT: Option<&'static str> = Some("max length (m)");
    fn rest_scalar(rest: &f32) -> Option<f32> {
        Some(*rest)
    }
    fn set_rest_scalar(rest: &mut f32, value: f32) {
        *rest = value;
    }
    fn check_rest_scalar(what: &str, value: f32) -> crate::error::Result<()> {
        crate::limits::check_length(what, value, false)
    }
    #[inline(always)]
    fn evaluate(r: &[Vec3; 2], rest: &f32) -> Option<(f32, [Vec3; 2])> {
        let (c, g) = length_and_gradient(r, *rest)?;
        (c > 0.0).then_some((c, g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::nary::fd::check_gradient;

    #[test]
    fn link_gradient_matches_finite_differences() {
        let x = [Vec3::new(0.1, -0.2, 0.3), Vec3::new(0.7, 0.4, -0.1)];
        check_gradient::<Link, 2>(x, &0.5, 1e-3, 2e-3);
    }

    #[test]
    fn tether_gradient_matches_finite_differences_and_is_inactive_when_slack() {
        let x = [Vec3::new(0.1, -0.2, 0.3), Vec3::new(0.7, 0.4, -0.1)];
        check_gradient::<Tether, 2>(x, &0.5, 1e-3, 2e-3);
        // 0.86 m apart: a 1 m tether is slack, so inactive.
        assert!(Tether::evaluate(&[Vec3::ZERO, x[1] - x[0]], &1.0).is_none());
    }
}
