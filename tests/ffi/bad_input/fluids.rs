//! Bad input for fluids (src/ffi/fluids.rs), in the tables of bad_input.rs (same
//! fixture and checks: null pointers, cookies, enum values, flags, strides, alpha,
//! null and forged handles, and every bad FluidDesc value on sinew_world_add_fluid),
//! plus the values that need a fluid on a world holding one
//! (`fluid_values_are_checked_and_change_nothing`): emitting past the capacity, NaN
//! positions and velocities, changing the capacity or spacing, bad emitter and kill
//! volume descs, stale fluid, emitter and kill-volume handles, a readback capacity
//! below the live count. Each: a status, a message naming the function, no output
//! written, nothing changed (one more step equals a control world's step).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::bodies_cases::body_snapshot;
use super::*;
use sinew::ffi::bodies::*;
use sinew::ffi::families::sinew_world_add_tethers;
use sinew::ffi::fluids::*;

#[path = "fluid_pointers.rs"]
mod fluid_pointers;
use fluid_pointers::{pointer_cases, read_cases};
#[path = "fluid_world.rs"]
mod fluid_world;
use fluid_world::{
    block, fluid_call, fluid_snapshot, fluid_value_calls, fluid_world, FluidCall, FluidWorld,
};
#[path = "fluid_values.rs"]
mod fluid_values;
use fluid_values::fluid_particle_edit_calls;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_FLUID: SinewFluid = SinewFluid {
    id: 0x0000_1234_0000_0001,
};
const FORGED_EMITTER: SinewEmitter = SinewEmitter {
    id: 0x0000_1234_0000_0001,
};
const FORGED_VOLUME: SinewKillVolume = SinewKillVolume {
    id: 0x0000_1234_0000_0001,
};
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};
const ZERO_QUAT: SinewQuat = SinewQuat {
    x: 0.0,
    y: 0.0,
    z: 0.0,
    w: 0.0,
};

type FluidEdit = fn(&mut SinewFluidDesc);

/// Every bad value of a fluid desc, one field at a time.
fn bad_fluid_descs() -> Vec<(&'static str, FluidEdit)> {
    vec![
        ("cookie", |d| d.internal_cookie = 0),
        ("rest density 0", |d| d.rest_density = 0.0),
        ("rest density negative", |d| d.rest_density = -1000.0),
        ("rest density NaN", |d| d.rest_density = f32::NAN),
        ("rest density above max", |d| {
            d.rest_density = SINEW_MAX_REST_DENSITY * 2.0
        }),
        ("spacing 0", |d| d.spacing = 0.0),
        ("spacing negative", |d| d.spacing = -0.05),
        ("spacing below min", |d| {
            d.spacing = SINEW_MIN_FLUID_SPACING / 2.0
        }),
        ("spacing above max", |d| {
            d.spacing = SINEW_MAX_FLUID_SPACING * 2.0
        }),
        ("spacing infinite", |d| d.spacing = f32::INFINITY),
        ("smoothing radius below spacing", |d| {
            d.smoothing_radius = 0.5 * d.spacing
        }),
        ("smoothing radius above 4 spacing", |d| {
            d.smoothing_radius = 4.5 * d.spacing
        }),
        ("smoothing radius NaN", |d| d.smoothing_radius = f32::NAN),
        ("capacity 0", |d| d.capacity = 0),
        ("capacity above max", |d| {
            d.capacity = SINEW_MAX_FLUID_CAPACITY + 1
        }),
        ("capacity u32 max", |d| d.capacity = u32::MAX),
        ("relaxation negative", |d| d.relaxation = -1.0),
        ("relaxation NaN", |d| d.relaxation = f32::NAN),
        ("scorr k negative", |d| d.scorr_k = -0.1),
        ("scorr n 0", |d| d.scorr_n = 0),
        ("scorr n 9", |d| d.scorr_n = 9),
        ("scorr dq 0.95", |d| d.scorr_dq = 0.95),
        ("viscosity 1.5", |d| d.viscosity = 1.5),
        ("vorticity NaN", |d| d.vorticity = f32::NAN),
        ("cohesion negative", |d| d.cohesion = -1.0),
        ("adhesion infinite", |d| d.adhesion = f32::INFINITY),
        ("collision radius above spacing", |d| {
            d.collision_radius = 2.0 * d.spacing
        }),
        ("collision radius NaN", |d| d.collision_radius = f32::NAN),
        ("lifetime negative", |d| d.lifetime = -1.0),
        ("lifetime above max", |d| {
            d.lifetime = SINEW_MAX_FLUID_LIFETIME * 2.0
        }),
        ("recycle_oldest 2", |d| d.recycle_oldest = 2),
    ]
}

type EmitterEdit = fn(&mut SinewEmitterDesc);

