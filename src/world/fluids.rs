//! The fluid API of [`World`] (src/fluid): fluids, emitters, kill volumes, readback,
//! and the two-way coupling switches and forces of bodies. The particle slots,
//! emission and removal are described in src/fluid/emit.rs; the fluids' part of the
//! step is their stage (`impl Stage for FluidSet`, src/fluid/mod.rs).

use super::World;
use crate::bodies::BodyId;
use crate::error::{check_nonzero, Error, Result};
use crate::fluid::emit::FLUID_FILTER;
use crate::fluid::{
    EmitterDesc, EmitterId, Fluid, FluidDesc, FluidId, FluidParticle, FluidStats, KillVolumeDesc,
    KillVolumeId,
};
use crate::math::Vec3;

/// Why [`World::set_particle_radii`] refuses fluid particles.
pub(crate) const FLUID_RADII: &str = "a fluid gives its particles the radius of its \
    collision_radius setting; change that with the fluid's settings";
/// Why [`World::set_inverse_masses`] refuses fluid particles.
pub(crate) const FLUID_MASSES: &str = "a fluid's particle mass is rest_density × spacing³ \
    (× spacing² in a planar world); change rest_density with the fluid's settings";
/// Why [`World::set_collision_filters`] refuses fluid particles.
pub(crate) const FLUID_FILTERS: &str = "fluid particles meet solids through the density \
    constraint only, never in particle contacts; the fluid's coupling_mask setting chooses \
    the solids it couples with";
/// Why [`World::set_unyielding`] refuses fluid particles.
pub(crate) const FLUID_UNYIELDING: &str =
    "fluid particles take no part in the particle contacts where unyielding factors act";
/// Why [`World::grab_particle`] refuses fluid particles.
pub(crate) const FLUID_GRABS: &str = "a fluid moves its live particles between slots as \
    others are removed, so a grab would jump to another particle; push fluid with a \
    collider or a coupled body instead";

/// Why constraints on fluid particles are refused.
pub(crate) const FLUID_CONSTRAINTS: &str = "a fluid moves its last live particle into the \
    slot of one it removes, so a constraint on it would hold another particle afterwards; \
    couple bodies to fluid through their radius instead";

impl World {
    /// Adds a fluid and reserves `desc.capacity` world particles for it, all inert
    /// (pinned, colliding with nothing) until emitted. Its mass per particle is
    /// ρ₀·s³ (ρ₀·s² in a planar world).
    pub fn add_fluid(&mut self, desc: &FluidDesc) -> Result<FluidId> {
        desc.validate()?;
        Fluid::check_mass(desc)?;
        let capacity = desc.capacity as usize;
        self.check_particle_room(capacity)?;
        let first = self.particles.len() as u32;
        let fluid = Fluid::new(*desc, first, self.plane.z.is_some())?;
        self.fluids.reserve_fluid()?;
        self.particles.reserve(capacity)?;
        // Nothing fails from here on.
        for _ in 0..capacity {
            let i = self.particles.len();
            self.particles.push(Vec3::ZERO, 0.0);
            self.particles.filter[i] = FLUID_FILTER;
        }
        let id = self.fluids.insert_fluid(fluid);
        self.reserve_fluid_room(false);
        Ok(id)
    }

    /// Removes a fluid: its particles become inert for good (their slots stay, so no
    /// other index shifts), its emitters and kill volumes go with it.
    pub fn remove_fluid(&mut self, fluid: FluidId) -> Result<()> {
        self.fluids.remove_fluid(fluid, &mut self.particles)
    }

    /// Number of live fluids.
    pub fn fluid_count(&self) -> u32 {
        self.fluids.live().count() as u32
    }

    /// The fluid's settings.
    pub fn fluid_desc(&self, fluid: FluidId) -> Result<FluidDesc> {
        Ok(self.fluids.fluid(fluid)?.desc)
    }

    /// Changes a fluid's settings while it runs. `capacity` and `spacing` must stay as
    /// they are (a message says so otherwise); every other field may change.
    pub fn set_fluid_desc(&mut self, fluid: FluidId, desc: &FluidDesc) -> Result<()> {
        let planar = self.plane.z.is_some();
        let f = self.fluids.fluid_mut(fluid)?;
        desc.validate()?;
        Fluid::check_mass(desc)?;
        if desc.capacity != f.desc.capacity || desc.spacing != f.desc.spacing {
            return Err(Error::invalid(format!(
                "capacity {} and spacing {} m must stay as the fluid was added with \
                 (capacity {}, spacing {} m): add another fluid to change them",
                desc.capacity, desc.spacing, f.desc.capacity, f.desc.spacing
            )));
        }
        f.retune(&mut self.particles, *desc, planar);
        self.reserve_fluid_room(false);
        Ok(())
    }

