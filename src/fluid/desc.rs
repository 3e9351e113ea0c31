//! What a game describes: a fluid ([`FluidDesc`]), an emitter ([`EmitterDesc`]) and a
//! kill volume ([`KillVolumeDesc`]), with their units, defaults and checks. Every check
//! runs before anything changes; its message names the field and the accepted range.

use crate::error::{Error, Result};
use crate::math::Vec3;
use glam::Quat;

/// Largest particle capacity of one fluid.
pub const MAX_FLUID_CAPACITY: u32 = 4_194_304;
/// Smallest particle spacing of a fluid (m).
pub const MIN_FLUID_SPACING: f32 = 1.0e-3;
/// Largest particle spacing of a fluid (m).
pub const MAX_FLUID_SPACING: f32 = 10.0;
/// Largest rest density of a fluid (kg/m³; kg/m² in a planar world).
pub const MAX_REST_DENSITY: f32 = 1.0e5;
/// Largest smoothing radius, as a multiple of the spacing.
pub const MAX_SMOOTHING_RATIO: f32 = 4.0;
/// Largest emission rate of one emitter (particles/s).
pub const MAX_EMIT_RATE: f32 = 1.0e7;
/// Largest emitter speed (m/s).
pub const MAX_EMIT_SPEED: f32 = 1.0e3;
/// Largest particle lifetime (s); 0 means forever.
pub const MAX_LIFETIME: f32 = 1.0e6;
/// Largest coefficient of the dimensionless fluid settings (viscosity, cohesion,
/// adhesion, vorticity, artificial pressure k).
pub const MAX_FLUID_COEFFICIENT: f32 = 1.0e3;

/// A fluid: a set of world particles with a fluid phase (Position Based Fluids,
/// Macklin & Müller 2013). The particles are reserved up front (`capacity`), so
/// emission never allocates and never shifts the index of any other body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FluidDesc {
    /// Rest density ρ₀ in kg/m³ (kg/m² per unit thickness in a planar world), in
    /// (0, 1e5]; default 1000 (water).
    pub rest_density: f32,
    /// Particle spacing s in m, [1e-3, 10]; default 0.05. Sets the particle mass
    /// m = ρ₀·s³ (ρ₀·s² in a planar world) and volume s³ (s²).
    pub spacing: f32,
    /// Smoothing radius h in m, in [spacing, 4·spacing]; 0 (default) = 2·spacing.
    pub smoothing_radius: f32,
    /// Particles reserved for this fluid, 1..=4,194,304; default 4096.
    pub capacity: u32,
    /// Constraint relaxation ε in m⁻² (the CFM term of the density constraint, whose
    /// gradient carries the particle volume and so has units of 1/m); 0 (default) =
    /// 0.04 / s² (100 m⁻² at s = 0.02 m).
    pub relaxation: f32,
    /// Artificial pressure s_corr = −k·s²·(W(r)/W(Δq))ⁿ: k, dimensionless, default 0.1.
    pub scorr_k: f32,
    /// Artificial pressure exponent n, 1..=8, default 4.
    pub scorr_n: u32,
    /// Artificial pressure Δq as a fraction of h, in [0, 0.9], default 0.2.
    pub scorr_dq: f32,
    /// XSPH viscosity c, dimensionless, default 0.01 (once per substep).
    pub viscosity: f32,
    /// Vorticity confinement ε_vort, dimensionless (scaled by the particle volume and
    /// h internally), default 0 (off).
    pub vorticity: f32,
    /// Cohesion / surface tension γ (Akinci et al. 2013), dimensionless, default 0:
    /// 1 lets a neighbour at the kernel's peak accelerate a particle at
    /// spacing × 3600 s⁻² (a spacing per 60 Hz frame per frame), for any substeps.
    pub cohesion: f32,
    /// Adhesion β to solid particles (Akinci et al. 2013), dimensionless, default 0;
    /// scaled as `cohesion`, weighted by the solid's volume over the particle's.
    pub adhesion: f32,
    /// Radius (m) with which the fluid's particles meet colliders, in [0, spacing];
    /// a negative value (the default, −1) = 0.5·spacing. 0 projects the particle centres
    /// onto collider surfaces.
    pub collision_radius: f32,
    /// Lifetime of an emitted particle in s (0 = forever, the default), at most 1e6.
    pub lifetime: f32,
    /// When an emitter needs a slot and the fluid is full: true removes the oldest
    /// particle, false (default) skips the emission (counted in `refused`).
    pub recycle_oldest: bool,
    /// The solid particles (with a radius) whose collision layers meet this mask take
    /// part in the fluid's density (two-way coupling); default all (`u32::MAX`).
    pub coupling_mask: u32,
}

