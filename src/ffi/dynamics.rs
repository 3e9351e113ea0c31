//! Dynamic colliders and pins (src/collision/colliders/dynamics.rs): two-way coupling
//! with a host engine's rigid bodies.

use glam::Quat;

use super::collision::SinewCollider;
use super::world::{with_world, SinewQuat, SinewVec3, SinewWorld};
use super::{guard, non_null, slice_from, slice_from_mut, Failure, SinewStatus};
use crate::collision::colliders::{ColliderDynamics, ColliderMotion};
use crate::collision::ColliderId;
use crate::math::Vec3;

/// The host body behind a dynamic collider (sinew_collider_set_dynamics).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewColliderDynamics {
    /// Mass (kg), finite and in (0, 1e12].
    pub mass: f32,
    /// Principal moments of inertia about the centre of mass (kg·m², each finite and
    /// positive), along the axes of `inertia_rotation` (a rotation in the collider's
    /// frame; normalized, finite and non-zero): the tensor R diag(d) Rᵀ turns with the
    /// collider. Unity's Rigidbody.inertiaTensor and inertiaTensorRotation, as they are.
    pub inertia: SinewVec3,
    pub inertia_rotation: SinewQuat,
    /// Centre of mass (m) in the collider's frame.
    pub center_of_mass: SinewVec3,
    /// Velocity of the centre of mass (m/s, world) and angular velocity (rad/s,
    /// world), the body's now.
    pub velocity: SinewVec3,
    pub angular_velocity: SinewVec3,
    /// 1 = Sinew applies the world's gravity to the proxy within the step; 0 (the
    /// usual) = the host integrates gravity on its body.
    pub gravity: u32,
}

/// What a dynamic collider's proxy did over the last step
/// (sinew_collider_read_motion).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewColliderMotion {
    /// Velocity of the centre of mass (m/s) and angular velocity (rad/s) at the end of
    /// the step.
    pub velocity: SinewVec3,
    pub angular_velocity: SinewVec3,
    /// The change of velocity and angular velocity the particles, pins and fluids made
    /// over the step (gravity and the gyroscopic turn of ω left out: the host's
    /// integrator applies them): what a host adds to its body's velocities.
    pub velocity_change: SinewVec3,
    pub angular_velocity_change: SinewVec3,
}

impl SinewColliderDynamics {
    /// The Rust form, its principal moments and rotation checked.
    fn to_dynamics(self) -> Result<ColliderDynamics, Failure> {
        let bad = |m: String| Failure::new(SinewStatus::SINEW_ERROR_INVALID_ARGUMENT, m);
        let d: Vec3 = self.inertia.into();
        let max = crate::limits::MAX_BODY_INERTIA;
        if !(d.is_finite() && d.min_element() > 0.0 && d.max_element() <= max) {
            return Err(bad(format!(
                "inertia: principal moments must be finite and in (0, {max}] kg·m², got {d}"
            )));
        }
        let q: Quat = self.inertia_rotation.into();
        if !q.is_finite() || q.length_squared() < 1.0e-12 {
            return Err(bad(format!(
                "inertia_rotation must be finite and non-zero, got {q}"
            )));
        }
        crate::limits::schema::flag_from_c(self.gravity, "gravity")?;
        Ok(ColliderDynamics {
            mass: self.mass,
            inertia: ColliderDynamics::inertia_from_principal(d, q),
            center_of_mass: self.center_of_mass.into(),
            velocity: self.velocity.into(),
            angular_velocity: self.angular_velocity.into(),
            gravity: self.gravity != 0,
        })
    }
}

impl From<ColliderMotion> for SinewColliderMotion {
    fn from(m: ColliderMotion) -> Self {
        SinewColliderMotion {
            velocity: m.velocity.into(),
            angular_velocity: m.angular_velocity.into(),
            velocity_change: m.velocity_change.into(),
            angular_velocity_change: m.angular_velocity_change.into(),
        }
    }
}

