//! The fluid neighbour grid: cells of the largest smoothing radius h, a counting sort
//! of the fluid's particles (and the solid particles coupled with it) by cell, so that
//! a particle finds every partner within h in the 3 × 3 × 3 cells around its own,
//! read as 9 runs of 3 consecutive cells (rows along x).
//!
//! * **Dense** layout when the box of occupied cells fits the table (a few buckets per
//!   particle, the usual case of a pool or a tank): cell (x, y, z) is bucket
//!   `((z − z₀) n_y + (y − y₀)) n_x + (x − x₀ + 1)`, rows padded by one cell on both
//!   ends, so every run is contiguous and no cell shares a bucket.
//! * **Rows** layout when the box is too large for that but its rows (y, z) fit the
//!   table (a tank with a few strays far above or beside it): each occupied row holds
//!   only the cells from its own lowest to its highest occupied x, the rows one after
//!   the other in (z, y) order, so the buckets, and with them the slot order and every
//!   list, are those of the dense layout without its empty buckets; a run is cut to
//!   the span of its row (the cells beyond hold nothing) and empty rows are skipped.
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
    /// Row (y, z) of the box is `rows[(z − z₀) n_y + (y − y₀)]`.
    Rows {
        lo: [i32; 3],
        hi: [i32; 3],
        ny: i64,
    },
    Hashed {
        mask: u32,
    },
}

/// A row (y, z) of the rows layout: its occupied cells span `x0..=x1` (empty where
/// x0 > x1), cell x is bucket `base + (x − x0)`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Row {
    x0: i32,
    x1: i32,
    base: u32,
}

/// Rows (y, z) of the box per particle above which the rows layout gives way to the
/// hashed one (its buckets are bounded by the dense layout's limit as well).
const ROWS_PER_PARTICLE: usize = 2;

/// The rows a [`Layout::choose`] of `m` particles may fill.
pub(crate) fn row_limit(m: usize) -> usize {
    ROWS_PER_PARTICLE * m + 1024
}

/// Buckets per particle above which the dense layout gives way to the hashed one.
const DENSE_PER_PARTICLE: i64 = 8;

/// Row hash of the hashed layout (as `collision::neighbours`).
#[inline]
fn row_key(cy: i32, cz: i32) -> u32 {
    (cy.wrapping_mul(689_287_499) ^ cz.wrapping_mul(283_923_481)) as u32
}

