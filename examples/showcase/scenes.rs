//! The demo scenes. A scene is a function that builds a [`Sim`] (a world plus what to
//! draw: ropes, cloths, markers) and may drive it between frames (a grab that writes
//! a particle's position). Everything drawn is read back from the world through the
//! public API; nothing is animated by hand except what the scene text says is driven.
//!
//! To add a scene: write `fn my_scene() -> Scene`, add it to [`all`], and pick a
//! camera. Bodies made by the engine's builders (cloth grids, tet and pressure soft
//! bodies, ropes) join a scene through [`Sim::adopt_body`]; fluids through
//! [`Sim::adopt_fluid`] (the fluid scenes are in `fluids.rs`, the granular one in
//! `granular.rs`).

use sinew::{
    AnisotropyDesc, BodyConstraints, BodyId, BreakReport, ClothDesc, ClothGridDesc, ColliderDesc,
    CollisionFilter, DiffuseKind, FamilyKind, FluidId, PressureBodyDesc, Quat, RopeDesc, RopeEnd,
    SkinWeights, Solver, TetBodyDesc, TetModel, Transform, Vec3, WindDesc, World, WorldDesc,
};

use super::raster::water::{self, Dot, Splat, WaterLook};
use super::raster::{Painter, Rgb};
use sinew::Shape as ColliderShape;

#[path = "fluids.rs"]
mod fluids;
pub use fluids::*;

#[path = "granular.rs"]
mod granular;
pub use granular::*;

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
    /// A closed surface: triangles of particle indices, wound counter-clockwise seen
    /// from outside, drawn shaded; `smooth` averages the normals at the vertices
    /// (a balloon), otherwise each face is flat (a cube).
    Mesh {
        tris: Vec<[u32; 3]>,
        smooth: bool,
        front: Rgb,
        back: Rgb,
    },
    /// A sphere collider (not simulated): shaded triangles of an icosphere.
    Sphere {
        centre: Vec3,
        radius: f32,
        colour: Rgb,
    },
    /// Tubes between particle pairs, each with the constraint that joins it (family,
    /// id); a pair whose constraint the world removed (broken, cut) is not drawn.
    Links {
        pairs: Vec<DrawnLink>,
        radius: f32,
        colour: Rgb,
    },
    /// A closed ring of particles `first..first+count` (a 2D soft body): a tube
    /// through them, closed, around a flat-shaded fill of colour `fill`.
    Ring {
        first: u32,
        count: u32,
        radius: f32,
        colour: Rgb,
        fill: Rgb,
    },
    /// A fixed shaded tube (a hose, a bar), not simulated; the scene may move it.
    Tube {
        a: Vec3,
        b: Vec3,
        radius: f32,
        colour: Rgb,
    },
    /// The live particles of a fluid, read back each frame as ellipsoids (`anisotropy`)
    /// and drawn as one body of water (`raster::water`, looking as `look`) coloured by
    /// depth and speed (see [`WaterColours`]), with its diffuse particles (if it has
    /// any) as spray, foam and bubbles.
    Fluid {
        fluid: FluidId,
        anisotropy: AnisotropyDesc,
        look: WaterLook,
        colours: WaterColours,
    },
}

/// Two particles drawn joined, with the constraint that joins them (family, id), if
/// it can be removed.
pub type DrawnLink = ([u32; 2], Option<(FamilyKind, u32)>);

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
    /// Compliant bend links (i, i+2) with their compliance α (m/N): springs whose
    /// elastic energy C²/(2α) counts in [`Sim::energy`]; not in the stretch statistics.
    pub springs: Vec<(Link, f32)>,
    pub shapes: Vec<Shape>,
    /// Particles drawn with a "hand" marker this frame (driven by a grab).
    pub held: Vec<u32>,
    /// One line of scene-specific status for the corner text.
    pub status: String,
    /// Scene-specific numbers that the scene's observer records and
    /// tests/physics/showcase.rs checks.
    pub metrics: Vec<Metric>,
    /// The scene's fluids with their particle mass (kg): their live particles count
    /// in [`Sim::energy`] (their reserved slots are inert, with mass 0 in `mass`).
    pub fluids: Vec<(FluidId, f32)>,
}

/// A scene-specific number: its name (with its unit), its value, and whether it is a
/// count (printed as an integer).
#[derive(Clone, Copy, Debug)]
pub struct Metric {
    pub name: &'static str,
    pub value: f64,
    pub count: bool,
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.count {
            write!(f, "{}: {}", self.name, self.value)
        } else {
            write!(f, "{}: {}", self.name, fixed(self.value, 5))
        }
    }
}

/// `value` with `decimals` decimals, without the sign of a value that rounds to zero
/// ("0.00000", never "-0.00000"); "n/a" for a value never recorded (NaN).
pub fn fixed(value: f64, decimals: usize) -> String {
    if value.is_nan() {
        return "n/a".into();
    }
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(magnitude) if magnitude.bytes().all(|b| b == b'0' || b == b'.') => {
            magnitude.to_string()
        }
        _ => text,
    }
}

impl Sim {
    pub fn new(desc: WorldDesc) -> Sim {
        Sim {
            world: World::new(desc).expect("scene world desc is valid"),
            mass: Vec::new(),
            inv_mass: Vec::new(),
            links: Vec::new(),
            springs: Vec::new(),
            shapes: Vec::new(),
            held: Vec::new(),
            status: String::new(),
            metrics: Vec::new(),
            fluids: Vec::new(),
        }
    }

    /// A scene around a world built elsewhere (a benchmark scene of `sinew::scenes`):
    /// every particle's mass is read back from the world (pinned and inert ones get 0),
    /// no links yet (adopt the bodies' with [`Sim::adopt_links`]).
    pub fn from_world(world: World) -> Sim {
        let n = world.particle_count() as usize;
        let inv_mass: Vec<f32> = (0..n).map(|i| world.particles().inverse_mass(i)).collect();
        Sim {
            world,
            mass: inv_mass
                .iter()
                .map(|&w| if w > 0.0 { 1.0 / w } else { 0.0 })
                .collect(),
            inv_mass,
            links: Vec::new(),
            springs: Vec::new(),
            shapes: Vec::new(),
            held: Vec::new(),
            status: String::new(),
            metrics: Vec::new(),
            fluids: Vec::new(),
        }
    }

    /// Takes a fluid into the bookkeeping: its reserved particles get mass 0 here (the
    /// live ones count in [`Sim::energy`] through the readback, the others are inert).
    /// Returns its first reserved particle and capacity.
    pub fn adopt_fluid(&mut self, fluid: FluidId) -> (u32, u32) {
        let (first, capacity) = self
            .world
            .fluid_particle_range(fluid)
            .expect("fluid exists");
        let range = first as usize..(first + capacity) as usize;
        // A world built elsewhere ([`Sim::from_world`]) has the slots already.
        if self.mass.len() == range.start {
            self.mass.resize(range.end, 0.0);
            self.inv_mass.resize(range.end, 0.0);
        }
        assert!(self.mass.len() >= range.end, "fluids are adopted in order");
        self.mass[range.clone()].fill(0.0);
        self.inv_mass[range].fill(0.0);
        let desc = self.world.fluid_desc(fluid).expect("fluid exists");
        let s = desc.spacing;
        let volume = if self.world.planar().is_some() {
            s * s
        } else {
            s * s * s
        };
        self.fluids.push((fluid, desc.rest_density * volume));
        (first, capacity)
    }

    /// The live particles of `fluid`: positions and velocities (m, m/s).
    pub fn fluid_particles(&self, fluid: FluidId) -> (Vec<Vec3>, Vec<Vec3>) {
        let (mut p, mut v) = (Vec::new(), Vec::new());
        self.world
            .read_fluid_particles(fluid, 1.0, |_, q| {
                p.push(q.position);
                v.push(q.velocity);
            })
            .expect("fluid exists");
        (p, v)
    }

    /// Sets (or adds) the metric `name`.
    pub fn set_metric(&mut self, name: &'static str, value: f64) {
        self.record(name, value, false);
    }

    /// Sets (or adds) the count `name` (a metric printed as an integer).
    pub fn set_count(&mut self, name: &'static str, n: usize) {
        self.record(name, n as f64, true);
    }

    fn record(&mut self, name: &'static str, value: f64, count: bool) {
        let metric = Metric { name, value, count };
        match self.metrics.iter_mut().find(|m| m.name == name) {
            Some(m) => *m = metric,
            None => self.metrics.push(metric),
        }
    }

    /// The metric `name` (NaN when it was never recorded).
    pub fn metric(&self, name: &str) -> f64 {
        self.metrics
            .iter()
            .find(|m| m.name == name)
            .map_or(f64::NAN, |m| m.value)
    }

    /// Takes a body a builder just added into the bookkeeping: its particles' masses
    /// (read back from the world; a pinned one gets mass 0 here) and its stretch links
    /// (for the stretch statistics). Returns its first particle and count.
    pub fn adopt_body(&mut self, id: BodyId) -> (u32, u32) {
        let (first, count) = self.world.body_particle_range(id).expect("body exists");
        assert_eq!(
            first as usize,
            self.mass.len(),
            "bodies are adopted in order"
        );
        for i in first..first + count {
            let w = self.world.particles().inverse_mass(i as usize);
            self.inv_mass.push(w);
            self.mass.push(if w > 0.0 { 1.0 / w } else { 0.0 });
        }
        self.adopt_links(id);
        (first, count)
    }

    /// Adds a body's stretch links to the stretch statistics.
    pub fn adopt_links(&mut self, id: BodyId) {
        let links = &self.world.constraint_sets().link;
        let stretch = self
            .world
            .body(id)
            .expect("body exists")
            .parts
            .stretch
            .clone();
        self.links.extend(stretch.map(|c| {
            let [a, b] = links.particles_of(c as usize);
            Link {
                a,
                b,
                rest: links.rest(c as usize),
            }
        }));
    }

    /// Total mass (kg) of particles `first..first+count` (pinned ones count 0).
    pub fn mass_of(&self, first: u32, count: u32) -> f32 {
        self.mass[first as usize..(first + count) as usize]
            .iter()
            .sum()
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

    /// Adds XPBD distance constraints at the current distances with compliance α > 0
    /// (m/N) as springs: bend links that count in the energy, not in the stretch.
    pub fn springs(&mut self, pairs: &[[u32; 2]], compliance: f32) {
        let p = self.positions();
        self.world
            .add_distance_constraints(pairs, None, compliance)
            .expect("scene constraints are valid");
        self.springs.extend(pairs.iter().map(|&[a, b]| {
            let rest = p[a as usize].distance(p[b as usize]);
            (Link { a, b, rest }, compliance)
        }));
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

    /// Kinetic + gravitational potential energy (J, zero at the origin, for the
    /// world's gravity) of the particles that move freely now (inverse mass > 0),
    /// plus the elastic energy C²/(2α) of the springs; 0 (not −0, the empty sum of
    /// floats) when there is nothing.
    pub fn energy(&self) -> f64 {
        let (p, v) = (self.positions(), self.velocities());
        let g = self.world.desc().gravity;
        let elastic: f64 = self
            .springs
            .iter()
            .map(|(l, alpha)| {
                let c = (p[l.a as usize].distance(p[l.b as usize]) - l.rest) as f64;
                c * c / (2.0 * *alpha as f64)
            })
            .fold(0.0, |sum, e| sum + e);
        let fluid: f64 = self
            .fluids
            .iter()
            .map(|&(fluid, m)| {
                let (p, v) = self.fluid_particles(fluid);
                p.iter()
                    .zip(&v)
                    .map(|(x, u)| {
                        let height = -(g.x as f64 * x.x as f64
                            + g.y as f64 * x.y as f64
                            + g.z as f64 * x.z as f64);
                        m as f64 * (0.5 * u.length_squared() as f64 + height)
                    })
                    .fold(0.0, |sum, e| sum + e)
            })
            .fold(0.0, |sum, e| sum + e);
        elastic
            + fluid
            + (0..p.len())
                .filter(|&i| self.inv_mass[i] > 0.0)
                .map(|i| {
                    let m = self.mass[i] as f64;
                    let height = -(g.x as f64 * p[i].x as f64
                        + g.y as f64 * p[i].y as f64
                        + g.z as f64 * p[i].z as f64);
                    0.5 * m * v[i].length_squared() as f64 + m * height
                })
                .fold(0.0, |sum, e| sum + e)
    }

    /// Largest relative stretch (|x_a − x_b| − rest) / rest over `links` (≤ 0 when
    /// every link is at or below its rest length); `None` without links.
    pub fn max_stretch(&self, links: &[Link]) -> Option<f32> {
        let p = self.positions();
        links
            .iter()
            .map(|l| (p[l.a as usize].distance(p[l.b as usize]) - l.rest) / l.rest)
            .reduce(f32::max)
    }
}

/// Drives a scene between frames: called before each step with the time t (s) at the
/// start of the step.
pub type Drive = Box<dyn FnMut(&mut Sim, f32) + Send>;

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
    /// Called with every recorded state (time t, s, from 0 to the end, after the
    /// step that reached it) to record the scene's metrics.
    pub observe: Option<Drive>,
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
        observe: None,
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
/// Compliance (m/N) of the hand's attachment once it lets go.
pub const SWING_RELEASED_COMPLIANCE: f32 = 1.0e10;
/// Compliance (m/N) of the swinging rope's bend links (i, i+2).
pub const SWING_BEND_COMPLIANCE: f32 = 1.0e-3;

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

/// The rope swing with a grab: a 1 m rope (rigid links, bend links of 1e-3 m/N)
/// pinned at one end swings down from horizontal; at 1.2 s its tip is grabbed (a hard
/// attachment to a host transform, the hand, moved every frame), dragged to the left,
/// swung along a circle under the anchor and released at 2.5 s with the hand's
/// velocity (2.5 m/s): it flies up to the right and swings on freely.
pub fn rope_swing() -> Scene {
    // Two iterations: the bend links converge with the rigid links they share
    // particles with.
    let mut sim = Sim::new(WorldDesc {
        iterations: 2,
        ..rope_desc(60, 0.1)
    });
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
    // A rope resists bending: bend links keep the whip after the release a smooth
    // curve instead of a chain of free hinges that folds at single joints.
    let bends: Vec<[u32; 2]> = (0..ROPE_LINKS - 1)
        .map(|i| [first + i, first + i + 2])
        .collect();
    sim.springs(&bends, SWING_BEND_COMPLIANCE);
    sim.shapes.push(Shape::Ball {
        particle: first,
        radius: 0.03,
        colour: Rgb::hex(0x606870),
    });
    let tip = first + ROPE_LINKS;
    let at = |position: Vec3| Transform {
        position,
        rotation: Quat::IDENTITY,
    };
    let host = sim
        .world
        .add_attachment_host(at(SWING_ANCHOR))
        .expect("host is valid");
    // The hand: a host transform the tip is attached to. The world moves it along the
    // interpolation between the frames' transforms over the substeps, so the hand
    // pulls the rope smoothly (a pinned tip written once a frame would jump 4 cm
    // in the first substep and fling its neighbour at over 100 m/s).
    let mut grab: Option<(u32, Vec3, Vec3)> = None;
    let mut hand_now = SWING_ANCHOR;
    let drive = move |sim: &mut Sim, t: f32| {
        let dt = 1.0 / SIM_HZ;
        let tip_now = sim.positions()[tip as usize];
        if t + 0.5 * dt < GRAB_START {
            // The hand follows the tip one step behind until it grabs.
            hand_now = tip_now;
            sim.world
                .set_attachment_host_transform(host, at(hand_now))
                .expect("host exists");
            sim.status = "swinging freely".into();
            return;
        }
        if t + 0.5 * dt >= GRAB_END {
            if let Some((id, _, _)) = grab.filter(|_| !sim.held.is_empty()) {
                // Release: the API keeps attachments, so the hand lets go by making
                // the attachment a spring of 1e10 m/N (under 1e-9 N at any distance
                // here); the tip flies on with the velocity the hand gave it.
                sim.world
                    .set_attachment_compliance(id, 1, SWING_RELEASED_COMPLIANCE)
                    .expect("attachment exists");
                sim.held.clear();
            }
            sim.status = "released: flies with the hand's velocity".into();
            return;
        }
        let (_, from, offset) = *grab.get_or_insert_with(|| {
            // Hard attachment (α = 0) where the tip is now, `offset` from the hand.
            let id = sim
                .world
                .add_attachments(host, &[tip], None, 0.0)
                .expect("tip exists");
            sim.held.push(tip);
            (id, tip_now, tip_now - hand_now)
        });
        // The hand moves so that the tip is at grab_hand at the end of this step.
        hand_now = grab_hand(t + dt, from) - offset;
        sim.world
            .set_attachment_host_transform(host, at(hand_now))
            .expect("host exists");
        sim.status = "GRAB: tip attached to a moving host".into();
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
        observe: None,
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
        observe: None,
        free_after: WIND_END,
        labels: Vec::new(),
    }
}

/// The three materials of the comparison: name, compliance (m/N, from the README's
/// table of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017), colour.
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
        observe: None,
        free_after: 0.0,
        labels,
    }
}

