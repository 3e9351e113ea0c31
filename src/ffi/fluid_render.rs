//! The render outputs of fluids through the C ABI (src/fluid/render/,
//! src/world/fluid_render.rs): per-particle ellipsoids for instanced drawing (Yu &
//! Turk 2013), diffuse particles (spray, foam, bubbles; Ihmsen et al. 2012) and a
//! surface mesh (marching tetrahedra over a narrow band), written strided into caller
//! memory.

use std::ffi::c_void;

use super::bodies::{init_desc, read_desc};
use super::fluids::SinewFluid;
use super::readback::{check_capacity, StridedOut};
pub use super::settings::{SinewAnisotropyDesc, SinewDiffuseDesc, SinewSurfaceDesc};
use super::settings::{ANISOTROPY_DESC_COOKIE, DIFFUSE_DESC_COOKIE, SURFACE_DESC_COOKIE};
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{answer, guard, FfiResult, SinewStatus};
use crate::fluid::{
    AnisotropyDesc, DiffuseDesc, DiffuseParticle, FluidEllipsoid, FluidId, SurfaceCounts,
    SurfaceDesc,
};

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

/// Values of `SinewDiffuseParticle::kind` (crosses as `uint32_t`): what a diffuse
/// particle is, by the fluid particles around it.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewDiffuseKind {
    /// Few fluid neighbours: in the air, ballistic.
    SINEW_DIFFUSE_SPRAY = 0,
    /// At the surface, carried by the fluid.
    SINEW_DIFFUSE_FOAM = 1,
    /// Inside the fluid, rising.
    SINEW_DIFFUSE_BUBBLE = 2,
}

/// One diffuse particle (32 bytes): position (m) and the seconds it has left, velocity
/// (m/s) and its kind (a SinewDiffuseKind).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewDiffuseParticle {
    pub position: SinewVec3,
    pub lifetime: f32,
    pub velocity: SinewVec3,
    pub kind: u32,
}

const _: () = assert!(std::mem::size_of::<SinewDiffuseParticle>() == 32);

impl From<DiffuseParticle> for SinewDiffuseParticle {
    fn from(p: DiffuseParticle) -> Self {
        SinewDiffuseParticle {
            position: p.position.into(),
            lifetime: p.lifetime,
            velocity: p.velocity.into(),
            kind: p.kind as u32,
        }
    }
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewDiffuseDesc.
unsafe fn diffuse_desc(desc: *const SinewDiffuseDesc) -> FfiResult<DiffuseDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            DIFFUSE_DESC_COOKIE,
            "sinew_diffuse_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// A diffuse desc with every field at its default (capacity 0: off; Ihmsen et al.'s
/// potentials with a 2 s lifetime).
#[no_mangle]
pub extern "C" fn sinew_diffuse_desc_default() -> SinewDiffuseDesc {
    SinewDiffuseDesc::from_rust(&DiffuseDesc::default())
}

/// Writes sinew_diffuse_desc_default() to `*out` (for bindings that avoid by-value
/// structs).
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewDiffuseDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_diffuse_desc_init(out: *mut SinewDiffuseDesc) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_diffuse_desc_default()) }
}

/// Sets the diffuse particles of the fluid (spray, foam and bubbles; docs/fluids.md):
/// room for `desc->capacity` of them is reserved now (0 removes them, the default), and
/// every later step moves, ages and spawns them after the fluid's own passes, without
/// allocating. A new capacity or seed starts them afresh; the other settings apply from
/// the next step. They are render state: snapshots do not hold them.
///
/// # Safety
/// `desc` must point to a readable SinewDiffuseDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_set_diffuse(
    world: SinewWorld,
    fluid: SinewFluid,
    desc: *const SinewDiffuseDesc,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: this function's safety section makes `desc` NULL (refused) or readable.
        let d = unsafe { diffuse_desc(desc)? };
        with_world(world, |w| Ok(w.set_fluid_diffuse(FluidId(fluid.id), &d)?))
    })
}

