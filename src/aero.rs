//! Wind and aerodynamics: a world wind field (a uniform velocity, turbulence, and wind
//! zones) and the drag and lift it puts on cloth triangles and rope links.
//!
//! **Wind field.** The air velocity at point `p` and time `t` is
//!
//! ```text
//! u(p, t) = U + a N(p / L, f t)
//!         + Σ_zones  k_z(p) (s_z d_z(p) + a_z N_z(p / L, f t))
//! ```
//!
//! with `U` the world wind (m/s), `a` its turbulence amplitude (m/s), `N` a
//! deterministic value noise in [−1, 1]³ of position (scale `L`, m) and time (frequency
//! `f`, Hz), and for each zone (box or sphere) its strength `s_z` (m/s) along its
//! direction `d_z` (a unit vector; zero = radially outward from the zone's centre), its
//! turbulence `a_z` and a weight `k_z(p)`: 1 inside, 0 outside, fading linearly to 0 over
//! the outer `falloff` fraction of the zone. The noise hashes the integer lattice
//! (f64 arithmetic, no randomness, no state), so the field is the same on every run,
//! thread count and CPU.
//!
//! **Forces.** Per triangle of area `A`, unit normal `n`, velocity `v` (the mean of its
//! vertices') and air velocity `u` at its centroid, with `w = v − u`, `s = |w|`,
//! ρ the air density (kg/m³) and C_d, C_l the body's drag and lift coefficients:
//!
//! ```text
//! drag  F_D = −½ ρ C_d A |n·w| w                  (the projected area A|cos θ| facing the flow)
//! lift  F_L = −½ ρ C_l A (n·w) (s n − (n·w) w / s)  (⊥ w, ∝ cos θ sin θ s²)
//! ```
//!
//! the thin-plate model of Chaos Cloth's aerodynamics ("Cloth Aerodynamics", Unreal
//! Engine documentation) and Obi Cloth's aerodynamic constraints (Obi documentation,
//! "Aerodynamics"); each vertex takes a third. A flat plate falling face first feels
//! `½ ρ C_d A v²`, so its terminal speed is `√(2 m g / (ρ C_d A))`. Per rope link of
//! length `L`, radius `r` and unit tangent `t`, the flow is split into its parts across
//! and along the link, `w_t = (w·t) t` and `w_n = w − w_t`, each with its own force (the
//! inclined-cylinder model of Taylor, "Analysis of the swimming of long and narrow
//! animals", 1952):
//!
//! ```text
//! cross-flow drag  F_n = −½ ρ C_d (2 r L) |w_n| w_n     (the projected area 2 r L)
//! skin friction    F_t = −½ ρ C_f (π 2 r L) |w_t| w_t   (the wetted area π 2 r L)
//! ```
//!
//! with `C_f = C_d / 80` (0.015 for `C_d = 1.2`): a cylinder in axial flow has `C_f` of
//! order 0.01–0.02 per wetted area (Hoerner, "Fluid-Dynamic Drag", 1965). Half of
//! `F_n + F_t` goes to each end (ropes have no lift). A straight rope of mass `m`
//! sliding along its axis through still air slows as `v(t) = v0 / (1 + k v0 t)`,
//! `k = ½ ρ C_f π 2 r L / m`, and one falling along its axis ends at
//! `√(2 m g / (ρ C_f π 2 r L))`.
//!
//! **Integration.** Before each substep's prediction each particle gets
//! `Δv = h w_p F` (explicit), with two guards that only act far outside the usual range:
//! the step is capped as if `h w_p K ≤ 1`, where `K` is the summed rate
//! (|F| ≤ K s) of the forces on the particle (a rope link's cross-flow and skin-friction
//! rates add, `½ ρ L (C_d 2 r |w_n| + C_f π 2 r |w_t|)`), so drag never reverses the flow
//! past a particle; and the speed relative to the (mean) air never grows, so lift cannot pump
//! energy into a particle. Sums are in f64 and bounded by the relative speeds, so
//! accepted input gives finite velocities. One pass, one thread, fixed order: bit-identical
//! for every thread count.

