//! Winches: a rope whose length changes while it runs, paying links out of or into a
//! pinned end (the cursor end), as a crane's drum or Obi Rope's cursor does.
//!
//! The rope keeps all the particles it was built with. Counting from the cursor end
//! (local index 0, pinned at the drum point P), particles `0..=k` are *parked*: pinned
//! at (or within a link's stretch of) P, their links inert (both ends pinned). Particle `k` is the cursor; the paying
//! link (k, k+1) has a rest length r in [0, L_k] (L_k its built length), and every
//! later link keeps its built length. The rope's active length is r plus the built
//! lengths past the paying link.
//!
//! Each substep of length h, r changes by v h (v > 0 pays out). Reeling in past r = 0
//! parks particle k+1 where it is (within the link's stretch of P) and
//! the next link becomes the paying one; paying out past r = L_k unparks the cursor
//! (its mass comes back) and the parked particle before it becomes the cursor, its
//! link paying from 0. So every link stays within [0, L] and no particle is created or
//! destroyed: the parked particles are the reserve. The bend links across the cursor
//! and the tethers from the cursor end follow the active length.
//!
//! A cut or broken link stops the winch where it reaches it: paying out stops at a cut
//! on the drum (the links parked past it hold nothing), reeling in at a cut at or past
//! the paying link (parking the fallen piece would pin it where it falls). So the
//! length never goes negative.
//!
//! Winches are plain data in [`super::Topology`], advanced at the end of every
//! substep without allocation.

use super::breaking::RopeCut;
use crate::constraints::{ConstraintEdit, ConstraintSets};
use crate::error::{Error, Result};
use crate::limits::MAX_WINCH_SPEED;
use crate::math::Vec3;
use crate::particles::Particles;

/// Which end of a rope a winch pays from.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RopeEnd {
    /// The rope's first particle.
    Start = 0,
    /// The rope's last particle.
    End = 1,
}

/// One winch on one rope.
#[derive(Clone, Debug, PartialEq)]
pub struct Winch {
    /// The rope's particles and constraint ids.
    pub(crate) rope: RopeCut,
    pub(crate) end: RopeEnd,
    /// Local index (from the cursor end) of the cursor particle.
    pub(crate) cursor: u32,
    /// Rest length of the paying link (m).
    pub(crate) paying: f32,
    /// Built length of the paying link (m).
    pub(crate) full: f32,
    /// Built lengths of the active links past the paying one (m).
    pub(crate) tail: f32,
    /// Speed (m/s): > 0 pays out, < 0 reels in.
    pub(crate) speed: f32,
    /// Length at which the winch stops (m), if any.
    pub(crate) target: Option<f32>,
    /// Inverse mass (1/kg) an unparked particle gets back.
    pub(crate) inverse_mass: f32,
    /// Bend rest length per unit of the paying link's straight span (ratio of the
    /// built bend length to the two built links it spans).
    pub(crate) bend_ratio: f32,
    /// Where the drum (local particle 0) was at the last substep (m): when the host
    /// moves it, the parked particles move with it.
    pub(crate) drum: Vec3,
}

impl Winch {
    /// Number of links of the rope.
    pub(crate) fn links(&self) -> u32 {
        self.rope.stretch.len() as u32
    }

    /// Global particle of local index `i` (counted from the cursor end).
    pub(crate) fn particle(&self, i: u32) -> u32 {
        match self.end {
            RopeEnd::Start => self.rope.particles.start + i,
            RopeEnd::End => self.rope.particles.end - 1 - i,
        }
    }

    /// Body-link id of the link between local particles i and i+1.
    pub(crate) fn link(&self, i: u32) -> u32 {
        match self.end {
            RopeEnd::Start => self.rope.stretch.start + i,
            RopeEnd::End => self.rope.stretch.start + self.links() - 1 - i,
        }
    }

    /// Body-link id of the bend link between local particles i and i+2, if any.
    pub(crate) fn bend(&self, i: u32) -> Option<u32> {
        let n = self.rope.bend.len() as u32;
        let j = match self.end {
            RopeEnd::Start => i,
            RopeEnd::End => n.checked_sub(1)?.checked_sub(i)?,
        };
        (i < n).then_some(self.rope.bend.start + j)
    }

