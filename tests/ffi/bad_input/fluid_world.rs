//! A world holding a fluid, and the values its fluid functions check (bad_input.rs's
//! checks on that world: status, message, nothing changed).
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

/// What the value cases get: the world, its rope, its live fluid (8 particles of 16),
/// an emitter and a kill volume of it, and stale handles of each kind (made and
/// removed while building the world).
#[derive(Clone, Copy)]
pub(super) struct FluidWorld {
    pub world: SinewWorld,
    pub rope: SinewBody,
    pub fluid: SinewFluid,
    pub emitter: SinewEmitter,
    pub volume: SinewKillVolume,
    pub stale_fluid: SinewFluid,
    pub stale_emitter: SinewEmitter,
    pub stale_volume: SinewKillVolume,
}

/// Eight particles of a 2 × 2 × 2 block, 5 cm apart, above the floor.
pub(super) fn block() -> Vec<SinewVec3> {
    let mut p = Vec::new();
    for k in 0..8 {
        p.push(v3(
            0.05 * (k & 1) as f32,
            1.0 + 0.05 * ((k >> 1) & 1) as f32,
            0.05 * (k >> 2) as f32,
        ));
    }
    p
}

/// A world with a rope, a fluid of capacity 16 holding 8 particles, a paused emitter,
/// a kill volume far below, stepped once.
pub(super) fn fluid_world() -> FluidWorld {
    let w = create(&test_desc());
    let mut fw = FluidWorld {
        world: w,
        rope: SinewBody::default(),
        fluid: SinewFluid::default(),
        emitter: SinewEmitter::default(),
        volume: SinewKillVolume::default(),
        stale_fluid: SinewFluid::default(),
        stale_emitter: SinewEmitter::default(),
        stale_volume: SinewKillVolume::default(),
    };
    // SAFETY: valid pointers.
    unsafe {
        let mut r = sinew_rope_desc_default();
        r.segments = 4;
        ok(sinew_world_add_rope(w, &r, &mut fw.rope), "rope");
        ok(
            sinew_world_add_fluid(w, &small_fluid_desc(), &mut fw.stale_fluid),
            "fluid to remove",
        );
        ok(sinew_fluid_remove(w, fw.stale_fluid), "remove fluid");
        ok(
            sinew_world_add_fluid(w, &small_fluid_desc(), &mut fw.fluid),
            "fluid",
        );
        let p = block();
        let mut first = 7u32;
        ok(
            sinew_fluid_emit(
                w,
                fw.fluid,
                p.as_ptr(),
                std::ptr::null(),
                p.len() as u32,
                &mut first,
            ),
            "emit",
        );
        assert_eq!(first, 0);
        let mut e = sinew_emitter_desc_default();
        e.rate = 0.0;
        e.position = v3(0.0, 2.0, 0.0);
        ok(
            sinew_fluid_add_emitter(w, fw.fluid, &e, &mut fw.stale_emitter),
            "emitter to remove",
        );
        ok(sinew_emitter_remove(w, fw.stale_emitter), "remove emitter");
        ok(
            sinew_fluid_add_emitter(w, fw.fluid, &e, &mut fw.emitter),
            "emitter",
        );
        let mut k = sinew_kill_volume_desc_default();
        k.center = v3(0.0, -50.0, 0.0);
        ok(
            sinew_fluid_add_kill_volume(w, fw.fluid, &k, &mut fw.stale_volume),
            "volume to remove",
        );
        ok(
            sinew_kill_volume_remove(w, fw.stale_volume),
            "remove volume",
        );
        ok(
            sinew_fluid_add_kill_volume(w, fw.fluid, &k, &mut fw.volume),
            "volume",
        );
    }
    ok(sinew_world_step(w, DT), "step");
    fw
}

/// Runs `call` with a second fluid world (its handles name the same slots and
/// generations as the fixture's), destroys it, and returns the call's status with
/// its message checked to say that the handle is another world's.
fn other_world(call: impl FnOnce(&FluidWorld) -> SinewStatus) -> SinewStatus {
    let other = fluid_world();
    let s = call(&other);
    let msg = last_error();
    assert!(msg.contains("issued by another world"), "{msg}");
    ok(sinew_world_destroy(other.world), "destroy the other world");
    // The message again, for the caller's checks (the destroy succeeded).
    assert_eq!(last_error(), msg);
    s
}

