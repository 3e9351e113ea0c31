//! Interaction: ray picking and grabbing particles (mouse drag, as in Sakai, "XPBD and small-step XPBD in Unity" (2022)).
//!
//! * **Pick**: the particle nearest to the ray origin among those whose centre lies
//!   within `radius + particle radius` of the ray `origin + t·direction`, t ≥ 0;
//!   returns its index and t (m, the distance along the ray).
//! * **Grab**: an XPBD attachment of one particle to a target point the host moves,
//!   `C(x) = |x − target|`, `∇C = (x − target)/|x − target|`, compliance α (m/N):
//!   `Δλ = (−C − α̃ λ)/(w + α̃)`, `α̃ = α/h²`, `x += w ∇C Δλ` (Macklin et al. 2016,
//!   eq. 17–18), λ reset every substep. A pinned particle cannot be grabbed.

use crate::error::{try_reserve, try_with_capacity, Error, Result};
use crate::math::{Vec3, Vec3A};
use crate::particles::{Particles, MAX_COORDINATE};
use crate::snapshot::codec::{self, Reader, Writer};

pub use crate::limits::MAX_GRAB_COMPLIANCE;

#[derive(Clone, Copy, Debug)]
struct Grab {
    particle: u32,
    /// World position (m).
    target: Vec3,
    /// m/N
    compliance: f32,
    lambda: f32,
}

/// The grabs of a world (few: one per pointer), solved serially.
#[derive(Default)]
pub(crate) struct Grabs {
    list: Vec<Grab>,
}

pub(crate) fn check_point(what: &str, p: Vec3) -> Result<()> {
    if !p.is_finite() || p.abs().max_element() > MAX_COORDINATE {
        return Err(Error::invalid(format!(
            "{what} {p} must be finite with components within ±{MAX_COORDINATE} m"
        )));
    }
    Ok(())
}

/// Picks the particle nearest along the ray (see the module doc). `direction` need not
/// be unit length but must be finite and non-zero; `radius` (m) finite and >= 0.
pub fn pick(
    particles: &Particles,
    origin: Vec3,
    direction: Vec3,
    radius: f32,
) -> Result<Option<(u32, f32)>> {
    check_point("ray origin", origin)?;
    let len = direction.length();
    if !(direction.is_finite() && len > 1.0e-12 && len.is_finite()) {
        return Err(Error::invalid(format!(
            "ray direction {direction} must be finite and non-zero"
        )));
    }
    crate::limits::check_length("pick radius", radius, false)?;
    let dir = direction / len;
    let mut best: Option<(u32, f32)> = None;
    for i in 0..particles.len() {
        let rel = particles.position(i) - origin;
        let t = rel.dot(dir);
        if t < 0.0 {
            continue;
        }
        let reach = radius + particles.radius[i];
        if (rel - dir * t).length_squared() > reach * reach {
            continue;
        }
        if best.is_none_or(|(_, bt)| t < bt) {
            best = Some((i as u32, t));
        }
    }
    Ok(best)
}

