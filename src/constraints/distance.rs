//! Distance constraints, XPBD and PBD flavours in one set. The same set type holds the
//! host's distance constraints (`ConstraintSets::distance`) and the length links of
//! bodies (`ConstraintSets::link`: rope segments and bend links, cloth and soft-body
//! edges), so both run on the SIMD block kernel (`kernels::distance`).
//!
//! For particles a, b with positions x_a, x_b and rest length L:
//!
//! * C(x) = |x_a − x_b| − L
//! * ∇_a C = n, ∇_b C = −n, with n = (x_a − x_b) / |x_a − x_b|
//!
//! **XPBD** (Macklin, Müller, Chentanez 2016, eq. 17–18), compliance α in m/N
//! (0 = rigid), α̃ = α / h²:
//! Δλ = (−C − α̃ λ) / (w_a + w_b + α̃), Δx_a = +w_a n Δλ, Δx_b = −w_b n Δλ, λ += Δλ.
//!
//! **PBD** (Müller et al. 2007, section 3.3), stiffness k in [0, 1]: the same step with
//! α = 0, scaled by the per-iteration stiffness k' = 1 − (1 − k)^(1/n) for n solver
//! iterations, so that n iterations remove the fraction k of the error whatever n is.
//!
//! λ is reset at the start of each substep; the constraint force magnitude is
//! |λ| / h² (N) (for PBD constraints it is the equivalent force of the correction).
//! Degenerate pairs never produce NaN: coincident particles (no direction) and pairs
//! whose ends are both pinned (nothing can move; with α > 0 their Δλ = −C / α̃ alone
//! overflows `f32` for a stiff enough compliance) are skipped: their λ stays 0, so
//! they report no force.

use std::ops::Range;

use super::set::{
    force_of_lambda, pbd_per_iteration, remove_slots, ConstraintEdit, ConstraintSet, Iteration,
    Persist,
};
use crate::error::{check_nonzero, try_with_capacity, Error, Result};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::Particles;
use crate::pipeline::{ParticlePass, ParticleRows};
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;
use crate::solver::jacobi;
use crate::solver::parallel::{DisjointSlice, Executor};
use crate::solver::schedule::{self, Plan};
use crate::solver::Solver;

pub(crate) use crate::kernels::distance::{pack_softness, unpack_softness};
use crate::kernels::distance_grid::GridPlan;
use crate::kernels::distance_jacobi::JacobiSlots;
use crate::kernels::jacobi_plan::{self, FusedPlan};
use crate::kernels::sweep::Sweep;
#[cfg(target_arch = "x86_64")]
use crate::kernels::sweep::{BlockHook, BlockRun};
use crate::solver::classes::{ParticleClasses, Phase, SlotClasses};

pub use crate::limits::MAX_DISTANCE_CONSTRAINTS;

/// Largest compliance (m/N) accepted; softer links are indistinguishable from none.
pub const MAX_COMPLIANCE: f32 = crate::limits::MAX_COMPLIANCE;

/// Softness of a removed constraint: a PBD constraint of stiffness 0 (`-0.0`), which
/// moves nothing.
const REMOVED: f32 = -0.0;

/// Rest length marking a removed constraint (with softness [`REMOVED`]); a live
/// constraint's rest length is never negative, and a stiffness-0 constraint moves
/// nothing whatever its rest length.
const REMOVED_REST: f32 = -1.0;

/// One constraint to add (already validated by the world).
#[derive(Clone, Copy, Debug)]
pub(crate) struct NewDistance {
    pub pair: [u32; 2],
    /// m
    pub rest: f32,
    /// m/N (0 for PBD constraints)
    pub compliance: f32,
    /// per-iteration factor k' (1 for XPBD constraints)
    pub stiffness: f32,
}

impl From<super::nary::NewConstraint<f32, 2>> for NewDistance {
    /// A body link: XPBD, rest length in m, compliance in m/N.
    fn from(c: super::nary::NewConstraint<f32, 2>) -> Self {
        NewDistance {
            pair: c.particles,
            rest: c.rest,
            compliance: c.compliance,
            stiffness: 1.0,
        }
    }
}

