//! What the colliders' contacts did over the last step, beyond the per-contact
//! readback (sinew_world_read_contacts, src/ffi/collision.rs): each collider's summed
//! force and torque, and the begin / persist / end events of (collider, body) pairs
//! (src/collision/colliders/events.rs).

use super::bodies::SinewBody;
use super::collision::SinewCollider;
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{guard, non_null, query_u32, Failure, SinewStatus};
use crate::collision::colliders::events::ContactEventKind;
use crate::collision::ColliderId;
use crate::math::Vec3;
use crate::world::ContactEvent;

pub use super::settings::SINEW_MAX_CONTACT_EVENTS;

/// Values of `SinewContactEvent::kind` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewContactEventKind {
    /// The pair touches in this step and did not in the last one.
    SINEW_CONTACT_BEGIN = 0,
    /// The pair touched in the last step and still does.
    SINEW_CONTACT_PERSIST = 1,
    /// The pair touched in the last step and no longer does (or its collider was
    /// removed, or stopped reporting contacts).
    SINEW_CONTACT_END = 2,
}

/// One contact event (see sinew_world_take_contact_events): a collider and a body, or a
/// particle in no body, that began, kept or ended touching in the last step.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewContactEvent {
    /// A SinewContactEventKind value.
    pub kind: u32,
    /// The pair's first particle (lowest index) touching the collider in the step (for
    /// an end event: in the last step it touched).
    pub particle: u32,
    /// The collider (for an end event it may have been removed since).
    pub collider: SinewCollider,
    /// The particles' body; id 0 for a particle in no body (the pair is that particle's).
    pub body: SinewBody,
    /// The first particle's contact point (world, m) and the collider's outward normal
    /// there.
    pub point: SinewVec3,
    pub normal: SinewVec3,
    /// The friction impulse (N·s, world) the collider gave all the pair's particles
    /// over the step; 0 for an end event.
    pub friction_impulse: SinewVec3,
    /// The normal impulse (N·s, >= 0) the collider gave all the pair's particles over
    /// the step; 0 for an end event.
    pub impulse: f32,
}

impl From<ContactEvent> for SinewContactEvent {
    fn from(e: ContactEvent) -> Self {
        SinewContactEvent {
            kind: match e.kind {
                ContactEventKind::Begin => SinewContactEventKind::SINEW_CONTACT_BEGIN,
                ContactEventKind::Persist => SinewContactEventKind::SINEW_CONTACT_PERSIST,
                ContactEventKind::End => SinewContactEventKind::SINEW_CONTACT_END,
            } as u32,
            particle: e.particle,
            collider: SinewCollider { id: e.collider.0 },
            body: SinewBody {
                id: e.body.map_or(0, |b| b.0),
            },
            point: e.point.into(),
            normal: e.normal.into(),
            friction_impulse: e.friction.into(),
            impulse: e.impulse,
        }
    }
}

/// Writes the force (N) and torque (N·m) the particles exerted on `collider` over the
/// last step to `*out_force` and `*out_torque`: the means over the step of its
/// contacts' impulses, -(impulse * normal + friction_impulse) summed (zero when the
/// collider's report_contacts is off, and before the first step). The torque is about
/// `*about` (world, m), or about the collider's position at the end of the step when
/// `about` is NULL. A collider holding a resting load carries its weight.
///
/// # Safety
/// `about` must be NULL or point to one readable SinewVec3; `out_force` and
/// `out_torque` to one writable SinewVec3 each.
#[no_mangle]
pub unsafe extern "C" fn sinew_collider_contact_wrench(
    world: SinewWorld,
    collider: SinewCollider,
    about: *const SinewVec3,
    out_force: *mut SinewVec3,
    out_torque: *mut SinewVec3,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_force, "out_force")?;
        non_null(out_torque, "out_torque")?;
        let about: Option<Vec3> = if about.is_null() {
            None
        } else {
            // SAFETY: `about` is non-null and, by this function's safety section, points
            // to one readable SinewVec3; `read_unaligned` needs no alignment.
            Some(unsafe { about.read_unaligned() }.into())
        };
        let wrench = with_world(world, |w| {
            Ok(w.collider_contact_wrench(ColliderId(collider.id), about)?)
        })?;
        // SAFETY: both are non-null (checked above) and, by this function's safety
        // section, point to writable memory for one SinewVec3; `write_unaligned` needs no
        // alignment.
        unsafe {
            out_force.write_unaligned(wrench.force.into());
            out_torque.write_unaligned(wrench.torque.into());
        }
        Ok(())
    })
}

/// Turns the contact events on (`enabled` 1) or off (0; the default). While on, every
/// step compares the (collider, body) pairs of its reported contacts (colliders with
/// report_contacts on) with the last step's and queues one event per pair: begin,
/// persist or end (a particle in no body is a pair of its own). Turning them on
/// reserves the queue (SINEW_MAX_CONTACT_EVENTS events); off forgets the pairs and the
/// waiting events. Events are not part of a snapshot: a restored world begins every
/// pair that touches in its next step.
#[no_mangle]
pub extern "C" fn sinew_world_set_contact_events(world: SinewWorld, enabled: u32) -> SinewStatus {
    guard(entry!(), || {
        let on = crate::limits::schema::flag_from_c(enabled, "enabled")?;
        with_world(world, |w| Ok(w.set_contact_events(on)?))
    })
}

/// Writes the number of contact events waiting to be taken to `*out_count` (at most
/// SINEW_MAX_CONTACT_EVENTS).
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_contact_event_count(
    world: SinewWorld,
    out_count: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `query_u32` unchanged, and this function's safety section
    // promises what `query_u32` needs: `out_count` is NULL (refused) or points to one
    // writable uint32_t.
    unsafe {
        query_u32(entry!(), world, out_count, |w| {
            w.contact_event_count() as u32
        })
    }
}

/// Moves the oldest contact events (up to `capacity`) into `out_events`, oldest first
/// (within a step: by collider, then body), writes how many to `*out_count` and how
/// many were lost to a full queue since the last call to `*out_lost` (then clears that
/// count). Poll it after each step; it allocates nothing.
///
/// # Safety
/// `out_events` must point to `capacity` writable SinewContactEvent, `out_count` to one
/// writable uint32_t, `out_lost` to one writable uint64_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_take_contact_events(
    world: SinewWorld,
    out_events: *mut SinewContactEvent,
    capacity: u32,
    out_count: *mut u32,
    out_lost: *mut u64,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_events, "out_events")?;
        non_null(out_count, "out_count")?;
        non_null(out_lost, "out_lost")?;
        let align = std::mem::align_of::<SinewContactEvent>();
        if (out_events as usize) % align != 0 {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!("out_events is not aligned to {align} bytes"),
            ));
        }
        let (n, lost) = with_world(world, |w| {
            let (events, lost) = w.take_contact_events_with(capacity as usize);
            let mut n = 0u32;
            for e in events {
                // SAFETY: `out_events` is non-null and aligned (both checked above), the
                // drain yields at most `capacity` events so n < capacity, and this
                // function's safety section makes it writable for `capacity` events.
                unsafe { out_events.add(n as usize).write(e.into()) };
                n += 1;
            }
            Ok((n, lost))
        })?;
        // SAFETY: both are non-null (checked above) and, by this function's safety
        // section, point to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe {
            out_count.write_unaligned(n);
            out_lost.write_unaligned(lost);
        }
        Ok(())
    })
}
