//! Render normals and tangents (src/world/render_normals.rs) through the C ABI: for a
//! triangle list over given positions, or over a body's particles interpolated like
//! `sinew_body_read_interpolated_positions`, written strided into vertex buffers.

use std::ffi::c_void;

use super::bodies::SinewBody;
use super::readback::StridedOut;
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{guard, optional_slice_from, slice_from, tuples, SinewStatus};
use crate::bodies::BodyId;
use crate::math::Vec3;
use crate::world::render_normals::compute;

/// Writes per-vertex render normals and tangents of `triangle_count` triangles
/// (`triangles`: 3 uint32_t each, vertex indices below `vertex_count`) over
/// `positions` (`vertex_count` SinewVec3):
///
/// * normal (SinewVec3, one every `normal_stride` bytes, 12..=SINEW_MAX_STRIDE_BYTES,
///   into `out_normals`): the normalised sum of the vertex's triangles'
///   `(p1 - p0) x (p2 - p0)` (area-weighted), what Unity's `Mesh.RecalculateNormals`
///   computes for a mesh whose vertices are shared by their triangles (a mesh split at
///   UV seams gets a crease there; pass welded vertices to avoid it); (0, 1, 0) for a
///   vertex with no non-degenerate triangle.
/// * tangent (4 floats x y z w, one every `tangent_stride` bytes,
///   16..=SINEW_MAX_STRIDE_BYTES, into `out_tangents`, or NULL for none): with `uvs`
///   (2 floats u v per vertex, or NULL), the direction of +U summed over the vertex's
///   triangles weighted by their UV area, made perpendicular to the normal, and
///   w = +1 or -1 so that cross(normal, tangent) * w points along +V (Unity's and
///   MikkTSpace's convention, per vertex: no splitting at handedness seams); without
///   UVs, +X made perpendicular to the normal (+Z where the normal is along X), w = 1.
///
/// Never NaN: triangles with a non-finite normal or tangent add nothing. Allocates
/// nothing (the sums accumulate in the output buffers); the same bits for any thread
/// count. A bad index fails with SINEW_ERROR_OUT_OF_RANGE, writing nothing.
///
/// # Safety
/// `positions` must point to `vertex_count` readable SinewVec3, `triangles` to
/// 3 * `triangle_count` readable uint32_t, `uvs` to 2 * `vertex_count` readable floats
/// or be NULL, `out_normals` to `(vertex_count-1)*normal_stride + 12` writable bytes and
/// `out_tangents` to `(vertex_count-1)*tangent_stride + 16` writable bytes or be NULL;
/// the outputs must not overlap the inputs or each other.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_render_normals(
    positions: *const SinewVec3,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    uvs: *const f32,
    out_normals: *mut c_void,
    normal_stride: u32,
    out_tangents: *mut c_void,
    tangent_stride: u32,
) -> SinewStatus {
    guard(entry!(), || {
        let n = vertex_count as usize;
        // SAFETY: this function's safety section makes each pointer readable (writable
        // for the outputs) for the counts and strides given, unaliased, for this call.
        let (positions, (triangles, uvs, mut normals, mut tangents)) = unsafe {
            (
                slice_from(positions, n, "positions")?,
                mesh_io(
                    vertex_count,
                    triangles,
                    triangle_count,
                    uvs,
                    out_normals,
                    normal_stride,
                    out_tangents,
                    tangent_stride,
                )?,
            )
        };
        let position = |k: usize| Vec3::new(positions[k].x, positions[k].y, positions[k].z);
        Ok(compute(
            n,
            position,
            triangles,
            uvs,
            &mut normals,
            tangents.as_mut(),
        )?)
    })
}

/// `sinew_render_normals` over a body's particles interpolated at `alpha` in [0, 1]
/// (as `sinew_body_read_interpolated_positions`; pass the alpha `sinew_world_advance`
/// wrote, or 1 for the current state): vertex k is world particle
/// `vertex_particles[k]` (`vertex_count` uint32_t, any particle of the world: e.g. a
/// torn cloth's render vertices as `sinew_cloth_read_topology` writes them), or, with
/// `vertex_particles` NULL, the body's particle k, and then `vertex_count` must be the
/// body's particle count (SINEW_ERROR_OUT_OF_RANGE otherwise). Vertices sharing a
/// particle (a cloth welded at UV seams) get the same position, each the normal of
/// its own triangles: give them triangles over one shared vertex to share a normal.
///
/// # Safety
/// As `sinew_render_normals`, with `vertex_particles` pointing to `vertex_count`
/// readable uint32_t or NULL in place of `positions`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_body_render_normals(
    world: SinewWorld,
    body: SinewBody,
    alpha: f32,
    vertex_particles: *const u32,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    uvs: *const f32,
    out_normals: *mut c_void,
    normal_stride: u32,
    out_tangents: *mut c_void,
    tangent_stride: u32,
) -> SinewStatus {
    guard(entry!(), || {
        let n = vertex_count as usize;
        // SAFETY: as in `sinew_render_normals`: this function's safety section makes
        // each pointer valid for the counts and strides given, for this call.
        let (vertex_particles, (triangles, uvs, mut normals, mut tangents)) = unsafe {
            (
                optional_slice_from(vertex_particles, n, "vertex_particles")?,
                mesh_io(
                    vertex_count,
                    triangles,
                    triangle_count,
                    uvs,
                    out_normals,
                    normal_stride,
                    out_tangents,
                    tangent_stride,
                )?,
            )
        };
        with_world(world, |w| {
            Ok(w.body_render_normals(
                BodyId(body.id),
                alpha,
                vertex_particles,
                n,
                triangles,
                uvs,
                &mut normals,
                tangents.as_mut(),
            )?)
        })
    })
}

/// The triangles, UVs and outputs both calls read (vertex_count vertices).
type MeshIo<'a> = (
    &'a [[u32; 3]],
    Option<&'a [[f32; 2]]>,
    StridedOut<'a, [f32; 3]>,
    Option<StridedOut<'a, [f32; 4]>>,
);

/// Reads the arguments both calls share.
///
/// # Safety
/// The pointers as the calls' safety sections say: `triangles` readable for
/// `triangle_count` triples, `uvs` NULL or readable for `vertex_count` pairs, the outputs
/// writable for `vertex_count` elements at their strides (`out_tangents` may be NULL).
#[allow(clippy::too_many_arguments)]
unsafe fn mesh_io<'a>(
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    uvs: *const f32,
    out_normals: *mut c_void,
    normal_stride: u32,
    out_tangents: *mut c_void,
    tangent_stride: u32,
) -> super::FfiResult<MeshIo<'a>> {
    let n = vertex_count as usize;
    // SAFETY: forwarded from this function's safety section.
    unsafe {
        Ok((
            tuples::<3>(triangles, triangle_count, "triangles")?,
            optional_slice_from(uvs as *const [f32; 2], n, "uvs")?,
            StridedOut::<[f32; 3]>::new(out_normals, vertex_count, normal_stride, "out_normals")?,
            StridedOut::<[f32; 4]>::optional(
                out_tangents,
                vertex_count,
                tangent_stride,
                "out_tangents",
            )?,
        ))
    }
}
