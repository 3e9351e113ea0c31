//! Bad input for colliders and triangle meshes (src/ffi/collision.rs), in the tables of
//! bad_input.rs (same fixture and checks), and the fixture's collision state.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;
use std::collections::BTreeMap;

/// The fixture worlds' plane colliders, by world id (filled by
/// [`add_fixture_collisions`]).
static FIXTURE_COLLIDERS: std::sync::Mutex<BTreeMap<u64, SinewCollider>> =
    std::sync::Mutex::new(BTreeMap::new());

/// The plane collider of the fixture world `w`: the first collider of a world, slot 0
/// and generation 1 under the world's serial (the header's "Handles" paragraph). For
/// a handle that names no fixture world (a null or destroyed world, on purpose), slot
/// 0 and generation 1 under serial 0: the world is refused before the collider.
pub(super) fn fixture_collider(w: SinewWorld) -> SinewCollider {
    FIXTURE_COLLIDERS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&w.id)
        .copied()
        .unwrap_or(SinewCollider { id: (1 << 24) | 1 })
}

/// Adds the fixture's collision state: a plane just below the particles (friction,
/// restitution), radii, and a grab on particle 2.
pub(super) fn add_fixture_collisions(w: SinewWorld) {
    let mut d = collider_desc();
    d.position = v3(0.0, -0.12, 0.0);
    d.static_friction = 0.5;
    d.dynamic_friction = 0.4;
    d.restitution = 0.5;
    let mut id = SinewCollider { id: 0 };
    let radii = [0.02f32; N as usize];
    let target = v3(0.25, 0.0, 0.0);
    // SAFETY: valid pointers.
    unsafe {
        ok(sinew_world_add_collider(w, &d, &mut id), "add_collider");
        assert_eq!(
            id.id & ((1 << 44) - 1),
            (1 << 24) | 1,
            "slot 0, generation 1"
        );
        FIXTURE_COLLIDERS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(w.id, id);
        ok(
            sinew_world_set_particle_radii(w, 0, N, radii.as_ptr()),
            "set_particle_radii",
        );
        ok(
            sinew_world_grab_particle(w, 2, &target, 1e-3),
            "grab_particle",
        );
    }
}

pub(super) fn collider_desc() -> SinewColliderDesc {
    // SAFETY: all-zero is a valid bit pattern for this plain struct.
    let mut d: SinewColliderDesc = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointer.
    ok(
        unsafe { sinew_collider_desc_init(&mut d) },
        "collider_desc_init",
    );
    d
}

pub(super) fn collider_count(w: SinewWorld) -> u32 {
    let mut n = u32::MAX;
    // SAFETY: valid pointer.
    ok(
        unsafe { sinew_world_collider_count(w, &mut n) },
        "collider_count",
    );
    n
}

pub(super) fn collision_valid_calls() -> Vec<(&'static str, CallWith)> {
    vec![
        ("sinew_world_add_collider", |c, w| {
            let mut d = collider_desc();
            d.shape = SinewShape::SINEW_SHAPE_SPHERE as u32;
            unsafe { sinew_world_add_collider(w, &d, c.out.u32().cast()) }
        }),
        ("sinew_world_add_mesh_collider", |c, w| {
            let d = collider_desc();
            let (v, t) = tetrahedron();
            unsafe {
                sinew_world_add_mesh_collider(
                    w,
                    &d,
                    v.as_ptr(),
                    4,
                    t.as_ptr(),
                    4,
                    c.out.u32().cast(),
                )
            }
        }),
        ("sinew_collider_remove", |_, w| {
            sinew_collider_remove(w, fixture_collider(w))
        }),
        ("sinew_collider_set_transform", |_, w| {
            let p = v3(0.0, -0.1, 0.0);
            let q = SinewQuat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            };
            unsafe { sinew_collider_set_transform(w, fixture_collider(w), &p, &q, 0) }
        }),
        ("sinew_collider_set_material", |_, w| {
            sinew_collider_set_material(w, fixture_collider(w), 0.1, 0.1, 0.0)
        }),
        ("sinew_world_collider_count", |c, w| unsafe {
            sinew_world_collider_count(w, c.out.u32())
        }),
        ("sinew_world_set_particle_radii", |_, w| {
            let r = [0.03f32];
            unsafe { sinew_world_set_particle_radii(w, 1, 1, r.as_ptr()) }
        }),
        ("sinew_world_set_collision_filters", |_, w| {
            let f = [SinewCollisionFilter {
                group: 1,
                layers: 1,
                mask: 1,
                self_collision: 0,
            }];
            unsafe { sinew_world_set_collision_filters(w, 1, 1, f.as_ptr()) }
        }),
        ("sinew_world_set_unyielding", |_, w| {
            let u = [1.0f32];
            unsafe { sinew_world_set_unyielding(w, 1, 1, u.as_ptr()) }
        }),
        ("sinew_world_set_max_speed", |_, w| {
            sinew_world_set_max_speed(w, 5.0)
        }),
        ("sinew_world_contact_count", |c, w| unsafe {
            sinew_world_contact_count(w, c.out.u32())
        }),
        ("sinew_world_read_contacts", |c, w| unsafe {
            let mut n = 0u32;
            sinew_world_read_contacts(w, c.out.bytes().cast(), 8, &mut n)
        }),
        ("sinew_world_pick_particle", |c, w| {
            let (o, d) = (v3(0.1, 0.0, -1.0), v3(0.0, 0.0, 1.0));
            let f = c.out.f32s();
            unsafe { sinew_world_pick_particle(w, &o, &d, 0.05, c.out.u32(), f) }
        }),
        ("sinew_world_grab_particle", |_, w| {
            let t = v3(0.1, 0.1, 0.0);
            unsafe { sinew_world_grab_particle(w, 1, &t, 0.0) }
        }),
        ("sinew_world_move_grab", |_, w| {
            let t = v3(0.3, 0.0, 0.0);
            unsafe { sinew_world_move_grab(w, 2, &t) }
        }),
        ("sinew_world_release_particle", |_, w| {
            sinew_world_release_particle(w, 2)
        }),
    ]
}