/// Distance constraints stored in solve order: sorted by colour, then by id
/// (Gauss-Seidel), or by lower particle, then by id (Jacobi: `kernels::jacobi_plan::storage_order`).
#[derive(Default)]
pub struct DistanceConstraints {
    /// The particle pair of each slot; with the Gauss-Seidel phases (blocks of interior
    /// slots, then shared colours) and the plan that cuts them into the stages and
    /// items of one parallel sweep, checked at the first step after a rebuild
    /// (unscheduled for Jacobi).
    sweep: Sweep<2>,
    /// m
    rest: Vec<f32>,
    /// Both flavours in one number ([`pack_softness`]): an XPBD compliance α ≥ +0
    /// (m/N), or, with the sign bit set, a PBD constraint with per-iteration
    /// stiffness k' = −value (and α = 0).
    softness: Vec<f32>,
    /// The value every element of `softness` has (bit for bit), if they all have one:
    /// the kernel then streams no softness per slot. Cleared by every edit of
    /// `softness` ([`Self::mark_softness_edited`]) and found again at the next step's start.
    uniform_softness: Option<f32>,
    /// `softness` was edited since `uniform_softness` was last found.
    softness_edited: bool,
    /// N·s² (Lagrange multiplier of the current / last substep)
    lambda: Vec<f32>,
    /// constraint id → storage slot
    slot_of: Vec<u32>,
    /// Jacobi only: the scratch corrections of `FusedPlan`, and the averaging
    /// weight 1 / max(n_a, n_b) of each slot (n = constraints on the particle).
    corrections: Vec<Vec4>,
    jacobi_weight: Vec<f32>,
    /// The stages of a Jacobi iteration (projection fused with most of the gather),
    /// with the particle → slots adjacency.
    jacobi_plan: FusedPlan,
    /// The particle count the schedule and the adjacency were built for (see
    /// `NarySet`).
    built_for: u32,
    /// The runs of slots that do not run every substep (`solver::classes`; empty
    /// when every particle does).
    classes: SlotClasses,
    /// Gauss-Seidel only: the blocks laid out like a grid, which the grid kernel
    /// projects from a copy of their particles (`kernels::distance_grid`), and the room
    /// for those copies (allocated with the plan, never in a step).
    grid: GridPlan,
    grid_scratch: Vec<f32>,
}

impl DistanceConstraints {
    /// Number of constraints.
    pub fn len(&self) -> usize {
        self.sweep.items().len()
    }

    pub fn is_empty(&self) -> bool {
        self.sweep.items().is_empty()
    }

    /// Largest number of colours in one phase of a Gauss-Seidel sweep.
    pub fn colour_count(&self) -> usize {
        self.sweep.schedule().colour_count()
    }

    /// Number of particle blocks whose interior constraints run in parallel.
    pub fn block_count(&self) -> usize {
        self.sweep.schedule().blocks.len()
    }

    /// Number of constraints joining particles of different blocks.
    pub fn shared_count(&self) -> usize {
        self.len() - self.sweep.schedule().interior_len()
    }

    /// How a Gauss-Seidel sweep is cut for the threads: for each stage (the threads
    /// wait for every item of one stage before starting the next), the constraints each
    /// of its items projects. Stage 0 has one item per block; the later stages are the
    /// shared constraints. It depends on the scene only, never on the thread count.
    pub fn sweep_stage_work(&self) -> Vec<Vec<usize>> {
        self.sweep.stage_work()
    }

    /// Bytes of storage per constraint: the pair (8), rest length, softness, λ and
    /// the id → slot map (4 each). Jacobi worlds add 12 (averaging weight, two
    /// adjacency entries) and the corrections of the slots that join parallel items
    /// (`FusedPlan`).
    pub const BYTES_PER_CONSTRAINT: usize = 8 + 4 * 4;

    /// The particle pair of constraint `id`.
    pub fn pair(&self, id: usize) -> [u32; 2] {
        self.sweep.items()[self.slot_of[id] as usize]
    }

    /// The rest length (m) of constraint `id`.
    pub fn rest_length(&self, id: usize) -> f32 {
        self.rest[self.slot_of[id] as usize]
    }

    /// The particle pair of constraint `id` (as [`Self::pair`]; the name the other
    /// families use).
    pub fn particles_of(&self, id: usize) -> [u32; 2] {
        self.pair(id)
    }

    /// The rest length (m) of constraint `id` (as [`Self::rest_length`]).
    pub fn rest(&self, id: usize) -> f32 {
        self.rest_length(id)
    }

    /// Compliance (m/N) of XPBD constraint `id`; None once removed (and for PBD
    /// constraints, which have a stiffness instead).
    pub fn compliance(&self, id: usize) -> Option<f32> {
        let v = self.softness[self.slot_of[id] as usize];
        (!v.is_sign_negative()).then_some(v)
    }

