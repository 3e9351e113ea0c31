//! Position Based Fluids (Macklin & Müller, "Position Based Fluids", 2013) coupled
//! two-way with every solid particle that has a radius (Macklin et al., "Unified
//! Particle Physics for Real-Time Applications", 2014, section 7).
//!
//! A fluid owns a contiguous range of world particles reserved up front (`capacity`);
//! its live particles are always the first `count` of them, so emission never
//! allocates and never shifts the index of any other body (a removed particle's slot
//! takes the last live one's state).

pub mod desc;
pub(crate) mod emit;
pub(crate) use emit::SETTLE_OVERLAP;
pub mod grains;
mod grid;
pub(crate) mod jacobi;
pub(crate) mod render;
pub(crate) mod walls;

pub use desc::{EmitterDesc, EmitterShape, FluidDesc, KillVolumeDesc, KillVolumeShape};
pub use render::{
    AnisotropyDesc, DiffuseDesc, DiffuseKind, DiffuseParticle, DiffuseStats, FluidEllipsoid,
    FluidSurface, SurfaceCounts, SurfaceDesc,
};

/// A fluid's id: `(world serial << 44) | (generation << 24) | (slot + 1)` (20, 20 and
/// 24 bits, the layout of every id a world issues: [`crate::slots::WorldIds`]); 0 is
/// never issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FluidId(pub u64);

/// A generation-checked emitter id (same layout as [`FluidId`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EmitterId(pub u64);

/// A generation-checked kill-volume id (same layout as [`FluidId`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KillVolumeId(pub u64);

/// One live fluid particle as the readback sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FluidParticle {
    /// m (interpolated with the readback's alpha).
    pub position: Vec3,
    /// m/s
    pub velocity: Vec3,
    /// ρ/ρ₀ from the last density estimate (dimensionless; 1 = at rest density).
    pub density_ratio: f32,
}

/// Counters and figures of one fluid.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FluidStats {
    /// Live particles.
    pub count: u32,
    /// Reserved particles.
    pub capacity: u32,
    /// Particles emitted since the fluid was added (emitters and direct emission).
    pub emitted: u64,
    /// Particles removed since the fluid was added (kill volumes, lifetime, recycling,
    /// clears).
    pub removed: u64,
    /// Emissions skipped because the fluid was full.
    pub refused: u64,
    /// Mean and largest ρ/ρ₀ over the live particles after the last step (0 when
    /// empty).
    pub mean_density_ratio: f32,
    pub max_density_ratio: f32,
}

use crate::error::Result;
use crate::math::Vec3;
use crate::particles::Particles;
use crate::pipeline::{Stage, StepContext};
use crate::slots::{LowestFirst, SlotMap, WorldIds};

/// One fluid's state (owned by [`FluidSet`]). Its particles are
/// `first..first + capacity`; the live ones are `first..first + count`.
pub(crate) struct Fluid {
    pub desc: FluidDesc,
    /// First reserved world particle.
    pub first: u32,
    /// Live particles (the first `count` of the reserved ones).
    pub count: u32,
    /// Particle mass (kg): ρ₀·s³, or ρ₀·s² in a planar world.
    pub mass: f32,
    /// Particle rest volume (m³, or m² in a planar world): s³ or s².
    pub volume: f32,
    /// Seconds each reserved particle has lived (capacity entries).
    pub age: Vec<f32>,
    /// ρ/ρ₀ of each reserved particle from the last density estimate (capacity
    /// entries; written by the solver, read by the readback and the stats).
    pub density_ratio: Vec<f32>,
    /// The velocity (m/s) each reserved particle in its first step started the step
    /// with (capacity entries; scratch of one step, written and read only for the
    /// particles of age 0: [`FluidSet::settle_first_steps`]).
    pub first_velocity: Vec<Vec3>,
    /// ρ/ρ₀ of each reserved particle at the step's first density estimate (capacity
    /// entries; scratch of one step, written by the solver: the overlap
    /// [`FluidSet::settle_first_steps`] looks for).
    pub first_ratio: Vec<f32>,
    /// Whether a particle in its first step read an overlap at this step's first
    /// density estimate (scratch of one step: [`FluidSet::settle_first_steps`]).
    pub overlap: bool,
    /// Counters reported by `World::fluid_stats`.
    pub emitted: u64,
    pub removed: u64,
    pub refused: u64,
    /// Scratch of the emitters' recycling (the oldest particles' indices), with room
    /// for `capacity` entries reserved when the fluid is added: the step never
    /// allocates for it.
    pub scratch: Vec<u32>,
}

/// A fluid emitter's state: its stream (desc, carry, sequence, nozzle lattice: see
/// `emit::Stream`, which the grain emitters share) and its fluid.
pub(crate) struct Emitter {
    pub stream: emit::Stream,
    /// The slot of its fluid in [`FluidSet::fluids`].
    pub fluid: u32,
}

/// A kill volume and the slot of its fluid.
pub(crate) struct KillVolume {
    pub desc: KillVolumeDesc,
    pub fluid: u32,
}

