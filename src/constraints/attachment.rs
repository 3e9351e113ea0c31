//! Attachments of particles to host transforms (a host engine's rigid body, a bone, a
//! hand): the host writes each host's transform (position + rotation) once per frame;
//! within a step, substep s of n follows the transform interpolated at t = (s+1)/n
//! between the previous frame's and the new one (position lerp, rotation slerp), so a
//! fast-moving host drags its particles smoothly instead of teleporting them.
//!
//! Constraint (XPBD, a zero-length spring to the moving target, three components):
//! `C(x) = x − t(s)` with `t = p + R·o` (host position p, rotation R, local offset o),
//! `∇C = I`; `Δλ = (−C − α̃ λ) / (w + α̃)`, `Δx = w Δλ`, λ ∈ R³. Compliance α in m/N
//! (0 = a hard pin: the particle lands on its target every iteration). The force the
//! attachment exerts on the particle is λ/h² (N); the equal and opposite force
//! `−λ/h²` acts on the host at the target point, which is what
//! [`Attachments::host_force`] returns, so a host engine can apply it to its own rigid
//! body (two-way coupling). Attachments are projected after every other constraint of
//! an iteration, one after another (also with the Jacobi solver). An attachment on a
//! particle of inverse mass 0 does nothing.

use std::ops::Range;

use super::set::{ConstraintEdit, ConstraintSet, FamilyKind, Iteration, Persist};
use crate::error::{try_reserve, try_with_capacity, Result};
use crate::math::{Vec3, Vec3A};
use crate::particles::Particles;
use crate::snapshot::codec::{self, Plain, Reader, Writer};
use crate::snapshot::LoadContext;
use crate::transform::Transform;

struct Host {
    previous: Transform,
    current: Transform,
    /// This substep's interpolated transform.
    now: Transform,
}

struct Attachment {
    particle: u32,
    host: u32,
    /// m, in the host's frame.
    offset: Vec3,
    /// m/N; negative once removed.
    compliance: f32,
    /// N·s² per component.
    lambda: Vec3,
}

/// Hosts and the attachments that follow them.
#[derive(Default)]
pub struct Attachments {
    hosts: Vec<Host>,
    list: Vec<Attachment>,
}

/// One attachment to add: particle, host, local offset (m), compliance (m/N).
#[derive(Clone, Copy, Debug)]
pub struct NewAttachment {
    pub particle: u32,
    pub host: u32,
    pub offset: Vec3,
    pub compliance: f32,
}

impl Attachments {
    /// Number of hosts.
    pub fn host_count(&self) -> usize {
        self.hosts.len()
    }

