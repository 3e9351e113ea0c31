//! The benchmark scenes (ARCHITECTURE.md), shared by the bench example
//! (`examples/bench.rs`), the criterion benches (`benches/`) and the tests, so that
//! every figure the project reports comes from exactly the same set-up.
//!
//! * [`cloth`]: `cloth_N`, the constraint-solver throughput scene.
//! * [`ropes`]: many short ropes hanging from pinned ends (many small islands).
//! * [`cloth_body`], [`ropes_body`]: the same cloth and ropes built through the body
//!   builders, as a game builds them (their links run in the bodies' link set).
//! * [`particles`]: a block of particles falling into a box, colliding with each other
//!   and with the walls (the collision pipeline).
//! * [`dam_break`]: `dam_break_N`, a block of fluid collapsing in a tank (the fluid
//!   solver's throughput; Position Based Fluids).
//! * [`rings_2d`]: soft rings of different densities floating and sinking in water in
//!   a planar world (fluids coupled two-way with bodies).
//!
//! Building a scene (including the colouring) is never part of a timed region.

use crate::collision::{ColliderDesc, Shape};
use crate::error::Result;
use crate::math::Vec3;
use crate::world::{World, WorldDesc};

/// Frame time of every scene, s.
pub const FRAME_DT: f32 = 1.0 / 60.0;

/// A built scene: the world and what the figures need to know about it.
pub struct Scene {
    pub world: World,
    /// Ids of the distance constraints whose relative stretch is reported.
    pub stretch_constraints: std::ops::Range<u32>,
    /// Ids of the body links (scenes built through the body builders) whose relative
    /// stretch is reported.
    pub stretch_links: std::ops::Range<u32>,
    /// Constraints projected per iteration (every family).
    pub constraints: u64,
}

/// The desc every scene starts from: 10 substeps × 1 iteration,
/// Gauss-Seidel, gravity (0, −9.81, 0), no damping.
pub fn default_desc() -> WorldDesc {
    WorldDesc {
        substeps: 10,
        iterations: 1,
        ..WorldDesc::default()
    }
}

/// `cloth_N`: N×N particles, index = row·N + col at (col·s, 0, row·s) with
/// s = 1/(N−1) m (a 1 m square in the XZ plane), 1 kg each except the two corners of
/// row 0 (pinned). Distance constraints, compliance 0, rest length = initial distance,
/// added in this order: stretch (each particle to its +x and +z neighbour), shear (both
/// diagonals of every quad), bend (each particle to the one two apart in +x and +z).
/// N = 64: 23,938 constraints; 128: 97,026; 256: 390,658.
pub fn cloth(n: u32, desc: WorldDesc) -> Result<Scene> {
    assert!(n >= 3, "cloth needs n >= 3");
    let mut world = World::new(desc)?;
    let s = 1.0 / (n - 1) as f32;
    let count = (n * n) as usize;
    let mut positions = Vec::with_capacity(count);
    let mut inverse_masses = Vec::with_capacity(count);
    for row in 0..n {
        for col in 0..n {
            positions.push(Vec3::new(col as f32 * s, 0.0, row as f32 * s));
            let pinned = row == 0 && (col == 0 || col == n - 1);
            inverse_masses.push(if pinned { 0.0 } else { 1.0 });
        }
    }
    let first = world.add_particles(&positions, Some(&inverse_masses))?;
    let [stretch, shear, bend] = cloth_pairs(n, first);
    let stretch_count = stretch.len() as u32;
    let pairs = [stretch, shear, bend].concat();
    let first_constraint = world.add_distance_constraints(&pairs, None, 0.0)?;
    Ok(Scene {
        world,
        stretch_constraints: first_constraint..first_constraint + stretch_count,
        stretch_links: 0..0,
        constraints: pairs.len() as u64,
    })
}

