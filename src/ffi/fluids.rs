//! Fluids through the C ABI (src/fluid, src/world/fluids.rs): fluids with
//! their reserved particles, direct emission, emitters, kill volumes, the strided
//! readback of the live particles for rendering, and the two-way coupling switch and
//! force of bodies. Every desc is read, converted and checked (cookie, enum values,
//! 0/1 flags) here; the World checks every value before anything changes.

use std::ffi::c_void;

use super::bodies::{init_desc, read_desc, SinewBody};
use super::readback::{check_capacity, StridedOut};
pub use super::settings::{
    SinewEmitterDesc, SinewFluidDesc, SinewKillVolumeDesc, SINEW_MAX_EMIT_RATE,
    SINEW_MAX_EMIT_SPEED, SINEW_MAX_FLUID_CAPACITY, SINEW_MAX_FLUID_COEFFICIENT,
    SINEW_MAX_FLUID_LIFETIME, SINEW_MAX_FLUID_RELAXATION, SINEW_MAX_FLUID_SPACING,
    SINEW_MAX_REST_DENSITY, SINEW_MAX_SMOOTHING_RATIO, SINEW_MIN_FLUID_SPACING,
};
use super::settings::{EMITTER_DESC_COOKIE, FLUID_DESC_COOKIE, KILL_VOLUME_DESC_COOKIE};
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{answer, guard, non_null, query_u32, slice_from, FfiResult, SinewStatus};
use crate::bodies::BodyId;
use crate::error::try_with_capacity;
use crate::fluid::{
    EmitterDesc, EmitterId, FluidDesc, FluidId, FluidStats, KillVolumeDesc, KillVolumeId,
};
use crate::limits::schema::flag_from_c;
use crate::math::Vec3;
use crate::World;

/// A fluid handle, passed by value; 0 is null. Valid in the world that issued it (the
/// header's "Handles" paragraph: layout, serial, snapshots); a removed fluid's id is
/// rejected with SINEW_ERROR_INVALID_HANDLE.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewFluid {
    pub id: u64,
}

/// An emitter handle, passed by value; 0 is null. Valid in the world that issued it
/// (the header's "Handles" paragraph).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewEmitter {
    pub id: u64,
}

/// A kill-volume handle, passed by value; 0 is null. Valid in the world that issued
/// it (the header's "Handles" paragraph).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewKillVolume {
    pub id: u64,
}

/// Values of `SinewEmitterDesc::shape` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewEmitterShape {
    /// A round nozzle of `radius` facing the emitter's local +Z (default).
    SINEW_EMITTER_NOZZLE = 0,
    /// A box of `half_extents` (rain, a spring).
    SINEW_EMITTER_BOX = 1,
}

/// Values of `SinewKillVolumeDesc::shape` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewKillVolumeShape {
    /// An oriented box: center, rotation, half_extents (default).
    SINEW_KILL_VOLUME_BOX = 0,
    /// A ball: center, radius.
    SINEW_KILL_VOLUME_SPHERE = 1,
    /// Everything below the plane through `center` with `normal` (the side the normal
    /// points away from).
    SINEW_KILL_VOLUME_HALF_SPACE = 2,
}

/// Counters and density figures of a fluid (sinew_fluid_stats).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewFluidStats {
    /// Live particles.
    pub count: u32,
    /// Reserved particles.
    pub capacity: u32,
    /// Particles emitted since the fluid was added (emitters and sinew_fluid_emit).
    pub emitted: u64,
    /// Particles removed since the fluid was added (kill volumes, lifetime, recycling,
    /// clears).
    pub removed: u64,
    /// Emissions skipped because the fluid was full.
    pub refused: u64,
    /// Mean and largest ρ/ρ₀ over the live particles after the last step (0 when
    /// empty).
    pub mean_density_ratio: f32,
    pub max_density_ratio: f32,
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewFluidDesc.
unsafe fn fluid_desc(desc: *const SinewFluidDesc) -> FfiResult<FluidDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            FLUID_DESC_COOKIE,
            "sinew_fluid_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewEmitterDesc.
pub(super) unsafe fn emitter_desc(desc: *const SinewEmitterDesc) -> FfiResult<EmitterDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            EMITTER_DESC_COOKIE,
            "sinew_emitter_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewKillVolumeDesc.
