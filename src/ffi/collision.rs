//! Colliders, per-particle collision properties, contact readback, picking and
//! grabbing (src/collision).

pub use super::settings::SinewColliderDesc;
use super::settings::COLLIDER_DESC_COOKIE;
use super::world::{with_world, SinewQuat, SinewVec3, SinewWorld};
use super::{guard, non_null, query_u32, slice_from, Failure, FfiResult, SinewStatus};
use crate::collision::{ColliderDesc, ColliderId};
use crate::error::try_with_capacity;
use crate::math::Vec3;
use crate::particles::CollisionFilter;
use crate::World;

/// Values of `SinewColliderDesc::shape` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewShape {
    /// Half-space below the plane through `position` with normal rotation·(0,1,0).
    SINEW_SHAPE_PLANE = 0,
    /// Ball of `radius` around `position`.
    SINEW_SHAPE_SPHERE = 1,
    /// Points within `radius` of the segment ±`half_height` along the local Y axis.
    SINEW_SHAPE_CAPSULE = 2,
    /// Oriented box of `half_extents`.
    SINEW_SHAPE_BOX = 3,
    /// Static triangle mesh: only through sinew_world_add_mesh_collider.
    SINEW_SHAPE_MESH = 4,
    /// Signed distance field: only through sinew_world_add_sdf_collider.
    SINEW_SHAPE_SDF = 5,
}

/// A collider handle, passed by value; 0 is null. Valid in the world that issued it
/// (the header's "Handles" paragraph: layout, serial, snapshots); a removed collider's
/// id is rejected with SINEW_ERROR_INVALID_HANDLE.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewCollider {
    pub id: u64,
}

/// Which particles collide with which. Two particles collide when
/// `(layers_a & mask_b) != 0 && (layers_b & mask_a) != 0` and they are not of the same
/// non-zero `group` (one body) unless both have `self_collision` = 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewCollisionFilter {
    /// Body id; 0 = none. Default 0.
    pub group: u32,
    /// Layer bits the particle is on. Default 1.
    pub layers: u32,
    /// Layer bits it collides with. Default 0xFFFFFFFF.
    pub mask: u32,
    /// 1 = collides with particles of its own group (that also set it), 0 = not.
    pub self_collision: u32,
}

/// One particle–collider contact of the last step (its contacts of every substep
/// merged). The particle pushes the collider with -(impulse * normal +
/// friction_impulse).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewContact {
    /// The collider touched.
    pub collider: SinewCollider,
    /// The particle index.
    pub particle: u32,
    /// Normal impulse the collider gave the particle over the step, N·s (>= 0 always: a
    /// collider only pushes).
    pub impulse: f32,
    /// Unit normal pointing out of the collider (world), from the step's last contact.
    pub normal: SinewVec3,
    /// The contact point (world, m) of the step's last contact: the particle's centre
    /// projected onto the collider's surface.
    pub point: SinewVec3,
    /// Friction impulse the collider gave the particle over the step (N·s, world,
    /// tangent to the surface): the position-level friction correction times m / h,
    /// summed over the substeps. Sliding without bouncing, its length is the dynamic
    /// friction times `impulse`; sticking, at most the static friction times it.
    pub friction_impulse: SinewVec3,
}

impl From<&crate::collision::ContactReport> for SinewContact {
    fn from(r: &crate::collision::ContactReport) -> Self {
        SinewContact {
            collider: SinewCollider { id: r.collider.0 },
            particle: r.particle,
            impulse: r.impulse,
            normal: r.normal.into(),
            point: r.point.into(),
            friction_impulse: r.friction.into(),
        }
    }
}

fn invalid(message: String) -> Failure {
    Failure::new(SinewStatus::SINEW_ERROR_INVALID_ARGUMENT, message)
}

/// A collider desc with every field at its default (a plane through the origin facing
/// +Y, no friction, no bounce; a sphere, capsule or box of size 0.5 m once its shape
/// is set).
#[no_mangle]
pub extern "C" fn sinew_collider_desc_default() -> SinewColliderDesc {
    SinewColliderDesc::from_rust(&ColliderDesc::default())
}

/// The filter every particle starts with: no group, on layer 1, colliding with every
/// layer, no self-collision. Start from it when setting filters
/// (sinew_world_set_collision_filters) rather than from a zeroed struct, whose zero
/// layers and mask collide with nothing.
#[no_mangle]
pub extern "C" fn sinew_collision_filter_default() -> SinewCollisionFilter {
    let d = CollisionFilter::default();
    SinewCollisionFilter {
        group: d.group,
        layers: d.layers,
        mask: d.mask,
        self_collision: u32::from(d.self_collision),
    }
}

