//! The fluid API's contracts: reading back with interpolation, handles, bad input that
//! changes nothing, removed fluids and cleared settings, snapshots with running
//! emitters, no allocation in steps that emit and remove, fluid particles outside the
//! contact search, and random call sequences that keep the books. The helpers are
//! those of `fluid_lifecycle.rs`.

use sinew::{
    ColliderDesc, EmitterDesc, EmitterShape, ErrorKind, FluidDesc, FluidId, KillVolumeDesc, Quat,
    RopeDesc, Vec3, World, MAX_FLUID_CAPACITY,
};

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations};
use crate::fluid_lifecycle::{fluid, nozzle_along_x, positions, world, DT};

/// The readback interpolates between the state before the last step (alpha 0) and the
/// current one (alpha 1), like `read_interpolated_positions`; velocities are the
/// current ones; alpha outside [0, 1] is refused.
#[test]
fn readback_interpolates_with_alpha() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    let f = w.add_fluid(&fluid(16)).unwrap();
    let start = [Vec3::new(0.0, 5.0, 0.0), Vec3::new(1.0, 5.0, 0.0)];
    w.emit_fluid(f, &start, Some(&[Vec3::X, Vec3::ZERO]))
        .unwrap();
    // Before any step both states are the emitted one.
    let mut seen = Vec::new();
    w.read_fluid_particles(f, 0.3, |k, p| seen.push((k, p.position, p.velocity)))
        .unwrap();
    assert_eq!(
        seen,
        vec![(0, start[0], Vec3::X), (1, start[1], Vec3::ZERO)]
    );
    w.step(DT).unwrap();
    let (first, _) = w.fluid_particle_range(f).unwrap();
    for alpha in [0.0f32, 0.25, 1.0] {
        let mut out = Vec::new();
        let n = w
            .read_fluid_particles(f, alpha, |_, p| out.push(*p))
            .unwrap();
        assert_eq!(n, 2);
        for (k, p) in out.iter().enumerate() {
            let now = w.particles().position(first as usize + k);
            let want = start[k] * (1.0 - alpha) + now * alpha;
            assert!((p.position - want).length() < 1e-6, "alpha {alpha}");
            assert_eq!(p.velocity, w.particles().velocity(first as usize + k));
        }
    }
    // The fall of one step: v = g dt after one step; x moved by about v dt.
    let mut v = Vec3::ZERO;
    w.read_fluid_particles(f, 1.0, |k, p| {
        if k == 1 {
            v = p.velocity
        }
    })
    .unwrap();
    assert!((v.y + 9.81 * DT).abs() < 1e-4, "{v}");
    for alpha in [-0.1f32, 1.5, f32::NAN] {
        let mut called = false;
        let e = w
            .read_fluid_particles(f, alpha, |_, _| called = true)
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{alpha}");
        assert!(!called);
    }
}

