//! In-place edits (remove by id range, rest values, compliance and stiffness, body
//! rest scale and mass) against closed forms, for every family, with both solvers.
//!
//! `cargo test --test physics edit:: -- --nocapture` prints the measured values.

use sinew::{
    BodyConstraints, ErrorKind, FamilyKind, Quat, RopeDesc, Solver, Transform, Vec3, World,
    WorldDesc,
};

const G: f32 = 9.81;
const SOLVERS: [Solver; 2] = [Solver::GaussSeidel, Solver::Jacobi];

fn world(substeps: u32, solver: Solver, damping: f32) -> World {
    World::new(WorldDesc {
        gravity: Vec3::new(0.0, -G, 0.0),
        substeps,
        solver,
        damping,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn pos(w: &World, i: u32) -> Vec3 {
    w.particles().position(i as usize)
}

/// A pinned anchor (particle 0) and a 1 kg particle 1 m below it.
fn pendulum(w: &mut World) {
    w.add_particles(&[Vec3::ZERO, Vec3::new(0.0, -1.0, 0.0)], Some(&[0.0, 1.0]))
        .unwrap();
}

fn steps(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(1.0 / 60.0).unwrap();
    }
}

/// Removing a distance constraint frees the particle: it falls the discrete free-fall
/// distance g h² N(N+1)/2 of symplectic Euler over N substeps of length h.
#[test]
fn removed_distance_constraint_stops_acting() {
    for solver in SOLVERS {
        let mut w = world(8, solver, 0.0);
        pendulum(&mut w);
        w.add_distance_constraints(&[[0, 1]], None, 0.0).unwrap();
        steps(&mut w, 10);
        assert!((pos(&w, 1).y + 1.0).abs() < 1e-4, "{:?}", pos(&w, 1));
        w.write_velocities(1, &[Vec3::ZERO]).unwrap();
        let y0 = pos(&w, 1).y;
        w.remove_constraints(FamilyKind::Distance, 0, 1).unwrap();
        assert!(w.is_constraint_removed(FamilyKind::Distance, 0).unwrap());
        steps(&mut w, 30);
        let n = 30.0 * 8.0;
        let h = 1.0 / (60.0 * 8.0);
        let expected = y0 - G * h * h * n * (n + 1.0) / 2.0;
        let y = pos(&w, 1).y;
        println!("{solver:?}: fell to {y}, expected {expected}");
        assert!(
            (y - expected).abs() < 1e-3 * expected.abs(),
            "{y} vs {expected}"
        );
        let mut f = [1.0];
        w.read_constraint_forces(0, &mut f).unwrap();
        assert_eq!(f[0], 0.0);
        // Removed ids stay removed: every edit of them is refused and changes nothing.
        let e = w
            .remove_constraints(FamilyKind::Distance, 0, 1)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        let e = w
            .set_constraint_rest(FamilyKind::Distance, 0, &[0.5])
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{e}");
        let e = w
            .set_constraint_compliance(FamilyKind::Distance, 0, 1, 0.0)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
        let mut rest = [0.0];
        w.read_constraint_rest(FamilyKind::Distance, 0, &mut rest)
            .unwrap();
        assert!(rest[0].is_nan());
    }
}

/// A new rest length pulls the pendulum to it; a compliance α stretches a hanging
/// 1 kg mass by α·m·g at rest; a PBD stiffness 1 holds it rigidly again.
#[test]
fn distance_rest_compliance_and_stiffness_take_effect_next_step() {
    for solver in SOLVERS {
        let mut w = world(16, solver, 2.0);
        pendulum(&mut w);
        w.add_distance_constraints(&[[0, 1]], None, 0.0).unwrap();
        w.set_constraint_rest(FamilyKind::Distance, 0, &[0.5])
            .unwrap();
        let mut rest = [0.0];
        w.read_constraint_rest(FamilyKind::Distance, 0, &mut rest)
            .unwrap();
        assert_eq!(rest[0], 0.5);
        steps(&mut w, 240);
        let d = pos(&w, 1).length();
        println!("{solver:?}: length {d} after rest 0.5");
        assert!((d - 0.5).abs() < 1e-4, "{d}");

        let alpha = 1e-3;
        w.set_constraint_compliance(FamilyKind::Distance, 0, 1, alpha)
            .unwrap();
        steps(&mut w, 600);
        let stretch = pos(&w, 1).length() - 0.5;
        println!("{solver:?}: stretch {stretch}, α m g = {}", alpha * G);
        assert!((stretch - alpha * G).abs() < 0.02 * alpha * G, "{stretch}");
        let mut f = [0.0];
        w.read_constraint_forces(0, &mut f).unwrap();
        assert!((f[0] - G).abs() < 0.02 * G, "{} N", f[0]);

        w.set_constraint_stiffness(FamilyKind::Distance, 0, 1, 1.0)
            .unwrap();
        steps(&mut w, 240);
        let d = pos(&w, 1).length();
        assert!((d - 0.5).abs() < 1e-4, "{d}");
    }
}

/// Tether max length, tet rest volume, dihedral rest angle: each edit moves the
/// equilibrium to the new value.
#[test]
fn family_rest_values_move_the_equilibrium() {
    for solver in SOLVERS {
        // Tether: the particle hangs at the new max length.
        let mut w = world(16, solver, 2.0);
        pendulum(&mut w);
        w.add_tethers(&[[0, 1]], None, 0.0).unwrap();
        w.set_constraint_rest(FamilyKind::Tether, 0, &[0.7])
            .unwrap();
        steps(&mut w, 240);
        w.set_constraint_rest(FamilyKind::Tether, 0, &[1.3])
            .unwrap();
        steps(&mut w, 300);
        let d = pos(&w, 1).length();
        println!("{solver:?}: tether length {d} (max 1.3)");
        assert!((d - 1.3).abs() < 1e-3, "{d}");

        // Tet volume: without gravity a unit-corner tet grows to the new rest volume.
        let mut w = World::new(WorldDesc {
            gravity: Vec3::ZERO,
            solver,
            damping: 5.0,
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        w.add_particles(
            &[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z],
            Some(&[1.0, 1.0, 1.0, 1.0]),
        )
        .unwrap();
        w.add_tet_volumes(&[[0, 1, 2, 3]], None, 0.0).unwrap();
        let v0 = 1.0 / 6.0;
        w.set_constraint_rest(FamilyKind::TetVolume, 0, &[2.0 * v0])
            .unwrap();
        steps(&mut w, 120);
        let (a, b, c, d) = (pos(&w, 0), pos(&w, 1), pos(&w, 2), pos(&w, 3));
        let v = (b - a).dot((c - a).cross(d - a)) / 6.0;
        println!("{solver:?}: tet volume {v} (rest {})", 2.0 * v0);
        assert!((v - 2.0 * v0).abs() < 1e-3 * v0, "{v}");

        // Dihedral: a hinge folds to the new rest angle.
        let mut w = World::new(WorldDesc {
            gravity: Vec3::ZERO,
            solver,
            damping: 5.0,
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        let x = [
            Vec3::ZERO,
            Vec3::Z,
            Vec3::new(1.0, 0.0, 0.5),
            Vec3::new(-1.0, 0.0, 0.5),
        ];
        w.add_particles(&x, Some(&[0.0, 0.0, 1.0, 1.0])).unwrap();
        w.add_distance_constraints(&[[0, 2], [1, 2], [0, 3], [1, 3]], None, 0.0)
            .unwrap();
        w.add_dihedral_bending(&[[0, 1, 2, 3]], None, 0.0).unwrap();
        w.set_constraint_rest(FamilyKind::DihedralBending, 0, &[1.0])
            .unwrap();
        steps(&mut w, 300);
        let r = [0.0, 1.0, 2.0, 3.0].map(|i: f32| pos(&w, i as u32) - pos(&w, 0));
        let (angle, _) = sinew::constraints::bending::dihedral_angle_and_gradient(&r).unwrap();
        println!("{solver:?}: dihedral angle {angle} (rest 1.0)");
        assert!((angle.abs() - 1.0).abs() < 1e-2, "{angle}");
    }
}

/// Every family: remove and read back removal, refuse bad values without changing
/// anything, and refuse a rest value or compliance where the family has none.
#[test]
fn every_family_edits_all_or_nothing() {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let x = [
        Vec3::ZERO,
        Vec3::X,
        Vec3::Y,
        Vec3::Z,
        Vec3::new(1.0, 1.0, 0.0),
    ];
    w.add_particles(&x, None).unwrap();
    w.add_distance_constraints(&[[0, 1], [1, 2]], None, 0.0)
        .unwrap();
    w.add_tethers(&[[0, 1], [0, 2]], None, 0.0).unwrap();
    w.add_dihedral_bending(&[[0, 1, 2, 3]], None, 0.0).unwrap();
    w.add_isometric_bending(&[[1, 2, 0, 4]], 0.0).unwrap();
    w.add_tet_volumes(&[[0, 1, 2, 3]], None, 0.0).unwrap();
    w.add_unilateral_areas(&[[0, 1, 2]], None, 0.0).unwrap();
    w.add_unilateral_volumes(&[[0, 1, 2, 3]], None, 0.0)
        .unwrap();
    w.add_shape_cluster(&[0, 1, 2, 3], 0.5, f32::INFINITY, 0.0)
        .unwrap();
    w.add_ring_area(&[0, 1, 4, 2], 1.0, 0.0).unwrap();
    let host = w
        .add_attachment_host(Transform {
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
        })
        .unwrap();
    w.add_attachments(host, &[4], None, 0.0).unwrap();
    for family in FamilyKind::ALL {
        let n = w.family_constraint_count(family);
        if n == 0 {
            continue;
        }
        // Out of range and zero counts.
        let e = w.remove_constraints(family, n, 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::OutOfRange, "{family:?}");
        let e = w.remove_constraints(family, 0, 0).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{family:?}");
        // Rest values: read, NaN refused, same value accepted.
        let mut rest = [0.0];
        match w.rest_value_unit(family) {
            Some(unit) => {
                w.read_constraint_rest(family, 0, &mut rest).unwrap();
                let e = w.set_constraint_rest(family, 0, &[f32::NAN]).unwrap_err();
                assert_eq!(e.kind, ErrorKind::InvalidArgument, "{family:?}");
                assert!(e.message.contains(unit), "{family:?}: {e}");
                let e = w.set_constraint_rest(family, 0, &[-1e30]).unwrap_err();
                assert_eq!(e.kind, ErrorKind::InvalidArgument, "{family:?}: {e}");
                let mut again = [0.0];
                w.read_constraint_rest(family, 0, &mut again).unwrap();
                assert_eq!(rest[0].to_bits(), again[0].to_bits(), "{family:?}");
                w.set_constraint_rest(family, 0, &rest).unwrap();
            }
            None => {
                let e = w.set_constraint_rest(family, 0, &[1.0]).unwrap_err();
                assert_eq!(e.kind, ErrorKind::InvalidArgument, "{family:?}");
                assert!(w.read_constraint_rest(family, 0, &mut rest).is_err());
            }
        }
        // Compliance or stiffness, never NaN or negative.
        let c = w.set_constraint_compliance(family, 0, 1, 1e-6);
        let k = w.set_constraint_stiffness(family, 0, 1, 0.5);
        assert!(c.is_ok() || k.is_ok(), "{family:?}");
        for bad in [f32::NAN, -1.0, f32::INFINITY] {
            assert!(w.set_constraint_compliance(family, 0, 1, bad).is_err());
            assert!(w.set_constraint_stiffness(family, 0, 1, bad).is_err());
        }
        // Remove the first; the rest stay live.
        w.remove_constraints(family, 0, 1).unwrap();
        assert!(w.is_constraint_removed(family, 0).unwrap(), "{family:?}");
        if n > 1 {
            assert!(!w.is_constraint_removed(family, 1).unwrap());
            // A range over a removed id is refused as a whole.
            let e = w.remove_constraints(family, 0, 2).unwrap_err();
            assert_eq!(e.kind, ErrorKind::InvalidArgument);
            assert!(!w.is_constraint_removed(family, 1).unwrap());
        }
    }
    // The world still steps, and stays finite.
    steps(&mut w, 10);
    for i in 0..5 {
        assert!(pos(&w, i).is_finite());
    }
}

/// All or nothing: one bad value in a batch of rest lengths changes none of them.
#[test]
fn a_bad_value_in_a_batch_changes_nothing() {
    let mut w = world(8, Solver::GaussSeidel, 0.0);
    w.add_particles(&[Vec3::ZERO, Vec3::X, Vec3::Y], None)
        .unwrap();
    w.add_distance_constraints(&[[0, 1], [1, 2]], None, 0.0)
        .unwrap();
    let e = w
        .set_constraint_rest(FamilyKind::Distance, 0, &[0.5, f32::NAN])
        .unwrap_err();
    assert!(e.message.contains("distance constraint 1"), "{e}");
    let mut rest = [0.0; 2];
    w.read_constraint_rest(FamilyKind::Distance, 0, &mut rest)
        .unwrap();
    assert_eq!(rest, [1.0, 2f32.sqrt()]);
}

/// Attachments: a new compliance lets the hanging particle sag by α m g; removal
/// lets it fall.
#[test]
fn attachment_compliance_and_removal() {
    let mut w = world(16, Solver::GaussSeidel, 2.0);
    w.add_particles(&[Vec3::ZERO], Some(&[1.0])).unwrap();
    let host = w
        .add_attachment_host(Transform {
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
        })
        .unwrap();
    w.add_attachments(host, &[0], None, 0.0).unwrap();
    w.set_constraint_compliance(FamilyKind::Attachment, 0, 1, 1e-3)
        .unwrap();
    steps(&mut w, 600);
    let sag = -pos(&w, 0).y;
    assert!((sag - 1e-3 * G).abs() < 0.02 * 1e-3 * G, "{sag}");
    w.remove_constraints(FamilyKind::Attachment, 0, 1).unwrap();
    steps(&mut w, 30);
    assert!(pos(&w, 0).y < -0.1, "{:?}", pos(&w, 0));
}

/// A rope's rest scale shortens it; its mass changes its top-link tension to M g; a
/// second rope in the same world is untouched by both edits.
#[test]
fn body_rest_scale_and_mass_edit_one_rope_only() {
    for solver in SOLVERS {
        let mut w = world(32, solver, 3.0);
        let rope = |x: f32| RopeDesc {
            start: Vec3::new(x, 0.0, 0.0),
            end: Vec3::new(x, -1.0, 0.0),
            segments: 10,
            total_mass: 1.1,
            tethers: false,
            ..RopeDesc::default()
        };
        let a = w.add_rope(&rope(0.0)).unwrap();
        let b = w.add_rope(&rope(2.0)).unwrap();
        let mut twin = world(32, solver, 3.0);
        twin.add_rope(&rope(2.0)).unwrap();
        // The pin carries the first stretch link and the first bend link.
        let top = |w: &World, id| {
            let mut sum = 0.0;
            for which in [BodyConstraints::Stretch, BodyConstraints::Bend] {
                let mut f = vec![0.0; w.body_force_count(id, which).unwrap()];
                w.read_body_forces(id, which, &mut f).unwrap();
                sum += f[0];
            }
            sum
        };
        steps(&mut w, 240);
        let t0 = top(&w, a);
        w.set_body_mass(a, 2.0).unwrap();
        // Reel in over a second (a sudden halving yanks the rope up past its pin).
        for k in 1..=60 {
            w.set_body_rest_scale(a, 1.0 - 0.5 * k as f32 / 60.0)
                .unwrap();
            steps(&mut w, 1);
        }
        steps(&mut w, 540);
        steps(&mut twin, 840);
        let (first, count) = w.body_particle_range(a).unwrap();
        let end = pos(&w, first + count - 1);
        let t1 = top(&w, a);
        println!("{solver:?}: end at {end}, top tension {t0} -> {t1} N");
        assert!((end.y + 0.5).abs() < 5e-3, "{end}");
        // The pin carries the whole movable mass: 1 kg (10 of 11 particles of 0.1 kg)
        // before, 2 kg after.
        assert!((t0 - G).abs() < 0.02 * G, "{t0}");
        assert!((t1 - 2.0 * G).abs() < 0.02 * 2.0 * G, "{t1}");
        assert_eq!(w.body(b).unwrap().rest_scale, 1.0);
        let (fb, nb) = w.body_particle_range(b).unwrap();
        for i in 0..nb {
            assert_eq!(pos(&w, fb + i), pos(&twin, i), "rope b particle {i}");
        }
        // Bad input changes nothing.
        for bad in [0.0, -1.0, f32::NAN, 1e4] {
            assert!(w.set_body_rest_scale(a, bad).is_err());
        }
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(w.set_body_mass(a, bad).is_err());
        }
        assert_eq!(w.body(a).unwrap().rest_scale, 0.5);
    }
}

/// Grabs through the generic edits (id = particle index): a free rope of mass M hung
/// from a grab on its top particle sags by M g α below the target once the compliance
/// is α, and the grab reads |force| = M g; removing the grab releases it exactly as
/// `release_particle` does (bit for bit), and the rope falls freely.
#[test]
fn grab_compliance_and_removal_through_the_generic_edits() {
    for solver in SOLVERS {
        let build = || {
            let mut w = world(32, solver, 3.0);
            w.add_rope(&RopeDesc {
                start: Vec3::ZERO,
                end: Vec3::new(0.0, -1.0, 0.0),
                segments: 10,
                total_mass: 1.1,
                tethers: false,
                pin_start: false,
                ..RopeDesc::default()
            })
            .unwrap();
            w.grab_particle(0, Vec3::ZERO, 0.0).unwrap();
            w
        };
        let mut w = build();
        let mut twin = build();
        let n = w.particle_count();
        assert_eq!(w.family_constraint_count(FamilyKind::Grab), n);
        assert!(!w.is_constraint_removed(FamilyKind::Grab, 0).unwrap());
        assert!(w.is_constraint_removed(FamilyKind::Grab, 1).unwrap());
        let alpha = 1e-3;
        for x in [&mut w, &mut twin] {
            x.set_constraint_compliance(FamilyKind::Grab, 0, 1, alpha)
                .unwrap();
        }
        steps(&mut w, 600);
        steps(&mut twin, 600);
        let mass = 1.1;
        let sag = -pos(&w, 0).y;
        let mut force = [0.0; 2];
        w.read_family_forces(FamilyKind::Grab, 0, &mut force)
            .unwrap();
        println!("{solver:?}: grab sag {sag} m, force {} N", force[0]);
        assert!(
            (sag - mass * G * alpha).abs() < 0.02 * mass * G * alpha,
            "{sag}"
        );
        assert!(
            (force[0] - mass * G).abs() < 0.02 * mass * G,
            "{}",
            force[0]
        );
        assert_eq!(force[1], 0.0);
        // Rest length 0: reads 0 (NaN where not grabbed); only 0 is accepted.
        let mut rest = [1.0; 2];
        w.read_constraint_rest(FamilyKind::Grab, 0, &mut rest)
            .unwrap();
        assert_eq!(rest[0], 0.0);
        assert!(rest[1].is_nan());
        w.set_constraint_rest(FamilyKind::Grab, 0, &[0.0]).unwrap();
        let e = w
            .set_constraint_rest(FamilyKind::Grab, 0, &[0.1])
            .unwrap_err();
        assert!(e.message.contains("move_grab"), "{e}");
        // No stiffness, no break force; a range over an ungrabbed particle changes
        // nothing.
        assert!(w
            .set_constraint_stiffness(FamilyKind::Grab, 0, 1, 0.5)
            .is_err());
        assert!(w
            .set_constraint_break_force(FamilyKind::Grab, 0, 1, 10.0)
            .is_err());
        let e = w.remove_constraints(FamilyKind::Grab, 0, 2).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{e}");
        let e = w
            .set_constraint_compliance(FamilyKind::Grab, 0, 2, 0.0)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{e}");
        let e = w.remove_constraints(FamilyKind::Grab, n, 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::OutOfRange, "{e}");
        assert!(w
            .set_constraint_compliance(FamilyKind::Grab, 0, 1, -1.0)
            .is_err());
        assert_eq!(w.grab_count(), 1);
        // Remove = release.
        w.remove_constraints(FamilyKind::Grab, 0, 1).unwrap();
        twin.release_particle(0).unwrap();
        assert_eq!(w.grab_count(), 0);
        assert!(w.is_constraint_removed(FamilyKind::Grab, 0).unwrap());
        let e = w.remove_constraints(FamilyKind::Grab, 0, 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{e}");
        let top = pos(&w, 0).y;
        steps(&mut w, 30);
        steps(&mut twin, 30);
        for i in 0..n {
            assert_eq!(pos(&w, i), pos(&twin, i), "particle {i}");
        }
        // Half a second of free fall against the world's damping d = 3/s, from rest:
        // (g/d)(t − (1 − e^(−d t))/d) = 0.788 m (undamped: 1.23 m).
        let (d, t) = (3.0f32, 0.5f32);
        let expected = G / d * (t - (1.0 - (-d * t).exp()) / d);
        let fall = top - pos(&w, 0).y;
        println!("{solver:?}: fall {fall} m, expected {expected} m");
        assert!((fall - expected).abs() < 0.02 * expected, "{fall}");
    }
}
