//! Profiling through the C ABI: the stage times of the last step and the world's
//! counts, read into caller memory without allocation, a stage-name query, and the
//! host's begin/end callback (src/world/profile.rs holds the profiler and the stage
//! table; this file only translates).

use std::ffi::{c_char, c_void, CStr};

use super::readback::check_capacity;
use super::world::{with_world, SinewWorld};
use super::{answer, guard, non_null, Failure, SinewStatus};
use crate::world::profile::{ProfileCounts, ProfileHook, ProfileStage, PROFILE_STAGE_COUNT};

/// Number of profile stages (values 0..SINEW_PROFILE_STAGE_COUNT of SinewProfileStage).
pub const SINEW_PROFILE_STAGE_COUNT: u32 = 30;
const _: () = assert!(SINEW_PROFILE_STAGE_COUNT as usize == PROFILE_STAGE_COUNT);

/// The stages of a step as the profiler sees them (crosses as `uint32_t`;
/// sinew_profile_stage_name names them, docs/c-api.md "Profiling" describes each). STEP
/// (the whole step) and SUBSTEP (each substep) are groups; the others are leaves, and
/// the leaves' times sum to the step's. The constraint families come in projection
/// order, the fluids' density constraints between unilateral volumes and tethers.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewProfileStage {
    SINEW_PROFILE_STAGE_STEP = 0,
    SINEW_PROFILE_STAGE_SUBSTEP = 1,
    SINEW_PROFILE_STAGE_FLUID_EMIT = 2,
    SINEW_PROFILE_STAGE_COLLISION_DETECTION = 3,
    SINEW_PROFILE_STAGE_CONSTRAINT_STEP = 4,
    SINEW_PROFILE_STAGE_WIND = 5,
    SINEW_PROFILE_STAGE_SKINNING = 6,
    SINEW_PROFILE_STAGE_INTEGRATE = 7,
    SINEW_PROFILE_STAGE_CONSTRAINT_SUBSTEP = 8,
    SINEW_PROFILE_STAGE_COLLIDER_DETECTION = 9,
    SINEW_PROFILE_STAGE_DISTANCE = 10,
    SINEW_PROFILE_STAGE_LINK = 11,
    SINEW_PROFILE_STAGE_DIHEDRAL = 12,
    SINEW_PROFILE_STAGE_ISOMETRIC = 13,
    SINEW_PROFILE_STAGE_TET_VOLUME = 14,
    SINEW_PROFILE_STAGE_TRIANGLE_STRAIN = 15,
    SINEW_PROFILE_STAGE_TET_STRAIN = 16,
    SINEW_PROFILE_STAGE_PRESSURE = 17,
    SINEW_PROFILE_STAGE_RINGS = 18,
    SINEW_PROFILE_STAGE_SHAPES = 19,
    SINEW_PROFILE_STAGE_UNILATERAL_AREA = 20,
    SINEW_PROFILE_STAGE_UNILATERAL_VOLUME = 21,
    SINEW_PROFILE_STAGE_FLUID_DENSITY = 22,
    SINEW_PROFILE_STAGE_TETHER = 23,
    SINEW_PROFILE_STAGE_ATTACHMENTS = 24,
    SINEW_PROFILE_STAGE_TORN = 25,
    SINEW_PROFILE_STAGE_CONTACTS = 26,
    SINEW_PROFILE_STAGE_TOPOLOGY = 27,
    SINEW_PROFILE_STAGE_FLUID_VELOCITY = 28,
    SINEW_PROFILE_STAGE_RECOVERY = 29,
}

/// One stage of the last profiled step (sinew_world_read_stage_times).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewStageTime {
    /// Wall-clock time (ns), summed over every time the stage ran in the step.
    pub nanoseconds: u64,
    /// The stage (a SinewProfileStage value).
    pub stage: u32,
    /// The group it runs in: SINEW_PROFILE_STAGE_STEP or SINEW_PROFILE_STAGE_SUBSTEP
    /// (STEP for STEP itself). Wind, skinning, contacts, topology and fluid velocities
    /// also run once after the substeps, directly inside STEP.
    pub parent: u32,
    /// Nesting depth: 0 for STEP, 1 for SUBSTEP and the leaves outside substeps, 2 for
    /// the leaves inside them.
    pub depth: u32,
    /// How many times the stage began in the step (0 = it did not run).
    pub calls: u32,
}

/// What the world holds and its last step worked on (sinew_world_profile_counts).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinewProfileCounts {
    /// Bodies made by the builders.
    pub bodies: u64,
    /// Bodies awake (a sleeping body is not simulated).
    pub awake_bodies: u64,
    /// Particles (fluid and free particles included).
    pub particles: u64,
    /// Constraint projections of one solver iteration over every constraint family.
    pub constraints: u64,
    /// Colliders.
    pub colliders: u64,
    /// Particle-collider contacts of the last step (sinew_world_contact_count).
    pub collider_contacts: u64,
    /// Listed particle-particle neighbour pairs of the contact search.
    pub particle_pairs: u64,
    /// Live fluid particles.
    pub fluid_particles: u64,
    /// Listed fluid neighbour pairs of the last density build.
    pub fluid_neighbours: u64,
}

