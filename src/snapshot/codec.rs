//! The byte codec of snapshots: [`Plain`] values (fixed-size, little-endian), a
//! [`Writer`] that streams them into a sink (a byte counter, a caller's buffer, a hash)
//! and a [`Reader`] that decodes them with every length and index checked, so that no
//! buffer, however forged, can make the loader read out of bounds, allocate without
//! bound, or panic.
//!
//! A struct is saved by writing its fields in order (`w.put(x)`, `w.put_slice(&v)`) and
//! loaded by reading them in the same order (`r.get()?`, `r.get_vec()?`): adding a field
//! is one line in each (ARCHITECTURE.md, "Snapshots"). Settings descs declared with
//! `settings!` are not written by hand: their `save_settings`/`load_settings` are
//! generated from the declaration (src/limits/schema/record.rs) over this codec, each
//! field in its stored form (`Setting::stored`), and the header's settings layout
//! follows the declarations.

use super::xxh64::Xxh64;
use crate::error::{try_with_capacity, Error, Result};
use crate::math::{Vec3, Vec3A, Vec4};
use glam::{DQuat, Quat};

/// A fixed-size value written as `SIZE` little-endian bytes. Reading never fails: any
/// bytes make some value (the loader checks meaning, not representation).
pub trait Plain: Copy {
    const SIZE: usize;
    fn write(self, out: &mut [u8]);
    fn read(bytes: &[u8]) -> Self;
}

macro_rules! plain_number {
    ($($t:ty),*) => {$(
        impl Plain for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            #[inline(always)]
            fn write(self, out: &mut [u8]) {
                out[..Self::SIZE].copy_from_slice(&self.to_le_bytes());
            }
            #[inline(always)]
            fn read(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..Self::SIZE]);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}
plain_number!(u8, u16, u32, u64, i32, f32, f64);

impl Plain for bool {
    const SIZE: usize = 1;
    #[inline(always)]
    fn write(self, out: &mut [u8]) {
        out[0] = self as u8;
    }
    #[inline(always)]
    fn read(b: &[u8]) -> Self {
        b[0] != 0
    }
}

impl<T: Plain, const N: usize> Plain for [T; N] {
    const SIZE: usize = T::SIZE * N;
    #[inline(always)]
    fn write(self, out: &mut [u8]) {
        for (k, v) in self.into_iter().enumerate() {
            v.write(&mut out[k * T::SIZE..]);
        }
    }
    #[inline(always)]
    fn read(b: &[u8]) -> Self {
        std::array::from_fn(|k| T::read(&b[k * T::SIZE..]))
    }
}

impl<A: Plain, B: Plain> Plain for (A, B) {
    const SIZE: usize = A::SIZE + B::SIZE;
    #[inline(always)]
    fn write(self, out: &mut [u8]) {
        self.0.write(out);
        self.1.write(&mut out[A::SIZE..]);
    }
    #[inline(always)]
    fn read(b: &[u8]) -> Self {
        (A::read(b), B::read(&b[A::SIZE..]))
    }
}

impl<A: Plain, B: Plain, C: Plain, D: Plain> Plain for (A, B, C, D) {
    const SIZE: usize = A::SIZE + B::SIZE + C::SIZE + D::SIZE;
    #[inline(always)]
    fn write(self, out: &mut [u8]) {
        ((self.0, self.1), (self.2, self.3)).write(out);
    }
    #[inline(always)]
    fn read(b: &[u8]) -> Self {
        let ((a, b2), (c, d)) = <((A, B), (C, D))>::read(b);
        (a, b2, c, d)
    }
}

/// Vectors and quaternions as their float components (a `Vec3A` as its three
/// components: its fourth lane is padding, never saved).
macro_rules! plain_vector {
    ($t:ty, $f:ty, $n:literal, $to:expr, $from:expr) => {
        impl Plain for $t {
            const SIZE: usize = <[$f; $n]>::SIZE;
            #[inline(always)]
            fn write(self, out: &mut [u8]) {
                let a: [$f; $n] = $to(self);
                a.write(out);
            }
            #[inline(always)]
            fn read(b: &[u8]) -> Self {
                $from(<[$f; $n]>::read(b))
            }
        }
    };
}
plain_vector!(Vec3, f32, 3, |v: Vec3| v.to_array(), Vec3::from_array);
plain_vector!(Vec3A, f32, 3, |v: Vec3A| v.to_array(), Vec3A::from_array);
plain_vector!(Vec4, f32, 4, |v: Vec4| v.to_array(), Vec4::from_array);
plain_vector!(Quat, f32, 4, |v: Quat| v.to_array(), Quat::from_array);
plain_vector!(DQuat, f64, 4, |v: DQuat| v.to_array(), DQuat::from_array);

/// A [`Plain`] type saved in bulk (numbers and float vectors): arrays of it are
/// encoded in place in the caller's buffer a piece at a time ([`Writer::put_block_raw`])
/// and decoded with `chunks_exact` and `from_le_bytes` ([`Reader::get_raw`]), with no
/// `unsafe` and no per-element call into the sink. The encoding is
/// [`Writer::put_raw`]'s, so the format is the one the former block copies wrote on
/// little-endian machines.
pub(crate) trait Raw: Plain {}

impl Raw for u8 {}
impl Raw for u32 {}
impl Raw for f32 {}
impl Raw for Vec3 {}
impl Raw for Vec4 {}
impl Raw for Quat {}
impl<T: Raw, const N: usize> Raw for [T; N] {}

/// Where a [`Writer`]'s bytes go.
pub(crate) trait Sink {
    fn put(&mut self, bytes: &[u8]);

    /// A sink that only counts takes `n` bytes here without their encoding (the size
    /// query then skips the work); others return false.
    fn count_only(&mut self, _n: usize) -> bool {
        false
    }

    /// The next `n` bytes of a sink that stores them, to be encoded in place and then
    /// taken with [`Sink::commit`]; None for a sink that only streams (the bytes are
    /// then staged and passed to [`Sink::put`]).
    fn reserve(&mut self, _n: usize) -> Option<&mut [u8]> {
        None
    }

    /// Takes the `n` bytes [`Sink::reserve`] handed out, now encoded.
    fn commit(&mut self, _n: usize) {}
}

/// Counts bytes (the size query).
#[derive(Default)]
pub(crate) struct Count(pub usize);

impl Sink for Count {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }

    fn count_only(&mut self, n: usize) -> bool {
        self.0 += n;
        true
    }
}

