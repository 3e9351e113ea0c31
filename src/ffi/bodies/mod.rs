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
use crate::bodies::cloth::{ClothDesc, ClothGridDesc};
use crate::bodies::rope::RopeDesc;
use crate::bodies::soft::{PressureBodyDesc, TetBodyDesc};
use crate::bodies::{BodyConstraints, BodyId, BodyKind};
use crate::math::Vec3;
use crate::World;

mod build;
mod manage;
mod tetrahedralize;

pub use build::*;
pub use manage::*;
pub use tetrahedralize::*;

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

/// A body handle, passed by value; 0 is null. Valid in the world that issued it (the
/// header's "Handles" paragraph: layout, serial, snapshots).
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

pub use crate::ffi::settings::{
    SinewClothDesc, SinewClothGridDesc, SinewPressureBodyDesc, SinewRopeDesc, SinewTetBodyDesc,
};
use crate::ffi::settings::{
    CLOTH_DESC_COOKIE, CLOTH_GRID_DESC_COOKIE, PRESSURE_BODY_DESC_COOKIE, ROPE_DESC_COOKIE,
    TET_BODY_DESC_COOKIE,
};

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
    SinewRopeDesc::from_rust(&RopeDesc::default())
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
    SinewClothDesc::from_rust(&ClothDesc::default())
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
    SinewClothGridDesc::from_rust(&ClothGridDesc::default())
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
    SinewTetBodyDesc::from_rust(&TetBodyDesc::default())
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
    SinewPressureBodyDesc::from_rust(&PressureBodyDesc::default())
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
