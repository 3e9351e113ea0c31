//! The demo scenes. A scene is a function that builds a [`Sim`] (a world plus what to
//! draw: ropes, cloths, markers) and may drive it between frames (a grab that writes
//! a particle's position). Everything drawn is read back from the world through the
//! public API; nothing is animated by hand except what the scene text says is driven.
//!
//! To add a scene: write `fn my_scene() -> Scene`, add it to [`all`], and pick a
//! camera. Scenes that need collisions (cloth on a sphere), soft bodies or fluids wait
//! for those features in the engine.

use sinew::{Solver, Vec3, World, WorldDesc};

use super::raster::{Painter, Rgb};

/// Frame rate of the simulation (Hz): one `World::step` per frame.
pub const SIM_HZ: f32 = 60.0;
/// Standard gravity used by every scene (m/s², along −y).
pub const G: f32 = 9.81;

/// Something drawn each frame from the world's particles.
#[derive(Clone, Debug)]
pub enum Shape {
    /// Particles `first..first+count` joined in order by tubes.
    Rope {
        label: &'static str,
        first: u32,
        count: u32,
        radius: f32,
        colour: Rgb,
    },
    /// An `nx`×`ny` grid of particles (row-major from `first`) drawn as shaded
    /// triangles, two-sided.
    Cloth {
        first: u32,
        nx: u32,
        ny: u32,
        front: Rgb,
        back: Rgb,
    },
    /// A fixed segment in the world, not simulated (a ruler mark).
    Mark { a: Vec3, b: Vec3, colour: Rgb },
    /// A ball at one particle (a bob, a pin).
    Ball {
        particle: u32,
        radius: f32,
        colour: Rgb,
    },
}

/// One distance constraint as the scene built it (for stretch statistics).
#[derive(Clone, Copy, Debug)]
pub struct Link {
    pub a: u32,
    pub b: u32,
    pub rest: f32,
}

/// A world and what to draw of it, with the bookkeeping the statistics need.
pub struct Sim {
    pub world: World,
    /// Mass of each particle (kg), as built (a pinned particle keeps its mass here).
    pub mass: Vec<f32>,
    /// Inverse mass of each particle now (1/kg; 0 = pinned or driven).
    pub inv_mass: Vec<f32>,
    pub links: Vec<Link>,
    pub shapes: Vec<Shape>,
    /// Particles drawn with a "hand" marker this frame (driven by a grab).
    pub held: Vec<u32>,
    /// One line of scene-specific status for the corner text.
    pub status: String,
}

impl Sim {
    pub fn new(desc: WorldDesc) -> Sim {
        Sim {
            world: World::new(desc).expect("scene world desc is valid"),
            mass: Vec::new(),
            inv_mass: Vec::new(),
            links: Vec::new(),
            shapes: Vec::new(),
            held: Vec::new(),
            status: String::new(),
        }
    }

    /// Adds particles with masses in kg (0 = pinned); returns the first index.
    pub fn particles(&mut self, positions: &[Vec3], masses: &[f32]) -> u32 {
        let inv: Vec<f32> = masses
            .iter()
            .map(|&m| if m > 0.0 { 1.0 / m } else { 0.0 })
            .collect();
        let first = self
            .world
            .add_particles(positions, Some(&inv))
            .expect("scene particles are valid");
        self.mass.extend_from_slice(masses);
        self.inv_mass.extend_from_slice(&inv);
        first
    }

    /// Adds XPBD distance constraints at the current distances with compliance α (m/N).
    pub fn links(&mut self, pairs: &[[u32; 2]], compliance: f32) {
        let p = self.positions();
        self.world
            .add_distance_constraints(pairs, None, compliance)
            .expect("scene constraints are valid");
        self.links.extend(pairs.iter().map(|&[a, b]| Link {
            a,
            b,
            rest: p[a as usize].distance(p[b as usize]),
        }));
    }

