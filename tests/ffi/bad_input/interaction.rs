//! Bad input for per-particle collision properties, the contact readback, pick and grab
//! (src/ffi/collision.rs), in the tables of bad_input.rs (same fixture and checks), and
//! their tests.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

pub(super) type SetFloatsFn = unsafe extern "C" fn(SinewWorld, u32, u32, *const f32) -> SinewStatus;

pub(super) fn per_particle_float_cases(
    f: &'static str,
    set: SetFloatsFn,
    good: f32,
    bad: &[(&'static str, f32)],
) -> Vec<Case> {
    let mut cases = vec![
        case(
            f,
            "values NULL",
            SINEW_ERROR_NULL_POINTER,
            move |c| unsafe { set(c.world, 0, 1, std::ptr::null()) },
        ),
        case(
            f,
            "values misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let v = Misaligned::new(&[good, good]);
                unsafe { set(c.world, 0, 2, v.ptr()) }
            },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(N) {
        cases.push(case(f, label, expected, move |c| {
            let v = vec![good; count.max(1) as usize];
            unsafe { set(c.world, first, count, v.as_ptr()) }
        }));
    }
    for &(label, value) in bad {
        cases.push(case(
            f,
            format!("last of {N} {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let v = [good, good, good, value];
                unsafe { set(c.world, 0, N, v.as_ptr()) }
            },
        ));
    }
    cases
}

pub(super) fn particle_property_cases() -> Vec<Case> {
    let mut cases = per_particle_float_cases(
        "sinew_world_set_particle_radii",
        sinew_world_set_particle_radii,
        0.05,
        &[
            ("-0.01 (negative radius)", -0.01),
            ("NaN", f32::NAN),
            ("+inf", f32::INFINITY),
            ("2e9", 2e9),
        ],
    );
    cases.extend(per_particle_float_cases(
        "sinew_world_set_unyielding",
        sinew_world_set_unyielding,
        1.0,
        &[("-0.1", -0.1), ("1.1", 1.1), ("NaN", f32::NAN)],
    ));
    const F: &str = "sinew_world_set_collision_filters";
    let good = SinewCollisionFilter {
        group: 3,
        layers: 1,
        mask: u32::MAX,
        self_collision: 1,
    };
    cases.push(case(
        F,
        "filters NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_set_collision_filters(c.world, 0, 1, std::ptr::null()) },
    ));
    for (label, first, count, expected) in bad_ranges(N) {
        cases.push(case(F, label, expected, move |c| {
            let v = vec![good; count.max(1) as usize];
            unsafe { sinew_world_set_collision_filters(c.world, first, count, v.as_ptr()) }
        }));
    }
    cases.push(case(
        F,
        "last self_collision 2",
        SINEW_ERROR_INVALID_ARGUMENT,
        move |c| {
            let mut v = [good; N as usize];
            v[3].self_collision = 2;
            unsafe { sinew_world_set_collision_filters(c.world, 0, N, v.as_ptr()) }
        },
    ));
    cases
}

pub(super) fn contact_cases() -> Vec<Case> {
    const F: &str = "sinew_world_read_contacts";
    let mut cases: Vec<Case> = [
        ("-1", -1.0f32),
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("2e9", 2e9),
    ]
    .into_iter()
    .map(|(label, v)| {
        case(
            "sinew_world_set_max_speed",
            format!("max_speed {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| sinew_world_set_max_speed(c.world, v),
        )
    })
    .collect();
    cases.extend(vec![
        case(
            "sinew_world_contact_count",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_contact_count(c.world, std::ptr::null_mut()) },
        ),
        case(F, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_read_contacts(c.world, std::ptr::null_mut(), 8, c.out.u32())
        }),
        case(F, "out_count NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_read_contacts(c.world, c.out.bytes().cast(), 8, std::ptr::null_mut())
        }),
        case(
            F,
            "out misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let mut n = 0u32;
                sinew_world_read_contacts(c.world, c.out.misaligned(), 2, &mut n)
            },
        ),
    ]);
    cases
}

