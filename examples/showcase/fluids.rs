//! The fluid scenes (Position Based Fluids coupled two-way with the bodies): soft
//! rings floating in a 2D tank (Matsuoka, "Soft bodies and fluids with Position Based
//! Dynamics" (2025)), a 3D dam break that hits a pressure ball and a hanging cloth, and
//! a hose that fills a box in which a ball floats up with the water.

use super::*;
use sinew::scenes as bench;
use sinew::{DiffuseDesc, EmitterDesc, EmitterShape, FluidDesc};

const WALL: Rgb = Rgb::hex(0xb8bec8);

/// The water's ellipsoids: Yu & Turk's defaults drawn `scale` times half the spacing
/// across in the bulk (a little more than touching, so that the water reads as one
/// body rather than as beads once smoothed).
fn ellipsoids(scale: f32) -> AnisotropyDesc {
    AnisotropyDesc {
        scale,
        isolated_scale: 0.8,
        ..AnisotropyDesc::default()
    }
}

/// Water `depth` m deep absorbs half the red; `body` m more counted everywhere; the
/// light in 6 bands.
fn water_look(depth: f32, body: f32) -> WaterLook {
    WaterLook {
        body,
        bands: 6,
        ..WaterLook::clear(depth)
    }
}

/// Spray, foam and bubbles for water a few tenths of a metre deep: up to `capacity`
/// of them living `lifetime` s, spawned from 1.4 m/s (½v² = 1 J/kg, full at 8 J/kg;
/// the library's defaults are for faster water) where air is trapped or a crest
/// breaks, at most 10 a second per fluid particle (the library's 50 whiten these
/// small tanks). Render state only: the water moves the same with or without them.
fn spray(sim: &mut Sim, fluid: FluidId, capacity: u32, lifetime: f32) {
    let desc = DiffuseDesc {
        capacity,
        lifetime,
        trapped_air_min: 3.0,
        trapped_air_max: 15.0,
        energy_min: 1.0,
        energy_max: 8.0,
        trapped_air_rate: 10.0,
        wave_crest_rate: 10.0,
        ..DiffuseDesc::default()
    };
    sim.world
        .set_fluid_diffuse(fluid, &desc)
        .expect("diffuse desc is valid");
}

/// The edges of an open box `lo..hi` (m) as thin marks: the floor's outline, the
/// vertical edges and the rim at the top of `hi`.
fn box_edges(sim: &mut Sim, lo: Vec3, hi: Vec3) {
    let corners = [(lo.x, lo.z), (hi.x, lo.z), (hi.x, hi.z), (lo.x, hi.z)];
    for k in 0..4 {
        let (x0, z0) = corners[k];
        let (x1, z1) = corners[(k + 1) % 4];
        for y in [lo.y, hi.y] {
            sim.shapes.push(Shape::Mark {
                a: Vec3::new(x0, y, z0),
                b: Vec3::new(x1, y, z1),
                colour: WALL,
            });
        }
        sim.shapes.push(Shape::Mark {
            a: Vec3::new(x0, lo.y, z0),
            b: Vec3::new(x0, hi.y, z0),
            colour: WALL,
        });
    }
}

/// Plane colliders of an open box `lo..hi` (m): the floor and the four walls, facing
/// in, with friction μ.
fn box_walls(sim: &mut Sim, lo: Vec3, hi: Vec3, mu: f32) {
    use std::f32::consts::FRAC_PI_2;
    for (position, rotation) in [
        (lo, Quat::IDENTITY),
        (lo, Quat::from_rotation_z(-FRAC_PI_2)),
        (hi, Quat::from_rotation_z(FRAC_PI_2)),
        (lo, Quat::from_rotation_x(FRAC_PI_2)),
        (hi, Quat::from_rotation_x(-FRAC_PI_2)),
    ] {
        sim.world
            .add_collider(&ColliderDesc {
                shape: ColliderShape::Plane,
                position,
                rotation,
                static_friction: mu,
                dynamic_friction: mu,
                ..ColliderDesc::default()
            })
            .expect("wall is valid");
    }
}

