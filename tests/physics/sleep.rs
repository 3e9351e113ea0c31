//! Sleeping (src/world/sleep.rs): piles and ropes at rest fall asleep, every wake
//! trigger wakes them, a woken world goes on as one that never slept (within the
//! tolerances below), the same on 1 and 4 threads, and snapshots keep the sleep state.

use sinew::{
    BodyId, ColliderDesc, FluidDesc, ParticleMaterial, Quat, RopeDesc, Shape, Transform, Vec3,
    WindDesc, World, WorldDesc,
};

const DT: f32 = 1.0 / 60.0;
/// Grain radius (m).
const R: f32 = 0.05;

fn desc(sleeping: bool, threads: u32) -> WorldDesc {
    WorldDesc {
        sleeping,
        threads,
        substeps: 8,
        ..WorldDesc::default()
    }
}

/// A ground plane and a pyramid of rough grains resting on it (close packed: 4×4, 3×3
/// in the pockets above, 2×2 on top; slightly apart), a pile that stands.
fn pile(sleeping: bool, threads: u32) -> World {
    let mut w = World::new(desc(sleeping, threads)).unwrap();
    w.add_collider(&ColliderDesc {
        shape: Shape::Plane,
        static_friction: 0.8,
        dynamic_friction: 0.6,
        ..ColliderDesc::default()
    })
    .unwrap();
    let mut x = Vec::new();
    let d = 2.02 * R;
    for k in 0..3 {
        for j in 0..4 - k {
            for i in 0..4 - k {
                x.push(Vec3::new(
                    (i as f32 + 0.5 * k as f32) * d,
                    R + k as f32 * d * std::f32::consts::FRAC_1_SQRT_2,
                    (j as f32 + 0.5 * k as f32) * d,
                ));
            }
        }
    }
    let first = w.add_particles(&x, None).unwrap();
    let n = x.len() as u32;
    w.set_particle_radii(first, &vec![R; n as usize]).unwrap();
    let sand = ParticleMaterial {
        static_friction: 0.8,
        dynamic_friction: 0.6,
        ..ParticleMaterial::default()
    };
    w.set_particle_material(first, n, &sand).unwrap();
    w
}

/// A rope hanging from its pinned start, damped so that it comes to rest.
fn rope(w: &mut World, x: f32) -> BodyId {
    w.add_rope(&RopeDesc {
        start: Vec3::new(x, 2.0, 0.0),
        end: Vec3::new(x, 1.0, 0.0),
        segments: 10,
        damping: 2.0,
        ..RopeDesc::default()
    })
    .unwrap()
}

fn steps(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(DT).unwrap();
    }
}

/// Steps until every particle sleeps (at most `seconds`); returns the steps taken.
fn until_asleep(w: &mut World, seconds: f32) -> usize {
    let max = (seconds / DT) as usize;
    for k in 0..max {
        if w.asleep_particle_count() == w.particle_count() {
            return k;
        }
        w.step(DT).unwrap();
    }
    panic!(
        "{} of {} particles asleep after {seconds} s",
        w.asleep_particle_count(),
        w.particle_count()
    );
}

fn positions(w: &World) -> Vec<Vec3> {
    (0..w.particle_count() as usize)
        .map(|i| w.particles().position(i))
        .collect()
}

fn max_gap(a: &[Vec3], b: &[Vec3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f32::max)
}

/// A pile of loose grains (no constraint between them) settles and sleeps as one
/// island; a sleeping particle does not move and reports velocity 0; the profiler's
/// count of awake bodies follows the ropes.
#[test]
fn a_pile_settles_and_sleeps() {
    let mut w = pile(true, 1);
    let took = until_asleep(&mut w, 10.0);
    assert!(
        took > 30,
        "slept after {took} steps: too early to have settled"
    );
    let before = positions(&w);
    steps(&mut w, 30);
    assert_eq!(positions(&w), before, "a sleeping pile does not move");
    for i in 0..w.particle_count() {
        assert!(w.particle_is_asleep(i).unwrap());
        assert_eq!(w.particles().velocity(i as usize), Vec3::ZERO);
    }
    let r = rope(&mut w, 3.0);
    assert_eq!(w.profile_counts().awake_bodies, 1);
    until_asleep(&mut w, 20.0);
    assert!(w.body_is_asleep(r).unwrap());
    assert_eq!(w.profile_counts().awake_bodies, 0);
    assert_eq!(w.profile_counts().bodies, 1);
}

