//! Solver checks against closed forms and exact properties: a rope far from the origin
//! moves as at the origin, Jacobi converges towards Gauss-Seidel (a swinging chain,
//! Sakai's worked example, links sharing a pinned anchor), a cloth is bit-identical
//! across thread counts and runs, degenerate constraints never produce NaN, damping
//! decays speed as exp(−c t). The helpers are those of `physics.rs`.
//!
//! Run with `cargo test --test physics solver_checks:: -- --nocapture` to see the
//! measured values.

use sinew::{Solver, Vec3, World, WorldDesc};

use crate::physics::{
    assert_abs, assert_rel, desc, dist, force, forces, pos, vel, with_gravity,
    worked_example_world, EXAMPLE_COMPLIANCE, EXAMPLE_DT,
};

/// Regression (the float trouble of Sakai, "XPBD and small-step XPBD in Unity" (2022) beyond free fall): a rigid 20-link rope (5 cm
/// links, 50 g particles, damping 1/s) swinging for 5 s with 100 substeps moves the same
/// at the origin and 1 km away. Positions stored whole quantised every substep's motion
/// to the f32 spacing (6e-5 m at 1 km): the rope ended 0.57 m off and its top link read
/// 262 N instead of ~9.8 N.
#[test]
fn rope_far_from_origin_moves_as_at_origin() {
    let run = |offset: Vec3| {
        let mut d = with_gravity(desc(100, 1, Solver::GaussSeidel));
        d.damping = 1.0;
        let mut w = World::new(d).unwrap();
        let p: Vec<Vec3> = (0..21)
            .map(|i| offset + Vec3::new(0.05 * i as f32, 0.0, 0.0))
            .collect();
        let inv: Vec<f32> = (0..21).map(|i| if i == 0 { 0.0 } else { 20.0 }).collect();
        w.add_particles(&p, Some(&inv)).unwrap();
        let pairs: Vec<[u32; 2]> = (0..20).map(|i| [i, i + 1]).collect();
        w.add_distance_constraints(&pairs, None, 0.0).unwrap();
        for _ in 0..300 {
            w.step(1.0 / 60.0).unwrap();
        }
        (pos(&w, 20) - offset, vel(&w, 20), force(&w, 0))
    };
    let (end0, v0, f0) = run(Vec3::ZERO);
    for offset in [Vec3::splat(100.0), Vec3::new(1000.0, 1000.0, -1000.0)] {
        let (end, v, f) = run(offset);
        println!("offset {offset}: end {end} (origin {end0}), v {v} ({v0}), top force {f:.4} N ({f0:.4})");
        assert!(
            end.distance(end0) < 1e-3,
            "offset {offset}: rope end {end} vs {end0} at the origin"
        );
        assert!(
            v.distance(v0) < 1e-2,
            "offset {offset}: end velocity {v} vs {v0}"
        );
        assert_rel(&format!("top force at {offset}"), f, f0, 1e-2);
    }
}

// ---------------------------------------------------------------------------------------
// 8. Jacobi convergence
// ---------------------------------------------------------------------------------------

