//! In-place edits through the C ABI: one shape for every family (remove an id range,
//! set rest values per id, set the compliance or stiffness of a range), plus a body's
//! rest-length scale and mass. Each call checks everything before it changes anything
//! and takes effect at the next step; ids never shift.

use super::bodies::SinewBody;
use super::families::family;
use super::world::SinewVec3;
use super::world::{with_world, SinewWorld};
use super::{answer, guard, non_null, query_u32, slice_from, slice_from_mut, Failure, SinewStatus};
use crate::bodies::BodyId;
use crate::math::Vec3;
use crate::BreakReport;

/// Removes constraints `first..first+count` of `family` (a SinewFamily value): they
/// keep their ids, stop acting from the next step and report zero force. Fails,
/// changing nothing, on an out-of-range id, a zero count or an id already removed.
/// For SINEW_FAMILY_GRAB the ids are particle indices: removing releases the grabs (as
/// sinew_world_release_particle), and a particle that is not grabbed is a removed id.
/// Only the named constraints stop: removing a rope's link leaves the bend links over
/// it and the tethers across it acting, so the rope does not come apart
/// (sinew_body_cut_rope removes all three).
#[no_mangle]
pub extern "C" fn sinew_constraints_remove(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
) -> SinewStatus {
    guard(entry!(), || {
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
    unsafe { answer(entry!(), out_removed, "out_removed", body) }
}

/// Sets the rest values of constraints `first..first+count` of `family` from
/// `rest_values` (count floats): the rest length (m) of distance constraints, the max
/// length (m) of tethers, the rest angle (rad, [-pi, pi]) of dihedral bending, the
/// rest volume (m³) of tets and pressure surfaces (the target is the overpressure
/// times it), the rest area (m²) of rings, the minimum area (m²) or volume (m³) of
/// unilateral constraints. Isometric bending, strains, shape clusters and attachments
/// have no scalar rest value (SINEW_ERROR_INVALID_ARGUMENT). A grab's rest length is 0:
/// only 0 is accepted (move a grab with sinew_world_move_grab). All or nothing.
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
    guard(entry!(), || {
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
    guard(entry!(), || {
        let kind = self::family(family)?;
        // SAFETY: the caller promises `count` writable floats at `out_rest_values`.
        let out = unsafe { slice_from_mut(out_rest_values, count as usize, "out_rest_values")? };
        with_world(world, |w| Ok(w.read_constraint_rest(kind, first, out)?))
    })
}

/// Sets the compliance of constraints `first..first+count` of `family`, in the
/// family's unit (m/N for distance, tethers and attachments; rad/(N·m) dihedral;
/// 1/(N·m) isometric, tet volume and strains; m⁵/N pressure and unilateral volume;
/// m³/N rings and unilateral area), in [0, SINEW_MAX_COMPLIANCE]; grabs in m/N, in
/// [0, 1000]. A PBD distance
/// constraint becomes an XPBD one. Shape clusters take a stiffness instead.
#[no_mangle]
pub extern "C" fn sinew_constraints_set_compliance(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
    compliance: f32,
) -> SinewStatus {
    guard(entry!(), || {
        let kind = self::family(family)?;
        with_world(world, |w| {
            Ok(w.set_constraint_compliance(kind, first, count, compliance)?)
        })
    })
}

/// Sets the PBD stiffness k in [0, 1] (the fraction of the error removed per substep,
/// whatever the iteration count) of constraints `first..first+count` of `family`:
/// distance constraints (an XPBD one becomes a PBD one) and shape clusters; the other
/// families, grabs included, take a compliance (SINEW_ERROR_INVALID_ARGUMENT).
#[no_mangle]
pub extern "C" fn sinew_constraints_set_stiffness(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
    stiffness: f32,
) -> SinewStatus {
    guard(entry!(), || {
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
    guard(entry!(), || {
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
    guard(entry!(), || {
        with_world(world, |w| Ok(w.set_body_mass(BodyId(body.id), mass)?))
    })
}

/// One broken constraint (see sinew_world_take_break_events).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewBreakEvent {
    /// The body it belonged to (id 0: a constraint the host added, or a body removed
    /// since).
    pub body: SinewBody,
    /// Its family (a SinewFamily value) and id.
    pub family: u32,
    pub id: u32,
    /// The force that broke it, in the family's units (N for lengths).
    pub force: f32,
    /// Where it broke (m): the mean position of its particles (where that is not a
    /// number, a body put back by the step's recovery, its first particle's position
    /// at the start of the step).
    pub position: SinewVec3,
}

/// Sets the break force (family units, N for lengths; +infinity = never breaks; finite
/// values must be > 0) of constraints `first..first+count` of `family`. From the next
/// step on, a constraint whose force exceeds it in a substep is removed and reported
/// by sinew_world_take_break_events. Shape clusters report no force and cannot break;
/// grabs take no break force (SINEW_ERROR_INVALID_ARGUMENT).
#[no_mangle]
pub extern "C" fn sinew_constraints_set_break_force(
    world: SinewWorld,
    family: u32,
    first: u32,
    count: u32,
    force: f32,
) -> SinewStatus {
    guard(entry!(), || {
        let kind = self::family(family)?;
        with_world(world, |w| {
            Ok(w.set_constraint_break_force(kind, first, count, force)?)
        })
    })
}

/// Sets the break force (N, > 0; +infinity = never breaks) of a rope's links: a link
/// whose tension exceeds it in a substep breaks and the rope falls apart there (as
/// sinew_body_cut_rope). A rope parts at one link per connected piece, and at most
/// once per step: of the overloaded links of a piece, only the most overloaded
/// (largest tension / break force) breaks, so a suddenly loaded rope whose every link
/// overshoots at once parts at one link and the load falls, as a real chain does. A
/// link's tension is what sinew_body_read_forces reports for it: its own force plus
/// that of every tether spanning it, so a rope breaks under the same load with
/// tethers on or off. Only ropes (SINEW_ERROR_INVALID_ARGUMENT otherwise).
#[no_mangle]
pub extern "C" fn sinew_body_set_break_force(
    world: SinewWorld,
    body: SinewBody,
    force: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.set_body_break_force(BodyId(body.id), force)?)
        })
    })
}

/// Writes the number of break events waiting to be taken to `*out_count` (at most
/// SINEW_MAX_BREAK_EVENTS).
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_break_event_count(
    world: SinewWorld,
    out_count: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `query_u32` unchanged, and this function's safety section
    // promises what `query_u32` needs: `out_count` is NULL (refused) or points to one writable
    // uint32_t.
    unsafe { query_u32(entry!(), world, out_count, |w| w.break_event_count() as u32) }
}

pub use super::settings::SINEW_MAX_BREAK_EVENTS;

/// Moves the oldest break events (up to `capacity`) into `out_events`, oldest first,
/// writes how many to `*out_count` and how many were lost to a full queue since the
/// last call to `*out_lost` (then clears that count). Poll it after each step.
///
/// # Safety
/// `out_events` must point to `capacity` writable SinewBreakEvent, `out_count` to one
/// writable uint32_t, `out_lost` to one writable uint64_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_take_break_events(
    world: SinewWorld,
    out_events: *mut SinewBreakEvent,
    capacity: u32,
    out_count: *mut u32,
    out_lost: *mut u64,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_events, "out_events")?;
        non_null(out_count, "out_count")?;
        non_null(out_lost, "out_lost")?;
        if (out_events as usize) % std::mem::align_of::<SinewBreakEvent>() != 0 {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!(
                    "out_events is not aligned to {} bytes",
                    std::mem::align_of::<SinewBreakEvent>()
                ),
            ));
        }
        let (n, lost) = with_world(world, |w| {
            let n = (capacity as usize).min(w.break_event_count());
            let mut reports = crate::error::try_with_capacity(n, "break events")?;
            reports.resize(n, BreakReport::default());
            let (n, lost) = w.take_break_events(&mut reports);
            for (j, r) in reports[..n].iter().enumerate() {
                let e = SinewBreakEvent {
                    body: SinewBody {
                        id: r.body.map_or(0, |b| b.0),
                    },
                    family: r.family as u32,
                    id: r.id,
                    force: r.force,
                    position: r.position.into(),
                };
                // SAFETY: `out_events` is non-null and aligned (both checked above),
                // j < n <= capacity, and this function's safety section makes it
                // writable for `capacity` events.
                unsafe { out_events.add(j).write(e) };
            }
            Ok((n as u32, lost))
        })?;
        // SAFETY: both are non-null (checked above) and, by this function's safety
        // section, writable for one value each; `write_unaligned` needs no alignment.
        unsafe {
            out_count.write_unaligned(n);
            out_lost.write_unaligned(lost);
        }
        Ok(())
    })
}