/// Sleeping off (the default) keeps every particle awake.
#[test]
fn nothing_sleeps_while_sleeping_is_off() {
    let mut w = pile(false, 1);
    steps(&mut w, 300);
    assert_eq!(w.asleep_particle_count(), 0);
    let r = rope(&mut w, 3.0);
    assert!(w.sleep_body(r).is_err());
}

/// A ball dropped onto the sleeping pile wakes it, and everything settles where it
/// settles in a world that never slept: within one grain radius.
#[test]
fn a_ball_wakes_the_pile_and_it_settles_as_if_it_never_slept() {
    let mut runs = Vec::new();
    for sleeping in [true, false] {
        let mut w = pile(sleeping, 1);
        steps(&mut w, 240);
        if sleeping {
            assert_eq!(w.asleep_particle_count(), w.particle_count());
        }
        // Off the pile's axis, over a grain of the second layer: it knocks the slope
        // and rolls off outward.
        let ball = w
            .add_particles(&[Vec3::new(0.3 * R, 0.5, 0.2 * R)], None)
            .unwrap();
        w.set_particle_radii(ball, &[R]).unwrap();
        let mut woke = false;
        for _ in 0..60 {
            w.step(DT).unwrap();
            woke |= sleeping && w.asleep_particle_count() == 0;
        }
        assert!(!sleeping || woke, "the ball woke the pile");
        steps(&mut w, 300);
        runs.push(positions(&w));
    }
    let gap = max_gap(&runs[0], &runs[1]);
    assert!(gap < R, "settled {gap} m apart (radius {R} m)");
}

/// A rope that slept and is pushed continues as the never-slept rope pushed the same
/// way: within 1 cm over the following 2 s (the sleeping rope was frozen where the
/// awake one still crept, at under 4.5 cm/s).
#[test]
fn a_woken_rope_continues_as_one_that_never_slept() {
    let mut runs = Vec::new();
    for sleeping in [true, false] {
        let mut w = World::new(desc(sleeping, 1)).unwrap();
        let r = rope(&mut w, 0.0);
        steps(&mut w, 600);
        assert_eq!(w.body_is_asleep(r).unwrap(), sleeping);
        let push = vec![Vec3::new(1.0, 0.0, 0.0); 11];
        w.write_velocities(0, &push).unwrap();
        assert!(!w.body_is_asleep(r).unwrap());
        let mut path = Vec::new();
        for _ in 0..120 {
            w.step(DT).unwrap();
            path.extend(positions(&w));
        }
        runs.push(path);
    }
    let gap = max_gap(&runs[0], &runs[1]);
    assert!(gap < 0.01, "{gap} m apart");
}

/// Which particles sleep, when, and where everything is: the same bits on 1 and 4
/// threads.
#[test]
fn sleeping_is_the_same_on_one_and_four_threads() {
    let run = |threads| {
        let mut w = pile(true, threads);
        rope(&mut w, 2.0);
        let mut trace = Vec::new();
        for k in 0..400 {
            w.step(DT).unwrap();
            trace.push(w.asleep_particle_count());
            if k == 300 {
                w.write_velocities(0, &[Vec3::new(0.0, 2.0, 0.0)]).unwrap();
            }
        }
        let bits: Vec<[u32; 3]> = positions(&w)
            .iter()
            .map(|p| p.to_array().map(f32::to_bits))
            .collect();
        (trace, bits, w.state_hash())
    };
    let one = run(1);
    assert!(one.0.iter().any(|&n| n > 0));
    assert_eq!(one, run(4));
}

/// A sleeping rope, and a bystander rope far away, for the wake triggers.
fn sleeping_ropes() -> (World, BodyId, BodyId) {
    let mut w = World::new(desc(true, 1)).unwrap();
    let a = rope(&mut w, 0.0);
    let b = rope(&mut w, 50.0);
    until_asleep(&mut w, 20.0);
    (w, a, b)
}

