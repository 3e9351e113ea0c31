//! Bad input for the world, particle and handle functions (src/ffi/world.rs,
//! src/ffi/particles.rs), in the tables of bad_input.rs (same fixture and checks): bad
//! handles of every kind, creation and its desc, the step, adding particles, counts,
//! strided reads and writes.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

/// Kinds of bad world handle; see [`bad_handle`].
pub(super) const BAD_HANDLES: [&str; 9] = [
    "null handle {0}",
    "destroyed handle",
    "valid slot, generation + 1",
    "valid slot, generation - 1",
    "valid slot, generation 0",
    "random id",
    "slot bits 0, generation 5",
    "all ones",
    "slot 0, random generation",
];

/// A bad handle of kind `kind`, derived from the live handle `world` where it can be
/// (same slot, wrong generation).
pub(super) fn bad_handle(kind: &str, world: SinewWorld) -> SinewWorld {
    let slot = world.id & 0xFFFF_FFFF;
    let generation = world.id >> 32;
    let id = match kind {
        "null handle {0}" => 0,
        "destroyed handle" => {
            let d = create(&test_desc());
            ok(sinew_world_destroy(d), "destroy");
            d.id
        }
        "valid slot, generation + 1" => ((generation + 1) & 0xFFFF_FFFF) << 32 | slot,
        "valid slot, generation - 1" => (generation.wrapping_sub(1) & 0xFFFF_FFFF) << 32 | slot,
        "valid slot, generation 0" => slot,
        "random id" => 0x9E37_79B9_7F4A_7C15,
        "slot bits 0, generation 5" => 5 << 32,
        "all ones" => u64::MAX,
        "slot 0, random generation" => 0xDEAD_BEEF_0000_0001,
        _ => unreachable!("{kind}"),
    };
    assert_ne!(id, world.id);
    SinewWorld { id }
}

/// One valid call of every function that takes a world, given the handle to use.
pub(super) type CallWith = fn(&mut Ctx, SinewWorld) -> SinewStatus;

pub(super) fn valid_calls() -> Vec<(&'static str, CallWith)> {
    let mut calls: Vec<(&'static str, CallWith)> = vec![
        ("sinew_world_destroy", |_, w| sinew_world_destroy(w)),
        ("sinew_world_step", |_, w| sinew_world_step(w, DT)),
        ("sinew_world_add_particles", |c, w| {
            let p = [v3(1.0, 2.0, 3.0)];
            let inv = [1.0f32];
            // SAFETY: valid pointers.
            unsafe { sinew_world_add_particles(w, p.as_ptr(), inv.as_ptr(), 1, c.out.u32()) }
        }),
        ("sinew_world_particle_count", |c, w| unsafe {
            sinew_world_particle_count(w, c.out.u32())
        }),
        ("sinew_world_read_positions", |c, w| unsafe {
            sinew_world_read_positions(w, 0, N, c.out.bytes(), 16)
        }),
        ("sinew_world_write_positions", |_, w| {
            let p = [v3(0.3, 0.3, 0.3)];
            unsafe { sinew_world_write_positions(w, 1, 1, p.as_ptr().cast(), 12) }
        }),
        ("sinew_world_read_velocities", |c, w| unsafe {
            sinew_world_read_velocities(w, 0, N, c.out.bytes(), 12)
        }),
        ("sinew_world_write_velocities", |_, w| {
            let v = [v3(1.0, 0.0, 0.0)];
            unsafe { sinew_world_write_velocities(w, 2, 1, v.as_ptr().cast(), 12) }
        }),
        ("sinew_world_set_inverse_masses", |_, w| {
            let inv = [3.0f32];
            unsafe { sinew_world_set_inverse_masses(w, 1, 1, inv.as_ptr()) }
        }),
        ("sinew_world_add_distance_constraints", |c, w| {
            let pairs = [0u32, 3];
            unsafe {
                sinew_world_add_distance_constraints(
                    w,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    c.out.u32(),
                )
            }
        }),
        ("sinew_world_add_pbd_distance_constraints", |c, w| {
            let pairs = [1u32, 3];
            let rest = [0.2f32];
            unsafe {
                sinew_world_add_pbd_distance_constraints(
                    w,
                    pairs.as_ptr(),
                    rest.as_ptr(),
                    1,
                    1.0,
                    c.out.u32(),
                )
            }
        }),
        ("sinew_world_distance_constraint_count", |c, w| unsafe {
            sinew_world_distance_constraint_count(w, c.out.u32())
        }),
        ("sinew_world_read_constraint_forces", |c, w| unsafe {
            sinew_world_read_constraint_forces(w, 0, M, c.out.f32s())
        }),
    ];
    calls.extend(collision_valid_calls());
    calls
}