/// Cuts a rope at its link `link` (0 = the link at its start; a rope of n segments has
/// n links): that link, the bend links over it and the tethers across it are removed,
/// so the two pieces fall apart. Cutting where it was cut already does nothing more.
/// SINEW_ERROR_INVALID_ARGUMENT for a body that is not a rope, OUT_OF_RANGE for a link
/// past its end.
#[no_mangle]
pub extern "C" fn sinew_body_cut_rope(
    world: SinewWorld,
    body: SinewBody,
    link: u32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.cut_rope(BodyId(body.id), link)?))
    })
}

/// Cuts a rope at the live link nearest to the segment `*a`–`*b` (a sword swipe, m)
/// and writes that link's index to `*out_link`.
///
/// # Safety
/// `a` and `b` must point to one readable SinewVec3 each, `out_link` to one writable
/// uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_cut_rope_along(
    world: SinewWorld,
    body: SinewBody,
    a: *const SinewVec3,
    b: *const SinewVec3,
    out_link: *mut u32,
) -> SinewStatus {
    let f = || {
        non_null(a, "a")?;
        non_null(b, "b")?;
        // SAFETY: `a` and `b` are non-null (checked above) and, by this function's safety
        // section, readable for one value each; `read_unaligned` needs no alignment.
        let (a, b): (Vec3, Vec3) =
            unsafe { (a.read_unaligned().into(), b.read_unaligned().into()) };
        with_world(world, |w| Ok(w.cut_rope_along(BodyId(body.id), a, b)?))
    };
    // SAFETY: `out_link` goes to `answer` unchanged; this function's safety section
    // promises what `answer` needs: NULL (refused) or writable for one uint32_t.
    unsafe { answer(entry!(), out_link, "out_link", f) }
}

