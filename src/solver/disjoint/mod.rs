//! The parallel executor's disjoint-slice type: the one unsafe helper for disjoint
//! parallel writes ([`DisjointSlice`]) and its safe face for the executor's passes that
//! write only their own items ([`Rows`] and [`Blocks`], cut by
//! [`Executor::for_chunks`], [`Executor::for_chunks_light`] and
//! [`Executor::for_each_item`], defined here because they are where a chunk is handed
//! out once per range), and [`SlotOrder`], a slot-to-particle map checked one to one
//! once per rebuild, through which a pass over slots writes each slot's particle.
//!
//! This file is one of the three places of the crate with `unsafe` (with the C
//! boundary, `src/ffi/`, and the kernels, `src/kernels/`; ARCHITECTURE.md, "Kernels
//! and `unsafe`"): every other module writes in parallel through the safe methods
//! below.

use std::marker::PhantomData;
use std::ops::Range;

use super::parallel::Executor;
use crate::error::{try_reserve, Result};

/// A slice that several threads may read and write at the same time, each at indices
/// no other thread touches during the pass: the raw helper under [`Rows`] and
/// [`Executor::for_chunks`](super::parallel::Executor::for_chunks) (which cut it at
/// the pass's ranges, safely), and the one the kernels (`src/kernels`) use for
/// scattered writes whose disjointness comes from the colouring. Its element accesses are `unsafe` (the caller names the owner of
/// each index); making one is safe (it borrows the slice mutably for its lifetime).
pub(crate) struct DisjointSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    _life: PhantomData<&'a mut [T]>,
}

// SAFETY: the wrapper only hands out element accesses through unsafe methods whose
// callers promise that no two threads touch the same index concurrently; T: Send is
// enough for moving values between threads that way.
unsafe impl<T: Send> Send for DisjointSlice<'_, T> {}
// SAFETY: as above; shared references to the wrapper never give overlapping access
// because every access is to an index owned by one thread for the whole pass.
unsafe impl<T: Send> Sync for DisjointSlice<'_, T> {}

impl<'a, T> DisjointSlice<'a, T> {
    /// Every element, shared: for a pass that reads what the passes before it wrote.
    ///
    /// # Safety
    /// No thread writes any element while the slice lives.
    #[inline(always)]
    pub(crate) unsafe fn as_slice(&self) -> &'a [T] {
        // SAFETY: ptr and len come from a `&'a mut [T]`; the caller guarantees that
        // nothing writes the elements while the slice is read.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The first element; for SIMD kernels that load and store several at a time,
    /// under the same rule as [`Self::get`] and [`Self::set`].
    #[inline(always)]
    pub(crate) fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    /// Number of elements.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn new(slice: &'a mut [T]) -> Self {
        DisjointSlice {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _life: PhantomData,
        }
    }

    /// A second handle on the same elements, for as long as this one is borrowed;
    /// every access through either stays under the rule of [`Self::get`] and
    /// [`Self::set`].
    pub(crate) fn alias(&self) -> DisjointSlice<'_, T> {
        DisjointSlice {
            ptr: self.ptr,
            len: self.len,
            _life: PhantomData,
        }
    }

    /// Elements `r` as an ordinary mutable slice. Panics unless `r` lies within the
    /// slice.
    ///
    /// # Safety
    /// Nothing else reads or writes elements `r` while the returned slice is alive.
    #[inline]
    pub(crate) unsafe fn slice_mut(&self, r: Range<usize>) -> &'a mut [T] {
        assert!(
            r.start <= r.end && r.end <= self.len,
            "disjoint slice: range out of bounds"
        );
        // SAFETY: r lies within the slice (checked), and the caller guarantees
        // exclusive access to its elements for the returned borrow.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(r.start), r.len()) }
    }
}

impl<T: Copy> DisjointSlice<'_, T> {
    /// Reads element `i`.
    ///
    /// # Safety
    /// No other thread writes element `i` during the pass.
    #[inline(always)]
    pub(crate) unsafe fn get(&self, i: usize) -> T {
        debug_assert!(i < self.len);
        // SAFETY: i < len (checked at build time of the index data, asserted in debug)
        // and the caller guarantees no concurrent writer of element i.
        unsafe { *self.ptr.add(i) }
    }

    /// Writes element `i`.
    ///
    /// # Safety
    /// No other thread reads or writes element `i` during the pass.
    #[inline(always)]
    pub(crate) unsafe fn set(&self, i: usize, value: T) {
        debug_assert!(i < self.len);
        // SAFETY: i < len, and the caller guarantees exclusive access to element i.
        unsafe { *self.ptr.add(i) = value }
    }
}

