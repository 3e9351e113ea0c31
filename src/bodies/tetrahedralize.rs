//! Turning a game's closed triangle mesh into a tet mesh for a tet soft body, and
//! embedding render-mesh vertices in a tet mesh (tet + barycentric weights) so an
//! engine can deform its render mesh with the particles.
//!
//! **Why a grid, not Delaunay.** Game meshes are rarely clean input for a constrained
//! Delaunay tetrahedralisation: split seams, slivers, near-coplanar faces and long thin
//! triangles make Delaunay refinement fragile (Steiner points, sliver removal, exact
//! predicates) and its tet count hard to predict. The body needs a volumetric
//! *simulation* mesh, not a conforming one: the render mesh rides on it through
//! barycentric embedding (as Obi, Müller's "ten minute physics" soft bodies and most
//! game engines do). So the mesh is cut into a regular grid of cubic cells,
//! `resolution` cells across the longest side of the mesh's bounding box:
//!
//! 1. The mesh is welded (vertices at bit-identical positions merged, as a UV or
//!    normal seam splits them) and must then be closed, consistently wound and
//!    enclose positive volume (`validate_surface`, the pressure body's check), so an
//!    open or degenerate mesh is refused naming the edge or triangle.
//! 2. A cell is kept when its centre is inside the surface: the winding number of
//!    the centre along a ray in +x, summed over the triangles the ray crosses. Each
//!    edge's side test is computed once per undirected edge (canonical vertex
//!    order) with Simulation of Simplicity breaking exact ties, so a ray through an
//!    edge or a vertex is counted exactly once: the test is watertight for a closed
//!    mesh (no cell is lost or doubled where the ray grazes the surface).
//! 3. Each kept cell is split into 5 tets: the 4 corners of even parity (i+j+k even,
//!    global) form the central tet, each odd corner a corner tet with its three
//!    neighbours. Face diagonals then join even nodes on both sides of a face, so
//!    neighbouring cells share their faces (a conforming mesh), with 5 rather than 6
//!    tets per cell and no sliver.
//! 4. Nodes on the boundary of the kept cells move toward their closest point on the
//!    surface (at most one cell), taking the whole move, half or a quarter, whichever
//!    first keeps every tet around the node at 20 % of its grid volume or more: the
//!    tet mesh then follows the surface to well within a cell, and no tet flattens or
//!    inverts.
//!
//! The cost is O(triangles · resolution²) for the inside test and O(boundary nodes ·
//! nearby triangles) for the snap; a mesh thinner than a cell loses that part (raise
//! the resolution).

use crate::collision::mesh::closest_on_triangle;
use crate::constraints::volume::validate_surface;
use crate::error::{try_with_capacity, Error, Result};
use crate::limits::MAX_BODY_PARTICLES;
use crate::math::Vec3;
use crate::particles::{check_vec3, Particles};
use std::collections::HashMap;

pub use crate::limits::MAX_TET_RESOLUTION;

/// A tetrahedral mesh: vertices (m) and tets (four vertex indices each, positive
/// volume: vertices 1, 2, 3 counter-clockwise seen from vertex 0), the input of
/// [`crate::World::add_tet_body`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TetMesh {
    pub vertices: Vec<Vec3>,
    pub tets: Vec<[u32; 4]>,
}

/// A triangle mesh with coincident vertices merged ([`weld_mesh`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WeldedMesh {
    /// One vertex per group of merged input vertices, at the position of the group's
    /// first input vertex, in order of first occurrence.
    pub vertices: Vec<Vec3>,
    /// The triangles over the welded vertices; triangles that collapsed (two corners
    /// merged) are dropped.
    pub triangles: Vec<[u32; 3]>,
    /// For each input vertex, its welded vertex.
    pub map: Vec<u32>,
}

/// Where a point sits in a tet mesh: the tet and the point's barycentric weights
/// (sum 1; all in [0, 1] inside the tet, extrapolated, with a negative weight, for a
/// point outside the tet mesh, which then follows its nearest tet).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TetEmbedding {
    pub tet: u32,
    pub weights: [f32; 4],
}