/// Every bad input is refused with a status and a message and changes nothing (the
/// state hash and the particle count stay).
#[test]
fn bad_input_changes_nothing() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    let f = w.add_fluid(&fluid(8)).unwrap();
    let e = w.add_emitter(f, &nozzle_along_x(0.1, 1.0, 10.0)).unwrap();
    w.emit_fluid(f, &[Vec3::ZERO, Vec3::X], None).unwrap();
    w.step(DT).unwrap();
    let hash = w.state_hash();
    let n = w.particle_count();
    let bad_fluids = [
        FluidDesc {
            capacity: 0,
            ..FluidDesc::default()
        },
        FluidDesc {
            capacity: MAX_FLUID_CAPACITY + 1,
            ..FluidDesc::default()
        },
        FluidDesc {
            capacity: u32::MAX,
            ..FluidDesc::default()
        },
        FluidDesc {
            rest_density: 0.0,
            ..FluidDesc::default()
        },
        FluidDesc {
            rest_density: -1000.0,
            ..FluidDesc::default()
        },
        FluidDesc {
            rest_density: f32::NAN,
            ..FluidDesc::default()
        },
        FluidDesc {
            rest_density: 1.0e-9,
            ..FluidDesc::default()
        },
        FluidDesc {
            spacing: 0.0,
            ..FluidDesc::default()
        },
        FluidDesc {
            spacing: -0.05,
            ..FluidDesc::default()
        },
        FluidDesc {
            spacing: f32::INFINITY,
            ..FluidDesc::default()
        },
        FluidDesc {
            smoothing_radius: 0.025,
            ..FluidDesc::default()
        },
        FluidDesc {
            collision_radius: 0.5,
            ..FluidDesc::default()
        },
        FluidDesc {
            lifetime: f32::NAN,
            ..FluidDesc::default()
        },
    ];
    let check = |w: &World, what: &str, e: sinew::Error, kind: ErrorKind| {
        assert_eq!(e.kind, kind, "{what}: {}", e.message);
        assert!(!e.message.is_empty());
        assert_eq!(w.state_hash(), hash, "{what} changed the world");
        assert_eq!(w.particle_count(), n, "{what}");
    };
    for d in bad_fluids {
        let err = w.add_fluid(&d).unwrap_err();
        check(&w, &format!("{d:?}"), err, ErrorKind::InvalidArgument);
        let err = w.set_fluid_desc(f, &d).unwrap_err();
        check(&w, &format!("set {d:?}"), err, ErrorKind::InvalidArgument);
    }
    // Capacity and spacing are fixed.
    for d in [
        fluid(9),
        FluidDesc {
            spacing: 0.04,
            ..fluid(8)
        },
    ] {
        let err = w.set_fluid_desc(f, &d).unwrap_err();
        assert!(err.message.contains("capacity"), "{}", err.message);
        check(
            &w,
            "a new capacity or spacing",
            err,
            ErrorKind::InvalidArgument,
        );
    }
    // Emission: past the free capacity (names both numbers), NaN or huge positions and
    // velocities (name the index), a velocity count that does not match, none at all.
    let seven = vec![Vec3::ZERO; 7];
    let err = w.emit_fluid(f, &seven, None).unwrap_err();
    assert!(
        err.message.contains('7') && err.message.contains('6'),
        "{}",
        err.message
    );
    check(&w, "past capacity", err, ErrorKind::OutOfRange);
    let mut bad = vec![Vec3::ZERO; 3];
    bad[2] = Vec3::new(0.0, f32::NAN, 0.0);
    let err = w.emit_fluid(f, &bad, None).unwrap_err();
    assert!(err.message.contains("position 2"), "{}", err.message);
    check(&w, "NaN position", err, ErrorKind::InvalidArgument);
    bad[2] = Vec3::new(0.0, 2.0e9, 0.0);
    let err = w.emit_fluid(f, &bad, None).unwrap_err();
    check(&w, "huge position", err, ErrorKind::InvalidArgument);
    let good = vec![Vec3::ZERO; 3];
    let mut vel = vec![Vec3::ZERO; 3];
    vel[1] = Vec3::new(f32::INFINITY, 0.0, 0.0);
    let err = w.emit_fluid(f, &good, Some(&vel)).unwrap_err();
    assert!(err.message.contains("velocity 1"), "{}", err.message);
    check(&w, "infinite velocity", err, ErrorKind::InvalidArgument);
    let err = w.emit_fluid(f, &good, Some(&vel[..2])).unwrap_err();
    check(&w, "two velocities", err, ErrorKind::InvalidArgument);
    let err = w.emit_fluid(f, &[], None).unwrap_err();
    check(&w, "no particle", err, ErrorKind::InvalidArgument);
    // Emitters and kill volumes.
    let bad_emitters = [
        nozzle_along_x(f32::NAN, 1.0, 10.0),
        nozzle_along_x(0.05 * 300.0, 1.0, 10.0),
        nozzle_along_x(0.1, -1.0, 10.0),
        nozzle_along_x(0.1, 1.0, f32::INFINITY),
        EmitterDesc {
            rotation: Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            ..EmitterDesc::default()
        },
        EmitterDesc {
            shape: EmitterShape::Box {
                half_extents: Vec3::new(1.0, -1.0, 1.0),
            },
            ..EmitterDesc::default()
        },
    ];
    for d in bad_emitters {
        let err = w.add_emitter(f, &d).unwrap_err();
        check(&w, &format!("{d:?}"), err, ErrorKind::InvalidArgument);
        let err = w.set_emitter(e, &d).unwrap_err();
        check(&w, &format!("set {d:?}"), err, ErrorKind::InvalidArgument);
    }
    let bad_volumes = [
        KillVolumeDesc::sphere(Vec3::ZERO, -1.0),
        KillVolumeDesc::half_space(Vec3::ZERO, Vec3::ZERO),
        KillVolumeDesc::oriented_box(Vec3::splat(f32::NAN), Quat::IDENTITY, Vec3::ONE),
    ];
    for d in bad_volumes {
        let err = w.add_kill_volume(f, &d).unwrap_err();
        check(&w, &format!("{d:?}"), err, ErrorKind::InvalidArgument);
    }
    // Forged and null handles.
    for id in [FluidId(0), FluidId(12_345), FluidId(f.0 + (1 << 32))] {
        let err = w.emit_fluid(id, &good, None).unwrap_err();
        check(&w, "forged fluid", err, ErrorKind::InvalidHandle);
    }
    for id in [sinew::EmitterId(e.0 + 1), sinew::EmitterId(e.0 + (1 << 32))] {
        let err = w.set_emitter(id, &EmitterDesc::default()).unwrap_err();
        check(&w, "forged emitter", err, ErrorKind::InvalidHandle);
        let err = w.remove_emitter(id).unwrap_err();
        check(&w, "forged emitter", err, ErrorKind::InvalidHandle);
    }
    let err = w.remove_kill_volume(sinew::KillVolumeId(7)).unwrap_err();
    check(&w, "forged kill volume", err, ErrorKind::InvalidHandle);
}

