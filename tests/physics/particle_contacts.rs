//! Particle contacts at scale: a pile of 20,000 particles in the box of the
//! `particles` benchmark scene settles without gaining energy and without deep
//! overlaps, also with one particle 100× faster than the rest (the case where one
//! global margin, set by the fastest particle, used to slow every particle down),
//! and the whole pipeline (neighbour search, contacts, colliders of every shape) is
//! bit-identical for 1, 2, 4 and 8 threads.
//!
//! The completeness of the neighbour lists against a brute-force search over all
//! pairs is tested beside the search (`src/collision/neighbours.rs`).

use std::collections::HashMap;

use sinew::scenes::{self, FRAME_DT, PARTICLE_RADIUS};
use sinew::{ColliderDesc, Quat, Shape, Vec3, World, WorldDesc};

const GRAVITY: f32 = 9.81;
const COUNT: u32 = 20_000;

/// The `particles` benchmark scene with 20,000 particles (8 layers). The contact rule
/// (Jacobi, mass-split over the particles' contacts, over-relaxed) lets a stack compress by about
/// `4 g h²` per layer and contact: with 10 substeps the bottom of 8 layers overlaps
/// by some 25% under the weight, with 40 substeps by under 5%; the pile tests run 40.
fn pile(threads: u32, substeps: u32) -> World {
    let desc = WorldDesc {
        threads,
        substeps,
        ..scenes::default_desc()
    };
    scenes::particles(COUNT, desc).expect("scene").world
}

/// Kinetic + potential energy (J; every particle has 1 kg).
fn energy(w: &World) -> f64 {
    let p = w.particles();
    (0..p.len())
        .map(|i| {
            let v = p.velocity(i);
            0.5 * v.length_squared() as f64 + GRAVITY as f64 * p.position(i).y as f64
        })
        .sum()
}

/// The deepest overlap of any two particles, as a fraction of their radius sum (every
/// radius is [`PARTICLE_RADIUS`]), found on a grid of cells one diameter wide.
fn deepest_overlap(w: &World) -> f32 {
    let p = w.particles();
    let d = 2.0 * PARTICLE_RADIUS;
    let cell = |x: Vec3| -> [i32; 3] { (x / d).floor().as_ivec3().to_array() };
    let mut grid: HashMap<[i32; 3], Vec<usize>> = HashMap::new();
    for i in 0..p.len() {
        grid.entry(cell(p.position(i))).or_default().push(i);
    }
    let mut deepest = 0.0f32;
    for i in 0..p.len() {
        let x = p.position(i);
        let c = cell(x);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(list) = grid.get(&[c[0] + dx, c[1] + dy, c[2] + dz]) else {
                        continue;
                    };
                    for &j in list {
                        if j != i {
                            let gap = (x - p.position(j)).length();
                            deepest = deepest.max((d - gap) / d);
                        }
                    }
                }
            }
        }
    }
    deepest
}

/// Steps the pile for 0.75 s. Every frame: no particle rises above the height the
/// initial energy allows the highest one (`max(y0 + v0² / 2g)`, the top of the drop;
/// particles of the lower layers do end up above their own start, on top of the
/// ones that landed first), and no pair overlaps by more than 5% of the radius sum.
/// From 0.5 s on (settled), the total energy never grows from one frame to the next.
fn settle(mut w: World) -> World {
    let p = w.particles();
    let ceiling = (0..p.len())
        .map(|i| p.position(i).y + p.velocity(i).length_squared() / (2.0 * GRAVITY))
        .fold(f32::MIN, f32::max)
        + 1.0e-4;
    let mut last = f64::INFINITY;
    let mut deepest = 0.0f32;
    for frame in 0..45 {
        w.step(FRAME_DT).unwrap();
        let p = w.particles();
        for i in 0..p.len() {
            let y = p.position(i).y;
            assert!(
                y <= ceiling,
                "frame {frame}: particle {i} rose to {y} m (top {ceiling})"
            );
        }
        let overlap = deepest_overlap(&w);
        deepest = deepest.max(overlap);
        assert!(
            overlap <= 0.05,
            "frame {frame}: overlap {overlap} of the radius sum"
        );
        if frame >= 30 {
            let e = energy(&w);
            assert!(e <= last, "frame {frame}: energy grew from {last} to {e} J");
            last = e;
        }
    }
    println!("deepest overlap over the settle: {deepest:.4} of the radius sum");
    w
}