    /// Pins (`pinned` = true, inverse mass 0) or frees particle `i`.
    pub fn pin(&mut self, i: u32, pinned: bool) {
        let w = if pinned || self.mass[i as usize] == 0.0 {
            0.0
        } else {
            1.0 / self.mass[i as usize]
        };
        self.world
            .set_inverse_masses(i, &[w])
            .expect("particle exists");
        self.inv_mass[i as usize] = w;
    }

    pub fn positions(&self) -> Vec<Vec3> {
        let n = self.world.particle_count();
        let mut out = vec![Vec3::ZERO; n as usize];
        if n > 0 {
            self.world
                .read_positions(0, n, |k, p| out[k] = p)
                .expect("in range");
        }
        out
    }

    pub fn velocities(&self) -> Vec<Vec3> {
        let n = self.world.particle_count();
        let mut out = vec![Vec3::ZERO; n as usize];
        if n > 0 {
            self.world
                .read_velocities(0, n, |k, v| out[k] = v)
                .expect("in range");
        }
        out
    }

    /// Kinetic + gravitational potential energy (J, zero at y = 0) of the particles
    /// that move freely now (inverse mass > 0).
    pub fn energy(&self) -> f64 {
        let (p, v) = (self.positions(), self.velocities());
        (0..p.len())
            .filter(|&i| self.inv_mass[i] > 0.0)
            .map(|i| {
                let m = self.mass[i] as f64;
                0.5 * m * v[i].length_squared() as f64 + m * G as f64 * p[i].y as f64
            })
            .sum()
    }

    /// Largest relative stretch (|x_a − x_b| − rest) / rest over `links` (≤ 0 when
    /// every link is at or below its rest length).
    pub fn max_stretch(&self, links: &[Link]) -> f32 {
        let p = self.positions();
        links
            .iter()
            .map(|l| (p[l.a as usize].distance(p[l.b as usize]) - l.rest) / l.rest)
            .fold(f32::NEG_INFINITY, f32::max)
    }
}

/// Drives a scene between frames: called before each step with the time t (s) at the
/// start of the step.
pub type Drive = Box<dyn FnMut(&mut Sim, f32)>;

/// A demo scene: a world, a camera, a length, and an optional driver.
pub struct Scene {
    /// File stem of its pictures.
    pub name: &'static str,
    pub title: &'static str,
    pub seconds: f32,
    /// Time (s) of the PNG still.
    pub still_at: f32,
    /// Camera eye, target (m) and vertical field of view (degrees).
    pub eye: Vec3,
    pub target: Vec3,
    pub fov_deg: f32,
    pub sim: Sim,
    pub drive: Option<Drive>,
    /// From this time on nothing is driven: the energy may only fall.
    pub free_after: f32,
    /// Text drawn under each rope's anchor, in rope order (may be empty).
    pub labels: Vec<String>,
}

fn rope_desc(substeps: u32, damping: f32) -> WorldDesc {
    WorldDesc {
        substeps,
        damping,
        solver: Solver::GaussSeidel,
        ..WorldDesc::default()
    }
}

/// A straight rope of `links` links from `start` along `dir` (unit), particle mass
/// `m` kg, the first particle pinned; `end_mass` replaces the last particle's mass.
/// Returns the first particle index.
#[allow(clippy::too_many_arguments)]
fn add_rope(
    sim: &mut Sim,
    label: &'static str,
    start: Vec3,
    dir: Vec3,
    links: u32,
    link_length: f32,
    m: f32,
    end_mass: f32,
    compliance: f32,
    colour: Rgb,
) -> u32 {
    let pos: Vec<Vec3> = (0..=links)
        .map(|i| start + dir * (i as f32 * link_length))
        .collect();
    let mut masses = vec![m; links as usize + 1];
    masses[0] = 0.0;
    masses[links as usize] = end_mass;
    let first = sim.particles(&pos, &masses);
    let pairs: Vec<[u32; 2]> = (0..links).map(|i| [first + i, first + i + 1]).collect();
    sim.links(&pairs, compliance);
    sim.shapes.push(Shape::Rope {
        label,
        first,
        count: links + 1,
        radius: 0.015,
        colour,
    });
    first
}

