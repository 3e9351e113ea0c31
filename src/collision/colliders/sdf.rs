//! Signed distance field colliders: a grid of distances (m, negative inside the
//! solid) in the collider's local frame, sampled trilinearly, with the gradient of
//! the interpolant as the outward normal. The grid comes from the host
//! ([`SdfGrid`] filled by it: a level's baked field) or from a closed triangle mesh
//! (`SdfGrid::from_mesh`, in `bodies/sdf_from_mesh.rs`: above this layer, since it
//! checks the mesh as the tetrahedraliser does and shares its winding test).
//!
//! **Layout.** Node (i, j, k) lies at `origin + cell_size · (i, j, k)` (local, m);
//! `distances[(k · ny + j) · nx + i]` is its signed distance (x fastest).
//!
//! **Sampling.** Inside the grid's box the field is the trilinear interpolant `f` of
//! the nodes; its gradient is the trilinear blend of the nodes' central-difference
//! gradients (continuous from cell to cell, second order where the field is smooth,
//! exact for a plane; the interpolant's own gradient is a chord's slope that turns by
//! cell-sized steps round an edge). Outside the box a
//! point p takes the value at its clamp q onto the box plus `|p − q|` (the field
//! grows like a distance away from the grid), so a grid whose border is solid ends
//! there. Where the gradient vanishes (a medial point: the centre of a ball), the
//! normal is the field's central difference over one cell, and +Y (local) when that
//! vanishes too.
//!
//! **Contacts.** The same rules as the convex shapes (`passes.rs`,
//! `convex_contact`): a path that starts outside the field inflated by the particle
//! radius is swept by sphere tracing, stepping `F / L` with `L` a bound on the field's
//! slope computed from the grid (the largest difference of neighbouring nodes along
//! each axis, and 1 for the part outside the box), so a step never passes the surface of
//! the interpolated field and a fast particle does not tunnel through a wall whose
//! nodes hold negative distances (about two cells thick: a thinner solid may have
//! none); otherwise the nearest-point plane at the end point.

use crate::error::{Error, Result};
use crate::limits::{check_length, MAX_LENGTH, MAX_SDF_SAMPLES};
use crate::math::Vec3;
use crate::particles::MAX_COORDINATE;
use crate::snapshot::codec::{Reader, Writer};

/// A grid of signed distances (see the module's documentation for the layout).
#[derive(Clone, Debug, PartialEq)]
pub struct SdfGrid {
    /// Nodes along the local X, Y and Z axes (each >= 2; at most
    /// [`MAX_SDF_SAMPLES`] in all).
    pub dims: [u32; 3],
    /// Spacing of the nodes along each axis (m, > 0): cubic cells.
    pub cell_size: f32,
    /// Local position of node (0, 0, 0) (m).
    pub origin: Vec3,
    /// `nx · ny · nz` signed distances (m, negative inside the solid, finite, within
    /// ±MAX_LENGTH), x fastest.
    pub distances: Vec<f32>,
}

/// Checks a grid's layout: at least 2 nodes per axis and at most [`MAX_SDF_SAMPLES`]
/// in all, a positive finite cell no wider than the grid allows (its extent at most
/// MAX_LENGTH per axis) and an origin finite within ±MAX_COORDINATE. Returns the
/// node count.
pub fn check_layout(dims: [u32; 3], cell_size: f32, origin: Vec3) -> Result<usize> {
    if dims.iter().any(|&n| n < 2) {
        return Err(Error::invalid(format!(
            "a distance field needs at least 2 nodes per axis, not {} x {} x {}",
            dims[0], dims[1], dims[2]
        )));
    }
    let nodes = dims.iter().map(|&n| n as u64).product::<u64>();
    if nodes > MAX_SDF_SAMPLES as u64 {
        return Err(Error::out_of_range(format!(
            "a distance field of {} x {} x {} = {nodes} nodes exceeds the limit of \
             {MAX_SDF_SAMPLES} ({} MiB of distances): use a larger cell",
            dims[0],
            dims[1],
            dims[2],
            (MAX_SDF_SAMPLES * 4) >> 20
        )));
    }
    check_length("cell_size", cell_size, true)?;
    for (axis, &n) in ["X", "Y", "Z"].iter().zip(&dims) {
        if cell_size as f64 * (n - 1) as f64 > MAX_LENGTH as f64 {
            return Err(Error::invalid(format!(
                "the distance field spans more than {MAX_LENGTH} m along {axis}"
            )));
        }
    }
    if !origin.is_finite() || origin.abs().max_element() > MAX_COORDINATE {
        return Err(Error::invalid(format!(
            "distance field origin {origin} must be finite with components within \
             ±{MAX_COORDINATE} m"
        )));
    }
    Ok(nodes as usize)
}