/// A 20-link rigid chain (links 0.05 m, 1 kg particles) pinned at the top, released
/// straight at 30° from the vertical under gravity, 8 substeps of 1/480 s for 3 s;
/// returns (max relative stretch |d − L|/L over the run, mean relative stretch over the
/// last second), checking every position is finite.
fn swinging_chain(iterations: u32, solver: Solver) -> (f64, f64) {
    let (sn, cs) = 30.0f32.to_radians().sin_cos();
    let links = 20u32;
    let seg = 0.05f32;
    let mut w = World::new(with_gravity(desc(8, iterations, solver))).unwrap();
    let positions: Vec<Vec3> = (0..=links)
        .map(|i| Vec3::new(i as f32 * seg * sn, -(i as f32) * seg * cs, 0.0))
        .collect();
    let mut inv = vec![1.0f32; positions.len()];
    inv[0] = 0.0;
    w.add_particles(&positions, Some(&inv)).unwrap();
    let pairs: Vec<[u32; 2]> = (0..links).map(|i| [i, i + 1]).collect();
    w.add_distance_constraints(&pairs, None, 0.0).unwrap();
    let steps = 180; // 3 s
    let (mut max_stretch, mut late) = (0.0f64, 0.0f64);
    for s in 0..steps {
        w.step(1.0 / 60.0).unwrap();
        let mut sum = 0.0;
        for i in 0..links {
            assert!(
                pos(&w, i + 1).is_finite(),
                "{solver:?} {iterations} it: particle {} not finite",
                i + 1
            );
            let stretch = (dist(&w, i, i + 1) - seg as f64).abs() / seg as f64;
            max_stretch = max_stretch.max(stretch);
            sum += stretch;
        }
        if s >= steps - 60 {
            late += sum / links as f64 / 60.0;
        }
    }
    (max_stretch, late)
}

/// Rigid links: the converged answer has zero stretch; what is left is the part of each
/// substep's gravity sag that n iterations do not remove. On a chain that residual falls
/// like 1/n (measured: n × late mean stretch = 0.0374 … 0.0366 for n = 1 … 10, and
/// n × max stretch = 0.094 … 0.112), so the bounds are
/// * every position finite and max stretch < 0.125/n (12.5 % at n = 1, < 5 % from
///   n = 3 on, 1.25 % at n = 10),
/// * the late stretch strictly decreasing in n, odd and even alike (Sakai, "XPBD and small-step XPBD in Unity" (2022) reports its
///   Jacobi going unstable with odd counts), and n × late ≤ 1.1 × (late at n = 1),
/// * 10 iterations below 0.15 × the error of 1 iteration,
/// * Jacobi no worse than 4 × Gauss-Seidel with the same n (measured 2.3 … 2.7 ×
///   on the max, ~4 × on the late mean: a chain particle takes half of each correction).
#[test]
fn jacobi_chain_converges_for_one_to_ten_iterations() {
    let mut late = Vec::new();
    for n in 1..=10u32 {
        let (max_stretch, late_n) = swinging_chain(n, Solver::Jacobi);
        let (gs_max, gs_late) = swinging_chain(n, Solver::GaussSeidel);
        println!(
            "chain {n} it: jacobi max {max_stretch:.3e} late {late_n:.3e} | gauss-seidel max {gs_max:.3e} late {gs_late:.3e}"
        );
        assert!(
            max_stretch < 0.125 / n as f64,
            "Jacobi {n} it: max stretch {max_stretch} ≥ {}",
            0.125 / n as f64
        );
        assert!(
            max_stretch < 4.0 * gs_max && late_n < 4.5 * gs_late,
            "Jacobi {n} it: stretch {max_stretch} / {late_n} vs Gauss-Seidel {gs_max} / {gs_late}"
        );
        if let Some(&prev) = late.last() {
            assert!(
                late_n < prev,
                "Jacobi {n} it: late stretch {late_n} ≥ {prev} at {} it",
                n - 1
            );
        }
        late.push(late_n);
        assert!(
            n as f64 * late_n <= 1.1 * late[0],
            "Jacobi {n} it: late stretch {late_n} is not ~1/n of {}",
            late[0]
        );
    }
    assert!(
        late[9] < 0.15 * late[0],
        "10 iterations ({}) not clearly below 1 iteration ({})",
        late[9],
        late[0]
    );
}

/// For the worked scene of Sakai, "XPBD and small-step XPBD in Unity" (2022) (one constraint) a Jacobi iteration is a Gauss-Seidel
/// iteration: distance 1.2 and 2000 N, with 1 and 2 iterations.
#[test]
fn jacobi_sakai_example_matches_gauss_seidel() {
    for iterations in [1, 2] {
        let mut w = worked_example_world(0.0, 1.0, EXAMPLE_COMPLIANCE, iterations, Solver::Jacobi);
        w.step(EXAMPLE_DT).unwrap();
        let d = dist(&w, 0, 1);
        let f = force(&w, 0);
        println!("jacobi worked example {iterations} it: distance {d} (1.2), force {f} (2000)");
        assert_abs("distance", d, 1.2, 1e-5);
        assert_rel("force", f, 2000.0, 1e-3);
    }
}