    /// To call after any edit of `softness`: the slots may no longer share one value.
    fn mark_softness_edited(&mut self) {
        self.uniform_softness = None;
        self.softness_edited = true;
    }

    /// Finds `uniform_softness` again after edits (one pass over the slots).
    fn find_uniform_softness(&mut self) {
        self.uniform_softness = uniform_of(&self.softness);
        self.softness_edited = false;
    }

    /// Sets the compliance (m/N) of the live XPBD constraints among ids `ids`.
    pub(crate) fn set_compliance(&mut self, ids: Range<u32>, compliance: f32) {
        self.mark_softness_edited();
        for id in ids {
            let s = self.slot_of[id as usize] as usize;
            if !self.softness[s].is_sign_negative() {
                self.softness[s] = pack_softness(compliance, 1.0);
            }
        }
    }

    /// |λ| / h² (N) of constraint `id` for a last substep of length `h` (s).
    pub fn force(&self, id: usize, h: f32) -> f32 {
        force_of_lambda(self.lambda[self.slot_of[id] as usize], h)
    }

    /// A new set holding these constraints followed by `new` (ids continue), coloured
    /// and sorted; `jacobi` also builds the adjacency, over the particles whose hot
    /// data (displacement, inverse mass) is `hot` (it may include particles not yet in
    /// the world). `self` is left untouched, so a
    /// failure (out of memory) changes nothing.
    pub(crate) fn with_appended(
        &self,
        new: &[NewDistance],
        hot: &[Vec4],
        jacobi: bool,
    ) -> Result<Self> {
        const WHAT: &str = "distance constraints";
        if self.len() as u64 + new.len() as u64 > MAX_DISTANCE_CONSTRAINTS as u64 {
            return Err(Error::out_of_range(format!(
                "adding {} length constraints to {} would exceed the limit of {MAX_DISTANCE_CONSTRAINTS}",
                new.len(),
                self.len()
            )));
        }
        let m = self.len() + new.len();
        // Every constraint in id order, with its λ: the existing ones, then the new.
        let mut rows = try_with_capacity::<(NewDistance, f32)>(m, WHAT)?;
        rows.extend(self.slot_of.iter().map(|&slot| {
            let s = slot as usize;
            let row = NewDistance {
                pair: self.sweep.items()[s],
                rest: self.rest[s],
                compliance: unpack_softness(self.softness[s]).0,
                stiffness: unpack_softness(self.softness[s]).1,
            };
            (row, self.lambda[s])
        }));
        rows.extend(new.iter().map(|&n| (n, 0.0)));
        let mut items = try_with_capacity::<[u32; 2]>(m, WHAT)?;
        items.extend(rows.iter().map(|(r, _)| r.pair));
        let (slot_of, scheduled) = if jacobi {
            // Jacobi needs no colours: its own order (see `FusedPlan`).
            let order = jacobi_plan::storage_order(&items, hot.len())?;
            (order, None)
        } else {
            let (slot_of, schedule) = schedule::build(&items, hot.len())?;
            let plan = Plan::new(&schedule, &items, &slot_of, hot.len())?;
            (slot_of, Some((schedule, plan)))
        };
        drop(items);
        // The pairs in slot order, scattered with the other slot arrays in one pass.
        let mut pairs = try_with_capacity::<[u32; 2]>(m, WHAT)?;
        pairs.resize(m, [0, 0]);
        let mut out = DistanceConstraints {
            rest: try_with_capacity(m, WHAT)?,
            softness: try_with_capacity(m, WHAT)?,
            lambda: try_with_capacity(m, WHAT)?,
            slot_of,
            built_for: hot.len() as u32,
            ..Default::default()
        };
        out.rest.resize(m, 0.0);
        out.softness.resize(m, 0.0);
        out.lambda.resize(m, 0.0);
        for (&slot, (row, lambda)) in out.slot_of.iter().zip(&rows) {
            let s = slot as usize;
            pairs[s] = row.pair;
            out.rest[s] = row.rest;
            out.softness[s] = pack_softness(row.compliance, row.stiffness);
            out.lambda[s] = *lambda;
        }
        out.find_uniform_softness();
        out.sweep = match scheduled {
            Some((schedule, plan)) => {
                out.grid = GridPlan::new(&pairs, &schedule, hot.len())?;
                out.grid_scratch = try_with_capacity(out.grid.scratch_len(), WHAT)?;
                out.grid_scratch.resize(out.grid.scratch_len(), 0.0);
                Sweep::new(pairs, schedule, plan, hot.len())?
            }
            None => Sweep::unscheduled(pairs),
        };
        out.prepare_jacobi(hot, jacobi)?;
        Ok(out)
    }

