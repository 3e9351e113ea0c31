//! Bad input for the signed distance field colliders (src/ffi/sdf.rs), in the tables of
//! bad_input.rs (same fixture and checks: status, message, outputs untouched, world
//! unchanged).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so; a layout
//! refused before the distances are read passes a pointer valid for fewer floats than
//! its node count on purpose (the ABI checks the layout first and reads nothing).

use super::mesh_tool_cases::tetra;
use super::*;
use sinew::ffi::sdf::{sinew_sdf_from_mesh, sinew_world_add_sdf_collider};

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };

/// A 3 x 3 x 3 grid of 0.5 m cells around a ball of radius 0.4 (at the centre node).
fn ball() -> Vec<f32> {
    (0..27)
        .map(|k| {
            let p = [k % 3, (k / 3) % 3, k / 9].map(|i| (i as f32 - 1.0) * 0.5);
            (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt() - 0.4
        })
        .collect()
}

type GridEdit = fn(&mut [u32; 3], &mut f32, &mut SinewVec3, &mut Vec<f32>);

fn add_case(label: &str, status: SinewStatus, edit: GridEdit) -> Case {
    case("sinew_world_add_sdf_collider", label, status, move |c| {
        let (mut dims, mut cell, mut origin, mut d) =
            ([3, 3, 3], 0.5, v3(-0.5, -0.5, -0.5), ball());
        edit(&mut dims, &mut cell, &mut origin, &mut d);
        let desc = collider_desc();
        let mut out = SinewCollider { id: 7 };
        let s = unsafe {
            sinew_world_add_sdf_collider(
                c.world,
                &desc,
                dims[0],
                dims[1],
                dims[2],
                cell,
                &origin,
                d.as_ptr(),
                &mut out,
            )
        };
        assert_eq!(out.id, 7, "out_collider untouched");
        s
    })
}

fn add_cases() -> Vec<Case> {
    let invalid = SINEW_ERROR_INVALID_ARGUMENT;
    vec![
        add_case("1 node along X", invalid, |d, _, _, v| {
            d[0] = 1;
            v.truncate(9);
        }),
        add_case("cell 0", invalid, |_, c, _, _| *c = 0.0),
        add_case("cell NaN", invalid, |_, c, _, _| *c = f32::NAN),
        add_case("origin NaN", invalid, |_, _, o, _| o.y = f32::NAN),
        add_case("NaN distance", invalid, |_, _, _, v| v[4] = f32::NAN),
        add_case("distance 1e30", invalid, |_, _, _, v| v[4] = 1e30),
        add_case("no solid", invalid, |_, _, _, v| {
            v.iter_mut().for_each(|x| *x = 1.0)
        }),
        add_case("too many nodes", SINEW_ERROR_OUT_OF_RANGE, |d, _, _, _| {
            *d = [4096, 4096, 2]
        }),
        case(
            "sinew_world_add_sdf_collider",
            "distances NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                let (desc, o) = (collider_desc(), v3(0.0, 0.0, 0.0));
                let mut out = SinewCollider { id: 7 };
                sinew_world_add_sdf_collider(
                    c.world,
                    &desc,
                    3,
                    3,
                    3,
                    0.5,
                    &o,
                    std::ptr::null(),
                    &mut out,
                )
            },
        ),
        case(
            "sinew_world_add_sdf_collider",
            "origin NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                let (desc, d) = (collider_desc(), ball());
                let mut out = SinewCollider { id: 7 };
                sinew_world_add_sdf_collider(
                    c.world,
                    &desc,
                    3,
                    3,
                    3,
                    0.5,
                    std::ptr::null(),
                    d.as_ptr(),
                    &mut out,
                )
            },
        ),
        case(
            "sinew_world_add_sdf_collider",
            "desc NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                let (o, d) = (v3(0.0, 0.0, 0.0), ball());
                let mut out = SinewCollider { id: 7 };
                sinew_world_add_sdf_collider(
                    c.world,
                    std::ptr::null(),
                    3,
                    3,
                    3,
                    0.5,
                    &o,
                    d.as_ptr(),
                    &mut out,
                )
            },
        ),
        case(
            "sinew_world_add_sdf_collider",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| unsafe {
                let (desc, o, d) = (collider_desc(), v3(-0.5, -0.5, -0.5), ball());
                let mut out = SinewCollider { id: 7 };
                sinew_world_add_sdf_collider(
                    NULL_WORLD,
                    &desc,
                    3,
                    3,
                    3,
                    0.5,
                    &o,
                    d.as_ptr(),
                    &mut out,
                )
            },
        ),
    ]
}

/// Which argument a case replaces with NULL.
#[derive(Clone, Copy, PartialEq)]
enum Arg {
    None,
    Vertices,
    Dims,
    Origin,
}

fn mesh_case(
    label: &str,
    status: SinewStatus,
    arg: Arg,
    cell: f32,
    margin: f32,
    triangles: u32,
) -> Case {
    case("sinew_sdf_from_mesh", label, status, move |c| {
        let (v, t) = tetra();
        let dims = c.out.u32();
        let f = c.out.f32s();
        let vp = if arg == Arg::Vertices {
            std::ptr::null()
        } else {
            v.as_ptr()
        };
        unsafe {
            sinew_sdf_from_mesh(
                vp,
                v.len() as u32,
                t.as_ptr(),
                triangles,
                cell,
                margin,
                if arg == Arg::Dims {
                    std::ptr::null_mut()
                } else {
                    dims
                },
                if arg == Arg::Origin {
                    std::ptr::null_mut()
                } else {
                    f.cast()
                },
                // 12 floats after the origin: fewer than the smallest grid here.
                f.add(4),
                12,
            )
        }
    })
}

fn mesh_cases() -> Vec<Case> {
    let invalid = SINEW_ERROR_INVALID_ARGUMENT;
    vec![
        mesh_case("open mesh", invalid, Arg::None, 0.5, 0.1, 3),
        mesh_case("cell 0", invalid, Arg::None, 0.0, 0.1, 4),
        mesh_case("margin -1", invalid, Arg::None, 0.5, -1.0, 4),
        mesh_case("margin NaN", invalid, Arg::None, 0.5, f32::NAN, 4),
        mesh_case(
            "capacity below the nodes",
            SINEW_ERROR_OUT_OF_RANGE,
            Arg::None,
            0.5,
            0.1,
            4,
        ),
        mesh_case(
            "too many nodes",
            SINEW_ERROR_OUT_OF_RANGE,
            Arg::None,
            1.0e-4,
            0.1,
            4,
        ),
        mesh_case(
            "vertices NULL",
            SINEW_ERROR_NULL_POINTER,
            Arg::Vertices,
            0.5,
            0.1,
            4,
        ),
        mesh_case(
            "out_dims NULL",
            SINEW_ERROR_NULL_POINTER,
            Arg::Dims,
            0.5,
            0.1,
            4,
        ),
        mesh_case(
            "out_origin NULL",
            SINEW_ERROR_NULL_POINTER,
            Arg::Origin,
            0.5,
            0.1,
            4,
        ),
    ]
}

pub fn tables() -> Vec<Vec<Case>> {
    vec![add_cases(), mesh_cases()]
}
