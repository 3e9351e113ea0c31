//! XXH64 (Yann Collet, "xxHash: extremely fast non-cryptographic hash algorithm",
//! 2012–2020, the 64-bit variant's specification), streaming: the snapshot checksum
//! and the state hash. Written here to keep the library free of extra dependencies;
//! tested against the published digests.

const P1: u64 = 0x9E37_79B1_85EB_CA87;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;
const P4: u64 = 0x85EB_CA77_C2B2_AE63;
const P5: u64 = 0x27D4_EB2F_1656_67C5;

#[inline(always)]
fn round(acc: u64, lane: u64) -> u64 {
    acc.wrapping_add(lane.wrapping_mul(P2))
        .rotate_left(31)
        .wrapping_mul(P1)
}

#[inline(always)]
fn merge(acc: u64, v: u64) -> u64 {
    (acc ^ round(0, v)).wrapping_mul(P1).wrapping_add(P4)
}

#[inline(always)]
fn lane(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

/// A streaming XXH64 state (no allocation).
#[derive(Clone)]
pub(crate) struct Xxh64 {
    seed: u64,
    v: [u64; 4],
    /// Bytes not yet consumed (less than one 32-byte stripe).
    buf: [u8; 32],
    buffered: usize,
    total: u64,
}

impl Xxh64 {
    pub(crate) fn new(seed: u64) -> Self {
        Xxh64 {
            seed,
            v: [
                seed.wrapping_add(P1).wrapping_add(P2),
                seed.wrapping_add(P2),
                seed,
                seed.wrapping_sub(P1),
            ],
            buf: [0; 32],
            buffered: 0,
            total: 0,
        }
    }

    #[inline(always)]
    fn stripe(v: &mut [u64; 4], s: &[u8]) {
        v[0] = round(v[0], lane(&s[0..]));
        v[1] = round(v[1], lane(&s[8..]));
        v[2] = round(v[2], lane(&s[16..]));
        v[3] = round(v[3], lane(&s[24..]));
    }

    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.buffered > 0 {
            let take = (32 - self.buffered).min(bytes.len());
            self.buf[self.buffered..self.buffered + take].copy_from_slice(&bytes[..take]);
            self.buffered += take;
            bytes = &bytes[take..];
            if self.buffered < 32 {
                return;
            }
            let buf = self.buf;
            Self::stripe(&mut self.v, &buf);
            self.buffered = 0;
        }
        let mut stripes = bytes.chunks_exact(32);
        let mut v = self.v;
        for s in &mut stripes {
            Self::stripe(&mut v, s);
        }
        self.v = v;
        let rest = stripes.remainder();
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    pub(crate) fn digest(&self) -> u64 {
        let mut h = if self.total >= 32 {
            let v = self.v;
            let mut h = v[0]
                .rotate_left(1)
                .wrapping_add(v[1].rotate_left(7))
                .wrapping_add(v[2].rotate_left(12))
                .wrapping_add(v[3].rotate_left(18));
            for x in v {
                h = merge(h, x);
            }
            h
        } else {
            self.seed.wrapping_add(P5)
        };
        h = h.wrapping_add(self.total);
        let mut rest = &self.buf[..self.buffered];
        while rest.len() >= 8 {
            h = (h ^ round(0, lane(rest)))
                .rotate_left(27)
                .wrapping_mul(P1)
                .wrapping_add(P4);
            rest = &rest[8..];
        }
        if rest.len() >= 4 {
            let k = u32::from_le_bytes(rest[..4].try_into().expect("4 bytes")) as u64;
            h = (h ^ k.wrapping_mul(P1))
                .rotate_left(23)
                .wrapping_mul(P2)
                .wrapping_add(P3);
            rest = &rest[4..];
        }
        for &b in rest {
            h = (h ^ (b as u64).wrapping_mul(P5))
                .rotate_left(11)
                .wrapping_mul(P1);
        }
        h ^= h >> 33;
        h = h.wrapping_mul(P2);
        h ^= h >> 29;
        h = h.wrapping_mul(P3);
        h ^ (h >> 32)
    }
}

/// XXH64 of `bytes` with seed 0.
pub(crate) fn xxh64(bytes: &[u8]) -> u64 {
    let mut h = Xxh64::new(0);
    h.update(bytes);
    h.digest()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_digests() {
        // The reference implementation's digests (xxhsum -H1).
        assert_eq!(xxh64(b""), 0xEF46_DB37_51D8_E999);
        assert_eq!(xxh64(b"a"), 0xD24E_C4F1_A98C_6E5B);
        assert_eq!(xxh64(b"abc"), 0x44BC_2CF5_AD77_0999);
        assert_eq!(
            xxh64(b"Nobody inspects the spammish repetition"),
            0xFBCE_A83C_8A37_8BF1
        );
    }

    #[test]
    fn streaming_in_any_pieces_gives_the_one_shot_digest() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 31 + 7) as u8).collect();
        let whole = xxh64(&data);
        for split in [1, 3, 8, 31, 32, 33, 100, 999] {
            let mut h = Xxh64::new(0);
            for c in data.chunks(split) {
                h.update(c);
            }
            assert_eq!(h.digest(), whole, "pieces of {split}");
        }
    }
}
