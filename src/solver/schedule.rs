//! The Gauss-Seidel schedule of a constraint set: in which order its slots are stored
//! and which of them may run at the same time.
//!
//! Particles are grouped into blocks of [`block_size`] consecutive indices. A
//! constraint whose particles all lie in one block is *interior* to it; the others are
//! *shared*. A sweep runs two phases:
//!
//! 1. every block's interior constraints, blocks in parallel (they touch disjoint
//!    particles), each block colour by colour. A block's particles (≤ 8192 × 44 B)
//!    stay in the core's L2 cache through all its colours, instead of the whole
//!    particle array being streamed from L3 once per colour;
//! 2. the shared constraints, colour by colour: independent groups of them (the seams
//!    between blocks) on different threads, or large colours split between threads
//!    ([`Plan`]).
//!
//! Builders emit particles of one body consecutively and neighbours close together
//! (rows of a cloth, links of a rope), so most constraints are interior. The order
//! depends on the scene only, never on the thread count: results are bit-identical
//! for any number of threads (ARCHITECTURE.md, "Block schedule and colouring").

use std::ops::Range;

use crate::error::{try_with_capacity, Result};
use crate::solver::colouring::{colour_greedy, sort_by_colour};

/// Largest block: 8192 particles × 44 B (360 KB) stay inside a core's L2 cache (1 MB
/// on the CI machines), with room for the constraint data streaming through.
pub(crate) const MAX_BLOCK: u32 = 8192;
/// Smallest block: below this the constraints joining blocks grow too many.
pub(crate) const MIN_BLOCK: u32 = 1024;

/// Particles per block for a world of `particle_count` particles: aims at 8 blocks (so
/// two to four threads have several each to balance), as a power of two within
/// [`MIN_BLOCK`]..=[`MAX_BLOCK`]. It depends on the scene only, never on the thread
/// count.
pub(crate) fn block_size(particle_count: usize) -> u32 {
    let aim = (particle_count / 8).clamp(1, MAX_BLOCK as usize) as u32;
    aim.next_power_of_two().clamp(MIN_BLOCK, MAX_BLOCK)
}

/// Storage order and phases of one constraint set (see the module doc).
#[derive(Default, Debug)]
pub(crate) struct Schedule {
    /// For each block with interior constraints: the slot offsets of its colours,
    /// `offsets[c]..offsets[c + 1]` being colour c. Blocks are stored in order, first.
    pub(crate) blocks: Vec<Vec<u32>>,
    /// Slot offsets of the colours of the shared constraints, stored after the blocks.
    pub(crate) shared: Vec<u32>,
    /// The particle block (particles `id · block_size..(id + 1) · block_size`) of each
    /// entry of `blocks`.
    pub(crate) block_ids: Vec<u32>,
    /// Particles per block ([`block_size`] of the particle count it was built for).
    pub(crate) block_size: u32,
}

impl Schedule {
    /// Number of slots the interior phase covers.
    pub(crate) fn interior_len(&self) -> usize {
        self.blocks
            .last()
            .and_then(|o| o.last())
            .map_or(0, |&e| e as usize)
    }

    /// The colours of the shared phase as slot ranges.
    pub(crate) fn shared_colours(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.shared.windows(2).map(|w| w[0] as usize..w[1] as usize)
    }

    /// The colours of block `b` as slot ranges.
    pub(crate) fn block_colours(&self, b: usize) -> impl Iterator<Item = Range<usize>> + '_ {
        self.blocks[b]
            .windows(2)
            .map(|w| w[0] as usize..w[1] as usize)
    }

    /// Largest number of colours in one phase (for diagnostics and tests).
    pub(crate) fn colour_count(&self) -> usize {
        let interior = self.blocks.iter().map(|o| o.len() - 1).max().unwrap_or(0);
        interior.max(self.shared.len().saturating_sub(1))
    }
}

/// Shared colours with fewer slots run as one item of a [`Plan`] (consecutive ones
/// together): splitting them would cost a stage boundary, a wait for the slowest
/// thread, for less work than it spreads.
pub(crate) const SPLIT_COLOUR_MIN: usize = 8192;
/// Slots per item of a split shared colour (a multiple of the SIMD kernels' 8 lanes).
pub(crate) const COLOUR_CHUNK: usize = 2048;

