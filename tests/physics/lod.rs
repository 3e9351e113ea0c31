//! Level of detail (src/world/activity.rs): bodies at a reduced rate stay stable and
//! gain no energy over ten minutes of simulated time; a paused body resumed after
//! minutes, its host moved meanwhile, catches up without explosion; worlds whose
//! bodies are all full step as before; mixed modes are the same bits on 1 and 4
//! threads; modes survive snapshots.

use super::snapshot_fuzz::forged_windows;
use sinew::{
    BodyId, ClothDesc, ClothGridDesc, Quat, RopeDesc, SimMode, Transform, Vec3, World, WorldDesc,
};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

/// Kinetic plus gravitational energy (J) of the world's particles with mass.
fn energy(w: &World) -> f64 {
    let p = w.particles();
    (0..p.len())
        .filter(|&i| p.inverse_mass(i) > 0.0)
        .map(|i| {
            let m = 1.0 / p.inverse_mass(i) as f64;
            let v = p.velocity(i).length() as f64;
            m * (0.5 * v * v + G as f64 * p.position(i).y as f64)
        })
        .sum()
}

fn rope(x: f32, segments: u32) -> RopeDesc {
    RopeDesc {
        start: Vec3::new(x, 2.0, 0.0),
        end: Vec3::new(x + 1.0, 2.0, 0.0),
        segments,
        ..RopeDesc::default()
    }
}

