//! Bad input for the distance-like families and the attachments, in the tables of
//! bad_input.rs (same fixture and checks; collected by bodies.rs).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

/// Tethers, dihedral bending, tet volumes: index tuples + optional floats + compliance.
fn tuple_cases(
    f: &'static str,
    add: Add2,
    k: usize,
    good: Vec<u32>,
    bad_value: (&'static str, Vec<u32>, SinewStatus),
) -> Vec<Case> {
    let g1 = good.clone();
    let g2 = good.clone();
    let g3 = good.clone();
    let g4 = good.clone();
    let g5 = good.clone();
    let mut out_of_range = good.clone();
    out_of_range[k - 1] = 99;
    let mut repeated = good.clone();
    repeated[k - 1] = repeated[0];
    let (label, values, status) = bad_value;
    vec![
        case(
            f,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                add(
                    NULL_WORLD,
                    g1.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            },
        ),
        case(
            f,
            "indices NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                add(
                    c.world,
                    std::ptr::null(),
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            },
        ),
        case(
            f,
            "out_first NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                add(
                    c.world,
                    g2.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    std::ptr::null_mut(),
                )
            },
        ),
        case(
            f,
            "count 0",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { add(c.world, g3.as_ptr(), std::ptr::null(), 0, 0.0, c.out.u32()) },
        ),
        case(
            f,
            "index out of range",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe {
                add(
                    c.world,
                    out_of_range.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            },
        ),
        case(
            f,
            "particle repeated",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                add(
                    c.world,
                    repeated.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            },
        ),
        case(
            f,
            "negative compliance",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { add(c.world, g4.as_ptr(), std::ptr::null(), 1, -1.0, c.out.u32()) },
        ),
        case(
            f,
            "NaN rest value",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let r = [f32::NAN];
                add(c.world, g5.as_ptr(), r.as_ptr(), 1, 0.0, c.out.u32())
            },
        ),
        case(f, label, status, move |c| unsafe {
            add(
                c.world,
                values.as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                c.out.u32(),
            )
        }),
    ]
}