/// Particles per item of a fused particle pass beyond the particles a plan was built
/// for ([`Plan::prologue_items`]).
pub(crate) const PROLOGUE_CHUNK: usize = 4096;

/// Shared phases split into independent groups only when no group of connected
/// shared constraints holds more than this fraction of them (1 / 4): then the groups
/// balance between threads.
const GROUP_MAX_SHARE: usize = 4;
/// Most groups a shared phase is split into.
const MAX_GROUPS: usize = 16;

/// How a sweep of a [`Schedule`] is cut into the stages and items of
/// `Executor::stages`: stage 0 holds one item per block (its interior colours in
/// order). The shared phase follows in one of two forms:
///
/// * **groups** (when the shared constraints fall into many small connected groups,
///   as along the seams between blocks of a cloth or a chain): one stage with one item
///   per group of components, each running its own slots colour by colour. Components
///   share no particle, so they need no stage boundary between colours, and every
///   constraint still runs after the same constraints on its particles as in colour
///   order;
/// * **colours**: each later stage is either one large shared colour cut into
///   [`COLOUR_CHUNK`]-slot items, or a run of consecutive small shared colours as one
///   item.
///
/// It depends on the scene only; any thread may run any item.
#[derive(Default, Debug)]
pub(crate) struct Plan {
    /// Items per stage.
    pub(crate) items: Vec<usize>,
    /// Colours form: for stage s ≥ 1, `shared[s − 1]`: the shared colours (indices) it
    /// covers.
    shared: Vec<Range<usize>>,
    /// Groups form: the slot runs of group g are `runs[group_runs[g]..group_runs[g +
    /// 1]]`, in colour order, each within one colour. Empty in the colours form.
    group_runs: Vec<u32>,
    runs: Vec<Range<u32>>,
    /// For a sweep that also runs a particle pass ([`Plan::prologue_items`]): the
    /// particles of each block item of stage 0, then the ranges of the particles no
    /// block covers (each at most one block long), over the particle count the plan was
    /// built for.
    particle_ranges: Vec<Range<u32>>,
}

/// The root of `p` in a union-find forest, halving the path on the way (also the
/// sleeping islands', src/world/sleep.rs).
pub(crate) fn find(parent: &mut [u32], mut p: u32) -> u32 {
    while parent[p as usize] != p {
        let up = parent[parent[p as usize] as usize];
        parent[p as usize] = up;
        p = up;
    }
    p
}

impl Plan {
    /// The plan of `schedule`, built for `items` (the particles of each constraint, in
    /// id order) stored at `slot_of`, over `particle_count` particles.
    pub(crate) fn new<const K: usize>(
        schedule: &Schedule,
        items: &[[u32; K]],
        slot_of: &[u32],
        particle_count: usize,
    ) -> Result<Plan> {
        let mut plan = Plan::colours(schedule)?;
        if let Some((group_runs, runs)) = Plan::groups(schedule, items, slot_of, particle_count)? {
            plan.items.truncate(1);
            plan.items.push(group_runs.len() - 1);
            plan.shared = Vec::new();
            plan.group_runs = group_runs;
            plan.runs = runs;
        }
        plan.particle_ranges = Plan::particle_ranges(schedule, particle_count)?;
        Ok(plan)
    }

    /// The particles of each block of `schedule` (in its order), then the runs of
    /// particles of `0..particle_count` in no block, cut at block boundaries.
    fn particle_ranges(schedule: &Schedule, particle_count: usize) -> Result<Vec<Range<u32>>> {
        let n = particle_count as u32;
        let size = schedule.block_size.max(1);
        let block_count = n.div_ceil(size) as usize;
        let mut ranges = try_with_capacity::<Range<u32>>(block_count, "sweep plan")?;
        let range_of = |b: u32| b * size..((b + 1) * size).min(n);
        ranges.extend(schedule.block_ids.iter().map(|&b| range_of(b)));
        let mut listed = schedule.block_ids.iter().peekable();
        for b in 0..block_count as u32 {
            if listed.peek() == Some(&&b) {
                listed.next();
            } else {
                ranges.push(range_of(b));
            }
        }
        Ok(ranges)
    }

