//! Bad input for the rope and cloth builders and their descs, in the tables of
//! bad_input.rs (same fixture and checks; collected by bodies.rs).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

pub(super) fn desc_init_cases() -> Vec<Case> {
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

pub(super) fn rope_cases() -> Vec<Case> {
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

pub(super) fn cloth_cases() -> Vec<Case> {
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