/// Makes a bad handle from a live one's id.
pub(super) type Forge = fn(u64) -> u64;

/// Collider handles that are not the fixture's live collider, made from it (its id
/// `(serial << 44) | (generation << 24) | (slot + 1)`).
pub(super) fn bad_colliders() -> Vec<(&'static str, Forge)> {
    vec![
        ("null collider", |_| 0),
        ("generation + 1", |id| id + (1 << 24)),
        ("generation 0", |id| id & !(((1 << 20) - 1) << 24)),
        ("slot never used", |id| id + 8),
        ("another world's serial", |id| id ^ (1 << 44)),
        ("all ones", |_| u64::MAX),
    ]
}

/// A small closed mesh: 4 vertices, 4 triangles (12 indices).
pub(super) fn tetrahedron() -> ([SinewVec3; 4], [u32; 12]) {
    (
        [
            v3(0.0, -1.0, 0.0),
            v3(1.0, -1.0, 0.0),
            v3(0.0, -1.0, 1.0),
            v3(0.0, -0.5, 0.0),
        ],
        [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
    )
}

pub(super) fn mesh_cases() -> Vec<Case> {
    const F: &str = "sinew_world_add_mesh_collider";
    let mut cases = vec![
        case(F, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let (v, t) = tetrahedron();
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    std::ptr::null(),
                    v.as_ptr(),
                    4,
                    t.as_ptr(),
                    4,
                    c.out.u32().cast(),
                )
            }
        }),
        case(F, "vertices NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let (d, (_, t)) = (collider_desc(), tetrahedron());
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    &d,
                    std::ptr::null(),
                    4,
                    t.as_ptr(),
                    4,
                    c.out.u32().cast(),
                )
            }
        }),
        case(F, "indices NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let (d, (v, _)) = (collider_desc(), tetrahedron());
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    &d,
                    v.as_ptr(),
                    4,
                    std::ptr::null(),
                    4,
                    c.out.u32().cast(),
                )
            }
        }),
        case(F, "out_collider NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let (d, (v, t)) = (collider_desc(), tetrahedron());
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    &d,
                    v.as_ptr(),
                    4,
                    t.as_ptr(),
                    4,
                    std::ptr::null_mut(),
                )
            }
        }),
    ];
    type Edit = fn(&mut SinewColliderDesc, &mut [SinewVec3; 4], &mut [u32; 12], &mut u32, &mut u32);
    let bad: Vec<(&str, SinewStatus, Edit)> = vec![
        (
            "index 4 of 4 vertices",
            SINEW_ERROR_OUT_OF_RANGE,
            |_, _, t, _, _| t[7] = 4,
        ),
        (
            "index u32::MAX",
            SINEW_ERROR_OUT_OF_RANGE,
            |_, _, t, _, _| t[0] = u32::MAX,
        ),
        (
            "3 vertices for indices up to 3",
            SINEW_ERROR_OUT_OF_RANGE,
            |_, _, _, nv, _| *nv = 3,
        ),
        (
            "vertex NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, v, _, _, _| v[2].y = f32::NAN,
        ),
        (
            "vertex inf",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, v, _, _, _| v[0].x = f32::INFINITY,
        ),
        (
            "0 triangles",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, _, _, _, nt| *nt = 0,
        ),
        (
            "0 vertices",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, _, _, nv, _| *nv = 0,
        ),
        (
            "all triangles zero-area",
            SINEW_ERROR_INVALID_ARGUMENT,
            |_, _, t, _, _| t.copy_from_slice(&[0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0]),
        ),
        (
            "rotation non-unit",
            SINEW_ERROR_INVALID_ARGUMENT,
            |d, _, _, _, _| d.rotation.w = 3.0,
        ),
        (
            "position NaN",
            SINEW_ERROR_INVALID_ARGUMENT,
            |d, _, _, _, _| d.position.z = f32::NAN,
        ),
        (
            "restitution 2",
            SINEW_ERROR_INVALID_ARGUMENT,
            |d, _, _, _, _| d.restitution = 2.0,
        ),
        (
            "no cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            |d, _, _, _, _| d.internal_cookie = 7,
        ),
    ];
    for (label, expected, edit) in bad {
        cases.push(case(F, label, expected, move |c| {
            let mut d = collider_desc();
            let (mut v, mut t) = tetrahedron();
            let (mut nv, mut nt) = (4u32, 4u32);
            edit(&mut d, &mut v, &mut t, &mut nv, &mut nt);
            unsafe {
                sinew_world_add_mesh_collider(
                    c.world,
                    &d,
                    v.as_ptr(),
                    nv,
                    t.as_ptr(),
                    nt,
                    c.out.u32().cast(),
                )
            }
        }));
    }
    cases
}

