//! Hardening regressions: the table of accepted ranges (src/limits.rs), contacts far
//! from the origin, no NaN from accepted input, momentum of free bodies.

use sinew::scenes::tet_cube;
use sinew::{
    BendingModel, ClothDesc, ClothGridDesc, ClothModel, ColliderDesc, ErrorKind, Shape, Vec3,
    World, WorldDesc,
};
use sinew::{MAX_COMPLIANCE, MAX_INVERSE_MASS, MAX_LENGTH, MIN_INVERSE_MASS};

fn zero_g(threads: u32) -> World {
    World::new(WorldDesc {
        gravity: Vec3::ZERO,
        threads,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn positions(w: &World) -> Vec<Vec3> {
    let mut out = vec![Vec3::ZERO; w.particle_count() as usize];
    w.read_positions(0, w.particle_count(), |k, p| out[k] = p)
        .unwrap();
    out
}

fn velocities(w: &World) -> Vec<Vec3> {
    let mut out = vec![Vec3::ZERO; w.particle_count() as usize];
    w.read_velocities(0, w.particle_count(), |k, v| out[k] = v)
        .unwrap();
    out
}

fn all_finite(w: &World) -> bool {
    positions(w).iter().all(|p| p.is_finite()) && velocities(w).iter().all(|v| v.is_finite())
}

// ---------------------------------------------------------------------------------
// Hash-grid cells far from the origin.

/// Two overlapping particles of radius 1 mm at `x` (y separation 1.5 mm, exact in f32
/// since y is near 0), zero gravity; returns their y positions after `steps` steps.
fn far_pair(x: f32, steps: usize) -> [f32; 2] {
    let mut w = zero_g(1);
    w.add_particles(&[Vec3::new(x, 0.0, 0.0), Vec3::new(x, 1.5e-3, 0.0)], None)
        .unwrap();
    w.set_particle_radii(0, &[1.0e-3, 1.0e-3]).unwrap();
    for _ in 0..steps {
        w.step(1.0 / 60.0).unwrap();
    }
    let p = positions(&w);
    [p[0].y, p[1].y]
}

/// A particle 1e9 m from the origin with a 1 mm radius lies 4e11 cells out: the i32
/// cell arithmetic overflowed (a panic in debug builds, wrapped cells and missed
/// contacts in release). The contact must be found and resolved exactly as at the
/// origin: the y arithmetic does not depend on x, so the y positions are bit-equal.
#[test]
fn hash_grid_cells_do_not_overflow_far_from_the_origin() {
    let near = far_pair(0.0, 3);
    // One Jacobi contact per particle pushes each by half the 0.5 mm overlap in the
    // first iteration: the pair separates to at least 2 mm.
    assert!(near[1] - near[0] >= 2.0e-3 * (1.0 - 1e-4), "{near:?}");
    for x in [1.0e7f32, -3.0e8, 1.0e9, -1.0e9] {
        let far = far_pair(x, 3);
        assert_eq!(far, near, "at x = {x}");
    }
}

/// Far from the origin, particles separated only by their sub-ulp displacements (1e9 m
/// has an f32 spacing of 64 m) are still in contact: a particle moving along x at
/// 1e9 m towards a resting one is stopped by it instead of passing through.
#[test]
fn hash_grid_finds_contacts_closer_than_the_coordinate_spacing() {
    for x in [0.0f32, 1.0e9] {
        let mut w = zero_g(1);
        w.add_particles(&[Vec3::new(x, 0.0, 0.0), Vec3::new(x, 0.0, 0.0)], None)
            .unwrap();
        w.set_particle_radii(0, &[1.0e-3, 1.0e-3]).unwrap();
        // Separate them along y by 3 mm of motion (no contact), then close in again.
        w.write_velocities(0, &[Vec3::ZERO, Vec3::new(0.0, 0.18, 0.0)])
            .unwrap();
        w.step(1.0 / 60.0).unwrap();
        w.write_velocities(0, &[Vec3::ZERO, Vec3::new(0.0, -0.18, 0.0)])
            .unwrap();
        let mut min_gap = f32::MAX;
        for _ in 0..4 {
            w.step(1.0 / 60.0).unwrap();
            let p = positions(&w);
            min_gap = min_gap.min(p[1].y - p[0].y);
        }
        assert!(
            min_gap > 1.5e-3,
            "x = {x}: the particles passed through ({min_gap})"
        );
    }
}

// ---------------------------------------------------------------------------------
// Accepted values the maths cannot hold are rejected.

fn pair_world() -> World {
    let mut w = zero_g(1);
    w.add_particles(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z], None)
        .unwrap();
    w
}

fn assert_rejected<T: std::fmt::Debug>(r: sinew::Result<T>, words: &[&str]) {
    let e = r.expect_err("must be rejected");
    assert_eq!(e.kind, ErrorKind::InvalidArgument, "{e}");
    for word in words {
        assert!(e.message.contains(word), "{:?} lacks {word:?}", e.message);
    }
}

/// A rest length of 3e38 was accepted and the next step turned both particles into
/// NaN with status OK. Now: INVALID_ARGUMENT naming the value and the range, and the
/// world is unchanged.
#[test]
fn rest_length_of_3e38_is_rejected_and_changes_nothing() {
    let mut w = pair_world();
    let before = positions(&w);
    assert_rejected(
        w.add_distance_constraints(&[[0, 1]], Some(&[3.0e38]), 0.0),
        &["rest length", "3", "1000000000"],
    );
    assert_rejected(
        w.add_pbd_distance_constraints(&[[0, 1]], Some(&[2.0e9]), 1.0),
        &["rest length"],
    );
    assert_eq!(w.distance_constraint_count(), 0);
    w.step(1.0 / 60.0).unwrap();
    assert_eq!(positions(&w), before);
    // The largest accepted length is accepted.
    w.add_distance_constraints(&[[0, 1]], Some(&[MAX_LENGTH]), 0.0)
        .unwrap();
}

/// Tether lengths, tet rest volumes, radii, collider sizes, compliances and inverse
/// masses beyond the table are rejected the same way.
#[test]
fn lengths_volumes_sizes_compliances_and_masses_beyond_the_table_are_rejected() {
    let mut w = pair_world();
    assert_rejected(
        w.add_tethers(&[[0, 1]], Some(&[3.0e38]), 0.0),
        &["tether 0: max length"],
    );
    assert_rejected(
        w.add_tet_volumes(&[[0, 1, 2, 3]], Some(&[3.0e38]), 0.0),
        &["rest volume"],
    );
    assert_rejected(
        w.add_unilateral_areas(&[[0, 1, 2]], Some(&[3.0e38]), 0.0),
        &["element 0: minimum area"],
    );
    assert_rejected(
        w.add_unilateral_volumes(&[[0, 1, 2, 3]], Some(&[3.0e38]), 0.0),
        &["element 0: minimum volume"],
    );
    assert_rejected(w.set_particle_radii(0, &[0.1, 2.0e9]), &["radius 1"]);
    assert_rejected(
        w.add_collider(&ColliderDesc {
            shape: Shape::Box {
                half_extents: Vec3::new(1.0, 3.0e38, 1.0),
            },
            ..ColliderDesc::default()
        }),
        &["half_extents.y"],
    );
    assert_rejected(
        w.add_distance_constraints(&[[0, 1]], None, MAX_COMPLIANCE * 10.0),
        &["compliance"],
    );
    assert_rejected(
        w.add_tethers(&[[0, 1]], None, MAX_COMPLIANCE * 10.0),
        &["compliance"],
    );
    assert_rejected(
        w.set_inverse_masses(0, &[1.0, MAX_INVERSE_MASS * 10.0]),
        &["inverse mass 1"],
    );
    assert_rejected(
        w.add_particles(&[Vec3::ZERO], Some(&[f32::MAX])),
        &["inverse mass 0"],
    );
    assert_rejected(
        w.set_inverse_masses(0, &[1.0, MIN_INVERSE_MASS * 0.5]),
        &["inverse mass 1", "0 (pinned)"],
    );
    assert_rejected(
        w.add_particles(&[Vec3::ZERO], Some(&[1.0e-40])),
        &["inverse mass 0"],
    );
    assert_eq!(w.particle_count(), 4);
    assert_eq!(w.collider_count(), 0);
    assert_eq!(w.constraint_sets().tether.len(), 0);
    let w_before: Vec<f32> = (0..4).map(|i| w.particles().inverse_mass(i)).collect();
    assert_eq!(w_before, vec![1.0; 4]);
}

/// The extremes the table accepts give finite results: the largest rest length on a
/// unit pair, the largest compliance, the largest inverse mass, the largest box.
#[test]
fn the_extremes_of_the_table_stay_finite() {
    for threads in [1, 2] {
        let mut w = zero_g(threads);
        w.add_particles(
            &[
                Vec3::ZERO,
                Vec3::X,
                Vec3::new(5.0, 0.0, 0.0),
                Vec3::new(6.0, 0.0, 0.0),
            ],
            Some(&[1.0, MAX_INVERSE_MASS, 1.0, 1.0]),
        )
        .unwrap();
        w.add_distance_constraints(&[[0, 1]], Some(&[MAX_LENGTH]), 0.0)
            .unwrap();
        w.add_distance_constraints(&[[2, 3]], Some(&[0.5]), MAX_COMPLIANCE)
            .unwrap();
        w.add_collider(&ColliderDesc {
            shape: Shape::Box {
                half_extents: Vec3::splat(MAX_LENGTH),
            },
            position: Vec3::new(0.0, -MAX_LENGTH - 10.0, 0.0),
            ..ColliderDesc::default()
        })
        .unwrap();
        for _ in 0..20 {
            match w.step(1.0 / 60.0) {
                Ok(()) => {}
                Err(e) => assert_eq!(e.kind, ErrorKind::NonFinite, "{e}"),
            }
            assert!(all_finite(&w), "{:?}", positions(&w));
        }
    }
}

/// The heaviest accepted particle (MIN_INVERSE_MASS, 1e12 kg) linked to the lightest
/// (MAX_INVERSE_MASS), both striking a plane fast: every step succeeds (no NON_FINITE
/// recovery, which an inverse mass of 1e-40 triggered) and the contact impulses are
/// finite and >= 0.
#[test]
fn the_widest_accepted_mass_ratio_steps_without_recoveries() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    w.add_particles(
        &[Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.3, 0.5, 0.0)],
        Some(&[MIN_INVERSE_MASS, MAX_INVERSE_MASS]),
    )
    .unwrap();
    w.set_particle_radii(0, &[0.05, 0.05]).unwrap();
    w.write_velocities(0, &[Vec3::new(0.0, -50.0, 0.0), Vec3::new(0.0, 50.0, 0.0)])
        .unwrap();
    w.add_distance_constraints(&[[0, 1]], None, 0.0).unwrap();
    w.add_collider(&ColliderDesc {
        shape: Shape::Plane,
        restitution: 0.5,
        ..ColliderDesc::default()
    })
    .unwrap();
    for step in 0..60 {
        w.step(1.0 / 60.0)
            .unwrap_or_else(|e| panic!("step {step}: {e}"));
        assert!(all_finite(&w), "{:?}", positions(&w));
        for c in w.contacts() {
            assert!(c.impulse.is_finite() && c.impulse >= 0.0, "{c:?}");
        }
    }
}

