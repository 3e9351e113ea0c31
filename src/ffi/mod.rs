//! The C ABI: the only `extern "C"` code in the crate. No physics lives here: each
//! function checks its pointers, turns C data into Rust slices and calls the safe API.
//!
//! Conventions (ARCHITECTURE.md, "C ABI conventions"): every fallible function returns
//! `SinewStatus`, writes its outputs only on success, runs inside a panic guard, and
//! records a readable reason for a failure in `sinew_last_error_message`.

/// The C entry point this code is in, as an [`Entry`]: its name is derived from the
/// enclosing function (`sinew_world_step`, ...), never typed by hand, and is resolved
/// only when a failure is recorded (nothing is computed on success).
///
/// ```ignore
/// pub unsafe extern "C" fn sinew_world_step(world: SinewWorld, dt: f32) -> SinewStatus {
///     guard(entry!(), || with_world(world, |w| Ok(w.step(dt)?)))
/// }
/// ```
///
/// The signature stays written out (cbindgen reads it to generate include/sinew.h); only
/// the name the error message carries comes from here.
macro_rules! entry {
    () => {{
        fn here() {}
        $crate::ffi::Entry::enclosing(here)
    }};
}

pub mod attachments;
pub mod bodies;
pub mod collision;
pub mod constraints;
pub mod contacts;
pub mod dynamics;
pub mod edit;
pub mod families;
pub mod fluid_render;
pub mod fluids;
pub mod granular;
pub mod handles;
pub mod interpolation;
pub mod lod;
pub mod particles;
pub mod profile;
mod readback;
pub mod render_normals;
pub mod sdf;
pub mod settings;
pub mod skinning;
pub mod sleep;
pub mod snapshot;
/// cbindgen:ignore
pub(crate) mod task_system;
pub mod tasks;
pub mod tearing;
pub mod wind;
pub mod world;

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::{Error, ErrorKind};

/// Version of the C ABI. Wrappers compare it with `sinew_abi_version` when they load
/// the library and refuse a mismatched binary. Bumped on any incompatible change
/// (2: `SinewWorldDesc` gained `profiling`, `SinewContact` its point and friction
/// impulse; 3: `SinewWorldDesc` gained `sleeping`, `sleep_threshold` and `sleep_time`;
/// 4: `SinewGrainEmitterStats` gained `held`, `SinewShape` the value `SINEW_SHAPE_SDF`;
/// 5: `SinewFluidDesc` gained `solve_rate`).
pub const SINEW_ABI_VERSION: u32 = 5;

pub use settings::{
    SINEW_MAX_AREA, SINEW_MAX_COMPLIANCE, SINEW_MAX_COORDINATE, SINEW_MAX_INVERSE_MASS,
    SINEW_MAX_LENGTH, SINEW_MAX_STRIDE_BYTES, SINEW_MAX_VOLUME,
};

/// Result of every fallible function (`int32_t`).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SinewStatus {
    /// Success.
    SINEW_OK = 0,
    /// A required pointer was NULL.
    SINEW_ERROR_NULL_POINTER = 1,
    /// The handle is null, destroyed, or was never issued.
    SINEW_ERROR_INVALID_HANDLE = 2,
    /// An index, range or count is outside what the world holds or allows.
    SINEW_ERROR_OUT_OF_RANGE = 3,
    /// A value is not acceptable (NaN, negative mass, bad enum, zero count, ...).
    SINEW_ERROR_INVALID_ARGUMENT = 4,
    /// Memory or worker threads could not be obtained.
    SINEW_ERROR_OUT_OF_MEMORY = 5,
    /// A bug inside Sinew (a caught panic); the message says where.
    SINEW_ERROR_INTERNAL = 6,
    /// The step ran, but the solver met a non-finite value (NaN or infinity) in some
    /// bodies (an extreme state, e.g. a tangled cloth with rigid constraints). Their
    /// particles were put back where they were before the step, at rest; every other
    /// particle advanced normally, and every particle is finite. The message names the
    /// bodies (or the lone particles).
    SINEW_ERROR_NON_FINITE = 7,
}

/// A failure on its way to the C caller: a status and a message.
#[doc(hidden)]
#[derive(Debug)]
pub struct Failure {
    pub status: SinewStatus,
    pub message: String,
}

