//! Dynamic colliders (two-way coupling with a host's rigid bodies) against closed
//! forms: momentum of a rope pulling a free box, particles pushing a light box, the
//! period of a compound pendulum; determinism across thread counts.

use sinew::{
    ColliderDesc, ColliderDynamics, ColliderId, Quat, RopeDesc, Shape, Vec3, World, WorldDesc,
};

use super::collisions::DT;

const G: f32 = 9.81;

fn world(gravity: Vec3, substeps: u32, iterations: u32, threads: u32) -> World {
    World::new(WorldDesc {
        gravity,
        substeps,
        iterations,
        threads,
        ..WorldDesc::default()
    })
    .unwrap()
}

/// A dynamic box of mass `m` and half extents `e` at `at`.
pub(super) fn crate_box(w: &mut World, at: Vec3, e: Vec3, m: f32, gravity: bool) -> ColliderId {
    let id = w
        .add_collider(&ColliderDesc {
            shape: Shape::Box { half_extents: e },
            position: at,
            ..ColliderDesc::default()
        })
        .unwrap();
    w.set_collider_dynamics(
        id,
        &ColliderDynamics {
            mass: m,
            inertia: ColliderDynamics::box_inertia(m, e),
            gravity,
            ..ColliderDynamics::default()
        },
    )
    .unwrap();
    id
}

/// Σ m v over every movable particle (kg·m/s).
fn particle_momentum(w: &World) -> Vec3 {
    let p = w.particles();
    (0..p.len())
        .filter(|&i| p.inverse_mass(i) > 0.0)
        .map(|i| p.velocity(i) / p.inverse_mass(i))
        .sum()
}

/// A rope pulling a free box in zero gravity (pinned to its face, the rope's far half
/// thrown sideways and outwards): the momentum of rope + box stays the initial one
/// within 1%, and the box moves off with what the rope gave it.
#[test]
fn a_rope_pulling_a_free_box_keeps_the_momentum() {
    let mut w = world(Vec3::ZERO, 8, 4, 1);
    let (m, e) = (2.0, Vec3::splat(0.2));
    let id = crate_box(&mut w, Vec3::ZERO, e, m, false);
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(0.21, 0.0, 0.0),
            end: Vec3::new(2.21, 0.0, 0.0),
            segments: 20,
            total_mass: 1.0,
            pin_start: false,
            tethers: false,
            ..RopeDesc::default()
        })
        .unwrap();
    let range = w.body(rope).unwrap().particles.clone();
    w.pin_to_collider(id, &[range.start], &[Vec3::new(0.21, 0.0, 0.0)], 0.0)
        .unwrap();
    let v: Vec<Vec3> = (0..range.len())
        .map(|k| {
            if k > 10 {
                Vec3::new(2.0, 1.0, 0.0)
            } else {
                Vec3::ZERO
            }
        })
        .collect();
    w.write_velocities(range.start, &v).unwrap();
    let p0 = particle_momentum(&w);
    let mut worst = 0.0f32;
    for _ in 0..120 {
        w.step(DT).unwrap();
        let motion = w.collider_motion(id).unwrap();
        let total = particle_momentum(&w) + motion.velocity * m;
        worst = worst.max((total - p0).length() / p0.length());
    }
    let vb = w.collider_motion(id).unwrap().velocity;
    println!("rope + box: momentum {p0} kg·m/s, worst drift {worst:.2e}, box velocity {vb}");
    assert!(worst < 0.01, "momentum drift {worst}");
    assert!(vb.x > 0.1, "the rope pulls the box along: {vb}");
}

