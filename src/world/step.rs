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
use crate::constraints::set::{run_prologue, ParticleChunk};
use crate::constraints::{ConstraintSets, Iteration};
use crate::math::{two_sum3, Vec3, Vec3A, Vec4};
use crate::particles::{position_of, Particles};
use crate::skinning::Skinning;
use crate::solver::parallel::{
    Executor, Rows, PARALLEL_MIN_ITEMS, PARALLEL_MIN_LIGHT_ITEMS, REGION_MIN_WORK,
};
use crate::solver::Solver;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

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

/// What [`step`] found out about finiteness.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Finite {
    /// The last velocity update checked every particle and nothing ran after it that
    /// could change a particle: every position and velocity is finite.
    Checked,
    /// Not (or not conclusively) checked: the caller runs `recovery::check`.
    Unknown,
}

/// Whether nothing changes a particle between the velocity update of one substep and
/// the predict of the next (no per-body damping, 2D plane or winch, no collider
/// restitution, no wind impulses, no skinned targets). Then the two run as one pass
/// over the particles, and the last velocity update doubles as the step's finiteness
/// check. It mirrors `ConstraintSets::end_substep`, `Collision::end_substep`,
/// `Aero::apply` and `Skinning::begin_substep`, which leave the particles alone exactly
/// when these hold.
fn substep_tail_is_idle(
    sets: &ConstraintSets,
    collision: &Collision,
    aero: &Aero,
    skin: &Skinning,
) -> bool {
    !sets.end_substep_moves_particles()
        && collision.colliders.len() == 0
        && !aero.any_active()
        && skin.bodies.is_empty()
}

/// Whether a step of this world runs any pass on more than one thread: its constraint
/// work (the fluids' density constraints counted by their neighbours,
/// `ConstraintSets::fluid_work`) reaches [`REGION_MIN_WORK`] per iteration, its particle passes
/// [`PARALLEL_MIN_LIGHT_ITEMS`], or it has collision passes over at least
/// [`PARALLEL_MIN_ITEMS`] particles. Only then does the step run as one parallel
/// region ([`Executor::region`]); a small world stays on the calling thread.
fn runs_in_parallel(
    particles: &Particles,
    sets: &ConstraintSets,
    collision: &Collision,
    exec: &Executor,
) -> bool {
    let n = particles.len();
    let collides = collision.colliders.len() > 0
        || collision.particles.search.active
        || collision.max_speed > 0.0;
    exec.threads() > 1
        && (sets.projections() >= REGION_MIN_WORK
            || sets.fluid_work() >= REGION_MIN_WORK
            || n >= PARALLEL_MIN_LIGHT_ITEMS
            || (collides && n >= PARALLEL_MIN_ITEMS))
}

/// Advances particles and constraints by `substeps` substeps of length `h`. The first
/// predict also records every particle's start-of-step position in
/// `Particles::step_start` for `recovery::check`.
///
/// A world that uses its threads runs the whole step as one parallel region
/// ([`Executor::region`]): on the pool's first worker, whose passes (predict, every
/// sweep, the velocity update) hand items to the other workers, awake between the
/// passes, instead of waking a worker and putting the calling thread to sleep once per
/// pass.
pub(crate) fn step(
    particles: &mut Particles,
    sets: &mut ConstraintSets,
    collision: &mut Collision,
    aero: &mut Aero,
    skin: &mut Skinning,
    p: &StepParams,
    exec: &Executor,
) -> Finite {
    if runs_in_parallel(particles, sets, collision, exec) {
        exec.region(|| substeps(particles, sets, collision, aero, skin, p, exec))
    } else {
        substeps(particles, sets, collision, aero, skin, p, exec)
    }
}

