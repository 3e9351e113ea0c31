//! Bad input for tet and pressure bodies and for body handles, in the tables of
//! bad_input.rs (same fixture and checks; collected by bodies.rs).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

pub(super) fn soft_cases() -> Vec<Case> {
    let f = "sinew_world_add_tet_body";
    let tet = [
        v3(0.0, 0.0, 0.0),
        v3(1.0, 0.0, 0.0),
        v3(0.0, 1.0, 0.0),
        v3(0.0, 0.0, 1.0),
        v3(5.0, 5.0, 5.0),
    ];
    let mut cases = Vec::new();
    let tets: [(&str, [u32; 4], u32, SinewStatus); 5] = [
        (
            "inverted tet",
            [0, 2, 1, 3],
            4,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "zero-volume tet",
            [0, 1, 2, 2],
            4,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "index out of range",
            [0, 1, 2, 8],
            4,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "vertex in no tet",
            [0, 1, 2, 3],
            5,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        ("flat tet", [0, 1, 2, 4], 5, SINEW_OK),
    ];
    for (label, t, n, status) in tets.into_iter().take(4) {
        cases.push(case(f, label, status, move |c| unsafe {
            sinew_world_add_tet_body(
                c.world,
                &sinew_tet_body_desc_default(),
                tet.as_ptr(),
                n,
                t.as_ptr(),
                1,
                std::ptr::null(),
                out_body(c),
            )
        }));
    }
    let good = [0u32, 1, 2, 3];
    cases.extend([
        case(
            f,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                sinew_world_add_tet_body(
                    NULL_WORLD,
                    &sinew_tet_body_desc_default(),
                    tet.as_ptr(),
                    4,
                    good.as_ptr(),
                    1,
                    std::ptr::null(),
                    out_body(c),
                )
            },
        ),
        case(f, "tets NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            sinew_world_add_tet_body(
                c.world,
                &sinew_tet_body_desc_default(),
                tet.as_ptr(),
                4,
                std::ptr::null(),
                1,
                std::ptr::null(),
                out_body(c),
            )
        }),
        case(
            f,
            "negative volume compliance",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_tet_body_desc_default();
                d.volume_compliance = -1.0;
                sinew_world_add_tet_body(
                    c.world,
                    &d,
                    tet.as_ptr(),
                    4,
                    good.as_ptr(),
                    1,
                    std::ptr::null(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "NaN inverse mass",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let w = [1.0f32, f32::NAN, 1.0, 1.0];
                sinew_world_add_tet_body(
                    c.world,
                    &sinew_tet_body_desc_default(),
                    tet.as_ptr(),
                    4,
                    good.as_ptr(),
                    1,
                    w.as_ptr(),
                    out_body(c),
                )
            },
        ),
    ]);
    let f = "sinew_world_add_pressure_body";
    let (v, t) = cube();
    let (v1, t1, v2, t2, v3_, t3, v4, t4) = (
        v.clone(),
        t.clone(),
        v.clone(),
        t.clone(),
        v.clone(),
        t.clone(),
        v.clone(),
        t.clone(),
    );
    cases.extend([
        case(
            f,
            "not closed (one triangle missing)",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                sinew_world_add_pressure_body(
                    c.world,
                    &sinew_pressure_body_desc_default(),
                    v1.as_ptr(),
                    8,
                    t1.as_ptr(),
                    11,
                    std::ptr::null(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "inside out",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let flipped: Vec<u32> = t2.chunks(3).flat_map(|x| [x[0], x[2], x[1]]).collect();
                sinew_world_add_pressure_body(
                    c.world,
                    &sinew_pressure_body_desc_default(),
                    v2.as_ptr(),
                    8,
                    flipped.as_ptr(),
                    12,
                    std::ptr::null(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "pressure 0",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_pressure_body_desc_default();
                d.pressure = 0.0;
                sinew_world_add_pressure_body(
                    c.world,
                    &d,
                    v3_.as_ptr(),
                    8,
                    t3.as_ptr(),
                    12,
                    std::ptr::null(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                sinew_world_add_pressure_body(
                    NULL_WORLD,
                    &sinew_pressure_body_desc_default(),
                    v4.as_ptr(),
                    8,
                    t4.as_ptr(),
                    12,
                    std::ptr::null(),
                    out_body(c),
                )
            },
        ),
        case(f, "desc NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            sinew_world_add_pressure_body(
                c.world,
                std::ptr::null(),
                v.as_ptr(),
                8,
                t.as_ptr(),
                12,
                std::ptr::null(),
                out_body(c),
            )
        }),
    ]);
    cases
}

pub(super) fn body_handle_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (label, body) in [
        ("null body", SinewBody { id: 0 }),
        ("forged body", FORGED_BODY),
    ] {
        cases.extend([
            case(
                "sinew_world_remove_body",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| sinew_world_remove_body(c.world, body),
            ),
            case(
                "sinew_body_particle_range",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe {
                    let o = c.out.u32();
                    sinew_body_particle_range(c.world, body, o, o.add(1))
                },
            ),
            case(
                "sinew_body_read_positions",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe { sinew_body_read_positions(c.world, body, c.out.bytes(), 4, 12) },
            ),
            case(
                "sinew_body_set_compliance",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| sinew_body_set_compliance(c.world, body, 0, 0.0),
            ),
            case(
                "sinew_body_set_damping",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| sinew_body_set_damping(c.world, body, 1.0),
            ),
            case(
                "sinew_body_set_pressure",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| sinew_body_set_pressure(c.world, body, 1.0),
            ),
            case(
                "sinew_body_set_sim_mode",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| sinew_body_set_sim_mode(c.world, body, 2, 1),
            ),
            case(
                "sinew_body_get_sim_mode",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe {
                    sinew_body_get_sim_mode(c.world, body, c.out.u32(), c.out.u32())
                },
            ),
            case(
                "sinew_body_volume",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe { sinew_body_volume(c.world, body, c.out.f32s()) },
            ),
            case(
                "sinew_body_read_forces",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe {
                    let f = c.out.f32s();
                    sinew_body_read_forces(c.world, body, 0, f, 16, c.out.u32())
                },
            ),
            case(
                "sinew_body_info",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe { sinew_body_info(c.world, body, c.out.bytes().cast()) },
            ),
        ]);
    }
    cases.extend([
        case(
            "sinew_world_remove_body",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_world_remove_body(NULL_WORLD, FORGED_BODY),
        ),
        case(
            "sinew_world_body_count",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_body_count(c.world, std::ptr::null_mut()) },
        ),
        case(
            "sinew_world_body_count",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe { sinew_world_body_count(NULL_WORLD, c.out.u32()) },
        ),
        case(
            "sinew_body_particle_range",
            "out_first NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                sinew_body_particle_range(c.world, FORGED_BODY, std::ptr::null_mut(), c.out.u32())
            },
        ),
        case(
            "sinew_body_read_positions",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                sinew_body_read_positions(c.world, FORGED_BODY, std::ptr::null_mut(), 4, 12)
            },
        ),
        case(
            "sinew_body_read_positions",
            "stride 8",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe { sinew_body_read_positions(c.world, FORGED_BODY, c.out.bytes(), 4, 8) },
        ),
        case(
            "sinew_body_set_compliance",
            "which 9",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| sinew_body_set_compliance(c.world, FORGED_BODY, 9, 0.0),
        ),
        case(
            "sinew_body_read_forces",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                sinew_body_read_forces(
                    c.world,
                    FORGED_BODY,
                    0,
                    c.out.f32s(),
                    16,
                    std::ptr::null_mut(),
                )
            },
        ),
        case(
            "sinew_body_volume",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_body_volume(c.world, FORGED_BODY, std::ptr::null_mut()) },
        ),
        case(
            "sinew_body_info",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_body_info(c.world, FORGED_BODY, std::ptr::null_mut()) },
        ),
        case(
            "sinew_body_info",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe { sinew_body_info(NULL_WORLD, FORGED_BODY, c.out.bytes().cast()) },
        ),
    ]);
    cases
}
