//! Building bodies through the C ABI: rope (straight and polyline), cloth (mesh and
//! grid), tet and pressure soft bodies. Each call reads and checks its whole desc and
//! arrays before the world changes.

use super::*;
use crate::ffi::Entry;

/// # Safety
/// `desc` must be NULL or point to a readable SinewRopeDesc.
unsafe fn rope_desc(desc: *const SinewRopeDesc) -> FfiResult<RopeDesc> {
    // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
    // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            ROPE_DESC_COOKIE,
            "sinew_rope_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewClothDesc.
unsafe fn cloth_desc(desc: *const SinewClothDesc) -> FfiResult<ClothDesc> {
    // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
    // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            CLOTH_DESC_COOKIE,
            "sinew_cloth_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// Copies `count` SinewVec3 into Vec3s.
///
/// # Safety
/// `p` must point to `count` readable SinewVec3 (NULL: an error).
pub(super) unsafe fn points(p: *const SinewVec3, count: u32, name: &str) -> FfiResult<Vec<Vec3>> {
    // Refuse bodies over the size limit before copying anything.
    if count > crate::limits::MAX_BODY_PARTICLES {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
            format!(
                "{name}: {count} exceed the limit of {} particles per body",
                crate::limits::MAX_BODY_PARTICLES
            ),
        ));
    }
    // SAFETY: `p` is a pointer to `count` readable elements, as this function's safety section
    // requires (NULL is refused by `check_array`); `slice_from` checks non-null, alignment and
    // the batch limit before it makes the slice, which lives only for this call.
    let s = unsafe { slice_from(p, count as usize, name)? };
    let mut v = crate::error::try_with_capacity::<Vec3>(s.len(), name)?;
    v.extend(s.iter().map(|&x| Vec3::from(x)));
    Ok(v)
}

/// Copies a mesh's vertices and views its K-index elements (triangles or tets), in that
/// order, so that a bad array is reported the same way by every mesh builder.
///
/// # Safety
/// `vertices` must point to `vertex_count` readable SinewVec3 and `elements` to
/// K*element_count readable uint32_t (NULL: an error).
unsafe fn mesh<'a, const K: usize>(
    vertices: *const SinewVec3,
    vertex_count: u32,
    elements: *const u32,
    element_count: u32,
    elements_name: &str,
) -> FfiResult<(Vec<Vec3>, &'a [[u32; K]])> {
    // SAFETY: `vertices` is a pointer to `vertex_count` readable SinewVec3, as this
    // function's safety section requires (NULL is refused by `check_array`); `points`
    // checks non-null, alignment and the batch limit before it makes the slice.
    let v = unsafe { points(vertices, vertex_count, "vertices")? };
    // SAFETY: `elements` is a pointer to `K*element_count` readable uint32_t, as this
    // function's safety section requires (NULL is refused by `check_array`); `tuples`
    // checks non-null, alignment and the batch limit before it makes the slice.
    let t = unsafe { tuples::<K>(elements, element_count, elements_name)? };
    Ok((v, t))
}

/// Views the optional per-vertex inverse masses of a soft body (NULL: None, the
/// builder lumps the body's mass).
///
/// # Safety
/// `inverse_masses` must be NULL or point to `vertex_count` readable floats.
unsafe fn optional_masses<'a>(
    inverse_masses: *const f32,
    vertex_count: u32,
) -> FfiResult<Option<&'a [f32]>> {
    // SAFETY: `inverse_masses` is NULL (None: the array is optional) or a pointer to
    // `vertex_count` readable elements, as this function's safety section requires;
    // `optional_slice_from` checks non-null, alignment and the batch limit before it makes
    // the slice.
    unsafe { optional_slice_from(inverse_masses, vertex_count as usize, "inverse_masses") }
}

/// A builder call, prepared outside the world lock.
type Adder = Box<dyn FnOnce(&mut World) -> crate::Result<BodyId>>;

/// Runs `add` on the world and writes the new body to `*out_body` on success.
///
/// # Safety
/// `out_body` must be NULL or point to one writable SinewBody.
unsafe fn add_body(
    function: Entry,
    world: SinewWorld,
    out_body: *mut SinewBody,
    add: impl FnOnce() -> FfiResult<Adder>,
) -> SinewStatus {
    let body = || {
        let add = add()?;
        let id = with_world(world, |w| Ok(add(w)?))?;
        Ok(SinewBody { id: id.0 })
    };
    // SAFETY: `out_body` goes to `answer` unchanged; this function's safety section is
    // `answer`'s.
    unsafe { answer(function, out_body, "out_body", body) }
}

