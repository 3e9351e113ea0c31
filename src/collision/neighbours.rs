//! Neighbour search shared by the particle passes (contacts now, fluids next): a grid
//! sorted by cell, hot particle data gathered into cell order, and complete Verlet
//! neighbour lists with per-particle skins.
//!
//! * **Skins** (per particle, from its own motion). At a build, particle i gets the
//!   skin `s_i = max(s_min, |v_i − v̄| · H)`: how far it moves over the horizon
//!   `H = HORIZON_SUBSTEPS · h` relative to the mean velocity `v̄` of the particles
//!   (a block falling as one has no relative motion), never below
//!   `s_min = MIN_SKIN · r_i`. The pair (i, j) is listed when
//!   `|x_i − x_j| < r_i + r_j + s_i + s_j` (and the collision filter lets it collide).
//! * **Validity** (the Verlet criterion, per particle): with `Δ_i` the motion of i
//!   since the build and `T = v̄ t` the drift of the mean, the lists hold every pair
//!   closer than `r_i + r_j` as long as every particle has `|Δ_i − T| ≤ s_i`
//!   (`|x_i − x_j| ≥ |x⁰_i − x⁰_j| − |Δ_i − T| − |Δ_j − T|`). [`Neighbours::refresh`]
//!   checks it while it gathers the positions, before every use. The lists are
//!   therefore complete: no pair that touches is ever missing, except in a crowd
//!   (a slow particle within reach of more than [`MAX_LISTED`] per volume of the
//!   smallest particle, as when particles are added at one point), whose lists keep
//!   the first partners of each scan and fill in as the crowd spreads.
//! * **Partial updates**: when some particles moved out of their skins (a few
//!   hundred of 100,000 in a settling pile), only they are re-anchored, at their
//!   current positions (minus the drift so far) with skins from their current
//!   motion (at most the slow cut `s_cut`, so that the grid's cells still reach
//!   every partner). They become *roaming*: each gets a new list, of the slots that
//!   are not roaming (found in the grid, at their anchors) and of the other roaming
//!   ones (a hashed grid of their anchors), both by the build's test
//!   `|a_i − a_j| < e_i + e_j` (scanned in parallel in parts of `ROAM_PART` roaming
//!   slots and joined in order: the lists of the serial scan, entry for entry); the
//!   other slots skip roaming entries of their own
//!   lists and see their roaming partners through side pairs sorted by slot. Fast
//!   (and wide) slots never roam: each roaming slot is tested against every one of
//!   them, its (slot, fast slot) pairs replace the build's, and the fast slot sees
//!   it through a side pair. The validity check is unchanged (a re-anchored
//!   particle checks against its new anchor). A full rebuild runs instead when a
//!   fast particle leaves its skin, when more than
//!   `ROAM_MIN + m/ROAM_SHARE` slots would roam, or when the roaming lists outgrow their
//!   reserved room, so a partial update never allocates; every step starts from a
//!   full build.
//! * **Wide particles**: a movable particle of radius above [`WIDE_RADIUS`] times
//!   the mean radius is searched on its own as a fast one is (below), when there are
//!   at most [`MAX_FAST`]`+ n/256` of them (otherwise none is wide); `r_grid` is the
//!   largest radius of the others (pinned particles included: they are never searched
//!   on their own), `r_max` the largest of all.
//! * **Grid**: cell `C = 2 (r_grid + s_cut)`, the largest reach of two *slow*
//!   particles (skins up to `FAST_SKIN · r_grid`, with `s_cut` their largest skin),
//!   so a slow particle finds every slow partner in the 3 × 3 × 3 cells around its
//!   own. (Cells of half the reach, 5 × 5 × 5 of them, hold 40% fewer candidates
//!   but split them into 25 runs of one or two particles each; the 9 runs of 3 × 3
//!   rows are tested faster, eight candidates at a time.) A *fast*
//!   particle (skin above `FAST_SKIN · r_grid`, when there are at most
//!   [`MAX_FAST`]`+ n/256` of them; otherwise their skins are clamped and the
//!   validity check rebuilds as they move) scans as many cells as its reach needs
//!   (or every particle, when that is cheaper), and its slow partners see it through
//!   a short side list of (slow, fast) pairs sorted by the slow slot. So one fast
//!   particle never widens the search of the others (no global margin).
//! * **Cell order**: when the box of cells of the particles fits the table (4
//!   buckets per particle), the grid is dense: cell (x, y, z) is bucket
//!   `((z − z₀) n_y + (y − y₀)) n_x + x − x₀ + 1` (rows padded by 1 cell), so a
//!   slow particle scans 9 contiguous runs of the sorted particles (3 × 3 rows of 3
//!   cells). Otherwise (particles spread far apart) a cell falls in bucket
//!   `(hash(y, z) + x) mod 2^k` (Teschner et al. 2003, "Optimized Spatial Hashing
//!   for Collision Detection of Deformable Objects", with the rows kept whole): the
//!   runs are the same, and a candidate counts only in the pass of its own row, so
//!   none is visited twice. A counting sort by bucket (stable) gives the
//!   permutation (slot → particle); positions, inverse masses, radii, skins, filters
//!   and unyielding factors are gathered into slot order (the build's distance
//!   test reads positions and extents from one array per coordinate). User indices never
//!   change: the permutation is internal.
//! * **Lists** (parallel per chunk of 1024 slots): slot k's neighbours are slot
//!   indices in scan order (row by row in bucket order, then by slot), stored per
//!   chunk; everything depends only on the positions, never on the thread count. In
//!   the dense layout scan order is ascending slot order and the test is symmetric
//!   between slow slots, so each slow slot tests only the candidates above it and the
//!   lists are assembled from those forward lists in one pass in slot order (the same
//!   lists, each pair tested once: `build_lists_symmetric`).
//!
//! [`Neighbours::for_each`] iterates the neighbours of a slot within a distance (the
//! loop of a fluid density estimate).

