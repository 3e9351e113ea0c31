//! Strain-based dynamics, unilateral area/volume, the 2D world flag with ring areas,
//! and shape matching, against closed forms; a plane at the coordinate limit puts
//! particles exactly on it. (∇C finite-difference checks are unit
//! tests in src/constraints/{strain,unilateral,ring}.rs.)
//!
//! `cargo test --test physics families_2d:: -- --nocapture` prints the measured values.

use sinew::{FamilyKind, Solver, Vec3, World, WorldDesc};

const G: f32 = 9.81;
const SOLVERS: [Solver; 2] = [Solver::GaussSeidel, Solver::Jacobi];

/// Jacobi runs 40 iterations per substep (it converges several times slower than
/// Gauss-Seidel; the closed forms below assume a converged XPBD solve).
fn world(gravity: Vec3, substeps: u32, solver: Solver, damping: f32) -> World {
    World::new(WorldDesc {
        gravity,
        substeps,
        solver,
        iterations: if solver == Solver::Jacobi { 40 } else { 1 },
        damping,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn pos(w: &World, i: u32) -> Vec3 {
    w.particles().position(i as usize)
}

/// A right triangle with its x edge pinned and 0.5 kg on the free vertex, hanging
/// along −y: only the yy stretch component carries the weight, so at rest
/// |x2 − x0| − 1 = α_yy·m·g; the xx compliance does not matter. Anisotropy: 10× the
/// yy compliance, 10× the stretch.
#[test]
fn triangle_strain_stretches_by_its_axis_compliance() {
    for solver in SOLVERS {
        let mut stretch = Vec::new();
        for alpha_yy in [0.001f32, 0.01] {
            let mut w = world(Vec3::new(0.0, -G, 0.0), 20, solver, 5.0);
            let p = [Vec3::ZERO, Vec3::X, Vec3::new(0.0, -1.0, 0.0)];
            w.add_particles(&p, Some(&[0.0, 0.0, 2.0])).unwrap();
            // Counter-clockwise seen from +z is irrelevant for strain; x axis = 0→1.
            assert_eq!(
                w.add_triangle_strain(&[[0, 1, 2]], 1.0, alpha_yy, 0.0)
                    .unwrap(),
                0
            );
            for _ in 0..300 {
                w.step(1.0 / 60.0).unwrap();
            }
            let s = pos(&w, 2).distance(pos(&w, 0)) - 1.0;
            let expected = alpha_yy * 0.5 * G;
            let mut f = [0.0f32; 3];
            w.read_family_forces(FamilyKind::TriangleStrain, 0, &mut f)
                .unwrap();
            println!(
                "{solver:?} α_yy {alpha_yy}: stretch {s} m (α m g = {expected}), forces {f:?}"
            );
            assert!(
                (s - expected).abs() < 0.02 * expected,
                "{solver:?}: {s} vs {expected}"
            );
            assert!(
                (f[1] - 0.5 * G).abs() < 0.02 * 0.5 * G,
                "yy carries m g: {f:?}"
            );
            assert!(pos(&w, 2).x.abs() < 1e-4, "no shear drift");
            stretch.push(s);
        }
        assert!((stretch[1] / stretch[0] - 10.0).abs() < 0.5, "{stretch:?}");
    }
}

/// A tet standing on a pinned base with 0.5 kg on its apex (along +y): under gravity
/// only the yy component is loaded: compression = α_yy·m·g.
#[test]
fn tet_strain_compresses_by_its_axis_compliance() {
    for solver in SOLVERS {
        let alpha = 0.01f32;
        let mut w = world(Vec3::new(0.0, -G, 0.0), 20, solver, 5.0);
        let p = [Vec3::ZERO, Vec3::Z, Vec3::X, Vec3::Y];
        w.add_particles(&p, Some(&[0.0, 0.0, 0.0, 2.0])).unwrap();
        w.add_tet_strain(&[[0, 1, 2, 3]], [1.0, alpha, 1.0], 0.0)
            .unwrap();
        assert_eq!(w.family_constraint_count(FamilyKind::TetStrain), 6);
        for _ in 0..300 {
            w.step(1.0 / 60.0).unwrap();
        }
        let c = 1.0 - pos(&w, 3).y;
        println!(
            "{solver:?}: apex compressed by {c} m (α m g = {})",
            alpha * 0.5 * G
        );
        assert!((c - alpha * 0.5 * G).abs() < 0.02 * alpha * 0.5 * G, "{c}");
    }
}

/// In a 2D world a vertex thrown through the opposite edge of a triangle stops at zero
/// signed area when the triangle has a unilateral area constraint (it passes through
/// without one); a triangle that is not inverted is left alone (free flight exact).
#[test]
fn unilateral_area_stops_inversion_only() {
    for solver in SOLVERS {
        for guarded in [true, false] {
            let mut w = world(Vec3::ZERO, 10, solver, 0.0);
            w.set_planar(Some(0.0)).unwrap();
            let p = [Vec3::ZERO, Vec3::X, Vec3::new(0.5, 0.5, 0.0)];
            w.add_particles(&p, Some(&[0.0, 0.0, 1.0])).unwrap();
            if guarded {
                w.add_unilateral_areas(&[[0, 1, 2]], None, 0.0).unwrap();
            }
            w.write_velocities(2, &[Vec3::new(0.0, -3.0, 0.0)]).unwrap();
            for _ in 0..6 {
                w.step(1.0 / 60.0).unwrap();
            }
            // 0.1 s at 3 m/s: 0.3 m down, still above the edge: untouched.
            assert!(
                (pos(&w, 2).y - 0.2).abs() < 1e-5,
                "{solver:?} {guarded}: {}",
                pos(&w, 2)
            );
            for _ in 0..30 {
                w.step(1.0 / 60.0).unwrap();
            }
            let y = pos(&w, 2).y;
            println!("{solver:?} guarded {guarded}: vertex at y = {y}");
            if guarded {
                assert!(y > -1e-4, "{solver:?}: inverted to {y}");
            } else {
                assert!(y < -1.0, "{solver:?}: should pass through, {y}");
            }
        }
    }
}

/// A tet's apex thrown down through its base stops at zero volume with a unilateral
/// volume constraint.
#[test]
fn unilateral_volume_stops_inversion() {
    for solver in SOLVERS {
        let mut w = world(Vec3::ZERO, 10, solver, 0.0);
        let p = [Vec3::ZERO, Vec3::Z, Vec3::X, Vec3::new(0.2, 0.5, 0.2)];
        w.add_particles(&p, Some(&[0.0, 0.0, 0.0, 1.0])).unwrap();
        w.add_unilateral_volumes(&[[0, 1, 2, 3]], None, 0.0)
            .unwrap();
        w.write_velocities(3, &[Vec3::new(0.0, -3.0, 0.0)]).unwrap();
        for _ in 0..60 {
            w.step(1.0 / 60.0).unwrap();
        }
        let y = pos(&w, 3).y;
        println!("{solver:?}: apex at y = {y}");
        assert!(y > -1e-4, "{solver:?}: {y}");
    }
}

fn circle(n: usize, r: f32) -> Vec<Vec3> {
    (0..n)
        .map(|i| {
            let a = std::f32::consts::TAU * i as f32 / n as f32;
            Vec3::new(r * a.cos(), r * a.sin(), 0.0)
        })
        .collect()
}

/// 2D: particles thrown out of the plane and pulled by a z gravity stay in it; a ring
/// squashed to half its area regains it (pressure 1) or inflates to 1.3× (pressure
/// 1.3) with both solvers, staying in the plane.
#[test]
fn planar_world_and_ring_area() {
    for solver in SOLVERS {
        for k in [1.0f32, 1.3] {
            let mut w = world(Vec3::new(0.0, 0.0, -5.0), 10, solver, 3.0);
            w.add_particles(&circle(16, 0.5), None).unwrap();
            w.set_planar(Some(0.25)).unwrap();
            assert_eq!(w.planar(), Some(0.25));
            let ring: Vec<u32> = (0..16).collect();
            let id = w.add_ring_area(&ring, k, 0.0).unwrap();
            let a0 = w.ring_area(id).unwrap();
            let pi_r2 = std::f32::consts::PI * 0.25;
            assert!((a0 - pi_r2).abs() < 0.03 * pi_r2, "polygon area {a0}");
            let squashed: Vec<Vec3> = circle(16, 0.5)
                .iter()
                .map(|p| Vec3::new(p.x, 0.5 * p.y, 1.0))
                .collect();
            w.write_positions(0, &squashed).unwrap();
            let v: Vec<Vec3> = (0..16).map(|_| Vec3::new(0.0, 0.0, 2.0)).collect();
            w.write_velocities(0, &v).unwrap();
            for _ in 0..120 {
                w.step(1.0 / 60.0).unwrap();
            }
            let a = w.ring_area(id).unwrap();
            println!("{solver:?} pressure {k}: area {a} m² (target {})", k * a0);
            assert!((a - k * a0).abs() < 0.01 * k * a0, "{solver:?}: {a}");
            for i in 0..16 {
                assert!((pos(&w, i).z - 0.25).abs() < 1e-6, "left the plane");
                assert_eq!(w.particles().velocity(i as usize).z, 0.0);
            }
        }
    }
    let mut w = world(Vec3::ZERO, 1, Solver::GaussSeidel, 0.0);
    assert!(w.set_planar(Some(f32::NAN)).is_err());
    w.set_planar(None).unwrap();
    assert_eq!(w.planar(), None);
}

fn cube_corners(size: f32) -> Vec<Vec3> {
    (0..8u32)
        .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32) * size)
        .collect()
}

fn pair_distances(w: &World, n: u32) -> Vec<f32> {
    let mut d = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            d.push(pos(w, a).distance(pos(w, b)));
        }
    }
    d
}

