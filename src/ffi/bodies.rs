//! Bodies: rope, cloth (mesh and grid), tet and pressure soft bodies; removal, particle
//! range, strided position readback, per-body parameter setters; material presets.
//!
//! Every desc has a `*_desc_default()` (by value) and a `*_desc_init(out)` twin
//! (pointer-out, for bindings that must not pass structs by value); both set
//! `internal_cookie`, and a desc without it is refused.

use std::ffi::c_void;

use super::particles::{strided, write_at};
use super::world::{with_world, SinewVec3, SinewWorld};
use super::{guard, non_null, optional_slice_from, slice_from, Failure, FfiResult, SinewStatus};
use crate::bodies::cloth::{BendingModel, ClothDesc, ClothGridDesc, ClothModel};
use crate::bodies::rope::RopeDesc;
use crate::bodies::soft::{PressureBodyDesc, TetBodyDesc, TetModel};
use crate::bodies::{BodyConstraints, BodyId, BodyKind};
use crate::math::Vec3;
use crate::World;

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
unsafe fn read_desc<T: Copy>(
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
unsafe fn init_desc<T>(function: &str, out: *mut T, value: T) -> SinewStatus {
    guard(function, || {
        non_null(out, "out")?;
        // SAFETY: `out` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out.write_unaligned(value) };
        Ok(())
    })
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
    unsafe { init_desc("sinew_rope_desc_init", out, sinew_rope_desc_default()) }
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
    unsafe { init_desc("sinew_cloth_desc_init", out, sinew_cloth_desc_default()) }
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
    unsafe {
        init_desc(
            "sinew_cloth_grid_desc_init",
            out,
            sinew_cloth_grid_desc_default(),
        )
    }
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
    unsafe {
        init_desc(
            "sinew_tet_body_desc_init",
            out,
            sinew_tet_body_desc_default(),
        )
    }
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
    unsafe {
        init_desc(
            "sinew_pressure_body_desc_init",
            out,
            sinew_pressure_body_desc_default(),
        )
    }
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewRopeDesc.
unsafe fn rope_desc(desc: *const SinewRopeDesc) -> FfiResult<RopeDesc> {
    // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
    // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            ROPE_COOKIE,
            "sinew_rope_desc_default",
        )?
    };
    Ok(RopeDesc {
        start: d.start.into(),
        end: d.end.into(),
        segments: d.segments,
        total_mass: d.total_mass,
        radius: d.radius,
        stretch_compliance: d.stretch_compliance,
        bend_compliance: d.bend_compliance,
        tethers: flag(d.tethers, "tethers")?,
        pin_start: flag(d.pin_start, "pin_start")?,
        pin_end: flag(d.pin_end, "pin_end")?,
        damping: d.damping,
    })
}

/// # Safety
/// `desc` must be NULL or point to a readable SinewClothDesc.
unsafe fn cloth_desc(desc: *const SinewClothDesc) -> FfiResult<ClothDesc> {
    // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
    // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable desc.
    let d = unsafe {
        read_desc(
            desc,
            |d| d.internal_cookie,
            CLOTH_COOKIE,
            "sinew_cloth_desc_default",
        )?
    };
    let bending = match d.bending {
        0 => BendingModel::None,
        1 => BendingModel::Distance,
        2 => BendingModel::Dihedral,
        3 => BendingModel::Isometric,
        b => {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!("bending {b} is not a SinewBendingModel (0..=3)"),
            ))
        }
    };
    let model = match d.model {
        0 => ClothModel::Edges,
        1 => ClothModel::Strain,
        m => {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                format!("model {m} is not a SinewClothModel (0 or 1)"),
            ))
        }
    };
    Ok(ClothDesc {
        model,
        stretch_compliance: d.stretch_compliance,
        weft_compliance: d.weft_compliance,
        shear_compliance: d.shear_compliance,
        warp: d.warp.into(),
        bend_compliance: d.bend_compliance,
        bending,
        tethers: flag(d.tethers, "tethers")?,
        damping: d.damping,
    })
}

