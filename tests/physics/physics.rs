//! Physics integration tests: every test compares the engine against a closed form
//! (or a property with an exact answer) with a tolerance tight enough to catch a wrong
//! formula. Worked numbers of Sakai, "XPBD and small-step XPBD in Unity" (2022) are
//! reproduced exactly.
//!
//! Run with `cargo test --test physics physics:: -- --nocapture` to see the measured values.

use sinew::{Solver, Vec3, World, WorldDesc};

const G: f64 = 9.81;

// ---------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------

/// A single-threaded world without gravity or damping.
fn desc(substeps: u32, iterations: u32, solver: Solver) -> WorldDesc {
    WorldDesc {
        gravity: Vec3::ZERO,
        substeps,
        iterations,
        solver,
        jacobi_relaxation: 1.0,
        damping: 0.0,
        threads: 1,
    }
}

fn with_gravity(d: WorldDesc) -> WorldDesc {
    WorldDesc {
        gravity: Vec3::new(0.0, -G as f32, 0.0),
        ..d
    }
}

fn pos(w: &World, i: u32) -> Vec3 {
    w.particles().position(i as usize)
}

fn vel(w: &World, i: u32) -> Vec3 {
    w.particles().velocity(i as usize)
}

fn dist(w: &World, a: u32, b: u32) -> f64 {
    pos(w, a).distance(pos(w, b)) as f64
}

fn force(w: &World, id: u32) -> f64 {
    let mut f = [0.0f32];
    w.read_constraint_forces(id, &mut f).unwrap();
    f[0] as f64
}

fn forces(w: &World) -> Vec<f32> {
    let mut f = vec![0.0f32; w.distance_constraint_count() as usize];
    if !f.is_empty() {
        w.read_constraint_forces(0, &mut f).unwrap();
    }
    f
}

fn rel_err(measured: f64, expected: f64) -> f64 {
    ((measured - expected) / expected).abs()
}

#[track_caller]
fn assert_rel(what: &str, measured: f64, expected: f64, tol: f64) {
    let e = rel_err(measured, expected);
    assert!(
        e <= tol,
        "{what}: measured {measured}, expected {expected}, relative error {e:.3e} > {tol:.1e}"
    );
}

#[track_caller]
fn assert_abs(what: &str, measured: f64, expected: f64, tol: f64) {
    let e = (measured - expected).abs();
    assert!(
        e <= tol,
        "{what}: measured {measured}, expected {expected}, error {e:.3e} > {tol:.1e}"
    );
}

/// Deterministic pseudo-random numbers (xorshift64*), no crates needed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn vec3(&mut self, lo: f64, hi: f64) -> Vec3 {
        Vec3::new(
            self.range(lo, hi) as f32,
            self.range(lo, hi) as f32,
            self.range(lo, hi) as f32,
        )
    }
}

/// The worked scene of Sakai, "XPBD and small-step XPBD in Unity" (2022): particle 0 at the origin, particle 1 at (2, 0, 0), one XPBD
/// distance constraint of rest length 1.
fn worked_example_world(
    w0: f32,
    w1: f32,
    compliance: f32,
    iterations: u32,
    solver: Solver,
) -> World {
    let mut w = World::new(desc(1, iterations, solver)).unwrap();
    w.add_particles(&[Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)], Some(&[w0, w1]))
        .unwrap();
    w.add_distance_constraints(&[[0, 1]], Some(&[1.0]), compliance)
        .unwrap();
    w
}

const EXAMPLE_DT: f32 = 0.02;
const EXAMPLE_COMPLIANCE: f32 = 1.0e-4;

// ---------------------------------------------------------------------------------------
// 1. Worked XPBD example of Sakai, "XPBD and small-step XPBD in Unity" (2022)
// ---------------------------------------------------------------------------------------

