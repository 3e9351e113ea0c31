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

use std::collections::BTreeSet;
use std::ffi::{c_void, CStr};
use std::sync::{Arc, Barrier};

use sinew::ffi::collision::{
    sinew_collider_desc_init, sinew_collider_remove, sinew_collider_set_material,
    sinew_collider_set_transform, sinew_world_add_collider, sinew_world_add_mesh_collider,
    sinew_world_collider_count, sinew_world_contact_count, sinew_world_grab_particle,
    sinew_world_move_grab, sinew_world_pick_particle, sinew_world_read_contacts,
    sinew_world_release_particle, sinew_world_set_collision_filters, sinew_world_set_max_speed,
    sinew_world_set_particle_radii, sinew_world_set_unyielding, SinewCollider, SinewColliderDesc,
    SinewCollisionFilter, SinewContact, SinewShape,
};
use sinew::ffi::constraints::{
    sinew_world_add_distance_constraints, sinew_world_add_pbd_distance_constraints,
    sinew_world_distance_constraint_count, sinew_world_read_constraint_forces,
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

fn last_error() -> String {
    let p = sinew_last_error_message();
    assert!(!p.is_null(), "sinew_last_error_message returned NULL");
    // SAFETY: a NUL-terminated string, valid until the next failing call on this thread.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

fn ok(status: SinewStatus, what: &str) {
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

// ---------------------------------------------------------------------------------
// Case tables
// ---------------------------------------------------------------------------------

/// Kinds of bad world handle; see [`bad_handle`].
const BAD_HANDLES: [&str; 9] = [
    "null handle {0}",
    "destroyed handle",
    "valid slot, generation + 1",
    "valid slot, generation - 1",
    "valid slot, generation 0",
    "random id",
    "slot bits 0, generation 5",
    "all ones",
    "slot 0, random generation",
];

/// A bad handle of kind `kind`, derived from the live handle `world` where it can be
/// (same slot, wrong generation).
fn bad_handle(kind: &str, world: SinewWorld) -> SinewWorld {
    let slot = world.id & 0xFFFF_FFFF;
    let generation = world.id >> 32;
    let id = match kind {
        "null handle {0}" => 0,
        "destroyed handle" => {
            let d = create(&test_desc());
            ok(sinew_world_destroy(d), "destroy");
            d.id
        }
        "valid slot, generation + 1" => ((generation + 1) & 0xFFFF_FFFF) << 32 | slot,
        "valid slot, generation - 1" => (generation.wrapping_sub(1) & 0xFFFF_FFFF) << 32 | slot,
        "valid slot, generation 0" => slot,
        "random id" => 0x9E37_79B9_7F4A_7C15,
        "slot bits 0, generation 5" => 5 << 32,
        "all ones" => u64::MAX,
        "slot 0, random generation" => 0xDEAD_BEEF_0000_0001,
        _ => unreachable!("{kind}"),
    };
    assert_ne!(id, world.id);
    SinewWorld { id }
}

/// One valid call of every function that takes a world, given the handle to use.
type CallWith = fn(&mut Ctx, SinewWorld) -> SinewStatus;

fn valid_calls() -> Vec<(&'static str, CallWith)> {
    let mut calls: Vec<(&'static str, CallWith)> = vec![
        ("sinew_world_destroy", |_, w| sinew_world_destroy(w)),
        ("sinew_world_step", |_, w| sinew_world_step(w, DT)),
        ("sinew_world_add_particles", |c, w| {
            let p = [v3(1.0, 2.0, 3.0)];
            let inv = [1.0f32];
            // SAFETY: valid pointers.
            unsafe { sinew_world_add_particles(w, p.as_ptr(), inv.as_ptr(), 1, c.out.u32()) }
        }),
        ("sinew_world_particle_count", |c, w| unsafe {
            sinew_world_particle_count(w, c.out.u32())
        }),
        ("sinew_world_read_positions", |c, w| unsafe {
            sinew_world_read_positions(w, 0, N, c.out.bytes(), 16)
        }),
        ("sinew_world_write_positions", |_, w| {
            let p = [v3(0.3, 0.3, 0.3)];
            unsafe { sinew_world_write_positions(w, 1, 1, p.as_ptr().cast(), 12) }
        }),
        ("sinew_world_read_velocities", |c, w| unsafe {
            sinew_world_read_velocities(w, 0, N, c.out.bytes(), 12)
        }),
        ("sinew_world_write_velocities", |_, w| {
            let v = [v3(1.0, 0.0, 0.0)];
            unsafe { sinew_world_write_velocities(w, 2, 1, v.as_ptr().cast(), 12) }
        }),
        ("sinew_world_set_inverse_masses", |_, w| {
            let inv = [3.0f32];
            unsafe { sinew_world_set_inverse_masses(w, 1, 1, inv.as_ptr()) }
        }),
        ("sinew_world_add_distance_constraints", |c, w| {
            let pairs = [0u32, 3];
            unsafe {
                sinew_world_add_distance_constraints(
                    w,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            }
        }),
        ("sinew_world_add_pbd_distance_constraints", |c, w| {
            let pairs = [1u32, 3];
            let rest = [0.2f32];
            unsafe {
                sinew_world_add_pbd_distance_constraints(
                    w,
                    pairs.as_ptr(),
                    rest.as_ptr(),
                    1,
                    1.0,
                    c.out.u32(),
                )
            }
        }),
        ("sinew_world_distance_constraint_count", |c, w| unsafe {
            sinew_world_distance_constraint_count(w, c.out.u32())
        }),
        ("sinew_world_read_constraint_forces", |c, w| unsafe {
            sinew_world_read_constraint_forces(w, 0, M, c.out.f32s())
        }),
    ];
    calls.extend(collision_valid_calls());
    calls
}

/// Every valid call above with every bad handle: INVALID_HANDLE.
fn handle_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (function, call) in valid_calls() {
        for kind in BAD_HANDLES {
            cases.push(case(
                function,
                format!("handle: {kind}"),
                SINEW_ERROR_INVALID_HANDLE,
                move |c: &mut Ctx| {
                    let bad = bad_handle(kind, c.world);
                    call(c, bad)
                },
            ));
        }
    }
    cases
}

fn create_cases() -> Vec<Case> {
    const F: &str = "sinew_world_create";
    let mut cases = vec![
        case(F, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_create(std::ptr::null(), &mut c.out.world)
        }),
        case(F, "out_world NULL", SINEW_ERROR_NULL_POINTER, |_| unsafe {
            sinew_world_create(&sinew_world_desc_default(), std::ptr::null_mut())
        }),
        case(
            F,
            "desc all zero (no cookie)",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                // SAFETY: all-zero is a valid bit pattern for this plain struct.
                let d: SinewWorldDesc = unsafe { std::mem::zeroed() };
                unsafe { sinew_world_create(&d, &mut c.out.world) }
            },
        ),
        case(
            F,
            "desc with default fields but no cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let def = sinew_world_desc_default();
                let d = SinewWorldDesc {
                    gravity: def.gravity,
                    substeps: def.substeps,
                    iterations: def.iterations,
                    solver: def.solver,
                    jacobi_relaxation: def.jacobi_relaxation,
                    damping: def.damping,
                    threads: def.threads,
                    internal_cookie: 0,
                };
                unsafe { sinew_world_create(&d, &mut c.out.world) }
            },
        ),
        case(
            F,
            "desc with a corrupted cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let mut d = sinew_world_desc_default();
                d.internal_cookie ^= 1;
                unsafe { sinew_world_create(&d, &mut c.out.world) }
            },
        ),
    ];
    type Edit = fn(&mut SinewWorldDesc);
    let bad_fields: Vec<(&str, Edit)> = vec![
        ("substeps 0", |d| d.substeps = 0),
        ("substeps 1025", |d| d.substeps = 1025),
        ("substeps 2000", |d| d.substeps = 2000),
        ("substeps u32::MAX", |d| d.substeps = u32::MAX),
        ("iterations 0", |d| d.iterations = 0),
        ("iterations 2000", |d| d.iterations = 2000),
        ("solver 2", |d| d.solver = 2),
        ("solver 7", |d| d.solver = 7),
        ("solver u32::MAX", |d| d.solver = u32::MAX),
        ("jacobi_relaxation 0", |d| d.jacobi_relaxation = 0.0),
        ("jacobi_relaxation -1", |d| d.jacobi_relaxation = -1.0),
        ("jacobi_relaxation 2.5", |d| d.jacobi_relaxation = 2.5),
        ("jacobi_relaxation NaN", |d| d.jacobi_relaxation = f32::NAN),
        ("jacobi_relaxation inf", |d| {
            d.jacobi_relaxation = f32::INFINITY
        }),
        ("damping -1", |d| d.damping = -1.0),
        ("damping NaN", |d| d.damping = f32::NAN),
        ("damping inf", |d| d.damping = f32::INFINITY),
        ("damping 2e6", |d| d.damping = 2e6),
        ("gravity.x NaN", |d| d.gravity.x = f32::NAN),
        ("gravity.y -inf", |d| d.gravity.y = f32::NEG_INFINITY),
        ("gravity.z 2e6", |d| d.gravity.z = 2e6),
        ("threads 257", |d| d.threads = 257),
        ("threads u32::MAX", |d| d.threads = u32::MAX),
    ];
    for (label, edit) in bad_fields {
        cases.push(case(F, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = sinew_world_desc_default();
            edit(&mut d);
            unsafe { sinew_world_create(&d, &mut c.out.world) }
        }));
    }
    cases
}