/// Particles dropped on a light box floating in zero gravity (the world's gravity acts
/// on the particles only): the box takes the momentum the particles lose, beyond what
/// gravity gives them, and `mass × velocity_change` is the wrench's impulse.
#[test]
fn particles_dropped_on_a_light_box_push_it() {
    let mut w = world(Vec3::new(0.0, -G, 0.0), 8, 2, 1);
    let (m, e) = (0.5, Vec3::new(0.5, 0.1, 0.5));
    let id = crate_box(&mut w, Vec3::ZERO, e, m, false);
    let n = 25;
    let points: Vec<Vec3> = (0..n)
        .map(|k| {
            Vec3::new(
                (k % 5) as f32 * 0.15 - 0.3,
                0.3,
                (k / 5) as f32 * 0.15 - 0.3,
            )
        })
        .collect();
    // 0.1 kg each (the argument is the inverse mass).
    let inv_mass = vec![10.0f32; n];
    w.add_particles(&points, Some(&inv_mass)).unwrap();
    w.set_particle_radii(0, &vec![0.03; n]).unwrap();
    let mut expected = particle_momentum(&w);
    let mut worst = 0.0f32;
    let mut pushed = 0.0f32;
    for _ in 0..90 {
        w.step(DT).unwrap();
        expected += Vec3::new(0.0, -G, 0.0) * (0.1 * n as f32 * DT);
        let motion = w.collider_motion(id).unwrap();
        let total = particle_momentum(&w) + motion.velocity * m;
        worst = worst.max((total - expected).length() / expected.length());
        let wrench = w.collider_contact_wrench(id, None).unwrap();
        let from_wrench = wrench.force * DT;
        let from_motion = motion.velocity_change * m;
        assert!(
            (from_wrench - from_motion).length() <= 1e-4 * (1.0 + from_motion.length()),
            "wrench impulse {from_wrench} vs m Δv {from_motion}"
        );
        pushed = pushed.min(motion.velocity.y);
    }
    println!("pile on a light box: worst momentum error {worst:.2e}, box vy {pushed}");
    assert!(worst < 0.01, "momentum error {worst}");
    assert!(pushed < -0.5, "the box is pushed down: {pushed}");
}

/// A box hung by a pin at its top edge from a fixed particle swings with the period of
/// a compound pendulum, `T = 2π sqrt(I_p / (m g d))` (I_p about the pivot, d the
/// distance from the pivot to the centre of mass), within 2% at 0.1 rad.
#[test]
fn a_box_on_a_pin_swings_as_a_compound_pendulum() {
    let mut w = world(Vec3::new(0.0, -G, 0.0), 16, 2, 1);
    let (m, e) = (3.0, Vec3::new(0.1, 0.4, 0.1));
    let d = e.y;
    let tilt = 0.1f32;
    let rot = Quat::from_rotation_z(tilt);
    let pivot = Vec3::new(0.0, 2.0, 0.0);
    // The centre hangs d below the pivot, turned by the tilt.
    let centre = pivot - rot * Vec3::new(0.0, d, 0.0);
    let id = crate_box(&mut w, centre, e, m, true);
    w.set_collider_transform(id, centre, rot, true).unwrap();
    let anchor = w.add_particles(&[pivot], Some(&[0.0])).unwrap();
    w.set_particle_radii(anchor, &[0.0]).unwrap();
    w.pin_to_collider(id, &[anchor], &[Vec3::new(0.0, d, 0.0)], 0.0)
        .unwrap();
    let inertia = m * (4.0 * e.x * e.x + 4.0 * e.y * e.y) / 12.0 + m * d * d;
    let period = 2.0 * std::f32::consts::PI * (inertia / (m * G * d)).sqrt();
    // Time the zero crossings of the angle (x of the centre) from positive to negative.
    let mut crossings = Vec::new();
    let mut last = centre.x;
    let mut t = 0.0f32;
    for _ in 0..(4.0 * period / DT) as usize {
        w.step(DT).unwrap();
        t += DT;
        let x = w.collider(id).unwrap().position.x;
        if last > 0.0 && x <= 0.0 {
            crossings.push(t - DT * x / (x - last));
        }
        last = x;
    }
    assert!(crossings.len() >= 3, "crossings {crossings:?}");
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    let err = (measured - period).abs() / period;
    println!(
        "compound pendulum: T {measured:.4} s vs {period:.4} s ({:.2}%)",
        err * 100.0
    );
    assert!(err < 0.02, "period {measured} vs {period}");
}

