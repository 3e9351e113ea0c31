//! The step pipeline: the one table that orders the stages of every subsystem
//! (ARCHITECTURE.md, "The step"; the stages and their context are
//! `crate::pipeline`):
//!
//! ```text
//! begin_step       fluids (emitters, room), collision (neighbour lists, collider
//!                  velocities; then the colliders' reach, widened for the fluids),
//!                  constraint sets (sweeps rebuilt since the last step checked),
//!                  activity (level of detail and sleep: the sweeps' run classes,
//!                  the particles that do not run masked, inverse mass 0),
//!                  integrator (the fusion plan)
//! for each substep s (h = dt / substeps):
//!   begin_substep  aero (wind impulses), skinning (targets), integrator (predict),
//!                  constraint sets (λ reset, attachment hosts), collision (speed
//!                  limit, collider contacts)
//!   for each iteration:
//!     project      constraint sets (one entry: the registry in order, distance
//!                  first, the fused update-and-predict pass inside the first sweep
//!                  when the integrator asks (Jacobi: inside the gather of the last
//!                  iteration of the substep before, when that set is the only one
//!                  and nothing else touches the particles until the next
//!                  projection), the fluids projected at its FLUID_SLOT,
//!                  then tethers, attachments, torn cloths), skinning (anim drive,
//!                  backstop, max distance), collision (grabs, contacts)
//!   end_substep    integrator (velocity update, body damping), topology (breaking,
//!                  winches), constraint sets (plastic flow), fluids (viscosity,
//!                  vorticity, cohesion, adhesion), the 2D plane, collision
//!                  (restitution)
//! (after the substeps: activity restores every inverse mass)
//! end_step         constraint sets, collision (contact readback), aero (time),
//!                  skinning, recovery (non-finite bodies restored), topology
//!                  (tearing), fluids (density readback, retirement)
//! ```
//!
//! A world that uses its threads runs the substeps as one parallel region
//! ([`Executor::region`]): on the pool's first worker, whose passes hand items to the
//! other workers, awake between the passes, instead of waking a worker and putting the
//! calling thread to sleep once per pass.

use super::profile::ProfileStage as P;
use super::World;
use crate::collision::Collision;
use crate::error::Result;
use crate::particles::Particles;
use crate::pipeline::integrate::{update_and_predict_pass, Finite};
use crate::pipeline::{run_pass, Stage, StepContext};
use crate::solver::parallel::{
    Executor, PARALLEL_MIN_ITEMS, PARALLEL_MIN_LIGHT_ITEMS, REGION_MIN_WORK,
};
use crate::solver::Solver;

/// Whether a step of this world runs any pass on more than one thread: a stage's
/// projections (the constraint sets', the fluids' counted by their neighbours) reach
/// [`REGION_MIN_WORK`] per iteration, its particle passes [`PARALLEL_MIN_LIGHT_ITEMS`],
/// or it has collision passes over at least [`PARALLEL_MIN_ITEMS`] particles. Only
/// then does the step run as one parallel region ([`Executor::region`]); a small world
/// stays on the calling thread.
fn runs_in_parallel(
    particles: &Particles,
    work: &[usize],
    collision: &Collision,
    exec: &Executor,
) -> bool {
    exec.threads() > 1
        && (work.iter().any(|&w| w >= REGION_MIN_WORK)
            || particles.len() >= PARALLEL_MIN_LIGHT_ITEMS
            || collides_in_parallel(particles, collision, exec))
}

/// Whether the world has collision passes over at least [`PARALLEL_MIN_ITEMS`]
/// particles (colliders, particle contacts as of the last build, or a speed limit) and
/// threads to run them on.
fn collides_in_parallel(particles: &Particles, collision: &Collision, exec: &Executor) -> bool {
    let collides = collision.colliders.len() > 0
        || collision.particles.search.active
        || collision.max_speed > 0.0;
    exec.threads() > 1 && collides && particles.len() >= PARALLEL_MIN_ITEMS
}

/// Whether no stage changes a particle between the velocity update of one substep and
/// the predict of the next (no body damping, 2D plane or winch, no active fluid, no
/// collider restitution, no wind impulses, no skinned targets): then the integrator
/// may run the two as one pass. Asked after every `begin_step` (a fluid's first
/// particles make it active there).
fn between_substeps_idle(stages: [&dyn Stage; 8]) -> bool {
    stages.iter().all(|s| !s.moves_particles_between_substeps())
}

/// The stages [`between_substeps_idle`] asks, of world `w`.
#[cfg(test)]
fn idle_between_substeps(w: &mut World) -> bool {
    let topology = w.topology.stage(&mut w.sets);
    between_substeps_idle([
        &w.integrator,
        &w.aero,
        &w.skinning,
        &*topology.sets,
        &topology,
        &w.fluids,
        &w.plane,
        &w.collision,
    ])
}

/// One step of `dt` seconds (checked by the caller) through every stage, profiled
/// when the world asks (src/world/profile.rs: the boundaries below; every path out
/// of the step, an error included, ends the profiled step).
pub(crate) fn step(w: &mut World, dt: f32) -> Result<()> {
    w.profile.begin_step();
    let result = run(w, dt);
    w.profile.end_step();
    result
}

