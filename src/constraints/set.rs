//! The one shape every constraint set has ([`ConstraintSet`]) and the public names of
//! the families that have a low-level API ([`FamilyKind`]). The step, force readback,
//! body removal and the Jacobi bookkeeping reach every set through this trait, via the
//! registry in [`super::ConstraintSets`] (ARCHITECTURE.md, "How to add a constraint
//! family").

use std::ops::Range;

use crate::math::Vec4;
use crate::particles::Particles;
use crate::snapshot::codec::{Reader, Writer};
use crate::snapshot::LoadContext;
use crate::solver::parallel::Executor;
use crate::solver::Solver;

/// The families with a low-level API, for counts and force readback. The value of each
/// variant is its `SinewFamily` value in the C ABI.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FamilyKind {
    /// Unilateral max distance; force in N.
    Tether = 0,
    /// Dihedral-angle bending; torque in N·m.
    DihedralBending = 1,
    /// Isometric bending; |λ|/h² in N·m.
    IsometricBending = 2,
    /// Tetrahedron volume; |λ|/h² in N·m (J per unit volume ratio).
    TetVolume = 3,
    /// Closed-surface volume; pressure in Pa.
    PressureVolume = 4,
    /// Triangle strain components; |λ|/h² in N·m.
    TriangleStrain = 5,
    /// Tet strain components; |λ|/h² in N·m.
    TetStrain = 6,
    /// Unilateral XY area; N/m.
    UnilateralArea = 7,
    /// Unilateral tet volume; Pa.
    UnilateralVolume = 8,
    /// Ring area; N/m.
    RingArea = 9,
}

impl FamilyKind {
    /// Every kind, in the order of their values (`ALL[k as usize] == k`).
    pub const ALL: [FamilyKind; 10] = [
        FamilyKind::Tether,
        FamilyKind::DihedralBending,
        FamilyKind::IsometricBending,
        FamilyKind::TetVolume,
        FamilyKind::PressureVolume,
        FamilyKind::TriangleStrain,
        FamilyKind::TetStrain,
        FamilyKind::UnilateralArea,
        FamilyKind::UnilateralVolume,
        FamilyKind::RingArea,
    ];

    /// The kind whose value is `v`, if any.
    ///
    /// ```
    /// use sinew::FamilyKind;
    /// assert_eq!(FamilyKind::from_u32(3), Some(FamilyKind::TetVolume));
    /// assert_eq!(FamilyKind::from_u32(FamilyKind::ALL.len() as u32), None);
    /// ```
    pub fn from_u32(v: u32) -> Option<FamilyKind> {
        FamilyKind::ALL.get(v as usize).copied()
    }
}

/// What one solver iteration hands every set.
pub(crate) struct Iteration<'a> {
    /// 1 / h² for the substep length h (1/s²).
    pub inv_h2: f32,
    pub solver: Solver,
    /// Jacobi relaxation ω.
    pub relaxation: f32,
    /// The first iteration of a substep.
    pub first: bool,
    pub exec: &'a Executor,
}

impl Iteration<'_> {
    /// `Some(ω)` for Jacobi, None for Gauss-Seidel.
    pub fn jacobi(&self) -> Option<f32> {
        (self.solver == Solver::Jacobi).then_some(self.relaxation)
    }
}

/// A set of constraints of one family, as the step and the world see it. Ids are
/// consecutive from 0 and never shift; a removed constraint keeps its id, stops acting
/// and reports zero force.
pub(crate) trait ConstraintSet: Send {
    /// The family's public name, for the sets that have a low-level API.
    fn kind(&self) -> Option<FamilyKind> {
        None
    }

    /// Number of constraints (removed ones included).
    fn count(&self) -> usize;

    /// Start of substep `s` of `n`: resets λ (and, for attachments, interpolates the
    /// hosts).
    fn begin_substep(&mut self, s: u32, n: u32, solver: Solver);

