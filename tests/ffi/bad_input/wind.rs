//! Bad input for wind and aerodynamics, in the tables of bad_input.rs (same fixture
//! and checks), plus the coefficient checks on a world holding a cloth, a rope and a
//! tet body (`aerodynamics_values_are_checked_and_change_nothing`).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::bodies::*;
use sinew::ffi::wind::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };
const FORGED_BODY: SinewBody = SinewBody {
    id: 0x0000_1234_0000_0001,
};

fn wind_cases() -> Vec<Case> {
    let f = "sinew_world_set_wind";
    let mut cases = vec![
        case(
            "sinew_wind_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_wind_desc_init(std::ptr::null_mut()) },
        ),
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            sinew_world_set_wind(NULL_WORLD, &sinew_wind_desc_default())
        }),
        case(f, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_set_wind(c.world, std::ptr::null())
        }),
    ];
    type Edit = fn(&mut SinewWindDesc);
    let edits: [(&str, Edit); 9] = [
        ("cookie", |d| d.internal_cookie = 0),
        ("velocity NaN", |d| d.velocity.y = f32::NAN),
        ("velocity above 1e4", |d| d.velocity.x = 1.5e4),
        ("air density negative", |d| d.air_density = -1.0),
        ("air density infinite", |d| d.air_density = f32::INFINITY),
        ("turbulence negative", |d| d.turbulence = -0.1),
        ("turbulence scale 0", |d| d.turbulence_scale = 0.0),
        ("turbulence frequency 2e3", |d| d.turbulence_frequency = 2e3),
        ("turbulence frequency NaN", |d| {
            d.turbulence_frequency = f32::NAN
        }),
    ];
    for (label, edit) in edits {
        cases.push(case(f, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = sinew_wind_desc_default();
            edit(&mut d);
            unsafe { sinew_world_set_wind(c.world, &d) }
        }));
    }
    cases
}

fn zone_cases() -> Vec<Case> {
    let f = "sinew_world_add_wind_zone";
    let mut cases = vec![
        case(
            "sinew_wind_zone_desc_init",
            "out NULL",
            SINEW_ERROR_NULL_POINTER,
            |_| unsafe { sinew_wind_zone_desc_init(std::ptr::null_mut()) },
        ),
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_add_wind_zone(NULL_WORLD, &sinew_wind_zone_desc_default(), c.out.u32())
        }),
        case(f, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_wind_zone(c.world, std::ptr::null(), c.out.u32())
        }),
        case(f, "out_zone NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_wind_zone(
                c.world,
                &sinew_wind_zone_desc_default(),
                std::ptr::null_mut(),
            )
        }),
        case(
            "sinew_world_set_wind_zone",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| unsafe {
                sinew_world_set_wind_zone(NULL_WORLD, 0, &sinew_wind_zone_desc_default())
            },
        ),
        case(
            "sinew_world_set_wind_zone",
            "no such zone",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe { sinew_world_set_wind_zone(c.world, 0, &sinew_wind_zone_desc_default()) },
        ),
        case(
            "sinew_world_set_wind_zone",
            "desc NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_set_wind_zone(c.world, 0, std::ptr::null()) },
        ),
        case(
            "sinew_world_remove_wind_zone",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_world_remove_wind_zone(NULL_WORLD, 0),
        ),
        case(
            "sinew_world_remove_wind_zone",
            "no such zone",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| sinew_world_remove_wind_zone(c.world, u32::MAX),
        ),
    ];
    type Edit = fn(&mut SinewWindZoneDesc);
    let edits: [(&str, Edit); 12] = [
        ("cookie", |d| d.internal_cookie ^= 1),
        ("shape 2", |d| d.shape = 2),
        ("position NaN", |d| d.position.x = f32::NAN),
        ("position beyond 1e9", |d| d.position.z = 2e9),
        ("rotation zero", |d| {
            d.rotation = SinewQuat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 0.0,
            }
        }),
        ("half extent 0", |d| d.half_extents.y = 0.0),
        ("radius negative", |d| d.radius = -1.0),
        ("direction NaN", |d| d.direction.x = f32::NAN),
        ("direction tiny", |d| d.direction = v3(1e-9, 0.0, 0.0)),
        ("strength negative", |d| d.strength = -1.0),
        ("turbulence above 1e4", |d| d.turbulence = 2e4),
        ("falloff 1.5", |d| d.falloff = 1.5),
    ];
    for (label, edit) in edits {
        cases.push(case(f, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = sinew_wind_zone_desc_default();
            edit(&mut d);
            unsafe { sinew_world_add_wind_zone(c.world, &d, c.out.u32()) }
        }));
    }
    cases
}

