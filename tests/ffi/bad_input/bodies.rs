//! Bad input for the families, attachments and bodies (issue 4), in the tables of
//! bad_input.rs (same fixture and checks), plus body-level checks on a world that
//! holds bodies (`body_values_are_checked_and_change_nothing`).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::attachments::*;
use sinew::ffi::bodies::*;
use sinew::ffi::families::*;
use sinew::ffi::lod::*;

#[path = "body_families.rs"]
mod body_families;
use body_families::{attachment_cases, cube, family_cases};
#[path = "body_builders.rs"]
mod body_builders;
use body_builders::{cloth_cases, desc_init_cases, rope_cases};
#[path = "body_soft.rs"]
mod body_soft;
use body_soft::{body_handle_cases, soft_cases};
#[path = "body_families_2.rs"]
mod body_families_2;
use body_families_2::family2_cases;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};

fn out_body(c: &mut Ctx) -> *mut SinewBody {
    c.out.bytes().cast()
}

fn t(px: f32, q: [f32; 4]) -> SinewTransform {
    SinewTransform {
        position: v3(px, 0.0, 0.0),
        rotation: SinewQuat {
            x: q[0],
            y: q[1],
            z: q[2],
            w: q[3],
        },
    }
}

const ID: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

type Add2 =
    unsafe extern "C" fn(SinewWorld, *const u32, *const f32, u32, f32, *mut u32) -> SinewStatus;

#[test]
fn strain_unilateral_planar_ring_shape_reject_bad_input() {
    run_cases(family2_cases());
}

/// Every table of this module.
pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![
        family2_cases(),
        family_cases(),
        attachment_cases(),
        desc_init_cases(),
        rope_cases(),
        cloth_cases(),
        soft_cases(),
        body_handle_cases(),
    ]
}

/// The infallible desc_default functions of this module.
pub(super) const INFALLIBLE: [&str; 5] = [
    "sinew_rope_desc_default",
    "sinew_cloth_desc_default",
    "sinew_cloth_grid_desc_default",
    "sinew_tet_body_desc_default",
    "sinew_pressure_body_desc_default",
];

#[test]
fn families_reject_bad_input() {
    run_cases(family_cases());
}

#[test]
fn attachments_reject_bad_input() {
    run_cases(attachment_cases());
}

#[test]
fn desc_init_rejects_null_and_matches_desc_default() {
    run_cases(desc_init_cases());
    // SAFETY: valid out pointers.
    unsafe {
        let mut r = std::mem::zeroed::<SinewRopeDesc>();
        ok(sinew_rope_desc_init(&mut r), "rope init");
        assert_eq!(r, sinew_rope_desc_default());
        let mut c = std::mem::zeroed::<SinewClothDesc>();
        ok(sinew_cloth_desc_init(&mut c), "cloth init");
        assert_eq!(c, sinew_cloth_desc_default());
        let mut g = std::mem::zeroed::<SinewClothGridDesc>();
        ok(sinew_cloth_grid_desc_init(&mut g), "grid init");
        assert_eq!(g, sinew_cloth_grid_desc_default());
        let mut t = std::mem::zeroed::<SinewTetBodyDesc>();
        ok(sinew_tet_body_desc_init(&mut t), "tet init");
        assert_eq!(t, sinew_tet_body_desc_default());
        let mut p = std::mem::zeroed::<SinewPressureBodyDesc>();
        ok(sinew_pressure_body_desc_init(&mut p), "pressure init");
        assert_eq!(p, sinew_pressure_body_desc_default());
    }
}

#[test]
fn body_builders_reject_malformed_input() {
    run_cases(rope_cases());
    run_cases(cloth_cases());
    run_cases(soft_cases());
}

#[test]
fn body_functions_reject_bad_handles() {
    run_cases(body_handle_cases());
}

/// Everything observable about a world with bodies.
pub(super) fn body_snapshot(w: SinewWorld) -> Vec<u32> {
    let mut n = 0u32;
    let mut bodies = 0u32;
    // SAFETY: valid pointers and sizes.
    unsafe {
        ok(
            sinew::ffi::particles::sinew_world_particle_count(w, &mut n),
            "count",
        );
        ok(sinew_world_body_count(w, &mut bodies), "body count");
        let mut p = vec![v3(0.0, 0.0, 0.0); n as usize];
        ok(
            sinew_world_read_positions(w, 0, n, p.as_mut_ptr().cast(), 12),
            "read",
        );
        let mut v = vec![v3(0.0, 0.0, 0.0); n as usize];
        ok(
            sinew_world_read_velocities(w, 0, n, v.as_mut_ptr().cast(), 12),
            "read",
        );
        let mut out = vec![n, bodies];
        for x in p.iter().chain(&v) {
            out.extend([x.x.to_bits(), x.y.to_bits(), x.z.to_bits()]);
        }
        for fam in 0..5u32 {
            let mut c = 0u32;
            ok(
                sinew_world_family_constraint_count(w, fam, &mut c),
                "family count",
            );
            out.push(c);
        }
        out
    }
}