/// Writes the fluid's diffuse settings to `*out_desc` (capacity 0 when it has none).
///
/// # Safety
/// `out_desc` must be NULL or point to writable memory for one SinewDiffuseDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_get_diffuse(
    world: SinewWorld,
    fluid: SinewFluid,
    out_desc: *mut SinewDiffuseDesc,
) -> SinewStatus {
    let body = || {
        with_world(world, |w| {
            Ok(SinewDiffuseDesc::from_rust(
                &w.fluid_diffuse(FluidId(fluid.id))?,
            ))
        })
    };
    // SAFETY: `out_desc` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_desc, "out_desc", body) }
}

/// Copies the fluid's live diffuse particles into `particles` (SinewDiffuseParticle,
/// `stride` 32..=SINEW_MAX_STRIDE_BYTES bytes apart, `capacity` elements), as the last
/// step left them. `*out_count` receives their number (0 for a fluid without diffuse
/// particles). More than `capacity` is SINEW_ERROR_OUT_OF_RANGE, and nothing is
/// written; a NULL `particles` only counts (capacity is not checked).
///
/// # Safety
/// `particles` must be NULL or point to `(capacity-1)*stride + 32` writable bytes;
/// `out_count` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_read_diffuse(
    world: SinewWorld,
    fluid: SinewFluid,
    capacity: u32,
    particles: *mut c_void,
    stride: u32,
    out_count: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: this function's safety section makes `particles` NULL (skipped) or
        // writable for `capacity` elements `stride` apart, for this call.
        let out = unsafe {
            StridedOut::<SinewDiffuseParticle>::optional(particles, capacity, stride, "particles")?
        };
        with_world(world, |w| {
            let id = FluidId(fluid.id);
            let count = w.fluid_diffuse_stats(id)?.count;
            let Some(out) = out else {
                return Ok(count);
            };
            check_capacity(capacity, count, || {
                format!("the fluid's {count} diffuse particles")
            })?;
            // The readback visits the live diffuse particles only: k < count <= capacity.
            Ok(w.read_fluid_diffuse(id, |k, p| out.write(k, *p))?)
        })
    };
    // SAFETY: `out_count` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_count, "out_count", body) }
}

/// A surface desc with every field at its default (cells of one spacing, a kernel of
/// two spacings, the surface at half the bulk's field).
#[no_mangle]
pub extern "C" fn sinew_surface_desc_default() -> SinewSurfaceDesc {
    SinewSurfaceDesc::from_rust(&SurfaceDesc::default())
}

/// Writes sinew_surface_desc_default() to `*out` (for bindings that avoid by-value
/// structs).
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewSurfaceDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_surface_desc_init(out: *mut SinewSurfaceDesc) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_surface_desc_default()) }
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewSurfaceDesc.
unsafe fn surface_desc(desc: *const SinewSurfaceDesc) -> FfiResult<SurfaceDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            SURFACE_DESC_COOKIE,
            "sinew_surface_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// The size of a fluid's surface mesh (8 bytes): vertices (each a position and a
/// normal) and indices (three per triangle).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewSurfaceCounts {
    pub vertices: u32,
    pub indices: u32,
}

const _: () = assert!(std::mem::size_of::<SinewSurfaceCounts>() == 8);

impl From<SurfaceCounts> for SinewSurfaceCounts {
    fn from(c: SurfaceCounts) -> Self {
        SinewSurfaceCounts {
            vertices: c.vertices,
            indices: c.indices,
        }
    }
}

