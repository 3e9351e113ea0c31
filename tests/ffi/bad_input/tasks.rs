//! Bad input for sinew_world_set_task_system, in the tables of bad_input.rs (same
//! fixture and checks: a refused call leaves the world as it was).
//!
//! SAFETY (every `unsafe` call in these tables): the task system pointer is valid (or
//! NULL on purpose), its callbacks are never called (every case is refused before the
//! world is touched); handles may be forged on purpose, which the ABI checks by
//! generation and never dereferences.

use super::*;
use sinew::ffi::tasks::*;

/// Runs every range inside enqueue and returns NULL (never reached by these cases).
unsafe extern "C" fn enqueue(
    task: SinewTaskFn,
    item_count: u32,
    _min_range: u32,
    task_context: *mut std::ffi::c_void,
    _user_context: *mut std::ffi::c_void,
) -> *mut std::ffi::c_void {
    // SAFETY: Sinew's task over its own items.
    unsafe { task.unwrap()(0, item_count, task_context) };
    std::ptr::null_mut()
}

unsafe extern "C" fn finish(_host_task: *mut std::ffi::c_void, _user: *mut std::ffi::c_void) {}

fn valid() -> SinewTaskSystem {
    SinewTaskSystem {
        worker_count: 2,
        enqueue: Some(enqueue),
        finish: Some(finish),
        user_context: std::ptr::null_mut(),
    }
}

fn set_cases() -> Vec<Case> {
    const F: &str = "sinew_world_set_task_system";
    let mut cases = vec![
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            sinew_world_set_task_system(SinewWorld { id: 0 }, &valid())
        }),
        case(F, "world forged", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_set_task_system(
                SinewWorld {
                    id: c.world.id ^ (1 << 40),
                },
                &valid(),
            )
        }),
        case(
            F,
            "enqueue NULL",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let t = SinewTaskSystem {
                    enqueue: None,
                    ..valid()
                };
                sinew_world_set_task_system(c.world, &t)
            },
        ),
        case(F, "finish NULL", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let t = SinewTaskSystem {
                finish: None,
                ..valid()
            };
            sinew_world_set_task_system(c.world, &t)
        }),
    ];
    for n in [0u32, 257, u32::MAX] {
        cases.push(case(
            F,
            format!("worker_count {n}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let t = SinewTaskSystem {
                    worker_count: n,
                    ..valid()
                };
                sinew_world_set_task_system(c.world, &t)
            },
        ));
    }
    cases
}

pub fn tables() -> Vec<Vec<Case>> {
    vec![set_cases()]
}
