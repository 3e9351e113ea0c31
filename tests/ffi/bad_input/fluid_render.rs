//! Bad input for the fluid render outputs (src/ffi/fluid_render.rs), in the tables of
//! bad_input.rs (same fixture and checks): NULL pointers, the desc's cookie and every
//! bad value, strides, alpha, null and forged handles. Each: a status, a message
//! naming the function, no output written, nothing changed.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be forged on purpose, which
//! the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::fluid_render::*;
use sinew::ffi::fluids::SinewFluid;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_FLUID: SinewFluid = SinewFluid {
    id: 0x0000_1234_0000_0001,
};

type AnisotropyEdit = fn(&mut SinewAnisotropyDesc);

/// Every bad value of an anisotropy desc, one field at a time.
fn bad_anisotropy_descs() -> Vec<(&'static str, AnisotropyEdit)> {
    vec![
        ("cookie", |d| d.internal_cookie = 0),
        ("radius negative", |d| d.radius = -0.01),
        ("radius NaN", |d| d.radius = f32::NAN),
        ("radius above max spacing", |d| d.radius = 1.0e6),
        ("smoothing negative", |d| d.smoothing = -0.1),
        ("smoothing above 1", |d| d.smoothing = 1.5),
        ("max ratio below 1", |d| d.max_ratio = 0.5),
        ("max ratio infinite", |d| d.max_ratio = f32::INFINITY),
        ("scale 0", |d| d.scale = 0.0),
        ("scale NaN", |d| d.scale = f32::NAN),
        ("isolated scale negative", |d| d.isolated_scale = -1.0),
        ("min neighbours above 1000", |d| d.min_neighbours = 1001),
    ]
}

/// sinew_fluid_read_anisotropy on the fixture's world (`world`, else the null
/// handle) with `desc`, `alpha`, `capacity`, the fixture's byte buffer every `stride`
/// bytes, and `out_count` (or NULL).
fn read_anisotropy(
    c: &mut Ctx,
    world: bool,
    desc: *const SinewAnisotropyDesc,
    alpha: f32,
    (capacity, stride): (u32, u32),
    count: bool,
) -> SinewStatus {
    let world = if world { c.world } else { NULL_WORLD };
    let out = c.out.bytes();
    let n = if count {
        c.out.u32()
    } else {
        std::ptr::null_mut()
    };
    unsafe {
        sinew_fluid_read_anisotropy(world, FORGED_FLUID, desc, alpha, capacity, out, stride, n)
    }
}

fn anisotropy_cases() -> Vec<Case> {
    let f = "sinew_fluid_read_anisotropy";
    let d = sinew_anisotropy_desc_default();
    let mut cases = vec![
        case(
            "sinew_anisotropy_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_anisotropy_desc_init(std::ptr::null_mut()) },
        ),
        case(f, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| {
            read_anisotropy(c, true, std::ptr::null(), 1.0, (4, 48), true)
        }),
        case(f, "out_count NULL", SINEW_ERROR_NULL_POINTER, move |c| {
            read_anisotropy(c, true, &d, 1.0, (4, 48), false)
        }),
        case(f, "stride 47", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            read_anisotropy(c, true, &d, 1.0, (4, 47), true)
        }),
        case(f, "stride 0", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            read_anisotropy(c, true, &d, 1.0, (4, 0), true)
        }),
        case(
            f,
            "stride above SINEW_MAX_STRIDE_BYTES",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| read_anisotropy(c, true, &d, 1.0, (1, (1 << 20) + 1), true),
        ),
        case(f, "alpha 1.5", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            read_anisotropy(c, true, &d, 1.5, (4, 48), true)
        }),
        case(f, "alpha NaN", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            read_anisotropy(c, true, &d, f32::NAN, (4, 48), true)
        }),
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, move |c| {
            read_anisotropy(c, false, &d, 1.0, (4, 48), true)
        }),
        case(f, "fluid forged", SINEW_ERROR_INVALID_HANDLE, move |c| {
            read_anisotropy(c, true, &d, 1.0, (4, 48), true)
        }),
    ];
    for (label, edit) in bad_anisotropy_descs() {
        cases.push(case(f, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = sinew_anisotropy_desc_default();
            edit(&mut d);
            read_anisotropy(c, true, &d, 1.0, (4, 48), true)
        }));
    }
    cases
}

type DiffuseEdit = fn(&mut SinewDiffuseDesc);

