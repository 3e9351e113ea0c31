//! Fixed step with an accumulator, and positions interpolated between the last two
//! states, for rendering at any frame rate (Fiedler, "Fix Your Timestep!", 2004).
//!
//! [`World::advance`] adds the frame time to the world's accumulator (seconds, f64)
//! and runs as many steps of exactly `fixed_dt` as fit, each one the same call as
//! [`World::step`]`(fixed_dt)`, so the physics never depends on the frame rate: a
//! world advanced by any sequence of frame times is bit-identical to one stepped the
//! same number of times with `fixed_dt`. At most `max_steps` run per call; whole steps
//! beyond the cap are dropped (the world runs slower than real time instead of
//! falling ever further behind, the "spiral of death"), the fraction of a step left
//! over is kept. The leftover over `fixed_dt` is `alpha` in [0, 1): how far real time
//! has gone past the last state towards the next one.
//!
//! The previous state is `Particles::step_start`: the positions at the start of the
//! last step, which the step's first predict records anyway for the non-finite
//! fallback (src/recovery.rs), in an array grown with the particles, so keeping it
//! costs nothing and the step never allocates for it. A read interpolates
//! `(1 − α)·previous + α·current` per particle, one expression in `f32`: α = 0 gives
//! the previous positions and α = 1 the current ones, bit for bit.
//!
//! The previous state is the current one where no step has moved a particle since it
//! got its position: before the first step (a particle is added with both), after a
//! position write outside the step (a write is a teleport: `write_positions`,
//! `teleport_to_skin`, a winch laying its rope on the drum), after the non-finite
//! fallback put a body back. A snapshot saves both states and the accumulator, so a
//! restored world renders and advances exactly as the saved one would have.

use super::World;
use crate::error::{Error, Result};
use crate::math::Vec3;

pub use crate::limits::{MAX_FRAME_DT, MAX_STEPS_PER_ADVANCE};

/// What one [`World::advance`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advance {
    /// Steps of `fixed_dt` run, `0..=max_steps`.
    pub steps: u32,
    /// Leftover time over `fixed_dt`, in [0, 1): the weight of the current state in
    /// [`World::read_interpolated_positions`].
    pub alpha: f32,
}

/// The largest `f32` below 1: `alpha` stays in [0, 1) when the leftover rounds up.
const ALPHA_BELOW_ONE: f32 = 1.0 - f32::EPSILON / 2.0;

/// Checks the interpolation weight: finite, in [0, 1].
pub(crate) fn check_alpha(alpha: f32) -> Result<()> {
    if !(0.0..=1.0).contains(&alpha) {
        return Err(Error::invalid(format!(
            "alpha {alpha} must be in [0, 1] (0 = the state before the last step, 1 = the current one)"
        )));
    }
    Ok(())
}

/// `(1 − α)·previous + α·current`, the interpolated position (m).
#[inline]
pub(crate) fn lerp(previous: Vec3, current: Vec3, alpha: f32) -> Vec3 {
    previous * (1.0 - alpha) + current * alpha
}

impl World {
    /// Adds `frame_dt` seconds (finite, in [0, [`MAX_FRAME_DT`]]) of real time to the
    /// world's accumulator and runs `floor(accumulator / fixed_dt)` steps of
    /// `fixed_dt` (finite, in [[`crate::MIN_DT`], [`crate::MAX_DT`]] s), each exactly
    /// [`World::step`]`(fixed_dt)`, but at most `max_steps`
    /// (1..=[`MAX_STEPS_PER_ADVANCE`]); whole steps beyond the cap are dropped, the
    /// fraction of a step left over is kept. Returns the steps run and
    /// `alpha = leftover / fixed_dt` in [0, 1), the weight to pass to
    /// [`World::read_interpolated_positions`] for this frame.
    ///
    /// A bad argument changes nothing. When a step fails (the step's
    /// [`crate::ErrorKind::NonFinite`], after which the world did change), the steps
    /// up to and including that one have run, the whole steps still due this frame
    /// are dropped, the leftover fraction is kept, and the error is returned.
    ///
    /// [`World::step`] leaves the accumulator alone: the two can be mixed.
    pub fn advance(&mut self, frame_dt: f32, fixed_dt: f32, max_steps: u32) -> Result<Advance> {
        if !(0.0..=MAX_FRAME_DT).contains(&frame_dt) {
            return Err(Error::invalid(format!(
                "frame_dt {frame_dt} must be finite and in [0, {MAX_FRAME_DT}] seconds"
            )));
        }
        if !(fixed_dt.is_finite() && (super::MIN_DT..=super::MAX_DT).contains(&fixed_dt)) {
            return Err(Error::invalid(format!(
                "fixed_dt {fixed_dt} must be finite and in [{}, {}] seconds",
                super::MIN_DT,
                super::MAX_DT
            )));
        }
        if !(1..=MAX_STEPS_PER_ADVANCE).contains(&max_steps) {
            return Err(Error::invalid(format!(
                "max_steps {max_steps} must be in 1..={MAX_STEPS_PER_ADVANCE}"
            )));
        }
        let fixed = fixed_dt as f64;
        self.accumulator += frame_dt as f64;
        let mut steps = 0;
        while steps < max_steps && self.accumulator >= fixed {
            self.accumulator -= fixed;
            steps += 1;
            if let Err(e) = self.step(fixed_dt) {
                self.accumulator %= fixed;
                return Err(e);
            }
        }
        // Over the cap: drop the whole steps, keep the fraction.
        self.accumulator %= fixed;
        let alpha = ((self.accumulator / fixed) as f32).min(ALPHA_BELOW_ONE);
        Ok(Advance { steps, alpha })
    }

    /// Seconds of real time given to [`World::advance`] and not yet simulated (less
    /// than the last `fixed_dt`; 0 for a new world).
    pub fn accumulated_time(&self) -> f64 {
        self.accumulator
    }

    /// Calls `sink(k, position)` for particles `first..first+count` with the position
    /// (m) interpolated between the start and the end of the last step:
    /// `(1 − alpha)·previous + alpha·current`, `alpha` in [0, 1] (the one
    /// [`World::advance`] returned). Where no step has moved a particle since it got
    /// its position (before the first step, after a position write) both are the same.
    pub fn read_interpolated_positions(
        &self,
        first: u32,
        count: u32,
        alpha: f32,
        mut sink: impl FnMut(usize, Vec3),
    ) -> Result<()> {
        check_alpha(alpha)?;
        let range = self.particle_range(first, count as usize)?;
        let p = &self.particles;
        for (k, i) in range.enumerate() {
            sink(k, lerp(p.step_start[i], p.position(i), alpha));
        }
        Ok(())
    }
}