impl SdfGrid {
    /// Checks the grid: its layout ([`check_layout`]), as many distances as nodes,
    /// each finite within ±MAX_LENGTH, and at least one at or below 0 (a field with
    /// no solid, as a field of unsigned or sign-flipped distances may be, is refused).
    pub fn check(&self) -> Result<()> {
        let nodes = check_layout(self.dims, self.cell_size, self.origin)?;
        if self.distances.len() != nodes {
            return Err(Error::invalid(format!(
                "{} distances for a grid of {} x {} x {} = {nodes} nodes",
                self.distances.len(),
                self.dims[0],
                self.dims[1],
                self.dims[2]
            )));
        }
        if let Some(k) = self
            .distances
            .iter()
            .position(|d| !d.is_finite() || d.abs() > MAX_LENGTH)
        {
            return Err(Error::invalid(format!(
                "distance {k} is {}: must be finite and within ±{MAX_LENGTH} m",
                self.distances[k]
            )));
        }
        if self.distances.iter().all(|&d| d > 0.0) {
            return Err(Error::invalid(
                "no distance of the field is <= 0: it has no solid (distances are \
                 negative inside)",
            ));
        }
        Ok(())
    }

    /// The field at local point `p` (m), as a collider samples it (module docs): its
    /// signed distance (m) and gradient (dimensionless; the outward normal where it is
    /// not zero). Refuses a grid whose node counts and distances do not agree.
    pub fn sample(&self, p: Vec3) -> Result<(f32, Vec3)> {
        let nodes = self.dims.iter().map(|&n| n as u64).product::<u64>();
        if self.dims.iter().any(|&n| n < 2) || nodes != self.distances.len() as u64 {
            return Err(Error::invalid(format!(
                "{} distances for a grid of {} x {} x {} nodes (at least 2 per axis)",
                self.distances.len(),
                self.dims[0],
                self.dims[1],
                self.dims[2]
            )));
        }
        Ok(sample(self, 1.0 / self.cell_size, p))
    }
}

/// Where a local point falls in a grid whose layout holds (dims >= 2, as many
/// distances as nodes): the cell's first node and the fractions within it of the
/// point's clamp onto the grid's box, and the offset (m) from that clamp to the point.
struct Cell {
    idx: usize,
    node: [usize; 3],
    f: Vec3,
    out: Vec3,
}

#[inline]
fn locate(g: &SdfGrid, inv_cell: f32, p: Vec3) -> Cell {
    let [nx, ny, nz] = g.dims;
    let top = Vec3::new((nx - 1) as f32, (ny - 1) as f32, (nz - 1) as f32);
    let at = (p - g.origin) * inv_cell;
    let c = at.clamp(Vec3::ZERO, top);
    let i = (c.x as u32).min(nx - 2) as usize;
    let j = (c.y as u32).min(ny - 2) as usize;
    let k = (c.z as u32).min(nz - 2) as usize;
    Cell {
        idx: (k * ny as usize + j) * nx as usize + i,
        node: [i, j, k],
        f: c - Vec3::new(i as f32, j as f32, k as f32),
        out: (at - c) * g.cell_size,
    }
}