/// Adds a straight rope from desc->start to desc->end in desc->segments segments
/// (segments + 1 particles, consecutive indices). `*out_body` receives its handle.
/// Every particle collides with radius desc->radius; when it is above 0 they also get
/// the collision group first particle + 1 (layer 1, every mask, no self-collision), so
/// neighbours closer than two radii never push each other
/// (sinew_world_set_collision_filters changes it).
///
/// # Safety
/// `desc` must point to a readable SinewRopeDesc, `out_body` to one writable SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_rope(
    world: SinewWorld,
    desc: *const SinewRopeDesc,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `rope_desc` unchanged, and this function's safety section
        // promises what `rope_desc` needs: `desc` is NULL (refused) or points to one readable
        // SinewRopeDesc.
        let d = unsafe { rope_desc(desc)? };
        Ok::<Adder, Failure>(Box::new(move |w: &mut World| w.add_rope(&d)))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body(entry!(), world, out_body, build) }
}

/// Adds a rope through `point_count` >= 2 points (m), one particle each; the start,
/// end and segments of the desc are ignored. Radius and collision group as
/// sinew_world_add_rope.
///
/// # Safety
/// `desc` must point to a readable SinewRopeDesc, `points` to `point_count` SinewVec3,
/// `out_body` to one writable SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_rope_polyline(
    world: SinewWorld,
    desc: *const SinewRopeDesc,
    points: *const SinewVec3,
    point_count: u32,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `rope_desc` unchanged, and this function's safety section
        // promises what `rope_desc` needs: `desc` is NULL (refused) or points to one readable
        // SinewRopeDesc.
        let d = unsafe { rope_desc(desc)? };
        // SAFETY: `points` is a pointer to `point_count` readable SinewVec3, as this function's
        // safety section requires (NULL is refused by `check_array`); `points` checks non-null,
        // alignment and the batch limit before it makes the slice, which lives only for this
        // call.
        let p = unsafe { self::points(points, point_count, "points")? };
        Ok::<Adder, Failure>(Box::new(move |w: &mut World| w.add_rope_polyline(&d, &p)))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body(entry!(), world, out_body, build) }
}

/// Adds a cloth from a triangle mesh: `vertex_count` vertices (m) with
/// `inverse_masses` (1/kg, 0 = pinned, one per vertex), `triangle_count` triangles (3
/// vertex indices each, 0-based within this mesh). The body's particles are the
/// vertices in order. Malformed meshes (index out of range, a vertex repeated in a
/// triangle, zero-area triangles, an edge shared by more than two triangles) are
/// refused naming the element. Two triangles on the same three vertices are accepted;
/// an edge whose two wings are one vertex gets no bending constraint.
///
/// # Safety
/// `desc` must point to a readable SinewClothDesc, `vertices` to `vertex_count`
/// SinewVec3, `triangles` to 3*triangle_count uint32_t, `inverse_masses` to
/// `vertex_count` floats, `out_body` to one writable SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_cloth_mesh(
    world: SinewWorld,
    desc: *const SinewClothDesc,
    vertices: *const SinewVec3,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    inverse_masses: *const f32,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `cloth_desc` unchanged, and this function's safety section
        // promises what `cloth_desc` needs: `desc` is NULL (refused) or points to one readable
        // SinewClothDesc.
        let d = unsafe { cloth_desc(desc)? };
        // SAFETY: the pointers go to `mesh` unchanged, and this function's safety section
        // promises what `mesh` needs: `vertices` points to `vertex_count` SinewVec3 and
        // `triangles` to 3*triangle_count uint32_t.
        let (v, t) = unsafe {
            mesh::<3>(
                vertices,
                vertex_count,
                triangles,
                triangle_count,
                "triangles",
            )?
        };
        // SAFETY: `inverse_masses` is a pointer to `vertex_count` readable elements, as this
        // function's safety section requires (NULL is refused by `check_array`); `slice_from`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let w = unsafe { slice_from(inverse_masses, vertex_count as usize, "inverse_masses")? };
        Ok::<Adder, Failure>(Box::new(move |world: &mut World| {
            world.add_cloth_mesh(&d, &v, t, w)
        }))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body(entry!(), world, out_body, build) }
}