/// Copies `count` SinewVec3 into Vec3s.
///
/// # Safety
/// `p` must point to `count` readable SinewVec3 (NULL: an error).
unsafe fn points(p: *const SinewVec3, count: u32, name: &str) -> FfiResult<Vec<Vec3>> {
    // Refuse bodies over the size limit before copying anything.
    if count as usize > crate::bodies::MAX_BODY_PARTICLES {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
            format!(
                "{name}: {count} exceed the limit of {} particles per body",
                crate::bodies::MAX_BODY_PARTICLES
            ),
        ));
    }
    // SAFETY: `p` is a pointer to `count` readable elements, as this function's safety section
    // requires (NULL is refused by `check_array`); `slice_from` checks non-null, alignment and
    // the batch limit before it makes the slice, which lives only for this call.
    let s = unsafe { slice_from(p, count as usize, name)? };
    let mut v = crate::error::try_with_capacity::<Vec3>(s.len(), name)?;
    v.extend(s.iter().map(|&x| Vec3::from(x)));
    Ok(v)
}

/// Views `count` K-index tuples.
///
/// # Safety
/// `indices` must point to K*count readable uint32_t (NULL: an error).
unsafe fn tuples<'a, const K: usize>(
    indices: *const u32,
    count: u32,
    name: &str,
) -> FfiResult<&'a [[u32; K]]> {
    // SAFETY: [u32; K] has the alignment of u32; the caller promises K*count indices.
    unsafe { slice_from(indices as *const [u32; K], count as usize, name) }
}

/// A builder call, prepared outside the world lock.
type Adder = Box<dyn FnOnce(&mut World) -> crate::Result<BodyId>>;

/// Runs `add` on the world and writes the new body to `*out_body` on success.
///
/// # Safety
/// `out_body` must be NULL or point to one writable SinewBody.
unsafe fn add_body(
    function: &str,
    world: SinewWorld,
    out_body: *mut SinewBody,
    add: impl FnOnce() -> FfiResult<Adder>,
) -> SinewStatus {
    guard(function, || {
        non_null(out_body, "out_body")?;
        let add = add()?;
        let id = with_world(world, |w| Ok(add(w)?))?;
        // SAFETY: `out_body` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out_body.write_unaligned(SinewBody { id: id.0 }) };
        Ok(())
    })
}

/// Adds a straight rope from desc->start to desc->end in desc->segments segments
/// (segments + 1 particles, consecutive indices). `*out_body` receives its handle.
///
/// # Safety
/// `desc` must point to a readable SinewRopeDesc, `out_body` to one writable SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_rope(
    world: SinewWorld,
    desc: *const SinewRopeDesc,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `rope_desc` unchanged, and this function's safety section
        // promises what `rope_desc` needs: `desc` is NULL (refused) or points to one readable
        // SinewRopeDesc.
        let d = unsafe { rope_desc(desc)? };
        Ok::<Adder, Failure>(Box::new(move |w: &mut World| w.add_rope(&d)))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body("sinew_world_add_rope", world, out_body, build) }
}

/// Adds a rope through `point_count` >= 2 points (m), one particle each; the start,
/// end and segments of the desc are ignored.
///
/// # Safety
/// `desc` must point to a readable SinewRopeDesc, `points` to `point_count` SinewVec3,
/// `out_body` to one writable SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_rope_polyline(
    world: SinewWorld,
    desc: *const SinewRopeDesc,
    points: *const SinewVec3,
    point_count: u32,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: `points` is a pointer to `point_count` readable SinewVec3, as this function's
        // safety section requires (NULL is refused by `check_array`); `points` checks non-null,
        // alignment and the batch limit before it makes the slice, which lives only for this
        // call.
        let d = unsafe { rope_desc(desc)? };
        // SAFETY: `points` is a pointer to `point_count` readable SinewVec3, as this function's
        // safety section requires (NULL is refused by `check_array`); `points` checks non-null,
        // alignment and the batch limit before it makes the slice, which lives only for this
        // call.
        let p = unsafe { self::points(points, point_count, "points")? };
        Ok::<Adder, Failure>(Box::new(move |w: &mut World| w.add_rope_polyline(&d, &p)))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body("sinew_world_add_rope_polyline", world, out_body, build) }
}

