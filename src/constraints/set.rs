//! The one shape every constraint set has ([`ConstraintSet`]) and the public names of
//! the families that have a low-level API ([`FamilyKind`]). The step, force readback,
//! body removal and the Jacobi bookkeeping reach every set through this trait, via the
//! registry in [`super::ConstraintSets`] (ARCHITECTURE.md, "How to add a constraint
//! family").

use std::ops::Range;

use crate::math::Vec4;
use crate::particles::Particles;
use crate::pipeline::ParticlePass;
use crate::snapshot::codec::{Reader, Writer};
use crate::snapshot::LoadContext;
use crate::solver::classes::{ParticleClasses, Phase};
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
    /// The host's distance constraints (XPBD and PBD); force in N.
    Distance = 10,
    /// Shape-matching clusters (PBD stiffness); no force.
    ShapeCluster = 11,
    /// Attachments to hosts; force in N.
    Attachment = 12,
    /// The length links of bodies (rope links and bend links, cloth and soft-body
    /// edges), ids as in `BodyParts`; force in N.
    BodyLink = 13,
    /// Grabs (World::grab_particle): the id of a grab is the index of the particle it
    /// holds, so ids run over every particle and an id whose particle is not grabbed
    /// reads as removed. Removing a grab releases it; its rest length is 0 (move it
    /// with World::move_grab); compliance in m/N; force in N. Not in
    /// [`FamilyKind::ALL`] (grabs are no constraint set).
    Grab = 14,
}

impl FamilyKind {
    /// Every kind with a constraint set (all but [`FamilyKind::Grab`]), in the order of
    /// their values (`ALL[k as usize] == k`).
    pub const ALL: [FamilyKind; 14] = [
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
        FamilyKind::Distance,
        FamilyKind::ShapeCluster,
        FamilyKind::Attachment,
        FamilyKind::BodyLink,
    ];

    /// The kind with the largest value.
    pub const LAST: FamilyKind = FamilyKind::Grab;

    /// The kind whose value is `v`, if any.
    ///
    /// ```
    /// use sinew::FamilyKind;
    /// assert_eq!(FamilyKind::from_u32(3), Some(FamilyKind::TetVolume));
    /// assert_eq!(FamilyKind::from_u32(14), Some(FamilyKind::Grab));
    /// assert_eq!(FamilyKind::from_u32(FamilyKind::LAST as u32 + 1), None);
    /// ```
    pub fn from_u32(v: u32) -> Option<FamilyKind> {
        if v == FamilyKind::Grab as u32 {
            return Some(FamilyKind::Grab);
        }
        FamilyKind::ALL.get(v as usize).copied()
    }

    /// The family's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            FamilyKind::Tether => "tether",
            FamilyKind::DihedralBending => "dihedral bending",
            FamilyKind::IsometricBending => "isometric bending",
            FamilyKind::TetVolume => "tet volume",
            FamilyKind::PressureVolume => "pressure volume",
            FamilyKind::TriangleStrain => "triangle strain",
            FamilyKind::TetStrain => "tet strain",
            FamilyKind::UnilateralArea => "unilateral area",
            FamilyKind::UnilateralVolume => "unilateral volume",
            FamilyKind::RingArea => "ring area",
            FamilyKind::Distance => "distance",
            FamilyKind::ShapeCluster => "shape cluster",
            FamilyKind::Attachment => "attachment",
            FamilyKind::BodyLink => "body link",
            FamilyKind::Grab => "grab",
        }
    }
}

/// What one solver iteration hands every set (built from the step's
/// `crate::pipeline::StepContext`).
pub(crate) struct Iteration<'a> {
    /// 1 / h² for the substep length h (1/s²).
    pub inv_h2: f32,
    pub solver: Solver,
    /// Jacobi relaxation ω.
    pub relaxation: f32,
    /// The first iteration of a substep.
    pub first: bool,
    pub exec: &'a Executor,
    /// Constraint projections of the whole iteration (every set), from which the sets
    /// pick their thread count (`Executor::threads_for`).
    pub work: usize,
    /// The substep, for the sets whose sweeps skip the constraints that do not run in
    /// it (`solver::classes`).
    pub phase: Phase,
}

impl Iteration<'_> {
    /// `Some(ω)` for Jacobi, None for Gauss-Seidel.
    pub fn jacobi(&self) -> Option<f32> {
        (self.solver == Solver::Jacobi).then_some(self.relaxation)
    }
}

/// The projection of a set of constraints of one family: what the step sees (the
/// constraint stage, `crate::pipeline`). Editing and readback by id are
/// [`ConstraintEdit`], snapshots [`Persist`].
pub(crate) trait ConstraintSet: Send {
    /// Number of constraints (removed ones included).
    fn count(&self) -> usize;