impl Failure {
    pub(crate) fn new(status: SinewStatus, message: impl Into<String>) -> Self {
        Failure {
            status,
            message: message.into(),
        }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let status = match e.kind {
            ErrorKind::OutOfRange => SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
            ErrorKind::InvalidArgument => SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
            ErrorKind::OutOfMemory => SinewStatus::SINEW_ERROR_OUT_OF_MEMORY,
            ErrorKind::InvalidHandle => SinewStatus::SINEW_ERROR_INVALID_HANDLE,
            ErrorKind::NonFinite => SinewStatus::SINEW_ERROR_NON_FINITE,
        };
        Failure::new(status, e.message)
    }
}

#[doc(hidden)]
pub type FfiResult<T> = Result<T, Failure>;

/// The C function a call entered by, made by `entry!()` inside it: the name in its error
/// messages ("sinew_world_step: ...").
#[derive(Clone, Copy)]
pub(crate) struct Entry(fn() -> &'static str);

impl Entry {
    /// The entry point around `marker`, a function item declared inside it (`entry!`).
    pub(crate) fn enclosing<F: Fn()>(_marker: F) -> Entry {
        Entry(std::any::type_name::<F>)
    }

    /// The name of the function: the last segment of the marker's path
    /// (`sinew::ffi::world::sinew_world_step::here`) other than the marker itself and
    /// any closure it sits in.
    pub(crate) fn name(self) -> &'static str {
        let path = (self.0)();
        path.rsplit("::")
            .find(|s| *s != "here" && *s != "{{closure}}")
            .unwrap_or(path)
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(function: Entry, message: &str) {
    let text = format!("{}: {message}", function.name()).replace('\0', " ");
    let c = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// Runs `body` and turns its result (or a panic) into a status, recording the reason of
/// a failure for `sinew_last_error_message`.
pub(crate) fn guard(function: Entry, body: impl FnOnce() -> FfiResult<()>) -> SinewStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => SinewStatus::SINEW_OK,
        Ok(Err(f)) => {
            set_last_error(function, &f.message);
            f.status
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            set_last_error(function, &format!("internal error (please report): {what}"));
            SinewStatus::SINEW_ERROR_INTERNAL
        }
    }
}

/// Fails with NULL_POINTER when `ptr` is null.
pub(crate) fn non_null<T>(ptr: *const T, name: &str) -> FfiResult<()> {
    if ptr.is_null() {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_NULL_POINTER,
            format!("{name} is NULL"),
        ));
    }
    Ok(())
}

/// Largest element count of one array argument (the particle and constraint limits).
const MAX_BATCH: usize = 1 << 28;

/// Checks an array argument of `count` elements at `ptr`: non-null, aligned for T, and
/// no longer than the largest batch (no world holds more than 2^28 particles or
/// constraints, so absurd counts are refused before a slice over memory the caller
/// cannot own is made).
fn check_array<T>(ptr: *const T, count: usize, name: &str) -> FfiResult<()> {
    debug_assert!(
        std::mem::size_of::<T>() <= 16,
        "MAX_BATCH assumes small elements"
    );
    non_null(ptr, name)?;
    if (ptr as usize) % std::mem::align_of::<T>() != 0 {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_INVALID_ARGUMENT,
            format!(
                "{name} is not aligned to {} bytes",
                std::mem::align_of::<T>()
            ),
        ));
    }
    if count > MAX_BATCH {
        return Err(Failure::new(
            SinewStatus::SINEW_ERROR_OUT_OF_RANGE,
            format!("{name}: count {count} exceeds the largest batch of {MAX_BATCH} elements"),
        ));
    }
    Ok(())
}

/// Views `count` elements at `ptr` as a slice after [`check_array`].
///
/// # Safety
/// When non-null and aligned, `ptr` must point to `count` readable elements that stay
/// valid and unmodified for the returned lifetime (the C caller's promise).
pub(crate) unsafe fn slice_from<'a, T>(
    ptr: *const T,
    count: usize,
    name: &str,
) -> FfiResult<&'a [T]> {
    check_array(ptr, count, name)?;
    // SAFETY: `ptr` is non-null and aligned for T, and `count` is at most 2^28 elements of
    // at most 16 bytes (all checked by `check_array` above), so the slice fits in isize;
    // this function's safety section makes `ptr` readable for `count` elements, unchanged
    // for the returned lifetime.
    Ok(unsafe { std::slice::from_raw_parts(ptr, count) })
}

