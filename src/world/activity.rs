//! Activity: which particles run in which substep. Two sources decide it:
//!
//! * each body's **simulation mode** ([`SimMode`]), set by the host from visibility or
//!   camera distance (level of detail): `Full` (every substep, the default),
//!   `Reduced { every: k }` (one substep in k, with a k times longer substep) or
//!   `Paused` (nothing);
//! * each particle's **sleep flag**, set by the sleep stage (`World::set_particles_asleep`):
//!   a sleeping particle is frozen whatever its body's mode.
//!
//! The derived class of a particle (`solver::classes`: frozen, every substep, or a
//! period k) drives the step:
//!
//! 1. **Kinematic while not running.** For the substeps in which a particle does not
//!    run, its inverse mass is 0 inside the step (restored after the last substep,
//!    before anything outside the step can read it): the integrator skips it (its
//!    velocity is kept), and every constraint, contact and collider treats it as
//!    pinned, so nothing leaks into it from a particle that runs. Its displacement
//!    since the substep's start is folded into its base when it is masked (the same
//!    position bits), so granular friction reads it as at rest, not as moving by
//!    its last substep's motion.
//! 2. **Skipped constraints.** A Gauss-Seidel sweep skips the runs of slots whose
//!    constraints do not run in the substep (`solver::classes::SlotClasses`, rebuilt
//!    at the first step after a mode, a sleep flag or the set changed, never per step).
//!    A constraint all of whose particles are frozen costs nothing.
//! 3. **Reduced rate.** A body at `Reduced { every: k }` runs on substep `s` when
//!    `(s + 1) % k == 0` and on the last substep of every step, with a substep of
//!    `h' = span · h` (span: the substeps since its last run, k unless k does not
//!    divide the substep count): predict `v += h' g, x += h' v`, the velocity update
//!    `v = Δx / h'` with the world's damping over h'. This is XPBD with a longer
//!    substep, unconditionally stable (the projections are positional); compliant
//!    constraints are projected with the world's `α / h²`, so a reduced body's
//!    compliant constraints are up to k² stiffer and its rigid ones converge less
//!    (fewer sweeps per second). Wind impulses, the skinning root's carry and
//!    per-body damping act on every substep (they add to the kept velocity), so the
//!    body feels them in full.
//! 4. **Paused** bodies and sleeping particles skip everything. On resume (`Paused` to
//!    another mode) a body catches up: it is moved by the mean offset between its
//!    attached particles and their hosts' current targets (a translation; the hosts'
//!    rotation is not carried; none where it would leave the coordinate range), its
//!    velocities are zeroed, and for
//!    [`CATCH_UP_STEPS`] steps its velocities are zeroed again at the end of each step,
//!    so the corrections that pull it onto its attachments and constraints never turn
//!    into speed (a quasi-static relaxation, then it continues from rest).
//!
//! A world whose bodies are all `Full` and whose particles are all awake does none of
//! this: its step runs exactly as before (the same bits).

use std::ops::Range;

use super::World;
use crate::bodies::BodyId;
use crate::constraints::ConstraintSets;
use crate::error::{try_with_capacity, Error, Result};
use crate::math::{two_sum3, Vec3, Vec3A};
use crate::particles::Particles;
use crate::pipeline::integrate::{predict_range, update_velocities_range, Integrator};
use crate::pipeline::StepContext;
use crate::slots::{WorldIds, ID_WITHOUT_SERIAL};
use crate::snapshot::codec::{self, Reader, Writer};
use crate::solver::classes::{ParticleClasses, Phase, EVERY, FROZEN};
use crate::solver::parallel::CHUNK;

/// Steps after a resume whose end zeroes the body's velocities (see the module doc).
pub const CATCH_UP_STEPS: u32 = 4;

/// Masks particle `i` for the substeps it does not run (module doc, 1): inverse mass
/// 0, and its displacement since the substep's start folded into its base (an exact
/// two-sum: the base takes the rounded position, the displacement keeps only the
/// rounding error), so the position is the same bits and a later predict gives the
/// same result, but what reads the displacement as this substep's motion (granular
/// friction, `kernels::contact::rub`) sees a particle at rest, as it is.
#[inline]
fn hold(particles: &mut Particles, i: usize) {
    let hot = particles.hot[i];
    let (base, rest) = two_sum3(particles.base[i], Vec3A::from_vec4(hot));
    particles.base[i] = base;
    particles.hot[i] = rest.extend(0.0);
}

