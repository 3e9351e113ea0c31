//! World lifetime and stepping.

use parking_lot::{MutexGuard, RwLock};

use super::handles::{self, Registry};
pub use super::settings::SinewWorldDesc;
use super::settings::WORLD_DESC_COOKIE;
use super::{guard, non_null, Failure, FfiResult, SinewStatus};
use crate::math::Vec3;
use crate::world::{World, WorldDesc};

/// A unit quaternion (x, y, z, w), layout-identical to Unity's `Quaternion` and UE's
/// `FQuat4f`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewQuat {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

impl From<glam::Quat> for SinewQuat {
    fn from(q: glam::Quat) -> SinewQuat {
        SinewQuat {
            x: q.x,
            y: q.y,
            z: q.z,
            w: q.w,
        }
    }
}

impl From<SinewQuat> for glam::Quat {
    fn from(q: SinewQuat) -> glam::Quat {
        glam::Quat::from_xyzw(q.x, q.y, q.z, q.w)
    }
}

/// Three floats, layout-identical to Unity's `Vector3`, UE's `FVector3f`, `float[3]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SinewVec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

const _: () = assert!(std::mem::size_of::<SinewVec3>() == 12);
const _: () = assert!(std::mem::size_of::<SinewVec3>() == std::mem::size_of::<Vec3>());
const _: () = assert!(std::mem::align_of::<SinewVec3>() == std::mem::align_of::<Vec3>());

impl From<SinewVec3> for Vec3 {
    fn from(v: SinewVec3) -> Vec3 {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<Vec3> for SinewVec3 {
    fn from(v: Vec3) -> SinewVec3 {
        SinewVec3 {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}

/// A world handle, passed by value. `id` 0 is the null handle.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewWorld {
    pub id: u64,
}

/// Values of `SinewWorldDesc::solver` (crosses as `uint32_t`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewSolver {
    /// Constraints one after another, by colour (default).
    SINEW_SOLVER_GAUSS_SEIDEL = 0,
    /// All constraints from the same positions, corrections averaged per particle.
    SINEW_SOLVER_JACOBI = 1,
}

pub(crate) static WORLDS: RwLock<Registry<World>> = RwLock::new(Registry::new());

/// Runs `f` on the world behind `world`, holding that world's lock.
///
/// The threading model (docs/c-api.md, "Threads"): every call on a world holds its
/// lock for the whole call (a step included), so calls on one world are serialised and
/// a reader waits for a running step. The lock is released fairly
/// (`MutexGuard::unlock_fair`): a thread asleep on it is handed it before this thread
/// can take it back, so a thread calling in a tight loop cannot keep the stepper (or
/// anyone) out. It is not a queue: a waiter spins a little before it sleeps, and calls
/// that arrive meanwhile run first (a cheap reader gets a few tens of calls in between
/// two steps). The handle lookup only clones
/// an `Arc`, so a `sinew_world_destroy` racing this call removes the handle while the
/// call finishes on its own reference; the world is dropped by whichever ends last.
pub(crate) fn with_world<R>(
    world: SinewWorld,
    f: impl FnOnce(&mut World) -> FfiResult<R>,
) -> FfiResult<R> {
    let w = handles::get(&WORLDS, "world", world.id)?;
    let mut guard = w.lock();
    let result = f(&mut guard);
    MutexGuard::unlock_fair(guard);
    result
}

/// A desc with every field at its default.
#[no_mangle]
pub extern "C" fn sinew_world_desc_default() -> SinewWorldDesc {
    SinewWorldDesc::from_rust(&WorldDesc::default())
}

/// Fills `*out_desc` with every field at its default, as `sinew_world_desc_default`
/// (the cookie included), through a pointer: for bindings that cannot return a struct
/// by value (C# P/Invoke under Burst passes nothing larger than a handle by value).
///
/// # Safety
/// `out_desc` must be NULL or point to writable memory for one SinewWorldDesc.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_desc_init(out_desc: *mut SinewWorldDesc) -> SinewStatus {
    guard(entry!(), || {
        non_null(out_desc, "out_desc")?;
        // SAFETY: `out_desc` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out_desc.write_unaligned(sinew_world_desc_default()) };
        Ok(())
    })
}

/// Creates a world. `out_world` is written only on success.
///
/// # Safety
/// `desc` must be NULL or point to a readable SinewWorldDesc; `out_world` must be NULL
/// or point to writable memory for one SinewWorld.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_create(
    desc: *const SinewWorldDesc,
    out_world: *mut SinewWorld,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(desc, "desc")?;
        non_null(out_world, "out_world")?;
        // SAFETY: `desc` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to one readable value; `read_unaligned` needs no alignment.
        let d = unsafe { desc.read_unaligned() };
        if d.internal_cookie != WORLD_DESC_COOKIE {
            return Err(Failure::new(
                SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
                "desc was not initialised by sinew_world_desc_default()",
            ));
        }
        let world = World::new(d.to_rust()?)?;
        let id = handles::insert(&WORLDS, world)?;
        // SAFETY: `out_world` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out_world.write_unaligned(SinewWorld { id }) };
        Ok(())
    })
}

/// Destroys a world. Its handle (and every copy of it) becomes invalid; a call already
/// running on the world on another thread (a step included) finishes first, on the old
/// world, and the memory is freed when it returns; calls made after this one get
/// SINEW_ERROR_INVALID_HANDLE. Never blocks on a running step.
#[no_mangle]
pub extern "C" fn sinew_world_destroy(world: SinewWorld) -> SinewStatus {
    guard(entry!(), || {
        let w = handles::remove(&WORLDS, "world", world.id)?;
        drop(w);
        Ok(())
    })
}

/// Advances the world by `dt` seconds (finite, in [1e-6, 10]) in `substeps` substeps.
/// SINEW_ERROR_NON_FINITE is the one failure after which the world did change: the
/// step ran, but some bodies met NaN or infinity (an extreme state) or were carried
/// past SINEW_MAX_COORDINATE, and were put back where they were before the step, at
/// rest; the message names them.
/// Holds the world's lock for the whole step: calls on the same world from other
/// threads wait until it returns (calls on other worlds do not); the lock is released
/// fairly (a thread asleep on it gets it first), so a thread calling in a loop cannot
/// starve the stepper.
#[no_mangle]
pub extern "C" fn sinew_world_step(world: SinewWorld, dt: f32) -> SinewStatus {
    guard(entry!(), || with_world(world, |w| Ok(w.step(dt)?)))
}
