//! The life of fluid particles: reserving a fluid, emitting (by call, by nozzle, by
//! box), removing (lifetime, kill volumes, clears, recycling the oldest). The fluid
//! API's contracts (readback, handles, bad input, snapshots, allocation, random call
//! sequences) are in `fluid_contracts.rs`, over the helpers here. These tests hold
//! whatever the density solver does: they check where particles appear, how many, and
//! that the rest of the world does not notice them.

use sinew::{
    ColliderDesc, EmitterDesc, EmitterShape, ErrorKind, FluidDesc, FluidId, KillVolumeDesc, Quat,
    RopeDesc, Shape, Vec3, World, WorldDesc,
};

pub(crate) const DT: f32 = 1.0 / 60.0;

pub(crate) fn world(gravity: Vec3) -> World {
    World::new(WorldDesc {
        gravity,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}

/// A fluid without artificial pressure or viscosity: emitted patterns below the rest
/// density then feel no density correction at all (the constraint is one-sided) and
/// keep their ballistic velocities, so the tests can check exactly where emission put
/// the particles.
pub(crate) fn fluid(capacity: u32) -> FluidDesc {
    FluidDesc {
        capacity,
        scorr_k: 0.0,
        viscosity: 0.0,
        ..FluidDesc::default()
    }
}

/// Live particle positions of a fluid (current state).
pub(crate) fn positions(w: &World, f: FluidId) -> Vec<Vec3> {
    let mut out = Vec::new();
    w.read_fluid_particles(f, 1.0, |_, p| out.push(p.position))
        .unwrap();
    out
}

fn min_distance(p: &[Vec3]) -> f32 {
    let mut d = f32::INFINITY;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            d = d.min(p[i].distance(p[j]));
        }
    }
    d
}

/// A nozzle facing +x (its local +z turned about y).
pub(crate) fn nozzle_along_x(radius: f32, speed: f32, rate: f32) -> EmitterDesc {
    EmitterDesc {
        shape: EmitterShape::Nozzle { radius },
        position: Vec3::ZERO,
        rotation: Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        speed,
        rate,
    }
}

/// Emitting 10,000 particles and killing them all (a kill volume, then the lifetime)
/// leaves a rope of the same world on exactly the trajectory it has in a world without
/// the fluid, at every step: the reserved particles shift no index, dead slots touch
/// nothing, and the fluid never comes near the rope.
#[test]
fn emitting_and_killing_ten_thousand_particles_leaves_a_rope_bit_identical() {
    let build = |with_fluid: bool| {
        let mut w = world(Vec3::new(0.0, -9.81, 0.0));
        w.add_rope(&RopeDesc {
            start: Vec3::new(0.0, 2.0, 0.0),
            end: Vec3::new(1.5, 2.0, 0.0),
            segments: 24,
            pin_start: true,
            ..RopeDesc::default()
        })
        .unwrap();
        w.add_collider(&ColliderDesc {
            shape: Shape::Sphere { radius: 0.3 },
            position: Vec3::new(0.8, 0.9, 0.0),
            ..ColliderDesc::default()
        })
        .unwrap();
        // A ramp far away that the stream hits and slides off.
        w.add_collider(&ColliderDesc {
            shape: Shape::Box {
                half_extents: Vec3::new(1.0, 0.1, 1.0),
            },
            position: Vec3::new(20.0, -1.0, 0.0),
            rotation: Quat::from_rotation_z(0.5),
            ..ColliderDesc::default()
        })
        .unwrap();
        let handles = with_fluid.then(|| {
            let f = w
                .add_fluid(&FluidDesc {
                    capacity: 12_000,
                    lifetime: 3.0,
                    ..FluidDesc::default()
                })
                .unwrap();
            // Pointing down: local +z to −y.
            let e = w
                .add_emitter(
                    f,
                    &EmitterDesc {
                        shape: EmitterShape::Nozzle { radius: 0.3 },
                        position: Vec3::new(20.0, 1.0, 0.0),
                        rotation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
                        speed: 5.0,
                        rate: 10_000.0,
                    },
                )
                .unwrap();
            w.add_kill_volume(
                f,
                &KillVolumeDesc::half_space(Vec3::new(0.0, -2.0, 0.0), Vec3::Y),
            )
            .unwrap();
            (f, e)
        });
        (w, handles)
    };
    let (mut a, handles) = build(true);
    let (f, e) = handles.unwrap();
    let (mut b, _) = build(false);
    let rope = |w: &World| -> Vec<[u32; 6]> {
        (0..25)
            .map(|i| {
                let (x, v) = (w.particles().position(i), w.particles().velocity(i));
                [x.x, x.y, x.z, v.x, v.y, v.z].map(f32::to_bits)
            })
            .collect()
    };
    let mut most = 0;
    for step in 0..330 {
        if step == 60 {
            let s = a.fluid_stats(f).unwrap();
            assert!(
                s.emitted >= 10_000 && s.emitted <= 10_001,
                "{} emitted in 1 s at 10,000/s",
                s.emitted
            );
            a.remove_emitter(e).unwrap();
        }
        a.step(DT).unwrap();
        b.step(DT).unwrap();
        most = most.max(a.fluid_stats(f).unwrap().count);
        assert!(rope(&a) == rope(&b), "the rope differs at step {step}");
    }
    let s = a.fluid_stats(f).unwrap();
    assert_eq!(s.count, 0, "every particle killed");
    assert_eq!(s.removed, s.emitted);
    assert_eq!(s.refused, 0);
    assert!(most > 5_000, "at most {most} particles were alive at once");
    // The dead slots are inert: pinned, no radius, no velocity.
    let (first, capacity) = a.fluid_particle_range(f).unwrap();
    assert_eq!(first, 25);
    for i in first..first + capacity {
        let p = a.particles();
        assert_eq!(p.inverse_mass(i as usize), 0.0);
        assert_eq!(p.radius(i as usize), 0.0);
        assert_eq!(p.velocity(i as usize), Vec3::ZERO);
        assert_eq!(p.collision_filter(i as usize).layers, 0);
    }
}