#[test]
fn mesh_colliders_reject_bad_input() {
    run_cases(mesh_cases());
}

pub(super) fn collider_cases() -> Vec<Case> {
    let mut cases = vec![case(
        "sinew_collider_desc_init",
        "out_desc NULL",
        SINEW_ERROR_NULL_POINTER,
        |_| unsafe { sinew_collider_desc_init(std::ptr::null_mut()) },
    )];
    cases.push(case(
        "sinew_collision_filter_init",
        "out_filter NULL",
        SINEW_ERROR_NULL_POINTER,
        |_| unsafe { sinew_collision_filter_init(std::ptr::null_mut()) },
    ));
    const ADD: &str = "sinew_world_add_collider";
    cases.push(case(
        ADD,
        "desc NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_add_collider(c.world, std::ptr::null(), c.out.u32().cast()) },
    ));
    cases.push(case(
        ADD,
        "out_collider NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| {
            let d = collider_desc();
            unsafe { sinew_world_add_collider(c.world, &d, std::ptr::null_mut()) }
        },
    ));
    type Edit = fn(&mut SinewColliderDesc);
    let bad: Vec<(&str, Edit)> = vec![
        ("no cookie", |d| d.internal_cookie = 0),
        ("shape 4 (mesh without triangles)", |d| d.shape = 4),
        ("shape 5", |d| d.shape = 5),
        ("shape u32::MAX", |d| d.shape = u32::MAX),
        ("sphere radius -1", |d| {
            d.shape = 1;
            d.radius = -1.0
        }),
        ("sphere radius NaN", |d| {
            d.shape = 1;
            d.radius = f32::NAN
        }),
        ("sphere radius 0", |d| {
            d.shape = 1;
            d.radius = 0.0
        }),
        ("capsule half_height 0", |d| {
            d.shape = 2;
            d.half_height = 0.0
        }),
        ("capsule radius inf", |d| {
            d.shape = 2;
            d.radius = f32::INFINITY
        }),
        ("box zero size (y 0)", |d| {
            d.shape = 3;
            d.half_extents.y = 0.0
        }),
        ("box negative x", |d| {
            d.shape = 3;
            d.half_extents.x = -0.5
        }),
        ("box NaN z", |d| {
            d.shape = 3;
            d.half_extents.z = f32::NAN
        }),
        ("position NaN", |d| d.position.x = f32::NAN),
        ("position 2e9", |d| d.position.y = 2e9),
        ("rotation NaN", |d| d.rotation.x = f32::NAN),
        ("rotation non-unit (w 2)", |d| d.rotation.w = 2.0),
        ("rotation zero", |d| d.rotation.w = 0.0),
        ("static_friction -0.1", |d| d.static_friction = -0.1),
        ("static_friction NaN", |d| d.static_friction = f32::NAN),
        ("dynamic_friction inf", |d| {
            d.dynamic_friction = f32::INFINITY
        }),
        ("restitution -0.1", |d| d.restitution = -0.1),
        ("restitution 1.5", |d| d.restitution = 1.5),
        ("restitution NaN", |d| d.restitution = f32::NAN),
    ];
    for (label, edit) in bad {
        cases.push(case(ADD, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = collider_desc();
            edit(&mut d);
            unsafe { sinew_world_add_collider(c.world, &d, c.out.u32().cast()) }
        }));
    }
    for (label, bad) in bad_colliders() {
        let bad = move |w: SinewWorld| SinewCollider {
            id: bad(fixture_collider(w).id),
        };
        cases.push(case(
            "sinew_collider_remove",
            label,
            SINEW_ERROR_INVALID_HANDLE,
            move |c| sinew_collider_remove(c.world, bad(c.world)),
        ));
        cases.push(case(
            "sinew_collider_set_material",
            label,
            SINEW_ERROR_INVALID_HANDLE,
            move |c| sinew_collider_set_material(c.world, bad(c.world), 0.1, 0.1, 0.1),
        ));
        cases.push(case(
            "sinew_collider_set_transform",
            label,
            SINEW_ERROR_INVALID_HANDLE,
            move |c| {
                let p = v3(0.0, 0.0, 0.0);
                let q = SinewQuat {
                    x: 0.0,
                    y: 0.0,
                    z: 0.0,
                    w: 1.0,
                };
                unsafe { sinew_collider_set_transform(c.world, bad(c.world), &p, &q, 0) }
            },
        ));
    }
    // Issue 28 item 10: a live collider of another world, in the same slot with the
    // same generation as the fixture's, is refused (collider handles carry their
    // world's serial like every other kind).
    cases.push(case(
        "sinew_collider_set_material",
        "collider of another world",
        SINEW_ERROR_INVALID_HANDLE,
        |c| {
            let other = make_world();
            let theirs = fixture_collider(other);
            assert_eq!(
                theirs.id & ((1 << 44) - 1),
                fixture_collider(c.world).id & ((1 << 44) - 1)
            );
            let s = sinew_collider_set_material(c.world, theirs, 0.1, 0.1, 0.1);
            let msg = last_error();
            assert!(msg.contains("issued by another world"), "{msg}");
            ok(sinew_world_destroy(other), "destroy the other world");
            s
        },
    ));
    const TF: &str = "sinew_collider_set_transform";
    let unit = SinewQuat {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };
    let transforms: Vec<(&str, SinewVec3, SinewQuat, u32)> = vec![
        ("position NaN", v3(f32::NAN, 0.0, 0.0), unit, 0),
        ("position -inf", v3(0.0, f32::NEG_INFINITY, 0.0), unit, 0),
        (
            "rotation non-unit",
            v3(0.0, 0.0, 0.0),
            SinewQuat { w: 0.5, ..unit },
            0,
        ),
        (
            "rotation zero",
            v3(0.0, 0.0, 0.0),
            SinewQuat { w: 0.0, ..unit },
            0,
        ),
        (
            "rotation NaN",
            v3(0.0, 0.0, 0.0),
            SinewQuat {
                y: f32::NAN,
                ..unit
            },
            0,
        ),
        ("teleport 2", v3(0.0, 0.0, 0.0), unit, 2),
    ];
    for (label, p, q, teleport) in transforms {
        cases.push(case(
            TF,
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe {
                sinew_collider_set_transform(c.world, fixture_collider(c.world), &p, &q, teleport)
            },
        ));
    }
    cases.push(case(
        TF,
        "position NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| unsafe {
            sinew_collider_set_transform(
                c.world,
                fixture_collider(c.world),
                std::ptr::null(),
                &unit,
                0,
            )
        },
    ));
    cases.push(case(
        TF,
        "rotation NULL",
        SINEW_ERROR_NULL_POINTER,
        move |c| {
            let p = v3(0.0, 0.0, 0.0);
            unsafe {
                sinew_collider_set_transform(
                    c.world,
                    fixture_collider(c.world),
                    &p,
                    std::ptr::null(),
                    0,
                )
            }
        },
    ));
    const MAT: &str = "sinew_collider_set_material";
    for (label, s, d, e) in [
        ("static -1", -1.0f32, 0.1f32, 0.0f32),
        ("static NaN", f32::NAN, 0.1, 0.0),
        ("dynamic -0.5", 0.1, -0.5, 0.0),
        ("dynamic 1e9", 0.1, 1e9, 0.0),
        ("restitution -0.01", 0.1, 0.1, -0.01),
        ("restitution 1.01", 0.1, 0.1, 1.01),
        ("restitution inf", 0.1, 0.1, f32::INFINITY),
    ] {
        cases.push(case(MAT, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            sinew_collider_set_material(c.world, fixture_collider(c.world), s, d, e)
        }));
    }
    cases.push(case(
        "sinew_world_collider_count",
        "out_count NULL",
        SINEW_ERROR_NULL_POINTER,
        |c| unsafe { sinew_world_collider_count(c.world, std::ptr::null_mut()) },
    ));
    cases
}
