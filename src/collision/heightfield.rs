//! Heightfields: a terrain's grid of heights, with holes, as a static collider. The
//! grid is turned into the triangles of a mesh collider (`super::mesh::TriMesh`, with
//! its BVH), so a heightfield is swept along each particle's path and gets the
//! friction and restitution of every other collider.
//!
//! In the collider's local frame sample (i, j) (column i along +X, row j along +Z) lies
//! at `(i · cell_x, heights[j · columns + i], j · cell_z)`: the grid's corner sample
//! (0, 0) is at the collider's position, and its rotation turns the whole terrain.
//! Cell (i, j) (between columns i, i+1 and rows j, j+1) is split along its diagonal
//! from (i+1, j) to (i, j+1) into two triangles, and left out when it is a hole.

use crate::error::{try_with_capacity, Error, Result};
use crate::limits::{check_length, MAX_LENGTH};
use crate::math::Vec3;
use crate::particles::MAX_COORDINATE;

/// A terrain's grid of heights (see the module's documentation for the layout).
#[derive(Clone, Copy, Debug)]
pub struct Heightfield<'a> {
    /// Samples along the local X axis (>= 2).
    pub columns: u32,
    /// Samples along the local Z axis (>= 2).
    pub rows: u32,
    /// Spacing of the samples along X and along Z (m, > 0).
    pub cell_x: f32,
    pub cell_z: f32,
    /// `rows × columns` heights (m, local Y), row by row (row j holds the samples at
    /// z = j · cell_z).
    pub heights: &'a [f32],
    /// Per cell, `(rows − 1) × (columns − 1)` flags row by row, true where the terrain
    /// has a hole (particles pass); None: no hole.
    pub holes: Option<&'a [bool]>,
}

impl Heightfield<'_> {
    /// Checks the grid: at least 2 × 2 samples, positive finite spacings, as many
    /// finite heights (within ±MAX_COORDINATE) as samples and as many hole flags as
    /// cells, a grid no wider than MAX_LENGTH, and at least one cell without a hole.
    pub fn check(&self) -> Result<()> {
        let (c, r) = (self.columns as usize, self.rows as usize);
        if c < 2 || r < 2 {
            return Err(Error::invalid(format!(
                "a heightfield needs at least 2 x 2 samples, not {c} x {r}"
            )));
        }
        check_length("cell_x", self.cell_x, true)?;
        check_length("cell_z", self.cell_z, true)?;
        for (name, cell, n) in [("X", self.cell_x, c), ("Z", self.cell_z, r)] {
            if cell * (n - 1) as f32 > MAX_LENGTH {
                return Err(Error::invalid(format!(
                    "the heightfield spans more than {MAX_LENGTH} m along {name}"
                )));
            }
        }
        let samples = c.checked_mul(r).filter(|&n| n <= crate::MAX_TRIANGLES / 2);
        if samples != Some(self.heights.len()) {
            return Err(Error::invalid(format!(
                "{} heights for a grid of {c} x {r} samples (at most {} samples)",
                self.heights.len(),
                crate::MAX_TRIANGLES / 2
            )));
        }
        if let Some(k) = self
            .heights
            .iter()
            .position(|h| !h.is_finite() || h.abs() > MAX_COORDINATE)
        {
            return Err(Error::invalid(format!(
                "height {k} is {}: must be finite and within ±{MAX_COORDINATE} m",
                self.heights[k]
            )));
        }
        let cells = (c - 1) * (r - 1);
        if let Some(holes) = self.holes {
            if holes.len() != cells {
                return Err(Error::invalid(format!(
                    "{} hole flags for {cells} cells ((rows - 1) x (columns - 1))",
                    holes.len()
                )));
            }
            if holes.iter().all(|&h| h) {
                return Err(Error::invalid("every cell of the heightfield is a hole"));
            }
        }
        Ok(())
    }

    /// The grid's vertices (local, m) and the triangles of its solid cells.
    pub(crate) fn triangles(&self) -> Result<(Vec<Vec3>, Vec<[u32; 3]>)> {
        self.check()?;
        let (c, r) = (self.columns as usize, self.rows as usize);
        let mut vertices = try_with_capacity(c * r, "heightfield vertices")?;
        for j in 0..r {
            for i in 0..c {
                vertices.push(Vec3::new(
                    i as f32 * self.cell_x,
                    self.heights[j * c + i],
                    j as f32 * self.cell_z,
                ));
            }
        }
        let cells = (c - 1) * (r - 1);
        let solid = cells - self.holes.map_or(0, |h| h.iter().filter(|&&x| x).count());
        let mut triangles = try_with_capacity(2 * solid, "heightfield triangles")?;
        for j in 0..r - 1 {
            for i in 0..c - 1 {
                if self.holes.is_some_and(|h| h[j * (c - 1) + i]) {
                    continue;
                }
                let at = |i: usize, j: usize| (j * c + i) as u32;
                triangles.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
                triangles.push([at(i + 1, j), at(i, j + 1), at(i + 1, j + 1)]);
            }
        }
        Ok((vertices, triangles))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_becomes_two_triangles_per_solid_cell() {
        let heights = [0.0, 1.0, 2.0, 0.0, 1.0, 2.0];
        let holes = [false, true];
        let field = Heightfield {
            columns: 3,
            rows: 2,
            cell_x: 0.5,
            cell_z: 2.0,
            heights: &heights,
            holes: Some(&holes),
        };
        let (v, t) = field.triangles().unwrap();
        assert_eq!(v.len(), 6);
        assert_eq!(v[4], Vec3::new(0.5, 1.0, 2.0));
        assert_eq!(t, vec![[0, 3, 1], [1, 3, 4]]);
        let bad = |f: Heightfield<'_>| f.check().unwrap_err().message;
        assert!(bad(Heightfield { rows: 1, ..field }).contains("2 x 2"));
        assert!(bad(Heightfield {
            cell_x: 0.0,
            ..field
        })
        .contains("cell_x"));
        assert!(bad(Heightfield {
            heights: &heights[..5],
            ..field
        })
        .contains("5 heights"));
        assert!(bad(Heightfield {
            holes: Some(&[true, true]),
            ..field
        })
        .contains("every cell"));
        let nan = [0.0, f32::NAN, 0.0, 0.0, 0.0, 0.0];
        assert!(bad(Heightfield {
            heights: &nan,
            ..field
        })
        .contains("height 1"));
    }
}