pub const ROPE_LINKS: u32 = 20;
pub const ROPE_LINK_LENGTH: f32 = 0.05;
pub const ROPE_PARTICLE_MASS: f32 = 0.05;
pub const HANGING_ANCHOR: Vec3 = Vec3::new(-0.5, 1.6, 0.0);

/// A 1 m rope of 20 rigid links (α = 0), pinned at one end, released horizontal: it
/// swings down, whips through the bottom and swings on, losing energy to a little
/// damping (0.4 /s).
pub fn hanging_rope() -> Scene {
    let mut sim = Sim::new(rope_desc(20, 0.4));
    let first = add_rope(
        &mut sim,
        "rope",
        HANGING_ANCHOR,
        Vec3::X,
        ROPE_LINKS,
        ROPE_LINK_LENGTH,
        ROPE_PARTICLE_MASS,
        ROPE_PARTICLE_MASS,
        0.0,
        Rgb::hex(0xd8a24a),
    );
    sim.shapes.push(Shape::Ball {
        particle: first,
        radius: 0.03,
        colour: Rgb::hex(0x606870),
    });
    sim.status = "20 links x 5 cm, 0.05 kg each, rigid".into();
    Scene {
        name: "hanging_rope",
        title: "Hanging rope",
        seconds: 4.0,
        still_at: 0.45,
        eye: Vec3::new(0.3, 1.4, 2.3),
        target: Vec3::new(-0.3, 1.0, 0.0),
        fov_deg: 50.0,
        sim,
        drive: None,
        free_after: 0.0,
        labels: Vec::new(),
    }
}

pub const SWING_ANCHOR: Vec3 = Vec3::new(0.0, 1.7, 0.0);
/// When the grab starts and ends (s).
pub const GRAB_START: f32 = 1.2;
pub const GRAB_ARC_START: f32 = 1.8;
/// The arc the grabbed tip is swung along: start and end angle (degrees, from +x,
/// counter-clockwise in the x–y plane about the anchor).
pub const GRAB_ARC_DEG: (f32, f32) = (200.0, 320.0);
pub const GRAB_END: f32 = 2.5;
/// Radius (m) of the circle around the anchor the grabbed tip is swung along.
pub const GRAB_RADIUS: f32 = 0.85;

