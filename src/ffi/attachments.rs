//! Attachments of particles to host transforms, with force readback for two-way
//! coupling with a host engine's rigid bodies.

use super::world::{with_world, SinewQuat, SinewVec3, SinewWorld};
use super::{answer, guard, non_null, slice_from, slice_from_mut, FfiResult, SinewStatus};
use crate::math::Vec3;
use crate::transform::Transform;
use glam::Quat;

/// A rigid transform: position (m) and rotation (unit quaternion; normalised on input,
/// its length must be within [0.5, 2]).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewTransform {
    pub position: SinewVec3,
    pub rotation: SinewQuat,
}

const _: () = assert!(std::mem::size_of::<SinewTransform>() == 28);

/// Reads a transform argument.
///
/// # Safety
/// `t` must be NULL or point to a readable SinewTransform.
pub(crate) unsafe fn transform(t: *const SinewTransform) -> FfiResult<Transform> {
    non_null(t, "transform")?;
    // SAFETY: `t` is non-null (checked by `non_null` above) and, by this function's safety
    // section, points to one readable value; `read_unaligned` needs no alignment.
    let t = unsafe { t.read_unaligned() };
    let q = t.rotation;
    Ok(Transform::checked(
        Vec3::from(t.position),
        Quat::from_xyzw(q.x, q.y, q.z, q.w),
    )?)
}

/// Adds an attachment host (a host rigid body, bone, hand...) at `transform`;
/// `*out_host` receives its index (hosts are numbered 0, 1, ...).
///
/// # Safety
/// `transform` must point to a readable SinewTransform, `out_host` to one writable
/// uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_attachment_host(
    world: SinewWorld,
    transform: *const SinewTransform,
    out_host: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_host, "out_host")?;
        // SAFETY: `transform` goes to `transform` unchanged, and this function's safety
        // section promises what it needs: NULL (refused) or one readable SinewTransform.
        let t = unsafe { self::transform(transform)? };
        let host = with_world(world, |w| Ok(w.add_attachment_host(t)?))?;
        // SAFETY: `out_host` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out_host.write_unaligned(host) };
        Ok(())
    })
}

/// Sets the transform `host` reaches at the end of the next step; call it once per
/// frame before sinew_world_step. Within the step each substep follows the transform
/// interpolated between the previous one and this one.
///
/// # Safety
/// `transform` must point to a readable SinewTransform.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_attachment_host_transform(
    world: SinewWorld,
    host: u32,
    transform: *const SinewTransform,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: the pointers go to `transform` unchanged, and this function's safety section
        // promises what `transform` needs: `transform` is NULL (refused) or points to one
        // readable SinewTransform.
        let t = unsafe { self::transform(transform)? };
        with_world(world, |w| Ok(w.set_attachment_host_transform(host, t)?))
    })
}

/// Attaches `count` particles to `host` at `local_offsets` (m, in the host's frame;
/// NULL = where each particle is now). `compliance` α in m/N: 0 pins the particle to
/// its target, above 0 is a soft (zero-length spring) attachment of stiffness 1/α.
/// Attach particles with inverse mass > 0. `*out_first` receives the first new id.
///
/// # Safety
/// `particles` must point to `count` uint32_t, `local_offsets` to `count` SinewVec3 or
/// be NULL, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_attachments(
    world: SinewWorld,
    host: u32,
    particles: *const u32,
    local_offsets: *const SinewVec3,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: the caller promises `count` readable indices.
        let p = unsafe { slice_from(particles, count as usize, "particles")? };
        let offsets: Option<Vec<Vec3>> = if local_offsets.is_null() {
            None
        } else {
            // SAFETY: the caller promises `count` readable SinewVec3.
            let o = unsafe { slice_from(local_offsets, count as usize, "local_offsets")? };
            let mut v = crate::error::try_with_capacity::<Vec3>(o.len(), "offsets")?;
            v.extend(o.iter().map(|&x| Vec3::from(x)));
            Some(v)
        };
        with_world(world, |w| {
            Ok(w.add_attachments(host, p, offsets.as_deref(), compliance)?)
        })
    };
    // SAFETY: `out_first` goes to `answer` unchanged, and this function's safety section
    // promises what `answer` needs: `out_first` is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_first, "out_first", body) }
}

/// Sets the compliance (m/N) of attachments `first..first+count`; next step on.
#[no_mangle]
pub extern "C" fn sinew_world_set_attachment_compliance(
    world: SinewWorld,
    first: u32,
    count: u32,
    compliance: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.set_attachment_compliance(first, count, compliance)?)
        })
    })
}

/// Writes the force (N, world frame) each attachment `first..first+count` exerted on
/// its host during the last substep of the last step: apply it to the host's rigid
/// body at the attachment point for two-way coupling (a hanging 1 kg particle gives
/// (0, -9.81, 0)). Zero before the first step.
///
/// # Safety
/// `out` must point to `count` writable SinewVec3.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_attachment_forces(
    world: SinewWorld,
    first: u32,
    count: u32,
    out: *mut SinewVec3,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: the caller promises `count` writable SinewVec3.
        let out = unsafe { slice_from_mut(out, count as usize, "out")? };
        // SinewVec3 is layout-identical to Vec3 (asserted in ffi/world.rs).
        let mut tmp = crate::error::try_with_capacity::<Vec3>(out.len(), "forces")?;
        tmp.resize(out.len(), Vec3::ZERO);
        with_world(world, |w| Ok(w.read_attachment_forces(first, &mut tmp)?))?;
        for (o, f) in out.iter_mut().zip(&tmp) {
            *o = (*f).into();
        }
        Ok(())
    })
}