/// The table: every stage in order, with the profiler's boundaries between them.
fn run(w: &mut World, dt: f32) -> Result<()> {
    let World {
        desc,
        particles,
        sets,
        bodies,
        collision,
        exec,
        last_h,
        aero,
        skinning,
        integrator,
        plane,
        fluids,
        topology,
        accumulator: _,
        profile: prof,
        activity,
        sleep,
    } = w;
    // Every particle asleep (frozen: nothing moves them in this step).
    let all_asleep = sleep.all_asleep(particles.len());
    let exec: &Executor = exec;
    let h = dt / desc.substeps as f32;
    let mut cx = StepContext {
        dt,
        h,
        inv_h2: 1.0 / (h * h),
        substeps: desc.substeps,
        substep: 0,
        iterations: desc.iterations,
        iteration: 0,
        gravity: desc.gravity,
        solver: desc.solver,
        relaxation: desc.jacobi_relaxation,
        damping_factor: (-desc.damping * h).exp(),
        planar: plane.z,
        exec,
        work: 0,
        colliders: None,
    };
    // begin_step. The fluids' emitters first: their new particles take part in the
    // whole step, the contact search included.
    prof.enter(P::FluidEmit);
    Stage::begin_step(fluids, particles, &cx)?;
    prof.enter(P::CollisionDetection);
    // The neighbour search's build (its passes and the serial sort between them) in
    // one region too when the last step's collision passes ran in one.
    if collides_in_parallel(particles, collision, exec) && !prof.has_hook() {
        let inner = exec.in_region();
        let cx = StepContext { exec: &inner, ..cx };
        exec.region(|| Stage::begin_step(collision, particles, &cx))?;
    } else {
        Stage::begin_step(collision, particles, &cx)?;
    }
    collision
        .colliders
        .set_reach(&particles.radius, fluids.collider_margins())?;
    prof.enter(P::ConstraintStep);
    Stage::begin_step(sets, particles, &cx)?;
    cx.work = sets.projections();
    // Level of detail and sleep (src/world/activity.rs): the sets' slot classes, the
    // particles that do not run masked (inverse mass 0) until the substeps end.
    prof.enter(P::Integrate);
    activity.begin_step(particles, sets, integrator, cx.substeps)?;
    // The integrator fuses its velocity update with the next predict when no other
    // stage changes the particles between them, and hands that pass to the first
    // sweep of the next substep when nothing reads them before it (a speed limit
    // clamps the predicted velocities in the collision stage's begin_substep).
    let idle = {
        let topology = topology.stage(sets);
        between_substeps_idle([
            &*integrator,
            &*aero,
            &*skinning,
            &*topology.sets,
            &topology,
            &*fluids,
            &*plane,
            &*collision,
        ]) && !activity.moves_particles_between_substeps()
    };
    let impulses =
        aero.moves_particles_between_substeps() || skinning.moves_particles_between_substeps();
    integrator.plan(idle, collision.max_speed == 0.0, &cx);
    // Jacobi: the fused pass may run even earlier, inside the gather of a substep's
    // last iteration (each particle once gathered), when nothing else reads or moves
    // the particles from there to the next substep's first projection: besides what
    // `idle` and the missing speed limit rule out, one set with constraints (nothing
    // projected after it), no fluid, grab or particle contacts, nothing to break.
    let epilogue = integrator.deferred()
        && cx.solver == Solver::Jacobi
        && sets.sole_candidate().is_some()
        && fluids.work() == 0
        && collision.grabs.len() == 0
        && !collision.particles.search.active
        && topology.breaking.thresholds.iter().all(|t| t.is_empty());
    let work = [sets.work(), fluids.work()];
    // A host's markers are called on the calling thread: such a world keeps its
    // substeps there (the passes fork to the workers all the same; the same bits).
    let parallel = runs_in_parallel(particles, &work, collision, exec) && !prof.has_hook();
    // Inside the region the workers are awake between the passes: light passes fork
    // there too (`Executor::in_region`; the same chunks, the same bits).
    let inner = parallel.then(|| exec.in_region());
    let inner_cx = StepContext {
        exec: inner.as_ref().unwrap_or(exec),
        ..cx
    };
    let mut substeps = || {
        let cx = inner_cx;
        let exec = cx.exec;
        for s in 0..cx.substeps {
            let cx = StepContext { substep: s, ..cx };
            // The fused pass ran inside the last iteration's gather.
            let mut ran_early = false;
            prof.begin_substep();
            prof.enter(P::Wind);
            activity.before_impulses(particles, impulses);
            Stage::begin_substep(aero, particles, &cx);
            prof.enter(P::Skinning);
            Stage::begin_substep(skinning, particles, &cx);
            prof.enter(P::Integrate);
            activity.before_predict(particles);
            Stage::begin_substep(integrator, particles, &cx);
            activity.after_predict(particles, &cx);
            prof.enter(P::ConstraintSubstep);
            Stage::begin_substep(sets, particles, &cx);
            prof.enter(P::ColliderDetection);
            Stage::begin_substep(collision, particles, &cx);
            for it in 0..cx.iterations {
                let cx = StepContext {
                    iteration: it,
                    ..cx
                };
                let iteration = sets.iteration(&cx);
                let mut done = None;
                if epilogue && it + 1 == cx.iterations && !cx.last_substep() {
                    let pass = update_and_predict_pass(&cx);
                    prof.enter(sets.sole_candidate().map_or(P::Integrate, P::family));
                    done = sets.project_jacobi_epilogue(particles, &iteration, &pass);
                    ran_early |= done.is_some();
                }
                if done.is_none() && integrator.take_pending() {
                    let pass = update_and_predict_pass(&cx);
                    prof.enter(sets.fused_candidate().map_or(P::Integrate, P::family));
                    done = sets.project_fused(particles, &iteration, &pass);
                    if done.is_none() {
                        prof.enter(P::Integrate);
                        run_pass(particles, exec, &pass);
                    }
                }
                // The registry in order, the fluids at its FLUID_SLOT (lent the
                // colliders).
                let lent = StepContext {
                    colliders: Some(&collision.colliders),
                    ..cx
                };
                sets.project(particles, &iteration, done, (&mut *fluids, &lent), |i| {
                    prof.enter(P::family(i))
                });
                if collision.colliders.any_dynamic() {
                    // The fluids' pressure on dynamic colliders (`fluid::walls`).
                    let colliders = &mut collision.colliders;
                    let parts = &*particles;
                    fluids
                        .solver
                        .wall_pushes(|i, k, dx| colliders.push_wall(parts, i, k, dx));
                }
                prof.enter(P::Skinning);
                Stage::project(skinning, particles, &cx);
                prof.enter(P::Contacts);
                Stage::project(collision, particles, &cx);
            }
            prof.enter(P::Integrate);
            activity.before_velocity_update(particles, &cx);
            Stage::end_substep(integrator, particles, &cx);
            if ran_early {
                integrator.pass_ran();
            }
            activity.after_velocity_update(particles, &cx);
            prof.enter(P::Topology);
            Stage::end_substep(&mut topology.stage(sets), particles, &cx);
            prof.enter(P::ConstraintSubstep);
            Stage::end_substep(sets, particles, &cx);
            prof.enter(P::FluidVelocity);
            Stage::end_substep(fluids, particles, &cx);
            prof.enter(P::Integrate);
            Stage::end_substep(plane, particles, &cx);
            prof.enter(P::Contacts);
            Stage::end_substep(collision, particles, &cx);
            prof.end_substep();
        }
        prof.enter(P::ConstraintStep);
        Stage::end_step(sets, particles, &cx);
    };
    if parallel {
        exec.region(substeps);
    } else {
        substeps();
    }
    prof.enter(P::Integrate);
    activity.end_substeps(particles);
    prof.enter(P::Contacts);
    Stage::end_step(collision, particles, &cx);
    *last_h = h;
    prof.enter(P::Wind);
    Stage::end_step(aero, particles, &cx);
    prof.enter(P::Skinning);
    Stage::end_step(skinning, particles, &cx);
    prof.enter(P::Recovery);
    let recovered = match integrator.finite() {
        Finite::Checked => Ok(()),
        // Nothing moved: nothing can have turned non-finite.
        Finite::Unknown if all_asleep => Ok(()),
        Finite::Unknown => crate::recovery::check(particles, bodies, exec),
    };
    prof.enter(P::Topology);
    Stage::end_step(&mut topology.stage(sets), particles, &cx);
    prof.enter(P::FluidVelocity);
    Stage::end_step(fluids, particles, &cx);
    match collision.particles.search.take_error() {
        Some(e) => Err(e),
        None => recovered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bodies::rope::RopeDesc;
    use crate::collision::{ColliderDesc, Shape};
    use crate::error::ErrorKind;
    use crate::math::Vec3;
    use crate::world::WorldDesc;

    /// The velocity update and predict between two substeps run inside the first sweep
    /// of the next substep, block by block (Gauss-Seidel), inside the gather of the
    /// last Jacobi iteration of a substep, particle by particle, or as a pass of their
    /// own (forced here by a speed limit no particle reaches, which keeps the pass
    /// apart since the clamp reads the predicted state): the same bits, on 1 and 2
    /// threads, for the distance set and the link set, with particles in no block
    /// (before the cloth) and particles added after the constraints were built (not
    /// in the sweep's plan).
    #[test]
    fn the_predict_fused_into_the_first_sweep_gives_the_same_bits() {
        use crate::solver::Solver;
        let build = |threads: u32, links: bool, limit: f32, solver: Solver| {
            let desc = WorldDesc {
                threads,
                solver,
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
        for solver in [Solver::GaussSeidel, Solver::Jacobi] {
            for links in [false, true] {
                let fused = build(1, links, 0.0, solver);
                for threads in [1, 2] {
                    for limit in [0.0, 1.0e6] {
                        assert!(
                            build(threads, links, limit, solver) == fused,
                            "{solver:?}, links {links}, threads {threads}, speed limit {limit}"
                        );
                    }
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
            let fused = idle_between_substeps(&mut w);
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
