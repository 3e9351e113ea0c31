//! Snapshots and state hashes: rollback in every showcase scene, restore into another
//! thread count, handles across save and restore, refusal of damaged buffers (the
//! bounded fuzz run of damaged and forged snapshots is `snapshot_fuzz.rs`), and the
//! state hash over thread counts.

use crate::scenes;

use sinew::scenes::{self as bench, FRAME_DT};
use sinew::{
    seal_snapshot as seal, SNAPSHOT_FORMAT_VERSION as FORMAT_VERSION,
    SNAPSHOT_HEADER_BYTES as HEADER_BYTES,
};

use sinew::{
    BendingModel, ClothDesc, ClothGridDesc, ClothModel, ColliderDesc, EmitterDesc, EmitterShape,
    ErrorKind, FamilyKind, FluidDesc, KillVolumeDesc, PressureBodyDesc, Quat, RopeDesc, RopeEnd,
    Shape, SkinWeights, Solver, TetBodyDesc, TetModel, Transform, Vec3, WindDesc, WindZoneDesc,
    WindZoneShape, World, WorldDesc,
};

/// One frame of a showcase scene at time index `k` (the observe and drive hooks, then
/// the step), as `tests/physics/trajectory_hashes.rs` runs them.
fn frame(scene: &mut scenes::Scene, k: u32) {
    let t = k as f32 / scenes::SIM_HZ;
    if let Some(observe) = scene.observe.as_mut() {
        observe(&mut scene.sim, t);
    }
    if let Some(drive) = scene.drive.as_mut() {
        drive(&mut scene.sim, t);
    }
    scene.sim.world.step(1.0 / scenes::SIM_HZ).expect("step");
}

/// For every showcase scene: step 120 frames on one thread recording the state hash
/// after each, with a snapshot at frame 60. A second copy of the scene (its drive
/// hooks at frame 60, its world run on and then disturbed) restores the snapshot and
/// re-steps to 120: every hash from 61 to 120 matches. A third copy, run on 4 threads,
/// restores the same snapshot at frame 60: the same hashes.
#[test]
fn rollback_in_every_showcase_scene_replays_bit_for_bit() {
    let (a_all, b_all, c_all) = (scenes::all(), scenes::all(), scenes::all());
    for ((mut a, mut b), mut c) in a_all.into_iter().zip(b_all).zip(c_all) {
        let name = a.name;
        // One thread for the recording run: rebuild its world from a snapshot.
        a.sim.world = World::from_snapshot(&a.sim.world.snapshot(), 1).expect("frame 0");
        let mut hashes = vec![a.sim.world.state_hash()];
        let mut at_60 = Vec::new();
        for k in 0..120 {
            frame(&mut a, k);
            hashes.push(a.sim.world.state_hash());
            if k + 1 == 60 {
                at_60 = a.sim.world.snapshot();
            }
        }
        assert_ne!(hashes[60], hashes[120], "{name}: the scene must move");
        c.sim.world = World::from_snapshot(&c.sim.world.snapshot(), 4).expect("frame 0");
        for k in 0..60 {
            frame(&mut b, k);
            frame(&mut c, k);
        }
        assert_eq!(b.sim.world.state_hash(), hashes[60], "{name}: frame 60");
        // Disturb b (ten frames with gravity reversed) so the restore has work to do.
        for _ in 0..10 {
            b.sim.world.step(FRAME_DT).expect("step");
        }
        assert_ne!(b.sim.world.state_hash(), hashes[60]);
        b.sim.world.restore_snapshot(&at_60).expect("restore");
        assert_eq!(b.sim.world.state_hash(), hashes[60], "{name}: restored");
        c.sim.world.restore_snapshot(&at_60).expect("restore");
        assert_eq!(c.sim.world.threads(), 4);
        for k in 60..120 {
            frame(&mut b, k);
            frame(&mut c, k);
            let want = hashes[k as usize + 1];
            assert_eq!(b.sim.world.state_hash(), want, "{name}: frame {}", k + 1);
            assert_eq!(
                c.sim.world.state_hash(),
                want,
                "{name}: 4 threads, frame {}",
                k + 1
            );
        }
    }
}

