//! Grain emitters: a stream of granular particles (sand, gravel, grain, snow) poured
//! from a nozzle or a box at a rate, up to a budget (`World::add_grain_emitter`).
//!
//! * **Particles.** An emitter reserves `budget` world particles when it is added,
//!   inert until emitted: pinned (inverse mass 0), radius 0 and the filter `layers 0,
//!   mask 0` (no contact of any kind), at the origin. The k-th grain it emits takes
//!   reserved particle `first + k`, so the emitted grains are always
//!   `first..first + emitted`; once `emitted` reaches the budget the emitter stops.
//!   A grain is an ordinary particle from then on: its radius, inverse mass
//!   `1 / (ρ 4/3 π r³)` (a sphere of the desc's density, in a planar world too), the
//!   desc's collision filter and the emitter's granular material
//!   ([`crate::ParticleMaterial`]), at its place with its velocity. Removing the
//!   emitter leaves its grains (and its unused particles inert).
//! * **Stream.** The emitter's shape, position, rotation, speed and rate are an
//!   [`EmitterDesc`], the fluid emitters' desc, and the emission is theirs
//!   (`fluid::emit`, its module doc: the nozzle's lattice, the box's permuted cells,
//!   the carry of a fraction between steps, the flight of a nozzle's particle during
//!   the step it became due), with `s = 2.2 r` ([`GRAIN_SPACING`]: the diameter and a
//!   gap of 10% of r) as a nozzle's spacing (a nozzle passes at most speed × lattice
//!   points / s grains per second) and twice that as a box's cell (grains of one
//!   cycle of the cells do not overlap). A point is a nozzle of radius 0 (one grain
//!   per layer). A nozzle's grain is moved across the stream by up to `0.1 r` per
//!   axis ([`SCATTER`], hashed from its sequence number: `Stream::scatter`), so the
//!   grains of one lattice point do not land exactly on one another and stand in a
//!   column, and grains of one layer still do not overlap. So the emission is
//!   deterministic: the same steps give the same grains.
//! * **Room.** A grain is placed only where there is room for it: a due grain whose
//!   spot (its place after the flight above) some particle overlaps — any particle
//!   with a radius whose collision filter meets the grains' (so one the contacts
//!   would push it from), closer than the two radii — is *held*: it is not placed,
//!   the stream's spot passes ([`Stream::advance`] counts it, so the next grain
//!   tries the next lattice point or cell and a half-blocked nozzle keeps pouring
//!   from its free part), and the grain is tried again at the next step's first
//!   spot instead of a grain due then. So a heap that has grown up to the nozzle
//!   stops the pour until it flows away, as it stops a real outlet: a grain is never
//!   born inside others, which the contacts would push out by the whole overlap in
//!   one substep (up to a radius per substep, metres per second). The stream's
//!   schedule does not wait for held grains (they are not added to a later step's
//!   due count): a blocked emitter pours late, its budget in full, and never bursts
//!   when it clears. The stats count the held grains (`held`). The search is one
//!   pass over the world's particles per batch of [`ROOM_BATCH`] due grains, taken
//!   only in steps with grains due (the contact search's lists are built after the
//!   emission, from the positions it leaves, and the previous step's do not bound
//!   where particles are now), in particle order: deterministic, independent of
//!   the thread count. Grains of one step never overlap one another (the stream's
//!   spacing, see above), so only the particles already in the world are searched.
//! * **Step.** Grain emitters emit at the start of a step, after the fluid emitters,
//!   in slot order (the fluid stage's `begin_step`, before the contact search is
//!   built: a new grain takes part in the whole step).

use crate::error::{Error, Result};
use crate::fluid::emit::{check_stream, Stream};
use crate::fluid::EmitterDesc;
use crate::limits::{MAX_FLUID_SPACING, MAX_INVERSE_MASS, MAX_REST_DENSITY};
use crate::math::{Vec3, Vec4};
use crate::particles::material::ParticleMaterial;
use crate::particles::{CollisionFilter, Particles};
use crate::snapshot::codec::{self, Reader, Writer};

