//! Several threads calling into ONE world at the same time, through the C ABI.
//!
//! `same_world_stress`: a stepper, two readers, a writer (adds particles up to a cap,
//! writes positions and velocities, grabs, moves and releases particles) and a
//! destroyer (destroys the shared world now and then and publishes a new one, so a
//! destroy races every other call, the step included) run for a bounded time:
//! `SINEW_STRESS_SECONDS` (default 3 s in `cargo test`; `tests/sanitizers.sh` runs it
//! for 60 s under ThreadSanitizer). It checks that
//!
//! * every call returns a status documented for it (OK, or INVALID_HANDLE once its
//!   world has been destroyed; OUT_OF_RANGE only where an index from an older world
//!   can miss the newer one) — never INTERNAL, never anything else;
//! * the stepper is not starved: it completes steps in every quarter of the run;
//! * the run ends: a watchdog fails the test (instead of hanging CI) when the threads
//!   have not all stopped 60 s after the end of the run.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use sinew::ffi::bodies::{sinew_rope_desc_default, sinew_world_add_rope, SinewBody};
use sinew::ffi::collision::{
    sinew_world_grab_particle, sinew_world_move_grab, sinew_world_release_particle,
};
use sinew::ffi::particles::{
    sinew_world_add_particles, sinew_world_particle_count, sinew_world_read_positions,
    sinew_world_read_velocities, sinew_world_write_positions, sinew_world_write_velocities,
};
use sinew::ffi::world::{
    sinew_world_create, sinew_world_desc_default, sinew_world_destroy, sinew_world_step, SinewVec3,
    SinewWorld,
};
use sinew::ffi::SinewStatus::{self, *};

/// Particles the writer adds at most per world (the world's size stays bounded, so a
/// step's cost does too).
const MAX_PARTICLES: u32 = 4000;