/// The worked example of Sakai, "XPBD and small-step XPBD in Unity" (2022) extended to two links (pinned, free, free; each link 2 m, rest 1 m,
/// α = 1e-4, h = 0.02): one XPBD step solves the linear system
/// x − x̃ = W∇Cᵀλ, C + α̃λ = 0. Gauss-Seidel with 50 iterations converges to it; Jacobi
/// must converge towards the same answer as its iteration count grows.
#[test]
fn jacobi_sakai_two_links_converges_towards_gauss_seidel() {
    let run = |solver, iterations| {
        let mut w = World::new(desc(1, iterations, solver)).unwrap();
        w.add_particles(
            &[
                Vec3::ZERO,
                Vec3::new(2.0, 0.0, 0.0),
                Vec3::new(4.0, 0.0, 0.0),
            ],
            Some(&[0.0, 1.0, 1.0]),
        )
        .unwrap();
        w.add_distance_constraints(&[[0, 1], [1, 2]], Some(&[1.0, 1.0]), EXAMPLE_COMPLIANCE)
            .unwrap();
        w.step(EXAMPLE_DT).unwrap();
        (
            pos(&w, 1).x as f64,
            pos(&w, 2).x as f64,
            force(&w, 0),
            force(&w, 1),
        )
    };
    // Closed form (1D): unknowns λ1, λ2 (signed); x1 = 2 − λ1 + λ2, x2 = 4 − λ2 with
    // C1 = x1 − 1, C2 = x2 − x1 − 1, and C_j = α̃ λ_j (λ_j ≥ 0 as pull) →
    // (1 + α̃) λ1 − λ2 = 1, −λ1 + (2 + α̃) λ2 = 1.
    let at = 0.25f64;
    let det = (1.0 + at) * (2.0 + at) - 1.0;
    let l1 = ((2.0 + at) + 1.0) / det;
    let l2 = ((1.0 + at) + 1.0) / det;
    let (x1, x2) = (2.0 - l1 + l2, 4.0 - l2);
    let gs = run(Solver::GaussSeidel, 50);
    println!(
        "closed form: x1 {x1:.6} x2 {x2:.6} f1 {:.3} f2 {:.3}",
        l1 / 4e-4,
        l2 / 4e-4
    );
    println!("gauss-seidel 50 it: {gs:?}");
    assert_abs("GS x1", gs.0, x1, 1e-4);
    assert_abs("GS x2", gs.1, x2, 1e-4);
    assert_rel("GS force 1", gs.2, l1 / 4e-4, 1e-3);
    assert_rel("GS force 2", gs.3, l2 / 4e-4, 1e-3);
    // measured position errors: 1.0, 0.82, 0.42, 1.4e-2, 2.9e-7 for 1, 2, 5, 20, 100
    let mut last_err = f64::INFINITY;
    for iterations in [1, 2, 5, 20, 100] {
        let j = run(Solver::Jacobi, iterations);
        let err = (j.0 - x1).abs().max((j.1 - x2).abs());
        println!("jacobi {iterations} it: {j:?}, position error {err:.3e}");
        assert!(
            err < last_err,
            "Jacobi {iterations} it: error {err} did not fall below {last_err}"
        );
        last_err = err;
    }
    let j = run(Solver::Jacobi, 100);
    assert!(
        last_err < 1e-4,
        "Jacobi 100 iterations: position error {last_err}"
    );
    // λ accumulates only the Δλ that moved the particles, so the forces converge too
    assert_rel("Jacobi force 1", j.2, l1 / 4e-4, 1e-3);
    assert_rel("Jacobi force 2", j.3, l2 / 4e-4, 1e-3);
}