// ---------------------------------------------------------------------------------
// Extreme but valid states never produce NaN.

/// The fuzzer's scene: a strain-model cloth, isometric bending, zero compliance,
/// pinned corners, tangled by an accepted `write_positions` (some particles 1e5 m
/// away).
fn tangled_cloth(threads: u32) -> (World, sinew::BodyId) {
    let mut w = World::new(WorldDesc {
        threads,
        ..WorldDesc::default()
    })
    .unwrap();
    let cloth = w
        .add_cloth_grid(
            &ClothDesc {
                model: ClothModel::Strain,
                stretch_compliance: 0.0,
                weft_compliance: 0.0,
                shear_compliance: 0.0,
                bend_compliance: 0.0,
                bending: BendingModel::Isometric,
                ..ClothDesc::default()
            },
            &ClothGridDesc {
                segments_u: 8,
                segments_v: 8,
                pin_corners: 15,
                ..ClothGridDesc::default()
            },
        )
        .unwrap();
    let n = w.particle_count() as usize;
    let mut p = positions(&w);
    for (k, q) in p.iter_mut().enumerate() {
        match k % 7 {
            0 => *q = Vec3::new(1.0e5, -3.0e4, 2.0e5),
            3 => *q = p_swap(k, n),
            5 => *q = Vec3::ZERO,
            _ => {}
        }
    }
    w.write_positions(0, &p).unwrap();
    (w, cloth)
}

