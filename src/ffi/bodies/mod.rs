//! Bodies: rope, cloth (mesh and grid), tet and pressure soft bodies; removal, particle
//! range, strided position readback, per-body parameter setters; material presets.
//!
//! Every desc has a `*_desc_default()` (by value) and a `*_desc_init(out)` twin
//! (pointer-out, for bindings that must not pass structs by value); both set
//! `internal_cookie`, and a desc without it is refused.

//!
//! The functions are split by area: the descs and their defaults here, building
//! bodies in `build.rs`, removal, readback and per-body settings in `manage.rs`.

use std::ffi::c_void;

use super::readback::{check_capacity, StridedOut};
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{
    answer, guard, non_null, optional_slice_from, query_u32, slice_from, slice_from_mut, tuples,
    Entry, Failure, FfiResult, SinewStatus,
};
use crate::bodies::cloth::{BendingModel, ClothDesc, ClothGridDesc, ClothModel};
use crate::bodies::rope::RopeDesc;
use crate::bodies::soft::{PressureBodyDesc, TetBodyDesc, TetModel};
use crate::bodies::{BodyConstraints, BodyId, BodyKind};
use crate::math::Vec3;
use crate::World;

mod build;
mod manage;

pub use build::*;
pub use manage::*;

/// Compliance (m²/N, the inverse of Young's modulus) of concrete, from the CEDEC 2017
/// XPBD slides of Nakagawa, "Position Based Dynamics Combo", CEDEC 2017. A starting point for the compliance of a material.
pub const SINEW_MATERIAL_CONCRETE: f32 = 0.04e-9;
/// Wood, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).
pub const SINEW_MATERIAL_WOOD: f32 = 0.16e-9;
/// Leather, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).
pub const SINEW_MATERIAL_LEATHER: f32 = 1.0e-8;
/// Tendon, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).
pub const SINEW_MATERIAL_TENDON: f32 = 0.2e-7;
/// Rubber, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).
pub const SINEW_MATERIAL_RUBBER: f32 = 1.0e-6;
/// Muscle, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).
pub const SINEW_MATERIAL_MUSCLE: f32 = 0.2e-3;
/// Fat, m²/N (Nakagawa, "Position Based Dynamics Combo", CEDEC 2017).
pub const SINEW_MATERIAL_FAT: f32 = 1.0e-3;

/// A body handle, passed by value; valid in the world that made it. 0 is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewBody {
    pub id: u64,
}

/// Values of `SinewClothDesc::bending` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewBendingModel {
    /// No bending constraints.
    SINEW_BENDING_NONE = 0,
    /// A link between the wings of each interior edge (m/N).
    SINEW_BENDING_DISTANCE = 1,
    /// Dihedral angle, rad/(N·m) (default).
    SINEW_BENDING_DIHEDRAL = 2,
    /// Isometric (Bergou 2006), 1/(N·m); for cloth flat at rest.
    SINEW_BENDING_ISOMETRIC = 3,
}

/// Values of the `which` argument of sinew_body_set_compliance (`uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewBodyConstraints {
    /// Edges: rope links, cloth and soft-body edges (m/N).
    SINEW_BODY_STRETCH = 0,
    /// Cloth grid diagonals (m/N).
    SINEW_BODY_SHEAR = 1,
    /// Bending (units of the model).
    SINEW_BODY_BEND = 2,
    /// Tethers (m/N).
    SINEW_BODY_TETHER = 3,
    /// Tet volumes (1/(N·m)) or the pressure surface (m⁵/N).
    SINEW_BODY_VOLUME = 4,
}

/// Values of `SinewBodyInfo::kind`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewBodyKind {
    SINEW_BODY_ROPE = 0,
    SINEW_BODY_CLOTH = 1,
    SINEW_BODY_TET_SOFT_BODY = 2,
    SINEW_BODY_PRESSURE_SOFT_BODY = 3,
}

/// What sinew_body_info reports about a body.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewBodyInfo {
    /// A SinewBodyKind.
    pub kind: u32,
    /// Its particles are first_particle..first_particle+particle_count.
    pub first_particle: u32,
    pub particle_count: u32,
    /// Rope radius (m) from its desc; 0 for other bodies.
    pub radius: f32,
    /// Extra velocity damping (1/s).
    pub damping: f32,
}