/// A cube of `n`×`n`×`n` cells (6 tets each, Kuhn triangulation, conforming across
/// cells), `size` m wide, centred at `centre`: vertices and tets (positive volume).
pub fn tet_cube(n: u32, size: f32, centre: Vec3) -> (Vec<Vec3>, Vec<[u32; 4]>) {
    let c = n + 1;
    let id = |i: u32, j: u32, k: u32| i + c * (j + c * k);
    let mut v = Vec::new();
    for k in 0..c {
        for j in 0..c {
            for i in 0..c {
                let unit = Vec3::new(i as f32, j as f32, k as f32) / n as f32 - Vec3::splat(0.5);
                v.push(centre + unit * size);
            }
        }
    }
    let mut tets = Vec::new();
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                let corner = |b: u32| id(i + (b & 1), j + ((b >> 1) & 1), k + (b >> 2));
                for [a, b] in [[1, 3], [3, 2], [2, 6], [6, 4], [4, 5], [5, 1]] {
                    let mut t = [corner(0), corner(a), corner(b), corner(7)];
                    let x = t.map(|p| v[p as usize]);
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

/// The boundary of a tet mesh: the faces that belong to one tet only, wound
/// counter-clockwise seen from outside (away from the tet's fourth vertex).
pub fn tet_surface(vertices: &[Vec3], tets: &[[u32; 4]]) -> Vec<[u32; 3]> {
    let mut uses = std::collections::HashMap::<[u32; 3], u32>::new();
    let key = |f: [u32; 3]| {
        let mut k = f;
        k.sort_unstable();
        k
    };
    for t in tets {
        for skip in 0..4 {
            let f = [t[(skip + 1) % 4], t[(skip + 2) % 4], t[(skip + 3) % 4]];
            *uses.entry(key(f)).or_insert(0) += 1;
        }
    }
    let mut out = Vec::new();
    for t in tets {
        for skip in 0..4 {
            let mut f = [t[(skip + 1) % 4], t[(skip + 2) % 4], t[(skip + 3) % 4]];
            if uses[&key(f)] != 1 {
                continue;
            }
            let [a, b, c] = f.map(|p| vertices[p as usize]);
            if (b - a).cross(c - a).dot(vertices[t[skip] as usize] - a) > 0.0 {
                f.swap(1, 2);
            }
            out.push(f);
        }
    }
    out
}

/// An icosphere of radius `r` centred at `centre`, `levels` subdivisions of the
/// icosahedron: vertices and triangles wound counter-clockwise seen from outside.
pub fn icosphere(levels: u32, r: f32, centre: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let t = (1.0 + 5f32.sqrt()) / 2.0;
    let mut v: Vec<Vec3> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect();
    let mut f: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..levels {
        let mut mid = std::collections::HashMap::new();
        let mut next = Vec::new();
        for tri in &f {
            let m: Vec<u32> = (0..3)
                .map(|k| {
                    let (a, b) = (tri[k], tri[(k + 1) % 3]);
                    *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
                        v.push(((v[a as usize] + v[b as usize]) / 2.0).normalize());
                        v.len() as u32 - 1
                    })
                })
                .collect();
            next.push([tri[0], m[0], m[2]]);
            next.push([tri[1], m[1], m[0]]);
            next.push([tri[2], m[2], m[1]]);
            next.push([m[0], m[1], m[2]]);
        }
        f = next;
    }
    for tri in &mut f {
        let [a, b, c] = tri.map(|p| v[p as usize]);
        if (b - a).cross(c - a).dot(a + b + c) < 0.0 {
            tri.swap(1, 2);
        }
    }
    (v.into_iter().map(|p| centre + p * r).collect(), f)
}

/// Centre of mass (m) of particles `first..first+count` (pinned ones excluded).
pub fn centre_of_mass(sim: &Sim, first: u32, count: u32) -> Vec3 {
    let p = sim.positions();
    let range = first as usize..(first + count) as usize;
    let m: f32 = sim.mass[range.clone()].iter().sum();
    range.map(|i| p[i] * sim.mass[i]).sum::<Vec3>() / m
}

/// Squashes particles `first..first+count` to `factor` of their extent along `axis`
/// (unit) about their centre of mass, which stays put, and stops them (positions and
/// velocities written through the public API).
pub fn squash(sim: &mut Sim, first: u32, count: u32, axis: Vec3, factor: f32) {
    let com = centre_of_mass(sim, first, count);
    let p = sim.positions();
    let squashed: Vec<Vec3> = p[first as usize..(first + count) as usize]
        .iter()
        .map(|&x| x - (1.0 - factor) * (x - com).dot(axis) * axis)
        .collect();
    sim.world
        .write_positions(first, &squashed)
        .expect("body particles exist");
    sim.world
        .write_velocities(first, &vec![Vec3::ZERO; count as usize])
        .expect("body particles exist");
}

/// Largest |distance − rest distance| (m) over all pairs of points: zero exactly when
/// `now` is `rest` moved rigidly.
pub fn shape_error(now: &[Vec3], rest: &[Vec3]) -> f32 {
    let mut worst = 0.0f32;
    for i in 0..now.len() {
        for j in i + 1..now.len() {
            let e = (now[i].distance(now[j]) - rest[i].distance(rest[j])).abs();
            worst = worst.max(e);
        }
    }
    worst
}

/// Fraction of its extent a soft cube is squashed to, and when (s): along y at the
/// start, along x at the second time.
pub const SQUASH_FACTOR: f32 = 0.7;
pub const SECOND_SQUASH: f32 = 2.0;
pub const CUBE_SIZE: f32 = 0.5;
pub const CUBE_CELLS: u32 = 3;
pub const CUBE_MASS: f32 = 1.0;
/// Extra velocity damping of the cubes (1/s).
pub const CUBE_DAMPING: f32 = 1.0;
/// The two cubes: label, tet model, compliance of the edges (m/N) or of the strain
/// components (1/(N·m)), centre, colour. Soft enough to wobble visibly at 60 Hz.
pub const CUBES: [(&str, TetModel, f32, Vec3, u32); 2] = [
    (
        "edges + volume",
        TetModel::EdgesAndVolume,
        0.01,
        Vec3::new(-0.45, 1.0, 0.0),
        0x4aa3d8,
    ),
    (
        "strain + volume",
        TetModel::Strain,
        0.01,
        Vec3::new(0.45, 1.0, 0.0),
        0xd8884a,
    ),
];
/// Metric names per cube: V/V0 just after the first squash, seconds until V ≥ 95% V0
/// again, V/V0 at SECOND_SQUASH (before it), V/V0 just after the second squash,
/// seconds until 95% again, V/V0 at the end, largest drift of the centre of mass (m),
/// shape error (m: largest |distance − rest distance| over all vertex pairs, i.e. up
/// to a rigid motion) at SECOND_SQUASH (before it) and at the end.
pub const CUBE_METRICS: [[&str; 9]; 2] = [
    [
        "edges: V/V0 squashed",
        "edges: s to 95% V0",
        "edges: V/V0 at 2 s",
        "edges: V/V0 squashed again",
        "edges: s to 95% V0 again",
        "edges: V/V0 at end",
        "edges: centre of mass drift (m)",
        "edges: shape error at 2 s (m)",
        "edges: shape error at end (m)",
    ],
    [
        "strain: V/V0 squashed",
        "strain: s to 95% V0",
        "strain: V/V0 at 2 s",
        "strain: V/V0 squashed again",
        "strain: s to 95% V0 again",
        "strain: V/V0 at end",
        "strain: centre of mass drift (m)",
        "strain: shape error at 2 s (m)",
        "strain: shape error at end (m)",
    ],
];

/// Soft bodies in zero gravity: two 0.5 m tet-mesh cubes (3 × 3 × 3 cells, 162 tets,
/// 1 kg, incompressible tet volumes), one held together by edge links, one by
/// strain-based constraints, squashed to 70% of their height and released: they
/// spring back to their rest volume and shape. At 2 s they are squashed to 70% of
/// their width and recover again. The squash is written through `write_positions`
/// about each cube's centre of mass, which never moves (no gravity, no contacts).
pub fn soft_bodies() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        gravity: Vec3::ZERO,
        substeps: 10,
        solver: Solver::GaussSeidel,
        ..WorldDesc::default()
    });
    let mut cubes = Vec::new();
    let mut labels = Vec::new();
    for &(label, model, compliance, centre, colour) in &CUBES {
        let (v, tets) = tet_cube(CUBE_CELLS, CUBE_SIZE, centre);
        let id = sim
            .world
            .add_tet_body(
                &TetBodyDesc {
                    model,
                    total_mass: CUBE_MASS,
                    stretch_compliance: compliance,
                    shear_compliance: compliance,
                    damping: CUBE_DAMPING,
                    ..TetBodyDesc::default()
                },
                &v,
                &tets,
                None,
            )
            .expect("cube is valid");
        let (first, count) = sim.adopt_body(id);
        let c = Rgb::hex(colour);
        sim.shapes.push(Shape::Mesh {
            tris: tet_surface(&v, &tets)
                .into_iter()
                .map(|t| t.map(|p| p + first))
                .collect(),
            smooth: false,
            front: c,
            back: c.scale(0.5),
        });
        let v0 = sim.world.body_volume(id).expect("tet body") as f64;
        let com0 = centre_of_mass(&sim, first, count);
        squash(&mut sim, first, count, Vec3::Y, SQUASH_FACTOR);
        cubes.push((id, first, count, v0, com0, v));
        labels.push(label.to_string());
    }
    for (k, &(id, _, _, v0, _, _)) in cubes.iter().enumerate() {
        let v = sim.world.body_volume(id).expect("tet body") as f64;
        sim.set_metric(CUBE_METRICS[k][0], v / v0);
    }
    let drive_cubes = cubes.clone();
    let dt = 1.0 / SIM_HZ;
    let drive = move |sim: &mut Sim, t: f32| {
        if (t - SECOND_SQUASH).abs() < 0.5 * dt {
            for (k, &(id, first, count, v0, _, _)) in drive_cubes.iter().enumerate() {
                squash(sim, first, count, Vec3::X, SQUASH_FACTOR);
                let v = sim.world.body_volume(id).expect("tet body") as f64;
                sim.set_metric(CUBE_METRICS[k][3], v / v0);
            }
        }
    };
    let observe = move |sim: &mut Sim, t: f32| {
        let mut status = String::from("V/V0");
        for (k, (id, first, count, v0, com0, rest)) in cubes.iter().enumerate() {
            let (id, first, count, v0, com0) = (*id, *first, *count, *v0, *com0);
            let names = CUBE_METRICS[k];
            let ratio = sim.world.body_volume(id).expect("tet body") as f64 / v0;
            status += &format!(" {:.3}", ratio);
            let (since, slot) = if t + 0.5 * dt < SECOND_SQUASH {
                (0.0, names[1])
            } else {
                (SECOND_SQUASH, names[4])
            };
            if t > since + 0.5 * dt && ratio >= 0.95 && sim.metric(slot).is_nan() {
                sim.set_metric(slot, (t - since) as f64);
            }
            let shape = shape_error(
                &sim.positions()[first as usize..(first + count) as usize],
                rest,
            );
            if (t - SECOND_SQUASH).abs() < 0.5 * dt {
                sim.set_metric(names[2], ratio);
                sim.set_metric(names[7], shape as f64);
            }
            sim.set_metric(names[5], ratio);
            sim.set_metric(names[8], shape as f64);
            let drift = centre_of_mass(sim, first, count).distance(com0) as f64;
            let worst = sim.metric(names[6]);
            sim.set_metric(
                names[6],
                if worst.is_nan() {
                    drift
                } else {
                    worst.max(drift)
                },
            );
        }
        sim.status = format!("{status}  squashed to 70% at 0 s (y) and {SECOND_SQUASH} s (x)");
    };
    Scene {
        name: "soft_bodies",
        title: "Soft bodies: squashed tet cubes spring back",
        seconds: 4.0,
        // Mid-rebound: the edge cube bulges and wobbles.
        still_at: 0.067,
        eye: Vec3::new(0.6, 1.7, 2.2),
        target: Vec3::new(0.0, 0.95, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        // Driven (squashed) up to the second squash; elastic energy is not counted.
        free_after: 4.0,
        labels,
    }
}

pub const TETHER_CLOTH_SIZE: f32 = 1.0;
pub const TETHER_CLOTH_SEGMENTS: u32 = 20;
pub const TETHER_CLOTH_HEIGHT: f32 = 2.0;
pub const TETHER_CLOTH_MASS: f32 = 0.2;
/// Extra velocity damping of the cloths (1/s): they swing down and settle.
pub const TETHER_CLOTH_DAMPING: f32 = 1.0;
/// The two cloths: tethers on or off, x of the left edge, metric name of the largest
/// edge stretch over the run, label.
pub const TETHER_CLOTHS: [(bool, f32, &str, &str); 2] = [
    (true, -1.1, "with tethers: max edge stretch", "tethers"),
    (
        false,
        0.1,
        "without tethers: max edge stretch",
        "no tethers",
    ),
];

