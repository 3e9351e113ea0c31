//! Bad input for the families, attachments and bodies (issue 4), in the tables of
//! ffi_bad_input.rs (same fixture and checks), plus body-level checks on a world that
//! holds bodies (`body_values_are_checked_and_change_nothing`).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::attachments::*;
use sinew::ffi::bodies::*;
use sinew::ffi::families::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};

fn out_body(c: &mut Ctx) -> *mut SinewBody {
    c.out.bytes().cast()
}

fn t(px: f32, q: [f32; 4]) -> SinewTransform {
    SinewTransform {
        position: v3(px, 0.0, 0.0),
        rotation: SinewQuat {
            x: q[0],
            y: q[1],
            z: q[2],
            w: q[3],
        },
    }
}

const ID: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

type Add2 =
    unsafe extern "C" fn(SinewWorld, *const u32, *const f32, u32, f32, *mut u32) -> SinewStatus;

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
fn cube() -> (Vec<SinewVec3>, Vec<u32>) {
    let v = (0..8u32)
        .map(|i| v3((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32))
        .collect();
    let t = vec![
        0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4, 2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6,
        1, 3, 5, 3, 7, 5,
    ];
    (v, t)
}

fn family_cases() -> Vec<Case> {
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

fn attachment_cases() -> Vec<Case> {
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

fn desc_init_cases() -> Vec<Case> {
    vec![
        case(
            "sinew_rope_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_rope_desc_init(std::ptr::null_mut()) },
        ),
        case(
            "sinew_cloth_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_cloth_desc_init(std::ptr::null_mut()) },
        ),
        case(
            "sinew_cloth_grid_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_cloth_grid_desc_init(std::ptr::null_mut()) },
        ),
        case(
            "sinew_tet_body_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_tet_body_desc_init(std::ptr::null_mut()) },
        ),
        case(
            "sinew_pressure_body_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_pressure_body_desc_init(std::ptr::null_mut()) },
        ),
    ]
}

fn rope_cases() -> Vec<Case> {
    let f = "sinew_world_add_rope";
    let mut cases = vec![
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_add_rope(NULL_WORLD, &sinew_rope_desc_default(), out_body(c))
        }),
        case(f, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_rope(c.world, std::ptr::null(), out_body(c))
        }),
        case(f, "out_body NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_rope(c.world, &sinew_rope_desc_default(), std::ptr::null_mut())
        }),
    ];
    type Edit = fn(&mut SinewRopeDesc);
    let edits: [(&str, Edit, SinewStatus); 8] = [
        (
            "desc not from desc_default",
            |d| d.internal_cookie = 0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "segments 0",
            |d| d.segments = 0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "total_mass NaN",
            |d| d.total_mass = f32::NAN,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "total_mass 0",
            |d| d.total_mass = 0.0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "negative stretch compliance",
            |d| d.stretch_compliance = -1.0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        ("tethers 2", |d| d.tethers = 2, SINEW_ERROR_INVALID_ARGUMENT),
        (
            "start == end",
            |d| d.end = d.start,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "start NaN",
            |d| d.start.x = f32::NAN,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ];
    for (label, edit, status) in edits {
        cases.push(case(f, label, status, move |c| unsafe {
            let mut d = sinew_rope_desc_default();
            edit(&mut d);
            sinew_world_add_rope(c.world, &d, out_body(c))
        }));
    }
    let f = "sinew_world_add_rope_polyline";
    cases.push(case(
        f,
        "2^27 points (over the body limit)",
        SINEW_ERROR_OUT_OF_RANGE,
        |c| unsafe {
            let p = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)];
            // Refused by count before any element is read.
            sinew_world_add_rope_polyline(
                c.world,
                &sinew_rope_desc_default(),
                p.as_ptr(),
                1 << 27,
                out_body(c),
            )
        },
    ));
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let p = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)];
            sinew_world_add_rope_polyline(
                NULL_WORLD,
                &sinew_rope_desc_default(),
                p.as_ptr(),
                2,
                out_body(c),
            )
        }),
        case(f, "points NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_rope_polyline(
                c.world,
                &sinew_rope_desc_default(),
                std::ptr::null(),
                2,
                out_body(c),
            )
        }),
        case(f, "one point", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let p = [v3(0.0, 0.0, 0.0)];
            sinew_world_add_rope_polyline(
                c.world,
                &sinew_rope_desc_default(),
                p.as_ptr(),
                1,
                out_body(c),
            )
        }),
        case(
            f,
            "coincident points",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let p = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(1.0, 0.0, 0.0)];
                sinew_world_add_rope_polyline(
                    c.world,
                    &sinew_rope_desc_default(),
                    p.as_ptr(),
                    3,
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "infinite point",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let p = [v3(0.0, 0.0, 0.0), v3(f32::INFINITY, 0.0, 0.0)];
                sinew_world_add_rope_polyline(
                    c.world,
                    &sinew_rope_desc_default(),
                    p.as_ptr(),
                    2,
                    out_body(c),
                )
            },
        ),
    ]);
    cases
}

