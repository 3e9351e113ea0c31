//! The life of fluid particles: ids of fluids, emitters and kill volumes, the
//! particle state of live and dead slots, emission at the start of a step and removal
//! (lifetime, kill volumes) at its end. Nothing here allocates inside the step: every
//! buffer is sized when the fluid or the emitter is added.
//!
//! **Slots.** A fluid reserves `capacity` world particles; the live ones are always the
//! first `count`. A particle is emitted into slot `count` (count += 1); removing live
//! particle k moves the last live particle's whole state (position, velocity, start of
//! step, age, ρ/ρ₀) into slot k and parks the last slot, so only indices inside the
//! fluid change, and the removal order is the particle order (deterministic). A dead
//! slot is pinned (inverse mass 0, never predicted), has radius 0 and the filter
//! `layers 0, mask 0` (no collider or particle contact), velocity 0, and stays where it
//! died.
//!
//! **Nozzle.** Particles leave a disc of the emitter's radius facing its local +z on a
//! square lattice of the fluid's spacing s (rows along local y, points along local x:
//! every (a s, b s) with a² + b² ≤ (r/s)²; at least the centre), with velocity
//! speed·(+z). The k-th particle an emitter ever emits (its `sequence`) takes lattice
//! point k mod L of layer k / L, L the lattice size. `rate` particles per second are
//! due; the fraction left after a step carries to the next (`carry`). A nozzle passes
//! at most speed·L/s particles per second (one layer each time the stream has moved one
//! spacing); a higher rate is capped there, so the stream leaves at rest density.
//! Particles are emitted at the start of a step as if they had left the disc during
//! the step before: the j-th particle due in a step (0-based, carry c before the step)
//! became due τ_j = (j + 1 − c)/rate into it, and starts where it would be after
//! flying t = dt − τ_j from the disc: speed·t along +z plus g t²/2, with velocity
//! speed·(+z) + g t. Successive particles are then speed/rate apart along the stream,
//! within a step and across steps (for a steady dt), and one lattice point's particles
//! of two successive layers speed·L/rate ≥ s apart, so no two new particles are closer
//! than the spacing and none starts behind the disc. In a planar world the disc is the
//! //! segment where it meets the plane: points at (k s) across the in-plane part of the
//! axis, |k s| ≤ r, velocity speed times that in-plane part (a nozzle facing straight
//! out of the plane has none and emits nothing).
//!
//! **Box.** The box is cut into cells of at least the spacing (at most 2²⁰ per axis);
//! the k-th particle takes cell `P_c(k mod C)` of C cells, `P_c` a pseudo-random
//! permutation (a four-round Feistel network over the next power of four, cycle-walked
//! into [0, C), keyed by the cycle c = k / C), and a point jittered by up to a quarter of
//! the cell around the cell's centre (hashed from k). So every cell is used once per
//! cycle, the points look random, and two particles of one cycle are at least half a
//! spacing apart. Velocity speed·(+z). In a planar world only the box's local x and y
//! count (put it in the plane) and points lie on the plane.
//!
//! **Full fluid.** Due particles past the free capacity are refused (counted), or with
//! `recycle_oldest` they replace the oldest live particles (largest age, then lowest
//! index), found by one selection over the live particles in the fluid's scratch.

mod emitters;
mod persist;
pub(crate) mod slots;

use super::{Emitter, EmitterDesc, EmitterShape, Fluid, FluidDesc, FluidSet, KillVolume};
use super::{EmitterId, FluidId, KillVolumeDesc, KillVolumeId};
use crate::error::{try_with_capacity, Error, Result};
use crate::math::{Vec3, Vec4};
use crate::particles::{CollisionFilter, Particles};
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;
use emitters::check_emitter;
pub(crate) use emitters::{check_stream, Stream};
use slots::reserve_slot;

/// The filter of fluid particles, live or dead: never in the particle contact search
/// (fluid particles meet each other and solids through the density constraint only).
pub(crate) const FLUID_FILTER: CollisionFilter = CollisionFilter {
    group: 0,
    layers: 0,
    mask: 0,
    self_collision: false,
};

