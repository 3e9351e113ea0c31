//! Cloth and ropes in contact, against exact properties: a cloth dropped on a sphere
//! drapes without passing through it, a crumpling cloth does not self-intersect, a
//! rope falls onto a rope and hangs over it, velocity clamping keeps fast particles
//! from passing through each other. The helpers are those of `collisions.rs`.

use sinew::{ColliderDesc, Quat, Shape, Vec3, World, WorldDesc};

use crate::collisions::{plane, pos, world, DT};

/// A square cloth of `n`×`n` particles (spacing `s`, 10 g each) dropped onto a sphere
/// of radius `big_r` at the origin standing on a floor: flat from `height`, or
/// vertical (edge first, slightly off the sphere's axis, so that it drapes over the
/// sphere and crumples onto the floor). Particles have radius 0.45 s and are one body,
/// colliding with each other when `self_collision`.
fn drop_cloth(n: u32, s: f32, big_r: f32, vertical: bool, self_collision: bool) -> (World, f32) {
    let mut w = World::new(WorldDesc {
        substeps: 10,
        iterations: 2,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    w.add_collider(&ColliderDesc {
        shape: Shape::Sphere { radius: big_r },
        static_friction: 0.4,
        dynamic_friction: 0.3,
        ..ColliderDesc::default()
    })
    .unwrap();
    plane(
        &mut w,
        Vec3::new(0.0, -big_r, 0.0),
        Quat::IDENTITY,
        0.4,
        0.3,
        0.0,
    );
    let half = (n - 1) as f32 * s * 0.5;
    let pts: Vec<Vec3> = (0..n * n)
        .map(|k| {
            let (a, b) = ((k % n) as f32 * s - half, (k / n) as f32 * s);
            if vertical {
                Vec3::new(a, 2.0 * big_r + b, 0.05)
            } else {
                Vec3::new(a, 2.0 * big_r, b - half)
            }
        })
        .collect();
    w.add_particles(&pts, Some(&vec![1.0 / 0.01; pts.len()]))
        .unwrap();
    let id = |i: u32, j: u32| j * n + i;
    let mut links = Vec::new();
    let mut bends = Vec::new();
    for j in 0..n {
        for i in 0..n {
            if i + 1 < n {
                links.push([id(i, j), id(i + 1, j)]);
            }
            if j + 1 < n {
                links.push([id(i, j), id(i, j + 1)]);
            }
            if i + 1 < n && j + 1 < n {
                links.push([id(i, j), id(i + 1, j + 1)]);
                links.push([id(i + 1, j), id(i, j + 1)]);
            }
            if i + 2 < n {
                bends.push([id(i, j), id(i + 2, j)]);
            }
            if j + 2 < n {
                bends.push([id(i, j), id(i, j + 2)]);
            }
        }
    }
    w.add_distance_constraints(&links, None, 1e-6).unwrap();
    w.add_distance_constraints(&bends, None, 1e-3).unwrap();
    let r = 0.45 * s;
    w.set_particle_radii(0, &vec![r; pts.len()]).unwrap();
    let body = sinew::CollisionFilter {
        group: 1,
        self_collision,
        ..sinew::CollisionFilter::default()
    };
    w.set_collision_filters(0, &vec![body; pts.len()]).unwrap();
    for _ in 0..180 {
        w.step(DT).unwrap();
    }
    (w, r)
}

fn positions(w: &World) -> Vec<Vec3> {
    (0..w.particle_count() as usize)
        .map(|i| w.particles().position(i))
        .collect()
}

/// Smallest distance between two particles, and the smallest distance of a particle
/// from the origin (the sphere's centre).
fn closest_pair_and_centre(p: &[Vec3]) -> (f32, f32) {
    let mut closest = f32::MAX;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            closest = closest.min(p[i].distance(p[j]));
        }
    }
    (
        closest,
        p.iter().map(|q| q.length()).fold(f32::MAX, f32::min),
    )
}

#[test]
fn cloth_dropped_on_a_sphere_drapes_without_passing_through_it() {
    let (n, s, big_r) = (40u32, 0.03f32, 0.2f32);
    let (w, r) = drop_cloth(n, s, big_r, false, true);
    let p = positions(&w);
    let (closest, inside) = closest_pair_and_centre(&p);
    assert!(
        inside >= big_r + r - 1e-3,
        "a particle is {inside} m from the centre"
    );
    assert!(
        closest >= 0.9 * 2.0 * r,
        "closest pair {closest} < 90% of {}",
        2.0 * r
    );
    // Draped: the middle rests on top of the sphere, the corners lie on the floor.
    let centre = p[(n / 2 * n + n / 2) as usize];
    assert!((centre.y - (big_r + r)).abs() < 0.02, "centre at {centre}");
    assert!((p[0].y - (r - big_r)).abs() < 2e-3, "corner at {}", p[0]);
}

#[test]
fn crumpling_cloth_does_not_self_intersect() {
    let (s, big_r) = (0.03f32, 0.2f32);
    let (w, r) = drop_cloth(40, s, big_r, true, true);
    let (closest, inside) = closest_pair_and_centre(&positions(&w));
    assert!(
        inside >= big_r + r - 1e-3,
        "a particle is {inside} m from the centre"
    );
    assert!(
        closest >= 0.9 * 2.0 * r,
        "closest pair {closest} < 90% of {}",
        2.0 * r
    );
    // Control: the same drop without self-collision folds through itself.
    let (w, _) = drop_cloth(40, s, big_r, true, false);
    let (closest, _) = closest_pair_and_centre(&positions(&w));
    assert!(
        closest < 0.5 * r,
        "without self-collision the closest pair is {closest}"
    );
}

