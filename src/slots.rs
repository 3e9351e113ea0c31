//! One generation-checked slot map for every handle kind (bodies, colliders, fluids,
//! emitters, kill volumes, and the C ABI's worlds and builders).
//!
//! An item lives in a slot; its [`Key`] is the slot index and the slot's generation.
//! Removing an item empties the slot and moves its generation on, so a stale key never
//! names the next item put into the slot. Slots are never dropped: items are visited in
//! slot order ([`SlotMap::iter`]), and which slot a new item takes is decided by the
//! [`Policy`] alone (the most recently freed slot, or the lowest empty one), so a world
//! rebuilt from a snapshot hands out the same keys as the original.
//!
//! **Ids.** Every kind a world holds (bodies, colliders, fluids, emitters, kill
//! volumes) has ids of one layout, made and checked by [`WorldIds`]:
//! `(world serial << 44) | (generation << 24) | (slot + 1)` (20, 20 and 24 bits), so
//! 0 is never issued, a removed item's id never names its slot's next occupant (until
//! the slot's 20-bit generation wraps) and a world refuses another world's ids (until
//! 2^20 worlds have been made in between). The C ABI's worlds and builders, which no
//! world holds, are `(generation << 32) | (slot + 1)` ([`Key::to_id`]). The map itself
//! only answers whether a key is live.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{try_reserve, try_with_capacity, Error, ErrorKind, Result};
use crate::snapshot::codec::{self, Reader, Writer};

/// Which slot a new item takes, and how generations run.
pub(crate) trait Policy {
    /// The generation of a slot when it is made.
    const FIRST_GENERATION: u32;
    /// Generations run through the low `GENERATION_BITS` bits (1 to 32); after the
    /// largest comes [`Self::FIRST_GENERATION`] again (so 0 is skipped when the first
    /// generation is 1).
    const GENERATION_BITS: u32;
    /// True: a new item takes the lowest empty slot (no free list is kept). False: it
    /// takes the most recently emptied one (a free-list stack), or a new slot at the
    /// end when none is empty.
    const LOWEST_FIRST: bool;
}

/// The free-list stack, generations from 1 through every u32 (0 is never a live
/// generation): the C ABI's worlds and builders.
pub(crate) struct Recycle;

impl Policy for Recycle {
    const FIRST_GENERATION: u32 = 1;
    const GENERATION_BITS: u32 = 32;
    const LOWEST_FIRST: bool = false;
}

/// The free-list stack, generations from 1 through the 20 bits of a world id (0 is
/// never a live generation): bodies and colliders.
pub(crate) struct LastFreed;

impl Policy for LastFreed {
    const FIRST_GENERATION: u32 = 1;
    const GENERATION_BITS: u32 = GENERATION_BITS;
    const LOWEST_FIRST: bool = false;
}

/// The lowest empty slot, generations from 0 through the 20 bits of a world id,
/// wrapping: fluids, emitters and kill volumes (emission visits emitters in slot
/// order).
pub(crate) struct LowestFirst;

impl Policy for LowestFirst {
    const FIRST_GENERATION: u32 = 0;
    const GENERATION_BITS: u32 = GENERATION_BITS;
    const LOWEST_FIRST: bool = true;
}

/// Bits of a world id holding the slot + 1.
const SLOT_BITS: u32 = 24;
/// Bits of a world id holding the slot's generation.
const GENERATION_BITS: u32 = 20;
/// Bits of a world id holding the world serial (the rest of the 64).
const SERIAL_BITS: u32 = 64 - SLOT_BITS - GENERATION_BITS;
/// The generation and slot bits of a world id: what a snapshot stores of an id (the
/// serial is the loading world's, [`WorldIds::complete`]).
pub(crate) const ID_WITHOUT_SERIAL: u64 = (1 << (SLOT_BITS + GENERATION_BITS)) - 1;
/// Largest number of slots of one kind in one world (slot + 1 fits the slot bits).
pub(crate) const MAX_SLOTS: usize = (1 << SLOT_BITS) - 2;

/// The slot and generation a world id names, whatever its serial (0 gives a slot no
/// map holds): what [`WorldIds::key_in`] checks, and what a loaded contact report's
/// collider is checked by.
pub(crate) fn key_bits(id: u64) -> Key {
    Key {
        slot: ((id & ((1 << SLOT_BITS) - 1)) as u32).wrapping_sub(1),
        generation: ((id >> SLOT_BITS) & ((1 << GENERATION_BITS) - 1)) as u32,
    }
}