mod build;
mod roam;
#[cfg(test)]
mod tests;

use crate::error::{try_reserve, Error, Result};
use crate::kernels::simd::Kernel;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::{CollisionFilter, Particles};
use crate::solver::parallel::{Blocks, Executor, Rows, SlotOrder, CHUNK};
use crate::spatial::cells::particle_cell;
use crate::spatial::{Dense, Hashed};

/// The lowest skin, as a fraction of the particle's radius (m/m): room for the small
/// pushes of contacts in a resting pile before a rebuild.
pub const MIN_SKIN: f32 = 0.25;

/// Substeps of relative motion a skin covers.
pub const HORIZON_SUBSTEPS: f32 = 4.0;

/// Fast particles (skin above the largest radius) handled on their own: at most this
/// many plus one per 256 particles; beyond that, skins are clamped to the largest
/// radius and the validity check rebuilds the lists as the particles move.
pub const MAX_FAST: usize = 64;

/// Skins above this fraction of the largest radius (of the particles that are not
/// wide) make a particle fast.
pub const FAST_SKIN: f32 = 0.5;

/// A movable particle whose radius is above this many times the mean radius is
/// *wide*: searched on its own like a fast one (at most [`MAX_FAST`] plus one per 256
/// particles, else none is), so that one boulder among sand does not size every
/// particle's cells (with it sizing them, every particle tested the candidates of the
/// boulder's cell).
pub const WIDE_RADIUS: f32 = 4.0;

/// A slow particle scans the cells within this many of its own: cells are
/// `1 / SLOW_CELLS` of the largest slow reach (see the module doc: 27 cells of R³
/// in 9 runs are tested faster than 125 of (R/2)³ in 25).
const SLOW_CELLS: i64 = 1;

/// Runs tested by one call of the distance kernel: the rows of a slow particle's
/// scan, each split in two where the hashed table wraps.
const RUN_BATCH: usize = 2 * ((2 * SLOW_CELLS + 1) * (2 * SLOW_CELLS + 1)) as usize;

/// Neighbour slots reserved per particle (lists grow beyond it when they must).
const LIST_RESERVE: usize = 16;

