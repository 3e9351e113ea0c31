//! Sleeping: islands of particles that have come to rest stop costing anything in the
//! step until something wakes them.
//!
//! **Islands.** Particles tied together by live constraints (every family's: a
//! body's links, bending, volumes, clusters, the host's distance constraints,
//! tethers...; a body's particles are one island whatever its constraints) and, in
//! each step, by particle–particle contacts (the contact search's listed pairs closer
//! than their radii plus the distance their speeds cover in a step: a granular pile
//! of loose particles is one island). The constraint part is a union-find built once
//! and rebuilt when a set gains constraints or the world particles (removed
//! constraints keep their particles joined until then: an island may be larger than
//! it needs to be, never smaller). Pinned particles join islands like the others.
//! Fluid particles are in no island and never sleep: a fluid is rarely at rest and
//! its particles are recycled (a fluid particle near a sleeping one wakes it). A grain
//! emitter's grains not yet emitted never sleep either (their emission, inside the
//! step, would not wake them); emitted grains sleep like any particle.
//!
//! **The rule** (Box2D's, per particle rather than per body): each awake particle
//! counts how long (s) its kinetic energy per mass ½|v|² (J/kg) has stayed under
//! [`WorldDesc::sleep_threshold`](super::WorldDesc); an island whose every particle
//! has counted at least [`WorldDesc::sleep_time`](super::WorldDesc) falls asleep at
//! the end of the step, whole. A sleeping particle keeps its position, has velocity
//! 0 and is not simulated (src/world/activity.rs freezes it; an awake particle that
//! touches it sees an immovable one until it wakes).
//!
//! **Waking** takes the whole island and restarts its particles' counts from 0: a
//! particle of an awake island within contact distance of it (the step's listed
//! pairs), a fluid particle inside its bounds, a collider added, removed, moved or
//! re-materialed over its bounds (a moved plane wakes every island), an attachment
//! host that moved, a moving winch on it, wind on its aerodynamic surface, a grab,
//! every edit that touches its particles or constraints (positions, velocities,
//! masses, radii, filters, materials, rest values, compliances, removals, cuts,
//! tearing thresholds, winches, skinning, body settings), constraints added to
//! it, and the explicit calls ([`World::wake_body`], [`World::wake_all`]). Turning
//! sleeping off wakes everything.
//!
//! **Cost.** Off (the default), nothing runs and the physics is the same bits. On,
//! the end of each step counts the awake particles' rest, joins the islands (one
//! pass over the particles and the listed contact pairs) and puts the islands at
//! rest to sleep; while every particle sleeps it only looks for fluids, wind and
//! winches that could wake something.
//!
//! **Determinism.** Everything here runs on the calling thread in a fixed order: the
//! same islands, timers and wakes for any thread count.

use std::ops::Range;

use super::World;
use crate::bodies::BodyId;
use crate::constraints::{ConstraintSets, SET_COUNT};
use crate::error::{Error, Result};
use crate::math::Vec3;
use crate::snapshot::codec::{self, Reader, Writer};
use crate::solver::schedule::find;

/// No island: the particle is awake.
const AWAKE: u32 = u32::MAX;

/// What the constraint islands were built for: each set's constraint count, the
/// particle count and the body count.
type Key = [usize; SET_COUNT + 2];

/// A sleeping island: its particles (ascending) and their bounds (m; the box of their
/// positions grown by their largest radius).
#[derive(Clone, Debug, PartialEq)]
struct Island {
    particles: Vec<u32>,
    lo: Vec3,
    hi: Vec3,
}

impl Island {
    /// Whether the island's bounds come within `margin` (m) of the box `lo..hi`.
    fn overlaps(&self, lo: Vec3, hi: Vec3, margin: f32) -> bool {
        (self.lo - margin).cmple(hi).all() && (self.hi + margin).cmpge(lo).all()
    }
}

