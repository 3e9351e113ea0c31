//! Snapshots: a whole world as bytes, and the state hash.
//!
//! Layout (little-endian):
//!
//! ```text
//! offset  size  field
//! 0       8     magic "SINEWSNP"
//! 8       4     format version (FORMAT_VERSION)
//! 12      4     ABI version of the writer (SINEW_ABI_VERSION)
//! 16      8     body length in bytes
//! 24      8     XXH64 (seed 0) of the body
//! 32      8     settings layout: the hash of every stored desc's declaration
//! 40      ...   body: the world's fields in order (src/world/snapshot.rs)
//! ```
//!
//! The settings layout (`SETTINGS_LAYOUT` in src/world/snapshot.rs) combines the
//! `LAYOUT` of each desc the body stores (`settings!`, src/limits/schema.rs, which also
//! generates their records): adding, removing, renaming, reordering or retyping a field
//! of such a desc changes it, and snapshots of the old layout are refused by name
//! without a change to [`FORMAT_VERSION`], which covers the hand-written records.
//!
//! A buffer is refused (and the target world left unchanged) when it is shorter than
//! the header or its body, has another magic, a format version other than this
//! library's, an ABI version newer than it or another settings layout, a checksum that
//! does not match, or a body that does not decode to a consistent world (every index
//! and length is checked). The state hash is the XXH64 of the same body streamed
//! through a hasher: equal states give equal hashes, on any thread count and with any
//! kernel, and nothing is allocated. ARCHITECTURE.md, "Snapshots", says how to extend the body.

pub(crate) mod codec;
pub(crate) mod xxh64;

use crate::error::{Error, Result};
use crate::math::Vec4;
use codec::corrupt;

/// What a constraint set's loader sees: the loaded particles' hot data (displacement,
/// inverse mass) and the solver.
pub(crate) struct LoadContext<'a> {
    pub hot: &'a [Vec4],
    pub jacobi: bool,
}

/// First bytes of every snapshot.
pub const MAGIC: [u8; 8] = *b"SINEWSNP";
/// Version of the body layout; bumped whenever a hand-written record (particles,
/// constraint sets, the non-desc state of colliders, fluids, winds, ...) gains, loses or
/// changes a field. Buffers of another version are refused. The records of settings
/// descs are generated from their declarations and covered by the settings layout
/// instead. Version 7: that layout in the header, the desc records generated. Version
/// 8: the particles' granular materials. Version 9: the contact readback's friction
/// impulse and point, and the colliders' contact sums. Version 10: the bodies'
/// simulation modes, the sleeping particles and the resume catch-ups. Version 11: the
/// dynamic colliders' proxies and the pins to colliders. Version 12: the grain
/// emitters (after the kill volumes). Version 13: the sleep settings and islands
/// (after the activity table). Version 14: the grain emitters' held counts. Version 15:
/// the distance field colliders' grids. Version 16: the dynamic colliders' free-rotation
/// share of the step's angular velocity change. Version 17: the slots of one colour of a
/// Gauss-Seidel block stored by index span and first particle (`solver::schedule`), not
/// by id. Version 18: the Gauss-Seidel blocks coloured family by family
/// (`solver::schedule`), not in id order.
pub const FORMAT_VERSION: u32 = 18;
/// The C ABI version this library implements (`SINEW_ABI_VERSION`, defined in the
/// C ABI layer above this one, which asserts at compile time that the two agree),
/// recorded in every snapshot.
pub const ABI_VERSION: u32 = 5;
/// Bytes before the body.
pub const HEADER_BYTES: usize = 40;

/// The parsed header.
pub(crate) struct Header {
    pub body_len: usize,
    pub checksum: u64,
}

/// Writes the header for a body of `body_len` bytes with checksum `checksum`, whose
/// settings descs have the layout `settings`.
pub(crate) fn write_header(out: &mut [u8], body_len: usize, checksum: u64, settings: u64) {
    out[0..8].copy_from_slice(&MAGIC);
    out[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    out[12..16].copy_from_slice(&ABI_VERSION.to_le_bytes());
    out[16..24].copy_from_slice(&(body_len as u64).to_le_bytes());
    out[24..32].copy_from_slice(&checksum.to_le_bytes());
    out[32..40].copy_from_slice(&settings.to_le_bytes());
}

/// Checks the header (the settings layout against `settings`, this library's) and the
/// checksum; returns the body.
pub(crate) fn check(bytes: &[u8], settings: u64) -> Result<&[u8]> {
    if bytes.len() < HEADER_BYTES {
        return Err(corrupt(format!(
            "{} bytes are fewer than the {HEADER_BYTES}-byte header (truncated?)",
            bytes.len()
        )));
    }
    if bytes[0..8] != MAGIC {
        return Err(Error::invalid(
            "the buffer is not a Sinew snapshot (its first 8 bytes are not \"SINEWSNP\")",
        ));
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(Error::invalid(format!(
            "the snapshot has format version {version}; this library reads version {FORMAT_VERSION} only{}",
            if version > FORMAT_VERSION {
                " (it was written by a newer Sinew)"
            } else {
                ""
            }
        )));
    }
    let abi = u32_at(12);
    if abi > ABI_VERSION {
        return Err(Error::invalid(format!(
            "the snapshot was written by ABI version {abi}, newer than this library's {}",
            ABI_VERSION
        )));
    }
    let layout = u64_at(32);
    if layout != settings {
        return Err(Error::invalid(format!(
            "the snapshot was written with a different settings layout ({layout:#018x}; this \
             library's is {settings:#018x}): a settings desc it stores gained, lost or \
             changed a field, so its values cannot be read"
        )));
    }
    let header = Header {
        body_len: u64_at(16).min(usize::MAX as u64) as usize,
        checksum: u64_at(24),
    };
    let have = bytes.len() - HEADER_BYTES;
    if header.body_len != have {
        return Err(corrupt(format!(
            "the header announces a body of {} bytes but {have} follow (truncated or padded?)",
            header.body_len
        )));
    }
    let body = &bytes[HEADER_BYTES..];
    let sum = xxh64::xxh64(body);
    if sum != header.checksum {
        return Err(corrupt(format!(
            "checksum {sum:#018x} does not match the recorded {:#018x}",
            header.checksum
        )));
    }
    Ok(body)
}

/// `body` with a valid header in front (its length, checksum and the settings layout
/// `settings`): the public `seal_snapshot` (src/world/snapshot.rs) gives this
/// library's layout.
pub(crate) fn seal(body: &[u8], settings: u64) -> Vec<u8> {
    let mut out = vec![0u8; HEADER_BYTES + body.len()];
    out[HEADER_BYTES..].copy_from_slice(body);
    write_header(&mut out, body.len(), xxh64::xxh64(body), settings);
    out
}