/// The most partners a slow particle of the smallest radius keeps from its own scan
/// at a build: the first this many within reach, in scan order; a particle of radius
/// r keeps ⌈(r / r_min)³⌉ times as many ([`listed_cap`]). Touching spheres of one
/// size have at most 12 partners, and a slow particle's list in a resting pile about
/// 10 (a larger one among smaller ones: about 10 (1 + r / r_min)³ / 8); a particle
/// that reaches more is in a crowd (particles added at one point, a burst spawned
/// inside itself), whose complete lists grow as N² in time and memory (16,000
/// particles at one point: about 10 s and 2.5 GB for the first step). A crowded
/// particle's list is therefore not complete: it meets the rest of the crowd as the
/// crowd spreads and the lists are built again. In the dense layout a slot keeps its
/// cap of partners above it, so every listed pair stays listed from both sides
/// (momentum conserved); fast and wide particles, at most [`MAX_FAST`]` + n/256` of
/// them, keep every partner. A pinned particle counts only movable partners (its
/// pinned ones take no part in a contact), so a bed of overlapping pinned particles
/// does not spend its cap; a movable particle within reach of more than the cap,
/// pinned or not, is in a crowd (on a bed of pinned particles more than about twice
/// their spacing in radius, say).
pub const MAX_LISTED: usize = 256;

/// The most partners a slow slot of radius `r` keeps ([`MAX_LISTED`] per volume of
/// the smallest particle, radius `r_min`): every partner when that is beyond counting.
fn listed_cap(r: f32, r_min: f32) -> usize {
    let volumes = (r / r_min).powi(3).ceil();
    if volumes < 1.0e6 {
        (volumes as usize).max(1) * MAX_LISTED
    } else {
        usize::MAX
    }
}

/// Candidates per call of the distance kernel in a crowded scan (one of more than
/// [`CROWD_SCAN`] candidates), so that the scan stops soon after [`MAX_LISTED`]
/// hits.
const CROWD_PIECE: u32 = 256;

/// A slow particle's scan of more candidates than this is cut into pieces of
/// [`CROWD_PIECE`]: 8 times the cap of [`MAX_LISTED`] partners (the scan covers 27
/// cells of about its reach, the partners lie within a ball of that reach, 4π/3 of
/// one cell: a scan holds about 6.4 candidates per partner), so below it the scan
/// runs whole, as it always did.
const CROWD_SCAN: usize = 2048;

/// Side-list pairs reserved per fast particle (grown beyond it when needed).
const FAST_PAIRS_RESERVE: usize = 32;

/// Roaming slots (re-anchored by a partial update, see [`Neighbours::refresh`]) kept
/// before a full rebuild: this many plus one per [`ROAM_SHARE`] particles.
const ROAM_MIN: usize = 256;

/// See [`ROAM_MIN`].
const ROAM_SHARE: usize = 8;

/// The most particles of `n` searched on their own (fast or wide): [`MAX_FAST`] plus
/// one per 256.
fn fast_bound(n: usize) -> usize {
    MAX_FAST + n / 256
}

/// Buckets of the grid of `count` roaming slots (a power of two, at least two per
/// slot).
fn roam_table(count: usize) -> usize {
    (2 * count).next_power_of_two().max(64)
}

/// Neighbour slots reserved per roaming slot, and side pairs per roaming slot: a
/// partial update that needs more rebuilds everything instead (no allocation).
const ROAM_LIST_RESERVE: usize = 32;

/// Roaming slots per item of the parallel scan of a partial update (`roam.rs`).
const ROAM_PART: usize = 64;

/// Buckets per particle: a sparse table keeps few particles of other rows in a run.
const TABLE_PER_PARTICLE: usize = 4;

const EMPTY: u32 = u32::MAX;

/// Whether particle `i` takes part in the search: it has a radius and a filter that
/// lets it collide with something (fluid particles, whose filter has no layer and no
/// mask, meet other particles through the density constraint only).
#[inline(always)]
fn searched(particles: &Particles, i: usize) -> bool {
    let f = &particles.filter[i];
    particles.radius[i] > 0.0 && f.layers != 0 && f.mask != 0
}

/// The row (y, z) of a cell, truncated to `i32` coordinates like the hashed layout's
/// buckets (`spatial::row_key`).
#[inline]
fn row_id(cy: i64, cz: i64) -> u64 {
    ((cy as i32 as u32 as u64) << 32) | (cz as i32 as u32 as u64)
}