/// N masses each hanging on its own rigid link from one shared pinned anchor. The
/// anchor never moves, so every free particle has exactly one constraint that can move
/// it and one projection solves it exactly: the stretch must stay at float level
/// (Gauss-Seidel: 1.2e-7) whatever N is. Returns the relative stretch of strand 1
/// after 3 s (8 substeps, `iterations` iterations).
/// With `pin_late`, the anchor starts free and is pinned by `set_inverse_masses` after
/// the constraints exist (the Jacobi weights must follow).
fn star_stretch(solver: Solver, strands: u32, iterations: u32, pin_late: bool) -> f64 {
    let mut w = World::new(with_gravity(desc(8, iterations, solver))).unwrap();
    let mut p = vec![Vec3::ZERO];
    let mut inv = vec![if pin_late { 1.0 } else { 0.0 }];
    for k in 0..strands {
        let a = k as f32 * 0.3;
        p.push(Vec3::new(0.1 * a.cos(), -1.0, 0.1 * a.sin()));
        inv.push(1.0);
    }
    w.add_particles(&p, Some(&inv)).unwrap();
    let pairs: Vec<[u32; 2]> = (1..=strands).map(|k| [0, k]).collect();
    w.add_distance_constraints(&pairs, None, 0.0).unwrap();
    if pin_late {
        w.set_inverse_masses(0, &[0.0]).unwrap();
    }
    let l0 = p[1].length() as f64;
    for _ in 0..180 {
        w.step(1.0 / 60.0).unwrap();
    }
    (pos(&w, 1).length() as f64 - l0).abs() / l0
}

/// Regression: Jacobi's averaging weight 1/max(n_a, n_b) used to count the constraints
/// of a pinned end too, so links sharing a pinned anchor were each under-relaxed by 1/N
/// although nothing else moves their free ends (stretch with 1 iteration 4.2e-5 for
/// N = 2, 3.8e-4 for N = 10, 2.1e-3 for N = 50, vs 1.2e-7 for Gauss-Seidel and N = 1).
/// Also when the anchor is pinned after the constraints were added.
#[test]
fn jacobi_links_sharing_a_pinned_anchor_stay_rigid() {
    for strands in [1, 2, 10, 50] {
        let gs = star_stretch(Solver::GaussSeidel, strands, 1, false);
        let j = star_stretch(Solver::Jacobi, strands, 1, false);
        let j_late = star_stretch(Solver::Jacobi, strands, 1, true);
        assert!(
            j_late < 1e-5,
            "Jacobi {strands} strands, anchor pinned late: stretch {j_late}"
        );
        println!("{strands} strands: jacobi stretch {j:.3e}, gauss-seidel {gs:.3e}");
        assert!(gs < 1e-5, "Gauss-Seidel {strands} strands: stretch {gs}");
        assert!(
            j < 1e-5,
            "Jacobi {strands} strands: stretch {j} (Gauss-Seidel {gs})"
        );
    }
}

// ---------------------------------------------------------------------------------------
// 9. Determinism
// ---------------------------------------------------------------------------------------

/// FNV-1a over the f32 bit patterns of every position and velocity.
fn state_hash(w: &World) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: f32| {
        for b in x.to_bits().to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for i in 0..w.particle_count() as usize {
        let p = w.particles().position(i);
        let v = w.particles().velocity(i);
        for x in [p.x, p.y, p.z, v.x, v.y, v.z] {
            eat(x);
        }
    }
    h
}

