//! Generation-checked handles. A handle is `(generation << 32) | (slot + 1)`, so 0 is
//! never issued; a destroyed or forged handle is rejected, never dereferenced. The
//! registry is guarded by a parking_lot RwLock held only to look up or swap a slot;
//! each world has its own Mutex, so two threads on two worlds run in parallel.

use std::sync::Arc;

use parking_lot::{Mutex, RwLock};

use super::{Failure, FfiResult, SinewStatus};

struct Slot<T> {
    generation: u32,
    value: Option<Arc<Mutex<T>>>,
}

/// A registry of objects of type T addressed by generation-checked ids.
pub(crate) struct Registry<T> {
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

impl<T> Registry<T> {
    pub(crate) const fn new() -> Self {
        Registry {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

fn split(id: u64) -> (usize, u32) {
    let low = (id & 0xFFFF_FFFF) as u32;
    ((low as usize).wrapping_sub(1), (id >> 32) as u32)
}

fn invalid(kind: &str, id: u64) -> Failure {
    Failure::new(
        SinewStatus::SINEW_ERROR_INVALID_HANDLE,
        if id == 0 {
            format!("the {kind} handle is null (0)")
        } else {
            format!("the {kind} handle {id:#x} is destroyed or was never created")
        },
    )
}

/// Stores `value`, returning its new id.
pub(crate) fn insert<T>(registry: &RwLock<Registry<T>>, value: T) -> FfiResult<u64> {
    let mut r = registry.write();
    let index = match r.free.pop() {
        Some(i) => i as usize,
        None => {
            if r.slots.len() >= (u32::MAX - 1) as usize {
                return Err(Failure::new(
                    SinewStatus::SINEW_ERROR_OUT_OF_MEMORY,
                    "too many live objects",
                ));
            }
            r.slots.try_reserve(1).map_err(|_| {
                Failure::new(
                    SinewStatus::SINEW_ERROR_OUT_OF_MEMORY,
                    "could not grow the handle registry",
                )
            })?;
            r.slots.push(Slot {
                generation: 1,
                value: None,
            });
            r.slots.len() - 1
        }
    };
    let slot = &mut r.slots[index];
    slot.value = Some(Arc::new(Mutex::new(value)));
    Ok(((slot.generation as u64) << 32) | (index as u64 + 1))
}

/// The object behind `id`, or INVALID_HANDLE.
pub(crate) fn get<T>(
    registry: &RwLock<Registry<T>>,
    kind: &str,
    id: u64,
) -> FfiResult<Arc<Mutex<T>>> {
    let (index, generation) = split(id);
    let r = registry.read();
    match r.slots.get(index) {
        Some(slot) if slot.generation == generation => {
            slot.value.clone().ok_or_else(|| invalid(kind, id))
        }
        _ => Err(invalid(kind, id)),
    }
}

/// Removes the object behind `id` (it is dropped once no call uses it any more).
pub(crate) fn remove<T>(
    registry: &RwLock<Registry<T>>,
    kind: &str,
    id: u64,
) -> FfiResult<Arc<Mutex<T>>> {
    let (index, generation) = split(id);
    let mut r = registry.write();
    let slot = match r.slots.get_mut(index) {
        Some(slot) if slot.generation == generation && slot.value.is_some() => slot,
        _ => return Err(invalid(kind, id)),
    };
    let value = slot.value.take().expect("checked above");
    // Generation 0 is skipped so that no handle ever equals 0.
    slot.generation = slot.generation.checked_add(1).unwrap_or(1);
    r.free.push(index as u32);
    Ok(value)
}
