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
//!
//! The map of the code (layers, the step, data layout, the block schedule, the C ABI
//! conventions, how to add a constraint family) is `ARCHITECTURE.md` at the root of
//! the repository.

#![deny(clippy::undocumented_unsafe_blocks)]

/// cbindgen:ignore
mod aero;
/// cbindgen:ignore
mod bodies;
/// cbindgen:ignore
mod collision;
/// cbindgen:ignore
pub mod constraints;
/// cbindgen:ignore
mod error;
pub mod ffi;
/// cbindgen:ignore
mod fluid;
mod kernels;
/// cbindgen:ignore
#[cfg(test)]
mod layers;
/// cbindgen:ignore
mod limits;
/// cbindgen:ignore
mod math;
/// cbindgen:ignore
mod particles;
/// cbindgen:ignore
mod pipeline;
/// cbindgen:ignore
mod recovery;
/// cbindgen:ignore
/// cbindgen:ignore
#[cfg(feature = "bench-scenes")]
pub mod scenes;
/// cbindgen:ignore
mod skinning;
/// cbindgen:ignore
mod slots;
mod snapshot;
/// cbindgen:ignore
mod solver;
mod spatial;
/// cbindgen:ignore
mod topology;
/// cbindgen:ignore
mod transform;
/// cbindgen:ignore
mod world;

pub use aero::{
    WindDesc, WindZoneDesc, WindZoneShape, MAX_AERO_COEFFICIENT, MAX_AIR_DENSITY,
    MAX_TURBULENCE_FREQUENCY, MAX_WIND_SPEED, MAX_WIND_ZONES, MIN_TURBULENCE_SCALE,
};
pub use bodies::cloth::{BendingModel, ClothDesc, ClothGridDesc, ClothModel, TETHERS_PER_VERTEX};
pub use bodies::rope::RopeDesc;
pub use bodies::soft::{PressureBodyDesc, TetBodyDesc, TetModel};
pub use bodies::tetrahedralize::{
    embed_points, tetrahedralize, weld_mesh, TetEmbedding, TetMesh, WeldedMesh, MAX_TET_RESOLUTION,
};
pub use bodies::{Body, BodyConstraints, BodyId, BodyKind, BodyParts, MAX_BODIES};
pub use collision::colliders::events::{ContactEventKind, MAX_CONTACT_EVENTS};
pub use collision::colliders::sdf::SdfGrid;
pub use collision::colliders::{ColliderDynamics, ColliderMotion, ContactWrench};
pub use collision::heightfield::Heightfield;
pub use collision::interaction::MAX_GRAB_COMPLIANCE;
pub use collision::mesh::MAX_TRIANGLES;
pub use collision::neighbours::NeighbourStats;
pub use collision::shape::MAX_FRICTION;
pub use collision::{ColliderDesc, ColliderId, ContactReport, Shape, MAX_COLLIDER_CONTACTS};
pub use constraints::distance::{MAX_COMPLIANCE, MAX_DISTANCE_CONSTRAINTS};
pub use constraints::nary::MAX_FAMILY_CONSTRAINTS;
pub use constraints::{ConstraintSets, DistanceConstraints, FamilyKind};
pub use error::{Error, ErrorKind, Result};
pub use ffi::task_system::{EnqueueTaskFn, FinishTaskFn, TaskFn, TaskSystem};
pub use fluid::desc::{
    MAX_EMIT_RATE, MAX_EMIT_SPEED, MAX_FLUID_CAPACITY, MAX_FLUID_COEFFICIENT, MAX_FLUID_SPACING,
    MAX_LIFETIME, MAX_REST_DENSITY, MAX_SMOOTHING_RATIO, MIN_FLUID_SPACING,
};
pub use fluid::emit::MAX_NOZZLE_SPACINGS;
pub use fluid::grains::{GrainEmitterDesc, GrainEmitterId, GrainEmitterStats, MAX_GRAIN_BUDGET};
pub use fluid::{
    AnisotropyDesc, DiffuseDesc, DiffuseKind, DiffuseParticle, DiffuseStats, EmitterDesc,
    EmitterId, EmitterShape, FluidDesc, FluidEllipsoid, FluidId, FluidParticle, FluidStats,
    FluidSurface, KillVolumeDesc, KillVolumeId, KillVolumeShape, SurfaceCounts, SurfaceDesc,
};
pub use glam::{Mat3, Quat};
pub use limits::MAX_COHESION;
pub use limits::MAX_SDF_SAMPLES;
/// The settings schema (every desc field's unit, range, default and doc) and the table
/// of limits, which the generators of the binding layers read.
pub use limits::{schema, Limit, LIMITS};
pub use limits::{
    MAX_AREA, MAX_INVERSE_MASS, MAX_LENGTH, MAX_STRIDE_BYTES, MAX_VOLUME, MIN_INVERSE_MASS,
    MIN_STRIDE_BYTES,
};
pub use limits::{
    MAX_BODY_COMPLIANCE, MAX_BODY_INERTIA, MAX_BODY_MASS, MAX_BODY_PARTICLES, MAX_BREAK_EVENTS,
    MAX_FAMILY_COMPLIANCE, MAX_GRID_SEGMENTS, MAX_PRESSURE, MAX_REST_SCALE, MAX_SURFACE_BLOCKS,
    MAX_SURFACE_TRIANGLES, MAX_TEAR_RESERVE, MAX_WINCH_SPEED,
};
pub use math::Vec3;
pub use particles::material::{ParticleMaterial, COHESION_BAND, COHESION_POROSITY};
pub use particles::{CollisionFilter, Particles, Vec3Attribute, MAX_COORDINATE, MAX_PARTICLES};
pub use skinning::SkinWeights;
pub use snapshot::{
    FORMAT_VERSION as SNAPSHOT_FORMAT_VERSION, HEADER_BYTES as SNAPSHOT_HEADER_BYTES,
};
pub use solver::{Solver, MAX_THREADS};
pub use topology::winch::RopeEnd;
pub use transform::Transform;
pub use world::activity::{SimMode, CATCH_UP_STEPS};
pub use world::breaking::BreakReport;
pub use world::interpolation::{Advance, MAX_FRAME_DT, MAX_STEPS_PER_ADVANCE};
pub use world::profile::{
    ProfileCounts, ProfileHook, ProfileStage, StageTime, PROFILE_STAGE_COUNT,
};
pub use world::tearing::{default_tear_reserve, TearStatus};
pub use world::{
    seal_snapshot, ContactEvent, World, WorldDesc, MAX_ACCELERATION, MAX_DT, MAX_ITERATIONS,
    MAX_SLEEP_THRESHOLD, MAX_SLEEP_TIME, MAX_SUBSTEPS, MIN_DT,
};