fn smoothstep(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The grab path on the arc: angle (rad, from +x, counter-clockwise in the x–y plane
/// about the anchor) at time t.
fn arc_angle(t: f32) -> f32 {
    let (a0, a1) = (GRAB_ARC_DEG.0.to_radians(), GRAB_ARC_DEG.1.to_radians());
    a0 + (a1 - a0) * ((t - GRAB_ARC_START) / (GRAB_END - GRAB_ARC_START)).clamp(0.0, 1.0)
}

fn on_arc(angle: f32) -> Vec3 {
    SWING_ANCHOR + GRAB_RADIUS * Vec3::new(angle.cos(), angle.sin(), 0.0)
}

/// Where the hand holds the tip at time `t` (s) of the grab, which began with the tip
/// at `from`: eased in a straight line to the start of the arc, then along the arc at
/// a constant angular speed.
pub fn grab_hand(t: f32, from: Vec3) -> Vec3 {
    if t <= GRAB_ARC_START {
        let s = smoothstep((t - GRAB_START) / (GRAB_ARC_START - GRAB_START));
        from.lerp(on_arc(arc_angle(GRAB_ARC_START)), s)
    } else {
        on_arc(arc_angle(t))
    }
}

/// The rope swing with a grab: a 1 m rope pinned at one end swings down from
/// horizontal; at 1.2 s its tip is grabbed (inverse mass 0, position written every
/// frame), dragged to the left, swung along a circle under the anchor and released
/// at 2.5 s with the hand's velocity (2.5 m/s): it flies up to the right and swings on
/// freely.
pub fn rope_swing() -> Scene {
    let mut sim = Sim::new(rope_desc(60, 0.1));
    let first = add_rope(
        &mut sim,
        "rope",
        SWING_ANCHOR,
        Vec3::X,
        ROPE_LINKS,
        ROPE_LINK_LENGTH,
        ROPE_PARTICLE_MASS,
        ROPE_PARTICLE_MASS,
        0.0,
        Rgb::hex(0x4aa3d8),
    );
    sim.shapes.push(Shape::Ball {
        particle: first,
        radius: 0.03,
        colour: Rgb::hex(0x606870),
    });
    let tip = first + ROPE_LINKS;
    let mut grabbed_at: Option<Vec3> = None;
    let drive = move |sim: &mut Sim, t: f32| {
        let dt = 1.0 / SIM_HZ;
        if t + 0.5 * dt < GRAB_START {
            sim.status = "swinging freely".into();
            return;
        }
        if t + 0.5 * dt >= GRAB_END {
            if !sim.held.is_empty() {
                // Release: free the tip with the hand's velocity along the arc.
                sim.pin(tip, false);
                let a = arc_angle(GRAB_END - 0.5 * dt);
                let omega =
                    (GRAB_ARC_DEG.1 - GRAB_ARC_DEG.0).to_radians() / (GRAB_END - GRAB_ARC_START);
                let v = GRAB_RADIUS * omega * Vec3::new(-a.sin(), a.cos(), 0.0);
                sim.world.write_velocities(tip, &[v]).expect("tip exists");
                sim.held.clear();
            }
            sim.status = "released with the hand's velocity".into();
            return;
        }
        if sim.held.is_empty() {
            sim.pin(tip, true);
            sim.held.push(tip);
        }
        // Where the hand is at the end of this step.
        let from = *grabbed_at.get_or_insert(sim.positions()[tip as usize]);
        let hand = grab_hand(t + dt, from);
        sim.world.write_positions(tip, &[hand]).expect("tip exists");
        sim.status = "GRAB: tip pinned, write_positions".into();
    };
    Scene {
        name: "rope_swing",
        title: "Rope swing with a grab",
        seconds: 4.5,
        still_at: 2.2,
        eye: Vec3::new(0.4, 1.5, 2.4),
        target: Vec3::new(0.0, 1.4, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        // The step starting at GRAB_END releases the tip: free from the state after it.
        free_after: GRAB_END + 1.0 / SIM_HZ,
        labels: Vec::new(),
    }
}

pub const CLOTH_NX: u32 = 25;
pub const CLOTH_NY: u32 = 17;
pub const CLOTH_SPACING: f32 = 0.05;
pub const CLOTH_HEIGHT: f32 = 1.7;
pub const CLOTH_PARTICLE_MASS: f32 = 0.002;

/// Rest grid position of particle (i, j) of the cloth (m): a horizontal sheet.
pub fn cloth_rest(i: u32, j: u32) -> Vec3 {
    let w = (CLOTH_NX - 1) as f32 * CLOTH_SPACING;
    Vec3::new(
        i as f32 * CLOTH_SPACING - 0.5 * w,
        CLOTH_HEIGHT,
        j as f32 * CLOTH_SPACING - 0.2,
    )
}

/// When the wind blows on the cloth (s).
pub const WIND_START: f32 = 1.5;
pub const WIND_END: f32 = 3.5;
/// Peak wind speed (m/s, along +z) and air density (kg/m³) × drag coefficient / 2.
pub const WIND_SPEED: f32 = 3.0;
pub const WIND_DRAG: f32 = 0.6;

/// Wind velocity (m/s) at time t and place p: a gust rising and falling between the
/// start and end, with ripples travelling along x.
pub fn wind(t: f32, p: Vec3) -> Vec3 {
    if !(WIND_START..WIND_END).contains(&t) {
        return Vec3::ZERO;
    }
    let s = (t - WIND_START) / (WIND_END - WIND_START);
    let gust = (std::f32::consts::PI * s).sin() * (0.7 + 0.3 * (7.0 * p.x - 9.0 * t).sin());
    Vec3::new(0.0, 0.0, WIND_SPEED * gust)
}

/// Quadratic drag on each particle's share of the cloth (`area` m²), along its
/// normal: F = WIND_DRAG · area · (u·n)|u·n| n, u = wind − particle velocity.
pub fn wind_force(wind: Vec3, velocity: Vec3, normal: Vec3, area: f32) -> Vec3 {
    let un = (wind - velocity).dot(normal);
    WIND_DRAG * area * un * un.abs() * normal
}

/// A 1.2 m × 0.8 m cloth (25 × 17 particles) held horizontal by the two corners of
/// its back edge, released: it falls, swings down and hangs as a sagging curtain;
/// then gusts of wind blow on it for two seconds and it settles again. The wind is
/// the scene's own aerodynamic drag, applied once per frame as a velocity change
/// Δv = F·dt/m through `write_velocities` (Sinew has no external-force API yet).
/// Stretch and shear: rigid XPBD distance constraints along the grid and its
/// diagonals; bending: soft distance constraints two particles apart.
pub fn cloth() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 20,
        damping: 0.3,
        ..WorldDesc::default()
    });
    let (nx, ny) = (CLOTH_NX, CLOTH_NY);
    let mut pos = Vec::new();
    let mut masses = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            pos.push(cloth_rest(i, j));
            let pinned = j == 0 && (i == 0 || i == nx - 1);
            masses.push(if pinned { 0.0 } else { CLOTH_PARTICLE_MASS });
        }
    }
    let first = sim.particles(&pos, &masses);
    let id = |i: u32, j: u32| first + j * nx + i;
    let (mut stretch, mut shear, mut bend) = (Vec::new(), Vec::new(), Vec::new());
    for j in 0..ny {
        for i in 0..nx {
            if i + 1 < nx {
                stretch.push([id(i, j), id(i + 1, j)]);
            }
            if j + 1 < ny {
                stretch.push([id(i, j), id(i, j + 1)]);
            }
            if i + 1 < nx && j + 1 < ny {
                shear.push([id(i, j), id(i + 1, j + 1)]);
                shear.push([id(i + 1, j), id(i, j + 1)]);
            }
            if i + 2 < nx {
                bend.push([id(i, j), id(i + 2, j)]);
            }
            if j + 2 < ny {
                bend.push([id(i, j), id(i, j + 2)]);
            }
        }
    }
    sim.links(&stretch, 0.0);
    sim.links(&shear, 1.0e-6);
    sim.links(&bend, 1.0e-3);
    sim.shapes.push(Shape::Cloth {
        first,
        nx,
        ny,
        front: Rgb::hex(0xc8503c),
        back: Rgb::hex(0xe8c060),
    });
    for i in [0, nx - 1] {
        sim.shapes.push(Shape::Ball {
            particle: id(i, 0),
            radius: 0.025,
            colour: Rgb::hex(0x606870),
        });
    }
    sim.status = "stretch rigid, shear 1e-6, bend 1e-3 m/N".into();
    let count = nx * ny;
    let drive = move |sim: &mut Sim, t: f32| {
        if wind(t, Vec3::ZERO) == Vec3::ZERO {
            sim.status = "stretch rigid, shear 1e-6, bend 1e-3 m/N".into();
            return;
        }
        let dt = 1.0 / SIM_HZ;
        let pos = sim.positions();
        let vel = sim.velocities();
        let range = first as usize..(first + count) as usize;
        let (_, normals) = grid_mesh(&pos[range.clone()], nx, ny);
        let area = CLOTH_SPACING * CLOTH_SPACING;
        let new_v: Vec<Vec3> = range
            .clone()
            .zip(&normals)
            .map(|(i, &n)| {
                if sim.inv_mass[i] == 0.0 {
                    return vel[i]; // pinned: stays put
                }
                let w = wind(t, pos[i]);
                vel[i] + wind_force(w, vel[i], n, area) * (dt * sim.inv_mass[i])
            })
            .collect();
        sim.world
            .write_velocities(first, &new_v)
            .expect("cloth particles exist");
        let gust = wind(t, Vec3::ZERO).length();
        sim.status = format!("wind ~{gust:.1} m/s: drag via write_velocities");
    };
    Scene {
        name: "cloth",
        title: "Cloth held by two corners, in the wind",
        seconds: 5.0,
        still_at: 2.3,
        eye: Vec3::new(1.2, 1.6, 1.9),
        target: Vec3::new(0.0, 1.25, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        free_after: WIND_END,
        labels: Vec::new(),
    }
}

