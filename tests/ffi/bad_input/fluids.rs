//! Bad input for fluids (src/ffi/fluids.rs), in the tables of ffi_bad_input.rs (same
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

fn pointer_cases() -> Vec<Case> {
    let fl = FORGED_FLUID;
    vec![
        case(
            "sinew_fluid_get_desc",
            "out_desc NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe { sinew_fluid_get_desc(c.world, fl, std::ptr::null_mut()) },
        ),
        case(
            "sinew_fluid_set_desc",
            "desc NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe { sinew_fluid_set_desc(c.world, fl, std::ptr::null()) },
        ),
        case(
            "sinew_fluid_set_desc",
            "cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = small_fluid_desc();
                d.internal_cookie = 7;
                sinew_fluid_set_desc(c.world, fl, &d)
            },
        ),
        case(
            "sinew_fluid_particle_range",
            "out_first NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_fluid_particle_range(c.world, fl, std::ptr::null_mut(), c.out.u32())
            },
        ),
        case(
            "sinew_fluid_particle_range",
            "out_capacity NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_fluid_particle_range(c.world, fl, c.out.u32(), std::ptr::null_mut())
            },
        ),
        case(
            "sinew_fluid_stats",
            "out_stats NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe { sinew_fluid_stats(c.world, fl, std::ptr::null_mut()) },
        ),
        case(
            "sinew_fluid_emit",
            "positions NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_fluid_emit(
                    c.world,
                    fl,
                    std::ptr::null(),
                    std::ptr::null(),
                    1,
                    c.out.u32(),
                )
            },
        ),
        case(
            "sinew_fluid_emit",
            "out_first NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                let p = [v3(0.0, 1.0, 0.0)];
                sinew_fluid_emit(
                    c.world,
                    fl,
                    p.as_ptr(),
                    std::ptr::null(),
                    1,
                    std::ptr::null_mut(),
                )
            },
        ),
        case(
            "sinew_fluid_emit",
            "positions misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let m = Misaligned::new(&[v3(0.0, 1.0, 0.0)]);
                sinew_fluid_emit(c.world, fl, m.ptr(), std::ptr::null(), 1, c.out.u32())
            },
        ),
        case(
            "sinew_fluid_emit",
            "velocities misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let p = [v3(0.0, 1.0, 0.0)];
                let m = Misaligned::new(&[v3(0.0, 1.0, 0.0)]);
                sinew_fluid_emit(c.world, fl, p.as_ptr(), m.ptr(), 1, c.out.u32())
            },
        ),
        case(
            "sinew_fluid_emit",
            "count past the largest batch",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe {
                let p = [v3(0.0, 1.0, 0.0)];
                sinew_fluid_emit(
                    c.world,
                    fl,
                    p.as_ptr(),
                    std::ptr::null(),
                    u32::MAX,
                    c.out.u32(),
                )
            },
        ),
        case(
            "sinew_fluid_add_emitter",
            "desc NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_fluid_add_emitter(c.world, fl, std::ptr::null(), c.out.bytes().cast())
            },
        ),
        case(
            "sinew_fluid_add_emitter",
            "out_emitter NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_fluid_add_emitter(
                    c.world,
                    fl,
                    &sinew_emitter_desc_default(),
                    std::ptr::null_mut(),
                )
            },
        ),
        case(
            "sinew_fluid_add_emitter",
            "shape 2",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_emitter_desc_default();
                d.shape = 2;
                sinew_fluid_add_emitter(c.world, fl, &d, c.out.bytes().cast())
            },
        ),
        case(
            "sinew_emitter_set",
            "desc NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_emitter_set(c.world, FORGED_EMITTER, std::ptr::null()) },
        ),
        case(
            "sinew_emitter_set",
            "cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let mut d = sinew_emitter_desc_default();
                d.internal_cookie = 0;
                sinew_emitter_set(c.world, FORGED_EMITTER, &d)
            },
        ),
        case(
            "sinew_fluid_add_kill_volume",
            "desc NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_fluid_add_kill_volume(c.world, fl, std::ptr::null(), c.out.bytes().cast())
            },
        ),
        case(
            "sinew_fluid_add_kill_volume",
            "out_volume NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_fluid_add_kill_volume(
                    c.world,
                    fl,
                    &sinew_kill_volume_desc_default(),
                    std::ptr::null_mut(),
                )
            },
        ),
        case(
            "sinew_fluid_add_kill_volume",
            "shape 3",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_kill_volume_desc_default();
                d.shape = 3;
                sinew_fluid_add_kill_volume(c.world, fl, &d, c.out.bytes().cast())
            },
        ),
        case(
            "sinew_kill_volume_remove",
            "forged handle of another kind",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_kill_volume_remove(c.world, FORGED_VOLUME),
        ),
        case(
            "sinew_body_set_fluid_coupling",
            "enabled 2",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| sinew_body_set_fluid_coupling(c.world, FORGED_BODY, 2),
        ),
        case(
            "sinew_body_fluid_force",
            "out_force NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_body_fluid_force(c.world, FORGED_BODY, std::ptr::null_mut()) },
        ),
    ]
}