/// Tethers against stretch: two 1 m × 1 m cloths (20 × 20 cells, 0.2 kg, inextensible
/// edge links, dihedral bending) start horizontal, held by the two corners of their
/// back edge, fall and hang. With one substep's Gauss-Seidel sweep per substep the
/// chain of links from the pins gives a little, more the further it is from them;
/// tethers (each particle at most its rest distance from its nearest pins, Kim et al.
/// 2012) stop that: the left cloth stays within 2% everywhere, the right one sags
/// further. The blue marks are where the free edges hang at rest length.
pub fn cloth_tethers() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 20,
        solver: Solver::GaussSeidel,
        ..WorldDesc::default()
    });
    let n = TETHER_CLOTH_SEGMENTS + 1;
    let mut cloths = Vec::new();
    let mut labels = Vec::new();
    for &(tethers, x, metric, label) in &TETHER_CLOTHS {
        let id = sim
            .world
            .add_cloth_grid(
                &ClothDesc {
                    tethers,
                    damping: TETHER_CLOTH_DAMPING,
                    ..ClothDesc::default()
                },
                &ClothGridDesc {
                    origin: Vec3::new(x, TETHER_CLOTH_HEIGHT, 0.0),
                    u: Vec3::X * TETHER_CLOTH_SIZE,
                    v: Vec3::Z * TETHER_CLOTH_SIZE,
                    segments_u: TETHER_CLOTH_SEGMENTS,
                    segments_v: TETHER_CLOTH_SEGMENTS,
                    total_mass: TETHER_CLOTH_MASS,
                    pin_corners: 1 | 2,
                },
            )
            .expect("cloth is valid");
        let links_from = sim.links.len();
        let (first, _) = sim.adopt_body(id);
        let links = sim.links[links_from..].to_vec();
        let (front, back) = if tethers {
            (0x3c8c64, 0xa0d8b0)
        } else {
            (0xc8503c, 0xe8c060)
        };
        sim.shapes.push(Shape::Cloth {
            first,
            nx: n,
            ny: n,
            front: Rgb::hex(front),
            back: Rgb::hex(back),
        });
        for i in [0, n - 1] {
            sim.shapes.push(Shape::Ball {
                particle: first + i,
                radius: 0.025,
                colour: Rgb::hex(0x606870),
            });
        }
        // Where the free edge hangs at rest length, straight below the pins.
        let bottom = TETHER_CLOTH_HEIGHT - TETHER_CLOTH_SIZE;
        sim.shapes.push(Shape::Mark {
            a: Vec3::new(x, bottom, 0.0),
            b: Vec3::new(x + TETHER_CLOTH_SIZE, bottom, 0.0),
            colour: Rgb::hex(0x60d0ff),
        });
        cloths.push((links, metric));
        labels.push(label.to_string());
    }
    let tether_count = sim.world.family_constraint_count(FamilyKind::Tether);
    let observe = move |sim: &mut Sim, _t: f32| {
        let mut now = Vec::new();
        for (links, metric) in &cloths {
            let s = sim.max_stretch(links).expect("a cloth has links") as f64;
            max_metric(sim, metric, s);
            now.push(s);
        }
        sim.status = format!(
            "stretch now {:.2}% / {:.2}%, {tether_count} tethers (left)",
            100.0 * now[0].max(0.0),
            100.0 * now[1].max(0.0)
        );
    };
    Scene {
        name: "cloth_tethers",
        title: "Cloth with and without tethers",
        seconds: 5.0,
        still_at: 0.6,
        eye: Vec3::new(0.5, 1.9, 3.3),
        target: Vec3::new(0.0, 1.45, 0.0),
        fov_deg: 50.0,
        sim,
        drive: None,
        observe: Some(Box::new(observe)),
        free_after: 0.0,
        labels,
    }
}

/// Where the attachment host starts (m), when it starts to circle (s), the radius (m)
/// it ramps up to over HOST_RAMP s and its angular speed (rad/s).
pub const HOST_START: Vec3 = Vec3::new(0.0, 1.9, 0.0);
pub const HOST_CIRCLE_START: f32 = 2.0;
pub const HOST_RAMP: f32 = 1.0;
/// The host force at rest is averaged over this long before the host moves (s).
pub const HOST_REST_WINDOW: f32 = 1.0;
pub const HOST_RADIUS: f32 = 0.25;
pub const HOST_OMEGA: f32 = 2.5;
pub const BALLOON_ROPE_LENGTH: f32 = 0.5;
pub const BALLOON_ROPE_MASS: f32 = 0.1;
pub const BALLOON_RADIUS: f32 = 0.2;
pub const BALLOON_MASS: f32 = 0.2;

/// The host's position at time t (s): still, then circling about its start in the
/// horizontal plane with a radius that eases in.
pub fn host_at(t: f32) -> Vec3 {
    if t <= HOST_CIRCLE_START {
        return HOST_START;
    }
    let s = t - HOST_CIRCLE_START;
    let r = HOST_RADIUS * smoothstep(s / HOST_RAMP);
    let phi = HOST_OMEGA * s;
    HOST_START + r * Vec3::new(phi.cos(), 0.0, phi.sin())
}

/// An attachment and a pressure balloon: a 0.5 m rope (10 segments, 0.1 kg) is
/// hard-attached (α = 0) by its top particle to a host transform, with a 0.2 kg
/// pressure balloon (icosphere, r = 0.2 m, 162 vertices, pressure 1) tied to its end.
/// The host holds still for 2 s, reading back the attachment force (the weight of
/// everything below it), then circles: rope and balloon swing out like a conical
/// pendulum while the balloon keeps its volume.
pub fn balloon_on_a_host() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 20,
        solver: Solver::GaussSeidel,
        damping: 0.5,
        ..WorldDesc::default()
    });
    let rope = sim
        .world
        .add_rope(&RopeDesc {
            start: HOST_START,
            end: HOST_START - Vec3::Y * BALLOON_ROPE_LENGTH,
            segments: 10,
            total_mass: BALLOON_ROPE_MASS,
            radius: 0.012,
            tethers: false,
            pin_start: false,
            ..RopeDesc::default()
        })
        .expect("rope is valid");
    let (rope_first, rope_count) = sim.adopt_body(rope);
    sim.shapes.push(Shape::Rope {
        label: "rope",
        first: rope_first,
        count: rope_count,
        radius: 0.012,
        colour: Rgb::hex(0xd8a24a),
    });
    let gap = 0.02;
    let centre = HOST_START - Vec3::Y * (BALLOON_ROPE_LENGTH + gap + BALLOON_RADIUS);
    let (v, tris) = icosphere(2, BALLOON_RADIUS, centre);
    let balloon = sim
        .world
        .add_pressure_body(
            &PressureBodyDesc {
                total_mass: BALLOON_MASS,
                stretch_compliance: 1.0e-6,
                damping: 0.5,
                ..PressureBodyDesc::default()
            },
            &v,
            &tris,
            None,
        )
        .expect("balloon is valid");
    let (b_first, _) = sim.adopt_body(balloon);
    let top = v
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.y.total_cmp(&b.1.y))
        .expect("vertices")
        .0;
    // The rope's end is tied to the balloon's top vertex and the ring around it (the
    // vertices within 0.1 m), so that the load spreads over the cap.
    let end = rope_first + rope_count - 1;
    let cap: Vec<[u32; 2]> = (0..v.len() as u32)
        .filter(|&k| v[k as usize].distance(v[top]) < 0.1)
        .map(|k| [b_first + k, end])
        .collect();
    sim.links(&cap, 0.0);
    sim.shapes.push(Shape::Mesh {
        tris: tris.iter().map(|t| t.map(|p| p + b_first)).collect(),
        smooth: true,
        front: Rgb::hex(0xd04a6a),
        back: Rgb::hex(0x802040),
    });
    let host = sim
        .world
        .add_attachment_host(Transform {
            position: HOST_START,
            rotation: Quat::IDENTITY,
        })
        .expect("host is valid");
    let attachment = sim
        .world
        .add_attachments(host, &[rope_first], None, 0.0)
        .expect("attachment is valid");
    sim.shapes.push(Shape::Ball {
        particle: rope_first,
        radius: 0.03,
        colour: Rgb::hex(0x606870),
    });
    // The host's path, as a ring of marks.
    for k in 0..48 {
        let a = |k: u32| {
            let phi = k as f32 * std::f32::consts::TAU / 48.0;
            HOST_START + HOST_RADIUS * Vec3::new(phi.cos(), 0.0, phi.sin())
        };
        if k % 2 == 0 {
            sim.shapes.push(Shape::Mark {
                a: a(k),
                b: a(k + 1),
                colour: Rgb::hex(0x60d0ff),
            });
        }
    }
    let weight = (sim.mass_of(rope_first, rope_count) + BALLOON_MASS) as f64 * G as f64;
    sim.set_metric("weight below the host (N)", weight);
    let v0 = sim.world.body_volume(balloon).expect("pressure body") as f64;
    let dt = 1.0 / SIM_HZ;
    let drive = move |sim: &mut Sim, t: f32| {
        let phi = HOST_OMEGA * (t + dt - HOST_CIRCLE_START).max(0.0);
        sim.world
            .set_attachment_host_transform(
                host,
                Transform {
                    position: host_at(t + dt),
                    rotation: Quat::from_rotation_y(-phi),
                },
            )
            .expect("host exists");
    };
    let (mut rest_sum, mut rest_n) = (glam::DVec3::ZERO, 0u32);
    let observe = move |sim: &mut Sim, t: f32| {
        let mut f = [Vec3::ZERO];
        sim.world
            .read_attachment_forces(attachment, &mut f)
            .expect("attachment exists");
        let f = f[0];
        // The mean over the last second before the host moves: the force read back
        // (from the last substep of each step) jitters by ~10% from step to step.
        if t > HOST_CIRCLE_START - HOST_REST_WINDOW + 0.5 * dt && t < HOST_CIRCLE_START + 0.5 * dt {
            rest_sum += f.as_dvec3();
            rest_n += 1;
            let mean = rest_sum / rest_n as f64;
            sim.set_metric("mean force on the host at rest, y (N)", mean.y);
            sim.set_metric(
                "mean force on the host at rest, horizontal (N)",
                (mean.x * mean.x + mean.z * mean.z).sqrt(),
            );
        }
        let volume = sim.world.body_volume(balloon).expect("pressure body") as f64;
        let off = (volume / v0 - 1.0).abs();
        let top = sim.positions()[rope_first as usize];
        let miss = top.distance(host_at(t)) as f64;
        for (name, value) in [
            ("balloon: max |V/V0 - 1|", off),
            ("rope top: max distance from the host (m)", miss),
        ] {
            let worst = sim.metric(name);
            sim.set_metric(
                name,
                if worst.is_nan() {
                    value
                } else {
                    worst.max(value)
                },
            );
        }
        if t > HOST_CIRCLE_START {
            let worst = sim.metric("force on the host circling, max (N)");
            let value = f.length() as f64;
            sim.set_metric(
                "force on the host circling, max (N)",
                if worst.is_nan() {
                    value
                } else {
                    worst.max(value)
                },
            );
        }
        sim.status = format!(
            "host {}: force ({:.2}, {:.2}, {:.2}) N, weight {:.2} N, V/V0 {:.3}",
            if t <= HOST_CIRCLE_START {
                "still"
            } else {
                "circling"
            },
            f.x,
            f.y,
            f.z,
            weight,
            volume / v0
        );
    };
    Scene {
        name: "balloon",
        title: "Balloon on a rope, attached to a moving host",
        seconds: 6.0,
        still_at: 4.5,
        eye: Vec3::new(0.9, 1.6, 2.4),
        target: Vec3::new(0.0, 1.3, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        free_after: 6.0,
        labels: Vec::new(),
    }
}

/// Kinetic energy (J) of particles `first..first+count`.
pub fn kinetic_energy(sim: &Sim, first: u32, count: u32) -> f64 {
    let v = sim.velocities();
    (first as usize..(first + count) as usize)
        .map(|i| 0.5 * sim.mass[i] as f64 * v[i].length_squared() as f64)
        .sum()
}

/// Keeps the largest value of metric `name` seen so far.
fn max_metric(sim: &mut Sim, name: &'static str, value: f64) {
    let worst = sim.metric(name);
    sim.set_metric(
        name,
        if worst.is_nan() {
            value
        } else {
            worst.max(value)
        },
    );
}

/// Keeps the smallest value of metric `name` seen so far.
fn min_metric(sim: &mut Sim, name: &'static str, value: f64) {
    let best = sim.metric(name);
    sim.set_metric(
        name,
        if best.is_nan() {
            value
        } else {
            best.min(value)
        },
    );
}

/// Smallest distance (m) between two of the points.
pub fn closest_pair(p: &[Vec3]) -> f32 {
    let mut closest = f32::INFINITY;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            closest = closest.min(p[i].distance_squared(p[j]));
        }
    }
    closest.sqrt()
}

/// A ground plane collider through y = 0 facing +y, with Coulomb friction μs, μd and
/// restitution e.
fn ground(sim: &mut Sim, mu_s: f32, mu_d: f32, e: f32) {
    sim.world
        .add_collider(&ColliderDesc {
            shape: ColliderShape::Plane,
            static_friction: mu_s,
            dynamic_friction: mu_d,
            restitution: e,
            ..ColliderDesc::default()
        })
        .expect("ground is valid");
}

/// The sphere the cloth falls on: radius (m), resting on the ground.
pub const DRAPE_SPHERE_R: f32 = 0.3;
pub const DRAPE_SPHERE_CENTRE: Vec3 = Vec3::new(0.0, DRAPE_SPHERE_R, 0.0);
/// The cloth: `DRAPE_N`×`DRAPE_N` particles `DRAPE_SPACING` m apart, `DRAPE_MASS` kg
/// each, radius 0.45 × the spacing, released flat at `DRAPE_HEIGHT` m, offset
/// sideways by `DRAPE_OFFSET` so that it slides off one side a little.
pub const DRAPE_N: u32 = 28;
pub const DRAPE_SPACING: f32 = 0.035;
pub const DRAPE_MASS: f32 = 0.01;
pub const DRAPE_RADIUS: f32 = 0.45 * DRAPE_SPACING;
pub const DRAPE_HEIGHT: f32 = 0.9;
pub const DRAPE_OFFSET: Vec3 = Vec3::new(0.05, 0.0, -0.03);
pub const DRAPE_SECONDS: f32 = 4.0;
/// Metric names of the cloth on the sphere.
pub const DRAPE_INSIDE: &str = "min over the run of |x - c| - (R + r) (m)";
pub const DRAPE_FLOOR: &str = "min over the run of y - r (m)";
pub const DRAPE_CLOSEST: &str = "closest particle pair at the end / 2r";
pub const DRAPE_KE_END: &str = "kinetic energy at the end (J)";
pub const DRAPE_DROP_PE: &str = "potential energy released by the drop (J)";
pub const DRAPE_TOP: &str = "highest particle at the end: height (m)";
pub const DRAPE_TOP_GAP: &str =
    "particle nearest the sphere's vertical axis at the end: |x - c| - (R + r) (m)";

