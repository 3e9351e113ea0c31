//! Wind and aerodynamics through the C ABI: the world's air and uniform wind, wind
//! zones (box or sphere), the air velocity at a point, and each cloth's or rope's drag
//! and lift coefficients. Every setter may be called every frame (src/aero.rs).

use super::bodies::{init_desc, read_desc, SinewBody};
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{answer, guard, non_null, FfiResult, SinewStatus};
use crate::aero::{WindDesc, WindZoneDesc};
use crate::bodies::BodyId;
use crate::math::Vec3;

pub use super::settings::{
    SinewWindDesc, SinewWindZoneDesc, SINEW_MAX_AERO_COEFFICIENT, SINEW_MAX_AIR_DENSITY,
    SINEW_MAX_WIND_SPEED,
};
use super::settings::{WIND_DESC_COOKIE, WIND_ZONE_DESC_COOKIE};

/// Values of `SinewWindZoneDesc::shape` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewWindZoneShape {
    /// An oriented box: position, rotation, half_extents (default).
    SINEW_WIND_ZONE_BOX = 0,
    /// A sphere: position, radius.
    SINEW_WIND_ZONE_SPHERE = 1,
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewWindDesc.
unsafe fn wind_desc(desc: *const SinewWindDesc) -> FfiResult<WindDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            WIND_DESC_COOKIE,
            "sinew_wind_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewWindZoneDesc.
unsafe fn zone_desc(desc: *const SinewWindZoneDesc) -> FfiResult<WindZoneDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            WIND_ZONE_DESC_COOKIE,
            "sinew_wind_zone_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// A wind desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_wind_desc_default() -> SinewWindDesc {
    SinewWindDesc::from_rust(&WindDesc::default())
}

/// Writes sinew_wind_desc_default() to `*out` (for bindings that avoid by-value structs).
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewWindDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_wind_desc_init(out: *mut SinewWindDesc) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_wind_desc_default()) }
}

/// A wind zone desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_wind_zone_desc_default() -> SinewWindZoneDesc {
    SinewWindZoneDesc::from_rust(&WindZoneDesc::default())
}

/// Writes sinew_wind_zone_desc_default() to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewWindZoneDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_wind_zone_desc_init(out: *mut SinewWindZoneDesc) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_wind_zone_desc_default()) }
}

/// Sets the world's air density, uniform wind and turbulence; next step on. Call it
/// every frame for gusts.
///
/// # Safety
/// `desc` must point to a readable SinewWindDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_wind(
    world: SinewWorld,
    desc: *const SinewWindDesc,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `desc` goes to `wind_desc` unchanged; this function's safety section
        // promises what it needs.
        let d = unsafe { wind_desc(desc)? };
        with_world(world, |w| Ok(w.set_wind(&d)?))
    })
}

/// Adds a wind zone; `*out_zone` receives its id (0, 1, ...; never reused).
///
/// # Safety
/// `desc` must point to a readable SinewWindZoneDesc, `out_zone` to one writable
/// uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_wind_zone(
    world: SinewWorld,
    desc: *const SinewWindZoneDesc,
    out_zone: *mut u32,
) -> SinewStatus {
    let body = || {
        // SAFETY: `desc` goes to `zone_desc` unchanged; this function's safety section
        // promises what it needs.
        let d = unsafe { zone_desc(desc)? };
        with_world(world, |w| Ok(w.add_wind_zone(&d)?))
    };
    // SAFETY: `out_zone` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_zone, "out_zone", body) }
}

/// Replaces the settings of wind zone `zone` (move it, change its strength...); next
/// step on.
///
/// # Safety
/// `desc` must point to a readable SinewWindZoneDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_wind_zone(
    world: SinewWorld,
    zone: u32,
    desc: *const SinewWindZoneDesc,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `desc` goes to `zone_desc` unchanged; this function's safety section
        // promises what it needs.
        let d = unsafe { zone_desc(desc)? };
        with_world(world, |w| Ok(w.set_wind_zone(zone, &d)?))
    })
}

/// Removes wind zone `zone` (its id is not reused).
#[no_mangle]
pub extern "C" fn sinew_world_remove_wind_zone(world: SinewWorld, zone: u32) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| Ok(w.remove_wind_zone(zone)?))
    })
}

/// Writes the air velocity (m/s) at `*position` (m) at the world's current time: the
/// uniform wind, its turbulence and every zone.
///
/// # Safety
/// `position` must point to a readable SinewVec3, `out_velocity` to a writable one.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_wind_at(
    world: SinewWorld,
    position: *const SinewVec3,
    out_velocity: *mut SinewVec3,
) -> SinewStatus {
    let body = || {
        non_null(position, "position")?;
        // SAFETY: `position` is non-null (checked above) and, by this function's safety
        // section, points to one readable value; `read_unaligned` needs no alignment.
        let p = Vec3::from(unsafe { position.read_unaligned() });
        Ok(with_world(world, |w| Ok(w.wind_at(p)?))?.into())
    };
    // SAFETY: `out_velocity` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_velocity, "out_velocity", body) }
}

/// Sets a cloth's or rope's drag and lift coefficients (dimensionless, in [0, 10]; both
/// 0, the default, = no aerodynamics). Cloth: drag and lift per triangle. Rope (lift
/// must be 0; C_d = drag): per link of length L on the cylinder of its radius r, w_n, w_t
/// the parts of the link's velocity relative to the air across and along it: the
/// cross-flow drag −½ ρ C_d (2 r L) |w_n| w_n plus the skin friction
/// −½ ρ C_f (π 2 r L) |w_t| w_t on the wetted area, C_f = C_d / 80 (0.015 at C_d = 1.2;
/// a cylinder in axial flow has C_f ≈ 0.01–0.02: Hoerner, "Fluid-Dynamic Drag", 1965).
/// Soft bodies are refused.
#[no_mangle]
pub extern "C" fn sinew_body_set_aerodynamics(
    world: SinewWorld,
    body: SinewBody,
    drag: f32,
    lift: f32,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.set_body_aerodynamics(BodyId(body.id), drag, lift)?)
        })
    })
}
