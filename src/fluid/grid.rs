//! The fluid neighbour grid: cells of the largest smoothing radius h, a counting sort
//! of the fluid's particles (and the solid particles coupled with it) by cell, so that
//! a particle finds every partner within h in the 3 × 3 × 3 cells around its own,
//! read as 9 runs of 3 consecutive cells (rows along x). The layouts, the sort and
//! the runs are `spatial`'s; this module holds the fluid's choice of layout:
//!
//! * **Dense** when the box of occupied cells has at most [`DENSE_PER_PARTICLE`]
//!   buckets per particle (plus 1024): a pool or a tank.
//! * **Rows** when the box is too large for that but its rows (y, z) number at most
//!   [`ROWS_PER_PARTICLE`] per particle (plus 1024): a tank with a few strays far
//!   above or beside it. Its buckets, and with them the slot order and every list,
//!   are those of the dense layout without its empty buckets.
//! * **Hashed** otherwise (solids or spray far apart): a candidate counts only in the
//!   run of its own cell (its cell is checked), so that none is listed twice.
//!
//! The sort is stable and serial, in the order of the particles handed in, so the slot
//! order, and with it every list and every sum of the solver, depends only on the
//! positions, never on the thread count.

pub(crate) use crate::spatial::cells::cell_of;
pub(crate) use crate::spatial::layout::{Layout, Row};

/// Rows (y, z) of the box per particle above which the rows layout gives way to the
/// hashed one (its buckets are bounded by the dense layout's limit as well).
const ROWS_PER_PARTICLE: usize = 2;

/// Buckets per particle above which the dense layout gives way to the others.
const DENSE_PER_PARTICLE: i64 = 8;

/// The rows a [`choose_layout`] of `m` particles may fill.
pub(crate) fn row_limit(m: usize) -> usize {
    ROWS_PER_PARTICLE * m + 1024
}

/// The layout for the `cells` of `m` particles, which span `lo..=hi`, and its number
/// of buckets; the rows layout fills `rows` (at least [`row_limit`]`(m)` of them,
/// else it is not considered).
pub(crate) fn choose_layout(
    m: usize,
    lo: [i32; 3],
    hi: [i32; 3],
    cells: &[[i32; 3]],
    rows: &mut [Row],
) -> (Layout, usize) {
    let dense_limit = DENSE_PER_PARTICLE * m as i64 + 1024;
    Layout::choose(m, lo, hi, cells, rows, dense_limit, row_limit(m))
}
