//! The collapse of a water column against published experiments.
//!
//! Martin & Moyce (1952), "Part IV. An experimental study of the collapse of liquid
//! columns on a rigid horizontal plane" (Phil. Trans. R. Soc. Lond. A 244, 312-324),
//! and Koshizuka & Oka (1996), "Moving-particle semi-implicit method for fragmentation
//! of incompressible fluid" (Nucl. Sci. Eng. 123, 421-434): a column a wide and 2a
//! tall (n² = 2) released against a back wall; the surge front's distance z from the
//! back wall, Z = z / a, against T = t √(2g / a). The data are those of Martin &
//! Moyce's figure 3 (a = 2.25 in and a = 1.125 in) and of Koshizuka & Oka as
//! digitised in PySPH's `pysph/examples/db_exp_data.py`.
//!
//! Here a planar world (the experiments are two-dimensional flows), a = 0.3 m,
//! spacing 0.01 m (1800 particles), the world's defaults (8 substeps × 1 iteration at
//! 60 Hz) and the fluid's, frictionless planes. The front is the furthest particle's
//! centre plus half a spacing. The simulated front leads the data (against a =
//! 2.25 in: 8% at T = 0.83, 10% at 1.22, 8% at 2.0, 7% at 2.55; a = 1.125 in: 6%,
//! 12%, 7%, 6%, 1%; Koshizuka & Oka: −4% at T = 0.38 rising to 14% at 2.72; before
//! the density solve was under-relaxed, `src/fluid/jacobi.rs`, 11-13%, 9-15% and up
//! to 17%). The floor here is frictionless and the column is released at once; the
//! experiments had a real floor and a diaphragm that took time to clear, and the lead
//! is largest early, when friction matters least, so the release is the likelier part
//! of it (not established here). The test holds the front to a lead of at most 15%
//! early (T < 1.5), later 10% against either of Martin & Moyce's columns and 17%
//! against Koshizuka & Oka, and never behind by more than 5%: a wrong time scale
//! (√(g/a) for √(2g/a), a factor √2 in T) or a front that stalls fails it, and so did
//! the undamped solve (15.4% early).

use sinew::{ColliderDesc, FluidDesc, Quat, Shape, Vec3, World, WorldDesc};
use std::f32::consts::FRAC_PI_2;

/// Martin & Moyce, n² = 2, a = 2.25 in: (T, Z).
const MARTIN_MOYCE_225: [(f32, f32); 4] = [
    (0.832, 1.217),
    (1.219, 1.474),
    (1.997, 2.292),
    (2.547, 2.995),
];
/// Martin & Moyce, n² = 2, a = 1.125 in: (T, Z).
const MARTIN_MOYCE_1125: [(f32, f32); 5] = [
    (0.849, 1.245),
    (1.212, 1.443),
    (1.602, 1.884),
    (2.283, 2.689),
    (2.950, 3.728),
];
/// Koshizuka & Oka (their experiment, L × 2L): (T, Z).
const KOSHIZUKA_OKA: [(f32, f32); 7] = [
    (0.381, 1.111),
    (0.769, 1.252),
    (1.153, 1.505),
    (1.537, 1.892),
    (1.935, 2.241),
    (2.323, 2.615),
    (2.719, 3.003),
];

const G: f32 = 9.81;

/// A data set: (T, Z) points.
type Data = &'static [(f32, f32)];

/// The simulated front Z at every frame up to T = 3.2: (T, Z).
fn collapse(a: f32, s: f32) -> Vec<(f32, f32)> {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    w.set_planar(Some(0.0)).unwrap();
    let n = (a / s).round() as u32;
    let mut p = Vec::new();
    for y in 0..2 * n {
        for x in 0..n {
            p.push(Vec3::new(x as f32 + 0.5, y as f32 + 0.5, 0.0) * s);
        }
    }
    let f = w
        .add_fluid(&FluidDesc {
            spacing: s,
            capacity: p.len() as u32,
            ..FluidDesc::default()
        })
        .unwrap();
    w.emit_fluid(f, &p, None).unwrap();
    for (position, rotation) in [
        (Vec3::ZERO, Quat::IDENTITY),
        (Vec3::ZERO, Quat::from_rotation_z(-FRAC_PI_2)),
        (
            Vec3::new(8.0 * a, 0.0, 0.0),
            Quat::from_rotation_z(FRAC_PI_2),
        ),
    ] {
        w.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            ..ColliderDesc::default()
        })
        .unwrap();
    }
    let dt = 1.0 / 60.0;
    let scale = (2.0 * G / a).sqrt();
    let mut curve = vec![(0.0, 1.0)];
    let mut t = 0.0f32;
    while t * scale < 3.2 {
        w.step(dt).unwrap();
        t += dt;
        let mut front = 0.0f32;
        w.read_fluid_particles(f, 1.0, |_, q| front = front.max(q.position.x))
            .unwrap();
        curve.push((t * scale, (front + 0.5 * s) / a));
    }
    curve
}

/// Z of `curve` at `t`, linearly between frames.
fn at(curve: &[(f32, f32)], t: f32) -> f32 {
    let k = curve
        .iter()
        .position(|&(x, _)| x >= t)
        .expect("T within the run");
    let ((t0, z0), (t1, z1)) = (curve[k - 1], curve[k]);
    z0 + (z1 - z0) * (t - t0) / (t1 - t0)
}

#[test]
fn the_surge_front_follows_martin_and_moyce() {
    let curve = collapse(0.3, 0.01);
    let mut table = String::new();
    let mut failed = Vec::new();
    let sets: [(&str, Data, f32); 3] = [
        ("Martin & Moyce a = 2.25 in", &MARTIN_MOYCE_225, 1.10),
        ("Martin & Moyce a = 1.125 in", &MARTIN_MOYCE_1125, 1.10),
        ("Koshizuka & Oka", &KOSHIZUKA_OKA, 1.17),
    ];
    for (name, data, late) in sets {
        for &(t, z) in data {
            let sim = at(&curve, t);
            let ratio = sim / z;
            let line = format!("{name}: T {t:.3} Z {z:.3}, Sinew {sim:.3} ({ratio:.3})\n");
            table += &line;
            let lead = if t < 1.5 { 1.15 } else { late };
            if !(0.95..=lead).contains(&ratio) {
                failed.push(line);
            }
        }
    }
    print!("{table}");
    assert!(failed.is_empty(), "off the data:\n{}", failed.concat());
}