/// The field's value (m) at the point `cell` locates: the trilinear interpolant inside
/// the box, plus the distance to the box outside it.
#[inline]
fn value(g: &SdfGrid, cell: &Cell) -> f32 {
    let (idx, f) = (cell.idx, cell.f);
    let nx = g.dims[0] as usize;
    let (sy, sz) = (nx, nx * g.dims[1] as usize);
    let v = &g.distances;
    let lerp = |a: f32, b: f32, t: f32| a + (b - a) * t;
    // Along x on the four x-edges, then y, then z.
    let x00 = lerp(v[idx], v[idx + 1], f.x);
    let x10 = lerp(v[idx + sy], v[idx + sy + 1], f.x);
    let x01 = lerp(v[idx + sz], v[idx + sz + 1], f.x);
    let x11 = lerp(v[idx + sz + sy], v[idx + sz + sy + 1], f.x);
    let y0 = lerp(x00, x10, f.y);
    let y1 = lerp(x01, x11, f.y);
    let inside = lerp(y0, y1, f.z);
    if cell.out == Vec3::ZERO {
        inside
    } else {
        inside + cell.out.length()
    }
}

/// The field's gradient (dimensionless) at the point `cell` locates: inside the box
/// the trilinear blend of the cell's eight node gradients, each the central difference
/// of its neighbours (one-sided on the grid's faces); outside it, along a clamped axis,
/// the slope of the distance to the box. Unlike the interpolant's own gradient (a
/// chord's slope, constant along each axis within a cell), it is continuous from cell
/// to cell and second-order accurate where the field is smooth: the normal of a
/// contact turns smoothly over a rounded edge instead of by cell-sized steps.
#[inline]
fn gradient(g: &SdfGrid, inv_cell: f32, cell: &Cell) -> Vec3 {
    let [nx, ny, nz] = g.dims.map(|n| n as usize);
    let v = &g.distances;
    let (sy, sz) = (nx, nx * ny);
    let [i, j, k] = cell.node;
    // The difference quotient along one axis at node `at` (coordinate `c` of `n`).
    let diff = |at: usize, c: usize, n: usize, stride: usize| {
        let (lo, hi) = (c.min(1), (n - 1 - c).min(1));
        (v[at + hi * stride] - v[at - lo * stride]) / (lo + hi) as f32
    };
    let node = |di: usize, dj: usize, dk: usize| {
        let at = cell.idx + di + dj * sy + dk * sz;
        Vec3::new(
            diff(at, i + di, nx, 1),
            diff(at, j + dj, ny, sy),
            diff(at, k + dk, nz, sz),
        )
    };
    let f = cell.f;
    let lerp = |a: Vec3, b: Vec3, t: f32| a + (b - a) * t;
    let y0 = lerp(
        lerp(node(0, 0, 0), node(1, 0, 0), f.x),
        lerp(node(0, 1, 0), node(1, 1, 0), f.x),
        f.y,
    );
    let y1 = lerp(
        lerp(node(0, 0, 1), node(1, 0, 1), f.x),
        lerp(node(0, 1, 1), node(1, 1, 1), f.x),
        f.y,
    );
    let grad = lerp(y0, y1, f.z) * inv_cell;
    if cell.out == Vec3::ZERO {
        return grad;
    }
    let out = cell.out;
    Vec3::select(out.cmpne(Vec3::ZERO), out / out.length(), grad)
}

/// The field of a grid whose layout holds at local point `p`: its value (m) and
/// gradient (dimensionless); `inv_cell` = 1 / the cell size.
#[inline]
fn sample(g: &SdfGrid, inv_cell: f32, p: Vec3) -> (f32, Vec3) {
    let cell = locate(g, inv_cell, p);
    (value(g, &cell), gradient(g, inv_cell, &cell))
}

/// A checked grid ready for the contact queries: its slope bound and bounding radius.
#[derive(Clone, Debug)]
pub(crate) struct SdfField {
    grid: SdfGrid,
    inv_cell: f32,
    /// A bound on the slope of the field, inside the grid and out (dimensionless,
    /// >= 1): `sqrt(L² + 1)` with `L` the trilinear interpolant's (see the module).
    lip: f32,
    /// Radius (m) of a ball about the local origin that holds every point where the
    /// field is below 0: the grid's farthest corner plus the deepest distance (a
    /// solid border extends past the box by at most that).
    bound: f32,
}