/// A rigid cluster (k = 1) deformed by random offsets returns to its rest shape up to
/// a rigid motion (all pair distances within 1e-4 m), and a spinning cluster keeps
/// spinning at its angular velocity (rigid-body rotation conserves it).
#[test]
fn shape_matching_restores_the_rest_shape_and_spins_rigidly() {
    for solver in SOLVERS {
        let mut w = world(Vec3::ZERO, 20, solver, 0.0);
        let rest = cube_corners(0.4);
        w.add_particles(&rest, None).unwrap();
        let members: Vec<u32> = (0..8).collect();
        w.add_shape_cluster(&members, 1.0, f32::INFINITY, 0.0)
            .unwrap();
        let reference = pair_distances(&w, 8);
        let deformed: Vec<Vec3> = rest
            .iter()
            .enumerate()
            .map(|(i, p)| {
                *p + Vec3::new(
                    0.05 * (i as f32).sin(),
                    0.03 * (i % 3) as f32,
                    -0.04 * (i % 2) as f32,
                )
            })
            .collect();
        w.write_positions(0, &deformed).unwrap();
        w.step(1.0 / 60.0).unwrap();
        let after = pair_distances(&w, 8);
        let worst = reference
            .iter()
            .zip(&after)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        println!("{solver:?}: worst pair distance error after one step {worst} m");
        assert!(worst < 1e-4, "{solver:?}: {worst}");
        // Spin about the centre of mass at ω = 2 rad/s about z.
        let omega = 2.0f32;
        let c0: Vec3 = (0..8).map(|i| pos(&w, i)).sum::<Vec3>() / 8.0;
        let v: Vec<Vec3> = (0..8)
            .map(|i| Vec3::Z.cross(pos(&w, i) - c0) * omega)
            .collect();
        w.write_velocities(0, &v).unwrap();
        for _ in 0..60 {
            w.step(1.0 / 60.0).unwrap();
        }
        let c: Vec3 = (0..8).map(|i| pos(&w, i)).sum::<Vec3>() / 8.0;
        let r = pos(&w, 0) - c;
        let vel = w.particles().velocity(0);
        let measured = r.cross(vel).z / r.truncate().length_squared();
        println!("{solver:?}: angular velocity after 1 s {measured} rad/s (2)");
        assert!(
            (measured - omega).abs() < 0.01 * omega,
            "{solver:?}: {measured}"
        );
        // Momentum is conserved up to single-precision rounding of each projection: a
        // random walk amplified by 1/h. Jacobi runs 40 iterations × 1200 substeps =
        // 48,000 projections; each rounds the cluster's centre by ~ε·0.4 m ≈ 2.4e-8 m,
        // a velocity kick of 2.4e-8 m × 1200/s ≈ 3e-5 m/s, so the velocity walks by
        // √48000 × 3e-5 ≈ 6e-3 m/s: up to ~1–2 cm of drift in 1 s (measured 8–12 mm;
        // Gauss-Seidel's 1,200 projections: 0.35 mm).
        assert!(
            (c - c0).length() < 2e-2,
            "the centre of mass moved by {}",
            (c - c0).length()
        );
    }
}

