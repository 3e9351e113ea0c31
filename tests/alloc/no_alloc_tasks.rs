//! With a host task system set, `World::step` allocates nothing: a counting global
//! allocator watches the stepping thread and the host's worker threads (a pool of std
//! threads that allocates nothing itself once built) while a cloth (Gauss-Seidel and
//! Jacobi), the ropes scene and colliding particles step with their passes on the host.
//!
//! The test holds `counting_alloc::exclusive()`, so no other test counts meanwhile.

#[path = "../support/thread_host.rs"]
mod thread_host;

use std::sync::atomic::Ordering;

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations, watch_this_thread};
use sinew::scenes::{self, FRAME_DT};
use sinew::{Solver, WorldDesc};
use thread_host::ThreadHost;

#[test]
fn step_on_a_host_task_system_does_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    let host = ThreadHost::with_start(2, watch_this_thread);
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let desc = WorldDesc {
            threads: 1,
            solver,
            ..scenes::default_desc()
        };
        for mut scene in [
            scenes::cloth(128, desc).unwrap(),
            scenes::ropes(1200, desc).unwrap(),
            scenes::particles(20_000, desc).unwrap(),
        ] {
            let before = host.shared.counters.enqueues.load(Ordering::Relaxed);
            // SAFETY: the host outlives the scene's world.
            unsafe { scene.world.set_task_system(Some(host.system(3))) }.unwrap();
            scene.world.step(FRAME_DT).unwrap(); // first step: nothing lazy left
            let (during, ()) = allocations_in(|| {
                for _ in 0..3 {
                    scene.world.step(FRAME_DT).unwrap();
                }
            });
            assert_eq!(during, 0, "{solver:?}: {during} allocations in 3 steps");
            let enqueues = host.shared.counters.enqueues.load(Ordering::Relaxed) - before;
            assert!(
                enqueues > 0,
                "{solver:?}: the passes never reached the host"
            );
            assert_counter_sees_allocations();
        }
    }
}
