//! Through the C ABI: a cloth mesh with two triangles on the same three vertices
//! ((0, 1, 2) and (0, 2, 1), or one triangle listed twice) is accepted, and each of
//! its edges has the third vertex as the wing on both sides. Such a hinge would name
//! that particle twice, and a bending constraint over it broke the Gauss-Seidel
//! sweep's rule that a slot's particles are distinct (the first step failed with
//! SINEW_ERROR_INTERNAL "sweep: particle .. twice in one run", as the API-sequence
//! fuzzer found). Every bending model skips such a hinge: the cloth steps, saves a
//! snapshot and restores it, in every model and with one thread or several.

use sinew::ffi::bodies::{sinew_cloth_desc_default, sinew_world_add_cloth_mesh, SinewBody};
use sinew::ffi::families::sinew_world_family_constraint_count;
use sinew::ffi::snapshot::{
    sinew_world_create_from_snapshot, sinew_world_save_snapshot, sinew_world_snapshot_size,
};
use sinew::ffi::world::{
    sinew_world_create, sinew_world_desc_default, sinew_world_destroy, sinew_world_step, SinewVec3,
    SinewWorld,
};

use crate::bad_input::ok;

/// SINEW_BENDING_NONE, _DISTANCE, _DIHEDRAL and _ISOMETRIC.
const MODELS: [u32; 4] = [0, 1, 2, 3];
/// SINEW_FAMILY_DIHEDRAL_BENDING and SINEW_FAMILY_ISOMETRIC_BENDING.
const BENDING_FAMILIES: [u32; 2] = [1, 2];

/// A world with `threads` threads holding one cloth: a triangle and, behind it, the
/// same triangle again (`triangles`, 0-based), with bending model `bending`.
fn world(threads: u32, bending: u32, triangles: &[u32; 6]) -> SinewWorld {
    let mut desc = sinew_world_desc_default();
    desc.threads = threads;
    let v = |x: f32, y: f32, z: f32| SinewVec3 { x, y, z };
    let vertices = [v(0.0, 1.0, 0.0), v(0.5, 1.0, 0.0), v(0.0, 1.0, 0.5)];
    let inverse_masses = [1.0f32; 3];
    let mut cloth = sinew_cloth_desc_default();
    cloth.bending = bending;
    let (mut world, mut body) = (SinewWorld::default(), SinewBody::default());
    // SAFETY: valid pointers to locals; the arrays hold the counts passed.
    unsafe {
        ok(sinew_world_create(&desc, &mut world), "create");
        ok(
            sinew_world_add_cloth_mesh(
                world,
                &cloth,
                vertices.as_ptr(),
                3,
                triangles.as_ptr(),
                2,
                inverse_masses.as_ptr(),
                &mut body,
            ),
            "cloth mesh",
        );
    }
    world
}

fn bending_constraints(world: SinewWorld) -> u32 {
    BENDING_FAMILIES
        .iter()
        .map(|&f| {
            let mut n = u32::MAX;
            // SAFETY: a valid pointer to a local.
            ok(
                unsafe { sinew_world_family_constraint_count(world, f, &mut n) },
                "family count",
            );
            n
        })
        .sum()
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
fn a_doubled_triangle_bends_nothing_and_steps_in_every_bending_model() {
    for triangles in [[0u32, 1, 2, 0, 2, 1], [0, 1, 2, 0, 1, 2]] {
        for threads in [1u32, 4] {
            for bending in MODELS {
                let case = format!("triangles {triangles:?}, {threads} threads, model {bending}");
                let w = world(threads, bending, &triangles);
                assert_eq!(bending_constraints(w), 0, "{case}");
                for _ in 0..3 {
                    ok(sinew_world_step(w, 1.0 / 60.0), &format!("step, {case}"));
                }
                let snap = snapshot(w);
                let mut restored = SinewWorld::default();
                // SAFETY: valid pointers; the buffer holds the size passed.
                unsafe {
                    ok(
                        sinew_world_create_from_snapshot(
                            snap.as_ptr(),
                            snap.len() as u64,
                            threads,
                            &mut restored,
                        ),
                        &format!("restore, {case}"),
                    );
                }
                ok(
                    sinew_world_step(restored, 1.0 / 60.0),
                    &format!("restored step, {case}"),
                );
                ok(sinew_world_destroy(restored), "destroy");
                ok(sinew_world_destroy(w), "destroy");
            }
        }
    }
}
