//! `World::step` never allocates with fluids: the dam break (one fluid, the eight-lane
//! loops) and a pool with a coupled body, vorticity and cohesion (the general loops),
//! on the calling thread, once the first step has sized the solver's buffers.
//!
//! The test holds `counting_alloc::exclusive()`, so no other test counts meanwhile.

use sinew::scenes::{self, FRAME_DT};
use sinew::{FluidDesc, Vec3, World, WorldDesc};

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations};

fn pool() -> World {
    let mut w = World::new(WorldDesc {
        threads: 1,
        substeps: 2,
        iterations: 2,
        ..WorldDesc::default()
    })
    .unwrap();
    let s = 0.05;
    let f = w
        .add_fluid(&FluidDesc {
            spacing: s,
            capacity: 1000,
            vorticity: 0.1,
            cohesion: 0.05,
            adhesion: 0.05,
            ..FluidDesc::default()
        })
        .unwrap();
    let p: Vec<Vec3> = (0..1000)
        .map(|i| Vec3::new((i % 10) as f32, (i / 100) as f32, ((i / 10) % 10) as f32) * s)
        .collect();
    w.emit_fluid(f, &p, None).unwrap();
    let (v, t) = scenes::tet_cube(2, 2.0 * s);
    let v: Vec<Vec3> = v.iter().map(|q| *q + Vec3::new(0.15, 0.6, 0.15)).collect();
    let body = w
        .add_tet_body(&sinew::TetBodyDesc::default(), &v, &t, None)
        .unwrap();
    let (first, count) = w.body_particle_range(body).unwrap();
    w.set_particle_radii(first, &vec![0.5 * s; count as usize])
        .unwrap();
    w
}

#[test]
fn fluid_step_does_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    let dam = scenes::dam_break(12, scenes::dam_break_desc(1))
        .unwrap()
        .0
        .world;
    for mut w in [dam, pool()] {
        w.step(FRAME_DT).unwrap(); // the first step sizes every buffer
        let (during, ()) = allocations_in(|| {
            for _ in 0..10 {
                w.step(FRAME_DT).unwrap();
            }
        });
        assert_eq!(during, 0, "{during} allocations in 10 steps");
    }
    assert_counter_sees_allocations();
}
