//! The step pipeline's vocabulary: the [`StepContext`] every stage reads (time step,
//! substep, iteration, the executor, the colliders), the named stages a subsystem
//! implements ([`Stage`]: `begin_step`, `begin_substep`, `project`, `end_substep`,
//! `end_step`), and the particle pass a stage may hand another to fuse into its sweep
//! ([`ParticlePass`]). The order in which the subsystems' stages run is one table,
//! `world::step` (ARCHITECTURE.md, "The step"); this module knows no subsystem above
//! collision. The integrator (predict and velocity update) is the stage of its own in
//! [`integrate`]; the collision stage is implemented here, over `crate::collision`.
//!
//! The design follows Box2D v3's `b2StepContext` and `b2SolverStageType`: one context
//! built once per step, stages that run in a fixed order, and a kernel-level fusion
//! (the velocity update and predict inside the first constraint sweep) that the
//! pipeline asks for rather than a protocol of flags between subsystems.

pub(crate) mod integrate;

use crate::collision::colliders::Colliders;
use crate::collision::Collision;
use crate::error::Result;
use crate::kernels::predict::{update_and_predict, Boundary};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::solver::parallel::{Executor, Rows};
use crate::solver::Solver;

/// What every stage of one step reads: built once per step by the pipeline, with the
/// substep and iteration filled in as they advance.
#[derive(Clone, Copy)]
pub(crate) struct StepContext<'a> {
    /// Step length (s).
    pub dt: f32,
    /// Substep length h = dt / substeps (s).
    pub h: f32,
    /// 1 / h² (1/s²).
    pub inv_h2: f32,
    /// Substeps per step.
    pub substeps: u32,
    /// The current substep, in 0..substeps (0 in `begin_step` and `end_step`).
    pub substep: u32,
    /// Solver iterations per substep.
    pub iterations: u32,
    /// The current iteration of the substep (0 outside `project`).
    pub iteration: u32,
    /// Gravity (m/s²).
    pub gravity: Vec3,
    /// Gauss-Seidel or Jacobi, for every constraint set.
    pub solver: Solver,
    /// Jacobi relaxation ω, dimensionless.
    pub relaxation: f32,
    /// Velocity factor of the world's damping per substep, exp(−damping h).
    pub damping_factor: f32,
    /// 2D worlds: all motion in the plane z = this value (m).
    pub planar: Option<f32>,
    /// The world's executor (its thread pool or the host's task system).
    pub exec: &'a Executor,
    /// Constraint projections of one iteration over every constraint set, from which
    /// the sets pick their thread count (`Executor::threads_for`).
    pub work: usize,
    /// The colliders and their contacts of this substep, lent to every stage but the
    /// collision stage's own (None there, and before the colliders are placed).
    pub colliders: Option<&'a Colliders>,
}

impl StepContext<'_> {
    /// Whether this is the first iteration of the substep.
    pub fn first_iteration(&self) -> bool {
        self.iteration == 0
    }

    /// Whether this is the last substep of the step.
    pub fn last_substep(&self) -> bool {
        self.substep + 1 == self.substeps
    }
}

/// The named stages of one step. Each subsystem implements the ones it needs (every
/// method has a default that does nothing); `world::step` runs them in its one fixed
/// order:
///
/// ```text
/// begin_step                               once, before the substeps
/// for each substep:
///   begin_substep
///   for each iteration: project
///   end_substep
/// end_step                                 once, after the substeps
/// ```
pub(crate) trait Stage {
    /// Start of a step.
    fn begin_step(&mut self, _particles: &mut Particles, _cx: &StepContext<'_>) -> Result<()> {
        Ok(())
    }

