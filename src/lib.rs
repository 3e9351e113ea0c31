//! # Sinew
//!
//! A particle physics engine for games: Position Based Dynamics, XPBD and small-step
//! XPBD, shipped as a native library with a C ABI (see `include/sinew.h`).
//!
//! ```
//! use sinew::{Vec3, World, WorldDesc};
//! let mut world = World::new(WorldDesc::default()).unwrap();
//! let first = world
//!     .add_particles(&[Vec3::ZERO, Vec3::new(1.0, 0.0, 0.0)], Some(&[0.0, 1.0]))
//!     .unwrap();
//! world.add_distance_constraints(&[[first, first + 1]], None, 0.0).unwrap();
//! world.step(1.0 / 60.0).unwrap();
//! ```
//!
//! Units are SI: metres, seconds, kilograms; compliance in m/N.

#![deny(clippy::undocumented_unsafe_blocks)]

/// cbindgen:ignore
pub mod bodies;
/// cbindgen:ignore
pub mod collision;
/// cbindgen:ignore
pub mod constraints;
/// cbindgen:ignore
pub mod error;
pub mod ffi;
/// cbindgen:ignore
pub mod limits;
/// cbindgen:ignore
pub mod math;
/// cbindgen:ignore
pub mod particles;
/// cbindgen:ignore
pub(crate) mod recovery;
/// cbindgen:ignore
pub mod scenes;
/// cbindgen:ignore
pub(crate) mod solver;
/// cbindgen:ignore
pub mod world;

pub use bodies::cloth::{BendingModel, ClothDesc, ClothGridDesc, ClothModel};
pub use bodies::families::FamilyKind;
pub use bodies::rope::RopeDesc;
pub use bodies::soft::{PressureBodyDesc, TetBodyDesc, TetModel};
pub use bodies::{BodyConstraints, BodyId, BodyKind};
pub use collision::{ColliderDesc, ColliderId, ContactReport, Shape};
pub use constraints::attachment::Transform;
pub use error::{Error, ErrorKind, Result};
pub use glam::Quat;
pub use math::Vec3;
pub use particles::CollisionFilter;
pub use solver::Solver;
pub use world::{World, WorldDesc};