fn desc_init_cases() -> Vec<Case> {
    vec![case(
        "sinew_world_desc_init",
        "out_desc NULL",
        SINEW_ERROR_NULL_POINTER,
        // SAFETY: NULL is the case under test.
        |_| unsafe { sinew_world_desc_init(std::ptr::null_mut()) },
    )]
}

fn step_cases() -> Vec<Case> {
    let dts = [
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
        ("0", 0.0),
        ("-0", -0.0),
        ("-1/60", -DT),
        ("1e-7 (below 1e-6)", 1e-7),
        ("subnormal 1e-40", 1e-40),
        ("10.5 (above 10)", 10.5),
        ("f32::MAX", f32::MAX),
    ];
    dts.into_iter()
        .map(|(label, dt)| {
            case(
                "sinew_world_step",
                format!("dt {label}"),
                SINEW_ERROR_INVALID_ARGUMENT,
                move |c| sinew_world_step(c.world, dt),
            )
        })
        .collect()
}

fn add_particles_cases() -> Vec<Case> {
    const F: &str = "sinew_world_add_particles";
    let mut cases = vec![
        case(F, "positions NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_particles(c.world, std::ptr::null(), std::ptr::null(), 1, c.out.u32())
        }),
        case(F, "out_first NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let p = [v3(0.0, 1.0, 0.0)];
            unsafe {
                sinew_world_add_particles(
                    c.world,
                    p.as_ptr(),
                    std::ptr::null(),
                    1,
                    std::ptr::null_mut(),
                )
            }
        }),
        case(F, "count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            let p = [v3(0.0, 1.0, 0.0)];
            let inv = [1.0f32];
            unsafe { sinew_world_add_particles(c.world, p.as_ptr(), inv.as_ptr(), 0, c.out.u32()) }
        }),
        case(
            F,
            "count 0, inverse_masses NULL",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let p = [v3(0.0, 1.0, 0.0)];
                unsafe {
                    sinew_world_add_particles(c.world, p.as_ptr(), std::ptr::null(), 0, c.out.u32())
                }
            },
        ),
        case(
            F,
            "positions misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let p = Misaligned::new(&[v3(0.0, 1.0, 0.0)]);
                unsafe {
                    sinew_world_add_particles(c.world, p.ptr(), std::ptr::null(), 1, c.out.u32())
                }
            },
        ),
        case(
            F,
            "inverse_masses misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let p = [v3(0.0, 1.0, 0.0)];
                let inv = Misaligned::new(&[1.0f32]);
                unsafe { sinew_world_add_particles(c.world, p.as_ptr(), inv.ptr(), 1, c.out.u32()) }
            },
        ),
    ];
    // Absurd counts are refused before the buffer is touched (it holds one element).
    for count in [u32::MAX, (1u32 << 28) + 1] {
        cases.push(case(
            F,
            format!("count {count} over a one-element buffer"),
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| {
                let p = [v3(0.0, 1.0, 0.0)];
                unsafe {
                    sinew_world_add_particles(
                        c.world,
                        p.as_ptr(),
                        std::ptr::null(),
                        count,
                        c.out.u32(),
                    )
                }
            },
        ));
    }
    let bad_positions = [
        ("x NaN", v3(f32::NAN, 0.0, 0.0)),
        ("y +inf", v3(0.0, f32::INFINITY, 0.0)),
        ("z -inf", v3(0.0, 0.0, f32::NEG_INFINITY)),
        ("x 2e9 (beyond 1e9)", v3(2e9, 0.0, 0.0)),
    ];
    for (label, bad) in bad_positions {
        cases.push(case(
            F,
            format!("last of 3 positions {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let p = [v3(0.0, 1.0, 0.0), v3(0.0, 2.0, 0.0), bad];
                unsafe {
                    sinew_world_add_particles(c.world, p.as_ptr(), std::ptr::null(), 3, c.out.u32())
                }
            },
        ));
    }
    let bad_masses = [
        ("-1 (negative mass)", -1.0f32),
        ("-1e-30", -1e-30),
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
    ];
    for (label, bad) in bad_masses {
        cases.push(case(
            F,
            format!("last of 3 inverse masses {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let p = [v3(0.0, 1.0, 0.0), v3(0.0, 2.0, 0.0), v3(0.0, 3.0, 0.0)];
                let inv = [1.0f32, 0.0, bad];
                unsafe {
                    sinew_world_add_particles(c.world, p.as_ptr(), inv.as_ptr(), 3, c.out.u32())
                }
            },
        ));
    }
    cases
}

fn count_cases() -> Vec<Case> {
    vec![
        case(
            "sinew_world_particle_count",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_particle_count(c.world, std::ptr::null_mut()) },
        ),
        case(
            "sinew_world_distance_constraint_count",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_distance_constraint_count(c.world, std::ptr::null_mut()) },
        ),
    ]
}

/// Bad (first, count) pairs for a range over `n` items, with the status each gives.
/// Every count is small, so that the buffers passed are valid for it.
fn bad_ranges(n: u32) -> Vec<(String, u32, u32, SinewStatus)> {
    vec![
        ("count 0".into(), 0, 0, SINEW_ERROR_INVALID_ARGUMENT),
        ("first n, count 1".into(), n, 1, SINEW_ERROR_OUT_OF_RANGE),
        (
            "first 0, count n+1".into(),
            0,
            n + 1,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "first n-1, count 2".into(),
            n - 1,
            2,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "first u32::MAX, count 1".into(),
            u32::MAX,
            1,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "first u32::MAX, count 2 (first+count overflows u32)".into(),
            u32::MAX,
            2,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "first u32::MAX-1, count 3 (first+count overflows u32)".into(),
            u32::MAX - 1,
            3,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
    ]
}

type ReadFn = unsafe extern "C" fn(SinewWorld, u32, u32, *mut c_void, u32) -> SinewStatus;
type WriteFn = unsafe extern "C" fn(SinewWorld, u32, u32, *const c_void, u32) -> SinewStatus;

/// A pointer so close to the top of the address space that the buffer would wrap.
const TOP_OF_MEMORY: usize = usize::MAX - 7;

fn strided_read_cases(f: &'static str, read: ReadFn) -> Vec<Case> {
    let mut cases = vec![
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            read(c.world, 0, 1, std::ptr::null_mut(), 12)
        }),
        case(
            f,
            "stride 0",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { read(c.world, 0, 1, c.out.bytes(), 0) },
        ),
        case(
            f,
            "stride 11",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { read(c.world, 0, 2, c.out.bytes(), 11) },
        ),
        case(
            f,
            "buffer wraps the address space",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe { read(c.world, 0, 2, TOP_OF_MEMORY as *mut c_void, 12) },
        ),
        // Unbounded strides: 4 GiB was accepted and wrote far past any real buffer.
        case(
            f,
            "stride 4 GiB - 1 (above SINEW_MAX_STRIDE_BYTES)",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { read(c.world, 0, 2, c.out.bytes(), u32::MAX) },
        ),
        case(
            f,
            "stride 1 MiB + 1 (above SINEW_MAX_STRIDE_BYTES)",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { read(c.world, 0, 2, c.out.bytes(), (1 << 20) + 1) },
        ),
        // The range is checked before anything is written, so a huge count never
        // touches the (small) buffer.
        case(
            f,
            "first 1, count u32::MAX (first+count overflows u32)",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe { read(c.world, 1, u32::MAX, c.out.bytes(), 12) },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(N) {
        for stride in [12u32, 16] {
            cases.push(case(
                f,
                format!("{label}, stride {stride}"),
                expected,
                move |c| unsafe { read(c.world, first, count, c.out.bytes(), stride) },
            ));
        }
    }
    cases
}

fn strided_write_cases(f: &'static str, write: WriteFn) -> Vec<Case> {
    let good = |k: usize| v3(0.01 * k as f32, -0.5, 0.25);
    let mut cases = vec![
        case(f, "input NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            write(c.world, 0, 1, std::ptr::null(), 12)
        }),
        case(f, "stride 0", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let p = [good(0); 4];
            unsafe { write(c.world, 0, 1, p.as_ptr().cast(), 0) }
        }),
        case(f, "stride 11", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let p = [good(0); 4];
            unsafe { write(c.world, 0, 2, p.as_ptr().cast(), 11) }
        }),
        case(
            f,
            "buffer wraps the address space",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe { write(c.world, 0, 2, TOP_OF_MEMORY as *const c_void, 12) },
        ),
        case(
            f,
            "stride 4 GiB - 1 (above SINEW_MAX_STRIDE_BYTES)",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let p = [good(0); 4];
                unsafe { write(c.world, 0, 2, p.as_ptr().cast(), u32::MAX) }
            },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(N) {
        cases.push(case(f, label, expected, move |c| {
            let p: Vec<SinewVec3> = (0..count.max(1) as usize).map(good).collect();
            unsafe { write(c.world, first, count, p.as_ptr().cast(), 12) }
        }));
    }
    let bad_values = [
        ("x NaN", v3(f32::NAN, 0.0, 0.0)),
        ("y +inf", v3(0.0, f32::INFINITY, 0.0)),
        ("z -inf", v3(0.0, 0.0, f32::NEG_INFINITY)),
        ("y -2e9 (beyond 1e9)", v3(0.0, -2e9, 0.0)),
    ];
    for (label, bad) in bad_values {
        // All-or-nothing: the first elements are fine, the last one is not.
        for stride in [12u32, 16] {
            cases.push(case(
                f,
                format!("last of {N} values {label}, stride {stride}"),
                SINEW_ERROR_INVALID_ARGUMENT,
                move |c| {
                    let per = stride as usize / 4;
                    let mut buf = vec![0f32; per * N as usize];
                    for k in 0..N as usize {
                        let v = if k + 1 == N as usize { bad } else { good(k) };
                        buf[per * k..per * k + 3].copy_from_slice(&[v.x, v.y, v.z]);
                    }
                    unsafe { write(c.world, 0, N, buf.as_ptr().cast(), stride) }
                },
            ));
        }
    }
    cases
}

