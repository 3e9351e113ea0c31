//! Cloth tearing through the C ABI: the threshold and reserve per cloth, the tearing
//! state, and the topology (render vertices and triangles) a host rebuilds its mesh
//! from when the version changes.

use super::bodies::SinewBody;
use super::world::{with_world, SinewWorld};
use super::{answer, guard, non_null, slice_from_mut, Failure, SinewStatus};
use crate::bodies::BodyId;

pub use super::settings::SINEW_MAX_TEAR_RESERVE;

/// A cloth's tearing state (see sinew_cloth_tear_status).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewTearStatus {
    /// The stretch ratio (length / rest length) past which an edge tears; +infinity
    /// while tearing is off.
    pub threshold: f32,
    /// Spare particles left: each split takes one.
    pub reserve_left: u32,
    /// Splits refused because the reserve ran out (the cloth stays whole there).
    pub refused: u64,
    /// The topology version: 0 until the first split, then the number of splits.
    pub version: u64,
}

/// Turns tearing of a cloth on or changes its threshold: from the next step on, an
/// edge longer than `threshold` times its rest length (a stretch ratio above 1,
/// dimensionless; 0 or +infinity turn tearing off) splits the cloth at one of its
/// vertices (the vertex is duplicated, each copy taking half its mass, and the
/// triangles on the torn edge's side move to the copy, so the hole opens). The first
/// call adds `reserve` spare particles to the world (0: a quarter of the cloth's
/// particles, at least 16; at most SINEW_MAX_TEAR_RESERVE); later calls pass 0 or the
/// same count. Tethers go at the first tear. Only distance-model cloths that are not
/// skinned and have no aerodynamic coefficients tear (SINEW_ERROR_INVALID_ARGUMENT
/// otherwise, and for a body that is not a cloth).
#[no_mangle]
pub extern "C" fn sinew_body_set_tear_threshold(
    world: SinewWorld,
    body: SinewBody,
    threshold: f32,
    reserve: u32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.set_cloth_tear_threshold(BodyId(body.id), threshold, reserve)?)
        })
    })
}

/// Writes the cloth's tearing state to `*out_status`.
///
/// # Safety
/// `out_status` must be NULL or point to one writable SinewTearStatus.
#[no_mangle]
pub unsafe extern "C" fn sinew_cloth_tear_status(
    world: SinewWorld,
    body: SinewBody,
    out_status: *mut SinewTearStatus,
) -> SinewStatus {
    let query = || {
        with_world(world, |w| {
            let s = w.cloth_tear_status(BodyId(body.id))?;
            Ok(SinewTearStatus {
                threshold: s.threshold,
                reserve_left: s.reserve_left,
                refused: s.refused,
                version: s.version,
            })
        })
    };
    // SAFETY: `out_status` goes to `answer` unchanged; this function's safety section
    // promises what `answer` needs: NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_status, "out_status", query) }
}

/// Writes the cloth's topology version to `*out_version`: 0 until its first split,
/// then the number of splits. Re-read the topology (sinew_cloth_read_topology) when
/// it changes.
///
/// # Safety
/// `out_version` must be NULL or point to one writable uint64_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_cloth_topology_version(
    world: SinewWorld,
    body: SinewBody,
    out_version: *mut u64,
) -> SinewStatus {
    let query = || with_world(world, |w| Ok(w.cloth_topology_version(BodyId(body.id))?));
    // SAFETY: as in sinew_cloth_tear_status.
    unsafe { answer(entry!(), out_version, "out_version", query) }
}

/// Writes the cloth's number of render vertices (its particles, then the spares its
/// splits took) to `*out_vertex_count` and of triangles to `*out_triangle_count`.
///
/// # Safety
/// `out_vertex_count` and `out_triangle_count` must be NULL or point to one writable
/// uint32_t each.
#[no_mangle]
pub unsafe extern "C" fn sinew_cloth_topology_counts(
    world: SinewWorld,
    body: SinewBody,
    out_vertex_count: *mut u32,
    out_triangle_count: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_vertex_count, "out_vertex_count")?;
        non_null(out_triangle_count, "out_triangle_count")?;
        let (v, t) = with_world(world, |w| Ok(w.cloth_topology_counts(BodyId(body.id))?))?;
        // SAFETY: both are non-null (checked above) and, by this function's safety
        // section, writable for one uint32_t; `write_unaligned` needs no alignment.
        unsafe {
            out_vertex_count.write_unaligned(v);
            out_triangle_count.write_unaligned(t);
        }
        Ok(())
    })
}

/// Writes the cloth's triangles as render-vertex indices (3 uint32_t each) to
/// `out_triangles`, the world particle of each render vertex to
/// `out_vertex_particles` and, unless `out_vertex_sources` is NULL, the vertex of the
/// built cloth each render vertex descends from (itself for those; for a vertex a
/// split added, the vertex that was split: give it that vertex's UV) to
/// `out_vertex_sources`. Vertex i below the cloth's particle count is its particle i;
/// the vertices after them are the spares in the order the splits took them, so a
/// host keeps its vertex buffer and appends. Fails with SINEW_ERROR_OUT_OF_RANGE,
/// writing nothing, when `triangle_capacity` or `vertex_capacity` is below the counts
/// of sinew_cloth_topology_counts.
///
/// # Safety
/// `out_triangles` must point to 3 * `triangle_capacity` writable uint32_t,
/// `out_vertex_particles` to `vertex_capacity` writable uint32_t, and
/// `out_vertex_sources` to `vertex_capacity` writable uint32_t or be NULL.
#[no_mangle]
pub unsafe extern "C" fn sinew_cloth_read_topology(
    world: SinewWorld,
    body: SinewBody,
    out_triangles: *mut u32,
    triangle_capacity: u32,
    out_vertex_particles: *mut u32,
    out_vertex_sources: *mut u32,
    vertex_capacity: u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_triangles, "out_triangles")?;
        non_null(out_vertex_particles, "out_vertex_particles")?;
        with_world(world, |w| {
            let id = BodyId(body.id);
            let (nv, nt) = w.cloth_topology_counts(id)?;
            if triangle_capacity < nt || vertex_capacity < nv {
                return Err(Failure::new(
                    SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
                    format!(
                        "the cloth has {nt} triangles and {nv} vertices; the capacities are \
                         {triangle_capacity} and {vertex_capacity}"
                    ),
                ));
            }
            // SAFETY: the caller promises 3 * triangle_capacity >= 3 * nt writable
            // uint32_t at `out_triangles` ([u32; 3] has u32's alignment) and
            // vertex_capacity >= nv at `out_vertex_particles`.
            let tris = unsafe {
                slice_from_mut(out_triangles as *mut [u32; 3], nt as usize, "out_triangles")?
            };
            // SAFETY: as above.
            let verts = unsafe {
                slice_from_mut(out_vertex_particles, nv as usize, "out_vertex_particles")?
            };
            let sources = if out_vertex_sources.is_null() {
                None
            } else {
                // SAFETY: as above (non-NULL here).
                Some(unsafe {
                    slice_from_mut(out_vertex_sources, nv as usize, "out_vertex_sources")?
                })
            };
            Ok(w.read_cloth_topology_with_sources(id, tris, verts, sources)?)
        })
    })
}