/// Copies into a buffer the size query sized, hashing on the way (the checksum).
pub(crate) struct Fill<'a> {
    pub buf: &'a mut [u8],
    pub pos: usize,
    pub hash: Xxh64,
}

/// Bytes a [`Fill`] copies (or a bulk array encodes in place) and hashes at a time:
/// small enough for the cache, so the bytes are read from memory once.
const PIECE: usize = 16 * 1024;

impl Sink for Fill<'_> {
    fn put(&mut self, bytes: &[u8]) {
        // The size query ran the same writer: the buffer holds exactly these bytes.
        for piece in bytes.chunks(PIECE) {
            let to = &mut self.buf[self.pos..self.pos + piece.len()];
            to.copy_from_slice(piece);
            self.hash.update(to);
            self.pos += piece.len();
        }
    }

    fn reserve(&mut self, n: usize) -> Option<&mut [u8]> {
        Some(&mut self.buf[self.pos..self.pos + n])
    }

    fn commit(&mut self, n: usize) {
        self.hash.update(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
    }
}

impl Sink for Xxh64 {
    fn put(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
}

/// Bytes staged on the stack before they reach the sink: bulk arrays are encoded in
/// chunks, and the state hash never allocates.
const CHUNK: usize = 4096;

/// Writes values into a [`Sink`].
pub(crate) struct Writer<'a> {
    sink: &'a mut dyn Sink,
    /// Writing for the state hash: [`Writer::put_name`] values are left out.
    hashing: bool,
}

impl<'a> Writer<'a> {
    pub(crate) fn new(sink: &'a mut dyn Sink) -> Self {
        Writer {
            sink,
            hashing: false,
        }
    }

    /// A writer for the state hash.
    pub(crate) fn hashing(sink: &'a mut dyn Sink) -> Self {
        Writer {
            sink,
            hashing: true,
        }
    }

    /// A value that names things rather than being simulation state (the world serial
    /// inside body ids, which differs between processes): saved, but not hashed.
    pub(crate) fn put_name<T: Plain>(&mut self, v: T) {
        if !self.hashing {
            self.put(v);
        }
    }