    /// Builds (or drops) the Jacobi adjacency, correction buffer and weights over the
    /// particles in `hot`, so that `step` never allocates. Particles added later have
    /// no constraints of this set (adding constraints rebuilds it), so they need no
    /// adjacency: the gather pass covers only the particles the adjacency knows.
    pub(crate) fn prepare_jacobi(&mut self, hot: &[Vec4], jacobi: bool) -> Result<()> {
        if !jacobi {
            self.corrections = Vec::new();
            self.jacobi_weight = Vec::new();
            self.jacobi_plan = FusedPlan::default();
            return Ok(());
        }
        let plan = FusedPlan::new(&self.sweep, hot.len())?;
        let (_, weight) = jacobi::buffers(0, self.len())?;
        let mut corrections = try_with_capacity::<Vec4>(plan.scratch_len(), "Jacobi corrections")?;
        corrections.resize(plan.scratch_len(), Vec4::ZERO);
        self.corrections = corrections;
        self.jacobi_weight = weight;
        self.jacobi_plan = plan;
        self.update_jacobi_weights(hot);
        Ok(())
    }

    /// Recomputes the Jacobi averaging weights in place: 1 / max(n_a, n_b) over the
    /// ends that can move (a pinned end takes no correction, so the constraints on it do
    /// not slow the others down). Called when inverse masses change; no allocation.
    pub(crate) fn update_jacobi_weights(&mut self, hot: &[Vec4]) {
        if self.jacobi_weight.len() != self.len() {
            return; // not prepared for Jacobi
        }
        for (weight, &[a, b]) in self.jacobi_weight.iter_mut().zip(self.sweep.items()) {
            let moving = |p: u32| {
                if hot[p as usize].w > 0.0 {
                    self.jacobi_plan.degree(p as usize)
                } else {
                    0
                }
            };
            *weight = 1.0 / moving(a).max(moving(b)).max(1) as f32;
        }
    }

