//! Bad input for dynamic colliders and pins (src/ffi/dynamics.rs), in the tables of
//! bad_input.rs (same fixture and checks: status, message, outputs untouched, world
//! unchanged).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so; handles
//! may be stale or forged on purpose, which the ABI checks by generation and never
//! dereferences.

use super::*;
use sinew::ffi::dynamics::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };

/// A valid host body: 2 kg, unit inertia.
fn body() -> SinewColliderDynamics {
    SinewColliderDynamics {
        mass: 2.0,
        inertia: v3(1.0, 1.0, 1.0),
        inertia_rotation: SinewQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        },
        ..SinewColliderDynamics::default()
    }
}

fn forged_collider(c: &Ctx) -> SinewCollider {
    SinewCollider {
        id: fixture_collider(c.world).id + (5 << 24),
    }
}

type DynamicsEdit = fn(&mut SinewColliderDynamics);

/// Every bad value of a host body, one field at a time.
fn bad_bodies() -> Vec<(&'static str, DynamicsEdit)> {
    vec![
        ("mass 0", |d| d.mass = 0.0),
        ("mass negative", |d| d.mass = -1.0),
        ("mass NaN", |d| d.mass = f32::NAN),
        ("mass above 1e12", |d| d.mass = 1e13),
        ("inertia NaN", |d| d.inertia.y = f32::NAN),
        ("inertia negative", |d| d.inertia.z = -1.0),
        ("inertia 0", |d| d.inertia.x = 0.0),
        ("inertia rotation zero", |d| d.inertia_rotation.w = 0.0),
        ("inertia rotation NaN", |d| d.inertia_rotation.x = f32::NAN),
        ("centre of mass NaN", |d| d.center_of_mass.x = f32::NAN),
        ("velocity infinite", |d| d.velocity.y = f32::INFINITY),
        ("angular velocity above 1e6", |d| d.angular_velocity.z = 1e7),
        ("gravity 2", |d| d.gravity = 2),
    ]
}

fn set_cases() -> Vec<Case> {
    const F: &str = "sinew_collider_set_dynamics";
    let mut cases = vec![
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_collider_set_dynamics(NULL_WORLD, fixture_collider(c.world), &body())
        }),
        case(
            F,
            "forged collider",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe { sinew_collider_set_dynamics(c.world, forged_collider(c), &body()) },
        ),
        case(F, "dynamics NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_collider_set_dynamics(c.world, fixture_collider(c.world), std::ptr::null())
        }),
        case(
            "sinew_collider_clear_dynamics",
            "forged collider",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_collider_clear_dynamics(c.world, forged_collider(c)),
        ),
        case(
            "sinew_collider_clear_dynamics",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_collider_clear_dynamics(NULL_WORLD, fixture_collider(c.world)),
        ),
    ];
    for (label, edit) in bad_bodies() {
        cases.push(case(
            F,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = body();
                edit(&mut d);
                sinew_collider_set_dynamics(c.world, fixture_collider(c.world), &d)
            },
        ));
    }
    cases
}

fn motion_cases() -> Vec<Case> {
    const F: &str = "sinew_collider_read_motion";
    let untouched = |s: SinewStatus, m: SinewColliderMotion| {
        assert_eq!(m.velocity.x, 7.0, "out untouched");
        s
    };
    let seven = || SinewColliderMotion {
        velocity: v3(7.0, 7.0, 7.0),
        ..SinewColliderMotion::default()
    };
    vec![
        case(
            F,
            "kinematic collider",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut m = seven();
                let s = sinew_collider_read_motion(c.world, fixture_collider(c.world), &mut m);
                untouched(s, m)
            },
        ),
        case(
            F,
            "forged collider",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                let mut m = seven();
                let s = sinew_collider_read_motion(c.world, forged_collider(c), &mut m);
                untouched(s, m)
            },
        ),
        case(F, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_collider_read_motion(c.world, fixture_collider(c.world), std::ptr::null_mut())
        }),
    ]
}