fn wind_at_and_aero_cases() -> Vec<Case> {
    let f = "sinew_world_wind_at";
    let mut cases = vec![
        case(f, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            sinew_world_wind_at(NULL_WORLD, &v3(0.0, 0.0, 0.0), c.out.bytes().cast())
        }),
        case(f, "position NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_wind_at(c.world, std::ptr::null(), c.out.bytes().cast())
        }),
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_wind_at(c.world, &v3(0.0, 0.0, 0.0), std::ptr::null_mut())
        }),
        case(
            f,
            "position NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                sinew_world_wind_at(c.world, &v3(f32::NAN, 0.0, 0.0), c.out.bytes().cast())
            },
        ),
        case(
            f,
            "position beyond 1e9",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe { sinew_world_wind_at(c.world, &v3(0.0, -3e9, 0.0), c.out.bytes().cast()) },
        ),
        case(
            "sinew_body_set_aerodynamics",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_body_set_aerodynamics(NULL_WORLD, FORGED_BODY, 1.0, 0.0),
        ),
    ];
    for (label, body) in [
        ("null body", SinewBody { id: 0 }),
        ("forged body", FORGED_BODY),
    ] {
        cases.push(case(
            "sinew_body_set_aerodynamics",
            label,
            SINEW_ERROR_INVALID_HANDLE,
            move |c| sinew_body_set_aerodynamics(c.world, body, 1.0, 0.0),
        ));
    }
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![wind_cases(), zone_cases(), wind_at_and_aero_cases()]
}

/// The infallible desc_default functions of this module.
pub(super) const INFALLIBLE: [&str; 2] =
    ["sinew_wind_desc_default", "sinew_wind_zone_desc_default"];

#[test]
fn wind_rejects_bad_input() {
    run_cases(wind_cases());
}

#[test]
fn wind_zones_reject_bad_input() {
    run_cases(zone_cases());
}

#[test]
fn wind_at_and_aerodynamics_reject_bad_input() {
    run_cases(wind_at_and_aero_cases());
}

#[test]
fn wind_desc_init_matches_default() {
    let mut d = SinewWindDesc {
        velocity: v3(9.0, 9.0, 9.0),
        air_density: 0.0,
        turbulence: 0.0,
        turbulence_scale: 0.0,
        turbulence_frequency: 0.0,
        internal_cookie: 0,
    };
    ok(unsafe { sinew_wind_desc_init(&mut d) }, "wind desc init");
    assert_eq!(d, sinew_wind_desc_default());
    let mut z = sinew_wind_zone_desc_default();
    z.internal_cookie = 0;
    z.radius = 7.0;
    ok(
        unsafe { sinew_wind_zone_desc_init(&mut z) },
        "zone desc init",
    );
    assert_eq!(z, sinew_wind_zone_desc_default());
}

/// A world with a cloth (aerodynamic), a rope of radius 0 and a tet body, in a wind,
/// stepped once.
fn aero_world() -> (SinewWorld, [SinewBody; 3]) {
    let w = create(&test_desc());
    let mut bodies = [SinewBody::default(); 3];
    let verts = [
        v3(0.0, 0.0, 0.0),
        v3(1.0, 0.0, 0.0),
        v3(0.0, 1.0, 0.0),
        v3(0.0, 0.0, 1.0),
    ];
    let tets = [0u32, 1, 2, 3];
    // SAFETY: valid pointers.
    unsafe {
        let mut g = sinew_cloth_grid_desc_default();
        g.segments_u = 3;
        g.segments_v = 3;
        ok(
            sinew_world_add_cloth_grid(w, &sinew_cloth_desc_default(), &g, &mut bodies[0]),
            "cloth",
        );
        let mut d = sinew_rope_desc_default();
        d.segments = 5;
        d.radius = 0.0;
        ok(sinew_world_add_rope(w, &d, &mut bodies[1]), "rope");
        ok(
            sinew_world_add_tet_body(
                w,
                &sinew_tet_body_desc_default(),
                verts.as_ptr(),
                4,
                tets.as_ptr(),
                1,
                std::ptr::null(),
                &mut bodies[2],
            ),
            "tet",
        );
        ok(
            sinew_body_set_aerodynamics(w, bodies[0], 1.0, 0.3),
            "aerodynamics",
        );
        let mut wind = sinew_wind_desc_default();
        wind.velocity = v3(3.0, 0.0, 1.0);
        wind.turbulence = 1.0;
        ok(sinew_world_set_wind(w, &wind), "wind");
    }
    ok(sinew_world_step(w, DT), "step");
    (w, bodies)
}