/// Arrays cut at the same item ranges by [`Executor::for_chunks`](super::parallel::Executor::for_chunks): a [`Rows`], or a
/// tuple of two to four of them.
pub(crate) trait Chunks<'a>: Sync {
    /// What a task gets for a range of items.
    type Chunk;
    /// Number of items (panics if the parts of a tuple disagree).
    fn items(&self) -> usize;
    /// The rows of items `r`.
    ///
    /// # Safety
    /// `r` lies within `0..self.items()`, and no chunk of an overlapping range is
    /// handed out by this value (nor was).
    unsafe fn chunk(&self, r: Range<usize>) -> Self::Chunk;
}

/// A mutable slice seen as rows of `width` elements, one row per item, to be cut
/// between the tasks of a pass by [`Executor::for_chunks`](super::parallel::Executor::for_chunks).
pub(crate) struct Rows<'a, T> {
    data: DisjointSlice<'a, T>,
    width: usize,
}

impl<'a, T: Send> Rows<'a, T> {
    /// One element per item.
    pub(crate) fn new(data: &'a mut [T]) -> Self {
        Self::with_width(data, 1)
    }

    /// `width` elements per item (panics unless `width > 0` divides the length).
    pub(crate) fn with_width(data: &'a mut [T], width: usize) -> Self {
        assert!(
            width > 0 && data.len() % width == 0,
            "rows of {width} elements"
        );
        Rows {
            data: DisjointSlice::new(data),
            width,
        }
    }
}

impl<'a, T: Send> Chunks<'a> for Rows<'a, T> {
    type Chunk = &'a mut [T];
    fn items(&self) -> usize {
        self.data.len / self.width
    }
    #[inline]
    unsafe fn chunk(&self, r: Range<usize>) -> &'a mut [T] {
        let w = self.width;
        // SAFETY: the caller's promise, for the elements of rows `r`.
        unsafe { self.data.slice_mut(r.start * w..r.end * w) }
    }
}

macro_rules! chunks_tuple {
    ($($p:ident $i:tt),+) => {
        impl<'a, $($p: Chunks<'a>),+> Chunks<'a> for ($($p,)+) {
            type Chunk = ($($p::Chunk,)+);
            fn items(&self) -> usize {
                let n = self.0.items();
                assert!($(self.$i.items() == n)&&+, "parts of different lengths");
                n
            }
            #[inline]
            unsafe fn chunk(&self, r: Range<usize>) -> Self::Chunk {
                // SAFETY: the caller's promise holds for every part (one item count).
                unsafe { ($(self.$i.chunk(r.clone()),)+) }
            }
        }
    };
}
chunks_tuple!(A 0, B 1);
chunks_tuple!(A 0, B 1, C 2);
chunks_tuple!(A 0, B 1, C 2, D 3);

/// A mutable slice seen as blocks of `size` consecutive elements (the last one shorter),
/// one block per item: the slots of a fixed-size chunk of a pass that runs one item
/// per chunk ([`Executor::for_each_item`]), beside the chunk's own buffer (a
/// [`Rows`] of one element per chunk).
pub(crate) struct Blocks<'a, T> {
    data: DisjointSlice<'a, T>,
    size: usize,
}

impl<'a, T: Send> Blocks<'a, T> {
    /// Blocks of `size` elements (panics unless `size > 0`).
    pub(crate) fn new(data: &'a mut [T], size: usize) -> Self {
        assert!(size > 0, "blocks of {size} elements");
        Blocks {
            data: DisjointSlice::new(data),
            size,
        }
    }
}

