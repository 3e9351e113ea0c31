//! Snapshot-corruption fuzzer: real snapshots of random valid worlds (and of the
//! `everything()` world of `snapshots.rs`) damaged by bit flips, truncations, inserted and deleted
//! bytes, and values forged at random places (counts, indices, counters, floats:
//! 0, 1, -1, u32::MAX, u64::MAX, 2^62 + 1, NaN, ±inf, huge), then resealed with a
//! valid checksum and length so that the decoder itself is exercised (a quarter are
//! left unsealed: the checksum must refuse them). Every load either fails with a
//! message, leaving a restored-into world unchanged, or yields a world that steps
//! without a panic and whose readbacks stay in their ranges: finite positions, cloth
//! topology indices below its vertex count and particles below the particle count,
//! fluid counts within capacity, contacts naming existing particles. Seeded and
//! bounded: `SINEW_SNAPSHOT_FUZZ_CASES` damaged snapshots (600 by default).

use super::snapshot_property::{cases, random_world, Built, Rng};
use super::snapshots::everything;
use sinew::scenes::FRAME_DT;
use sinew::{
    seal_snapshot as seal, Solver, World, WorldDesc, SNAPSHOT_HEADER_BYTES as HEADER_BYTES,
};

/// Values a forger writes over 4 or 8 bytes.
const FORGED_U32: [u32; 8] = [
    0,
    1,
    2,
    0x7FFF_FFFF,
    0x8000_0000,
    u32::MAX,
    u32::MAX - 7,
    0x7FC0_0000, // NaN as f32
];
const FORGED_U64: [u64; 7] = [
    0,
    1,
    u64::MAX,
    (1 << 62) + 1,
    1 << 32,
    0x7FF8_0000_0000_0000, // NaN as f64
    0x7FF0_0000_0000_0000, // +inf as f64
];
const FORGED_F32: [f32; 6] = [
    -1.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1e30,
    -1e-30,
    f32::MIN_POSITIVE,
];

/// Damages the body of `snap` (header left for the reseal).
fn damage(snap: &mut Vec<u8>, rng: &mut Rng) {
    let body = snap.len() - HEADER_BYTES;
    let at =
        |rng: &mut Rng, width: usize| HEADER_BYTES + rng.below(body.saturating_sub(width).max(1));
    match rng.below(6) {
        0 => {
            for _ in 0..1 + rng.below(4) {
                let i = at(rng, 1);
                snap[i] ^= 1 << rng.below(8);
            }
        }
        1 => {
            let n = HEADER_BYTES + rng.below(body);
            snap.truncate(n);
        }
        2 => {
            let i = at(rng, 4);
            let v = FORGED_U32[rng.below(FORGED_U32.len())];
            snap[i..i + 4].copy_from_slice(&v.to_le_bytes());
        }
        3 => {
            let i = at(rng, 8);
            let v = FORGED_U64[rng.below(FORGED_U64.len())];
            snap[i..i + 8].copy_from_slice(&v.to_le_bytes());
        }
        4 => {
            let i = at(rng, 4);
            let v = FORGED_F32[rng.below(FORGED_F32.len())];
            snap[i..i + 4].copy_from_slice(&v.to_le_bytes());
        }
        _ => {
            let i = at(rng, 8);
            let n = 1 + rng.below(8);
            if rng.chance(0.5) {
                snap.drain(i..(i + n).min(snap.len()));
            } else {
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                snap.splice(i..i, bytes);
            }
        }
    }
}

/// The snapshot's body with a fresh valid header (its length and checksum; the
/// damage never reaches the header).
fn resealed(snap: &[u8]) -> Vec<u8> {
    seal(&snap[HEADER_BYTES..])
}

/// Every load of `snap` forged one way at a time: every 4-byte window of its body
/// overwritten with each of `values` (as little-endian bits) and resealed, with the
/// window's first byte, the value and what the loader answered.
pub(super) fn forged_loads<'a>(
    snap: &'a [u8],
    values: &'a [u32],
) -> impl Iterator<Item = (usize, u32, sinew::Result<World>)> + 'a {
    let body = &snap[HEADER_BYTES..];
    (0..body.len() - 4).flat_map(move |at| {
        values.iter().map(move |&val| {
            let mut b = body.to_vec();
            b[at..at + 4].copy_from_slice(&val.to_le_bytes());
            (at, val, World::from_snapshot(&seal(&b), 1))
        })
    })
}