const ROPE_COOKIE: u32 = 0x5E1E_0201;
const CLOTH_COOKIE: u32 = 0x5E1E_0202;
const GRID_COOKIE: u32 = 0x5E1E_0203;
const TET_COOKIE: u32 = 0x5E1E_0204;
const PRESSURE_COOKIE: u32 = 0x5E1E_0205;

/// How to build a rope (sinew_world_add_rope). Start from sinew_rope_desc_default().
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewRopeDesc {
    /// First end (m), default (0, 0, 0). Ignored by sinew_world_add_rope_polyline.
    pub start: SinewVec3,
    /// Second end (m), default (1, 0, 0). Ignored by the polyline variant.
    pub end: SinewVec3,
    /// Segments between start and end, default 20. Ignored by the polyline variant.
    pub segments: u32,
    /// Total mass (kg), spread evenly over the particles, default 1.
    pub total_mass: f32,
    /// Radius (m) for rendering and collision, >= 0, default 0.01.
    pub radius: f32,
    /// Compliance of the links (m/N), default 0 (inextensible).
    pub stretch_compliance: f32,
    /// Compliance of the (i, i+2) bend links (m/N), default 0.01.
    pub bend_compliance: f32,
    /// 1 = tethers from each pinned end to every particle (default), 0 = none.
    pub tethers: u32,
    /// 1 = pin the first particle (default), 0 = free.
    pub pin_start: u32,
    /// 1 = pin the last particle, 0 = free (default).
    pub pin_end: u32,
    /// Extra velocity damping of the rope (1/s), default 0.
    pub damping: f32,
    /// Set by sinew_rope_desc_default(); a desc not made by it is refused.
    pub internal_cookie: u32,
}

/// Values of `SinewClothDesc::model` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewClothModel {
    /// A link on every edge; grid diagonals are shear links (default).
    SINEW_CLOTH_EDGES = 0,
    /// Strain-based: warp stretch, weft stretch and shear per triangle.
    SINEW_CLOTH_STRAIN = 1,
}

/// The material of a cloth (mesh or grid). Start from sinew_cloth_desc_default().
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewClothDesc {
    /// A SinewClothModel, default SINEW_CLOTH_EDGES.
    pub model: u32,
    /// Edges: compliance of the edges (m/N). Strain: of the warp stretch (1/(N·m)).
    /// Default 0.
    pub stretch_compliance: f32,
    /// Strain model only: compliance of the weft stretch (1/(N·m)), default 0.
    pub weft_compliance: f32,
    /// Edges: compliance of the grid diagonals (m/N; unused for meshes). Strain: of the
    /// shear components (1/(N·m)). Default 1e-4.
    pub shear_compliance: f32,
    /// Strain model: the warp direction (a grid uses its u edge), default (1, 0, 0).
    pub warp: SinewVec3,
    /// Compliance of the bending constraints (units of the model), default 1.
    pub bend_compliance: f32,
    /// A SinewBendingModel, default SINEW_BENDING_DIHEDRAL.
    pub bending: u32,
    /// 1 = tether free vertices to the nearest pinned ones (default), 0 = none.
    pub tethers: u32,
    /// Extra velocity damping (1/s), default 0.
    pub damping: f32,
    /// Set by sinew_cloth_desc_default(); a desc not made by it is refused.
    pub internal_cookie: u32,
}

/// A rectangular cloth grid: vertex (i, j) at origin + u*i/segments_u + v*j/segments_v,
/// index j*(segments_u+1) + i. Start from sinew_cloth_grid_desc_default().
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewClothGridDesc {
    /// m, default (0, 0, 0).
    pub origin: SinewVec3,
    /// Full width edge (m), default (1, 0, 0).
    pub u: SinewVec3,
    /// Full height edge (m), default (0, 0, 1).
    pub v: SinewVec3,
    /// Cells along u, 1..=4096, default 20.
    pub segments_u: u32,
    /// Cells along v, 1..=4096, default 20.
    pub segments_v: u32,
    /// Total mass (kg), default 1.
    pub total_mass: f32,
    /// Pinned corners: 1 = (0,0), 2 = (u,0), 4 = (0,v), 8 = (u,v); default 0.
    pub pin_corners: u32,
    /// Set by sinew_cloth_grid_desc_default(); a desc not made by it is refused.
    pub internal_cookie: u32,
}

