//! The surface mesh (src/fluid/render/surface.rs): closed and consistently wound,
//! with outward normals, around a resting block (enclosing the particles' volume) and
//! a ball of particles (its area near 4πr²); the same bits on 1 and 4 threads; never
//! a NaN; an empty fluid has an empty mesh; parameters out of range are refused, and
//! so is a fluid too far from the world origin for the grid's cells (where an internal
//! error was reported before); a second build does not allocate; blocks far apart
//! (the build's sparse path) each have the mesh of one.

use std::collections::HashMap;

use crate::counting_alloc::allocations_in;
use crate::fluid_box::closed_box;
use sinew::{ErrorKind, FluidDesc, FluidId, SurfaceCounts, SurfaceDesc, Vec3, World, WorldDesc};

const S: f32 = 0.05;
const DT: f32 = 1.0 / 60.0;

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

/// A mesh copied out of the world.
struct Mesh {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    indices: Vec<u32>,
}

fn build(w: &mut World, f: FluidId, desc: &SurfaceDesc) -> Mesh {
    let counts = w.build_fluid_surface(f, desc, 1.0).unwrap();
    let s = w.fluid_surface(f).unwrap();
    assert_eq!(s.positions.len(), counts.vertices as usize);
    assert_eq!(s.normals.len(), counts.vertices as usize);
    assert_eq!(s.indices.len(), counts.indices as usize);
    assert_eq!(counts.indices % 3, 0);
    for (p, n) in s.positions.iter().zip(s.normals) {
        assert!(p.is_finite() && n.is_finite(), "{p} {n}");
        assert!((n.length() - 1.0).abs() < 1e-4, "{n}");
    }
    assert!(s.indices.iter().all(|&i| i < counts.vertices));
    Mesh {
        positions: s.positions.to_vec(),
        normals: s.normals.to_vec(),
        indices: s.indices.to_vec(),
    }
}

impl Mesh {
    fn triangles(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        self.indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]])
    }

    fn corners(&self, t: [u32; 3]) -> [Vec3; 3] {
        t.map(|i| self.positions[i as usize])
    }

    /// Every edge in exactly two triangles, once in each direction (closed,
    /// two-manifold along its edges, consistently wound), and no triangle repeats a
    /// vertex.
    fn assert_closed(&self) {
        let mut directed: HashMap<(u32, u32), u32> = HashMap::new();
        for t in self.triangles() {
            assert!(t[0] != t[1] && t[1] != t[2] && t[0] != t[2], "{t:?}");
            for k in 0..3 {
                *directed.entry((t[k], t[(k + 1) % 3])).or_default() += 1;
            }
        }
        for (&(a, b), &n) in &directed {
            assert_eq!(n, 1, "edge {a}->{b} in {n} triangles of one direction");
            assert_eq!(
                directed.get(&(b, a)),
                Some(&1),
                "edge {a}->{b} has no twin: open or inconsistently wound"
            );
        }
    }

    /// The enclosed volume (m³, divergence theorem; positive when wound outwards).
    fn volume(&self) -> f64 {
        self.triangles()
            .map(|t| {
                let [a, b, c] = self.corners(t).map(|v| v.as_dvec3());
                a.dot(b.cross(c)) / 6.0
            })
            .sum()
    }

    fn area(&self) -> f64 {
        self.triangles()
            .map(|t| {
                let [a, b, c] = self.corners(t).map(|v| v.as_dvec3());
                0.5 * (b - a).cross(c - a).length()
            })
            .sum()
    }

    /// Every vertex normal points away from `center`, and every triangle of some
    /// size faces the way of its vertices' normals.
    fn assert_outward_about(&self, center: Vec3) {
        for (p, n) in self.positions.iter().zip(&self.normals) {
            assert!(n.dot(*p - center) > 0.0, "normal {n} at {p}");
        }
        for t in self.triangles() {
            let [a, b, c] = self.corners(t);
            let g = (b - a).cross(c - a);
            if g.length() < 1e-3 * S * S {
                continue;
            }
            let n: Vec3 = t.iter().map(|&i| self.normals[i as usize]).sum();
            assert!(g.dot(n) > 0.0, "triangle {t:?} faces inwards");
        }
    }

    fn bits(&self) -> Vec<u32> {
        self.positions
            .iter()
            .chain(&self.normals)
            .flat_map(|v| v.to_array().map(f32::to_bits))
            .chain(self.indices.iter().copied())
            .collect()
    }
}

