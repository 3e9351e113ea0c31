//! The API-sequence fuzzer's buffers (inputs that honour the contract, outputs prefilled
//! with a sentinel), world digests and small helpers.

use super::*;

// ---------------------------------------------------------------------------------
// Buffers: inputs honour the contract, outputs carry a sentinel
// ---------------------------------------------------------------------------------

pub(crate) const SENTINEL: u8 = 0xA5;
/// Largest buffer the harness allocates for one argument (elements); a larger count is
/// passed with a buffer of this size only where the call must refuse the count first.
pub(crate) const MAX_BUF: usize = 4096;

/// An input array of T: usually a valid pointer to the values, sometimes NULL,
/// sometimes a misaligned copy (the library must refuse those, never read them).
pub(crate) struct Input<T: Copy> {
    pub(crate) values: Vec<T>,
    pub(crate) raw: Vec<u8>,
    pub(crate) mode: u8, // 0 = valid, 1 = NULL, 2 = misaligned
}

impl<T: Copy> Input<T> {
    pub(crate) fn new(g: &mut Gen, values: Vec<T>) -> Self {
        let mode = match g.below(100) {
            0..=93 => 0,
            94..=96 => 1,
            _ if std::mem::align_of::<T>() > 1 => 2,
            _ => 0,
        };
        Self::with_mode(values, mode)
    }
    pub(crate) fn valid(values: Vec<T>) -> Self {
        Self::with_mode(values, 0)
    }
    pub(crate) fn with_mode(values: Vec<T>, mode: u8) -> Self {
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
    pub(crate) fn ptr(&self) -> *const T {
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
    pub(crate) fn is_valid(&self) -> bool {
        self.mode == 0
    }
}

/// An output of `n` T (n may be 0), prefilled with the sentinel; NULL sometimes.
pub(crate) struct Output<T> {
    pub(crate) buf: Vec<u8>,
    pub(crate) n: usize,
    pub(crate) null: bool,
    pub(crate) _t: std::marker::PhantomData<T>,
}

impl<T: Copy> Output<T> {
    pub(crate) fn new(g: &mut Gen, n: usize) -> Self {
        let null = g.pct(3);
        Self::sized(n, null)
    }
    pub(crate) fn sized(n: usize, null: bool) -> Self {
        let bytes = n.max(1) * std::mem::size_of::<T>() + std::mem::align_of::<T>();
        Output {
            buf: vec![SENTINEL; bytes],
            n,
            null,
            _t: std::marker::PhantomData,
        }
    }
    pub(crate) fn ptr(&mut self) -> *mut T {
        if self.null {
            return std::ptr::null_mut();
        }
        let p = self.buf.as_mut_ptr();
        // SAFETY: the buffer has one alignment of slack.
        unsafe { p.add(p.align_offset(std::mem::align_of::<T>())) as *mut T }
    }
    pub(crate) fn untouched(&self) -> bool {
        self.buf.iter().all(|&b| b == SENTINEL)
    }
    /// The value written at element k (after a successful call).
    pub(crate) fn get(&mut self, k: usize) -> T {
        // SAFETY: k < n, and the call succeeded, so element k was written.
        unsafe { self.ptr().add(k).read() }
    }
}

/// A strided vec3 output or input: `stride` bytes per element, honouring the span
/// `(count - 1) * stride + 12` for counts up to [`MAX_BUF`].
pub(crate) fn stride_for(g: &mut Gen, count: u32) -> u32 {
    match g.below(100) {
        0..=59 => 12,
        60..=79 => 16,
        80..=89 => [13, 20, 24, 32, 48][g.below(5) as usize],
        90..=94 => [0, 4, 11][g.below(3) as usize],
        _ if count <= 1 => [u32::MAX, 1 << 31, 1 << 20][g.below(3) as usize],
        _ => 64,
    }
}

pub(crate) fn strided_len(count: u32, stride: u32) -> usize {
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
pub(crate) struct Digest {
    pub(crate) counts: [u32; 5],
    pub(crate) positions: Vec<[u32; 3]>,
    pub(crate) velocities: Vec<[u32; 3]>,
}

impl Digest {
    /// The largest |coordinate| of any particle (m).
    pub(crate) fn farthest(&self) -> f32 {
        self.positions
            .iter()
            .flatten()
            .map(|&b| f32::from_bits(b).abs())
            .fold(0.0, f32::max)
    }

    pub(crate) fn first_non_finite(&self) -> Option<(usize, &'static str)> {
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

pub(crate) fn digest(w: SinewWorld) -> Option<Digest> {
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

/// `values` laid out every `stride` bytes (at least 12), in a byte buffer.
pub(crate) fn strided_copy(values: &[SinewVec3], stride: u32) -> Vec<u8> {
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

pub(crate) fn v3z() -> SinewVec3 {
    SinewVec3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    }
}

/// The closed surface of an octahedron (8 outward triangles), for pressure bodies and
/// mesh colliders.
pub(crate) const OCTA_TRIS: [u32; 24] = [
    0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5,
];

pub(crate) fn octa(scale: f32, at: SinewVec3) -> Vec<SinewVec3> {
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

pub(crate) fn last_error() -> String {
    let p = sinew_last_error_message();
    if p.is_null() {
        return String::new();
    }
    // SAFETY: a NUL-terminated string valid until the next failing call on this thread.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The outcome of one call: its status and whether its outputs were left alone.
pub(crate) struct Outcome {
    pub(crate) status: SinewStatus,
    pub(crate) outputs_untouched: bool,
}

impl Outcome {
    pub(crate) fn new(status: SinewStatus, outputs_untouched: bool) -> Self {
        Outcome {
            status,
            outputs_untouched,
        }
    }
}

/// The outcome of a call whose outputs are `untouched` unless it succeeded.
pub(crate) fn ok_or(st: SinewStatus, untouched: bool) -> Outcome {
    Outcome::new(st, st == SINEW_OK || untouched)
}