/// The three materials of the comparison: name, compliance (m/N, from the README's
/// table of seed 001), colour.
pub const MATERIALS: [(&str, f32, u32); 3] = [
    ("leather", 1.0e-8, 0x8a5a3a),
    ("muscle", 0.2e-3, 0xc04848),
    ("fat", 1.0e-3, 0xe8d070),
];
pub const MATERIAL_LINKS: u32 = 20;
pub const MATERIAL_LINK_LENGTH: f32 = 0.04;
pub const MATERIAL_PARTICLE_MASS: f32 = 0.02;
pub const MATERIAL_BOB_MASS: f32 = 0.5;
pub const MATERIAL_TOP: f32 = 1.8;

/// Static extension (m) of a hanging chain of `links` links, each with compliance α:
/// link k carries the weight of everything below it, T_k = g·Σ m_below, and
/// stretches by α·T_k.
pub fn hanging_extension(alpha: f32) -> f32 {
    let n = MATERIAL_LINKS;
    (0..n)
        .map(|k| {
            // Particles k+1..=n hang below link k; the last one is the bob.
            let below = (n - k - 1) as f32 * MATERIAL_PARTICLE_MASS + MATERIAL_BOB_MASS;
            alpha * G * below
        })
        .sum()
}

/// Stiff and soft side by side: three 0.8 m ropes of 20 links with a 0.5 kg bob,
/// compliance of leather, muscle and fat from the material table, released at their
/// rest length: the soft ones drop, bounce and settle longer by α·Σ T.
pub fn materials() -> Scene {
    let mut sim = Sim::new(rope_desc(50, 1.5));
    let mut labels = Vec::new();
    for (k, &(name, alpha, colour)) in MATERIALS.iter().enumerate() {
        let x = (k as f32 - 1.0) * 0.6;
        let first = add_rope(
            &mut sim,
            name,
            Vec3::new(x, MATERIAL_TOP, 0.0),
            -Vec3::Y,
            MATERIAL_LINKS,
            MATERIAL_LINK_LENGTH,
            MATERIAL_PARTICLE_MASS,
            MATERIAL_BOB_MASS,
            alpha,
            Rgb::hex(colour),
        );
        sim.shapes.push(Shape::Ball {
            particle: first + MATERIAL_LINKS,
            radius: 0.045,
            colour: Rgb::hex(colour),
        });
        sim.shapes.push(Shape::Ball {
            particle: first,
            radius: 0.02,
            colour: Rgb::hex(0x606870),
        });
        // Where the bob hangs at rest length, and where the closed form puts it.
        let rest = MATERIAL_TOP - MATERIAL_LINKS as f32 * MATERIAL_LINK_LENGTH;
        for (y, c) in [
            (rest, 0xd0d4da),
            (rest - hanging_extension(alpha), 0x60d0ff),
        ] {
            sim.shapes.push(Shape::Mark {
                a: Vec3::new(x - 0.12, y, 0.0),
                b: Vec3::new(x - 0.05, y, 0.0),
                colour: Rgb::hex(c),
            });
        }
        labels.push(format!("{name} {alpha:.0e}"));
    }
    sim.status = "marks: rest length (grey), alpha x tension (blue)".into();
    Scene {
        name: "materials",
        title: "Stiff and soft: the material table",
        seconds: 4.0,
        still_at: 0.35,
        eye: Vec3::new(0.0, 1.4, 2.3),
        target: Vec3::new(0.0, 1.3, 0.0),
        fov_deg: 50.0,
        sim,
        drive: None,
        free_after: 0.0,
        labels,
    }
}