/// A world with every kind of state: a rope, cloth (edges and strain), tet and
/// pressure bodies, every family, attachments to a moving host, colliders (a sphere
/// and a mesh) with one removed, a removed body, a grab, radii, filters, unyielding
/// factors, a speed limit and damping, and fluids (a nozzle pouring onto the pressure
/// body, a kill volume, a recycling box emitter with a lifetime, a removed fluid).
pub(crate) fn everything(solver: Solver, threads: u32) -> World {
    let mut w = World::new(WorldDesc {
        solver,
        threads,
        damping: 0.1,
        ..WorldDesc::default()
    })
    .unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(-1.0, 2.0, 0.0),
            end: Vec3::new(0.0, 2.0, 0.0),
            segments: 12,
            ..RopeDesc::default()
        })
        .unwrap();
    let doomed = w
        .add_rope(&RopeDesc {
            start: Vec3::new(3.0, 2.0, 0.0),
            end: Vec3::new(4.0, 2.0, 0.0),
            segments: 4,
            ..RopeDesc::default()
        })
        .unwrap();
    for (model, bending, x) in [
        (ClothModel::Edges, BendingModel::Dihedral, 0.5),
        (ClothModel::Strain, BendingModel::Isometric, 2.0),
    ] {
        w.add_cloth_grid(
            &ClothDesc {
                model,
                bending,
                tethers: true,
                ..ClothDesc::default()
            },
            &ClothGridDesc {
                origin: Vec3::new(x, 1.5, 0.0),
                u: Vec3::new(1.0, 0.0, 0.0),
                v: Vec3::new(0.0, 0.0, 1.0),
                segments_u: 8,
                segments_v: 8,
                pin_corners: 2,
                ..ClothGridDesc::default()
            },
        )
        .unwrap();
    }
    let (verts, tets) = bench::tet_cube(2, 0.3);
    let moved: Vec<Vec3> = verts
        .iter()
        .map(|v| *v + Vec3::new(-2.0, 1.0, 0.0))
        .collect();
    for model in [TetModel::EdgesAndVolume, TetModel::Strain] {
        w.add_tet_body(
            &TetBodyDesc {
                model,
                ..TetBodyDesc::default()
            },
            &moved,
            &tets,
            None,
        )
        .unwrap();
    }
    let (bv, bt) = bench::box_mesh(Vec3::splat(0.2));
    let bv: Vec<Vec3> = bv.iter().map(|v| *v + Vec3::new(-3.0, 1.0, 0.0)).collect();
    let bt: Vec<[u32; 3]> = bt.iter().map(|&[a, b, c]| [a, c, b]).collect();
    w.add_pressure_body(&PressureBodyDesc::default(), &bv, &bt, None)
        .unwrap();
    // Loose particles for the families without a body.
    let first = w
        .add_particles(
            &[
                Vec3::new(5.0, 1.0, 0.0),
                Vec3::new(5.3, 1.0, 0.0),
                Vec3::new(5.0, 1.3, 0.0),
                Vec3::new(5.0, 1.0, 0.3),
                Vec3::new(5.3, 1.3, 0.1),
            ],
            None,
        )
        .unwrap();
    let p = |k: u32| first + k;
    w.add_distance_constraints(&[[p(0), p(1)]], None, 1e-4)
        .unwrap();
    w.add_pbd_distance_constraints(&[[p(1), p(2)]], None, 0.5)
        .unwrap();
    w.add_tethers(&[[p(0), p(4)]], None, 0.0).unwrap();
    w.add_tet_volumes(&[[p(0), p(1), p(2), p(3)]], None, 1e-3)
        .unwrap();
    w.add_unilateral_areas(&[[p(0), p(1), p(2)]], None, 0.0)
        .unwrap();
    w.add_unilateral_volumes(&[[p(0), p(1), p(2), p(3)]], None, 0.0)
        .unwrap();
    w.add_ring_area(&[p(0), p(1), p(4), p(2)], 1.0, 1e-3)
        .unwrap();
    w.add_shape_cluster(&[p(0), p(1), p(2), p(3), p(4)], 0.5, 0.01, 0.2)
        .unwrap();
    let host = w
        .add_attachment_host(Transform {
            position: Vec3::new(-1.0, 2.0, 0.0),
            rotation: Quat::IDENTITY,
        })
        .unwrap();
    let rope_first = w.body(rope).unwrap().particles.start;
    w.add_attachments(host, &[rope_first], None, 0.0).unwrap();
    w.set_attachment_host_transform(
        host,
        Transform {
            position: Vec3::new(-0.9, 2.1, 0.0),
            rotation: Quat::from_rotation_y(0.2),
        },
    )
    .unwrap();
    let sphere = w
        .add_collider(&ColliderDesc {
            shape: Shape::Sphere { radius: 0.3 },
            position: Vec3::new(0.9, 1.0, 0.4),
            static_friction: 0.4,
            dynamic_friction: 0.3,
            restitution: 0.2,
            ..ColliderDesc::default()
        })
        .unwrap();
    let gone = w.add_collider(&ColliderDesc::default()).unwrap();
    w.add_mesh_collider(
        &ColliderDesc {
            position: Vec3::new(0.0, -0.5, 0.0),
            ..ColliderDesc::default()
        },
        &[
            Vec3::new(-5.0, 0.0, -5.0),
            Vec3::new(5.0, 0.0, -5.0),
            Vec3::new(0.0, 0.0, 5.0),
        ],
        &[[0, 2, 1]],
    )
    .unwrap();
    w.remove_collider(gone).unwrap();
    w.add_collider(&ColliderDesc {
        position: Vec3::new(0.0, -0.2, 0.0),
        ..ColliderDesc::default()
    })
    .unwrap();
    w.remove_body(doomed).unwrap();
    live_edits_wind_and_skinning(&mut w);
    torn_cloth(&mut w);
    let n = w.particle_count();
    w.set_particle_radii(0, &vec![0.02; n as usize]).unwrap();
    w.set_unyielding(first, &[0.5]).unwrap();
    fluids(&mut w);
    w.set_max_speed(50.0).unwrap();
    w.set_body_damping(rope, 0.3).unwrap();
    w.grab_particle(rope_first + 6, Vec3::new(-0.5, 2.5, 0.0), 1e-3)
        .unwrap();
    for _ in 0..4 {
        w.step(FRAME_DT).unwrap();
    }
    // The fifth step through the fixed-step accumulator, which keeps half a step.
    let a = w.advance(1.5 * FRAME_DT, FRAME_DT, 4).unwrap();
    assert_eq!(a.steps, 1);
    assert!((a.alpha - 0.5).abs() < 1e-6, "{}", a.alpha);
    assert!(w.accumulated_time() > 0.0);
    w.set_collider_transform(
        sphere,
        Vec3::new(1.0, 1.1, 0.4),
        Quat::from_rotation_x(0.1),
        false,
    )
    .unwrap();
    w
}