pub use emitters::MAX_NOZZLE_SPACINGS;

/// Parks particle `i` as a dead fluid slot where it is.
pub(crate) fn park(p: &mut Particles, i: usize) {
    let x = p.position(i);
    p.base[i] = x.into();
    p.hot[i] = Vec4::ZERO;
    p.velocity[i] = Vec3::ZERO;
    p.radius[i] = 0.0;
    p.filter[i] = FLUID_FILTER;
    p.step_start[i] = x;
}

/// How far over its rest density (ρ/ρ₀ − 1) a particle in its first step, with no
/// wall within reach, must read for its fluid's new particles to settle
/// ([`FluidSet::settle_first_steps`]): above what water laid on the emitters' lattice
/// reads (1 ± 2·10⁻⁴), below the 1% of a fill laid a third of a percent closer than
/// the spacing.
pub(crate) const SETTLE_OVERLAP: f32 = 0.005;

/// The least ρ/ρ₀ at which a particle in its first step counts as laid in water (a
/// particle alone reads W(0)·s³ / S, 0.196 in 3D at h = 2s; one on the surface of a
/// pool about 0.7-0.8) and settles with the overlap.
const SETTLE_IN_WATER: f32 = 0.5;

impl Fluid {
    /// Particle mass (kg, or kg per m of thickness) and volume (m³, or m²) of a fluid
    /// with these settings in a 3D or planar world.
    pub(crate) fn mass_and_volume(desc: &FluidDesc, planar: bool) -> (f32, f32) {
        let s = desc.spacing;
        let volume = if planar { s * s } else { s * s * s };
        (desc.rest_density * volume, volume)
    }

    /// Checks that the particle mass stays within the accepted inverse masses in a 3D
    /// and in a planar world (so switching the world to 2D never makes it invalid).
    /// The heaviest particle the desc's limits allow (`MAX_REST_DENSITY` ×
    /// `MAX_FLUID_SPACING`³ = 1e8 kg) is far from the lower end `MIN_INVERSE_MASS`
    /// (1e12 kg); only the lightest can fail.
    pub(crate) fn check_mass(desc: &FluidDesc) -> Result<()> {
        for planar in [false, true] {
            let (m, _) = Self::mass_and_volume(desc, planar);
            let w = 1.0 / m;
            debug_assert!(w >= crate::limits::MIN_INVERSE_MASS, "{w}");
            if !(w.is_finite() && w <= crate::limits::MAX_INVERSE_MASS) {
                return Err(Error::invalid(format!(
                    "rest_density {} with spacing {} gives particles of {m} kg{}: \
                     below the lightest accepted particle ({} kg)",
                    desc.rest_density,
                    desc.spacing,
                    if planar { " per m (2D)" } else { "" },
                    1.0 / crate::limits::MAX_INVERSE_MASS
                )));
            }
        }
        Ok(())
    }

    /// A fluid with no live particle, its particles at `first..first + capacity`; every
    /// per-particle buffer is allocated here.
    pub(crate) fn new(desc: FluidDesc, first: u32, planar: bool) -> Result<Fluid> {
        let n = desc.capacity as usize;
        let mut age = try_with_capacity(n, "fluid particle ages")?;
        age.resize(n, 0.0);
        let mut density_ratio = try_with_capacity(n, "fluid density ratios")?;
        density_ratio.resize(n, 0.0);
        let scratch = try_with_capacity(n, "fluid emitter scratch")?;
        let mut first_velocity = try_with_capacity(n, "fluid first-step velocities")?;
        first_velocity.resize(n, Vec3::ZERO);
        let mut first_ratio = try_with_capacity(n, "fluid first-step density ratios")?;
        first_ratio.resize(n, 0.0);
        let (mass, volume) = Self::mass_and_volume(&desc, planar);
        Ok(Fluid {
            desc,
            first,
            count: 0,
            mass,
            volume,
            age,
            density_ratio,
            first_velocity,
            first_ratio,
            overlap: false,
            emitted: 0,
            removed: 0,
            refused: 0,
            scratch,
        })
    }