/// A nozzle emits `rate` particles per second (the fraction carried between steps),
/// at most one particle off after T seconds, for rates that do and do not divide the
/// step, and never two particles closer than the spacing.
#[test]
fn a_nozzle_emits_its_rate() {
    for (rate, seconds) in [(600.0f32, 1.0f32), (250.0, 0.5), (37.5, 2.0), (1000.0, 1.0)] {
        let mut w = world(Vec3::ZERO);
        let f = w.add_fluid(&fluid(4096)).unwrap();
        // Radius 0.1 m at spacing 0.05 m: 13 points; speed 10 m/s passes 2,600/s.
        w.add_emitter(f, &nozzle_along_x(0.1, 10.0, rate)).unwrap();
        let steps = (seconds / DT).round() as u32;
        for _ in 0..steps {
            w.step(DT).unwrap();
        }
        let n = w.fluid_stats(f).unwrap().emitted as f32;
        let want = rate * steps as f32 * DT;
        assert!((n - want).abs() <= 1.0, "rate {rate}: {n} vs {want}");
        assert_eq!(w.fluid_stats(f).unwrap().count as f32, n);
        // Below the nozzle's flux, no two particles of the stream are closer than the
        // spacing, across the steps too.
        let d = min_distance(&positions(&w, f));
        assert!(d > 0.05 * 0.999, "rate {rate}: two particles {d} m apart");
    }
}

/// A rate above what the nozzle passes (one layer per spacing the stream moves:
/// speed·L/s) is capped there, so that new particles never overlap.
#[test]
fn a_nozzle_passes_at_most_its_flux() {
    let mut w = world(Vec3::ZERO);
    let f = w.add_fluid(&fluid(4096)).unwrap();
    // One point (radius below the spacing), 1 m/s, spacing 0.05 m: 20 particles/s.
    w.add_emitter(f, &nozzle_along_x(0.01, 1.0, 1.0e6)).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let n = w.fluid_stats(f).unwrap().emitted;
    assert!((19..=21).contains(&n), "{n} particles in 1 s, flux 20/s");
    let p = positions(&w, f);
    assert!(min_distance(&p) > 0.05 * 0.999, "{}", min_distance(&p));
}

/// A nozzle's particles leave as a continuous stream: the j-th particle due in a step
/// of dt starts speed·(dt − (j + 1)/rate) ahead of the disc, on lattice point j mod L.
/// At 2 m/s and 260/s (13 points) after two steps of 0.5 s, particle k (in emission
/// order) stands at 3 − (k + 1)/130 m along the axis: 1/130 m behind the one before
/// it, across the step boundary too, and one lattice point's particles 0.1 m (two
/// spacings) apart.
#[test]
fn a_nozzle_emits_a_continuous_stream() {
    let mut w = world(Vec3::ZERO);
    let f = w.add_fluid(&fluid(4096)).unwrap();
    w.add_emitter(f, &nozzle_along_x(0.1, 2.0, 260.0)).unwrap();
    let check = |w: &World, steps: u32| {
        let p = positions(w, f);
        assert_eq!(p.len() as u32, 130 * steps);
        for (k, x) in p.iter().enumerate() {
            let want = (steps as f32 + 1.0) - (k as f32 + 1.0) / 130.0;
            assert!(
                (x.x - want).abs() < 1e-4,
                "particle {k} at {x}, want {want}"
            );
            // On the disc lattice: lateral coordinates on multiples of s within r.
            let (y, z) = (x.y / 0.05, x.z / 0.05);
            assert!((y - y.round()).abs() < 1e-3 && (z - z.round()).abs() < 1e-3);
            assert!(x.y * x.y + x.z * x.z <= 0.1 * 0.1 + 1e-6);
            if k >= 13 {
                let same_point = p[k - 13];
                assert!((same_point.y - x.y).abs() < 1e-6 && (same_point.z - x.z).abs() < 1e-6);
            }
        }
        assert!(min_distance(&p) > 0.05 * 0.999, "{}", min_distance(&p));
    };
    w.step(0.5).unwrap();
    check(&w, 1);
    w.step(0.5).unwrap();
    check(&w, 2);
}