/// Fluid state: a fluid poured by a nozzle onto the pressure body, with a kill volume
/// and particles emitted by call; a second fluid with a lifetime and a box emitter that
/// recycles its oldest particles; a removed fluid, emitter and kill volume (their slot
/// generations).
fn fluids(w: &mut World) {
    let gone = w
        .add_fluid(&FluidDesc {
            capacity: 8,
            ..FluidDesc::default()
        })
        .unwrap();
    let water = w
        .add_fluid(&FluidDesc {
            capacity: 400,
            ..FluidDesc::default()
        })
        .unwrap();
    w.remove_fluid(gone).unwrap();
    w.add_emitter(
        water,
        &EmitterDesc {
            position: Vec3::new(-3.0, 1.8, 0.0),
            rotation: Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
            rate: 700.0,
            ..EmitterDesc::default()
        },
    )
    .unwrap();
    let doomed = w
        .add_kill_volume(
            water,
            &KillVolumeDesc::half_space(Vec3::new(0.0, -3.0, 0.0), Vec3::Y),
        )
        .unwrap();
    w.remove_kill_volume(doomed).unwrap();
    w.add_kill_volume(
        water,
        &KillVolumeDesc::sphere(Vec3::new(-3.0, 0.0, 0.0), 0.5),
    )
    .unwrap();
    w.emit_fluid(
        water,
        &[Vec3::new(-2.5, 1.5, 0.0), Vec3::new(-2.5, 1.6, 0.0)],
        Some(&[Vec3::X, Vec3::ZERO]),
    )
    .unwrap();
    let oil = w
        .add_fluid(&FluidDesc {
            rest_density: 800.0,
            capacity: 60,
            lifetime: 0.05,
            recycle_oldest: true,
            ..FluidDesc::default()
        })
        .unwrap();
    w.add_emitter(
        oil,
        &EmitterDesc {
            shape: EmitterShape::Box {
                half_extents: Vec3::new(0.3, 0.1, 0.3),
            },
            position: Vec3::new(9.0, 1.0, 0.0),
            rate: 2500.0,
            ..EmitterDesc::default()
        },
    )
    .unwrap();
}

