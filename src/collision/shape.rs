//! Collider shapes, their descriptions and validation, and the geometric queries the
//! contact passes use: a signed distance with its outward normal (the shape inflated by
//! the particle radius) and a swept query along a particle's path in one substep.

use glam::Quat;

use crate::error::{Error, Result};
use crate::limits::MAX_LENGTH;
use crate::math::Vec3;
use crate::particles::MAX_COORDINATE;

pub use crate::limits::MAX_FRICTION;
/// Largest deviation of |rotation| from 1 accepted for a collider rotation.
pub const ROTATION_UNIT_TOLERANCE: f32 = 1.0e-3;

/// The geometry of a collider, in its local frame (origin = the collider's position,
/// axes rotated by its rotation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// The half-space below the plane through the origin with normal +Y (local): the
    /// solid side is y < 0.
    Plane,
    /// A ball of `radius` (m) around the origin.
    Sphere { radius: f32 },
    /// The points within `radius` (m) of the segment from (0, −half_height, 0) to
    /// (0, half_height, 0) (m).
    Capsule { radius: f32, half_height: f32 },
    /// The box |x| ≤ half_extents.x, |y| ≤ half_extents.y, |z| ≤ half_extents.z (m).
    Box { half_extents: Vec3 },
    /// A static triangle mesh (two-sided surface); its triangles are given to
    /// `World::add_mesh_collider`, which alone creates this shape.
    Mesh,
    /// A signed distance field (a grid of distances, sampled trilinearly); its grid is
    /// given to `World::add_sdf_collider`, which alone creates this shape.
    Sdf,
}

crate::setting_union!(Shape {
    Plane = 0,
    Sphere { radius: 0.0 } = 1,
    Capsule { radius: 0.0, half_height: 0.0 } = 2,
    Box { half_extents: Vec3::ZERO } = 3,
    Mesh = 4,
    Sdf = 5,
});

crate::settings! {
    /// A collider: a shape, a transform the host updates every frame, and a material.
    pub struct ColliderDesc => SinewColliderDesc, ColliderSettings, cookie 0xC011_1DE5,
        path "crate::collision::ColliderDesc", check ColliderDesc::check_rotation {
        /// The geometry, in the collider's local frame (a SinewShape in C: plane, sphere,
        /// capsule, box; a mesh and a distance field only through their own collider
        /// calls). Its size is in the fields its variant reads.
        shape: Shape = Shape::Plane => union "SinewShape", unit "";
        /// World position of the shape's local origin.
        position: Vec3 = Vec3::ZERO => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// Unit quaternion, local to world (| |q| − 1 | at most 1e-3; normalised on
        /// input).
        rotation: Quat = Quat::IDENTITY => unit "";
        /// The radius.
        radius: f32 = 0.5 => of shape: Shape [Sphere, Capsule], unit "m", min > 0.0,
            max <= MAX_LENGTH;
        /// Half the length of the axis segment (along the local Y axis).
        half_height: f32 = 0.5 => of shape: Shape [Capsule], unit "m", min > 0.0,
            max <= MAX_LENGTH;
        /// The half extents (local axes).
        half_extents: Vec3 = Vec3::splat(0.5) => of shape: Shape [Box], unit "m", min > 0.0,
            max <= MAX_LENGTH;
        /// Coulomb coefficient below which a contact sticks.
        static_friction: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_FRICTION;
        /// Coulomb coefficient of sliding.
        dynamic_friction: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_FRICTION;
        /// Normal velocity kept after an impact, as a fraction of the approach speed
        /// (0 = no bounce, 1 = elastic).
        restitution: f32 = 0.0 => unit "", min >= 0.0, max <= 1.0;
        /// Whether the contact readback (`World::contacts`, sinew_world_read_contacts)
        /// lists this collider's contacts. Off, the collider still acts on the particles,
        /// only its contacts are left out (a host world that handles some colliders'
        /// contacts itself, or none).
        report_contacts: bool = true => unit "";
    }
}

/// Checks a collider transform: finite position within ±MAX_COORDINATE, finite unit
/// rotation (| |q| − 1 | ≤ 1e-3). Returns the normalised rotation.
pub fn check_transform(position: Vec3, rotation: Quat) -> Result<Quat> {
    if !position.is_finite() || position.abs().max_element() > MAX_COORDINATE {
        return Err(Error::invalid(format!(
            "collider position {position} must be finite with components within ±{MAX_COORDINATE} m"
        )));
    }
    if !rotation.is_finite() || (rotation.length() - 1.0).abs() > ROTATION_UNIT_TOLERANCE {
        return Err(Error::invalid(format!(
            "collider rotation {rotation} must be a finite unit quaternion (|q| = {})",
            rotation.length()
        )));
    }
    Ok(rotation.normalize())
}

impl ColliderDesc {
    /// The rotation's check (after the field checks): a finite unit quaternion.
    fn check_rotation(&self) -> Result<()> {
        check_transform(self.position, self.rotation).map(|_| ())
    }
}