/// The checks of sinew_fluid_read_particles that come before the fluid is looked up:
/// strides, alpha, out_count.
fn read_cases() -> Vec<Case> {
    let f = "sinew_fluid_read_particles";
    type Read = fn(&mut Ctx) -> SinewStatus;
    let calls: [(&str, SinewStatus, Read); 11] = [
        ("out_count NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let w = c.world;
            sinew_fluid_read_particles(
                w,
                FORGED_FLUID,
                1.0,
                4,
                c.out.bytes(),
                12,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
            )
        }),
        (
            "position stride 11",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let w = c.world;
                let b = c.out.bytes();
                sinew_fluid_read_particles(
                    w,
                    FORGED_FLUID,
                    1.0,
                    4,
                    b,
                    11,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    c.out.u32(),
                )
            },
        ),
        (
            "position stride 0",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let w = c.world;
                let b = c.out.bytes();
                sinew_fluid_read_particles(
                    w,
                    FORGED_FLUID,
                    1.0,
                    4,
                    b,
                    0,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    c.out.u32(),
                )
            },
        ),
        (
            "position stride above SINEW_MAX_STRIDE_BYTES",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let w = c.world;
                let b = c.out.bytes();
                sinew_fluid_read_particles(
                    w,
                    FORGED_FLUID,
                    1.0,
                    1,
                    b,
                    (1 << 20) + 1,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    c.out.u32(),
                )
            },
        ),
        (
            "velocity stride 8",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let w = c.world;
                let b = c.out.bytes();
                sinew_fluid_read_particles(
                    w,
                    FORGED_FLUID,
                    1.0,
                    4,
                    std::ptr::null_mut(),
                    0,
                    b,
                    8,
                    std::ptr::null_mut(),
                    0,
                    c.out.u32(),
                )
            },
        ),
        (
            "density stride 3",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let w = c.world;
                let b = c.out.f32s().cast();
                sinew_fluid_read_particles(
                    w,
                    FORGED_FLUID,
                    1.0,
                    4,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    b,
                    3,
                    c.out.u32(),
                )
            },
        ),
        (
            "density stride u32 max",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let w = c.world;
                let b = c.out.f32s().cast();
                sinew_fluid_read_particles(
                    w,
                    FORGED_FLUID,
                    1.0,
                    1,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    b,
                    u32::MAX,
                    c.out.u32(),
                )
            },
        ),
        ("alpha NaN", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let w = c.world;
            let b = c.out.bytes();
            sinew_fluid_read_particles(
                w,
                FORGED_FLUID,
                f32::NAN,
                4,
                b,
                12,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                c.out.u32(),
            )
        }),
        ("alpha 1.5", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let w = c.world;
            let b = c.out.bytes();
            sinew_fluid_read_particles(
                w,
                FORGED_FLUID,
                1.5,
                4,
                b,
                12,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                c.out.u32(),
            )
        }),
        ("alpha negative", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let w = c.world;
            let b = c.out.bytes();
            sinew_fluid_read_particles(
                w,
                FORGED_FLUID,
                -0.25,
                4,
                b,
                12,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                c.out.u32(),
            )
        }),
        (
            "no buffers, forged fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe {
                let w = c.world;
                sinew_fluid_read_particles(
                    w,
                    FORGED_FLUID,
                    1.0,
                    0,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    c.out.u32(),
                )
            },
        ),
    ];
    calls
        .into_iter()
        .map(|(label, expected, call)| case(f, label, expected, call))
        .collect()
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