fn check_points(what: &str, points: &[Vec3]) -> Result<()> {
    if points.len() >= MAX_BODY_PARTICLES as usize {
        return Err(Error::out_of_range(format!(
            "{} {what}s exceed the limit of {MAX_BODY_PARTICLES}",
            points.len()
        )));
    }
    for (i, &p) in points.iter().enumerate() {
        check_vec3(what, i, p)?;
    }
    Ok(())
}

fn check_indices<const K: usize>(elements: &[[u32; K]], n: usize, what: &str) -> Result<()> {
    for (j, e) in elements.iter().enumerate() {
        if let Some(&p) = e.iter().find(|&&p| p as usize >= n) {
            return Err(Error::out_of_range(format!(
                "{what} {j} {e:?}: index {p} is out of range for {n} vertices"
            )));
        }
    }
    Ok(())
}

/// Merges vertices closer than `tolerance` (m; 0 = only bit-identical positions, as
/// a UV or normal seam duplicates them) into the first of them, and drops the
/// triangles that collapse. The result keeps the input's order.
pub fn weld_mesh(vertices: &[Vec3], triangles: &[[u32; 3]], tolerance: f32) -> Result<WeldedMesh> {
    check_points("vertex", vertices)?;
    check_indices(triangles, vertices.len(), "triangle")?;
    if !(tolerance.is_finite() && (0.0..=crate::limits::MAX_LENGTH).contains(&tolerance)) {
        return Err(Error::invalid(format!(
            "tolerance {tolerance} must be finite and in [0, {}] m",
            crate::limits::MAX_LENGTH
        )));
    }
    let mut out = WeldedMesh {
        vertices: try_with_capacity(vertices.len(), "welded vertices")?,
        triangles: try_with_capacity(triangles.len(), "welded triangles")?,
        map: try_with_capacity(vertices.len(), "weld map")?,
    };
    if tolerance == 0.0 {
        // -0 and +0 are one position.
        let key = |p: Vec3| (p + Vec3::ZERO).to_array().map(f32::to_bits);
        let mut seen: HashMap<[u32; 3], u32> = HashMap::new();
        for &p in vertices {
            let next = out.vertices.len() as u32;
            let id = *seen.entry(key(p)).or_insert(next);
            if id == next {
                out.vertices.push(p);
            }
            out.map.push(id);
        }
    } else {
        // Cells at least as wide as the tolerance (so a match lies in the 27 cells around
        // a vertex), and wide enough that cell coordinates stay far from i64's range.
        let reach = vertices
            .iter()
            .fold(0.0f64, |m, p| m.max(p.abs().max_element() as f64));
        let cell = (tolerance as f64).max(reach / (1u64 << 40) as f64);
        let key = |p: Vec3| p.to_array().map(|c| (c as f64 / cell).floor() as i64);
        let mut cells: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
        for &p in vertices {
            let k = key(p);
            let mut found: Option<u32> = None;
            for dz in -1..=1 {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let Some(list) = cells.get(&[k[0] + dx, k[1] + dy, k[2] + dz]) else {
                            continue;
                        };
                        for &id in list {
                            let q = out.vertices[id as usize];
                            if (p - q).length() <= tolerance && found.is_none_or(|f| id < f) {
                                found = Some(id);
                            }
                        }
                    }
                }
            }
            let id = found.unwrap_or_else(|| {
                let id = out.vertices.len() as u32;
                out.vertices.push(p);
                cells.entry(k).or_default().push(id);
                id
            });
            out.map.push(id);
        }
    }
    for t in triangles {
        let w = t.map(|p| out.map[p as usize]);
        if w[0] != w[1] && w[1] != w[2] && w[2] != w[0] {
            out.triangles.push(w);
        }
    }
    Ok(out)
}

/// The signed volume ×6 of a tet, in f64.
fn det6(a: Vec3, b: Vec3, c: Vec3, d: Vec3) -> f64 {
    let e = |p: Vec3| [(p.x - a.x) as f64, (p.y - a.y) as f64, (p.z - a.z) as f64];
    det3(e(b), e(c), e(d))
}

