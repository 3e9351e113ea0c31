//! Checked Gauss-Seidel sweeps: a constraint set's slots (the particles of each, in
//! storage order) with the block schedule and the plan that cut one sweep into the
//! stages and items of `Executor::stages`. A rebuild makes a new, unchecked sweep
//! ([`Sweep::new`]); [`Sweep::prepare`] checks it once, at the start of the first
//! step after the rebuild (the constraint stage's `begin_step`), however many
//! rebuilds came between two steps; [`Sweep::run`] refuses (panics on) a sweep not
//! checked, and hands each run of slots to the projection kernels ([`Run::distance`],
//! [`Run::tether`]) or to a family's own loop ([`Run::each`]) with no check per slot
//! and no `unsafe` in the families.
//!
//! What the check establishes (one pass over the slots, and over the particles the
//! plan was built for):
//!
//! * every particle index is below the bound that [`Sweep::run`] asserts its
//!   particle arrays reach;
//! * the slots of one run (a colour of a block, a shared colour or a piece of one)
//!   share no particle, as the SIMD kernels, which gather and scatter eight slots at
//!   once, need;
//! * the items of one stage touch disjoint particles (so, also disjoint slots): a
//!   block item of stage 0 only particles of its own block, which is also the range
//!   its fused particle pass writes; the items of a shared stage no particle of another
//!   item of that stage.
//!
//! These are properties of the slots, the schedule and the plan alone, which no method
//! changes after [`Sweep::new`] (the fields are private, the type is not `Clone`), so
//! the bound that [`Sweep::prepare`] records once the check has passed stays valid for
//! the sweep's life, in every build, release included. `Executor::stages` runs the items of one
//! stage at the same time only with each other, each once, and the stages in order,
//! so every particle and λ a run writes is its own while it runs.

use std::any::Any;
use std::cell::Cell;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use super::distance::{project_range, ParticleArrays, Slots};
#[cfg(target_arch = "x86_64")]
use super::distance_grid::{project_block, GridPlan};
#[cfg(target_arch = "x86_64")]
use super::predict::Boundary;
use super::tether::{self, TetherSlots};
use crate::error::{try_with_capacity, Result};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::solver::classes::{ParticleClasses, Phase, SlotClasses};
use crate::solver::parallel::{DisjointSlice, Executor, StagePlan};
use crate::solver::schedule::{Plan, Schedule};

/// A particle pass fused into a sweep's first stage: it updates the particles of the
/// rows it is given (hot record, base position, velocity; one length) and no other.
pub(crate) type Prologue<'a> = &'a (dyn Fn(&mut [Vec4], &mut [Vec3A], &mut [Vec3]) + Sync);

/// The slots of a constraint set over K particles with their Gauss-Seidel schedule
/// and plan, checked once by [`Self::prepare`] before its first run (see the module
/// doc). The slots cannot be changed: a rebuild makes a new one.
#[derive(Debug)]
pub(crate) struct Sweep<const K: usize> {
    /// The particles of each slot, in storage order.
    items: Vec<[u32; K]>,
    schedule: Schedule,
    plan: Plan,
    /// The particle count the schedule and plan were built for.
    built_for: usize,
    /// One past the largest particle index of `items`, once [`Self::check`] passed
    /// (set only by [`Self::prepare`]; a sweep with no plan has nothing to check and
    /// has it from the start); `None` before: a rebuild does not pay for it.
    /// [`Self::run`] refuses a sweep without it.
    bound: Option<usize>,
    /// Which sweep this is: unique to each one made (0 for the empty default), so that
    /// a plan built for its slots (`jacobi_plan::FusedPlan`) can tell it from another.
    id: u64,
    /// Room for the check's two marks per particle: reserved by [`Self::new`] (a
    /// rebuild allocates anyway; the step that checks must not) and freed by
    /// [`Self::prepare`] once it has run the check.
    marks: Vec<u32>,
}