// ---------------------------------------------------------------------------------
// A world holding a fluid
// ---------------------------------------------------------------------------------

/// What the value cases get: the world, its rope, its live fluid (8 particles of 16),
/// an emitter and a kill volume of it, and stale handles of each kind (made and
/// removed while building the world).
#[derive(Clone, Copy)]
pub(super) struct FluidWorld {
    pub world: SinewWorld,
    pub rope: SinewBody,
    pub fluid: SinewFluid,
    pub emitter: SinewEmitter,
    pub volume: SinewKillVolume,
    pub stale_fluid: SinewFluid,
    pub stale_emitter: SinewEmitter,
    pub stale_volume: SinewKillVolume,
}

/// Eight particles of a 2 × 2 × 2 block, 5 cm apart, above the floor.
pub(super) fn block() -> Vec<SinewVec3> {
    let mut p = Vec::new();
    for k in 0..8 {
        p.push(v3(
            0.05 * (k & 1) as f32,
            1.0 + 0.05 * ((k >> 1) & 1) as f32,
            0.05 * (k >> 2) as f32,
        ));
    }
    p
}

/// A world with a rope, a fluid of capacity 16 holding 8 particles, a paused emitter,
/// a kill volume far below, stepped once.
pub(super) fn fluid_world() -> FluidWorld {
    let w = create(&test_desc());
    let mut fw = FluidWorld {
        world: w,
        rope: SinewBody::default(),
        fluid: SinewFluid::default(),
        emitter: SinewEmitter::default(),
        volume: SinewKillVolume::default(),
        stale_fluid: SinewFluid::default(),
        stale_emitter: SinewEmitter::default(),
        stale_volume: SinewKillVolume::default(),
    };
    // SAFETY: valid pointers.
    unsafe {
        let mut r = sinew_rope_desc_default();
        r.segments = 4;
        ok(sinew_world_add_rope(w, &r, &mut fw.rope), "rope");
        ok(
            sinew_world_add_fluid(w, &small_fluid_desc(), &mut fw.stale_fluid),
            "fluid to remove",
        );
        ok(sinew_fluid_remove(w, fw.stale_fluid), "remove fluid");
        ok(
            sinew_world_add_fluid(w, &small_fluid_desc(), &mut fw.fluid),
            "fluid",
        );
        let p = block();
        let mut first = 7u32;
        ok(
            sinew_fluid_emit(
                w,
                fw.fluid,
                p.as_ptr(),
                std::ptr::null(),
                p.len() as u32,
                &mut first,
            ),
            "emit",
        );
        assert_eq!(first, 0);
        let mut e = sinew_emitter_desc_default();
        e.rate = 0.0;
        e.position = v3(0.0, 2.0, 0.0);
        ok(
            sinew_fluid_add_emitter(w, fw.fluid, &e, &mut fw.stale_emitter),
            "emitter to remove",
        );
        ok(sinew_emitter_remove(w, fw.stale_emitter), "remove emitter");
        ok(
            sinew_fluid_add_emitter(w, fw.fluid, &e, &mut fw.emitter),
            "emitter",
        );
        let mut k = sinew_kill_volume_desc_default();
        k.center = v3(0.0, -50.0, 0.0);
        ok(
            sinew_fluid_add_kill_volume(w, fw.fluid, &k, &mut fw.stale_volume),
            "volume to remove",
        );
        ok(
            sinew_kill_volume_remove(w, fw.stale_volume),
            "remove volume",
        );
        ok(
            sinew_fluid_add_kill_volume(w, fw.fluid, &k, &mut fw.volume),
            "volume",
        );
    }
    ok(sinew_world_step(w, DT), "step");
    fw
}

