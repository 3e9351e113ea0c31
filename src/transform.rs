//! A rigid transform (position and unit rotation): the hosts of attachments, the
//! roots of skinned bodies and wind zones all place things with it.

use crate::error::{Error, Result};
use crate::math::Vec3;
use crate::snapshot::codec::Plain;
use glam::Quat;

/// A host's rigid transform: position (m) and unit rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// m
    pub position: Vec3,
    /// Unit quaternion (normalised on input).
    pub rotation: Quat,
}

impl Transform {
    /// Validates and normalises: finite, |position| within range, |q| in [0.5, 2].
    pub fn checked(position: Vec3, rotation: Quat) -> Result<Transform> {
        if !position.is_finite() || position.abs().max_element() > crate::limits::MAX_COORDINATE {
            return Err(Error::invalid(format!(
                "transform position {position} must be finite and within ±{} m",
                crate::limits::MAX_COORDINATE
            )));
        }
        let len = rotation.length();
        if !rotation.is_finite() || !(0.5..=2.0).contains(&len) {
            return Err(Error::invalid(format!(
                "transform rotation ({}, {}, {}, {}) must be a finite unit quaternion (x, y, z, w)",
                rotation.x, rotation.y, rotation.z, rotation.w
            )));
        }
        Ok(Transform {
            position,
            rotation: rotation / len,
        })
    }

    /// The world point of local offset `o`.
    pub fn apply(&self, o: Vec3) -> Vec3 {
        self.position + self.rotation * o
    }

    /// The local offset of world point `x`.
    pub fn inverse_apply(&self, x: Vec3) -> Vec3 {
        self.rotation.inverse() * (x - self.position)
    }

    /// The transform a fraction `t` in [0, 1] of the way to `other` (position lerp,
    /// rotation slerp).
    pub(crate) fn lerp(&self, other: &Transform, t: f32) -> Transform {
        Transform {
            position: self.position.lerp(other.position, t),
            rotation: self.rotation.slerp(other.rotation, t),
        }
    }
}

impl Plain for Transform {
    const SIZE: usize = Vec3::SIZE + Quat::SIZE;
    fn write(self, out: &mut [u8]) {
        (self.position, self.rotation).write(out);
    }
    fn read(b: &[u8]) -> Self {
        let (position, rotation) = <(Vec3, Quat)>::read(b);
        Transform { position, rotation }
    }
}
