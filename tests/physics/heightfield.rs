//! Heightfield colliders (a terrain's grid of heights, with holes) against closed
//! forms: a particle slides down a heightfield slope at g (sin θ − μ cos θ), rests on
//! a solid cell and falls through a hole.

use sinew::{ColliderDesc, Heightfield, Quat, Vec3};

use super::collisions::{pos, world, DT};

const G: f32 = 9.81;

/// A planar slope `y = −tan θ · x` sampled on a 41 × 9 grid of 0.25 m cells, placed
/// so that its middle row runs along z = 0 from x = −5.
fn slope_heights(theta: f32) -> Vec<f32> {
    (0..9 * 41)
        .map(|k| -(theta.tan()) * ((k % 41) as f32 * 0.25))
        .collect()
}

#[test]
fn a_particle_slides_down_a_heightfield_slope_at_the_coulomb_rate() {
    let (theta, mu) = (0.5f32, 0.2f32);
    let heights = slope_heights(theta);
    let mut w = world(8, 2, 1);
    let field = w
        .add_heightfield_collider(
            &ColliderDesc {
                position: Vec3::new(-5.0, 0.0, -1.0),
                static_friction: mu,
                dynamic_friction: mu,
                ..ColliderDesc::default()
            },
            &Heightfield {
                columns: 41,
                rows: 9,
                cell_x: 0.25,
                cell_z: 0.25,
                heights: &heights,
                holes: None,
            },
        )
        .unwrap();
    // On the slope at x = −4 (local 1 m): the surface's normal is (sin θ, cos θ, 0).
    let r = 0.05;
    let n = Vec3::new(theta.sin(), theta.cos(), 0.0);
    let surface = Vec3::new(-4.0, -(theta.tan()), 0.0);
    w.add_particles(&[surface + n * r], None).unwrap();
    w.set_particle_radii(0, &[r]).unwrap();
    let down = Vec3::new(theta.cos(), -theta.sin(), 0.0);
    let mut speeds = Vec::new();
    for _ in 0..60 {
        w.step(DT).unwrap();
        speeds.push(w.particles().velocity(0).dot(down));
        let p = pos(&w, 0);
        // It stays on the surface: its centre r above the slope's plane.
        let height = (p - Vec3::new(-5.0, 0.0, 0.0)).dot(n);
        assert!((height - r).abs() < 2e-3, "{p}: {height} above the slope");
    }
    let a = (speeds[59] - speeds[19]) / (40.0 * DT);
    let expect = G * (theta.sin() - mu * theta.cos());
    assert!((a - expect).abs() < 0.02 * expect, "a {a} vs {expect}");
    // The contacts report the heightfield, with Coulomb's ratio.
    let c = w.contacts()[0];
    assert_eq!(c.collider, field);
    assert!((c.friction.length() / c.impulse - mu).abs() < 0.02 * mu);
}

#[test]
fn a_hole_lets_particles_through_and_a_solid_cell_holds_them() {
    // A flat 4 × 4-cell terrain at y = 0, turned a quarter turn about Y (the grid's
    // +X becomes −Z): cell (1, 1) is a hole.
    let heights = vec![0.0f32; 25];
    let mut holes = vec![false; 16];
    holes[4 + 1] = true;
    let mut w = world(4, 1, 1);
    let rot = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    w.add_heightfield_collider(
        &ColliderDesc {
            rotation: rot,
            ..ColliderDesc::default()
        },
        &Heightfield {
            columns: 5,
            rows: 5,
            cell_x: 1.0,
            cell_z: 1.0,
            heights: &heights,
            holes: Some(&holes),
        },
    )
    .unwrap();
    // The hole's centre (local (1.5, 0, 1.5)) and a solid cell's (local (2.5, 0, 2.5)).
    let hole = rot * Vec3::new(1.5, 0.0, 1.5);
    let solid = rot * Vec3::new(2.5, 0.0, 2.5);
    let r = 0.05;
    w.add_particles(&[hole + Vec3::Y, solid + Vec3::Y], None)
        .unwrap();
    w.set_particle_radii(0, &[r, r]).unwrap();
    for _ in 0..90 {
        w.step(DT).unwrap();
    }
    assert!(pos(&w, 0).y < -5.0, "through the hole: {}", pos(&w, 0));
    assert!((pos(&w, 1).y - r).abs() < 2e-3, "held: {}", pos(&w, 1));
    assert!(
        (pos(&w, 1) - (solid + Vec3::Y * r)).length() < 2e-3,
        "{}",
        pos(&w, 1)
    );
}