/// The ids one world issues for every kind it holds (see the module doc): its
/// serial, shared by its tables of bodies, colliders, fluids, emitters and kill
/// volumes (`World::new` and the snapshot loader hand every table the same one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WorldIds {
    serial: u64,
}

impl WorldIds {
    /// The ids of a new world: the next serial of this process (wrapping after 2^20).
    pub(crate) fn fresh() -> WorldIds {
        static NEXT_SERIAL: AtomicU64 = AtomicU64::new(1);
        WorldIds::with_serial(NEXT_SERIAL.fetch_add(1, Ordering::Relaxed))
    }

    /// The ids of serial `serial` (its low 20 bits).
    pub(crate) fn with_serial(serial: u64) -> WorldIds {
        WorldIds {
            serial: serial & ((1 << SERIAL_BITS) - 1),
        }
    }

    /// The serial (20 bits).
    pub(crate) fn serial(self) -> u64 {
        self.serial
    }

    /// The id of `key` in this world: never 0.
    pub(crate) fn id(self, key: Key) -> u64 {
        debug_assert!(
            (key.slot as usize) < MAX_SLOTS && key.generation >> GENERATION_BITS == 0,
            "{key:?} does not fit a world id"
        );
        (self.serial << (SLOT_BITS + GENERATION_BITS))
            | ((key.generation as u64) << SLOT_BITS)
            | (key.slot as u64 + 1)
    }

    /// The id of this world with the generation and slot bits of `id` (a snapshot
    /// stores ids without the serial).
    pub(crate) fn complete(self, id: u64) -> u64 {
        (self.serial << (SLOT_BITS + GENERATION_BITS)) | (id & ID_WITHOUT_SERIAL)
    }

    /// The key of `id` when it is this world's and names a live item of `map`; else
    /// INVALID_HANDLE with a message naming `noun` ("collider") and saying why (null,
    /// issued by another world, removed or never created).
    pub(crate) fn key_in<T, P: Policy>(
        self,
        map: &SlotMap<T, P>,
        id: u64,
        noun: &str,
    ) -> Result<Key> {
        let key = key_bits(id);
        let serial = id >> (SLOT_BITS + GENERATION_BITS);
        if serial == self.serial && map.get(key).is_some() {
            return Ok(key);
        }
        Err(Error::new(
            ErrorKind::InvalidHandle,
            if id == 0 {
                format!("the {noun} handle is null (0)")
            } else if serial != self.serial {
                format!(
                    "the {noun} handle {id:#x} was issued by another world (world serial {serial}; this world's is {})",
                    self.serial
                )
            } else {
                format!("the {noun} handle {id:#x} is removed or was never created in this world")
            },
        ))
    }
}

/// A slot index and the generation it had when the item was put there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    pub slot: u32,
    pub generation: u32,
}

impl Key {
    /// `(generation << 32) | (slot + 1)`: never 0.
    pub(crate) fn to_id(self) -> u64 {
        ((self.generation as u64) << 32) | (self.slot as u64 + 1)
    }

    /// The key [`Self::to_id`] made `id` from (0 gives a slot no map holds).
    pub(crate) fn from_id(id: u64) -> Key {
        Key {
            slot: ((id & 0xFFFF_FFFF) as u32).wrapping_sub(1),
            generation: (id >> 32) as u32,
        }
    }
}

/// Items of type T in generation-checked slots (see the module doc).
pub(crate) struct SlotMap<T, P: Policy = Recycle> {
    items: Vec<Option<T>>,
    generations: Vec<u32>,
    /// Empty slots, the next one to reuse last (empty with [`Policy::LOWEST_FIRST`]).
    free: Vec<u32>,
    live: usize,
    policy: PhantomData<P>,
}

impl<T, P: Policy> Default for SlotMap<T, P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, P: Policy> SlotMap<T, P> {
    const MASK: u32 = if P::GENERATION_BITS >= 32 {
        u32::MAX
    } else {
        (1 << P::GENERATION_BITS) - 1
    };

    pub(crate) const fn new() -> Self {
        SlotMap {
            items: Vec::new(),
            generations: Vec::new(),
            free: Vec::new(),
            live: 0,
            policy: PhantomData,
        }
    }

    /// Number of live items.
    pub(crate) fn len(&self) -> usize {
        self.live
    }

    /// Whether no item is live.
    pub(crate) fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Number of slots, live or empty.
    pub(crate) fn slot_count(&self) -> usize {
        self.items.len()
    }

