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