    /// Reserved particles.
    pub(crate) fn capacity(&self) -> u32 {
        self.desc.capacity
    }

    /// World indices of the live particles.
    pub(crate) fn live(&self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.count) as usize
    }

    /// Makes slot k (world particle `first + k`) a live particle at `x` with velocity
    /// `v`, age 0.
    fn place(&mut self, p: &mut Particles, k: u32, x: Vec3, v: Vec3) {
        let i = (self.first + k) as usize;
        p.base[i] = x.into();
        p.hot[i] = Vec3::ZERO.extend(1.0 / self.mass);
        p.velocity[i] = v;
        p.radius[i] = self.desc.collider_radius();
        p.filter[i] = FLUID_FILTER;
        p.step_start[i] = x;
        self.age[k as usize] = 0.0;
        self.density_ratio[k as usize] = 0.0;
    }

    /// Appends a live particle (room checked by the caller).
    pub(crate) fn spawn(&mut self, p: &mut Particles, x: Vec3, v: Vec3) {
        debug_assert!(self.count < self.capacity());
        self.place(p, self.count, x, v);
        self.count += 1;
    }

    /// Removes live particle k: the last live particle's state moves into its slot and
    /// the last slot is parked.
    pub(crate) fn remove(&mut self, p: &mut Particles, k: u32) {
        debug_assert!(k < self.count);
        let last = self.count - 1;
        let (i, j) = ((self.first + k) as usize, (self.first + last) as usize);
        if k != last {
            p.base[i] = p.base[j];
            p.hot[i] = p.hot[j];
            p.velocity[i] = p.velocity[j];
            p.step_start[i] = p.step_start[j];
            p.radius[i] = p.radius[j];
            self.age[k as usize] = self.age[last as usize];
            self.density_ratio[k as usize] = self.density_ratio[last as usize];
        }
        park(p, j);
        self.age[last as usize] = 0.0;
        self.density_ratio[last as usize] = 0.0;
        self.count = last;
        self.removed += 1;
    }

    /// Removes every live particle.
    pub(crate) fn clear(&mut self, p: &mut Particles) {
        for i in self.live() {
            park(p, i);
        }
        self.age.fill(0.0);
        self.density_ratio.fill(0.0);
        self.removed += self.count as u64;
        self.count = 0;
    }

    /// New settings (capacity and spacing unchanged): the mass follows ρ₀ and the live
    /// particles take the new inverse mass and collider radius.
    pub(crate) fn retune(&mut self, p: &mut Particles, desc: FluidDesc, planar: bool) {
        self.desc = desc;
        (self.mass, self.volume) = Self::mass_and_volume(&desc, planar);
        let (w, r) = (1.0 / self.mass, desc.collider_radius());
        for i in self.live() {
            p.hot[i].w = w;
            p.radius[i] = r;
        }
    }
}

impl FluidSet {
    /// Gives the fluids, emitters and kill volumes the world's ids (a new world, a
    /// load, a restore).
    pub(crate) fn set_ids(&mut self, ids: crate::slots::WorldIds) {
        self.ids = ids;
    }

    /// The slot of a live fluid.
    pub(crate) fn fluid_slot(&self, id: FluidId) -> Result<usize> {
        Ok(self.ids.key_in(&self.fluids, id.0, "fluid")?.slot as usize)
    }

    /// A live fluid.
    pub(crate) fn fluid(&self, id: FluidId) -> Result<&Fluid> {
        let k = self.fluid_slot(id)?;
        Ok(self.fluids.items()[k].as_ref().expect("a live slot"))
    }

    /// A live fluid, mutable.
    pub(crate) fn fluid_mut(&mut self, id: FluidId) -> Result<&mut Fluid> {
        let k = self.fluid_slot(id)?;
        Ok(self.fluids.items_mut()[k].as_mut().expect("a live slot"))
    }

    /// Room for one more fluid (outside any step).
    pub(crate) fn reserve_fluid(&mut self) -> Result<()> {
        reserve_slot(&mut self.fluids, "fluids")
    }

