//! Distance constraints (XPBD and PBD) and their force readback.

use super::world::{with_world, SinewWorld};
use super::{guard, non_null, slice_from, SinewStatus};

/// The pairs and optional rest lengths of one batch, viewed from C memory.
type Batch<'a> = (&'a [[u32; 2]], Option<&'a [f32]>);

/// Reads the optional rest-length array and the pair array of a batch.
///
/// # Safety
/// As the callers' contracts.
unsafe fn batch<'a>(
    particle_pairs: *const u32,
    rest_lengths: *const f32,
    count: u32,
) -> super::FfiResult<Batch<'a>> {
    // SAFETY: `[u32; 2]` has the size and alignment of two u32; the caller promises
    // 2*count readable indices.
    let pairs = unsafe {
        slice_from(
            particle_pairs as *const [u32; 2],
            count as usize,
            "particle_pairs",
        )?
    };
    let rest = if rest_lengths.is_null() {
        None
    } else {
        // SAFETY: the caller promises `count` readable floats.
        Some(unsafe { slice_from(rest_lengths, count as usize, "rest_lengths")? })
    };
    Ok((pairs, rest))
}

/// Adds `count` XPBD distance constraints. `particle_pairs` holds 2*count particle
/// indices (a0, b0, a1, b1, ...); `rest_lengths` (m) NULL = the current distances;
/// `compliance` α in m/N (0 = rigid; see the material table in the README).
/// `*out_first` receives the id of the first new constraint; ids are consecutive and
/// shared with sinew_world_add_pbd_distance_constraints.
///
/// # Safety
/// `particle_pairs` must point to 2*count uint32_t, `rest_lengths` to count floats or
/// be NULL, `out_first` to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_distance_constraints(
    world: SinewWorld,
    particle_pairs: *const u32,
    rest_lengths: *const f32,
    count: u32,
    compliance: f32,
    out_first: *mut u32,
) -> SinewStatus {
    guard("sinew_world_add_distance_constraints", || {
        non_null(out_first, "out_first")?;
        // SAFETY: the caller's contract.
        let (pairs, rest) = unsafe { batch(particle_pairs, rest_lengths, count)? };
        let first = with_world(world, |w| {
            Ok(w.add_distance_constraints(pairs, rest, compliance)?)
        })?;
        // SAFETY: non-null (checked), writable by the caller's contract.
        unsafe { out_first.write_unaligned(first) };
        Ok(())
    })
}

/// Adds `count` PBD distance constraints with `stiffness` k in [0, 1]: the fraction of
/// the error removed per substep, corrected for the iteration count
/// (k' = 1 - (1 - k)^(1/n)). Arguments as sinew_world_add_distance_constraints.
///
/// # Safety
/// As sinew_world_add_distance_constraints.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_add_pbd_distance_constraints(
    world: SinewWorld,
    particle_pairs: *const u32,
    rest_lengths: *const f32,
    count: u32,
    stiffness: f32,
    out_first: *mut u32,
) -> SinewStatus {
    guard("sinew_world_add_pbd_distance_constraints", || {
        non_null(out_first, "out_first")?;
        // SAFETY: the caller's contract.
        let (pairs, rest) = unsafe { batch(particle_pairs, rest_lengths, count)? };
        let first = with_world(world, |w| {
            Ok(w.add_pbd_distance_constraints(pairs, rest, stiffness)?)
        })?;
        // SAFETY: non-null (checked), writable by the caller's contract.
        unsafe { out_first.write_unaligned(first) };
        Ok(())
    })
}

/// Writes the number of distance constraints (both flavours) to `*out_count`.
///
/// # Safety
/// `out_count` must be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_distance_constraint_count(
    world: SinewWorld,
    out_count: *mut u32,
) -> SinewStatus {
    guard("sinew_world_distance_constraint_count", || {
        non_null(out_count, "out_count")?;
        let n = with_world(world, |w| Ok(w.distance_constraint_count()))?;
        // SAFETY: non-null (checked), writable by the caller's contract.
        unsafe { out_count.write_unaligned(n) };
        Ok(())
    })
}

/// Writes the force magnitude |λ|/h² (N) of distance constraints `first..first+count`
/// during the last substep of the last step (0 before the first step) to
/// `out_newtons`, e.g. a rope's tension.
///
/// # Safety
/// `out_newtons` must point to `count` writable floats.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_constraint_forces(
    world: SinewWorld,
    first: u32,
    count: u32,
    out_newtons: *mut f32,
) -> SinewStatus {
    guard("sinew_world_read_constraint_forces", || {
        // Check the buffer as a readable slice (null, alignment, size) before writing.
        // SAFETY: the caller promises `count` writable (hence valid) floats.
        unsafe { slice_from(out_newtons as *const f32, count as usize, "out_newtons")? };
        // SAFETY: checked just above; writable by the caller's contract.
        let out = unsafe { std::slice::from_raw_parts_mut(out_newtons, count as usize) };
        with_world(world, |w| Ok(w.read_constraint_forces(first, out)?))
    })
}