impl<'a, T: Send> Chunks<'a> for Blocks<'a, T> {
    type Chunk = &'a mut [T];
    fn items(&self) -> usize {
        self.data.len.div_ceil(self.size)
    }
    #[inline]
    unsafe fn chunk(&self, r: Range<usize>) -> &'a mut [T] {
        let s = self.size;
        let end = (r.end * s).min(self.data.len);
        // SAFETY: the caller's promise, for the elements of blocks `r`.
        unsafe { self.data.slice_mut((r.start * s).min(end)..end) }
    }
}

/// A mutable slice cut at `starts`: item i is elements `starts[i]..starts[i + 1]`
/// (runs of different lengths, one per item, such as the vertices each block of a mesh
/// writes).
pub(crate) struct Ragged<'a, 's, T> {
    data: DisjointSlice<'a, T>,
    starts: &'s [u32],
}

impl<'a, 's, T: Send> Ragged<'a, 's, T> {
    /// Panics unless `starts` is non-empty, never decreases and ends within `data`.
    pub(crate) fn new(data: &'a mut [T], starts: &'s [u32]) -> Self {
        assert!(
            !starts.is_empty()
                && starts.windows(2).all(|w| w[0] <= w[1])
                && starts[starts.len() - 1] as usize <= data.len(),
            "runs within the slice"
        );
        Ragged {
            data: DisjointSlice::new(data),
            starts,
        }
    }
}

impl<'a, T: Send> Chunks<'a> for Ragged<'a, '_, T> {
    type Chunk = &'a mut [T];
    fn items(&self) -> usize {
        self.starts.len() - 1
    }
    #[inline]
    unsafe fn chunk(&self, r: Range<usize>) -> &'a mut [T] {
        let (s, e) = (self.starts[r.start] as usize, self.starts[r.end] as usize);
        // SAFETY: the starts never decrease (checked at `new`), so the runs of
        // disjoint item ranges are disjoint; the caller's promise covers the rest.
        unsafe { self.data.slice_mut(s..e) }
    }
}

impl Executor {
    /// [`Self::for_ranges`] over the items of `parts` (one [`Rows`] or [`Blocks`], or a
    /// tuple of them, all with the same number of items): `f(range, chunk)` gets the
    /// range and, as ordinary `&mut` slices, the rows of those items, its own for the
    /// whole call. For passes that write only their own items; the same ranges, so
    /// the same results, as [`Self::for_ranges`].
    pub(crate) fn for_chunks<'a, P, F>(&self, parts: P, f: F)
    where
        P: Chunks<'a>,
        F: Fn(Range<usize>, P::Chunk) + Sync + Send,
    {
        let n = parts.items();
        self.for_ranges(n, |r| {
            // SAFETY: the ranges of one pass are disjoint and within 0..n (each index
            // in one range only: `for_ranges_covers_each_index_once`), and `parts`,
            // moved into this call, hands out nothing else.
            let chunk = unsafe { parts.chunk(r.clone()) };
            f(r, chunk)
        })
    }

    /// [`Self::for_chunks`] with the threshold of [`Self::for_ranges_light`].
    /// [`Self::for_chunks`] with chunks of `part` items ([`Executor::for_parts`]).
    pub(crate) fn for_chunk_parts<'a, P, F>(&self, parts: P, part: usize, f: F)
    where
        P: Chunks<'a>,
        F: Fn(Range<usize>, P::Chunk) + Sync + Send,
    {
        let n = parts.items();
        self.for_parts(n, part, |r| {
            // SAFETY: as in `for_chunks` (the ranges of `for_parts` are disjoint and
            // within 0..n as those of `for_ranges` are).
            let chunk = unsafe { parts.chunk(r.clone()) };
            f(r, chunk)
        })
    }

    pub(crate) fn for_chunks_light<'a, P, F>(&self, parts: P, f: F)
    where
        P: Chunks<'a>,
        F: Fn(Range<usize>, P::Chunk) + Sync + Send,
    {
        let n = parts.items();
        self.for_ranges_light(n, |r| {
            // SAFETY: as in `for_chunks`.
            let chunk = unsafe { parts.chunk(r.clone()) };
            f(r, chunk)
        })
    }

