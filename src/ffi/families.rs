//! Constraint families over existing particles: tethers, dihedral and isometric
//! bending, tet volume, closed-surface pressure volume; counts and force readback.

use super::world::{with_world, SinewWorld};
use super::{
    add_batch, add_elements, answer, guard, slice_from, slice_from_mut, Failure, FfiResult,
    SinewStatus,
};
use crate::constraints::FamilyKind;

/// Values of the `family` argument (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewFamily {
    /// Tethers; force in N.
    SINEW_FAMILY_TETHER = 0,
    /// Dihedral bending; torque in N·m.
    SINEW_FAMILY_DIHEDRAL_BENDING = 1,
    /// Isometric bending; |λ|/h² in N·m.
    SINEW_FAMILY_ISOMETRIC_BENDING = 2,
    /// Tet volume; |λ|/h² in N·m.
    SINEW_FAMILY_TET_VOLUME = 3,
    /// Closed-surface volume; pressure in Pa.
    SINEW_FAMILY_PRESSURE_VOLUME = 4,
    /// Triangle strain components; |λ|/h² in N·m.
    SINEW_FAMILY_TRIANGLE_STRAIN = 5,
    /// Tet strain components; |λ|/h² in N·m.
    SINEW_FAMILY_TET_STRAIN = 6,
    /// Unilateral XY area; N/m.
    SINEW_FAMILY_UNILATERAL_AREA = 7,
    /// Unilateral tet volume; Pa.
    SINEW_FAMILY_UNILATERAL_VOLUME = 8,
    /// Ring area (2D); N/m.
    SINEW_FAMILY_RING_AREA = 9,
    /// The host's distance constraints (XPBD and PBD; not body links); N.
    SINEW_FAMILY_DISTANCE = 10,
    /// Shape-matching clusters (PBD stiffness); no force (reads 0).
    SINEW_FAMILY_SHAPE_CLUSTER = 11,
    /// Attachments to hosts; |force| in N.
    SINEW_FAMILY_ATTACHMENT = 12,
    /// The length links of bodies (rope links and bend links, cloth and soft-body
    /// edges); N. Prefer the body functions; ids are those of sinew_body_read_forces'
    /// groups, offset by the body's first link.
    SINEW_FAMILY_BODY_LINK = 13,
    /// Grabs (sinew_world_grab_particle); |force| in N. A grab's id is the index of
    /// the particle it holds: ids run over every particle, and an id whose particle is
    /// not grabbed reads as removed. Removing a grab releases it (as
    /// sinew_world_release_particle); compliance in m/N; no stiffness; the rest length
    /// is 0 (set_rest accepts only 0: move the target with sinew_world_move_grab);
    /// grabs take no break force.
    SINEW_FAMILY_GRAB = 14,
}

pub(crate) fn family(v: u32) -> FfiResult<FamilyKind> {
    FamilyKind::from_u32(v).ok_or_else(|| {
        Failure::new(
            SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
            format!(
                "family {v} is not a SinewFamily (0..={})",
                FamilyKind::LAST as u32
            ),
        )
    })
}

/// Adds `count` tethers (long-range attachments, Kim et al. 2012):
/// `particle_pairs` = (anchor0, particle0, anchor1, particle1, ...); each particle may
/// be at most `max_lengths[j]` m from its anchor (NULL = the current distances).
/// Unilateral: only a stretched tether acts. `compliance` α in m/N (0 = rigid).
/// `*out_first` receives the id of the first new tether.
///
/// # Safety
/// `particle_pairs` must point to 2*count uint32_t, `max_lengths` to count floats or be
/// NULL, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_tethers(
    world: SinewWorld,
    particle_pairs: *const u32,
    max_lengths: *const f32,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `add_batch` unchanged, and this function's safety section
    // promises what `add_batch` needs: `particle_pairs` is NULL (refused) or holds 2*count uint32_t,
    // `max_lengths` is NULL or holds count floats, `out_first` is NULL (refused) or writable for
    // one uint32_t.
    unsafe {
        add_batch(
            entry!(),
            world,
            (particle_pairs, "particle_pairs"),
            (max_lengths, "max_lengths"),
            count,
            (out_first, "out_first"),
            |w, e: &[[u32; 2]], v| w.add_tethers(e, v, compliance),
        )
    }
}

