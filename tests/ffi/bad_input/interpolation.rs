//! Bad input for the fixed step and interpolated reads (sinew_world_advance,
//! sinew_world_read_interpolated_positions, sinew_body_read_interpolated_positions), in
//! the tables of bad_input.rs (same fixture and checks: status, message, outputs
//! untouched, world unchanged, hidden state unchanged), plus bad weights and
//! capacities on a world holding bodies, and the accumulator left alone by a bad call.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::bodies_cases::{body_snapshot, body_world};
use super::*;
use sinew::ffi::bodies::*;
use sinew::ffi::interpolation::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};

/// Weights outside [0, 1].
const BAD_ALPHAS: [(&str, f32); 6] = [
    ("alpha NaN", f32::NAN),
    ("alpha -0.1", -0.1),
    ("alpha 1.0001", 1.0001),
    ("alpha +inf", f32::INFINITY),
    ("alpha -inf", f32::NEG_INFINITY),
    ("alpha f32::MAX", f32::MAX),
];

/// `sinew_world_read_interpolated_positions` at alpha 0.5, in the shape of the other
/// strided reads, so the shared strided and range cases apply to it.
unsafe extern "C" fn read_halfway(
    w: SinewWorld,
    first: u32,
    count: u32,
    out: *mut c_void,
    stride: u32,
) -> SinewStatus {
    // SAFETY: the pointers go through unchanged from the case, which passes either a valid
    // buffer for the count or a bad pointer on purpose that the ABI refuses before use.
    unsafe { sinew_world_read_interpolated_positions(w, first, count, 0.5, out, stride) }
}

fn advance_cases() -> Vec<Case> {
    let f = "sinew_world_advance";
    let mut cases = vec![
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_advance(NULL_WORLD, DT, DT, 4, c.out.u32(), c.out.f32s())
        }),
        case(f, "out_steps NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_advance(c.world, DT, DT, 4, std::ptr::null_mut(), c.out.f32s())
        }),
        case(f, "out_alpha NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_advance(c.world, DT, DT, 4, c.out.u32(), std::ptr::null_mut())
        }),
    ];
    let frame_dts = [
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
        ("-1/60", -DT),
        ("-1e-30", -1e-30),
        ("3601 (above SINEW_MAX_FRAME_DT)", 3601.0),
        ("f32::MAX", f32::MAX),
    ];
    for (label, dt) in frame_dts {
        cases.push(case(
            f,
            format!("frame_dt {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { sinew_world_advance(c.world, dt, DT, 4, c.out.u32(), c.out.f32s()) },
        ));
    }
    let fixed_dts = [
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
        ("0", 0.0),
        ("-0", -0.0),
        ("-1/60", -DT),
        ("1e-7 (below 1e-6)", 1e-7),
        ("subnormal 1e-40", 1e-40),
        ("10.5 (above 10)", 10.5),
    ];
    for (label, fixed) in fixed_dts {
        cases.push(case(
            f,
            format!("fixed_dt {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            // A whole second of frame time: a bad fixed_dt must not run any of it.
            move |c| unsafe {
                sinew_world_advance(c.world, 1.0, fixed, 4, c.out.u32(), c.out.f32s())
            },
        ));
    }
    for (label, max_steps) in [
        ("0", 0u32),
        ("1025 (above SINEW_MAX_STEPS_PER_ADVANCE)", 1025),
        ("u32::MAX", u32::MAX),
    ] {
        cases.push(case(
            f,
            format!("max_steps {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                sinew_world_advance(c.world, 1.0, DT, max_steps, c.out.u32(), c.out.f32s())
            },
        ));
    }
    cases
}

fn read_cases() -> Vec<Case> {
    let f = "sinew_world_read_interpolated_positions";
    let mut cases = strided_read_cases(f, read_halfway);
    cases.push(case(
        f,
        "world null",
        SINEW_ERROR_INVALID_HANDLE,
        |c| unsafe {
            sinew_world_read_interpolated_positions(NULL_WORLD, 0, 1, 0.5, c.out.bytes(), 12)
        },
    ));
    for (label, alpha) in BAD_ALPHAS {
        cases.push(case(
            f,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                sinew_world_read_interpolated_positions(c.world, 0, N, alpha, c.out.bytes(), 12)
            },
        ));
    }
    let f = "sinew_body_read_interpolated_positions";
    cases.extend([
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_body_read_interpolated_positions(
                NULL_WORLD,
                FORGED_BODY,
                0.5,
                c.out.bytes(),
                4,
                12,
            )
        }),
        case(f, "forged body", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_body_read_interpolated_positions(c.world, FORGED_BODY, 0.5, c.out.bytes(), 4, 12)
        }),
        case(f, "null body", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_body_read_interpolated_positions(
                c.world,
                SinewBody::default(),
                0.5,
                c.out.bytes(),
                4,
                12,
            )
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_body_read_interpolated_positions(
                c.world,
                FORGED_BODY,
                0.5,
                std::ptr::null_mut(),
                4,
                12,
            )
        }),
        case(f, "stride 8", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            sinew_body_read_interpolated_positions(c.world, FORGED_BODY, 0.5, c.out.bytes(), 4, 8)
        }),
        case(
            f,
            "stride 1 MiB + 1 (above SINEW_MAX_STRIDE_BYTES)",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                sinew_body_read_interpolated_positions(
                    c.world,
                    FORGED_BODY,
                    0.5,
                    c.out.bytes(),
                    2,
                    (1 << 20) + 1,
                )
            },
        ),
        case(
            f,
            "buffer wraps the address space",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe {
                sinew_body_read_interpolated_positions(
                    c.world,
                    FORGED_BODY,
                    0.5,
                    TOP_OF_MEMORY as *mut c_void,
                    2,
                    12,
                )
            },
        ),
    ]);
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![advance_cases(), read_cases()]
}

