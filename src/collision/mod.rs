//! Collisions and interaction: host-owned colliders with continuous detection,
//! Coulomb friction and restitution ([`colliders`]), particle–particle contacts ([`contacts`]) over
//! the shared neighbour search ([`neighbours`]), and picking / grabbing particles ([`interaction`]).
//! Its `World` API is in `world/collision.rs`; ARCHITECTURE.md, "The step", shows
//! where each pass runs.
//!
//! The step calls, in this order:
//!
//! ```text
//! begin_step                         neighbour lists, collider velocities
//! for each substep:
//!   (predict)
//!   begin_substep                    velocity clamping (optional), collider contacts
//!                                    along each particle's path
//!   for each iteration:
//!     (constraint sets)
//!     project                        grabs, particle contacts (the neighbour lists
//!                                    are updated first when a particle left its
//!                                    skin), collider contacts
//!   (update velocities)
//!   end_substep                      restitution, contact impulses
//! end_step                           contact readback
//! ```

pub mod colliders;
pub mod contacts;
pub mod heightfield;
pub mod interaction;
pub mod mesh;
pub mod neighbours;
pub mod shape;

use crate::error::Result;
use crate::math::Vec3;
use crate::particles::Particles;
use crate::snapshot::codec::{Reader, Writer};
use crate::solver::parallel::{Executor, Rows};

pub use colliders::{ColliderId, ContactReport, MAX_COLLIDER_CONTACTS};
pub use shape::{ColliderDesc, Shape};

/// Everything collision-related that a world owns.
#[derive(Default)]
pub(crate) struct Collision {
    pub colliders: colliders::Colliders,
    pub particles: contacts::ParticleContacts,
    pub grabs: interaction::Grabs,
    /// Largest particle speed (m/s) after each substep's predict; 0 = unlimited.
    pub max_speed: f32,
}

/// Velocity clamping (Müller, "Ten Minute Physics" / the five tricks of small-step
/// cloth): after predict, a particle faster than `max_speed` is slowed to it, so that
/// it moves at most `max_speed·h` per substep and thin layers and other particles
/// are not skipped. With the predict of `solver::predict` (d = rest + v'h,
/// u = v' − d/h): v' = u + d/h, rest = d − v'h, then v' is scaled.
fn clamp_speed(particles: &mut Particles, max_speed: f32, h: f32, exec: &Executor) {
    let inv_h = 1.0 / h;
    let parts = (
        Rows::new(&mut particles.hot),
        Rows::new(&mut particles.velocity),
    );
    exec.for_chunks(parts, |_, (hot, vel)| {
        for (p, vel) in hot.iter_mut().zip(vel) {
            if p.w == 0.0 {
                continue;
            }
            let d = p.truncate();
            let v = *vel + d * inv_h;
            let speed = v.length();
            if speed <= max_speed {
                continue;
            }
            let v2 = v * (max_speed / speed);
            let d2 = (d - v * h) + v2 * h;
            *p = d2.extend(p.w);
            *vel = v2 - d2 * inv_h;
        }
    });
}

impl Collision {
    /// Start of a step: the colliders' velocities and the neighbour lists. The step
    /// pipeline then sets the colliders' reach (`Colliders::set_reach`, widened for the
    /// fluids' particles).
    pub(crate) fn begin_step(
        &mut self,
        particles: &Particles,
        dt: f32,
        h: f32,
        iterations: u32,
        gravity: Vec3,
        exec: &Executor,
    ) -> Result<()> {
        self.colliders.begin_step(particles.len(), dt, gravity)?;
        self.particles.begin_step(particles, h, iterations, exec)
    }

    pub(crate) fn begin_substep(
        &mut self,
        particles: &mut Particles,
        s: u32,
        substeps: u32,
        h: f32,
        exec: &Executor,
    ) {
        self.grabs.reset_lambda();
        self.particles.search.advance(h);
        if self.max_speed > 0.0 {
            clamp_speed(particles, self.max_speed, h, exec);
        }
        self.colliders
            .detect(particles, &particles.radius, s, substeps, h, exec);
    }

    pub(crate) fn project(&mut self, particles: &mut Particles, h: f32, exec: &Executor) {
        self.grabs.project(particles, h);
        self.particles.project(particles, h, exec);
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

impl Collision {
    /// Snapshot: colliders, grabs and the speed limit. The particle–particle grid is
    /// rebuilt at the start of every step from the particles alone, so it is not saved.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        self.colliders.save(w);
        self.grabs.save(w);
        w.put(self.max_speed);
    }

    /// Snapshot: what [`Self::save`] wrote, over `particles` particles.
    pub(crate) fn load(r: &mut Reader<'_>, particles: usize) -> Result<Collision> {
        Ok(Collision {
            colliders: colliders::Colliders::load(r, particles)?,
            grabs: interaction::Grabs::load(r, particles)?,
            max_speed: r.get()?,
            particles: contacts::ParticleContacts::default(),
        })
    }
}
