//! Shape matching (Müller, Heidelberger, Teschner, Gross 2005, "Meshless Deformations
//! Based on Shape Matching"): a cluster of particles is pulled towards its rest shape,
//! rotated and translated to best fit the current positions.
//!
//! With masses m_i, rest offsets q_i = x⁰_i − c⁰ from the rest centre of mass c⁰ and
//! the current centre of mass c: `A = Σ m_i (x_i − c) q_iᵀ`, R = the rotation of A
//! (its polar decomposition, found with the quaternion iteration of Müller et al. 2016,
//! "A Robust Method to Extract the Rotational Part of Deformations", warm-started from
//! the last R), goal `g_i = c + R q_i`, and each iteration moves `x_i += k' (g_i − x_i)`
//! with `k' = 1 − (1 − k)^(1/n)` (stiffness k ∈ [0, 1] per substep whatever the
//! iteration count n). This is PBD, not XPBD: k is dimensionless. A pinned particle
//! (inverse mass 0) has infinite mass: it anchors the cluster and is not moved.
//!
//! Plasticity: when the mean distance of the particles from their goals exceeds
//! `yield_distance` (m) at the end of a substep, the rest shape creeps towards the
//! current one (in the cluster's frame) by the fraction `creep` ∈ [0, 1]: a blob that is
//! squashed hard enough stays partly squashed.

use glam::{DMat3, DQuat, DVec3, Mat3, Quat};

use super::set::{
    pbd_per_iteration, ConstraintEdit, ConstraintSet, FamilyKind, Iteration, Persist,
};
use crate::error::{try_reserve, try_with_capacity, Error, Result};
use crate::math::Vec3;
use crate::particles::{separation, Particles};
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;

/// Mass given to pinned particles (kg): effectively infinite.
const PINNED_MASS: f32 = 1.0e20;

struct Cluster {
    particles: Vec<u32>,
    /// Rest offsets from the rest centre of mass (m).
    rest: Vec<Vec3>,
    /// Stiffness k per substep, and its per-iteration value.
    stiffness: f32,
    per_iteration: f32,
    /// m; +inf = elastic.
    yield_distance: f32,
    creep: f32,
    /// Removed: stiffness and creep are 0 and stay so.
    removed: bool,
    rotation: DQuat,
    /// Scratch: current positions relative to particle 0.
    scratch: Vec<Vec3>,
}

/// Shape-matching clusters.
#[derive(Default)]
pub struct ShapeClusters {
    clusters: Vec<Cluster>,
}

/// The rotation of A (polar decomposition), iterating from `q` (in double precision:
/// with small steps the rotation per substep is tiny, and single precision biases it).
pub fn extract_rotation(a: &Mat3, q: Quat, iterations: usize) -> Quat {
    extract_rotation_f64(&a.as_dmat3(), q.as_dquat(), iterations).as_quat()
}

fn extract_rotation_f64(a: &DMat3, mut q: DQuat, iterations: usize) -> DQuat {
    for _ in 0..iterations {
        let r = DMat3::from_quat(q);
        let omega = r.x_axis.cross(a.x_axis) + r.y_axis.cross(a.y_axis) + r.z_axis.cross(a.z_axis);
        let denom = (r.x_axis.dot(a.x_axis) + r.y_axis.dot(a.y_axis) + r.z_axis.dot(a.z_axis))
            .abs()
            + 1.0e-9;
        let omega = omega / denom;
        let w = omega.length();
        // Converged, or a non-finite fit (an extreme state): keep the last rotation,
        // which is stored across substeps and must stay finite.
        if !(w >= 1.0e-15 && w.is_finite()) {
            break;
        }
        q = (DQuat::from_axis_angle(omega / w, w) * q).normalize();
    }
    q
}

fn mass(w: f32) -> f32 {
    if w > 0.0 {
        1.0 / w
    } else {
        PINNED_MASS
    }
}

impl ShapeClusters {
    /// Number of clusters (removed ones included).
    pub fn len(&self) -> usize {
        self.clusters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty()
    }

    /// The particles of cluster `id` (sleep islands: src/world/sleep.rs).
    pub(crate) fn cluster_particles(&self, id: usize) -> &[u32] {
        &self.clusters[id].particles
    }