    /// Start of a step, before its first substep: checks what a rebuild since the last
    /// step left unchecked (the Gauss-Seidel sweep, `kernels::sweep::Sweep::prepare`).
    /// Fails only when out of memory.
    fn begin_step(&mut self) -> crate::error::Result<()> {
        Ok(())
    }

    /// Start of substep `s` of `n`: resets λ (and, for attachments, interpolates the
    /// hosts).
    fn begin_substep(&mut self, s: u32, n: u32, solver: Solver);

    /// One iteration of the projection.
    fn project(&mut self, particles: &mut Particles, it: &Iteration<'_>);

    /// [`Self::project`] with the particle pass `pass` (over every particle) run before
    /// any constraint of the set touches a particle, inside the same sweep (each block
    /// of particles just before its interior constraints, so that the block is in cache
    /// and the pass costs no parallel region of its own): the kernel-level fusion the
    /// step pipeline asks for (`crate::pipeline::integrate`). Returns false, having
    /// done nothing, where the set cannot (then the caller runs the pass and
    /// [`Self::project`]).
    fn project_fused(
        &mut self,
        _particles: &mut Particles,
        _it: &Iteration<'_>,
        _pass: ParticlePass<'_>,
    ) -> bool {
        false
    }

    /// After the velocity update of a substep (plastic flow of shape matching).
    fn end_substep(&mut self, _particles: &Particles) {}

    /// End of a step.
    fn end_step(&mut self) {}

    /// Recomputes the Jacobi averaging weights after inverse masses changed.
    fn update_jacobi_weights(&mut self, _hot: &[Vec4]) {}

    /// Brings the set's run classes (`solver::classes`: which of its Gauss-Seidel
    /// slots run in which substep) up to date with the particles' `classes`, or drops
    /// them (None: every particle runs every substep). Called at the start of every
    /// step by the activity table; rebuilds only what changed. Sets without such a
    /// sweep project every constraint, a frozen particle being kinematic there.
    /// Fails only when out of memory.
    fn refresh_classes(
        &mut self,
        _classes: Option<&ParticleClasses<'_>>,
    ) -> crate::error::Result<()> {
        Ok(())
    }

    /// Largest number of colours in one phase of a Gauss-Seidel sweep (0 for sets
    /// projected sequentially).
    fn colour_count(&self) -> usize {
        0
    }
}

/// A set's constraints by id, as the world's API, breaking and winches see them: force
/// readback, removal, the rest values, compliances and stiffnesses. Ids are consecutive
/// from 0 and never shift; a removed constraint keeps its id, stops acting and reports
/// zero force.
pub(crate) trait ConstraintEdit: ConstraintSet {
    /// The family's public name, for the sets that have a low-level API.
    fn kind(&self) -> Option<FamilyKind> {
        None
    }

    /// |λ|/h² of constraint `id` in the last substep of length `h` (s), in the
    /// family's units.
    fn force(&self, id: usize, h: f32) -> f32;

    /// Removes constraints `ids` (they keep their ids, stop acting, report 0 force).
    fn remove(&mut self, ids: Range<u32>);

    /// Whether constraint `id` was removed.
    fn is_removed(&self, id: usize) -> bool;

    /// The editable rest value of constraint `id` (a length, angle, area or volume;
    /// see [`Self::rest_unit`]), None for families without one.
    fn rest_value(&self, _id: usize) -> Option<f32> {
        None
    }

    /// What the rest value is and its unit ("rest length (m)"), None for families
    /// without a scalar rest value.
    fn rest_unit(&self) -> Option<&'static str> {
        None
    }

    /// Checks `value` as the rest value of live constraint `id`; `what` names it.
    fn check_rest(&self, _id: usize, _value: f32, _what: &str) -> crate::error::Result<()> {
        Err(crate::error::Error::invalid(
            "the family has no scalar rest value",
        ))
    }

    /// Sets the rest value of live constraint `id` (checked by [`Self::check_rest`]).
    fn edit_rest(&mut self, _id: usize, _value: f32) {}

    /// The unit of the family's compliance ("m/N"), None for families without one.
    fn compliance_unit(&self) -> Option<&'static str> {
        None
    }

    /// Checks that live constraint `id` takes a compliance (a PBD distance constraint
    /// takes a stiffness instead).
    fn check_compliance_of(&self, _id: usize) -> crate::error::Result<()> {
        match self.compliance_unit() {
            Some(_) => Ok(()),
            None => Err(crate::error::Error::invalid(
                "the family has a stiffness, not a compliance",
            )),
        }
    }

    /// Sets the compliance (checked range) of live constraint `id`.
    fn edit_compliance(&mut self, _id: usize, _compliance: f32) {}

    /// Checks that live constraint `id` takes a PBD stiffness in [0, 1].
    fn check_stiffness_of(&self, _id: usize) -> crate::error::Result<()> {
        Err(crate::error::Error::invalid(
            "the family has a compliance, not a stiffness",
        ))
    }

    /// Sets the stiffness k in [0, 1] (per substep, corrected for `iterations`) of live
    /// constraint `id`.
    fn edit_stiffness(&mut self, _id: usize, _stiffness: f32, _iterations: u32) {}

    /// Where constraint `id` acts: its first particle and the mean position of its
    /// particles (m), for break events; None for families that report no force.
    fn locate(&self, _id: usize, _particles: &Particles) -> Option<(u32, crate::math::Vec3)> {
        None
    }
}

