//! Constraint families. Each family stores its own struct-of-arrays set, sorted into
//! colours at build time, and knows how to project itself.

pub mod attachment;
pub mod bending;
pub mod distance;
mod distance_kernel;
pub mod link;
pub mod nary;
pub mod ring;
pub mod shape;
pub mod strain;
pub mod unilateral;
pub mod volume;

pub use distance::DistanceConstraints;

use crate::particles::Particles;
use crate::solver::parallel::Executor;
use crate::solver::Solver;
use attachment::Attachments;
use bending::{Dihedral, Isometric};
use link::{Link, Tether};
use nary::NarySet;
use ring::RingAreas;
use shape::ShapeClusters;
use strain::{TetStrain, TriangleStrain};
use unilateral::{UnilateralArea, UnilateralVolume};
use volume::{PressureConstraints, TetVolume};

/// Every constraint family except distance, plus attachments and per-body damping:
/// what the solver projects after the distance constraints in each iteration.
#[derive(Default)]
pub struct ConstraintSets {
    /// Bilateral length constraints of bodies (m/N).
    pub link: NarySet<Link, 2>,
    /// Unilateral max-distance tethers (m/N).
    pub tether: NarySet<Tether, 2>,
    /// Dihedral-angle bending (rad/(N·m)).
    pub dihedral: NarySet<Dihedral, 4>,
    /// Isometric bending (1/(N·m)).
    pub isometric: NarySet<Isometric, 4>,
    /// Tetrahedron volume (1/(N·m)).
    pub tet_volume: NarySet<TetVolume, 4>,
    /// Closed-surface volume / pressure (m⁵/N).
    pub pressure: PressureConstraints,
    /// Triangle Green-strain components (1/(N·m)).
    pub triangle_strain: NarySet<TriangleStrain, 3>,
    /// Tet Green-strain components (1/(N·m)).
    pub tet_strain: NarySet<TetStrain, 4>,
    /// Signed XY area ≥ minimum (m³/N).
    pub unilateral_area: NarySet<UnilateralArea, 3>,
    /// Signed tet volume ≥ minimum (m⁵/N).
    pub unilateral_volume: NarySet<UnilateralVolume, 4>,
    /// Enclosed areas of closed rings in the XY plane (m³/N).
    pub rings: RingAreas,
    /// Shape-matching clusters (PBD stiffness).
    pub shapes: ShapeClusters,
    /// 2D worlds: all motion in the plane z = this value.
    pub(crate) planar: Option<f32>,
    /// Particles following host transforms.
    pub attachments: Attachments,
    /// Extra velocity damping (1/s) of particle ranges (bodies).
    pub(crate) damped: Vec<(std::ops::Range<u32>, f32)>,
}

impl ConstraintSets {
    /// Start of substep `s` of `n`: resets every λ, interpolates attachment hosts.
    pub(crate) fn begin_substep(&mut self, s: u32, n: u32) {
        self.link.reset_lambda();
        self.tether.reset_lambda();
        self.dihedral.reset_lambda();
        self.isometric.reset_lambda();
        self.tet_volume.reset_lambda();
        self.pressure.reset_lambda();
        self.triangle_strain.reset_lambda();
        self.tet_strain.reset_lambda();
        self.unilateral_area.reset_lambda();
        self.unilateral_volume.reset_lambda();
        self.rings.reset_lambda();
        self.attachments.begin_substep(s, n);
    }

    /// One iteration over every family (after the distance constraints).
    pub(crate) fn project(
        &mut self,
        particles: &mut Particles,
        inv_h2: f32,
        solver: Solver,
        relaxation: f32,
        exec: &Executor,
    ) {
        let jacobi = (solver == Solver::Jacobi).then_some(relaxation);
        self.link.solve(particles, inv_h2, jacobi, exec);
        self.dihedral.solve(particles, inv_h2, jacobi, exec);
        self.isometric.solve(particles, inv_h2, jacobi, exec);
        self.tet_volume.solve(particles, inv_h2, jacobi, exec);
        self.triangle_strain.solve(particles, inv_h2, jacobi, exec);
        self.tet_strain.solve(particles, inv_h2, jacobi, exec);
        self.pressure.solve(particles, inv_h2);
        self.rings.solve(particles, inv_h2);
        self.shapes.solve(particles);
        self.unilateral_area.solve(particles, inv_h2, jacobi, exec);
        self.unilateral_volume
            .solve(particles, inv_h2, jacobi, exec);
        self.tether.solve(particles, inv_h2, jacobi, exec);
        self.attachments.solve(particles, inv_h2);
    }

    /// After the velocity update of a substep of length `h` (s): per-body damping,
    /// plastic flow of shape-matching clusters, the 2D plane.
    pub(crate) fn end_substep(&mut self, particles: &mut Particles, h: f32) {
        for (range, damping) in &self.damped {
            let f = (-damping * h).exp();
            for v in &mut particles.velocity[range.start as usize..range.end as usize] {
                *v *= f;
            }
        }
        self.shapes.plastic_flow(particles);
        if let Some(z) = self.planar {
            ring::flatten(particles, z);
        }
    }

    /// End of a step.
    pub(crate) fn end_step(&mut self) {
        self.attachments.end_step();
    }

    /// Recomputes Jacobi weights after inverse masses changed.
    pub(crate) fn update_jacobi_weights(&mut self, particles: &Particles) {
        let hot = &particles.hot;
        self.link.update_jacobi_weights(hot);
        self.tether.update_jacobi_weights(hot);
        self.dihedral.update_jacobi_weights(hot);
        self.isometric.update_jacobi_weights(hot);
        self.tet_volume.update_jacobi_weights(hot);
        self.triangle_strain.update_jacobi_weights(hot);
        self.tet_strain.update_jacobi_weights(hot);
        self.unilateral_area.update_jacobi_weights(hot);
        self.unilateral_volume.update_jacobi_weights(hot);
    }
}