fn set_inverse_masses_cases() -> Vec<Case> {
    const F: &str = "sinew_world_set_inverse_masses";
    let mut cases = vec![
        case(
            F,
            "inverse_masses NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_set_inverse_masses(c.world, 0, 1, std::ptr::null()) },
        ),
        case(
            F,
            "inverse_masses misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let inv = Misaligned::new(&[1.0f32, 1.0]);
                unsafe { sinew_world_set_inverse_masses(c.world, 0, 2, inv.ptr()) }
            },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(N) {
        cases.push(case(F, label, expected, move |c| {
            let inv = vec![1.0f32; count.max(1) as usize];
            unsafe { sinew_world_set_inverse_masses(c.world, first, count, inv.as_ptr()) }
        }));
    }
    let bad_masses = [
        ("-1 (negative mass)", -1.0f32),
        ("-1e-30", -1e-30),
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
    ];
    for (label, bad) in bad_masses {
        cases.push(case(
            F,
            format!("last of {N} {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let inv = [5.0f32, 5.0, 5.0, bad];
                unsafe { sinew_world_set_inverse_masses(c.world, 0, N, inv.as_ptr()) }
            },
        ));
    }
    cases
}

type AddConstraintsFn =
    unsafe extern "C" fn(SinewWorld, *const u32, *const f32, u32, f32, *mut u32) -> SinewStatus;

/// Cases shared by both constraint flavours; `param` is a valid compliance/stiffness.
fn add_constraints_cases(
    f: &'static str,
    add: AddConstraintsFn,
    param: f32,
    bad_params: &[(&'static str, f32)],
) -> Vec<Case> {
    let mut cases = vec![
        case(
            f,
            "particle_pairs NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                add(
                    c.world,
                    std::ptr::null(),
                    std::ptr::null(),
                    1,
                    param,
                    c.out.u32(),
                )
            },
        ),
        case(f, "out_first NULL", SINEW_ERROR_NULL_POINTER, move |c| {
            let pairs = [0u32, 3];
            unsafe {
                add(
                    c.world,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    1,
                    param,
                    std::ptr::null_mut(),
                )
            }
        }),
        case(f, "count 0", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let pairs = [0u32, 3];
            let rest = [0.1f32];
            unsafe {
                add(
                    c.world,
                    pairs.as_ptr(),
                    rest.as_ptr(),
                    0,
                    param,
                    c.out.u32(),
                )
            }
        }),
        case(
            f,
            "particle_pairs misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let pairs = Misaligned::new(&[0u32, 3]);
                unsafe {
                    add(
                        c.world,
                        pairs.ptr(),
                        std::ptr::null(),
                        1,
                        param,
                        c.out.u32(),
                    )
                }
            },
        ),
        case(
            f,
            "rest_lengths misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let pairs = [0u32, 3];
                let rest = Misaligned::new(&[0.1f32]);
                unsafe { add(c.world, pairs.as_ptr(), rest.ptr(), 1, param, c.out.u32()) }
            },
        ),
    ];
    // Absurd counts are refused before the buffers are touched (they hold one pair).
    for count in [u32::MAX, (1u32 << 28) + 1] {
        cases.push(case(
            f,
            format!("count {count} over a one-pair buffer"),
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| {
                let pairs = [0u32, 3];
                unsafe {
                    add(
                        c.world,
                        pairs.as_ptr(),
                        std::ptr::null(),
                        count,
                        param,
                        c.out.u32(),
                    )
                }
            },
        ));
    }
    // The second of two pairs is bad, so a partial add would show.
    let bad_pairs = [
        ("(0, n)", [0u32, N], SINEW_ERROR_OUT_OF_RANGE),
        ("(n, 0)", [N, 0], SINEW_ERROR_OUT_OF_RANGE),
        ("(u32::MAX, 1)", [u32::MAX, 1], SINEW_ERROR_OUT_OF_RANGE),
        (
            "(2, 2) joins a particle to itself",
            [2, 2],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "(0, 0) joins a particle to itself",
            [0, 0],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ];
    for (label, bad, expected) in bad_pairs {
        cases.push(case(
            f,
            format!("second pair {label}"),
            expected,
            move |c| {
                let pairs = [0u32, 3, bad[0], bad[1]];
                unsafe {
                    add(
                        c.world,
                        pairs.as_ptr(),
                        std::ptr::null(),
                        2,
                        param,
                        c.out.u32(),
                    )
                }
            },
        ));
    }
    let bad_rest = [
        ("-0.1", -0.1f32),
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
    ];
    for (label, bad) in bad_rest {
        cases.push(case(
            f,
            format!("second rest length {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let pairs = [0u32, 3, 1, 3];
                let rest = [0.1f32, bad];
                unsafe {
                    add(
                        c.world,
                        pairs.as_ptr(),
                        rest.as_ptr(),
                        2,
                        param,
                        c.out.u32(),
                    )
                }
            },
        ));
    }
    for &(label, bad) in bad_params {
        cases.push(case(f, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let pairs = [0u32, 3];
            unsafe {
                add(
                    c.world,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    1,
                    bad,
                    c.out.u32(),
                )
            }
        }));
    }
    cases
}

fn xpbd_cases() -> Vec<Case> {
    add_constraints_cases(
        "sinew_world_add_distance_constraints",
        sinew_world_add_distance_constraints,
        1e-6,
        &[
            ("compliance -1", -1.0),
            ("compliance -1e-30", -1e-30),
            ("compliance NaN", f32::NAN),
            ("compliance +inf", f32::INFINITY),
            ("compliance -inf", f32::NEG_INFINITY),
            ("compliance 1e11 (above 1e10)", 1e11),
        ],
    )
}

fn pbd_cases() -> Vec<Case> {
    add_constraints_cases(
        "sinew_world_add_pbd_distance_constraints",
        sinew_world_add_pbd_distance_constraints,
        0.5,
        &[
            ("stiffness -0.1", -0.1),
            ("stiffness 1.1", 1.1),
            ("stiffness 1.0000001", 1.000_000_1),
            ("stiffness NaN", f32::NAN),
            ("stiffness +inf", f32::INFINITY),
            ("stiffness -inf", f32::NEG_INFINITY),
        ],
    )
}

