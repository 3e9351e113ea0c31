//! Cost of running the passes on a host task system against the built-in rayon pool:
//! the same scene stepped by three worlds in turn (1 built-in thread, 2 built-in
//! threads, a host of std threads with worker_count 2: one worker + the stepping
//! thread), interleaved frame block by frame block so that machine noise hits all
//! alike; prints the median ms per frame of each and the host/pool ratio, and checks
//! that the three state hashes agree after every block.
//!
//! ```text
//! cargo run --release --example task_system_bench -- cloth 128
//! cargo run --release --example task_system_bench -- ropes 1000
//! cargo run --release --example task_system_bench -- particles 50000
//! ```

#[path = "../tests/support/thread_host.rs"]
mod thread_host;

use std::time::Instant;

use sinew::scenes::{self, FRAME_DT};
use sinew::World;
use thread_host::ThreadHost;

fn build(scene: &str, n: u32, threads: u32) -> World {
    let desc = sinew::WorldDesc {
        threads,
        ..scenes::default_desc()
    };
    match scene {
        "cloth" => scenes::cloth(n, desc),
        "ropes" => scenes::ropes(n, desc),
        "particles" => scenes::particles(n, desc),
        other => panic!("unknown scene {other} (cloth, ropes, particles)"),
    }
    .expect("scene")
    .world
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let scene = args.next().unwrap_or_else(|| "cloth".into());
    let n: u32 = args.next().map_or(128, |s| s.parse().expect("n"));
    let blocks = 15;
    let frames = 10;
    let host = ThreadHost::new(1);
    let mut worlds = [
        build(&scene, n, 1),
        build(&scene, n, 2),
        build(&scene, n, 1),
    ];
    // SAFETY: the host outlives the worlds (dropped after them at the end of main).
    unsafe { worlds[2].set_task_system(Some(host.system(2))) }.unwrap();
    let names = [
        "pool 1 thread",
        "pool 2 threads",
        "host 2 (1 worker + caller)",
    ];
    let mut times: [Vec<f64>; 3] = Default::default();
    for w in worlds.iter_mut() {
        w.step(FRAME_DT).unwrap(); // warm-up
    }
    for _ in 0..blocks {
        for (k, w) in worlds.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..frames {
                w.step(FRAME_DT).unwrap();
            }
            times[k].push(t.elapsed().as_secs_f64() * 1e3 / frames as f64);
        }
        let h = worlds[0].state_hash();
        assert!(
            worlds.iter().all(|w| w.state_hash() == h),
            "state hashes differ"
        );
    }
    let med: Vec<f64> = times.iter_mut().map(|t| median(t)).collect();
    for (name, m) in names.iter().zip(&med) {
        println!("{scene} {n}: {name}: {m:.2} ms/frame (median of {blocks} blocks of {frames})");
    }
    println!(
        "{scene} {n}: host / pool (2 threads) = {:.3}; pool 2 / pool 1 = {:.3}",
        med[2] / med[1],
        med[1] / med[0]
    );
    drop(worlds);
}
