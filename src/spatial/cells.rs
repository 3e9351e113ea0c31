//! The cell of a position: the floor of its coordinates over the cell edge, in the
//! `i32` cells of a grid around a nearby origin (fluids) or the `i64` cells of a
//! world particle anywhere in the accepted range (particle contacts).

use crate::math::{Vec3A, Vec4};

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

/// Cells up to this coordinate (in cells) use the `f32` product of the rounded
/// position: within it the rounding error of that product is below 1/4 cell. Beyond
/// it the cell comes from the exact `f64` position `base + hot`.
const NEAR_CELLS: f32 = (1 << 22) as f32;

/// Bound of a cell coordinate: `c ± k` never overflows `i64`.
const FAR_CELLS: f64 = (1u64 << 62) as f64;

/// The cell of the position `base + hot`, in `i64` so that no accepted position
/// overflows it. Near the origin (below [`NEAR_CELLS`], every ordinary scene) it is
/// the `f32` floor of the rounded position; farther out it is `floor((base + hot) /
/// cell)` in `f64`, where two particles in contact get cells at most 1 apart, clamped
/// to ±2^62 so that the neighbour offsets cannot overflow.
#[inline]
pub(crate) fn particle_cell(base: Vec3A, hot: Vec4, inv_cell: f32) -> [i64; 3] {
    let x = Vec3A::from(crate::particles::position_of(base, hot)) * inv_cell;
    if let Some(c) = crate::kernels::scan::floor_within(x, NEAR_CELLS) {
        return c;
    }
    cell_of_slow(base, hot, inv_cell)
}

/// [`particle_cell`] by its definition (see there): the `f32` floor near the origin, the
/// exact `f64` position farther out.
#[cold]
fn cell_of_slow(base: Vec3A, hot: Vec4, inv_cell: f32) -> [i64; 3] {
    let c = (crate::particles::position_of(base, hot) * inv_cell).floor();
    if c.abs().max_element() < NEAR_CELLS {
        return [c.x as i64, c.y as i64, c.z as i64];
    }
    let far = |b: f32, h: f32| -> i64 {
        let x = ((b as f64 + h as f64) * inv_cell as f64).floor();
        // NaN (0 · ∞ for a cell of denormal size) lands in cell 0, consistently.
        if x.is_nan() {
            0
        } else {
            x.clamp(-FAR_CELLS, FAR_CELLS) as i64
        }
    };
    [far(base.x, hot.x), far(base.y, hot.y), far(base.z, hot.z)]
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
}