#[test]
fn pile_settles_without_gaining_energy() {
    let w = settle(pile(2, 40));
    // Settled on the ground: the lowest particles rest one radius above it.
    let p = w.particles();
    let min_y = (0..p.len())
        .map(|i| p.position(i).y)
        .fold(f32::MAX, f32::min);
    assert!((min_y - PARTICLE_RADIUS).abs() < 1.0e-3, "min y {min_y}");
}

#[test]
fn one_fast_particle_neither_tunnels_nor_widens_every_search() {
    let mut w = pile(2, 40);
    // Everything falls at 5 cm/s, one particle at 5 m/s from 0.3 m above the others.
    let fast = COUNT as usize - 1300;
    let mut v = vec![Vec3::new(0.0, -0.05, 0.0); COUNT as usize];
    v[fast] = Vec3::new(0.0, -5.0, 0.0);
    w.write_velocities(0, &v).unwrap();
    let mut x = w.particles().position(fast);
    x.y += 0.3;
    w.write_positions(fast as u32, &[x]).unwrap();
    w.step(FRAME_DT).unwrap();
    // Still in flight: searched on its own, while the others keep short lists (one
    // margin for all, set by the fast particle, listed ~26 neighbours each here).
    let s = w.neighbour_stats();
    assert_eq!(s.fast, 1, "{s:?}");
    let mean = s.pairs as f64 / s.particles as f64;
    assert!(mean < 8.0, "mean neighbours {mean}: {s:?}");
    settle(w);
}

