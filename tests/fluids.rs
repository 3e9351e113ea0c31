//! Position Based Fluids (src/constraints/fluid): physics through the public API.
//!
//! * A column at rest in a closed box (3D and 2D) settles: after 10 s of simulated
//!   time no particle is outside the box or non-finite, the density ratio ρ/ρ₀ of the
//!   particles away from the free surface and the walls (whose neighbourhoods are full;
//!   the one-sided constraint leaves the surface under-dense by design) has a mean
//!   within 1% of 1, every particle's is at most 1.05, and the fluid's height is
//!   N·V / floor area within 5%.
//! * Bit-identical for 1, 2 and 4 threads, with solids coupled.

use sinew::{ColliderDesc, FluidDesc, FluidId, Quat, Shape, Vec3, World, WorldDesc};
use std::f32::consts::{FRAC_PI_2, PI};

const DT: f32 = 1.0 / 60.0;

/// A box of planes: floor y = 0, ceiling y = `top`, walls x = 0, x = `wx`, and (3D)
/// z = 0, z = `wz`; frictionless.
fn closed_box(w: &mut World, wx: f32, top: f32, wz: Option<f32>) {
    let mut planes = vec![
        (Vec3::ZERO, Quat::IDENTITY),
        (Vec3::new(0.0, top, 0.0), Quat::from_rotation_x(PI)),
        (Vec3::ZERO, Quat::from_rotation_z(-FRAC_PI_2)),
        (Vec3::new(wx, 0.0, 0.0), Quat::from_rotation_z(FRAC_PI_2)),
    ];
    if let Some(wz) = wz {
        planes.push((Vec3::ZERO, Quat::from_rotation_x(FRAC_PI_2)));
        planes.push((Vec3::new(0.0, 0.0, wz), Quat::from_rotation_x(-FRAC_PI_2)));
    }
    for (position, rotation) in planes {
        w.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            ..ColliderDesc::default()
        })
        .unwrap();
    }
}

/// A lattice block of `nx × ny × nz` particles of spacing `s` from `corner` (x fastest,
/// then z, then y; nz = 1 in a planar world, at z = corner.z).
fn block(corner: Vec3, nx: u32, ny: u32, nz: u32, s: f32, planar: bool) -> Vec<Vec3> {
    let mut p = Vec::new();
    for y in 0..ny {
        for z in 0..nz {
            for x in 0..nx {
                let mut q = corner + Vec3::new(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) * s;
                if planar {
                    q.z = corner.z;
                }
                p.push(q);
            }
        }
    }
    p
}

fn particles(w: &World, f: FluidId) -> Vec<sinew::FluidParticle> {
    let mut out = Vec::new();
    w.read_fluid_particles(f, 1.0, |_, p| out.push(*p)).unwrap();
    out
}

/// The column checks of the module doc. `inner` tells whether a particle's
/// neighbourhood is full (away from the walls and the surface).
fn check_column(
    ps: &[sinew::FluidParticle],
    wx: f32,
    wz: Option<f32>,
    top: f32,
    want_height: f32,
    s: f32,
) {
    let eps = 1.0e-4;
    let mut surface = 0.0f32;
    for p in ps {
        let q = p.position;
        assert!(q.is_finite() && p.velocity.is_finite(), "{p:?}");
        assert!(
            q.x >= -eps && q.x <= wx + eps && q.y >= -eps && q.y <= top + eps,
            "outside the box: {q}"
        );
        if let Some(wz) = wz {
            assert!(q.z >= -eps && q.z <= wz + eps, "outside the box: {q}");
        }
        surface = surface.max(q.y);
    }
    let height = surface + 0.5 * s;
    assert!(
        (height / want_height - 1.0).abs() < 0.05,
        "height {height} m, N·V/area {want_height} m"
    );
    let h = 2.0 * s;
    let inner = |q: Vec3| {
        q.x > h
            && q.x < wx - h
            && q.y > h
            && q.y < surface - h
            && wz.is_none_or(|wz| q.z > h && q.z < wz - h)
    };
    let interior: Vec<f32> = ps
        .iter()
        .filter(|p| inner(p.position))
        .map(|p| p.density_ratio)
        .collect();
    assert!(
        interior.len() >= 40,
        "{} interior particles",
        interior.len()
    );
    let mean = interior.iter().map(|&r| r as f64).sum::<f64>() / interior.len() as f64;
    assert!((mean - 1.0).abs() < 0.01, "interior mean ρ/ρ₀ {mean}");
    let max = ps.iter().map(|p| p.density_ratio).fold(0.0f32, f32::max);
    assert!(max <= 1.05 && max > 0.99, "max ρ/ρ₀ {max}");
}

#[test]
fn a_3d_column_at_rest_settles() {
    let mut w = World::new(WorldDesc {
        substeps: 4,
        iterations: 4,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let (s, nx, ny) = (0.05f32, 8u32, 12u32);
    let n = nx * nx * ny;
    let f = w
        .add_fluid(&FluidDesc {
            spacing: s,
            capacity: n,
            ..FluidDesc::default()
        })
        .unwrap();
    w.emit_fluid(f, &block(Vec3::ZERO, nx, ny, nx, s, false), None)
        .unwrap();
    let (a, top) = (nx as f32 * s, 2.0 * ny as f32 * s);
    closed_box(&mut w, a, top, Some(a));
    for _ in 0..600 {
        w.step(DT).unwrap();
    }
    let want = n as f32 * s * s * s / (a * a);
    check_column(&particles(&w, f), a, Some(a), top, want, s);
    let stats = w.fluid_stats(f).unwrap();
    assert_eq!(stats.count, n);
}

#[test]
fn a_2d_column_at_rest_settles() {
    let mut w = World::new(WorldDesc {
        substeps: 4,
        iterations: 4,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    w.set_planar(Some(0.0)).unwrap();
    let (s, nx, ny) = (0.05f32, 16u32, 20u32);
    let n = nx * ny;
    let f = w
        .add_fluid(&FluidDesc {
            spacing: s,
            capacity: n,
            ..FluidDesc::default()
        })
        .unwrap();
    w.emit_fluid(f, &block(Vec3::ZERO, nx, ny, 1, s, true), None)
        .unwrap();
    let (a, top) = (nx as f32 * s, 2.0 * ny as f32 * s);
    closed_box(&mut w, a, top, None);
    for _ in 0..600 {
        w.step(DT).unwrap();
    }
    let ps = particles(&w, f);
    assert!(ps.iter().all(|p| p.position.z == 0.0));
    let want = n as f32 * s * s / a;
    check_column(&ps, a, None, top, want, s);
}
