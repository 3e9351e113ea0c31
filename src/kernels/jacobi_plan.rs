//! The fused schedule of the Jacobi distance kernels ([`FusedPlan`]): the storage
//! order of a Jacobi distance set, and how one iteration runs as two stages of
//! `Executor::stages`, most particles gathered by the item that projected their slots.

use std::sync::atomic::{AtomicU64, Ordering};

use super::distance_jacobi::{apply, project_range, JacobiSlots};
use super::sweep::{Prologue, Sweep};
use crate::error::{try_with_capacity, Result};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::solver::jacobi::Adjacency;
use crate::solver::parallel::{DisjointSlice, Executor};

/// The storage order of a Jacobi distance set (`slot_of`, id → slot): slots sorted by
/// the lower of their two particle indices, then by id. The slots of a particle's
/// lower end are then consecutive, and its other slots come from particles a little
/// before it (for meshes numbered row by row, within a few rows), which is what
/// [`FusedPlan`] needs.
pub(crate) fn storage_order(items: &[[u32; 2]], particle_count: usize) -> Result<Vec<u32>> {
    const WHAT: &str = "Jacobi constraint order";
    let mut next = try_with_capacity::<u32>(particle_count + 1, WHAT)?;
    next.resize(particle_count + 1, 0);
    for &[a, b] in items {
        next[a.min(b) as usize + 1] += 1;
    }
    for i in 0..particle_count {
        next[i + 1] += next[i];
    }
    let mut slot_of = try_with_capacity::<u32>(items.len(), WHAT)?;
    for &[a, b] in items {
        let low = a.min(b) as usize;
        slot_of.push(next[low]);
        next[low] += 1;
    }
    Ok(slot_of)
}

/// Slots per stage-0 item of a [`FusedPlan`] at least (cut at particle boundaries).
pub(crate) const ITEM_MIN_SLOTS: usize = 16384;
/// Stage-0 items a [`FusedPlan`] aims at, so that two to four threads have several
/// each to balance.
pub(crate) const ITEM_AIM: usize = 8;
/// Slots projected before the particles they complete are gathered; the steps of an
/// item end at multiples of it (a power of two, a multiple of the AVX kernel's
/// 16-slot step).
const STEP: usize = 256;
/// Largest ring of corrections per item, in slots (256 KB): a particle whose slots
/// span more is deferred.
const RING_MAX: usize = 8192;
/// Particles per stage-1 item of a [`FusedPlan`].
pub(crate) const PARTICLE_CHUNK: usize = 512;

/// Where an item's projection step starting at slot `s` ends (`s1`: the item's end).
fn step_end(s: usize, s1: usize) -> usize {
    ((s / STEP + 1) * STEP).min(s1)
}

/// A ring of a [`FusedPlan`] taken from its free set, given back when dropped (also
/// by the unwinding of a panicking item).
struct RingTaken<'a>(u32, &'a AtomicU64);

impl<'a> RingTaken<'a> {
    /// Takes the lowest free ring of `free`. One is always free: there are as many
    /// rings as items (up to 64, more than the threads of any pass), and only the
    /// items running at the same time hold one.
    fn new(free: &'a AtomicU64) -> Self {
        loop {
            let bits = free.load(Ordering::Acquire);
            if bits == 0 {
                std::hint::spin_loop();
                continue;
            }
            let r = bits.trailing_zeros();
            let taken = bits & !(1u64 << r);
            if free
                .compare_exchange_weak(bits, taken, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                return RingTaken(r, free);
            }
        }
    }
}

impl Drop for RingTaken<'_> {
    fn drop(&mut self) {
        self.1.fetch_or(1u64 << self.0, Ordering::Release);
    }
}