/// The 8 corners of a unit cube and its 12 outward triangles (flattened).
pub(super) fn cube() -> (Vec<SinewVec3>, Vec<u32>) {
    let v = (0..8u32)
        .map(|i| v3((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32))
        .collect();
    let t = vec![
        0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6,
        1, 3, 5, 3, 7, 5,
    ];
    (v, t)
}

pub(super) fn family_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    cases.extend(tuple_cases(
        "sinew_world_add_tethers",
        sinew_world_add_tethers,
        2,
        vec![0, 3],
        ("negative max length", vec![0, 3], SINEW_OK),
    ));
    // The last case above is valid without a rest array: replace it by a real one.
    cases.pop();
    cases.push(case(
        "sinew_world_add_tethers",
        "negative max length",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| unsafe {
            let p = [0u32, 3];
            let r = [-1.0f32];
            sinew_world_add_tethers(c.world, p.as_ptr(), r.as_ptr(), 1, 0.0, c.out.u32())
        },
    ));
    // (Zero-area hinges and flat or inverted tets are tested in tests/physics/families.rs: the
    // fixture's four moving particles are never coplanar.)
    cases.extend(tuple_cases(
        "sinew_world_add_dihedral_bending",
        sinew_world_add_dihedral_bending,
        4,
        vec![1, 3, 0, 2],
        (
            "wing equals an edge end",
            vec![1, 3, 0, 1],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ));
    cases.push(case(
        "sinew_world_add_dihedral_bending",
        "rest angle 4 rad",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| unsafe {
            let h = [1u32, 3, 0, 2];
            let r = [4.0f32];
            sinew_world_add_dihedral_bending(c.world, h.as_ptr(), r.as_ptr(), 1, 0.0, c.out.u32())
        },
    ));
    cases.extend(tuple_cases(
        "sinew_world_add_tet_volume_constraints",
        sinew_world_add_tet_volume_constraints,
        4,
        vec![0, 1, 2, 3],
        (
            "last index out of range",
            vec![0, 1, 2, 4],
            SINEW_ERROR_OUT_OF_RANGE,
        ),
    ));
    let f = "sinew_world_add_isometric_bending";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let h = [1u32, 3, 0, 2];
            sinew_world_add_isometric_bending(NULL_WORLD, h.as_ptr(), 1, 0.0, c.out.u32())
        }),
        case(f, "hinges NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_isometric_bending(c.world, std::ptr::null(), 1, 0.0, c.out.u32())
        }),
        case(f, "out_first NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let h = [1u32, 3, 0, 2];
            sinew_world_add_isometric_bending(c.world, h.as_ptr(), 1, 0.0, std::ptr::null_mut())
        }),
        case(
            f,
            "index out of range",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe {
                let h = [1u32, 3, 0, 4];
                sinew_world_add_isometric_bending(c.world, h.as_ptr(), 1, 0.0, c.out.u32())
            },
        ),
        case(
            f,
            "repeated particle",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let h = [1u32, 3, 0, 1];
                sinew_world_add_isometric_bending(c.world, h.as_ptr(), 1, 0.0, c.out.u32())
            },
        ),
        case(
            f,
            "infinite compliance",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let h = [1u32, 3, 0, 2];
                sinew_world_add_isometric_bending(
                    c.world,
                    h.as_ptr(),
                    1,
                    f32::INFINITY,
                    c.out.u32(),
                )
            },
        ),
    ]);
    let f = "sinew_world_add_pressure_volume";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let t = [0u32, 1, 3, 0, 3, 2, 0, 2, 1, 1, 2, 3];
            sinew_world_add_pressure_volume(NULL_WORLD, t.as_ptr(), 4, 1.0, 0.0, c.out.u32())
        }),
        case(f, "triangles NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_pressure_volume(c.world, std::ptr::null(), 4, 1.0, 0.0, c.out.u32())
        }),
        case(f, "out_id NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let t = [0u32, 1, 3, 0, 3, 2, 0, 2, 1, 1, 2, 3];
            sinew_world_add_pressure_volume(c.world, t.as_ptr(), 4, 1.0, 0.0, std::ptr::null_mut())
        }),
        case(
            f,
            "not closed (3 triangles)",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let t = [1u32, 3, 2, 1, 2, 0, 3, 1, 0];
                sinew_world_add_pressure_volume(c.world, t.as_ptr(), 3, 1.0, 0.0, c.out.u32())
            },
        ),
        case(
            f,
            "vertex repeated in a triangle",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let t = [0u32, 0, 2, 0, 2, 3, 0, 3, 1, 1, 3, 2];
                sinew_world_add_pressure_volume(c.world, t.as_ptr(), 4, 1.0, 0.0, c.out.u32())
            },
        ),
        case(
            f,
            "index out of range",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe {
                let t = [0u32, 1, 9, 0, 9, 2, 0, 2, 1, 1, 2, 9];
                sinew_world_add_pressure_volume(c.world, t.as_ptr(), 4, 1.0, 0.0, c.out.u32())
            },
        ),
        case(f, "pressure 0", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let t = [1u32, 3, 2, 1, 2, 0, 3, 1, 0, 0, 2, 3];
            sinew_world_add_pressure_volume(c.world, t.as_ptr(), 4, 0.0, 0.0, c.out.u32())
        }),
    ]);
    let f = "sinew_world_family_constraint_count";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_family_constraint_count(NULL_WORLD, 0, c.out.u32())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_family_constraint_count(c.world, 0, std::ptr::null_mut())
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            sinew_world_family_constraint_count(c.world, 15, c.out.u32())
        }),
    ]);
    let f = "sinew_world_read_family_forces";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_read_family_forces(NULL_WORLD, 0, 0, 1, c.out.f32s())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_read_family_forces(c.world, 0, 0, 1, std::ptr::null_mut())
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            sinew_world_read_family_forces(c.world, 15, 0, 1, c.out.f32s())
        }),
        case(f, "count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            sinew_world_read_family_forces(c.world, 0, 0, 0, c.out.f32s())
        }),
        case(
            f,
            "no tethers to read",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe { sinew_world_read_family_forces(c.world, 0, 0, 1, c.out.f32s()) },
        ),
    ]);
    let f = "sinew_world_pressure_volume";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_pressure_volume(NULL_WORLD, 0, c.out.f32s())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_pressure_volume(c.world, 0, std::ptr::null_mut())
        }),
        case(f, "no such id", SINEW_ERROR_OUT_OF_RANGE, |c| unsafe {
            sinew_world_pressure_volume(c.world, 0, c.out.f32s())
        }),
    ]);
    cases
}