fn aero_snapshot(w: SinewWorld) -> Vec<u32> {
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
        let mut u = v3(0.0, 0.0, 0.0);
        ok(
            sinew_world_wind_at(w, &v3(0.5, 0.0, 0.5), &mut u),
            "wind at",
        );
        p.push(u);
        p.iter()
            .flat_map(|x| [x.x.to_bits(), x.y.to_bits(), x.z.to_bits()])
            .collect()
    }
}

/// Coefficients on a world holding bodies: each bad call returns its status and a
/// message naming the function, changes nothing, and one more step equals the step of
/// an untouched control world (the cloth's coefficients were kept).
#[test]
fn aerodynamics_values_are_checked_and_change_nothing() {
    type Call = fn(SinewWorld, [SinewBody; 3]) -> SinewStatus;
    let calls: [(&str, SinewStatus, Call); 7] = [
        ("drag NaN", SINEW_ERROR_INVALID_ARGUMENT, |w, b| {
            sinew_body_set_aerodynamics(w, b[0], f32::NAN, 0.0)
        }),
        ("drag above 10", SINEW_ERROR_INVALID_ARGUMENT, |w, b| {
            sinew_body_set_aerodynamics(w, b[0], 10.5, 0.0)
        }),
        ("lift negative", SINEW_ERROR_INVALID_ARGUMENT, |w, b| {
            sinew_body_set_aerodynamics(w, b[0], 0.0, -1.0)
        }),
        ("rope with lift", SINEW_ERROR_INVALID_ARGUMENT, |w, b| {
            sinew_body_set_aerodynamics(w, b[1], 0.0, 0.5)
        }),
        ("rope of radius 0", SINEW_ERROR_INVALID_ARGUMENT, |w, b| {
            sinew_body_set_aerodynamics(w, b[1], 1.0, 0.0)
        }),
        ("tet body", SINEW_ERROR_INVALID_ARGUMENT, |w, b| {
            sinew_body_set_aerodynamics(w, b[2], 1.0, 0.0)
        }),
        ("removed cloth", SINEW_ERROR_INVALID_HANDLE, |w, b| {
            let (twin, tb) = aero_world();
            ok(sinew_world_remove_body(twin, tb[0]), "remove");
            let s = sinew_body_set_aerodynamics(twin, tb[0], 1.0, 0.0);
            let m = last_error();
            ok(sinew_world_destroy(twin), "destroy twin");
            assert!(m.contains("removed"), "{m}");
            let _ = (w, b);
            s
        }),
    ];
    for (label, expected, call) in calls {
        let function = "sinew_body_set_aerodynamics";
        let (w, bodies) = aero_world();
        let (control, _) = aero_world();
        let before = aero_snapshot(w);
        let primed = prime_last_error(function);
        let s = call(w, bodies);
        assert_eq!(s, expected, "[{label}]: {}", last_error());
        let msg = last_error();
        assert!(
            msg.starts_with(&format!("{function}: ")) && msg != primed,
            "[{label}]: {msg}"
        );
        assert_eq!(aero_snapshot(w), before, "[{label}] changed the world");
        ok(sinew_world_step(w, DT), "step");
        ok(sinew_world_step(control, DT), "step");
        assert_eq!(
            aero_snapshot(w),
            aero_snapshot(control),
            "[{label}]: hidden state changed"
        );
        ok(sinew_world_destroy(w), "destroy");
        ok(sinew_world_destroy(control), "destroy");
    }
}