/// A removed fluid's ids (fluid, emitters, kill volumes) are invalid for good, its
/// particles stay inert where they were, no other index moves, and a new fluid may
/// reuse its slot under another id.
#[test]
fn a_removed_fluid_leaves_inert_particles_and_dead_handles() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    let a = w.add_fluid(&fluid(64)).unwrap();
    let b = w.add_fluid(&fluid(32)).unwrap();
    assert_ne!(a, b);
    assert_eq!(w.fluid_count(), 2);
    let e = w.add_emitter(a, &nozzle_along_x(0.1, 5.0, 600.0)).unwrap();
    let v = w
        .add_kill_volume(a, &KillVolumeDesc::sphere(Vec3::splat(100.0), 1.0))
        .unwrap();
    w.emit_fluid(b, &[Vec3::new(3.0, 0.0, 0.0)], None).unwrap();
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    let (first, capacity) = w.fluid_particle_range(a).unwrap();
    assert!(w.fluid_stats(a).unwrap().count > 0);
    w.remove_fluid(a).unwrap();
    assert_eq!(w.fluid_count(), 1);
    let parked: Vec<Vec3> = (first..first + capacity)
        .map(|i| w.particles().position(i as usize))
        .collect();
    let kinds = [
        w.fluid_stats(a).unwrap_err().kind,
        w.fluid_desc(a).unwrap_err().kind,
        w.fluid_particle_range(a).unwrap_err().kind,
        w.emit_fluid(a, &[Vec3::ZERO], None).unwrap_err().kind,
        w.clear_fluid(a).unwrap_err().kind,
        w.remove_fluid(a).unwrap_err().kind,
        w.add_emitter(a, &EmitterDesc::default()).unwrap_err().kind,
        w.set_emitter(e, &EmitterDesc::default()).unwrap_err().kind,
        w.remove_emitter(e).unwrap_err().kind,
        w.remove_kill_volume(v).unwrap_err().kind,
        w.read_fluid_particles(a, 1.0, |_, _| {}).unwrap_err().kind,
        w.set_fluid_desc(a, &fluid(64)).unwrap_err().kind,
    ];
    assert!(
        kinds.iter().all(|&k| k == ErrorKind::InvalidHandle),
        "{kinds:?}"
    );
    for _ in 0..10 {
        w.step(DT).unwrap();
    }
    for (k, i) in (first..first + capacity).enumerate() {
        let p = w.particles();
        assert_eq!(p.position(i as usize), parked[k], "particle {i} stays");
        assert_eq!(p.inverse_mass(i as usize), 0.0);
        assert_eq!(p.radius(i as usize), 0.0);
    }
    // The other fluid kept its range and particle.
    assert_eq!(w.fluid_particle_range(b).unwrap(), (first + capacity, 32));
    assert_eq!(w.fluid_stats(b).unwrap().count, 1);
    // A new fluid takes the free slot with a new id; the old one stays invalid.
    let c = w.add_fluid(&fluid(16)).unwrap();
    assert_ne!(c, a);
    assert_eq!(w.fluid_stats(a).unwrap_err().kind, ErrorKind::InvalidHandle);
    assert_eq!(w.fluid_particle_range(c).unwrap().0, first + capacity + 32);
    assert_eq!(w.fluid_count(), 2);
}