/// The body snapshot plus the fluid count, the fluid's desc, range and stats, its
/// particles as the readback sees them, and the rope's fluid force.
pub(super) fn fluid_snapshot(fw: &FluidWorld) -> Vec<u32> {
    let w = fw.world;
    let mut out = body_snapshot(w);
    // SAFETY: valid pointers and sizes.
    unsafe {
        let mut n = 0u32;
        ok(sinew_world_fluid_count(w, &mut n), "fluid count");
        out.push(n);
        let mut d = sinew_fluid_desc_default();
        ok(sinew_fluid_get_desc(w, fw.fluid, &mut d), "get desc");
        out.extend([
            d.rest_density.to_bits(),
            d.spacing.to_bits(),
            d.smoothing_radius.to_bits(),
            d.capacity,
            d.relaxation.to_bits(),
            d.scorr_k.to_bits(),
            d.scorr_n,
            d.scorr_dq.to_bits(),
            d.viscosity.to_bits(),
            d.vorticity.to_bits(),
            d.cohesion.to_bits(),
            d.adhesion.to_bits(),
            d.collision_radius.to_bits(),
            d.lifetime.to_bits(),
            d.recycle_oldest,
            d.coupling_mask,
        ]);
        let (mut first, mut cap) = (0u32, 0u32);
        ok(
            sinew_fluid_particle_range(w, fw.fluid, &mut first, &mut cap),
            "range",
        );
        out.extend([first, cap]);
        let mut s = SinewFluidStats::default();
        ok(sinew_fluid_stats(w, fw.fluid, &mut s), "stats");
        out.extend([s.count, s.capacity]);
        for c in [s.emitted, s.removed, s.refused] {
            out.extend([c as u32, (c >> 32) as u32]);
        }
        out.extend([
            s.mean_density_ratio.to_bits(),
            s.max_density_ratio.to_bits(),
        ]);
        let mut p = vec![v3(0.0, 0.0, 0.0); cap as usize];
        let mut v = vec![v3(0.0, 0.0, 0.0); cap as usize];
        let mut r = vec![0f32; cap as usize];
        let mut count = 0u32;
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                0.5,
                cap,
                p.as_mut_ptr().cast(),
                12,
                v.as_mut_ptr().cast(),
                12,
                r.as_mut_ptr().cast(),
                4,
                &mut count,
            ),
            "read particles",
        );
        out.push(count);
        for k in 0..count as usize {
            out.extend([p[k].x, p[k].y, p[k].z, v[k].x, v[k].y, v[k].z, r[k]].map(f32::to_bits));
        }
        let mut f = v3(0.0, 0.0, 0.0);
        ok(sinew_body_fluid_force(w, fw.rope, &mut f), "fluid force");
        out.extend([f.x, f.y, f.z].map(f32::to_bits));
    }
    out
}

type FluidCall = Box<dyn Fn(&FluidWorld) -> SinewStatus>;

fn fluid_call(
    function: &'static str,
    label: impl Into<String>,
    expected: SinewStatus,
    call: impl Fn(&FluidWorld) -> SinewStatus + 'static,
) -> (&'static str, String, SinewStatus, FluidCall) {
    (function, label.into(), expected, Box::new(call))
}