/// Every fluid of a world, its emitters and kill volumes, and the density solver's
/// scratch: the fluid subsystem, a stage of the step pipeline of its own.
#[derive(Default)]
pub struct FluidSet {
    /// The world's ids (its serial) for fluids, emitters and kill volumes.
    pub(crate) ids: WorldIds,
    /// Fluid slots (None = removed; its particles stay inert, its slot may be reused
    /// with a new generation).
    pub(crate) fluids: SlotMap<Fluid, LowestFirst>,
    /// Emitters of every fluid, in emission order (slot order).
    pub(crate) emitters: SlotMap<Emitter, LowestFirst>,
    /// Grain emitters (`fluid::grains`), emitting after the fluid emitters, in
    /// slot order.
    pub(crate) grains: SlotMap<crate::fluid::grains::GrainEmitter, LowestFirst>,
    /// Kill volumes of every fluid.
    pub(crate) kill_volumes: SlotMap<KillVolume, LowestFirst>,
    /// The density solver: neighbour grid, λ, corrections (src/fluid/solver.rs).
    pub(crate) solver: solver::DensitySolver,
    /// The render outputs' buffers and state (src/fluid/render/).
    pub(crate) render: render::RenderState,
}

pub(crate) mod solver;

impl FluidSet {
    /// The live fluids.
    pub(crate) fn live(&self) -> impl Iterator<Item = &Fluid> {
        self.fluids.iter()
    }

    /// The live particles of each fluid with the margin by which the collider contact
    /// detection widens their reach (`Colliders::set_reach`): half the smoothing radius
    /// h. A particle is detected near a collider within twice the margin, h, of it, and
    /// while a collider moves the density correction moves a particle at most h over a
    /// substep (the solver limits each iteration's to h over the iterations).
    pub(crate) fn collider_margins(
        &self,
    ) -> impl Iterator<Item = (std::ops::Range<usize>, f32)> + '_ {
        self.live().map(|f| {
            let first = f.first as usize;
            (first..first + f.count as usize, 0.5 * f.desc.h())
        })
    }

    /// Whether any fluid has live particles (the step then runs the fluid passes).
    pub(crate) fn is_active(&self) -> bool {
        self.live().any(|f| f.count > 0)
    }
}

/// The fluid stage (ARCHITECTURE.md, "The step"): fluids enter the step only here.
/// The pipeline projects them between the two parts of the constraint registry
/// (`constraints::FLUID_SLOT`) and widens the colliders' reach by
/// [`FluidSet::collider_margins`] after the collision stage's `begin_step`.
impl Stage for FluidSet {
    /// The emitters' new particles (they take part in the whole step), then the
    /// solver's constants, its coupled solids and room (grown only when the world
    /// grew).
    fn begin_step(&mut self, particles: &mut Particles, cx: &StepContext<'_>) -> Result<()> {
        self.emit(particles, cx.planar, cx.gravity, cx.dt);
        self.record_first_steps(particles);
        let FluidSet { fluids, solver, .. } = self;
        solver.forget_forces_when_idle(fluids.items());
        solver.prepare(fluids.items(), particles, cx.planar)
    }

    /// The density constraints of every live fluid particle (the neighbour grid and
    /// the walls near each particle are built in the first iteration of a substep).
    fn project(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        let colliders = cx
            .colliders
            .expect("the pipeline lends the colliders to the fluid stage");
        let first = cx.first_iteration();
        self.solver.project(
            self.fluids.items_mut(),
            particles,
            first,
            cx.h,
            cx.iterations,
            colliders,
            cx.exec,
        );
    }

    /// Viscosity, vorticity, cohesion and adhesion (velocities).
    fn end_substep(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        self.solver
            .end_substep(self.fluids.items(), particles, cx.h, cx.gravity, cx.exec);
    }

    /// ρ/ρ₀ into each fluid (readback and stats), water laid into an overlap back at
    /// the velocity it started its first step with ([`FluidSet::settle_first_steps`]),
    /// the diffuse particles of the fluids that have them, then retirement: fluid
    /// particles age; those past their lifetime or in a kill volume are removed, in
    /// particle order.
    fn end_step(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        self.solver.end_step(self.fluids.items_mut());
        self.settle_first_steps(particles);
        if !self.render.diffuse.is_empty() && self.solver.is_active() {
            // Diffuse particles (src/fluid/render/diffuse.rs), while every live fluid
            // particle holds its slot of the grid; they grow a buffer only when the
            // world grew since they were set.
            let grid = self.solver.grid();
            if let Err(e) = self.render.step_diffuse(&self.fluids, &grid, particles, cx) {
                // Out of memory for a render output: the diffuse particles are dropped
                // rather than the step failed.
                let _ = e;
                self.render.diffuse.clear();
            }
        }
        if self.is_active() {
            self.retire(particles, cx.dt);
        }
    }

    /// Density constraints per iteration, counted by their neighbours.
    fn work(&self) -> usize {
        if self.solver.is_active() {
            self.solver.work(self.fluids.items())
        } else {
            0
        }
    }

    fn moves_particles_between_substeps(&self) -> bool {
        self.solver.is_active()
    }
}

impl FluidSet {
    /// Snapshot: the fluids, emitters and kill volumes, then the solver's state.
    pub(crate) fn save(&self, w: &mut crate::snapshot::codec::Writer<'_>) {
        self.save_fluids(w);
        self.solver.save(w);
    }

    /// Snapshot: replaces this (default) fluid set by the one [`Self::save`] wrote,
    /// checking every index against the particles of `cx`.
    pub(crate) fn load(
        &mut self,
        r: &mut crate::snapshot::codec::Reader<'_>,
        cx: &crate::snapshot::LoadContext<'_>,
    ) -> Result<()> {
        self.load_fluids(r, cx)?;
        self.solver.load(r, cx)
    }
}