/// Adds `count` dihedral bending constraints (Müller et al. 2007). `hinges` holds 4
/// indices per hinge: the shared edge (e0, e1), then the wing of each triangle
/// (w0 of triangle e0-e1-w0, w1 of triangle e1-e0-w1). `rest_angles` in rad, in
/// [-pi, pi] (NULL = the current angles; 0 = flat). `compliance` in rad/(N·m).
///
/// # Safety
/// `hinges` must point to 4*count uint32_t, `rest_angles` to count floats or be NULL,
/// `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_dihedral_bending(
    world: SinewWorld,
    hinges: *const u32,
    rest_angles: *const f32,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `add_batch` unchanged, and this function's safety section
    // promises what `add_batch` needs: `hinges` is NULL (refused) or holds 4*count uint32_t,
    // `rest_angles` is NULL or holds count floats, `out_first` is NULL (refused) or writable for
    // one uint32_t.
    unsafe {
        add_batch(
            entry!(),
            world,
            (hinges, "hinges"),
            (rest_angles, "rest_angles"),
            count,
            (out_first, "out_first"),
            |w, e: &[[u32; 4]], v| w.add_dihedral_bending(e, v, compliance),
        )
    }
}

/// Adds `count` isometric bending constraints (Bergou et al. 2006) over hinges laid out
/// as in sinew_world_add_dihedral_bending; the rest shape is the current one and
/// should be (near) flat. `compliance` in 1/(N·m).
///
/// # Safety
/// `hinges` must point to 4*count uint32_t, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_isometric_bending(
    world: SinewWorld,
    hinges: *const u32,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `add_elements` unchanged, and this function's safety
    // section promises what `add_elements` needs: `hinges` is NULL (refused) or holds
    // 4*count uint32_t, `out_first` is NULL (refused) or writable for one uint32_t.
    unsafe {
        add_elements(
            entry!(),
            world,
            (hinges, "hinges"),
            count,
            (out_first, "out_first"),
            |w, e: &[[u32; 4]]| w.add_isometric_bending(e, compliance),
        )
    }
}

/// Adds `count` tetrahedron volume constraints, C = V/V0 - 1. `tets` holds 4 indices
/// per tet with positive volume (vertices 1, 2, 3 counter-clockwise seen from vertex
/// 0); inverted or flat tets are refused. `rest_volumes` in m³ (NULL = current).
/// `compliance` in 1/(N·m).
///
/// # Safety
/// `tets` must point to 4*count uint32_t, `rest_volumes` to count floats or be NULL,
/// `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_tet_volume_constraints(
    world: SinewWorld,
    tets: *const u32,
    rest_volumes: *const f32,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `add_batch` unchanged, and this function's safety section
    // promises what `add_batch` needs: `tets` is NULL (refused) or holds 4*count uint32_t,
    // `rest_volumes` is NULL or holds count floats, `out_first` is NULL (refused) or writable for
    // one uint32_t.
    unsafe {
        add_batch(
            entry!(),
            world,
            (tets, "tets"),
            (rest_volumes, "rest_volumes"),
            count,
            (out_first, "out_first"),
            |w, e: &[[u32; 4]], v| w.add_tet_volumes(e, v, compliance),
        )
    }
}

