//! The spatial search both neighbour searches share (particle contacts in
//! `collision::neighbours`, fluids in `fluid::grid`): cells, their buckets in three
//! layouts, the stable counting sort of items by bucket, and the runs of buckets a
//! cell's neighbourhood covers.
//!
//! Cells are cubes of one edge; a particle finds every partner within that edge in
//! the 3 × 3 × 3 cells around its own (wider searches scan `2k + 1` cells per axis),
//! read as runs of consecutive cells along x, one run per row (y, z).
//!
//! * **Dense** ([`Dense`]) when the box of occupied cells fits the table: cell
//!   (x, y, z) is bucket `((z − z₀) n_y + (y − y₀)) n_x + (x − x₀ + 1)`, rows padded
//!   by one cell on both ends, so every run is contiguous and no two cells share a
//!   bucket.
//! * **Rows** ([`layout::Layout::Rows`], fluids) when the box is too large for that
//!   but its rows fit: each occupied row holds only the cells from its lowest to its
//!   highest occupied x, the rows one after the other in (z, y) order (the dense
//!   layout without its empty buckets).
//! * **Hashed** ([`Hashed`]) otherwise (particles far apart): a row (y, z) starts at a
//!   hashed bucket and runs along x (Teschner et al. 2003, "Optimized Spatial Hashing
//!   for Collision Detection of Deformable Objects", with rows kept whole), so the
//!   runs are the same; a bucket may also hold cells of other rows, so each search
//!   keeps a candidate only in the run of its own row (it checks the row).
//!
//! [`sort_by_bucket`] is stable and serial, in the order of the items handed in, so
//! the slot order, and with it every list built on it, depends only on the positions,
//! never on the thread count.

pub(crate) mod cells;
pub(crate) mod layout;

/// Marks an item that takes no part in a sort ([`sort_by_bucket`]).
pub(crate) const NO_BUCKET: u32 = u32::MAX;

/// Bucket of the first cell of row (y, z) in the hashed layout (before the mask).
/// Coordinates are `i32` (wider ones are truncated by the caller: distant cells that
/// share their low bits only share a bucket, like any hash collision).
#[inline(always)]
pub(crate) fn row_key(cy: i32, cz: i32) -> u32 {
    (cy.wrapping_mul(689_287_499) ^ cz.wrapping_mul(283_923_481)) as u32
}

/// The hashed layout: `mask + 1` buckets (a power of two).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hashed {
    pub mask: u32,
}

impl Hashed {
    /// The table of at least `buckets` buckets (a power of two, at least 64).
    #[inline]
    pub(crate) fn with_buckets(buckets: usize) -> (Hashed, usize) {
        let table = buckets.next_power_of_two().max(64);
        (
            Hashed {
                mask: (table - 1) as u32,
            },
            table,
        )
    }

    /// The bucket of cell `c` (coordinates truncated to `i32`).
    #[inline(always)]
    pub(crate) fn bucket(&self, c: [i64; 3]) -> u32 {
        row_key(c[1] as i32, c[2] as i32).wrapping_add(c[0] as i32 as u32) & self.mask
    }

    /// Calls `run(row, start, end)` for the runs of `2k + 1` cells (`x − k ..= x + k`)
    /// of the `(2k + 1)²` rows `row = [y, z]` around cell `c`, in a fixed order (z,
    /// then y), each as a half-open bucket range; a run that wraps past the table's
    /// end is cut in two (the part at the table's start second). The buckets may hold
    /// cells of other rows: the caller keeps a candidate only in its own row's run.
    #[inline(always)]
    pub(crate) fn for_runs(
        &self,
        c: [i64; 3],
        k: i64,
        mut run: impl FnMut([i64; 2], usize, usize) -> Result<(), ()>,
    ) -> Result<(), ()> {
        let table = self.mask as usize + 1;
        let len = (2 * k + 1) as usize;
        for dz in -k..=k {
            for dy in -k..=k {
                let row = [c[1] + dy, c[2] + dz];
                let first = row_key(row[0] as i32, row[1] as i32)
                    .wrapping_add((c[0] - k) as i32 as u32)
                    & self.mask;
                let (first, end) = (first as usize, first as usize + len);
                if end <= table {
                    run(row, first, end)?;
                } else {
                    run(row, first, table)?;
                    run(row, 0, end - table)?;
                }
            }
        }
        Ok(())
    }
}

/// The dense layout over a box of cells `lo..=hi`: cell (x, y, z) is bucket
/// `((z − lo_z) ny + (y − lo_y)) nx + (x − lo_x + 1)`, rows of `nx` buckets (the
/// box's span along x plus one padding cell on each end); no two cells share a
/// bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Dense {
    pub lo: [i64; 3],
    pub hi: [i64; 3],
    pub nx: i64,
    pub ny: i64,
}

impl Dense {
    /// The dense layout of the box `lo..=hi` and its bucket count, when that is at
    /// most `limit`. The spans are compared in `f64`: those of far-apart cells can
    /// exceed what `i64` holds.
    #[inline]
    pub(crate) fn fitting(lo: [i64; 3], hi: [i64; 3], limit: f64) -> Option<(Dense, usize)> {
        let span = |a: usize| hi[a] as f64 - lo[a] as f64 + 1.0;
        let nx = span(0) + 2.0;
        let buckets = nx * span(1) * span(2);
        let boxed = (0..3).all(|a| hi[a] >= lo[a]);
        (boxed && buckets <= limit).then(|| {
            let dense = Dense {
                lo,
                hi,
                nx: nx as i64,
                ny: span(1) as i64,
            };
            (dense, buckets as usize)
        })
    }