/// Builds the surface mesh of the fluid (docs/fluids.md "Drawing water": marching
/// tetrahedra over a narrow band of a smooth colour field of its live particles,
/// shaped by `desc`: cell size, kernel radius, level), replacing the world's last one,
/// and writes its vertex and index counts to `*out_counts`; copy it out with
/// sinew_fluid_read_surface. Computed by this call from the particles at the positions
/// interpolated by `alpha` in [0, 1] (as sinew_world_read_interpolated_positions): it
/// costs nothing in a step. The mesh is closed, its normals point out and its triangles
/// wind counter-clockwise seen from outside. Buffers grow on the first build and when
/// the mesh grows; later builds do not allocate. An empty fluid has an empty mesh. A
/// cell size outside [radius / 8, radius], a radius outside [spacing, 4 spacing], a
/// grid of more than SINEW_MAX_SURFACE_BLOCKS blocks of 8³ cells, or a fluid so far
/// from the world origin that `float` positions there are spaced wider than the grid's
/// blocks of 8 cells is SINEW_ERROR_OUT_OF_RANGE.
///
/// # Safety
/// `desc` must point to a readable SinewSurfaceDesc; `out_counts` to one writable
/// SinewSurfaceCounts.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_build_surface(
    world: SinewWorld,
    fluid: SinewFluid,
    desc: *const SinewSurfaceDesc,
    alpha: f32,
    out_counts: *mut SinewSurfaceCounts,
) -> SinewStatus {
    let body = || {
        // SAFETY: this function's safety section makes `desc` NULL (refused) or readable.
        let d = unsafe { surface_desc(desc)? };
        with_world(world, |w| {
            Ok(SinewSurfaceCounts::from(w.build_fluid_surface(
                FluidId(fluid.id),
                &d,
                alpha,
            )?))
        })
    };
    // SAFETY: `out_counts` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_counts, "out_counts", body) }
}

/// Copies the mesh of the last sinew_fluid_build_surface of this fluid: vertex
/// positions (SinewVec3, m, `position_stride` 12..=SINEW_MAX_STRIDE_BYTES bytes apart)
/// and unit outward normals (SinewVec3, `normal_stride` apart) into buffers of
/// `vertex_capacity` vertices (the same stride twice interleaves them), and the
/// indices (uint32_t, packed, three per triangle) into `index_capacity` ones. Any of
/// the three may be NULL (skipped; its capacity is not checked). `*out_counts`
/// receives the mesh's counts. A mesh larger than a given buffer is
/// SINEW_ERROR_OUT_OF_RANGE and nothing is written; a fluid whose mesh is not the last
/// one built (another fluid's was built since, or none) is
/// SINEW_ERROR_INVALID_ARGUMENT.
///
/// # Safety
/// `positions` and `normals` must be NULL or point to `(vertex_capacity-1)*stride + 12`
/// writable bytes (their own strides), `indices` NULL or to `index_capacity` writable
/// uint32_t; `out_counts` to one writable SinewSurfaceCounts.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_fluid_read_surface(
    world: SinewWorld,
    fluid: SinewFluid,
    vertex_capacity: u32,
    positions: *mut c_void,
    position_stride: u32,
    normals: *mut c_void,
    normal_stride: u32,
    index_capacity: u32,
    indices: *mut u32,
    out_counts: *mut SinewSurfaceCounts,
) -> SinewStatus {
    let body = || {
        // SAFETY: this function's safety section makes each buffer NULL (skipped) or
        // writable for its capacity, `stride` apart, for this call.
        let (p, n, i) = unsafe {
            (
                StridedOut::<SinewVec3>::optional(
                    positions,
                    vertex_capacity,
                    position_stride,
                    "positions",
                )?,
                StridedOut::<SinewVec3>::optional(
                    normals,
                    vertex_capacity,
                    normal_stride,
                    "normals",
                )?,
                StridedOut::<u32>::optional(indices.cast(), index_capacity, 4, "indices")?,
            )
        };
        with_world(world, |w| {
            let s = w.fluid_surface(FluidId(fluid.id))?;
            let counts = SinewSurfaceCounts {
                vertices: s.positions.len() as u32,
                indices: s.indices.len() as u32,
            };
            if p.is_some() || n.is_some() {
                check_capacity(vertex_capacity, counts.vertices, || {
                    format!("the surface's {} vertices", counts.vertices)
                })?;
            }
            if i.is_some() {
                check_capacity(index_capacity, counts.indices, || {
                    format!("the surface's {} indices", counts.indices)
                })?;
            }
            // Every k below is below its count, which the capacity checks bound.
            if let Some(p) = &p {
                for (k, v) in s.positions.iter().enumerate() {
                    p.write(k, *v);
                }
            }
            if let Some(n) = &n {
                for (k, v) in s.normals.iter().enumerate() {
                    n.write(k, *v);
                }
            }
            if let Some(i) = &i {
                for (k, &v) in s.indices.iter().enumerate() {
                    i.write(k, v);
                }
            }
            Ok(counts)
        })
    };
    // SAFETY: `out_counts` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_counts, "out_counts", body) }
}
