//! Fluid values and particle edits checked on a world holding a fluid, and the strided
//! readback of fluid particles.
//!
//! SAFETY (every `unsafe` call in these tables): each pointer passed is valid for the
//! count passed beside it, or NULL on purpose where the case's name says so (the ABI
//! checks for NULL before any read or write); handles may be stale or forged on
//! purpose, which the ABI checks by generation and never dereferences.

use super::*;

/// The fluid's reserved particles: (first, capacity).
fn fluid_range(fw: &FluidWorld) -> (u32, u32) {
    let (mut first, mut cap) = (0u32, 0u32);
    // SAFETY: valid pointers.
    ok(
        unsafe { sinew_fluid_particle_range(fw.world, fw.fluid, &mut first, &mut cap) },
        "range",
    );
    (first, cap)
}

/// Plain particle edits by index on the fluid's particles (live, not yet emitted, or a
/// range straddling the particles before them): refused, since the fluid sets their
/// mass, radius and filter itself and moves its particles between slots.
pub(super) fn fluid_particle_edit_calls() -> Vec<(&'static str, String, SinewStatus, FluidCall)> {
    const BAD: SinewStatus = SINEW_ERROR_INVALID_ARGUMENT;
    let mut calls = Vec::new();
    // (label, offset from the fluid's first particle, count)
    let ranges: [(&str, i64, u32); 3] = [
        ("live fluid particles", 2, 3),
        ("fluid particles not emitted yet", 12, 4),
        ("a range ending in the fluid's first particle", -3, 4),
    ];
    for (label, offset, count) in ranges {
        let at = move |fw: &FluidWorld| (fluid_range(fw).0 as i64 + offset) as u32;
        calls.push(fluid_call(
            "sinew_world_set_particle_radii",
            label,
            BAD,
            move |fw| unsafe {
                let r = vec![0.01f32; count as usize];
                sinew_world_set_particle_radii(fw.world, at(fw), count, r.as_ptr())
            },
        ));
        calls.push(fluid_call(
            "sinew_world_set_inverse_masses",
            label,
            BAD,
            move |fw| unsafe {
                let w = vec![2.0f32; count as usize];
                sinew_world_set_inverse_masses(fw.world, at(fw), count, w.as_ptr())
            },
        ));
        calls.push(fluid_call(
            "sinew_world_set_collision_filters",
            label,
            BAD,
            move |fw| unsafe {
                let f = SinewCollisionFilter {
                    group: 0,
                    layers: 1,
                    mask: u32::MAX,
                    self_collision: 0,
                };
                let f = vec![f; count as usize];
                sinew_world_set_collision_filters(fw.world, at(fw), count, f.as_ptr())
            },
        ));
        calls.push(fluid_call(
            "sinew_world_set_unyielding",
            label,
            BAD,
            move |fw| unsafe {
                let u = vec![0.5f32; count as usize];
                sinew_world_set_unyielding(fw.world, at(fw), count, u.as_ptr())
            },
        ));
    }
    let places = [
        ("a live fluid particle", 0u32),
        ("a fluid particle not emitted yet", 9),
    ];
    // Constraints naming a fluid particle: the constraint would hold another particle
    // once the fluid moves its last live particle into a removed one's slot.
    for (label, offset) in places {
        calls.push(fluid_call(
            "sinew_world_add_distance_constraints",
            format!("a pair with {label}"),
            BAD,
            move |fw| unsafe {
                let pairs = [1u32, 2, 3, fluid_range(fw).0 + offset];
                let mut first = 7u32;
                let st = sinew_world_add_distance_constraints(
                    fw.world,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    2,
                    0.0,
                    &mut first,
                );
                assert_eq!(first, 7, "out_first untouched");
                st
            },
        ));
        calls.push(fluid_call(
            "sinew_world_add_tethers",
            format!("a pair with {label}"),
            BAD,
            move |fw| unsafe {
                let pairs = [fluid_range(fw).0 + offset, 1u32];
                let mut first = 7u32;
                let st = sinew_world_add_tethers(
                    fw.world,
                    pairs.as_ptr(),
                    std::ptr::null(),
                    1,
                    0.0,
                    &mut first,
                );
                assert_eq!(first, 7, "out_first untouched");
                st
            },
        ));
    }
    for (label, offset) in places {
        calls.push(fluid_call(
            "sinew_world_grab_particle",
            label,
            BAD,
            move |fw| unsafe {
                let target = v3(0.0, 3.0, 0.0);
                sinew_world_grab_particle(fw.world, fluid_range(fw).0 + offset, &target, 0.0)
            },
        ));
    }
    calls
}

