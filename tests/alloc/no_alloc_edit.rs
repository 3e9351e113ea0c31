//! Edits between steps may allocate, `World::step` still never does: after in-place
//! edits (removals, rest values, compliance, rest scale, mass, break forces, grabs) and with
//! ropes breaking during the counted steps (events queued in reserved room), a
//! counting global allocator sees no allocation in the step.
//!
//! The test holds `counting_alloc::exclusive()`, so no other test counts meanwhile.

use sinew::{FamilyKind, RopeDesc, Solver, Vec3, World, WorldDesc};

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations};

#[test]
fn step_after_edits_and_breaks_does_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let mut w = World::new(WorldDesc {
            threads: 1,
            solver,
            ..WorldDesc::default()
        })
        .unwrap();
        let mut ropes = Vec::new();
        for i in 0..8 {
            let x = i as f32 * 0.5;
            ropes.push(
                w.add_rope(&RopeDesc {
                    start: Vec3::new(x, 0.0, 0.0),
                    end: Vec3::new(x + 1.0, 0.0, 0.0),
                    segments: 30,
                    tethers: i % 2 == 0,
                    ..RopeDesc::default()
                })
                .unwrap(),
            );
        }
        w.add_particles(
            &[Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, 1.0, 0.0)],
            Some(&[0.0, 1.0]),
        )
        .unwrap();
        w.add_distance_constraints(&[[240 + 8, 240 + 9]], None, 0.0)
            .unwrap();
        w.step(1.0 / 60.0).unwrap();
        // Edits (they may allocate).
        w.set_constraint_rest(FamilyKind::Distance, 0, &[0.8])
            .unwrap();
        w.set_constraint_compliance(FamilyKind::Tether, 0, 4, 1e-4)
            .unwrap();
        w.remove_constraints(FamilyKind::Tether, 5, 3).unwrap();
        // Grabs through the generic edits (ids are particle indices).
        w.grab_particle(10, Vec3::new(0.3, 0.1, 0.0), 0.0).unwrap();
        w.grab_particle(240 + 9, Vec3::new(0.0, 1.2, 0.0), 0.0)
            .unwrap();
        w.set_constraint_compliance(FamilyKind::Grab, 240 + 9, 1, 1e-3)
            .unwrap();
        w.remove_constraints(FamilyKind::Grab, 10, 1).unwrap();
        w.set_body_rest_scale(ropes[1], 0.9).unwrap();
        w.set_body_mass(ropes[2], 3.0).unwrap();
        w.cut_rope(ropes[3], 12).unwrap();
        // Ropes 4..8 break under their own swing (0.5 N is below their tension).
        for &r in &ropes[4..] {
            w.set_body_break_force(r, 0.5).unwrap();
        }
        w.set_constraint_break_force(FamilyKind::Distance, 0, 1, 1000.0)
            .unwrap();
        let events_before = w.break_event_count();
        let (during, ()) = allocations_in(|| {
            for _ in 0..10 {
                w.step(1.0 / 60.0).unwrap();
            }
        });
        assert_eq!(during, 0, "{solver:?}: {during} allocations in 10 steps");
        assert_counter_sees_allocations();
        assert!(
            w.break_event_count() > events_before,
            "{solver:?}: no rope broke during the counted steps"
        );
    }
}