/// A block of `n.0 × n.1 × n.2` particles at the fluid's spacing, its lowest corner
/// particle at `at`.
fn block(n: (u32, u32, u32), at: Vec3) -> Vec<Vec3> {
    let (nx, ny, nz) = n;
    (0..nx * ny * nz)
        .map(|k| {
            let (x, y, z) = (k % nx, (k / nx) % ny, k / (nx * ny));
            at + Vec3::new(x as f32, y as f32, z as f32) * S
        })
        .collect()
}

#[test]
fn a_resting_block_has_a_closed_outward_mesh_of_its_volume() {
    let mut w = world(1, Vec3::new(0.0, -9.81, 0.0));
    let (nx, ny, nz) = (12u32, 8u32, 10u32);
    let (wx, wz) = (nx as f32 * S, nz as f32 * S);
    closed_box(&mut w, wx, 2.0, Some(wz));
    let f = fluid(&mut w, nx * ny * nz);
    let at = block((nx, ny, nz), Vec3::splat(0.5 * S));
    w.emit_fluid(f, &at, None).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let mesh = build(&mut w, f, &SurfaceDesc::default());
    assert!(mesh.indices.len() > 1000);
    mesh.assert_closed();
    let center = Vec3::new(wx, ny as f32 * S, wz) * 0.5;
    mesh.assert_outward_about(center);
    // The particles' volume: each stands for s³ of water.
    let particles = f64::from(nx * ny * nz) * f64::from(S).powi(3);
    let v = mesh.volume();
    // The faces lie half a spacing beyond the outer particles (no volume lost there);
    // the kernel rounds the edges and corners (8% of this small block, measured).
    assert!(
        (0.85..1.0).contains(&(v / particles)),
        "mesh volume {v} m³ against the particles' {particles} m³"
    );
    // A finer grid and a larger kernel: still closed, a similar volume.
    let fine = build(
        &mut w,
        f,
        &SurfaceDesc {
            cell_size: 0.5 * S,
            radius: 3.0 * S,
            ..SurfaceDesc::default()
        },
    );
    fine.assert_closed();
    fine.assert_outward_about(center);
    assert!(fine.indices.len() > 2 * mesh.indices.len());
    let vf = fine.volume();
    assert!(
        (0.82..1.0).contains(&(vf / particles)),
        "{vf} against {particles}"
    );
}

/// The particles of a cube lattice within `radius` of `center`.
fn ball(center: Vec3, radius: f32) -> Vec<Vec3> {
    let n = (radius / S).ceil() as i32;
    let mut out = Vec::new();
    for z in -n..=n {
        for y in -n..=n {
            for x in -n..=n {
                let d = Vec3::new(x as f32, y as f32, z as f32) * S;
                if d.length() <= radius {
                    out.push(center + d);
                }
            }
        }
    }
    out
}

#[test]
fn a_ball_of_particles_has_the_area_of_its_sphere() {
    let mut w = world(1, Vec3::ZERO);
    let center = Vec3::new(0.3, 1.7, -0.4);
    let at = ball(center, 8.0 * S);
    let f = fluid(&mut w, at.len() as u32);
    w.emit_fluid(f, &at, None).unwrap();
    let mesh = build(&mut w, f, &SurfaceDesc::default());
    mesh.assert_closed();
    mesh.assert_outward_about(center);
    // The sphere of the particles' volume.
    let volume = at.len() as f64 * f64::from(S).powi(3);
    let r = (3.0 * volume / (4.0 * std::f64::consts::PI)).cbrt();
    let sphere = 4.0 * std::f64::consts::PI * r * r;
    let a = mesh.area();
    assert!(
        (a / sphere - 1.0).abs() < 0.08,
        "area {a} m² against 4 pi r² = {sphere} m² (r = {r} m)"
    );
    // Every vertex lies near that sphere.
    for p in &mesh.positions {
        let d = f64::from((*p - center).length());
        assert!((d - r).abs() < 0.5 * f64::from(S), "{d} against {r}");
    }
}