use std::ops::Range;

use glam::DVec3;

use crate::bodies::BodyId;
use crate::error::{try_reserve, Error, Result};
use crate::limits::schema::SettingEnum;
use crate::limits::{MAX_COORDINATE, MAX_LENGTH};
use crate::math::Vec3;
use crate::particles::{position_of, Particles};
use crate::pipeline::{Stage, StepContext};
use crate::slots::ID_WITHOUT_SERIAL;
use glam::Quat;

pub use crate::limits::{
    MAX_AERO_COEFFICIENT, MAX_AIR_DENSITY, MAX_TURBULENCE_FREQUENCY, MAX_WIND_SPEED,
    MAX_WIND_ZONES, MIN_TURBULENCE_SCALE,
};

crate::settings! {
    /// The world's air: density, uniform wind and its turbulence. Changeable every frame.
    pub struct WindDesc => SinewWindDesc, WindSettings, cookie 0x5E1E_0301,
        path "crate::aero::WindDesc" {
        /// Uniform wind velocity.
        velocity: Vec3 = Vec3::ZERO => unit "m/s", min >= -MAX_WIND_SPEED,
            max <= MAX_WIND_SPEED;
        /// Air density ρ (1.225 at sea level, 15 °C).
        air_density: f32 = 1.225 => unit "kg/m³", min >= 0.0, max <= MAX_AIR_DENSITY;
        /// Amplitude of the world wind's turbulence, per component.
        turbulence: f32 = 0.0 => unit "m/s", min >= 0.0, max <= MAX_WIND_SPEED;
        /// Length scale of the turbulence noise.
        turbulence_scale: f32 = 2.0 => unit "m", min >= MIN_TURBULENCE_SCALE,
            max <= MAX_LENGTH;
        /// Time frequency of the turbulence noise.
        turbulence_frequency: f32 = 1.0 => unit "Hz", min >= 0.0,
            max <= MAX_TURBULENCE_FREQUENCY;
    }
}

/// The region of a wind zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WindZoneShape {
    /// An oriented box (`half_extents` in the zone's frame). The default.
    #[default]
    Box,
    /// A sphere of `radius` around `position`.
    Sphere,
}

impl SettingEnum for WindZoneShape {
    const C_TYPE: &'static str = "SinewWindZoneShape";
    fn to_c(self) -> u32 {
        match self {
            WindZoneShape::Box => 0,
            WindZoneShape::Sphere => 1,
        }
    }
    fn from_c(v: u32, field: &str) -> Result<WindZoneShape> {
        match v {
            0 => Ok(WindZoneShape::Box),
            1 => Ok(WindZoneShape::Sphere),
            _ => Err(Error::invalid(format!(
                "{field} {v} is not a SinewWindZoneShape (0 = box, 1 = sphere)"
            ))),
        }
    }
}

crate::settings! {
    /// A wind zone: extra wind inside a box or sphere. Changeable every frame.
    pub struct WindZoneDesc => SinewWindZoneDesc, WindZoneSettings, cookie 0x5E1E_0302,
        path "crate::aero::WindZoneDesc", check WindZoneDesc::check_relations {
        /// Box (an oriented box of `half_extents`) or sphere (of `radius`).
        shape: WindZoneShape = WindZoneShape::Box => unit "";
        /// Centre.
        position: Vec3 = Vec3::ZERO => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// Orientation of a box (a quaternion of length in [0.5, 2], normalised on input).
        rotation: Quat = Quat::IDENTITY => unit "";
        /// Box half extents.
        half_extents: Vec3 = Vec3::ONE => unit "m", min > 0.0, max <= MAX_LENGTH;
        /// Sphere radius.
        radius: f32 = 1.0 => unit "m", min > 0.0, max <= MAX_LENGTH;
        /// Direction the wind blows (world frame; normalised on input): (0, 0, 0) =
        /// radially outward from `position` (a blast, Unity's spherical zone), else of
        /// length in [1e-6, 1e6].
        direction: Vec3 = Vec3::X => unit "";
        /// Wind speed along `direction`.
        strength: f32 = 5.0 => unit "m/s", min >= 0.0, max <= MAX_WIND_SPEED;
        /// Turbulence amplitude, per component.
        turbulence: f32 = 0.0 => unit "m/s", min >= 0.0, max <= MAX_WIND_SPEED;
        /// Outer fraction of the zone over which the wind fades to 0 (0 = a sharp edge).
        falloff: f32 = 0.0 => unit "", min >= 0.0, max <= 1.0;
    }
}