/// Adds one closed-surface volume constraint over `triangle_count` triangles (3
/// indices each, closed, wound counter-clockwise seen from outside): the enclosed
/// volume is kept at `pressure` (overpressure factor, in (0, 100]) times its current
/// volume. `compliance` in m⁵/N. `*out_id` receives its id.
///
/// # Safety
/// `triangles` must point to 3*triangle_count uint32_t, `out_id` to one writable
/// uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_pressure_volume(
    world: SinewWorld,
    triangles: *const u32,
    triangle_count: u32,
    pressure: f32,
    compliance: f32,
    out_id: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `add_elements` unchanged, and this function's safety
    // section promises what `add_elements` needs: `triangles` is NULL (refused) or holds
    // 3*triangle_count uint32_t, `out_id` is NULL (refused) or writable for one uint32_t.
    unsafe {
        add_elements(
            entry!(),
            world,
            (triangles, "triangles"),
            triangle_count,
            (out_id, "out_id"),
            |w, e: &[[u32; 3]]| w.add_pressure_volume(e, pressure, compliance),
        )
    }
}

/// Writes the number of constraints of `family` (a SinewFamily; removed ones included:
/// ids never shift) to `*out_count`; for SINEW_FAMILY_GRAB, whose ids are particle
/// indices, the particle count.
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_family_constraint_count(
    world: SinewWorld,
    family: u32,
    out_count: *mut u32,
) -> SinewStatus {
    let body = || {
        let f = self::family(family)?;
        with_world(world, |w| Ok(w.family_constraint_count(f)))
    };
    // SAFETY: `out_count` goes to `answer` unchanged, and this function's safety section
    // promises what `answer` needs: `out_count` is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_count, "out_count", body) }
}

/// Writes |λ|/h² of constraints `first..first+count` of `family` in the last substep of
/// the last step (units per SinewFamily; 0 before the first step) to `out`.
///
/// # Safety
/// `out` must point to `count` writable floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_family_forces(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
    out: *mut f32,
) -> SinewStatus {
    guard(entry!(), || {
        let f = self::family(family)?;
        // SAFETY: the caller promises `count` writable floats.
        let out = unsafe { slice_from_mut(out, count as usize, "out")? };
        // The range is checked before anything is written.
        with_world(world, |w| Ok(w.read_family_forces(f, first, out)?))
    })
}

/// Writes the current enclosed volume (m³) of pressure constraint `id` to
/// `*out_volume`.
///
/// # Safety
/// `out_volume` must point to one writable float.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_pressure_volume(
    world: SinewWorld,
    id: u32,
    out_volume: *mut f32,
) -> SinewStatus {
    let body = || with_world(world, |w| Ok(w.pressure_volume(id)?));
    // SAFETY: `out_volume` goes to `answer` unchanged, and this function's safety section
    // promises what `answer` needs: `out_volume` is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_volume, "out_volume", body) }
}

/// Adds strain-based triangle constraints (Müller et al. 2014): 3 per triangle, ids
/// `first + 3j + (0: stretch along the rest edge 0→1, 1: stretch across it, 2: shear)`;
/// compliances in 1/(N·m) (C = stretch ratio − 1, or the cosine of the axes' angle).
///
/// # Safety
/// `triangles` must point to 3*count uint32_t, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_triangle_strain(
    world: SinewWorld,
    triangles: *const u32,
    count: u32,
    compliance_xx: f32,
    compliance_yy: f32,
    compliance_shear: f32,
    out_first: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `add_elements` unchanged, and this function's safety
    // section promises what `add_elements` needs: `triangles` is NULL (refused) or holds
    // 3*count uint32_t, `out_first` is NULL (refused) or writable for one uint32_t.
    unsafe {
        add_elements(
            entry!(),
            world,
            (triangles, "triangles"),
            count,
            (out_first, "out_first"),
            |w, e: &[[u32; 3]]| {
                w.add_triangle_strain(e, compliance_xx, compliance_yy, compliance_shear)
            },
        )
    }
}

