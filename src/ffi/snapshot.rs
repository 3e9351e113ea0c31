//! Snapshots and the state hash over the C ABI (the format: `crate::snapshot`). A
//! snapshot is a byte buffer the caller owns: ask `sinew_world_snapshot_size`, then
//! `sinew_world_save_snapshot` into a buffer of that size.

use super::handles;
use super::world::{with_world, SinewWorld, WORLDS};
use super::{answer, guard, non_null, Failure, FfiResult, SinewStatus};
use crate::world::World;

// The snapshot layer records the ABI version without importing this layer.
const _: () = assert!(crate::snapshot::ABI_VERSION == super::SINEW_ABI_VERSION);

/// The `size` bytes at `data` (any alignment; size 0 is an empty buffer).
///
/// # Safety
/// `data` must be NULL or point to `size` readable bytes.
unsafe fn bytes<'a>(data: *const u8, size: u64, name: &str) -> FfiResult<&'a [u8]> {
    non_null(data, name)?;
    if size > isize::MAX as u64 {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
            format!("{name}: size {size} exceeds the address space"),
        ));
    }
    // SAFETY: `data` is non-null (checked above) and, by this function's safety section,
    // points to `size` readable bytes; `size` fits `isize` (checked above); bytes need no
    // alignment.
    Ok(unsafe { std::slice::from_raw_parts(data, size as usize) })
}

/// Writes the number of bytes `sinew_world_save_snapshot` needs now (header included)
/// to `out_size`.
///
/// # Safety
/// `out_size` must be NULL or point to writable memory for one uint64_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_snapshot_size(
    world: SinewWorld,
    out_size: *mut u64,
) -> SinewStatus {
    let body = || with_world(world, |w| Ok(w.snapshot_size() as u64));
    // SAFETY: `out_size` is passed on with this function's safety section.
    unsafe { answer(entry!(), out_size, "out_size", body) }
}

/// Saves the whole simulation state of `world` into `buffer` (`capacity` bytes, at
/// least what `sinew_world_snapshot_size` reported) and writes the bytes used to
/// `out_written`. Nothing is allocated. A buffer that is too small is refused with
/// SINEW_ERROR_OUT_OF_RANGE and left untouched. The snapshot holds everything the next
/// step uses (particles, every constraint with its multiplier, bodies, colliders and
/// their transforms, attachments, grabs, settings, body and collider handles) except
/// the thread count; it is checksummed and versioned.
///
/// # Safety
/// `buffer` must be NULL or point to `capacity` writable bytes; `out_written` must be
/// NULL or point to writable memory for one uint64_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_save_snapshot(
    world: SinewWorld,
    buffer: *mut u8,
    capacity: u64,
    out_written: *mut u64,
) -> SinewStatus {
    let body = || {
        non_null(buffer, "buffer")?;
        let capacity = capacity.min(isize::MAX as u64) as usize;
        // SAFETY: `buffer` is non-null (checked above) and, by this function's safety
        // section, points to `capacity` writable bytes (clamped to `isize::MAX`, which
        // no allocation exceeds); bytes need no alignment.
        let out = unsafe { std::slice::from_raw_parts_mut(buffer, capacity) };
        with_world(world, |w| Ok(w.save_snapshot(out)? as u64))
    };
    // SAFETY: `out_written` is passed on with this function's safety section.
    unsafe { answer(entry!(), out_written, "out_written", body) }
}

/// Replaces the simulation state of `world` by the snapshot in `data` (`size` bytes).
/// The world keeps its thread count, its own handle and its serial, for every kind of
/// handle alike (the header's "Handles" paragraph): afterwards a handle it issued names
/// what the snapshot holds in its slot with its generation, and is refused with
/// SINEW_ERROR_INVALID_HANDLE when the snapshot holds nothing there. Restoring the
/// world's own snapshot makes the handles it had at the save valid again for the same
/// objects (and those made since refused or renamed likewise); restoring a snapshot
/// another world saved makes this world's handles name that world's objects in the
/// same slots: re-read them (body ranges, counts) after such a restore; the saving
/// world's handles stay refused (another serial). Every snapshot
/// the library saves loads (no setting it accepted is refused). A truncated, corrupt,
/// forged, foreign or newer buffer is refused with SINEW_ERROR_INVALID_ARGUMENT and a
/// message saying which, and the world is unchanged: every count, index, range,
/// counter, orientation and topology in it is checked against the rules of the
/// functions that build the same state.
///
/// # Safety
/// `data` must be NULL or point to `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_restore_snapshot(
    world: SinewWorld,
    data: *const u8,
    size: u64,
) -> SinewStatus {
    guard(entry!(), || {
        // SAFETY: `data` and `size` are passed on with this function's safety section.
        let b = unsafe { bytes(data, size, "data")? };
        with_world(world, |w| Ok(w.restore_snapshot(b)?))
    })
}

/// Creates a world from the snapshot in `data` (`size` bytes) with `threads` worker
/// threads (0 = all cores, at most 256, as SinewWorldDesc::threads; results do not
/// depend on it).
/// It takes the saving world's serial: its handles of every kind are the saved ones
/// (those the saving world had issued name the same objects in it). Refusals as
/// `sinew_world_restore_snapshot`; `out_world` is written only on success.
///
/// # Safety
/// `data` must be NULL or point to `size` readable bytes; `out_world` must be NULL or
/// point to writable memory for one SinewWorld.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_create_from_snapshot(
    data: *const u8,
    size: u64,
    threads: u32,
    out_world: *mut SinewWorld,
) -> SinewStatus {
    let body = || {
        // SAFETY: `data` and `size` are passed on with this function's safety section.
        let b = unsafe { bytes(data, size, "data")? };
        let world = World::from_snapshot(b, threads)?;
        Ok(SinewWorld {
            id: handles::insert(&WORLDS, world)?,
        })
    };
    // SAFETY: `out_world` is passed on with this function's safety section.
    unsafe { answer(entry!(), out_world, "out_world", body) }
}

/// Writes a 64-bit hash of the simulation state of `world` to `out_hash`: equal
/// states give equal hashes on any machine, thread count or kernel (for lockstep
/// desync checks). Cheap (one pass over the state) and allocation-free.
///
/// # Safety
/// `out_hash` must be NULL or point to writable memory for one uint64_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_state_hash(
    world: SinewWorld,
    out_hash: *mut u64,
) -> SinewStatus {
    let body = || with_world(world, |w| Ok(w.state_hash()));
    // SAFETY: `out_hash` is passed on with this function's safety section.
    unsafe { answer(entry!(), out_hash, "out_hash", body) }
}
