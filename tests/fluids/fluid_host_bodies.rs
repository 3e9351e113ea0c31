//! A host's rigid body in a fluid (a dynamic collider: its proxy takes the pressure
//! the fluid puts on it through the walls' density, `fluid::walls::wall_parts`).
//!
//! Archimedes: a box crate of 0.5 ρ₀ floats with half its volume below the free
//! surface, within 0.1 of its volume (the surface measured away from the crate). Its
//! rotation is held (an inertia a thousand times the box's): a uniform cube of
//! 0.5 ρ₀ floating flat is unstable (its metacentre lies below its centre of mass),
//! and the test reads the draft of a level crate.

use sinew::{ColliderDesc, ColliderDynamics, FluidDesc, Quat, Shape, Vec3, World, WorldDesc};
use std::f32::consts::FRAC_PI_2;

const DT: f32 = 1.0 / 60.0;
const S: f32 = 0.05;
const RHO: f32 = 1000.0;

/// Settles a crate of `ratio` ρ₀ (a cube of side `side` spacings) dropped into a
/// square tank `cells` spacings wide filled `depth` deep; returns the submerged
/// fraction averaged over the last second of `seconds`.
fn settle(ratio: f32, cells: u32, depth: u32, side: u32, seconds: f32) -> f32 {
    let mut w = World::new(WorldDesc {
        substeps: 4,
        iterations: 4,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let fluid = w
        .add_fluid(&FluidDesc {
            spacing: S,
            capacity: cells * cells * depth,
            ..FluidDesc::default()
        })
        .unwrap();
    let mut lattice = Vec::new();
    for z in 0..cells {
        for y in 0..depth {
            for x in 0..cells {
                lattice.push(Vec3::new(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) * S);
            }
        }
    }
    w.emit_fluid(fluid, &lattice, None).unwrap();
    let a = cells as f32 * S;
    for (position, rotation) in [
        (Vec3::ZERO, Quat::IDENTITY),
        (Vec3::ZERO, Quat::from_rotation_z(-FRAC_PI_2)),
        (Vec3::new(a, 0.0, 0.0), Quat::from_rotation_z(FRAC_PI_2)),
        (Vec3::ZERO, Quat::from_rotation_x(FRAC_PI_2)),
        (Vec3::new(0.0, 0.0, a), Quat::from_rotation_x(-FRAC_PI_2)),
    ] {
        w.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            ..ColliderDesc::default()
        })
        .unwrap();
    }
    let half = 0.5 * side as f32 * S;
    let e = Vec3::splat(half);
    let mass = ratio * RHO * (2.0 * half).powi(3);
    let start = Vec3::new(0.5 * a, depth as f32 * S + half + 0.5 * S, 0.5 * a);
    let id = w
        .add_collider(&ColliderDesc {
            shape: Shape::Box { half_extents: e },
            position: start,
            ..ColliderDesc::default()
        })
        .unwrap();
    w.set_collider_dynamics(
        id,
        &ColliderDynamics {
            mass,
            inertia: ColliderDynamics::box_inertia(mass * 1000.0, e),
            gravity: true,
            ..ColliderDynamics::default()
        },
    )
    .unwrap();
    let steps = (seconds / DT) as usize;
    let mut sub = 0.0;
    for k in 0..steps {
        w.step(DT).unwrap();
        if k + 60 >= steps {
            // The surface: the median of the highest particle of each column of S × S
            // a spacing clear of the crate, plus half a spacing.
            let c = w.collider(id).unwrap().position;
            let mut tops = std::collections::BTreeMap::<(i64, i64), f32>::new();
            w.read_fluid_particles(fluid, 1.0, |_, p| {
                let q = p.position;
                if (q.x - c.x).abs().max((q.z - c.z).abs()) > half + S {
                    let key = ((q.x / S).floor() as i64, (q.z / S).floor() as i64);
                    let t = tops.entry(key).or_insert(f32::MIN);
                    *t = t.max(q.y);
                }
            })
            .unwrap();
            let mut v: Vec<f32> = tops.into_values().collect();
            v.sort_by(f32::total_cmp);
            let level = v[v.len() / 2] + 0.5 * S;
            let bottom = c.y - half;
            sub += ((level - bottom) / (2.0 * half)).clamp(0.0, 1.0) / 60.0;
        }
    }
    let m = w.collider_motion(id).unwrap();
    println!(
        "host crate ρ/ρ₀ {ratio}: submerged {sub:.3}, velocity {} at the end",
        m.velocity
    );
    sub
}

#[test]
fn a_host_crate_of_half_the_density_floats_half_submerged() {
    let sub = settle(0.5, 14, 8, 6, 5.0);
    assert!((sub - 0.5).abs() < 0.1, "submerged fraction {sub}");
}
