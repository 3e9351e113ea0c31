//! Dynamic colliders at the edges of what a host may pass (the API fuzzer once drove a
//! proxy to a NaN torque here):
//! * a free proxy spun at the largest accepted angular velocity (1e6 rad/s, thousands of
//!   radians per substep) turns by exactly ω t about its axis: an isotropic body has no
//!   gyroscopic torque, so the closed form is the rotation `exp(ω t)`; a first-order
//!   quaternion step would grow the quaternion until it overflows (the proxy's free
//!   rotation turns exactly, by `exp(ω h)` per substep for such a body);
//! * the lightest host body under the heaviest particles a world accepts (a 1 mg box
//!   under 1000 kg particles falling at 50 m/s) stays finite: its pose, the motion
//!   readback and the contact wrench are finite numbers every step;
//! * a proxy with a vanishing inertia (moments of 1e-30 kg·m², accepted: symmetric and
//!   positive definite) under water is flung out of range every step and put back where
//!   the step began, at rest; its surface velocity too, so that every snapshot the world
//!   saves loads again (the API fuzzer found a NaN surface velocity in such a snapshot,
//!   which the loader refused);
//! * particles pinned tens of km out on such a proxy: the pins skip the corrections
//!   whose proxy inverse mass overflows, so their multipliers stay finite and the
//!   snapshots load (the fuzzer found a NaN pin multiplier kept after a recovered step);
//! * a world of colliders restored from a forged snapshot is refused or steps to a
//!   snapshot that loads (the loader took a collider's previous position of -1.8e38 m,
//!   finite, and the next step's velocity was infinite; the fuzzer found it).

use sinew::{
    ColliderDesc, ColliderDynamics, ErrorKind, FluidDesc, Mat3, Quat, Shape, Vec3, World, WorldDesc,
};

use super::collisions::DT;
use super::snapshot_fuzz::{forged_loads, forged_windows};

