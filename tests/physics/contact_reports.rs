//! What the colliders' contacts report to a game: the per-contact point, normal,
//! normal and friction impulses, each collider's summed force and torque, and the
//! begin / persist / end events of (collider, body) pairs, against closed forms.

use sinew::{
    ClothDesc, ClothGridDesc, ColliderDesc, ContactEvent, ContactEventKind, Quat, RopeDesc, Shape,
    Vec3, World, WorldDesc,
};

use super::collisions::{pos, world, DT};

const G: f32 = 9.81;

/// A box of half extents (2, 0.1, 2) whose top face is y = 0.
fn table(w: &mut World, mu: f32) -> sinew::ColliderId {
    w.add_collider(&ColliderDesc {
        shape: Shape::Box {
            half_extents: Vec3::new(2.0, 0.1, 2.0),
        },
        position: Vec3::new(0.0, -0.1, 0.0),
        static_friction: mu,
        dynamic_friction: mu,
        ..ColliderDesc::default()
    })
    .unwrap()
}

/// A pile of `layers` layers of 4 × 4 particles (radius 5 cm, 0.25 kg each, 2.1 radii
/// apart) standing on y = 0 from x = z = 0, added as the world's first particles;
/// returns their count and each one's mass (kg).
pub(super) fn add_pile(w: &mut World, layers: u32) -> (u32, f32) {
    let r = 0.05;
    let count = 16 * layers;
    let pts: Vec<Vec3> = (0..count)
        .map(|i| {
            Vec3::new(
                (i % 4) as f32 * 2.1 * r,
                r + (i / 16) as f32 * 2.1 * r,
                ((i / 4) % 4) as f32 * 2.1 * r,
            )
        })
        .collect();
    let mass = 0.25;
    w.add_particles(&pts, Some(&vec![1.0 / mass; pts.len()]))
        .unwrap();
    w.set_particle_radii(0, &vec![r; pts.len()]).unwrap();
    (count, mass)
}

/// The mean force (N) on `id` over `steps` steps.
fn mean_force(w: &mut World, id: sinew::ColliderId, steps: u32) -> Vec3 {
    let mut sum = Vec3::ZERO;
    for _ in 0..steps {
        w.step(DT).unwrap();
        sum += w.collider_contact_wrench(id, None).unwrap().force;
    }
    sum / steps as f32
}

/// A cloth of 1 kg settled on a table pushes it down with its weight, and the
/// torque about the table's centre is that of the weight at the cloth's centre.
#[test]
fn a_resting_cloth_weighs_on_its_collider() {
    let mut w = world(8, 2, 1);
    let id = table(&mut w, 0.5);
    w.add_cloth_grid(
        &ClothDesc::default(),
        &ClothGridDesc {
            origin: Vec3::new(0.3, 0.05, -0.5),
            u: Vec3::X,
            v: Vec3::Z,
            segments_u: 10,
            segments_v: 10,
            total_mass: 1.0,
            ..ClothGridDesc::default()
        },
    )
    .unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let f = mean_force(&mut w, id, 60);
    assert!((f.y + G).abs() < 0.03 * G, "force {f}");
    assert!(f.x.abs() + f.z.abs() < 0.03 * G, "no sideways force: {f}");
    // The cloth spans x in [0.3, 1.3], z in [-0.5, 0.5]: its weight acts at x = 0.8,
    // so the torque about the table's centre is r × F = (0.8, 0, 0) × (0, −mg, 0).
    let t = w.collider_contact_wrench(id, None).unwrap().torque;
    assert!((t.z + 0.8 * G).abs() < 0.05 * G, "torque {t}");
    // About the cloth's centre the weight has no moment.
    let about = w
        .collider_contact_wrench(id, Some(Vec3::new(0.8, 0.0, 0.0)))
        .unwrap()
        .torque;
    assert!(about.length() < 0.05 * G, "torque about the centre {about}");
    // The per-contact readback sums to the same force.
    let sum: Vec3 = w
        .contacts()
        .iter()
        .map(|c| -(c.normal * c.impulse + c.friction))
        .sum();
    let wrench = w.collider_contact_wrench(id, None).unwrap().force;
    assert!((sum / DT - wrench).length() < 1e-3 * G, "{sum} {wrench}");
    for c in w.contacts() {
        assert!(c.impulse >= 0.0);
        assert!(
            (c.point.y).abs() < 1e-3,
            "points on the top face: {}",
            c.point
        );
    }
}

