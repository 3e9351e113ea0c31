//! Collisions and interaction: host-owned colliders with continuous detection,
//! Coulomb friction and restitution ([`colliders`]), particle–particle contacts on a
//! spatial hash grid ([`grid`]), and picking / grabbing particles ([`interaction`]).
//!
//! The step calls, in this order:
//!
//! ```text
//! begin_step                         grid + neighbour lists, collider velocities
//! for each substep:
//!   (predict)
//!   begin_substep                    collider contacts along each particle's path
//!   for each iteration:
//!     (constraint sets)
//!     project                        grabs, particle contacts, collider contacts
//!   (update velocities)
//!   end_substep                      restitution, contact impulses
//! end_step                           contact readback
//! ```

mod api;
pub mod colliders;
pub mod grid;
pub mod interaction;
pub mod mesh;
pub mod shape;

use crate::error::Result;
use crate::math::Vec3;
use crate::particles::Particles;
use crate::solver::parallel::Executor;

pub use colliders::{ColliderId, ContactReport, MAX_COLLIDER_CONTACTS};
pub use shape::{ColliderDesc, Shape};

/// Everything collision-related that a world owns.
#[derive(Default)]
pub(crate) struct Collision {
    pub colliders: colliders::Colliders,
    pub particles: grid::ParticleContacts,
    pub grabs: interaction::Grabs,
}

impl Collision {
    pub(crate) fn begin_step(
        &mut self,
        particles: &Particles,
        dt: f32,
        gravity: Vec3,
        exec: &Executor,
    ) -> Result<()> {
        self.colliders.begin_step(particles.len(), dt)?;
        self.particles.begin_step(particles, dt, gravity, exec)
    }

    pub(crate) fn begin_substep(
        &mut self,
        particles: &Particles,
        s: u32,
        substeps: u32,
        h: f32,
        exec: &Executor,
    ) {
        self.grabs.reset_lambda();
        self.colliders
            .detect(particles, &particles.radius, s, substeps, h, exec);
    }

    pub(crate) fn project(&mut self, particles: &mut Particles, h: f32, exec: &Executor) {
        self.grabs.project(particles, h);
        self.particles.project(particles, exec);
        self.colliders.project(particles, h, exec);
    }

    pub(crate) fn end_substep(
        &mut self,
        particles: &mut Particles,
        h: f32,
        gravity: Vec3,
        exec: &Executor,
    ) {
        self.colliders.restitute(particles, h, gravity, exec);
    }

    pub(crate) fn end_step(&mut self, n: usize) {
        self.colliders.end_step(n);
    }
}