/// How one Jacobi iteration of a distance set stored in [`storage_order`] runs as two
/// stages of `Executor::stages`, with the gather of most particles fused into the
/// projection:
///
/// * stage 0: the particles cut into consecutive ranges, each item projecting the
///   slots whose lower particle is in its range (consecutive slots), in steps of
///   [`STEP`] slots. Particle i is complete once the slots whose lower particle is ≤ i
///   are projected, and no later slot reads it; so after each step the item gathers
///   the particles it completed. It gathers only its *local* particles, those whose
///   every slot is its own, projected at most a ring's length before: nothing else
///   reads or writes them, and their corrections are read back from a ring of the
///   item's last `ring` slots, which stays in cache. The corrections of slots that
///   touch other particles are also copied to an export area;
/// * stage 1: the gather of the other (*deferred*) particles from the export area.
///
/// Every slot is projected from the positions of before the iteration, and every
/// particle sums the same corrections in the same order whichever stage gathers it:
/// the results are the same bits for any thread count.
#[derive(Default)]
pub(crate) struct FusedPlan {
    /// `first[i]`: the first slot whose lower particle is i or above (particles
    /// `0..=n`).
    first: Vec<u32>,
    /// Stage-0 item x covers particles `bounds[x]..bounds[x + 1]`.
    bounds: Vec<u32>,
    /// Slots per ring (a power of two, a multiple of [`STEP`]); ring r is
    /// `scratch[2 ring r..2 ring (r + 1)]`, slot s at `2 (s mod ring)`.
    ring: usize,
    /// Number of rings: one per item that may run at the same time (every item, up
    /// to 64).
    rings: usize,
    /// Bit r set: ring r is free. An item takes the lowest free ring and gives it
    /// back when done, so that a thread running item after item reuses a ring still
    /// in its cache. Which ring an item gets never changes a result: it writes every
    /// entry it reads.
    free: AtomicU64,
    /// The deferred particles, ascending; item x's are
    /// `deferred[deferred_start[x]..deferred_start[x + 1]]`.
    deferred: Vec<u32>,
    deferred_start: Vec<u32>,
    /// Deferred particle k's entries: `export_entries[export_offsets[k]..
    /// export_offsets[k + 1]]`, `2 e + end` for the slot exported at e, in the order
    /// of its adjacency entries.
    export_offsets: Vec<u32>,
    export_entries: Vec<u32>,
    /// Exported slot runs `[start, end, e]` (slots start..end exported from e on),
    /// ascending; item x's are `runs[run_start[x]..run_start[x + 1]]`.
    runs: Vec<[u32; 3]>,
    run_start: Vec<u32>,
    /// Slots exported.
    exported: usize,
    /// Items of stage 0 and of stage 1.
    items: [usize; 2],
    /// Particle i's adjacency entries are `offsets[i]..offsets[i + 1]` (particles
    /// `0..=n`) of the slots' particle → slot adjacency ([`Adjacency`]).
    offsets: Vec<u32>,
    /// Each adjacency entry `(slot << 1) | end` as the index of its correction in a
    /// ring, `(2 slot + end) mod 2 ring` (below 2 [`RING_MAX`] = 2¹⁴): 2 bytes an
    /// entry instead of 4 for the gather of the local particles.
    local: Vec<u16>,
    /// The id of the slots' [`Sweep`] ([`Sweep::id`]).
    sweep: u64,
}

impl FusedPlan {
    /// The plan of the slots of `sweep` (in [`storage_order`], unscheduled) over
    /// `particle_count` particles, with their adjacency.
    pub(crate) fn new(sweep: &Sweep<2>, particle_count: usize) -> Result<Self> {
        let adjacency = Adjacency::build(sweep.items(), particle_count)?;
        let mut plan = FusedPlan::build(sweep.items(), &adjacency)?;
        plan.sweep = sweep.id();
        Ok(plan)
    }

