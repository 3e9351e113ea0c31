//! The safe Rust API of granular materials on [`World`]: friction, rolling and cohesion
//! between particles (src/particles/material.rs).

use super::World;
use crate::error::Result;
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