/// Counters of the search, for reports and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NeighbourStats {
    /// Particles in the search (radius > 0 and a filter with a layer and a mask).
    pub particles: u32,
    /// Listed (ordered) pairs: every pair counts once for each particle that moves.
    pub pairs: u64,
    /// The longest list.
    pub max_neighbours: u32,
    /// Fast and wide particles of the last build (searched on their own).
    pub fast: u32,
    /// Builds since the world was created.
    pub builds: u64,
    /// Partial updates since the world was created: refreshes that re-anchored only
    /// the particles that left their skins instead of rebuilding every list.
    pub partial_updates: u64,
    /// Heap bytes held by the search and the contact pass (grid, permutation,
    /// gathered data, lists, corrections).
    pub bytes: u64,
}

impl NeighbourStats {
    /// [`Self::bytes`] per particle in the search; None when no particle is in it (a
    /// world without radii, whose buffers hold what earlier builds or the contact pass
    /// reserved: dividing by a count of 1 reported all of it per particle).
    pub fn bytes_per_particle(&self) -> Option<u64> {
        (self.particles > 0).then(|| self.bytes / self.particles as u64)
    }
}

fn bytes_of<T>(v: &Vec<T>) -> u64 {
    (v.capacity() * std::mem::size_of::<T>()) as u64
}

/// A cursor over (slot, partner) pairs sorted by slot (the side pairs, the fast
/// pairs), for a pass that visits slots in ascending order: each slot's pairs without
/// a search per slot.
pub(crate) struct Partners<'a> {
    pairs: &'a [[u32; 2]],
    at: usize,
}

impl<'a> Partners<'a> {
    /// A cursor at the first pair of slot `first` or later.
    fn new(pairs: &'a [[u32; 2]], first: usize) -> Self {
        let at = pairs.partition_point(|q| (q[0] as usize) < first);
        Partners { pairs, at }
    }

    /// The pairs of slot k; k must not be below the slot of the previous call.
    #[inline(always)]
    pub(crate) fn of(&mut self, k: usize) -> &'a [[u32; 2]] {
        let p = self.pairs;
        while self.at < p.len() && (p[self.at][0] as usize) < k {
            self.at += 1;
        }
        let start = self.at;
        while self.at < p.len() && p[self.at][0] as usize == k {
            self.at += 1;
        }
        &p[start..self.at]
    }
}

