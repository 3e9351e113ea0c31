//! The generation-checked tables of fluids, emitters and kill volumes (each a
//! [`SlotMap`] that takes the lowest empty slot): an id is
//! `(generation << 32) | (slot + 1)`, so a removed item's id never names its slot's
//! next occupant.

use crate::error::{Error, ErrorKind, Result};
use crate::slots::{Key, LowestFirst, SlotMap};

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

/// The key of a live item of a fluid table (fluids, emitters, kill volumes), or
/// INVALID_HANDLE naming `what`.
pub(super) fn key_in<T>(slots: &SlotMap<T, LowestFirst>, id: u64, what: &str) -> Result<Key> {
    let key = Key::from_id(id);
    match slots.get(key) {
        Some(_) => Ok(key),
        None => Err(invalid_handle(what, id)),
    }
}

/// Room for one more item in a fluid table (outside any step).
pub(super) fn reserve_slot<T>(slots: &mut SlotMap<T, LowestFirst>, what: &str) -> Result<()> {
    let full = || Error::out_of_range(format!("too many {what}"));
    slots.reserve(usize::MAX, full, what)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_their_slot_and_generation() {
        for (slot, generation) in [(0u32, 0u32), (5, 7), (123_456, u32::MAX)] {
            let key = Key { slot, generation };
            assert_eq!(Key::from_id(key.to_id()), key);
        }
        assert_eq!(Key::from_id(0).slot, u32::MAX);
    }
}