/// The live particles' mean and largest ρ/ρ₀ and their count, for the corner text.
/// A pressure ball of `radius` (m) at `centre`, `density` times the water's, whose
/// particles (radius s/2, collision group 1) couple with the water; drawn as a
/// smooth mesh. Returns the body and its particle range.
fn floating_ball(
    sim: &mut Sim,
    s: f32,
    radius: f32,
    centre: Vec3,
    density: f32,
) -> (BodyId, u32, u32) {
    let (bv, btris) = icosphere(2, radius, centre);
    let mass = density * 1000.0 * 4.0 / 3.0 * std::f32::consts::PI * radius.powi(3);
    let ball = sim
        .world
        .add_pressure_body(
            &PressureBodyDesc {
                total_mass: mass,
                stretch_compliance: 1.0e-5,
                damping: 0.5,
                ..PressureBodyDesc::default()
            },
            &bv,
            &btris,
            None,
        )
        .expect("ball is valid");
    let (first, count) = sim.adopt_body(ball);
    sim.world
        .set_particle_radii(first, &vec![0.5 * s; count as usize])
        .expect("ball particles exist");
    let filter = CollisionFilter {
        group: 1,
        ..CollisionFilter::default()
    };
    sim.world
        .set_collision_filters(first, &vec![filter; count as usize])
        .expect("ball particles exist");
    sim.shapes.push(Shape::Mesh {
        tris: btris.iter().map(|t| t.map(|p| p + first)).collect(),
        smooth: true,
        front: Rgb::hex(0xf2c14e),
        back: Rgb::hex(0x806020),
    });
    (ball, first, count)
}

fn fluid_status(sim: &Sim, fluid: FluidId) -> String {
    let stats = sim.world.fluid_stats(fluid).expect("fluid exists");
    format!(
        "{} fluid particles, rho/rho0 mean {:.3} max {:.3}",
        stats.count, stats.mean_density_ratio, stats.max_density_ratio
    )
}

/// Largest distance (m) by which a point lies outside the box `lo..hi` (negative when
/// all are inside); the top is open: points above `hi.y` count as inside.
fn outside_box(points: &[Vec3], lo: Vec3, hi: Vec3) -> f32 {
    points
        .iter()
        .map(|p| {
            (lo.x - p.x)
                .max(p.x - hi.x)
                .max(lo.y - p.y)
                .max(lo.z - p.z)
                .max(p.z - hi.z)
        })
        .fold(f32::NEG_INFINITY, f32::max)
}

/// The floating rings: width of the tank in fluid columns (`sinew::scenes::rings_2d`),
/// the ring that is pushed under (index into `RINGS_DENSITY`; the hand holds each of
/// its particles), the grabs' compliance (m/N), when the hand grabs,
/// reaches the bottom of its push and lets go (s), how deep it pushes (the ring's
/// centre, m above the floor), and the scene's length (s).
pub const RINGS_COLUMNS: u32 = 100;
pub const RINGS_PUSHED: usize = 0;
pub const RINGS_GRAB_COMPLIANCE: f32 = 1.0e-5;
pub const RINGS_GRAB_AT: f32 = 2.0;
pub const RINGS_PUSHED_AT: f32 = 3.0;
pub const RINGS_RELEASE_AT: f32 = 3.4;
pub const RINGS_PUSH_TO: f32 = 0.2;
pub const RINGS_SECONDS: f32 = 5.5;
/// Metric names: each ring's centre above the water surface at the end (m, in
/// `RINGS_DENSITY` order; the surface is the median height of the highest particle of
/// each 2s wide column of water clear of the rings), the pushed ring's lowest centre
/// while held (m above the floor), the water's largest distance past the tank over the
/// run (m), the mean and largest ρ/ρ₀ at the end.
pub const RINGS_HEIGHTS: [&str; 4] = [
    "ring 0.25 centre above the water surface at the end (m)",
    "ring 0.50 centre above the water surface at the end (m)",
    "ring 0.75 centre above the water surface at the end (m)",
    "ring 2.00 centre above the water surface at the end (m)",
];
pub const RINGS_SURFACE: &str = "water surface at the end (m above the floor)";
/// Metric names: where Archimedes puts each light ring's centre above the surface (m):
/// a circle of the ring's outer radius (R plus its particles' radius) whose density
/// is the ring's mass over that circle's area ([`ring_archimedes_height`]).
pub const RINGS_ARCHIMEDES: [&str; 3] = [
    "ring 0.25 centre above the surface by Archimedes (m)",
    "ring 0.50 centre above the surface by Archimedes (m)",
    "ring 0.75 centre above the surface by Archimedes (m)",
];
pub const RINGS_PUSHED_LOW: &str = "pushed ring: lowest centre while held (m above the floor)";
pub const RINGS_OUTSIDE: &str = "max over the run of the water's distance past the tank (m)";
pub const RINGS_MEAN_DENSITY: &str = "water mean rho/rho0 at the end";
pub const RINGS_MAX_DENSITY: &str = "water max rho/rho0 at the end";

