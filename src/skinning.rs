//! Skinned targets: each particle of a body can follow an animated target (the skinned
//! vertex position and normal the host writes every frame), with per-particle
//! constraints against it, and inertia control relative to a reference transform (the
//! character's root).
//!
//! **Targets.** The host writes every target once per frame (one bulk call, straight
//! from its vertex buffer); within the step, substep s of n sees the target interpolated
//! at a = (s+1)/n between the previous frame's and the new one (positions lerped,
//! normals lerped and renormalised), like attachment hosts. Until the host writes
//! targets, the body is simulated freely.
//!
//! **Constraints** (per particle i, weights painted per vertex, as Chaos Cloth's
//! "Max Distance", "Backstop Distance"/"Backstop Radius" and "Anim Drive" masks and
//! NvCloth's motion and separation constraints (NVIDIA NvCloth documentation,
//! "Cloth Constraints"); projected after every constraint set of an iteration, in this
//! order, on particles of inverse mass > 0; t = target, n = unit target normal):
//!
//! ```text
//! anim drive    C(x) = x − t                 (XPBD zero-length spring, compliance α in m/N;
//!                                             the attachment of Müller et al., "Position Based
//!                                             Dynamics", 2007, made compliant as in XPBD)
//!               Δλ = (−C − α̃ λ) / (w + α̃),  Δx = w Δλ,  α̃ = α / h²
//!               static deflection under gravity: m g α
//! backstop      C(x) = |x − c| − R ≥ 0,  c = t − (R + D) n
//!               (a sphere of radius R whose surface lies D behind the target along −n:
//!                the particle may not enter it; projected to its surface)
//! max distance  C(x) = r − |x − t| ≥ 0      (the particle stays within r of its target;
//!                                             r = 0: fully skinned, x = t)
//! ```
//!
//! Units and defaults of [`SkinWeights`]: max distance r (m; negative = no limit, the
//! default), backstop radius R (m; 0 = no backstop, the default) and distance D (m,
//! default 0), drive compliance α (m/N; negative = no drive, the default; 0 = rigid).
//!
//! **Inertia control** (Chaos Cloth's linear and angular inertia scales, Obi's world
//! inertia). With a reference transform (the root) written every frame, the body is
//! simulated partly in the root's frame: at the start of each substep the root moves
//! from T(s/n) to T((s+1)/n) (position lerp, rotation slerp between the previous
//! frame's and this one's), and every movable particle is carried by the fraction not
//! passed on of that motion, about the root's position p:
//!
//! ```text
//! x ← x + (1 − f_lin) Δp + (Q − I)(x − p),   v ← Q v,   Q = slerp(I, ΔR, 1 − f_ang)
//! ```
//!
//! f_lin, f_ang ∈ [0, 1] are the fractions of the root's linear and angular
//! acceleration passed on: 1 = world-space simulation (nothing is carried, all inertia
//! is felt, the default), 0 = the cloth is carried with the root and feels none of its
//! acceleration (only gravity, wind and the skinning act). In between, at a steady root
//! velocity the cloth's own velocity settles to f times the root's, so only the fraction
//! f of any change of the root's motion has to be supplied by the constraints. The carry
//! moves the positions, not the velocity update's displacement, so a particle's velocity
//! stays its own (relative) motion; a particle the carry would take past the accepted
//! coordinate range (±`MAX_COORDINATE`: a root far from its body, turning) is not
//! carried in that substep. A teleport puts the particles on their targets, at rest,
//! and forgets the previous frame.
//!
//! Everything is serial, per body in creation order: bit-identical for every thread
//! count.

use std::ops::Range;

use glam::Quat;

use crate::bodies::BodyId;
use crate::error::{try_with_capacity, Error, Result};
use crate::math::{Vec3, Vec3A};
use crate::particles::Particles;
use crate::pipeline::{Stage, StepContext};
use crate::transform::Transform;

/// Per-particle weights against the skinned target (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinWeights {
    /// Radius (m) the particle may move away from its target; negative = no limit
    /// (default −1), 0 = fully skinned.
    pub max_distance: f32,
    /// Radius R (m) of the backstop sphere behind the target; 0 = none (default).
    pub backstop_radius: f32,
    /// Distance D (m) between the target and the backstop sphere's surface, along −n;
    /// default 0.
    pub backstop_distance: f32,
    /// Compliance (m/N) of the spring pulling the particle to its target; negative =
    /// none (default −1), 0 = rigid.
    pub drive_compliance: f32,
}

impl Default for SkinWeights {
    fn default() -> Self {
        SkinWeights {
            max_distance: -1.0,
            backstop_radius: 0.0,
            backstop_distance: 0.0,
            drive_compliance: -1.0,
        }
    }
}