fn world(gravity: Vec3) -> World {
    World::new(WorldDesc {
        gravity,
        substeps: 8,
        iterations: 2,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

/// The angle (rad) between two rotations.
fn angle_between(a: Quat, b: Quat) -> f32 {
    let d = a.dot(b).abs().min(1.0);
    2.0 * d.acos()
}

#[test]
fn a_proxy_spun_at_the_largest_accepted_rate_turns_by_omega_t() {
    let mut w = world(Vec3::ZERO);
    let half = Vec3::splat(0.5);
    let id = w
        .add_collider(&ColliderDesc {
            shape: Shape::Sphere { radius: 0.5 },
            ..ColliderDesc::default()
        })
        .unwrap();
    let axis = Vec3::new(1.0, 2.0, -0.5).normalize();
    for rate in [3.0f32, 1.0e3, 1.0e6] {
        w.set_collider_transform(id, Vec3::ZERO, Quat::IDENTITY, true)
            .unwrap();
        w.set_collider_dynamics(
            id,
            &ColliderDynamics {
                mass: 2.0,
                // Isotropic: ω × Iω = 0, the spin stays ω.
                inertia: ColliderDynamics::box_inertia(2.0, half),
                angular_velocity: axis * rate,
                ..ColliderDynamics::default()
            },
        )
        .unwrap();
        w.step(DT).unwrap();
        let got = w.collider(id).unwrap().rotation;
        let motion = w.collider_motion(id).unwrap();
        // exp(ω t), with the angle reduced mod 2π in f64 (f32 loses the angle at 1e6).
        let turn = ((rate as f64 * DT as f64) % std::f64::consts::TAU) as f32;
        let want = Quat::from_axis_angle(axis, turn);
        let err = angle_between(got, want);
        println!(
            "spin {rate} rad/s: rotation {got}, |q| {:.7}, {err:.2e} rad off exp(ω t); ω after {}",
            got.length(),
            motion.angular_velocity
        );
        assert!(got.is_finite() && (got.length() - 1.0).abs() < 1e-4);
        assert!(
            (motion.angular_velocity - axis * rate).length() <= 1e-5 * rate,
            "a free isotropic spin keeps its rate: {}",
            motion.angular_velocity
        );
        // Float turns accumulate: 8 substeps of ω h each, rounded in f32; at 1e6 rad/s
        // each substep's angle 2083 rad carries ~1e-4 rad of rounding.
        let tolerance = if rate > 1.0e5 { 5e-3 } else { 1e-4 };
        assert!(err < tolerance, "{rate} rad/s: {err} rad off exp(ω t)");
    }
}

#[test]
fn the_lightest_box_under_the_heaviest_particles_stays_finite() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    let e = Vec3::new(0.5, 0.05, 0.5);
    let id = w
        .add_collider(&ColliderDesc {
            shape: Shape::Box { half_extents: e },
            ..ColliderDesc::default()
        })
        .unwrap();
    let m = 1.0e-6;
    w.set_collider_dynamics(
        id,
        &ColliderDynamics {
            mass: m,
            inertia: ColliderDynamics::box_inertia(m, e),
            angular_velocity: Vec3::new(0.0, 1.0e3, 0.0),
            ..ColliderDynamics::default()
        },
    )
    .unwrap();
    w.set_collider_material(id, 0.8, 0.5, 0.0).unwrap();
    let points: Vec<Vec3> = (0..16)
        .map(|k| Vec3::new((k % 4) as f32 * 0.2 - 0.3, 0.2, (k / 4) as f32 * 0.2 - 0.3))
        .collect();
    let first = w.add_particles(&points, Some(&[1.0e-3; 16])).unwrap();
    w.set_particle_radii(first, &[0.05; 16]).unwrap();
    w.write_velocities(first, &[Vec3::new(3.0, -50.0, 1.0); 16])
        .unwrap();
    for frame in 0..60 {
        w.step(DT).unwrap();
        let pose = w.collider(id).unwrap();
        let motion = w.collider_motion(id).unwrap();
        let wrench = w.collider_contact_wrench(id, None).unwrap();
        let finite = pose.position.is_finite()
            && pose.rotation.is_finite()
            && motion.velocity.is_finite()
            && motion.angular_velocity.is_finite()
            && motion.velocity_change.is_finite()
            && motion.angular_velocity_change.is_finite()
            && wrench.force.is_finite()
            && wrench.torque.is_finite();
        assert!(
            finite,
            "frame {frame}: pose {pose:?}, motion {motion:?}, wrench {wrench:?}"
        );
        let p = w.particles();
        for i in first..first + 16 {
            assert!(p.position(i as usize).is_finite() && p.velocity(i as usize).is_finite());
        }
    }
}

#[test]
fn a_proxy_without_inertia_under_water_stays_loadable() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    let e = Vec3::new(0.3, 0.05, 0.3);
    let id = w
        .add_collider(&ColliderDesc {
            shape: Shape::Box { half_extents: e },
            ..ColliderDesc::default()
        })
        .unwrap();
    w.set_collider_dynamics(
        id,
        &ColliderDynamics {
            mass: 40.0,
            inertia: Mat3::from_diagonal(Vec3::splat(1.0e-30)),
            center_of_mass: Vec3::new(-0.08, 0.12, 0.0),
            angular_velocity: Vec3::new(0.7, 1.8, -1.5),
            gravity: true,
            ..ColliderDynamics::default()
        },
    )
    .unwrap();
    let s = 0.05;
    let f = w
        .add_fluid(&FluidDesc {
            spacing: s,
            capacity: 512,
            ..FluidDesc::default()
        })
        .unwrap();
    let water: Vec<Vec3> = (0..512)
        .map(|k| {
            let (x, y, z) = ((k % 8) as f32, (k / 64) as f32, ((k / 8) % 8) as f32);
            Vec3::new(x - 3.5, y + 1.2, z - 3.5) * s
        })
        .collect();
    w.emit_fluid(f, &water, None).unwrap();
    let mut reset = 0;
    for frame in 0..30 {
        let before = w.collider(id).unwrap().position;
        // The water the flung box met may be put back too (a reported step).
        if let Err(e) = w.step(DT) {
            assert_eq!(e.kind, ErrorKind::NonFinite, "frame {frame}: {e}");
        }
        let pose = w.collider(id).unwrap();
        let motion = w.collider_motion(id).unwrap();
        assert!(
            pose.position.is_finite() && pose.rotation.is_finite(),
            "frame {frame}: {pose:?}"
        );
        assert!(
            motion.velocity.is_finite() && motion.angular_velocity.is_finite(),
            "frame {frame}: {motion:?}"
        );
        if pose.position == before && motion.velocity == Vec3::ZERO {
            reset += 1;
        }
        let bytes = w.snapshot();
        let mut again = World::from_snapshot(&bytes, 1)
            .unwrap_or_else(|e| panic!("frame {frame}: its own snapshot refused: {e}"));
        assert_eq!(again.state_hash(), w.state_hash(), "frame {frame}");
        if let Err(e) = again.step(DT) {
            assert_eq!(e.kind, ErrorKind::NonFinite, "frame {frame}: {e}");
        }
    }
    // The water reached the box and flung it: it was put back at least once.
    assert!(
        reset > 0,
        "never put back: the case does not test the reset"
    );
}

/// Particles pinned tens of km out on a spinning dynamic collider without inertia
/// (moments 1e-30 to 7e-30 kg·m², accepted): the proxy's inverse mass at such an arm
/// overflows (NaN), the pins skip those corrections, and the world's snapshot loads
/// after every step (before, the pin took a NaN multiplier, the step was put back and
/// reported, and the multiplier stayed: "the snapshot is corrupt: pin 0", found by a
/// long API-fuzzer run).
#[test]
fn pins_on_a_proxy_without_inertia_keep_the_snapshot_loadable() {
    // One projection per step: its multipliers are the ones the snapshot keeps.
    let mut w = World::new(WorldDesc {
        substeps: 1,
        iterations: 1,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let id = w
        .add_collider(&ColliderDesc {
            shape: Shape::Box {
                half_extents: Vec3::splat(0.2),
            },
            ..ColliderDesc::default()
        })
        .unwrap();
    w.set_collider_dynamics(
        id,
        &ColliderDynamics {
            mass: 2.0,
            inertia: Mat3::from_diagonal(Vec3::new(1.0e-30, 3.0e-30, 7.0e-30)),
            center_of_mass: Vec3::new(0.05, -0.1, 0.02),
            angular_velocity: Vec3::new(0.3, -0.9, 1.2),
            gravity: false,
            ..ColliderDynamics::default()
        },
    )
    .unwrap();
    // Arms of tens of km: |r × n|² / 1e-30 overflows f32.
    let offsets = [
        Vec3::new(3.0e4, 0.0, 0.0),
        Vec3::new(-2.0e4, 1.0e4, 5.0e3),
        Vec3::new(0.0, -4.0e4, 2.0e4),
    ];
    let first = w.add_particles(&offsets, Some(&[1.0, 0.5, 2.0])).unwrap();
    let pinned: Vec<u32> = (first..first + 3).collect();
    w.pin_to_collider(id, &pinned, &offsets, 0.0).unwrap();
    let mut failed = 0;
    for frame in 0..30 {
        if let Err(e) = w.step(DT) {
            assert_eq!(e.kind, ErrorKind::NonFinite, "frame {frame}: {e}");
            failed += 1;
        }
        let again = World::from_snapshot(&w.snapshot(), 1)
            .unwrap_or_else(|e| panic!("frame {frame}: its own snapshot refused: {e}"));
        assert_eq!(again.state_hash(), w.state_hash(), "frame {frame}");
    }
    println!("{failed} of 30 steps put back");
}

/// A kinematic box the host moved (collider slot 0) and a dynamic box (slot 1), with a
/// particle on each, after three steps.
fn moved_and_free_boxes() -> World {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    let desc = |x: f32| ColliderDesc {
        shape: Shape::Box {
            half_extents: Vec3::splat(0.2),
        },
        position: Vec3::new(x, 0.0, 0.0),
        ..ColliderDesc::default()
    };
    let moved = w.add_collider(&desc(0.0)).unwrap();
    let free = w.add_collider(&desc(1.0)).unwrap();
    w.set_collider_dynamics(free, &ColliderDynamics::default())
        .unwrap();
    let drops = [Vec3::new(0.0, 0.3, 0.0), Vec3::new(1.0, 0.3, 0.0)];
    w.add_particles(&drops, None).unwrap();
    for frame in 0..3 {
        let x = 0.01 * frame as f32;
        w.set_collider_transform(moved, Vec3::new(x, 0.0, 0.0), Quat::IDENTITY, false)
            .unwrap();
        w.step(DT).unwrap();
    }
    w
}

/// A kinematic box the host moved, a dynamic box and particles on both, saved after a
/// few steps; every 4-byte window of the snapshot's body overwritten with NaN, the
/// largest float or the smallest normal one and resealed: each world the loader
/// accepts steps (or reports a non-finite state it put back) to a world whose own
/// snapshot loads. The loader took collider poses far past the coordinate range
/// (finite), and the first step made velocities of infinity from them (API fuzzer
/// seed 131001, call 5,570).
#[test]
fn colliders_of_a_forged_snapshot_are_refused_or_step_to_a_loadable_world() {
    let snap = moved_and_free_boxes().snapshot();
    let values = [f32::NAN.to_bits() | 0xffff, f32::MAX.to_bits(), 0x0080_0000];
    let (mut loaded, mut refused) = (0, Vec::new());
    for (at, val, mut x) in forged_windows(&snap, &values) {
        loaded += 1;
        if let Err(e) = x.step(DT) {
            assert_eq!(e.kind, ErrorKind::NonFinite, "byte {at} = {val:#x}: {e}");
        }
        if let Err(e) = World::from_snapshot(&x.snapshot(), 1) {
            refused.push(format!("byte {at} = {val:#x}: {e}"));
        }
    }
    assert!(loaded > 100, "{loaded} forged worlds loaded");
    assert!(refused.is_empty(), "{refused:#?}");
}

/// Every 4-byte window of the two boxes' snapshot overwritten with the largest float
/// (finite, far past the coordinate range) and resealed: the loads a collider's pose
/// refuses name the collider's slot and which of its poses (the previous one, the
/// present one, the present inverse rotation), so that a host can tell what was
/// forged.
#[test]
fn a_forged_collider_pose_is_refused_with_its_collider_and_pose_named() {
    let snap = moved_and_free_boxes().snapshot();
    let refused: Vec<String> = forged_loads(&snap, &[f32::MAX.to_bits()])
        .filter_map(|(_, _, w)| w.err().map(|e| e.message))
        .filter(|m| m.contains("pose"))
        .collect();
    for what in ["the previous pose", "the pose", "the inverse pose"] {
        assert!(
            refused.iter().any(|m| m.contains(what)),
            "no refusal names {what}: {refused:#?}"
        );
    }
    for slot in 0..2 {
        let named = format!("collider slot {slot} has");
        assert!(
            refused.iter().any(|m| m.contains(&named)),
            "no refusal names slot {slot}: {refused:#?}"
        );
    }
    assert!(
        refused.iter().all(|m| m.contains("collider slot ")),
        "{refused:#?}"
    );
}