pub(super) fn attachment_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let f = "sinew_world_add_attachment_host";
    for (label, tr, status) in [
        (
            "NaN position",
            t(f32::NAN, ID),
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "infinite position",
            t(f32::INFINITY, ID),
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "zero quaternion",
            t(0.0, [0.0; 4]),
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "NaN quaternion",
            t(0.0, [f32::NAN, 0.0, 0.0, 1.0]),
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ] {
        cases.push(case(f, label, status, move |c| unsafe {
            sinew_world_add_attachment_host(c.world, &tr, c.out.u32())
        }));
    }
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_add_attachment_host(NULL_WORLD, &t(0.0, ID), c.out.u32())
        }),
        case(f, "transform NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_attachment_host(c.world, std::ptr::null(), c.out.u32())
        }),
        case(f, "out_host NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_attachment_host(c.world, &t(0.0, ID), std::ptr::null_mut())
        }),
    ]);
    let f = "sinew_world_set_attachment_host_transform";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            sinew_world_set_attachment_host_transform(NULL_WORLD, 0, &t(0.0, ID))
        }),
        case(f, "no such host", SINEW_ERROR_OUT_OF_RANGE, |c| unsafe {
            sinew_world_set_attachment_host_transform(c.world, 0, &t(0.0, ID))
        }),
        case(f, "transform NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_set_attachment_host_transform(c.world, 0, std::ptr::null())
        }),
    ]);
    let f = "sinew_world_add_attachments";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let p = [1u32];
            sinew_world_add_attachments(
                NULL_WORLD,
                0,
                p.as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                c.out.u32(),
            )
        }),
        case(f, "no such host", SINEW_ERROR_OUT_OF_RANGE, |c| unsafe {
            let p = [1u32];
            sinew_world_add_attachments(
                c.world,
                0,
                p.as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                c.out.u32(),
            )
        }),
        case(f, "particles NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_attachments(
                c.world,
                0,
                std::ptr::null(),
                std::ptr::null(),
                1,
                0.0,
                c.out.u32(),
            )
        }),
        case(f, "out_first NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let p = [1u32];
            sinew_world_add_attachments(
                c.world,
                0,
                p.as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                std::ptr::null_mut(),
            )
        }),
        case(f, "count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let p = [1u32];
            sinew_world_add_attachments(
                c.world,
                0,
                p.as_ptr(),
                std::ptr::null(),
                0,
                0.0,
                c.out.u32(),
            )
        }),
    ]);
    let f = "sinew_world_set_attachment_compliance";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_world_set_attachment_compliance(NULL_WORLD, 0, 1, 0.0)
        }),
        case(f, "no attachments", SINEW_ERROR_OUT_OF_RANGE, |c| {
            sinew_world_set_attachment_compliance(c.world, 0, 1, 0.0)
        }),
        case(f, "count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_world_set_attachment_compliance(c.world, 0, 0, 0.0)
        }),
    ]);
    let f = "sinew_world_read_attachment_forces";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_read_attachment_forces(NULL_WORLD, 0, 1, c.out.bytes().cast())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_read_attachment_forces(c.world, 0, 1, std::ptr::null_mut())
        }),
        case(f, "no attachments", SINEW_ERROR_OUT_OF_RANGE, |c| unsafe {
            sinew_world_read_attachment_forces(c.world, 0, 1, c.out.bytes().cast())
        }),
    ]);
    cases
}
