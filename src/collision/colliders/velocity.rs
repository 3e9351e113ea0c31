//! The velocity pass of the contacts with dynamic colliders (`dynamics.rs`), after the
//! position solve and the velocity update of a substep.
//!
//! The position solve leaves each contact with the relative normal velocity its
//! corrections made: a particle pushed out of an overlap (one that started the
//! substep inside the body, or that the host's teleport of the body put there)
//! separates at the push's depth over h, and a solve that has not converged (several
//! contacts, few iterations) leaves some approach. Against a kinematic collider the
//! restitution pass sets the relative normal velocity to the target (`max(−e v_n⁻, 0)`,
//! e = 0 for a slow approach) on the particle alone; against a dynamic one the
//! velocity change must be shared with the body, and for every contact of the body at
//! once, since they move it together:
//!
//! ```text
//! contact i: b_i = (n_i, r_i × n_i), particle inverse mass w_i, relative normal
//!            velocity v_i = n_i · (v_p − v_c − ω × r_i), target t_i
//! impulse    λ_i = (t_i − v_i + b_i · ΔV) / w_i          (the particle takes λ_i n_i)
//! body       ΔV = −W Σ b_i λ_i,  W = diag(1/m, I⁻¹)      (its velocity change)
//! so         (W⁻¹ + Σ b_i b_iᵀ / w_i) ΔV = −Σ b_i (t_i − v_i) / w_i
//! ```
//!
//! a 6 × 6 symmetric positive definite system per body (Cholesky, f64), whose solution
//! makes every contact's relative normal velocity its target exactly: the closed form of
//! a combined impact (Newton's law of restitution at every contact), which the
//! per-contact split `λ = (t − v) / (w + N w_c)` of the position solve reaches only
//! when all the contacts' arms push the body the same way (with one contact the two are
//! the same). A contact takes back at most the impulse its position solve gave
//! (`λ_i ≥ −m_i Δn_i / h`: a collider only pushes); a contact held at that bound keeps
//! it and the others are solved again without it (at most [`ROUNDS`] rounds, in
//! particle order). A contact's position-level friction stays within Coulomb's cone of
//! the normal impulse the pass leaves it ([`settle`]): a push the pass takes back gives
//! no friction. The body takes `−Σ λ_i b_i` (`Colliders::exchange_bounces`), so the
//! momentum of particles + body is kept exactly whatever the solve gave.

use glam::{DMat3, DVec3};

use super::passes::{for_touching, Contact, DynamicPart};
use super::Colliders;
use crate::math::Vec3;
use crate::particles::Particles;

/// Rounds of the solve: the first with every contact, each next one without the
/// contacts the last held at their bound (those the last round would hold are clamped
/// alone).
pub(super) const ROUNDS: usize = 4;

/// The velocity pass of one dynamic collider in the current substep: the system's
/// lower triangle and right-hand side while it is gathered, then the body's velocity
/// change.
#[derive(Clone, Debug, Default)]
pub(crate) struct Impact {
    /// `Σ b bᵀ / w` (lower triangle, row-major) and `Σ b (t − v) / w` (plus the held
    /// contacts' `b λ`).
    a: [[f64; 6]; 6],
    r: [f64; 6],
    /// The body's velocity change (m/s) and angular velocity change (rad/s) the
    /// contacts' impulses make; None when the solve failed (a non-finite input): its
    /// contacts then take no velocity impulse.
    pub(super) change: Option<(Vec3, Vec3)>,
}

impl Impact {
    fn clear(&mut self) {
        *self = Impact::default();
    }

    /// Adds a contact with row `b`: a free one (`held` None) with particle mass `m`
    /// and velocity gap `gap = t − v`, or one held at impulse `λ`.
    fn add(&mut self, b: [f64; 6], m: f64, gap: f64, held: Option<f64>) {
        match held {
            Some(l) => {
                for (r, bk) in self.r.iter_mut().zip(b) {
                    *r += bk * l;
                }
            }
            None => {
                for (k, row) in self.a.iter_mut().enumerate() {
                    for (j, x) in row[..=k].iter_mut().enumerate() {
                        *x += b[k] * b[j] * m;
                    }
                }
                for (r, bk) in self.r.iter_mut().zip(b) {
                    *r += bk * gap * m;
                }
            }
        }
    }