/// How a body is simulated (level of detail). The host sets it from visibility and
/// camera distance (`World::set_body_sim_mode`); it is saved in snapshots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SimMode {
    /// Every substep (the default).
    #[default]
    Full,
    /// One substep in `every`, with a substep `every` times longer (and on the last
    /// substep of each step): `every` in 1..=substeps (1 is `Full`).
    Reduced { every: u32 },
    /// Not simulated: no integration, no constraint, kinematic to others. Resuming
    /// catches up without explosion (module doc of `world::activity`).
    Paused,
}

/// A body whose mode is not `Full`.
#[derive(Clone, Debug)]
struct BodyMode {
    id: BodyId,
    particles: Range<u32>,
    mode: SimMode,
}

/// A run of particles at a reduced rate.
#[derive(Clone, Debug)]
struct ReducedRun {
    particles: Range<u32>,
    every: u32,
    /// Whether its inverse masses are 0 right now (inside the step).
    masked: bool,
}

/// The activity table (see the module doc): the modes and sleep flags the host and
/// the sleep stage set, and what the step derives from them.
#[derive(Default)]
pub(crate) struct Activity {
    /// Bodies whose mode is not `Full`.
    modes: Vec<BodyMode>,
    /// Sleep flags, one bit per particle (bit `i % 64` of word `i / 64`).
    asleep: Vec<u64>,
    /// Number of sleeping particles.
    asleep_count: usize,
    /// Bodies catching up after a pause: their particles and the steps left.
    resuming: Vec<(Range<u32>, u32)>,
    /// The derivation is stale (a mode or a flag changed since).
    dirty: bool,
    /// Counts derivations (the sets compare it with their slot classes').
    generation: u64,
    /// Derived: the class of each particle (`solver::classes`), empty when every
    /// particle runs every substep.
    class: Vec<u32>,
    /// Derived: runs of frozen particles.
    frozen: Vec<Range<u32>>,
    /// Derived: runs of particles at a reduced rate.
    reduced: Vec<ReducedRun>,
    /// Derived: whether any chunk of the particle passes is wholly frozen (the
    /// integrator then skips those chunks, `Integrator::frozen_chunks`).
    any_frozen_chunk: bool,
    /// Inverse masses of the masked particles (indexed by particle; valid inside the
    /// step for the particles of `frozen` and `reduced`).
    saved: Vec<f32>,
    /// The constraint sets hold slot classes (so a trivial table must clear them).
    sets_classed: bool,
    /// Inside a step that masked particles.
    masking: bool,
}

impl Activity {
    /// Whether the table changes nothing in the step: every body `Full`, no particle
    /// asleep, no body catching up.
    pub(crate) fn is_idle(&self) -> bool {
        self.modes.is_empty() && self.asleep_count == 0 && self.resuming.is_empty()
    }

    /// The mode of body `id` (`Full` unless set).
    pub(crate) fn mode(&self, id: BodyId) -> SimMode {
        self.modes
            .iter()
            .find(|m| m.id == id)
            .map_or(SimMode::Full, |m| m.mode)
    }

    /// Sets the mode of body `id`, whose particles are `particles` (validated by the
    /// caller), at `positions` for a resume. Returns whether the body resumes from a
    /// pause (the caller then runs [`Self::catch_up`]). Fails only when out of memory.
    pub(crate) fn set_mode(
        &mut self,
        id: BodyId,
        particles: Range<u32>,
        mode: SimMode,
    ) -> Result<bool> {
        let mode = match mode {
            SimMode::Reduced { every: 1 } => SimMode::Full,
            m => m,
        };
        let old = self.mode(id);
        if old == mode {
            return Ok(false);
        }
        let at = self.modes.iter().position(|m| m.id == id);
        match (at, mode) {
            (Some(i), SimMode::Full) => {
                self.modes.remove(i);
            }
            (Some(i), _) => self.modes[i].mode = mode,
            (None, _) => {
                crate::error::try_reserve(&mut self.modes, 1, "body modes")?;
                self.modes.push(BodyMode {
                    id,
                    particles: particles.clone(),
                    mode,
                });
            }
        }
        self.dirty = true;
        let resumes = old == SimMode::Paused;
        self.resuming.retain(|(r, _)| *r != particles);
        if resumes {
            crate::error::try_reserve(&mut self.resuming, 1, "resuming bodies")?;
            self.resuming.push((particles, CATCH_UP_STEPS));
        }
        Ok(resumes)
    }