/// Rest position of cloth particle (i, j) of the draped cloth (m).
pub fn drape_rest(i: u32, j: u32) -> Vec3 {
    let half = (DRAPE_N - 1) as f32 * DRAPE_SPACING * 0.5;
    Vec3::new(
        i as f32 * DRAPE_SPACING - half,
        DRAPE_HEIGHT,
        j as f32 * DRAPE_SPACING - half,
    ) + DRAPE_OFFSET
}

/// Cloth on a sphere: a 1.2 m square cloth (36 × 36 particles, 10 g each, radius
/// 1.6 cm, self-collision on) is dropped flat onto a 0.3 m sphere collider standing on
/// a ground plane (both with friction): it drapes over the sphere in folds, its
/// corners settle on the ground, and no particle enters the sphere or another.
pub fn cloth_on_sphere() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 10,
        iterations: 2,
        damping: 0.5,
        ..WorldDesc::default()
    });
    sim.world
        .add_collider(&ColliderDesc {
            shape: ColliderShape::Sphere {
                radius: DRAPE_SPHERE_R,
            },
            position: DRAPE_SPHERE_CENTRE,
            static_friction: 0.4,
            dynamic_friction: 0.3,
            ..ColliderDesc::default()
        })
        .expect("sphere is valid");
    ground(&mut sim, 0.4, 0.3, 0.0);
    let n = DRAPE_N;
    let pos: Vec<Vec3> = (0..n * n).map(|k| drape_rest(k % n, k / n)).collect();
    let first = sim.particles(&pos, &vec![DRAPE_MASS; pos.len()]);
    let id = |i: u32, j: u32| first + j * n + i;
    let (mut links, mut bends) = (Vec::new(), Vec::new());
    for j in 0..n {
        for i in 0..n {
            if i + 1 < n {
                links.push([id(i, j), id(i + 1, j)]);
            }
            if j + 1 < n {
                links.push([id(i, j), id(i, j + 1)]);
            }
            if i + 1 < n && j + 1 < n {
                links.push([id(i, j), id(i + 1, j + 1)]);
                links.push([id(i + 1, j), id(i, j + 1)]);
            }
            if i + 2 < n {
                bends.push([id(i, j), id(i + 2, j)]);
            }
            if j + 2 < n {
                bends.push([id(i, j), id(i, j + 2)]);
            }
        }
    }
    sim.links(&links, 1.0e-6);
    sim.links(&bends, 1.0e-3);
    let count = n * n;
    sim.world
        .set_particle_radii(first, &vec![DRAPE_RADIUS; count as usize])
        .expect("cloth particles exist");
    let filter = CollisionFilter {
        group: 1,
        self_collision: true,
        ..CollisionFilter::default()
    };
    sim.world
        .set_collision_filters(first, &vec![filter; count as usize])
        .expect("cloth particles exist");
    sim.shapes.push(Shape::Sphere {
        centre: DRAPE_SPHERE_CENTRE,
        radius: DRAPE_SPHERE_R,
        colour: Rgb::hex(0x7a8fa8),
    });
    sim.shapes.push(Shape::Cloth {
        first,
        nx: n,
        ny: n,
        front: Rgb::hex(0x3c9a6a),
        back: Rgb::hex(0xe8c060),
    });
    let m = sim.mass_of(first, count) as f64;
    let g = G as f64;
    let dt = 1.0 / SIM_HZ;
    let observe = move |sim: &mut Sim, t: f32| {
        let p = sim.positions();
        let cloth = &p[first as usize..(first + count) as usize];
        let inside = cloth
            .iter()
            .map(|x| x.distance(DRAPE_SPHERE_CENTRE) - (DRAPE_SPHERE_R + DRAPE_RADIUS))
            .fold(f32::INFINITY, f32::min);
        let floor = cloth
            .iter()
            .map(|x| x.y - DRAPE_RADIUS)
            .fold(f32::INFINITY, f32::min);
        min_metric(sim, DRAPE_INSIDE, inside as f64);
        min_metric(sim, DRAPE_FLOOR, floor as f64);
        let ke = kinetic_energy(sim, first, count);
        if t + 0.5 * dt >= DRAPE_SECONDS {
            let mean_y: f64 = cloth.iter().map(|x| x.y as f64).sum::<f64>() / count as f64;
            sim.set_metric(DRAPE_KE_END, ke);
            sim.set_metric(DRAPE_DROP_PE, m * g * (DRAPE_HEIGHT as f64 - mean_y));
            sim.set_metric(
                DRAPE_CLOSEST,
                (closest_pair(cloth) / (2.0 * DRAPE_RADIUS)) as f64,
            );
            let top = cloth
                .iter()
                .copied()
                .max_by(|a, b| a.y.total_cmp(&b.y))
                .expect("cloth particles");
            sim.set_metric(DRAPE_TOP, top.y as f64);
            // Over the sphere's top (a fold may stand as high a little aside).
            let horizontal = |x: &Vec3| (*x - DRAPE_SPHERE_CENTRE).with_y(0.0).length();
            let over = cloth
                .iter()
                .copied()
                .min_by(|a, b| horizontal(a).total_cmp(&horizontal(b)))
                .expect("cloth particles");
            sim.set_metric(
                DRAPE_TOP_GAP,
                (over.distance(DRAPE_SPHERE_CENTRE) - (DRAPE_SPHERE_R + DRAPE_RADIUS)) as f64,
            );
        }
        sim.status = format!(
            "{} contacts, kinetic {:.4} J, self-collision r {:.1} cm",
            sim.world.contacts().len(),
            ke,
            100.0 * DRAPE_RADIUS
        );
    };
    Scene {
        name: "cloth_on_sphere",
        title: "Cloth dropped on a sphere",
        seconds: DRAPE_SECONDS,
        still_at: 0.5,
        eye: Vec3::new(0.9, 1.0, 1.5),
        target: Vec3::new(0.0, 0.4, 0.0),
        fov_deg: 40.0,
        sim,
        drive: None,
        observe: Some(Box::new(observe)),
        free_after: 0.0,
        labels: Vec::new(),
    }
}

/// The ground's friction and restitution under the dropped soft bodies.
pub const DROP_FRICTION: (f32, f32) = (0.6, 0.5);
pub const DROP_RESTITUTION: f32 = 0.5;
pub const DROP_SECONDS: f32 = 5.0;
/// The tet cube: 0.4 m, 3 × 3 × 3 cells, 1 kg, centre released at this height (m),
/// tilted about z and x so that it lands on an edge and tips over.
pub const DROP_CUBE_SIZE: f32 = 0.4;
pub const DROP_CUBE_CENTRE: Vec3 = Vec3::new(-0.35, 1.0, 0.0);
pub const DROP_CUBE_TILT_DEG: (f32, f32) = (-25.0, 10.0);
/// The pressure ball: icosphere of radius 0.2 m (162 vertices), 0.5 kg.
pub const DROP_BALL_RADIUS: f32 = 0.2;
pub const DROP_BALL_CENTRE: Vec3 = Vec3::new(0.45, 1.3, 0.0);
pub const DROP_BALL_MASS: f32 = 0.5;
/// Metric names of the drop, per body (cube, ball): V/V0 at the end, largest
/// |V/V0 − 1| over the run, kinetic energy at the end (J), potential energy released
/// by the fall (J, from the start to the end), highest centre of mass after the
/// first touch of the ground (m, the rebound) and the centre-of-mass height then (m).
pub const DROP_METRICS: [[&str; 7]; 2] = [
    [
        "cube: V/V0 at end",
        "cube: max |V/V0 - 1|",
        "cube: kinetic energy at end (J)",
        "cube: potential energy released (J)",
        "cube: highest centre after first touch (m)",
        "cube: centre at first touch (m)",
        "cube: lowest particle over the run (m)",
    ],
    [
        "ball: V/V0 at end",
        "ball: max |V/V0 - 1|",
        "ball: kinetic energy at end (J)",
        "ball: potential energy released (J)",
        "ball: highest centre after first touch (m)",
        "ball: centre at first touch (m)",
        "ball: lowest particle over the run (m)",
    ],
];

/// Soft bodies dropped on the ground: a tet cube (edges + volume, 1 kg) released
/// tilted from 1 m and a pressure ball (0.5 kg, r = 0.2 m) from 1.3 m fall onto a
/// ground plane with friction (μs 0.6, μd 0.5) and restitution 0.5: they squash,
/// bounce, tip and settle, keeping their volume.
pub fn soft_body_drop() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 20,
        iterations: 2,
        solver: Solver::GaussSeidel,
        ..WorldDesc::default()
    });
    ground(&mut sim, DROP_FRICTION.0, DROP_FRICTION.1, DROP_RESTITUTION);
    let (v, tets) = tet_cube(3, DROP_CUBE_SIZE, Vec3::ZERO);
    let tilt = Quat::from_rotation_z(DROP_CUBE_TILT_DEG.0.to_radians())
        * Quat::from_rotation_x(DROP_CUBE_TILT_DEG.1.to_radians());
    let v: Vec<Vec3> = v.iter().map(|&p| DROP_CUBE_CENTRE + tilt * p).collect();
    let cube = sim
        .world
        .add_tet_body(
            &TetBodyDesc {
                model: TetModel::EdgesAndVolume,
                total_mass: 1.0,
                stretch_compliance: 1.0e-3,
                damping: 1.0,
                ..TetBodyDesc::default()
            },
            &v,
            &tets,
            None,
        )
        .expect("cube is valid");
    let (cube_first, cube_count) = sim.adopt_body(cube);
    sim.shapes.push(Shape::Mesh {
        tris: tet_surface(&v, &tets)
            .into_iter()
            .map(|t| t.map(|p| p + cube_first))
            .collect(),
        smooth: false,
        front: Rgb::hex(0x4aa3d8),
        back: Rgb::hex(0x205070),
    });
    let (bv, btris) = icosphere(2, DROP_BALL_RADIUS, DROP_BALL_CENTRE);
    let ball = sim
        .world
        .add_pressure_body(
            &PressureBodyDesc {
                total_mass: DROP_BALL_MASS,
                stretch_compliance: 1.0e-4,
                damping: 1.0,
                ..PressureBodyDesc::default()
            },
            &bv,
            &btris,
            None,
        )
        .expect("ball is valid");
    let (ball_first, ball_count) = sim.adopt_body(ball);
    sim.shapes.push(Shape::Mesh {
        tris: btris.iter().map(|t| t.map(|p| p + ball_first)).collect(),
        smooth: true,
        front: Rgb::hex(0xd8884a),
        back: Rgb::hex(0x804020),
    });
    let bodies = [
        (cube, cube_first, cube_count),
        (ball, ball_first, ball_count),
    ];
    let v0 = bodies.map(|(id, _, _)| sim.world.body_volume(id).expect("soft body") as f64);
    let y0 = bodies.map(|(_, f, c)| centre_of_mass(&sim, f, c).y as f64);
    let mut touched = [false; 2];
    let dt = 1.0 / SIM_HZ;
    let observe = move |sim: &mut Sim, t: f32| {
        let p = sim.positions();
        let mut status = Vec::new();
        for (k, &(id, first, count)) in bodies.iter().enumerate() {
            let names = DROP_METRICS[k];
            let ratio = sim.world.body_volume(id).expect("soft body") as f64 / v0[k];
            max_metric(sim, names[1], (ratio - 1.0).abs());
            let com = centre_of_mass(sim, first, count).y as f64;
            let low = p[first as usize..(first + count) as usize]
                .iter()
                .map(|x| x.y)
                .fold(f32::INFINITY, f32::min);
            min_metric(sim, names[6], low as f64);
            if !touched[k] && low < 1e-3 {
                touched[k] = true;
                sim.set_metric(names[5], com);
                sim.set_metric(names[4], com);
            }
            if touched[k] {
                max_metric(sim, names[4], com);
            }
            let ke = kinetic_energy(sim, first, count);
            if t + 0.5 * dt >= DROP_SECONDS {
                sim.set_metric(names[0], ratio);
                sim.set_metric(names[2], ke);
                let m = sim.mass_of(first, count) as f64;
                sim.set_metric(names[3], m * G as f64 * (y0[k] - com));
            }
            status.push(format!("V/V0 {ratio:.3}"));
        }
        sim.status = format!(
            "cube {}, ball {}, {} ground contacts",
            status[0],
            status[1],
            sim.world.contacts().len()
        );
    };
    Scene {
        name: "soft_body_drop",
        title: "Soft bodies dropped on the ground",
        seconds: DROP_SECONDS,
        still_at: 0.55,
        eye: Vec3::new(0.5, 0.9, 2.4),
        target: Vec3::new(0.0, 0.45, 0.0),
        fov_deg: 50.0,
        sim,
        drive: None,
        observe: Some(Box::new(observe)),
        free_after: 0.0,
        labels: vec!["tet cube".into(), "pressure ball".into()],
    }
}

/// The picked rope: anchor (m); when the ray is cast and the grab starts, when it is
/// released (s); the grab's compliance (m/N); the path the grab's target is dragged
/// along: from where the tip was picked to `DRAG_TO` (m), eased.
pub const PICK_ANCHOR: Vec3 = Vec3::new(-0.3, 1.6, 0.0);
pub const PICK_AT: f32 = 1.5;
pub const DRAG_END: f32 = 3.0;
pub const RELEASE_AT: f32 = 3.5;
pub const GRAB_COMPLIANCE: f32 = 1.0e-4;
pub const DRAG_TO: Vec3 = Vec3::new(0.5, 1.3, 0.4);
/// Radius (m) around the pick ray within which particles are found.
pub const PICK_RADIUS: f32 = 0.02;
/// Metric names: the particle the ray picked, the ray distance (m) to it and the true
/// distance from the eye (m), the largest distance (m) between the grabbed particle
/// and the grab target from a quarter second after the drag to the release, grabs after
/// the release.
pub const PICK_METRICS: [&str; 5] = [
    "picked particle",
    "pick ray distance (m)",
    "eye to the picked particle (m)",
    "grabbed particle: max distance from the target after the drag (m)",
    "grabs after the release",
];

/// Where the grab's target is at time t (s), for a tip picked at `from`.
pub fn drag_target(t: f32, from: Vec3) -> Vec3 {
    from.lerp(DRAG_TO, smoothstep((t - PICK_AT) / (DRAG_END - PICK_AT)))
}

