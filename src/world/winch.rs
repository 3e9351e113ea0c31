//! The world's API of winches (see [`crate::constraints::winch`]): attach one to a
//! rope's pinned end, drive it at a speed or to a target length, read its length and
//! paying link.

use super::World;
use crate::bodies::BodyId;
use crate::constraints::ConstraintEdit;
use crate::error::{try_reserve, Error, Result};
use crate::topology::winch::{RopeEnd, Winch};

use crate::limits::MAX_WINCH_SPEED;

impl World {
    /// Attaches a winch to rope `id` at `end` (which must be pinned: the drum) and
    /// reels the rope in at once to `length` (m, in (0, built length]; the built length
    /// is the most it can pay out: the particles parked at the drum are its reserve).
    /// The winch is still until [`World::set_winch_speed`] or
    /// [`World::set_winch_target`] drive it. One winch per rope.
    pub fn add_winch(&mut self, id: BodyId, end: RopeEnd, length: f32) -> Result<()> {
        let rope = self.rope_cut(id)?;
        if self.topology.winches.iter().any(|w| w.rope == rope) {
            return Err(Error::invalid("the rope has a winch already"));
        }
        let n = rope.stretch.len() as u32;
        let mut w = Winch {
            rope,
            end,
            cursor: 0,
            paying: 0.0,
            full: 0.0,
            tail: 0.0,
            speed: 0.0,
            target: None,
            inverse_mass: 0.0,
            bend_ratio: 1.0,
            drum: crate::math::Vec3::ZERO,
        };
        let drum = w.particle(0) as usize;
        w.drum = self.particles.position(drum);
        if self.particles.inverse_mass(drum) != 0.0 {
            return Err(Error::invalid(format!(
                "the rope's {end:?} is not pinned: a winch needs a pinned end (the drum)"
            )));
        }
        let link = &self.sets.link;
        for i in 0..n {
            if link.is_removed(w.link(i) as usize) {
                return Err(Error::invalid(format!(
                    "link {i} from the {end:?} was cut or broke: a winch needs a whole rope"
                )));
            }
        }
        w.full = link.rest_length(w.link(0) as usize);
        w.paying = w.full;
        w.tail = (1..n).map(|i| link.rest_length(w.link(i) as usize)).sum();
        let built = w.length();
        if !(length.is_finite() && length > 0.0 && length <= built) {
            return Err(Error::invalid(format!(
                "length {length} must be in (0, {built}] m (the rope's built length)"
            )));
        }
        w.inverse_mass = (1..=n)
            .map(|i| self.particles.inverse_mass(w.particle(i) as usize))
            .find(|&m| m > 0.0)
            .unwrap_or(0.0);
        if w.inverse_mass == 0.0 {
            return Err(Error::invalid("every particle of the rope is pinned"));
        }
        if n >= 2 {
            if let Some(b) = w.bend(0) {
                let span = w.full + link.rest_length(w.link(1) as usize);
                w.bend_ratio = link.rest_length(b as usize) / span;
            }
        }
        try_reserve(&mut self.topology.winches, 1, "winches")?;
        // Reel in to `length` at once: one "substep" of 1 s at the speed that gets there.
        w.speed = length - built;
        w.target = Some(length);
        if w.speed < 0.0 && self.sets.advance_winch(&mut w, &mut self.particles, 1.0) {
            self.sets.update_jacobi_weights(&self.particles);
            // Reeled in at once: the parked particles go onto the drum, and the active
            // part of the rope moves with the new cursor onto it.
            // The point of the paying link r from its outer end goes onto the drum, so
            // the link starts at its rest length r.
            let drum = self.particles.position(w.particle(0) as usize);
            let inner = self.particles.position(w.particle(w.cursor()) as usize);
            let outer = self.particles.position(w.particle(w.cursor() + 1) as usize);
            let d = inner.distance(outer);
            let on_link = if d > 0.0 {
                outer + (inner - outer) * (w.paying / d).min(1.0)
            } else {
                inner
            };
            let shift = drum - on_link;
            for i in 0..=n {
                let p = w.particle(i) as usize;
                let to = if i <= w.cursor() {
                    drum
                } else {
                    self.particles.position(p) + shift
                };
                self.particles.set_position(p, to);
                self.particles.step_start[p] = to;
                self.particles.set_velocity(p, crate::math::Vec3::ZERO);
            }
        }
        w.speed = 0.0;
        w.target = None;
        self.topology.winches.push(w);
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
    /// from the next step on, until the rope is fully reeled in or paid out.
    pub fn set_winch_speed(&mut self, id: BodyId, speed: f32) -> Result<()> {
        check_speed(speed)?;
        let w = self.winch_mut(id)?;
        w.speed = speed;
        w.target = None;
        Ok(())
    }

    /// Drives the rope's winch towards `length` (m, in [0, built length]) at `speed`
    /// (m/s, > 0); it stops there.
    pub fn set_winch_target(&mut self, id: BodyId, length: f32, speed: f32) -> Result<()> {
        check_speed(speed)?;
        if speed.is_nan() || speed <= 0.0 {
            return Err(Error::invalid(format!(
                "speed {speed} must be positive (m/s)"
            )));
        }
        let w = self.winch(id)?;
        let built = built_length(self, w);
        if !(length.is_finite() && (0.0..=built).contains(&length)) {
            return Err(Error::invalid(format!(
                "target length {length} must be in [0, {built}] m (the rope's built length)"
            )));
        }
        let w = self.winch_mut(id)?;
        let now = w.length();
        w.speed = if length < now { -speed } else { speed };
        w.target = Some(length);
        if length == now {
            w.speed = 0.0;
        }
        Ok(())
    }

    /// The rope's active length (m): the rest lengths from the drum to the free end.
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

/// The rope's built length (m): every link at its built length.
fn built_length(world: &World, w: &Winch) -> f32 {
    (0..w.links())
        .map(|i| {
            if i == w.cursor() {
                w.full
            } else {
                world.sets.link.rest_length(w.link(i) as usize).max(0.0)
            }
        })
        .sum()
}

fn check_speed(speed: f32) -> Result<()> {
    if !(speed.is_finite() && speed.abs() <= MAX_WINCH_SPEED) {
        return Err(Error::invalid(format!(
            "speed {speed} must be finite and within ±{MAX_WINCH_SPEED} m/s"
        )));
    }
    Ok(())
}