/// A deterministic scramble: particle k goes where particle n−1−k was (mirrored).
fn p_swap(k: usize, n: usize) -> Vec3 {
    let j = n - 1 - k;
    Vec3::new((j % 9) as f32 / 8.0, 0.0, (j / 9) as f32 / 8.0)
}

/// Produced −inf then NaN on the first step, every call returning OK. Now every
/// particle stays finite, whatever each step reports.
#[test]
fn tangled_strain_cloth_with_isometric_bending_stays_finite() {
    for threads in [1, 2] {
        let (mut w, _) = tangled_cloth(threads);
        for step in 0..120 {
            if let Err(e) = w.step(1.0 / 60.0) {
                assert_eq!(e.kind, ErrorKind::NonFinite, "step {step}: {e}");
                assert!(e.message.contains("body"), "{e}");
            }
            assert!(all_finite(&w), "step {step}");
        }
    }
}

// ---------------------------------------------------------------------------------
// Momentum of free bodies.

/// Linear momentum P = Σ m v (kg·m/s), angular momentum L = Σ m (x − c) × v about the
/// centre of mass c, and the scale Σ m |x − c| |v| that |L| is compared with.
fn momenta(w: &World) -> (Vec3, Vec3, f32) {
    let (p, v) = (positions(w), velocities(w));
    let m: Vec<f32> = (0..p.len())
        .map(|i| 1.0 / w.particles().inverse_mass(i))
        .collect();
    let total: f32 = m.iter().sum();
    let c = p.iter().zip(&m).map(|(x, m)| *x * *m).sum::<Vec3>() / total;
    let (mut lin, mut ang, mut scale) = (Vec3::ZERO, Vec3::ZERO, 0.0f32);
    for i in 0..p.len() {
        lin += v[i] * m[i];
        ang += (p[i] - c).cross(v[i]) * m[i];
        scale += m[i] * (p[i] - c).length() * v[i].length();
    }
    (lin, ang, scale)
}

