//! Winches: a crane reels a 100 kg load in at constant speed with the tension of a
//! hanging mass; paying out and in returns to the same length; bad input is refused; a
//! winch beside a bend link or a link the host removed keeps its world's snapshots
//! loadable.
//!
//! `cargo test --test physics winch:: -- --nocapture` prints the measured values.

use super::snapshot_fuzz::forged_windows;
use sinew::{BodyConstraints, BodyId, ErrorKind, RopeDesc, RopeEnd, Vec3, World, WorldDesc};

const G: f32 = 9.81;
const DT: f32 = 1.0 / 60.0;

fn pos(w: &World, i: u32) -> Vec3 {
    w.particles().position(i as usize)
}

/// A one-thread world with a level rope of `segments` links, 1 m long at y = 2 m, its
/// start pinned (the defaults otherwise).
fn level_rope(segments: u32) -> (World, BodyId) {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(0.0, 2.0, 0.0),
            end: Vec3::new(1.0, 2.0, 0.0),
            segments,
            ..RopeDesc::default()
        })
        .unwrap();
    (w, rope)
}

fn paying_tension(w: &World, rope: BodyId) -> f32 {
    let n = w.body_force_count(rope, BodyConstraints::Stretch).unwrap();
    let mut f = vec![0.0; n];
    w.read_body_forces(rope, BodyConstraints::Stretch, &mut f)
        .unwrap();
    f[w.winch_paying_link(rope).unwrap() as usize]
}

/// A crane: a 5 m rope (50 links, 5 kg, no tethers) from a drum at y = 5 m holds a
/// 100 kg load, settles, and is reeled in to 1 m, accelerating to 0.5 m/s over the
/// first second. Averaged over quarter-second windows (a load cell's filter: the
/// per-substep readback rings at the chain's longitudinal mode, excited each time a
/// particle is parked), the load rises at 0.5 m/s (±5%) and the link at the drum
/// carries m (g + a) (±5% of m g; m = the load and the hanging rope); the rope
/// stretches less than 1% at every step. 128 substeps (mass ratio 1000 between the
/// load and a rope particle).
#[test]
fn crane_reels_a_100_kg_load_in_at_half_a_metre_per_second() {
    let substeps = 128;
    let mut w = World::new(WorldDesc {
        substeps,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let segments = 50;
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(0.0, 5.0, 0.0),
            end: Vec3::ZERO,
            segments,
            total_mass: 5.1,
            tethers: false,
            ..RopeDesc::default()
        })
        .unwrap();
    let load = segments;
    w.set_inverse_masses(load, &[1.0 / 100.0]).unwrap();
    w.add_winch(rope, RopeEnd::Start, 5.0).unwrap();
    // Settle the drop onto the rope with damping, then reel in undamped.
    w.set_body_damping(rope, 5.0).unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    w.set_body_damping(rope, 0.0).unwrap();
    let drum = Vec3::new(0.0, 5.0, 0.0);
    let (mut worst_speed, mut worst_tension, mut worst_stretch) = (0.0f32, 0.0f32, 0.0f32);
    let window = 15;
    let (mut sum_t, mut sum_expected, mut n) = (0.0f32, 0.0f32, 0);
    let mut y0 = pos(&w, load).y;
    let mut step = 0;
    while w.winch_length(rope).unwrap() > 1.0 + 1e-4 && step < 720 {
        let t = step as f32 * DT;
        let v = 0.5 * (t / 1.0).min(1.0);
        let a = if t < 1.0 { 0.5 } else { 0.0 };
        w.set_winch_target(rope, 1.0, v.max(1e-3)).unwrap();
        w.step(DT).unwrap();
        step += 1;
        let length = w.winch_length(rope).unwrap();
        let m = 100.0 + 0.1 * (length / 0.1).ceil();
        sum_t += paying_tension(&w, rope);
        sum_expected += m * (G + a);
        n += 1;
        let stretch = (drum.distance(pos(&w, load)) - length) / length;
        worst_stretch = worst_stretch.max(stretch);
        if step % window == 0 {
            let y = pos(&w, load).y;
            let speed = (y - y0) / (window as f32 * DT);
            y0 = y;
            let tension_error = (sum_t - sum_expected).abs() / n as f32 / (m * G);
            if step > 15 {
                worst_tension = worst_tension.max(tension_error);
            }
            if t > 1.0 && length > 1.1 {
                worst_speed = worst_speed.max((speed - 0.5).abs() / 0.5);
            }
            (sum_t, sum_expected, n) = (0.0, 0.0, 0);
        }
    }
    println!(
        "{substeps} substeps: reeled to {} m in {:.2} s; worst load speed error {:.2}%, \
         worst tension error {:.2}% of m g, worst stretch {:.3}%",
        w.winch_length(rope).unwrap(),
        step as f32 * DT,
        100.0 * worst_speed,
        100.0 * worst_tension,
        100.0 * worst_stretch
    );
    assert!((w.winch_length(rope).unwrap() - 1.0).abs() < 1e-3);
    assert!(worst_speed < 0.05, "{worst_speed}");
    assert!(worst_tension < 0.05, "{worst_tension}");
    assert!(worst_stretch < 0.01, "{worst_stretch}");
    assert_eq!(w.winch_speed(rope).unwrap(), 0.0);
    let d = drum.distance(pos(&w, load));
    assert!((d - 1.0).abs() < 0.01, "{d}");
}