pub(super) fn interaction_cases() -> Vec<Case> {
    const PICK: &str = "sinew_world_pick_particle";
    let mut cases = Vec::new();
    let (o, d) = (v3(0.1, 0.0, -1.0), v3(0.0, 0.0, 1.0));
    cases.push(case(
        PICK,
        "origin NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| {
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(c.world, std::ptr::null(), &d, 0.1, c.out.u32(), f) }
        },
    ));
    cases.push(case(
        PICK,
        "direction NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| {
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(c.world, &o, std::ptr::null(), 0.1, c.out.u32(), f) }
        },
    ));
    cases.push(case(
        PICK,
        "out_particle NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| {
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(c.world, &o, &d, 0.1, std::ptr::null_mut(), f) }
        },
    ));
    cases.push(case(
        PICK,
        "out_distance NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| unsafe {
            sinew_world_pick_particle(c.world, &o, &d, 0.1, c.out.u32(), std::ptr::null_mut())
        },
    ));
    for (label, origin, dir, radius) in [
        ("zero direction", o, v3(0.0, 0.0, 0.0), 0.1f32),
        ("NaN direction", o, v3(f32::NAN, 0.0, 1.0), 0.1),
        ("inf direction", o, v3(0.0, f32::INFINITY, 0.0), 0.1),
        ("NaN origin", v3(0.0, f32::NAN, 0.0), d, 0.1),
        ("radius -1", o, d, -1.0),
        ("radius NaN", o, d, f32::NAN),
    ] {
        cases.push(case(PICK, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(c.world, &origin, &dir, radius, c.out.u32(), f) }
        }));
    }
    const GRAB: &str = "sinew_world_grab_particle";
    let t = v3(0.1, 0.1, 0.0);
    cases.push(case(
        GRAB,
        "target NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_grab_particle(c.world, 1, std::ptr::null(), 0.0) },
    ));
    cases.push(case(
        GRAB,
        "particle N",
        SINEW_ERROR_OUT_OF_RANGE,
        move |c| unsafe { sinew_world_grab_particle(c.world, N, &t, 0.0) },
    ));
    cases.push(case(
        GRAB,
        "particle u32::MAX",
        SINEW_ERROR_OUT_OF_RANGE,
        move |c| unsafe { sinew_world_grab_particle(c.world, u32::MAX, &t, 0.0) },
    ));
    for (label, particle, target, compliance) in [
        ("pinned particle 0", 0u32, t, 0.0f32),
        ("target NaN", 1, v3(f32::NAN, 0.0, 0.0), 0.0),
        ("compliance -1", 1, t, -1.0),
        ("compliance NaN", 1, t, f32::NAN),
        ("compliance inf", 1, t, f32::INFINITY),
        ("regrab 2 with compliance -1", 2, t, -1.0),
    ] {
        cases.push(case(
            GRAB,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { sinew_world_grab_particle(c.world, particle, &target, compliance) },
        ));
    }
    const MOVE: &str = "sinew_world_move_grab";
    cases.push(case(
        MOVE,
        "target NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_move_grab(c.world, 2, std::ptr::null()) },
    ));
    cases.push(case(
        MOVE,
        "particle not grabbed",
        SINEW_ERROR_INVALID_ARGUMENT,
        move |c| unsafe { sinew_world_move_grab(c.world, 1, &t) },
    ));
    cases.push(case(
        MOVE,
        "target inf",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| {
            let bad = v3(0.0, f32::INFINITY, 0.0);
            unsafe { sinew_world_move_grab(c.world, 2, &bad) }
        },
    ));
    const REL: &str = "sinew_world_release_particle";
    cases.push(case(
        REL,
        "particle not grabbed",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| sinew_world_release_particle(c.world, 1),
    ));
    cases.push(case(
        REL,
        "particle u32::MAX",
        SINEW_ERROR_INVALID_ARGUMENT,
        |c| sinew_world_release_particle(c.world, u32::MAX),
    ));
    cases
}

#[test]
fn colliders_reject_bad_input() {
    run_cases(collider_cases());
}

#[test]
fn particle_collision_properties_reject_bad_input() {
    run_cases(particle_property_cases());
}

#[test]
fn contact_readback_rejects_bad_input() {
    run_cases(contact_cases());
}

#[test]
fn pick_and_grab_reject_bad_input() {
    run_cases(interaction_cases());
}

/// The fixture's collision state is live: its plane, radii and grab act in the step.
#[test]
fn fixture_collisions_are_live() {
    let w = make_world();
    assert_eq!(collider_count(w), 1);
    let mut before = [v3(0.0, 0.0, 0.0); N as usize];
    let mut after = before;
    // SAFETY: buffers of N elements.
    unsafe {
        ok(
            sinew_world_read_positions(w, 0, N, before.as_mut_ptr().cast(), 12),
            "read",
        );
        for _ in 0..30 {
            ok(sinew_world_step(w, DT), "step");
        }
        ok(
            sinew_world_read_positions(w, 0, N, after.as_mut_ptr().cast(), 12),
            "read",
        );
        let mut n = 0u32;
        ok(sinew_world_contact_count(w, &mut n), "contact_count");
        assert!(n >= 1, "particle 3 rests on the plane: {n} contacts");
        let mut contacts = [SinewContact::default(); 4];
        let mut written = 0;
        ok(
            sinew_world_read_contacts(w, contacts.as_mut_ptr(), 4, &mut written),
            "read_contacts",
        );
        assert_eq!(written, n.min(4));
        assert_eq!(contacts[0].collider, fixture_collider(w));
        assert!((contacts[0].normal.y - 1.0).abs() < 1e-5);
        assert!(contacts[0].impulse > 0.0);
    }
    assert!(after[3].y >= -0.12 + 0.02 - 1e-3, "{:?}", after[3]);
    ok(sinew_world_destroy(w), "destroy");
}
