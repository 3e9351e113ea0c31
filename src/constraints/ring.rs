//! 2D: the area enclosed by a closed ring of particles (the soft bodies of Matsuoka, "Soft bodies and fluids with Position Based Dynamics" (2025)), and
//! the planar flag that keeps a world's motion in the XY plane.
//!
//! Ring area (a polygon x_0 … x_{n−1}, counter-clockwise seen from +z):
//! `A = ½ Σ_i (r_i × r_{i+1})·z` with `r_i = x_i − x_0`;
//! `C(x) = A − k·A0` (k = overpressure factor, A0 the rest area, m²);
//! `∇_i C = ½ (y_{i+1} − y_{i−1}, x_{i−1} − x_{i+1}, 0)`. One λ per ring; compliance
//! in m³/N (|λ|/h² is a line pressure in N/m). Rings are projected one after another.

use super::nary::apply_shared_lambda;
use super::set::{force_of_lambda, single_lambda_set, FamilyKind};
use crate::error::{try_reserve, try_with_capacity, Error, Result};
use crate::math::Vec3;
use crate::particles::{separation, Particles};
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;

struct Ring {
    particles: Vec<u32>,
    /// m²
    rest_area: f32,
    pressure: f32,
    /// m³/N; negative once removed.
    compliance: f32,
    lambda: f32,
    /// Scratch (no allocation in the step): gradient and relative positions.
    gradient: Vec<Vec3>,
    points: Vec<Vec3>,
}

/// Enclosed-area constraints of closed rings in the XY plane.
#[derive(Default)]
pub struct RingAreas {
    rings: Vec<Ring>,
}

fn area(rel: impl Fn(usize) -> Vec3, n: usize) -> f32 {
    let mut a = 0.0f64;
    for i in 0..n {
        let (p, q) = (rel(i), rel((i + 1) % n));
        a += (p.x as f64) * (q.y as f64) - (q.x as f64) * (p.y as f64);
    }
    (0.5 * a) as f32
}

fn rel_of<'a>(particles: &'a Particles, ring: &'a [u32]) -> impl Fn(usize) -> Vec3 + 'a {
    let i0 = ring[0] as usize;
    move |i: usize| {
        let p = ring[i] as usize;
        separation(
            particles.base[p],
            particles.base[i0],
            particles.hot[p],
            particles.hot[i0],
        )
    }
}

impl RingAreas {
    /// Number of rings (removed ones included).
    pub fn len(&self) -> usize {
        self.rings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rings.is_empty()
    }

