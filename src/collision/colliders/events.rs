//! Contact events: per step, the pairs (collider, body) of the reported contacts
//! ([`super::ContactReport`]) are compared with the last step's, and each pair raises
//! one event: **begin** (touching now, not in the last step), **persist** (both) or
//! **end** (in the last step, not now). A particle in no body (a loose particle, a
//! fluid's) is a pair of its own with the collider. The events wait in a bounded
//! queue (room [`MAX_CONTACT_EVENTS`]) until the host takes them, as break events do;
//! events past the room are counted as lost.
//!
//! Tracking starts when the host turns events on ([`ContactEvents::set_enabled`],
//! which reserves the queue); a world with events off does none of this work. The
//! per-step pass allocates only when the particle or body count grew. The pairs and
//! the queue are not part of a snapshot: a loaded world starts with no pairs, so its
//! first step begins every pair that touches.

use std::ops::Range;

use super::{ColliderId, ContactReport};
use crate::error::{try_reserve, Result};
use crate::math::Vec3;

pub use crate::limits::MAX_CONTACT_EVENTS;

/// What happened to a (collider, body) pair in a step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ContactEventKind {
    /// The pair touches in this step and did not in the last one.
    #[default]
    Begin = 0,
    /// The pair touched in the last step and still does.
    Persist = 1,
    /// The pair touched in the last step and no longer does (or its collider was
    /// removed, or its contacts stopped being reported).
    End = 2,
}

/// One contact event as the colliders raise it (`crate::ContactEvent` is its public
/// form, with the body's id typed): a collider and a body (or a loose particle) that
/// began, kept or ended touching in the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct RawContactEvent {
    pub kind: ContactEventKind,
    pub collider: ColliderId,
    /// The id of the body the particles belong to; 0 for a particle in no body.
    pub body: u64,
    /// The pair's first particle (lowest index) among those touching the collider in
    /// the step (for an end event: in the last step it touched).
    pub particle: u32,
    /// That particle's contact point (world, m) and the collider's outward normal there.
    pub point: Vec3,
    pub normal: Vec3,
    /// The normal impulse (N·s, >= 0) and friction impulse (N·s, world) the collider
    /// gave all the pair's particles over the step; 0 for an end event.
    pub impulse: f32,
    pub friction: Vec3,
}

/// Makes room for `need` elements in `v` (allocates only when it has less).
fn room<T>(v: &mut Vec<T>, need: usize) -> Result<()> {
    let len = v.len();
    if v.capacity() < need {
        try_reserve(v, need.max(2 * len) - len, "contact events")?;
    }
    Ok(())
}

/// A pair's key: the collider id, then the body id, or `LOOSE | particle` for a
/// particle in no body (body ids never set the top bit: 20 bits of serial from bit 44).
const LOOSE: u64 = 1 << 63;

/// The event state of one world's colliders.
#[derive(Default)]
pub(crate) struct ContactEvents {
    enabled: bool,
    /// The last step's pairs, sorted by (collider, owner), one event each.
    pairs: Vec<RawContactEvent>,
    /// This step's pairs being built (scratch, the same capacity as `pairs`).
    next: Vec<(u64, u64, RawContactEvent)>,
    /// The last step's keys, parallel to `pairs`.
    keys: Vec<(u64, u64)>,
    /// The bodies' particle ranges sorted by start, with their ids (scratch).
    owners: Vec<(Range<u32>, u64)>,
    /// Events not yet taken (capacity [`MAX_CONTACT_EVENTS`]).
    queue: Vec<RawContactEvent>,
    /// Events dropped because the queue was full, since the host last took events.
    lost: u64,
}

impl ContactEvents {
    /// Turns the tracking on (reserving the queue) or off (forgetting the pairs and
    /// the waiting events).
    pub(crate) fn set_enabled(&mut self, on: bool) -> Result<()> {
        if on && self.queue.capacity() < MAX_CONTACT_EVENTS {
            try_reserve(&mut self.queue, MAX_CONTACT_EVENTS, "contact events")?;
        }
        if !on {
            self.pairs.clear();
            self.keys.clear();
            self.queue.clear();
            self.lost = 0;
        }
        self.enabled = on;
        Ok(())
    }

    pub(crate) fn enabled(&self) -> bool {
        self.enabled
    }

    /// Number of events waiting.
    pub(crate) fn len(&self) -> usize {
        self.queue.len()
    }