    /// The fluid's reserved particles: `(first, capacity)`; the live ones are the first
    /// `fluid_stats(..).count` of them.
    pub fn fluid_particle_range(&self, fluid: FluidId) -> Result<(u32, u32)> {
        let f = self.fluids.fluid(fluid)?;
        Ok((f.first, f.capacity()))
    }

    /// Counters and density figures of the fluid.
    pub fn fluid_stats(&self, fluid: FluidId) -> Result<FluidStats> {
        let f = self.fluids.fluid(fluid)?;
        let live = &f.density_ratio[..f.count as usize];
        let (mut sum, mut max) = (0.0f64, 0.0f32);
        for &d in live {
            sum += d as f64;
            max = max.max(d);
        }
        Ok(FluidStats {
            count: f.count,
            capacity: f.capacity(),
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
    /// fluid's live particles) of the first new one. In a planar world the particles
    /// go onto the plane and their z velocity is dropped. Water laid into an overlap
    /// settles in its first step: it ends that step at the velocities given
    /// (docs/fluids.md, "Water laid roughly").
    pub fn emit_fluid(
        &mut self,
        fluid: FluidId,
        positions: &[Vec3],
        velocities: Option<&[Vec3]>,
    ) -> Result<u32> {
        let planar = self.plane.z;
        let f = self.fluids.fluid_mut(fluid)?;
        let n = positions.len();
        check_nonzero(n, "position")?;
        let free = (f.capacity() - f.count) as usize;
        if n > free {
            return Err(Error::out_of_range(format!(
                "emitting {n} particles into a fluid with room for {free} more \
                 ({} live of capacity {})",
                f.count,
                f.capacity()
            )));
        }
        if let Some(v) = velocities {
            if v.len() != n {
                return Err(Error::invalid(format!(
                    "{} velocities for {n} positions",
                    v.len()
                )));
            }
        }
        for (k, &x) in positions.iter().enumerate() {
            crate::particles::check_vec3("position", k, x)?;
        }
        for (k, &v) in velocities.unwrap_or(&[]).iter().enumerate() {
            crate::particles::check_vec3("velocity", k, v)?;
        }
        let first = f.count;
        for (k, &x) in positions.iter().enumerate() {
            let mut v = velocities.map_or(Vec3::ZERO, |v| v[k]);
            let mut x = x;
            if let Some(z) = planar {
                x.z = z;
                v.z = 0.0;
            }
            f.spawn(&mut self.particles, x, v);
        }
        f.emitted += n as u64;
        // Later emissions need no room: the buffers are sized for the capacity.
        if !self.fluids.solver.is_active() {
            self.reserve_fluid_room(true);
        }
        Ok(first)
    }

    /// Removes every live particle of the fluid (its slots stay reserved).
    pub fn clear_fluid(&mut self, fluid: FluidId) -> Result<()> {
        self.fluids.fluid_mut(fluid)?.clear(&mut self.particles);
        Ok(())
    }

    /// Adds an emitter to the fluid; it emits from the next step on (see
    /// src/fluid/emit.rs for where its particles appear). A nozzle's
    /// radius may be at most [`crate::MAX_NOZZLE_SPACINGS`] spacings of the fluid.
    pub fn add_emitter(&mut self, fluid: FluidId, desc: &EmitterDesc) -> Result<EmitterId> {
        self.fluids.add_emitter(fluid, desc)
    }

    /// Moves or retunes an emitter (a hose that follows the player); what it owed
    /// carries over.
    pub fn set_emitter(&mut self, emitter: EmitterId, desc: &EmitterDesc) -> Result<()> {
        self.fluids.set_emitter(emitter, desc)
    }

    /// Removes an emitter.
    pub fn remove_emitter(&mut self, emitter: EmitterId) -> Result<()> {
        self.fluids.remove_emitter(emitter)
    }

    /// Adds a kill volume to the fluid: its particles inside are removed at the end of
    /// each step.
    pub fn add_kill_volume(
        &mut self,
        fluid: FluidId,
        desc: &KillVolumeDesc,
    ) -> Result<KillVolumeId> {
        self.fluids.add_kill_volume(fluid, desc)
    }

    /// Removes a kill volume.
    pub fn remove_kill_volume(&mut self, volume: KillVolumeId) -> Result<()> {
        self.fluids.remove_kill_volume(volume)
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
        let f = self.fluids.fluid(fluid)?;
        super::interpolation::check_alpha(alpha)?;
        let p = &self.particles;
        for (k, i) in f.live().enumerate() {
            sink(
                k,
                &FluidParticle {
                    position: super::interpolation::lerp(p.step_start[i], p.position(i), alpha),
                    velocity: p.velocity[i],
                    density_ratio: f.density_ratio[k],
                },
            );
        }
        Ok(f.count)
    }

    /// Refuses a plain particle edit of the particles `range` when it touches the
    /// reserved particles of a live fluid: a fluid sets their mass, radius and filter
    /// itself, from its settings, and moves its live particles between its slots as
    /// others are removed, so an edit by index would break its invariants or land on
    /// another particle later. `why` (one of the `FLUID_*` reasons) ends the message.
    /// Checked after the range, before any value.
    pub(crate) fn check_not_fluid(&self, range: std::ops::Range<usize>, why: &str) -> Result<()> {
        for f in self.fluids.live() {
            let (a, b) = (f.first as usize, (f.first + f.capacity()) as usize);
            if range.start < b && a < range.end {
                let (lo, hi) = (range.start.max(a), range.end.min(b));
                let which = if hi - lo == 1 {
                    format!("particle {lo} belongs")
                } else {
                    format!("particles {lo}..{hi} belong")
                };
                return Err(Error::invalid(format!(
                    "{which} to a fluid (its particles {a}..{b}): {why}"
                )));
            }
        }
        Ok(())
    }

    /// Refuses a constraint (`what` j: "pair 3", "tet 0", ...) on any particle of
    /// `indices` that a live fluid reserves: a fluid moves its last live particle into
    /// the slot of one it removes, so the constraint would hold another particle
    /// afterwards. Indices out of range are left to the caller's own check. No cost
    /// without fluids.
    pub(crate) fn check_no_fluid_indices(
        &self,
        indices: impl IntoIterator<Item = u32>,
        what: &str,
        per_element: usize,
    ) -> Result<()> {
        if self.fluids.live().next().is_none() {
            return Ok(());
        }
        for (k, p) in indices.into_iter().enumerate() {
            for f in self.fluids.live() {
                if (f.first..f.first + f.capacity()).contains(&p) {
                    return Err(Error::invalid(format!(
                        "{what} {}: particle {p} belongs to a fluid (its particles {}..{}): \
                         {FLUID_CONSTRAINTS}",
                        k / per_element.max(1),
                        f.first,
                        f.first + f.capacity()
                    )));
                }
            }
        }
        Ok(())
    }

    /// Sizes the fluid solver's buffers for the world as it is now, so that the next
    /// `step` does not allocate: called by the calls that add particles, fluids or
    /// coupled solids (`DensitySolver::prepare` sizes them for every fluid's capacity
    /// plus the coupled solids, and `step` repeats it, finding room). Without a fluid
    /// it does nothing (`force`: size anyway). A failure to allocate is left to the
    /// next step, which sizes again and reports it.
    pub(crate) fn reserve_fluid_room(&mut self, force: bool) {
        if force || self.fluids.live().next().is_some() {
            let crate::fluid::FluidSet { fluids, solver, .. } = &mut self.fluids;
            let _ = solver.prepare(fluids.items(), &self.particles, self.plane.z);
        }
    }

    /// Turns the two-way coupling of a body's particles with every fluid on or off (on
    /// by default for particles with a radius).
    pub fn set_body_fluid_coupling(&mut self, body: BodyId, enabled: bool) -> Result<()> {
        let range = self.bodies.get(body)?.particles.clone();
        self.fluids.solver.set_coupling(range, enabled)?;
        self.reserve_fluid_room(false);
        self.wake_body_of(body);
        Ok(())
    }

    /// The force (N) the fluids exerted on the body's particles in the last substep
    /// (buoyancy plus drag): Σ m_j Δx_j / h² over the body's particles.
    pub fn body_fluid_force(&self, body: BodyId) -> Result<Vec3> {
        let range = self.bodies.get(body)?.particles.clone();
        Ok(self.fluids.solver.force_on(range, self.last_h))
    }
}