fn bad_emitter_descs() -> Vec<(&'static str, EmitterEdit)> {
    vec![
        ("cookie", |d| d.internal_cookie ^= 1),
        ("shape 2", |d| d.shape = 2),
        ("nozzle radius negative", |d| d.radius = -0.1),
        ("nozzle radius NaN", |d| d.radius = f32::NAN),
        ("box half extent negative", |d| {
            d.shape = SinewEmitterShape::SINEW_EMITTER_BOX as u32;
            d.half_extents.y = -1.0;
        }),
        ("box half extent NaN", |d| {
            d.shape = SinewEmitterShape::SINEW_EMITTER_BOX as u32;
            d.half_extents.z = f32::NAN;
        }),
        ("position NaN", |d| d.position.x = f32::NAN),
        ("position beyond 1e9", |d| d.position.y = 2e9),
        ("rotation zero", |d| d.rotation = ZERO_QUAT),
        ("rotation NaN", |d| d.rotation.w = f32::NAN),
        ("speed negative", |d| d.speed = -1.0),
        ("speed above max", |d| d.speed = SINEW_MAX_EMIT_SPEED * 2.0),
        ("rate negative", |d| d.rate = -1.0),
        ("rate above max", |d| d.rate = SINEW_MAX_EMIT_RATE * 2.0),
        ("rate NaN", |d| d.rate = f32::NAN),
    ]
}

type VolumeEdit = fn(&mut SinewKillVolumeDesc);

fn bad_volume_descs() -> Vec<(&'static str, VolumeEdit)> {
    vec![
        ("cookie", |d| d.internal_cookie = 0),
        ("shape 3", |d| d.shape = 3),
        ("box center NaN", |d| d.center.x = f32::NAN),
        ("box half extent negative", |d| d.half_extents.x = -1.0),
        ("box rotation zero", |d| d.rotation = ZERO_QUAT),
        ("sphere radius negative", |d| {
            d.shape = SinewKillVolumeShape::SINEW_KILL_VOLUME_SPHERE as u32;
            d.radius = -1.0;
        }),
        ("sphere center beyond 1e9", |d| {
            d.shape = SinewKillVolumeShape::SINEW_KILL_VOLUME_SPHERE as u32;
            d.center.z = -3e9;
        }),
        ("half-space normal zero", |d| {
            d.shape = SinewKillVolumeShape::SINEW_KILL_VOLUME_HALF_SPACE as u32;
            d.normal = v3(0.0, 0.0, 0.0);
        }),
        ("half-space normal NaN", |d| {
            d.shape = SinewKillVolumeShape::SINEW_KILL_VOLUME_HALF_SPACE as u32;
            d.normal.y = f32::NAN;
        }),
    ]
}

fn small_fluid_desc() -> SinewFluidDesc {
    let mut d = sinew_fluid_desc_default();
    d.capacity = 16;
    d
}

fn desc_init_cases() -> Vec<Case> {
    vec![
        case(
            "sinew_fluid_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_fluid_desc_init(std::ptr::null_mut()) },
        ),
        case(
            "sinew_emitter_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_emitter_desc_init(std::ptr::null_mut()) },
        ),
        case(
            "sinew_kill_volume_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_kill_volume_desc_init(std::ptr::null_mut()) },
        ),
    ]
}

fn add_fluid_cases() -> Vec<Case> {
    let f = "sinew_world_add_fluid";
    let mut cases = vec![
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_add_fluid(NULL_WORLD, &small_fluid_desc(), c.out.bytes().cast())
        }),
        case(f, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_fluid(c.world, std::ptr::null(), c.out.bytes().cast())
        }),
        case(f, "out_fluid NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_fluid(c.world, &small_fluid_desc(), std::ptr::null_mut())
        }),
        case(
            "sinew_world_fluid_count",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe { sinew_world_fluid_count(NULL_WORLD, c.out.u32()) },
        ),
        case(
            "sinew_world_fluid_count",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_fluid_count(c.world, std::ptr::null_mut()) },
        ),
    ];
    for (label, edit) in bad_fluid_descs() {
        cases.push(case(f, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = small_fluid_desc();
            edit(&mut d);
            unsafe { sinew_world_add_fluid(c.world, &d, c.out.bytes().cast()) }
        }));
    }
    cases
}