/// Adds a cloth from a triangle mesh: `vertex_count` vertices (m) with
/// `inverse_masses` (1/kg, 0 = pinned, one per vertex), `triangle_count` triangles (3
/// vertex indices each, 0-based within this mesh). The body's particles are the
/// vertices in order. Malformed meshes (index out of range, a vertex repeated in a
/// triangle, zero-area triangles, an edge shared by more than two triangles) are
/// refused naming the element.
///
/// # Safety
/// `desc` must point to a readable SinewClothDesc, `vertices` to `vertex_count`
/// SinewVec3, `triangles` to 3*triangle_count uint32_t, `inverse_masses` to
/// `vertex_count` floats, `out_body` to one writable SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_cloth_mesh(
    world: SinewWorld,
    desc: *const SinewClothDesc,
    vertices: *const SinewVec3,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    inverse_masses: *const f32,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: `vertices` is a pointer to `vertex_count` readable SinewVec3, as this
        // function's safety section requires (NULL is refused by `check_array`); `points`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let d = unsafe { cloth_desc(desc)? };
        // SAFETY: `vertices` is a pointer to `vertex_count` readable SinewVec3, as this
        // function's safety section requires (NULL is refused by `check_array`); `points`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let v = unsafe { points(vertices, vertex_count, "vertices")? };
        // SAFETY: `triangles` is a pointer to `3*triangle_count` readable uint32_t, as this
        // function's safety section requires (NULL is refused by `check_array`); `tuples`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let t = unsafe { tuples::<3>(triangles, triangle_count, "triangles")? };
        // SAFETY: `inverse_masses` is a pointer to `vertex_count` readable elements, as this
        // function's safety section requires (NULL is refused by `check_array`); `slice_from`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let w = unsafe { slice_from(inverse_masses, vertex_count as usize, "inverse_masses")? };
        Ok::<Adder, Failure>(Box::new(move |world: &mut World| {
            world.add_cloth_mesh(&d, &v, t, w)
        }))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body("sinew_world_add_cloth_mesh", world, out_body, build) }
}

/// Adds a rectangular grid cloth ((segments_u+1) x (segments_v+1) particles, index
/// j*(segments_u+1) + i; the diagonals are shear links).
///
/// # Safety
/// `desc` and `grid` must point to readable descs, `out_body` to one writable
/// SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_cloth_grid(
    world: SinewWorld,
    desc: *const SinewClothDesc,
    grid: *const SinewClothGridDesc,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `cloth_desc` unchanged, and this function's safety section
        // promises what `cloth_desc` needs: `desc` is NULL (refused) or points to one readable
        // SinewClothDesc.
        let d = unsafe { cloth_desc(desc)? };
        // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
        // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable
        // desc.
        let g = unsafe {
            read_desc(
                grid,
                |g| g.internal_cookie,
                GRID_COOKIE,
                "sinew_cloth_grid_desc_default",
            )?
        };
        let g = ClothGridDesc {
            origin: g.origin.into(),
            u: g.u.into(),
            v: g.v.into(),
            segments_u: g.segments_u,
            segments_v: g.segments_v,
            total_mass: g.total_mass,
            pin_corners: g.pin_corners,
        };
        Ok::<Adder, Failure>(Box::new(move |w: &mut World| w.add_cloth_grid(&d, &g)))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body("sinew_world_add_cloth_grid", world, out_body, build) }
}