/// The grid, the permutation, the gathered particle data and the lists.
#[derive(Default)]
pub(crate) struct Neighbours {
    /// Whether any particle has a radius.
    pub active: bool,
    /// Cell edge (m) of the last build: 2 (r_grid + s_cut) / SLOW_CELLS.
    cell: f32,
    /// The hashed layout of the last build (used when it is not dense).
    hashed: Hashed,
    /// The dense layout of the last build, when the particles' box of cells fits the
    /// table.
    dense: Option<Dense>,
    /// Largest particle radius (m), largest skin of a slow particle (m) and of a
    /// fast one (m), at the last build.
    r_max: f32,
    /// Smallest radius (m) of a searched particle at the last build.
    r_min: f32,
    s_cut: f32,
    s_fast: f32,
    /// Mean velocity at the build (m/s) and the time since (s): the drift `T`.
    drift_velocity: Vec3,
    drift_time: f32,
    /// Per particle: its bucket, its skin.
    bucket_of: Vec<u32>,
    skin_of: Vec<f32>,
    /// Per slot its particle, per particle its slot (EMPTY without a radius): one to
    /// one, checked after each build.
    order: SlotOrder,
    bucket_start: Vec<u32>,
    /// Positions of the last refresh: base, and hot (displacement, inverse mass).
    pub base: Vec<Vec3A>,
    pub hot: Vec<Vec4>,
    pub radius: Vec<f32>,
    pub unyielding: Vec<f32>,
    filter: Vec<CollisionFilter>,
    skin: Vec<f32>,
    /// Per slot: out of its skin (or not finite) at the last refresh.
    stale: Vec<bool>,
    /// `r + s` per slot: a pair is listed within the sum of its extents.
    extent: Vec<f32>,
    /// Base and hot displacement of the last build per coordinate, in slot order:
    /// the records the build's distance test loads eight at a time.
    grid_b: [Vec<f32>; 3],
    grid_d: [Vec<f32>; 3],
    /// The row of each slot's cell ([`row_id`]; in the hashed layout only, 0 in the
    /// dense one, whose runs hold their own row).
    row: Vec<u64>,
    fast: Vec<bool>,
    anchor_base: Vec<Vec3A>,
    anchor_hot: Vec<Vec3>,
    /// Per slot: end of its list in its chunk's buffer (the start is the previous
    /// slot's end, or 0 at a chunk's first slot).
    list_end: Vec<u32>,
    chunks: Vec<Vec<u32>>,
    /// The symmetric build's scratch (see `build_lists_symmetric`): per chunk, its
    /// slots' forward lists (the partners of higher slot); per slot, the end of its
    /// forward list in its chunk's buffer, and its count of partners of lower slot
    /// (then the cursor where the next one is written).
    forward: Vec<Vec<u32>>,
    forward_end: Vec<u32>,
    backward: Vec<u32>,
    /// Fast slots, and the (slow slot, fast slot) pairs the slow side must see
    /// (sorted; a partial update replaces those of the slots it re-anchors).
    fast_slots: Vec<u32>,
    pub(crate) fast_pairs: Vec<[u32; 2]>,
    /// How many (slow, fast) pairs the last build made: with `FAST_PAIRS_RESERVE`
    /// per fast slot of the bound, the room a partial update may fill (the buffer
    /// holds at least that much, so it never grows there).
    fast_built: usize,
    /// Per slot: its index in `roaming` once a partial update re-anchored it since
    /// the last build, else EMPTY.
    roam_index: Vec<u32>,
    /// Roaming slots (ascending), the end of each one's list in `roam_lists`, the
    /// lists (slots: roaming and not), and the (slot, roaming slot) pairs that the
    /// other side must see, sorted.
    roaming: Vec<u32>,
    roam_end: Vec<u32>,
    roam_lists: Vec<u32>,
    side_pairs: Vec<[u32; 2]>,
    /// The parallel scan of the roaming slots (`roam.rs`): per part of `ROAM_PART`
    /// roaming slots its lists (reserved room: `ROAM_LIST_RESERVE` per slot), and each
    /// slot's list end in its part's buffer; copied into `roam_lists` and `roam_end`.
    roam_parts: Vec<Vec<u32>>,
    roam_part_end: Vec<u32>,
    /// A hashed grid of the roaming slots at their anchors (cells of the main grid,
    /// rows kept whole like its hashed layout): bucket starts, the roaming slots in
    /// bucket order, their rows, and each one's bucket (scratch).
    roam_start: Vec<u32>,
    roam_order: Vec<u32>,
    roam_row: Vec<u64>,
    roam_bucket: Vec<u32>,
    /// Whether, at the last build, no slot was fast and every slot had the same
    /// filter, one that collides with itself (the scan then tests distances only).
    uniform: bool,
    /// Whether, at the last build, every slot had the same radius and none was
    /// unyielding (see [`Self::plain`]).
    plain: bool,
    /// Set when a rebuild inside a step could not allocate.
    failed: Option<Error>,
    /// The distance test of a build's runs (AVX where the CPU has it).
    kernel: Kernel,
    stats: NeighbourStats,
}

impl Neighbours {
    /// Number of slots (particles with a radius).
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// Builds of the lists so far (the slot order changes at a build only).
    #[inline]
    pub(crate) fn builds(&self) -> u64 {
        self.stats.builds
    }

    /// The particle of slot `k`.
    #[cfg(test)]
    pub(crate) fn particle(&self, k: usize) -> usize {
        self.order.order()[k] as usize
    }

    /// The slots' particles, one to one (for scattering per slot).
    #[inline]
    pub(crate) fn slot_order(&self) -> &SlotOrder {
        &self.order
    }