/// Every valid call above with every bad handle: INVALID_HANDLE.
pub(super) fn handle_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (function, call) in valid_calls() {
        for kind in BAD_HANDLES {
            cases.push(case(
                function,
                format!("handle: {kind}"),
                SINEW_ERROR_INVALID_HANDLE,
                move |c: &mut Ctx| {
                    let bad = bad_handle(kind, c.world);
                    call(c, bad)
                },
            ));
        }
    }
    cases
}

pub(super) fn create_cases() -> Vec<Case> {
    const F: &str = "sinew_world_create";
    let mut cases = vec![
        case(F, "desc NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_create(std::ptr::null(), &mut c.out.world)
        }),
        case(F, "out_world NULL", SINEW_ERROR_NULL_POINTER, |_| unsafe {
            sinew_world_create(&sinew_world_desc_default(), std::ptr::null_mut())
        }),
        case(
            F,
            "desc all zero (no cookie)",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                // SAFETY: all-zero is a valid bit pattern for this plain struct.
                let d: SinewWorldDesc = unsafe { std::mem::zeroed() };
                unsafe { sinew_world_create(&d, &mut c.out.world) }
            },
        ),
        case(
            F,
            "desc with default fields but no cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let def = sinew_world_desc_default();
                let d = SinewWorldDesc {
                    internal_cookie: 0,
                    ..def
                };
                unsafe { sinew_world_create(&d, &mut c.out.world) }
            },
        ),
        case(
            F,
            "desc with a corrupted cookie",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let mut d = sinew_world_desc_default();
                d.internal_cookie ^= 1;
                unsafe { sinew_world_create(&d, &mut c.out.world) }
            },
        ),
    ];
    type Edit = fn(&mut SinewWorldDesc);
    let bad_fields: Vec<(&str, Edit)> = vec![
        ("substeps 0", |d| d.substeps = 0),
        ("substeps 1025", |d| d.substeps = 1025),
        ("substeps 2000", |d| d.substeps = 2000),
        ("substeps u32::MAX", |d| d.substeps = u32::MAX),
        ("iterations 0", |d| d.iterations = 0),
        ("iterations 2000", |d| d.iterations = 2000),
        ("solver 2", |d| d.solver = 2),
        ("solver 7", |d| d.solver = 7),
        ("profiling 2", |d| d.profiling = 2),
        ("solver u32::MAX", |d| d.solver = u32::MAX),
        ("jacobi_relaxation 0", |d| d.jacobi_relaxation = 0.0),
        ("jacobi_relaxation -1", |d| d.jacobi_relaxation = -1.0),
        ("jacobi_relaxation 2.5", |d| d.jacobi_relaxation = 2.5),
        ("jacobi_relaxation NaN", |d| d.jacobi_relaxation = f32::NAN),
        ("jacobi_relaxation inf", |d| {
            d.jacobi_relaxation = f32::INFINITY
        }),
        ("damping -1", |d| d.damping = -1.0),
        ("damping NaN", |d| d.damping = f32::NAN),
        ("damping inf", |d| d.damping = f32::INFINITY),
        ("damping 2e6", |d| d.damping = 2e6),
        ("gravity.x NaN", |d| d.gravity.x = f32::NAN),
        ("gravity.y -inf", |d| d.gravity.y = f32::NEG_INFINITY),
        ("gravity.z 2e6", |d| d.gravity.z = 2e6),
        ("threads 257", |d| d.threads = 257),
        ("threads u32::MAX", |d| d.threads = u32::MAX),
    ];
    for (label, edit) in bad_fields {
        cases.push(case(F, label, SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let mut d = sinew_world_desc_default();
            edit(&mut d);
            unsafe { sinew_world_create(&d, &mut c.out.world) }
        }));
    }
    cases
}

