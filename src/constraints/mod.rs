//! Constraint families. Each family stores its own struct-of-arrays set, sorted into
//! colours at build time, and knows how to project itself.

pub mod distance;
mod distance_kernel;

pub use distance::DistanceConstraints;