fn cloth_cases() -> Vec<Case> {
    let f = "sinew_world_add_cloth_mesh";
    let quad = [
        v3(0.0, 0.0, 0.0),
        v3(1.0, 0.0, 0.0),
        v3(1.0, 0.0, 1.0),
        v3(0.0, 0.0, 1.0),
    ];
    let inv = [1.0f32; 4];
    let mut cases = Vec::new();
    let meshes: [(&str, [u32; 6], SinewStatus); 4] = [
        (
            "index out of range",
            [0, 1, 2, 0, 2, 7],
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "vertex repeated in a triangle",
            [0, 1, 2, 0, 2, 2],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "zero-area triangle",
            [0, 1, 2, 0, 0, 0],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        ("valid mesh, NaN vertex below", [0, 1, 2, 0, 2, 3], SINEW_OK),
    ];
    for (label, tris, status) in meshes.into_iter().take(3) {
        cases.push(case(f, label, status, move |c| unsafe {
            sinew_world_add_cloth_mesh(
                c.world,
                &sinew_cloth_desc_default(),
                quad.as_ptr(),
                4,
                tris.as_ptr(),
                2,
                inv.as_ptr(),
                out_body(c),
            )
        }));
    }
    let tris = [0u32, 1, 2, 0, 2, 3];
    cases.extend([
        case(
            f,
            "collinear triangle",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let line = [
                    v3(0.0, 0.0, 0.0),
                    v3(1.0, 0.0, 0.0),
                    v3(2.0, 0.0, 0.0),
                    v3(0.0, 0.0, 1.0),
                ];
                sinew_world_add_cloth_mesh(
                    c.world,
                    &sinew_cloth_desc_default(),
                    line.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "NaN vertex",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut q = quad;
                q[2].y = f32::NAN;
                sinew_world_add_cloth_mesh(
                    c.world,
                    &sinew_cloth_desc_default(),
                    q.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "negative inverse mass",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let w = [1.0f32, -1.0, 1.0, 1.0];
                sinew_world_add_cloth_mesh(
                    c.world,
                    &sinew_cloth_desc_default(),
                    quad.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    w.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "model 5",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_cloth_desc_default();
                d.model = 5;
                sinew_world_add_cloth_mesh(
                    c.world,
                    &d,
                    quad.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "warp zero",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_cloth_desc_default();
                d.warp = v3(0.0, 0.0, 0.0);
                sinew_world_add_cloth_mesh(
                    c.world,
                    &d,
                    quad.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "bending 9",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_cloth_desc_default();
                d.bending = 9;
                sinew_world_add_cloth_mesh(
                    c.world,
                    &d,
                    quad.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "negative bend compliance",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_cloth_desc_default();
                d.bend_compliance = -1.0;
                sinew_world_add_cloth_mesh(
                    c.world,
                    &d,
                    quad.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "desc not from desc_default",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let mut d = sinew_cloth_desc_default();
                d.internal_cookie = 1;
                sinew_world_add_cloth_mesh(
                    c.world,
                    &d,
                    quad.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "triangles NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_world_add_cloth_mesh(
                    c.world,
                    &sinew_cloth_desc_default(),
                    quad.as_ptr(),
                    4,
                    std::ptr::null(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
        case(
            f,
            "inverse_masses NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_world_add_cloth_mesh(
                    c.world,
                    &sinew_cloth_desc_default(),
                    quad.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
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
                sinew_world_add_cloth_mesh(
                    NULL_WORLD,
                    &sinew_cloth_desc_default(),
                    quad.as_ptr(),
                    4,
                    tris.as_ptr(),
                    2,
                    inv.as_ptr(),
                    out_body(c),
                )
            },
        ),
    ]);
    let f = "sinew_world_add_cloth_grid";
    type Edit = fn(&mut SinewClothGridDesc);
    let edits: [(&str, Edit, SinewStatus); 6] = [
        (
            "grid not from desc_default",
            |g| g.internal_cookie = 7,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "segments_u 0",
            |g| g.segments_u = 0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "segments_v 5000",
            |g| g.segments_v = 5000,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "u parallel to v",
            |g| g.v = g.u,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "pin_corners 16",
            |g| g.pin_corners = 16,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "origin NaN",
            |g| g.origin.y = f32::NAN,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ];
    for (label, edit, status) in edits {
        cases.push(case(f, label, status, move |c| unsafe {
            let mut g = sinew_cloth_grid_desc_default();
            edit(&mut g);
            sinew_world_add_cloth_grid(c.world, &sinew_cloth_desc_default(), &g, out_body(c))
        }));
    }
    cases.extend([
        case(f, "grid NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_cloth_grid(
                c.world,
                &sinew_cloth_desc_default(),
                std::ptr::null(),
                out_body(c),
            )
        }),
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_add_cloth_grid(
                NULL_WORLD,
                &sinew_cloth_desc_default(),
                &sinew_cloth_grid_desc_default(),
                out_body(c),
            )
        }),
    ]);
    cases
}

fn soft_cases() -> Vec<Case> {
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

fn body_handle_cases() -> Vec<Case> {
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

fn family2_cases() -> Vec<Case> {
    let nul = std::ptr::null::<u32>();
    let mut cases = Vec::new();
    let f = "sinew_world_add_triangle_strain";
    for (label, t, cs, status) in [
        (
            "index out of range",
            [0u32, 1, 9],
            [0.0f32, 0.0, 0.0],
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "particle repeated",
            [0, 1, 1],
            [0.0, 0.0, 0.0],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "negative yy compliance",
            [0, 1, 3],
            [0.0, -1.0, 0.0],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "NaN shear compliance",
            [0, 1, 3],
            [0.0, 0.0, f32::NAN],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ] {
        cases.push(case(f, label, status, move |c| unsafe {
            sinew_world_add_triangle_strain(
                c.world,
                t.as_ptr(),
                1,
                cs[0],
                cs[1],
                cs[2],
                c.out.u32(),
            )
        }));
    }
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let t = [0u32, 1, 3];
            sinew_world_add_triangle_strain(NULL_WORLD, t.as_ptr(), 1, 0.0, 0.0, 0.0, c.out.u32())
        }),
        case(
            f,
            "triangles NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_world_add_triangle_strain(c.world, nul, 1, 0.0, 0.0, 0.0, c.out.u32())
            },
        ),
        case(f, "count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let t = [0u32, 1, 3];
            sinew_world_add_triangle_strain(c.world, t.as_ptr(), 0, 0.0, 0.0, 0.0, c.out.u32())
        }),
        case(f, "out_first NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let t = [0u32, 1, 3];
            sinew_world_add_triangle_strain(
                c.world,
                t.as_ptr(),
                1,
                0.0,
                0.0,
                0.0,
                std::ptr::null_mut(),
            )
        }),
    ]);
    let f = "sinew_world_add_tet_strain";
    for (label, t, cs, status) in [
        (
            "index out of range",
            [0u32, 1, 2, 9],
            [0.0f32; 4],
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "particle repeated",
            [0, 1, 2, 2],
            [0.0; 4],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "negative zz compliance",
            [0, 1, 2, 3],
            [0.0, 0.0, -1.0, 0.0],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ] {
        cases.push(case(f, label, status, move |c| unsafe {
            sinew_world_add_tet_strain(
                c.world,
                t.as_ptr(),
                1,
                cs[0],
                cs[1],
                cs[2],
                cs[3],
                c.out.u32(),
            )
        }));
    }
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let t = [0u32, 1, 2, 3];
            sinew_world_add_tet_strain(NULL_WORLD, t.as_ptr(), 1, 0.0, 0.0, 0.0, 0.0, c.out.u32())
        }),
        case(f, "tets NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            sinew_world_add_tet_strain(c.world, nul, 1, 0.0, 0.0, 0.0, 0.0, c.out.u32())
        }),
    ]);
    let f = "sinew_world_add_unilateral_areas";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let t = [0u32, 1, 3];
            sinew_world_add_unilateral_areas(
                NULL_WORLD,
                t.as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                c.out.u32(),
            )
        }),
        case(
            f,
            "triangles NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_world_add_unilateral_areas(
                    c.world,
                    nul,
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            },
        ),
        case(
            f,
            "negative minimum area",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let t = [0u32, 1, 3];
                let m = [-1.0f32];
                sinew_world_add_unilateral_areas(
                    c.world,
                    t.as_ptr(),
                    m.as_ptr(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            },
        ),
        case(
            f,
            "index out of range",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe {
                let t = [0u32, 1, 4];
                sinew_world_add_unilateral_areas(
                    c.world,
                    t.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            },
        ),
    ]);
    let f = "sinew_world_add_unilateral_volumes";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let t = [0u32, 1, 2, 3];
            sinew_world_add_unilateral_volumes(
                NULL_WORLD,
                t.as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                c.out.u32(),
            )
        }),
        case(f, "tets NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            sinew_world_add_unilateral_volumes(c.world, nul, std::ptr::null(), 1, 0.0, c.out.u32())
        }),
        case(
            f,
            "NaN compliance",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let t = [0u32, 1, 2, 3];
                sinew_world_add_unilateral_volumes(
                    c.world,
                    t.as_ptr(),
                    std::ptr::null(),
                    1,
                    f32::NAN,
                    c.out.u32(),
                )
            },
        ),
        case(
            f,
            "particle repeated",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let t = [0u32, 1, 2, 0];
                sinew_world_add_unilateral_volumes(
                    c.world,
                    t.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            },
        ),
    ]);
    let f = "sinew_world_set_planar";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_world_set_planar(NULL_WORLD, 1, 0.0)
        }),
        case(f, "enabled 2", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_world_set_planar(c.world, 2, 0.0)
        }),
        case(f, "z NaN", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_world_set_planar(c.world, 1, f32::NAN)
        }),
        case(f, "z infinite", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_world_set_planar(c.world, 1, f32::INFINITY)
        }),
    ]);
    let f = "sinew_world_add_ring_area";
    for (label, ring, n, k, status) in [
        (
            "two particles",
            [0u32, 1, 2, 3],
            2u32,
            1.0f32,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "particle repeated",
            [0, 1, 2, 1],
            4,
            1.0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "index out of range",
            [0, 1, 2, 7],
            4,
            1.0,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "pressure 0",
            [0, 1, 2, 3],
            4,
            0.0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "pressure NaN",
            [0, 1, 2, 3],
            4,
            f32::NAN,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ] {
        cases.push(case(f, label, status, move |c| unsafe {
            sinew_world_add_ring_area(c.world, ring.as_ptr(), n, k, 0.0, c.out.u32())
        }));
    }
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let r = [0u32, 1, 2];
            sinew_world_add_ring_area(NULL_WORLD, r.as_ptr(), 3, 1.0, 0.0, c.out.u32())
        }),
        case(
            f,
            "particles NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe { sinew_world_add_ring_area(c.world, nul, 3, 1.0, 0.0, c.out.u32()) },
        ),
        case(f, "out_id NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let r = [0u32, 1, 2];
            sinew_world_add_ring_area(c.world, r.as_ptr(), 3, 1.0, 0.0, std::ptr::null_mut())
        }),
    ]);
    let f = "sinew_world_ring_area";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_ring_area(NULL_WORLD, 0, c.out.f32s())
        }),
        case(f, "no such ring", SINEW_ERROR_OUT_OF_RANGE, |c| unsafe {
            sinew_world_ring_area(c.world, 0, c.out.f32s())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_ring_area(c.world, 0, std::ptr::null_mut())
        }),
    ]);
    let f = "sinew_world_add_shape_cluster";
    for (label, members, n, k, y, cr, status) in [
        (
            "one particle",
            [1u32, 2, 3],
            1u32,
            1.0f32,
            f32::INFINITY,
            0.0f32,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "stiffness 2",
            [1, 2, 3],
            3,
            2.0,
            f32::INFINITY,
            0.0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "negative yield",
            [1, 2, 3],
            3,
            1.0,
            -1.0,
            0.0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "creep NaN",
            [1, 2, 3],
            3,
            1.0,
            0.1,
            f32::NAN,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "particle repeated",
            [1, 2, 1],
            3,
            1.0,
            f32::INFINITY,
            0.0,
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "index out of range",
            [1, 2, 8],
            3,
            1.0,
            f32::INFINITY,
            0.0,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
    ] {
        cases.push(case(f, label, status, move |c| unsafe {
            sinew_world_add_shape_cluster(c.world, members.as_ptr(), n, k, y, cr, c.out.u32())
        }));
    }
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let m = [1u32, 2];
            sinew_world_add_shape_cluster(
                NULL_WORLD,
                m.as_ptr(),
                2,
                1.0,
                f32::INFINITY,
                0.0,
                c.out.u32(),
            )
        }),
        case(
            f,
            "particles NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                sinew_world_add_shape_cluster(c.world, nul, 2, 1.0, f32::INFINITY, 0.0, c.out.u32())
            },
        ),
        case(f, "out_id NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let m = [1u32, 2];
            sinew_world_add_shape_cluster(
                c.world,
                m.as_ptr(),
                2,
                1.0,
                f32::INFINITY,
                0.0,
                std::ptr::null_mut(),
            )
        }),
    ]);
    let f = "sinew_world_set_shape_cluster_stiffness";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_world_set_shape_cluster_stiffness(NULL_WORLD, 0, 0.5)
        }),
        case(f, "no such cluster", SINEW_ERROR_OUT_OF_RANGE, |c| {
            sinew_world_set_shape_cluster_stiffness(c.world, 0, 0.5)
        }),
    ]);
    cases
}

