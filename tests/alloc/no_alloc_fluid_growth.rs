//! The fluid solver's buffers are sized by the calls that grow what it works on
//! (`World::reserve_fluid_room`), not by the next `step`: the first step after a
//! first emission, after adding a body, after giving particles a radius
//! (new coupled solids), or after switching a body's coupling on, does not allocate.
//! An emitter's first particles, which appear inside `step`, find the room sized for
//! the fluid's capacity when it was added. (Adding many particles, with
//! `add_particles` or a fluid's reservation, leaves other buffers of the step to grow
//! in the next step, fluid or not.)
//!
//! The test holds `counting_alloc::exclusive()`, so no other test counts meanwhile.

use sinew::{EmitterDesc, FluidDesc, RopeDesc, Vec3, World, WorldDesc};

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations};

const DT: f32 = 1.0 / 60.0;

fn step_allocations(w: &mut World) -> usize {
    allocations_in(|| w.step(DT).unwrap()).0
}

#[test]
fn steps_after_the_world_grows_do_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    assert_counter_sees_allocations();
    let mut w = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let rope = w
        .add_rope(&RopeDesc {
            start: Vec3::new(-0.5, 0.3, 0.0),
            end: Vec3::new(0.5, 0.3, 0.0),
            segments: 20,
            ..RopeDesc::default()
        })
        .unwrap();
    let water = w
        .add_fluid(&FluidDesc {
            capacity: 600,
            ..FluidDesc::default()
        })
        .unwrap();
    // The world's first steps size everything else (contacts, the step's own buffers).
    for _ in 0..3 {
        w.step(DT).unwrap();
    }
    let s = 0.05;
    let block: Vec<Vec3> = (0..200)
        .map(|i| Vec3::new((i % 10) as f32, (i / 100) as f32, ((i / 10) % 10) as f32) * s)
        .collect();
    let mut log = Vec::new();
    w.emit_fluid(water, &block, None).unwrap();
    log.push(("first emission", step_allocations(&mut w)));
    let (first, count) = w.body_particle_range(rope).unwrap();
    w.set_particle_radii(first, &vec![0.02; count as usize])
        .unwrap();
    log.push(("rope radii (coupled solids)", step_allocations(&mut w)));
    w.set_body_fluid_coupling(rope, false).unwrap();
    w.step(DT).unwrap();
    w.set_body_fluid_coupling(rope, true).unwrap();
    log.push(("coupling back on", step_allocations(&mut w)));
    let oil = w
        .add_fluid(&FluidDesc {
            capacity: 300,
            rest_density: 800.0,
            ..FluidDesc::default()
        })
        .unwrap();
    // Its 300 particles grow other per-particle buffers of the step past their
    // capacity (as adding particles does, fluid or not): one step for those.
    w.step(DT).unwrap();
    w.emit_fluid(oil, &block[..100], None).unwrap();
    log.push(("its first emission", step_allocations(&mut w)));
    let late = w
        .add_rope(&RopeDesc {
            start: Vec3::new(-0.5, 0.6, 0.0),
            end: Vec3::new(0.5, 0.6, 0.0),
            segments: 30,
            ..RopeDesc::default()
        })
        .unwrap();
    let (first, count) = w.body_particle_range(late).unwrap();
    w.set_particle_radii(first, &vec![0.02; count as usize])
        .unwrap();
    log.push(("a rope with a radius", step_allocations(&mut w)));
    // A world whose only fluid is still empty when its emitter starts.
    let mut tap = World::new(WorldDesc {
        threads: 1,
        ..WorldDesc::default()
    })
    .unwrap();
    let hose = tap
        .add_fluid(&FluidDesc {
            capacity: 200,
            ..FluidDesc::default()
        })
        .unwrap();
    for _ in 0..3 {
        tap.step(DT).unwrap();
    }
    tap.add_emitter(
        hose,
        &EmitterDesc {
            position: Vec3::new(0.0, 1.0, 0.0),
            ..EmitterDesc::default()
        },
    )
    .unwrap();
    log.push(("an emitter's first particles", step_allocations(&mut tap)));
    assert!(
        tap.fluid_stats(hose).unwrap().count > 0,
        "the emitter emitted"
    );
    let bad: Vec<_> = log.iter().filter(|(_, n)| *n > 0).collect();
    assert!(
        bad.is_empty(),
        "steps that allocated: {bad:?} (all: {log:?})"
    );
}
