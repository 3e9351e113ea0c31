//! The API-sequence fuzzer: random sequences of calls to every `sinew_*` function of
//! `include/sinew.h`, made through the `extern "C"` entry points exactly as a C host
//! makes them (raw pointers, NULLs, misaligned arrays, hostile numbers, destroyed and
//! forged handles, and valid and extreme-but-allowed values).
//!
//! Shared by the stable test `tests/ffi/fuzz_api.rs` (a deterministic generator) and the
//! `cargo fuzz` target `fuzz/fuzz_targets/api_sequence.rs` (libFuzzer's bytes), so both
//! drive the same calls with the same checks:
//!
//! * every status is one of the documented `SinewStatus` values, and never INTERNAL (a
//!   caught panic);
//! * a failed call leaves its outputs untouched (every output is prefilled with a
//!   sentinel and compared byte for byte) and the world unchanged (a digest of counts,
//!   positions and velocities, compared before and after);
//! * a successful call never leaves a non-finite position or velocity;
//! * steps are timed per particle, and the slowest is reported as a ratio to the
//!   median (a report, never an assertion on a timer).
//!
//! The harness honours every pointer contract of the header (a buffer is always as large
//! as the count the call is told, unless the call must refuse that count before
//! touching memory), so a memory error seen under AddressSanitizer is a library bug.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{c_void, CStr};
use std::time::Instant;

