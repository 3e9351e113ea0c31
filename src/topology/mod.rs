//! Topology edits of the step: what removes or re-points constraints and particles
//! while the world runs. Breaking (`breaking`: break forces, rope cuts, the event
//! queue), winches (`winch`: ropes paying links in and out) and cloth tearing
//! (`tearing`: the vertex split) keep their state and their algorithms here; `World`
//! holds only the thin API (`world/breaking.rs`, `world/winch.rs`,
//! `world/tearing.rs`) and the C ABI only translates.
//!
//! In the step pipeline (`world::step`) topology is one stage: breaking and the
//! winches at the end of every substep (after the velocity update, before the
//! constraint sets' own end of substep), tearing at the end of the step (after the
//! recovery pass). Every edit runs serially in a fixed order and allocates nothing, so
//! the results do not depend on the thread count. The torn cloths' constraints are
//! projected by the registry set `crate::constraints::tearing::TornCloths`.

pub(crate) mod breaking;
pub(crate) mod tearing;
pub(crate) mod winch;

use crate::constraints::ConstraintSets;
use crate::error::Result;
use crate::particles::Particles;
use crate::pipeline::StepContext;
use crate::snapshot::codec::{Reader, Writer};

/// The topology state of a world: break thresholds and events, winches.
#[derive(Default)]
pub(crate) struct Topology {
    /// Break forces, rope cuts and the break-event queue.
    pub breaking: breaking::Breaking,
    /// Winches changing ropes' lengths.
    pub winches: Vec<winch::Winch>,
}

impl Topology {
    /// End of a substep: breaks the overloaded constraints of `sets`, then advances
    /// every winch (both edit `sets`; the winches also move, park and unpark
    /// particles).
    pub(crate) fn end_substep(
        &mut self,
        sets: &mut ConstraintSets,
        particles: &mut Particles,
        cx: &StepContext<'_>,
    ) {
        self.breaking.break_overloaded(sets, particles, cx.h);
        winch::advance_winches(&mut self.winches, sets, particles, cx.h);
    }

    /// End of a step: the torn cloths split at their over-stretched edges.
    pub(crate) fn end_step(&mut self, sets: &mut ConstraintSets, particles: &mut Particles) {
        tearing::tear_cloths(sets, particles);
    }

    /// Whether [`Self::end_substep`] changes particles (a winch moves and unparks
    /// them; breaking only removes constraints).
    pub(crate) fn moves_particles_between_substeps(&self) -> bool {
        !self.winches.is_empty()
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
    /// and the `particles` count.
    pub(crate) fn load(
        r: &mut Reader<'_>,
        sets: &ConstraintSets,
        particles: usize,
    ) -> Result<Topology> {
        let breaking = breaking::Breaking::load(r, sets, particles)?;
        let n = r.get_count(60, "winches")?;
        let mut winches = crate::error::try_with_capacity(n, "winches")?;
        for _ in 0..n {
            winches.push(winch::Winch::load(r, sets, particles)?);
        }
        Ok(Topology { breaking, winches })
    }
}