/// A cloth whose tearing is on, stretched to 1.6 times its width so that the first
/// steps split it (spares taken, edges copied and re-pointed, hinges removed).
fn torn_cloth(w: &mut World) {
    let cloth = w
        .add_cloth_grid(
            &ClothDesc {
                bending: BendingModel::Distance,
                ..ClothDesc::default()
            },
            &ClothGridDesc {
                origin: Vec3::new(-4.0, 3.0, 0.0),
                segments_u: 6,
                segments_v: 4,
                pin_corners: 1 | 4,
                ..ClothGridDesc::default()
            },
        )
        .unwrap();
    let (first, count) = w.body_particle_range(cloth).unwrap();
    let end = first + count;
    let stretched: Vec<Vec3> = (first..end)
        .map(|p| {
            let x = w.particles().position(p as usize);
            Vec3::new(-4.0 + (x.x + 4.0) * 1.6, x.y, x.z)
        })
        .collect();
    w.write_positions(first, &stretched).unwrap();
    w.set_cloth_tear_threshold(cloth, 1.4, 12).unwrap();
    w.set_body_compliance(cloth, sinew::BodyConstraints::Bend, 0.5)
        .unwrap();
}

/// State that live edits, wind and character cloth add: a winch paying in, a
/// breakable rope, removed and re-rested constraints, a rest scale, wind with a zone
/// and turbulence on an aerodynamic cloth, and a skinned cloth with targets and a root.
fn live_edits_wind_and_skinning(w: &mut World) {
    let crane = w
        .add_rope(&RopeDesc {
            start: Vec3::new(6.0, 3.0, 0.0),
            end: Vec3::new(6.0, 1.0, 0.0),
            segments: 10,
            pin_start: true,
            ..RopeDesc::default()
        })
        .unwrap();
    w.add_winch(crane, RopeEnd::Start, 1.8).unwrap();
    w.set_winch_speed(crane, -0.3).unwrap();
    let weak = w
        .add_rope(&RopeDesc {
            start: Vec3::new(7.0, 3.0, 0.0),
            end: Vec3::new(8.0, 3.0, 0.0),
            segments: 6,
            pin_start: true,
            ..RopeDesc::default()
        })
        .unwrap();
    w.set_body_break_force(weak, 0.5).unwrap();
    w.set_body_rest_scale(weak, 0.9).unwrap();
    w.remove_constraints(FamilyKind::Distance, 0, 1).unwrap();
    w.set_constraint_rest(FamilyKind::Tether, 0, &[0.35])
        .unwrap();
    w.set_constraint_break_force(FamilyKind::Tether, 0, 1, 1e6)
        .unwrap();
    let grid = |x: f32| ClothGridDesc {
        origin: Vec3::new(x, 2.5, 2.0),
        u: Vec3::new(0.5, 0.0, 0.0),
        v: Vec3::new(0.0, -0.5, 0.0),
        segments_u: 4,
        segments_v: 4,
        pin_corners: 2,
        ..ClothGridDesc::default()
    };
    let flag = w.add_cloth_grid(&ClothDesc::default(), &grid(0.0)).unwrap();
    w.set_body_aerodynamics(flag, 1.1, 0.4).unwrap();
    w.set_wind(&WindDesc {
        velocity: Vec3::new(3.0, 0.0, 1.0),
        turbulence: 0.7,
        ..WindDesc::default()
    })
    .unwrap();
    let zone = w
        .add_wind_zone(&WindZoneDesc {
            shape: WindZoneShape::Sphere,
            position: Vec3::new(0.2, 2.3, 2.0),
            radius: 1.0,
            strength: 2.0,
            falloff: 0.3,
            ..WindZoneDesc::default()
        })
        .unwrap();
    w.add_wind_zone(&WindZoneDesc::default()).unwrap();
    w.remove_wind_zone(zone).unwrap();
    let cape = w.add_cloth_grid(&ClothDesc::default(), &grid(1.5)).unwrap();
    let (first, count) = w.body_particle_range(cape).unwrap();
    let weights: Vec<SkinWeights> = (0..count)
        .map(|k| SkinWeights {
            max_distance: 0.05 * k as f32,
            backstop_radius: 0.5,
            backstop_distance: 0.01,
            drive_compliance: 1e-3,
        })
        .collect();
    w.set_skin_weights(cape, &weights).unwrap();
    let mut targets = vec![Vec3::ZERO; count as usize];
    w.read_positions(first, count, |k, p| targets[k] = p)
        .unwrap();
    let normals = vec![Vec3::Z; count as usize];
    w.set_skin_targets(cape, &targets, Some(&normals)).unwrap();
    w.set_skin_root(
        cape,
        Transform {
            position: Vec3::new(1.6, 2.0, 2.0),
            rotation: Quat::from_rotation_y(0.3),
        },
        0.4,
        0.6,
    )
    .unwrap();
}

