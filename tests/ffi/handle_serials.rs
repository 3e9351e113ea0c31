//! Issue 28 item 10: handles of every kind a world holds (bodies, colliders, fluids,
//! emitters, kill volumes) carry their world's serial and follow one rule, the
//! header's "Handles" paragraph: another world's handle is refused, a restore keeps
//! the target's serial (its handles name what the snapshot holds in their slots), a
//! world created from a snapshot takes the saving world's serial.

use sinew::ffi::bodies::{
    sinew_body_info, sinew_rope_desc_default, sinew_world_add_rope, SinewBody, SinewBodyInfo,
};
use sinew::ffi::collision::{
    sinew_collider_desc_default, sinew_collider_set_material, sinew_world_add_collider,
    sinew_world_read_contacts, SinewCollider, SinewContact,
};
use sinew::ffi::fluids::{
    sinew_emitter_desc_default, sinew_emitter_remove, sinew_emitter_set, sinew_fluid_add_emitter,
    sinew_fluid_add_kill_volume, sinew_fluid_desc_default, sinew_fluid_get_desc,
    sinew_kill_volume_desc_default, sinew_kill_volume_remove, sinew_world_add_fluid, SinewEmitter,
    SinewFluid, SinewKillVolume,
};
use sinew::ffi::particles::sinew_world_add_particles;
use sinew::ffi::snapshot::{
    sinew_world_create_from_snapshot, sinew_world_restore_snapshot, sinew_world_save_snapshot,
    sinew_world_snapshot_size,
};
use sinew::ffi::world::{
    sinew_world_create, sinew_world_desc_default, sinew_world_destroy, sinew_world_step, SinewVec3,
    SinewWorld,
};
use sinew::ffi::SinewStatus::{self, *};

use crate::bad_input::{last_error, ok};

fn info0() -> SinewBodyInfo {
    SinewBodyInfo {
        kind: 0,
        first_particle: 0,
        particle_count: 0,
        radius: 0.0,
        damping: 0.0,
    }
}

/// One handle of each kind.
#[derive(Clone, Copy, Debug)]
struct Handles {
    world: SinewWorld,
    rope: SinewBody,
    collider: SinewCollider,
    fluid: SinewFluid,
    emitter: SinewEmitter,
    volume: SinewKillVolume,
}