    /// Forgets body `id` (removed), whose particles were `particles`.
    pub(crate) fn remove_body(&mut self, id: BodyId, particles: &Range<u32>) {
        let before = self.modes.len();
        self.modes.retain(|m| m.id != id);
        self.resuming.retain(|(r, _)| r != particles);
        self.dirty |= self.modes.len() != before;
    }

    /// Whether particle `i` is asleep.
    pub(crate) fn is_asleep(&self, i: u32) -> bool {
        let i = i as usize;
        self.asleep
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    /// Whether particle `i` does not run at all in a step (asleep, or its body
    /// paused): outside the step, what the sleep stage and the host see.
    pub(crate) fn is_frozen(&self, i: u32) -> bool {
        self.is_asleep(i)
            || self
                .modes
                .iter()
                .any(|m| m.mode == SimMode::Paused && m.particles.contains(&i))
    }

    /// Sets the sleep flag of the particles `range` (within the world, checked by the
    /// caller) to `asleep`; a particle put to sleep loses its velocity. Fails only when
    /// out of memory (then nothing changed).
    pub(crate) fn set_asleep(
        &mut self,
        particles: &mut Particles,
        range: Range<u32>,
        asleep: bool,
    ) -> Result<()> {
        let words = (range.end as usize).div_ceil(64);
        if asleep && self.asleep.len() < words {
            let more = words - self.asleep.len();
            crate::error::try_reserve(&mut self.asleep, more, "sleep flags")?;
            self.asleep.resize(words, 0);
        }
        for i in range {
            let (w, bit) = ((i / 64) as usize, 1u64 << (i % 64));
            let Some(word) = self.asleep.get_mut(w) else {
                break;
            };
            if (*word & bit != 0) != asleep {
                *word ^= bit;
                self.dirty = true;
                if asleep {
                    self.asleep_count += 1;
                } else {
                    self.asleep_count -= 1;
                }
            }
            if asleep {
                particles.velocity[i as usize] = Vec3::ZERO;
            }
        }
        if self.asleep_count == 0 {
            self.asleep = Vec::new();
        }
        Ok(())
    }

    /// Resume catch-up of the body with particles `range` (module doc, 4): moved by the
    /// mean offset between its attached particles and their hosts' current targets,
    /// its velocities zeroed. A move that would take a particle past ±MAX_COORDINATE
    /// (a host moved across the coordinate range meanwhile) is not made: the body stays
    /// where it is and its attachments pull it over the next steps.
    pub(crate) fn catch_up(particles: &mut Particles, sets: &ConstraintSets, range: Range<u32>) {
        let (mut sum, mut n) = (Vec3::ZERO, 0u32);
        for (i, target) in sets.attachments.targets_in(range.clone()) {
            sum += target - particles.position(i as usize);
            n += 1;
        }
        let shift = if n > 0 { sum / n as f32 } else { Vec3::ZERO };
        let all = range.start as usize..range.end as usize;
        let shift = if particles.shift_stays_in_range(all, shift) {
            shift
        } else {
            Vec3::ZERO
        };
        for i in range.start as usize..range.end as usize {
            if shift != Vec3::ZERO {
                let x = particles.position(i) + shift;
                particles.set_position(i, x);
                particles.step_start[i] = x;
            }
            particles.velocity[i] = Vec3::ZERO;
        }
    }

    /// Derives the particle classes and runs (see the module doc) for `n` particles
    /// and `substeps` substeps. Fails only when out of memory (then nothing changed).
    fn derive(&mut self, n: usize, substeps: u32) -> Result<()> {
        let mut class: Vec<u32> = try_with_capacity(n, "particle classes")?;
        class.resize(n, EVERY);
        for m in &self.modes {
            let k = match m.mode {
                SimMode::Full => EVERY,
                SimMode::Reduced { every } => every.clamp(1, substeps.max(1)),
                SimMode::Paused => FROZEN,
            };
            let end = (m.particles.end as usize).min(n);
            for c in &mut class[(m.particles.start as usize).min(end)..end] {
                *c = k;
            }
        }
        self.for_each_asleep_range(|r| {
            let end = (r.end as usize).min(n);
            for c in &mut class[(r.start as usize).min(end)..end] {
                *c = FROZEN;
            }
        });
        let mut frozen = Vec::new();
        let mut reduced: Vec<ReducedRun> = Vec::new();
        let mut i = 0usize;
        while i < n {
            let k = class[i];
            let start = i;
            while i < n && class[i] == k {
                i += 1;
            }
            let run = start as u32..i as u32;
            match k {
                EVERY => {}
                FROZEN => frozen.push(run),
                every => reduced.push(ReducedRun {
                    particles: run,
                    every,
                    masked: false,
                }),
            }
        }
        let mut saved = std::mem::take(&mut self.saved);
        saved.clear();
        crate::error::try_reserve(&mut saved, n, "saved inverse masses")?;
        saved.resize(n, 0.0);
        self.saved = saved;
        self.class = class;
        self.frozen = frozen;
        self.reduced = reduced;
        self.generation += 1;
        self.dirty = false;
        Ok(())
    }

    /// Whether a stage of this table changes particles between substeps (a body at
    /// a reduced rate is unmasked and masked there): then the integrator does not fuse
    /// its velocity update with the next predict.
    ///
    /// Also while whole chunks of particles are frozen: the integrator's own passes
    /// skip those chunks, which the fused pass inside a sweep cannot.
    pub(crate) fn moves_particles_between_substeps(&self) -> bool {
        !self.is_idle() && (!self.reduced.is_empty() || self.any_frozen_chunk)
    }

    /// Start of a step, after the fallible `begin_step` stages: derives what changed,
    /// brings the sets' slot classes up to date, and masks the particles that do not
    /// run (sleeping ones also lose their velocity). Fails only when out of memory
    /// (then nothing is masked).
    pub(crate) fn begin_step(
        &mut self,
        particles: &mut Particles,
        sets: &mut ConstraintSets,
        integrator: &mut Integrator,
        substeps: u32,
    ) -> Result<()> {
        if self.is_idle() || (self.modes.is_empty() && self.asleep_count == 0) {
            if self.sets_classed {
                sets.refresh_classes(None)?;
                self.sets_classed = false;
            }
            self.frozen.clear();
            self.reduced.clear();
            self.any_frozen_chunk = false;
            self.class = Vec::new();
            integrator.frozen_chunks.clear();
            return Ok(());
        }
        if self.dirty || self.class.len() > particles.len() {
            self.derive(particles.len(), substeps)?;
            // The chunks of the integrator's passes with no particle that runs.
            let chunks = &mut integrator.frozen_chunks;
            chunks.clear();
            crate::error::try_reserve(chunks, self.class.len().div_ceil(CHUNK), "frozen chunks")?;
            chunks.extend(
                self.class
                    .chunks(CHUNK)
                    .map(|c| c.len() == CHUNK && c.iter().all(|&k| k == FROZEN)),
            );
            self.any_frozen_chunk = chunks.iter().any(|&f| f);
            if !self.any_frozen_chunk {
                chunks.clear();
            }
        }
        let classes = ParticleClasses {
            class: &self.class,
            generation: self.generation,
        };
        sets.refresh_classes(Some(&classes))?;
        self.sets_classed = true;
        for r in &self.frozen {
            for i in r.start as usize..r.end as usize {
                self.saved[i] = particles.hot[i].w;
                hold(particles, i);
            }
        }
        for r in &mut self.reduced {
            for i in r.particles.start as usize..r.particles.end as usize {
                self.saved[i] = particles.hot[i].w;
                hold(particles, i);
            }
            r.masked = true;
        }
        self.masking = true;
        Ok(())
    }

    /// Sets the inverse masses of reduced run `r` masked (0) or back.
    fn mask(saved: &[f32], particles: &mut Particles, r: &mut ReducedRun, masked: bool) {
        if r.masked == masked {
            return;
        }
        let range = r.particles.start as usize..r.particles.end as usize;
        if masked {
            for i in range {
                hold(particles, i);
            }
        } else {
            for (hot, &w) in particles.hot[range.clone()].iter_mut().zip(&saved[range]) {
                hot.w = w;
            }
        }
        r.masked = masked;
    }

    /// Start of a substep, before the stages that add to velocities (wind, the skinning
    /// root's carry): the reduced bodies take part when `adds_velocity` (module doc, 3).
    pub(crate) fn before_impulses(&mut self, particles: &mut Particles, adds_velocity: bool) {
        if !self.masking || !adds_velocity {
            return;
        }
        for r in &mut self.reduced {
            Self::mask(&self.saved, particles, r, false);
        }
    }

    /// Before the integrator's predict: every reduced body masked (the world's predict
    /// skips them).
    pub(crate) fn before_predict(&mut self, particles: &mut Particles) {
        if !self.masking {
            return;
        }
        for r in &mut self.reduced {
            Self::mask(&self.saved, particles, r, true);
        }
    }

    /// After the integrator's predict: the reduced bodies that run in this substep are
    /// unmasked and predicted with their own substep `span · h`.
    pub(crate) fn after_predict(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        if !self.masking {
            return;
        }
        let phase = phase_of(cx);
        for r in &mut self.reduced {
            if phase.runs(r.every) {
                Self::mask(&self.saved, particles, r, false);
                let h = cx.h * phase.span(r.every) as f32;
                predict_range(particles, r.particles.clone(), cx.gravity, h);
            }
        }
    }

    /// Before the integrator's velocity update: the reduced bodies that ran in this
    /// substep update their velocities over their own substep (the world's damping
    /// over it), then are masked for the world's update (and stay in the per-body
    /// damping, which scales the velocity they keep).
    pub(crate) fn before_velocity_update(
        &mut self,
        particles: &mut Particles,
        cx: &StepContext<'_>,
    ) {
        if !self.masking {
            return;
        }
        let phase = phase_of(cx);
        for r in &mut self.reduced {
            if phase.runs(r.every) {
                let span = phase.span(r.every);
                let damping = cx.damping_factor.powi(span as i32);
                let h = cx.h * span as f32;
                update_velocities_range(particles, r.particles.clone(), h, damping);
                Self::mask(&self.saved, particles, r, true);
            }
        }
    }

    /// After the integrator's velocity update: the reduced bodies that ran take part in
    /// the rest of the substep (collider restitution) unmasked.
    pub(crate) fn after_velocity_update(
        &mut self,
        particles: &mut Particles,
        cx: &StepContext<'_>,
    ) {
        if !self.masking {
            return;
        }
        let phase = phase_of(cx);
        for r in &mut self.reduced {
            if phase.runs(r.every) {
                Self::mask(&self.saved, particles, r, false);
            }
        }
    }

    /// After the last substep, before any `end_step` stage: every inverse mass back;
    /// the bodies catching up after a pause lose their velocities (module doc, 4).
    pub(crate) fn end_substeps(&mut self, particles: &mut Particles) {
        if self.masking {
            for r in &self.frozen {
                for i in r.start as usize..r.end as usize {
                    particles.hot[i].w = self.saved[i];
                }
            }
            for r in &mut self.reduced {
                Self::mask(&self.saved, particles, r, false);
            }
            self.masking = false;
        }
        for (range, left) in &mut self.resuming {
            for v in &mut particles.velocity[range.start as usize..range.end as usize] {
                *v = Vec3::ZERO;
            }
            *left -= 1;
        }
        self.resuming.retain(|(_, left)| *left > 0);
    }

    /// Snapshot: the modes (body id without the world serial, its
    /// particles, the mode as tag 0 full / 1 reduced / 2 paused and the rate), the
    /// sleeping particles as ranges, and the bodies catching up (particles, steps
    /// left).
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        w.put_len(self.modes.len());
        for m in &self.modes {
            let (tag, every) = mode_to_pair(m.mode);
            w.put(m.id.0 & ID_WITHOUT_SERIAL);
            w.put((m.particles.start, m.particles.end));
            w.put((tag, every));
        }
        // Counted first, then written: no allocation while saving.
        let mut ranges = 0usize;
        self.for_each_asleep_range(|_| ranges += 1);
        w.put_len(ranges);
        self.for_each_asleep_range(|r| w.put((r.start, r.end)));
        w.put_len(self.resuming.len());
        for (r, left) in &self.resuming {
            w.put((r.start, r.end));
            w.put(*left);
        }
    }

