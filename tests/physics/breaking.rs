//! Breaking and cutting: a rope with a break force snaps when the weight it holds
//! passes it; break events name the body, link, force and place; ropes cut by link or
//! along a segment fall apart in two.
//!
//! `cargo test --test physics breaking:: -- --nocapture` prints the measured values.

use super::snapshot_fuzz::forged_windows;
use sinew::{
    BodyConstraints, BreakReport, ClothDesc, ClothGridDesc, ErrorKind, FamilyKind, RopeDesc, Vec3,
    World, WorldDesc,
};

const G: f32 = 9.81;
const DT: f32 = 1.0 / 60.0;

fn world(substeps: u32, damping: f32) -> World {
    World::new(WorldDesc {
        substeps,
        damping,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

fn pos(w: &World, i: u32) -> Vec3 {
    w.particles().position(i as usize)
}

/// A 1 m rope of 10 links and 0.11 kg hanging from its pin at the origin, with soft
/// bend links.
fn hanging_rope(w: &mut World, tethers: bool) -> sinew::BodyId {
    w.add_rope(&RopeDesc {
        start: Vec3::ZERO,
        end: Vec3::new(0.0, -1.0, 0.0),
        segments: 10,
        total_mass: 0.11,
        tethers,
        bend_compliance: 1.0,
        ..RopeDesc::default()
    })
    .unwrap()
}

fn take(w: &mut World) -> Vec<BreakReport> {
    let mut out = vec![
        BreakReport {
            body: None,
            family: FamilyKind::Tether,
            id: 0,
            force: 0.0,
            position: Vec3::ZERO,
        };
        16
    ];
    let (n, lost) = w.take_break_events(&mut out);
    assert_eq!(lost, 0);
    out.truncate(n);
    out
}

/// A 1 m rope (10 links, no tethers, soft bend links) with a break force of 50 N
/// holds a 1.8 kg bucket (its last particle) that fills with 0.5 kg of sand every
/// half second (each grain hung rigidly straight below the bucket). The weight after n grains is
/// W_n = (m_rope + 1.8 + 0.5 n) g (W_5 = 43.1 N, W_6 = 48.0 N, W_7 = 52.9 N). The
/// rope must snap at its top link with the grain that brings the weight within one
/// grain's weight (4.9 N) of 50 N: the 6th or the 7th. (A grain hung suddenly is a
/// step load, which an elastic rope overshoots by up to the grain's weight, so the 6th
/// may already do it.) Then the bucket falls freely while the top piece stays.
#[test]
fn rope_snaps_when_the_filling_bucket_passes_its_break_force() {
    let mut w = world(32, 1.0);
    let rope = hanging_rope(&mut w, false);
    let bucket = 10u32;
    w.set_inverse_masses(bucket, &[1.0 / 1.8]).unwrap();
    w.set_body_break_force(rope, 50.0).unwrap();
    assert_eq!(
        w.constraint_break_force(FamilyKind::BodyLink, 0).unwrap(),
        50.0
    );
    let movable_rope = 9.0 * 0.01;
    let weight = |n: u32| (movable_rope + 1.8 + 0.5 * n as f32) * G;
    let mut grains = 0u32;
    let mut snapped_at = None;
    for step in 0..600 {
        if step % 30 == 29 && snapped_at.is_none() {
            let b = pos(&w, bucket);
            // Straight below the bucket (a grain hung to one side would swing and
            // pull harder than its weight).
            let grain = b + Vec3::new(0.0, -0.02 * (grains + 1) as f32, 0.0);
            let g = w.add_particles(&[grain], Some(&[2.0])).unwrap();
            w.add_distance_constraints(&[[bucket, g]], None, 0.0)
                .unwrap();
            grains += 1;
        }
        w.step(DT).unwrap();
        let events = take(&mut w);
        if !events.is_empty() && snapped_at.is_none() {
            let e = events[0];
            println!(
                "snapped with {grains} grains: W = {} N (before the last grain {} N), \
                 event force {} N at {} on {:?} link {}",
                weight(grains),
                weight(grains - 1),
                e.force,
                e.position,
                e.body,
                e.id
            );
            assert_eq!(e.body, Some(rope));
            assert_eq!(e.family, FamilyKind::BodyLink);
            assert_eq!(e.id, 0, "the top link carries the most");
            assert!(e.force > 50.0 && e.force < 50.0 + 0.5 * G, "{}", e.force);
            assert!((e.position - Vec3::new(0.0, -0.05, 0.0)).length() < 0.01);
            snapped_at = Some((step, grains, pos(&w, bucket).y));
        }
    }
    let (_, n, y) = snapped_at.expect("the rope never snapped");
    let grain = 0.5 * G;
    assert!(
        (weight(n) - 50.0).abs() <= grain && weight(n - 1) < 50.0,
        "snapped at {n} grains"
    );
    assert!(
        pos(&w, bucket).y < y - 5.0,
        "the bucket fell: {}",
        pos(&w, bucket).y
    );
    // Particle 1 hangs from the pin by nothing: the top link broke.
    assert!(pos(&w, 1).y < -5.0);
}

/// A 2 m rope of 20 links pinned at both ends (with tethers from both), stretched level
/// between its pins, after half a second.
fn spanning_rope() -> (World, sinew::BodyId) {
    let mut w = world(16, 2.0);
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::ZERO,
            end: Vec3::new(2.0, 0.0, 0.0),
            segments: 20,
            pin_end: true,
            ..RopeDesc::default()
        })
        .unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    (w, rope)
}

/// A rope pinned at both ends (with tethers from both) cut at its middle link by id
/// becomes two pieces hanging from the pins: links 0..=9 (1 m) on the left, 11..=19
/// (0.9 m) on the right; each free end ends up its piece's length below its pin.
#[test]
fn rope_cut_by_link_falls_apart_in_two() {
    let (mut w, rope) = spanning_rope();
    w.cut_rope(rope, 10).unwrap();
    for _ in 0..600 {
        w.step(DT).unwrap();
    }
    let (left, right) = (pos(&w, 10), pos(&w, 11));
    println!("free ends at {left} and {right}");
    assert!((left - Vec3::new(0.0, -1.0, 0.0)).length() < 0.02, "{left}");
    // Links 11..19 of 0.1 m remain on the right.
    assert!(
        (right - Vec3::new(2.0, -0.9, 0.0)).length() < 0.02,
        "{right}"
    );
    assert!(take(&mut w).is_empty(), "a cut is not a break event");
    // Cutting again there is harmless; out of range and non-ropes are refused.
    w.cut_rope(rope, 10).unwrap();
    let e = w.cut_rope(rope, 20).unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfRange);
    let cloth = w
        .add_cloth_grid(
            &ClothDesc::default(),
            &ClothGridDesc {
                segments_u: 2,
                segments_v: 2,
                ..ClothGridDesc::default()
            },
        )
        .unwrap();
    let e = w.cut_rope(cloth, 0).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument, "{e}");
    let e = w.set_body_break_force(cloth, 10.0).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArgument);
}

