//! Distance constraints (XPBD and PBD) and their force readback.

use super::world::{with_world, SinewWorld};
use super::{add_batch, guard, query_u32, slice_from_mut, SinewStatus};
use crate::World;

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
    let f = entry!();
    // SAFETY: the pointers go to `add_batch` unchanged, and this function's safety section
    // promises what `add_batch` needs: `particle_pairs` is NULL (refused) or holds 2*count
    // uint32_t, `rest_lengths` is NULL or holds count floats, `out_first` is NULL (refused) or
    // writable for one uint32_t.
    unsafe {
        add_batch(
            f,
            world,
            (particle_pairs, "particle_pairs"),
            (rest_lengths, "rest_lengths"),
            count,
            (out_first, "out_first"),
            |w, p: &[[u32; 2]], r| w.add_distance_constraints(p, r, compliance),
        )
    }
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
    let f = entry!();
    // SAFETY: the pointers go to `add_batch` unchanged, and this function's safety section
    // promises what `add_batch` needs: `particle_pairs` is NULL (refused) or holds 2*count
    // uint32_t, `rest_lengths` is NULL or holds count floats, `out_first` is NULL (refused) or
    // writable for one uint32_t.
    unsafe {
        add_batch(
            f,
            world,
            (particle_pairs, "particle_pairs"),
            (rest_lengths, "rest_lengths"),
            count,
            (out_first, "out_first"),
            |w, p: &[[u32; 2]], r| w.add_pbd_distance_constraints(p, r, stiffness),
        )
    }
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
    let f = entry!();
    // SAFETY: the pointers go to `query_u32` unchanged, and this function's safety section
    // promises what `query_u32` needs: `out_count` is NULL (refused) or points to one writable
    // uint32_t.
    unsafe { query_u32(f, world, out_count, World::distance_constraint_count) }
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
    guard(entry!(), || {
        // SAFETY: the caller promises `count` writable floats.
        let out = unsafe { slice_from_mut(out_newtons, count as usize, "out_newtons")? };
        with_world(world, |w| Ok(w.read_constraint_forces(first, out)?))
    })
}