/// Clearing a fluid parks every live particle; changing ρ₀ changes the live particles'
/// inverse mass (1/(ρ₀ s³)), the collision radius their radius, and switching the world
/// to 2D makes the mass ρ₀ s²; emission in 2D lands on the plane.
#[test]
fn settings_clear_and_planar_worlds() {
    let mut w = world(Vec3::ZERO);
    let f = w.add_fluid(&fluid(16)).unwrap();
    w.emit_fluid(
        f,
        &[Vec3::new(0.0, 0.0, 0.3), Vec3::X],
        Some(&[Vec3::new(0.0, 0.0, 1.0), Vec3::ZERO]),
    )
    .unwrap();
    let (first, _) = w.fluid_particle_range(f).unwrap();
    let s = 0.05f32;
    let p = |_: &World, k: u32| (first + k) as usize;
    assert!((w.particles().inverse_mass(p(&w, 0)) * 1000.0 * s * s * s - 1.0).abs() < 1e-5);
    assert_eq!(w.particles().radius(p(&w, 0)), 0.5 * s);
    assert_eq!(w.particles().radius(p(&w, 2)), 0.0);
    assert_eq!(w.particles().inverse_mass(p(&w, 2)), 0.0);
    w.set_fluid_desc(
        f,
        &FluidDesc {
            rest_density: 800.0,
            collision_radius: 0.01,
            ..fluid(16)
        },
    )
    .unwrap();
    assert_eq!(w.fluid_desc(f).unwrap().rest_density, 800.0);
    for k in 0..2 {
        let i = p(&w, k);
        assert!((w.particles().inverse_mass(i) * 800.0 * s * s * s - 1.0).abs() < 1e-5);
        assert_eq!(w.particles().radius(i), 0.01);
    }
    assert_eq!(w.particles().radius(p(&w, 2)), 0.0);
    w.set_planar(Some(0.0)).unwrap();
    assert!((w.particles().inverse_mass(p(&w, 0)) * 800.0 * s * s - 1.0).abs() < 1e-5);
    w.emit_fluid(
        f,
        &[Vec3::new(2.0, 0.0, 5.0)],
        Some(&[Vec3::new(1.0, 0.0, 3.0)]),
    )
    .unwrap();
    w.step(DT).unwrap();
    let mut all = Vec::new();
    w.read_fluid_particles(f, 1.0, |_, q| all.push(*q)).unwrap();
    assert!(all
        .iter()
        .all(|q| q.position.z == 0.0 && q.velocity.z == 0.0));
    // A planar nozzle: points across the in-plane axis (radius 0.1: 5 points).
    let e = w
        .add_emitter(
            f,
            &EmitterDesc {
                shape: EmitterShape::Nozzle { radius: 0.1 },
                position: Vec3::new(0.0, 3.0, 0.0),
                rotation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
                speed: 4.0,
                rate: 300.0,
            },
        )
        .unwrap();
    w.clear_fluid(f).unwrap();
    assert_eq!(w.fluid_stats(f).unwrap().count, 0);
    assert_eq!(w.particles().inverse_mass(p(&w, 0)), 0.0);
    w.step(DT).unwrap();
    let pts = positions(&w, f);
    assert_eq!(pts.len(), 5, "300/s for 1/60 s");
    for x in &pts {
        assert_eq!(x.z, 0.0);
        assert!((x.x / s - (x.x / s).round()).abs() < 1e-3, "{x}");
        // Particle j left the disc (j + 1)/300 s into the step before.
        let j = (x.x / s).round() + 2.0;
        let want = 3.0 - 4.0 * DT - 4.0 * (DT - (j + 1.0) / 300.0);
        assert!((x.y - want).abs() < 1e-5, "{x}: want y {want}");
    }
    w.remove_emitter(e).unwrap();
}

