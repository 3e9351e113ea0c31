//! A world with `threads = 1` never starts a thread: no worker pool, no helper thread,
//! whatever it simulates. This is the path of platforms without threads (WebGL builds
//! without pthreads, where spawning a thread fails) and of hosts that run the world on
//! one thread of their own.
//!
//! Linux only (it lists the process's threads in /proc/self/task). The other tests of
//! its binary start threads and leave worker pools behind, so the test runs this binary
//! again with itself alone (`SINEW_TEST_ALONE` set) and checks there. The control at the end starts a
//! world with 2 threads and requires its workers to show up, so the check can see them.

#[cfg(target_os = "linux")]
#[test]
fn a_single_threaded_world_never_starts_a_thread() {
    if std::env::var_os("SINEW_TEST_ALONE").is_none() {
        // This test's name in its binary: the module path without the crate's name.
        let name = concat!(
            module_path!(),
            "::a_single_threaded_world_never_starts_a_thread"
        );
        let name = name.split_once("::").map_or(name, |(_, test)| test);
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([name, "--exact", "--nocapture", "--test-threads=1"])
            .env("SINEW_TEST_ALONE", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text}");
        assert!(
            text.contains("1 passed"),
            "the test did not run alone: {text}"
        );
        return;
    }
    use sinew::scenes::{self, FRAME_DT};
    use sinew::{ColliderDesc, Shape, Solver, Vec3, World, WorldDesc};

    /// The names of this process's threads.
    fn threads() -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir("/proc/self/task")
            .expect("/proc/self/task")
            .filter_map(|e| e.ok())
            .filter_map(|e| std::fs::read_to_string(e.path().join("comm")).ok())
            .map(|s| s.trim().to_string())
            .collect();
        names.sort();
        names
    }
    let workers = |names: &[String]| {
        names
            .iter()
            .filter(|n| n.starts_with("sinew-worker"))
            .count()
    };

    let before = threads();
    assert_eq!(workers(&before), 0, "{before:?}");
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let desc = WorldDesc {
            threads: 1,
            solver,
            ..scenes::default_desc()
        };
        // Large enough that a pool would split every pass: a cloth, many ropes, a
        // collider, particle contacts; stepped, advanced, saved and restored.
        for mut scene in [
            scenes::cloth(64, desc).unwrap(),
            scenes::ropes(200, desc).unwrap(),
        ] {
            let w: &mut World = &mut scene.world;
            assert_eq!(w.threads(), 1);
            let n = w.particle_count();
            w.set_particle_radii(0, &vec![0.01; n as usize]).unwrap();
            w.add_collider(&ColliderDesc {
                shape: Shape::Sphere { radius: 0.5 },
                position: Vec3::new(0.0, -1.0, 0.0),
                ..ColliderDesc::default()
            })
            .unwrap();
            for _ in 0..3 {
                w.step(FRAME_DT).unwrap();
            }
            w.advance(2.5 * FRAME_DT, FRAME_DT, 4).unwrap();
            let snap = w.snapshot();
            w.restore_snapshot(&snap).unwrap();
            let copy = World::from_snapshot(&snap, 1).unwrap();
            assert_eq!(copy.state_hash(), w.state_hash());
        }
    }
    let after = threads();
    assert_eq!(
        after, before,
        "a world with threads = 1 started threads: {before:?} -> {after:?}"
    );

    // Control: two threads do start named workers, so the check above can see them.
    let mut two = scenes::cloth(
        32,
        WorldDesc {
            threads: 2,
            ..scenes::default_desc()
        },
    )
    .unwrap();
    two.world.step(FRAME_DT).unwrap();
    // A world this small runs its passes on the calling thread, so the pool's threads
    // may still be starting: wait for them (up to 10 s).
    let mut with_pool = threads();
    for _ in 0..1000 {
        if workers(&with_pool) >= 1 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        with_pool = threads();
    }
    assert!(workers(&with_pool) >= 1, "{with_pool:?}");
}