/// A world with a rope of `segments` links, a plane collider with a particle resting
/// in it (a contact after a step), a fluid of `capacity` with an emitter and a kill
/// volume, stepped once: every world built so holds its items in the same slots with
/// the same generations.
fn build(segments: u32, capacity: u32) -> Handles {
    let mut world = SinewWorld::default();
    let desc = sinew_world_desc_default();
    // SAFETY: valid pointers to locals.
    unsafe {
        ok(sinew_world_create(&desc, &mut world), "create");
        let mut h = Handles {
            world,
            rope: SinewBody::default(),
            collider: SinewCollider::default(),
            fluid: SinewFluid::default(),
            emitter: SinewEmitter::default(),
            volume: SinewKillVolume::default(),
        };
        let mut rope = sinew_rope_desc_default();
        rope.segments = segments;
        ok(sinew_world_add_rope(world, &rope, &mut h.rope), "rope");
        let c = sinew_collider_desc_default();
        ok(
            sinew_world_add_collider(world, &c, &mut h.collider),
            "collider",
        );
        let p = [SinewVec3 {
            x: 5.0,
            y: -0.01,
            z: 0.0,
        }];
        let mut first = 0;
        ok(
            sinew_world_add_particles(world, p.as_ptr(), [1.0f32].as_ptr(), 1, &mut first),
            "particle",
        );
        let mut f = sinew_fluid_desc_default();
        f.capacity = capacity;
        ok(sinew_world_add_fluid(world, &f, &mut h.fluid), "fluid");
        let mut e = sinew_emitter_desc_default();
        e.rate = 0.0;
        ok(
            sinew_fluid_add_emitter(world, h.fluid, &e, &mut h.emitter),
            "emitter",
        );
        let k = sinew_kill_volume_desc_default();
        ok(
            sinew_fluid_add_kill_volume(world, h.fluid, &k, &mut h.volume),
            "kill volume",
        );
        ok(sinew_world_step(world, 1.0 / 60.0), "step");
        h
    }
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

/// The status of a call through each kind of `of`'s handles on `world`, with the
/// error message when it failed (kind name first). Nothing is changed by a call that
/// succeeds either: each sets what the item already has, or reads.
fn use_each(world: SinewWorld, of: &Handles) -> Vec<(&'static str, SinewStatus, String)> {
    let mut out = Vec::new();
    let mut record = |kind, s: SinewStatus| {
        let msg = if s == SINEW_OK {
            String::new()
        } else {
            last_error()
        };
        out.push((kind, s, msg));
    };
    // SAFETY: valid pointers to locals.
    unsafe {
        let mut info = info0();
        record("body", sinew_body_info(world, of.rope, &mut info));
        record(
            "collider",
            sinew_collider_set_material(world, of.collider, 0.0, 0.0, 0.0),
        );
        let mut d = sinew_fluid_desc_default();
        record("fluid", sinew_fluid_get_desc(world, of.fluid, &mut d));
        let mut e = sinew_emitter_desc_default();
        e.rate = 0.0;
        record("emitter", sinew_emitter_set(world, of.emitter, &e));
    }
    out
}

/// Asserts that `world` refuses every kind of `of`'s handles as another world's.
fn refuses_all(world: SinewWorld, of: &Handles, when: &str) {
    for (kind, s, msg) in use_each(world, of) {
        assert_eq!(s, SINEW_ERROR_INVALID_HANDLE, "{when}: {kind}");
        assert!(
            msg.contains("issued by another world"),
            "{when}: {kind}: {msg}"
        );
    }
    assert_eq!(
        sinew_kill_volume_remove(world, of.volume),
        SINEW_ERROR_INVALID_HANDLE,
        "{when}: kill volume"
    );
    assert!(last_error().contains("issued by another world"));
}

/// Asserts that `world` accepts every kind of `of`'s handles.
fn accepts_all(world: SinewWorld, of: &Handles, when: &str) {
    for (kind, s, msg) in use_each(world, of) {
        assert_eq!(s, SINEW_OK, "{when}: {kind}: {msg}");
    }
}

fn particle_count(world: SinewWorld, rope: SinewBody) -> u32 {
    let mut info = info0();
    // SAFETY: valid pointer.
    ok(unsafe { sinew_body_info(world, rope, &mut info) }, "info");
    info.particle_count
}

fn fluid_capacity(world: SinewWorld, fluid: SinewFluid) -> u32 {
    let mut d = sinew_fluid_desc_default();
    // SAFETY: valid pointer.
    ok(
        unsafe { sinew_fluid_get_desc(world, fluid, &mut d) },
        "desc",
    );
    d.capacity
}

/// The collider ids of the last step's contacts, deduplicated (the plane is the only
/// collider).
fn contact_colliders(world: SinewWorld) -> Vec<u64> {
    let mut c = [SinewContact::default(); 8];
    let mut n = 0;
    // SAFETY: a buffer of 8 contacts.
    ok(
        unsafe { sinew_world_read_contacts(world, c.as_mut_ptr(), 8, &mut n) },
        "contacts",
    );
    let mut ids: Vec<u64> = c[..n as usize].iter().map(|c| c.collider.id).collect();
    ids.dedup();
    ids
}

/// Two worlds with items in the same slots and generations: each refuses the other's
/// handles of every kind, with a message saying they are another world's.
#[test]
fn every_kind_is_refused_by_another_world() {
    let (a, b) = (build(4, 50), build(8, 70));
    for (x, y) in [(a.rope.id, b.rope.id), (a.collider.id, b.collider.id)] {
        assert_eq!(
            x & ((1 << 44) - 1),
            y & ((1 << 44) - 1),
            "same slot, generation"
        );
        assert_ne!(x >> 44, y >> 44, "another serial");
    }
    accepts_all(a.world, &a, "own world");
    refuses_all(b.world, &a, "another world");
    refuses_all(a.world, &b, "another world");
    assert_eq!(contact_colliders(a.world), [a.collider.id]);
    for w in [a.world, b.world] {
        ok(sinew_world_destroy(w), "destroy");
    }
}

/// Restoring another world's snapshot keeps the target's serial, for every kind
/// alike: the target's handles name the saved objects in their slots (re-read them),
/// the saving world's handles stay refused, and the contact readback names the
/// target's collider handle.
#[test]
fn a_restore_keeps_the_targets_serial_for_every_kind() {
    let (a, b) = (build(4, 50), build(8, 70));
    let snap = snapshot(a.world);
    // SAFETY: the buffer holds `len` bytes.
    ok(
        unsafe { sinew_world_restore_snapshot(b.world, snap.as_ptr(), snap.len() as u64) },
        "restore",
    );
    accepts_all(b.world, &b, "the target's handles after the restore");
    assert_eq!(
        particle_count(b.world, b.rope),
        5,
        "b's rope handle names a's rope"
    );
    assert_eq!(fluid_capacity(b.world, b.fluid), 50);
    assert_eq!(contact_colliders(b.world), [b.collider.id]);
    refuses_all(b.world, &a, "the saving world's handles after the restore");
    // Removal through the target's handles works and is final, every kind alike.
    ok(sinew_emitter_remove(b.world, b.emitter), "remove emitter");
    ok(sinew_kill_volume_remove(b.world, b.volume), "remove volume");
    assert_eq!(
        sinew_emitter_remove(b.world, b.emitter),
        SINEW_ERROR_INVALID_HANDLE
    );
    assert!(last_error().contains("removed"), "{}", last_error());
    for w in [a.world, b.world] {
        ok(sinew_world_destroy(w), "destroy");
    }
}

/// A world created from a snapshot takes the saving world's serial: the saver's
/// handles of every kind name the same objects in it, a third world's are refused;
/// and restoring a world's own snapshot makes its handles valid again, every kind.
#[test]
fn a_world_from_a_snapshot_takes_the_savers_handles() {
    let (a, c) = (build(4, 50), build(6, 60));
    let snap = snapshot(a.world);
    let mut copy = SinewWorld::default();
    // SAFETY: the buffer holds `len` bytes; valid out pointer.
    ok(
        unsafe { sinew_world_create_from_snapshot(snap.as_ptr(), snap.len() as u64, 1, &mut copy) },
        "create from snapshot",
    );
    accepts_all(copy, &a, "the saver's handles in the copy");
    assert_eq!(particle_count(copy, a.rope), 5);
    assert_eq!(fluid_capacity(copy, a.fluid), 50);
    assert_eq!(contact_colliders(copy), [a.collider.id]);
    refuses_all(copy, &c, "a third world's handles in the copy");
    // Own snapshot: removed items come back under their old handles.
    ok(sinew_emitter_remove(a.world, a.emitter), "remove emitter");
    ok(sinew_kill_volume_remove(a.world, a.volume), "remove volume");
    // SAFETY: the buffer holds `len` bytes.
    ok(
        unsafe { sinew_world_restore_snapshot(a.world, snap.as_ptr(), snap.len() as u64) },
        "restore own",
    );
    accepts_all(a.world, &a, "own handles after restoring own snapshot");
    ok(
        sinew_kill_volume_remove(a.world, a.volume),
        "the volume is back",
    );
    for w in [a.world, c.world, copy] {
        ok(sinew_world_destroy(w), "destroy");
    }
}