/// A set's snapshot (ARCHITECTURE.md, "Snapshots").
pub(crate) trait Persist {
    /// Snapshot: writes everything of the set that the next step or a readback uses
    /// (ARCHITECTURE.md, "Snapshots").
    fn save(&self, w: &mut Writer<'_>);

    /// Snapshot: replaces this set (a default one) by the one [`Self::save`] wrote,
    /// checking every index against the particles of `cx`.
    fn load(&mut self, r: &mut Reader<'_>, cx: &LoadContext<'_>) -> crate::error::Result<()>;
}

/// The first of `ids` and the mean position of the particles `ids` (m).
pub(crate) fn mean_position(ids: &[u32], particles: &Particles) -> (u32, crate::math::Vec3) {
    let first = ids[0];
    let base = particles.position(first as usize);
    let mut sum = crate::math::Vec3::ZERO;
    for &i in ids {
        sum += particles.position(i as usize) - base;
    }
    (first, base + sum / ids.len() as f32)
}

/// The per-iteration stiffness k' = 1 − (1 − k)^(1/n) that removes the fraction k of
/// the error in n iterations (Müller et al. 2007, "Position Based Dynamics", §3.3):
/// PBD distance constraints and shape-matching clusters.
pub(crate) fn pbd_per_iteration(stiffness: f32, iterations: u32) -> f32 {
    1.0 - (1.0 - stiffness).powf(1.0 / iterations as f32)
}

/// |λ|/h² of a multiplier λ after a substep of length `h` (s): the constraint's force
/// in the family's units; 0 before any step (h = 0). Saturates at `f32::MAX`
/// (`limits::saturate_force`).
pub(crate) fn force_of_lambda(lambda: f32, h: f32) -> f32 {
    if h > 0.0 {
        crate::limits::saturate_force(lambda.abs() / (h * h))
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
/// `len`, `reset_lambda`, `solve(particles, inv_h2)`, `force(id, h)`, `remove(id)`, and
/// for editing `is_removed(id)`, `rest_value(id)`, `check_rest_value(what, v)`,
/// `set_rest_value(id, v)`, `set_compliance(id, c)`, `particle_list(id)` and the consts
/// `REST_UNIT`, `COMPLIANCE_UNIT`.
macro_rules! single_lambda_set {
    ($set:ty, $kind:expr) => {
        impl $crate::constraints::set::ConstraintSet for $set {
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
        }

        impl $crate::constraints::set::ConstraintEdit for $set {
            fn kind(&self) -> Option<$crate::constraints::set::FamilyKind> {
                Some($kind)
            }

            fn force(&self, id: usize, h: f32) -> f32 {
                <$set>::force(self, id, h)
            }

            fn remove(&mut self, ids: std::ops::Range<u32>) {
                for id in ids {
                    <$set>::remove(self, id as usize);
                }
            }

            fn is_removed(&self, id: usize) -> bool {
                <$set>::is_removed(self, id)
            }

            fn rest_value(&self, id: usize) -> Option<f32> {
                Some(<$set>::rest_value(self, id))
            }

            fn rest_unit(&self) -> Option<&'static str> {
                Some(<$set>::REST_UNIT)
            }

            fn check_rest(&self, _id: usize, value: f32, what: &str) -> $crate::error::Result<()> {
                <$set>::check_rest_value(what, value)
            }

            fn edit_rest(&mut self, id: usize, value: f32) {
                <$set>::set_rest_value(self, id, value)
            }

            fn compliance_unit(&self) -> Option<&'static str> {
                Some(<$set>::COMPLIANCE_UNIT)
            }

            fn edit_compliance(&mut self, id: usize, compliance: f32) {
                <$set>::set_compliance(self, id, compliance)
            }

            fn locate(
                &self,
                id: usize,
                particles: &$crate::particles::Particles,
            ) -> Option<(u32, $crate::math::Vec3)> {
                Some($crate::constraints::set::mean_position(
                    <$set>::particle_list(self, id),
                    particles,
                ))
            }
        }

        impl $crate::constraints::set::Persist for $set {
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
