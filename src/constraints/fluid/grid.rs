//! The fluid neighbour grid: cells of the largest smoothing radius h, a counting sort
//! of the fluid's particles (and the solid particles coupled with it) by cell, so that
//! a particle finds every partner within h in the 3 × 3 × 3 cells around its own,
//! read as 9 runs of 3 consecutive cells (rows along x).
//!
//! * **Dense** layout when the box of occupied cells fits the table (a few buckets per
//!   particle, the usual case of a pool or a tank): cell (x, y, z) is bucket
//!   `((z − z₀) n_y + (y − y₀)) n_x + (x − x₀ + 1)`, rows padded by one cell on both
//!   ends, so every run is contiguous and no cell shares a bucket.
//! * **Hashed** layout otherwise (solids or spray far apart): a row (y, z) starts at a
//!   hashed bucket and runs along x (Teschner et al. 2003, "Optimized Spatial Hashing
//!   for Collision Detection of Deformable Objects", with rows kept whole), so the
//!   runs are the same; a candidate counts only in the run of its own cell (its cell
//!   is checked), so that none is listed twice.
//!
//! The sort is stable and serial, in the order of the particles handed in, so the slot
//! order, and with it every list and every sum of the solver, depends only on the
//! positions, never on the thread count.

/// The layout of the last build.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum Layout {
    #[default]
    Empty,
    Dense {
        lo: [i32; 3],
        hi: [i32; 3],
        nx: i64,
        ny: i64,
    },
    Hashed {
        mask: u32,
    },
}

/// Buckets per particle above which the dense layout gives way to the hashed one.
const DENSE_PER_PARTICLE: i64 = 8;

/// Row hash of the hashed layout (as `collision::neighbours`).
#[inline]
fn row_key(cy: i32, cz: i32) -> u32 {
    (cy.wrapping_mul(689_287_499) ^ cz.wrapping_mul(283_923_481)) as u32
}

impl Layout {
    /// Picks the layout for `m` particles whose cells span `lo..=hi`, and its number
    /// of buckets.
    pub(crate) fn choose(m: usize, lo: [i32; 3], hi: [i32; 3]) -> (Layout, usize) {
        if m == 0 {
            return (Layout::Empty, 1);
        }
        let span = |a: usize| hi[a] as i64 - lo[a] as i64 + 1;
        let nx = span(0) + 2;
        let (ny, nz) = (span(1), span(2));
        let limit = DENSE_PER_PARTICLE * m as i64 + 1024;
        // Checked in steps: the product of three spans can overflow i64.
        if nx <= limit && ny <= limit && nz <= limit && nx * ny <= limit && nx * ny * nz <= limit {
            let table = (nx * ny * nz) as usize;
            (Layout::Dense { lo, hi, nx, ny }, table)
        } else {
            let table = (2 * m).next_power_of_two().max(64);
            (
                Layout::Hashed {
                    mask: (table - 1) as u32,
                },
                table,
            )
        }
    }

    /// The bucket of cell `c`.
    #[inline]
    pub(crate) fn bucket(&self, c: [i32; 3]) -> u32 {
        match *self {
            Layout::Dense { lo, nx, ny, .. } => {
                (((c[2] as i64 - lo[2] as i64) * ny + (c[1] as i64 - lo[1] as i64)) * nx
                    + (c[0] as i64 - lo[0] as i64 + 1)) as u32
            }
            Layout::Hashed { mask } => row_key(c[1], c[2]).wrapping_add(c[0] as u32) & mask,
            Layout::Empty => 0,
        }
    }