    /// The items of every slot, in slot order (None = empty). The slice index is the
    /// slot.
    pub(crate) fn items(&self) -> &[Option<T>] {
        &self.items
    }

    /// The items of every slot, to change live items in place (a pass over all of
    /// them). Emptying or filling a slot through it would bypass the generations: use
    /// [`Self::remove`] and [`Self::insert`].
    pub(crate) fn items_mut(&mut self) -> &mut [Option<T>] {
        &mut self.items
    }

    /// The live items in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.iter().flatten()
    }

    /// The live items in slot order, mutable.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.items.iter_mut().flatten()
    }

    /// The live items in slot order with their keys.
    pub(crate) fn iter_keyed(&self) -> impl Iterator<Item = (Key, &T)> {
        self.items
            .iter()
            .zip(&self.generations)
            .enumerate()
            .filter_map(|(slot, (item, &generation))| {
                let key = Key {
                    slot: slot as u32,
                    generation,
                };
                item.as_ref().map(|t| (key, t))
            })
    }

    /// The key of the live item in `slot`, if any.
    pub(crate) fn key_of(&self, slot: usize) -> Option<Key> {
        match self.items.get(slot) {
            Some(Some(_)) => Some(Key {
                slot: slot as u32,
                generation: self.generations[slot],
            }),
            _ => None,
        }
    }

    /// The slot of `key` when it names a live item.
    pub(crate) fn slot_of(&self, key: Key) -> Option<usize> {
        let slot = key.slot as usize;
        match self.items.get(slot) {
            Some(Some(_)) if self.generations[slot] == key.generation => Some(slot),
            _ => None,
        }
    }

    /// The live item behind `key`.
    pub(crate) fn get(&self, key: Key) -> Option<&T> {
        let slot = self.slot_of(key)?;
        self.items[slot].as_ref()
    }

    /// The live item behind `key`, mutable.
    pub(crate) fn get_mut(&mut self, key: Key) -> Option<&mut T> {
        let slot = self.slot_of(key)?;
        self.items[slot].as_mut()
    }

    /// The slot the next [`Self::insert`] fills, None when it appends a new one.
    fn next_slot(&self) -> Option<usize> {
        if P::LOWEST_FIRST {
            self.items.iter().position(Option::is_none)
        } else {
            self.free.last().map(|&s| s as usize)
        }
    }

    /// Makes room for one more item, so that the next [`Self::insert`] and the
    /// [`Self::remove`] of any item allocate nothing. When no slot is empty and the map
    /// already holds `max_slots` slots, fails with `full()`; an allocation failure is
    /// OUT_OF_MEMORY (naming `what`). Changes nothing on failure.
    pub(crate) fn reserve(
        &mut self,
        max_slots: usize,
        full: impl FnOnce() -> Error,
        what: &str,
    ) -> Result<()> {
        if self.next_slot().is_some() {
            return Ok(());
        }
        if self.items.len() >= max_slots {
            return Err(full());
        }
        try_reserve(&mut self.items, 1, what)?;
        try_reserve(&mut self.generations, 1, what)?;
        if !P::LOWEST_FIRST {
            try_reserve(&mut self.free, self.items.len() + 1, what)?;
        }
        Ok(())
    }

    /// Puts `item` into the slot the policy picks (room made by [`Self::reserve`]; a
    /// Vec push otherwise) and returns its key.
    pub(crate) fn insert(&mut self, item: T) -> Key {
        let slot = match self.next_slot() {
            Some(slot) => {
                if !P::LOWEST_FIRST {
                    self.free.pop();
                }
                slot
            }
            None => {
                self.items.push(None);
                self.generations.push(P::FIRST_GENERATION);
                self.items.len() - 1
            }
        };
        self.items[slot] = Some(item);
        self.live += 1;
        Key {
            slot: slot as u32,
            generation: self.generations[slot],
        }
    }

    /// Takes the item out of `slot` (None when it is empty) and moves the slot's
    /// generation on.
    pub(crate) fn vacate(&mut self, slot: usize) -> Option<T> {
        let item = self.items.get_mut(slot)?.take()?;
        let next = self.generations[slot].wrapping_add(1) & Self::MASK;
        self.generations[slot] = if next == 0 { P::FIRST_GENERATION } else { next };
        if !P::LOWEST_FIRST {
            self.free.push(slot as u32);
        }
        self.live -= 1;
        Some(item)
    }

    /// Removes the item behind `key` (None when `key` names no live item).
    pub(crate) fn remove(&mut self, key: Key) -> Option<T> {
        let slot = self.slot_of(key)?;
        self.vacate(slot)
    }

    /// Snapshot, one record per slot: the slot count, then per slot its generation, a
    /// bool (live) and, when live, what `put` writes; then the free list (only with the
    /// free-list stack).
    pub(crate) fn save_interleaved(
        &self,
        w: &mut Writer<'_>,
        mut put: impl FnMut(&mut Writer<'_>, &T),
    ) {
        w.put_len(self.items.len());
        for (item, &generation) in self.items.iter().zip(&self.generations) {
            w.put(generation);
            w.put(item.is_some());
            if let Some(item) = item {
                put(w, item);
            }
        }
        if !P::LOWEST_FIRST {
            w.put_slice(&self.free);
        }
    }

    /// Snapshot, generations first: the generations (as a slice), then per slot a bool
    /// (live) and, when live, what `put` writes; then the free list (only with the
    /// free-list stack).
    pub(crate) fn save_split(&self, w: &mut Writer<'_>, mut put: impl FnMut(&mut Writer<'_>, &T)) {
        w.put_slice(&self.generations);
        for item in &self.items {
            w.put(item.is_some());
            if let Some(item) = item {
                put(w, item);
            }
        }
        if !P::LOWEST_FIRST {
            w.put_slice(&self.free);
        }
    }

    /// Reads what [`Self::save_interleaved`] wrote: at most `max_slots` slots (counted
    /// as `count_what` in errors), `get` reading each live item from its slot index and
    /// generation; slots are named "`noun` slot k" in errors. Every generation and the
    /// free list are checked.
    pub(crate) fn load_interleaved(
        r: &mut Reader<'_>,
        max_slots: usize,
        count_what: &str,
        noun: &str,
        mut get: impl FnMut(&mut Reader<'_>, usize, u32) -> Result<T>,
    ) -> Result<Self> {
        let n = r.get_count(5, count_what)?;
        codec::ensure(n <= max_slots, || format!("{n} {count_what}"))?;
        let mut items = try_with_capacity(n, count_what)?;
        let mut generations = try_with_capacity(n, count_what)?;
        for slot in 0..n {
            let generation = r.get::<u32>()?;
            Self::check_generation(generation, noun, slot)?;
            generations.push(generation);
            items.push(if r.get::<bool>()? {
                Some(get(r, slot, generation)?)
            } else {
                None
            });
        }
        Self::finish_load(r, items, generations, noun)
    }

    /// Reads what [`Self::save_split`] wrote: at most `max_slots` slots (see
    /// [`Self::load_interleaved`]).
    pub(crate) fn load_split(
        r: &mut Reader<'_>,
        max_slots: usize,
        noun: &str,
        mut get: impl FnMut(&mut Reader<'_>, usize, u32) -> Result<T>,
    ) -> Result<Self> {
        let generations: Vec<u32> = r.get_vec()?;
        codec::ensure(generations.len() <= max_slots, || {
            format!("{} {noun} slots", generations.len())
        })?;
        let mut items = try_with_capacity(generations.len(), noun)?;
        for (slot, &generation) in generations.iter().enumerate() {
            Self::check_generation(generation, noun, slot)?;
            items.push(if r.get::<bool>()? {
                Some(get(r, slot, generation)?)
            } else {
                None
            });
        }
        Self::finish_load(r, items, generations, noun)
    }

    fn check_generation(generation: u32, noun: &str, slot: usize) -> Result<()> {
        codec::ensure(
            generation & !Self::MASK == 0 && (generation != 0 || P::FIRST_GENERATION == 0),
            || format!("{noun} slot {slot} has generation {generation}"),
        )
    }

    /// Reads and checks the free list (each empty slot exactly once), then builds the
    /// map.
    fn finish_load(
        r: &mut Reader<'_>,
        items: Vec<Option<T>>,
        generations: Vec<u32>,
        noun: &str,
    ) -> Result<Self> {
        let free: Vec<u32> = if P::LOWEST_FIRST {
            Vec::new()
        } else {
            r.get_vec()?
        };
        if !P::LOWEST_FIRST {
            let mut freed = try_with_capacity::<bool>(items.len(), noun)?;
            freed.resize(items.len(), false);
            for &f in &free {
                let f = f as usize;
                codec::ensure(f < items.len() && items[f].is_none() && !freed[f], || {
                    format!("free {noun} slot {f}")
                })?;
                freed[f] = true;
            }
            for (k, s) in items.iter().enumerate() {
                codec::ensure(s.is_some() || freed[k], || {
                    format!("{noun} slot {k} is neither live nor free")
                })?;
            }
        }
        let mut free = free;
        if !P::LOWEST_FIRST {
            // Room for every slot, so that no removal allocates.
            let more = items.len() - free.len();
            try_reserve(&mut free, more, noun)?;
        }
        let live = items.iter().flatten().count();
        Ok(SlotMap {
            items,
            generations,
            free,
            live,
            policy: PhantomData,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> Error {
        Error::out_of_range("full")
    }

    #[test]
    fn ids_round_trip_and_zero_is_never_issued() {
        for (slot, generation) in [(0u32, 0u32), (5, 7), (123_456, u32::MAX)] {
            let key = Key { slot, generation };
            assert_ne!(key.to_id(), 0);
            assert_eq!(Key::from_id(key.to_id()), key);
        }
        let mut m: SlotMap<u8> = SlotMap::new();
        let k = m.insert(1);
        assert_eq!(m.get(Key::from_id(0)), None);
        assert_eq!(m.get(k), Some(&1));
    }

    /// Every kind's ids: the key and the serial round-trip, and a world refuses the
    /// null id, another serial's and a stale one, saying which.
    #[test]
    fn world_ids_carry_the_serial_and_refuse_other_worlds() {
        let (a, b) = (WorldIds::with_serial(5), WorldIds::with_serial(6));
        assert_eq!(WorldIds::with_serial(5 + (1 << 20)), a);
        let mut m: SlotMap<u8, LastFreed> = SlotMap::new();
        let k = m.insert(1);
        let id = a.id(k);
        assert_eq!(id >> 44, 5);
        assert_eq!(a.key_in(&m, id, "thing").unwrap(), k);
        assert_eq!(a.complete(id & ID_WITHOUT_SERIAL), id);
        assert_eq!(b.complete(id), b.id(k));
        let message = |m: &SlotMap<u8, LastFreed>, ids: WorldIds, id: u64| {
            ids.key_in(m, id, "thing").unwrap_err().message
        };
        assert!(message(&m, b, id).contains("issued by another world"));
        assert_eq!(message(&m, a, 0), "the thing handle is null (0)");
        m.remove(k);
        assert!(message(&m, a, id).contains("removed or was never created"));
        // The largest slot and generation fit.
        let last = Key {
            slot: MAX_SLOTS as u32 - 1,
            generation: (1 << GENERATION_BITS) - 1,
        };
        assert_eq!(b.id(last) >> 44, 6);
        assert_ne!(
            b.id(Key {
                slot: 0,
                generation: 0
            }),
            0
        );
    }

    #[test]
    fn a_stale_key_names_nothing() {
        let mut m: SlotMap<&str> = SlotMap::new();
        let a = m.insert("a");
        assert_eq!(m.remove(a), Some("a"));
        assert_eq!(m.remove(a), None);
        let b = m.insert("b");
        assert_eq!(b.slot, a.slot);
        assert_ne!(b.generation, a.generation);
        assert_eq!(m.get(a), None);
        assert_eq!(m.get(b), Some(&"b"));
        assert_eq!(m.len(), 1);
    }

    #[test]
    fn the_stack_reuses_the_last_freed_slot_and_the_other_the_lowest() {
        let mut stack: SlotMap<u32> = SlotMap::new();
        let mut lowest: SlotMap<u32, LowestFirst> = SlotMap::new();
        let s: Vec<Key> = (0..4).map(|i| stack.insert(i)).collect();
        let l: Vec<Key> = (0..4).map(|i| lowest.insert(i)).collect();
        for k in [1, 3] {
            stack.remove(s[k]);
            lowest.remove(l[k]);
        }
        assert_eq!(stack.insert(9).slot, 3);
        assert_eq!(stack.insert(9).slot, 1);
        assert_eq!(stack.insert(9).slot, 4);
        assert_eq!(lowest.insert(9).slot, 1);
        assert_eq!(lowest.insert(9).slot, 3);
        assert_eq!(lowest.insert(9).slot, 4);
        assert_eq!(stack.iter().copied().collect::<Vec<_>>(), [0, 9, 2, 9, 9]);
        assert_eq!(
            lowest.iter_keyed().map(|(k, _)| k.slot).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
    }

    #[test]
    fn generations_start_and_wrap_by_policy() {
        let mut stack: SlotMap<()> = SlotMap::new();
        let mut lowest: SlotMap<(), LowestFirst> = SlotMap::new();
        let mut narrow: SlotMap<(), LastFreed> = SlotMap::new();
        assert_eq!(stack.insert(()).generation, 1);
        assert_eq!(lowest.insert(()).generation, 0);
        assert_eq!(narrow.insert(()).generation, 1);
        stack.generations[0] = u32::MAX;
        lowest.generations[0] = (1 << 20) - 1;
        narrow.generations[0] = (1 << 20) - 1;
        stack.vacate(0);
        lowest.vacate(0);
        narrow.vacate(0);
        assert_eq!(stack.generations[0], 1);
        assert_eq!(lowest.generations[0], 0);
        assert_eq!(narrow.generations[0], 1);
    }

    #[test]
    fn reserve_refuses_past_the_limit_and_then_nothing_allocates() {
        let mut m: SlotMap<u32> = SlotMap::new();
        for i in 0..3 {
            m.reserve(3, full, "items").unwrap();
            m.insert(i);
        }
        assert!(m.reserve(3, full, "items").is_err());
        let k = m.key_of(1).unwrap();
        m.remove(k);
        m.reserve(3, full, "items").unwrap();
        assert_eq!(m.insert(7).slot, 1);
        assert_eq!(m.slot_count(), 3);
    }

    fn round_trip<P: Policy>(m: &SlotMap<u32, P>, split: bool) -> (Vec<u8>, SlotMap<u32, P>) {
        let bytes = codec::written(|w| {
            let put = |w: &mut Writer<'_>, v: &u32| w.put(*v);
            if split {
                m.save_split(w, put);
            } else {
                m.save_interleaved(w, put);
            }
        });
        let mut r = Reader::new(&bytes);
        let get = |r: &mut Reader<'_>, _: usize, _: u32| r.get::<u32>();
        let back = if split {
            SlotMap::<u32, P>::load_split(&mut r, 100, "item", get).unwrap()
        } else {
            SlotMap::<u32, P>::load_interleaved(&mut r, 100, "item slots", "item", get).unwrap()
        };
        assert_eq!(r.remaining(), 0);
        (bytes, back)
    }

    #[test]
    fn a_snapshot_keeps_keys_and_the_reuse_order() {
        let mut stack: SlotMap<u32> = SlotMap::new();
        let keys: Vec<Key> = (0..5).map(|i| stack.insert(i)).collect();
        stack.remove(keys[3]);
        stack.remove(keys[0]);
        for split in [false, true] {
            let (_, mut back) = round_trip(&stack, split);
            assert_eq!(back.len(), 3);
            assert_eq!(back.get(keys[4]), Some(&4));
            assert_eq!(back.get(keys[0]), None);
            // The free list comes back in order: slot 0 (freed last), then slot 3.
            assert_eq!(
                back.insert(8),
                Key {
                    slot: 0,
                    generation: 2
                }
            );
            assert_eq!(
                back.insert(8),
                Key {
                    slot: 3,
                    generation: 2
                }
            );
            assert_eq!(back.insert(8).slot, 5);
        }
        let mut lowest: SlotMap<u32, LowestFirst> = SlotMap::new();
        let keys: Vec<Key> = (0..3).map(|i| lowest.insert(i)).collect();
        lowest.remove(keys[1]);
        let (bytes, mut back) = round_trip(&lowest, false);
        // 8 (count) + 3 × (4 + 1) + 2 × 4 bytes: no free list.
        assert_eq!(bytes.len(), 8 + 15 + 8);
        assert_eq!(
            back.insert(5),
            Key {
                slot: 1,
                generation: 1
            }
        );
    }

    #[test]
    fn a_corrupt_free_list_is_refused() {
        let mut m: SlotMap<u32> = SlotMap::new();
        let k = m.insert(1);
        m.insert(2);
        m.remove(k);
        let (mut bytes, _) = round_trip(&m, false);
        // The free list's one entry (the last 4 bytes) names the live slot 1.
        let n = bytes.len();
        bytes[n - 4..].copy_from_slice(&1u32.to_le_bytes());
        let mut r = Reader::new(&bytes);
        let get = |r: &mut Reader<'_>, _: usize, _: u32| r.get::<u32>();
        let e = SlotMap::<u32>::load_interleaved(&mut r, 100, "item slots", "item", get);
        assert!(e.err().unwrap().message.contains("free item slot 1"));
    }
}