fn det3(u: [f64; 3], v: [f64; 3], w: [f64; 3]) -> f64 {
    u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
        + u[2] * (v[0] * w[1] - v[1] * w[0])
}

/// The side of (y, z) from the undirected edge {u, v} of the projected surface,
/// computed in the canonical order (smaller index first) so the two triangles sharing
/// the edge see the same answer, then signed for the direction u → v. Exact zeros are
/// broken by Simulation of Simplicity (the point moved by (ε, ε²)).
fn edge_side(v: &[[f64; 2]], u_id: u32, v_id: u32, p: [f64; 2]) -> (i8, f64) {
    let (a, b, s) = if u_id < v_id {
        (v[u_id as usize], v[v_id as usize], 1.0)
    } else {
        (v[v_id as usize], v[u_id as usize], -1.0)
    };
    let o = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    let sign = if o != 0.0 {
        o.signum()
    } else if b[1] != a[1] {
        -(b[1] - a[1]).signum()
    } else {
        (b[0] - a[0]).signum()
    };
    ((sign * s) as i8, o * s)
}

/// The signed crossings (x, ±1) of the ray {y, z} = p with the triangles of `row`;
/// +1 where the triangle faces +x.
fn row_crossings(
    positions: &[Vec3],
    yz: &[[f64; 2]],
    triangles: &[[u32; 3]],
    row: &[u32],
    p: [f64; 2],
    out: &mut Vec<(f64, i32)>,
) {
    out.clear();
    for &t in row {
        let [a, b, c] = triangles[t as usize];
        let (sa, wa) = edge_side(yz, b, c, p);
        let (sb, wb) = edge_side(yz, c, a, p);
        let (sc, wc) = edge_side(yz, a, b, p);
        if sa == 0 || sa != sb || sb != sc {
            continue;
        }
        let sum = wa + wb + wc;
        let xs = [a, b, c].map(|i| positions[i as usize].x as f64);
        let x = if sum != 0.0 {
            (wa * xs[0] + wb * xs[1] + wc * xs[2]) / sum
        } else {
            (xs[0] + xs[1] + xs[2]) / 3.0
        };
        out.push((x, sa as i32));
    }
    out.sort_by(|l, r| l.0.total_cmp(&r.0).then(l.1.cmp(&r.1)));
}

/// Lists, per cell of a `dims` grid, the items whose box `[lo, hi]` (in cells,
/// clamped) overlaps it: offsets (cells + 1) and items, in item order per cell.
fn bucket(
    dims: [usize; 3],
    boxes: impl Fn(usize) -> [[usize; 3]; 2],
    n: usize,
) -> (Vec<u32>, Vec<u32>) {
    let cell = |i: usize, j: usize, k: usize| (k * dims[1] + j) * dims[0] + i;
    let mut offsets = vec![0u32; dims[0] * dims[1] * dims[2] + 1];
    for pass in 0..2 {
        let mut cursor = offsets.clone();
        let mut items = vec![
            0u32;
            if pass == 1 {
                offsets[offsets.len() - 1] as usize
            } else {
                0
            }
        ];
        for t in 0..n {
            let [lo, hi] = boxes(t);
            for k in lo[2]..=hi[2] {
                for j in lo[1]..=hi[1] {
                    for i in lo[0]..=hi[0] {
                        let c = cell(i, j, k);
                        if pass == 0 {
                            offsets[c + 1] += 1;
                        } else {
                            items[cursor[c] as usize] = t as u32;
                            cursor[c] += 1;
                        }
                    }
                }
            }
        }
        if pass == 0 {
            for c in 0..offsets.len() - 1 {
                offsets[c + 1] += offsets[c];
            }
        } else {
            return (offsets, items);
        }
    }
    unreachable!("the loop returns in its second pass")
}