/// The sleep state of one world (owned by it; saved in snapshots).
#[derive(Default)]
pub(crate) struct Sleep {
    /// Per particle: how long (s) its ½|v|² has stayed under the threshold.
    rest: Vec<f32>,
    /// Per particle: its sleeping island, or [`AWAKE`].
    island_of: Vec<u32>,
    /// Sleeping islands by slot (None: a free slot, reused lowest first).
    islands: Vec<Option<Island>>,
    /// Particles asleep.
    asleep: usize,
    /// The constraint islands: union-find parents (rebuilt when `built` differs).
    links: Vec<u32>,
    built: Option<Key>,
    /// Per-step scratch: this step's parents, per root the least rest count of its
    /// awake particles (+inf: none), whether it holds a sleeping particle, and the
    /// island each root forms.
    parent: Vec<u32>,
    root: Vec<u32>,
    least: Vec<f32>,
    holds_asleep: Vec<bool>,
    forming: Vec<u32>,
    /// Islands to wake (scratch).
    waking: Vec<u32>,
    /// Particles kept awake this step whatever their speed (scratch).
    busy: Vec<Range<u32>>,
    /// Every fluid's reserved particles and every grain emitter's grains not yet
    /// emitted, this step (scratch, [`World::sleepless_ranges`]).
    sleepless: Vec<Range<usize>>,
}

/// Joins the sets of `a` and `b` (the smaller root becomes the root: the same
/// islands whatever the order of the joins).
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[hi as usize] = lo;
    }
}

/// The constraint count of every set, the particle and the body count.
fn key_of(sets: &ConstraintSets, particles: usize, bodies: usize) -> Key {
    let mut key = [0; SET_COUNT + 2];
    for (k, s) in sets.all().iter().enumerate() {
        key[k] = s.count();
    }
    key[SET_COUNT] = particles;
    key[SET_COUNT + 1] = bodies;
    key
}

/// Calls `f(set, id, particles)` for every live constraint of every set (registry
/// index `set`) whose id is at least `from[set]`. Attachments tie a particle to a
/// host, not to other particles, and a torn cloth's particles are its body's: neither
/// is visited.
fn each_constraint(sets: &ConstraintSets, from: &Key, mut f: impl FnMut(usize, usize, &[u32])) {
    let edit = sets.all_edit();
    let counts = sets.all().map(|s| s.count());
    let ids = |k: usize| {
        let e = edit[k];
        (from[k].min(counts[k])..counts[k]).filter(move |&id| !e.is_removed(id))
    };
    let mut k = 0;
    for id in ids(k) {
        f(k, id, &sets.distance.particles_of(id));
    }
    k += 1;
    for id in ids(k) {
        f(k, id, &sets.link.particles_of(id));
    }
    macro_rules! nary {
        ($($set:ident),+) => {$(
            k += 1;
            for id in ids(k) {
                f(k, id, &sets.$set.particles_of(id));
            }
        )+};
    }
    nary!(dihedral, isometric, tet_volume, triangle_strain, tet_strain);
    k += 1;
    for id in ids(k) {
        f(k, id, sets.pressure.particle_list(id));
    }
    k += 1;
    for id in ids(k) {
        f(k, id, sets.rings.particle_list(id));
    }
    k += 1;
    for id in ids(k) {
        f(k, id, sets.shapes.cluster_particles(id));
    }
    nary!(unilateral_area, unilateral_volume, tether);
    // Then the attachments and the torn cloths.
    debug_assert_eq!(k + 3, SET_COUNT);
}

impl Sleep {
    /// Whether particle `i` sleeps.
    #[inline]
    pub(crate) fn is_asleep(&self, i: usize) -> bool {
        self.island_of.get(i).is_some_and(|&k| k != AWAKE)
    }

    /// Whether all `n` particles (n > 0) sleep: frozen, nothing moves them in a step.
    pub(crate) fn all_asleep(&self, n: usize) -> bool {
        n > 0 && self.asleep == n
    }

    /// Grows the per-particle arrays to `n` particles (new ones awake, count 0).
    fn grow(&mut self, n: usize) -> Result<()> {
        if self.rest.len() < n {
            let more = n - self.rest.len();
            crate::error::try_reserve(&mut self.rest, more, "sleep counts")?;
            crate::error::try_reserve(&mut self.island_of, more, "sleep islands")?;
            self.rest.resize(n, 0.0);
            self.island_of.resize(n, AWAKE);
        }
        Ok(())
    }