impl Grabs {
    /// The grabbed particles (sleep: a grabbed island stays awake).
    pub(crate) fn particles(&self) -> impl Iterator<Item = u32> + '_ {
        self.list.iter().map(|g| g.particle)
    }

    fn find(&self, particle: u32) -> Option<usize> {
        self.list.iter().position(|g| g.particle == particle)
    }

    /// Attaches `particle` to `target` (m) with `compliance` (m/N); grabbing a grabbed
    /// particle again replaces its target and compliance.
    pub(crate) fn grab(
        &mut self,
        particles: &Particles,
        particle: u32,
        target: Vec3,
        compliance: f32,
    ) -> Result<()> {
        if particle as usize >= particles.len() {
            return Err(Error::out_of_range(format!(
                "particle {particle} is out of range (the world has {} particles)",
                particles.len()
            )));
        }
        if particles.inverse_mass(particle as usize) == 0.0 {
            return Err(Error::invalid(format!(
                "particle {particle} is pinned (inverse mass 0) and cannot be grabbed"
            )));
        }
        check_point("grab target", target)?;
        if !(compliance.is_finite() && (0.0..=MAX_GRAB_COMPLIANCE).contains(&compliance)) {
            return Err(Error::invalid(format!(
                "grab compliance {compliance} must be finite and in [0, {MAX_GRAB_COMPLIANCE}] m/N"
            )));
        }
        let g = Grab {
            particle,
            target,
            compliance,
            lambda: 0.0,
        };
        match self.find(particle) {
            Some(k) => self.list[k] = g,
            None => {
                try_reserve(&mut self.list, 1, "grabs")?;
                self.list.push(g);
            }
        }
        Ok(())
    }

    /// Moves the target of the grab on `particle` (m).
    pub(crate) fn move_target(&mut self, particle: u32, target: Vec3) -> Result<()> {
        check_point("grab target", target)?;
        let k = self.find(particle).ok_or_else(|| not_grabbed(particle))?;
        self.list[k].target = target;
        Ok(())
    }

    /// Releases the grab on `particle`.
    pub(crate) fn release(&mut self, particle: u32) -> Result<()> {
        let k = self.find(particle).ok_or_else(|| not_grabbed(particle))?;
        self.list.remove(k);
        Ok(())
    }

    /// Whether `particle` is grabbed.
    pub(crate) fn is_grabbed(&self, particle: u32) -> bool {
        self.find(particle).is_some()
    }

    /// Fails unless every particle of `ids` is grabbed.
    pub(crate) fn check_grabbed(&self, ids: std::ops::Range<u32>) -> Result<()> {
        for p in ids {
            if self.find(p).is_none() {
                return Err(Error::invalid(format!(
                    "grab {p} does not exist: particle {p} is not grabbed (a grab's id is \
                     its particle's index)"
                )));
            }
        }
        Ok(())
    }

    /// Sets the compliance (m/N) of the grabs on `ids` (every one grabbed, checked by
    /// the caller).
    pub(crate) fn set_compliance(&mut self, ids: std::ops::Range<u32>, compliance: f32) {
        for g in &mut self.list {
            if ids.contains(&g.particle) {
                g.compliance = compliance;
            }
        }
    }

    /// |λ|/h² of the grab on `particle` in the last substep (N), 0 when not grabbed.
    pub(crate) fn force(&self, particle: u32, h: f32) -> f32 {
        match self.find(particle) {
            Some(k) if h > 0.0 => {
                crate::limits::saturate_force(self.list[k].lambda.abs() / (h * h))
            }
            _ => 0.0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    pub(crate) fn reset_lambda(&mut self) {
        for g in &mut self.list {
            g.lambda = 0.0;
        }
    }

    pub(crate) fn project(&mut self, particles: &mut Particles, h: f32) {
        let alpha_scale = 1.0 / (h * h);
        for g in &mut self.list {
            let i = g.particle as usize;
            let p = particles.hot[i];
            if p.w == 0.0 {
                continue;
            }
            // x − target without forming the absolute position in hot.
            let sep = Vec3::from(particles.base[i] - Vec3A::from(g.target)) + p.truncate();
            let c = sep.length();
            if c <= 1.0e-9 {
                continue;
            }
            let alpha = g.compliance * alpha_scale;
            let dl = (-c - alpha * g.lambda) / (p.w + alpha);
            g.lambda += dl;
            let d = p.truncate() + sep * (p.w * dl / c);
            particles.hot[i] = d.extend(p.w);
        }
    }
}

fn not_grabbed(particle: u32) -> Error {
    Error::invalid(format!("particle {particle} is not grabbed"))
}

impl Grabs {
    /// Snapshot: every grab with its target.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        w.put_len(self.list.len());
        for g in &self.list {
            w.put((g.particle, g.target, g.compliance, g.lambda));
        }
    }

    /// Snapshot: the grabs [`Self::save`] wrote.
    pub(crate) fn load(r: &mut Reader<'_>, particles: usize) -> Result<Grabs> {
        let n = r.get_count(24, "grabs")?;
        let mut list = try_with_capacity(n, "grabs")?;
        for _ in 0..n {
            let (particle, target, compliance, lambda) = r.get::<(u32, Vec3, f32, f32)>()?;
            codec::ensure((particle as usize) < particles, || {
                format!("a grab names particle {particle} of {particles}")
            })?;
            codec::check_finite(target.to_array(), "grab target")?;
            list.push(Grab {
                particle,
                target,
                compliance,
                lambda,
            });
        }
        Ok(Grabs { list })
    }
}