    /// Moves the oldest `max` events (at most) out, oldest first, and the lost count
    /// since the last take (then cleared).
    pub(crate) fn take(&mut self, max: usize) -> (std::vec::Drain<'_, RawContactEvent>, u64) {
        let n = max.min(self.queue.len());
        (self.queue.drain(..n), std::mem::take(&mut self.lost))
    }

    /// Raises the events of the step whose readback is `reports` (particle order),
    /// with `bodies` the live bodies' ids (never 0) and particle ranges, and `room_of_reports` the
    /// readback's capacity. Allocates only when that or the bodies outgrew the scratch.
    pub(crate) fn update(
        &mut self,
        reports: &[ContactReport],
        room_of_reports: usize,
        bodies: impl Iterator<Item = (u64, Range<u32>)>,
    ) -> Result<()> {
        if !self.enabled {
            return Ok(());
        }
        self.owners.clear();
        for (id, range) in bodies {
            let need = self.owners.len() + 1;
            room(&mut self.owners, need)?;
            self.owners.push((range, id));
        }
        self.owners.sort_unstable_by_key(|(r, _)| r.start);
        // Room for as many pairs as the readback has room for (reserved per particle
        // count), so that the scratch grows with the particles, not with the contacts.
        let need = reports.len().max(room_of_reports);
        room(&mut self.pairs, need)?;
        room(&mut self.keys, need)?;
        room(&mut self.next, need)?;
        // This step's contacts keyed by (collider, owner); reports and owners are both
        // in particle order, so one walk finds each particle's body.
        self.next.clear();
        let mut k = 0;
        for r in reports {
            while k < self.owners.len() && self.owners[k].0.end <= r.particle {
                k += 1;
            }
            let body = self
                .owners
                .get(k)
                .filter(|(range, _)| range.contains(&r.particle))
                .map_or(0, |&(_, id)| id);
            let owner = if body == 0 {
                LOOSE | r.particle as u64
            } else {
                body
            };
            let event = RawContactEvent {
                kind: ContactEventKind::Begin,
                collider: r.collider,
                body,
                particle: r.particle,
                point: r.point,
                normal: r.normal,
                impulse: r.impulse,
                friction: r.friction,
            };
            self.next.push((r.collider.0, owner, event));
        }
        // Sorted by pair, then particle: the first of a run is the pair's lowest
        // particle, and the sums run in particle order (the same bits on any thread
        // count).
        self.next
            .sort_unstable_by_key(|&(c, o, ref e)| (c, o, e.particle));
        let mut len = 0;
        for j in 0..self.next.len() {
            let (c, o, e) = self.next[j];
            if len > 0 && (self.next[len - 1].0, self.next[len - 1].1) == (c, o) {
                let head = &mut self.next[len - 1].2;
                head.impulse += e.impulse;
                head.friction += e.friction;
            } else {
                self.next[len] = (c, o, e);
                len += 1;
            }
        }
        self.next.truncate(len);
        // Merge with the last step's pairs (both sorted by key).
        let (mut a, mut b) = (0, 0);
        while a < self.keys.len() || b < self.next.len() {
            let old = self.keys.get(a).copied();
            let new = self.next.get(b).map(|&(c, o, _)| (c, o));
            let event = match (old, new) {
                (Some(ko), Some(kn)) if ko == kn => {
                    a += 1;
                    b += 1;
                    RawContactEvent {
                        kind: ContactEventKind::Persist,
                        ..self.next[b - 1].2
                    }
                }
                (Some(ko), Some(kn)) if kn < ko => {
                    b += 1;
                    self.next[b - 1].2
                }
                (None, Some(_)) => {
                    b += 1;
                    self.next[b - 1].2
                }
                _ => {
                    a += 1;
                    RawContactEvent {
                        kind: ContactEventKind::End,
                        impulse: 0.0,
                        friction: Vec3::ZERO,
                        ..self.pairs[a - 1]
                    }
                }
            };
            if self.queue.len() < MAX_CONTACT_EVENTS {
                self.queue.push(event);
            } else {
                self.lost += 1;
            }
        }
        // This step's pairs become the last step's (capacities reserved above).
        self.keys.clear();
        self.pairs.clear();
        for &(c, o, e) in &self.next {
            self.keys.push((c, o));
            self.pairs.push(e);
        }
        Ok(())
    }
}