pub use crate::limits::MAX_GRAIN_BUDGET;

crate::settings! {
    /// A grain emitter's grains: how many it may make, their size, density and
    /// collision filter (see `World::add_grain_emitter`; the stream is an
    /// `EmitterDesc`, the friction a `ParticleMaterial`).
    pub struct GrainEmitterDesc => SinewGrainEmitterDesc, GrainEmitterSettings,
        cookie 0x5E1E_0503, path "crate::fluid::grains::GrainEmitterDesc",
        check GrainEmitterDesc::check_mass {
        /// Grains the emitter may make in all: world particles reserved when it is
        /// added (inert until emitted); it stops when they are used.
        budget: u32 = 1000 => unit "grains", min >= 1, max <= MAX_GRAIN_BUDGET;
        /// Radius of every grain (its contact radius).
        grain_radius: f32 = 0.02 => unit "m", min > 0.0, max <= MAX_FLUID_SPACING,
            ui "GrainRadius";
        /// Density of the grain's material (quartz sand 2650): a grain weighs
        /// ρ 4/3 π r³.
        grain_density: f32 = 2650.0 => unit "kg/m³", min > 0.0, max <= MAX_REST_DENSITY,
            ui "GrainDensity";
        /// Collision group of the grains (0 = none; see the collision filters).
        group: u32 = 0 => unit "";
        /// Collision layers the grains are on (bits).
        layers: u32 = 1 => unit "";
        /// Collision layers the grains collide with (bits).
        mask: u32 = u32::MAX => unit "";
        /// Grains of one group collide with each other (only matters with a group).
        self_collision: bool = false => unit "";
    }
}

impl GrainEmitterDesc {
    /// The mass (kg) of one grain: ρ 4/3 π r³.
    pub fn grain_mass(&self) -> f32 {
        let r = self.grain_radius;
        self.grain_density * (4.0 / 3.0 * std::f32::consts::PI) * r * r * r
    }

    /// A grain lighter than the lightest accepted particle is refused.
    fn check_mass(&self) -> Result<()> {
        let m = self.grain_mass();
        if !(m.is_finite() && 1.0 / m <= MAX_INVERSE_MASS) {
            return Err(Error::invalid(format!(
                "grain_density {} with grain_radius {} m gives grains of {m} kg: below the \
                 lightest accepted particle ({} kg)",
                self.grain_density,
                self.grain_radius,
                1.0 / MAX_INVERSE_MASS
            )));
        }
        Ok(())
    }

    /// The grains' collision filter.
    pub fn filter(&self) -> CollisionFilter {
        CollisionFilter {
            group: self.group,
            layers: self.layers,
            mask: self.mask,
            self_collision: self.self_collision,
        }
    }
}

/// A generation-checked grain emitter id (the layout of every id a world issues:
/// [`crate::slots::WorldIds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GrainEmitterId(pub u64);

/// Counters of a grain emitter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GrainEmitterStats {
    /// First reserved world particle; the grains are `first..first + emitted`.
    pub first: u32,
    /// Reserved particles (the desc's budget).
    pub budget: u32,
    /// Grains emitted so far.
    pub emitted: u32,
    /// Grains held so far because their spot was occupied (see the module doc,
    /// "Room"): each step a due grain waits counts once; saturates at `u32::MAX`.
    pub held: u32,
}

/// The filter of a reserved particle not yet emitted: in no contact.
const INERT: CollisionFilter = CollisionFilter {
    group: 0,
    layers: 0,
    mask: 0,
    self_collision: false,
};

/// One grain emitter's state.
pub(crate) struct GrainEmitter {
    pub desc: GrainEmitterDesc,
    pub material: ParticleMaterial,
    pub stream: Stream,
    /// First reserved world particle.
    pub first: u32,
    /// Grains emitted (the next takes particle `first + emitted`).
    pub emitted: u32,
    /// Grains held for want of room so far (saturating; see the module doc).
    pub held: u32,
}

