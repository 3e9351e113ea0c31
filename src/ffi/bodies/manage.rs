//! Bodies after they are built, through the C ABI: removal, count, particle range,
//! info, strided position readback, per-body compliance, damping and pressure, volume.

use super::*;

/// Removes a body. Its particles keep their indices but become inert (inverse mass 0,
/// they stay where they are); its constraints and the attachments on its particles
/// stop acting. Other bodies' indices and motion are unchanged. The handle becomes
/// invalid: removing it again gives SINEW_ERROR_INVALID_HANDLE.
#[no_mangle]
pub extern "C" fn sinew_world_remove_body(world: SinewWorld, body: SinewBody) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.remove_body(BodyId(body.id))?))
    })
}

/// Writes the number of live bodies to `*out_count`.
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_body_count(
    world: SinewWorld,
    out_count: *mut u32,
) -> SinewStatus {
    // SAFETY: the pointers go to `query_u32` unchanged, and this function's safety section
    // promises what `query_u32` needs: `out_count` is NULL (refused) or points to one writable
    // uint32_t.
    unsafe { query_u32(entry!(), world, out_count, World::body_count) }
}

/// Writes the body's particles (`first..first+count`, world particle indices) to
/// `*out_first` and `*out_count`.
///
/// # Safety
/// `out_first` and `out_count` must point to one writable uint32_t each.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_particle_range(
    world: SinewWorld,
    body: SinewBody,
    out_first: *mut u32,
    out_count: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_first, "out_first")?;
        non_null(out_count, "out_count")?;
        let (first, count) = with_world(world, |w| Ok(w.body_particle_range(BodyId(body.id))?))?;
        // SAFETY: `out_first` and `out_count` are non-null (checked by `non_null` above) and,
        // by this function's safety section, each points to one writable uint32_t;
        // `write_unaligned` needs no alignment.
        unsafe {
            out_first.write_unaligned(first);
            out_count.write_unaligned(count);
        }
        Ok(())
    })
}

/// Writes what the body is (kind, particles, rope radius, damping) to `*out_info`.
///
/// # Safety
/// `out_info` must point to one writable SinewBodyInfo.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_info(
    world: SinewWorld,
    body: SinewBody,
    out_info: *mut SinewBodyInfo,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_info, "out_info")?;
        let info = with_world(world, |w| {
            let b = w.body(BodyId(body.id))?;
            Ok(SinewBodyInfo {
                kind: match b.kind {
                    BodyKind::Rope => SinewBodyKind::SINEW_BODY_ROPE,
                    BodyKind::Cloth => SinewBodyKind::SINEW_BODY_CLOTH,
                    BodyKind::TetSoftBody => SinewBodyKind::SINEW_BODY_TET_SOFT_BODY,
                    BodyKind::PressureSoftBody => SinewBodyKind::SINEW_BODY_PRESSURE_SOFT_BODY,
                } as u32,
                first_particle: b.particles.start,
                particle_count: b.particles.end - b.particles.start,
                radius: b.radius,
                damping: b.damping,
            })
        })?;
        // SAFETY: `out_info` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out_info.write_unaligned(info) };
        Ok(())
    })
}

/// Copies the positions (m) of all the body's particles to `out`, one SinewVec3 every
/// `stride_bytes` (12..=SINEW_MAX_STRIDE_BYTES), e.g. straight into a vertex buffer; `capacity` is the number
/// of elements `out` holds (at least the body's particle count).
///
/// # Safety
/// `out` must point to `(capacity-1)*stride_bytes + 12` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_read_positions(
    world: SinewWorld,
    body: SinewBody,
    out: *mut c_void,
    capacity: u32,
    stride_bytes: u32,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: this function's safety section makes `out` NULL (refused) or writable
        // for `capacity` elements `stride_bytes` apart, for this call.
        let out = unsafe { StridedOut::<SinewVec3>::new(out, capacity, stride_bytes, "out")? };
        with_world(world, |w| {
            let (first, count) = w.body_particle_range(BodyId(body.id))?;
            check_capacity(capacity, count, || format!("the body's {count} particles"))?;
            let sink = |k, v| out.write(k, v);
            Ok(w.read_positions(first, count, sink)?)
        })
    })
}