/// Sakai, "XPBD and small-step XPBD in Unity" (2022): d = 2, L = 1, α = 1e-4 m/N, h = 0.02 s → α̃ = α/h² = 0.25; w_a = 0 (pinned),
/// w_b = 1. Iteration 1: Δλ = −C/(w_a + w_b + α̃) = −1/1.25 = −0.8, the free end moves
/// 0.8 → distance 1.2. Iteration 2: C = 0.2, Δλ = (−0.2 − 0.25·(−0.8))/1.25 = 0.
/// Force readback |λ|/h² = 0.8/0.0004 = 2000 N. (The article's code line writes
/// 0.0004f / (0.02f * 0.02f) but states 0.25 = 0.0001 / 0.0004: α = 1e-4 is the value
/// its numbers use.)
#[test]
fn xpbd_sakai_worked_example_reaches_1_2() {
    let mut w = worked_example_world(0.0, 1.0, EXAMPLE_COMPLIANCE, 2, Solver::GaussSeidel);
    w.step(EXAMPLE_DT).unwrap();
    let d = dist(&w, 0, 1);
    let f = force(&w, 0);
    println!("worked example 2 iterations: distance {d} (1.2), force {f} N (2000)");
    assert_abs("distance after one step", d, 1.2, 1e-5);
    assert_eq!(pos(&w, 0), Vec3::ZERO, "the pinned end moved");
    assert_rel("force |λ|/h²", f, 0.8 / (0.02 * 0.02), 1e-3);
    // λ after two iterations equals λ after one (0.8): the second Δλ was 0.
    let mut one = worked_example_world(0.0, 1.0, EXAMPLE_COMPLIANCE, 1, Solver::GaussSeidel);
    one.step(EXAMPLE_DT).unwrap();
    let f1 = force(&one, 0);
    println!(
        "  force after 1 iteration {f1} N: second Δλ/h² = {} N",
        f - f1
    );
    // 0.01 N ↔ |Δλ₂| < 4e-6 (vs Δλ₁ = 0.8)
    assert_abs("second Δλ/h²", f - f1, 0.0, 0.01);
}

/// Same scene, one iteration: Δλ = −0.8 already solves C + α̃λ = 0 for a single
/// constraint, so distance 1.2 and force 2000 N again.
#[test]
fn xpbd_sakai_one_iteration_also_reaches_1_2() {
    let mut w = worked_example_world(0.0, 1.0, EXAMPLE_COMPLIANCE, 1, Solver::GaussSeidel);
    w.step(EXAMPLE_DT).unwrap();
    let d = dist(&w, 0, 1);
    let f = force(&w, 0);
    println!("worked example 1 iteration: distance {d} (1.2), force {f} N (2000)");
    assert_abs("distance after one step", d, 1.2, 1e-5);
    assert_rel("force |λ|/h²", f, 2000.0, 1e-3);
}

/// Equal masses (w_a = w_b = 1): Δλ = −1/(2 + 0.25) = −1/2.25; each end moves
/// 1/2.25 = 0.4444 towards the other → distance 2 − 2/2.25 = 1.1111; force
/// (1/2.25)/h² = 1111.1 N. More iterations change nothing (the second Δλ is 0).
#[test]
fn xpbd_sakai_equal_masses_each_move_one_over_2_25() {
    for iterations in [1, 2, 5] {
        let mut w = worked_example_world(
            1.0,
            1.0,
            EXAMPLE_COMPLIANCE,
            iterations,
            Solver::GaussSeidel,
        );
        w.step(EXAMPLE_DT).unwrap();
        let (a, b) = (pos(&w, 0), pos(&w, 1));
        let moved = 1.0 / 2.25;
        let f = force(&w, 0);
        println!(
            "worked example equal masses, {iterations} it: a.x {} ({moved}), b.x {} ({}), force {f} ({})",
            a.x,
            b.x,
            2.0 - moved,
            moved / 0.0004
        );
        assert_abs("end a", a.x as f64, moved, 1e-5);
        assert_abs("end b", b.x as f64, 2.0 - moved, 1e-5);
        assert_abs("distance", dist(&w, 0, 1), 2.0 - 2.0 / 2.25, 1e-5);
        assert_rel("force", f, moved / (0.02 * 0.02), 1e-3);
    }
}

// ---------------------------------------------------------------------------------------
// 2. Mass split of Sakai, "XPBD and small-step XPBD in Unity" (2022)
// ---------------------------------------------------------------------------------------

/// Sakai, "XPBD and small-step XPBD in Unity" (2022): masses 1 and 2 (w = 1 and 0.5), C = 1, rigid: Δx_a = w_a/(w_a + w_b)·C =
/// 2/3, Δx_b = w_b/(w_a + w_b)·C = 1/3, for an XPBD link with α = 0 and for a PBD link
/// with k = 1.
#[test]
fn sakai_mass_split_moves_two_thirds_and_one_third() {
    for pbd in [false, true] {
        let mut w = World::new(desc(1, 1, Solver::GaussSeidel)).unwrap();
        w.add_particles(&[Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)], Some(&[1.0, 0.5]))
            .unwrap();
        if pbd {
            w.add_pbd_distance_constraints(&[[0, 1]], Some(&[1.0]), 1.0)
                .unwrap();
        } else {
            w.add_distance_constraints(&[[0, 1]], Some(&[1.0]), 0.0)
                .unwrap();
        }
        w.step(EXAMPLE_DT).unwrap();
        let (a, b) = (pos(&w, 0).x as f64, pos(&w, 1).x as f64);
        println!(
            "mass split (pbd {pbd}): a moved {a} (2/3), b moved {} (1/3)",
            2.0 - b
        );
        assert_abs("light end moved", a, 2.0 / 3.0, 1e-5);
        assert_abs("heavy end moved", 2.0 - b, 1.0 / 3.0, 1e-5);
        assert_abs("distance", b - a, 1.0, 1e-5);
    }
}