/// No slots and no plan: nothing to check, nothing to run.
impl<const K: usize> Default for Sweep<K> {
    fn default() -> Self {
        Sweep {
            items: Vec::new(),
            schedule: Schedule::default(),
            plan: Plan::default(),
            built_for: 0,
            bound: Some(0),
            id: 0,
            marks: Vec::new(),
        }
    }
}

/// The id of the next sweep made.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl<const K: usize> Sweep<K> {
    /// Slots with no Gauss-Seidel schedule (the Jacobi storage order, or the raw slots
    /// of a snapshot being checked): [`Self::run`] runs nothing.
    pub(crate) fn unscheduled(items: Vec<[u32; K]>) -> Self {
        let bound = bound_of(&items);
        Sweep {
            items,
            bound: Some(bound),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            ..Sweep::default()
        }
    }

    /// The slots `items` (in the storage order of `schedule`) with the plan built for
    /// them over `built_for` particles, not yet checked: [`Self::prepare`] checks it
    /// before its first run (a set rebuilt many times between two steps, as when a
    /// game adds a thousand ropes one by one, is checked once). Reserves (without
    /// writing) the check's marks; fails only when out of memory for them.
    pub(crate) fn new(
        items: Vec<[u32; K]>,
        schedule: Schedule,
        plan: Plan,
        built_for: usize,
    ) -> Result<Self> {
        let marks = if plan.stages() == 0 {
            Vec::new()
        } else {
            try_with_capacity::<u32>(2 * built_for, "sweep check")?
        };
        Ok(Sweep {
            bound: None,
            items,
            schedule,
            plan,
            built_for,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            marks,
        })
    }

    /// Checks the sweep (see the module doc) unless it was already: called at the
    /// start of every step, it costs one test of a flag when the set did not change.
    /// Panics when the schedule or the plan breaks a rule of the module doc (a bug of
    /// their builders). Allocates nothing when the slots stay below the particle count
    /// the sweep was built for (every builder's case: the room was reserved by
    /// [`Self::new`]); fails only when out of memory for more (the sweep then stays
    /// unchecked, and [`Self::run`] refuses it).
    pub(crate) fn prepare(&mut self) -> Result<()> {
        if self.bound.is_none() {
            let bound = bound_of(&self.items);
            let mut marks = std::mem::take(&mut self.marks);
            self.check(bound, &mut marks)?;
            self.bound = Some(bound);
        }
        Ok(())
    }

    /// The particles of every slot, in storage order.
    #[inline]
    pub(crate) fn items(&self) -> &[[u32; K]] {
        &self.items
    }

    /// One past the largest particle index of the slots (0 for none). Panics unless
    /// the sweep was checked (an unscheduled one always is).
    pub(crate) fn bound(&self) -> usize {
        self.bound.expect("sweep: bound before Sweep::prepare")
    }

    /// Which sweep this is (unique to each one made; 0 for the empty default).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Brings `table`, the run classes of this sweep's slots, up to date with the
    /// particles' `classes` (None: every particle runs every substep, and the table is
    /// emptied): rebuilt only when the sweep or the classes changed since it was built.
    /// Fails only when out of memory (the table then keeps its runs).
    pub(crate) fn refresh_classes(
        &self,
        table: &mut SlotClasses,
        classes: Option<&ParticleClasses<'_>>,
    ) -> Result<()> {
        match classes {
            None => {
                if !table.is_empty() {
                    table.clear();
                }
                Ok(())
            }
            Some(c) if table.is_current(self.id, c.generation) => Ok(()),
            Some(c) => table.rebuild(&self.items, self.id, c),
        }
    }

    /// The Gauss-Seidel schedule.
    pub(crate) fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The slots each item of each stage of a sweep projects ([`Plan::item_slots`]).
    pub(crate) fn stage_work(&self) -> Vec<Vec<usize>> {
        self.plan.item_slots(&self.schedule)
    }

    /// See the module doc; `bound` is one past the slots' largest particle index. A
    /// stage-0 item owns the particles of its fused pass's range; a later item marks
    /// the particles it touches with its own tag, which no other item of the same
    /// stage may find.
    fn check(&self, bound: usize, marks: &mut Vec<u32>) -> Result<()> {
        let (plan, schedule, n) = (&self.plan, &self.schedule, self.built_for);
        let size = n.max(bound);
        if plan.stages() == 0 {
            return Ok(());
        }
        marks.clear();
        crate::error::try_reserve(marks, 2 * size, "sweep check")?;
        marks.resize(2 * size, 0);
        let (owner, seen) = marks.split_at_mut(size);
        // Stage 0 first marks the particle range of each of its items.
        for i in 0..plan.prologue_items(n, n) {
            for p in plan.prologue_range(i, n, n) {
                assert!(owner[p] == 0, "sweep: particle {p} in two fused ranges");
                owner[p] = 1 + i as u32;
            }
        }
        let mut run = 0u32;
        // One run of item tag `tag` of a stage whose first tag is `first`: `strict`
        // (stage 0) wants every particle in the item's own range.
        let mut check_run = |r: Range<usize>, tag: u32, first: u32, strict: bool| {
            run += 1;
            for item in &self.items[r] {
                for &p in item {
                    let p = p as usize;
                    let o = owner[p];
                    let mine = if strict {
                        o == tag
                    } else {
                        o < first || o == tag
                    };
                    assert!(mine, "sweep: particle {p} of two items of one stage");
                    assert!(seen[p] != run, "sweep: particle {p} twice in one run");
                    seen[p] = run;
                    owner[p] = tag;
                }
            }
        };
        // Stage 0: the block items' colours.
        for b in 0..plan.items(0) {
            for colour in schedule.block_colours(b) {
                check_run(colour, 1 + b as u32, 1, true);
            }
        }
        // The shared stages.
        let mut first = 1 + plan.prologue_items(n, n).max(plan.items(0)) as u32;
        for stage in 1..plan.stages() {
            for item in 0..plan.items(stage) {
                let tag = first + item as u32;
                plan.shared_item(schedule, stage, item, |r| check_run(r, tag, first, false));
            }
            first += plan.items(stage) as u32;
        }
        Ok(())
    }

    /// One Gauss-Seidel sweep: `exec.stages` over the plan (`threads` from
    /// `Executor::threads_for`), calling `f` on every run of slots in schedule order,
    /// the blocks' colours first. With a `prologue`, each item of the first stage runs
    /// it over its block's particles before the block's colours (their slots touch no
    /// other particle), and the first stage gets items for the particles no block
    /// holds (those beyond the particles the plan was built for included).
    ///
    /// With `active` (the set's [`SlotClasses`] and the substep), each run is cut
    /// into the pieces of slots that run in that substep ([`SlotClasses::split`]:
    /// pieces of a run, which share no particle either); without, every run is whole.
    ///
    /// With `block`, a family may project a whole block item of stage 0 (its colours in
    /// turn) itself: the hook is asked first, when every slot runs (no `active`
    /// classes); when it projects the block it has also run the particle pass (the
    /// family's, the one `prologue` runs) over the item's range ([`BlockRun::pass`]).
    /// When it declines, having touched nothing, the item's particle pass runs, then
    /// its runs go to `f`.
    ///
    /// Panics unless the sweep was checked ([`Self::prepare`]), the particle arrays
    /// have one length, reaching every particle of the slots, and `lambda` has one
    /// element per slot.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run<F>(
        &self,
        exec: &Executor,
        threads: usize,
        hot: &mut [Vec4],
        base: &mut [Vec3A],
        velocity: &mut [Vec3],
        lambda: &mut [f32],
        prologue: Option<Prologue<'_>>,
        active: Option<(&SlotClasses, Phase)>,
        block: Option<BlockHook<'_, K>>,
        f: F,
    ) where
        F: Fn(&Run<'_, K>) + Sync,
    {
        // The rules the runs' SAFETY comments cite hold only for a checked sweep.
        let bound = self
            .bound
            .expect("sweep: run before Sweep::prepare checked it");
        let n = hot.len();
        assert!(
            n >= bound && base.len() == n && velocity.len() == n,
            "sweep: particle arrays"
        );
        assert_eq!(lambda.len(), self.items.len(), "sweep: λ per slot");
        let (plan, schedule) = (&self.plan, &self.schedule);
        let hot = DisjointSlice::new(hot);
        let base = DisjointSlice::new(base);
        let velocity = DisjointSlice::new(velocity);
        let lambda = DisjointSlice::new(lambda);
        let blocks = plan.items.first().copied().unwrap_or(0);
        let item = |stage: usize, item: usize| {
            // The item's own handles, on its thread's stack, made once per item: a run
            // is then its range and a reference to them.
            let arrays = Arrays {
                items: &self.items,
                hot: hot.alias(),
                base: base.alias(),
                lambda: lambda.alias(),
                fused: prologue.is_some(),
            };
            let one = |range: Range<usize>| {
                f(&Run {
                    range,
                    arrays: &arrays,
                    _one_thread: PhantomData,
                })
            };
            let go = |range: Range<usize>| match active {
                None => one(range),
                Some((classes, phase)) => classes.split(range, phase, one),
            };
            if stage == 0 {
                let range = prologue.map(|_| plan.prologue_range(item, self.built_for, n));
                // The hook is asked first; when it projects the block, it has also run
                // the particle pass over the block's range (`BlockRun::pass`).
                let whole = item < blocks
                    && match (block, active) {
                        (Some(hook), None) => hook(&BlockRun {
                            item,
                            arrays: &arrays,
                            velocity: velocity.alias(),
                            pass: range.clone(),
                            _one_thread: PhantomData,
                        }),
                        _ => false,
                    };
                if whole {
                    return;
                }
                if let (Some(pass), Some(r)) = (prologue, range) {
                    // SAFETY: the range of item `item` of the first stage, which no
                    // other item of the stage touches (ranges checked disjoint, and
                    // every block item's slots inside its own range, by `check`, which
                    // passed: `bound` is set; the ranges beyond the particles the plan
                    // was built for hold no particle of a slot, all below `bound`);
                    // `slice_mut` checks the bounds. The rows die before the block's
                    // runs on this thread.
                    let rows = unsafe {
                        (
                            hot.slice_mut(r.clone()),
                            base.slice_mut(r.clone()),
                            velocity.slice_mut(r),
                        )
                    };
                    pass(rows.0, rows.1, rows.2);
                }
                if item < blocks {
                    for colour in schedule.block_colours(item) {
                        go(colour);
                    }
                }
            } else {
                plan.shared_item(schedule, stage, item, go);
            }
        };
        match prologue {
            None => exec.stages(threads, plan, item),
            Some(_) => {
                let items = plan.prologue_items(self.built_for, n);
                exec.stages(threads, &WithPrologue { plan, items }, item)
            }
        }
    }
}

