//! The generation-checked tables of fluids, emitters and kill volumes (each a
//! [`SlotMap`] that takes the lowest empty slot): ids have the layout of every id a
//! world issues ([`crate::slots::WorldIds`]), so a removed item's id never names its
//! slot's next occupant and another world's id is refused.

use crate::error::{Error, Result};
use crate::slots::{LowestFirst, SlotMap, MAX_SLOTS};

/// Room for one more item in a fluid table (outside any step).
pub(crate) fn reserve_slot<T>(slots: &mut SlotMap<T, LowestFirst>, what: &str) -> Result<()> {
    let full = || Error::out_of_range(format!("a world holds at most {MAX_SLOTS} {what}"));
    slots.reserve(MAX_SLOTS, full, what)
}