use sinew::ffi::attachments::{
    sinew_world_add_attachment_host, sinew_world_add_attachments,
    sinew_world_read_attachment_forces, sinew_world_set_attachment_compliance,
    sinew_world_set_attachment_host_transform, SinewTransform,
};
use sinew::ffi::bodies::{
    sinew_body_info, sinew_body_particle_range, sinew_body_read_forces, sinew_body_read_positions,
    sinew_body_set_compliance, sinew_body_set_damping, sinew_body_set_pressure, sinew_body_volume,
    sinew_cloth_desc_default, sinew_cloth_desc_init, sinew_cloth_grid_desc_default,
    sinew_cloth_grid_desc_init, sinew_pressure_body_desc_default, sinew_pressure_body_desc_init,
    sinew_rope_desc_default, sinew_rope_desc_init, sinew_tet_body_desc_default,
    sinew_tet_body_desc_init, sinew_world_add_cloth_grid, sinew_world_add_cloth_mesh,
    sinew_world_add_pressure_body, sinew_world_add_rope, sinew_world_add_rope_polyline,
    sinew_world_add_tet_body, sinew_world_body_count, sinew_world_remove_body, SinewBody,
    SinewBodyInfo, SinewClothDesc, SinewClothGridDesc, SinewPressureBodyDesc, SinewRopeDesc,
    SinewTetBodyDesc,
};
use sinew::ffi::collision::{
    sinew_collider_desc_default, sinew_collider_desc_init, sinew_collider_remove,
    sinew_collider_set_material, sinew_collider_set_transform, sinew_collision_filter_default,
    sinew_collision_filter_init, sinew_world_add_collider, sinew_world_add_heightfield_collider,
    sinew_world_add_mesh_collider, sinew_world_collider_count, sinew_world_contact_count,
    sinew_world_grab_particle, sinew_world_move_grab, sinew_world_pick_particle,
    sinew_world_read_contacts, sinew_world_release_particle, sinew_world_set_collision_filters,
    sinew_world_set_max_speed, sinew_world_set_particle_radii, sinew_world_set_unyielding,
    SinewCollider, SinewColliderDesc, SinewCollisionFilter, SinewContact,
};
use sinew::ffi::constraints::{
    sinew_world_add_distance_constraints, sinew_world_add_pbd_distance_constraints,
    sinew_world_distance_constraint_count, sinew_world_read_constraint_forces,
};
use sinew::ffi::contacts::{
    sinew_collider_contact_wrench, sinew_world_contact_event_count, sinew_world_set_contact_events,
    sinew_world_take_contact_events, SinewContactEvent, SINEW_MAX_CONTACT_EVENTS,
};
use sinew::ffi::dynamics::{
    sinew_collider_clear_dynamics, sinew_collider_pin_particles, sinew_collider_read_motion,
    sinew_collider_set_dynamics, sinew_world_read_pin_forces, sinew_world_remove_pins,
    SinewColliderDynamics, SinewColliderMotion,
};
use sinew::ffi::edit::{
    sinew_body_add_winch, sinew_body_cut_rope, sinew_body_cut_rope_along,
    sinew_body_set_break_force, sinew_body_set_mass, sinew_body_set_rest_scale,
    sinew_body_set_winch_speed, sinew_body_set_winch_target, sinew_body_winch_state,
    sinew_constraints_is_removed, sinew_constraints_read_rest, sinew_constraints_remove,
    sinew_constraints_set_break_force, sinew_constraints_set_compliance,
    sinew_constraints_set_rest, sinew_constraints_set_stiffness, sinew_world_break_event_count,
    sinew_world_take_break_events, SinewBreakEvent, SINEW_MAX_BREAK_EVENTS, SINEW_MAX_WINCH_SPEED,
};
use sinew::ffi::families::{
    sinew_world_add_dihedral_bending, sinew_world_add_isometric_bending,
    sinew_world_add_pressure_volume, sinew_world_add_ring_area, sinew_world_add_shape_cluster,
    sinew_world_add_tet_strain, sinew_world_add_tet_volume_constraints, sinew_world_add_tethers,
    sinew_world_add_triangle_strain, sinew_world_add_unilateral_areas,
    sinew_world_add_unilateral_volumes, sinew_world_family_constraint_count,
    sinew_world_pressure_volume, sinew_world_read_family_forces, sinew_world_ring_area,
    sinew_world_set_planar, sinew_world_set_shape_cluster_stiffness,
};
use sinew::ffi::fluids::{
    sinew_body_fluid_force, sinew_body_set_fluid_coupling, sinew_emitter_desc_default,
    sinew_emitter_desc_init, sinew_emitter_remove, sinew_emitter_set, sinew_fluid_add_emitter,
    sinew_fluid_add_kill_volume, sinew_fluid_clear, sinew_fluid_desc_default,
    sinew_fluid_desc_init, sinew_fluid_emit, sinew_fluid_get_desc, sinew_fluid_particle_range,
    sinew_fluid_read_particles, sinew_fluid_remove, sinew_fluid_set_desc, sinew_fluid_stats,
    sinew_kill_volume_desc_default, sinew_kill_volume_desc_init, sinew_kill_volume_remove,
    sinew_world_add_fluid, sinew_world_fluid_count, SinewEmitter, SinewEmitterDesc, SinewFluid,
    SinewFluidDesc, SinewFluidStats, SinewKillVolume, SinewKillVolumeDesc,
    SINEW_MAX_FLUID_CAPACITY,
};
use sinew::ffi::interpolation::{
    sinew_body_read_interpolated_positions, sinew_world_advance,
    sinew_world_read_interpolated_positions, SINEW_MAX_STEPS_PER_ADVANCE,
};
use sinew::ffi::lod::{sinew_body_get_sim_mode, sinew_body_set_sim_mode};
use sinew::ffi::particles::{
    sinew_world_add_particles, sinew_world_particle_count, sinew_world_read_positions,
    sinew_world_read_velocities, sinew_world_set_inverse_masses, sinew_world_write_positions,
    sinew_world_write_velocities,
};
use sinew::ffi::profile::{
    sinew_profile_stage_name, sinew_world_profile_counts, sinew_world_read_stage_times,
    sinew_world_set_profile_callback, sinew_world_set_profiling, SinewProfileCounts,
    SinewProfileHook, SinewStageTime, SINEW_PROFILE_STAGE_COUNT,
};
use sinew::ffi::skinning::{
    sinew_body_set_skin_root, sinew_body_set_skin_targets, sinew_body_set_skin_weights,
    sinew_body_teleport_to_skin, SinewSkinWeights,
};
use sinew::ffi::sleep::{
    sinew_body_is_asleep, sinew_body_sleep, sinew_body_wake, sinew_world_set_sleep_threshold,
    sinew_world_set_sleeping, sinew_world_wake_all,
};
use sinew::ffi::snapshot::{
    sinew_world_create_from_snapshot, sinew_world_restore_snapshot, sinew_world_save_snapshot,
    sinew_world_snapshot_size, sinew_world_state_hash,
};
use sinew::ffi::tasks::{sinew_world_set_task_system, SinewTaskFn, SinewTaskSystem};
use sinew::ffi::tearing::{
    sinew_body_set_tear_threshold, sinew_cloth_read_topology, sinew_cloth_tear_status,
    sinew_cloth_topology_counts, sinew_cloth_topology_version, SinewTearStatus,
    SINEW_MAX_TEAR_RESERVE,
};
use sinew::ffi::wind::{
    sinew_body_set_aerodynamics, sinew_wind_desc_default, sinew_wind_desc_init,
    sinew_wind_zone_desc_default, sinew_wind_zone_desc_init, sinew_world_add_wind_zone,
    sinew_world_remove_wind_zone, sinew_world_set_wind, sinew_world_set_wind_zone,
    sinew_world_wind_at, SinewWindDesc, SinewWindZoneDesc,
};
use sinew::ffi::world::{
    sinew_world_create, sinew_world_desc_default, sinew_world_desc_init, sinew_world_destroy,
    sinew_world_step, SinewQuat, SinewVec3, SinewWorld, SinewWorldDesc,
};
use sinew::ffi::SinewStatus::{self, *};
use sinew::ffi::{sinew_abi_version, sinew_last_error_message, sinew_version, SINEW_ABI_VERSION};