/// A 128×128 cloth (16384 particles in 8 blocks, ~97k stretch/shear/bend constraints:
/// every parallel path of the step is taken) with two pinned corners, 2 substeps,
/// stepped `steps` times.
fn cloth_hash(solver: Solver, threads: u32, steps: u32) -> u64 {
    let n = 128u32;
    let sp = 0.01f32;
    let mut w = World::new(WorldDesc {
        threads,
        ..with_gravity(desc(2, 1, solver))
    })
    .unwrap();
    let mut positions = Vec::with_capacity((n * n) as usize);
    let mut inv = Vec::with_capacity((n * n) as usize);
    for r in 0..n {
        for c in 0..n {
            positions.push(Vec3::new(c as f32 * sp, 0.0, r as f32 * sp));
            inv.push(if r == 0 && (c == 0 || c == n - 1) {
                0.0
            } else {
                1.0
            });
        }
    }
    w.add_particles(&positions, Some(&inv)).unwrap();
    let [stretch, shear, bend] = sinew::scenes::cloth_pairs(n, 0);
    w.add_distance_constraints(&stretch, None, 0.0).unwrap();
    w.add_distance_constraints(&shear, None, 1.0e-6).unwrap();
    w.add_distance_constraints(&bend, None, 1.0e-4).unwrap();
    // Gauss-Seidel: 16384 particles make 8 blocks of 2048: the interior phase runs
    // blocks on different threads, the particle passes are split too (16384 items),
    // and the constraints joining blocks run last. (Jacobi needs no colours.)
    let d = w.distance_constraints();
    if solver == Solver::GaussSeidel {
        assert_eq!(d.block_count(), 8);
        assert!(d.shared_count() > 0 && d.shared_count() < d.len() / 10);
    }
    for _ in 0..steps {
        w.step(1.0 / 60.0).unwrap();
    }
    for i in 0..w.particle_count() {
        assert!(pos(&w, i).is_finite(), "cloth particle {i} not finite");
    }
    assert!(forces(&w).iter().all(|f| f.is_finite()));
    state_hash(&w)
}

/// Bit-identical results for 1, 2 and 4 threads and across runs, both solvers: the
/// parallel passes split work into chunks that do not depend on the thread count.
#[test]
fn cloth_is_bit_identical_across_thread_counts_and_runs() {
    let steps = 300;
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let h1 = cloth_hash(solver, 1, steps);
        let h2 = cloth_hash(solver, 2, steps);
        let h4 = cloth_hash(solver, 4, steps);
        let h4b = cloth_hash(solver, 4, steps);
        println!("{solver:?}: threads 1 {h1:016x}, 2 {h2:016x}, 4 {h4:016x}, 4 again {h4b:016x}");
        assert_eq!(h1, h2, "{solver:?}: 1 vs 2 threads differ");
        assert_eq!(h1, h4, "{solver:?}: 1 vs 4 threads differ");
        assert_eq!(h4, h4b, "{solver:?}: two runs with 4 threads differ");
    }
}

// ---------------------------------------------------------------------------------------
// 10. Degenerate input
// ---------------------------------------------------------------------------------------