    /// Number of attachments (removed ones included: ids never shift).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub(crate) fn add_host(&mut self, t: Transform) -> Result<u32> {
        try_reserve(&mut self.hosts, 1, "attachment hosts")?;
        self.hosts.push(Host {
            previous: t,
            current: t,
            now: t,
        });
        Ok(self.hosts.len() as u32 - 1)
    }

    /// The host's transform (the one the host last wrote).
    pub fn host_transform(&self, host: usize) -> Transform {
        self.hosts[host].current
    }

    /// The particle and the host of attachment `id` (removed ones included).
    pub(crate) fn attached(&self, id: usize) -> (u32, u32) {
        (self.list[id].particle, self.list[id].host)
    }

    /// Sets the transform that `host` reaches at the end of the next step.
    pub(crate) fn set_host_transform(&mut self, host: usize, t: Transform) {
        self.hosts[host].current = t;
    }

    pub(crate) fn push_all(&mut self, new: &[NewAttachment]) -> Result<u32> {
        try_reserve(&mut self.list, new.len(), "attachments")?;
        let first = self.list.len() as u32;
        self.list.extend(new.iter().map(|n| Attachment {
            particle: n.particle,
            host: n.host,
            offset: n.offset,
            compliance: n.compliance,
            lambda: Vec3::ZERO,
        }));
        Ok(first)
    }

    /// Host of attachment `id`.
    pub fn host_of(&self, id: usize) -> u32 {
        self.list[id].host
    }

    /// Force (N) attachment `id` exerted on its host in the last substep of length `h`:
    /// −λ/h² (zero before the first step and once removed), finite: a force longer than
    /// `f32::MAX` (a heavy particle in a tiny substep) keeps its direction at that
    /// length, and a multiplier that is not finite (left by a step whose solve
    /// overflowed and was recovered) reads `f32::MAX` along its infinite components
    /// (+x when it has none), as [`crate::limits::saturate_force`] reads a scalar.
    pub fn host_force(&self, id: usize, h: f32) -> Vec3 {
        if h.is_nan() || h <= 0.0 {
            return Vec3::ZERO;
        }
        let lambda = self.list[id].lambda;
        if !lambda.is_finite() {
            let along = |l: f32| if l.is_infinite() { -l.signum() } else { 0.0 };
            let dir = Vec3::new(along(lambda.x), along(lambda.y), along(lambda.z));
            return dir.try_normalize().unwrap_or(Vec3::X) * f32::MAX;
        }
        // In f64: |λ| <= 3.4e38 over h² >= 1e-18 stays finite there.
        let f = -lambda.as_dvec3() / (h as f64 * h as f64);
        let length = f.length();
        if length <= f32::MAX as f64 {
            f.as_vec3()
        } else {
            (f * (f32::MAX as f64 / length)).as_vec3()
        }
    }

    pub(crate) fn set_compliance(&mut self, id: usize, compliance: f32) {
        let a = &mut self.list[id];
        if a.compliance >= 0.0 {
            a.compliance = compliance;
        }
    }

    /// Removes every attachment on a particle in `particles` (they stop acting).
    pub(crate) fn remove_on_particles(&mut self, particles: std::ops::Range<u32>) {
        for a in &mut self.list {
            if particles.contains(&a.particle) {
                a.compliance = -1.0;
                a.lambda = Vec3::ZERO;
            }
        }
    }

    /// Start of substep `s` of `n`: interpolates the hosts, resets λ.
    pub(crate) fn begin_substep(&mut self, s: u32, n: u32) {
        let t = (s + 1) as f32 / n as f32;
        for h in &mut self.hosts {
            h.now = h.previous.lerp(&h.current, t);
        }
        for a in &mut self.list {
            a.lambda = Vec3::ZERO;
        }
    }

    /// End of a step: the hosts have reached their current transforms.
    pub(crate) fn end_step(&mut self) {
        for h in &mut self.hosts {
            h.previous = h.current;
            h.now = h.current;
        }
    }

    /// The live attachments of the particles `range`: each particle with the position
    /// (m) its host's current transform puts it at (a resuming body's catch-up,
    /// `world::activity`).
    pub(crate) fn targets_in(&self, range: Range<u32>) -> impl Iterator<Item = (u32, Vec3)> + '_ {
        self.list
            .iter()
            .filter(move |a| a.compliance >= 0.0 && range.contains(&a.particle))
            .map(|a| {
                (
                    a.particle,
                    self.hosts[a.host as usize].current.apply(a.offset),
                )
            })
    }

    /// Projects every attachment once.
    pub(crate) fn solve(&mut self, particles: &mut Particles, inv_h2: f32) {
        for a in &mut self.list {
            if a.compliance < 0.0 {
                continue;
            }
            let i = a.particle as usize;
            let w = particles.hot[i].w;
            if w == 0.0 {
                continue;
            }
            let target = self.hosts[a.host as usize].now.apply(a.offset);
            // x − t with the large parts subtracted first (precision far from origin).
            let c =
                Vec3::from(particles.base[i] - Vec3A::from(target)) + particles.hot[i].truncate();
            let alpha_tilde = a.compliance * inv_h2;
            let dl = (-c - a.lambda * alpha_tilde) / (w + alpha_tilde);
            particles.hot[i] += (dl * w).extend(0.0);
            a.lambda += dl;
        }
    }
}

impl ConstraintSet for Attachments {
    fn count(&self) -> usize {
        self.len()
    }

    fn begin_substep(&mut self, s: u32, n: u32, _solver: crate::solver::Solver) {
        Attachments::begin_substep(self, s, n);
    }