    /// The rope's active length (m), never negative: the paying link's rest length
    /// (in [0, its built length]) plus the built lengths past it (at least 0, and
    /// exactly 0 past the last link).
    pub fn length(&self) -> f32 {
        self.paying + self.tail
    }

    /// The cursor's local index (parked particles are 0..=cursor).
    pub fn cursor(&self) -> u32 {
        self.cursor
    }
}

/// Sets the rest value of constraint `id` of `set` unless it was removed (a cut or
/// broken rope keeps its winch; removed stays removed).
fn edit_live(set: &mut dyn ConstraintEdit, id: u32, value: f32) {
    if !set.is_removed(id as usize) {
        set.edit_rest(id as usize, value);
    }
}

/// Checks a winch length (m): the length [`Winch::new`] reels a rope in to (in
/// (0, built], `zero` false) or a target of [`Winch`] (in [0, built], `zero` true),
/// where `built` is the rope's built length (m), the sum of its `links` built link
/// lengths: the most a winch pays out. The one bound of both: a length within the
/// rounding of that sum (`links` × ε relative, the error bound of a sum of `links`
/// positive terms) counts as the built length, so that the length a host computed
/// (3 m for 30 links of 0.1 m, which sum to 2.9999998 in `f32`) is accepted. Returns
/// the length, at most `built`.
pub(crate) fn check_length(length: f32, built: f32, links: u32, zero: bool) -> Result<f32> {
    let slack = built * links.max(1) as f32 * f32::EPSILON;
    let low = if zero { length >= 0.0 } else { length > 0.0 };
    if !(length.is_finite() && low && length <= built + slack) {
        let (open, what) = if zero {
            ("[", "target length")
        } else {
            ("(", "length")
        };
        return Err(Error::invalid(format!(
            "{what} {length} must be in {open}0, {built}] m (the rope's built length)"
        )));
    }
    Ok(length.min(built))
}

/// Advances every winch of `winches` by one substep of length `h` (s), editing the
/// rest lengths of `sets`. No allocation.
pub(crate) fn advance_winches(
    winches: &mut [Winch],
    sets: &mut ConstraintSets,
    particles: &mut Particles,
    h: f32,
) {
    if winches.is_empty() {
        return;
    }
    let mut masses_changed = false;
    for w in winches {
        masses_changed |= w.advance(sets, particles, h);
    }
    if masses_changed {
        sets.update_jacobi_weights(particles);
    }
}

