//! Bad input for cloth tearing (sinew_body_set_tear_threshold, sinew_cloth_*), in the
//! tables of bad_input.rs, plus bad thresholds, reserves, bodies and capacities on
//! a world holding a cloth: a status and a message, nothing changed.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::bodies_cases::{body_snapshot, body_world};
use super::*;
use sinew::ffi::bodies::*;
use sinew::ffi::tearing::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};

fn tearing_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let f = "sinew_body_set_tear_threshold";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| {
            sinew_body_set_tear_threshold(NULL_WORLD, FORGED_BODY, 1.5, 0)
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| {
            sinew_body_set_tear_threshold(c.world, FORGED_BODY, 1.5, 0)
        }),
    ]);
    let f = "sinew_cloth_tear_status";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let mut s = SinewTearStatus::default();
            sinew_cloth_tear_status(NULL_WORLD, FORGED_BODY, &mut s)
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_cloth_tear_status(c.world, FORGED_BODY, std::ptr::null_mut())
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let mut s = SinewTearStatus::default();
            sinew_cloth_tear_status(c.world, FORGED_BODY, &mut s)
        }),
    ]);
    let f = "sinew_cloth_topology_version";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let mut v = 7u64;
            sinew_cloth_topology_version(NULL_WORLD, FORGED_BODY, &mut v)
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_cloth_topology_version(c.world, FORGED_BODY, std::ptr::null_mut())
        }),
    ]);
    let f = "sinew_cloth_topology_counts";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let mut t = 7u32;
            sinew_cloth_topology_counts(NULL_WORLD, FORGED_BODY, c.out.u32(), &mut t)
        }),
        case(
            f,
            "out_vertex_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                sinew_cloth_topology_counts(c.world, FORGED_BODY, std::ptr::null_mut(), c.out.u32())
            },
        ),
        case(
            f,
            "out_triangle_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                sinew_cloth_topology_counts(c.world, FORGED_BODY, c.out.u32(), std::ptr::null_mut())
            },
        ),
    ]);
    let f = "sinew_cloth_read_topology";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let (mut t, mut v) = ([7u32; 6], [7u32; 4]);
            sinew_cloth_read_topology(
                NULL_WORLD,
                FORGED_BODY,
                t.as_mut_ptr(),
                2,
                v.as_mut_ptr(),
                std::ptr::null_mut(),
                4,
            )
        }),
        case(f, "triangles NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut v = [7u32; 4];
            sinew_cloth_read_topology(
                c.world,
                FORGED_BODY,
                std::ptr::null_mut(),
                2,
                v.as_mut_ptr(),
                std::ptr::null_mut(),
                4,
            )
        }),
        case(
            f,
            "vertex particles NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                let mut t = [7u32; 6];
                sinew_cloth_read_topology(
                    c.world,
                    FORGED_BODY,
                    t.as_mut_ptr(),
                    2,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    4,
                )
            },
        ),
    ]);
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![tearing_cases()]
}

#[test]
fn tearing_calls_reject_bad_input() {
    run_cases(tearing_cases());
}

/// The body world (a rope, a tet body) plus a 2 × 2 cloth whose tearing is on.
fn cloth_world() -> (SinewWorld, SinewBody, SinewBody, SinewBody) {
    let (w, rope, tet) = body_world();
    let mut cloth = SinewBody::default();
    // SAFETY: valid pointers.
    unsafe {
        let mut g = sinew_cloth_grid_desc_default();
        g.segments_u = 2;
        g.segments_v = 2;
        ok(
            sinew_world_add_cloth_grid(w, &sinew_cloth_desc_default(), &g, &mut cloth),
            "cloth",
        );
    }
    ok(
        sinew_body_set_tear_threshold(w, cloth, 1.5, 4),
        "tearing on",
    );
    (w, rope, tet, cloth)
}