/// Adds a soft body from a tetrahedral mesh: every tet edge a link, every tet a volume
/// constraint. Tets (4 indices each) must have positive volume (vertices 1, 2, 3
/// counter-clockwise seen from vertex 0): inverted or flat tets are refused naming the
/// tet. `inverse_masses` NULL = desc->total_mass lumped by volume.
///
/// # Safety
/// `desc` must point to a readable SinewTetBodyDesc, `vertices` to `vertex_count`
/// SinewVec3, `tets` to 4*tet_count uint32_t, `inverse_masses` to `vertex_count`
/// floats or be NULL, `out_body` to one writable SinewBody.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_tet_body(
    world: SinewWorld,
    desc: *const SinewTetBodyDesc,
    vertices: *const SinewVec3,
    vertex_count: u32,
    tets: *const u32,
    tet_count: u32,
    inverse_masses: *const f32,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
        // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable
        // desc.
        let d = unsafe {
            read_desc(
                desc,
                |d| d.internal_cookie,
                TET_COOKIE,
                "sinew_tet_body_desc_default",
            )?
        };
        let model = match d.model {
            0 => TetModel::EdgesAndVolume,
            1 => TetModel::Strain,
            m => {
                return Err(Failure::new(
                    SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                    format!("model {m} is not a SinewTetModel (0 or 1)"),
                ))
            }
        };
        let d = TetBodyDesc {
            total_mass: d.total_mass,
            model,
            stretch_compliance: d.stretch_compliance,
            shear_compliance: d.shear_compliance,
            volume_compliance: d.volume_compliance,
            damping: d.damping,
        };
        // SAFETY: `vertices` is a pointer to `vertex_count` readable SinewVec3, as this
        // function's safety section requires (NULL is refused by `check_array`); `points`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let v = unsafe { points(vertices, vertex_count, "vertices")? };
        // SAFETY: `tets` is a pointer to `4*tet_count` readable uint32_t, as this function's
        // safety section requires (NULL is refused by `check_array`); `tuples` checks non-null,
        // alignment and the batch limit before it makes the slice, which lives only for this
        // call.
        let t = unsafe { tuples::<4>(tets, tet_count, "tets")? };
        // SAFETY: `inverse_masses` is NULL (None: the array is optional) or a pointer to
        // `vertex_count` readable elements, as this function's safety section requires;
        // `optional_slice_from` checks non-null, alignment and the batch limit before it makes
        // the slice, which lives only for this call.
        let w = unsafe {
            optional_slice_from(inverse_masses, vertex_count as usize, "inverse_masses")?
        };
        Ok::<Adder, Failure>(Box::new(move |world: &mut World| {
            world.add_tet_body(&d, &v, t, w)
        }))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body("sinew_world_add_tet_body", world, out_body, build) }
}

/// Adds a soft body from a closed surface (triangles wound counter-clockwise seen from
/// outside): every edge a link plus one volume constraint keeping desc->pressure x the
/// rest volume. A surface that is not closed, inconsistently wound or inside-out is
/// refused naming the edge. `inverse_masses` NULL = desc->total_mass lumped by area.
///
/// # Safety
/// As sinew_world_add_tet_body, with `triangles` pointing to 3*triangle_count uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_pressure_body(
    world: SinewWorld,
    desc: *const SinewPressureBodyDesc,
    vertices: *const SinewVec3,
    vertex_count: u32,
    triangles: *const u32,
    triangle_count: u32,
    inverse_masses: *const f32,
    out_body: *mut SinewBody,
) -> SinewStatus {
    let build = || {
        // SAFETY: the pointers go to `read_desc` unchanged, and this function's safety section
        // promises what `read_desc` needs: `desc` is NULL (refused) or points to one readable
        // desc.
        let d = unsafe {
            read_desc(
                desc,
                |d| d.internal_cookie,
                PRESSURE_COOKIE,
                "sinew_pressure_body_desc_default",
            )?
        };
        let d = PressureBodyDesc {
            total_mass: d.total_mass,
            stretch_compliance: d.stretch_compliance,
            pressure: d.pressure,
            volume_compliance: d.volume_compliance,
            damping: d.damping,
        };
        // SAFETY: `vertices` is a pointer to `vertex_count` readable SinewVec3, as this
        // function's safety section requires (NULL is refused by `check_array`); `points`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let v = unsafe { points(vertices, vertex_count, "vertices")? };
        // SAFETY: `triangles` is a pointer to `3*triangle_count` readable uint32_t, as this
        // function's safety section requires (NULL is refused by `check_array`); `tuples`
        // checks non-null, alignment and the batch limit before it makes the slice, which lives
        // only for this call.
        let t = unsafe { tuples::<3>(triangles, triangle_count, "triangles")? };
        // SAFETY: `inverse_masses` is NULL (None: the array is optional) or a pointer to
        // `vertex_count` readable elements, as this function's safety section requires;
        // `optional_slice_from` checks non-null, alignment and the batch limit before it makes
        // the slice, which lives only for this call.
        let w = unsafe {
            optional_slice_from(inverse_masses, vertex_count as usize, "inverse_masses")?
        };
        Ok::<Adder, Failure>(Box::new(move |world: &mut World| {
            world.add_pressure_body(&d, &v, t, w)
        }))
    };
    // SAFETY: the pointers go to `add_body` unchanged, and this function's safety section
    // promises what `add_body` needs: `out_body` is NULL (refused) or points to one writable
    // SinewBody.
    unsafe { add_body("sinew_world_add_pressure_body", world, out_body, build) }
}