    /// Takes island `k` out: its particles are awake with count 0. Returns them (the
    /// caller unfreezes them).
    fn take_island(&mut self, k: u32) -> Option<Island> {
        let island = self.islands.get_mut(k as usize)?.take()?;
        for &i in &island.particles {
            self.island_of[i as usize] = AWAKE;
            self.rest[i as usize] = 0.0;
        }
        self.asleep -= island.particles.len();
        Some(island)
    }

    /// Stores a new sleeping island in the lowest free slot.
    fn put_island(&mut self, island: Island) -> u32 {
        let k = match self.islands.iter().position(Option::is_none) {
            Some(k) => k,
            None => {
                self.islands.push(None);
                self.islands.len() - 1
            }
        };
        for &i in &island.particles {
            self.island_of[i as usize] = k as u32;
        }
        self.asleep += island.particles.len();
        self.islands[k] = Some(island);
        k as u32
    }

    /// Rebuilds the constraint islands when a set gained constraints or the world
    /// particles or bodies since the last build; returns the key they were built for
    /// before (None: nothing changed; the key itself on the first build).
    fn rebuild_links(&mut self, w: &WorldParts<'_>) -> Option<Key> {
        let n = w.n;
        let key = key_of(w.sets, n, w.bodies.len());
        if self.built == Some(key) {
            return None;
        }
        // The first build (a new world, or one loaded from a snapshot) wakes nothing.
        let before = self.built.unwrap_or(key);
        self.links.clear();
        self.links.extend(0..n as u32);
        let links = &mut self.links;
        for (_, range) in w.bodies.ranges() {
            for i in range.start + 1..range.end {
                union(links, range.start, i);
            }
        }
        each_constraint(w.sets, &[0; SET_COUNT + 2], |_, _, ps| {
            for &p in &ps[1..] {
                union(links, ps[0], p);
            }
        });
        // A torn cloth's spare particles join its body when a tear puts them in use.
        for c in &w.sets.torn.cloths {
            for i in c.reserve.clone() {
                union(links, c.body.start, i);
            }
        }
        self.built = Some(key);
        Some(before)
    }
}

/// What the sleep update reads of the world.
struct WorldParts<'a> {
    n: usize,
    sets: &'a ConstraintSets,
    bodies: &'a crate::bodies::Bodies,
}

impl World {
    /// Sets the sleep flag of `particles` (ascending) in the activity table
    /// (src/world/activity.rs freezes them: not integrated, velocity 0, their
    /// constraints skipped, kinematic to what touches them), a run of consecutive
    /// indices at a time. Fails only when out of memory putting them to sleep (then
    /// nothing changed; waking never allocates).
    fn freeze(&mut self, particles: &[u32], asleep: bool) -> Result<()> {
        let mut k = 0;
        while k < particles.len() {
            let start = particles[k];
            let mut end = start + 1;
            k += 1;
            while k < particles.len() && particles[k] == end {
                end += 1;
                k += 1;
            }
            if let Err(e) = self.set_particles_asleep(start..end, asleep) {
                // Undo the runs already put to sleep.
                if asleep {
                    let done: Vec<u32> = particles
                        .iter()
                        .copied()
                        .take_while(|&i| i < start)
                        .collect();
                    let _ = self.freeze(&done, false);
                }
                return Err(e);
            }
        }
        Ok(())
    }

    /// Makes the sleep flags of a world made or restored from a snapshot those of its
    /// sleeping islands (the islands decide: a flag without an island would never
    /// wake).
    pub(crate) fn refreeze(&mut self) -> Result<()> {
        let n = self.particles.len() as u32;
        // Clearing flags allocates nothing.
        let _ = self.set_particles_asleep(0..n, false);
        let lists: Vec<Vec<u32>> = self.sleep.asleep_particles().map(<[u32]>::to_vec).collect();
        for l in lists {
            self.freeze(&l, true)?;
        }
        Ok(())
    }

    /// Wakes sleeping island `k`.
    fn wake_island(&mut self, k: u32) {
        if let Some(island) = self.sleep.take_island(k) {
            // Clearing flags allocates nothing: it cannot fail.
            let _ = self.freeze(&island.particles, false);
        }
    }

