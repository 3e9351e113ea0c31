//! Bad input for the render normals (sinew_render_normals, sinew_body_render_normals),
//! in the tables of bad_input.rs (same fixture and checks: status, message, outputs
//! untouched, world unchanged, hidden state unchanged).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL, misaligned or past the top of memory on purpose
//! where the case's name says so (the ABI refuses those before any read or write);
//! handles may be forged on purpose, which the ABI checks by generation.

use super::*;
use sinew::ffi::bodies::SinewBody;
use sinew::ffi::render_normals::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};

/// One triangle over three vertices, their UVs and a bad index.
static POSITIONS: [SinewVec3; 3] = [
    SinewVec3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    },
    SinewVec3 {
        x: 1.0,
        y: 0.0,
        z: 0.0,
    },
    SinewVec3 {
        x: 0.0,
        y: 0.0,
        z: 1.0,
    },
];
static TRIANGLE: [u32; 3] = [0, 1, 2];
static BAD_TRIANGLE: [u32; 3] = [0, 1, 3];
static UVS: [f32; 6] = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0];

fn pos() -> *const SinewVec3 {
    POSITIONS.as_ptr()
}
fn tri() -> *const u32 {
    TRIANGLE.as_ptr()
}

fn mesh_cases() -> Vec<Case> {
    let f = "sinew_render_normals";
    let null = std::ptr::null_mut::<c_void>();
    vec![
        case(
            f,
            "positions NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                let o = c.out.bytes();
                sinew_render_normals(std::ptr::null(), 3, tri(), 1, UVS.as_ptr(), o, 12, null, 16)
            },
        ),
        case(
            f,
            "positions misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let p = (pos() as *const u8).add(1) as *const SinewVec3;
                sinew_render_normals(
                    p,
                    3,
                    tri(),
                    1,
                    std::ptr::null(),
                    c.out.bytes(),
                    12,
                    null,
                    16,
                )
            },
        ),
        case(
            f,
            "triangles NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                let o = c.out.bytes();
                sinew_render_normals(
                    pos(),
                    3,
                    std::ptr::null(),
                    1,
                    std::ptr::null(),
                    o,
                    12,
                    null,
                    16,
                )
            },
        ),
        case(
            f,
            "out_normals NULL",
            SINEW_ERROR_NULL_POINTER,
            move |_| unsafe {
                sinew_render_normals(pos(), 3, tri(), 1, std::ptr::null(), null, 12, null, 16)
            },
        ),
        case(
            f,
            "normal_stride 8",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                sinew_render_normals(
                    pos(),
                    3,
                    tri(),
                    1,
                    std::ptr::null(),
                    c.out.bytes(),
                    8,
                    null,
                    16,
                )
            },
        ),
        case(
            f,
            "tangent_stride 12",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let (n, t) = (c.out.bytes(), c.out.bytes().cast::<u8>().add(64).cast());
                sinew_render_normals(pos(), 3, tri(), 1, UVS.as_ptr(), n, 12, t, 12)
            },
        ),
        case(
            f,
            "out_normals wraps the address space",
            SINEW_ERROR_OUT_OF_RANGE,
            move |_| unsafe {
                let o = TOP_OF_MEMORY as *mut c_void;
                sinew_render_normals(pos(), 3, tri(), 1, std::ptr::null(), o, 12, null, 16)
            },
        ),
        case(
            f,
            "triangle names vertex 3 of 3",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe {
                let (n, t) = (c.out.bytes(), c.out.bytes().cast::<u8>().add(64).cast());
                let b = BAD_TRIANGLE.as_ptr();
                sinew_render_normals(pos(), 3, b, 1, UVS.as_ptr(), n, 12, t, 16)
            },
        ),
        case(
            f,
            "uvs misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let uv = (UVS.as_ptr() as *const u8).add(1) as *const f32;
                sinew_render_normals(pos(), 3, tri(), 1, uv, c.out.bytes(), 12, null, 16)
            },
        ),
    ]
}

fn body_cases() -> Vec<Case> {
    let f = "sinew_body_render_normals";
    let null = std::ptr::null_mut::<c_void>();
    let none = std::ptr::null::<u32>();
    let mut cases = vec![
        case(
            f,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                let o = c.out.bytes();
                let uv = std::ptr::null();
                sinew_body_render_normals(
                    NULL_WORLD,
                    FORGED_BODY,
                    1.0,
                    none,
                    3,
                    tri(),
                    1,
                    uv,
                    o,
                    12,
                    null,
                    16,
                )
            },
        ),
        case(
            f,
            "forged body",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                let o = c.out.bytes();
                let uv = std::ptr::null();
                sinew_body_render_normals(
                    c.world,
                    FORGED_BODY,
                    1.0,
                    none,
                    3,
                    tri(),
                    1,
                    uv,
                    o,
                    12,
                    null,
                    16,
                )
            },
        ),
        case(
            f,
            "triangles NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                let o = c.out.bytes();
                let uv = std::ptr::null();
                sinew_body_render_normals(
                    c.world,
                    FORGED_BODY,
                    1.0,
                    none,
                    3,
                    none,
                    1,
                    uv,
                    o,
                    12,
                    null,
                    16,
                )
            },
        ),
        case(
            f,
            "out_normals NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                let uv = std::ptr::null();
                sinew_body_render_normals(
                    c.world,
                    FORGED_BODY,
                    1.0,
                    none,
                    3,
                    tri(),
                    1,
                    uv,
                    null,
                    12,
                    null,
                    16,
                )
            },
        ),
        case(
            f,
            "vertex_particles misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let o = c.out.bytes();
                let vp = (tri() as *const u8).add(1) as *const u32;
                let uv = std::ptr::null();
                sinew_body_render_normals(
                    c.world,
                    FORGED_BODY,
                    1.0,
                    vp,
                    3,
                    tri(),
                    1,
                    uv,
                    o,
                    12,
                    null,
                    16,
                )
            },
        ),
    ];
    for (label, alpha) in [
        ("alpha NaN", f32::NAN),
        ("alpha 1.5", 1.5),
        ("alpha -0.5", -0.5),
    ] {
        cases.push(case(
            f,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let o = c.out.bytes();
                let uv = std::ptr::null();
                sinew_body_render_normals(
                    c.world,
                    FORGED_BODY,
                    alpha,
                    none,
                    3,
                    tri(),
                    1,
                    uv,
                    o,
                    12,
                    null,
                    16,
                )
            },
        ));
    }
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![mesh_cases(), body_cases()]
}

#[test]
fn render_normals_reject_bad_input() {
    run_cases(mesh_cases());
    run_cases(body_cases());
}
