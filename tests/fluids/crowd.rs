//! Water emitted at one point (a crowd: every particle within every other's reach).
//!
//! * Complete neighbour lists of N particles at one point hold N² pairs (16,000
//!   particles: 1.7 s and 1 GB for the first step; 64,000 would take 16 GB). A fluid
//!   slot keeps at most 8 times the neighbours of its rest lattice within h (269 at
//!   the default h of 2 spacings), the first of its scan: the first step's lists hold
//!   at most that many per particle (without the cap the first substep's lists held
//!   all 9 million pairs), and the crowd spreads into a pool: after 10 s every particle
//!   is in the tank, the highest within 2 spacings of the pool's depth N s³ / area,
//!   the water about at rest density and slow (measured: 0.015 m above the depth,
//!   0.11 m/s at most, mean ρ/ρ₀ 0.97), the same bits on 1 and 2 threads. Spreading
//!   takes several frames where complete lists spread it in one (a particle 1.6 m up
//!   after 3 s, 2.5 m without the cap).

use sinew::{FluidDesc, Vec3, World, WorldDesc};

use crate::fluid_box::closed_box;

const DT: f32 = 1.0 / 60.0;
const S: f32 = 0.05;
const N: u32 = 3000;
/// ⌈8 · 4π/3 · 2³⌉: the default h is 2 spacings.
const CAP: u64 = 269;

fn crowd(threads: u32, substeps: u32) -> (World, sinew::FluidId) {
    let mut w = World::new(WorldDesc {
        threads,
        substeps,
        ..WorldDesc::default()
    })
    .unwrap();
    closed_box(&mut w, 1.0, 10.0, Some(1.0));
    let f = w
        .add_fluid(&FluidDesc {
            spacing: S,
            capacity: N,
            ..FluidDesc::default()
        })
        .unwrap();
    w.emit_fluid(f, &vec![Vec3::new(0.5, 0.3, 0.5); N as usize], None)
        .unwrap();
    (w, f)
}

#[test]
fn water_emitted_at_one_point_keeps_short_lists_and_spreads_into_a_pool() {
    // One substep: the step's lists are built before it spreads the crowd.
    let (mut one, _) = crowd(1, 1);
    one.step(DT).unwrap();
    let pairs = one.profile_counts().fluid_neighbours;
    assert!(pairs > 0 && pairs <= CAP * N as u64, "{pairs} pairs listed");
    let substeps = WorldDesc::default().substeps;
    let (mut w, f) = crowd(1, substeps);
    let (mut w2, f2) = crowd(2, substeps);
    for _ in 0..600 {
        w.step(DT).unwrap();
        w2.step(DT).unwrap();
    }
    let state = |w: &World, f| {
        let mut out = Vec::new();
        w.read_fluid_particles(f, 1.0, |_, p| out.push((p.position, p.velocity)))
            .unwrap();
        out
    };
    let (a, b) = (state(&w, f), state(&w2, f2));
    assert!(a == b, "1 and 2 threads differ");
    // A pool of N particles of S³ on a 1 m × 1 m floor: 0.375 m deep.
    let depth = N as f32 * S * S * S;
    let mut fastest = 0.0f32;
    for (x, v) in &a {
        assert!(
            x.x > 0.0 && x.x < 1.0 && x.z > 0.0 && x.z < 1.0 && x.y > 0.0,
            "a particle at {x}"
        );
        fastest = fastest.max(v.length());
    }
    let top = a.iter().map(|p| p.0.y).fold(0.0f32, f32::max);
    assert!(top < depth + 2.0 * S, "the highest particle {top} m up");
    let stats = w.fluid_stats(f).unwrap();
    assert!(
        stats.mean_density_ratio > 0.9 && stats.mean_density_ratio < 1.1,
        "mean ρ/ρ₀ {}",
        stats.mean_density_ratio
    );
    assert!(fastest < 0.3, "fastest {fastest} m/s");
    let pairs = w.profile_counts().fluid_neighbours;
    assert!(pairs < 60 * N as u64, "{pairs} pairs in the pool");
}
