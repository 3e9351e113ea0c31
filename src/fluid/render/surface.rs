//! A triangle mesh of a fluid's surface, for engines that draw triangles: the level
//! set of a smooth colour field of the particles, extracted on a sparse grid that
//! covers only the cells near particles.
//!
//! The field at a point x, with c the cell size, R the kernel radius and the particles
//! at x_i (Zhu & Bridson 2005 blend the particles into one field as well; this one is
//! their colour-field variant, with a separable kernel):
//!
//! ```text
//! b(t)  = (1 − t²)³ for |t| < 1, else 0        ≈ e^(−3t²): the product is nearly round
//! W(d)  = b(d_x / R) b(d_y / R) b(d_z / R)
//! φ(x)  = Σ_i W(x − x_i) / W_bulk,   W_bulk = (Σ_{k ∈ ℤ} b(k s / R))³
//! ```
//!
//! W_bulk is the sum a particle of the fluid's rest lattice (spacing s) reads, so φ is
//! 1 inside the fluid and 0 far from it; the surface is φ = `threshold` (0.5 by
//! default, which puts a flat face half a spacing beyond its last row of particles:
//! the mesh of a block of N particles encloses about N s³). In a planar world the
//! lattice is a square one (W_bulk = (Σ b)²) and the mesh is a slab across the plane.
//!
//! φ is sampled at the nodes of a grid of cell size c, in blocks of 8 × 8 × 8 nodes
//! kept only where a particle's kernel (or the two nodes beyond it) reaches: the
//! narrow band. Each cell is cut into six tetrahedra around its diagonal (Kuhn's
//! triangulation, the same in every cell, so neighbouring cells agree on every shared
//! face) and each tetrahedron yields 0, 1 or 2 triangles: marching tetrahedra, which
//! has none of marching cubes' ambiguous faces, so the mesh is closed and two-manifold
//! by construction (every edge shared by exactly two triangles), at about twice the
//! triangles. Vertices lie where φ crosses the threshold on the grid's edges (linear
//! interpolation), shared by every triangle on that edge; normals are −∇φ (central
//! differences at the nodes, interpolated like the position), outward. Triangles wind
//! counter-clockwise seen from outside (right-handed: (b − a) × (c − a) points out).
//!
//! Each particle's position and the nodes its kernel reaches are kept in block order
//! (so a block reads them nearly in memory order) and the particle is filed under the
//! blocks its kernel reaches (its span: which neighbours of its home block, from a
//! table). They are worked out in index order, in pieces on the world's threads (the
//! three axes at once, `kernels::splat::place`); one pass on one thread counts the
//! particles of each block and the lengths of the blocks' lists, and one moves the
//! particles' indices into block order (the first stage of the field's pass gathers
//! their feet). Each block computes the factors b(·) of the particles it sums at its own
//! nodes (eight a row on each axis, `kernels::splat`: a row of eight lanes with AVX,
//! four lanes otherwise, the same bits; a stored copy, 36 floats a particle read back
//! by every block it reaches, cost more in cache misses than the arithmetic). Every
//! node's sum runs over the particles in a fixed order (by home block, then by
//! index), one block per task. A block whose cells' corners lie only in blocks wholly
//! outside (or wholly inside) is settled from the sides the splat reports, without
//! reading its nodes; the others read their neighbourhood once into a padded copy and
//! classify their cells a row of eight at a time. The vertices and triangles are
//! written one block per task, each block's run at the start its counts give (runs
//! of eight cells without a crossing skipped): the mesh, order included, does not
//! depend on the thread count. Buffers grow on the first build (and when the mesh
//! grew); later builds do not allocate, and the mesh's own buffers are not refilled
//! (every vertex and index is written).

use crate::error::{try_reserve, Error, Result};
use crate::kernels::simd::Kernel;
use crate::kernels::splat::{place, splat, Foot};
use crate::limits::{MAX_FLUID_SPACING, MAX_SURFACE_BLOCKS};
use crate::math::{Vec3, Vec3A};
use crate::solver::disjoint::StageSlots;
use crate::solver::parallel::{Blocks, Executor, Ragged};

use super::grow;

crate::settings! {
    /// How the surface mesh samples a fluid (marching tetrahedra over a narrow band of
    /// a smooth colour field of its particles): the cell size, the kernel radius and
    /// the level of the surface.
    pub struct SurfaceDesc => SinewSurfaceDesc, SurfaceSettings, cookie 0x5E1E_0406,
        path "crate::fluid::SurfaceDesc" {
        /// Cell size c of the sampling grid; 0 takes the fluid's spacing. At the call it
        /// must lie in [radius / 8, radius]: a smaller cell costs (radius / c)³ node
        /// updates per particle.
        cell_size: f32 = 0.0 => unit "m", min >= 0.0, max <= 4.0 * MAX_FLUID_SPACING,
            auto zero "spacing";
        /// Kernel radius R of the colour field; 0 takes twice the fluid's spacing. At the
        /// call it must lie in [spacing, 4 spacing]: larger is smoother and rounder.
        radius: f32 = 0.0 => unit "m", min >= 0.0, max <= 4.0 * MAX_FLUID_SPACING,
            auto zero "2 spacing";
        /// The level of the surface, as a fraction of the field inside the fluid (1):
        /// lower is fatter.
        threshold: f32 = 0.5 => unit "", min > 0.0, max < 1.0;
    }
}

/// Nodes along a block's edge.
const B: i32 = 8;
/// Nodes per block.
const BN: usize = 512;
/// Block coordinates are packed 21 bits each into a key.
const KEY_BITS: u32 = 21;
/// Nodes beyond a particle's kernel that a block must hold (a crossing cell's lower
/// corner and a vertex's central differences reach two nodes past it).
const MARGIN: i32 = 2;
/// The most blocks in the box around the particles for which a build maps every
/// block of the box (a counting sort into blocks and direct look-ups instead of a
/// sort and binary searches); a larger box (particles far apart) takes those.
const DENSE_BLOCKS: usize = 1 << 18;
/// Blocks the box holds beyond the particles' blocks on each side: a kernel (r ≤ B
/// cells) and the margin reach no farther.
const DENSE_PAD: i32 = 2;
/// Blocks per build below which it runs on one thread.
const PARALLEL_BLOCKS: usize = 8;
/// Particles per task of the passes that place them.
const PIECE: usize = 4096;
/// Particles per build below which they are placed on one thread.
const PARALLEL_PARTICLES: usize = 16384;

/// The vertex and index counts of a built mesh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurfaceCounts {
    /// Vertices (positions and normals).
    pub vertices: u32,
    /// Indices, three per triangle.
    pub indices: u32,
}

/// A fluid's surface mesh, as `World::fluid_surface` lends it.
#[derive(Clone, Copy, Debug)]
pub struct FluidSurface<'a> {
    /// Vertex positions (m).
    pub positions: &'a [Vec3],
    /// Unit outward normals, one per vertex.
    pub normals: &'a [Vec3],
    /// Three per triangle, counter-clockwise seen from outside.
    pub indices: &'a [u32],
}

/// The resolved parameters of one build.
#[derive(Clone, Copy)]
pub(crate) struct Params {
    /// Cell size c (m).
    cell: f32,
    /// The kernel radius in cells, R / c.
    r: f32,
    /// 1 / W_bulk.
    inv_bulk: f32,
    threshold: f32,
}

impl Params {
    /// Resolves `desc` for a fluid of `spacing` (m), checking the relations the desc
    /// cannot check alone.
    pub fn new(desc: &SurfaceDesc, spacing: f32, planar: bool) -> Result<Params> {
        let radius = if desc.radius == 0.0 {
            2.0 * spacing
        } else {
            desc.radius
        };
        let cell = if desc.cell_size == 0.0 {
            spacing
        } else {
            desc.cell_size
        };
        if !(spacing..=4.0 * spacing).contains(&radius) {
            return Err(Error::out_of_range(format!(
                "surface radius {radius} m must lie in [spacing, 4 spacing] = [{spacing}, {}] m for this fluid",
                4.0 * spacing
            )));
        }
        if !(radius / 8.0..=radius).contains(&cell) {
            return Err(Error::out_of_range(format!(
                "surface cell_size {cell} m must lie in [radius / 8, radius] = [{}, {radius}] m (radius {radius} m)",
                radius / 8.0
            )));
        }
        let s = spacing / radius;
        let n = (1.0 / s).floor() as i32 + 1;
        let line: f64 = (-n..=n).map(|k| f64::from(kernel(k as f32 * s))).sum();
        let bulk = if planar {
            line * line
        } else {
            line * line * line
        };
        Ok(Params {
            cell,
            r: radius / cell,
            inv_bulk: (1.0 / bulk) as f32,
            threshold: desc.threshold,
        })
    }
}