    pub(crate) fn stats(&self) -> NeighbourStats {
        let mut bytes = bytes_of(&self.bucket_of)
            + bytes_of(&self.skin_of)
            + self.order.bytes()
            + bytes_of(&self.bucket_start)
            + bytes_of(&self.base)
            + bytes_of(&self.hot)
            + bytes_of(&self.radius)
            + bytes_of(&self.unyielding)
            + bytes_of(&self.filter)
            + bytes_of(&self.skin)
            + bytes_of(&self.extent)
            + bytes_of(&self.stale)
            + self
                .grid_b
                .iter()
                .chain(&self.grid_d)
                .map(bytes_of)
                .sum::<u64>()
            + bytes_of(&self.row)
            + bytes_of(&self.fast)
            + bytes_of(&self.anchor_base)
            + bytes_of(&self.anchor_hot)
            + bytes_of(&self.list_end)
            + bytes_of(&self.chunks)
            + bytes_of(&self.forward)
            + bytes_of(&self.forward_end)
            + bytes_of(&self.backward)
            + bytes_of(&self.fast_slots)
            + bytes_of(&self.fast_pairs)
            + bytes_of(&self.roam_index)
            + bytes_of(&self.roaming)
            + bytes_of(&self.roam_end)
            + bytes_of(&self.roam_lists)
            + bytes_of(&self.roam_part_end)
            + bytes_of(&self.side_pairs)
            + bytes_of(&self.roam_start)
            + bytes_of(&self.roam_order)
            + bytes_of(&self.roam_row)
            + bytes_of(&self.roam_bucket);
        for c in self
            .chunks
            .iter()
            .chain(&self.forward)
            .chain(&self.roam_parts)
        {
            bytes += bytes_of(c);
        }
        NeighbourStats {
            bytes,
            ..self.stats
        }
    }

    /// The listed neighbours of slot `k` (slot indices; fast partners of a slow slot
    /// are in [`Self::fast_pairs`]).
    #[inline]
    pub(crate) fn list(&self, k: usize) -> &[u32] {
        let c = k / CHUNK;
        let start = if k % CHUNK == 0 {
            0
        } else {
            self.list_end[k - 1] as usize
        };
        &self.chunks[c][start..self.list_end[k] as usize]
    }

    /// The loop of a density estimate (Position Based Fluids builds on it; tested
    /// below).
    #[cfg_attr(not(test), allow(dead_code))]
    /// Calls `f(j, x_k − x_j, |x_k − x_j|²)` for every neighbour slot j of slot k
    /// closer than `reach` (m), in list order, then for its fast partners.
    #[inline]
    pub(crate) fn for_each(&self, k: usize, reach: f32, mut f: impl FnMut(usize, Vec3, f32)) {
        let reach2 = reach * reach;
        let (bk, hk) = (self.base[k], self.hot[k]);
        let mut visit = |j: usize| {
            let sep = crate::particles::separation(bk, self.base[j], hk, self.hot[j]);
            let d2 = sep.length_squared();
            if d2 < reach2 {
                f(j, sep, d2);
            }
        };
        if let Some(list) = self.roam_list(k) {
            for &j in list {
                visit(j as usize);
            }
        } else {
            for &j in self.list(k) {
                if !self.is_roaming(j as usize) {
                    visit(j as usize);
                }
            }
            for p in self.side_partners(k) {
                visit(p[1] as usize);
            }
        }
        if !self.fast[k] {
            for p in self.fast_partners(k) {
                visit(p[1] as usize);
            }
        }
    }

    /// Whether every slot has the same radius and none is unyielding (as of the last
    /// build, which every change of radii or unyielding factors precedes: each step
    /// starts with one): the contact sum then needs neither per neighbour.
    #[inline]
    pub(crate) fn plain(&self) -> bool {
        self.plain
    }

    /// Whether a partial update re-anchored some slot since the last build (then
    /// the lists of roaming slots, the roaming entries of the other lists and the
    /// side pairs need [`Self::roam_list`], [`Self::is_roaming`], [`Self::side_cursor`]).
    #[inline]
    pub(crate) fn has_roaming(&self) -> bool {
        !self.roaming.is_empty()
    }

    /// Whether slot k was re-anchored since the last build: its entries in the lists
    /// of others are stale (its partners see it through the side pairs instead).
    #[inline(always)]
    pub(crate) fn is_roaming(&self, k: usize) -> bool {
        self.roam_index[k] != EMPTY
    }

    /// The list of slot k when it is roaming (every partner, roaming or not).
    #[inline]
    pub(crate) fn roam_list(&self, k: usize) -> Option<&[u32]> {
        let idx = self.roam_index[k];
        if idx == EMPTY {
            return None;
        }
        let idx = idx as usize;
        let start = if idx == 0 {
            0
        } else {
            self.roam_end[idx - 1] as usize
        };
        Some(&self.roam_lists[start..self.roam_end[idx] as usize])
    }

