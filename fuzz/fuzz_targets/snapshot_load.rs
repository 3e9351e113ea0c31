//! libFuzzer damages real snapshots and loads them: the input is a list of
//! (offset, xor byte) edits of the body of a snapshot of a world with every kind of
//! state (a rope, a cloth, a tet body, a pressure body, colliders, attachments, a
//! grab), optionally cut short, resealed with a valid checksum so that the body checks
//! are what is tested. A load must succeed or fail with a message, never panic, and a
//! loaded world must step without a panic; a refused buffer leaves the target world
//! unchanged.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sinew::{seal_snapshot as seal, SNAPSHOT_HEADER_BYTES as HEADER_BYTES};
use sinew::{
    ColliderDesc, PressureBodyDesc, Quat, RopeDesc, Shape, TetBodyDesc, Transform, Vec3, World,
    WorldDesc,
};

fn base() -> &'static Vec<u8> {
    static SNAP: OnceLock<Vec<u8>> = OnceLock::new();
    SNAP.get_or_init(|| {
        let mut w = World::new(WorldDesc {
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        let rope = w.add_rope(&RopeDesc::default()).unwrap();
        w.add_cloth_grid(&Default::default(), &Default::default())
            .unwrap();
        let tet: Vec<Vec3> = [[0., 0., 0.], [1., 0., 0.], [0., 1., 0.], [0., 0., 1.]]
            .iter()
            .map(|&a| Vec3::from_array(a) + Vec3::new(3.0, 1.0, 0.0))
            .collect();
        w.add_tet_body(&TetBodyDesc::default(), &tet, &[[0, 1, 2, 3]], None)
            .unwrap();
        let oct: Vec<Vec3> = [
            [1., 0., 0.],
            [-1., 0., 0.],
            [0., 0., 1.],
            [0., 0., -1.],
            [0., 1., 0.],
            [0., -1., 0.],
        ]
        .iter()
        .map(|&a| Vec3::from_array(a) * 0.2 + Vec3::new(-3.0, 1.0, 0.0))
        .collect();
        let tris = [
            [0, 4, 2],
            [2, 4, 1],
            [1, 4, 3],
            [3, 4, 0],
            [2, 5, 0],
            [1, 5, 2],
            [3, 5, 1],
            [0, 5, 3],
        ];
        w.add_pressure_body(&PressureBodyDesc::default(), &oct, &tris, None)
            .unwrap();
        w.add_collider(&ColliderDesc {
            shape: Shape::Sphere { radius: 0.3 },
            ..ColliderDesc::default()
        })
        .unwrap();
        w.add_mesh_collider(&ColliderDesc::default(), &oct, &tris)
            .unwrap();
        let host = w
            .add_attachment_host(Transform {
                position: Vec3::ZERO,
                rotation: Quat::IDENTITY,
            })
            .unwrap();
        let first = w.body(rope).unwrap().particles.start;
        w.add_attachments(host, &[first], None, 0.0).unwrap();
        w.grab_particle(first + 3, Vec3::new(0.5, 0.5, 0.0), 1e-3)
            .unwrap();
        w.step(1.0 / 60.0).unwrap();
        w.snapshot()
    })
}

fuzz_target!(|data: &[u8]| {
    let snap = base();
    let mut body = snap[HEADER_BYTES..].to_vec();
    let mut edits = data.chunks_exact(5);
    for e in &mut edits {
        let at = u32::from_le_bytes([e[0], e[1], e[2], e[3]]) as usize % body.len();
        body[at] ^= e[4];
    }
    if let [cut, ..] = edits.remainder() {
        let keep = body.len() * *cut as usize / 256;
        body.truncate(keep);
    }
    let bytes = seal(&body);
    let mut target = World::from_snapshot(snap, 1).unwrap();
    let before = target.state_hash();
    match target.restore_snapshot(&bytes) {
        Ok(()) => {
            for _ in 0..3 {
                let _ = target.step(1.0 / 60.0);
            }
        }
        Err(e) => {
            assert!(!e.message.is_empty());
            assert_eq!(
                target.state_hash(),
                before,
                "a refused buffer changed the world"
            );
        }
    }
});