/// The winding test of the module docs (step 2) at the points of a grid: point
/// (i, j, k) at `origin + (index + offset) · h` (m) for `dims` points per axis, x
/// fastest. True where the point is inside the closed surface `triangles` over
/// `vertices` (welded and checked by [`closed_surface`]): the winding number along a
/// ray in +x, one ray per row of points, over the triangles whose (y, z) box covers
/// the row; exact ties broken by Simulation of Simplicity, so the test is watertight.
/// The tetrahedraliser asks for cell centres (`offset` 0.5), the distance field
/// builder (`collision::colliders::sdf`) for grid nodes (`offset` 0).
pub(crate) fn inside_points(
    v: &[Vec3],
    tris: &[[u32; 3]],
    origin: [f64; 3],
    h: f64,
    offset: f64,
    dims: [usize; 3],
) -> Result<Vec<bool>> {
    let centre = |a: usize, i: usize| origin[a] + (i as f64 + offset) * h;
    let yz: Vec<[f64; 2]> = v.iter().map(|p| [p.y as f64, p.z as f64]).collect();
    let tri_rows = |t: usize| {
        let [a, b, c] = tris[t].map(|i| v[i as usize]);
        let (l, u) = (a.min(b).min(c), a.max(b).max(c));
        // Rows whose point lies within the box, widened by one row each side: the
        // crossing test decides.
        let r = |ax: usize, x: f32, up: bool| {
            let c = ((x as f64 - origin[ax]) / h - offset).floor() as i64 + if up { 1 } else { 0 };
            c.clamp(0, dims[ax] as i64 - 1) as usize
        };
        [
            [0, r(1, l.y, false), r(2, l.z, false)],
            [0, r(1, u.y, true), r(2, u.z, true)],
        ]
    };
    let (row_offsets, row_items) = bucket([1, dims[1], dims[2]], tri_rows, tris.len());
    let n = dims[0] * dims[1] * dims[2];
    let mut inside = try_with_capacity::<bool>(n, "inside test")?;
    inside.resize(n, false);
    let cell = |i: usize, j: usize, k: usize| (k * dims[1] + j) * dims[0] + i;
    let mut crossings = Vec::new();
    for k in 0..dims[2] {
        for j in 0..dims[1] {
            let r = k * dims[1] + j;
            let row = &row_items[row_offsets[r] as usize..row_offsets[r + 1] as usize];
            row_crossings(
                v,
                &yz,
                tris,
                row,
                [centre(1, j), centre(2, k)],
                &mut crossings,
            );
            let mut winding: i32 = crossings.iter().map(|c| c.1).sum();
            let mut next = 0;
            for i in 0..dims[0] {
                let x = centre(0, i);
                while next < crossings.len() && crossings[next].0 <= x {
                    winding -= crossings[next].1;
                    next += 1;
                }
                inside[cell(i, j, k)] = winding != 0;
            }
        }
    }
    Ok(inside)
}