fn forces_cases() -> Vec<Case> {
    const F: &str = "sinew_world_read_constraint_forces";
    let mut cases = vec![
        case(
            F,
            "out_newtons NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_read_constraint_forces(c.world, 0, 1, std::ptr::null_mut()) },
        ),
        case(
            F,
            "out_newtons misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe { sinew_world_read_constraint_forces(c.world, 0, 1, c.out.misaligned()) },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(M) {
        cases.push(case(F, label, expected, move |c| unsafe {
            sinew_world_read_constraint_forces(c.world, first, count, c.out.f32s())
        }));
    }
    cases
}

#[path = "bad_input/bodies.rs"]
mod bodies_cases;
#[path = "bad_input/fluids.rs"]
mod fluid_cases;
#[path = "bad_input/skinning.rs"]
mod skinning_cases;
#[path = "bad_input/wind.rs"]
mod wind_cases;

#[path = "bad_input/edit.rs"]
mod edit_cases;
#[path = "bad_input/interpolation.rs"]
mod interpolation_cases;
#[path = "bad_input/snapshots.rs"]
mod snapshot_cases;
#[path = "bad_input/tasks.rs"]
mod tasks_cases;
#[path = "bad_input/tearing.rs"]
mod tearing_cases;

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
    tables.extend(fluid_cases::tables());
    tables
}

// ---------------------------------------------------------------------------------
// Table tests
// ---------------------------------------------------------------------------------

#[test]
fn world_create_rejects_bad_desc() {
    run_cases(create_cases());
}

#[test]
fn world_desc_init_rejects_null() {
    run_cases(desc_init_cases());
}

/// `sinew_world_desc_init` writes exactly what `sinew_world_desc_default` returns (the
/// cookie included), and a world can be made from it.
#[test]
fn world_desc_init_matches_default() {
    // SAFETY: all-zero is a valid bit pattern for this plain struct.
    let mut d: SinewWorldDesc = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer.
    ok(unsafe { sinew_world_desc_init(&mut d) }, "desc_init");
    assert_eq!(d, sinew_world_desc_default());
    let w = create(&d);
    ok(sinew_world_destroy(w), "destroy");
}

#[test]
fn world_step_rejects_bad_dt() {
    run_cases(step_cases());
}

#[test]
fn add_particles_rejects_bad_input() {
    run_cases(add_particles_cases());
}

#[test]
fn counts_reject_null() {
    run_cases(count_cases());
}

#[test]
fn read_positions_rejects_bad_input() {
    run_cases(strided_read_cases(
        "sinew_world_read_positions",
        sinew_world_read_positions,
    ));
}

#[test]
fn read_velocities_rejects_bad_input() {
    run_cases(strided_read_cases(
        "sinew_world_read_velocities",
        sinew_world_read_velocities,
    ));
}

#[test]
fn write_positions_rejects_bad_input() {
    run_cases(strided_write_cases(
        "sinew_world_write_positions",
        sinew_world_write_positions,
    ));
}

#[test]
fn write_velocities_rejects_bad_input() {
    run_cases(strided_write_cases(
        "sinew_world_write_velocities",
        sinew_world_write_velocities,
    ));
}

#[test]
fn set_inverse_masses_rejects_bad_input() {
    run_cases(set_inverse_masses_cases());
}

#[test]
fn add_distance_constraints_rejects_bad_input() {
    run_cases(xpbd_cases());
}

#[test]
fn add_pbd_distance_constraints_rejects_bad_input() {
    run_cases(pbd_cases());
}

#[test]
fn read_constraint_forces_rejects_bad_input() {
    run_cases(forces_cases());
}

#[test]
fn every_function_rejects_bad_handles() {
    run_cases(handle_cases());
}

/// The valid calls used by the handle cases succeed with the right handle, so those
/// cases fail because of the handle and nothing else.
#[test]
fn valid_calls_succeed_with_a_valid_handle() {
    for (function, call) in valid_calls() {
        let w = make_world();
        let mut ctx = Ctx {
            world: w,
            out: Outputs::sentinel(),
        };
        let s = call(&mut ctx, w);
        assert_eq!(s, SINEW_OK, "{function}: {}", last_error());
        if function != "sinew_world_destroy" {
            ok(sinew_world_destroy(w), "destroy");
        }
    }
}

/// Every function declared in include/sinew.h is covered: fallible ones by a table,
/// the four infallible ones by `infallible_functions`.
#[test]
fn every_exported_function_is_covered() {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/sinew.h"))
        .expect("read include/sinew.h");
    let mut declared = BTreeSet::new();
    for line in header.lines() {
        let t = line.trim_start();
        if t.starts_with('*') || t.starts_with("/*") || t.starts_with("//") || t.starts_with('#') {
            continue;
        }
        if let Some(start) = t.find("sinew_") {
            let name: String = t[start..]
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            if t[start + name.len()..].starts_with('(') {
                declared.insert(name);
            }
        }
    }
    assert!(declared.len() >= 17, "parsed declarations: {declared:?}");
    let mut covered: BTreeSet<String> = every_table()
        .iter()
        .flatten()
        .map(|c| c.function.to_string())
        .collect();
    for f in [
        "sinew_abi_version",
        "sinew_version",
        "sinew_last_error_message",
        "sinew_world_desc_default",
    ]
    .into_iter()
    .chain(bodies_cases::INFALLIBLE)
    .chain(wind_cases::INFALLIBLE)
    .chain(fluid_cases::INFALLIBLE)
    {
        covered.insert(f.to_string());
    }
    let missing: Vec<_> = declared.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "functions without bad-input cases: {missing:?}"
    );
}

// ---------------------------------------------------------------------------------
// Infallible functions and accepted-unaligned pointers
// ---------------------------------------------------------------------------------

#[test]
fn infallible_functions() {
    assert_eq!(sinew_abi_version(), SINEW_ABI_VERSION);
    // SAFETY: a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(sinew_version()) }.to_str().unwrap();
    assert_eq!(v, env!("CARGO_PKG_VERSION"));
    let d = sinew_world_desc_default();
    assert_eq!(d.gravity, v3(0.0, -9.81, 0.0));
    assert_eq!((d.substeps, d.iterations, d.threads), (8, 1, 0));
    assert_eq!(d.solver, SinewSolver::SINEW_SOLVER_GAUSS_SEIDEL as u32);
    assert_eq!((d.jacobi_relaxation, d.damping), (1.0, 0.0));
    assert_ne!(d.internal_cookie, 0);
    // A fresh thread has no error yet.
    std::thread::spawn(|| assert_eq!(last_error(), ""))
        .join()
        .unwrap();
}

/// Pointers the ABI reads and writes unaligned (the desc, single outputs, strided
/// buffers) work at any address and any stride >= 12.
#[test]
fn unaligned_pointers_accepted_where_documented() {
    let mut out = Outputs::sentinel();
    let mut desc = test_desc();
    desc.substeps = 3;
    let d = Misaligned::new(std::slice::from_ref(&desc));
    // SAFETY: valid (unaligned) pointers; the ABI reads and writes them unaligned.
    unsafe {
        ok(
            sinew_world_create(d.ptr(), out.misaligned()),
            "create, misaligned desc and out_world",
        );
        let w: SinewWorld = out.misaligned::<SinewWorld>().read_unaligned();
        let p = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(1.0, 1.0, 0.0)];
        let mut first = Outputs::sentinel();
        ok(
            sinew_world_add_particles(w, p.as_ptr(), std::ptr::null(), 3, first.misaligned()),
            "add_particles, misaligned out_first",
        );
        assert_eq!(first.misaligned::<u32>().read_unaligned(), 0);
        let pairs = [0u32, 1];
        ok(
            sinew_world_add_distance_constraints(
                w,
                pairs.as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                first.misaligned(),
            ),
            "add_distance_constraints, misaligned out_first",
        );
        let mut cnt = Outputs::sentinel();
        ok(
            sinew_world_particle_count(w, cnt.misaligned()),
            "particle_count, misaligned",
        );
        assert_eq!(cnt.misaligned::<u32>().read_unaligned(), 3);
        ok(
            sinew_world_distance_constraint_count(w, cnt.misaligned()),
            "constraint_count, misaligned",
        );
        assert_eq!(cnt.misaligned::<u32>().read_unaligned(), 1);

        // Write from a misaligned buffer with stride 13, read back at stride 17.
        let new = [v3(0.5, 0.5, 0.5), v3(-1.0, 2.0, 3.0), v3(4.0, -5.0, 6.0)];
        let mut raw = [0u8; 1 + 13 * 3];
        for (k, v) in new.iter().enumerate() {
            for (j, x) in [v.x, v.y, v.z].iter().enumerate() {
                raw[1 + 13 * k + 4 * j..][..4].copy_from_slice(&x.to_ne_bytes());
            }
        }
        ok(
            sinew_world_write_positions(w, 0, 3, raw.as_ptr().add(1).cast(), 13),
            "write_positions, misaligned, stride 13",
        );
        let mut back = Outputs::sentinel();
        ok(
            sinew_world_read_positions(w, 0, 3, back.misaligned(), 17),
            "read_positions, misaligned, stride 17",
        );
        for (k, v) in new.iter().enumerate() {
            let at = 1 + 17 * k;
            let got: SinewVec3 = back
                .bytes
                .as_ptr()
                .add(at)
                .cast::<SinewVec3>()
                .read_unaligned();
            assert_eq!(got, *v, "particle {k}");
            // The 5 bytes between elements are untouched.
            if k < 2 {
                assert!(back.bytes[at + 12..at + 17].iter().all(|&b| b == 0xA5));
            }
        }
        assert_eq!(back.bytes[0], 0xA5);
        assert!(back.bytes[1 + 17 * 2 + 12..].iter().all(|&b| b == 0xA5));
        ok(sinew_world_step(w, DT), "step");
        ok(sinew_world_destroy(w), "destroy");
    }
}