/// Values of `SinewTetBodyDesc::model` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewTetModel {
    /// A link on every tet edge plus a volume constraint per tet (default).
    SINEW_TET_EDGES_AND_VOLUME = 0,
    /// Strain-based: stretch x, y, z and shear per tet, plus volume.
    SINEW_TET_STRAIN = 1,
}

/// A tetrahedral soft body. Start from sinew_tet_body_desc_default().
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewTetBodyDesc {
    /// Total mass (kg), lumped by tet volume when no inverse masses are given; default 1.
    pub total_mass: f32,
    /// A SinewTetModel, default SINEW_TET_EDGES_AND_VOLUME.
    pub model: u32,
    /// Edges model: compliance of the tet edges (m/N). Strain model: of the stretch
    /// components (1/(N·m)). Default 1e-4.
    pub stretch_compliance: f32,
    /// Strain model only: compliance of the shear components (1/(N·m)), default 1e-4.
    pub shear_compliance: f32,
    /// Compliance of the tet volumes (1/(N·m)), default 0.
    pub volume_compliance: f32,
    /// Extra velocity damping (1/s), default 0.
    pub damping: f32,
    /// Set by sinew_tet_body_desc_default(); a desc not made by it is refused.
    pub internal_cookie: u32,
}

/// A closed-surface (pressure) soft body. Start from sinew_pressure_body_desc_default().
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinewPressureBodyDesc {
    /// Total mass (kg), lumped by triangle area when no inverse masses are given;
    /// default 1.
    pub total_mass: f32,
    /// Compliance of the surface edges (m/N), default 1e-4.
    pub stretch_compliance: f32,
    /// Overpressure factor: the body keeps pressure x its rest volume; (0, 100],
    /// default 1.
    pub pressure: f32,
    /// Compliance of the volume constraint (m⁵/N), default 0.
    pub volume_compliance: f32,
    /// Extra velocity damping (1/s), default 0.
    pub damping: f32,
    /// Set by sinew_pressure_body_desc_default(); a desc not made by it is refused.
    pub internal_cookie: u32,
}

fn flag(v: u32, name: &str) -> FfiResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Failure::new(
            SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
            format!("{name} is {v}: must be 0 or 1"),
        )),
    }
}

/// Reads a desc and checks its cookie.
///
/// # Safety
/// `desc` must be NULL or point to a readable T.
pub(crate) unsafe fn read_desc<T: Copy>(
    desc: *const T,
    cookie_of: impl Fn(&T) -> u32,
    cookie: u32,
    initialiser: &str,
) -> FfiResult<T> {
    non_null(desc, "desc")?;
    // SAFETY: `desc` is non-null (checked by `non_null` above) and, by this function's safety
    // section, points to one readable value; `read_unaligned` needs no alignment.
    let d = unsafe { desc.read_unaligned() };
    if cookie_of(&d) != cookie {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
            format!("desc was not initialised by {initialiser}() (or {initialiser}_init)")
                .replace("_default()_init", "_init"),
        ));
    }
    Ok(d)
}

/// Writes a default desc to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one T.
pub(crate) unsafe fn init_desc<T>(function: Entry, out: *mut T, value: T) -> SinewStatus {
    // SAFETY: `out` goes to `answer` unchanged; this function's safety section is
    // `answer`'s.
    unsafe { answer(function, out, "out", || Ok(value)) }
}

/// A rope desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_rope_desc_default() -> SinewRopeDesc {
    let d = RopeDesc::default();
    SinewRopeDesc {
        start: d.start.into(),
        end: d.end.into(),
        segments: d.segments,
        total_mass: d.total_mass,
        radius: d.radius,
        stretch_compliance: d.stretch_compliance,
        bend_compliance: d.bend_compliance,
        tethers: d.tethers as u32,
        pin_start: d.pin_start as u32,
        pin_end: d.pin_end as u32,
        damping: d.damping,
        internal_cookie: ROPE_COOKIE,
    }
}