fn squashed_cube_by(desc: WorldDesc, model: sinew::TetModel, factor: f32) -> World {
    let mut w = World::new(WorldDesc {
        gravity: Vec3::ZERO,
        threads: 1,
        ..desc
    })
    .unwrap();
    let (v, tets) = tet_cube(3, 0.5);
    w.add_tet_body(
        &sinew::TetBodyDesc {
            model,
            ..sinew::TetBodyDesc::default()
        },
        &v,
        &tets,
        None,
    )
    .unwrap();
    let squashed: Vec<Vec3> = v
        .iter()
        .map(|p| Vec3::new(p.x, factor * p.y, p.z))
        .collect();
    w.write_positions(0, &squashed).unwrap();
    w
}

fn cube_world(solver: sinew::Solver, substeps: u32, model: sinew::TetModel, factor: f32) -> World {
    squashed_cube_by(
        WorldDesc {
            solver,
            substeps,
            ..WorldDesc::default()
        },
        model,
        factor,
    )
}

/// Every family's gradient is that of a rotation- and translation-invariant C:
/// Σ_k ∇_k C = 0 and Σ_k x_k × ∇_k C = 0, so one projection (Δx_k = w_k ∇_k C Δλ)
/// changes neither P nor L. A wrong gradient would break this; the angular momentum
/// of a Gauss-Seidel sweep comes from elsewhere (next test).
#[test]
fn every_family_gradient_conserves_linear_and_angular_momentum() {
    use sinew::constraints::bending::{Dihedral, Isometric, IsometricRest};
    use sinew::constraints::link::Link;
    use sinew::constraints::nary::Family;
    use sinew::constraints::strain::{tet_coefficients, triangle_coefficients, StrainRest};
    use sinew::constraints::strain::{TetStrain, TriangleStrain};
    use sinew::constraints::volume::TetVolume;
    fn check<F: Family<K>, const K: usize>(x: [Vec3; K], rest: &F::Rest) {
        let r: [Vec3; K] = std::array::from_fn(|k| x[k] - x[0]);
        let (_, g) = F::evaluate(&r, rest).expect("active");
        let scale: f32 = (0..K).map(|k| x[k].length() * g[k].length()).sum();
        let p: Vec3 = g.iter().copied().sum();
        let l: Vec3 = (0..K).map(|k| x[k].cross(g[k])).sum();
        assert!(p.length() <= 1e-5 * scale, "{}: Σ∇C = {p}", F::NAME);
        assert!(l.length() <= 1e-5 * scale, "{}: Σ x × ∇C = {l}", F::NAME);
    }
    let rest4 = [
        Vec3::new(0.1, 0.2, 0.3),
        Vec3::new(1.1, 0.3, 0.2),
        Vec3::new(0.4, 1.2, 0.1),
        Vec3::new(0.3, 0.4, 1.4),
    ];
    let x4 = [
        Vec3::new(0.2, 0.1, 0.3),
        Vec3::new(1.3, 0.5, 0.1),
        Vec3::new(0.2, 0.9, 0.4),
        Vec3::new(0.5, 0.2, 1.1),
    ];
    check::<Link, 2>([x4[0], x4[1]], &0.5);
    check::<TetVolume, 4>(x4, &0.3);
    let coef = tet_coefficients(
        rest4[1] - rest4[0],
        rest4[2] - rest4[0],
        rest4[3] - rest4[0],
    )
    .unwrap();
    for axes in [(0u8, 0u8), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)] {
        check::<TetStrain, 4>(x4, &StrainRest { coef, axes });
    }
    let coef = triangle_coefficients(rest4[1] - rest4[0], rest4[2] - rest4[0]).unwrap();
    for axes in [(0u8, 0u8), (1, 1), (0, 1)] {
        check::<TriangleStrain, 3>([x4[0], x4[1], x4[2]], &StrainRest { coef, axes });
    }
    check::<Dihedral, 4>(x4, &0.1);
    let flat = [
        Vec3::ZERO,
        Vec3::new(1.0, 0.1, 0.0),
        Vec3::new(0.3, 0.9, 0.0),
        Vec3::new(0.7, -0.8, 0.0),
    ];
    check::<Isometric, 4>(x4, &IsometricRest::new(&flat).unwrap());
}

