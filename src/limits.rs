//! The accepted ranges of every quantity the API takes, in one table, derived from what
//! single-precision (`f32`) maths can hold, and the checks that enforce them. The
//! validation points of the crate call these checks (or compare with these constants);
//! each limit is declared once, in [`LIMITS`], and the C header, the C# layer and the
//! engines' clamps use constants rendered from it (`SINEW_MAX_*`, `SINEW_MIN_*`;
//! src/limits/schema.rs says how).
//!
//! `f32` holds magnitudes up to `f32::MAX` ≈ 3.4e38 and keeps 24 bits of mantissa.
//! The budget below is the worst product any kernel forms from accepted values; each
//! bound leaves a margin of at least 1e9 below overflow so that one substep of an
//! extreme but accepted scene stays finite.
//!
//! | quantity | constant | range | unit |
//! |---|---|---|---|
//! | position, velocity component | [`MAX_COORDINATE`] | ±1e9 | m, m/s |
//! | length: rest length, tether length, radius, collider size, pick radius | [`MAX_LENGTH`] | [0, 1e9] | m |
//! | minimum area (unilateral area) | [`MAX_AREA`] | [0, 1e18] | m² |
//! | rest or minimum volume (tets) | [`MAX_VOLUME`] | (0, 1e27] | m³ |
//! | compliance (any family's unit) | [`MAX_COMPLIANCE`] | [0, 1e10] | m/N, 1/(N·m), … |
//! | inverse mass | [`MIN_INVERSE_MASS`], [`MAX_INVERSE_MASS`] | 0 or [1e-12, 1e12] | 1/kg |
//! | strided buffer stride | [`MIN_STRIDE_BYTES`]..=[`MAX_STRIDE_BYTES`] | 12..=1 MiB | bytes |
//! | counts | [`MAX_PARTICLES`], [`MAX_DISTANCE_CONSTRAINTS`], [`MAX_FAMILY_CONSTRAINTS`] | 2^28, 2^28, 2^26 | — |
//!
//! Derivations (the worst case of each kernel):
//! * **Positions.** Two accepted particles are at most `2√3·1e9 ≈ 3.5e9` m apart; the
//!   squared distance `≤ 1.2e19`, a cross product of two edges (twice a triangle's area)
//!   `≤ 1.2e19`, a triple product (six times a tet's volume) `≤ 4.2e28`: all at least
//!   1e10 below `f32::MAX`. At 1e9 m the spacing of `f32` is 64 m, so scenes that need
//!   centimetres stay within ~1e5 m of the origin; the bound is about overflow, not
//!   precision.
//! * **Lengths.** A constraint error `C = |x_a − x_b| − L` is at most `3.5e9 + 1e9` m;
//!   the correction it asks for moves a particle by at most that much in a substep, so
//!   positions stay below ~1e10 m after a substep and squared distances below 1e20.
//!   A rest length of 3e38 (the value the fuzzer found) makes the correction itself
//!   overflow: rejected. The same bound covers what a length feeds into: a collider's
//!   half-extents and radii (its support distances), a particle radius (the contact
//!   reach `r_i + r_j`, and the hash-grid cell, which is `≤ 4·MAX_LENGTH`).
//! * **Areas and volumes.** `MAX_LENGTH²` and `MAX_LENGTH³`: the face and the volume
//!   of a cube of the largest side. A minimum area of 3e38 m² would ask one substep
//!   for a correction that overflows, like a rest length of 3e38 m.
//! * **Compliances.** XPBD divides by `α̃ = α / h²`; the smallest substep is
//!   `MIN_DT / MAX_SUBSTEPS ≈ 9.8e-10` s, so `α̃ ≤ 1e10 / 9.5e-19 ≈ 1.1e28`, 1e10
//!   below overflow (compliances enter the kernels unscaled). `α̃ λ` stays of the
//!   order of `|C|` (λ accumulates about `−C/α̃` per iteration).
//! * **Inverse masses.** The XPBD denominator `Σ w |∇C|² + α̃` with `|∇C| = 1` (lengths)
//!   is at most `2e12 + 1.1e28`; a particle's correction `w Δλ ∇C` is bounded by `|C|`
//!   whatever `w` is, so the bound only keeps the sum of weights finite and
//!   distinguishable from the compliance term (1e12 1/kg is a particle of 1 ng).
//!   The lower bound 1e-12 1/kg (1e12 kg, the heaviest body) keeps the mass `1/w`
//!   and the impulses and forces formed from it (`m Δx / h`, `m Δx / h²`) finite: an
//!   inverse mass of 1e-40 made `1/w` infinite. Mass ratios up to 1e24 stay physical
//!   (the heavier particle simply does not move); a particle meant to be immovable
//!   is pinned with 0.
//! * **Strides.** A strided read/write of `count` elements touches
//!   `(count − 1)·stride + 12` bytes; with at most 2^28 particles and 1 MiB strides that is
//!   below 2^48 bytes, so the span never wraps and never exceeds a real address space.
//!   1 MiB is far above any vertex layout (a few hundred bytes) while 4 GiB, the value
//!   the fuzzer found accepted, is rejected.