/// Fills `*out_filter` with sinew_collision_filter_default() (for bindings that avoid
/// by-value structs).
///
/// # Safety
/// `out_filter` must be NULL or point to writable memory for one SinewCollisionFilter.
#[no_mangle]
pub unsafe extern "C" fn sinew_collision_filter_init(
    out_filter: *mut SinewCollisionFilter,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_filter, "out_filter")?;
        let d = sinew_collision_filter_default();
        // SAFETY: `out_filter` is non-null (checked by `non_null` above) and, by this
        // function's safety section, points to writable memory for one value;
        // `write_unaligned` needs no alignment.
        unsafe { out_filter.write_unaligned(d) };
        Ok(())
    })
}

/// Fills `*out_desc` with sinew_collider_desc_default() (for bindings that avoid
/// by-value structs).
///
/// # Safety
/// `out_desc` must be NULL or point to writable memory for one SinewColliderDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_collider_desc_init(out_desc: *mut SinewColliderDesc) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_desc, "out_desc")?;
        let d = sinew_collider_desc_default();
        // SAFETY: `out_desc` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out_desc.write_unaligned(d) };
        Ok(())
    })
}

pub(super) fn desc_from_c(d: &SinewColliderDesc) -> FfiResult<ColliderDesc> {
    if d.internal_cookie != COLLIDER_DESC_COOKIE {
        return Err(invalid(
            "desc was not initialised by sinew_collider_desc_init()".into(),
        ));
    }
    Ok(d.to_rust()?)
}

/// Adds a collider; `*out_collider` receives its handle.
///
/// # Safety
/// `desc` must be NULL or point to a readable SinewColliderDesc; `out_collider` NULL or
/// writable for one SinewCollider.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_collider(
    world: SinewWorld,
    desc: *const SinewColliderDesc,
    out_collider: *mut SinewCollider,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(desc, "desc")?;
        non_null(out_collider, "out_collider")?;
        // SAFETY: `desc` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to one readable value; `read_unaligned` needs no alignment.
        let d = desc_from_c(&unsafe { desc.read_unaligned() })?;
        let id = with_world(world, |w| Ok(w.add_collider(&d)?))?;
        // SAFETY: `out_collider` is non-null (checked by `non_null` above) and, by this
        // function's safety section, points to writable memory for one value; `write_unaligned`
        // needs no alignment.
        unsafe { out_collider.write_unaligned(SinewCollider { id: id.0 }) };
        Ok(())
    })
}

/// Adds a static heightfield collider (a terrain): `columns` x `rows` samples
/// (each >= 2) of `heights` (m, row by row: row j holds the samples at local z =
/// j * cell_z, sample i of a row is at local x = i * cell_x), and per cell, when
/// `holes` is not NULL, (rows - 1) x (columns - 1) flags row by row (1 = a hole that
/// particles pass through, 0 = solid). The grid's corner sample lies at
/// `desc->position`, `desc->rotation` turns it; the material is `desc`'s (its shape
/// is ignored). The grid becomes a mesh collider (two triangles per solid cell),
/// swept and with friction and restitution like every collider; its shape reads as
/// SINEW_SHAPE_MESH. `*out_collider` receives the handle.
///
/// # Safety
/// `desc` must point to a readable SinewColliderDesc, `heights` to columns*rows floats,
/// `holes` to (rows-1)*(columns-1) uint8_t or be NULL, `out_collider` to one writable
/// SinewCollider.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_world_add_heightfield_collider(
    world: SinewWorld,
    desc: *const SinewColliderDesc,
    columns: u32,
    rows: u32,
    cell_x: f32,
    cell_z: f32,
    heights: *const f32,
    holes: *const u8,
    out_collider: *mut SinewCollider,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(desc, "desc")?;
        non_null(out_collider, "out_collider")?;
        // SAFETY: `desc` is non-null (checked above) and, by this function's safety
        // section, points to one readable SinewColliderDesc; `read_unaligned` needs no
        // alignment.
        let mut d = unsafe { desc.read_unaligned() };
        d.shape = SinewShape::SINEW_SHAPE_MESH as u32;
        let d = desc_from_c(&d)?;
        let samples = (columns as usize).saturating_mul(rows as usize);
        let cells = (columns.max(1) as usize - 1).saturating_mul(rows.max(1) as usize - 1);
        // SAFETY: the caller promises columns*rows readable heights; `slice_from`
        // checks non-null, alignment and the batch limit before it makes the slice.
        let h = unsafe { slice_from(heights, samples, "heights")? };
        let flags = if holes.is_null() {
            None
        } else {
            // SAFETY: the caller promises (rows-1)*(columns-1) readable flags.
            Some(unsafe { slice_from(holes, cells, "holes")? })
        };
        let mut buf = try_with_capacity::<bool>(flags.map_or(0, |f| f.len()), "holes")?;
        if let Some(f) = flags {
            for (k, &v) in f.iter().enumerate() {
                // The field's name is formatted only for a flag that is refused.
                let flag = match v {
                    0 | 1 => v == 1,
                    _ => crate::limits::schema::flag_from_c(v as u32, &format!("holes[{k}]"))?,
                };
                buf.push(flag);
            }
        }
        let field = crate::collision::heightfield::Heightfield {
            columns,
            rows,
            cell_x,
            cell_z,
            heights: h,
            holes: flags.map(|_| &buf[..]),
        };
        let id = with_world(world, |w| Ok(w.add_heightfield_collider(&d, &field)?))?;
        // SAFETY: `out_collider` is non-null (checked by `non_null` above) and, by this
        // function's safety section, points to writable memory for one value;
        // `write_unaligned` needs no alignment.
        unsafe { out_collider.write_unaligned(SinewCollider { id: id.0 }) };
        Ok(())
    })
}

