//! Constraint families. Each family stores its own struct-of-arrays set, sorted into
//! colours at build time, and knows how to project itself (`ConstraintSet`). The
//! registry (the `constraint_sets!` list that declares [`ConstraintSets`]) is the one
//! place that names every set and fixes the projection order; the step, force readback, removal and
//! the Jacobi bookkeeping loop over it (ARCHITECTURE.md).

pub mod attachment;
pub mod bending;
pub mod breaking;
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
pub mod winch;

pub use distance::DistanceConstraints;
pub use set::FamilyKind;
pub(crate) use set::{ConstraintSet, Iteration};

use crate::particles::Particles;
use crate::snapshot::codec::{self, Reader, Writer};
use crate::snapshot::LoadContext;
use crate::solver::Solver;
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
/// order of one solver iteration). `all()` and `all_mut()` return the sets in that
/// order; the step, force readback, removal and the Jacobi bookkeeping loop over them.
macro_rules! constraint_sets {
    ($( $(#[$doc:meta])* $field:ident: $ty:ty, )+) => {
        /// Every constraint set (distance and every other family), plus attachments
        /// and per-body damping: what the solver projects in each iteration. The
        /// fields are in projection order.
        #[derive(Default)]
        pub struct ConstraintSets {
            $( $(#[$doc])* pub $field: $ty, )+
            /// 2D worlds: all motion in the plane z = this value.
            pub(crate) planar: Option<f32>,
            /// Extra velocity damping (1/s) of particle ranges (bodies).
            pub(crate) damped: Vec<(std::ops::Range<u32>, f32)>,
            /// Break forces, rope cuts and the break-event queue.
            pub(crate) breaking: breaking::Breaking,
            /// Winches changing ropes' lengths.
            pub(crate) winches: Vec<winch::Winch>,
        }

        /// Number of sets in the registry.
        const SET_COUNT: usize = [$(stringify!($field)),+].len();

        impl ConstraintSets {
            /// Every set, in projection order.
            pub(crate) fn all(&self) -> [&dyn ConstraintSet; SET_COUNT] {
                [$(&self.$field),+]
            }

            /// Every set, in projection order, mutable.
            pub(crate) fn all_mut(&mut self) -> [&mut dyn ConstraintSet; SET_COUNT] {
                [$(&mut self.$field),+]
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
    /// Density constraints of the fluids, coupled with solid particles (dimensionless).
    fluids: crate::fluid::FluidSet,
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
    pub(crate) fn family(&self, kind: FamilyKind) -> &dyn ConstraintSet {
        match kind {
            FamilyKind::Distance => return &self.distance,
            FamilyKind::BodyLink => return &self.link,
            _ => {}
        }
        self.all()
            .into_iter()
            .find(|s| s.kind() == Some(kind))
            .expect("every FamilyKind has a set in the registry")
    }

    /// The set of a family, mutable (as [`Self::family`]).
    pub(crate) fn family_mut(&mut self, kind: FamilyKind) -> &mut dyn ConstraintSet {
        match kind {
            FamilyKind::Distance => return &mut self.distance,
            FamilyKind::BodyLink => return &mut self.link,
            _ => {}
        }
        self.all_mut()
            .into_iter()
            .find(|s| s.kind() == Some(kind))
            .expect("every FamilyKind has a set in the registry")
    }

    /// Start of substep `s` of `n`: resets every λ, interpolates attachment hosts.
    pub(crate) fn begin_substep(&mut self, s: u32, n: u32, solver: Solver) {
        for set in self.all_mut() {
            set.begin_substep(s, n, solver);
        }
    }

    /// Constraint projections of one iteration over every set (removed constraints
    /// included: they are still visited).
    pub(crate) fn projections(&self) -> usize {
        self.all().iter().map(|s| s.count()).sum()
    }

    /// One iteration over every set, in registry order. A particle pass due first
    /// (`it.prologue`) runs inside the sweep of the first set when that is the
    /// distance or the link set (the first two of the registry; the link set when the
    /// distance set is empty) and it can take it, else on its own before any set.
    pub(crate) fn project(&mut self, particles: &mut Particles, it: &Iteration<'_>) {
        let mut fused = None;
        if let Some(pass) = it.prologue {
            let first = if !self.distance.is_empty() {
                Some((0, &mut self.distance))
            } else if !self.link.is_empty() {
                Some((1, &mut self.link))
            } else {
                None
            };
            fused = first
                .and_then(|(k, set)| set.project_with_prologue(particles, it, pass).then_some(k));
            if fused.is_none() {
                set::run_prologue(particles, it.exec, pass);
            }
        }
        for (k, set) in self.all_mut().into_iter().enumerate() {
            if fused != Some(k) {
                set.project(particles, it);
            }
        }
    }

    /// After the velocity update of a substep of length `h` (s): breaks overloaded
    /// constraints (`breaking`), winches (`winch`), per-body damping,
    /// each set's end of substep (plastic flow of shape-matching clusters), the 2D
    /// plane.
    pub(crate) fn end_substep(
        &mut self,
        particles: &mut Particles,
        h: f32,
        exec: &crate::solver::parallel::Executor,
    ) {
        self.break_overloaded(particles, h);
        self.advance_winches(particles, h);
        for (range, damping) in &self.damped {
            let f = (-damping * h).exp();
            for v in &mut particles.velocity[range.start as usize..range.end as usize] {
                *v *= f;
            }
        }
        for set in self.all_mut() {
            set.end_substep(particles);
        }
        // Fluids: viscosity, vorticity, cohesion and adhesion (velocities).
        let crate::fluid::FluidSet { fluids, solver, .. } = &mut self.fluids;
        solver.end_substep(fluids.items_mut(), particles, h, exec);
        if let Some(z) = self.planar {
            ring::flatten(particles, z);
        }
    }

    /// Whether [`Self::end_substep`] changes particles (per-body damping, the 2D plane,
    /// or a winch, which moves and unparks particles; breaking only removes
    /// constraints, and the sets' own `end_substep` only reads particles).
    pub(crate) fn end_substep_moves_particles(&self) -> bool {
        !self.damped.is_empty()
            || self.planar.is_some()
            || !self.winches.is_empty()
            || self.fluids.solver.is_active()
    }

    /// Start of a step: the fluid solver's constants, coupled solids and room
    /// ([`crate::fluid::solver::DensitySolver::prepare`]).
    pub(crate) fn prepare_fluids(&mut self, particles: &Particles) -> crate::error::Result<()> {
        let crate::fluid::FluidSet { fluids, solver, .. } = &mut self.fluids;
        solver.prepare(fluids.items(), particles, self.planar)
    }

    /// Constraint projections the fluids cost per iteration (for the parallel region).
    pub(crate) fn fluid_work(&self) -> usize {
        if self.fluids.solver.is_active() {
            self.fluids.solver.work(self.fluids.fluids.items())
        } else {
            0
        }
    }

    /// End of a step.
    pub(crate) fn end_step(&mut self) {
        for set in self.all_mut() {
            set.end_step();
        }
    }

    /// Snapshot: every set in registry order, then the 2D plane and the damped ranges.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        for set in self.all() {
            set.save(w);
        }
        w.put_option(self.planar);
        w.put_len(self.damped.len());
        for (range, damping) in &self.damped {
            w.put((range.start, range.end));
            w.put(*damping);
        }
        self.breaking.save(w);
        w.put_len(self.winches.len());
        for winch in &self.winches {
            winch.save(w);
        }
    }

    /// Snapshot: the sets [`Self::save`] wrote, over the loaded particles of `cx`.
    pub(crate) fn load(r: &mut Reader<'_>, cx: &LoadContext<'_>) -> crate::error::Result<Self> {
        let mut sets = ConstraintSets::default();
        for set in sets.all_mut() {
            set.load(r, cx)?;
        }
        let tethers = sets.tether.len();
        codec::ensure(
            sets.torn
                .cloths
                .iter()
                .all(|c| c.tethers.end as usize <= tethers),
            || "a torn cloth names tethers that do not exist".to_string(),
        )?;
        sets.planar = r.get_option()?;
        let n = r.get_count(12, "damped ranges")?;
        let mut damped = crate::error::try_with_capacity(n, "damped ranges")?;
        for _ in 0..n {
            let (start, end) = r.get::<(u32, u32)>()?;
            codec::ensure(start <= end && end as usize <= cx.hot.len(), || {
                format!("damped range {start}..{end} of {} particles", cx.hot.len())
            })?;
            damped.push((start..end, r.get::<f32>()?));
        }
        sets.damped = damped;
        sets.breaking = breaking::Breaking::load(r, &sets, cx.hot.len())?;
        let n = r.get_count(60, "winches")?;
        let mut winches = crate::error::try_with_capacity(n, "winches")?;
        for _ in 0..n {
            winches.push(winch::Winch::load(r, &sets, cx.hot.len())?);
        }
        sets.winches = winches;
        Ok(sets)
    }

    /// Recomputes Jacobi weights after inverse masses changed.
    pub(crate) fn update_jacobi_weights(&mut self, particles: &Particles) {
        let hot = &particles.hot;
        for set in self.all_mut() {
            set.update_jacobi_weights(hot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_kind_has_exactly_one_set() {
        let sets = ConstraintSets::default();
        for kind in FamilyKind::ALL {
            let n = sets.all().iter().filter(|s| s.kind() == Some(kind)).count();
            // Distance and body links are found by field: they share one type.
            let want = usize::from(!matches!(kind, FamilyKind::Distance | FamilyKind::BodyLink));
            assert_eq!(n, want, "{kind:?}");
            assert_eq!(FamilyKind::from_u32(kind as u32), Some(kind));
        }
    }
}
