//! The layout of a grid whose rows may be far apart: dense, rows or hashed (see the
//! module doc of `spatial`), chosen per build from the box of occupied cells, for
//! cells with `i32` coordinates (the fluid grid's).

use super::{Dense, Hashed};

/// The layout of the last build.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) enum Layout {
    #[default]
    Empty,
    Dense(Dense),
    /// Row (y, z) of the box is `rows[(z − z₀) n_y + (y − y₀)]`.
    Rows {
        lo: [i32; 3],
        hi: [i32; 3],
        ny: i64,
    },
    Hashed(Hashed),
}

/// A row (y, z) of the rows layout: its occupied cells span `x0..=x1` (empty where
/// x0 > x1), cell x is bucket `base + (x − x0)`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Row {
    x0: i32,
    x1: i32,
    base: u32,
}

/// A cell in the `i64` coordinates of [`Dense`] and [`Hashed`].
#[inline(always)]
fn wide(c: [i32; 3]) -> [i64; 3] {
    c.map(i64::from)
}

impl Layout {
    /// Picks the layout for the `cells` of `m` particles, which span `lo..=hi`, and
    /// its number of buckets: dense when its buckets are at most `limit`, rows when
    /// the box's rows are at most `row_limit` (and `rows` holds them) and their
    /// buckets at most `limit`, hashed (two buckets per particle) otherwise.
    pub(crate) fn choose(
        m: usize,
        lo: [i32; 3],
        hi: [i32; 3],
        cells: &[[i32; 3]],
        rows: &mut [Row],
        limit: i64,
        row_limit: usize,
    ) -> (Layout, usize) {
        if m == 0 {
            return (Layout::Empty, 1);
        }
        if let Some((dense, table)) = Dense::fitting(wide(lo), wide(hi), limit as f64) {
            return (Layout::Dense(dense), table);
        }
        let span = |a: usize| hi[a] as i64 - lo[a] as i64 + 1;
        let (ny, nz) = (span(1), span(2));
        let row_limit = row_limit.min(rows.len()) as i64;
        if ny <= row_limit && nz <= row_limit && ny * nz <= row_limit {
            if let Some(table) = fill_rows(lo, ny, cells, &mut rows[..(ny * nz) as usize], limit) {
                return (Layout::Rows { lo, hi, ny }, table);
            }
        }
        let (hashed, table) = Hashed::with_buckets(2 * m);
        (Layout::Hashed(hashed), table)
    }

    /// The bucket of cell `c` (one of the cells the layout was chosen for; `rows` as
    /// filled by [`Self::choose`]).
    #[inline]
    pub(crate) fn bucket(&self, rows: &[Row], c: [i32; 3]) -> u32 {
        match self {
            Layout::Dense(d) => d.bucket(wide(c)),
            Layout::Rows { lo, ny, .. } => {
                let r = rows[row_index(*lo, *ny, c[1], c[2])];
                r.base + (c[0] as i64 - r.x0 as i64) as u32
            }
            Layout::Hashed(h) => h.bucket(wide(c)),
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
            // The rows of a cell of the box are `i32` (narrowed back exactly); the
            // hashed rows wrap as `i32` coordinates do.
            Layout::Dense(d) => {
                let _ = d.for_runs(wide(c), 1, |row, a, b| {
                    run(row.map(|x| x as i32), a, b);
                    Ok(())
                });
            }
            Layout::Hashed(h) => {
                let _ = h.for_runs(wide(c), 1, |row, a, b| {
                    run(row.map(|x| x as i32), a, b);
                    Ok(())
                });
            }
            Layout::Empty => {}
        }
    }

    /// Whether a candidate of cell `cj` found in the run of `row` around cell `c`
    /// belongs to that run (always in the dense and rows layouts; in the hashed one a
    /// bucket also holds cells of other rows, which count only in their own row's
    /// run).
    #[inline]
    pub(crate) fn in_run(&self, c: [i32; 3], row: [i32; 2], cj: [i32; 3]) -> bool {
        match self {
            Layout::Hashed(_) => {
                cj[1] == row[0] && cj[2] == row[1] && (cj[0] as i64 - c[0] as i64).abs() <= 1
            }
            _ => true,
        }
    }

    pub(crate) fn is_hashed(&self) -> bool {
        matches!(self, Layout::Hashed(_))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The limits the fluid grid uses (`fluid::grid`): 8 buckets and 2 rows per
    /// particle, plus 1024.
    fn choose(
        m: usize,
        lo: [i32; 3],
        hi: [i32; 3],
        cells: &[[i32; 3]],
        rows: &mut [Row],
    ) -> (Layout, usize) {
        Layout::choose(m, lo, hi, cells, rows, 8 * m as i64 + 1024, 2 * m + 1024)
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
        let mut rows = vec![Row::default(); 2 * m + 1024];
        let (layout, table) = choose(m, lo, hi, &cells, &mut rows);
        assert!(matches!(layout, Layout::Rows { .. }), "{layout:?}");
        let (dense, buckets) = Dense::fitting(wide(lo), wide(hi), f64::MAX).unwrap();
        let want = slots_and_lists(Layout::Dense(dense), &[], buckets, &cells);
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
        let (hashed, table) = choose(m, lo, hi, &cells, &mut []);
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