    /// A one-stage [`Self::stages`] pass of `threads` threads over the items of
    /// `parts`: `f(i, chunk)` for every item `i`, with item `i`'s rows as ordinary
    /// `&mut` slices.
    pub(crate) fn for_items<'a, P, F>(&self, threads: usize, parts: P, f: F)
    where
        P: Chunks<'a>,
        F: Fn(usize, P::Chunk) + Sync,
    {
        let n = parts.items();
        self.stages(threads, &[n][..], |_, i| {
            // SAFETY: a one-stage pass runs each item of 0..n once, and `parts`, moved
            // into this call, hands out nothing else.
            let chunk = unsafe { parts.chunk(i..i + 1) };
            f(i, chunk)
        })
    }

    /// [`Self::for_each_index`] over the items of `parts`: `f(i, chunk)` for every
    /// item `i`, with item `i`'s rows as ordinary `&mut` slices (one task per item,
    /// in parallel when `work` reaches the executor's threshold).
    pub(crate) fn for_each_item<'a, P, F>(&self, parts: P, work: usize, f: F)
    where
        P: Chunks<'a>,
        F: Fn(usize, P::Chunk) + Sync + Send,
    {
        let n = parts.items();
        self.for_each_index(n, work, |i| {
            // SAFETY: `for_each_index` calls each index of 0..n once, and `parts`,
            // moved into this call, hands out nothing else.
            let chunk = unsafe { parts.chunk(i..i + 1) };
            f(i, chunk)
        })
    }
}

/// A one-to-one map from slots to particles: `order[k]` is the particle of slot `k`,
/// `slot_of[i]` the slot of particle `i` (any value that does not point back for a
/// particle without a slot). Rebuilt by the owner through [`Self::edit`], then
/// checked once by [`Self::check`] (`slot_of[order[k]] == k` for every slot: no two
/// slots share a particle), after which [`Self::scatter`] lets a pass over the
/// slots write each slot's particle safely, with no check per access.
#[derive(Default)]
pub(crate) struct SlotOrder {
    order: Vec<u32>,
    slot_of: Vec<u32>,
    /// One past the largest particle of `order`, once checked; `None` while being
    /// edited.
    bound: Option<usize>,
}

impl SlotOrder {
    /// Number of slots.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }

    /// Slots the map holds without allocating.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.order.capacity()
    }

    /// The particle of every slot, in slot order.
    #[inline]
    pub(crate) fn order(&self) -> &[u32] {
        &self.order
    }

    /// The slot of every particle (check `order()[slot_of[i]] == i`: a particle without
    /// a slot holds any value).
    #[inline]
    pub(crate) fn slot_of(&self) -> &[u32] {
        &self.slot_of
    }

    /// The arrays, `(order, slot_of)`, to be rebuilt; the map is unchecked until the
    /// next [`Self::check`].
    pub(crate) fn edit(&mut self) -> (&mut Vec<u32>, &mut Vec<u32>) {
        self.bound = None;
        (&mut self.order, &mut self.slot_of)
    }

    /// Checks that the map is one to one (`slot_of[order[k]] == k` for every slot:
    /// no two slots share a particle) and records the particle bound. Panics
    /// otherwise: a rebuild that breaks it is a bug of the owner. One pass over the
    /// slots.
    pub(crate) fn check(&mut self) {
        let slot_of = &self.slot_of[..];
        let mut bound = 0;
        for (k, &i) in self.order.iter().enumerate() {
            assert!(
                slot_of.get(i as usize) == Some(&(k as u32)),
                "slot order: slot {k} and its particle {i} do not point at each other"
            );
            bound = bound.max(i as usize + 1);
        }
        self.bound = Some(bound);
    }

    /// Grows the arrays for `particles` particles (new ones have the slot `empty`)
    /// and as many slots, without touching the map (it stays checked: no slot's
    /// particle changes).
    pub(crate) fn grow(&mut self, particles: usize, empty: u32, what: &str) -> Result<()> {
        if self.slot_of.len() < particles {
            let grow = particles - self.slot_of.len();
            try_reserve(&mut self.slot_of, grow, what)?;
            self.slot_of.resize(particles, empty);
        }
        let grow = particles.saturating_sub(self.order.capacity());
        try_reserve(&mut self.order, grow, what)
    }

    /// Panics unless the map is checked since its last edit and a target of `len`
    /// elements holds every particle of it: what a write through the map needs.
    fn check_target(&self, len: usize) {
        let bound = self
            .bound
            .expect("slot order: not checked since its last edit");
        assert!(len >= bound, "slot order: target too short");
    }

    /// Bytes held (capacities).
    pub(crate) fn bytes(&self) -> u64 {
        ((self.order.capacity() + self.slot_of.capacity()) * std::mem::size_of::<u32>()) as u64
    }

    /// [`Executor::for_parts`] over the slots (ranges of `part` slots): `f(range,
    /// places)` for each range of slots, `places` handing out the element of `target`
    /// of each slot's particle of the range ([`RangePlaces::at`]), exclusively (slots
    /// of one map have distinct particles, and the ranges cover each slot once): the
    /// loop over the range is the caller's (one function with its per-slot work).
    /// Panics unless the map is checked and `target` holds every particle of the map.
    pub(crate) fn scatter_ranges<T, F>(&self, exec: &Executor, part: usize, target: &mut [T], f: F)
    where
        T: Send,
        F: Fn(Range<usize>, &mut RangePlaces<'_, '_, T>) + Sync + Send,
    {
        self.check_target(target.len());
        let (order, target) = (&self.order[..], DisjointSlice::new(target));
        exec.for_parts(order.len(), part, |range| {
            let target = &target;
            let mut places = RangePlaces {
                order,
                target,
                range: range.clone(),
            };
            f(range, &mut places)
        })
    }
}