    /// Wakes the islands of `particles` (indices checked by the caller or skipped).
    pub(crate) fn wake_particles(&mut self, particles: impl IntoIterator<Item = u32>) {
        if self.sleep.asleep == 0 {
            return;
        }
        for i in particles {
            match self.sleep.island_of.get(i as usize) {
                Some(&k) if k != AWAKE => self.wake_island(k),
                _ => {}
            }
        }
    }

    /// Wakes the islands of particles `range`.
    pub(crate) fn wake_range(&mut self, range: Range<usize>) {
        if self.sleep.asleep == 0 {
            return;
        }
        let end = range.end.min(self.sleep.island_of.len());
        let mut i = range.start;
        while i < end {
            let k = self.sleep.island_of[i];
            if k != AWAKE {
                self.wake_island(k);
            }
            i += 1;
        }
    }

    /// Wakes the islands of body `id` if it is live (a failed lookup wakes nothing).
    pub(crate) fn wake_body_of(&mut self, id: BodyId) {
        if let Ok(b) = self.bodies.get(id) {
            let r = b.particles.start as usize..b.particles.end as usize;
            self.wake_range(r);
        }
    }

    /// Wakes the islands of the live constraints `ids` of family `family`.
    pub(crate) fn wake_constraints(&mut self, family: crate::FamilyKind, ids: Range<u32>) {
        if self.sleep.asleep == 0 {
            return;
        }
        let k = match family {
            crate::FamilyKind::Distance => 0,
            crate::FamilyKind::BodyLink => 1,
            _ => match self
                .sets
                .all_edit()
                .iter()
                .position(|s| s.kind() == Some(family))
            {
                Some(k) => k,
                None => return,
            },
        };
        let mut from = [usize::MAX; SET_COUNT + 2];
        from[k] = ids.start as usize;
        let mut touched = Vec::new();
        let end = ids.end as usize;
        each_constraint(&self.sets, &from, |_, id, ps| {
            if id < end {
                touched.extend_from_slice(ps);
            }
        });
        self.wake_particles(touched);
    }

    /// Wakes the particles of attachments `ids` (checked by the caller).
    pub(crate) fn wake_attachments(&mut self, ids: Range<u32>) {
        if self.sleep.asleep == 0 {
            return;
        }
        let a = &self.sets.attachments;
        let touched: Vec<u32> = ids.map(|id| a.attached(id as usize).0).collect();
        self.wake_particles(touched);
    }

    /// Wakes the particles attached to `host` when its transform changes to `to`
    /// (called before the change; a host set where it is wakes nothing).
    pub(crate) fn wake_host(&mut self, host: u32, to: crate::Transform) {
        let a = &self.sets.attachments;
        if self.sleep.asleep == 0 || a.host_transform(host as usize) == to {
            return;
        }
        let touched: Vec<u32> = (0..a.len())
            .map(|id| a.attached(id))
            .filter(|&(_, h)| h == host)
            .map(|(p, _)| p)
            .collect();
        self.wake_particles(touched);
    }

    /// Wakes the islands a collider may touch: those whose bounds its ball (position
    /// and bound radius) meets, every island for a plane.
    pub(crate) fn wake_near_collider(&mut self, id: crate::ColliderId) {
        if self.sleep.asleep == 0 {
            return;
        }
        let Ok((centre, bound)) = self.collision.colliders.ball(id) else {
            return;
        };
        if bound.is_finite() {
            self.wake_box(centre, centre, bound);
        } else {
            self.wake_all();
        }
    }

    /// Wakes the islands whose bounds come within `margin` (m) of the box `lo..hi`.
    pub(crate) fn wake_box(&mut self, lo: Vec3, hi: Vec3, margin: f32) {
        if self.sleep.asleep == 0 {
            return;
        }
        for k in 0..self.sleep.islands.len() {
            let hit = self.sleep.islands[k]
                .as_ref()
                .is_some_and(|s| s.overlaps(lo, hi, margin));
            if hit {
                self.wake_island(k as u32);
            }
        }
    }

    /// Wakes every sleeping island.
    pub fn wake_all(&mut self) {
        for k in 0..self.sleep.islands.len() {
            self.wake_island(k as u32);
        }
    }