pub(super) fn desc_init_cases() -> Vec<Case> {
    vec![case(
        "sinew_world_desc_init",
        "out_desc NULL",
        SINEW_ERROR_NULL_POINTER,
        // SAFETY: NULL is the case under test.
        |_| unsafe { sinew_world_desc_init(std::ptr::null_mut()) },
    )]
}

pub(super) fn step_cases() -> Vec<Case> {
    let dts = [
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
        ("0", 0.0),
        ("-0", -0.0),
        ("-1/60", -DT),
        ("1e-7 (below 1e-6)", 1e-7),
        ("subnormal 1e-40", 1e-40),
        ("10.5 (above 10)", 10.5),
        ("f32::MAX", f32::MAX),
    ];
    dts.into_iter()
        .map(|(label, dt)| {
            case(
                "sinew_world_step",
                format!("dt {label}"),
                SINEW_ERROR_INVALID_ARGUMENT,
                move |c| sinew_world_step(c.world, dt),
            )
        })
        .collect()
}

pub(super) fn add_particles_cases() -> Vec<Case> {
    const F: &str = "sinew_world_add_particles";
    let mut cases = vec![
        case(F, "positions NULL", SINEW_ERROR_NULL_POINTER, |c| unsafe {
            sinew_world_add_particles(c.world, std::ptr::null(), std::ptr::null(), 1, c.out.u32())
        }),
        case(F, "out_first NULL", SINEW_ERROR_NULL_POINTER, |c| {
            let p = [v3(0.0, 1.0, 0.0)];
            unsafe {
                sinew_world_add_particles(
                    c.world,
                    p.as_ptr(),
                    std::ptr::null(),
                    1,
                    std::ptr::null_mut(),
                )
            }
        }),
        case(F, "count 0", SINEW_ERROR_INVALID_ARGUMENT, |c| {
            let p = [v3(0.0, 1.0, 0.0)];
            let inv = [1.0f32];
            unsafe { sinew_world_add_particles(c.world, p.as_ptr(), inv.as_ptr(), 0, c.out.u32()) }
        }),
        case(
            F,
            "count 0, inverse_masses NULL",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let p = [v3(0.0, 1.0, 0.0)];
                unsafe {
                    sinew_world_add_particles(c.world, p.as_ptr(), std::ptr::null(), 0, c.out.u32())
                }
            },
        ),
        case(
            F,
            "positions misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let p = Misaligned::new(&[v3(0.0, 1.0, 0.0)]);
                unsafe {
                    sinew_world_add_particles(c.world, p.ptr(), std::ptr::null(), 1, c.out.u32())
                }
            },
        ),
        case(
            F,
            "inverse_masses misaligned",
            SINEW_ERROR_INVALID_ARGUMENT,
            |c| {
                let p = [v3(0.0, 1.0, 0.0)];
                let inv = Misaligned::new(&[1.0f32]);
                unsafe { sinew_world_add_particles(c.world, p.as_ptr(), inv.ptr(), 1, c.out.u32()) }
            },
        ),
    ];
    // Absurd counts are refused before the buffer is touched (it holds one element).
    for count in [u32::MAX, (1u32 << 28) + 1] {
        cases.push(case(
            F,
            format!("count {count} over a one-element buffer"),
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| {
                let p = [v3(0.0, 1.0, 0.0)];
                unsafe {
                    sinew_world_add_particles(
                        c.world,
                        p.as_ptr(),
                        std::ptr::null(),
                        count,
                        c.out.u32(),
                    )
                }
            },
        ));
    }
    let bad_positions = [
        ("x NaN", v3(f32::NAN, 0.0, 0.0)),
        ("y +inf", v3(0.0, f32::INFINITY, 0.0)),
        ("z -inf", v3(0.0, 0.0, f32::NEG_INFINITY)),
        ("x 2e9 (beyond 1e9)", v3(2e9, 0.0, 0.0)),
    ];
    for (label, bad) in bad_positions {
        cases.push(case(
            F,
            format!("last of 3 positions {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let p = [v3(0.0, 1.0, 0.0), v3(0.0, 2.0, 0.0), bad];
                unsafe {
                    sinew_world_add_particles(c.world, p.as_ptr(), std::ptr::null(), 3, c.out.u32())
                }
            },
        ));
    }
    let bad_masses = [
        ("-1 (negative mass)", -1.0f32),
        ("-1e-30", -1e-30),
        ("NaN", f32::NAN),
        ("+inf", f32::INFINITY),
        ("-inf", f32::NEG_INFINITY),
    ];
    for (label, bad) in bad_masses {
        cases.push(case(
            F,
            format!("last of 3 inverse masses {label}"),
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let p = [v3(0.0, 1.0, 0.0), v3(0.0, 2.0, 0.0), v3(0.0, 3.0, 0.0)];
                let inv = [1.0f32, 0.0, bad];
                unsafe {
                    sinew_world_add_particles(c.world, p.as_ptr(), inv.as_ptr(), 3, c.out.u32())
                }
            },
        ));
    }
    cases
}