/// A world with a running nozzle, a box emitter, a kill volume and a lifetime restores
/// from a snapshot and continues bit for bit (the carries and sequences included); a
/// re-save gives the same bytes.
#[test]
fn snapshots_continue_bit_identically_with_emitters_running() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    w.add_collider(&ColliderDesc::default()).unwrap();
    let f = w
        .add_fluid(&FluidDesc {
            capacity: 3000,
            lifetime: 0.7,
            ..FluidDesc::default()
        })
        .unwrap();
    let g = w
        .add_fluid(&FluidDesc {
            capacity: 200,
            recycle_oldest: true,
            rest_density: 800.0,
            ..FluidDesc::default()
        })
        .unwrap();
    w.add_emitter(
        f,
        &EmitterDesc {
            position: Vec3::new(0.0, 1.0, 0.0),
            rotation: Quat::from_rotation_x(0.3),
            rate: 937.0,
            ..EmitterDesc::default()
        },
    )
    .unwrap();
    let gone = w.add_emitter(g, &EmitterDesc::default()).unwrap();
    w.remove_emitter(gone).unwrap();
    w.add_emitter(
        g,
        &EmitterDesc {
            shape: EmitterShape::Box {
                half_extents: Vec3::new(0.3, 0.1, 0.3),
            },
            position: Vec3::new(2.0, 1.0, 0.0),
            rate: 333.3,
            ..EmitterDesc::default()
        },
    )
    .unwrap();
    w.add_kill_volume(f, &KillVolumeDesc::sphere(Vec3::new(0.0, 0.0, 0.5), 0.3))
        .unwrap();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    let snap = w.snapshot();
    let mut hashes = Vec::new();
    for _ in 0..40 {
        w.step(DT).unwrap();
        hashes.push(w.state_hash());
    }
    let s = w.fluid_stats(g).unwrap();
    assert!(s.removed > 0, "the box emitter recycled: {s:?}");
    assert!(w.fluid_stats(f).unwrap().removed > 0);
    let mut r = World::from_snapshot(&snap, 2).unwrap();
    assert_eq!(r.snapshot(), snap, "a re-save gives the same bytes");
    for (k, &h) in hashes.iter().enumerate() {
        r.step(DT).unwrap();
        assert_eq!(r.state_hash(), h, "step {k} after the restore");
    }
    assert_eq!(r.fluid_stats(f).unwrap(), w.fluid_stats(f).unwrap());
    assert_eq!(positions(&r, g), positions(&w, g));
}

/// Steps that emit (nozzle, box), recycle, refuse, kill (volume, lifetime) and clear
/// never allocate: every buffer was sized when the fluid and the emitters were added.
#[test]
fn steps_that_emit_and_remove_do_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    w.add_collider(&ColliderDesc {
        position: Vec3::new(0.0, -0.5, 0.0),
        ..ColliderDesc::default()
    })
    .unwrap();
    w.add_rope(&RopeDesc::default()).unwrap();
    let f = w
        .add_fluid(&FluidDesc {
            capacity: 500,
            lifetime: 0.5,
            ..FluidDesc::default()
        })
        .unwrap();
    let g = w
        .add_fluid(&FluidDesc {
            capacity: 100,
            recycle_oldest: true,
            ..FluidDesc::default()
        })
        .unwrap();
    let h = w.add_fluid(&fluid(50)).unwrap();
    w.add_emitter(f, &EmitterDesc::default()).unwrap();
    w.add_emitter(
        g,
        &EmitterDesc {
            shape: EmitterShape::Box {
                half_extents: Vec3::splat(0.2),
            },
            position: Vec3::new(2.0, 1.0, 0.0),
            rate: 2000.0,
            ..EmitterDesc::default()
        },
    )
    .unwrap();
    w.add_emitter(h, &EmitterDesc::default()).unwrap();
    w.add_kill_volume(
        f,
        &KillVolumeDesc::half_space(Vec3::new(0.0, -0.3, 0.0), Vec3::Y),
    )
    .unwrap();
    w.step(DT).unwrap();
    let mut during = 0;
    for step in 0..90 {
        let (n, ()) = allocations_in(|| w.step(DT).unwrap());
        during += n;
        if step == 45 {
            let (n, ()) = allocations_in(|| w.clear_fluid(g).unwrap());
            during += n;
        }
    }
    assert_eq!(during, 0, "{during} allocations in the steps");
    assert_counter_sees_allocations();
    let (sf, sg, sh) = (
        w.fluid_stats(f).unwrap(),
        w.fluid_stats(g).unwrap(),
        w.fluid_stats(h).unwrap(),
    );
    assert!(sf.removed > 0 && sf.emitted > 0, "{sf:?}");
    assert!(sg.removed > 100, "{sg:?}");
    assert!(sh.refused > 0, "{sh:?}");
}