    /// Items of stage 0 when the sweep also runs a particle pass over `particle_count`
    /// particles ([`Self::prologue_range`]): one per block, one per range of particles
    /// in no block, and one per [`PROLOGUE_CHUNK`] particles added after the plan was
    /// built (beyond `built_for`).
    pub(crate) fn prologue_items(&self, built_for: usize, particle_count: usize) -> usize {
        let extra = particle_count
            .saturating_sub(built_for)
            .div_ceil(PROLOGUE_CHUNK);
        self.particle_ranges.len() + extra
    }

    /// The particles that item `item` of stage 0 runs the particle pass over before its
    /// block's colours (see [`Self::prologue_items`]).
    pub(crate) fn prologue_range(
        &self,
        item: usize,
        built_for: usize,
        particle_count: usize,
    ) -> Range<usize> {
        if let Some(r) = self.particle_ranges.get(item) {
            return r.start as usize..r.end as usize;
        }
        let start = built_for + (item - self.particle_ranges.len()) * PROLOGUE_CHUNK;
        start..(start + PROLOGUE_CHUNK).min(particle_count)
    }

    /// The colours form of the shared phase.
    fn colours(schedule: &Schedule) -> Result<Plan> {
        let colours: Vec<Range<usize>> = schedule.shared_colours().collect();
        let mut items = try_with_capacity::<usize>(colours.len() + 1, "sweep plan")?;
        let mut shared = try_with_capacity::<Range<usize>>(colours.len(), "sweep plan")?;
        items.push(schedule.blocks.len());
        let mut c = 0;
        while c < colours.len() {
            if colours[c].len() >= SPLIT_COLOUR_MIN {
                items.push(colours[c].len().div_ceil(COLOUR_CHUNK));
                shared.push(c..c + 1);
                c += 1;
            } else {
                let start = c;
                while c < colours.len() && colours[c].len() < SPLIT_COLOUR_MIN {
                    c += 1;
                }
                items.push(1);
                shared.push(start..c);
            }
        }
        Ok(Plan {
            items,
            shared,
            ..Plan::default()
        })
    }

    /// The groups form (group offsets into the runs, the runs), or None when the
    /// shared constraints do not fall into small enough components.
    #[allow(clippy::type_complexity)]
    fn groups<const K: usize>(
        schedule: &Schedule,
        items: &[[u32; K]],
        slot_of: &[u32],
        particle_count: usize,
    ) -> Result<Option<(Vec<u32>, Vec<Range<u32>>)>> {
        const WHAT: &str = "sweep plan";
        let first = schedule.interior_len();
        let count = items.len() - first;
        if count == 0 {
            return Ok(None);
        }
        // Components of the shared constraints (union-find over their particles).
        let mut parent = try_with_capacity::<u32>(particle_count, WHAT)?;
        parent.extend(0..particle_count as u32);
        for (item, &slot) in items.iter().zip(slot_of) {
            if (slot as usize) >= first {
                let root = find(&mut parent, item[0]);
                for &p in &item[1..] {
                    let other = find(&mut parent, p);
                    if other != root {
                        parent[other as usize] = root;
                    }
                }
            }
        }
        // Each shared slot's component, numbered by first appearance in slot order.
        let mut root_of_slot = try_with_capacity::<u32>(count, WHAT)?;
        root_of_slot.resize(count, 0);
        for (item, &slot) in items.iter().zip(slot_of) {
            if (slot as usize) >= first {
                root_of_slot[slot as usize - first] = find(&mut parent, item[0]);
            }
        }
        let mut number = parent; // reused: root → component number + 1 (0 = none yet)
        number.fill(0);
        let mut sizes: Vec<u32> = Vec::new();
        let mut component = try_with_capacity::<u32>(count, WHAT)?;
        for &root in &root_of_slot {
            if number[root as usize] == 0 {
                sizes
                    .try_reserve(1)
                    .map_err(|_| crate::error::Error::out_of_memory(WHAT))?;
                sizes.push(0);
                number[root as usize] = sizes.len() as u32;
            }
            let c = number[root as usize] - 1;
            sizes[c as usize] += 1;
            component.push(c);
        }
        drop(root_of_slot);
        if sizes.len() < 2 || sizes.iter().any(|&n| n as usize * GROUP_MAX_SHARE > count) {
            return Ok(None);
        }
        // Largest components first, each to the least loaded group (ties: lower
        // index), so the groups balance.
        let groups = sizes.len().min(MAX_GROUPS);
        let mut order = try_with_capacity::<u32>(sizes.len(), WHAT)?;
        order.extend(0..sizes.len() as u32);
        order.sort_by_key(|&c| (std::cmp::Reverse(sizes[c as usize]), c));
        let mut load = [0u32; MAX_GROUPS];
        let mut group_of = try_with_capacity::<u8>(sizes.len(), WHAT)?;
        group_of.resize(sizes.len(), 0);
        for &c in &order {
            let g = (0..groups).min_by_key(|&g| (load[g], g)).unwrap_or(0);
            load[g] += sizes[c as usize];
            group_of[c as usize] = g as u8;
        }
        // Runs: consecutive slots of one group within one colour.
        let mut per_group: Vec<Vec<Range<u32>>> = Vec::new();
        per_group
            .try_reserve_exact(groups)
            .map_err(|_| crate::error::Error::out_of_memory(WHAT))?;
        per_group.resize_with(groups, Vec::new);
        for colour in schedule.shared_colours() {
            let mut open: Option<(usize, Range<u32>)> = None;
            for slot in colour {
                let g = group_of[component[slot - first] as usize] as usize;
                match &mut open {
                    Some((og, r)) if *og == g && r.end as usize == slot => r.end += 1,
                    _ => {
                        if let Some((og, r)) = open.take() {
                            per_group[og].push(r);
                        }
                        open = Some((g, slot as u32..slot as u32 + 1));
                    }
                }
            }
            if let Some((og, r)) = open {
                per_group[og].push(r);
            }
        }
        let total: usize = per_group.iter().map(Vec::len).sum();
        let mut runs = try_with_capacity::<Range<u32>>(total, WHAT)?;
        let mut group_runs = try_with_capacity::<u32>(groups + 1, WHAT)?;
        group_runs.push(0);
        for g in &per_group {
            runs.extend(g.iter().cloned());
            group_runs.push(runs.len() as u32);
        }
        Ok(Some((group_runs, runs)))
    }

