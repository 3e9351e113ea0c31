//! Constraint families. Each family stores its own struct-of-arrays set, sorted into
//! colours at build time, and knows how to project itself (`ConstraintSet`). The
//! registry (the `constraint_sets!` list that declares [`ConstraintSets`]) is the one
//! place that names every set and fixes the projection order; the step, force readback, removal and
//! the Jacobi bookkeeping loop over it (ARCHITECTURE.md).

pub mod attachment;
pub mod bending;
pub mod distance;

pub mod link;
pub mod nary;
pub mod ring;
pub(crate) mod set;
pub mod shape_matching;
pub mod strain;
pub mod tearing;
pub mod unilateral;
pub mod volume;

pub use distance::DistanceConstraints;
pub use set::FamilyKind;
pub(crate) use set::{ConstraintEdit, ConstraintSet, Iteration, Persist};

use std::ops::Range;

use crate::particles::Particles;
use crate::pipeline::{ParticlePass, Stage, StepContext};
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;
use attachment::Attachments;
use bending::{Dihedral, Isometric};
use link::Tether;
use nary::NarySet;
use ring::RingAreas;
use shape_matching::ShapeClusters;
use strain::{TetStrain, TriangleStrain};
use unilateral::{UnilateralArea, UnilateralVolume};
use volume::{PressureConstraints, TetVolume};