/// A dam break in a closed box, stepped on `threads` threads: its meshes after 40
/// steps (default and fine grids).
fn dam_break(threads: u32) -> Vec<Mesh> {
    let mut w = world(threads, Vec3::new(0.0, -9.81, 0.0));
    closed_box(&mut w, 1.2, 1.0, Some(0.4));
    let (nx, ny, nz) = (10u32, 16u32, 7u32);
    let f = fluid(&mut w, nx * ny * nz);
    w.emit_fluid(f, &block((nx, ny, nz), Vec3::splat(0.5 * S)), None)
        .unwrap();
    for _ in 0..40 {
        w.step(DT).unwrap();
    }
    let fine = SurfaceDesc {
        cell_size: 0.4 * S,
        ..SurfaceDesc::default()
    };
    vec![
        build(&mut w, f, &SurfaceDesc::default()),
        build(&mut w, f, &fine),
    ]
}

#[test]
fn the_mesh_is_the_same_on_one_and_four_threads() {
    let one = dam_break(1);
    let four = dam_break(4);
    for (a, b) in one.iter().zip(&four) {
        assert!(!a.indices.is_empty());
        assert_eq!(a.bits(), b.bits());
        // A splash is closed too (every drop its own closed piece).
        a.assert_closed();
    }
}

#[test]
fn an_empty_fluid_has_an_empty_mesh_and_bad_settings_are_refused() {
    let mut w = world(1, Vec3::ZERO);
    let f = fluid(&mut w, 10);
    let g = fluid(&mut w, 10);
    assert!(w.fluid_surface(f).is_err(), "nothing built yet");
    let counts = w
        .build_fluid_surface(f, &SurfaceDesc::default(), 1.0)
        .unwrap();
    assert_eq!(counts, SurfaceCounts::default());
    let s = w.fluid_surface(f).unwrap();
    assert!(s.positions.is_empty() && s.normals.is_empty() && s.indices.is_empty());
    // The mesh belongs to the fluid of the last build.
    assert!(w.fluid_surface(g).is_err());
    // One lone particle: a small closed blob? Below the threshold: no mesh at all.
    w.emit_fluid(g, &[Vec3::ONE], None).unwrap();
    let lone = build(&mut w, g, &SurfaceDesc::default());
    assert!(lone.indices.is_empty());
    // A lower threshold draws it.
    let low = SurfaceDesc {
        threshold: 0.02,
        ..SurfaceDesc::default()
    };
    let blob = build(&mut w, g, &low);
    assert!(!blob.indices.is_empty());
    blob.assert_closed();
    blob.assert_outward_about(Vec3::ONE);
    let bad = [
        SurfaceDesc {
            cell_size: 0.1 * S,
            ..SurfaceDesc::default()
        },
        SurfaceDesc {
            cell_size: 2.5 * S,
            ..SurfaceDesc::default()
        },
        SurfaceDesc {
            radius: 0.5 * S,
            ..SurfaceDesc::default()
        },
        SurfaceDesc {
            radius: 5.0 * S,
            ..SurfaceDesc::default()
        },
        SurfaceDesc {
            threshold: 1.0,
            ..SurfaceDesc::default()
        },
        SurfaceDesc {
            threshold: f32::NAN,
            ..SurfaceDesc::default()
        },
        SurfaceDesc {
            cell_size: -1.0,
            ..SurfaceDesc::default()
        },
    ];
    for d in &bad {
        let e = w.build_fluid_surface(g, d, 1.0).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
    assert!(w
        .build_fluid_surface(g, &SurfaceDesc::default(), 1.5)
        .is_err());
    w.remove_fluid(g).unwrap();
    assert!(w.fluid_surface(g).is_err());
}

#[test]
fn a_planar_fluid_has_a_closed_slab() {
    let mut w = world(1, Vec3::ZERO);
    w.set_planar(Some(0.0)).unwrap();
    let at: Vec<Vec3> = block((10, 6, 1), Vec3::new(0.2, 0.3, 0.0));
    let f = fluid(&mut w, at.len() as u32);
    w.emit_fluid(f, &at, None).unwrap();
    let mesh = build(&mut w, f, &SurfaceDesc::default());
    mesh.assert_closed();
    let center = Vec3::new(0.2 + 4.5 * S, 0.3 + 2.5 * S, 0.0);
    mesh.assert_outward_about(center);
    // A slab: the 2D block's area times a thickness of about two spacings.
    let thick = mesh.volume() / (60.0 * f64::from(S).powi(2));
    assert!(
        thick > 1.0 * f64::from(S) && thick < 3.0 * f64::from(S),
        "{thick}"
    );
}

/// A second build of the same fluid allocates nothing: the buffers kept their room.
#[test]
fn a_second_build_does_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    let mut w = world(2, Vec3::new(0.0, -9.81, 0.0));
    closed_box(&mut w, 0.6, 1.0, Some(0.4));
    let f = fluid(&mut w, 600);
    w.emit_fluid(f, &block((10, 6, 10), Vec3::splat(0.5 * S)), None)
        .unwrap();
    w.step(DT).unwrap();
    let desc = SurfaceDesc::default();
    let first = w.build_fluid_surface(f, &desc, 1.0).unwrap();
    assert!(first.indices > 0);
    let (n, again) = allocations_in(|| w.build_fluid_surface(f, &desc, 1.0).unwrap());
    assert_eq!(n, 0, "a second build allocated {n} times");
    assert_eq!(again, first);
}