/// The particles of one range of slots in a [`SlotOrder::scatter_ranges`] pass.
pub(crate) struct RangePlaces<'s, 'a, T> {
    order: &'s [u32],
    target: &'s DisjointSlice<'a, T>,
    range: Range<usize>,
}

impl<T> RangePlaces<'_, '_, T> {
    /// The element of slot k's particle. Panics unless k is a slot of the range.
    #[inline(always)]
    pub(crate) fn at(&mut self, k: usize) -> &mut T {
        assert!(
            self.range.contains(&k),
            "slot order: slot {k} outside its range"
        );
        let i = self.order[k] as usize;
        // SAFETY: i < bound <= target.len() (`scatter_ranges` checked the target); the
        // map is one to one (checked since its last edit, and the pass borrows it, so
        // no edit meanwhile) and the ranges of one pass are disjoint, so no other task
        // touches element i during the pass; the element is borrowed from `self`, so
        // this range hands out one at a time.
        unsafe { &mut *self.target.as_ptr().add(i) }
    }
}

#[cfg(test)]
mod tests;

// ---- Staged passes (the fluid solver's): arrays written in one stage, read in others.

/// An array of a staged pass ([`Executor::staged`]) written in stage `writer`, item
/// `i` its block `i · block .. (i + 1) · block` (the last one shorter) as a `&mut`
/// slice ([`StageItem::write`]); the other stages read it whole ([`StageItem::read`]).
pub(crate) struct StageSlots<'a, T> {
    data: DisjointSlice<'a, T>,
    /// The writer.
    stage: usize,
    block: usize,
}

impl<'a, T: Send + Sync> StageSlots<'a, T> {
    /// `data`, written in stage `writer` in blocks of `block > 0` elements.
    pub(crate) fn new(data: &'a mut [T], writer: usize, block: usize) -> Self {
        assert!(block > 0, "stage slots: blocks of {block} elements");
        let (data, stage) = (DisjointSlice::new(data), writer);
        StageSlots { data, stage, block }
    }
}

/// An array of particles written in stage `writer` of a staged pass through a checked
/// [`SlotOrder`]: item `i` writes the particles of its block of slots ([`StageScatter`];
/// no two slots share a particle); the other stages read it whole.
pub(crate) struct StagePlaces<'a, T> {
    /// The target, its writer and the block of slots per item.
    slots: StageSlots<'a, T>,
    order: &'a [u32],
}

impl SlotOrder {
    /// `target` as an array of a staged pass written in stage `writer` through this
    /// map, in blocks of `block > 0` slots (the map stays borrowed, so unedited).
    /// Panics unless the map is checked and `target` holds every particle of it.
    pub(crate) fn places<'a, T: Send + Sync>(
        &'a self,
        target: &'a mut [T],
        writer: usize,
        block: usize,
    ) -> StagePlaces<'a, T> {
        self.check_target(target.len());
        let (slots, order) = (StageSlots::new(target, writer, block), &self.order[..]);
        StagePlaces { slots, order }
    }
}

