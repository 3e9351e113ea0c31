//! A character-cloth frame never allocates: a counting global allocator watches the heap
//! while the host writes skinned targets, the root and the wind, and the world steps a
//! skinned cloth with aerodynamics and a rope with drag (the tests/alloc/no_alloc.rs scheme).
//!
//! The test holds `counting_alloc::exclusive()`, so no other test counts meanwhile.

use sinew::scenes::{self, FRAME_DT};
use sinew::WorldDesc;

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations};

/// Wind, aerodynamics and skinned targets add nothing to the heap either: a skinned
/// cloth with drag and lift in turbulent wind and a zone, and a rope with drag, stepped
/// with the host's per-frame calls (targets, root, wind) inside the watched window.
#[test]
fn character_cloth_frame_does_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    use sinew::{
        ClothDesc, ClothGridDesc, Quat, RopeDesc, SkinWeights, Transform, Vec3, WindDesc,
        WindZoneDesc, World,
    };
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..scenes::default_desc()
    })
    .unwrap();
    let grid = ClothGridDesc {
        segments_u: 10,
        segments_v: 10,
        ..ClothGridDesc::default()
    };
    let cloth = w.add_cloth_grid(&ClothDesc::default(), &grid).unwrap();
    let rope = w.add_rope(&RopeDesc::default()).unwrap();
    w.set_body_aerodynamics(cloth, 1.2, 0.3).unwrap();
    w.set_body_aerodynamics(rope, 1.1, 0.0).unwrap();
    w.add_wind_zone(&WindZoneDesc::default()).unwrap();
    let (first, count) = w.body_particle_range(cloth).unwrap();
    let mut rest = vec![Vec3::ZERO; count as usize];
    w.read_positions(first, count, |k, p| rest[k] = p).unwrap();
    let weights = vec![
        SkinWeights {
            max_distance: 0.2,
            backstop_radius: 0.3,
            drive_compliance: 0.01,
            ..SkinWeights::default()
        };
        count as usize
    ];
    w.set_skin_weights(cloth, &weights).unwrap();
    let normals = vec![Vec3::Y; count as usize];
    let mut targets = rest.clone();
    let mut frame = |w: &mut World, k: u32| {
        let q = Quat::from_rotation_y(0.1 * k as f32);
        for (t, r) in targets.iter_mut().zip(&rest) {
            *t = q * *r;
        }
        w.set_skin_targets(cloth, &targets, Some(&normals)).unwrap();
        w.set_skin_root(cloth, Transform::checked(Vec3::ZERO, q).unwrap(), 0.3, 0.3)
            .unwrap();
        w.set_wind(&WindDesc {
            velocity: Vec3::new(3.0, 0.0, 0.1 * k as f32),
            turbulence: 1.0,
            ..WindDesc::default()
        })
        .unwrap();
        w.step(FRAME_DT).unwrap();
    };
    frame(&mut w, 0);
    let (during, ()) = allocations_in(|| {
        for k in 1..6 {
            frame(&mut w, k);
        }
    });
    assert_eq!(
        during, 0,
        "{during} allocations in 5 character-cloth frames"
    );
    assert_counter_sees_allocations();
}