#[test]
fn strain_unilateral_planar_ring_shape_reject_bad_input() {
    run_cases(family2_cases());
}

/// Every table of this module.
pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![
        family2_cases(),
        family_cases(),
        attachment_cases(),
        desc_init_cases(),
        rope_cases(),
        cloth_cases(),
        soft_cases(),
        body_handle_cases(),
    ]
}

/// The infallible desc_default functions of this module.
pub(super) const INFALLIBLE: [&str; 5] = [
    "sinew_rope_desc_default",
    "sinew_cloth_desc_default",
    "sinew_cloth_grid_desc_default",
    "sinew_tet_body_desc_default",
    "sinew_pressure_body_desc_default",
];

#[test]
fn families_reject_bad_input() {
    run_cases(family_cases());
}

#[test]
fn attachments_reject_bad_input() {
    run_cases(attachment_cases());
}

#[test]
fn desc_init_rejects_null_and_matches_desc_default() {
    run_cases(desc_init_cases());
    // SAFETY: valid out pointers.
    unsafe {
        let mut r = std::mem::zeroed::<SinewRopeDesc>();
        ok(sinew_rope_desc_init(&mut r), "rope init");
        assert_eq!(r, sinew_rope_desc_default());
        let mut c = std::mem::zeroed::<SinewClothDesc>();
        ok(sinew_cloth_desc_init(&mut c), "cloth init");
        assert_eq!(c, sinew_cloth_desc_default());
        let mut g = std::mem::zeroed::<SinewClothGridDesc>();
        ok(sinew_cloth_grid_desc_init(&mut g), "grid init");
        assert_eq!(g, sinew_cloth_grid_desc_default());
        let mut t = std::mem::zeroed::<SinewTetBodyDesc>();
        ok(sinew_tet_body_desc_init(&mut t), "tet init");
        assert_eq!(t, sinew_tet_body_desc_default());
        let mut p = std::mem::zeroed::<SinewPressureBodyDesc>();
        ok(sinew_pressure_body_desc_init(&mut p), "pressure init");
        assert_eq!(p, sinew_pressure_body_desc_default());
    }
}