/// Every function that takes a fluid, emitter, kill-volume or body handle, with a null
/// world, a null handle and a forged one; and its NULL pointers.
fn handle_cases() -> Vec<Case> {
    type Call = fn(&mut Ctx, SinewWorld, u64) -> SinewStatus;
    let calls: [(&'static str, Call); 15] = [
        ("sinew_fluid_remove", |_, w, id| {
            sinew_fluid_remove(w, SinewFluid { id })
        }),
        ("sinew_fluid_get_desc", |c, w, id| unsafe {
            sinew_fluid_get_desc(w, SinewFluid { id }, c.out.bytes().cast())
        }),
        ("sinew_fluid_set_desc", |_, w, id| unsafe {
            sinew_fluid_set_desc(w, SinewFluid { id }, &small_fluid_desc())
        }),
        ("sinew_fluid_particle_range", |c, w, id| unsafe {
            let (a, b) = c.out.u32s.split_at_mut(1);
            sinew_fluid_particle_range(w, SinewFluid { id }, &mut a[0], &mut b[0])
        }),
        ("sinew_fluid_stats", |c, w, id| unsafe {
            sinew_fluid_stats(w, SinewFluid { id }, c.out.bytes().cast())
        }),
        ("sinew_fluid_emit", |c, w, id| unsafe {
            let p = [v3(0.0, 1.0, 0.0)];
            sinew_fluid_emit(
                w,
                SinewFluid { id },
                p.as_ptr(),
                std::ptr::null(),
                1,
                c.out.u32(),
            )
        }),
        ("sinew_fluid_clear", |_, w, id| {
            sinew_fluid_clear(w, SinewFluid { id })
        }),
        ("sinew_fluid_add_emitter", |c, w, id| unsafe {
            sinew_fluid_add_emitter(
                w,
                SinewFluid { id },
                &sinew_emitter_desc_default(),
                c.out.bytes().cast(),
            )
        }),
        ("sinew_emitter_set", |_, w, id| unsafe {
            sinew_emitter_set(w, SinewEmitter { id }, &sinew_emitter_desc_default())
        }),
        ("sinew_emitter_remove", |_, w, id| {
            sinew_emitter_remove(w, SinewEmitter { id })
        }),
        ("sinew_fluid_add_kill_volume", |c, w, id| unsafe {
            sinew_fluid_add_kill_volume(
                w,
                SinewFluid { id },
                &sinew_kill_volume_desc_default(),
                c.out.bytes().cast(),
            )
        }),
        ("sinew_kill_volume_remove", |_, w, id| {
            sinew_kill_volume_remove(w, SinewKillVolume { id })
        }),
        ("sinew_fluid_read_particles", |c, w, id| unsafe {
            sinew_fluid_read_particles(
                w,
                SinewFluid { id },
                1.0,
                4,
                c.out.bytes(),
                12,
                std::ptr::null_mut(),
                12,
                c.out.f32s().cast(),
                4,
                c.out.u32(),
            )
        }),
        ("sinew_body_set_fluid_coupling", |_, w, id| {
            sinew_body_set_fluid_coupling(w, SinewBody { id }, 0)
        }),
        ("sinew_body_fluid_force", |c, w, id| unsafe {
            sinew_body_fluid_force(w, SinewBody { id }, c.out.bytes().cast())
        }),
    ];
    let mut cases = Vec::new();
    for (function, call) in calls {
        cases.push(case(
            function,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| call(c, NULL_WORLD, FORGED_FLUID.id),
        ));
        cases.push(case(
            function,
            "null handle",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| {
                let w = c.world;
                call(c, w, 0)
            },
        ));
        cases.push(case(
            function,
            "forged handle",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| {
                let w = c.world;
                call(c, w, FORGED_FLUID.id)
            },
        ));
    }
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![
        desc_init_cases(),
        add_fluid_cases(),
        handle_cases(),
        pointer_cases(),
        read_cases(),
    ]
}

/// The infallible desc_default functions of this module.
pub(super) const INFALLIBLE: [&str; 3] = [
    "sinew_fluid_desc_default",
    "sinew_emitter_desc_default",
    "sinew_kill_volume_desc_default",
];

#[test]
fn fluid_desc_inits_reject_null() {
    run_cases(desc_init_cases());
}

#[test]
fn add_fluid_rejects_bad_descs() {
    run_cases(add_fluid_cases());
}

#[test]
fn fluid_calls_reject_bad_handles() {
    run_cases(handle_cases());
}

#[test]
fn fluid_calls_reject_bad_pointers_and_enums() {
    run_cases(pointer_cases());
}

#[test]
fn read_particles_rejects_bad_strides_and_alpha() {
    run_cases(read_cases());
}

#[test]
fn fluid_desc_inits_match_defaults() {
    // SAFETY: all-zero is a valid bit pattern for these plain structs; valid pointers.
    unsafe {
        let mut d: SinewFluidDesc = std::mem::zeroed();
        ok(sinew_fluid_desc_init(&mut d), "fluid desc init");
        assert_eq!(d, sinew_fluid_desc_default());
        let mut e: SinewEmitterDesc = std::mem::zeroed();
        ok(sinew_emitter_desc_init(&mut e), "emitter desc init");
        assert_eq!(e, sinew_emitter_desc_default());
        let mut k: SinewKillVolumeDesc = std::mem::zeroed();
        ok(sinew_kill_volume_desc_init(&mut k), "kill volume desc init");
        assert_eq!(k, sinew_kill_volume_desc_default());
    }
    let d = sinew_fluid_desc_default();
    assert_eq!(
        (d.rest_density, d.spacing, d.capacity),
        (1000.0, 0.05, 4096)
    );
    assert_eq!((d.recycle_oldest, d.coupling_mask), (0, u32::MAX));
    assert_eq!(d.collision_radius, -1.0);
    let e = sinew_emitter_desc_default();
    assert_eq!(e.shape, SinewEmitterShape::SINEW_EMITTER_NOZZLE as u32);
    assert_eq!((e.radius, e.speed, e.rate), (0.1, 2.0, 500.0));
    let k = sinew_kill_volume_desc_default();
    assert_eq!(k.shape, SinewKillVolumeShape::SINEW_KILL_VOLUME_BOX as u32);
    assert_eq!(k.normal, v3(0.0, 1.0, 0.0));
}