/// The substeps of [`step`].
fn substeps(
    particles: &mut Particles,
    sets: &mut ConstraintSets,
    collision: &mut Collision,
    aero: &mut Aero,
    skin: &mut Skinning,
    p: &StepParams,
    exec: &Executor,
) -> Finite {
    let inv_h2 = 1.0 / (p.h * p.h);
    let (aero_on, t0) = (aero.any_active(), aero.time);
    let skin_on = !skin.bodies.is_empty();
    let fused = substep_tail_is_idle(sets, collision, aero, skin);
    // Wind impulses and the skinned targets of substep s, before its predict.
    let before_predict =
        |particles: &mut Particles, aero: &mut Aero, skin: &mut Skinning, s: u32| {
            if aero_on {
                aero.apply(particles, p.h, t0 + s as f64 * p.h as f64);
            }
            if skin_on {
                skin.begin_substep(particles, s, p.substeps);
            }
        };
    let work = sets.projections();
    let mut finite = Finite::Unknown;
    // When the fused update-and-predict pass may wait until the first projection of
    // the next substep (nothing before it reads positions or velocities: no speed
    // limit, whose clamp follows the predict), the sets run it inside their first
    // sweep (`ConstraintSets::project`), block by block.
    let defer = fused && collision.max_speed == 0.0 && p.iterations > 0;
    let update_and_predict_pass = update_and_predict_pass(p);
    let mut pending = false;
    before_predict(particles, aero, skin, 0);
    predict::<true>(particles, p.gravity, p.h, exec);
    for s in 0..p.substeps {
        sets.begin_substep(s, p.substeps, p.solver);
        collision.begin_substep(particles, s, p.substeps, p.h, exec);
        for it in 0..p.iterations {
            let iteration = Iteration {
                inv_h2,
                solver: p.solver,
                relaxation: p.relaxation,
                first: it == 0,
                exec,
                work,
                prologue: std::mem::take(&mut pending).then_some(&update_and_predict_pass),
                colliders: &collision.colliders,
            };
            sets.project(particles, &iteration);
            if skin_on {
                skin.project(particles, inv_h2);
            }
            collision.project(particles, p.h, exec);
        }
        let last = s + 1 == p.substeps;
        if fused && !last {
            // Nothing happens between this update and the next predict: one pass,
            // run now or at the start of the next projection.
            if defer {
                pending = true;
            } else {
                run_prologue(particles, exec, &update_and_predict_pass);
            }
        } else {
            let all_finite = update_velocities(particles, p.h, p.damping_factor, fused, exec);
            if fused && all_finite {
                finite = Finite::Checked;
            }
        }
        sets.end_substep(particles, p.h, exec);
        collision.end_substep(particles, p.h, p.gravity, exec);
        if !last && !fused {
            before_predict(particles, aero, skin, s + 1);
            predict::<false>(particles, p.gravity, p.h, exec);
        }
    }
    sets.end_step();
    finite
}

/// Rebases, then predicts with symplectic Euler (pinned particles stay put):
///
/// * `(base, d) = two_sum(base, d)`: what fits of the displacement moves into the base
///   position, exactly (`base + d` is the same real number, `d` is at most half an ulp
///   of `base`);
/// * `v' = v + h g`, `d += h v'`;
/// * the velocity slot keeps `u = v' − d / h` for [`update_velocities`].
///
/// `SAVE` (the first substep): first records each particle's position in
/// `Particles::step_start` (the start-of-step state `recovery::check` restores).
fn predict<const SAVE: bool>(particles: &mut Particles, gravity: Vec3, h: f32, exec: &Executor) {
    let n = particles.len();
    let parts = (
        Rows::new(&mut particles.hot),
        Rows::new(&mut particles.base),
        Rows::new(&mut particles.velocity),
        Rows::new(&mut particles.step_start[..n]),
    );
    // SIMD vectors (Vec3A) inside; the arrays keep their compact layouts.
    let (dv, inv_h) = (Vec3A::from(gravity * h), 1.0 / h);
    exec.for_chunks_light(parts, |_, (hot, base, vel, start)| {
        for (((hot, base), vel), start) in hot.iter_mut().zip(base).zip(vel).zip(start) {
            let p = *hot;
            if SAVE {
                *start = position_of(*base, p);
            }
            if p.w == 0.0 {
                continue;
            }
            let u = *vel;
            predict_one(hot, base, vel, p, u, dv, h, inv_h);
        }
    });
}