    /// Adds a cluster over `members` with rest shape = their current positions.
    pub(crate) fn add(
        &mut self,
        particles: &Particles,
        members: &[u32],
        stiffness: f32,
        iterations: u32,
        yield_distance: f32,
        creep: f32,
    ) -> Result<u32> {
        let n = particles.len();
        if members.len() < 2 {
            return Err(Error::invalid(format!(
                "a cluster needs at least 2 particles, got {}",
                members.len()
            )));
        }
        if !(stiffness.is_finite() && (0.0..=1.0).contains(&stiffness)) {
            return Err(Error::invalid(format!(
                "stiffness {stiffness} must be in [0, 1]"
            )));
        }
        if yield_distance.is_nan() || yield_distance < 0.0 {
            return Err(Error::invalid(format!(
                "yield_distance {yield_distance} must be >= 0 (m; +inf = elastic)"
            )));
        }
        if !(creep.is_finite() && (0.0..=1.0).contains(&creep)) {
            return Err(Error::invalid(format!("creep {creep} must be in [0, 1]")));
        }
        let mut seen = std::collections::HashSet::new();
        for (k, &p) in members.iter().enumerate() {
            if p as usize >= n {
                return Err(Error::out_of_range(format!(
                    "cluster particle {k}: index {p} is out of range (the world has {n} particles)"
                )));
            }
            if !seen.insert(p) {
                return Err(Error::invalid(format!(
                    "cluster particle {k}: particle {p} appears twice"
                )));
            }
        }
        let x0 = particles.position(members[0] as usize);
        let rel: Vec<Vec3> = members
            .iter()
            .map(|&p| particles.position(p as usize) - x0)
            .collect();
        let (mut total, mut com) = (0.0f32, Vec3::ZERO);
        for (&p, &r) in members.iter().zip(&rel) {
            let m = mass(particles.inverse_mass(p as usize));
            total += m;
            com += r * m;
        }
        com /= total;
        let mut rest = try_with_capacity::<Vec3>(members.len(), "cluster")?;
        rest.extend(rel.iter().map(|&r| r - com));
        if rest.iter().all(|q| q.length() < 1e-9) {
            return Err(Error::invalid("the cluster's particles all coincide"));
        }
        let mut list = try_with_capacity::<u32>(members.len(), "cluster")?;
        list.extend_from_slice(members);
        let mut scratch = try_with_capacity::<Vec3>(members.len(), "cluster")?;
        scratch.resize(members.len(), Vec3::ZERO);
        try_reserve(&mut self.clusters, 1, "clusters")?;
        self.clusters.push(Cluster {
            particles: list,
            rest,
            stiffness,
            per_iteration: pbd_per_iteration(stiffness, iterations),
            yield_distance,
            creep,
            removed: false,
            rotation: DQuat::IDENTITY,
            scratch,
        });
        Ok(self.clusters.len() as u32 - 1)
    }

    /// Rest offsets (m) of cluster `id` from its rest centre of mass.
    pub fn rest_offsets(&self, id: usize) -> &[Vec3] {
        &self.clusters[id].rest
    }

    /// Sets the stiffness of cluster `id` (already checked) for `iterations`.
    pub(crate) fn set_stiffness(&mut self, id: usize, stiffness: f32, iterations: u32) {
        let c = &mut self.clusters[id];
        if c.removed {
            return;
        }
        c.stiffness = stiffness;
        c.per_iteration = pbd_per_iteration(stiffness, iterations);
    }

    /// Stiffness k of cluster `id`.
    pub fn stiffness(&self, id: usize) -> f32 {
        self.clusters[id].stiffness
    }

    /// Centre of mass (relative to particle 0), filling `scratch` with positions.
    fn fit(c: &mut Cluster, particles: &Particles) -> (Vec3, Mat3) {
        let i0 = c.particles[0] as usize;
        let (b0, h0) = (particles.base[i0], particles.hot[i0]);
        let (mut total, mut com) = (0.0f32, Vec3::ZERO);
        for (k, &p) in c.particles.iter().enumerate() {
            let p = p as usize;
            let r = separation(particles.base[p], b0, particles.hot[p], h0);
            c.scratch[k] = r;
            let m = mass(particles.hot[p].w);
            total += m;
            com += r * m;
        }
        com /= total;
        let mut a = DMat3::ZERO;
        for (k, &p) in c.particles.iter().enumerate() {
            let m = mass(particles.hot[p as usize].w) as f64;
            let d: DVec3 = (c.scratch[k] - com).as_dvec3() * m;
            let q = c.rest[k].as_dvec3();
            a += DMat3::from_cols(d * q.x, d * q.y, d * q.z);
        }
        c.rotation = extract_rotation_f64(&a, c.rotation, 20);
        (com, Mat3::from_quat(c.rotation.as_quat()))
    }

