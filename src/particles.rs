//! Particle storage: struct-of-arrays, hot data separate from cold data.
//!
//! * `hot[i]`: `xyz` = position (m), `w` = inverse mass (1/kg, 0 = pinned). Every
//!   constraint kernel reads and writes only this array.
//! * `velocity[i]`: m/s.
//! * `predicted[i]`: the position after the predict stage of the current substep (m);
//!   the velocity update is `v += (x - predicted) / h`.
//! * `residual[i]`: the part of the position (m) that does not fit in the `f32` of
//!   `hot[i]` (see [`crate::math::two_sum`]); the true position is `hot.xyz + residual`.

use crate::error::{try_reserve, Result};
use crate::math::{Vec3, Vec4};

/// Largest number of particles one world holds.
pub const MAX_PARTICLES: u32 = 1 << 28;

/// Largest coordinate magnitude (m) accepted for positions and velocities (m/s).
/// Larger values overflow squared distances in single precision.
pub const MAX_COORDINATE: f32 = 1.0e9;

const _: () = assert!(std::mem::size_of::<Vec4>() == 16);

/// A per-particle vector the host reads and writes in bulk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vec3Attribute {
    /// m
    Position,
    /// m/s
    Velocity,
}

impl Vec3Attribute {
    /// Lower-case name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Vec3Attribute::Position => "position",
            Vec3Attribute::Velocity => "velocity",
        }
    }
}

#[derive(Default, Clone)]
pub struct Particles {
    pub(crate) hot: Vec<Vec4>,
    pub(crate) velocity: Vec<Vec3>,
    pub(crate) predicted: Vec<Vec3>,
    pub(crate) residual: Vec<Vec3>,
}

impl Particles {
    /// Number of particles.
    #[inline]
    pub fn len(&self) -> usize {
        self.hot.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.hot.is_empty()
    }

    /// Reserves room for `additional` particles in every array (all or nothing as far as
    /// contents go: on failure nothing has been added).
    pub(crate) fn reserve(&mut self, additional: usize) -> Result<()> {
        try_reserve(&mut self.hot, additional, "particle positions")?;
        try_reserve(&mut self.velocity, additional, "particle velocities")?;
        try_reserve(&mut self.predicted, additional, "particle predictions")?;
        try_reserve(&mut self.residual, additional, "particle residuals")?;
        Ok(())
    }

    /// Appends one particle at rest. Room must have been reserved.
    #[inline]
    pub(crate) fn push(&mut self, position: Vec3, inverse_mass: f32) {
        self.hot.push(position.extend(inverse_mass));
        self.velocity.push(Vec3::ZERO);
        self.predicted.push(position);
        self.residual.push(Vec3::ZERO);
    }

    /// The position of particle `i` (m), including the sub-ulp residual.
    #[inline]
    pub fn position(&self, i: usize) -> Vec3 {
        self.hot[i].truncate() + self.residual[i]
    }

    /// Moves particle `i` to `p` (m), dropping its residual.
    #[inline]
    pub(crate) fn set_position(&mut self, i: usize, p: Vec3) {
        let w = self.hot[i].w;
        self.hot[i] = p.extend(w);
        self.predicted[i] = p;
        self.residual[i] = Vec3::ZERO;
    }

    /// The inverse mass of particle `i` (1/kg).
    #[inline]
    pub fn inverse_mass(&self, i: usize) -> f32 {
        self.hot[i].w
    }

    #[inline]
    pub(crate) fn set_inverse_mass(&mut self, i: usize, w: f32) {
        self.hot[i].w = w;
        if w == 0.0 {
            self.velocity[i] = Vec3::ZERO;
        }
    }

    /// The velocity of particle `i` (m/s).
    #[inline]
    pub fn velocity(&self, i: usize) -> Vec3 {
        self.velocity[i]
    }

    #[inline]
    pub(crate) fn set_velocity(&mut self, i: usize, v: Vec3) {
        // A pinned particle never moves: its velocity stays zero.
        self.velocity[i] = if self.hot[i].w == 0.0 { Vec3::ZERO } else { v };
    }

    /// Position (m) or velocity (m/s) of particle `i`.
    #[inline]
    pub fn get_vec3(&self, attribute: Vec3Attribute, i: usize) -> Vec3 {
        match attribute {
            Vec3Attribute::Position => self.position(i),
            Vec3Attribute::Velocity => self.velocity(i),
        }
    }

    #[inline]
    pub(crate) fn set_vec3(&mut self, attribute: Vec3Attribute, i: usize, v: Vec3) {
        match attribute {
            Vec3Attribute::Position => self.set_position(i, v),
            Vec3Attribute::Velocity => self.set_velocity(i, v),
        }
    }

    /// Bytes of storage per particle (all arrays).
    pub const BYTES_PER_PARTICLE: usize =
        std::mem::size_of::<Vec4>() + 3 * std::mem::size_of::<Vec3>();
}