    /// Number of slots on particle `i` (0 past the particles the plan was built for).
    pub(crate) fn degree(&self, i: usize) -> usize {
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => (b - a) as usize,
            _ => 0,
        }
    }

    /// One Jacobi iteration of the slots of `sweep` (the one the plan was built for,
    /// else it panics) with the other slot arrays of `slots` (whose pairs must be
    /// `sweep`'s): `exec.stages` over [`Self::stages`] with `threads`, in `scratch` of
    /// [`Self::scratch_len`]. Panics unless `base`, `hot` and `velocity` have one
    /// length reaching every particle of the slots and of the adjacency.
    ///
    /// `epilogue`: a particle pass over every particle to run after the iteration
    /// (the last of a substep): each particle runs it as soon as it is gathered
    /// (stage 0 over the runs of local particles an item completes, stage 1 over each
    /// deferred particle), when no slot reads it again; stage 1 gets items of
    /// [`TAIL_CHUNK`] particles for those the plan does not cover (added after it was
    /// built). Each particle sees the gather, then the pass, as it would with the
    /// pass run on its own after the iteration: the same bits.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn iterate(
        &self,
        exec: &Executor,
        threads: usize,
        sweep: &Sweep<2>,
        slots: &JacobiSlots<'_>,
        base: &mut [Vec3A],
        hot: &mut [Vec4],
        velocity: &mut [Vec3],
        scratch: &mut [Vec4],
        epilogue: Option<Prologue<'_>>,
    ) {
        if self.items == [0, 0] {
            return;
        }
        assert_eq!(self.sweep, sweep.id(), "Jacobi plan: built for other slots");
        assert!(
            std::ptr::eq(slots.pairs, sweep.items()),
            "Jacobi plan: slot arrays of other slots"
        );
        let n = hot.len();
        assert!(
            base.len() == n
                && velocity.len() == n
                && n >= sweep.bound()
                && n + 1 >= self.offsets.len(),
            "Jacobi plan: particle arrays"
        );
        let covered = self.offsets.len().saturating_sub(1);
        let tail = epilogue.map_or(0, |_| (n - covered).div_ceil(TAIL_CHUNK));
        let items = self.stages();
        let stages = [items[0], items[1] + tail];
        let particles = ParticleSlices {
            base: DisjointSlice::new(base),
            hot: DisjointSlice::new(hot),
            velocity: DisjointSlice::new(velocity),
        };
        let scratch = DisjointSlice::new(scratch);
        exec.stages(threads, &stages[..], |stage, item| {
            if stage == 1 && item >= self.items[1] {
                let start = covered + (item - self.items[1]) * TAIL_CHUNK;
                if let Some(pass) = epilogue {
                    // SAFETY: the tail items cover particles no slot touches, each
                    // item its own.
                    unsafe { particles.pass(pass, start..(start + TAIL_CHUNK).min(n)) };
                }
                return;
            }
            // SAFETY: the plan and its adjacency were built for these slots (`new`:
            // the sweep's id is unique to it and its slots never change); their
            // particle indices are below the arrays' length (checked above);
            // `stages` runs each item once, the items of a stage at the same time
            // only with each other, the stages in order.
            unsafe { self.run(stage, item, slots, &particles, &scratch, epilogue) };
        });
    }

    /// The plan of the slots `pairs` (in [`storage_order`]) over the particles of the
    /// particle → slot `adjacency` (entries `(slot << 1) | end` in slot order).
    fn build(pairs: &[[u32; 2]], adjacency: &Adjacency) -> Result<Self> {
        const WHAT: &str = "Jacobi plan";
        let (n, m) = (adjacency.particle_count(), pairs.len());
        let low = |s: usize| pairs[s][0].min(pairs[s][1]) as usize;
        if (1..m).any(|s| low(s - 1) > low(s)) || (m > 0 && low(m - 1) >= n) {
            return Err(crate::error::Error::invalid(
                "Jacobi plan: the slots are not in Jacobi storage order",
            ));
        }
        let mut first = try_with_capacity::<u32>(n + 1, WHAT)?;
        let mut s = 0usize;
        for i in 0..=n {
            while s < m && low(s) < i {
                s += 1;
            }
            first.push(s as u32);
        }
        let target = (m / ITEM_AIM).max(ITEM_MIN_SLOTS);
        let mut bounds = try_with_capacity::<u32>(m / target + 2, WHAT)?;
        bounds.push(0);
        let mut start = 0usize;
        for (i, &f) in first.iter().enumerate().skip(1) {
            if f as usize - start >= target || i == n {
                bounds.push(i as u32);
                start = f as usize;
            }
        }
        if n == 0 {
            bounds.push(0);
        }
        let items = bounds.len() - 1;
        let min_slot = |i: usize| adjacency.of(i).first().map(|&e| (e >> 1) as usize);
        // For each particle, the slot count between its first slot and the end of
        // the step after which its item gathers it (None: its first slot lies in an
        // earlier item, or it has none), as the item's loop in `run` meets them.
        let mut window = try_with_capacity::<Option<usize>>(n, WHAT)?;
        window.resize(n, None);
        for x in 0..items {
            let (p0, p1) = (bounds[x] as usize, bounds[x + 1] as usize);
            let (s0, s1) = (first[p0] as usize, first[p1] as usize);
            let (mut s, mut i) = (s0, p0);
            while i < p1 {
                s = step_end(s, s1);
                while i < p1 && first[i + 1] as usize <= s {
                    window[i] = min_slot(i).filter(|&f| f >= s0).map(|f| s - f);
                    i += 1;
                }
            }
        }
        let widest = window.iter().flatten().filter(|&&w| w <= RING_MAX).max();
        let ring = widest.map_or(STEP, |&w| w.next_power_of_two().max(STEP));
        let mut deferred = try_with_capacity::<u32>(n, WHAT)?;
        let mut deferred_start = try_with_capacity::<u32>(items + 1, WHAT)?;
        for x in 0..items {
            deferred_start.push(deferred.len() as u32);
            deferred.extend((bounds[x]..bounds[x + 1]).filter(|&i| {
                min_slot(i as usize).is_some() && window[i as usize].is_none_or(|w| w > ring)
            }));
        }
        deferred_start.push(deferred.len() as u32);
        drop(window);
        // The slots of deferred particles are exported, numbered in slot order.
        const NONE: u32 = u32::MAX;
        let mut export_of = try_with_capacity::<u32>(m, WHAT)?;
        export_of.resize(m, NONE);
        for &i in &deferred {
            for &e in adjacency.of(i as usize) {
                export_of[(e >> 1) as usize] = 0;
            }
        }
        let mut runs: Vec<[u32; 3]> = Vec::new();
        let mut run_start = try_with_capacity::<u32>(items + 1, WHAT)?;
        let mut exported = 0u32;
        for x in 0..items {
            let own = runs.len();
            run_start.push(own as u32);
            let (s0, s1) = (first[bounds[x] as usize], first[bounds[x + 1] as usize]);
            for s in s0..s1 {
                if export_of[s as usize] == NONE {
                    continue;
                }
                export_of[s as usize] = exported;
                match runs[own..].last_mut() {
                    Some(r) if r[1] == s => r[1] += 1,
                    _ => {
                        crate::error::try_reserve(&mut runs, 1, WHAT)?;
                        runs.push([s, s + 1, exported]);
                    }
                }
                exported += 1;
            }
        }
        run_start.push(runs.len() as u32);
        let mut export_offsets = try_with_capacity::<u32>(deferred.len() + 1, WHAT)?;
        export_offsets.push(0);
        let mut total = 0u32;
        for &i in &deferred {
            total += adjacency.of(i as usize).len() as u32;
            export_offsets.push(total);
        }
        let mut export_entries = try_with_capacity::<u32>(total as usize, WHAT)?;
        for &i in &deferred {
            export_entries.extend(
                adjacency
                    .of(i as usize)
                    .iter()
                    .map(|&e| 2 * export_of[(e >> 1) as usize] + (e & 1)),
            );
        }
        // The ring index of every entry (only the local particles' are read).
        let mask = 2 * ring - 1;
        debug_assert!(mask <= u16::MAX as usize);
        let mut local = try_with_capacity::<u16>(adjacency.entries.len(), WHAT)?;
        local.extend(
            adjacency
                .entries
                .iter()
                .map(|&e| (e as usize & mask) as u16),
        );
        let mut offsets = try_with_capacity::<u32>(adjacency.offsets.len(), WHAT)?;
        offsets.extend_from_slice(&adjacency.offsets);
        let rings = items.min(64);
        Ok(FusedPlan {
            items: [items, deferred.len().div_ceil(PARTICLE_CHUNK)],
            first,
            bounds,
            ring,
            rings,
            free: AtomicU64::new(if rings == 64 {
                u64::MAX
            } else {
                (1 << rings) - 1
            }),
            deferred,
            deferred_start,
            export_offsets,
            export_entries,
            runs,
            run_start,
            exported: exported as usize,
            offsets,
            local,
            sweep: 0,
        })
    }

    /// Items per stage, for `Executor::stages`.
    pub(crate) fn stages(&self) -> &[usize] {
        &self.items
    }

    /// Length of the scratch buffer [`Self::run`] needs: the rings of the items, then
    /// the export area (two corrections per slot).
    pub(crate) fn scratch_len(&self) -> usize {
        2 * (self.ring * self.rings + self.exported)
    }

    /// Runs item `item` of stage `stage` (see the type's doc) with `scratch` of
    /// [`Self::scratch_len`].
    ///
    /// # Safety
    /// The plan was built for these slots and this adjacency; every particle index
    /// of the slots is below `base`'s and `hot`'s length; the items of one stage run
    /// at the same time only with each other, each once, and the stages in order.
    #[allow(clippy::too_many_arguments)]
    unsafe fn run(
        &self,
        stage: usize,
        item: usize,
        slots: &JacobiSlots<'_>,
        particles: &ParticleSlices<'_>,
        scratch: &DisjointSlice<'_, Vec4>,
        epilogue: Option<Prologue<'_>>,
    ) {
        let (base, hot) = (&particles.base, &particles.hot);
        assert_eq!(
            scratch.len(),
            self.scratch_len(),
            "Jacobi plan: scratch length"
        );
        let export = 2 * self.ring * self.rings;
        if stage != 0 {
            let start = item * PARTICLE_CHUNK;
            for k in start..(start + PARTICLE_CHUNK).min(self.deferred.len()) {
                let list = &self.export_entries
                    [self.export_offsets[k] as usize..self.export_offsets[k + 1] as usize];
                let i = self.deferred[k] as usize;
                // SAFETY: the deferred particles of one item are its own; the export
                // area is no longer written in stage 1.
                unsafe { apply(i, list, scratch, export, hot) };
                if let Some(pass) = epilogue {
                    // SAFETY: particle i is this item's alone, and gathered.
                    unsafe { particles.pass(pass, i..i + 1) };
                }
            }
            return;
        }
        let (offsets, local) = (&self.offsets[..], &self.local[..]);
        let taken = RingTaken::new(&self.free);
        let ring = 2 * self.ring * taken.0 as usize;
        let (p0, p1) = (self.bounds[item] as usize, self.bounds[item + 1] as usize);
        let (s0, s1) = (self.first[p0] as usize, self.first[p1] as usize);
        let mut deferred = self.deferred
            [self.deferred_start[item] as usize..self.deferred_start[item + 1] as usize]
            .iter()
            .peekable();
        let mut runs = self.runs[self.run_start[item] as usize..self.run_start[item + 1] as usize]
            .iter()
            .peekable();
        let (mut s, mut i) = (s0, p0);
        while i < p1 {
            let end = step_end(s, s1);
            let at = ring + 2 * (s & (self.ring - 1));
            // SAFETY: slots s..end are this item's, and so is its ring, which holds
            // them without wrapping (steps end at multiples of STEP, which divides the
            // ring); they read particles that no other item writes in this stage
            // (local to this item and not yet gathered, or deferred).
            unsafe { project_range(s..end, slots, base, hot, scratch, at) };
            // Export the slots of this step that deferred particles need.
            while let Some(&&[r0, r1, e]) = runs.peek() {
                let (r0, r1) = (r0 as usize, r1 as usize);
                if r0 >= end {
                    break;
                }
                let (a, b) = (r0.max(s), r1.min(end));
                for t in a..b {
                    let from = at + 2 * (t - s);
                    let to = export + 2 * (e as usize + t - r0);
                    // SAFETY: this item's ring and its own exported slots.
                    unsafe {
                        scratch.set(to, scratch.get(from));
                        scratch.set(to + 1, scratch.get(from + 1));
                    }
                }
                if r1 > end {
                    break;
                }
                runs.next();
            }
            s = end;
            // Gather the particles now complete: all slots with lower particle ≤ i;
            // then the epilogue over each run of them (the deferred ones split the
            // runs: stage 1 gathers them).
            let mut run = i;
            while i < p1 && self.first[i + 1] as usize <= s {
                if deferred.peek() == Some(&&(i as u32)) {
                    deferred.next();
                    if let Some(pass) = epilogue {
                        // SAFETY: particles run..i are local to this item and
                        // gathered: no slot reads them again in this iteration.
                        unsafe { particles.pass(pass, run..i) };
                    }
                    run = i + 1;
                } else {
                    let list = &local[offsets[i] as usize..offsets[i + 1] as usize];
                    // SAFETY: particle i is local to this item: all its slots are
                    // projected and still in the ring, none of them is read again in
                    // this stage, and no other item touches it.
                    unsafe { apply(i, list, scratch, ring, hot) };
                }
                i += 1;
            }
            if let Some(pass) = epilogue {
                // SAFETY: as above.
                unsafe { particles.pass(pass, run..i) };
            }
        }
    }
}