/// The particle pairs of an N×N grid whose particle (row, col) is
/// `first + row·N + col`: `[stretch, shear, bend]` in [`cloth`]'s order (stretch: each
/// particle to its +x and +z neighbour; shear: both diagonals of every quad; bend: each
/// particle to the one two apart in +x and in +z).
pub fn cloth_pairs(n: u32, first: u32) -> [Vec<[u32; 2]>; 3] {
    let id = |row: u32, col: u32| first + row * n + col;
    let cells = (n * n) as usize;
    let (mut stretch, mut shear, mut bend) = (
        Vec::with_capacity(2 * cells),
        Vec::with_capacity(2 * cells),
        Vec::with_capacity(2 * cells),
    );
    for row in 0..n {
        for col in 0..n {
            if col + 1 < n {
                stretch.push([id(row, col), id(row, col + 1)]);
            }
            if row + 1 < n {
                stretch.push([id(row, col), id(row + 1, col)]);
            }
            if row + 1 < n && col + 1 < n {
                shear.push([id(row, col), id(row + 1, col + 1)]);
                shear.push([id(row, col + 1), id(row + 1, col)]);
            }
            if col + 2 < n {
                bend.push([id(row, col), id(row, col + 2)]);
            }
            if row + 2 < n {
                bend.push([id(row, col), id(row + 2, col)]);
            }
        }
    }
    [stretch, shear, bend]
}

/// Segments per rope of the [`ropes`] scene.
pub const ROPE_SEGMENTS: u32 = 32;

/// `ropes`: `count` ropes of [`ROPE_SEGMENTS`] segments, each 1 m long, 1 kg in all
/// (the pinned top particle excluded), hanging from a pinned top particle; the tops sit
/// on a ⌈√count⌉-wide grid in the XZ plane at y = 0 (1.25 m apart in x, 0.25 m in z)
/// and each rope starts horizontal along +x, so it swings down. Stretch links
/// (distance constraints) and tethers (Kim et al. 2012: each particle at most its
/// distance along the rope from the top) have compliance 0.
pub fn ropes(count: u32, desc: WorldDesc) -> Result<Scene> {
    let mut world = World::new(desc)?;
    let per_rope = ROPE_SEGMENTS + 1;
    let side = (count as f32).sqrt().ceil() as u32;
    let seg = 1.0 / ROPE_SEGMENTS as f32;
    let w = ROPE_SEGMENTS as f32; // 1 kg over 32 particles
    let total = (count * per_rope) as usize;
    let mut positions = Vec::with_capacity(total);
    let mut inverse_masses = Vec::with_capacity(total);
    for r in 0..count {
        let top = Vec3::new((r % side) as f32 * 1.25, 0.0, (r / side) as f32 * 0.25);
        for i in 0..per_rope {
            positions.push(top + Vec3::new(i as f32 * seg, 0.0, 0.0));
            inverse_masses.push(if i == 0 { 0.0 } else { w });
        }
    }
    let first = world.add_particles(&positions, Some(&inverse_masses))?;
    let mut pairs = Vec::with_capacity((count * ROPE_SEGMENTS) as usize);
    for r in 0..count {
        let top = first + r * per_rope;
        for i in 0..ROPE_SEGMENTS {
            pairs.push([top + i, top + i + 1]);
        }
    }
    let first_constraint = world.add_distance_constraints(&pairs, None, 0.0)?;
    let tethers: Vec<[u32; 2]> = (0..count)
        .flat_map(|r| {
            let top = first + r * per_rope;
            (1..per_rope).map(move |i| [top, top + i])
        })
        .collect();
    world.add_tethers(&tethers, None, 0.0)?;
    Ok(Scene {
        world,
        stretch_constraints: first_constraint..first_constraint + pairs.len() as u32,
        stretch_links: 0..0,
        constraints: (pairs.len() + tethers.len()) as u64,
    })
}

/// `cloth_body`: the [`cloth`] scene's N×N particles (1 m square in the XZ plane, 1 kg
/// each, the two corners of row 0 pinned) built as one cloth body through
/// [`World::add_cloth_grid`]: edge links (compliance 0) on the grid edges and both
/// diagonals (compliance 0), distance bending links (compliance 0), no tethers. This
/// is the cloth a game builds; its constraints run in the bodies' link set.
pub fn cloth_body(n: u32, desc: WorldDesc) -> Result<Scene> {
    cloth_body_with(n, desc, crate::SimMode::Full)
}