/// Coincident particles have no constraint direction and pinned-pinned pairs cannot move
/// (w_a + w_b = 0): neither may produce NaN (Δλ = −C/(w_a + w_b + α̃) with a zero
/// denominator or n = d/|d| with |d| = 0), for rigid and compliant links, both solvers.
#[test]
fn degenerate_constraints_never_produce_nan() {
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let mut w = World::new(with_gravity(desc(4, 3, solver))).unwrap();
        let o = Vec3::new(1.0, 2.0, 3.0);
        let q = Vec3::new(5.0, 2.0, 3.0);
        w.add_particles(
            &[
                o,
                o, // 0, 1: coincident, free
                q,
                q, // 2, 3: coincident, one pinned
                Vec3::ZERO,
                Vec3::X, // 4, 5: both pinned, distance 1
                Vec3::Y,
                Vec3::Y, // 6, 7: both pinned, coincident
                Vec3::new(3.0, 0.0, 0.0),
                Vec3::new(3.0, 1.0e-10, 0.0), // 8, 9: nearly coincident, free
            ],
            Some(&[1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]),
        )
        .unwrap();
        for compliance in [0.0, 1.0e-3] {
            w.add_distance_constraints(&[[0, 1], [0, 1]], Some(&[0.0, 1.0]), compliance)
                .unwrap();
            w.add_distance_constraints(&[[2, 3], [3, 2]], Some(&[0.0, 1.0]), compliance)
                .unwrap();
            w.add_distance_constraints(&[[4, 5], [4, 5]], Some(&[0.0, 2.0]), compliance)
                .unwrap();
            w.add_distance_constraints(&[[6, 7], [6, 7]], Some(&[0.0, 1.0]), compliance)
                .unwrap();
            w.add_distance_constraints(&[[8, 9], [8, 9]], Some(&[0.0, 1.0]), compliance)
                .unwrap();
        }
        w.add_pbd_distance_constraints(&[[0, 1], [2, 3], [4, 5], [6, 7]], Some(&[1.0; 4]), 1.0)
            .unwrap();
        for step in 0..100 {
            w.step(1.0 / 60.0).unwrap();
            for i in 0..w.particle_count() {
                assert!(
                    pos(&w, i).is_finite() && vel(&w, i).is_finite(),
                    "{solver:?} step {step}: particle {i} at {} velocity {}",
                    pos(&w, i),
                    vel(&w, i)
                );
            }
            let f = forces(&w);
            assert!(
                f.iter().all(|x| x.is_finite()),
                "{solver:?} step {step}: forces {f:?}"
            );
        }
        // pinned particles never move
        for i in [2, 4, 5, 6, 7] {
            assert!(
                vel(&w, i) == Vec3::ZERO,
                "{solver:?}: pinned particle {i} moves"
            );
        }
        assert_eq!(pos(&w, 4), Vec3::ZERO);
        assert_eq!(pos(&w, 5), Vec3::X);
        println!("{solver:?} degenerate forces: {:?}", forces(&w));
    }
}

// ---------------------------------------------------------------------------------------
// 11. Damping
// ---------------------------------------------------------------------------------------

/// v(t) = v₀·exp(−c·t). The engine multiplies v by f = exp(−c·h) after each substep, so
/// after n substeps the position has advanced h·|v₀|·(1 − fⁿ)/(1 − f)
/// (→ |v₀|(1 − e^(−ct))/c as h → 0).
#[test]
fn damping_decays_speed_as_exp_minus_c_t() {
    let v0 = Vec3::new(3.0, 0.0, -4.0); // |v0| = 5 m/s
    let c = 0.5f64;
    for substeps in [1u32, 8] {
        let mut w = World::new(WorldDesc {
            damping: c as f32,
            ..desc(substeps, 1, Solver::GaussSeidel)
        })
        .unwrap();
        w.add_particles(&[Vec3::ZERO], None).unwrap();
        w.write_velocities(0, &[v0]).unwrap();
        let dt = 1.0f32 / 60.0;
        let steps = 120; // t = 2 s
        for _ in 0..steps {
            w.step(dt).unwrap();
        }
        let t = steps as f64 * dt as f64;
        let speed = vel(&w, 0).length() as f64;
        let expected = 5.0 * (-c * t).exp();
        let h = (dt / substeps as f32) as f64;
        let f = (-c * h).exp();
        let n = (steps * substeps) as f64;
        let expected_x = h * 5.0 * (1.0 - f.powf(n)) / (1.0 - f);
        let travelled = pos(&w, 0).length() as f64;
        println!(
            "damping {substeps} substeps: speed {speed:.6} ({expected:.6}), travelled {travelled:.6} ({expected_x:.6}; continuous {:.6})",
            5.0 * (1.0 - (-c * t).exp()) / c
        );
        assert_rel("speed", speed, expected, 1e-3);
        assert_rel("travelled", travelled, expected_x, 1e-3);
        // direction unchanged
        let dir = vel(&w, 0).normalize();
        assert!((dir - v0.normalize()).length() < 1e-5);
    }
}
