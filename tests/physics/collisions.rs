//! Collisions and interaction through the safe Rust API, against closed forms:
//! friction on an inclined plane, restitution, continuous detection at 20 m/s, the
//! contact readback, the mass-weighted (the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)) and unyielding particle contacts, a
//! 1000-particle pour, picking and grabbing, determinism across thread counts. Cloth
//! and ropes meeting colliders and themselves are in `cloth_contacts.rs`.

use sinew::{ColliderDesc, ColliderId, Quat, Shape, Vec3, World, WorldDesc};

const G: f64 = 9.81;
pub(crate) const DT: f32 = 1.0 / 60.0;

pub(crate) fn world(substeps: u32, iterations: u32, threads: u32) -> World {
    World::new(WorldDesc {
        substeps,
        iterations,
        threads,
        ..WorldDesc::default()
    })
    .unwrap()
}

pub(crate) fn pos(w: &World, i: u32) -> Vec3 {
    w.particles().position(i as usize)
}

pub(crate) fn plane(
    w: &mut World,
    point: Vec3,
    rotation: Quat,
    mu_s: f32,
    mu_d: f32,
    e: f32,
) -> ColliderId {
    w.add_collider(&ColliderDesc {
        shape: Shape::Plane,
        position: point,
        rotation,
        static_friction: mu_s,
        dynamic_friction: mu_d,
        restitution: e,
        ..ColliderDesc::default()
    })
    .unwrap()
}

/// A particle of radius r at rest on a plane tilted by θ about z; returns the distance
/// it slid down the slope after `t` seconds and its height above the plane.
fn incline(theta_deg: f64, mu_s: f32, mu_d: f32, t: f64) -> (f64, f64) {
    let theta = theta_deg.to_radians() as f32;
    let mut w = world(8, 1, 1);
    let q = Quat::from_rotation_z(theta);
    plane(&mut w, Vec3::ZERO, q, mu_s, mu_d, 0.0);
    let n = q * Vec3::Y;
    let r = 0.05;
    let start = n * r;
    w.add_particles(&[start], None).unwrap();
    w.set_particle_radii(0, &[r]).unwrap();
    let steps = (t / DT as f64).round() as u32;
    for _ in 0..steps {
        w.step(DT).unwrap();
    }
    let p = pos(&w, 0);
    let down = Vec3::new(-theta.cos(), -theta.sin(), 0.0);
    ((p - start).dot(down) as f64, (p.dot(n) - r) as f64)
}

#[test]
fn particle_on_incline_sticks_when_tan_theta_below_static_friction() {
    // tan 20° = 0.364 < μs = 0.4 (μd = 0.3 would let it slide if static were ignored).
    let (s, height) = incline(20.0, 0.4, 0.3, 2.0);
    assert!(s.abs() < 1e-4, "slid {s} m");
    assert!(height.abs() < 1e-4, "height above the plane {height}");
}

#[test]
fn particle_on_incline_slides_with_g_sin_minus_mu_d_cos() {
    for (theta, mu_s, mu_d) in [
        (30.0f64, 0.4f32, 0.3f32),
        (45.0, 0.6, 0.5),
        (25.0, 0.0, 0.0),
    ] {
        let t = 1.0;
        let (s, height) = incline(theta, mu_s, mu_d, t);
        let th = theta.to_radians();
        let a = G * (th.sin() - mu_d as f64 * th.cos());
        let expected = 0.5 * a * t * t;
        let err = (s - expected).abs() / expected;
        assert!(
            err < 0.03,
            "θ {theta}: slid {s}, expected {expected} ({err:.4})"
        );
        assert!(height.abs() < 1e-3, "θ {theta}: left the plane by {height}");
    }
    // tan θ just above μs: slides (with μd = μs the acceleration is small but real).
    let (s, _) = incline(22.0, 0.4, 0.4, 1.0);
    let a = G * (22f64.to_radians().sin() - 0.4 * 22f64.to_radians().cos());
    assert!(
        (s - 0.5 * a).abs() < 0.03 * 0.5 * a,
        "slid {s} vs {}",
        0.5 * a
    );
}