/// Pick and drag: a 1 m rope of 20 rigid links hangs from a pin after swinging down;
/// at 1.5 s a ray from the camera through its tip picks the tip
/// (`World::pick_particle`), `grab_particle` attaches it to a target (α = 1e-4 m/N)
/// that `move_grab` drags up, right and towards the camera over 1.5 s, holds, and
/// `release_particle` lets go at 3.5 s: the rope swings back down.
pub fn pick_and_drag() -> Scene {
    let mut sim = Sim::new(rope_desc(20, 0.4));
    let first = add_rope(
        &mut sim,
        "rope",
        PICK_ANCHOR,
        Vec3::new(0.6, -0.8, 0.0),
        ROPE_LINKS,
        ROPE_LINK_LENGTH,
        ROPE_PARTICLE_MASS,
        ROPE_PARTICLE_MASS,
        0.0,
        Rgb::hex(0x8ac04a),
    );
    sim.shapes.push(Shape::Ball {
        particle: first,
        radius: 0.03,
        colour: Rgb::hex(0x606870),
    });
    let eye = Vec3::new(0.3, 1.5, 2.4);
    let tip = first + ROPE_LINKS;
    let dt = 1.0 / SIM_HZ;
    let mut picked: Option<(u32, Vec3)> = None;
    let drive = move |sim: &mut Sim, t: f32| {
        if t + 0.5 * dt < PICK_AT {
            sim.status = "hanging freely".into();
            return;
        }
        if t + 0.5 * dt >= RELEASE_AT {
            if let Some((p, _)) = picked.filter(|_| !sim.held.is_empty()) {
                sim.world.release_particle(p).expect("grab exists");
                sim.held.clear();
                let grabs = sim.world.grab_count() as usize;
                sim.set_count(PICK_METRICS[4], grabs);
            }
            sim.status = "released: release_particle".into();
            return;
        }
        let (p, from) = *picked.get_or_insert_with(|| {
            let at = sim.positions()[tip as usize];
            let (p, dist) = sim
                .world
                .pick_particle(eye, (at - eye).normalize(), PICK_RADIUS)
                .expect("ray is valid")
                .expect("the ray through the tip hits the rope");
            let x = sim.positions()[p as usize];
            sim.set_count(PICK_METRICS[0], p as usize);
            sim.set_metric(PICK_METRICS[1], dist as f64);
            sim.set_metric(PICK_METRICS[2], eye.distance(x) as f64);
            sim.world
                .grab_particle(p, x, GRAB_COMPLIANCE)
                .expect("particle is free");
            sim.held.push(p);
            (p, x)
        });
        // Where the target is at the end of this step.
        let target = drag_target(t + dt, from);
        sim.world.move_grab(p, target).expect("grab exists");
        if t > DRAG_END + 0.25 {
            let miss = sim.positions()[p as usize].distance(drag_target(t, from)) as f64;
            max_metric(sim, PICK_METRICS[3], miss);
        }
        sim.status = format!("GRAB: particle {p} picked by a ray, move_grab");
    };
    Scene {
        name: "pick_and_drag",
        title: "Pick a rope with a ray and drag it",
        seconds: 5.0,
        still_at: 2.6,
        eye,
        target: Vec3::new(0.0, 1.2, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: None,
        // The step starting at RELEASE_AT releases the grab: free from the state after.
        free_after: RELEASE_AT + 1.0 / SIM_HZ,
        labels: Vec::new(),
    }
}

/// The pour: `POUR_PARTICLES` particles of radius `POUR_RADIUS` m and `POUR_MASS` kg
/// leave a round nozzle (radius `POUR_NOZZLE_RADIUS` m) circling above the box at
/// `POUR_RATE` a second, each at its own point of the nozzle, moment within the step
/// and velocity (`POUR_VELOCITY` plus up to `POUR_VELOCITY_SPREAD` m/s in any
/// direction), into an open box of four wall planes |x|, |z| ≤ `POUR_HALF` m on a
/// ground plane.
pub const POUR_RADIUS: f32 = 0.03;
pub const POUR_MASS: f32 = 0.01;
pub const POUR_PARTICLES: u32 = 2000;
/// Particles a second: the last one leaves the nozzle 4 s in.
pub const POUR_RATE: f32 = 500.0;
pub const POUR_NOZZLE_RADIUS: f32 = 0.22;
pub const POUR_VELOCITY: Vec3 = Vec3::new(0.0, -1.4, 0.0);
pub const POUR_VELOCITY_SPREAD: f32 = 0.3;
/// When the last particle has left the nozzle (s).
pub const POUR_END: f32 = POUR_PARTICLES as f32 / POUR_RATE;
pub const POUR_MAX_SPEED: f32 = 1.5;
pub const POUR_SPOUT: Vec3 = Vec3::new(0.0, 0.9, 0.0);
pub const POUR_SPOUT_RADIUS: f32 = 0.2;
pub const POUR_SPOUT_PERIOD: f32 = 2.0;
pub const POUR_HALF: f32 = 0.5;
pub const POUR_WALL_HEIGHT: f32 = 0.5;
pub const POUR_SECONDS: f32 = 5.0;
/// Metric names of the pour: the largest distance (m) any particle's surface went
/// past a wall or the ground over the run (≤ 0 when none did), the largest overlap of
/// two particles at the end as a fraction of their radius sum, the particle count.
pub const POUR_OUTSIDE: &str = "max over the run of the distance past the box (m)";
pub const POUR_OVERLAP: &str = "max pair overlap at the end / (r_i + r_j)";
pub const POUR_COUNT: &str = "particles poured";
pub const POUR_LAST: &str = "the last particle left the nozzle at (s)";

/// The spout at time t (s): circling about `POUR_SPOUT` with radius
/// `POUR_SPOUT_RADIUS` m, once every `POUR_SPOUT_PERIOD` s.
pub fn pour_spout(t: f32) -> Vec3 {
    let phi = std::f32::consts::TAU * t / POUR_SPOUT_PERIOD;
    POUR_SPOUT + POUR_SPOUT_RADIUS * Vec3::new(phi.cos(), 0.0, phi.sin())
}

/// Largest overlap (r_i + r_j − |x_i − x_j|) / (r_i + r_j) over all pairs of points
/// of one radius `r` (0 when no two overlap), with a uniform grid of cells 2r wide.
pub fn max_overlap(p: &[Vec3], r: f32) -> f32 {
    let cell = 2.0 * r;
    let key = |x: Vec3| (x / cell).floor().as_ivec3();
    let mut grid = std::collections::HashMap::<glam::IVec3, Vec<usize>>::new();
    for (i, &x) in p.iter().enumerate() {
        grid.entry(key(x)).or_default().push(i);
    }
    let mut worst = 0.0f32;
    for (i, &x) in p.iter().enumerate() {
        let k = key(x);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(cell) = grid.get(&(k + glam::IVec3::new(dx, dy, dz))) else {
                        continue;
                    };
                    for &j in cell.iter().filter(|&&j| j > i) {
                        let d = x.distance(p[j]);
                        worst = worst.max((2.0 * r - d) / (2.0 * r));
                    }
                }
            }
        }
    }
    worst
}

/// Pouring particles into a box: 2000 particles (radius 3 cm, 10 g) stream from a
/// circling spout over 4 s, each leaving the nozzle at its own point, moment and
/// velocity (so the stream loosens and spreads as it falls, no lattice), no faster
/// than 1.5 m/s, into an open 1 m × 1 m box (four wall planes and the ground, with
/// friction), pile up, spread and settle without overlapping.
pub fn pour() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 10,
        iterations: 4,
        damping: 0.5,
        ..WorldDesc::default()
    });
    ground(&mut sim, 0.3, 0.3, 0.0);
    sim.world
        .set_max_speed(POUR_MAX_SPEED)
        .expect("speed limit is valid");
    let quarter = std::f32::consts::FRAC_PI_2;
    for (p, q) in [
        (
            Vec3::new(-POUR_HALF, 0.0, 0.0),
            Quat::from_rotation_z(-quarter),
        ),
        (
            Vec3::new(POUR_HALF, 0.0, 0.0),
            Quat::from_rotation_z(quarter),
        ),
        (
            Vec3::new(0.0, 0.0, -POUR_HALF),
            Quat::from_rotation_x(quarter),
        ),
        (
            Vec3::new(0.0, 0.0, POUR_HALF),
            Quat::from_rotation_x(-quarter),
        ),
    ] {
        sim.world
            .add_collider(&ColliderDesc {
                shape: ColliderShape::Plane,
                position: p,
                rotation: q,
                static_friction: 0.3,
                dynamic_friction: 0.3,
                ..ColliderDesc::default()
            })
            .expect("wall is valid");
    }
    // The box's edges.
    let (h, top) = (POUR_HALF, POUR_WALL_HEIGHT);
    let corners = [(-h, -h), (h, -h), (h, h), (-h, h)];
    for k in 0..4 {
        let (x0, z0) = corners[k];
        let (x1, z1) = corners[(k + 1) % 4];
        for y in [0.0, top] {
            sim.shapes.push(Shape::Mark {
                a: Vec3::new(x0, y, z0),
                b: Vec3::new(x1, y, z1),
                colour: Rgb::hex(0xd0d4da),
            });
        }
        sim.shapes.push(Shape::Mark {
            a: Vec3::new(x0, 0.0, z0),
            b: Vec3::new(x0, top, z0),
            colour: Rgb::hex(0xd0d4da),
        });
    }
    let dt = 1.0 / SIM_HZ;
    // A fixed pseudo-random sequence (a linear congruential generator): the same
    // stream on every run and every machine.
    let mut seed = 12345u32;
    let mut random = move || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    let drive = move |sim: &mut Sim, t: f32| {
        let poured = sim.world.particle_count();
        // The particles due by the end of this step (those that found no room at the
        // nozzle before are still due).
        let due = ((POUR_RATE * (t + dt)).ceil() as u32).min(POUR_PARTICLES) - poured;
        if due == 0 {
            sim.status = format!("{poured} particles");
            return;
        }
        let nozzle = pour_spout(t);
        let speed = POUR_VELOCITY.length();
        // Particles still near the nozzle: a new one must not overlap them.
        let mut near: Vec<Vec3> = sim
            .positions()
            .into_iter()
            .filter(|p| p.distance(nozzle) < POUR_NOZZLE_RADIUS + 4.0 * POUR_RADIUS + speed * dt)
            .collect();
        let (mut pos, mut vel) = (Vec::new(), Vec::new());
        for _ in 0..due {
            // A point of the nozzle's disc and a moment within the step: a particle
            // that left the nozzle s seconds after the start of the step starts
            // speed·s above it.
            let place = (0..30).find_map(|_| {
                let (r, phi) = (
                    POUR_NOZZLE_RADIUS * random().sqrt(),
                    std::f32::consts::TAU * random(),
                );
                let p = nozzle + Vec3::new(r * phi.cos(), speed * dt * random(), r * phi.sin());
                near.iter()
                    .all(|q| q.distance(p) >= 2.0 * POUR_RADIUS)
                    .then_some(p)
            });
            let Some(p) = place else {
                break;
            };
            // A velocity spread uniformly over a ball about the mean.
            let spread = loop {
                let v = Vec3::new(random(), random(), random()) * 2.0 - Vec3::ONE;
                if v.length_squared() <= 1.0 {
                    break v * POUR_VELOCITY_SPREAD;
                }
            };
            near.push(p);
            pos.push(p);
            vel.push(POUR_VELOCITY + spread);
        }
        let n = pos.len();
        if n > 0 {
            let first = sim.particles(&pos, &vec![POUR_MASS; n]);
            sim.world
                .set_particle_radii(first, &vec![POUR_RADIUS; n])
                .expect("new particles exist");
            sim.world
                .write_velocities(first, &vel)
                .expect("new particles exist");
            for i in first..first + n as u32 {
                let s = i as f32 / (POUR_PARTICLES - 1) as f32;
                sim.shapes.push(Shape::Ball {
                    particle: i,
                    radius: POUR_RADIUS,
                    colour: Rgb::hex(0x4aa3d8).lerp(Rgb::hex(0xe8c060), s),
                });
            }
        }
        if sim.world.particle_count() == POUR_PARTICLES {
            sim.set_metric(POUR_LAST, (t + dt) as f64);
        }
        sim.status = format!("pouring: {} particles", sim.world.particle_count());
    };
    let observe = move |sim: &mut Sim, t: f32| {
        let p = sim.positions();
        let past = p
            .iter()
            .map(|x| {
                (x.x.abs() + POUR_RADIUS - POUR_HALF)
                    .max(x.z.abs() + POUR_RADIUS - POUR_HALF)
                    .max(POUR_RADIUS - x.y)
            })
            .fold(f32::NEG_INFINITY, f32::max);
        if !p.is_empty() {
            max_metric(sim, POUR_OUTSIDE, past as f64);
        }
        if t + 0.5 * dt >= POUR_SECONDS {
            sim.set_metric(POUR_OVERLAP, max_overlap(&p, POUR_RADIUS) as f64);
            sim.set_count(POUR_COUNT, p.len());
        }
    };
    Scene {
        name: "pour",
        title: "Particles poured into a box",
        seconds: POUR_SECONDS,
        still_at: 2.5,
        eye: Vec3::new(1.0, 1.6, 2.3),
        target: Vec3::new(0.0, 0.35, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        // The last particles are added by the step that ends at POUR_END (when none
        // had to wait for room at the nozzle; tests/physics/showcase.rs checks the count).
        free_after: POUR_END,
        labels: Vec::new(),
    }
}

/// Every scene, in README order.
/// The cape: a 0.7 m × 1.1 m cape (9 × 12 particles, 0.4 kg) on a capsule character
/// that walks along +z at `CAPE_WALK` m/s, turns 180° in `CAPE_TURN` s, walks back and
/// stops; then a gust blows from its front (7.3 m/s, turbulent). The cape follows skinned targets (the character's
/// pose applied to its rest shape): the shoulder row fully skinned, the max distance
/// growing to 0.6 m at the hem, a backstop sphere behind every particle (the body), and
/// inertia 0.3 of the root's acceleration; drag 1.2 and lift 0.3 per triangle in the
/// world's air, still until the gust.
pub const CAPE_WALK: f32 = 1.4;
pub const CAPE_TURN: f32 = 0.4;
/// Start of the turn, end of the walk back, and the gust (s).
pub const CAPE_TURN_AT: f32 = 1.5;
pub const CAPE_STOP_AT: f32 = 3.4;
pub const CAPE_GUST: (f32, f32) = (4.0, 6.0);
pub const CAPE_NX: u32 = 9;
pub const CAPE_NY: u32 = 12;
/// Metrics of the cape scene.
pub const CAPE_METRICS: [&str; 2] = [
    "max cape stretch during the turn",
    "cape lift in the gust (m)",
];