    /// One value.
    #[inline]
    pub(crate) fn put<T: Plain>(&mut self, v: T) {
        let mut b = [0u8; 64];
        if T::SIZE <= b.len() {
            v.write(&mut b);
            self.sink.put(&b[..T::SIZE]);
        } else {
            self.put_raw(&[v]);
        }
    }

    /// A length (as u64).
    #[inline]
    pub(crate) fn put_len(&mut self, n: usize) {
        self.put(n as u64);
    }

    /// A slice: its length, then its elements.
    pub(crate) fn put_slice<T: Plain>(&mut self, v: &[T]) {
        self.put_len(v.len());
        self.put_raw(v);
    }

    /// The elements of a slice whose length the reader knows.
    pub(crate) fn put_raw<T: Plain>(&mut self, v: &[T]) {
        self.put_iter(v.len(), v.iter().copied());
    }

    /// `n` values from an iterator (exactly `n`), read back by [`Reader::get_raw`].
    pub(crate) fn put_iter<T: Plain>(&mut self, n: usize, values: impl Iterator<Item = T>) {
        if self.sink.count_only(n * T::SIZE) {
            return;
        }
        let mut values = values;
        if T::SIZE > CHUNK {
            // Larger than the stage (no such type is saved today): one at a time.
            for x in values {
                let mut big = vec![0u8; T::SIZE];
                x.write(&mut big);
                self.sink.put(&big);
            }
            return;
        }
        let per = CHUNK / T::SIZE.max(1);
        let mut b = [0u8; CHUNK];
        loop {
            let mut k = 0;
            for x in values.by_ref().take(per) {
                x.write(&mut b[k * T::SIZE..]);
                k += 1;
            }
            if k == 0 {
                break;
            }
            self.sink.put(&b[..k * T::SIZE]);
        }
    }

    /// A slice of a [`Raw`] type: its length, then its bytes in one block.
    pub(crate) fn put_block<T: Raw>(&mut self, v: &[T]) {
        self.put_len(v.len());
        self.put_block_raw(v);
    }

    /// The elements of a [`Raw`] slice whose length the reader knows: encoded in
    /// place in a buffer sink, a cache-sized piece at a time, else staged.
    pub(crate) fn put_block_raw<T: Raw>(&mut self, v: &[T]) {
        if self.sink.count_only(v.len() * T::SIZE) {
            return;
        }
        if T::SIZE == 0 || T::SIZE > CHUNK {
            self.put_raw(v);
            return;
        }
        let encode = |piece: &[T], out: &mut [u8]| {
            for (out, &x) in out.chunks_exact_mut(T::SIZE).zip(piece) {
                x.write(out);
            }
        };
        for piece in v.chunks(PIECE / T::SIZE) {
            let n = piece.len() * T::SIZE;
            if let Some(out) = self.sink.reserve(n) {
                encode(piece, out);
                self.sink.commit(n);
                continue;
            }
            let mut b = [0u8; CHUNK];
            for part in piece.chunks(CHUNK / T::SIZE) {
                let m = part.len() * T::SIZE;
                encode(part, &mut b[..m]);
                self.sink.put(&b[..m]);
            }
        }
    }

    /// An optional value: a presence byte, then the value.
    pub(crate) fn put_option<T: Plain>(&mut self, v: Option<T>) {
        self.put(v.is_some());
        if let Some(v) = v {
            self.put(v);
        }
    }
}

/// The message of a refused snapshot.
pub(crate) fn corrupt(what: impl std::fmt::Display) -> Error {
    Error::invalid(format!("the snapshot is corrupt: {what}"))
}

