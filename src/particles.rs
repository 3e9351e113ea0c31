//! Particle storage: struct-of-arrays, hot data separate from cold data.
//!
//! * `base[i]`: the large part of the position (m), moved once per substep.
//! * `hot[i]`: `xyz` = the small part (m): the displacement from `base` since the start
//!   of the substep; `w` = inverse mass (1/kg, 0 = pinned). Constraint kernels write
//!   only this array.
//! * `velocity[i]`: m/s between steps. Within a substep (from predict to the velocity
//!   update) it holds `u = v − d_predicted / h` instead, so that the update
//!   `v = (x − x_prev) / h = u + d / h` needs no array of predicted positions
//!   (40 bytes per particle in all).
//!
//! The true position is `base + hot.xyz`. The float trouble of Sakai, "XPBD and small-step XPBD in Unity" (2022): with small steps a
//! substep moves a particle by far less than the spacing of `f32` at its coordinate
//! (6e-5 m at 1 km), so positions stored whole lose the motion, and velocities derived
//! from them are quantised to that spacing / h (0.37 m/s at 1 km with 100 substeps at
//! 60 Hz). Keeping the displacement within a substep separate keeps full precision: at
//! the start of each substep `(base, d) = two_sum(base, d)` moves what fits into `base`
//! and leaves the exact remainder in `d` (see [`crate::math::two_sum`]); constraints see
//! `x_a − x_b = (base_a − base_b) + (d_a − d_b)`. The remainder is at most half an ulp
//! of `base`, so `u`'s rounding costs at most ~ε (|v| + ulp(base)/h) per substep.
//!
//! ARCHITECTURE.md, "Data layout", places this in the whole.

pub mod material;

use crate::error::{try_reserve, Error, Result};
use crate::limits::MIN_INVERSE_MASS;
use crate::math::{Vec3, Vec3A, Vec4};
use crate::snapshot::codec::{self, Reader, Writer};
use material::ParticleMaterial;

pub use crate::limits::MAX_PARTICLES;

/// Largest coordinate magnitude (m) accepted for positions and velocities (m/s): see
/// the table of accepted ranges in [`crate::limits`].
pub use crate::limits::MAX_COORDINATE;

const _: () = assert!(std::mem::size_of::<Vec4>() == 16);

/// A per-particle vector the host reads and writes in bulk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vec3Attribute {
    /// m
    Position,
    /// m/s
    Velocity,
}

impl Vec3Attribute {
    /// Lower-case name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Vec3Attribute::Position => "position",
            Vec3Attribute::Velocity => "velocity",
        }
    }
}

/// Which particles collide with which (cold data, read when the neighbour lists are
/// built once per step).
///
/// Two particles i and j collide when `layers_i & mask_j != 0` and
/// `layers_j & mask_i != 0`, and they are not of the same non-zero `group` (one body)
/// unless both have `self_collision` set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionFilter {
    /// Body id; 0 = no body (collides with every particle that the layers allow).
    pub group: u32,
    /// Layers this particle is on (bits).
    pub layers: u32,
    /// Layers this particle collides with (bits).
    pub mask: u32,
    /// Particles of one group collide with each other when both set this.
    pub self_collision: bool,
}

impl Default for CollisionFilter {
    fn default() -> Self {
        CollisionFilter {
            group: 0,
            layers: 1,
            mask: u32::MAX,
            self_collision: false,
        }
    }
}

impl CollisionFilter {
    /// Whether particles with filters `self` and `other` collide.
    #[inline]
    pub fn collides(&self, other: &CollisionFilter) -> bool {
        (self.layers & other.mask) != 0
            && (other.layers & self.mask) != 0
            && (self.group == 0
                || self.group != other.group
                || (self.self_collision && other.self_collision))
    }
}

