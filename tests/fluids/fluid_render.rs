//! The anisotropy readback (Yu & Turk 2013; src/fluid/render/anisotropy.rs): a flat
//! sheet is drawn flat (its shortest axis along the normal), an isolated particle as a
//! sphere, the bulk roughly as spheres of the chosen radius; the bits do not depend on
//! the thread count and no value is ever NaN.

use crate::fluid_box::closed_box;
use sinew::{AnisotropyDesc, FluidDesc, FluidEllipsoid, FluidId, Vec3, World, WorldDesc};

const S: f32 = 0.05;

fn world(threads: u32, gravity: Vec3) -> World {
    World::new(WorldDesc {
        gravity,
        threads,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn fluid(w: &mut World, capacity: u32) -> FluidId {
    w.add_fluid(&FluidDesc {
        spacing: S,
        capacity,
        ..FluidDesc::default()
    })
    .unwrap()
}

fn read(w: &mut World, f: FluidId, desc: &AnisotropyDesc) -> Vec<FluidEllipsoid> {
    let mut out = Vec::new();
    let n = w
        .read_fluid_anisotropy(f, desc, 1.0, |k, e| {
            assert_eq!(k, out.len());
            out.push(*e);
        })
        .unwrap();
    assert_eq!(n as usize, out.len());
    for e in &out {
        assert!(
            e.center.is_finite() && e.axes.iter().all(|a| a.is_finite()),
            "{e:?}"
        );
        // Orthogonal axes, longest first, right-handed.
        let [a, b, c] = e.axes;
        for (x, y) in [(a, b), (a, c), (b, c)] {
            assert!(
                x.dot(y).abs() <= 1e-4 * x.length() * y.length() + 1e-12,
                "{e:?}"
            );
        }
        assert!(a.length() >= b.length() * 0.9999 && b.length() >= c.length() * 0.9999);
        assert!(a.cross(b).dot(c) >= 0.0, "{e:?}");
    }
    out
}

fn radii(e: &FluidEllipsoid) -> [f32; 3] {
    e.axes.map(|a| a.length())
}

#[test]
fn a_flat_sheet_is_flat_along_its_normal() {
    let mut w = world(1, Vec3::ZERO);
    let n = 14;
    let f = fluid(&mut w, n * n);
    let at: Vec<Vec3> = (0..n * n)
        .map(|k| Vec3::new((k % n) as f32 * S, 1.0, (k / n) as f32 * S))
        .collect();
    w.emit_fluid(f, &at, None).unwrap();
    w.step(1.0 / 60.0).unwrap();
    let desc = AnisotropyDesc::default();
    let out = read(&mut w, f, &desc);
    let mut inner = 0;
    for (k, e) in out.iter().enumerate() {
        let (x, z) = (k as u32 % n, k as u32 / n);
        if x < 3 || z < 3 || x > n - 4 || z > n - 4 {
            continue;
        }
        inner += 1;
        let r = radii(e);
        let normal = e.axes[2] / r[2];
        assert!(normal.y.abs() > 0.999, "{e:?}");
        // The clamp k_r: the normal axis is the longest over k_r.
        assert!((r[2] * desc.max_ratio - r[0]).abs() < 1e-3 * r[0], "{r:?}");
        assert!((r[0] - r[1]).abs() < 0.05 * r[0], "{r:?}");
        // Smoothed towards the neighbours, which lie in the sheet's plane.
        assert!((e.center.y - 1.0).abs() < 1e-4, "{e:?}");
    }
    assert_eq!(inner, (n - 6) * (n - 6));
}

#[test]
fn an_isolated_particle_is_a_sphere() {
    let mut w = world(1, Vec3::ZERO);
    let f = fluid(&mut w, 4);
    // Before any step there is no grid: every particle is a lone sphere.
    w.emit_fluid(
        f,
        &[Vec3::new(0.3, 0.4, 0.5), Vec3::new(3.0, 0.4, 0.5)],
        None,
    )
    .unwrap();
    let desc = AnisotropyDesc::default();
    let before = read(&mut w, f, &desc);
    w.step(1.0 / 60.0).unwrap();
    let after = read(&mut w, f, &desc);
    let r = 0.5 * S * desc.isolated_scale;
    for e in before.iter().chain(&after) {
        assert_eq!(e.axes, [Vec3::X * r, Vec3::Y * r, Vec3::Z * r]);
    }
    assert_eq!(after[0].center, Vec3::new(0.3, 0.4, 0.5));
    // A chosen radius and no smoothing.
    let desc = AnisotropyDesc {
        radius: 0.1,
        isolated_scale: 1.0,
        smoothing: 0.0,
        ..AnisotropyDesc::default()
    };
    let e = read(&mut w, f, &desc)[1];
    assert_eq!(radii(&e), [0.1; 3]);
}

#[test]
fn the_bulk_is_roughly_isotropic_and_of_the_chosen_radius() {
    let mut w = world(1, Vec3::ZERO);
    let n = 12u32;
    let f = fluid(&mut w, n * n * n);
    let at: Vec<Vec3> = (0..n * n * n)
        .map(|k| {
            let (x, y, z) = (k % n, (k / n) % n, k / (n * n));
            Vec3::new(x as f32, y as f32, z as f32) * S
        })
        .collect();
    w.emit_fluid(f, &at, None).unwrap();
    w.step(1.0 / 60.0).unwrap();
    let desc = AnisotropyDesc::default();
    let out = read(&mut w, f, &desc);
    let mut inner = 0;
    for (k, e) in out.iter().enumerate() {
        let k = k as u32;
        let c = [k % n, (k / n) % n, k / (n * n)];
        if c.iter().any(|&c| c < 3 || c > n - 4) {
            continue;
        }
        inner += 1;
        let r = radii(e);
        assert!(r[0] / r[2] < 1.15, "{r:?}");
        for r in r {
            assert!((r / (0.5 * S) - 1.0).abs() < 0.15, "{r}");
        }
    }
    assert_eq!(inner, (n - 6).pow(3));
    // A surface particle (the middle of the top face) is flatter across the surface.
    let top = &out[(6 + (n - 1) * n + 6 * n * n) as usize];
    let r = radii(top);
    assert!(
        r[0] / r[2] > 1.5 && (top.axes[2] / r[2]).y.abs() > 0.95,
        "{top:?}"
    );
}

/// A dam break in a closed box, stepped on `threads` threads: the ellipsoids after
/// 40 steps. 2,240 particles: enough for the readback's passes to run in parallel on
/// two threads (from 2,048 slots).
fn dam_break(threads: u32) -> Vec<FluidEllipsoid> {
    let mut w = world(threads, Vec3::new(0.0, -9.81, 0.0));
    closed_box(&mut w, 1.2, 1.0, Some(0.4));
    let (nx, ny, nz) = (20u32, 16u32, 7u32);
    let f = fluid(&mut w, nx * ny * nz);
    let at: Vec<Vec3> = (0..nx * ny * nz)
        .map(|k| {
            let (x, y, z) = (k % nx, (k / nx) % ny, k / (nx * ny));
            Vec3::new(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) * S
        })
        .collect();
    w.emit_fluid(f, &at, None).unwrap();
    for _ in 0..40 {
        w.step(1.0 / 60.0).unwrap();
    }
    read(&mut w, f, &AnisotropyDesc::default())
}

#[test]
fn anisotropy_is_the_same_on_one_and_two_threads() {
    let one = dam_break(1);
    let two = dam_break(2);
    assert_eq!(one.len(), two.len());
    for (a, b) in one.iter().zip(&two) {
        let bits = |e: &FluidEllipsoid| {
            std::iter::once(e.center)
                .chain(e.axes)
                .flat_map(|v| v.to_array().map(f32::to_bits))
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(a), bits(b));
    }
    // A splash is not a pool: some particles are stretched.
    assert!(one.iter().any(|e| radii(e)[0] > 1.5 * radii(e)[2]));
}