impl From<ProfileCounts> for SinewProfileCounts {
    fn from(c: ProfileCounts) -> SinewProfileCounts {
        SinewProfileCounts {
            bodies: c.bodies,
            awake_bodies: c.awake_bodies,
            particles: c.particles,
            constraints: c.constraints,
            colliders: c.colliders,
            collider_contacts: c.collider_contacts,
            particle_pairs: c.particle_pairs,
            fluid_particles: c.fluid_particles,
            fluid_neighbours: c.fluid_neighbours,
        }
    }
}

/// Called at each boundary of a profiled step: `stage` (a SinewProfileStage value)
/// begins (`begin` = 1) or ends (0). Called on the thread that called the step, in
/// properly nested pairs (STEP around everything, SUBSTEP around each substep, at most
/// one leaf open at a time, inside them). Must not throw or unwind, and must not call
/// Sinew on this world (the step holds its lock).
pub type SinewProfileCallback =
    Option<unsafe extern "C" fn(stage: u32, begin: u32, user_data: *mut c_void)>;

/// The host's callback as the world's hook.
struct HostCallback {
    callback: unsafe extern "C" fn(stage: u32, begin: u32, user_data: *mut c_void),
    user_data: *mut c_void,
}

// SAFETY: sinew_world_set_profile_callback (unsafe) requires the callback and its
// user_data to be usable from whichever thread steps the world; the hook is only called
// on that thread, during the step, under the world's lock.
unsafe impl Send for HostCallback {}

impl ProfileHook for HostCallback {
    fn stage(&mut self, stage: ProfileStage, begin: bool) {
        // SAFETY: the callback's contract is sinew_world_set_profile_callback's (safety
        // section): callable with this user_data on the stepping thread, never unwinding.
        unsafe { (self.callback)(stage as u32, u32::from(begin), self.user_data) }
    }
}

fn invalid(message: String) -> Failure {
    Failure::new(SinewStatus::SINEW_ERROR_INVALID_ARGUMENT, message)
}

/// Turns the timing of each step on (`enabled` = 1) or off (0), from the next step on;
/// the desc's `profiling` sets it at creation (off by default). Off, the step reads no
/// clock; on, it reads one at each stage boundary. The physics is the same bits either
/// way. The last profiled step's times stay readable when it is turned off.
#[no_mangle]
pub extern "C" fn sinew_world_set_profiling(world: SinewWorld, enabled: u32) -> SinewStatus {
    guard(entry!(), || {
        if enabled > 1 {
            return Err(invalid(format!("enabled {enabled} must be 0 or 1")));
        }
        with_world(world, |w| {
            w.set_profiling(enabled == 1);
            Ok(())
        })
    })
}

/// Writes the stages of the last profiled step to `out[0..SINEW_PROFILE_STAGE_COUNT]`,
/// entry k for stage k (all times zero before the first profiled step), and their
/// number to `*out_count`. A `capacity` below SINEW_PROFILE_STAGE_COUNT is refused
/// (SINEW_ERROR_OUT_OF_RANGE, nothing written). Allocates nothing: call it every frame
/// into the same array.
///
/// # Safety
/// `out` must be NULL or point to `capacity` writable SinewStageTime; `out_count` must
/// be NULL or point to one writable uint32_t.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_read_stage_times(
    world: SinewWorld,
    out: *mut SinewStageTime,
    capacity: u32,
    out_count: *mut u32,
) -> SinewStatus {
    guard(entry!(), || {
        non_null(out, "out")?;
        non_null(out_count, "out_count")?;
        check_capacity(capacity, SINEW_PROFILE_STAGE_COUNT, || {
            format!("SINEW_PROFILE_STAGE_COUNT ({SINEW_PROFILE_STAGE_COUNT})")
        })?;
        with_world(world, |w| {
            for (k, t) in w.stage_times().iter().enumerate() {
                let record = SinewStageTime {
                    nanoseconds: t.nanoseconds,
                    stage: t.stage as u32,
                    parent: t.stage.parent() as u32,
                    depth: t.stage.depth(),
                    calls: t.calls,
                };
                // SAFETY: `out` is non-null and, by this function's safety section, holds
                // `capacity` >= SINEW_PROFILE_STAGE_COUNT > k writable records;
                // `write_unaligned` needs no alignment.
                unsafe { out.add(k).write_unaligned(record) };
            }
            Ok(())
        })?;
        // SAFETY: `out_count` is non-null (checked above) and, by this function's safety
        // section, points to one writable uint32_t.
        unsafe { out_count.write_unaligned(SINEW_PROFILE_STAGE_COUNT) };
        Ok(())
    })
}

