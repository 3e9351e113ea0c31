//! Readback into caller memory, shared by every entry point that copies results out:
//! strided output buffers (checked once, then written element by element without
//! further `unsafe` at the call site) and the capacity check.

use std::ffi::c_void;
use std::marker::PhantomData;

use super::{non_null, Failure, FfiResult, SinewStatus};

/// Checks that `count` elements of `element` bytes, `stride` bytes apart, fit in the
/// address space from `ptr`, with the stride in `element..=SINEW_MAX_STRIDE_BYTES`.
pub(crate) fn check_span(
    ptr: *const c_void,
    count: u32,
    stride: u32,
    element: u32,
    name: &str,
) -> FfiResult<()> {
    crate::limits::check_stride(name, stride, element)?;
    let span = (count.max(1) as u64 - 1) * stride as u64 + element as u64;
    if span > isize::MAX as u64 || (ptr as u64).checked_add(span).is_none() {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
            format!("{name}: {count} elements of stride {stride} do not fit in memory"),
        ));
    }
    Ok(())
}

/// A caller's output buffer of `capacity` elements of type E (SinewVec3, float), one
/// every `stride` bytes (e.g. a vertex buffer), checked by [`Self::new`].
pub(crate) struct StridedOut<'a, E> {
    base: *mut u8,
    stride: usize,
    capacity: usize,
    buffer: PhantomData<&'a mut E>,
}

impl<'a, E: Copy> StridedOut<'a, E> {
    /// Checks `ptr` (NULL refused, named `name`): the stride in
    /// `size_of::<E>()..=SINEW_MAX_STRIDE_BYTES`, the span within the address space.
    ///
    /// # Safety
    /// When non-null, `ptr` must point to `(capacity-1)*stride + size_of::<E>()` writable
    /// bytes that nothing else accesses for `'a` (the C caller's promise).
    pub(crate) unsafe fn new(
        ptr: *mut c_void,
        capacity: u32,
        stride: u32,
        name: &str,
    ) -> FfiResult<Self> {
        non_null(ptr, name)?;
        check_span(ptr, capacity, stride, std::mem::size_of::<E>() as u32, name)?;
        Ok(StridedOut {
            base: ptr as *mut u8,
            stride: stride as usize,
            capacity: capacity as usize,
            buffer: PhantomData,
        })
    }

    /// [`Self::new`] for an optional buffer: NULL is None (its stride is not checked).
    ///
    /// # Safety
    /// As [`Self::new`].
    pub(crate) unsafe fn optional(
        ptr: *mut c_void,
        capacity: u32,
        stride: u32,
        name: &str,
    ) -> FfiResult<Option<Self>> {
        if ptr.is_null() {
            return Ok(None);
        }
        // SAFETY: this function's safety section is `new`'s.
        Ok(Some(unsafe { Self::new(ptr, capacity, stride, name)? }))
    }

    /// Writes element `k`. A `k` past the capacity is a bug in Sinew: it panics (the
    /// guard reports SINEW_ERROR_INTERNAL) instead of writing outside the buffer.
    #[inline]
    pub(crate) fn write(&self, k: usize, value: impl Into<E>) {
        assert!(
            k < self.capacity,
            "readback element {k} of {}",
            self.capacity
        );
        // SAFETY: k < capacity, so the element lies within the span `new` checked and the
        // caller made writable for 'a; unaligned write, so any stride works.
        unsafe { (self.base.add(k * self.stride) as *mut E).write_unaligned(value.into()) }
    }
}

impl<E: Copy> crate::world::render_normals::VertexOut<E> for StridedOut<'_, E> {
    /// Reads back element `k`, which this call wrote before (the render-normal sums
    /// accumulate in the caller's buffer). Panics past the capacity, as `write`.
    fn get(&self, k: usize) -> E {
        assert!(
            k < self.capacity,
            "readback element {k} of {}",
            self.capacity
        );
        // SAFETY: k < capacity, so the element lies within the span `new` checked, which
        // the caller made writable (hence readable) and unaliased for 'a; the sums write
        // each element before reading it, so it holds an E; unaligned read, any stride.
        unsafe { (self.base.add(k * self.stride) as *const E).read_unaligned() }
    }
    fn set(&mut self, k: usize, value: E) {
        self.write(k, value);
    }
}

/// Fails with OUT_OF_RANGE ("capacity {capacity} is below {what}") when `count`
/// elements do not fit in a buffer of `capacity`; nothing is written then.
pub(crate) fn check_capacity(
    capacity: u32,
    count: u32,
    what: impl FnOnce() -> String,
) -> FfiResult<()> {
    if count > capacity {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
            format!("capacity {capacity} is below {}", what()),
        ));
    }
    Ok(())
}