/// The same rope with its middle link removed by id instead (`remove_constraints`,
/// the host's edit of exactly the constraints it names) stays whole, as the C API
/// documents: the bend links over the removed link (rest length 0.2 m) and the
/// tethers across it hold particles 10 and 11 together (0.10 m apart, measured), and
/// the rope still spans its pins (its middle 1.7 cm below them, measured), where the
/// cut rope's two ends hang 1 m and 0.9 m below the pins.
#[test]
fn a_rope_with_one_link_removed_stays_whole() {
    let (mut w, _) = spanning_rope();
    w.remove_constraints(FamilyKind::BodyLink, 10, 1).unwrap();
    for _ in 0..600 {
        w.step(DT).unwrap();
    }
    let (left, right) = (pos(&w, 10), pos(&w, 11));
    let gap = (right - left).length();
    println!("particles 10 and 11 at {left} and {right}, {gap} m apart");
    assert!(gap < 0.2 + 0.01, "{gap} m");
    assert!(left.y > -0.1 && right.y > -0.1, "{left} {right}");
}

/// A sword swipe across a horizontal rope cuts the link it crosses.
#[test]
fn rope_cut_along_a_segment_cuts_the_nearest_link() {
    let mut w = world(8, 0.0);
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::ZERO,
            end: Vec3::new(1.0, 0.0, 0.0),
            segments: 10,
            pin_end: true,
            ..RopeDesc::default()
        })
        .unwrap();
    // A vertical swipe at x = 0.33 crosses link 3 (0.3..0.4 m).
    let link = w
        .cut_rope_along(rope, Vec3::new(0.33, 1.0, 0.1), Vec3::new(0.33, -1.0, -0.1))
        .unwrap();
    assert_eq!(link, 3);
    // The next swipe at the same place takes the nearest live link instead.
    let link = w
        .cut_rope_along(rope, Vec3::new(0.33, 1.0, 0.0), Vec3::new(0.33, -1.0, 0.0))
        .unwrap();
    assert!(link == 2 || link == 4, "{link}");
    for bad in [f32::NAN, f32::INFINITY] {
        let e = w
            .cut_rope_along(rope, Vec3::new(bad, 0.0, 0.0), Vec3::ZERO)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
    }
}

