//! Granular materials through the C ABI: friction, rolling resistance and cohesion
//! between particles (src/particles/material.rs), set on a range of particles.

use super::bodies::{init_desc, read_desc};
use super::world::{with_world, SinewWorld};
use super::{answer, guard, FfiResult, SinewStatus};
use crate::particles::material::ParticleMaterial;

use super::settings::PARTICLE_MATERIAL_COOKIE;
pub use super::settings::{SinewParticleMaterial, SINEW_MAX_COHESION};

/// # Safety
/// `material` must be NULL or point to a readable SinewParticleMaterial.
unsafe fn material_desc(material: *const SinewParticleMaterial) -> FfiResult<ParticleMaterial> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            material,
            |d| d.internal_cookie,
            PARTICLE_MATERIAL_COOKIE,
            "sinew_particle_material_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// A particle material with every field at its default (frictionless, dry).
#[no_mangle]
pub extern "C" fn sinew_particle_material_default() -> SinewParticleMaterial {
    SinewParticleMaterial::from_rust(&ParticleMaterial::default())
}

/// Writes sinew_particle_material_default() to `*out` (for bindings that avoid by-value
/// structs).
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewParticleMaterial.
#[no_mangle]
pub unsafe extern "C" fn sinew_particle_material_init(
    out: *mut SinewParticleMaterial,
) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_particle_material_default()) }
}

/// Gives particles `first..first+count` the granular material `*material`: static and
/// dynamic friction, rolling resistance and cohesion (Pa) in their contacts with other
/// particles (a pair takes the mean of its two materials). Particles start frictionless;
/// only particles with a radius take part in contacts. A fluid's particles are refused
/// with SINEW_ERROR_INVALID_ARGUMENT, as are dynamic friction above static friction
/// and values out of range.
///
/// # Safety
/// `material` must point to a readable SinewParticleMaterial.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_particle_material(
    world: SinewWorld,
    first: u32,
    count: u32,
    material: *const SinewParticleMaterial,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `material` goes to `material_desc` unchanged; this function's safety
        // section promises what it needs.
        let m = unsafe { material_desc(material)? };
        with_world(world, |w| Ok(w.set_particle_material(first, count, &m)?))
    })
}

/// Writes the granular material of particle `index` to `*out_material`.
///
/// # Safety
/// `out_material` must point to writable memory for one SinewParticleMaterial.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_particle_material(
    world: SinewWorld,
    index: u32,
    out_material: *mut SinewParticleMaterial,
) -> SinewStatus {
    let body = || {
        let m = with_world(world, |w| Ok(w.particle_material(index)?))?;
        Ok(SinewParticleMaterial::from_rust(&m))
    };
    // SAFETY: `out_material` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_material, "out_material", body) }
}
