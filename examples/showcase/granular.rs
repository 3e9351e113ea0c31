//! The granular scene: sand poured from a grain emitter onto a slope, down which it
//! runs and heaps against a crate (granular materials: friction between particles,
//! src/particles/material.rs; the emitter: src/fluid/grains.rs).

use super::*;
use sinew::{EmitterDesc, EmitterShape, GrainEmitterDesc, ParticleMaterial};

/// The sand: grain radius (m), density (kg/m³), static and kinetic friction between
/// grains, the grains poured, the nozzle (centre, radius, speed down, rate: the last
/// grain leaves it at `SAND_GRAINS / SAND_RATE` s).
pub const SAND_RADIUS: f32 = 0.02;
pub const SAND_DENSITY: f32 = 1600.0;
pub const SAND_FRICTION: (f32, f32) = (0.6, 0.5);
/// Rolling resistance of the grains (round sand: caps the sliding coefficients).
pub const SAND_ROLLING: f32 = 0.4;
pub const SAND_GRAINS: u32 = 1250;
pub const SAND_NOZZLE: Vec3 = Vec3::new(-0.5, 1.15, 0.0);
pub const SAND_NOZZLE_RADIUS: f32 = 0.1;
pub const SAND_SPEED: f32 = 0.6;
pub const SAND_RATE: f32 = 250.0;
/// The slope: a box collider of these half extents (m) tilted by `SAND_SLOPE_DEG`
/// about z (down towards +x), its top face's centre at `SAND_SLOPE_TOP`; friction.
pub const SAND_SLOPE_HALF: Vec3 = Vec3::new(0.55, 0.1, 0.35);
pub const SAND_SLOPE_DEG: f32 = 26.0;
pub const SAND_SLOPE_CENTRE: Vec3 = Vec3::new(-0.25, 0.45, 0.0);
pub const SAND_WALL_FRICTION: f32 = 0.6;
/// The crate: a rigid cube of `SAND_CRATE_N`³ particles `SAND_CRATE_SPACING` m apart
/// (radius 0.6 of it: no grain fits between them), `SAND_CRATE_MASS` kg, standing on the ground at x =
/// `SAND_CRATE_X`.
pub const SAND_CRATE_N: u32 = 4;
pub const SAND_CRATE_SPACING: f32 = 0.1;
pub const SAND_CRATE_MASS: f32 = 6.0;
pub const SAND_CRATE_X: f32 = 0.52;
pub const SAND_SECONDS: f32 = 6.0;
/// The world's speed limit (m/s): below a grain radius per substep (9.6 m/s), so no
/// grain skips through another; it clips the stream's landing speed on the slope
/// (3.4 m/s from the nozzle 0.58 m above it).
pub const SAND_MAX_SPEED: f32 = 3.0;
/// Metrics of the sand scene (recorded at the end): the grains poured, the largest overlap of two grains at
/// the end as a fraction of their radius sum, the grains on the slope and at rest at
/// the end (within its top face's extent, above it, slower than 5 cm/s), how far the
/// crate moved (m), the fastest grain at the end (m/s), and the grains the emitter
/// held for want of room (each step a grain waits counts once).
pub const SAND_METRICS: [&str; 6] = [
    "grains poured",
    "max grain overlap at the end / (r_i + r_j)",
    "grains resting on the slope at the end",
    "crate moved (m)",
    "fastest grain at the end (m/s)",
    "grains held by the nozzle (no room)",
];

/// The slope's rotation.
fn slope_rotation() -> Quat {
    Quat::from_rotation_z(-SAND_SLOPE_DEG.to_radians())
}

/// Whether `x` lies over the slope's top face (within its extent) and above it.
pub fn over_slope(x: Vec3) -> bool {
    let local = slope_rotation().inverse() * (x - SAND_SLOPE_CENTRE);
    local.x.abs() <= SAND_SLOPE_HALF.x && local.z.abs() <= SAND_SLOPE_HALF.z && local.y > 0.0
}

/// The 12 triangles of a box over 8 corner indices (bit 0: +x, bit 1: +y, bit 2: +z),
/// wound outward.
fn box_tris(c: [u32; 8]) -> Vec<[u32; 3]> {
    let faces = [
        [0, 2, 6, 4], // −x
        [1, 5, 7, 3], // +x
        [0, 4, 5, 1], // −y
        [2, 3, 7, 6], // +y
        [0, 1, 3, 2], // −z
        [4, 6, 7, 5], // +z
    ];
    faces
        .iter()
        .flat_map(|f| [[c[f[0]], c[f[1]], c[f[2]]], [c[f[0]], c[f[2]], c[f[3]]]])
        .collect()
}

