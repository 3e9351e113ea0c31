//! Bad input for the strain, unilateral, planar, ring and shape-matching families, in
//! the tables of bad_input.rs (same fixture and checks; collected by bodies.rs).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

pub(super) fn family2_cases() -> Vec<Case> {
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