/// Under gravity the stream follows the ballistic arc: particle k (in emission order)
/// left the disc at t_k = (k + 1)/rate − dt (the step before the one that emitted it)
/// and after T seconds stands at (v (T − t_k), −g (T − t_k)²/2), within the
/// integrator's error (g h t/2, about 1 cm here), with velocity (v, −g (T − t_k)).
#[test]
fn a_nozzle_stream_follows_the_ballistic_arc() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    let f = w.add_fluid(&fluid(4096)).unwrap();
    // One point, 3 m/s, 45 particles/s (the flux is 60/s).
    w.add_emitter(f, &nozzle_along_x(0.0, 3.0, 45.0)).unwrap();
    for _ in 0..60 {
        w.step(DT).unwrap();
    }
    let mut all = Vec::new();
    w.read_fluid_particles(f, 1.0, |_, p| all.push(*p)).unwrap();
    assert!((44..=46).contains(&all.len()), "{}", all.len());
    for (k, p) in all.iter().enumerate() {
        let t = 1.0 - ((k as f32 + 1.0) / 45.0 - DT);
        let want = Vec3::new(3.0 * t, -0.5 * 9.81 * t * t, 0.0);
        assert!(
            (p.position - want).length() < 0.015,
            "particle {k}: {} vs {want}",
            p.position
        );
        assert!(
            (p.velocity.y + 9.81 * t).abs() < 1e-3,
            "particle {k}: {}",
            p.velocity
        );
    }
    let d = min_distance(&all.iter().map(|p| p.position).collect::<Vec<_>>());
    assert!(d > 0.05 * 0.999, "{d}");
}

/// A box emitter puts its particles inside the box (oriented), never closer than half
/// a spacing within one pass over its cells, at its rate, the same in every run.
#[test]
fn a_box_emitter_fills_its_box_at_its_rate() {
    let half = Vec3::new(0.5, 0.25, 0.5);
    let rotation = Quat::from_rotation_y(0.7);
    let centre = Vec3::new(1.0, 2.0, 3.0);
    let run = || {
        let mut w = world(Vec3::ZERO);
        let f = w.add_fluid(&fluid(4096)).unwrap();
        w.add_emitter(
            f,
            &EmitterDesc {
                shape: EmitterShape::Box { half_extents: half },
                position: centre,
                rotation,
                speed: 0.0,
                rate: 1000.0,
            },
        )
        .unwrap();
        for _ in 0..60 {
            w.step(DT).unwrap();
        }
        (w, f)
    };
    let (w, f) = run();
    let p = positions(&w, f);
    assert!((999..=1001).contains(&p.len()), "{}", p.len());
    for x in &p {
        let l = rotation.inverse() * (*x - centre);
        assert!(l.abs().cmple(half + 1e-4).all(), "{l} outside the box");
    }
    // 20 × 10 × 20 cells: 1000 particles are within the first pass.
    assert!(
        min_distance(&p) >= 0.5 * 0.05 * 0.999,
        "{}",
        min_distance(&p)
    );
    let (w2, f2) = run();
    assert_eq!(positions(&w2, f2), p, "deterministic");
    // Spread over the whole box: each octant holds roughly an eighth.
    let mut octants = [0u32; 8];
    for x in &p {
        let l = rotation.inverse() * (*x - centre);
        let k = (l.x > 0.0) as usize + 2 * (l.y > 0.0) as usize + 4 * (l.z > 0.0) as usize;
        octants[k] += 1;
    }
    assert!(
        octants.iter().all(|&c| (90..=160).contains(&c)),
        "{octants:?}"
    );
}