impl Default for FluidDesc {
    fn default() -> Self {
        FluidDesc {
            rest_density: 1000.0,
            spacing: 0.05,
            smoothing_radius: 0.0,
            capacity: 4096,
            relaxation: 0.0,
            scorr_k: 0.1,
            scorr_n: 4,
            scorr_dq: 0.2,
            viscosity: 0.01,
            vorticity: 0.0,
            cohesion: 0.0,
            adhesion: 0.0,
            collision_radius: -1.0,
            lifetime: 0.0,
            recycle_oldest: false,
            coupling_mask: u32::MAX,
        }
    }
}

fn check_in(name: &str, v: f32, lo: f32, hi: f32, unit: &str) -> Result<()> {
    if v.is_finite() && (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{name} {v} must be finite and in [{lo}, {hi}]{unit}"
        )))
    }
}

impl FluidDesc {
    /// The smoothing radius h (m): `smoothing_radius`, or 2·spacing when it is 0.
    pub fn h(&self) -> f32 {
        if self.smoothing_radius == 0.0 {
            2.0 * self.spacing
        } else {
            self.smoothing_radius
        }
    }

    /// The relaxation ε (m⁻²): `relaxation`, or 0.04 / s² when it is 0.
    pub fn epsilon(&self) -> f32 {
        if self.relaxation == 0.0 {
            0.04 / (self.spacing * self.spacing)
        } else {
            self.relaxation
        }
    }

    /// The collider radius (m): `collision_radius`, or spacing / 2 when it is negative
    /// (the default, which follows the spacing).
    pub fn collider_radius(&self) -> f32 {
        if self.collision_radius < 0.0 {
            0.5 * self.spacing
        } else {
            self.collision_radius
        }
    }

    /// Checks every field; the message names the field and its range.
    pub fn validate(&self) -> Result<()> {
        let d = self.rest_density;
        if !(d.is_finite() && d > 0.0 && d <= MAX_REST_DENSITY) {
            return Err(Error::invalid(format!(
                "rest_density {d} must be finite and in (0, {MAX_REST_DENSITY}] kg/m³"
            )));
        }
        check_in(
            "spacing",
            self.spacing,
            MIN_FLUID_SPACING,
            MAX_FLUID_SPACING,
            " m",
        )?;
        let s = self.spacing;
        if self.smoothing_radius != 0.0 {
            check_in(
                "smoothing_radius (0 = 2·spacing)",
                self.smoothing_radius,
                s,
                MAX_SMOOTHING_RATIO * s,
                " m (spacing to 4·spacing)",
            )?;
        }
        if !(1..=MAX_FLUID_CAPACITY).contains(&self.capacity) {
            return Err(Error::invalid(format!(
                "capacity {} must be in 1..={MAX_FLUID_CAPACITY} particles",
                self.capacity
            )));
        }
        let e = self.relaxation;
        if !(e.is_finite() && (0.0..=1.0e12).contains(&e)) {
            return Err(Error::invalid(format!(
                "relaxation {e} must be finite and in [0, 1e12] m⁻² (0 = 0.04/spacing²)"
            )));
        }
        check_in("scorr_k", self.scorr_k, 0.0, MAX_FLUID_COEFFICIENT, "")?;
        if !(1..=8).contains(&self.scorr_n) {
            return Err(Error::invalid(format!(
                "scorr_n {} must be in 1..=8",
                self.scorr_n
            )));
        }
        check_in("scorr_dq", self.scorr_dq, 0.0, 0.9, " (fraction of h)")?;
        check_in("viscosity", self.viscosity, 0.0, 1.0, "")?;
        check_in("vorticity", self.vorticity, 0.0, MAX_FLUID_COEFFICIENT, "")?;
        check_in("cohesion", self.cohesion, 0.0, MAX_FLUID_COEFFICIENT, "")?;
        check_in("adhesion", self.adhesion, 0.0, MAX_FLUID_COEFFICIENT, "")?;
        if !self.collision_radius.is_finite() || self.collision_radius >= 0.0 {
            check_in(
                "collision_radius (negative = spacing/2)",
                self.collision_radius,
                0.0,
                s,
                " m (0 to spacing)",
            )?;
        }
        check_in(
            "lifetime",
            self.lifetime,
            0.0,
            MAX_LIFETIME,
            " s (0 = forever)",
        )?;
        Ok(())
    }
}

/// Where an emitter makes its particles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EmitterShape {
    /// A round nozzle (a hose, a tap): particles leave a disc of `radius` (m) centred
    /// on the emitter, facing its local +z axis, on a lattice of the fluid's spacing.
    Nozzle { radius: f32 },
    /// A box (rain, a spring) of half extents (m) in the emitter's frame: particles
    /// appear at deterministic pseudo-random points inside it.
    Box { half_extents: Vec3 },
}

