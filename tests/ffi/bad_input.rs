//! Every exported C function, fed bad input through its `extern "C"` entry point.
//!
//! Each case in the tables below runs on a fresh fixture world (4 particles, 3
//! constraints, stepped once) and checks the C ABI contract:
//!
//! * the call returns the expected `SinewStatus`;
//! * `sinew_last_error_message()` is "function: reason", naming the function called (the
//!   message is primed with another function's failure first, so a stale message
//!   cannot pass);
//! * every output buffer (prefilled with a sentinel) is untouched;
//! * the world is unchanged: particle and constraint counts, positions, velocities and
//!   constraint forces, byte for byte;
//! * the world still works, and its hidden state (inverse masses, rest lengths,
//!   compliance, position residuals) is unchanged too: one more step gives exactly the
//!   same result as the same step of an identical control world that never saw the
//!   bad call.
//!
//! Then the handle rules (destroy twice, slot reuse), two worlds stepped on two threads,
//! the thread-locality of the last error, and that every function declared in
//! include/sinew.h is covered by a table.
//!
//! This file holds the fixture and the checks; the case tables are in `bad_input/`, one
//! file per area of the C API (`world.rs`, `constraints.rs`, `collisions.rs`,
//! `interaction.rs`, `bodies.rs` with its `body_*.rs`, `fluids.rs` with its `fluid_*.rs`,
//! ...), and the tests of the core tables and the rules beyond them in `contract.rs`.

use std::collections::BTreeSet;
use std::ffi::{c_void, CStr};
use std::sync::{Arc, Barrier};

use sinew::ffi::collision::sinew_world_add_heightfield_collider;
use sinew::ffi::collision::{
    sinew_collider_desc_init, sinew_collider_remove, sinew_collider_set_material,
    sinew_collider_set_transform, sinew_collision_filter_init, sinew_world_add_collider,
    sinew_world_add_mesh_collider, sinew_world_collider_count, sinew_world_contact_count,
    sinew_world_grab_particle, sinew_world_move_grab, sinew_world_pick_particle,
    sinew_world_read_contacts, sinew_world_release_particle, sinew_world_set_collision_filters,
    sinew_world_set_max_speed, sinew_world_set_particle_radii, sinew_world_set_unyielding,
    SinewCollider, SinewColliderDesc, SinewCollisionFilter, SinewContact, SinewShape,
};
use sinew::ffi::constraints::{
    sinew_world_add_distance_constraints, sinew_world_add_pbd_distance_constraints,
    sinew_world_distance_constraint_count, sinew_world_read_constraint_forces,
};
use sinew::ffi::contacts::{
    sinew_collider_contact_wrench, sinew_world_contact_event_count, sinew_world_set_contact_events,
    sinew_world_take_contact_events, SinewContactEvent,
};
use sinew::ffi::particles::{
    sinew_world_add_particles, sinew_world_particle_count, sinew_world_read_positions,
    sinew_world_read_velocities, sinew_world_set_inverse_masses, sinew_world_write_positions,
    sinew_world_write_velocities,
};
use sinew::ffi::world::{
    sinew_world_create, sinew_world_desc_default, sinew_world_desc_init, sinew_world_destroy,
    sinew_world_step, SinewQuat, SinewSolver, SinewVec3, SinewWorld, SinewWorldDesc,
};
use sinew::ffi::SinewStatus::{self, *};
use sinew::ffi::{sinew_abi_version, sinew_last_error_message, sinew_version, SINEW_ABI_VERSION};

const DT: f32 = 1.0 / 60.0;
/// Particles and constraints of the fixture world.
const N: u32 = 4;
const M: u32 = 3;

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