/// Paying out from the end of a rope pinned at its end (with tethers): the rope grows
/// to its built length and stops there; reeling back in returns to the start length.
#[test]
fn winch_at_the_end_pays_out_and_in() {
    let mut w = World::new(WorldDesc {
        substeps: 16,
        damping: 1.0,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(0.0, -2.0, 0.0),
            end: Vec3::ZERO,
            segments: 20,
            pin_start: false,
            pin_end: true,
            ..RopeDesc::default()
        })
        .unwrap();
    w.add_winch(rope, RopeEnd::End, 0.55).unwrap();
    assert!((w.winch_length(rope).unwrap() - 0.55).abs() < 1e-5);
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let free = 0u32;
    let d = pos(&w, free).length();
    assert!((d - 0.55).abs() < 0.01, "{d}");
    w.set_winch_speed(rope, 1.0).unwrap();
    for _ in 0..180 {
        w.step(DT).unwrap();
    }
    // Fully paid out (2 m) after 1.45 s: stopped.
    assert_eq!(w.winch_speed(rope).unwrap(), 0.0);
    assert!((w.winch_length(rope).unwrap() - 2.0).abs() < 1e-4);
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let d = pos(&w, free).length();
    assert!((d - 2.0).abs() < 0.02, "{d}");
    w.set_winch_target(rope, 0.55, 1.0).unwrap();
    for _ in 0..240 {
        w.step(DT).unwrap();
    }
    assert!((w.winch_length(rope).unwrap() - 0.55).abs() < 1e-4);
    let d = pos(&w, free).length();
    assert!((d - 0.55).abs() < 0.01, "{d}");
}

#[test]
fn winch_bad_input_changes_nothing() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    let rope = w.add_rope(&RopeDesc::default()).unwrap();
    // The end is not pinned; lengths out of range; no winch yet.
    assert_eq!(
        w.add_winch(rope, RopeEnd::End, 0.5).unwrap_err().kind,
        ErrorKind::InvalidArgument
    );
    for bad in [0.0, -1.0, f32::NAN, 1.5] {
        let e = w.add_winch(rope, RopeEnd::Start, bad).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{bad}");
    }
    assert!(w.set_winch_speed(rope, 1.0).is_err());
    w.add_winch(rope, RopeEnd::Start, 1.0).unwrap();
    assert!(
        w.add_winch(rope, RopeEnd::Start, 1.0).is_err(),
        "one winch per rope"
    );
    for bad in [f32::NAN, f32::INFINITY, 2000.0] {
        assert!(w.set_winch_speed(rope, bad).is_err());
    }
    assert!(
        w.set_winch_target(rope, 1.5, 1.0).is_err(),
        "past the built length"
    );
    assert!(w.set_winch_target(rope, -0.1, 1.0).is_err());
    assert!(w.set_winch_target(rope, 0.5, 0.0).is_err());
    assert_eq!(w.winch_speed(rope).unwrap(), 0.0);
    assert!((w.winch_length(rope).unwrap() - 1.0).abs() < 1e-5);
    let cloth = w
        .add_cloth_grid(
            &sinew::ClothDesc::default(),
            &sinew::ClothGridDesc::default(),
        )
        .unwrap();
    assert_eq!(
        w.add_winch(cloth, RopeEnd::Start, 1.0).unwrap_err().kind,
        ErrorKind::InvalidArgument
    );
}

