//! Constraint families over existing particles: tethers, dihedral and isometric
//! bending, tet volume, closed-surface pressure volume; counts and force readback.

use super::world::{with_world, SinewWorld};
use super::{guard, non_null, slice_from, slice_from_mut, Failure, FfiResult, SinewStatus};
use crate::bodies::families::FamilyKind;

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
}

pub(crate) fn family(v: u32) -> FfiResult<FamilyKind> {
    Ok(match v {
        0 => FamilyKind::Tether,
        1 => FamilyKind::DihedralBending,
        2 => FamilyKind::IsometricBending,
        3 => FamilyKind::TetVolume,
        4 => FamilyKind::PressureVolume,
        _ => {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!("family {v} is not a SinewFamily (0..=4)"),
            ))
        }
    })
}

/// Views `count` K-index tuples at `indices`.
///
/// # Safety
/// `indices` must point to K*count readable uint32_t (or be NULL: an error).
unsafe fn tuples<'a, const K: usize>(
    indices: *const u32,
    count: u32,
    name: &str,
) -> FfiResult<&'a [[u32; K]]> {
    // SAFETY: [u32; K] has the alignment of u32 and size K*4; the caller promises
    // K*count readable indices.
    unsafe { slice_from(indices as *const [u32; K], count as usize, name) }
}

/// An optional per-constraint float array (NULL = None).
///
/// # Safety
/// `values` must be NULL or point to `count` readable floats.
unsafe fn optional<'a>(values: *const f32, count: u32, name: &str) -> FfiResult<Option<&'a [f32]>> {
    if values.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller promises `count` readable floats.
    Ok(Some(unsafe { slice_from(values, count as usize, name)? }))
}

/// Writes `v` to `*out` (checked non-null before the work).
///
/// # Safety
/// `out` must be writable (checked non-null by the caller).
unsafe fn put<T>(out: *mut T, v: T) {
    // SAFETY: the caller's contract.
    unsafe { out.write_unaligned(v) }
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
    guard("sinew_world_add_tethers", || {
        non_null(out_first, "out_first")?;
        // SAFETY: the caller's contract.
        let pairs = unsafe { tuples::<2>(particle_pairs, count, "particle_pairs")? };
        // SAFETY: the caller's contract.
        let lengths = unsafe { optional(max_lengths, count, "max_lengths")? };
        let first = with_world(world, |w| Ok(w.add_tethers(pairs, lengths, compliance)?))?;
        // SAFETY: non-null (checked).
        unsafe { put(out_first, first) };
        Ok(())
    })
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
    guard("sinew_world_add_dihedral_bending", || {
        non_null(out_first, "out_first")?;
        // SAFETY: the caller's contract.
        let h = unsafe { tuples::<4>(hinges, count, "hinges")? };
        // SAFETY: the caller's contract.
        let rest = unsafe { optional(rest_angles, count, "rest_angles")? };
        let first = with_world(world, |w| Ok(w.add_dihedral_bending(h, rest, compliance)?))?;
        // SAFETY: non-null (checked).
        unsafe { put(out_first, first) };
        Ok(())
    })
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
    guard("sinew_world_add_isometric_bending", || {
        non_null(out_first, "out_first")?;
        // SAFETY: the caller's contract.
        let h = unsafe { tuples::<4>(hinges, count, "hinges")? };
        let first = with_world(world, |w| Ok(w.add_isometric_bending(h, compliance)?))?;
        // SAFETY: non-null (checked).
        unsafe { put(out_first, first) };
        Ok(())
    })
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
    guard("sinew_world_add_tet_volume_constraints", || {
        non_null(out_first, "out_first")?;
        // SAFETY: the caller's contract.
        let t = unsafe { tuples::<4>(tets, count, "tets")? };
        // SAFETY: the caller's contract.
        let rest = unsafe { optional(rest_volumes, count, "rest_volumes")? };
        let first = with_world(world, |w| Ok(w.add_tet_volumes(t, rest, compliance)?))?;
        // SAFETY: non-null (checked).
        unsafe { put(out_first, first) };
        Ok(())
    })
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
    guard("sinew_world_add_pressure_volume", || {
        non_null(out_id, "out_id")?;
        // SAFETY: the caller's contract.
        let t = unsafe { tuples::<3>(triangles, triangle_count, "triangles")? };
        let id = with_world(world, |w| {
            Ok(w.add_pressure_volume(t, pressure, compliance)?)
        })?;
        // SAFETY: non-null (checked).
        unsafe { put(out_id, id) };
        Ok(())
    })
}

/// Writes the number of constraints of `family` (a SinewFamily; removed ones included:
/// ids never shift) to `*out_count`.
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_family_constraint_count(
    world: SinewWorld,
    family: u32,
    out_count: *mut u32,
) -> SinewStatus {
    guard("sinew_world_family_constraint_count", || {
        non_null(out_count, "out_count")?;
        let f = self::family(family)?;
        let n = with_world(world, |w| Ok(w.family_constraint_count(f)))?;
        // SAFETY: non-null (checked).
        unsafe { put(out_count, n) };
        Ok(())
    })
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
    guard("sinew_world_read_family_forces", || {
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
    guard("sinew_world_pressure_volume", || {
        non_null(out_volume, "out_volume")?;
        let v = with_world(world, |w| Ok(w.pressure_volume(id)?))?;
        // SAFETY: non-null (checked).
        unsafe { put(out_volume, v) };
        Ok(())
    })
}