#[test]
fn every_kind_of_state_round_trips_and_steps_identically() {
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let mut a = everything(solver, 1);
        let snap = a.snapshot();
        assert_eq!(snap.len(), a.snapshot_size());
        let mut b = World::from_snapshot(&snap, 2).unwrap();
        assert_eq!(b.state_hash(), a.state_hash(), "{solver:?}");
        assert_eq!(
            b.snapshot(),
            snap,
            "{solver:?}: saving again gives the same bytes"
        );
        // Into an unrelated world of another thread count.
        let mut c = World::new(WorldDesc {
            threads: 3,
            ..WorldDesc::default()
        })
        .unwrap();
        c.restore_snapshot(&snap).unwrap();
        assert_eq!(c.threads(), 3);
        // The accumulator and the positions before the last step come back too.
        assert_eq!(b.accumulated_time(), a.accumulated_time());
        assert_eq!(c.accumulated_time(), a.accumulated_time());
        let n = a.particle_count();
        let read = |w: &World| {
            let mut v = Vec::new();
            w.read_interpolated_positions(0, n, 0.25, |_, p| {
                v.push(p.to_array().map(f32::to_bits))
            })
            .unwrap();
            v
        };
        assert_eq!(read(&b), read(&a), "{solver:?}: interpolated positions");
        assert_eq!(read(&c), read(&a), "{solver:?}: interpolated positions");
        for frame in 0..40 {
            a.step(FRAME_DT).unwrap();
            b.step(FRAME_DT).unwrap();
            c.step(FRAME_DT).unwrap();
            assert_eq!(b.state_hash(), a.state_hash(), "{solver:?} frame {frame}");
            assert_eq!(c.state_hash(), a.state_hash(), "{solver:?} frame {frame}");
        }
        assert_eq!(b.contacts(), a.contacts());
        assert!(
            !a.contacts().is_empty(),
            "the scene must touch its colliders"
        );
    }
}