/// A world with a rope and a tet body, stepped once.
pub(super) fn body_world() -> (SinewWorld, SinewBody, SinewBody) {
    let w = create(&test_desc());
    let mut rope = SinewBody::default();
    let mut tet = SinewBody::default();
    let verts = [
        v3(0.0, 0.0, 0.0),
        v3(1.0, 0.0, 0.0),
        v3(0.0, 1.0, 0.0),
        v3(0.0, 0.0, 1.0),
    ];
    let tets = [0u32, 1, 2, 3];
    // SAFETY: valid pointers.
    unsafe {
        let mut d = sinew_rope_desc_default();
        d.segments = 5;
        ok(sinew_world_add_rope(w, &d, &mut rope), "rope");
        ok(
            sinew_world_add_tet_body(
                w,
                &sinew_tet_body_desc_default(),
                verts.as_ptr(),
                4,
                tets.as_ptr(),
                1,
                std::ptr::null(),
                &mut tet,
            ),
            "tet",
        );
    }
    ok(sinew_world_step(w, DT), "step");
    (w, rope, tet)
}

/// Body-level values on a world holding bodies: each bad call returns its status and a
/// message naming the function, changes nothing, and one more step equals the step of
/// an untouched control world.
#[test]
fn body_values_are_checked_and_change_nothing() {
    type BodyCall = fn(SinewWorld, SinewBody, SinewBody) -> SinewStatus;
    let calls: [(&str, &str, SinewStatus, BodyCall); 17] = [
        (
            "sinew_body_read_forces",
            "which 4 (volume)",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| unsafe {
                let (mut f, mut n) = ([0.0f32; 64], 7u32);
                let s = sinew_body_read_forces(w, r, 4, f.as_mut_ptr(), 64, &mut n);
                assert_eq!(n, 7, "out_count untouched");
                s
            },
        ),
        (
            "sinew_body_read_forces",
            "capacity below the group",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, r, _| unsafe {
                let (mut f, mut n) = ([-1.0f32; 2], 7u32);
                let s = sinew_body_read_forces(w, r, 0, f.as_mut_ptr(), 2, &mut n);
                assert!(f == [-1.0; 2] && n == 7, "nothing written");
                s
            },
        ),
        (
            "sinew_body_read_forces",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |w, r, _| unsafe {
                let mut n = 0u32;
                sinew_body_read_forces(w, r, 0, std::ptr::null_mut(), 64, &mut n)
            },
        ),
        (
            "sinew_body_set_compliance",
            "NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_compliance(w, r, 0, f32::NAN),
        ),
        (
            "sinew_body_set_compliance",
            "negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_compliance(w, r, 2, -1.0),
        ),
        (
            "sinew_body_set_compliance",
            "which 5",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_compliance(w, r, 5, 0.0),
        ),
        (
            "sinew_body_set_sim_mode",
            "mode 3",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_sim_mode(w, r, 3, 1),
        ),
        (
            "sinew_body_set_sim_mode",
            "reduced every 0",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, r, _| sinew_body_set_sim_mode(w, r, 1, 0),
        ),
        (
            "sinew_body_set_sim_mode",
            "reduced every past the substeps",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, r, _| sinew_body_set_sim_mode(w, r, 1, 1000),
        ),
        (
            "sinew_body_get_sim_mode",
            "out_mode NULL",
            SINEW_ERROR_NULL_POINTER,
            |w, r, _| unsafe {
                let mut e = 0u32;
                sinew_body_get_sim_mode(w, r, std::ptr::null_mut(), &mut e)
            },
        ),
        (
            "sinew_body_get_sim_mode",
            "out_every NULL",
            SINEW_ERROR_NULL_POINTER,
            |w, r, _| unsafe {
                let mut m = 0u32;
                sinew_body_get_sim_mode(w, r, &mut m, std::ptr::null_mut())
            },
        ),
        (
            "sinew_body_set_damping",
            "negative",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_damping(w, r, -1.0),
        ),
        (
            "sinew_body_set_pressure",
            "rope has no pressure",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| sinew_body_set_pressure(w, r, 1.5),
        ),
        (
            "sinew_body_volume",
            "rope has no volume",
            SINEW_ERROR_INVALID_ARGUMENT,
            |w, r, _| unsafe {
                let mut v = 0.0;
                sinew_body_volume(w, r, &mut v)
            },
        ),
        (
            "sinew_body_read_positions",
            "capacity below the body",
            SINEW_ERROR_OUT_OF_RANGE,
            |w, r, _| unsafe {
                let mut buf = [0u8; 64];
                sinew_body_read_positions(w, r, buf.as_mut_ptr().cast(), 2, 12)
            },
        ),
        (
            "sinew_world_remove_body",
            "body of another world",
            SINEW_ERROR_INVALID_HANDLE,
            |w, _, _| {
                let (other, rope2, tet2) = body_world();
                let _ = tet2;
                let s = sinew_world_remove_body(w, rope2);
                ok(sinew_world_destroy(other), "destroy other");
                s
            },
        ),
        (
            "sinew_world_remove_body",
            "removed twice",
            SINEW_ERROR_INVALID_HANDLE,
            |w, r, _| {
                // Remove in a twin world, then use the stale handle value here after removal
                // there: the handle of the removed rope is invalid in its own world.
                let (twin, rope2, _) = body_world();
                ok(sinew_world_remove_body(twin, rope2), "first removal");
                let s = sinew_world_remove_body(twin, rope2);
                let msg = last_error();
                assert!(msg.contains("removed"), "{msg}");
                ok(sinew_world_destroy(twin), "destroy twin");
                let _ = (w, r);
                s
            },
        ),
    ];
    for (function, label, expected, call) in calls {
        let (w, rope, tet) = body_world();
        let (control, _, _) = body_world();
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