impl Layout {
    /// Picks the layout for the `cells` of `m` particles, which span `lo..=hi`, and
    /// its number of buckets; the rows layout fills `rows` (at least
    /// [`row_limit`]`(m)` of them, else it is not considered).
    pub(crate) fn choose(
        m: usize,
        lo: [i32; 3],
        hi: [i32; 3],
        cells: &[[i32; 3]],
        rows: &mut [Row],
    ) -> (Layout, usize) {
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
            return (Layout::Dense { lo, hi, nx, ny }, table);
        }
        let row_limit = row_limit(m).min(rows.len()) as i64;
        if ny <= row_limit && nz <= row_limit && ny * nz <= row_limit {
            if let Some(table) = fill_rows(lo, ny, cells, &mut rows[..(ny * nz) as usize], limit) {
                return (Layout::Rows { lo, hi, ny }, table);
            }
        }
        let table = (2 * m).next_power_of_two().max(64);
        (
            Layout::Hashed {
                mask: (table - 1) as u32,
            },
            table,
        )
    }

    /// The bucket of cell `c` (one of the cells the layout was chosen for; `rows` as
    /// filled by [`Self::choose`]).
    #[inline]
    pub(crate) fn bucket(&self, rows: &[Row], c: [i32; 3]) -> u32 {
        match *self {
            Layout::Dense { lo, nx, ny, .. } => {
                (((c[2] as i64 - lo[2] as i64) * ny + (c[1] as i64 - lo[1] as i64)) * nx
                    + (c[0] as i64 - lo[0] as i64 + 1)) as u32
            }
            Layout::Rows { lo, ny, .. } => {
                let r = rows[row_index(lo, ny, c[1], c[2])];
                r.base + (c[0] as i64 - r.x0 as i64) as u32
            }
            Layout::Hashed { mask } => row_key(c[1], c[2]).wrapping_add(c[0] as u32) & mask,
            Layout::Empty => 0,
        }
    }

    /// Calls `run(row, start, end)` for the runs of 3 cells (x − 1 ..= x + 1) of the 9
    /// rows `row = [y, z]` around cell `c`, in a fixed order (z, then y), each as a
    /// half-open bucket range (a hashed run that wraps is cut in two). Rows outside a
    /// dense box are skipped; in the rows layout, so are empty rows and runs, and a
    /// run is cut to its row's span.
    #[inline]
    pub(crate) fn for_runs(
        &self,
        rows: &[Row],
        c: [i32; 3],
        mut run: impl FnMut([i32; 2], usize, usize),
    ) {
        match *self {
            Layout::Rows { lo, hi, ny } => {
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
                        let r = rows[row_index(lo, ny, y, z)];
                        let a = (c[0] as i64 - 1).max(r.x0 as i64);
                        let b = (c[0] as i64 + 1).min(r.x1 as i64);
                        if a <= b {
                            let s = r.base as usize + (a - r.x0 as i64) as usize;
                            run([y, z], s, s + (b - a) as usize + 1);
                        }
                    }
                }
            }
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

/// The row of (y, z) in the rows layout's table.
#[inline(always)]
fn row_index(lo: [i32; 3], ny: i64, y: i32, z: i32) -> usize {
    ((z as i64 - lo[2] as i64) * ny + (y as i64 - lo[1] as i64)) as usize
}

