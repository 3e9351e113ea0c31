//! The step pipeline (DESIGN.md, "The step"):
//!
//! ```text
//! for each substep (h = dt / substeps):
//!   predict            rebase; v += h g;  x += h v    (pinned particles stay put)
//!   for each iteration:
//!     project          distance constraints, Gauss-Seidel by colour or Jacobi,
//!                      then every other family and the attachments (ConstraintSets)
//!     collisions       grabs, particle contacts, collider contacts + friction
//!   update velocities  v = (x - x_prev) / h, then v *= exp(-damping h), body damping
//!   restitution        against colliders (crate::collision)
//! ```

pub(crate) mod colouring;
pub(crate) mod jacobi;
pub(crate) mod parallel;
pub(crate) mod schedule;

use crate::collision::Collision;
use crate::constraints::{ConstraintSets, DistanceConstraints};
use crate::math::{two_sum3, Vec3, Vec3A};
use crate::particles::Particles;
use parallel::{DisjointSlice, Executor};

/// Which iterative scheme projects the constraints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Solver {
    /// Constraints one after another (by colour, in parallel within a colour); fast
    /// convergence. The default.
    ///
    /// Momentum: every constraint's gradient is translation- and rotation-invariant,
    /// so each projection conserves linear and angular momentum about the positions it
    /// sees. A sweep applies them in turn, which conserves linear momentum but adds
    /// `−Σ_{j<k} m Δx_j × Δx_k / h` of angular momentum: second order in the
    /// corrections, so negligible for the small corrections of a running simulation,
    /// but a body released from a large deformation with rigid constraints (a tet cube
    /// squashed by 30%) starts to spin (|L| / Σ m|r||v| ≈ 0.4 with edges and volume,
    /// 0.8 with strain, in proportion to the squash and independent of the substep
    /// count). Jacobi projects from one set of positions and gains about 1% there.
    /// Compliant materials shrink it with more substeps (edges and volume at α = 1e-2:
    /// 0.025, 0.007, 0.004 at 8, 32, 128 substeps), as a second-order term should.
    /// Alternating the colour and family order every substep or iteration was
    /// measured: it lowers the first step's value for edges and volume (0.41 → 0.07)
    /// but not the following steps' nor the strain model's, so the order is kept
    /// (tests/accepted_ranges.rs, `free_tet_cube_…`).
    #[default]
    GaussSeidel,
    /// All constraints from the same positions, corrections averaged per particle and
    /// scaled by the relaxation factor; slower convergence, order-independent.
    Jacobi,
}

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
    distance: &mut DistanceConstraints,
    sets: &mut ConstraintSets,
    collision: &mut Collision,
    p: &StepParams,
    exec: &Executor,
) {
    let inv_h2 = 1.0 / (p.h * p.h);
    for s in 0..p.substeps {
        predict(particles, p.gravity, p.h, exec);
        if p.solver == Solver::Jacobi {
            distance.reset_lambda(); // Gauss-Seidel's first sweep starts λ from 0 itself
        }
        sets.begin_substep(s, p.substeps);
        collision.begin_substep(particles, s, p.substeps, p.h, exec);
        for it in 0..p.iterations {
            match p.solver {
                Solver::GaussSeidel => {
                    distance.solve_gauss_seidel(particles, inv_h2, it == 0, exec)
                }
                Solver::Jacobi => distance.solve_jacobi(particles, inv_h2, p.relaxation, exec),
            }
            sets.project(particles, inv_h2, p.solver, p.relaxation, exec);
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