    /// Calls `f` on each maximal run of sleeping particles, in order.
    fn for_each_asleep_range(&self, mut f: impl FnMut(Range<u32>)) {
        let mut open: Option<Range<u32>> = None;
        for (wi, &word) in self.asleep.iter().enumerate() {
            for b in 0..64 {
                let i = (wi * 64 + b) as u32;
                if word & (1u64 << b) != 0 {
                    match &mut open {
                        Some(r) => r.end = i + 1,
                        None => open = Some(i..i + 1),
                    }
                } else if let Some(r) = open.take() {
                    f(r);
                }
            }
        }
        if let Some(r) = open {
            f(r);
        }
    }

    /// Snapshot: the table [`Self::save`] wrote, over `particles` and `substeps`;
    /// `body(id)` is the live body of a saved id, with its particles.
    pub(crate) fn load(
        r: &mut Reader<'_>,
        particles: &mut Particles,
        substeps: u32,
        body: &dyn Fn(u64) -> Option<(BodyId, Range<u32>)>,
    ) -> Result<Activity> {
        let n = particles.len() as u32;
        let in_world = |s: u32, e: u32, what: &str| {
            codec::ensure(s <= e && e <= n, || {
                format!("{what} particles {s}..{e} of a world of {n}")
            })
        };
        let count = r.get_count(24, "body modes")?;
        let mut a = Activity {
            dirty: true,
            ..Activity::default()
        };
        a.modes = try_with_capacity(count, "body modes")?;
        for _ in 0..count {
            let id: u64 = r.get()?;
            let (s, e): (u32, u32) = r.get()?;
            let (tag, every): (u32, u32) = r.get()?;
            let (id, range) = body(id).ok_or_else(|| {
                codec::corrupt(format!("a mode names body {id:#x}, which does not exist"))
            })?;
            codec::ensure(range == (s..e), || {
                format!(
                    "the mode of body {:#x} covers particles {s}..{e}, not its own",
                    id.0
                )
            })?;
            let mode = mode_from_pair(tag, every)
                .filter(|&m| {
                    m != SimMode::Full
                        && m != SimMode::Reduced { every: 1 }
                        && check_mode(m, substeps).is_ok()
                })
                .ok_or_else(|| {
                    codec::corrupt(format!(
                        "body mode {tag} every {every} (the world has {substeps} substeps)"
                    ))
                })?;
            codec::ensure(a.modes.iter().all(|m| m.id != id), || {
                format!("body {:#x} has two modes", id.0)
            })?;
            a.modes.push(BodyMode {
                id,
                particles: range,
                mode,
            });
        }
        let count = r.get_count(8, "sleeping ranges")?;
        for _ in 0..count {
            let (s, e): (u32, u32) = r.get()?;
            in_world(s, e, "sleeping")?;
            a.set_asleep(particles, s..e, true)?;
        }
        let count = r.get_count(12, "resuming bodies")?;
        a.resuming = try_with_capacity(count, "resuming bodies")?;
        for _ in 0..count {
            let (s, e): (u32, u32) = r.get()?;
            let left: u32 = r.get()?;
            in_world(s, e, "resuming")?;
            codec::ensure((1..=CATCH_UP_STEPS).contains(&left), || {
                format!("{left} catch-up steps left (at most {CATCH_UP_STEPS})")
            })?;
            a.resuming.push((s..e, left));
        }
        Ok(a)
    }

