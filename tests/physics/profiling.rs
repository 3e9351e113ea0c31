//! The step's profiler (src/world/profile.rs): timing changes no bit of any showcase
//! scene, the leaves' times sum to the step time, the stage calls follow the step's
//! structure, the counts are the world's, and a host's hook sees properly nested
//! begin/end pairs on the stepping thread. Speed is never asserted: the checks are
//! structural (a generous bound on the sum, counts of calls).

use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use crate::scenes;
use sinew::scenes::{self as bench, FRAME_DT};
use sinew::{ProfileHook, ProfileStage, StageTime, World, WorldDesc, PROFILE_STAGE_COUNT};

/// Bits of every particle's position and velocity.
fn state(w: &World) -> Vec<u32> {
    let p = w.particles();
    (0..p.len())
        .flat_map(|i| {
            let (x, v) = (p.position(i), p.velocity(i));
            [x.x, x.y, x.z, v.x, v.y, v.z].map(f32::to_bits)
        })
        .collect()
}

/// What a hook saw: (stage, begin, thread) in order.
type Events = Arc<Mutex<Vec<(ProfileStage, bool, ThreadId)>>>;

struct Recorder(Events);

impl ProfileHook for Recorder {
    fn stage(&mut self, stage: ProfileStage, begin: bool) {
        let t = std::thread::current().id();
        self.0.lock().unwrap().push((stage, begin, t));
    }
}

fn record(w: &mut World) -> Events {
    let events = Events::default();
    w.set_profile_hook(Some(Box::new(Recorder(events.clone()))));
    events
}

fn leaf_sum(times: &[StageTime]) -> u64 {
    times
        .iter()
        .filter(|t| !t.stage.is_group())
        .map(|t| t.nanoseconds)
        .sum()
}

fn time(times: &[StageTime], s: ProfileStage) -> StageTime {
    times[s as usize]
}

/// Every showcase scene, stepped with the timing on and a hook installed, stays bit
/// for bit on the trajectory of the same scene stepped without either.
#[test]
fn profiling_changes_no_bit_of_any_showcase_scene() {
    let dt = 1.0 / scenes::SIM_HZ;
    for (mut plain, mut profiled) in scenes::all().into_iter().zip(scenes::all()) {
        profiled.sim.world.set_profiling(true);
        let _events = record(&mut profiled.sim.world);
        let steps = (plain.seconds * scenes::SIM_HZ).round().min(30.0) as u32;
        for scene in [&mut plain, &mut profiled] {
            for k in 0..steps {
                let t = k as f32 * dt;
                if let Some(drive) = scene.drive.as_mut() {
                    drive(&mut scene.sim, t);
                }
                scene.sim.world.step(dt).expect("step");
            }
        }
        assert!(
            state(&plain.sim.world) == state(&profiled.sim.world),
            "{}: profiling changed the trajectory",
            plain.name
        );
        let times = profiled.sim.world.stage_times();
        assert!(
            time(times, ProfileStage::Step).nanoseconds > 0,
            "{}",
            plain.name
        );
    }
}

/// The leaves sum to the step within 5% (exactly, by construction: each clock reading
/// closes one leaf and opens the next), the substeps fit in the step, and each stage
/// began as often as the step's structure says.
#[test]
fn stage_times_sum_to_the_step_time() {
    for threads in [1, 2] {
        let (mut scene, _fluid) = bench::dam_break(8, bench::dam_break_desc(threads)).unwrap();
        let w = &mut scene.world;
        assert!(w
            .stage_times()
            .iter()
            .all(|t| t.nanoseconds == 0 && t.calls == 0));
        w.set_profiling(true);
        let (substeps, iterations) = (w.desc().substeps, w.desc().iterations);
        for _ in 0..3 {
            w.step(FRAME_DT).unwrap();
            let times = w.stage_times();
            let step = time(times, ProfileStage::Step);
            let sum = leaf_sum(times);
            assert_eq!(step.calls, 1);
            assert!(
                (sum as f64 - step.nanoseconds as f64).abs() <= 0.05 * step.nanoseconds as f64,
                "leaves {sum} ns, step {} ns",
                step.nanoseconds
            );
            let sub = time(times, ProfileStage::Substep);
            assert_eq!(sub.calls, substeps);
            assert!(sub.nanoseconds <= step.nanoseconds);
            let inside: u64 = times
                .iter()
                .filter(|t| t.stage.depth() == 2)
                .map(|t| t.nanoseconds)
                .sum();
            assert!(inside <= step.nanoseconds);
            // Once per step, per substep, per iteration.
            for s in [ProfileStage::FluidEmit, ProfileStage::CollisionDetection] {
                assert_eq!(time(times, s).calls, 1, "{s:?}");
            }
            assert_eq!(time(times, ProfileStage::ColliderDetection).calls, substeps);
            assert_eq!(
                time(times, ProfileStage::FluidDensity).calls,
                substeps * iterations
            );
            assert_eq!(
                time(times, ProfileStage::Contacts).calls,
                substeps * iterations + substeps + 1
            );
            assert!(time(times, ProfileStage::FluidDensity).nanoseconds > 0);
            // Families without constraints are still visited (and cost a branch).
            assert_eq!(time(times, ProfileStage::Torn).calls, substeps * iterations);
        }
        // Off: the last profiled step's times stay, unchanged by later steps.
        w.set_profiling(false);
        let kept = *w.stage_times();
        w.step(FRAME_DT).unwrap();
        assert_eq!(*w.stage_times(), kept);
    }
}

