//! In-place edits through the C ABI: one shape for every family (remove an id range,
//! set rest values per id, set the compliance or stiffness of a range), plus a body's
//! rest-length scale and mass. Each call checks everything before it changes anything
//! and takes effect at the next step; ids never shift.

use super::bodies::SinewBody;
use super::families::family;
use super::world::{with_world, SinewWorld};
use super::{answer, guard, slice_from, slice_from_mut, SinewStatus};
use crate::bodies::BodyId;

/// Removes constraints `first..first+count` of `family` (a SinewFamily value): they
/// keep their ids, stop acting from the next step and report zero force. Fails,
/// changing nothing, on an out-of-range id, a zero count or an id already removed.
#[no_mangle]
pub extern "C" fn sinew_constraints_remove(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
) -> SinewStatus {
    guard("sinew_constraints_remove", || {
        let kind = self::family(family)?;
        with_world(world, |w| Ok(w.remove_constraints(kind, first, count)?))
    })
}

/// Writes 1 to `*out_removed` when constraint `id` of `family` was removed, else 0.
///
/// # Safety
/// `out_removed` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_constraints_is_removed(
    world: SinewWorld,
    family: u32,
    id: u32,
    out_removed: *mut u32,
) -> SinewStatus {
    let body = || {
        let kind = self::family(family)?;
        with_world(world, |w| Ok(u32::from(w.is_constraint_removed(kind, id)?)))
    };
    // SAFETY: `out_removed` goes to `answer` unchanged; this function's safety section
    // promises what `answer` needs: NULL (refused) or writable for one uint32_t.
    unsafe {
        answer(
            "sinew_constraints_is_removed",
            out_removed,
            "out_removed",
            body,
        )
    }
}

/// Sets the rest values of constraints `first..first+count` of `family` from
/// `rest_values` (count floats): the rest length (m) of distance constraints, the max
/// length (m) of tethers, the rest angle (rad, [-pi, pi]) of dihedral bending, the
/// rest volume (m³) of tets and pressure surfaces (the target is the overpressure
/// times it), the rest area (m²) of rings, the minimum area (m²) or volume (m³) of
/// unilateral constraints. Isometric bending, strains, shape clusters and attachments
/// have no scalar rest value (SINEW_ERROR_INVALID_ARGUMENT). All or nothing.
///
/// # Safety
/// `rest_values` must point to `count` readable floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_constraints_set_rest(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
    rest_values: *const f32,
) -> SinewStatus {
    guard("sinew_constraints_set_rest", || {
        let kind = self::family(family)?;
        // SAFETY: the caller promises `count` readable floats at `rest_values`.
        let values = unsafe { slice_from(rest_values, count as usize, "rest_values")? };
        with_world(world, |w| Ok(w.set_constraint_rest(kind, first, values)?))
    })
}

/// Writes the rest values (units as sinew_constraints_set_rest) of constraints
/// `first..first+count` of `family` to `out_rest_values`; a removed constraint reads
/// NaN.
///
/// # Safety
/// `out_rest_values` must point to `count` writable floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_constraints_read_rest(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
    out_rest_values: *mut f32,
) -> SinewStatus {
    guard("sinew_constraints_read_rest", || {
        let kind = self::family(family)?;
        // SAFETY: the caller promises `count` writable floats at `out_rest_values`.
        let out = unsafe { slice_from_mut(out_rest_values, count as usize, "out_rest_values")? };
        with_world(world, |w| Ok(w.read_constraint_rest(kind, first, out)?))
    })
}

/// Sets the compliance of constraints `first..first+count` of `family`, in the
/// family's unit (m/N for distance, tethers and attachments; rad/(N·m) dihedral;
/// 1/(N·m) isometric, tet volume and strains; m⁵/N pressure and unilateral volume;
/// m³/N rings and unilateral area), in [0, SINEW_MAX_COMPLIANCE]. A PBD distance
/// constraint becomes an XPBD one. Shape clusters take a stiffness instead.
#[no_mangle]
pub extern "C" fn sinew_constraints_set_compliance(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
    compliance: f32,
) -> SinewStatus {
    guard("sinew_constraints_set_compliance", || {
        let kind = self::family(family)?;
        with_world(world, |w| {
            Ok(w.set_constraint_compliance(kind, first, count, compliance)?)
        })
    })
}

/// Sets the PBD stiffness k in [0, 1] (the fraction of the error removed per substep,
/// whatever the iteration count) of constraints `first..first+count` of `family`:
/// distance constraints (an XPBD one becomes a PBD one) and shape clusters; the other
/// families take a compliance (SINEW_ERROR_INVALID_ARGUMENT).
#[no_mangle]
pub extern "C" fn sinew_constraints_set_stiffness(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
    stiffness: f32,
) -> SinewStatus {
    guard("sinew_constraints_set_stiffness", || {
        let kind = self::family(family)?;
        with_world(world, |w| {
            Ok(w.set_constraint_stiffness(kind, first, count, stiffness)?)
        })
    })
}

/// Scales the rest lengths of a rope or a distance-model cloth (links, bend links,
/// tethers) to `scale` (in (0, 1000]) times the lengths it was built with; other
/// bodies are untouched. Change it gradually (a few percent per step) to reel a rope
/// in smoothly.
#[no_mangle]
pub extern "C" fn sinew_body_set_rest_scale(
    world: SinewWorld,
    body: SinewBody,
    scale: f32,
) -> SinewStatus {
    guard("sinew_body_set_rest_scale", || {
        with_world(
            world,
            |w| Ok(w.set_body_rest_scale(BodyId(body.id), scale)?),
        )
    })
}

/// Sets the total mass (kg, finite, > 0) of a body's movable particles, keeping their
/// mass ratios; pinned particles stay pinned.
#[no_mangle]
pub extern "C" fn sinew_body_set_mass(
    world: SinewWorld,
    body: SinewBody,
    mass: f32,
) -> SinewStatus {
    guard("sinew_body_set_mass", || {
        with_world(world, |w| Ok(w.set_body_mass(BodyId(body.id), mass)?))
    })
}
