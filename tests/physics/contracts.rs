//! Documented contracts that outside checks measured (issue 28): a collider's contact
//! impulse is never negative and a particle rising out of a collider keeps its own
//! velocity; a rope collides with its radius; a rope's tension readback carries the
//! weight below each link whether tethers share the load or not; inverse masses are
//! bounded below as well as above.

use sinew::{
    BodyConstraints, ColliderDesc, ErrorKind, Quat, RopeDesc, Shape, Vec3, World, WorldDesc,
    MIN_INVERSE_MASS,
};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

fn plane(w: &mut World, restitution: f32, friction: f32) {
    w.add_collider(&ColliderDesc {
        shape: Shape::Plane,
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        static_friction: friction,
        dynamic_friction: friction,
        restitution,
        ..ColliderDesc::default()
    })
    .unwrap();
}

/// The case the issue reports: a 1 kg particle 0.5 m inside a plane, rising at 3 m/s.
/// It read an impulse of −2.84 N·s and ended the step at rest (the restitution pass
/// removed its own outward velocity along with the push out of the plane).
#[test]
fn a_particle_rising_out_of_a_plane_keeps_its_velocity_and_a_non_negative_impulse() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    plane(&mut w, 0.0, 0.0);
    w.add_particles(&[Vec3::new(0.0, -0.5, 0.0)], None).unwrap();
    w.write_velocities(0, &[Vec3::new(0.0, 3.0, 0.0)]).unwrap();
    w.step(DT).unwrap();
    let contacts = w.contacts();
    assert_eq!(contacts.len(), 1, "{contacts:?}");
    let impulse = contacts[0].impulse;
    assert!(impulse >= 0.0, "impulse {impulse} N·s");
    // It separates on its own: the plane only moved it out, it gave it no momentum.
    assert!(impulse < 1e-3, "impulse {impulse} N·s");
    let v = w.particles().velocity(0).y;
    assert!((v - (3.0 - G * DT)).abs() < 1e-3, "velocity {v} m/s");
    assert!(w.particles().position(0).y >= 0.0);
}

/// A small deterministic generator (xorshift), so the test needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
    fn vec(&mut self, s: f32) -> Vec3 {
        Vec3::new(self.range(-s, s), self.range(-s, s), self.range(-s, s))
    }
}

/// Random particles, free and linked in pairs (so other constraints move them too),
/// inside and around a plane, a box and a sphere, the box moving: every reported
/// impulse of every step is >= 0.
#[test]
fn every_reported_contact_impulse_is_non_negative() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for trial in 0..6 {
        let mut w = World::new(WorldDesc {
            substeps: 1 + trial % 4,
            iterations: 1 + trial / 2,
            ..WorldDesc::default()
        })
        .unwrap();
        let e = rng.next();
        let mu = rng.next();
        plane(&mut w, e, mu);
        let boxed = w
            .add_collider(&ColliderDesc {
                shape: Shape::Box {
                    half_extents: Vec3::new(0.5, 0.3, 0.5),
                },
                position: Vec3::new(0.0, 0.5, 0.0),
                rotation: Quat::from_rotation_z(0.3),
                static_friction: mu,
                dynamic_friction: mu,
                restitution: e,
                ..ColliderDesc::default()
            })
            .unwrap();
        w.add_collider(&ColliderDesc {
            shape: Shape::Sphere { radius: 0.4 },
            position: Vec3::new(1.0, 0.2, 0.0),
            rotation: Quat::IDENTITY,
            static_friction: 0.0,
            dynamic_friction: 0.0,
            restitution: 1.0 - e,
            ..ColliderDesc::default()
        })
        .unwrap();
        let n = 200;
        let points: Vec<Vec3> = (0..n)
            .map(|_| rng.vec(1.2) + Vec3::new(0.4, 0.3, 0.0))
            .collect();
        let masses: Vec<f32> = (0..n).map(|_| rng.range(0.1, 10.0)).collect();
        w.add_particles(&points, Some(&masses)).unwrap();
        let radii: Vec<f32> = (0..n).map(|_| rng.range(0.0, 0.05)).collect();
        w.set_particle_radii(0, &radii).unwrap();
        let velocities: Vec<Vec3> = (0..n).map(|_| rng.vec(6.0)).collect();
        w.write_velocities(0, &velocities).unwrap();
        let pairs: Vec<[u32; 2]> = (0..n as u32 / 4).map(|k| [4 * k, 4 * k + 1]).collect();
        w.add_distance_constraints(&pairs, None, 0.0).unwrap();
        let mut seen = 0;
        for step in 0..30 {
            let t = step as f32 * DT;
            let at = Vec3::new(0.3 * (7.0 * t).sin(), 0.5 + 0.2 * (5.0 * t).cos(), 0.0);
            w.set_collider_transform(boxed, at, Quat::from_rotation_z(0.3 + t), false)
                .unwrap();
            w.step(DT).unwrap();
            for c in w.contacts() {
                assert!(
                    c.impulse >= 0.0 && c.impulse.is_finite(),
                    "trial {trial} step {step}: {c:?}"
                );
                seen += 1;
            }
        }
        assert!(seen > 100, "trial {trial}: only {seen} contacts");
    }
}

