//! Physics integration tests: every test compares the engine against a closed form
//! (or a property with an exact answer) with a tolerance tight enough to catch a wrong
//! formula. Worked numbers of Sakai, "XPBD and small-step XPBD in Unity" (2022) are
//! reproduced exactly.
//!
//! Run with `cargo test --test physics physics:: -- --nocapture` to see the measured values.
//! The solver comparisons (Jacobi against Gauss-Seidel, far from the origin, thread
//! counts, degenerate input, damping) are in `solver_checks.rs`, over the helpers here.

use sinew::{Solver, Vec3, World, WorldDesc};

const G: f64 = 9.81;

// ---------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------

/// A single-threaded world without gravity or damping.
pub(crate) fn desc(substeps: u32, iterations: u32, solver: Solver) -> WorldDesc {
    WorldDesc {
        gravity: Vec3::ZERO,
        substeps,
        iterations,
        solver,
        jacobi_relaxation: 1.0,
        damping: 0.0,
        threads: 1,
        ..WorldDesc::default()
    }
}

pub(crate) fn with_gravity(d: WorldDesc) -> WorldDesc {
    WorldDesc {
        gravity: Vec3::new(0.0, -G as f32, 0.0),
        ..d
    }
}

pub(crate) fn pos(w: &World, i: u32) -> Vec3 {
    w.particles().position(i as usize)
}

pub(crate) fn vel(w: &World, i: u32) -> Vec3 {
    w.particles().velocity(i as usize)
}

pub(crate) fn dist(w: &World, a: u32, b: u32) -> f64 {
    pos(w, a).distance(pos(w, b)) as f64
}

pub(crate) fn force(w: &World, id: u32) -> f64 {
    let mut f = [0.0f32];
    w.read_constraint_forces(id, &mut f).unwrap();
    f[0] as f64
}

pub(crate) fn forces(w: &World) -> Vec<f32> {
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
pub(crate) fn assert_rel(what: &str, measured: f64, expected: f64, tol: f64) {
    let e = rel_err(measured, expected);
    assert!(
        e <= tol,
        "{what}: measured {measured}, expected {expected}, relative error {e:.3e} > {tol:.1e}"
    );
}

#[track_caller]
pub(crate) fn assert_abs(what: &str, measured: f64, expected: f64, tol: f64) {
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
pub(crate) fn worked_example_world(
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

pub(crate) const EXAMPLE_DT: f32 = 0.02;
pub(crate) const EXAMPLE_COMPLIANCE: f32 = 1.0e-4;

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