    /// Solves `(W⁻¹ + A) x = −r` with the body's mass `mass` (kg) and world inertia
    /// `inertia` (kg·m²).
    fn solve(&mut self, mass: f64, inertia: DMat3) {
        let mut a = self.a;
        for (k, row) in a.iter_mut().enumerate().take(3) {
            row[k] += mass;
        }
        for k in 0..3 {
            for j in 0..=k {
                a[3 + k][3 + j] += inertia.col(j)[k];
            }
        }
        let rhs = self.r.map(|x| -x);
        self.change = cholesky_solve(a, rhs).and_then(|x| {
            let dv = DVec3::new(x[0], x[1], x[2]).as_vec3();
            let dw = DVec3::new(x[3], x[4], x[5]).as_vec3();
            (dv.is_finite() && dw.is_finite()).then_some((dv, dw))
        });
    }
}

/// `x` with `a x = b` for a symmetric positive definite `a` (its lower triangle read);
/// None when a pivot is not positive (or not finite).
fn cholesky_solve(mut a: [[f64; 6]; 6], mut b: [f64; 6]) -> Option<[f64; 6]> {
    for k in 0..6 {
        let d = a[k][k] - (0..k).map(|j| a[k][j] * a[k][j]).sum::<f64>();
        if !(d > 0.0 && d.is_finite()) {
            return None;
        }
        let d = d.sqrt();
        a[k][k] = d;
        for i in k + 1..6 {
            let s = a[i][k] - (0..k).map(|j| a[i][j] * a[k][j]).sum::<f64>();
            a[i][k] = s / d;
        }
    }
    for k in 0..6 {
        b[k] = (b[k] - (0..k).map(|j| a[k][j] * b[j]).sum::<f64>()) / a[k][k];
    }
    for k in (0..6).rev() {
        b[k] = (b[k] - (k + 1..6).map(|j| a[j][k] * b[j]).sum::<f64>()) / a[k][k];
    }
    Some(b)
}

/// The row `b = (n, r × n)` of a contact (f64).
fn row(ct: &Contact, dp: &DynamicPart) -> [f64; 6] {
    let (n, rn) = (ct.normal.as_dvec3(), dp.arm.cross(ct.normal).as_dvec3());
    [n.x, n.y, n.z, rn.x, rn.y, rn.z]
}

/// The velocity impulse (N·s, along the normal) that brings a free dynamic contact of a
/// particle of inverse mass `w` and velocity `v` (after the velocity update, before
/// this pass) to its relative normal velocity `target` (m/s), with the body's velocity
/// change `change` from its solve: `(t − v_n + b · ΔV) / w`.
#[inline]
fn free_impulse(
    ct: &Contact,
    dp: &DynamicPart,
    proxy: &super::dynamics::Proxy,
    (dv, dw): (Vec3, Vec3),
    v: Vec3,
    target: f32,
    w: f32,
) -> f32 {
    let vn = ct.normal.dot(v - proxy.velocity_at(dp.arm));
    let moved = ct.normal.dot(dv) + dp.arm.cross(ct.normal).dot(dw);
    (target - vn + moved) / w
}

/// The velocity pass of a dynamic contact after its body's solve
/// ([`Colliders::solve_impacts`]), for a particle of inverse mass `w` whose velocity
/// the solve read is `v`; `target` (m/s) is the contact's relative normal velocity
/// target and `added` (m/s) the normal velocity its position solve gave the particle.
///
/// The normal impulse λ is [`free_impulse`], or its bound `−added / w` when held
/// there, and never below it (0 when the body's solve failed). The friction impulse of
/// the position solve, `F = m Δx_f / h`, stays within Coulomb's law of the net normal
/// impulse the pass leaves, `N = m added + λ` (less than the position solve's when the
/// pass takes some back): past both `μs N` and `μd N` it is cut to `μd N`, the part
/// cut given back to the particle and the body.
/// The impulse the particle takes waits in `pending` for the body (`−pending`, by
/// `Colliders::exchange_bounces`). Returns the particle's normal velocity change and
/// its tangential one (m/s).
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) fn settle(
    ct: &mut Contact,
    dp: &mut DynamicPart,
    proxy: &super::dynamics::Proxy,
    v: Vec3,
    target: f32,
    w: f32,
    added: f32,
    inv_h: f32,
) -> (f32, Vec3) {
    let Some(change) = proxy.impact.change else {
        return (0.0, Vec3::ZERO);
    };
    let floor = -added / w;
    let lambda = if dp.held {
        floor
    } else {
        free_impulse(ct, dp, proxy, change, v, target, w).max(floor)
    };
    dp.pending = ct.normal * lambda;
    let dv = (w * lambda).max(-added);
    let mass = 1.0 / w;
    let normal = mass * (added + dv);
    let friction = ct.friction_disp.length() * (mass * inv_h);
    if friction <= ct.static_friction * normal || friction <= ct.dynamic_friction * normal {
        return (dv, Vec3::ZERO);
    }
    // The part of the friction correction past μd N, given back.
    let back = ct.friction_disp * (1.0 - ct.dynamic_friction * normal / friction);
    ct.friction_disp -= back;
    dp.pending -= back * (mass * inv_h);
    (dv, -back * inv_h)
}