impl WindZoneDesc {
    /// Checks every field and returns the desc with its rotation and direction
    /// normalised.
    pub fn validated(&self) -> Result<WindZoneDesc> {
        self.validate()?;
        let t = crate::transform::Transform::checked(self.position, self.rotation)?;
        let d = self.direction;
        let len = d.length();
        Ok(WindZoneDesc {
            rotation: t.rotation,
            direction: if len == 0.0 { Vec3::ZERO } else { d / len },
            ..*self
        })
    }

    /// The checks beyond each field's range (after them): the rotation's length and
    /// the direction's (zero or in [1e-6, 1e6]).
    fn check_relations(&self) -> Result<()> {
        crate::transform::Transform::checked(self.position, self.rotation)?;
        let d = self.direction;
        let len = d.length();
        if !(d.is_finite() && (len == 0.0 || (1e-6..=1e6).contains(&len))) {
            return Err(Error::invalid(format!(
                "direction {d} must be finite and either zero (radial) or of length in [1e-6, 1e6]"
            )));
        }
        Ok(())
    }

    /// The zone's weight at `p` (0 outside) and its direction there.
    fn weight(&self, p: DVec3) -> Option<(f64, DVec3)> {
        let rel = p - self.position.as_dvec3();
        // How far out p lies: 0 at the centre, 1 on the boundary.
        let depth = match self.shape {
            WindZoneShape::Sphere => rel.length() / self.radius as f64,
            WindZoneShape::Box => {
                let local = self.rotation.as_dquat().inverse() * rel;
                (local / self.half_extents.as_dvec3()).abs().max_element()
            }
        };
        if depth.is_nan() || depth > 1.0 {
            return None;
        }
        let f = self.falloff as f64;
        let k = if f > 0.0 && depth > 1.0 - f {
            (1.0 - depth) / f
        } else {
            1.0
        };
        let dir = if self.direction == Vec3::ZERO {
            rel.normalize_or_zero()
        } else {
            self.direction.as_dvec3()
        };
        Some((k, dir))
    }
}

/// Skin-friction coefficient of a rope in axial flow per unit of its drag coefficient:
/// `C_f = ROPE_SKIN_FRICTION_RATIO · C_d`, on the wetted area `π d L` (see the module
/// doc). A cylinder in axial flow has `C_f` of order 0.01–0.02 per wetted area (Hoerner,
/// "Fluid-Dynamic Drag", 1965) where its cross-flow `C_d` is about 1.1–1.2: 1/80 gives
/// `C_f = 0.015` at `C_d = 1.2`.
const ROPE_SKIN_FRICTION_RATIO: f64 = 1.0 / 80.0;

/// A per-particle sum of the aerodynamic forces of one step's substep.
#[derive(Clone, Copy, Debug, Default)]
struct Accum {
    /// N
    force: DVec3,
    /// Summed rate (N·s/m): |force| ≤ rate × relative speed.
    rate: f64,
    /// Sum of the air velocities (m/s) of the elements touching the particle.
    air: DVec3,
    /// Number of those elements.
    count: f64,
}

/// What a body's aerodynamic elements are.
#[derive(Clone, Debug)]
pub(crate) enum Elements {
    /// Cloth triangles (global particle indices).
    Triangles(Vec<[u32; 3]>),
    /// Rope links (i, i+1) over the particle range, with the rope's radius (m).
    Links(f32),
}

