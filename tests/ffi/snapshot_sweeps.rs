//! Through the C ABI: a world with attachments and tethers on shared particles saves a
//! snapshot that another world restores and steps; the same snapshot with one tether
//! forged to name a particle twice (resealed, so only the loader can catch it) is
//! refused by the restore with SINEW_ERROR_INVALID_ARGUMENT and a message, and never
//! reaches the step as SINEW_ERROR_INTERNAL.

use sinew::ffi::attachments::{
    sinew_world_add_attachment_host, sinew_world_add_attachments, SinewTransform,
};
use sinew::ffi::families::sinew_world_add_tethers;
use sinew::ffi::particles::sinew_world_add_particles;
use sinew::ffi::snapshot::{
    sinew_world_create_from_snapshot, sinew_world_restore_snapshot, sinew_world_save_snapshot,
    sinew_world_snapshot_size,
};
use sinew::ffi::world::{
    sinew_world_create, sinew_world_desc_default, sinew_world_destroy, sinew_world_step, SinewQuat,
    SinewVec3, SinewWorld,
};
use sinew::ffi::SinewStatus::*;
use sinew::{seal_snapshot as seal, SNAPSHOT_HEADER_BYTES as HEADER_BYTES};

use crate::bad_input::{last_error, ok};

/// A world of 16 particles in a line; with `tethered`, tethers sharing particles
/// (added in two calls) and attachments on tethered particles, stepped once.
fn world(tethered: bool) -> SinewWorld {
    let mut world = SinewWorld::default();
    let mut desc = sinew_world_desc_default();
    desc.threads = 1;
    let positions: Vec<SinewVec3> = (0..16)
        .map(|i| SinewVec3 {
            x: 0.1 * i as f32,
            y: 0.0,
            z: 0.0,
        })
        .collect();
    let (mut first, mut host) = (0u32, 0u32);
    let t = SinewTransform {
        position: SinewVec3 {
            x: 0.0,
            y: 1.0,
            z: 0.0,
        },
        rotation: SinewQuat {
            w: 1.0,
            ..SinewQuat::default()
        },
    };
    // SAFETY: valid pointers to locals; the arrays hold the counts passed.
    unsafe {
        ok(sinew_world_create(&desc, &mut world), "create");
        ok(
            sinew_world_add_particles(world, positions.as_ptr(), std::ptr::null(), 16, &mut first),
            "particles",
        );
        if tethered {
            let a: [u32; 8] = [0, 5, 1, 5, 0, 6, 5, 6];
            ok(
                sinew_world_add_tethers(world, a.as_ptr(), std::ptr::null(), 4, 0.0, &mut first),
                "tethers",
            );
            let b: [u32; 6] = [1, 6, 12, 13, 6, 5];
            ok(
                sinew_world_add_tethers(world, b.as_ptr(), std::ptr::null(), 3, 1e-6, &mut first),
                "tethers",
            );
            ok(
                sinew_world_add_attachment_host(world, &t, &mut host),
                "host",
            );
            let p: [u32; 3] = [5, 6, 13];
            ok(
                sinew_world_add_attachments(
                    world,
                    host,
                    p.as_ptr(),
                    std::ptr::null(),
                    3,
                    0.0,
                    &mut first,
                ),
                "attachments",
            );
        }
        ok(sinew_world_step(world, 1.0 / 60.0), "step");
    }
    world
}

fn snapshot(w: SinewWorld) -> Vec<u8> {
    let mut size = 0u64;
    // SAFETY: valid pointers; the buffer holds `size` bytes.
    unsafe {
        ok(sinew_world_snapshot_size(w, &mut size), "size");
        let mut b = vec![0u8; size as usize];
        let mut written = 0;
        ok(
            sinew_world_save_snapshot(w, b.as_mut_ptr(), size, &mut written),
            "save",
        );
        b.truncate(written as usize);
        b
    }
}

#[test]
fn a_tether_forged_to_name_a_particle_twice_is_refused_by_the_restore() {
    let source = world(true);
    let snap = snapshot(source);
    // The tether [12, 13] (the only such pair) forged into [12, 12], resealed.
    let from: Vec<u8> = [12u32, 13].iter().flat_map(|x| x.to_le_bytes()).collect();
    let body = &snap[HEADER_BYTES..];
    let at: Vec<usize> = (0..body.len() - from.len())
        .filter(|&i| body[i..i + from.len()] == from[..])
        .collect();
    assert_eq!(at.len(), 1, "the pair occurs {} times", at.len());
    let mut forged = body.to_vec();
    forged[at[0] + 4..at[0] + 8].copy_from_slice(&12u32.to_le_bytes());
    let forged = seal(&forged);
    let target = world(false);
    // SAFETY: valid pointers; the buffers hold the sizes passed.
    unsafe {
        let status = sinew_world_restore_snapshot(target, forged.as_ptr(), forged.len() as u64);
        assert_eq!(status, SINEW_ERROR_INVALID_ARGUMENT, "{}", last_error());
        let message = last_error();
        assert!(
            message.contains("tether") && message.contains("twice"),
            "{message}"
        );
        let mut made = SinewWorld::default();
        let status =
            sinew_world_create_from_snapshot(forged.as_ptr(), forged.len() as u64, 1, &mut made);
        assert_eq!(status, SINEW_ERROR_INVALID_ARGUMENT, "{}", last_error());
        // The refused restore left the target whole; the true snapshot restores and steps.
        ok(
            sinew_world_step(target, 1.0 / 60.0),
            "step after the refusal",
        );
        ok(
            sinew_world_restore_snapshot(target, snap.as_ptr(), snap.len() as u64),
            "restore",
        );
        for _ in 0..3 {
            ok(
                sinew_world_step(target, 1.0 / 60.0),
                "step after the restore",
            );
        }
        ok(sinew_world_destroy(target), "destroy");
        ok(sinew_world_destroy(source), "destroy");
    }
}
