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
//!   therefore complete: no pair that touches is ever missing, with no cap on the
//!   neighbour count.
//! * **Partial updates**: when some particles moved out of their skins (a few
//!   hundred of 100,000 in a settling pile), only they are re-anchored, at their
//!   current positions (minus the drift so far) with skins from their current
//!   motion (at most the slow cut `s_cut`, so that the grid's cells still reach
//!   every partner). They become *roaming*: each gets a new list, of the slots that
//!   are not roaming (found in the grid, at their anchors) and of the other roaming
//!   ones (a hashed grid of their anchors), both by the build's test
//!   `|a_i − a_j| < e_i + e_j`; the other slots skip roaming entries of their own
//!   lists and see their roaming partners through side pairs sorted by slot. The
//!   validity check is unchanged (a re-anchored particle checks against its new
//!   anchor). A full rebuild runs instead when some particle is fast, when more than
//!   `ROAM_MIN + m/ROAM_SHARE` slots would roam, or when the roaming lists outgrow their
//!   reserved room, so a partial update never allocates; every step starts from a
//!   full build.
//! * **Grid**: cell `C = 2 (r_max + s_cut)`, the largest reach of two *slow*
//!   particles (skins up to `FAST_SKIN · r_max`, with `s_cut` their largest skin),
//!   so a slow particle finds every slow partner in the 3 × 3 × 3 cells around its
//!   own. (Cells of half the reach, 5 × 5 × 5 of them, hold 40% fewer candidates
//!   but split them into 25 runs of one or two particles each; the 9 runs of 3 × 3
//!   rows are tested faster, eight candidates at a time.) A *fast*
//!   particle (skin above `FAST_SKIN · r_max`, when there are at most
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
//!   chunk; everything depends only on the positions, never on the thread count.
//!
//! [`Neighbours::for_each`] iterates the neighbours of a slot within a distance (the
//! loop of a fluid density estimate).

use super::neighbour_kernel::{for_hits, Probe, Records};
use crate::error::{try_reserve, Error, Result};
use crate::math::{Vec3, Vec3A, Vec4};
use crate::particles::{CollisionFilter, Particles};
use crate::simd::Kernel;
use crate::solver::parallel::{DisjointSlice, Executor, CHUNK};

/// The lowest skin, as a fraction of the particle's radius (m/m): room for the small
/// pushes of contacts in a resting pile before a rebuild.
pub const MIN_SKIN: f32 = 0.25;

/// Substeps of relative motion a skin covers.
pub const HORIZON_SUBSTEPS: f32 = 4.0;

/// Fast particles (skin above the largest radius) handled on their own: at most this
/// many plus one per 256 particles; beyond that, skins are clamped to the largest
/// radius and the validity check rebuilds the lists as the particles move.
pub const MAX_FAST: usize = 64;

/// Skins above this fraction of the largest radius make a particle fast.
pub const FAST_SKIN: f32 = 0.5;

/// A slow particle scans the cells within this many of its own: cells are
/// `1 / SLOW_CELLS` of the largest slow reach (see the module doc: 27 cells of R³
/// in 9 runs are tested faster than 125 of (R/2)³ in 25).
const SLOW_CELLS: i64 = 1;

/// Runs tested by one call of the distance kernel: the rows of a slow particle's
/// scan, each split in two where the hashed table wraps.
const RUN_BATCH: usize = 2 * ((2 * SLOW_CELLS + 1) * (2 * SLOW_CELLS + 1)) as usize;

/// Neighbour slots reserved per particle (lists grow beyond it when they must).
const LIST_RESERVE: usize = 16;

/// Side-list pairs reserved per fast particle (grown beyond it when needed).
const FAST_PAIRS_RESERVE: usize = 32;

/// Roaming slots (re-anchored by a partial update, see [`Neighbours::refresh`]) kept
/// before a full rebuild: this many plus one per [`ROAM_SHARE`] particles.
const ROAM_MIN: usize = 256;

/// See [`ROAM_MIN`].
const ROAM_SHARE: usize = 8;

/// Buckets of the grid of `count` roaming slots (a power of two, at least two per
/// slot).
fn roam_table(count: usize) -> usize {
    (2 * count).next_power_of_two().max(64)
}

/// Neighbour slots reserved per roaming slot, and side pairs per roaming slot: a
/// partial update that needs more rebuilds everything instead (no allocation).
const ROAM_LIST_RESERVE: usize = 32;

/// Buckets per particle: a sparse table keeps few particles of other rows in a run.
const TABLE_PER_PARTICLE: usize = 4;

const EMPTY: u32 = u32::MAX;

/// Cells up to this coordinate (in cells) use the `f32` product of the rounded
/// position: within it the rounding error of that product is below 1/4 cell. Beyond
/// it the cell comes from the exact `f64` position `base + hot`.
const NEAR_CELLS: f32 = (1 << 22) as f32;

/// Bound of a cell coordinate: `c ± k` never overflows `i64`.
const FAR_CELLS: f64 = (1u64 << 62) as f64;

/// Whether particle `i` takes part in the search: it has a radius and a filter that
/// lets it collide with something (fluid particles, whose filter has no layer and no
/// mask, meet other particles through the density constraint only).
#[inline(always)]
fn searched(particles: &Particles, i: usize) -> bool {
    let f = &particles.filter[i];
    particles.radius[i] > 0.0 && f.layers != 0 && f.mask != 0
}

/// The cell of the position `base + hot`, in `i64` so that no accepted position
/// overflows it. Near the origin (below [`NEAR_CELLS`], every ordinary scene) it is
/// the `f32` floor of the rounded position; farther out it is `floor((base + hot) /
/// cell)` in `f64`, where two particles in contact get cells at most 1 apart, clamped
/// to ±2^62 so that the neighbour offsets cannot overflow.
#[inline]
fn cell_of(base: Vec3A, hot: Vec4, inv_cell: f32) -> [i64; 3] {
    let x = Vec3A::from(crate::particles::position_of(base, hot)) * inv_cell;
    if let Some(c) = floor_near(x) {
        return c;
    }
    cell_of_slow(base, hot, inv_cell)
}

/// `floor(x)` of every lane as integers when every lane lies within
/// [`NEAR_CELLS`] after the floor (what [`cell_of_slow`] returns for them), else
/// `None`. On x86-64 it truncates with SSE2 and steps down where that rounded up,
/// which is the exact floor of `|x| < 2^23` (no call to `floorf` per lane).
#[inline(always)]
fn floor_near(x: Vec3A) -> Option<[i64; 3]> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of every x86-64 CPU.
        unsafe {
            let v: __m128 = x.into();
            let abs = _mm_andnot_ps(_mm_set1_ps(-0.0), v);
            // NaN fails the comparison: such a lane takes the slow path.
            let small = _mm_cmplt_ps(abs, _mm_set1_ps((1u32 << 23) as f32));
            let t = _mm_cvtepi32_ps(_mm_cvttps_epi32(v));
            let up = _mm_and_ps(_mm_cmpgt_ps(t, v), _mm_set1_ps(1.0));
            let f = _mm_sub_ps(t, up);
            let near = _mm_cmplt_ps(_mm_andnot_ps(_mm_set1_ps(-0.0), f), _mm_set1_ps(NEAR_CELLS));
            if _mm_movemask_ps(_mm_and_ps(small, near)) & 0b111 != 0b111 {
                return None;
            }
            let f = Vec3A::from(f);
            Some([f.x as i64, f.y as i64, f.z as i64])
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let c = x.floor();
        (c.abs().max_element() < NEAR_CELLS).then(|| [c.x as i64, c.y as i64, c.z as i64])
    }
}

