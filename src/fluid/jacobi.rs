//! The under-relaxation of the density solver's Jacobi solves.
//!
//! One Jacobi solve of the density constraints (every λ from the same positions, then
//! every Δx; Macklin & Müller 2013) changes the constraints' values, to first order,
//! by `C ← (I − A D⁻¹) C`, with `A = J Jᵀ` (J the constraints' gradients, unit
//! weights) and D its diagonal, the denominator of λ. On a lattice at rest A is a
//! convolution, and a mode of wave vector q is multiplied by `1 − μ(q)` per solve,
//!
//! ```text
//! μ(q) = |Σ_r ∇W(r) sin(q · r)|² / Σ_r |∇W(r)|²
//! ```
//!
//! (the sums over the lattice's points r ≠ 0 within h; `∇_i C_i` is zero at rest by
//! symmetry). A mode with μ > 2 grows instead of decaying: at h = 2s, the spiky
//! gradient's μ peaks at 2.82 in 3D (q near (π/3, π/3, π/3) / s) and 2.15 in 2D (near
//! (3π/8, 3π/8) / s), so the
//! undamped solve pumped those modes. A still pool 40 rows deep (3D, the world's
//! default 8 substeps × 1 iteration) boiled with them: every row moving at 0.5-2 m/s,
//! particles thrown 19 spacings up, and shallower pools kept a kinetic energy of
//! about 0.004 J/kg instead of coming to rest.
//!
//! In a substep of one solve (the world's default, 8 substeps × 1 iteration at the
//! fluids' 480 Hz, and shorter substeps; `solver::relax_for`) the solver scales every
//! λ by `ω = min(1, TOP_MODE_STEP / μ_max)` ([`relaxation`]): the fastest mode then
//! shrinks by `1 − TOP_MODE_STEP` per solve (halved, with its sign flipped) and every
//! slower mode decays without overshooting; ω = 0.53 in 3D and 0.70 in 2D at h = 2s.
//! The fixed point (the constraints satisfied) is the same; the slow modes converge at
//! ω of their former rate. Substeps of several solves keep ω = 1: a later solve of the
//! substep corrects an earlier one's overshoot before it becomes velocity (measured:
//! they settle undamped), and relaxed they held a pool's weight too softly. Scaling λ
//! rather than Δx leaves the artificial pressure s_corr as it was (it is a push of its
//! own, not a step of the solve) and keeps every pair's momentum balanced (`λ_i + λ_j`
//! on both sides of a pair), whatever the fluids' ω.

use std::f64::consts::PI;

/// The step of the fastest mode of the relaxed solve, `ω μ_max` ([`relaxation`]).
const TOP_MODE_STEP: f64 = 1.5;

/// Wave vectors per axis over [0, π] in [`top_mode_gain`]'s search.
const Q_STEPS: usize = 24;

/// Calls `f(r, g)` for every lattice point r ≠ 0 (units of s) within h (`ratio`, units
/// of s) with the spiky gradient's magnitude factor `g = (h − |r|)² / |r|` (the
/// gradient is g r, up to the kernel's constant, which cancels in μ). Allocates
/// nothing: [`top_mode_gain`] may run in a world's step (`DensitySolver::prepare`),
/// although the calls that change h, s or the world's planarity, or load a snapshot,
/// run it first (`World::reserve_fluid_room`), so that a step does not.
fn each_gradient(ratio: f64, planar: bool, mut f: impl FnMut(&[f64; 3], f64)) {
    let n = ratio.ceil() as i64;
    let zs = if planar { 0..=0 } else { -n..=n };
    for i in -n..=n {
        for j in -n..=n {
            for k in zs.clone() {
                let r = [i as f64, j as f64, k as f64];
                let d = dot(&r, &r).sqrt();
                if d > 0.0 && d < ratio {
                    f(&r, (ratio - d) * (ratio - d) / d);
                }
            }
        }
    }
}

