//! `World::step` never allocates: a counting global allocator watches the heap while
//! a cloth (Gauss-Seidel and Jacobi) and the ropes scene step on the calling thread.
//!
//! One test in its own binary, so no other test allocates at the same time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use sinew::scenes::{self, FRAME_DT};
use sinew::{Solver, WorldDesc};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn step_does_not_allocate() {
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
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            for _ in 0..5 {
                scene.world.step(FRAME_DT).unwrap();
            }
            let during = ALLOCATIONS.load(Ordering::Relaxed) - before;
            assert_eq!(during, 0, "{solver:?}: {during} allocations in 5 steps");
            // The counter works: reading positions into a new Vec allocates.
            let v: Vec<sinew::Vec3> = vec![sinew::Vec3::ZERO; 3];
            assert!(ALLOCATIONS.load(Ordering::Relaxed) > before, "{v:?}");
        }
    }
}
