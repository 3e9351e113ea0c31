//! Bad input for the contact wrench and the contact events (src/ffi/contacts.rs), in
//! the tables of bad_input.rs (same fixture and checks).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL or misaligned on purpose where the case's name says
//! so (the ABI checks before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

const NULL_WORLD: SinewWorld = SinewWorld { id: 0 };

pub(super) fn heightfield_cases() -> Vec<Case> {
    const F: &str = "sinew_world_add_heightfield_collider";
    let add =
        |c: &mut Ctx, cols: u32, rows: u32, cell: f32, heights: &[f32], holes: Option<&[u8]>| {
            let d = collider_desc();
            let mut out = SinewCollider { id: 7 };
            let holes = holes.map_or(std::ptr::null(), |h| h.as_ptr());
            // SAFETY: see the file's header: each pointer is valid for what is passed.
            let s = unsafe {
                sinew_world_add_heightfield_collider(
                    c.world,
                    &d,
                    cols,
                    rows,
                    cell,
                    cell,
                    heights.as_ptr(),
                    holes,
                    &mut out,
                )
            };
            assert_eq!(out.id, 7, "out_collider untouched");
            s
        };
    vec![
        case(F, "1 row", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            add(c, 2, 1, 1.0, &[0.0; 2], None)
        }),
        case(F, "cell 0", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            add(c, 2, 2, 0.0, &[0.0; 4], None)
        }),
        case(F, "NaN height", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            add(c, 2, 2, 1.0, &[0.0, f32::NAN, 0.0, 0.0], None)
        }),
        case(
            F,
            "every cell a hole",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| add(c, 2, 2, 1.0, &[0.0; 4], Some(&[1])),
        ),
        case(F, "hole flag 2", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            add(c, 2, 2, 1.0, &[0.0; 4], Some(&[2]))
        }),
        case(F, "heights NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let d = collider_desc();
            let mut out = SinewCollider { id: 7 };
            sinew_world_add_heightfield_collider(
                c.world,
                &d,
                2,
                2,
                1.0,
                1.0,
                std::ptr::null(),
                std::ptr::null(),
                &mut out,
            )
        }),
        case(F, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let h = [0.0f32; 4];
            let mut out = SinewCollider { id: 7 };
            sinew_world_add_heightfield_collider(
                c.world,
                std::ptr::null(),
                2,
                2,
                1.0,
                1.0,
                h.as_ptr(),
                std::ptr::null(),
                &mut out,
            )
        }),
    ]
}

pub(super) fn contact_event_cases() -> Vec<Case> {
    const W: &str = "sinew_collider_contact_wrench";
    const T: &str = "sinew_world_take_contact_events";
    vec![
        case(W, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let (mut f, mut t) = (v3(7.0, 7.0, 7.0), v3(7.0, 7.0, 7.0));
            let s = sinew_collider_contact_wrench(
                NULL_WORLD,
                SinewCollider { id: (1 << 24) | 1 },
                std::ptr::null(),
                &mut f,
                &mut t,
            );
            assert_eq!((f.x, t.x), (7.0, 7.0), "outputs untouched");
            s
        }),
        case(
            W,
            "forged collider",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe {
                let (mut f, mut t) = (v3(0.0, 0.0, 0.0), v3(0.0, 0.0, 0.0));
                let forged = SinewCollider {
                    id: fixture_collider(c.world).id + (5 << 24),
                };
                sinew_collider_contact_wrench(c.world, forged, std::ptr::null(), &mut f, &mut t)
            },
        ),
        case(W, "out_force NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut t = v3(0.0, 0.0, 0.0);
            let id = fixture_collider(c.world);
            sinew_collider_contact_wrench(
                c.world,
                id,
                std::ptr::null(),
                std::ptr::null_mut(),
                &mut t,
            )
        }),
        case(W, "out_torque NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut f = v3(0.0, 0.0, 0.0);
            let id = fixture_collider(c.world);
            sinew_collider_contact_wrench(
                c.world,
                id,
                std::ptr::null(),
                &mut f,
                std::ptr::null_mut(),
            )
        }),
        case(W, "about NaN", SINEW_ERROR_INVALID_ARGUMENT, |c| unsafe {
            let (mut f, mut t) = (v3(0.0, 0.0, 0.0), v3(0.0, 0.0, 0.0));
            let about = v3(f32::NAN, 0.0, 0.0);
            let id = fixture_collider(c.world);
            sinew_collider_contact_wrench(c.world, id, &about, &mut f, &mut t)
        }),
        case(
            "sinew_world_set_contact_events",
            "enabled 2",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| sinew_world_set_contact_events(c.world, 2),
        ),
        case(
            "sinew_world_set_contact_events",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |_| sinew_world_set_contact_events(NULL_WORLD, 1),
        ),
        case(
            "sinew_world_contact_event_count",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_contact_event_count(c.world, std::ptr::null_mut()) },
        ),
        case(
            "sinew_world_contact_event_count",
            "world null",
            SINEW_ERROR_INVALID_HANDLE,
            |c| unsafe { sinew_world_contact_event_count(NULL_WORLD, c.out.u32()) },
        ),
        case(T, "world null", SINEW_ERROR_INVALID_HANDLE, |_| unsafe {
            let mut e = [SinewContactEvent::default(); 2];
            let (mut n, mut lost) = (7u32, 7u64);
            let s =
                sinew_world_take_contact_events(NULL_WORLD, e.as_mut_ptr(), 2, &mut n, &mut lost);
            assert_eq!((n, lost), (7, 7), "outputs untouched");
            s
        }),
        case(T, "events NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let (mut n, mut lost) = (7u32, 7u64);
            sinew_world_take_contact_events(c.world, std::ptr::null_mut(), 2, &mut n, &mut lost)
        }),
        case(T, "out_count NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut e = [SinewContactEvent::default(); 2];
            let mut lost = 7u64;
            sinew_world_take_contact_events(
                c.world,
                e.as_mut_ptr(),
                2,
                std::ptr::null_mut(),
                &mut lost,
            )
        }),
        case(T, "out_lost NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let mut e = [SinewContactEvent::default(); 2];
            let mut n = 7u32;
            sinew_world_take_contact_events(
                c.world,
                e.as_mut_ptr(),
                2,
                &mut n,
                std::ptr::null_mut(),
            )
        }),
        case(
            T,
            "misaligned events",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| unsafe {
                let mut e = [SinewContactEvent::default(); 3];
                let (mut n, mut lost) = (7u32, 7u64);
                let p = e.as_mut_ptr().cast::<u8>().add(4).cast();
                sinew_world_take_contact_events(c.world, p, 2, &mut n, &mut lost)
            },
        ),
    ]
}