// ---------------------------------------------------------------------------------------
// 3. PBD stiffness is per substep, not per iteration
// ---------------------------------------------------------------------------------------

/// PBD with stiffness k and n iterations uses k' = 1 − (1 − k)^(1/n) per iteration, so
/// one substep leaves (1 − k'))ⁿ = 1 − k of the error whatever n is. A pinned end makes
/// each iteration remove exactly k' of the current error: C₁ = (1 − k)·C₀.
#[test]
fn pbd_stiffness_leaves_one_minus_k_of_the_error_for_any_iteration_count() {
    for k in [0.5f32, 0.3] {
        for n in [1u32, 2, 5, 20] {
            let mut w = World::new(desc(1, n, Solver::GaussSeidel)).unwrap();
            w.add_particles(&[Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0)], Some(&[0.0, 1.0]))
                .unwrap();
            w.add_pbd_distance_constraints(&[[0, 1]], Some(&[1.0]), k)
                .unwrap();
            w.step(EXAMPLE_DT).unwrap();
            let error = dist(&w, 0, 1) - 1.0;
            let expected = 1.0 - k as f64;
            println!("pbd k {k}, {n} iterations: remaining error {error} ({expected})");
            assert_rel("remaining error", error, expected, 1e-4);
        }
    }
}

// ---------------------------------------------------------------------------------------
// 4. XPBD stiffness is independent of iterations and substeps
// ---------------------------------------------------------------------------------------

/// A mass m under a pinned anchor on a link of compliance α (stiffness 1/α): static
/// extension x* = α·m·g and link force m·g. Starting at rest length, the mass oscillates
/// between 0 and 2x* (XPBD's implicit substeps damp it at large h), so the time average
/// of the extension is x* and of the force is m·g. Returns (mean extension, mean force).
fn hanging_mass(mass: f64, compliance: f32, substeps: u32, iterations: u32) -> (f64, f64) {
    let mut w = World::new(with_gravity(desc(
        substeps,
        iterations,
        Solver::GaussSeidel,
    )))
    .unwrap();
    w.add_particles(
        &[Vec3::ZERO, Vec3::new(0.0, -1.0, 0.0)],
        Some(&[0.0, (1.0 / mass) as f32]),
    )
    .unwrap();
    w.add_distance_constraints(&[[0, 1]], Some(&[1.0]), compliance)
        .unwrap();
    let dt = 1.0 / 60.0;
    // 10 s ≈ 50 periods of 2π√(α m) ≈ 0.2 s: the average of the oscillation is within
    // amplitude/(2π·50) of its centre.
    let steps = 600;
    let (mut ext, mut f) = (0.0, 0.0);
    for _ in 0..steps {
        w.step(dt).unwrap();
        ext += dist(&w, 0, 1) - 1.0;
        f += force(&w, 0);
    }
    (ext / steps as f64, f / steps as f64)
}

#[test]
fn xpbd_hanging_mass_extension_is_alpha_m_g_for_any_iterations_and_substeps() {
    let (m, alpha) = (1.0, 1.0e-3f32);
    let expected = alpha as f64 * m * G; // 9.81 mm
    let mut worst = (0.0f64, 0.0f64);
    for iterations in [1, 2, 5, 10, 20] {
        for substeps in [1, 2, 5, 10, 20] {
            let (ext, f) = hanging_mass(m, alpha, substeps, iterations);
            println!(
                "hanging mass {substeps} substeps {iterations} it: extension {ext:.6e} ({expected:.6e}), force {f:.5} ({:.5})",
                m * G
            );
            worst.0 = worst.0.max(rel_err(ext, expected));
            worst.1 = worst.1.max(rel_err(f, m * G));
            assert_rel("mean extension", ext, expected, 0.01);
            assert_rel("mean link force", f, m * G, 0.01);
        }
    }
    println!(
        "worst relative error: extension {:.3e}, force {:.3e}",
        worst.0, worst.1
    );
}

