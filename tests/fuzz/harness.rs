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
    sinew_collider_set_material, sinew_collider_set_transform, sinew_world_add_collider,
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
use sinew::ffi::edit::{
    sinew_body_add_winch, sinew_body_cut_rope, sinew_body_cut_rope_along,
    sinew_body_set_break_force, sinew_body_set_mass, sinew_body_set_rest_scale,
    sinew_body_set_winch_speed, sinew_body_set_winch_target, sinew_body_winch_state,
    sinew_constraints_is_removed, sinew_constraints_read_rest, sinew_constraints_remove,
    sinew_constraints_set_break_force, sinew_constraints_set_compliance,
    sinew_constraints_set_rest, sinew_constraints_set_stiffness, sinew_world_break_event_count,
    sinew_world_take_break_events, SinewBreakEvent,
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
use sinew::ffi::particles::{
    sinew_world_add_particles, sinew_world_particle_count, sinew_world_read_positions,
    sinew_world_read_velocities, sinew_world_set_inverse_masses, sinew_world_write_positions,
    sinew_world_write_velocities,
};
use sinew::ffi::skinning::{
    sinew_body_set_skin_root, sinew_body_set_skin_targets, sinew_body_set_skin_weights,
    sinew_body_teleport_to_skin, SinewSkinWeights,
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
// Buffers: inputs honour the contract, outputs carry a sentinel
// ---------------------------------------------------------------------------------

const SENTINEL: u8 = 0xA5;
/// Largest buffer the harness allocates for one argument (elements); a larger count is
/// passed with a buffer of this size only where the call must refuse the count first.
const MAX_BUF: usize = 4096;

/// An input array of T: usually a valid pointer to the values, sometimes NULL,
/// sometimes a misaligned copy (the library must refuse those, never read them).
struct Input<T: Copy> {
    values: Vec<T>,
    raw: Vec<u8>,
    mode: u8, // 0 = valid, 1 = NULL, 2 = misaligned
}

impl<T: Copy> Input<T> {
    fn new(g: &mut Gen, values: Vec<T>) -> Self {
        let mode = match g.below(100) {
            0..=93 => 0,
            94..=96 => 1,
            _ if std::mem::align_of::<T>() > 1 => 2,
            _ => 0,
        };
        Self::with_mode(values, mode)
    }
    fn valid(values: Vec<T>) -> Self {
        Self::with_mode(values, 0)
    }
    fn with_mode(values: Vec<T>, mode: u8) -> Self {
        let mut raw = Vec::new();
        if mode == 2 {
            let bytes = std::mem::size_of_val(values.as_slice());
            raw = vec![0u8; bytes + 2 * std::mem::align_of::<T>()];
            let p = raw.as_mut_ptr();
            let off = p.align_offset(std::mem::align_of::<T>()) + 1;
            // SAFETY: `raw` has room for the values after `off` (< 2 alignments).
            unsafe {
                std::ptr::copy_nonoverlapping(values.as_ptr() as *const u8, p.add(off), bytes)
            };
        }
        Input { values, raw, mode }
    }
    fn ptr(&self) -> *const T {
        match self.mode {
            0 => self.values.as_ptr(),
            1 => std::ptr::null(),
            _ => {
                let p = self.raw.as_ptr();
                // SAFETY: within `raw` (see `with_mode`).
                unsafe { p.add(p.align_offset(std::mem::align_of::<T>()) + 1) as *const T }
            }
        }
    }
    fn is_valid(&self) -> bool {
        self.mode == 0
    }
}

/// An output of `n` T (n may be 0), prefilled with the sentinel; NULL sometimes.
struct Output<T> {
    buf: Vec<u8>,
    n: usize,
    null: bool,
    _t: std::marker::PhantomData<T>,
}

impl<T: Copy> Output<T> {
    fn new(g: &mut Gen, n: usize) -> Self {
        let null = g.pct(3);
        Self::sized(n, null)
    }
    fn sized(n: usize, null: bool) -> Self {
        let bytes = n.max(1) * std::mem::size_of::<T>() + std::mem::align_of::<T>();
        Output {
            buf: vec![SENTINEL; bytes],
            n,
            null,
            _t: std::marker::PhantomData,
        }
    }
    fn ptr(&mut self) -> *mut T {
        if self.null {
            return std::ptr::null_mut();
        }
        let p = self.buf.as_mut_ptr();
        // SAFETY: the buffer has one alignment of slack.
        unsafe { p.add(p.align_offset(std::mem::align_of::<T>())) as *mut T }
    }
    fn untouched(&self) -> bool {
        self.buf.iter().all(|&b| b == SENTINEL)
    }
    /// The value written at element k (after a successful call).
    fn get(&mut self, k: usize) -> T {
        // SAFETY: k < n, and the call succeeded, so element k was written.
        unsafe { self.ptr().add(k).read() }
    }
}

/// A strided vec3 output or input: `stride` bytes per element, honouring the span
/// `(count - 1) * stride + 12` for counts up to [`MAX_BUF`].
fn stride_for(g: &mut Gen, count: u32) -> u32 {
    match g.below(100) {
        0..=59 => 12,
        60..=79 => 16,
        80..=89 => [13, 20, 24, 32, 48][g.below(5) as usize],
        90..=94 => [0, 4, 11][g.below(3) as usize],
        _ if count <= 1 => [u32::MAX, 1 << 31, 1 << 20][g.below(3) as usize],
        _ => 64,
    }
}

fn strided_len(count: u32, stride: u32) -> usize {
    let count = (count as usize).min(MAX_BUF);
    if stride < 12 {
        return 12 * count.max(1);
    }
    (count.max(1) - 1) * stride as usize + 12
}

// ---------------------------------------------------------------------------------
// World digests
// ---------------------------------------------------------------------------------

/// Everything the harness compares around a failed call, floats as bits.
#[derive(PartialEq, Debug, Clone)]
struct Digest {
    counts: [u32; 5],
    positions: Vec<[u32; 3]>,
    velocities: Vec<[u32; 3]>,
}

impl Digest {
    fn first_non_finite(&self) -> Option<(usize, &'static str)> {
        let bad = |v: &[u32; 3]| v.iter().any(|&b| !f32::from_bits(b).is_finite());
        if let Some(i) = self.positions.iter().position(bad) {
            return Some((i, "position"));
        }
        self.velocities
            .iter()
            .position(bad)
            .map(|i| (i, "velocity"))
    }
}

fn digest(w: SinewWorld) -> Option<Digest> {
    let mut counts = [0u32; 5];
    // SAFETY: every output is a live local of the right type.
    unsafe {
        if sinew_world_particle_count(w, &mut counts[0]) != SINEW_OK {
            return None;
        }
        sinew_world_body_count(w, &mut counts[1]);
        sinew_world_collider_count(w, &mut counts[2]);
        sinew_world_distance_constraint_count(w, &mut counts[3]);
        sinew_world_contact_count(w, &mut counts[4]);
    }
    let n = counts[0];
    let mut p = vec![[0u32; 3]; n as usize];
    let mut v = vec![[0u32; 3]; n as usize];
    // SAFETY: both buffers hold n packed vec3 (12 bytes each).
    if n > 0 {
        unsafe {
            assert_eq!(
                sinew_world_read_positions(w, 0, n, p.as_mut_ptr().cast(), 12),
                SINEW_OK
            );
            assert_eq!(
                sinew_world_read_velocities(w, 0, n, v.as_mut_ptr().cast(), 12),
                SINEW_OK
            );
        }
    }
    Some(Digest {
        counts,
        positions: p,
        velocities: v,
    })
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

// ---------------------------------------------------------------------------------
// The session: worlds and the objects in them
// ---------------------------------------------------------------------------------

/// Largest world the harness keeps (particles): a bigger one is destroyed and replaced,
/// so that digests and steps stay cheap.
const MAX_WORLD_PARTICLES: u32 = 3000;

#[derive(Default)]
struct WorldState {
    handle: SinewWorld,
    bodies: Vec<SinewBody>,
    colliders: Vec<SinewCollider>,
    hosts: u32,
    attachments: u32,
    pressure_ids: u32,
    ring_ids: u32,
    cluster_ids: u32,
    fluids: Vec<SinewFluid>,
    emitters: Vec<SinewEmitter>,
    volumes: Vec<SinewKillVolume>,
    history: Vec<String>,
}

struct Session<'a> {
    g: Gen<'a>,
    live: Vec<WorldState>,
    dead: Vec<SinewWorld>,
    report: Report,
}

/// Every function the harness can call, by name (the coverage check compares this set
/// with the header's declarations).
pub const FUNCTIONS: &[&str] = &[
    "sinew_abi_version",
    "sinew_version",
    "sinew_last_error_message",
    "sinew_world_add_attachment_host",
    "sinew_world_set_attachment_host_transform",
    "sinew_world_add_attachments",
    "sinew_world_set_attachment_compliance",
    "sinew_world_read_attachment_forces",
    "sinew_rope_desc_default",
    "sinew_rope_desc_init",
    "sinew_cloth_desc_default",
    "sinew_cloth_desc_init",
    "sinew_cloth_grid_desc_default",
    "sinew_cloth_grid_desc_init",
    "sinew_tet_body_desc_default",
    "sinew_tet_body_desc_init",
    "sinew_pressure_body_desc_default",
    "sinew_pressure_body_desc_init",
    "sinew_world_add_rope",
    "sinew_world_add_rope_polyline",
    "sinew_world_add_cloth_mesh",
    "sinew_world_add_cloth_grid",
    "sinew_world_add_tet_body",
    "sinew_world_add_pressure_body",
    "sinew_world_remove_body",
    "sinew_world_body_count",
    "sinew_body_particle_range",
    "sinew_body_info",
    "sinew_body_read_positions",
    "sinew_body_set_compliance",
    "sinew_body_set_damping",
    "sinew_body_set_pressure",
    "sinew_body_volume",
    "sinew_body_read_forces",
    "sinew_constraints_remove",
    "sinew_constraints_is_removed",
    "sinew_constraints_set_rest",
    "sinew_constraints_read_rest",
    "sinew_constraints_set_compliance",
    "sinew_constraints_set_stiffness",
    "sinew_body_set_rest_scale",
    "sinew_body_set_mass",
    "sinew_constraints_set_break_force",
    "sinew_body_set_break_force",
    "sinew_world_break_event_count",
    "sinew_world_take_break_events",
    "sinew_body_cut_rope",
    "sinew_body_cut_rope_along",
    "sinew_body_add_winch",
    "sinew_body_set_winch_speed",
    "sinew_body_set_winch_target",
    "sinew_body_winch_state",
    "sinew_body_set_tear_threshold",
    "sinew_cloth_tear_status",
    "sinew_cloth_topology_version",
    "sinew_cloth_topology_counts",
    "sinew_cloth_read_topology",
    "sinew_collider_desc_default",
    "sinew_collider_desc_init",
    "sinew_world_add_collider",
    "sinew_world_add_mesh_collider",
    "sinew_collider_remove",
    "sinew_collider_set_transform",
    "sinew_collider_set_material",
    "sinew_world_collider_count",
    "sinew_world_set_particle_radii",
    "sinew_world_set_collision_filters",
    "sinew_world_set_unyielding",
    "sinew_world_set_max_speed",
    "sinew_world_contact_count",
    "sinew_world_read_contacts",
    "sinew_world_pick_particle",
    "sinew_world_grab_particle",
    "sinew_world_move_grab",
    "sinew_world_release_particle",
    "sinew_world_add_distance_constraints",
    "sinew_world_add_pbd_distance_constraints",
    "sinew_world_distance_constraint_count",
    "sinew_world_read_constraint_forces",
    "sinew_world_add_tethers",
    "sinew_world_add_dihedral_bending",
    "sinew_world_add_isometric_bending",
    "sinew_world_add_tet_volume_constraints",
    "sinew_world_add_pressure_volume",
    "sinew_world_family_constraint_count",
    "sinew_world_read_family_forces",
    "sinew_world_pressure_volume",
    "sinew_world_add_triangle_strain",
    "sinew_world_add_tet_strain",
    "sinew_world_add_unilateral_areas",
    "sinew_world_add_unilateral_volumes",
    "sinew_world_set_planar",
    "sinew_world_add_ring_area",
    "sinew_world_ring_area",
    "sinew_world_add_shape_cluster",
    "sinew_world_set_shape_cluster_stiffness",
    "sinew_world_add_particles",
    "sinew_world_particle_count",
    "sinew_world_read_positions",
    "sinew_world_write_positions",
    "sinew_world_read_velocities",
    "sinew_world_write_velocities",
    "sinew_world_set_inverse_masses",
    "sinew_world_desc_default",
    "sinew_world_desc_init",
    "sinew_world_create",
    "sinew_world_destroy",
    "sinew_world_step",
    "sinew_wind_desc_default",
    "sinew_wind_desc_init",
    "sinew_world_set_wind",
    "sinew_wind_zone_desc_default",
    "sinew_wind_zone_desc_init",
    "sinew_world_add_wind_zone",
    "sinew_world_set_wind_zone",
    "sinew_world_remove_wind_zone",
    "sinew_world_wind_at",
    "sinew_body_set_aerodynamics",
    "sinew_body_set_skin_weights",
    "sinew_body_set_skin_targets",
    "sinew_body_set_skin_root",
    "sinew_body_teleport_to_skin",
    "sinew_world_snapshot_size",
    "sinew_world_save_snapshot",
    "sinew_world_restore_snapshot",
    "sinew_world_create_from_snapshot",
    "sinew_world_state_hash",
    "sinew_world_advance",
    "sinew_world_read_interpolated_positions",
    "sinew_body_read_interpolated_positions",
    "sinew_world_set_task_system",
    "sinew_fluid_desc_default",
    "sinew_fluid_desc_init",
    "sinew_emitter_desc_default",
    "sinew_emitter_desc_init",
    "sinew_kill_volume_desc_default",
    "sinew_kill_volume_desc_init",
    "sinew_world_add_fluid",
    "sinew_fluid_remove",
    "sinew_world_fluid_count",
    "sinew_fluid_get_desc",
    "sinew_fluid_set_desc",
    "sinew_fluid_particle_range",
    "sinew_fluid_stats",
    "sinew_fluid_emit",
    "sinew_fluid_clear",
    "sinew_fluid_add_emitter",
    "sinew_emitter_set",
    "sinew_emitter_remove",
    "sinew_fluid_add_kill_volume",
    "sinew_kill_volume_remove",
    "sinew_fluid_read_particles",
    "sinew_body_set_fluid_coupling",
    "sinew_body_fluid_force",
];

/// A host task system for the fuzzer: runs every range inside `enqueue`, one item at a
/// time, forwards (user_context NULL) or backwards (non-NULL), and returns NULL.
unsafe extern "C" fn fuzz_enqueue(
    task: SinewTaskFn,
    item_count: u32,
    _min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void {
    let task = task.expect("Sinew passes a task");
    for k in 0..item_count {
        let i = if user_context.is_null() {
            k
        } else {
            item_count - 1 - k
        };
        // SAFETY: Sinew's task over its own items, before enqueue returns.
        unsafe { task(i, i + 1, task_context) };
    }
    std::ptr::null_mut()
}

/// Never called: `fuzz_enqueue` returns NULL.
unsafe extern "C" fn fuzz_finish(_host_task: *mut c_void, _user_context: *mut c_void) {
    panic!("finish called for a NULL handle");
}

/// `values` laid out every `stride` bytes (at least 12), in a byte buffer.
fn strided_copy(values: &[SinewVec3], stride: u32) -> Vec<u8> {
    let stride = (stride as usize).max(12);
    let mut out = vec![0u8; strided_len(values.len() as u32, stride as u32).max(12)];
    for (k, v) in values.iter().enumerate() {
        let at = k * stride;
        if at + 12 <= out.len() {
            out[at..at + 4].copy_from_slice(&v.x.to_ne_bytes());
            out[at + 4..at + 8].copy_from_slice(&v.y.to_ne_bytes());
            out[at + 8..at + 12].copy_from_slice(&v.z.to_ne_bytes());
        }
    }
    out
}

fn v3z() -> SinewVec3 {
    SinewVec3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    }
}

/// The closed surface of an octahedron (8 outward triangles), for pressure bodies and
/// mesh colliders.
const OCTA_TRIS: [u32; 24] = [
    0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5,
];

fn octa(scale: f32, at: SinewVec3) -> Vec<SinewVec3> {
    [
        (1.0, 0.0, 0.0),
        (-1.0, 0.0, 0.0),
        (0.0, 0.0, 1.0),
        (0.0, 0.0, -1.0),
        (0.0, 1.0, 0.0),
        (0.0, -1.0, 0.0),
    ]
    .iter()
    .map(|&(x, y, z)| SinewVec3 {
        x: at.x + x * scale,
        y: at.y + y * scale,
        z: at.z + z * scale,
    })
    .collect()
}

fn last_error() -> String {
    let p = sinew_last_error_message();
    if p.is_null() {
        return String::new();
    }
    // SAFETY: a NUL-terminated string valid until the next failing call on this thread.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The outcome of one call: its status and whether its outputs were left alone.
struct Outcome {
    status: SinewStatus,
    outputs_untouched: bool,
}

impl Outcome {
    fn new(status: SinewStatus, outputs_untouched: bool) -> Self {
        Outcome {
            status,
            outputs_untouched,
        }
    }
}

impl<'a> Session<'a> {
    fn new(src: &'a mut dyn Source) -> Self {
        Session {
            g: Gen { src },
            live: Vec::new(),
            dead: Vec::new(),
            report: Report::default(),
        }
    }

    fn find(&mut self, kind: Kind, function: &'static str, detail: String, w: Option<usize>) {
        *self.report.counts.entry(kind).or_default() += 1;
        if self
            .report
            .findings
            .iter()
            .filter(|f| f.kind == kind)
            .count()
            < 3
        {
            let history = w
                .and_then(|i| self.live.get(i))
                .map(|s| s.history.clone())
                .unwrap_or_default();
            self.report.findings.push(Finding {
                kind,
                function,
                detail,
                history,
            });
        }
    }

    /// A world handle for the next call: usually a live one (its index returned),
    /// sometimes null, destroyed or forged.
    fn pick_world(&mut self) -> (SinewWorld, Option<usize>) {
        let r = self.g.below(100);
        if !self.live.is_empty() && r < 90 {
            let i = self.g.below(self.live.len() as u64) as usize;
            return (self.live[i].handle, Some(i));
        }
        let w = match r % 3 {
            0 => SinewWorld { id: 0 },
            1 if !self.dead.is_empty() => self.dead[self.g.below(self.dead.len() as u64) as usize],
            _ => SinewWorld { id: self.g.u64() },
        };
        // A forged id may match a live world by chance: then it is that world.
        let idx = self.live.iter().position(|s| s.handle == w);
        (w, idx)
    }

    fn particle_count(w: SinewWorld) -> u32 {
        let mut n = 0;
        // SAFETY: a live local.
        unsafe { sinew_world_particle_count(w, &mut n) };
        n
    }

    fn create_world(&mut self) -> Outcome {
        let mut desc = sinew_world_desc_default();
        let g = &mut self.g;
        desc.threads = [1, 1, 2, 0][g.below(4) as usize];
        desc.substeps = [1, 2, 4, 8][g.below(4) as usize];
        desc.solver = g.below(2) as u32;
        if g.pct(10) {
            desc.gravity = g.vec3(20.0);
        }
        if g.pct(8) {
            match g.below(7) {
                0 => desc.substeps = [0, 1025, u32::MAX][g.below(3) as usize],
                1 => desc.iterations = [0, 1025, 1024, 3][g.below(4) as usize],
                2 => desc.solver = 2 + g.below(10) as u32,
                3 => desc.jacobi_relaxation = g.float(0.0, 2.0),
                4 => desc.damping = g.float(0.0, 10.0),
                5 => desc.internal_cookie ^= 1 + g.below(1000) as u32,
                _ => desc.threads = [3, 64, u32::MAX][g.below(3) as usize],
            }
        }
        if desc.threads > 2 || desc.iterations > 8 || desc.substeps > 8 {
            // Keep the run bounded: only the refusal of these is interesting.
            if desc.substeps <= 1024 && desc.iterations <= 1024 && desc.threads <= 64 {
                desc.iterations = desc.iterations.min(8);
                desc.substeps = desc.substeps.min(8);
                desc.threads = desc.threads.min(2);
            }
        }
        let via_init = self.g.pct(30);
        if via_init {
            let mut d2 = Output::<SinewWorldDesc>::sized(1, false);
            // SAFETY: one writable desc.
            let st = unsafe { sinew_world_desc_init(d2.ptr()) };
            self.report.called.insert("sinew_world_desc_init");
            if st == SINEW_OK && d2.get(0) != sinew_world_desc_default() {
                self.find(
                    Kind::OutputTouchedOnFailure,
                    "sinew_world_desc_init",
                    "desc_init and desc_default differ".into(),
                    None,
                );
            }
        }
        let null_desc = self.g.pct(2);
        let mut out = Output::<SinewWorld>::new(&mut self.g, 1);
        let dp: *const SinewWorldDesc = if null_desc { std::ptr::null() } else { &desc };
        // SAFETY: NULL or a live desc; NULL or one writable handle.
        let st = unsafe { sinew_world_create(dp, out.ptr()) };
        if st == SINEW_OK {
            let w = out.get(0);
            self.live.push(WorldState {
                handle: w,
                ..Default::default()
            });
        }
        Outcome::new(st, st == SINEW_OK || out.untouched())
    }

    /// Runs one random call and checks it.
    fn one(&mut self) {
        if self.live.is_empty() || (self.live.len() < 3 && self.g.pct(2)) {
            let o = self.create_world();
            self.record("sinew_world_create", o, None, None);
            return;
        }
        let which = self.g.below(FUNCTIONS.len() as u64 + 12) as usize;
        // Extra weight on stepping and adding particles.
        let name = if which >= FUNCTIONS.len() {
            if which % 2 == 0 {
                "sinew_world_step"
            } else {
                "sinew_world_add_particles"
            }
        } else {
            FUNCTIONS[which]
        };
        if name == "sinew_world_create" {
            let o = self.create_world();
            self.record(name, o, None, None);
            return;
        }
        let (w, wi) = self.pick_world();
        let before = wi.and_then(|_| digest(w));
        let started = Instant::now();
        let o = self.call(name, w, wi);
        if name == "sinew_world_step" && o.status == SINEW_OK {
            self.report.steps += 1;
            let n = before.as_ref().map_or(0, |d| d.counts[0]);
            self.report
                .step_cost
                .push(started.elapsed().as_secs_f64() / (n as f64 + 1.0));
        }
        self.record(name, o, wi, before);
    }

    /// Checks a call's outcome against the contract.
    fn record(
        &mut self,
        name: &'static str,
        o: Outcome,
        wi: Option<usize>,
        before: Option<Digest>,
    ) {
        self.report.calls += 1;
        self.report.called.insert(name);
        let code = o.status as i32;
        // SINEW_ERROR_NON_FINITE is documented for the step alone: the step ran, some
        // bodies met NaN or infinity and were put back where they were, at rest (the
        // world did change, and every particle must be finite afterwards).
        // sinew_world_advance runs steps and reports theirs.
        let non_finite_step = o.status == SINEW_ERROR_NON_FINITE
            && (name == "sinew_world_step" || name == "sinew_world_advance");
        if !(0..=6).contains(&code) && !non_finite_step {
            self.find(Kind::UndocumentedStatus, name, format!("status {code}"), wi);
            return;
        }
        if o.status == SINEW_ERROR_INTERNAL {
            let at = PANIC_AT.with(|p| std::mem::take(&mut *p.borrow_mut()));
            let m = format!("{} (at {at})", last_error());
            let kind = if m.contains("overflow") {
                Kind::InternalArithmeticOverflow
            } else {
                Kind::Internal
            };
            self.find(kind, name, m, wi);
            // A panic may stop a call half-way: that is the finding, not what it left.
            return;
        }
        if o.status != SINEW_OK {
            if !o.outputs_untouched {
                self.find(
                    Kind::OutputTouchedOnFailure,
                    name,
                    format!("{:?}", o.status),
                    wi,
                );
            }
            let m = last_error();
            if !m.starts_with(name) || m.len() <= name.len() + 2 {
                self.find(Kind::BadErrorMessage, name, m, wi);
            }
        } else {
            self.report.ok_calls += 1;
        }
        let Some(i) = wi else { return };
        if name == "sinew_world_destroy" && o.status == SINEW_OK {
            let s = self.live.swap_remove(i);
            self.dead.push(s.handle);
            return;
        }
        let w = self.live[i].handle;
        let after = digest(w);
        if o.status != SINEW_OK && !non_finite_step {
            if let (Some(b), Some(a)) = (&before, &after) {
                if a != b {
                    let what = if a.counts != b.counts {
                        format!("counts {:?} -> {:?}", b.counts, a.counts)
                    } else {
                        "positions or velocities changed".into()
                    };
                    self.find(
                        Kind::WorldChangedOnFailure,
                        name,
                        format!("{:?}: {what}", o.status),
                        wi,
                    );
                }
            }
            return;
        }
        let s = &mut self.live[i];
        s.history.push(name.to_string());
        if s.history.len() > 12 {
            s.history.remove(0);
        }
        let bad = after.as_ref().and_then(|a| a.first_non_finite());
        let was_bad = before.as_ref().and_then(|b| b.first_non_finite());
        if let (Some((p, what)), None) = (bad, was_bad) {
            let kind = if name == "sinew_world_step" {
                Kind::NonFiniteAfterStep
            } else {
                Kind::NonFiniteAfterAccepted
            };
            self.find(kind, name, format!("particle {p}: non-finite {what}"), wi);
        }
        if bad.is_some() || after.is_some_and(|a| a.counts[0] > MAX_WORLD_PARTICLES) {
            // Start afresh: a broken or oversized world says nothing more.
            let s = self.live.swap_remove(i);
            assert_eq!(sinew_world_destroy(s.handle), SINEW_OK);
            self.dead.push(s.handle);
        }
    }

    fn state(&mut self, wi: Option<usize>) -> WorldState {
        wi.map(|i| WorldState {
            handle: self.live[i].handle,
            bodies: self.live[i].bodies.clone(),
            colliders: self.live[i].colliders.clone(),
            hosts: self.live[i].hosts,
            attachments: self.live[i].attachments,
            pressure_ids: self.live[i].pressure_ids,
            ring_ids: self.live[i].ring_ids,
            cluster_ids: self.live[i].cluster_ids,
            fluids: self.live[i].fluids.clone(),
            emitters: self.live[i].emitters.clone(),
            volumes: self.live[i].volumes.clone(),
            history: Vec::new(),
        })
        .unwrap_or_default()
    }

    fn body(&mut self, s: &WorldState) -> SinewBody {
        if !s.bodies.is_empty() && self.g.pct(90) {
            s.bodies[self.g.below(s.bodies.len() as u64) as usize]
        } else {
            SinewBody {
                id: [0, self.g.u64(), 1, 1 << 32 | 1][self.g.below(4) as usize],
            }
        }
    }

    fn collider(&mut self, s: &WorldState) -> SinewCollider {
        if !s.colliders.is_empty() && self.g.pct(90) {
            s.colliders[self.g.below(s.colliders.len() as u64) as usize]
        } else {
            SinewCollider {
                id: [0, self.g.u64(), 1][self.g.below(3) as usize],
            }
        }
    }

    /// `k`-tuples of particle indices (`count` of them) below `n`, sometimes not.
    fn tuples(&mut self, n: u32, k: usize, count: u32) -> Input<u32> {
        let len = (count as usize).min(MAX_BUF) * k;
        let mut v = Vec::with_capacity(len);
        let distinct = self.g.pct(85);
        for _ in 0..(count as usize).min(MAX_BUF) {
            if distinct && n as usize >= k {
                let start = self.g.below(n as u64) as u32;
                let step = 1 + self.g.below((n as u64 / k as u64).max(1)) as u32;
                for j in 0..k as u32 {
                    v.push((start + j * step) % n);
                }
            } else {
                for _ in 0..k {
                    v.push(self.g.index(n));
                }
            }
        }
        Input::new(&mut self.g, v)
    }

    fn floats(&mut self, count: u32, lo: f32, hi: f32) -> Input<f32> {
        let v = (0..(count as usize).min(MAX_BUF))
            .map(|_| self.g.float(lo, hi))
            .collect();
        Input::new(&mut self.g, v)
    }

    /// An optional float array: NULL (meaning "default") a third of the time.
    fn opt_floats(&mut self, count: u32, lo: f32, hi: f32) -> Input<f32> {
        if self.g.pct(33) {
            Input::with_mode(Vec::new(), 1)
        } else {
            self.floats(count, lo, hi)
        }
    }

    /// Count for an array argument whose buffer holds `min(count, MAX_BUF)` elements:
    /// a count above MAX_BUF is only passed where the call must refuse it before
    /// reading (above the largest batch, or above what the world holds).
    fn array_count(&mut self, typical: u32) -> u32 {
        let c = self.g.count(typical);
        if c as usize > MAX_BUF && c <= 1 << 28 {
            // Between MAX_BUF and the batch limit the call could accept it and read: a
            // lie about the buffer. Use the refused limit instead.
            (1 << 28) + 1
        } else {
            c
        }
    }

    fn desc_rope(&mut self) -> SinewRopeDesc {
        let mut d = sinew_rope_desc_default();
        if self.g.pct(20) {
            let mut o = Output::<SinewRopeDesc>::sized(1, self.g.pct(10));
            // SAFETY: NULL or one writable desc.
            let st = unsafe { sinew_rope_desc_init(o.ptr()) };
            self.record(
                "sinew_rope_desc_init",
                Outcome::new(st, st == SINEW_OK || o.untouched()),
                None,
                None,
            );
            if st == SINEW_OK {
                d = o.get(0);
            }
        }
        let g = &mut self.g;
        d.start = g.vec3(2.0);
        d.end = g.vec3(2.0);
        d.segments = match g.below(20) {
            0 => [0, 100_000, u32::MAX][g.below(3) as usize],
            _ => 1 + g.below(30) as u32,
        };
        if g.pct(30) {
            match g.below(8) {
                0 => d.total_mass = g.float(0.0, 10.0),
                1 => d.radius = g.float(0.0, 0.1),
                2 => d.stretch_compliance = g.compliance(),
                3 => d.bend_compliance = g.compliance(),
                4 => d.tethers = g.below(3) as u32,
                5 => d.pin_end = g.below(3) as u32,
                6 => d.damping = g.float(0.0, 5.0),
                _ => d.internal_cookie ^= 1,
            }
        }
        d
    }

    fn desc_cloth(&mut self) -> SinewClothDesc {
        let mut d = sinew_cloth_desc_default();
        if self.g.pct(20) {
            let mut o = Output::<SinewClothDesc>::sized(1, self.g.pct(10));
            // SAFETY: NULL or one writable desc.
            let st = unsafe { sinew_cloth_desc_init(o.ptr()) };
            self.record(
                "sinew_cloth_desc_init",
                Outcome::new(st, st == SINEW_OK || o.untouched()),
                None,
                None,
            );
            if st == SINEW_OK {
                d = o.get(0);
            }
        }
        let g = &mut self.g;
        d.model = if g.pct(95) { g.below(2) as u32 } else { 7 };
        d.bending = if g.pct(95) { g.below(4) as u32 } else { 9 };
        if g.pct(40) {
            match g.below(8) {
                0 => d.stretch_compliance = g.compliance(),
                1 => d.weft_compliance = g.compliance(),
                2 => d.shear_compliance = g.compliance(),
                3 => d.bend_compliance = g.compliance(),
                4 => d.warp = g.vec3(1.0),
                5 => d.tethers = g.below(3) as u32,
                6 => d.damping = g.float(0.0, 5.0),
                _ => d.internal_cookie ^= 1,
            }
        }
        d
    }

    /// A snapshot of `w` through the C ABI, when `w` is a live world.
    fn snapshot_of(&mut self, w: SinewWorld) -> Option<Vec<u8>> {
        let mut size = 0u64;
        // SAFETY: valid pointers; the buffer holds `size` bytes.
        unsafe {
            if sinew_world_snapshot_size(w, &mut size) != SINEW_OK {
                return None;
            }
            let mut b = vec![0u8; size as usize];
            let mut written = 0u64;
            let st = sinew_world_save_snapshot(w, b.as_mut_ptr(), size, &mut written);
            assert_eq!(st, SINEW_OK, "saving a live world failed: {}", last_error());
            assert_eq!(written, size);
            Some(b)
        }
    }

    /// Calls `name` on world `w` with generated arguments.
    /// A wind desc: valid values up to the limits, sometimes one field out of range.
    fn desc_wind(&mut self) -> SinewWindDesc {
        let g = &mut self.g;
        let mut d = sinew_wind_desc_default();
        d.velocity = g.vec3(20.0);
        if g.pct(30) {
            d.velocity = g.vec3(1e4);
        }
        d.air_density = g.float(0.0, 1e4);
        d.turbulence = g.float(0.0, 10.0);
        d.turbulence_scale = g.float(1e-3, 10.0);
        d.turbulence_frequency = g.float(0.0, 10.0);
        if g.pct(10) {
            match g.below(4) {
                0 => d.air_density = -1.0,
                1 => d.turbulence_scale = 0.0,
                2 => d.turbulence_frequency = 1e4,
                _ => d.internal_cookie ^= 1,
            }
        }
        d
    }

    /// A wind zone desc around the origin, sometimes malformed.
    fn desc_wind_zone(&mut self) -> SinewWindZoneDesc {
        let g = &mut self.g;
        let mut d = sinew_wind_zone_desc_default();
        d.shape = if g.pct(95) {
            g.below(2) as u32
        } else {
            2 + g.below(5) as u32
        };
        d.position = g.vec3(3.0);
        d.rotation = g.quat();
        d.half_extents = g.vec3(3.0);
        d.radius = g.float(0.0, 5.0);
        d.direction = if g.pct(20) { v3z() } else { g.vec3(1.0) };
        d.strength = g.float(0.0, 50.0);
        d.turbulence = g.float(0.0, 20.0);
        d.falloff = g.float(0.0, 1.0);
        if g.pct(5) {
            d.internal_cookie ^= 1;
        }
        d
    }

    /// A fluid desc: small capacities (the world stays small), valid values up to
    /// the limits, sometimes one field out of range.
    fn desc_fluid(&mut self) -> SinewFluidDesc {
        let g = &mut self.g;
        let mut d = sinew_fluid_desc_default();
        d.capacity = 1 + g.below(200) as u32;
        d.spacing = [0.02, 0.05, 0.1, 0.5][g.below(4) as usize];
        d.rest_density = [1000.0, 800.0, 1.0, 1e5][g.below(4) as usize];
        if g.pct(30) {
            d.smoothing_radius = d.spacing * (1.0 + 3.0 * g.unit());
        }
        d.viscosity = g.float(0.0, 1.0);
        d.vorticity = if g.pct(70) { 0.0 } else { g.float(0.0, 10.0) };
        d.cohesion = if g.pct(70) { 0.0 } else { g.float(0.0, 10.0) };
        d.adhesion = if g.pct(70) { 0.0 } else { g.float(0.0, 10.0) };
        d.scorr_n = 1 + g.below(8) as u32;
        d.scorr_dq = g.float(0.0, 0.9);
        d.lifetime = if g.pct(70) { 0.0 } else { g.float(0.0, 5.0) };
        d.recycle_oldest = g.below(2) as u32;
        d.coupling_mask = [u32::MAX, 0, 1][g.below(3) as usize];
        if g.pct(10) {
            match g.below(8) {
                0 => d.rest_density = g.float(-1.0, 0.0),
                1 => d.spacing = [0.0, 1e-4, 20.0, f32::NAN][g.below(4) as usize],
                2 => d.capacity = [0, SINEW_MAX_FLUID_CAPACITY + 1, u32::MAX][g.below(3) as usize],
                3 => d.smoothing_radius = d.spacing * 0.5,
                4 => d.recycle_oldest = 2 + g.below(5) as u32,
                5 => d.scorr_n = [0, 9, u32::MAX][g.below(3) as usize],
                6 => d.collision_radius = g.float(1.0, 100.0),
                _ => d.internal_cookie ^= 1,
            }
        }
        d
    }

    /// An emitter desc near the origin, sometimes malformed.
    fn desc_emitter(&mut self) -> SinewEmitterDesc {
        let g = &mut self.g;
        let mut d = sinew_emitter_desc_default();
        d.shape = if g.pct(95) {
            g.below(2) as u32
        } else {
            2 + g.below(5) as u32
        };
        d.radius = g.float(0.0, 0.3);
        d.half_extents = g.vec3(0.3);
        d.position = g.vec3(2.0);
        d.rotation = g.quat();
        d.speed = g.float(0.0, 10.0);
        d.rate = g.float(0.0, 2000.0);
        if g.pct(5) {
            d.internal_cookie ^= 1;
        }
        d
    }

    /// A kill-volume desc near the origin, sometimes malformed.
    fn desc_kill_volume(&mut self) -> SinewKillVolumeDesc {
        let g = &mut self.g;
        let mut d = sinew_kill_volume_desc_default();
        d.shape = if g.pct(95) {
            g.below(3) as u32
        } else {
            3 + g.below(5) as u32
        };
        d.center = g.vec3(3.0);
        d.rotation = g.quat();
        d.half_extents = g.vec3(1.0);
        d.radius = g.float(0.0, 1.0);
        d.normal = g.vec3(1.0);
        if g.pct(5) {
            d.internal_cookie ^= 1;
        }
        d
    }

    fn fluid(&mut self, s: &WorldState) -> SinewFluid {
        if !s.fluids.is_empty() && self.g.pct(90) {
            s.fluids[self.g.below(s.fluids.len() as u64) as usize]
        } else {
            SinewFluid {
                id: [0, self.g.u64(), 1, 1 << 32 | 1][self.g.below(4) as usize],
            }
        }
    }

    fn emitter(&mut self, s: &WorldState) -> SinewEmitter {
        if !s.emitters.is_empty() && self.g.pct(90) {
            s.emitters[self.g.below(s.emitters.len() as u64) as usize]
        } else {
            SinewEmitter {
                id: [0, self.g.u64(), 1][self.g.below(3) as usize],
            }
        }
    }

    fn kill_volume(&mut self, s: &WorldState) -> SinewKillVolume {
        if !s.volumes.is_empty() && self.g.pct(90) {
            s.volumes[self.g.below(s.volumes.len() as u64) as usize]
        } else {
            SinewKillVolume {
                id: [0, self.g.u64(), 1][self.g.below(3) as usize],
            }
        }
    }

    /// The live particle count of `f` (0 when the call fails).
    fn fluid_live(w: SinewWorld, f: SinewFluid) -> u32 {
        let mut st = SinewFluidStats::default();
        // SAFETY: a live local.
        if unsafe { sinew_fluid_stats(w, f, &mut st) } == SINEW_OK {
            st.count
        } else {
            0
        }
    }

    /// A strided buffer for the fluid readback: NULL sometimes (skipped), else
    /// `capacity` elements of `element` bytes every `stride`.
    fn readback_buffer(&mut self, capacity: u32, element: u32) -> (Vec<u8>, u32, bool) {
        let null = self.g.pct(25);
        let stride = match self.g.below(100) {
            0..=59 => element,
            60..=84 => element + 4 * self.g.below(5) as u32,
            85..=94 => [0, element - 1, 1, 3][self.g.below(4) as usize],
            _ if capacity <= 1 => [u32::MAX, 1 << 21, 1 << 20][self.g.below(3) as usize],
            _ => 64,
        };
        let len = if stride < element || stride > 1 << 20 {
            element as usize * (capacity as usize).clamp(1, MAX_BUF)
        } else {
            (capacity.max(1) as usize - 1) * stride as usize + element as usize
        };
        (vec![SENTINEL; len], stride, null)
    }

    /// The particle count of `b` (a skinning array's length), sometimes off by one.
    fn skin_count(&mut self, w: SinewWorld, b: SinewBody) -> u32 {
        let (mut first, mut count) = (0u32, 0u32);
        // SAFETY: valid pointers.
        let st = unsafe { sinew_body_particle_range(w, b, &mut first, &mut count) };
        if st != SINEW_OK || self.g.pct(5) {
            return 1 + self.g.below(10) as u32;
        }
        count
    }

    fn call(&mut self, name: &'static str, w: SinewWorld, wi: Option<usize>) -> Outcome {
        let s = self.state(wi);
        let n = Self::particle_count(w);
        let ok_or =
            |st: SinewStatus, untouched: bool| Outcome::new(st, st == SINEW_OK || untouched);
        macro_rules! out1 {
            ($t:ty) => {
                Output::<$t>::new(&mut self.g, 1)
            };
        }
        // SAFETY (every call below): each pointer is NULL, a misaligned copy the call
        // must refuse, or points to as many elements as the call is told (see `Input`,
        // `Output`, `array_count` and `strided_len`).
        unsafe {
            match name {
                "sinew_abi_version" => {
                    assert_eq!(sinew_abi_version(), SINEW_ABI_VERSION);
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_version" => {
                    let v = CStr::from_ptr(sinew_version()).to_str().unwrap_or("");
                    let parts: Vec<_> = v.split('.').collect();
                    assert!(
                        parts.len() == 3 && parts.iter().all(|p| p.parse::<u32>().is_ok()),
                        "sinew_version() = {v:?}"
                    );
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_last_error_message" => {
                    assert!(!sinew_last_error_message().is_null());
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_world_desc_default" => {
                    assert_eq!(sinew_world_desc_default(), sinew_world_desc_default());
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_world_desc_init" => {
                    let mut o = out1!(SinewWorldDesc);
                    let st = sinew_world_desc_init(o.ptr());
                    ok_or(st, o.untouched())
                }
                "sinew_world_destroy" => Outcome::new(sinew_world_destroy(w), true),
                "sinew_world_step" => {
                    let dt = match self.g.below(10) {
                        0 => self.g.float(1e-6, 10.0),
                        1 => [1e-6, 0.1, 1.0 / 30.0][self.g.below(3) as usize],
                        _ => 1.0 / 60.0,
                    };
                    Outcome::new(sinew_world_step(w, dt), true)
                }
                // ---- fixed step and interpolation ---------------------------------
                "sinew_world_advance" => {
                    // Mostly a frame of 0..3 fixed steps, sometimes hostile values.
                    let fixed = if self.g.pct(85) {
                        [1.0 / 60.0, 1.0 / 50.0, 0.01][self.g.below(3) as usize]
                    } else {
                        self.g.float(1e-6, 0.1)
                    };
                    let frame = if self.g.pct(85) {
                        fixed * 3.0 * self.g.unit()
                    } else {
                        self.g.float(0.0, 0.1)
                    };
                    let max_steps = match self.g.below(20) {
                        0 => 0,
                        1 => SINEW_MAX_STEPS_PER_ADVANCE + 1,
                        2 => u32::MAX,
                        _ => 1 + self.g.below(4) as u32,
                    };
                    let mut steps = out1!(u32);
                    let mut alpha = out1!(f32);
                    let st =
                        sinew_world_advance(w, frame, fixed, max_steps, steps.ptr(), alpha.ptr());
                    if st == SINEW_OK {
                        let (k, a) = (steps.get(0), alpha.get(0));
                        assert!(k <= max_steps, "advance ran {k} steps, cap {max_steps}");
                        assert!((0.0..1.0).contains(&a), "advance alpha {a}");
                    }
                    Outcome::new(
                        st,
                        st == SINEW_OK || (steps.untouched() && alpha.untouched()),
                    )
                }
                "sinew_world_read_interpolated_positions" => {
                    let first = self.g.index(n);
                    let c = if self.g.pct(80) {
                        n.saturating_sub(first).min(self.g.count(n.max(1)))
                    } else {
                        self.g.count(8)
                    };
                    let alpha = self.g.float(0.0, 1.0);
                    let stride = stride_for(&mut self.g, c);
                    let mut o = Output::<u8>::new(&mut self.g, strided_len(c, stride));
                    let st = sinew_world_read_interpolated_positions(
                        w,
                        first,
                        c,
                        alpha,
                        o.ptr().cast(),
                        stride,
                    );
                    ok_or(st, o.untouched())
                }
                "sinew_body_read_interpolated_positions" => {
                    let b = self.body(&s);
                    let cap = if self.g.pct(85) {
                        self.g.below(200) as u32
                    } else {
                        self.g.count(8)
                    };
                    let cap = cap.min(MAX_BUF as u32);
                    let alpha = self.g.float(0.0, 1.0);
                    let stride = stride_for(&mut self.g, cap);
                    let mut o = Output::<u8>::new(&mut self.g, strided_len(cap, stride));
                    let st = sinew_body_read_interpolated_positions(
                        w,
                        b,
                        alpha,
                        o.ptr().cast(),
                        cap,
                        stride,
                    );
                    ok_or(st, o.untouched())
                }
                // ---- snapshots ----------------------------------------------------
                "sinew_world_snapshot_size" => {
                    let mut o = out1!(u64);
                    ok_or(sinew_world_snapshot_size(w, o.ptr()), o.untouched())
                }
                "sinew_world_state_hash" => {
                    let mut o = out1!(u64);
                    let st = sinew_world_state_hash(w, o.ptr());
                    if st == SINEW_OK && !o.null {
                        // The hash is a function of the state: asked again, the same.
                        let mut again = 0u64;
                        assert_eq!(sinew_world_state_hash(w, &mut again), SINEW_OK);
                        assert_eq!(again, o.get(0), "the state hash changed by itself");
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_set_task_system" => {
                    let mut t = SinewTaskSystem {
                        worker_count: [1, 2, 4, 256][self.g.below(4) as usize],
                        enqueue: Some(fuzz_enqueue),
                        finish: Some(fuzz_finish),
                        user_context: if self.g.below(2) == 0 {
                            std::ptr::null_mut()
                        } else {
                            8usize as *mut c_void
                        },
                    };
                    match self.g.below(8) {
                        0 => t.worker_count = [0, 257, u32::MAX][self.g.below(3) as usize],
                        1 => t.enqueue = None,
                        2 => t.finish = None,
                        _ => {}
                    }
                    let p: *const SinewTaskSystem = match self.g.below(4) {
                        0 => std::ptr::null(),
                        _ => &t,
                    };
                    Outcome::new(sinew_world_set_task_system(w, p), true)
                }
                "sinew_world_save_snapshot" => {
                    let need = self.snapshot_of(w).map_or(64, |b| b.len());
                    let cap = match self.g.below(4) {
                        0 => need.saturating_sub(1 + self.g.below(64) as usize),
                        1 => need + self.g.below(64) as usize,
                        _ => need,
                    };
                    let mut buf = Output::<u8>::new(&mut self.g, cap);
                    let mut o = out1!(u64);
                    let st = sinew_world_save_snapshot(w, buf.ptr(), cap as u64, o.ptr());
                    ok_or(st, o.untouched() && buf.untouched())
                }
                "sinew_world_restore_snapshot" | "sinew_world_create_from_snapshot" => {
                    // A real snapshot of this (or another live) world, damaged a third
                    // of the time: a flipped bit, a truncation, or foreign bytes.
                    let mut b = self.snapshot_of(w).unwrap_or_default();
                    if self.g.pct(33) && !b.is_empty() {
                        let i = self.g.below(b.len() as u64) as usize;
                        match self.g.below(3) {
                            0 => b[i] ^= 1 << self.g.below(8),
                            1 => b.truncate(i),
                            _ => b[i..].iter_mut().for_each(|x| *x = 0xA5),
                        }
                    }
                    let data = Input::new(&mut self.g, b);
                    let size = data.values.len() as u64;
                    if name == "sinew_world_restore_snapshot" {
                        Outcome::new(sinew_world_restore_snapshot(w, data.ptr(), size), true)
                    } else {
                        let threads = [0, 1, 2, 4, 300][self.g.below(5) as usize];
                        let mut o = out1!(SinewWorld);
                        let st =
                            sinew_world_create_from_snapshot(data.ptr(), size, threads, o.ptr());
                        if st == SINEW_OK {
                            let made = o.get(0);
                            self.live.push(WorldState {
                                handle: made,
                                ..Default::default()
                            });
                        }
                        ok_or(st, o.untouched())
                    }
                }
                // ---- descs --------------------------------------------------------
                "sinew_rope_desc_default" => {
                    let _ = sinew_rope_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_rope_desc_init" => {
                    let mut o = out1!(SinewRopeDesc);
                    ok_or(sinew_rope_desc_init(o.ptr()), o.untouched())
                }
                "sinew_cloth_desc_default" => {
                    let _ = sinew_cloth_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_cloth_desc_init" => {
                    let mut o = out1!(SinewClothDesc);
                    ok_or(sinew_cloth_desc_init(o.ptr()), o.untouched())
                }
                "sinew_cloth_grid_desc_default" => {
                    let _ = sinew_cloth_grid_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_cloth_grid_desc_init" => {
                    let mut o = out1!(SinewClothGridDesc);
                    ok_or(sinew_cloth_grid_desc_init(o.ptr()), o.untouched())
                }
                "sinew_tet_body_desc_default" => {
                    let _ = sinew_tet_body_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_tet_body_desc_init" => {
                    let mut o = out1!(SinewTetBodyDesc);
                    ok_or(sinew_tet_body_desc_init(o.ptr()), o.untouched())
                }
                "sinew_pressure_body_desc_default" => {
                    let _ = sinew_pressure_body_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_pressure_body_desc_init" => {
                    let mut o = out1!(SinewPressureBodyDesc);
                    ok_or(sinew_pressure_body_desc_init(o.ptr()), o.untouched())
                }
                "sinew_collider_desc_default" => {
                    let _ = sinew_collider_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_collider_desc_init" => {
                    let mut o = out1!(SinewColliderDesc);
                    ok_or(sinew_collider_desc_init(o.ptr()), o.untouched())
                }
                // ---- particles ----------------------------------------------------
                "sinew_world_add_particles" => {
                    let c = self.array_count(8);
                    let pos: Vec<SinewVec3> = (0..(c as usize).min(MAX_BUF))
                        .map(|_| {
                            if self.g.pct(3) {
                                self.g.vec3(1e9)
                            } else {
                                self.g.vec3(2.0)
                            }
                        })
                        .collect();
                    let pos = Input::new(&mut self.g, pos);
                    let inv = self.opt_floats(c, 0.0, 4.0);
                    let mut o = out1!(u32);
                    let st = sinew_world_add_particles(w, pos.ptr(), inv.ptr(), c, o.ptr());
                    ok_or(st, o.untouched())
                }
                "sinew_world_particle_count" => {
                    let mut o = out1!(u32);
                    ok_or(sinew_world_particle_count(w, o.ptr()), o.untouched())
                }
                "sinew_world_read_positions" | "sinew_world_read_velocities" => {
                    let first = self.g.index(n);
                    let c = if self.g.pct(80) {
                        n.saturating_sub(first).min(self.g.count(n.max(1)))
                    } else {
                        self.g.count(8)
                    };
                    let stride = stride_for(&mut self.g, c);
                    let mut o = Output::<u8>::new(&mut self.g, strided_len(c, stride));
                    let st = if name == "sinew_world_read_positions" {
                        sinew_world_read_positions(w, first, c, o.ptr().cast(), stride)
                    } else {
                        sinew_world_read_velocities(w, first, c, o.ptr().cast(), stride)
                    };
                    ok_or(st, o.untouched())
                }
                "sinew_world_write_positions" | "sinew_world_write_velocities" => {
                    let first = self.g.index(n);
                    let c = n.saturating_sub(first).min(self.g.count(16));
                    let stride = stride_for(&mut self.g, c);
                    let len = strided_len(c, stride);
                    let scale = if self.g.pct(5) { 1e5 } else { 2.0 };
                    let mut raw = vec![0u8; len];
                    for k in 0..(c as usize).min(MAX_BUF) {
                        let at = k * stride.max(12) as usize;
                        if at + 12 > len {
                            break;
                        }
                        let v = self.g.vec3(scale);
                        raw[at..at + 4].copy_from_slice(&v.x.to_ne_bytes());
                        raw[at + 4..at + 8].copy_from_slice(&v.y.to_ne_bytes());
                        raw[at + 8..at + 12].copy_from_slice(&v.z.to_ne_bytes());
                    }
                    let p: *const c_void = if self.g.pct(3) {
                        std::ptr::null()
                    } else {
                        raw.as_ptr().cast()
                    };
                    let st = if name == "sinew_world_write_positions" {
                        sinew_world_write_positions(w, first, c, p, stride)
                    } else {
                        sinew_world_write_velocities(w, first, c, p, stride)
                    };
                    Outcome::new(st, true)
                }
                "sinew_world_set_inverse_masses" => {
                    let first = self.g.index(n);
                    let c = n.saturating_sub(first).min(self.g.count(8));
                    let m = self.floats(c, 0.0, 4.0);
                    Outcome::new(sinew_world_set_inverse_masses(w, first, c, m.ptr()), true)
                }
                // ---- bodies -------------------------------------------------------
                "sinew_world_add_rope" | "sinew_world_add_rope_polyline" => {
                    let d = self.desc_rope();
                    let mut o = out1!(SinewBody);
                    let dp: *const SinewRopeDesc =
                        if self.g.pct(2) { std::ptr::null() } else { &d };
                    let st = if name == "sinew_world_add_rope" {
                        sinew_world_add_rope(w, dp, o.ptr())
                    } else {
                        let c = self.array_count(12);
                        let pts: Vec<SinewVec3> = (0..(c as usize).min(MAX_BUF))
                            .map(|_| self.g.vec3(2.0))
                            .collect();
                        let pts = Input::new(&mut self.g, pts);
                        sinew_world_add_rope_polyline(w, dp, pts.ptr(), c, o.ptr())
                    };
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_cloth_grid" => {
                    let d = self.desc_cloth();
                    let mut gd = sinew_cloth_grid_desc_default();
                    gd.origin = self.g.vec3(2.0);
                    gd.segments_u = if self.g.pct(95) {
                        1 + self.g.below(8) as u32
                    } else {
                        [0, 4097][self.g.below(2) as usize]
                    };
                    gd.segments_v = if self.g.pct(95) {
                        1 + self.g.below(8) as u32
                    } else {
                        [0, 4097][self.g.below(2) as usize]
                    };
                    gd.pin_corners = self.g.below(16) as u32;
                    if self.g.pct(20) {
                        match self.g.below(4) {
                            0 => gd.u = self.g.vec3(2.0),
                            1 => gd.v = self.g.vec3(2.0),
                            2 => gd.total_mass = self.g.float(0.0, 5.0),
                            _ => gd.internal_cookie ^= 1,
                        }
                    }
                    let mut o = out1!(SinewBody);
                    let st = sinew_world_add_cloth_grid(w, &d, &gd, o.ptr());
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_cloth_mesh" => {
                    let d = self.desc_cloth();
                    let (verts, tris) = self.small_sheet();
                    let vc = verts.len() as u32;
                    let tc = (tris.len() / 3) as u32;
                    let verts = Input::new(&mut self.g, verts);
                    let tris = Input::new(&mut self.g, tris);
                    let inv = self.opt_floats(vc, 0.0, 4.0);
                    let mut o = out1!(SinewBody);
                    let st = sinew_world_add_cloth_mesh(
                        w,
                        &d,
                        verts.ptr(),
                        vc,
                        tris.ptr(),
                        tc,
                        inv.ptr(),
                        o.ptr(),
                    );
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_tet_body" => {
                    let mut d = sinew_tet_body_desc_default();
                    d.model = if self.g.pct(95) {
                        self.g.below(2) as u32
                    } else {
                        5
                    };
                    if self.g.pct(30) {
                        match self.g.below(5) {
                            0 => d.total_mass = self.g.float(0.0, 5.0),
                            1 => d.stretch_compliance = self.g.compliance(),
                            2 => d.shear_compliance = self.g.compliance(),
                            3 => d.volume_compliance = self.g.compliance(),
                            _ => d.internal_cookie ^= 1,
                        }
                    }
                    let at = self.g.vec3(2.0);
                    let s = 0.05 + self.g.unit() * 0.3;
                    // A cube of 5 tets (and sometimes a mangled index).
                    let mut verts = Vec::new();
                    for k in 0..8u32 {
                        verts.push(SinewVec3 {
                            x: at.x + s * (k & 1) as f32,
                            y: at.y + s * ((k >> 1) & 1) as f32,
                            z: at.z + s * ((k >> 2) & 1) as f32,
                        });
                    }
                    let mut tets = vec![
                        0u32, 1, 2, 4, 1, 3, 2, 7, 1, 4, 5, 7, 2, 4, 7, 6, 1, 2, 4, 7,
                    ];
                    if self.g.pct(10) {
                        let k = self.g.below(tets.len() as u64) as usize;
                        tets[k] = self.g.index(8);
                    }
                    let tc = (tets.len() / 4) as u32;
                    let verts = Input::new(&mut self.g, verts);
                    let tets = Input::new(&mut self.g, tets);
                    let inv = self.opt_floats(8, 0.0, 4.0);
                    let mut o = out1!(SinewBody);
                    let st = sinew_world_add_tet_body(
                        w,
                        &d,
                        verts.ptr(),
                        8,
                        tets.ptr(),
                        tc,
                        inv.ptr(),
                        o.ptr(),
                    );
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_pressure_body" => {
                    let mut d = sinew_pressure_body_desc_default();
                    if self.g.pct(30) {
                        match self.g.below(5) {
                            0 => d.total_mass = self.g.float(0.0, 5.0),
                            1 => d.stretch_compliance = self.g.compliance(),
                            2 => d.pressure = self.g.float(0.0, 100.0),
                            3 => d.volume_compliance = self.g.compliance(),
                            _ => d.internal_cookie ^= 1,
                        }
                    }
                    let at = self.g.vec3(2.0);
                    let verts = octa(0.1 + self.g.unit() * 0.3, at);
                    let mut tris = OCTA_TRIS.to_vec();
                    if self.g.pct(10) {
                        tris.truncate(21); // open surface: refused
                    }
                    let tc = (tris.len() / 3) as u32;
                    let verts = Input::new(&mut self.g, verts);
                    let tris = Input::new(&mut self.g, tris);
                    let inv = self.opt_floats(6, 0.0, 4.0);
                    let mut o = out1!(SinewBody);
                    let st = sinew_world_add_pressure_body(
                        w,
                        &d,
                        verts.ptr(),
                        6,
                        tris.ptr(),
                        tc,
                        inv.ptr(),
                        o.ptr(),
                    );
                    if st == SINEW_OK {
                        let b = o.get(0);
                        self.push_body(wi, b);
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_remove_body" => {
                    let b = self.body(&s);
                    Outcome::new(sinew_world_remove_body(w, b), true)
                }
                "sinew_world_body_count" => {
                    let mut o = out1!(u32);
                    ok_or(sinew_world_body_count(w, o.ptr()), o.untouched())
                }
                "sinew_body_particle_range" => {
                    let b = self.body(&s);
                    let mut o1 = out1!(u32);
                    let mut o2 = out1!(u32);
                    let st = sinew_body_particle_range(w, b, o1.ptr(), o2.ptr());
                    ok_or(st, o1.untouched() && o2.untouched())
                }
                "sinew_body_info" => {
                    let b = self.body(&s);
                    let mut o = out1!(SinewBodyInfo);
                    ok_or(sinew_body_info(w, b, o.ptr()), o.untouched())
                }
                "sinew_body_read_positions" => {
                    let b = self.body(&s);
                    let cap = if self.g.pct(85) {
                        self.g.below(200) as u32
                    } else {
                        self.g.count(8)
                    };
                    let cap = if cap as usize > MAX_BUF {
                        MAX_BUF as u32
                    } else {
                        cap
                    };
                    let stride = stride_for(&mut self.g, cap);
                    let mut o = Output::<u8>::new(&mut self.g, strided_len(cap, stride));
                    let st = sinew_body_read_positions(w, b, o.ptr().cast(), cap, stride);
                    ok_or(st, o.untouched())
                }
                "sinew_body_set_compliance" => {
                    let b = self.body(&s);
                    let which = if self.g.pct(95) {
                        self.g.below(5) as u32
                    } else {
                        5 + self.g.below(100) as u32
                    };
                    let c = self.g.compliance();
                    Outcome::new(sinew_body_set_compliance(w, b, which, c), true)
                }
                "sinew_body_set_damping" => {
                    let b = self.body(&s);
                    let d = self.g.float(0.0, 5.0);
                    Outcome::new(sinew_body_set_damping(w, b, d), true)
                }
                "sinew_body_set_pressure" => {
                    let b = self.body(&s);
                    let p = self.g.float(0.0, 100.0);
                    Outcome::new(sinew_body_set_pressure(w, b, p), true)
                }
                "sinew_body_read_forces" => {
                    let b = self.body(&s);
                    let which = if self.g.pct(95) {
                        self.g.below(4) as u32
                    } else {
                        4 + self.g.below(100) as u32
                    };
                    // The buffer always holds as many floats as the call is told.
                    let cap = self.g.count(64).min(MAX_BUF as u32);
                    let mut o = Output::<f32>::new(&mut self.g, cap as usize);
                    let mut n = out1!(u32);
                    let st = sinew_body_read_forces(w, b, which, o.ptr(), cap, n.ptr());
                    ok_or(st, o.untouched() && n.untouched())
                }
                // ---- in-place edits ----------------------------------------------
                "sinew_constraints_remove"
                | "sinew_constraints_set_compliance"
                | "sinew_constraints_set_stiffness" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let first = self.g.index(m);
                    let c = if self.g.pct(90) {
                        m.saturating_sub(first).min(self.g.count(8))
                    } else {
                        self.g.count(8)
                    };
                    let st = match name {
                        "sinew_constraints_remove" => sinew_constraints_remove(w, f, first, c),
                        "sinew_constraints_set_compliance" => {
                            let k = self.g.compliance();
                            sinew_constraints_set_compliance(w, f, first, c, k)
                        }
                        _ => {
                            let k = self.g.float(0.0, 1.0);
                            sinew_constraints_set_stiffness(w, f, first, c, k)
                        }
                    };
                    Outcome::new(st, true)
                }
                "sinew_constraints_is_removed" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let id = self.g.index(m);
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_constraints_is_removed(w, f, id, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_constraints_set_rest" | "sinew_constraints_read_rest" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let first = self.g.index(m);
                    // Never more than the buffer holds: the call may accept the count.
                    let c = m
                        .saturating_sub(first)
                        .min(self.g.count(8))
                        .min(MAX_BUF as u32);
                    if name == "sinew_constraints_set_rest" {
                        let v = self.floats(c, 0.0, 2.0);
                        Outcome::new(sinew_constraints_set_rest(w, f, first, c, v.ptr()), true)
                    } else {
                        let mut o = Output::<f32>::new(&mut self.g, (c as usize).min(MAX_BUF));
                        ok_or(
                            sinew_constraints_read_rest(w, f, first, c, o.ptr()),
                            o.untouched(),
                        )
                    }
                }
                "sinew_body_set_rest_scale" => {
                    let b = self.body(&s);
                    let k = self.g.float(0.5, 1.5);
                    Outcome::new(sinew_body_set_rest_scale(w, b, k), true)
                }
                "sinew_body_set_mass" => {
                    let b = self.body(&s);
                    let k = self.g.float(0.1, 10.0);
                    Outcome::new(sinew_body_set_mass(w, b, k), true)
                }
                "sinew_constraints_set_break_force" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let first = self.g.index(m);
                    let c = m.saturating_sub(first).min(self.g.count(8));
                    let k = self.g.float(0.0, 50.0);
                    Outcome::new(sinew_constraints_set_break_force(w, f, first, c, k), true)
                }
                "sinew_body_set_break_force" => {
                    let b = self.body(&s);
                    let k = self.g.float(0.0, 50.0);
                    Outcome::new(sinew_body_set_break_force(w, b, k), true)
                }
                "sinew_world_break_event_count" => {
                    let mut o = out1!(u32);
                    ok_or(sinew_world_break_event_count(w, o.ptr()), o.untouched())
                }
                "sinew_world_take_break_events" => {
                    let cap = self.g.count(8).min(MAX_BUF as u32);
                    let mut o = Output::<SinewBreakEvent>::new(&mut self.g, cap as usize);
                    let mut n = out1!(u32);
                    let mut lost = out1!(u64);
                    let st = sinew_world_take_break_events(w, o.ptr(), cap, n.ptr(), lost.ptr());
                    ok_or(st, o.untouched() && n.untouched() && lost.untouched())
                }
                "sinew_body_add_winch" => {
                    let b = self.body(&s);
                    let end = if self.g.pct(90) {
                        self.g.below(2) as u32
                    } else {
                        self.g.index(4)
                    };
                    let l = self.g.float(0.0, 2.0);
                    Outcome::new(sinew_body_add_winch(w, b, end, l), true)
                }
                "sinew_body_set_winch_speed" => {
                    let b = self.body(&s);
                    let v = self.g.float(-2.0, 2.0);
                    Outcome::new(sinew_body_set_winch_speed(w, b, v), true)
                }
                "sinew_body_set_winch_target" => {
                    let b = self.body(&s);
                    let (l, v) = (self.g.float(0.0, 2.0), self.g.float(0.0, 2.0));
                    Outcome::new(sinew_body_set_winch_target(w, b, l, v), true)
                }
                "sinew_body_winch_state" => {
                    let b = self.body(&s);
                    let (mut l, mut v, mut k) = (out1!(f32), out1!(f32), out1!(u32));
                    let st = sinew_body_winch_state(w, b, l.ptr(), v.ptr(), k.ptr());
                    ok_or(st, l.untouched() && v.untouched() && k.untouched())
                }
                "sinew_body_cut_rope" => {
                    let b = self.body(&s);
                    let link = self.g.index(32);
                    Outcome::new(sinew_body_cut_rope(w, b, link), true)
                }
                "sinew_body_cut_rope_along" => {
                    let b = self.body(&s);
                    let (a, c) = (self.g.vec3(3.0), self.g.vec3(3.0));
                    let ap: *const SinewVec3 = if self.g.pct(3) { std::ptr::null() } else { &a };
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_body_cut_rope_along(w, b, ap, &c, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_body_set_tear_threshold" => {
                    let b = self.body(&s);
                    let t = [0.0, 1.0, 1.2, 1.5, 3.0, f32::INFINITY, f32::NAN, -1.0]
                        [self.g.below(8) as usize];
                    let reserve =
                        [0, 0, 4, 16, SINEW_MAX_TEAR_RESERVE + 1][self.g.below(5) as usize];
                    Outcome::new(sinew_body_set_tear_threshold(w, b, t, reserve), true)
                }
                "sinew_cloth_tear_status" => {
                    let b = self.body(&s);
                    let mut o = out1!(SinewTearStatus);
                    ok_or(sinew_cloth_tear_status(w, b, o.ptr()), o.untouched())
                }
                "sinew_cloth_topology_version" => {
                    let b = self.body(&s);
                    let mut o = out1!(u64);
                    ok_or(sinew_cloth_topology_version(w, b, o.ptr()), o.untouched())
                }
                "sinew_cloth_topology_counts" => {
                    let b = self.body(&s);
                    let (mut v, mut t) = (out1!(u32), out1!(u32));
                    let st = sinew_cloth_topology_counts(w, b, v.ptr(), t.ptr());
                    ok_or(st, v.untouched() && t.untouched())
                }
                "sinew_cloth_read_topology" => {
                    let b = self.body(&s);
                    let (mut nv, mut nt) = (0u32, 0u32);
                    sinew_cloth_topology_counts(w, b, &mut nv, &mut nt);
                    // Sometimes one short; never more than the buffers hold.
                    let short = self.g.pct(10) as u32;
                    let tc = nt.saturating_sub(short).min(MAX_BUF as u32 / 3);
                    let vc = nv.saturating_sub(short).min(MAX_BUF as u32);
                    let mut t = Output::<u32>::new(&mut self.g, 3 * tc as usize);
                    let mut v = Output::<u32>::new(&mut self.g, vc as usize);
                    let mut src = Output::<u32>::new(&mut self.g, vc as usize);
                    let sp = if self.g.pct(50) {
                        src.ptr()
                    } else {
                        std::ptr::null_mut()
                    };
                    let st = sinew_cloth_read_topology(w, b, t.ptr(), tc, v.ptr(), sp, vc);
                    ok_or(st, t.untouched() && v.untouched() && src.untouched())
                }
                "sinew_body_volume" => {
                    let b = self.body(&s);
                    let mut o = out1!(f32);
                    ok_or(sinew_body_volume(w, b, o.ptr()), o.untouched())
                }
                // ---- collision ----------------------------------------------------
                "sinew_world_add_collider" | "sinew_world_add_mesh_collider" => {
                    let mut d = Output::<SinewColliderDesc>::sized(1, false);
                    assert_eq!(sinew_collider_desc_init(d.ptr()), SINEW_OK);
                    let mut d = d.get(0);
                    d.shape = if self.g.pct(95) {
                        self.g.below(5) as u32
                    } else {
                        5 + self.g.below(9) as u32
                    };
                    d.position = self.g.vec3(3.0);
                    d.rotation = self.g.quat();
                    if self.g.pct(40) {
                        match self.g.below(7) {
                            0 => d.radius = self.g.float(0.0, 1.0),
                            1 => d.half_height = self.g.float(0.0, 1.0),
                            2 => d.half_extents = self.g.vec3(1.0),
                            3 => d.static_friction = self.g.float(0.0, 1.0),
                            4 => d.dynamic_friction = self.g.float(0.0, 1.0),
                            5 => d.restitution = self.g.float(0.0, 1.0),
                            _ => d.internal_cookie ^= 1,
                        }
                    }
                    let mut o = out1!(SinewCollider);
                    let st = if name == "sinew_world_add_collider" {
                        sinew_world_add_collider(w, &d, o.ptr())
                    } else {
                        let verts = octa(0.5 + self.g.unit(), SinewVec3::default());
                        let mut tris = OCTA_TRIS.to_vec();
                        if self.g.pct(10) {
                            let k = self.g.below(tris.len() as u64) as usize;
                            tris[k] = self.g.index(6);
                        }
                        let tc = (tris.len() / 3) as u32;
                        let verts = Input::new(&mut self.g, verts);
                        let tris = Input::new(&mut self.g, tris);
                        sinew_world_add_mesh_collider(
                            w,
                            &d,
                            verts.ptr(),
                            6,
                            tris.ptr(),
                            tc,
                            o.ptr(),
                        )
                    };
                    if st == SINEW_OK {
                        let c = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].colliders.push(c);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_collider_remove" => {
                    let c = self.collider(&s);
                    Outcome::new(sinew_collider_remove(w, c), true)
                }
                "sinew_collider_set_transform" => {
                    let c = self.collider(&s);
                    let p = self.g.vec3(3.0);
                    let q = self.g.quat();
                    let pp: *const SinewVec3 = if self.g.pct(3) { std::ptr::null() } else { &p };
                    let qp: *const SinewQuat = if self.g.pct(3) { std::ptr::null() } else { &q };
                    let teleport = self.g.below(3) as u32;
                    Outcome::new(sinew_collider_set_transform(w, c, pp, qp, teleport), true)
                }
                "sinew_collider_set_material" => {
                    let c = self.collider(&s);
                    let (a, b, r) = (
                        self.g.float(0.0, 1.0),
                        self.g.float(0.0, 1.0),
                        self.g.float(0.0, 1.0),
                    );
                    Outcome::new(sinew_collider_set_material(w, c, a, b, r), true)
                }
                "sinew_world_collider_count" => {
                    let mut o = out1!(u32);
                    ok_or(sinew_world_collider_count(w, o.ptr()), o.untouched())
                }
                "sinew_world_set_particle_radii" | "sinew_world_set_unyielding" => {
                    let first = self.g.index(n);
                    let c = n.saturating_sub(first).min(self.g.count(8));
                    let v = self.floats(c, 0.0, 0.1);
                    let st = if name == "sinew_world_set_particle_radii" {
                        sinew_world_set_particle_radii(w, first, c, v.ptr())
                    } else {
                        sinew_world_set_unyielding(w, first, c, v.ptr())
                    };
                    Outcome::new(st, true)
                }
                "sinew_world_set_collision_filters" => {
                    let first = self.g.index(n);
                    let c = n.saturating_sub(first).min(self.g.count(8));
                    let f: Vec<SinewCollisionFilter> = (0..(c as usize).min(MAX_BUF))
                        .map(|_| SinewCollisionFilter {
                            group: self.g.below(4) as u32,
                            layers: self.g.u64() as u32,
                            mask: self.g.u64() as u32,
                            self_collision: self.g.below(3) as u32,
                        })
                        .collect();
                    let f = Input::new(&mut self.g, f);
                    Outcome::new(
                        sinew_world_set_collision_filters(w, first, c, f.ptr()),
                        true,
                    )
                }
                "sinew_world_set_max_speed" => {
                    let v = self.g.float(0.0, 100.0);
                    Outcome::new(sinew_world_set_max_speed(w, v), true)
                }
                "sinew_world_contact_count" => {
                    let mut o = out1!(u32);
                    ok_or(sinew_world_contact_count(w, o.ptr()), o.untouched())
                }
                "sinew_world_read_contacts" => {
                    let cap = self.g.below(64) as u32;
                    let mut o = Output::<SinewContact>::new(&mut self.g, cap as usize);
                    let mut oc = out1!(u32);
                    let st = sinew_world_read_contacts(w, o.ptr(), cap, oc.ptr());
                    ok_or(st, o.untouched() && oc.untouched())
                }
                "sinew_world_pick_particle" => {
                    let origin = self.g.vec3(3.0);
                    let dir = self.g.vec3(1.0);
                    let r = self.g.float(0.0, 0.5);
                    let mut o1 = out1!(u32);
                    let mut o2 = out1!(f32);
                    let st = sinew_world_pick_particle(w, &origin, &dir, r, o1.ptr(), o2.ptr());
                    // Not found is OK with the outputs untouched (documented).
                    ok_or(st, o1.untouched() && o2.untouched())
                }
                "sinew_world_grab_particle" | "sinew_world_move_grab" => {
                    let p = self.g.index(n);
                    let t = self.g.vec3(3.0);
                    let tp: *const SinewVec3 = if self.g.pct(3) { std::ptr::null() } else { &t };
                    let st = if name == "sinew_world_grab_particle" {
                        let c = self.g.compliance();
                        sinew_world_grab_particle(w, p, tp, c)
                    } else {
                        sinew_world_move_grab(w, p, tp)
                    };
                    Outcome::new(st, true)
                }
                "sinew_world_release_particle" => {
                    let p = self.g.index(n);
                    Outcome::new(sinew_world_release_particle(w, p), true)
                }
                // ---- constraints --------------------------------------------------
                "sinew_world_add_distance_constraints"
                | "sinew_world_add_pbd_distance_constraints"
                | "sinew_world_add_tethers" => {
                    let c = self.array_count(8);
                    let pairs = self.tuples(n, 2, c);
                    let rest = if name == "sinew_world_add_tethers" {
                        self.floats(c, 0.0, 2.0)
                    } else {
                        self.opt_floats(c, 0.0, 2.0)
                    };
                    let k = if name == "sinew_world_add_pbd_distance_constraints" {
                        self.g.float(0.0, 1.0)
                    } else {
                        self.g.compliance()
                    };
                    let mut o = out1!(u32);
                    let st = match name {
                        "sinew_world_add_distance_constraints" => {
                            sinew_world_add_distance_constraints(
                                w,
                                pairs.ptr(),
                                rest.ptr(),
                                c,
                                k,
                                o.ptr(),
                            )
                        }
                        "sinew_world_add_pbd_distance_constraints" => {
                            sinew_world_add_pbd_distance_constraints(
                                w,
                                pairs.ptr(),
                                rest.ptr(),
                                c,
                                k,
                                o.ptr(),
                            )
                        }
                        _ => sinew_world_add_tethers(w, pairs.ptr(), rest.ptr(), c, k, o.ptr()),
                    };
                    ok_or(st, o.untouched())
                }
                "sinew_world_distance_constraint_count" => {
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_world_distance_constraint_count(w, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_read_constraint_forces" => {
                    let mut m = 0;
                    sinew_world_distance_constraint_count(w, &mut m);
                    let first = self.g.index(m);
                    let c = m.saturating_sub(first).min(self.g.count(16));
                    let mut o = Output::<f32>::new(&mut self.g, (c as usize).min(MAX_BUF));
                    ok_or(
                        sinew_world_read_constraint_forces(w, first, c, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_family_constraint_count" => {
                    let f = self.g.index(15);
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_world_family_constraint_count(w, f, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_read_family_forces" => {
                    let f = self.g.index(15);
                    let mut m = 0;
                    sinew_world_family_constraint_count(w, f.min(14), &mut m);
                    let first = self.g.index(m);
                    let c = m.saturating_sub(first).min(self.g.count(16));
                    let mut o = Output::<f32>::new(&mut self.g, (c as usize).min(MAX_BUF));
                    ok_or(
                        sinew_world_read_family_forces(w, f, first, c, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_add_dihedral_bending" | "sinew_world_add_isometric_bending" => {
                    let c = self.array_count(4);
                    let h = self.tuples(n, 4, c);
                    let k = self.g.compliance();
                    let mut o = out1!(u32);
                    let st = if name == "sinew_world_add_dihedral_bending" {
                        let rest = self.opt_floats(c, -3.0, 3.0);
                        sinew_world_add_dihedral_bending(w, h.ptr(), rest.ptr(), c, k, o.ptr())
                    } else {
                        sinew_world_add_isometric_bending(w, h.ptr(), c, k, o.ptr())
                    };
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_tet_volume_constraints" | "sinew_world_add_unilateral_volumes" => {
                    let c = self.array_count(4);
                    let t = self.tuples(n, 4, c);
                    let rest = self.opt_floats(c, 0.0, 0.1);
                    let k = self.g.compliance();
                    let mut o = out1!(u32);
                    let st = if name == "sinew_world_add_tet_volume_constraints" {
                        sinew_world_add_tet_volume_constraints(
                            w,
                            t.ptr(),
                            rest.ptr(),
                            c,
                            k,
                            o.ptr(),
                        )
                    } else {
                        sinew_world_add_unilateral_volumes(w, t.ptr(), rest.ptr(), c, k, o.ptr())
                    };
                    ok_or(st, o.untouched())
                }
                "sinew_world_add_unilateral_areas" => {
                    let c = self.array_count(4);
                    let t = self.tuples(n, 3, c);
                    let rest = self.opt_floats(c, 0.0, 0.1);
                    let k = self.g.compliance();
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_world_add_unilateral_areas(w, t.ptr(), rest.ptr(), c, k, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_add_pressure_volume" => {
                    // Usually the closed surface of a fresh octahedron of particles.
                    let tris: Vec<u32> = if n >= 6 && self.g.pct(70) {
                        let base = self.g.below(n as u64 - 5) as u32;
                        OCTA_TRIS.iter().map(|&i| i + base).collect()
                    } else {
                        let c = self.g.below(8) as u32 + 1;
                        self.tuples(n, 3, c).values
                    };
                    let tc = (tris.len() / 3) as u32;
                    let tris = Input::new(&mut self.g, tris);
                    let p = self.g.float(0.0, 100.0);
                    let k = self.g.compliance();
                    let mut o = out1!(u32);
                    let st = sinew_world_add_pressure_volume(w, tris.ptr(), tc, p, k, o.ptr());
                    if st == SINEW_OK {
                        if let Some(i) = wi {
                            self.live[i].pressure_ids += 1;
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_pressure_volume" => {
                    let id = self.g.index(s.pressure_ids);
                    let mut o = out1!(f32);
                    ok_or(sinew_world_pressure_volume(w, id, o.ptr()), o.untouched())
                }
                "sinew_world_add_triangle_strain" => {
                    let c = self.array_count(4);
                    let t = self.tuples(n, 3, c);
                    let (a, b, sh) = (
                        self.g.compliance(),
                        self.g.compliance(),
                        self.g.compliance(),
                    );
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_world_add_triangle_strain(w, t.ptr(), c, a, b, sh, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_add_tet_strain" => {
                    let c = self.array_count(4);
                    let t = self.tuples(n, 4, c);
                    let (a, b, z, sh) = (
                        self.g.compliance(),
                        self.g.compliance(),
                        self.g.compliance(),
                        self.g.compliance(),
                    );
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_world_add_tet_strain(w, t.ptr(), c, a, b, z, sh, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_set_planar" => {
                    let e = self.g.below(3) as u32;
                    let z = self.g.float(-1.0, 1.0);
                    Outcome::new(sinew_world_set_planar(w, e, z), true)
                }
                "sinew_world_add_ring_area" | "sinew_world_add_shape_cluster" => {
                    let c = self.array_count(8);
                    let p = self.tuples(n, 1, c);
                    let mut o = out1!(u32);
                    let st = if name == "sinew_world_add_ring_area" {
                        let (pr, k) = (self.g.float(0.0, 10.0), self.g.compliance());
                        sinew_world_add_ring_area(w, p.ptr(), c, pr, k, o.ptr())
                    } else {
                        let (k, y, cr) = (
                            self.g.float(0.0, 1.0),
                            self.g.float(0.0, 1.0),
                            self.g.float(0.0, 1.0),
                        );
                        sinew_world_add_shape_cluster(w, p.ptr(), c, k, y, cr, o.ptr())
                    };
                    if st == SINEW_OK {
                        if let Some(i) = wi {
                            if name == "sinew_world_add_ring_area" {
                                self.live[i].ring_ids += 1;
                            } else {
                                self.live[i].cluster_ids += 1;
                            }
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_ring_area" => {
                    let id = self.g.index(s.ring_ids);
                    let mut o = out1!(f32);
                    ok_or(sinew_world_ring_area(w, id, o.ptr()), o.untouched())
                }
                "sinew_world_set_shape_cluster_stiffness" => {
                    let id = self.g.index(s.cluster_ids);
                    let k = self.g.float(0.0, 1.0);
                    Outcome::new(sinew_world_set_shape_cluster_stiffness(w, id, k), true)
                }
                // ---- attachments --------------------------------------------------
                "sinew_world_add_attachment_host" | "sinew_world_set_attachment_host_transform" => {
                    let t = SinewTransform {
                        position: self.g.vec3(3.0),
                        rotation: self.g.quat(),
                    };
                    let tp: *const SinewTransform =
                        if self.g.pct(3) { std::ptr::null() } else { &t };
                    if name == "sinew_world_add_attachment_host" {
                        let mut o = out1!(u32);
                        let st = sinew_world_add_attachment_host(w, tp, o.ptr());
                        if st == SINEW_OK {
                            if let Some(i) = wi {
                                self.live[i].hosts += 1;
                            }
                        }
                        ok_or(st, o.untouched())
                    } else {
                        let h = self.g.index(s.hosts);
                        Outcome::new(sinew_world_set_attachment_host_transform(w, h, tp), true)
                    }
                }
                "sinew_world_add_attachments" => {
                    let h = self.g.index(s.hosts);
                    let c = self.array_count(6);
                    let p = self.tuples(n, 1, c);
                    let off: Vec<SinewVec3> = (0..(c as usize).min(MAX_BUF))
                        .map(|_| self.g.vec3(0.5))
                        .collect();
                    let off = Input::new(&mut self.g, off);
                    let k = self.g.compliance();
                    let mut o = out1!(u32);
                    let st = sinew_world_add_attachments(w, h, p.ptr(), off.ptr(), c, k, o.ptr());
                    if st == SINEW_OK {
                        if let Some(i) = wi {
                            self.live[i].attachments += c;
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_world_set_attachment_compliance" => {
                    let first = self.g.index(s.attachments);
                    let c = s.attachments.saturating_sub(first).min(self.g.count(8));
                    let k = self.g.compliance();
                    Outcome::new(sinew_world_set_attachment_compliance(w, first, c, k), true)
                }
                "sinew_world_read_attachment_forces" => {
                    let first = self.g.index(s.attachments);
                    let c = s.attachments.saturating_sub(first).min(self.g.count(8));
                    let mut o = Output::<SinewVec3>::new(&mut self.g, (c as usize).min(MAX_BUF));
                    ok_or(
                        sinew_world_read_attachment_forces(w, first, c, o.ptr()),
                        o.untouched(),
                    )
                }
                // ---- fluids ---------------------------------------------------------
                "sinew_fluid_desc_default" => {
                    let _ = sinew_fluid_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_fluid_desc_init" => {
                    let mut o = out1!(SinewFluidDesc);
                    ok_or(sinew_fluid_desc_init(o.ptr()), o.untouched())
                }
                "sinew_emitter_desc_default" => {
                    let _ = sinew_emitter_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_emitter_desc_init" => {
                    let mut o = out1!(SinewEmitterDesc);
                    ok_or(sinew_emitter_desc_init(o.ptr()), o.untouched())
                }
                "sinew_kill_volume_desc_default" => {
                    let _ = sinew_kill_volume_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_kill_volume_desc_init" => {
                    let mut o = out1!(SinewKillVolumeDesc);
                    ok_or(sinew_kill_volume_desc_init(o.ptr()), o.untouched())
                }
                "sinew_world_add_fluid" => {
                    let d = self.desc_fluid();
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = out1!(SinewFluid);
                    let st = sinew_world_add_fluid(w, d.ptr(), o.ptr());
                    if st == SINEW_OK {
                        let f = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].fluids.push(f);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_fluid_remove" => {
                    let f = self.fluid(&s);
                    Outcome::new(sinew_fluid_remove(w, f), true)
                }
                "sinew_world_fluid_count" => {
                    let mut o = out1!(u32);
                    ok_or(sinew_world_fluid_count(w, o.ptr()), o.untouched())
                }
                "sinew_fluid_get_desc" => {
                    let f = self.fluid(&s);
                    let mut o = out1!(SinewFluidDesc);
                    let st = sinew_fluid_get_desc(w, f, o.ptr());
                    if st == SINEW_OK && self.g.pct(50) {
                        // Feed it straight back, sometimes retuned.
                        let mut d = o.get(0);
                        d.viscosity = self.g.float(0.0, 1.0);
                        d.cohesion = if self.g.pct(50) {
                            0.0
                        } else {
                            self.g.float(0.0, 5.0)
                        };
                        let back = sinew_fluid_set_desc(w, f, &d);
                        if back == SINEW_ERROR_INTERNAL {
                            return Outcome::new(back, true);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_fluid_set_desc" => {
                    let f = self.fluid(&s);
                    let d = self.desc_fluid();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_fluid_set_desc(w, f, d.ptr()), true)
                }
                "sinew_fluid_particle_range" => {
                    let f = self.fluid(&s);
                    let mut a = out1!(u32);
                    let mut b = out1!(u32);
                    let st = sinew_fluid_particle_range(w, f, a.ptr(), b.ptr());
                    ok_or(st, a.untouched() && b.untouched())
                }
                "sinew_fluid_stats" => {
                    let f = self.fluid(&s);
                    let mut o = out1!(SinewFluidStats);
                    ok_or(sinew_fluid_stats(w, f, o.ptr()), o.untouched())
                }
                "sinew_fluid_emit" => {
                    let f = self.fluid(&s);
                    let count = self.g.count(40);
                    let len = (count as usize).min(MAX_BUF);
                    let centre = self.g.vec3(2.0);
                    let spacing = 0.02 + 0.1 * self.g.unit();
                    let mut p: Vec<SinewVec3> = (0..len)
                        .map(|k| SinewVec3 {
                            x: centre.x + spacing * (k % 4) as f32,
                            y: centre.y + spacing * ((k / 4) % 4) as f32,
                            z: centre.z + spacing * (k / 16) as f32,
                        })
                        .collect();
                    if len > 0 && self.g.pct(5) {
                        let k = self.g.below(len as u64) as usize;
                        p[k] = self.g.vec3(3e9);
                    }
                    let v: Vec<SinewVec3> = (0..len).map(|_| self.g.vec3(5.0)).collect();
                    let p = Input::new(&mut self.g, p);
                    let v = if self.g.pct(40) {
                        None
                    } else {
                        Some(Input::new(&mut self.g, v))
                    };
                    let vp = v.as_ref().map_or(std::ptr::null(), |v| v.ptr());
                    let count = if p.is_valid() && v.as_ref().is_none_or(|v| v.is_valid()) {
                        count.min(len as u32)
                    } else {
                        count
                    };
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_fluid_emit(w, f, p.ptr(), vp, count, o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_fluid_clear" => {
                    let f = self.fluid(&s);
                    Outcome::new(sinew_fluid_clear(w, f), true)
                }
                "sinew_fluid_add_emitter" => {
                    let f = self.fluid(&s);
                    let d = self.desc_emitter();
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = out1!(SinewEmitter);
                    let st = sinew_fluid_add_emitter(w, f, d.ptr(), o.ptr());
                    if st == SINEW_OK {
                        let e = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].emitters.push(e);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_emitter_set" => {
                    let e = self.emitter(&s);
                    let d = self.desc_emitter();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_emitter_set(w, e, d.ptr()), true)
                }
                "sinew_emitter_remove" => {
                    let e = self.emitter(&s);
                    Outcome::new(sinew_emitter_remove(w, e), true)
                }
                "sinew_fluid_add_kill_volume" => {
                    let f = self.fluid(&s);
                    let d = self.desc_kill_volume();
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = out1!(SinewKillVolume);
                    let st = sinew_fluid_add_kill_volume(w, f, d.ptr(), o.ptr());
                    if st == SINEW_OK {
                        let k = o.get(0);
                        if let Some(i) = wi {
                            self.live[i].volumes.push(k);
                        }
                    }
                    ok_or(st, o.untouched())
                }
                "sinew_kill_volume_remove" => {
                    let k = self.kill_volume(&s);
                    Outcome::new(sinew_kill_volume_remove(w, k), true)
                }
                "sinew_fluid_read_particles" => {
                    let f = self.fluid(&s);
                    let live = Self::fluid_live(w, f);
                    let capacity = match self.g.below(100) {
                        0..=79 => live + self.g.below(3) as u32,
                        80..=89 => live.saturating_sub(1),
                        _ => self.g.below(MAX_BUF as u64) as u32,
                    }
                    .min(MAX_BUF as u32);
                    let alpha = if self.g.pct(90) {
                        self.g.unit()
                    } else {
                        self.g.float(-1.0, 2.0)
                    };
                    let (mut pb, ps, pn) = self.readback_buffer(capacity, 12);
                    let (mut vb, vs, vn) = self.readback_buffer(capacity, 12);
                    let (mut db, ds, dn) = self.readback_buffer(capacity, 4);
                    let ptr = |b: &mut Vec<u8>, null: bool| -> *mut c_void {
                        if null {
                            std::ptr::null_mut()
                        } else {
                            b.as_mut_ptr().cast()
                        }
                    };
                    let (pp, vp, dp) = (ptr(&mut pb, pn), ptr(&mut vb, vn), ptr(&mut db, dn));
                    let mut o = out1!(u32);
                    let st = sinew_fluid_read_particles(
                        w,
                        f,
                        alpha,
                        capacity,
                        pp,
                        ps,
                        vp,
                        vs,
                        dp,
                        ds,
                        o.ptr(),
                    );
                    let untouched = [&pb, &vb, &db]
                        .iter()
                        .all(|b| b.iter().all(|&x| x == SENTINEL))
                        && o.untouched();
                    ok_or(st, untouched)
                }
                "sinew_body_set_fluid_coupling" => {
                    let b = self.body(&s);
                    let on = if self.g.pct(95) {
                        self.g.below(2) as u32
                    } else {
                        2 + self.g.below(10) as u32
                    };
                    Outcome::new(sinew_body_set_fluid_coupling(w, b, on), true)
                }
                "sinew_body_fluid_force" => {
                    let b = self.body(&s);
                    let mut o = out1!(SinewVec3);
                    ok_or(sinew_body_fluid_force(w, b, o.ptr()), o.untouched())
                }
                // ---- wind and aerodynamics ------------------------------------------
                "sinew_wind_desc_default" => {
                    let _ = sinew_wind_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_wind_desc_init" => {
                    let mut o = out1!(SinewWindDesc);
                    ok_or(sinew_wind_desc_init(o.ptr()), o.untouched())
                }
                "sinew_wind_zone_desc_default" => {
                    let _ = sinew_wind_zone_desc_default();
                    Outcome::new(SINEW_OK, true)
                }
                "sinew_wind_zone_desc_init" => {
                    let mut o = out1!(SinewWindZoneDesc);
                    ok_or(sinew_wind_zone_desc_init(o.ptr()), o.untouched())
                }
                "sinew_world_set_wind" => {
                    let d = self.desc_wind();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_world_set_wind(w, d.ptr()), true)
                }
                "sinew_world_add_wind_zone" => {
                    let d = self.desc_wind_zone();
                    let d = Input::new(&mut self.g, vec![d]);
                    let mut o = out1!(u32);
                    ok_or(
                        sinew_world_add_wind_zone(w, d.ptr(), o.ptr()),
                        o.untouched(),
                    )
                }
                "sinew_world_set_wind_zone" => {
                    let zone = self.g.index(4);
                    let d = self.desc_wind_zone();
                    let d = Input::new(&mut self.g, vec![d]);
                    Outcome::new(sinew_world_set_wind_zone(w, zone, d.ptr()), true)
                }
                "sinew_world_remove_wind_zone" => {
                    let zone = self.g.index(4);
                    Outcome::new(sinew_world_remove_wind_zone(w, zone), true)
                }
                "sinew_world_wind_at" => {
                    let p = self.g.vec3(5.0);
                    let p = Input::new(&mut self.g, vec![p]);
                    let mut o = out1!(SinewVec3);
                    ok_or(sinew_world_wind_at(w, p.ptr(), o.ptr()), o.untouched())
                }
                "sinew_body_set_aerodynamics" => {
                    let b = self.body(&s);
                    let drag = self.g.float(0.0, 10.0);
                    let lift = if self.g.pct(50) {
                        0.0
                    } else {
                        self.g.float(0.0, 10.0)
                    };
                    Outcome::new(sinew_body_set_aerodynamics(w, b, drag, lift), true)
                }
                // ---- skinned targets ------------------------------------------------
                "sinew_body_set_skin_weights" => {
                    let b = self.body(&s);
                    let count = self.skin_count(w, b);
                    let v: Vec<SinewSkinWeights> = (0..count.min(MAX_BUF as u32))
                        .map(|_| SinewSkinWeights {
                            max_distance: self.g.float(-1.0, 1.0),
                            backstop_radius: self.g.float(0.0, 1.0),
                            backstop_distance: self.g.float(0.0, 0.2),
                            drive_compliance: if self.g.pct(50) {
                                -1.0
                            } else {
                                self.g.compliance()
                            },
                        })
                        .collect();
                    let v = Input::new(&mut self.g, v);
                    Outcome::new(sinew_body_set_skin_weights(w, b, v.ptr(), count), true)
                }
                "sinew_body_set_skin_targets" => {
                    let b = self.body(&s);
                    let count = self.skin_count(w, b);
                    let (mut first, mut have) = (0u32, 0u32);
                    sinew_body_particle_range(w, b, &mut first, &mut have);
                    let scale = self.g.float(0.0, 2.0);
                    let mut p = vec![self.g.vec3(1.0); count.min(MAX_BUF as u32) as usize];
                    if have == count && count as usize <= MAX_BUF {
                        // Near the current positions, sometimes far away.
                        let mut cur = vec![v3z(); count as usize];
                        sinew_world_read_positions(w, first, count, cur.as_mut_ptr().cast(), 12);
                        for (q, c) in p.iter_mut().zip(&cur) {
                            let d = self.g.vec3(scale);
                            *q = SinewVec3 {
                                x: c.x + d.x,
                                y: c.y + d.y,
                                z: c.z + d.z,
                            };
                        }
                    }
                    let n: Vec<SinewVec3> = (0..p.len()).map(|_| self.g.vec3(1.0)).collect();
                    let stride = stride_for(&mut self.g, count);
                    let mode = if self.g.pct(95) { 0 } else { 1 };
                    let pb = strided_copy(&p, stride);
                    let pn = if self.g.pct(30) {
                        None
                    } else {
                        Some(strided_copy(&n, 12))
                    };
                    let pp = if mode == 1 {
                        std::ptr::null()
                    } else {
                        pb.as_ptr().cast()
                    };
                    let np = pn.as_ref().map_or(std::ptr::null(), |v| v.as_ptr().cast());
                    let st = if strided_len(count, stride) > pb.len() && mode == 0 {
                        // The buffer is shorter than the count promises: pass a count
                        // the call must refuse before reading.
                        sinew_body_set_skin_targets(w, b, pp, stride, np, 12, (1 << 28) + 1)
                    } else {
                        sinew_body_set_skin_targets(w, b, pp, stride, np, 12, count)
                    };
                    Outcome::new(st, true)
                }
                "sinew_body_set_skin_root" => {
                    let b = self.body(&s);
                    let t = SinewTransform {
                        position: self.g.vec3(2.0),
                        rotation: self.g.quat(),
                    };
                    let t = Input::new(&mut self.g, vec![t]);
                    let fl = self.g.float(0.0, 1.0);
                    let fa = self.g.float(0.0, 1.0);
                    Outcome::new(sinew_body_set_skin_root(w, b, t.ptr(), fl, fa), true)
                }
                "sinew_body_teleport_to_skin" => {
                    let b = self.body(&s);
                    Outcome::new(sinew_body_teleport_to_skin(w, b), true)
                }
                other => panic!("the harness has no generator for {other}"),
            }
        }
    }

    fn push_body(&mut self, wi: Option<usize>, b: SinewBody) {
        if let Some(i) = wi {
            self.live[i].bodies.push(b);
        }
    }

    /// A small triangulated sheet (2..4 x 2..4 vertices), sometimes with a mangled
    /// index.
    fn small_sheet(&mut self) -> (Vec<SinewVec3>, Vec<u32>) {
        let (nu, nv) = (2 + self.g.below(3) as u32, 2 + self.g.below(3) as u32);
        let at = self.g.vec3(2.0);
        let s = 0.05 + 0.2 * self.g.unit();
        let mut verts = Vec::new();
        for j in 0..nv {
            for i in 0..nu {
                verts.push(SinewVec3 {
                    x: at.x + s * i as f32,
                    y: at.y,
                    z: at.z + s * j as f32,
                });
            }
        }
        let mut tris = Vec::new();
        for j in 0..nv - 1 {
            for i in 0..nu - 1 {
                let a = j * nu + i;
                tris.extend([a, a + 1, a + nu, a + 1, a + nu + 1, a + nu]);
            }
        }
        if self.g.pct(10) {
            let k = self.g.below(tris.len() as u64) as usize;
            tris[k] = self.g.index(verts.len() as u32);
        }
        (verts, tris)
    }

    fn finish(mut self) -> Report {
        for s in self.live.drain(..) {
            assert_eq!(sinew_world_destroy(s.handle), SINEW_OK);
        }
        self.report
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