    /// A cursor over the (slot, roaming slot) pairs from slot `first` on: a slot that
    /// is not roaming sees its roaming partners there.
    #[inline]
    pub(crate) fn side_cursor(&self, first: usize) -> Partners<'_> {
        Partners::new(&self.side_pairs, first)
    }

    /// A cursor over the (slow slot, fast slot) pairs from slot `first` on.
    #[inline]
    pub(crate) fn fast_cursor(&self, first: usize) -> Partners<'_> {
        Partners::new(&self.fast_pairs, first)
    }

    /// The (k, roaming slot) pairs of slot k.
    #[inline]
    fn side_partners(&self, k: usize) -> &[[u32; 2]] {
        let p = &self.side_pairs;
        let lo = p.partition_point(|q| (q[0] as usize) < k);
        let hi = lo + p[lo..].partition_point(|q| q[0] as usize == k);
        &p[lo..hi]
    }

    /// The (k, fast slot) pairs of slow slot k.
    #[inline]
    fn fast_partners(&self, k: usize) -> &[[u32; 2]] {
        let p = &self.fast_pairs;
        let lo = p.partition_point(|q| (q[0] as usize) < k);
        let hi = lo + p[lo..].partition_point(|q| q[0] as usize == k);
        &p[lo..hi]
    }

    /// Takes the error of a rebuild that failed inside the step.
    pub(crate) fn take_error(&mut self) -> Option<Error> {
        self.failed.take()
    }

    /// Grows the per-particle buffers to `n` particles (the step never allocates for
    /// them afterwards) and builds the lists from the current positions.
    pub(crate) fn begin_step(
        &mut self,
        particles: &Particles,
        h: f32,
        exec: &Executor,
    ) -> Result<()> {
        let n = particles.len();
        if self.bucket_of.len() < n {
            let grow = n - self.bucket_of.len();
            let what = "neighbour search";
            try_reserve(&mut self.bucket_of, grow, what)?;
            try_reserve(&mut self.skin_of, grow, what)?;
            self.bucket_of.resize(n, EMPTY);
            self.skin_of.resize(n, 0.0);
        }
        let grow = n.saturating_sub(self.order.capacity());
        let what = "neighbour search";
        self.order.grow(n, EMPTY, what)?;
        try_reserve(&mut self.base, grow, what)?;
        try_reserve(&mut self.hot, grow, what)?;
        try_reserve(&mut self.radius, grow, what)?;
        try_reserve(&mut self.unyielding, grow, what)?;
        try_reserve(&mut self.filter, grow, what)?;
        try_reserve(&mut self.skin, grow, what)?;
        try_reserve(&mut self.extent, grow, what)?;
        try_reserve(&mut self.stale, grow, what)?;
        for a in self.grid_b.iter_mut().chain(&mut self.grid_d) {
            try_reserve(a, n.saturating_sub(a.capacity()), what)?;
        }
        try_reserve(&mut self.row, grow, what)?;
        try_reserve(&mut self.fast, grow, what)?;
        try_reserve(&mut self.anchor_base, grow, what)?;
        try_reserve(&mut self.anchor_hot, grow, what)?;
        try_reserve(&mut self.list_end, grow, what)?;
        try_reserve(&mut self.forward_end, grow, what)?;
        try_reserve(&mut self.backward, grow, what)?;
        try_reserve(&mut self.roam_index, grow, what)?;
        // Room for every roaming slot of a step: `additional` counts from the length,
        // so the capacity reaches the bound whatever the last step left in them.
        let roam_cap = ROAM_MIN + n / ROAM_SHARE;
        let room = ROAM_LIST_RESERVE * roam_cap;
        fn reserve_to<T>(v: &mut Vec<T>, total: usize, what: &str) -> Result<()> {
            let additional = total.saturating_sub(v.len());
            try_reserve(v, additional, what)
        }
        reserve_to(&mut self.roaming, roam_cap, what)?;
        reserve_to(&mut self.roam_end, roam_cap, what)?;
        reserve_to(&mut self.roam_order, roam_cap, what)?;
        reserve_to(&mut self.roam_row, roam_cap, what)?;
        reserve_to(&mut self.roam_bucket, roam_cap, what)?;
        reserve_to(&mut self.roam_start, roam_table(roam_cap) + 1, what)?;
        reserve_to(&mut self.roam_lists, room, what)?;
        reserve_to(&mut self.roam_part_end, roam_cap, what)?;
        let parts = roam_cap.div_ceil(ROAM_PART);
        if self.roam_parts.len() < parts {
            let grow = parts - self.roam_parts.len();
            try_reserve(&mut self.roam_parts, grow, what)?;
            self.roam_parts.resize_with(parts, Vec::new);
        }
        for buf in &mut self.roam_parts[..parts] {
            reserve_to(buf, ROAM_LIST_RESERVE * ROAM_PART, what)?;
        }
        reserve_to(&mut self.side_pairs, room, what)?;
        let table = (TABLE_PER_PARTICLE * n).next_power_of_two().max(64);
        if self.bucket_start.len() < table + 1 {
            let grow = table + 1 - self.bucket_start.len();
            try_reserve(&mut self.bucket_start, grow, what)?;
            self.bucket_start.resize(table + 1, 0);
        }
        let chunks = n.div_ceil(CHUNK);
        if self.chunks.len() < chunks {
            let grow = chunks - self.chunks.len();
            try_reserve(&mut self.chunks, grow, what)?;
            self.chunks.resize_with(chunks, Vec::new);
        }
        if self.forward.len() < chunks {
            let grow = chunks - self.forward.len();
            try_reserve(&mut self.forward, grow, what)?;
            self.forward.resize_with(chunks, Vec::new);
        }
        let fast_cap = fast_bound(n);
        reserve_to(&mut self.fast_slots, fast_cap, what)?;
        // Room for typical lists, so that builds inside a step rarely grow them, and
        // the room of a partial update's (slot, fast slot) pairs.
        reserve_to(&mut self.fast_pairs, FAST_PAIRS_RESERVE * fast_cap, what)?;
        for c in 0..chunks {
            let want = LIST_RESERVE * CHUNK.min(n - c * CHUNK);
            for (buf, want) in [
                (&mut self.chunks[c], want),
                (&mut self.forward[c], want / 2),
            ] {
                let grow = want.saturating_sub(buf.capacity());
                try_reserve(buf, grow, what)?;
            }
        }
        self.failed = None;
        // Between steps the velocity slot holds the velocity itself.
        self.build(particles, 0.0, HORIZON_SUBSTEPS * h, exec)
    }

    /// Advances the drift of the mean by one substep of `h` seconds (call after each
    /// predict).
    pub(crate) fn advance(&mut self, h: f32) {
        self.drift_time += h;
    }

    /// Gathers the current positions into slot order and checks that every particle
    /// is still within its skin (see the module doc); rebuilds otherwise. `h` (s) is
    /// the substep: within it a particle's velocity is `u + d / h`.
    pub(crate) fn refresh(&mut self, particles: &Particles, h: f32, exec: &Executor) {
        if !self.active {
            return;
        }
        let drift = self.drift_velocity * self.drift_time;
        let m = self.len();
        let stale = {
            let (order, skin) = (self.order.order(), &self.skin);
            let (anchor_base, anchor_hot) = (&self.anchor_base, &self.anchor_hot);
            let parts = (
                Rows::new(&mut self.base[..m]),
                Rows::new(&mut self.hot[..m]),
                Rows::new(&mut self.stale[..m]),
            );
            let out = std::sync::atomic::AtomicBool::new(false);
            exec.for_chunks_light(parts, |range, (base, hot, flags)| {
                let mut bad = false;
                let first = range.start;
                for k in range {
                    let i = order[k] as usize;
                    let (b, p) = (particles.base[i], particles.hot[i]);
                    base[k - first] = b;
                    hot[k - first] = p;
                    let moved = Vec3::from(b - anchor_base[k]) + (p.truncate() - anchor_hot[k]);
                    let s = skin[k];
                    let d2 = (moved - drift).length_squared();
                    bad |= d2 > s * s;
                    let left = d2.partial_cmp(&(s * s)).is_none_or(|o| o.is_gt());
                    flags[k - first] = left;
                }
                if bad {
                    out.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            });
            out.into_inner()
        };
        if stale && self.partial_update(particles, h, drift, exec) {
            self.stats.partial_updates += 1;
            return;
        }
        if stale {
            if let Err(e) = self.build(particles, 1.0 / h, HORIZON_SUBSTEPS * h, exec) {
                self.active = false;
                self.failed.get_or_insert(e);
            }
        }
    }
}