/// An emitter of a fluid: where, how fast, how many per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EmitterDesc {
    pub shape: EmitterShape,
    /// Centre (m, world).
    pub position: Vec3,
    /// Orientation (unit quaternion, normalised on input); a nozzle faces local +z.
    pub rotation: Quat,
    /// Speed (m/s) along the emitter's local +z given to each new particle, in
    /// [0, 1000]; default 2.
    pub speed: f32,
    /// Particles per second, in [0, 1e7]; 0 pauses the emitter. Default 500. A nozzle
    /// passes at most speed × its lattice points / spacing per second (520/s for the
    /// default 10 cm nozzle at 2 m/s and 5 cm spacing); a higher rate is capped there.
    pub rate: f32,
}

impl Default for EmitterDesc {
    fn default() -> Self {
        EmitterDesc {
            shape: EmitterShape::Nozzle { radius: 0.1 },
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            speed: 2.0,
            rate: 500.0,
        }
    }
}

impl EmitterDesc {
    /// Checks every field and returns the desc with its rotation normalised.
    pub fn validated(&self) -> Result<EmitterDesc> {
        match self.shape {
            EmitterShape::Nozzle { radius } => check_in(
                "nozzle radius",
                radius,
                0.0,
                crate::limits::MAX_COORDINATE,
                " m",
            )?,
            EmitterShape::Box { half_extents } => {
                if !half_extents.is_finite()
                    || half_extents.min_element() < 0.0
                    || half_extents.max_element() > crate::limits::MAX_COORDINATE
                {
                    return Err(Error::invalid(format!(
                        "box half extents {half_extents} must be finite and in [0, {}] m",
                        crate::limits::MAX_COORDINATE
                    )));
                }
            }
        }
        crate::limits::check_coordinates("emitter position", self.position)?;
        let rotation = normalised_rotation("emitter rotation", self.rotation)?;
        check_in("emitter speed", self.speed, 0.0, MAX_EMIT_SPEED, " m/s")?;
        check_in(
            "emitter rate",
            self.rate,
            0.0,
            MAX_EMIT_RATE,
            " particles/s",
        )?;
        Ok(EmitterDesc { rotation, ..*self })
    }
}

/// A volume whose fluid particles are removed at the end of each step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KillVolumeDesc {
    /// An oriented box: centre (m), orientation, half extents (m).
    Box {
        center: Vec3,
        rotation: Quat,
        half_extents: Vec3,
    },
    /// A ball: centre and radius (m).
    Sphere { center: Vec3, radius: f32 },
    /// Everything below the plane through `point` with unit `normal` (m; the side
    /// the normal points away from).
    HalfSpace { point: Vec3, normal: Vec3 },
}

impl KillVolumeDesc {
    /// Checks every field and returns the desc normalised (rotation, normal).
    pub fn validated(&self) -> Result<KillVolumeDesc> {
        let max = crate::limits::MAX_COORDINATE;
        Ok(match *self {
            KillVolumeDesc::Box {
                center,
                rotation,
                half_extents,
            } => {
                crate::limits::check_coordinates("kill box center", center)?;
                if !half_extents.is_finite()
                    || half_extents.min_element() < 0.0
                    || half_extents.max_element() > max
                {
                    return Err(Error::invalid(format!(
                        "kill box half extents {half_extents} must be finite and in [0, {max}] m"
                    )));
                }
                KillVolumeDesc::Box {
                    center,
                    rotation: normalised_rotation("kill box rotation", rotation)?,
                    half_extents,
                }
            }
            KillVolumeDesc::Sphere { center, radius } => {
                crate::limits::check_coordinates("kill sphere center", center)?;
                check_in("kill sphere radius", radius, 0.0, max, " m")?;
                KillVolumeDesc::Sphere { center, radius }
            }
            KillVolumeDesc::HalfSpace { point, normal } => {
                crate::limits::check_coordinates("kill half-space point", point)?;
                let l = normal.length();
                if !(l.is_finite() && (0.5..=2.0).contains(&l)) {
                    return Err(Error::invalid(format!(
                        "kill half-space normal {normal} must be finite with length in [0.5, 2]"
                    )));
                }
                KillVolumeDesc::HalfSpace {
                    point,
                    normal: normal / l,
                }
            }
        })
    }

    /// Whether `p` (m) lies inside the volume.
    pub fn contains(&self, p: Vec3) -> bool {
        match *self {
            KillVolumeDesc::Box {
                center,
                rotation,
                half_extents,
            } => {
                let l = rotation.inverse() * (p - center);
                l.abs().cmple(half_extents).all()
            }
            KillVolumeDesc::Sphere { center, radius } => {
                (p - center).length_squared() <= radius * radius
            }
            KillVolumeDesc::HalfSpace { point, normal } => (p - point).dot(normal) < 0.0,
        }
    }
}

fn normalised_rotation(what: &str, q: Quat) -> Result<Quat> {
    let l = q.length();
    if !(q.is_finite() && (0.5..=2.0).contains(&l)) {
        return Err(Error::invalid(format!(
            "{what} {q} must be a finite quaternion of length in [0.5, 2]"
        )));
    }
    Ok(q / l)
}