/// A pile of loose particles (particle contacts on), 2, 3 and 4 layers of 4 × 4
/// stacked, weighs on its table with its weight within 1%. The particle contacts
/// conserve momentum (mass splitting, `collision/contacts.rs`): each pair's two
/// corrections are equal and opposite, so the table carries the weight and no more
/// (averaging each particle's corrections over its own contact count read some 33%
/// over the weight here).
#[test]
fn a_resting_particle_pile_weighs_on_its_collider() {
    for layers in 2..=4u32 {
        let mut w = world(10, 2, 1);
        let id = table(&mut w, 0.6);
        let (count, mass) = add_pile(&mut w, layers);
        for _ in 0..120 {
            w.step(DT).unwrap();
        }
        let f = mean_force(&mut w, id, 60);
        let weight = count as f32 * mass * G;
        println!(
            "pile of {layers} layers: force {:.3} N, weight {weight:.3} N",
            -f.y
        );
        assert!(
            (f.y + weight).abs() < 0.01 * weight,
            "{layers} layers: force {f} vs {weight}"
        );
    }
}

/// A particle sliding down a frictional slope reports a friction impulse of μ times
/// its normal impulse, against its motion, and accelerates at g (sin θ − μ cos θ).
#[test]
fn a_sliding_particle_reports_coulomb_friction() {
    let (theta, mu) = (0.5f32, 0.2f32);
    let mut w = world(8, 2, 1);
    let rot = Quat::from_rotation_z(theta);
    let slope = w
        .add_collider(&ColliderDesc {
            shape: Shape::Plane,
            rotation: rot,
            static_friction: mu,
            dynamic_friction: mu,
            ..ColliderDesc::default()
        })
        .unwrap();
    let n = rot * Vec3::Y;
    let r = 0.05;
    w.add_particles(&[n * r], None).unwrap();
    w.set_particle_radii(0, &[r]).unwrap();
    let down = (rot * -Vec3::X).normalize();
    let mut speeds = Vec::new();
    for step in 0..60 {
        w.step(DT).unwrap();
        let v = w.particles().velocity(0);
        speeds.push(v.dot(down));
        if step < 5 {
            continue;
        }
        let c = w.contacts();
        assert_eq!(c.len(), 1, "step {step}: {c:?}");
        let c = c[0];
        assert_eq!(c.collider, slope);
        let ratio = c.friction.length() / c.impulse;
        assert!((ratio - mu).abs() < 0.02 * mu, "step {step}: ratio {ratio}");
        assert!(
            c.friction.normalize().dot(down) < -0.999,
            "against the motion: {}",
            c.friction
        );
        // The normal impulse carries the weight's normal part: m g cos θ dt.
        let expect = G * theta.cos() * DT;
        assert!((c.impulse - expect).abs() < 0.02 * expect, "{}", c.impulse);
        // The point lies on the slope under the particle.
        let p = c.point;
        assert!(p.dot(n).abs() < 1e-4, "point {p} on the plane");
        assert!((pos(&w, 0) - n * r - p).length() < 1e-3, "{p}");
    }
    let a = (speeds[59] - speeds[19]) / (40.0 * DT);
    let expect = G * (theta.sin() - mu * theta.cos());
    assert!((a - expect).abs() < 0.02 * expect, "a {a} vs {expect}");
}

