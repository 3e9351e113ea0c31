//! The fluid API of [`World`] (src/constraints/fluid): fluids, emitters, kill volumes,
//! readback, and the two-way coupling switches and forces of bodies.

use super::World;
use crate::bodies::BodyId;
use crate::constraints::fluid::Fluid;
use crate::constraints::fluid::{
    EmitterDesc, EmitterId, FluidDesc, FluidId, FluidParticle, FluidStats, KillVolumeDesc,
    KillVolumeId,
};
use crate::error::Result;
use crate::math::Vec3;
use crate::particles::CollisionFilter;

impl World {
    /// Adds a fluid and reserves `desc.capacity` world particles for it, all inert
    /// (pinned, colliding with nothing) until emitted. Its mass per particle is
    /// ρ₀·s³ (ρ₀·s² in a planar world).
    pub fn add_fluid(&mut self, desc: &FluidDesc) -> Result<FluidId> {
        desc.validate()?;
        let capacity = desc.capacity as usize;
        self.check_particle_room(capacity)?;
        let what = "fluid state";
        let mut age = crate::error::try_with_capacity(capacity, what)?;
        let mut density_ratio = crate::error::try_with_capacity(capacity, what)?;
        age.resize(capacity, 0.0f32);
        density_ratio.resize(capacity, 0.0f32);
        crate::error::try_reserve(&mut self.sets.fluids.fluids, 1, "fluids")?;
        self.particles.reserve(capacity)?;
        // Nothing fails from here on.
        let first = self.particles.len() as u32;
        for _ in 0..capacity {
            let i = self.particles.len();
            self.particles.push(Vec3::ZERO, 0.0);
            self.particles.filter[i] = CollisionFilter {
                group: 0,
                layers: 0,
                mask: 0,
                self_collision: false,
            };
        }
        let s = desc.spacing;
        let volume = if self.sets.planar.is_some() {
            s * s
        } else {
            s * s * s
        };
        let slot = self.sets.fluids.fluids.len();
        self.sets.fluids.fluids.push(Some(Fluid {
            desc: *desc,
            generation: 0,
            first,
            count: 0,
            mass: desc.rest_density * volume,
            volume,
            age,
            density_ratio,
            emitted: 0,
            removed: 0,
            refused: 0,
            emitters: Vec::new(),
            kill_volumes: Vec::new(),
        }));
        Ok(FluidId(slot as u64 + 1))
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
        let f = self.fluid_ref(fluid)?;
        Ok((f.first, f.desc.capacity))
    }

    /// Counters and density figures of the fluid.
    pub fn fluid_stats(&self, fluid: FluidId) -> Result<FluidStats> {
        let f = self.fluid_ref(fluid)?;
        let live = &f.density_ratio[..f.count as usize];
        let (mut sum, mut max) = (0.0f64, 0.0f32);
        for &r in live {
            sum += r as f64;
            max = max.max(r);
        }
        Ok(FluidStats {
            count: f.count,
            capacity: f.desc.capacity,
            emitted: f.emitted,
            removed: f.removed,
            refused: f.refused,
            mean_density_ratio: if live.is_empty() {
                0.0
            } else {
                (sum / live.len() as f64) as f32
            },
            max_density_ratio: max,
        })
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
        let slot = self.fluid_slot(fluid)?;
        let f = self.sets.fluids.fluids[slot].as_ref().expect("checked");
        let free = (f.desc.capacity - f.count) as usize;
        if positions.len() > free {
            return Err(crate::error::Error::out_of_range(format!(
                "{} particles to emit but only {free} free of the fluid's capacity {}",
                positions.len(),
                f.desc.capacity
            )));
        }
        if let Some(v) = velocities {
            if v.len() != positions.len() {
                return Err(crate::error::Error::invalid(format!(
                    "{} velocities for {} positions",
                    v.len(),
                    positions.len()
                )));
            }
            for (k, &v) in v.iter().enumerate() {
                super::check_vec3("velocity", k, v)?;
            }
        }
        for (k, &p) in positions.iter().enumerate() {
            super::check_vec3("position", k, p)?;
        }
        let (start, first, mass) = (f.count, f.first, f.mass);
        let radius = f.desc.collider_radius();
        for (k, &p) in positions.iter().enumerate() {
            let i = (first + start) as usize + k;
            let parts = &mut self.particles;
            parts.base[i] = p.into();
            parts.hot[i] = Vec3::ZERO.extend(1.0 / mass);
            parts.velocity[i] = velocities.map_or(Vec3::ZERO, |v| v[k]);
            parts.step_start[i] = p;
            parts.radius[i] = radius;
        }
        let f = self.sets.fluids.fluids[slot].as_mut().expect("checked");
        f.count += positions.len() as u32;
        f.emitted += positions.len() as u64;
        Ok(start)
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
        mut sink: impl FnMut(usize, &FluidParticle),
    ) -> Result<u32> {
        let f = self.fluid_ref(fluid)?;
        let p = &self.particles;
        for k in 0..f.count as usize {
            let i = f.first as usize + k;
            let x = p.position(i);
            let position = p.step_start[i] + (x - p.step_start[i]) * alpha;
            sink(
                k,
                &FluidParticle {
                    position,
                    velocity: p.velocity[i],
                    density_ratio: f.density_ratio[k],
                },
            );
        }
        Ok(f.count)
    }

    /// Turns the two-way coupling of a body's particles with every fluid on or off (on
    /// by default for particles with a radius).
    pub fn set_body_fluid_coupling(&mut self, body: BodyId, enabled: bool) -> Result<()> {
        let range = self.bodies.get(body)?.particles.clone();
        self.sets.fluids.solver.set_coupling(range, enabled)
    }

    /// The force (N) the fluids exerted on the body's particles in the last substep
    /// (buoyancy plus drag): Σ m_j Δx_j / h² over the body's particles.
    pub fn body_fluid_force(&self, body: BodyId) -> Result<Vec3> {
        let range = self.bodies.get(body)?.particles.clone();
        Ok(self.sets.fluids.solver.force_on(range, self.last_h))
    }

    /// The fluid of `id` (checked: slot and generation).
    fn fluid_slot(&self, id: FluidId) -> Result<usize> {
        let slot = (id.0 & 0xffff_ffff) as usize;
        let generation = (id.0 >> 32) as u32;
        match slot
            .checked_sub(1)
            .and_then(|s| self.sets.fluids.fluids.get(s).map(|f| (s, f)))
        {
            Some((s, Some(f))) if f.generation == generation => Ok(s),
            _ => Err(crate::error::Error::invalid(format!(
                "fluid {:#x} does not exist (removed, or from another world)",
                id.0
            ))),
        }
    }

    fn fluid_ref(&self, id: FluidId) -> Result<&Fluid> {
        let s = self.fluid_slot(id)?;
        Ok(self.sets.fluids.fluids[s].as_ref().expect("checked"))
    }
}