/// Values of the `end` argument of sinew_body_add_winch (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewRopeEnd {
    /// The rope's first particle (its `start`).
    SINEW_ROPE_START = 0,
    /// The rope's last particle (its `end`).
    SINEW_ROPE_END = 1,
}

fn rope_end(v: u32) -> super::FfiResult<crate::RopeEnd> {
    match v {
        0 => Ok(crate::RopeEnd::Start),
        1 => Ok(crate::RopeEnd::End),
        _ => Err(Failure::new(
            SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
            format!("end {v} is not a SinewRopeEnd (0 or 1)"),
        )),
    }
}

/// Attaches a winch to a rope at `end` (a SinewRopeEnd; that end must be pinned: the
/// drum) and reels the rope in at once to `length` m (in (0, built length]; the built
/// length is the sum of the links' built lengths, and a length within its float
/// rounding, links × FLT_EPSILON relative, counts as it, as for
/// sinew_body_set_winch_target): the particles parked at the drum are the reserve it
/// pays out later. One winch per rope. Drive it with sinew_body_set_winch_speed or
/// sinew_body_set_winch_target.
#[no_mangle]
pub extern "C" fn sinew_body_add_winch(
    world: SinewWorld,
    body: SinewBody,
    end: u32,
    length: f32,
) -> SinewStatus {
    guard(entry!(), || {
        let end = rope_end(end)?;
        with_world(world, |w| Ok(w.add_winch(BodyId(body.id), end, length)?))
    })
}

/// Drives a rope's winch at `speed` m/s (> 0 pays out, < 0 reels in, 0 holds; within
/// ±SINEW_MAX_WINCH_SPEED) until the rope is fully reeled in or paid out. A rope cut
/// on the drum pays out up to the cut and stops there; one cut at or past the link at
/// the drum reels in up to the cut and stops there.
#[no_mangle]
pub extern "C" fn sinew_body_set_winch_speed(
    world: SinewWorld,
    body: SinewBody,
    speed: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.set_winch_speed(BodyId(body.id), speed)?))
    })
}

/// Drives a rope's winch towards `length` m (in [0, built length], the bound of
/// sinew_body_add_winch) at `speed` m/s (> 0); it stops there.
#[no_mangle]
pub extern "C" fn sinew_body_set_winch_target(
    world: SinewWorld,
    body: SinewBody,
    length: f32,
    speed: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.set_winch_target(BodyId(body.id), length, speed)?)
        })
    })
}

pub use super::settings::SINEW_MAX_WINCH_SPEED;

/// Writes a winched rope's active length (m, >= 0), its current winch speed (m/s; 0
/// once stopped) and the index of its paying link (the link at the drum, which carries the
/// load; an index into sinew_body_read_forces' SINEW_BODY_STRETCH group) to the
/// outputs.
///
/// # Safety
/// `out_length` and `out_speed` must point to one writable float each, `out_link` to
/// one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_winch_state(
    world: SinewWorld,
    body: SinewBody,
    out_length: *mut f32,
    out_speed: *mut f32,
    out_link: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_length, "out_length")?;
        non_null(out_speed, "out_speed")?;
        non_null(out_link, "out_link")?;
        let (l, v, k) = with_world(world, |w| {
            let id = BodyId(body.id);
            Ok((
                w.winch_length(id)?,
                w.winch_speed(id)?,
                w.winch_paying_link(id)?,
            ))
        })?;
        // SAFETY: all three are non-null (checked above) and, by this function's safety
        // section, writable for one value each; `write_unaligned` needs no alignment.
        unsafe {
            out_length.write_unaligned(l);
            out_speed.write_unaligned(v);
            out_link.write_unaligned(k);
        }
        Ok(())
    })
}
