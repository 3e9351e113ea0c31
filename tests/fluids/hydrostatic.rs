//! Hydrostatic pressure at depth, through the public API.
//!
//! A plate of 6 × 6 solid particles (spacing s, radius s/2, twice the fluid's
//! density) lies on the floor in the middle of a tank 12 × 12 spacings wide, in place
//! of the bottom row of water above it; the water stands `D` rows deep. At rest the
//! water presses on the plate with the pressure at its depth, ρ₀ g d over the plate's
//! area: the weight of the (D − 1) rows above it, which the floor around it does not
//! carry. The fluid's force on the plate (`World::body_fluid_force`, averaged over a
//! second after two of settling) is that within 15% (a factor error in the pressure,
//! in the mirrored solid pressure or in the force's sum over a substep's solves would
//! show), at 2, 4, 8 and 16 substeps × 1 iteration (2 substeps: 4 density solves per
//! substep). Measured: 6 rows 0.962, 0.966, 1.000, 0.953; 12 rows 0.905, 0.965,
//! 0.968, 0.964 (at 2, 4, 8 and 16 substeps).
//!
//! Not at one substep: 0.54 (6 rows) and 0.29 (12 rows). The fluid's 8 solves of that
//! substep press the plate into the floor, and the floor's contact, which runs once per
//! iteration after the fluid, lifts only the plate back, not the water that followed
//! it; the water over the plate sags and the floor around it takes the weight. (With
//! one solve per iteration, `solve_rate` 0, it is worse: the water boils, −0.39 and
//! −0.18, and 0.17 for 12 rows at 2 substeps.)

use sinew::{BodyId, ClothDesc, FluidDesc, Vec3, World};

use crate::fluid_box::{closed_box, one_thread_world};

const DT: f32 = 1.0 / 60.0;
const S: f32 = 0.05;
const RHO: f32 = 1000.0;
const G: f32 = 9.81;

/// Tank width and plate width (spacings), and the water's depth (rows).
const TANK: u32 = 12;
const PLATE: u32 = 6;

/// The tank at `substeps`, water `depth` rows deep over the plate: the world and the
/// plate's body.
fn tank(substeps: u32, depth: u32) -> (World, BodyId) {
    let mut w = one_thread_world(substeps, 1);
    let lo = (TANK - PLATE) / 2;
    let under = |x: u32, z: u32| (lo..lo + PLATE).contains(&x) && (lo..lo + PLATE).contains(&z);
    let mut water = Vec::new();
    for y in 0..depth {
        for z in 0..TANK {
            for x in 0..TANK {
                if y == 0 && under(x, z) {
                    continue;
                }
                water.push(Vec3::new(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) * S);
            }
        }
    }
    let f = w
        .add_fluid(&FluidDesc {
            spacing: S,
            capacity: water.len() as u32,
            ..FluidDesc::default()
        })
        .unwrap();
    w.emit_fluid(f, &water, None).unwrap();
    let a = TANK as f32 * S;
    closed_box(&mut w, a, 10.0, Some(a));
    // The plate: a flat cloth of PLATE × PLATE particles on the floor.
    let mut v = Vec::new();
    for z in 0..PLATE {
        for x in 0..PLATE {
            let c = Vec3::new((lo + x) as f32 + 0.5, 0.5, (lo + z) as f32 + 0.5);
            v.push(c * S);
        }
    }
    let id = |x: u32, z: u32| z * PLATE + x;
    let mut t = Vec::new();
    for z in 0..PLATE - 1 {
        for x in 0..PLATE - 1 {
            t.push([id(x, z), id(x, z + 1), id(x + 1, z)]);
            t.push([id(x + 1, z), id(x, z + 1), id(x + 1, z + 1)]);
        }
    }
    let inv = vec![1.0 / (2.0 * RHO * S * S * S); v.len()];
    let body = w
        .add_cloth_mesh(&ClothDesc::default(), &v, &t, &inv)
        .unwrap();
    let (first, count) = w.body_particle_range(body).unwrap();
    w.set_particle_radii(first, &vec![0.5 * S; count as usize])
        .unwrap();
    (w, body)
}

/// The fluid's downward force on the plate over ρ₀ g d A (d = (depth − 1) s, A its
/// area), averaged over a second after two of settling.
fn pressure_ratio(substeps: u32, depth: u32) -> f32 {
    let (mut w, body) = tank(substeps, depth);
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let area = (PLATE * PLATE) as f32 * S * S;
    let want = RHO * G * (depth - 1) as f32 * S * area;
    let mut sum = 0.0f32;
    for _ in 0..60 {
        w.step(DT).unwrap();
        sum += -w.body_fluid_force(body).unwrap().y / want / 60.0;
    }
    sum
}

#[test]
fn the_water_presses_on_a_plate_with_the_pressure_at_its_depth() {
    let mut failed = Vec::new();
    for depth in [6u32, 12] {
        for substeps in [2u32, 4, 8, 16] {
            let r = pressure_ratio(substeps, depth);
            println!("{depth} rows, {substeps} x 1: force / (ρ₀ g d A) {r:.3}");
            if !(0.85..=1.15).contains(&r) {
                failed.push(format!("{depth} rows, {substeps} x 1: {r}"));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:?}");
}