#[derive(Default)]
pub struct Particles {
    /// xyz: displacement from `base` within the current substep (m); w: inverse mass (1/kg).
    pub(crate) hot: Vec<Vec4>,
    /// Large part of the position (m), moved once per substep.
    pub(crate) base: Vec<Vec3A>,
    /// m/s
    pub(crate) velocity: Vec<Vec3>,
    /// Collision radius (m), cold; 0 (the default) = a point that collides with
    /// colliders only.
    pub(crate) radius: Vec<f32>,
    /// Collision filter, cold.
    pub(crate) filter: Vec<CollisionFilter>,
    /// Unyielding factor in [0, 1] (the UE 4.26 Niagara Advanced PBD sample (Epic Games, 2020)), cold: 1 = pushes yielding particles
    /// without being pushed by them, 0 (default) = ordinary.
    pub(crate) unyielding: Vec<f32>,
    /// Granular material (friction, rolling, cohesion between particles), cold: the
    /// default is frictionless (src/particles/material.rs).
    pub(crate) material: Vec<ParticleMaterial>,
    /// Position (m) at the start of the current step, cold: where the step's non-finite
    /// fallback (src/recovery.rs) puts back a body that met NaN or infinity. Grown with
    /// the other arrays, so the step never allocates for it.
    pub(crate) step_start: Vec<Vec3>,
}

/// `x_a − x_b` (m) from the bases and the hot displacements of two particles.
#[inline(always)]
pub(crate) fn separation(base_a: Vec3A, base_b: Vec3A, hot_a: Vec4, hot_b: Vec4) -> Vec3 {
    ((base_a - base_b) + Vec3A::from_vec4(hot_a - hot_b)).into()
}

/// A position (m) from its base and hot displacement, rounded to `f32`.
#[inline(always)]
pub(crate) fn position_of(base: Vec3A, hot: Vec4) -> Vec3 {
    (base + Vec3A::from_vec4(hot)).into()
}

/// Whether a particle's position `x` (m) and velocity `v` (m/s) are a state the step
/// may leave: every position component within ±`MAX_COORDINATE` (the limit the API
/// accepts; a NaN fails the comparison) and the velocity finite. A step that carries a
/// particle past the limit (a particle flung or falling for hours) recovers its body
/// as from a non-finite value (`recovery`), so what the world holds between steps stays where every
/// product the kernels and readbacks form (distances, areas, volumes) is finite.
#[inline]
pub(crate) fn in_range(x: Vec3, v: Vec3) -> bool {
    x.abs()
        .cmple(Vec3::splat(crate::limits::MAX_COORDINATE))
        .all()
        & v.is_finite()
}

impl Particles {
    /// Number of particles.
    #[inline]
    pub fn len(&self) -> usize {
        self.hot.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.hot.is_empty()
    }

    /// Reserves room for `additional` particles in every array (all or nothing as far as
    /// contents go: on failure nothing has been added).
    pub(crate) fn reserve(&mut self, additional: usize) -> Result<()> {
        try_reserve(&mut self.hot, additional, "particle displacements")?;
        try_reserve(&mut self.base, additional, "particle positions")?;
        try_reserve(&mut self.velocity, additional, "particle velocities")?;
        try_reserve(&mut self.radius, additional, "particle radii")?;
        try_reserve(&mut self.filter, additional, "particle collision filters")?;
        try_reserve(
            &mut self.unyielding,
            additional,
            "particle unyielding factors",
        )?;
        try_reserve(&mut self.material, additional, "particle materials")?;
        try_reserve(&mut self.step_start, additional, "particle step starts")?;
        Ok(())
    }

    /// Appends one particle at rest. Room must have been reserved.
    #[inline]
    pub(crate) fn push(&mut self, position: Vec3, inverse_mass: f32) {
        self.hot.push(Vec3::ZERO.extend(inverse_mass));
        self.base.push(position.into());
        self.velocity.push(Vec3::ZERO);
        self.radius.push(0.0);
        self.filter.push(CollisionFilter::default());
        self.unyielding.push(0.0);
        self.material.push(ParticleMaterial::default());
        self.step_start.push(position);
    }

    /// The collision radius of particle `i` (m).
    #[inline]
    pub fn radius(&self, i: usize) -> f32 {
        self.radius[i]
    }

    /// The collision filter of particle `i`.
    #[inline]
    pub fn collision_filter(&self, i: usize) -> CollisionFilter {
        self.filter[i]
    }

    /// The unyielding factor of particle `i` (0..1).
    #[inline]
    pub fn unyielding(&self, i: usize) -> f32 {
        self.unyielding[i]
    }

    /// The granular material of particle `i`.
    #[inline]
    pub fn material(&self, i: usize) -> ParticleMaterial {
        self.material[i]
    }

    /// The position of particle `i` (m), rounded to `f32`.
    #[inline]
    pub fn position(&self, i: usize) -> Vec3 {
        position_of(self.base[i], self.hot[i])
    }

