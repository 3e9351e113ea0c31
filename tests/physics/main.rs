//! The physics tests, one binary (`cargo test --test physics`; one area:
//! `cargo test --test physics wind::`): closed forms, constraint families, bodies,
//! collisions and particle contacts, edits, winches, breaking, tearing, wind and
//! aerodynamics, skinning, interpolation, heavy loads, snapshots, the showcase's numbers
//! and the bit-exact trajectory hashes of every benchmark and showcase scene.
//!
//! Adding a file: put `tests/physics/<name>.rs` here and declare it below (`mod <name>;`).

// A desc written field by field still ends with `..Desc::default()`, so that a setting
// added to the desc does not touch the tests that do not use it.
#![allow(clippy::needless_update)]

// The showcase example's modules, shared by `showcase`, `snapshots` and
// `trajectory_hashes` (their rasteriser and encoder unit tests run here too); the tests
// use only part of them.
#[allow(dead_code)]
#[path = "../../examples/showcase/encode.rs"]
mod encode;
#[allow(dead_code)]
#[path = "../../examples/showcase/font.rs"]
mod font;
#[allow(dead_code)]
#[path = "../../examples/showcase/raster.rs"]
mod raster;
#[allow(dead_code)]
#[path = "../../examples/showcase/run.rs"]
mod run;
#[allow(dead_code)]
#[path = "../../examples/showcase/scenes.rs"]
mod scenes;
mod sdf_collider;

mod bodies;
mod breaking;
mod cloth_contacts;
mod collider_threads;
mod collisions;
mod contact_reports;
mod contracts;
mod dynamic_collider_limits;
mod dynamic_collider_motion;
mod dynamic_colliders;
mod dynamic_contacts;
mod edit;
mod families;
mod families_2d;
mod grain_emitters;
mod granular;
mod granular_energy;
mod heavy_loads;
mod heightfield;
mod interpolation;
mod lod;
mod particle_contacts;
mod partition_balance;
mod physics;
mod profiling;
mod rope_drag;
mod showcase;
mod showcase_pictures;
mod skinning;
mod sleep;
mod snapshot_fuzz;
mod snapshot_property;
mod snapshot_sweeps;
mod snapshots;
mod solver_checks;
mod tearing;
mod tetrahedralize;
mod trajectory_hashes;
mod winch;
mod wind;
