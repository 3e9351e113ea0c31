//! Host-supplied parallelism (`World::set_task_system`, C: `sinew_world_set_task_system`):
//! a world whose passes run on a host's threads steps to the same bits as the built-in
//! pool on 1 and 2 threads, whichever way the host runs the tasks: on a pool of std
//! threads (as many as the worker count, or fewer), inline in `enqueue` returning NULL,
//! or serially in `finish`. The scene has a cloth, ropes and loose colliding particles,
//! large enough that every kind of pass (staged sweeps, particle chunks, neighbour
//! lists, contacts) runs in parallel.

#[path = "../support/thread_host.rs"]
mod thread_host;

use std::sync::atomic::Ordering;

use sinew::scenes::{self, FRAME_DT};
use sinew::{ClothDesc, ClothGridDesc, ErrorKind, RopeDesc, Solver, TaskSystem, Vec3, World};
use thread_host::{deferred_system, inline_null_system, Deferred, ThreadHost};

const FRAMES: usize = 4;

/// 10,000 colliding particles in a box, a 90 × 90 cloth (8,100 particles, ~48,000
/// links) and 100 ropes of 32 segments beside it: ~21,000 particles in all.
fn scene(threads: u32, solver: Solver) -> World {
    let desc = sinew::WorldDesc {
        threads,
        solver,
        ..scenes::default_desc()
    };
    let mut world = scenes::particles(10_000, desc).unwrap().world;
    world
        .add_cloth_grid(
            &ClothDesc::default(),
            &ClothGridDesc {
                origin: Vec3::new(10.0, 2.0, 0.0),
                segments_u: 89,
                segments_v: 89,
                pin_corners: 1 | 2,
                ..ClothGridDesc::default()
            },
        )
        .unwrap();
    for r in 0..100 {
        let top = Vec3::new(-10.0 - (r % 10) as f32 * 1.25, 3.0, (r / 10) as f32 * 0.25);
        world
            .add_rope(&RopeDesc {
                start: top,
                end: top + Vec3::X,
                segments: 32,
                total_mass: 1.0,
                ..RopeDesc::default()
            })
            .unwrap();
    }
    world
}

/// State hashes after each of [`FRAMES`] frames.
fn run(world: &mut World) -> Vec<u64> {
    (0..FRAMES)
        .map(|_| {
            world.step(FRAME_DT).unwrap();
            world.state_hash()
        })
        .collect()
}

fn with_system(solver: Solver, tasks: TaskSystem) -> Vec<u64> {
    // The desc's thread count is irrelevant once a host runs the passes.
    let mut world = scene(3, solver);
    // SAFETY: the hosts' callbacks follow the contract and outlive the world.
    unsafe { world.set_task_system(Some(tasks)) }.unwrap();
    assert!(world.has_task_system());
    assert_eq!(world.threads(), tasks.worker_count as usize);
    run(&mut world)
}

#[test]
fn host_task_systems_step_to_the_same_bits_as_the_built_in_pool() {
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let one = run(&mut scene(1, solver));
        let two = run(&mut scene(2, solver));
        assert_eq!(one, two, "{solver:?}: 1 and 2 built-in threads differ");

        for (threads, worker_count) in [(3usize, 4u32), (1, 4), (2, 2)] {
            let host = ThreadHost::new(threads);
            let hashes = with_system(solver, host.system(worker_count));
            assert_eq!(
                hashes, one,
                "{solver:?}: {threads} host threads, worker_count {worker_count}"
            );
            let c = &host.shared.counters;
            assert!(
                c.enqueues.load(Ordering::Relaxed) > 0,
                "no pass was enqueued"
            );
            assert!(c.ranges_on_workers.load(Ordering::Relaxed) > 0);
        }

        let before = thread_host::INLINE_ENQUEUES.load(Ordering::Relaxed);
        assert_eq!(
            with_system(solver, inline_null_system(4)),
            one,
            "inline, NULL"
        );
        let mut deferred = Deferred::new();
        assert_eq!(
            with_system(solver, deferred_system(&mut deferred, 3)),
            one,
            "{solver:?}: run serially in finish"
        );
        assert!(thread_host::INLINE_ENQUEUES.load(Ordering::Relaxed) > before);
        assert_eq!(thread_host::FINISH_AFTER_NULL.load(Ordering::Relaxed), 0);
    }
}

/// `None` goes back to the built-in pool (same bits again), a worker count outside
/// 1..=MAX_THREADS is refused and changes nothing, and a restore keeps the host.
#[test]
fn the_task_system_is_validated_switchable_and_not_state() {
    let host = ThreadHost::new(2);
    let reference = run(&mut scene(1, Solver::GaussSeidel));
    let mut world = scene(2, Solver::GaussSeidel);
    for bad in [0, sinew::MAX_THREADS + 1, u32::MAX] {
        // SAFETY: as above.
        let e = unsafe { world.set_task_system(Some(host.system(bad))) }.unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        assert!(e.message.contains("worker_count"), "{}", e.message);
        assert!(!world.has_task_system());
        assert_eq!(world.threads(), 2);
    }
    let start = world.snapshot();
    // SAFETY: as above.
    unsafe { world.set_task_system(Some(host.system(3))) }.unwrap();
    let mut hashes = Vec::new();
    for frame in 0..FRAMES {
        if frame == 3 {
            // Back to the built-in pool of the desc's 2 threads mid-run.
            // SAFETY: None holds no callbacks.
            unsafe { world.set_task_system(None) }.unwrap();
            assert!(!world.has_task_system());
            assert_eq!(world.threads(), 2);
        }
        world.step(FRAME_DT).unwrap();
        hashes.push(world.state_hash());
    }
    assert_eq!(hashes, reference);

    // SAFETY: as above.
    unsafe { world.set_task_system(Some(host.system(2))) }.unwrap();
    world.restore_snapshot(&start).unwrap();
    assert!(
        world.has_task_system(),
        "a restore keeps the world's task system"
    );
    assert_eq!(run(&mut world), reference);
}