    /// Whether moving the particles `indices` by `shift` (m) keeps each within
    /// ±`MAX_COORDINATE` ([`in_range`]). An edit that moves particles and writes their
    /// start of step (a winch reeling in at once, a resumed body catching up) makes the
    /// move only when it does: the step's recovery puts a body back at that start, so a
    /// start past the range would stay (and the world's snapshot be refused).
    pub(crate) fn shift_stays_in_range(
        &self,
        indices: impl IntoIterator<Item = usize>,
        shift: Vec3,
    ) -> bool {
        indices
            .into_iter()
            .all(|i| in_range(self.position(i) + shift, Vec3::ZERO))
    }

    /// Moves particle `i` to `p` (m).
    #[inline]
    pub(crate) fn set_position(&mut self, i: usize, p: Vec3) {
        let w = self.hot[i].w;
        self.hot[i] = Vec3::ZERO.extend(w);
        self.base[i] = p.into();
    }

    /// The inverse mass of particle `i` (1/kg).
    #[inline]
    pub fn inverse_mass(&self, i: usize) -> f32 {
        self.hot[i].w
    }

    #[inline]
    pub(crate) fn set_inverse_mass(&mut self, i: usize, w: f32) {
        self.hot[i].w = w;
        if w == 0.0 {
            self.velocity[i] = Vec3::ZERO;
        }
    }

    /// The velocity of particle `i` (m/s).
    #[inline]
    pub fn velocity(&self, i: usize) -> Vec3 {
        self.velocity[i]
    }

    #[inline]
    pub(crate) fn set_velocity(&mut self, i: usize, v: Vec3) {
        // A pinned particle never moves: its velocity stays zero.
        self.velocity[i] = if self.hot[i].w == 0.0 { Vec3::ZERO } else { v };
    }

    /// Position (m) or velocity (m/s) of particle `i`.
    #[inline]
    pub fn get_vec3(&self, attribute: Vec3Attribute, i: usize) -> Vec3 {
        match attribute {
            Vec3Attribute::Position => self.position(i),
            Vec3Attribute::Velocity => self.velocity(i),
        }
    }

    #[inline]
    pub(crate) fn set_vec3(&mut self, attribute: Vec3Attribute, i: usize, v: Vec3) {
        match attribute {
            Vec3Attribute::Position => self.set_position(i, v),
            Vec3Attribute::Velocity => self.set_velocity(i, v),
        }
    }

    /// Bytes of storage per particle (all arrays).
    pub const BYTES_PER_PARTICLE: usize =
        Self::SOLVER_BYTES_PER_PARTICLE + Self::COLD_BYTES_PER_PARTICLE;

    /// Bytes per particle that the solver streams every substep: hot displacement and
    /// inverse mass, base position, velocity.
    pub const SOLVER_BYTES_PER_PARTICLE: usize =
        std::mem::size_of::<Vec4>() + std::mem::size_of::<Vec3A>() + std::mem::size_of::<Vec3>();

    /// Bytes per particle of cold data, read by the collision passes only: radius,
    /// unyielding factor, collision filter, granular material.
    pub const COLD_BYTES_PER_PARTICLE: usize = 2 * std::mem::size_of::<f32>()
        + std::mem::size_of::<CollisionFilter>()
        + std::mem::size_of::<ParticleMaterial>();
}

pub use crate::limits::MAX_ACCELERATION;

/// Fails with OUT_OF_RANGE when `count` more particles than the `n` there are would
/// exceed [`MAX_PARTICLES`].
pub(crate) fn check_room(n: usize, count: usize) -> Result<()> {
    if n as u64 + count as u64 > MAX_PARTICLES as u64 {
        return Err(Error::out_of_range(format!(
            "adding {count} particles to {n} would exceed the limit of {MAX_PARTICLES}"
        )));
    }
    Ok(())
}

pub(crate) fn check_vec3(what: &str, i: usize, p: Vec3) -> Result<()> {
    crate::limits::check_coordinates(&format!("{what} {i}"), p)
}

pub(crate) fn check_inverse_mass(i: usize, w: f32) -> Result<()> {
    crate::limits::check_inverse_mass(i, w)
}

/// Relative rest positions of an element's particles.
pub(crate) fn rel<const K: usize>(p: &Particles, e: &[u32; K]) -> [Vec3; K] {
    let x0 = p.position(e[0] as usize);
    std::array::from_fn(|k| p.position(e[k] as usize) - x0)
}