/// b(t) = (1 − t²)³ on (−1, 1), 0 outside.
#[inline(always)]
fn kernel(t: f32) -> f32 {
    let q = (1.0 - t * t).max(0.0);
    q * q * q
}

/// The mesh of the last build and the buffers of the next.
#[derive(Default)]
pub(crate) struct Surface {
    /// Per particle: its position (m), and per piece of [`PIECE`] particles the
    /// box around its finite ones.
    points: Vec<Vec3A>,
    bounds: Vec<(Vec3, Vec3)>,
    /// Per particle, in index order: its position in cells and the nodes its kernel
    /// reaches ([`Foot`]), its home block (its index in the box, or its key where
    /// the box is not mapped; `u64::MAX` for a particle that is not finite), and its
    /// span ([`SPAN_BLOCKS`], bits 0..6) with the blocks its kernel and the margin
    /// reach around its home block (bits 8..20, [`Self::marks`]).
    placed: Vec<Foot>,
    homes: Vec<u64>,
    codes: Vec<u32>,
    /// Per finite particle, in `bins` order (so that the blocks read them nearly in
    /// memory order): the particle, and its position and the nodes its kernel
    /// reaches ([`Foot`], gathered from `placed` by the first stage of the field's
    /// pass).
    order: Vec<u32>,
    feet: Vec<Foot>,
    /// The finite particles (the length of `order`, `feet` and `spans` this build).
    finite: usize,
    /// Per finite particle, in `bins` order: the blocks its kernel reaches around its
    /// home block ([`SPAN_BLOCKS`]).
    spans: Vec<u8>,
    /// The particles each block sums (the blocks their kernels reach; as places in
    /// `bins`), block by block: block b's run from `sums_start[b]` to
    /// `sums_start[b + 1]`, in `bins` order.
    sums: Vec<u32>,
    sums_start: Vec<u32>,
    /// (block key, particle) of every finite particle, sorted, where the box is not
    /// mapped.
    bins: Vec<(u64, u32)>,
    /// The box of blocks the particles' kernels can reach, when it is small enough to
    /// map every block of it ([`DENSE_BLOCKS`]), and the map: the count of particles
    /// per block while sorting, then each block's index in `keys` (`u32::MAX` where
    /// the grid has none).
    dense: Option<DenseBox>,
    slots: Vec<u32>,
    /// Per block of the mapped box: the length of its list of particles, and the
    /// blocks its particles' kernels and the margin reach (per axis a, bits 4a and
    /// 4a + 1: one and two blocks below, 4a + 2 and 4a + 3: above).
    lists: Vec<u32>,
    marks: Vec<u16>,
    /// The occupied blocks: key and the range of `bins` they hold.
    occupied: Vec<(u64, u32, u32)>,
    /// The blocks of the grid (keys, sorted), each block's 27 neighbours (indices into
    /// `keys`, `u32::MAX` where absent; index 13 is the block itself).
    keys: Vec<u64>,
    near: Vec<[u32; 27]>,
    /// Per node of each block: φ, the insides of the corners of its cell (bit c for the
    /// corner at node + c, c = x + 2y + 4z; the crossing edges it owns follow, bit d − 1
    /// of [`EDGE_BITS`] for the edge to node + d), the index of its first vertex. The
    /// insides are written only for blocks with crossings (the only ones the vertex and
    /// triangle passes read: a crossing edge lies in a cell of a block with crossings),
    /// the first vertices only for blocks with vertices.
    field: Vec<f32>,
    mask: Vec<u8>,
    first: Vec<u32>,
    /// Per block: which side of the surface its nodes lie on ([`INSIDE_SOME`],
    /// [`INSIDE_ALL`]).
    sides: Vec<u8>,
    /// Per block: its vertices and indices, and where they start in the mesh (the
    /// vertices' starts, `blocks + 1` of them, then the indices').
    counts: Vec<SurfaceCounts>,
    starts: Vec<u32>,
    /// The grid's node 0 (m).
    origin: Vec3,
    /// The mesh: positions (m), unit normals, indices (three per triangle).
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub indices: Vec<u32>,
    /// The fluid of the last build (`None` before one).
    pub fluid: Option<super::super::FluidId>,
    /// The splat's kernel (AVX where the CPU has it).
    kernel: Kernel,
}

/// The key of block (x, y, z) (each in 0..2²¹).
#[inline]
fn key(b: [i32; 3]) -> u64 {
    (b[2] as u64) << (2 * KEY_BITS) | (b[1] as u64) << KEY_BITS | b[0] as u64
}

/// The block coordinates of `key`.
#[inline]
fn unkey(k: u64) -> [i32; 3] {
    let m = (1u64 << KEY_BITS) - 1;
    [
        (k & m) as i32,
        (k >> KEY_BITS & m) as i32,
        (k >> (2 * KEY_BITS)) as i32,
    ]
}

/// A box of blocks, mapped block by block in key order (x fastest, then y, then z).
#[derive(Clone, Copy)]
struct DenseBox {
    /// Its lowest block and its size, in blocks along x, y, z.
    lo: [i32; 3],
    dims: [i32; 3],
}

impl DenseBox {
    /// Blocks in the box.
    fn volume(&self) -> usize {
        self.dims.iter().map(|&d| d as usize).product()
    }

    /// The index of block `c`, `None` outside the box.
    #[inline]
    fn index(&self, c: [i32; 3]) -> Option<usize> {
        let l: [i32; 3] = std::array::from_fn(|a| c[a] - self.lo[a]);
        (0..3)
            .all(|a| (0..self.dims[a]).contains(&l[a]))
            .then(|| ((l[2] * self.dims[1] + l[1]) * self.dims[0] + l[0]) as usize)
    }

    /// The block at index `i`.
    #[inline]
    fn block(&self, i: usize) -> [i32; 3] {
        let i = i as i32;
        let (x, y) = (self.dims[0], self.dims[1]);
        [
            self.lo[0] + i % x,
            self.lo[1] + (i / x) % y,
            self.lo[2] + i / (x * y),
        ]
    }
}

/// No position yet: the box (lowest, highest) around none.
const NO_BOUNDS: (Vec3, Vec3) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));

/// The arrays of the passes that place the particles: the positions and each
/// piece's box (stage 0), then each particle's foot, home and code (stage 1).
struct PlaceParts<'a> {
    points: StageSlots<'a, Vec3A>,
    bounds: StageSlots<'a, (Vec3, Vec3)>,
    placed: StageSlots<'a, Foot>,
    homes: StageSlots<'a, u64>,
    codes: StageSlots<'a, u32>,
}

/// The arrays of the field's pass: the particles' feet in block order (stage 0), φ
/// and the sides of each block (stage 1), the insides of its cells and its counts
/// (stage 2).
struct FieldParts<'a> {
    feet: StageSlots<'a, Foot>,
    field: StageSlots<'a, f32>,
    sides: StageSlots<'a, u8>,
    mask: StageSlots<'a, u8>,
    counts: StageSlots<'a, SurfaceCounts>,
}

/// Where a build's grid lies: its node 0 (m), 1 / cell, and the box of blocks when
/// it is small enough to map.
#[derive(Clone, Copy)]
struct Grid {
    origin: Vec3,
    inv: f32,
    dense: Option<DenseBox>,
}