/// Adds a static triangle-mesh collider: `vertex_count` vertices (m, in the
/// collider's local frame) and `triangle_count` triangles of three vertex indices
/// each; `desc` gives the transform and material (its shape and size fields are
/// ignored). The mesh is two-sided (particles stay their radius away from it) and
/// need not be closed; a BVH is built once here. Zero-area triangles are dropped.
/// `*out_collider` receives the handle.
///
/// # Safety
/// `desc` must point to a readable SinewColliderDesc, `vertices` to `vertex_count`
/// SinewVec3, `indices` to 3*triangle_count uint32_t, `out_collider` to one writable
/// SinewCollider.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_mesh_collider(
    world: SinewWorld,
    desc: *const SinewColliderDesc,
    vertices: *const SinewVec3,
    vertex_count: u32,
    indices: *const u32,
    triangle_count: u32,
    out_collider: *mut SinewCollider,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(desc, "desc")?;
        non_null(out_collider, "out_collider")?;
        // SAFETY: `vertices` is a pointer to `vertex_count` readable elements, as this
        // function's safety section requires (NULL is refused by `check_array`); `slice_from`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let mut d = unsafe { desc.read_unaligned() };
        d.shape = SinewShape::SINEW_SHAPE_MESH as u32;
        let d = desc_from_c(&d)?;
        // SAFETY: the caller promises `vertex_count` readable vertices.
        let v = unsafe { slice_from(vertices, vertex_count as usize, "vertices")? };
        // SAFETY: `[u32; 3]` has the size and alignment of three u32; the caller
        // promises 3*triangle_count readable indices.
        let t = unsafe {
            slice_from(
                indices as *const [u32; 3],
                triangle_count as usize,
                "indices",
            )?
        };
        let mut buf = try_with_capacity::<Vec3>(v.len(), "mesh vertices")?;
        buf.extend(v.iter().map(|&p| Vec3::from(p)));
        let id = with_world(world, |w| Ok(w.add_mesh_collider(&d, &buf, t)?))?;
        // SAFETY: `out_collider` is non-null (checked by `non_null` above) and, by this
        // function's safety section, points to writable memory for one value; `write_unaligned`
        // needs no alignment.
        unsafe { out_collider.write_unaligned(SinewCollider { id: id.0 }) };
        Ok(())
    })
}

/// Removes a collider; its handle becomes invalid.
#[no_mangle]
pub extern "C" fn sinew_collider_remove(world: SinewWorld, collider: SinewCollider) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.remove_collider(ColliderId(collider.id))?))
    })
}

/// Moves a collider to `position` (m) and `rotation` (unit quaternion). Over the next
/// step it sweeps there from its previous transform (a kinematic collider pushes and,
/// by friction, carries particles); `teleport` = 1 jumps there instead (0 or 1).
///
/// # Safety
/// `position` must point to one readable SinewVec3, `rotation` to one SinewQuat.
#[no_mangle]
pub unsafe extern "C" fn sinew_collider_set_transform(
    world: SinewWorld,
    collider: SinewCollider,
    position: *const SinewVec3,
    rotation: *const SinewQuat,
    teleport: u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(position, "position")?;
        non_null(rotation, "rotation")?;
        if teleport > 1 {
            return Err(invalid(format!("teleport {teleport} must be 0 or 1")));
        }
        // SAFETY: `position` and `rotation` are non-null (checked by `non_null` above) and, by
        // this function's safety section, each points to one readable value; `read_unaligned`
        // needs no alignment.
        let (p, q) = unsafe { (position.read_unaligned(), rotation.read_unaligned()) };
        with_world(world, |w| {
            Ok(w.set_collider_transform(
                ColliderId(collider.id),
                p.into(),
                q.into(),
                teleport == 1,
            )?)
        })
    })
}

