//! Breakable constraints and rope cuts. A constraint with a break force F_max breaks in
//! the first substep whose force |λ|/h² (the force every readback reports, in the
//! family's units) exceeds F_max: it is removed (its id stays, it stops acting) and a
//! [`BreakEvent`] is queued for the host to poll. A breakable rope's link compares its
//! tension ([`RopeCut::tension`]: its own force plus that of the tethers spanning it,
//! what its readback reports) instead. A broken rope link cuts the rope
//! there (see [`RopeCut`]): the bend links and tethers that span the cut go too, so the
//! two pieces fall apart. A rope given a break force per body parts at one link, its
//! most overloaded, per connected piece and at most once per step, so a suddenly
//! loaded rope does not shatter ([`Breaking::break_overloaded`]).
//!
//! All of this is plain data owned by [`super::Topology`]: per-family threshold
//! arrays indexed by constraint id, the ropes that cut cleanly, and a bounded event
//! queue whose room is reserved when the first threshold is set, so the step never
//! allocates (events past the room are counted as lost).

use std::ops::Range;

use crate::constraints::{ConstraintEdit, ConstraintSets, FamilyKind};
use crate::error::{try_reserve, Result};
use crate::math::Vec3;
use crate::particles::Particles;

use crate::limits::MAX_BREAK_EVENTS;

/// One broken constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BreakEvent {
    /// The family and id of the constraint.
    pub family: FamilyKind,
    pub id: u32,
    /// The force that broke it (family units: N for lengths), in the substep it broke.
    pub force: f32,
    /// The mean position of its particles when it broke (m); where that is not a
    /// number (a body that met NaN in that substep, put back by the step's recovery),
    /// its first particle's position at the start of the step.
    pub position: Vec3,
    /// Its first particle (the world finds the body from it).
    pub particle: u32,
}

/// A rope's constraint ids, to cut it cleanly: link i joins particles `first + i` and
/// `first + i + 1`, bend link j joins `first + j` and `first + j + 2`, and tethers run
/// from a pinned end to a particle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RopeCut {
    /// The rope's particles.
    pub particles: Range<u32>,
    /// Body-link ids of its links, then of its bend links.
    pub stretch: Range<u32>,
    pub bend: Range<u32>,
    /// Tether ids.
    pub tether: Range<u32>,
}

/// Break thresholds, ropes and the event queue of one world.
#[derive(Default)]
pub struct Breaking {
    /// Per family (by `FamilyKind` value): the break force of each id, +inf for none.
    /// Shorter than the set: the ids past it never break.
    pub(crate) thresholds: Vec<Vec<f32>>,
    /// Ropes whose broken links cut them (each parts at its most overloaded link per
    /// connected piece, at most once per step: [`Self::break_overloaded`]).
    pub(crate) ropes: Vec<RopeCut>,
    /// Per rope of [`Self::ropes`]: whether it parted in the current step (cleared at
    /// the end of every step, so never saved: snapshots are taken between steps).
    pub(crate) parted: Vec<bool>,
    /// Events not yet taken by the host (capacity [`MAX_BREAK_EVENTS`]).
    pub(crate) events: Vec<BreakEvent>,
    /// Events dropped because the queue was full, since the host last took events.
    pub(crate) lost: u64,
}

impl Breaking {
    /// Reserves what a threshold for ids `ids` of `family` needs (all or nothing).
    pub(crate) fn reserve(&mut self, family: FamilyKind, ids: &Range<u32>) -> Result<()> {
        let need_families = FamilyKind::ALL.len().saturating_sub(self.thresholds.len());
        try_reserve(&mut self.thresholds, need_families, "break thresholds")?;
        // Empty inner vectors: no allocation.
        self.thresholds.resize_with(FamilyKind::ALL.len(), Vec::new);
        let have = self.thresholds.get(family as usize).map_or(0, |t| t.len());
        if let Some(t) = self.thresholds.get_mut(family as usize) {
            try_reserve(
                t,
                (ids.end as usize).saturating_sub(have),
                "break thresholds",
            )?;
        }
        if self.events.capacity() < MAX_BREAK_EVENTS {
            try_reserve(&mut self.events, MAX_BREAK_EVENTS, "break events")?;
        }
        Ok(())
    }