    /// Adds a fluid into the first free slot (room reserved by [`Self::reserve_fluid`]).
    pub(crate) fn insert_fluid(&mut self, fluid: Fluid) -> FluidId {
        FluidId(self.ids.id(self.fluids.insert(fluid)))
    }

    /// Removes a fluid: its particles are parked for good, its emitters and kill
    /// volumes go, its slot's generation moves on.
    pub(crate) fn remove_fluid(&mut self, id: FluidId, p: &mut Particles) -> Result<()> {
        let slot = self.fluid_slot(id)?;
        let mut f = self.fluids.vacate(slot).expect("a live slot");
        f.clear(p);
        for k in 0..self.emitters.slot_count() {
            if self.emitters.items()[k]
                .as_ref()
                .is_some_and(|e| e.fluid == slot as u32)
            {
                self.emitters.vacate(k);
            }
        }
        for k in 0..self.kill_volumes.slot_count() {
            if self.kill_volumes.items()[k]
                .as_ref()
                .is_some_and(|v| v.fluid == slot as u32)
            {
                self.kill_volumes.vacate(k);
            }
        }
        Ok(())
    }

    /// Adds an emitter to a fluid.
    pub(crate) fn add_emitter(&mut self, id: FluidId, desc: &EmitterDesc) -> Result<EmitterId> {
        let slot = self.fluid_slot(id)?;
        let (desc, rows) = check_emitter(desc, &self.fluid(id)?.desc)?;
        reserve_slot(&mut self.emitters, "emitters")?;
        let e = Emitter {
            stream: Stream::new(desc, rows),
            fluid: slot as u32,
        };
        Ok(EmitterId(self.ids.id(self.emitters.insert(e))))
    }

    /// Moves or retunes an emitter (its carry and sequence stay).
    pub(crate) fn set_emitter(&mut self, id: EmitterId, desc: &EmitterDesc) -> Result<()> {
        let k = self.ids.key_in(&self.emitters, id.0, "emitter")?;
        let e = self.emitters.get(k).expect("a live slot");
        let fluid = self.fluids.items()[e.fluid as usize]
            .as_ref()
            .expect("an emitter's fluid is live");
        let (desc, rows) = check_emitter(desc, &fluid.desc)?;
        let e = self.emitters.get_mut(k).expect("a live slot");
        e.stream.desc = desc;
        e.stream.rows = rows;
        Ok(())
    }

    /// Removes an emitter.
    pub(crate) fn remove_emitter(&mut self, id: EmitterId) -> Result<()> {
        let k = self.ids.key_in(&self.emitters, id.0, "emitter")?;
        self.emitters.remove(k);
        Ok(())
    }

    /// Adds a kill volume to a fluid.
    pub(crate) fn add_kill_volume(
        &mut self,
        id: FluidId,
        desc: &KillVolumeDesc,
    ) -> Result<KillVolumeId> {
        let slot = self.fluid_slot(id)?;
        let desc = desc.validated()?;
        reserve_slot(&mut self.kill_volumes, "kill volumes")?;
        let v = KillVolume {
            desc,
            fluid: slot as u32,
        };
        Ok(KillVolumeId(self.ids.id(self.kill_volumes.insert(v))))
    }

    /// Removes a kill volume.
    pub(crate) fn remove_kill_volume(&mut self, id: KillVolumeId) -> Result<()> {
        let k = self.ids.key_in(&self.kill_volumes, id.0, "kill volume")?;
        self.kill_volumes.remove(k);
        Ok(())
    }

    /// Start of a step: every fluid emitter, then every grain emitter, in slot order,
    /// emits its due particles.
    pub(crate) fn emit(&mut self, p: &mut Particles, planar: Option<f32>, gravity: Vec3, dt: f32) {
        let FluidSet {
            fluids, emitters, ..
        } = self;
        for e in emitters.iter_mut() {
            if let Some(Some(f)) = fluids.items_mut().get_mut(e.fluid as usize) {
                e.emit(f, p, planar, gravity, dt);
            }
        }
        for g in self.grains.iter_mut() {
            g.emit(p, planar, gravity, dt);
        }
    }