/// A pile falling on a spinning light box with friction and restitution, a rope pinned
/// to it: the same bits on 1 and 2 threads.
#[test]
fn dynamic_colliders_give_the_same_bits_on_any_thread_count() {
    let run = |threads: u32| {
        let mut w = world(Vec3::new(0.0, -G, 0.0), 4, 2, threads);
        let id = crate_box(&mut w, Vec3::ZERO, Vec3::new(0.6, 0.1, 0.6), 0.8, false);
        let mut d = w.collider_dynamics(id).unwrap().unwrap();
        d.angular_velocity = Vec3::new(0.0, 2.0, 0.3);
        w.set_collider_dynamics(id, &d).unwrap();
        // Restitution: the bounces' exchange with the proxy too.
        w.set_collider_material(id, 0.6, 0.5, 0.4).unwrap();
        let points: Vec<Vec3> = (0..3000)
            .map(|k| {
                Vec3::new(
                    (k % 20) as f32 * 0.05 - 0.5,
                    0.2 + (k / 400) as f32 * 0.05,
                    ((k / 20) % 20) as f32 * 0.05 - 0.5,
                )
            })
            .collect();
        w.add_particles(&points, None).unwrap();
        w.set_particle_radii(0, &vec![0.02; points.len()]).unwrap();
        let rope = w
            .add_rope(&RopeDesc {
                start: Vec3::new(0.6, 0.0, 0.0),
                end: Vec3::new(1.6, 0.0, 0.0),
                segments: 10,
                pin_start: false,
                ..RopeDesc::default()
            })
            .unwrap();
        let first = w.body(rope).unwrap().particles.start;
        w.pin_to_collider(id, &[first], &[Vec3::new(0.6, 0.0, 0.0)], 1e-6)
            .unwrap();
        for _ in 0..20 {
            w.step(DT).unwrap();
        }
        let p = w.particles();
        let mut bits: Vec<u32> = (0..p.len())
            .flat_map(|i| p.position(i).to_array())
            .map(f32::to_bits)
            .collect();
        let c = w.collider(id).unwrap();
        let motion = w.collider_motion(id).unwrap();
        bits.extend(
            [c.position, motion.velocity, motion.angular_velocity]
                .iter()
                .flat_map(|v| v.to_array())
                .map(f32::to_bits),
        );
        bits
    };
    let one = run(1);
    assert!(run(2) == one, "1 vs 2 threads differ");
}

/// Invalid dynamics are refused (mass, inertia, vectors), a kinematic collider has no
/// motion to read, and clearing the dynamics makes it kinematic again.
#[test]
fn bad_dynamics_are_refused() {
    let mut w = world(Vec3::ZERO, 4, 1, 1);
    let id = crate_box(&mut w, Vec3::ZERO, Vec3::splat(0.5), 1.0, false);
    let good = w.collider_dynamics(id).unwrap().unwrap();
    let bad = [
        ColliderDynamics { mass: 0.0, ..good },
        ColliderDynamics {
            mass: f32::NAN,
            ..good
        },
        ColliderDynamics {
            inertia: sinew::Mat3::from_diagonal(Vec3::new(1.0, -1.0, 1.0)),
            ..good
        },
        ColliderDynamics {
            inertia: sinew::Mat3::from_cols(Vec3::X, Vec3::new(0.5, 1.0, 0.0), Vec3::Z),
            ..good
        },
        ColliderDynamics {
            velocity: Vec3::new(f32::INFINITY, 0.0, 0.0),
            ..good
        },
        ColliderDynamics {
            center_of_mass: Vec3::new(0.0, f32::NAN, 0.0),
            ..good
        },
    ];
    for d in bad {
        assert!(w.set_collider_dynamics(id, &d).is_err(), "{d:?}");
    }
    assert_eq!(w.collider_dynamics(id).unwrap(), Some(good));
    w.clear_collider_dynamics(id).unwrap();
    assert!(w.collider_motion(id).is_err());
    assert!(
        w.pin_to_collider(id, &[0], &[Vec3::ZERO], 0.0).is_err(),
        "no particle 0"
    );
}

/// A world with a dynamic collider (spinning, friction, a pile on it, a pinned rope)
/// saved mid-run and restored steps on bit for bit; the dynamics read back.
#[test]
fn dynamic_colliders_and_pins_survive_a_snapshot() {
    let mut w = world(Vec3::new(0.0, -G, 0.0), 4, 2, 1);
    let id = crate_box(&mut w, Vec3::ZERO, Vec3::new(0.4, 0.1, 0.4), 0.8, false);
    let mut d = w.collider_dynamics(id).unwrap().unwrap();
    d.angular_velocity = Vec3::new(0.0, 1.5, 0.0);
    d.center_of_mass = Vec3::new(0.05, 0.0, 0.0);
    w.set_collider_dynamics(id, &d).unwrap();
    w.set_collider_material(id, 0.5, 0.4, 0.0).unwrap();
    let points: Vec<Vec3> = (0..50)
        .map(|k| Vec3::new((k % 7) as f32 * 0.1 - 0.3, 0.2 + (k / 7) as f32 * 0.06, 0.0))
        .collect();
    w.add_particles(&points, None).unwrap();
    w.set_particle_radii(0, &vec![0.03; points.len()]).unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(0.45, 0.0, 0.0),
            end: Vec3::new(1.2, 0.0, 0.0),
            segments: 6,
            pin_start: false,
            ..RopeDesc::default()
        })
        .unwrap();
    let first = w.body(rope).unwrap().particles.start;
    w.pin_to_collider(id, &[first], &[Vec3::new(0.45, 0.0, 0.0)], 0.0)
        .unwrap();
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    let bytes = w.snapshot();
    let mut copy = World::from_snapshot(&bytes, 1).unwrap();
    assert_eq!(copy.collider_dynamics(id).unwrap(), Some(d));
    assert_eq!(copy.pin_count(), 1);
    for _ in 0..10 {
        w.step(DT).unwrap();
        copy.step(DT).unwrap();
    }
    assert_eq!(w.state_hash(), copy.state_hash(), "restored world diverged");
    assert_eq!(
        w.collider_motion(id).unwrap(),
        copy.collider_motion(id).unwrap()
    );
    // Removing the collider removes its pins; they stop acting.
    copy.remove_collider(id).unwrap();
    copy.step(DT).unwrap();
    let mut f = [Vec3::ONE];
    copy.read_pin_forces(0, &mut f).unwrap();
    assert_eq!(f[0], Vec3::ZERO);
}

