//! Dynamic colliders, the velocity pass of their contacts against closed forms: a
//! contact that does not bounce ends with the particle and the body's material at the
//! same normal velocity, the impulse for it exchanged with the proxy (no energy from a
//! particle pushed out of an overlap, the momentum kept); a particle sliding on a
//! moving box with friction μ reaches its velocity in the time Coulomb's law gives; a
//! pile on a box its host holds weighs its weight on it; several particles bouncing
//! off one body at once give the closed form of the combined impact, and a particle
//! leaving on its own takes no share of it (a contact only pushes).

use sinew::{ColliderDynamics, ColliderId, Mat3, Quat, Vec3, World, WorldDesc};

use super::collisions::DT;
use super::contact_reports::add_pile;
use super::dynamic_colliders::crate_box;

const G: f32 = 9.81;

fn world(gravity: Vec3, substeps: u32, iterations: u32) -> World {
    World::new(WorldDesc {
        gravity,
        substeps,
        iterations,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

/// What a host does for a body resting on a frictionless floor at height `y` after
/// each step: it keeps the proxy's horizontal velocity and position, and the floor
/// takes the vertical motion and the tilt (velocity, angular velocity and turn reset).
fn hold_on_floor(w: &mut World, id: ColliderId, y: f32) {
    let d = w.collider_dynamics(id).unwrap().unwrap();
    let motion = w.collider_motion(id).unwrap();
    let at = w.collider(id).unwrap().position;
    w.set_collider_transform(id, Vec3::new(at.x, y, at.z), Quat::IDENTITY, true)
        .unwrap();
    let v = Vec3::new(motion.velocity.x, 0.0, motion.velocity.z);
    w.set_collider_dynamics(
        id,
        &ColliderDynamics {
            velocity: v,
            angular_velocity: Vec3::ZERO,
            ..d
        },
    )
    .unwrap();
}

/// A particle (0.5 kg) put 2 cm deep into the top face of a free 2 kg box, both at
/// rest, zero gravity, no restitution: the contact pushes it out, and the velocity
/// that push would leave (2 cm over one substep, ~10 m/s) is taken back from the
/// particle and the box together, so both stay at rest (momentum 0 and no relative
/// normal velocity: the closed form of a perfectly inelastic contact), as a particle
/// pushed out of a kinematic box stays at rest.
#[test]
fn a_particle_pushed_out_of_a_free_box_gains_no_speed() {
    let (m, mp, r) = (2.0f32, 0.5f32, 0.05f32);
    let mut w = world(Vec3::ZERO, 8, 4);
    let id = crate_box(&mut w, Vec3::ZERO, Vec3::splat(0.2), m, false);
    w.set_collider_material(id, 0.0, 0.0, 0.0).unwrap();
    w.add_particles(&[Vec3::new(0.05, 0.2 + r - 0.02, 0.0)], Some(&[1.0 / mp]))
        .unwrap();
    w.set_particle_radii(0, &[r]).unwrap();
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    let vp = w.particles().velocity(0);
    let motion = w.collider_motion(id).unwrap();
    let momentum = vp * mp + motion.velocity * m;
    println!(
        "pushed out: particle {vp} m/s, box {} m/s, ω {} rad/s, momentum {momentum}",
        motion.velocity, motion.angular_velocity
    );
    assert!(momentum.length() < 1e-5, "momentum {momentum}");
    assert!(vp.length() < 1e-3, "the particle left at {vp} m/s");
    assert!(
        motion.velocity.length() < 1e-3 && motion.angular_velocity.length() < 1e-2,
        "the box left at {} m/s, {} rad/s",
        motion.velocity,
        motion.angular_velocity
    );
}

/// A 1 kg box on a frictionless floor (its host's) sliding at 2 m/s under a 0.25 kg
/// particle put on it at rest, friction μ: the friction force μ m g slows the particle
/// and drives the box, the relative velocity closing at μ g (1 + m/M), so the two move
/// on together at the momentum's velocity M v0 / (M + m) after t = v0 / (μ g (1 + m/M)).
/// The horizontal momentum stays the initial one throughout.
#[test]
fn a_particle_on_a_moving_box_reaches_its_velocity_in_the_coulomb_time() {
    let (m, mp, r, v0) = (1.0f32, 0.25f32, 0.05f32, 2.0f32);
    for mu in [0.2f32, 0.4] {
        let mut w = world(Vec3::new(0.0, -G, 0.0), 8, 4);
        let y = -0.1;
        let id = crate_box(
            &mut w,
            Vec3::new(0.0, y, 0.0),
            Vec3::new(2.0, 0.1, 0.5),
            m,
            false,
        );
        w.set_collider_material(id, mu, mu, 0.0).unwrap();
        let d = w.collider_dynamics(id).unwrap().unwrap();
        w.set_collider_dynamics(
            id,
            &ColliderDynamics {
                velocity: Vec3::new(v0, 0.0, 0.0),
                ..d
            },
        )
        .unwrap();
        w.add_particles(&[Vec3::new(1.0, r, 0.0)], Some(&[1.0 / mp]))
            .unwrap();
        w.set_particle_radii(0, &[r]).unwrap();
        let closing = mu * G * (1.0 + mp / m);
        let t_closed = v0 / closing;
        let together = m * v0 / (m + mp);
        let mut t_stick = None;
        let mut worst_drift = 0.0f32;
        for frame in 1..=(1.5 * t_closed / DT) as u32 {
            w.step(DT).unwrap();
            let vb = w.collider_motion(id).unwrap().velocity.x;
            let vp = w.particles().velocity(0).x;
            let drift = (mp * vp + m * vb - m * v0).abs() / (m * v0);
            worst_drift = worst_drift.max(drift);
            if t_stick.is_none() && vb - vp < 0.01 * v0 {
                t_stick = Some(frame as f32 * DT);
            }
            hold_on_floor(&mut w, id, y);
        }
        let vb = w.collider_motion(id).unwrap().velocity.x;
        let vp = w.particles().velocity(0).x;
        let t = t_stick.expect("the particle reaches the box's velocity");
        println!(
            "μ = {mu}: together after {t:.4} s (Coulomb {t_closed:.4} s), box {vb:.4}, particle \
             {vp:.4} m/s (closed form {together:.4}), worst momentum drift {worst_drift:.2e}"
        );
        // The relative velocity crosses 1% of v0 at 0.99 of the closed-form time.
        assert!(
            (t - 0.99 * t_closed).abs() < 0.03 * t_closed + DT,
            "μ = {mu}: {t} s vs {t_closed} s"
        );
        assert!(worst_drift < 1e-3, "momentum drift {worst_drift}");
        for v in [vb, vp] {
            assert!((v - together).abs() < 0.01 * together, "{v} vs {together}");
        }
    }
}

/// A pile of loose particles (2 and 3 layers of 4 × 4, particle contacts on) on a
/// 20 kg dynamic box that its host holds on the ground (after each step its velocity
/// and pose are reset): the box carries the pile's weight within 1%, the mean of the
/// wrench, and the host reads the same impulse as the proxy's velocity change.
#[test]
fn a_pile_on_a_held_dynamic_box_weighs_its_weight() {
    for layers in 2..=3u32 {
        let mut w = world(Vec3::new(0.0, -G, 0.0), 10, 2);
        let (m, y) = (20.0f32, -0.1f32);
        let id = crate_box(
            &mut w,
            Vec3::new(0.0, y, 0.0),
            Vec3::new(2.0, 0.1, 2.0),
            m,
            false,
        );
        w.set_collider_material(id, 0.6, 0.6, 0.0).unwrap();
        let (count, mass) = add_pile(&mut w, layers);
        let hold = |w: &mut World| {
            let d = w.collider_dynamics(id).unwrap().unwrap();
            w.set_collider_transform(id, Vec3::new(0.0, y, 0.0), Quat::IDENTITY, true)
                .unwrap();
            w.set_collider_dynamics(
                id,
                &ColliderDynamics {
                    velocity: Vec3::ZERO,
                    angular_velocity: Vec3::ZERO,
                    ..d
                },
            )
            .unwrap();
        };
        for _ in 0..120 {
            w.step(DT).unwrap();
            hold(&mut w);
        }
        let (mut force, mut change) = (Vec3::ZERO, Vec3::ZERO);
        let steps = 60;
        for _ in 0..steps {
            w.step(DT).unwrap();
            force += w.collider_contact_wrench(id, None).unwrap().force;
            change += w.collider_motion(id).unwrap().velocity_change;
            hold(&mut w);
        }
        let (force, change) = (force / steps as f32, change / steps as f32);
        let weight = count as f32 * mass * G;
        println!(
            "pile of {layers} layers on a held dynamic box: force {:.3} N, M Δv / dt {:.3} N, \
             weight {weight:.3} N",
            -force.y,
            -m * change.y / DT
        );
        assert!(
            (force.y + weight).abs() < 0.01 * weight,
            "{layers} layers: force {force} vs {weight}"
        );
        assert!(
            (m * change.y / DT - force.y).abs() < 1e-3 * weight,
            "the proxy's impulse {} vs the wrench {}",
            m * change.y / DT,
            force.y
        );
    }
}

/// Two equal particles (0.5 kg) hitting the top face of a free 1 kg box at once, at
/// x = ±0.3 m from its centre (zero gravity, restitution e): by symmetry the box does
/// not turn, and Newton's law of restitution for the combined impact gives each
/// particle the impulse `J = (1 + e) v0 / (1/m + 2/M)`: the box leaves at `2 J / M`,
/// the particles at `−v0 + J / m`, the relative normal velocity is `−e` times the
/// approach and for e = 1 the kinetic energy is kept. (Each contact's share of the
/// body's generalized inverse mass, `1/M + (r × n)ᵀ I⁻¹ (r × n)`, counts the turn the
/// other contact cancels; the impact is solved for the body's velocity change from
/// both contacts together.)
#[test]
fn two_particles_hitting_a_box_at_once_bounce_as_the_combined_impact() {
    let (m, mp, r, v0) = (1.0f32, 0.5f32, 0.05f32, 3.0f32);
    for e in [0.0f32, 0.5, 1.0] {
        let mut w = world(Vec3::ZERO, 8, 4);
        let id = crate_box(&mut w, Vec3::ZERO, Vec3::new(0.5, 0.2, 0.5), m, false);
        w.set_collider_material(id, 0.0, 0.0, e).unwrap();
        let at = [Vec3::new(-0.3, 0.4, 0.0), Vec3::new(0.3, 0.4, 0.0)];
        w.add_particles(&at, Some(&[1.0 / mp; 2])).unwrap();
        w.set_particle_radii(0, &[r; 2]).unwrap();
        w.write_velocities(0, &[Vec3::new(0.0, -v0, 0.0); 2])
            .unwrap();
        for _ in 0..20 {
            w.step(DT).unwrap();
        }
        let j = (1.0 + e) * v0 / (1.0 / mp + 2.0 / m);
        let (vb_closed, vp_closed) = (-2.0 * j / m, -v0 + j / mp);
        let motion = w.collider_motion(id).unwrap();
        let (vb, ω) = (motion.velocity, motion.angular_velocity);
        let vp = [w.particles().velocity(0), w.particles().velocity(1)];
        let energy = 0.5 * m * vb.length_squared()
            + 0.5 * mp * (vp[0].length_squared() + vp[1].length_squared());
        let energy0 = mp * v0 * v0;
        println!(
            "e = {e}: box {vb} m/s (closed form {vb_closed}), ω {ω}, particles {} / {} m/s \
             (closed form {vp_closed}), energy {energy:.4} of {energy0:.4} J",
            vp[0], vp[1]
        );
        let tol = 2e-3 * v0;
        assert!((vb.y - vb_closed).abs() < tol, "box {vb} vs {vb_closed}");
        assert!(ω.length() < 1e-3, "the box turned: {ω}");
        for v in vp {
            assert!((v.y - vp_closed).abs() < tol, "particle {v} vs {vp_closed}");
        }
        if e == 1.0 {
            assert!(
                (energy - energy0).abs() < 5e-3 * energy0,
                "energy {energy} vs {energy0}"
            );
        }
    }
}

/// Three particles of different masses (0.3, 0.5 and 0.8 kg) hitting the top face of a
/// free 1 kg box at once at different points (zero gravity, restitution e): Newton's
/// law of restitution holds at every contact (the relative normal velocity of each
/// particle and the box's material under it, `v + ω × r`, is −e times the approach),
/// the linear and angular momentum of particles + box are kept, and for e = 1 the
/// kinetic energy too (the closed form of a simultaneous impact: no contact pulls).
#[test]
fn particles_hitting_a_box_at_once_off_centre_keep_newtons_law_at_every_contact() {
    let (m, r, v0) = (1.0f32, 0.05f32, 3.0f32);
    let masses = [0.3f32, 0.5, 0.8];
    let at = [
        Vec3::new(-0.3, 0.3, 0.1),
        Vec3::new(0.25, 0.3, -0.2),
        Vec3::new(0.1, 0.3, 0.3),
    ];
    let e_box = Vec3::new(0.5, 0.2, 0.5);
    for e in [0.5f32, 1.0] {
        let mut w = world(Vec3::ZERO, 8, 4);
        let id = crate_box(&mut w, Vec3::ZERO, e_box, m, false);
        w.set_collider_material(id, 0.0, 0.0, e).unwrap();
        w.add_particles(&at, Some(&masses.map(|mp| 1.0 / mp)))
            .unwrap();
        w.set_particle_radii(0, &[r; 3]).unwrap();
        w.write_velocities(0, &[Vec3::new(0.0, -v0, 0.0); 3])
            .unwrap();
        let momentum0: Vec3 = masses.iter().map(|&mp| Vec3::new(0.0, -mp * v0, 0.0)).sum();
        let angular0: Vec3 = masses
            .iter()
            .zip(at)
            .map(|(&mp, x)| x.cross(Vec3::new(0.0, -mp * v0, 0.0)))
            .sum();
        let energy0: f32 = masses.iter().map(|&mp| 0.5 * mp * v0 * v0).sum();
        // The step of the impact: every particle reports its contact.
        let mut frames = 0;
        while w.contacts().len() < 3 {
            assert!(w.contacts().is_empty(), "the particles hit at once");
            w.step(DT).unwrap();
            frames += 1;
            assert!(frames < 30, "no impact");
        }
        let motion = w.collider_motion(id).unwrap();
        let com = w.collider(id).unwrap().position;
        for c in w.contacts().to_vec() {
            let k = c.particle as usize;
            let vp = w.particles().velocity(k);
            let material = motion.velocity + motion.angular_velocity.cross(c.point - com);
            let rebound = c.normal.dot(vp - material);
            println!(
                "e = {e}: particle {k} leaves at {rebound:.5} m/s relative (Newton {})",
                e * v0
            );
            assert!(
                (rebound - e * v0).abs() < 1e-2 * v0,
                "particle {k}: {rebound} vs {}",
                e * v0
            );
        }
        for _ in 0..3 {
            w.step(DT).unwrap();
        }
        let motion = w.collider_motion(id).unwrap();
        let pose = w.collider(id).unwrap();
        let inertia = {
            let rot = Mat3::from_quat(pose.rotation);
            rot * ColliderDynamics::box_inertia(m, e_box) * rot.transpose()
        };
        let (vb, ω) = (motion.velocity, motion.angular_velocity);
        let p = w.particles();
        let mut momentum = vb * m;
        let mut angular = inertia * ω + pose.position.cross(vb * m);
        let mut energy = 0.5 * m * vb.length_squared() + 0.5 * ω.dot(inertia * ω);
        for (k, &mp) in masses.iter().enumerate() {
            let (x, v) = (p.position(k), p.velocity(k));
            momentum += v * mp;
            angular += x.cross(v * mp);
            energy += 0.5 * mp * v.length_squared();
        }
        println!(
            "e = {e}: box {vb} m/s, ω {ω} rad/s; momentum {momentum} (was {momentum0}), \
             angular momentum {angular} (was {angular0}), energy {energy:.4} of {energy0:.4} J"
        );
        assert!((momentum - momentum0).length() < 1e-4 * momentum0.length());
        assert!((angular - angular0).length() < 2e-3 * angular0.length().max(1.0));
        if e == 1.0 {
            assert!(
                (energy - energy0).abs() < 5e-3 * energy0,
                "energy {energy} vs {energy0}"
            );
        }
    }
}

/// A contact only pushes, in the solve with others: a particle put 1 cm into the top
/// face of a free 1 kg box while moving up at 2 m/s on its own (its position solve's
/// push is taken back, the pull that would stop it is not allowed: its net impulse is
/// 0), and in the same substep a second one (0.5 kg) landing on the face's centre at
/// 3 m/s with restitution 0.5. The first keeps its 2 m/s and gives the box nothing; the
/// box and the second follow the closed form of a single head-on impact,
/// `J = (1 + e) v0 / (1/m + 1/M)`: the box −1.5 m/s, the particle 0.
#[test]
fn a_particle_leaving_on_its_own_takes_no_share_of_an_impact() {
    let (m, mp, r, e) = (1.0f32, 0.5f32, 0.05f32, 0.5f32);
    let mut w = world(Vec3::ZERO, 8, 4);
    let id = crate_box(&mut w, Vec3::ZERO, Vec3::new(0.5, 0.2, 0.5), m, false);
    w.set_collider_material(id, 0.0, 0.0, e).unwrap();
    let at = [
        Vec3::new(0.3, 0.2 + r - 0.01, 0.0),
        // 3 mm above the face: it lands in the first substep (6.25 mm at 3 m/s).
        Vec3::new(0.0, 0.2 + r + 0.003, 0.0),
    ];
    w.add_particles(&at, Some(&[1.0 / mp; 2])).unwrap();
    w.set_particle_radii(0, &[r; 2]).unwrap();
    let v0 = 3.0;
    w.write_velocities(0, &[Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, -v0, 0.0)])
        .unwrap();
    w.step(DT).unwrap();
    let j = (1.0 + e) * v0 / (1.0 / mp + 1.0 / m);
    let motion = w.collider_motion(id).unwrap();
    let (va, vb) = (w.particles().velocity(0), w.particles().velocity(1));
    println!(
        "leaving {va} m/s, landing {vb} m/s (closed form {}), box {} m/s (closed form {}), ω {}",
        -v0 + j / mp,
        motion.velocity,
        -j / m,
        motion.angular_velocity
    );
    assert!(
        (va - Vec3::new(0.0, 2.0, 0.0)).length() < 1e-4,
        "leaving {va}"
    );
    assert!((vb.y - (-v0 + j / mp)).abs() < 2e-3 * v0, "landing {vb}");
    assert!(
        (motion.velocity.y + j / m).abs() < 2e-3 * v0,
        "box {}",
        motion.velocity
    );
    assert!(motion.angular_velocity.length() < 1e-3);
}
