//! The step pipeline (ARCHITECTURE.md, "The step"):
//!
//! ```text
//! for each substep (h = dt / substeps):
//!   aerodynamics       drag and lift impulses on cloth and ropes (crate::aero)
//!   skinning           targets interpolated, the carry by the root (crate::skinning)
//!   predict            rebase; v += h g;  x += h v    (pinned particles stay put)
//!   for each iteration:
//!     project          every constraint set in registry order (distance first,
//!                      attachments last), Gauss-Seidel by colour or Jacobi
//!                      (ConstraintSets)
//!     skinning         anim drive, backstop, max distance (crate::skinning)
//!     collisions       grabs, particle contacts, collider contacts + friction
//!   update velocities  v = (x - x_prev) / h, then v *= exp(-damping h), body damping
//!   restitution        against colliders (crate::collision)
//! ```

use crate::aero::Aero;
use crate::collision::Collision;
use crate::constraints::{ConstraintSets, Iteration};
use crate::math::{two_sum3, Vec3, Vec3A};
use crate::particles::Particles;
use crate::skinning::Skinning;
use crate::solver::parallel::{DisjointSlice, Executor};
use crate::solver::Solver;

/// Parameters of one step that do not change within it.
pub(crate) struct StepParams {
    /// m/s²
    pub gravity: Vec3,
    /// Substep length, s.
    pub h: f32,
    pub substeps: u32,
    /// Per substep.
    pub iterations: u32,
    pub solver: Solver,
    /// Jacobi relaxation ω, dimensionless.
    pub relaxation: f32,
    /// Velocity factor per substep, exp(-damping * h).
    pub damping_factor: f32,
}

/// Advances particles and constraints by `substeps` substeps of length `h`.
pub(crate) fn step(
    particles: &mut Particles,
    sets: &mut ConstraintSets,
    collision: &mut Collision,
    aero: &mut Aero,
    skin: &mut Skinning,
    p: &StepParams,
    exec: &Executor,
) {
    let inv_h2 = 1.0 / (p.h * p.h);
    let (aero_on, t0) = (aero.any_active(), aero.time);
    let skin_on = !skin.bodies.is_empty();
    for s in 0..p.substeps {
        if aero_on {
            aero.apply(particles, p.h, t0 + s as f64 * p.h as f64);
        }
        if skin_on {
            skin.begin_substep(particles, s, p.substeps);
        }
        predict(particles, p.gravity, p.h, exec);
        sets.begin_substep(s, p.substeps, p.solver);
        collision.begin_substep(particles, s, p.substeps, p.h, exec);
        for it in 0..p.iterations {
            let iteration = Iteration {
                inv_h2,
                solver: p.solver,
                relaxation: p.relaxation,
                first: it == 0,
                exec,
            };
            sets.project(particles, &iteration);
            if skin_on {
                skin.project(particles, inv_h2);
            }
            collision.project(particles, p.h, exec);
        }
        update_velocities(particles, p.h, p.damping_factor, exec);
        sets.end_substep(particles, p.h);
        collision.end_substep(particles, p.h, p.gravity, exec);
    }
    sets.end_step();
}

/// Rebases, then predicts with symplectic Euler (pinned particles stay put):
///
/// * `(base, d) = two_sum(base, d)`: what fits of the displacement moves into the base
///   position, exactly (`base + d` is the same real number, `d` is at most half an ulp
///   of `base`);
/// * `v' = v + h g`, `d += h v'`;
/// * the velocity slot keeps `u = v' − d / h` for [`update_velocities`].
fn predict(particles: &mut Particles, gravity: Vec3, h: f32, exec: &Executor) {
    let n = particles.len();
    let hot = DisjointSlice::new(&mut particles.hot);
    let base = DisjointSlice::new(&mut particles.base);
    let vel = DisjointSlice::new(&mut particles.velocity);
    // SIMD vectors (Vec3A) inside; the arrays keep their compact layouts.
    let (dv, inv_h) = (Vec3A::from(gravity * h), 1.0 / h);
    exec.for_ranges_light(n, |r| {
        for i in r {
            // SAFETY: each particle index i is visited by exactly one range.
            unsafe {
                let p = hot.get(i);
                if p.w == 0.0 {
                    continue;
                }
                let (b, rest) = two_sum3(base.get(i), Vec3A::from_vec4(p));
                base.set(i, b);
                let v = Vec3A::from(vel.get(i)) + dv;
                let d = rest + v * h;
                hot.set(i, d.extend(p.w));
                vel.set(i, (v - d * inv_h).into());
            }
        }
    });
}

/// v = (x_new − x_prev) / h = u + d / h (see [`predict`]), then damping.
fn update_velocities(particles: &mut Particles, h: f32, damping_factor: f32, exec: &Executor) {
    let n = particles.len();
    let inv_h = 1.0 / h;
    let hot = &particles.hot;
    let vel = DisjointSlice::new(&mut particles.velocity);
    exec.for_ranges_light(n, |r| {
        for i in r {
            let p = hot[i];
            if p.w == 0.0 {
                continue;
            }
            // SAFETY: each particle index i is visited by exactly one range.
            unsafe {
                let v = Vec3A::from(vel.get(i)) + Vec3A::from_vec4(p) * inv_h;
                vel.set(i, (v * damping_factor).into());
            }
        }
    });
}
