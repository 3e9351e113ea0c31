//! Heavy loads on long chains with small steps (Macklin, Storey, Lu, Terdiman,
//! Chentanez, Jeschke, Müller, "Small Steps in Physics Simulation", 2019): a 20-link
//! rigid chain holding a mass 1000 times a link's stretches less than 1% with the
//! default substeps, and a 200-link rope (with tethers) lifting a heavy load stays
//! under 2%. docs/tuning.md quotes the substeps these need.
//!
//! `cargo test --test physics heavy_loads:: -- --nocapture` prints the stretch for several
//! substep counts.

use sinew::{RopeDesc, Vec3, World, WorldDesc};

const DT: f32 = 1.0 / 60.0;

/// Relative stretch (end distance / rest length − 1) of a vertical rope of `segments`
/// links of 0.1 m, particles of `link_mass` kg and a load `ratio` times that at its
/// end, after 3 s (damped to rest), with `substeps` substeps of one iteration.
fn stretch(segments: u32, ratio: f32, tethers: bool, substeps: u32) -> f32 {
    let mut w = World::new(WorldDesc {
        substeps,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let link_mass = 0.01;
    let length = 0.1 * segments as f32;
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::ZERO,
            end: Vec3::new(0.0, -length, 0.0),
            segments,
            total_mass: link_mass * (segments + 1) as f32,
            tethers,
            damping: 2.0,
            ..RopeDesc::default()
        })
        .unwrap();
    let load = segments;
    w.set_inverse_masses(load, &[1.0 / (ratio * link_mass)])
        .unwrap();
    let mut worst = 0.0f32;
    for step in 0..180 {
        w.step(DT).unwrap();
        if step >= 120 {
            let d = w.particles().position(load as usize).length();
            worst = worst.max(d / length - 1.0);
        }
    }
    let _ = rope;
    worst
}

/// The stretch of a rigid chain under one Gauss-Seidel iteration per substep falls as
/// h² (Macklin et al. 2019): each doubling of the substeps divides it by about 4. The
/// default 8 substeps leave a 1000:1 load stretching the chain by about 38%; 64
/// substeps bring it under 1%.
#[test]
fn twenty_link_chain_holds_a_thousandfold_mass_with_small_steps() {
    let counts = [8, 16, 32, 64, 128];
    let s: Vec<f32> = counts
        .iter()
        .map(|&n| stretch(20, 1000.0, false, n))
        .collect();
    for (n, v) in counts.iter().zip(&s) {
        println!(
            "20 links, load 1000x a link, {n} substeps: stretch {:.3}%",
            100.0 * v
        );
    }
    for k in 1..s.len() {
        let ratio = s[k - 1] / s[k];
        assert!(
            (3.0..4.5).contains(&ratio),
            "{} -> {} substeps: ratio {ratio}",
            counts[k - 1],
            counts[k]
        );
    }
    assert!(s[3] < 0.01, "64 substeps: {}", s[3]);
}

/// A 200-link rope holding a load 1000 times a link: with tethers (the default) the
/// default 8 substeps hold it under 2% (tethers bound every particle's distance from
/// the pin); without them it needs 64 substeps to stay under 1%.
#[test]
fn two_hundred_link_rope_holds_a_heavy_load_under_two_percent() {
    let with = stretch(200, 1000.0, true, WorldDesc::default().substeps);
    let without = stretch(200, 1000.0, false, 64);
    println!(
        "200 links, load 1000x a link: tethers, 8 substeps {:.3}%; no tethers, 64 substeps {:.3}%",
        100.0 * with,
        100.0 * without
    );
    assert!(with < 0.02, "{with}");
    assert!(without < 0.01, "{without}");
}