/// Reads values back, checking every length against the bytes left.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// Bytes not yet read.
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(corrupt(format!(
                "it ends {} bytes early (at byte {} of {})",
                n - self.remaining(),
                self.pos,
                self.bytes.len()
            )));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// One value.
    #[inline]
    pub(crate) fn get<T: Plain>(&mut self) -> Result<T> {
        Ok(T::read(self.take(T::SIZE)?))
    }

    /// A length written by [`Writer::put_len`], at most `max`.
    pub(crate) fn get_len(&mut self, max: usize, what: &str) -> Result<usize> {
        let n = self.get::<u64>()?;
        if n > max as u64 {
            return Err(corrupt(format!("{n} {what} (at most {max})")));
        }
        Ok(n as usize)
    }

    /// A vector written by [`Writer::put_slice`]. Its length is checked against the
    /// bytes left before anything is allocated.
    pub(crate) fn get_vec<T: Plain>(&mut self) -> Result<Vec<T>> {
        let max = self.remaining() / T::SIZE.max(1);
        let n = self.get_len(max, "elements in an array longer than the bytes left")?;
        self.get_raw(n)
    }

    /// `n` elements written by [`Writer::put_raw`].
    pub(crate) fn get_raw<T: Plain>(&mut self, n: usize) -> Result<Vec<T>> {
        let bytes = self.take(n.checked_mul(T::SIZE).ok_or_else(|| corrupt("length"))?)?;
        let mut v = try_with_capacity::<T>(n, "snapshot")?;
        v.extend(bytes.chunks_exact(T::SIZE.max(1)).take(n).map(T::read));
        Ok(v)
    }

    /// A vector written by [`Writer::put_block`].
    pub(crate) fn get_block<T: Raw>(&mut self) -> Result<Vec<T>> {
        let max = self.remaining() / T::SIZE.max(1);
        let n = self.get_len(max, "elements in an array longer than the bytes left")?;
        self.get_block_raw(n)
    }

    /// `n` elements written by [`Writer::put_block_raw`] (the encoding of
    /// [`Writer::put_raw`]).
    pub(crate) fn get_block_raw<T: Raw>(&mut self, n: usize) -> Result<Vec<T>> {
        self.get_raw(n)
    }

    /// An optional value written by [`Writer::put_option`].
    pub(crate) fn get_option<T: Plain>(&mut self) -> Result<Option<T>> {
        Ok(if self.get::<bool>()? {
            Some(self.get()?)
        } else {
            None
        })
    }

    /// A count of items each taking at least `min_bytes` bytes (bounds allocations).
    pub(crate) fn get_count(&mut self, min_bytes: usize, what: &str) -> Result<usize> {
        let max = self.remaining() / min_bytes.max(1);
        self.get_len(max, what)
    }
}

/// Fails unless `cond`, with the message "the snapshot is corrupt: {what}".
pub(crate) fn ensure(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(corrupt(what()))
    }
}

/// The largest value a loaded event counter (particles emitted, removed or refused,
/// an emitter's sequence number, splits, refused splits, lost break events) may hold:
/// 2^62. A world counts at most a few of these events per particle or constraint per
/// substep, so no world stepped through the API comes near it in centuries, and a
/// counter below it cannot overflow its u64 in the steps that follow; a forged counter
/// above it is refused.
pub(crate) const MAX_COUNTER: u64 = 1 << 62;

/// Fails unless every counter is at most [`MAX_COUNTER`].
pub(crate) fn check_counters(counters: &[u64], what: &str) -> Result<()> {
    for &c in counters {
        ensure(c <= MAX_COUNTER, || {
            format!("{what} counts {c} (at most {MAX_COUNTER})")
        })?;
    }
    Ok(())
}

/// Fails unless every index is below `n`.
pub(crate) fn check_indices<const K: usize>(
    items: &[[u32; K]],
    n: usize,
    what: &str,
) -> Result<()> {
    for (k, item) in items.iter().enumerate() {
        for &p in item {
            ensure((p as usize) < n, || {
                format!("{what} {k} names particle {p} of {n}")
            })?;
        }
    }
    Ok(())
}

/// Fails unless every index of the constraint slots `items` is below `n` and no slot
/// names one particle twice: what every builder of a swept set checks before it
/// builds (a slot naming a particle twice would break the Gauss-Seidel sweep's rule
/// that the slots of one run share no particle, which `Sweep::prepare` enforces by
/// panicking at the next step).
pub(crate) fn check_elements<const K: usize>(
    items: &[[u32; K]],
    n: usize,
    what: &str,
) -> Result<()> {
    check_indices(items, n, what)?;
    for (k, item) in items.iter().enumerate() {
        for (j, &p) in item.iter().enumerate() {
            ensure(!item[..j].contains(&p), || {
                format!("{what} {k} names particle {p} twice")
            })?;
        }
    }
    Ok(())
}

/// Fails unless every particle index is below `n`.
pub(crate) fn check_list(list: &[u32], n: usize, what: &str) -> Result<()> {
    for (k, &p) in list.iter().enumerate() {
        ensure((p as usize) < n, || {
            format!("{what} {k} is particle {p} of {n}")
        })?;
    }
    Ok(())
}