/// [`predict`] of one particle (`hot`, `base`, `vel`), whose hot data is `p` (not
/// pinned) and velocity `u` (passed in so that a fused pass need not read back what it
/// just stored).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn predict_one(
    hot: &mut Vec4,
    base: &mut Vec3A,
    vel: &mut Vec3,
    p: Vec4,
    u: Vec3,
    dv: Vec3A,
    h: f32,
    inv_h: f32,
) {
    let (b, rest) = two_sum3(*base, Vec3A::from_vec4(p));
    *base = b;
    let v = Vec3A::from(u) + dv;
    let d = rest + v * h;
    *hot = d.extend(p.w);
    *vel = (v - d * inv_h).into();
}

/// v = (x_new − x_prev) / h = u + d / h (see [`predict`]), then damping. With `check`,
/// also returns whether every particle's position and velocity is finite (otherwise
/// true).
fn update_velocities(
    particles: &mut Particles,
    h: f32,
    damping_factor: f32,
    check: bool,
    exec: &Executor,
) -> bool {
    let inv_h = 1.0 / h;
    let (hot, base) = (&particles.hot, &particles.base);
    let bad = AtomicBool::new(false);
    exec.for_chunks_light(Rows::new(&mut particles.velocity), |r, vel| {
        let mut all_finite = true;
        for (vel, i) in vel.iter_mut().zip(r) {
            let p = hot[i];
            let v = if p.w == 0.0 {
                *vel
            } else {
                let v = Vec3A::from(*vel) + Vec3A::from_vec4(p) * inv_h;
                let v: Vec3 = (v * damping_factor).into();
                *vel = v;
                v
            };
            if check {
                all_finite &= position_of(base[i], p).is_finite() & v.is_finite();
            }
        }
        if !all_finite {
            bad.store(true, Ordering::Relaxed);
        }
    });
    !bad.into_inner()
}

