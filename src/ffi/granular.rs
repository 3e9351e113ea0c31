//! Granular materials through the C ABI: friction, rolling resistance and cohesion
//! between particles (src/particles/material.rs), set on a range of particles, and
//! the grain emitters that pour them (src/fluid/grains.rs).

use super::bodies::{init_desc, read_desc};
use super::fluids::{emitter_desc, SinewEmitterDesc};
use super::world::{with_world, SinewWorld};
use super::{answer, guard, FfiResult, SinewStatus};
use crate::fluid::grains::{GrainEmitterDesc, GrainEmitterId};
use crate::particles::material::ParticleMaterial;

pub use super::settings::{
    SinewGrainEmitterDesc, SinewParticleMaterial, SINEW_MAX_COHESION, SINEW_MAX_GRAIN_BUDGET,
};
use super::settings::{GRAIN_EMITTER_DESC_COOKIE, PARTICLE_MATERIAL_COOKIE};

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

/// A grain emitter handle, passed by value; 0 is null. Valid in the world that issued
/// it (the header's "Handles" paragraph); a removed emitter's id is rejected with
/// SINEW_ERROR_INVALID_HANDLE.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewGrainEmitter {
    pub id: u64,
}

/// A grain emitter's particles and counts (sinew_grain_emitter_stats): its grains are
/// world particles `first..first+emitted`; `budget` particles are reserved; `held`
/// counts the grains held so far because their spot was occupied (each step a due
/// grain waits for room counts once; saturating).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewGrainEmitterStats {
    pub first: u32,
    pub budget: u32,
    pub emitted: u32,
    pub held: u32,
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewGrainEmitterDesc.
unsafe fn grains_desc(desc: *const SinewGrainEmitterDesc) -> FfiResult<GrainEmitterDesc> {
    // SAFETY: the pointer goes to `read_desc` unchanged; this function's safety section
    // promises what it needs: NULL (refused) or one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            GRAIN_EMITTER_DESC_COOKIE,
            "sinew_grain_emitter_desc_default",
        )?
    };
    Ok(d.to_rust()?)
}

/// A grain emitter desc with every field at its default (a budget of 1000 grains of
/// 2 cm radius and quartz density 2650 kg/m³ on layer 1, colliding with every layer).
#[no_mangle]
pub extern "C" fn sinew_grain_emitter_desc_default() -> SinewGrainEmitterDesc {
    SinewGrainEmitterDesc::from_rust(&GrainEmitterDesc::default())
}

/// Writes sinew_grain_emitter_desc_default() to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewGrainEmitterDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_grain_emitter_desc_init(
    out: *mut SinewGrainEmitterDesc,
) -> SinewStatus {
    // SAFETY: `out` goes to `init_desc` unchanged; this function's safety section is its.
    unsafe { init_desc(entry!(), out, sinew_grain_emitter_desc_default()) }
}

/// Adds a grain emitter: it reserves `grains->budget` world particles (inert until
/// emitted) and from the next step on pours grains of `grains->grain_radius` and
/// `grains->grain_density`, with the collision filter of `*grains` and the granular
/// material `*material`, from the shape of `*stream` (a nozzle, a point as a nozzle of
/// radius 0, or a box) at `stream->rate` grains per second with `stream->speed` along
/// its local +Z, until the budget is used; deterministic. `*out_emitter` receives its
/// handle. Values out of range are refused with SINEW_ERROR_INVALID_ARGUMENT.
///
/// # Safety
/// `grains`, `stream` and `material` must point to one readable SinewGrainEmitterDesc,
/// SinewEmitterDesc and SinewParticleMaterial, `out_emitter` to one writable
/// SinewGrainEmitter.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_grain_emitter(
    world: SinewWorld,
    grains: *const SinewGrainEmitterDesc,
    stream: *const SinewEmitterDesc,
    material: *const SinewParticleMaterial,
    out_emitter: *mut SinewGrainEmitter,
) -> SinewStatus {
    let body = || {
        // SAFETY: each pointer goes to its reader unchanged; this function's safety
        // section promises what they need.
        let (g, s, m) = unsafe {
            (
                grains_desc(grains)?,
                emitter_desc(stream)?,
                material_desc(material)?,
            )
        };
        let id = with_world(world, |w| Ok(w.add_grain_emitter(&g, &s, &m)?))?;
        Ok(SinewGrainEmitter { id: id.0 })
    };
    // SAFETY: `out_emitter` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_emitter, "out_emitter", body) }
}

/// Moves or retunes a grain emitter's stream (shape, position, rotation, speed, rate;
/// a rate of 0 pauses it); its budget, grains and material stay. Next step on.
///
/// # Safety
/// `stream` must point to a readable SinewEmitterDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_grain_emitter_set(
    world: SinewWorld,
    emitter: SinewGrainEmitter,
    stream: *const SinewEmitterDesc,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `stream` goes to `emitter_desc` unchanged; this function's safety
        // section promises what it needs.
        let s = unsafe { emitter_desc(stream)? };
        with_world(world, |w| {
            Ok(w.set_grain_emitter(GrainEmitterId(emitter.id), &s)?)
        })
    })
}

/// Removes a grain emitter: its grains stay (ordinary particles), its unused particles
/// stay inert; its handle becomes invalid.
#[no_mangle]
pub extern "C" fn sinew_grain_emitter_remove(
    world: SinewWorld,
    emitter: SinewGrainEmitter,
) -> SinewStatus {
    guard(entry!(), || {
        with_world(world, |w| {
            Ok(w.remove_grain_emitter(GrainEmitterId(emitter.id))?)
        })
    })
}

/// Writes a grain emitter's particle range and counts (emitted, held for want of room)
/// to `*out_stats`.
///
/// # Safety
/// `out_stats` must be NULL or point to writable memory for one SinewGrainEmitterStats.
#[no_mangle]
pub unsafe extern "C" fn sinew_grain_emitter_stats(
    world: SinewWorld,
    emitter: SinewGrainEmitter,
    out_stats: *mut SinewGrainEmitterStats,
) -> SinewStatus {
    let body = || {
        let s = with_world(world, |w| {
            Ok(w.grain_emitter_stats(GrainEmitterId(emitter.id))?)
        })?;
        Ok(SinewGrainEmitterStats {
            first: s.first,
            budget: s.budget,
            emitted: s.emitted,
            held: s.held,
        })
    };
    // SAFETY: `out_stats` goes to `answer` unchanged; this function's safety section
    // promises it is NULL (refused) or writable for one value.
    unsafe { answer(entry!(), out_stats, "out_stats", body) }
}