// ---------------------------------------------------------------------------------
// Handles
// ---------------------------------------------------------------------------------

fn expect_invalid_handle(status: SinewStatus, function: &str) {
    assert_eq!(status, SINEW_ERROR_INVALID_HANDLE, "{function}");
    let msg = last_error();
    assert!(
        msg.starts_with(&format!("{function}: ")),
        "{function}: message {msg:?}"
    );
}

#[test]
fn destroy_twice_is_invalid_handle() {
    let w = make_world();
    ok(sinew_world_destroy(w), "first destroy");
    expect_invalid_handle(sinew_world_destroy(w), "sinew_world_destroy");
    expect_invalid_handle(sinew_world_step(w, DT), "sinew_world_step");
    let mut n = 77u32;
    // SAFETY: valid pointer.
    expect_invalid_handle(
        unsafe { sinew_world_particle_count(w, &mut n) },
        "sinew_world_particle_count",
    );
    assert_eq!(n, 77);
}

#[test]
fn reused_slot_does_not_validate_the_old_handle() {
    let desc = test_desc();
    let old = create(&desc);
    ok(sinew_world_destroy(old), "destroy");
    // The freed slot is normally reused at once; other tests create worlds in parallel,
    // so keep creating (and holding) worlds until one lands in the old slot.
    let mut held = Vec::new();
    let mut reused = None;
    for attempt in 0..2000 {
        let w = create(&desc);
        if w.id & 0xFFFF_FFFF == old.id & 0xFFFF_FFFF {
            reused = Some(w);
            break;
        }
        held.push(w);
        if attempt > 16 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    let new = reused.expect("the destroyed world's slot was never reused");
    assert_ne!(new.id, old.id, "a reused slot must get a new generation");
    assert_ne!(new.id >> 32, 0, "generation 0 is never issued");

    let p = [v3(0.0, 0.0, 0.0)];
    let mut first = 0u32;
    let mut count = 0u32;
    // SAFETY: valid pointers.
    unsafe {
        ok(
            sinew_world_add_particles(new, p.as_ptr(), std::ptr::null(), 1, &mut first),
            "add to the new world",
        );
        expect_invalid_handle(
            sinew_world_add_particles(old, p.as_ptr(), std::ptr::null(), 1, &mut first),
            "sinew_world_add_particles",
        );
        expect_invalid_handle(
            sinew_world_particle_count(old, &mut count),
            "sinew_world_particle_count",
        );
    }
    expect_invalid_handle(sinew_world_step(old, DT), "sinew_world_step");
    expect_invalid_handle(sinew_world_destroy(old), "sinew_world_destroy");
    // The stale handle destroyed nothing: the new world is intact.
    // SAFETY: valid pointer.
    ok(
        unsafe { sinew_world_particle_count(new, &mut count) },
        "count",
    );
    assert_eq!(count, 1);
    ok(sinew_world_step(new, DT), "step the new world");
    ok(sinew_world_destroy(new), "destroy the new world");
    for w in held {
        ok(sinew_world_destroy(w), "destroy");
    }
}

// ---------------------------------------------------------------------------------
// Threads
// ---------------------------------------------------------------------------------

/// A hanging chain of `n` particles (first pinned), 1 cm apart.
fn make_chain(n: u32, threads: u32) -> SinewWorld {
    let mut d = sinew_world_desc_default();
    d.threads = threads;
    d.damping = 0.5;
    let w = create(&d);
    let p: Vec<SinewVec3> = (0..n).map(|i| v3(0.01 * i as f32, 0.0, 0.0)).collect();
    let inv: Vec<f32> = (0..n).map(|i| if i == 0 { 0.0 } else { 10.0 }).collect();
    let pairs: Vec<u32> = (0..n - 1).flat_map(|i| [i, i + 1]).collect();
    let mut first = 0u32;
    // SAFETY: buffers sized for the counts.
    unsafe {
        ok(
            sinew_world_add_particles(w, p.as_ptr(), inv.as_ptr(), n, &mut first),
            "add",
        );
        ok(
            sinew_world_add_distance_constraints(
                w,
                pairs.as_ptr(),
                std::ptr::null(),
                n - 1,
                1e-7,
                &mut first,
            ),
            "constraints",
        );
    }
    w
}

fn run_chain(w: SinewWorld, frames: u32) -> Snapshot {
    for _ in 0..frames {
        ok(sinew_world_step(w, DT), "step");
    }
    snapshot(w)
}

#[test]
fn two_threads_step_two_worlds_concurrently() {
    // Large enough (> 4096 items) for the worker pools to be used.
    const PARTICLES: u32 = 6000;
    const FRAMES: u32 = 30;
    let barrier = Arc::new(Barrier::new(2));
    let spawn = |threads: u32| {
        let barrier = barrier.clone();
        std::thread::spawn(move || {
            let w = make_chain(PARTICLES, threads);
            barrier.wait();
            let s = run_chain(w, FRAMES);
            ok(sinew_world_destroy(w), "destroy");
            s
        })
    };
    let a = spawn(0);
    let b = spawn(2);
    let a = a.join().expect("thread A");
    let b = b.join().expect("thread B");
    // The same world stepped alone on this thread, single-threaded.
    let w = make_chain(PARTICLES, 1);
    let reference = run_chain(w, FRAMES);
    ok(sinew_world_destroy(w), "destroy");
    assert!(reference
        .positions
        .iter()
        .all(|&b| f32::from_bits(b).is_finite()));
    assert!(
        a == reference,
        "world stepped on thread A differs from the reference"
    );
    assert!(
        b == reference,
        "world stepped on thread B differs from the reference"
    );
}

#[test]
fn last_error_is_thread_local() {
    let barrier = Arc::new(Barrier::new(2));
    let (ba, bb) = (barrier.clone(), barrier.clone());
    let a = std::thread::spawn(move || {
        assert_eq!(
            sinew_world_step(SinewWorld { id: 0 }, DT),
            SINEW_ERROR_INVALID_HANDLE
        );
        let mine = last_error();
        assert!(mine.starts_with("sinew_world_step: "), "{mine:?}");
        ba.wait(); // A has failed
        ba.wait(); // B has checked and failed
        assert_eq!(last_error(), mine, "B's failure leaked into A's message");
    });
    let b = std::thread::spawn(move || {
        bb.wait(); // A has failed
        assert_eq!(last_error(), "", "A's failure leaked into B's message");
        let mut n = 0u32;
        // SAFETY: valid pointer.
        let s = unsafe { sinew_world_distance_constraint_count(SinewWorld { id: 0 }, &mut n) };
        assert_eq!(s, SINEW_ERROR_INVALID_HANDLE);
        let mine = last_error();
        assert!(
            mine.starts_with("sinew_world_distance_constraint_count: "),
            "{mine:?}"
        );
        bb.wait();
        assert_eq!(last_error(), mine);
    });
    a.join().expect("thread A");
    b.join().expect("thread B");
}

/// Several threads hammer ONE world (step, read, write, count) while another destroys
/// it: every call either succeeds or, once the world is gone, returns INVALID_HANDLE;
/// nothing crashes and no call sees a half-destroyed world.
#[test]
fn one_world_shared_by_threads_then_destroyed_under_them() {
    const PARTICLES: u32 = 5000;
    let w = make_chain(PARTICLES, 2);
    let barrier = Arc::new(Barrier::new(4));
    let workers: Vec<_> = (0..3)
        .map(|k| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                let mut buf = vec![v3(0.0, 0.0, 0.0); PARTICLES as usize];
                let mut ok_calls = 0u32;
                for i in 0..200u32 {
                    // SAFETY: buffers sized for the counts.
                    let s = unsafe {
                        match (k + i) % 3 {
                            0 => sinew_world_step(w, DT),
                            1 => sinew_world_read_positions(
                                w,
                                0,
                                PARTICLES,
                                buf.as_mut_ptr().cast(),
                                12,
                            ),
                            _ => sinew_world_write_velocities(
                                w,
                                1,
                                PARTICLES - 1,
                                buf.as_ptr().add(1).cast(),
                                12,
                            ),
                        }
                    };
                    match s {
                        SINEW_OK => ok_calls += 1,
                        SINEW_ERROR_INVALID_HANDLE => break,
                        other => {
                            panic!("thread {k}: unexpected status {other:?}: {}", last_error())
                        }
                    }
                }
                ok_calls
            })
        })
        .collect();
    barrier.wait();
    std::thread::sleep(std::time::Duration::from_millis(20));
    ok(sinew_world_destroy(w), "destroy while others use it");
    let total: u32 = workers.into_iter().map(|t| t.join().expect("worker")).sum();
    assert!(total > 0, "no call succeeded before the destroy");
    assert_eq!(sinew_world_step(w, DT), SINEW_ERROR_INVALID_HANDLE);
}

