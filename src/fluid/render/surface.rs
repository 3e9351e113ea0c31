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
//! Each particle's kernel factors b(·) on the three axes are computed once and the
//! particle is filed under the blocks its kernel reaches; every node's sum runs over
//! the particles in a fixed order (by home block, then by index), one block per task:
//! the bits do not depend on the thread count. Buffers
//! grow on the first build (and when the mesh grew); later builds do not allocate.

use crate::error::{try_reserve, Error, Result};
use crate::limits::{MAX_FLUID_SPACING, MAX_SURFACE_BLOCKS};
use crate::math::{Vec3, Vec3A};
use crate::solver::parallel::{Blocks, Executor};

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
/// Nodes of a particle's row of x weights: its home block's and the next block's on
/// each side (a kernel of r ≤ B cells reaches no farther).
const ROW: usize = 3 * B as usize;
/// Blocks per build below which it runs on one thread.
const PARALLEL_BLOCKS: usize = 8;

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
    /// The most nodes a particle's kernel reaches along an axis: those of (u − r, u + r).
    fn span(&self) -> usize {
        (2.0 * self.r).floor() as usize + 2
    }

    /// A particle's weights: a row of [`ROW`] along x, then `span` along y and z.
    fn stride(&self) -> usize {
        ROW + 2 * self.span()
    }
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

/// ⌈x⌉ of a positive x (positions in cells are: the origin lies two blocks below every
/// particle, farther than any kernel reaches), without a call into libm; truncation
/// is ⌊x⌋ for them.
#[inline(always)]
fn ceil(x: f32) -> i32 {
    let t = x as i32;
    t + i32::from((t as f32) < x)
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
    /// Per particle: its position in cells from `origin`.
    points: Vec<Vec3A>,
    /// Per particle: the nodes its kernel reaches and its weights there ([`Foot`]),
    /// [`Params::stride`] floats per particle.
    feet: Vec<Foot>,
    weights: Vec<f32>,
    /// The particles each block sums (the blocks their kernels reach), block by block:
    /// block b's run from `sums_start[b]` to `sums_start[b + 1]`, in `bins` order.
    sums: Vec<u32>,
    sums_start: Vec<u32>,
    /// (block key, particle) of every finite particle, sorted.
    bins: Vec<(u64, u32)>,
    /// The occupied blocks: key and the range of `bins` they hold.
    occupied: Vec<(u64, u32, u32)>,
    /// The blocks of the grid (keys, sorted), each block's 27 neighbours (indices into
    /// `keys`, `u32::MAX` where absent; index 13 is the block itself).
    keys: Vec<u64>,
    near: Vec<[u32; 27]>,
    /// Per node of each block: φ, the insides of the corners of its cell (bit c for the
    /// corner at node + c, c = x + 2y + 4z; the crossing edges it owns follow, bit d − 1
    /// of [`EDGE_BITS`] for the edge to node + d), the index of its first vertex.
    field: Vec<f32>,
    mask: Vec<u8>,
    first: Vec<u32>,
    /// Per block: its vertices and indices.
    counts: Vec<SurfaceCounts>,
    /// The grid's node 0 (m).
    origin: Vec3,
    /// The mesh: positions (m), unit normals, indices (three per triangle).
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub indices: Vec<u32>,
    /// The fluid of the last build (`None` before one).
    pub fluid: Option<super::super::FluidId>,
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

/// Reads the grid around one block: nodes given relative to the block's first node,
/// within one block of it.
#[derive(Clone, Copy)]
struct View<'a> {
    field: &'a [f32],
    near: &'a [[u32; 27]],
}

