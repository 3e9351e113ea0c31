//! Dynamic colliders against closed forms, continued: a particle bouncing off a free box
//! with restitution e (momentum, angular momentum and the relative normal speed −e
//! times the approach), and a free proxy turning as a rigid body (the gyroscopic term:
//! the world angular momentum L = I ω and the kinetic energy kept, the flip of a body
//! spun about its intermediate axis).

use sinew::{
    ColliderDesc, ColliderDynamics, ColliderId, Mat3, Quat, Shape, Vec3, World, WorldDesc,
};

use super::collisions::DT;
use super::dynamic_colliders::crate_box;

fn world(substeps: u32, iterations: u32) -> World {
    World::new(WorldDesc {
        gravity: Vec3::ZERO,
        substeps,
        iterations,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

/// A free box of mass `m` and half extents `e` at the origin, restitution `e_r`, no
/// friction, and one particle of mass `mp` and radius 0.05 m at `at` moving at `v`.
fn box_and_particle(m: f32, e: Vec3, e_r: f32, mp: f32, at: Vec3, v: Vec3) -> (World, ColliderId) {
    let mut w = world(8, 4);
    let id = crate_box(&mut w, Vec3::ZERO, e, m, false);
    w.set_collider_material(id, 0.0, 0.0, e_r).unwrap();
    w.add_particles(&[at], Some(&[1.0 / mp])).unwrap();
    w.set_particle_radii(0, &[0.05]).unwrap();
    w.write_velocities(0, &[v]).unwrap();
    (w, id)
}

/// The box's angular momentum about the world origin (kg·m²/s): `I_w ω + c × m v`.
fn box_angular_momentum(w: &World, id: ColliderId) -> Vec3 {
    let d = w.collider_dynamics(id).unwrap().unwrap();
    let c = w.collider(id).unwrap();
    let motion = w.collider_motion(id).unwrap();
    let r = Mat3::from_quat(c.rotation);
    let com = c.position + c.rotation * d.center_of_mass;
    r * d.inertia * r.transpose() * motion.angular_velocity + com.cross(motion.velocity * d.mass)
}

/// A particle falling head-on onto the top face of a free box (zero gravity) with
/// restitution e: afterwards the momentum is the particle's before, and the relative
/// normal speed is e times the approach (closed form: `v_rel' = −e v_rel`).
#[test]
fn a_particle_bounces_off_a_free_box_with_restitution() {
    for e_r in [0.0f32, 0.5, 1.0] {
        let (m, mp, v0) = (2.0, 0.5, -3.0);
        let (mut w, id) = box_and_particle(
            m,
            Vec3::splat(0.2),
            e_r,
            mp,
            Vec3::new(0.0, 0.6, 0.0),
            Vec3::new(0.0, v0, 0.0),
        );
        for _ in 0..30 {
            w.step(DT).unwrap();
        }
        let vp = w.particles().velocity(0);
        let vb = w.collider_motion(id).unwrap().velocity;
        let momentum = vp * mp + vb * m;
        let drift = (momentum - Vec3::new(0.0, mp * v0, 0.0)).length() / (mp * v0).abs();
        let rel = vp.y - vb.y;
        println!(
            "e = {e_r}: particle {vp}, box {vb}, relative normal speed {rel} (closed form {}), \
             momentum drift {drift:.2e}",
            -e_r * v0
        );
        assert!(drift < 1e-5, "momentum drift {drift}");
        if e_r > 0.0 {
            assert!(
                (rel - (-e_r * v0)).abs() < 1e-3 * v0.abs(),
                "relative normal speed {rel}, closed form {}",
                -e_r * v0
            );
        } else {
            // No bounce: the two leave together (a perfectly inelastic collision).
            assert!(rel.abs() < 0.02, "relative speed {rel} without restitution");
        }
        // The closed form of a head-on collision: v_box' = (1 + e) m_p v0 / (m_p + M).
        let expected = (1.0 + e_r) * mp * v0 / (mp + m);
        if e_r > 0.0 {
            assert!(
                (vb.y - expected).abs() < 1e-3 * expected.abs(),
                "box velocity {vb}, closed form {expected}"
            );
        }
    }
}

/// The same off the box's centre line: the bounce turns the box; the linear and angular
/// momentum of particle + box stay the particle's, and the relative normal velocity at
/// the contact point (the box's material velocity `v + ω × r` there) is −e times the
/// approach: the generalized inverse mass `1/M + (r × n)ᵀ I⁻¹ (r × n)` in the formula.
#[test]
fn an_off_centre_bounce_turns_the_box_and_keeps_both_momenta() {
    let (m, mp, v0, e_r) = (2.0, 0.5, -3.0, 0.5);
    let x = 0.15;
    let at = Vec3::new(x, 0.6, 0.0);
    let (mut w, id) = box_and_particle(m, Vec3::splat(0.2), e_r, mp, at, Vec3::new(0.0, v0, 0.0));
    let p0 = Vec3::new(0.0, mp * v0, 0.0);
    let l0 = at.cross(p0);
    let mut after = None;
    for step in 0..30 {
        w.step(DT).unwrap();
        let vb = w.collider_motion(id).unwrap();
        if after.is_none() && vb.angular_velocity != Vec3::ZERO {
            // The step of the bounce: the contact point is under the particle on the
            // box's top face, measured from the box's centre of mass.
            let c = w.collider(id).unwrap();
            let xp = w.particles().position(0);
            let arm = Vec3::new(xp.x, c.position.y + 0.2, xp.z) - c.position;
            let vp = w.particles().velocity(0);
            let v_point = vb.velocity + vb.angular_velocity.cross(arm);
            after = Some((step, vp.y - v_point.y));
        }
        let vp = w.particles().velocity(0);
        let momentum = vp * mp + vb.velocity * m;
        let angular = w.particles().position(0).cross(vp * mp) + box_angular_momentum(&w, id);
        let (dp, dl) = (
            (momentum - p0).length() / p0.length(),
            (angular - l0).length() / l0.length(),
        );
        assert!(
            dp < 1e-5 && dl < 1e-4,
            "step {step}: momentum drift {dp}, angular {dl}"
        );
    }
    let (step, rel) = after.expect("the particle hit the box");
    let wrong = {
        // The relative speed a bounce that left the box's rotation out would give.
        let i = ColliderDynamics::box_inertia(m, Vec3::splat(0.2)).z_axis.z;
        let (w_lin, w_ang) = (1.0 / m, x * x / i);
        let w_p = 1.0 / mp;
        -e_r * v0 * (w_p + w_lin + w_ang) / (w_p + w_lin)
    };
    println!(
        "off-centre bounce (step {step}): relative normal speed at the contact {rel} \
         (closed form {}; without the rotational term {wrong}), box ω {}",
        -e_r * v0,
        w.collider_motion(id).unwrap().angular_velocity
    );
    assert!(
        (rel - (-e_r * v0)).abs() < 0.01 * v0.abs(),
        "relative normal speed {rel}, closed form {}",
        -e_r * v0
    );
}

/// The world angular momentum `R I Rᵀ ω` (kg·m²/s) and kinetic energy `½ ω · L` (J)
/// of a free proxy.
fn spin_state(w: &World, id: ColliderId) -> (Vec3, f32) {
    let d = w.collider_dynamics(id).unwrap().unwrap();
    let r = Mat3::from_quat(w.collider(id).unwrap().rotation);
    let omega = w.collider_motion(id).unwrap().angular_velocity;
    let l = r * d.inertia * r.transpose() * omega;
    (l, 0.5 * omega.dot(l))
}

/// A free 3 kg box-shaped body at the origin turned by `rotation`, with the inertia
/// tensor `inertia` (its frame) spinning at `omega` (world), in a world of 8 substeps.
fn spinning_body(rotation: Quat, inertia: Mat3, omega: Vec3) -> (World, ColliderId) {
    let mut w = world(8, 1);
    let id = w
        .add_collider(&ColliderDesc {
            shape: Shape::Box {
                half_extents: Vec3::new(0.3, 0.2, 0.1),
            },
            rotation,
            ..ColliderDesc::default()
        })
        .unwrap();
    w.set_collider_dynamics(
        id,
        &ColliderDynamics {
            mass: 3.0,
            inertia,
            angular_velocity: omega,
            ..ColliderDynamics::default()
        },
    )
    .unwrap();
    (w, id)
}

/// A free body with a general inertia tensor (principal moments 1, 2, 3 kg·m² along
/// turned axes) spinning about a non-principal axis, no particles: over 2 s the world
/// angular momentum stays the initial one (it precesses in the body: ω changes) and
/// the kinetic energy stays within 0.1%.
#[test]
fn a_free_asymmetric_body_keeps_its_angular_momentum_and_energy() {
    let inertia = ColliderDynamics::inertia_from_principal(
        Vec3::new(1.0, 2.0, 3.0),
        Quat::from_rotation_x(0.3) * Quat::from_rotation_y(-0.5) * Quat::from_rotation_z(0.8),
    );
    let omega0 = Vec3::new(1.0, 2.0, 3.0);
    let (mut w, id) = spinning_body(Quat::from_rotation_x(0.4), inertia, omega0);
    let (l0, e0) = spin_state(&w, id);
    let (mut worst_l, mut worst_e) = (0.0f32, 0.0f32);
    for _ in 0..120 {
        w.step(DT).unwrap();
        let (l, e) = spin_state(&w, id);
        worst_l = worst_l.max((l - l0).length() / l0.length());
        worst_e = worst_e.max((e - e0).abs() / e0);
    }
    let omega = w.collider_motion(id).unwrap().angular_velocity;
    println!(
        "free asymmetric body, 2 s: |L| {:.4} kg·m²/s, worst L drift {worst_l:.2e}, \
         worst energy drift {worst_e:.2e}, ω {omega0} → {omega}",
        l0.length()
    );
    assert!(worst_l < 5e-4, "angular momentum drift {worst_l}");
    assert!(worst_e < 1e-3, "energy drift {worst_e}");
    assert!((omega - omega0).length() > 0.1, "ω precesses: {omega}");
    // The host reads no velocity change from a free rotation (its own integrator
    // turns its body).
    let change = w.collider_motion(id).unwrap().angular_velocity_change;
    assert!(change.length() < 1e-5, "angular velocity change {change}");
}

/// The Dzhanibekov effect: a body spun about its intermediate principal axis
/// (moments 1, 2, 3 kg·m², ω = 10 rad/s with a 0.1% perturbation) turns over: the
/// body-frame spin about that axis reverses within 2 s (the perturbation grows at
/// `ω √((I₂ − I₁)(I₃ − I₂) / (I₁ I₃))` = 5.8 /s), while L and the energy are kept
/// within 0.1% (f32 rounding over 960 substeps of a fast turn).
#[test]
fn a_body_spun_about_its_intermediate_axis_flips() {
    let (mut w, id) = spinning_body(
        Quat::IDENTITY,
        Mat3::from_diagonal(Vec3::new(1.0, 2.0, 3.0)),
        Vec3::new(0.01, 10.0, 0.01),
    );
    let (l0, e0) = spin_state(&w, id);
    let (mut worst_l, mut worst_e) = (0.0f32, 0.0f32);
    let mut flipped = None;
    for step in 0..120 {
        w.step(DT).unwrap();
        let (l, e) = spin_state(&w, id);
        worst_l = worst_l.max((l - l0).length() / l0.length());
        worst_e = worst_e.max((e - e0).abs() / e0);
        let rot = w.collider(id).unwrap().rotation;
        let body = rot.inverse() * w.collider_motion(id).unwrap().angular_velocity;
        if flipped.is_none() && body.y < -9.0 {
            flipped = Some((step + 1) as f32 * DT);
        }
    }
    println!(
        "intermediate axis: flipped at {flipped:?} s, worst L drift {worst_l:.2e}, \
         worst energy drift {worst_e:.2e}"
    );
    assert!(flipped.is_some(), "no flip within 2 s");
    assert!(worst_l < 1e-3, "angular momentum drift {worst_l}");
    assert!(worst_e < 1e-3, "energy drift {worst_e}");
}