/// Welds `triangles` over `vertices` at bit-identical positions (seams) and checks
/// that the result is a closed, consistently wound surface enclosing positive volume
/// (the pressure body's check), naming the edge or triangle that is not: the input of
/// [`inside_points`].
pub(crate) fn closed_surface(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Result<WeldedMesh> {
    let welded = weld_mesh(vertices, triangles, 0.0)?;
    let mut local = Particles::default();
    local.reserve(welded.vertices.len())?;
    for &p in &welded.vertices {
        local.push(p, 1.0);
    }
    validate_surface(&local, &welded.triangles)?;
    Ok(welded)
}

/// Cuts the closed mesh (`triangles` over `vertices`, counter-clockwise seen from
/// outside; seams welded first) into a tet mesh on a grid of `resolution` cells across
/// the longest side of its bounding box (module docs). Refuses an open, inconsistently
/// wound, inside-out or degenerate mesh naming the edge or triangle, and a mesh with no
/// cell inside at this resolution.
pub fn tetrahedralize(
    vertices: &[Vec3],
    triangles: &[[u32; 3]],
    resolution: u32,
) -> Result<TetMesh> {
    if !(1..=MAX_TET_RESOLUTION).contains(&resolution) {
        return Err(Error::out_of_range(format!(
            "resolution {resolution} must be in [1, {MAX_TET_RESOLUTION}] cells"
        )));
    }
    let welded = closed_surface(vertices, triangles)?;
    let (v, tris) = (&welded.vertices, &welded.triangles);

    // The grid: cubic cells of side h, centred on the mesh's box.
    let (lo, hi) = v
        .iter()
        .fold((v[0], v[0]), |(l, h), &p| (l.min(p), h.max(p)));
    let extent = hi - lo;
    let h = extent.max_element() as f64 / resolution as f64;
    let dims = extent
        .to_array()
        .map(|e| ((e as f64 / h).ceil() as usize).clamp(1, resolution as usize));
    let origin: [f64; 3] =
        std::array::from_fn(|a| lo[a] as f64 - (dims[a] as f64 * h - extent[a] as f64) / 2.0);
    let cell_of = |a: usize, x: f64| {
        ((x - origin[a]) / h)
            .floor()
            .clamp(0.0, dims[a] as f64 - 1.0) as usize
    };

    // Inside test, one ray per row of cell centres.
    let cell = |i: usize, j: usize, k: usize| (k * dims[1] + j) * dims[0] + i;
    let kept = inside_points(v, tris, origin, h, 0.5, dims)?;

    // Nodes of the kept cells, numbered in grid order.
    let nd = [dims[0] + 1, dims[1] + 1, dims[2] + 1];
    let node = |i: usize, j: usize, k: usize| (k * nd[1] + j) * nd[0] + i;
    let mut id = vec![u32::MAX; nd[0] * nd[1] * nd[2]];
    let mut kept_cells = 0usize;
    for k in 0..dims[2] {
        for j in 0..dims[1] {
            for i in 0..dims[0] {
                if kept[cell(i, j, k)] {
                    kept_cells += 1;
                    for c in 0..8 {
                        id[node(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2))] = 0;
                    }
                }
            }
        }
    }
    if kept_cells == 0 {
        return Err(Error::invalid(format!(
            "no grid cell has its centre inside the mesh at resolution {resolution}: \
             the mesh is thinner than a cell ({h} m); raise the resolution"
        )));
    }
    let mut mesh = TetMesh {
        vertices: Vec::new(),
        tets: try_with_capacity(kept_cells * 5, "tets")?,
    };
    let mut grid_of = Vec::new();
    for k in 0..nd[2] {
        for j in 0..nd[1] {
            for i in 0..nd[0] {
                let n = node(i, j, k);
                if id[n] == 0 {
                    if mesh.vertices.len() + 1 >= MAX_BODY_PARTICLES as usize {
                        return Err(Error::out_of_range(format!(
                            "the tet mesh would exceed {MAX_BODY_PARTICLES} vertices: lower the resolution"
                        )));
                    }
                    id[n] = mesh.vertices.len() as u32;
                    let p = [i, j, k];
                    mesh.vertices
                        .push(Vec3::from_array(std::array::from_fn(|a| {
                            (origin[a] + p[a] as f64 * h) as f32
                        })));
                    grid_of.push(p);
                }
            }
        }
    }
    // Five tets per kept cell (module docs, step 3).
    let mut rest = Vec::with_capacity(kept_cells * 5);
    for k in 0..dims[2] {
        for j in 0..dims[1] {
            for i in 0..dims[0] {
                if !kept[cell(i, j, k)] {
                    continue;
                }
                let corner = |c: usize| id[node(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2))];
                let odd = |c: usize| (i + j + k + (c & 1) + ((c >> 1) & 1) + (c >> 2)) % 2 == 1;
                let even: Vec<usize> = (0..8).filter(|&c| !odd(c)).collect();
                let mut cell_tets = vec![[even[0], even[1], even[2], even[3]]];
                for c in (0..8).filter(|&c| odd(c)) {
                    cell_tets.push([c, c ^ 1, c ^ 2, c ^ 4]);
                }
                for t in cell_tets {
                    let mut t = t.map(corner);
                    let x = t.map(|n| mesh.vertices[n as usize]);
                    let mut vol = det6(x[0], x[1], x[2], x[3]);
                    if vol < 0.0 {
                        t.swap(2, 3);
                        vol = -vol;
                    }
                    mesh.tets.push(t);
                    rest.push(vol);
                }
            }
        }
    }

    // Snap the boundary nodes toward the surface (module docs, step 4).
    let boundary = |p: [usize; 3]| {
        (0..8).any(|c| {
            let q = [
                p[0] as i64 - (c & 1) as i64,
                p[1] as i64 - ((c >> 1) & 1) as i64,
                p[2] as i64 - (c >> 2) as i64,
            ];
            (0..3).any(|a| q[a] < 0 || q[a] >= dims[a] as i64)
                || !kept[cell(q[0] as usize, q[1] as usize, q[2] as usize)]
        })
    };
    let mut incident_offsets = vec![0u32; mesh.vertices.len() + 1];
    for t in &mesh.tets {
        for &n in t {
            incident_offsets[n as usize + 1] += 1;
        }
    }
    for n in 0..mesh.vertices.len() {
        incident_offsets[n + 1] += incident_offsets[n];
    }
    let mut incident = vec![0u32; incident_offsets[mesh.vertices.len()] as usize];
    let mut cursor = incident_offsets.clone();
    for (t, tet) in mesh.tets.iter().enumerate() {
        for &n in tet {
            incident[cursor[n as usize] as usize] = t as u32;
            cursor[n as usize] += 1;
        }
    }
    let tri_cells = |t: usize| {
        let [a, b, c] = tris[t].map(|i| v[i as usize]);
        let (l, u) = (a.min(b).min(c), a.max(b).max(c));
        [
            std::array::from_fn(|ax| cell_of(ax, l[ax] as f64)),
            std::array::from_fn(|ax| cell_of(ax, u[ax] as f64)),
        ]
    };
    let (cell_offsets, cell_items) = bucket(dims, tri_cells, tris.len());
    let hf = h as f32;
    for n in 0..mesh.vertices.len() {
        let g = grid_of[n];
        if !boundary(g) {
            continue;
        }
        let p = mesh.vertices[n];
        let mut best: Option<(f32, Vec3)> = None;
        for k in g[2].saturating_sub(2)..(g[2] + 2).min(dims[2]) {
            for j in g[1].saturating_sub(2)..(g[1] + 2).min(dims[1]) {
                for i in g[0].saturating_sub(2)..(g[0] + 2).min(dims[0]) {
                    let c = cell(i, j, k);
                    for &t in &cell_items[cell_offsets[c] as usize..cell_offsets[c + 1] as usize] {
                        let [a, b, c] = tris[t as usize].map(|i| v[i as usize]);
                        let q = closest_on_triangle(p, a, b, c);
                        let d = (q - p).length_squared();
                        if best.is_none_or(|(bd, _)| d < bd) {
                            best = Some((d, q));
                        }
                    }
                }
            }
        }
        let Some((d, q)) = best else { continue };
        if d > hf * hf {
            continue;
        }
        let around = &incident[incident_offsets[n] as usize..incident_offsets[n + 1] as usize];
        for f in [1.0f32, 0.5, 0.25] {
            let candidate = p + (q - p) * f;
            let ok = around.iter().all(|&t| {
                let x = mesh.tets[t as usize].map(|m| {
                    if m as usize == n {
                        candidate
                    } else {
                        mesh.vertices[m as usize]
                    }
                });
                det6(x[0], x[1], x[2], x[3]) >= 0.2 * rest[t as usize]
            });
            if ok {
                mesh.vertices[n] = candidate;
                break;
            }
        }
    }
    Ok(mesh)
}