impl View<'_> {
    /// The block and node of `n` (relative to block `b`'s first node), `None` where the
    /// block is absent (φ = 0 there: no particle reaches it).
    #[inline]
    fn locate(&self, b: usize, n: [i32; 3]) -> Option<(usize, usize)> {
        if n.iter().all(|&c| (0..B).contains(&c)) {
            return Some((b, node_index(n)));
        }
        let o = n.map(|c| c.div_euclid(B));
        let l = n.map(|c| c.rem_euclid(B));
        let nb = self.near[b][near_index(o)];
        (nb != u32::MAX).then(|| (nb as usize, node_index(l)))
    }

    #[inline]
    fn value(&self, b: usize, n: [i32; 3]) -> f32 {
        self.locate(b, n)
            .map_or(0.0, |(nb, k)| self.field[nb * BN + k])
    }

    /// ∇φ at node `n` in units of 1 / cell (central differences).
    fn gradient(&self, b: usize, n: [i32; 3]) -> Vec3A {
        let d = |a: usize| {
            let (mut p, mut m) = (n, n);
            p[a] += 1;
            m[a] -= 1;
            0.5 * (self.value(b, p) - self.value(b, m))
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
        position: impl Fn(usize) -> Vec3,
        params: &Params,
        exec: &Executor,
    ) -> Result<SurfaceCounts> {
        self.positions.clear();
        self.normals.clear();
        self.indices.clear();
        self.fluid = None;
        if !self.place(count, &position, params)? || !self.plan(params)? {
            return Ok(SurfaceCounts::default());
        }
        let blocks = self.keys.len();
        let threads = if blocks >= PARALLEL_BLOCKS {
            exec.threads()
        } else {
            1
        };
        // φ at every node, one block per task.
        {
            let Surface {
                feet,
                weights,
                sums,
                sums_start,
                keys,
                field,
                ..
            } = &mut *self;
            let particles = Weighed {
                feet,
                weights,
                span: params.span(),
            };
            let (sums, starts, keys) = (&*sums, &*sums_start, &*keys);
            exec.for_items(
                threads,
                Blocks::new(&mut field[..blocks * BN], BN),
                |b, out| {
                    let run = &sums[starts[b] as usize..starts[b + 1] as usize];
                    splat(unkey(keys[b]), particles, run, params, out)
                },
            );
        }
        // The crossing edges and the counts of each block.
        {
            let Surface {
                keys,
                near,
                field,
                mask,
                counts,
                ..
            } = &mut *self;
            let view = View {
                field: &field[..blocks * BN],
                near: &near[..blocks],
            };
            let _ = keys;
            let iso = params.threshold;
            exec.for_items(
                threads,
                (
                    Blocks::new(&mut mask[..blocks * BN], BN),
                    Blocks::new(&mut counts[..blocks], 1),
                ),
                |b, (mask, count)| count[0] = classify(view, b, iso, mask),
            );
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
        try_reserve(&mut self.positions, vertices, "surface vertices")?;
        try_reserve(&mut self.normals, vertices, "surface normals")?;
        try_reserve(&mut self.indices, indices, "surface indices")?;
        self.vertices(params);
        self.triangles();
        Ok(SurfaceCounts {
            vertices: vertices as u32,
            indices: indices as u32,
        })
    }

    /// Places the particles in cells from a new origin and sorts them into blocks;
    /// false when none is finite.
    fn place(
        &mut self,
        count: usize,
        position: &impl Fn(usize) -> Vec3,
        params: &Params,
    ) -> Result<bool> {
        grow(&mut self.points, count, Vec3A::ZERO)?;
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut any = false;
        for k in 0..count {
            let p = position(k);
            if p.is_finite() {
                lo = lo.min(p);
                any = true;
            }
        }
        if !any {
            return Ok(false);
        }
        let block = params.cell * B as f32;
        self.origin = ((lo / block).floor() - 2.0) * block;
        let inv = 1.0 / params.cell;
        // Room for the kernel and the margin below 2^21 blocks.
        let limit = ((1i64 << KEY_BITS) - 2) as f32 * B as f32 - params.r - MARGIN as f32;
        self.bins.clear();
        try_reserve(&mut self.bins, count, "surface bins")?;
        for k in 0..count {
            let p = position(k);
            if !p.is_finite() {
                self.points[k] = Vec3A::splat(f32::NAN);
                continue;
            }
            let u = Vec3A::from((p - self.origin) * inv);
            if u.max_element() >= limit {
                return Err(Error::out_of_range(format!(
                    "the fluid spans more than {} m, past what one surface grid of cell size {} m holds: use a larger cell_size",
                    limit * params.cell,
                    params.cell
                )));
            }
            self.points[k] = u;
            let b = u.to_array().map(|c| (c as i32).div_euclid(B));
            self.bins.push((key(b), k as u32));
        }
        self.bins.sort_unstable();
        self.weigh(count, params)?;
        Ok(true)
    }

    /// Each finite particle's reach and kernel weights on the three axes (the factors
    /// of W at every node it reaches), computed once for every block that sums it.
    fn weigh(&mut self, count: usize, params: &Params) -> Result<()> {
        let (span, stride) = (params.span(), params.stride());
        grow(&mut self.feet, count, Foot::default())?;
        grow(&mut self.weights, stride * count, 0.0)?;
        let (r, inv_r) = (params.r, 1.0 / params.r);
        for k in 0..count {
            let u = self.points[k].to_array();
            if u[0].is_nan() {
                continue;
            }
            // Its home block, as `place` filed it.
            let hc = u.map(|c| (c as i32).div_euclid(B));
            let w = &mut self.weights[stride * k..stride * (k + 1)];
            let (wx, wyz) = w.split_at_mut(ROW);
            let mut foot = Foot::default();
            for a in 0..3 {
                // Within the home block and the next on each side (r ≤ B cells; the
                // bound only drops nodes a rounding of r = B would add, at b = 0).
                let first = hc[a] * B - B;
                let lo = ceil(u[a] - r).max(first);
                let hi = ((u[a] + r) as i32).min(first + ROW as i32 - 1);
                foot.reach[a] = [lo, hi];
                let w = if a == 0 {
                    foot.x0 = first;
                    wx.fill(0.0);
                    &mut wx[(lo - first) as usize..]
                } else {
                    &mut wyz[(a - 1) * span..a * span]
                };
                for (n, w) in (lo..=hi).zip(w) {
                    *w = kernel((n as f32 - u[a]) * inv_r);
                }
            }
            self.feet[k] = foot;
        }
        Ok(())
    }

    /// The occupied blocks, the grid's blocks (every block within a kernel and the
    /// margin of a particle) and their neighbours; false when there is none.
    fn plan(&mut self, params: &Params) -> Result<bool> {
        self.occupied.clear();
        let mut start = 0usize;
        while start < self.bins.len() {
            let k = self.bins[start].0;
            let mut end = start + 1;
            while end < self.bins.len() && self.bins[end].0 == k {
                end += 1;
            }
            if self.occupied.len() == self.occupied.capacity() {
                let more = self.occupied.len().max(64);
                try_reserve(&mut self.occupied, more, "surface blocks")?;
            }
            self.occupied.push((k, start as u32, end as u32));
            start = end;
        }
        self.keys.clear();
        let reach = params.r;
        for o in 0..self.occupied.len() {
            let (_, s, e) = self.occupied[o];
            let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
            for &(_, k) in &self.bins[s as usize..e as usize] {
                let u = self.points[k as usize].to_array();
                for a in 0..3 {
                    lo[a] = lo[a].min((u[a] - reach) as i32 - MARGIN);
                    hi[a] = hi[a].max((u[a] + reach) as i32 + MARGIN);
                }
            }
            let (lo, hi) = (lo.map(|c| c.div_euclid(B)), hi.map(|c| c.div_euclid(B)));
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
        let keys = &self.keys;
        for (b, near) in self.near[..blocks].iter_mut().enumerate() {
            let c = unkey(keys[b]);
            for (i, slot) in near.iter_mut().enumerate() {
                let o = [i as i32 % 3 - 1, (i as i32 / 3) % 3 - 1, i as i32 / 9 - 1];
                let n = [c[0] + o[0], c[1] + o[1], c[2] + o[2]];
                *slot = keys.binary_search(&key(n)).map_or(u32::MAX, |i| i as u32);
            }
        }
        self.contributions()?;
        Ok(blocks > 0)
    }

    /// The particles each block sums: every particle is filed under each block its
    /// kernel reaches (its own block and, at most, the next one on each axis), in
    /// `bins` order (by home block, then by index), so each block reads only the
    /// particles that reach it, in the order the field's sums take.
    fn contributions(&mut self) -> Result<()> {
        let blocks = self.keys.len();
        self.sums_start.clear();
        try_reserve(&mut self.sums_start, blocks + 1, "surface sums")?;
        self.sums_start.resize(blocks + 1, 0);
        let mut total = 0usize;
        // Twice over the particles: the counts per block (made the runs' starts), then
        // the runs (each start advancing to its run's end).
        for fill in [false, true] {
            if fill {
                let mut at = 0u32;
                for s in &mut self.sums_start {
                    let n = *s;
                    *s = at;
                    at += n;
                }
                grow(&mut self.sums, total, 0)?;
            }
            for &(home, start, end) in &self.occupied {
                let hb = self.keys.binary_search(&home).expect("an occupied block") as u32;
                let hc = unkey(home);
                for &(_, k) in &self.bins[start as usize..end as usize] {
                    let reach = &self.feet[k as usize].reach;
                    let o: [[i32; 2]; 3] =
                        std::array::from_fn(|a| reach[a].map(|n| n.div_euclid(B) - hc[a]));
                    for z in o[2][0]..=o[2][1] {
                        for y in o[1][0]..=o[1][1] {
                            for x in o[0][0]..=o[0][1] {
                                let b = self.near[hb as usize][near_index([x, y, z])] as usize;
                                if fill {
                                    let at = &mut self.sums_start[b];
                                    self.sums[*at as usize] = k;
                                    *at += 1;
                                } else {
                                    self.sums_start[b] += 1;
                                    total += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        // Each entry now holds its block's end: shift them to the starts.
        self.sums_start.copy_within(..blocks, 1);
        self.sums_start[0] = 0;
        Ok(())
    }

    /// Writes the vertices: block by block, node by node, edge by edge (`first` of
    /// each node set on the way).
    fn vertices(&mut self, params: &Params) {
        let blocks = self.keys.len();
        let view = View {
            field: &self.field[..blocks * BN],
            near: &self.near[..blocks],
        };
        let (iso, cell) = (params.threshold, params.cell);
        for b in 0..blocks {
            let base = unkey(self.keys[b]).map(|c| c * B);
            for k in 0..BN {
                let m = EDGE_BITS[self.mask[b * BN + k] as usize];
                self.first[b * BN + k] = self.positions.len() as u32;
                if m == 0 {
                    continue;
                }
                let l = [k as i32 % B, (k as i32 / B) % B, k as i32 / (B * B)];
                let f0 = view.field[b * BN + k];
                let g0 = view.gradient(b, l);
                for d in 1..=7u8 {
                    if m >> (d - 1) & 1 == 0 {
                        continue;
                    }
                    let step = corner(d);
                    let n1 = [l[0] + step[0], l[1] + step[1], l[2] + step[2]];
                    let f1 = view.value(b, n1);
                    let t = ((iso - f0) / (f1 - f0)).clamp(0.0, 1.0);
                    let t = if t.is_finite() { t } else { 0.5 };
                    let s = Vec3A::from_array(step.map(|c| c as f32));
                    let at = Vec3A::from_array([0, 1, 2].map(|a| (base[a] + l[a]) as f32)) + s * t;
                    self.positions.push(self.origin + Vec3::from(at * cell));
                    let g = g0 + (view.gradient(b, n1) - g0) * t;
                    let n = -g;
                    let len = n.length();
                    let n = if len > 1.0e-12 && len.is_finite() {
                        n / len
                    } else if f0 >= iso {
                        s.normalize()
                    } else {
                        -s.normalize()
                    };
                    self.normals.push(Vec3::from(n));
                }
            }
        }
    }

    /// Writes the triangles: block by block, cell by cell, tetrahedron by tetrahedron.
    fn triangles(&mut self) {
        let blocks = self.keys.len();
        let view = View {
            field: &self.field[..blocks * BN],
            near: &self.near[..blocks],
        };
        let (mask, first) = (&self.mask[..blocks * BN], &self.first[..blocks * BN]);
        let indices = &mut self.indices;
        for b in 0..blocks {
            for k in 0..BN {
                let cell = mask[b * BN + k];
                if cell == 0 || cell == 0xFF {
                    continue;
                }
                let l = [k as i32 % B, (k as i32 / B) % B, k as i32 / (B * B)];
                let vertex = |(p, q): (u8, u8)| {
                    // The edge's lower corner (a subset of the other in a chain).
                    let (p, q) = (p & q, p | q);
                    let n = corner(p);
                    let n = [l[0] + n[0], l[1] + n[1], l[2] + n[2]];
                    let (nb, nk) = view.locate(b, n).expect("a crossing edge's block");
                    let d = p ^ q;
                    let m = EDGE_BITS[mask[nb * BN + nk] as usize];
                    debug_assert!(m >> (d - 1) & 1 == 1, "a crossing edge");
                    first[nb * BN + nk] + (m & ((1u8 << (d - 1)) - 1)).count_ones()
                };
                let n = usize::from(CELL_INDICES[cell as usize]);
                for &edge in &cell_edges()[cell as usize][..n] {
                    indices.push(vertex(edge));
                }
            }
        }
    }
}

/// The nodes a particle's kernel reaches: the first and last on each axis (global
/// node coordinates), and the node of the first of its row of x weights.
#[derive(Clone, Copy, Default)]
struct Foot {
    reach: [[i32; 2]; 3],
    x0: i32,
}

/// The particles' feet and weights ([`Surface::weigh`]).
#[derive(Clone, Copy)]
struct Weighed<'a> {
    feet: &'a [Foot],
    weights: &'a [f32],
    span: usize,
}

/// φ at the nodes of block `bc` (block coordinates): the particles `sums` that reach
/// it, in `bins` order (by home block, then by index: a fixed order for each node
/// whoever computes it). Each row of the block takes a particle's eight x weights
/// there, zeros (+0) past its reach included: the same sums.
fn splat(bc: [i32; 3], particles: Weighed<'_>, sums: &[u32], params: &Params, out: &mut [f32]) {
    out.fill(0.0);
    let base = bc.map(|c| c * B);
    let span = particles.span;
    let stride = ROW + 2 * span;
    for &i in sums {
        let i = i as usize;
        let foot = &particles.feet[i];
        // The nodes it reaches in this block along y and z: the first relative to the
        // block's first node and to the particle's first, and how many.
        let mut lo = [0usize; 2];
        let mut len = [0usize; 2];
        let mut skip = [0usize; 2];
        for a in 0..2 {
            let [r0, r1] = foot.reach[a + 1];
            let l = r0.max(base[a + 1]);
            let h = r1.min(base[a + 1] + B - 1);
            lo[a] = (l - base[a + 1]) as usize;
            len[a] = (h - l + 1).max(0) as usize;
            skip[a] = (l - r0) as usize;
        }
        let w = &particles.weights[stride * i..stride * (i + 1)];
        let (wx, rest) = w.split_at(ROW);
        let at = (base[0] - foot.x0) as usize;
        let wx: &[f32; B as usize] = wx[at..at + B as usize].try_into().expect("a row");
        let (wy, wz) = rest.split_at(span);
        let wy = &wy[skip[0]..skip[0] + len[0]];
        let wz = &wz[skip[1]..skip[1] + len[1]];
        for (z, &wz) in (lo[1]..).zip(wz) {
            for (y, &wy) in (lo[0]..).zip(wy) {
                let wyz = wy * wz;
                let row = (z * B as usize + y) * B as usize;
                let o: &mut [f32; B as usize] =
                    (&mut out[row..row + B as usize]).try_into().expect("a row");
                for x in 0..B as usize {
                    o[x] += wx[x] * wyz;
                }
            }
        }
    }
    for f in out.iter_mut() {
        *f *= params.inv_bulk;
    }
}

/// The insides of the cell at each node of block `b` (into `cells`: bit c for corner c,
/// φ ≥ iso) and the block's vertex and index counts. A block wholly on one side of the
/// surface is settled after reading its nodes.
fn classify(view: View<'_>, b: usize, iso: f32, cells: &mut [u8]) -> SurfaceCounts {
    const P: usize = B as usize + 1;
    let mut inside = [0u8; P * P * P];
    let (mut any_in, mut any_out) = (false, false);
    for z in 0..P {
        for y in 0..P {
            for x in 0..P {
                let n = [x as i32, y as i32, z as i32];
                let v = if x < P - 1 && y < P - 1 && z < P - 1 {
                    view.field[b * BN + node_index(n)]
                } else {
                    view.value(b, n)
                };
                let i = v >= iso;
                inside[(z * P + y) * P + x] = u8::from(i);
                any_in |= i;
                any_out |= !i;
            }
        }
    }
    if !(any_in && any_out) {
        cells.fill(if any_in { 0xFF } else { 0 });
        return SurfaceCounts::default();
    }
    let mut counts = SurfaceCounts::default();
    for (k, cell) in cells.iter_mut().enumerate() {
        let (x, y, z) = (k % 8, k / 8 % 8, k / 64);
        let at = (z * P + y) * P + x;
        let m = inside[at]
            | inside[at + 1] << 1
            | inside[at + P] << 2
            | inside[at + P + 1] << 3
            | inside[at + P * P] << 4
            | inside[at + P * P + 1] << 5
            | inside[at + P * P + P] << 6
            | inside[at + P * P + P + 1] << 7;
        *cell = m;
        counts.vertices += EDGE_BITS[m as usize].count_ones();
        counts.indices += u32::from(CELL_INDICES[m as usize]);
    }
    counts
}

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