#[test]
fn handles_stay_valid_across_restore_and_carry_into_a_new_world() {
    let mut w = everything(Solver::GaussSeidel, 1);
    let body = w
        .add_rope(&RopeDesc {
            start: Vec3::new(0.0, 5.0, 0.0),
            ..RopeDesc::default()
        })
        .unwrap();
    let collider = w
        .add_collider(&ColliderDesc {
            shape: Shape::Sphere { radius: 0.1 },
            position: Vec3::new(0.0, 9.0, 0.0),
            ..ColliderDesc::default()
        })
        .unwrap();
    let snap = w.snapshot();
    let before = w.body(body).unwrap().clone();
    w.remove_body(body).unwrap();
    w.remove_collider(collider).unwrap();
    assert!(w.body(body).is_err());
    w.restore_snapshot(&snap).unwrap();
    assert_eq!(w.body(body).unwrap().particles, before.particles);
    assert_eq!(
        w.collider(collider).unwrap().position,
        Vec3::new(0.0, 9.0, 0.0)
    );
    let mut fresh = World::from_snapshot(&snap, 1).unwrap();
    assert_eq!(fresh.body(body).unwrap().particles, before.particles);
    assert!(fresh.collider(collider).is_ok());
    // The next ids are the same in both worlds too.
    let next = |w: &mut World| {
        (
            w.add_rope(&RopeDesc::default()).unwrap(),
            w.add_collider(&ColliderDesc::default()).unwrap(),
        )
    };
    assert_eq!(next(&mut w), next(&mut fresh));
}

/// A snapshot with its header fields rewritten and the checksum recomputed: the
/// checksum of `seal`, which seals the same body with a fresh header.
fn reseal(bytes: &mut [u8]) {
    let sealed = seal(&bytes[HEADER_BYTES..]);
    bytes[24..32].copy_from_slice(&sealed[24..32]);
}