    /// Calls `f` on the slot ranges of item `item` of stage `stage` (≥ 1), in order;
    /// the slots of one range share no particle.
    pub(crate) fn shared_item(
        &self,
        schedule: &Schedule,
        stage: usize,
        item: usize,
        mut f: impl FnMut(Range<usize>),
    ) {
        if !self.group_runs.is_empty() {
            let runs = self.group_runs[item] as usize..self.group_runs[item + 1] as usize;
            for r in &self.runs[runs] {
                f(r.start as usize..r.end as usize);
            }
            return;
        }
        let colours = &self.shared[stage - 1];
        for c in colours.clone() {
            let r = schedule.shared[c] as usize..schedule.shared[c + 1] as usize;
            if r.len() >= SPLIT_COLOUR_MIN {
                let start = r.start + item * COLOUR_CHUNK;
                f(start..(start + COLOUR_CHUNK).min(r.end));
            } else {
                f(r);
            }
        }
    }
}

impl Plan {
    /// The constraint slots each item of each stage projects, stage by stage (stage 0:
    /// one entry per block, its interior colours; later stages: the shared phase), for
    /// the scaling estimates of the README and the balance tests. The fused particle
    /// pass's extra stage-0 items (particles in no block) project no slot and are not
    /// listed.
    pub(crate) fn item_slots(&self, schedule: &Schedule) -> Vec<Vec<usize>> {
        let mut stages = Vec::with_capacity(self.items.len());
        stages.push(
            schedule
                .blocks
                .iter()
                .map(|o| o.last().map_or(0, |&e| e - o[0]) as usize)
                .collect(),
        );
        for (stage, &items) in self.items.iter().enumerate().skip(1) {
            stages.push(
                (0..items)
                    .map(|item| {
                        let mut slots = 0;
                        self.shared_item(schedule, stage, item, |r| slots += r.len());
                        slots
                    })
                    .collect(),
            );
        }
        stages
    }
}

impl crate::solver::parallel::StagePlan for Plan {
    fn stages(&self) -> usize {
        self.items.len()
    }
    fn items(&self, s: usize) -> usize {
        self.items[s]
    }
}

