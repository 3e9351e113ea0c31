//! The tests of bad_input.rs's tables, and the rules beyond them: infallible functions,
//! unaligned pointers where documented, handle rules (destroy twice, slot reuse), two
//! worlds on two threads, the thread-locality of the last error, and a world shared by
//! threads then destroyed under them.

use super::*;

#[test]
fn world_create_rejects_bad_desc() {
    run_cases(create_cases());
}

#[test]
fn world_desc_init_rejects_null() {
    run_cases(desc_init_cases());
}

/// `sinew_world_desc_init` writes exactly what `sinew_world_desc_default` returns (the
/// cookie included), and a world can be made from it.
#[test]
fn world_desc_init_matches_default() {
    // SAFETY: all-zero is a valid bit pattern for this plain struct.
    let mut d: SinewWorldDesc = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer.
    ok(unsafe { sinew_world_desc_init(&mut d) }, "desc_init");
    assert_eq!(d, sinew_world_desc_default());
    let w = create(&d);
    ok(sinew_world_destroy(w), "destroy");
}

#[test]
fn world_step_rejects_bad_dt() {
    run_cases(step_cases());
}

#[test]
fn add_particles_rejects_bad_input() {
    run_cases(add_particles_cases());
}

#[test]
fn counts_reject_null() {
    run_cases(count_cases());
}

#[test]
fn read_positions_rejects_bad_input() {
    run_cases(strided_read_cases(
        "sinew_world_read_positions",
        sinew_world_read_positions,
    ));
}

#[test]
fn read_velocities_rejects_bad_input() {
    run_cases(strided_read_cases(
        "sinew_world_read_velocities",
        sinew_world_read_velocities,
    ));
}

#[test]
fn write_positions_rejects_bad_input() {
    run_cases(strided_write_cases(
        "sinew_world_write_positions",
        sinew_world_write_positions,
    ));
}

#[test]
fn write_velocities_rejects_bad_input() {
    run_cases(strided_write_cases(
        "sinew_world_write_velocities",
        sinew_world_write_velocities,
    ));
}

#[test]
fn set_inverse_masses_rejects_bad_input() {
    run_cases(set_inverse_masses_cases());
}

#[test]
fn add_distance_constraints_rejects_bad_input() {
    run_cases(xpbd_cases());
}

#[test]
fn add_pbd_distance_constraints_rejects_bad_input() {
    run_cases(pbd_cases());
}

#[test]
fn read_constraint_forces_rejects_bad_input() {
    run_cases(forces_cases());
}

#[test]
fn every_function_rejects_bad_handles() {
    run_cases(handle_cases());
}

/// The valid calls used by the handle cases succeed with the right handle, so those
/// cases fail because of the handle and nothing else.
#[test]
fn valid_calls_succeed_with_a_valid_handle() {
    for (function, call) in valid_calls() {
        let w = make_world();
        let mut ctx = Ctx {
            world: w,
            out: Outputs::sentinel(),
        };
        let s = call(&mut ctx, w);
        assert_eq!(s, SINEW_OK, "{function}: {}", last_error());
        if function != "sinew_world_destroy" {
            ok(sinew_world_destroy(w), "destroy");
        }
    }
}

/// Every function declared in include/sinew.h is covered: fallible ones by a table,
/// the four infallible ones by `infallible_functions`.
#[test]
fn every_exported_function_is_covered() {
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/sinew.h"))
        .expect("read include/sinew.h");
    let mut declared = BTreeSet::new();
    for line in header.lines() {
        let t = line.trim_start();
        if t.starts_with('*') || t.starts_with("/*") || t.starts_with("//") || t.starts_with('#') {
            continue;
        }
        if let Some(start) = t.find("sinew_") {
            let name: String = t[start..]
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_')
                .collect();
            if t[start + name.len()..].starts_with('(') {
                declared.insert(name);
            }
        }
    }
    assert!(declared.len() >= 17, "parsed declarations: {declared:?}");
    let mut covered: BTreeSet<String> = every_table()
        .iter()
        .flatten()
        .map(|c| c.function.to_string())
        .collect();
    for f in [
        "sinew_abi_version",
        "sinew_version",
        "sinew_last_error_message",
        "sinew_world_desc_default",
        "sinew_collider_desc_default",
        "sinew_collision_filter_default",
    ]
    .into_iter()
    .chain(bodies_cases::INFALLIBLE)
    .chain(wind_cases::INFALLIBLE)
    .chain(fluid_cases::INFALLIBLE)
    .chain(fluid_render_cases::INFALLIBLE)
    .chain(granular_cases::INFALLIBLE)
    {
        covered.insert(f.to_string());
    }
    let missing: Vec<_> = declared.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "functions without bad-input cases: {missing:?}"
    );
}