#[test]
fn far_apart_blocks_each_have_the_mesh_of_one_block() {
    // One block alone, then two: 2 m apart (the build maps every block of the box
    // around them) and 30 m apart on each axis (a box of more than 2^18 blocks of
    // 8³ cells: the build sorts and searches instead). Each pair's mesh is closed and
    // has twice the single block's vertices, indices and volume.
    let n = (6u32, 5u32, 4u32);
    let count = n.0 * n.1 * n.2;
    let single = {
        let mut w = world(1, Vec3::ZERO);
        let f = fluid(&mut w, count);
        w.emit_fluid(f, &block(n, Vec3::ZERO), None).unwrap();
        build(&mut w, f, &SurfaceDesc::default())
    };
    single.assert_closed();
    assert!(single.indices.len() > 300);
    for gap in [2.0f32, 30.0] {
        let mut w = world(2, Vec3::ZERO);
        let f = fluid(&mut w, 2 * count);
        let mut at = block(n, Vec3::ZERO);
        at.extend(block(n, Vec3::splat(gap)));
        w.emit_fluid(f, &at, None).unwrap();
        let pair = build(&mut w, f, &SurfaceDesc::default());
        pair.assert_closed();
        assert_eq!(
            pair.positions.len(),
            2 * single.positions.len(),
            "gap {gap} m"
        );
        assert_eq!(pair.indices.len(), 2 * single.indices.len(), "gap {gap} m");
        let ratio = pair.volume() / single.volume();
        assert!(
            (ratio - 2.0).abs() < 1e-3,
            "gap {gap} m: volume ratio {ratio}"
        );
    }
}

/// A block of water laid 1e9 m along z (an accepted coordinate, where `f32` positions
/// are 64 m apart) cannot be sampled on cells of a few centimetres: the build is
/// refused with OUT_OF_RANGE and a message. Before, the grid's
/// origin rounded past the particles and the build panicked on a block outside its
/// box (found by the API fuzzer). The same block 10 km out still has its mesh.
#[test]
fn a_fluid_too_far_from_the_origin_is_refused() {
    let mut w = world(1, Vec3::ZERO);
    let (near, far, out) = (fluid(&mut w, 64), fluid(&mut w, 64), fluid(&mut w, 64));
    w.emit_fluid(near, &block((4, 4, 4), Vec3::ZERO), None)
        .unwrap();
    w.emit_fluid(far, &block((4, 4, 4), Vec3::new(0.0, 0.0, 1.0e9)), None)
        .unwrap();
    w.emit_fluid(out, &block((4, 4, 4), Vec3::new(1.0e4, 0.0, 0.0)), None)
        .unwrap();
    let kept = build(&mut w, near, &SurfaceDesc::default());
    assert!(!kept.indices.is_empty());
    let e = w
        .build_fluid_surface(far, &SurfaceDesc::default(), 1.0)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfRange, "{e}");
    assert!(e.to_string().contains("from the world origin"), "{e}");
    // As every build that fails past its settings' checks, it leaves no mesh; the
    // next build of the near fluid gives its mesh again, bit for bit.
    assert!(w.fluid_surface(near).is_err() && w.fluid_surface(far).is_err());
    assert_eq!(
        build(&mut w, near, &SurfaceDesc::default()).bits(),
        kept.bits()
    );
    let there = build(&mut w, out, &SurfaceDesc::default());
    there.assert_closed();
    let (v, v0) = (there.volume(), kept.volume());
    assert!(
        (v / v0 - 1.0).abs() < 0.02,
        "{v} m³ against {v0} near the origin"
    );
}
