//! The generation-checked slot tables of fluids, emitters and kill volumes: an id is
//! `(generation << 32) | (slot + 1)`, so a removed item's id never names its slot's
//! next occupant.

use super::Slot;
use crate::error::{Error, ErrorKind, Result};

/// `(generation << 32) | (slot + 1)`.
pub(super) fn encode(slot: usize, generation: u32) -> u64 {
    ((generation as u64) << 32) | (slot as u64 + 1)
}

/// The slot and generation of an id (the slot wraps to `usize::MAX` for a null id).
pub(super) fn decode(id: u64) -> (usize, u32) {
    (
        ((id & 0xffff_ffff) as usize).wrapping_sub(1),
        (id >> 32) as u32,
    )
}

pub(super) fn invalid_handle(what: &str, id: u64) -> Error {
    Error::new(
        ErrorKind::InvalidHandle,
        if id == 0 {
            format!("the {what} handle is null (0)")
        } else {
            format!("the {what} handle {id:#x} is removed or was never created in this world")
        },
    )
}

/// The slot of `id` in a generation-checked table.
pub(super) fn slot_in<T>(slots: &[Slot<T>], id: u64, what: &str) -> Result<usize> {
    let (slot, generation) = decode(id);
    match slots.get(slot) {
        Some(s) if s.item.is_some() && s.generation == generation => Ok(slot),
        _ => Err(invalid_handle(what, id)),
    }
}

/// Puts `item` into the first free slot of `slots` (room reserved by the caller when
/// none is free) and returns its id.
pub(super) fn insert<T>(slots: &mut Vec<Slot<T>>, item: T) -> u64 {
    match slots.iter().position(|s| s.item.is_none()) {
        Some(k) => {
            slots[k].item = Some(item);
            encode(k, slots[k].generation)
        }
        None => {
            slots.push(Slot {
                generation: 0,
                item: Some(item),
            });
            encode(slots.len() - 1, 0)
        }
    }
}

/// Empties slot `k` and bumps its generation.
pub(super) fn vacate<T>(slots: &mut [Slot<T>], k: usize) -> Option<T> {
    let s = &mut slots[k];
    s.generation = s.generation.wrapping_add(1);
    s.item.take()
}

/// Room for one more item in `slots` (outside any step).
pub(super) fn reserve_slot<T>(slots: &mut Vec<Slot<T>>, what: &str) -> Result<()> {
    if slots.iter().all(|s| s.item.is_some()) {
        crate::error::try_reserve(slots, 1, what)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_their_slot_and_generation() {
        for (slot, generation) in [(0usize, 0u32), (5, 7), (123_456, u32::MAX)] {
            assert_eq!(decode(encode(slot, generation)), (slot, generation));
        }
        assert_eq!(decode(0).0, usize::MAX);
    }
}