    /// Gives the body ids the world serial of `ids` (snapshots).
    pub(crate) fn reserial(&mut self, ids: WorldIds) {
        for m in &mut self.modes {
            m.id = BodyId(ids.complete(m.id.0));
        }
    }
}

/// A mode as the C ABI's pair (tag 0 full, 1 reduced, 2 paused; the rate, 1 unless
/// reduced).
pub(crate) fn mode_to_pair(mode: SimMode) -> (u32, u32) {
    match mode {
        SimMode::Full => (0, 1),
        SimMode::Reduced { every } => (1, every),
        SimMode::Paused => (2, 1),
    }
}

/// The mode of a C ABI pair (see [`mode_to_pair`]; the rate is read only for
/// reduced), or None for an unknown tag.
pub(crate) fn mode_from_pair(tag: u32, every: u32) -> Option<SimMode> {
    match tag {
        0 => Some(SimMode::Full),
        1 => Some(SimMode::Reduced { every }),
        2 => Some(SimMode::Paused),
        _ => None,
    }
}

/// The substep of `cx` as a [`Phase`].
fn phase_of(cx: &StepContext<'_>) -> Phase {
    Phase {
        substep: cx.substep,
        substeps: cx.substeps,
    }
}

/// Checks a mode for a world of `substeps` substeps: `every` in 1..=substeps.
pub(crate) fn check_mode(mode: SimMode, substeps: u32) -> Result<()> {
    match mode {
        SimMode::Reduced { every } if every == 0 || every > substeps => Err(Error::out_of_range(
            format!("reduced rate every {every} substeps: must be within 1..={substeps} (the world's substeps)"),
        )),
        _ => Ok(()),
    }
}