/// [`cell_of`] by its definition (see there): the `f32` floor near the origin, the
/// exact `f64` position farther out.
#[cold]
fn cell_of_slow(base: Vec3A, hot: Vec4, inv_cell: f32) -> [i64; 3] {
    let c = (crate::particles::position_of(base, hot) * inv_cell).floor();
    if c.abs().max_element() < NEAR_CELLS {
        return [c.x as i64, c.y as i64, c.z as i64];
    }
    let far = |b: f32, h: f32| -> i64 {
        let x = ((b as f64 + h as f64) * inv_cell as f64).floor();
        // NaN (0 · ∞ for a cell of denormal size) lands in cell 0, consistently.
        if x.is_nan() {
            0
        } else {
            x.clamp(-FAR_CELLS, FAR_CELLS) as i64
        }
    };
    [far(base.x, hot.x), far(base.y, hot.y), far(base.z, hot.z)]
}

/// Bucket of the first cell of row (y, z): coordinates truncated to `i32` (distant
/// cells that share their low bits only share a bucket, like any hash collision:
/// candidates are checked by distance).
#[inline]
fn row_key(cy: i64, cz: i64) -> u32 {
    ((cy as i32).wrapping_mul(689_287_499) ^ (cz as i32).wrapping_mul(283_923_481)) as u32
}

/// The row (y, z) of a cell, truncated to `i32` coordinates like [`row_key`].
#[inline]
fn row_id(cy: i64, cz: i64) -> u64 {
    ((cy as i32 as u32 as u64) << 32) | (cz as i32 as u32 as u64)
}

#[inline]
fn bucket(c: [i64; 3], mask: u32) -> u32 {
    row_key(c[1], c[2]).wrapping_add(c[0] as i32 as u32) & mask
}

/// Cells padded on both ends of every row, so that a slow scan never leaves its row.
const PAD: i64 = SLOW_CELLS;

/// A dense grid over the particles' box of cells: cell (x, y, z) is bucket
/// `((z − lo_z) ny + (y − lo_y)) nx + (x − lo_x + PAD)`, rows of `nx` buckets
/// (with padding), no two cells share a bucket.
#[derive(Clone, Copy, Debug, Default)]
struct Dense {
    lo: [i64; 3],
    hi: [i64; 3],
    nx: i64,
    ny: i64,
}

impl Dense {
    #[inline]
    fn bucket(&self, c: [i64; 3]) -> u32 {
        (((c[2] - self.lo[2]) * self.ny + (c[1] - self.lo[1])) * self.nx
            + (c[0] - self.lo[0] + PAD)) as u32
    }
}

/// A raw pointer to the per-chunk lists, shared by the tasks of one pass.
struct ChunkPtr(*mut Vec<u32>);
// SAFETY: each task dereferences only the element of its own chunk index.
unsafe impl Send for ChunkPtr {}
// SAFETY: as above.
unsafe impl Sync for ChunkPtr {}

/// Counters of the search, for reports and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NeighbourStats {
    /// Particles in the search (radius > 0 and a filter with a layer and a mask).
    pub particles: u32,
    /// Listed (ordered) pairs: every pair counts once for each particle that moves.
    pub pairs: u64,
    /// The longest list.
    pub max_neighbours: u32,
    /// Fast particles of the last build (searched on their own).
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
    /// [`Self::bytes`] per particle with a radius.
    pub fn bytes_per_particle(&self) -> u64 {
        self.bytes / (self.particles.max(1) as u64)
    }
}

fn bytes_of<T>(v: &Vec<T>) -> u64 {
    (v.capacity() * std::mem::size_of::<T>()) as u64
}

/// The grid, the permutation, the gathered particle data and the lists.
#[derive(Default)]
pub(crate) struct Neighbours {
    /// Whether any particle has a radius.
    pub active: bool,
    /// Cell edge (m) of the last build: 2 (r_max + s_cut) / SLOW_CELLS.
    cell: f32,
    /// Hash table size − 1 (a power of two minus one).
    mask: u32,
    /// The dense layout of the last build, when the particles' box of cells fits the
    /// table.
    dense: Option<Dense>,
    /// Largest particle radius (m), largest skin of a slow particle (m) and of a
    /// fast one (m), at the last build.
    r_max: f32,
    s_cut: f32,
    s_fast: f32,
    /// Mean velocity at the build (m/s) and the time since (s): the drift `T`.
    drift_velocity: Vec3,
    drift_time: f32,
    /// Per particle: its bucket, its slot (EMPTY without a radius), its skin.
    bucket_of: Vec<u32>,
    slot_of: Vec<u32>,
    skin_of: Vec<f32>,
    /// Per slot.
    order: Vec<u32>,
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
    /// Fast slots, and the (slow slot, fast slot) pairs the slow side must see.
    fast_slots: Vec<u32>,
    pub(crate) fast_pairs: Vec<[u32; 2]>,
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

    /// The particle of slot `k`.
    #[inline]
    pub(crate) fn particle(&self, k: usize) -> usize {
        self.order[k] as usize
    }