impl Grid {
    /// The grid of the particles in the boxes `bounds` (lowest and highest finite
    /// position of each piece); `None` when there is none. Rounding keeps the order,
    /// so the extreme positions give the extreme cells and blocks.
    fn new(bounds: &[(Vec3, Vec3)], params: &Params) -> Result<Option<Grid>> {
        let (mut lo, mut hi) = NO_BOUNDS;
        for &(l, h) in bounds {
            lo = lo.min(l);
            hi = hi.max(h);
        }
        if !lo.is_finite() {
            return Ok(None);
        }
        let block = params.cell * B as f32;
        let mut origin = ((lo / block).floor() - 2.0) * block;
        let inv = 1.0 / params.cell;
        // The lowest particle lies at least DENSE_PAD blocks above the origin, so that
        // every block the box and the particles' reach hold has coordinates >= 0 (a
        // block key packs them unsigned). Rounding can leave it just short: one block
        // more on that axis. Far from the world's origin, where f32 positions are
        // spaced wider than a block, no origin gives the margin: refused.
        let margin = Vec3::splat((B * DENSE_PAD) as f32);
        let short = ((lo - origin) * inv).cmplt(margin);
        origin -= Vec3::select(short, Vec3::splat(block), Vec3::ZERO);
        if ((lo - origin) * inv).cmplt(margin).any() {
            return Err(Error::out_of_range(format!(
                "the fluid lies {} m from the world origin, where positions are too coarse for a surface grid of cell size {} m: use a larger cell_size or keep the fluid nearer the origin",
                lo.abs().max(hi.abs()).max_element(),
                params.cell
            )));
        }
        // Room for the kernel and the margin below 2^21 blocks.
        let limit = ((1i64 << KEY_BITS) - 2) as f32 * B as f32 - params.r - MARGIN as f32;
        let (ulo, uhi) = ((lo - origin) * inv, (hi - origin) * inv);
        if uhi.max_element() >= limit {
            return Err(Error::out_of_range(format!(
                "the fluid spans more than {} m, past what one surface grid of cell size {} m holds: use a larger cell_size",
                limit * params.cell,
                params.cell
            )));
        }
        let bmin = ulo.to_array().map(|c| (c as i32).div_euclid(B) - DENSE_PAD);
        let bmax = uhi.to_array().map(|c| (c as i32).div_euclid(B) + DENSE_PAD);
        let dims: [i32; 3] = std::array::from_fn(|a| bmax[a] - bmin[a] + 1);
        let volume = dims.iter().map(|&d| d as u64).product::<u64>();
        let dense = (volume <= DENSE_BLOCKS as u64).then_some(DenseBox { lo: bmin, dims });
        Ok(Some(Grid { origin, inv, dense }))
    }
}

/// The index in `keys` of block `c` (`u32::MAX` where the grid has none): from the
/// box's map when there is one, else a binary search.
#[inline]
fn slot_of(dense: Option<DenseBox>, slots: &[u32], keys: &[u64], c: [i32; 3]) -> u32 {
    match dense {
        Some(d) => d.index(c).map_or(u32::MAX, |i| slots[i]),
        None => keys.binary_search(&key(c)).map_or(u32::MAX, |i| i as u32),
    }
}

/// Offset of the neighbour (dx, dy, dz) in a block's `near` (each in −1..=1).
#[inline]
fn near_index(o: [i32; 3]) -> usize {
    (((o[2] + 1) * 3 + (o[1] + 1)) * 3 + (o[0] + 1)) as usize
}

/// The node (x, y, z) of a block, each in 0..8.
#[inline]
fn node_index(l: [i32; 3]) -> usize {
    ((l[2] * B + l[1]) * B + l[0]) as usize
}

/// The block and node of `n` (relative to block `b`'s first node, within one block of
/// it) given the blocks' neighbours, `None` where the block is absent.
#[inline]
fn locate(near: &[[u32; 27]], b: usize, n: [i32; 3]) -> Option<(usize, usize)> {
    if n.iter().all(|&c| (0..B).contains(&c)) {
        return Some((b, node_index(n)));
    }
    let o = n.map(|c| c.div_euclid(B));
    let l = n.map(|c| c.rem_euclid(B));
    let nb = near[b][near_index(o)];
    (nb != u32::MAX).then(|| (nb as usize, node_index(l)))
}

/// Reads the grid around one block: nodes given relative to the block's first node,
/// within one block of it.
#[derive(Clone, Copy)]
struct View<'a> {
    field: &'a [f32],
    near: &'a [[u32; 27]],
}

/// Nodes along a padded block's edge: one before the block's eight and two after.
const P: usize = B as usize + 3;

/// φ around one block: at its nodes −1..=9 on each axis (relative to its first node),
/// 0 where no block is, copied row by row from the block and its neighbours, so that
/// the passes over one block index it directly.
struct Padded([f32; P * P * P]);

impl Padded {
    fn new() -> Self {
        Padded([0.0; P * P * P])
    }

    /// Fills it around block `b`.
    fn fill(&mut self, view: View<'_>, b: usize) {
        // The runs of a padded row of x: (first node of the run, node in its block,
        // nodes, x offset of its block).
        const RUNS: [(usize, i32, usize, i32); 3] = [
            (0, B - 1, 1, -1),
            (1, 0, B as usize, 0),
            (1 + B as usize, 0, 2, 1),
        ];
        let near = &view.near[b];
        for z in -1..=B + 1 {
            let (oz, lz) = (z.div_euclid(B), z.rem_euclid(B));
            for y in -1..=B + 1 {
                let (oy, ly) = (y.div_euclid(B), y.rem_euclid(B));
                let row = ((z + 1) as usize * P + (y + 1) as usize) * P;
                for &(at, lx, n, ox) in &RUNS {
                    let out = &mut self.0[row + at..row + at + n];
                    let nb = near[near_index([ox, oy, oz])];
                    if nb == u32::MAX {
                        out.fill(0.0);
                    } else {
                        let from = nb as usize * BN + node_index([lx, ly, lz]);
                        out.copy_from_slice(&view.field[from..from + n]);
                    }
                }
            }
        }
    }

    /// φ at node `n` (each coordinate in −1..=9).
    #[inline(always)]
    fn value(&self, n: [i32; 3]) -> f32 {
        self.0[((n[2] + 1) as usize * P + (n[1] + 1) as usize) * P + (n[0] + 1) as usize]
    }

    /// ∇φ at node `n` (each coordinate in 0..=8) in units of 1 / cell (central
    /// differences).
    #[inline(always)]
    fn gradient(&self, n: [i32; 3]) -> Vec3A {
        let d = |a: usize| {
            let (mut p, mut m) = (n, n);
            p[a] += 1;
            m[a] -= 1;
            0.5 * (self.value(p) - self.value(m))
        };
        Vec3A::new(d(0), d(1), d(2))
    }
}

/// The six tetrahedra of a cell (Kuhn): corners as bit sets (x = 1, y = 2, z = 4),
/// each a chain 0 ⊂ e_a ⊂ e_a + e_b ⊂ 7, so every edge runs from a corner to a
/// superset of it (the edge's direction d = upper ^ lower, owned by the lower node).
const TETS: [[u8; 4]; 6] = [
    [0, 1, 3, 7],
    [0, 1, 5, 7],
    [0, 2, 3, 7],
    [0, 2, 6, 7],
    [0, 4, 5, 7],
    [0, 4, 6, 7],
];

/// The corner `c` of a cell as a node offset.
#[inline]
fn corner(c: u8) -> [i32; 3] {
    [(c & 1) as i32, (c >> 1 & 1) as i32, (c >> 2 & 1) as i32]
}

/// The triangles of one tetrahedron whose corners' insides are `inside` (bit k for
/// `tet[k]`): each as three edges (corner pairs), wound so that (b − a) × (c − a)
/// points from the inside corners to the outside ones. Calls `f` once per triangle.
fn tet_triangles(tet: &[u8; 4], inside: u8, mut f: impl FnMut([(u8, u8); 3])) {
    let ins: u8 = inside.count_ones() as u8;
    if ins == 0 || ins == 4 {
        return;
    }
    let mut a = [0u8; 4];
    let mut b = [0u8; 4];
    let (mut na, mut nb) = (0, 0);
    for (k, &c) in tet.iter().enumerate() {
        if inside >> k & 1 == 1 {
            a[na] = c;
            na += 1;
        } else {
            b[nb] = c;
            nb += 1;
        }
    }
    // `dir`: from the inside corners' centroid to the outside ones', times 12.
    let sum = |cs: &[u8]| {
        cs.iter().fold([0i32; 3], |s, &c| {
            std::array::from_fn(|i| s[i] + corner(c)[i])
        })
    };
    let (si, so) = (sum(&a[..na]), sum(&b[..nb]));
    let dir: [i32; 3] = std::array::from_fn(|i| so[i] * 12 / nb as i32 - si[i] * 12 / na as i32);
    let mut emit = |e: [(u8, u8); 3]| {
        // The edge midpoints (doubled): a proper triangle even where the vertices
        // coincide, so its winding decides the mesh's.
        let m = e.map(|(p, q)| {
            let (p, q) = (corner(p), corner(q));
            [p[0] + q[0], p[1] + q[1], p[2] + q[2]]
        });
        let u: [i32; 3] = std::array::from_fn(|i| m[1][i] - m[0][i]);
        let v: [i32; 3] = std::array::from_fn(|i| m[2][i] - m[0][i]);
        let n = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        let dot = n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2];
        f(if dot >= 0 { e } else { [e[0], e[2], e[1]] });
    };
    match na {
        1 => emit([(a[0], b[0]), (a[0], b[1]), (a[0], b[2])]),
        3 => emit([(b[0], a[0]), (b[0], a[1]), (b[0], a[2])]),
        _ => {
            let (i, j, k, l) = (a[0], a[1], b[0], b[1]);
            emit([(i, k), (i, l), (j, l)]);
            emit([(i, k), (j, l), (j, k)]);
        }
    }
}

