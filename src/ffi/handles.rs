//! Generation-checked handles. A handle is `(generation << 32) | (slot + 1)`, so 0 is
//! never issued; a destroyed or forged handle is rejected, never dereferenced. The
//! registry is guarded by a parking_lot RwLock held only to look up or swap a slot;
//! each world has its own Mutex, so two threads on two worlds run in parallel.

use std::sync::Arc;

use parking_lot::{Mutex, RwLock};

use super::{Failure, FfiResult, SinewStatus};
use crate::slots::{Key, SlotMap};

/// A registry of objects of type T addressed by generation-checked ids (the crate's
/// slot map: the most recently freed slot is reused first, generations skip 0).
pub(crate) type Registry<T> = SlotMap<Arc<Mutex<T>>>;

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
    let full = || crate::error::Error::out_of_memory("too many live objects");
    r.reserve((u32::MAX - 1) as usize, full, "the handle registry")?;
    Ok(r.insert(Arc::new(Mutex::new(value))).to_id())
}

/// The object behind `id`, or INVALID_HANDLE.
pub(crate) fn get<T>(
    registry: &RwLock<Registry<T>>,
    kind: &str,
    id: u64,
) -> FfiResult<Arc<Mutex<T>>> {
    let r = registry.read();
    r.get(Key::from_id(id))
        .cloned()
        .ok_or_else(|| invalid(kind, id))
}

/// Removes the object behind `id` (it is dropped once no call uses it any more).
pub(crate) fn remove<T>(
    registry: &RwLock<Registry<T>>,
    kind: &str,
    id: u64,
) -> FfiResult<Arc<Mutex<T>>> {
    let mut r = registry.write();
    r.remove(Key::from_id(id)).ok_or_else(|| invalid(kind, id))
}