/// Makes `collider` dynamic: the host body behind it. Call it every frame before the
/// step with the body's velocities (and its pose with sinew_collider_set_transform).
/// Within the step Sinew moves a proxy of the body with the impulses it exchanges with
/// the particles (contacts and friction, pins, fluid pressure), mass-weighted; after
/// it, sinew_collider_read_motion gives the proxy's velocity change and
/// sinew_collider_contact_wrench the force and torque (the proxy's momentum change over
/// the step), for the host to apply. A dynamic collider starts each step at its
/// transform and ends it at the proxy's pose. Its contacts bounce with its restitution
/// against the body's material velocity, solved for all of them at once (Newton's law
/// at each, momentum kept). `gravity` is 0 (the flag must be 0 or 1) when the host
/// integrates gravity on its body itself.
///
/// # Safety
/// `dynamics` must point to one readable SinewColliderDynamics.
#[no_mangle]
pub unsafe extern "C" fn sinew_collider_set_dynamics(
    world: SinewWorld,
    collider: SinewCollider,
    dynamics: *const SinewColliderDynamics,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(dynamics, "dynamics")?;
        // SAFETY: `dynamics` is non-null (checked above) and, by this function's safety
        // section, points to one readable value; `read_unaligned` needs no alignment.
        let d = unsafe { dynamics.read_unaligned() }.to_dynamics()?;
        with_world(world, |w| {
            Ok(w.set_collider_dynamics(ColliderId(collider.id), &d)?)
        })
    })
}

/// Makes `collider` kinematic again (its transform set by the host alone). A
/// kinematic collider is left as it is.
#[no_mangle]
pub extern "C" fn sinew_collider_clear_dynamics(
    world: SinewWorld,
    collider: SinewCollider,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.clear_collider_dynamics(ColliderId(collider.id))?)
        })
    })
}

/// Writes what the proxy of dynamic `collider` did over the last step to `*out`
/// (its end velocities and the change the particles made; zero changes before the
/// first step). SINEW_ERROR_INVALID_ARGUMENT for a kinematic collider.
///
/// # Safety
/// `out` must point to one writable SinewColliderMotion.
#[no_mangle]
pub unsafe extern "C" fn sinew_collider_read_motion(
    world: SinewWorld,
    collider: SinewCollider,
    out: *mut SinewColliderMotion,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out, "out")?;
        let m = with_world(world, |w| Ok(w.collider_motion(ColliderId(collider.id))?))?;
        // SAFETY: `out` is non-null (checked above) and, by this function's safety
        // section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out.write_unaligned(m.into()) };
        Ok(())
    })
}

/// Pins `count` particles to points of `collider` (`offsets`: m, the collider's frame)
/// with compliance `compliance` (m/N, in [0, `SINEW_MAX_COMPLIANCE`]; 0 = rigid): each
/// particle follows its point, and a dynamic collider's proxy takes the reaction (its
/// mass and inertia in the constraint). `*out_first` receives the first pin's index (pins are numbered in
/// the order they are made). Removing the collider, or the body of a pinned particle,
/// removes its pins.
///
/// # Safety
/// `particles` must point to `count` readable uint32_t, `offsets` to `count` readable
/// SinewVec3, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_collider_pin_particles(
    world: SinewWorld,
    collider: SinewCollider,
    particles: *const u32,
    offsets: *const SinewVec3,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_first, "out_first")?;
        // SAFETY: by this function's safety section, `particles` points to `count`
        // readable uint32_t and `offsets` to `count` SinewVec3 (`slice_from` checks
        // NULL, alignment and the batch limit).
        let (particles, offsets) = unsafe {
            (
                slice_from(particles, count as usize, "particles")?,
                slice_from(offsets as *const Vec3, count as usize, "offsets")?,
            )
        };
        let first = with_world(world, |w| {
            Ok(w.pin_to_collider(ColliderId(collider.id), particles, offsets, compliance)?)
        })?;
        // SAFETY: `out_first` is non-null (checked above) and, by this function's safety
        // section, points to writable memory for one value.
        unsafe { out_first.write_unaligned(first) };
        Ok(())
    })
}

/// Removes pins `first..first + count` (they stop acting; indices never shift).
#[no_mangle]
pub extern "C" fn sinew_world_remove_pins(
    world: SinewWorld,
    first: u32,
    count: u32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.remove_pins(first, count)?))
    })
}

/// Writes the force (N, world) each pin of `first..first + count` exerted on its
/// particle in the last substep to `out` (its collider received the opposite at the
/// pin's point; zero for a removed pin and before the first step). Always finite: a
/// force past what a `float` holds (a very heavy particle pulled far in a very short
/// substep) reads as the largest `float` along the pin's direction.
///
/// # Safety
/// `out` must point to `count` writable SinewVec3.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_pin_forces(
    world: SinewWorld,
    first: u32,
    count: u32,
    out: *mut SinewVec3,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: the caller promises `count` writable SinewVec3, layout-identical to
        // Vec3 (asserted in ffi/world.rs); `slice_from_mut` checks NULL, alignment and
        // the batch limit.
        let out = unsafe { slice_from_mut(out as *mut Vec3, count as usize, "out")? };
        with_world(world, |w| Ok(w.read_pin_forces(first, out)?))
    })
}