/// Plasticity: a blob held squashed by 40% for 0.25 s (all particles pinned there)
/// with a small yield distance and creep keeps most of the squash once released; an
/// elastic one recovers its height.
#[test]
fn plastic_cluster_keeps_part_of_the_deformation() {
    let mut heights = Vec::new();
    for (yield_distance, creep) in [(f32::INFINITY, 0.0f32), (0.01, 0.5)] {
        let mut w = world(Vec3::ZERO, 4, Solver::GaussSeidel, 5.0);
        w.add_particles(&cube_corners(1.0), None).unwrap();
        let members: Vec<u32> = (0..8).collect();
        w.add_shape_cluster(&members, 0.2, yield_distance, creep)
            .unwrap();
        let squashed: Vec<Vec3> = cube_corners(1.0)
            .iter()
            .map(|p| Vec3::new(p.x, 0.6 * p.y, p.z))
            .collect();
        w.write_positions(0, &squashed).unwrap();
        w.set_inverse_masses(0, &[0.0; 8]).unwrap();
        for _ in 0..15 {
            w.step(1.0 / 60.0).unwrap();
        }
        w.set_inverse_masses(0, &[1.0; 8]).unwrap();
        for _ in 0..180 {
            w.step(1.0 / 60.0).unwrap();
        }
        let h = (0..8).map(|i| pos(&w, i).y).fold(f32::MIN, f32::max)
            - (0..8).map(|i| pos(&w, i).y).fold(f32::MAX, f32::min);
        println!("yield {yield_distance}, creep {creep}: height {h} m (rest 1, squashed 0.6)");
        heights.push(h);
    }
    assert!((heights[0] - 1.0).abs() < 0.01, "elastic: {heights:?}");
    assert!(heights[1] < 0.7, "plastic: {heights:?}");
}