#[test]
fn foreign_future_truncated_and_corrupt_buffers_are_refused_with_the_world_unchanged() {
    let mut w = everything(Solver::GaussSeidel, 1);
    let snap = w.snapshot();
    let h = w.state_hash();
    let refuse = |w: &mut World, bytes: &[u8], needle: &str| {
        let e = w.restore_snapshot(bytes).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArgument, "{}", e.message);
        assert!(
            e.message.contains(needle),
            "{needle:?} not in {:?}",
            e.message
        );
        assert!(World::from_snapshot(bytes, 1).is_err());
        assert_eq!(w.state_hash(), h, "a refused buffer changed the world");
    };
    refuse(&mut w, &[], "header");
    refuse(&mut w, &snap[..HEADER_BYTES - 1], "header");
    refuse(&mut w, &snap[..snap.len() - 1], "truncated");
    let mut padded = snap.clone();
    padded.push(0);
    refuse(&mut w, &padded, "padded");
    let mut foreign = snap.clone();
    foreign[0] = b'X';
    refuse(&mut w, &foreign, "not a Sinew snapshot");
    let mut future = snap.clone();
    future[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    refuse(&mut w, &future, "newer");
    let mut abi = snap.clone();
    abi[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    refuse(&mut w, &abi, "ABI version");
    // Written with another settings layout (a stored desc had other fields).
    let mut layout = snap.clone();
    layout[32] ^= 1;
    refuse(&mut w, &layout, "different settings layout");
    let mut flipped = snap.clone();
    flipped[HEADER_BYTES + 100] ^= 4;
    refuse(&mut w, &flipped, "checksum");
    // A forged body with a valid checksum: an index past the particles.
    let mut trailing = snap.clone();
    trailing.extend_from_slice(&[0; 8]);
    let len = (trailing.len() - HEADER_BYTES) as u64;
    trailing[16..24].copy_from_slice(&len.to_le_bytes());
    reseal(&mut trailing);
    refuse(&mut w, &trailing, "bytes follow");
    // The world is untouched and still steps like its twin.
    let mut twin = World::from_snapshot(&snap, 1).unwrap();
    w.step(FRAME_DT).unwrap();
    twin.step(FRAME_DT).unwrap();
    assert_eq!(w.state_hash(), twin.state_hash());
}

#[test]
fn the_state_hash_ignores_the_thread_count_and_follows_the_state() {
    for (name, build, n) in [
        (
            "cloth",
            bench::cloth as fn(u32, WorldDesc) -> sinew::Result<bench::Scene>,
            40,
        ),
        ("ropes_body", bench::ropes_body, 12),
        ("particles", bench::particles, 600),
    ] {
        for solver in [Solver::GaussSeidel, Solver::Jacobi] {
            let hashes: Vec<u64> = [1u32, 2, 16]
                .into_iter()
                .map(|threads| {
                    let mut s = build(
                        n,
                        WorldDesc {
                            threads,
                            solver,
                            ..bench::default_desc()
                        },
                    )
                    .unwrap();
                    for _ in 0..20 {
                        s.world.step(FRAME_DT).unwrap();
                    }
                    s.world.state_hash()
                })
                .collect();
            assert!(
                hashes.iter().all(|&h| h == hashes[0]),
                "{name} {solver:?}: {hashes:x?}"
            );
        }
    }
    // Any change of state changes the hash.
    let mut w = everything(Solver::GaussSeidel, 1);
    let h = w.state_hash();
    // The last movable particle (the spares of the torn cloth come last and are pinned).
    let last = (0..w.particle_count())
        .rev()
        .find(|&i| w.particles().inverse_mass(i as usize) > 0.0)
        .unwrap();
    w.write_velocities(last, &[Vec3::new(0.0, 1e-6, 0.0)])
        .unwrap();
    assert_ne!(w.state_hash(), h);
}

/// Across processes: the first run of this test saves frame 60 of a scene to a file
/// and the hash of frame 120; a fresh process (this test binary run again with
/// `SINEW_SNAPSHOT_FILE` set) loads it, steps to 120 and compares.
#[test]
fn a_snapshot_saved_in_one_process_continues_in_another() {
    let build = || bench::cloth_body(16, bench::default_desc()).unwrap().world;
    if let Ok(path) = std::env::var("SINEW_SNAPSHOT_FILE") {
        let bytes = std::fs::read(&path).unwrap();
        let mut w = World::from_snapshot(&bytes, 4).unwrap();
        for _ in 60..120 {
            w.step(FRAME_DT).unwrap();
        }
        println!("HASH120 {:016x}", w.state_hash());
        return;
    }
    let mut w = build();
    let dir = std::env::temp_dir().join(format!("sinew-snapshot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("frame60.snap");
    for k in 0..120 {
        w.step(FRAME_DT).unwrap();
        if k + 1 == 60 {
            std::fs::write(&path, w.snapshot()).unwrap();
        }
    }
    let want = format!("HASH120 {:016x}", w.state_hash());
    // This test's name in its binary: the module path without the crate's name.
    let name = concat!(
        module_path!(),
        "::a_snapshot_saved_in_one_process_continues_in_another"
    );
    let name = name.split_once("::").map_or(name, |(_, test)| test);
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture"])
        .env("SINEW_SNAPSHOT_FILE", &path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains(&want), "want {want} in {stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