/// Adds strain-based tet constraints: 6 per tet, ids `first + 6j + (0, 1, 2: stretch
/// along the rest shape's world x, y, z; 3, 4, 5: shear xy, xz, yz)`; compliances in
/// 1/(N·m). Tets must have positive volume.
///
/// # Safety
/// `tets` must point to 4*count uint32_t, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_tet_strain(
    world: SinewWorld,
    tets: *const u32,
    count: u32,
    compliance_xx: f32,
    compliance_yy: f32,
    compliance_zz: f32,
    compliance_shear: f32,
    out_first: *mut u32,
) -> SinewStatus {
    let c = [compliance_xx, compliance_yy, compliance_zz];
    // SAFETY: the pointers go to `add_elements` unchanged, and this function's safety
    // section promises what `add_elements` needs: `tets` is NULL (refused) or holds
    // 4*count uint32_t, `out_first` is NULL (refused) or writable for one uint32_t.
    unsafe {
        add_elements(
            entry!(),
            world,
            (tets, "tets"),
            count,
            (out_first, "out_first"),
            |w, e: &[[u32; 4]]| w.add_tet_strain(e, c, compliance_shear),
        )
    }
}

/// Adds unilateral area constraints (air mesh, 2D worlds): each triangle's signed area
/// in the XY plane stays >= `min_areas[j]` (m²; NULL = 0); they act only when
/// violated. Compliance in m³/N.
///
/// # Safety
/// `triangles` must point to 3*count uint32_t, `min_areas` to count floats or be NULL,
/// `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_unilateral_areas(
    world: SinewWorld,
    triangles: *const u32,
    min_areas: *const f32,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `add_batch` unchanged, and this function's safety section
    // promises what `add_batch` needs: `triangles` is NULL (refused) or holds 3*count uint32_t,
    // `min_areas` is NULL or holds count floats, `out_first` is NULL (refused) or writable for
    // one uint32_t.
    unsafe {
        add_batch(
            entry!(),
            world,
            (triangles, "triangles"),
            (min_areas, "min_areas"),
            count,
            (out_first, "out_first"),
            |w, e: &[[u32; 3]], v| w.add_unilateral_areas(e, v, compliance),
        )
    }
}

/// Adds unilateral volume constraints (air mesh, 3D): each tet's signed volume stays
/// at least `min_volumes[j]` (m³; NULL = 0); they act only when violated. Compliance in
/// m⁵/N.
///
/// # Safety
/// `tets` must point to 4*count uint32_t, `min_volumes` to count floats or be NULL,
/// `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_unilateral_volumes(
    world: SinewWorld,
    tets: *const u32,
    min_volumes: *const f32,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `add_batch` unchanged, and this function's safety section
    // promises what `add_batch` needs: `tets` is NULL (refused) or holds 4*count uint32_t,
    // `min_volumes` is NULL or holds count floats, `out_first` is NULL (refused) or writable for
    // one uint32_t.
    unsafe {
        add_batch(
            entry!(),
            world,
            (tets, "tets"),
            (min_volumes, "min_volumes"),
            count,
            (out_first, "out_first"),
            |w, e: &[[u32; 4]], v| w.add_unilateral_volumes(e, v, compliance),
        )
    }
}

/// Makes the world 2D (`enabled` = 1: all motion in the plane z = `z` (m); particles are
/// moved onto it now and their z velocity is zeroed every substep) or 3D again (0).
#[no_mangle]
pub extern "C" fn sinew_world_set_planar(world: SinewWorld, enabled: u32, z: f32) -> SinewStatus {
    guard(entry!(), || {
        let plane = match enabled {
            0 => None,
            1 => Some(z),
            v => {
                return Err(Failure::new(
                    SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                    format!("enabled is {v}: must be 0 or 1"),
                ))
            }
        };
        with_world(world, |w| Ok(w.set_planar(plane)?))
    })
}

/// Adds a closed ring of `count` >= 3 particles (counter-clockwise seen from +z) whose
/// enclosed XY area is kept at `pressure` (in (0, 100]) times its current area;
/// compliance in m³/N. `*out_id` receives its id.
///
/// # Safety
/// `particles` must point to `count` uint32_t, `out_id` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_ring_area(
    world: SinewWorld,
    particles: *const u32,
    count: u32,
    pressure: f32,
    compliance: f32,
    out_id: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: the caller promises `count` readable indices.
        let p = unsafe { slice_from(particles, count as usize, "particles")? };
        with_world(world, |w| Ok(w.add_ring_area(p, pressure, compliance)?))
    };
    // SAFETY: `out_id` goes to `answer` unchanged, and this function's safety section
    // promises what `answer` needs: `out_id` is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_id, "out_id", body) }
}