fn fluid_value_calls() -> Vec<(&'static str, String, SinewStatus, FluidCall)> {
    let mut calls = vec![
        fluid_call(
            "sinew_fluid_emit",
            "past the free capacity (9 of 8 free)",
            SINEW_ERROR_OUT_OF_RANGE,
            |fw| unsafe {
                let p: Vec<_> = (0..9).map(|k| v3(0.1 * k as f32, 2.0, 0.0)).collect();
                let mut first = 7u32;
                let s = sinew_fluid_emit(
                    fw.world,
                    fw.fluid,
                    p.as_ptr(),
                    std::ptr::null(),
                    9,
                    &mut first,
                );
                assert_eq!(first, 7, "out_first untouched");
                s
            },
        ),
        fluid_call(
            "sinew_fluid_emit",
            "NaN position",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let p = [v3(0.0, 2.0, 0.0), v3(f32::NAN, 2.0, 0.0)];
                let mut first = 7u32;
                sinew_fluid_emit(
                    fw.world,
                    fw.fluid,
                    p.as_ptr(),
                    std::ptr::null(),
                    2,
                    &mut first,
                )
            },
        ),
        fluid_call(
            "sinew_fluid_emit",
            "position beyond 1e9",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let p = [v3(0.0, 2e9, 0.0)];
                let mut first = 7u32;
                sinew_fluid_emit(
                    fw.world,
                    fw.fluid,
                    p.as_ptr(),
                    std::ptr::null(),
                    1,
                    &mut first,
                )
            },
        ),
        fluid_call(
            "sinew_fluid_emit",
            "infinite velocity",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let p = [v3(0.0, 2.0, 0.0), v3(0.1, 2.0, 0.0)];
                let v = [v3(0.0, 0.0, 0.0), v3(0.0, f32::NEG_INFINITY, 0.0)];
                let mut first = 7u32;
                sinew_fluid_emit(fw.world, fw.fluid, p.as_ptr(), v.as_ptr(), 2, &mut first)
            },
        ),
        fluid_call(
            "sinew_fluid_emit",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let p = [v3(0.0, 2.0, 0.0)];
                let mut first = 7u32;
                sinew_fluid_emit(
                    fw.world,
                    fw.stale_fluid,
                    p.as_ptr(),
                    std::ptr::null(),
                    1,
                    &mut first,
                )
            },
        ),
        fluid_call(
            "sinew_fluid_set_desc",
            "capacity changed",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let mut d = small_fluid_desc();
                d.capacity = 32;
                sinew_fluid_set_desc(fw.world, fw.fluid, &d)
            },
        ),
        fluid_call(
            "sinew_fluid_set_desc",
            "spacing changed",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let mut d = small_fluid_desc();
                d.spacing = 0.04;
                sinew_fluid_set_desc(fw.world, fw.fluid, &d)
            },
        ),
        fluid_call(
            "sinew_fluid_set_desc",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe { sinew_fluid_set_desc(fw.world, fw.stale_fluid, &small_fluid_desc()) },
        ),
        fluid_call(
            "sinew_fluid_remove",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_fluid_remove(fw.world, fw.stale_fluid),
        ),
        fluid_call(
            "sinew_fluid_clear",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_fluid_clear(fw.world, fw.stale_fluid),
        ),
        fluid_call(
            "sinew_fluid_stats",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut s = SinewFluidStats {
                    count: 7,
                    ..SinewFluidStats::default()
                };
                let st = sinew_fluid_stats(fw.world, fw.stale_fluid, &mut s);
                assert_eq!(s.count, 7, "output untouched");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_get_desc",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut d = sinew_fluid_desc_default();
                d.capacity = 7;
                let st = sinew_fluid_get_desc(fw.world, fw.stale_fluid, &mut d);
                assert_eq!(d.capacity, 7, "output untouched");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_particle_range",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let (mut a, mut b) = (7u32, 7u32);
                let st = sinew_fluid_particle_range(fw.world, fw.stale_fluid, &mut a, &mut b);
                assert_eq!((a, b), (7, 7), "outputs untouched");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_add_emitter",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut e = SinewEmitter { id: 7 };
                let st = sinew_fluid_add_emitter(
                    fw.world,
                    fw.stale_fluid,
                    &sinew_emitter_desc_default(),
                    &mut e,
                );
                assert_eq!(e.id, 7, "output untouched");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_add_kill_volume",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut k = SinewKillVolume { id: 7 };
                let st = sinew_fluid_add_kill_volume(
                    fw.world,
                    fw.stale_fluid,
                    &sinew_kill_volume_desc_default(),
                    &mut k,
                );
                assert_eq!(k.id, 7, "output untouched");
                st
            },
        ),
        fluid_call(
            "sinew_emitter_set",
            "stale emitter",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                sinew_emitter_set(fw.world, fw.stale_emitter, &sinew_emitter_desc_default())
            },
        ),
        fluid_call(
            "sinew_emitter_remove",
            "stale emitter",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_emitter_remove(fw.world, fw.stale_emitter),
        ),
        fluid_call(
            "sinew_kill_volume_remove",
            "stale kill volume",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_kill_volume_remove(fw.world, fw.stale_volume),
        ),
        fluid_call(
            "sinew_fluid_read_particles",
            "capacity 7 below 8 live particles",
            SINEW_ERROR_OUT_OF_RANGE,
            |fw| unsafe {
                let mut p = [v3(7.0, 7.0, 7.0); 16];
                let mut r = [7f32; 16];
                let mut n = 7u32;
                let st = sinew_fluid_read_particles(
                    fw.world,
                    fw.fluid,
                    1.0,
                    7,
                    p.as_mut_ptr().cast(),
                    12,
                    std::ptr::null_mut(),
                    0,
                    r.as_mut_ptr().cast(),
                    4,
                    &mut n,
                );
                assert!(p.iter().all(|q| *q == v3(7.0, 7.0, 7.0)), "untouched");
                assert!(r.iter().all(|&x| x == 7.0) && n == 7, "untouched");
                let m = last_error();
                assert!(m.contains('7') && m.contains('8'), "names both: {m}");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_read_particles",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut p = [v3(7.0, 7.0, 7.0); 16];
                let mut n = 7u32;
                let st = sinew_fluid_read_particles(
                    fw.world,
                    fw.stale_fluid,
                    1.0,
                    16,
                    p.as_mut_ptr().cast(),
                    12,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    &mut n,
                );
                assert!(p.iter().all(|q| *q == v3(7.0, 7.0, 7.0)) && n == 7);
                st
            },
        ),
        fluid_call(
            "sinew_body_set_fluid_coupling",
            "enabled 7",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| sinew_body_set_fluid_coupling(fw.world, fw.rope, 7),
        ),
        fluid_call(
            "sinew_body_set_fluid_coupling",
            "forged body",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_body_set_fluid_coupling(fw.world, FORGED_BODY, 1),
        ),
        fluid_call(
            "sinew_body_fluid_force",
            "forged body",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut f = v3(7.0, 7.0, 7.0);
                let st = sinew_body_fluid_force(fw.world, FORGED_BODY, &mut f);
                assert_eq!(f, v3(7.0, 7.0, 7.0), "output untouched");
                st
            },
        ),
    ];
    calls.extend(fluid_particle_edit_calls());
    for (label, edit) in bad_fluid_descs() {
        calls.push(fluid_call(
            "sinew_fluid_set_desc",
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |fw| unsafe {
                let mut d = small_fluid_desc();
                edit(&mut d);
                sinew_fluid_set_desc(fw.world, fw.fluid, &d)
            },
        ));
    }
    for (label, edit) in bad_emitter_descs() {
        calls.push(fluid_call(
            "sinew_fluid_add_emitter",
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |fw| unsafe {
                let mut d = sinew_emitter_desc_default();
                edit(&mut d);
                let mut e = SinewEmitter { id: 7 };
                let st = sinew_fluid_add_emitter(fw.world, fw.fluid, &d, &mut e);
                assert_eq!(e.id, 7, "output untouched");
                st
            },
        ));
        calls.push(fluid_call(
            "sinew_emitter_set",
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |fw| unsafe {
                let mut d = sinew_emitter_desc_default();
                edit(&mut d);
                sinew_emitter_set(fw.world, fw.emitter, &d)
            },
        ));
    }
    for (label, edit) in bad_volume_descs() {
        calls.push(fluid_call(
            "sinew_fluid_add_kill_volume",
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |fw| unsafe {
                let mut d = sinew_kill_volume_desc_default();
                edit(&mut d);
                let mut k = SinewKillVolume { id: 7 };
                let st = sinew_fluid_add_kill_volume(fw.world, fw.fluid, &d, &mut k);
                assert_eq!(k.id, 7, "output untouched");
                st
            },
        ));
    }
    calls
}