/// The body snapshot plus the fluid count, the fluid's desc, range and stats, its
/// particles as the readback sees them, and the rope's fluid force.
pub(super) fn fluid_snapshot(fw: &FluidWorld) -> Vec<u32> {
    let w = fw.world;
    let mut out = body_snapshot(w);
    // SAFETY: valid pointers and sizes.
    unsafe {
        let mut n = 0u32;
        ok(sinew_world_fluid_count(w, &mut n), "fluid count");
        out.push(n);
        let mut d = sinew_fluid_desc_default();
        ok(sinew_fluid_get_desc(w, fw.fluid, &mut d), "get desc");
        out.extend([
            d.rest_density.to_bits(),
            d.spacing.to_bits(),
            d.smoothing_radius.to_bits(),
            d.capacity,
            d.relaxation.to_bits(),
            d.scorr_k.to_bits(),
            d.scorr_n,
            d.scorr_dq.to_bits(),
            d.viscosity.to_bits(),
            d.vorticity.to_bits(),
            d.cohesion.to_bits(),
            d.adhesion.to_bits(),
            d.collision_radius.to_bits(),
            d.lifetime.to_bits(),
            d.recycle_oldest,
            d.coupling_mask,
        ]);
        let (mut first, mut cap) = (0u32, 0u32);
        ok(
            sinew_fluid_particle_range(w, fw.fluid, &mut first, &mut cap),
            "range",
        );
        out.extend([first, cap]);
        let mut s = SinewFluidStats::default();
        ok(sinew_fluid_stats(w, fw.fluid, &mut s), "stats");
        out.extend([s.count, s.capacity]);
        for c in [s.emitted, s.removed, s.refused] {
            out.extend([c as u32, (c >> 32) as u32]);
        }
        out.extend([
            s.mean_density_ratio.to_bits(),
            s.max_density_ratio.to_bits(),
        ]);
        let mut p = vec![v3(0.0, 0.0, 0.0); cap as usize];
        let mut v = vec![v3(0.0, 0.0, 0.0); cap as usize];
        let mut r = vec![0f32; cap as usize];
        let mut count = 0u32;
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                0.5,
                cap,
                p.as_mut_ptr().cast(),
                12,
                v.as_mut_ptr().cast(),
                12,
                r.as_mut_ptr().cast(),
                4,
                &mut count,
            ),
            "read particles",
        );
        out.push(count);
        for k in 0..count as usize {
            out.extend([p[k].x, p[k].y, p[k].z, v[k].x, v[k].y, v[k].z, r[k]].map(f32::to_bits));
        }
        let mut f = v3(0.0, 0.0, 0.0);
        ok(sinew_body_fluid_force(w, fw.rope, &mut f), "fluid force");
        out.extend([f.x, f.y, f.z].map(f32::to_bits));
    }
    out
}

pub(super) type FluidCall = Box<dyn Fn(&FluidWorld) -> SinewStatus>;

pub(super) fn fluid_call(
    function: &'static str,
    label: impl Into<String>,
    expected: SinewStatus,
    call: impl Fn(&FluidWorld) -> SinewStatus + 'static,
) -> (&'static str, String, SinewStatus, FluidCall) {
    (function, label.into(), expected, Box::new(call))
}