/// FNV-1a over the bits of every position and velocity.
fn fingerprint(w: &World) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let p = w.particles();
    for i in 0..p.len() {
        let (x, v) = (p.position(i), p.velocity(i));
        for c in [x.x, x.y, x.z, v.x, v.y, v.z] {
            for b in c.to_bits().to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    h
}

#[test]
fn contacts_and_colliders_are_bit_identical_for_any_thread_count() {
    let run = |threads: u32| -> (u64, u64) {
        let mut w = pile(threads, 10);
        // A fast particle, and colliders of every convex shape inside the box.
        let mut v = vec![Vec3::ZERO; COUNT as usize];
        v[COUNT as usize - 7] = Vec3::new(1.0, -3.0, 0.5);
        w.write_velocities(0, &v).unwrap();
        let shapes = [
            Shape::Sphere { radius: 0.15 },
            Shape::Capsule {
                radius: 0.05,
                half_height: 0.2,
            },
            Shape::Box {
                half_extents: Vec3::new(0.1, 0.03, 0.2),
            },
        ];
        for (k, shape) in shapes.into_iter().enumerate() {
            w.add_collider(&ColliderDesc {
                shape,
                position: Vec3::new(k as f32 * 0.35 - 0.35, 0.05, 0.1),
                rotation: Quat::from_rotation_z(0.3 * k as f32),
                static_friction: 0.4,
                dynamic_friction: 0.3,
                restitution: 0.2,
                ..ColliderDesc::default()
            })
            .unwrap();
        }
        for _ in 0..20 {
            w.step(FRAME_DT).unwrap();
        }
        (fingerprint(&w), w.neighbour_stats().pairs)
    };
    let reference = run(1);
    for threads in [2, 4, 8] {
        assert_eq!(run(threads), reference, "threads {threads}");
    }
}

/// A weightless world of one thread (or `threads`) with `substeps` of one iteration.
fn weightless(substeps: u32, threads: u32) -> World {
    World::new(WorldDesc {
        gravity: Vec3::ZERO,
        substeps,
        iterations: 1,
        threads,
        ..WorldDesc::default()
    })
    .unwrap()
}

/// Two particles a host added at one point have no separation to push along: a
/// coincident pair is pushed apart along a fixed direction of its own, opposite for
/// its two sides (`kernels::contact::coincident_normal`, whose directions have an xy
/// part of √3/2). One substep of one iteration: the lone pair closes its overlap
/// exactly, so the two end one radius sum apart about their unmoved midpoint, √3/2 of
/// it in xy. In a planar world the z part is dropped at the end of the substep (√3/2
/// of the radius sum, in the plane). The push becomes their velocity, as every PBD
/// correction. Before, the pair was never pushed (no contact normal).
#[test]
fn two_coincident_particles_are_pushed_one_radius_sum_apart() {
    let half_sqrt3 = 0.5 * 3.0f32.sqrt();
    for plane in [None, Some(0.25)] {
        let mut w = weightless(1, 1);
        w.set_planar(plane).unwrap();
        let at = Vec3::new(1.0, 2.0, plane.unwrap_or(-0.5));
        w.add_particles(&[at, at], None).unwrap();
        w.set_particle_radii(0, &[0.03, 0.05]).unwrap();
        w.step(FRAME_DT).unwrap();
        let p = w.particles();
        let (a, b) = (p.position(0), p.position(1));
        let d = a - b;
        let xy = d.truncate().length();
        assert!((xy - 0.08 * half_sqrt3).abs() < 2.0e-6, "{plane:?}: {d}");
        assert!(((a + b) * 0.5 - at).length() < 2.0e-6, "{plane:?}: {a} {b}");
        let expected = match plane {
            None => 0.08,
            Some(z) => {
                assert!(a.z == z && b.z == z, "{a} {b}");
                0.08 * half_sqrt3
            }
        };
        assert!((d.length() - expected).abs() < 2.0e-6, "{plane:?}: {d}");
        // The push became velocity (x − x_prev) / h: equal and opposite.
        let (va, vb) = (p.velocity(0), p.velocity(1));
        assert!((va + vb).length() < 1.0e-3, "momentum {va} {vb}");
        assert!((va - vb - d / FRAME_DT).length() < 1.0e-3, "{va} {vb} {d}");
    }
}

/// A clump of 1,500 particles added at one point (weightless, 8 substeps) spreads:
/// after one step no two particles coincide (closer than 1 µm); every push is equal
/// and opposite, so the centroid stays where the clump was and the momentum stays
/// zero; after 30 frames no pair overlaps by more than 1% of the radius sum; and 1 and
/// 2 threads give the same bits. Before, the clump stayed one point (and cost N² pair
/// tests every step). Each particle lists at most 256 partners of its own scan
/// (`MAX_LISTED`: a clump of 1,500 is a crowd), in the dense layout from both sides,
/// so these pushes stay equal and opposite too.
#[test]
fn a_clump_of_coincident_particles_spreads() {
    let n = 1500;
    let at = Vec3::new(-3.0, 1.0, 2.0);
    let run = |threads: u32| -> World {
        let mut w = weightless(8, threads);
        w.add_particles(&vec![at; n], None).unwrap();
        w.set_particle_radii(0, &vec![PARTICLE_RADIUS; n]).unwrap();
        w.step(FRAME_DT).unwrap();
        w
    };
    let mut w = run(1);
    assert_eq!(fingerprint(&w), fingerprint(&run(2)), "1 and 2 threads");
    let centroid_and_momentum = |w: &World| {
        let p = w.particles();
        let (mut c, mut m, mut speed) = (Vec3::ZERO, Vec3::ZERO, 0.0f32);
        for i in 0..p.len() {
            c += p.position(i) / p.len() as f32;
            m += p.velocity(i);
            speed += p.velocity(i).length();
        }
        (c, m, speed)
    };
    let closest = |w: &World| {
        let p = w.particles();
        let mut d = f32::MAX;
        for i in 0..p.len() {
            for j in 0..i {
                d = d.min((p.position(i) - p.position(j)).length());
            }
        }
        d
    };
    assert!(closest(&w) > 1.0e-6, "closest pair {}", closest(&w));
    let (c, m, speed) = centroid_and_momentum(&w);
    assert!((c - at).length() < 1.0e-4, "centroid {c}");
    assert!(
        speed > 0.0 && m.length() < 1.0e-4 * speed,
        "momentum {m} of {speed}"
    );
    for _ in 1..30 {
        w.step(FRAME_DT).unwrap();
    }
    let deepest = deepest_overlap(&w);
    assert!(deepest < 0.01, "deepest overlap {deepest}");
    let (c, m, speed) = centroid_and_momentum(&w);
    assert!((c - at).length() < 1.0e-3, "centroid {c}");
    assert!(m.length() < 1.0e-4 * speed, "momentum {m} of {speed}");
}

/// A boulder among small particles (radius 0.25 m on a pinned bed of 2 cm ones, 4 cm
/// apart) is *wide* (radius above 4 times the mean): searched on its own like a fast
/// particle, so the search's cells stay sized by the bed (a boulder sizing them made
/// every particle test hundreds of times more candidates: README, "Particle
/// contacts", for the interleaved figures). Dropped from 0.35 m above its
/// resting height, centred over a bed particle, it rests on that particle alone (its
/// lattice neighbours are farther than the radii sum): centre at the bed's height plus
/// 0.25 + 0.02 m, above the particle, the same bits on 1 and 2 threads.
#[test]
fn a_boulder_rests_on_a_bed_of_small_particles() {
    let (r, big, d) = (0.02f32, 0.25f32, 0.04f32);
    let run = |threads: u32| -> World {
        let mut w = World::new(WorldDesc {
            threads,
            ..WorldDesc::default()
        })
        .unwrap();
        let mut x = Vec::new();
        for i in -20..=20 {
            for k in -20..=20 {
                x.push(Vec3::new(i as f32 * d, 0.0, k as f32 * d));
            }
        }
        let bed = x.len();
        w.add_particles(&x, Some(&vec![0.0; bed])).unwrap();
        w.set_particle_radii(0, &vec![r; bed]).unwrap();
        let boulder = w
            .add_particles(&[Vec3::new(0.0, big + r + 0.35, 0.0)], Some(&[0.5]))
            .unwrap();
        w.set_particle_radii(boulder, &[big]).unwrap();
        for _ in 0..90 {
            w.step(FRAME_DT).unwrap();
        }
        w
    };
    let w = run(1);
    assert_eq!(
        w.neighbour_stats().fast,
        1,
        "the boulder is searched on its own"
    );
    let p = w.particles();
    let c = p.position(p.len() - 1);
    assert!((c.y - (big + r)).abs() < 1.0e-4, "boulder at {c}");
    assert!(c.x.abs() < 1.0e-4 && c.z.abs() < 1.0e-4, "boulder at {c}");
    assert!(p.velocity(p.len() - 1).length() < 1.0e-2, "at rest");
    assert_eq!(fingerprint(&w), fingerprint(&run(2)), "1 and 2 threads");
}

/// Detection culls bounded shapes per region of 512 particles before it culls them
/// per block of eight, when a world has more than eight (a level of many colliders
/// costs the particles the few near them, not all: README, "Colliders", for the
/// interleaved figures). A field of 256 boxes, 16 × 16, with
/// four particles above each box (1,024 particles in two regions, each region
/// spanning half the field), every other box rising 0.1 m over the run: every
/// particle ends resting on its own box (the box top plus its radius, where it was
/// laid across), and 1 and 2 threads give the same bits.
#[test]
fn many_colliders_each_hold_their_particles() {
    let (half, r, pitch) = (0.1f32, 0.02f32, 0.5f32);
    let frames = 60;
    let centre = |b: usize| Vec3::new((b % 16) as f32 * pitch, 0.0, (b / 16) as f32 * pitch);
    let rise = |b: usize, f: usize| {
        if b % 2 == 1 {
            0.1 * f as f32 / frames as f32
        } else {
            0.0
        }
    };
    let corners = [(-1.0f32, -1.0f32), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)];
    let run = |threads: u32| -> (World, Vec<Vec3>) {
        let mut w = World::new(WorldDesc {
            threads,
            ..WorldDesc::default()
        })
        .unwrap();
        let boxes: Vec<_> = (0..256)
            .map(|b| {
                w.add_collider(&ColliderDesc {
                    shape: Shape::Box {
                        half_extents: Vec3::splat(half),
                    },
                    position: centre(b),
                    ..ColliderDesc::default()
                })
                .unwrap()
            })
            .collect();
        let mut x = Vec::new();
        for b in 0..256 {
            for (k, (cx, cz)) in corners.iter().enumerate() {
                let up = 0.05 + 0.03 * k as f32;
                x.push(centre(b) + Vec3::new(cx * 0.05, half + r + up, cz * 0.05));
            }
        }
        w.add_particles(&x, None).unwrap();
        w.set_particle_radii(0, &vec![r; x.len()]).unwrap();
        for f in 1..=frames {
            for (b, &id) in boxes.iter().enumerate() {
                let at = centre(b) + Vec3::Y * rise(b, f);
                w.set_collider_transform(id, at, Quat::IDENTITY, false)
                    .unwrap();
            }
            w.step(FRAME_DT).unwrap();
        }
        (w, x)
    };
    let (w, laid) = run(1);
    let p = w.particles();
    for (i, x0) in laid.iter().enumerate() {
        let b = i / 4;
        let x = p.position(i);
        let top = rise(b, frames) + half + r;
        assert!(
            (x.y - top).abs() < 2.0e-3,
            "particle {i} on box {b}: {x}, top {top}"
        );
        assert!(
            (x.x - x0.x).abs() < 1.0e-3 && (x.z - x0.z).abs() < 1.0e-3,
            "{i}: {x} {x0}"
        );
    }
    assert_eq!(fingerprint(&w), fingerprint(&run(2).0), "1 and 2 threads");
}