/// Break forces per constraint: a host distance constraint holding 1 kg breaks at
/// 5 N (weight 9.81 N) in the first step, the one at 20 N holds; bad forces are
/// refused.
#[test]
fn constraint_break_force_per_id() {
    let mut w = world(8, 0.0);
    w.add_particles(
        &[
            Vec3::ZERO,
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
        ],
        Some(&[0.0, 1.0, 1.0]),
    )
    .unwrap();
    w.add_particles(&[Vec3::new(1.0, 0.0, 0.0)], Some(&[0.0]))
        .unwrap();
    w.add_distance_constraints(&[[0, 1], [3, 2]], None, 0.0)
        .unwrap();
    w.set_constraint_break_force(FamilyKind::Distance, 0, 1, 5.0)
        .unwrap();
    w.set_constraint_break_force(FamilyKind::Distance, 1, 1, 20.0)
        .unwrap();
    for bad in [0.0, -1.0, f32::NAN] {
        let e = w
            .set_constraint_break_force(FamilyKind::Distance, 0, 1, bad)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument);
    }
    let e = w
        .set_constraint_break_force(FamilyKind::Distance, 2, 1, 5.0)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::OutOfRange);
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let events = take(&mut w);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(
        (events[0].family, events[0].id, events[0].body),
        (FamilyKind::Distance, 0, None)
    );
    assert!(
        events[0].force > 5.0 && events[0].force < 12.0,
        "{}",
        events[0].force
    );
    assert!(w.is_constraint_removed(FamilyKind::Distance, 0).unwrap());
    assert!(!w.is_constraint_removed(FamilyKind::Distance, 1).unwrap());
    assert!(pos(&w, 1).y < -5.0);
    assert!((pos(&w, 2).y + 1.0).abs() < 1e-3);
}

/// A rope suddenly loaded from rest parts at one link: a 1 m rope (10 links, no
/// tethers) with a break force of 50 N has a load of 0.85 × 50 N / g hung at once on
/// its free end; the elastic rope overshoots past its break force (about 1.8 times the
/// weight) in every link at once, and a real chain then parts at one link, after
/// which the load falls freely: one break event in 40 steps (the recoil of the
/// released stretch breaks nothing more), the load falling at g from it on, the
/// piece above the break still hanging from the pin.
#[test]
fn a_suddenly_loaded_rope_parts_at_one_link() {
    let mut w = world(32, 0.0);
    let rope = hanging_rope(&mut w, false);
    let force = 50.0;
    w.set_body_break_force(rope, force).unwrap();
    let load = 10u32;
    w.set_inverse_masses(load, &[G / (0.85 * force)]).unwrap();
    let mut events = Vec::new();
    let mut broke = None;
    for step in 0..40 {
        w.step(DT).unwrap();
        let e = take(&mut w);
        if !e.is_empty() && broke.is_none() {
            broke = Some((step, pos(&w, load).y));
        }
        events.extend(e.into_iter().map(|e| (step, e)));
    }
    println!("{events:?}");
    assert_eq!(events.len(), 1, "one link breaks: {events:?}");
    let (step, y0) = broke.expect("the overshoot breaks the rope");
    let t = (39 - step) as f32 * DT;
    let drop = y0 - pos(&w, load).y;
    assert!(
        drop > 0.9 * 0.5 * G * t * t,
        "the load falls: {drop} m in {t} s"
    );
    // The pin holds what is left above the break; the rest of the rope fell with the
    // load.
    let top = events[0].1.id;
    assert_eq!(pos(&w, 0), Vec3::ZERO);
    for i in 1..=top {
        assert!(
            pos(&w, i).y > -0.2 - 0.1 * i as f32,
            "particle {i} above the break"
        );
    }
    for i in top + 1..=load {
        assert!(pos(&w, i).y < -1.0, "particle {i} fell: {}", pos(&w, i).y);
    }
}