fn pin_cases() -> Vec<Case> {
    const F: &str = "sinew_collider_pin_particles";
    let pin = |c: &mut Ctx, particles: &[u32], offset: SinewVec3, compliance: f32| {
        let offsets = vec![offset; particles.len()];
        let mut first = 7u32;
        // SAFETY: see the file's header.
        let s = unsafe {
            sinew_collider_pin_particles(
                c.world,
                fixture_collider(c.world),
                particles.as_ptr(),
                offsets.as_ptr(),
                particles.len() as u32,
                compliance,
                &mut first,
            )
        };
        assert_eq!(first, 7, "out_first untouched");
        s
    };
    vec![
        case(F, "count 0", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            pin(c, &[], v3(0.0, 0.0, 0.0), 0.0)
        }),
        case(
            F,
            "particle past the end",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| pin(c, &[0, N], v3(0.0, 0.0, 0.0), 0.0),
        ),
        case(F, "offset NaN", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            pin(c, &[0], v3(f32::NAN, 0.0, 0.0), 0.0)
        }),
        case(
            F,
            "compliance negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| pin(c, &[0], v3(0.0, 0.0, 0.0), -1.0),
        ),
        case(
            F,
            "compliance infinite",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| pin(c, &[0], v3(0.0, 0.0, 0.0), f32::INFINITY),
        ),
        // Finite but past SINEW_MAX_COMPLIANCE: α / h² overflowed, and the first
        // projection's α̃ λ (∞ · 0) made a NaN pin force (found by the API fuzzer).
        case(
            F,
            "compliance past the maximum",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| pin(c, &[0], v3(0.0, 0.0, 0.0), 1.0e30),
        ),
        case(F, "particles NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let o = [v3(0.0, 0.0, 0.0)];
            let mut first = 0;
            sinew_collider_pin_particles(
                c.world,
                fixture_collider(c.world),
                std::ptr::null(),
                o.as_ptr(),
                1,
                0.0,
                &mut first,
            )
        }),
        case(F, "offsets NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut first = 0;
            sinew_collider_pin_particles(
                c.world,
                fixture_collider(c.world),
                [0u32].as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                &mut first,
            )
        }),
        case(F, "out_first NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let o = [v3(0.0, 0.0, 0.0)];
            sinew_collider_pin_particles(
                c.world,
                fixture_collider(c.world),
                [0u32].as_ptr(),
                o.as_ptr(),
                1,
                0.0,
                std::ptr::null_mut(),
            )
        }),
        case(
            F,
            "forged collider",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe {
                let o = [v3(0.0, 0.0, 0.0)];
                let mut first = 0;
                sinew_collider_pin_particles(
                    c.world,
                    forged_collider(c),
                    [0u32].as_ptr(),
                    o.as_ptr(),
                    1,
                    0.0,
                    &mut first,
                )
            },
        ),
        case(
            "sinew_world_remove_pins",
            "no pins",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| sinew_world_remove_pins(c.world, 0, 1),
        ),
        case(
            "sinew_world_remove_pins",
            "count 0",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| sinew_world_remove_pins(c.world, 0, 0),
        ),
        case(
            "sinew_world_remove_pins",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_world_remove_pins(NULL_WORLD, 0, 1),
        ),
        case(
            "sinew_world_read_pin_forces",
            "no pins",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe {
                let mut out = [v3(7.0, 7.0, 7.0)];
                let s = sinew_world_read_pin_forces(c.world, 0, 1, out.as_mut_ptr());
                assert_eq!(out[0].x, 7.0, "out untouched");
                s
            },
        ),
        case(
            "sinew_world_read_pin_forces",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_read_pin_forces(c.world, 0, 1, std::ptr::null_mut()) },
        ),
    ]
}

pub fn tables() -> Vec<Vec<Case>> {
    vec![set_cases(), motion_cases(), pin_cases()]
}