/// When the host moves the drum (the pinned end), the parked particles and the hanging
/// rope follow it.
#[test]
fn parked_particles_follow_a_moving_drum() {
    let mut w = World::new(WorldDesc {
        substeps: 16,
        damping: 2.0,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::ZERO,
            end: Vec3::new(0.0, -1.0, 0.0),
            segments: 10,
            ..RopeDesc::default()
        })
        .unwrap();
    w.add_winch(rope, RopeEnd::Start, 0.5).unwrap();
    let to = Vec3::new(1.0, 0.5, 0.0);
    w.write_positions(0, &[to]).unwrap();
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    for i in 0..5 {
        let d = pos(&w, i).distance(to);
        assert!(d < 1e-3, "parked particle {i} is {d} m from the drum");
    }
    let d = pos(&w, 10).distance(to + Vec3::new(0.0, -0.5, 0.0));
    assert!(d < 0.01, "free end {d} m from below the drum");
}

/// A winch's length never goes negative, whatever the calls: a rope cut on the drum
/// (a parked link) pays out up to the cut and stops there (the links parked past the
/// cut hold nothing); a rope reeled fully in reads 0 m, not a rounding below it.
#[test]
fn winch_length_never_goes_negative() {
    let world = || {
        World::new(WorldDesc {
            substeps: 16,
            threads: 1,
            ..WorldDesc::default()
        })
        .unwrap()
    };
    // Cut on the drum, then pay out: 10 links of 0.1 m, reeled in to 0.5 m (particles
    // 0..=5 parked), link 2 (between parked particles 2 and 3) cut.
    let mut w = world();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::ZERO,
            end: Vec3::new(0.0, -1.0, 0.0),
            segments: 10,
            ..RopeDesc::default()
        })
        .unwrap();
    w.add_winch(rope, RopeEnd::Start, 0.5).unwrap();
    w.cut_rope(rope, 2).unwrap();
    w.set_winch_speed(rope, 1.0).unwrap();
    for step in 0..120 {
        w.step(DT).unwrap();
        let l = w.winch_length(rope).unwrap();
        assert!((0.0..=1.0 + 1e-5).contains(&l), "step {step}: length {l}");
    }
    // Paid out to the cut: links 3..10 hang from the drum.
    assert_eq!(w.winch_speed(rope).unwrap(), 0.0);
    let l = w.winch_length(rope).unwrap();
    assert!((l - 0.7).abs() < 1e-5, "{l}");
    // Reeled fully in, by speed and to a target of 0, for ropes of every segment count.
    for segments in [7, 10, 15, 28, 40] {
        for by_target in [false, true] {
            let mut w = world();
            let rope = w
                .add_rope(&RopeDesc {
                    start: Vec3::new(0.3, 1.7, -0.2),
                    end: Vec3::new(0.9, 0.9, -0.2),
                    segments,
                    ..RopeDesc::default()
                })
                .unwrap();
            w.add_winch(rope, RopeEnd::Start, 0.5).unwrap();
            if by_target {
                w.set_winch_target(rope, 0.0, 2.0).unwrap();
            } else {
                w.set_winch_speed(rope, -2.0).unwrap();
            }
            for _ in 0..60 {
                w.step(DT).unwrap();
                let l = w.winch_length(rope).unwrap();
                assert!(l >= 0.0, "{segments} segments, target {by_target}: {l}");
            }
            assert_eq!(w.winch_speed(rope).unwrap(), 0.0);
            assert_eq!(w.winch_length(rope).unwrap(), 0.0, "{segments} segments");
        }
    }
}