/// Issue 28 item 9 in the breaking rule: a rope breaks at its tension, the force its
/// link reads back (the link's own force plus that of every tether spanning it), not
/// at the link's own share. With tethers on (the default) the tethers carry most of a
/// hanging rope's weight, and a rope that compared only its links' own forces with
/// its break force never parted. A 1 m rope (10 links) hanging from its pin, a load
/// on its free end: under 1.5 × the break force it parts (the event reports the
/// tension, above the break force) and the load falls; under 0.4 × it (a
/// load hung from rest overshoots to about twice its weight) it holds, its top link
/// reading the weight below it. Tethers on and off alike.
#[test]
fn a_tethered_rope_breaks_at_its_tension() {
    let force = 20.0;
    for tethers in [false, true] {
        for (ratio, parts) in [(0.4f32, false), (1.5, true)] {
            let mut w = world(32, 1.0);
            let rope = hanging_rope(&mut w, tethers);
            let load = 10u32;
            let mass = ratio * force / G;
            w.set_inverse_masses(load, &[1.0 / mass]).unwrap();
            w.set_body_break_force(rope, force).unwrap();
            let case = format!("tethers {tethers}, load {ratio} x the break force");
            let mut events = Vec::new();
            let mut top = 0.0f32;
            // 4 s: the oscillation of the load hung from rest dies out.
            for _ in 0..240 {
                w.step(DT).unwrap();
                events.extend(take(&mut w));
                let mut t = [0.0f32; 10];
                w.read_body_forces(rope, BodyConstraints::Stretch, &mut t)
                    .unwrap();
                top = t[0];
            }
            println!("{case}: {events:?}, top link reads {top} N at the end");
            if parts {
                // The recoil of the released stretch may part the falling piece again
                // in a later step; the first break is the load's.
                assert!(!events.is_empty(), "{case}: the rope holds");
                let e = events[0];
                assert_eq!((e.body, e.family), (Some(rope), FamilyKind::BodyLink));
                assert!(e.force > force, "{case}: event force {}", e.force);
                assert!(pos(&w, load).y < -3.0, "{case}: the load fell");
            } else {
                assert!(events.is_empty(), "{case}: {events:?}");
                // The weight below the top link: the load and 9 of the rope's 11
                // particles of 0.01 kg.
                let weight = (mass + 0.09) * G;
                assert!(
                    (top - weight).abs() < 0.05 * weight,
                    "{case}: the top link reads {top} N, the weight below it is {weight} N"
                );
            }
        }
    }
}

/// A rope's snapshot with every 4-byte window of its body overwritten with 0, 1 or 2
/// (a range end moved onto its start, a count cut short) and resealed: a world the
/// loader accepts takes a break force on the rope (or refuses it) and saves a snapshot
/// that loads. The loader took a rope body of no particles and 6 links, and the
/// breakable rope made from it was refused by the next load (API fuzzer seed 135034).
#[test]
fn a_forged_rope_body_is_refused_or_stays_a_rope() {
    let mut w = world(4, 0.0);
    let rope = hanging_rope(&mut w, true);
    w.step(DT).unwrap();
    let snap = w.snapshot();
    let (mut loaded, mut refused) = (0, Vec::new());
    for (at, val, mut x) in forged_windows(&snap, &[0, 1, 2]) {
        loaded += 1;
        let _ = x.set_body_break_force(rope, 5.0);
        if let Err(e) = World::from_snapshot(&x.snapshot(), 1) {
            refused.push(format!("byte {at} = {val}: {e}"));
        }
    }
    assert!(loaded > 100, "{loaded} forged worlds loaded");
    assert!(refused.is_empty(), "{refused:#?}");
}