/// Every scene, in README order.
pub fn all() -> Vec<Scene> {
    vec![hanging_rope(), rope_swing(), cloth(), materials()]
}

/// Colour of the shadows on the floor.
const SHADOW: Rgb = Rgb::hex(0x3a3f47);

/// Straight down onto the floor (y = 0), just above it.
fn on_floor(p: Vec3) -> Vec3 {
    Vec3::new(p.x, 0.002, p.z)
}

/// What to draw, read back from the world: shadows cast straight down by a light
/// overhead, then the objects.
pub fn draw(sim: &Sim, p: &mut Painter) {
    let pos = sim.positions();
    for shape in &sim.shapes {
        match *shape {
            Shape::Rope {
                first,
                count,
                radius,
                ..
            } => {
                let pts = &pos[first as usize..(first + count) as usize];
                for w in pts.windows(2) {
                    p.flat_line(on_floor(w[0]), on_floor(w[1]), radius, SHADOW);
                }
            }
            Shape::Cloth { first, nx, ny, .. } => {
                let id = |i: u32, j: u32| (first + j * nx + i) as usize;
                for j in 0..ny - 1 {
                    for i in 0..nx - 1 {
                        let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
                        p.flat_triangle([a, b, c].map(|k| on_floor(pos[k])), SHADOW);
                        p.flat_triangle([a, c, d].map(|k| on_floor(pos[k])), SHADOW);
                    }
                }
            }
            Shape::Ball {
                particle, radius, ..
            } => {
                let c = on_floor(pos[particle as usize]);
                p.flat_line(c, c, radius, SHADOW);
            }
            Shape::Mark { .. } => {}
        }
    }
    for shape in &sim.shapes {
        match *shape {
            Shape::Rope {
                first,
                count,
                radius,
                colour,
                ..
            } => {
                let pts = &pos[first as usize..(first + count) as usize];
                p.polyline(pts, radius, colour);
            }
            Shape::Cloth {
                first,
                nx,
                ny,
                front,
                back,
            } => draw_cloth(
                &pos[first as usize..(first + nx * ny) as usize],
                nx,
                ny,
                front,
                back,
                p,
            ),
            Shape::Ball {
                particle,
                radius,
                colour,
            } => p.disc(pos[particle as usize], radius, colour),
            Shape::Mark { a, b, colour } => p.flat_line(a, b, 0.005, colour),
        }
    }
    for &h in &sim.held {
        p.disc(pos[h as usize], 0.05, Rgb::hex(0xff8a1e));
    }
}

