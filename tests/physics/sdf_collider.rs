//! Signed distance field colliders against closed forms: the field built from a mesh
//! matches the mesh's exact distance within a cell, a particle rests on a field box at
//! its radius, slides down a field slope at g (sin θ − μ cos θ), does not pass a thin
//! field wall at speed; the same bits on 1 and 4 threads and after a snapshot; a dynamic
//! field collider takes the particles' push; bad grids are refused and change nothing.
//! `cargo test --test physics sdf_collider:: -- --nocapture` prints the measured values.

use sinew::{ColliderDesc, ColliderDynamics, Quat, SdfGrid, Shape, Vec3, World, WorldDesc};

use super::collisions::{pos, world, DT};
use super::tetrahedralize::sphere as sphere_mesh;

const G: f32 = 9.81;

/// A box mesh of half extents `h`, wound counter-clockwise seen from outside.
fn box_mesh(h: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let (v, t) = sinew::scenes::box_mesh(h);
    let volume: f32 = t
        .iter()
        .map(|t| v[t[0] as usize].dot(v[t[1] as usize].cross(v[t[2] as usize])))
        .sum();
    let t = if volume < 0.0 {
        t.iter().map(|t| [t[0], t[2], t[1]]).collect()
    } else {
        t
    };
    (v, t)
}

/// The exact distance (m) from `p` to triangle `abc`: to its plane when the
/// projection falls inside, else to the nearest edge.
fn triangle_distance(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> f64 {
    let seg = |a: Vec3, b: Vec3| {
        let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
        (a + (b - a) * t - p).length()
    };
    let n = (b - a).cross(c - a).normalize();
    let q = p - n * n.dot(p - a);
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|&(u, v)| (v - u).cross(q - u).dot(n) >= 0.0);
    if inside {
        return (p - q).length() as f64;
    }
    seg(a, b).min(seg(b, c)).min(seg(c, a)) as f64
}

/// A deterministic point in the box `lo..hi` (k-th of a Weyl sequence).
fn point(k: u32, lo: Vec3, hi: Vec3) -> Vec3 {
    let f = |a: f64| ((k as f64 + 1.0) * a).fract() as f32;
    lo + (hi - lo) * Vec3::new(f(0.618_034), f(0.754_878), f(0.569_840))
}

#[test]
fn the_field_of_a_mesh_matches_its_exact_distance_within_a_cell() {
    let cell = 0.05;
    for (name, (v, t)) in [
        ("box", box_mesh(Vec3::new(0.5, 0.3, 0.4))),
        ("sphere", sphere_mesh(0.5, 16, 24)),
    ] {
        let g = SdfGrid::from_mesh(&v, &t, cell, 0.2).unwrap();
        let top = g.origin + Vec3::from_array(g.dims.map(|n| (n - 1) as f32)) * cell;
        let (mut worst, mut signs, mut worst_angle) = (0.0f64, 0, 0.0f32);
        for k in 0..2000 {
            let p = point(k, g.origin, top);
            let exact = t
                .iter()
                .map(|t| triangle_distance(p, v[t[0] as usize], v[t[1] as usize], v[t[2] as usize]))
                .fold(f64::INFINITY, f64::min);
            let (d, grad) = g.sample(p).unwrap();
            worst = worst.max((d.abs() as f64 - exact).abs());
            // Farther than a cell from the surface the sign is the side.
            if exact > cell as f64 {
                let inside = match name {
                    "box" => (p.abs() - Vec3::new(0.5, 0.3, 0.4)).max_element() < 0.0,
                    _ => p.length() < 0.5,
                };
                assert_eq!(d < 0.0, inside, "{name} {p}: {d} vs {exact}");
                signs += 1;
                // Outside the convex solid the normal is the distance's direction
                // within the interpolation (the gradient, not unit, is a blend of
                // node slopes where the field curves round an edge).
                if !inside {
                    let h = Vec3::new(0.5, 0.3, 0.4);
                    let exact_n = match name {
                        "box" => (p - p.clamp(-h, h)).normalize(),
                        _ => p.normalize(),
                    };
                    let n = grad.normalize();
                    if exact > 2.0 * cell as f64 {
                        worst_angle = worst_angle.max(n.dot(exact_n).min(1.0).acos());
                    }
                    assert!(grad.length() > 0.5, "{name} {p}: gradient {grad}");
                }
            }
        }
        println!(
            "{name}: {:?} nodes, worst |field| - exact {worst:.5} m over 2000 points \
             ({signs} signed), worst normal angle two cells outside or more {worst_angle:.4} rad, cell {cell} m",
            g.dims
        );
        assert!(worst < cell as f64, "{name}: {worst}");
        // The blended node gradients: 0.125 rad (box) and 0.054 (sphere); the
        // interpolant's own gradient turned by 0.204 and 0.116.
        assert!(worst_angle < 0.15, "{name}: {worst_angle}");
    }
}