/// Adds a rectangular grid cloth ((segments_u+1) x (segments_v+1) particles, index
/// j*(segments_u+1) + i; the diagonals are shear links).
///
/// # Safety
/// `desc` and `grid` must point to readable descs, `out_body` to one writable
/// SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_cloth_grid(
    world: SinewWorld,
    desc: *const SinewClothDesc,
    grid: *const SinewClothGridDesc,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `cloth_desc` unchanged, and this function's safety section
        // promises what `cloth_desc` needs: `desc` is NULL (refused) or points to one readable
        // SinewClothDesc.
        let d = unsafe { cloth_desc(desc)? };
        // SAFETY: `grid` goes to `read_desc` unchanged, and this function's safety section
        // promises what `read_desc` needs: `grid` is NULL (refused) or points to one readable
        // SinewClothGridDesc.
        let g = unsafe {
            read_desc(
                grid,
                |g| g.internal_cookie,
                CLOTH_GRID_DESC_COOKIE,
                "sinew_cloth_grid_desc_default",
            )?
        }
        .to_rust()?;
        Ok::<Adder, Failure>(Box::new(move |w: &mut World| w.add_cloth_grid(&d, &g)))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body(entry!(), world, out_body, build) }
}

/// Adds a soft body from a tetrahedral mesh: every tet edge a link, every tet a volume
/// constraint. Tets (4 indices each) must have positive volume (vertices 1, 2, 3
/// counter-clockwise seen from vertex 0): inverted or flat tets are refused naming the
/// tet. `inverse_masses` NULL = desc->total_mass lumped by volume.
///
/// # Safety
/// `desc` must point to a readable SinewTetBodyDesc, `vertices` to `vertex_count`
/// SinewVec3, `tets` to 4*tet_count uint32_t, `inverse_masses` to `vertex_count`
/// floats or be NULL, `out_body` to one writable SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_tet_body(
    world: SinewWorld,
    desc: *const SinewTetBodyDesc,
    vertices: *const SinewVec3,
    vertex_count: u32,
    tets: *const u32,
    tet_count: u32,
    inverse_masses: *const f32,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
        // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable
        // desc.
        let d = unsafe {
            read_desc(
                desc,
                |d| d.internal_cookie,
                TET_BODY_DESC_COOKIE,
                "sinew_tet_body_desc_default",
            )?
        }
        .to_rust()?;
        // SAFETY: the pointers go to `mesh` unchanged, and this function's safety section
        // promises what `mesh` needs: `vertices` points to `vertex_count` SinewVec3 and
        // `tets` to 4*tet_count uint32_t.
        let (v, t) = unsafe { mesh::<4>(vertices, vertex_count, tets, tet_count, "tets")? };
        // SAFETY: the pointer goes to `optional_masses` unchanged, and this function's safety
        // section promises what it needs: `inverse_masses` is NULL or points to `vertex_count`
        // floats.
        let w = unsafe { optional_masses(inverse_masses, vertex_count)? };
        Ok::<Adder, Failure>(Box::new(move |world: &mut World| {
            world.add_tet_body(&d, &v, t, w)
        }))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body(entry!(), world, out_body, build) }
}

/// Adds a soft body from a closed surface (triangles wound counter-clockwise seen from
/// outside): every edge a link plus one volume constraint keeping desc->pressure x the
/// rest volume. A surface that is not closed, inconsistently wound or inside-out is
/// refused naming the edge. `inverse_masses` NULL = desc->total_mass lumped by area.
///
/// # Safety
/// As sinew_world_add_tet_body, with `triangles` pointing to 3*triangle_count uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_pressure_body(
    world: SinewWorld,
    desc: *const SinewPressureBodyDesc,
    vertices: *const SinewVec3,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    inverse_masses: *const f32,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
        // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable
        // desc.
        let d = unsafe {
            read_desc(
                desc,
                |d| d.internal_cookie,
                PRESSURE_BODY_DESC_COOKIE,
                "sinew_pressure_body_desc_default",
            )?
        }
        .to_rust()?;
        // SAFETY: the pointers go to `mesh` unchanged, and this function's safety section
        // promises what `mesh` needs: `vertices` points to `vertex_count` SinewVec3 and
        // `triangles` to 3*triangle_count uint32_t.
        let (v, t) = unsafe {
            mesh::<3>(
                vertices,
                vertex_count,
                triangles,
                triangle_count,
                "triangles",
            )?
        };
        // SAFETY: the pointer goes to `optional_masses` unchanged, and this function's safety
        // section promises what it needs: `inverse_masses` is NULL or points to `vertex_count`
        // floats.
        let w = unsafe { optional_masses(inverse_masses, vertex_count)? };
        Ok::<Adder, Failure>(Box::new(move |world: &mut World| {
            world.add_pressure_body(&d, &v, t, w)
        }))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body(entry!(), world, out_body, build) }
}