/// A rope of radius 0.05 m dropped on a plane rests with its centre line at y = 0.05
/// (it rested at y = 0: the builder never gave its particles the radius).
#[test]
fn a_rope_rests_on_a_plane_at_its_radius() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    plane(&mut w, 0.0, 0.5);
    let r = 0.05;
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(-1.0, 0.3, 0.0),
            end: Vec3::new(1.0, 0.3, 0.0),
            segments: 10,
            radius: r,
            pin_start: false,
            ..RopeDesc::default()
        })
        .unwrap();
    let (first, count) = w.body_particle_range(rope).unwrap();
    for i in first..first + count {
        assert_eq!(w.particles().radius(i as usize), r);
    }
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    for i in first..first + count {
        let y = w.particles().position(i as usize).y;
        assert!((y - r).abs() < 2e-3, "particle {i} at y = {y}");
    }
    // The builder gives the rope's particles a group of their own, so neighbours
    // closer than 2 r never push each other (see the next test).
    let filter = w.particles().collision_filter(first as usize);
    assert_ne!(filter.group, 0);
    assert!(!filter.self_collision);
}

/// Neighbouring particles of a thick rope overlap (links shorter than 2 r) without
/// pushing each other apart: the rope keeps its built length.
#[test]
fn a_thick_rope_does_not_push_its_own_particles_apart() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::ZERO,
            end: Vec3::new(1.0, 0.0, 0.0),
            segments: 20,
            radius: 0.1,
            ..RopeDesc::default()
        })
        .unwrap();
    let (first, count) = w.body_particle_range(rope).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
        // Every link keeps its 5 cm (contacts would push the ends 20 cm apart).
        for i in first..first + count - 1 {
            let a = w.particles().position(i as usize);
            let b = w.particles().position(i as usize + 1);
            let l = a.distance(b);
            assert!((l - 0.05).abs() < 5e-3, "link {i} is {l} m");
        }
    }
}

/// The tension of a 1 kg rope of 20 links hanging still from its pinned top: link k
/// carries the weight of the particles below it, with or without tethers (with tethers
/// on, the top link read 0.70 N of the 9.34 N it carries).
#[test]
fn a_hanging_rope_reads_the_weight_below_each_link_with_or_without_tethers() {
    for tethers in [true, false] {
        let mut w = World::new(WorldDesc {
            substeps: 8,
            iterations: 4,
            ..WorldDesc::default()
        })
        .unwrap();
        let segments = 20;
        let rope = w
            .add_rope(&RopeDesc {
                start: Vec3::new(0.0, 2.0, 0.0),
                end: Vec3::new(0.0, 0.0, 0.0),
                segments,
                total_mass: 1.0,
                tethers,
                ..RopeDesc::default()
            })
            .unwrap();
        for _ in 0..240 {
            w.step(DT).unwrap();
        }
        let n = w.body_force_count(rope, BodyConstraints::Stretch).unwrap();
        assert_eq!(n, segments as usize);
        let mut t = vec![0.0; n];
        w.read_body_forces(rope, BodyConstraints::Stretch, &mut t)
            .unwrap();
        let particle_mass = 1.0 / (segments + 1) as f32;
        for (k, &tension) in t.iter().enumerate() {
            let below = (segments as usize - k) as f32 * particle_mass * G;
            assert!(
                (tension - below).abs() < 0.03 * below,
                "tethers {tethers}: link {k} reads {tension} N, carries {below} N"
            );
        }
        if tethers {
            // The tethers' own readback is unchanged: what each tether holds.
            let m = w.body_force_count(rope, BodyConstraints::Tether).unwrap();
            let mut f = vec![0.0; m];
            w.read_body_forces(rope, BodyConstraints::Tether, &mut f)
                .unwrap();
            assert!(f.iter().sum::<f32>() > 1.0, "{f:?}");
        }
    }
}

/// An inverse mass between 0 (pinned) and MIN_INVERSE_MASS is refused with a message
/// naming the range (1e-40 was accepted and overflowed the particle's mass).
#[test]
fn inverse_masses_below_the_minimum_are_refused() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    for bad in [1e-40, f32::MIN_POSITIVE, MIN_INVERSE_MASS * 0.5] {
        let e = w.add_particles(&[Vec3::ZERO], Some(&[bad])).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        assert!(e.message.contains("inverse mass"), "{}", e.message);
    }
    assert_eq!(w.particles().len(), 0);
    w.add_particles(&[Vec3::ZERO, Vec3::X], Some(&[0.0, MIN_INVERSE_MASS]))
        .unwrap();
    let e = w.set_inverse_masses(0, &[1.0, 1e-40]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert_eq!(w.particles().inverse_mass(1), MIN_INVERSE_MASS);
    // The heaviest accepted particle falls like any other, finite.
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    assert!(w.particles().position(1).y < -0.1);
}

/// The search's bytes per particle are undefined without particles in the search: the
/// bench printed 19,784,456 "bytes per particle" for the cloth scene (no radius), the
/// whole heap divided by a count clamped to 1.
#[test]
fn contact_bytes_per_particle_needs_particles_in_the_search() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    plane(&mut w, 0.0, 0.0);
    w.add_particles(&[Vec3::Y, Vec3::new(0.0, 1.5, 0.0)], None)
        .unwrap();
    w.step(DT).unwrap();
    assert_eq!(w.neighbour_stats().particles, 0);
    assert_eq!(w.neighbour_stats().bytes_per_particle(), None);
    w.set_particle_radii(0, &[0.1, 0.1]).unwrap();
    w.step(DT).unwrap();
    let stats = w.neighbour_stats();
    assert_eq!(stats.particles, 2);
    assert_eq!(stats.bytes_per_particle(), Some(stats.bytes / 2));
}