/// Item `index` of stage `stage` of a staged pass, the only way to its arrays: each
/// access checks that the array is one of this pass's (lies within its parts) and
/// that the stage may read it (not its writer) or write it (its writer, once per
/// item). What it hands out lives no longer than the item's call.
pub(crate) struct StageItem {
    stage: usize,
    index: usize,
    /// The address range of the pass's parts.
    parts: Range<usize>,
    wrote: std::cell::Cell<bool>,
}

/// An array of a staged pass ([`StageSlots`], [`StagePlaces`]): its elements and the
/// stage that writes them.
pub(crate) trait StagePart {
    type Item;
    fn writer(&self) -> usize;
    fn data(&self) -> &DisjointSlice<'_, Self::Item>;
}

macro_rules! stage_part {
    ($($t:ident $(.$f:ident)?),+) => {$(
        impl<T> StagePart for $t<'_, T> {
            type Item = T;
            fn writer(&self) -> usize { self$(.$f)?.stage }
            fn data(&self) -> &DisjointSlice<'_, T> { &self$(.$f)?.data }
        }
    )+};
}
stage_part!(StageSlots, StagePlaces.slots);

/// Arrays one item writes ([`StageItem::write`]): a `&StageSlots` (its block as
/// `&mut [T]`), a `&StagePlaces` (a [`StageScatter`]) or a tuple of two to four.
pub(crate) trait StageWrites<'s> {
    type Mine;
    /// Panics unless `item` may write every array (its writer is the item's stage,
    /// it is the item's pass's, none named twice: `seen`, the `n` before it).
    fn check(&self, item: &StageItem, seen: &mut [usize; 4], n: &mut usize);
    /// The item's elements.
    ///
    /// # Safety
    /// Checked by [`Self::check`] for this item, once per item.
    unsafe fn take(self, index: usize) -> Self::Mine;
}

impl StageItem {
    #[inline]
    pub(crate) fn stage(&self) -> usize {
        self.stage
    }

    /// The item's index in its stage.
    #[inline]
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    #[inline]
    fn owns<P: ?Sized>(&self, part: &P) -> usize {
        let at = part as *const P as *const u8 as usize;
        assert!(
            self.parts.contains(&at),
            "staged pass: an array of another pass"
        );
        at
    }

    /// Every element of `part`, for the item's call. Panics in the stage that writes
    /// it, or for an array of another pass.
    #[inline]
    pub(crate) fn read<'s, P: StagePart>(&'s self, part: &'s P) -> &'s [P::Item] {
        self.owns(part);
        assert!(
            part.writer() != self.stage,
            "staged pass: a read of an array being written"
        );
        let data = part.data();
        // SAFETY: the array is this pass's (checked), moved into it and handed out by
        // its items only; no item writes it outside its writer's stage, and a stage
        // starts once every item of the one before has finished.
        unsafe { std::slice::from_raw_parts(data.as_ptr(), data.len()) }
    }

    /// The item's own elements of the arrays `parts`, exclusively for the item's call.
    /// Once per item; panics unless this stage writes them all and they are this
    /// pass's, or if one is named twice.
    #[inline]
    pub(crate) fn write<'s, W: StageWrites<'s>>(&'s self, parts: W) -> W::Mine {
        assert!(
            !self.wrote.replace(true),
            "staged pass: an item writes once"
        );
        let (mut seen, mut n) = ([0usize; 4], 0);
        parts.check(self, &mut seen, &mut n);
        // SAFETY: checked just now, once for this item; each item of a stage runs
        // once, so its block is no other item's.
        unsafe { parts.take(self.index) }
    }
}

/// One array of [`StageWrites::check`].
fn check_write<P: StagePart>(part: &P, item: &StageItem, seen: &mut [usize; 4], n: &mut usize) {
    let at = item.owns(part);
    assert!(
        part.writer() == item.stage,
        "staged pass: a write in another stage"
    );
    assert!(
        !seen[..*n].contains(&at),
        "staged pass: an array named twice"
    );
    seen[*n] = at;
    *n += 1;
}

