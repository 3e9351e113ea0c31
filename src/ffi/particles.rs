//! Particles: bulk add, count, strided position/velocity readback and write, masses.

use std::ffi::c_void;

use super::readback::{check_span, StridedOut};
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{
    answer, guard, non_null, optional_slice_from, query_u32, slice_from, Entry, FfiResult,
    SinewStatus,
};
use crate::error::try_with_capacity;
use crate::math::Vec3;
use crate::particles::Vec3Attribute;
use crate::World;

/// Size of one packed SinewVec3, the smallest stride.
const VEC3_BYTES: u32 = crate::limits::MIN_STRIDE_BYTES;

/// Checks a strided buffer of `count` SinewVec3 at `ptr` and returns its base address.
/// The stride must lie in 12..=[`crate::limits::MAX_STRIDE_BYTES`] (1 MiB).
pub(crate) fn strided(
    ptr: *const c_void,
    count: u32,
    stride_bytes: u32,
    name: &str,
) -> FfiResult<*const u8> {
    non_null(ptr, name)?;
    check_span(ptr, count, stride_bytes, VEC3_BYTES, name)?;
    Ok(ptr as *const u8)
}

/// Reads element k of a checked strided buffer.
///
/// # Safety
/// `base` came from `strided` for at least k+1 elements that the caller made readable.
pub(crate) unsafe fn read_at(base: *const u8, stride: u32, k: usize) -> Vec3 {
    // SAFETY: within the span checked by `strided`; unaligned read, so any stride works.
    unsafe { (base.add(k * stride as usize) as *const SinewVec3).read_unaligned() }.into()
}

/// Adds `count` particles at rest at `positions` (m) with `inverse_masses` (1/kg, 0 =
/// pinned; NULL = all 1). `*out_first` receives the index of the first new particle;
/// the new particles are `first..first+count`.
///
/// # Safety
/// `positions` must point to `count` SinewVec3, `inverse_masses` to `count` floats or
/// be NULL, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_particles(
    world: SinewWorld,
    positions: *const SinewVec3,
    inverse_masses: *const f32,
    count: u32,
    out_first: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: the caller promises `count` readable elements.
        let p = unsafe { slice_from(positions, count as usize, "positions")? };
        // SAFETY: the caller promises NULL or `count` readable elements.
        let w = unsafe { optional_slice_from(inverse_masses, count as usize, "inverse_masses")? };
        with_world(world, |world| {
            world.check_particle_room(p.len())?;
            let mut buf = try_with_capacity::<Vec3>(p.len(), "particle positions")?;
            buf.extend(p.iter().map(|&v| Vec3::from(v)));
            Ok(world.add_particles(&buf, w)?)
        })
    };
    // SAFETY: `out_first` goes to `answer` unchanged, and this function's safety section
    // promises what `answer` needs: `out_first` is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_first, "out_first", body) }
}

/// Writes the number of particles to `*out_count`.
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_particle_count(
    world: SinewWorld,
    out_count: *mut u32,
) -> SinewStatus {
    let f = entry!();
    // SAFETY: the pointers go to `query_u32` unchanged, and this function's safety section
    // promises what `query_u32` needs: `out_count` is NULL (refused) or points to one writable
    // uint32_t.
    unsafe { query_u32(f, world, out_count, World::particle_count) }
}

/// Copies `attribute` of particles `first..first+count` into a strided buffer.
///
/// # Safety
/// `out` must point to `(count-1)*stride_bytes + 12` writable bytes.
unsafe fn read_strided(
    function: Entry,
    world: SinewWorld,
    attribute: Vec3Attribute,
    first: u32,
    count: u32,
    out: *mut c_void,
    stride_bytes: u32,
) -> SinewStatus {
    guard(function, || {
        // SAFETY: this function's safety section makes `out` NULL (refused) or writable
        // for `count` elements `stride_bytes` apart, for this call.
        let out = unsafe { StridedOut::<SinewVec3>::new(out, count, stride_bytes, "out")? };
        with_world(world, |w| {
            let sink = |k, v| out.write(k, v);
            Ok(w.read_vec3(attribute, first, count, sink)?)
        })
    })
}

