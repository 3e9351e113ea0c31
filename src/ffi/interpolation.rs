//! Fixed step with an accumulator, and positions interpolated between the last two
//! states (src/world/interpolation.rs), for rendering at any frame rate.

use std::ffi::c_void;

use super::bodies::SinewBody;
use super::readback::{check_capacity, StridedOut};
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{guard, non_null, SinewStatus};
use crate::bodies::BodyId;

pub use super::settings::{SINEW_MAX_FRAME_DT, SINEW_MAX_STEPS_PER_ADVANCE};

/// Fixed step with an accumulator: adds `frame_dt` seconds (the frame's real time,
/// finite, in [0, SINEW_MAX_FRAME_DT]) to the world's accumulator and runs
/// floor(accumulator / `fixed_dt`) steps of `fixed_dt` seconds (finite, in [1e-6, 10]),
/// each exactly `sinew_world_step(world, fixed_dt)`, so the simulation is the same at
/// any frame rate; but at most `max_steps` (1..=SINEW_MAX_STEPS_PER_ADVANCE): whole
/// steps beyond the cap are dropped (the world falls behind real time instead of
/// spending ever longer frames catching up), the fraction of a step left over is kept.
/// Writes the steps run to `*out_steps` and alpha = leftover / `fixed_dt`, in [0, 1),
/// to `*out_alpha`: the weight of the current state for
/// `sinew_world_read_interpolated_positions` this frame (the rendered state lags real
/// time by at most one fixed step). A new world's accumulator is 0;
/// `sinew_world_step` leaves it alone; a snapshot saves and restores it.
///
/// A bad argument changes nothing. SINEW_ERROR_NON_FINITE (as from sinew_world_step)
/// means the steps up to and including the failing one ran, the whole steps still due
/// are dropped and the fraction kept; the outputs are not written then.
///
/// # Safety
/// `out_steps` and `out_alpha` must each be NULL or point to one writable value.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_advance(
    world: SinewWorld,
    frame_dt: f32,
    fixed_dt: f32,
    max_steps: u32,
    out_steps: *mut u32,
    out_alpha: *mut f32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_steps, "out_steps")?;
        non_null(out_alpha, "out_alpha")?;
        let a = with_world(world, |w| Ok(w.advance(frame_dt, fixed_dt, max_steps)?))?;
        // SAFETY: both are non-null (checked above) and, by this function's safety
        // section, point to one writable value each; `write_unaligned` needs no alignment.
        unsafe {
            out_steps.write_unaligned(a.steps);
            out_alpha.write_unaligned(a.alpha);
        }
        Ok(())
    })
}

/// Copies the positions (m) of particles `first..first+count`, interpolated between
/// the start and the end of the last step, to `out`: (1 - alpha) * previous + alpha *
/// current, one SinewVec3 every `stride_bytes` (12..=SINEW_MAX_STRIDE_BYTES), e.g.
/// straight into a vertex buffer. `alpha` in [0, 1] (0 = the state before the last
/// step, 1 = the current one, both bit for bit; pass the one `sinew_world_advance`
/// wrote). Previous = current where no step moved a particle since it got its
/// position: before the first step, and after a position write
/// (`sinew_world_write_positions` and the body teleports are teleports: no streak).
/// A snapshot saves both states: a restored world reads as the saved one did.
///
/// # Safety
/// `out` must point to `(count-1)*stride_bytes + 12` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_interpolated_positions(
    world: SinewWorld,
    first: u32,
    count: u32,
    alpha: f32,
    out: *mut c_void,
    stride_bytes: u32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: this function's safety section makes `out` NULL (refused) or writable
        // for `count` elements `stride_bytes` apart, for this call.
        let out = unsafe { StridedOut::<SinewVec3>::new(out, count, stride_bytes, "out")? };
        with_world(world, |w| {
            let sink = |k, v| out.write(k, v);
            Ok(w.read_interpolated_positions(first, count, alpha, sink)?)
        })
    })
}

/// `sinew_world_read_interpolated_positions` over all the body's particles: `capacity`
/// is the number of elements `out` holds (at least the body's particle count), one
/// SinewVec3 every `stride_bytes` (12..=SINEW_MAX_STRIDE_BYTES); `alpha` in [0, 1].
///
/// # Safety
/// `out` must point to `(capacity-1)*stride_bytes + 12` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_read_interpolated_positions(
    world: SinewWorld,
    body: SinewBody,
    alpha: f32,
    out: *mut c_void,
    capacity: u32,
    stride_bytes: u32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: this function's safety section makes `out` NULL (refused) or writable
        // for `capacity` elements `stride_bytes` apart, for this call.
        let out = unsafe { StridedOut::<SinewVec3>::new(out, capacity, stride_bytes, "out")? };
        with_world(world, |w| {
            let (first, count) = w.body_particle_range(BodyId(body.id))?;
            check_capacity(capacity, count, || format!("the body's {count} particles"))?;
            let sink = |k, v| out.write(k, v);
            Ok(w.read_interpolated_positions(first, count, alpha, sink)?)
        })
    })
}