/// [`cloth_body`] simulated in `mode` (level of detail, `World::set_body_sim_mode`).
pub fn cloth_body_with(n: u32, desc: WorldDesc, mode: crate::SimMode) -> Result<Scene> {
    assert!(n >= 3, "cloth needs n >= 3");
    let mut world = World::new(desc)?;
    let cloth = crate::ClothDesc {
        stretch_compliance: 0.0,
        shear_compliance: 0.0,
        bend_compliance: 0.0,
        bending: crate::BendingModel::Distance,
        tethers: false,
        ..crate::ClothDesc::default()
    };
    let grid = crate::ClothGridDesc {
        segments_u: n - 1,
        segments_v: n - 1,
        total_mass: (n * n) as f32,
        pin_corners: 1 | 2,
        ..crate::ClothGridDesc::default()
    };
    let body = world.add_cloth_grid(&cloth, &grid)?;
    world.set_body_sim_mode(body, mode)?;
    let stretch = world.body(body)?.parts.stretch.clone();
    let constraints = world.constraint_sets().link.len() as u64;
    Ok(Scene {
        world,
        stretch_constraints: 0..0,
        stretch_links: stretch,
        constraints,
    })
}

/// `ropes_body`: the [`ropes`] scene's `count` ropes (tops on the same grid, each 1 m
/// long along +x, 1 kg, top pinned) built through [`World::add_rope`]: [`ROPE_SEGMENTS`]
/// stretch links (compliance 0), bend links (i, i+2) with the rope default compliance
/// 0.01 m/N, tethers from the pinned top (compliance 0), radius 0 (as the hand-built
/// ropes: no particle contacts, so both scenes do the same work; a rope's radius is its
/// particles' collision radius).
pub fn ropes_body(count: u32, desc: WorldDesc) -> Result<Scene> {
    ropes_body_with(count, desc, |_| crate::SimMode::Full)
}

/// [`ropes_body`] with rope `r` simulated in `mode(r)` (level of detail,
/// `World::set_body_sim_mode`).
pub fn ropes_body_with(
    count: u32,
    desc: WorldDesc,
    mode: impl Fn(u32) -> crate::SimMode,
) -> Result<Scene> {
    let mut world = World::new(desc)?;
    let side = (count as f32).sqrt().ceil() as u32;
    let mut stretch_links = 0..0;
    for r in 0..count {
        let top = Vec3::new((r % side) as f32 * 1.25, 0.0, (r / side) as f32 * 0.25);
        let body = world.add_rope(&crate::RopeDesc {
            start: top,
            end: top + Vec3::X,
            segments: ROPE_SEGMENTS,
            total_mass: 1.0,
            radius: 0.0,
            ..crate::RopeDesc::default()
        })?;
        world.set_body_sim_mode(body, mode(r))?;
        if r == 0 {
            stretch_links = world.body(body)?.parts.stretch.clone();
        }
    }
    let sets = world.constraint_sets();
    let constraints = (sets.link.len() + sets.tether.len()) as u64;
    Ok(Scene {
        world,
        stretch_constraints: 0..0,
        stretch_links,
        constraints,
    })
}

/// A closed box mesh centred on the origin with half extents `h` (m): 8 vertices and 12
/// triangles, two per face (mesh colliders are two-sided, so the winding does not
/// matter; used by the collision tests).
pub fn box_mesh(h: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let vertices = (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 != 0 { h.x } else { -h.x },
                if i & 2 != 0 { h.y } else { -h.y },
                if i & 4 != 0 { h.z } else { -h.z },
            )
        })
        .collect();
    let quads = [
        [0, 1, 3, 2],
        [4, 6, 7, 5],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 2, 6, 4],
        [1, 5, 7, 3],
    ];
    let triangles = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    (vertices, triangles)
}