/// Sets `attribute` of particles `first..first+count` from a strided buffer.
///
/// # Safety
/// `values` must point to `(count-1)*stride_bytes + 12` readable bytes.
unsafe fn write_strided(
    function: Entry,
    world: SinewWorld,
    attribute: Vec3Attribute,
    first: u32,
    count: u32,
    values: *const c_void,
    stride_bytes: u32,
) -> SinewStatus {
    guard(function, || {
        let name = match attribute {
            Vec3Attribute::Position => "positions",
            Vec3Attribute::Velocity => "velocities",
        };
        let base = strided(values, count, stride_bytes, name)?;
        with_world(world, |w| {
            // SAFETY: k < count, within the span checked by `strided`.
            let get = |k| unsafe { read_at(base, stride_bytes, k) };
            Ok(w.write_vec3_with(attribute, first, count, get)?)
        })
    })
}

/// Copies positions (m) of particles `first..first+count` to `out`, one SinewVec3
/// every `stride_bytes` (12..=SINEW_MAX_STRIDE_BYTES; 12 = packed), e.g. straight into a vertex buffer.
///
/// # Safety
/// `out` must point to `(count-1)*stride_bytes + 12` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_positions(
    world: SinewWorld,
    first: u32,
    count: u32,
    out: *mut c_void,
    stride_bytes: u32,
) -> SinewStatus {
    let f = entry!();
    // SAFETY: the pointers go to `read_strided` unchanged, and this function's safety section
    // promises what `read_strided` needs: `out` is NULL (refused) or holds
    // `(count-1)*stride_bytes + 12` writable bytes.
    unsafe {
        read_strided(
            f,
            world,
            Vec3Attribute::Position,
            first,
            count,
            out,
            stride_bytes,
        )
    }
}

/// Moves particles `first..first+count` to `positions` (m), read every `stride_bytes`.
/// Velocities are kept.
///
/// # Safety
/// `positions` must point to `(count-1)*stride_bytes + 12` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_write_positions(
    world: SinewWorld,
    first: u32,
    count: u32,
    positions: *const c_void,
    stride_bytes: u32,
) -> SinewStatus {
    let f = entry!();
    // SAFETY: the pointers go to `write_strided` unchanged, and this function's safety section
    // promises what `write_strided` needs: the input is NULL (refused) or holds
    // `(count-1)*stride_bytes + 12` readable bytes.
    unsafe {
        write_strided(
            f,
            world,
            Vec3Attribute::Position,
            first,
            count,
            positions,
            stride_bytes,
        )
    }
}

/// Copies velocities (m/s) of particles `first..first+count` to `out` (strided).
///
/// # Safety
/// As `sinew_world_read_positions`.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_velocities(
    world: SinewWorld,
    first: u32,
    count: u32,
    out: *mut c_void,
    stride_bytes: u32,
) -> SinewStatus {
    let f = entry!();
    // SAFETY: the pointers go to `read_strided` unchanged, and this function's safety section
    // promises what `read_strided` needs: `out` is NULL (refused) or holds
    // `(count-1)*stride_bytes + 12` writable bytes.
    unsafe {
        read_strided(
            f,
            world,
            Vec3Attribute::Velocity,
            first,
            count,
            out,
            stride_bytes,
        )
    }
}

/// Sets velocities (m/s) of particles `first..first+count` (strided). Pinned particles
/// (inverse mass 0) keep velocity 0.
///
/// # Safety
/// As `sinew_world_write_positions`.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_write_velocities(
    world: SinewWorld,
    first: u32,
    count: u32,
    velocities: *const c_void,
    stride_bytes: u32,
) -> SinewStatus {
    let f = entry!();
    // SAFETY: the pointers go to `write_strided` unchanged, and this function's safety section
    // promises what `write_strided` needs: the input is NULL (refused) or holds
    // `(count-1)*stride_bytes + 12` readable bytes.
    unsafe {
        write_strided(
            f,
            world,
            Vec3Attribute::Velocity,
            first,
            count,
            velocities,
            stride_bytes,
        )
    }
}

/// Sets inverse masses (1/kg; 0 = pinned) of particles `first..first+count`. A fluid's
/// particles are refused with SINEW_ERROR_INVALID_ARGUMENT: their mass is the fluid's
/// rest_density × spacing³ (× spacing² in a planar world).
///
/// # Safety
/// `inverse_masses` must point to `count` readable floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_inverse_masses(
    world: SinewWorld,
    first: u32,
    count: u32,
    inverse_masses: *const f32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: the caller promises `count` readable floats.
        let w = unsafe { slice_from(inverse_masses, count as usize, "inverse_masses")? };
        with_world(world, |world| Ok(world.set_inverse_masses(first, w)?))
    })
}
