//! Host-supplied parallelism over raw C callbacks: the Rust side of a host task system
//! ([`TaskSystem`], `World::set_task_system`) and the executor's [`HostWorkers`] over
//! it, with Box2D v3's `enqueueTask` / `finishTask` semantics (Catto, Box2D v3.0
//! release notes, 2024). The C entry point is `src/ffi/tasks.rs`; the executor side,
//! which knows only the safe [`HostWorkers`] trait, is `src/solver/tasks.rs`.
//!
//! Why here: the callbacks are C function pointers that the host hands over, and
//! calling them (and trusting their contract) is the C boundary's job, one of the
//! three places of the crate with `unsafe` (ARCHITECTURE.md, "Kernels and `unsafe`").
//! The executor's disjoint-slice type (`src/solver/disjoint/`) is about memory that
//! threads share; nothing here shares memory beyond the pass context, so the two stay
//! apart, and the solver layer never imports this higher one.
//!
//! A pass of `t` threads enqueues one host task of `t − 1` items, each running the
//! executor's claim loop, runs the same loop on the calling thread, then calls
//! `finish` (unless `enqueue` returned NULL, meaning it ran the task itself). So the host may run the items on any threads, in any order, fewer of them
//! at a time, one after another, or inline in `enqueue`: the calling thread alone
//! would finish the pass, and the chunks (and so every result bit) do not depend on
//! who ran them.
//!
//! Panics: a Rust panic inside an item (a Sinew bug) must not unwind through the host's
//! C frames. The task entry point catches it and marks the pass abandoned (threads
//! waiting for an earlier stage stop waiting); the calling thread, after `finish`,
//! resumes the panic in its own Rust frames, where the C ABI's guard turns it into
//! `SINEW_ERROR_INTERNAL`. A panic that cannot be caught (a panic while panicking)
//! aborts the process, as every panic in an `extern "C"` function does.

use std::any::Any;
use std::ffi::c_void;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::solver::tasks::HostWorkers;
use crate::solver::MAX_THREADS;
use crate::world::World;

/// A task of a pass: runs the items `begin..end` of the pass `task_context` names.
/// Sinew passes its own function and context to [`EnqueueTaskFn`]; the host calls it
/// over ranges that together cover `0..item_count` once.
pub type TaskFn = unsafe extern "C" fn(begin: u32, end: u32, task_context: *mut c_void);

/// Starts `task` over `0..item_count` (ranges of at least `min_range` items, except the
/// last), on the host's workers, and returns a handle that [`FinishTaskFn`] waits on;
/// or runs the whole task itself and returns NULL. `task` is never NULL (the Option is
/// the C ABI's nullable function pointer).
pub type EnqueueTaskFn = unsafe extern "C" fn(
    task: Option<TaskFn>,
    item_count: u32,
    min_range: u32,
    task_context: *mut c_void,
    user_context: *mut c_void,
) -> *mut c_void;

/// Waits until every item of the task behind `host_task` (a handle `enqueue` returned,
/// never NULL) has finished.
pub type FinishTaskFn = unsafe extern "C" fn(host_task: *mut c_void, user_context: *mut c_void);

/// A host task system (C: `SinewTaskSystem`).
#[derive(Clone, Copy, Debug)]
pub struct TaskSystem {
    /// The most threads that run a pass at once, the thread that calls the step
    /// included (Box2D's `workerCount`): 1..=[`MAX_THREADS`]. It takes the place of the
    /// pool size in the thread-count choices (a pass enqueues at most
    /// `worker_count − 1` items); results never depend on it.
    pub worker_count: u32,
    /// Starts a task (or runs it and returns NULL).
    pub enqueue: EnqueueTaskFn,
    /// Waits for a task `enqueue` started.
    pub finish: FinishTaskFn,
    /// Passed back to `enqueue` and `finish` untouched.
    pub user_context: *mut c_void,
}