/// The fluid's reserved particles: (first, capacity).
fn fluid_range(fw: &FluidWorld) -> (u32, u32) {
    let (mut first, mut cap) = (0u32, 0u32);
    // SAFETY: valid pointers.
    ok(
        unsafe { sinew_fluid_particle_range(fw.world, fw.fluid, &mut first, &mut cap) },
        "range",
    );
    (first, cap)
}

/// Plain particle edits by index on the fluid's particles (live, not yet emitted, or a
/// range straddling the particles before them): refused, since the fluid sets their
/// mass, radius and filter itself and moves its particles between slots.
fn fluid_particle_edit_calls() -> Vec<(&'static str, String, SinewStatus, FluidCall)> {
    const BAD: SinewStatus = SINEW_ERROR_INVALID_ARGUMENT;
    let mut calls = Vec::new();
    // (label, offset from the fluid's first particle, count)
    let ranges: [(&str, i64, u32); 3] = [
        ("live fluid particles", 2, 3),
        ("fluid particles not emitted yet", 12, 4),
        ("a range ending in the fluid's first particle", -3, 4),
    ];
    for (label, offset, count) in ranges {
        let at = move |fw: &FluidWorld| (fluid_range(fw).0 as i64 + offset) as u32;
        calls.push(fluid_call(
            "sinew_world_set_particle_radii",
            label,
            BAD,
            move |fw| unsafe {
                let r = vec![0.01f32; count as usize];
                sinew_world_set_particle_radii(fw.world, at(fw), count, r.as_ptr())
            },
        ));
        calls.push(fluid_call(
            "sinew_world_set_inverse_masses",
            label,
            BAD,
            move |fw| unsafe {
                let w = vec![2.0f32; count as usize];
                sinew_world_set_inverse_masses(fw.world, at(fw), count, w.as_ptr())
            },
        ));
        calls.push(fluid_call(
            "sinew_world_set_collision_filters",
            label,
            BAD,
            move |fw| unsafe {
                let f = SinewCollisionFilter {
                    group: 0,
                    layers: 1,
                    mask: u32::MAX,
                    self_collision: 0,
                };
                let f = vec![f; count as usize];
                sinew_world_set_collision_filters(fw.world, at(fw), count, f.as_ptr())
            },
        ));
        calls.push(fluid_call(
            "sinew_world_set_unyielding",
            label,
            BAD,
            move |fw| unsafe {
                let u = vec![0.5f32; count as usize];
                sinew_world_set_unyielding(fw.world, at(fw), count, u.as_ptr())
            },
        ));
    }
    let places = [
        ("a live fluid particle", 0u32),
        ("a fluid particle not emitted yet", 9),
    ];
    // Constraints naming a fluid particle: the constraint would hold another particle
    // once the fluid moves its last live particle into a removed one's slot.
    for (label, offset) in places {
        calls.push(fluid_call(
            "sinew_world_add_distance_constraints",
            format!("a pair with {label}"),
            BAD,
            move |fw| unsafe {
                let pairs = [1u32, 2, 3, fluid_range(fw).0 + offset];
                let mut first = 7u32;
                let st = sinew_world_add_distance_constraints(
                    fw.world,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    2,
                    0.0,
                    &mut first,
                );
                assert_eq!(first, 7, "out_first untouched");
                st
            },
        ));
        calls.push(fluid_call(
            "sinew_world_add_tethers",
            format!("a pair with {label}"),
            BAD,
            move |fw| unsafe {
                let pairs = [fluid_range(fw).0 + offset, 1u32];
                let mut first = 7u32;
                let st = sinew_world_add_tethers(
                    fw.world,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    &mut first,
                );
                assert_eq!(first, 7, "out_first untouched");
                st
            },
        ));
    }
    for (label, offset) in places {
        calls.push(fluid_call(
            "sinew_world_grab_particle",
            label,
            BAD,
            move |fw| unsafe {
                let target = v3(0.0, 3.0, 0.0);
                sinew_world_grab_particle(fw.world, fluid_range(fw).0 + offset, &target, 0.0)
            },
        ));
    }
    calls
}