#[path = "buffers.rs"]
mod buffers;
#[path = "calls_bodies.rs"]
mod calls_bodies;
#[path = "calls_collision.rs"]
mod calls_collision;
#[path = "calls_fluids.rs"]
mod calls_fluids;
#[path = "calls_granular.rs"]
mod calls_granular;
#[path = "calls_meshes.rs"]
mod calls_meshes;
#[path = "calls_render.rs"]
mod calls_render;
#[path = "calls_world.rs"]
mod calls_world;
#[path = "descs.rs"]
mod descs;
#[path = "functions.rs"]
mod functions;
#[path = "ranges.rs"]
mod ranges;
#[path = "session.rs"]
mod session;

use buffers::*;
pub use functions::FUNCTIONS;
use functions::*;
#[allow(unused_imports)] // the stable test's, not the libFuzzer target's
pub use ranges::range_checks_self_test;
use ranges::zero_info;
pub use ranges::Check;
use session::*;

// ---------------------------------------------------------------------------------
// Sources of choices
// ---------------------------------------------------------------------------------

/// Where the fuzzer's choices come from.
pub trait Source {
    fn next_u64(&mut self) -> u64;
    /// True when a byte source is used up (the run ends).
    fn exhausted(&self) -> bool {
        false
    }
}

/// A deterministic generator (SplitMix64, Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014).
pub struct SplitMix(pub u64);

impl Source for SplitMix {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// libFuzzer's input, eight bytes per choice (zero-padded at the end).
pub struct Bytes<'a> {
    pub data: &'a [u8],
    pub at: usize,
}

impl Source for Bytes<'_> {
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        let end = (self.at + 8).min(self.data.len());
        if self.at < end {
            b[..end - self.at].copy_from_slice(&self.data[self.at..end]);
        }
        self.at += 8;
        u64::from_le_bytes(b)
    }
    fn exhausted(&self) -> bool {
        self.at >= self.data.len()
    }
}

/// Choices made from a source.
struct Gen<'a> {
    src: &'a mut dyn Source,
}