/// One past the largest particle index of `items` (0 for none).
fn bound_of<const K: usize>(items: &[[u32; K]]) -> usize {
    items
        .iter()
        .flatten()
        .map(|&p| p as usize + 1)
        .max()
        .unwrap_or(0)
}

/// A sweep's plan with stage 0 grown by the items of a fused particle pass
/// ([`Plan::prologue_items`]).
struct WithPrologue<'a> {
    plan: &'a Plan,
    /// Items of stage 0.
    items: usize,
}

impl StagePlan for WithPrologue<'_> {
    fn stages(&self) -> usize {
        self.plan.stages()
    }
    fn items(&self, s: usize) -> usize {
        if s == 0 {
            self.items
        } else {
            self.plan.items(s)
        }
    }
}

/// A family's projection of a whole block item of a sweep's first stage
/// ([`Sweep::run`]): returns whether it projected the block's colours (and ran the
/// particle pass over [`BlockRun::pass`] first); when it returns false it has touched
/// nothing.
pub(crate) type BlockHook<'a, const K: usize> = &'a (dyn Fn(&BlockRun<'_, K>) -> bool + Sync);

/// A block item of a [`Sweep`]'s first stage, handed to a [`BlockHook`] while it is
/// this thread's alone: its particles (the block's) and its slots are touched by no
/// other item meanwhile. Not `Sync`.
pub(crate) struct BlockRun<'a, const K: usize> {
    /// The item: an entry of the schedule's `blocks`.
    item: usize,
    arrays: &'a Arrays<'a, K>,
    velocity: DisjointSlice<'a, Vec3>,
    /// The particles of the sweep's fused particle pass for this item, when the sweep
    /// has one: a hook that projects the block runs that pass over them first.
    pass: Option<Range<usize>>,
    _one_thread: PhantomData<Cell<()>>,
}

#[cfg(target_arch = "x86_64")]
impl BlockRun<'_, 2> {
    /// The grid kernel (`kernels::distance_grid::project_block`) over the block, when
    /// `plan` runs it (else false, and nothing ran), with its copy in `scratch` (each
    /// planned block's range its own) and the slots' values as [`Run::distance`].
    /// `pass`: the sweep's fused particle pass (the velocity update and predict at
    /// this boundary), which the kernel runs on the block's particles as it copies
    /// them in; it declines a sweep with a pass it was not given, or whose range is
    /// not the block's.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn distance_grid(
        &self,
        plan: &GridPlan,
        scratch: &DisjointSlice<'_, f32>,
        rest: &[f32],
        softness: &[f32],
        uniform: Option<f32>,
        fresh: bool,
        inv_h2: f32,
        pass: Option<&Boundary>,
    ) -> bool {
        if !plan.runs_block(self.item) {
            return false;
        }
        let pass = match (&self.pass, pass) {
            (None, _) => None,
            (Some(r), Some(s)) if *r == plan.particles_of(self.item) => Some(s),
            _ => return false,
        };
        let a = self.arrays;
        let slots = Slots::new(a.items, rest, softness, a.lambda.alias(), fresh)
            .with_uniform_softness(uniform, 0..softness.len());
        // SAFETY: the copy's range is this block item's alone (`GridPlan::scratch_of`:
        // disjoint ranges per planned block; one item per block runs at a time, once per
        // stage), and `slice_mut` checks its bounds.
        let copy = unsafe { scratch.slice_mut(plan.scratch_of(self.item)) };
        // SAFETY: the plan was made only where the CPU has AVX2; block item `item`
        // runs the kernel (checked above); the block's particles and its slots' λ are
        // this item's alone during stage 0, which the checked sweep guarantees
        // (`Sweep::check`: a block item's slots touch only its block's particles); the
        // plan's blocks lie below the particle count the sweep was built for, which
        // `run` asserted the arrays reach (velocities included); `slots` are the slots
        // the plan was made from; with a pass, the block's particles are the item's
        // pass range (checked above), this item's alone as well.
        unsafe {
            project_block(
                plan,
                self.item,
                &slots,
                a.hot.as_ptr(),
                a.base.as_ptr(),
                pass.map(|s| (s, self.velocity.as_ptr())),
                copy,
                inv_h2,
            )
        };
        true
    }
}

