//! The fluid tests, one binary (`cargo test --test fluids`; one area:
//! `cargo test --test fluids fluid_walls::`): density and incompressibility, boundaries
//! and walls, bodies in fluids, forces (viscosity, cohesion, vorticity), the lifecycle
//! (emitters, kill volumes, slots), particle edits and strays.
//!
//! Adding a file: put `tests/fluids/<name>.rs` here and declare it below (`mod <name>;`).

// The counting allocator of the one allocation check here
// (`fluid_contracts::...do_not_allocate`); it counts only on the thread that watches,
// one test at a time, so the other tests of this binary run as usual.
#[path = "../support/counting_alloc.rs"]
mod counting_alloc;
#[path = "../support/fluid_box.rs"]
mod fluid_box;

mod calm;
mod crowd;
mod fluid_bodies;
mod fluid_boundary;
mod fluid_contracts;
mod fluid_diffuse;
mod fluid_forces;
mod fluid_host_bodies;
mod fluid_lifecycle;
mod fluid_particle_edits;
mod fluid_render;
mod fluid_shaken;
mod fluid_strays;
mod fluid_surface;
mod fluid_walls;
mod fluids;
mod hydrostatic;
mod layers;
mod validation;