/// Block `index` of `block` elements among `len`, clamped.
fn block_range(index: usize, block: usize, len: usize) -> Range<usize> {
    let end = index.saturating_add(1).saturating_mul(block).min(len);
    index.saturating_mul(block).min(end)..end
}

impl<'s, 'a: 's, T: Send + Sync> StageWrites<'s> for &'s StageSlots<'a, T> {
    type Mine = &'s mut [T];
    fn check(&self, item: &StageItem, seen: &mut [usize; 4], n: &mut usize) {
        check_write(*self, item, seen, n)
    }
    #[inline]
    unsafe fn take(self, index: usize) -> &'s mut [T] {
        let r = block_range(index, self.block, self.data.len());
        // SAFETY: the caller's promise: block `index` is this item's alone.
        unsafe { self.data.slice_mut(r) }
    }
}

/// The particles of one item's slots ([`StagePlaces`]), each through its slot only.
pub(crate) struct StageScatter<'s, T> {
    data: &'s DisjointSlice<'s, T>,
    /// The particles of the item's slots `first..`.
    order: &'s [u32],
    first: usize,
}

impl<T> StageScatter<'_, T> {
    /// The particle of slot `k` (one of the item's slots; panics otherwise).
    #[inline(always)]
    pub(crate) fn at(&mut self, k: usize) -> &mut T {
        let i = self.order[k.wrapping_sub(self.first)] as usize;
        // SAFETY: slot k is the item's (checked by the index above); its particle i
        // is below the target's length (`SlotOrder::places`) and no other slot's
        // (the map is one to one); `&mut self` lends one element at a time.
        unsafe { &mut *self.data.as_ptr().add(i) }
    }

    /// The target's first element, for prefetch hints (never dereferenced here).
    #[inline(always)]
    pub(crate) fn as_ptr(&self) -> *const T {
        self.data.as_ptr()
    }
}

impl<'s, 'a: 's, T: Send + Sync> StageWrites<'s> for &'s StagePlaces<'a, T> {
    type Mine = StageScatter<'s, T>;
    fn check(&self, item: &StageItem, seen: &mut [usize; 4], n: &mut usize) {
        check_write(*self, item, seen, n)
    }
    #[inline]
    unsafe fn take(self, index: usize) -> StageScatter<'s, T> {
        let r = block_range(index, self.slots.block, self.order.len());
        let (data, first, order) = (&self.slots.data, r.start, &self.order[r]);
        StageScatter { data, order, first }
    }
}

macro_rules! stage_writes_tuple {
    ($($p:ident $i:tt),+) => {
        impl<'s, $($p: StageWrites<'s>),+> StageWrites<'s> for ($($p,)+) {
            type Mine = ($($p::Mine,)+);
            fn check(&self, item: &StageItem, seen: &mut [usize; 4], n: &mut usize) {
                $(self.$i.check(item, seen, n);)+
            }
            #[inline]
            unsafe fn take(self, index: usize) -> Self::Mine {
                // SAFETY: the caller's promise holds for every part.
                unsafe { ($(self.$i.take(index),)+) }
            }
        }
    };
}
stage_writes_tuple!(A 0, B 1);
stage_writes_tuple!(A 0, B 1, C 2);
stage_writes_tuple!(A 0, B 1, C 2, D 3);

impl Executor {
    /// A [`Self::stages`] pass (the same order of stages and items, so the same
    /// results) of `threads` threads and `items` items in each of `stages` stages, over
    /// the arrays `parts` (a struct or tuple of [`StageSlots`] and [`StagePlaces`],
    /// moved in): `f(item, &parts)` per item, which reaches them through `item` only.
    pub(crate) fn staged<P, F>(&self, threads: usize, stages: usize, items: usize, parts: P, f: F)
    where
        P: Sync,
        F: Fn(&StageItem, &P) + Sync,
    {
        let at = &parts as *const P as usize;
        let range = at..at + std::mem::size_of::<P>().max(1);
        let plan = [items; 8];
        assert!(stages <= plan.len(), "staged pass: {stages} stages");
        self.stages(threads, &plan[..stages], |stage, index| {
            let wrote = std::cell::Cell::new(false);
            let item = StageItem {
                stage,
                index,
                parts: range.clone(),
                wrote,
            };
            f(&item, &parts)
        })
    }
}

#[cfg(test)]
mod staged_tests;
