//! A fluid whose particles are mostly in one pool but a few strays far above it (spray
//! thrown high): the box of their cells is far too large for a table per cell, so the
//! neighbour grid keeps only the occupied rows of the box (src/spatial/layout.rs, chosen
//! by src/fluid/grid.rs).
//!
//! * The pool steps as it does without the strays, bit for bit (the rows kept list the
//!   pool's pairs in the order of the full table the pool alone gets; the strays, metres
//!   away, are nobody's neighbours); no particle leaves the box or turns
//!   non-finite; the strays fall freely.
//! * The steps give the same bits on 1, 2 and 4 threads.

use sinew::{ColliderDesc, FluidDesc, Quat, Shape, Vec3, World, WorldDesc};
use std::f32::consts::{FRAC_PI_2, PI};

const DT: f32 = 1.0 / 60.0;
const S: f32 = 0.05;
const N: u32 = 16;
const NY: u32 = 10;

/// The pool (a lattice of N × NY × N particles of spacing S in a closed box N·S wide
/// and 200 m high) and, where `strays`, 12 particles between 10 and 40 m up; stepped
/// 40 times. Positions and velocities of every particle, bit for bit, as floats.
fn run(threads: u32, strays: bool) -> (Vec<Vec3>, Vec<Vec3>) {
    let mut w = World::new(WorldDesc {
        substeps: 2,
        iterations: 2,
        threads,
        ..WorldDesc::default()
    })
    .unwrap();
    let f = w
        .add_fluid(&FluidDesc {
            spacing: S,
            capacity: N * N * NY + 100,
            ..FluidDesc::default()
        })
        .unwrap();
    let mut p = Vec::new();
    for y in 0..NY {
        for z in 0..N {
            for x in 0..N {
                p.push(Vec3::new(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) * S);
            }
        }
    }
    if strays {
        for k in 0..12 {
            let t = k as f32 / 11.0;
            p.push(Vec3::new(
                (0.1 + 0.6 * t) * N as f32 * S,
                10.0 + 30.0 * t * t,
                (0.8 - 0.7 * t) * N as f32 * S,
            ));
        }
    }
    w.emit_fluid(f, &p, None).unwrap();
    let a = N as f32 * S;
    for (position, rotation) in [
        (Vec3::ZERO, Quat::IDENTITY),
        (Vec3::new(0.0, 200.0, 0.0), Quat::from_rotation_x(PI)),
        (Vec3::ZERO, Quat::from_rotation_z(-FRAC_PI_2)),
        (Vec3::new(a, 0.0, 0.0), Quat::from_rotation_z(FRAC_PI_2)),
        (Vec3::ZERO, Quat::from_rotation_x(FRAC_PI_2)),
        (Vec3::new(0.0, 0.0, a), Quat::from_rotation_x(-FRAC_PI_2)),
    ] {
        w.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            ..ColliderDesc::default()
        })
        .unwrap();
    }
    for _ in 0..40 {
        w.step(DT).unwrap();
    }
    let n = w.particle_count();
    let (mut x, mut v) = (Vec::new(), Vec::new());
    w.read_positions(0, n, |_, q| x.push(q)).unwrap();
    w.read_velocities(0, n, |_, q| v.push(q)).unwrap();
    (x, v)
}

fn bits(s: &(Vec<Vec3>, Vec<Vec3>)) -> Vec<[u32; 3]> {
    s.0.iter()
        .chain(&s.1)
        .map(|q| q.to_array().map(f32::to_bits))
        .collect()
}

#[test]
fn a_pool_with_strays_far_above_steps_as_without_them() {
    let with = run(1, true);
    let without = run(1, false);
    let pool = (N * N * NY) as usize;
    let a = N as f32 * S;
    for (k, q) in with.0.iter().enumerate() {
        assert!(q.is_finite(), "particle {k}: {q}");
        assert!(
            q.x >= -1e-3 && q.x <= a + 1e-3 && q.z >= -1e-3 && q.z <= a + 1e-3 && q.y >= -1e-3,
            "particle {k} left the box: {q}"
        );
    }
    // The strays fall freely, far from the pool: N = 80 substeps of h = 1/120 s from
    // rest under g = 9.81 m/s², symplectic Euler: a drop of g h² N (N + 1) / 2.
    let (h, n) = (DT / 2.0, 80.0f32);
    let drop = 9.81 * h * h * n * (n + 1.0) / 2.0;
    for k in 0..12 {
        let t0 = k as f32 / 11.0;
        let y0 = 10.0 + 30.0 * t0 * t0;
        let y = with.0[pool + k].y;
        assert!((y - (y0 - drop)).abs() < 1e-3, "stray {k}: y {y}");
    }
    // Without the strays the box fits a table per cell (the dense layout); with them
    // the rows layout lists the pool's pairs in the same order, so the pool steps to
    // the same bits.
    let pool_bits = |s: &(Vec<Vec3>, Vec<Vec3>)| {
        let (x, v) = (&s.0[..pool], &s.1[..pool]);
        bits(&(x.to_vec(), v.to_vec()))
    };
    assert!(
        pool_bits(&with) == pool_bits(&without),
        "pool moved by the strays"
    );
}

#[test]
fn a_pool_with_strays_is_bit_identical_for_1_2_and_4_threads() {
    let one = bits(&run(1, true));
    for threads in [2, 4] {
        assert!(bits(&run(threads, true)) == one, "{threads} threads");
    }
}