/// A tet cube squashed along y and released from rest in zero gravity.
///
/// Linear momentum stays zero (every projection conserves it). Angular momentum does
/// not, with Gauss-Seidel: each projection conserves L about the positions it sees,
/// but a sweep applies them one after another, so the sweep adds
/// −Σ_{j<k} m Δx_j × Δx_k / h, second order in the corrections. With rigid
/// constraints the corrections are the whole squash, whatever the substep, so
/// |L| / Σ m|r||v| grows linearly with the squash (a wrong gradient would give a
/// ratio independent of it) and does not shrink with more substeps. Jacobi applies
/// every correction from the same positions: no such term in the first substep.
/// Measured (first step, 8 substeps): edges+volume 0.018, 0.052, 0.167, 0.407 and
/// strain 0.094, 0.264, 0.628, 0.817 for squashes of 1%, 3%, 10%, 30%; Jacobi
/// 0.009 (edges) and 0.002 (strain) at 30%.
#[test]
fn free_tet_cube_conserves_linear_momentum_and_bounds_angular_momentum() {
    use sinew::{Solver, TetModel};
    for model in [TetModel::EdgesAndVolume, TetModel::Strain] {
        for solver in [Solver::GaussSeidel, Solver::Jacobi] {
            let mut w = cube_world(solver, 8, model, 0.7);
            for step in 0..30 {
                w.step(1.0 / 60.0).unwrap();
                let (p, _, scale) = momenta(&w);
                // Σ m|v| is at least scale / (largest |r| = 0.5 m).
                assert!(
                    p.length() <= 1e-5 * scale / 0.5 + 1e-7,
                    "{model:?} {solver:?} step {step}: |P| = {} (scale {scale})",
                    p.length()
                );
                assert!(all_finite(&w));
            }
        }
        // Jacobi: the first step gains almost no angular momentum.
        let mut w = cube_world(Solver::Jacobi, 8, model, 0.7);
        w.step(1.0 / 60.0).unwrap();
        let (_, l, scale) = momenta(&w);
        assert!(
            l.length() / scale < 0.02,
            "{model:?} Jacobi: {}",
            l.length() / scale
        );
        // Gauss-Seidel: second order in the squash, so bounded by a constant times it.
        let ratio = |factor: f32| {
            let mut w = cube_world(Solver::GaussSeidel, 8, model, factor);
            w.step(1.0 / 60.0).unwrap();
            let (_, l, scale) = momenta(&w);
            l.length() / scale
        };
        let (r1, r3) = (ratio(0.99), ratio(0.97));
        assert!(r1 < 0.12, "{model:?}: 1% squash gives {r1}");
        assert!(
            (2.0..=4.0).contains(&(r3 / r1)),
            "{model:?}: L/S must scale with the squash: {r1} at 1%, {r3} at 3%"
        );
    }
}

// ---------------------------------------------------------------------------------
// The same through the C ABI.

mod c_abi {
    use std::ffi::{c_void, CStr};