    /// One Gauss-Seidel sweep: colours in order, each colour in parallel.
    ///
    /// `fresh`: the first sweep of a substep, which starts every λ from 0 (so
    /// Gauss-Seidel needs no λ reset). `prologue`: a particle pass over every particle
    /// to run first (see [`ConstraintSet::project_fused`]): each block item of
    /// stage 0 runs it over its block's particles before the block's colours (its
    /// interior constraints touch no other particle), and stage 0 gets items for the
    /// particles no block holds; the shared colours come after the whole stage.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn solve_gauss_seidel(
        &mut self,
        particles: &mut Particles,
        inv_h2: f32,
        fresh: bool,
        exec: &Executor,
        threads: usize,
        prologue: Option<ParticlePass<'_>>,
        phase: Phase,
    ) {
        let (rest, softness, uniform) = (&self.rest, &self.softness, self.uniform_softness);
        let active = (!self.classes.is_empty()).then_some((&self.classes, phase));
        let Particles {
            hot,
            base,
            velocity,
            ..
        } = particles;
        // The fused particle pass, over a block's rows (`Sweep::run`), or inside the
        // grid kernel's copy of a block.
        #[cfg(target_arch = "x86_64")]
        let boundary = prologue.map(|p| &p.boundary);
        let rows = prologue.map(row_pass);
        let rows = rows.as_ref().map(|f| f as _);
        // The blocks laid out like a grid run the grid kernel (`kernels::distance_grid`).
        #[cfg(target_arch = "x86_64")]
        let (grid, scratch) = (&self.grid, DisjointSlice::new(&mut self.grid_scratch));
        #[cfg(target_arch = "x86_64")]
        let hook = |b: &BlockRun<'_, 2>| {
            b.distance_grid(
                grid, &scratch, rest, softness, uniform, fresh, inv_h2, boundary,
            )
        };
        #[cfg(target_arch = "x86_64")]
        let block: Option<BlockHook<'_, 2>> = Some(&hook);
        #[cfg(not(target_arch = "x86_64"))]
        let block = None;
        // One parallel region for the whole sweep (see `schedule::Plan`): the blocks'
        // interior colours, then the shared colours, large ones cut between threads.
        // The thread count follows the work (`Executor::threads_for`).
        self.sweep.run(
            exec,
            threads,
            hot,
            base,
            velocity,
            &mut self.lambda,
            rows,
            active,
            block,
            |run| run.distance(rest, softness, uniform, fresh, inv_h2),
        );
    }

    /// One Jacobi iteration: every constraint is projected from the same positions,
    /// then each particle gathers the corrections of its constraints.
    ///
    /// Averaging: constraint j's Δλ (and so its correction) is scaled by
    /// ω / max(n_a, n_b), where n is the number of constraints on a particle and ω the
    /// relaxation. A particle's total move is then at most ω × the average of its
    /// constraints' corrections (stable for any iteration count), and λ accumulates
    /// exactly the Δλ that was applied, so compliance keeps its meaning in XPBD.
    ///
    /// `fresh`: the first iteration of a substep, which starts every λ from 0.
    /// `epilogue`: a particle pass over every particle to run after the iteration,
    /// each particle as soon as it is gathered (`FusedPlan::iterate`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn solve_jacobi(
        &mut self,
        particles: &mut Particles,
        inv_h2: f32,
        relaxation: f32,
        fresh: bool,
        exec: &Executor,
        threads: usize,
        epilogue: Option<ParticlePass<'_>>,
    ) {
        let slots = JacobiSlots::new(
            self.sweep.items(),
            &self.rest,
            &self.softness,
            self.uniform_softness,
            &self.jacobi_weight,
            DisjointSlice::new(&mut self.lambda),
            fresh,
            inv_h2,
            relaxation,
        );
        let Particles {
            base,
            hot,
            velocity,
            ..
        } = particles;
        // The fused particle pass, over the rows of a run of gathered particles.
        let rows = epilogue.map(row_pass);
        let rows = rows.as_ref().map(|f| f as _);
        // One parallel region in two stages (see `FusedPlan`): the projection of every
        // slot, each item then gathering the particles only its slots touch; then the
        // gather of the others.
        self.jacobi_plan.iterate(
            exec,
            threads,
            &self.sweep,
            &slots,
            base,
            hot,
            velocity,
            &mut self.corrections,
            rows,
        );
    }

    /// Jacobi only: the last iteration of a substep with the particle pass `epilogue`
    /// fused into its gather (each particle runs it once gathered), when the set has
    /// constraints. Returns whether it ran (else it did nothing).
    pub(crate) fn project_jacobi_epilogue(
        &mut self,
        particles: &mut Particles,
        it: &Iteration<'_>,
        epilogue: ParticlePass<'_>,
    ) -> bool {
        if it.solver != Solver::Jacobi || self.is_empty() {
            return false;
        }
        self.solve(particles, it, Some(epilogue));
        true
    }

    /// One iteration with `it`'s solver, the particle pass `pass` fused in where
    /// given: the Gauss-Seidel sweep's prologue (block by block in its first stage) or
    /// the Jacobi gather's epilogue (each particle once gathered).
    fn solve(
        &mut self,
        particles: &mut Particles,
        it: &Iteration<'_>,
        pass: Option<ParticlePass<'_>>,
    ) {
        let threads = it.exec.threads_for(self.len(), it.work);
        match it.solver {
            Solver::GaussSeidel => self.solve_gauss_seidel(
                particles, it.inv_h2, it.first, it.exec, threads, pass, it.phase,
            ),
            Solver::Jacobi => self.solve_jacobi(
                particles,
                it.inv_h2,
                it.relaxation,
                it.first,
                it.exec,
                threads,
                pass,
            ),
        }
    }
}

impl ConstraintSet for DistanceConstraints {
    fn count(&self) -> usize {
        self.len()
    }

    /// Checks the Gauss-Seidel sweep once after a rebuild (`Sweep::prepare`), and
    /// looks again for one softness shared by every slot after edits.
    fn begin_step(&mut self) -> Result<()> {
        if self.softness_edited {
            self.find_uniform_softness();
        }
        self.sweep.prepare()
    }

    fn refresh_classes(&mut self, classes: Option<&ParticleClasses<'_>>) -> Result<()> {
        self.sweep.refresh_classes(&mut self.classes, classes)
    }

    /// Both solvers' first iteration of a substep starts λ from 0 itself (`fresh`).
    fn begin_substep(&mut self, _s: u32, _n: u32, _solver: Solver) {}

    fn project(&mut self, particles: &mut Particles, it: &Iteration<'_>) {
        self.solve(particles, it, None);
    }

