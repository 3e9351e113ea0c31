//! A global allocator that counts the allocations and reallocations made on the thread
//! that watches, and forwards every call to the system allocator, for the
//! no-allocation tests (declared once by the `main.rs` of the test binaries that have
//! them, `tests/alloc` and `tests/fluids`; their worlds step on the calling thread).
//!
//! Only the watching thread counts: the test harness's own main thread allocates now
//! and then while it waits for the test (a channel's wait context, timing-dependent),
//! which a process-wide counter would blame on the step; so do the other tests of the
//! binary, which run on threads of their own and are never watched.
//!
//! The counter itself is shared (a host task system's workers count into it too), so
//! two tests must not count at once: a test that counts holds [`exclusive`] for its
//! whole run (its workers may allocate between its windows), and [`allocations_in`]
//! refuses to count without it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

pub struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations count (const: no lazy init, no destructor,
    /// so reading it inside the allocator never allocates).
    static WATCHED: Cell<bool> = const { Cell::new(false) };
    /// Whether this thread holds [`exclusive`].
    static EXCLUSIVE: Cell<bool> = const { Cell::new(false) };
}

/// Held by the test that counts; the others wait.
static COUNTING: Mutex<()> = Mutex::new(());

/// The right to count, held for a test's whole run (see the module doc); a test that
/// failed while holding it does not stop the others.
pub struct Exclusive {
    _guard: MutexGuard<'static, ()>,
}

/// Waits until no other test counts, then holds the counter until the result drops.
pub fn exclusive() -> Exclusive {
    let guard = COUNTING.lock().unwrap_or_else(PoisonError::into_inner);
    EXCLUSIVE.with(|e| e.set(true));
    Exclusive { _guard: guard }
}

impl Drop for Exclusive {
    fn drop(&mut self) {
        EXCLUSIVE.with(|e| e.set(false));
    }
}

#[inline]
fn count() {
    if WATCHED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

/// Allocations (and reallocations) made on the calling thread while `f` runs.
pub fn allocations_in<R>(f: impl FnOnce() -> R) -> (usize, R) {
    assert!(
        EXCLUSIVE.with(Cell::get),
        "take `counting_alloc::exclusive()` at the start of the test: another test may count"
    );
    WATCHED.with(|w| w.set(true));
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let r = f();
    let during = ALLOCATIONS.load(Ordering::Relaxed) - before;
    WATCHED.with(|w| w.set(false));
    (during, r)
}

/// Counts this thread's allocations from now on (for the worker threads of a host
/// task system, whose allocations during a watched step count too).
#[allow(dead_code)]
pub fn watch_this_thread() {
    WATCHED.with(|w| w.set(true));
}

/// The counter works: a `Vec` made inside the window counts.
pub fn assert_counter_sees_allocations() {
    let (n, v) = allocations_in(|| vec![0u8; 3]);
    assert!(n > 0, "the counter missed an allocation of {v:?}");
}

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;