/// Particles live `lifetime` seconds: with steps of 1/64 s (exact in binary) and a
/// lifetime of 0.25 s, they are there after 15 steps and gone after 16.
#[test]
fn particles_die_at_their_lifetime() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    let f = w
        .add_fluid(&FluidDesc {
            lifetime: 0.25,
            capacity: 256,
            ..FluidDesc::default()
        })
        .unwrap();
    let grid: Vec<Vec3> = (0..100)
        .map(|i| Vec3::new((i % 10) as f32 * 0.2, 1.0, (i / 10) as f32 * 0.2))
        .collect();
    assert_eq!(w.emit_fluid(f, &grid, None).unwrap(), 0);
    for _ in 0..15 {
        w.step(1.0 / 64.0).unwrap();
    }
    assert_eq!(w.fluid_stats(f).unwrap().count, 100);
    // Particles emitted now die 0.25 s later than the first ones.
    assert_eq!(w.emit_fluid(f, &grid[..10], None).unwrap(), 100);
    w.step(1.0 / 64.0).unwrap();
    let s = w.fluid_stats(f).unwrap();
    assert_eq!((s.count, s.removed, s.emitted), (10, 100, 110));
    for _ in 0..15 {
        w.step(1.0 / 64.0).unwrap();
    }
    assert_eq!(w.fluid_stats(f).unwrap().count, 0);
}

/// Kill volumes (ball, oriented box, half-space) remove exactly the particles inside
/// them at the end of the step; the others keep their positions (their order within
/// the fluid may change); a removed volume kills no more.
#[test]
fn kill_volumes_remove_the_particles_inside() {
    let row: Vec<Vec3> = (0..100)
        .map(|i| Vec3::new(i as f32 * 0.1, 0.0, 0.0))
        .collect();
    // Refills land on another row (no particle on top of another).
    let refill: Vec<Vec3> = row.iter().map(|x| *x + Vec3::new(0.0, 5.0, 0.0)).collect();
    let cases = [
        (KillVolumeDesc::sphere(Vec3::new(2.0, 0.0, 0.0), 0.55), 11),
        (
            // Turned: its local y (1.05 m) runs along world x.
            KillVolumeDesc::oriented_box(
                Vec3::new(5.0, 0.0, 0.0),
                Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
                Vec3::new(0.2, 1.05, 0.2),
            ),
            21,
        ),
        (
            KillVolumeDesc::half_space(Vec3::new(8.95, 0.0, 0.0), Vec3::new(-2.0, 0.0, 0.0)),
            10,
        ),
    ];
    for (desc, killed) in cases {
        let mut w = world(Vec3::ZERO);
        let f = w.add_fluid(&fluid(128)).unwrap();
        w.emit_fluid(f, &row, None).unwrap();
        let v = w.add_kill_volume(f, &desc).unwrap();
        w.step(DT).unwrap();
        let s = w.fluid_stats(f).unwrap();
        assert_eq!(
            (s.count, s.removed),
            (100 - killed, killed as u64),
            "{desc:?}"
        );
        let mut left: Vec<Vec3> = positions(&w, f);
        left.sort_by(|a, b| a.x.total_cmp(&b.x));
        let want: Vec<Vec3> = row.iter().copied().filter(|&x| !desc.contains(x)).collect();
        assert_eq!(left, want, "{desc:?}");
        w.remove_kill_volume(v).unwrap();
        w.emit_fluid(f, &refill[..killed as usize], None).unwrap();
        let before = positions(&w, f);
        w.step(DT).unwrap();
        assert_eq!(positions(&w, f), before, "a removed volume kills nothing");
        assert_eq!(
            w.remove_kill_volume(v).unwrap_err().kind,
            ErrorKind::InvalidHandle
        );
    }
}

/// A full fluid refuses further emission (counted), or with `recycle_oldest` replaces
/// its oldest particles: a stream at 10 m/s, one particle per step, capacity 10. After
/// eleven steps the farthest particle has moved 10 steps (recycling: the oldest was
/// replaced) or 11 steps (refusing: nothing new came).
#[test]
fn a_full_fluid_refuses_or_recycles_the_oldest() {
    for recycle in [false, true] {
        let mut w = world(Vec3::ZERO);
        let f = w
            .add_fluid(&FluidDesc {
                capacity: 10,
                recycle_oldest: recycle,
                ..FluidDesc::default()
            })
            .unwrap();
        w.add_emitter(f, &nozzle_along_x(0.0, 10.0, 60.0)).unwrap();
        for _ in 0..11 {
            w.step(DT).unwrap();
        }
        let s = w.fluid_stats(f).unwrap();
        let far = positions(&w, f).iter().map(|x| x.x).fold(0.0, f32::max);
        let steps = if recycle { 10.0 } else { 11.0 };
        assert!((far - steps * 10.0 * DT).abs() < 1e-4, "{recycle}: {far}");
        assert_eq!(s.count, 10);
        if recycle {
            assert_eq!((s.emitted, s.removed, s.refused), (11, 1, 0));
        } else {
            assert_eq!((s.emitted, s.removed, s.refused), (10, 0, 1));
        }
        // Fifty more steps: the counters keep account.
        for _ in 0..50 {
            w.step(DT).unwrap();
        }
        let s = w.fluid_stats(f).unwrap();
        assert_eq!(s.emitted - s.removed, 10);
        assert_eq!(s.emitted + s.refused, 61);
    }
}