    /// Gauss-Seidel only: the pass runs block by block in the sweep's first stage.
    fn project_fused(
        &mut self,
        particles: &mut Particles,
        it: &Iteration<'_>,
        prologue: ParticlePass<'_>,
    ) -> bool {
        if it.solver != Solver::GaussSeidel || self.is_empty() {
            return false;
        }
        self.solve(particles, it, Some(prologue));
        true
    }

    fn update_jacobi_weights(&mut self, hot: &[Vec4]) {
        DistanceConstraints::update_jacobi_weights(self, hot);
    }

    fn colour_count(&self) -> usize {
        DistanceConstraints::colour_count(self)
    }
}

impl ConstraintEdit for DistanceConstraints {
    fn force(&self, id: usize, h: f32) -> f32 {
        DistanceConstraints::force(self, id, h)
    }

    /// Removes constraints `ids`: they keep their ids and stop acting (stored as PBD
    /// constraints of stiffness 0, which move nothing), and report 0 force.
    fn remove(&mut self, ids: Range<u32>) {
        self.mark_softness_edited();
        for id in ids.clone() {
            self.rest[self.slot_of[id as usize] as usize] = REMOVED_REST;
        }
        remove_slots(
            ids,
            &self.slot_of,
            &mut self.softness,
            REMOVED,
            &mut self.lambda,
        );
    }

    fn is_removed(&self, id: usize) -> bool {
        let s = self.slot_of[id] as usize;
        self.softness[s].to_bits() == REMOVED.to_bits() && self.rest[s] == REMOVED_REST
    }

    fn rest_value(&self, id: usize) -> Option<f32> {
        Some(self.rest_length(id))
    }

    fn rest_unit(&self) -> Option<&'static str> {
        Some("rest length (m)")
    }

    fn check_rest(&self, _id: usize, value: f32, what: &str) -> Result<()> {
        crate::limits::check_length(what, value, false)
    }

    fn edit_rest(&mut self, id: usize, value: f32) {
        self.rest[self.slot_of[id] as usize] = value;
    }

    fn compliance_unit(&self) -> Option<&'static str> {
        Some("m/N")
    }

    /// Makes live constraint `id` an XPBD constraint of compliance α (m/N), whichever
    /// flavour it was.
    fn edit_compliance(&mut self, id: usize, compliance: f32) {
        self.mark_softness_edited();
        self.softness[self.slot_of[id] as usize] = pack_softness(compliance, 1.0);
    }

    fn locate(&self, id: usize, particles: &Particles) -> Option<(u32, Vec3)> {
        Some(super::set::mean_position(&self.pair(id), particles))
    }

    /// Any distance constraint takes a stiffness too (it becomes a PBD constraint).
    fn check_stiffness_of(&self, _id: usize) -> Result<()> {
        Ok(())
    }

    /// Makes live constraint `id` a PBD constraint of stiffness k (per substep, for
    /// `iterations` iterations: k' = 1 − (1 − k)^(1/n)), whichever flavour it was.
    fn edit_stiffness(&mut self, id: usize, stiffness: f32, iterations: u32) {
        let per_iteration = pbd_per_iteration(stiffness, iterations);
        self.mark_softness_edited();
        self.softness[self.slot_of[id] as usize] = pack_softness(0.0, per_iteration);
    }
}

impl Persist for DistanceConstraints {
    /// As `NarySet`: slot order, λ, the id → slot map; the schedule is rebuilt.
    fn save(&self, w: &mut Writer<'_>) {
        w.put(self.built_for);
        w.put_block(self.sweep.items());
        w.put_block_raw(&self.rest);
        w.put_block_raw(&self.softness);
        w.put_block_raw(&self.lambda);
        w.put_block_raw(&self.slot_of);
    }