/// Triangles of one tetrahedron (with `inside` as in [`tet_triangles`]).
const fn tet_triangle_count(inside: u8) -> u32 {
    match inside.count_ones() {
        1 | 3 => 1,
        2 => 2,
        _ => 0,
    }
}

/// The insides of a tetrahedron's corners from a cell's (bit c for corner c).
#[inline]
fn tet_inside(tet: &[u8; 4], cell: u8) -> u8 {
    tet.iter()
        .enumerate()
        .fold(0, |m, (k, &c)| m | (cell >> c & 1) << k)
}

impl Surface {
    /// Builds the mesh of the `count` particles at `position(k)` (m; non-finite ones
    /// are left out) with `params`, replacing the last one.
    pub fn build(
        &mut self,
        count: usize,
        position: impl Fn(usize) -> Vec3 + Sync,
        params: &Params,
        exec: &Executor,
    ) -> Result<SurfaceCounts> {
        self.fluid = None;
        let built = self.mesh(count, position, params, exec);
        if built.is_err() {
            self.clear_mesh();
        }
        built
    }

    /// Empties the mesh (no vertex, no index).
    fn clear_mesh(&mut self) {
        self.positions.clear();
        self.normals.clear();
        self.indices.clear();
    }

    /// [`Self::build`]: the mesh's buffers keep their old contents until the passes
    /// overwrite them (every vertex and index is written), so growing them is all
    /// they cost.
    fn mesh(
        &mut self,
        count: usize,
        position: impl Fn(usize) -> Vec3 + Sync,
        params: &Params,
        exec: &Executor,
    ) -> Result<SurfaceCounts> {
        if !self.place(count, &position, params, exec)? || !self.plan(params)? {
            self.clear_mesh();
            return Ok(SurfaceCounts::default());
        }
        let blocks = self.keys.len();
        let threads = if blocks >= PARALLEL_BLOCKS {
            exec.threads()
        } else {
            1
        };
        // In one staged pass, one block per task: the particles' feet in block order,
        // φ at every node, then the crossing edges and the counts of each block.
        {
            let n = self.finite;
            grow(&mut self.feet, n, Foot::default())?;
            let Surface {
                order,
                placed,
                feet,
                sums,
                sums_start,
                keys,
                near,
                field,
                mask,
                counts,
                sides,
                kernel,
                ..
            } = &mut *self;
            let kernel = *kernel;
            let (order, placed) = (&order[..n], &placed[..]);
            let (sums, starts, keys, near) = (&*sums, &*sums_start, &*keys, &near[..blocks]);
            let inv_r = 1.0 / params.r;
            let (level, iso) = ((params.inv_bulk, params.threshold), params.threshold);
            let per = n.div_ceil(blocks).max(1);
            let parts = FieldParts {
                feet: StageSlots::new(&mut feet[..n], 0, per),
                field: StageSlots::new(&mut field[..blocks * BN], 1, BN),
                sides: StageSlots::new(&mut sides[..blocks], 1, 1),
                mask: StageSlots::new(&mut mask[..blocks * BN], 2, BN),
                counts: StageSlots::new(&mut counts[..blocks], 2, 1),
            };
            exec.staged(threads, 3, blocks, parts, |item, p| {
                let b = item.index();
                match item.stage() {
                    0 => {
                        let feet = item.write(&p.feet);
                        let at = (b * per).min(n);
                        for (foot, &k) in feet.iter_mut().zip(&order[at..]) {
                            *foot = placed[k as usize];
                        }
                    }
                    1 => {
                        let feet = item.read(&p.feet);
                        let (out, side) = item.write((&p.field, &p.sides));
                        let run = &sums[starts[b] as usize..starts[b + 1] as usize];
                        let base = unkey(keys[b]).map(|c| c * B);
                        let out = out.try_into().expect("a block");
                        let s = splat(kernel, base, inv_r, feet, run, level, out);
                        side[0] = (u8::from(s.some) * INSIDE_SOME) | (u8::from(s.all) * INSIDE_ALL);
                    }
                    _ => {
                        let view = View {
                            field: item.read(&p.field),
                            near,
                        };
                        let sides = item.read(&p.sides);
                        let (mask, count) = item.write((&p.mask, &p.counts));
                        count[0] = match settled(near, sides, b) {
                            Some(_) => SurfaceCounts::default(),
                            None => classify(view, b, iso, mask),
                        }
                    }
                }
            });
        }
        let (mut vertices, mut indices) = (0usize, 0usize);
        for c in &self.counts[..blocks] {
            vertices += c.vertices as usize;
            indices += c.indices as usize;
        }
        if vertices > u32::MAX as usize || indices > u32::MAX as usize {
            return Err(Error::out_of_range(format!(
                "the surface has {vertices} vertices and {indices} indices, more than 2^32 - 1: use a larger cell_size"
            )));
        }
        grow(&mut self.positions, vertices, Vec3::ZERO)?;
        grow(&mut self.normals, vertices, Vec3::ZERO)?;
        grow(&mut self.indices, indices, 0)?;
        self.positions.truncate(vertices);
        self.normals.truncate(vertices);
        self.indices.truncate(indices);
        grow(&mut self.starts, 2 * (blocks + 1), 0)?;
        let (vstarts, istarts) = self.starts[..2 * (blocks + 1)].split_at_mut(blocks + 1);
        let (mut v, mut i) = (0u32, 0u32);
        for (b, c) in self.counts[..blocks].iter().enumerate() {
            vstarts[b] = v;
            istarts[b] = i;
            v += c.vertices;
            i += c.indices;
        }
        vstarts[blocks] = v;
        istarts[blocks] = i;
        self.vertices(params, threads, exec);
        self.triangles(threads, exec);
        Ok(SurfaceCounts {
            vertices: vertices as u32,
            indices: indices as u32,
        })
    }