/// Sets a collider's friction coefficients (>= 0) and restitution ([0, 1]).
#[no_mangle]
pub extern "C" fn sinew_collider_set_material(
    world: SinewWorld,
    collider: SinewCollider,
    static_friction: f32,
    dynamic_friction: f32,
    restitution: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.set_collider_material(
                ColliderId(collider.id),
                static_friction,
                dynamic_friction,
                restitution,
            )?)
        })
    })
}

/// Writes the number of colliders to `*out_count`.
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_collider_count(
    world: SinewWorld,
    out_count: *mut u32,
) -> SinewStatus {
    let f = entry!();
    // SAFETY: the pointers go to `query_u32` unchanged, and this function's safety section
    // promises what `query_u32` needs: `out_count` is NULL (refused) or points to one writable
    // uint32_t.
    unsafe { query_u32(f, world, out_count, World::collider_count) }
}

/// Sets the collision radii (m, >= 0; 0 = a point, the default) of particles
/// `first..first+count`. A fluid's particles (sinew_fluid_particle_range) are refused
/// with SINEW_ERROR_INVALID_ARGUMENT: their radius is the fluid's `collision_radius`.
///
/// # Safety
/// `radii` must point to `count` readable floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_particle_radii(
    world: SinewWorld,
    first: u32,
    count: u32,
    radii: *const f32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: the caller promises `count` readable floats.
        let r = unsafe { slice_from(radii, count as usize, "radii")? };
        with_world(world, |w| Ok(w.set_particle_radii(first, r)?))
    })
}

/// Sets the collision filters of particles `first..first+count`. A fluid's particles
/// are refused with SINEW_ERROR_INVALID_ARGUMENT: they meet solids through the density
/// constraint only, and the fluid's `coupling_mask` chooses which.
///
/// # Safety
/// `filters` must point to `count` readable SinewCollisionFilter.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_collision_filters(
    world: SinewWorld,
    first: u32,
    count: u32,
    filters: *const SinewCollisionFilter,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: the caller promises `count` readable filters.
        let f = unsafe { slice_from(filters, count as usize, "filters")? };
        let mut buf = try_with_capacity::<CollisionFilter>(f.len(), "collision filters")?;
        for (k, c) in f.iter().enumerate() {
            if c.self_collision > 1 {
                return Err(invalid(format!(
                    "filters[{k}].self_collision {} must be 0 or 1",
                    c.self_collision
                )));
            }
            buf.push(CollisionFilter {
                group: c.group,
                layers: c.layers,
                mask: c.mask,
                self_collision: c.self_collision == 1,
            });
        }
        with_world(world, |w| Ok(w.set_collision_filters(first, &buf)?))
    })
}

/// Sets the unyielding factors (in [0, 1]; 1 = pushes yielding particles without
/// being pushed, 0 = ordinary, the default) of particles `first..first+count`. A
/// fluid's particles, which take no part in particle contacts, are refused with
/// SINEW_ERROR_INVALID_ARGUMENT.
///
/// # Safety
/// `factors` must point to `count` readable floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_unyielding(
    world: SinewWorld,
    first: u32,
    count: u32,
    factors: *const f32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: the caller promises `count` readable floats.
        let u = unsafe { slice_from(factors, count as usize, "factors")? };
        with_world(world, |w| Ok(w.set_unyielding(first, u)?))
    })
}

/// Limits every particle's speed to `max_speed` (m/s, finite, >= 0; 0 = unlimited, the
/// default) at each substep (velocity clamping: fast particles cannot skip thin cloth
/// or each other; keep max_speed · dt below the particle radius).
#[no_mangle]
pub extern "C" fn sinew_world_set_max_speed(world: SinewWorld, max_speed: f32) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.set_max_speed(max_speed)?))
    })
}

/// Writes the number of particle–collider contacts of the last step to `*out_count`.
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_contact_count(
    world: SinewWorld,
    out_count: *mut u32,
) -> SinewStatus {
    let f = entry!();
    // SAFETY: the pointers go to `query_u32` unchanged, and this function's safety section
    // promises what `query_u32` needs: `out_count` is NULL (refused) or points to one writable
    // uint32_t.
    unsafe { query_u32(f, world, out_count, |w| w.contacts().len() as u32) }
}