/// The order of an interior item within its colour (after its block and colour): its
/// last particle's index less its first (offset by 2³¹ so that the key sorts as the
/// signed difference), then its first particle.
fn within_colour_key<const K: usize>(item: &[u32; K]) -> u64 {
    let first = item[0];
    let span = (item[K - 1] as i64 - first as i64 + (1i64 << 31)) as u64;
    (span << 32) | first as u64
}

/// The greedy colouring of the interior `items`, family by family instead of in id
/// order. An item's family is its block and index span (its last particle less its
/// first); the families are coloured in the order their first item comes in `items`
/// (the host's order: a cloth's stretch links, then shear, then bending), each one's
/// items by first particle, then id. A grid's families then take their colours along
/// whole rows (the links to the next row: those of even rows, then those of odd rows;
/// the links along a row: every other one), which `kernels::distance_grid` loads as
/// contiguous runs; in id order the families interleave and a family's colours
/// alternate by column, half a run each. Returns the colour of each item in `items`'
/// order. (Any colouring is a valid Gauss-Seidel order; another one changes the bits.)
fn colour_by_family<const K: usize>(
    items: &[[u32; K]],
    size: u32,
    particle_count: usize,
) -> Result<crate::solver::colouring::Colouring> {
    const WHAT: &str = "constraint schedule";
    // One sort by (block, span, first particle, id) puts each family in a run, in its
    // final order; the runs are then ordered by (block, first id of the run).
    let family = |item: &[u32; K]| {
        let span = item[K - 1] as i64 - item[0] as i64 + (1i64 << 32);
        ((item[0] / size) as u64) << 33 | span as u64
    };
    let mut order = try_with_capacity::<(u64, u32, u32)>(items.len(), WHAT)?;
    order.extend(
        items
            .iter()
            .enumerate()
            .map(|(k, item)| (family(item), item[0], k as u32)),
    );
    order.sort_unstable();
    // The runs: (block, first id, start, end).
    let mut runs: Vec<(u64, u32, usize, usize)> = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let key = order[start].0;
        let mut end = start;
        let mut first = u32::MAX;
        while end < order.len() && order[end].0 == key {
            first = first.min(order[end].2);
            end += 1;
        }
        crate::error::try_reserve(&mut runs, 1, WHAT)?;
        runs.push((key >> 33, first, start, end));
        start = end;
    }
    runs.sort_unstable();
    let mut sorted_ids = try_with_capacity::<u32>(items.len(), WHAT)?;
    for &(.., start, end) in &runs {
        sorted_ids.extend(order[start..end].iter().map(|&(.., k)| k));
    }
    drop((runs, order));
    let mut sorted = try_with_capacity::<[u32; K]>(items.len(), WHAT)?;
    sorted.extend(sorted_ids.iter().map(|&k| items[k as usize]));
    let by_family = colour_greedy(&sorted, particle_count)?;
    drop(sorted);
    let mut colour = try_with_capacity::<u32>(items.len(), "constraint colours")?;
    colour.resize(items.len(), 0);
    for (&k, &c) in sorted_ids.iter().zip(&by_family.colour) {
        colour[k as usize] = c;
    }
    Ok(crate::solver::colouring::Colouring {
        colour,
        colours: by_family.colours,
    })
}