pub(super) fn count_cases() -> Vec<Case> {
    vec![
        case(
            "sinew_world_particle_count",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_particle_count(c.world, std::ptr::null_mut()) },
        ),
        case(
            "sinew_world_distance_constraint_count",
            "out_count NULL",
            SINEW_ERROR_NULL_POINTER,
            |c| unsafe { sinew_world_distance_constraint_count(c.world, std::ptr::null_mut()) },
        ),
    ]
}

/// Bad (first, count) pairs for a range over `n` items, with the status each gives.
/// Every count is small, so that the buffers passed are valid for it.
pub(super) fn bad_ranges(n: u32) -> Vec<(String, u32, u32, SinewStatus)> {
    vec![
        ("count 0".into(), 0, 0, SINEW_ERROR_INVALID_ARGUMENT),
        ("first n, count 1".into(), n, 1, SINEW_ERROR_OUT_OF_RANGE),
        (
            "first 0, count n+1".into(),
            0,
            n + 1,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "first n-1, count 2".into(),
            n - 1,
            2,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "first u32::MAX, count 1".into(),
            u32::MAX,
            1,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "first u32::MAX, count 2 (first+count overflows u32)".into(),
            u32::MAX,
            2,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
        (
            "first u32::MAX-1, count 3 (first+count overflows u32)".into(),
            u32::MAX - 1,
            3,
            SINEW_ERROR_OUT_OF_RANGE,
        ),
    ]
}

pub(super) type ReadFn =
    unsafe extern "C" fn(SinewWorld, u32, u32, *mut c_void, u32) -> SinewStatus;
pub(super) type WriteFn =
    unsafe extern "C" fn(SinewWorld, u32, u32, *const c_void, u32) -> SinewStatus;

/// A pointer so close to the top of the address space that the buffer would wrap.
pub(super) const TOP_OF_MEMORY: usize = usize::MAX - 7;

pub(super) fn strided_read_cases(f: &'static str, read: ReadFn) -> Vec<Case> {
    let mut cases = vec![
        case(f, "out NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            read(c.world, 0, 1, std::ptr::null_mut(), 12)
        }),
        case(
            f,
            "stride 0",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { read(c.world, 0, 1, c.out.bytes(), 0) },
        ),
        case(
            f,
            "stride 11",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { read(c.world, 0, 2, c.out.bytes(), 11) },
        ),
        case(
            f,
            "buffer wraps the address space",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe { read(c.world, 0, 2, TOP_OF_MEMORY as *mut c_void, 12) },
        ),
        // Unbounded strides: 4 GiB was accepted and wrote far past any real buffer.
        case(
            f,
            "stride 4 GiB - 1 (above SINEW_MAX_STRIDE_BYTES)",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { read(c.world, 0, 2, c.out.bytes(), u32::MAX) },
        ),
        case(
            f,
            "stride 1 MiB + 1 (above SINEW_MAX_STRIDE_BYTES)",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| unsafe { read(c.world, 0, 2, c.out.bytes(), (1 << 20) + 1) },
        ),
        // The range is checked before anything is written, so a huge count never
        // touches the (small) buffer.
        case(
            f,
            "first 1, count u32::MAX (first+count overflows u32)",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe { read(c.world, 1, u32::MAX, c.out.bytes(), 12) },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(N) {
        for stride in [12u32, 16] {
            cases.push(case(
                f,
                format!("{label}, stride {stride}"),
                expected,
                move |c| unsafe { read(c.world, first, count, c.out.bytes(), stride) },
            ));
        }
    }
    cases
}

pub(super) fn strided_write_cases(f: &'static str, write: WriteFn) -> Vec<Case> {
    let good = |k: usize| v3(0.01 * k as f32, -0.5, 0.25);
    let mut cases = vec![
        case(f, "input NULL", SINEW_ERROR_NULL_POINTER, move |c| unsafe {
            write(c.world, 0, 1, std::ptr::null(), 12)
        }),
        case(f, "stride 0", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let p = [good(0); 4];
            unsafe { write(c.world, 0, 1, p.as_ptr().cast(), 0) }
        }),
        case(f, "stride 11", SINEW_ERROR_INVALID_ARGUMENT, move |c| {
            let p = [good(0); 4];
            unsafe { write(c.world, 0, 2, p.as_ptr().cast(), 11) }
        }),
        case(
            f,
            "buffer wraps the address space",
            SINEW_ERROR_OUT_OF_RANGE,
            move |c| unsafe { write(c.world, 0, 2, TOP_OF_MEMORY as *const c_void, 12) },
        ),
        case(
            f,
            "stride 4 GiB - 1 (above SINEW_MAX_STRIDE_BYTES)",
            SINEW_ERROR_INVALID_ARGUMENT,
            move |c| {
                let p = [good(0); 4];
                unsafe { write(c.world, 0, 2, p.as_ptr().cast(), u32::MAX) }
            },
        ),
    ];
    for (label, first, count, expected) in bad_ranges(N) {
        cases.push(case(f, label, expected, move |c| {
            let p: Vec<SinewVec3> = (0..count.max(1) as usize).map(good).collect();
            unsafe { write(c.world, first, count, p.as_ptr().cast(), 12) }
        }));
    }
    let bad_values = [
        ("x NaN", v3(f32::NAN, 0.0, 0.0)),
        ("y +inf", v3(0.0, f32::INFINITY, 0.0)),
        ("z -inf", v3(0.0, 0.0, f32::NEG_INFINITY)),
        ("y -2e9 (beyond 1e9)", v3(0.0, -2e9, 0.0)),
    ];
    for (label, bad) in bad_values {
        // All-or-nothing: the first elements are fine, the last one is not.
        for stride in [12u32, 16] {
            cases.push(case(
                f,
                format!("last of {N} values {label}, stride {stride}"),
                SINEW_ERROR_INVALID_ARGUMENT,
                move |c| {
                    let per = stride as usize / 4;
                    let mut buf = vec![0f32; per * N as usize];
                    for k in 0..N as usize {
                        let v = if k + 1 == N as usize { bad } else { good(k) };
                        buf[per * k..per * k + 3].copy_from_slice(&[v.x, v.y, v.z]);
                    }
                    unsafe { write(c.world, 0, N, buf.as_ptr().cast(), stride) }
                },
            ));
        }
    }
    cases
}