unsafe fn kill_volume_desc(desc: *const SinewKillVolumeDesc) -> FfiResult<KillVolumeDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            KILL_VOLUME_DESC_COOKIE,
            "sinew_kill_volume_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// A fluid desc with every field at its default (water: ρ₀ 1000 kg/m³, spacing 5 cm,
/// 4096 particles).
#[no_mangle]
pub extern "C" fn sinew_fluid_desc_default() -> SinewFluidDesc {
    SinewFluidDesc::from_rust(&FluidDesc::default())
}

/// Writes sinew_fluid_desc_default() to `*out` (for bindings that avoid by-value structs).
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewFluidDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_desc_init(out: *mut SinewFluidDesc) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_fluid_desc_default()) }
}

/// An emitter desc with every field at its default (a 10 cm nozzle at the origin
/// facing +Z, 2 m/s, 500 particles/s).
#[no_mangle]
pub extern "C" fn sinew_emitter_desc_default() -> SinewEmitterDesc {
    SinewEmitterDesc::from_rust(&EmitterDesc::default())
}

/// Writes sinew_emitter_desc_default() to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewEmitterDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_emitter_desc_init(out: *mut SinewEmitterDesc) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_emitter_desc_default()) }
}

/// A kill-volume desc with every field at its default (a 2 m box at the origin).
#[no_mangle]
pub extern "C" fn sinew_kill_volume_desc_default() -> SinewKillVolumeDesc {
    SinewKillVolumeDesc::from_rust(&KillVolumeDesc::default())
}

/// Writes sinew_kill_volume_desc_default() to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewKillVolumeDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_kill_volume_desc_init(out: *mut SinewKillVolumeDesc) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_kill_volume_desc_default()) }
}

/// Adds a fluid and reserves `desc->capacity` world particles for it (appended after
/// the existing ones, all inert until emitted: no other index ever shifts);
/// `*out_fluid` receives its handle.
///
/// # Safety
/// `desc` must point to a readable SinewFluidDesc, `out_fluid` to one writable
/// SinewFluid.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_fluid(
    world: SinewWorld,
    desc: *const SinewFluidDesc,
    out_fluid: *mut SinewFluid,
) -> SinewStatus {
    let body = || {
        // SAFETY: `desc` goes to `fluid_desc` unchanged; this function's safety section
        // promises what it needs.
        let d = unsafe { fluid_desc(desc)? };
        let id = with_world(world, |w| Ok(w.add_fluid(&d)?))?;
        Ok(SinewFluid { id: id.0 })
    };
    // SAFETY: `out_fluid` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_fluid, "out_fluid", body) }
}

/// Removes a fluid: its particles become inert for good (their slots stay, so no
/// index shifts); its emitters and kill volumes go with it; its handle becomes invalid.
#[no_mangle]
pub extern "C" fn sinew_fluid_remove(world: SinewWorld, fluid: SinewFluid) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.remove_fluid(FluidId(fluid.id))?))
    })
}

/// Writes the number of fluids to `*out_count`.
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_fluid_count(
    world: SinewWorld,
    out_count: *mut u32,
) -> SinewStatus {
    let f = entry!();
    // SAFETY: the pointers go to `query_u32` unchanged, and this function's safety section
    // promises what `query_u32` needs: `out_count` is NULL (refused) or points to one writable
    // uint32_t.
    unsafe { query_u32(f, world, out_count, World::fluid_count) }
}

/// Writes the fluid's settings to `*out_desc` (with the cookie, ready for
/// sinew_fluid_set_desc).
///
/// # Safety
/// `out_desc` must be NULL or point to writable memory for one SinewFluidDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_get_desc(
    world: SinewWorld,
    fluid: SinewFluid,
    out_desc: *mut SinewFluidDesc,
) -> SinewStatus {
    let body = || {
        let d = with_world(world, |w| Ok(w.fluid_desc(FluidId(fluid.id))?))?;
        Ok(SinewFluidDesc::from_rust(&d))
    };
    // SAFETY: `out_desc` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_desc, "out_desc", body) }
}

/// Changes a fluid's settings while it runs (next step on). `capacity` and `spacing`
/// must stay as they are; every other field may change.
///
/// # Safety
/// `desc` must point to a readable SinewFluidDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_set_desc(
    world: SinewWorld,
    fluid: SinewFluid,
    desc: *const SinewFluidDesc,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `desc` goes to `fluid_desc` unchanged; this function's safety section
        // promises what it needs.
        let d = unsafe { fluid_desc(desc)? };
        with_world(world, |w| Ok(w.set_fluid_desc(FluidId(fluid.id), &d)?))
    })
}