/// Extension is linear in the load: α·m·g for m = 0.5, 1, 4 kg (ratios 0.5 : 1 : 4).
#[test]
fn xpbd_hanging_mass_extension_is_proportional_to_mass() {
    let alpha = 1.0e-3f32;
    let (base, _) = hanging_mass(1.0, alpha, 8, 1);
    for m in [0.5, 4.0] {
        let (ext, f) = hanging_mass(m, alpha, 8, 1);
        println!(
            "mass {m}: extension ratio {} ({m}), force {f} ({})",
            ext / base,
            m * G
        );
        assert_rel("extension ratio", ext / base, m, 0.01);
        assert_rel("extension", ext, alpha as f64 * m * G, 0.01);
        assert_rel("force", f, m * G, 0.01);
    }
}

// ---------------------------------------------------------------------------------------
// 5. Rigid pendulum period
// ---------------------------------------------------------------------------------------

/// Small-angle pendulum: T = 2π√(L/g) (the 5° amplitude adds θ₀²/16 ≈ 0.05 %).
/// Measured from the zero crossings of x over ~5 periods at 20 substeps.
#[test]
fn rigid_pendulum_small_angle_period_is_2pi_sqrt_l_over_g() {
    let l = 1.0f64;
    let theta = 5.0f64.to_radians();
    let mut w = World::new(with_gravity(desc(20, 1, Solver::GaussSeidel))).unwrap();
    w.add_particles(
        &[
            Vec3::ZERO,
            Vec3::new((l * theta.sin()) as f32, -(l * theta.cos()) as f32, 0.0),
        ],
        Some(&[0.0, 1.0]),
    )
    .unwrap();
    w.add_distance_constraints(&[[0, 1]], Some(&[l as f32]), 0.0)
        .unwrap();
    let dt = 1.0 / 60.0f64;
    let mut crossings = Vec::new();
    let mut prev = pos(&w, 1).x as f64;
    for s in 1..=660 {
        w.step(dt as f32).unwrap();
        let x = pos(&w, 1).x as f64;
        if prev != 0.0 && (prev < 0.0) != (x < 0.0) {
            // linear interpolation inside the step
            let t = (s - 1) as f64 * dt + dt * prev / (prev - x);
            crossings.push(t);
        }
        prev = x;
    }
    assert!(
        crossings.len() >= 10,
        "only {} zero crossings",
        crossings.len()
    );
    let half_periods = (crossings.len() - 1) as f64;
    let period = 2.0 * (crossings[crossings.len() - 1] - crossings[0]) / half_periods;
    let expected = 2.0 * std::f64::consts::PI * (l / G).sqrt();
    println!(
        "pendulum: {} crossings, period {period:.5} s ({expected:.5} s), final length {}",
        crossings.len(),
        dist(&w, 0, 1)
    );
    assert_rel("period", period, expected, 0.01);
    assert_abs("rigid link length", dist(&w, 0, 1), l, 1e-3);
}

// ---------------------------------------------------------------------------------------
// 6. Free fall
// ---------------------------------------------------------------------------------------

/// Symplectic Euler with n substeps of h: v_k = k·g·h, so the drop after n substeps is
/// h·Σ v_k = g·h²·n(n+1)/2 and the speed is g·n·h = g·t. Checked for 1, 10, 100
/// substeps per 1/60 s step over 1 s, from y = 1 m and y = 1000 m (where h·v is far
/// below the f32 spacing of the coordinate with 100 substeps).
#[test]
fn free_fall_matches_discrete_closed_form_at_any_height_and_substep_count() {
    for y0 in [1.0f32, 1000.0] {
        for substeps in [1u32, 10, 100] {
            let mut w = World::new(with_gravity(desc(substeps, 1, Solver::GaussSeidel))).unwrap();
            w.add_particles(&[Vec3::new(0.0, y0, 0.0)], None).unwrap();
            let dt = 1.0f32 / 60.0;
            for _ in 0..60 {
                w.step(dt).unwrap();
            }
            let n = 60.0 * substeps as f64;
            let h = (dt / substeps as f32) as f64;
            let drop = y0 as f64 - pos(&w, 0).y as f64;
            let expected_drop = G * h * h * n * (n + 1.0) / 2.0;
            let speed = -vel(&w, 0).y as f64;
            let expected_speed = G * n * h;
            println!(
                "free fall y0 {y0} substeps {substeps}: drop {drop:.6} ({expected_drop:.6}), speed {speed:.6} ({expected_speed:.6})"
            );
            assert_rel("drop", drop, expected_drop, 1e-3);
            assert_rel("speed", speed, expected_speed, 1e-3);
            assert_eq!(pos(&w, 0).x, 0.0);
        }
    }
}

