//! Wind and aerodynamics through the C ABI: the world's air and uniform wind, wind
//! zones (box or sphere), the air velocity at a point, and each cloth's or rope's drag
//! and lift coefficients. Every setter may be called every frame (src/aero.rs).

use super::bodies::{init_desc, read_desc, SinewBody};
use super::world::{with_world, SinewQuat, SinewVec3, SinewWorld};
use super::{answer, guard, non_null, Failure, FfiResult, SinewStatus};
use crate::aero::{WindDesc, WindZoneDesc, WindZoneShape};
use crate::bodies::BodyId;
use crate::math::Vec3;

pub use super::settings::{
    SINEW_MAX_AERO_COEFFICIENT, SINEW_MAX_AIR_DENSITY, SINEW_MAX_WIND_SPEED,
};

const WIND_COOKIE: u32 = 0x5E1E_0301;
const WIND_ZONE_COOKIE: u32 = 0x5E1E_0302;

/// The world's air and uniform wind (sinew_world_set_wind). Start from
/// sinew_wind_desc_default().
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewWindDesc {
    /// Uniform wind velocity (m/s), default (0, 0, 0); components within ±1e4.
    pub velocity: SinewVec3,
    /// Air density (kg/m³), default 1.225; in [0, 1e4].
    pub air_density: f32,
    /// Turbulence amplitude (m/s per component) of the uniform wind, default 0; in [0, 1e4].
    pub turbulence: f32,
    /// Length scale of the turbulence noise (m), default 2; in [1e-3, 1e9].
    pub turbulence_scale: f32,
    /// Time frequency of the turbulence noise (Hz), default 1; in [0, 1e3].
    pub turbulence_frequency: f32,
    /// Set by sinew_wind_desc_default(); a desc not made by it is refused.
    pub internal_cookie: u32,
}

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

/// A wind zone (sinew_world_add_wind_zone). Start from sinew_wind_zone_desc_default().
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewWindZoneDesc {
    /// A SinewWindZoneShape, default SINEW_WIND_ZONE_BOX.
    pub shape: u32,
    /// Centre (m), default (0, 0, 0).
    pub position: SinewVec3,
    /// Box orientation (unit quaternion, normalised on input), default identity.
    pub rotation: SinewQuat,
    /// Box half extents (m, each > 0), default (1, 1, 1).
    pub half_extents: SinewVec3,
    /// Sphere radius (m, > 0), default 1.
    pub radius: f32,
    /// Direction the wind blows (world frame, normalised on input), default (1, 0, 0);
    /// (0, 0, 0) = radially outward from the centre.
    pub direction: SinewVec3,
    /// Wind speed along the direction (m/s), default 5; in [0, 1e4].
    pub strength: f32,
    /// Turbulence amplitude (m/s per component), default 0; in [0, 1e4].
    pub turbulence: f32,
    /// Outer fraction of the zone over which the wind fades to 0, in [0, 1], default 0.
    pub falloff: f32,
    /// Set by sinew_wind_zone_desc_default(); a desc not made by it is refused.
    pub internal_cookie: u32,
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
            WIND_COOKIE,
            "sinew_wind_desc_default",
        )?
    };
    Ok(WindDesc {
        velocity: d.velocity.into(),
        air_density: d.air_density,
        turbulence: d.turbulence,
        turbulence_scale: d.turbulence_scale,
        turbulence_frequency: d.turbulence_frequency,
    })
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
            WIND_ZONE_COOKIE,
            "sinew_wind_zone_desc_default",
        )?
    };
    let shape = match d.shape {
        0 => WindZoneShape::Box,
        1 => WindZoneShape::Sphere,
        s => {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!("shape {s} is not a SinewWindZoneShape (0 = box, 1 = sphere)"),
            ))
        }
    };
    Ok(WindZoneDesc {
        shape,
        position: d.position.into(),
        rotation: d.rotation.into(),
        half_extents: d.half_extents.into(),
        radius: d.radius,
        direction: d.direction.into(),
        strength: d.strength,
        turbulence: d.turbulence,
        falloff: d.falloff,
    })
}

/// A wind desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_wind_desc_default() -> SinewWindDesc {
    let d = WindDesc::default();
    SinewWindDesc {
        velocity: d.velocity.into(),
        air_density: d.air_density,
        turbulence: d.turbulence,
        turbulence_scale: d.turbulence_scale,
        turbulence_frequency: d.turbulence_frequency,
        internal_cookie: WIND_COOKIE,
    }
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
    let d = WindZoneDesc::default();
    let q = d.rotation;
    SinewWindZoneDesc {
        shape: SinewWindZoneShape::SINEW_WIND_ZONE_BOX as u32,
        position: d.position.into(),
        rotation: SinewQuat {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        },
        half_extents: d.half_extents.into(),
        radius: d.radius,
        direction: d.direction.into(),
        strength: d.strength,
        turbulence: d.turbulence,
        falloff: d.falloff,
        internal_cookie: WIND_ZONE_COOKIE,
    }
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
/// 0, the default, = no aerodynamics). Cloth: drag and lift per triangle; rope: drag
/// per link on the cylinder of its radius (lift must be 0). Soft bodies are refused.
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