impl SdfField {
    /// Checks `grid` ([`SdfGrid::check`]) and derives the slope bound and the radius.
    pub(crate) fn new(grid: SdfGrid) -> Result<SdfField> {
        grid.check()?;
        let d = grid.dims.map(|n| n as usize);
        let v = &grid.distances;
        let mut steepest = [0.0f32; 3];
        let stride = [1, d[0], d[0] * d[1]];
        for k in 0..d[2] {
            for j in 0..d[1] {
                for i in 0..d[0] {
                    let at = (k * d[1] + j) * d[0] + i;
                    for (a, &idx) in [i, j, k].iter().enumerate() {
                        if idx + 1 < d[a] {
                            let diff = (v[at + stride[a]] - v[at]).abs();
                            steepest[a] = steepest[a].max(diff);
                        }
                    }
                }
            }
        }
        let inv_cell = 1.0 / grid.cell_size;
        let l = Vec3::from_array(steepest).length() * inv_cell;
        // Rounded up a little: the bound must never be below the true slope.
        let lip = (l * l + 1.0).sqrt() * (1.0 + 1.0e-5);
        let extent =
            Vec3::new((d[0] - 1) as f32, (d[1] - 1) as f32, (d[2] - 1) as f32) * grid.cell_size;
        let far = grid.origin.abs().max((grid.origin + extent).abs()).length();
        let deepest = v.iter().fold(0.0f32, |m, &x| m.max(-x));
        let bound = (far + deepest) * (1.0 + 1.0e-5) + 1.0e-30;
        Ok(SdfField {
            grid,
            inv_cell,
            lip,
            bound,
        })
    }

    #[cfg(test)]
    pub(crate) fn grid(&self) -> &SdfGrid {
        &self.grid
    }

    /// See [`SdfField::bound`].
    pub(crate) fn bound_radius(&self) -> f32 {
        self.bound
    }

    /// The field's value (m) at local point `p` and its gradient (dimensionless).
    #[inline]
    fn field(&self, p: Vec3) -> (f32, Vec3) {
        sample(&self.grid, self.inv_cell, p)
    }

    /// The field's value (m) at local point `p` alone.
    #[inline]
    fn value(&self, p: Vec3) -> f32 {
        value(&self.grid, &locate(&self.grid, self.inv_cell, p))
    }

    /// Signed distance (m) from local point `p` to the field's solid inflated by `r`,
    /// and the outward unit normal there (local): the normalised gradient, or the
    /// fallback of the module's documentation where it vanishes.
    #[inline]
    pub(crate) fn distance(&self, p: Vec3, r: f32) -> (f32, Vec3) {
        let (value, grad) = self.field(p);
        let l = grad.length();
        if l > 1.0e-6 {
            return (value - r, grad / l);
        }
        let h = self.grid.cell_size;
        let diff = |axis: Vec3| self.value(p + axis * h) - self.value(p - axis * h);
        let central = Vec3::new(diff(Vec3::X), diff(Vec3::Y), diff(Vec3::Z));
        let lc = central.length();
        let n = if lc > 1.0e-6 * h {
            central / lc
        } else {
            Vec3::Y
        };
        (value - r, n)
    }

    /// First point where the segment `p0 → p1` (local) enters the field's solid
    /// inflated by `r`, when `p0` is outside it: `Some((t, normal))` with t in [0, 1].
    /// Sphere tracing with steps of `F / L` (never past the surface).
    pub(crate) fn sweep(&self, p0: Vec3, p1: Vec3, r: f32) -> Option<(f32, Vec3)> {
        let seg = p1 - p0;
        let len = seg.length();
        if len <= 0.0 {
            return None;
        }
        let eps = (1.0e-4 * (r + len)).max(1.0e-7);
        let step = 1.0 / (self.lip * len);
        let mut t = 0.0f32;
        for _ in 0..64 {
            let p = p0 + seg * t;
            let d = self.value(p) - r;
            if d <= eps {
                return Some((t, self.distance(p, r).1));
            }
            t += d * step;
            if t > 1.0 {
                return None;
            }
        }
        None
    }