    /// Wakes body `id` and everything in its island.
    pub fn wake_body(&mut self, id: BodyId) -> Result<()> {
        self.bodies.get(id)?;
        self.wake_body_of(id);
        Ok(())
    }

    /// Whether body `id` sleeps (its island does).
    pub fn body_is_asleep(&self, id: BodyId) -> Result<bool> {
        let b = self.bodies.get(id)?;
        Ok(self.sleep.is_asleep(b.particles.start as usize))
    }

    /// Whether particle `index` sleeps.
    pub fn particle_is_asleep(&self, index: u32) -> Result<bool> {
        self.particle_range(index, 1)?;
        Ok(self.sleep.is_asleep(index as usize))
    }

    /// Particles asleep.
    pub fn asleep_particle_count(&self) -> u32 {
        self.sleep.asleep as u32
    }

    /// Bodies whose island is awake.
    pub(crate) fn awake_body_count(&self) -> u64 {
        self.bodies
            .ranges()
            .filter(|(_, r)| !self.sleep.is_asleep(r.start as usize))
            .count() as u64
    }

    /// Turns sleeping on or off (the desc's `sleeping`; takes effect at the end of
    /// the next step). Off wakes everything.
    pub fn set_sleeping(&mut self, on: bool) {
        self.desc.sleeping = on;
        if !on {
            self.wake_all();
        }
    }

    /// Sets the sleep threshold (J/kg: kinetic energy per mass) and time (s),
    /// validated like the desc's fields. The particles' rest counts are kept.
    pub fn set_sleep_threshold(&mut self, threshold: f32, time: f32) -> Result<()> {
        super::WorldDesc {
            sleep_threshold: threshold,
            sleep_time: time,
            ..self.desc
        }
        .validate()?;
        self.desc.sleep_threshold = threshold;
        self.desc.sleep_time = time;
        Ok(())
    }

    /// Puts body `id` and its island (everything its constraints tie it to) to sleep
    /// now, at rest where it is. Fails with INVALID_ARGUMENT while sleeping is off
    /// (nothing would wake it).
    pub fn sleep_body(&mut self, id: BodyId) -> Result<()> {
        let start = self.bodies.get(id)?.particles.start;
        self.sleep_now(Some(start))
    }

    /// Puts every island (every particle but the fluids' and the grains not yet
    /// emitted) to sleep now, at rest where it is: a level loaded at rest. Fails with
    /// INVALID_ARGUMENT while sleeping is off.
    pub fn sleep_all(&mut self) -> Result<()> {
        self.sleep_now(None)
    }

    /// Puts the constraint island of particle `of` (None: every island) to sleep.
    fn sleep_now(&mut self, of: Option<u32>) -> Result<()> {
        if !self.desc.sleeping {
            return Err(Error::invalid(
                "sleeping is off: turn it on (WorldDesc::sleeping) before putting bodies to sleep",
            ));
        }
        let n = self.particles.len();
        self.sleep.grow(n)?;
        let parts = WorldParts {
            n,
            sets: &self.sets,
            bodies: &self.bodies,
        };
        if let Some(before) = self.sleep.rebuild_links(&parts) {
            self.wake_added(&before);
        }
        let mut sleepless = Vec::new();
        self.sleepless_ranges(&mut sleepless);
        let s = &mut self.sleep;
        let only = of.map(|i| find(&mut s.links, i));
        // Group the particles by constraint island, in particle order.
        s.forming.clear();
        s.forming.resize(n, AWAKE);
        let mut groups: Vec<Vec<u32>> = Vec::new();
        for i in 0..n as u32 {
            let r = find(&mut s.links, i);
            if only.is_some_and(|o| o != r) || sleepless.iter().any(|f| f.contains(&(i as usize))) {
                continue;
            }
            if s.forming[r as usize] == AWAKE {
                s.forming[r as usize] = groups.len() as u32;
                groups.push(Vec::new());
            }
            groups[s.forming[r as usize] as usize].push(i);
        }
        for g in groups {
            // Anything asleep in it (an island joined since it fell asleep) joins it.
            if g.iter().all(|&i| self.sleep.is_asleep(i as usize)) {
                continue;
            }
            for &i in &g {
                let k = self.sleep.island_of[i as usize];
                if k != AWAKE {
                    self.wake_island(k);
                }
            }
            self.put_to_sleep(g)?;
        }
        Ok(())
    }