    /// Start of substep `cx.substep`.
    fn begin_substep(&mut self, _particles: &mut Particles, _cx: &StepContext<'_>) {}

    /// Iteration `cx.iteration` of the projection.
    fn project(&mut self, _particles: &mut Particles, _cx: &StepContext<'_>) {}

    /// End of substep `cx.substep`, after the velocity update.
    fn end_substep(&mut self, _particles: &mut Particles, _cx: &StepContext<'_>) {}

    /// End of a step.
    fn end_step(&mut self, _particles: &mut Particles, _cx: &StepContext<'_>) {}

    /// Projections of one iteration (for the choice of the parallel region).
    fn work(&self) -> usize {
        0
    }

    /// Whether the stage changes particles between the velocity update of one substep
    /// and the predict of the next (in its `end_substep`, or in a `begin_substep` that
    /// runs before the predict). When no stage does, the pipeline asks the integrator
    /// to run the two as one pass ([`integrate::Integrator::plan`]).
    fn moves_particles_between_substeps(&self) -> bool {
        false
    }
}

/// The particles of one range of a particle pass, as ordinary slices of one length
/// (element `j` is the range's `j`-th particle).
pub(crate) struct ParticleRows<'a> {
    pub hot: &'a mut [Vec4],
    pub base: &'a mut [Vec3A],
    pub velocity: &'a mut [Vec3],
}

/// The particle pass a stage hands another to fuse into its sweep: the velocity update
/// of one substep and the predict of the next
/// (`kernels::predict::update_and_predict`) at one substep boundary. Each particle is
/// computed on its own: run over ranges that cover every particle once (on any
/// threads, in any order), it gives the same bits however they are cut; [`run_pass`]
/// runs it on its own, a Gauss-Seidel sweep may run it block by block (the fused
/// sweep of the constraint stage: `kernels::sweep::Sweep::run` cuts the rows of each
/// block), and the grid kernel inside its copy of a block
/// (`kernels::distance_grid`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BetweenSubsteps {
    /// The constants of the substep boundary.
    pub boundary: Boundary,
}

impl BetweenSubsteps {
    /// Runs the pass over the particles of `rows` (and no other).
    pub(crate) fn run(&self, rows: ParticleRows<'_>) {
        update_and_predict(rows.hot, rows.base, rows.velocity, &self.boundary);
    }
}

/// The fused particle pass as the stages hand it on.
pub(crate) type ParticlePass<'a> = &'a BetweenSubsteps;

/// Runs `pass` over every particle as a pass of its own (the executor's chunks, as
/// for [`Executor::for_ranges_light`]).
pub(crate) fn run_pass(particles: &mut Particles, exec: &Executor, pass: ParticlePass<'_>) {
    let Particles {
        hot,
        base,
        velocity,
        ..
    } = particles;
    let parts = (
        Rows::new(&mut hot[..]),
        Rows::new(&mut base[..]),
        Rows::new(&mut velocity[..]),
    );
    exec.for_chunks_light(parts, |_, (hot, base, velocity)| {
        pass.run(ParticleRows {
            hot,
            base,
            velocity,
        })
    });
}

/// Collision: grabs, particle–particle contacts, collider contacts with friction and
/// restitution (`crate::collision`).
impl Stage for Collision {
    /// The colliders' velocities and the neighbour lists (grid sorted by cell).
    fn begin_step(&mut self, particles: &mut Particles, cx: &StepContext<'_>) -> Result<()> {
        Collision::begin_step(
            self,
            particles,
            cx.dt,
            cx.h,
            cx.iterations,
            cx.gravity,
            cx.exec,
        )
    }

    /// The speed limit, then the collider contacts along each particle's path.
    fn begin_substep(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        Collision::begin_substep(self, particles, cx.substep, cx.substeps, cx.h, cx.exec);
    }

    fn project(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        Collision::project(self, particles, cx.h, cx.exec);
    }

    /// Restitution and contact impulses.
    fn end_substep(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        Collision::end_substep(self, particles, cx.h, cx.gravity, cx.exec);
    }

    /// The contact readback.
    fn end_step(&mut self, particles: &mut Particles, _cx: &StepContext<'_>) {
        Collision::end_step(self, particles.len());
    }

    fn moves_particles_between_substeps(&self) -> bool {
        self.colliders.len() > 0
    }
}
