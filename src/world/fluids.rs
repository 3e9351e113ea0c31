//! The fluid API of [`World`] (src/constraints/fluid): fluids, emitters, kill volumes,
//! readback, and the two-way coupling switches and forces of bodies.

use super::World;
use crate::bodies::BodyId;
use crate::constraints::fluid::{
    EmitterDesc, EmitterId, FluidDesc, FluidId, FluidParticle, FluidStats, KillVolumeDesc,
    KillVolumeId,
};
use crate::error::Result;
use crate::math::Vec3;

impl World {
    /// Adds a fluid and reserves `desc.capacity` world particles for it, all inert
    /// (pinned, colliding with nothing) until emitted. Its mass per particle is
    /// ρ₀·s³ (ρ₀·s² in a planar world).
    pub fn add_fluid(&mut self, desc: &FluidDesc) -> Result<FluidId> {
        todo!("{desc:?}")
    }

    /// Removes a fluid: its particles become inert for good (their slots stay, so no
    /// other index shifts), its emitters and kill volumes go with it.
    pub fn remove_fluid(&mut self, fluid: FluidId) -> Result<()> {
        todo!("{fluid:?}")
    }

    /// Number of live fluids.
    pub fn fluid_count(&self) -> u32 {
        todo!()
    }

    /// The fluid's settings.
    pub fn fluid_desc(&self, fluid: FluidId) -> Result<FluidDesc> {
        todo!("{fluid:?}")
    }

    /// Changes a fluid's settings while it runs. `capacity` and `spacing` must stay as
    /// they are (a message says so otherwise); every other field may change.
    pub fn set_fluid_desc(&mut self, fluid: FluidId, desc: &FluidDesc) -> Result<()> {
        todo!("{fluid:?} {desc:?}")
    }

    /// The fluid's reserved particles: `(first, capacity)`; the live ones are the first
    /// `fluid_stats(..).count` of them.
    pub fn fluid_particle_range(&self, fluid: FluidId) -> Result<(u32, u32)> {
        todo!("{fluid:?}")
    }

    /// Counters and density figures of the fluid.
    pub fn fluid_stats(&self, fluid: FluidId) -> Result<FluidStats> {
        todo!("{fluid:?}")
    }

    /// Emits particles at `positions` (m) with `velocities` (m/s, None = at rest), all
    /// or none: more than the free capacity is refused. Returns the index (within the
    /// fluid's live particles) of the first new one.
    pub fn emit_fluid(
        &mut self,
        fluid: FluidId,
        positions: &[Vec3],
        velocities: Option<&[Vec3]>,
    ) -> Result<u32> {
        todo!("{fluid:?} {positions:?} {velocities:?}")
    }

    /// Removes every live particle of the fluid (its slots stay reserved).
    pub fn clear_fluid(&mut self, fluid: FluidId) -> Result<()> {
        todo!("{fluid:?}")
    }

    /// Adds an emitter to the fluid; it emits from the next step on.
    pub fn add_emitter(&mut self, fluid: FluidId, desc: &EmitterDesc) -> Result<EmitterId> {
        todo!("{fluid:?} {desc:?}")
    }

    /// Moves or retunes an emitter (a hose that follows the player).
    pub fn set_emitter(&mut self, emitter: EmitterId, desc: &EmitterDesc) -> Result<()> {
        todo!("{emitter:?} {desc:?}")
    }

    /// Removes an emitter.
    pub fn remove_emitter(&mut self, emitter: EmitterId) -> Result<()> {
        todo!("{emitter:?}")
    }

    /// Adds a kill volume to the fluid: its particles inside are removed at the end of
    /// each step.
    pub fn add_kill_volume(
        &mut self,
        fluid: FluidId,
        desc: &KillVolumeDesc,
    ) -> Result<KillVolumeId> {
        todo!("{fluid:?} {desc:?}")
    }

    /// Removes a kill volume.
    pub fn remove_kill_volume(&mut self, volume: KillVolumeId) -> Result<()> {
        todo!("{volume:?}")
    }

    /// Calls `sink(k, particle)` for each live particle k of the fluid, in order, with
    /// its position interpolated by `alpha` in [0, 1] as in
    /// [`World::read_interpolated_positions`] (1 = the current state). Returns the
    /// number of particles.
    pub fn read_fluid_particles(
        &self,
        fluid: FluidId,
        alpha: f32,
        sink: impl FnMut(usize, &FluidParticle),
    ) -> Result<u32> {
        let _ = sink;
        todo!("{fluid:?} {alpha}")
    }

    /// Turns the two-way coupling of a body's particles with every fluid on or off (on
    /// by default for particles with a radius).
    pub fn set_body_fluid_coupling(&mut self, body: BodyId, enabled: bool) -> Result<()> {
        todo!("{body:?} {enabled}")
    }

    /// The force (N) the fluids exerted on the body's particles in the last substep
    /// (buoyancy plus drag): Σ m_j Δx_j / h² over the body's particles.
    pub fn body_fluid_force(&self, body: BodyId) -> Result<Vec3> {
        todo!("{body:?}")
    }
}