    /// Sets the break force of ids `ids` of `family` (after [`Self::reserve`]).
    pub(crate) fn set(&mut self, family: FamilyKind, ids: Range<u32>, force: f32) {
        let t = &mut self.thresholds[family as usize];
        if t.len() < ids.end as usize {
            t.resize(ids.end as usize, f32::INFINITY);
        }
        t[ids.start as usize..ids.end as usize].fill(force);
    }

    /// The break force of constraint `id` of `family` (+inf: never breaks).
    pub fn threshold(&self, family: FamilyKind, id: u32) -> f32 {
        self.thresholds
            .get(family as usize)
            .and_then(|t| t.get(id as usize))
            .copied()
            .unwrap_or(f32::INFINITY)
    }
}

impl Breaking {
    /// Removes the constraints of `sets` whose force exceeded their break force in the
    /// substep of length `h` just solved, queues an event for each, and cuts the ropes
    /// whose links broke. No allocation.
    ///
    /// A breakable rope (one given a break force per body, [`Self::ropes`]) parts at
    /// one link per connected piece: of the overloaded links of each run of links
    /// still joined, only the most overloaded (largest tension / break force, the
    /// tension of [`RopeCut::tension`]; the first
    /// of equals) breaks, as a real chain parts at one link, after which the load it
    /// carried is released; and a rope that parted does not break again in the same
    /// step: for a few substeps its pieces' links report the recoil of the stretch the
    /// break released (the solver pulling the stretched links back to length), not a
    /// load. Without this, a suddenly loaded rope whose every link passes its break
    /// force at once (an elastic rope overshoots a load hung from rest) would shatter.
    /// Other constraints break each on its own, in family and id order; the ropes'
    /// breaks follow them.
    pub(crate) fn break_overloaded(
        &mut self,
        sets: &mut ConstraintSets,
        particles: &Particles,
        h: f32,
    ) {
        if self.thresholds.is_empty() {
            return;
        }
        let Breaking {
            thresholds,
            ropes,
            parted,
            events,
            lost,
        } = self;
        let mut queue = |mut event: BreakEvent| {
            // Where it broke, mid-step: a body that met NaN in this substep (put back
            // by the step's recovery) reports its particle's place at the step's
            // start instead, so the host never reads NaN.
            if !event.position.is_finite() {
                event.position = (particles.step_start.get(event.particle as usize))
                    .copied()
                    .filter(|p| p.is_finite())
                    .unwrap_or(Vec3::ZERO);
            }
            if events.len() < events.capacity() {
                events.push(event);
            } else {
                *lost += 1;
            }
        };
        for (k, thresholds) in thresholds.iter().enumerate() {
            let kind = FamilyKind::ALL[k];
            for (id, &limit) in thresholds.iter().enumerate() {
                if limit == f32::INFINITY {
                    continue;
                }
                let set = sets.family(kind);
                if id >= set.count() || set.is_removed(id) {
                    continue;
                }
                let force = set.force(id, h);
                if force <= limit {
                    continue;
                }
                if kind == FamilyKind::BodyLink
                    && ropes.iter().any(|r| r.stretch.contains(&(id as u32)))
                {
                    // A breakable rope's link: one per piece, below.
                    continue;
                }
                let (particle, position) = set.locate(id, particles).unwrap_or((0, Vec3::ZERO));
                sets.family_mut(kind).remove(id as u32..id as u32 + 1);
                queue(BreakEvent {
                    family: kind,
                    id: id as u32,
                    force,
                    position,
                    particle,
                });
            }
        }
        let links = &thresholds[FamilyKind::BodyLink as usize];
        for (rope, parted) in ropes.iter().zip(parted.iter_mut()) {
            if *parted {
                continue;
            }
            // Every tether's force: a link's tension is at most its own force plus
            // this (the tethers spanning it are some of them, and a rounded sum of
            // non-negative terms grows with each term), so a link below its break
            // force by that margin skips the O(tethers) tension.
            let tethers: f32 = rope
                .tether
                .clone()
                .map(|t| ConstraintEdit::force(&sets.tether, t as usize, h))
                .sum();
            // The most overloaded link (ratio, id, force) of the current piece.
            let mut worst: Option<(f32, u32, f32)> = None;
            for id in rope.stretch.clone() {
                let live = (id as usize) < sets.link.len()
                    && !ConstraintEdit::is_removed(&sets.link, id as usize);
                let limit = links.get(id as usize).copied().unwrap_or(f32::INFINITY);
                let own = if live && limit != f32::INFINITY {
                    ConstraintEdit::force(&sets.link, id as usize, h)
                } else {
                    0.0
                };
                if live && limit != f32::INFINITY && own + tethers > limit {
                    // The rope's tension (its links' and tethers' share of the load).
                    let force = rope.tension(sets, id - rope.stretch.start, h);
                    if force > limit {
                        let ratio = force / limit;
                        if worst.is_none_or(|(r, _, _)| ratio > r) {
                            worst = Some((ratio, id, force));
                        }
                    }
                }
                // A piece ends at a removed link and at the rope's end.
                if !live || id + 1 == rope.stretch.end {
                    if let Some((_, id, force)) = worst.take() {
                        let (particle, position) =
                            ConstraintEdit::locate(&sets.link, id as usize, particles)
                                .unwrap_or((0, Vec3::ZERO));
                        rope.cut(sets, id - rope.stretch.start);
                        *parted = true;
                        queue(BreakEvent {
                            family: FamilyKind::BodyLink,
                            id,
                            force,
                            position,
                            particle,
                        });
                    }
                }
            }
        }
    }
}

