//! Collider contacts are bit-identical for 1, 2, 4 and 8 threads: 6,000 particles (the
//! passes run in parallel chunks) rain onto every collider shape at once — a tilted
//! plane with friction and restitution, a sphere, a capsule, a box and a triangle mesh,
//! one of them moving and turning every frame — and the positions, velocities and the
//! contact readback of every thread count are the same bits.

use sinew::{ColliderDesc, Quat, Shape, Vec3, World, WorldDesc};

fn run(threads: u32) -> (u64, [usize; 5]) {
    let mut w = World::new(WorldDesc {
        substeps: 8,
        iterations: 2,
        threads,
        ..WorldDesc::default()
    })
    .unwrap();
    let shaped = |shape, position, rotation| ColliderDesc {
        shape,
        position,
        rotation,
        static_friction: 0.4,
        dynamic_friction: 0.3,
        restitution: 0.5,
        ..ColliderDesc::default()
    };
    w.add_collider(&shaped(
        Shape::Plane,
        Vec3::ZERO,
        Quat::from_rotation_z(0.2),
    ))
    .unwrap();
    w.add_collider(&shaped(
        Shape::Sphere { radius: 0.25 },
        Vec3::new(-0.5, 0.4, 0.0),
        Quat::IDENTITY,
    ))
    .unwrap();
    let paddle = w
        .add_collider(&shaped(
            Shape::Capsule {
                radius: 0.08,
                half_height: 0.4,
            },
            Vec3::new(0.5, 0.5, 0.0),
            Quat::from_rotation_x(1.3),
        ))
        .unwrap();
    w.add_collider(&shaped(
        Shape::Box {
            half_extents: Vec3::new(0.3, 0.02, 0.3),
        },
        Vec3::new(0.0, 0.7, 0.5),
        Quat::from_rotation_y(0.4),
    ))
    .unwrap();
    let (vertices, triangles) = sinew::scenes::box_mesh(Vec3::new(0.2, 0.05, 0.2));
    w.add_mesh_collider(
        &shaped(
            Shape::Mesh,
            Vec3::new(0.0, 0.6, -0.5),
            Quat::from_rotation_z(-0.3),
        ),
        &vertices,
        &triangles,
    )
    .unwrap();
    let side = 20usize;
    let mut pts = Vec::new();
    for i in 0..6000 {
        let (a, b, c) = (i % side, (i / side) % side, i / (side * side));
        pts.push(Vec3::new(
            -0.9 + 0.09 * a as f32 + 0.003 * (c % 3) as f32,
            1.0 + 0.05 * c as f32,
            -0.9 + 0.09 * b as f32,
        ));
    }
    w.add_particles(&pts, None).unwrap();
    w.set_particle_radii(0, &vec![0.02; pts.len()]).unwrap();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u64| h = (h ^ x).wrapping_mul(0x100_0000_01b3);
    let mut reported = [0usize; 5];
    for frame in 0..45 {
        let t = frame as f32 / 60.0;
        w.set_collider_transform(
            paddle,
            Vec3::new(0.5 - 0.3 * t, 0.5, 0.1 * t),
            Quat::from_rotation_x(1.3 + 2.0 * t),
            false,
        )
        .unwrap();
        w.step(1.0 / 60.0).unwrap();
        for c in w.contacts() {
            // Slot + 1 in the low 24 bits of the id: colliders 1..=5 in the order
            // added. The top 20 bits are the world serial, which differs between the
            // worlds compared: hashed without it.
            reported[(c.collider.0 & 0xFF_FFFF) as usize - 1] += 1;
            eat(c.particle as u64);
            eat(c.collider.0 & ((1 << 44) - 1));
            for x in [c.normal.x, c.normal.y, c.normal.z, c.impulse] {
                eat(x.to_bits() as u64);
            }
        }
    }
    for i in 0..w.particle_count() as usize {
        let (p, v) = (w.particles().position(i), w.particles().velocity(i));
        for x in [p.x, p.y, p.z, v.x, v.y, v.z] {
            eat(x.to_bits() as u64);
        }
    }
    (h, reported)
}

#[test]
fn collider_contacts_are_bit_identical_across_thread_counts() {
    let (h1, reported) = run(1);
    // Every shape is hit (plane, sphere, moving capsule, box, mesh).
    assert!(
        reported.iter().all(|&k| k > 200),
        "contacts per collider: {reported:?}"
    );
    for threads in [2, 4, 8] {
        assert_eq!(run(threads).0, h1, "{threads} threads differ from 1");
    }
}
