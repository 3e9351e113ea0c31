//! Bad input for the snapshot functions, in the tables of bad_input.rs (same
//! fixture and checks: a refused call writes no output and leaves the world as it
//! was, hidden state included).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;
use sinew::ffi::snapshot::*;

/// A valid snapshot of the fixture world `w`.
fn saved(w: SinewWorld) -> Vec<u8> {
    let mut size = 0u64;
    // SAFETY: valid pointers; the buffer holds `size` bytes.
    unsafe {
        ok(sinew_world_snapshot_size(w, &mut size), "snapshot_size");
        let mut b = vec![0u8; size as usize];
        let mut written = 0u64;
        ok(
            sinew_world_save_snapshot(w, b.as_mut_ptr(), size, &mut written),
            "save_snapshot",
        );
        assert_eq!(written, size);
        b
    }
}

fn out_u64(c: &mut Ctx) -> *mut u64 {
    c.out.bytes().cast()
}

/// A way of damaging a snapshot.
type Damage = fn(&mut Vec<u8>);

/// Damaged copies of a real snapshot, each refused with INVALID_ARGUMENT.
fn damaged() -> Vec<(&'static str, Damage)> {
    vec![
        ("empty", |b| b.clear()),
        ("shorter than the header", |b| b.truncate(20)),
        ("truncated by one byte", |b| {
            b.pop();
        }),
        ("one byte appended", |b| b.push(0)),
        ("foreign magic", |b| b[0] = b'Z'),
        ("future format version", |b| b[8] = b[8].wrapping_add(1)),
        ("newer ABI version", |b| b[15] = 0xFF),
        ("a flipped bit in the body", |b| {
            let i = b.len() / 2;
            b[i] ^= 0x10;
        }),
        ("checksum flipped", |b| b[30] ^= 1),
        // Forged bodies with a valid length and checksum: the decoder's own checks.
        ("8 bytes appended, resealed", |b| {
            b.extend_from_slice(&[0; 8]);
            reseal(b);
        }),
        ("truncated by 8 bytes, resealed", |b| {
            b.truncate(b.len() - 8);
            reseal(b);
        }),
        ("first body value forged to u64::MAX, resealed", |b| {
            let at = sinew::SNAPSHOT_HEADER_BYTES;
            b[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
            reseal(b);
        }),
    ]
}

/// A fresh header (length and checksum) for the body of `b`, as a forger would write.
fn reseal(b: &mut Vec<u8>) {
    *b = sinew::seal_snapshot(&b[sinew::SNAPSHOT_HEADER_BYTES..]);
}

fn restore_cases() -> Vec<Case> {
    const F: &str = "sinew_world_restore_snapshot";
    let mut cases = vec![
        case(F, "data NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_restore_snapshot(c.world, std::ptr::null(), 64)
        }),
        case(
            F,
            "size past the address space",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| {
                let b = saved(c.world);
                unsafe { sinew_world_restore_snapshot(c.world, b.as_ptr(), u64::MAX) }
            },
        ),
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |c| {
            let b = saved(c.world);
            unsafe {
                sinew_world_restore_snapshot(SinewWorld { id: 0 }, b.as_ptr(), b.len() as u64)
            }
        }),
    ];
    for (label, damage) in damaged() {
        cases.push(case(F, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut b = saved(c.world);
            damage(&mut b);
            unsafe { sinew_world_restore_snapshot(c.world, b.as_ptr(), b.len() as u64) }
        }));
    }
    cases
}

fn create_cases() -> Vec<Case> {
    const F: &str = "sinew_world_create_from_snapshot";
    let mut cases = vec![
        case(F, "data NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_create_from_snapshot(std::ptr::null(), 64, 1, &mut c.out.world)
        }),
        case(F, "out_world NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let b = saved(c.world);
            unsafe {
                sinew_world_create_from_snapshot(
                    b.as_ptr(),
                    b.len() as u64,
                    1,
                    std::ptr::null_mut(),
                )
            }
        }),
        case(F, "threads 257", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            let b = saved(c.world);
            unsafe {
                sinew_world_create_from_snapshot(b.as_ptr(), b.len() as u64, 257, &mut c.out.world)
            }
        }),
    ];
    for (label, damage) in damaged() {
        cases.push(case(F, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut b = saved(c.world);
            damage(&mut b);
            unsafe {
                sinew_world_create_from_snapshot(b.as_ptr(), b.len() as u64, 1, &mut c.out.world)
            }
        }));
    }
    cases
}