/// The character's root at time `t`: position (m) and heading (rotation about +y).
pub fn cape_root(t: f32) -> (Vec3, Quat) {
    let walk = |a: f32, b: f32| (t.clamp(a, b) - a) * CAPE_WALK;
    let out = walk(0.0, CAPE_TURN_AT);
    let back = walk(CAPE_TURN_AT + CAPE_TURN, CAPE_STOP_AT);
    let s = ((t - CAPE_TURN_AT) / CAPE_TURN).clamp(0.0, 1.0);
    let turn = s * s * (3.0 - 2.0 * s) * std::f32::consts::PI;
    (Vec3::new(0.0, 0.0, out - back), Quat::from_rotation_y(turn))
}

/// The cape's rest shape in the character's frame (m): behind the back (−z), from the
/// shoulders (1.45 m) down.
fn cape_local(i: u32, j: u32) -> Vec3 {
    let u = i as f32 / (CAPE_NX - 1) as f32;
    let v = j as f32 / (CAPE_NY - 1) as f32;
    Vec3::new((u - 0.5) * 0.7, 1.45 - 1.1 * v, -0.3)
}

pub fn cape() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 16,
        iterations: 2,
        damping: 0.2,
        ..WorldDesc::default()
    });
    let grid = ClothGridDesc {
        origin: cape_local(0, 0),
        u: Vec3::new(0.7, 0.0, 0.0),
        v: Vec3::new(0.0, -1.1, 0.0),
        segments_u: CAPE_NX - 1,
        segments_v: CAPE_NY - 1,
        total_mass: 0.4,
        ..ClothGridDesc::default()
    };
    let desc = ClothDesc {
        bend_compliance: 0.5,
        tethers: false,
        ..ClothDesc::default()
    };
    let body = sim
        .world
        .add_cloth_grid(&desc, &grid)
        .expect("cape is valid");
    let (first, count) = sim.adopt_body(body);
    let weights: Vec<SkinWeights> = (0..count)
        .map(|k| SkinWeights {
            max_distance: 0.6 * (k / CAPE_NX) as f32 / (CAPE_NY - 1) as f32,
            backstop_radius: 0.3,
            backstop_distance: 0.01,
            ..SkinWeights::default()
        })
        .collect();
    sim.world.set_skin_weights(body, &weights).expect("weights");
    sim.world
        .set_body_aerodynamics(body, 1.2, 0.3)
        .expect("coefficients");
    sim.shapes.push(Shape::Cloth {
        first,
        nx: CAPE_NX,
        ny: CAPE_NY,
        front: Rgb::hex(0xb03a48),
        back: Rgb::hex(0xe8c060),
    });
    // The character: a column of spheres (a capsule) and a head, moved each frame.
    let body_colour = Rgb::hex(0x7a8fa8);
    for (k, r) in [
        (0.0f32, 0.26f32),
        (1.0, 0.26),
        (2.0, 0.26),
        (3.0, 0.26),
        (4.0, 0.17),
    ] {
        sim.shapes.push(Shape::Sphere {
            centre: Vec3::new(0.0, 0.3 + 0.3 * k, 0.0),
            radius: r,
            colour: body_colour,
        });
    }
    let spheres = sim.shapes.len() - 5..sim.shapes.len();
    let local: Vec<Vec3> = (0..count)
        .map(|k| cape_local(k % CAPE_NX, k / CAPE_NX))
        .collect();
    let dt = 1.0 / SIM_HZ;
    let drive = move |sim: &mut Sim, t: f32| {
        // The pose this step reaches.
        let (p, q) = cape_root(t + dt);
        let targets: Vec<Vec3> = local.iter().map(|&x| p + q * x).collect();
        let normals = vec![q * -Vec3::Z; local.len()];
        sim.world
            .set_skin_targets(body, &targets, Some(&normals))
            .expect("targets");
        sim.world
            .set_skin_root(body, Transform::checked(p, q).expect("unit"), 0.3, 0.3)
            .expect("root");
        if t == 0.0 {
            sim.world.teleport_to_skin(body).expect("teleport");
        }
        let gust = t >= CAPE_GUST.0 && t < CAPE_GUST.1;
        sim.world
            .set_wind(&WindDesc {
                velocity: if gust {
                    Vec3::new(2.0, 0.0, 7.0)
                } else {
                    Vec3::ZERO
                },
                turbulence: if gust { 2.0 } else { 0.0 },
                ..WindDesc::default()
            })
            .expect("wind");
        for (k, i) in spheres.clone().enumerate() {
            if let Shape::Sphere { centre, .. } = &mut sim.shapes[i] {
                *centre = p + Vec3::new(0.0, 0.3 + 0.3 * k as f32, 0.0);
            }
        }
        sim.status = if gust {
            "gust 7.3 m/s + turbulence 2 m/s: drag 1.2, lift 0.3".into()
        } else if t > CAPE_TURN_AT && t < CAPE_TURN_AT + CAPE_TURN {
            "turning 180 deg in 0.4 s: inertia 0.3".into()
        } else {
            "skinned cape: max distance 0 -> 0.6 m, backstop".into()
        };
    };
    let observe = move |sim: &mut Sim, t: f32| {
        if t <= CAPE_STOP_AT {
            let worst = sim
                .links
                .iter()
                .map(|l| {
                    let p = sim.world.particles();
                    (p.position(l.a as usize).distance(p.position(l.b as usize)) / l.rest - 1.0)
                        as f64
                })
                .fold(0.0f64, f64::max);
            max_metric(sim, CAPE_METRICS[0], worst);
        }
        if t >= CAPE_GUST.0 && t < CAPE_GUST.1 + 0.5 {
            // How far the hem rose above its skinned height (m).
            let (p, q) = cape_root(t);
            let hem = first + (CAPE_NY - 1) * CAPE_NX + CAPE_NX / 2;
            let skinned = p + q * cape_local(CAPE_NX / 2, CAPE_NY - 1);
            let lift = (sim.world.particles().position(hem as usize).y - skinned.y) as f64;
            max_metric(sim, CAPE_METRICS[1], lift);
        }
    };
    Scene {
        name: "cape",
        title: "A skinned cape: walk, turn, stop in a gust",
        seconds: 7.0,
        still_at: 5.2,
        eye: Vec3::new(3.9, 1.9, -1.6),
        target: Vec3::new(0.0, 0.9, 0.7),
        fov_deg: 45.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        // Driven to the end (the skinned pose and the wind).
        free_after: 7.0,
        labels: Vec::new(),
    }
}

pub fn all() -> Vec<Scene> {
    vec![
        hanging_rope(),
        rope_swing(),
        cloth(),
        materials(),
        soft_bodies(),
        cloth_tethers(),
        balloon_on_a_host(),
        cloth_on_sphere(),
        soft_body_drop(),
        pick_and_drag(),
        pour(),
        cape(),
        torn_cloth(),
        crane(),
        bucket_snap(),
        floating_rings(),
        dam_break(),
        hose(),
        sand(),
    ]
}

/// The torn cloth: cells across and down, size (m), where its top hangs (m).
pub const TORN_NX: u32 = 24;
pub const TORN_NY: u32 = 14;
pub const TORN_SIZE: (f32, f32) = (1.2, 0.7);
pub const TORN_TOP: f32 = 1.8;
/// Tear threshold: an edge tears at this stretch ratio.
pub const TORN_THRESHOLD: f32 = 1.3;
/// Compliance (m/N) of the perforated seam (the edges between columns 12 and 13).
pub const TORN_SEAM: f32 = 2.0e-3;
/// The posts move apart from this time (s), each by this much (m) over 2 s.
pub const TORN_PULL_AT: f32 = 0.8;
pub const TORN_PULL: f32 = 0.25;
pub const TORN_METRICS: [&str; 4] = ["splits", "pieces", "movable mass (kg)", "max speed (m/s)"];

/// Connected components of a triangle mesh over `n` vertices.
pub fn mesh_pieces(tris: &[[u32; 3]], n: usize) -> usize {
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
            let a = root(&mut parent, t[k] as usize);
            let b = root(&mut parent, t[(k + 1) % 3] as usize);
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut roots: Vec<usize> = (0..n).map(|i| root(&mut parent, i)).collect();
    roots.sort_unstable();
    roots.dedup();
    roots.len()
}

/// A cloth held by its side edges between two posts, with a perforated seam down the
/// middle (softer edges): the posts move apart, the seam's edges pass the tear
/// threshold and the library splits the vertices there one after the other, until the
/// cloth hangs in two pieces. Drawn from the topology it reads back every frame.
pub fn torn_cloth() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 16,
        damping: 0.3,
        ..WorldDesc::default()
    });
    let (w, h) = TORN_SIZE;
    let grid = ClothGridDesc {
        origin: Vec3::new(-0.5 * w, TORN_TOP, 0.0),
        u: Vec3::new(w, 0.0, 0.0),
        v: Vec3::new(0.0, -h, 0.0),
        segments_u: TORN_NX,
        segments_v: TORN_NY,
        total_mass: 0.5,
        ..ClothGridDesc::default()
    };
    let desc = ClothDesc {
        bend_compliance: 0.2,
        tethers: false,
        ..ClothDesc::default()
    };
    let body = sim
        .world
        .add_cloth_grid(&desc, &grid)
        .expect("cloth is valid");
    let (first, count) = sim.adopt_body(body);
    // The tear changes the edges: no stretch statistics over the built ones.
    sim.links.clear();
    let row = TORN_NX + 1;
    let seam = TORN_NX / 2;
    // The side columns are held by two posts.
    let left: Vec<u32> = (0..=TORN_NY).map(|j| first + j * row).collect();
    let right: Vec<u32> = (0..=TORN_NY).map(|j| first + j * row + TORN_NX).collect();
    for &p in left.iter().chain(&right) {
        sim.world.set_inverse_masses(p, &[0.0]).expect("pin");
        sim.inv_mass[p as usize] = 0.0;
        sim.mass[p as usize] = 0.0;
    }
    let parts = sim.world.body(body).expect("body").parts.clone();
    for id in parts.stretch.start..parts.shear.end {
        let [a, b] = sim.world.constraint_sets().link.pair(id as usize);
        let col = |p: u32| (p - first) % row;
        if col(a).min(col(b)) == seam && col(a).max(col(b)) == seam + 1 {
            sim.world
                .set_constraint_compliance(FamilyKind::BodyLink, id, 1, TORN_SEAM)
                .expect("seam");
        }
    }
    sim.world
        .set_cloth_tear_threshold(body, TORN_THRESHOLD, 0)
        .expect("tearing");
    // The spares are particles too (pinned until a split takes one).
    let spares = sim.world.particle_count() as usize - sim.mass.len();
    sim.mass.extend(std::iter::repeat_n(0.0, spares));
    sim.inv_mass.extend(std::iter::repeat_n(0.0, spares));
    let front = Rgb::hex(0x3c78c8);
    let back = Rgb::hex(0xe8c060);
    let topology = move |sim: &Sim| -> (Vec<[u32; 3]>, Vec<u32>) {
        let (nv, nt) = sim.world.cloth_topology_counts(body).expect("cloth");
        let mut tris = vec![[0; 3]; nt as usize];
        let mut map = vec![0; nv as usize];
        sim.world
            .read_cloth_topology(body, &mut tris, &mut map)
            .expect("topology");
        (tris, map)
    };
    let (tris, _) = topology(&sim);
    sim.shapes.push(Shape::Mesh {
        tris: tris.iter().map(|t| t.map(|v| first + v)).collect(),
        smooth: true,
        front,
        back,
    });
    let bar = Rgb::hex(0x606870);
    let x0 = -0.5 * w;
    let bars = move |pull: f32| {
        [(x0 - pull - 0.01), (x0 + w + pull + 0.01)].map(|x| Shape::Mark {
            a: Vec3::new(x, 0.0, 0.0),
            b: Vec3::new(x, TORN_TOP + 0.05, 0.0),
            colour: bar,
        })
    };
    sim.shapes.extend(bars(0.0));
    sim.status = format!("seam {TORN_SEAM:.0e} m/N, tears at {TORN_THRESHOLD}x its rest length");
    let pull_at = |t: f32| TORN_PULL * smoothstep(((t - TORN_PULL_AT) / 2.0).clamp(0.0, 1.0));
    let rest: Vec<Vec3> = (0..count)
        .map(|k| sim.world.particles().position((first + k) as usize))
        .collect();
    let dt = 1.0 / SIM_HZ;
    let drive = move |sim: &mut Sim, t: f32| {
        let pull = pull_at(t + dt);
        for (ps, sign) in [(&left, -1.0f32), (&right, 1.0)] {
            for &p in ps.iter() {
                let x = rest[(p - first) as usize] + Vec3::new(sign * pull, 0.0, 0.0);
                sim.world.write_positions(p, &[x]).expect("bar");
            }
        }
        let [a, b] = bars(pull);
        let n = sim.shapes.len();
        sim.shapes[n - 2] = a;
        sim.shapes[n - 1] = b;
    };
    let observe = move |sim: &mut Sim, _t: f32| {
        let (tris, map) = topology(sim);
        let status = sim.world.cloth_tear_status(body).expect("cloth");
        // Split particles changed mass: the bookkeeping follows the world.
        let mut mass = 0.0f64;
        let mut speed = 0.0f32;
        for &p in &map {
            let iw = sim.world.particles().inverse_mass(p as usize);
            sim.inv_mass[p as usize] = iw;
            sim.mass[p as usize] = if iw > 0.0 { 1.0 / iw } else { 0.0 };
            if iw > 0.0 {
                mass += 1.0 / iw as f64;
                speed = speed.max(sim.world.particles().velocity(p as usize).length());
            }
        }
        let pieces = mesh_pieces(&tris, map.len());
        sim.set_count(TORN_METRICS[0], status.version as usize);
        sim.set_count(TORN_METRICS[1], pieces);
        sim.set_metric(TORN_METRICS[2], mass);
        max_metric(sim, TORN_METRICS[3], speed as f64);
        if let Some(Shape::Mesh { tris: drawn, .. }) = sim.shapes.first_mut() {
            *drawn = tris.iter().map(|t| t.map(|v| map[v as usize])).collect();
        }
        sim.status = if status.version == 0 {
            format!("seam {TORN_SEAM:.0e} m/N, tears at {TORN_THRESHOLD}x its rest length")
        } else {
            format!("{} vertices split, {pieces} piece(s)", status.version)
        };
    };
    Scene {
        name: "torn_cloth",
        title: "Cloth torn in two along a perforated seam",
        seconds: 4.0,
        still_at: 2.6,
        eye: Vec3::new(0.3, 1.5, 2.4),
        target: Vec3::new(0.0, 1.45, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        free_after: TORN_PULL_AT + 2.0,
        labels: Vec::new(),
    }
}

/// Colour of the shadows on the floor.
const SHADOW: Rgb = Rgb::hex(0x3a3f47);

/// Straight down onto the floor (y = 0), just above it.
fn on_floor(p: Vec3) -> Vec3 {
    Vec3::new(p.x, 0.002, p.z)
}