/// Copies the first `min(capacity, contact count)` contacts of the last step (in
/// particle order) to `out`; `*out_count` receives how many were written.
///
/// # Safety
/// `out` must point to `capacity` writable SinewContact, `out_count` to one uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_contacts(
    world: SinewWorld,
    out: *mut SinewContact,
    capacity: u32,
    out_count: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out, "out")?;
        non_null(out_count, "out_count")?;
        if (out as usize) % std::mem::align_of::<SinewContact>() != 0 {
            return Err(invalid("out is not aligned to 8 bytes".into()));
        }
        let written = with_world(world, |w| {
            let c = w.contacts();
            let k = c.len().min(capacity as usize);
            for (j, r) in c[..k].iter().enumerate() {
                let v = SinewContact::from(r);
                // SAFETY: `out` is non-null and aligned for SinewContact (both checked above),
                // j < k <= capacity, and this function's safety section makes `out` writable
                // for `capacity` contacts.
                unsafe { out.add(j).write(v) };
            }
            Ok(k as u32)
        })?;
        // SAFETY: `out_count` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out_count.write_unaligned(written) };
        Ok(())
    })
}

/// Picks the particle nearest along the ray `origin + t·direction` (t >= 0; direction
/// finite and non-zero, any length) among those whose centre is within `radius` (m) +
/// the particle's radius of the ray. `*out_particle` receives its index and
/// `*out_distance` t (m), or 0xFFFFFFFF and -1 when the ray misses every particle.
///
/// # Safety
/// `origin` and `direction` must point to one readable SinewVec3 each; `out_particle`
/// to one writable uint32_t, `out_distance` to one writable float.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_pick_particle(
    world: SinewWorld,
    origin: *const SinewVec3,
    direction: *const SinewVec3,
    radius: f32,
    out_particle: *mut u32,
    out_distance: *mut f32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(origin, "origin")?;
        non_null(direction, "direction")?;
        non_null(out_particle, "out_particle")?;
        non_null(out_distance, "out_distance")?;
        // SAFETY: `origin` and `direction` are non-null (checked by `non_null` above) and, by
        // this function's safety section, each points to one readable SinewVec3;
        // `read_unaligned` needs no alignment.
        let (o, d) = unsafe { (origin.read_unaligned(), direction.read_unaligned()) };
        let hit = with_world(world, |w| {
            Ok(w.pick_particle(o.into(), d.into(), radius)?)
        })?;
        let (i, t) = hit.unwrap_or((u32::MAX, -1.0));
        // SAFETY: `out_particle` and `out_distance` are non-null (checked by `non_null`
        // above) and, by this function's safety section, each points to writable memory for
        // one value; `write_unaligned` needs no alignment.
        unsafe {
            out_particle.write_unaligned(i);
            out_distance.write_unaligned(t);
        }
        Ok(())
    })
}

/// Attaches `particle` to `*target` (m) with `compliance` (m/N, 0 = rigid, <= 1000)
/// until sinew_world_release_particle; grabbing it again replaces target and
/// compliance. Pinned particles cannot be grabbed, nor a fluid's
/// (SINEW_ERROR_INVALID_ARGUMENT): a fluid moves its last live particle into the slot
/// of one it removes, so the grab would jump to another particle.
///
/// # Safety
/// `target` must point to one readable SinewVec3.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_grab_particle(
    world: SinewWorld,
    particle: u32,
    target: *const SinewVec3,
    compliance: f32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(target, "target")?;
        // SAFETY: `target` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to one readable value; `read_unaligned` needs no alignment.
        let t: Vec3 = unsafe { target.read_unaligned() }.into();
        with_world(world, |w| Ok(w.grab_particle(particle, t, compliance)?))
    })
}

/// Moves the target (m) of the grab on `particle` (e.g. with the mouse).
///
/// # Safety
/// `target` must point to one readable SinewVec3.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_move_grab(
    world: SinewWorld,
    particle: u32,
    target: *const SinewVec3,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(target, "target")?;
        // SAFETY: `target` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to one readable value; `read_unaligned` needs no alignment.
        let t: Vec3 = unsafe { target.read_unaligned() }.into();
        with_world(world, |w| Ok(w.move_grab(particle, t)?))
    })
}

/// Releases the grab on `particle`.
#[no_mangle]
pub extern "C" fn sinew_world_release_particle(world: SinewWorld, particle: u32) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.release_particle(particle)?))
    })
}