/// Writes the world's counts (bodies, particles, contacts, fluid neighbours, ...: see
/// SinewProfileCounts) to `*out_counts`. Available whether or not profiling is on.
///
/// # Safety
/// `out_counts` must be NULL or point to one writable SinewProfileCounts.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_profile_counts(
    world: SinewWorld,
    out_counts: *mut SinewProfileCounts,
) -> SinewStatus {
    // SAFETY: `out_counts` goes to `answer` unchanged; this function's safety section is
    // `answer`'s.
    unsafe {
        answer(entry!(), out_counts, "out_counts", || {
            with_world(world, |w| Ok(w.profile_counts().into()))
        })
    }
}

/// Writes the name of `stage` (a SinewProfileStage value; `snake_case`, e.g.
/// "collision_detection") to `*out_name`: a NUL-terminated static string, valid for the
/// life of the library. A value of SINEW_PROFILE_STAGE_COUNT or more is refused
/// (SINEW_ERROR_OUT_OF_RANGE).
///
/// # Safety
/// `out_name` must be NULL or point to one writable `const char*`.
#[no_mangle]
pub unsafe extern "C" fn sinew_profile_stage_name(
    stage: u32,
    out_name: *mut *const c_char,
) -> SinewStatus {
    // SAFETY: `out_name` goes to `answer` unchanged; this function's safety section is
    // `answer`'s.
    unsafe {
        answer(entry!(), out_name, "out_name", || {
            let s = ProfileStage::from_u32(stage).ok_or_else(|| {
                Failure::new(
                    SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
                    format!(
                        "stage {stage} is not a SinewProfileStage (0..{SINEW_PROFILE_STAGE_COUNT})"
                    ),
                )
            })?;
            Ok(STAGE_NAMES[s as usize].as_ptr())
        })
    }
}

/// The stage names, NUL-terminated (checked against the profiler's by a unit test).
const STAGE_NAMES: [&CStr; PROFILE_STAGE_COUNT] = [
    c"step",
    c"substep",
    c"fluid_emit",
    c"collision_detection",
    c"constraint_step",
    c"wind",
    c"skinning",
    c"integrate",
    c"constraint_substep",
    c"collider_detection",
    c"distance",
    c"link",
    c"dihedral",
    c"isometric",
    c"tet_volume",
    c"triangle_strain",
    c"tet_strain",
    c"pressure",
    c"rings",
    c"shapes",
    c"unilateral_area",
    c"unilateral_volume",
    c"fluid_density",
    c"tether",
    c"attachments",
    c"torn",
    c"contacts",
    c"topology",
    c"fluid_velocity",
    c"recovery",
];

/// A host's profiler callback with its user data (sinew_world_set_profile_callback).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewProfileHook {
    /// Called at each stage boundary. Not NULL.
    pub callback: SinewProfileCallback,
    /// Passed back to `callback` untouched (may be NULL).
    pub user_data: *mut c_void,
}

/// Installs `hook->callback` (called with `hook->user_data` at each boundary of each
/// step, from the next step on; see SinewProfileCallback) or, with `hook` NULL,
/// removes it. A NULL callback is refused (SINEW_ERROR_INVALID_ARGUMENT, the world
/// keeps its hook). A step with a callback is timed too (sinew_world_read_stage_times),
/// whatever sinew_world_set_profiling says. The callback is called on the thread that
/// calls the step: a world with a callback runs its substeps there rather than on a
/// worker of its thread pool (its passes still use the pool or the host task system;
/// the results are the same bits), so hosts may open their own profiler scopes in it
/// (Unity's ProfilerMarker, Unreal's TRACE_CPUPROFILER). Not simulation state:
/// snapshots neither save nor restore it.
///
/// # Safety
/// `hook` must be NULL or point to a readable SinewProfileHook whose callback follows
/// the rules of SinewProfileCallback and is callable with its user data from any thread
/// that steps the world, until the world is destroyed or given another hook.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_profile_callback(
    world: SinewWorld,
    hook: *const SinewProfileHook,
) -> SinewStatus {
    guard(entry!(), || {
        let hook = if hook.is_null() {
            None
        } else {
            // SAFETY: `hook` is non-null and, by this function's safety section, points to
            // one readable value; `read_unaligned` needs no alignment.
            let h = unsafe { hook.read_unaligned() };
            let callback = h
                .callback
                .ok_or_else(|| invalid("hook->callback is NULL".into()))?;
            Some(Box::new(HostCallback {
                callback,
                user_data: h.user_data,
            }) as Box<dyn ProfileHook>)
        };
        with_world(world, |w| {
            w.set_profile_hook(hook);
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C values and names are the profiler's.
    #[test]
    fn stages_match_the_profiler() {
        for s in ProfileStage::ALL {
            assert_eq!(STAGE_NAMES[s as usize].to_str().unwrap(), s.name());
        }
        assert_eq!(
            SinewProfileStage::SINEW_PROFILE_STAGE_RECOVERY as u32,
            ProfileStage::Recovery as u32
        );
        assert_eq!(
            SinewProfileStage::SINEW_PROFILE_STAGE_FLUID_DENSITY as u32,
            ProfileStage::FluidDensity as u32
        );
        assert_eq!(
            SinewProfileStage::SINEW_PROFILE_STAGE_CONSTRAINT_STEP as u32,
            ProfileStage::ConstraintStep as u32
        );
    }
}