impl SkinWeights {
    /// Checks particle `i`'s weights.
    pub fn check(&self, i: usize) -> Result<()> {
        let max = crate::limits::MAX_LENGTH;
        let ok_or_off = |v: f32, max: f32| v.is_finite() && v <= max;
        if !ok_or_off(self.max_distance, max) {
            return Err(Error::invalid(format!(
                "weights[{i}].max_distance {} must be finite and at most {max} m (negative = no limit)",
                self.max_distance
            )));
        }
        crate::limits::check_length(
            &format!("weights[{i}].backstop_radius"),
            self.backstop_radius,
            false,
        )?;
        crate::limits::check_length(
            &format!("weights[{i}].backstop_distance"),
            self.backstop_distance,
            false,
        )?;
        let cmax = crate::limits::MAX_COMPLIANCE;
        if !ok_or_off(self.drive_compliance, cmax) {
            return Err(Error::invalid(format!(
                "weights[{i}].drive_compliance {} must be finite and at most {cmax} m/N (negative = no drive)",
                self.drive_compliance
            )));
        }
        Ok(())
    }
}

/// The root (reference transform) of a skinned body, for inertia control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkinRoot {
    /// The transform at the end of the last step.
    pub previous: Transform,
    /// The transform the next step reaches.
    pub next: Transform,
    /// Fractions of the root's linear and angular acceleration passed on, in [0, 1].
    pub linear_inertia: f32,
    pub angular_inertia: f32,
}

/// One body's skinning state: plain data owned by the world.
#[derive(Clone, Debug)]
pub struct SkinnedBody {
    pub body: BodyId,
    pub particles: Range<u32>,
    pub weights: Vec<SkinWeights>,
    /// Targets (position m, unit normal or zero) of the previous frame and of this one.
    pub previous: Vec<[Vec3; 2]>,
    pub next: Vec<[Vec3; 2]>,
    /// Whether the host has written targets.
    pub has_targets: bool,
    pub root: Option<SkinRoot>,
    /// Drive λ (N·s²) of the current substep, per particle.
    lambda: Vec<Vec3>,
}

/// Every skinned body, in the order skinning was enabled, and the substep's
/// interpolation parameter.
#[derive(Clone, Debug, Default)]
pub struct Skinning {
    pub(crate) bodies: Vec<SkinnedBody>,
    /// Interpolation a = (s+1)/n of the current substep.
    a: f32,
}

/// A zeroed vector of `n` elements, or OUT_OF_MEMORY.
fn zeroed<T: Clone>(n: usize, value: T, what: &str) -> Result<Vec<T>> {
    let mut v = try_with_capacity(n, what)?;
    v.resize(n, value);
    Ok(v)
}

impl Skinning {
    pub(crate) fn get(&self, body: BodyId) -> Option<&SkinnedBody> {
        self.bodies.iter().find(|b| b.body == body)
    }

    pub(crate) fn get_mut(&mut self, body: BodyId) -> Option<&mut SkinnedBody> {
        self.bodies.iter_mut().find(|b| b.body == body)
    }

    /// Sets (or replaces) a body's weights, all checked by the caller.
    pub(crate) fn set_weights(
        &mut self,
        body: BodyId,
        particles: Range<u32>,
        weights: &[SkinWeights],
    ) -> Result<()> {
        let n = particles.len();
        if let Some(b) = self.get_mut(body) {
            b.weights.copy_from_slice(weights);
            return Ok(());
        }
        crate::error::try_reserve(&mut self.bodies, 1, "skinned bodies")?;
        let mut w = try_with_capacity(n, "skin weights")?;
        w.extend_from_slice(weights);
        let b = SkinnedBody {
            body,
            particles,
            weights: w,
            previous: zeroed(n, [Vec3::ZERO; 2], "skin targets")?,
            next: zeroed(n, [Vec3::ZERO; 2], "skin targets")?,
            has_targets: false,
            root: None,
            lambda: zeroed(n, Vec3::ZERO, "skin drive multipliers")?,
        };
        self.bodies.push(b);
        Ok(())
    }

    /// Forgets a removed body.
    pub(crate) fn remove_body(&mut self, body: BodyId) {
        self.bodies.retain(|b| b.body != body);
    }