#[test]
fn body_builders_reject_malformed_input() {
    run_cases(rope_cases());
    run_cases(cloth_cases());
    run_cases(soft_cases());
}

#[test]
fn body_functions_reject_bad_handles() {
    run_cases(body_handle_cases());
}

/// Everything observable about a world with bodies.
pub(super) fn body_snapshot(w: SinewWorld) -> Vec<u32> {
    let mut n = 0u32;
    let mut bodies = 0u32;
    // SAFETY: valid pointers and sizes.
    unsafe {
        ok(
            sinew::ffi::particles::sinew_world_particle_count(w, &mut n),
            "count",
        );
        ok(sinew_world_body_count(w, &mut bodies), "body count");
        let mut p = vec![v3(0.0, 0.0, 0.0); n as usize];
        ok(
            sinew_world_read_positions(w, 0, n, p.as_mut_ptr().cast(), 12),
            "read",
        );
        let mut v = vec![v3(0.0, 0.0, 0.0); n as usize];
        ok(
            sinew_world_read_velocities(w, 0, n, v.as_mut_ptr().cast(), 12),
            "read",
        );
        let mut out = vec![n, bodies];
        for x in p.iter().chain(&v) {
            out.extend([x.x.to_bits(), x.y.to_bits(), x.z.to_bits()]);
        }
        for fam in 0..5u32 {
            let mut c = 0u32;
            ok(
                sinew_world_family_constraint_count(w, fam, &mut c),
                "family count",
            );
            out.push(c);
        }
        out
    }
}