/// Every bad value of a diffuse desc, one field at a time.
fn bad_diffuse_descs() -> Vec<(&'static str, DiffuseEdit)> {
    vec![
        ("cookie", |d| d.internal_cookie ^= 1),
        ("capacity above max", |d| d.capacity = u32::MAX),
        ("lifetime 0", |d| d.lifetime = 0.0),
        ("lifetime NaN", |d| d.lifetime = f32::NAN),
        ("trapped air rate negative", |d| d.trapped_air_rate = -1.0),
        ("trapped air min above max", |d| d.trapped_air_min = 100.0),
        ("wave crest max infinite", |d| {
            d.wave_crest_max = f32::INFINITY
        }),
        ("energy min above max", |d| d.energy_min = 1000.0),
        ("spray above bubble neighbours", |d| d.spray_neighbours = 50),
        ("buoyancy negative", |d| d.buoyancy = -1.0),
        ("drag above 1", |d| d.drag = 2.0),
    ]
}

fn diffuse_cases() -> Vec<Case> {
    let set = "sinew_fluid_set_diffuse";
    let d = sinew_diffuse_desc_default();
    let mut cases = vec![
        case(
            "sinew_diffuse_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_diffuse_desc_init(std::ptr::null_mut()) },
        ),
        case(set, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_fluid_set_diffuse(c.world, FORGED_FLUID, std::ptr::null())
        }),
        case(
            set,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |_| unsafe { sinew_fluid_set_diffuse(NULL_WORLD, FORGED_FLUID, &d) },
        ),
        case(
            set,
            "fluid forged",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe { sinew_fluid_set_diffuse(c.world, FORGED_FLUID, &d) },
        ),
        case(
            "sinew_fluid_get_diffuse",
            "out_desc NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_fluid_get_diffuse(c.world, FORGED_FLUID, std::ptr::null_mut()) },
        ),
        case(
            "sinew_fluid_get_diffuse",
            "fluid forged",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe { sinew_fluid_get_diffuse(c.world, FORGED_FLUID, c.out.bytes().cast()) },
        ),
    ];
    let read = "sinew_fluid_read_diffuse";
    type Read = fn(&mut Ctx) -> SinewStatus;
    let reads: [(&str, SinewStatus, Read); 5] = [
        ("out_count NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let w = c.world;
            sinew_fluid_read_diffuse(w, FORGED_FLUID, 4, c.out.bytes(), 32, std::ptr::null_mut())
        }),
        ("stride 31", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let (w, b) = (c.world, c.out.bytes());
            sinew_fluid_read_diffuse(w, FORGED_FLUID, 4, b, 31, c.out.u32())
        }),
        (
            "stride above SINEW_MAX_STRIDE_BYTES",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let (w, b) = (c.world, c.out.bytes());
                sinew_fluid_read_diffuse(w, FORGED_FLUID, 1, b, (1 << 20) + 1, c.out.u32())
            },
        ),
        ("world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let b = c.out.bytes();
            sinew_fluid_read_diffuse(NULL_WORLD, FORGED_FLUID, 4, b, 32, c.out.u32())
        }),
        ("fluid forged", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let (w, b) = (c.world, c.out.bytes());
            sinew_fluid_read_diffuse(w, FORGED_FLUID, 4, b, 32, c.out.u32())
        }),
    ];
    for (label, status, call) in reads {
        cases.push(case(read, label, status, call));
    }
    for (label, edit) in bad_diffuse_descs() {
        cases.push(case(set, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = sinew_diffuse_desc_default();
            d.capacity = 16;
            edit(&mut d);
            unsafe { sinew_fluid_set_diffuse(c.world, FORGED_FLUID, &d) }
        }));
    }
    cases
}

type SurfaceEdit = fn(&mut SinewSurfaceDesc);

/// Every bad value of a surface desc, one field at a time (the relations to the
/// fluid's spacing are checked with a fluid: tests/c/fluid_render_test.c).
fn bad_surface_descs() -> Vec<(&'static str, SurfaceEdit)> {
    vec![
        ("cookie", |d| d.internal_cookie ^= 1),
        ("cell size negative", |d| d.cell_size = -0.01),
        ("cell size NaN", |d| d.cell_size = f32::NAN),
        ("cell size above max", |d| d.cell_size = 1.0e6),
        ("radius negative", |d| d.radius = -0.01),
        ("radius infinite", |d| d.radius = f32::INFINITY),
        ("threshold 0", |d| d.threshold = 0.0),
        ("threshold 1", |d| d.threshold = 1.0),
        ("threshold NaN", |d| d.threshold = f32::NAN),
    ]
}

