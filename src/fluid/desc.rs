//! What a game describes: a fluid ([`FluidDesc`]), an emitter ([`EmitterDesc`]) and a
//! kill volume ([`KillVolumeDesc`]), with their units, defaults and checks. Every check
//! runs before anything changes; its message names the field and the accepted range.

use crate::error::{Error, Result};
use crate::limits::MAX_COORDINATE;
use crate::math::Vec3;
use glam::Quat;

/// Largest particle lifetime (s); 0 means forever: [`MAX_FLUID_LIFETIME`] under the name
/// it had before.
pub use crate::limits::MAX_FLUID_LIFETIME as MAX_LIFETIME;
pub use crate::limits::{
    MAX_EMIT_RATE, MAX_EMIT_SPEED, MAX_FLUID_CAPACITY, MAX_FLUID_COEFFICIENT, MAX_FLUID_LIFETIME,
    MAX_FLUID_RELAXATION, MAX_FLUID_SOLVE_RATE, MAX_FLUID_SPACING, MAX_REST_DENSITY,
    MAX_SMOOTHING_RATIO, MIN_FLUID_SPACING,
};

crate::settings! {
    /// A fluid: a set of world particles with a fluid phase (Position Based Fluids,
    /// Macklin & Müller 2013). The particles are reserved up front (`capacity`), so
    /// emission never allocates and never shifts the index of any other body.
    pub struct FluidDesc => SinewFluidDesc, FluidSettings, cookie 0x5E1E_0401,
        path "crate::fluid::FluidDesc", check FluidDesc::check_relations {
        /// Rest density ρ₀ (per unit thickness in a planar world, in kg/m²); water is
        /// 1000. Bodies lighter than this float.
        rest_density: f32 = 1000.0 => unit "kg/m³", min > 0.0, max <= MAX_REST_DENSITY;
        /// Particle spacing s: the rest distance between particles. Sets the particle
        /// mass ρ₀·s³ (ρ₀·s² in a planar world) and volume s³ (s²). Fixed once the fluid
        /// is added.
        spacing: f32 = 0.05 => unit "m", min >= MIN_FLUID_SPACING, max <= MAX_FLUID_SPACING;
        /// Smoothing radius h; a value other than 0 must also lie in [spacing,
        /// MAX_SMOOTHING_RATIO·spacing].
        smoothing_radius: f32 = 0.0 => unit "m", min >= 0.0,
            max <= MAX_SMOOTHING_RATIO * MAX_FLUID_SPACING, auto zero "2·spacing";
        /// Particles reserved up front: emission never allocates; a full fluid refuses
        /// emission or recycles its oldest particle. Fixed once the fluid is added.
        capacity: u32 = 4096 => unit "particles", min >= 1, max <= MAX_FLUID_CAPACITY;
        /// Constraint relaxation ε, the CFM term of the density constraint (whose
        /// gradient carries the particle volume, so ε has units of 1/m²); it softens the
        /// constraint. 0.04 / spacing² is 100 m⁻² at spacing 0.02 m.
        relaxation: f32 = 0.0 => unit "m⁻²", min >= 0.0, max <= MAX_FLUID_RELAXATION,
            auto zero "0.04 / spacing²";
        /// Artificial pressure s_corr = −k·(W(r)/W(Δq))ⁿ: k, dimensionless. Keeps
        /// particles from clumping at the surface.
        scorr_k: f32 = 0.1 => unit "", min >= 0.0, max <= MAX_FLUID_COEFFICIENT,
            ui "ArtificialPressure";
        /// Artificial pressure exponent n.
        scorr_n: u32 = 4 => unit "", min >= 1, max <= 8, ui "ArtificialPressureExponent";
        /// Artificial pressure Δq, as a fraction of the smoothing radius h.
        scorr_dq: f32 = 0.2 => unit "", min >= 0.0, max <= 0.9,
            ui "ArtificialPressureDistance";
        /// XSPH viscosity c, dimensionless, applied once per substep (0.01 water; larger
        /// is thicker, like honey).
        viscosity: f32 = 0.01 => unit "", min >= 0.0, max <= 1.0;
        /// Vorticity confinement ε_vort, dimensionless (scaled by the particle volume and
        /// h internally; 0 = off): puts back the swirl that damping removes.
        vorticity: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_FLUID_COEFFICIENT;
        /// Cohesion / surface tension γ (Akinci et al. 2013), dimensionless (0 = off):
        /// 1 lets a neighbour at the kernel's peak accelerate a particle at
        /// spacing × 3600 s⁻² (a spacing per 60 Hz frame per frame), for any substep
        /// count.
        cohesion: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_FLUID_COEFFICIENT;
        /// Adhesion β to solid particles (Akinci et al. 2013), dimensionless (0 = off):
        /// scaled as cohesion, weighted by the solid's volume over the particle's; water
        /// that wets the bodies it touches.
        adhesion: f32 = 0.0 => unit "", min >= 0.0, max <= MAX_FLUID_COEFFICIENT;
        /// Radius with which the fluid's particles meet colliders; a value of 0 or more
        /// must also be at most the spacing. 0 projects the particle centres onto
        /// collider surfaces.
        collision_radius: f32 = -1.0 => unit "m", min >= 0.0, max <= MAX_FLUID_SPACING,
            auto negative "spacing / 2";
        /// Lifetime of an emitted particle (0 = forever).
        lifetime: f32 = 0.0 => unit "s", min >= 0.0, max <= MAX_FLUID_LIFETIME;
        /// When an emitter needs a slot and the fluid is full: true removes the oldest
        /// particle, false skips the emission (counted in the stats' `refused`).
        recycle_oldest: bool = false => unit "";
        /// The solid particles (with a radius) whose collision layers meet this mask take
        /// part in the fluid's density (two-way coupling: buoyancy and drag); all bits
        /// set = every layer.
        coupling_mask: u32 = u32::MAX => unit "";
        /// The density solves per second of simulated time, at least: a substep of h
        /// seconds runs ⌈rate·h / iterations⌉ Jacobi solves per iteration (at most
        /// 16), so long substeps keep the stiffness of short ones (one solve carries
        /// the floor's push only about two rows up the water; a pool 12 rows deep at
        /// 1 substep of 1/60 s and one solve boiled over). 480 is one solve per
        /// substep at the world's default of 8 substeps of 1/60 s. 0: one solve per
        /// iteration, whatever the substep (Macklin & Müller's scheme as published).
        /// With several fluids the largest rate counts.
        solve_rate: f32 = 480.0 => unit "Hz", min >= 0.0, max <= MAX_FLUID_SOLVE_RATE;
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

    /// The relaxation ε (m⁻²): `relaxation`, or 0.04 / spacing² when it is 0.
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

    /// The ranges relative to the spacing (after the field checks): a smoothing radius
    /// in [spacing, MAX_SMOOTHING_RATIO·spacing], a collision radius up to the spacing.
    fn check_relations(&self) -> Result<()> {
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
        if self.collision_radius >= 0.0 {
            check_in(
                "collision_radius (negative = spacing/2)",
                self.collision_radius,
                0.0,
                s,
                " m (0 to spacing)",
            )?;
        }
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

crate::setting_union!(EmitterShape {
    Nozzle { radius: 0.0 } = 0,
    Box { half_extents: Vec3::ZERO } = 1,
});

crate::settings! {
    /// An emitter of a fluid: where, how fast, how many per second.
    pub struct EmitterDesc => SinewEmitterDesc, EmitterSettings, cookie 0x5E1E_0402,
        path "crate::fluid::EmitterDesc", check EmitterDesc::check_rotation {
        /// Where the particles appear (a SinewEmitterShape in C): a round nozzle (a hose,
        /// a tap) or a box (rain, a spring). Its size is in the fields its variant reads.
        shape: EmitterShape = EmitterShape::Nozzle { radius: 0.1 } =>
            union "SinewEmitterShape", unit "";
        /// The radius of the disc the particles leave, centred on the emitter and facing
        /// its local +z axis, on a lattice of the fluid's spacing (at most
        /// MAX_NOZZLE_SPACINGS spacings).
        radius: f32 = 0.1 => of shape: EmitterShape [Nozzle], unit "m", min >= 0.0,
            max <= MAX_COORDINATE, ui "NozzleRadius";
        /// The box's half extents, in the emitter's frame: particles appear at
        /// deterministic pseudo-random points inside.
        half_extents: Vec3 = Vec3::splat(0.1) => of shape: EmitterShape [Box], unit "m",
            min >= 0.0, max <= MAX_COORDINATE, ui "BoxHalfExtents";
        /// Centre, in the world.
        position: Vec3 = Vec3::ZERO => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// Orientation (a quaternion of length in [0.5, 2], normalised on input); a nozzle
        /// faces the local +z.
        rotation: Quat = Quat::IDENTITY => unit "";
        /// Speed along the emitter's local +z given to each new particle.
        speed: f32 = 2.0 => unit "m/s", min >= 0.0, max <= MAX_EMIT_SPEED;
        /// Particles per second; 0 pauses the emitter. A nozzle passes at most speed × its
        /// lattice points / spacing per second (520/s for the default 10 cm nozzle at
        /// 2 m/s and 5 cm spacing); a higher rate is capped there.
        rate: f32 = 500.0 => unit "particles/s", min >= 0.0, max <= MAX_EMIT_RATE;
    }
}

impl EmitterDesc {
    /// Checks every field and returns the desc with its rotation normalised.
    pub fn validated(&self) -> Result<EmitterDesc> {
        self.validate()?;
        let rotation = normalised_rotation("emitter rotation", self.rotation)?;
        Ok(EmitterDesc { rotation, ..*self })
    }

    /// The rotation's check (after the field checks).
    fn check_rotation(&self) -> Result<()> {
        normalised_rotation("emitter rotation", self.rotation).map(|_| ())
    }
}

/// The shape of a kill volume and its size: the [`KillVolumeDesc::shape`] union (a
/// SinewKillVolumeShape in C).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KillVolumeShape {
    /// An oriented box about the centre: its orientation and half extents (m).
    Box { rotation: Quat, half_extents: Vec3 },
    /// A ball about the centre: its radius (m).
    Sphere { radius: f32 },
    /// Everything below the plane through the centre with unit `normal` (the side the
    /// normal points away from).
    HalfSpace { normal: Vec3 },
}

crate::setting_union!(KillVolumeShape {
    Box { rotation: Quat::IDENTITY, half_extents: Vec3::ZERO } = 0,
    Sphere { radius: 0.0 } = 1,
    HalfSpace { normal: Vec3::Y } = 2,
});

crate::settings! {
    /// A volume whose fluid particles are removed at the end of each step (a drain, the
    /// bottom of a level).
    pub struct KillVolumeDesc => SinewKillVolumeDesc, KillVolumeSettings, cookie 0x5E1E_0403,
        path "crate::fluid::KillVolumeDesc", check KillVolumeDesc::check_orientation {
        /// The volume (a SinewKillVolumeShape in C): an oriented box, a ball, or the
        /// half-space below a plane. Its size is in the fields its variant reads.
        shape: KillVolumeShape = KillVolumeShape::Box {
            rotation: Quat::IDENTITY,
            half_extents: Vec3::ONE,
        } => union "SinewKillVolumeShape", unit "";
        /// The box's or ball's centre, or a point of the half-space's plane, in the world.
        center: Vec3 = Vec3::ZERO => unit "m", min >= -MAX_COORDINATE, max <= MAX_COORDINATE;
        /// The box's orientation (a quaternion of length in [0.5, 2], normalised on input).
        rotation: Quat = Quat::IDENTITY => of shape: KillVolumeShape [Box], unit "";
        /// The box's half extents, along its rotated axes.
        half_extents: Vec3 = Vec3::ONE => of shape: KillVolumeShape [Box], unit "m",
            min >= 0.0, max <= MAX_COORDINATE;
        /// The ball's radius.
        radius: f32 = 1.0 => of shape: KillVolumeShape [Sphere], unit "m", min >= 0.0,
            max <= MAX_COORDINATE;
        /// The half-space's plane normal (length in [0.5, 2], normalised on input): the
        /// particles on the side it points away from are removed.
        normal: Vec3 = Vec3::Y => of shape: KillVolumeShape [HalfSpace], unit "";
    }
}

impl KillVolumeDesc {
    /// An oriented box: centre (m), orientation, half extents (m).
    pub fn oriented_box(center: Vec3, rotation: Quat, half_extents: Vec3) -> KillVolumeDesc {
        KillVolumeDesc {
            shape: KillVolumeShape::Box {
                rotation,
                half_extents,
            },
            center,
        }
    }

    /// A ball: centre and radius (m).
    pub fn sphere(center: Vec3, radius: f32) -> KillVolumeDesc {
        KillVolumeDesc {
            shape: KillVolumeShape::Sphere { radius },
            center,
        }
    }

    /// Everything below the plane through `point` (m) with `normal` (the side the normal
    /// points away from).
    pub fn half_space(point: Vec3, normal: Vec3) -> KillVolumeDesc {
        KillVolumeDesc {
            shape: KillVolumeShape::HalfSpace { normal },
            center: point,
        }
    }

    /// Checks every field and returns the desc normalised (a box's rotation, a
    /// half-space's normal).
    pub fn validated(&self) -> Result<KillVolumeDesc> {
        self.validate()?;
        let shape = match self.shape {
            KillVolumeShape::Box {
                rotation,
                half_extents,
            } => KillVolumeShape::Box {
                rotation: normalised_rotation("kill box rotation", rotation)?,
                half_extents,
            },
            KillVolumeShape::HalfSpace { normal } => KillVolumeShape::HalfSpace {
                normal: normalised_normal(normal)?,
            },
            s @ KillVolumeShape::Sphere { .. } => s,
        };
        Ok(KillVolumeDesc { shape, ..*self })
    }

    /// The orientation's check (after the field checks): a box's rotation and a
    /// half-space's normal of length in [0.5, 2].
    fn check_orientation(&self) -> Result<()> {
        match self.shape {
            KillVolumeShape::Box { rotation, .. } => {
                normalised_rotation("kill box rotation", rotation).map(|_| ())
            }
            KillVolumeShape::HalfSpace { normal } => normalised_normal(normal).map(|_| ()),
            KillVolumeShape::Sphere { .. } => Ok(()),
        }
    }

    /// Whether `p` (m) lies inside the volume.
    pub fn contains(&self, p: Vec3) -> bool {
        let c = self.center;
        match self.shape {
            KillVolumeShape::Box {
                rotation,
                half_extents,
            } => {
                let l = rotation.inverse() * (p - c);
                l.abs().cmple(half_extents).all()
            }
            KillVolumeShape::Sphere { radius } => (p - c).length_squared() <= radius * radius,
            KillVolumeShape::HalfSpace { normal } => (p - c).dot(normal) < 0.0,
        }
    }
}

/// A half-space's normal divided by its length, which must lie in [0.5, 2].
fn normalised_normal(normal: Vec3) -> Result<Vec3> {
    let l = normal.length();
    if !(l.is_finite() && (0.5..=2.0).contains(&l)) {
        return Err(Error::invalid(format!(
            "kill half-space normal {normal} must be finite with length in [0.5, 2]"
        )));
    }
    Ok(normal / l)
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