/// Particles of a tail item of [`FusedPlan::iterate`]'s epilogue (past the plan).
pub(crate) const TAIL_CHUNK: usize = 4096;

/// The particle arrays of a [`FusedPlan`] iteration, shared by its items.
struct ParticleSlices<'a> {
    base: DisjointSlice<'a, Vec3A>,
    hot: DisjointSlice<'a, Vec4>,
    velocity: DisjointSlice<'a, Vec3>,
}

impl ParticleSlices<'_> {
    /// Runs `pass` over the particles `r` (none when empty).
    ///
    /// # Safety
    /// Nothing else reads or writes particles `r` during the call.
    unsafe fn pass(&self, pass: Prologue<'_>, r: std::ops::Range<usize>) {
        if r.is_empty() {
            return;
        }
        // SAFETY: the caller's promise.
        unsafe {
            pass(
                self.hot.slice_mut(r.clone()),
                self.base.slice_mut(r.clone()),
                self.velocity.slice_mut(r),
            )
        }
    }
}

#[cfg(test)]
mod plan_tests {
    use super::*;
    use crate::kernels::distance_jacobi::project_scalar;

    /// Projects every slot, then gathers every particle (two sums per particle, as
    /// `apply`): the reference a [`FusedPlan`] must match bit for bit.
    fn reference(
        pairs: &[[u32; 2]],
        adjacency: &Adjacency,
        base: &[Vec3A],
        hot: &mut [Vec4],
        lambda: &mut [f32],
    ) {
        let m = pairs.len();
        let (rest, softness, weight) = (vec![0.01; m], vec![1e-6; m], vec![0.25; m]);
        let mut out = vec![Vec4::ZERO; 2 * m];
        let slots = JacobiSlots {
            pairs,
            rest: &rest,
            softness: &softness,
            uniform: None,
            weight: &weight,
            lambda: DisjointSlice::new(lambda),
            fresh: false,
            inv_h2: 3600.0,
            relaxation: 1.0,
        };
        let mut base = base.to_vec();
        let b = DisjointSlice::new(&mut base);
        let h = DisjointSlice::new(hot);
        let o = DisjointSlice::new(&mut out);
        // SAFETY: one thread, indices in range.
        unsafe {
            project_scalar(0..m, &slots, &b, &h, &o, 0);
            for i in 0..adjacency.particle_count() {
                apply(i, adjacency.of(i), &o, 0, &h);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn fused(
        pairs: &[[u32; 2]],
        adjacency: &Adjacency,
        base: &mut [Vec3A],
        hot: &mut [Vec4],
        velocity: &mut [Vec3],
        lambda: &mut [f32],
        reverse: bool,
        epilogue: Option<Prologue<'_>>,
    ) -> FusedPlan {
        let m = pairs.len();
        let (rest, softness, weight) = (vec![0.01; m], vec![1e-6; m], vec![0.25; m]);
        let plan = FusedPlan::build(pairs, adjacency).unwrap();
        let mut scratch = vec![Vec4::splat(f32::NAN); plan.scratch_len()];
        let slots = JacobiSlots {
            pairs,
            rest: &rest,
            softness: &softness,
            uniform: None,
            weight: &weight,
            lambda: DisjointSlice::new(lambda),
            fresh: false,
            inv_h2: 3600.0,
            relaxation: 1.0,
        };
        let particles = ParticleSlices {
            base: DisjointSlice::new(base),
            hot: DisjointSlice::new(hot),
            velocity: DisjointSlice::new(velocity),
        };
        let sc = DisjointSlice::new(&mut scratch);
        for stage in 0..2 {
            let n = plan.stages()[stage];
            for k in 0..n {
                let item = if reverse { n - 1 - k } else { k };
                // SAFETY: one thread, stages in order.
                unsafe { plan.run(stage, item, &slots, &particles, &sc, epilogue) };
            }
        }
        plan
    }

    /// An epilogue that changes every array of a particle (moves part of its offset
    /// into its base, as the predict does): run early on a particle some slot still
    /// reads, it would change that slot's projection.
    fn epilogue(hot: &mut [Vec4], base: &mut [Vec3A], velocity: &mut [Vec3]) {
        for ((hot, base), velocity) in hot.iter_mut().zip(base).zip(velocity) {
            let d = Vec3A::from_vec4(*hot) * 0.5;
            *base += d;
            *hot = (Vec3A::from_vec4(*hot) - d + Vec3A::splat(1e-3)).extend(hot.w);
            *velocity = (Vec3A::from(*velocity) + d).into();
        }
    }

    /// A cloth grid (stretch, shear, bend) and a cloud of random long-range pairs,
    /// each in Jacobi storage order: the fused plan (items in either order) gives the
    /// bits of projecting everything, then gathering everything; with an epilogue,
    /// those of running it over every particle after that.
    #[test]
    fn fused_plan_matches_project_then_gather() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = move || {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as u32
        };
        let side = 90u32;
        let n = (side * side) as usize;
        let [stretch, shear, bend] = crate::scenes::cloth_pairs(side, 0);
        let grid = [stretch, shear, bend].concat();
        let random: Vec<[u32; 2]> = (0..60000)
            .map(|_| {
                let a = rnd() % n as u32;
                let b = (a + 1 + rnd() % 20000) % n as u32;
                [a, b]
            })
            .collect();
        for (name, items) in [("grid", grid), ("random", random)] {
            let slot_of = storage_order(&items, n).unwrap();
            let mut pairs = vec![[0u32; 2]; items.len()];
            for (id, &s) in slot_of.iter().enumerate() {
                pairs[s as usize] = items[id];
            }
            let adjacency = Adjacency::build(&pairs, n).unwrap();
            let base: Vec<Vec3A> = (0..n)
                .map(|i| Vec3A::new((i % 90) as f32 * 0.011, 0.0, (i / 90) as f32 * 0.0105))
                .collect();
            let velocity0: Vec<Vec3> = (0..n).map(|i| Vec3::splat(i as f32 * 1e-4)).collect();
            let hot0: Vec<Vec4> = (0..n)
                .map(|i| {
                    let mut j = |k: u32| (rnd() % 1000) as f32 * 1e-6 * k as f32;
                    Vec4::new(j(1), j(2), j(3), if i % 37 == 0 { 0.0 } else { 1.0 })
                })
                .collect();
            let lambda0: Vec<f32> = (0..pairs.len())
                .map(|_| (rnd() % 100) as f32 * 1e-4)
                .collect();
            let (mut want, mut want_l) = (hot0.clone(), lambda0.clone());
            reference(&pairs, &adjacency, &base, &mut want, &mut want_l);
            let (mut after, mut after_base, mut after_v) =
                (want.clone(), base.clone(), velocity0.clone());
            epilogue(&mut after, &mut after_base, &mut after_v);
            for (reverse, with) in [(false, false), (true, false), (false, true), (true, true)] {
                let (mut got, mut got_l) = (hot0.clone(), lambda0.clone());
                let (mut got_base, mut got_v) = (base.clone(), velocity0.clone());
                let pass: Option<Prologue<'_>> = with.then_some(&epilogue);
                let plan = fused(
                    &pairs,
                    &adjacency,
                    &mut got_base,
                    &mut got,
                    &mut got_v,
                    &mut got_l,
                    reverse,
                    pass,
                );
                let (want, want_base, want_v) = if with {
                    (&after, &after_base, &after_v)
                } else {
                    (&want, &base, &velocity0)
                };
                assert!(got_base == *want_base && got_v == *want_v, "{name}: {with}");
                assert!(plan.stages()[0] > 2, "{name}: several items");
                if name == "grid" {
                    assert!(
                        plan.deferred.len() < n / 5,
                        "{name}: {}",
                        plan.deferred.len()
                    );
                }
                for i in 0..n {
                    assert_eq!(
                        got[i].to_array().map(f32::to_bits),
                        want[i].to_array().map(f32::to_bits),
                        "{name}: particle {i}"
                    );
                }
                assert_eq!(got_l, want_l, "{name}");
            }
        }
    }
}