// ---------------------------------------------------------------------------------
// Collisions and interaction (src/ffi/collision.rs)
// ---------------------------------------------------------------------------------

/// The plane collider of the fixture world (the first collider of a world: slot 0,
/// generation 1).
const FIXTURE_COLLIDER: SinewCollider = SinewCollider { id: (1 << 32) | 1 };

/// Adds the fixture's collision state: a plane just below the particles (friction,
/// restitution), radii, and a grab on particle 2.
fn add_fixture_collisions(w: SinewWorld) {
    let mut d = collider_desc();
    d.position = v3(0.0, -0.12, 0.0);
    d.static_friction = 0.5;
    d.dynamic_friction = 0.4;
    d.restitution = 0.5;
    let mut id = SinewCollider { id: 0 };
    let radii = [0.02f32; N as usize];
    let target = v3(0.25, 0.0, 0.0);
    // SAFETY: valid pointers.
    unsafe {
        ok(sinew_world_add_collider(w, &d, &mut id), "add_collider");
        assert_eq!(id, FIXTURE_COLLIDER);
        ok(
            sinew_world_set_particle_radii(w, 0, N, radii.as_ptr()),
            "set_particle_radii",
        );
        ok(
            sinew_world_grab_particle(w, 2, &target, 1e-3),
            "grab_particle",
        );
    }
}

fn collider_desc() -> SinewColliderDesc {
    // SAFETY: all-zero is a valid bit pattern for this plain struct.
    let mut d: SinewColliderDesc = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer.
    ok(
        unsafe { sinew_collider_desc_init(&mut d) },
        "collider_desc_init",
    );
    d
}

fn collider_count(w: SinewWorld) -> u32 {
    let mut n = u32::MAX;
    // SAFETY: valid pointer.
    ok(
        unsafe { sinew_world_collider_count(w, &mut n) },
        "collider_count",
    );
    n
}

fn collision_valid_calls() -> Vec<(&'static str, CallWith)> {
    vec![
        ("sinew_world_add_collider", |c, w| {
            let mut d = collider_desc();
            d.shape = SinewShape::SINEW_SHAPE_SPHERE as u32;
            unsafe { sinew_world_add_collider(w, &d, c.out.u32().cast()) }
        }),
        ("sinew_world_add_mesh_collider", |c, w| {
            let d = collider_desc();
            let (v, t) = tetrahedron();
            unsafe {
                sinew_world_add_mesh_collider(
                    w,
                    &d,
                    v.as_ptr(),
                    4,
                    t.as_ptr(),
                    4,
                    c.out.u32().cast(),
                )
            }
        }),
        ("sinew_collider_remove", |_, w| {
            sinew_collider_remove(w, FIXTURE_COLLIDER)
        }),
        ("sinew_collider_set_transform", |_, w| {
            let p = v3(0.0, -0.1, 0.0);
            let q = SinewQuat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            };
            unsafe { sinew_collider_set_transform(w, FIXTURE_COLLIDER, &p, &q, 0) }
        }),
        ("sinew_collider_set_material", |_, w| {
            sinew_collider_set_material(w, FIXTURE_COLLIDER, 0.1, 0.1, 0.0)
        }),
        ("sinew_world_collider_count", |c, w| unsafe {
            sinew_world_collider_count(w, c.out.u32())
        }),
        ("sinew_world_set_particle_radii", |_, w| {
            let r = [0.03f32];
            unsafe { sinew_world_set_particle_radii(w, 1, 1, r.as_ptr()) }
        }),
        ("sinew_world_set_collision_filters", |_, w| {
            let f = [SinewCollisionFilter {
                group: 1,
                layers: 1,
                mask: 1,
                self_collision: 0,
            }];
            unsafe { sinew_world_set_collision_filters(w, 1, 1, f.as_ptr()) }
        }),
        ("sinew_world_set_unyielding", |_, w| {
            let u = [1.0f32];
            unsafe { sinew_world_set_unyielding(w, 1, 1, u.as_ptr()) }
        }),
        ("sinew_world_set_max_speed", |_, w| {
            sinew_world_set_max_speed(w, 5.0)
        }),
        ("sinew_world_contact_count", |c, w| unsafe {
            sinew_world_contact_count(w, c.out.u32())
        }),
        ("sinew_world_read_contacts", |c, w| unsafe {
            let mut n = 0u32;
            sinew_world_read_contacts(w, c.out.bytes().cast(), 8, &mut n)
        }),
        ("sinew_world_pick_particle", |c, w| {
            let (o, d) = (v3(0.1, 0.0, -1.0), v3(0.0, 0.0, 1.0));
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(w, &o, &d, 0.05, c.out.u32(), f) }
        }),
        ("sinew_world_grab_particle", |_, w| {
            let t = v3(0.1, 0.1, 0.0);
            unsafe { sinew_world_grab_particle(w, 1, &t, 0.0) }
        }),
        ("sinew_world_move_grab", |_, w| {
            let t = v3(0.3, 0.0, 0.0);
            unsafe { sinew_world_move_grab(w, 2, &t) }
        }),
        ("sinew_world_release_particle", |_, w| {
            sinew_world_release_particle(w, 2)
        }),
    ]
}

/// Collider handles that are not the fixture's live collider.
fn bad_colliders() -> Vec<(&'static str, SinewCollider)> {
    vec![
        ("null collider", SinewCollider { id: 0 }),
        ("generation + 1", SinewCollider { id: (2 << 32) | 1 }),
        ("generation 0", SinewCollider { id: 1 }),
        ("slot never used", SinewCollider { id: (1 << 32) | 9 }),
        ("all ones", SinewCollider { id: u64::MAX }),
    ]
}

/// A small closed mesh: 4 vertices, 4 triangles (12 indices).
fn tetrahedron() -> ([SinewVec3; 4], [u32; 12]) {
    (
        [
            v3(0.0, -1.0, 0.0),
            v3(1.0, -1.0, 0.0),
            v3(0.0, -1.0, 1.0),
            v3(0.0, -0.5, 0.0),
        ],
        [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
    )
}

fn mesh_cases() -> Vec<Case> {
    const F: &str = "sinew_world_add_mesh_collider";
    let mut cases = vec![
        case(F, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let (v, t) = tetrahedron();
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    std::ptr::null(),
                    v.as_ptr(),
                    4,
                    t.as_ptr(),
                    4,
                    c.out.u32().cast(),
                )
            }
        }),
        case(F, "vertices NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let (d, (_, t)) = (collider_desc(), tetrahedron());
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    &d,
                    std::ptr::null(),
                    4,
                    t.as_ptr(),
                    4,
                    c.out.u32().cast(),
                )
            }
        }),
        case(F, "indices NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let (d, (v, _)) = (collider_desc(), tetrahedron());
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    &d,
                    v.as_ptr(),
                    4,
                    std::ptr::null(),
                    4,
                    c.out.u32().cast(),
                )
            }
        }),
        case(F, "out_collider NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let (d, (v, t)) = (collider_desc(), tetrahedron());
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    &d,
                    v.as_ptr(),
                    4,
                    t.as_ptr(),
                    4,
                    std::ptr::null_mut(),
                )
            }
        }),
    ];
    type Edit = fn(&mut SinewColliderDesc, &mut [SinewVec3; 4], &mut [u32; 12], &mut u32, &mut u32);
    let bad: Vec<(&str, SinewStatus, Edit)> = vec![
        (
            "index 4 of 4 vertices",
            SINEW_ERROR_OUT_OF_RANGE,
            |_, _, t, _, _| t[7] = 4,
        ),
        (
            "index u32::MAX",
            SINEW_ERROR_OUT_OF_RANGE,
            |_, _, t, _, _| t[0] = u32::MAX,
        ),
        (
            "3 vertices for indices up to 3",
            SINEW_ERROR_OUT_OF_RANGE,
            |_, _, _, nv, _| *nv = 3,
        ),
        (
            "vertex NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, v, _, _, _| v[2].y = f32::NAN,
        ),
        (
            "vertex inf",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, v, _, _, _| v[0].x = f32::INFINITY,
        ),
        (
            "0 triangles",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, _, _, _, nt| *nt = 0,
        ),
        (
            "0 vertices",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, _, _, nv, _| *nv = 0,
        ),
        (
            "all triangles zero-area",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, _, t, _, _| t.copy_from_slice(&[0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0]),
        ),
        (
            "rotation non-unit",
            SINEW_ERROR_INVALID_ARGUMENT,
            |d, _, _, _, _| d.rotation.w = 3.0,
        ),
        (
            "position NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |d, _, _, _, _| d.position.z = f32::NAN,
        ),
        (
            "restitution 2",
            SINEW_ERROR_INVALID_ARGUMENT,
            |d, _, _, _, _| d.restitution = 2.0,
        ),
        (
            "no cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            |d, _, _, _, _| d.internal_cookie = 7,
        ),
    ];
    for (label, expected, edit) in bad {
        cases.push(case(F, label, expected, move |c| {
            let mut d = collider_desc();
            let (mut v, mut t) = tetrahedron();
            let (mut nv, mut nt) = (4u32, 4u32);
            edit(&mut d, &mut v, &mut t, &mut nv, &mut nt);
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    &d,
                    v.as_ptr(),
                    nv,
                    t.as_ptr(),
                    nt,
                    c.out.u32().cast(),
                )
            }
        }));
    }
    cases
}