/// One body's aerodynamic surface and coefficients.
#[derive(Clone, Debug)]
pub(crate) struct Surface {
    pub body: BodyId,
    pub particles: Range<u32>,
    pub elements: Elements,
    /// Drag coefficient C_d (dimensionless).
    pub drag: f32,
    /// Lift coefficient C_l (dimensionless; cloth only).
    pub lift: f32,
    /// Per-particle sums, sized to the body when its coefficients are set (so the step
    /// never allocates); empty while the surface is off.
    scratch: Vec<Accum>,
}

impl Surface {
    fn active(&self) -> bool {
        (self.drag > 0.0 || self.lift > 0.0) && !self.scratch.is_empty()
    }
}

/// Wind settings, zones, the aerodynamic surfaces and the simulated time: plain
/// per-world state (no pointers), owned by the World.
#[derive(Clone, Debug, Default)]
pub struct Aero {
    pub(crate) wind: WindDesc,
    /// Zones by id (ids are never reused; None = removed).
    pub(crate) zones: Vec<Option<WindZoneDesc>>,
    /// Every cloth's triangles (recorded when it is built) and every rope with
    /// coefficients, in creation order.
    pub(crate) surfaces: Vec<Surface>,
    /// Simulated time (s) since the world was created: the turbulence's clock.
    pub(crate) time: f64,
}