/// Each trigger wakes the rope it touches (its whole island) and not the far one.
#[test]
fn every_trigger_wakes_the_island_it_touches() {
    type Trigger = fn(&mut World, BodyId);
    let triggers: [(&str, Trigger); 12] = [
        ("explicit", |w, a| w.wake_body(a).unwrap()),
        ("velocity", |w, _| {
            w.write_velocities(5, &[Vec3::X]).unwrap()
        }),
        ("position", |w, _| {
            w.write_positions(5, &[Vec3::new(0.1, 1.5, 0.0)]).unwrap()
        }),
        ("mass", |w, a| w.set_body_mass(a, 2.0).unwrap()),
        ("rest scale", |w, a| w.set_body_rest_scale(a, 0.9).unwrap()),
        ("cut", |w, a| w.cut_rope(a, 4).unwrap()),
        ("grab", |w, _| {
            w.grab_particle(10, Vec3::new(0.5, 1.0, 0.0), 0.0).unwrap()
        }),
        ("constraint rest", |w, _| {
            w.set_constraint_rest(sinew::FamilyKind::BodyLink, 3, &[0.2])
                .unwrap()
        }),
        ("new constraint", |w, _| {
            w.add_distance_constraints(&[[3, 9]], Some(&[0.1]), 0.0)
                .unwrap();
        }),
        ("collider moved in", |w, _| {
            let c = w
                .add_collider(&ColliderDesc {
                    shape: Shape::Sphere { radius: 0.2 },
                    position: Vec3::new(3.0, 1.5, 0.0),
                    ..ColliderDesc::default()
                })
                .unwrap();
            assert_eq!(w.asleep_particle_count(), w.particle_count());
            w.set_collider_transform(c, Vec3::new(0.15, 1.5, 0.0), Quat::IDENTITY, false)
                .unwrap();
        }),
        ("attachment host moved", |w, _| {
            let at = |x: f32| Transform {
                position: Vec3::new(x, 1.0, 0.0),
                rotation: Quat::IDENTITY,
            };
            let t = at(0.0);
            let h = w.add_attachment_host(t).unwrap();
            w.set_attachment_host_transform(h, t).unwrap();
            // Attaching wakes; after it sleeps again, the host moving wakes it.
            w.add_attachments(h, &[10], None, 0.0).unwrap();
            until_asleep(w, 20.0);
            w.set_attachment_host_transform(h, t).unwrap();
            assert_eq!(w.asleep_particle_count(), w.particle_count());
            w.set_attachment_host_transform(h, at(0.3)).unwrap();
        }),
        ("wind", |w, a| {
            w.set_body_aerodynamics(a, 1.0, 0.0).unwrap();
            until_asleep(w, 20.0);
            w.set_wind(&WindDesc {
                velocity: Vec3::new(5.0, 0.0, 0.0),
                ..WindDesc::default()
            })
            .unwrap();
            // The wind blows on rope a only (b has no aerodynamics): it wakes at the
            // end of the next step.
            w.step(DT).unwrap();
        }),
    ];
    for (name, trigger) in triggers {
        let (mut w, a, b) = sleeping_ropes();
        trigger(&mut w, a);
        assert!(!w.body_is_asleep(a).unwrap(), "{name}: rope a woke");
        assert!(w.body_is_asleep(b).unwrap(), "{name}: rope b sleeps on");
        // Woken, it simulates: a step moves something (but the explicit wake of a rope
        // at rest, which may not move).
        if name != "explicit" {
            let before = positions(&w);
            steps(&mut w, 2);
            assert_ne!(positions(&w), before, "{name}: the woken rope moves");
        }
    }
}

/// Contact wakes: a ball falling onto a sleeping rope, and fluid arriving.
#[test]
fn contact_and_fluid_wake_a_sleeping_rope() {
    for what in ["ball", "fluid"] {
        let mut w = World::new(desc(true, 1)).unwrap();
        let a = w
            .add_rope(&RopeDesc {
                start: Vec3::new(0.0, 1.0, 0.0),
                end: Vec3::new(1.0, 1.0, 0.0),
                segments: 10,
                pin_end: true,
                radius: 0.05,
                damping: 2.0,
                ..RopeDesc::default()
            })
            .unwrap();
        let (first, count) = w.body_particle_range(a).unwrap();
        w.set_particle_radii(first, &vec![0.05; count as usize])
            .unwrap();
        until_asleep(&mut w, 20.0);
        match what {
            "ball" => {
                let ball = w.add_particles(&[Vec3::new(0.5, 1.6, 0.0)], None).unwrap();
                w.set_particle_radii(ball, &[0.05]).unwrap();
            }
            _ => {
                let f = w
                    .add_fluid(&FluidDesc {
                        capacity: 64,
                        spacing: 0.05,
                        ..FluidDesc::default()
                    })
                    .unwrap();
                let drop: Vec<Vec3> = (0..8)
                    .map(|k| {
                        Vec3::new(
                            0.45 + 0.05 * (k % 2) as f32,
                            1.4 + 0.05 * (k / 2) as f32,
                            0.0,
                        )
                    })
                    .collect();
                w.emit_fluid(f, &drop, None).unwrap();
            }
        }
        let mut woke = false;
        for _ in 0..60 {
            w.step(DT).unwrap();
            woke |= !w.body_is_asleep(a).unwrap();
        }
        assert!(woke, "{what} woke the rope");
    }
}

