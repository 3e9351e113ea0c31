//! `World::step` never allocates: a counting global allocator watches the heap while
//! a cloth (Gauss-Seidel and Jacobi) and the ropes scene step on the calling thread;
//! nor do `World::advance` and the interpolated read of a frame.
//!
//! The test holds `counting_alloc::exclusive()`, so no other test counts meanwhile.

use sinew::scenes::{self, FRAME_DT};
use sinew::{Solver, WorldDesc};

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations};

#[test]
fn step_does_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let desc = WorldDesc {
            threads: 1,
            solver,
            ..scenes::default_desc()
        };
        for mut scene in [
            scenes::cloth(80, desc).unwrap(),
            scenes::ropes(200, desc).unwrap(),
        ] {
            scene.world.step(FRAME_DT).unwrap(); // first step: nothing lazy left
            let (during, ()) = allocations_in(|| {
                for _ in 0..5 {
                    scene.world.step(FRAME_DT).unwrap();
                }
            });
            assert_eq!(during, 0, "{solver:?}: {during} allocations in 5 steps");
            // The fixed step and the interpolated read of a frame (render buffer sized
            // before): no allocation either.
            let n = scene.world.particle_count();
            let mut render = vec![sinew::Vec3::ZERO; n as usize];
            let (during, ()) = allocations_in(|| {
                for frame in [0.7, 2.5, 1.2] {
                    let a = scene.world.advance(frame * FRAME_DT, FRAME_DT, 4).unwrap();
                    scene
                        .world
                        .read_interpolated_positions(0, n, a.alpha, |k, p| render[k] = p)
                        .unwrap();
                }
            });
            assert_eq!(during, 0, "{solver:?}: {during} allocations in 3 advances");
            assert_counter_sees_allocations();
        }
    }
}

/// A host's markers that count begins and ends (nothing allocated).
struct Counter(std::sync::Arc<std::sync::atomic::AtomicU64>);

impl sinew::ProfileHook for Counter {
    fn stage(&mut self, _stage: sinew::ProfileStage, _begin: bool) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A profiled step allocates nothing either: the timing on, a host's hook installed,
/// the stage times and counts read back, on a cloth, the ropes and a fluid.
#[test]
fn profiled_step_does_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    let desc = WorldDesc {
        threads: 1,
        profiling: true,
        ..scenes::default_desc()
    };
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    for mut world in [
        scenes::cloth(80, desc).unwrap().world,
        scenes::ropes(200, desc).unwrap().world,
        scenes::dam_break(
            8,
            WorldDesc {
                profiling: true,
                ..scenes::dam_break_desc(1)
            },
        )
        .unwrap()
        .0
        .world,
    ] {
        world.set_profile_hook(Some(Box::new(Counter(calls.clone()))));
        world.step(FRAME_DT).unwrap(); // first step: nothing lazy left
        let before = calls.load(std::sync::atomic::Ordering::Relaxed);
        let (during, total) = allocations_in(|| {
            let mut total = 0;
            for _ in 0..5 {
                world.step(FRAME_DT).unwrap();
                total += world.stage_times()[0].nanoseconds;
                total += world.profile_counts().particles;
            }
            total
        });
        assert_eq!(during, 0, "{during} allocations in 5 profiled steps");
        assert!(total > 0);
        assert!(calls.load(std::sync::atomic::Ordering::Relaxed) > before);
        assert_counter_sees_allocations();
    }
}