/// A horizontal rope (pinned at one end) and a cloth (pinned at two corners) swing at
/// a quarter and at a third of the substeps for ten minutes: their energy never
/// rises above the start (1 mJ of slack, for rounding), and they stay finite and near
/// their pins.
#[test]
fn reduced_bodies_gain_no_energy_over_ten_minutes() {
    for every in [4, 3] {
        let mut w = World::new(WorldDesc {
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap();
        let r = w.add_rope(&rope(0.0, 16)).unwrap();
        let grid = ClothGridDesc {
            origin: Vec3::new(3.0, 2.0, 0.0),
            segments_u: 12,
            segments_v: 12,
            pin_corners: 3,
            ..ClothGridDesc::default()
        };
        let c = w.add_cloth_grid(&ClothDesc::default(), &grid).unwrap();
        for b in [r, c] {
            w.set_body_sim_mode(b, SimMode::Reduced { every }).unwrap();
        }
        let e0 = energy(&w);
        let mut worst = f64::MIN;
        for _ in 0..36_000 {
            w.step(DT).unwrap();
            worst = worst.max(energy(&w) - e0);
        }
        eprintln!("every {every}: largest energy above the start {worst:e} J");
        assert!(worst <= 1e-3, "every {every}: energy rose {worst} J");
        let p = w.particles();
        for i in 0..p.len() {
            let x = p.position(i);
            assert!(
                x.is_finite() && x.y > -1.0 && x.y < 2.5,
                "particle {i} at {x}"
            );
        }
    }
}

/// A rope hanging from a host is paused, the host moves 5 m in three minutes, and the
/// rope resumes: it catches up onto the host without explosion (speeds bounded by a
/// fall of its own length), and settles hanging from the host.
#[test]
fn a_paused_rope_resumes_onto_its_moved_host() {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let desc = RopeDesc {
        start: Vec3::new(0.0, 2.0, 0.0),
        end: Vec3::new(0.0, 1.0, 0.0),
        segments: 16,
        pin_start: false,
        damping: 0.5,
        ..RopeDesc::default()
    };
    let r = w.add_rope(&desc).unwrap();
    let at = |x: f32| Transform {
        position: Vec3::new(x, 2.0, 0.0),
        rotation: Quat::IDENTITY,
    };
    let host = w.add_attachment_host(at(0.0)).unwrap();
    let (first, count) = w.body_particle_range(r).unwrap();
    w.add_attachments(host, &[first], None, 0.0).unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    w.set_body_sim_mode(r, SimMode::Paused).unwrap();
    let still: Vec<Vec3> = (first..first + count)
        .map(|i| w.particles().position(i as usize))
        .collect();
    for k in 1..=10_800 {
        w.set_attachment_host_transform(host, at(5.0 * k as f32 / 10_800.0))
            .unwrap();
        w.step(DT).unwrap();
    }
    let paused: Vec<Vec3> = (first..first + count)
        .map(|i| w.particles().position(i as usize))
        .collect();
    assert_eq!(paused, still, "a paused body does not move");
    w.set_body_sim_mode(r, SimMode::Full).unwrap();
    let mut fastest = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        for i in first..first + count {
            fastest = fastest.max(w.particles().velocity(i as usize).length());
        }
    }
    eprintln!("fastest particle after the resume: {fastest} m/s");
    // A free fall of the rope's length reaches sqrt(2 g L) = 4.4 m/s.
    assert!(fastest < 4.5, "fastest {fastest} m/s");
    let top = w.particles().position(first as usize);
    assert!(
        (top - Vec3::new(5.0, 2.0, 0.0)).length() < 0.01,
        "top at {top}"
    );
    let bottom = w.particles().position((first + count - 1) as usize);
    assert!(
        (bottom - Vec3::new(5.0, 1.0, 0.0)).length() < 0.05,
        "bottom at {bottom}"
    );
    for i in first..first + count {
        assert!(w.particles().velocity(i as usize).length() < 0.05);
    }
}

/// A sagging rope between two hosts is paused; one host moves 0.6 m (up, sideways and
/// towards the other) in two minutes. The catch-up's translation (the mean of the two
/// offsets) leaves both ends off their hosts; the zeroed velocities of the catch-up
/// steps absorb that correction: no explosion, and the rope settles.
#[test]
fn a_paused_rope_between_two_hosts_resumes_without_explosion() {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let desc = RopeDesc {
        start: Vec3::new(0.0, 2.0, 0.0),
        end: Vec3::new(0.8, 2.0, 0.0),
        segments: 20,
        pin_start: false,
        damping: 0.5,
        ..RopeDesc::default()
    };
    let r = w.add_rope(&desc).unwrap();
    let at = |p: Vec3| Transform {
        position: p,
        rotation: Quat::IDENTITY,
    };
    let (first, count) = w.body_particle_range(r).unwrap();
    let last = first + count - 1;
    let a = w.add_attachment_host(at(desc.start)).unwrap();
    let b = w.add_attachment_host(at(desc.end)).unwrap();
    w.add_attachments(a, &[first], None, 0.0).unwrap();
    w.add_attachments(b, &[last], None, 0.0).unwrap();
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    w.set_body_sim_mode(r, SimMode::Paused).unwrap();
    let moved = Vec3::new(0.6, 2.4, 0.3);
    for k in 1..=7200 {
        let t = k as f32 / 7200.0;
        w.set_attachment_host_transform(b, at(desc.end + (moved - desc.end) * t))
            .unwrap();
        w.step(DT).unwrap();
    }
    w.set_body_sim_mode(r, SimMode::Full).unwrap();
    let mut fastest = 0.0f32;
    for _ in 0..600 {
        w.step(DT).unwrap();
        for i in first..first + count {
            fastest = fastest.max(w.particles().velocity(i as usize).length());
        }
    }
    eprintln!("two hosts: fastest particle after the resume: {fastest} m/s");
    assert!(fastest < 4.5, "fastest {fastest} m/s");
    let end = w.particles().position(last as usize);
    assert!((end - moved).length() < 0.01, "end at {end}");
    let start = w.particles().position(first as usize);
    assert!((start - desc.start).length() < 0.01, "start at {start}");
    for i in first..first + count {
        assert!(w.particles().velocity(i as usize).length() < 0.05);
    }
}

/// Ropes at full rate, a quarter, a third and paused, in a world large enough to run
/// on several threads: the same bits on 1 and 4 threads.
fn mixed(threads: u32) -> (World, Vec<BodyId>) {
    let mut w = World::new(WorldDesc {
        threads,
        ..WorldDesc::default()
    })
    .unwrap();
    let bodies: Vec<BodyId> = (0..600)
        .map(|k| w.add_rope(&rope(k as f32 * 0.05, 24)).unwrap())
        .collect();
    for (k, &b) in bodies.iter().enumerate() {
        let mode = match k % 4 {
            0 => SimMode::Full,
            1 => SimMode::Reduced { every: 4 },
            2 => SimMode::Reduced { every: 3 },
            _ => SimMode::Paused,
        };
        w.set_body_sim_mode(b, mode).unwrap();
    }
    (w, bodies)
}

fn state(w: &World) -> Vec<[u32; 6]> {
    let p = w.particles();
    (0..p.len())
        .map(|i| {
            let (x, v) = (p.position(i), p.velocity(i));
            [x.x, x.y, x.z, v.x, v.y, v.z].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn mixed_modes_are_the_same_bits_on_1_and_4_threads() {
    let (mut one, b1) = mixed(1);
    let (mut four, b4) = mixed(4);
    for s in 0..40 {
        if s == 20 {
            // A mode change mid-run rebuilds the sweeps' classes on both.
            for (w, bodies) in [(&mut one, &b1), (&mut four, &b4)] {
                w.set_body_sim_mode(bodies[3], SimMode::Full).unwrap();
                w.set_body_sim_mode(bodies[0], SimMode::Reduced { every: 2 })
                    .unwrap();
            }
        }
        one.step(DT).unwrap();
        four.step(DT).unwrap();
    }
    assert!(state(&one) == state(&four));
}

/// A mode set and set back to full before any step leaves no trace: the world steps
/// bit for bit as its twin that never had one.
#[test]
fn a_world_back_at_full_steps_as_one_that_never_changed() {
    let build = || {
        let mut w = World::new(WorldDesc::default()).unwrap();
        let bodies: Vec<BodyId> = (0..5)
            .map(|k| w.add_rope(&rope(k as f32, 12)).unwrap())
            .collect();
        (w, bodies)
    };
    let (mut a, bodies) = build();
    let (mut b, _) = build();
    a.set_body_sim_mode(bodies[1], SimMode::Reduced { every: 2 })
        .unwrap();
    a.step(DT).unwrap();
    b.step(DT).unwrap();
    a.set_body_sim_mode(bodies[1], SimMode::Full).unwrap();
    let (mut c, _) = build();
    let (mut d, _) = build();
    for _ in 0..30 {
        c.step(DT).unwrap();
        d.step(DT).unwrap();
    }
    assert!(state(&c) == state(&d));
    // a differs from b (one step at half rate), but keeps stepping at full rate.
    assert_ne!(state(&a), state(&b));
    assert_eq!(a.body_sim_mode(bodies[1]).unwrap(), SimMode::Full);
}

/// Modes are saved: a restored world has them and steps as the original.
#[test]
fn modes_survive_snapshots() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    let a = w.add_rope(&rope(0.0, 12)).unwrap();
    let b = w.add_rope(&rope(2.0, 12)).unwrap();
    w.step(DT).unwrap();
    w.set_body_sim_mode(a, SimMode::Reduced { every: 4 })
        .unwrap();
    w.set_body_sim_mode(b, SimMode::Paused).unwrap();
    w.step(DT).unwrap();
    let snap = w.snapshot();
    let mut back = World::from_snapshot(&snap, 1).unwrap();
    assert_eq!(
        back.body_sim_mode(a).unwrap(),
        SimMode::Reduced { every: 4 }
    );
    assert_eq!(back.body_sim_mode(b).unwrap(), SimMode::Paused);
    for _ in 0..10 {
        w.step(DT).unwrap();
        back.step(DT).unwrap();
    }
    assert_eq!(w.state_hash(), back.state_hash());
}

/// Most of a large world paused (whole chunks of particles frozen: the integrator skips
/// them, and the step is no longer fused): the same bits on 1 and 4 threads, the paused
/// ropes exactly still, the others falling.
#[test]
fn a_mostly_paused_world_is_the_same_bits_on_1_and_4_threads() {
    let run = |threads| {
        let (mut w, bodies) = mixed(threads);
        for (k, &b) in bodies.iter().enumerate() {
            let mode = if k < 100 {
                SimMode::Full
            } else {
                SimMode::Paused
            };
            w.set_body_sim_mode(b, mode).unwrap();
        }
        let before = state(&w);
        for _ in 0..20 {
            w.step(DT).unwrap();
        }
        let (first, _) = w.body_particle_range(bodies[100]).unwrap();
        let after = state(&w);
        let f = first as usize;
        assert!(before[f..] == after[f..], "paused ropes moved");
        assert!(before[..f] != after[..f], "full ropes did not move");
        after
    };
    assert!(run(1) == run(4));
}

/// A paused rope attached to a host, saved, and every 4-byte window of the snapshot's
/// body overwritten with NaN, infinity or the largest float and resealed: the loader
/// refuses the copy, or resuming the rope (its catch-up moves it by its attachments'
/// offsets from their hosts' targets) leaves every position finite and the world's
/// own snapshot loadable. Before, the loader took non-finite attachment hosts,
/// offsets and compliances, and the resume moved the rope to NaN (the API fuzzer
/// found it: seed 128051).
#[test]
fn a_forged_attachment_is_refused_before_a_resume_can_read_it() {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let r = w.add_rope(&rope(0.0, 3)).unwrap();
    let host = w
        .add_attachment_host(Transform {
            position: Vec3::new(0.0, 2.0, 0.0),
            rotation: Quat::from_rotation_y(0.3),
        })
        .unwrap();
    let (first, count) = w.body_particle_range(r).unwrap();
    w.add_attachments(host, &[first, first + 1], None, 1e-4)
        .unwrap();
    w.step(DT).unwrap();
    w.set_body_sim_mode(r, SimMode::Paused).unwrap();
    w.step(DT).unwrap();
    let snap = w.snapshot();
    let values = [0x7FC0_0000u32, f32::INFINITY.to_bits(), f32::MAX.to_bits()];
    let mut bad = Vec::new();
    for (at, val, mut x) in forged_windows(&snap, &values) {
        if x.set_body_sim_mode(r, SimMode::Full).is_err() {
            continue;
        }
        let p = x.particles();
        if let Some(i) = (first..first + count).find(|&i| !p.position(i as usize).is_finite()) {
            bad.push(format!(
                "byte {at} = {val:#x}: particle {i} at {}",
                p.position(i as usize)
            ));
        } else if let Err(e) = World::from_snapshot(&x.snapshot(), 1) {
            bad.push(format!(
                "byte {at} = {val:#x}: its own snapshot refused: {e}"
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} windows: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

/// A rope paused near x = −1e9 m whose host then moved to x = +1e9 m (both accepted):
/// resuming would move the rope by its attachment's offset, about 2e9 m, past the
/// coordinate range. The catch-up then leaves it where it is (the attachment pulls it
/// over the next steps), every particle stays within ±1e9 m and the world's snapshot
/// loads.
#[test]
fn a_resume_past_the_coordinate_range_leaves_the_body_in_range() {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let x0 = -1.0e9 + 1000.0;
    let r = w
        .add_rope(&RopeDesc {
            start: Vec3::new(x0, 0.0, 0.0),
            end: Vec3::new(x0 + 3000.0, 0.0, 0.0),
            segments: 3,
            pin_start: false,
            ..RopeDesc::default()
        })
        .unwrap();
    let at = |x: f32| Transform {
        position: Vec3::new(x, 0.0, 0.0),
        rotation: Quat::IDENTITY,
    };
    let host = w.add_attachment_host(at(x0)).unwrap();
    let (first, count) = w.body_particle_range(r).unwrap();
    w.add_attachments(host, &[first], None, 0.0).unwrap();
    w.step(DT).unwrap();
    w.set_body_sim_mode(r, SimMode::Paused).unwrap();
    w.set_attachment_host_transform(host, at(1.0e9 - 1000.0))
        .unwrap();
    w.step(DT).unwrap();
    w.set_body_sim_mode(r, SimMode::Full).unwrap();
    for i in first..first + count {
        let p = w.particles().position(i as usize);
        assert!(
            p.abs().max_element() <= 1.0e9,
            "particle {i} at {p}, past ±1e9 m"
        );
    }
    World::from_snapshot(&w.snapshot(), 1)
        .unwrap_or_else(|e| panic!("the world's own snapshot refused: {e}"));
}