impl Breaking {
    /// End of a step: every rope may part again.
    pub(crate) fn end_step(&mut self) {
        self.parted.fill(false);
    }
}

impl RopeCut {
    /// The tension (N) of this rope's link `link` (0 = the link at its start) in the
    /// last substep of length `h` (s): the link's own force |λ|/h² plus the force of
    /// every tether of the rope whose span covers the link (a tether from particle a to
    /// particle p spans the links between them). A max-length tether pulls only when
    /// its particle is as far from its anchor as the rope between them is long, that is
    /// when that stretch of rope is straight, so its force runs along each link it
    /// spans; with tethers on (the default) the tethers carry most of a hanging rope's
    /// weight and the links alone a fraction of it. The one measure of a rope's load:
    /// the force readback reports it ([`crate::World::read_body_forces`]) and a
    /// breakable rope breaks by it ([`Breaking::break_overloaded`]). A link that does
    /// not join the particles `link` and `link + 1` of the rope as the builder made it
    /// reports its own force only. Removed links and tethers count 0; the sum saturates
    /// at `f32::MAX` as every force does. No allocation; O(tethers).
    pub(crate) fn tension(&self, sets: &ConstraintSets, link: u32, h: f32) -> f32 {
        let id = self.stretch.start + link;
        let own = ConstraintEdit::force(&sets.link, id as usize, h);
        let first = self.particles.start;
        if self.tether.is_empty()
            || sets.link.particles_of(id as usize) != [first + link, first + link + 1]
        {
            return own;
        }
        let mut along = 0.0f32;
        for t in self.tether.clone() {
            if self.spans(sets, t, link) {
                along += ConstraintEdit::force(&sets.tether, t as usize, h);
            }
        }
        crate::limits::saturate_force(own + along)
    }

    /// Cuts this rope of `sets` at its link `link` (between its particles `link` and
    /// `link + 1`): removes that link, the bend links over it and the tethers across
    /// it. Already removed ones stay removed. No allocation.
    pub(crate) fn cut(&self, sets: &mut ConstraintSets, link: u32) {
        let s = self.stretch.start + link;
        if s < self.stretch.end {
            ConstraintEdit::remove(&mut sets.link, s..s + 1);
        }
        // Bend link j spans links j and j + 1.
        for j in [link.wrapping_sub(1), link] {
            if j < self.bend.len() as u32 {
                let b = self.bend.start + j;
                ConstraintEdit::remove(&mut sets.link, b..b + 1);
            }
        }
        for t in self.tether.clone() {
            if self.spans(sets, t, link) {
                ConstraintEdit::remove(&mut sets.tether, t..t + 1);
            }
        }
    }

    /// Whether tether `t` runs between two particles of this rope on either side of its
    /// link `link` (a tether naming a particle outside the rope spans nothing).
    fn spans(&self, sets: &ConstraintSets, t: u32, link: u32) -> bool {
        let [a, p] = sets.tether.particles_of(t as usize);
        let (lo, hi) = (a.min(p), a.max(p));
        let first = self.particles.start;
        lo >= first && hi < self.particles.end && lo - first <= link && link < hi - first
    }