/// One run of slots of a [`Sweep`], handed to the caller's function by
/// [`Sweep::run`] while it is this thread's alone: its slots share no particle with
/// each other nor with any slot running at the same time. Not `Sync`: it stays on
/// the thread it was handed to.
pub(crate) struct Run<'a, const K: usize> {
    range: Range<usize>,
    arrays: &'a Arrays<'a, K>,
    _one_thread: PhantomData<Cell<()>>,
}

/// The arrays of a [`Sweep::run`], one copy per item of a stage, on the item's thread.
struct Arrays<'a, const K: usize> {
    items: &'a Vec<[u32; K]>,
    hot: DisjointSlice<'a, Vec4>,
    base: DisjointSlice<'a, Vec3A>,
    lambda: DisjointSlice<'a, f32>,
    /// A fused particle pass writes base positions of other blocks meanwhile.
    fused: bool,
}

impl<const K: usize> Run<'_, K> {
    /// The slots of the run.
    #[inline]
    pub(crate) fn range(&self) -> Range<usize> {
        self.range.clone()
    }

    /// The tether kernel (`kernels::tether`) over the first slots of the run, when the
    /// slots are pairs and no particle pass is fused into the sweep; returns the first
    /// slot it left for [`Self::each`] (the run's start when it ran none). Panics unless
    /// `rest` and `compliance` have one element per slot.
    #[inline]
    pub(crate) fn tether(&self, rest: &[f32], compliance: &[f32], inv_h2: f32) -> usize {
        let a = self.arrays;
        let pairs = (a.items as &dyn Any).downcast_ref::<Vec<[u32; 2]>>();
        let Some(pairs) = pairs.filter(|_| !a.fused) else {
            return self.range.start;
        };
        let slots = TetherSlots::new(pairs, rest, compliance, &a.lambda);
        // SAFETY: no particle pass is fused into this sweep, so nothing writes a base
        // position while it runs (`Sweep::run` holds the array exclusively).
        let base = unsafe { a.base.as_slice() };
        // SAFETY: the run's slots share no particle with each other nor with any slot
        // running meanwhile, and their particles are below `hot`'s length (`Sweep::run`
        // and `Sweep::check`); λ of these slots is this run's alone.
        unsafe { tether::project_range(self.range(), &slots, base, &a.hot, inv_h2) }
    }

    /// Slots `from..` of the run (`from` within it), one at a time: `f(s, particles,
    /// base, hot, λ)` gets slot `s`'s particle indices, their base positions and hot
    /// records and its λ, and returns the new hot records and λ, or None to leave them.
    #[inline]
    pub(crate) fn each<F>(&self, from: usize, mut f: F)
    where
        F: FnMut(usize, &[u32; K], [Vec3A; K], [Vec4; K], f32) -> Option<([Vec4; K], f32)>,
    {
        assert!(self.range.start <= from && from <= self.range.end);
        let a = self.arrays;
        for s in from..self.range.end {
            let idx = &a.items[s];
            // SAFETY: the particles of slot s are this run's alone while it runs (its
            // slots share none, and no slot running meanwhile touches them; a fused
            // pass writes only particles of no running slot), below the arrays' length;
            // λ of slot s likewise (`Sweep::run` and `Sweep::check`).
            unsafe {
                let b = std::array::from_fn(|k| a.base.get(idx[k] as usize));
                let p = std::array::from_fn(|k| a.hot.get(idx[k] as usize));
                if let Some((q, l)) = f(s, idx, b, p, a.lambda.get(s)) {
                    for k in 0..K {
                        a.hot.set(idx[k] as usize, q[k]);
                    }
                    a.lambda.set(s, l);
                }
            }
        }
    }
}