/// Fails unless `slot_of` is a permutation of `0..len`.
pub(crate) fn check_permutation(slot_of: &[u32], what: &str) -> Result<()> {
    let mut seen = try_with_capacity::<bool>(slot_of.len(), "snapshot")?;
    seen.resize(slot_of.len(), false);
    for &s in slot_of {
        let s = s as usize;
        ensure(s < seen.len() && !seen[s], || {
            format!("the {what} slots are not a permutation")
        })?;
        seen[s] = true;
    }
    Ok(())
}

/// The particle count a constraint set was built for, checked against the `n`
/// particles loaded.
pub(crate) fn built_for(built_for: u32, n: usize, what: &str) -> Result<usize> {
    ensure(built_for as usize <= n, || {
        format!("the {what} set was built for {built_for} particles of {n}")
    })?;
    Ok(built_for as usize)
}

/// The bytes `write` puts, through the size query and the fill as a save does (for
/// the loaders' tests).
#[cfg(test)]
pub(crate) fn written(write: impl Fn(&mut Writer<'_>)) -> Vec<u8> {
    let mut count = Count::default();
    write(&mut Writer::new(&mut count));
    let mut bytes = vec![0u8; count.0];
    let mut fill = Fill {
        buf: &mut bytes,
        pos: 0,
        hash: Xxh64::new(0),
    };
    write(&mut Writer::new(&mut fill));
    bytes
}

/// How far from 1 the squared length of a saved orientation or direction (an
/// emitter's or a kill box's rotation, a kill half-space's normal, a wind zone's
/// rotation and direction) may be. The API stores `q / |q|`, whose squared length is 1
/// within a few float roundings, not exactly: dividing again would change its bits, so
/// the loader keeps the saved value and only checks that it is unit to this tolerance
/// (a forged one of another length, which the desc's checks accept before they
/// normalise it, is refused).
pub(crate) const UNIT_TOLERANCE: f32 = 1e-5;

/// Fails (naming `what`) unless `length_squared`, the squared length of a saved
/// orientation or direction, is 1 within [`UNIT_TOLERANCE`].
pub(crate) fn check_unit(length_squared: f32, what: &str) -> Result<()> {
    ensure((length_squared - 1.0).abs() <= UNIT_TOLERANCE, || {
        format!("{what} is not normalised")
    })
}

/// Fails unless every value is finite.
pub(crate) fn check_finite(values: impl IntoIterator<Item = f32>, what: &str) -> Result<()> {
    for (k, v) in values.into_iter().enumerate() {
        ensure(v.is_finite(), || format!("{what} {k} is {v}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_lengths_are_checked() {
        let mut c = Count::default();
        let v: Vec<[u32; 3]> = (0..3000).map(|i| [i, i + 1, i * 7]).collect();
        let write = |w: &mut Writer| {
            w.put(1.5f32);
            w.put(Vec3A::new(1.0, 2.0, 3.0));
            w.put_slice(&v);
            w.put_option(Some(DQuat::IDENTITY));
            w.put_option::<u8>(None);
        };
        write(&mut Writer::new(&mut c));
        let mut buf = vec![0u8; c.0];
        let mut fill = Fill {
            buf: &mut buf,
            pos: 0,
            hash: Xxh64::new(0),
        };
        write(&mut Writer::new(&mut fill));
        assert_eq!(fill.pos, c.0);
        let mut r = Reader::new(&buf);
        assert_eq!(r.get::<f32>().unwrap(), 1.5);
        assert_eq!(r.get::<Vec3A>().unwrap(), Vec3A::new(1.0, 2.0, 3.0));
        assert_eq!(r.get_vec::<[u32; 3]>().unwrap(), v);
        assert_eq!(r.get_option::<DQuat>().unwrap(), Some(DQuat::IDENTITY));
        assert_eq!(r.get_option::<u8>().unwrap(), None);
        assert_eq!(r.remaining(), 0);
        // A forged length longer than the buffer is refused before any allocation.
        let mut forged = Vec::new();
        forged.extend_from_slice(&u64::MAX.to_le_bytes());
        let e = Reader::new(&forged).get_vec::<u32>().unwrap_err();
        assert!(e.message.contains("corrupt"), "{}", e.message);
        let e = Reader::new(&buf[..3]).get::<u64>().unwrap_err();
        assert!(e.message.contains("ends"), "{}", e.message);
    }
}