/// Values on a world holding a fluid: each bad call returns its status and a message
/// naming the function, writes no output, changes nothing (bodies, fluid desc, stats,
/// particles), and one more step equals the step of an untouched control world.
#[test]
fn fluid_values_are_checked_and_change_nothing() {
    let mut failures = Vec::new();
    let calls = fluid_value_calls();
    for (function, label, expected, call) in &calls {
        let fw = fluid_world();
        let control = fluid_world();
        let before = fluid_snapshot(&fw);
        assert_eq!(before, fluid_snapshot(&control), "fixture is deterministic");
        let primed = prime_last_error(function);
        let s = call(&fw);
        let msg = last_error();
        if s != *expected {
            failures.push(format!(
                "{function} [{label}]: {s:?}, expected {expected:?}: {msg}"
            ));
        } else if !msg.starts_with(&format!("{function}: ")) || msg == primed {
            failures.push(format!("{function} [{label}]: message {msg:?}"));
        } else if fluid_snapshot(&fw) != before {
            failures.push(format!("{function} [{label}] changed the world"));
        } else {
            ok(sinew_world_step(fw.world, DT), "step");
            ok(sinew_world_step(control.world, DT), "step");
            if fluid_snapshot(&fw) != fluid_snapshot(&control) {
                failures.push(format!("{function} [{label}]: hidden state changed"));
            }
        }
        ok(sinew_world_destroy(fw.world), "destroy");
        ok(sinew_world_destroy(control.world), "destroy");
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        calls.len(),
        failures.join("\n")
    );
}

/// The readback writes exactly the live particles, at any stride and through any
/// subset of its buffers, the same values each way; alpha 0 and 1 give the positions
/// before and after the last step (the plain position readback of the fluid's range).
#[test]
fn read_particles_writes_strided_buffers() {
    let fw = fluid_world();
    let w = fw.world;
    // SAFETY: every buffer is as large as the capacity and stride passed.
    unsafe {
        let (mut first, mut cap) = (0u32, 0u32);
        ok(
            sinew_fluid_particle_range(w, fw.fluid, &mut first, &mut cap),
            "range",
        );
        assert_eq!(cap, 16);
        let mut current = vec![v3(0.0, 0.0, 0.0); 8];
        ok(
            sinew_world_read_positions(w, first, 8, current.as_mut_ptr().cast(), 12),
            "positions",
        );
        let mut vel = vec![v3(0.0, 0.0, 0.0); 8];
        ok(
            sinew_world_read_velocities(w, first, 8, vel.as_mut_ptr().cast(), 12),
            "velocities",
        );
        // Interleaved: position, velocity, density, pad (32 bytes per particle).
        let mut inter = vec![-7f32; 8 * 8 + 1];
        let base = inter.as_mut_ptr().cast::<u8>().add(4);
        let mut n = 0u32;
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                1.0,
                8,
                base.cast(),
                32,
                base.add(12).cast(),
                32,
                base.add(24).cast(),
                32,
                &mut n,
            ),
            "interleaved read",
        );
        assert_eq!(n, 8);
        for k in 0..8 {
            let e = &inter[1 + 8 * k..1 + 8 * (k + 1)];
            assert_eq!(v3(e[0], e[1], e[2]), current[k], "position {k}");
            assert_eq!(v3(e[3], e[4], e[5]), vel[k], "velocity {k}");
            assert!(
                e[6].is_finite() && e[6] >= 0.0,
                "density ratio {k}: {}",
                e[6]
            );
            assert_eq!(e[7], -7.0, "padding of particle {k} untouched");
        }
        assert_eq!(inter[0], -7.0);
        // Densities alone, packed.
        let mut r = vec![-7f32; 9];
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                1.0,
                8,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                r.as_mut_ptr().cast(),
                4,
                &mut n,
            ),
            "densities",
        );
        for k in 0..8 {
            assert_eq!(r[k].to_bits(), inter[1 + 8 * k + 6].to_bits());
        }
        assert_eq!(r[8], -7.0, "nothing past the live count");
        // No buffer at all: the count.
        n = 0;
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                0.0,
                0,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                &mut n,
            ),
            "count only",
        );
        assert_eq!(n, 8);
        // alpha 0 is the state before the last step (the emitted block, at rest).
        let mut before = vec![v3(0.0, 0.0, 0.0); 8];
        ok(
            sinew_fluid_read_particles(
                w,
                fw.fluid,
                0.0,
                8,
                before.as_mut_ptr().cast(),
                12,
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                0,
                &mut n,
            ),
            "alpha 0",
        );
        assert_eq!(before, block());
    }
    ok(sinew_world_destroy(w), "destroy");
}