/// A nozzle's lattice spacing for grains of radius r, as a multiple of r: the
/// diameter and a gap of 10% of r (a box's cell is twice it; see the module doc).
pub const GRAIN_SPACING: f32 = 2.2;

/// The largest offset across a nozzle's stream (per axis, as a fraction of the grain
/// radius): half the gap of [`GRAIN_SPACING`], so grains of one layer never overlap.
pub const SCATTER: f32 = 0.1;

/// Due grains whose spots one pass over the world's particles checks for room (see
/// the module doc, "Room"): a step with more due grains makes one pass per batch.
pub const ROOM_BATCH: usize = 64;

/// Marks in `free` (false) the `spots` (m) of grains of radius `r` with filter
/// `filter` that a particle of `p` overlaps: one with a radius whose filter meets
/// `filter`, closer than `r` plus its radius. One pass in particle order.
fn mark_occupied(
    p: &Particles,
    spots: &[Vec3],
    r: f32,
    filter: &CollisionFilter,
    free: &mut [bool],
) {
    let Some(&first) = spots.first() else {
        return;
    };
    let (lo, hi) = spots
        .iter()
        .fold((first, first), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    for i in 0..p.len() {
        let ri = p.radius[i];
        if !(ri > 0.0 && filter.collides(&p.filter[i])) {
            continue;
        }
        let x = p.position(i);
        let reach = r + ri;
        // Outside the spots' box widened by the reach: far from all of them.
        let out = (x - hi).max_element() > reach || (lo - x).max_element() > reach;
        if out {
            continue;
        }
        for (spot, free) in spots.iter().zip(free.iter_mut()) {
            if spot.distance_squared(x) < reach * reach {
                *free = false;
            }
        }
    }
}

/// A nozzle's lattice spacing for grains of `desc` ([`GRAIN_SPACING`] radii); a box's
/// cell is twice it (see the module doc).
fn spacing(desc: &GrainEmitterDesc, stream: &EmitterDesc) -> f32 {
    let d = GRAIN_SPACING * desc.grain_radius;
    match stream.shape {
        crate::fluid::EmitterShape::Nozzle { .. } => d,
        crate::fluid::EmitterShape::Box { .. } => 2.0 * d,
    }
}

/// Checks a stream for grains of `desc`; the normalised stream.
pub(crate) fn check_grain_stream(desc: &GrainEmitterDesc, stream: &EmitterDesc) -> Result<Stream> {
    let (s, rows) = check_stream(stream, spacing(desc, stream), "the grain diameter")?;
    Ok(Stream::new(s, rows))
}

impl GrainEmitter {
    /// A checked emitter (nothing emitted) whose particles start at `first`.
    pub(crate) fn new(
        desc: &GrainEmitterDesc,
        stream: &EmitterDesc,
        material: &ParticleMaterial,
        first: u32,
    ) -> Result<GrainEmitter> {
        desc.validate()?;
        material.validate()?;
        Ok(GrainEmitter {
            desc: *desc,
            material: *material,
            stream: check_grain_stream(desc, stream)?,
            first,
            emitted: 0,
            held: 0,
        })
    }

    /// Makes particle `i` an inert reserved particle.
    pub(crate) fn park(p: &mut Particles, i: usize) {
        p.filter[i] = INERT;
    }

    /// Counters.
    pub(crate) fn stats(&self) -> GrainEmitterStats {
        GrainEmitterStats {
            first: self.first,
            budget: self.desc.budget,
            emitted: self.emitted,
            held: self.held,
        }
    }

    /// Emits this step's grains where there is room (see the module doc).
    pub(crate) fn emit(&mut self, p: &mut Particles, planar: Option<f32>, gravity: Vec3, dt: f32) {
        let left = (self.desc.budget - self.emitted) as u64;
        if left == 0 {
            return;
        }
        let s = spacing(&self.desc, &self.stream.desc);
        let Some(batch) = self.stream.batch(s, planar, gravity, dt) else {
            return;
        };
        let n = batch.due.min(left);
        let r = self.desc.grain_radius;
        let w = 1.0 / self.desc.grain_mass();
        let filter = self.desc.filter();
        let mut placed = 0u32;
        let mut spots = [(Vec3::ZERO, Vec3::ZERO); ROOM_BATCH];
        let mut at = [Vec3::ZERO; ROOM_BATCH];
        let mut start = 0u64;
        while start < n {
            let m = (n - start).min(ROOM_BATCH as u64) as usize;
            for (k, (spot, x)) in spots[..m].iter_mut().zip(&mut at[..m]).enumerate() {
                let j = start + k as u64;
                let (x0, v) = self.stream.launch(&batch, j);
                *x = x0 + self.stream.scatter(&batch, j, SCATTER * r);
                *spot = (*x, v);
            }
            let mut free = [true; ROOM_BATCH];
            mark_occupied(p, &at[..m], r, &filter, &mut free[..m]);
            for (&(x, v), _) in spots[..m].iter().zip(&free).filter(|(_, &f)| f) {
                let i = (self.first + self.emitted + placed) as usize;
                p.base[i] = x.into();
                p.hot[i] = Vec4::new(0.0, 0.0, 0.0, w);
                p.velocity[i] = v;
                p.radius[i] = r;
                p.filter[i] = filter;
                p.material[i] = self.material;
                p.step_start[i] = x;
                placed += 1;
            }
            start += m as u64;
        }
        // Every spot of the batch passes, taken or not; the held grains stay due.
        self.stream.advance(n);
        self.emitted += placed;
        self.held = self.held.saturating_add(n as u32 - placed);
    }
}

impl GrainEmitter {
    /// Snapshot: the grains' desc, the stream's desc, the material (their generated
    /// records), the particle range, the counts (emitted, held), the carry and the
    /// sequence.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        self.desc.save_settings(w);
        self.stream.desc.save_settings(w);
        self.material.save_settings(w);
        w.put((self.first, (self.emitted, self.held)));
        w.put((self.stream.carry, self.stream.sequence));
    }

    /// Snapshot: grain emitter `k` as [`Self::save`] wrote it, checked as an added one
    /// is, its reserved particles within the `n` loaded ones.
    pub(crate) fn load(r: &mut Reader<'_>, k: usize, n: usize) -> Result<GrainEmitter> {
        let what = format!("grain emitter {k}");
        let desc = GrainEmitterDesc::load_settings(r)?;
        let stream = EmitterDesc::load_settings(r)?;
        let material = ParticleMaterial::load_settings(r)?;
        let (first, (emitted, held)): (u32, (u32, u32)) = r.get()?;
        let (carry, sequence): (f64, u64) = r.get()?;
        let mut g = GrainEmitter::new(&desc, &stream, &material, first)
            .map_err(|e| codec::corrupt(format!("{what}: {}", e.message)))?;
        codec::check_unit(stream.rotation.length_squared(), &what)?;
        codec::ensure(
            first as u64 + desc.budget as u64 <= n as u64 && emitted <= desc.budget,
            || {
                format!(
                    "{what} has particles {first}..+{} ({emitted} emitted) of {n}",
                    desc.budget
                )
            },
        )?;
        codec::ensure((0.0..=1.0).contains(&carry), || {
            format!("{what} carries {carry} grains")
        })?;
        codec::check_counters(&[sequence], &what)?;
        (g.emitted, g.held) = (emitted, held);
        (g.stream.carry, g.stream.sequence) = (carry, sequence);
        // The stream as saved: the API stored it normalised once, and normalising a
        // normalised rotation again can move a bit (the loaded world would then differ
        // from the saved one). Its rotation is a unit one (checked above).
        g.stream.desc = stream;
        Ok(g)
    }
}