/// The fused velocity update and predict is timed in the sweep that takes it: a cloth
/// of distance constraints alone, stepped with neither damping nor colliders, shows the
/// integrator only at its separate passes and every iteration's distance sweep.
#[test]
fn a_cloth_step_is_timed_in_its_sweeps() {
    let desc = WorldDesc {
        threads: 1,
        profiling: true,
        ..bench::default_desc()
    };
    let mut scene = bench::cloth(24, desc).unwrap();
    let w = &mut scene.world;
    w.step(FRAME_DT).unwrap();
    let times = *w.stage_times();
    let n = w.desc().substeps * w.desc().iterations;
    assert_eq!(time(&times, ProfileStage::Distance).calls, n);
    assert!(time(&times, ProfileStage::Distance).nanoseconds > 0);
    assert_eq!(time(&times, ProfileStage::FluidDensity).calls, n);
    assert!(time(&times, ProfileStage::Recovery).calls == 1);
}

/// The counts are the world's: bodies, particles, constraints, colliders, contacts,
/// fluid particles and neighbours.
#[test]
fn counts_match_the_world() {
    let (mut scene, fluid) = bench::dam_break(8, bench::dam_break_desc(1)).unwrap();
    let w = &mut scene.world;
    for _ in 0..5 {
        w.step(FRAME_DT).unwrap();
    }
    let c = w.profile_counts();
    assert_eq!(c.particles, w.particle_count() as u64);
    assert_eq!(c.bodies, w.body_count() as u64);
    assert_eq!(c.awake_bodies, c.bodies);
    assert_eq!(c.colliders, w.collider_count() as u64);
    assert_eq!(c.collider_contacts, w.contacts().len() as u64);
    assert_eq!(c.particle_pairs, w.neighbour_stats().pairs);
    assert_eq!(
        c.fluid_particles,
        w.fluid_stats(fluid).unwrap().count as u64
    );
    assert!(c.fluid_particles > 0);
    // Each settled particle of a dam lists tens of neighbours.
    assert!(
        c.fluid_neighbours > 10 * c.fluid_particles,
        "{} neighbours of {} particles",
        c.fluid_neighbours,
        c.fluid_particles
    );
    let mut cloth = bench::cloth_body(12, bench::default_desc()).unwrap();
    cloth.world.step(FRAME_DT).unwrap();
    let c = cloth.world.profile_counts();
    assert_eq!(c.bodies, 1);
    assert_eq!(c.fluid_particles, 0);
    assert_eq!(c.fluid_neighbours, 0);
    let projections: u64 = sinew::FamilyKind::ALL
        .iter()
        .map(|&k| cloth.world.family_constraint_count(k) as u64)
        .sum();
    assert!(c.constraints >= projections && c.constraints > 0);
}

/// A hook sees `Step` around everything, `Substep` pairs inside it, one leaf open at a
/// time, each begin closed by its own end, as many begins per stage as the stage
/// times count; all on the thread that called the step, also on a world whose passes
/// run on two threads.
#[test]
fn hook_pairs_nest_on_the_stepping_thread() {
    for threads in [1, 2] {
        let desc = WorldDesc {
            threads,
            ..bench::default_desc()
        };
        let mut scene = bench::cloth(80, desc).unwrap();
        let mut control = bench::cloth(80, desc).unwrap();
        let w = &mut scene.world;
        let events = record(w);
        let me = std::thread::current().id();
        for _ in 0..2 {
            events.lock().unwrap().clear();
            w.step(FRAME_DT).unwrap();
            control.world.step(FRAME_DT).unwrap();
            let ev = events.lock().unwrap().clone();
            let (first, last) = (ev[0], ev[ev.len() - 1]);
            assert_eq!((first.0, first.1), (ProfileStage::Step, true));
            assert_eq!((last.0, last.1), (ProfileStage::Step, false));
            let mut stack: Vec<ProfileStage> = Vec::new();
            let mut begins = [0u32; PROFILE_STAGE_COUNT];
            for &(s, begin, thread) in &ev {
                assert_eq!(thread, me, "{s:?} called off the stepping thread");
                if begin {
                    if let Some(&open) = stack.last() {
                        assert!(open.is_group(), "{s:?} begins inside the leaf {open:?}");
                    }
                    if s == ProfileStage::Substep {
                        assert_eq!(stack, [ProfileStage::Step]);
                    }
                    stack.push(s);
                    begins[s as usize] += 1;
                } else {
                    assert_eq!(stack.pop(), Some(s), "{s:?} ends out of order");
                }
            }
            assert!(stack.is_empty());
            for t in w.stage_times() {
                assert_eq!(begins[t.stage as usize], t.calls, "{:?}", t.stage);
            }
            assert_eq!(state(w), state(&control.world), "threads {threads}");
        }
        // Removed: the step calls nothing and records nothing more.
        w.set_profile_hook(None);
        events.lock().unwrap().clear();
        let kept = *w.stage_times();
        w.step(FRAME_DT).unwrap();
        assert!(events.lock().unwrap().is_empty());
        assert_eq!(*w.stage_times(), kept);
    }
}