#[test]
fn mesh_colliders_reject_bad_input() {
    run_cases(mesh_cases());
}

fn collider_cases() -> Vec<Case> {
    let mut cases = vec![case(
        "sinew_collider_desc_init",
        "out_desc NULL",
        SINEW_ERROR_NULL_POINTER,
        |_| unsafe { sinew_collider_desc_init(std::ptr::null_mut()) },
    )];
    const ADD: &str = "sinew_world_add_collider";
    cases.push(case(
        ADD,
        "desc NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_add_collider(c.world, std::ptr::null(), c.out.u32().cast()) },
    ));
    cases.push(case(
        ADD,
        "out_collider NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| {
            let d = collider_desc();
            unsafe { sinew_world_add_collider(c.world, &d, std::ptr::null_mut()) }
        },
    ));
    type Edit = fn(&mut SinewColliderDesc);
    let bad: Vec<(&str, Edit)> = vec![
        ("no cookie", |d| d.internal_cookie = 0),
        ("shape 4 (mesh without triangles)", |d| d.shape = 4),
        ("shape 5", |d| d.shape = 5),
        ("shape u32::MAX", |d| d.shape = u32::MAX),
        ("sphere radius -1", |d| {
            d.shape = 1;
            d.radius = -1.0
        }),
        ("sphere radius NaN", |d| {
            d.shape = 1;
            d.radius = f32::NAN
        }),
        ("sphere radius 0", |d| {
            d.shape = 1;
            d.radius = 0.0
        }),
        ("capsule half_height 0", |d| {
            d.shape = 2;
            d.half_height = 0.0
        }),
        ("capsule radius inf", |d| {
            d.shape = 2;
            d.radius = f32::INFINITY
        }),
        ("box zero size (y 0)", |d| {
            d.shape = 3;
            d.half_extents.y = 0.0
        }),
        ("box negative x", |d| {
            d.shape = 3;
            d.half_extents.x = -0.5
        }),
        ("box NaN z", |d| {
            d.shape = 3;
            d.half_extents.z = f32::NAN
        }),
        ("position NaN", |d| d.position.x = f32::NAN),
        ("position 2e9", |d| d.position.y = 2e9),
        ("rotation NaN", |d| d.rotation.x = f32::NAN),
        ("rotation non-unit (w 2)", |d| d.rotation.w = 2.0),
        ("rotation zero", |d| d.rotation.w = 0.0),
        ("static_friction -0.1", |d| d.static_friction = -0.1),
        ("static_friction NaN", |d| d.static_friction = f32::NAN),
        ("dynamic_friction inf", |d| {
            d.dynamic_friction = f32::INFINITY
        }),
        ("restitution -0.1", |d| d.restitution = -0.1),
        ("restitution 1.5", |d| d.restitution = 1.5),
        ("restitution NaN", |d| d.restitution = f32::NAN),
    ];
    for (label, edit) in bad {
        cases.push(case(ADD, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = collider_desc();
            edit(&mut d);
            unsafe { sinew_world_add_collider(c.world, &d, c.out.u32().cast()) }
        }));
    }
    for (label, bad) in bad_colliders() {
        cases.push(case(
            "sinew_collider_remove",
            label,
            SINEW_ERROR_INVALID_HANDLE,
            move |c| sinew_collider_remove(c.world, bad),
        ));
        cases.push(case(
            "sinew_collider_set_material",
            label,
            SINEW_ERROR_INVALID_HANDLE,
            move |c| sinew_collider_set_material(c.world, bad, 0.1, 0.1, 0.1),
        ));
        cases.push(case(
            "sinew_collider_set_transform",
            label,
            SINEW_ERROR_INVALID_HANDLE,
            move |c| {
                let p = v3(0.0, 0.0, 0.0);
                let q = SinewQuat {
                    x: 0.0,
                    y: 0.0,
                    z: 0.0,
                    w: 1.0,
                };
                unsafe { sinew_collider_set_transform(c.world, bad, &p, &q, 0) }
            },
        ));
    }
    const TF: &str = "sinew_collider_set_transform";
    let unit = SinewQuat {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };
    let transforms: Vec<(&str, SinewVec3, SinewQuat, u32)> = vec![
        ("position NaN", v3(f32::NAN, 0.0, 0.0), unit, 0),
        ("position -inf", v3(0.0, f32::NEG_INFINITY, 0.0), unit, 0),
        (
            "rotation non-unit",
            v3(0.0, 0.0, 0.0),
            SinewQuat { w: 0.5, ..unit },
            0,
        ),
        (
            "rotation zero",
            v3(0.0, 0.0, 0.0),
            SinewQuat { w: 0.0, ..unit },
            0,
        ),
        (
            "rotation NaN",
            v3(0.0, 0.0, 0.0),
            SinewQuat {
                y: f32::NAN,
                ..unit
            },
            0,
        ),
        ("teleport 2", v3(0.0, 0.0, 0.0), unit, 2),
    ];
    for (label, p, q, teleport) in transforms {
        cases.push(case(
            TF,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                sinew_collider_set_transform(c.world, FIXTURE_COLLIDER, &p, &q, teleport)
            },
        ));
    }
    cases.push(case(
        TF,
        "position NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| unsafe {
            sinew_collider_set_transform(c.world, FIXTURE_COLLIDER, std::ptr::null(), &unit, 0)
        },
    ));
    cases.push(case(
        TF,
        "rotation NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| {
            let p = v3(0.0, 0.0, 0.0);
            unsafe {
                sinew_collider_set_transform(c.world, FIXTURE_COLLIDER, &p, std::ptr::null(), 0)
            }
        },
    ));
    const MAT: &str = "sinew_collider_set_material";
    for (label, s, d, e) in [
        ("static -1", -1.0f32, 0.1f32, 0.0f32),
        ("static NaN", f32::NAN, 0.1, 0.0),
        ("dynamic -0.5", 0.1, -0.5, 0.0),
        ("dynamic 1e9", 0.1, 1e9, 0.0),
        ("restitution -0.01", 0.1, 0.1, -0.01),
        ("restitution 1.01", 0.1, 0.1, 1.01),
        ("restitution inf", 0.1, 0.1, f32::INFINITY),
    ] {
        cases.push(case(MAT, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            sinew_collider_set_material(c.world, FIXTURE_COLLIDER, s, d, e)
        }));
    }
    cases.push(case(
        "sinew_world_collider_count",
        "out_count NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_collider_count(c.world, std::ptr::null_mut()) },
    ));
    cases
}

type SetFloatsFn = unsafe extern "C" fn(SinewWorld, u32, u32, *const f32) -> SinewStatus;