/// Each bad call returns its status and a message naming the function, writes no
/// output, changes nothing, and one more step equals a control world's step.
#[test]
fn bad_thresholds_bodies_and_capacities_change_nothing() {
    type Call = fn(SinewWorld, SinewBody, SinewBody, SinewBody) -> SinewStatus;
    let calls: [(&str, &str, SinewStatus, Call); 15] = [
        (
            "sinew_cloth_read_topology",
            "misaligned sources",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _, c| unsafe {
                let (mut t, mut v, mut src) = ([7u32; 24], [7u32; 9], [7u32; 10]);
                let p = src.as_mut_ptr().cast::<u8>().add(1).cast();
                let st = sinew_cloth_read_topology(w, c, t.as_mut_ptr(), 8, v.as_mut_ptr(), p, 9);
                assert!(t.iter().chain(&v).all(|&x| x == 7), "outputs untouched");
                st
            },
        ),
        (
            "sinew_body_set_tear_threshold",
            "NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _, c| sinew_body_set_tear_threshold(w, c, f32::NAN, 0),
        ),
        (
            "sinew_body_set_tear_threshold",
            "negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _, c| sinew_body_set_tear_threshold(w, c, -1.5, 0),
        ),
        (
            "sinew_body_set_tear_threshold",
            "ratio 1 (tears at rest)",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _, c| sinew_body_set_tear_threshold(w, c, 1.0, 0),
        ),
        (
            "sinew_body_set_tear_threshold",
            "-infinity",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _, c| sinew_body_set_tear_threshold(w, c, f32::NEG_INFINITY, 0),
        ),
        (
            "sinew_body_set_tear_threshold",
            "another reserve than the first",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _, c| sinew_body_set_tear_threshold(w, c, 2.0, 5),
        ),
        (
            "sinew_body_set_tear_threshold",
            "reserve past SINEW_MAX_TEAR_RESERVE",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, t, _| sinew_body_set_tear_threshold(w, t, 2.0, SINEW_MAX_TEAR_RESERVE + 1),
        ),
        (
            "sinew_body_set_tear_threshold",
            "a rope is not a cloth",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _, _| sinew_body_set_tear_threshold(w, r, 1.5, 0),
        ),
        (
            "sinew_body_set_tear_threshold",
            "a tet body is not a cloth",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, t, _| sinew_body_set_tear_threshold(w, t, 1.5, 0),
        ),
        (
            "sinew_cloth_tear_status",
            "a rope is not a cloth",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _, _| unsafe {
                let mut s = SinewTearStatus {
                    version: 7,
                    ..SinewTearStatus::default()
                };
                let st = sinew_cloth_tear_status(w, r, &mut s);
                assert_eq!(s.version, 7, "output untouched");
                st
            },
        ),
        (
            "sinew_cloth_topology_version",
            "a tet body is not a cloth",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, t, _| unsafe {
                let mut v = 7u64;
                let st = sinew_cloth_topology_version(w, t, &mut v);
                assert_eq!(v, 7, "output untouched");
                st
            },
        ),
        (
            "sinew_cloth_topology_counts",
            "a rope is not a cloth",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _, _| unsafe {
                let (mut v, mut t) = (7u32, 7u32);
                let st = sinew_cloth_topology_counts(w, r, &mut v, &mut t);
                assert_eq!((v, t), (7, 7), "outputs untouched");
                st
            },
        ),
        (
            "sinew_cloth_read_topology",
            "triangle capacity 7 of 8",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, _, _, c| unsafe {
                let (mut t, mut v) = ([7u32; 24], [7u32; 9]);
                let st = sinew_cloth_read_topology(
                    w,
                    c,
                    t.as_mut_ptr(),
                    7,
                    v.as_mut_ptr(),
                    std::ptr::null_mut(),
                    9,
                );
                assert!(t.iter().chain(&v).all(|&x| x == 7), "outputs untouched");
                st
            },
        ),
        (
            "sinew_cloth_read_topology",
            "vertex capacity 8 of 9",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, _, _, c| unsafe {
                let (mut t, mut v) = ([7u32; 24], [7u32; 9]);
                let st = sinew_cloth_read_topology(
                    w,
                    c,
                    t.as_mut_ptr(),
                    8,
                    v.as_mut_ptr(),
                    std::ptr::null_mut(),
                    8,
                );
                assert!(t.iter().chain(&v).all(|&x| x == 7), "outputs untouched");
                st
            },
        ),
        (
            "sinew_cloth_read_topology",
            "misaligned triangles",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, _, c| unsafe {
                let (mut t, mut v) = ([7u32; 25], [7u32; 9]);
                let p = t.as_mut_ptr().cast::<u8>().add(1).cast();
                sinew_cloth_read_topology(w, c, p, 8, v.as_mut_ptr(), std::ptr::null_mut(), 9)
            },
        ),
    ];
    for (function, label, expected, call) in calls {
        let (w, rope, tet, cloth) = cloth_world();
        let (control, _, _, _) = cloth_world();
        let before = body_snapshot(w);
        let primed = prime_last_error(function);
        let s = call(w, rope, tet, cloth);
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