/// Explicit sleep and wake-all; turning sleeping off wakes everything.
#[test]
fn explicit_sleep_wake_all_and_off() {
    let mut w = World::new(desc(true, 1)).unwrap();
    let a = rope(&mut w, 0.0);
    let b = rope(&mut w, 5.0);
    w.sleep_body(a).unwrap();
    assert!(w.body_is_asleep(a).unwrap() && !w.body_is_asleep(b).unwrap());
    w.wake_all();
    assert_eq!(w.asleep_particle_count(), 0);
    until_asleep(&mut w, 20.0);
    w.set_sleeping(false);
    assert_eq!(w.asleep_particle_count(), 0);
    steps(&mut w, 10);
    assert_eq!(w.asleep_particle_count(), 0);
}

/// A snapshot keeps the sleep settings, which particles sleep and their rest counts:
/// the restored world steps (and falls asleep) as the saved one.
#[test]
fn snapshots_keep_the_sleep_state() {
    let mut w = pile(true, 1);
    let r = rope(&mut w, 3.0);
    steps(&mut w, 150);
    let asleep = w.asleep_particle_count();
    let bytes = w.snapshot();
    let mut copy = World::from_snapshot(&bytes, 1).unwrap();
    assert!(copy.desc().sleeping);
    assert_eq!(copy.asleep_particle_count(), asleep);
    assert_eq!(
        copy.body_is_asleep(r).unwrap(),
        w.body_is_asleep(r).unwrap()
    );
    assert_eq!(copy.state_hash(), w.state_hash());
    for _ in 0..200 {
        w.step(DT).unwrap();
        copy.step(DT).unwrap();
        assert_eq!(copy.asleep_particle_count(), w.asleep_particle_count());
    }
    assert_eq!(copy.state_hash(), w.state_hash());
    let mut other = World::new(WorldDesc::default()).unwrap();
    other.restore_snapshot(&bytes).unwrap();
    assert_eq!(other.asleep_particle_count(), asleep);
}

/// Bodies added while others sleep: the world steps (the new constraint sets are
/// rebuilt next to frozen particles), and the new bodies do not sleep at once.
#[test]
fn bodies_added_next_to_sleeping_ones_step() {
    let mut w = World::new(desc(true, 1)).unwrap();
    rope(&mut w, 0.0);
    w.sleep_all().unwrap();
    steps(&mut w, 2);
    let r2 = rope(&mut w, 1.0);
    let c = w
        .add_cloth_grid(
            &sinew::ClothDesc::default(),
            &sinew::ClothGridDesc {
                origin: Vec3::new(3.0, 1.0, 0.0),
                segments_u: 4,
                segments_v: 4,
                pin_corners: 1,
                ..sinew::ClothGridDesc::default()
            },
        )
        .unwrap();
    steps(&mut w, 3);
    assert!(!w.body_is_asleep(r2).unwrap() && !w.body_is_asleep(c).unwrap());
    w.sleep_all().unwrap();
    rope(&mut w, 2.0);
    steps(&mut w, 3);
}

/// A world made from a snapshot while things sleep takes new bodies and steps.
#[test]
fn a_world_from_a_snapshot_with_sleepers_takes_new_bodies() {
    for threads in [1, 2, 4] {
        let mut w = World::new(desc(true, threads)).unwrap();
        rope(&mut w, 0.0);
        w.sleep_all().unwrap();
        let mut copy = World::from_snapshot(&w.snapshot(), threads).unwrap();
        let verts = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
        ];
        copy.add_cloth_mesh(
            &sinew::ClothDesc::default(),
            &verts,
            &[[0, 1, 2], [0, 2, 3]],
            &[1.0; 4],
        )
        .unwrap();
        copy.add_tet_body(
            &sinew::TetBodyDesc::default(),
            &verts,
            &[[0, 1, 2, 3]],
            None,
        )
        .unwrap();
        steps(&mut copy, 3);
    }
}