    /// Places the particles in cells from a new origin, with the nodes and blocks each
    /// one's kernel reaches, and sorts them into blocks; false when none is finite.
    ///
    /// Two passes in index order, in pieces on the world's threads: the positions and
    /// the box around the finite ones (which sets the origin and the box of blocks),
    /// then each particle's position in cells, its reach, its span and its home block.
    /// Then, on one thread, a pass that counts the particles of each block (in a
    /// mapped box also the blocks they reach and the lengths of the blocks' lists) and
    /// one that moves them into block order.
    fn place(
        &mut self,
        count: usize,
        position: &(impl Fn(usize) -> Vec3 + Sync),
        params: &Params,
        exec: &Executor,
    ) -> Result<bool> {
        let threads = if count >= PARALLEL_PARTICLES {
            exec.threads()
        } else {
            1
        };
        let pieces = count.div_ceil(PIECE);
        grow(&mut self.points, count, Vec3A::ZERO)?;
        grow(&mut self.bounds, pieces, (Vec3::ZERO, Vec3::ZERO))?;
        grow(&mut self.placed, count, Foot::default())?;
        grow(&mut self.homes, count, 0)?;
        grow(&mut self.codes, count, 0)?;
        let parts = PlaceParts {
            points: StageSlots::new(&mut self.points[..count], 0, PIECE),
            bounds: StageSlots::new(&mut self.bounds[..pieces], 0, 1),
            placed: StageSlots::new(&mut self.placed[..count], 1, PIECE),
            homes: StageSlots::new(&mut self.homes[..count], 1, PIECE),
            codes: StageSlots::new(&mut self.codes[..count], 1, PIECE),
        };
        exec.staged(threads, 2, pieces, parts, |item, p| {
            let i = item.index();
            if item.stage() == 0 {
                let (points, bound) = item.write((&p.points, &p.bounds));
                let (mut lo, mut hi) = NO_BOUNDS;
                for (k, point) in (i * PIECE..).zip(points) {
                    let p = position(k);
                    *point = Vec3A::from(p);
                    if p.is_finite() {
                        lo = lo.min(p);
                        hi = hi.max(p);
                    }
                }
                bound[0] = (lo, hi);
                return;
            }
            // Every piece works out the grid from the pieces' boxes (the same bits).
            let Ok(Some(grid)) = Grid::new(item.read(&p.bounds), params) else {
                return;
            };
            let points = item.read(&p.points);
            let (feet, homes, codes) = item.write((&p.placed, &p.homes, &p.codes));
            let particles = (i * PIECE..).zip(feet).zip(homes).zip(codes);
            for (((k, foot), home), code) in particles {
                let p = Vec3::from(points[k]);
                if !p.is_finite() {
                    *home = u64::MAX;
                    continue;
                }
                let placed = place(Vec3A::from((p - grid.origin) * grid.inv), params.r, MARGIN);
                let hc = placed.home;
                *foot = placed.foot;
                *code = placed.code;
                *home = match grid.dense {
                    Some(d) => d.index(hc).expect("a particle's block in the box") as u64,
                    None => key(hc),
                };
            }
        });
        let Some(grid) = Grid::new(&self.bounds[..pieces], params)? else {
            return Ok(false);
        };
        self.origin = grid.origin;
        self.dense = grid.dense;
        match grid.dense {
            Some(d) => self.sort_dense(d, count)?,
            None => self.sort(count)?,
        }
        Ok(true)
    }

    /// Sorts the particles into blocks in the box `d`: a counting sort (each block
    /// keeps its particles in index order, the order a sort by block and index
    /// gives), which also counts the particles each block sums ([`SPAN_BLOCKS`]) and
    /// gathers the blocks the particles of each block reach ([`Self::marks`]).
    fn sort_dense(&mut self, d: DenseBox, count: usize) -> Result<()> {
        let volume = d.volume();
        grow(&mut self.slots, volume + 1, 0)?;
        grow(&mut self.lists, volume, 0)?;
        grow(&mut self.marks, volume, 0)?;
        let Surface {
            homes,
            codes,
            slots,
            lists,
            marks,
            order,
            spans,
            occupied,
            finite,
            ..
        } = &mut *self;
        let (slots, lists, marks) = (
            &mut slots[..volume + 1],
            &mut lists[..volume],
            &mut marks[..volume],
        );
        slots.fill(0);
        lists.fill(0);
        marks.fill(0);
        // In the box, a neighbour's index is the block's plus a fixed step (a span
        // reaches one block on each side, the box holds two).
        let steps: [isize; 27] = std::array::from_fn(|i| {
            let o = [
                i as isize % 3 - 1,
                (i as isize / 3) % 3 - 1,
                i as isize / 9 - 1,
            ];
            let n = d.dims.map(|n| n as isize);
            (o[2] * n[1] + o[1]) * n[0] + o[0]
        });
        let (homes, codes) = (&homes[..count], &codes[..count]);
        // A run of particles of one block is counted (and its marks gathered) at its
        // end; the lists of the home blocks are their counts (added by `plan`).
        let (mut run, mut n, mut mark) = (usize::MAX, 0u32, 0u16);
        for (&h, &c) in homes.iter().zip(codes) {
            if h == u64::MAX {
                continue;
            }
            let h = h as usize;
            if h != run {
                if run != usize::MAX {
                    slots[run + 1] += n;
                    marks[run] |= mark;
                }
                (run, n, mark) = (h, 0, 0);
            }
            n += 1;
            mark |= (c >> 8) as u16;
            let [list @ .., k] = SPAN_NEIGHBOURS[(c & 63) as usize];
            for &o in &list[..usize::from(k)] {
                lists[(h as isize + steps[usize::from(o)]) as usize] += 1;
            }
        }
        if run != usize::MAX {
            slots[run + 1] += n;
            marks[run] |= mark;
        }
        for i in 1..slots.len() {
            slots[i] += slots[i - 1];
        }
        let n = slots[volume] as usize;
        *finite = n;
        grow(order, n, 0)?;
        grow(spans, n, 0)?;
        for (k, (&h, &c)) in homes.iter().zip(codes).enumerate() {
            if h == u64::MAX {
                continue;
            }
            let s = &mut slots[h as usize];
            order[*s as usize] = k as u32;
            spans[*s as usize] = c as u8;
            *s += 1;
        }
        // Each slot now holds its block's end, the next block's start.
        occupied.clear();
        let mut start = 0u32;
        for (i, &end) in slots[..volume].iter().enumerate() {
            if end > start {
                if occupied.len() == occupied.capacity() {
                    let more = occupied.len().max(64);
                    try_reserve(occupied, more, "surface blocks")?;
                }
                occupied.push((key(d.block(i)), start, end));
            }
            start = end;
        }
        Ok(())
    }

    /// Sorts the particles into blocks (by block, then by index) where the box is too
    /// large to map.
    fn sort(&mut self, count: usize) -> Result<()> {
        self.bins.clear();
        try_reserve(&mut self.bins, count, "surface bins")?;
        for (k, &h) in self.homes[..count].iter().enumerate() {
            if h != u64::MAX {
                self.bins.push((h, k as u32));
            }
        }
        self.bins.sort_unstable();
        let n = self.bins.len();
        self.finite = n;
        grow(&mut self.order, n, 0)?;
        grow(&mut self.spans, n, 0)?;
        for (j, &(_, k)) in self.bins.iter().enumerate() {
            self.order[j] = k;
            self.spans[j] = self.codes[k as usize] as u8;
        }
        self.occupied.clear();
        let mut start = 0usize;
        while start < n {
            let k = self.bins[start].0;
            let mut end = start + 1;
            while end < n && self.bins[end].0 == k {
                end += 1;
            }
            if self.occupied.len() == self.occupied.capacity() {
                let more = self.occupied.len().max(64);
                try_reserve(&mut self.occupied, more, "surface blocks")?;
            }
            self.occupied.push((k, start as u32, end as u32));
            start = end;
        }
        Ok(())
    }

