//! Host-supplied parallelism, as the executor sees it: a [`HostWorkers`] runs a pass's
//! claim loop on the host's own workers (Unity's job system, Unreal's task graph, a
//! game's thread pool) instead of Sinew's rayon pool, with Box2D v3's `enqueueTask` /
//! `finishTask` semantics (Catto, Box2D v3.0 release notes, 2024).
//!
//! Every pass of the [`super::parallel::Executor`] is a claim loop: items (fixed chunks,
//! blocks, colours; numbered across the stages of a pass) are handed out by one shared
//! counter, and an item of a later stage waits only for items some thread is already
//! running. With host workers a pass of `t` threads hands `t − 1` calls of that claim
//! loop to the host and runs the same loop on the calling thread. So the host may run
//! them on any threads, in any order, fewer of them at a time, one after another, or
//! inline: the calling thread alone would finish the pass, and the chunks (and so every
//! result bit) do not depend on who ran them.
//!
//! The host's task system is a set of raw C function pointers, so calling it is the C
//! boundary's job: `src/ffi/task_system.rs` implements this trait over them (its
//! `unsafe` lives there, with the other C calls), and the executor only ever calls
//! this safe trait. The executor's own `unsafe` is its disjoint-slice type
//! (`src/solver/disjoint/`), which this trait needs none of: the claim loop hands out
//! items, not memory.

/// Host workers that run a pass's claim loop (see the module doc).
pub(crate) trait HostWorkers: Send + Sync {
    /// The most threads that run a pass at once, the calling thread included: the
    /// executor's thread count (1..=`MAX_THREADS`).
    fn threads(&self) -> usize;

    /// Runs `work` (a claim loop that returns once nothing is left to claim) on
    /// `threads` threads: `threads − 1` calls of `work(1)` on the host's workers and
    /// `work(0)` on the calling thread; returns once every call has returned. A panic
    /// of any call resumes on the calling thread, after the host's calls have all
    /// returned (it never unwinds through the host's frames).
    fn run(&self, threads: usize, work: &(dyn Fn(usize) + Sync));
}
