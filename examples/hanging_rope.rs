//! Hangs a 20-link rope from a pinned end, steps it for 2 s at 60 Hz and prints the
//! particle positions and the tension of the top link.
//!
//! `cargo run --release --example hanging_rope`
//!
//! The rope starts horizontal, swings down and settles (a little damping). At rest the
//! top link carries the weight of everything below it: 20 × 0.05 kg × 9.81 m/s² =
//! 9.81 N.

use sinew::{Vec3, World, WorldDesc};

const LINKS: u32 = 20;
const LINK_LENGTH: f32 = 0.05; // m
const PARTICLE_MASS: f32 = 0.05; // kg

fn main() -> Result<(), sinew::Error> {
    let mut world = World::new(WorldDesc {
        substeps: 20,
        damping: 2.0,
        ..WorldDesc::default()
    })?;

    let positions: Vec<Vec3> = (0..=LINKS)
        .map(|i| Vec3::new(i as f32 * LINK_LENGTH, 2.0, 0.0))
        .collect();
    let inverse_masses: Vec<f32> = (0..=LINKS)
        .map(|i| if i == 0 { 0.0 } else { 1.0 / PARTICLE_MASS })
        .collect();
    let first = world.add_particles(&positions, Some(&inverse_masses))?;
    let pairs: Vec<[u32; 2]> = (0..LINKS).map(|i| [first + i, first + i + 1]).collect();
    let top_link = world.add_distance_constraints(&pairs, None, 0.0)?; // rigid

    let dt = 1.0 / 60.0;
    let frames = 120; // 2 s
    for _ in 0..frames {
        world.step(dt)?;
    }

    println!("hanging rope: {LINKS} links of {LINK_LENGTH} m, {PARTICLE_MASS} kg particles, 2 s at 60 Hz, 20 substeps");
    world.read_positions(first, LINKS + 1, |k, p| {
        println!(
            "  particle {k:2}: ({:+.4}, {:+.4}, {:+.4}) m",
            p.x, p.y, p.z
        );
    })?;
    let mut tension = [0.0f32];
    world.read_constraint_forces(top_link, &mut tension)?;
    let weight = LINKS as f32 * PARTICLE_MASS * 9.81;
    println!(
        "top link tension: {:.3} N (weight below it: {weight:.3} N)",
        tension[0]
    );
    Ok(())
}