pub(crate) fn last_error() -> String {
    let p = sinew_last_error_message();
    assert!(!p.is_null(), "sinew_last_error_message returned NULL");
    // SAFETY: a NUL-terminated string, valid until the next failing call on this thread.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

pub(crate) fn ok(status: SinewStatus, what: &str) {
    assert_eq!(status, SINEW_OK, "{what} failed: {}", last_error());
}

fn v3(x: f32, y: f32, z: f32) -> SinewVec3 {
    SinewVec3 { x, y, z }
}

/// Default desc, but small and single-threaded: cases create many worlds.
fn test_desc() -> SinewWorldDesc {
    let mut d = sinew_world_desc_default();
    d.substeps = 4;
    d.threads = 1;
    d
}

fn create(desc: &SinewWorldDesc) -> SinewWorld {
    let mut w = SinewWorld { id: 0 };
    // SAFETY: valid pointers.
    ok(
        unsafe { sinew_world_create(desc, &mut w) },
        "sinew_world_create",
    );
    assert_ne!(w.id, 0);
    w
}

/// The fixture: particle 0 pinned, three others of different masses, moving; two XPBD
/// constraints and one PBD constraint with an explicit rest length; stepped once so
/// that forces are non-zero.
fn make_world() -> SinewWorld {
    let w = create(&test_desc());
    let p = [
        v3(0.0, 0.0, 0.0),
        v3(0.1, 0.0, 0.0),
        v3(0.2, 0.0, 0.0),
        v3(0.2, -0.1, 0.05),
    ];
    let inv = [0.0f32, 1.0, 2.0, 0.5];
    let vel = [
        v3(0.0, 0.0, 0.0),
        v3(0.0, 1.0, 0.0),
        v3(0.5, 0.0, 0.0),
        v3(0.0, 0.0, -1.0),
    ];
    let mut first = u32::MAX;
    // SAFETY: every pointer is valid for the count passed.
    unsafe {
        ok(
            sinew_world_add_particles(w, p.as_ptr(), inv.as_ptr(), N, &mut first),
            "add_particles",
        );
        assert_eq!(first, 0);
        ok(
            sinew_world_write_velocities(w, 0, N, vel.as_ptr().cast(), 12),
            "write_velocities",
        );
        let xpbd = [0u32, 1, 1, 2];
        ok(
            sinew_world_add_distance_constraints(
                w,
                xpbd.as_ptr(),
                std::ptr::null(),
                2,
                1e-4,
                &mut first,
            ),
            "add_distance_constraints",
        );
        assert_eq!(first, 0);
        let pbd = [2u32, 3];
        let rest = [0.12f32];
        ok(
            sinew_world_add_pbd_distance_constraints(
                w,
                pbd.as_ptr(),
                rest.as_ptr(),
                1,
                0.5,
                &mut first,
            ),
            "add_pbd_distance_constraints",
        );
        assert_eq!(first, 2);
    }
    add_fixture_collisions(w);
    ok(sinew_world_step(w, DT), "step");
    w
}

/// Everything observable about a world through the C ABI. Floats are kept as bits, so
/// that equality is exact (and a NaN equals itself); Debug shows them as floats.
#[derive(PartialEq)]
struct Snapshot {
    particles: u32,
    constraints: u32,
    colliders: u32,
    positions: Vec<u32>,
    velocities: Vec<u32>,
    forces: Vec<u32>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let floats =
            |bits: &[u32]| -> Vec<f32> { bits.iter().map(|&b| f32::from_bits(b)).collect() };
        f.debug_struct("Snapshot")
            .field("particles", &self.particles)
            .field("constraints", &self.constraints)
            .field("colliders", &self.colliders)
            .field("positions", &floats(&self.positions))
            .field("velocities", &floats(&self.velocities))
            .field("forces", &floats(&self.forces))
            .finish()
    }
}

fn snapshot(w: SinewWorld) -> Snapshot {
    let mut particles = u32::MAX;
    let mut constraints = u32::MAX;
    // SAFETY: buffers sized from the counts just read.
    unsafe {
        ok(
            sinew_world_particle_count(w, &mut particles),
            "particle_count",
        );
        ok(
            sinew_world_distance_constraint_count(w, &mut constraints),
            "constraint_count",
        );
        let mut positions = vec![0u32; 3 * particles as usize];
        let mut velocities = vec![0u32; 3 * particles as usize];
        let mut forces = vec![0f32; constraints as usize];
        if particles > 0 {
            ok(
                sinew_world_read_positions(w, 0, particles, positions.as_mut_ptr().cast(), 12),
                "read_positions",
            );
            ok(
                sinew_world_read_velocities(w, 0, particles, velocities.as_mut_ptr().cast(), 12),
                "read_velocities",
            );
        }
        if constraints > 0 {
            ok(
                sinew_world_read_constraint_forces(w, 0, constraints, forces.as_mut_ptr()),
                "read_constraint_forces",
            );
        }
        Snapshot {
            particles,
            constraints,
            colliders: collider_count(w),
            positions,
            velocities,
            forces: forces.iter().map(|f| f.to_bits()).collect(),
        }
    }
}

/// Every output a case may write to, prefilled with sentinels.
#[repr(C, align(16))]
#[derive(Clone, Copy, PartialEq, Debug)]
struct Outputs {
    /// For strided reads; `bytes[1..]` is a misaligned pointer for anything.
    bytes: [u8; 256],
    u32s: [u32; 4],
    f32s: [f32; 16],
    world: SinewWorld,
}

