//! The world's executor choice: the built-in pool of `WorldDesc::threads`, or a host
//! task system (`src/solver/tasks.rs`).

use super::World;
use crate::error::Result;
use crate::solver::parallel::Executor;
use crate::solver::tasks::TaskSystem;

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
        self.exec = match tasks {
            Some(t) => Executor::host(t)?,
            None => Executor::new(self.desc.threads)?,
        };
        Ok(())
    }

    /// Whether the world's passes run on a host task system.
    pub fn has_task_system(&self) -> bool {
        self.exec.is_host()
    }
}