    use sinew::ffi::bodies::{
        sinew_cloth_desc_default, sinew_cloth_grid_desc_default, sinew_world_add_cloth_grid,
        SinewBendingModel, SinewBody, SinewClothModel,
    };
    use sinew::ffi::constraints::sinew_world_add_distance_constraints;
    use sinew::ffi::particles::{
        sinew_world_particle_count, sinew_world_read_positions, sinew_world_read_velocities,
        sinew_world_write_positions,
    };
    use sinew::ffi::world::{
        sinew_world_create, sinew_world_desc_default, sinew_world_destroy, sinew_world_step,
        SinewWorld,
    };
    use sinew::ffi::{sinew_last_error_message, SinewStatus};

    fn message() -> String {
        // SAFETY: the library returns a valid NUL-terminated string.
        unsafe { CStr::from_ptr(sinew_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    fn read(world: SinewWorld, n: u32, velocities: bool) -> Vec<[f32; 3]> {
        let mut out = vec![[0f32; 3]; n as usize];
        let ptr = out.as_mut_ptr() as *mut c_void;
        // SAFETY: out holds n packed SinewVec3.
        let s = unsafe {
            if velocities {
                sinew_world_read_velocities(world, 0, n, ptr, 12)
            } else {
                sinew_world_read_positions(world, 0, n, ptr, 12)
            }
        };
        assert_eq!(s, SinewStatus::SINEW_OK);
        out
    }

    /// The fuzzer's scene through the C ABI: every step returns SINEW_OK or
    /// SINEW_ERROR_NON_FINITE (naming a body), and every particle read back is finite.
    /// A rest length of 3e38 is refused with SINEW_ERROR_INVALID_ARGUMENT and a message.
    #[test]
    fn tangled_cloth_and_huge_rest_length_through_the_c_abi() {
        let mut world = SinewWorld { id: 0 };
        let desc = sinew_world_desc_default();
        // SAFETY: valid pointers to locals.
        assert_eq!(
            unsafe { sinew_world_create(&desc, &mut world) },
            SinewStatus::SINEW_OK
        );
        let mut cloth = sinew_cloth_desc_default();
        cloth.model = SinewClothModel::SINEW_CLOTH_STRAIN as u32;
        cloth.bending = SinewBendingModel::SINEW_BENDING_ISOMETRIC as u32;
        cloth.stretch_compliance = 0.0;
        cloth.weft_compliance = 0.0;
        cloth.shear_compliance = 0.0;
        cloth.bend_compliance = 0.0;
        let mut grid = sinew_cloth_grid_desc_default();
        grid.pin_corners = 15;
        let mut body = SinewBody { id: 0 };
        // SAFETY: valid pointers to locals.
        let s = unsafe { sinew_world_add_cloth_grid(world, &cloth, &grid, &mut body) };
        assert_eq!(s, SinewStatus::SINEW_OK, "{}", message());
        let mut n = 0u32;
        // SAFETY: valid pointer to a local.
        unsafe { sinew_world_particle_count(world, &mut n) };
        let mut p = read(world, n, false);
        for (k, q) in p.iter_mut().enumerate() {
            if k % 5 == 0 {
                *q = [1.0e5, -2.0e4 * (k % 3) as f32, 3.0e4];
            } else if k % 5 == 2 {
                *q = [0.0; 3];
            }
        }
        // SAFETY: p holds n packed SinewVec3.
        let s = unsafe { sinew_world_write_positions(world, 0, n, p.as_ptr().cast(), 12) };
        assert_eq!(s, SinewStatus::SINEW_OK);
        for _ in 0..60 {
            match sinew_world_step(world, 1.0 / 60.0) {
                SinewStatus::SINEW_OK => {}
                SinewStatus::SINEW_ERROR_NON_FINITE => assert!(message().contains("body")),
                other => panic!("{other:?}: {}", message()),
            }
            for v in read(world, n, false).iter().chain(&read(world, n, true)) {
                assert!(v.iter().all(|c| c.is_finite()), "{v:?}");
            }
        }
        let pair = [0u32, 1];
        let rest = [3.0e38f32];
        let mut first = 77u32;
        // SAFETY: valid pointers to locals.
        let s = unsafe {
            sinew_world_add_distance_constraints(
                world,
                pair.as_ptr(),
                rest.as_ptr(),
                1,
                0.0,
                &mut first,
            )
        };
        assert_eq!(s, SinewStatus::SINEW_ERROR_INVALID_ARGUMENT);
        assert_eq!(first, 77, "output written on failure");
        assert!(message().contains("rest length"), "{}", message());
        assert_eq!(sinew_world_destroy(world), SinewStatus::SINEW_OK);
    }
}