/// Declares [`ConstraintSets`] and its registry from ONE list: each line is a set (its
/// doc, field name and type), and the order of the lines is the projection order (the
/// order of one solver iteration). The list comes in two parts: the step pipeline
/// projects the fluids' density constraints between them (`world::step`), so
/// [`FLUID_SLOT`] is the number of sets in the first part. `all()` and `all_mut()`
/// return the sets in that order; the step, force readback, removal and the Jacobi
/// bookkeeping loop over them.
macro_rules! constraint_sets {
    (
        $( $(#[$doc:meta])* $field:ident: $ty:ty, )+
        ; fluids ;
        $( $(#[$doc2:meta])* $field2:ident: $ty2:ty, )+
    ) => {
        /// Every constraint set (distance and every other family) and attachments:
        /// what the solver projects in each iteration. The fields are in projection
        /// order.
        #[derive(Default)]
        pub struct ConstraintSets {
            $( $(#[$doc])* pub $field: $ty, )+
            $( $(#[$doc2])* pub $field2: $ty2, )+
        }

        /// Number of sets in the registry.
        pub(crate) const SET_COUNT: usize = [$(stringify!($field)),+, $(stringify!($field2)),+].len();

        /// Number of sets projected before the fluids in one iteration.
        pub(crate) const FLUID_SLOT: usize = [$(stringify!($field)),+].len();

        /// The sets' field names, in projection order (the profiler's stage names).
        #[cfg_attr(not(test), allow(dead_code))]
        pub(crate) const SET_NAMES: [&str; SET_COUNT] =
            [$(stringify!($field)),+, $(stringify!($field2)),+];

        impl ConstraintSets {
            /// Every set, in projection order.
            pub(crate) fn all(&self) -> [&dyn ConstraintSet; SET_COUNT] {
                [$(&self.$field),+, $(&self.$field2),+]
            }

            /// Every set, in projection order, mutable.
            pub(crate) fn all_mut(&mut self) -> [&mut dyn ConstraintSet; SET_COUNT] {
                [$(&mut self.$field),+, $(&mut self.$field2),+]
            }

            /// Every set by id (editing and readback), in projection order.
            pub(crate) fn all_edit(&self) -> [&dyn ConstraintEdit; SET_COUNT] {
                [$(&self.$field),+, $(&self.$field2),+]
            }

            /// Every set by id (editing and readback), in projection order, mutable.
            pub(crate) fn all_edit_mut(&mut self) -> [&mut dyn ConstraintEdit; SET_COUNT] {
                [$(&mut self.$field),+, $(&mut self.$field2),+]
            }

            /// Every set's snapshot, in projection order.
            fn all_persist(&self) -> [&dyn Persist; SET_COUNT] {
                [$(&self.$field),+, $(&self.$field2),+]
            }

            /// Every set's snapshot, in projection order, mutable.
            fn all_persist_mut(&mut self) -> [&mut dyn Persist; SET_COUNT] {
                [$(&mut self.$field),+, $(&mut self.$field2),+]
            }
        }
    };
}

// THE registry. Adding a family is one line here (at its place in the projection
// order); changing the order changes every trajectory.
constraint_sets! {
    /// Distance constraints added by the host (m/N, or PBD stiffness).
    distance: DistanceConstraints,
    /// Bilateral length links of bodies (m/N), on the distance kernel.
    link: DistanceConstraints,
    /// Dihedral-angle bending (rad/(N·m)).
    dihedral: NarySet<Dihedral, 4>,
    /// Isometric bending (1/(N·m)).
    isometric: NarySet<Isometric, 4>,
    /// Tetrahedron volume (1/(N·m)).
    tet_volume: NarySet<TetVolume, 4>,
    /// Triangle Green-strain components (1/(N·m)).
    triangle_strain: NarySet<TriangleStrain, 3>,
    /// Tet Green-strain components (1/(N·m)).
    tet_strain: NarySet<TetStrain, 4>,
    /// Closed-surface volume / pressure (m⁵/N).
    pressure: PressureConstraints,
    /// Enclosed areas of closed rings in the XY plane (m³/N).
    rings: RingAreas,
    /// Shape-matching clusters (PBD stiffness).
    shapes: ShapeClusters,
    /// Signed XY area ≥ minimum (m³/N).
    unilateral_area: NarySet<UnilateralArea, 3>,
    /// Signed tet volume ≥ minimum (m⁵/N).
    unilateral_volume: NarySet<UnilateralVolume, 4>,
    ; fluids ;
    /// Unilateral max-distance tethers (m/N).
    tether: NarySet<Tether, 2>,
    /// Particles following host transforms.
    attachments: Attachments,
    /// Cloths whose tearing is on: their edges and hinges, projected serially.
    torn: tearing::TornCloths,
}

impl ConstraintSets {
    /// Largest number of colours in one phase of a Gauss-Seidel sweep, over every set
    /// (the number of sequential parallel passes a sweep of one set takes at most).
    pub fn colour_count(&self) -> usize {
        self.all()
            .iter()
            .map(|s| s.colour_count())
            .max()
            .unwrap_or(0)
    }

    /// The set of a family with a low-level API (the host's distance constraints for
    /// [`FamilyKind::Distance`]: the body links share their type but not their kind).
    pub(crate) fn family(&self, kind: FamilyKind) -> &dyn ConstraintEdit {
        match kind {
            FamilyKind::Distance => return &self.distance,
            FamilyKind::BodyLink => return &self.link,
            _ => {}
        }
        self.all_edit()
            .into_iter()
            .find(|s| s.kind() == Some(kind))
            .expect("every FamilyKind has a set in the registry")
    }

    /// The set of a family, mutable (as [`Self::family`]).
    pub(crate) fn family_mut(&mut self, kind: FamilyKind) -> &mut dyn ConstraintEdit {
        match kind {
            FamilyKind::Distance => return &mut self.distance,
            FamilyKind::BodyLink => return &mut self.link,
            _ => {}
        }
        self.all_edit_mut()
            .into_iter()
            .find(|s| s.kind() == Some(kind))
            .expect("every FamilyKind has a set in the registry")
    }

    /// Constraint projections of one iteration over every set (removed constraints
    /// included: they are still visited).
    pub(crate) fn projections(&self) -> usize {
        self.all().iter().map(|s| s.count()).sum()
    }

    /// What iteration `cx.iteration` hands every set.
    pub(crate) fn iteration<'a>(&self, cx: &StepContext<'a>) -> Iteration<'a> {
        Iteration {
            inv_h2: cx.inv_h2,
            solver: cx.solver,
            relaxation: cx.relaxation,
            first: cx.first_iteration(),
            exec: cx.exec,
            work: cx.work,
            phase: crate::solver::classes::Phase {
                substep: cx.substep,
                substeps: cx.substeps,
            },
        }
    }

    /// Brings every set's run classes up to date (see
    /// [`ConstraintSet::refresh_classes`]).
    pub(crate) fn refresh_classes(
        &mut self,
        classes: Option<&crate::solver::classes::ParticleClasses<'_>>,
    ) -> crate::error::Result<()> {
        for set in self.all_mut() {
            set.refresh_classes(classes)?;
        }
        Ok(())
    }

    /// The first sweep of an iteration with the particle pass `pass` fused into it
    /// ([`ConstraintSet::project_fused`]), when the first set of the registry that has
    /// constraints is the distance or the link set (the first two) and it can take the
    /// pass. Returns the index of the set that ran (skip it in [`Self::project`]), or
    /// None, having done nothing (then the caller runs the pass on its own).
    pub(crate) fn project_fused(
        &mut self,
        particles: &mut Particles,
        it: &Iteration<'_>,
        pass: ParticlePass<'_>,
    ) -> Option<usize> {
        let k = self.fused_candidate()?;
        self.candidate_set(k)
            .project_fused(particles, it, pass)
            .then_some(k)
    }

    /// The set [`Self::project_jacobi_epilogue`] may run: the candidate of
    /// [`Self::fused_candidate`] when no other set of the registry has constraints
    /// (nothing projected after it in the iteration).
    pub(crate) fn sole_candidate(&self) -> Option<usize> {
        let k = self.fused_candidate()?;
        let others = self
            .all()
            .iter()
            .enumerate()
            .any(|(j, s)| j != k && s.count() > 0);
        (!others).then_some(k)
    }

    /// Jacobi: the last iteration of a substep of the only set with constraints
    /// ([`Self::sole_candidate`]) with the particle pass `pass` fused into its gather
    /// (`DistanceConstraints::project_jacobi_epilogue`). Returns the index of the set
    /// that ran (skip it in [`Self::project`]), or None, having done nothing.
    pub(crate) fn project_jacobi_epilogue(
        &mut self,
        particles: &mut Particles,
        it: &Iteration<'_>,
        pass: ParticlePass<'_>,
    ) -> Option<usize> {
        let k = self.sole_candidate()?;
        self.candidate_set(k)
            .project_jacobi_epilogue(particles, it, pass)
            .then_some(k)
    }

    /// The set of index `k` of [`Self::fused_candidate`]: the distance set (0) or the
    /// link set (1).
    fn candidate_set(&mut self, k: usize) -> &mut DistanceConstraints {
        if k == 0 {
            &mut self.distance
        } else {
            &mut self.link
        }
    }

    /// The set [`Self::project_fused`] offers the pass: the distance set (0), else the
    /// link set (1), when it has constraints.
    pub(crate) fn fused_candidate(&self) -> Option<usize> {
        if !self.distance.is_empty() {
            Some(0)
        } else if !self.link.is_empty() {
            Some(1)
        } else {
            None
        }
    }

    /// One iteration of the constraint stage: every set in registry order but the set
    /// `done` (which [`Self::project_fused`] ran already), with the stage `slot`
    /// projected at [`FLUID_SLOT`] (the fluids' density constraints, with the context
    /// that lends them the colliders), so one call keeps the registry's order
    /// whatever stands between its two parts. `probe(i)` is called before entry `i`
    /// of the iteration (the sets in registry order with the fluids at
    /// [`FLUID_SLOT`]: set k is entry k before the slot and k + 1 after it; the set
    /// `done` is not visited): the profiler's boundaries.
    pub(crate) fn project(
        &mut self,
        particles: &mut Particles,
        it: &Iteration<'_>,
        done: Option<usize>,
        slot: (&mut dyn Stage, &StepContext<'_>),
        mut probe: impl FnMut(usize),
    ) {
        let (stage, cx) = slot;
        for (k, set) in self.all_mut().into_iter().enumerate() {
            if k == FLUID_SLOT {
                probe(FLUID_SLOT);
                stage.project(particles, cx);
            }
            if done != Some(k) {
                probe(k + usize::from(k >= FLUID_SLOT));
                set.project(particles, it);
            }
        }
    }

    /// Snapshot: the sets `range` of the registry, in registry order (the world saves
    /// the fluids at [`FLUID_SLOT`], between the two parts, as they always were).
    pub(crate) fn save(&self, w: &mut Writer<'_>, range: Range<usize>) {
        for set in &self.all_persist()[range] {
            set.save(w);
        }
    }

    /// Snapshot: the sets `range` [`Self::save`] wrote, over the loaded particles of
    /// `cx`, into this registry (default sets).
    pub(crate) fn load(
        &mut self,
        r: &mut Reader<'_>,
        cx: &LoadContext<'_>,
        range: Range<usize>,
    ) -> crate::error::Result<()> {
        for set in &mut self.all_persist_mut()[range] {
            set.load(r, cx)?;
        }
        Ok(())
    }

    /// Snapshot: checks what ties the loaded sets together (a torn cloth's tethers).
    pub(crate) fn check_loaded(&self) -> crate::error::Result<()> {
        let tethers = self.tether.len();
        codec::ensure(
            self.torn
                .cloths
                .iter()
                .all(|c| c.tethers.end as usize <= tethers),
            || "a torn cloth names tethers that do not exist".to_string(),
        )
    }

    /// Recomputes Jacobi weights after inverse masses changed.
    pub(crate) fn update_jacobi_weights(&mut self, particles: &Particles) {
        let hot = &particles.hot;
        for set in self.all_mut() {
            set.update_jacobi_weights(hot);
        }
    }
}

/// The constraint stage: the sweeps rebuilt since the last step checked at its start,
/// λ resets at the start of a substep (attachment hosts
/// interpolated), plastic flow at its end. Its projection takes the iteration's
/// solver state, the set the fused sweep ran and the stage projected at
/// [`FLUID_SLOT`] ([`ConstraintSets::project`]), so the pipeline calls that
/// directly.
impl Stage for ConstraintSets {
    fn begin_step(
        &mut self,
        _particles: &mut Particles,
        _cx: &StepContext<'_>,
    ) -> crate::error::Result<()> {
        for set in self.all_mut() {
            set.begin_step()?;
        }
        Ok(())
    }

    fn begin_substep(&mut self, _particles: &mut Particles, cx: &StepContext<'_>) {
        for set in self.all_mut() {
            set.begin_substep(cx.substep, cx.substeps, cx.solver);
        }
    }

    fn end_substep(&mut self, particles: &mut Particles, _cx: &StepContext<'_>) {
        for set in self.all_mut() {
            set.end_substep(particles);
        }
    }

    fn end_step(&mut self, _particles: &mut Particles, _cx: &StepContext<'_>) {
        for set in self.all_mut() {
            set.end_step();
        }
    }

    fn work(&self) -> usize {
        self.projections()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_kind_has_exactly_one_set() {
        let sets = ConstraintSets::default();
        for kind in FamilyKind::ALL {
            let n = sets
                .all_edit()
                .iter()
                .filter(|s| s.kind() == Some(kind))
                .count();
            // Distance and body links are found by field: they share one type.
            let want = usize::from(!matches!(kind, FamilyKind::Distance | FamilyKind::BodyLink));
            assert_eq!(n, want, "{kind:?}");
            assert_eq!(FamilyKind::from_u32(kind as u32), Some(kind));
        }
    }
}