/// Values on a world holding a fluid: each bad call returns its status and a message
/// naming the function, writes no output, changes nothing (bodies, fluid desc, stats,
/// particles), and one more step equals the step of an untouched control world.
#[test]
fn fluid_values_are_checked_and_change_nothing() {
    let mut failures = Vec::new();
    let calls = fluid_value_calls();
    for (function, label, expected, call) in &calls {
        let fw = fluid_world();
        let control = fluid_world();
        let before = fluid_snapshot(&fw);
        assert_eq!(before, fluid_snapshot(&control), "fixture is deterministic");
        let primed = prime_last_error(function);
        let s = call(&fw);
        let msg = last_error();
        if s != *expected {
            failures.push(format!(
                "{function} [{label}]: {s:?}, expected {expected:?}: {msg}"
            ));
        } else if !msg.starts_with(&format!("{function}: ")) || msg == primed {
            failures.push(format!("{function} [{label}]: message {msg:?}"));
        } else if fluid_snapshot(&fw) != before {
            failures.push(format!("{function} [{label}] changed the world"));
        } else {
            ok(sinew_world_step(fw.world, DT), "step");
            ok(sinew_world_step(control.world, DT), "step");
            if fluid_snapshot(&fw) != fluid_snapshot(&control) {
                failures.push(format!("{function} [{label}]: hidden state changed"));
            }
        }
        ok(sinew_world_destroy(fw.world), "destroy");
        ok(sinew_world_destroy(control.world), "destroy");
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        calls.len(),
        failures.join("\n")
    );
}