impl Shape {
    /// Signed distance (m) from local point `p` to the shape inflated by `r`, and the
    /// outward unit normal there (local).
    #[inline]
    pub(crate) fn distance(&self, p: Vec3, r: f32) -> (f32, Vec3) {
        match *self {
            Shape::Plane => (p.y - r, Vec3::Y),
            // Meshes and fields are queried through their triangles (mesh.rs) and
            // grids (colliders/sdf.rs), never here.
            Shape::Mesh | Shape::Sdf => (f32::INFINITY, Vec3::Y),
            Shape::Sphere { radius } => {
                let l = p.length();
                let n = if l > 1e-12 { p / l } else { Vec3::Y };
                (l - radius - r, n)
            }
            Shape::Capsule {
                radius,
                half_height,
            } => {
                let q = Vec3::new(p.x, p.y - p.y.clamp(-half_height, half_height), p.z);
                let l = q.length();
                let n = if l > 1e-12 {
                    q / l
                } else {
                    Vec3::X // on the axis: any radial direction
                };
                (l - radius - r, n)
            }
            Shape::Box { half_extents } => {
                let q = p.abs() - half_extents;
                let outside = q.max(Vec3::ZERO);
                let lo = outside.length();
                if lo > 0.0 {
                    let n = (outside / lo) * p.signum();
                    (lo - r, n)
                } else {
                    // Inside: the nearest face.
                    let (axis, depth) = if q.x >= q.y && q.x >= q.z {
                        (0, q.x)
                    } else if q.y >= q.z {
                        (1, q.y)
                    } else {
                        (2, q.z)
                    };
                    let mut n = Vec3::ZERO;
                    n[axis] = if p[axis] < 0.0 { -1.0 } else { 1.0 };
                    (depth - r, n)
                }
            }
        }
    }

    /// For a box, the face whose outside `from` (local) lies in that `p` is farthest in
    /// front of: the signed distance (m) of `p` from that face's plane moved out by `r`,
    /// and its outward normal (local). The face a particle that started at `from`
    /// entered by, or is beside, wherever it ends. `None` for other shapes, or when
    /// `from` is inside the box.
    #[inline]
    pub(crate) fn face_toward(&self, from: Vec3, p: Vec3, r: f32) -> Option<(f32, Vec3)> {
        let Shape::Box { half_extents } = *self else {
            return None;
        };
        let mut best: Option<(f32, Vec3)> = None;
        for axis in 0..3 {
            if from[axis].abs() <= half_extents[axis] {
                continue;
            }
            let sign = if from[axis] < 0.0 { -1.0 } else { 1.0 };
            let d = sign * p[axis] - half_extents[axis] - r;
            if best.is_none_or(|(b, _)| d > b) {
                let mut n = Vec3::ZERO;
                n[axis] = sign;
                best = Some((d, n));
            }
        }
        best
    }

    /// First point where the segment `p0 → p1` (local) enters the shape inflated by
    /// `r`, when `p0` is outside it: `Some((t, normal))` with t in [0, 1]. Sphere
    /// tracing (the distance never overestimates for these convex shapes), with an
    /// exact intersection for the plane.
    pub(crate) fn sweep(&self, p0: Vec3, p1: Vec3, r: f32) -> Option<(f32, Vec3)> {
        let seg = p1 - p0;
        let len = seg.length();
        if len <= 0.0 {
            return None;
        }
        if let Shape::Plane = self {
            let (d0, d1) = (p0.y - r, p1.y - r);
            if d0 > 0.0 && d1 <= 0.0 {
                return Some((d0 / (d0 - d1), Vec3::Y));
            }
            return None;
        }
        // Hit tolerance: small against both the particle and the step.
        let eps = (1.0e-4 * (r + len)).max(1.0e-7);
        let mut t = 0.0f32;
        for _ in 0..48 {
            let (d, n) = self.distance(p0 + seg * t, r);
            if d <= eps {
                return Some((t, n));
            }
            t += d / len;
            if t > 1.0 {
                return None;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_distance_and_sweep() {
        let b = Shape::Box {
            half_extents: Vec3::new(1.0, 0.005, 1.0),
        };
        let (d, n) = b.distance(Vec3::new(0.2, 0.3, 0.0), 0.01);
        assert!((d - 0.285).abs() < 1e-6 && n == Vec3::Y, "{d} {n}");
        let (d, n) = b.distance(Vec3::new(0.2, -0.001, 0.0), 0.0);
        assert!((d + 0.004).abs() < 1e-6 && n == -Vec3::Y, "{d} {n}");
        // 20 m/s for 1/480 s straight through: the entry is found.
        let hit = b.sweep(
            Vec3::new(0.0, 0.02, 0.0),
            Vec3::new(0.0, -0.0217, 0.0),
            0.01,
        );
        let (t, n) = hit.unwrap();
        assert_eq!(n, Vec3::Y);
        assert!((0.02 - 0.0417 * t - 0.015).abs() < 1e-5, "t {t}");
        // Passing beside it: no hit.
        assert!(b
            .sweep(Vec3::new(2.0, 0.02, 0.0), Vec3::new(2.0, -0.02, 0.0), 0.01)
            .is_none());
    }

    #[test]
    fn capsule_and_sphere_distances() {
        let c = Shape::Capsule {
            radius: 0.5,
            half_height: 1.0,
        };
        let (d, n) = c.distance(Vec3::new(2.0, 0.7, 0.0), 0.0);
        assert!((d - 1.5).abs() < 1e-6 && n == Vec3::X);
        let (d, n) = c.distance(Vec3::new(0.0, 3.0, 0.0), 0.1);
        assert!((d - 1.4).abs() < 1e-6 && n == Vec3::Y);
        let s = Shape::Sphere { radius: 1.0 };
        let (t, n) = s
            .sweep(Vec3::new(-3.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0), 0.0)
            .unwrap();
        assert!((t - 1.0 / 3.0).abs() < 1e-3 && (n + Vec3::X).length() < 1e-3);
    }
}
