//! The SIMD kernels: the only code that uses CPU intrinsics. Their public functions
//! are safe (they take slices, check lengths and pick AVX or the scalar loop that
//! defines them, with the same bits).
//!
//! * [`fluid`]: the density solver's loops (density, correction, viscosity).
//! * [`scan`]: the distance tests of the neighbour searches (particle contacts and
//!   fluids), the cell floor and the prefetch of their passes.

pub(crate) mod fluid;
pub(crate) mod scan;
