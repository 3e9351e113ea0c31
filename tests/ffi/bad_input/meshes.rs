//! Bad input for the soft-body mesh tools (sinew_weld_mesh, sinew_tetrahedralize_mesh,
//! sinew_embed_points_in_tets), in the tables of bad_input.rs (same fixture and checks:
//! status, message, outputs untouched, world unchanged: these calls touch no world).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL (or misaligned) on purpose where the case's name
//! says so (the ABI checks for NULL and alignment before any read or write).

use super::*;
use sinew::ffi::bodies::{sinew_embed_points_in_tets, sinew_tetrahedralize_mesh, sinew_weld_mesh};

/// A closed tetrahedron: 4 vertices, 4 outward triangles.
pub(super) fn tetra() -> (Vec<SinewVec3>, Vec<u32>) {
    (
        vec![
            v3(0.0, 0.0, 0.0),
            v3(1.0, 0.0, 0.0),
            v3(0.0, 1.0, 0.0),
            v3(0.0, 0.0, 1.0),
        ],
        vec![0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
    )
}

/// Which argument a case replaces with NULL (or a misaligned copy).
#[derive(Clone, Copy, PartialEq)]
enum Arg {
    None,
    Vertices,
    Elements,
    Points,
    Out1,
    Out2,
    Out3,
    Count1,
    Count2,
    MisalignedVertices,
}

type MeshEdit = fn(&mut Vec<SinewVec3>, &mut Vec<u32>);

fn null_if<T>(arg: Arg, which: Arg, p: *mut T) -> *mut T {
    if arg == which {
        std::ptr::null_mut()
    } else {
        p
    }
}

/// Vertices as passed: NULL, a misaligned copy (kept alive in `keep`), or the array.
fn vertices_arg(arg: Arg, v: &[SinewVec3], keep: &mut Option<Box<Misaligned>>) -> *const SinewVec3 {
    match arg {
        Arg::Vertices => std::ptr::null(),
        Arg::MisalignedVertices => keep.insert(Misaligned::new(v)).ptr(),
        _ => v.as_ptr(),
    }
}

fn weld_case(label: &str, status: SinewStatus, arg: Arg, tolerance: f32, edit: MeshEdit) -> Case {
    case("sinew_weld_mesh", label, status, move |c| {
        let (mut v, mut t) = tetra();
        edit(&mut v, &mut t);
        let mut keep = None;
        let mut tris = [0u32; 12];
        let (mut nv, mut nt) = (0u32, 0u32);
        let verts: *mut SinewVec3 = c.out.f32s().cast(); // 16 floats: 4 vertices
        let map = c.out.u32(); // 4 u32
        let vp = vertices_arg(arg, &v, &mut keep);
        let tp = if arg == Arg::Elements {
            std::ptr::null()
        } else {
            t.as_ptr()
        };
        unsafe {
            sinew_weld_mesh(
                vp,
                v.len() as u32,
                tp,
                (t.len() / 3) as u32,
                tolerance,
                null_if(arg, Arg::Out1, map),
                null_if(arg, Arg::Out2, verts),
                null_if(arg, Arg::Out3, tris.as_mut_ptr()),
                null_if(arg, Arg::Count1, &mut nv),
                null_if(arg, Arg::Count2, &mut nt),
            )
        }
    })
}

fn weld_cases() -> Vec<Case> {
    let keep: MeshEdit = |_, _| {};
    let mut cases = vec![
        weld_case(
            "tolerance negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            Arg::None,
            -1.0,
            keep,
        ),
        weld_case(
            "tolerance NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            Arg::None,
            f32::NAN,
            keep,
        ),
        weld_case(
            "tolerance infinite",
            SINEW_ERROR_INVALID_ARGUMENT,
            Arg::None,
            f32::INFINITY,
            keep,
        ),
        weld_case(
            "vertex NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            Arg::None,
            0.0,
            |v, _| v[2].y = f32::NAN,
        ),
        weld_case(
            "vertex past the coordinate range",
            SINEW_ERROR_INVALID_ARGUMENT,
            Arg::None,
            0.0,
            |v, _| v[1].x = 1e10,
        ),
        weld_case(
            "index out of range",
            SINEW_ERROR_OUT_OF_RANGE,
            Arg::None,
            0.0,
            |_, t| t[4] = 9,
        ),
        weld_case(
            "vertices misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            Arg::MisalignedVertices,
            0.0,
            keep,
        ),
    ];
    for (label, arg) in [
        ("vertices NULL", Arg::Vertices),
        ("triangles NULL", Arg::Elements),
        ("out_map NULL", Arg::Out1),
        ("out_vertices NULL", Arg::Out2),
        ("out_triangles NULL", Arg::Out3),
        ("out_vertex_count NULL", Arg::Count1),
        ("out_triangle_count NULL", Arg::Count2),
    ] {
        cases.push(weld_case(label, SINEW_ERROR_NULL_POINTER, arg, 0.0, keep));
    }
    cases
}

fn tet_case(
    label: &str,
    status: SinewStatus,
    arg: Arg,
    resolution: u32,
    capacity: u32,
    edit: MeshEdit,
) -> Case {
    case("sinew_tetrahedralize_mesh", label, status, move |c| {
        let (mut v, mut t) = tetra();
        edit(&mut v, &mut t);
        let mut keep = None;
        let mut out_v = vec![v3(0.0, 0.0, 0.0); 4096];
        let mut out_t = vec![0u32; 4 * 4096];
        let counts = c.out.u32(); // 4 u32: the two counts
        let vp = vertices_arg(arg, &v, &mut keep);
        let tp = if arg == Arg::Elements {
            std::ptr::null()
        } else {
            t.as_ptr()
        };
        unsafe {
            sinew_tetrahedralize_mesh(
                vp,
                v.len() as u32,
                tp,
                (t.len() / 3) as u32,
                resolution,
                null_if(arg, Arg::Out1, out_v.as_mut_ptr()),
                capacity,
                null_if(arg, Arg::Out2, out_t.as_mut_ptr()),
                capacity,
                null_if(arg, Arg::Count1, counts),
                null_if(arg, Arg::Count2, counts.add(1)),
            )
        }
    })
}

fn tetrahedralize_cases() -> Vec<Case> {
    let keep: MeshEdit = |_, _| {};
    let invalid = SINEW_ERROR_INVALID_ARGUMENT;
    let mut cases = vec![
        tet_case(
            "resolution 0",
            SINEW_ERROR_OUT_OF_RANGE,
            Arg::None,
            0,
            4096,
            keep,
        ),
        tet_case(
            "resolution 129",
            SINEW_ERROR_OUT_OF_RANGE,
            Arg::None,
            129,
            4096,
            keep,
        ),
        tet_case(
            "capacity below the counts",
            SINEW_ERROR_OUT_OF_RANGE,
            Arg::None,
            4,
            3,
            keep,
        ),
        tet_case("open surface", invalid, Arg::None, 4, 4096, |_, t| {
            t.truncate(9)
        }),
        tet_case("inside-out surface", invalid, Arg::None, 4, 4096, |_, t| {
            for tri in t.chunks_mut(3) {
                tri.swap(1, 2);
            }
        }),
        tet_case(
            "inconsistent winding",
            invalid,
            Arg::None,
            4,
            4096,
            |_, t| t.swap(1, 2),
        ),
        tet_case("flat surface", invalid, Arg::None, 4, 4096, |v, _| {
            v[3].z = 0.0
        }),
        tet_case(
            "triangle with a repeated vertex",
            invalid,
            Arg::None,
            4,
            4096,
            |_, t| t[2] = 0,
        ),
        tet_case("vertex NaN", invalid, Arg::None, 4, 4096, |v, _| {
            v[0].x = f32::NAN
        }),
        tet_case(
            "index out of range",
            SINEW_ERROR_OUT_OF_RANGE,
            Arg::None,
            4,
            4096,
            |_, t| t[0] = 7,
        ),
        tet_case(
            "vertices misaligned",
            invalid,
            Arg::MisalignedVertices,
            4,
            4096,
            keep,
        ),
        tet_case("thinner than a cell", invalid, Arg::None, 1, 4096, keep),
    ];
    for (label, arg) in [
        ("vertices NULL", Arg::Vertices),
        ("triangles NULL", Arg::Elements),
        ("out_vertices NULL, out_tets not", Arg::Out1),
        ("out_tets NULL, out_vertices not", Arg::Out2),
        ("out_vertex_count NULL", Arg::Count1),
        ("out_tet_count NULL", Arg::Count2),
    ] {
        cases.push(tet_case(
            label,
            SINEW_ERROR_NULL_POINTER,
            arg,
            4,
            4096,
            keep,
        ));
    }
    cases
}

fn embed_case(label: &'static str, status: SinewStatus, arg: Arg, edit: MeshEdit) -> Case {
    case("sinew_embed_points_in_tets", label, status, move |c| {
        let (mut v, _) = tetra();
        let mut t = vec![0u32, 1, 2, 3];
        edit(&mut v, &mut t);
        let mut keep = None;
        let p = [
            v3(0.1, 0.1, 0.1),
            if label == "point NaN" {
                v3(f32::NAN, 0.0, 0.0)
            } else {
                v3(0.2, 0.1, 0.1)
            },
        ];
        let vp = vertices_arg(arg, &v, &mut keep);
        let tp = if arg == Arg::Elements {
            std::ptr::null()
        } else {
            t.as_ptr()
        };
        let pp = if arg == Arg::Points {
            std::ptr::null()
        } else {
            p.as_ptr()
        };
        let out_t = c.out.u32(); // 4 u32
        let out_w = c.out.f32s(); // 16 floats
        unsafe {
            sinew_embed_points_in_tets(
                vp,
                v.len() as u32,
                tp,
                (t.len() / 4) as u32,
                pp,
                2,
                null_if(arg, Arg::Out1, out_t),
                null_if(arg, Arg::Out2, out_w),
            )
        }
    })
}

fn embed_cases() -> Vec<Case> {
    let keep: MeshEdit = |_, _| {};
    let invalid = SINEW_ERROR_INVALID_ARGUMENT;
    let mut cases = vec![
        embed_case("inverted tet", invalid, Arg::None, |_, t| t.swap(1, 2)),
        embed_case("flat tet", invalid, Arg::None, |v, _| v[3].z = 0.0),
        embed_case("no tet", invalid, Arg::None, |_, t| t.clear()),
        embed_case(
            "index out of range",
            SINEW_ERROR_OUT_OF_RANGE,
            Arg::None,
            |_, t| t[3] = 4,
        ),
        embed_case("point NaN", invalid, Arg::None, keep),
        embed_case("vertex infinite", invalid, Arg::None, |v, _| {
            v[1].y = f32::INFINITY
        }),
        embed_case(
            "vertices misaligned",
            invalid,
            Arg::MisalignedVertices,
            keep,
        ),
    ];
    for (label, arg) in [
        ("vertices NULL", Arg::Vertices),
        ("tets NULL", Arg::Elements),
        ("points NULL", Arg::Points),
        ("out_tets NULL", Arg::Out1),
        ("out_weights NULL", Arg::Out2),
    ] {
        cases.push(embed_case(label, SINEW_ERROR_NULL_POINTER, arg, keep));
    }
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![weld_cases(), tetrahedralize_cases(), embed_cases()]
}

#[test]
fn mesh_tools_reject_bad_input() {
    for table in tables() {
        run_cases(table);
    }
}