/// A field collider from a box mesh of half extents `h` at `at`.
fn field_box(w: &mut World, at: Vec3, h: Vec3, cell: f32, mu: f32) -> sinew::ColliderId {
    let (v, t) = box_mesh(h);
    let grid = SdfGrid::from_mesh(&v, &t, cell, 0.1).unwrap();
    w.add_sdf_collider(
        &ColliderDesc {
            position: at,
            static_friction: mu,
            dynamic_friction: mu,
            ..ColliderDesc::default()
        },
        grid,
    )
    .unwrap()
}

#[test]
fn a_particle_rests_on_a_field_box_at_its_radius_in_3d_and_2d() {
    for planar in [false, true] {
        let mut w = world(8, 2, 1);
        if planar {
            w.set_planar(Some(0.0)).unwrap();
        }
        let id = field_box(&mut w, Vec3::ZERO, Vec3::new(0.5, 0.1, 0.5), 0.05, 0.3);
        assert_eq!(w.collider(id).unwrap().shape, Shape::Sdf);
        let r = 0.03;
        w.add_particles(&[Vec3::new(0.1, 0.5, 0.0)], None).unwrap();
        w.set_particle_radii(0, &[r]).unwrap();
        for _ in 0..120 {
            w.step(DT).unwrap();
        }
        let p = pos(&w, 0);
        println!(
            "planar {planar}: rests at y = {} (expected {})",
            p.y,
            0.1 + r
        );
        assert!((p.y - (0.1 + r)).abs() < 1e-3, "{p}");
        assert!(w.particles().velocity(0).length() < 1e-2);
        // The contact reports the field, pushing up with the particle's weight.
        let c = w.contacts()[0];
        assert_eq!(c.collider, id);
        assert!((c.normal - Vec3::Y).length() < 1e-3, "{}", c.normal);
        let m = 1.0 / w.particles().inverse_mass(0);
        assert!((c.impulse - m * G * DT).abs() < 0.02 * m * G * DT);
    }
}

/// A host grid of the half-space below the plane through the origin with normal
/// `(sin θ, cos θ, 0)`: x in [−5, 1.5], y in [−1, 3.5], z in [−0.5, 0.5], cells of
/// 0.25 m.
fn slope_grid(theta: f32) -> SdfGrid {
    let (cell, dims) = (0.25f32, [27u32, 19, 5]);
    let origin = Vec3::new(-5.0, -1.0, -0.5);
    let n = Vec3::new(theta.sin(), theta.cos(), 0.0);
    let mut distances = Vec::new();
    for k in 0..dims[2] {
        for j in 0..dims[1] {
            for i in 0..dims[0] {
                let p = origin + Vec3::new(i as f32, j as f32, k as f32) * cell;
                distances.push(n.dot(p));
            }
        }
    }
    SdfGrid {
        dims,
        cell_size: cell,
        origin,
        distances,
    }
}

#[test]
fn a_particle_slides_down_a_field_slope_at_the_coulomb_rate() {
    let (theta, mu) = (0.5f32, 0.2f32);
    let mut w = world(8, 2, 1);
    let id = w
        .add_sdf_collider(
            &ColliderDesc {
                static_friction: mu,
                dynamic_friction: mu,
                ..ColliderDesc::default()
            },
            slope_grid(theta),
        )
        .unwrap();
    let r = 0.05;
    let n = Vec3::new(theta.sin(), theta.cos(), 0.0);
    let down = Vec3::new(theta.cos(), -theta.sin(), 0.0);
    w.add_particles(&[down * -4.0 + n * r], None).unwrap();
    w.set_particle_radii(0, &[r]).unwrap();
    let mut speeds = Vec::new();
    for _ in 0..60 {
        w.step(DT).unwrap();
        speeds.push(w.particles().velocity(0).dot(down));
        let height = pos(&w, 0).dot(n);
        assert!((height - r).abs() < 2e-3, "{height} above the slope");
    }
    let a = (speeds[59] - speeds[19]) / (40.0 * DT);
    let expect = G * (theta.sin() - mu * theta.cos());
    println!("slope: a = {a} m/s² vs g (sin - mu cos) = {expect}");
    assert!((a - expect).abs() < 0.02 * expect, "a {a} vs {expect}");
    let c = w.contacts()[0];
    assert_eq!(c.collider, id);
    assert!((c.friction.length() / c.impulse - mu).abs() < 0.02 * mu);
}