/// [`update_velocities`] of one substep and [`predict`] of the next in one pass over
/// the particles (the same operations per particle, in the same order), as a particle
/// pass over any range ([`run_prologue`], or inside the next substep's first sweep).
fn update_and_predict_pass(p: &StepParams) -> impl Fn(Range<usize>, ParticleChunk<'_>) + Sync {
    let (h, inv_h, damping) = (p.h, 1.0 / p.h, p.damping_factor);
    let dv = Vec3A::from(p.gravity * h);
    move |_: Range<usize>, (hot, base, vel): ParticleChunk<'_>| {
        for ((hot, base), vel) in hot.iter_mut().zip(base).zip(vel) {
            let q = *hot;
            if q.w == 0.0 {
                continue;
            }
            let u = Vec3A::from(*vel) + Vec3A::from_vec4(q) * inv_h;
            let u: Vec3 = (u * damping).into();
            predict_one(hot, base, vel, q, u, dv, h, inv_h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::{ColliderDesc, Shape};
    use crate::error::ErrorKind;
    use crate::{RopeDesc, World, WorldDesc};

    /// The velocity update and predict between two substeps run inside the first sweep
    /// of the next substep, block by block, or as a pass of their own (forced here by a
    /// speed limit no particle reaches, which keeps the pass apart since the clamp reads
    /// the predicted state): the same bits, on 1 and 2 threads, for the distance set and
    /// the link set, with particles in no block (before the cloth) and particles added
    /// after the constraints were built (not in the sweep's plan).
    #[test]
    fn the_predict_fused_into_the_first_sweep_gives_the_same_bits() {
        let build = |threads: u32, links: bool, limit: f32| {
            let desc = WorldDesc {
                threads,
                ..WorldDesc::default()
            };
            let mut w = if links {
                crate::scenes::cloth_body(80, desc).unwrap().world
            } else {
                let mut w = World::new(desc).unwrap();
                let free: Vec<Vec3> = (0..3000)
                    .map(|i| Vec3::new(i as f32 * 0.01, 2.0, -1.0))
                    .collect();
                w.add_particles(&free, None).unwrap();
                let n = 80u32;
                let grid: Vec<Vec3> = (0..n * n)
                    .map(|i| Vec3::new((i % n) as f32 / 79.0, 0.0, (i / n) as f32 / 79.0))
                    .collect();
                let mass: Vec<f32> = (0..n * n).map(|i| if i == 0 { 0.0 } else { 1.0 }).collect();
                let first = w.add_particles(&grid, Some(&mass)).unwrap();
                let pairs = crate::scenes::cloth_pairs(n, first).concat();
                w.add_distance_constraints(&pairs, None, 0.0).unwrap();
                w
            };
            let late: Vec<Vec3> = (0..5000)
                .map(|i| Vec3::new(i as f32 * 0.01, 3.0, 1.0))
                .collect();
            w.add_particles(&late, None).unwrap();
            w.set_max_speed(limit).unwrap();
            for _ in 0..4 {
                w.step(1.0 / 60.0).unwrap();
            }
            // The particles' state, bit for bit (the state hash covers the limit too).
            let p = &w.particles;
            let bits = |v: Vec3| v.to_array().map(f32::to_bits);
            (0..p.len())
                .map(|i| (bits(p.position(i)), bits(p.velocity[i])))
                .collect::<Vec<_>>()
        };
        for links in [false, true] {
            let fused = build(1, links, 0.0);
            for threads in [1, 2] {
                for limit in [0.0, 1.0e6] {
                    assert!(
                        build(threads, links, limit) == fused,
                        "links {links}, threads {threads}, speed limit {limit}"
                    );
                }
            }
        }
    }

    /// A rope whose particle turns NaN mid-step is put back at its start-of-step
    /// positions at rest, whether the step checks finiteness in its last velocity update
    /// (nothing after it moves particles) or in the separate pass (a collider's
    /// restitution, per-body damping); the other rope advances either way.
    #[test]
    fn a_non_finite_rope_is_restored_on_the_fused_and_the_separate_path() {
        for case in ["fused", "collider", "body damping"] {
            let mut w = World::new(WorldDesc {
                threads: 1,
                ..WorldDesc::default()
            })
            .unwrap();
            let rope = |x: f32| RopeDesc {
                start: Vec3::new(x, 1.0, 0.0),
                end: Vec3::new(x + 1.0, 1.0, 0.0),
                segments: 4,
                ..RopeDesc::default()
            };
            let r0 = w.add_rope(&rope(0.0)).unwrap();
            let _r1 = w.add_rope(&rope(5.0)).unwrap();
            match case {
                "collider" => {
                    w.add_collider(&ColliderDesc {
                        shape: Shape::Sphere { radius: 0.1 },
                        position: Vec3::new(0.0, -10.0, 0.0),
                        ..ColliderDesc::default()
                    })
                    .unwrap();
                }
                "body damping" => w.set_body_damping(r0, 0.5).unwrap(),
                _ => {}
            }
            let fused = substep_tail_is_idle(&w.sets, &w.collision, &w.aero, &w.skinning);
            assert_eq!(fused, case == "fused", "{case}");
            w.step(1.0 / 60.0).unwrap();
            let before: Vec<Vec3> = (0..10).map(|i| w.particles.position(i)).collect();
            w.particles.velocity[7] = Vec3::new(f32::NAN, 0.0, 0.0);
            let e = w.step(1.0 / 60.0).unwrap_err();
            assert_eq!(e.kind, ErrorKind::NonFinite, "{case}");
            for (i, &x) in before.iter().enumerate() {
                let (p, v) = (w.particles.position(i), w.particles.velocity[i]);
                assert!(p.is_finite() && v.is_finite(), "{case}: particle {i}");
                if i >= 5 {
                    assert_eq!((p, v), (x, Vec3::ZERO), "{case}: particle {i} restored");
                } else if w.particles.hot[i].w > 0.0 {
                    assert_ne!(p, x, "{case}: particle {i} of the other rope advances");
                }
            }
            w.step(1.0 / 60.0).unwrap();
        }
    }
}