/// Sand poured onto a slope and a crate: 1250 grains (radius 2 cm, μ_s 0.6, μ_k 0.5
/// between grains, rolling resistance 0.4) leave a nozzle above the top of a 26° slope
/// at 250 a second, heap where they land, run down the slope and pile against a 6 kg
/// crate on the ground. The nozzle stands 0.58 m above the slope, over the heap the
/// pour builds under it (a lower one, 0.18 m up, is reached by the heap and then holds
/// grains until there is room: the emitter waits, docs/concepts.md, "Granular
/// materials"); the speed limit clips the stream's landing speed (3.4 m/s).
pub fn sand() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 8,
        iterations: 4,
        ..WorldDesc::default()
    });
    ground(&mut sim, SAND_WALL_FRICTION, SAND_WALL_FRICTION - 0.1, 0.0);
    sim.world
        .set_max_speed(SAND_MAX_SPEED)
        .expect("speed limit is valid");
    let slope = ColliderDesc {
        shape: ColliderShape::Box {
            half_extents: SAND_SLOPE_HALF,
        },
        position: SAND_SLOPE_CENTRE - slope_rotation() * Vec3::new(0.0, SAND_SLOPE_HALF.y, 0.0),
        rotation: slope_rotation(),
        static_friction: SAND_WALL_FRICTION,
        dynamic_friction: SAND_WALL_FRICTION - 0.1,
        ..ColliderDesc::default()
    };
    sim.world.add_collider(&slope).expect("slope is valid");
    // The slope drawn: its corners as pinned particles outside every contact.
    let corners: Vec<Vec3> = (0..8)
        .map(|b| {
            let s = |bit: u32| if b & (1 << bit) != 0 { 1.0 } else { -1.0 };
            let h = SAND_SLOPE_HALF;
            slope.position + slope.rotation * Vec3::new(s(0) * h.x, s(1) * h.y, s(2) * h.z)
        })
        .collect();
    let first = sim.particles(&corners, &[0.0; 8]);
    let inert = CollisionFilter {
        layers: 0,
        mask: 0,
        ..CollisionFilter::default()
    };
    sim.world
        .set_collision_filters(first, &[inert; 8])
        .expect("corners exist");
    sim.shapes.push(Shape::Mesh {
        tris: box_tris(std::array::from_fn(|k| first + k as u32)),
        smooth: false,
        front: Rgb::hex(0x8a96a8),
        back: Rgb::hex(0x454b54),
    });
    // The crate: a rigid cluster of grains-sized particles with the sand's friction.
    let (n, s) = (SAND_CRATE_N, SAND_CRATE_SPACING);
    let half = 0.5 * (n - 1) as f32 * s;
    let base = Vec3::new(SAND_CRATE_X, 0.5 * s, 0.0);
    let at: Vec<Vec3> = (0..n * n * n)
        .map(|i| {
            let (a, b, c) = (i % n, (i / n) % n, i / (n * n));
            base + Vec3::new(a as f32 * s - half, b as f32 * s, c as f32 * s - half)
        })
        .collect();
    let count = at.len() as u32;
    let crate_first = sim.particles(&at, &vec![SAND_CRATE_MASS / count as f32; at.len()]);
    sim.world
        .set_particle_radii(crate_first, &vec![0.6 * s; at.len()])
        .expect("crate exists");
    let sand = ParticleMaterial {
        static_friction: SAND_FRICTION.0,
        dynamic_friction: SAND_FRICTION.1,
        rolling_friction: SAND_ROLLING,
        ..ParticleMaterial::default()
    };
    sim.world
        .set_particle_material(crate_first, count, &sand)
        .expect("crate exists");
    let members: Vec<u32> = (crate_first..crate_first + count).collect();
    sim.world
        .add_shape_cluster(&members, 1.0, f32::INFINITY, 0.0)
        .expect("crate cluster");
    sim.world
        .set_collision_filters(
            crate_first,
            &vec![
                CollisionFilter {
                    group: 1,
                    ..CollisionFilter::default()
                };
                at.len()
            ],
        )
        .expect("crate exists");
    let corner =
        |a: u32, b: u32, c: u32| crate_first + a * (n - 1) + b * (n - 1) * n + c * (n - 1) * n * n;
    sim.shapes.push(Shape::Mesh {
        tris: box_tris(std::array::from_fn(|k| {
            let k = k as u32;
            corner(k & 1, (k >> 1) & 1, (k >> 2) & 1)
        })),
        smooth: false,
        front: Rgb::hex(0xb07a3c),
        back: Rgb::hex(0x5a3e1e),
    });
    let crate_start = centre_of_mass(&sim, crate_first, count);
    // The sand: a grain emitter.
    let grains = GrainEmitterDesc {
        budget: SAND_GRAINS,
        grain_radius: SAND_RADIUS,
        grain_density: SAND_DENSITY,
        ..GrainEmitterDesc::default()
    };
    let stream = EmitterDesc {
        shape: EmitterShape::Nozzle {
            radius: SAND_NOZZLE_RADIUS,
        },
        position: SAND_NOZZLE,
        rotation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
        speed: SAND_SPEED,
        rate: SAND_RATE,
    };
    let pour = sim
        .world
        .add_grain_emitter(&grains, &stream, &sand)
        .expect("grain emitter");
    let stats = sim.world.grain_emitter_stats(pour).expect("grain emitter");
    let mass = grains.grain_mass();
    sim.mass.resize((stats.first + stats.budget) as usize, mass);
    sim.inv_mass
        .resize((stats.first + stats.budget) as usize, 1.0 / mass);
    for i in 0..stats.budget {
        let s = i as f32 / (stats.budget - 1) as f32;
        sim.shapes.push(Shape::Ball {
            particle: stats.first + i,
            radius: SAND_RADIUS,
            colour: Rgb::hex(0xe0c07a).lerp(Rgb::hex(0xc08a48), s),
        });
    }
    sim.shapes.push(Shape::Tube {
        a: SAND_NOZZLE + Vec3::new(0.0, 0.02, 0.0),
        b: SAND_NOZZLE + Vec3::new(0.0, 0.3, 0.0),
        radius: SAND_NOZZLE_RADIUS + 0.01,
        colour: Rgb::hex(0x6a7380),
    });
    let dt = 1.0 / SIM_HZ;
    let drive = move |sim: &mut Sim, _t: f32| {
        let s = sim.world.grain_emitter_stats(pour).expect("grain emitter");
        sim.status = format!("{} grains", s.emitted);
    };
    let observe = move |sim: &mut Sim, t: f32| {
        if t + 0.5 * dt < SAND_SECONDS {
            return;
        }
        let s = sim.world.grain_emitter_stats(pour).expect("grain emitter");
        let range = s.first as usize..(s.first + s.emitted) as usize;
        let p = sim.positions();
        let grains = &p[range.clone()];
        let v: Vec<Vec3> = range
            .clone()
            .map(|i| sim.world.particles().velocity(i))
            .collect();
        let resting = grains
            .iter()
            .zip(&v)
            .filter(|(x, v)| over_slope(**x) && v.length() < 0.05)
            .count();
        let moved = centre_of_mass(sim, crate_first, count).distance(crate_start);
        let fastest = v.iter().map(|v| v.length()).fold(0.0, f32::max);
        sim.set_count(SAND_METRICS[0], s.emitted as usize);
        sim.set_metric(SAND_METRICS[1], max_overlap(grains, SAND_RADIUS) as f64);
        sim.set_count(SAND_METRICS[2], resting);
        sim.set_metric(SAND_METRICS[3], moved as f64);
        sim.set_metric(SAND_METRICS[4], fastest as f64);
        sim.set_count(SAND_METRICS[5], s.held as usize);
    };
    Scene {
        name: "sand",
        title: "Sand poured onto a slope and a crate",
        seconds: SAND_SECONDS,
        still_at: 4.0,
        eye: Vec3::new(0.4, 1.5, 2.6),
        target: Vec3::new(0.0, 0.35, 0.0),
        fov_deg: 48.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        // The last grain leaves the nozzle at 5 s (the emitter adds energy until then).
        free_after: SAND_GRAINS as f32 / SAND_RATE + dt,
        labels: Vec::new(),
    }
}