fn take_all(w: &mut World) -> Vec<ContactEvent> {
    let mut out = vec![ContactEvent::default(); w.contact_event_count()];
    let (n, lost) = w.take_contact_events(&mut out);
    assert_eq!((n, lost), (out.len(), 0));
    out
}

/// A rope dropped on a table begins touching once, persists while it lies there and
/// ends once when the table is taken away; a loose particle is a pair of its own, and
/// a collider with report_contacts off raises nothing.
#[test]
fn events_begin_persist_and_end_once_per_pair() {
    let mut w = world(8, 2, 1);
    let id = table(&mut w, 0.5);
    let quiet = w
        .add_collider(&ColliderDesc {
            shape: Shape::Sphere { radius: 0.2 },
            position: Vec3::new(5.0, 0.0, 0.0),
            report_contacts: false,
            ..ColliderDesc::default()
        })
        .unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(-1.0, 0.3, 0.0),
            end: Vec3::new(0.0, 0.3, 0.0),
            segments: 10,
            ..RopeDesc::default()
        })
        .unwrap();
    let loose = w
        .add_particles(&[Vec3::new(1.0, 0.5, 1.0), Vec3::new(5.0, 0.3, 0.0)], None)
        .unwrap();
    assert!(!w.contact_events());
    w.set_contact_events(true).unwrap();
    let mut begun = std::collections::BTreeMap::new();
    let mut persisted = std::collections::BTreeMap::new();
    for _ in 0..90 {
        w.step(DT).unwrap();
        for e in take_all(&mut w) {
            assert_eq!(e.collider, id, "the quiet sphere raises nothing: {quiet:?}");
            let key = (e.body.map(|b| b.0), e.particle * e.body.is_none() as u32);
            match e.kind {
                ContactEventKind::Begin => {
                    assert!(begun.insert(key, e).is_none(), "begins once: {e:?}")
                }
                ContactEventKind::Persist => {
                    assert!(begun.contains_key(&key), "persists after it began");
                    *persisted.entry(key).or_insert(0) += 1;
                }
                ContactEventKind::End => panic!("nothing ends while lying: {e:?}"),
            }
            if e.kind != ContactEventKind::End {
                assert!(e.impulse >= 0.0 && e.point.y.abs() < 1e-2, "{e:?}");
            }
        }
    }
    assert_eq!(begun.len(), 2, "{begun:?}");
    let rope_begin = begun[&(Some(rope.0), 0)];
    assert!(rope_begin.particle < 11, "{rope_begin:?}");
    let loose_begin = begun[&(None, loose)];
    assert_eq!(loose_begin.body, None);
    assert!(persisted.values().all(|&k| k > 30), "{persisted:?}");
    // The last step's persist events carry the weight: the rope's mass and the loose
    // particle's (1 kg each by default) times g dt.
    w.set_collider_transform(id, Vec3::new(0.0, -50.0, 0.0), Quat::IDENTITY, true)
        .unwrap();
    w.step(DT).unwrap();
    let ends = take_all(&mut w);
    assert_eq!(ends.len(), 2, "{ends:?}");
    assert!(ends
        .iter()
        .all(|e| e.kind == ContactEventKind::End && e.impulse == 0.0));
    for _ in 0..5 {
        w.step(DT).unwrap();
        assert!(take_all(&mut w).is_empty(), "ends once");
    }
    // Off: nothing is queued.
    w.set_contact_events(false).unwrap();
    w.set_collider_transform(id, Vec3::new(0.0, -0.1, 0.0), Quat::IDENTITY, true)
        .unwrap();
    w.step(DT).unwrap();
    assert_eq!(w.contact_event_count(), 0);
}

