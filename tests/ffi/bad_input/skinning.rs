//! Bad input for skinned targets and inertia control, in the tables of
//! bad_input.rs (same fixture and checks), plus the value checks on a world holding
//! a skinned cloth (`skinning_values_are_checked_and_change_nothing`).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::attachments::SinewTransform;
use sinew::ffi::bodies::*;
use sinew::ffi::skinning::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};
const NO_SKIN: SinewSkinWeights = SinewSkinWeights {
    max_distance: -1.0,
    backstop_radius: 0.0,
    backstop_distance: 0.0,
    drive_compliance: -1.0,
};

fn root() -> SinewTransform {
    SinewTransform {
        position: v3(0.0, 0.0, 0.0),
        rotation: SinewQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        },
    }
}

fn skinning_cases() -> Vec<Case> {
    let mut cases = vec![
        case(
            "sinew_body_set_skin_weights",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| unsafe { sinew_body_set_skin_weights(NULL_WORLD, FORGED_BODY, &NO_SKIN, 1) },
        ),
        case(
            "sinew_body_set_skin_weights",
            "weights NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_body_set_skin_weights(c.world, FORGED_BODY, std::ptr::null(), 1) },
        ),
        case(
            "sinew_body_set_skin_targets",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| unsafe {
                let p = [v3(0.0, 0.0, 0.0)];
                sinew_body_set_skin_targets(
                    NULL_WORLD,
                    FORGED_BODY,
                    p.as_ptr().cast(),
                    12,
                    std::ptr::null(),
                    12,
                    1,
                )
            },
        ),
        case(
            "sinew_body_set_skin_targets",
            "positions NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                sinew_body_set_skin_targets(
                    c.world,
                    FORGED_BODY,
                    std::ptr::null(),
                    12,
                    std::ptr::null(),
                    12,
                    1,
                )
            },
        ),
        case(
            "sinew_body_set_skin_targets",
            "position stride 8",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let p = [v3(0.0, 0.0, 0.0); 2];
                sinew_body_set_skin_targets(
                    c.world,
                    FORGED_BODY,
                    p.as_ptr().cast(),
                    8,
                    std::ptr::null(),
                    12,
                    1,
                )
            },
        ),
        case(
            "sinew_body_set_skin_targets",
            "normal stride 0",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let p = [v3(0.0, 0.0, 0.0)];
                sinew_body_set_skin_targets(
                    c.world,
                    FORGED_BODY,
                    p.as_ptr().cast(),
                    12,
                    p.as_ptr().cast(),
                    0,
                    1,
                )
            },
        ),
        case(
            "sinew_body_set_skin_root",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| unsafe { sinew_body_set_skin_root(NULL_WORLD, FORGED_BODY, &root(), 1.0, 1.0) },
        ),
        case(
            "sinew_body_set_skin_root",
            "root NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe {
                sinew_body_set_skin_root(c.world, FORGED_BODY, std::ptr::null(), 1.0, 1.0)
            },
        ),
        case(
            "sinew_body_teleport_to_skin",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_body_teleport_to_skin(NULL_WORLD, FORGED_BODY),
        ),
    ];
    for (label, body) in [
        ("null body", SinewBody { id: 0 }),
        ("forged body", FORGED_BODY),
    ] {
        cases.extend([
            case(
                "sinew_body_set_skin_weights",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe { sinew_body_set_skin_weights(c.world, body, &NO_SKIN, 1) },
            ),
            case(
                "sinew_body_set_skin_targets",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe {
                    let p = [v3(0.0, 0.0, 0.0)];
                    sinew_body_set_skin_targets(
                        c.world,
                        body,
                        p.as_ptr().cast(),
                        12,
                        std::ptr::null(),
                        12,
                        1,
                    )
                },
            ),
            case(
                "sinew_body_set_skin_root",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| unsafe { sinew_body_set_skin_root(c.world, body, &root(), 0.5, 0.5) },
            ),
            case(
                "sinew_body_teleport_to_skin",
                label,
                SINEW_ERROR_INVALID_HANDLE,
                move |c| sinew_body_teleport_to_skin(c.world, body),
            ),
        ]);
    }
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![skinning_cases()]
}