/// A cube of `n` × `n` × `n` cells, `size` m wide, with one corner at the origin: the
/// vertices and 6 tets per cell (Kuhn triangulation around each cell's diagonal, so the
/// cells conform), every tet of positive volume (used by the soft-body tests).
pub fn tet_cube(n: usize, size: f32) -> (Vec<Vec3>, Vec<[u32; 4]>) {
    let c = n + 1;
    let id = |i: usize, j: usize, k: usize| (i + c * (j + c * k)) as u32;
    let mut v = Vec::new();
    for k in 0..c {
        for j in 0..c {
            for i in 0..c {
                v.push(Vec3::new(i as f32, j as f32, k as f32) * (size / n as f32));
            }
        }
    }
    let mut tets = Vec::new();
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                let corner = |b: usize| id(i + (b & 1), j + ((b >> 1) & 1), k + (b >> 2));
                // Kuhn triangulation around the diagonal 0-7: conforming across cells.
                for [a, b] in [[1, 3], [3, 2], [2, 6], [6, 4], [4, 5], [5, 1]] {
                    let mut t = [corner(0), corner(a), corner(b), corner(7)];
                    let x: [Vec3; 4] = t.map(|p| v[p as usize]);
                    if (x[1] - x[0]).dot((x[2] - x[0]).cross(x[3] - x[0])) < 0.0 {
                        t.swap(1, 2);
                    }
                    tets.push(t);
                }
            }
        }
    }
    (v, tets)
}

/// Radius (m) of every particle of the [`particles`] scene.
pub const PARTICLE_RADIUS: f32 = 0.01;

/// Half the inner width of the [`particles`] scene's box (m).
pub const BOX_HALF_WIDTH: f32 = 0.6;

/// `particles`: `count` particles of radius [`PARTICLE_RADIUS`] (1 kg each), on a
/// 50 × 50 grid per layer 2.1 radii apart, layers stacked upwards from y = 0.05 m (a
/// little sideways jitter breaks the symmetry), fall into a box: a ground plane at
/// y = 0 and four walls at x, z = ±[`BOX_HALF_WIDTH`], no friction. Particles collide
/// with each other (neighbour lists) and with the five planes. `constraints` counts one
/// contact pass per particle.
pub fn particles(count: u32, desc: WorldDesc) -> Result<Scene> {
    let mut world = World::new(desc)?;
    let (r, side) = (PARTICLE_RADIUS, 50u32);
    let spacing = 2.1 * r;
    let half = 0.5 * spacing * (side - 1) as f32;
    let positions: Vec<Vec3> = (0..count)
        .map(|i| {
            let (col, row, layer) = (i % side, (i / side) % side, i / (side * side));
            let jitter = ((i * 7919) % 13) as f32 / 13.0 * 0.1 * r;
            Vec3::new(
                col as f32 * spacing - half + jitter,
                0.05 + layer as f32 * spacing,
                row as f32 * spacing - half - jitter,
            )
        })
        .collect();
    let first = world.add_particles(&positions, None)?;
    world.set_particle_radii(first, &vec![r; count as usize])?;
    use std::f32::consts::FRAC_PI_2;
    let l = BOX_HALF_WIDTH;
    let walls = [
        (Vec3::ZERO, crate::Quat::IDENTITY),
        (
            Vec3::new(-l, 0.0, 0.0),
            crate::Quat::from_rotation_z(-FRAC_PI_2),
        ),
        (
            Vec3::new(l, 0.0, 0.0),
            crate::Quat::from_rotation_z(FRAC_PI_2),
        ),
        (
            Vec3::new(0.0, 0.0, -l),
            crate::Quat::from_rotation_x(FRAC_PI_2),
        ),
        (
            Vec3::new(0.0, 0.0, l),
            crate::Quat::from_rotation_x(-FRAC_PI_2),
        ),
    ];
    for (position, rotation) in walls {
        world.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            ..ColliderDesc::default()
        })?;
    }
    Ok(Scene {
        world,
        stretch_constraints: 0..0,
        stretch_links: 0..0,
        constraints: count as u64,
    })
}