/// The worlds the loader accepts from `snap` forged one way at a time
/// ([`forged_loads`]).
pub(super) fn forged_windows<'a>(
    snap: &'a [u8],
    values: &'a [u32],
) -> impl Iterator<Item = (usize, u32, World)> + 'a {
    forged_loads(snap, values).filter_map(|(at, val, w)| w.ok().map(|w| (at, val, w)))
}

/// Steps a loaded world and checks its readbacks against their documented ranges.
fn step_and_read(w: &mut World, ids: &Built, what: &str) {
    for _ in 0..2 {
        // A forged state may be refused by the step (NON_FINITE recovers it): no panic.
        let _ = w.step(FRAME_DT);
        let n = w.particle_count();
        for i in 0..n as usize {
            let x = w.particles().position(i);
            assert!(x.is_finite(), "{what}: particle {i} at {x}");
        }
        for c in w.contacts() {
            assert!(
                c.particle < n,
                "{what}: contact with particle {}",
                c.particle
            );
        }
        for &cloth in &ids.cloths {
            let Ok((nv, nt)) = w.cloth_topology_counts(cloth) else {
                continue;
            };
            let mut tris = vec![[0u32; 3]; nt as usize];
            let mut verts = vec![0u32; nv as usize];
            let mut sources = vec![0u32; nv as usize];
            if w.read_cloth_topology_with_sources(cloth, &mut tris, &mut verts, Some(&mut sources))
                .is_ok()
            {
                assert!(
                    tris.iter().flatten().all(|&v| v < nv),
                    "{what}: a triangle index past {nv} vertices"
                );
                assert!(verts.iter().all(|&p| p < n), "{what}: a vertex past {n}");
                assert!(
                    sources.iter().all(|&s| s < nv),
                    "{what}: a source past {nv}"
                );
            }
        }
        for &fluid in &ids.fluids {
            if let Ok(s) = w.fluid_stats(fluid) {
                assert!(s.count <= s.capacity, "{what}: {s:?}");
                assert!(
                    s.mean_density_ratio.is_finite() && s.max_density_ratio.is_finite(),
                    "{what}: {s:?}"
                );
            }
        }
        for &rope in &ids.ropes {
            if let Ok(l) = w.winch_length(rope) {
                assert!(l.is_finite(), "{what}: winch length {l}");
            }
        }
    }
}

#[test]
fn damaged_and_forged_snapshots_are_refused_or_load_into_a_sound_world() {
    let n = cases("SINEW_SNAPSHOT_FUZZ_CASES", 600);
    let mut rng = Rng(0xF022_0028);
    let mut sources: Vec<(Built, Vec<u8>)> = Vec::new();
    for _ in 0..6 {
        let mut b = random_world(&mut rng);
        for _ in 0..1 + rng.below(8) {
            b.world.step(FRAME_DT).unwrap();
        }
        let snap = b.world.snapshot();
        sources.push((b, snap));
    }
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let world = everything(solver, 1);
        let snap = world.snapshot();
        let b = Built {
            world,
            cloths: Vec::new(),
            ropes: Vec::new(),
            fluids: Vec::new(),
        };
        sources.push((b, snap));
    }
    let mut target = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    target.restore_snapshot(&sources[0].1).unwrap();
    let h = target.state_hash();
    let (mut loaded, mut refused) = (0u64, 0u64);
    for case in 0..n {
        let k = rng.below(sources.len());
        let mut b = sources[k].1.clone();
        damage(&mut b, &mut rng);
        if b == sources[k].1 {
            // A forged value equal to the one there: no damage.
            continue;
        }
        let sealed = rng.below(4) != 0;
        if sealed {
            b = resealed(&b);
        }
        let what = format!("case {case} (world {k})");
        match World::from_snapshot(&b, 1) {
            Err(e) => {
                refused += 1;
                assert!(!e.message.is_empty(), "{what}");
                let e2 = target.restore_snapshot(&b).unwrap_err();
                assert_eq!(e2.message, e.message, "{what}");
                assert_eq!(
                    target.state_hash(),
                    h,
                    "{what}: a refused buffer changed the world"
                );
            }
            Ok(mut w) => {
                assert!(sealed, "{what}: unsealed damage passed the checksum");
                loaded += 1;
                step_and_read(&mut w, &sources[k].0, &what);
            }
        }
    }
    println!("{n} damaged snapshots: {refused} refused, {loaded} loaded and stepped");
}