    /// One iteration of the projection.
    fn project(&mut self, particles: &mut Particles, it: &Iteration<'_>);

    /// After the velocity update of a substep (plastic flow of shape matching).
    fn end_substep(&mut self, _particles: &Particles) {}

    /// End of a step.
    fn end_step(&mut self) {}

    /// Recomputes the Jacobi averaging weights after inverse masses changed.
    fn update_jacobi_weights(&mut self, _hot: &[Vec4]) {}

    /// |λ|/h² of constraint `id` in the last substep of length `h` (s), in the
    /// family's units.
    fn force(&self, id: usize, h: f32) -> f32;

    /// Removes constraints `ids` (they keep their ids, stop acting, report 0 force).
    fn remove(&mut self, ids: Range<u32>);

    /// Largest number of colours in one phase of a Gauss-Seidel sweep (0 for sets
    /// projected sequentially).
    fn colour_count(&self) -> usize {
        0
    }

    /// Snapshot: writes everything of the set that the next step or a readback uses
    /// (ARCHITECTURE.md, "Snapshots").
    fn save(&self, w: &mut Writer<'_>);

    /// Snapshot: replaces this set (a default one) by the one [`Self::save`] wrote,
    /// checking every index against the particles of `cx`.
    fn load(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> crate::error::Result<()>;
}

/// |λ|/h² of a multiplier λ after a substep of length `h` (s): the constraint's force
/// in the family's units; 0 before any step (h = 0).
pub(crate) fn force_of_lambda(lambda: f32, h: f32) -> f32 {
    if h > 0.0 {
        lambda.abs() / (h * h)
    } else {
        0.0
    }
}

/// Removes constraints `ids` from slot-ordered storage (`slot_of`: id → slot): each
/// one's parameter (compliance or softness) becomes the set's `removed` marker and its
/// λ zero, so it stops acting and reports 0 force while keeping its id.
pub(crate) fn remove_slots(
    ids: Range<u32>,
    slot_of: &[u32],
    parameter: &mut [f32],
    removed: f32,
    lambda: &mut [f32],
) {
    for id in ids {
        let s = slot_of[id as usize] as usize;
        parameter[s] = removed;
        lambda[s] = 0.0;
    }
}

/// Implements [`ConstraintSet`] for a family with one λ per element, projected
/// sequentially (Gauss-Seidel only): ring areas and pressure volumes. The type provides
/// `len`, `reset_lambda`, `solve(particles, inv_h2)`, `force(id, h)` and `remove(id)`.
macro_rules! single_lambda_set {
    ($set:ty, $kind:expr) => {
        impl $crate::constraints::set::ConstraintSet for $set {
            fn kind(&self) -> Option<$crate::constraints::set::FamilyKind> {
                Some($kind)
            }

            fn count(&self) -> usize {
                self.len()
            }

            fn begin_substep(&mut self, _s: u32, _n: u32, _solver: $crate::solver::Solver) {
                self.reset_lambda();
            }

            fn project(
                &mut self,
                particles: &mut $crate::particles::Particles,
                it: &$crate::constraints::set::Iteration<'_>,
            ) {
                self.solve(particles, it.inv_h2);
            }

            fn force(&self, id: usize, h: f32) -> f32 {
                <$set>::force(self, id, h)
            }

            fn remove(&mut self, ids: std::ops::Range<u32>) {
                for id in ids {
                    <$set>::remove(self, id as usize);
                }
            }

            fn save(&self, w: &mut $crate::snapshot::codec::Writer<'_>) {
                <$set>::save_snapshot(self, w);
            }

            fn load(
                &mut self,
                r: &mut $crate::snapshot::codec::Reader<'_>,
                cx: &$crate::snapshot::LoadContext<'_>,
            ) -> $crate::error::Result<()> {
                *self = <$set>::load_snapshot(r, cx)?;
                Ok(())
            }
        }
    };
}
pub(crate) use single_lambda_set;
