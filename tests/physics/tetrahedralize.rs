//! The tetrahedraliser and the embedding of render vertices (src/bodies/tetrahedralize.rs):
//! the tet mesh's volume against the closed mesh's, every tet positive, the watertight
//! inside test (rays through edges and vertices), seams welded, refusals, and a tet body
//! built from a render mesh whose embedded vertices follow the particles.
//!
//! `cargo test --test physics tetrahedralize:: -- --nocapture` prints the volumes.

use sinew::{
    embed_points, tetrahedralize, weld_mesh, ColliderDesc, Shape, TetBodyDesc, TetMesh, Vec3,
    World, WorldDesc,
};

/// A UV sphere of radius `r`: one vertex per pole, counter-clockwise from outside.
pub(crate) fn sphere(r: f32, rings: u32, segments: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = vec![Vec3::new(0.0, r, 0.0)];
    for i in 1..rings {
        let th = std::f32::consts::PI * i as f32 / rings as f32;
        for j in 0..segments {
            let ph = std::f32::consts::TAU * j as f32 / segments as f32;
            v.push(Vec3::new(
                r * th.sin() * ph.cos(),
                r * th.cos(),
                r * th.sin() * ph.sin(),
            ));
        }
    }
    v.push(Vec3::new(0.0, -r, 0.0));
    let south = v.len() as u32 - 1;
    let at = |i: u32, j: u32| 1 + (i - 1) * segments + j % segments;
    let mut t = Vec::new();
    for j in 0..segments {
        t.push([0, at(1, j + 1), at(1, j)]);
        t.push([south, at(rings - 1, j), at(rings - 1, j + 1)]);
    }
    for i in 1..rings - 1 {
        for j in 0..segments {
            t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    (v, t)
}

/// A box of half-extents `h` as a render mesh: 24 vertices (4 per face, as a game
/// engine's cube has for its normals and UVs), 12 triangles.
fn render_box(h: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    let mut t = Vec::new();
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let n = Vec3::from_array(std::array::from_fn(|a| if a == axis { sign } else { 0.0 }));
            let u = Vec3::from_array(std::array::from_fn(|a| {
                if a == (axis + 1) % 3 {
                    1.0
                } else {
                    0.0
                }
            }));
            let w = n.cross(u);
            let base = v.len() as u32;
            for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                v.push((n + u * a + w * b) * h);
            }
            t.push([base, base + 1, base + 2]);
            t.push([base, base + 2, base + 3]);
        }
    }
    (v, t)
}

/// The octahedron |x| + |y| + |z| ≤ r.
fn octahedron(r: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let v = vec![
        Vec3::new(r, 0.0, 0.0),
        Vec3::new(-r, 0.0, 0.0),
        Vec3::new(0.0, 0.0, r),
        Vec3::new(0.0, 0.0, -r),
        Vec3::new(0.0, r, 0.0),
        Vec3::new(0.0, -r, 0.0),
    ];
    let t = vec![
        [0, 4, 2],
        [2, 4, 1],
        [1, 4, 3],
        [3, 4, 0],
        [2, 5, 0],
        [1, 5, 2],
        [3, 5, 1],
        [0, 5, 3],
    ];
    (v, t)
}

fn mesh_volume(v: &[Vec3], t: &[[u32; 3]]) -> f64 {
    t.iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| v[i as usize].as_dvec3());
            a.dot(b.cross(c)) / 6.0
        })
        .sum()
}

fn tet_volumes(m: &TetMesh) -> Vec<f64> {
    m.tets
        .iter()
        .map(|t| {
            let [a, b, c, d] = t.map(|i| m.vertices[i as usize].as_dvec3());
            (b - a).dot((c - a).cross(d - a)) / 6.0
        })
        .collect()
}

fn check_positive(m: &TetMesh, what: &str) {
    for (j, v) in tet_volumes(m).iter().enumerate() {
        assert!(*v > 0.0, "{what}: tet {j} {:?} has volume {v}", m.tets[j]);
    }
    assert!(m
        .tets
        .iter()
        .flatten()
        .all(|&i| (i as usize) < m.vertices.len()));
}

/// The tet mesh of a sphere and of a box holds the closed mesh's volume within 3 %
/// (sphere, from 8 cells across) and exactly (a box the grid fits); every tet positive.
#[test]
fn volume_matches_the_closed_mesh() {
    let (v, t) = sphere(0.5, 24, 48);
    let exact = mesh_volume(&v, &t);
    for res in [8, 12, 16, 24] {
        let start = std::time::Instant::now();
        let m = tetrahedralize(&v, &t, res).unwrap();
        let took = start.elapsed();
        check_positive(&m, "sphere");
        let vol: f64 = tet_volumes(&m).iter().sum();
        let err = vol / exact - 1.0;
        println!(
            "sphere r 0.5 m ({} triangles), resolution {res}: {} vertices, {} tets, volume {vol:.5} m³ vs {exact:.5} m³ ({:+.2} %), {:.1} ms",
            t.len(),
            m.vertices.len(),
            m.tets.len(),
            100.0 * err,
            took.as_secs_f64() * 1e3
        );
        assert!(err.abs() < 0.03, "resolution {res}: {:+.2} %", 100.0 * err);
    }
    let (v, t) = render_box(Vec3::new(1.0, 0.5, 0.25));
    let exact = mesh_volume(&v, &t);
    let m = tetrahedralize(&v, &t, 8).unwrap();
    check_positive(&m, "box");
    let vol: f64 = tet_volumes(&m).iter().sum();
    println!(
        "box 2 × 1 × 0.5 m, resolution 8: {} tets, volume {vol:.6} m³ vs {exact:.6} m³",
        m.tets.len()
    );
    assert_eq!(m.tets.len(), 5 * 8 * 4 * 2);
    assert!((vol - exact).abs() < 1e-5 * exact, "{vol} vs {exact}");
}