impl Winch {
    /// A still winch on `rope` at `end` (which must be pinned: the drum), checked
    /// against `sets` and `particles`, about to be reeled in to `length` (m, in
    /// (0, built length]) by [`Self::reel_in_at_once`]. Changes nothing.
    pub(crate) fn new(
        rope: RopeCut,
        end: RopeEnd,
        length: f32,
        sets: &ConstraintSets,
        particles: &Particles,
    ) -> Result<Winch> {
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
            drum: Vec3::ZERO,
        };
        let drum = w.particle(0) as usize;
        w.drum = particles.position(drum);
        if particles.inverse_mass(drum) != 0.0 {
            return Err(Error::invalid(format!(
                "the rope's {end:?} is not pinned: a winch needs a pinned end (the drum)"
            )));
        }
        let link = &sets.link;
        for i in 0..n {
            if link.is_removed(w.link(i) as usize) {
                return Err(Error::invalid(format!(
                    "link {i} from the {end:?} was cut or broke: a winch needs a whole rope"
                )));
            }
            // Rest lengths the API sets stay there; a restored world's may not (a
            // forged snapshot), and sums of such lengths overflow into NaN.
            let l = link.rest_length(w.link(i) as usize);
            if !(0.0..=crate::limits::MAX_LENGTH).contains(&l) {
                return Err(Error::invalid(format!(
                    "link {i} from the {end:?} has the rest length {l} m: a winch needs \
                     links of [0, {}] m",
                    crate::limits::MAX_LENGTH
                )));
            }
        }
        w.full = link.rest_length(w.link(0) as usize);
        w.paying = w.full;
        w.tail = (1..n).map(|i| link.rest_length(w.link(i) as usize)).sum();
        let length = check_length(length, w.length(), n, false)?;
        w.inverse_mass = (1..=n)
            .map(|i| particles.inverse_mass(w.particle(i) as usize))
            .find(|&m| m > 0.0)
            .unwrap_or(0.0);
        if w.inverse_mass == 0.0 {
            return Err(Error::invalid("every particle of the rope is pinned"));
        }
        if w.inverse_mass > crate::limits::MAX_INVERSE_MASS {
            return Err(Error::invalid(format!(
                "the rope's particles have the inverse mass {} 1/kg: a winch needs at most {} \
                 (a particle of 1 ng)",
                w.inverse_mass,
                crate::limits::MAX_INVERSE_MASS
            )));
        }
        if n >= 2 {
            // A bend link the host removed keeps no rest length (the winch leaves it
            // alone, `edit_live`): the ratio stays 1.
            if let Some(b) = w.bend(0).filter(|&b| !link.is_removed(b as usize)) {
                // Links of rest length 0 by the drum (a host's edit) leave the
                // ratio at 1 rather than 0/0.
                let span = w.full + link.rest_length(w.link(1) as usize);
                let bend = link.rest_length(b as usize);
                // At most the two links it spans (a forged snapshot's may be more; the
                // lengths the winch gives it must stay finite).
                if !(0.0..=2.0 * crate::limits::MAX_LENGTH).contains(&bend) {
                    return Err(Error::invalid(format!(
                        "the bend link by the {end:?} has the rest length {bend} m: a winch \
                         needs at most {} m",
                        2.0 * crate::limits::MAX_LENGTH
                    )));
                }
                if span > 0.0 {
                    w.bend_ratio = bend / span;
                }
            }
        }
        w.speed = length - w.length();
        w.target = Some(length);
        Ok(w)
    }

    /// Reels the new winch in to its length at once (one "substep" of 1 s at the speed
    /// that gets there): the parked particles go onto the drum, and the active part of
    /// the rope moves with the new cursor onto it, at rest (where that move would take
    /// some of it past ±`MAX_COORDINATE`, the active part stays where it is, at rest).
    /// The winch is still afterwards. Cannot fail.
    pub(crate) fn reel_in_at_once(&mut self, sets: &mut ConstraintSets, particles: &mut Particles) {
        let n = self.links();
        if self.speed < 0.0 && self.advance(sets, particles, 1.0) {
            sets.update_jacobi_weights(particles);
            // The point of the paying link r from its outer end goes onto the drum, so
            // the link starts at its rest length r.
            let drum = particles.position(self.particle(0) as usize);
            let inner = particles.position(self.particle(self.cursor) as usize);
            let outer = particles.position(self.particle(self.cursor + 1) as usize);
            let d = inner.distance(outer);
            let on_link = if d > 0.0 {
                outer + (inner - outer) * (self.paying / d).min(1.0)
            } else {
                inner
            };
            let shift = drum - on_link;
            // A free part that the move would take past the accepted coordinate range
            // (a rope the host stretched across it) stays where it is: its paying link
            // is long, which the next substeps pull in.
            let free = (self.cursor + 1..=n).map(|i| self.particle(i) as usize);
            let shift = if particles.shift_stays_in_range(free, shift) {
                shift
            } else {
                Vec3::ZERO
            };
            for i in 0..=n {
                let p = self.particle(i) as usize;
                let to = if i <= self.cursor {
                    drum
                } else {
                    particles.position(p) + shift
                };
                particles.set_position(p, to);
                particles.step_start[p] = to;
                particles.set_velocity(p, Vec3::ZERO);
            }
        }
        self.speed = 0.0;
        self.target = None;
    }

    /// The rope's built length (m): every link at its built length.
    pub(crate) fn built_length(&self, sets: &ConstraintSets) -> f32 {
        (0..self.links())
            .map(|i| {
                if i == self.cursor {
                    self.full
                } else {
                    sets.link.rest_length(self.link(i) as usize).max(0.0)
                }
            })
            .sum()
    }

    /// One substep of one winch; true when a particle was parked or unparked.
    pub(crate) fn advance(
        &mut self,
        sets: &mut ConstraintSets,
        particles: &mut Particles,
        h: f32,
    ) -> bool {
        let w = self;
        let drum = particles.position(w.particle(0) as usize);
        if drum != w.drum {
            let delta = drum - w.drum;
            for i in 1..=w.cursor {
                let p = w.particle(i) as usize;
                particles.set_position(p, particles.position(p) + delta);
            }
            w.drum = drum;
        }
        if w.speed == 0.0 {
            return false;
        }
        let mut r = w.paying + w.speed * h;
        if let Some(t) = w.target {
            let len = r + w.tail;
            if (w.speed < 0.0 && len <= t) || (w.speed > 0.0 && len >= t) {
                r = t - w.tail;
                w.speed = 0.0;
            }
        }
        let mut changed = false;
        // Reel in: park the particle past the cursor while the paying link is spent.
        while r < 0.0 {
            let next = w.cursor + 1;
            let cut = |i: u32| sets.link.is_removed(w.link(i) as usize);
            if next + 1 > w.links() || cut(w.cursor) || cut(next) {
                // Nothing left to park: the rope is fully reeled in, or cut at the
                // paying link or the one past it (the piece beyond fell off; parking its
                // particles would pin them where they fall).
                r = 0.0;
                w.speed = 0.0;
                break;
            }
            // The spent link goes back to its built length (for paying out later).
            edit_live(&mut sets.link, w.link(w.cursor), w.full);
            // Pinned where it is: within the paying link's stretch of the drum (moving it
            // onto the drum would yank the rest of the rope by that stretch).
            let p = w.particle(next) as usize;
            particles.set_velocity(p, Vec3::ZERO);
            particles.set_inverse_mass(p, 0.0);
            w.cursor = next;
            w.full = sets.link.rest_length(w.link(next) as usize);
            // The built lengths past the paying link: none past the last link, and never
            // below 0 by rounding (so the length a host reads is never negative).
            w.tail = if next + 1 == w.links() {
                0.0
            } else {
                (w.tail - w.full).max(0.0)
            };
            r += w.full;
            changed = true;
        }
        // Pay out: unpark the cursor while the paying link is longer than built.
        while r > w.full {
            if w.cursor == 0 || sets.link.is_removed(w.link(w.cursor - 1) as usize) {
                // The reserve is spent: the rope is fully paid out, or cut on the drum
                // next to the cursor (the links parked past a cut hold nothing).
                r = w.full;
                w.speed = 0.0;
                break;
            }
            edit_live(&mut sets.link, w.link(w.cursor), w.full);
            particles.set_inverse_mass(w.particle(w.cursor) as usize, w.inverse_mass);
            r -= w.full;
            w.tail += w.full;
            w.cursor -= 1;
            w.full = sets.link.rest_length(w.link(w.cursor) as usize);
            changed = true;
        }
        w.paying = r;
        edit_live(&mut sets.link, w.link(w.cursor), r);
        w.follow(sets);
        changed
    }

    /// Sets the rest lengths that depend on the paying link: the bend links across the
    /// cursor and the tethers from the cursor end (their max length is the active arc
    /// length from the drum).
    fn follow(&self, sets: &mut ConstraintSets) {
        let w = self;
        let k = w.cursor;
        let (r, ratio) = (w.paying, w.bend_ratio);
        if k >= 1 {
            if let Some(b) = w.bend(k - 1) {
                edit_live(&mut sets.link, b, r * ratio);
            }
        }
        // A link the host removed has no length (its rest length is the removed
        // marker, −1 m): the lengths that would sum it are left as they are (summing
        // the marker wrote negative rest lengths into live bend links and tethers).
        let length = |sets: &ConstraintSets, j: u32| {
            let l = w.link(j) as usize;
            (!sets.link.is_removed(l)).then(|| sets.link.rest_length(l))
        };
        if let Some(b) = w.bend(k) {
            let next = if k + 1 < w.links() {
                length(sets, k + 1)
            } else {
                Some(0.0)
            };
            if let Some(next) = next {
                edit_live(&mut sets.link, b, (r + next) * ratio);
            }
        }
        // Tethers from the drum end, in increasing local index (the builder emits them
        // by increasing particle index), with the arc length summed as we go (`None`
        // past a removed link).
        let anchor = w.particle(0);
        let ids = w.rope.tether.clone();
        let (mut j, mut s) = (k + 1, Some(r));
        let mut each = |t: u32, sets: &mut ConstraintSets| {
            let [a, p] = sets.tether.particles_of(t as usize);
            if a != anchor || sets.tether.is_removed(t as usize) || !w.rope.particles.contains(&p) {
                return;
            }
            let i = match w.end {
                RopeEnd::Start => p - w.rope.particles.start,
                RopeEnd::End => w.rope.particles.end - 1 - p,
            };
            let arc = if i <= k {
                Some(0.0)
            } else {
                while j < i {
                    s = s.zip(length(sets, j)).map(|(s, l)| s + l);
                    j += 1;
                }
                s
            };
            if let Some(arc) = arc {
                edit_live(&mut sets.tether, t, arc);
            }
        };
        match w.end {
            RopeEnd::Start => ids.for_each(|t| each(t, sets)),
            RopeEnd::End => ids.rev().for_each(|t| each(t, sets)),
        }
    }
}