/// Writes the fluid's reserved world particles, `first..first+capacity`, to
/// `*out_first` and `*out_capacity`; the live ones are the first
/// SinewFluidStats::count of them.
///
/// # Safety
/// `out_first` and `out_capacity` must point to one writable uint32_t each.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_particle_range(
    world: SinewWorld,
    fluid: SinewFluid,
    out_first: *mut u32,
    out_capacity: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_first, "out_first")?;
        non_null(out_capacity, "out_capacity")?;
        let (first, capacity) =
            with_world(world, |w| Ok(w.fluid_particle_range(FluidId(fluid.id))?))?;
        // SAFETY: both are non-null (checked by `non_null` above) and, by this function's
        // safety section, each points to one writable uint32_t; `write_unaligned` needs no
        // alignment.
        unsafe {
            out_first.write_unaligned(first);
            out_capacity.write_unaligned(capacity);
        }
        Ok(())
    })
}

fn stats_to_c(s: &FluidStats) -> SinewFluidStats {
    SinewFluidStats {
        count: s.count,
        capacity: s.capacity,
        emitted: s.emitted,
        removed: s.removed,
        refused: s.refused,
        mean_density_ratio: s.mean_density_ratio,
        max_density_ratio: s.max_density_ratio,
    }
}

/// Writes the fluid's counters and density figures to `*out_stats`.
///
/// # Safety
/// `out_stats` must be NULL or point to writable memory for one SinewFluidStats.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_stats(
    world: SinewWorld,
    fluid: SinewFluid,
    out_stats: *mut SinewFluidStats,
) -> SinewStatus {
    let body = || {
        let s = with_world(world, |w| Ok(w.fluid_stats(FluidId(fluid.id))?))?;
        Ok(stats_to_c(&s))
    };
    // SAFETY: `out_stats` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_stats, "out_stats", body) }
}

/// Emits `count` particles at `positions` (m) with `velocities` (m/s; NULL = at
/// rest), all or none: more than the free capacity, or a non-finite or out-of-range
/// value, is refused. `*out_first` receives the index (among the fluid's live
/// particles) of the first new one. Water laid into an overlap (closer than the
/// fluid's spacing, or into fluid already there) settles: in its first step the
/// density solve moves it apart, and it ends that step at the velocities given
/// (docs/fluids.md, "Water laid roughly").
///
/// # Safety
/// `positions` must point to `count` readable SinewVec3, `velocities` to `count` or be
/// NULL, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_emit(
    world: SinewWorld,
    fluid: SinewFluid,
    positions: *const SinewVec3,
    velocities: *const SinewVec3,
    count: u32,
    out_first: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: the caller promises `count` readable elements (NULL is refused by
        // `slice_from`, which checks alignment and the batch limit too).
        let p = unsafe { slice_from(positions, count as usize, "positions")? };
        let v = if velocities.is_null() {
            None
        } else {
            // SAFETY: non-null here; the caller promises `count` readable elements.
            Some(unsafe { slice_from(velocities, count as usize, "velocities")? })
        };
        let mut pb = try_with_capacity::<Vec3>(p.len(), "emitted positions")?;
        pb.extend(p.iter().map(|&x| Vec3::from(x)));
        let vb = match v {
            Some(v) => {
                let mut b = try_with_capacity::<Vec3>(v.len(), "emitted velocities")?;
                b.extend(v.iter().map(|&x| Vec3::from(x)));
                Some(b)
            }
            None => None,
        };
        with_world(world, |w| {
            Ok(w.emit_fluid(FluidId(fluid.id), &pb, vb.as_deref())?)
        })
    };
    // SAFETY: `out_first` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_first, "out_first", body) }
}

/// Removes every live particle of the fluid (its slots stay reserved).
#[no_mangle]
pub extern "C" fn sinew_fluid_clear(world: SinewWorld, fluid: SinewFluid) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.clear_fluid(FluidId(fluid.id))?))
    })
}