/// Writes sinew_rope_desc_default() to `*out` (for bindings that avoid by-value structs).
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewRopeDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_rope_desc_init(out: *mut SinewRopeDesc) -> SinewStatus {
    // SAFETY: the pointers go to `init_desc` unchanged, and this function's safety section
    // promises what `init_desc` needs: `out` is NULL (refused) or writable for one desc.
    unsafe { init_desc(entry!(), out, sinew_rope_desc_default()) }
}

/// A cloth desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_cloth_desc_default() -> SinewClothDesc {
    let d = ClothDesc::default();
    SinewClothDesc {
        model: SinewClothModel::SINEW_CLOTH_EDGES as u32,
        stretch_compliance: d.stretch_compliance,
        weft_compliance: d.weft_compliance,
        shear_compliance: d.shear_compliance,
        warp: d.warp.into(),
        bend_compliance: d.bend_compliance,
        bending: SinewBendingModel::SINEW_BENDING_DIHEDRAL as u32,
        tethers: d.tethers as u32,
        damping: d.damping,
        internal_cookie: CLOTH_COOKIE,
    }
}

/// Writes sinew_cloth_desc_default() to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewClothDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_cloth_desc_init(out: *mut SinewClothDesc) -> SinewStatus {
    // SAFETY: the pointers go to `init_desc` unchanged, and this function's safety section
    // promises what `init_desc` needs: `out` is NULL (refused) or writable for one desc.
    unsafe { init_desc(entry!(), out, sinew_cloth_desc_default()) }
}

/// A cloth grid desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_cloth_grid_desc_default() -> SinewClothGridDesc {
    let d = ClothGridDesc::default();
    SinewClothGridDesc {
        origin: d.origin.into(),
        u: d.u.into(),
        v: d.v.into(),
        segments_u: d.segments_u,
        segments_v: d.segments_v,
        total_mass: d.total_mass,
        pin_corners: d.pin_corners,
        internal_cookie: GRID_COOKIE,
    }
}

/// Writes sinew_cloth_grid_desc_default() to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewClothGridDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_cloth_grid_desc_init(out: *mut SinewClothGridDesc) -> SinewStatus {
    // SAFETY: the pointers go to `init_desc` unchanged, and this function's safety section
    // promises what `init_desc` needs: `out` is NULL (refused) or writable for one desc.
    unsafe { init_desc(entry!(), out, sinew_cloth_grid_desc_default()) }
}

/// A tet soft body desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_tet_body_desc_default() -> SinewTetBodyDesc {
    let d = TetBodyDesc::default();
    SinewTetBodyDesc {
        total_mass: d.total_mass,
        model: SinewTetModel::SINEW_TET_EDGES_AND_VOLUME as u32,
        stretch_compliance: d.stretch_compliance,
        shear_compliance: d.shear_compliance,
        volume_compliance: d.volume_compliance,
        damping: d.damping,
        internal_cookie: TET_COOKIE,
    }
}

/// Writes sinew_tet_body_desc_default() to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewTetBodyDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_tet_body_desc_init(out: *mut SinewTetBodyDesc) -> SinewStatus {
    // SAFETY: the pointers go to `init_desc` unchanged, and this function's safety section
    // promises what `init_desc` needs: `out` is NULL (refused) or writable for one desc.
    unsafe { init_desc(entry!(), out, sinew_tet_body_desc_default()) }
}

/// A pressure soft body desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_pressure_body_desc_default() -> SinewPressureBodyDesc {
    let d = PressureBodyDesc::default();
    SinewPressureBodyDesc {
        total_mass: d.total_mass,
        stretch_compliance: d.stretch_compliance,
        pressure: d.pressure,
        volume_compliance: d.volume_compliance,
        damping: d.damping,
        internal_cookie: PRESSURE_COOKIE,
    }
}

/// Writes sinew_pressure_body_desc_default() to `*out`.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one SinewPressureBodyDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_pressure_body_desc_init(
    out: *mut SinewPressureBodyDesc,
) -> SinewStatus {
    // SAFETY: the pointers go to `init_desc` unchanged, and this function's safety section
    // promises what `init_desc` needs: `out` is NULL (refused) or writable for one desc.
    unsafe { init_desc(entry!(), out, sinew_pressure_body_desc_default()) }
}
