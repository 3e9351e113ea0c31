//! Trajectory fingerprints: every benchmark scene (`sinew::scenes`) and the first
//! second of every showcase scene (`examples/showcase`) is stepped a fixed number of
//! frames and the bit patterns of all particle positions and velocities are hashed
//! (FNV-1a, 64 bits). The hashes must equal the recorded ones in
//! `tests/data/trajectory_hashes.txt`: a refactoring that is meant to keep the
//! physics unchanged must keep every trajectory bit-identical.
//!
//! After a change that is meant to alter trajectories, regenerate the file with
//! `SINEW_WRITE_HASHES=1 cargo test --test physics trajectory_hashes::` and say in the commit
//! which scenes changed and why.

use crate::scenes;

use std::collections::BTreeMap;

use sinew::scenes::{self as bench, FRAME_DT};
use sinew::{Solver, World, WorldDesc};

const BASELINE: &str = "tests/data/trajectory_hashes.txt";

/// FNV-1a over the bit patterns of every particle's position and velocity.
fn hash_world(world: &World) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |x: f32| {
        for byte in x.to_bits().to_le_bytes() {
            h ^= byte as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    let p = world.particles();
    for i in 0..p.len() {
        let x = p.position(i);
        let v = p.velocity(i);
        for c in [x.x, x.y, x.z, v.x, v.y, v.z] {
            eat(c);
        }
    }
    h
}

fn desc(threads: u32, solver: Solver) -> WorldDesc {
    WorldDesc {
        threads,
        solver,
        ..bench::default_desc()
    }
}

fn bench_hashes(out: &mut BTreeMap<String, u64>) {
    type Build = fn(u32, WorldDesc) -> sinew::Result<bench::Scene>;
    let scenes: [(&str, Build, u32, u32); 5] = [
        ("cloth", bench::cloth, 24, 60),
        ("ropes", bench::ropes, 12, 60),
        ("particles", bench::particles, 1500, 40),
        ("cloth_body", bench::cloth_body, 24, 60),
        ("ropes_body", bench::ropes_body, 12, 60),
    ];
    for (name, build, n, frames) in scenes {
        for (solver, solver_name) in [(Solver::GaussSeidel, "gs"), (Solver::Jacobi, "jacobi")] {
            let mut by_threads = Vec::new();
            for threads in [1u32, 2] {
                let mut scene = build(n, desc(threads, solver)).expect("scene");
                for _ in 0..frames {
                    scene.world.step(FRAME_DT).expect("step");
                }
                by_threads.push(hash_world(&scene.world));
            }
            assert_eq!(
                by_threads[0], by_threads[1],
                "{name} {solver_name}: 1 and 2 threads differ"
            );
            out.insert(format!("bench/{name}/{solver_name}"), by_threads[0]);
        }
    }
}

fn showcase_hashes(out: &mut BTreeMap<String, u64>) {
    let dt = 1.0 / scenes::SIM_HZ;
    for mut scene in scenes::all() {
        let steps = (scene.seconds * scenes::SIM_HZ).round().min(60.0) as u32;
        for k in 0..steps {
            let t = k as f32 * dt;
            if let Some(observe) = scene.observe.as_mut() {
                observe(&mut scene.sim, t);
            }
            if let Some(drive) = scene.drive.as_mut() {
                drive(&mut scene.sim, t);
            }
            scene.sim.world.step(dt).expect("step");
        }
        out.insert(
            format!("showcase/{}", scene.name),
            hash_world(&scene.sim.world),
        );
    }
}

#[test]
fn trajectories_match_the_recorded_hashes() {
    let mut now = BTreeMap::new();
    bench_hashes(&mut now);
    showcase_hashes(&mut now);
    let text: String = now.iter().map(|(k, v)| format!("{k} {v:016x}\n")).collect();
    print!("{text}");
    if std::env::var_os("SINEW_WRITE_HASHES").is_some() {
        std::fs::write(BASELINE, &text).expect("write the baseline");
        return;
    }
    let recorded = std::fs::read_to_string(BASELINE).expect("the recorded hashes");
    let mut differ = Vec::new();
    for line in recorded.lines() {
        let (name, hash) = line.split_once(' ').expect("name hash");
        match now.get(name) {
            Some(h) if format!("{h:016x}") == hash => {}
            Some(h) => differ.push(format!("{name}: recorded {hash}, now {h:016x}")),
            None => differ.push(format!("{name}: no longer computed")),
        }
    }
    assert_eq!(recorded.lines().count(), now.len(), "scene list changed");
    assert!(
        differ.is_empty(),
        "trajectories changed:\n{}",
        differ.join("\n")
    );
}