    /// The grid's blocks (every block within a kernel and the margin of a particle)
    /// and their neighbours; false when there is none.
    fn plan(&mut self, params: &Params) -> Result<bool> {
        self.keys.clear();
        self.sums_start.clear();
        let counted = if let Some(d) = self.dense {
            // Marks the blocks (1), then numbers them in key order, each with the
            // length of its list.
            let slots = &mut self.slots[..d.volume()];
            slots.fill(0);
            for &(k, s, e) in &self.occupied {
                let h = unkey(k);
                let at = d.index(h).expect("an occupied block");
                self.lists[at] += e - s;
                let m = u32::from(self.marks[at]);
                let side = |a: usize, bit: usize| (m >> (4 * a + bit) & 1) as i32;
                let lo: [i32; 3] = std::array::from_fn(|a| h[a] - side(a, 0) - side(a, 1));
                let hi: [i32; 3] = std::array::from_fn(|a| h[a] + side(a, 2) + side(a, 3));
                for z in lo[2]..=hi[2] {
                    for y in lo[1]..=hi[1] {
                        for x in lo[0]..=hi[0] {
                            slots[d.index([x, y, z]).expect("a block in the box")] = 1;
                        }
                    }
                }
            }
            let blocks = slots.iter().filter(|&&m| m != 0).count();
            try_reserve(&mut self.keys, blocks, "surface blocks")?;
            try_reserve(&mut self.sums_start, blocks + 1, "surface sums")?;
            for (i, m) in slots.iter_mut().enumerate() {
                if *m != 0 {
                    *m = self.keys.len() as u32;
                    self.keys.push(key(d.block(i)));
                    self.sums_start.push(self.lists[i]);
                } else {
                    *m = u32::MAX;
                    debug_assert_eq!(self.lists[i], 0, "a particle reaches a grid block");
                }
            }
            self.sums_start.push(0);
            true
        } else {
            self.keys_by_sort(params.r)?;
            false
        };
        let blocks = self.keys.len();
        if blocks > MAX_SURFACE_BLOCKS as usize {
            return Err(Error::out_of_range(format!(
                "the surface needs {blocks} blocks of 8x8x8 cells, more than {MAX_SURFACE_BLOCKS}: use a larger cell_size"
            )));
        }
        grow(&mut self.near, blocks, [u32::MAX; 27])?;
        grow(&mut self.field, blocks * BN, 0.0)?;
        grow(&mut self.mask, blocks * BN, 0)?;
        grow(&mut self.first, blocks * BN, 0)?;
        grow(&mut self.counts, blocks, SurfaceCounts::default())?;
        grow(&mut self.sides, blocks, 0)?;
        let (keys, dense, slots) = (&self.keys, self.dense, &self.slots);
        // In the box, a neighbour's index is the block's plus a fixed step.
        let steps: [isize; 27] = std::array::from_fn(|i| {
            let o = [
                i as isize % 3 - 1,
                (i as isize / 3) % 3 - 1,
                i as isize / 9 - 1,
            ];
            let d = dense.map_or([0; 3], |d| d.dims.map(|n| n as isize));
            (o[2] * d[1] + o[1]) * d[0] + o[0]
        });
        for (b, near) in self.near[..blocks].iter_mut().enumerate() {
            let c = unkey(keys[b]);
            if let Some(d) =
                dense.filter(|d| (0..3).all(|a| c[a] > d.lo[a] && c[a] < d.lo[a] + d.dims[a] - 1))
            {
                let at = d.index(c).expect("a block in the box") as isize;
                for (slot, step) in near.iter_mut().zip(steps) {
                    *slot = slots[(at + step) as usize];
                }
                continue;
            }
            for (i, slot) in near.iter_mut().enumerate() {
                let o = [i as i32 % 3 - 1, (i as i32 / 3) % 3 - 1, i as i32 / 9 - 1];
                let n = [c[0] + o[0], c[1] + o[1], c[2] + o[2]];
                *slot = slot_of(dense, slots, keys, n);
            }
        }
        self.contributions(counted)?;
        Ok(blocks > 0)
    }

    /// The grid's blocks (`keys`) without a map of the box: every block within a
    /// kernel (`reach` cells) and the margin of the particles of each occupied
    /// block, sorted and deduplicated.
    fn keys_by_sort(&mut self, reach: f32) -> Result<()> {
        for o in 0..self.occupied.len() {
            let (_, s, e) = self.occupied[o];
            let run = &self.order[s as usize..e as usize];
            let (lo, hi) = block_reach(run.iter().map(|&k| &self.placed[k as usize]), reach);
            let n = (0..3)
                .map(|a| (hi[a] - lo[a] + 1) as usize)
                .product::<usize>();
            try_reserve(&mut self.keys, n, "surface blocks")?;
            for z in lo[2]..=hi[2] {
                for y in lo[1]..=hi[1] {
                    for x in lo[0]..=hi[0] {
                        self.keys.push(key([x, y, z]));
                    }
                }
            }
            if self.keys.len() > 8 * MAX_SURFACE_BLOCKS as usize {
                self.keys.sort_unstable();
                self.keys.dedup();
            }
        }
        self.keys.sort_unstable();
        self.keys.dedup();
        Ok(())
    }

    /// The particles each block sums: every particle is filed under each block its
    /// kernel reaches (its own block and, at most, the next one on each axis: its
    /// [`SPAN_BLOCKS`]), in `bins` order (by home block, then by index), so each block
    /// reads only the particles that reach it, in the order the field's sums take.
    /// `counted`: `sums_start` holds the length of each block's list already (the
    /// counting sort took them).
    fn contributions(&mut self, counted: bool) -> Result<()> {
        let blocks = self.keys.len();
        if !counted {
            self.sums_start.clear();
            try_reserve(&mut self.sums_start, blocks + 1, "surface sums")?;
            self.sums_start.resize(blocks + 1, 0);
            self.file(false);
        }
        // The counts made the runs' starts, then the runs (each start advancing to its
        // run's end).
        let mut at = 0u32;
        for s in &mut self.sums_start[..blocks + 1] {
            let n = *s;
            *s = at;
            at += n;
        }
        grow(&mut self.sums, at as usize, 0)?;
        self.file(true);
        // Each entry now holds its block's end: shift them to the starts.
        self.sums_start.copy_within(..blocks, 1);
        self.sums_start[0] = 0;
        Ok(())
    }

    /// One pass over the particles in block order, for each block a particle's
    /// kernel reaches: adds one to the block's `sums_start`, and (`fill`) first writes
    /// the particle at that place of `sums`.
    fn file(&mut self, fill: bool) {
        let Surface {
            occupied,
            spans,
            near,
            dense,
            slots,
            keys,
            sums,
            sums_start,
            ..
        } = &mut *self;
        for &(home, start, end) in occupied.iter() {
            let hb = slot_of(*dense, slots, keys, unkey(home));
            debug_assert!(hb != u32::MAX, "an occupied block");
            let near = &near[hb as usize];
            for (k, &span) in (start..end).zip(&spans[start as usize..end as usize]) {
                let [list @ .., n] = SPAN_BLOCKS[usize::from(span & 63)];
                for &o in &list[..usize::from(n)] {
                    let at = &mut sums_start[near[usize::from(o)] as usize];
                    if fill {
                        sums[*at as usize] = k;
                    }
                    *at += 1;
                }
            }
        }
    }

    /// Writes the vertices, each block's run at its start (`first` of each node of a
    /// block with vertices set on the way), one block per task.
    fn vertices(&mut self, params: &Params, threads: usize, exec: &Executor) {
        let blocks = self.keys.len();
        let Surface {
            keys,
            near,
            field,
            mask,
            first,
            starts,
            origin,
            positions,
            normals,
            ..
        } = &mut *self;
        let view = View {
            field: &field[..blocks * BN],
            near: &near[..blocks],
        };
        let (keys, mask, origin) = (&keys[..blocks], &mask[..blocks * BN], *origin);
        let vstarts = &starts[..blocks + 1];
        exec.for_items(
            threads,
            (
                Blocks::new(&mut first[..blocks * BN], BN),
                Ragged::new(positions, vstarts),
                Ragged::new(normals, vstarts),
            ),
            |b, (first, positions, normals)| {
                if positions.is_empty() {
                    return;
                }
                let out = BlockVertices {
                    start: vstarts[b],
                    first,
                    positions,
                    normals,
                };
                block_vertices(
                    view,
                    b,
                    unkey(keys[b]),
                    &mask[b * BN..(b + 1) * BN],
                    origin,
                    params,
                    out,
                );
            },
        );
    }

    /// Writes the triangles: each block's run at its start, cell by cell, tetrahedron
    /// by tetrahedron, one block per task.
    fn triangles(&mut self, threads: usize, exec: &Executor) {
        let blocks = self.keys.len();
        let Surface {
            near,
            mask,
            first,
            starts,
            indices,
            ..
        } = &mut *self;
        let (near, mask, first) = (&near[..blocks], &mask[..blocks * BN], &first[..blocks * BN]);
        let istarts = &starts[blocks + 1..2 * (blocks + 1)];
        exec.for_items(threads, Ragged::new(indices, istarts), |b, out| {
            if !out.is_empty() {
                block_triangles(near, mask, first, b, out);
            }
        });
    }
}

/// Where one block writes its vertices: its start in the mesh, the first vertex of
/// each of its nodes, and its run of positions and normals.
struct BlockVertices<'a> {
    start: u32,
    first: &'a mut [u32],
    positions: &'a mut [Vec3],
    normals: &'a mut [Vec3],
}