#[test]
fn a_fast_particle_does_not_pass_a_thin_field_wall() {
    // A 4 cm slab on cells of 2 cm; at 30 m/s a substep (1/240 s) covers 12.5 cm.
    let mut w = world(4, 1, 1);
    field_box(&mut w, Vec3::ZERO, Vec3::new(1.0, 0.02, 1.0), 0.02, 0.0);
    let r = 0.01;
    w.add_particles(&[Vec3::new(0.1, 0.3, 0.2)], None).unwrap();
    w.set_particle_radii(0, &[r]).unwrap();
    w.write_velocities(0, &[Vec3::new(0.0, -30.0, 0.0)])
        .unwrap();
    let mut lowest = f32::INFINITY;
    for _ in 0..30 {
        w.step(DT).unwrap();
        lowest = lowest.min(pos(&w, 0).y);
    }
    println!("thin wall: lowest centre y = {lowest} (surface 0.02 + r {r})");
    assert!(lowest > 0.02 + r - 2e-3, "{lowest}");
}

/// 2,000 particles rain on a turning field sphere and a field slope (friction and
/// restitution); the hash of positions, velocities and the contact readback.
fn rain(threads: u32) -> u64 {
    let mut w = World::new(WorldDesc {
        substeps: 4,
        iterations: 2,
        threads,
        ..WorldDesc::default()
    })
    .unwrap();
    let (v, t) = sphere_mesh(0.3, 10, 16);
    let ball = w
        .add_sdf_collider(
            &ColliderDesc {
                position: Vec3::new(0.0, 0.3, 0.0),
                static_friction: 0.4,
                dynamic_friction: 0.3,
                restitution: 0.5,
                ..ColliderDesc::default()
            },
            SdfGrid::from_mesh(&v, &t, 0.04, 0.1).unwrap(),
        )
        .unwrap();
    w.add_sdf_collider(
        &ColliderDesc {
            position: Vec3::new(2.0, -0.5, 0.0),
            dynamic_friction: 0.2,
            ..ColliderDesc::default()
        },
        slope_grid(0.3),
    )
    .unwrap();
    let pts: Vec<Vec3> = (0..2000)
        .map(|k| point(k, Vec3::new(-0.5, 0.7, -0.5), Vec3::new(0.5, 1.5, 0.5)))
        .collect();
    w.add_particles(&pts, None).unwrap();
    w.set_particle_radii(0, &vec![0.02; 2000]).unwrap();
    for s in 0..40 {
        let rot = Quat::from_rotation_y(0.05 * s as f32);
        w.set_collider_transform(ball, Vec3::new(0.0, 0.3, 0.01 * s as f32), rot, false)
            .unwrap();
        w.step(DT).unwrap();
    }
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |x: f32| {
        h ^= x.to_bits() as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    };
    let p = w.particles();
    for i in 0..p.len() {
        p.position(i).to_array().into_iter().for_each(&mut mix);
        p.velocity(i).to_array().into_iter().for_each(&mut mix);
    }
    for c in w.contacts() {
        mix(c.particle as f32);
        mix(c.impulse);
        c.normal.to_array().into_iter().for_each(&mut mix);
    }
    assert!(w.contacts().len() > 100, "{}", w.contacts().len());
    h
}

#[test]
fn field_contacts_are_the_same_bits_on_1_and_4_threads() {
    assert_eq!(rain(1), rain(4));
}

#[test]
fn a_snapshot_keeps_the_field_and_the_trajectory() {
    let mut w = world(4, 2, 1);
    field_box(&mut w, Vec3::ZERO, Vec3::new(0.5, 0.1, 0.5), 0.05, 0.3);
    w.add_particles(&[Vec3::new(0.1, 0.5, 0.0), Vec3::new(-0.2, 0.4, 0.1)], None)
        .unwrap();
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    let bytes = w.snapshot();
    let mut copy = world(4, 2, 1);
    copy.restore_snapshot(&bytes).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
        copy.step(DT).unwrap();
    }
    for i in 0..2 {
        assert_eq!(pos(&w, i), pos(&copy, i));
    }
    assert_eq!(copy.collider_count(), 1);
}

