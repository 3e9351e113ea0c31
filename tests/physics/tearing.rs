//! Cloth tearing: a cloth pulled from both sides tears in two along its weak seam
//! (connectivity, mass, energy, finiteness), the threshold is a stretch ratio (exact
//! on a uniformly stretched grid), the topology readback, bad input, and the same
//! result for any thread count.
//!
//! `cargo test --test physics tearing:: -- --nocapture` prints the measured values.

use sinew::{BodyId, ClothDesc, ClothGridDesc, ErrorKind, FamilyKind, Vec3, World, WorldDesc};

const DT: f32 = 1.0 / 60.0;
/// Grid of the pulled cloth: 16 × 8 cells over 1 m × 0.5 m.
const NU: u32 = 16;
const NV: u32 = 8;
/// Compliance (m/N) of the edges across the seam (between columns 8 and 9).
const SEAM: f32 = 1e-3;
const THRESHOLD: f32 = 1.3;

fn world(threads: u32) -> World {
    World::new(WorldDesc {
        gravity: Vec3::ZERO,
        threads,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn vertex(i: u32, j: u32) -> u32 {
    j * (NU + 1) + i
}

/// The pulled cloth: columns 0 and NU pinned, the edges between columns 8 and 9
/// (horizontal and diagonal) soft: a perforated seam.
fn pulled_cloth(w: &mut World) -> BodyId {
    let cloth = w
        .add_cloth_grid(
            &ClothDesc::default(),
            &ClothGridDesc {
                u: Vec3::X,
                v: Vec3::new(0.0, 0.0, 0.5),
                segments_u: NU,
                segments_v: NV,
                total_mass: 1.0,
                ..ClothGridDesc::default()
            },
        )
        .unwrap();
    let (first, _) = w.body_particle_range(cloth).unwrap();
    for j in 0..=NV {
        for i in [0, NU] {
            w.set_inverse_masses(first + vertex(i, j), &[0.0]).unwrap();
        }
    }
    let parts = w.body(cloth).unwrap().parts.clone();
    for id in parts.stretch.start..parts.shear.end {
        let [a, b] = w.constraint_sets().link.pair(id as usize);
        let col = |p: u32| (p - first) % (NU + 1);
        if col(a).min(col(b)) == 8 && col(a).max(col(b)) == 9 {
            w.set_constraint_compliance(FamilyKind::BodyLink, id, 1, SEAM)
                .unwrap();
        }
    }
    cloth
}

/// Moves the pinned columns apart at 0.25 m/s each, at time `t`.
fn pull(w: &mut World, cloth: BodyId, t: f32) {
    let (first, _) = w.body_particle_range(cloth).unwrap();
    for j in 0..=NV {
        let z = 0.5 * j as f32 / NV as f32;
        w.write_positions(first + vertex(0, j), &[Vec3::new(-0.25 * t, 0.0, z)])
            .unwrap();
        w.write_positions(first + vertex(NU, j), &[Vec3::new(1.0 + 0.25 * t, 0.0, z)])
            .unwrap();
    }
}

fn topology(w: &World, cloth: BodyId) -> (Vec<[u32; 3]>, Vec<u32>) {
    let (nv, nt) = w.cloth_topology_counts(cloth).unwrap();
    let mut tris = vec![[0; 3]; nt as usize];
    let mut map = vec![0; nv as usize];
    w.read_cloth_topology(cloth, &mut tris, &mut map).unwrap();
    (tris, map)
}

/// Connected components of the triangle mesh (render vertices): a label per vertex.
fn components(tris: &[[u32; 3]], n: usize) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for t in tris {
        for k in 0..3 {
            let (a, b) = (
                root(&mut parent, t[k] as usize),
                root(&mut parent, t[(k + 1) % 3] as usize),
            );
            parent[a.max(b)] = a.min(b);
        }
    }
    (0..n).map(|i| root(&mut parent, i)).collect()
}

/// Σ 1/w over the movable particles of the render vertices (kg).
fn movable_mass(w: &World, map: &[u32]) -> f64 {
    map.iter()
        .map(|&p| w.particles().inverse_mass(p as usize))
        .filter(|&iw| iw > 0.0)
        .map(|iw| 1.0 / iw as f64)
        .sum()
}

fn kinetic_energy(w: &World, map: &[u32]) -> f64 {
    map.iter()
        .map(|&p| {
            let p = p as usize;
            let iw = w.particles().inverse_mass(p);
            if iw > 0.0 {
                0.5 / iw as f64 * w.particles().velocity(p).length_squared() as f64
            } else {
                0.0
            }
        })
        .sum()
}

struct Run {
    steps: u32,
    version: u64,
    positions: Vec<Vec3>,
    hash: u64,
}

/// Pulls the cloth until it is in two pieces (at most 3 s), checking every step.
fn tear_in_two(threads: u32) -> Run {
    let mut w = world(threads);
    let cloth = pulled_cloth(&mut w);
    let (_, map0) = topology(&w, cloth);
    let mass0 = movable_mass(&w, &map0);
    w.set_cloth_tear_threshold(cloth, THRESHOLD, 0).unwrap();
    // Elastic energy (J) the seam holds when every edge across it is at the
    // threshold: ½ (ΔL)² / α per edge; the rigid rest of the cloth stores none. What
    // the tear releases cannot exceed it, plus the kinetic energy of the pull.
    let h = 1.0 / NU as f64;
    let d = h.hypot(0.5 / NV as f64);
    let seam_edges = [(h, NV + 1), (d, NV)];
    let bound: f64 = seam_edges
        .iter()
        .map(|&(rest, n)| n as f64 * 0.5 * ((THRESHOLD as f64 - 1.0) * rest).powi(2) / SEAM as f64)
        .sum::<f64>()
        + 0.5 * 1.0 * 0.25f64.powi(2);
    let mut max_ke: f64 = 0.0;
    let mut steps = 0;
    let mut last_version = 0;
    for step in 1..=180 {
        pull(&mut w, cloth, step as f32 * DT);
        w.step(DT).unwrap();
        steps = step;
        let (tris, map) = topology(&w, cloth);
        for &p in &map {
            let x = w.particles().position(p as usize);
            let v = w.particles().velocity(p as usize);
            assert!(x.is_finite() && v.is_finite(), "step {step}: particle {p}");
        }
        let mass = movable_mass(&w, &map);
        assert!(
            ((mass - mass0) / mass0).abs() < 1e-5,
            "step {step}: movable mass {mass} kg, built with {mass0} kg"
        );
        max_ke = max_ke.max(kinetic_energy(&w, &map));
        let version = w.cloth_topology_version(cloth).unwrap();
        assert!(version >= last_version);
        if version != last_version {
            // The render mesh grows by one vertex per split.
            assert_eq!(map.len() as u64, ((NU + 1) * (NV + 1)) as u64 + version);
        }
        last_version = version;
        let label = components(&tris, map.len());
        let mut roots: Vec<usize> = label.clone();
        roots.sort_unstable();
        roots.dedup();
        if roots.len() == 2 {
            // One piece holds the left column, the other the right one.
            let (left, right) = (label[vertex(0, 0) as usize], label[vertex(NU, 0) as usize]);
            assert_ne!(left, right);
            for j in 0..=NV {
                assert_eq!(label[vertex(0, j) as usize], left);
                assert_eq!(label[vertex(NU, j) as usize], right);
            }
            break;
        }
        assert_eq!(roots.len(), 1, "step {step}: {} pieces", roots.len());
    }
    let (mut tris, map) = topology(&w, cloth);
    let mut sources = vec![0; map.len()];
    let mut map2 = map.clone();
    w.read_cloth_topology_with_sources(cloth, &mut tris, &mut map2, Some(&mut sources))
        .unwrap();
    let n = ((NU + 1) * (NV + 1)) as usize;
    assert!(sources[..n].iter().enumerate().all(|(v, &s)| s == v as u32));
    // Every vertex a split added descends from a vertex near the seam (a crack may
    // kink by a cell or two), and most from the seam column itself.
    let cols: Vec<u32> = sources[n..].iter().map(|&s| s % (NU + 1)).collect();
    println!("columns of the split vertices: {cols:?}");
    assert!(cols.iter().all(|c| (6..=10).contains(c)), "{cols:?}");
    assert!(
        cols.iter().filter(|&&c| c == 8).count() >= NV as usize,
        "{cols:?}"
    );
    let status = w.cloth_tear_status(cloth).unwrap();
    println!(
        "threads {threads}: in two pieces after {steps} steps, {} splits, {} refused, \
         reserve left {}, max kinetic energy {max_ke:.4} J (bound {bound:.4} J)",
        status.version, status.refused, status.reserve_left
    );
    assert!(steps < 180, "the cloth did not tear in two in 3 s");
    assert!(max_ke < bound, "kinetic energy {max_ke} J above {bound} J");
    let positions: Vec<Vec3> = map
        .iter()
        .map(|&p| w.particles().position(p as usize))
        .collect();
    Run {
        steps,
        version: status.version,
        positions,
        hash: w.state_hash(),
    }
}

#[test]
fn a_cloth_pulled_from_both_sides_tears_in_two() {
    let one = tear_in_two(1);
    assert!(one.version > 0);
    // Both pieces recoil onto their pinned column: the seam is open.
    let two = tear_in_two(2);
    assert_eq!((one.steps, one.version), (two.steps, two.version));
    assert_eq!(one.positions, two.positions);
    assert_eq!(one.hash, two.hash);
}

/// Every particle pinned and the grid stretched along u by `s`: horizontal edges have
/// the ratio s exactly, diagonals √(s²a² + b²)/√(a² + b²) < s, vertical ones 1. One
/// step tears the cloth iff the threshold is below s.
fn tears_at(s: f32, threshold: f32) -> u64 {
    let mut w = world(1);
    let cloth = w
        .add_cloth_grid(
            &ClothDesc {
                tethers: false,
                ..ClothDesc::default()
            },
            &ClothGridDesc {
                segments_u: 4,
                segments_v: 4,
                ..ClothGridDesc::default()
            },
        )
        .unwrap();
    let (first, count) = w.body_particle_range(cloth).unwrap();
    let end = first + count;
    w.set_inverse_masses(first, &vec![0.0; (end - first) as usize])
        .unwrap();
    let stretched: Vec<Vec3> = (first..end)
        .map(|p| {
            let x = w.particles().position(p as usize);
            Vec3::new(x.x * s, x.y, x.z)
        })
        .collect();
    w.write_positions(first, &stretched).unwrap();
    w.set_cloth_tear_threshold(cloth, threshold, 8).unwrap();
    w.step(DT).unwrap();
    w.cloth_topology_version(cloth).unwrap()
}

#[test]
fn the_threshold_is_a_stretch_ratio() {
    let s = 1.2;
    let below = tears_at(s, s * 0.999);
    let above = tears_at(s, s * 1.001);
    println!(
        "stretch {s}: {below} splits with threshold {}, {above} with {}",
        s * 0.999,
        s * 1.001
    );
    assert!(below > 0);
    assert_eq!(above, 0);
    // A relaxed cloth never tears however low the threshold.
    assert_eq!(tears_at(1.0, 1.0001), 0);
}

#[test]
fn topology_reads_the_built_mesh_until_the_first_split() {
    let mut w = world(1);
    let cloth = pulled_cloth(&mut w);
    let (first, count) = w.body_particle_range(cloth).unwrap();
    let end = first + count;
    assert_eq!(w.cloth_topology_version(cloth).unwrap(), 0);
    let (tris, map) = topology(&w, cloth);
    assert_eq!(map, (first..end).collect::<Vec<_>>());
    assert_eq!(tris.len(), (2 * NU * NV) as usize);
    assert_eq!(tris[0], [vertex(0, 0), vertex(1, 0), vertex(1, 1)]);
    w.set_cloth_tear_threshold(cloth, 2.0, 40).unwrap();
    assert_eq!(topology(&w, cloth), (tris, map));
    let s = w.cloth_tear_status(cloth).unwrap();
    assert_eq!(
        (s.threshold, s.reserve_left, s.refused, s.version),
        (2.0, 40, 0, 0)
    );
    // The spares are particles of the world, inert until a split takes one.
    assert_eq!(w.particle_count(), end + 40);
    // Off again, then on with the same reserve.
    w.set_cloth_tear_threshold(cloth, 0.0, 0).unwrap();
    assert_eq!(w.cloth_tear_status(cloth).unwrap().threshold, f32::INFINITY);
    w.set_cloth_tear_threshold(cloth, 1.5, 40).unwrap();
    // Short buffers: an error, nothing written.
    let mut short = vec![[7; 3]; 3];
    let mut map = vec![7; 400];
    let e = w
        .read_cloth_topology(cloth, &mut short, &mut map)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfRange);
    assert!(map.iter().all(|&v| v == 7) && short.iter().flatten().all(|&v| v == 7));
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut w = world(1);
    let cloth = pulled_cloth(&mut w);
    let n = w.particle_count();
    for t in [f32::NAN, -1.0, 0.5, 1.0, f32::NEG_INFINITY] {
        let e = w.set_cloth_tear_threshold(cloth, t, 0).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{t}");
    }
    let e = w
        .set_cloth_tear_threshold(cloth, 1.5, sinew::MAX_TEAR_RESERVE + 1)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert_eq!(w.particle_count(), n);
    let rope = w.add_rope(&sinew::RopeDesc::default()).unwrap();
    let e = w.set_cloth_tear_threshold(rope, 1.5, 0).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    assert!(w.cloth_topology_version(rope).is_err());
    let strain = w
        .add_cloth_grid(
            &ClothDesc {
                model: sinew::ClothModel::Strain,
                ..ClothDesc::default()
            },
            &ClothGridDesc::default(),
        )
        .unwrap();
    assert!(w.set_cloth_tear_threshold(strain, 1.5, 0).is_err());
    // Wind and tearing exclude each other.
    w.set_body_aerodynamics(strain, 1.0, 0.0).unwrap();
    w.set_cloth_tear_threshold(cloth, 1.5, 10).unwrap();
    assert!(w.set_body_aerodynamics(cloth, 1.0, 0.0).is_err());
    let e = w.set_cloth_tear_threshold(cloth, 1.5, 11).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
    // Removing the body takes its spares and torn set with it.
    w.remove_body(cloth).unwrap();
    assert_eq!(
        w.set_cloth_tear_threshold(cloth, 1.5, 0).unwrap_err().kind,
        ErrorKind::InvalidHandle
    );
}

/// The reserve bounds the splits: with 2 spares the pulled cloth splits twice, then
/// counts the refused splits and stays finite.
#[test]
fn a_spent_reserve_stops_the_tearing() {
    let mut w = world(1);
    let cloth = pulled_cloth(&mut w);
    w.set_cloth_tear_threshold(cloth, THRESHOLD, 2).unwrap();
    for step in 1..=90 {
        pull(&mut w, cloth, step as f32 * DT);
        w.step(DT).unwrap();
    }
    let s = w.cloth_tear_status(cloth).unwrap();
    println!("reserve 2: {} splits, {} refused", s.version, s.refused);
    assert_eq!((s.version, s.reserve_left), (2, 0));
    assert!(s.refused > 0);
    let (_, map) = topology(&w, cloth);
    assert!(map
        .iter()
        .all(|&p| w.particles().position(p as usize).is_finite()));
}

/// A snapshot taken halfway through the tear carries the split state: a world made
/// from it tears on exactly as the original (same topology, same state hash).
#[test]
fn a_snapshot_mid_tear_replays_the_rest_of_the_tear() {
    let mut w = world(1);
    let cloth = pulled_cloth(&mut w);
    w.set_cloth_tear_threshold(cloth, THRESHOLD, 0).unwrap();
    let mut step = 0;
    while w.cloth_topology_version(cloth).unwrap() < 3 {
        step += 1;
        assert!(step < 120, "no tear");
        pull(&mut w, cloth, step as f32 * DT);
        w.step(DT).unwrap();
    }
    let bytes = w.snapshot();
    let mut copy = World::from_snapshot(&bytes, 2).unwrap();
    assert_eq!(copy.state_hash(), w.state_hash());
    for k in 1..=30 {
        let t = (step + k) as f32 * DT;
        pull(&mut w, cloth, t);
        pull(&mut copy, cloth, t);
        w.step(DT).unwrap();
        copy.step(DT).unwrap();
        assert_eq!(
            copy.state_hash(),
            w.state_hash(),
            "step {k} after the snapshot"
        );
    }
    assert!(w.cloth_topology_version(cloth).unwrap() > 3);
    assert_eq!(topology(&w, cloth), topology(&copy, cloth));
}

/// After splits, force readback by body reads the torn set, a body mass edit reaches
/// the spares too (the movable mass of the render vertices is the new total), and
/// turning tearing off keeps the topology.
#[test]
fn body_edits_reach_a_torn_cloth() {
    let mut w = world(1);
    let cloth = pulled_cloth(&mut w);
    w.set_cloth_tear_threshold(cloth, THRESHOLD, 0).unwrap();
    let mut step = 0;
    while w.cloth_topology_version(cloth).unwrap() < 2 {
        step += 1;
        assert!(step < 120, "no tear");
        pull(&mut w, cloth, step as f32 * DT);
        w.step(DT).unwrap();
    }
    // Force readback by body still reads the edges (now in the torn set), by their
    // built ids: the pulled cloth's edges carry tension.
    let n = w
        .body_force_count(cloth, sinew::BodyConstraints::Stretch)
        .unwrap();
    let mut forces = vec![0.0; n];
    w.read_body_forces(cloth, sinew::BodyConstraints::Stretch, &mut forces)
        .unwrap();
    let max = forces.iter().fold(0.0f32, |m, &f| m.max(f));
    assert!(max > 0.1 && max.is_finite(), "largest edge force {max} N");
    w.set_body_mass(cloth, 2.0).unwrap();
    let (_, map) = topology(&w, cloth);
    let mass = movable_mass(&w, &map);
    assert!(
        (mass - 2.0).abs() < 1e-5,
        "movable mass {mass} kg after set_body_mass(2)"
    );
    // Tearing off: the topology stays as it is.
    let version = w.cloth_topology_version(cloth).unwrap();
    w.set_cloth_tear_threshold(cloth, 0.0, 0).unwrap();
    for k in 1..=30 {
        pull(&mut w, cloth, (step + k) as f32 * DT);
        w.step(DT).unwrap();
    }
    assert_eq!(w.cloth_topology_version(cloth).unwrap(), version);
}