/// The vertices of block `b` (block coordinates `bc`, cells `mask`), node by node,
/// edge by edge.
fn block_vertices(
    view: View<'_>,
    b: usize,
    bc: [i32; 3],
    mask: &[u8],
    origin: Vec3,
    params: &Params,
    out: BlockVertices<'_>,
) {
    let (iso, cell) = (params.threshold, params.cell);
    let base = bc.map(|c| c * B);
    let mut pad = Padded::new();
    pad.fill(view, b);
    let mut j = 0usize;
    // Runs of eight nodes that own no crossing edge are skipped: nothing reads their
    // first vertex.
    for run in (0..BN).step_by(8) {
        if uniform(&mask[run..run + 8]) {
            continue;
        }
        for k in run..run + 8 {
            let m = EDGE_BITS[mask[k] as usize];
            out.first[k] = out.start + j as u32;
            if m == 0 {
                continue;
            }
            let l = [k as i32 % B, (k as i32 / B) % B, k as i32 / (B * B)];
            let f0 = pad.value(l);
            let g0 = pad.gradient(l);
            let node = Vec3A::from_array([0, 1, 2].map(|a| (base[a] + l[a]) as f32));
            // Its crossing edges in order of direction, one bit at a time.
            let mut edges = m;
            while edges != 0 {
                let d = edges.trailing_zeros() as u8 + 1;
                edges &= edges - 1;
                let step = corner(d);
                let n1 = [l[0] + step[0], l[1] + step[1], l[2] + step[2]];
                let f1 = pad.value(n1);
                let t = ((iso - f0) / (f1 - f0)).clamp(0.0, 1.0);
                let t = if t.is_finite() { t } else { 0.5 };
                let s = Vec3A::from_array(step.map(|c| c as f32));
                let at = node + s * t;
                out.positions[j] = origin + Vec3::from(at * cell);
                let g = g0 + (pad.gradient(n1) - g0) * t;
                let n = -g;
                let len = n.length();
                let n = if len > 1.0e-12 && len.is_finite() {
                    n / len
                } else if f0 >= iso {
                    s.normalize()
                } else {
                    -s.normalize()
                };
                out.normals[j] = Vec3::from(n);
                j += 1;
            }
        }
    }
    debug_assert_eq!(j, out.positions.len(), "the block's vertex count");
}

/// Whether the cells of `mask` (a run of eight) are all wholly inside or all wholly
/// outside (mixed runs count as not).
#[inline(always)]
fn uniform(mask: &[u8]) -> bool {
    let m = u64::from_le_bytes(mask.try_into().expect("eight cells"));
    m == 0 || m == u64::MAX
}

/// The offset of corner `c` of a cell from its node within a block.
const CORNER_STEP: [usize; 8] = [0, 1, 8, 9, 64, 65, 72, 73];

/// The triangles of block `b` into `out` (its run of indices), cell by cell.
fn block_triangles(near: &[[u32; 27]], mask: &[u8], first: &[u32], b: usize, out: &mut [u32]) {
    let (mut j, table) = (0usize, cell_table());
    let cells = &mask[b * BN..(b + 1) * BN];
    for (r, run) in cells.chunks_exact(8).enumerate() {
        if uniform(run) {
            continue;
        }
        for (k, &cell) in (8 * r..).zip(run) {
            if cell == 0 || cell == 0xFF {
                continue;
            }
            let l = [k as i32 % B, (k as i32 / B) % B, k as i32 / (B * B)];
            // A cell below the block's last node on every axis has its corners in it.
            let within = l.iter().all(|&c| c < B - 1);
            let vertex = |(p, q): (u8, u8)| {
                // The edge's lower corner (a subset of the other in a chain).
                let (p, q) = (p & q, p | q);
                let (nb, nk) = if within {
                    (b, k + CORNER_STEP[usize::from(p & 7)])
                } else {
                    let n = corner(p);
                    let n = [l[0] + n[0], l[1] + n[1], l[2] + n[2]];
                    locate(near, b, n).expect("a crossing edge's block")
                };
                let d = p ^ q;
                let c = mask[nb * BN + nk] as usize;
                debug_assert!(EDGE_BITS[c] >> (d - 1) & 1 == 1, "a crossing edge");
                first[nb * BN + nk] + u32::from(EDGE_RANK[c][d as usize])
            };
            // The vertex of each edge once, then the indices from them.
            let cell = usize::from(cell);
            let mut ids = [0u32; CELL_EDGES];
            let edges = &table.edges[cell][..usize::from(table.count[cell])];
            for (id, &edge) in ids.iter_mut().zip(edges) {
                *id = vertex(edge);
            }
            let n = usize::from(CELL_INDICES[cell]);
            for (o, &e) in out[j..j + n].iter_mut().zip(&table.slots[cell][..n]) {
                *o = ids[usize::from(e)];
            }
            j += n;
        }
    }
    debug_assert_eq!(j, out.len(), "the block's index count");
}

/// The first and last blocks (on each axis) within a kernel and the margin of the
/// particles `feet` (kernel radius `reach` cells).
fn block_reach<'a>(feet: impl Iterator<Item = &'a Foot>, reach: f32) -> ([i32; 3], [i32; 3]) {
    // u ± reach, rounded, then truncated, never decreases as u grows: the extreme
    // particles give the extreme nodes.
    let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
    for foot in feet {
        for a in 0..3 {
            lo[a] = lo[a].min(foot.u[a]);
            hi[a] = hi[a].max(foot.u[a]);
        }
    }
    (
        lo.map(|u| ((u - reach) as i32 - MARGIN).div_euclid(B)),
        hi.map(|u| ((u + reach) as i32 + MARGIN).div_euclid(B)),
    )
}

/// The blocks a particle's kernel reaches around its home block, by its span (bit 2a:
/// the block below on axis a, bit 2a + 1: the block above): their offsets in `near`
/// ([`near_index`]), then their number (the last entry: at most eight for a kernel
/// of r ≤ B / 2 cells, which cannot reach both sides).
const SPAN_BLOCKS: [[u8; 28]; 64] = {
    let mut t = [[0u8; 28]; 64];
    let mut span = 0;
    while span < 64 {
        let mut n = 0;
        let mut z = -((span >> 4) as i32 & 1);
        while z <= (span >> 5) as i32 & 1 {
            let mut y = -((span >> 2) as i32 & 1);
            while y <= (span >> 3) as i32 & 1 {
                let mut x = -(span as i32 & 1);
                while x <= (span >> 1) as i32 & 1 {
                    t[span][n] = (((z + 1) * 3 + (y + 1)) * 3 + (x + 1)) as u8;
                    n += 1;
                    x += 1;
                }
                y += 1;
            }
            z += 1;
        }
        t[span][27] = n as u8;
        span += 1;
    }
    t
};

/// [`SPAN_BLOCKS`] without the home block (index 13).
const SPAN_NEIGHBOURS: [[u8; 28]; 64] = {
    let mut t = [[0u8; 28]; 64];
    let mut span = 0;
    while span < 64 {
        let (from, mut n, mut k) = (SPAN_BLOCKS[span], 0, 0);
        while k < from[27] as usize {
            if from[k] != 13 {
                t[span][n] = from[k];
                n += 1;
            }
            k += 1;
        }
        t[span][27] = n as u8;
        span += 1;
    }
    t
};

/// A block's side ([`Surface::sides`]): some of its nodes are inside (φ ≥ the level).
const INSIDE_SOME: u8 = 1;
/// A block's side: all of its nodes are inside.
const INSIDE_ALL: u8 = 2;

/// Whether the cells of block `b` lie wholly inside (`Some(true)`) or outside
/// (`Some(false)`) from the sides of the blocks their corners lie in (the block and
/// its neighbours above it on each axis; an absent block is outside), `None` when
/// that takes reading the nodes.
#[inline]
fn settled(near: &[[u32; 27]], sides: &[u8], b: usize) -> Option<bool> {
    let (mut some, mut all) = (false, true);
    for z in 0..2 {
        for y in 0..2 {
            for x in 0..2 {
                let nb = near[b][near_index([x, y, z])];
                let side = if nb == u32::MAX {
                    0
                } else {
                    sides[nb as usize]
                };
                some |= side & INSIDE_SOME != 0;
                all &= side & INSIDE_ALL != 0;
            }
        }
    }
    if !some {
        Some(false)
    } else if all {
        Some(true)
    } else {
        None
    }
}