/// 64-bit mix (the SplitMix64 finaliser: Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A lattice value in [−1, 1] for corner `c` of channel `channel`.
fn lattice(c: [i64; 4], channel: u64) -> f64 {
    let mut h = mix(channel.wrapping_add(0x9E37_79B9_7F4A_7C15));
    for x in c {
        h = mix(h ^ (x as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    }
    (h >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// Value noise in [−1, 1] on the integer lattice of 4D point `q` (smoothstep
/// interpolation of hashed corner values).
fn value_noise(q: [f64; 4], channel: u64) -> f64 {
    let mut base = [0i64; 4];
    let mut s = [0.0f64; 4];
    for k in 0..4 {
        let fl = q[k].floor();
        // `as` saturates: far-away points share a lattice cell (finite, still smooth).
        base[k] = fl as i64;
        let f = (q[k] - fl).clamp(0.0, 1.0);
        s[k] = f * f * (3.0 - 2.0 * f);
    }
    let mut sum = 0.0;
    for corner in 0..16u32 {
        let mut weight = 1.0;
        let mut c = base;
        for k in 0..4 {
            if corner & (1 << k) != 0 {
                c[k] = c[k].wrapping_add(1);
                weight *= s[k];
            } else {
                weight *= 1.0 - s[k];
            }
        }
        sum += weight * lattice(c, channel);
    }
    sum
}

/// Three independent noise channels (`3 first_channel`..) at `p` / `scale`, time
/// `t` · `frequency`.
fn noise3(p: DVec3, t: f64, wind: &WindDesc, first_channel: u64) -> DVec3 {
    let l = wind.turbulence_scale as f64;
    let q = [
        p.x / l,
        p.y / l,
        p.z / l,
        t * wind.turbulence_frequency as f64,
    ];
    DVec3::new(
        value_noise(q, 3 * first_channel),
        value_noise(q, 3 * first_channel + 1),
        value_noise(q, 3 * first_channel + 2),
    )
}

impl Aero {
    /// The air velocity (m/s) at `p` at time `t` (see the module doc).
    pub(crate) fn wind_at(&self, p: DVec3, t: f64) -> DVec3 {
        let w = &self.wind;
        let mut u = w.velocity.as_dvec3();
        if w.turbulence > 0.0 {
            u += w.turbulence as f64 * noise3(p, t, w, 0);
        }
        for (id, z) in self.zones.iter().enumerate() {
            let Some(z) = z else { continue };
            let Some((k, dir)) = z.weight(p) else {
                continue;
            };
            let mut zu = dir * z.strength as f64;
            if z.turbulence > 0.0 {
                zu += z.turbulence as f64 * noise3(p, t, w, id as u64 + 1);
            }
            u += k * zu;
        }
        u
    }

    /// Whether any surface has non-zero coefficients.
    pub(crate) fn any_active(&self) -> bool {
        self.surfaces.iter().any(Surface::active)
    }

    /// Records a new cloth's triangles (global indices), off until coefficients are set.
    pub(crate) fn reserve_surface(&mut self) -> Result<()> {
        try_reserve(&mut self.surfaces, 1, "aerodynamic surfaces")
    }

    /// Adds a surface (room reserved by [`Self::reserve_surface`]).
    pub(crate) fn push_surface(&mut self, body: BodyId, particles: Range<u32>, e: Elements) {
        self.surfaces.push(Surface {
            body,
            particles,
            elements: e,
            drag: 0.0,
            lift: 0.0,
            scratch: Vec::new(),
        });
    }

    /// The surface of `body`, if any.
    pub(crate) fn surface_mut(&mut self, body: BodyId) -> Option<&mut Surface> {
        self.surfaces.iter_mut().find(|s| s.body == body)
    }

    /// Sets a surface's coefficients (checked by the caller), sizing its scratch.
    pub(crate) fn set_coefficients(s: &mut Surface, drag: f32, lift: f32) -> Result<()> {
        if drag > 0.0 || lift > 0.0 {
            if s.scratch.is_empty() {
                let n = s.particles.len();
                let mut v = crate::error::try_with_capacity(n, "aerodynamic sums")?;
                v.resize(n, Accum::default());
                s.scratch = v;
            }
        } else {
            s.scratch = Vec::new();
        }
        s.drag = drag;
        s.lift = lift;
        Ok(())
    }

    /// Forgets a removed body's surface.
    pub(crate) fn remove_body(&mut self, body: BodyId) {
        self.surfaces.retain(|s| s.body != body);
    }

    /// Applies one substep's aerodynamic impulses (`h`, s) at time `t` (s) to the
    /// velocities (see the module doc). Called before the prediction.
    pub(crate) fn apply(&mut self, particles: &mut Particles, h: f32, t: f64) {
        let rho = self.wind.air_density as f64;
        let mut surfaces = std::mem::take(&mut self.surfaces);
        for s in surfaces.iter_mut().filter(|s| s.active()) {
            let first = s.particles.start as usize;
            s.scratch.fill(Accum::default());
            let pos = |i: u32| {
                let i = i as usize;
                position_of(particles.base[i], particles.hot[i]).as_dvec3()
            };
            let vel = |i: u32| particles.velocity[i as usize].as_dvec3();
            match &s.elements {
                Elements::Triangles(tris) => {
                    let (cd, cl) = (s.drag as f64, s.lift as f64);
                    for tri in tris {
                        let [a, b, c] = tri.map(pos);
                        let cross = (b - a).cross(c - a);
                        let twice_area = cross.length();
                        if twice_area.is_nan() || twice_area <= 0.0 {
                            continue;
                        }
                        let n = cross / twice_area;
                        let v = (vel(tri[0]) + vel(tri[1]) + vel(tri[2])) / 3.0;
                        let air = self.wind_at((a + b + c) / 3.0, t);
                        let w = v - air;
                        let speed = w.length();
                        if speed.is_nan() || speed <= 0.0 {
                            continue;
                        }
                        let nw = n.dot(w);
                        let q = 0.5 * rho * 0.5 * twice_area * nw.abs();
                        let drag = -cd * q * w;
                        let lift =
                            -cl * 0.5 * rho * 0.5 * twice_area * nw * (speed * n - nw * w / speed);
                        let rate = (cd + cl) * q;
                        let share = Accum {
                            force: (drag + lift) / 3.0,
                            rate: rate / 3.0,
                            air,
                            count: 1.0,
                        };
                        for &p in tri {
                            add(&mut s.scratch[p as usize - first], &share);
                        }
                    }
                }
                Elements::Links(radius) => {
                    let d = 2.0 * *radius as f64;
                    let cd = s.drag as f64;
                    // Per unit length and unit relative speed: ½ ρ C_d d across the link
                    // (its projected area) and ½ ρ C_f π d along it (its wetted area).
                    let across = 0.5 * rho * cd * d;
                    let along =
                        0.5 * rho * cd * ROPE_SKIN_FRICTION_RATIO * std::f64::consts::PI * d;
                    for i in s.particles.start..s.particles.end.saturating_sub(1) {
                        let (a, b) = (pos(i), pos(i + 1));
                        let e = b - a;
                        let len = e.length();
                        if len.is_nan() || len <= 0.0 {
                            continue;
                        }
                        let tangent = e / len;
                        let air = self.wind_at((a + b) * 0.5, t);
                        let w = (vel(i) + vel(i + 1)) * 0.5 - air;
                        let wt = w.dot(tangent);
                        let wn = w - wt * tangent;
                        // |F| ≤ (rate_n + rate_t) |w|: each part's rate times its speed.
                        let rate_n = across * len * wn.length();
                        let rate_t = along * len * wt.abs();
                        let share = Accum {
                            force: -(rate_n * wn + rate_t * wt * tangent) * 0.5,
                            rate: (rate_n + rate_t) * 0.5,
                            air,
                            count: 1.0,
                        };
                        add(&mut s.scratch[(i - s.particles.start) as usize], &share);
                        add(&mut s.scratch[(i + 1 - s.particles.start) as usize], &share);
                    }
                }
            }
            let h = h as f64;
            for (k, acc) in s.scratch.iter().enumerate() {
                let i = first + k;
                let inv_mass = particles.hot[i].w as f64;
                if inv_mass == 0.0 || acc.rate.is_nan() || acc.rate <= 0.0 {
                    continue;
                }
                // Explicit step, capped as if h w K ≤ 1 (|force / rate| ≤ relative speed).
                let dv = acc.force / acc.rate * (h * inv_mass * acc.rate).min(1.0);
                let v = particles.velocity[i].as_dvec3();
                let air = acc.air / acc.count;
                let (before, mut after) = (v - air, v + dv - air);
                let (lb, la) = (before.length(), after.length());
                if la > lb {
                    after *= lb / la;
                }
                let new = (air + after).as_vec3();
                if new.is_finite() {
                    particles.velocity[i] = new;
                }
            }
        }
        self.surfaces = surfaces;
    }
}

fn add(acc: &mut Accum, share: &Accum) {
    acc.force += share.force;
    acc.rate += share.rate;
    acc.air += share.air;
    acc.count += share.count;
}

impl Aero {
    /// Snapshot: the wind, the zones, every surface (body, particles, elements,
    /// coefficients) and the turbulence clock; the per-particle sums are scratch.
    pub(crate) fn save(&self, w: &mut crate::snapshot::codec::Writer<'_>) {
        self.wind.save_settings(w);
        w.put_len(self.zones.len());
        for z in &self.zones {
            w.put(z.is_some());
            if let Some(z) = z {
                z.save_settings(w);
            }
        }
        w.put_len(self.surfaces.len());
        for s in &self.surfaces {
            w.put(s.body.0 & ID_WITHOUT_SERIAL);
            w.put((s.particles.start, s.particles.end));
            w.put((s.drag, s.lift));
            match &s.elements {
                Elements::Triangles(t) => {
                    w.put(0u32);
                    w.put_slice(t);
                }
                Elements::Links(radius) => {
                    w.put(1u32);
                    w.put(*radius);
                }
            }
        }
        w.put(self.time);
    }

    /// Snapshot: what [`Self::save`] wrote, over `particles` particles; each surface's
    /// body id is completed by `id` (the loading world's serial) and checked by `live`.
    pub(crate) fn load(
        r: &mut crate::snapshot::codec::Reader<'_>,
        particles: usize,
        live: &dyn Fn(u64) -> Option<BodyId>,
    ) -> Result<Aero> {
        use crate::snapshot::codec::{self, corrupt};
        let wind = WindDesc::load_settings(r)?;
        let n = r.get_count(1, "wind zones")?;
        codec::ensure(n <= MAX_WIND_ZONES as usize, || {
            format!("{n} wind zones (a world holds at most {MAX_WIND_ZONES})")
        })?;
        let mut zones = crate::error::try_with_capacity(n, "wind zones")?;
        for k in 0..n {
            // Checked, but kept bit for bit: the rotation and a non-zero direction were
            // normalised when they were set, so they must be unit.
            let zone = if r.get::<bool>()? {
                let z = WindZoneDesc::load_settings(r)?;
                let what = format!("wind zone {k}");
                codec::check_unit(z.rotation.length_squared(), &what)?;
                if z.direction != Vec3::ZERO {
                    codec::check_unit(z.direction.length_squared(), &what)?;
                }
                Some(z)
            } else {
                None
            };
            zones.push(zone);
        }
        let n = r.get_count(28, "aerodynamic surfaces")?;
        let mut surfaces = crate::error::try_with_capacity(n, "aerodynamic surfaces")?;
        for k in 0..n {
            let body = live(r.get::<u64>()?)
                .ok_or_else(|| corrupt(format!("aerodynamic surface {k} names no body")))?;
            let (a, b) = r.get::<(u32, u32)>()?;
            codec::ensure(a <= b && b as usize <= particles, || {
                format!("aerodynamic surface {k} has the particles {a}..{b} of {particles}")
            })?;
            let (drag, lift) = r.get::<(f32, f32)>()?;
            codec::check_finite([drag, lift], "aerodynamic coefficients")?;
            let elements = match r.get::<u32>()? {
                0 => {
                    let t: Vec<[u32; 3]> = r.get_vec()?;
                    codec::ensure(t.iter().flatten().all(|&i| i >= a && i < b), || {
                        format!("aerodynamic surface {k} has a triangle outside {a}..{b}")
                    })?;
                    Elements::Triangles(t)
                }
                1 => {
                    let radius: f32 = r.get()?;
                    codec::check_finite([radius], "rope radius")?;
                    Elements::Links(radius)
                }
                e => return Err(corrupt(format!("aerodynamic elements {e}"))),
            };
            let mut s = Surface {
                body,
                particles: a..b,
                elements,
                drag: 0.0,
                lift: 0.0,
                scratch: Vec::new(),
            };
            Aero::set_coefficients(&mut s, drag, lift)?;
            surfaces.push(s);
        }
        let time: f64 = r.get()?;
        codec::ensure(time.is_finite() && time >= 0.0, || {
            format!("the wind clock {time} s is not a finite time >= 0")
        })?;
        Ok(Aero {
            wind,
            zones,
            surfaces,
            time,
        })
    }
}

impl Aero {
    /// Gives every surface's body id the world serial of `ids` (after a restore).
    pub(crate) fn reserial(&mut self, ids: crate::slots::WorldIds) {
        for s in &mut self.surfaces {
            s.body = BodyId(ids.complete(s.body.0));
        }
    }
}

/// The wind stage: drag and lift impulses at the start of every substep, before the
/// predict; the simulated time advances at the end of the step.
impl Stage for Aero {
    fn begin_substep(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        if self.any_active() {
            let t = self.time + cx.substep as f64 * cx.h as f64;
            self.apply(particles, cx.h, t);
        }
    }

    fn end_step(&mut self, _particles: &mut Particles, cx: &StepContext<'_>) {
        self.time += cx.dt as f64;
    }

    fn moves_particles_between_substeps(&self) -> bool {
        self.any_active()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_bounded_smooth_and_deterministic() {
        let w = WindDesc::default();
        let mut prev = noise3(DVec3::new(0.0, 0.5, -1.0), 0.0, &w, 0);
        for k in 1..2000 {
            let p = DVec3::new(k as f64 * 0.003, 0.5, -1.0);
            let n = noise3(p, k as f64 * 0.001, &w, 0);
            assert!(n.abs().max_element() <= 1.0, "{n}");
            // Smooth: a step of 3 mm on a 2 m scale changes the value by little.
            assert!((n - prev).abs().max_element() < 0.05, "{n} {prev}");
            assert_eq!(n, noise3(p, k as f64 * 0.001, &w, 0));
            prev = n;
        }
        // Channels differ.
        let n = noise3(DVec3::new(0.3, 0.7, 0.1), 0.2, &w, 0);
        assert!(n.x != n.y && n.y != n.z);
        // Far away: still finite.
        let far = noise3(DVec3::splat(1e9), 1e12, &w, 5);
        assert!(far.is_finite());
    }

    #[test]
    fn zones_add_their_wind_inside_and_fade_over_the_falloff() {
        let mut a = Aero::default();
        a.zones.push(Some(
            WindZoneDesc {
                shape: WindZoneShape::Sphere,
                radius: 2.0,
                direction: Vec3::new(0.0, 0.0, 2.0),
                strength: 4.0,
                falloff: 0.5,
                ..WindZoneDesc::default()
            }
            .validated()
            .unwrap(),
        ));
        assert_eq!(a.wind_at(DVec3::ZERO, 0.0), DVec3::new(0.0, 0.0, 4.0));
        // depth 0.75 of 1: halfway through the outer half → half strength.
        let u = a.wind_at(DVec3::new(1.5, 0.0, 0.0), 0.0);
        assert!((u.z - 2.0).abs() < 1e-12, "{u}");
        assert_eq!(a.wind_at(DVec3::new(2.1, 0.0, 0.0), 0.0), DVec3::ZERO);
        // A rotated box: 45° about y, half extents (2, 1, 0.1).
        a.zones[0] = Some(
            WindZoneDesc {
                rotation: Quat::from_rotation_y(std::f32::consts::FRAC_PI_4),
                half_extents: Vec3::new(2.0, 1.0, 0.1),
                direction: Vec3::ZERO,
                ..WindZoneDesc::default()
            }
            .validated()
            .unwrap(),
        );
        let along = DVec3::new(1.0, 0.0, -1.0); // local x (rotated by 45° about y)
        let u = a.wind_at(along, 0.0);
        assert!((u - along.normalize() * 5.0).length() < 1e-5, "{u}");
        assert_eq!(a.wind_at(DVec3::new(1.0, 0.0, 1.0), 0.0), DVec3::ZERO);
    }

    /// A loaded wind zone keeps its saved rotation and direction, which the API
    /// normalised; a forged one of another length (within what the desc's checks
    /// accept) is refused.
    #[test]
    fn loaded_zones_must_be_normalised() {
        use crate::snapshot::codec::{written, Reader};
        let load = |a: &Aero| Aero::load(&mut Reader::new(&written(|w| a.save(w))), 0, &|_| None);
        let zone = WindZoneDesc {
            rotation: Quat::from_xyzw(0.1, 0.2, 0.3, 0.9),
            direction: Vec3::new(0.3, -2.0, 0.5),
            ..WindZoneDesc::default()
        };
        let mut a = Aero::default();
        a.zones.push(Some(zone.validated().unwrap()));
        a.zones.push(None);
        let back = load(&a).unwrap();
        assert_eq!(back.zones, a.zones);
        for forged in [
            WindZoneDesc {
                rotation: zone.rotation,
                ..a.zones[0].unwrap()
            },
            WindZoneDesc {
                direction: zone.direction,
                ..a.zones[0].unwrap()
            },
        ] {
            let mut f = Aero::default();
            f.zones.push(Some(forged));
            let e = load(&f).err().unwrap();
            assert!(
                e.message.contains("wind zone 0 is not normalised"),
                "{}",
                e.message
            );
        }
    }

    /// A snapshot holding more wind zones than a world can (every zone slot empty,
    /// one byte each) is refused.
    #[test]
    fn loaded_zones_stay_within_the_limit() {
        use crate::snapshot::codec::{written, Reader};
        let mut a = Aero::default();
        a.zones.resize(MAX_WIND_ZONES as usize + 1, None);
        let bytes = written(|w| a.save(w));
        let e = Aero::load(&mut Reader::new(&bytes), 0, &|_| None)
            .err()
            .unwrap();
        assert!(
            e.message.contains("wind zones (a world holds at most"),
            "{}",
            e.message
        );
        a.zones.pop();
        let bytes = written(|w| a.save(w));
        assert!(Aero::load(&mut Reader::new(&bytes), 0, &|_| None).is_ok());
    }
}