    /// Start of substep `s` of `n`, before the prediction: the interpolation
    /// parameter, the drive λ reset, and the carry by the root (see the module doc).
    pub(crate) fn begin_substep(&mut self, particles: &mut Particles, s: u32, n: u32) {
        let (a0, a1) = (s as f32 / n as f32, (s + 1) as f32 / n as f32);
        self.a = a1;
        for b in &mut self.bodies {
            if b.has_targets {
                b.lambda.fill(Vec3::ZERO);
            }
            let Some(root) = &b.root else { continue };
            let (fl, fa) = (1.0 - root.linear_inertia, 1.0 - root.angular_inertia);
            if fl == 0.0 && fa == 0.0 {
                continue;
            }
            let (t0, t1) = (&root.previous, &root.next);
            let p_from = t0.position.lerp(t1.position, a0);
            let p_to = t0.position.lerp(t1.position, a1);
            let q_from = t0.rotation.slerp(t1.rotation, a0);
            let q_to = t0.rotation.slerp(t1.rotation, a1);
            let dq = (q_to * q_from.inverse()).normalize();
            let dq = if dq.w < 0.0 { -dq } else { dq };
            let q = Quat::IDENTITY.slerp(dq, fa);
            let shift = (p_to - p_from) * fl;
            if shift == Vec3::ZERO && q == Quat::IDENTITY {
                continue;
            }
            for i in b.particles.clone() {
                let i = i as usize;
                if particles.hot[i].w == 0.0 {
                    continue;
                }
                let x = particles.position(i);
                let r = x - p_from;
                let nx = x + shift + (q * r - r);
                let nv = q * particles.velocity[i];
                // A carry that would take the particle past the accepted range (a root
                // far from its body turning) or overflow leaves it where it is: the
                // step records its start after this, and its recovery puts a body back
                // there, so a position past the range here would stay.
                if crate::particles::in_range(nx, nv) {
                    particles.set_position(i, nx);
                    particles.velocity[i] = nv;
                }
            }
        }
    }

    /// One iteration of the skinning constraints (see the module doc).
    pub(crate) fn project(&mut self, particles: &mut Particles, inv_h2: f32) {
        let a = self.a;
        for b in &mut self.bodies {
            if !b.has_targets {
                continue;
            }
            let first = b.particles.start as usize;
            for k in 0..b.weights.len() {
                let i = first + k;
                let hot = particles.hot[i];
                let w = hot.w;
                if w == 0.0 {
                    continue;
                }
                let wt = b.weights[k];
                let [p0, n0] = b.previous[k];
                let [p1, n1] = b.next[k];
                let t = p0.lerp(p1, a);
                let base = particles.base[i];
                let mut x = Vec3::from(base + Vec3A::from_vec4(hot));
                if wt.drive_compliance >= 0.0 {
                    let at = wt.drive_compliance * inv_h2;
                    let c = x - t;
                    let dl = (-c - b.lambda[k] * at) / (w + at);
                    b.lambda[k] += dl;
                    x += dl * w;
                }
                if wt.backstop_radius > 0.0 {
                    let n = n0.lerp(n1, a).normalize_or_zero();
                    if n != Vec3::ZERO {
                        let r = wt.backstop_radius;
                        let c = t - n * (r + wt.backstop_distance);
                        let d = x - c;
                        let len = d.length();
                        if len < r {
                            let dir = if len > 0.0 { d / len } else { n };
                            x = c + dir * r;
                        }
                    }
                }
                if wt.max_distance >= 0.0 {
                    let d = x - t;
                    let len = d.length();
                    if len > wt.max_distance {
                        x = t + d * (wt.max_distance / len);
                    }
                }
                let d = Vec3A::from(x) - base;
                if d.is_finite() {
                    particles.hot[i] = d.extend(w);
                }
            }
        }
    }

    /// End of a step: the new targets and root become the previous ones.
    pub(crate) fn end_step(&mut self) {
        for b in &mut self.bodies {
            if b.has_targets {
                b.previous.copy_from_slice(&b.next);
            }
            if let Some(r) = &mut b.root {
                r.previous = r.next;
            }
        }
    }
}

impl SkinnedBody {
    /// Writes this frame's targets (checked by the caller); the first write also
    /// becomes the previous frame's.
    pub(crate) fn write_targets(
        &mut self,
        position: impl Fn(usize) -> Vec3,
        normal: Option<&dyn Fn(usize) -> Vec3>,
    ) {
        for k in 0..self.next.len() {
            let n = normal.map_or(self.next[k][1], |f| f(k).normalize_or_zero());
            self.next[k] = [position(k), n];
        }
        if !self.has_targets {
            self.previous.copy_from_slice(&self.next);
            self.has_targets = true;
        }
    }

    /// Puts the body's particles on their (new) targets, at rest, and forgets the
    /// previous frame.
    pub(crate) fn teleport(&mut self, particles: &mut Particles) {
        self.previous.copy_from_slice(&self.next);
        if let Some(r) = &mut self.root {
            r.previous = r.next;
        }
        for (k, i) in self.particles.clone().enumerate() {
            let i = i as usize;
            if particles.hot[i].w == 0.0 {
                continue;
            }
            particles.set_position(i, self.next[k][0]);
            particles.step_start[i] = self.next[k][0];
            particles.velocity[i] = Vec3::ZERO;
        }
    }
}