    /// Calls `run(row, start, end)` for the runs of 3 cells (x − 1 ..= x + 1) of the 9
    /// rows `row = [y, z]` around cell `c`, in a fixed order (z, then y), each as a
    /// half-open bucket range (a hashed run that wraps is cut in two). Rows outside a
    /// dense box are skipped.
    #[inline]
    pub(crate) fn for_runs(&self, c: [i32; 3], mut run: impl FnMut([i32; 2], usize, usize)) {
        match *self {
            Layout::Dense { lo, hi, nx, ny } => {
                for dz in -1..=1i32 {
                    let z = c[2].wrapping_add(dz);
                    if z < lo[2] || z > hi[2] {
                        continue;
                    }
                    for dy in -1..=1i32 {
                        let y = c[1].wrapping_add(dy);
                        if y < lo[1] || y > hi[1] {
                            continue;
                        }
                        let b = ((z as i64 - lo[2] as i64) * ny + (y as i64 - lo[1] as i64)) * nx
                            + (c[0] as i64 - lo[0] as i64);
                        run([y, z], b as usize, b as usize + 3);
                    }
                }
            }
            Layout::Hashed { mask } => {
                let table = mask as usize + 1;
                for dz in -1..=1i32 {
                    for dy in -1..=1i32 {
                        let row = [c[1].wrapping_add(dy), c[2].wrapping_add(dz)];
                        let key = row_key(row[0], row[1]);
                        let b = (key.wrapping_add(c[0].wrapping_sub(1) as u32) & mask) as usize;
                        if b + 3 <= table {
                            run(row, b, b + 3);
                        } else {
                            run(row, b, table);
                            run(row, 0, b + 3 - table);
                        }
                    }
                }
            }
            Layout::Empty => {}
        }
    }

    /// Whether a candidate of cell `cj` found in the run of `row` around cell `c`
    /// belongs to that run (always in the dense layout; in the hashed one a bucket
    /// also holds cells of other rows, which count only in their own row's run).
    #[inline]
    pub(crate) fn in_run(&self, c: [i32; 3], row: [i32; 2], cj: [i32; 3]) -> bool {
        match self {
            Layout::Hashed { .. } => {
                cj[1] == row[0] && cj[2] == row[1] && (cj[0] as i64 - c[0] as i64).abs() <= 1
            }
            _ => true,
        }
    }

    pub(crate) fn is_hashed(&self) -> bool {
        matches!(self, Layout::Hashed { .. })
    }
}

/// The cell of a position `p` (m, relative to the grid's origin) for cells of
/// `1 / inv_cell` m: the floor, saturated to `i32` (NaN lands in cell 0).
#[inline]
pub(crate) fn cell_of(p: [f32; 3], inv_cell: f32) -> [i32; 3] {
    p.map(|x| floor_i32(x * inv_cell))
}

/// `v.floor() as i32` without the library call (x86-64 has no floor instruction
/// before SSE4.1): the saturating truncation, one less where it rounded up. Equal for
/// every input: past ±2³¹ both saturate, NaN gives 0.
#[inline(always)]
fn floor_i32(v: f32) -> i32 {
    let t = v as i32;
    if (t as f32) > v {
        t.saturating_sub(1)
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The floor without the library call equals `floor() as i32` everywhere.
    #[test]
    fn floor_matches_the_library() {
        let mut v = vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            -1.0,
            1.0,
            -1.0e-30,
            2147483520.0,
            2147483648.0,
            -2147483648.0,
            -2147483904.0,
            1.0e20,
            -1.0e20,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            16777217.0,
            -8388607.5,
        ];
        let mut seed = 7u32;
        for _ in 0..100_000 {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            v.push(f32::from_bits(seed));
        }
        for x in v {
            assert_eq!(floor_i32(x), x.floor() as i32, "{x:e}");
        }
    }

    /// Every bucket of the 27 cells around a cell is covered exactly once by the runs,
    /// in both layouts (the hashed one with a run that wraps).
    #[test]
    fn runs_cover_the_27_cells_once() {
        let c = [3, -2, 5];
        for layout in [
            Layout::choose(100, [0, -5, 0], [10, 0, 9]).0,
            Layout::Hashed { mask: 63 },
        ] {
            let mut want = Vec::new();
            for dz in -1..=1 {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        want.push(layout.bucket([c[0] + dx, c[1] + dy, c[2] + dz]) as usize);
                    }
                }
            }
            let mut got = Vec::new();
            layout.for_runs(c, |_, a, b| got.extend(a..b));
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{layout:?}");
        }
    }
}