/// One bound for `add_winch` and `set_winch_target`: the rope's exact built length (1 m
/// over 7, 15, 28 and 40 segments, 3 m over 30, in three orientations), which the
/// links' `f32` sum may read a rounding below, is accepted by both; 0.1% past it by
/// neither.
#[test]
fn winch_accepts_the_ropes_exact_built_length() {
    for (segments, len) in [(7u32, 1.0f32), (15, 1.0), (28, 1.0), (40, 1.0), (30, 3.0)] {
        for dir in [
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.6, -0.8, 0.0),
        ] {
            let rope_desc = RopeDesc {
                start: Vec3::new(0.3, 1.7, -0.2),
                end: Vec3::new(0.3, 1.7, -0.2) + dir * len,
                segments,
                ..RopeDesc::default()
            };
            let what = format!("{segments} segments, {len} m along {dir}");
            let mut w = World::new(WorldDesc::default()).unwrap();
            let rope = w.add_rope(&rope_desc).unwrap();
            let e = w.add_winch(rope, RopeEnd::Start, len * 1.001).unwrap_err();
            assert_eq!(e.kind, ErrorKind::InvalidArgument, "{what}");
            w.add_winch(rope, RopeEnd::Start, len)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let l = w.winch_length(rope).unwrap();
            assert!(l <= len && (l - len).abs() < 1e-5, "{what}: {l}");
            w.set_winch_target(rope, len, 1.0)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(
                w.set_winch_target(rope, len * 1.001, 1.0).is_err(),
                "{what}"
            );
            w.set_winch_target(rope, 0.5 * len, 1.0).unwrap();
            w.set_winch_target(rope, len, 1.0).unwrap();
        }
    }
}

/// A host that sets the two links by the drum to rest length 0 before attaching a
/// winch: the winch is accepted and the rope steps without NaN (its bend ratio at the
/// drum stays 1 instead of 0/0).
#[test]
fn a_winch_on_links_of_rest_length_zero_stays_finite() {
    let mut w = World::new(WorldDesc::default()).unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(0.0, 2.0, 0.0),
            end: Vec3::new(0.0, 1.0, 0.0),
            segments: 6,
            pin_start: true,
            tethers: false,
            ..RopeDesc::default()
        })
        .unwrap();
    let stretch = w.body(rope).unwrap().parts.stretch.clone();
    w.set_constraint_rest(sinew::FamilyKind::BodyLink, stretch.start, &[0.0, 0.0])
        .unwrap();
    // Two of the six 1/6 m links are now 0: the built length is 2/3 m.
    w.add_winch(rope, RopeEnd::Start, 0.6).unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let n = w.body(rope).unwrap().particles.len() as u32;
    let first = w.body(rope).unwrap().particles.start;
    for i in first..first + n {
        assert!(pos(&w, i).is_finite(), "particle {i}: {:?}", pos(&w, i));
    }
}

/// A winch on a rope whose first bend link the host removed (its rest length then
/// reads as removed, −1 m) leaves that link alone: the winch took the marker for a
/// length, its bend ratio came out negative, and the world's snapshot was refused by
/// its own loader (the API fuzzer found it). Every snapshot while it reels in loads.
#[test]
fn a_winch_beside_a_removed_bend_link_keeps_its_snapshots_loadable() {
    let segments = 10;
    let (mut w, rope) = level_rope(segments);
    // The rope's body links: its links, then its bend links.
    w.remove_constraints(sinew::FamilyKind::BodyLink, segments, 1)
        .unwrap();
    w.add_winch(rope, RopeEnd::Start, 0.5).unwrap();
    for frame in 0..30 {
        let copy = World::from_snapshot(&w.snapshot(), 1)
            .unwrap_or_else(|e| panic!("frame {frame}: its own snapshot refused: {e}"));
        assert_eq!(copy.state_hash(), w.state_hash(), "frame {frame}");
        w.step(DT).unwrap();
    }
}

/// A winch on a rope with a link the host removed (`World::remove_constraints` on one
/// link, which leaves the bend links over it and the tethers across it in place)
/// leaves the lengths that would sum the removed link as they were: the winch summed
/// its marker (−1 m) into the bend link past the paying link and into the tethers'
/// arcs, negative rest lengths in live constraints, and the world's snapshot was
/// refused by its own loader (the API fuzzer found it, seed 130005). The link next to
/// the paying one and one further down, paying out and reeling in: every snapshot
/// loads and gives the same state.
#[test]
fn a_winch_beside_a_removed_link_keeps_its_snapshots_loadable() {
    for (removed, speed) in [(2, 0.5), (2, -0.5), (5, -0.5), (5, 0.5)] {
        let (mut w, rope) = level_rope(10);
        w.add_winch(rope, RopeEnd::Start, 1.0).unwrap();
        w.set_winch_speed(rope, -0.5).unwrap();
        for _ in 0..20 {
            w.step(DT).unwrap();
        }
        w.remove_constraints(sinew::FamilyKind::BodyLink, removed, 1)
            .unwrap();
        w.set_winch_speed(rope, speed).unwrap();
        for frame in 0..40 {
            w.step(DT).unwrap();
            // The rope's 10 links and 9 bend links, its 9 tethers; a removed one reads
            // NaN.
            let (mut links, mut tethers) = ([0.0f32; 19], [0.0f32; 9]);
            w.read_constraint_rest(sinew::FamilyKind::BodyLink, 0, &mut links)
                .unwrap();
            w.read_constraint_rest(sinew::FamilyKind::Tether, 0, &mut tethers)
                .unwrap();
            for (what, l) in links
                .iter()
                .map(|l| ("link", l))
                .chain(tethers.iter().map(|l| ("tether", l)))
            {
                assert!(
                    l.is_nan() || *l >= 0.0,
                    "link {removed}, {speed} m/s, frame {frame}: a {what} of rest length {l} m"
                );
            }
            let copy = World::from_snapshot(&w.snapshot(), 1).unwrap_or_else(|e| {
                panic!("link {removed}, {speed} m/s, frame {frame}: its own snapshot refused: {e}")
            });
            assert_eq!(copy.state_hash(), w.state_hash(), "frame {frame}");
        }
        for i in 0..11 {
            assert!(
                pos(&w, i).is_finite(),
                "link {removed}, {speed} m/s: particle {i}"
            );
        }
    }
}