    /// The live link of this rope nearest to the segment `a`–`b` (m; a sword swipe),
    /// None when every link was cut.
    pub(crate) fn nearest_live_link(
        &self,
        sets: &ConstraintSets,
        particles: &Particles,
        a: Vec3,
        b: Vec3,
    ) -> Option<u32> {
        let mut best: Option<(f32, u32)> = None;
        for (i, l) in self.stretch.clone().enumerate() {
            if ConstraintEdit::is_removed(&sets.link, l as usize) {
                continue;
            }
            let p = self.particles.start as usize + i;
            let (p, q) = (particles.position(p), particles.position(p + 1));
            let d = segment_distance(p, q, a, b);
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, i as u32));
            }
        }
        best.map(|(_, link)| link)
    }
}

/// Distance (m) between segments p–q and a–b (closest points, clamped; Ericson,
/// "Real-Time Collision Detection" (2004), 5.1.9).
fn segment_distance(p: Vec3, q: Vec3, a: Vec3, b: Vec3) -> f32 {
    let (d1, d2, r) = (q - p, b - a, p - a);
    let (aa, ee, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t);
    if aa <= f32::EPSILON && ee <= f32::EPSILON {
        return p.distance(a);
    }
    if aa <= f32::EPSILON {
        s = 0.0;
        t = (f / ee).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if ee <= f32::EPSILON {
            t = 0.0;
            s = (-c / aa).clamp(0.0, 1.0);
        } else {
            let bb = d1.dot(d2);
            let denom = aa * ee - bb * bb;
            let s0 = if denom > 0.0 {
                ((bb * f - c * ee) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t0 = (bb * s0 + f) / ee;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / aa).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((bb - c) / aa).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    (p + d1 * s).distance(a + d2 * t)
}

/// A rope's ranges in a snapshot.
pub(crate) fn save_rope(w: &mut crate::snapshot::codec::Writer<'_>, rope: &RopeCut) {
    for r in [&rope.particles, &rope.stretch, &rope.bend, &rope.tether] {
        w.put((r.start, r.end));
    }
}

/// A rope's ranges from a snapshot, checked against the loaded particles and sets (the
/// world checks that they are a rope body's, `world::snapshot`).
pub(crate) fn load_rope(
    r: &mut crate::snapshot::codec::Reader<'_>,
    sets: &ConstraintSets,
    particles: usize,
) -> Result<RopeCut> {
    let limits = [
        ("particles", particles),
        ("links", sets.link.len()),
        ("bend links", sets.link.len()),
        ("tethers", sets.tether.len()),
    ];
    let mut ranges: [Range<u32>; 4] = Default::default();
    for (k, (what, max)) in limits.into_iter().enumerate() {
        let (a, b) = r.get::<(u32, u32)>()?;
        crate::snapshot::codec::ensure(a <= b && b as usize <= max, || {
            format!("a rope's {what} {a}..{b} of {max}")
        })?;
        ranges[k] = a..b;
    }
    let [particles, stretch, bend, tether] = ranges;
    crate::snapshot::codec::ensure(
        crate::bodies::rope::has_rope_shape(&particles, &stretch),
        || format!("a rope of particles {particles:?} with links {stretch:?}"),
    )?;
    Ok(RopeCut {
        particles,
        stretch,
        bend,
        tether,
    })
}

impl Breaking {
    /// Snapshot: thresholds per family, the ropes, the queued events and the lost
    /// count; whether the event queue's room was reserved.
    pub(crate) fn save(&self, w: &mut crate::snapshot::codec::Writer<'_>) {
        w.put_len(self.thresholds.len());
        for t in &self.thresholds {
            w.put_slice(t);
        }
        w.put_len(self.ropes.len());
        for rope in &self.ropes {
            save_rope(w, rope);
        }
        w.put(self.events.capacity() > 0);
        w.put_len(self.events.len());
        for e in &self.events {
            w.put((e.family as u32, e.id, e.force, e.particle));
            w.put(e.position);
        }
        w.put(self.lost);
    }

    /// Snapshot: what [`Self::save`] wrote, checked as the API keeps it: a threshold
    /// per family (none for grabs and shape clusters, which take none) for at most the
    /// family's ids, each positive and not NaN (+inf: never breaks); the ropes (each
    /// one once; the world checks that each is a rope body's, `world::snapshot`); the
    /// event queue's room reserved only once a threshold was set, at most
    /// [`MAX_BREAK_EVENTS`] events, each naming a constraint of a family that breaks
    /// and a particle of the world, with a finite force above 0 (it passed a positive
    /// break force) and a finite position.
    pub(crate) fn load(
        r: &mut crate::snapshot::codec::Reader<'_>,
        sets: &ConstraintSets,
        particles: usize,
    ) -> Result<Breaking> {
        use crate::snapshot::codec::{self, corrupt};
        let n = r.get_count(8, "break threshold families")?;
        codec::ensure(n == 0 || n == FamilyKind::ALL.len(), || {
            format!("{n} break threshold families")
        })?;
        let mut thresholds = crate::error::try_with_capacity(n, "break thresholds")?;
        for kind in FamilyKind::ALL.into_iter().take(n) {
            let t: Vec<f32> = r.get_vec()?;
            let breaks = !matches!(kind, FamilyKind::Grab | FamilyKind::ShapeCluster);
            let count = if breaks { sets.family(kind).count() } else { 0 };
            codec::ensure(t.len() <= count, || {
                format!(
                    "{} break forces for {count} {} constraints",
                    t.len(),
                    kind.name()
                )
            })?;
            codec::ensure(t.iter().all(|f| !f.is_nan() && *f > 0.0), || {
                format!("a {} break force is not positive", kind.name())
            })?;
            thresholds.push(t);
        }
        let m = r.get_count(32, "breakable ropes")?;
        let mut ropes: Vec<RopeCut> = crate::error::try_with_capacity(m, "breakable ropes")?;
        for k in 0..m {
            let rope = load_rope(r, sets, particles)?;
            codec::ensure(!ropes.contains(&rope), || {
                format!("breakable rope {k} is listed twice")
            })?;
            ropes.push(rope);
        }
        let mut parted = crate::error::try_with_capacity(m, "breakable ropes")?;
        parted.resize(m, false);
        let reserved = r.get::<bool>()?;
        codec::ensure(!reserved || n != 0, || {
            "the break event queue is reserved without a break force".into()
        })?;
        let count = r.get_count(28, "break events")?;
        codec::ensure(
            count <= MAX_BREAK_EVENTS && (reserved || count == 0),
            || format!("{count} break events"),
        )?;
        let mut events = Vec::new();
        if reserved {
            try_reserve(&mut events, MAX_BREAK_EVENTS, "break events")?;
        }
        for k in 0..count {
            let (family, id, force, particle) = r.get::<(u32, u32, f32, u32)>()?;
            let family = FamilyKind::from_u32(family)
                .filter(|k| !matches!(k, FamilyKind::Grab | FamilyKind::ShapeCluster))
                .ok_or_else(|| corrupt(format!("break event family {family}")))?;
            let position: Vec3 = r.get()?;
            let ids = sets.family(family).count();
            codec::ensure(
                (id as usize) < ids
                    && (particle as usize) < particles
                    && force.is_finite()
                    && force > 0.0,
                || {
                    format!(
                        "break event {k} names {} constraint {id} of {ids} and particle \
                         {particle} of {particles} with force {force}",
                        family.name()
                    )
                },
            )?;
            codec::check_finite(position.to_array(), "break event position")?;
            events.push(BreakEvent {
                family,
                id,
                force,
                position,
                particle,
            });
        }
        Ok(Breaking {
            thresholds,
            ropes,
            parted,
            events,
            lost: r.get()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segment_distance_matches_closed_forms() {
        // Crossing segments at 1 m apart in z.
        let d = segment_distance(
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, -1.0, 1.0),
            Vec3::new(0.0, 1.0, 1.0),
        );
        assert!((d - 1.0).abs() < 1e-6, "{d}");
        // Parallel, offset 2 m, overlapping.
        let d = segment_distance(
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(0.5, 2.0, 0.0),
            Vec3::new(3.0, 2.0, 0.0),
        );
        assert!((d - 2.0).abs() < 1e-6, "{d}");
        // End to end: (1,0,0) to (2,1,0).
        let d = segment_distance(
            Vec3::ZERO,
            Vec3::X,
            Vec3::new(2.0, 1.0, 0.0),
            Vec3::new(3.0, 1.0, 0.0),
        );
        assert!((d - 2f32.sqrt()).abs() < 1e-6, "{d}");
    }
}