    /// Checks and adds a ring; returns its id.
    pub(crate) fn add(
        &mut self,
        particles: &Particles,
        ring: &[u32],
        pressure: f32,
        compliance: f32,
    ) -> Result<u32> {
        let n = particles.len();
        if ring.len() < 3 {
            return Err(Error::invalid(format!(
                "a ring needs at least 3 particles, got {}",
                ring.len()
            )));
        }
        for (k, &p) in ring.iter().enumerate() {
            if p as usize >= n {
                return Err(Error::out_of_range(format!(
                    "ring particle {k}: index {p} is out of range (the world has {n} particles)"
                )));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (k, &p) in ring.iter().enumerate() {
            if !seen.insert(p) {
                return Err(Error::invalid(format!(
                    "ring particle {k}: particle {p} appears twice in the ring"
                )));
            }
        }
        let a = area(rel_of(particles, ring), ring.len());
        if a.is_nan() || a <= 0.0 {
            return Err(Error::invalid(format!(
                "the ring encloses area {a} m² in the XY plane: it must be positive \
                 (particles counter-clockwise seen from +z)"
            )));
        }
        let mut list = try_with_capacity::<u32>(ring.len(), "ring")?;
        list.extend_from_slice(ring);
        let mut gradient = try_with_capacity::<Vec3>(ring.len(), "ring gradient")?;
        gradient.resize(ring.len(), Vec3::ZERO);
        let mut points = try_with_capacity::<Vec3>(ring.len(), "ring points")?;
        points.resize(ring.len(), Vec3::ZERO);
        try_reserve(&mut self.rings, 1, "rings")?;
        self.rings.push(Ring {
            particles: list,
            rest_area: a,
            pressure,
            compliance,
            lambda: 0.0,
            gradient,
            points,
        });
        Ok(self.rings.len() as u32 - 1)
    }

    /// Current enclosed area (m²) of ring `id`.
    pub fn area(&self, particles: &Particles, id: usize) -> f32 {
        let r = &self.rings[id];
        area(rel_of(particles, &r.particles), r.particles.len())
    }

    /// Rest area A0 (m²) of ring `id`.
    pub fn rest_area(&self, id: usize) -> f32 {
        self.rings[id].rest_area
    }

    /// |λ|/h² (N/m) of ring `id` in the last substep.
    pub fn force(&self, id: usize, h: f32) -> f32 {
        force_of_lambda(self.rings[id].lambda, h)
    }

    /// What the editable rest value is: the rest area A0 (the target is k A0).
    pub(crate) const REST_UNIT: &'static str = "rest area (m²)";
    /// Unit of the compliance.
    pub(crate) const COMPLIANCE_UNIT: &'static str = "m³/N";

    /// Whether ring `id` was removed.
    pub fn is_removed(&self, id: usize) -> bool {
        self.rings[id].compliance < 0.0
    }

    /// The particles of ring `id`.
    pub(crate) fn particle_list(&self, id: usize) -> &[u32] {
        &self.rings[id].particles
    }

    /// The editable rest value of ring `id`: A0 (m²).
    pub(crate) fn rest_value(&self, id: usize) -> f32 {
        self.rest_area(id)
    }

    /// Checks a rest area A0: finite, in (0, MAX_AREA] m².
    pub(crate) fn check_rest_value(what: &str, v: f32) -> Result<()> {
        crate::limits::check_measure(what, v, crate::limits::MAX_AREA, "m²", true)
    }

    /// Sets the rest area A0 (m², checked) of ring `id`.
    pub(crate) fn set_rest_value(&mut self, id: usize, v: f32) {
        self.rings[id].rest_area = v;
    }

    /// Sets the compliance (m³/N, checked) of live ring `id`.
    pub(crate) fn set_compliance(&mut self, id: usize, compliance: f32) {
        let r = &mut self.rings[id];
        if r.compliance >= 0.0 {
            r.compliance = compliance;
        }
    }

    pub(crate) fn remove(&mut self, id: usize) {
        let r = &mut self.rings[id];
        r.compliance = -1.0;
        r.lambda = 0.0;
    }

    pub(crate) fn reset_lambda(&mut self) {
        for r in &mut self.rings {
            r.lambda = 0.0;
        }
    }

    /// Projects every ring once.
    pub(crate) fn solve(&mut self, particles: &mut Particles, inv_h2: f32) {
        for ring in &mut self.rings {
            if ring.compliance < 0.0 {
                continue;
            }
            let n = ring.particles.len();
            let (c, denom_w) = {
                let rel = rel_of(particles, &ring.particles);
                for (i, p) in ring.points.iter_mut().enumerate() {
                    *p = rel(i);
                }
                let pts = &ring.points;
                for i in 0..n {
                    let next = pts[(i + 1) % n];
                    let prev = pts[(i + n - 1) % n];
                    ring.gradient[i] = Vec3::new(next.y - prev.y, prev.x - next.x, 0.0) * 0.5;
                }
                let a = area(|i| pts[i], n);
                let mut d = 0.0;
                for (g, &p) in ring.gradient.iter().zip(&ring.particles) {
                    d += particles.hot[p as usize].w * g.length_squared();
                }
                (a - ring.pressure * ring.rest_area, d)
            };
            let alpha_tilde = ring.compliance * inv_h2;
            apply_shared_lambda(
                particles,
                &ring.particles,
                &ring.gradient,
                c,
                alpha_tilde,
                denom_w + alpha_tilde,
                &mut ring.lambda,
            );
        }
    }
}

single_lambda_set!(RingAreas, FamilyKind::RingArea);

impl RingAreas {
    /// Snapshot: every ring (its scratch is rebuilt).
    pub(crate) fn save_snapshot(&self, w: &mut Writer<'_>) {
        w.put_len(self.rings.len());
        for r in &self.rings {
            w.put_slice(&r.particles);
            w.put(r.rest_area);
            w.put(r.pressure);
            w.put(r.compliance);
            w.put(r.lambda);
        }
    }

    /// Snapshot: the rings [`Self::save_snapshot`] wrote.
    pub(crate) fn load_snapshot(r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<Self> {
        let n = r.get_count(24, "rings")?;
        let mut rings = try_with_capacity(n, "rings")?;
        for k in 0..n {
            let particles = r.get_vec::<u32>()?;
            codec::ensure(particles.len() >= 3, || {
                format!("ring {k} has fewer than 3 particles")
            })?;
            codec::check_list(&particles, cx.hot.len(), "ring particle")?;
            let m = particles.len();
            let mut gradient = try_with_capacity::<Vec3>(m, "ring gradient")?;
            gradient.resize(m, Vec3::ZERO);
            let mut points = try_with_capacity::<Vec3>(m, "ring points")?;
            points.resize(m, Vec3::ZERO);
            rings.push(Ring {
                particles,
                rest_area: r.get()?,
                pressure: r.get()?,
                compliance: r.get()?,
                lambda: r.get()?,
                gradient,
                points,
            });
        }
        Ok(RingAreas { rings })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ∇A against central differences for an irregular pentagon.
    #[test]
    fn ring_area_gradient_matches_finite_differences() {
        let pts = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.1, 0.0),
            Vec3::new(1.3, 0.9, 0.0),
            Vec3::new(0.4, 1.4, 0.0),
            Vec3::new(-0.3, 0.7, 0.0),
        ];
        let mut p = Particles::default();
        p.reserve(5).unwrap();
        for &x in &pts {
            p.push(x, 1.0);
        }
        let mut rings = RingAreas::default();
        rings.add(&p, &[0, 1, 2, 3, 4], 1.0, 0.0).unwrap();
        let n = 5;
        let grad: Vec<Vec3> = (0..n)
            .map(|i| {
                let (next, prev) = (pts[(i + 1) % n], pts[(i + n - 1) % n]);
                Vec3::new(next.y - prev.y, prev.x - next.x, 0.0) * 0.5
            })
            .collect();
        let eps = 1e-3f32;
        for i in 0..n {
            for axis in 0..2 {
                let mut plus = pts;
                let mut minus = pts;
                plus[i][axis] += eps;
                minus[i][axis] -= eps;
                let numeric = (area(|k| plus[k], n) - area(|k| minus[k], n)) / (2.0 * eps);
                assert!(
                    (numeric - grad[i][axis]).abs() < 1e-3,
                    "dA/dx{i}[{axis}]: {} vs {numeric}",
                    grad[i][axis]
                );
            }
        }
        // Shoelace area of the pentagon.
        assert!((rings.area(&p, 0) - area(|k| pts[k], n)).abs() < 1e-6);
        assert!(
            rings.add(&p, &[0, 4, 3, 2, 1], 1.0, 0.0).is_err(),
            "clockwise ring"
        );
    }
}