/// A heavy particle (10 kg, 2 m/s) landing on a light free box (0.1 kg) in zero
/// gravity: within the step of the impact both move on together at the perfectly
/// inelastic closed form `m v / (m + M)` (within 1%), not a frame later.
#[test]
fn a_heavy_load_moves_a_light_crate_within_the_step() {
    let mut w = world(Vec3::ZERO, 8, 2, 1);
    let (m_box, e) = (0.1, Vec3::new(0.3, 0.1, 0.3));
    let id = crate_box(&mut w, Vec3::ZERO, e, m_box, false);
    let p = w
        .add_particles(&[Vec3::new(0.0, 0.16, 0.0)], Some(&[0.1]))
        .unwrap();
    w.set_particle_radii(p, &[0.05]).unwrap();
    w.write_velocities(p, &[Vec3::new(0.0, -2.0, 0.0)]).unwrap();
    w.step(DT).unwrap();
    let together = 10.0 * -2.0 / (10.0 + m_box);
    let vb = w.collider_motion(id).unwrap().velocity.y;
    let vp = w.particles().velocity(p as usize).y;
    println!("heavy on light: box {vb} m/s, particle {vp} m/s, closed form {together} m/s");
    assert!(
        (vb - together).abs() < 0.01 * together.abs(),
        "box {vb} vs {together}"
    );
    assert!(
        (vp - together).abs() < 0.01 * together.abs(),
        "particle {vp} vs {together}"
    );
}

/// A pin's force is |λ| / h² along the pin, and with accepted values it passes what
/// `f32` holds: a particle of 1e12 kg (the smallest inverse mass) pulled 1e9 m in the
/// shortest substep (`MIN_DT` over `MAX_SUBSTEPS`, about 1e-9 s) feels about 1e39 N.
/// It reads as the largest `f32` along the pin, finite (before, the infinite magnitude
/// times the direction's zero components read as NaN; found by the API fuzzer).
#[test]
fn a_pin_force_past_f32_reads_as_the_largest_float() {
    let mut w = world(Vec3::ZERO, sinew::MAX_SUBSTEPS, 1, 1);
    let post = w
        .add_collider(&ColliderDesc {
            shape: Shape::Sphere { radius: 0.1 },
            position: Vec3::new(5.0e8, 0.0, 0.0),
            ..ColliderDesc::default()
        })
        .unwrap();
    let heavy = w
        .add_particles(
            &[Vec3::new(-5.0e8, 0.0, 1.0)],
            Some(&[sinew::MIN_INVERSE_MASS]),
        )
        .unwrap();
    // The pin's point 1 m off the post (outside it): the pull is along x alone.
    let pin = w
        .pin_to_collider(post, &[heavy], &[Vec3::new(0.0, 0.0, 1.0)], 0.0)
        .unwrap();
    w.step(sinew::MIN_DT).unwrap();
    let mut force = [Vec3::splat(1.0)];
    w.read_pin_forces(pin, &mut force).unwrap();
    let f = force[0];
    // Along x (at 5e8 m positions are 32 m apart, so the last substep's pull may
    // point either way), saturated, the other components zero.
    assert!(f.is_finite(), "{f}");
    assert_eq!((f.x.abs(), f.y, f.z), (f32::MAX, 0.0, 0.0), "{f}");
}
