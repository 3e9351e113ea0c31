//! Skinned targets and inertia control through the C ABI: per-particle weights, the
//! targets the host writes every frame straight from its vertex buffer (positions and
//! normals with a stride), the reference transform (the character's root) and
//! teleports (src/skinning.rs).

use std::ffi::c_void;

use super::attachments::SinewTransform;
use super::bodies::SinewBody;
use super::particles::{read_at, strided};
use super::world::{with_world, SinewWorld};
use super::{guard, slice_from, FfiResult, SinewStatus};
use crate::bodies::BodyId;
use crate::math::Vec3;
use crate::skinning::SkinWeights;

/// Per-particle weights against the skinned target. Defaults (no skinning):
/// max_distance -1, backstop_radius 0, backstop_distance 0, drive_compliance -1.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewSkinWeights {
    /// Radius (m) the particle may move away from its target; negative = no limit,
    /// 0 = fully skinned.
    pub max_distance: f32,
    /// Radius (m) of the backstop sphere behind the target (along -normal) that the
    /// particle may not enter; 0 = none.
    pub backstop_radius: f32,
    /// Distance (m) from the target to the backstop sphere's surface, along -normal.
    pub backstop_distance: f32,
    /// Compliance (m/N) of the spring pulling the particle to its target; negative =
    /// none, 0 = rigid. Static deflection under gravity: m g compliance.
    pub drive_compliance: f32,
}

const _: () = assert!(std::mem::size_of::<SinewSkinWeights>() == 16);

impl From<SinewSkinWeights> for SkinWeights {
    fn from(w: SinewSkinWeights) -> SkinWeights {
        SkinWeights {
            max_distance: w.max_distance,
            backstop_radius: w.backstop_radius,
            backstop_distance: w.backstop_distance,
            drive_compliance: w.drive_compliance,
        }
    }
}

/// Sets the skinning weights of every particle of the body (`count` = its particle
/// count, in the order of its particles); the body follows its targets once they are
/// written (sinew_body_set_skin_targets). Calling it again replaces the weights.
///
/// # Safety
/// `weights` must point to `count` readable SinewSkinWeights.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_set_skin_weights(
    world: SinewWorld,
    body: SinewBody,
    weights: *const SinewSkinWeights,
    count: u32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: the caller promises `count` readable elements; `slice_from` checks
        // non-null, alignment and the batch limit first.
        let w = unsafe { slice_from(weights, count as usize, "weights")? };
        let mut v = crate::error::try_with_capacity::<SkinWeights>(w.len(), "skin weights")?;
        v.extend(w.iter().map(|&x| SkinWeights::from(x)));
        with_world(world, |wd| Ok(wd.set_skin_weights(BodyId(body.id), &v)?))
    })
}

/// Writes the targets the next step reaches (call once per frame before
/// sinew_world_step): `count` (= the body's particle count) positions (m) and, unless
/// `normals` is NULL (then the last normals are kept; none = no backstop), unit
/// normals, read as three floats every `*_stride` bytes (12 to 1 MiB), straight from a
/// vertex buffer. Within the step each substep sees the targets interpolated between the
/// previous frame's and these. The first write also stands for the previous frame.
///
/// # Safety
/// `positions` must point to `count` readable elements of stride `position_stride`,
/// `normals` be NULL or point to `count` readable elements of stride `normal_stride`.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_set_skin_targets(
    world: SinewWorld,
    body: SinewBody,
    positions: *const c_void,
    position_stride: u32,
    normals: *const c_void,
    normal_stride: u32,
    count: u32,
) -> SinewStatus {
    guard(entry!(), || {
        let p = strided(positions, count, position_stride, "positions")?;
        let n: FfiResult<Option<*const u8>> = if normals.is_null() {
            Ok(None)
        } else {
            Ok(Some(strided(normals, count, normal_stride, "normals")?))
        };
        let n = n?;
        // SAFETY: `p` and `n` were checked by `strided` for `count` elements, which the
        // caller promises readable; the world reads k < count only.
        let position = |k: usize| unsafe { read_at(p, position_stride, k) };
        // SAFETY: as for `position` above.
        let normal = n.map(|n| move |k: usize| unsafe { read_at(n, normal_stride, k) });
        let normal_ref = normal.as_ref().map(|f| f as &dyn Fn(usize) -> Vec3);
        with_world(world, |w| {
            Ok(w.set_skin_targets_with(BodyId(body.id), count as usize, position, normal_ref)?)
        })
    })
}

/// Sets the reference transform (the character's root) the next step reaches, and the
/// fractions in [0, 1] of its linear and angular acceleration passed on to the body:
/// 1 = full inertia (world-space simulation), 0 = carried with the root. Call it every
/// frame with the targets; the body needs skinning weights.
///
/// # Safety
/// `root` must point to a readable SinewTransform.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_set_skin_root(
    world: SinewWorld,
    body: SinewBody,
    root: *const SinewTransform,
    linear_inertia: f32,
    angular_inertia: f32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `root` goes to `transform` unchanged; this function's safety section
        // promises NULL (refused) or one readable SinewTransform.
        let t = unsafe { super::attachments::transform(root)? };
        with_world(world, |w| {
            Ok(w.set_skin_root(BodyId(body.id), t, linear_inertia, angular_inertia)?)
        })
    })
}

/// Teleports the body onto its skinned pose: every movable particle to its latest
/// target, at rest; the previous frame is forgotten (no interpolation across the jump,
/// no inertia from it). Needs weights and targets.
#[no_mangle]
pub extern "C" fn sinew_body_teleport_to_skin(world: SinewWorld, body: SinewBody) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.teleport_to_skin(BodyId(body.id))?))
    })
}
