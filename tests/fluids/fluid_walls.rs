//! Fluid particles never leave a closed container of colliders.
//!
//! A dam break (the `dam_break` benchmark's fluid: spacing 0.02 m, h = 2 s, particles
//! of collider radius 0 whose centres are projected onto the walls, 2 substeps × 2
//! density iterations) in a closed box of planes with a sphere, a box and a capsule
//! collider standing in the flow, in 3D and in a planar world. Every frame, every
//! particle is finite, inside the box (to rounding), and outside every obstacle (to
//! the depth a nearest-point contact's tangent plane leaves against a curved surface).
//! Collider contacts are detected when a substep starts; the density correction of
//! the iterations after that pushes particles that were clear of a wall then, so the
//! detection of a fluid particle reaches half a smoothing radius farther than its
//! radius.

use sinew::{ColliderDesc, FluidDesc, FluidId, Quat, Shape, Vec3, World, WorldDesc};
use std::f32::consts::{FRAC_PI_2, PI};

const DT: f32 = 1.0 / 60.0;
const S: f32 = 0.02;

/// The obstacles: (shape, position), unrotated; in the plane z = 0 of a planar world.
/// The sphere floats clear of the floor: in the wedge between a curved surface and a
/// plane, one projection pass leaves a particle within microns of the corner, not on
/// both surfaces (a property of sequential contact projection, not of fluids).
fn obstacles(a: f32, planar: bool) -> [(Shape, Vec3); 3] {
    let z = |z: f32| if planar { 0.0 } else { z };
    [
        (
            Shape::Sphere { radius: 0.25 * a },
            Vec3::new(1.6 * a, 0.45 * a, z(0.5 * a)),
        ),
        (
            Shape::Box {
                half_extents: Vec3::new(0.1 * a, 0.2 * a, a),
            },
            Vec3::new(2.6 * a, 0.0, z(0.5 * a)),
        ),
        (
            // Along y (the capsule's axis), upright in the tank.
            Shape::Capsule {
                radius: 0.1 * a,
                half_height: 0.3 * a,
            },
            Vec3::new(3.3 * a, 0.2 * a, z(0.3 * a)),
        ),
    ]
}

/// How deep (m) a point lies inside an obstacle (≤ 0 outside).
fn depth(shape: Shape, at: Vec3, p: Vec3) -> f32 {
    let q = p - at;
    match shape {
        Shape::Sphere { radius } => radius - q.length(),
        Shape::Box { half_extents } => {
            let d = half_extents - q.abs();
            d.min_element()
        }
        Shape::Capsule {
            radius,
            half_height,
        } => {
            let c = Vec3::new(0.0, q.y.clamp(-half_height, half_height), 0.0);
            radius - (q - c).length()
        }
        _ => unreachable!("only bounded obstacles"),
    }
}

/// A closed tank 4a × 2a × a (planar: 4a × 2a) of planes with the block of n × n × n
/// (planar n × n) particles in its corner, and the obstacles.
fn dam_break(n: u32, planar: bool, threads: u32) -> (World, FluidId, f32) {
    let mut w = World::new(WorldDesc {
        substeps: 2,
        iterations: 2,
        threads,
        ..WorldDesc::default()
    })
    .unwrap();
    if planar {
        w.set_planar(Some(0.0)).unwrap();
    }
    let a = n as f32 * S;
    let layers = if planar { 1 } else { n };
    let f = w
        .add_fluid(&FluidDesc {
            rest_density: 1000.0,
            spacing: S,
            smoothing_radius: 2.0 * S,
            capacity: n * n * layers,
            relaxation: 100.0,
            scorr_k: 0.1,
            scorr_n: 4,
            scorr_dq: 0.2,
            viscosity: 0.01,
            vorticity: 0.0,
            collision_radius: 0.0,
            ..FluidDesc::default()
        })
        .unwrap();
    let mut positions = Vec::new();
    for z in 0..layers {
        for y in 0..n {
            for x in 0..n {
                let mut p = Vec3::new(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) * S;
                if planar {
                    p.z = 0.0;
                }
                positions.push(p);
            }
        }
    }
    w.emit_fluid(f, &positions, None).unwrap();
    let mut planes = vec![
        (Vec3::ZERO, Quat::IDENTITY),
        (Vec3::new(0.0, 2.0 * a, 0.0), Quat::from_rotation_x(PI)),
        (Vec3::ZERO, Quat::from_rotation_z(-FRAC_PI_2)),
        (
            Vec3::new(4.0 * a, 0.0, 0.0),
            Quat::from_rotation_z(FRAC_PI_2),
        ),
    ];
    if !planar {
        planes.push((Vec3::ZERO, Quat::from_rotation_x(FRAC_PI_2)));
        planes.push((Vec3::new(0.0, 0.0, a), Quat::from_rotation_x(-FRAC_PI_2)));
    }
    for (position, rotation) in planes {
        w.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            ..ColliderDesc::default()
        })
        .unwrap();
    }
    for (shape, position) in obstacles(a, planar) {
        w.add_collider(&ColliderDesc {
            shape,
            position,
            ..ColliderDesc::default()
        })
        .unwrap();
    }
    (w, f, a)
}

/// Runs `frames` frames and checks every particle after each.
fn run_and_check(n: u32, planar: bool, frames: u32) {
    let (mut w, f, a) = dam_break(n, planar, 2);
    let hi = Vec3::new(4.0 * a, 2.0 * a, if planar { 0.0 } else { a });
    // Rounding of a projection onto a plane at up to a few decimetres.
    let tol = 1.0e-5;
    // A contact's plane is the tangent plane at the nearest surface point when the
    // substep starts; a particle sliding along it may sink into a curved surface by
    // about d² / 2R for a slide d of a fraction of the spacing.
    let curved_tol = 0.25 * S;
    let mut total = 0;
    for frame in 0..frames {
        w.step(DT).unwrap();
        let mut count = 0;
        w.read_fluid_particles(f, 1.0, |k, p| {
            count += 1;
            let x = p.position;
            assert!(
                x.is_finite() && p.velocity.is_finite() && p.density_ratio.is_finite(),
                "frame {frame}: particle {k} not finite: {p:?}"
            );
            let out = x.cmplt(Vec3::splat(-tol)).any() || x.cmpgt(hi + Vec3::splat(tol)).any();
            assert!(
                !out,
                "frame {frame}: particle {k} at {x} left the box 0..{hi} (planar {planar})"
            );
            if planar {
                assert_eq!(x.z, 0.0, "frame {frame}: particle {k} left the plane");
            }
            for (shape, at) in obstacles(a, planar) {
                let d = depth(shape, at, x);
                assert!(
                    d < curved_tol,
                    "frame {frame}: particle {k} at {x} is {d} m inside {shape:?} at {at}"
                );
            }
        })
        .unwrap();
        total = count;
    }
    let expected = if planar { n * n } else { n * n * n };
    assert_eq!(total, expected, "no particle was lost");
    let stats = w.fluid_stats(f).unwrap();
    assert!(stats.max_density_ratio.is_finite() && stats.mean_density_ratio > 0.5);
}

#[test]
fn a_3d_dam_break_stays_in_a_closed_box_with_obstacles() {
    // 3 s.
    run_and_check(12, false, 180);
}

#[test]
fn a_planar_dam_break_stays_in_a_closed_box_with_obstacles() {
    // 4 s, a taller column.
    run_and_check(24, true, 240);
}
