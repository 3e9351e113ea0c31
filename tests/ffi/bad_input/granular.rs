//! Bad input for the granular materials (sinew_particle_material_init,
//! sinew_world_set_particle_material, sinew_world_particle_material) and the grain
//! emitters (sinew_grain_emitter_desc_init, sinew_world_add_grain_emitter,
//! sinew_grain_emitter_set, sinew_grain_emitter_remove, sinew_grain_emitter_stats), in the tables of
//! bad_input.rs (same fixture and checks: status, message, outputs untouched, world
//! unchanged).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for what
//! the call may write, or NULL on purpose where the case's name says so; handles may be
//! forged on purpose, which the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::granular::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };

/// The defaults need no input and cannot fail.
pub(super) const INFALLIBLE: [&str; 2] = [
    "sinew_particle_material_default",
    "sinew_grain_emitter_desc_default",
];

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

/// A valid grain desc: 10 grains of 1 cm.
fn grains() -> SinewGrainEmitterDesc {
    let mut d = sinew_grain_emitter_desc_default();
    d.budget = 10;
    d.grain_radius = 0.01;
    d
}

/// A valid stream: the default nozzle, 5 cm wide.
fn stream() -> sinew::ffi::fluids::SinewEmitterDesc {
    let mut d = sinew::ffi::fluids::sinew_emitter_desc_default();
    d.radius = 0.05;
    d
}

type GrainsEdit = fn(&mut SinewGrainEmitterDesc);

/// Every bad value of a grain desc, one field at a time.
fn bad_grains() -> Vec<(&'static str, GrainsEdit)> {
    vec![
        ("grains cookie", |d| d.internal_cookie ^= 1),
        ("budget 0", |d| d.budget = 0),
        ("budget above max", |d| {
            d.budget = SINEW_MAX_GRAIN_BUDGET + 1
        }),
        ("radius 0", |d| d.grain_radius = 0.0),
        ("radius NaN", |d| d.grain_radius = f32::NAN),
        ("density negative", |d| d.grain_density = -1.0),
        ("grains too light", |d| {
            d.grain_radius = 1e-6;
            d.grain_density = 1e-3;
        }),
        ("self_collision flag 2", |d| d.self_collision = 2),
    ]
}

fn emitter_cases() -> Vec<Case> {
    const F: &str = "sinew_world_add_grain_emitter";
    let none = SinewGrainEmitter { id: 0 };
    let made_up = SinewGrainEmitter { id: 1 };
    let mut cases = vec![
        case(
            "sinew_grain_emitter_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_grain_emitter_desc_init(std::ptr::null_mut()) },
        ),
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let mut e = SinewGrainEmitter { id: 0 };
            sinew_world_add_grain_emitter(NULL_WORLD, &grains(), &stream(), &sand(), &mut e)
        }),
        case(F, "world forged", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let mut e = SinewGrainEmitter { id: 0 };
            sinew_world_add_grain_emitter(forged(c), &grains(), &stream(), &sand(), &mut e)
        }),
        case(F, "grains NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut e = SinewGrainEmitter { id: 0 };
            sinew_world_add_grain_emitter(c.world, std::ptr::null(), &stream(), &sand(), &mut e)
        }),
        case(F, "stream NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut e = SinewGrainEmitter { id: 0 };
            sinew_world_add_grain_emitter(c.world, &grains(), std::ptr::null(), &sand(), &mut e)
        }),
        case(F, "material NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut e = SinewGrainEmitter { id: 0 };
            sinew_world_add_grain_emitter(c.world, &grains(), &stream(), std::ptr::null(), &mut e)
        }),
        case(F, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_grain_emitter(
                c.world,
                &grains(),
                &stream(),
                &sand(),
                std::ptr::null_mut(),
            )
        }),
        case(
            F,
            "nozzle wider than the lattice",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let mut e = SinewGrainEmitter { id: 0 };
                let mut s = stream();
                s.radius = 100.0;
                sinew_world_add_grain_emitter(c.world, &grains(), &s, &sand(), &mut e)
            },
        ),
        case(
            F,
            "stream cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let mut e = SinewGrainEmitter { id: 0 };
                let mut s = stream();
                s.internal_cookie ^= 1;
                sinew_world_add_grain_emitter(c.world, &grains(), &s, &sand(), &mut e)
            },
        ),
        case(
            F,
            "material dynamic above static",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let mut e = SinewGrainEmitter { id: 0 };
                let mut m = sand();
                m.dynamic_friction = 0.9;
                sinew_world_add_grain_emitter(c.world, &grains(), &stream(), &m, &mut e)
            },
        ),
        case(
            "sinew_grain_emitter_set",
            "stream NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe { sinew_grain_emitter_set(c.world, made_up, std::ptr::null()) },
        ),
        case(
            "sinew_grain_emitter_set",
            "emitter null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe { sinew_grain_emitter_set(c.world, none, &stream()) },
        ),
        case(
            "sinew_grain_emitter_set",
            "world forged",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe { sinew_grain_emitter_set(forged(c), made_up, &stream()) },
        ),
        case(
            "sinew_grain_emitter_remove",
            "emitter made up",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| sinew_grain_emitter_remove(c.world, made_up),
        ),
        case(
            "sinew_grain_emitter_remove",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |_| sinew_grain_emitter_remove(NULL_WORLD, made_up),
        ),
        case(
            "sinew_grain_emitter_stats",
            "emitter null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                let mut s = SinewGrainEmitterStats::default();
                sinew_grain_emitter_stats(c.world, none, &mut s)
            },
        ),
        case(
            "sinew_grain_emitter_stats",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe { sinew_grain_emitter_stats(c.world, made_up, std::ptr::null_mut()) },
        ),
    ];
    for (label, edit) in bad_grains() {
        cases.push(case(
            F,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = grains();
                edit(&mut d);
                let mut e = SinewGrainEmitter { id: 0 };
                sinew_world_add_grain_emitter(c.world, &d, &stream(), &sand(), &mut e)
            },
        ));
    }
    cases
}

pub fn tables() -> Vec<Vec<Case>> {
    vec![set_cases(), get_cases(), emitter_cases()]
}