/// Writes the current enclosed area (m²) of ring `id` to `*out_area`.
///
/// # Safety
/// `out_area` must point to one writable float.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_ring_area(
    world: SinewWorld,
    id: u32,
    out_area: *mut f32,
) -> SinewStatus {
    let body = || with_world(world, |w| Ok(w.ring_area(id)?));
    // SAFETY: `out_area` goes to `answer` unchanged, and this function's safety section
    // promises what `answer` needs: `out_area` is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_area, "out_area", body) }
}

/// Adds a shape-matching cluster (Müller 2005) over `count` >= 2 particles, rest shape =
/// their current positions. `stiffness` in [0, 1] per substep (PBD, iteration-count
/// corrected); plastic when the mean distance from the goals exceeds `yield_distance`
/// (m; INFINITY = elastic), the rest shape then creeping by `creep` in [0, 1] per
/// substep. `*out_id` receives its id.
///
/// # Safety
/// `particles` must point to `count` uint32_t, `out_id` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_shape_cluster(
    world: SinewWorld,
    particles: *const u32,
    count: u32,
    stiffness: f32,
    yield_distance: f32,
    creep: f32,
    out_id: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: the caller promises `count` readable indices.
        let p = unsafe { slice_from(particles, count as usize, "particles")? };
        with_world(world, |w| {
            Ok(w.add_shape_cluster(p, stiffness, yield_distance, creep)?)
        })
    };
    // SAFETY: `out_id` goes to `answer` unchanged, and this function's safety section
    // promises what `answer` needs: `out_id` is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_id, "out_id", body) }
}

/// Sets the stiffness (in [0, 1]) of shape-matching cluster `id`.
#[no_mangle]
pub extern "C" fn sinew_world_set_shape_cluster_stiffness(
    world: SinewWorld,
    id: u32,
    stiffness: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.set_shape_cluster_stiffness(id, stiffness)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ABI enum mirrors [`FamilyKind`] (the one Rust source of the values; cbindgen
    /// needs the C enum spelled out here).
    #[test]
    fn sinew_family_values_are_the_family_kinds() {
        use SinewFamily::*;
        let abi = [
            SINEW_FAMILY_TETHER,
            SINEW_FAMILY_DIHEDRAL_BENDING,
            SINEW_FAMILY_ISOMETRIC_BENDING,
            SINEW_FAMILY_TET_VOLUME,
            SINEW_FAMILY_PRESSURE_VOLUME,
            SINEW_FAMILY_TRIANGLE_STRAIN,
            SINEW_FAMILY_TET_STRAIN,
            SINEW_FAMILY_UNILATERAL_AREA,
            SINEW_FAMILY_UNILATERAL_VOLUME,
            SINEW_FAMILY_RING_AREA,
            SINEW_FAMILY_DISTANCE,
            SINEW_FAMILY_SHAPE_CLUSTER,
            SINEW_FAMILY_ATTACHMENT,
            SINEW_FAMILY_BODY_LINK,
            SINEW_FAMILY_GRAB,
        ];
        let kinds = FamilyKind::ALL.iter().copied().chain([FamilyKind::Grab]);
        assert_eq!(abi.len(), kinds.clone().count());
        for (a, k) in abi.iter().zip(kinds) {
            assert_eq!(*a as u32, k as u32, "{a:?} vs {k:?}");
            assert_eq!(family(*a as u32).ok(), Some(k));
        }
        assert_eq!(FamilyKind::LAST as u32 + 1, abi.len() as u32);
        assert!(family(abi.len() as u32).is_err());
    }
}