#[test]
fn skinning_rejects_bad_input() {
    run_cases(skinning_cases());
}

/// A world with a 3 × 3-particle cloth, skinned (weights and targets set) and stepped
/// once, and a second cloth without weights.
fn skin_world() -> (SinewWorld, SinewBody, SinewBody) {
    let w = create(&test_desc());
    let mut cloth = SinewBody::default();
    let mut plain = SinewBody::default();
    // SAFETY: valid pointers.
    unsafe {
        let mut g = sinew_cloth_grid_desc_default();
        g.segments_u = 2;
        g.segments_v = 2;
        ok(
            sinew_world_add_cloth_grid(w, &sinew_cloth_desc_default(), &g, &mut cloth),
            "cloth",
        );
        ok(
            sinew_world_add_cloth_grid(w, &sinew_cloth_desc_default(), &g, &mut plain),
            "cloth",
        );
        let weights = [SinewSkinWeights {
            max_distance: 0.1,
            backstop_radius: 0.2,
            backstop_distance: 0.01,
            drive_compliance: 0.01,
        }; 9];
        ok(
            sinew_body_set_skin_weights(w, cloth, weights.as_ptr(), 9),
            "weights",
        );
        let mut p = [v3(0.0, 0.0, 0.0); 9];
        ok(
            sinew_body_read_positions(w, cloth, p.as_mut_ptr().cast(), 9, 12),
            "read",
        );
        let n = [v3(0.0, 1.0, 0.0); 9];
        ok(
            sinew_body_set_skin_targets(w, cloth, p.as_ptr().cast(), 12, n.as_ptr().cast(), 12, 9),
            "targets",
        );
        ok(
            sinew_body_set_skin_root(w, cloth, &root(), 0.5, 0.5),
            "root",
        );
    }
    ok(sinew_world_step(w, DT), "step");
    (w, cloth, plain)
}

fn skin_snapshot(w: SinewWorld) -> Vec<u32> {
    let mut n = 0u32;
    // SAFETY: valid pointers and sizes.
    unsafe {
        ok(
            sinew::ffi::particles::sinew_world_particle_count(w, &mut n),
            "count",
        );
        let mut p = vec![v3(0.0, 0.0, 0.0); 2 * n as usize];
        ok(
            sinew_world_read_positions(w, 0, n, p.as_mut_ptr().cast(), 12),
            "read",
        );
        ok(
            sinew_world_read_velocities(w, 0, n, p[n as usize..].as_mut_ptr().cast(), 12),
            "read",
        );
        p.iter()
            .flat_map(|x| [x.x.to_bits(), x.y.to_bits(), x.z.to_bits()])
            .collect()
    }
}