/// What to draw, read back from the world: shadows cast straight down by a light
/// overhead, then the objects, then the water over them (it needs what is behind it),
/// then the hands. The fluids' ellipsoids are computed by the readback, hence `&mut`.
pub fn draw(sim: &mut Sim, p: &mut Painter) {
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
            Shape::Mesh { ref tris, .. } => {
                for t in tris {
                    p.flat_triangle(t.map(|k| on_floor(pos[k as usize])), SHADOW);
                }
            }
            Shape::Sphere { centre, radius, .. } => {
                let c = on_floor(centre);
                p.flat_line(c, c, radius, SHADOW);
            }
            Shape::Mark { .. } | Shape::Ring { .. } | Shape::Fluid { .. } => {}
            Shape::Tube { a, b, radius, .. } => {
                p.flat_line(on_floor(a), on_floor(b), radius, SHADOW);
            }
            Shape::Links {
                ref pairs, radius, ..
            } => {
                for [a, b] in live_pairs(sim, pairs) {
                    p.flat_line(on_floor(pos[a]), on_floor(pos[b]), radius, SHADOW);
                }
            }
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
            Shape::Mesh {
                ref tris,
                smooth,
                front,
                back,
            } => draw_mesh(&pos, tris, smooth, front, back, p),
            Shape::Sphere {
                centre,
                radius,
                colour,
            } => draw_sphere(centre, radius, colour, p),
            Shape::Links {
                ref pairs,
                radius,
                colour,
            } => {
                for [a, b] in live_pairs(sim, pairs) {
                    p.line(pos[a], pos[b], radius, colour);
                }
            }
            Shape::Ring {
                first,
                count,
                radius,
                colour,
                fill,
            } => draw_ring(
                &pos[first as usize..(first + count) as usize],
                radius,
                colour,
                fill,
                p,
            ),
            Shape::Tube {
                a,
                b,
                radius,
                colour,
            } => p.line(a, b, radius, colour),
            Shape::Fluid { .. } => {}
        }
    }
    let fluids: Vec<_> = sim
        .shapes
        .iter()
        .filter_map(|s| match *s {
            Shape::Fluid {
                fluid,
                anisotropy,
                look,
                colours,
            } => Some((fluid, anisotropy, look, colours)),
            _ => None,
        })
        .collect();
    for (fluid, anisotropy, look, colours) in fluids {
        let (splats, dots) = water_of(sim, fluid, &anisotropy, &colours);
        let light = p.light;
        water::draw_water(p.canvas, &p.camera, &light, &look, &splats, &dots);
    }
    for &h in &sim.held {
        p.disc(pos[h as usize], 0.05, Rgb::hex(0xff8a1e));
    }
}

/// The ellipsoids of `fluid`'s live particles (`anisotropy`), each in its particle's
/// colour, and its diffuse particles as dots: spray in the air, foam at the surface
/// (shown up to a spacing under it), bubbles (up to four spacings under it, faint),
/// each fading out over its last 0.3 s.
fn water_of(
    sim: &mut Sim,
    fluid: FluidId,
    anisotropy: &AnisotropyDesc,
    colours: &WaterColours,
) -> (Vec<Splat>, Vec<Dot>) {
    let (x, v) = sim.fluid_particles(fluid);
    let tint = colours.of(&x, &v);
    let mut splats = Vec::with_capacity(x.len());
    sim.world
        .read_fluid_anisotropy(fluid, anisotropy, 1.0, |k, e| {
            splats.push(Splat {
                center: e.center,
                axes: e.axes,
                colour: tint[k],
            });
        })
        .expect("fluid exists");
    let s = sim.world.fluid_desc(fluid).expect("fluid exists").spacing;
    let mut dots = Vec::new();
    sim.world
        .read_fluid_diffuse(fluid, |_, d| {
            let (radius, opacity, under) = match d.kind {
                DiffuseKind::Spray => (0.15 * s, 0.7, 0.0),
                DiffuseKind::Foam => (0.2 * s, 0.8, s),
                DiffuseKind::Bubble => (0.12 * s, 0.5, 4.0 * s),
            };
            dots.push(Dot {
                position: d.position,
                radius,
                opacity: opacity * (d.lifetime / 0.3).min(1.0),
                under,
            });
        })
        .expect("fluid exists");
    (splats, dots)
}

/// The water's own colour (what it scatters back; `raster::water` lights it and lays
/// it over what is behind): by depth below the surface above it (`surface` at the
/// top, `deep` from `depth` m down) and by speed (blending from `foam_from` m/s to
/// `foam` at `foam_speed` m/s: fast, aerated water is paler), smoothly.
#[derive(Clone, Copy, Debug)]
pub struct WaterColours {
    pub surface: Rgb,
    pub deep: Rgb,
    pub depth: f32,
    pub foam: Rgb,
    pub foam_from: f32,
    pub foam_speed: f32,
    /// Width (m) of the columns in which the surface is found (the highest particle
    /// of each column of the floor's grid, or of each x band in a planar world).
    pub column: f32,
    /// A fixed surface height (m) to measure depth from instead (calm water: its
    /// colours then stay put from frame to frame).
    pub level: Option<f32>,
}

impl WaterColours {
    /// Surface blue, deep blue `depth` m down, foam from 0.8 m/s, white at 3 m/s,
    /// columns of `column` m.
    pub fn water(depth: f32, column: f32) -> WaterColours {
        WaterColours {
            surface: Rgb::hex(0x4a9ee0),
            deep: Rgb::hex(0x103a6e),
            depth,
            foam: Rgb::hex(0xe0f4ff),
            foam_from: 0.8,
            foam_speed: 3.0,
            column,
            level: None,
        }
    }

    /// The colour of each particle at `x` moving at `v`.
    pub fn of(&self, x: &[Vec3], v: &[Vec3]) -> Vec<Rgb> {
        let key = |p: Vec3| {
            (
                (p.x / self.column).floor() as i32,
                (p.z / self.column).floor() as i32,
            )
        };
        let mut top = std::collections::HashMap::<(i32, i32), f32>::new();
        for &p in x {
            let t = top.entry(key(p)).or_insert(f32::NEG_INFINITY);
            *t = t.max(p.y);
        }
        x.iter()
            .zip(v)
            .map(|(&p, u)| {
                let depth = self.level.unwrap_or(top[&key(p)]) - p.y;
                let base = self
                    .surface
                    .lerp(self.deep, (depth / self.depth).clamp(0.0, 1.0));
                let foam = (u.length() - self.foam_from) / (self.foam_speed - self.foam_from);
                base.lerp(self.foam, foam.clamp(0.0, 1.0))
            })
            .collect()
    }
}

/// A closed ring: a fan of unlit triangles from its centre and a tube through its
/// points, closed.
fn draw_ring(pts: &[Vec3], radius: f32, colour: Rgb, fill: Rgb, p: &mut Painter) {
    let centre = pts.iter().sum::<Vec3>() / pts.len() as f32;
    for (k, &a) in pts.iter().enumerate() {
        let b = pts[(k + 1) % pts.len()];
        p.flat_triangle([centre, a, b], fill);
        p.line(a, b, radius, colour);
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

/// Shaded triangles of a closed surface: flat (face normals from the winding) or
/// smooth (area-weighted vertex normals).
fn draw_mesh(
    pos: &[Vec3],
    tris: &[[u32; 3]],
    smooth: bool,
    front: Rgb,
    back: Rgb,
    p: &mut Painter,
) {
    let normals = smooth.then(|| {
        let mut n = std::collections::HashMap::<u32, Vec3>::new();
        for t in tris {
            let [a, b, c] = t.map(|k| pos[k as usize]);
            let f = (b - a).cross(c - a);
            for &k in t {
                *n.entry(k).or_insert(Vec3::ZERO) += f;
            }
        }
        n
    });
    for t in tris {
        let x = t.map(|k| pos[k as usize]);
        let n = normals
            .as_ref()
            .map(|n| t.map(|k| n[&k].normalize_or_zero()));
        p.triangle(x, n, front, back);
    }
}

/// A sphere of `radius` m at `centre`, as shaded triangles of a level-3 icosphere
/// (1280 faces) with the sphere's own normals.
fn draw_sphere(centre: Vec3, radius: f32, colour: Rgb, p: &mut Painter) {
    let (v, tris) = icosphere(3, radius, centre);
    for t in &tris {
        let x = t.map(|k| v[k as usize]);
        let n = x.map(|q| (q - centre) / radius);
        p.triangle(x, Some(n), colour, colour);
    }
}

/// Every constraint the world projects: distance constraints, body links and every
/// family (tethers, bending, volumes, pressure, strain, ...), attachments.
pub fn constraint_count(world: &World) -> u32 {
    use FamilyKind::*;
    world.distance_constraint_count()
        + world.constraint_sets().link.len() as u32
        + [
            Tether,
            DihedralBending,
            IsometricBending,
            TetVolume,
            PressureVolume,
            TriangleStrain,
            TetStrain,
            UnilateralArea,
            UnilateralVolume,
            RingArea,
        ]
        .into_iter()
        .map(|f| world.family_constraint_count(f))
        .sum::<u32>()
        + world.attachment_count()
        + world.shape_cluster_count()
}

/// The pairs of a [`Shape::Links`] whose constraint is still in the world, as
/// particle indices.
fn live_pairs(sim: &Sim, pairs: &[DrawnLink]) -> Vec<[usize; 2]> {
    pairs
        .iter()
        .filter(|(_, c)| {
            c.is_none_or(|(family, id)| {
                !sim.world
                    .is_constraint_removed(family, id)
                    .expect("drawn constraint exists")
            })
        })
        .map(|&([a, b], _)| [a as usize, b as usize])
        .collect()
}

/// The crane: drum (the rope's pinned start), rope (links), load.
pub const CRANE_DRUM: Vec3 = Vec3::new(0.0, 6.0, 0.0);
pub const CRANE_LINKS: u32 = 50;
pub const CRANE_ROPE_LENGTH: f32 = 5.0;
/// Mass of the rope (kg): 0.1 kg per particle.
pub const CRANE_ROPE_MASS: f32 = 5.1;
pub const CRANE_LOAD: f32 = 100.0;
/// The winch reels in from `CRANE_ROPE_LENGTH` to `CRANE_TARGET` m, starting at
/// `CRANE_REEL_AT` s, its speed rising linearly to `CRANE_SPEED` m/s over
/// `CRANE_RAMP` s.
pub const CRANE_TARGET: f32 = 1.0;
pub const CRANE_REEL_AT: f32 = 2.0;
pub const CRANE_RAMP: f32 = 1.0;
pub const CRANE_SPEED: f32 = 0.5;
pub const CRANE_SECONDS: f32 = 11.5;
pub const CRANE_SUBSTEPS: u32 = 128;
/// The window (s) over which the load's speed and the drum link's tension are
/// measured: at full speed, while more than 1.1 m of rope hangs.
pub const CRANE_WINDOW: (f32, f32) = (3.5, 10.0);
/// Metric names of the crane.
pub const CRANE_LOAD_SPEED: &str = "load speed at full reel speed (m/s)";
pub const CRANE_TENSION: &str = "mean drum-link tension / (m g) at full speed";
pub const CRANE_STRETCH: &str = "largest stretch while reeling (drum to load / length - 1)";
pub const CRANE_LENGTH: &str = "winch length at the end (m)";
pub const CRANE_HANG: &str = "drum to load at the end (m)";
pub const CRANE_HEIGHTS: [&str; 3] = [
    "load height at 4 s (m)",
    "load height at 7 s (m)",
    "load height at 10 s (m)",
];

/// A crane winching a load: a 5 m rope (50 links, 5.1 kg, no tethers) from a drum
/// holds a 100 kg load (its last particle). The load settles for two seconds (the
/// rope damped at 5 /s), then the winch reels the rope in to 1 m, its speed rising to
/// 0.5 m/s over a second: the load rises at the winch's speed and the drum link
/// carries the weight hanging from it. The winch parks the reeled-in particles at the
/// drum, so the links keep their length. 128 substeps: the load is 1000 times a rope
/// particle (see the tuning guide).
pub fn crane() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: CRANE_SUBSTEPS,
        ..WorldDesc::default()
    });
    ground(&mut sim, 0.5, 0.5, 0.0);
    let rope = sim
        .world
        .add_rope(&RopeDesc {
            start: CRANE_DRUM,
            end: CRANE_DRUM - Vec3::Y * CRANE_ROPE_LENGTH,
            segments: CRANE_LINKS,
            total_mass: CRANE_ROPE_MASS,
            tethers: false,
            ..RopeDesc::default()
        })
        .expect("crane rope is valid");
    let (first, count) = sim.adopt_body(rope);
    // The winch changes the links' rest lengths: the scene measures the stretch
    // against the winch's length instead of the built links.
    sim.links.clear();
    let load = first + CRANE_LINKS;
    sim.world
        .set_inverse_masses(load, &[1.0 / CRANE_LOAD])
        .expect("load exists");
    sim.mass[load as usize] = CRANE_LOAD;
    sim.inv_mass[load as usize] = 1.0 / CRANE_LOAD;
    sim.world
        .add_winch(rope, RopeEnd::Start, CRANE_ROPE_LENGTH)
        .expect("the drum end is pinned");
    sim.world.set_body_damping(rope, 5.0).expect("rope exists");
    // The crane: mast, jib and counter-jib drawn through pinned particles (no
    // constraints, no collision radius: nothing acts on them); a mark at the height
    // the load is lifted to.
    let steel = Rgb::hex(0xe0b040);
    let mast = Vec3::new(-2.0, 0.0, 0.0);
    let frame = sim.particles(
        &[
            mast,
            mast + Vec3::Y * 6.6,
            CRANE_DRUM + Vec3::new(0.5, 0.15, 0.0),
            mast + Vec3::new(-1.2, 6.15, 0.0),
            mast + Vec3::Y * 6.15,
        ],
        &[0.0; 5],
    );
    sim.shapes.push(Shape::Links {
        pairs: [[0, 1], [4, 2], [1, 2], [3, 1], [3, 4]]
            .iter()
            .map(|&[a, b]| ([frame + a, frame + b], None))
            .collect(),
        radius: 0.07,
        colour: steel,
    });
    let lifted = CRANE_DRUM - Vec3::Y * CRANE_TARGET;
    sim.shapes.push(Shape::Mark {
        a: lifted + Vec3::new(0.4, 0.0, 0.0),
        b: lifted + Vec3::new(0.9, 0.0, 0.0),
        colour: Rgb::hex(0xd0d4da),
    });
    let link_ids = sim.world.body(rope).expect("rope").parts.stretch.clone();
    sim.shapes.push(Shape::Links {
        pairs: (0..count - 1)
            .map(|k| {
                (
                    [first + k, first + k + 1],
                    Some((FamilyKind::BodyLink, link_ids.start + k)),
                )
            })
            .collect(),
        radius: 0.03,
        colour: Rgb::hex(0x505860),
    });
    sim.shapes.push(Shape::Ball {
        particle: first,
        radius: 0.15,
        colour: Rgb::hex(0x606870),
    });
    sim.shapes.push(Shape::Ball {
        particle: load,
        radius: 0.3,
        colour: Rgb::hex(0xd8603a),
    });
    let dt = 1.0 / SIM_HZ;
    let drive = move |sim: &mut Sim, t: f32| {
        if t + 0.5 * dt < CRANE_REEL_AT {
            sim.status = "100 kg load settling on a 5 m rope".into();
            return;
        }
        if t + 0.5 * dt < CRANE_REEL_AT + dt {
            sim.world.set_body_damping(rope, 0.0).expect("rope exists");
        }
        // The speed at the end of this step (the winch keeps a speed until the target).
        // It slows down at the same rate near the target: v = sqrt(2 a d).
        let length = sim.world.winch_length(rope).expect("winch");
        let a = CRANE_SPEED / CRANE_RAMP;
        let v = (CRANE_SPEED * ((t + dt - CRANE_REEL_AT) / CRANE_RAMP).min(1.0))
            .min((2.0 * a * (length - CRANE_TARGET).max(0.0)).sqrt());
        if length > CRANE_TARGET + 1e-4 {
            sim.world
                .set_winch_target(rope, CRANE_TARGET, v.max(1e-3))
                .expect("target in range");
        }
        let length = sim.world.winch_length(rope).expect("winch");
        sim.status = format!(
            "winch: {} m, {} m/s",
            fixed(length as f64, 2),
            fixed(-sim.world.winch_speed(rope).expect("winch") as f64, 2)
        );
    };
    let (mut y_start, mut tension_sum, mut weight_sum) = (f32::NAN, 0.0f64, 0.0f64);
    let observe = move |sim: &mut Sim, t: f32| {
        let y = sim.world.particles().position(load as usize).y;
        for (k, at) in [4.0f32, 7.0, 10.0].into_iter().enumerate() {
            if (t - at).abs() < 0.5 * dt {
                sim.set_metric(CRANE_HEIGHTS[k], y as f64);
            }
        }
        let length = sim.world.winch_length(rope).expect("winch");
        let hang = CRANE_DRUM.distance(sim.world.particles().position(load as usize));
        if t > CRANE_REEL_AT {
            max_metric(sim, CRANE_STRETCH, ((hang - length) / length) as f64);
        }
        let (w0, w1) = CRANE_WINDOW;
        if t + 0.5 * dt >= w0 && t - 0.5 * dt <= w1 {
            if y_start.is_nan() {
                y_start = y;
            }
            let n = sim
                .world
                .body_force_count(rope, BodyConstraints::Stretch)
                .expect("rope");
            let mut forces = vec![0.0; n];
            sim.world
                .read_body_forces(rope, BodyConstraints::Stretch, &mut forces)
                .expect("rope");
            let paying = sim.world.winch_paying_link(rope).expect("winch") as usize;
            // What hangs from the drum link: the load and the rope's particles out of
            // the drum (0.1 kg each, one per started 0.1 m of length).
            let particle = CRANE_ROPE_MASS / (CRANE_LINKS + 1) as f32;
            let hanging = CRANE_LOAD + particle * (length / 0.1).ceil();
            tension_sum += forces[paying] as f64;
            weight_sum += (hanging * G) as f64;
            if (t - w1).abs() < 0.5 * dt {
                sim.set_metric(CRANE_LOAD_SPEED, ((y - y_start) / (w1 - w0)) as f64);
                sim.set_metric(CRANE_TENSION, tension_sum / weight_sum);
            }
        }
        if t + 0.5 * dt >= CRANE_SECONDS {
            sim.set_metric(CRANE_LENGTH, length as f64);
            sim.set_metric(CRANE_HANG, hang as f64);
        }
    };
    sim.status = "100 kg load settling on a 5 m rope".into();
    Scene {
        name: "crane",
        title: "A crane winching a 100 kg load",
        seconds: CRANE_SECONDS,
        still_at: 7.0,
        eye: Vec3::new(2.2, 2.6, 8.6),
        target: Vec3::new(-0.8, 3.7, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        // Driven to the end (the winch).
        free_after: CRANE_SECONDS,
        labels: Vec::new(),
    }
}

