//! Sleeping through the C ABI: turning it on and off, its threshold and time, whether a
//! body sleeps, and the explicit wake and sleep calls (src/world/sleep.rs holds the
//! islands and the rule; this file only translates).

use super::bodies::SinewBody;
use super::world::{with_world, SinewWorld};
use super::{guard, non_null, Failure, SinewStatus};
use crate::bodies::BodyId;

/// Turns sleeping on (`enabled` = 1) or off (0); the desc's `sleeping` sets it at
/// creation (off by default). On, islands of particles whose kinetic energy per mass
/// stays under the threshold for the sleep time stop being simulated (from the end of
/// the next step) until something wakes them; off wakes everything now. Off, the
/// physics is the same bits as a world that never had it.
#[no_mangle]
pub extern "C" fn sinew_world_set_sleeping(world: SinewWorld, enabled: u32) -> SinewStatus {
    guard(entry!(), || {
        if enabled > 1 {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!("enabled {enabled} must be 0 or 1"),
            ));
        }
        with_world(world, |w| {
            w.set_sleeping(enabled == 1);
            Ok(())
        })
    })
}

/// Sets the sleep threshold (J/kg: a particle is at rest while ½|v|² stays under it; in
/// [0, SINEW_MAX_SLEEP_THRESHOLD]) and the sleep time (s: how long every particle of an
/// island stays at rest before it sleeps; in [0, SINEW_MAX_SLEEP_TIME]), as the desc's
/// `sleep_threshold` and `sleep_time`.
#[no_mangle]
pub extern "C" fn sinew_world_set_sleep_threshold(
    world: SinewWorld,
    threshold: f32,
    time: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.set_sleep_threshold(threshold, time)?))
    })
}

/// Writes 1 to `*out_asleep` when the body sleeps (its island is frozen), else 0.
///
/// # Safety
/// `out_asleep` must point to one writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_is_asleep(
    world: SinewWorld,
    body: SinewBody,
    out_asleep: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_asleep, "out_asleep")?;
        let asleep = with_world(world, |w| Ok(w.body_is_asleep(BodyId(body.id))?))?;
        // SAFETY: `out_asleep` is non-null (checked by `non_null` above) and, by this
        // function's safety section, points to writable memory for one value;
        // `write_unaligned` needs no alignment.
        unsafe { out_asleep.write_unaligned(asleep as u32) };
        Ok(())
    })
}

/// Wakes the body and everything in its island (constraints and contacts tie it to);
/// its particles start counting their rest from 0. Waking an awake body does nothing.
#[no_mangle]
pub extern "C" fn sinew_body_wake(world: SinewWorld, body: SinewBody) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.wake_body(BodyId(body.id))?))
    })
}

/// Puts the body and everything its constraints tie it to to sleep now, at rest where
/// it is (a level's props asleep from the start). SINEW_ERROR_INVALID_ARGUMENT while
/// sleeping is off (nothing would wake it).
#[no_mangle]
pub extern "C" fn sinew_body_sleep(world: SinewWorld, body: SinewBody) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.sleep_body(BodyId(body.id))?))
    })
}

/// Wakes every sleeping island of the world.
#[no_mangle]
pub extern "C" fn sinew_world_wake_all(world: SinewWorld) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            w.wake_all();
            Ok(())
        })
    })
}
