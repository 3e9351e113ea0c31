//! Small maths helpers over the glam types used inside the engine.
//!
//! The engine stores positions in single precision. Small substeps make the
//! per-substep displacement tiny compared with the absolute coordinate (Sakai, "XPBD and small-step XPBD in Unity" (2022):
//! "with many substeps gravity stops accelerating"), so the integrator keeps the
//! part of each position that changes within a step apart from the large part,
//! using an error-free transformation ([`two_sum`]).

pub use glam::{Vec3, Vec3A, Vec4};

/// Knuth's TwoSum: returns `(s, e)` with `s = fl(a + b)` and `a + b = s + e` exactly
/// (for finite inputs, round-to-nearest, no overflow). Works for any magnitudes.
/// The scalar form: the reference the unit tests check (the engine uses
/// [`two_sum3`]).
#[cfg_attr(not(test), allow(dead_code))]
#[inline(always)]
pub fn two_sum(a: f32, b: f32) -> (f32, f32) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// [`two_sum`] applied per component, on SIMD vectors (the same IEEE operations per
/// lane).
#[inline(always)]
pub fn two_sum3(a: Vec3A, b: Vec3A) -> (Vec3A, Vec3A) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sum_recovers_the_lost_low_bits() {
        let big = 1000.0f32;
        let tiny = 2.7e-7f32; // far below the spacing of f32 at 1000 (6.1e-5)
        let (s, e) = two_sum(big, tiny);
        assert_eq!(s, big);
        assert_eq!(e, tiny);
        let (s, e) = two_sum(1.0, 1e-8);
        assert_eq!(s, 1.0);
        assert_eq!(e, 1e-8);
        // exact sum: s + e reproduces a + b in f64
        let (a, b) = (123.456f32, -0.000_123_4f32);
        let (s, e) = two_sum(a, b);
        assert_eq!(s as f64 + e as f64, a as f64 + b as f64);
    }
}
