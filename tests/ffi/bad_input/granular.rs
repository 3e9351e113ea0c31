//! Bad input for the granular materials (sinew_particle_material_init,
//! sinew_world_set_particle_material, sinew_world_particle_material), in the tables of
//! bad_input.rs (same fixture and checks: status, message, outputs untouched, world
//! unchanged).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for what
//! the call may write, or NULL on purpose where the case's name says so; handles may be
//! forged on purpose, which the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::granular::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };

/// sinew_particle_material_default needs no input and cannot fail.
pub(super) const INFALLIBLE: [&str; 1] = ["sinew_particle_material_default"];

fn forged(c: &Ctx) -> SinewWorld {
    SinewWorld {
        id: c.world.id ^ (1 << 40),
    }
}

/// A valid material: friction 0.5 / 0.4.
fn sand() -> SinewParticleMaterial {
    let mut m = sinew_particle_material_default();
    m.static_friction = 0.5;
    m.dynamic_friction = 0.4;
    m
}

type MaterialEdit = fn(&mut SinewParticleMaterial);

/// Every bad value of a material, one field at a time.
fn bad_materials() -> Vec<(&'static str, MaterialEdit)> {
    vec![
        ("cookie", |m| m.internal_cookie ^= 1),
        ("static friction negative", |m| m.static_friction = -0.1),
        ("static friction NaN", |m| m.static_friction = f32::NAN),
        ("dynamic friction above static", |m| {
            m.dynamic_friction = 0.6
        }),
        ("rolling friction infinite", |m| {
            m.rolling_friction = f32::INFINITY
        }),
        ("cohesion negative", |m| m.cohesion = -1.0),
        ("cohesion above max", |m| m.cohesion = 1e30),
    ]
}

fn set_cases() -> Vec<Case> {
    const F: &str = "sinew_world_set_particle_material";
    let mut cases = vec![
        case(
            "sinew_particle_material_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_particle_material_init(std::ptr::null_mut()) },
        ),
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            sinew_world_set_particle_material(NULL_WORLD, 0, 1, &sand())
        }),
        case(F, "world forged", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_set_particle_material(forged(c), 0, 1, &sand())
        }),
        case(F, "material NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_set_particle_material(c.world, 0, 1, std::ptr::null())
        }),
        case(F, "count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            sinew_world_set_particle_material(c.world, 0, 0, &sand())
        }),
        case(
            F,
            "range past the end",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe { sinew_world_set_particle_material(c.world, N - 1, 2, &sand()) },
        ),
        case(F, "first u32::MAX", SINEW_ERROR_OUT_OF_RANGE, |c| unsafe {
            sinew_world_set_particle_material(c.world, u32::MAX, 1, &sand())
        }),
    ];
    for (label, edit) in bad_materials() {
        cases.push(case(
            F,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut m = sand();
                edit(&mut m);
                sinew_world_set_particle_material(c.world, 0, N, &m)
            },
        ));
    }
    cases
}

fn get_cases() -> Vec<Case> {
    const F: &str = "sinew_world_particle_material";
    vec![
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let mut m = sinew_particle_material_default();
            sinew_world_particle_material(NULL_WORLD, 0, &mut m)
        }),
        case(F, "world forged", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let mut m = sinew_particle_material_default();
            sinew_world_particle_material(forged(c), 0, &mut m)
        }),
        case(
            F,
            "index past the end",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe {
                let mut m = sinew_particle_material_default();
                sinew_world_particle_material(c.world, N, &mut m)
            },
        ),
        case(F, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_particle_material(c.world, 0, std::ptr::null_mut())
        }),
    ]
}

pub fn tables() -> Vec<Vec<Case>> {
    vec![set_cases(), get_cases()]
}