#[test]
fn advance_rejects_bad_input() {
    run_cases(advance_cases());
}

#[test]
fn interpolated_reads_reject_bad_input() {
    run_cases(read_cases());
}

/// On a world holding bodies (a 6-particle rope, a tet): bad weights and a capacity
/// below the body are refused with a message naming the function, the buffer and the
/// world are untouched, the accumulator too (the next advance runs exactly as on an
/// untouched control world), and one more step equals the control's.
#[test]
fn interpolated_body_reads_are_checked_and_change_nothing() {
    type BodyCall = Box<dyn Fn(SinewWorld, SinewBody, &mut [u8; 256]) -> SinewStatus>;
    let f = "sinew_body_read_interpolated_positions";
    let mut calls: Vec<(&str, String, SinewStatus, BodyCall)> = Vec::new();
    for (label, alpha) in BAD_ALPHAS {
        calls.push((
            f,
            label.to_string(),
            SINEW_ERROR_INVALID_ARGUMENT,
            Box::new(move |w, r, buf| unsafe {
                sinew_body_read_interpolated_positions(w, r, alpha, buf.as_mut_ptr().cast(), 16, 12)
            }),
        ));
        calls.push((
            "sinew_world_read_interpolated_positions",
            label.to_string(),
            SINEW_ERROR_INVALID_ARGUMENT,
            Box::new(move |w, _, buf| unsafe {
                sinew_world_read_interpolated_positions(w, 0, 6, alpha, buf.as_mut_ptr().cast(), 12)
            }),
        ));
    }
    calls.push((
        f,
        "capacity below the body".into(),
        SINEW_ERROR_OUT_OF_RANGE,
        Box::new(|w, r, buf| unsafe {
            sinew_body_read_interpolated_positions(w, r, 0.5, buf.as_mut_ptr().cast(), 5, 12)
        }),
    ));
    calls.push((
        "sinew_world_advance",
        "fixed_dt 0 after 0.9 s of frame time".into(),
        SINEW_ERROR_INVALID_ARGUMENT,
        Box::new(|w, _, _| unsafe {
            let (mut steps, mut alpha) = (7u32, 7.0f32);
            let s = sinew_world_advance(w, 0.9, 0.0, 8, &mut steps, &mut alpha);
            assert_eq!((steps, alpha), (7, 7.0), "outputs untouched");
            s
        }),
    ));
    for (function, label, expected, call) in calls {
        let (w, rope, _) = body_world();
        let (control, _, _) = body_world();
        // Some time left in both accumulators: 1.5 steps of frame time, one step run.
        let (mut steps, mut alpha) = (0u32, 0.0f32);
        unsafe {
            ok(
                sinew_world_advance(w, 1.5 * DT, DT, 4, &mut steps, &mut alpha),
                "advance",
            );
            ok(
                sinew_world_advance(control, 1.5 * DT, DT, 4, &mut steps, &mut alpha),
                "advance",
            );
        }
        let before = body_snapshot(w);
        let mut buf = [0xA5u8; 256];
        let primed = prime_last_error(function);
        let s = call(w, rope, &mut buf);
        assert_eq!(s, expected, "{function} [{label}]: {}", last_error());
        let msg = last_error();
        assert!(
            msg.starts_with(&format!("{function}: ")) && msg != primed,
            "{function} [{label}]: {msg}"
        );
        assert!(buf.iter().all(|&b| b == 0xA5), "{function} [{label}] wrote");
        assert_eq!(
            body_snapshot(w),
            before,
            "{function} [{label}] changed the world"
        );
        // The accumulator is untouched: the same frame time runs the same steps.
        let (mut s1, mut a1, mut s2, mut a2) = (0u32, 0.0f32, 0u32, 0.0f32);
        unsafe {
            ok(
                sinew_world_advance(w, 0.75 * DT, DT, 4, &mut s1, &mut a1),
                "advance",
            );
            ok(
                sinew_world_advance(control, 0.75 * DT, DT, 4, &mut s2, &mut a2),
                "advance",
            );
        }
        assert_eq!(
            (s1, a1.to_bits()),
            (s2, a2.to_bits()),
            "{function} [{label}]"
        );
        assert_eq!(
            body_snapshot(w),
            body_snapshot(control),
            "{function} [{label}]: hidden state changed"
        );
        ok(sinew_world_destroy(w), "destroy");
        ok(sinew_world_destroy(control), "destroy");
    }
}