/// Adds an emitter to the fluid (it emits from the next step on); `*out_emitter`
/// receives its handle.
///
/// # Safety
/// `desc` must point to a readable SinewEmitterDesc, `out_emitter` to one writable
/// SinewEmitter.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_add_emitter(
    world: SinewWorld,
    fluid: SinewFluid,
    desc: *const SinewEmitterDesc,
    out_emitter: *mut SinewEmitter,
) -> SinewStatus {
    let body = || {
        // SAFETY: `desc` goes to `emitter_desc` unchanged; this function's safety section
        // promises what it needs.
        let d = unsafe { emitter_desc(desc)? };
        let id = with_world(world, |w| Ok(w.add_emitter(FluidId(fluid.id), &d)?))?;
        Ok(SinewEmitter { id: id.0 })
    };
    // SAFETY: `out_emitter` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_emitter, "out_emitter", body) }
}

/// Moves or retunes an emitter (a hose that follows the player); next step on.
///
/// # Safety
/// `desc` must point to a readable SinewEmitterDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_emitter_set(
    world: SinewWorld,
    emitter: SinewEmitter,
    desc: *const SinewEmitterDesc,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `desc` goes to `emitter_desc` unchanged; this function's safety section
        // promises what it needs.
        let d = unsafe { emitter_desc(desc)? };
        with_world(world, |w| Ok(w.set_emitter(EmitterId(emitter.id), &d)?))
    })
}

/// Removes an emitter; its handle becomes invalid.
#[no_mangle]
pub extern "C" fn sinew_emitter_remove(world: SinewWorld, emitter: SinewEmitter) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.remove_emitter(EmitterId(emitter.id))?))
    })
}

/// Adds a kill volume to the fluid: its particles inside are removed at the end of
/// each step. `*out_volume` receives its handle.
///
/// # Safety
/// `desc` must point to a readable SinewKillVolumeDesc, `out_volume` to one writable
/// SinewKillVolume.
#[no_mangle]
pub unsafe extern "C" fn sinew_fluid_add_kill_volume(
    world: SinewWorld,
    fluid: SinewFluid,
    desc: *const SinewKillVolumeDesc,
    out_volume: *mut SinewKillVolume,
) -> SinewStatus {
    let body = || {
        // SAFETY: `desc` goes to `kill_volume_desc` unchanged; this function's safety
        // section promises what it needs.
        let d = unsafe { kill_volume_desc(desc)? };
        let id = with_world(world, |w| Ok(w.add_kill_volume(FluidId(fluid.id), &d)?))?;
        Ok(SinewKillVolume { id: id.0 })
    };
    // SAFETY: `out_volume` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_volume, "out_volume", body) }
}

/// Removes a kill volume; its handle becomes invalid.
#[no_mangle]
pub extern "C" fn sinew_kill_volume_remove(
    world: SinewWorld,
    volume: SinewKillVolume,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(
            world,
            |w| Ok(w.remove_kill_volume(KillVolumeId(volume.id))?),
        )
    })
}

/// Copies the fluid's live particles, in order, into up to three strided buffers
/// that each hold `capacity` elements (e.g. straight into a vertex buffer):
/// `positions` (SinewVec3, m, interpolated between the start and the end of the last
/// step by `alpha` in [0, 1] as in sinew_world_read_interpolated_positions; stride
/// 12..=SINEW_MAX_STRIDE_BYTES), `velocities` (SinewVec3, m/s; stride 12..) and
/// `density_ratios` (float ρ/ρ₀; stride 4..=SINEW_MAX_STRIDE_BYTES). A NULL buffer is
/// skipped (its stride is ignored). `*out_count` receives the number of live
/// particles. More live particles than `capacity` is SINEW_ERROR_OUT_OF_RANGE, and
/// nothing is written; with every buffer NULL the call only counts (capacity is not
/// checked).
///
/// # Safety
/// Each non-NULL buffer must point to `(capacity-1)*stride + element size` writable
/// bytes; `out_count` to one writable uint32_t.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn sinew_fluid_read_particles(
    world: SinewWorld,
    fluid: SinewFluid,
    alpha: f32,
    capacity: u32,
    positions: *mut c_void,
    position_stride: u32,
    velocities: *mut c_void,
    velocity_stride: u32,
    density_ratios: *mut c_void,
    density_stride: u32,
    out_count: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: this function's safety section makes each of the three buffers NULL
        // (skipped) or writable for `capacity` elements `stride` apart, for this call.
        let p = unsafe {
            StridedOut::<SinewVec3>::optional(positions, capacity, position_stride, "positions")?
        };
        // SAFETY: as above.
        let v = unsafe {
            StridedOut::<SinewVec3>::optional(velocities, capacity, velocity_stride, "velocities")?
        };
        // SAFETY: as above.
        let d = unsafe {
            StridedOut::<f32>::optional(density_ratios, capacity, density_stride, "density_ratios")?
        };
        crate::world::interpolation::check_alpha(alpha)?;
        with_world(world, |w| {
            let id = FluidId(fluid.id);
            let count = w.fluid_stats(id)?.count;
            if p.is_some() || v.is_some() || d.is_some() {
                check_capacity(capacity, count, || {
                    format!("the fluid's {count} live particles")
                })?;
            }
            // The readback visits the live particles only: k < count <= capacity.
            let sink = |k: usize, q: &crate::FluidParticle| {
                if let Some(p) = &p {
                    p.write(k, q.position);
                }
                if let Some(v) = &v {
                    v.write(k, q.velocity);
                }
                if let Some(d) = &d {
                    d.write(k, q.density_ratio);
                }
            };
            Ok(w.read_fluid_particles(id, alpha, sink)?)
        })
    };
    // SAFETY: `out_count` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_count, "out_count", body) }
}