    /// One iteration: every cluster pulls its particles towards their goals.
    pub(crate) fn solve(&mut self, particles: &mut Particles) {
        for c in &mut self.clusters {
            if c.per_iteration == 0.0 {
                continue;
            }
            let (com, r) = Self::fit(c, particles);
            // Σ m R q is 0 in exact arithmetic; removing its rounding keeps the centre
            // of mass from drifting.
            let (mut total, mut bias) = (0.0f32, Vec3::ZERO);
            for (k, &p) in c.particles.iter().enumerate() {
                let m = mass(particles.hot[p as usize].w);
                total += m;
                bias += (r * c.rest[k]) * m;
            }
            let com = com - bias / total;
            for (k, &p) in c.particles.iter().enumerate() {
                let h = &mut particles.hot[p as usize];
                if h.w == 0.0 {
                    continue;
                }
                let goal = com + r * c.rest[k];
                *h += ((goal - c.scratch[k]) * c.per_iteration).extend(0.0);
            }
        }
    }

    /// End of a substep: plastic creep of clusters deformed beyond their yield.
    pub(crate) fn plastic_flow(&mut self, particles: &Particles) {
        for c in &mut self.clusters {
            if c.creep == 0.0 || !c.yield_distance.is_finite() {
                continue;
            }
            let (com, r) = Self::fit(c, particles);
            let n = c.particles.len() as f32;
            let mean: f32 = c
                .rest
                .iter()
                .zip(&c.scratch)
                .map(|(q, x)| (com + r * *q - *x).length())
                .sum::<f32>()
                / n;
            if mean <= c.yield_distance {
                continue;
            }
            let rt = r.transpose();
            for (q, x) in c.rest.iter_mut().zip(&c.scratch) {
                let local = rt * (*x - com);
                *q += (local - *q) * c.creep;
            }
        }
    }
}

impl ConstraintSet for ShapeClusters {
    fn count(&self) -> usize {
        self.len()
    }

    /// Shape matching keeps no λ.
    fn begin_substep(&mut self, _s: u32, _n: u32, _solver: crate::solver::Solver) {}

    fn project(&mut self, particles: &mut Particles, _it: &Iteration<'_>) {
        self.solve(particles);
    }

    fn end_substep(&mut self, particles: &Particles) {
        self.plastic_flow(particles);
    }
}

impl ConstraintEdit for ShapeClusters {
    /// Shape matching is PBD: it has no λ and reports no force.
    fn force(&self, _id: usize, _h: f32) -> f32 {
        0.0
    }

    fn remove(&mut self, ids: std::ops::Range<u32>) {
        for id in ids {
            let c = &mut self.clusters[id as usize];
            c.stiffness = 0.0;
            c.per_iteration = 0.0;
            c.creep = 0.0;
            c.removed = true;
        }
    }

    fn kind(&self) -> Option<FamilyKind> {
        Some(FamilyKind::ShapeCluster)
    }

    fn is_removed(&self, id: usize) -> bool {
        self.clusters[id].removed
    }

    fn check_stiffness_of(&self, _id: usize) -> crate::error::Result<()> {
        Ok(())
    }

    fn edit_stiffness(&mut self, id: usize, stiffness: f32, iterations: u32) {
        self.set_stiffness(id, stiffness, iterations);
    }
}

impl Persist for ShapeClusters {
    /// Every cluster with its rotation, the warm start of the next fit (its scratch is
    /// rebuilt).
    fn save(&self, w: &mut Writer<'_>) {
        w.put_len(self.clusters.len());
        for c in &self.clusters {
            w.put_slice(&c.particles);
            w.put_raw(&c.rest);
            w.put(c.stiffness);
            w.put(c.per_iteration);
            w.put(c.yield_distance);
            w.put(c.creep);
            w.put(c.rotation);
            w.put(c.removed);
        }
    }

    fn load(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> Result<()> {
        let n = r.get_count(56, "shape-matching clusters")?;
        let mut clusters = try_with_capacity(n, "clusters")?;
        for k in 0..n {
            let particles = r.get_vec::<u32>()?;
            let m = particles.len();
            codec::ensure(m >= 2, || format!("cluster {k} has fewer than 2 particles"))?;
            codec::check_list(&particles, cx.hot.len(), "cluster particle")?;
            let mut scratch = try_with_capacity::<Vec3>(m, "cluster")?;
            scratch.resize(m, Vec3::ZERO);
            clusters.push(Cluster {
                particles,
                rest: r.get_raw(m)?,
                stiffness: r.get()?,
                per_iteration: r.get()?,
                yield_distance: r.get()?,
                creep: r.get()?,
                rotation: r.get()?,
                removed: r.get()?,
                scratch,
            });
        }
        *self = ShapeClusters { clusters };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_of_a_rotated_stretched_matrix_is_the_rotation() {
        let q = Quat::from_axis_angle(Vec3::new(1.0, 2.0, -0.5).normalize(), 1.1);
        let s = Mat3::from_diagonal(Vec3::new(1.5, 0.7, 1.2));
        let a = Mat3::from_quat(q) * s;
        let got = extract_rotation(&a, Quat::IDENTITY, 50);
        assert!(got.dot(q).abs() > 1.0 - 1e-6, "{got} vs {q}");
    }
}
