//! Fluid held by thin moving colliders (issue 28 item 12): a tank of 10 cm box walls
//! shaken hard (the walls move about 3 cm per substep) keeps every particle inside,
//! as a tank of planes does.

use sinew::{ColliderDesc, ColliderId, FluidDesc, FluidId, Quat, Shape, Vec3, World};

use crate::fluid_box::one_thread_world;

const DT: f32 = 1.0 / 60.0;
const S: f32 = 0.02;
/// Inner half-width of the tank (m) and half the wall thickness (m).
const HALF: f32 = 0.2;
const WALL: f32 = 0.05;

/// The tank's walls (floor, ceiling, left, right; planar): offset from the centre and
/// half extents.
fn walls() -> [(Vec3, Vec3); 4] {
    let (o, l) = (HALF + WALL, HALF + 2.0 * WALL);
    [
        (Vec3::new(0.0, -o, 0.0), Vec3::new(l, WALL, 1.0)),
        (Vec3::new(0.0, o, 0.0), Vec3::new(l, WALL, 1.0)),
        (Vec3::new(-o, 0.0, 0.0), Vec3::new(WALL, l, 1.0)),
        (Vec3::new(o, 0.0, 0.0), Vec3::new(WALL, l, 1.0)),
    ]
}

fn tank(substeps: u32) -> (World, FluidId, Vec<ColliderId>) {
    let mut w = one_thread_world(substeps, 2);
    w.set_planar(Some(0.0)).unwrap();
    let n = 14;
    let f = w
        .add_fluid(&FluidDesc {
            rest_density: 1000.0,
            spacing: S,
            smoothing_radius: 2.0 * S,
            capacity: n * n,
            relaxation: 100.0,
            viscosity: 0.01,
            collision_radius: 0.0,
            ..FluidDesc::default()
        })
        .unwrap();
    let positions: Vec<Vec3> = (0..n * n)
        .map(|k| {
            let (x, y) = ((k % n) as f32 + 0.5, (k / n) as f32 + 0.5);
            Vec3::new(-HALF + x * S, -HALF + y * S, 0.0)
        })
        .collect();
    w.emit_fluid(f, &positions, None).unwrap();
    let ids = walls()
        .iter()
        .map(|&(at, half_extents)| {
            w.add_collider(&ColliderDesc {
                shape: Shape::Box { half_extents },
                position: at,
                ..ColliderDesc::default()
            })
            .unwrap()
        })
        .collect();
    (w, f, ids)
}

/// Shakes the tank for `frames` frames (its pose at `pose(t)`: the centre and the
/// rotation about it) and checks after every frame that each particle is inside it, in
/// the tank's frame: within two spacings of its inner faces. (Contacts are detected
/// when a substep starts with a fluid's wider reach, and the density correction moves
/// a particle at most that reach within the substep: a particle may end a substep in
/// a wall by little more than the rounding, never past its middle, beyond which a
/// nearest-face contact would push it out by the far face.)
fn shake(substeps: u32, frames: u32, pose: impl Fn(f32) -> (Vec3, Quat)) {
    let (mut w, f, ids) = tank(substeps);
    for frame in 0..frames {
        let (centre, rot) = pose((frame + 1) as f32 * DT);
        for (&id, &(at, _)) in ids.iter().zip(&walls()) {
            w.set_collider_transform(id, centre + rot * at, rot, false)
                .unwrap();
        }
        w.step(DT).unwrap();
        let mut count = 0;
        w.read_fluid_particles(f, 1.0, |k, p| {
            count += 1;
            let q = rot.inverse() * (p.position - centre);
            assert!(
                q.is_finite() && q.x.abs() < HALF + 2.0 * S && q.y.abs() < HALF + 2.0 * S,
                "frame {frame}: particle {k} at {} is outside the tank at {centre}, {rot}",
                p.position
            );
        })
        .unwrap();
        assert_eq!(count, 14 * 14, "frame {frame}");
    }
}

/// Horizontal shaking, 0.1 m amplitude at 5.7 Hz: a peak speed of 3.6 m/s, 3 cm per
/// substep at 2 substeps per 1/60 s frame.
#[test]
fn a_thin_walled_tank_shaken_hard_keeps_its_fluid() {
    shake(2, 180, |t| {
        (Vec3::new(0.1 * (36.0 * t).sin(), 0.0, 0.0), Quat::IDENTITY)
    });
}

/// The same tank moved in a circle of 0.1 m radius at 5.7 Hz (3 cm per substep, along
/// both axes in turn) for 5 s: the walls also slide along their length while they push.
#[test]
fn a_thin_walled_tank_moved_in_a_circle_keeps_its_fluid() {
    shake(2, 300, |t| {
        let a = 36.0 * t;
        (
            Vec3::new(0.1 * a.sin(), 0.1 * (a.cos() - 1.0), 0.0),
            Quat::IDENTITY,
        )
    });
}

/// The tank rocked about its centre, ±0.5 rad at 1.9 Hz (its corners, 0.42 m out,
/// move up to 2.5 cm per substep), for 5 s.
#[test]
fn a_thin_walled_tank_rocked_hard_keeps_its_fluid() {
    shake(2, 300, |t| {
        (Vec3::ZERO, Quat::from_rotation_z(0.5 * (12.0 * t).sin()))
    });
}