/// Heights (above contact) of the successive apexes of a ball dropped from `h0`.
fn bounce_apexes(e: f32, h0: f32, substeps: u32) -> Vec<f64> {
    let mut w = world(substeps, 1, 1);
    plane(&mut w, Vec3::ZERO, Quat::IDENTITY, 0.0, 0.0, e);
    let r = 0.1;
    w.add_particles(&[Vec3::new(0.0, h0 + r, 0.0)], None)
        .unwrap();
    w.set_particle_radii(0, &[r]).unwrap();
    let mut apexes = Vec::new();
    let mut prev_vy = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        let vy = w.particles().velocity(0).y;
        if prev_vy > 0.0 && vy <= 0.0 {
            // Apex between the steps: refine with the ballistic parabola of this step.
            let y = pos(&w, 0).y as f64 - r as f64;
            let v = vy as f64;
            apexes.push(y + v * v / (2.0 * G));
        }
        prev_vy = vy;
    }
    apexes
}

#[test]
fn bounce_keeps_e_squared_of_kinetic_energy() {
    for e in [0.8f32, 0.5] {
        for substeps in [8, 20] {
            let apex = bounce_apexes(e, 1.0, substeps);
            assert!(apex.len() >= 2, "e {e}: apexes {apex:?}");
            let mut h_prev = 1.0;
            for (k, &h) in apex.iter().take(3).enumerate() {
                let ratio = h / h_prev;
                let e2 = (e * e) as f64;
                assert!(
                    (ratio - e2).abs() < 0.05 * e2,
                    "e {e}, substeps {substeps}, bounce {k}: kept {ratio:.4} of the energy, e² = {e2}"
                );
                h_prev = h;
            }
        }
    }
    // e = 0: it stays down.
    let apex = bounce_apexes(0.0, 1.0, 8);
    assert!(apex.iter().all(|&h| h < 1e-3), "{apex:?}");
}

#[test]
fn particle_at_20_m_s_does_not_tunnel_through_a_1_cm_box() {
    for (tilt, substeps) in [(0.0f32, 8u32), (0.3, 8), (0.0, 2), (-0.5, 4)] {
        let mut w = world(substeps, 1, 1);
        let q = Quat::from_rotation_x(tilt);
        let id = w
            .add_collider(&ColliderDesc {
                shape: Shape::Box {
                    half_extents: Vec3::new(1.0, 0.005, 1.0),
                },
                position: Vec3::ZERO,
                rotation: q,
                // Sticks on the tilted top face (tan 0.5 = 0.55 < 1).
                static_friction: 1.0,
                dynamic_friction: 1.0,
                ..ColliderDesc::default()
            })
            .unwrap();
        let r = 0.01; // a 2 cm particle
        let n = q * Vec3::Y;
        w.add_particles(&[n * 0.5], None).unwrap();
        w.set_particle_radii(0, &[r]).unwrap();
        w.write_velocities(0, &[-n * 20.0]).unwrap();
        for step in 0..60 {
            w.step(DT).unwrap();
            let h = pos(&w, 0).dot(n);
            assert!(
                h > 0.005 + r - 1e-3,
                "tilt {tilt}, substeps {substeps}, step {step}: height {h} above the box centre"
            );
        }
        // It ends resting on the top face (restitution 0).
        let h = pos(&w, 0).dot(n) as f64;
        assert!((h - 0.015).abs() < 2e-3, "tilt {tilt}: rests at {h}");
        // Contact readback: one contact with that box, normal = the face normal, and
        // (at rest with a small tilt) the impulse of one step is ≈ m g cos(tilt) dt.
        let c = w.contacts();
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!((c[0].particle, c[0].collider), (0, id));
        assert!((c[0].normal - n).length() < 1e-4, "{:?}", c[0].normal);
        if tilt == 0.0 {
            let expected = G * DT as f64;
            let got = c[0].impulse as f64;
            assert!(
                (got - expected).abs() < 0.02 * expected,
                "impulse {got} vs {expected}"
            );
        }
    }
}