/// The readback writes exactly the live particles, at any stride and through any
/// subset of its buffers, the same values each way; alpha 0 and 1 give the positions
/// before and after the last step (the plain position readback of the fluid's range).
#[test]
fn read_particles_writes_strided_buffers() {
    let fw = fluid_world();
    let w = fw.world;
    // SAFETY: every buffer is as large as the capacity and stride passed.
    unsafe {
        let (mut first, mut cap) = (0u32, 0u32);
        ok(
            sinew_fluid_particle_range(w, fw.fluid, &mut first, &mut cap),
            "range",
        );
        assert_eq!(cap, 16);
        let mut current = vec![v3(0.0, 0.0, 0.0); 8];
        ok(
            sinew_world_read_positions(w, first, 8, current.as_mut_ptr().cast(), 12),
            "positions",
        );
        let mut vel = vec![v3(0.0, 0.0, 0.0); 8];
        ok(
            sinew_world_read_velocities(w, first, 8, vel.as_mut_ptr().cast(), 12),
            "velocities",
        );
        // Interleaved: position, velocity, density, pad (32 bytes per particle).
        let mut inter = vec![-7f32; 8 * 8 + 1];
        let base = inter.as_mut_ptr().cast::<u8>().add(4);
        let mut n = 0u32;
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                1.0,
                8,
                base.cast(),
                32,
                base.add(12).cast(),
                32,
                base.add(24).cast(),
                32,
                &mut n,
            ),
            "interleaved read",
        );
        assert_eq!(n, 8);
        for k in 0..8 {
            let e = &inter[1 + 8 * k..1 + 8 * (k + 1)];
            assert_eq!(v3(e[0], e[1], e[2]), current[k], "position {k}");
            assert_eq!(v3(e[3], e[4], e[5]), vel[k], "velocity {k}");
            assert!(
                e[6].is_finite() && e[6] >= 0.0,
                "density ratio {k}: {}",
                e[6]
            );
            assert_eq!(e[7], -7.0, "padding of particle {k} untouched");
        }
        assert_eq!(inter[0], -7.0);
        // Densities alone, packed.
        let mut r = vec![-7f32; 9];
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                1.0,
                8,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                r.as_mut_ptr().cast(),
                4,
                &mut n,
            ),
            "densities",
        );
        for k in 0..8 {
            assert_eq!(r[k].to_bits(), inter[1 + 8 * k + 6].to_bits());
        }
        assert_eq!(r[8], -7.0, "nothing past the live count");
        // No buffer at all: the count.
        n = 0;
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                0.0,
                0,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                &mut n,
            ),
            "count only",
        );
        assert_eq!(n, 8);
        // alpha 0 is the state before the last step (the emitted block, at rest).
        let mut before = vec![v3(0.0, 0.0, 0.0); 8];
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                0.0,
                8,
                before.as_mut_ptr().cast(),
                12,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                &mut n,
            ),
            "alpha 0",
        );
        assert_eq!(before, block());
    }
    ok(sinew_world_destroy(w), "destroy");
}