/// Orders `items` (the particle indices of each constraint, in id order): returns the
/// slot of each id and the schedule. Within one colour of one block, slots are in the
/// order of [`within_colour_key`], then id; within one shared colour, in id order.
pub(crate) fn build<const K: usize>(
    items: &[[u32; K]],
    particle_count: usize,
) -> Result<(Vec<u32>, Schedule)> {
    let size = block_size(particle_count);
    let block_of = |item: &[u32; K]| {
        let b = item[0] / size;
        item.iter().all(|&p| p / size == b).then_some(b)
    };
    let mut interior = try_with_capacity::<[u32; K]>(items.len(), "constraint schedule")?;
    let mut shared = try_with_capacity::<[u32; K]>(items.len(), "constraint schedule")?;
    for item in items {
        match block_of(item) {
            Some(_) => interior.push(*item),
            None => shared.push(*item),
        }
    }
    // Interior: blocks are disjoint, so one greedy colouring of all interior items is
    // valid within every block (coloured family by family). Sort by (block, colour),
    // then within a colour by
    // (the item's index span, its first particle, id): the constraints of one colour
    // share no particle, so their order changes no result, and this one lines up
    // the rows of a grid (`kernels::distance_grid`).
    let colours = colour_by_family(&interior, size, particle_count)?;
    let mut keys = try_with_capacity::<(u64, u64, u32)>(interior.len(), "constraint schedule")?;
    keys.extend(
        interior
            .iter()
            .zip(&colours.colour)
            .enumerate()
            .map(|(k, (item, &c))| {
                let b = item[0] / size;
                (
                    ((b as u64) << 32) | c as u64,
                    within_colour_key(item),
                    k as u32,
                )
            }),
    );
    keys.sort_unstable();
    let mut interior_slot = try_with_capacity::<u32>(interior.len(), "constraint schedule")?;
    interior_slot.resize(interior.len(), 0);
    let mut blocks: Vec<Vec<u32>> = Vec::new();
    let mut block_ids: Vec<u32> = Vec::new();
    let mut last_key: Option<u64> = None;
    for (slot, &(key, _, k)) in keys.iter().enumerate() {
        interior_slot[k as usize] = slot as u32;
        if last_key.map(|l| l >> 32) != Some(key >> 32) {
            if let Some(o) = blocks.last_mut() {
                o.push(slot as u32);
            }
            blocks.push(vec![slot as u32]);
            block_ids.push((key >> 32) as u32);
        } else if last_key != Some(key) {
            blocks
                .last_mut()
                .expect("a block is open")
                .push(slot as u32);
        }
        last_key = Some(key);
    }
    if let Some(o) = blocks.last_mut() {
        o.push(keys.len() as u32);
    }
    drop(keys);
    // Shared: one greedy colouring, after the interior slots.
    let colours = colour_greedy(&shared, particle_count)?;
    let (shared_slot, mut shared_offsets) = sort_by_colour(&colours)?;
    let base = interior.len() as u32;
    for o in &mut shared_offsets {
        *o += base;
    }
    let mut slot_of = try_with_capacity::<u32>(items.len(), "constraint schedule")?;
    let (mut i, mut s) = (0, 0);
    for item in items {
        if block_of(item).is_some() {
            slot_of.push(interior_slot[i]);
            i += 1;
        } else {
            slot_of.push(base + shared_slot[s]);
            s += 1;
        }
    }
    Ok((
        slot_of,
        Schedule {
            blocks,
            shared: shared_offsets,
            block_ids,
            block_size: size,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the invariants every schedule must keep: `slot_of` is a permutation, no
    /// two constraints of one colour share a particle, every interior constraint lies in
    /// its block and the phases cover all slots in order.
    fn check(items: &[[u32; 2]], n: usize) -> Schedule {
        let (slot_of, s) = build(items, n).unwrap();
        let mut id_of = vec![u32::MAX; items.len()];
        for (id, &slot) in slot_of.iter().enumerate() {
            assert_eq!(id_of[slot as usize], u32::MAX, "slot {slot} used twice");
            id_of[slot as usize] = id as u32;
        }
        let mut colours: Vec<Range<usize>> = Vec::new();
        let mut next = 0;
        for b in 0..s.blocks.len() {
            for r in s.block_colours(b) {
                assert_eq!(r.start, next);
                next = r.end;
                let size = block_size(n);
                let block = items[id_of[r.start] as usize][0] / size;
                for slot in r.clone() {
                    for &p in &items[id_of[slot] as usize] {
                        assert_eq!(p / size, block);
                    }
                }
                colours.push(r);
            }
        }
        assert_eq!(next, s.interior_len());
        for r in s.shared_colours() {
            assert_eq!(r.start, next);
            next = r.end;
            colours.push(r);
        }
        assert_eq!(next, items.len());
        for r in colours {
            let mut seen = std::collections::HashSet::new();
            for slot in r {
                for &p in &items[id_of[slot] as usize] {
                    assert!(seen.insert(p), "particle {p} twice in one colour");
                }
            }
        }
        s
    }

    /// A grid cloth's families are coloured in the host's order (stretch before shear
    /// before bending) and along whole rows: every link to the next row of one grid
    /// row shares a colour (but at the two edge columns, whose particles have one link
    /// along the row, so the greedy colouring finds a lower colour free), and so do the
    /// diagonals of a row (in id order they alternated by column); the links along a
    /// row take two colours (every other one), and the two-apart links two (pairs of
    /// neighbours).
    #[test]
    fn a_grid_is_coloured_family_by_family_along_its_rows() {
        let n = 64u32;
        let [stretch, shear, bend] = crate::scenes::cloth_pairs(n, 0);
        let items = [stretch, shear, bend].concat();
        let (slot_of, s) = build(&items, (n * n) as usize).unwrap();
        check(&items, (n * n) as usize);
        // The colour of each slot, within its block.
        let mut colour_of = vec![u32::MAX; items.len()];
        for b in 0..s.blocks.len() {
            for (c, r) in s.block_colours(b).enumerate() {
                for slot in r {
                    colour_of[slot] = c as u32;
                }
            }
        }
        let colour = |pair: [u32; 2]| {
            let id = items.iter().position(|&p| p == pair).expect("a link");
            colour_of[slot_of[id] as usize]
        };
        let size = block_size((n * n) as usize);
        let rows_per_block = size / n;
        for row in 0..n {
            // Rows inside a block, away from its edges (where a particle has fewer
            // links, and the greedy colouring finds lower colours free).
            if !(2..rows_per_block - 2).contains(&(row % rows_per_block)) {
                continue;
            }
            let down: Vec<u32> = (1..n - 1)
                .map(|x| colour([row * n + x, (row + 1) * n + x]))
                .collect();
            assert!(down.iter().all(|&c| c == down[0]), "row {row}: {down:?}");
            let along: Vec<u32> = (0..n - 1)
                .map(|x| colour([row * n + x, row * n + x + 1]))
                .collect();
            for x in 2..n as usize - 1 {
                assert_eq!(along[x], along[x - 2], "row {row}, link {x}: {along:?}");
            }
            assert_ne!(along[0], along[1]);
            // The links two apart: neighbours in pairs, the pairs alternating.
            let bend: Vec<u32> = (2..n - 4)
                .map(|x| colour([row * n + x, row * n + x + 2]))
                .collect();
            for x in 2..bend.len() - 4 {
                let paired = (bend[x] == bend[x - 1]) != (bend[x] == bend[x + 1]);
                assert!(paired, "row {row}, bending link {x}: {bend:?}");
                assert_eq!(
                    bend[x],
                    bend[x + 4],
                    "row {row}, bending link {x}: {bend:?}"
                );
            }
            // The diagonals: whole rows too, but for a wedge from each end of the block's
            // first row, as wide as the row is far from it (where the greedy colouring
            // finds the colours of the other diagonal free).
            let wedge = (row % rows_per_block) as usize + 2;
            for (name, dx) in [("diagonal", [0, 1]), ("antidiagonal", [1, 0])] {
                let d: Vec<u32> = (0..n - 1)
                    .map(|x| colour([row * n + x + dx[0], (row + 1) * n + x + dx[1]]))
                    .collect();
                assert!(
                    d[wedge..d.len() - wedge].iter().all(|&c| c == d[wedge]),
                    "row {row}, {name}: {d:?}"
                );
            }
            // The host's order: stretch first, bending last.
            let shear = colour([row * n + 5, (row + 1) * n + 6]);
            assert!(along[4].max(along[5]).max(down[4]) < shear);
            assert!(shear < bend[4].min(bend[6]));
        }
    }

    #[test]
    fn block_size_aims_at_eight_blocks_within_bounds() {
        assert_eq!(block_size(10), MIN_BLOCK);
        assert_eq!(block_size(64 * 64), 1024);
        assert_eq!(block_size(128 * 128), 2048);
        assert_eq!(block_size(256 * 256), 8192);
        assert_eq!(block_size(1 << 26), MAX_BLOCK);
    }

    #[test]
    fn a_long_chain_is_interior_except_at_block_seams() {
        let n = 8 * MAX_BLOCK as usize;
        assert_eq!(block_size(n), MAX_BLOCK);
        let chain: Vec<[u32; 2]> = (0..n as u32 - 1).map(|i| [i, i + 1]).collect();
        let s = check(&chain, n);
        assert_eq!(s.blocks.len(), 8);
        assert!(
            s.blocks.iter().all(|o| o.len() == 3),
            "two colours per block"
        );
        // The seven links across the seams (8191–8192, ...) share no particle: one
        // shared colour, after the n − 1 − 7 interior links.
        assert_eq!(s.shared, vec![n as u32 - 8, n as u32 - 1]);
    }

    /// Checks a plan's groups form: every shared slot in exactly one run, each run
    /// within one colour and in colour order within its group, and no particle in two
    /// groups (so groups may run at the same time).
    fn check_groups(items: &[[u32; 2]], n: usize) -> Plan {
        let (slot_of, s) = build(items, n).unwrap();
        let plan = Plan::new(&s, items, &slot_of, n).unwrap();
        let mut id_of = vec![0; items.len()];
        for (id, &slot) in slot_of.iter().enumerate() {
            id_of[slot as usize] = id;
        }
        let colour_of = |slot: usize| s.shared_colours().position(|r| r.contains(&slot));
        let mut seen = vec![0u8; items.len()];
        let mut group_of_particle = vec![usize::MAX; n];
        for g in 0..plan.items[1] {
            let mut last_colour = 0;
            plan.shared_item(&s, 1, g, |r| {
                let c = colour_of(r.start).unwrap();
                assert_eq!(colour_of(r.end - 1), Some(c), "run within one colour");
                assert!(c >= last_colour, "colours in order");
                last_colour = c;
                for slot in r {
                    seen[slot] += 1;
                    for &p in &items[id_of[slot]] {
                        let o = &mut group_of_particle[p as usize];
                        assert!(*o == usize::MAX || *o == g, "particle {p} in two groups");
                        *o = g;
                    }
                }
            });
        }
        assert!(seen[..s.interior_len()].iter().all(|&k| k == 0));
        assert!(seen[s.interior_len()..].iter().all(|&k| k == 1));
        plan
    }

    #[test]
    fn seams_of_a_chain_and_a_cloth_run_as_independent_groups() {
        let n = 8 * MAX_BLOCK as usize;
        let chain: Vec<[u32; 2]> = (0..n as u32 - 1).map(|i| [i, i + 1]).collect();
        let plan = check_groups(&chain, n);
        assert_eq!(plan.items, vec![8, 7], "one group per seam");
        let side = 128u32;
        let id = |r: u32, c: u32| r * side + c;
        let mut cloth = Vec::new();
        for r in 0..side {
            for c in 0..side {
                if c + 1 < side {
                    cloth.push([id(r, c), id(r, c + 1)]);
                }
                if r + 1 < side {
                    cloth.push([id(r, c), id(r + 1, c)]);
                }
                if r + 2 < side {
                    cloth.push([id(r, c), id(r + 2, c)]);
                }
            }
        }
        // Without shear each column's links across a seam are a component of their
        // own: 7 × 128, in 16 groups.
        let plan = check_groups(&cloth, (side * side) as usize);
        assert_eq!(plan.items, vec![8, 16]);
        // Shear links join the columns: one component per seam.
        for r in 0..side - 1 {
            for c in 0..side - 1 {
                cloth.push([id(r, c), id(r + 1, c + 1)]);
            }
        }
        let plan = check_groups(&cloth, (side * side) as usize);
        assert_eq!(plan.items, vec![8, 7]);
        // Pairs scattered over the whole world form one component: the colours form.
        let m = 4 * MAX_BLOCK;
        let pairs: Vec<[u32; 2]> = (0..m)
            .flat_map(|i| [[i, (i * 7919 + 4096) % m], [i, (i * 104_729 + 1) % m]])
            .collect();
        let pairs: Vec<[u32; 2]> = pairs.into_iter().filter(|[a, b]| a != b).collect();
        let (slot_of, s) = build(&pairs, m as usize).unwrap();
        let plan = Plan::new(&s, &pairs, &slot_of, m as usize).unwrap();
        assert!(plan.group_runs.is_empty());
        assert_eq!(plan.items.len(), 1 + plan.shared.len());
    }

    #[test]
    fn scattered_pairs_are_shared_and_coloured_once() {
        let n = 5 * MAX_BLOCK;
        let pairs: Vec<[u32; 2]> = (0..1000u32)
            .map(|i| [(i * 7919) % n, (i * 104_729 + 4096) % n])
            .filter(|[a, b]| a != b)
            .collect();
        let s = check(&pairs, n as usize);
        assert!(s.interior_len() < pairs.len());
    }
}