/// Weights, targets and roots on a world holding a skinned cloth: each bad call returns
/// its status and a message naming the function, changes nothing, and one more step
/// equals the step of an untouched control world.
#[test]
fn skinning_values_are_checked_and_change_nothing() {
    type Call = fn(SinewWorld, SinewBody, SinewBody) -> SinewStatus;
    fn weights_with(edit: fn(&mut SinewSkinWeights)) -> [SinewSkinWeights; 9] {
        let mut w = [NO_SKIN; 9];
        edit(&mut w[4]);
        w
    }
    fn targets(
        w: SinewWorld,
        b: SinewBody,
        p: &[SinewVec3],
        n: Option<&[SinewVec3]>,
    ) -> SinewStatus {
        // SAFETY: valid pointers for the counts passed.
        unsafe {
            sinew_body_set_skin_targets(
                w,
                b,
                p.as_ptr().cast(),
                12,
                n.map_or(std::ptr::null(), |n| n.as_ptr().cast()),
                12,
                p.len() as u32,
            )
        }
    }
    let calls: [(&str, &str, SinewStatus, Call); 13] = [
        (
            "sinew_body_set_skin_weights",
            "count below the body",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| unsafe { sinew_body_set_skin_weights(w, c, [NO_SKIN; 8].as_ptr(), 8) },
        ),
        (
            "sinew_body_set_skin_weights",
            "max distance NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| unsafe {
                sinew_body_set_skin_weights(
                    w,
                    c,
                    weights_with(|x| x.max_distance = f32::NAN).as_ptr(),
                    9,
                )
            },
        ),
        (
            "sinew_body_set_skin_weights",
            "max distance 2e9",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| unsafe {
                sinew_body_set_skin_weights(
                    w,
                    c,
                    weights_with(|x| x.max_distance = 2e9).as_ptr(),
                    9,
                )
            },
        ),
        (
            "sinew_body_set_skin_weights",
            "backstop radius negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| unsafe {
                sinew_body_set_skin_weights(
                    w,
                    c,
                    weights_with(|x| x.backstop_radius = -0.1).as_ptr(),
                    9,
                )
            },
        ),
        (
            "sinew_body_set_skin_weights",
            "backstop distance infinite",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| unsafe {
                sinew_body_set_skin_weights(
                    w,
                    c,
                    weights_with(|x| x.backstop_distance = f32::INFINITY).as_ptr(),
                    9,
                )
            },
        ),
        (
            "sinew_body_set_skin_weights",
            "drive compliance 1e11",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| unsafe {
                sinew_body_set_skin_weights(
                    w,
                    c,
                    weights_with(|x| x.drive_compliance = 1e11).as_ptr(),
                    9,
                )
            },
        ),
        (
            "sinew_body_set_skin_targets",
            "count above the body",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| targets(w, c, &[v3(0.0, 0.0, 0.0); 10], None),
        ),
        (
            "sinew_body_set_skin_targets",
            "position NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| {
                let mut p = [v3(0.0, 0.0, 0.0); 9];
                p[8].z = f32::NAN;
                targets(w, c, &p, None)
            },
        ),
        (
            "sinew_body_set_skin_targets",
            "normal infinite",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| {
                let mut n = [v3(0.0, 1.0, 0.0); 9];
                n[2].x = f32::INFINITY;
                targets(w, c, &[v3(0.0, 0.0, 0.0); 9], Some(&n))
            },
        ),
        (
            "sinew_body_set_skin_targets",
            "body without weights",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, p| targets(w, p, &[v3(0.0, 0.0, 0.0); 9], None),
        ),
        (
            "sinew_body_set_skin_root",
            "inertia 1.5",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| unsafe { sinew_body_set_skin_root(w, c, &root(), 1.5, 0.0) },
        ),
        (
            "sinew_body_set_skin_root",
            "rotation zero",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, c, _| unsafe {
                let mut r = root();
                r.rotation.w = 0.0;
                sinew_body_set_skin_root(w, c, &r, 0.5, 0.5)
            },
        ),
        (
            "sinew_body_teleport_to_skin",
            "body without weights",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, _, p| sinew_body_teleport_to_skin(w, p),
        ),
    ];
    for (function, label, expected, call) in calls {
        let (w, cloth, plain) = skin_world();
        let (control, _, _) = skin_world();
        let before = skin_snapshot(w);
        let primed = prime_last_error(function);
        let s = call(w, cloth, plain);
        assert_eq!(s, expected, "{function} [{label}]: {}", last_error());
        let msg = last_error();
        assert!(
            msg.starts_with(&format!("{function}: ")) && msg != primed,
            "{function} [{label}]: {msg}"
        );
        assert_eq!(
            skin_snapshot(w),
            before,
            "{function} [{label}] changed the world"
        );
        for _ in 0..3 {
            ok(sinew_world_step(w, DT), "step");
            ok(sinew_world_step(control, DT), "step");
        }
        assert_eq!(
            skin_snapshot(w),
            skin_snapshot(control),
            "{function} [{label}]: hidden state changed"
        );
        ok(sinew_world_destroy(w), "destroy");
        ok(sinew_world_destroy(control), "destroy");
    }
}