impl Colliders {
    /// The velocity pass of every dynamic collider (see the module's text): gathers each
    /// body's system from its contacts in particle order, solves it, holds the contacts
    /// whose impulse would pull at their bound and solves again without them. The
    /// restitution pass then gives each particle its impulse ([`settle`]) and the
    /// body the opposite. `threshold` (m/s) is the slowest approach that bounces.
    pub(super) fn solve_impacts(&mut self, particles: &Particles, inv_h: f32, threshold: f32) {
        let n = particles.len();
        let items = self.slots.items_mut();
        let (contacts, count) = (&self.contacts, &self.contact_count);
        let parts = &mut self.dynamic_parts;
        let (hot, vel) = (&particles.hot, &particles.velocity);
        for_touching(count, 0..n, |_, k, at| {
            for dp in &mut parts[at..at + k] {
                dp.held = false;
            }
        });
        for round in 0..ROUNDS {
            for c in items.iter_mut().flatten() {
                if let Some(p) = c.proxy.as_mut() {
                    p.impact.clear();
                }
            }
            for_touching(count, 0..n, |i, k, at| {
                let w = hot[i].w;
                if w == 0.0 {
                    return;
                }
                for (ct, dp) in contacts[at..at + k].iter().zip(&parts[at..at + k]) {
                    if !ct.dynamic || ct.dn_total <= 0.0 {
                        continue;
                    }
                    let Some(c) = items[ct.slot as usize].as_mut() else {
                        continue;
                    };
                    let target = ct.target(c.desc.restitution, threshold);
                    let Some(p) = c.proxy.as_mut() else {
                        continue;
                    };
                    let m = 1.0 / w as f64;
                    let added = ct.dn_total * inv_h;
                    let held = dp.held.then(|| -(added / w) as f64);
                    let vn = ct.normal.dot(vel[i] - p.velocity_at(dp.arm));
                    p.impact.add(row(ct, dp), m, (target - vn) as f64, held);
                }
            });
            for c in items.iter_mut().flatten() {
                if let Some(p) = c.proxy.as_mut() {
                    let (mass, inertia) = p.mass_matrix();
                    p.impact.solve(mass, inertia);
                }
            }
            if round + 1 == ROUNDS {
                break;
            }
            let mut more = false;
            for_touching(count, 0..n, |i, k, at| {
                let w = hot[i].w;
                if w == 0.0 {
                    return;
                }
                for (ct, dp) in contacts[at..at + k].iter().zip(&mut parts[at..at + k]) {
                    if !ct.dynamic || ct.dn_total <= 0.0 || dp.held {
                        continue;
                    }
                    let Some(c) = items[ct.slot as usize].as_ref() else {
                        continue;
                    };
                    let Some(p) = c.proxy.as_deref() else {
                        continue;
                    };
                    let Some(change) = p.impact.change else {
                        continue;
                    };
                    let target = ct.target(c.desc.restitution, threshold);
                    let floor = -(ct.dn_total * inv_h) / w;
                    if free_impulse(ct, dp, p, change, vel[i], target, w) < floor {
                        dp.held = true;
                        more = true;
                    }
                }
            });
            if !more {
                break;
            }
        }
    }
}
