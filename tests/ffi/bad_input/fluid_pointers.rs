//! Bad input for the fluid functions' pointers, enums and readbacks, in the tables of
//! bad_input.rs (same fixture and checks; collected by fluids.rs).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

pub(super) fn pointer_cases() -> Vec<Case> {
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
pub(super) fn read_cases() -> Vec<Case> {
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