/// Views `count` K-index tuples (triangles, tets, constraint particle lists) at
/// `indices`.
///
/// # Safety
/// `indices` must point to K*count readable uint32_t (or be NULL: an error).
pub(crate) unsafe fn tuples<'a, const K: usize>(
    indices: *const u32,
    count: u32,
    name: &str,
) -> FfiResult<&'a [[u32; K]]> {
    // SAFETY: [u32; K] has the alignment of u32 and size K*4; the caller promises
    // K*count readable indices.
    unsafe { slice_from(indices as *const [u32; K], count as usize, name) }
}

/// [`slice_from`] for an optional array: NULL means None.
///
/// # Safety
/// `ptr` must be NULL or satisfy [`slice_from`]'s contract.
pub(crate) unsafe fn optional_slice_from<'a, T>(
    ptr: *const T,
    count: usize,
    name: &str,
) -> FfiResult<Option<&'a [T]>> {
    if ptr.is_null() {
        return Ok(None);
    }
    // SAFETY: `ptr` is non-null here (NULL returned None above), so this function's safety
    // section gives exactly `slice_from`'s contract: readable for `count` elements when
    // aligned; `slice_from` checks alignment and the batch limit itself.
    Ok(Some(unsafe { slice_from(ptr, count, name)? }))
}

/// Views `count` elements at `ptr` as a mutable slice after [`check_array`].
///
/// # Safety
/// When non-null and aligned, `ptr` must point to `count` writable elements that
/// nothing else accesses for the returned lifetime (the C caller's promise).
pub(crate) unsafe fn slice_from_mut<'a, T>(
    ptr: *mut T,
    count: usize,
    name: &str,
) -> FfiResult<&'a mut [T]> {
    check_array(ptr as *const T, count, name)?;
    // SAFETY: `ptr` is non-null and aligned, `count` within the batch limit (checked by
    // `check_array` above); this function's safety section makes the `count` elements
    // writable and unaliased for the returned lifetime.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, count) })
}

/// The frame of every call that answers one value (a count, a new id, a measure):
/// refuses a NULL `out` (named `out_name`) before any work, runs `body` (which reads
/// the arguments and reaches the world) and writes its answer to `*out`, only on
/// success.
///
/// # Safety
/// `out` must be NULL or point to writable memory for one T.
pub(crate) unsafe fn answer<T>(
    function: Entry,
    out: *mut T,
    out_name: &str,
    body: impl FnOnce() -> FfiResult<T>,
) -> SinewStatus {
    guard(function, || {
        non_null(out, out_name)?;
        let n = body()?;
        // SAFETY: `out` is non-null (checked by `non_null` above) and, by this function's
        // safety section, points to writable memory for one value; `write_unaligned` needs no
        // alignment.
        unsafe { out.write_unaligned(n) };
        Ok(())
    })
}

/// Runs `query` on the world and writes its answer to `*out` (only on success).
///
/// # Safety
/// `out` must be NULL or point to one writable uint32_t.
pub(crate) unsafe fn query_u32(
    function: Entry,
    world: world::SinewWorld,
    out: *mut u32,
    query: impl FnOnce(&crate::World) -> u32,
) -> SinewStatus {
    // SAFETY: `out` goes to `answer` unchanged; this function's safety section is
    // `answer`'s.
    unsafe {
        answer(function, out, "out_count", || {
            world::with_world(world, |w| Ok(query(w)))
        })
    }
}

/// Adds one batch of K-index elements (pairs, hinges, triangles, tets), each with an
/// optional value from `values` (rest lengths, angles, volumes, minimum measures; NULL
/// = the family's default), through `add`, and writes the first new id to `*out` (named
/// `out_name` in errors).
/// The arrays are checked in that order, before the world changes.
///
/// # Safety
/// `elements` must point to K*count uint32_t, `values` to count floats or be NULL,
/// `out` to one writable uint32_t or be NULL.
pub(crate) unsafe fn add_batch<const K: usize>(
    function: Entry,
    world: world::SinewWorld,
    (elements, elements_name): (*const u32, &str),
    (values, values_name): (*const f32, &str),
    count: u32,
    (out, out_name): (*mut u32, &str),
    add: impl FnOnce(&mut crate::World, &[[u32; K]], Option<&[f32]>) -> crate::Result<u32>,
) -> SinewStatus {
    let body = || {
        // SAFETY: `elements` is a pointer to `K*count` readable uint32_t, as this
        // function's safety section requires (NULL is refused by `check_array`); `tuples`
        // checks non-null, alignment and the batch limit before it makes the slice,
        // which lives only for this call.
        let e = unsafe { tuples::<K>(elements, count, elements_name)? };
        // SAFETY: `values` is NULL (None: the array is optional) or a pointer to `count`
        // readable floats, as this function's safety section requires;
        // `optional_slice_from` checks non-null, alignment and the batch limit before it
        // makes the slice, which lives only for this call.
        let v = unsafe { optional_slice_from(values, count as usize, values_name)? };
        world::with_world(world, |w| Ok(add(w, e, v)?))
    };
    // SAFETY: `out` goes to `answer` unchanged; this function's safety section promises
    // what `answer` needs.
    unsafe { answer(function, out, out_name, body) }
}

