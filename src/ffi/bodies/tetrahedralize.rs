//! Mesh preparation for soft bodies through the C ABI: welding a render mesh's seams,
//! tetrahedralising a closed mesh, and embedding render vertices in a tet mesh. None
//! of these touches a world.

use super::build::points as read_points;
use super::*;
use crate::bodies::tetrahedralize::{embed_points, tetrahedralize, weld_mesh};

/// Views `count` writable elements at `ptr` (NULL: an error naming `name`).
///
/// # Safety
/// `ptr` must be NULL or point to `count` writable elements nothing else accesses
/// during the call.
unsafe fn out_slice<'a, T>(ptr: *mut T, count: usize, name: &str) -> FfiResult<&'a mut [T]> {
    // SAFETY: this function's safety section is `slice_from_mut`'s, which checks
    // non-null, alignment and the batch limit before it makes the slice.
    unsafe { slice_from_mut(ptr, count, name) }
}

/// Merges the vertices of a triangle mesh closer than `tolerance` (m; 0 = only
/// bit-identical positions, as the UV and normal seams of a render mesh duplicate them)
/// into the first of them, and drops the triangles that collapse. Writes, for each
/// input vertex, its welded vertex to `out_map[0..vertex_count]`; the welded vertices
/// (in order of first occurrence, at their first vertex's position) to
/// `out_vertices[0..*out_vertex_count]`; the welded triangles to
/// `out_triangles[0..3 * *out_triangle_count]`. A pressure body is built from the
/// welded mesh; a render vertex i then follows particle `out_map[i]`.
///
/// # Safety
/// `vertices` must point to `vertex_count` readable SinewVec3 and `triangles` to
/// 3*triangle_count readable uint32_t; `out_map` to `vertex_count` writable uint32_t,
/// `out_vertices` to `vertex_count` writable SinewVec3, `out_triangles` to
/// 3*triangle_count writable uint32_t; `out_vertex_count` and `out_triangle_count` to
/// one writable uint32_t each (NULL anywhere: an error).
#[no_mangle]
pub unsafe extern "C" fn sinew_weld_mesh(
    vertices: *const SinewVec3,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    tolerance: f32,
    out_map: *mut u32,
    out_vertices: *mut SinewVec3,
    out_triangles: *mut u32,
    out_vertex_count: *mut u32,
    out_triangle_count: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `vertices` points to `vertex_count` readable SinewVec3 (this function's
        // safety section); `read_points` checks non-null, alignment and the limit first.
        let v = unsafe { read_points(vertices, vertex_count, "vertices")? };
        // SAFETY: `triangles` points to 3*triangle_count readable uint32_t (this function's
        // safety section); `tuples` checks non-null, alignment and the batch limit.
        let t = unsafe { tuples::<3>(triangles, triangle_count, "triangles")? };
        // SAFETY: each output pointer is NULL (refused) or points to the writable elements
        // this function's safety section lists, unaliased during the call.
        let (map, out_v, out_t) = unsafe {
            (
                out_slice(out_map, vertex_count as usize, "out_map")?,
                out_slice(out_vertices, vertex_count as usize, "out_vertices")?,
                out_slice(
                    out_triangles as *mut [u32; 3],
                    triangle_count as usize,
                    "out_triangles",
                )?,
            )
        };
        non_null(out_vertex_count, "out_vertex_count")?;
        non_null(out_triangle_count, "out_triangle_count")?;
        let w = weld_mesh(&v, t, tolerance)?;
        map.copy_from_slice(&w.map);
        for (o, &p) in out_v.iter_mut().zip(&w.vertices) {
            *o = p.into();
        }
        out_t[..w.triangles.len()].copy_from_slice(&w.triangles);
        // SAFETY: both counts are non-null (checked above) and point to one writable
        // uint32_t each (this function's safety section).
        unsafe {
            out_vertex_count.write_unaligned(w.vertices.len() as u32);
            out_triangle_count.write_unaligned(w.triangles.len() as u32);
        }
        Ok(())
    })
}