    /// Puts `members` (ascending, awake) to sleep as one island. Fails only when out
    /// of memory (then nothing changed).
    fn put_to_sleep(&mut self, members: Vec<u32>) -> Result<()> {
        let p = &self.particles;
        let (mut lo, mut hi, mut r) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN), 0.0f32);
        for &i in &members {
            let x = p.position(i as usize);
            lo = lo.min(x);
            hi = hi.max(x);
            r = r.max(p.radius[i as usize]);
        }
        let island = Island {
            particles: members,
            lo: lo - r,
            hi: hi + r,
        };
        self.freeze(&island.particles, true)?;
        self.sleep.put_island(island);
        Ok(())
    }

    /// Wakes the particles of the constraints added since the constraint islands were
    /// built for `before`.
    fn wake_added(&mut self, before: &Key) {
        if self.sleep.asleep == 0 {
            return;
        }
        let mut touched = Vec::new();
        let mut from = *before;
        // A new body's particles are new particles: nothing of them sleeps.
        from[SET_COUNT] = usize::MAX;
        each_constraint(&self.sets, &from, |_, _, ps| touched.extend_from_slice(ps));
        self.wake_particles(touched);
    }

    /// Whether the wind blows on an aerodynamic surface over `particles`.
    fn wind_on(&self, particles: Range<u32>) -> bool {
        let a = &self.aero;
        if a.wind.velocity != Vec3::ZERO || a.wind.turbulence > 0.0 {
            return true;
        }
        if a.zones.iter().all(Option::is_none) {
            return false;
        }
        particles.clone().any(|i| {
            let x = self.particles.position(i as usize).as_dvec3();
            a.wind_at(x, a.time) != glam::DVec3::ZERO
        })
    }

    /// End of a step of `dt` seconds: counts, islands, sleep (nothing while sleeping is
    /// off). See the module doc.
    pub(crate) fn update_sleep(&mut self, dt: f32) -> Result<()> {
        if !self.desc.sleeping {
            return Ok(());
        }
        let n = self.particles.len();
        self.sleep.grow(n)?;
        let parts = WorldParts {
            n,
            sets: &self.sets,
            bodies: &self.bodies,
        };
        if let Some(before) = self.sleep.rebuild_links(&parts) {
            self.wake_added(&before);
        }
        // What keeps particles awake whatever their speed: wind on aerodynamic
        // surfaces, moving winches, grabs.
        let mut busy = std::mem::take(&mut self.sleep.busy);
        busy.clear();
        for s in &self.aero.surfaces {
            if (s.drag > 0.0 || s.lift > 0.0) && self.wind_on(s.particles.clone()) {
                busy.push(s.particles.clone());
            }
        }
        for wch in &self.topology.winches {
            if wch.speed != 0.0 {
                busy.push(wch.rope.particles.clone());
            }
        }
        for p in self.collision.grabs.particles() {
            busy.push(p..p + 1);
        }
        for r in &busy {
            self.wake_range(r.start as usize..r.end as usize);
        }
        self.sleep.busy = busy;
        self.wake_by_fluids();
        if self.sleep.asleep + self.sleepless_count() >= n {
            return Ok(());
        }
        let threshold = self.desc.sleep_threshold;
        let time = self.desc.sleep_time;
        // Rest counts of the awake particles.
        {
            let s = &mut self.sleep;
            let v = &self.particles.velocity;
            for ((rest, &k), v) in s.rest.iter_mut().zip(&s.island_of).zip(&v[..n]) {
                if k == AWAKE {
                    let e = 0.5 * v.length_squared();
                    *rest = if e < threshold { *rest + dt } else { 0.0 };
                }
            }
            for r in &s.busy {
                s.rest[r.start as usize..r.end as usize].fill(0.0);
            }
        }
        let mut sleepless = std::mem::take(&mut self.sleep.sleepless);
        self.sleepless_ranges(&mut sleepless);
        for r in &sleepless {
            self.sleep.rest[r.clone()].fill(0.0);
        }
        self.sleep.sleepless = sleepless;
        self.join_contacts(dt);
        // Per root: the least count of its awake particles, whether it holds a
        // sleeping one.
        let s = &mut self.sleep;
        s.least.clear();
        s.least.resize(n, f32::INFINITY);
        s.holds_asleep.clear();
        s.holds_asleep.resize(n, false);
        s.root.clear();
        for i in 0..n as u32 {
            let r = find(&mut s.parent, i) as usize;
            s.root.push(r as u32);
            if s.island_of[i as usize] != AWAKE {
                s.holds_asleep[r] = true;
            } else {
                s.least[r] = s.least[r].min(s.rest[i as usize]);
            }
        }
        // Fluid particles and grains not yet emitted never sleep, and keep their island
        // (none) awake.
        for r in &s.sleepless {
            for i in r.clone() {
                s.least[i] = 0.0;
            }
        }
        // A sleeping island joined to an awake particle wakes.
        s.waking.clear();
        for i in 0..n {
            let k = s.island_of[i];
            if k != AWAKE {
                let r = s.root[i] as usize;
                if s.least[r] < f32::INFINITY && !s.waking.contains(&k) {
                    s.waking.push(k);
                }
            }
        }
        let waking = std::mem::take(&mut self.sleep.waking);
        for &k in &waking {
            self.wake_island(k);
        }
        self.sleep.waking = waking;
        // Islands at rest long enough fall asleep (a root that woke something keeps
        // its counts at 0 there, so it does not).
        let s = &mut self.sleep;
        s.forming.clear();
        s.forming.resize(n, AWAKE);
        let mut groups: Vec<Vec<u32>> = Vec::new();
        for i in 0..n {
            let r = s.root[i] as usize;
            if s.island_of[i] == AWAKE && !s.holds_asleep[r] && s.least[r] >= time {
                if s.forming[r] == AWAKE {
                    s.forming[r] = groups.len() as u32;
                    groups.push(Vec::new());
                }
                groups[s.forming[r] as usize].push(i as u32);
            }
        }
        for g in groups {
            self.put_to_sleep(g)?;
        }
        Ok(())
    }

    /// Every fluid's reserved particles (live or not) and every grain emitter's
    /// grains not yet emitted, into `out` (cleared first; no allocation once it has
    /// room). None of them may sleep: an emitter brings a reserved particle to life
    /// inside the step, with its nozzle's velocity, and a flag left from a sleep would
    /// hold it frozen in the air (and a snapshot of such a world would load at rest).
    fn sleepless_ranges(&self, out: &mut Vec<Range<usize>>) {
        out.clear();
        out.extend(
            self.fluids
                .live()
                .map(|f| f.first as usize..f.first as usize + f.age.len()),
        );
        out.extend(self.fluids.grains.iter().filter_map(|g| {
            let parked = (g.first + g.emitted) as usize..(g.first + g.desc.budget) as usize;
            (!parked.is_empty()).then_some(parked)
        }));
    }

    /// Particles reserved by fluids and grain emitters, not yet emitted (the particles
    /// [`Self::sleepless_ranges`] lists).
    fn sleepless_count(&self) -> usize {
        let grains: usize = (self.fluids.grains.iter())
            .map(|g| (g.desc.budget - g.emitted) as usize)
            .sum();
        self.fluids.live().map(|f| f.age.len()).sum::<usize>() + grains
    }

    /// This step's islands: the constraint islands joined by the contact search's
    /// listed pairs (one side awake) closer than their radii plus the distance their
    /// speeds cover in `dt` (s). Fluid particles and grains not yet emitted
    /// (`Sleep::sleepless`, this step's) join nothing.
    fn join_contacts(&mut self, dt: f32) {
        let s = &mut self.sleep;
        let sleepless = &s.sleepless;
        s.parent.clear();
        s.parent.extend_from_slice(&s.links);
        let search = &self.collision.particles.search;
        if !search.active {
            return;
        }
        let order = search.slot_order().order();
        let v = &self.particles.velocity;
        let is_sleepless = |i: usize| sleepless.iter().any(|r| r.contains(&i));
        let any_sleepless = !sleepless.is_empty();
        for k in 0..search.len() {
            let a = order[k] as usize;
            let (ra, va) = (search.radius[k], v[a].length());
            search.for_each(k, f32::INFINITY, |j, _, d2| {
                let b = order[j] as usize;
                if s.island_of[a] != AWAKE && s.island_of[b] != AWAKE {
                    return;
                }
                let reach = ra + search.radius[j] + (va + v[b].length()) * dt;
                if d2 < reach * reach && !(any_sleepless && (is_sleepless(a) || is_sleepless(b))) {
                    union(&mut s.parent, a as u32, b as u32);
                }
            });
        }
    }

    /// Wakes the sleeping islands with a live fluid particle inside their bounds
    /// (grown by the fluid's smoothing radius).
    fn wake_by_fluids(&mut self) {
        if self.sleep.asleep == 0 || !self.fluids.is_active() {
            return;
        }
        let mut hits = Vec::new();
        for f in self.fluids.live() {
            let h = f.desc.h();
            let live = f.first as usize..(f.first + f.count) as usize;
            let (mut lo, mut hi) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
            for i in live.clone() {
                let x = self.particles.position(i);
                lo = lo.min(x);
                hi = hi.max(x);
            }
            for (k, island) in self.sleep.islands.iter().enumerate() {
                let Some(island) = island else { continue };
                if !island.overlaps(lo, hi, h) {
                    continue;
                }
                let inside = live.clone().any(|i| {
                    let x = self.particles.position(i);
                    island.overlaps(x, x, h)
                });
                if inside {
                    hits.push(k as u32);
                }
            }
        }
        for k in hits {
            self.wake_island(k);
        }
    }
}

