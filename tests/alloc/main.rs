//! What the library asks of the process, one binary (`cargo test --test alloc`): the
//! no-allocation tests (a counting global allocator watches the stepping thread, and a
//! host task system's workers, while worlds step), the heap-integrity regression test,
//! and the single-threaded world that must never start a thread.
//!
//! The allocation tests share the one global allocator of this binary: each holds
//! [`counting_alloc::exclusive`] for its whole run, so no two of them count at once, and
//! each checks that its counter sees an allocation. `single_thread` counts the process's
//! threads, so it runs itself again in a process of its own.
//!
//! Adding a file: put `tests/alloc/<name>.rs` here and declare it below (`mod <name>;`);
//! a test that counts allocations takes `let _alone = counting_alloc::exclusive();` first.

// A desc written field by field still ends with `..Desc::default()`, so that a setting
// added to the desc does not touch the tests that do not use it.
#![allow(clippy::needless_update)]

#[path = "../support/counting_alloc.rs"]
mod counting_alloc;

mod heap_integrity;
mod no_alloc;
mod no_alloc_character;
mod no_alloc_collisions;
mod no_alloc_edit;
mod no_alloc_fluid_growth;
mod no_alloc_fluids;
mod no_alloc_tasks;
mod no_alloc_tearing;
mod single_thread;