#[test]
fn fast_particles_do_not_tunnel_through_sphere_or_capsule() {
    for shape in [
        Shape::Sphere { radius: 0.05 },
        Shape::Capsule {
            radius: 0.03,
            half_height: 0.2,
        },
    ] {
        let mut w = World::new(WorldDesc {
            gravity: Vec3::ZERO,
            substeps: 2,
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        w.add_collider(&ColliderDesc {
            shape,
            rotation: Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
            ..ColliderDesc::default()
        })
        .unwrap();
        w.add_particles(&[Vec3::new(-1.0, 0.0, 0.0)], None).unwrap();
        w.set_particle_radii(0, &[0.01]).unwrap();
        w.write_velocities(0, &[Vec3::new(30.0, 0.0, 0.0)]).unwrap();
        for _ in 0..10 {
            w.step(DT).unwrap();
        }
        let x = pos(&w, 0).x;
        let limit = match shape {
            Shape::Sphere { radius } => -(radius + 0.01),
            // rotated: the axis lies along x
            Shape::Capsule {
                radius,
                half_height,
            } => -(radius + half_height + 0.01),
            _ => unreachable!(),
        };
        assert!(x <= limit + 1e-3, "{shape:?}: x = {x}, limit {limit}");
        assert!(x > limit - 1e-2, "{shape:?}: x = {x}");
    }
}

#[test]
fn moving_collider_carries_a_resting_particle_by_friction() {
    // A box platform starting at 1 m/s along x with μs = μd = 1: the particle slips
    // while friction accelerates it at μ g (Coulomb), then rides along, so it lags
    // by v²/(2 μ g) = 5.1 cm behind the platform's 1 m.
    let mut w = world(8, 1, 1);
    let half = Vec3::new(1.0, 0.05, 1.0);
    let id = w
        .add_collider(&ColliderDesc {
            shape: Shape::Box { half_extents: half },
            static_friction: 1.0,
            dynamic_friction: 1.0,
            ..ColliderDesc::default()
        })
        .unwrap();
    w.add_particles(&[Vec3::new(0.0, 0.1, 0.0)], None).unwrap();
    w.set_particle_radii(0, &[0.05]).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let x0 = pos(&w, 0).x;
    for k in 1..=60 {
        let p = Vec3::new(k as f32 * DT, 0.0, 0.0);
        w.set_collider_transform(id, p, Quat::IDENTITY, false)
            .unwrap();
        w.step(DT).unwrap();
    }
    let moved = pos(&w, 0).x - x0;
    let expected = 1.0 - 1.0 / (2.0 * G as f32);
    assert!(
        (moved - expected).abs() < 0.01 * expected,
        "moved {moved} with a platform that moved 1 m, expected {expected}"
    );
    assert!((pos(&w, 0).y - 0.1).abs() < 1e-3);
    // Removing the collider: the id is dead, the particle falls.
    w.remove_collider(id).unwrap();
    assert!(w.remove_collider(id).is_err());
    assert!(w.collider(id).is_err());
    w.step(DT).unwrap();
    assert!(pos(&w, 0).y < 0.1 - 1e-4);
    assert!(w.contacts().is_empty());
}

/// As in the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020): two overlapping particles without gravity; one step of one substep and
/// one iteration resolves the overlap exactly.
fn niagara_pair(w_a: f32, w_b: f32, u_a: f32, u_b: f32) -> (Vec3, Vec3) {
    let mut w = World::new(WorldDesc {
        gravity: Vec3::ZERO,
        substeps: 1,
        iterations: 1,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    w.add_particles(&[Vec3::ZERO, Vec3::new(0.1, 0.0, 0.0)], Some(&[w_a, w_b]))
        .unwrap();
    w.set_particle_radii(0, &[0.1, 0.1]).unwrap();
    w.set_unyielding(0, &[u_a, u_b]).unwrap();
    w.step(DT).unwrap();
    (pos(&w, 0), pos(&w, 1) - Vec3::new(0.1, 0.0, 0.0))
}

#[test]
fn niagara_unyielding_particle_is_not_pushed_and_others_move_by_mass() {
    // Neither unyielding, masses 1 and 3: moves 3/4 and 1/4 of the 0.1 m overlap.
    let (da, db) = niagara_pair(1.0, 1.0 / 3.0, 0.0, 0.0);
    assert!(
        (da.x + 0.075).abs() < 1e-6 && (db.x - 0.025).abs() < 1e-6,
        "{da} {db}"
    );
    // Equal masses: half each.
    let (da, db) = niagara_pair(1.0, 1.0, 0.0, 0.0);
    assert!(
        (da.x + 0.05).abs() < 1e-6 && (db.x - 0.05).abs() < 1e-6,
        "{da} {db}"
    );
    // b unyielding: b does not move at all, a (lighter or heavier) takes all of it.
    for w_a in [1.0, 0.1] {
        let (da, db) = niagara_pair(w_a, 1.0, 0.0, 1.0);
        assert_eq!(db, Vec3::ZERO);
        assert!((da.x + 0.1).abs() < 1e-6, "{da}");
    }
    // Blend 0.5: a's share 1/2 moves halfway to 1 → 3/4.
    let (da, db) = niagara_pair(1.0, 1.0, 0.0, 0.5);
    assert!(
        (da.x + 0.075).abs() < 1e-6 && (db.x - 0.025).abs() < 1e-6,
        "{da} {db}"
    );
    // Both unyielding: plain mass weighting.
    let (da, db) = niagara_pair(1.0, 1.0 / 3.0, 1.0, 1.0);
    assert!(
        (da.x + 0.075).abs() < 1e-6 && (db.x - 0.025).abs() < 1e-6,
        "{da} {db}"
    );
}

#[test]
fn collision_groups_and_masks_filter_particle_contacts() {
    let run = |filters: [sinew::CollisionFilter; 2]| {
        let mut w = World::new(WorldDesc {
            gravity: Vec3::ZERO,
            substeps: 1,
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        w.add_particles(&[Vec3::ZERO, Vec3::new(0.1, 0.0, 0.0)], None)
            .unwrap();
        w.set_particle_radii(0, &[0.1, 0.1]).unwrap();
        w.set_collision_filters(0, &filters).unwrap();
        w.step(DT).unwrap();
        pos(&w, 0).x != 0.0
    };
    let f = sinew::CollisionFilter::default();
    let body = sinew::CollisionFilter { group: 7, ..f };
    assert!(run([f, f]));
    assert!(!run([body, body]), "one body without self-collision");
    let selfc = sinew::CollisionFilter {
        self_collision: true,
        ..body
    };
    assert!(run([selfc, selfc]));
    assert!(run([body, sinew::CollisionFilter { group: 8, ..f }]));
    let layer2 = sinew::CollisionFilter { layers: 2, ..f };
    let not2 = sinew::CollisionFilter { mask: !2, ..f };
    assert!(!run([layer2, not2]));
    assert!(run([layer2, f]));
}

/// 1000 particles of radius 5 cm poured into a 1.2 m × 1.2 m box of five planes.
fn pour(threads: u32, side: u32, steps: u32) -> World {
    let mut w = World::new(WorldDesc {
        substeps: 10,
        iterations: 4,
        threads,
        damping: 0.5,
        ..WorldDesc::default()
    })
    .unwrap();
    let half = 0.6f32;
    let walls = [
        (Vec3::ZERO, Quat::IDENTITY),
        (
            Vec3::new(-half, 0.0, 0.0),
            Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2),
        ),
        (
            Vec3::new(half, 0.0, 0.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        ),
        (
            Vec3::new(0.0, 0.0, -half),
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        ),
        (
            Vec3::new(0.0, 0.0, half),
            Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
        ),
    ];
    for (p, q) in walls {
        plane(&mut w, p, q, 0.3, 0.3, 0.0);
    }
    let r = 0.05;
    let spacing = 2.0 * (half - r) / side as f32;
    let mut pts = Vec::new();
    let mut seed = 12345u32;
    let mut jitter = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32 * 0.01 - 0.005
    };
    for i in 0..side {
        for j in 0..side {
            for k in 0..side {
                pts.push(Vec3::new(
                    -half + r + spacing * (i as f32 + 0.5) + jitter(),
                    0.3 + 0.11 * j as f32 + jitter(),
                    -half + r + spacing * (k as f32 + 0.5) + jitter(),
                ));
            }
        }
    }
    w.add_particles(&pts, None).unwrap();
    w.set_particle_radii(0, &vec![r; pts.len()]).unwrap();
    for _ in 0..steps {
        w.step(DT).unwrap();
    }
    w
}

#[test]
fn thousand_particles_poured_into_a_box_settle_without_overlap() {
    // 320 steps: with complete neighbour lists the pile still slides a little at 240
    // (0.27 m/s at the fastest), and rests from about 300 on.
    let w = pour(0, 10, 320);
    let n = w.particle_count() as usize;
    let p: Vec<Vec3> = (0..n).map(|i| w.particles().position(i)).collect();
    let r = 0.05f32;
    let mut worst = f32::MAX;
    for i in 0..n {
        for j in i + 1..n {
            worst = worst.min(p[i].distance(p[j]));
        }
    }
    assert!(
        worst >= 0.95 * 2.0 * r,
        "closest pair {worst} < 95% of {}",
        2.0 * r
    );
    for (i, q) in p.iter().enumerate() {
        assert!(
            q.y >= r - 1e-3 && q.x.abs() <= 0.6 - r + 1e-3 && q.z.abs() <= 0.6 - r + 1e-3,
            "particle {i} at {q} is outside the box"
        );
    }
    // Settled: slow everywhere.
    let v_max = (0..n)
        .map(|i| w.particles().velocity(i).length())
        .fold(0.0, f32::max);
    println!("poured box: closest pair {worst:.4} m, fastest {v_max:.3} m/s");
    assert!(v_max < 0.2, "still moving at {v_max} m/s");
}

fn state_hash(w: &World) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for i in 0..w.particle_count() as usize {
        let (p, v) = (w.particles().position(i), w.particles().velocity(i));
        for x in [p.x, p.y, p.z, v.x, v.y, v.z] {
            h = (h ^ x.to_bits() as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

#[test]
fn pour_is_bit_identical_across_thread_counts() {
    // 17³ = 4913 particles: enough for the passes to run in parallel chunks.
    let h1 = state_hash(&pour(1, 17, 20));
    assert_eq!(h1, state_hash(&pour(2, 17, 20)));
    assert_eq!(h1, state_hash(&pour(4, 17, 20)));
}

#[test]
fn pick_returns_the_nearest_particle_along_the_ray() {
    let mut w = world(8, 1, 1);
    let pts = [
        Vec3::new(0.0, 0.0, 5.0),
        Vec3::new(0.05, 0.0, 3.0),
        Vec3::new(0.0, 0.3, 1.0),
        Vec3::new(0.0, 0.0, -1.0),
    ];
    w.add_particles(&pts, None).unwrap();
    let (i, t) = w
        .pick_particle(Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0), 0.1)
        .unwrap()
        .unwrap();
    assert_eq!(i, 1);
    assert!((t - 3.0).abs() < 1e-6);
    // A particle radius widens the hit.
    w.set_particle_radii(2, &[0.25]).unwrap();
    assert_eq!(
        w.pick_particle(Vec3::ZERO, Vec3::Z, 0.1)
            .unwrap()
            .unwrap()
            .0,
        2
    );
    assert!(w.pick_particle(Vec3::ZERO, Vec3::X, 0.1).unwrap().is_none());
    assert!(w.pick_particle(Vec3::ZERO, Vec3::ZERO, 0.1).is_err());
    assert!(w.pick_particle(Vec3::ZERO, Vec3::Z, f32::NAN).is_err());
}

#[test]
fn grabbed_rope_end_follows_the_target_and_is_released() {
    let mut w = world(8, 4, 1);
    let n = 10u32;
    let pts: Vec<Vec3> = (0..n)
        .map(|i| Vec3::new(0.1 * i as f32, 0.0, 0.0))
        .collect();
    let mut inv = vec![1.0; n as usize];
    inv[0] = 0.0;
    w.add_particles(&pts, Some(&inv)).unwrap();
    let links: Vec<[u32; 2]> = (0..n - 1).map(|i| [i, i + 1]).collect();
    w.add_distance_constraints(&links, None, 0.0).unwrap();
    let end = n - 1;
    assert!(w.grab_particle(0, Vec3::ZERO, 0.0).is_err(), "pinned");
    let target = Vec3::new(0.5, 0.5, 0.3);
    w.grab_particle(end, pts[end as usize], 1e-4).unwrap();
    for k in 1..=60 {
        let t = pts[end as usize].lerp(target, k as f32 / 60.0);
        w.move_grab(end, t).unwrap();
        w.step(DT).unwrap();
    }
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    // The rope (0.9 m) reaches the target (0.768 m away): the end sits on it, sagging
    // only by m g α = 1e-4 · 9.81 · (rope weight it carries).
    let e = pos(&w, end).distance(target);
    assert!(e < 0.01, "end is {e} m from the target");
    assert_eq!(w.grab_count(), 1);
    w.release_particle(end).unwrap();
    assert!(w.release_particle(end).is_err());
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    assert!(pos(&w, end).y < 0.0, "released end falls");
}

#[test]
fn particle_at_20_m_s_does_not_tunnel_through_a_1_cm_mesh_box() {
    let (v, t) = sinew::scenes::box_mesh(Vec3::new(1.0, 0.005, 1.0));
    for (tilt, substeps, x) in [
        (0.0f32, 8u32, 0.0f32),
        (0.3, 8, 0.37),
        (0.0, 2, -0.61),
        (-0.5, 4, 0.5),
    ] {
        let mut w = world(substeps, 1, 1);
        let q = Quat::from_rotation_x(tilt);
        let at = Vec3::new(0.2, -0.3, 0.1);
        let id = w
            .add_mesh_collider(
                &ColliderDesc {
                    position: at,
                    rotation: q,
                    static_friction: 1.0,
                    dynamic_friction: 1.0,
                    ..ColliderDesc::default()
                },
                &v,
                &t,
            )
            .unwrap();
        assert_eq!(w.collider(id).unwrap().shape, Shape::Mesh);
        let r = 0.01;
        let n = q * Vec3::Y;
        // Aim at a point of the top face away from the triangle edges, or on one.
        let aim = at + q * Vec3::new(x, 0.0, 0.0);
        w.add_particles(&[aim + n * 0.5], None).unwrap();
        w.set_particle_radii(0, &[r]).unwrap();
        w.write_velocities(0, &[-n * 20.0]).unwrap();
        for step in 0..60 {
            w.step(DT).unwrap();
            let h = (pos(&w, 0) - at).dot(n);
            assert!(
                h > 0.005 + r - 1e-3,
                "tilt {tilt}, substeps {substeps}, step {step}: height {h} above the mesh centre"
            );
        }
        let h = (pos(&w, 0) - at).dot(n) as f64;
        assert!((h - 0.015).abs() < 2e-3, "tilt {tilt}: rests at {h}");
        let c = w.contacts();
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].collider, id);
        assert!((c[0].normal - n).length() < 1e-4, "{:?}", c[0].normal);
    }
}

#[test]
fn mesh_colliders_refuse_bad_meshes_and_change_nothing() {
    let (v, t) = sinew::scenes::box_mesh(Vec3::ONE);
    let mut w = world(8, 1, 1);
    let desc = ColliderDesc::default();
    let mut bad_index = t.clone();
    bad_index[5][2] = 8;
    let mut nan = v.clone();
    nan[3].z = f32::NAN;
    assert!(w.add_mesh_collider(&desc, &v, &bad_index).is_err());
    assert!(w.add_mesh_collider(&desc, &nan, &t).is_err());
    assert!(w.add_mesh_collider(&desc, &v, &[]).is_err());
    let bad_rot = ColliderDesc {
        rotation: Quat::from_xyzw(0.0, 0.0, 0.0, 1.5),
        ..desc
    };
    assert!(w.add_mesh_collider(&bad_rot, &v, &t).is_err());
    // The mesh shape cannot be made without its triangles.
    assert!(w
        .add_collider(&ColliderDesc {
            shape: Shape::Mesh,
            ..desc
        })
        .is_err());
    assert_eq!(w.collider_count(), 0);
    w.add_mesh_collider(&desc, &v, &t).unwrap();
    assert_eq!(w.collider_count(), 1);
}

/// A collider with `report_contacts` off still holds its particle up, but the contact
/// readback leaves its contacts out (those of the others stay); the flag survives a
/// snapshot.
#[test]
fn unreported_colliders_act_but_are_left_out_of_the_readback() {
    let mut w = world(4, 1, 1);
    let floor = w
        .add_collider(&ColliderDesc {
            shape: Shape::Plane,
            ..ColliderDesc::default()
        })
        .unwrap();
    let quiet = w
        .add_collider(&ColliderDesc {
            shape: Shape::Box {
                half_extents: Vec3::splat(0.5),
            },
            position: Vec3::new(3.0, 0.0, 0.0),
            report_contacts: false,
            ..ColliderDesc::default()
        })
        .unwrap();
    assert!(w.collider(floor).unwrap().report_contacts, "on by default");
    // Particle 0 falls on the floor, particle 1 on the box's top face (y = 0.5).
    w.add_particles(&[Vec3::new(0.0, 0.1, 0.0), Vec3::new(3.0, 0.6, 0.0)], None)
        .unwrap();
    w.set_particle_radii(0, &[0.05, 0.05]).unwrap();
    let mut back = None;
    for step in 0..60 {
        w.step(DT).unwrap();
        if step == 29 {
            back = Some(World::from_snapshot(&w.snapshot(), 1).unwrap());
        }
    }
    assert!((pos(&w, 0).y - 0.05).abs() < 2e-3, "{}", pos(&w, 0));
    assert!(
        (pos(&w, 1).y - 0.55).abs() < 2e-3,
        "the box acts: {}",
        pos(&w, 1)
    );
    let reported = |w: &World| {
        let c = w.contacts();
        assert!(c.iter().any(|r| r.particle == 0 && r.collider == floor));
        assert!(
            c.iter().all(|r| r.particle == 0 && r.collider == floor),
            "{c:?}"
        );
    };
    reported(&w);
    let mut back = back.unwrap();
    assert!(!back.collider(quiet).unwrap().report_contacts);
    back.step(DT).unwrap();
    reported(&back);
}