/// Fills the rows of the rows layout (`rows`: one per (y, z) of the box) from the
/// cells' spans along x, the buckets of the rows one after the other in table order;
/// the number of buckets, or None where it exceeds `limit`.
fn fill_rows(
    lo: [i32; 3],
    ny: i64,
    cells: &[[i32; 3]],
    rows: &mut [Row],
    limit: i64,
) -> Option<usize> {
    rows.fill(Row {
        x0: i32::MAX,
        x1: i32::MIN,
        base: 0,
    });
    for c in cells {
        let r = &mut rows[row_index(lo, ny, c[1], c[2])];
        r.x0 = r.x0.min(c[0]);
        r.x1 = r.x1.max(c[0]);
    }
    let mut next = 0i64;
    for r in rows.iter_mut() {
        if r.x0 <= r.x1 {
            r.base = next as u32;
            next += r.x1 as i64 - r.x0 as i64 + 1;
            if next > limit {
                return None;
            }
        }
    }
    Some(next.max(1) as usize)
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
    // Branch-free: where the truncation rounded up (v < 0, not whole), one less.
    t.saturating_sub(((t as f32) > v) as i32)
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
            Layout::choose(100, [0, -5, 0], [10, 0, 9], &[], &mut []).0,
            Layout::Hashed { mask: 63 },
        ] {
            let mut want = Vec::new();
            for dz in -1..=1 {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        want.push(layout.bucket(&[], [c[0] + dx, c[1] + dy, c[2] + dz]) as usize);
                    }
                }
            }
            let mut got = Vec::new();
            layout.for_runs(&[], c, |_, a, b| got.extend(a..b));
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "{layout:?}");
        }
    }

    /// The stable counting sort of `cells` by bucket (the slot order: input indices)
    /// and each slot's candidates (slots of the runs around its cell that belong to
    /// them), as the solver builds them.
    fn slots_and_lists(
        layout: Layout,
        rows: &[Row],
        table: usize,
        cells: &[[i32; 3]],
    ) -> (Vec<usize>, Vec<Vec<usize>>) {
        let bucket: Vec<usize> = cells
            .iter()
            .map(|&c| layout.bucket(rows, c) as usize)
            .collect();
        let mut starts = vec![0usize; table + 1];
        for &b in &bucket {
            starts[b + 1] += 1;
        }
        for b in 0..table {
            starts[b + 1] += starts[b];
        }
        let mut next = starts.clone();
        let mut order = vec![0; cells.len()];
        for (a, &b) in bucket.iter().enumerate() {
            order[next[b]] = a;
            next[b] += 1;
        }
        let lists = order
            .iter()
            .map(|&a| {
                let mut list = Vec::new();
                layout.for_runs(rows, cells[a], |row, b0, b1| {
                    for j in starts[b0]..starts[b1] {
                        if layout.in_run(cells[a], row, cells[order[j]]) {
                            list.push(j);
                        }
                    }
                });
                list
            })
            .collect();
        (order, lists)
    }

    /// A block of cells holding several particles each and a few strays far above,
    /// below and beside it: too large a box for the dense layout, so the rows layout,
    /// whose slot order and lists are the dense layout's (built here regardless of
    /// its size); the hashed layout lists the same candidates.
    #[test]
    fn rows_layout_lists_as_the_dense_one() {
        let mut seed = 99u32;
        let mut rnd = |n: u32| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((seed >> 8) % n) as i32
        };
        let mut cells: Vec<[i32; 3]> = (0..1000)
            .map(|_| [rnd(9) - 2, rnd(7), rnd(6) - 3])
            .collect();
        for s in [
            [3, 300, 0],
            [4, 301, 1],
            [-40, -100, 2],
            [2, 50, -3],
            [2, 51, -3],
            [60, 3, 2],
        ] {
            let at = rnd(cells.len() as u32) as usize;
            cells.insert(at, s);
        }
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for c in &cells {
            for d in 0..3 {
                lo[d] = lo[d].min(c[d]);
                hi[d] = hi[d].max(c[d]);
            }
        }
        let m = cells.len();
        let mut rows = vec![Row::default(); row_limit(m)];
        let (layout, table) = Layout::choose(m, lo, hi, &cells, &mut rows);
        assert!(matches!(layout, Layout::Rows { .. }), "{layout:?}");
        let span = |a: usize| (hi[a] - lo[a] + 1) as i64;
        let (nx, ny) = (span(0) + 2, span(1));
        let dense = Layout::Dense { lo, hi, nx, ny };
        let want = slots_and_lists(dense, &[], (nx * ny * span(2)) as usize, &cells);
        let got = slots_and_lists(layout, &rows, table, &cells);
        assert_eq!(got.0, want.0);
        assert_eq!(got.1, want.1);
        // Every candidate within one cell on each axis, each once.
        for (k, list) in got.1.iter().enumerate() {
            let ck = cells[got.0[k]];
            let mut near: Vec<usize> = (0..m)
                .filter(|&j| (0..3).all(|d| (cells[got.0[j]][d] - ck[d]).abs() <= 1))
                .collect();
            near.sort_unstable();
            let mut sorted = list.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, near, "slot {k}");
        }
        // The hashed layout: the same candidates (as input indices), in its order.
        let (hashed, table) = Layout::choose(m, lo, hi, &cells, &mut []);
        assert!(hashed.is_hashed());
        let (order, lists) = slots_and_lists(hashed, &[], table, &cells);
        let mut by_input = vec![Vec::new(); m];
        for (k, list) in lists.iter().enumerate() {
            let mut l: Vec<usize> = list.iter().map(|&j| order[j]).collect();
            l.sort_unstable();
            by_input[order[k]] = l;
        }
        for (k, list) in got.1.iter().enumerate() {
            let mut l: Vec<usize> = list.iter().map(|&j| got.0[j]).collect();
            l.sort_unstable();
            assert_eq!(l, by_input[got.0[k]], "slot {k}");
        }
    }
}
