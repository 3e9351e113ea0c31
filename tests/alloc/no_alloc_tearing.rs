//! Tearing never allocates in the step: the spares, the room for copied edges and the
//! scratch are reserved when tearing is turned on. A cloth pulled from both sides
//! tears during the counted steps (its topology version rises), and a counting global
//! allocator sees no allocation in any of them, under either solver.
//!
//! The test holds `counting_alloc::exclusive()`, so no other test counts meanwhile.

use sinew::{ClothDesc, ClothGridDesc, FamilyKind, Solver, Vec3, World, WorldDesc};

use crate::counting_alloc::{allocations_in, assert_counter_sees_allocations};

#[test]
fn steps_that_tear_do_not_allocate() {
    let _alone = crate::counting_alloc::exclusive(); // no other test counts meanwhile
    const NU: u32 = 16;
    const NV: u32 = 8;
    for solver in [Solver::GaussSeidel, Solver::Jacobi] {
        let mut w = World::new(WorldDesc {
            gravity: Vec3::ZERO,
            threads: 1,
            solver,
            ..WorldDesc::default()
        })
        .unwrap();
        let cloth = w
            .add_cloth_grid(
                &ClothDesc::default(),
                &ClothGridDesc {
                    v: Vec3::new(0.0, 0.0, 0.5),
                    segments_u: NU,
                    segments_v: NV,
                    ..ClothGridDesc::default()
                },
            )
            .unwrap();
        let (first, _) = w.body_particle_range(cloth).unwrap();
        let id = |i: u32, j: u32| first + j * (NU + 1) + i;
        for j in 0..=NV {
            for i in [0, NU] {
                w.set_inverse_masses(id(i, j), &[0.0]).unwrap();
            }
        }
        // A soft seam between columns 8 and 9 (as in tests/physics/tearing.rs).
        let parts = w.body(cloth).unwrap().parts.clone();
        for c in parts.stretch.start..parts.shear.end {
            let [a, b] = w.constraint_sets().link.pair(c as usize);
            let col = |p: u32| (p - first) % (NU + 1);
            if col(a).min(col(b)) == 8 && col(a).max(col(b)) == 9 {
                w.set_constraint_compliance(FamilyKind::BodyLink, c, 1, 1e-3)
                    .unwrap();
            }
        }
        w.set_cloth_tear_threshold(cloth, 1.3, 0).unwrap();
        w.step(1.0 / 60.0).unwrap();
        let mut during = 0;
        for step in 2..=40 {
            let t = step as f32 / 60.0;
            for j in 0..=NV {
                let z = 0.5 * j as f32 / NV as f32;
                w.write_positions(id(0, j), &[Vec3::new(-0.25 * t, 0.0, z)])
                    .unwrap();
                w.write_positions(id(NU, j), &[Vec3::new(1.0 + 0.25 * t, 0.0, z)])
                    .unwrap();
            }
            let (n, ()) = allocations_in(|| w.step(1.0 / 60.0).unwrap());
            during += n;
        }
        assert_eq!(during, 0, "{solver:?}: {during} allocations in the steps");
        assert_counter_sees_allocations();
        let version = w.cloth_topology_version(cloth).unwrap();
        assert!(version > 0, "{solver:?}: the cloth did not tear");
    }
}