fn seconds() -> f64 {
    std::env::var("SINEW_STRESS_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0)
}

/// A world with a 40-segment rope, stepped by the worker pool (threads = 0).
fn new_world() -> SinewWorld {
    let mut desc = sinew_world_desc_default();
    desc.threads = 0;
    let mut w = SinewWorld::default();
    // SAFETY: both pointers are to live locals.
    assert_eq!(unsafe { sinew_world_create(&desc, &mut w) }, SINEW_OK);
    let mut rope = sinew_rope_desc_default();
    rope.segments = 40;
    let mut body = SinewBody::default();
    // SAFETY: as above.
    assert_eq!(
        unsafe { sinew_world_add_rope(w, &rope, &mut body) },
        SINEW_OK
    );
    w
}

/// Fails with the call's name when `status` is not one of `allowed`.
fn check(call: &str, status: SinewStatus, allowed: &[SinewStatus]) {
    assert!(
        allowed.contains(&status),
        "{call} returned {status:?}, not one of {allowed:?}"
    );
}

const LIVE: &[SinewStatus] = &[SINEW_OK, SINEW_ERROR_INVALID_HANDLE];
const INDEXED: &[SinewStatus] = &[
    SINEW_OK,
    SINEW_ERROR_INVALID_HANDLE,
    SINEW_ERROR_OUT_OF_RANGE,
];

/// One thread's loop.
type Role = Box<dyn FnOnce(&Shared) + Send>;

struct Shared {
    world: AtomicU64,
    stop: AtomicBool,
    steps: AtomicU64,
    calls: AtomicU64,
}

impl Shared {
    fn world(&self) -> SinewWorld {
        SinewWorld {
            id: self.world.load(Ordering::Acquire),
        }
    }
}

fn stepper(s: &Shared) {
    let mut times = Vec::new();
    while !s.stop.load(Ordering::Relaxed) {
        let t = Instant::now();
        let st = sinew_world_step(s.world(), 1.0 / 60.0);
        times.push(t.elapsed());
        check("sinew_world_step", st, LIVE);
        if st == SINEW_OK {
            s.steps.fetch_add(1, Ordering::Relaxed);
        }
        s.calls.fetch_add(1, Ordering::Relaxed);
    }
    // Reported, not asserted (no timer assertions): how long the stepper waited for
    // the lock at worst, as a ratio to a typical step call.
    times.sort();
    if let (Some(median), Some(max)) = (times.get(times.len() / 2), times.last()) {
        eprintln!(
            "same_world_stress: step call median {median:?}, max {max:?} ({:.0}x)",
            max.as_secs_f64() / median.as_secs_f64().max(1e-9)
        );
    }
}

fn reader(s: &Shared, velocities: bool) {
    let mut buf = vec![SinewVec3::default(); MAX_PARTICLES as usize + 64];
    while !s.stop.load(Ordering::Relaxed) {
        let w = s.world();
        let mut n = 0u32;
        // SAFETY: `n` is a live local.
        let st = unsafe { sinew_world_particle_count(w, &mut n) };
        check("sinew_world_particle_count", st, LIVE);
        let n = n.min(buf.len() as u32);
        let out = buf.as_mut_ptr().cast();
        // SAFETY: `buf` holds at least `n` packed SinewVec3.
        let st = unsafe {
            if velocities {
                sinew_world_read_velocities(w, 0, n, out, 12)
            } else {
                sinew_world_read_positions(w, 0, n, out, 12)
            }
        };
        // OUT_OF_RANGE: the world was replaced between the count and the read.
        check("sinew_world_read_*", st, INDEXED);
        s.calls.fetch_add(2, Ordering::Relaxed);
    }
}

fn writer(s: &Shared) {
    let mut k = 0u32;
    let pos = [SinewVec3 {
        x: 0.0,
        y: 0.5,
        z: 0.0,
    }; 16];
    while !s.stop.load(Ordering::Relaxed) {
        let w = s.world();
        k = k.wrapping_add(1);
        let mut n = 0u32;
        // SAFETY: `n` is a live local.
        let st = unsafe { sinew_world_particle_count(w, &mut n) };
        check("sinew_world_particle_count", st, LIVE);
        if n + 16 <= MAX_PARTICLES {
            let mut first = 0u32;
            // SAFETY: 16 positions, NULL masses, a live output.
            let st = unsafe {
                sinew_world_add_particles(w, pos.as_ptr(), std::ptr::null(), 16, &mut first)
            };
            check("sinew_world_add_particles", st, LIVE);
        }
        let p = 1 + k % 40; // a free rope particle (0 is pinned)
        let target = SinewVec3 {
            x: 0.1 * (k % 7) as f32,
            y: -0.2,
            z: 0.0,
        };
        // SAFETY: `target` and the buffers below are live locals.
        unsafe {
            let st = sinew_world_grab_particle(w, p, &target, 1e-4);
            check("sinew_world_grab_particle", st, INDEXED);
            let st = sinew_world_move_grab(w, p, &target);
            check("sinew_world_move_grab", st, INDEXED);
            let st = sinew_world_release_particle(w, p);
            check("sinew_world_release_particle", st, INDEXED);
            let v = [SinewVec3::default(); 4];
            let st = sinew_world_write_velocities(w, 41, 4, v.as_ptr().cast(), 12);
            check("sinew_world_write_velocities", st, INDEXED);
            let st = sinew_world_write_positions(w, 41, 4, pos.as_ptr().cast(), 12);
            check("sinew_world_write_positions", st, INDEXED);
        }
        s.calls.fetch_add(7, Ordering::Relaxed);
    }
}

/// Replaces the shared world every `period`, destroying the old one while the others
/// may be inside a call on it.
fn destroyer(s: &Shared, period: Duration) {
    let mut next = Instant::now() + period;
    while !s.stop.load(Ordering::Relaxed) {
        if Instant::now() < next {
            thread::sleep(Duration::from_millis(5));
            continue;
        }
        next += period;
        let fresh = new_world();
        let old = SinewWorld {
            id: s.world.swap(fresh.id, Ordering::AcqRel),
        };
        check("sinew_world_destroy", sinew_world_destroy(old), &[SINEW_OK]);
        // Destroying it again is refused, never a crash.
        check(
            "sinew_world_destroy (again)",
            sinew_world_destroy(old),
            &[SINEW_ERROR_INVALID_HANDLE],
        );
        s.calls.fetch_add(2, Ordering::Relaxed);
    }
}

#[test]
fn same_world_stress() {
    let total = Duration::from_secs_f64(seconds());
    let shared = Arc::new(Shared {
        world: AtomicU64::new(new_world().id),
        stop: AtomicBool::new(false),
        steps: AtomicU64::new(0),
        calls: AtomicU64::new(0),
    });
    let (done_tx, done_rx) = mpsc::channel::<Result<(), String>>();
    let mut handles = Vec::new();
    let roles: Vec<(&str, Role)> = vec![
        ("stepper", Box::new(stepper)),
        ("reader positions", Box::new(|s| reader(s, false))),
        ("reader velocities", Box::new(|s| reader(s, true))),
        ("writer", Box::new(writer)),
        ("destroyer", Box::new(move |s| destroyer(s, total / 5))),
    ];
    let threads = roles.len();
    for (name, role) in roles {
        let (s, tx) = (shared.clone(), done_tx.clone());
        handles.push(thread::spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| role(&s)));
            let _ = tx.send(r.map_err(|e| {
                let m = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                format!("{name}: {m}")
            }));
        }));
    }
    // The stepper must progress in every quarter of the run (no starvation).
    let mut per_quarter = Vec::new();
    for _ in 0..4 {
        let before = shared.steps.load(Ordering::Relaxed);
        thread::sleep(total / 4);
        per_quarter.push(shared.steps.load(Ordering::Relaxed) - before);
    }
    shared.stop.store(true, Ordering::Relaxed);
    let deadline = Instant::now() + Duration::from_secs(60);
    for _ in 0..threads {
        let left = deadline.saturating_duration_since(Instant::now());
        match done_rx.recv_timeout(left) {
            Ok(Ok(())) => {}
            Ok(Err(m)) => panic!("a thread failed: {m}"),
            Err(_) => panic!(
                "deadlock: threads still running 60 s after the stop (steps per quarter \
                 {per_quarter:?})"
            ),
        }
    }
    for h in handles {
        h.join().expect("joined");
    }
    assert_eq!(sinew_world_destroy(shared.world()), SINEW_OK);
    eprintln!(
        "same_world_stress: {:.1} s, {} calls, steps per quarter {per_quarter:?}",
        total.as_secs_f64(),
        shared.calls.load(Ordering::Relaxed)
    );
    assert!(
        per_quarter.iter().all(|&n| n > 0),
        "the stepper was starved: steps per quarter {per_quarter:?}"
    );
}