/// The world settings of [`dam_break`]: 2 substeps × 2 density iterations per frame,
/// gravity (0, −9.81, 0), on `threads` threads.
pub fn dam_break_desc(threads: u32) -> WorldDesc {
    WorldDesc {
        substeps: 2,
        iterations: 2,
        threads,
        ..WorldDesc::default()
    }
}

/// `dam_break_N`, the fluid throughput scene of Position Based Fluids (Macklin & Müller
/// 2013; README, "Performance"): a block of n × n × n fluid particles on a cubic
/// lattice of spacing s = 0.02 m, lowest particle at (s/2, s/2, s/2), at rest; h = 2s,
/// ρ₀ = 1000 kg/m³, ε = 100 m⁻², s_corr k = 0.1, n = 4, Δq = 0.2h, XSPH c = 0.01, no
/// vorticity, one density solve per iteration (`solve_rate` 0, as the reference);
/// particle centres projected onto the tank's planes (y = 0, x = 0,
/// x = 4a, z = 0, z = a with a = n s, no friction), open at the top. The block stands
/// in the corner x, z ∈ [0, a] and collapses along +x. Use [`dam_break_desc`] for the
/// benchmark's 2 substeps × 2 iterations. `constraints` counts one density constraint
/// per particle. Returns the scene and its fluid.
pub fn dam_break(n: u32, desc: WorldDesc) -> Result<(Scene, crate::FluidId)> {
    assert!(n >= 1, "dam_break needs n >= 1");
    let mut world = World::new(desc)?;
    let s = 0.02f32;
    let a = n as f32 * s;
    let count = n * n * n;
    let fluid = world.add_fluid(&crate::FluidDesc {
        rest_density: 1000.0,
        spacing: s,
        smoothing_radius: 2.0 * s,
        capacity: count,
        relaxation: 100.0,
        scorr_k: 0.1,
        scorr_n: 4,
        scorr_dq: 0.2,
        viscosity: 0.01,
        vorticity: 0.0,
        collision_radius: 0.0,
        // Macklin & Müller's one solve per iteration, as the C++ reference runs it.
        solve_rate: 0.0,
        ..crate::FluidDesc::default()
    })?;
    let positions: Vec<Vec3> = (0..count)
        .map(|i| {
            let (x, y, z) = (i % n, (i / n) % n, i / (n * n));
            Vec3::new(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) * s
        })
        .collect();
    world.emit_fluid(fluid, &positions, None)?;
    use std::f32::consts::FRAC_PI_2;
    let walls = [
        (Vec3::ZERO, crate::Quat::IDENTITY),
        (Vec3::ZERO, crate::Quat::from_rotation_z(-FRAC_PI_2)),
        (
            Vec3::new(4.0 * a, 0.0, 0.0),
            crate::Quat::from_rotation_z(FRAC_PI_2),
        ),
        (Vec3::ZERO, crate::Quat::from_rotation_x(FRAC_PI_2)),
        (
            Vec3::new(0.0, 0.0, a),
            crate::Quat::from_rotation_x(-FRAC_PI_2),
        ),
    ];
    for (position, rotation) in walls {
        world.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            ..ColliderDesc::default()
        })?;
    }
    Ok((
        Scene {
            world,
            stretch_constraints: 0..0,
            stretch_links: 0..0,
            constraints: count as u64,
        },
        fluid,
    ))
}

/// Fluid particle spacing of the [`rings_2d`] scene (m).
pub const RINGS_SPACING: f32 = 0.02;
/// Rest density of the [`rings_2d`] water (kg/m² per unit thickness: a planar world).
pub const RINGS_REST_DENSITY: f32 = 1000.0;
/// Radius of each soft ring (m, to its particles' centres).
pub const RINGS_RADIUS: f32 = 0.1;
/// Radius of a ring's particles (m): 0.75 s, so that each stands for a solid area
/// (2r)² = 2.25 s² in the water's density and the ring's wall, one particle every s,
/// keeps the water out (at 0.5 s, water seeps into the denser rings and they sink).
pub const RINGS_PARTICLE_RADIUS: f32 = 0.75 * RINGS_SPACING;
/// Compliance (m/N) of a ring's bend links (each particle to the one two along).
pub const RINGS_BEND_COMPLIANCE: f32 = 2.0e-5;
/// The rings of [`rings_2d`], left to right: density as a fraction of the water's
/// (mass / (ρ₀ π R²)); the last one is the heavy ring.
pub const RINGS_DENSITY: [f32; 4] = [0.25, 0.5, 0.75, 2.0];
/// Rows of water in the [`rings_2d`] tank per column (its depth / width).
pub const RINGS_DEPTH_RATIO: f32 = 0.3;