/// A winch added to a world restored from a forged snapshot (every 4-byte window of
/// the body overwritten with NaN, the largest float or the smallest normal one, and
/// resealed) either is refused or leaves a world whose snapshot loads: the loader took
/// rest lengths of NaN, infinity or below 0 and inverse masses past the largest a
/// winch keeps, from which the winch made a state its own loader refused (the API
/// fuzzer found it).
#[test]
fn a_winch_on_a_forged_world_is_refused_or_saves_a_loadable_snapshot() {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let ropes: Vec<BodyId> = (0..2)
        .map(|k| {
            w.add_rope(&RopeDesc {
                start: Vec3::new(0.0, 2.0, k as f32),
                end: Vec3::new(1.0, 2.0, k as f32),
                segments: 6,
                ..RopeDesc::default()
            })
            .unwrap()
        })
        .collect();
    for _ in 0..3 {
        w.step(DT).unwrap();
    }
    let snap = w.snapshot();
    let values = [f32::NAN.to_bits() | 0xffff, f32::MAX.to_bits(), 0x0080_0000];
    let mut refused = Vec::new();
    for (at, val, mut x) in forged_windows(&snap, &values) {
        for &r in &ropes {
            if x.add_winch(r, RopeEnd::Start, 0.3).is_ok() {
                if let Err(e) = World::from_snapshot(&x.snapshot(), 1) {
                    refused.push(format!("byte {at} = {val:#x}: {e}"));
                }
            }
        }
    }
    assert!(refused.is_empty(), "{refused:#?}");
}

/// A winch added to a rope stretched across the coordinate range (its drum at
/// x = −1e9 + 1 km, its other particles moved out near x = +1e9): reeling it in at
/// once parks the first link and moves the rope's free part so that the paying link's
/// point lies on the drum, which would put its far end about 7 km past −1e9 m. The
/// free part then stays where it is, every particle stays within ±1e9 m and the
/// world's snapshot loads (before, the far end went past the range with its step
/// start, and the world's own snapshot was refused: seed 125022 of a long API-fuzzer
/// run).
#[test]
fn reeling_in_at_once_keeps_the_rope_within_the_coordinate_range() {
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let x0 = -1.0e9 + 1000.0;
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(x0, 0.0, 0.0),
            end: Vec3::new(x0 + 3000.0, 0.0, 0.0),
            segments: 3,
            ..RopeDesc::default()
        })
        .unwrap();
    let (first, _) = w.body_particle_range(rope).unwrap();
    let far = [1.0e9 - 10.0, 1.0e9 - 600.0, 1.0e9 - 8000.0].map(|x| Vec3::new(x, 0.0, 0.0));
    w.write_positions(first + 1, &far).unwrap();
    // Built 3 km: the first link parks, half of the second pays out.
    w.add_winch(rope, RopeEnd::Start, 1500.0).unwrap();
    for k in 0..4 {
        let p = pos(&w, first + k);
        assert!(
            p.abs().max_element() <= 1.0e9,
            "particle {k} at {p}, past ±1e9 m"
        );
    }
    World::from_snapshot(&w.snapshot(), 1)
        .unwrap_or_else(|e| panic!("the world's own snapshot refused: {e}"));
}
