//! Topology edits of the step: what removes or re-points constraints and particles
//! while the world runs. Breaking (`breaking`: break forces, rope cuts, the event
//! queue), winches (`winch`: ropes paying links in and out, attached and reeled in at
//! once) and cloth tearing (`tearing`: the torn set built when tearing is turned on,
//! the vertex split) keep their state and their algorithms here; they edit the
//! constraint sets through `ConstraintEdit` and the sets' own small accessors. `World`
//! holds only the thin API (`world/breaking.rs`, `world/winch.rs`,
//! `world/tearing.rs`: checks, then one call here) and the C ABI only translates.
//!
//! In the step pipeline (`world::step`) topology is one stage, [`TopologyStage`]:
//! breaking and the winches at the end of every substep (after the velocity update,
//! before the constraint sets' own end of substep), tearing at the end of the step
//! (after the recovery pass). The table lends it the constraint sets for each call
//! ([`Topology::stage`]). Every edit runs serially in a fixed order and allocates
//! nothing, so the results do not depend on the thread count. The torn cloths'
//! constraints are projected by the registry set
//! `crate::constraints::tearing::TornCloths`.

pub(crate) mod breaking;
pub(crate) mod tearing;
pub(crate) mod winch;

use crate::constraints::ConstraintSets;
use crate::error::Result;
use crate::particles::Particles;
use crate::pipeline::{Stage, StepContext};
use crate::snapshot::codec::{Reader, Writer};

/// What [`Topology::ropes`] calls a breakable rope.
pub(crate) const BREAKABLE: &str = "a breakable rope";

/// The topology state of a world: break thresholds and events, winches.
#[derive(Default)]
pub(crate) struct Topology {
    /// Break forces, rope cuts and the break-event queue.
    pub breaking: breaking::Breaking,
    /// Winches changing ropes' lengths.
    pub winches: Vec<winch::Winch>,
}

impl Topology {
    /// The topology stage of one call: this state with the constraint sets it edits
    /// lent to it (the pipeline table builds one per stage it runs).
    pub(crate) fn stage<'a>(&'a mut self, sets: &'a mut ConstraintSets) -> TopologyStage<'a> {
        TopologyStage { state: self, sets }
    }

    /// Snapshot: the break thresholds, ropes and events, then the winches.
    pub(crate) fn save(&self, w: &mut Writer<'_>) {
        self.breaking.save(w);
        w.put_len(self.winches.len());
        for winch in &self.winches {
            winch.save(w);
        }
    }

    /// Snapshot: what [`Self::save`] wrote, every id checked against the loaded `sets`
    /// and the `particles` count, at most one winch per rope (as the API keeps it).
    /// The ropes of both are checked against the rope bodies by the world
    /// ([`Self::ropes`]).
    pub(crate) fn load(
        r: &mut Reader<'_>,
        sets: &ConstraintSets,
        particles: usize,
    ) -> Result<Topology> {
        let breaking = breaking::Breaking::load(r, sets, particles)?;
        let n = r.get_count(60, "winches")?;
        let mut winches: Vec<winch::Winch> = crate::error::try_with_capacity(n, "winches")?;
        for k in 0..n {
            let w = winch::Winch::load(r, sets, particles)?;
            crate::snapshot::codec::ensure(!winches.iter().any(|o| o.rope == w.rope), || {
                format!("winch {k} is a second winch on its rope")
            })?;
            winches.push(w);
        }
        Ok(Topology { breaking, winches })
    }

    /// Every rope this state names (the breakable ropes, then the winches' ropes), with
    /// what names it: for the snapshot loader's check against the bodies.
    pub(crate) fn ropes(&self) -> impl Iterator<Item = (&breaking::RopeCut, &'static str)> {
        let breakable = self.breaking.ropes.iter().map(|r| (r, BREAKABLE));
        breakable.chain(self.winches.iter().map(|w| (&w.rope, "a winch's rope")))
    }
}

/// The topology stage: breaking and the winches at the end of every substep, tearing
/// at the end of the step. It edits the constraint sets, which the pipeline lends it
/// for the call ([`Topology::stage`]).
pub(crate) struct TopologyStage<'a> {
    /// Break thresholds and events, winches.
    pub state: &'a mut Topology,
    /// The constraint sets the edits remove, re-point or resize.
    pub sets: &'a mut ConstraintSets,
}

impl Stage for TopologyStage<'_> {
    /// Breaks the overloaded constraints, then advances every winch (both edit the
    /// sets; the winches also move, park and unpark particles).
    fn end_substep(&mut self, particles: &mut Particles, cx: &StepContext<'_>) {
        let Topology { breaking, winches } = &mut *self.state;
        breaking.break_overloaded(self.sets, particles, cx.h);
        winch::advance_winches(winches, self.sets, particles, cx.h);
    }

    /// The torn cloths split at their over-stretched edges; every rope may part again
    /// in the next step.
    fn end_step(&mut self, particles: &mut Particles, _cx: &StepContext<'_>) {
        tearing::tear_cloths(self.sets, particles);
        self.state.breaking.end_step();
    }

    /// A winch moves and unparks particles at the end of a substep; breaking only
    /// removes constraints.
    fn moves_particles_between_substeps(&self) -> bool {
        !self.state.winches.is_empty()
    }
}
