//! Snapshots of the swept constraint sets (tethers, distance constraints, bending):
//! attachments and tethers sharing particles, added in several calls with some
//! removed, round-trip into a fresh world and into another one and step on like the
//! original; a forged body whose constraint names one particle twice (which no
//! builder writes, and which the checked sweep refuses) is refused at the restore with
//! a message, never stepped into an internal error.

use sinew::scenes::FRAME_DT;
use sinew::{
    seal_snapshot as seal, ErrorKind, FamilyKind, Quat, Solver, Transform, Vec3, World, WorldDesc,
    SNAPSHOT_HEADER_BYTES as HEADER_BYTES,
};

/// Particles in a hanging zig-zag line, 0.1 m apart.
const PARTICLES: u32 = 64;

fn world(solver: Solver, threads: u32) -> World {
    let mut w = World::new(WorldDesc {
        solver,
        threads,
        ..WorldDesc::default()
    })
    .unwrap();
    let positions: Vec<Vec3> = (0..PARTICLES)
        .map(|i| {
            Vec3::new(
                0.1 * i as f32,
                -0.02 * (i % 3) as f32,
                0.01 * (i % 2) as f32,
            )
        })
        .collect();
    w.add_particles(&positions, None).unwrap();
    w
}

/// Attachments and tethers on shared particles: several tethers per particle, every
/// tethered particle also attached, added over several calls, some of each removed.
fn tethered(solver: Solver, threads: u32) -> World {
    let mut w = world(solver, threads);
    let host = w
        .add_attachment_host(Transform::checked(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY).unwrap())
        .unwrap();
    for batch in 0..4u32 {
        let tethers: Vec<[u32; 2]> = (0..12u32)
            .map(|j| [(batch + j) % 6, 8 + (3 * j + batch) % 40])
            .filter(|[a, b]| a != b)
            .collect();
        w.add_tethers(&tethers, None, 1e-6 * batch as f32).unwrap();
        let attached: Vec<u32> = (0..6u32).map(|j| 8 + (5 * j + batch) % 40).collect();
        w.add_attachments(host, &attached, None, 1e-5).unwrap();
    }
    w.remove_constraints(FamilyKind::Tether, 3, 4).unwrap();
    w.remove_constraints(FamilyKind::Attachment, 5, 2).unwrap();
    w.add_tethers(&[[14, 15], [15, 14], [14, 20]], None, 0.0)
        .unwrap();
    w.add_attachments(host, &[14, 14, 15], None, 0.0).unwrap();
    w
}

fn step_hashes(w: &mut World, frames: u32) -> Vec<u64> {
    (0..frames)
        .map(|_| {
            w.step(FRAME_DT).unwrap();
            w.state_hash()
        })
        .collect()
}

#[test]
fn tethers_and_attachments_on_shared_particles_round_trip_and_step() {
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        for threads in [1, 4] {
            let mut w = tethered(solver, threads);
            step_hashes(&mut w, 3);
            let snap = w.snapshot();
            let want = step_hashes(&mut w, 5);
            let mut fresh = World::from_snapshot(&snap, threads).unwrap();
            assert_eq!(
                step_hashes(&mut fresh, 5),
                want,
                "{solver:?} x{threads}: fresh"
            );
            // Into a different world (other particles and sets, other threads).
            let mut other = world(solver, 2);
            other
                .add_tethers(&[[1, 2], [3, 4], [1, 4]], None, 0.0)
                .unwrap();
            other
                .add_distance_constraints(&[[5, 6]], None, 0.0)
                .unwrap();
            step_hashes(&mut other, 2);
            other.restore_snapshot(&snap).unwrap();
            let other_hashes = step_hashes(&mut other, 5);
            if threads == 1 {
                assert_eq!(
                    other_hashes, want,
                    "{solver:?}: restored into another world"
                );
            }
        }
    }
}

/// The body of `snap` with the only occurrence of the particle indices `from` (as
/// consecutive little-endian u32s) replaced by `to`, resealed.
fn forged(snap: &[u8], from: &[u32], to: &[u32]) -> Vec<u8> {
    let bytes = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let (from, to) = (bytes(from), bytes(to));
    let body = &snap[HEADER_BYTES..];
    let at: Vec<usize> = (0..body.len().saturating_sub(from.len()))
        .filter(|&i| body[i..i + from.len()] == from[..])
        .collect();
    assert_eq!(at.len(), 1, "the pattern occurs {} times", at.len());
    let mut body = body.to_vec();
    body[at[0]..at[0] + to.len()].copy_from_slice(&to);
    seal(&body)
}

/// Refused with an invalid-argument error naming `what`, the world unchanged; a fresh
/// world from the bytes is refused too.
fn refused(snap: &[u8], what: &str) {
    let mut w = world(Solver::GaussSeidel, 1);
    let h = w.state_hash();
    let e = w.restore_snapshot(snap).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument, "{}", e.message);
    assert!(e.message.contains(what), "{what:?} not in {:?}", e.message);
    assert!(e.message.contains("twice"), "{:?}", e.message);
    assert_eq!(w.state_hash(), h, "a refused snapshot changed the world");
    assert!(World::from_snapshot(snap, 1).is_err());
}

#[test]
fn a_forged_constraint_naming_one_particle_twice_is_refused() {
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        // A tether [61, 62] forged into [61, 61], among tethers sharing particles.
        let mut w = tethered(solver, 1);
        w.add_tethers(&[[61, 62]], None, 0.0).unwrap();
        let snap = forged(&w.snapshot(), &[61, 62], &[61, 61]);
        refused(&snap, "tether");
        // A distance constraint.
        let mut w = world(solver, 1);
        w.add_distance_constraints(&[[0, 1], [1, 2], [61, 62]], None, 0.0)
            .unwrap();
        let snap = forged(&w.snapshot(), &[61, 62], &[61, 61]);
        refused(&snap, "distance");
        // A bending hinge (four particles).
        let mut w = world(solver, 1);
        w.add_isometric_bending(&[[0, 1, 2, 3], [58, 59, 60, 61]], 0.0)
            .unwrap();
        let snap = forged(&w.snapshot(), &[58, 59, 60, 61], &[58, 59, 60, 59]);
        refused(&snap, "bending");
    }
}