/// Barycentric weights of `p` in tet `x` (f64; sum 1).
fn barycentric(x: [Vec3; 4], p: Vec3) -> [f64; 4] {
    let d = det6(x[0], x[1], x[2], x[3]);
    let w1 = det6(x[0], p, x[2], x[3]) / d;
    let w2 = det6(x[0], x[1], p, x[3]) / d;
    let w3 = det6(x[0], x[1], x[2], p) / d;
    [1.0 - w1 - w2 - w3, w1, w2, w3]
}

/// For each point (a render-mesh vertex, m), the tet of `tets` over `vertices` that
/// holds it and its barycentric weights: the point is Σ wₖ·vertices[tet[k]], and moves
/// with the tet's particles when the weights are applied to them. A point outside
/// every tet takes the tet it is least outside of (largest smallest weight) among the
/// nearest ones, with extrapolated weights. Tets must have positive volume.
pub fn embed_points(
    vertices: &[Vec3],
    tets: &[[u32; 4]],
    points: &[Vec3],
) -> Result<Vec<TetEmbedding>> {
    check_points("vertex", vertices)?;
    check_points("point", points)?;
    if tets.is_empty() {
        return Err(Error::invalid("embedding needs at least one tet"));
    }
    crate::constraints::nary::check_elements(tets, vertices.len(), "tet")?;
    for (j, t) in tets.iter().enumerate() {
        let x = t.map(|p| vertices[p as usize]);
        if det6(x[0], x[1], x[2], x[3]) <= 0.0 {
            return Err(Error::invalid(format!(
                "tet {j} {t:?} is flat or inverted (vertices 1, 2, 3 must be counter-clockwise seen from vertex 0)"
            )));
        }
    }
    let (lo, hi) = vertices
        .iter()
        .fold((vertices[0], vertices[0]), |(l, h), &p| {
            (l.min(p), h.max(p))
        });
    let extent = (hi - lo).max(Vec3::splat(f32::MIN_POSITIVE)).as_dvec3();
    // About two tets per bucket, at most 64 buckets a side.
    let side = (extent.x * extent.y * extent.z / tets.len() as f64 * 2.0)
        .cbrt()
        .max(extent.max_element() / 64.0);
    let dims = extent
        .to_array()
        .map(|e| ((e / side).ceil() as usize).clamp(1, 64));
    let at = |a: usize, x: f32| {
        (((x - lo[a]) as f64 / extent[a] * dims[a] as f64).floor()).clamp(0.0, dims[a] as f64 - 1.0)
            as usize
    };
    let tet_box = |t: usize| {
        let x = tets[t].map(|p| vertices[p as usize]);
        let (l, u) = x
            .iter()
            .fold((x[0], x[0]), |(l, u), &p| (l.min(p), u.max(p)));
        [
            std::array::from_fn(|a| at(a, l[a])),
            std::array::from_fn(|a| at(a, u[a])),
        ]
    };
    let (offsets, items) = bucket(dims, tet_box, tets.len());
    let cell = |i: usize, j: usize, k: usize| (k * dims[1] + j) * dims[0] + i;
    let mut out = try_with_capacity(points.len(), "embeddings")?;
    for &p in points {
        let g = [at(0, p.x), at(1, p.y), at(2, p.z)];
        let mut best: Option<(f64, u32, [f64; 4])> = None;
        let mut found_at: Option<usize> = None;
        let max_ring = dims.iter().copied().max().unwrap_or(1);
        for r in 0..=max_ring {
            if found_at.is_some_and(|f| r > f + 1) {
                break;
            }
            let range = |a: usize| g[a].saturating_sub(r)..=(g[a] + r).min(dims[a] - 1);
            for k in range(2) {
                for j in range(1) {
                    for i in range(0) {
                        let shell = [i, j, k]
                            .iter()
                            .zip(&g)
                            .any(|(&c, &gc)| c.abs_diff(gc) == r);
                        if !shell {
                            continue;
                        }
                        let c = cell(i, j, k);
                        for &t in &items[offsets[c] as usize..offsets[c + 1] as usize] {
                            let w = barycentric(tets[t as usize].map(|q| vertices[q as usize]), p);
                            let m = w.iter().copied().fold(f64::INFINITY, f64::min);
                            let better = match best {
                                None => true,
                                Some((bm, bt, _)) => m > bm || (m == bm && t < bt),
                            };
                            if better {
                                best = Some((m, t, w));
                            }
                        }
                    }
                }
            }
            if found_at.is_none() && best.is_some() {
                found_at = Some(r);
            }
            if best.is_some_and(|b| b.0 >= 0.0) {
                // Inside a tet: no nearer one exists.
                break;
            }
        }
        let (_, tet, w) = best.ok_or_else(|| Error::invalid("no tet found for a point"))?;
        out.push(TetEmbedding {
            tet,
            weights: w.map(|x| x as f32),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A UV sphere of radius `r`, closed (poles shared), counter-clockwise from outside.
    fn sphere(r: f32, rings: u32, segments: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let mut v = vec![Vec3::new(0.0, r, 0.0)];
        for i in 1..rings {
            let th = std::f32::consts::PI * i as f32 / rings as f32;
            for j in 0..segments {
                let ph = std::f32::consts::TAU * j as f32 / segments as f32;
                v.push(Vec3::new(
                    r * th.sin() * ph.cos(),
                    r * th.cos(),
                    r * th.sin() * ph.sin(),
                ));
            }
        }
        v.push(Vec3::new(0.0, -r, 0.0));
        let south = v.len() as u32 - 1;
        let at = |i: u32, j: u32| 1 + (i - 1) * segments + j % segments;
        let mut t = Vec::new();
        for j in 0..segments {
            t.push([0, at(1, j + 1), at(1, j)]);
            t.push([south, at(rings - 1, j), at(rings - 1, j + 1)]);
        }
        for i in 1..rings - 1 {
            for j in 0..segments {
                t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
                t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
            }
        }
        (v, t)
    }

    fn mesh_volume(v: &[Vec3], t: &[[u32; 3]]) -> f64 {
        t.iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| v[i as usize]);
                a.as_dvec3().dot(b.as_dvec3().cross(c.as_dvec3())) / 6.0
            })
            .sum()
    }

    fn tet_volume_sum(m: &TetMesh) -> f64 {
        m.tets
            .iter()
            .map(|t| {
                let x = t.map(|p| m.vertices[p as usize]);
                det6(x[0], x[1], x[2], x[3]) / 6.0
            })
            .sum()
    }

    #[test]
    fn sphere_volume_close_and_every_tet_positive() {
        let (v, t) = sphere(1.0, 16, 32);
        let exact = mesh_volume(&v, &t);
        for res in [6, 10, 16] {
            let m = tetrahedralize(&v, &t, res).unwrap();
            let vol = tet_volume_sum(&m);
            assert!(
                (vol / exact - 1.0).abs() < 0.05,
                "res {res}: {vol} vs {exact}"
            );
            for tet in &m.tets {
                let x = tet.map(|p| m.vertices[p as usize]);
                assert!(det6(x[0], x[1], x[2], x[3]) > 0.0);
            }
        }
    }

    #[test]
    fn welding_merges_seams_and_drops_collapsed_triangles() {
        let v = [
            Vec3::ZERO,
            Vec3::X,
            Vec3::Y,
            Vec3::X,
            Vec3::new(1.0, 1.0, 0.0),
        ];
        let w = weld_mesh(&v, &[[0, 1, 2], [3, 4, 2], [1, 3, 2]], 0.0).unwrap();
        assert_eq!(w.map, vec![0, 1, 2, 1, 3]);
        assert_eq!(w.triangles, vec![[0, 1, 2], [1, 3, 2]]);
        let near = [Vec3::ZERO, Vec3::new(1e-4, 0.0, 0.0), Vec3::X];
        let w = weld_mesh(&near, &[], 1e-3).unwrap();
        assert_eq!(w.map, vec![0, 0, 1]);
    }

    #[test]
    fn embedding_reproduces_points() {
        let (v, t) = sphere(1.0, 8, 12);
        let m = tetrahedralize(&v, &t, 6).unwrap();
        let e = embed_points(&m.vertices, &m.tets, &v).unwrap();
        for (p, e) in v.iter().zip(&e) {
            let q: Vec3 = (0..4)
                .map(|k| m.vertices[m.tets[e.tet as usize][k] as usize] * e.weights[k])
                .sum();
            assert!((q - *p).length() < 1e-4, "{p} -> {q}");
        }
    }
}