pub(super) fn fluid_value_calls() -> Vec<(&'static str, String, SinewStatus, FluidCall)> {
    let mut calls = vec![
        fluid_call(
            "sinew_fluid_emit",
            "past the free capacity (9 of 8 free)",
            SINEW_ERROR_OUT_OF_RANGE,
            |fw| unsafe {
                let p: Vec<_> = (0..9).map(|k| v3(0.1 * k as f32, 2.0, 0.0)).collect();
                let mut first = 7u32;
                let s = sinew_fluid_emit(
                    fw.world,
                    fw.fluid,
                    p.as_ptr(),
                    std::ptr::null(),
                    9,
                    &mut first,
                );
                assert_eq!(first, 7, "out_first untouched");
                s
            },
        ),
        fluid_call(
            "sinew_fluid_emit",
            "NaN position",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let p = [v3(0.0, 2.0, 0.0), v3(f32::NAN, 2.0, 0.0)];
                let mut first = 7u32;
                sinew_fluid_emit(
                    fw.world,
                    fw.fluid,
                    p.as_ptr(),
                    std::ptr::null(),
                    2,
                    &mut first,
                )
            },
        ),
        fluid_call(
            "sinew_fluid_emit",
            "position beyond 1e9",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let p = [v3(0.0, 2e9, 0.0)];
                let mut first = 7u32;
                sinew_fluid_emit(
                    fw.world,
                    fw.fluid,
                    p.as_ptr(),
                    std::ptr::null(),
                    1,
                    &mut first,
                )
            },
        ),
        fluid_call(
            "sinew_fluid_emit",
            "infinite velocity",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let p = [v3(0.0, 2.0, 0.0), v3(0.1, 2.0, 0.0)];
                let v = [v3(0.0, 0.0, 0.0), v3(0.0, f32::NEG_INFINITY, 0.0)];
                let mut first = 7u32;
                sinew_fluid_emit(fw.world, fw.fluid, p.as_ptr(), v.as_ptr(), 2, &mut first)
            },
        ),
        fluid_call(
            "sinew_fluid_emit",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let p = [v3(0.0, 2.0, 0.0)];
                let mut first = 7u32;
                sinew_fluid_emit(
                    fw.world,
                    fw.stale_fluid,
                    p.as_ptr(),
                    std::ptr::null(),
                    1,
                    &mut first,
                )
            },
        ),
        fluid_call(
            "sinew_fluid_set_desc",
            "capacity changed",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let mut d = small_fluid_desc();
                d.capacity = 32;
                sinew_fluid_set_desc(fw.world, fw.fluid, &d)
            },
        ),
        fluid_call(
            "sinew_fluid_set_desc",
            "spacing changed",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| unsafe {
                let mut d = small_fluid_desc();
                d.spacing = 0.04;
                sinew_fluid_set_desc(fw.world, fw.fluid, &d)
            },
        ),
        fluid_call(
            "sinew_fluid_set_desc",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe { sinew_fluid_set_desc(fw.world, fw.stale_fluid, &small_fluid_desc()) },
        ),
        fluid_call(
            "sinew_fluid_remove",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_fluid_remove(fw.world, fw.stale_fluid),
        ),
        fluid_call(
            "sinew_fluid_clear",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_fluid_clear(fw.world, fw.stale_fluid),
        ),
        fluid_call(
            "sinew_fluid_stats",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut s = SinewFluidStats {
                    count: 7,
                    ..SinewFluidStats::default()
                };
                let st = sinew_fluid_stats(fw.world, fw.stale_fluid, &mut s);
                assert_eq!(s.count, 7, "output untouched");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_get_desc",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut d = sinew_fluid_desc_default();
                d.capacity = 7;
                let st = sinew_fluid_get_desc(fw.world, fw.stale_fluid, &mut d);
                assert_eq!(d.capacity, 7, "output untouched");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_particle_range",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let (mut a, mut b) = (7u32, 7u32);
                let st = sinew_fluid_particle_range(fw.world, fw.stale_fluid, &mut a, &mut b);
                assert_eq!((a, b), (7, 7), "outputs untouched");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_add_emitter",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut e = SinewEmitter { id: 7 };
                let st = sinew_fluid_add_emitter(
                    fw.world,
                    fw.stale_fluid,
                    &sinew_emitter_desc_default(),
                    &mut e,
                );
                assert_eq!(e.id, 7, "output untouched");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_add_kill_volume",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut k = SinewKillVolume { id: 7 };
                let st = sinew_fluid_add_kill_volume(
                    fw.world,
                    fw.stale_fluid,
                    &sinew_kill_volume_desc_default(),
                    &mut k,
                );
                assert_eq!(k.id, 7, "output untouched");
                st
            },
        ),
        fluid_call(
            "sinew_emitter_set",
            "stale emitter",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                sinew_emitter_set(fw.world, fw.stale_emitter, &sinew_emitter_desc_default())
            },
        ),
        fluid_call(
            "sinew_emitter_remove",
            "stale emitter",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_emitter_remove(fw.world, fw.stale_emitter),
        ),
        fluid_call(
            "sinew_kill_volume_remove",
            "stale kill volume",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_kill_volume_remove(fw.world, fw.stale_volume),
        ),
        // Issue 28 item 10: handles of every kind carry their world's serial. Another
        // fluid world holds a fluid, an emitter and a kill volume in the same slots
        // with the same generations; its handles are refused here, saying why.
        fluid_call(
            "sinew_fluid_clear",
            "another world's fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| other_world(|o| sinew_fluid_clear(fw.world, o.fluid)),
        ),
        fluid_call(
            "sinew_emitter_set",
            "another world's emitter",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| {
                other_world(|o| unsafe {
                    sinew_emitter_set(fw.world, o.emitter, &sinew_emitter_desc_default())
                })
            },
        ),
        fluid_call(
            "sinew_kill_volume_remove",
            "another world's kill volume",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| other_world(|o| sinew_kill_volume_remove(fw.world, o.volume)),
        ),
        fluid_call(
            "sinew_fluid_read_particles",
            "capacity 7 below 8 live particles",
            SINEW_ERROR_OUT_OF_RANGE,
            |fw| unsafe {
                let mut p = [v3(7.0, 7.0, 7.0); 16];
                let mut r = [7f32; 16];
                let mut n = 7u32;
                let st = sinew_fluid_read_particles(
                    fw.world,
                    fw.fluid,
                    1.0,
                    7,
                    p.as_mut_ptr().cast(),
                    12,
                    std::ptr::null_mut(),
                    0,
                    r.as_mut_ptr().cast(),
                    4,
                    &mut n,
                );
                assert!(p.iter().all(|q| *q == v3(7.0, 7.0, 7.0)), "untouched");
                assert!(r.iter().all(|&x| x == 7.0) && n == 7, "untouched");
                let m = last_error();
                assert!(m.contains('7') && m.contains('8'), "names both: {m}");
                st
            },
        ),
        fluid_call(
            "sinew_fluid_read_particles",
            "stale fluid",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut p = [v3(7.0, 7.0, 7.0); 16];
                let mut n = 7u32;
                let st = sinew_fluid_read_particles(
                    fw.world,
                    fw.stale_fluid,
                    1.0,
                    16,
                    p.as_mut_ptr().cast(),
                    12,
                    std::ptr::null_mut(),
                    0,
                    std::ptr::null_mut(),
                    0,
                    &mut n,
                );
                assert!(p.iter().all(|q| *q == v3(7.0, 7.0, 7.0)) && n == 7);
                st
            },
        ),
        fluid_call(
            "sinew_body_set_fluid_coupling",
            "enabled 7",
            SINEW_ERROR_INVALID_ARGUMENT,
            |fw| sinew_body_set_fluid_coupling(fw.world, fw.rope, 7),
        ),
        fluid_call(
            "sinew_body_set_fluid_coupling",
            "forged body",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| sinew_body_set_fluid_coupling(fw.world, FORGED_BODY, 1),
        ),
        fluid_call(
            "sinew_body_fluid_force",
            "forged body",
            SINEW_ERROR_INVALID_HANDLE,
            |fw| unsafe {
                let mut f = v3(7.0, 7.0, 7.0);
                let st = sinew_body_fluid_force(fw.world, FORGED_BODY, &mut f);
                assert_eq!(f, v3(7.0, 7.0, 7.0), "output untouched");
                st
            },
        ),
    ];
    calls.extend(fluid_particle_edit_calls());
    for (label, edit) in bad_fluid_descs() {
        calls.push(fluid_call(
            "sinew_fluid_set_desc",
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |fw| unsafe {
                let mut d = small_fluid_desc();
                edit(&mut d);
                sinew_fluid_set_desc(fw.world, fw.fluid, &d)
            },
        ));
    }
    for (label, edit) in bad_emitter_descs() {
        calls.push(fluid_call(
            "sinew_fluid_add_emitter",
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |fw| unsafe {
                let mut d = sinew_emitter_desc_default();
                edit(&mut d);
                let mut e = SinewEmitter { id: 7 };
                let st = sinew_fluid_add_emitter(fw.world, fw.fluid, &d, &mut e);
                assert_eq!(e.id, 7, "output untouched");
                st
            },
        ));
        calls.push(fluid_call(
            "sinew_emitter_set",
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |fw| unsafe {
                let mut d = sinew_emitter_desc_default();
                edit(&mut d);
                sinew_emitter_set(fw.world, fw.emitter, &d)
            },
        ));
    }
    for (label, edit) in bad_volume_descs() {
        calls.push(fluid_call(
            "sinew_fluid_add_kill_volume",
            label,
            SINEW_ERROR_INVALID_ARGUMENT,
            move |fw| unsafe {
                let mut d = sinew_kill_volume_desc_default();
                edit(&mut d);
                let mut k = SinewKillVolume { id: 7 };
                let st = sinew_fluid_add_kill_volume(fw.world, fw.fluid, &d, &mut k);
                assert_eq!(k.id, 7, "output untouched");
                st
            },
        ));
    }
    calls
}