/// The [`rings_2d`] scene: the world and what the figures and the showcase need.
pub struct RingsScene {
    pub scene: Scene,
    pub fluid: crate::FluidId,
    /// Per ring: its body, first particle, particle count and density (fraction of
    /// the water's), in [`RINGS_DENSITY`] order.
    pub rings: Vec<(crate::BodyId, u32, u32, f32)>,
    /// Inner width of the tank (m): walls at x = 0 and x = `width`, floor at y = 0.
    pub width: f32,
    /// Height (m) of the still water surface: the water's area over the width.
    pub water_level: f32,
}

/// `rings_2d`, soft rings floating in water in a planar world (the soft bodies of
/// Matsuoka, "Soft bodies and fluids with Position Based Dynamics" (2025), after
/// Macklin et al. 2014, section 7): an open tank (floor y = 0, walls x = 0 and
/// x = n·s, s = [`RINGS_SPACING`]) holding a block of water `n` columns wide and
/// ⌊[`RINGS_DEPTH_RATIO`]·n⌋ rows deep on a square lattice (ρ₀ =
/// [`RINGS_REST_DENSITY`], h = 2s), and four soft rings of radius
/// [`RINGS_RADIUS`] released just above the surface, evenly across the tank. A ring
/// is a closed rope (particles s apart, radius [`RINGS_PARTICLE_RADIUS`], rigid links,
/// bend links of [`RINGS_BEND_COMPLIANCE`], closed over the seam) plus a rigid
/// ring-area constraint (pressure 1); its mass is its density ([`RINGS_DENSITY`]) ×
/// ρ₀ π R², so that the light rings float and the heavy one sinks through two-way
/// coupling alone. Rings collide with each other (particle contacts, not with
/// themselves), with the walls and the floor.
/// `constraints` counts the fluid particles (one density projection each).
pub fn rings_2d(n: u32, desc: WorldDesc) -> Result<RingsScene> {
    use crate::{CollisionFilter, FluidDesc, Quat, RopeDesc};
    use std::f32::consts::{FRAC_PI_2, PI, TAU};
    let s = RINGS_SPACING;
    let rows = ((RINGS_DEPTH_RATIO * n as f32) as u32).max(1);
    let width = n as f32 * s;
    let mut world = World::new(desc)?;
    world.set_planar(Some(0.0))?;
    for (position, rotation) in [
        (Vec3::ZERO, Quat::IDENTITY),
        (Vec3::ZERO, Quat::from_rotation_z(-FRAC_PI_2)),
        (Vec3::new(width, 0.0, 0.0), Quat::from_rotation_z(FRAC_PI_2)),
    ] {
        world.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            static_friction: 0.2,
            dynamic_friction: 0.2,
            ..ColliderDesc::default()
        })?;
    }
    let water: Vec<Vec3> = (0..rows)
        .flat_map(|row| {
            (0..n).map(move |col| Vec3::new((col as f32 + 0.5) * s, (row as f32 + 0.5) * s, 0.0))
        })
        .collect();
    let fluid = world.add_fluid(&FluidDesc {
        rest_density: RINGS_REST_DENSITY,
        spacing: s,
        capacity: water.len() as u32,
        ..FluidDesc::default()
    })?;
    world.emit_fluid(fluid, &water, None)?;
    let water_level = rows as f32 * s;
    let count = ((TAU * RINGS_RADIUS / s).round() as u32).max(8);
    let mut rings = Vec::with_capacity(RINGS_DENSITY.len());
    for (k, &density) in RINGS_DENSITY.iter().enumerate() {
        let centre = Vec3::new(
            width * (k as f32 + 0.5) / RINGS_DENSITY.len() as f32,
            water_level + RINGS_RADIUS + 2.0 * s,
            0.0,
        );
        // Counter-clockwise seen from +z, starting at the top.
        let points: Vec<Vec3> = (0..count)
            .map(|i| {
                let a = FRAC_PI_2 + TAU * i as f32 / count as f32;
                centre + RINGS_RADIUS * Vec3::new(a.cos(), a.sin(), 0.0)
            })
            .collect();
        let body = world.add_rope_polyline(
            &RopeDesc {
                total_mass: density * RINGS_REST_DENSITY * PI * RINGS_RADIUS * RINGS_RADIUS,
                radius: RINGS_PARTICLE_RADIUS,
                bend_compliance: RINGS_BEND_COMPLIANCE,
                tethers: false,
                pin_start: false,
                ..RopeDesc::default()
            },
            &points,
        )?;
        let (first, n_ring) = world.body_particle_range(body)?;
        let last = first + n_ring - 1;
        world.add_distance_constraints(&[[last, first]], None, 0.0)?;
        world.add_distance_constraints(
            &[[last - 1, first], [last, first + 1]],
            None,
            RINGS_BEND_COMPLIANCE,
        )?;
        let ring: Vec<u32> = (first..first + n_ring).collect();
        world.add_ring_area(&ring, 1.0, 0.0)?;
        world.set_particle_radii(first, &vec![RINGS_PARTICLE_RADIUS; n_ring as usize])?;
        world.set_collision_filters(
            first,
            &vec![
                CollisionFilter {
                    group: k as u32 + 1,
                    ..CollisionFilter::default()
                };
                n_ring as usize
            ],
        )?;
        rings.push((body, first, n_ring, density));
    }
    Ok(RingsScene {
        scene: Scene {
            world,
            stretch_constraints: 0..0,
            stretch_links: 0..0,
            constraints: water.len() as u64,
        },
        fluid,
        rings,
        width,
        water_level,
    })
}

