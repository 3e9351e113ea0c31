//! The kernels of the neighbour searches: the distance tests over runs of sorted
//! slots ([`contact`] for particle contacts, [`fluid`] for the fluid lists) and the
//! cell floor of the particle search.

pub(crate) mod contact;
pub(crate) mod fluid;

use crate::math::Vec3A;

/// `floor(x)` of every lane as integers when every lane lies within `bound` (at
/// most 2²³) after the floor, else `None` (NaN included). On x86-64 it truncates
/// with SSE2 and steps down where that rounded up, which is the exact floor of
/// `|x| < 2^23` (no call to `floorf` per lane); elsewhere it is `floor` itself.
#[inline(always)]
pub(crate) fn floor_within(x: Vec3A, bound: f32) -> Option<[i64; 3]> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of every x86-64 CPU.
        unsafe {
            let v: __m128 = x.into();
            let abs = _mm_andnot_ps(_mm_set1_ps(-0.0), v);
            // NaN fails the comparison: such a lane gives None.
            let small = _mm_cmplt_ps(abs, _mm_set1_ps((1u32 << 23) as f32));
            let t = _mm_cvtepi32_ps(_mm_cvttps_epi32(v));
            let up = _mm_and_ps(_mm_cmpgt_ps(t, v), _mm_set1_ps(1.0));
            let f = _mm_sub_ps(t, up);
            let near = _mm_cmplt_ps(_mm_andnot_ps(_mm_set1_ps(-0.0), f), _mm_set1_ps(bound));
            if _mm_movemask_ps(_mm_and_ps(small, near)) & 0b111 != 0b111 {
                return None;
            }
            let f = Vec3A::from(f);
            Some([f.x as i64, f.y as i64, f.z as i64])
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let c = x.floor();
        (c.abs().max_element() < bound).then(|| [c.x as i64, c.y as i64, c.z as i64])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where it answers, the floor equals the library's; it answers for every lane
    /// within the bound and refuses NaN.
    #[test]
    fn floor_within_is_the_floor() {
        let bound = (1 << 22) as f32;
        let mut seed = 5u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            f32::from_bits(seed)
        };
        for _ in 0..100_000 {
            let x = Vec3A::new(next(), next() * 1.0e-30, -2.5);
            let want = x.floor();
            let fits = want.is_finite() && want.abs().max_element() < bound;
            match floor_within(x, bound) {
                Some(c) => {
                    assert!(fits, "{x:?}");
                    assert_eq!(c, [want.x as i64, want.y as i64, want.z as i64], "{x:?}");
                }
                None => assert!(!fits, "{x:?}"),
            }
        }
        assert_eq!(floor_within(Vec3A::new(f32::NAN, 0.0, 0.0), bound), None);
    }
}