    /// Start of a step, after the emitters: the velocity of every live particle in its
    /// first step (age 0: laid by `World::emit_fluid` since the last step, or by an
    /// emitter now), which [`Self::settle_first_steps`] gives it back at the end.
    pub(crate) fn record_first_steps(&mut self, p: &Particles) {
        for f in self.fluids.iter_mut() {
            f.overlap = false;
            for k in 0..f.count as usize {
                if f.age[k] == 0.0 {
                    f.first_velocity[k] = p.velocity[f.first as usize + k];
                    f.first_ratio[k] = 0.0;
                }
            }
        }
    }

    /// End of a step, before anything is removed: water laid into an overlap settles.
    /// When a particle in its first step read over-dense at the step's first density
    /// estimate (laid closer than the fluid's spacing, or into fluid already there:
    /// `Fluid::overlap`), every particle of its fluid in its first step that was laid
    /// in water (read at least [`SETTLE_IN_WATER`] of the rest density) ends the step
    /// at the velocity it started with. The density solve still moves them (and the
    /// fluid around them) apart in that step; what it does not do is turn that first
    /// correction into speed. An overlap corrected within one substep of h seconds
    /// becomes a velocity of about overlap / h, so a rough fill burst harder the more
    /// substeps a step had. Measured, a pool 12 rows deep laid on the lattice with
    /// every coordinate jittered by up to ±0.2 spacings, 2 s: the highest particle rose
    /// 4.2 spacings above where it was laid at the default 8 substeps × 1 and 31 at 32
    /// (2D: 6.0 and 68); with the settling step 0.9 and 1.9 (2D: 1.4 and 2.5)
    /// (`roughly_laid_water_does_not_burst` in `tests/fluids/calm.rs`). Water laid at
    /// its rest density (the emitters' lattice, a nozzle's stream) reads no overlap,
    /// and a particle laid alone reads about 0.2: both step as before.
    pub(crate) fn settle_first_steps(&mut self, p: &mut Particles) {
        for f in self.fluids.iter_mut() {
            if !f.overlap {
                continue;
            }
            for k in 0..f.count as usize {
                if f.age[k] == 0.0 && f.first_ratio[k] >= SETTLE_IN_WATER {
                    p.velocity[f.first as usize + k] = f.first_velocity[k];
                }
            }
        }
    }

    /// End of a step: every live particle ages by `dt`; those past their fluid's
    /// lifetime or inside one of its kill volumes are removed, in particle order.
    pub(crate) fn retire(&mut self, p: &mut Particles, dt: f32) {
        let FluidSet {
            fluids,
            kill_volumes,
            ..
        } = self;
        for (slot, f) in fluids.items_mut().iter_mut().enumerate() {
            let Some(f) = f else {
                continue;
            };
            if f.count == 0 {
                continue;
            }
            for a in &mut f.age[..f.count as usize] {
                *a += dt;
            }
            let mine = |v: &&KillVolume| v.fluid == slot as u32;
            let killing = kill_volumes.iter().any(|v| mine(&v));
            let life = f.desc.lifetime;
            if life <= 0.0 && !killing {
                continue;
            }
            let mut k = 0;
            while k < f.count {
                let old = life > 0.0 && f.age[k as usize] >= life;
                let dies = old || {
                    killing && {
                        let x = p.position((f.first + k) as usize);
                        kill_volumes.iter().filter(mine).any(|v| v.desc.contains(x))
                    }
                };
                if dies {
                    f.remove(p, k);
                } else {
                    k += 1;
                }
            }
        }
    }

    /// Every fluid's mass and volume for a 3D or planar world, and its live
    /// particles' inverse masses (when the world switches dimension).
    pub(crate) fn set_planar(&mut self, p: &mut Particles, planar: bool) {
        for f in self.fluids.iter_mut() {
            let desc = f.desc;
            f.retune(p, desc, planar);
        }
    }
}