/// Level of detail and the sleep flags (module doc of `world::activity`).
impl World {
    /// Sets how body `id` is simulated (level of detail, see [`SimMode`]): takes
    /// effect on the next step. `Reduced { every }` needs `every` in 1..=substeps of
    /// the world (1 is `Full`). Resuming from `Paused` catches up: the body is moved by
    /// the mean offset between its attached particles and their hosts' targets, at
    /// rest, and its velocities are zeroed at the end of the next
    /// [`CATCH_UP_STEPS`] steps. Fails (changing nothing) on a bad id or rate.
    ///
    /// ```
    /// use sinew::{RopeDesc, SimMode, World, WorldDesc};
    /// let mut world = World::new(WorldDesc::default())?;
    /// let rope = world.add_rope(&RopeDesc::default())?;
    /// world.set_body_sim_mode(rope, SimMode::Reduced { every: 4 })?;
    /// assert_eq!(world.body_sim_mode(rope)?, SimMode::Reduced { every: 4 });
    /// assert!(world.set_body_sim_mode(rope, SimMode::Reduced { every: 0 }).is_err());
    /// world.step(1.0 / 60.0)?;
    /// # Ok::<(), sinew::Error>(())
    /// ```
    pub fn set_body_sim_mode(&mut self, id: BodyId, mode: SimMode) -> Result<()> {
        let particles = self.bodies.get(id)?.particles.clone();
        check_mode(mode, self.desc.substeps)?;
        if self.activity.set_mode(id, particles.clone(), mode)? {
            Activity::catch_up(&mut self.particles, &self.sets, particles);
        }
        Ok(())
    }