#[test]
fn rope_falls_onto_a_rope_and_hangs_over_it() {
    // Rope A: pinned at both ends along x at y = 0. Rope B: pinned at one end, held
    // horizontal along z above A, falls, swings onto A and hangs over it. Particle
    // radius 2.5 cm, spacing 5 cm: the particles of one rope touch, so the other cannot
    // slip between them. Different groups: the ropes collide.
    let mut w = World::new(WorldDesc {
        substeps: 10,
        iterations: 2,
        damping: 2.0,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let (k, s, r) = (21u32, 0.05f32, 0.025f32);
    let half = (k - 1) as f32 * s * 0.5;
    let a: Vec<Vec3> = (0..k)
        .map(|i| Vec3::new(i as f32 * s - half, 0.0, 0.0))
        .collect();
    let b: Vec<Vec3> = (0..k)
        .map(|i| Vec3::new(0.01, 0.15, i as f32 * s - 0.3))
        .collect();
    let mut inv_a = vec![1.0; k as usize];
    inv_a[0] = 0.0;
    inv_a[k as usize - 1] = 0.0;
    let mut inv_b = vec![1.0; k as usize];
    inv_b[0] = 0.0;
    let fa = w.add_particles(&a, Some(&inv_a)).unwrap();
    let fb = w.add_particles(&b, Some(&inv_b)).unwrap();
    for (first, group) in [(fa, 1u32), (fb, 2)] {
        let links: Vec<[u32; 2]> = (0..k - 1).map(|i| [first + i, first + i + 1]).collect();
        w.add_distance_constraints(&links, None, 0.0).unwrap();
        w.set_particle_radii(first, &vec![r; k as usize]).unwrap();
        let f = sinew::CollisionFilter {
            group,
            ..sinew::CollisionFilter::default()
        };
        w.set_collision_filters(first, &vec![f; k as usize])
            .unwrap();
    }
    for _ in 0..240 {
        w.step(DT).unwrap();
    }
    let mut closest = f32::MAX;
    for i in 0..k {
        for j in 0..k {
            closest = closest.min(pos(&w, fa + i).distance(pos(&w, fb + j)));
        }
    }
    assert!(closest >= 0.9 * 2.0 * r, "ropes interpenetrate: {closest}");
    // B passes over A: where B's chain crosses the vertical plane through A's middle,
    // it is above A; and B's free end hangs below A.
    let a_mid = pos(&w, fa + k / 2);
    let crossings: Vec<f32> = (0..k - 1)
        .filter_map(|j| {
            let (p, q) = (pos(&w, fb + j), pos(&w, fb + j + 1));
            let (dp, dq) = (p.z - a_mid.z, q.z - a_mid.z);
            (dp * dq <= 0.0 && dp != dq).then(|| p.y + (q.y - p.y) * dp / (dp - dq))
        })
        .collect();
    assert!(
        !crossings.is_empty() && crossings.iter().all(|&y| y > a_mid.y),
        "B crosses A's plane at heights {crossings:?}, A is at {a_mid}"
    );
    let end = pos(&w, fb + k - 1);
    assert!(
        end.y < a_mid.y - 0.2,
        "B's free end {end} does not hang over A"
    );
}

#[test]
fn velocity_clamping_keeps_fast_particles_from_passing_through_each_other() {
    // Two particles of radius 2 cm approach head-on at 20 m/s each: without a speed
    // limit they pass through each other within one step; limited to 1 m/s they meet
    // and push each other apart.
    let run = |max_speed: f32| {
        let mut w = World::new(WorldDesc {
            gravity: Vec3::ZERO,
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        w.set_max_speed(max_speed).unwrap();
        w.add_particles(&[Vec3::new(-0.1, 0.0, 0.0), Vec3::new(0.1, 0.0, 0.0)], None)
            .unwrap();
        w.set_particle_radii(0, &[0.02, 0.02]).unwrap();
        w.write_velocities(0, &[Vec3::new(20.0, 0.0, 0.0), Vec3::new(-20.0, 0.0, 0.0)])
            .unwrap();
        let mut v_max = 0.0f32;
        for _ in 0..30 {
            w.step(DT).unwrap();
            for i in 0..2 {
                v_max = v_max.max(w.particles().velocity(i).length());
            }
        }
        (pos(&w, 0), pos(&w, 1), v_max)
    };
    let (a, b, _) = run(0.0);
    assert!(
        a.x > b.x,
        "unlimited: they should have passed through ({a}, {b})"
    );
    let (a, b, v_max) = run(1.0);
    assert!(b.x - a.x >= 0.95 * 0.04, "limited: {a} {b}");
    assert!(v_max <= 1.0 + 1e-4, "speed {v_max} above the 1 m/s limit");
    let mut w = world(8, 1, 1);
    assert!(w.set_max_speed(-1.0).is_err() && w.set_max_speed(f32::NAN).is_err());
    assert_eq!(w.max_speed(), 0.0);
}
