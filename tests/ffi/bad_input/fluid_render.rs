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

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![anisotropy_cases()]
}

/// The infallible desc_default functions of this module.
pub(super) const INFALLIBLE: [&str; 1] = ["sinew_anisotropy_desc_default"];

#[test]
fn render_outputs_reject_bad_input() {
    run_cases(anisotropy_cases());
}
