//! Building a signed distance field collider's grid ([`SdfGrid`], the collision
//! layer's `collision::colliders::sdf`) from a closed triangle mesh: every node's exact
//! distance to the nearest triangle (the mesh collider's BVH,
//! `TriMesh::nearest`), signed by the tetrahedraliser's watertight winding test
//! (`inside_points`) after its mesh check (`closed_surface`: welded seams, closed,
//! consistently wound, positive volume). It sits in this layer because that check
//! and that test do.

use super::tetrahedralize::{closed_surface, inside_points};
use crate::collision::colliders::sdf::{check_layout, SdfGrid};
use crate::collision::mesh::TriMesh;
use crate::error::{try_with_capacity, Error, Result};
use crate::limits::{check_length, MAX_SDF_SAMPLES};
use crate::math::Vec3;

impl SdfGrid {
    /// The layout [`Self::from_mesh`] gives a mesh, without building the field: its
    /// node counts and origin (local, m). Checks the mesh (closed, consistently wound,
    /// positive volume, after welding seams at bit-identical positions), the cell and
    /// the margin (finite, in [0, MAX_LENGTH] m), and the node limit.
    pub fn mesh_layout(
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
        cell_size: f32,
        margin: f32,
    ) -> Result<([u32; 3], Vec3)> {
        check_length("cell_size", cell_size, true)?;
        check_length("margin", margin, false)?;
        let welded = closed_surface(vertices, triangles)?;
        layout_of(&welded.vertices, cell_size, margin)
    }

    /// Builds the signed distance field of a closed triangle mesh (local frame, m;
    /// counter-clockwise seen from outside, seams at bit-identical positions welded
    /// first): nodes every `cell_size` over the mesh's box grown by `margin` on every
    /// side (at least the largest particle radius plus a cell, so the field reaches
    /// past the surface by more than the contact reach). Each node's distance is the
    /// exact distance to the nearest triangle, negative where the node is inside
    /// (the tetrahedraliser's watertight winding test). An open, inconsistently wound,
    /// inside-out or degenerate mesh is refused naming the edge or triangle. Cost:
    /// O(nodes · log triangles) distance queries and O(triangles · ny · nz) for the
    /// inside test; one thread, so the same bits on every machine and thread count.
    pub fn from_mesh(
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
        cell_size: f32,
        margin: f32,
    ) -> Result<SdfGrid> {
        check_length("cell_size", cell_size, true)?;
        check_length("margin", margin, false)?;
        let welded = closed_surface(vertices, triangles)?;
        let (dims, origin) = layout_of(&welded.vertices, cell_size, margin)?;
        let mesh = TriMesh::new(&welded.vertices, &welded.triangles)?;
        let d = dims.map(|n| n as usize);
        let inside = inside_points(
            &welded.vertices,
            &welded.triangles,
            origin.to_array().map(|c| c as f64),
            cell_size as f64,
            0.0,
            d,
        )?;
        let mut distances = try_with_capacity::<f32>(d[0] * d[1] * d[2], "distance field")?;
        for k in 0..d[2] {
            for j in 0..d[1] {
                // The previous node of the row is one cell away: the nearest point is
                // at most its distance plus a cell away (a bound for the search).
                let mut prev: Option<f32> = None;
                for i in 0..d[0] {
                    let p = origin + Vec3::new(i as f32, j as f32, k as f32) * cell_size;
                    let hint = prev.map_or(f32::INFINITY, |q| {
                        let b = (q + cell_size) * (1.0 + 1.0e-4) + 1.0e-6;
                        b * b
                    });
                    let found = mesh
                        .nearest(p, hint)
                        .or_else(|| mesh.nearest(p, f32::INFINITY));
                    let dist = found.map_or(f32::INFINITY, |(d2, _)| d2.sqrt());
                    prev = Some(dist);
                    let at = (k * d[1] + j) * d[0] + i;
                    distances.push(if inside[at] { -dist } else { dist });
                }
            }
        }
        let grid = SdfGrid {
            dims,
            cell_size,
            origin,
            distances,
        };
        grid.check()?;
        Ok(grid)
    }
}

/// The layout of a mesh's field: the box of `vertices` grown by `margin`, cut in
/// cells of `cell_size` (at least one per axis).
fn layout_of(vertices: &[Vec3], cell_size: f32, margin: f32) -> Result<([u32; 3], Vec3)> {
    let (lo, hi) = vertices
        .iter()
        .fold((vertices[0], vertices[0]), |(l, h), &p| {
            (l.min(p), h.max(p))
        });
    let origin = lo - Vec3::splat(margin);
    let mut dims = [0u32; 3];
    for a in 0..3 {
        let span = (hi[a] - lo[a]) as f64 + 2.0 * margin as f64;
        let cells = (span / cell_size as f64).ceil().max(1.0);
        if cells >= MAX_SDF_SAMPLES as f64 {
            return Err(Error::out_of_range(format!(
                "a cell of {cell_size} m gives {cells} cells along axis {a}, more than the \
                 {MAX_SDF_SAMPLES} nodes a distance field holds: use a larger cell"
            )));
        }
        dims[a] = cells as u32 + 1;
    }
    check_layout(dims, cell_size, origin)?;
    Ok((dims, origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cube_mesh_gives_its_exact_distances() {
        let (v, t) = crate::scenes::box_mesh(Vec3::splat(0.5));
        // The scenes' box is wound inward: turned for a closed, outward surface.
        let t: Vec<[u32; 3]> = t.iter().map(|t| [t[0], t[2], t[1]]).collect();
        let g = SdfGrid::from_mesh(&v, &t, 0.25, 0.5).unwrap();
        assert_eq!(g.dims, [9, 9, 9]);
        assert_eq!(g.origin, Vec3::splat(-1.0));
        let at = |i: usize, j: usize, k: usize| g.distances[(k * 9 + j) * 9 + i];
        assert_eq!(at(4, 4, 4), -0.5);
        assert_eq!(at(0, 4, 4), 0.5);
        assert!((at(0, 0, 0) - 0.5 * 3f32.sqrt()).abs() < 1e-6);
        assert_eq!(at(2, 4, 4), 0.0);
        let (dims, origin) = SdfGrid::mesh_layout(&v, &t, 0.25, 0.5).unwrap();
        assert_eq!((dims, origin), (g.dims, g.origin));
        // An open mesh is refused.
        assert!(SdfGrid::from_mesh(&v, &t[..11], 0.25, 0.5).is_err());
    }
}