impl Winch {
    /// Snapshot: every field, in declaration order.
    pub(crate) fn save(&self, w: &mut crate::snapshot::codec::Writer<'_>) {
        super::breaking::save_rope(w, &self.rope);
        w.put((self.end as u32, self.cursor));
        w.put((self.paying, self.full, self.tail, self.speed));
        w.put_option(self.target);
        w.put((self.inverse_mass, self.bend_ratio));
        w.put(self.drum);
    }

    /// Snapshot: what [`Self::save`] wrote, checked as [`Self::new`] and
    /// [`Self::advance`] keep it: a rope of at least one link (the world checks that it
    /// is a rope body's, `world::snapshot`), the cursor on one of its links, the
    /// paying link's rest length in [0, its built length], the built lengths in
    /// [0, MAX_LENGTH] per link, the speed within ±[`MAX_WINCH_SPEED`], a target in
    /// [0, twice the rope's longest length], the inverse mass of an unparked particle in
    /// [`MIN_INVERSE_MASS`, `MAX_INVERSE_MASS`], a bend ratio >= 0, the drum within the
    /// coordinate limit, everything finite.
    pub(crate) fn load(
        r: &mut crate::snapshot::codec::Reader<'_>,
        sets: &ConstraintSets,
        particles: usize,
    ) -> crate::error::Result<Winch> {
        use crate::limits::{MAX_INVERSE_MASS, MAX_LENGTH, MIN_INVERSE_MASS};
        use crate::snapshot::codec;
        let rope = super::breaking::load_rope(r, sets, particles)?;
        let (end, cursor) = r.get::<(u32, u32)>()?;
        let end = match end {
            0 => RopeEnd::Start,
            1 => RopeEnd::End,
            e => return Err(codec::corrupt(format!("winch end {e}"))),
        };
        let links = rope.stretch.len();
        codec::ensure((cursor as usize) < links, || {
            format!("a winch with cursor {cursor} on a rope of {links} links")
        })?;
        let (paying, full, tail, speed) = r.get::<(f32, f32, f32, f32)>()?;
        let target = r.get_option::<f32>()?;
        let (inverse_mass, bend_ratio) = r.get::<(f32, f32)>()?;
        let drum: Vec3 = r.get()?;
        codec::check_finite(
            [paying, full, tail, speed, inverse_mass, bend_ratio]
                .into_iter()
                .chain(target)
                .chain(drum.to_array()),
            "winch",
        )?;
        // Twice the longest a rope's built length can be: room for the rounding of
        // the sums of built lengths.
        let longest = 2.0 * MAX_LENGTH * links as f32;
        codec::ensure(
            (0.0..=MAX_LENGTH).contains(&full)
                && (0.0..=full).contains(&paying)
                && (0.0..=longest).contains(&tail)
                && speed.abs() <= MAX_WINCH_SPEED
                && target.is_none_or(|t| (0.0..=longest).contains(&t))
                && (MIN_INVERSE_MASS..=MAX_INVERSE_MASS).contains(&inverse_mass)
                && bend_ratio >= 0.0
                && crate::particles::in_range(drum, Vec3::ZERO),
            || {
                format!(
                    "a winch paying {paying} m of {full} m with {tail} m past it, at \
                     {speed} m/s to {target:?} m, inverse mass {inverse_mass}, bend \
                     ratio {bend_ratio}, drum at {drum}"
                )
            },
        )?;
        Ok(Winch {
            rope,
            end,
            cursor,
            paying,
            full,
            tail,
            speed,
            target,
            inverse_mass,
            bend_ratio,
            drum,
        })
    }
}
