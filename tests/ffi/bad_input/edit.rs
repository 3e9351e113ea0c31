//! Bad input for the in-place edits (sinew_constraints_*, sinew_body_set_rest_scale,
//! sinew_body_set_mass), in the tables of bad_input.rs (same fixture and checks:
//! its 3 distance constraints are family SINEW_FAMILY_DISTANCE = 10), plus removed ids
//! and body values on worlds that hold them.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::bodies_cases::{body_snapshot, body_world};
use super::*;
use sinew::ffi::bodies::SinewBody;
use sinew::ffi::edit::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};
/// SINEW_FAMILY_DISTANCE and SINEW_FAMILY_TETHER.
const DISTANCE: u32 = 10;
const TETHER: u32 = 0;

/// SINEW_FAMILY_GRAB: ids are particle indices; the fixture grabs particle 2 only.
const GRAB: u32 = 14;

/// Grabs through the generic edits: a range over a particle that is not grabbed, a
/// rest length other than 0, a stiffness or a break force are refused, and the grab on
/// particle 2 stays as it was.
fn grab_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let f = "sinew_constraints_remove";
    cases.extend([
        case(
            f,
            "grab: particle 1 not grabbed",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| sinew_constraints_remove(c.world, GRAB, 1, 1),
        ),
        case(
            f,
            "grab: 2..4, 3 not grabbed",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| sinew_constraints_remove(c.world, GRAB, 2, 2),
        ),
        case(f, "grab: id N", SINEW_ERROR_OUT_OF_RANGE, |c| {
            sinew_constraints_remove(c.world, GRAB, N, 1)
        }),
        case(f, "grab: count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_constraints_remove(c.world, GRAB, 2, 0)
        }),
    ]);
    let f = "sinew_constraints_is_removed";
    cases.push(case(
        f,
        "grab: id N",
        SINEW_ERROR_OUT_OF_RANGE,
        |c| unsafe { sinew_constraints_is_removed(c.world, GRAB, N, c.out.u32()) },
    ));
    let f = "sinew_constraints_set_rest";
    for (label, first, v) in [
        ("grab: rest 0.1", 2, 0.1f32),
        ("grab: rest NaN", 2, f32::NAN),
        ("grab: rest -1", 2, -1.0),
        ("grab: particle 1 not grabbed", 1, 0.0),
    ] {
        cases.push(case(
            f,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                let r = [v];
                sinew_constraints_set_rest(c.world, GRAB, first, 1, r.as_ptr())
            },
        ));
    }
    let f = "sinew_constraints_read_rest";
    cases.push(case(
        f,
        "grab: id N",
        SINEW_ERROR_OUT_OF_RANGE,
        |c| unsafe { sinew_constraints_read_rest(c.world, GRAB, N, 1, c.out.f32s()) },
    ));
    let f = "sinew_constraints_set_compliance";
    for (label, first, count, k) in [
        ("grab: compliance -1", 2, 1, -1.0f32),
        ("grab: compliance NaN", 2, 1, f32::NAN),
        ("grab: compliance inf", 2, 1, f32::INFINITY),
        ("grab: compliance above 1000 m/N", 2, 1, 1.0e4),
        ("grab: 1..3, 1 not grabbed", 1, 2, 0.0),
    ] {
        cases.push(case(f, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            sinew_constraints_set_compliance(c.world, GRAB, first, count, k)
        }));
    }
    cases.push(case(f, "grab: id N", SINEW_ERROR_OUT_OF_RANGE, |c| {
        sinew_constraints_set_compliance(c.world, GRAB, N, 1, 0.0)
    }));
    cases.push(case(
        "sinew_constraints_set_stiffness",
        "grab: XPBD only",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| sinew_constraints_set_stiffness(c.world, GRAB, 2, 1, 0.5),
    ));
    cases.push(case(
        "sinew_constraints_set_break_force",
        "grab: no break force",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| sinew_constraints_set_break_force(c.world, GRAB, 2, 1, 10.0),
    ));
    cases
}