    /// The bucket of cell `c` (a cell of the box).
    #[inline(always)]
    pub(crate) fn bucket(&self, c: [i64; 3]) -> u32 {
        (((c[2] - self.lo[2]) * self.ny + (c[1] - self.lo[1])) * self.nx + (c[0] - self.lo[0] + 1))
            as u32
    }

    /// Calls `run(row, start, end)` for the runs of cells `x − k ..= x + k` (k ≤ 1,
    /// the padding) of the rows `row = [y, z]` within k of cell `c`, in a fixed order
    /// (z, then y), each as a half-open bucket range. Rows outside the box are
    /// skipped, a run is cut to the padded row, and a run beyond the box along x
    /// (a cell outside the box: a particle that moved since the build) is skipped.
    #[inline(always)]
    pub(crate) fn for_runs(
        &self,
        c: [i64; 3],
        k: i64,
        mut run: impl FnMut([i64; 2], usize, usize) -> Result<(), ()>,
    ) -> Result<(), ()> {
        for z in (c[2] - k).max(self.lo[2])..=(c[2] + k).min(self.hi[2]) {
            for y in (c[1] - k).max(self.lo[1])..=(c[1] + k).min(self.hi[1]) {
                let row = ((z - self.lo[2]) * self.ny + (y - self.lo[1])) * self.nx;
                // Saturating: a cell may lie up to 2^62 cells from the box, where the
                // plain differences overflow.
                let dx = c[0].saturating_sub(self.lo[0]).saturating_add(1);
                let x0 = dx.saturating_sub(k).max(0);
                let x1 = dx.saturating_add(k).min(self.nx - 1);
                if x0 > x1 {
                    continue;
                }
                run([y, z], (row + x0) as usize, (row + x1 + 1) as usize)?;
            }
        }
        Ok(())
    }
}

/// The stable counting sort of items by bucket: `starts` (one entry per bucket and
/// one more) receives the first slot of each bucket and, last, the number of sorted
/// items; `place(item, slot)` is called for every item (slot [`NO_BUCKET`] for the
/// items whose bucket is [`NO_BUCKET`], which take no slot), from the last item to
/// the first. Items keep their input order within a bucket.
#[inline]
pub(crate) fn sort_by_bucket(
    buckets: &[u32],
    starts: &mut [u32],
    mut place: impl FnMut(usize, u32),
) {
    // The counts, their running sums (the end of each bucket), then the items placed
    // from the last, each just below its bucket's end, which moves down: every entry
    // ends at the start of its bucket.
    let table = starts.len() - 1;
    starts.fill(0);
    for &b in buckets {
        if b != NO_BUCKET {
            starts[b as usize] += 1;
        }
    }
    let mut sum = 0;
    for s in &mut starts[..table] {
        sum += *s;
        *s = sum;
    }
    for (a, &b) in buckets.iter().enumerate().rev() {
        if b == NO_BUCKET {
            place(a, NO_BUCKET);
            continue;
        }
        let b = b as usize;
        starts[b] -= 1;
        place(a, starts[b]);
    }
    starts[table] = sum;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bucket of the 27 cells around a cell is covered exactly once by the runs,
    /// in both layouts (the hashed one with a run that wraps).
    #[test]
    fn runs_cover_the_27_cells_once() {
        let c = [3, -2, 5];
        let (dense, _) = Dense::fitting([0, -5, 0], [10, 0, 9], 1.0e9).unwrap();
        let hashed = Hashed { mask: 63 };
        let mut want = [Vec::new(), Vec::new()];
        for dz in -1..=1 {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let cell = [c[0] + dx, c[1] + dy, c[2] + dz];
                    want[0].push(dense.bucket(cell) as usize);
                    want[1].push(hashed.bucket(cell) as usize);
                }
            }
        }
        let mut got = [Vec::new(), Vec::new()];
        let _ = dense.for_runs(c, 1, |_, a, b| {
            got[0].extend(a..b);
            Ok(())
        });
        let _ = hashed.for_runs(c, 1, |_, a, b| {
            got[1].extend(a..b);
            Ok(())
        });
        for (mut g, mut w) in got.into_iter().zip(want) {
            g.sort_unstable();
            w.sort_unstable();
            assert_eq!(g, w);
        }
    }

    /// The sort is the stable sort by bucket; items without a bucket take no slot.
    #[test]
    fn sort_by_bucket_is_stable() {
        let buckets = [3, 1, NO_BUCKET, 3, 0, 1, 3, NO_BUCKET];
        let mut starts = [0u32; 5];
        let mut order = [u32::MAX; 6];
        let mut slot = [0u32; 8];
        sort_by_bucket(&buckets, &mut starts, |a, s| {
            slot[a] = s;
            if s != NO_BUCKET {
                order[s as usize] = a as u32;
            }
        });
        assert_eq!(order, [4, 1, 5, 0, 3, 6]);
        assert_eq!(starts, [0, 1, 3, 3, 6]);
        assert_eq!(slot[2], NO_BUCKET);
        assert_eq!(slot[7], NO_BUCKET);
        assert_eq!(slot[6], 5);
    }
}