impl TaskSystem {
    /// Checks the worker count: 1..=[`MAX_THREADS`].
    pub(crate) fn validate(&self) -> Result<()> {
        let n = self.worker_count;
        if n == 0 || n > MAX_THREADS {
            return Err(Error::invalid(format!(
                "worker_count {n} must be in [1, {MAX_THREADS}] (the most threads that \
                 run Sinew's work at once, the stepping thread included)"
            )));
        }
        Ok(())
    }
}

/// The executor's handle on a validated host task system.
#[derive(Clone, Copy)]
pub(crate) struct HostTasks(TaskSystem);

// SAFETY: `World::set_task_system` (unsafe, below) requires the callbacks and `user_context` to
// be usable from whichever thread steps the world (any thread, one at a time per world,
// under the world's lock); the struct itself is plain data.
unsafe impl Send for HostTasks {}
// SAFETY: as above; the executor only reads the struct.
unsafe impl Sync for HostTasks {}

/// The context of one pass on the host: the claim loop and the first panic caught.
struct PassContext<'a> {
    work: &'a (dyn Fn(usize) + Sync),
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// The task Sinew hands to `enqueue`: runs the claim loop once per item.
///
/// # Safety
/// `task_context` is the `PassContext` of a pass whose calling thread has not yet
/// returned from `finish` (or from `enqueue`, when that ran the task).
unsafe extern "C" fn run_items(begin: u32, end: u32, task_context: *mut c_void) {
    // SAFETY: by this function's contract the context outlives every call of the task.
    let ctx = unsafe { &*(task_context as *const PassContext<'_>) };
    for _ in begin..end {
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| (ctx.work)(1))) {
            ctx.panic.lock().get_or_insert(p);
        }
    }
}

impl HostTasks {
    /// Validates `tasks`.
    pub(crate) fn new(tasks: TaskSystem) -> Result<Self> {
        tasks.validate()?;
        Ok(HostTasks(tasks))
    }
}

impl HostWorkers for HostTasks {
    /// The worker count.
    fn threads(&self) -> usize {
        self.0.worker_count as usize
    }

    /// `threads − 1` host items (`work(1)`) through `enqueue`, the calling thread's
    /// `work(0)`, then `finish`; a panic of any call resumes here, after `finish`.
    fn run(&self, threads: usize, work: &(dyn Fn(usize) + Sync)) {
        let ctx = PassContext {
            work,
            panic: Mutex::new(None),
        };
        let items = (threads.saturating_sub(1)).min(MAX_THREADS as usize) as u32;
        let context = &ctx as *const PassContext<'_> as *mut c_void;
        let t = &self.0;
        // SAFETY: `set_task_system`'s contract: `enqueue` runs `run_items` over
        // `0..items` (or has run it when it returns NULL), and `finish` returns only
        // once it has; `ctx` lives on this frame until after both, and nothing below
        // unwinds before `finish` (the calling thread's own loop is caught).
        let handle = unsafe { (t.enqueue)(Some(run_items), items, 1, context, t.user_context) };
        let mine = catch_unwind(AssertUnwindSafe(|| work(0)));
        if !handle.is_null() {
            // SAFETY: as above; `handle` came from `enqueue` and is finished once.
            unsafe { (t.finish)(handle, t.user_context) };
        }
        if let Err(p) = mine {
            resume_unwind(p);
        }
        let caught = ctx.panic.into_inner();
        if let Some(p) = caught {
            resume_unwind(p);
        }
    }
}