fn constraint_cases() -> Vec<Case> {
    let mut cases = grab_cases();
    let f = "sinew_constraints_remove";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_constraints_remove(NULL_WORLD, DISTANCE, 0, 1)
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_constraints_remove(c.world, 15, 0, 1)
        }),
        case(f, "no tethers", SINEW_ERROR_OUT_OF_RANGE, |c| {
            sinew_constraints_remove(c.world, TETHER, 0, 1)
        }),
    ]);
    for (label, first, count, expected) in bad_ranges(M) {
        cases.push(case(f, label, expected, move |c| {
            sinew_constraints_remove(c.world, DISTANCE, first, count)
        }));
    }
    let f = "sinew_constraints_is_removed";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_constraints_is_removed(NULL_WORLD, DISTANCE, 0, c.out.u32())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_constraints_is_removed(c.world, DISTANCE, 0, std::ptr::null_mut())
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            sinew_constraints_is_removed(c.world, 15, 0, c.out.u32())
        }),
        case(f, "id out of range", SINEW_ERROR_OUT_OF_RANGE, |c| unsafe {
            sinew_constraints_is_removed(c.world, DISTANCE, M, c.out.u32())
        }),
    ]);
    let f = "sinew_constraints_set_rest";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let r = [0.1f32];
            sinew_constraints_set_rest(NULL_WORLD, DISTANCE, 0, 1, r.as_ptr())
        }),
        case(f, "values NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_constraints_set_rest(c.world, DISTANCE, 0, 1, std::ptr::null())
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let r = [0.1f32];
            sinew_constraints_set_rest(c.world, 15, 0, 1, r.as_ptr())
        }),
        case(
            f,
            "misaligned values",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let r = [0u8; 16];
                sinew_constraints_set_rest(c.world, DISTANCE, 0, 1, r.as_ptr().add(1).cast())
            },
        ),
    ]);
    for (label, v) in [
        ("NaN", f32::NAN),
        ("negative", -0.1),
        ("infinite", f32::INFINITY),
        ("above SINEW_MAX_LENGTH", 2.0e9),
    ] {
        cases.push(case(
            f,
            format!("rest {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                // The first value is fine: all or nothing.
                let r = [0.05f32, v];
                sinew_constraints_set_rest(c.world, DISTANCE, 0, 2, r.as_ptr())
            },
        ));
    }
    for (label, first, count, expected) in bad_ranges(M) {
        cases.push(case(f, label, expected, move |c| unsafe {
            let r = [0.1f32; 8];
            let count = count.min(8);
            sinew_constraints_set_rest(c.world, DISTANCE, first, count, r.as_ptr())
        }));
    }
    let f = "sinew_constraints_read_rest";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_constraints_read_rest(NULL_WORLD, DISTANCE, 0, 1, c.out.f32s())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_constraints_read_rest(c.world, DISTANCE, 0, 1, std::ptr::null_mut())
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            sinew_constraints_read_rest(c.world, 15, 0, 1, c.out.f32s())
        }),
        case(f, "count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            sinew_constraints_read_rest(c.world, DISTANCE, 0, 0, c.out.f32s())
        }),
        case(f, "past the end", SINEW_ERROR_OUT_OF_RANGE, |c| unsafe {
            sinew_constraints_read_rest(c.world, DISTANCE, M - 1, 2, c.out.f32s())
        }),
    ]);
    let f = "sinew_constraints_set_compliance";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_constraints_set_compliance(NULL_WORLD, DISTANCE, 0, 1, 0.0)
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_constraints_set_compliance(c.world, 15, 0, 1, 0.0)
        }),
        case(
            f,
            "shape clusters take a stiffness",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| {
                // The fixture has no cluster: the range check comes first.
                sinew_constraints_set_compliance(c.world, 11, 0, 1, 0.0)
            },
        ),
    ]);
    for (label, v) in [
        ("NaN", f32::NAN),
        ("negative", -1.0),
        ("infinite", f32::INFINITY),
        ("above SINEW_MAX_COMPLIANCE", 1.0e11),
    ] {
        cases.push(case(
            f,
            format!("compliance {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_constraints_set_compliance(c.world, DISTANCE, 0, M, v),
        ));
    }
    for (label, first, count, expected) in bad_ranges(M) {
        cases.push(case(f, label, expected, move |c| {
            sinew_constraints_set_compliance(c.world, DISTANCE, first, count, 0.0)
        }));
    }
    let f = "sinew_constraints_set_stiffness";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_constraints_set_stiffness(NULL_WORLD, DISTANCE, 0, 1, 0.5)
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_constraints_set_stiffness(c.world, 15, 0, 1, 0.5)
        }),
    ]);
    for (label, v) in [("NaN", f32::NAN), ("negative", -0.5), ("above 1", 1.5)] {
        cases.push(case(
            f,
            format!("stiffness {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_constraints_set_stiffness(c.world, DISTANCE, 0, M, v),
        ));
    }
    for (label, first, count, expected) in bad_ranges(M) {
        cases.push(case(f, label, expected, move |c| {
            sinew_constraints_set_stiffness(c.world, DISTANCE, first, count, 0.5)
        }));
    }
    let f = "sinew_body_set_rest_scale";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_body_set_rest_scale(NULL_WORLD, FORGED_BODY, 1.0)
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_set_rest_scale(c.world, FORGED_BODY, 1.0)
        }),
        case(f, "null body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_set_rest_scale(c.world, SinewBody { id: 0 }, 1.0)
        }),
    ]);
    let f = "sinew_body_set_mass";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_body_set_mass(NULL_WORLD, FORGED_BODY, 1.0)
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_set_mass(c.world, FORGED_BODY, 1.0)
        }),
    ]);
    let f = "sinew_constraints_set_break_force";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_constraints_set_break_force(NULL_WORLD, DISTANCE, 0, 1, 10.0)
        }),
        case(f, "family 15", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_constraints_set_break_force(c.world, 15, 0, 1, 10.0)
        }),
    ]);
    for (label, v) in [("NaN", f32::NAN), ("zero", 0.0), ("negative", -5.0)] {
        cases.push(case(
            f,
            format!("force {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_constraints_set_break_force(c.world, DISTANCE, 0, M, v),
        ));
    }
    for (label, first, count, expected) in bad_ranges(M) {
        cases.push(case(f, label, expected, move |c| {
            sinew_constraints_set_break_force(c.world, DISTANCE, first, count, 10.0)
        }));
    }
    let f = "sinew_body_set_break_force";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_body_set_break_force(NULL_WORLD, FORGED_BODY, 10.0)
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_set_break_force(c.world, FORGED_BODY, 10.0)
        }),
    ]);
    let f = "sinew_world_break_event_count";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_break_event_count(NULL_WORLD, c.out.u32())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_break_event_count(c.world, std::ptr::null_mut())
        }),
    ]);
    let f = "sinew_world_take_break_events";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let mut e = [SinewBreakEvent::default(); 2];
            let (mut n, mut lost) = (7u32, 7u64);
            let s = sinew_world_take_break_events(NULL_WORLD, e.as_mut_ptr(), 2, &mut n, &mut lost);
            assert_eq!((n, lost), (7, 7), "outputs untouched");
            s
        }),
        case(f, "events NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let (mut n, mut lost) = (7u32, 7u64);
            let s =
                sinew_world_take_break_events(c.world, std::ptr::null_mut(), 2, &mut n, &mut lost);
            assert_eq!((n, lost), (7, 7), "outputs untouched");
            s
        }),
        case(f, "out_count NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut e = [SinewBreakEvent::default(); 2];
            let mut lost = 7u64;
            sinew_world_take_break_events(
                c.world,
                e.as_mut_ptr(),
                2,
                std::ptr::null_mut(),
                &mut lost,
            )
        }),
        case(f, "out_lost NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut e = [SinewBreakEvent::default(); 2];
            let mut n = 7u32;
            sinew_world_take_break_events(c.world, e.as_mut_ptr(), 2, &mut n, std::ptr::null_mut())
        }),
        case(
            f,
            "misaligned events",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let mut e = [SinewBreakEvent::default(); 3];
                let (mut n, mut lost) = (7u32, 7u64);
                let p = e.as_mut_ptr().cast::<u8>().add(4).cast();
                sinew_world_take_break_events(c.world, p, 2, &mut n, &mut lost)
            },
        ),
    ]);
    let f = "sinew_body_cut_rope";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_body_cut_rope(NULL_WORLD, FORGED_BODY, 0)
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_cut_rope(c.world, FORGED_BODY, 0)
        }),
    ]);
    let f = "sinew_body_cut_rope_along";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let (a, b) = (v3(0.0, 1.0, 0.0), v3(0.0, -1.0, 0.0));
            sinew_body_cut_rope_along(NULL_WORLD, FORGED_BODY, &a, &b, c.out.u32())
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let (a, b) = (v3(0.0, 1.0, 0.0), v3(0.0, -1.0, 0.0));
            sinew_body_cut_rope_along(c.world, FORGED_BODY, &a, &b, c.out.u32())
        }),
        case(f, "a NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let b = v3(0.0, -1.0, 0.0);
            sinew_body_cut_rope_along(c.world, FORGED_BODY, std::ptr::null(), &b, c.out.u32())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let (a, b) = (v3(0.0, 1.0, 0.0), v3(0.0, -1.0, 0.0));
            sinew_body_cut_rope_along(c.world, FORGED_BODY, &a, &b, std::ptr::null_mut())
        }),
    ]);
    let f = "sinew_body_add_winch";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_body_add_winch(NULL_WORLD, FORGED_BODY, 0, 1.0)
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_add_winch(c.world, FORGED_BODY, 0, 1.0)
        }),
        case(f, "end 2", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            sinew_body_add_winch(c.world, FORGED_BODY, 2, 1.0)
        }),
    ]);
    let f = "sinew_body_set_winch_speed";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_body_set_winch_speed(NULL_WORLD, FORGED_BODY, 1.0)
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_set_winch_speed(c.world, FORGED_BODY, 1.0)
        }),
    ]);
    let f = "sinew_body_set_winch_target";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_body_set_winch_target(NULL_WORLD, FORGED_BODY, 1.0, 1.0)
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_set_winch_target(c.world, FORGED_BODY, 1.0, 1.0)
        }),
    ]);
    let f = "sinew_body_winch_state";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let (mut l, mut v, mut k) = (7.0f32, 7.0f32, 7u32);
            sinew_body_winch_state(NULL_WORLD, FORGED_BODY, &mut l, &mut v, &mut k)
        }),
        case(f, "out_length NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let (mut v, mut k) = (7.0f32, 7u32);
            sinew_body_winch_state(c.world, FORGED_BODY, std::ptr::null_mut(), &mut v, &mut k)
        }),
        case(f, "out_link NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let (mut l, mut v) = (7.0f32, 7.0f32);
            sinew_body_winch_state(c.world, FORGED_BODY, &mut l, &mut v, std::ptr::null_mut())
        }),
    ]);
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![constraint_cases()]
}