    pub(crate) fn stats(&self) -> NeighbourStats {
        let mut bytes = bytes_of(&self.bucket_of)
            + bytes_of(&self.slot_of)
            + bytes_of(&self.skin_of)
            + bytes_of(&self.order)
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
            + bytes_of(&self.fast_slots)
            + bytes_of(&self.fast_pairs)
            + bytes_of(&self.roam_index)
            + bytes_of(&self.roaming)
            + bytes_of(&self.roam_end)
            + bytes_of(&self.roam_lists)
            + bytes_of(&self.side_pairs)
            + bytes_of(&self.roam_start)
            + bytes_of(&self.roam_order)
            + bytes_of(&self.roam_row)
            + bytes_of(&self.roam_bucket);
        for c in &self.chunks {
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
            return;
        }
        for &j in self.list(k) {
            if !self.is_roaming(j as usize) {
                visit(j as usize);
            }
        }
        for p in self.side_partners(k) {
            visit(p[1] as usize);
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
    /// side pairs need [`Self::roam_list`], [`Self::is_roaming`], [`Self::side_pairs`]).
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

    /// The (slot, roaming slot) pairs, sorted by slot: a slot that is not roaming
    /// sees its roaming partners here.
    #[inline]
    pub(crate) fn side_pairs(&self) -> &[[u32; 2]] {
        &self.side_pairs
    }

    /// The (k, roaming slot) pairs of slot k.
    #[inline]
    fn side_partners(&self, k: usize) -> &[[u32; 2]] {
        let p = &self.side_pairs;
        let lo = p.partition_point(|q| (q[0] as usize) < k);
        let hi = lo + p[lo..].partition_point(|q| q[0] as usize == k);
        &p[lo..hi]
    }

    #[cfg_attr(not(test), allow(dead_code))]
    /// The (k, fast slot) pairs of slow slot k.
    #[inline]
    pub(crate) fn fast_partners(&self, k: usize) -> &[[u32; 2]] {
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
            try_reserve(&mut self.slot_of, grow, what)?;
            try_reserve(&mut self.skin_of, grow, what)?;
            self.bucket_of.resize(n, EMPTY);
            self.slot_of.resize(n, EMPTY);
            self.skin_of.resize(n, 0.0);
        }
        let grow = n.saturating_sub(self.order.capacity());
        let what = "neighbour search";
        try_reserve(&mut self.order, grow, what)?;
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
        let fast_cap = MAX_FAST + n / 256;
        let grow = fast_cap.saturating_sub(self.fast_slots.capacity());
        try_reserve(&mut self.fast_slots, grow, what)?;
        // Room for typical lists, so that builds inside a step rarely grow them.
        let grow = (FAST_PAIRS_RESERVE * fast_cap).saturating_sub(self.fast_pairs.capacity());
        try_reserve(&mut self.fast_pairs, grow, what)?;
        for c in 0..chunks {
            let buf = &mut self.chunks[c];
            let want = LIST_RESERVE * CHUNK.min(n - c * CHUNK);
            let grow = want.saturating_sub(buf.capacity());
            try_reserve(buf, grow, what)?;
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
            let (order, skin) = (&self.order, &self.skin);
            let (anchor_base, anchor_hot) = (&self.anchor_base, &self.anchor_hot);
            let base = DisjointSlice::new(&mut self.base);
            let hot = DisjointSlice::new(&mut self.hot);
            let flags = DisjointSlice::new(&mut self.stale);
            let out = std::sync::atomic::AtomicBool::new(false);
            exec.for_ranges_light(m, |range| {
                let mut bad = false;
                for k in range {
                    let i = order[k] as usize;
                    let (b, p) = (particles.base[i], particles.hot[i]);
                    // SAFETY: each slot k is visited by exactly one range.
                    unsafe {
                        base.set(k, b);
                        hot.set(k, p);
                    }
                    let moved = Vec3::from(b - anchor_base[k]) + (p.truncate() - anchor_hot[k]);
                    let s = skin[k];
                    let d2 = (moved - drift).length_squared();
                    bad |= d2 > s * s;
                    let left = d2.partial_cmp(&(s * s)).is_none_or(|o| o.is_gt());
                    // SAFETY: as above.
                    unsafe { flags.set(k, left) };
                }
                if bad {
                    out.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            });
            out.into_inner()
        };
        if stale && self.partial_update(particles, h, drift) {
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

    /// A partial update (see the module doc): re-anchors the slots that left their
    /// skins at their current positions with skins from their current motion, marks
    /// them roaming, and rebuilds the lists of every roaming slot (the grid, built
    /// from the anchors of the others, finds the slots that are not roaming; the
    /// roaming ones in a hashed grid of their own) and the side pairs through which
    /// the other slots see them. Returns false, for a full rebuild, when some slot is
    /// fast, when the roaming slots would exceed their bound, or when a list would
    /// outgrow its reserved room (so it never allocates).
    fn partial_update(&mut self, particles: &Particles, h: f32, drift: Vec3) -> bool {
        if !self.fast_slots.is_empty() {
            return false;
        }
        let m = self.len();
        // Bounds from the slot count alone (never from a capacity, which depends on
        // the history of the buffers): the same world state takes the same path.
        let cap = ROAM_MIN + m / ROAM_SHARE;
        let room = ROAM_LIST_RESERVE * cap;
        let (inv_h, horizon) = (1.0 / h, HORIZON_SUBSTEPS * h);
        let v_mean = self.drift_velocity;
        for k in 0..m {
            // Out of its skin (or NaN): flagged by the refresh.
            if !self.stale[k] {
                continue;
            }
            let p = self.hot[k];
            let b = self.base[k];
            if self.roam_index[k] == EMPTY {
                if self.roaming.len() >= cap {
                    return false;
                }
                self.roam_index[k] = 0;
                self.roaming.push(k as u32);
            }
            // The skin of a build, from the motion now, at most the slow cut (so the
            // grid's cells still hold every partner within SLOW_CELLS cells).
            let i = self.order[k] as usize;
            let r = self.radius[k];
            let v = if p.w != 0.0 {
                particles.velocity[i] + p.truncate() * inv_h
            } else {
                Vec3::ZERO
            };
            let s = (v - v_mean).length() * horizon;
            let floor = MIN_SKIN * r;
            let s = if s.is_finite() {
                s.clamp(floor, self.s_cut.max(floor))
            } else {
                floor
            };
            self.skin[k] = s;
            self.skin_of[i] = s;
            self.extent[k] = r + s;
            self.anchor_base[k] = b;
            self.anchor_hot[k] = p.truncate() - drift;
        }
        self.roaming.sort_unstable();
        // The grid of the roaming slots: a stable counting sort by bucket.
        let rm = self.roaming.len();
        let table = roam_table(rm);
        let rmask = (table - 1) as u32;
        let inv_cell = 1.0 / self.cell;
        self.roam_bucket.clear();
        for idx in 0..rm {
            let k = self.roaming[idx] as usize;
            self.roam_index[k] = idx as u32;
            let c = cell_of(
                self.anchor_base[k],
                self.anchor_hot[k].extend(0.0),
                inv_cell,
            );
            self.roam_bucket.push(bucket(c, rmask));
        }
        self.roam_start.clear();
        self.roam_start.resize(table + 1, 0);
        for &b in &self.roam_bucket {
            self.roam_start[b as usize + 1] += 1;
        }
        for t in 0..table {
            self.roam_start[t + 1] += self.roam_start[t];
        }
        self.roam_order.clear();
        self.roam_order.resize(rm, 0);
        self.roam_row.clear();
        self.roam_row.resize(rm, 0);
        for idx in 0..rm {
            let k = self.roaming[idx] as usize;
            let b = self.roam_bucket[idx] as usize;
            let at = self.roam_start[b] as usize;
            self.roam_start[b] += 1;
            let c = cell_of(
                self.anchor_base[k],
                self.anchor_hot[k].extend(0.0),
                inv_cell,
            );
            self.roam_order[at] = k as u32;
            self.roam_row[at] = row_id(c[1], c[2]);
        }
        for t in (1..=table).rev() {
            self.roam_start[t] = self.roam_start[t - 1];
        }
        self.roam_start[0] = 0;
        let mut lists = std::mem::take(&mut self.roam_lists);
        let mut ends = std::mem::take(&mut self.roam_end);
        let ok = self.roam_scan(&mut lists, &mut ends, rmask, room);
        self.roam_lists = lists;
        self.roam_end = ends;
        if !ok {
            return false;
        }
        // The other side of each (roaming, movable non-roaming) pair.
        self.side_pairs.clear();
        for idx in 0..self.roaming.len() {
            let k = self.roaming[idx];
            let start = if idx == 0 {
                0
            } else {
                self.roam_end[idx - 1] as usize
            };
            for &j in &self.roam_lists[start..self.roam_end[idx] as usize] {
                if self.roam_index[j as usize] == EMPTY && self.hot[j as usize].w != 0.0 {
                    if self.side_pairs.len() == room {
                        return false;
                    }
                    self.side_pairs.push([j, k]);
                }
            }
        }
        self.side_pairs.sort_unstable();
        true
    }

    /// The lists of the roaming slots into `lists` / `ends` (see
    /// [`Self::partial_update`]); false when they outgrow the reserved room. Pairs
    /// are compared at their anchors, like a build: listed within the sum of their
    /// extents.
    fn roam_scan(
        &self,
        lists: &mut Vec<u32>,
        ends: &mut Vec<u32>,
        rmask: u32,
        room: usize,
    ) -> bool {
        lists.clear();
        ends.clear();
        let inv_cell = 1.0 / self.cell;
        for &k in &self.roaming {
            let k = k as usize;
            let (bk, hk) = (self.anchor_base[k], self.anchor_hot[k]);
            let (ek, fk) = (self.extent[k], self.filter[k]);
            let keep = |j: usize| {
                let reach = ek + self.extent[j];
                let sep = Vec3::from(bk - self.anchor_base[j]) + (hk - self.anchor_hot[j]);
                sep.length_squared() < reach * reach && j != k && fk.collides(&self.filter[j])
            };
            let mut push = |j: usize| {
                if lists.len() == room {
                    return Err(());
                }
                lists.push(j as u32);
                Ok(())
            };
            let c = cell_of(bk, hk.extend(0.0), inv_cell);
            let grid = self.for_runs(c, SLOW_CELLS, |run, row| {
                for j in run {
                    if row.is_none_or(|r| self.row[j] == r)
                        && self.roam_index[j] == EMPTY
                        && keep(j)
                    {
                        push(j)?;
                    }
                }
                Ok(())
            });
            if grid.is_err() {
                return false;
            }
            // Roaming partners: the same cells in the grid of the roaming slots.
            let kc = SLOW_CELLS;
            let len = (2 * kc + 1) as u32;
            for dz in -kc..=kc {
                for dy in -kc..=kc {
                    let row = row_id(c[1] + dy, c[2] + dz);
                    let first = row_key(c[1] + dy, c[2] + dz)
                        .wrapping_add((c[0] - kc) as i32 as u32)
                        & rmask;
                    let end = first + len;
                    let (a, b) = if end <= rmask + 1 {
                        ((first, end), (0, 0))
                    } else {
                        ((first, rmask + 1), (0, end - (rmask + 1)))
                    };
                    for (lo, hi) in [a, b] {
                        let run = self.roam_start[lo as usize] as usize
                            ..self.roam_start[hi as usize] as usize;
                        for at in run {
                            let j = self.roam_order[at] as usize;
                            if self.roam_row[at] == row && keep(j) && push(j).is_err() {
                                return false;
                            }
                        }
                    }
                }
            }
            ends.push(lists.len() as u32);
        }
        true
    }

    /// Builds the grid and the lists from the current positions. A particle's velocity
    /// is `velocity + d · inv_h` (`inv_h` = 1/h within a substep, 0 between steps);
    /// skins cover `horizon` seconds of relative motion.
    fn build(
        &mut self,
        particles: &Particles,
        inv_h: f32,
        horizon: f32,
        exec: &Executor,
    ) -> Result<()> {
        let n = particles.len();
        // Largest radius and mean velocity (serial: a fixed order).
        let (mut r_max, mut count) = (0.0f32, 0usize);
        let mut v_sum = Vec3::ZERO;
        let mut moving = 0u32;
        for i in 0..n {
            let r = particles.radius[i];
            if searched(particles, i) {
                r_max = r_max.max(r);
                count += 1;
                let p = particles.hot[i];
                if p.w != 0.0 {
                    v_sum += particles.velocity[i] + p.truncate() * inv_h;
                    moving += 1;
                }
            }
        }
        self.active = count > 0;
        self.stats.particles = count as u32;
        if !self.active {
            self.order.clear();
            return Ok(());
        }
        let v_mean = if moving > 0 {
            v_sum / moving as f32
        } else {
            Vec3::ZERO
        };
        let v_mean = if v_mean.is_finite() {
            v_mean
        } else {
            Vec3::ZERO
        };
        self.drift_velocity = v_mean;
        self.drift_time = 0.0;
        // Skins (parallel), then the fast set and the cell size (serial).
        {
            let skin_of = DisjointSlice::new(&mut self.skin_of);
            exec.for_ranges_light(n, |range| {
                for i in range {
                    let r = particles.radius[i];
                    let s = if searched(particles, i) {
                        let p = particles.hot[i];
                        let v = if p.w != 0.0 {
                            particles.velocity[i] + p.truncate() * inv_h
                        } else {
                            Vec3::ZERO
                        };
                        let s = (v - v_mean).length() * horizon;
                        // NaN or infinity (a body the step will recover): the floor.
                        if s.is_finite() {
                            s.max(MIN_SKIN * r)
                        } else {
                            MIN_SKIN * r
                        }
                    } else {
                        0.0
                    };
                    // SAFETY: each i is visited by exactly one range.
                    unsafe { skin_of.set(i, s) };
                }
            });
        }
        let fast_cap = MAX_FAST + n / 256;
        let mut fast_count = 0usize;
        let (mut s_cut, mut s_fast) = (0.0f32, 0.0f32);
        let cap = FAST_SKIN * r_max;
        for i in 0..n {
            let s = self.skin_of[i];
            if s > cap {
                if particles.hot[i].w != 0.0 {
                    fast_count += 1;
                    s_fast = s_fast.max(s);
                } else {
                    // A pinned particle is never searched on its own.
                    self.skin_of[i] = cap;
                    s_cut = s_cut.max(cap);
                }
            } else {
                s_cut = s_cut.max(s);
            }
        }
        if fast_count > fast_cap {
            // Too many to search one by one: clamp them (the check rebuilds).
            for s in &mut self.skin_of[..n] {
                *s = s.min(cap);
            }
            s_cut = s_cut.max(cap);
            fast_count = 0;
            s_fast = 0.0;
        }
        self.r_max = r_max;
        self.s_cut = s_cut;
        self.s_fast = s_fast;
        self.cell = 2.0 * (r_max + s_cut) / SLOW_CELLS as f32;
        let inv_cell = 1.0 / self.cell;
        let table = (TABLE_PER_PARTICLE * n).next_power_of_two().max(64);
        self.mask = (table - 1) as u32;
        let mask = self.mask;
        // Dense when the box of cells of the particles fits the table (parallel: min
        // and max do not depend on the order).
        let (lo, hi) = {
            use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
            let lo = [i64::MAX; 3].map(AtomicI64::new);
            let hi = [i64::MIN; 3].map(AtomicI64::new);
            exec.for_ranges_light(n, |range| {
                let (mut l, mut u) = ([i64::MAX; 3], [i64::MIN; 3]);
                for i in range {
                    if searched(particles, i) {
                        let c = cell_of(particles.base[i], particles.hot[i], inv_cell);
                        for a in 0..3 {
                            l[a] = l[a].min(c[a]);
                            u[a] = u[a].max(c[a]);
                        }
                    }
                }
                for a in 0..3 {
                    lo[a].fetch_min(l[a], Relaxed);
                    hi[a].fetch_max(u[a], Relaxed);
                }
            });
            (lo.map(AtomicI64::into_inner), hi.map(AtomicI64::into_inner))
        };
        // In f64: cells of far-apart particles can span more than i64 holds.
        let span = |a: usize| hi[a] as f64 - lo[a] as f64 + 1.0;
        let nx = span(0) + 2.0 * PAD as f64;
        let boxed = (0..3).all(|a| hi[a] >= lo[a]);
        self.dense = (boxed && nx * span(1) * span(2) <= table as f64).then(|| Dense {
            lo,
            hi,
            nx: nx as i64,
            ny: span(1) as i64,
        });
        let dense = self.dense;
        // Buckets (parallel).
        {
            let bucket_of = DisjointSlice::new(&mut self.bucket_of);
            exec.for_ranges_light(n, |range| {
                for i in range {
                    let b = if searched(particles, i) {
                        let c = cell_of(particles.base[i], particles.hot[i], inv_cell);
                        match &dense {
                            Some(d) => d.bucket(c),
                            None => bucket(c, mask),
                        }
                    } else {
                        EMPTY
                    };
                    // SAFETY: each i is visited by exactly one range.
                    unsafe { bucket_of.set(i, b) };
                }
            });
        }
        // Counting sort by bucket (serial, stable).
        let starts = &mut self.bucket_start[..table + 1];
        starts.fill(0);
        for &b in &self.bucket_of[..n] {
            if b != EMPTY {
                starts[b as usize + 1] += 1;
            }
        }
        for k in 0..table {
            starts[k + 1] += starts[k];
        }
        // Capacity reserved in begin_step for n slots: no allocation.
        self.order.clear();
        self.order.resize(count, 0);
        for i in 0..n {
            let b = self.bucket_of[i];
            if b != EMPTY {
                let at = starts[b as usize] as usize;
                self.order[at] = i as u32;
                self.slot_of[i] = at as u32;
                starts[b as usize] += 1;
            } else {
                self.slot_of[i] = EMPTY;
            }
        }
        for k in (1..=table).rev() {
            starts[k] = starts[k - 1];
        }
        starts[0] = 0;
        // Gather into slot order (parallel).
        let m = count;
        self.list_end.clear();
        self.list_end.resize(m, 0);
        self.base.resize(m, Vec3A::ZERO);
        self.hot.resize(m, Vec4::ZERO);
        self.radius.resize(m, 0.0);
        self.unyielding.resize(m, 0.0);
        self.filter.resize(m, CollisionFilter::default());
        self.skin.resize(m, 0.0);
        self.extent.resize(m, 0.0);
        self.stale.resize(m, false);
        for a in self.grid_b.iter_mut().chain(&mut self.grid_d) {
            a.resize(m, 0.0);
        }
        self.row.resize(m, 0);
        self.fast.resize(m, false);
        self.anchor_base.resize(m, Vec3A::ZERO);
        self.anchor_hot.resize(m, Vec3::ZERO);
        {
            let order = &self.order;
            let skin_of = &self.skin_of;
            let base = DisjointSlice::new(&mut self.base);
            let hot = DisjointSlice::new(&mut self.hot);
            let radius = DisjointSlice::new(&mut self.radius);
            let unyielding = DisjointSlice::new(&mut self.unyielding);
            let filter = DisjointSlice::new(&mut self.filter);
            let skin = DisjointSlice::new(&mut self.skin);
            let extent = DisjointSlice::new(&mut self.extent);
            let [gbx, gby, gbz] = &mut self.grid_b;
            let gb = [gbx, gby, gbz].map(|a| DisjointSlice::new(a));
            let [gdx, gdy, gdz] = &mut self.grid_d;
            let gd = [gdx, gdy, gdz].map(|a| DisjointSlice::new(a));
            let row = DisjointSlice::new(&mut self.row);
            let fast = DisjointSlice::new(&mut self.fast);
            let anchor_base = DisjointSlice::new(&mut self.anchor_base);
            let anchor_hot = DisjointSlice::new(&mut self.anchor_hot);
            let hashed = dense.is_none();
            exec.for_ranges_light(m, |range| {
                for k in range {
                    let i = order[k] as usize;
                    let (b, p) = (particles.base[i], particles.hot[i]);
                    let s = skin_of[i];
                    // Rows are read in the hashed layout only.
                    let r = if hashed {
                        let c = cell_of(b, p, inv_cell);
                        row_id(c[1], c[2])
                    } else {
                        0
                    };
                    // SAFETY: each slot k is visited by exactly one range.
                    unsafe {
                        extent.set(k, particles.radius[i] + s);
                        row.set(k, r);
                        base.set(k, b);
                        hot.set(k, p);
                        radius.set(k, particles.radius[i]);
                        unyielding.set(k, particles.unyielding[i]);
                        filter.set(k, particles.filter[i]);
                        skin.set(k, s);
                        fast.set(k, fast_count > 0 && s > FAST_SKIN * r_max && p.w != 0.0);
                        anchor_base.set(k, b);
                        anchor_hot.set(k, p.truncate());
                        for a in 0..3 {
                            gb[a].set(k, b[a]);
                            gd[a].set(k, p[a]);
                        }
                    }
                }
            });
        }
        self.uniform = fast_count == 0 && {
            let f = self.filter[0];
            f.collides(&f) && self.filter.iter().all(|g| *g == f)
        };
        self.plain = {
            let r = self.radius[0];
            self.radius.iter().all(|&q| q == r) && self.unyielding.iter().all(|&u| u == 0.0)
        };
        // No slot is roaming after a build (capacity reserved in begin_step).
        self.roam_index.clear();
        self.roam_index.resize(m, EMPTY);
        self.roaming.clear();
        self.roam_end.clear();
        self.roam_lists.clear();
        self.side_pairs.clear();
        // Fast slots, in slot order (capacity reserved in begin_step).
        self.fast_slots.clear();
        if fast_count > 0 {
            for k in 0..m {
                if self.fast[k] {
                    self.fast_slots.push(k as u32);
                }
            }
        }
        self.build_lists(exec)?;
        // The slow side of every (slow, fast) pair.
        self.fast_pairs.clear();
        let mut extra = 0usize;
        for &k in &self.fast_slots {
            extra += self.list(k as usize).len();
        }
        if extra > self.fast_pairs.capacity() {
            try_reserve(&mut self.fast_pairs, 2 * extra, "neighbour lists")?;
        }
        for idx in 0..self.fast_slots.len() {
            let k = self.fast_slots[idx] as usize;
            let c = k / CHUNK;
            let start = if k % CHUNK == 0 {
                0
            } else {
                self.list_end[k - 1] as usize
            };
            for &j in &self.chunks[c][start..self.list_end[k] as usize] {
                if !self.fast[j as usize] && self.hot[j as usize].w != 0.0 {
                    self.fast_pairs.push([j, k as u32]);
                }
            }
        }
        // By slow slot, so that a slot finds its fast partners by binary search.
        self.fast_pairs.sort_unstable();
        self.stats.fast = self.fast_slots.len() as u32;
        self.stats.builds += 1;
        let mut pairs = self.fast_pairs.len() as u64;
        let mut longest = 0u32;
        for k in 0..m {
            let l = self.list(k).len() as u32;
            pairs += l as u64;
            longest = longest.max(l);
        }
        self.stats.pairs = pairs;
        self.stats.max_neighbours = longest;
        Ok(())
    }

    /// The lists of every slot (parallel per chunk).
    fn build_lists(&mut self, exec: &Executor) -> Result<()> {
        let m = self.len();
        let chunks = m.div_ceil(CHUNK);
        let failed = std::sync::atomic::AtomicBool::new(false);
        // Taken out for the pass (the scan reads the rest of self), put back after.
        let mut lists = std::mem::take(&mut self.chunks);
        let mut ends = std::mem::take(&mut self.list_end);
        {
            let ptr = ChunkPtr(lists.as_mut_ptr());
            let ptr = &ptr;
            let list_end = DisjointSlice::new(&mut ends);
            let this = &*self;
            let list_end = &list_end;
            let failed = &failed;
            exec.for_each_index(chunks, m, move |c| {
                // SAFETY: chunk c's buffer is touched by this task only.
                let buf = unsafe { &mut *ptr.0.add(c) };
                buf.clear();
                let slots = c * CHUNK..((c + 1) * CHUNK).min(m);
                // The runs of the last slow slot's cell: the slots of a cell are
                // consecutive, and they scan the same runs.
                let mut cell: Option<[i64; 3]> = None;
                let mut runs = [(0u32, 0u32); RUN_BATCH];
                let mut rows = [0u64; RUN_BATCH];
                let (mut count, mut total) = (0usize, 0usize);
                let inv_cell = 1.0 / this.cell;
                for k in slots {
                    let done = if this.hot[k].w == 0.0 {
                        Ok(())
                    } else if this.fast[k] {
                        this.scan(k, buf)
                    } else {
                        let (bk, hk) = (this.base[k], this.hot[k]);
                        let ck = cell_of(bk, hk, inv_cell);
                        if cell != Some(ck) {
                            (count, total) = (0, 0);
                            // At most RUN_BATCH runs: 3 × 3 rows, each split at most
                            // once where the hashed table wraps.
                            let _ = this.for_runs(ck, SLOW_CELLS, |run, row| {
                                if !run.is_empty() {
                                    runs[count] = (run.start as u32, run.end as u32);
                                    rows[count] = row.unwrap_or(0);
                                    count += 1;
                                    total += run.len();
                                }
                                Ok(())
                            });
                            cell = Some(ck);
                        }
                        let probe = Probe {
                            base: bk,
                            hot: hk,
                            extent: this.extent[k],
                        };
                        let fk = this.filter[k];
                        this.test_runs(
                            k,
                            false,
                            &probe,
                            &fk,
                            &runs[..count],
                            &rows[..count],
                            total,
                            buf,
                        )
                    };
                    if done.is_err() {
                        failed.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                    // SAFETY: slot k belongs to chunk c, visited by this task only.
                    unsafe { list_end.set(k, buf.len() as u32) };
                }
            });
        }
        self.chunks = lists;
        self.list_end = ends;
        if failed.into_inner() {
            return Err(Error::out_of_memory("could not grow the neighbour lists"));
        }
        Ok(())
    }

    /// Whether slot j is a neighbour of slot k: distance first (most candidates fail
    /// it), then the fast split and the filter.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn keeps(
        &self,
        k: usize,
        j: usize,
        fast: bool,
        bk: Vec3A,
        hk: Vec4,
        ek: f32,
        fk: &CollisionFilter,
    ) -> bool {
        let reach = ek + self.extent[j];
        let sep = crate::particles::separation(bk, self.base[j], hk, self.hot[j]);
        sep.length_squared() < reach * reach
            && j != k
            && (fast || !self.fast[j])
            && fk.collides(&self.filter[j])
    }

    /// Appends the neighbours of slot k to `buf` (see the module doc).
    ///
    /// The cells within K of k's cell are scanned row by row: row (y, z) is the run
    /// of buckets `row_key(y, z) + x`, x in `cx − K ..= cx + K`. A bucket run may
    /// hold particles of other rows (hash collisions); a candidate counts only in the
    /// pass of its own row, so none is visited twice and no run needs merging.
    fn scan(&self, k: usize, buf: &mut Vec<u32>) -> std::result::Result<(), ()> {
        let fast = self.fast[k];
        let (bk, hk) = (self.base[k], self.hot[k]);
        let (ek, fk) = (self.extent[k], self.filter[k]);
        let keep = |j: usize| self.keeps(k, j, fast, bk, hk, ek, &fk);
        let push = |j: usize, buf: &mut Vec<u32>| -> std::result::Result<(), ()> {
            if buf.len() == buf.capacity() {
                buf.try_reserve(buf.capacity().max(4 * CHUNK))
                    .map_err(|_| ())?;
            }
            buf.push(j as u32);
            Ok(())
        };
        let reach_cells = if fast {
            ((ek + self.r_max + self.s_fast.max(self.s_cut)) / self.cell).ceil()
        } else {
            SLOW_CELLS as f32
        };
        let m = self.len();
        let side = 2.0 * reach_cells + 1.0;
        if side * side * side > m as f32 {
            // A very fast particle: every slot is a candidate.
            for j in 0..m {
                if keep(j) {
                    push(j, buf)?;
                }
            }
            return Ok(());
        }
        let c = cell_of(bk, hk, 1.0 / self.cell);
        // The runs in batches (a slow particle's 9 or 18 runs in one): one kernel call
        // tests a batch.
        let probe = Probe {
            base: bk,
            hot: hk,
            extent: ek,
        };
        let mut runs = [(0u32, 0u32); RUN_BATCH];
        let mut rows = [0u64; RUN_BATCH];
        let (mut count, mut total) = (0usize, 0usize);
        self.for_runs(c, reach_cells as i64, |run, row| {
            if run.is_empty() {
                return Ok(());
            }
            runs[count] = (run.start as u32, run.end as u32);
            rows[count] = row.unwrap_or(0);
            count += 1;
            total += run.len();
            if count == RUN_BATCH {
                self.test_runs(k, fast, &probe, &fk, &runs, &rows, total, buf)?;
                (count, total) = (0, 0);
            }
            Ok(())
        })?;
        self.test_runs(
            k,
            fast,
            &probe,
            &fk,
            &runs[..count],
            &rows[..count],
            total,
            buf,
        )
    }

    /// Appends to `buf` the slots of `runs` (`total` slots in all; in the hashed
    /// layout, run q holds candidates of row `rows[q]` only) that pass the test of
    /// [`Self::keeps`] for slot k (see [`Self::scan`]).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn test_runs(
        &self,
        k: usize,
        fast: bool,
        probe: &Probe,
        fk: &CollisionFilter,
        runs: &[(u32, u32)],
        rows: &[u64],
        total: usize,
        buf: &mut Vec<u32>,
    ) -> std::result::Result<(), ()> {
        // Room for every candidate first; then the distance test (eight candidates at
        // a time), and the rest of the test without branches: each hit is written at
        // the end of the list, which grows only when it is kept.
        if buf.len() + total > buf.capacity() {
            let grow = buf.capacity().max(4 * CHUNK).max(total);
            buf.try_reserve(grow).map_err(|_| ())?;
        }
        let mut len = buf.len();
        let out = buf.as_mut_ptr();
        let (gb, gd) = (&self.grid_b, &self.grid_d);
        let records = Records {
            b: [&gb[0], &gb[1], &gb[2]],
            d: [&gd[0], &gd[1], &gd[2]],
            e: &self.extent,
        };
        if self.uniform && self.dense.is_some() {
            // Every pair collides, no slot is fast and every run holds its own row:
            // the test is the distance and j ≠ k.
            for_hits(self.kernel, &records, runs, probe, |j, _| {
                // SAFETY: len ≤ hits so far < buf.len() + total ≤ capacity.
                unsafe { out.add(len).write(j as u32) };
                len += (j != k) as usize;
            });
        } else {
            let hashed = self.dense.is_none();
            let (fast_of, filter, row_of) = (&self.fast[..], &self.filter[..], &self.row[..]);
            for_hits(self.kernel, &records, runs, probe, |j, q| {
                // SAFETY: len ≤ hits so far < buf.len() + total ≤ capacity.
                unsafe { out.add(len).write(j as u32) };
                let fj = &filter[j];
                let layers = ((fk.layers & fj.mask) != 0) & ((fj.layers & fk.mask) != 0);
                let group = (fk.group == 0)
                    | (fk.group != fj.group)
                    | (fk.self_collision & fj.self_collision);
                let in_row = !hashed | (row_of[j] == rows[q]);
                let kept = in_row & (j != k) & (fast | !fast_of[j]) & layers & group;
                len += kept as usize;
            });
        }
        // SAFETY: the first len entries are written (len ≤ capacity).
        unsafe { buf.set_len(len) };
        Ok(())
    }

    /// Calls `visit(run, row)` for every run of slots in the cells within `kc` cells
    /// of cell `c`, row by row in bucket order (see [`Self::scan`]); in the hashed
    /// layout, `row` is the row whose slots the run may hold (a slot j of the run
    /// counts only when `self.row[j] == row`).
    #[inline(always)]
    fn for_runs(
        &self,
        c: [i64; 3],
        kc: i64,
        mut visit: impl FnMut(std::ops::Range<usize>, Option<u64>) -> std::result::Result<(), ()>,
    ) -> std::result::Result<(), ()> {
        let starts = &self.bucket_start;
        if let Some(d) = &self.dense {
            // Rows outside the box are empty; a row's run is contiguous.
            for z in (c[2] - kc).max(d.lo[2])..=(c[2] + kc).min(d.hi[2]) {
                for y in (c[1] - kc).max(d.lo[1])..=(c[1] + kc).min(d.hi[1]) {
                    let row = ((z - d.lo[2]) * d.ny + (y - d.lo[1])) * d.nx;
                    // Saturating: a roaming slot's cell may lie up to 2^62 cells from
                    // the box, where the plain differences overflow.
                    let dx = c[0].saturating_sub(d.lo[0]).saturating_add(PAD);
                    let x0 = dx.saturating_sub(kc).max(0);
                    let x1 = dx.saturating_add(kc).min(d.nx - 1);
                    if x0 > x1 {
                        // Cells beyond the box along x (a roaming slot that moved
                        // out of it): empty.
                        continue;
                    }
                    let (a, b) = ((row + x0) as usize, (row + x1 + 1) as usize);
                    visit(starts[a] as usize..starts[b] as usize, None)?;
                }
            }
            return Ok(());
        }
        let mask = self.mask;
        let len = (2 * kc + 1) as u32;
        for dz in -kc..=kc {
            for dy in -kc..=kc {
                let row = row_id(c[1] + dy, c[2] + dz);
                let first =
                    row_key(c[1] + dy, c[2] + dz).wrapping_add((c[0] - kc) as i32 as u32) & mask;
                // The run of the row's buckets: contiguous slots, split where the
                // table wraps.
                let end = first + len;
                let (a, b) = if end <= mask + 1 {
                    ((first, end), (0, 0))
                } else {
                    ((first, mask + 1), (0, end - (mask + 1)))
                };
                for (lo, hi) in [a, b] {
                    visit(
                        starts[lo as usize] as usize..starts[hi as usize] as usize,
                        Some(row),
                    )?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small linear congruential generator (Knuth's MMIX constants): reproducible
    /// clouds without a dependency.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    /// A random cloud: `n` particles in a cube of side `side` (m) around `centre`,
    /// radii in [r/2, r], some pinned, some without a radius, a few body groups, slow
    /// random velocities and `fast` particles 100× faster.
    fn cloud(seed: u64, n: usize, side: f32, centre: Vec3, r: f32, fast: usize) -> Particles {
        let mut rng = Lcg(seed);
        let mut p = Particles::default();
        p.reserve(n).unwrap();
        for i in 0..n {
            let x = centre + Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * side;
            let w = if i % 17 == 0 { 0.0 } else { 1.0 + rng.next() };
            p.push(x, w);
            p.radius[i] = if i % 23 == 0 {
                0.0
            } else {
                r * (0.5 + 0.5 * rng.next())
            };
            let v = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5);
            p.velocity[i] = if i < fast { v * 500.0 } else { v * 0.2 };
            if i % 5 == 0 {
                p.filter[i] = CollisionFilter {
                    group: 1 + (i % 3) as u32,
                    self_collision: i % 10 == 0,
                    ..CollisionFilter::default()
                };
            }
        }
        p
    }

    /// Every ordered pair (i, j) of particles (user indices) that the lists give i.
    fn listed(s: &Neighbours) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for k in 0..s.len() {
            let i = s.particle(k);
            for &j in s.list(k) {
                out.push((i, s.particle(j as usize)));
            }
            for q in s.fast_partners(k) {
                out.push((i, s.particle(q[1] as usize)));
            }
        }
        out.sort_unstable();
        out
    }

    /// The same pairs by brute force over all n² pairs: i moves, both have a radius,
    /// the filter lets them collide, and they lie within r_i + r_j + s_i + s_j.
    fn brute_force(p: &Particles, s: &Neighbours) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let n = p.len();
        for i in 0..n {
            if p.radius[i] <= 0.0 || p.hot[i].w == 0.0 {
                continue;
            }
            for j in 0..n {
                if j == i || p.radius[j] <= 0.0 || !p.filter[i].collides(&p.filter[j]) {
                    continue;
                }
                let reach = p.radius[i] + p.radius[j] + s.skin_of[i] + s.skin_of[j];
                let sep = crate::particles::separation(p.base[i], p.base[j], p.hot[i], p.hot[j]);
                if sep.length_squared() < reach * reach {
                    out.push((i, j));
                }
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn lists_equal_a_brute_force_search() {
        let h = 1.0 / 600.0;
        let exec = Executor::new(1).unwrap();
        let cases = [
            (1u64, 3000usize, 0.5f32, Vec3::ZERO, 0.02f32, 0usize),
            (2, 3000, 0.3, Vec3::new(1.0e3, -2.0e3, 5.0e2), 0.015, 3),
            (3, 2000, 2.0, Vec3::new(-3.0, 0.0, 7.0), 0.05, 40),
            (4, 5000, 0.4, Vec3::ZERO, 0.01, 200), // too many fast: clamped
        ];
        for (case, (seed, n, side, centre, r, fast)) in cases.into_iter().enumerate() {
            let mut p = cloud(seed, n, side, centre, r, fast);
            if case == 1 {
                // Two clusters 5 km apart: the box of cells is far too large for a
                // dense grid, so this case runs on the hashed rows.
                for i in (0..n).step_by(2) {
                    p.base[i].x += 5.0e3;
                }
            }
            let mut s = Neighbours::default();
            s.begin_step(&p, h, &exec).unwrap();
            if case <= 1 {
                assert_eq!(s.dense.is_none(), case == 1, "seed {seed}: layout");
            }
            let got = listed(&s);
            let want = brute_force(&p, &s);
            assert!(!want.is_empty());
            assert_eq!(got.len(), want.len(), "seed {seed}: pair count");
            assert_eq!(got, want, "seed {seed}");
            if (1..=MAX_FAST).contains(&fast) {
                let movable = (0..fast)
                    .filter(|&i| p.radius[i] > 0.0 && p.hot[i].w != 0.0)
                    .count();
                assert_eq!(s.stats().fast as usize, movable, "seed {seed}");
            } else {
                assert_eq!(s.stats().fast, 0, "seed {seed}");
            }
        }
    }

    /// After the particles move (some past their skins), a refresh keeps every
    /// overlapping pair in the lists; `for_each` within r_i + r_j yields exactly the
    /// overlapping pairs.
    ///
    /// With fast particles every refresh that finds a particle out of its skin
    /// rebuilds; without, the few that jumped are re-anchored by partial updates.
    #[test]
    fn refreshed_lists_hold_every_overlapping_pair() {
        for fast in [5, 0] {
            refreshed_lists_case(fast);
        }
    }

    fn refreshed_lists_case(fast: usize) {
        let h = 1.0 / 600.0;
        let exec = Executor::new(1).unwrap();
        let r = 0.02;
        let mut p = cloud(7, 4000, 0.5, Vec3::ZERO, r, fast);
        for i in 0..p.len() {
            p.radius[i] = if p.radius[i] > 0.0 { r } else { 0.0 };
        }
        let mut s = Neighbours::default();
        s.begin_step(&p, h, &exec).unwrap();
        let (builds, partial) = (s.stats().builds, s.stats().partial_updates);
        let mut rng = Lcg(99);
        for round in 0..6 {
            // Random motion: most particles stay within their skins, a few jump.
            for i in 0..p.len() {
                if p.hot[i].w == 0.0 {
                    continue;
                }
                let scale = if i % 97 == round { 4.0 * r } else { 0.1 * r };
                let d = Vec3::new(rng.next() - 0.5, rng.next() - 0.5, rng.next() - 0.5) * scale;
                p.hot[i] += d.extend(0.0);
            }
            if round == 2 {
                // One particle jumps out of the box of cells of the last build
                // (beyond the dense grid's rows): the lists must still hold every
                // overlapping pair.
                let i = (1..p.len())
                    .find(|&i| p.hot[i].w != 0.0 && p.radius[i] > 0.0)
                    .unwrap();
                p.hot[i].x -= 2.0;
            }
            s.advance(h);
            s.refresh(&p, h, &exec);
            let mut got = Vec::new();
            for k in 0..s.len() {
                if s.hot[k].w == 0.0 {
                    continue;
                }
                let i = s.particle(k);
                s.for_each(k, 2.0 * r, |j, _, _| got.push((i, s.particle(j))));
            }
            got.sort_unstable();
            let mut want = Vec::new();
            for i in 0..p.len() {
                if p.radius[i] <= 0.0 || p.hot[i].w == 0.0 {
                    continue;
                }
                for j in 0..p.len() {
                    if j != i
                        && p.radius[j] > 0.0
                        && p.filter[i].collides(&p.filter[j])
                        && (p.position(i) - p.position(j)).length_squared() < 4.0 * r * r
                    {
                        want.push((i, j));
                    }
                }
            }
            want.sort_unstable();
            assert!(!want.is_empty());
            // Positions are compared as base + hot sums in both, to the last bit.
            assert_eq!(got, want, "fast {fast}, round {round}");
        }
        if fast > 0 {
            // (The first rebuild sees the jumps as velocities: too many fast
            // particles, clamped, so later refreshes may update partially.)
            assert!(s.stats().builds > builds, "the jumps must trigger rebuilds");
        } else {
            assert!(
                s.stats().partial_updates >= partial + 6,
                "every round re-anchors the particles that jumped"
            );
        }
    }

    #[test]
    fn search_is_bit_identical_for_any_thread_count() {
        let h = 1.0 / 600.0;
        let p = cloud(11, 40_000, 0.8, Vec3::new(0.5, 1.0, -0.5), 0.01, 20);
        let reference = {
            let mut s = Neighbours::default();
            s.begin_step(&p, h, &Executor::new(1).unwrap()).unwrap();
            (s.order.clone(), listed(&s), s.stats())
        };
        for threads in [2, 4, 8] {
            let mut s = Neighbours::default();
            s.begin_step(&p, h, &Executor::new(threads).unwrap())
                .unwrap();
            assert_eq!(s.order, reference.0, "threads {threads}");
            assert_eq!(listed(&s), reference.1, "threads {threads}");
            assert_eq!(s.stats().pairs, reference.2.pairs, "threads {threads}");
        }
    }
}