#[test]
fn a_dynamic_field_box_pushed_by_falling_particles_shares_their_acceleration() {
    // A free 2 kg field box outside gravity carries nine 0.1 kg particles that gravity
    // pulls: both fall together at a = m g / (M + m), so the particles push the box
    // with F = M a = m g M / (M + m) (the wrench).
    let mut w = world(8, 4, 1);
    let e = Vec3::new(0.5, 0.1, 0.5);
    let id = field_box(&mut w, Vec3::ZERO, e, 0.05, 0.3);
    let big = 2.0;
    w.set_collider_dynamics(
        id,
        &ColliderDynamics {
            mass: big,
            inertia: ColliderDynamics::box_inertia(big, e),
            gravity: false,
            ..ColliderDynamics::default()
        },
    )
    .unwrap();
    let pts: Vec<Vec3> = (0..9)
        .map(|k| {
            Vec3::new(
                -0.3 + 0.3 * (k % 3) as f32,
                0.13,
                -0.3 + 0.3 * (k / 3) as f32,
            )
        })
        .collect();
    w.add_particles(&pts, Some(&[10.0; 9])).unwrap();
    w.set_particle_radii(0, &[0.03; 9]).unwrap();
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    let m = 0.9;
    let expect = m * G * big / (big + m);
    let wrench = w.collider_contact_wrench(id, None).unwrap();
    println!(
        "dynamic field box: force {} N vs m g M/(M+m) = {expect} N",
        wrench.force
    );
    assert!(
        (wrench.force.y + expect).abs() < 0.02 * expect,
        "{}",
        wrench.force
    );
    assert!(wrench.force.x.abs() + wrench.force.z.abs() < 1e-3 * expect);
}

#[test]
fn bad_grids_and_meshes_are_refused_and_change_nothing() {
    let mut w = world(4, 1, 1);
    let good = slope_grid(0.3);
    let refuse = |w: &mut World, g: SdfGrid, what: &str| {
        let e = w.add_sdf_collider(&ColliderDesc::default(), g).unwrap_err();
        assert!(e.message.contains(what), "{e}");
        assert_eq!(w.collider_count(), 0);
    };
    refuse(
        &mut w,
        SdfGrid {
            dims: [1, 17, 5],
            ..good.clone()
        },
        "at least 2",
    );
    refuse(
        &mut w,
        SdfGrid {
            cell_size: -1.0,
            ..good.clone()
        },
        "cell_size",
    );
    refuse(
        &mut w,
        SdfGrid {
            cell_size: f32::NAN,
            ..good.clone()
        },
        "cell_size",
    );
    refuse(
        &mut w,
        SdfGrid {
            origin: Vec3::new(f32::INFINITY, 0.0, 0.0),
            ..good.clone()
        },
        "origin",
    );
    refuse(
        &mut w,
        SdfGrid {
            dims: [25, 17, 6],
            ..good.clone()
        },
        "distances",
    );
    refuse(
        &mut w,
        SdfGrid {
            dims: [1 << 12, 1 << 12, 2],
            ..good.clone()
        },
        "exceeds",
    );
    let mut nan = good.clone();
    nan.distances[3] = f32::NAN;
    refuse(&mut w, nan, "distance 3");
    let mut positive = good.clone();
    positive.distances.iter_mut().for_each(|d| *d = 1.0);
    refuse(&mut w, positive, "no solid");
    // A mesh field collider cannot be added through the plain call.
    assert!(w
        .add_collider(&ColliderDesc {
            shape: Shape::Sdf,
            ..ColliderDesc::default()
        })
        .is_err());
    // Open meshes and bad cells are refused by the builder.
    let (v, t) = box_mesh(Vec3::splat(0.5));
    assert!(SdfGrid::from_mesh(&v, &t[..11], 0.1, 0.1).is_err());
    assert!(SdfGrid::from_mesh(&v, &t, 0.0, 0.1).is_err());
    assert!(SdfGrid::from_mesh(&v, &t, 0.1, -1.0).is_err());
    assert!(SdfGrid::from_mesh(&v, &t, 1.0e-4, 0.1)
        .unwrap_err()
        .message
        .contains("larger cell"));
    w.add_sdf_collider(&ColliderDesc::default(), good).unwrap();
    assert_eq!(w.collider_count(), 1);
}