/// Rays along cell-centre rows that pass exactly through the mesh's vertices and edges
/// count each crossing once: the octahedron's kept cells are exactly the cells whose
/// centre lies inside it, and a box whose face diagonals the rows hit keeps all cells.
#[test]
fn inside_test_is_watertight() {
    // Octahedron of radius 1 on a 5-cell grid: centres at 0, ±0.4, ±0.8, so the row
    // y = z = 0 runs through two vertices and rows y = 0 or z = 0 through edges.
    let (v, t) = octahedron(1.0);
    let m = tetrahedralize(&v, &t, 5).unwrap();
    let c = [-0.8f32, -0.4, 0.0, 0.4, 0.8];
    let mut inside = 0;
    for x in c {
        for y in c {
            for z in c {
                inside += usize::from(x.abs() + y.abs() + z.abs() < 1.0);
            }
        }
    }
    assert_eq!(m.tets.len(), 5 * inside, "kept cells");
    check_positive(&m, "octahedron");
    // A cube split along face diagonals y = z and x = y: the rows of a 4-cell grid
    // with y = z hit those diagonals exactly.
    let (v, t) = render_box(Vec3::splat(1.0));
    for res in [2, 4, 6] {
        let m = tetrahedralize(&v, &t, res).unwrap();
        assert_eq!(m.tets.len() as u32, 5 * res * res * res, "resolution {res}");
    }
}

/// A render mesh with seams (24-vertex box) is welded before the surface check; an
/// open or inside-out mesh is refused with a reason.
#[test]
fn seams_are_welded_and_bad_meshes_refused() {
    let (v, t) = render_box(Vec3::splat(0.5));
    let w = weld_mesh(&v, &t, 0.0).unwrap();
    assert_eq!((w.vertices.len(), w.triangles.len()), (8, 12));
    let open = &t[..11];
    let e = tetrahedralize(&v, open, 4).unwrap_err();
    assert!(e.to_string().contains("not closed"), "{e}");
    let flipped: Vec<[u32; 3]> = t.iter().map(|&[a, b, c]| [a, c, b]).collect();
    let e = tetrahedralize(&v, &flipped, 4).unwrap_err();
    assert!(e.to_string().contains("positive"), "{e}");
    let e = tetrahedralize(&v, &t, 0).unwrap_err();
    assert!(e.to_string().contains("resolution"), "{e}");
}

/// A tet body from a sphere render mesh dropped on the ground: the render vertices,
/// embedded once and moved with the particles, stay on the body (the embedding
/// reproduces them at rest, and after the fall they stay within a few cm of the
/// particles' surface) and the body keeps its volume.
#[test]
fn tet_body_from_a_render_mesh_carries_its_vertices() {
    let (v, t) = sphere(0.3, 12, 24);
    let lifted: Vec<Vec3> = v.iter().map(|p| *p + Vec3::new(0.0, 1.0, 0.0)).collect();
    let m = tetrahedralize(&lifted, &t, 6).unwrap();
    let e = embed_points(&m.vertices, &m.tets, &lifted).unwrap();
    let skin = |x: &[Vec3]| -> Vec<Vec3> {
        e.iter()
            .map(|e| {
                (0..4)
                    .map(|k| x[m.tets[e.tet as usize][k] as usize] * e.weights[k])
                    .sum()
            })
            .collect()
    };
    for (a, b) in skin(&m.vertices).iter().zip(&lifted) {
        assert!(a.distance(*b) < 1e-5, "{a} vs {b}");
    }
    let mut w = World::new(WorldDesc::default()).unwrap();
    w.add_collider(&ColliderDesc {
        shape: Shape::Plane,
        ..ColliderDesc::default()
    })
    .unwrap();
    let b = w
        .add_tet_body(
            &TetBodyDesc {
                stretch_compliance: 1e-4,
                ..TetBodyDesc::default()
            },
            &m.vertices,
            &m.tets,
            None,
        )
        .unwrap();
    let v0 = w.body_volume(b).unwrap();
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    let (first, count) = w.body_particle_range(b).unwrap();
    let p: Vec<Vec3> = (first..first + count)
        .map(|i| w.particles().position(i as usize))
        .collect();
    let rendered = skin(&p);
    let lowest = rendered.iter().map(|q| q.y).fold(f32::INFINITY, f32::min);
    let v1 = w.body_volume(b).unwrap();
    println!("sphere body: rest volume {v0:.5} m³, after 2 s on the ground {v1:.5} m³; lowest render vertex y {lowest:.4} m");
    assert!(
        lowest > -0.05 && lowest < 0.1,
        "lowest render vertex {lowest}"
    );
    assert!((v1 / v0 - 1.0).abs() < 0.1, "volume {v1} vs {v0}");
}