    /// How body `id` is simulated (`Full` unless [`World::set_body_sim_mode`] changed
    /// it). Fails on a bad id.
    pub fn body_sim_mode(&self, id: BodyId) -> Result<SimMode> {
        self.bodies.get(id)?;
        Ok(self.activity.mode(id))
    }

    /// Puts the particles `range` to sleep (`asleep`: frozen in the step, velocity 0,
    /// kinematic to any constraint or contact with a particle that runs) or wakes them;
    /// for the sleep stage. Fails (changing nothing) when the range is not within the
    /// world's particles.
    #[allow(dead_code)] // the sleep stage's API
    pub(crate) fn set_particles_asleep(&mut self, range: Range<u32>, asleep: bool) -> Result<()> {
        let n = self.particles.len();
        if range.start > range.end || range.end as usize > n {
            return Err(Error::out_of_range(format!(
                "particles {}..{} of a world of {n}",
                range.start, range.end
            )));
        }
        self.activity.set_asleep(&mut self.particles, range, asleep)
    }

    /// Whether every particle of `range` is asleep (false for an empty range or one
    /// past the world's particles).
    #[allow(dead_code)] // the sleep stage's API
    pub(crate) fn particles_asleep(&self, range: Range<u32>) -> bool {
        !range.is_empty()
            && range.end as usize <= self.particles.len()
            && range.clone().all(|i| self.activity.is_asleep(i))
    }