fn per_particle_float_cases(
    f: &'static str,
    set: SetFloatsFn,
    good: f32,
    bad: &[(&'static str, f32)],
) -> Vec<Case> {
    let mut cases = vec![
        case(
            f,
            "values NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe { set(c.world, 0, 1, std::ptr::null()) },
        ),
        case(
            f,
            "values misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let v = Misaligned::new(&[good, good]);
                unsafe { set(c.world, 0, 2, v.ptr()) }
            },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(N) {
        cases.push(case(f, label, expected, move |c| {
            let v = vec![good; count.max(1) as usize];
            unsafe { set(c.world, first, count, v.as_ptr()) }
        }));
    }
    for &(label, value) in bad {
        cases.push(case(
            f,
            format!("last of {N} {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let v = [good, good, good, value];
                unsafe { set(c.world, 0, N, v.as_ptr()) }
            },
        ));
    }
    cases
}

fn particle_property_cases() -> Vec<Case> {
    let mut cases = per_particle_float_cases(
        "sinew_world_set_particle_radii",
        sinew_world_set_particle_radii,
        0.05,
        &[
            ("-0.01 (negative radius)", -0.01),
            ("NaN", f32::NAN),
            ("+inf", f32::INFINITY),
            ("2e9", 2e9),
        ],
    );
    cases.extend(per_particle_float_cases(
        "sinew_world_set_unyielding",
        sinew_world_set_unyielding,
        1.0,
        &[("-0.1", -0.1), ("1.1", 1.1), ("NaN", f32::NAN)],
    ));
    const F: &str = "sinew_world_set_collision_filters";
    let good = SinewCollisionFilter {
        group: 3,
        layers: 1,
        mask: u32::MAX,
        self_collision: 1,
    };
    cases.push(case(
        F,
        "filters NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_set_collision_filters(c.world, 0, 1, std::ptr::null()) },
    ));
    for (label, first, count, expected) in bad_ranges(N) {
        cases.push(case(F, label, expected, move |c| {
            let v = vec![good; count.max(1) as usize];
            unsafe { sinew_world_set_collision_filters(c.world, first, count, v.as_ptr()) }
        }));
    }
    cases.push(case(
        F,
        "last self_collision 2",
        SINEW_ERROR_INVALID_ARGUMENT,
        move |c| {
            let mut v = [good; N as usize];
            v[3].self_collision = 2;
            unsafe { sinew_world_set_collision_filters(c.world, 0, N, v.as_ptr()) }
        },
    ));
    cases
}

fn contact_cases() -> Vec<Case> {
    const F: &str = "sinew_world_read_contacts";
    let mut cases: Vec<Case> = [
        ("-1", -1.0f32),
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("2e9", 2e9),
    ]
    .into_iter()
    .map(|(label, v)| {
        case(
            "sinew_world_set_max_speed",
            format!("max_speed {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_world_set_max_speed(c.world, v),
        )
    })
    .collect();
    cases.extend(vec![
        case(
            "sinew_world_contact_count",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_contact_count(c.world, std::ptr::null_mut()) },
        ),
        case(F, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_read_contacts(c.world, std::ptr::null_mut(), 8, c.out.u32())
        }),
        case(F, "out_count NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_read_contacts(c.world, c.out.bytes().cast(), 8, std::ptr::null_mut())
        }),
        case(
            F,
            "out misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let mut n = 0u32;
                sinew_world_read_contacts(c.world, c.out.misaligned(), 2, &mut n)
            },
        ),
    ]);
    cases
}

fn interaction_cases() -> Vec<Case> {
    const PICK: &str = "sinew_world_pick_particle";
    let mut cases = Vec::new();
    let (o, d) = (v3(0.1, 0.0, -1.0), v3(0.0, 0.0, 1.0));
    cases.push(case(
        PICK,
        "origin NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| {
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(c.world, std::ptr::null(), &d, 0.1, c.out.u32(), f) }
        },
    ));
    cases.push(case(
        PICK,
        "direction NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| {
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(c.world, &o, std::ptr::null(), 0.1, c.out.u32(), f) }
        },
    ));
    cases.push(case(
        PICK,
        "out_particle NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| {
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(c.world, &o, &d, 0.1, std::ptr::null_mut(), f) }
        },
    ));
    cases.push(case(
        PICK,
        "out_distance NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| unsafe {
            sinew_world_pick_particle(c.world, &o, &d, 0.1, c.out.u32(), std::ptr::null_mut())
        },
    ));
    for (label, origin, dir, radius) in [
        ("zero direction", o, v3(0.0, 0.0, 0.0), 0.1f32),
        ("NaN direction", o, v3(f32::NAN, 0.0, 1.0), 0.1),
        ("inf direction", o, v3(0.0, f32::INFINITY, 0.0), 0.1),
        ("NaN origin", v3(0.0, f32::NAN, 0.0), d, 0.1),
        ("radius -1", o, d, -1.0),
        ("radius NaN", o, d, f32::NAN),
    ] {
        cases.push(case(PICK, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(c.world, &origin, &dir, radius, c.out.u32(), f) }
        }));
    }
    const GRAB: &str = "sinew_world_grab_particle";
    let t = v3(0.1, 0.1, 0.0);
    cases.push(case(
        GRAB,
        "target NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_grab_particle(c.world, 1, std::ptr::null(), 0.0) },
    ));
    cases.push(case(
        GRAB,
        "particle N",
        SINEW_ERROR_OUT_OF_RANGE,
        move |c| unsafe { sinew_world_grab_particle(c.world, N, &t, 0.0) },
    ));
    cases.push(case(
        GRAB,
        "particle u32::MAX",
        SINEW_ERROR_OUT_OF_RANGE,
        move |c| unsafe { sinew_world_grab_particle(c.world, u32::MAX, &t, 0.0) },
    ));
    for (label, particle, target, compliance) in [
        ("pinned particle 0", 0u32, t, 0.0f32),
        ("target NaN", 1, v3(f32::NAN, 0.0, 0.0), 0.0),
        ("compliance -1", 1, t, -1.0),
        ("compliance NaN", 1, t, f32::NAN),
        ("compliance inf", 1, t, f32::INFINITY),
        ("regrab 2 with compliance -1", 2, t, -1.0),
    ] {
        cases.push(case(
            GRAB,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { sinew_world_grab_particle(c.world, particle, &target, compliance) },
        ));
    }
    const MOVE: &str = "sinew_world_move_grab";
    cases.push(case(
        MOVE,
        "target NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_move_grab(c.world, 2, std::ptr::null()) },
    ));
    cases.push(case(
        MOVE,
        "particle not grabbed",
        SINEW_ERROR_INVALID_ARGUMENT,
        move |c| unsafe { sinew_world_move_grab(c.world, 1, &t) },
    ));
    cases.push(case(
        MOVE,
        "target inf",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| {
            let bad = v3(0.0, f32::INFINITY, 0.0);
            unsafe { sinew_world_move_grab(c.world, 2, &bad) }
        },
    ));
    const REL: &str = "sinew_world_release_particle";
    cases.push(case(
        REL,
        "particle not grabbed",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| sinew_world_release_particle(c.world, 1),
    ));
    cases.push(case(
        REL,
        "particle u32::MAX",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| sinew_world_release_particle(c.world, u32::MAX),
    ));
    cases
}

#[test]
fn colliders_reject_bad_input() {
    run_cases(collider_cases());
}

#[test]
fn particle_collision_properties_reject_bad_input() {
    run_cases(particle_property_cases());
}

#[test]
fn contact_readback_rejects_bad_input() {
    run_cases(contact_cases());
}

#[test]
fn pick_and_grab_reject_bad_input() {
    run_cases(interaction_cases());
}

/// The fixture's collision state is live: its plane, radii and grab act in the step.
#[test]
fn fixture_collisions_are_live() {
    let w = make_world();
    assert_eq!(collider_count(w), 1);
    let mut before = [v3(0.0, 0.0, 0.0); N as usize];
    let mut after = before;
    // SAFETY: buffers of N elements.
    unsafe {
        ok(
            sinew_world_read_positions(w, 0, N, before.as_mut_ptr().cast(), 12),
            "read",
        );
        for _ in 0..30 {
            ok(sinew_world_step(w, DT), "step");
        }
        ok(
            sinew_world_read_positions(w, 0, N, after.as_mut_ptr().cast(), 12),
            "read",
        );
        let mut n = 0u32;
        ok(sinew_world_contact_count(w, &mut n), "contact_count");
        assert!(n >= 1, "particle 3 rests on the plane: {n} contacts");
        let mut contacts = [SinewContact::default(); 4];
        let mut written = 0;
        ok(
            sinew_world_read_contacts(w, contacts.as_mut_ptr(), 4, &mut written),
            "read_contacts",
        );
        assert_eq!(written, n.min(4));
        assert_eq!(contacts[0].collider, FIXTURE_COLLIDER);
        assert!((contacts[0].normal.y - 1.0).abs() < 1e-5);
        assert!(contacts[0].impulse > 0.0);
    }
    assert!(after[3].y >= -0.12 + 0.02 - 1e-3, "{:?}", after[3]);
    ok(sinew_world_destroy(w), "destroy");
}