/// The readback, the wrenches and the events are the same bits on 1 and 2 threads.
#[test]
fn contact_reports_and_events_are_deterministic_across_threads() {
    let run = |threads: u32| {
        let mut w = World::new(WorldDesc {
            threads,
            substeps: 4,
            ..WorldDesc::default()
        })
        .unwrap();
        let floor = table(&mut w, 0.4);
        let ball = w
            .add_collider(&ColliderDesc {
                shape: Shape::Sphere { radius: 0.3 },
                position: Vec3::new(0.2, 0.3, 0.1),
                static_friction: 0.3,
                dynamic_friction: 0.2,
                restitution: 0.3,
                ..ColliderDesc::default()
            })
            .unwrap();
        let pts: Vec<Vec3> = (0..6000)
            .map(|i| {
                Vec3::new(
                    (i % 20) as f32 * 0.09 - 0.9,
                    0.8 + (i / 400) as f32 * 0.09,
                    ((i / 20) % 20) as f32 * 0.09 - 0.9,
                )
            })
            .collect();
        w.add_particles(&pts, None).unwrap();
        w.set_particle_radii(0, &vec![0.04; pts.len()]).unwrap();
        w.set_contact_events(true).unwrap();
        let mut out = Vec::new();
        for _ in 0..40 {
            w.step(DT).unwrap();
            // Ids without the world serial (each world has its own).
            let local = |id: sinew::ColliderId| sinew::ColliderId(id.0 & ((1 << 44) - 1));
            let events: Vec<ContactEvent> = take_all(&mut w)
                .into_iter()
                .map(|e| ContactEvent {
                    collider: local(e.collider),
                    ..e
                })
                .collect();
            let contacts: Vec<sinew::ContactReport> = w
                .contacts()
                .iter()
                .map(|&c| sinew::ContactReport {
                    collider: local(c.collider),
                    ..c
                })
                .collect();
            out.push(format!(
                "{contacts:?} {:?} {:?} {events:?}",
                w.collider_contact_wrench(floor, None).unwrap(),
                w.collider_contact_wrench(ball, Some(Vec3::ONE)).unwrap(),
            ));
        }
        out
    };
    let one = run(1);
    assert!(one.last().unwrap().contains("Persist"));
    let two = run(2);
    for (k, (a, b)) in one.iter().zip(&two).enumerate() {
        assert!(a == b, "step {k}: 2 threads differ");
    }
}

/// A forged snapshot whose last step lasted 1e-30 s (no step is that short: `MIN_DT`)
/// is refused with a message: restored, the wrench's 1 / dt was infinite and a
/// collider with no contact read 0 · inf = NaN as its force and torque (found by the
/// API fuzzer). Every other place those bits occur in the snapshot, forged the same
/// way, is refused or gives a finite wrench.
#[test]
fn a_snapshot_whose_last_step_was_too_short_is_refused() {
    let dt = 0.012_345_7_f32;
    let mut w = world(4, 1, 1);
    let id = table(&mut w, 0.0);
    add_pile(&mut w, 1);
    w.step(dt).unwrap();
    let snap = w.snapshot();
    let body = &snap[sinew::SNAPSHOT_HEADER_BYTES..];
    let bits = dt.to_le_bytes();
    let at: Vec<usize> = (0..body.len() - 4)
        .filter(|&i| body[i..i + 4] == bits)
        .collect();
    assert!(!at.is_empty(), "the step's length is in the snapshot");
    let mut refused = 0;
    for i in at {
        let mut forged = body.to_vec();
        forged[i..i + 4].copy_from_slice(&1.0e-30f32.to_le_bytes());
        match World::from_snapshot(&sinew::seal_snapshot(&forged), 1) {
            Err(e) => {
                assert_eq!(e.kind, sinew::ErrorKind::InvalidArgument, "{e}");
                refused += usize::from(e.to_string().contains("last step's length"));
            }
            Ok(r) => {
                let wrench = r.collider_contact_wrench(id, None).unwrap();
                assert!(
                    wrench.force.is_finite() && wrench.torque.is_finite(),
                    "forged at byte {i}: {wrench:?}"
                );
            }
        }
    }
    assert_eq!(refused, 1, "the colliders' last step length refused once");
}