// ---------------------------------------------------------------------------------
// Infallible functions and accepted-unaligned pointers
// ---------------------------------------------------------------------------------

#[test]
fn infallible_functions() {
    assert_eq!(sinew_abi_version(), SINEW_ABI_VERSION);
    // SAFETY: a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(sinew_version()) }.to_str().unwrap();
    assert_eq!(v, env!("CARGO_PKG_VERSION"));
    let d = sinew_world_desc_default();
    assert_eq!(d.gravity, v3(0.0, -9.81, 0.0));
    assert_eq!((d.substeps, d.iterations, d.threads), (8, 1, 0));
    assert_eq!(d.solver, SinewSolver::SINEW_SOLVER_GAUSS_SEIDEL as u32);
    assert_eq!((d.jacobi_relaxation, d.damping), (1.0, 0.0));
    assert_ne!(d.internal_cookie, 0);
    // A fresh thread has no error yet.
    std::thread::spawn(|| assert_eq!(last_error(), ""))
        .join()
        .unwrap();
}

/// Pointers the ABI reads and writes unaligned (the desc, single outputs, strided
/// buffers) work at any address and any stride >= 12.
#[test]
fn unaligned_pointers_accepted_where_documented() {
    let mut out = Outputs::sentinel();
    let mut desc = test_desc();
    desc.substeps = 3;
    let d = Misaligned::new(std::slice::from_ref(&desc));
    // SAFETY: valid (unaligned) pointers; the ABI reads and writes them unaligned.
    unsafe {
        ok(
            sinew_world_create(d.ptr(), out.misaligned()),
            "create, misaligned desc and out_world",
        );
        let w: SinewWorld = out.misaligned::<SinewWorld>().read_unaligned();
        let p = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(1.0, 1.0, 0.0)];
        let mut first = Outputs::sentinel();
        ok(
            sinew_world_add_particles(w, p.as_ptr(), std::ptr::null(), 3, first.misaligned()),
            "add_particles, misaligned out_first",
        );
        assert_eq!(first.misaligned::<u32>().read_unaligned(), 0);
        let pairs = [0u32, 1];
        ok(
            sinew_world_add_distance_constraints(
                w,
                pairs.as_ptr(),
                std::ptr::null(),
                1,
                0.0,
                first.misaligned(),
            ),
            "add_distance_constraints, misaligned out_first",
        );
        let mut cnt = Outputs::sentinel();
        ok(
            sinew_world_particle_count(w, cnt.misaligned()),
            "particle_count, misaligned",
        );
        assert_eq!(cnt.misaligned::<u32>().read_unaligned(), 3);
        ok(
            sinew_world_distance_constraint_count(w, cnt.misaligned()),
            "constraint_count, misaligned",
        );
        assert_eq!(cnt.misaligned::<u32>().read_unaligned(), 1);

        // Write from a misaligned buffer with stride 13, read back at stride 17.
        let new = [v3(0.5, 0.5, 0.5), v3(-1.0, 2.0, 3.0), v3(4.0, -5.0, 6.0)];
        let mut raw = [0u8; 1 + 13 * 3];
        for (k, v) in new.iter().enumerate() {
            for (j, x) in [v.x, v.y, v.z].iter().enumerate() {
                raw[1 + 13 * k + 4 * j..][..4].copy_from_slice(&x.to_ne_bytes());
            }
        }
        ok(
            sinew_world_write_positions(w, 0, 3, raw.as_ptr().add(1).cast(), 13),
            "write_positions, misaligned, stride 13",
        );
        let mut back = Outputs::sentinel();
        ok(
            sinew_world_read_positions(w, 0, 3, back.misaligned(), 17),
            "read_positions, misaligned, stride 17",
        );
        for (k, v) in new.iter().enumerate() {
            let at = 1 + 17 * k;
            let got: SinewVec3 = back
                .bytes
                .as_ptr()
                .add(at)
                .cast::<SinewVec3>()
                .read_unaligned();
            assert_eq!(got, *v, "particle {k}");
            // The 5 bytes between elements are untouched.
            if k < 2 {
                assert!(back.bytes[at + 12..at + 17].iter().all(|&b| b == 0xA5));
            }
        }
        assert_eq!(back.bytes[0], 0xA5);
        assert!(back.bytes[1 + 17 * 2 + 12..].iter().all(|&b| b == 0xA5));
        ok(sinew_world_step(w, DT), "step");
        ok(sinew_world_destroy(w), "destroy");
    }
}