#[test]
fn constraint_edits_reject_bad_input() {
    run_cases(constraint_cases());
}

/// Edits of removed ids and bad body values, on a world holding a rope (5 links), a
/// tet body and a removed rope link and tether: each bad call returns its status and a
/// message naming the function, changes nothing, and one more step equals the step of
/// a control world that saw the same removals but not the bad call.
#[test]
fn removed_ids_and_body_values_are_checked_and_change_nothing() {
    type EditCall = fn(SinewWorld, SinewBody, SinewBody) -> SinewStatus;
    let calls: [(&str, &str, SinewStatus, EditCall); 27] = [
        (
            "sinew_body_add_winch",
            "rope end not pinned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_add_winch(w, r, 1, 0.5),
        ),
        (
            "sinew_body_add_winch",
            "length past the rope",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_add_winch(w, r, 0, 1.5),
        ),
        (
            "sinew_body_add_winch",
            "NaN length",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_add_winch(w, r, 0, f32::NAN),
        ),
        (
            "sinew_body_add_winch",
            "tet body",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, t| sinew_body_add_winch(w, t, 0, 0.5),
        ),
        (
            "sinew_body_set_winch_speed",
            "no winch",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_winch_speed(w, r, 0.5),
        ),
        (
            "sinew_body_set_winch_speed",
            "infinite",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_winch_speed(w, r, f32::INFINITY),
        ),
        (
            "sinew_body_set_winch_target",
            "no winch",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_winch_target(w, r, 0.5, 1.0),
        ),
        (
            "sinew_body_winch_state",
            "no winch",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| unsafe {
                let (mut l, mut v, mut k) = (7.0f32, 7.0f32, 7u32);
                let s = sinew_body_winch_state(w, r, &mut l, &mut v, &mut k);
                assert_eq!((l, v, k), (7.0, 7.0, 7), "outputs untouched");
                s
            },
        ),
        (
            "sinew_body_set_break_force",
            "tet body is not a rope",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, t| sinew_body_set_break_force(w, t, 10.0),
        ),
        (
            "sinew_body_set_break_force",
            "NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_break_force(w, r, f32::NAN),
        ),
        (
            "sinew_body_set_break_force",
            "negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_break_force(w, r, -1.0),
        ),
        (
            "sinew_body_cut_rope",
            "tet body is not a rope",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, t| sinew_body_cut_rope(w, t, 0),
        ),
        (
            "sinew_body_cut_rope",
            "link past the end (5 links)",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, r, _| sinew_body_cut_rope(w, r, 5),
        ),
        (
            "sinew_body_cut_rope_along",
            "NaN segment",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| unsafe {
                let (a, b) = (v3(f32::NAN, 1.0, 0.0), v3(0.0, -1.0, 0.0));
                let mut link = 7u32;
                let s = sinew_body_cut_rope_along(w, r, &a, &b, &mut link);
                assert_eq!(link, 7, "out_link untouched");
                s
            },
        ),
        (
            "sinew_body_cut_rope_along",
            "tet body is not a rope",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, t| unsafe {
                let (a, b) = (v3(0.0, 1.0, 0.0), v3(0.0, -1.0, 0.0));
                let mut link = 7u32;
                sinew_body_cut_rope_along(w, t, &a, &b, &mut link)
            },
        ),
        (
            "sinew_constraints_remove",
            "tether 1 removed twice",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _| sinew_constraints_remove(w, TETHER, 1, 1),
        ),
        (
            "sinew_constraints_remove",
            "range over a removed tether",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _| sinew_constraints_remove(w, TETHER, 0, 3),
        ),
        (
            "sinew_constraints_set_rest",
            "negative max length",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _| unsafe {
                let r = [-0.3f32];
                sinew_constraints_set_rest(w, TETHER, 2, 1, r.as_ptr())
            },
        ),
        (
            "sinew_constraints_set_compliance",
            "removed tether",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _| sinew_constraints_set_compliance(w, TETHER, 1, 1, 0.0),
        ),
        (
            "sinew_constraints_set_stiffness",
            "tethers take a compliance",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _| sinew_constraints_set_stiffness(w, TETHER, 2, 1, 0.5),
        ),
        (
            "sinew_constraints_set_rest",
            "live tether 0, removed tether 1",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _| unsafe {
                let r = [0.3f32, 0.3];
                sinew_constraints_set_rest(w, TETHER, 0, 2, r.as_ptr())
            },
        ),
        (
            "sinew_body_set_rest_scale",
            "NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_rest_scale(w, r, f32::NAN),
        ),
        (
            "sinew_body_set_rest_scale",
            "zero",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_rest_scale(w, r, 0.0),
        ),
        (
            "sinew_body_set_rest_scale",
            "tet body",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, t| sinew_body_set_rest_scale(w, t, 0.5),
        ),
        (
            "sinew_body_set_mass",
            "negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_mass(w, r, -1.0),
        ),
        (
            "sinew_body_set_mass",
            "infinite",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_mass(w, r, f32::INFINITY),
        ),
        (
            "sinew_body_set_mass",
            "inverse mass past SINEW_MAX_INVERSE_MASS",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_mass(w, r, 1.0e-20),
        ),
    ];
    let setup = || {
        let (w, rope, tet) = body_world();
        ok(sinew_constraints_remove(w, TETHER, 1, 1), "remove tether 1");
        (w, rope, tet)
    };
    for (function, label, expected, call) in calls {
        let (w, rope, tet) = setup();
        let (control, _, _) = setup();
        let before = body_snapshot(w);
        let primed = prime_last_error(function);
        let s = call(w, rope, tet);
        assert_eq!(s, expected, "{function} [{label}]: {}", last_error());
        let msg = last_error();
        assert!(
            msg.starts_with(&format!("{function}: ")) && msg != primed,
            "{function} [{label}]: {msg}"
        );
        assert_eq!(
            body_snapshot(w),
            before,
            "{function} [{label}] changed the world"
        );
        ok(sinew_world_step(w, DT), "step");
        ok(sinew_world_step(control, DT), "step");
        assert_eq!(
            body_snapshot(w),
            body_snapshot(control),
            "{function} [{label}]: hidden state changed"
        );
        ok(sinew_world_destroy(w), "destroy");
        ok(sinew_world_destroy(control), "destroy");
    }
}