/// Where each ring of a [`rings_2d`] scene is: its centre's height above the still
/// water level (m; a floating ring rides near 0, a sunk one near −(level − R)), per
/// ring in [`RINGS_DENSITY`] order.
pub fn ring_heights(rings: &RingsScene) -> Vec<f32> {
    let p = rings.scene.world.particles();
    rings
        .rings
        .iter()
        .map(|&(_, first, count, _)| {
            let y: f32 = (first..first + count)
                .map(|i| p.position(i as usize).y)
                .sum();
            y / count as f32 - rings.water_level
        })
        .collect()
}

/// The sanity figures every scene reports after its last frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figures {
    /// Lowest y of all particles, m.
    pub min_y: f32,
    /// Median of |x_a − x_b| / L − 1 over the scene's stretch constraints.
    pub median_stretch: f32,
}

/// Computes [`Figures`] from the world's current state.
pub fn figures(scene: &Scene) -> Figures {
    let w = &scene.world;
    let positions: Vec<Vec3> = (0..w.particle_count() as usize)
        .map(|i| w.particles().position(i))
        .collect();
    let min_y = positions.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    let d = w.distance_constraints();
    let link = &w.constraint_sets().link;
    let relative = |[a, b]: [u32; 2], rest: f32| {
        (positions[a as usize] - positions[b as usize]).length() / rest - 1.0
    };
    let mut stretch: Vec<f32> = scene
        .stretch_constraints
        .clone()
        .map(|id| relative(d.pair(id as usize), d.rest_length(id as usize)))
        .chain(
            scene
                .stretch_links
                .clone()
                .map(|id| relative(link.particles_of(id as usize), link.rest(id as usize))),
        )
        .collect();
    stretch.sort_by(f32::total_cmp);
    let median_stretch = if stretch.is_empty() {
        0.0
    } else {
        stretch[stretch.len() / 2]
    };
    Figures {
        min_y,
        median_stretch,
    }
}