impl Run<'_, 2> {
    /// The distance kernel (`kernels::distance::project_range`) over the run, with the
    /// slots' rest lengths and softness (one element per slot, else it panics; `uniform`:
    /// the value every element of `softness` has, bit for bit, if they all do); `fresh`
    /// takes λ as 0.
    #[inline]
    pub(crate) fn distance(
        &self,
        rest: &[f32],
        softness: &[f32],
        uniform: Option<f32>,
        fresh: bool,
        inv_h2: f32,
    ) {
        let a = self.arrays;
        let slots = Slots::new(a.items, rest, softness, a.lambda.alias(), fresh)
            .with_uniform_softness(uniform, self.range());
        let particles = ParticleArrays::new(a.base.alias(), a.hot.alias());
        // SAFETY: the run's slots share no particle with each other nor with any slot
        // running meanwhile, and their particles are below the arrays' length
        // (`Sweep::run` and `Sweep::check`); λ of these slots is this run's alone.
        unsafe { project_range(self.range(), &slots, &particles, inv_h2) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::schedule;

    /// A chain and a cloth-like grid over `n` particles, with long links across
    /// blocks: interior, seam and scattered shared slots.
    fn scene(n: u32) -> Vec<[u32; 2]> {
        let mut items: Vec<[u32; 2]> = (0..n - 1).map(|i| [i, i + 1]).collect();
        items.extend((0..n - 64).step_by(3).map(|i| [i, i + 64]));
        items.extend((0..n / 2).step_by(97).map(|i| [i, n - 1 - i]));
        items
    }

    fn sweep_of(items: &[[u32; 2]], n: usize) -> Sweep<2> {
        let (slot_of, sched) = schedule::build(items, n).unwrap();
        let plan = Plan::new(&sched, items, &slot_of, n).unwrap();
        let mut stored = vec![[0; 2]; items.len()];
        for (&s, &item) in slot_of.iter().zip(items) {
            stored[s as usize] = item;
        }
        let mut sweep = Sweep::new(stored, sched, plan, n).unwrap();
        sweep.prepare().unwrap();
        sweep
    }

    /// A checked sweep on two threads runs every slot once and, fused, its particle
    /// pass over every particle once (those added after the build included).
    #[test]
    fn a_checked_sweep_runs_every_slot_and_particle_once() {
        let exec = Executor::new(2).unwrap();
        let n = 20_000usize;
        let items = scene(n as u32);
        let sweep = sweep_of(&items, n);
        assert!(sweep.schedule().blocks.len() > 1);
        let total = n + 5000;
        let mut hot = vec![Vec4::ZERO; total];
        let mut base = vec![Vec3A::ZERO; total];
        let mut velocity = vec![Vec3::ZERO; total];
        let mut lambda = vec![0.0f32; items.len()];
        let pass = |h: &mut [Vec4], b: &mut [Vec3A], v: &mut [Vec3]| {
            assert!(h.len() == b.len() && b.len() == v.len());
            h.iter_mut().for_each(|h| h.x += 1.0);
        };
        let pass: Prologue<'_> = &pass;
        for prologue in [None, Some(pass)] {
            let (h, b, v) = (&mut hot, &mut base, &mut velocity);
            sweep.run(
                &exec,
                2,
                h,
                b,
                v,
                &mut lambda,
                prologue,
                None,
                None,
                |run| {
                    run.each(run.range().start, |_, _, _, mut p, l| {
                        p.iter_mut().for_each(|p| p.y += 1.0);
                        Some((p, l + 1.0))
                    })
                },
            );
        }
        assert!(lambda.iter().all(|&l| l == 2.0));
        assert!(hot.iter().all(|h| h.x == 1.0));
        let mut touched = vec![0.0f32; total];
        for &[a, b] in &items {
            touched[a as usize] += 2.0;
            touched[b as usize] += 2.0;
        }
        assert!(hot.iter().zip(&touched).all(|(h, &t)| h.y == t));
    }

    /// A sweep not yet checked refuses to run.
    #[test]
    fn an_unchecked_sweep_refuses_to_run() {
        let exec = Executor::new(1).unwrap();
        let items = scene(2000);
        let (slot_of, sched) = schedule::build(&items, 2000).unwrap();
        let plan = Plan::new(&sched, &items, &slot_of, 2000).unwrap();
        let sweep = Sweep::new(items.clone(), sched, plan, 2000).unwrap();
        let mut hot = vec![Vec4::ZERO; 2000];
        let mut base = vec![Vec3A::ZERO; 2000];
        let mut velocity = vec![Vec3::ZERO; 2000];
        let mut lambda = vec![0.0f32; items.len()];
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let (h, b, v) = (&mut hot, &mut base, &mut velocity);
            sweep.run(&exec, 1, h, b, v, &mut lambda, None, None, None, |_| {})
        }));
        assert!(ran.is_err());
    }

    /// A schedule whose colour holds two slots on one particle is refused when the
    /// sweep is checked.
    #[test]
    fn a_colour_sharing_a_particle_is_refused() {
        let items = vec![[0u32, 1], [1, 2]];
        let sched = Schedule {
            blocks: vec![vec![0, 2]],
            shared: vec![2],
            block_ids: vec![0],
            block_size: schedule::block_size(4),
        };
        let plan = Plan::new(&sched, &items, &[0, 1], 4).unwrap();
        let mut sweep = Sweep::new(items, sched, plan, 4).unwrap();
        let checked = std::panic::catch_unwind(move || sweep.prepare());
        assert!(checked.is_err());
    }
}