impl Gen<'_> {
    fn u64(&mut self) -> u64 {
        self.src.next_u64()
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.u64() % n
        }
    }
    /// True with probability `p` percent.
    fn pct(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
    fn unit(&mut self) -> f32 {
        (self.u64() >> 40) as f32 / (1u64 << 24) as f32
    }
    /// A float: mostly ordinary, sometimes extreme but in range, sometimes hostile.
    fn float(&mut self, lo: f32, hi: f32) -> f32 {
        match self.below(100) {
            0..=79 => lo + (hi - lo) * self.unit(),
            80..=84 => 0.0,
            85..=89 => [1e-30, 1e-7, 1e4, 1e6, 1e9, -1e9][self.below(6) as usize],
            _ => [
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                -1.0,
                3e38,
                f32::MAX,
                -0.0,
                f32::MIN_POSITIVE / 2.0,
                -3e38,
                f32::from_bits(self.u64() as u32),
            ][self.below(10) as usize],
        }
    }
    fn compliance(&mut self) -> f32 {
        if self.pct(60) {
            [0.0, 1e-9, 1e-6, 1e-4, 1e-2][self.below(5) as usize]
        } else {
            self.float(0.0, 1.0)
        }
    }
    fn vec3(&mut self, scale: f32) -> SinewVec3 {
        if self.pct(95) {
            SinewVec3 {
                x: (self.unit() - 0.5) * 2.0 * scale,
                y: (self.unit() - 0.5) * 2.0 * scale,
                z: (self.unit() - 0.5) * 2.0 * scale,
            }
        } else {
            SinewVec3 {
                x: self.float(-scale, scale),
                y: self.float(-scale, scale),
                z: self.float(-scale, scale),
            }
        }
    }
    fn quat(&mut self) -> SinewQuat {
        match self.below(10) {
            0 => SinewQuat {
                x: self.float(-1.0, 1.0),
                y: self.float(-1.0, 1.0),
                z: self.float(-1.0, 1.0),
                w: self.float(-1.0, 1.0),
            },
            1..=4 => SinewQuat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            },
            _ => {
                let (x, y, z, w) = (
                    self.unit() - 0.5,
                    self.unit() - 0.5,
                    self.unit() - 0.5,
                    self.unit() - 0.5 + 1e-3,
                );
                let n = (x * x + y * y + z * z + w * w).sqrt();
                SinewQuat {
                    x: x / n,
                    y: y / n,
                    z: z / n,
                    w: w / n,
                }
            }
        }
    }
    /// An index below `n`, sometimes just past it, sometimes absurd.
    fn index(&mut self, n: u32) -> u32 {
        match self.below(100) {
            0..=89 => self.below(n.max(1) as u64) as u32,
            90..=94 => n + self.below(3) as u32,
            _ => [u32::MAX, u32::MAX - 1, 1 << 28, 1 << 31][self.below(4) as usize],
        }
    }
    /// A small element count, sometimes 0 or huge.
    fn count(&mut self, typical: u32) -> u32 {
        match self.below(100) {
            0..=89 => 1 + self.below(typical.max(1) as u64) as u32,
            90..=94 => 0,
            _ => [u32::MAX, 1 << 28, (1 << 28) + 1, 1 << 20][self.below(4) as usize],
        }
    }
}

// ---------------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------------

/// What a check found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A status outside the documented SinewStatus values.
    UndocumentedStatus,
    /// SINEW_ERROR_INTERNAL (a panic caught at the boundary).
    Internal,
    /// SINEW_ERROR_INTERNAL from an integer overflow check (a debug build's panic; a
    /// release build wraps silently instead).
    InternalArithmeticOverflow,
    /// A failed call wrote to an output.
    OutputTouchedOnFailure,
    /// A failed call changed the world.
    WorldChangedOnFailure,
    /// A step returned OK and left a non-finite position or velocity.
    NonFiniteAfterStep,
    /// Another call returned OK and left a non-finite position or velocity.
    NonFiniteAfterAccepted,
    /// A failed call left no message, or one not naming the function.
    BadErrorMessage,
    /// An accepted call handed back an output outside its documented range.
    OutOfRange(Check),
    /// The same in a world restored from a damaged snapshot the harness resealed
    /// (a valid checksum): the loader accepted a state the API cannot build.
    OutOfRangeAfterForgedSnapshot(Check),
    /// SINEW_ERROR_INTERNAL in a world restored from such a snapshot.
    InternalAfterForgedSnapshot,
    /// A snapshot the library saved, passed back as it was, refused by
    /// `sinew_world_restore_snapshot` or `sinew_world_create_from_snapshot`.
    OwnSnapshotRefused,
    /// A world that restored the snapshot it had just saved reads another state hash.
    OwnSnapshotChanged,
    /// After an accepted step, the world's snapshot loaded into a world of 1 thread and
    /// one of 3, each stepped by the same 1/60 s, answered two statuses or read two
    /// state hashes (the header: results never depend on the thread count).
    ThreadCountChanged,
}