    fn project(&mut self, particles: &mut Particles, it: &Iteration<'_>) {
        self.solve(particles, it.inv_h2);
    }

    fn end_step(&mut self) {
        Attachments::end_step(self);
    }
}

impl ConstraintEdit for Attachments {
    /// |λ|/h² (N): the magnitude of [`Attachments::host_force`].
    fn force(&self, id: usize, h: f32) -> f32 {
        crate::limits::saturate_force(self.host_force(id, h).length())
    }

    fn remove(&mut self, ids: std::ops::Range<u32>) {
        for id in ids {
            let a = &mut self.list[id as usize];
            a.compliance = -1.0;
            a.lambda = Vec3::ZERO;
        }
    }

    fn kind(&self) -> Option<FamilyKind> {
        Some(FamilyKind::Attachment)
    }

    fn is_removed(&self, id: usize) -> bool {
        self.list[id].compliance < 0.0
    }

    fn compliance_unit(&self) -> Option<&'static str> {
        Some("m/N")
    }

    fn edit_compliance(&mut self, id: usize, compliance: f32) {
        self.set_compliance(id, compliance);
    }

    fn locate(&self, id: usize, particles: &Particles) -> Option<(u32, Vec3)> {
        let p = self.list[id].particle;
        Some((p, particles.position(p as usize)))
    }
}

impl Persist for Attachments {
    /// The hosts (previous, current and interpolated transforms) and every attachment.
    fn save(&self, w: &mut Writer<'_>) {
        w.put_len(self.hosts.len());
        for h in &self.hosts {
            w.put(h.previous);
            w.put(h.current);
            w.put(h.now);
        }
        w.put_len(self.list.len());
        for a in &self.list {
            w.put(a.particle);
            w.put(a.host);
            w.put(a.offset);
            w.put(a.compliance);
            w.put(a.lambda);
        }
    }

    fn load(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<()> {
        let n = r.get_count(3 * Transform::SIZE, "attachment hosts")?;
        let mut hosts = try_with_capacity(n, "attachment hosts")?;
        for k in 0..n {
            let (previous, current, now): (Transform, Transform, Transform) =
                (r.get()?, r.get()?, r.get()?);
            for t in [&previous, &current, &now] {
                codec::ensure(crate::limits::loadable_pose(t.position, t.rotation), || {
                    format!(
                        "attachment host {k} has the transform ({}, {}): a position within twice \
                         the coordinate range and a unit rotation are needed",
                        t.position, t.rotation
                    )
                })?;
            }
            hosts.push(Host {
                previous,
                current,
                now,
            });
        }
        let n = r.get_count(36, "attachments")?;
        let mut list = try_with_capacity(n, "attachments")?;
        for k in 0..n {
            let a = Attachment {
                particle: r.get()?,
                host: r.get()?,
                offset: r.get()?,
                compliance: r.get()?,
                lambda: r.get()?,
            };
            codec::ensure(
                (a.particle as usize) < cx.hot.len() && (a.host as usize) < hosts.len(),
                || {
                    format!(
                        "attachment {k} names particle {} and host {}",
                        a.particle, a.host
                    )
                },
            )?;
            // What `World::add_attachments` makes: an offset between two points of the
            // coordinate range (at most 2√3 · MAX_COORDINATE long), a compliance it
            // accepts or the removed marker. The multiplier is left as it is: reset at
            // every substep, it only feeds the force readback, which reads a non-finite
            // one as a saturated force (a step put back after a non-finite value keeps
            // its last one).
            let most = 4.0 * crate::limits::MAX_COORDINATE;
            codec::ensure(
                a.offset.is_finite()
                    && a.offset.abs().max_element() <= most
                    && (a.compliance == -1.0
                        || (0.0..=crate::limits::MAX_FAMILY_COMPLIANCE).contains(&a.compliance)),
                || {
                    format!(
                        "attachment {k} has the offset {} and compliance {}",
                        a.offset, a.compliance
                    )
                },
            )?;
            list.push(a);
        }
        *self = Attachments { hosts, list };
        Ok(())
    }
}