use crate::error::{Error, Result};
use crate::math::Vec3;

pub mod schema;

/// Largest number of particles one world holds.
pub const MAX_PARTICLES: u32 = 1 << 28;
/// Largest number of distance constraints one world holds.
pub const MAX_DISTANCE_CONSTRAINTS: u32 = 1 << 28;
/// Largest number of constraints of one family in one world.
pub const MAX_FAMILY_CONSTRAINTS: u32 = 1 << 26;

/// One accepted limit: its name (the C header exports it as `SINEW_` + name), its Rust
/// type, its value and its doc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    pub name: &'static str,
    pub ty: &'static str,
    pub value: f64,
    pub doc: &'static str,
}

/// Declares each limit once: the `pub const` and its row of [`LIMITS`].
macro_rules! limits {
    ($($(#[doc = $doc:literal])* $name:ident : $ty:ty = $value:expr;)*) => {
        $($(#[doc = $doc])* pub const $name: $ty = $value;)*
        /// Every limit declared here, in declaration order: rendered into the C header
        /// (`SINEW_MAX_*`, `SINEW_MIN_*`), the C# `Limits` class and the engines' clamps.
        pub const LIMITS: &[Limit] = &[$(Limit {
            name: stringify!($name),
            ty: stringify!($ty),
            value: $name as f64,
            doc: concat!($($doc, "\n",)*),
        }),*];
    };
}

limits! {
    /// Largest position component (m) and velocity component (m/s) accepted. A step
    /// keeps positions within it too: a step that carries a particle past it (flung,
    /// or falling for hours) treats that like a non-finite value (SINEW_ERROR_NON_FINITE:
    /// the particle's body, or the lone particle, goes back to where it was before the
    /// step, at rest), so the volumes and areas read from positions never overflow.
    MAX_COORDINATE: f32 = 1.0e9;
    /// Largest length (m): distance rest lengths, tether max lengths, particle and rope
    /// radii, collider half-extents, radii and half-heights, pick radii.
    MAX_LENGTH: f32 = 1.0e9;
    /// Largest minimum area (m²) of a unilateral area constraint: MAX_LENGTH².
    MAX_AREA: f32 = 1.0e18;
    /// Largest rest or minimum volume (m³) of a tet: MAX_LENGTH³.
    MAX_VOLUME: f32 = 1.0e27;
    /// Largest compliance, in the unit of the constraint it applies to (m/N for lengths,
    /// 1/(N·m) for strain and bending, …). 0 = rigid.
    MAX_COMPLIANCE: f32 = 1.0e10;
    /// Largest inverse mass (1/kg); 0 = pinned.
    MAX_INVERSE_MASS: f32 = 1.0e12;

    // Mass ratios (issue 28): the lower end of the inverse masses.
    /// Smallest inverse mass (1/kg) of a particle that is not pinned (0): a particle of
    /// 1e12 kg, the largest total mass of a body. Below it the mass 1/w overflows or
    /// its impulses do; a heavier particle is pinned (0) instead.
    MIN_INVERSE_MASS: f32 = 1.0e-12;

    /// Smallest stride of a strided `SinewVec3` buffer (bytes): one packed element.
    MIN_STRIDE_BYTES: u32 = 12;
    /// Largest stride of a strided buffer (bytes): 1 MiB.
    MAX_STRIDE_BYTES: u32 = 1 << 20;
    /// Largest gravity component (m/s²) and damping (1/s) accepted.
    MAX_ACCELERATION: f32 = 1.0e6;
    /// Largest number of substeps per step.
    MAX_SUBSTEPS: u32 = 1024;
    /// Largest number of solver iterations per substep.
    MAX_ITERATIONS: u32 = 1024;
    /// Largest worker-thread count a world may ask for.
    MAX_THREADS: u32 = 256;
    /// Smallest frame time (s) of a step.
    MIN_DT: f32 = 1.0e-6;
    /// Largest frame time (s) of a step.
    MAX_DT: f32 = 10.0;
    /// Largest wind speed, zone strength and turbulence amplitude (m/s): far above any
    /// weather, and small enough that every force sum stays finite.
    MAX_WIND_SPEED: f32 = 1.0e4;
    /// Largest air density (kg/m³): ten times water, so liquids can be modelled too.
    MAX_AIR_DENSITY: f32 = 1.0e4;
    /// Largest drag or lift coefficient (dimensionless; a flat plate has C_d ≈ 1.2).
    MAX_AERO_COEFFICIENT: f32 = 10.0;
    /// Largest turbulence frequency (Hz).
    MAX_TURBULENCE_FREQUENCY: f32 = 1.0e3;
    /// Smallest turbulence length scale (m).
    MIN_TURBULENCE_SCALE: f32 = 1.0e-3;
    /// Largest number of wind zones one world holds (ids are never reused).
    MAX_WIND_ZONES: u32 = 1 << 16;
    /// Largest particle capacity of one fluid.
    MAX_FLUID_CAPACITY: u32 = 4_194_304;
    /// Largest number of blocks (8 × 8 × 8 cells each, about 4.5 KiB) of one fluid
    /// surface mesh: past it the build is refused (a larger cell size covers the same
    /// fluid with fewer).
    MAX_SURFACE_BLOCKS: u32 = 1 << 16;
    /// Largest number of grains one grain emitter reserves (its budget).
    MAX_GRAIN_BUDGET: u32 = 4_194_304;
    /// Smallest particle spacing of a fluid (m).
    MIN_FLUID_SPACING: f32 = 1.0e-3;
    /// Largest particle spacing of a fluid (m).
    MAX_FLUID_SPACING: f32 = 10.0;
    /// Largest rest density of a fluid (kg/m³; kg/m² in a planar world).
    MAX_REST_DENSITY: f32 = 1.0e5;
    /// Largest smoothing radius of a fluid, as a multiple of its spacing.
    MAX_SMOOTHING_RATIO: f32 = 4.0;
    /// Upper end of the Jacobi relaxation factor ω, excluded (dimensionless): at 2 the
    /// averaged correction over-shoots as far as it corrects and stops converging.
    MAX_JACOBI_RELAXATION: f32 = 2.0;
    /// Largest constraint relaxation ε of a fluid (m⁻²).
    MAX_FLUID_RELAXATION: f32 = 1.0e12;
    /// Largest emission rate of one emitter (particles/s).
    MAX_EMIT_RATE: f32 = 1.0e7;
    /// Largest emitter speed (m/s).
    MAX_EMIT_SPEED: f32 = 1.0e3;
    /// Largest ratio of an ellipsoid's longest to shortest axis in the fluid's drawing
    /// data (k_r, dimensionless).
    MAX_ELLIPSOID_RATIO: f32 = 100.0;
    /// Largest scale of the fluid's drawn ellipsoids (k_s and k_n, dimensionless).
    MAX_ELLIPSOID_SCALE: f32 = 10.0;
    /// Largest spawn rate of diffuse particles per fluid particle (1/s).
    MAX_DIFFUSE_RATE: f32 = 1.0e5;
    /// Largest kinetic-energy threshold of diffuse particles (J/kg).
    MAX_DIFFUSE_ENERGY: f32 = 1.0e6;
    /// Largest lifetime of a fluid particle (s); 0 means forever.
    MAX_FLUID_LIFETIME: f32 = 1.0e6;
    /// Largest dimensionless fluid coefficient (artificial pressure k, vorticity, cohesion,
    /// adhesion; the viscosity stays in [0, 1]).
    MAX_FLUID_COEFFICIENT: f32 = 1.0e3;
    /// Largest density solve rate of a fluid (Hz; the solves per iteration stop at 16
    /// whatever the rate).
    MAX_FLUID_SOLVE_RATE: f32 = 1.0e6;

    // Bodies (ropes, cloths, soft bodies), their edits and their topology.
    /// Largest number of particles one body builder makes (a rope has at most this many
    /// minus one segments).
    MAX_BODY_PARTICLES: u32 = 1 << 24;
    /// Largest compliance of a body's constraints, in the unit of each (m/N for links,
    /// 1/(N·m) for strain and bending, m⁵/N for a pressure volume): MAX_COMPLIANCE.
    MAX_BODY_COMPLIANCE: f32 = MAX_COMPLIANCE;
    /// Largest total mass of a body (kg).
    MAX_BODY_MASS: f32 = 1.0e12;
    /// Largest entry (kg·m²) of a dynamic collider's inertia tensor (a host body of
    /// [`MAX_BODY_MASS`] about 30 m across).
    MAX_BODY_INERTIA: f32 = 1.0e15;
    /// Largest number of cells along each side of a cloth grid.
    MAX_GRID_SEGMENTS: u32 = 4096;
    /// Largest overpressure factor of a pressure body (dimensionless: the body keeps
    /// pressure × its rest volume).
    MAX_PRESSURE: f32 = 100.0;
    /// Largest rest scale of a body's links (dimensionless; 1 = as built).
    MAX_REST_SCALE: f32 = 1000.0;
    /// Largest number of triangles in one pressure constraint's surface.
    MAX_SURFACE_TRIANGLES: usize = 1 << 24;
    /// Largest reserve of spare particles per tearing cloth.
    MAX_TEAR_RESERVE: u32 = 1 << 20;
    /// Largest resolution of the tetrahedraliser: grid cells across the longest side of
    /// the mesh's box (at most 5 · 128³ tets).
    MAX_TET_RESOLUTION: u32 = 128;
    /// Room of the break-event queue: events past it (before the host takes them) are
    /// counted as lost.
    MAX_BREAK_EVENTS: usize = 4096;
    /// Largest winch speed (m/s).
    MAX_WINCH_SPEED: f32 = 1000.0;
    /// Largest compliance accepted by the low-level constraint families (in each
    /// family's unit): MAX_COMPLIANCE.
    MAX_FAMILY_COMPLIANCE: f32 = MAX_COMPLIANCE;

    // Colliders, grabbing, meshes, the fixed-step driver and emitters (the scene descs).
    /// Largest friction coefficient of a collider (dimensionless, static and dynamic).
    MAX_FRICTION: f32 = 100.0;
    /// Largest tensile strength of a granular material (Pa; firm snow reaches 100 kPa).
    MAX_COHESION: f32 = 1.0e7;
    /// Largest grab compliance (m/N).
    MAX_GRAB_COMPLIANCE: f32 = 1.0e3;
    /// Largest number of triangles of one mesh collider.
    MAX_TRIANGLES: usize = 1 << 24;
    /// Largest number of samples (grid nodes) of one signed distance field collider:
    /// 64 MiB of distances.
    MAX_SDF_SAMPLES: usize = 1 << 24;
    /// Contacts one particle keeps per substep and reports per step (colliders).
    MAX_COLLIDER_CONTACTS: usize = 4;
    /// Room of the contact-event queue: events past it (before the host takes them)
    /// are counted as lost.
    MAX_CONTACT_EVENTS: usize = 16384;
    /// Largest `max_steps` of one fixed-step advance.
    MAX_STEPS_PER_ADVANCE: u32 = 1024;
    /// Largest frame time (s) of one fixed-step advance: an hour. Longer hitches are the
    /// caller's to clamp; whatever exceeds `max_steps` steps is dropped anyway.
    MAX_FRAME_DT: f32 = 3600.0;
    /// Largest sleep threshold (J/kg: ½|v|² of a particle at about 1,400 m/s).
    MAX_SLEEP_THRESHOLD: f32 = 1.0e6;
    /// Largest sleep time (s).
    MAX_SLEEP_TIME: f32 = 1.0e6;
    /// Largest nozzle radius of an emitter as a multiple of the fluid's spacing (a
    /// lattice of about π·256² ≈ 206,000 points).
    MAX_NOZZLE_SPACINGS: f32 = 256.0;
}

/// Checks a vector of coordinates (m or m/s): finite, components within
/// ±[`MAX_COORDINATE`]. `what` names it in the message.
pub fn check_coordinates(what: &str, v: Vec3) -> Result<()> {
    if !v.is_finite() || v.abs().max_element() > MAX_COORDINATE {
        return Err(Error::invalid(format!(
            "{what} is {v}: components must be finite and within ±{MAX_COORDINATE} m"
        )));
    }
    Ok(())
}

/// Whether a pose read from a snapshot (a collider's, an attachment host's) is one the
/// API could have set or a step could have made from such: finite, its position within
/// ±[`MAX_COORDINATE`] (twice that, for the rounding of an interpolation), its rotation
/// of about unit length (the loader does not renormalise it, so the loaded world keeps
/// its bits). A forged pose far past the range, finite as it is, made velocities of
/// infinity in the step after the load.
pub(crate) fn loadable_pose(position: Vec3, rotation: glam::Quat) -> bool {
    let len = rotation.length();
    position.is_finite()
        && position.abs().max_element() <= 2.0 * MAX_COORDINATE
        && rotation.is_finite()
        && (0.5..=2.0).contains(&len)
}

/// Checks a length (m): finite, in `[0, MAX_LENGTH]`, or `(0, MAX_LENGTH]` when
/// `positive`.
pub fn check_length(what: &str, v: f32, positive: bool) -> Result<()> {
    let low_ok = if positive { v > 0.0 } else { v >= 0.0 };
    if !(v.is_finite() && low_ok && v <= MAX_LENGTH) {
        let open = if positive { "(" } else { "[" };
        return Err(Error::invalid(format!(
            "{what} {v} must be finite and in {open}0, {MAX_LENGTH}] m"
        )));
    }
    Ok(())
}

/// Checks a rest volume (m³): finite, in `(0, MAX_VOLUME]`.
pub fn check_volume(what: &str, v: f32) -> Result<()> {
    check_measure(what, v, MAX_VOLUME, "m³", true)
}

/// Checks a minimum area (m², `positive` false) or a rest/minimum volume (m³): finite,
/// in `[0, max]` (`(0, max]` when `positive`), `max` being [`MAX_AREA`] or
/// [`MAX_VOLUME`]; `unit` is shown in the message.
pub fn check_measure(what: &str, v: f32, max: f32, unit: &str, positive: bool) -> Result<()> {
    let low_ok = if positive { v > 0.0 } else { v >= 0.0 };
    if !(v.is_finite() && low_ok && v <= max) {
        let open = if positive { "(" } else { "[" };
        return Err(Error::invalid(format!(
            "{what} {v} must be finite and in {open}0, {max}] {unit}"
        )));
    }
    Ok(())
}

/// Checks a compliance: finite, in `[0, max]` with `max ≤ MAX_COMPLIANCE`; `unit` is
/// shown in the message.
pub fn check_compliance(what: &str, compliance: f32, max: f32, unit: &str) -> Result<()> {
    debug_assert!(max <= MAX_COMPLIANCE);
    if !(compliance.is_finite() && (0.0..=max).contains(&compliance)) {
        return Err(Error::invalid(format!(
            "{what} compliance {compliance} must be finite and in [0, {max}] ({unit}; 0 = rigid)"
        )));
    }
    Ok(())
}

/// Checks inverse mass `i` (1/kg): 0 (pinned) or finite in
/// `[MIN_INVERSE_MASS, MAX_INVERSE_MASS]`.
pub fn check_inverse_mass(i: usize, w: f32) -> Result<()> {
    if !(w == 0.0 || (MIN_INVERSE_MASS..=MAX_INVERSE_MASS).contains(&w)) {
        return Err(Error::invalid(format!(
            "inverse mass {i} is {w}: must be 0 (pinned) or in [{MIN_INVERSE_MASS}, {MAX_INVERSE_MASS}] (1/kg: a particle of 1 ng to 1e12 kg)"
        )));
    }
    Ok(())
}

/// A force readback as every readback documents it, finite and >= 0: `force` (>= 0 or
/// NaN), or `f32::MAX` where it is +inf or NaN. A force is |λ|/h², and with accepted
/// values it can pass what `f32` holds: a particle of 1e12 kg (the smallest inverse
/// mass) corrected by a metre in the shortest substep (`MIN_DT / MAX_SUBSTEPS`, about
/// 1e-9 s) feels 1e12 / 1e-18 = 1e30 N, and by 1e9 m, 1e39 N; and a step whose
/// solve overflowed (recovered as non-finite: its particles go back, the multipliers
/// of its last substep stay) leaves λ infinite or NaN. Either reads as the largest
/// force there is, which breaks any breakable constraint, rather than as a value
/// outside the documented range.
#[inline]
pub(crate) fn saturate_force(force: f32) -> f32 {
    if force <= f32::MAX {
        force
    } else {
        f32::MAX
    }
}

/// Checks the stride (bytes) of a strided buffer of elements of `element` bytes.
pub fn check_stride(what: &str, stride_bytes: u32, element: u32) -> Result<()> {
    if stride_bytes < element || stride_bytes > MAX_STRIDE_BYTES {
        return Err(Error::invalid(format!(
            "{what}: stride_bytes {stride_bytes} must be in {element}..={MAX_STRIDE_BYTES} \
             (at least one element, at most 1 MiB)"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derivations above, checked in f32: the worst products stay finite.
    #[test]
    fn worst_products_of_accepted_values_are_finite() {
        let span = 2.0 * 3f32.sqrt() * MAX_COORDINATE;
        assert!((span * span * 3.0).is_finite());
        let d = 2.0 * MAX_COORDINATE;
        let (a, b, c) = (
            Vec3::new(d, d, -d),
            Vec3::new(-d, d, d),
            Vec3::new(d, -d, d),
        );
        assert!(a.cross(b).dot(c).abs().is_finite());
        let h = 1.0e-6f32 / 1024.0;
        let alpha_tilde = MAX_COMPLIANCE / (h * h);
        assert!((alpha_tilde + 2.0 * MAX_INVERSE_MASS).is_finite());
        assert!(alpha_tilde < 1.0e29);
        assert!(((span + MAX_LENGTH) * (span + MAX_LENGTH)).is_finite());
        assert!((MAX_VOLUME / (MAX_LENGTH * MAX_LENGTH * MAX_LENGTH) - 1.0).abs() < 1e-6);
        assert!(((1u64 << 28) - 1) * MAX_STRIDE_BYTES as u64 + 12 < 1 << 48);
    }

    /// Issue 28 item 11: every builder stays at or above MIN_INVERSE_MASS, which the
    /// snapshot loader enforces: the heaviest fluid particle (the largest rest density
    /// in the largest spacing's cube, 1e8 kg) and the heaviest particle of a rope or a
    /// cloth (the largest body mass on its two particles at least) are far lighter
    /// than 1/MIN_INVERSE_MASS; soft bodies lump at most the whole body's mass on a
    /// vertex, and every body's inverse masses are checked when it is committed.
    #[test]
    fn the_heaviest_built_particles_stay_within_min_inverse_mass() {
        const FLUID: f32 =
            MAX_REST_DENSITY * MAX_FLUID_SPACING * MAX_FLUID_SPACING * MAX_FLUID_SPACING;
        const {
            assert!(1.0 / FLUID >= MIN_INVERSE_MASS);
            assert!(2.0 / MAX_BODY_MASS >= MIN_INVERSE_MASS);
            assert!(1.0 / MAX_BODY_MASS >= MIN_INVERSE_MASS);
        }
    }

    #[test]
    fn checks_name_the_value_and_the_range() {
        let e = check_length("rest length", 3.0e38, false).unwrap_err();
        assert!(
            e.message.contains("3") && e.message.contains("1000000000"),
            "{e}"
        );
        assert!(check_length("radius", 0.0, true).is_err());
        assert!(check_length("radius", 0.0, false).is_ok());
        assert!(check_length("radius", MAX_LENGTH, true).is_ok());
        assert!(check_inverse_mass(0, 1.0e13).is_err());
        assert!(check_inverse_mass(0, MAX_INVERSE_MASS).is_ok());
        assert!(check_inverse_mass(0, 0.0).is_ok());
        assert!(check_inverse_mass(0, MIN_INVERSE_MASS).is_ok());
        for w in [1.0e-40, f32::MIN_POSITIVE, -0.0f32.next_down(), f32::NAN] {
            assert!(check_inverse_mass(0, w).is_err(), "{w}");
        }
        // The heaviest accepted particle's mass and its momentum at the largest
        // accepted speed are finite.
        assert!((MAX_COORDINATE / MIN_INVERSE_MASS).is_finite());
        assert!(check_stride("out", 1 << 21, 12).is_err());
        assert!(check_stride("out", 11, 12).is_err());
        assert!(check_stride("out", 12, 12).is_ok());
        assert!(check_volume("rest volume", 3.0e38).is_err());
        assert!(check_measure("minimum area", 3.0e38, MAX_AREA, "m²", false).is_err());
        assert!(check_measure("minimum area", 0.0, MAX_AREA, "m²", false).is_ok());
        assert_eq!(MAX_AREA, MAX_LENGTH * MAX_LENGTH);
        assert!(check_compliance("x", 1.0e11, MAX_COMPLIANCE, "m/N").is_err());
    }
}