/// The insides of the cell at each node of block `b` (into `cells`: bit c for corner c,
/// φ ≥ iso) and the block's vertex and index counts. A block wholly on one side of the
/// surface is settled after reading its nodes (its `cells` are left as they were:
/// nothing reads them).
fn classify(view: View<'_>, b: usize, iso: f32, cells: &mut [u8]) -> SurfaceCounts {
    const Q: usize = B as usize + 1;
    const N: usize = B as usize;
    let mut pad = Padded::new();
    pad.fill(view, b);
    // The insides of nodes 0..=8 on each axis, rows of nine (and room for a row of
    // eight read from the last one).
    let mut inside = [0u8; Q * Q * Q + N];
    let mut ins = 0usize;
    for z in 0..Q {
        for y in 0..Q {
            let from = ((z + 1) * P + (y + 1)) * P + 1;
            let at = (z * Q + y) * Q;
            for (i, &f) in inside[at..at + Q].iter_mut().zip(&pad.0[from..from + Q]) {
                *i = u8::from(f >= iso);
                ins += usize::from(*i);
            }
        }
    }
    if ins == 0 || ins == Q * Q * Q {
        return SurfaceCounts::default();
    }
    let mut counts = SurfaceCounts::default();
    // A row of eight cells at a time: bit c of a cell from its corner c's row.
    let row = |at: usize| -> [u8; N] { inside[at..at + N].try_into().expect("a row") };
    for (k, out) in cells.chunks_exact_mut(N).enumerate() {
        let at = (k / N * Q + k % N) * Q;
        let corners = [
            at,
            at + 1,
            at + Q,
            at + Q + 1,
            at + Q * Q,
            at + Q * Q + 1,
            at + Q * Q + Q,
            at + Q * Q + Q + 1,
        ]
        .map(row);
        let mut m = [0u8; N];
        for (c, r) in corners.iter().enumerate() {
            for (m, &i) in m.iter_mut().zip(r) {
                *m |= i << c;
            }
        }
        out.copy_from_slice(&m);
        for &m in &m {
            let [v, i] = CELL_COUNTS[m as usize];
            counts.vertices += u32::from(v);
            counts.indices += u32::from(i);
        }
    }
    counts
}

/// Per cell (the insides of its corners): the vertices its node owns and its
/// indices ([`EDGE_RANK`]'s first column and [`CELL_INDICES`]), side by side.
const CELL_COUNTS: [[u8; 2]; 256] = {
    let mut t = [[0u8; 2]; 256];
    let mut cell = 0;
    while cell < 256 {
        t[cell] = [EDGE_RANK[cell][0], CELL_INDICES[cell]];
        cell += 1;
    }
    t
};

/// The crossing edges a node owns given the insides of its cell (bit d − 1 for the
/// edge to node + d: the corner d differs from corner 0).
const EDGE_BITS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut cell = 0;
    while cell < 256 {
        let mut d = 1;
        while d < 8 {
            if (cell >> d) & 1 != cell & 1 {
                t[cell] |= 1 << (d - 1);
            }
            d += 1;
        }
        cell += 1;
    }
    t
};

/// Per cell (the insides of its corners): at 0, the number of crossing edges its node
/// owns ([`EDGE_BITS`]); at d in 1..8, the number of them before the edge to node + d
/// (its vertex's place among the node's). A table: the build's targets have no
/// popcount instruction.
const EDGE_RANK: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut cell = 0;
    while cell < 256 {
        let m = EDGE_BITS[cell];
        t[cell][0] = m.count_ones() as u8;
        let mut d = 1;
        while d < 8 {
            t[cell][d] = (m & ((1u8 << (d - 1)) - 1)).count_ones() as u8;
            d += 1;
        }
        cell += 1;
    }
    t
};

/// Per cell (the insides of its corners): the edges of its triangles, three per
/// triangle ([`CELL_INDICES`] of them), tetrahedron by tetrahedron as
/// [`tet_triangles`] gives them.
fn cell_edges() -> &'static [[(u8, u8); 36]; 256] {
    static EDGES: std::sync::OnceLock<[[(u8, u8); 36]; 256]> = std::sync::OnceLock::new();
    EDGES.get_or_init(|| {
        let mut t = [[(0u8, 0u8); 36]; 256];
        for (cell, edges) in t.iter_mut().enumerate() {
            let mut n = 0;
            for tet in &TETS {
                tet_triangles(tet, tet_inside(tet, cell as u8), |e| {
                    edges[n..n + 3].copy_from_slice(&e);
                    n += 3;
                });
            }
        }
        t
    })
}

/// The edges of a cell's six tetrahedra: its 12 edges, a diagonal of each of its 6
/// faces and its main diagonal.
const CELL_EDGES: usize = 19;

/// Per cell (the insides of its corners): the edges its triangles use, each once (as
/// lower corner, upper corner) and `count` of them, and for each of its indices
/// ([`cell_edges`]) the place of its edge among those.
struct CellTable {
    edges: [[(u8, u8); CELL_EDGES]; 256],
    count: [u8; 256],
    slots: [[u8; 36]; 256],
}

/// The [`CellTable`], from [`cell_edges`].
fn cell_table() -> &'static CellTable {
    static TABLE: std::sync::OnceLock<CellTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = CellTable {
            edges: [[(0, 0); CELL_EDGES]; 256],
            count: [0; 256],
            slots: [[0; 36]; 256],
        };
        for (cell, all) in cell_edges().iter().enumerate() {
            let n = usize::from(CELL_INDICES[cell]);
            for (i, &(p, q)) in all[..n].iter().enumerate() {
                let edge = (p & q, p | q);
                let used = usize::from(t.count[cell]);
                let at = match t.edges[cell][..used].iter().position(|&e| e == edge) {
                    Some(at) => at,
                    None => {
                        t.edges[cell][used] = edge;
                        t.count[cell] += 1;
                        used
                    }
                };
                t.slots[cell][i] = at as u8;
            }
        }
        t
    })
}

/// The indices (three per triangle) of a cell given the insides of its corners.
const CELL_INDICES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut cell = 0;
    while cell < 256 {
        let mut k = 0;
        while k < TETS.len() {
            let tet = TETS[k];
            let mut inside = 0u8;
            let mut c = 0;
            while c < 4 {
                inside |= ((cell >> tet[c]) as u8 & 1) << c;
                c += 1;
            }
            t[cell] += 3 * tet_triangle_count(inside) as u8;
            k += 1;
        }
        cell += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tetrahedron_case_has_its_triangles_on_crossing_edges() {
        for tet in &TETS {
            for inside in 0..16u8 {
                let mut n = 0;
                tet_triangles(tet, inside, |e| {
                    n += 1;
                    for (p, q) in e {
                        let at = |c: u8| tet.iter().position(|&x| x == c).unwrap();
                        let (ip, iq) = (inside >> at(p) & 1, inside >> at(q) & 1);
                        assert_ne!(ip, iq, "an edge of a triangle crosses");
                        // Chains: every edge runs from a corner to a superset of it.
                        assert_eq!(p & q, p.min(q));
                    }
                });
                assert_eq!(n, tet_triangle_count(inside));
            }
        }
    }

    #[test]
    fn each_index_of_a_cell_reads_its_edge_from_the_cell_table() {
        let t = cell_table();
        for (cell, &n) in CELL_INDICES.iter().enumerate() {
            let n = usize::from(n);
            for (i, &(p, q)) in cell_edges()[cell][..n].iter().enumerate() {
                let edge = t.edges[cell][usize::from(t.slots[cell][i])];
                assert_eq!(edge, (p & q, p | q), "cell {cell}");
            }
            let used = &t.edges[cell][..usize::from(t.count[cell])];
            assert!(used.iter().all(|&(p, q)| p & q == p && p != q));
        }
    }

    #[test]
    fn the_bulk_reads_one() {
        let p = Params::new(&SurfaceDesc::default(), 0.1, false).unwrap();
        assert!((p.r - 2.0).abs() < 1e-6);
        // A lattice sum at the node: Σ_k b(k / 2)³ · inv_bulk = 1.
        let line: f32 = (-2..=2).map(|k| kernel(k as f32 * 0.5)).sum();
        assert!((line * line * line * p.inv_bulk - 1.0).abs() < 1e-5);
        let bad = SurfaceDesc {
            cell_size: 0.01,
            ..SurfaceDesc::default()
        };
        assert!(Params::new(&bad, 0.1, false).is_err());
        let bad = SurfaceDesc {
            radius: 0.5,
            ..SurfaceDesc::default()
        };
        assert!(Params::new(&bad, 0.1, false).is_err());
    }
}