impl Skinning {
    /// Snapshot: every skinned body (body, particles, weights, the two target frames,
    /// the root); the drive λ and the substep's interpolation are per-substep scratch.
    pub(crate) fn save(&self, w: &mut crate::snapshot::codec::Writer<'_>) {
        w.put_len(self.bodies.len());
        for b in &self.bodies {
            w.put(b.body.0 & crate::slots::ID_WITHOUT_SERIAL);
            w.put((b.particles.start, b.particles.end));
            for s in &b.weights {
                w.put((
                    s.max_distance,
                    s.backstop_radius,
                    s.backstop_distance,
                    s.drive_compliance,
                ));
            }
            w.put_raw(&b.previous);
            w.put_raw(&b.next);
            w.put(b.has_targets);
            w.put(b.root.is_some());
            if let Some(root) = &b.root {
                for t in [&root.previous, &root.next] {
                    w.put((t.position, t.rotation));
                }
                w.put((root.linear_inertia, root.angular_inertia));
            }
        }
    }

    /// Snapshot: what [`Self::save`] wrote, over `particles` particles; body ids are
    /// completed and checked by `live`.
    pub(crate) fn load(
        r: &mut crate::snapshot::codec::Reader<'_>,
        particles: usize,
        live: &dyn Fn(u64) -> Option<BodyId>,
    ) -> Result<Skinning> {
        use crate::snapshot::codec::{self, corrupt};
        let n = r.get_count(22, "skinned bodies")?;
        let mut bodies = try_with_capacity(n, "skinned bodies")?;
        for k in 0..n {
            let body = live(r.get::<u64>()?)
                .ok_or_else(|| corrupt(format!("skinned body {k} names no body")))?;
            let (a, b) = r.get::<(u32, u32)>()?;
            codec::ensure(a <= b && b as usize <= particles, || {
                format!("skinned body {k} has the particles {a}..{b} of {particles}")
            })?;
            let m = (b - a) as usize;
            let mut weights = try_with_capacity(m, "skin weights")?;
            for i in 0..m {
                let (max_distance, backstop_radius, backstop_distance, drive_compliance) =
                    r.get()?;
                let s = SkinWeights {
                    max_distance,
                    backstop_radius,
                    backstop_distance,
                    drive_compliance,
                };
                s.check(i).map_err(|e| corrupt(e.message))?;
                weights.push(s);
            }
            let previous: Vec<[Vec3; 2]> = r.get_raw(m)?;
            let next: Vec<[Vec3; 2]> = r.get_raw(m)?;
            codec::check_finite(
                previous
                    .iter()
                    .chain(&next)
                    .flatten()
                    .flat_map(|v| v.to_array()),
                "skin targets",
            )?;
            let has_targets = r.get::<bool>()?;
            let root = if r.get::<bool>()? {
                let mut transform = || -> Result<Transform> {
                    let (position, rotation): (Vec3, Quat) = r.get()?;
                    codec::check_finite(
                        position.to_array().into_iter().chain(rotation.to_array()),
                        "skin root",
                    )?;
                    Ok(Transform { position, rotation })
                };
                let t = [transform()?, transform()?];
                let (linear_inertia, angular_inertia): (f32, f32) = r.get()?;
                codec::ensure(
                    (0.0..=1.0).contains(&linear_inertia) && (0.0..=1.0).contains(&angular_inertia),
                    || format!("skinned body {k} has inertia fractions outside [0, 1]"),
                )?;
                Some(SkinRoot {
                    previous: t[0],
                    next: t[1],
                    linear_inertia,
                    angular_inertia,
                })
            } else {
                None
            };
            bodies.push(SkinnedBody {
                body,
                particles: a..b,
                weights,
                previous,
                next,
                has_targets,
                root,
                lambda: zeroed(m, Vec3::ZERO, "skin drive")?,
            });
        }
        Ok(Skinning { bodies, a: 0.0 })
    }
}

impl Skinning {
    /// Gives every skinned body's id the world serial of `ids` (after a restore).
    pub(crate) fn reserial(&mut self, ids: crate::slots::WorldIds) {
        for b in &mut self.bodies {
            b.body = crate::bodies::BodyId(ids.complete(b.body.0));
        }
    }
}

/// The skinning stage: targets interpolated and the root's carry at the start of
/// every substep (before the predict), the anim drive, backstop and max distance in
/// every iteration, the new targets kept at the end of the step.
impl Stage for Skinning {
    fn begin_substep(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        if !self.bodies.is_empty() {
            Skinning::begin_substep(self, particles, cx.substep, cx.substeps);
        }
    }

    fn project(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        if !self.bodies.is_empty() {
            Skinning::project(self, particles, cx.inv_h2);
        }
    }

    fn end_step(&mut self, _particles: &mut Particles, _cx: &StepContext<'_>) {
        Skinning::end_step(self);
    }

    fn moves_particles_between_substeps(&self) -> bool {
        !self.bodies.is_empty()
    }
}