fn save_cases() -> Vec<Case> {
    const F: &str = "sinew_world_save_snapshot";
    vec![
        case(F, "buffer NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            let out = c.out.u32().cast();
            sinew_world_save_snapshot(c.world, std::ptr::null_mut(), 1 << 20, out)
        }),
        case(F, "out_written NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let mut b = vec![0u8; saved(c.world).len()];
            unsafe {
                sinew_world_save_snapshot(
                    c.world,
                    b.as_mut_ptr(),
                    b.len() as u64,
                    std::ptr::null_mut(),
                )
            }
        }),
        case(
            F,
            "capacity one byte short",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| {
                let need = saved(c.world).len() as u64;
                let mut b = vec![0x5Au8; need as usize];
                let out = c.out.u32().cast();
                let s =
                    unsafe { sinew_world_save_snapshot(c.world, b.as_mut_ptr(), need - 1, out) };
                assert!(
                    b.iter().all(|&x| x == 0x5A),
                    "a refused save wrote its buffer"
                );
                s
            },
        ),
        case(
            F,
            "capacity 0 into the outputs",
            SINEW_ERROR_OUT_OF_RANGE,
            |c| unsafe {
                let buf = c.out.bytes().cast();
                let out = c.out.u32().cast();
                sinew_world_save_snapshot(c.world, buf, 0, out)
            },
        ),
        case(F, "world null", SINEW_ERROR_INVALID_HANDLE, |c| unsafe {
            let buf = c.out.bytes().cast();
            let out = c.out.u32().cast();
            sinew_world_save_snapshot(SinewWorld { id: 0 }, buf, 256, out)
        }),
    ]
}

fn query_cases() -> Vec<Case> {
    let mut cases = vec![
        case(
            "sinew_world_snapshot_size",
            "out_size NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_snapshot_size(c.world, std::ptr::null_mut()) },
        ),
        case(
            "sinew_world_state_hash",
            "out_hash NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_state_hash(c.world, std::ptr::null_mut()) },
        ),
    ];
    for kind in BAD_HANDLES {
        cases.push(case(
            "sinew_world_snapshot_size",
            format!("handle: {kind}"),
            SINEW_ERROR_INVALID_HANDLE,
            move |c| {
                let bad = bad_handle(kind, c.world);
                unsafe { sinew_world_snapshot_size(bad, out_u64(c)) }
            },
        ));
        cases.push(case(
            "sinew_world_state_hash",
            format!("handle: {kind}"),
            SINEW_ERROR_INVALID_HANDLE,
            move |c| {
                let bad = bad_handle(kind, c.world);
                unsafe { sinew_world_state_hash(bad, out_u64(c)) }
            },
        ));
        cases.push(case(
            "sinew_world_restore_snapshot",
            format!("handle: {kind}"),
            SINEW_ERROR_INVALID_HANDLE,
            move |c| {
                let b = saved(c.world);
                let bad = bad_handle(kind, c.world);
                unsafe { sinew_world_restore_snapshot(bad, b.as_ptr(), b.len() as u64) }
            },
        ));
    }
    cases
}

pub(super) fn tables() -> Vec<Vec<Case>> {
    vec![restore_cases(), create_cases(), save_cases(), query_cases()]
}

#[test]
fn snapshot_functions_reject_bad_input() {
    for table in tables() {
        run_cases(table);
    }
}

/// The valid calls: save, restore into the same world (it then steps like a control
/// world), a new world from the buffer, and the state hash of all three.
#[test]
fn snapshots_round_trip_through_the_c_abi() {
    let w = make_world();
    let b = saved(w);
    let mut h = [0u64; 3];
    let mut fresh = SinewWorld { id: 0 };
    // SAFETY: valid pointers and sizes.
    unsafe {
        ok(
            sinew_world_create_from_snapshot(b.as_ptr(), b.len() as u64, 2, &mut fresh),
            "create_from_snapshot",
        );
        ok(sinew_world_step(w, DT), "step");
        ok(sinew_world_step(fresh, DT), "step");
        ok(sinew_world_state_hash(w, &mut h[0]), "hash");
        ok(sinew_world_state_hash(fresh, &mut h[1]), "hash");
        assert_eq!(h[0], h[1]);
        ok(
            sinew_world_restore_snapshot(w, b.as_ptr(), b.len() as u64),
            "restore",
        );
        ok(sinew_world_step(w, DT), "step");
        ok(sinew_world_state_hash(w, &mut h[2]), "hash");
        assert_eq!(h[2], h[0]);
    }
    assert_eq!(snapshot(w), snapshot(fresh));
    ok(sinew_world_destroy(fresh), "destroy");
    ok(sinew_world_destroy(w), "destroy");
}