/// Triangles of an `nx`×`ny` grid (two per cell) and the unit vertex normals
/// (area-weighted averages of the faces around each vertex).
pub fn grid_mesh(pos: &[Vec3], nx: u32, ny: u32) -> (Vec<[usize; 3]>, Vec<Vec3>) {
    let id = |i: u32, j: u32| (j * nx + i) as usize;
    let mut normals = vec![Vec3::ZERO; pos.len()];
    let mut tris = Vec::new();
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            tris.push([a, c, b]);
            tris.push([a, d, c]);
        }
    }
    for t in &tris {
        let n = (pos[t[1]] - pos[t[0]]).cross(pos[t[2]] - pos[t[0]]);
        for &k in t {
            normals[k] += n;
        }
    }
    for n in &mut normals {
        *n = n.normalize_or_zero();
    }
    (tris, normals)
}

/// Shaded triangles with smooth (averaged) normals; the normals point to the `front`
/// side and each triangle is lit from the side that faces the camera.
fn draw_cloth(pos: &[Vec3], nx: u32, ny: u32, front: Rgb, back: Rgb, p: &mut Painter) {
    let (tris, normals) = grid_mesh(pos, nx, ny);
    for t in &tris {
        p.triangle(
            [pos[t[0]], pos[t[1]], pos[t[2]]],
            Some([normals[t[0]], normals[t[1]], normals[t[2]]]),
            front,
            back,
        );
    }
}