/// Findings of defects that are known and being fixed, reported (with their count and
/// first examples) without failing the run. Each entry names its defect (an issue 28
/// item, or a defect this fuzzer found that awaits an issue); remove it when the fix
/// is merged, so that the check guards the fix from then on. Any other finding fails
/// the run.
pub const KNOWN_OPEN: &[(Kind, &str)] = &[];

/// Whether `kind` is a known open defect (see [`KNOWN_OPEN`]).
/// A defect seen on valid input shows after a forged snapshot too.
pub fn known_open(kind: &Kind) -> bool {
    let valid = match *kind {
        Kind::OutOfRangeAfterForgedSnapshot(c) => Kind::OutOfRange(c),
        k => k,
    };
    KNOWN_OPEN.iter().any(|(k, _)| *k == valid || k == kind)
}

/// A finding, with enough to reproduce it.
#[derive(Clone, Debug)]
pub struct Finding {
    pub kind: Kind,
    pub function: &'static str,
    pub detail: String,
    /// The calls accepted on that world before, oldest first (the last 12).
    pub history: Vec<String>,
}

/// What a run did.
#[derive(Default)]
pub struct Report {
    pub calls: u64,
    pub ok_calls: u64,
    pub steps: u64,
    pub called: BTreeSet<&'static str>,
    pub findings: Vec<Finding>,
    /// Per kind: how many (only the first few per kind are kept in `findings`).
    pub counts: BTreeMap<Kind, u64>,
    /// Step seconds per (particle + 1): median and worst of this run.
    pub step_cost: Vec<f64>,
}

impl Report {
    /// The slowest step as a multiple of the median step, per particle.
    pub fn slowest_step_ratio(&self) -> f64 {
        let mut c = self.step_cost.clone();
        if c.is_empty() {
            return 0.0;
        }
        c.sort_by(|a, b| a.total_cmp(b));
        c[c.len() - 1] / c[c.len() / 2].max(1e-12)
    }

    pub fn merge(&mut self, other: Report) {
        self.calls += other.calls;
        self.ok_calls += other.ok_calls;
        self.steps += other.steps;
        self.called.extend(other.called);
        for (k, n) in other.counts {
            *self.counts.entry(k).or_default() += n;
        }
        for f in other.findings {
            if self.findings.iter().filter(|x| x.kind == f.kind).count() < 3 {
                self.findings.push(f);
            }
        }
        self.step_cost.extend(other.step_cost);
    }
}

thread_local! {
    /// Where the library last panicked on this thread (the boundary turns the panic
    /// into SINEW_ERROR_INTERNAL; the location goes into the finding).
    static PANIC_AT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Installs (once) a panic hook that records, instead of printing, panics raised in the
/// library's own code (`src/`), which the C boundary catches: a finding reports them.
/// Other panics (the harness's and the tests' own) print as usual.
fn quiet_library_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| match info.location() {
            Some(l) if l.file().starts_with("src/") => {
                let at = format!("{}:{}:{}", l.file(), l.line(), l.column());
                PANIC_AT.with(|p| *p.borrow_mut() = at);
            }
            _ => default(info),
        }));
    });
}

/// Runs `calls` calls (or until a byte source is used up) and returns what they found.
pub fn run(src: &mut dyn Source, calls: u64) -> Report {
    quiet_library_panics();
    let mut s = Session::new(src);
    for _ in 0..calls {
        if s.g.src.exhausted() {
            break;
        }
        s.one();
    }
    s.finish()
}

/// The `sinew_*` functions declared in a C header's text.
pub fn header_functions(header: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in header.lines() {
        if line.starts_with(' ') || line.starts_with('#') || line.starts_with('*') {
            continue;
        }
        if let Some(at) = line.find("sinew_") {
            let rest = &line[at..];
            if let Some(paren) = rest.find('(') {
                let name = &rest[..paren];
                if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    out.insert(name.to_string());
                }
            }
        }
    }
    out
}
