//! The world's API of winches: attach one to a rope's pinned end, drive it at a
//! speed or to a target length, read its length and paying link (the winch itself and
//! its algorithms are [`crate::topology::winch`]).

use super::World;
use crate::bodies::BodyId;
use crate::error::{try_reserve, Error, Result};
use crate::topology::winch::{check_length, RopeEnd, Winch};

use crate::limits::MAX_WINCH_SPEED;

impl World {
    /// Attaches a winch to rope `id` at `end` (which must be pinned: the drum) and
    /// reels the rope in at once to `length` (m, in (0, built length]; the built length
    /// is the most it can pay out: the particles parked at the drum are its reserve; a
    /// length within the rounding of the built length's `f32` sum counts as the built
    /// length, as for [`World::set_winch_target`]).
    /// The winch is still until [`World::set_winch_speed`] or
    /// [`World::set_winch_target`] drive it. One winch per rope.
    pub fn add_winch(&mut self, id: BodyId, end: RopeEnd, length: f32) -> Result<()> {
        let rope = self.rope_cut(id)?;
        if self.topology.winches.iter().any(|w| w.rope == rope) {
            return Err(Error::invalid("the rope has a winch already"));
        }
        let mut w = Winch::new(rope, end, length, &self.sets, &self.particles)?;
        try_reserve(&mut self.topology.winches, 1, "winches")?;
        w.reel_in_at_once(&mut self.sets, &mut self.particles);
        self.topology.winches.push(w);
        self.wake_body_of(id);
        Ok(())
    }

    fn winch_mut(&mut self, id: BodyId) -> Result<&mut Winch> {
        let rope = self.rope_cut(id)?;
        self.topology
            .winches
            .iter_mut()
            .find(|w| w.rope == rope)
            .ok_or_else(|| Error::invalid("the rope has no winch (add one first)"))
    }

    fn winch(&self, id: BodyId) -> Result<&Winch> {
        let rope = self.rope_cut(id)?;
        self.topology
            .winches
            .iter()
            .find(|w| w.rope == rope)
            .ok_or_else(|| Error::invalid("the rope has no winch (add one first)"))
    }

    /// Drives the rope's winch at `speed` (m/s, > 0 pays out, < 0 reels in, 0 holds)
    /// from the next step on, until the rope is fully reeled in or paid out (or reaches
    /// a cut: a rope cut on the drum pays out up to the cut, one cut at or past the
    /// paying link reels in up to it).
    pub fn set_winch_speed(&mut self, id: BodyId, speed: f32) -> Result<()> {
        check_speed(speed)?;
        let w = self.winch_mut(id)?;
        w.speed = speed;
        w.target = None;
        self.wake_body_of(id);
        Ok(())
    }

    /// Drives the rope's winch towards `length` (m, in [0, built length], the same
    /// bound as [`World::add_winch`]'s) at `speed` (m/s, > 0); it stops there.
    pub fn set_winch_target(&mut self, id: BodyId, length: f32, speed: f32) -> Result<()> {
        check_speed(speed)?;
        if speed.is_nan() || speed <= 0.0 {
            return Err(Error::invalid(format!(
                "speed {speed} must be positive (m/s)"
            )));
        }
        let w = self.winch(id)?;
        let length = check_length(length, w.built_length(&self.sets), w.links(), true)?;
        let w = self.winch_mut(id)?;
        let now = w.length();
        w.speed = if length < now { -speed } else { speed };
        w.target = Some(length);
        if length == now {
            w.speed = 0.0;
        }
        self.wake_body_of(id);
        Ok(())
    }

    /// The rope's active length (m, never negative): the rest lengths from the drum to
    /// the free end.
    pub fn winch_length(&self, id: BodyId) -> Result<f32> {
        Ok(self.winch(id)?.length())
    }

    /// The winch's current speed (m/s; 0 once stopped at its target or an end).
    pub fn winch_speed(&self, id: BodyId) -> Result<f32> {
        Ok(self.winch(id)?.speed)
    }

    /// The index of the paying link (the active link at the drum) in the rope's links
    /// counted from its start: the entry of the Stretch group of
    /// [`World::read_body_forces`] that carries the whole load.
    pub fn winch_paying_link(&self, id: BodyId) -> Result<u32> {
        let w = self.winch(id)?;
        Ok(w.link(w.cursor()) - w.rope.stretch.start)
    }
}

fn check_speed(speed: f32) -> Result<()> {
    if !(speed.is_finite() && speed.abs() <= MAX_WINCH_SPEED) {
        return Err(Error::invalid(format!(
            "speed {speed} must be finite and within ±{MAX_WINCH_SPEED} m/s"
        )));
    }
    Ok(())
}