/// The snapping rope: a 1 m rope (10 links, 0.11 kg, no tethers, soft bend links) with
/// a break force of 50 N hangs from a beam and holds a 1.8 kg bucket (four particles
/// braced rigidly, hung by a bail from a 0.3 kg hook, the rope's end).
pub const BUCKET_ANCHOR: Vec3 = Vec3::new(0.0, 2.2, 0.0);
pub const BUCKET_LINKS: u32 = 10;
pub const BUCKET_ROPE_MASS: f32 = 0.11;
pub const BUCKET_BREAK_FORCE: f32 = 50.0;
pub const BUCKET_MASS: f32 = 1.8;
/// Of the bucket's mass, the hook of its bail (the rope's last particle, kg).
pub const BUCKET_HOOK: f32 = 0.3;
/// Every `BUCKET_EVERY` s (from `BUCKET_EVERY` on) a scoop of `BUCKET_SCOOP` kg of sand
/// (two grains side by side) is added inside the bucket, at rest with it.
pub const BUCKET_SCOOP: f32 = 0.5;
pub const BUCKET_EVERY: f32 = 0.5;
pub const BUCKET_SECONDS: f32 = 4.5;
/// Metric names of the bucket.
pub const BUCKET_SCOOPS: &str = "scoops of sand when the rope snapped";
pub const BUCKET_WEIGHT: &str = "weight hanging from the top link then (N)";
pub const BUCKET_FORCE: &str = "break event: force (N)";
pub const BUCKET_LINK: &str = "break event: link";
pub const BUCKET_EVENT_Y: &str = "break event: height (m)";
pub const BUCKET_TIME: &str = "break event: time (s)";
pub const BUCKET_STRETCH: &str = "largest rope stretch before the snap";
pub const BUCKET_FLOOR: &str = "bucket bottom at the end: height (m)";

/// The weight (N) hanging from the top link with `scoops` scoops in the bucket: the
/// rope's movable particles (all but the pinned one and the hook), the bucket and the
/// sand.
pub fn bucket_weight(scoops: u32) -> f32 {
    let movable_rope = BUCKET_ROPE_MASS * (BUCKET_LINKS - 1) as f32 / (BUCKET_LINKS + 1) as f32;
    (movable_rope + BUCKET_MASS + BUCKET_SCOOP * scoops as f32) * G
}

/// A rope snapping under a filling bucket: every half second a scoop of sand (0.5 kg)
/// lands in the bucket (added at rest, tied rigidly to its bottom); when the weight
/// passes the rope's 50 N break force, its top link breaks (the world reports a break
/// event: link, force, place), and the bucket falls to the floor with the rest of the
/// rope.
pub fn bucket_snap() -> Scene {
    let mut sim = Sim::new(WorldDesc {
        substeps: 32,
        // The bucket is a rigid frame of eight links (and two per grain): four
        // iterations make it rigid (with two, its link forces ring).
        iterations: 4,
        damping: 1.0,
        ..WorldDesc::default()
    });
    ground(&mut sim, 0.6, 0.5, 0.0);
    let rope_end = BUCKET_ANCHOR - Vec3::Y * (0.1 * BUCKET_LINKS as f32);
    let rope = sim
        .world
        .add_rope(&RopeDesc {
            start: BUCKET_ANCHOR,
            end: rope_end,
            segments: BUCKET_LINKS,
            total_mass: BUCKET_ROPE_MASS,
            tethers: false,
            bend_compliance: 1.0,
            ..RopeDesc::default()
        })
        .expect("rope is valid");
    let (first, count) = sim.adopt_body(rope);
    // Stretch is measured until the snap by the scene (a broken link stretches
    // without bound).
    let rope_links = std::mem::take(&mut sim.links);
    let link_ids = sim.world.body(rope).expect("rope").parts.stretch.clone();
    sim.world
        .set_body_break_force(rope, BUCKET_BREAK_FORCE)
        .expect("rope exists");
    sim.world
        .set_particle_radii(first, &vec![0.012; count as usize])
        .expect("rope exists");
    // The bucket: top left, bottom left, bottom right, top right; braced rigidly and
    // hung from the rope's end by a bail.
    let handle = first + BUCKET_LINKS;
    let corners = [
        rope_end + Vec3::new(-0.13, -0.12, 0.0),
        rope_end + Vec3::new(-0.1, -0.42, 0.0),
        rope_end + Vec3::new(0.1, -0.42, 0.0),
        rope_end + Vec3::new(0.13, -0.12, 0.0),
    ];
    // The bail's hook is the rope's last particle: a light particle between the
    // rope and the heavy bucket would make the solver's link forces ring.
    sim.world
        .set_inverse_masses(handle, &[1.0 / BUCKET_HOOK])
        .expect("rope end exists");
    sim.mass[handle as usize] = BUCKET_HOOK;
    sim.inv_mass[handle as usize] = 1.0 / BUCKET_HOOK;
    let b = sim.particles(&corners, &[(BUCKET_MASS - BUCKET_HOOK) / 4.0; 4]);
    sim.world
        .set_particle_radii(b + 1, &[0.02, 0.02])
        .expect("bucket exists");
    let (bottom_left, bottom_right) = (b + 1, b + 2);
    let bail = [[handle, b], [handle, b + 3]];
    let frame = [
        [b, b + 1],
        [b + 1, b + 2],
        [b + 2, b + 3],
        [b, b + 3],
        [b, b + 2],
        [b + 1, b + 3],
    ];
    sim.links(&bail, 0.0);
    sim.links(&frame, 0.0);
    sim.shapes.push(Shape::Mark {
        a: BUCKET_ANCHOR + Vec3::new(-0.5, 0.0, 0.0),
        b: BUCKET_ANCHOR + Vec3::new(0.5, 0.0, 0.0),
        colour: Rgb::hex(0x8a6a4a),
    });
    sim.shapes.push(Shape::Links {
        pairs: (0..BUCKET_LINKS)
            .map(|k| {
                (
                    [first + k, first + k + 1],
                    Some((FamilyKind::BodyLink, link_ids.start + k)),
                )
            })
            .collect(),
        radius: 0.012,
        colour: Rgb::hex(0xd8a24a),
    });
    sim.shapes.push(Shape::Links {
        pairs: bail.iter().map(|&p| (p, None)).collect(),
        radius: 0.006,
        colour: Rgb::hex(0x909aa4),
    });
    sim.shapes.push(Shape::Links {
        pairs: [[b, b + 1], [b + 1, b + 2], [b + 2, b + 3]]
            .iter()
            .map(|&p| (p, None))
            .collect(),
        radius: 0.02,
        colour: Rgb::hex(0x5a7fa8),
    });
    sim.shapes.push(Shape::Ball {
        particle: first,
        radius: 0.025,
        colour: Rgb::hex(0x606870),
    });
    let dt = 1.0 / SIM_HZ;
    // Scoops added and whether the rope snapped, shared by the driver and the observer.
    let state = std::sync::Arc::new(std::sync::Mutex::new((0u32, false)));
    let seen = state.clone();
    let drive = move |sim: &mut Sim, t: f32| {
        let (scoops, snapped) = *state.lock().expect("scene state");
        let due = ((t + 0.5 * dt) / BUCKET_EVERY).floor() as u32;
        if !snapped && due > scoops {
            // Two grains side by side, row by row up from the bottom, each tied
            // rigidly to both bottom corners, moving with the bucket.
            let p = sim.positions();
            let v = sim.velocities();
            let (l, r) = (p[bottom_left as usize], p[bottom_right as usize]);
            let across = (r - l).normalize();
            let up = Vec3::Z.cross(across);
            let centre = 0.5 * (l + r) + up * (0.045 + 0.05 * scoops as f32);
            let grains = [centre - across * 0.03, centre + across * 0.03];
            let g = sim.particles(&grains, &[0.5 * BUCKET_SCOOP; 2]);
            let velocity = 0.5 * (v[bottom_left as usize] + v[bottom_right as usize]);
            sim.world
                .write_velocities(g, &[velocity; 2])
                .expect("grains exist");
            sim.links(
                &[
                    [bottom_left, g],
                    [bottom_right, g],
                    [bottom_left, g + 1],
                    [bottom_right, g + 1],
                ],
                0.0,
            );
            for k in 0..2 {
                sim.shapes.push(Shape::Ball {
                    particle: g + k,
                    radius: 0.025,
                    colour: Rgb::hex(0xe8c060),
                });
            }
            state.lock().expect("scene state").0 = scoops + 1;
            sim.status = format!(
                "{} scoops: {} N on a 50 N rope",
                scoops + 1,
                fixed(bucket_weight(scoops + 1) as f64, 1)
            );
        }
    };
    let observe = move |sim: &mut Sim, t: f32| {
        let mut events = [BreakReport {
            body: None,
            family: FamilyKind::BodyLink,
            id: 0,
            force: 0.0,
            position: Vec3::ZERO,
        }; 4];
        let (n, _) = sim.world.take_break_events(&mut events);
        let (scoops, mut snapped) = *seen.lock().expect("scene state");
        if n > 0 && !snapped {
            snapped = true;
            let e = events[0];
            seen.lock().expect("scene state").1 = true;
            sim.set_count(BUCKET_SCOOPS, scoops as usize);
            sim.set_metric(BUCKET_WEIGHT, bucket_weight(scoops) as f64);
            sim.set_metric(BUCKET_FORCE, e.force as f64);
            sim.set_count(BUCKET_LINK, (e.id - link_ids.start) as usize);
            sim.set_metric(BUCKET_EVENT_Y, e.position.y as f64);
            sim.set_metric(BUCKET_TIME, t as f64);
            sim.status = format!(
                "SNAP: link {} broke at {} N",
                e.id - link_ids.start,
                fixed(e.force as f64, 1)
            );
        }
        if !snapped {
            let worst = sim.max_stretch(&rope_links).expect("rope links");
            max_metric(sim, BUCKET_STRETCH, worst as f64);
        }
        if t + 0.5 * dt >= BUCKET_SECONDS {
            let p = sim.world.particles();
            let y = p
                .position(bottom_left as usize)
                .y
                .min(p.position(bottom_right as usize).y);
            sim.set_metric(BUCKET_FLOOR, y as f64);
        }
    };
    sim.status = "0 scoops: 18.6 N on a 50 N rope".into();
    Scene {
        name: "bucket_snap",
        title: "A rope snapping under a filling bucket",
        seconds: BUCKET_SECONDS,
        still_at: 3.6,
        eye: Vec3::new(0.6, 1.5, 2.6),
        target: Vec3::new(0.0, 1.3, 0.0),
        fov_deg: 50.0,
        sim,
        drive: Some(Box::new(drive)),
        observe: Some(Box::new(observe)),
        // Driven until the snap, which the scene finds out as it runs.
        free_after: BUCKET_SECONDS,
        labels: Vec::new(),
    }
}
