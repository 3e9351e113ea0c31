//! Bad input for the sleeping API (sinew_world_set_sleeping,
//! sinew_world_set_sleep_threshold, sinew_world_wake_all, sinew_body_is_asleep,
//! sinew_body_wake, sinew_body_sleep), in the tables of bad_input.rs (same fixture and
//! checks: status, message, outputs untouched, world unchanged).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for what
//! the call may write, or NULL on purpose where the case's name says so (the ABI checks
//! for NULL before any write); handles may be forged on purpose, which the ABI checks by
//! generation and never dereferences.

use super::*;
use sinew::ffi::bodies::SinewBody;
use sinew::ffi::sleep::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const NULL_BODY: SinewBody = SinewBody { id: 0 };

fn forged(c: &Ctx) -> SinewWorld {
    SinewWorld {
        id: c.world.id ^ (1 << 40),
    }
}

fn world_cases() -> Vec<Case> {
    let mut cases = vec![
        case(
            "sinew_world_set_sleeping",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_world_set_sleeping(NULL_WORLD, 1),
        ),
        case(
            "sinew_world_set_sleeping",
            "world forged",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_world_set_sleeping(forged(c), 1),
        ),
        case(
            "sinew_world_wake_all",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_world_wake_all(NULL_WORLD),
        ),
        case(
            "sinew_world_wake_all",
            "world forged",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_world_wake_all(forged(c)),
        ),
        case(
            "sinew_world_set_sleep_threshold",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_world_set_sleep_threshold(NULL_WORLD, 1e-3, 0.5),
        ),
    ];
    for v in [2u32, 7, u32::MAX] {
        cases.push(case(
            "sinew_world_set_sleeping",
            format!("enabled {v}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_world_set_sleeping(c.world, v),
        ));
    }
    let bad = [-1.0, f32::NAN, f32::INFINITY, 2.0e6];
    for v in bad {
        cases.push(case(
            "sinew_world_set_sleep_threshold",
            format!("threshold {v}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_world_set_sleep_threshold(c.world, v, 0.5),
        ));
        cases.push(case(
            "sinew_world_set_sleep_threshold",
            format!("time {v}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_world_set_sleep_threshold(c.world, 1e-3, v),
        ));
    }
    cases
}

fn body_cases() -> Vec<Case> {
    vec![
        case(
            "sinew_body_is_asleep",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe { sinew_body_is_asleep(NULL_WORLD, NULL_BODY, c.out.u32()) },
        ),
        case(
            "sinew_body_is_asleep",
            "body null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe { sinew_body_is_asleep(c.world, NULL_BODY, c.out.u32()) },
        ),
        case(
            "sinew_body_is_asleep",
            "out_asleep NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_body_is_asleep(c.world, NULL_BODY, std::ptr::null_mut()) },
        ),
        case(
            "sinew_body_wake",
            "world forged",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_body_wake(forged(c), NULL_BODY),
        ),
        case(
            "sinew_body_wake",
            "body null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_body_wake(c.world, NULL_BODY),
        ),
        case(
            "sinew_body_sleep",
            "world forged",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_body_sleep(forged(c), NULL_BODY),
        ),
        case(
            "sinew_body_sleep",
            "body null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| sinew_body_sleep(c.world, NULL_BODY),
        ),
    ]
}

pub fn tables() -> Vec<Vec<Case>> {
    vec![world_cases(), body_cases()]
}
