//! Signed distance field colliders through the C ABI (src/collision/colliders/sdf.rs):
//! adding one from a host's grid, and building a grid from a closed triangle mesh into
//! caller memory (no world involved), so a host can bake it once, at import, and keep
//! it with its assets.

use super::collision::{SinewCollider, SinewColliderDesc, SinewShape};
use super::readback::check_capacity;
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{guard, non_null, slice_from, slice_from_mut, SinewStatus};
use crate::collision::colliders::sdf::SdfGrid;
use crate::error::try_with_capacity;
use crate::math::Vec3;

/// Adds a static signed distance field collider: `nx` x `ny` x `nz` nodes (each >= 2,
/// at most SINEW_MAX_SDF_SAMPLES in all) every `cell_size` m along the local axes, node
/// (i, j, k) at local `*origin + cell_size * (i, j, k)`, its signed distance (m,
/// negative inside the solid, finite, within ±SINEW_MAX_LENGTH) at
/// `distances[(k * ny + j) * nx + i]` (x fastest). The field is sampled trilinearly
/// with its gradient as the outward normal, and outside the grid's box grows like the
/// distance to the box. `desc` gives the transform and material (its shape is
/// ignored); the collider is swept along each particle's path (a fast particle does
/// not pass a wall two cells thick) with the same friction and restitution as every
/// collider, may be made dynamic (sinew_collider_set_dynamics) and moved like any
/// other; its shape reads as SINEW_SHAPE_SDF. The distances are copied (4 bytes a
/// node). A grid with no distance <= 0 is refused (it has no solid). Nothing changes
/// on failure. `*out_collider` receives the handle.
///
/// # Safety
/// `desc` must point to a readable SinewColliderDesc, `origin` to one readable
/// SinewVec3, `distances` to nx*ny*nz readable floats, `out_collider` to one writable
/// SinewCollider.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_world_add_sdf_collider(
    world: SinewWorld,
    desc: *const SinewColliderDesc,
    nx: u32,
    ny: u32,
    nz: u32,
    cell_size: f32,
    origin: *const SinewVec3,
    distances: *const f32,
    out_collider: *mut SinewCollider,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(desc, "desc")?;
        non_null(origin, "origin")?;
        non_null(out_collider, "out_collider")?;
        // SAFETY: `desc` is non-null (checked above) and, by this function's safety
        // section, points to one readable SinewColliderDesc; `read_unaligned` needs no
        // alignment.
        let mut d = unsafe { desc.read_unaligned() };
        d.shape = SinewShape::SINEW_SHAPE_SDF as u32;
        let d = super::collision::desc_from_c(&d)?;
        // SAFETY: `origin` is non-null (checked above) and points to one readable
        // SinewVec3 (this function's safety section); `read_unaligned` needs no alignment.
        let origin = Vec3::from(unsafe { origin.read_unaligned() });
        let dims = [nx, ny, nz];
        // The layout is checked before the distances are read, so a count past the
        // limit is refused by name rather than as a batch.
        let nodes = crate::collision::colliders::sdf::check_layout(dims, cell_size, origin)?;
        // SAFETY: the caller promises nx*ny*nz readable floats; `slice_from` checks
        // non-null, alignment and the batch limit before it makes the slice.
        let values = unsafe { slice_from(distances, nodes, "distances")? };
        let mut copy = try_with_capacity::<f32>(nodes, "distance field")?;
        copy.extend_from_slice(values);
        let grid = SdfGrid {
            dims,
            cell_size,
            origin,
            distances: copy,
        };
        let id = with_world(world, |w| Ok(w.add_sdf_collider(&d, grid)?))?;
        // SAFETY: `out_collider` is non-null (checked above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned`
        // needs no alignment.
        unsafe { out_collider.write_unaligned(SinewCollider { id: id.0 }) };
        Ok(())
    })
}