/// μ_max: the largest factor `μ(q)` by which one Jacobi solve corrects a mode of the
/// density constraints on a cubic (square, `planar`) lattice of spacing `s` with
/// smoothing radius `h` (spiky gradient), searched over q on a grid of
/// [`Q_STEPS`] + 1 points per axis of [0, π] (μ is even in every component of q, has
/// period 2π and does not change when the components are permuted) and refined around
/// the best point. Computed once per h / s (`solver::Params`): about 0.2 M sine
/// evaluations at h = 2s in 3D, 2 M at h = 4s.
pub(crate) fn top_mode_gain(h: f32, s: f32, planar: bool) -> f64 {
    #[cfg(test)]
    tests::SEARCHES.with(|n| n.set(n.get() + 1));
    let ratio = h as f64 / s as f64;
    let mut diag = 0.0f64;
    each_gradient(ratio, planar, |r, f| diag += f * f * dot(r, r));
    if diag.is_nan() || diag <= 0.0 {
        return 0.0;
    }
    let mu = |q: [f64; 3]| {
        let mut v = [0.0f64; 3];
        each_gradient(ratio, planar, |r, f| {
            let w = f * dot(&q, r).sin();
            v = [v[0] + w * r[0], v[1] + w * r[1], v[2] + w * r[2]];
        });
        dot(&v, &v) / diag
    };
    let step = PI / Q_STEPS as f64;
    let axis = |i: usize| i as f64 * step;
    // μ is symmetric under permutations of q's components (the lattice is cubic):
    // q₀ ≥ q₁ ≥ q₂ covers every wave vector.
    let (mut best, mut at) = (0.0f64, [0.0f64; 3]);
    for i in 0..=Q_STEPS {
        for j in 0..=i {
            for k in if planar { 0..=0 } else { 0..=j } {
                let q = [axis(i), axis(j), axis(k)];
                let m = mu(q);
                if m > best {
                    (best, at) = (m, q);
                }
            }
        }
    }
    // Refine: a finer grid of the cell around the best point.
    let fine = step / 8.0;
    let dims = if planar { 2 } else { 3 };
    let span = -8i32..=8;
    for a in span.clone() {
        for b in span.clone() {
            for c in if dims == 3 { span.clone() } else { 0..=0 } {
                let q = [
                    at[0] + a as f64 * fine,
                    at[1] + b as f64 * fine,
                    at[2] + c as f64 * fine,
                ];
                best = best.max(mu(q));
            }
        }
    }
    best
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// ω, the factor of every λ of a fluid with smoothing radius `h` and spacing `s`:
/// `min(1, TOP_MODE_STEP / μ_max)` (module documentation).
pub(crate) fn relaxation(h: f32, s: f32, planar: bool) -> f32 {
    let mu = top_mode_gain(h, s, planar);
    if mu > TOP_MODE_STEP {
        (TOP_MODE_STEP / mu) as f32
    } else {
        1.0
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    thread_local! {
        /// Searches [`top_mode_gain`] ran on this thread (a world's tests step on
        /// the calling thread).
        pub(crate) static SEARCHES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// [`each_gradient`]'s points and factors, collected.
    fn lattice_gradients(ratio: f64, planar: bool) -> Vec<([f64; 3], f64)> {
        let mut out = Vec::new();
        each_gradient(ratio, planar, |r, f| out.push((*r, f)));
        out
    }

    /// μ_max by power iteration on a periodic lattice, with A = J Jᵀ built from the
    /// lattice's gradients directly (no Fourier sum): the largest eigenvalue of
    /// D⁻¹ A, D = A's diagonal.
    fn power_iteration(ratio: f64, planar: bool, n: usize) -> f64 {
        let g = lattice_gradients(ratio, planar);
        let nz = if planar { 1 } else { n };
        let cells = n * n * nz;
        let index = |x: i64, y: i64, z: i64| {
            let w = |a: i64, m: usize| a.rem_euclid(m as i64) as usize;
            (w(z, nz) * n + w(y, n)) * n + w(x, n)
        };
        let coords = |c: usize| ((c % n) as i64, ((c / n) % n) as i64, (c / (n * n)) as i64);
        let diag: f64 = g.iter().map(|(r, f)| f * f * dot(r, r)).sum();
        // Jᵀ λ: the displacement of particle k, Σ_i λ_i ∇_k C_i, ∇_k C_i = −∇W(x_i − x_k).
        let apply = |lambda: &[f64]| -> Vec<f64> {
            let mut dx = vec![[0.0f64; 3]; cells];
            for (c, d) in dx.iter_mut().enumerate() {
                let (x, y, z) = coords(c);
                for (r, f) in &g {
                    // Constraint i at k + r: ∇_k C_i = −f (x_i − x_k) = −f r.
                    let i = index(x + r[0] as i64, y + r[1] as i64, z + r[2] as i64);
                    for a in 0..3 {
                        d[a] -= lambda[i] * f * r[a];
                    }
                }
            }
            // J dx: constraint i's change, Σ_k ∇_k C_i · dx_k.
            (0..cells)
                .map(|c| {
                    let (x, y, z) = coords(c);
                    g.iter()
                        .map(|(r, f)| {
                            let k = index(x - r[0] as i64, y - r[1] as i64, z - r[2] as i64);
                            // x_i − x_k = r.
                            -f * dot(r, &dx[k])
                        })
                        .sum::<f64>()
                        / diag
                })
                .collect()
        };
        // A deterministic start with every mode in it.
        let mut v: Vec<f64> = (0..cells)
            .map(|c| (c as f64 * 0.754_877_666).fract() - 0.5)
            .collect();
        let mut mu = 0.0;
        for _ in 0..300 {
            let w = apply(&v);
            let norm = w.iter().map(|x| x * x).sum::<f64>().sqrt();
            mu = norm / v.iter().map(|x| x * x).sum::<f64>().sqrt();
            v = w.iter().map(|x| x / norm).collect();
        }
        mu
    }

    /// The Fourier search finds the largest eigenvalue of one solve's operator, as
    /// power iteration on a periodic lattice of 12 (48 in 2D) gets it, for several
    /// h / s (within 3%: the periodic lattice holds only the wave vectors of its
    /// period, which miss the peak at some ratios; at h = 2s it holds the 3D peak, of
    /// period 6, and the 2D one, of period 16/3); at h =
    /// 2s it is above 2, so an undamped solve makes that mode grow.
    #[test]
    fn the_top_mode_is_the_largest_eigenvalue_of_a_solve() {
        for planar in [false, true] {
            for ratio in [1.5f32, 2.0, 3.0] {
                let fourier = top_mode_gain(ratio, 1.0, planar);
                let power = power_iteration(ratio as f64, planar, if planar { 48 } else { 12 });
                assert!(
                    fourier >= power - 1e-6 && power > 0.97 * fourier,
                    "planar {planar} h/s {ratio}: Fourier {fourier}, power iteration {power}"
                );
            }
        }
        let mu3 = top_mode_gain(0.1, 0.05, false);
        let mu2 = top_mode_gain(0.1, 0.05, true);
        assert!((mu3 - 2.821).abs() < 0.002, "3D h = 2s: {mu3}");
        assert!((mu2 - 2.149).abs() < 0.002, "2D h = 2s: {mu2}");
    }

    /// ω μ_max = 1.5: 0.532 in 3D and 0.698 in 2D at h = 2s; never above 1.
    #[test]
    fn the_relaxation_halves_the_top_mode() {
        let w3 = relaxation(0.1, 0.05, false);
        let w2 = relaxation(0.1, 0.05, true);
        assert!((w3 - 0.532).abs() < 0.002, "3D: {w3}");
        assert!((w2 - 0.698).abs() < 0.002, "2D: {w2}");
        for ratio in [1.01f32, 1.5, 2.5, 4.0] {
            for planar in [false, true] {
                let w = relaxation(ratio * 0.05, 0.05, planar);
                let mu = top_mode_gain(ratio * 0.05, 0.05, planar);
                assert!(w > 0.0 && w <= 1.0, "h/s {ratio}: ω {w}");
                assert!(
                    w as f64 * mu <= TOP_MODE_STEP + 1e-4,
                    "h/s {ratio}: ω μ {}",
                    w as f64 * mu
                );
            }
        }
    }
}