fn surface_cases() -> Vec<Case> {
    let build = "sinew_fluid_build_surface";
    let d = sinew_surface_desc_default();
    let counts = |c: &mut Ctx| c.out.bytes().cast::<SinewSurfaceCounts>();
    let mut cases = vec![
        case(
            "sinew_surface_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_surface_desc_init(std::ptr::null_mut()) },
        ),
        case(
            build,
            "desc NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                let o = counts(c);
                sinew_fluid_build_surface(c.world, FORGED_FLUID, std::ptr::null(), 1.0, o)
            },
        ),
        case(
            build,
            "out_counts NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                let o = std::ptr::null_mut();
                sinew_fluid_build_surface(c.world, FORGED_FLUID, &d, 1.0, o)
            },
        ),
        case(
            build,
            "alpha 1.5",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let o = counts(c);
                sinew_fluid_build_surface(c.world, FORGED_FLUID, &d, 1.5, o)
            },
        ),
        case(
            build,
            "alpha NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let o = counts(c);
                sinew_fluid_build_surface(c.world, FORGED_FLUID, &d, f32::NAN, o)
            },
        ),
        case(
            build,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                let o = counts(c);
                sinew_fluid_build_surface(NULL_WORLD, FORGED_FLUID, &d, 1.0, o)
            },
        ),
        case(
            build,
            "fluid forged",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                let o = counts(c);
                sinew_fluid_build_surface(c.world, FORGED_FLUID, &d, 1.0, o)
            },
        ),
    ];
    for (label, edit) in bad_surface_descs() {
        cases.push(case(build, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = sinew_surface_desc_default();
            edit(&mut d);
            let o = counts(c);
            unsafe { sinew_fluid_build_surface(c.world, FORGED_FLUID, &d, 1.0, o) }
        }));
    }
    let read = "sinew_fluid_read_surface";
    type Read = fn(&mut Ctx) -> SinewStatus;
    // Positions and normals share the fixture's byte buffer (4 vertices); indices and
    // counts have their own.
    let reads: [(&str, SinewStatus, Read); 6] = [
        ("out_counts NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let (w, b) = (c.world, c.out.bytes());
            let n = std::ptr::null_mut();
            sinew_fluid_read_surface(w, FORGED_FLUID, 4, b, 12, n, 12, 0, n.cast(), n.cast())
        }),
        (
            "position stride 11",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let (w, b, o) = (c.world, c.out.bytes(), c.out.u32());
                let n = std::ptr::null_mut();
                sinew_fluid_read_surface(w, FORGED_FLUID, 4, b, 11, n, 12, 0, n.cast(), o.cast())
            },
        ),
        (
            "normal stride 0",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let (w, b, o) = (c.world, c.out.bytes(), c.out.u32());
                let n = std::ptr::null_mut();
                sinew_fluid_read_surface(w, FORGED_FLUID, 4, n, 12, b, 0, 0, n.cast(), o.cast())
            },
        ),
        (
            "position stride above SINEW_MAX_STRIDE_BYTES",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let (w, b, o) = (c.world, c.out.bytes(), c.out.u32());
                let n = std::ptr::null_mut();
                let s = (1 << 20) + 1;
                sinew_fluid_read_surface(w, FORGED_FLUID, 1, b, s, n, 12, 0, n.cast(), o.cast())
            },
        ),
        ("world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let (b, o) = (c.out.bytes(), c.out.u32());
            let n = std::ptr::null_mut();
            sinew_fluid_read_surface(
                NULL_WORLD,
                FORGED_FLUID,
                4,
                b,
                12,
                n,
                12,
                0,
                n.cast(),
                o.cast(),
            )
        }),
        ("fluid forged", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let (w, b, o) = (c.world, c.out.bytes(), c.out.u32());
            let n = std::ptr::null_mut();
            sinew_fluid_read_surface(w, FORGED_FLUID, 4, b, 12, n, 12, 0, n.cast(), o.cast())
        }),
    ];
    for (label, status, call) in reads {
        cases.push(case(read, label, status, call));
    }
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![anisotropy_cases(), diffuse_cases(), surface_cases()]
}

/// The infallible desc_default functions of this module.
pub(super) const INFALLIBLE: [&str; 3] = [
    "sinew_anisotropy_desc_default",
    "sinew_diffuse_desc_default",
    "sinew_surface_desc_default",
];

#[test]
fn render_outputs_reject_bad_input() {
    run_cases(anisotropy_cases());
    run_cases(diffuse_cases());
    run_cases(surface_cases());
}
