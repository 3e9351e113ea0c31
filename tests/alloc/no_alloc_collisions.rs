//! `World::step` never allocates with collisions on: a counting global allocator
//! watches the heap while particles rain onto colliders of every shape (plane, sphere,
//! capsule, box), touching each other (neighbour lists, rebuilt inside steps), one of them
//! grabbed, with the contact readback filled every step, and the contact events and
//! the colliders' summed forces taken every step.
//!
//! The test holds `counting_alloc::exclusive()`, so no other test counts meanwhile.

use sinew::scenes::{self, FRAME_DT};

use sinew::{ColliderDesc, ContactEvent, Quat, Shape, Vec3, World, WorldDesc};

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations};

fn collision_world(threads: u32) -> World {
    let mut w = World::new(WorldDesc {
        threads,
        ..scenes::default_desc()
    })
    .unwrap();
    let shapes = [
        Shape::Plane,
        Shape::Sphere { radius: 0.3 },
        Shape::Capsule {
            radius: 0.1,
            half_height: 0.5,
        },
        Shape::Box {
            half_extents: Vec3::new(0.4, 0.05, 0.4),
        },
    ];
    for (k, shape) in shapes.into_iter().enumerate() {
        w.add_collider(&ColliderDesc {
            shape,
            position: Vec3::new(k as f32 * 0.5 - 0.75, if k == 0 { 0.0 } else { 0.5 }, 0.0),
            rotation: Quat::from_rotation_z(0.2 * k as f32),
            static_friction: 0.5,
            dynamic_friction: 0.4,
            restitution: 0.3,
            ..ColliderDesc::default()
        })
        .unwrap();
    }
    // 6000 particles: more than one parallel chunk per pass.
    let pts: Vec<Vec3> = (0..6000)
        .map(|i| {
            Vec3::new(
                (i % 20) as f32 * 0.09 - 0.9,
                1.0 + (i / 400) as f32 * 0.09,
                ((i / 20) % 20) as f32 * 0.09 - 0.9,
            )
        })
        .collect();
    w.add_particles(&pts, None).unwrap();
    w.set_particle_radii(0, &vec![0.04; pts.len()]).unwrap();
    w.grab_particle(5, Vec3::new(0.0, 2.0, 0.0), 1e-3).unwrap();
    w
}

#[test]
fn step_with_collisions_does_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
                                                     // On the calling thread, as tests/alloc/no_alloc.rs: with rayon workers, rayon's own
                                                     // job deques allocate now and then (a plain world without collisions too).
    {
        let threads = 1;
        let mut w = collision_world(threads);
        w.set_contact_events(true).unwrap();
        let mut events = vec![ContactEvent::default(); sinew::MAX_CONTACT_EVENTS];
        let floor = w.contacts().first().map(|c| c.collider);
        // First steps: buffers grow to the particle count; particles reach the shapes.
        for _ in 0..30 {
            w.step(FRAME_DT).unwrap();
            w.take_contact_events(&mut events);
        }
        assert!(!w.contacts().is_empty());
        let floor = floor.unwrap_or(w.contacts()[0].collider);
        let mut taken = 0;
        let before = w.neighbour_stats();
        let (during, ()) = allocations_in(|| {
            for _ in 0..5 {
                w.step(FRAME_DT).unwrap();
                taken += w.take_contact_events(&mut events).0;
                w.collider_contact_wrench(floor, None).unwrap();
            }
        });
        assert!(taken > 0, "events were raised");
        let after = w.neighbour_stats();
        // The measured steps rebuild lists inside steps and update them partially.
        assert!(after.builds > before.builds + 5);
        assert!(after.partial_updates > before.partial_updates);
        assert_eq!(
            during, 0,
            "threads {threads}: {during} allocations in 5 steps"
        );
        assert_counter_sees_allocations();
    }
}