impl Outputs {
    fn sentinel() -> Self {
        Outputs {
            bytes: [0xA5; 256],
            u32s: [0xA5A5_A5A5; 4],
            f32s: [-12345.5; 16],
            world: SinewWorld {
                id: 0xA5A5_A5A5_A5A5_A5A5,
            },
        }
    }
    fn bytes(&mut self) -> *mut c_void {
        self.bytes.as_mut_ptr().cast()
    }
    fn u32(&mut self) -> *mut u32 {
        &mut self.u32s[0]
    }
    fn f32s(&mut self) -> *mut f32 {
        self.f32s.as_mut_ptr()
    }
    /// An address one byte past 16-byte alignment.
    fn misaligned<T>(&mut self) -> *mut T {
        // SAFETY: within `bytes`.
        unsafe { self.bytes.as_mut_ptr().add(1).cast() }
    }
}

/// A copy of `values` at an address one byte past 16-byte alignment.
#[repr(C, align(16))]
struct Misaligned([u8; 257]);

impl Misaligned {
    fn new<T: Copy>(values: &[T]) -> Box<Self> {
        let n = std::mem::size_of_val(values);
        assert!(n <= 256);
        let mut b = Box::new(Misaligned([0; 257]));
        // SAFETY: `values` is n readable bytes; the buffer has room for them at offset 1.
        unsafe {
            std::ptr::copy_nonoverlapping(values.as_ptr().cast::<u8>(), b.0.as_mut_ptr().add(1), n)
        };
        b
    }
    fn ptr<T>(&self) -> *const T {
        // SAFETY: within the buffer.
        unsafe { self.0.as_ptr().add(1).cast() }
    }
}

/// What a case's call sees: the fixture world and the outputs.
struct Ctx {
    world: SinewWorld,
    out: Outputs,
}

type Call = Box<dyn Fn(&mut Ctx) -> SinewStatus>;

struct Case {
    /// The exported function called; the error message must start with it.
    function: &'static str,
    label: String,
    expected: SinewStatus,
    call: Call,
}

fn case(
    function: &'static str,
    label: impl Into<String>,
    expected: SinewStatus,
    call: impl Fn(&mut Ctx) -> SinewStatus + 'static,
) -> Case {
    Case {
        function,
        label: label.into(),
        expected,
        call: Box::new(call),
    }
}

/// Fails some function other than `function`, so that a stale message cannot pass.
fn prime_last_error(function: &str) -> String {
    let mut sink = 0u32;
    let (status, primer) = if function != "sinew_world_particle_count" {
        // SAFETY: valid pointer.
        let s = unsafe { sinew_world_particle_count(SinewWorld { id: 0 }, &mut sink) };
        (s, "sinew_world_particle_count: ")
    } else {
        // SAFETY: NULL is the case under test.
        let s = unsafe {
            sinew_world_distance_constraint_count(SinewWorld { id: 0 }, std::ptr::null_mut())
        };
        (s, "sinew_world_distance_constraint_count: ")
    };
    assert_ne!(status, SINEW_OK);
    let msg = last_error();
    assert!(msg.starts_with(primer), "primer message {msg:?}");
    msg
}

/// Runs one case on a fresh fixture; returns what went wrong, if anything.
fn run_case(c: &Case) -> Vec<String> {
    let mut errors = Vec::new();
    let world = make_world();
    let control = make_world();
    assert_eq!(
        snapshot(world),
        snapshot(control),
        "fixture is deterministic"
    );
    let mut ctx = Ctx {
        world,
        out: Outputs::sentinel(),
    };

    let primed = prime_last_error(c.function);
    let before = snapshot(world);
    let status = (c.call)(&mut ctx);
    let message = last_error();

    if status != c.expected {
        errors.push(format!(
            "status {status:?}, expected {:?} (message {message:?})",
            c.expected
        ));
    }
    if status != SINEW_OK {
        let prefix = format!("{}: ", c.function);
        if !message.starts_with(&prefix) || message.len() <= prefix.len() || message == primed {
            errors.push(format!(
                "last error message {message:?} is not \"{}: <reason>\"",
                c.function
            ));
        }
    }
    if ctx.out != Outputs::sentinel() {
        errors.push(format!(
            "output buffers were written: {:?}",
            diff_outputs(&ctx.out)
        ));
    }
    // Both worlds are still valid handles unless a case destroyed the fixture.
    let mut count = 0u32;
    // SAFETY: valid pointer.
    if unsafe { sinew_world_particle_count(world, &mut count) } != SINEW_OK {
        errors.push("the fixture world no longer exists".into());
    } else {
        let after = snapshot(world);
        if after != before {
            errors.push(format!(
                "the world changed:\n  before {before:?}\n  after  {after:?}"
            ));
        }
        let s = sinew_world_step(world, DT);
        if s != SINEW_OK {
            errors.push(format!(
                "the world no longer steps: {s:?} {:?}",
                last_error()
            ));
        }
        ok(sinew_world_step(control, DT), "control step");
        let (a, b) = (snapshot(world), snapshot(control));
        if a != b {
            errors.push(format!(
                "after one more step the world differs from an untouched control world \
                 (hidden state changed):\n  world   {a:?}\n  control {b:?}"
            ));
        }
        let _ = sinew_world_destroy(world);
    }
    ok(sinew_world_destroy(control), "destroy control");
    errors
}

