//! Level of detail through the C ABI: a body's simulation mode (full, reduced rate,
//! paused), which the host sets from visibility and camera distance
//! (`World::set_body_sim_mode`, src/world/activity.rs).

use super::bodies::SinewBody;
use super::world::{with_world, SinewWorld};
use super::*;
use crate::bodies::BodyId;
use crate::world::activity::{mode_from_pair, mode_to_pair};

/// Values of the `mode` argument of sinew_body_set_sim_mode (`uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewSimMode {
    /// Every substep (the default).
    SINEW_SIM_FULL = 0,
    /// One substep in `every` (1..=substeps), with a substep `every` times longer, and
    /// the last substep of each step.
    SINEW_SIM_REDUCED = 1,
    /// Not simulated: kinematic to others; resuming catches up at rest.
    SINEW_SIM_PAUSED = 2,
}

/// Sets how the body is simulated from the next step on (`mode`, a SinewSimMode;
/// `every`, read only for SINEW_SIM_REDUCED, within 1..=the world's substeps, 1 being
/// full). Resuming from SINEW_SIM_PAUSED moves the body by the mean offset of its
/// attachments to their hosts and zeroes its velocities at the end of the next 4
/// steps. A bad handle, mode or rate changes nothing.
#[no_mangle]
pub extern "C" fn sinew_body_set_sim_mode(
    world: SinewWorld,
    body: SinewBody,
    mode: u32,
    every: u32,
) -> SinewStatus {
    guard(entry!(), || {
        let mode = mode_from_pair(mode, every).ok_or_else(|| {
            Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!("mode {mode} is not a SinewSimMode (0..=2)"),
            )
        })?;
        with_world(world, |w| Ok(w.set_body_sim_mode(BodyId(body.id), mode)?))
    })
}

/// Writes how the body is simulated: its SinewSimMode to `*out_mode` and its rate
/// (`every`, 1 unless SINEW_SIM_REDUCED) to `*out_every`.
///
/// # Safety
/// `out_mode` and `out_every` must point to one writable uint32_t each.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_get_sim_mode(
    world: SinewWorld,
    body: SinewBody,
    out_mode: *mut u32,
    out_every: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_mode, "out_mode")?;
        non_null(out_every, "out_every")?;
        let mode = with_world(world, |w| Ok(w.body_sim_mode(BodyId(body.id))?))?;
        let (tag, every) = mode_to_pair(mode);
        // SAFETY: both pointers are non-null (checked by `non_null` above) and, by this
        // function's safety section, point to writable memory for one value each;
        // `write_unaligned` needs no alignment.
        unsafe {
            out_mode.write_unaligned(tag);
            out_every.write_unaligned(every);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::activity::SimMode;

    /// The enum's values are the tags the world's pairs use.
    #[test]
    fn the_values_match_the_modes() {
        for (v, mode) in [
            (SinewSimMode::SINEW_SIM_FULL, SimMode::Full),
            (
                SinewSimMode::SINEW_SIM_REDUCED,
                SimMode::Reduced { every: 3 },
            ),
            (SinewSimMode::SINEW_SIM_PAUSED, SimMode::Paused),
        ] {
            assert_eq!(mode_to_pair(mode).0, v as u32);
            assert_eq!(mode_from_pair(v as u32, 3), Some(mode));
        }
        assert_eq!(mode_from_pair(3, 1), None);
    }
}
