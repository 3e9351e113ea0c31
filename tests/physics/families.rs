//! Behaviour of the constraint families (tethers, dihedral and isometric bending, tet
//! volume, closed-surface pressure) and attachments, with Gauss-Seidel and Jacobi,
//! against closed forms. The finite-difference checks of every ∇C are unit tests next
//! to each family (src/constraints/*.rs).
//!
//! `cargo test --test physics families:: -- --nocapture` prints the measured values.

use sinew::constraints::bending::dihedral_angle_and_gradient;
use sinew::{
    BendingModel, ClothDesc, ClothGridDesc, FamilyKind, Quat, Solver, Transform, Vec3, World,
    WorldDesc,
};

const G: f32 = 9.81;
const SOLVERS: [Solver; 2] = [Solver::GaussSeidel, Solver::Jacobi];

fn world(gravity: f32, substeps: u32, solver: Solver, damping: f32) -> World {
    World::new(WorldDesc {
        gravity: Vec3::new(0.0, -gravity, 0.0),
        substeps,
        iterations: 1,
        solver,
        jacobi_relaxation: 1.0,
        damping,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn pos(w: &World, i: u32) -> Vec3 {
    w.particles().position(i as usize)
}

fn family_force(w: &World, f: FamilyKind, id: u32) -> f32 {
    let mut out = [0.0f32];
    w.read_family_forces(f, id, &mut out).unwrap();
    out[0]
}

/// A tether is slack until taut: the particle falls freely (the exact discrete
/// free-fall distance) until it reaches the max length, then hangs at it with tension
/// m·g.
#[test]
fn tether_is_slack_then_holds_the_weight() {
    for solver in SOLVERS {
        let mut w = world(G, 20, solver, 2.0);
        w.add_particles(&[Vec3::ZERO, Vec3::new(0.0, -0.2, 0.0)], Some(&[0.0, 2.0]))
            .unwrap(); // 0.5 kg
        assert_eq!(w.add_tethers(&[[0, 1]], Some(&[1.0]), 0.0).unwrap(), 0);
        w.step(0.1).unwrap(); // 20 substeps of 5 ms, still slack
        let (n, h) = (20.0f32, 0.005f32);
        // v_k = k g h·e^{-damping h k}... with damping, integrate the same recursion.
        let f = (-2.0f32 * h).exp();
        let (mut v, mut y) = (0.0f32, -0.2f32);
        for _ in 0..n as usize {
            v -= G * h;
            y += v * h;
            v *= f;
        }
        let got = pos(&w, 1).y;
        assert!((got - y).abs() < 1e-5, "{solver:?}: free fall {got} vs {y}");
        assert_eq!(
            family_force(&w, FamilyKind::Tether, 0),
            0.0,
            "slack tether pulls"
        );
        for _ in 0..300 {
            w.step(1.0 / 60.0).unwrap();
        }
        let d = pos(&w, 1).length();
        let t = family_force(&w, FamilyKind::Tether, 0);
        println!(
            "{solver:?}: hanging at {d} m, tension {t} N (m g = {})",
            0.5 * G
        );
        assert!((d - 1.0).abs() < 1e-3, "{solver:?}: tether length {d} m");
        assert!(
            (t - 0.5 * G).abs() < 0.01 * 0.5 * G,
            "{solver:?}: tension {t} N"
        );
    }
}

/// A hinge: edge (0, 1) pinned along x, wings 2 and 3 (0.1 kg each) held at 1 m from
/// the edge by rigid links, wing 3 rotated by `fold` rad about the edge.
fn hinge(solver: Solver, damping: f32, fold: f32, substeps: u32) -> World {
    let mut w = world(0.0, substeps, solver, damping);
    let p = [
        Vec3::new(-0.5, 0.0, 0.0),
        Vec3::new(0.5, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(0.0, -1.0, 0.0),
    ];
    w.add_particles(&p, Some(&[0.0, 0.0, 10.0, 10.0])).unwrap();
    w.add_distance_constraints(&[[0, 2], [1, 2], [0, 3], [1, 3]], None, 0.0)
        .unwrap();
    w.write_positions(3, &[Vec3::new(0.0, -fold.cos(), fold.sin())])
        .unwrap();
    w
}

fn hinge_angle(w: &World) -> f32 {
    let x: [Vec3; 4] = std::array::from_fn(|k| pos(w, k as u32) - pos(w, 0));
    dihedral_angle_and_gradient(&x).unwrap().0
}

/// Small oscillations of the hinge: each wing (point mass m at d = 1 m from the axis)
/// feels the torque θ/α, so θ'' = −(2/(α m d²)) θ and θ first crosses 0 after a
/// quarter period T/4 = (π/2)·sqrt(α m d²/2).
#[test]
fn dihedral_hinge_oscillates_with_the_closed_form_period() {
    let (alpha, m) = (0.1f32, 0.1f32);
    let mut w = hinge(Solver::GaussSeidel, 0.0, 0.1, 4);
    w.add_dihedral_bending(&[[0, 1, 2, 3]], Some(&[0.0]), alpha)
        .unwrap();
    let theta0 = hinge_angle(&w);
    assert!((theta0.abs() - 0.1).abs() < 1e-4, "{theta0}");
    let dt = 1.0 / 2000.0;
    let (mut t, mut prev) = (0.0f32, theta0);
    let crossing = loop {
        w.step(dt).unwrap();
        t += dt;
        let th = hinge_angle(&w);
        if th.signum() != prev.signum() {
            break t - dt * th.abs() / (th.abs() + prev.abs());
        }
        prev = th;
        assert!(t < 1.0, "no zero crossing in 1 s");
    };
    let expected = std::f32::consts::FRAC_PI_2 * (alpha * m / 2.0).sqrt();
    println!("quarter period {crossing} s, closed form {expected} s");
    assert!(
        (crossing - expected).abs() < 0.03 * expected,
        "quarter period {crossing} s vs {expected} s"
    );
    let torque = family_force(&w, FamilyKind::DihedralBending, 0);
    assert!(torque < 0.1 * 0.1 / alpha, "torque at θ≈0 is {torque} N·m");
}

/// Steps (1/60 s) until |θ| < `below`, or None within 10 s.
fn settle_time(w: &mut World, below: f32) -> Option<f32> {
    for k in 1..=600 {
        w.step(1.0 / 60.0).unwrap();
        if hinge_angle(w).abs() < below {
            return Some(k as f32 / 60.0);
        }
    }
    None
}

/// A hinge folded by 1 rad returns to its rest angle (0) under damping; a stiffer
/// compliance returns faster. Both solvers.
#[test]
fn dihedral_hinge_returns_to_rest_and_stiffer_is_faster() {
    for solver in SOLVERS {
        let mut times = Vec::new();
        for alpha in [1.0f32, 0.01] {
            // Rest angle None = the current (folded) angle: this hinge stays folded.
            let mut w = hinge(solver, 1.0, 1.0, 10);
            w.add_dihedral_bending(&[[0, 1, 2, 3]], None, alpha)
                .unwrap();
            // Rest angle 0: this one unfolds.
            let mut w2 = hinge(solver, 1.0, 1.0, 10);
            w2.add_dihedral_bending(&[[0, 1, 2, 3]], Some(&[0.0]), alpha)
                .unwrap();
            let t = settle_time(&mut w2, 0.5).expect("returns towards rest");
            for _ in 0..600 {
                w2.step(1.0 / 60.0).unwrap();
            }
            let end = hinge_angle(&w2);
            println!("{solver:?} alpha {alpha}: |θ| < 0.5 after {t} s, θ after 10 s more = {end}");
            assert!(end.abs() < 0.02, "{solver:?} alpha {alpha}: θ = {end}");
            // The hinge made with rest = current angle stays folded.
            for _ in 0..60 {
                w.step(1.0 / 60.0).unwrap();
            }
            assert!((hinge_angle(&w).abs() - 1.0).abs() < 1e-3);
            times.push(t);
        }
        assert!(times[1] < 0.5 * times[0], "{solver:?}: stiffer {times:?}");
    }
}

/// Isometric bending of a flat hinge: folded by 0.6 rad, it returns flat; the
/// constraint is zero at the flat rest shape.
#[test]
fn isometric_hinge_returns_flat() {
    for solver in SOLVERS {
        let mut w = hinge(solver, 1.0, 0.0, 10);
        w.add_isometric_bending(&[[0, 1, 2, 3]], 0.01).unwrap();
        w.write_positions(3, &[Vec3::new(0.0, -(0.6f32).cos(), (0.6f32).sin())])
            .unwrap();
        for _ in 0..600 {
            w.step(1.0 / 60.0).unwrap();
        }
        let th = hinge_angle(&w);
        println!("{solver:?}: isometric hinge angle after 10 s: {th}");
        assert!(th.abs() < 0.02, "{solver:?}: θ = {th}");
    }
}

/// A tet squashed to half its volume recovers it (rigid volume constraint), with both
/// solvers, without gravity, and the centre of mass does not move.
#[test]
fn tet_recovers_its_volume_and_keeps_its_centre() {
    for solver in SOLVERS {
        let mut w = world(0.0, 10, solver, 0.0);
        let rest = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
        w.add_particles(&rest, Some(&[1.0, 2.0, 1.0, 1.0])).unwrap();
        w.add_tet_volumes(&[[0, 1, 2, 3]], None, 0.0).unwrap();
        let squashed: Vec<Vec3> = rest.iter().map(|p| *p * Vec3::new(1.0, 0.5, 1.0)).collect();
        w.write_positions(0, &squashed).unwrap();
        let com = |w: &World| {
            let m = [1.0f32, 0.5, 1.0, 1.0];
            (0..4).map(|i| pos(w, i) * m[i as usize]).sum::<Vec3>() / 3.5
        };
        let c0 = com(&w);
        for _ in 0..30 {
            w.step(1.0 / 60.0).unwrap();
        }
        let x: [Vec3; 4] = std::array::from_fn(|k| pos(&w, k as u32) - pos(&w, 0));
        let v = sinew::constraints::volume::tet_volume(&x);
        println!("{solver:?}: tet volume {v} (rest 1/6)");
        assert!((v - 1.0 / 6.0).abs() < 0.01 / 6.0, "{solver:?}: {v}");
        assert!((com(&w) - c0).length() < 1e-4, "{solver:?}: centre moved");
    }
}

/// The 8 corners of a unit cube (index x + 2y + 4z) and its 12 outward triangles.
fn cube() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let v = (0..8u32)
        .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32))
        .collect();
    let t = vec![
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ];
    (v, t)
}

/// A closed surface with overpressure 1.5 inflates to 1.5 × its rest volume.
#[test]
fn pressure_surface_inflates_to_the_overpressure_volume() {
    for solver in SOLVERS {
        let mut w = world(0.0, 10, solver, 5.0);
        let (v, t) = cube();
        w.add_particles(&v, None).unwrap();
        let id = w.add_pressure_volume(&t, 1.5, 0.0).unwrap();
        assert!((w.pressure_volume(id).unwrap() - 1.0).abs() < 1e-6);
        for _ in 0..60 {
            w.step(1.0 / 60.0).unwrap();
        }
        let vol = w.pressure_volume(id).unwrap();
        println!("{solver:?}: volume {vol} m³ (target 1.5)");
        assert!((vol - 1.5).abs() < 0.015, "{solver:?}: {vol}");
    }
}

/// A 0.5 kg particle hard-pinned (α = 0) to a host at (0, 1, 0): it stays on the
/// target and the host feels its weight, (0, −m g, 0).
#[test]
fn hard_attachment_holds_the_weight_and_reports_it() {
    for solver in SOLVERS {
        let mut w = world(G, 10, solver, 0.0);
        w.add_particles(&[Vec3::new(0.0, 1.0, 0.0)], Some(&[2.0]))
            .unwrap();
        let host = w
            .add_attachment_host(Transform {
                position: Vec3::new(0.0, 1.0, 0.0),
                rotation: Quat::IDENTITY,
            })
            .unwrap();
        assert_eq!(w.add_attachments(host, &[0], None, 0.0).unwrap(), 0);
        for _ in 0..60 {
            w.step(1.0 / 60.0).unwrap();
        }
        let mut f = [Vec3::ZERO];
        w.read_attachment_forces(0, &mut f).unwrap();
        println!("{solver:?}: force on host {}", f[0]);
        assert!((pos(&w, 0) - Vec3::new(0.0, 1.0, 0.0)).length() < 1e-5);
        assert!((f[0] - Vec3::new(0.0, -0.5 * G, 0.0)).length() < 0.005 * 0.5 * G);
    }
}

/// A host moving 0.1 m per frame (6 m/s) while turning: the pinned particle ends each
/// step exactly on its target and, because it followed the interpolated target across
/// the substeps, moves with the host's velocity (6 m/s) rather than jumping in the
/// first substep and resting in the others.
#[test]
fn pinned_particle_follows_the_interpolated_host() {
    let mut w = world(0.0, 8, Solver::GaussSeidel, 0.0);
    w.add_particles(&[Vec3::new(1.0, 0.0, 0.0)], None).unwrap();
    let host = w
        .add_attachment_host(Transform {
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
        })
        .unwrap();
    w.add_attachments(host, &[0], Some(&[Vec3::new(0.0, 0.0, 0.5)]), 0.0)
        .unwrap();
    let dt = 1.0 / 60.0;
    for k in 1..=30 {
        let t = Transform {
            position: Vec3::new(0.1 * k as f32, 0.0, 0.0),
            rotation: Quat::from_rotation_x(0.01 * k as f32),
        };
        w.set_attachment_host_transform(host, t).unwrap();
        w.step(dt).unwrap();
        let target = t.position + t.rotation * Vec3::new(0.0, 0.0, 0.5);
        assert!((pos(&w, 0) - target).length() < 1e-5, "step {k}");
    }
    let v = w.particles().velocity(0);
    println!("velocity {v} (host 6 m/s along x)");
    assert!((v.x - 6.0).abs() < 0.01 * 6.0, "{v}");
}

/// A soft attachment (zero-length spring of stiffness 1/α) holding 0.5 kg hangs
/// α·m·g below its target.
#[test]
fn soft_attachment_sags_by_compliance_times_weight() {
    for solver in SOLVERS {
        let alpha = 0.01f32;
        let mut w = world(G, 10, solver, 4.0);
        w.add_particles(&[Vec3::ZERO], Some(&[2.0])).unwrap();
        let host = w
            .add_attachment_host(Transform {
                position: Vec3::ZERO,
                rotation: Quat::IDENTITY,
            })
            .unwrap();
        w.add_attachments(host, &[0], None, alpha).unwrap();
        for _ in 0..300 {
            w.step(1.0 / 60.0).unwrap();
        }
        let sag = -pos(&w, 0).y;
        let mut f = [Vec3::ZERO];
        w.read_attachment_forces(0, &mut f).unwrap();
        println!(
            "{solver:?}: sag {sag} m (α m g = {}), host force {}",
            alpha * 0.5 * G,
            f[0]
        );
        assert!(
            (sag - alpha * 0.5 * G).abs() < 0.01 * alpha * 0.5 * G,
            "{sag}"
        );
        assert!((f[0].y + 0.5 * G).abs() < 0.01 * 0.5 * G);
        w.set_attachment_compliance(0, 1, 0.0).unwrap();
        for _ in 0..60 {
            w.step(1.0 / 60.0).unwrap();
        }
        assert!(pos(&w, 0).length() < 1e-5, "hard after the setter");
    }
}

/// Every family at once on a cloth and soft bodies: positions are bit-identical with
/// 1 and 2 worker threads, for both solvers.
#[test]
fn families_are_deterministic_across_thread_counts() {
    for solver in SOLVERS {
        let run = |threads: u32| {
            let mut w = World::new(WorldDesc {
                solver,
                threads,
                ..WorldDesc::default()
            })
            .unwrap();
            for (k, bending) in [BendingModel::Dihedral, BendingModel::Isometric]
                .into_iter()
                .enumerate()
            {
                w.add_cloth_grid(
                    &ClothDesc {
                        bending,
                        ..ClothDesc::default()
                    },
                    &ClothGridDesc {
                        origin: Vec3::new(0.0, k as f32, 0.0),
                        segments_u: 64,
                        segments_v: 64,
                        pin_corners: 3,
                        ..ClothGridDesc::default()
                    },
                )
                .unwrap();
            }
            let (v, t) = cube();
            let first = w.add_particles(&v, None).unwrap();
            let t: Vec<[u32; 3]> = t.iter().map(|t| t.map(|i| i + first)).collect();
            w.add_pressure_volume(&t, 1.2, 0.0).unwrap();
            for _ in 0..10 {
                w.step(1.0 / 60.0).unwrap();
            }
            let n = w.particle_count();
            let mut bits = Vec::new();
            w.read_positions(0, n, |_, p| bits.extend(p.to_array().map(f32::to_bits)))
                .unwrap();
            bits
        };
        assert!(
            run(1) == run(2),
            "{solver:?}: results depend on the thread count"
        );
    }
}

/// Degenerate elements are refused naming the element, and nothing is added.
#[test]
fn degenerate_elements_are_refused() {
    let mut w = world(G, 4, Solver::GaussSeidel, 0.0);
    // 0, 1, 2 collinear; 3 off the line.
    let p = [
        Vec3::ZERO,
        Vec3::X,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::Y,
        Vec3::Z,
    ];
    w.add_particles(&p, None).unwrap();
    let e = w.add_dihedral_bending(&[[3, 4, 0, 1]], None, 0.0).unwrap();
    assert_eq!(e, 0, "a valid hinge");
    let e = w
        .add_dihedral_bending(&[[0, 1, 2, 3]], None, 0.0)
        .unwrap_err();
    assert!(
        e.message.contains("hinge 0") && e.message.contains("zero area"),
        "{}",
        e.message
    );
    let e = w.add_isometric_bending(&[[0, 1, 2, 3]], 0.0).unwrap_err();
    assert!(
        e.message.contains("hinge 0") && e.message.contains("zero area"),
        "{}",
        e.message
    );
    let e = w
        .add_tet_volumes(&[[0, 3, 4, 1], [0, 1, 2, 3]], None, 0.0)
        .unwrap_err();
    assert!(
        e.message.contains("tet 1") && e.message.contains("zero volume"),
        "{}",
        e.message
    );
    let e = w
        .add_tet_volumes(&[[0, 1, 3, 4], [0, 3, 1, 4]], None, 0.0)
        .unwrap_err();
    assert!(
        e.message.contains("tet 1") && e.message.contains("inverted"),
        "{}",
        e.message
    );
    let e = w
        .add_pressure_volume(&[[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]], 1.0, 0.0)
        .unwrap_err();
    assert!(
        e.message.contains("triangle 0") && e.message.contains("zero area"),
        "{}",
        e.message
    );
    let e = w.add_tethers(&[[0, 9]], None, 0.0).unwrap_err();
    assert!(e.message.contains("tether 0"), "{}", e.message);
    assert_eq!(w.family_constraint_count(FamilyKind::DihedralBending), 1);
    assert_eq!(w.family_constraint_count(FamilyKind::TetVolume), 0);
    assert_eq!(w.family_constraint_count(FamilyKind::PressureVolume), 0);
    assert_eq!(w.family_constraint_count(FamilyKind::IsometricBending), 0);
    assert_eq!(w.family_constraint_count(FamilyKind::Tether), 0);
}