/// The rings' colours (fill, outline), light to heavy.
const RING_COLOURS: [(u32, u32); 4] = [
    (0xf2c14e, 0xa87a14),
    (0xf28e4e, 0xa8521c),
    (0xe0607e, 0x99304a),
    (0x6f6a80, 0x3a3648),
];

/// The height (m) of a 2D water surface: the median over columns `column` m wide of
/// the highest particle in each, leaving out the columns within `clear` m of a body's
/// centre (bodies raise or lower the water next to them).
pub fn water_surface(water: &[Vec3], bodies: &[Vec3], column: f32, clear: f32) -> f32 {
    let mut top = std::collections::BTreeMap::<i32, f32>::new();
    for p in water {
        let k = (p.x / column).floor() as i32;
        let mid = (k as f32 + 0.5) * column;
        if bodies.iter().all(|b| (b.x - mid).abs() > clear) {
            let t = top.entry(k).or_insert(f32::NEG_INFINITY);
            *t = t.max(p.y);
        }
    }
    let mut tops: Vec<f32> = top.into_values().collect();
    tops.sort_by(f32::total_cmp);
    tops.get(tops.len() / 2).copied().unwrap_or(f32::NAN)
}

/// Where a floating circle of radius `r` and density `f` times the liquid's rides:
/// its centre's height above the surface (m) at which the circle's part below the
/// surface holds the fraction `f` of its area (Archimedes in 2D; f in [0, 1]).
pub fn floating_circle_height(f: f32, r: f32) -> f32 {
    // The part of the unit circle below a line a distance d above the centre.
    let below = |d: f64| {
        let d = d.clamp(-1.0, 1.0);
        (std::f64::consts::PI - d.acos() + d * (1.0 - d * d).sqrt()) / std::f64::consts::PI
    };
    // below(d) rises with d: bisect for the line at which it is f; the centre is d
    // below the surface.
    let (mut lo, mut hi) = (-1.0f64, 1.0f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if below(mid) < f as f64 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    -(0.5 * (lo + hi)) as f32 * r
}

/// Where Archimedes puts the centre of a floating ring of density `density` (times
/// the water's, by its radius R) above the surface (m): a circle of the ring's outer
/// radius R + r (r: its particles' radius, which the water keeps clear of) and
/// density `density` · (R / (R + r))².
pub fn ring_archimedes_height(density: f32) -> f32 {
    let (r, outer) = (
        bench::RINGS_RADIUS,
        bench::RINGS_RADIUS + bench::RINGS_PARTICLE_RADIUS,
    );
    floating_circle_height(density * (r / outer).powi(2), outer)
}

/// Centre (m) of particles `first..first+count`.
fn centre(p: &[Vec3], first: u32, count: u32) -> Vec3 {
    p[first as usize..(first + count) as usize]
        .iter()
        .sum::<Vec3>()
        / count as f32
}

/// Soft rings in water, in 2D (the benchmark scene `sinew::scenes::rings_2d`): four
/// rings of 0.25, 0.5, 0.75 and 2 times the water's density are dropped into a tank of
/// 3000 fluid particles; the light ones float, riding deeper the denser they are, the
/// heavy one sinks to the floor. Buoyancy is not scripted: ring particles take part in
/// the water's density constraint with mass weighting (Macklin et al. 2014, section 7).
/// At 2 s a hand grabs the lightest ring (a compliant grab on each of its particles)
/// and pushes it down near the floor; let go at 3.4 s, it bobs back up to the surface.
pub fn floating_rings() -> Scene {
    let rings = bench::rings_2d(
        RINGS_COLUMNS,
        WorldDesc {
            threads: 1,
            ..bench::default_desc()
        },
    )
    .expect("rings scene");
    let (fluid, width, level) = (rings.fluid, rings.width, rings.water_level);
    let ring_list = rings.rings.clone();
    let mut sim = Sim::from_world(rings.scene.world);
    sim.adopt_fluid(fluid);
    let s = bench::RINGS_SPACING;
    spray(&mut sim, fluid, 1500, 1.0);
    sim.shapes.push(Shape::Fluid {
        fluid,
        anisotropy: ellipsoids(1.5),
        look: water_look(0.004, 0.0),
        colours: WaterColours {
            level: Some(level + 0.03),
            ..WaterColours::water(0.08, 3.0 * s)
        },
    });
    let mut labels = Vec::new();
    for (k, &(body, first, count, density)) in ring_list.iter().enumerate() {
        sim.adopt_links(body);
        let (fill, outline) = RING_COLOURS[k];
        sim.shapes.push(Shape::Ring {
            first,
            count,
            radius: 0.5 * s,
            colour: Rgb::hex(outline),
            fill: Rgb::hex(fill),
        });
        labels.push(format!("{density:.2}x"));
    }
    // The tank's floor and walls, drawn just outside the collider planes.
    let (top, e) = (level + 0.35, 0.5 * s);
    for (a, b) in [
        (Vec3::new(-e, -e, 0.0), Vec3::new(width + e, -e, 0.0)),
        (Vec3::new(-e, -e, 0.0), Vec3::new(-e, top, 0.0)),
        (
            Vec3::new(width + e, -e, 0.0),
            Vec3::new(width + e, top, 0.0),
        ),
    ] {
        sim.shapes.push(Shape::Tube {
            a,
            b,
            radius: e,
            colour: WALL,
        });
    }
    let (_, pushed_first, pushed_count, _) = ring_list[RINGS_PUSHED];
    let held: Vec<u32> = (pushed_first..pushed_first + pushed_count).collect();
    let dt = 1.0 / SIM_HZ;
    // The hand: where the ring's centre was when grabbed and the held particles'
    // offsets from it.
    let mut hand: Option<(Vec3, Vec<Vec3>)> = None;
    let drive = move |sim: &mut Sim, t: f32| {
        if t + 0.5 * dt < RINGS_GRAB_AT {
            sim.status = "rings dropped into the water".into();
            return;
        }
        if t + 0.5 * dt >= RINGS_RELEASE_AT {
            if !sim.held.is_empty() {
                for &i in &held {
                    sim.world.release_particle(i).expect("held particle");
                }
                sim.held.clear();
            }
            sim.status = "released: the light ring bobs back up".into();
            return;
        }
        let p = sim.positions();
        let (from, offsets) = hand.get_or_insert_with(|| {
            let c = centre(&p, pushed_first, pushed_count);
            let offsets: Vec<Vec3> = held.iter().map(|&i| p[i as usize] - c).collect();
            for &i in &held {
                sim.world
                    .grab_particle(i, p[i as usize], RINGS_GRAB_COMPLIANCE)
                    .expect("ring particle exists");
            }
            // The hand's marker on the ring's top particle (its first).
            sim.held.push(pushed_first);
            (c, offsets)
        });
        // The hand's centre at the end of this step: eased down to the push depth.
        let k = smoothstep((t + dt - RINGS_GRAB_AT) / (RINGS_PUSHED_AT - RINGS_GRAB_AT));
        let goal = Vec3::new(from.x, RINGS_PUSH_TO, 0.0);
        let now = from.lerp(goal, k);
        for (&i, &o) in held.iter().zip(offsets.iter()) {
            sim.world.move_grab(i, now + o).expect("held particle");
        }
        sim.status = "GRAB: the lightest ring is pushed under".into();
    };
    let observe = move |sim: &mut Sim, t: f32| {
        let p = sim.positions();
        let (water, _) = sim.fluid_particles(fluid);
        let tank = (
            Vec3::new(0.0, 0.0, -1.0),
            Vec3::new(width, f32::INFINITY, 1.0),
        );
        max_metric(
            sim,
            RINGS_OUTSIDE,
            outside_box(&water, tank.0, tank.1) as f64,
        );
        if (RINGS_GRAB_AT..RINGS_RELEASE_AT).contains(&t) {
            let c = centre(&p, pushed_first, pushed_count);
            min_metric(sim, RINGS_PUSHED_LOW, c.y as f64);
        }
        if t + 0.5 * dt >= RINGS_SECONDS {
            let centres: Vec<Vec3> = ring_list
                .iter()
                .map(|&(_, first, count, _)| centre(&p, first, count))
                .collect();
            let surface = water_surface(&water, &centres, 2.0 * s, bench::RINGS_RADIUS + 2.0 * s);
            sim.set_metric(RINGS_SURFACE, surface as f64);
            for (k, c) in centres.iter().enumerate() {
                sim.set_metric(RINGS_HEIGHTS[k], (c.y - surface) as f64);
            }
            for (k, name) in RINGS_ARCHIMEDES.iter().enumerate() {
                let density = bench::RINGS_DENSITY[k];
                sim.set_metric(name, ring_archimedes_height(density) as f64);
            }
            let stats = sim.world.fluid_stats(fluid).expect("fluid exists");
            sim.set_metric(RINGS_MEAN_DENSITY, stats.mean_density_ratio as f64);
            sim.set_metric(RINGS_MAX_DENSITY, stats.max_density_ratio as f64);
        }
        if !(RINGS_GRAB_AT..RINGS_RELEASE_AT).contains(&t) {
            let status = fluid_status(sim, fluid);
            if t < RINGS_GRAB_AT {
                sim.status = status;
            }
        }
    };
    Scene {
        name: "floating_rings",
        title: "Soft rings of 0.25x to 2x the water's density (2D)",
        seconds: RINGS_SECONDS,
        still_at: 3.0,
        eye: Vec3::new(0.5 * width, 0.5, 1.55),
        target: Vec3::new(0.5 * width, 0.45, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        free_after: RINGS_RELEASE_AT + dt,
        labels,
    }
}

/// The dam break: fluid spacing (m), the water block (cells along x, y, z), the tank's
/// length along x (m; its width along z is the block's), the pressure ball (radius,
/// centre, density as a fraction of the water's), the cloth (where its top edge
/// hangs along z, cells, total mass), the scene's length (s).
pub const DAM_SPACING: f32 = 0.03;
pub const DAM_BLOCK: [u32; 3] = [15, 20, 16];
pub const DAM_TANK_LENGTH: f32 = 1.5;
pub const DAM_BALL_RADIUS: f32 = 0.1;
pub const DAM_BALL_CENTRE: Vec3 = Vec3::new(0.85, 0.12, 0.24);
pub const DAM_BALL_DENSITY: f32 = 0.4;
pub const DAM_CLOTH_X: f32 = 1.2;
pub const DAM_CLOTH_TOP: f32 = 0.5;
pub const DAM_CLOTH_CELLS: (u32, u32) = (16, 12);
pub const DAM_CLOTH_MASS: f32 = 0.3;
pub const DAM_SECONDS: f32 = 5.0;
/// Metric names: the water's largest distance past the tank over the run (m), the
/// ball's largest centre speed (m/s) and its highest centre (m), the cloth's largest
/// swing of its lowest row along +x (m), the pressure ball's volume at the end over its
/// rest volume.
pub const DAM_OUTSIDE: &str = "max over the run of the water's distance past the tank (m)";
pub const DAM_BALL_SPEED: &str = "ball: largest speed of its centre (m/s)";
pub const DAM_BALL_RISE: &str = "ball: highest centre (m)";
pub const DAM_CLOTH_SWING: &str = "cloth: largest swing of its hem along +x (m)";
pub const DAM_BALL_VOLUME: &str = "ball: volume at the end / rest volume";

/// A 3D dam break: a block of 4800 fluid particles (3 cm apart) collapses along a
/// 1.5 m tank, hits a light pressure ball (0.4 times the water's density), which it
/// carries and floats, then a cloth hanging across the tank from two corners, which
/// billows downstream while the water runs under and through it and sloshes back.
/// The ball and the cloth take part in the water's density constraint (two-way
/// coupling): the water pushes them and they push the water.
pub fn dam_break() -> Scene {
    let s = DAM_SPACING;
    let [nx, ny, nz] = DAM_BLOCK;
    let width = nz as f32 * s;
    let mut sim = Sim::new(WorldDesc {
        substeps: 4,
        iterations: 2,
        threads: 1,
        ..WorldDesc::default()
    });
    let lo = Vec3::ZERO;
    let hi = Vec3::new(DAM_TANK_LENGTH, 0.75, width);
    box_walls(&mut sim, lo, hi, 0.1);
    box_edges(&mut sim, lo, hi);
    let block: Vec<Vec3> = (0..ny)
        .flat_map(|j| {
            (0..nz).flat_map(move |k| {
                (0..nx).map(move |i| (Vec3::new(i as f32, j as f32, k as f32) + 0.5) * s)
            })
        })
        .collect();
    let fluid = sim
        .world
        .add_fluid(&FluidDesc {
            spacing: s,
            capacity: block.len() as u32,
            ..FluidDesc::default()
        })
        .expect("fluid is valid");
    sim.adopt_fluid(fluid);
    sim.world
        .emit_fluid(fluid, &block, None)
        .expect("the block fits");
    spray(&mut sim, fluid, 4000, 1.5);
    sim.shapes.push(Shape::Fluid {
        fluid,
        anisotropy: ellipsoids(1.25),
        look: water_look(0.03, 0.05),
        colours: WaterColours::water(0.4, 3.0 * s),
    });
    // The ball: a pressure body whose particles (radius s/2) couple with the water.
    let (ball, ball_first, ball_count) = floating_ball(
        &mut sim,
        s,
        DAM_BALL_RADIUS,
        DAM_BALL_CENTRE,
        DAM_BALL_DENSITY,
    );
    // The cloth: hung across the tank from its two top corners.
    let (cu, cv) = DAM_CLOTH_CELLS;
    let cloth = sim
        .world
        .add_cloth_grid(
            &ClothDesc {
                bend_compliance: 10.0,
                damping: 0.2,
                ..ClothDesc::default()
            },
            &ClothGridDesc {
                origin: Vec3::new(DAM_CLOTH_X, DAM_CLOTH_TOP, 0.0),
                u: Vec3::new(0.0, 0.0, width),
                v: Vec3::new(0.0, -(cv as f32) * s, 0.0),
                segments_u: cu,
                segments_v: cv,
                total_mass: DAM_CLOTH_MASS,
                pin_corners: 1 | 2,
            },
        )
        .expect("cloth is valid");
    let (cloth_first, cloth_count) = sim.adopt_body(cloth);
    sim.world
        .set_particle_radii(cloth_first, &vec![0.5 * s; cloth_count as usize])
        .expect("cloth particles exist");
    sim.world
        .set_collision_filters(
            cloth_first,
            &vec![
                CollisionFilter {
                    group: 2,
                    ..CollisionFilter::default()
                };
                cloth_count as usize
            ],
        )
        .expect("cloth particles exist");
    sim.shapes.push(Shape::Cloth {
        first: cloth_first,
        nx: cu + 1,
        ny: cv + 1,
        front: Rgb::hex(0xc8503c),
        back: Rgb::hex(0xe8c060),
    });
    let hem = cloth_first + cv * (cu + 1)..cloth_first + cloth_count;
    let v0 = sim.world.body_volume(ball).expect("ball") as f64;
    let dt = 1.0 / SIM_HZ;
    let mut last_centre = centre_of_mass(&sim, ball_first, ball_count);
    let observe = move |sim: &mut Sim, t: f32| {
        let (water, _) = sim.fluid_particles(fluid);
        max_metric(sim, DAM_OUTSIDE, outside_box(&water, lo, hi) as f64);
        let c = centre_of_mass(sim, ball_first, ball_count);
        if t > 0.0 {
            max_metric(sim, DAM_BALL_SPEED, (c.distance(last_centre) / dt) as f64);
        }
        last_centre = c;
        max_metric(sim, DAM_BALL_RISE, c.y as f64);
        let p = sim.positions();
        let swing = hem
            .clone()
            .map(|i| p[i as usize].x - DAM_CLOTH_X)
            .fold(f32::NEG_INFINITY, f32::max);
        max_metric(sim, DAM_CLOTH_SWING, swing as f64);
        if t + 0.5 * dt >= DAM_SECONDS {
            let v = sim.world.body_volume(ball).expect("ball") as f64;
            sim.set_metric(DAM_BALL_VOLUME, v / v0);
        }
        sim.status = fluid_status(sim, fluid);
    };
    Scene {
        name: "dam_break",
        title: "Dam break against a ball and a cloth",
        seconds: DAM_SECONDS,
        still_at: 0.7,
        eye: Vec3::new(0.1, 1.15, 1.75),
        target: Vec3::new(0.85, 0.12, 0.24),
        fov_deg: 50.0,
        sim,
        drive: None,
        observe: Some(Box::new(observe)),
        free_after: 0.0,
        labels: vec!["pressure ball".into(), "cloth".into()],
    }
}

/// The hose: fluid spacing (m) and capacity, the box (half width, m; wall height, m),
/// the nozzle (position, radius, speed, rate, how far it sweeps either side and its
/// period), the floating ball (radius, density as a fraction of the water's, centre
/// at the start), the scene's length (s).
pub const HOSE_SPACING: f32 = 0.03;
pub const HOSE_CAPACITY: u32 = 3600;
pub const HOSE_HALF: f32 = 0.3;
pub const HOSE_WALL: f32 = 0.45;
pub const HOSE_NOZZLE: Vec3 = Vec3::new(-0.18, 0.8, 0.0);
pub const HOSE_NOZZLE_RADIUS: f32 = 0.045;
pub const HOSE_SPEED: f32 = 2.5;
pub const HOSE_RATE: f32 = 720.0;
pub const HOSE_SWEEP_DEG: f32 = 35.0;
pub const HOSE_SWEEP_PERIOD: f32 = 3.0;
pub const HOSE_BALL_RADIUS: f32 = 0.1;
pub const HOSE_BALL_DENSITY: f32 = 0.5;
pub const HOSE_BALL_CENTRE: Vec3 = Vec3::new(-0.16, 0.115, 0.14);
pub const HOSE_SECONDS: f32 = 7.0;
/// Metric names: the live particles at the end, the water's largest distance past the
/// box over the run (m), the water's height at the end (twice the particles' mean
/// height: the height of a level layer, m), the height their volume fills (live count
/// × s³ / floor area, m), the ball's centre at the end (m).
pub const HOSE_COUNT: &str = "fluid particles at the end";
pub const HOSE_OUTSIDE: &str = "max over the run of the water's distance past the box (m)";
pub const HOSE_LEVEL: &str = "water level at the end: twice the mean height (m)";
pub const HOSE_FILL: &str = "count x s^3 / floor area at the end (m)";
pub const HOSE_BALL_HEIGHT: &str = "ball centre at the end (m)";

/// The direction the nozzle points at time t (s): down into the box, swept either side
/// by `HOSE_SWEEP_DEG` about the vertical.
pub fn hose_direction(t: f32) -> Vec3 {
    let sweep = HOSE_SWEEP_DEG.to_radians() * (std::f32::consts::TAU * t / HOSE_SWEEP_PERIOD).sin();
    let tilt = 25f32.to_radians();
    Vec3::new(tilt.sin(), -tilt.cos(), 0.0).normalize() * sweep.cos()
        + Vec3::new(0.0, 0.0, sweep.sin()) * tilt.sin()
}

/// A hose fills a box: a nozzle emitter (4.5 cm radius, 2.5 m/s, 720 particles/s)
/// above an open 0.6 m × 0.6 m box sweeps from side to side and pours 3600 fluid
/// particles in over 5 s; the water splashes against the walls, spreads and rises, and
/// lifts a pressure ball (half the water's density) that lay on the floor, which
/// floats on the surface by the end. The emitter is the engine's: particles
/// appear on the nozzle's lattice at the start of each step.
pub fn hose() -> Scene {
    let s = HOSE_SPACING;
    let mut sim = Sim::new(WorldDesc {
        substeps: 4,
        iterations: 2,
        threads: 1,
        ..WorldDesc::default()
    });
    let lo = Vec3::new(-HOSE_HALF, 0.0, -HOSE_HALF);
    let hi = Vec3::new(HOSE_HALF, HOSE_WALL, HOSE_HALF);
    box_walls(&mut sim, lo, hi, 0.1);
    box_edges(&mut sim, lo, hi);
    let fluid = sim
        .world
        .add_fluid(&FluidDesc {
            spacing: s,
            capacity: HOSE_CAPACITY,
            ..FluidDesc::default()
        })
        .expect("fluid is valid");
    sim.adopt_fluid(fluid);
    let nozzle = |t: f32| EmitterDesc {
        shape: EmitterShape::Nozzle {
            radius: HOSE_NOZZLE_RADIUS,
        },
        position: HOSE_NOZZLE,
        rotation: Quat::from_rotation_arc(Vec3::Z, hose_direction(t)),
        speed: HOSE_SPEED,
        rate: HOSE_RATE,
    };
    let emitter = sim
        .world
        .add_emitter(fluid, &nozzle(0.0))
        .expect("emitter is valid");
    spray(&mut sim, fluid, 3000, 1.5);
    sim.shapes.push(Shape::Fluid {
        fluid,
        anisotropy: ellipsoids(1.25),
        look: water_look(0.03, 0.05),
        colours: WaterColours::water(0.25, 3.0 * s),
    });
    let (_, ball_first, ball_count) = floating_ball(
        &mut sim,
        s,
        HOSE_BALL_RADIUS,
        HOSE_BALL_CENTRE,
        HOSE_BALL_DENSITY,
    );
    let hose_shape = sim.shapes.len();
    sim.shapes.push(Shape::Tube {
        a: HOSE_NOZZLE,
        b: HOSE_NOZZLE - 0.4 * hose_direction(0.0),
        radius: 0.025,
        colour: Rgb::hex(0x3f9a4a),
    });
    let dt = 1.0 / SIM_HZ;
    let drive = move |sim: &mut Sim, t: f32| {
        let full = sim.world.fluid_stats(fluid).expect("fluid").count >= HOSE_CAPACITY;
        let mut desc = nozzle(t);
        if full {
            desc.rate = 0.0;
        }
        sim.world
            .set_emitter(emitter, &desc)
            .expect("emitter exists");
        sim.shapes[hose_shape] = Shape::Tube {
            a: HOSE_NOZZLE,
            b: HOSE_NOZZLE - 0.4 * hose_direction(t),
            radius: 0.025,
            colour: Rgb::hex(0x3f9a4a),
        };
    };
    let observe = move |sim: &mut Sim, t: f32| {
        let (water, _) = sim.fluid_particles(fluid);
        if !water.is_empty() {
            max_metric(sim, HOSE_OUTSIDE, outside_box(&water, lo, hi) as f64);
        }
        if t + 0.5 * dt >= HOSE_SECONDS {
            let mean = water.iter().map(|p| p.y as f64).sum::<f64>() / water.len().max(1) as f64;
            sim.set_count(HOSE_COUNT, water.len());
            sim.set_metric(HOSE_LEVEL, 2.0 * mean);
            let area = (2.0 * HOSE_HALF) * (2.0 * HOSE_HALF);
            sim.set_metric(HOSE_FILL, (water.len() as f32 * s * s * s / area) as f64);
            let c = centre_of_mass(sim, ball_first, ball_count);
            sim.set_metric(HOSE_BALL_HEIGHT, c.y as f64);
        }
        sim.status = fluid_status(sim, fluid);
    };
    Scene {
        name: "hose",
        title: "A hose fills a box",
        seconds: HOSE_SECONDS,
        still_at: 4.0,
        eye: Vec3::new(0.75, 0.95, 1.2),
        target: Vec3::new(0.0, 0.2, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        free_after: HOSE_SECONDS,
        labels: vec!["ball 0.5x water".into()],
    }
}