/// [`add_batch`] for the families whose elements carry no per-element value.
///
/// # Safety
/// `elements` must point to K*count uint32_t, `out` to one writable uint32_t or be NULL.
pub(crate) unsafe fn add_elements<const K: usize>(
    function: Entry,
    world: world::SinewWorld,
    elements: (*const u32, &str),
    count: u32,
    out: (*mut u32, &str),
    add: impl FnOnce(&mut crate::World, &[[u32; K]]) -> crate::Result<u32>,
) -> SinewStatus {
    let no_values = (std::ptr::null(), "no values");
    // SAFETY: the pointers go to `add_batch` unchanged (with no values, NULL), and this
    // function's safety section promises what `add_batch` needs.
    unsafe {
        add_batch(
            function,
            world,
            elements,
            no_values,
            count,
            out,
            |w, e, _| add(w, e),
        )
    }
}

/// Returns `SINEW_ABI_VERSION` of this binary.
#[no_mangle]
pub extern "C" fn sinew_abi_version() -> u32 {
    SINEW_ABI_VERSION
}

/// The library version ("major.minor.patch"), a static NUL-terminated string.
#[no_mangle]
pub extern "C" fn sinew_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// The reason for the last failed call on this thread, as "function: reason"; "" when
/// no call has failed on this thread. The pointer stays valid until the next failing
/// call on the same thread.
#[no_mangle]
pub extern "C" fn sinew_last_error_message() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    fn last() -> String {
        // SAFETY: the pointer is a valid NUL-terminated string owned by this thread.
        unsafe { CStr::from_ptr(sinew_last_error_message()) }
            .to_string_lossy()
            .into_owned()
    }

    /// A stand-in entry point for the tests below.
    fn sinew_test_fn() -> Entry {
        entry!()
    }

    fn sinew_other() -> Entry {
        // Inside a closure, the enclosing function still names the entry.
        let inner = || entry!();
        inner()
    }

    #[test]
    fn the_entry_macro_names_the_enclosing_function() {
        assert_eq!(sinew_test_fn().name(), "sinew_test_fn");
        assert_eq!(sinew_other().name(), "sinew_other");
        assert_eq!(
            entry!().name(),
            "the_entry_macro_names_the_enclosing_function"
        );
    }

    #[test]
    fn a_panic_becomes_internal_with_its_message() {
        let status = guard(sinew_test_fn(), || panic!("boom at step 3"));
        assert_eq!(status, SinewStatus::SINEW_ERROR_INTERNAL);
        let m = last();
        assert!(m.starts_with("sinew_test_fn: internal error"), "{m}");
        assert!(m.contains("boom at step 3"), "{m}");
        // a formatted (String) panic payload too
        let n = 7;
        let status = guard(sinew_test_fn(), || panic!("bad index {n}"));
        assert_eq!(status, SinewStatus::SINEW_ERROR_INTERNAL);
        assert!(last().contains("bad index 7"));
    }

    #[test]
    fn core_errors_map_to_statuses_and_messages() {
        let status = guard(sinew_test_fn(), || {
            Err(Error::out_of_range("particle 9 of 3").into())
        });
        assert_eq!(status, SinewStatus::SINEW_ERROR_OUT_OF_RANGE);
        assert_eq!(last(), "sinew_test_fn: particle 9 of 3");
        let status = guard(sinew_test_fn(), || {
            Err(Error::out_of_memory("no room").into())
        });
        assert_eq!(status, SinewStatus::SINEW_ERROR_OUT_OF_MEMORY);
        // success leaves the last failure's message in place
        assert_eq!(guard(sinew_other(), || Ok(())), SinewStatus::SINEW_OK);
        assert_eq!(last(), "sinew_test_fn: no room");
    }
}
