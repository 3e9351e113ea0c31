//! Host-supplied parallelism through the C ABI: a world runs its parallel passes on the
//! host's workers (Unity's jobs, Unreal's task graph, a game's own pool) instead of
//! Sinew's built-in thread pool, with Box2D v3's `enqueueTask` / `finishTask`
//! semantics. The Rust side (`TaskSystem`, the executor's workers over it) is
//! `src/ffi/task_system.rs`.

use std::ffi::c_void;

use super::task_system::{EnqueueTaskFn, FinishTaskFn, TaskSystem};
use super::world::{with_world, SinewWorld};
use super::{guard, Failure, SinewStatus};
use crate::solver::MAX_THREADS;

/// A task of Sinew's: runs the items `begin..end` (`begin < end <= item_count`) of the
/// pass `task_context` names. Thread-safe: the host may run several ranges of one
/// task at once on different threads.
pub type SinewTaskFn =
    Option<unsafe extern "C" fn(begin: u32, end: u32, task_context: *mut c_void)>;

/// Called by Sinew during a step (on the thread that steps the world) to start `task`
/// over the items `0..item_count`: the host calls `task(begin, end, task_context)` over
/// ranges that cover `0..item_count` exactly once (ranges of at least `min_range` items,
/// except the last; any threads, any order, as many at a time as it likes, the calling
/// thread included). Returns a handle that `finish` waits on, or NULL when it has run
/// every range itself before returning (then `finish` is not called). Must not throw or
/// unwind.
pub type SinewEnqueueTaskFn = Option<
    unsafe extern "C" fn(
        task: SinewTaskFn,
        item_count: u32,
        min_range: u32,
        task_context: *mut c_void,
        user_context: *mut c_void,
    ) -> *mut c_void,
>;

/// Called by Sinew with a non-NULL handle `enqueue` returned: returns once every range
/// of that task has finished (it may run ranges itself meanwhile). Called once per
/// handle. Must not throw or unwind. By then the stepping thread has done whatever work
/// the host's threads had not taken, but every range must still be called (it finds
/// nothing left and returns): a host that steps worlds from inside its own workers
/// should let `finish` run pending ranges itself, as work-stealing schedulers do, so
/// that it never waits for workers that are all waiting.
pub type SinewFinishTaskFn =
    Option<unsafe extern "C" fn(host_task: *mut c_void, user_context: *mut c_void)>;

/// A host task system (sinew_world_set_task_system).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SinewTaskSystem {
    /// The most threads that run Sinew's work at once, the thread that calls
    /// sinew_world_step included (Box2D's workerCount; a pass enqueues at most
    /// worker_count - 1 items and runs the same work on the stepping thread); 1..=256.
    /// It replaces the world's thread count in Sinew's choice of how many threads a
    /// pass is worth; results never depend on it.
    pub worker_count: u32,
    /// Starts a task on the host's workers (or runs it and returns NULL). Not NULL.
    pub enqueue: SinewEnqueueTaskFn,
    /// Waits for a task enqueue started. Not NULL.
    pub finish: SinewFinishTaskFn,
    /// Passed back to enqueue and finish untouched (may be NULL).
    pub user_context: *mut c_void,
}

// The C types are the core's, nullable: an `Option<fn>` has the layout of the pointer.
const _: () = {
    let _: fn(SinewEnqueueTaskFn) -> Option<EnqueueTaskFn> = |f| f;
    let _: fn(SinewFinishTaskFn) -> Option<FinishTaskFn> = |f| f;
};

/// Runs the world's parallel passes on a host task system; `tasks` NULL goes back to
/// the built-in thread pool (of the desc's `threads`), the default. Results are
/// bit-identical with either, and for any worker count: Sinew cuts its work into
/// chunks that depend only on the scene, and each pass hands them out through one
/// shared counter, so the host may run the enqueued items on any threads, fewer at a
/// time than worker_count, one after another, or inline in enqueue (returning NULL).
///
/// During a step Sinew calls `enqueue` (then `finish` on the handle, unless NULL) once
/// per parallel pass, from the thread that steps, while holding the world's lock;
/// passes too small to be worth a second thread run on the stepping thread without
/// calling the host. Sinew allocates nothing for a pass (the task context lives on the
/// stepping thread's stack until `finish` returns).
///
/// A NULL `enqueue` or `finish`, or a `worker_count` outside [1, 256], is refused with
/// SINEW_ERROR_INVALID_ARGUMENT and the world keeps its executor. Not simulation state:
/// snapshots neither save nor restore it (sinew_world_restore_snapshot keeps the
/// world's choice; sinew_world_create_from_snapshot starts on the built-in pool), and
/// state hashes do not depend on it. Call it between steps (it takes the world's lock).
///
/// Panics: a Rust panic inside one of Sinew's tasks (a bug) is caught on the host's
/// thread, never unwinding through the host's frames; the step resumes it on the
/// stepping thread after `finish` and returns SINEW_ERROR_INTERNAL with a message (a
/// panic that cannot be caught aborts the process). The host's callbacks must not
/// throw C++ exceptions or longjmp through Sinew's frames.
///
/// # Safety
/// `tasks` must be NULL or point to a readable SinewTaskSystem whose callbacks follow
/// the rules above and may be called with `user_context` from any thread that steps
/// the world, until the world is destroyed or given another task system.
#[no_mangle]
pub unsafe extern "C" fn sinew_world_set_task_system(
    world: SinewWorld,
    tasks: *const SinewTaskSystem,
) -> SinewStatus {
    guard(entry!(), || {
        let system = if tasks.is_null() {
            None
        } else {
            // SAFETY: `tasks` is non-null and, by this function's safety section, points
            // to one readable value; `read_unaligned` needs no alignment.
            let t = unsafe { tasks.read_unaligned() };
            let invalid = |m: String| Failure::new(SinewStatus::SINEW_ERROR_INVALID_ARGUMENT, m);
            let enqueue = t
                .enqueue
                .ok_or_else(|| invalid("tasks->enqueue is NULL".into()))?;
            let finish = t
                .finish
                .ok_or_else(|| invalid("tasks->finish is NULL".into()))?;
            if t.worker_count == 0 || t.worker_count > MAX_THREADS {
                return Err(invalid(format!(
                    "tasks->worker_count {} must be in [1, {MAX_THREADS}] (the most threads \
                     that run Sinew's work at once, the stepping thread included)",
                    t.worker_count
                )));
            }
            Some(TaskSystem {
                worker_count: t.worker_count,
                enqueue,
                finish,
                user_context: t.user_context,
            })
        };
        with_world(world, |w| {
            // SAFETY: the callbacks' contract is this function's (safety section).
            unsafe { w.set_task_system(system) }?;
            Ok(())
        })
    })
}