    /// Whether particle `i` does not run in a step (asleep, or its body paused).
    #[allow(dead_code)] // the sleep stage's API
    pub(crate) fn is_frozen(&self, i: u32) -> bool {
        self.activity.is_frozen(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bodies::rope::RopeDesc;
    use crate::world::WorldDesc;

    fn world(threads: u32) -> (World, BodyId, BodyId) {
        let mut w = World::new(WorldDesc {
            threads,
            ..WorldDesc::default()
        })
        .unwrap();
        let rope = |x: f32| RopeDesc {
            start: Vec3::new(x, 1.0, 0.0),
            end: Vec3::new(x + 1.0, 1.0, 0.0),
            segments: 8,
            ..RopeDesc::default()
        };
        let a = w.add_rope(&rope(0.0)).unwrap();
        let b = w.add_rope(&rope(3.0)).unwrap();
        (w, a, b)
    }

    fn positions(w: &World, r: Range<u32>) -> Vec<Vec3> {
        r.map(|i| w.particles.position(i as usize)).collect()
    }

    /// Sleeping particles stay where they are, at rest, with their inverse masses
    /// intact outside the step; the other rope runs as it would alone; woken, they
    /// fall again.
    #[test]
    fn sleeping_particles_do_not_move_and_wake() {
        let (mut w, a, b) = world(1);
        let (mut alone, _, _) = world(1);
        let ra = w.bodies.get(a).unwrap().particles.clone();
        let rb = w.bodies.get(b).unwrap().particles.clone();
        w.step(1.0 / 60.0).unwrap();
        alone.step(1.0 / 60.0).unwrap();
        let masses: Vec<f32> = ra
            .clone()
            .map(|i| w.particles.inverse_mass(i as usize))
            .collect();
        w.set_particles_asleep(ra.clone(), true).unwrap();
        assert!(w.particles_asleep(ra.clone()) && w.is_frozen(ra.start));
        let still = positions(&w, ra.clone());
        for _ in 0..10 {
            w.step(1.0 / 60.0).unwrap();
            alone.step(1.0 / 60.0).unwrap();
        }
        assert_eq!(positions(&w, ra.clone()), still);
        assert_eq!(positions(&w, rb.clone()), positions(&alone, rb.clone()));
        let now: Vec<f32> = ra
            .clone()
            .map(|i| w.particles.inverse_mass(i as usize))
            .collect();
        assert_eq!(now, masses);
        assert!(ra
            .clone()
            .all(|i| w.particles.velocity(i as usize) == Vec3::ZERO));
        w.set_particles_asleep(ra.clone(), false).unwrap();
        assert!(!w.particles_asleep(ra.clone()));
        w.step(1.0 / 60.0).unwrap();
        assert_ne!(positions(&w, ra.clone()), still);
        assert!(w.set_particles_asleep(0..10_000, true).is_err());
    }

    /// A reduced rope and a paused one: the same bits on 1 and 2 threads; the paused
    /// one does not move; bad rates are refused and change nothing.
    #[test]
    fn modes_are_deterministic_and_validated() {
        let run = |threads| {
            let (mut w, a, b) = world(threads);
            w.set_body_sim_mode(a, SimMode::Reduced { every: 3 })
                .unwrap();
            w.set_body_sim_mode(b, SimMode::Paused).unwrap();
            let rb = w.bodies.get(b).unwrap().particles.clone();
            let still = positions(&w, rb.clone());
            for _ in 0..30 {
                w.step(1.0 / 60.0).unwrap();
            }
            assert_eq!(positions(&w, rb), still);
            positions(&w, 0..w.particles.len() as u32)
        };
        assert_eq!(run(1), run(2));
        let (mut w, a, _) = world(1);
        for bad in [0, 9] {
            assert!(w
                .set_body_sim_mode(a, SimMode::Reduced { every: bad })
                .is_err());
        }
        assert_eq!(w.body_sim_mode(a).unwrap(), SimMode::Full);
        w.set_body_sim_mode(a, SimMode::Reduced { every: 1 })
            .unwrap();
        assert_eq!(w.body_sim_mode(a).unwrap(), SimMode::Full);
    }
}
