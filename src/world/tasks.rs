//! The world's executor choice: the built-in pool of `WorldDesc::threads`, or host
//! workers (`src/solver/tasks.rs`; `World::set_task_system`, over a C task system, is
//! in `src/ffi/task_system.rs`, beside the callbacks it trusts).

use std::sync::Arc;

use super::World;
use crate::error::Result;
use crate::solver::parallel::Executor;
use crate::solver::tasks::HostWorkers;

impl World {
    /// Runs the world's parallel passes on `workers` (`Some`), or on the built-in pool
    /// of `WorldDesc::threads` again (`None`). Results are bit-identical either way.
    pub(crate) fn set_host_workers(&mut self, workers: Option<Arc<dyn HostWorkers>>) -> Result<()> {
        self.exec = match workers {
            Some(w) => Executor::host(w),
            None => Executor::new(self.desc.threads)?,
        };
        Ok(())
    }

    /// Whether the world's passes run on a host task system.
    pub fn has_task_system(&self) -> bool {
        self.exec.is_host()
    }
}