/// A world with a rope and a tet body, stepped once.
pub(super) fn body_world() -> (SinewWorld, SinewBody, SinewBody) {
    let w = create(&test_desc());
    let mut rope = SinewBody::default();
    let mut tet = SinewBody::default();
    let verts = [
        v3(0.0, 0.0, 0.0),
        v3(1.0, 0.0, 0.0),
        v3(0.0, 1.0, 0.0),
        v3(0.0, 0.0, 1.0),
    ];
    let tets = [0u32, 1, 2, 3];
    // SAFETY: valid pointers.
    unsafe {
        let mut d = sinew_rope_desc_default();
        d.segments = 5;
        ok(sinew_world_add_rope(w, &d, &mut rope), "rope");
        ok(
            sinew_world_add_tet_body(
                w,
                &sinew_tet_body_desc_default(),
                verts.as_ptr(),
                4,
                tets.as_ptr(),
                1,
                std::ptr::null(),
                &mut tet,
            ),
            "tet",
        );
    }
    ok(sinew_world_step(w, DT), "step");
    (w, rope, tet)
}

/// Body-level values on a world holding bodies: each bad call returns its status and a
/// message naming the function, changes nothing, and one more step equals the step of
/// an untouched control world.
#[test]
fn body_values_are_checked_and_change_nothing() {
    type BodyCall = fn(SinewWorld, SinewBody, SinewBody) -> SinewStatus;
    let calls: [(&str, &str, SinewStatus, BodyCall); 12] = [
        (
            "sinew_body_read_forces",
            "which 4 (volume)",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| unsafe {
                let (mut f, mut n) = ([0.0f32; 64], 7u32);
                let s = sinew_body_read_forces(w, r, 4, f.as_mut_ptr(), 64, &mut n);
                assert_eq!(n, 7, "out_count untouched");
                s
            },
        ),
        (
            "sinew_body_read_forces",
            "capacity below the group",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, r, _| unsafe {
                let (mut f, mut n) = ([-1.0f32; 2], 7u32);
                let s = sinew_body_read_forces(w, r, 0, f.as_mut_ptr(), 2, &mut n);
                assert!(f == [-1.0; 2] && n == 7, "nothing written");
                s
            },
        ),
        (
            "sinew_body_read_forces",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |w, r, _| unsafe {
                let mut n = 0u32;
                sinew_body_read_forces(w, r, 0, std::ptr::null_mut(), 64, &mut n)
            },
        ),
        (
            "sinew_body_set_compliance",
            "NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_compliance(w, r, 0, f32::NAN),
        ),
        (
            "sinew_body_set_compliance",
            "negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_compliance(w, r, 2, -1.0),
        ),
        (
            "sinew_body_set_compliance",
            "which 5",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_compliance(w, r, 5, 0.0),
        ),
        (
            "sinew_body_set_damping",
            "negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_damping(w, r, -1.0),
        ),
        (
            "sinew_body_set_pressure",
            "rope has no pressure",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_pressure(w, r, 1.5),
        ),
        (
            "sinew_body_volume",
            "rope has no volume",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| unsafe {
                let mut v = 0.0;
                sinew_body_volume(w, r, &mut v)
            },
        ),
        (
            "sinew_body_read_positions",
            "capacity below the body",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, r, _| unsafe {
                let mut buf = [0u8; 64];
                sinew_body_read_positions(w, r, buf.as_mut_ptr().cast(), 2, 12)
            },
        ),
        (
            "sinew_world_remove_body",
            "body of another world",
            SINEW_ERROR_INVALID_HANDLE,
            |w, _, _| {
                let (other, rope2, tet2) = body_world();
                let _ = tet2;
                let s = sinew_world_remove_body(w, rope2);
                ok(sinew_world_destroy(other), "destroy other");
                s
            },
        ),
        (
            "sinew_world_remove_body",
            "removed twice",
            SINEW_ERROR_INVALID_HANDLE,
            |w, r, _| {
                // Remove in a twin world, then use the stale handle value here after removal
                // there: the handle of the removed rope is invalid in its own world.
                let (twin, rope2, _) = body_world();
                ok(sinew_world_remove_body(twin, rope2), "first removal");
                let s = sinew_world_remove_body(twin, rope2);
                let msg = last_error();
                assert!(msg.contains("removed"), "{msg}");
                ok(sinew_world_destroy(twin), "destroy twin");
                let _ = (w, r);
                s
            },
        ),
    ];
    for (function, label, expected, call) in calls {
        let (w, rope, tet) = body_world();
        let (control, _, _) = body_world();
        let before = body_snapshot(w);
        let primed = prime_last_error(function);
        let s = call(w, rope, tet);
        assert_eq!(s, expected, "{function} [{label}]: {}", last_error());
        let msg = last_error();
        assert!(
            msg.starts_with(&format!("{function}: ")) && msg != primed,
            "{function} [{label}]: {msg}"
        );
        assert_eq!(
            body_snapshot(w),
            before,
            "{function} [{label}] changed the world"
        );
        ok(sinew_world_step(w, DT), "step");
        ok(sinew_world_step(control, DT), "step");
        assert_eq!(
            body_snapshot(w),
            body_snapshot(control),
            "{function} [{label}]: hidden state changed"
        );
        ok(sinew_world_destroy(w), "destroy");
        ok(sinew_world_destroy(control), "destroy");
    }
}
