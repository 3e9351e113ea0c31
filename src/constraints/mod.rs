//! Constraint families. Each family stores its own struct-of-arrays set, sorted into
//! colours at build time, and knows how to project itself.

pub mod distance;

pub use distance::DistanceConstraints;