    /// Snapshot: the grid (the slope bound and the radius are derived again on load).
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        let g = &self.grid;
        w.put((g.dims[0], g.dims[1]));
        w.put(g.dims[2]);
        w.put((g.cell_size, g.origin));
        w.put_slice(&g.distances);
    }

    /// Snapshot: the field [`Self::save`] wrote, checked as a new one.
    pub(crate) fn load(r: &mut Reader<'_>) -> Result<SdfField> {
        let (nx, ny) = r.get::<(u32, u32)>()?;
        let nz = r.get::<u32>()?;
        let (cell_size, origin) = r.get::<(f32, Vec3)>()?;
        let distances: Vec<f32> = r.get_vec()?;
        SdfField::new(SdfGrid {
            dims: [nx, ny, nz],
            cell_size,
            origin,
            distances,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field of a ball of radius 0.5 about (0.1, 0, 0) on a 9³ grid of 0.2 m.
    fn ball() -> SdfField {
        let (n, h) = (9u32, 0.2f32);
        let origin = Vec3::splat(-0.8);
        let mut distances = Vec::new();
        for k in 0..n {
            for j in 0..n {
                for i in 0..n {
                    let p = origin + Vec3::new(i as f32, j as f32, k as f32) * h;
                    distances.push((p - Vec3::new(0.1, 0.0, 0.0)).length() - 0.5);
                }
            }
        }
        SdfField::new(SdfGrid {
            dims: [n; 3],
            cell_size: h,
            origin,
            distances,
        })
        .unwrap()
    }

    #[test]
    fn trilinear_distance_gradient_and_outside_extension() {
        let f = ball();
        // At a node: the exact value, the normal radial to within the interpolation.
        let (d, n) = f.distance(Vec3::new(0.8, 0.0, 0.0), 0.0);
        assert!((d - 0.2).abs() < 1e-6, "{d}");
        assert!((n - Vec3::X).length() < 0.2, "{n}");
        // Past the box along +X: the border's value plus the distance to the box.
        let (d, n) = f.distance(Vec3::new(1.3, 0.0, 0.0), 0.1);
        assert!((d - (0.2 + 0.5 - 0.1)).abs() < 1e-5, "{d}");
        assert!(n.x > 0.95, "{n}");
        // The medial point (the centre, between nodes): still a unit normal.
        let (d, n) = f.distance(Vec3::new(0.1, 0.0, 0.0), 0.0);
        assert!(d < -0.3 && (n.length() - 1.0).abs() < 1e-5, "{d} {n}");
        assert!(f.lip >= 1.0 && f.lip < 2.0, "{}", f.lip);
        // A sweep from outside finds the entry within a cell's interpolation error.
        let (t, n) = f
            .sweep(Vec3::new(-1.5, 0.0, 0.0), Vec3::new(0.5, 0.0, 0.0), 0.0)
            .unwrap();
        let x = -1.5 + 2.0 * t;
        assert!((x + 0.4).abs() < 0.03 && n.x < -0.9, "{x} {n}");
        assert!(f
            .sweep(Vec3::new(-1.5, 1.5, 0.0), Vec3::new(1.5, 1.5, 0.0), 0.0)
            .is_none());
    }

    #[test]
    fn bad_grids_are_refused() {
        let g = ball().grid().clone();
        let bad = |g: SdfGrid| g.check().unwrap_err().message;
        assert!(bad(SdfGrid {
            dims: [1, 9, 9],
            ..g.clone()
        })
        .contains("at least 2"));
        assert!(bad(SdfGrid {
            cell_size: 0.0,
            ..g.clone()
        })
        .contains("cell_size"));
        let mut nan = g.clone();
        nan.distances[7] = f32::NAN;
        assert!(bad(nan).contains("distance 7"));
        let mut positive = g.clone();
        positive
            .distances
            .iter_mut()
            .for_each(|d| *d = d.abs() + 0.1);
        assert!(bad(positive).contains("no solid"));
        assert!(bad(SdfGrid {
            dims: [4096, 4096, 2],
            ..g.clone()
        })
        .contains("exceeds"));
        let short = SdfGrid {
            distances: g.distances[..10].to_vec(),
            ..g
        };
        assert!(bad(short).contains("10 distances"));
    }
}
