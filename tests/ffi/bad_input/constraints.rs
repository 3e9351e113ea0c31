//! Bad input for the constraint functions (src/ffi/constraints.rs), in the tables of
//! bad_input.rs (same fixture and checks): inverse masses, XPBD and PBD distance
//! constraints, constraint forces.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

pub(super) fn set_inverse_masses_cases() -> Vec<Case> {
    const F: &str = "sinew_world_set_inverse_masses";
    let mut cases = vec![
        case(
            F,
            "inverse_masses NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_set_inverse_masses(c.world, 0, 1, std::ptr::null()) },
        ),
        case(
            F,
            "inverse_masses misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let inv = Misaligned::new(&[1.0f32, 1.0]);
                unsafe { sinew_world_set_inverse_masses(c.world, 0, 2, inv.ptr()) }
            },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(N) {
        cases.push(case(F, label, expected, move |c| {
            let inv = vec![1.0f32; count.max(1) as usize];
            unsafe { sinew_world_set_inverse_masses(c.world, first, count, inv.as_ptr()) }
        }));
    }
    let bad_masses = [
        ("-1 (negative mass)", -1.0f32),
        ("-1e-30", -1e-30),
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
        // Above 0 and below SINEW_MIN_INVERSE_MASS (1e-12): a mass past 1e12 kg, whose
        // 1/w overflowed (1e-40 was accepted and ended in NON_FINITE recoveries).
        ("1e-40 (below the minimum)", 1e-40),
        ("5e-13 (below the minimum)", 5e-13),
        ("smallest subnormal", f32::from_bits(1)),
    ];
    for (label, bad) in bad_masses {
        cases.push(case(
            F,
            format!("last of {N} {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let inv = [5.0f32, 5.0, 5.0, bad];
                unsafe { sinew_world_set_inverse_masses(c.world, 0, N, inv.as_ptr()) }
            },
        ));
    }
    cases
}

pub(super) type AddConstraintsFn =
    unsafe extern "C" fn(SinewWorld, *const u32, *const f32, u32, f32, *mut u32) -> SinewStatus;

/// Cases shared by both constraint flavours; `param` is a valid compliance/stiffness.
pub(super) fn add_constraints_cases(
    f: &'static str,
    add: AddConstraintsFn,
    param: f32,
    bad_params: &[(&'static str, f32)],
) -> Vec<Case> {
    let mut cases = vec![
        case(
            f,
            "particle_pairs NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe {
                add(
                    c.world,
                    std::ptr::null(),
                    std::ptr::null(),
                    1,
                    param,
                    c.out.u32(),
                )
            },
        ),
        case(f, "out_first NULL", SINEW_ERROR_NULL_POINTER, move |c| {
            let pairs = [0u32, 3];
            unsafe {
                add(
                    c.world,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    1,
                    param,
                    std::ptr::null_mut(),
                )
            }
        }),
        case(f, "count 0", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let pairs = [0u32, 3];
            let rest = [0.1f32];
            unsafe {
                add(
                    c.world,
                    pairs.as_ptr(),
                    rest.as_ptr(),
                    0,
                    param,
                    c.out.u32(),
                )
            }
        }),
        case(
            f,
            "particle_pairs misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let pairs = Misaligned::new(&[0u32, 3]);
                unsafe {
                    add(
                        c.world,
                        pairs.ptr(),
                        std::ptr::null(),
                        1,
                        param,
                        c.out.u32(),
                    )
                }
            },
        ),
        case(
            f,
            "rest_lengths misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let pairs = [0u32, 3];
                let rest = Misaligned::new(&[0.1f32]);
                unsafe { add(c.world, pairs.as_ptr(), rest.ptr(), 1, param, c.out.u32()) }
            },
        ),
    ];
    // Absurd counts are refused before the buffers are touched (they hold one pair).
    for count in [u32::MAX, (1u32 << 28) + 1] {
        cases.push(case(
            f,
            format!("count {count} over a one-pair buffer"),
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| {
                let pairs = [0u32, 3];
                unsafe {
                    add(
                        c.world,
                        pairs.as_ptr(),
                        std::ptr::null(),
                        count,
                        param,
                        c.out.u32(),
                    )
                }
            },
        ));
    }
    // The second of two pairs is bad, so a partial add would show.
    let bad_pairs = [
        ("(0, n)", [0u32, N], SINEW_ERROR_OUT_OF_RANGE),
        ("(n, 0)", [N, 0], SINEW_ERROR_OUT_OF_RANGE),
        ("(u32::MAX, 1)", [u32::MAX, 1], SINEW_ERROR_OUT_OF_RANGE),
        (
            "(2, 2) joins a particle to itself",
            [2, 2],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
        (
            "(0, 0) joins a particle to itself",
            [0, 0],
            SINEW_ERROR_INVALID_ARGUMENT,
        ),
    ];
    for (label, bad, expected) in bad_pairs {
        cases.push(case(
            f,
            format!("second pair {label}"),
            expected,
            move |c| {
                let pairs = [0u32, 3, bad[0], bad[1]];
                unsafe {
                    add(
                        c.world,
                        pairs.as_ptr(),
                        std::ptr::null(),
                        2,
                        param,
                        c.out.u32(),
                    )
                }
            },
        ));
    }
    let bad_rest = [
        ("-0.1", -0.1f32),
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
    ];
    for (label, bad) in bad_rest {
        cases.push(case(
            f,
            format!("second rest length {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let pairs = [0u32, 3, 1, 3];
                let rest = [0.1f32, bad];
                unsafe {
                    add(
                        c.world,
                        pairs.as_ptr(),
                        rest.as_ptr(),
                        2,
                        param,
                        c.out.u32(),
                    )
                }
            },
        ));
    }
    for &(label, bad) in bad_params {
        cases.push(case(f, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let pairs = [0u32, 3];
            unsafe {
                add(
                    c.world,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    1,
                    bad,
                    c.out.u32(),
                )
            }
        }));
    }
    cases
}

pub(super) fn xpbd_cases() -> Vec<Case> {
    add_constraints_cases(
        "sinew_world_add_distance_constraints",
        sinew_world_add_distance_constraints,
        1e-6,
        &[
            ("compliance -1", -1.0),
            ("compliance -1e-30", -1e-30),
            ("compliance NaN", f32::NAN),
            ("compliance +inf", f32::INFINITY),
            ("compliance -inf", f32::NEG_INFINITY),
            ("compliance 1e11 (above 1e10)", 1e11),
        ],
    )
}

pub(super) fn pbd_cases() -> Vec<Case> {
    add_constraints_cases(
        "sinew_world_add_pbd_distance_constraints",
        sinew_world_add_pbd_distance_constraints,
        0.5,
        &[
            ("stiffness -0.1", -0.1),
            ("stiffness 1.1", 1.1),
            ("stiffness 1.0000001", 1.000_000_1),
            ("stiffness NaN", f32::NAN),
            ("stiffness +inf", f32::INFINITY),
            ("stiffness -inf", f32::NEG_INFINITY),
        ],
    )
}

pub(super) fn forces_cases() -> Vec<Case> {
    const F: &str = "sinew_world_read_constraint_forces";
    let mut cases = vec![
        case(
            F,
            "out_newtons NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_read_constraint_forces(c.world, 0, 1, std::ptr::null_mut()) },
        ),
        case(
            F,
            "out_newtons misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe { sinew_world_read_constraint_forces(c.world, 0, 1, c.out.misaligned()) },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(M) {
        cases.push(case(F, label, expected, move |c| unsafe {
            sinew_world_read_constraint_forces(c.world, first, count, c.out.f32s())
        }));
    }
    cases
}