/// A plane at the coordinate limit (z = 1e9 m, accepted) puts particles far from it
/// exactly on it: `plane − base` rounded, and base + (plane − base) came out one
/// float past the limit, a position the step's recovery and the snapshot loader
/// refuse (the API fuzzer found a world whose own snapshot was refused).
#[test]
fn a_plane_at_the_coordinate_limit_holds_particles_on_it() {
    let mut w = world(Vec3::new(0.0, -G, 0.0), 4, Solver::GaussSeidel, 0.0);
    // Bases spread over the whole range, the plane at its end.
    let n = 200u32;
    let points: Vec<Vec3> = (0..n)
        .map(|k| Vec3::new(k as f32, 0.0, -9.9e8 + k as f32 * 9.87654e6))
        .collect();
    let first = w.add_particles(&points, None).unwrap();
    let z = 1.0e9;
    w.set_planar(Some(z)).unwrap();
    for frame in 0..3 {
        for i in first..first + n {
            assert_eq!(w.particles().position(i as usize).z, z, "frame {frame}");
        }
        let copy = World::from_snapshot(&w.snapshot(), 1)
            .unwrap_or_else(|e| panic!("frame {frame}: its own snapshot refused: {e}"));
        assert_eq!(copy.state_hash(), w.state_hash());
        w.step(1.0 / 60.0).unwrap();
    }
}