    fn load(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<()> {
        const WHAT: &str = "distance constraint";
        let built_for = r.get::<u32>()?;
        let pairs = r.get_block::<[u32; 2]>()?;
        let m = pairs.len();
        let raw = DistanceConstraints {
            rest: r.get_block_raw(m)?,
            softness: r.get_block_raw(m)?,
            lambda: r.get_block_raw(m)?,
            slot_of: r.get_block_raw(m)?,
            sweep: Sweep::unscheduled(pairs),
            built_for,
            ..Default::default()
        };
        if m == 0 && built_for == 0 {
            *self = raw;
            return Ok(());
        }
        let n = codec::built_for(built_for, cx.hot.len(), WHAT)?;
        codec::check_elements(raw.sweep.items(), n, WHAT)?;
        codec::check_permutation(&raw.slot_of, WHAT)?;
        codec::check_finite(raw.softness.iter().copied(), WHAT)?;
        codec::check_finite(raw.lambda.iter().copied(), WHAT)?;
        // Rest lengths as the API leaves them: finite and >= 0, or a removed
        // constraint's marker (with the removed softness).
        for (s, (&l, &k)) in raw.rest.iter().zip(&raw.softness).enumerate() {
            let removed = l == REMOVED_REST && k.to_bits() == REMOVED.to_bits();
            codec::ensure(removed || (l.is_finite() && l >= 0.0), || {
                format!("{WHAT} slot {s} has the rest length {l} m")
            })?;
        }
        let mut set = raw.with_appended(&[], &cx.hot[..n], cx.jacobi)?;
        codec::ensure(set.slot_of == raw.slot_of, || {
            "the distance constraint order does not match its rebuild".to_string()
        })?;
        set.softness = raw.softness;
        set.find_uniform_softness();
        set.lambda = raw.lambda;
        *self = set;
        Ok(())
    }
}

/// The value every element of `values` has, bit for bit (None for none, or when two
/// differ).
fn uniform_of(values: &[f32]) -> Option<f32> {
    let first = *values.first()?;
    values
        .iter()
        .all(|v| v.to_bits() == first.to_bits())
        .then_some(first)
}

/// Checks a batch of distance constraints before anything is added; `rest` None means
/// "current distance". Returns the constraints to add.
pub(crate) fn validate(
    particles: &Particles,
    existing: usize,
    pairs: &[[u32; 2]],
    rest: Option<&[f32]>,
    compliance: f32,
    stiffness: f32,
) -> Result<Vec<NewDistance>> {
    let count = pairs.len();
    check_nonzero(count, "constraint")?;
    if existing as u64 + count as u64 > MAX_DISTANCE_CONSTRAINTS as u64 {
        return Err(Error::out_of_range(format!(
            "adding {count} distance constraints to {existing} would exceed the limit of {MAX_DISTANCE_CONSTRAINTS}"
        )));
    }
    if let Some(r) = rest {
        if r.len() != count {
            return Err(Error::invalid(format!(
                "{} rest lengths for {count} constraints",
                r.len()
            )));
        }
    }
    let n = particles.len();
    let mut out = try_with_capacity::<NewDistance>(count, "distance constraints")?;
    for (j, &[a, b]) in pairs.iter().enumerate() {
        if a as usize >= n || b as usize >= n {
            return Err(Error::out_of_range(format!(
                "constraint {j}: particle pair ({a}, {b}) is out of range (the world has {n} particles)"
            )));
        }
        if a == b {
            return Err(Error::invalid(format!(
                "constraint {j}: particle pair ({a}, {a}) joins a particle to itself"
            )));
        }
        let rest = match rest {
            Some(r) => {
                let l = r[j];
                crate::limits::check_length(&format!("constraint {j}: rest length"), l, false)?;
                l
            }
            None => particles
                .position(a as usize)
                .distance(particles.position(b as usize)),
        };
        out.push(NewDistance {
            pair: [a, b],
            rest,
            compliance,
            stiffness,
        });
    }
    Ok(out)
}

/// A particle pass as the kernels take it (`kernels::sweep::Prologue`: the rows'
/// three slices), for a fused sweep or gather.
fn row_pass(pass: ParticlePass<'_>) -> impl Fn(&mut [Vec4], &mut [Vec3A], &mut [Vec3]) + Sync + '_ {
    move |hot, base, velocity| {
        pass.run(ParticleRows {
            hot,
            base,
            velocity,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cloth of `n` × `n` particles (structural, shear and bending links, as the
    /// benchmark's), moved off its rest shape by a fixed hash, two corners pinned.
    fn cloth(n: u32) -> (Particles, Vec<NewDistance>) {
        let mut particles = Particles::default();
        let hash = |i: u32, k: u32| {
            let mut v = i.wrapping_mul(2654435761) ^ k.wrapping_mul(40503);
            v ^= v >> 13;
            v = v.wrapping_mul(0x5bd1e995);
            v ^= v >> 15;
            (v % 10_000) as f32 / 10_000.0 - 0.5
        };
        let s = 1.0 / (n - 1) as f32;
        for i in 0..n * n {
            let (row, col) = (i / n, i % n);
            let p = Vec3::new(
                col as f32 * s + 0.2 * s * hash(i, 1),
                0.3 * s * hash(i, 2),
                row as f32 * s + 0.2 * s * hash(i, 3),
            );
            let pinned = row == 0 && (col == 0 || col == n - 1);
            particles.push(p, if pinned { 0.0 } else { 1.0 + 0.5 * hash(i, 4) });
        }
        let [stretch, shear, bend] = crate::scenes::cloth_pairs(n, 0);
        let pairs = [stretch, shear, bend].concat();
        let new = pairs
            .iter()
            .enumerate()
            .map(|(k, &pair)| NewDistance {
                pair,
                rest: s * (1.0 + 0.01 * (k % 7) as f32),
                compliance: 0.0,
                stiffness: 1.0,
            })
            .collect();
        (particles, new)
    }

    /// Four sweeps (two substeps of two iterations, the second substep's first sweep
    /// with the velocity update and predict fused in) of a cloth with the grid kernel
    /// and without it: the hot records, λ, base positions and velocities, as bits.
    /// `grid`: None without the grid kernel, else whether it runs its wide build
    /// (AVX-512VL's registers).
    fn sweeps(grid: Option<bool>, soft: bool, threads: usize) -> (Vec<[u32; 4]>, Vec<u32>) {
        // 127 × 127: the last block's particle count is not a multiple of eight.
        let (mut particles, mut new) = cloth(127);
        if soft {
            for (k, c) in new.iter_mut().enumerate() {
                match k % 3 {
                    0 => c.compliance = 1e-6,
                    1 => c.stiffness = 0.7,
                    _ => {}
                }
            }
        }
        let mut set = DistanceConstraints::default()
            .with_appended(&new, &particles.hot, false)
            .unwrap();
        set.begin_step().unwrap();
        match grid {
            Some(wide) => {
                assert!(
                    set.grid.coverage().0 > set.len() / 2,
                    "the cloth runs the grid kernel"
                );
                set.grid.set_wide(wide);
            }
            None => set.grid = GridPlan::default(),
        }
        let exec = Executor::new(threads as u32).unwrap();
        let phase = Phase {
            substep: 0,
            substeps: 1,
        };
        let between = crate::pipeline::BetweenSubsteps {
            boundary: crate::kernels::predict::Boundary {
                h: 1.0 / 60.0,
                inv_h: 60.0,
                damping: 0.99,
                dv: Vec3A::new(0.0, -9.81 / 60.0, 0.0),
            },
        };
        for it in 0..4 {
            set.solve_gauss_seidel(
                &mut particles,
                3600.0,
                it % 2 == 0,
                &exec,
                threads,
                (it == 2).then_some(&between),
                phase,
            );
        }
        let bits = |v: [f32; 3]| v.map(f32::to_bits);
        (
            particles
                .hot
                .iter()
                .map(|h| h.to_array().map(f32::to_bits))
                .chain(particles.base.iter().map(|b| {
                    let [x, y, z] = bits(b.to_array());
                    [x, y, z, 0]
                }))
                .chain(particles.velocity.iter().map(|v| {
                    let [x, y, z] = bits(v.to_array());
                    [x, y, z, 0]
                }))
                .collect(),
            set.lambda.iter().map(|l| l.to_bits()).collect(),
        )
    }

    /// The grid kernel projects a cloth to the same bits as the other kernels, rigid
    /// or soft (XPBD and PBD links), fresh and not, on one and two threads, in its AVX2
    /// build and, where the CPU has AVX-512VL, its wide one.
    #[test]
    fn the_grid_kernel_gives_the_other_kernels_bits() {
        if !crate::kernels::simd::avx2_available() {
            return;
        }
        let builds: &[bool] = if crate::kernels::simd::avx512vl_available() {
            &[false, true]
        } else {
            &[false]
        };
        for soft in [false, true] {
            let reference = sweeps(None, soft, 1);
            for (&wide, threads) in builds.iter().flat_map(|w| [(w, 1), (w, 2)]) {
                let grid = sweeps(Some(wide), soft, threads);
                assert!(
                    grid.0 == reference.0,
                    "positions or velocities differ (soft {soft}, wide {wide}, {threads} threads)"
                );
                assert!(
                    grid.1 == reference.1,
                    "λ differs (soft {soft}, wide {wide}, {threads} threads)"
                );
            }
        }
    }
}