/// Removes a body. Its particles keep their indices but become inert (inverse mass 0,
/// they stay where they are); its constraints and the attachments on its particles
/// stop acting. Other bodies' indices and motion are unchanged. The handle becomes
/// invalid: removing it again gives SINEW_ERROR_INVALID_HANDLE.
#[no_mangle]
pub extern "C" fn sinew_world_remove_body(world: SinewWorld, body: SinewBody) -> SinewStatus {
    guard("sinew_world_remove_body", || {
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
    unsafe {
        super::query_u32(
            "sinew_world_body_count",
            world,
            out_count,
            World::body_count,
        )
    }
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
    guard("sinew_body_particle_range", || {
        non_null(out_first, "out_first")?;
        non_null(out_count, "out_count")?;
        let (first, count) = with_world(world, |w| Ok(w.body_particle_range(BodyId(body.id))?))?;
        // SAFETY: `out_first` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
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
    guard("sinew_body_info", || {
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
/// `stride_bytes` (>= 12), e.g. straight into a vertex buffer; `capacity` is the number
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
    guard("sinew_body_read_positions", || {
        let base = strided(out, capacity, stride_bytes, "out")? as *mut u8;
        with_world(world, |w| {
            let (first, count) = w.body_particle_range(BodyId(body.id))?;
            if count > capacity {
                return Err(Failure::new(
                    SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
                    format!("capacity {capacity} is below the body's {count} particles"),
                ));
            }
            // SAFETY: k < count <= capacity, within the span checked by `strided`.
            let sink = |k, v| unsafe { write_at(base, stride_bytes, k, v) };
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
    guard("sinew_body_set_compliance", || {
        let which = match which {
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
        };
        with_world(world, |w| {
            Ok(w.set_body_compliance(BodyId(body.id), which, compliance)?)
        })
    })
}

/// Sets the body's extra velocity damping (1/s, >= 0) from the next step on.
#[no_mangle]
pub extern "C" fn sinew_body_set_damping(
    world: SinewWorld,
    body: SinewBody,
    damping: f32,
) -> SinewStatus {
    guard("sinew_body_set_damping", || {
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
    guard("sinew_body_set_pressure", || {
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
    guard("sinew_body_volume", || {
        non_null(out_volume, "out_volume")?;
        let v = with_world(world, |w| Ok(w.body_volume(BodyId(body.id))?))?;
        // SAFETY: `out_volume` is non-null (checked by `non_null` above) and, by this
        // function's safety section, points to writable memory for one value; `write_unaligned`
        // needs no alignment.
        unsafe { out_volume.write_unaligned(v) };
        Ok(())
    })
}
