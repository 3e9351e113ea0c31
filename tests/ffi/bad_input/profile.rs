//! Bad input for the profiling API (sinew_world_set_profiling,
//! sinew_world_read_stage_times, sinew_world_profile_counts, sinew_profile_stage_name,
//! sinew_world_set_profile_callback), in the tables of bad_input.rs (same fixture and
//! checks: status, message, outputs untouched, world unchanged).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for what
//! the call may write, or NULL on purpose where the case's name says so (the ABI checks
//! for NULL and the capacity before any write); the callback is never called (every
//! case is refused before the world is touched); handles may be forged on purpose,
//! which the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::profile::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };

fn forged(c: &Ctx) -> SinewWorld {
    SinewWorld {
        id: c.world.id ^ (1 << 40),
    }
}

unsafe extern "C" fn marker(_stage: u32, _begin: u32, _user: *mut c_void) {}

fn set_profiling_cases() -> Vec<Case> {
    const F: &str = "sinew_world_set_profiling";
    let mut cases = vec![
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_world_set_profiling(NULL_WORLD, 1)
        }),
        case(F, "world forged", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_world_set_profiling(forged(c), 1)
        }),
    ];
    for v in [2u32, 7, u32::MAX] {
        cases.push(case(
            F,
            format!("enabled {v}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_world_set_profiling(c.world, v),
        ));
    }
    cases
}

fn stage_time_cases() -> Vec<Case> {
    const F: &str = "sinew_world_read_stage_times";
    let n = SINEW_PROFILE_STAGE_COUNT;
    let mut cases = vec![
        case(
            F,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                let mut all = [SinewStageTime::default(); SINEW_PROFILE_STAGE_COUNT as usize];
                sinew_world_read_stage_times(NULL_WORLD, all.as_mut_ptr(), n, c.out.u32())
            },
        ),
        case(
            F,
            "world forged",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe {
                let mut all = [SinewStageTime::default(); SINEW_PROFILE_STAGE_COUNT as usize];
                sinew_world_read_stage_times(forged(c), all.as_mut_ptr(), n, c.out.u32())
            },
        ),
        case(F, "out NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            sinew_world_read_stage_times(c.world, std::ptr::null_mut(), n, c.out.u32())
        }),
        case(
            F,
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                let mut all = [SinewStageTime::default(); SINEW_PROFILE_STAGE_COUNT as usize];
                sinew_world_read_stage_times(c.world, all.as_mut_ptr(), n, std::ptr::null_mut())
            },
        ),
    ];
    // Capacities below the stage count: refused before the (smaller) buffer is written.
    for capacity in [0u32, 1, 10] {
        cases.push(case(
            F,
            format!("capacity {capacity}"),
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe {
                let out = c.out.bytes().cast::<SinewStageTime>();
                sinew_world_read_stage_times(c.world, out, capacity, c.out.u32())
            },
        ));
    }
    cases
}

fn count_cases() -> Vec<Case> {
    const F: &str = "sinew_world_profile_counts";
    vec![
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_profile_counts(NULL_WORLD, c.out.bytes().cast())
        }),
        case(F, "world forged", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_profile_counts(forged(c), c.out.bytes().cast())
        }),
        case(F, "out_counts NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_profile_counts(c.world, std::ptr::null_mut())
        }),
    ]
}

fn name_cases() -> Vec<Case> {
    const F: &str = "sinew_profile_stage_name";
    let mut cases = vec![case(
        F,
        "out_name NULL",
        SINEW_ERROR_NULL_POINTER,
        |_| unsafe { sinew_profile_stage_name(0, std::ptr::null_mut()) },
    )];
    for stage in [
        SINEW_PROFILE_STAGE_COUNT,
        SINEW_PROFILE_STAGE_COUNT + 1,
        u32::MAX,
    ] {
        cases.push(case(
            F,
            format!("stage {stage}"),
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe { sinew_profile_stage_name(stage, c.out.bytes().cast()) },
        ));
    }
    cases
}

fn callback_cases() -> Vec<Case> {
    const F: &str = "sinew_world_set_profile_callback";
    let valid = || SinewProfileHook {
        callback: Some(marker),
        user_data: std::ptr::null_mut(),
    };
    vec![
        case(
            F,
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            move |_| unsafe { sinew_world_set_profile_callback(NULL_WORLD, &valid()) },
        ),
        case(
            F,
            "world forged",
            SINEW_ERROR_INVALID_HANDLE,
            move |c| unsafe { sinew_world_set_profile_callback(forged(c), &valid()) },
        ),
        case(
            F,
            "callback NULL",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let hook = SinewProfileHook {
                    callback: None,
                    ..valid()
                };
                sinew_world_set_profile_callback(c.world, &hook)
            },
        ),
    ]
}

pub fn tables() -> Vec<Vec<Case>> {
    vec![
        set_profiling_cases(),
        stage_time_cases(),
        count_cases(),
        name_cases(),
        callback_cases(),
    ]
}