/// Turns the two-way coupling of a body's particles with every fluid on (`enabled` =
/// 1, the default for particles with a radius) or off (0).
#[no_mangle]
pub extern "C" fn sinew_body_set_fluid_coupling(
    world: SinewWorld,
    body: SinewBody,
    enabled: u32,
) -> SinewStatus {
    guard(entry!(), || {
        let on = flag_from_c(enabled, "enabled")?;
        with_world(world, |w| {
            Ok(w.set_body_fluid_coupling(BodyId(body.id), on)?)
        })
    })
}

/// Writes the force (N) the fluids exerted on the body in the last substep (buoyancy
/// plus drag) to `*out_force`.
///
/// # Safety
/// `out_force` must be NULL or point to one writable SinewVec3.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_fluid_force(
    world: SinewWorld,
    body: SinewBody,
    out_force: *mut SinewVec3,
) -> SinewStatus {
    let run = || {
        let f = with_world(world, |w| Ok(w.body_fluid_force(BodyId(body.id))?))?;
        Ok(SinewVec3::from(f))
    };
    // SAFETY: `out_force` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_force, "out_force", run) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_values_match_the_rust_shapes() {
        assert_eq!(SinewEmitterShape::SINEW_EMITTER_NOZZLE as u32, 0);
        assert_eq!(SinewEmitterShape::SINEW_EMITTER_BOX as u32, 1);
        assert_eq!(SinewKillVolumeShape::SINEW_KILL_VOLUME_BOX as u32, 0);
        assert_eq!(SinewKillVolumeShape::SINEW_KILL_VOLUME_SPHERE as u32, 1);
        assert_eq!(SinewKillVolumeShape::SINEW_KILL_VOLUME_HALF_SPACE as u32, 2);
    }

    #[test]
    fn descs_round_trip_field_for_field() {
        let mut c = sinew_fluid_desc_default();
        c.recycle_oldest = 1;
        c.scorr_n = 3;
        c.coupling_mask = 0x0F;
        // SAFETY: a live desc.
        let d = unsafe { fluid_desc(&c) }.unwrap();
        assert_eq!(SinewFluidDesc::from_rust(&d), c);
        assert_eq!(
            // SAFETY: a live desc.
            unsafe { fluid_desc(&sinew_fluid_desc_default()) }.unwrap(),
            FluidDesc::default()
        );
        // SAFETY: a live desc.
        let e = unsafe { emitter_desc(&sinew_emitter_desc_default()) }.unwrap();
        assert_eq!(e, EmitterDesc::default());
        let mut k = sinew_kill_volume_desc_default();
        k.shape = 2;
        k.center.y = 3.0;
        // SAFETY: a live desc.
        let h = unsafe { kill_volume_desc(&k) }.unwrap();
        assert_eq!(
            h,
            KillVolumeDesc::half_space(Vec3::new(0.0, 3.0, 0.0), Vec3::Y)
        );
        assert_eq!(SinewKillVolumeDesc::from_rust(&h), k);
        // SAFETY: a live desc.
        let b = unsafe { kill_volume_desc(&sinew_kill_volume_desc_default()) }.unwrap();
        assert_eq!(b, KillVolumeDesc::default());
        c.recycle_oldest = 2;
        // SAFETY: a live desc.
        let e = unsafe { fluid_desc(&c) }.unwrap_err();
        assert!(e.message.contains("recycle_oldest"), "{}", e.message);
    }
}