impl Particles {
    /// Snapshot: every array (the position as its base and hot parts, so the exact
    /// split survives).
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        w.put_block(&self.hot);
        w.put_raw(&self.base);
        w.put_block_raw(&self.velocity);
        w.put_block_raw(&self.radius);
        w.put_len(self.filter.len());
        w.put_iter(
            self.filter.len(),
            self.filter
                .iter()
                .map(|f| (f.group, f.layers, f.mask, f.self_collision)),
        );
        w.put_block_raw(&self.unyielding);
        w.put_len(self.material.len());
        w.put_iter(
            self.material.len(),
            self.material.iter().map(|m| {
                (
                    m.static_friction,
                    m.dynamic_friction,
                    m.rolling_friction,
                    m.cohesion,
                )
            }),
        );
        w.put_block_raw(&self.step_start);
    }

    /// Snapshot: the particles [`Self::save`] wrote; every value finite.
    pub(crate) fn load(r: &mut Reader<'_>) -> Result<Particles> {
        let hot: Vec<Vec4> = r.get_block()?;
        let n = hot.len();
        codec::ensure(n <= MAX_PARTICLES as usize, || format!("{n} particles"))?;
        let mut p = Particles {
            hot,
            base: r.get_raw(n)?,
            velocity: r.get_block_raw(n)?,
            radius: r.get_block_raw(n)?,
            ..Default::default()
        };
        codec::ensure(r.get_len(n, "collision filters")? == n, || {
            "the collision filters do not match the particles".into()
        })?;
        p.filter = crate::error::try_with_capacity(n, "particle collision filters")?;
        for _ in 0..n {
            let (group, layers, mask, self_collision) = r.get::<(u32, u32, u32, bool)>()?;
            p.filter.push(CollisionFilter {
                group,
                layers,
                mask,
                self_collision,
            });
        }
        p.unyielding = r.get_block_raw(n)?;
        codec::ensure(r.get_len(n, "particle materials")? == n, || {
            "the particle materials do not match the particles".into()
        })?;
        p.material = crate::error::try_with_capacity(n, "particle materials")?;
        for k in 0..n {
            let (static_friction, dynamic_friction, rolling_friction, cohesion) =
                r.get::<(f32, f32, f32, f32)>()?;
            let m = ParticleMaterial {
                static_friction,
                dynamic_friction,
                rolling_friction,
                cohesion,
            };
            codec::ensure(m.validate().is_ok(), || {
                format!("particle {k} has the material {m:?}")
            })?;
            p.material.push(m);
        }
        p.step_start = r.get_block_raw(n)?;
        codec::check_finite(p.hot.iter().flat_map(|h| h.to_array()), "particle offset")?;
        codec::check_finite(
            p.base.iter().flat_map(|b| b.to_array()),
            "particle position",
        )?;
        codec::check_finite(p.velocity.iter().flat_map(|v| v.to_array()), "velocity")?;
        codec::check_finite(p.step_start.iter().flat_map(|v| v.to_array()), "step start")?;
        // Positions within the coordinate limit, as the API takes them and every step
        // leaves them ([`in_range`]); the start-of-step positions too (a
        // recovery puts a body back there).
        for k in 0..n {
            let (x, s) = (position_of(p.base[k], p.hot[k]), p.step_start[k]);
            codec::ensure(in_range(x, Vec3::ZERO) && in_range(s, Vec3::ZERO), || {
                format!("particle {k} is at {x} (step start {s}), past ±{MAX_COORDINATE} m")
            })?;
        }
        // Inverse masses as the API accepts them: 0 (pinned) or at least
        // MIN_INVERSE_MASS (every builder and edit stays there; splits of a torn cloth
        // double a particle's inverse mass, so the upper end is not checked).
        for (k, h) in p.hot.iter().enumerate() {
            codec::ensure(h.w == 0.0 || h.w >= MIN_INVERSE_MASS, || {
                format!(
                    "inverse mass {k} is {}: 0 (pinned) or at least {MIN_INVERSE_MASS} 1/kg",
                    h.w
                )
            })?;
        }
        for (k, (&r, &u)) in p.radius.iter().zip(&p.unyielding).enumerate() {
            codec::ensure(
                r.is_finite() && r >= 0.0 && (0.0..=1.0).contains(&u),
                || format!("particle {k} has radius {r} and unyielding factor {u}"),
            )?;
        }
        Ok(p)
    }
}