impl Sleep {
    /// Snapshot: every particle's rest count, then the sleeping islands (slot, bounds,
    /// particles).
    pub(crate) fn save(&self, w: &mut Writer<'_>, n: usize) {
        w.put_len(n);
        for i in 0..n {
            w.put(self.rest.get(i).copied().unwrap_or(0.0));
        }
        w.put_len(self.islands.len());
        for s in &self.islands {
            match s {
                None => w.put(false),
                Some(s) => {
                    w.put(true);
                    w.put(s.lo);
                    w.put(s.hi);
                    w.put_slice(&s.particles);
                }
            }
        }
    }

    /// Snapshot: the state [`Self::save`] wrote, for a world of `n` particles (each
    /// particle in at most one island, every index in range, counts finite and ≥ 0).
    pub(crate) fn load(r: &mut Reader<'_>, n: usize) -> Result<Sleep> {
        let len = r.get_count(4, "sleep counts")?;
        codec::ensure(len == n, || format!("{len} sleep counts for {n} particles"))?;
        let mut s = Sleep::default();
        s.grow(n)?;
        for i in 0..n {
            let t: f32 = r.get()?;
            codec::ensure(t.is_finite() && t >= 0.0, || {
                format!("sleep count {t} of particle {i}")
            })?;
            s.rest[i] = t;
        }
        let slots = r.get_count(1, "sleeping islands")?;
        for k in 0..slots {
            if !r.get::<bool>()? {
                s.islands.push(None);
                continue;
            }
            let lo: Vec3 = r.get()?;
            let hi: Vec3 = r.get()?;
            codec::check_finite(
                [lo.x, lo.y, lo.z, hi.x, hi.y, hi.z],
                "sleeping island bounds",
            )?;
            let particles: Vec<u32> = r.get_vec()?;
            codec::ensure(!particles.is_empty(), || {
                format!("sleeping island {k} is empty")
            })?;
            for &i in &particles {
                codec::ensure((i as usize) < n && s.island_of[i as usize] == AWAKE, || {
                    format!(
                        "sleeping island {k}: particle {i} (of {n}) out of range or in two islands"
                    )
                })?;
                s.island_of[i as usize] = k as u32;
            }
            s.asleep += particles.len();
            s.islands.push(Some(Island { particles, lo, hi }));
        }
        Ok(s)
    }

    /// The sleeping particles, in islands (a loaded world freezes them).
    pub(crate) fn asleep_particles(&self) -> impl Iterator<Item = &[u32]> {
        self.islands
            .iter()
            .flatten()
            .map(|s| s.particles.as_slice())
    }
}