impl World {
    /// Runs the world's parallel passes on a host task system (`Some`), or on the
    /// built-in pool of `WorldDesc::threads` again (`None`). Results are bit-identical
    /// either way and for any worker count. A worker count outside
    /// `1..=MAX_THREADS` is refused with INVALID_ARGUMENT and nothing changes.
    ///
    /// The task system is not simulation state: snapshots neither save nor restore it
    /// (a restore keeps this world's choice; `World::from_snapshot` starts on the
    /// built-in pool), and the state hash does not depend on it.
    ///
    /// A Rust panic inside a task is caught on the host's thread and resumed on the
    /// thread that calls the step, after `finish` (it never unwinds through the host's
    /// frames).
    ///
    /// # Safety
    /// Until the world is dropped or given another task system: `enqueue` and `finish`
    /// may be called from whichever thread steps the world, with `user_context`;
    /// `enqueue(task, n, min_range, ctx, user)` must call `task(begin, end, ctx)` over
    /// ranges covering `0..n` exactly once (on any threads, in any order, at most as
    /// many at a time as it likes), either before it returns NULL or before the
    /// `finish` of the handle it returns (never NULL then) returns; neither may unwind.
    pub unsafe fn set_task_system(&mut self, tasks: Option<TaskSystem>) -> Result<()> {
        let workers = match tasks {
            Some(t) => Some(Arc::new(HostTasks::new(t)?) as Arc<dyn HostWorkers>),
            None => None,
        };
        self.set_host_workers(workers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::parallel::Executor;
    use std::thread::JoinHandle;

    /// Spawns one thread per item; the handle owns the join handles. `finish` requires
    /// every thread to have returned normally (no panic unwound through it).
    unsafe extern "C" fn spawn_enqueue(
        task: Option<TaskFn>,
        item_count: u32,
        _min_range: u32,
        task_context: *mut c_void,
        _user_context: *mut c_void,
    ) -> *mut c_void {
        let task = task.unwrap();
        let context = task_context as usize;
        let threads: Vec<JoinHandle<()>> = (0..item_count)
            .map(|i| {
                std::thread::spawn(move || {
                    // SAFETY: the pass waits in `spawn_finish` for this thread.
                    unsafe { task(i, i + 1, context as *mut c_void) }
                })
            })
            .collect();
        Box::into_raw(Box::new(threads)) as *mut c_void
    }

    unsafe extern "C" fn spawn_finish(host_task: *mut c_void, _user_context: *mut c_void) {
        // SAFETY: made by `spawn_enqueue`, finished once.
        let threads = unsafe { Box::from_raw(host_task as *mut Vec<JoinHandle<()>>) };
        for t in *threads {
            t.join().expect("a host thread was unwound by a panic");
        }
    }

    fn spawning(worker_count: u32) -> Executor {
        let host = HostTasks::new(TaskSystem {
            worker_count,
            enqueue: spawn_enqueue,
            finish: spawn_finish,
            user_context: std::ptr::null_mut(),
        })
        .unwrap();
        Executor::host(Arc::new(host))
    }

    /// Every item once, stages in order, on host threads too.
    #[test]
    fn a_host_runs_every_item_once_in_stage_order() {
        crate::solver::parallel::assert_every_item_once_in_stage_order(
            &spawning(4),
            4,
            &[5, 0, 33, 2],
        );
    }

    /// A panic in an item on a host thread is caught there (the host thread returns
    /// normally: `spawn_finish` checks), items of later stages stop waiting for it,
    /// and the panic reaches the caller of the pass after `finish`; the same for a
    /// panic on the calling thread.
    #[test]
    fn a_panicking_item_resumes_on_the_caller_after_finish() {
        let exec = spawning(3);
        let plan = [4usize, 64];
        for bad in [0usize, 1, 2, 3] {
            let caller = std::thread::current().id();
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| {
                exec.stages(3, &plan[..], |stage, item| {
                    if stage == 0 && item == bad {
                        panic!("item {bad} failed");
                    }
                    // Make the other stage-0 items slow, so the others are waiting.
                    if stage == 0 {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                });
            }));
            let p = r.expect_err("the panic reaches the caller");
            let msg = p.downcast_ref::<String>().cloned().unwrap_or_default();
            assert_eq!(msg, format!("item {bad} failed"));
            assert_eq!(std::thread::current().id(), caller);
        }
    }

    #[test]
    fn worker_counts_outside_the_range_are_refused() {
        for n in [0, MAX_THREADS + 1] {
            let e = HostTasks::new(TaskSystem {
                worker_count: n,
                enqueue: spawn_enqueue,
                finish: spawn_finish,
                user_context: std::ptr::null_mut(),
            })
            .err()
            .expect("refused");
            assert!(e.message.contains("worker_count"));
        }
    }
}
