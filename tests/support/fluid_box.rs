//! The fluid tests' tank: a world stepped on one thread and a closed box of
//! frictionless collider planes (`#[path]`-included).

use sinew::{ColliderDesc, Quat, Shape, Vec3, World, WorldDesc};
use std::f32::consts::{FRAC_PI_2, PI};

/// A box of planes: floor y = 0, ceiling y = `top`, walls x = 0, x = `wx`, and (3D)
/// z = 0, z = `wz`; frictionless.
pub fn closed_box(w: &mut World, wx: f32, top: f32, wz: Option<f32>) {
    let mut planes = vec![
        (Vec3::ZERO, Quat::IDENTITY),
        (Vec3::new(0.0, top, 0.0), Quat::from_rotation_x(PI)),
        (Vec3::ZERO, Quat::from_rotation_z(-FRAC_PI_2)),
        (Vec3::new(wx, 0.0, 0.0), Quat::from_rotation_z(FRAC_PI_2)),
    ];
    if let Some(wz) = wz {
        planes.push((Vec3::ZERO, Quat::from_rotation_x(FRAC_PI_2)));
        planes.push((Vec3::new(0.0, 0.0, wz), Quat::from_rotation_x(-FRAC_PI_2)));
    }
    for (position, rotation) in planes {
        w.add_collider(&ColliderDesc {
            shape: Shape::Plane,
            position,
            rotation,
            ..ColliderDesc::default()
        })
        .unwrap();
    }
}

/// A world of `substeps` × `iterations` per step on one thread (the bits of a
/// multi-threaded run are the same; one thread keeps the tests' runs side by side).
pub fn one_thread_world(substeps: u32, iterations: u32) -> World {
    World::new(WorldDesc {
        substeps,
        iterations,
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap()
}