// ---------------------------------------------------------------------------------------
// 7. Momentum conservation
// ---------------------------------------------------------------------------------------

/// Internal constraints move a and b by +w_a·n·Δλ and −w_b·n·Δλ, so Σ Δx/w = 0 and the
/// total momentum Σ v/w is conserved without gravity, for both solvers.
fn momentum_run(solver: Solver, offset: Vec3, substeps: u32) -> (Vec3, Vec3, f64) {
    let mut rng = Rng::new(7);
    let n = 30usize;
    let mut p = offset;
    let mut positions = Vec::with_capacity(n);
    let mut inv = Vec::with_capacity(n);
    for _ in 0..n {
        positions.push(p);
        p += rng.vec3(-0.3, 0.3);
        inv.push((1.0 / rng.range(0.1, 10.0)) as f32);
    }
    // centre the chain on `offset` (position rounding, and so the momentum noise,
    // grows with the coordinates)
    let mean = positions.iter().fold(Vec3::ZERO, |s, &p| s + p) / n as f32;
    for q in &mut positions {
        *q += offset - mean;
    }
    let mut w = World::new(desc(substeps, 3, solver)).unwrap();
    w.add_particles(&positions, Some(&inv)).unwrap();
    // chain links plus a few skip links; rest lengths stretched/compressed ±40 %
    let mut pairs = Vec::new();
    for i in 0..n as u32 - 1 {
        pairs.push([i, i + 1]);
    }
    for i in (0..n as u32 - 2).step_by(3) {
        pairs.push([i, i + 2]);
    }
    for (j, &[a, b]) in pairs.iter().enumerate() {
        let rest =
            positions[a as usize].distance(positions[b as usize]) as f64 * rng.range(0.6, 1.4);
        let compliance = [0.0, 1.0e-5, 1.0e-3][j % 3];
        w.add_distance_constraints(&[[a, b]], Some(&[rest as f32]), compliance)
            .unwrap();
    }
    let velocities: Vec<Vec3> = (0..n).map(|_| rng.vec3(-2.0, 2.0)).collect();
    w.write_velocities(0, &velocities).unwrap();
    let momentum =
        |w: &World| (0..n as u32).fold(Vec3::ZERO, |s, i| s + vel(w, i) / inv[i as usize]);
    let scale: f64 = velocities
        .iter()
        .zip(&inv)
        .map(|(v, &wi)| (v.length() / wi) as f64)
        .sum();
    let p0 = momentum(&w);
    for _ in 0..100 {
        w.step(1.0 / 60.0).unwrap();
    }
    for i in 0..n as u32 {
        assert!(pos(&w, i).is_finite() && vel(&w, i).is_finite());
    }
    (p0, momentum(&w), scale)
}

/// Σ v/w after 100 steps equals Σ v₀/w. The only departure allowed is f32 rounding of
/// the corrections (relative to the in-step displacement, not to the coordinates), so
/// the bound, 1e-4 of Σ m|v₀|, holds at the origin and 1 km away alike. Regression: when
/// positions were stored whole, rounding entered the velocity as ~ulp(x)/h per
/// correction, ×200 at (100, 100, 100) m. A correction that is not split as w_a : w_b
/// (e.g. Jacobi averaging each end by its own constraint count) drifts by percents.
#[test]
fn internal_constraints_conserve_linear_momentum_gauss_seidel_and_jacobi() {
    for offset in [
        Vec3::ZERO,
        Vec3::splat(100.0),
        Vec3::new(1000.0, -1000.0, 500.0),
    ] {
        for solver in [Solver::GaussSeidel, Solver::Jacobi] {
            for substeps in [1, 4, 16] {
                let (p0, p1, scale) = momentum_run(solver, offset, substeps);
                let drift = (p1 - p0).length() as f64;
                println!(
                    "{solver:?} at {offset}, {substeps} substeps: momentum {p0} -> {p1}, drift {drift:.3e} kg·m/s, Σ m|v| {scale:.3}, relative {:.3e}",
                    drift / scale
                );
                assert!(
                    drift <= 1e-4 * scale,
                    "{solver:?} at {offset}, {substeps} substeps: momentum {p0} -> {p1} drifted by {drift} (Σ m|v| = {scale})"
                );
            }
        }
    }
}

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