/// Builds the signed distance field of a closed triangle mesh (vertices in m,
/// counter-clockwise seen from outside; seams at bit-identical positions are welded
/// first) for sinew_world_add_sdf_collider: nodes every `cell_size` m over the mesh's
/// box grown by `margin` m on every side (at least the largest particle radius plus a
/// cell), each node's exact distance to the nearest triangle, negative inside (a
/// watertight winding-number test). An open, inconsistently wound, inside-out or
/// degenerate mesh is refused naming the edge or triangle
/// (SINEW_ERROR_INVALID_ARGUMENT); a grid over SINEW_MAX_SDF_SAMPLES nodes is refused
/// (SINEW_ERROR_OUT_OF_RANGE: use a larger cell).
///
/// Always writes the node counts to `out_dims[0..3]` and the local position of node
/// (0, 0, 0) to `*out_origin`. Count query: with `out_distances` NULL nothing else is
/// done (cheap: the mesh is checked, no distance computed). Otherwise the distances go
/// to `out_distances[0..nx*ny*nz]` (x fastest); a `capacity` (floats) below the node
/// count is refused (SINEW_ERROR_OUT_OF_RANGE, nothing written). The result depends
/// only on the arguments (one thread), so the two calls agree and every machine builds
/// the same bits. Cost: about nodes x log(triangles) distance queries.
///
/// # Safety
/// `vertices` must point to `vertex_count` readable SinewVec3, `triangles` to
/// 3*triangle_count readable uint32_t; `out_dims` to three writable uint32_t,
/// `out_origin` to one writable SinewVec3; `out_distances` NULL or to `capacity`
/// writable floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_sdf_from_mesh(
    vertices: *const SinewVec3,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    cell_size: f32,
    margin: f32,
    out_dims: *mut u32,
    out_origin: *mut SinewVec3,
    out_distances: *mut f32,
    capacity: u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_dims, "out_dims")?;
        non_null(out_origin, "out_origin")?;
        if vertex_count as usize > crate::limits::MAX_TRIANGLES * 3
            || triangle_count as usize > crate::limits::MAX_TRIANGLES
        {
            return Err(super::Failure::new(
                SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
                format!(
                    "{vertex_count} vertices and {triangle_count} triangles: a mesh has at \
                     most {} triangles",
                    crate::limits::MAX_TRIANGLES
                ),
            ));
        }
        // SAFETY: the caller promises `vertex_count` readable vertices; `slice_from`
        // checks non-null, alignment and the batch limit before it makes the slice.
        let v = unsafe { slice_from(vertices, vertex_count as usize, "vertices")? };
        // SAFETY: `[u32; 3]` has the size and alignment of three u32; the caller
        // promises 3*triangle_count readable indices.
        let t = unsafe {
            slice_from(
                triangles as *const [u32; 3],
                triangle_count as usize,
                "triangles",
            )?
        };
        let mut points = try_with_capacity::<Vec3>(v.len(), "mesh vertices")?;
        points.extend(v.iter().map(|&p| Vec3::from(p)));
        let (dims, origin) = if out_distances.is_null() {
            SdfGrid::mesh_layout(&points, t, cell_size, margin)?
        } else {
            let (dims, _) = SdfGrid::mesh_layout(&points, t, cell_size, margin)?;
            let nodes = dims.iter().product::<u32>();
            check_capacity(capacity, nodes, || format!("the {nodes} nodes"))?;
            let grid = SdfGrid::from_mesh(&points, t, cell_size, margin)?;
            // SAFETY: `out_distances` is non-null here and points to `capacity >=
            // nodes` writable floats (this function's safety section, the check
            // above); `slice_from_mut` checks alignment and the batch limit.
            let out = unsafe { slice_from_mut(out_distances, nodes as usize, "out_distances")? };
            out.copy_from_slice(&grid.distances);
            (grid.dims, grid.origin)
        };
        // SAFETY: both pointers are non-null (checked above) and point to three
        // writable uint32_t and one writable SinewVec3 (this function's safety
        // section); `write_unaligned` needs no alignment.
        unsafe {
            for (k, &n) in dims.iter().enumerate() {
                out_dims.add(k).write_unaligned(n);
            }
            out_origin.write_unaligned(origin.into());
        }
        Ok(())
    })
}