/// Cuts a closed triangle mesh (counter-clockwise seen from outside; seams at
/// bit-identical positions are welded first) into a tet mesh for
/// sinew_world_add_tet_body: a grid of `resolution` (1..=128) cubic cells across the
/// longest side of the mesh's box, the cells whose centre is inside (a watertight
/// winding-number test) split into 5 positive tets each, the boundary nodes moved
/// toward the surface as far as every tet keeps 20 % of its volume. An open,
/// inconsistently wound, inside-out or degenerate mesh is refused naming the edge or
/// triangle (SINEW_ERROR_INVALID_ARGUMENT), as is a mesh thinner than one cell.
///
/// Count query: with `out_vertices` and `out_tets` both NULL, only `*out_vertex_count`
/// and `*out_tet_count` are written. Otherwise the vertices go to
/// `out_vertices[0..*out_vertex_count]` and the tets (4 indices each) to
/// `out_tets[0..4 * *out_tet_count]`; a `vertex_capacity` or `tet_capacity` (in tets)
/// below the counts is refused (SINEW_ERROR_OUT_OF_RANGE, nothing written). The result
/// depends only on the arguments, so the two calls agree.
///
/// # Safety
/// `vertices` must point to `vertex_count` readable SinewVec3, `triangles` to
/// 3*triangle_count readable uint32_t; `out_vertices` must be NULL or point to
/// `vertex_capacity` writable SinewVec3, `out_tets` NULL or to 4*tet_capacity writable
/// uint32_t; `out_vertex_count` and `out_tet_count` to one writable uint32_t each.
#[no_mangle]
pub unsafe extern "C" fn sinew_tetrahedralize_mesh(
    vertices: *const SinewVec3,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    resolution: u32,
    out_vertices: *mut SinewVec3,
    vertex_capacity: u32,
    out_tets: *mut u32,
    tet_capacity: u32,
    out_vertex_count: *mut u32,
    out_tet_count: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `vertices` points to `vertex_count` readable SinewVec3 (this function's
        // safety section); `read_points` checks non-null, alignment and the limit first.
        let v = unsafe { read_points(vertices, vertex_count, "vertices")? };
        // SAFETY: `triangles` points to 3*triangle_count readable uint32_t (this function's
        // safety section); `tuples` checks non-null, alignment and the batch limit.
        let t = unsafe { tuples::<3>(triangles, triangle_count, "triangles")? };
        non_null(out_vertex_count, "out_vertex_count")?;
        non_null(out_tet_count, "out_tet_count")?;
        let query = out_vertices.is_null() && out_tets.is_null();
        let mesh = tetrahedralize(&v, t, resolution)?;
        let (nv, nt) = (mesh.vertices.len() as u32, mesh.tets.len() as u32);
        if !query {
            check_capacity(vertex_capacity, nv, || format!("the {nv} vertices"))?;
            check_capacity(tet_capacity, nt, || format!("the {nt} tets"))?;
            // SAFETY: each pointer is NULL (refused) or points to its capacity of writable
            // elements (this function's safety section), and the counts fit the capacities
            // (checked above).
            let (ov, ot) = unsafe {
                (
                    out_slice(out_vertices, nv as usize, "out_vertices")?,
                    out_slice(out_tets as *mut [u32; 4], nt as usize, "out_tets")?,
                )
            };
            for (o, &p) in ov.iter_mut().zip(&mesh.vertices) {
                *o = p.into();
            }
            ot.copy_from_slice(&mesh.tets);
        }
        // SAFETY: both counts are non-null (checked above) and point to one writable
        // uint32_t each (this function's safety section).
        unsafe {
            out_vertex_count.write_unaligned(nv);
            out_tet_count.write_unaligned(nt);
        }
        Ok(())
    })
}

/// Embeds points (a render mesh's vertices, m) in a tet mesh: for point i, the tet
/// holding it goes to `out_tets[i]` and its barycentric weights (sum 1) to
/// `out_weights[4i..4i+4]`, so that point i = Σₖ out_weights[4i+k] ·
/// vertices[tets[4·out_tets[i]+k]]. Applied to a tet body's particle positions each
/// frame, the weights carry the render mesh with the body. A point outside every tet
/// takes the tet it is least outside of among the nearest (extrapolated weights, one
/// negative). Tets must have positive volume (flat or inverted ones are refused
/// naming the tet).
///
/// # Safety
/// `vertices` must point to `vertex_count` readable SinewVec3, `tets` to 4*tet_count
/// readable uint32_t, `points` to `point_count` readable SinewVec3; `out_tets` to
/// `point_count` writable uint32_t and `out_weights` to 4*point_count writable floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_embed_points_in_tets(
    vertices: *const SinewVec3,
    vertex_count: u32,
    tets: *const u32,
    tet_count: u32,
    points: *const SinewVec3,
    point_count: u32,
    out_tets: *mut u32,
    out_weights: *mut f32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `vertices` points to `vertex_count` readable SinewVec3 (this function's
        // safety section); `read_points` checks non-null, alignment and the limit first.
        let v = unsafe { read_points(vertices, vertex_count, "vertices")? };
        // SAFETY: `tets` points to 4*tet_count readable uint32_t (this function's safety
        // section); `tuples` checks non-null, alignment and the batch limit.
        let t = unsafe { tuples::<4>(tets, tet_count, "tets")? };
        // SAFETY: `points` points to `point_count` readable SinewVec3 (this function's
        // safety section); `read_points` checks non-null, alignment and the limit first.
        let p = unsafe { read_points(points, point_count, "points")? };
        // SAFETY: each output pointer is NULL (refused) or points to the writable elements
        // this function's safety section lists, unaliased during the call.
        let (ot, ow) = unsafe {
            (
                out_slice(out_tets, point_count as usize, "out_tets")?,
                out_slice(
                    out_weights as *mut [f32; 4],
                    point_count as usize,
                    "out_weights",
                )?,
            )
        };
        let e = embed_points(&v, t, &p)?;
        for ((t, w), e) in ot.iter_mut().zip(ow.iter_mut()).zip(&e) {
            *t = e.tet;
            *w = e.weights;
        }
        Ok(())
    })
}