// ---------------------------------------------------------------------------------
// Handles
// ---------------------------------------------------------------------------------

fn expect_invalid_handle(status: SinewStatus, function: &str) {
    assert_eq!(status, SINEW_ERROR_INVALID_HANDLE, "{function}");
    let msg = last_error();
    assert!(
        msg.starts_with(&format!("{function}: ")),
        "{function}: message {msg:?}"
    );
}

#[test]
fn destroy_twice_is_invalid_handle() {
    let w = make_world();
    ok(sinew_world_destroy(w), "first destroy");
    expect_invalid_handle(sinew_world_destroy(w), "sinew_world_destroy");
    expect_invalid_handle(sinew_world_step(w, DT), "sinew_world_step");
    let mut n = 77u32;
    // SAFETY: valid pointer.
    expect_invalid_handle(
        unsafe { sinew_world_particle_count(w, &mut n) },
        "sinew_world_particle_count",
    );
    assert_eq!(n, 77);
}

#[test]
fn reused_slot_does_not_validate_the_old_handle() {
    let desc = test_desc();
    let old = create(&desc);
    ok(sinew_world_destroy(old), "destroy");
    // The freed slot is normally reused at once; other tests create worlds in parallel,
    // so keep creating (and holding) worlds until one lands in the old slot.
    let mut held = Vec::new();
    let mut reused = None;
    for attempt in 0..2000 {
        let w = create(&desc);
        if w.id & 0xFFFF_FFFF == old.id & 0xFFFF_FFFF {
            reused = Some(w);
            break;
        }
        held.push(w);
        if attempt > 16 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
    let new = reused.expect("the destroyed world's slot was never reused");
    assert_ne!(new.id, old.id, "a reused slot must get a new generation");
    assert_ne!(new.id >> 32, 0, "generation 0 is never issued");

    let p = [v3(0.0, 0.0, 0.0)];
    let mut first = 0u32;
    let mut count = 0u32;
    // SAFETY: valid pointers.
    unsafe {
        ok(
            sinew_world_add_particles(new, p.as_ptr(), std::ptr::null(), 1, &mut first),
            "add to the new world",
        );
        expect_invalid_handle(
            sinew_world_add_particles(old, p.as_ptr(), std::ptr::null(), 1, &mut first),
            "sinew_world_add_particles",
        );
        expect_invalid_handle(
            sinew_world_particle_count(old, &mut count),
            "sinew_world_particle_count",
        );
    }
    expect_invalid_handle(sinew_world_step(old, DT), "sinew_world_step");
    expect_invalid_handle(sinew_world_destroy(old), "sinew_world_destroy");
    // The stale handle destroyed nothing: the new world is intact.
    // SAFETY: valid pointer.
    ok(
        unsafe { sinew_world_particle_count(new, &mut count) },
        "count",
    );
    assert_eq!(count, 1);
    ok(sinew_world_step(new, DT), "step the new world");
    ok(sinew_world_destroy(new), "destroy the new world");
    for w in held {
        ok(sinew_world_destroy(w), "destroy");
    }
}

// ---------------------------------------------------------------------------------
// Threads
// ---------------------------------------------------------------------------------

/// A hanging chain of `n` particles (first pinned), 1 cm apart.
fn make_chain(n: u32, threads: u32) -> SinewWorld {
    let mut d = sinew_world_desc_default();
    d.threads = threads;
    d.damping = 0.5;
    let w = create(&d);
    let p: Vec<SinewVec3> = (0..n).map(|i| v3(0.01 * i as f32, 0.0, 0.0)).collect();
    let inv: Vec<f32> = (0..n).map(|i| if i == 0 { 0.0 } else { 10.0 }).collect();
    let pairs: Vec<u32> = (0..n - 1).flat_map(|i| [i, i + 1]).collect();
    let mut first = 0u32;
    // SAFETY: buffers sized for the counts.
    unsafe {
        ok(
            sinew_world_add_particles(w, p.as_ptr(), inv.as_ptr(), n, &mut first),
            "add",
        );
        ok(
            sinew_world_add_distance_constraints(
                w,
                pairs.as_ptr(),
                std::ptr::null(),
                n - 1,
                1e-7,
                &mut first,
            ),
            "constraints",
        );
    }
    w
}

fn run_chain(w: SinewWorld, frames: u32) -> Snapshot {
    for _ in 0..frames {
        ok(sinew_world_step(w, DT), "step");
    }
    snapshot(w)
}

#[test]
fn two_threads_step_two_worlds_concurrently() {
    // Large enough (> 4096 items) for the worker pools to be used.
    const PARTICLES: u32 = 6000;
    const FRAMES: u32 = 30;
    let barrier = Arc::new(Barrier::new(2));
    let spawn = |threads: u32| {
        let barrier = barrier.clone();
        std::thread::spawn(move || {
            let w = make_chain(PARTICLES, threads);
            barrier.wait();
            let s = run_chain(w, FRAMES);
            ok(sinew_world_destroy(w), "destroy");
            s
        })
    };
    let a = spawn(0);
    let b = spawn(2);
    let a = a.join().expect("thread A");
    let b = b.join().expect("thread B");
    // The same world stepped alone on this thread, single-threaded.
    let w = make_chain(PARTICLES, 1);
    let reference = run_chain(w, FRAMES);
    ok(sinew_world_destroy(w), "destroy");
    assert!(reference
        .positions
        .iter()
        .all(|&b| f32::from_bits(b).is_finite()));
    assert!(
        a == reference,
        "world stepped on thread A differs from the reference"
    );
    assert!(
        b == reference,
        "world stepped on thread B differs from the reference"
    );
}

#[test]
fn last_error_is_thread_local() {
    let barrier = Arc::new(Barrier::new(2));
    let (ba, bb) = (barrier.clone(), barrier.clone());
    let a = std::thread::spawn(move || {
        assert_eq!(
            sinew_world_step(SinewWorld { id: 0 }, DT),
            SINEW_ERROR_INVALID_HANDLE
        );
        let mine = last_error();
        assert!(mine.starts_with("sinew_world_step: "), "{mine:?}");
        ba.wait(); // A has failed
        ba.wait(); // B has checked and failed
        assert_eq!(last_error(), mine, "B's failure leaked into A's message");
    });
    let b = std::thread::spawn(move || {
        bb.wait(); // A has failed
        assert_eq!(last_error(), "", "A's failure leaked into B's message");
        let mut n = 0u32;
        // SAFETY: valid pointer.
        let s = unsafe { sinew_world_distance_constraint_count(SinewWorld { id: 0 }, &mut n) };
        assert_eq!(s, SINEW_ERROR_INVALID_HANDLE);
        let mine = last_error();
        assert!(
            mine.starts_with("sinew_world_distance_constraint_count: "),
            "{mine:?}"
        );
        bb.wait();
        assert_eq!(last_error(), mine);
    });
    a.join().expect("thread A");
    b.join().expect("thread B");
}

/// Several threads hammer ONE world (step, read, write, count) while another destroys
/// it: every call either succeeds or, once the world is gone, returns INVALID_HANDLE;
/// nothing crashes and no call sees a half-destroyed world.
#[test]
fn one_world_shared_by_threads_then_destroyed_under_them() {
    const PARTICLES: u32 = 5000;
    let w = make_chain(PARTICLES, 2);
    let barrier = Arc::new(Barrier::new(4));
    let workers: Vec<_> = (0..3)
        .map(|k| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                let mut buf = vec![v3(0.0, 0.0, 0.0); PARTICLES as usize];
                let mut ok_calls = 0u32;
                for i in 0..200u32 {
                    // SAFETY: buffers sized for the counts.
                    let s = unsafe {
                        match (k + i) % 3 {
                            0 => sinew_world_step(w, DT),
                            1 => sinew_world_read_positions(
                                w,
                                0,
                                PARTICLES,
                                buf.as_mut_ptr().cast(),
                                12,
                            ),
                            _ => sinew_world_write_velocities(
                                w,
                                1,
                                PARTICLES - 1,
                                buf.as_ptr().add(1).cast(),
                                12,
                            ),
                        }
                    };
                    match s {
                        SINEW_OK => ok_calls += 1,
                        SINEW_ERROR_INVALID_HANDLE => break,
                        other => {
                            panic!("thread {k}: unexpected status {other:?}: {}", last_error())
                        }
                    }
                }
                ok_calls
            })
        })
        .collect();
    barrier.wait();
    std::thread::sleep(std::time::Duration::from_millis(20));
    ok(sinew_world_destroy(w), "destroy while others use it");
    let total: u32 = workers.into_iter().map(|t| t.join().expect("worker")).sum();
    assert!(total > 0, "no call succeeded before the destroy");
    assert_eq!(sinew_world_step(w, DT), SINEW_ERROR_INVALID_HANDLE);
}
