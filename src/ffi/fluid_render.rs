//! The render outputs of fluids through the C ABI (src/fluid/render/,
//! src/world/fluid_render.rs): per-particle ellipsoids for instanced drawing (Yu &
//! Turk 2013), written strided into caller memory.

use std::ffi::c_void;

use super::bodies::{init_desc, read_desc};
use super::fluids::SinewFluid;
use super::readback::{check_capacity, StridedOut};
pub use super::settings::SinewAnisotropyDesc;
use super::settings::ANISOTROPY_DESC_COOKIE;
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{answer, FfiResult, SinewStatus};
use crate::fluid::{AnisotropyDesc, FluidEllipsoid, FluidId};

/// One particle's ellipsoid (48 bytes): its centre and three orthogonal axes, each a
/// unit direction times the radius along it (m), longest first and right-handed. The
/// columns `axis0 axis1 axis2 center` are the affine transform of a unit sphere: the
/// instance matrix of a sphere mesh of radius 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewFluidEllipsoid {
    /// The smoothed centre (m).
    pub center: SinewVec3,
    pub axis0: SinewVec3,
    pub axis1: SinewVec3,
    pub axis2: SinewVec3,
}

const _: () = assert!(std::mem::size_of::<SinewFluidEllipsoid>() == 48);

impl From<FluidEllipsoid> for SinewFluidEllipsoid {
    fn from(e: FluidEllipsoid) -> Self {
        SinewFluidEllipsoid {
            center: e.center.into(),
            axis0: e.axes[0].into(),
            axis1: e.axes[1].into(),
            axis2: e.axes[2].into(),
        }
    }
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewAnisotropyDesc.
unsafe fn anisotropy_desc(desc: *const SinewAnisotropyDesc) -> FfiResult<AnisotropyDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            ANISOTROPY_DESC_COOKIE,
            "sinew_anisotropy_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// An anisotropy desc with every field at its default (Yu & Turk's λ 0.9, k_r 4,
/// k_n 0.5; the bulk drawn at half the spacing).
#[no_mangle]
pub extern "C" fn sinew_anisotropy_desc_default() -> SinewAnisotropyDesc {
    SinewAnisotropyDesc::from_rust(&AnisotropyDesc::default())
}

/// Writes sinew_anisotropy_desc_default() to `*out` (for bindings that avoid by-value
/// structs).
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewAnisotropyDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_anisotropy_desc_init(out: *mut SinewAnisotropyDesc) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_anisotropy_desc_default()) }
}

/// Computes and copies the ellipsoid of each live particle of the fluid, in the order
/// of sinew_fluid_read_particles, into `ellipsoids` (SinewFluidEllipsoid, `stride`
/// 48..=SINEW_MAX_STRIDE_BYTES bytes apart, `capacity` elements): Yu & Turk's
/// anisotropic kernels from the particle's neighbours within the smoothing radius,
/// shaped by `desc` (radius, smoothing, stretch clamp; docs/fluids.md). Computed by
/// this call from the neighbour grid of the last step and the particles where they
/// are, so it costs nothing in a step that nobody reads it after; particles emitted
/// since the last step see no neighbours until the next one (they are drawn as
/// isolated spheres). Centres follow the positions interpolated by `alpha` in [0, 1]
/// (as sinew_world_read_interpolated_positions). `*out_count` receives the number of
/// live particles. More live particles than `capacity` is SINEW_ERROR_OUT_OF_RANGE,
/// and nothing is written; a NULL `ellipsoids` only counts (capacity is not checked).
///
/// # Safety
/// `desc` must point to a readable SinewAnisotropyDesc; `ellipsoids` must be NULL or
/// point to `(capacity-1)*stride + 48` writable bytes; `out_count` to one writable
/// uint32_t.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_fluid_read_anisotropy(
    world: SinewWorld,
    fluid: SinewFluid,
    desc: *const SinewAnisotropyDesc,
    alpha: f32,
    capacity: u32,
    ellipsoids: *mut c_void,
    stride: u32,
    out_count: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: this function's safety section makes `desc` NULL (refused) or readable.
        let d = unsafe { anisotropy_desc(desc)? };
        // SAFETY: this function's safety section makes `ellipsoids` NULL (skipped) or
        // writable for `capacity` elements `stride` apart, for this call.
        let out = unsafe {
            StridedOut::<SinewFluidEllipsoid>::optional(ellipsoids, capacity, stride, "ellipsoids")?
        };
        crate::world::interpolation::check_alpha(alpha)?;
        d.validate()?;
        with_world(world, |w| {
            let id = FluidId(fluid.id);
            let count = w.fluid_stats(id)?.count;
            let Some(out) = out else {
                return Ok(count);
            };
            check_capacity(capacity, count, || {
                format!("the fluid's {count} live particles")
            })?;
            // The readback visits the live particles only: k < count <= capacity.
            Ok(w.read_fluid_anisotropy(id, &d, alpha, |k, e| out.write(k, *e))?)
        })
    };
    // SAFETY: `out_count` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_count, "out_count", body) }
}