fn diff_outputs(o: &Outputs) -> String {
    let s = Outputs::sentinel();
    let mut parts = Vec::new();
    if o.bytes != s.bytes {
        let changed: Vec<usize> = (0..256).filter(|&i| o.bytes[i] != s.bytes[i]).collect();
        parts.push(format!("bytes {changed:?}"));
    }
    if o.u32s != s.u32s {
        parts.push(format!("u32s {:?}", o.u32s));
    }
    if o.f32s != s.f32s {
        parts.push(format!("f32s {:?}", o.f32s));
    }
    if o.world != s.world {
        parts.push(format!("world {:?}", o.world));
    }
    parts.join(", ")
}

/// Runs every case, then fails listing all the cases that went wrong.
fn run_cases(cases: Vec<Case>) {
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for c in &cases {
        let errors = run_case(c);
        if !errors.is_empty() {
            failures.push(format!(
                "{} [{}]:\n    {}",
                c.function,
                c.label,
                errors.join("\n    ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    println!("{} cases passed", cases.len());
}

#[path = "bad_input/bodies.rs"]
mod bodies_cases;
#[path = "bad_input/fluids.rs"]
mod fluid_cases;
#[path = "bad_input/fluid_render.rs"]
mod fluid_render_cases;
#[path = "bad_input/skinning.rs"]
mod skinning_cases;
#[path = "bad_input/wind.rs"]
mod wind_cases;

#[path = "bad_input/dynamics.rs"]
mod dynamics_cases;
#[path = "bad_input/edit.rs"]
mod edit_cases;
#[path = "bad_input/granular.rs"]
mod granular_cases;
#[path = "bad_input/interpolation.rs"]
mod interpolation_cases;
#[path = "bad_input/meshes.rs"]
mod mesh_tool_cases;
#[path = "bad_input/profile.rs"]
mod profile_cases;
#[path = "bad_input/render_normals.rs"]
mod render_normals_cases;
#[path = "bad_input/sdf.rs"]
mod sdf_cases;
#[path = "bad_input/sleep.rs"]
mod sleep_cases;
#[path = "bad_input/snapshots.rs"]
mod snapshot_cases;
#[path = "bad_input/tasks.rs"]
mod tasks_cases;
#[path = "bad_input/tearing.rs"]
mod tearing_cases;

mod collisions;
mod constraints;
mod contacts;
mod contract;
mod interaction;
mod world;
use collisions::*;
use constraints::*;
use contacts::*;
use interaction::*;
use world::*;

fn every_table() -> Vec<Vec<Case>> {
    let mut tables = vec![
        create_cases(),
        desc_init_cases(),
        step_cases(),
        add_particles_cases(),
        count_cases(),
        strided_read_cases("sinew_world_read_positions", sinew_world_read_positions),
        strided_read_cases("sinew_world_read_velocities", sinew_world_read_velocities),
        strided_write_cases("sinew_world_write_positions", sinew_world_write_positions),
        strided_write_cases("sinew_world_write_velocities", sinew_world_write_velocities),
        set_inverse_masses_cases(),
        xpbd_cases(),
        pbd_cases(),
        forces_cases(),
        handle_cases(),
        collider_cases(),
        mesh_cases(),
        particle_property_cases(),
        contact_cases(),
        contact_event_cases(),
        heightfield_cases(),
        interaction_cases(),
    ];
    tables.extend(bodies_cases::tables());
    tables.extend(wind_cases::tables());
    tables.extend(skinning_cases::tables());
    tables.extend(edit_cases::tables());
    tables.extend(snapshot_cases::tables());
    tables.extend(tearing_cases::tables());
    tables.extend(interpolation_cases::tables());
    tables.extend(tasks_cases::tables());
    tables.extend(profile_cases::tables());
    tables.extend(sleep_cases::tables());
    tables.extend(granular_cases::tables());
    tables.extend(dynamics_cases::tables());
    tables.extend(sdf_cases::tables());
    tables.extend(mesh_tool_cases::tables());
    tables.extend(fluid_cases::tables());
    tables.extend(fluid_render_cases::tables());
    tables.extend(render_normals_cases::tables());
    tables
}