/// Sets the compliance of one of the body's constraint groups (`which` a
/// SinewBodyConstraints; units per group) from the next step on.
#[no_mangle]
pub extern "C" fn sinew_body_set_compliance(
    world: SinewWorld,
    body: SinewBody,
    which: u32,
    compliance: f32,
) -> SinewStatus {
    guard(entry!(), || {
        let which = body_constraints(which)?;
        with_world(world, |w| {
            Ok(w.set_body_compliance(BodyId(body.id), which, compliance)?)
        })
    })
}

/// Writes |λ|/h² (N) of the body's length constraints of group `which` in the last
/// substep of the last step (0 before the first step), in the order the builder made
/// them, to `out`: SINEW_BODY_STRETCH the links and edges (a rope's from start to end:
/// its tension, the link's own force plus that of every tether spanning it, so the
/// weight below a link reads the same with tethers on or off), SINEW_BODY_SHEAR the grid diagonals, SINEW_BODY_BEND a rope's (i, i+2) links or a
/// cloth's distance bending, SINEW_BODY_TETHER the tethers. Angle, strain and volume
/// constraints are not length constraints and are not included (their group may read
/// as 0 constraints). `capacity` is the number of floats `out` holds; `*out_count`
/// receives the group's size; `out` is written only when it fits. `out` NULL with
/// `capacity` 0 asks for the size only.
///
/// # Safety
/// `out` must point to `capacity` writable floats or be NULL with `capacity` 0,
/// `out_count` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_read_forces(
    world: SinewWorld,
    body: SinewBody,
    which: u32,
    out: *mut f32,
    capacity: u32,
    out_count: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_count, "out_count")?;
        let which = body_constraints(which)?;
        let n = with_world(world, |w| {
            let id = BodyId(body.id);
            let n = w.body_force_count(id, which)?;
            if out.is_null() && capacity == 0 {
                return Ok(n as u32); // a size query
            }
            if n > capacity as usize {
                return Err(Failure::new(
                    SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
                    format!("the group has {n} constraints, out holds {capacity}"),
                ));
            }
            if n > 0 {
                // SAFETY: `out` points to `capacity` >= n writable floats (this function's
                // safety section; n <= capacity checked above); `slice_from_mut` checks
                // non-null and alignment, and the slice lives only for this call.
                let out = unsafe { slice_from_mut(out, n, "out")? };
                w.read_body_forces(id, which, out)?;
            }
            Ok(n as u32)
        })?;
        // SAFETY: `out_count` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out_count.write_unaligned(n) };
        Ok(())
    })
}

/// Sets the body's extra velocity damping (1/s, >= 0) from the next step on.
#[no_mangle]
pub extern "C" fn sinew_body_set_damping(
    world: SinewWorld,
    body: SinewBody,
    damping: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.set_body_damping(BodyId(body.id), damping)?))
    })
}

/// Sets the overpressure factor (in (0, 100]) of a pressure soft body.
#[no_mangle]
pub extern "C" fn sinew_body_set_pressure(
    world: SinewWorld,
    body: SinewBody,
    pressure: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.set_body_pressure(BodyId(body.id), pressure)?)
        })
    })
}

/// Writes the current volume (m³) of a soft body (the enclosed volume of a pressure
/// body, the summed tet volume of a tet body) to `*out_volume`.
///
/// # Safety
/// `out_volume` must point to one writable float.
#[no_mangle]
pub unsafe extern "C" fn sinew_body_volume(
    world: SinewWorld,
    body: SinewBody,
    out_volume: *mut f32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_volume, "out_volume")?;
        let v = with_world(world, |w| Ok(w.body_volume(BodyId(body.id))?))?;
        // SAFETY: `out_volume` is non-null (checked by `non_null` above) and, by this
        // function's safety section, points to writable memory for one value; `write_unaligned`
        // needs no alignment.
        unsafe { out_volume.write_unaligned(v) };
        Ok(())
    })
}

/// A `SinewBodyConstraints` value from the C ABI.
fn body_constraints(which: u32) -> FfiResult<BodyConstraints> {
    Ok(match which {
        0 => BodyConstraints::Stretch,
        1 => BodyConstraints::Shear,
        2 => BodyConstraints::Bend,
        3 => BodyConstraints::Tether,
        4 => BodyConstraints::Volume,
        v => {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!("which {v} is not a SinewBodyConstraints (0..=4)"),
            ))
        }
    })
}