/// Live fluid particles meet colliders with their radius but never enter the
/// particle–particle contact search (their filter has no layer and no mask): the
/// search holds the rope's particles only, and the stream lands on the floor.
#[test]
fn fluid_particles_stay_out_of_the_contact_search_and_meet_colliders() {
    let mut w = world(Vec3::new(0.0, -9.81, 0.0));
    w.add_collider(&ColliderDesc::default()).unwrap();
    w.add_rope(&RopeDesc {
        start: Vec3::new(0.0, 3.0, 0.0),
        end: Vec3::new(1.0, 3.0, 0.0),
        segments: 9,
        ..RopeDesc::default()
    })
    .unwrap();
    w.set_particle_radii(0, &[0.02; 10]).unwrap();
    let f = w.add_fluid(&fluid(2000)).unwrap();
    w.add_emitter(
        f,
        &EmitterDesc {
            position: Vec3::new(3.0, 1.0, 0.0),
            ..EmitterDesc::default()
        },
    )
    .unwrap();
    for _ in 0..120 {
        w.step(DT).unwrap();
    }
    let n = w.fluid_stats(f).unwrap().count;
    assert!(n > 500, "{n}");
    assert_eq!(
        w.neighbour_stats().particles,
        10,
        "only the rope is searched"
    );
    let r = 0.5 * w.fluid_desc(f).unwrap().spacing;
    for x in positions(&w, f) {
        assert!(
            x.y >= r - 1e-3,
            "a fluid particle at {x} went through the floor"
        );
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// One of the handles made so far (None before the first).
    fn any<T: Copy>(&mut self, v: &[T]) -> Option<T> {
        v.get(self.below(v.len().max(1))).copied()
    }
    /// A value from a list of ordinary and extreme ones.
    fn pick(&mut self, values: &[f32]) -> f32 {
        values[self.below(values.len())]
    }
}

/// Random sequences of fluid calls (extreme but accepted settings among them, stale
/// handles, snapshots and restores, a switch to 2D) never panic, keep every particle
/// finite, and keep each fluid's books: live = emitted − removed, live ≤ capacity.
#[test]
fn random_fluid_call_sequences_keep_the_books() {
    let mut rng = Rng(0xF1D0_5EED);
    for round in 0..24 {
        let mut w = world(Vec3::new(0.0, -9.81, 0.0));
        w.add_collider(&ColliderDesc::default()).unwrap();
        let (mut fluids, mut emitters, mut volumes) = (Vec::new(), Vec::new(), Vec::new());
        let mut saved = None;
        for _ in 0..80 {
            match rng.below(12) {
                0 | 1 => {
                    let desc = FluidDesc {
                        capacity: 1 + rng.below(300) as u32,
                        spacing: rng.pick(&[0.001, 0.05, 0.3, 10.0]),
                        rest_density: rng.pick(&[1.0, 1000.0, 1.0e5]),
                        lifetime: rng.pick(&[0.0, 0.02, 0.5]),
                        recycle_oldest: rng.below(2) == 0,
                        ..FluidDesc::default()
                    };
                    if let Ok(f) = w.add_fluid(&desc) {
                        fluids.push(f);
                    }
                }
                2 => {
                    if let Some(f) = rng.any(&fluids) {
                        let _ = w.remove_fluid(f);
                    }
                }
                3 | 4 => {
                    if let Some(f) = rng.any(&fluids) {
                        let shape = if rng.below(2) == 0 {
                            EmitterShape::Nozzle {
                                radius: rng.pick(&[0.0, 0.1, 2.0]),
                            }
                        } else {
                            EmitterShape::Box {
                                half_extents: Vec3::new(rng.pick(&[0.0, 0.5, 1.0e3]), 0.2, 0.3),
                            }
                        };
                        let desc = EmitterDesc {
                            shape,
                            position: Vec3::new(0.0, rng.pick(&[0.5, 3.0, 1.0e6]), 0.0),
                            rotation: Quat::from_rotation_x(rng.pick(&[0.0, 1.0, 3.0])),
                            speed: rng.pick(&[0.0, 1.0, 1000.0]),
                            rate: rng.pick(&[0.0, 10.0, 5000.0, 1.0e7]),
                        };
                        if let Ok(e) = w.add_emitter(f, &desc) {
                            emitters.push(e);
                        }
                    }
                }
                5 => {
                    if let Some(e) = rng.any(&emitters) {
                        let _ = w.set_emitter(
                            e,
                            &EmitterDesc {
                                rate: rng.pick(&[0.0, 100.0]),
                                ..EmitterDesc::default()
                            },
                        );
                        if rng.below(3) == 0 {
                            let _ = w.remove_emitter(e);
                        }
                    }
                }
                6 => {
                    if let Some(f) = rng.any(&fluids) {
                        let desc = if rng.below(2) == 0 {
                            KillVolumeDesc::sphere(Vec3::ZERO, rng.pick(&[0.5, 2.0]))
                        } else {
                            KillVolumeDesc::half_space(Vec3::new(0.0, 0.2, 0.0), Vec3::Y)
                        };
                        if let Ok(v) = w.add_kill_volume(f, &desc) {
                            volumes.push(v);
                        }
                    }
                }
                7 => {
                    if let Some(v) = rng.any(&volumes) {
                        let _ = w.remove_kill_volume(v);
                    }
                }
                8 => {
                    if let Some(f) = rng.any(&fluids) {
                        let n = 1 + rng.below(40);
                        let p: Vec<Vec3> = (0..n)
                            .map(|i| Vec3::new(i as f32 * 0.1, 1.0 + rng.below(3) as f32, 0.0))
                            .collect();
                        let _ = w.emit_fluid(f, &p, None);
                        if rng.below(4) == 0 {
                            let _ = w.clear_fluid(f);
                        }
                    }
                }
                9 => {
                    if rng.below(2) == 0 {
                        saved = Some(w.snapshot());
                    } else if let Some(s) = &saved {
                        w.restore_snapshot(s).unwrap();
                    }
                }
                10 => {
                    if rng.below(8) == 0 {
                        w.set_planar(Some(0.0)).unwrap();
                    }
                }
                _ => {
                    let _ = w.step(rng.pick(&[DT, 0.1, 1.0e-6]));
                }
            }
            w.step(DT).unwrap();
        }
        let p = w.particles();
        for i in 0..p.len() {
            assert!(
                p.position(i).is_finite() && p.velocity(i).is_finite(),
                "{round}"
            );
        }
        for &f in &fluids {
            if let Ok(s) = w.fluid_stats(f) {
                assert!(s.count <= s.capacity, "{round}: {s:?}");
                assert_eq!(s.emitted - s.removed, s.count as u64, "{round}: {s:?}");
                let (first, cap) = w.fluid_particle_range(f).unwrap();
                for i in first + s.count..first + cap {
                    assert_eq!(p.inverse_mass(i as usize), 0.0, "{round}: dead slot {i}");
                    assert_eq!(p.radius(i as usize), 0.0, "{round}: dead slot {i}");
                }
            }
        }
    }
}
