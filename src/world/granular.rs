//! The safe Rust API of granular materials on [`World`]: friction, rolling and cohesion
//! between particles (src/particles/material.rs), and the grain emitters that pour
//! them (src/fluid/grains.rs).

use super::World;
use crate::error::Result;
use crate::fluid::emit::slots::reserve_slot;
use crate::fluid::grains::{
    check_grain_stream, GrainEmitter, GrainEmitterDesc, GrainEmitterId, GrainEmitterStats,
};
use crate::fluid::EmitterDesc;
use crate::math::Vec3;
use crate::particles::material::ParticleMaterial;

/// Why [`World::set_particle_material`] refuses fluid particles.
pub(crate) const FLUID_MATERIALS: &str =
    "fluid particles take no part in the particle contacts where granular materials act";

impl World {
    /// Gives particles `first..first + count` the granular material `material`
    /// (friction, rolling resistance and cohesion in their contacts with other
    /// particles; a pair combines the two materials by the arithmetic mean). Particles
    /// start frictionless. Only particles with a radius take part in contacts
    /// ([`World::set_particle_radii`]). A fluid's particles are refused
    /// (InvalidArgument).
    ///
    /// ```
    /// use sinew::{ParticleMaterial, Vec3, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// let first = world.add_particles(&[Vec3::ZERO, Vec3::new(0.02, 0.0, 0.0)], None)?;
    /// world.set_particle_radii(first, &[0.01, 0.01])?;
    /// let sand = ParticleMaterial {
    ///     static_friction: 0.6,
    ///     dynamic_friction: 0.5,
    ///     ..ParticleMaterial::default()
    /// };
    /// world.set_particle_material(first, 2, &sand)?;
    /// assert_eq!(world.particles().material(1), sand);
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn set_particle_material(
        &mut self,
        first: u32,
        count: u32,
        material: &ParticleMaterial,
    ) -> Result<()> {
        material.validate()?;
        let range = self.particle_range(first, count as usize)?;
        self.check_not_fluid(range.clone(), FLUID_MATERIALS)?;
        self.particles.material[range].fill(*material);
        self.wake_range(first as usize..first as usize + count as usize);
        Ok(())
    }

    /// The granular material of particle `index`.
    pub fn particle_material(&self, index: u32) -> Result<ParticleMaterial> {
        let range = self.particle_range(index, 1)?;
        Ok(self.particles.material[range.start])
    }
}

impl World {
    /// Adds a grain emitter (`fluid::grains`): it reserves `grains.budget` world
    /// particles (inert until emitted) and, from the next step on, pours grains of
    /// `grains.grain_radius` and density with the collision filter of `grains` and the
    /// granular `material` from the shape of `stream` (a nozzle's disc, a point as a
    /// nozzle of radius 0, or a box) at `stream.rate` grains per second with
    /// `stream.speed` along its local +z, until the budget is used. Deterministic.
    ///
    /// ```
    /// use sinew::{EmitterDesc, GrainEmitterDesc, ParticleMaterial, Vec3, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// let sand = ParticleMaterial { static_friction: 0.6, dynamic_friction: 0.5,
    ///     ..ParticleMaterial::default() };
    /// let grains = GrainEmitterDesc { budget: 100, grain_radius: 0.01, ..Default::default() };
    /// let stream = EmitterDesc { position: Vec3::new(0.0, 1.0, 0.0), rate: 60.0,
    ///     ..EmitterDesc::default() };
    /// let pour = world.add_grain_emitter(&grains, &stream, &sand)?;
    /// for _ in 0..30 {
    ///     world.step(1.0 / 60.0)?;
    /// }
    /// let stats = world.grain_emitter_stats(pour)?;
    /// assert_eq!(stats.emitted, 30);
    /// assert_eq!(world.particles().material(stats.first as usize), sand);
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn add_grain_emitter(
        &mut self,
        grains: &GrainEmitterDesc,
        stream: &EmitterDesc,
        material: &ParticleMaterial,
    ) -> Result<GrainEmitterId> {
        let first = self.particles.len() as u32;
        let emitter = GrainEmitter::new(grains, stream, material, first)?;
        let budget = grains.budget as usize;
        self.check_particle_room(budget)?;
        reserve_slot(&mut self.fluids.grains, "grain emitters")?;
        self.particles.reserve(budget)?;
        // Nothing fails from here on.
        for _ in 0..budget {
            let i = self.particles.len();
            self.particles.push(Vec3::ZERO, 0.0);
            GrainEmitter::park(&mut self.particles, i);
        }
        let key = self.fluids.grains.insert(emitter);
        self.reserve_fluid_room(false);
        Ok(GrainEmitterId(self.fluids.ids.id(key)))
    }

    /// Moves or retunes a grain emitter's stream (a chute that follows the player, a
    /// rate of 0 pauses it); its budget, grains and material stay. Next step on.
    pub fn set_grain_emitter(
        &mut self,
        emitter: GrainEmitterId,
        stream: &EmitterDesc,
    ) -> Result<()> {
        let key = self
            .fluids
            .ids
            .key_in(&self.fluids.grains, emitter.0, "grain emitter")?;
        let e = self.fluids.grains.get_mut(key).expect("a live slot");
        let next = check_grain_stream(&e.desc, stream)?;
        e.stream.desc = next.desc;
        e.stream.rows = next.rows;
        Ok(())
    }

    /// Removes a grain emitter: its grains stay (ordinary particles), its unused
    /// particles stay inert; its id becomes invalid.
    pub fn remove_grain_emitter(&mut self, emitter: GrainEmitterId) -> Result<()> {
        let key = self
            .fluids
            .ids
            .key_in(&self.fluids.grains, emitter.0, "grain emitter")?;
        self.fluids.grains.remove(key);
        Ok(())
    }

    /// A grain emitter's particles and counts: its grains are world particles
    /// `first..first + emitted`; `held` counts grains that waited for room.
    pub fn grain_emitter_stats(&self, emitter: GrainEmitterId) -> Result<GrainEmitterStats> {
        let key = self
            .fluids
            .ids
            .key_in(&self.fluids.grains, emitter.0, "grain emitter")?;
        Ok(self.fluids.grains.get(key).expect("a live slot").stats())
    }

    /// Number of live grain emitters.
    pub fn grain_emitter_count(&self) -> u32 {
        self.fluids.grains.iter().count() as u32
    }
}
